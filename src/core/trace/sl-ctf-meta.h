/* sl-ctf-meta.h: reading a CTF trace's metadata file safely
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Longest metadata file read (LTTng's are tens to hundreds of kB). */
#define SL_CTF_META_MAX_BYTES (64u << 20)

typedef enum
{
  SL_CTF_META_OK,
  SL_CTF_META_UNREADABLE,
  SL_CTF_META_EMPTY,
  SL_CTF_META_TRUNCATED,
  SL_CTF_META_CORRUPT,
  SL_CTF_META_CTF2,
  SL_CTF_META_NOT_CTF,
} SlCtfMetaStatus;

SlCtfMetaStatus sl_ctf_meta_read_file    (const char    *path,
                                          char         **text,
                                          gsize         *text_len,
                                          gboolean      *packetized,
                                          char         **why);
SlCtfMetaStatus sl_ctf_meta_depacketize  (const guint8  *data,
                                          gsize          len,
                                          char         **text,
                                          gsize         *text_len,
                                          char         **why);
gboolean        sl_ctf_meta_is_ctf2      (const guint8  *data,
                                          gsize          len);

G_END_DECLS
