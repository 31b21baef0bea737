/* sl-ctf-scan.c: every packet of a CTF stream file checked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sl-ctf-scan.h"
#include "sl-safe-io.h"

/*
 * Before babeltrace2 sees a stream file, each packet's header and context
 * are read with the metadata's layout (sl-tsdl-check.c) and checked for
 * what babeltrace2 2.0.4 cannot survive: sizes past the end of the file,
 * below the header or not in bytes (an assertion in its message
 * iterator; zero sizes make it loop with memory growing), a content size
 * above the packet size, an all-ones timestamp_end, packet_seq_num or
 * events_discarded (assertions), time or counters going back, an unknown
 * stream id, a bad magic number. The first damaged packet ends what the
 * decoder reads of the file (@good_bytes); the earlier packets are kept.
 * A file whose packets carry another trace's UUID is foreign: its
 * metadata is not its own. The loop reads only headers and advances by
 * at least one header per packet: its length is bounded by the file's.
 */

#define PACKET_MAGIC 0xc1fc1fc1u

typedef gssize (*ReadAt) (gpointer  data,
                          guint64   offset,
                          guint8   *buf,
                          gsize     len);

void
sl_ctf_stream_clear (SlCtfStream *s)
{
  g_clear_pointer (&s->path, g_free);
  g_clear_pointer (&s->problem, g_free);
  g_clear_pointer (&s->offsets, g_array_unref);
}

/**
 * sl_ctf_read_bits:
 *
 * A field of @size (1 to 64) bits at @bit of @buf, in CTF's bit order
 * (little-endian fields from each byte's low bit, big-endian ones from
 * its high bit). No bounds check: the caller's.
 */
guint64
sl_ctf_read_bits (const guint8 *buf,
                  guint64       bit,
                  guint         size,
                  gboolean      big_endian)
{
  guint64 v = 0;

  if (bit % 8 == 0 && size % 8 == 0)
    {
      const guint8 *p = buf + bit / 8;

      for (guint i = 0; i < size / 8; i++)
        v = big_endian ? (v << 8) | p[i] : v | (guint64) p[i] << (8 * i);
      return v;
    }
  for (guint i = 0; i < size; i++)
    {
      guint64 b = bit + i;
      guint byte = buf[b / 8];
      guint value = big_endian ? (byte >> (7 - b % 8)) & 1 : (byte >> (b % 8)) & 1;

      if (big_endian)
        v = (v << 1) | value;
      else
        v |= (guint64) value << i;
    }
  return v;
}

/**
 * sl_ctf_write_bits:
 *
 * The reverse of sl_ctf_read_bits(): the low @size bits of @value written
 * at @bit, the other bits of the bytes kept.
 */
void
sl_ctf_write_bits (guint8   *buf,
                   guint64   bit,
                   guint     size,
                   gboolean  big_endian,
                   guint64   value)
{
  for (guint i = 0; i < size; i++)
    {
      guint64 b = bit + i;
      guint shift = big_endian ? 7 - b % 8 : b % 8;
      guint v = big_endian ? (value >> (size - 1 - i)) & 1 : (value >> i) & 1;

      buf[b / 8] = (guint8) ((buf[b / 8] & ~(1u << shift)) | (v << shift));
    }
}

typedef struct
{
  guint64  v[SL_TSDL_N_FIELDS];
  gboolean has[SL_TSDL_N_FIELDS];
} Fields;

static void
read_fields (const SlTsdlLayout *l,
             const guint8       *buf,
             guint64             from_bit,
             Fields             *f)
{
  for (guint i = 0; i < SL_TSDL_N_FIELDS; i++)
    if (l->f[i].present && l->f[i].bit_offset >= from_bit)
      {
        f->v[i] = sl_ctf_read_bits (buf, l->f[i].bit_offset, l->f[i].size, l->f[i].big_endian);
        f->has[i] = TRUE;
      }
}

static gboolean
all_ones (const SlTsdlLayout *l,
          const Fields       *f,
          SlTsdlFieldId       id)
{
  guint size = l->f[id].size;

  return f->has[id] && size > 0 && f->v[id] == (size == 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << size) - 1);
}

typedef struct
{
  const SlTsdl *tsdl;
  SlCtfStream  *s;
  ReadAt        read_at;
  gpointer      data;
  guint8        uuid[16];
  gboolean      has_uuid;
  gboolean      has_prev;
  Fields        prev;
} Scan;

static gboolean
damaged (Scan       *sc,
         guint64     off,
         const char *fmt,
         ...) G_GNUC_PRINTF (3, 4);

static gboolean
damaged (Scan       *sc,
         guint64     off,
         const char *fmt,
         ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, fmt);
  what = g_strdup_vprintf (fmt, args);
  va_end (args);
  sc->s->problem = g_strdup_printf ("packet at offset %" G_GUINT64_FORMAT ": %s", off, what);
  sc->s->good_bytes = off;
  return FALSE;
}

static void
note_time (Scan               *sc,
           const SlTsdlLayout *l,
           const Fields       *f)
{
  for (guint i = SL_TSDL_F_TS_BEGIN; i <= SL_TSDL_F_TS_END; i++)
    {
      int c = l->f[i].clock;
      gint64 ns;

      if (f->has[i] && c >= 0 && (guint) c < sl_tsdl_get_n_clocks (sc->tsdl) &&
          sl_tsdl_clock_ns (sl_tsdl_get_clock (sc->tsdl, (guint) c), f->v[i], &ns))
        {
          sc->s->first_ns = MIN (sc->s->first_ns, ns);
          sc->s->last_ns = MAX (sc->s->last_ns, ns);
        }
    }
}

/* Checks the context of the packet at @off; its size in @packet_bytes. */
static gboolean
check_context (Scan               *sc,
               const SlTsdlLayout *l,
               const Fields       *f,
               guint64             off,
               guint64             left,
               guint64            *packet_bytes)
{
  guint64 head = l->header_bits + l->context_bits;
  guint64 psize = f->has[SL_TSDL_F_PACKET_SIZE] ? f->v[SL_TSDL_F_PACKET_SIZE]
                  : f->has[SL_TSDL_F_CONTENT_SIZE] ? f->v[SL_TSDL_F_CONTENT_SIZE] : left * 8;
  guint64 csize = f->has[SL_TSDL_F_CONTENT_SIZE] ? f->v[SL_TSDL_F_CONTENT_SIZE] : psize;

  if (psize % 8 != 0 || psize < head || psize == 0)
    return damaged (sc, off, "a packet size of %" G_GUINT64_FORMAT " bits (at least its %" G_GUINT64_FORMAT
                    "-bit header and context, in bytes)", psize, head);
  if (psize / 8 > left)
    return damaged (sc, off, "the packet needs %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
                    " remain in the file (truncated or damaged)", psize / 8, left);
  if (csize > psize || csize < head)
    return damaged (sc, off, "a content size of %" G_GUINT64_FORMAT " bits in a packet of %" G_GUINT64_FORMAT,
                    csize, psize);
  {
    static const struct { SlTsdlFieldId id; const char *name; } ones[] = {
      { SL_TSDL_F_TS_BEGIN, "timestamp_begin" }, { SL_TSDL_F_TS_END, "timestamp_end" },
      { SL_TSDL_F_SEQ_NUM, "packet_seq_num" }, { SL_TSDL_F_DISCARDED, "events_discarded" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (ones); i++)
      if (all_ones (l, f, ones[i].id))
        return damaged (sc, off, "%s is all ones", ones[i].name);
  }
  if (f->has[SL_TSDL_F_TS_BEGIN] && f->has[SL_TSDL_F_TS_END] &&
      f->v[SL_TSDL_F_TS_END] < f->v[SL_TSDL_F_TS_BEGIN])
    return damaged (sc, off, "it ends before it begins");
  if (sc->has_prev && f->has[SL_TSDL_F_DISCARDED] && f->v[SL_TSDL_F_DISCARDED] < sc->prev.v[SL_TSDL_F_DISCARDED])
    return damaged (sc, off, "its count of discarded events (events_discarded) goes back");
  if (sc->has_prev && f->has[SL_TSDL_F_SEQ_NUM] && f->v[SL_TSDL_F_SEQ_NUM] <= sc->prev.v[SL_TSDL_F_SEQ_NUM])
    return damaged (sc, off, "its sequence number (packet_seq_num) does not grow");
  if (sc->has_prev && f->has[SL_TSDL_F_TS_BEGIN] && sc->prev.has[SL_TSDL_F_TS_END] &&
      f->v[SL_TSDL_F_TS_BEGIN] < sc->prev.v[SL_TSDL_F_TS_BEGIN])
    return damaged (sc, off, "it begins before the previous packet");
  *packet_bytes = psize / 8;
  return TRUE;
}

/* Checks the packet at @off; TRUE with its size when it is good. */
static gboolean
check_packet (Scan    *sc,
              guint64  off,
              guint64 *packet_bytes)
{
  const SlTsdlLayout *hl = sl_tsdl_get_header_layout (sc->tsdl);
  const SlTsdlLayout *l;
  g_autofree guint8 *buf = NULL;
  guint64 left = sc->s->size - off, need = (hl->header_bits + 7) / 8;
  Fields f = { 0 };
  guint stream = 0;

  buf = g_malloc0 (MAX (need, 1));
  if (need > left || sc->read_at (sc->data, off, buf, need) != (gssize) need)
    return damaged (sc, off, "its header is cut (the file ends)");
  read_fields (hl, buf, 0, &f);
  if (f.has[SL_TSDL_F_MAGIC] && f.v[SL_TSDL_F_MAGIC] != PACKET_MAGIC)
    return damaged (sc, off, "bad magic number 0x%08" G_GINT64_MODIFIER "x", f.v[SL_TSDL_F_MAGIC]);
  if (hl->has_uuid && sc->has_uuid && memcmp (buf + hl->uuid_bit_offset / 8, sc->uuid, 16) != 0)
    {
      if (sc->s->n_packets == 0)
        {
          sc->s->foreign = TRUE;
          memcpy (sc->s->uuid, buf + hl->uuid_bit_offset / 8, 16);
        }
      return damaged (sc, off, "another trace's UUID");
    }
  if (!sl_tsdl_find_stream (sc->tsdl, f.has[SL_TSDL_F_STREAM_ID] ? f.v[SL_TSDL_F_STREAM_ID] : 0, &stream))
    return damaged (sc, off, "stream id %" G_GUINT64_FORMAT " is not in the metadata",
                    f.has[SL_TSDL_F_STREAM_ID] ? f.v[SL_TSDL_F_STREAM_ID] : 0);
  l = sl_tsdl_get_layout (sc->tsdl, stream);
  if (!l->fixed)
    return FALSE;
  need = (l->header_bits + l->context_bits + 7) / 8;
  g_free (buf);
  buf = g_malloc0 (MAX (need, 1));
  if (need > left || sc->read_at (sc->data, off, buf, need) != (gssize) need)
    return damaged (sc, off, "its context is cut (the file ends)");
  read_fields (l, buf, l->header_bits, &f);
  if (!check_context (sc, l, &f, off, left, packet_bytes))
    return FALSE;
  note_time (sc, l, &f);
  sc->prev = f;
  sc->has_prev = TRUE;
  return TRUE;
}

static gboolean
scan (Scan *sc)
{
  SlCtfStream *s = sc->s;
  guint64 off = 0;

  s->good_bytes = s->size;
  s->first_ns = G_MAXINT64;
  s->last_ns = G_MININT64;
  s->offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  sc->has_uuid = sl_tsdl_get_uuid (sc->tsdl, sc->uuid);
  s->checked = sl_tsdl_get_header_layout (sc->tsdl)->fixed;
  for (guint i = 0; s->checked && i < sl_tsdl_get_n_streams (sc->tsdl); i++)
    s->checked = sl_tsdl_get_layout (sc->tsdl, i)->fixed;
  if (!s->checked)
    return TRUE;

  while (off < s->size)
    {
      guint64 bytes = 0;

      if (!check_packet (sc, off, &bytes))
        {
          /* a layout that depends on the data: the rest unchecked */
          if (s->problem == NULL)
            s->good_bytes = s->size;
          break;
        }
      g_array_append_val (s->offsets, off);
      s->n_packets++;
      off += bytes;
    }
  return TRUE;
}

static gssize
read_fd (gpointer  data,
         guint64   offset,
         guint8   *buf,
         gsize     len)
{
  int fd = GPOINTER_TO_INT (data);
  gsize got = 0;

  while (got < len)
    {
      ssize_t n = pread (fd, buf + got, len - got, (off_t) (offset + got));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += (gsize) n;
    }
  return (gssize) got;
}

/**
 * sl_ctf_scan_stream:
 *
 * Checks every packet of the stream file @path against @tsdl. FALSE when
 * the file cannot be opened (a FIFO, a device, unreadable).
 */
gboolean
sl_ctf_scan_stream (const SlTsdl  *tsdl,
                    const char    *path,
                    SlCtfStream   *stream,
                    GError       **error)
{
  Scan sc = { tsdl, stream, read_fd, NULL };
  goffset size = 0;
  int fd;

  g_return_val_if_fail (tsdl != NULL && path != NULL && stream != NULL, FALSE);

  memset (stream, 0, sizeof *stream);
  stream->path = g_strdup (path);
  fd = sl_safe_open_regular (path, &size, error);
  if (fd < 0)
    return FALSE;
  stream->size = (guint64) MAX (size, 0);
  sc.data = GINT_TO_POINTER (fd);
  scan (&sc);
  close (fd);
  return TRUE;
}

typedef struct
{
  const guint8 *data;
  gsize         len;
} Buffer;

static gssize
read_buffer (gpointer  data,
             guint64   offset,
             guint8   *buf,
             gsize     len)
{
  Buffer *b = data;
  gsize n;

  if (offset >= b->len)
    return 0;
  n = MIN (len, b->len - offset);
  memcpy (buf, b->data + offset, n);
  return (gssize) n;
}

/* The same checks on a stream held in memory (the fuzz target). */
gboolean
sl_ctf_scan_buffer (const SlTsdl *tsdl,
                    const guint8 *data,
                    gsize         len,
                    SlCtfStream  *stream)
{
  Buffer b = { data, len };
  Scan sc = { tsdl, stream, read_buffer, &b };

  g_return_val_if_fail (tsdl != NULL && stream != NULL, FALSE);

  memset (stream, 0, sizeof *stream);
  stream->size = len;
  return scan (&sc);
}
