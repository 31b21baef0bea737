/* sl-ctf-meta.c: reading a CTF trace's metadata file safely
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sl-ctf-meta.h"
#include "sl-safe-io.h"

/*
 * A metadata file is TSDL text ("/ * CTF 1.8" first) or packets of it:
 * each packet a 37-byte header (magic 0x75d11d57, trace UUID, checksum,
 * content and packet sizes in bits, compression, encryption and checksum
 * schemes, major and minor version) then text. babeltrace2 2.0.4 loops for
 * ever on a packet whose content runs past the end of the file; this is
 * checked before it sees one. CTF 2 metadata (LTTng 2.15's default) is a
 * JSON text sequence that babeltrace2 reads from version 2.1 on, as plain
 * text only: 2.1 takes a packetized file for TSDL whatever its packets
 * hold (and refuses packets of a version other than 1.8).
 */

#define MAGIC       0x75d11d57u
#define HEADER_SIZE 37
/* what the text of packets begins with (babeltrace2 adds it too) */
#define TSDL_SIGNATURE     "/* CTF 1.8 */\n"
#define TSDL_SIGNATURE_LEN (sizeof TSDL_SIGNATURE - 1)

static guint32
read_u32 (const guint8 *p,
          gboolean      swap)
{
  guint32 v;

  memcpy (&v, p, 4);
  return swap ? GUINT32_SWAP_LE_BE (v) : v;
}

/* A JSON text sequence (record separators) whose first object is CTF 2's
 * preamble. */
gboolean
sl_ctf_meta_is_ctf2 (const guint8 *data,
                     gsize         len)
{
  gsize i = 0;

  while (i < len && (data[i] == 0x1e || g_ascii_isspace (data[i])))
    i++;
  if (i == 0 || i >= len || data[i] != '{')
    return FALSE;
  return g_strstr_len ((const char *) data + i, (gssize) MIN (len - i, 4096), "\"preamble\"") != NULL;
}

static SlCtfMetaStatus
fail (char           **why,
      SlCtfMetaStatus  status,
      const char      *fmt,
      ...) G_GNUC_PRINTF (3, 4);

static SlCtfMetaStatus
fail (char           **why,
      SlCtfMetaStatus  status,
      const char      *fmt,
      ...)
{
  va_list args;

  va_start (args, fmt);
  *why = g_strdup_vprintf (fmt, args);
  va_end (args);
  return status;
}

/* A failure that keeps the text read so far (it may still name the host). */
static SlCtfMetaStatus
partial (GString         *s,
         char           **text,
         gsize           *text_len,
         char           **why,
         SlCtfMetaStatus  status,
         const char      *fmt,
         ...) G_GNUC_PRINTF (6, 7);

static SlCtfMetaStatus
partial (GString         *s,
         char           **text,
         gsize           *text_len,
         char           **why,
         SlCtfMetaStatus  status,
         const char      *fmt,
         ...)
{
  va_list args;

  va_start (args, fmt);
  *why = g_strdup_vprintf (fmt, args);
  va_end (args);
  *text_len = s->len;
  *text = g_strndup (s->str, s->len);
  return status;
}

/**
 * sl_ctf_meta_depacketize:
 * @data: a packetized metadata file (the caller saw the magic)
 *
 * The text of its packets, checked as babeltrace2 needs it: every header
 * whole, sizes consistent and within the file, no compression, encryption
 * or checksum. A cut in the last packet's padding is harmless. On failure
 * *text holds what came before the damage.
 */
SlCtfMetaStatus
sl_ctf_meta_depacketize (const guint8  *data,
                         gsize          len,
                         char         **text,
                         gsize         *text_len,
                         char         **why)
{
  g_autoptr(GString) s = g_string_new (TSDL_SIGNATURE);
  gboolean swap = read_u32 (data, FALSE) != MAGIC;
  gsize off = 0;

  *text = NULL;
  while (off < len)
    {
      const guint8 *p = data + off;
      guint32 content, packet;

      if (len - off < HEADER_SIZE)
        return partial (s, text, text_len, why, SL_CTF_META_TRUNCATED, "truncated metadata: packet header cut at offset %" G_GSIZE_FORMAT, off);
      if (read_u32 (p, swap) != MAGIC)
        return partial (s, text, text_len, why, SL_CTF_META_CORRUPT, "corrupt metadata: bad packet magic at offset %" G_GSIZE_FORMAT, off);
      content = read_u32 (p + 24, swap);
      packet = read_u32 (p + 28, swap);
      if (content / 8 < HEADER_SIZE || content % 8 != 0)
        return partial (s, text, text_len, why, SL_CTF_META_CORRUPT, "corrupt metadata: bad packet content size at offset %" G_GSIZE_FORMAT, off);
      if (p[32] != 0 || p[33] != 0 || p[34] != 0)
        return partial (s, text, text_len, why, SL_CTF_META_CORRUPT,
                     "corrupt metadata: compressed, encrypted or checksummed packet at offset %" G_GSIZE_FORMAT, off);
      if (content / 8 > len - off)
        return partial (s, text, text_len, why, SL_CTF_META_TRUNCATED,
                     "truncated metadata: packet at offset %" G_GSIZE_FORMAT " needs %u bytes, the file has %" G_GSIZE_FORMAT,
                     off, content / 8, len - off);
      if (packet < content || packet % 8 != 0)
        return partial (s, text, text_len, why, SL_CTF_META_CORRUPT, "corrupt metadata: bad packet size at offset %" G_GSIZE_FORMAT, off);
      g_string_append_len (s, (const char *) p + HEADER_SIZE, (gssize) (content / 8 - HEADER_SIZE));
      if (packet / 8 >= len - off)
        break;
      off += packet / 8;
    }
  if (memchr (s->str, '\0', s->len) != NULL)
    return fail (why, SL_CTF_META_CORRUPT, "corrupt metadata: a NUL byte in its text");
  *text_len = s->len;
  *text = g_string_free (g_steal_pointer (&s), FALSE);
  return SL_CTF_META_OK;
}

/**
 * sl_ctf_meta_read_file:
 * @text: (out): the TSDL text
 * @packetized: (out) (optional): whether the file is made of packets
 * @why: (out): on failure, one line
 *
 * Reads a metadata file: never a FIFO or device, never more than
 * SL_CTF_META_MAX_BYTES. On failure, *text may hold the text before the
 * damage (free it). CTF 2 metadata gives SL_CTF_META_CTF2 with its text;
 * in packets (*packetized), which no babeltrace2 reads, its text without
 * the packets' headers, to name the host.
 */
SlCtfMetaStatus
sl_ctf_meta_read_file (const char  *path,
                       char       **text,
                       gsize       *text_len,
                       gboolean    *packetized,
                       char       **why)
{
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *data = NULL;
  gsize len;
  guint32 magic;

  *text = NULL;
  *text_len = 0;
  if (packetized != NULL)
    *packetized = FALSE;
  if (!sl_safe_read_file (path, SL_CTF_META_MAX_BYTES, &data, &len, &error))
    return fail (why, SL_CTF_META_UNREADABLE, "cannot read the metadata: %s", error->message);
  if (len == 0)
    return fail (why, SL_CTF_META_EMPTY, "the metadata file is empty");
  if (sl_ctf_meta_is_ctf2 (data, len))
    {
      /* kept: it names the host, and babeltrace2 2.1 reads it (a NUL
       * byte ends it: JSON has none) */
      *text = g_strndup ((const char *) data, len);
      *text_len = strlen (*text);
      return fail (why, SL_CTF_META_CTF2, "CTF 2 metadata");
    }
  if (len < 4)
    return fail (why, SL_CTF_META_CORRUPT, "the metadata file is too short");

  magic = read_u32 (data, FALSE);
  if (magic == MAGIC || GUINT32_SWAP_LE_BE (magic) == MAGIC)
    {
      SlCtfMetaStatus st = sl_ctf_meta_depacketize (data, len, text, text_len, why);

      if (packetized != NULL)
        *packetized = TRUE;
      if (st == SL_CTF_META_OK &&
          sl_ctf_meta_is_ctf2 ((const guint8 *) *text + TSDL_SIGNATURE_LEN, *text_len - TSDL_SIGNATURE_LEN))
        {
          *text_len -= TSDL_SIGNATURE_LEN;
          memmove (*text, *text + TSDL_SIGNATURE_LEN, *text_len + 1);
          return fail (why, SL_CTF_META_CTF2, "CTF 2 metadata in packets");
        }
      return st;
    }
  if (len < 6 || memcmp (data, "/* CTF", 6) != 0)
    return fail (why, SL_CTF_META_NOT_CTF, "not CTF metadata (no packet magic, no “/* CTF” text header)");
  if (memchr (data, '\0', len) != NULL)
    return fail (why, SL_CTF_META_CORRUPT, "corrupt metadata: a NUL byte in its text");
  *text_len = len;
  *text = g_strndup ((const char *) data, len);
  return SL_CTF_META_OK;
}
