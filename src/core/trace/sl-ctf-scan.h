/* sl-ctf-scan.h: every packet of a CTF stream file checked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-tsdl.h"

G_BEGIN_DECLS

/**
 * SlCtfStream:
 * @path: the stream file
 * @size: its size in bytes
 * @good_bytes: the bytes of its good packets from the start: a decoder
 *   may read these (equal to @size when the whole file is good)
 * @n_packets: good packets
 * @offsets: (element-type guint64): each good packet's offset
 * @checked: FALSE when the metadata's packet layout depends on the data
 *   (the file is then taken as it is)
 * @foreign: the packets carry another trace UUID than the metadata's
 * @problem: (nullable): why the rest of the file (from @good_bytes) is
 *   left out, naming the offset
 * @first_ns, @last_ns: the good packets' time range (G_MAXINT64,
 *   G_MININT64 when unknown)
 */
typedef struct
{
  char    *path;
  guint64  size;
  guint64  good_bytes;
  guint    n_packets;
  GArray  *offsets;
  gboolean checked;
  gboolean foreign;
  guint8   uuid[16];
  char    *problem;
  gint64   first_ns;
  gint64   last_ns;
  guint    cut_tries;
} SlCtfStream;

void     sl_ctf_stream_clear     (SlCtfStream  *stream);
gboolean sl_ctf_scan_stream      (const SlTsdl *tsdl,
                                  const char   *path,
                                  SlCtfStream  *stream,
                                  GError      **error);
gboolean sl_ctf_scan_buffer      (const SlTsdl *tsdl,
                                  const guint8 *data,
                                  gsize         len,
                                  SlCtfStream  *stream);

guint64  sl_ctf_read_bits        (const guint8 *buf,
                                  guint64       bit,
                                  guint         size,
                                  gboolean      big_endian);
void     sl_ctf_write_bits       (guint8       *buf,
                                  guint64       bit,
                                  guint         size,
                                  gboolean      big_endian,
                                  guint64       value);

G_END_DECLS
