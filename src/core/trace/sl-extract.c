/* sl-extract.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "sl-ctf-writer.h"
#include "sl-extract.h"
#include "sl-types.h"

enum
{
  ID_TCP_SEND,
  ID_TCP_RECV,
  ID_INET_OUT,
  ID_INET_IN,
};

static const char *const events[] = {
  [ID_TCP_SEND] = "syncline_net:tcp_send",
  [ID_TCP_RECV] = "syncline_net:tcp_recv",
  [ID_INET_OUT] = "inet_sock_local_out",
  [ID_INET_IN] = "inet_sock_local_in",
};

/* README, Instrumenting your own programs; and the old out-of-tree
 * lttng-modules events, for packet events without addresses. Both end
 * with the TCP payload length (UINT32_MAX: not known), which the
 * estimate uses and extracts before it lack. */
static const char tcp_fields[] =
  "uint8_t family;\n"
  "uint8_t saddr[16];\n"
  "uint8_t daddr[16];\n"
  "uint16_t sport;\n"
  "uint16_t dport;\n"
  "uint32_t seq;\n"
  "uint32_t ack_seq;\n"
  "uint16_t flags;\n"
  "uint32_t length;\n";
static const char inet_fields[] =
  "uint32_t seq;\n"
  "uint32_t ack_seq;\n"
  "uint16_t flags;\n"
  "uint32_t length;\n";

struct _SlExtract
{
  char        *dir;
  char        *hostname;
  guint8       clock_uuid[16];
  guint8       trace_uuid[16];
  gsize        packet_size;
  SlCtfStream *stream;
  guint        n_streams;
  gint64       first;
  gint64       last;
  guint64      n;
};

static gboolean
parse_uuid (const char *text,
            guint8      out[16])
{
  guint k = 0;

  for (const char *p = text; p != NULL && *p != '\0'; p++)
    {
      int hi, lo;

      if (*p == '-')
        continue;
      if (k == 16 || (hi = g_ascii_xdigit_value (p[0])) < 0 || (lo = g_ascii_xdigit_value (p[1])) < 0)
        return FALSE;
      out[k++] = (guint8) (hi << 4 | lo);
      p++;
    }
  return k == 16;
}

static void
hash_uuid (const char *a,
           const char *b,
           guint8      out[16])
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize len = sizeof digest;

  g_checksum_update (sum, (const guchar *) "syncline-extract", -1);
  g_checksum_update (sum, (const guchar *) a, (gssize) strlen (a) + 1);
  g_checksum_update (sum, (const guchar *) b, -1);
  g_checksum_get_digest (sum, digest, &len);
  memcpy (out, digest, 16);
}

/**
 * sl_extract_new:
 * @dir: the host's folder, created (it should not hold a trace yet)
 * @clock_uuid: (nullable): the host's clock UUID; without one (or one that
 *   is not 32 hex digits) a UUID is made from @hostname
 * @packet_size: bytes per CTF packet (lttng's sub-buffer), a multiple of
 *   4096: what one host holds in memory while it is written
 */
SlExtract *
sl_extract_new (const char  *dir,
                const char  *hostname,
                const char  *clock_uuid,
                gsize        packet_size,
                GError     **error)
{
  SlExtract *self;
  char uuid[37];

  g_return_val_if_fail (dir != NULL && hostname != NULL, NULL);
  g_return_val_if_fail (packet_size >= 4096 && packet_size % 4096 == 0, NULL);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "%s: %s", dir, g_strerror (errsv));
      return NULL;
    }
  self = g_new0 (SlExtract, 1);
  self->dir = g_strdup (dir);
  self->hostname = g_strdup (hostname);
  self->packet_size = packet_size;
  self->first = G_MAXINT64;
  self->last = G_MININT64;
  if (!parse_uuid (clock_uuid, self->clock_uuid))
    hash_uuid (hostname, "clock", self->clock_uuid);
  sl_ctf_uuid_to_string (self->clock_uuid, uuid);
  hash_uuid (hostname, uuid, self->trace_uuid);
  return self;
}

void
sl_extract_free (SlExtract *self)
{
  if (self == NULL)
    return;
  sl_ctf_stream_free (self->stream);
  g_free (self->dir);
  g_free (self->hostname);
  g_free (self);
}

static gboolean
close_stream (SlExtract  *self,
              GError    **error)
{
  gboolean ok;

  if (self->stream == NULL)
    return TRUE;
  ok = sl_ctf_stream_close (self->stream, (guint64) MAX (self->last, 0), error);
  g_clear_pointer (&self->stream, sl_ctf_stream_free);
  return ok;
}

/* A new stream file: the first one, or when the host's time goes back
 * (a stream's timestamps never do). */
static gboolean
open_stream (SlExtract  *self,
             GError    **error)
{
  SlCtfStreamOptions so = { 0 };
  g_autofree char *name = g_strdup_printf ("packets_%u", self->n_streams);
  g_autofree char *path = g_build_filename (self->dir, name, NULL);

  if (!close_stream (self, error))
    return FALSE;
  memcpy (so.trace_uuid, self->trace_uuid, 16);
  so.stream_instance_id = self->n_streams;
  so.packet_size = self->packet_size;
  so.header = SL_CTF_HEADER_LARGE;
  /* thousands of hosts may be written at once */
  so.keep_closed = TRUE;
  self->stream = sl_ctf_stream_new (path, &so, error);
  self->n_streams++;
  return self->stream != NULL;
}

gboolean
sl_extract_add (SlExtract           *self,
                const SlPacketEvent *e,
                GError             **error)
{
  gboolean send = e->dir == SL_PACKET_SEND;

  g_return_val_if_fail (self != NULL && e != NULL, FALSE);

  if (e->time < 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "%s: a packet event before 1970 (%" G_GINT64_FORMAT " ns) cannot be extracted",
                   self->hostname, e->time);
      return FALSE;
    }
  if ((self->stream == NULL || e->time < self->last) && !open_stream (self, error))
    return FALSE;

  if (e->family == 4 || e->family == 6)
    {
      sl_ctf_stream_begin_event (self->stream, send ? ID_TCP_SEND : ID_TCP_RECV, (guint64) e->time, 64);
      sl_ctf_put_u8 (self->stream, e->family);
      sl_ctf_put_bytes (self->stream, e->saddr, 16);
      sl_ctf_put_bytes (self->stream, e->daddr, 16);
      sl_ctf_put_u16 (self->stream, e->sport);
      sl_ctf_put_u16 (self->stream, e->dport);
    }
  else
    sl_ctf_stream_begin_event (self->stream, send ? ID_INET_OUT : ID_INET_IN, (guint64) e->time, 16);
  sl_ctf_put_u32 (self->stream, e->seq);
  sl_ctf_put_u32 (self->stream, e->ack_seq);
  sl_ctf_put_u16 (self->stream, e->flags);
  sl_ctf_put_u32 (self->stream, e->has_length ? e->length : G_MAXUINT32);
  sl_ctf_stream_end_event (self->stream);

  self->n++;
  self->first = MIN (self->first, e->time);
  self->last = e->time;
  return TRUE;
}

guint64
sl_extract_get_n_packets (SlExtract *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n;
}

/* Closes the streams and writes the metadata with the host's identity. */
gboolean
sl_extract_finish (SlExtract            *self,
                   const SlExtractInfo  *info,
                   GError              **error)
{
  g_autoptr(GString) meta = g_string_new (NULL);
  g_autofree char *path = NULL;
  SlCtfEnv env[] = {
    { "hostname", self->hostname, 0 },
    { "domain", "kernel", 0 },
    { "tracer_name", "syncline-extract", 0 },
    { "syncline_extract_events", NULL, (gint64) info->events },
    { "syncline_extract_packet_events", NULL, (gint64) self->n },
    { "syncline_extract_ignored", NULL, (gint64) info->ignored },
    { "syncline_extract_first_ns", NULL, self->n > 0 ? self->first : 0 },
    { "syncline_extract_last_ns", NULL, self->n > 0 ? self->last : 0 },
    { "syncline_extract_sources", info->sources != NULL ? info->sources : "", 0 },
    /* last: left out without a span */
    { "syncline_extract_span_first_ns", NULL, info->span_first },
    { "syncline_extract_span_last_ns", NULL, info->span_last },
  };
  SlCtfTraceInfo ti = { 0 };

  g_return_val_if_fail (self != NULL && info != NULL, FALSE);

  /* a host without packet events still gets its trace, with one empty
   * packet */
  if ((self->stream == NULL && !open_stream (self, error)) || !close_stream (self, error))
    return FALSE;

  memcpy (ti.uuid, self->trace_uuid, 16);
  ti.env = env;
  ti.n_env = G_N_ELEMENTS (env) - (info->has_span ? 0 : 2);
  ti.clock_name = "monotonic";
  ti.clock_description = "Syncline extract: ns since the epoch, the host's own clock";
  memcpy (ti.clock_uuid, self->clock_uuid, 16);
  ti.clock_freq = 1000000000;
  ti.header = SL_CTF_HEADER_LARGE;
  sl_ctf_metadata_append_preamble (meta, &ti);
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    sl_ctf_metadata_append_event (meta, events[i], i, 0, i <= ID_TCP_RECV ? tcp_fields : inet_fields);

  path = g_build_filename (self->dir, "metadata", NULL);
  return g_file_set_contents (path, meta->str, (gssize) meta->len, error);
}
