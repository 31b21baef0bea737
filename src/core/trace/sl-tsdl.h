/* sl-tsdl.h: CTF 1.8 metadata (TSDL) parsed and checked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * What Syncline needs from a trace's metadata before babeltrace2 sees it:
 * whether babeltrace2 2.0.4 can survive it (it aborts on some constructs:
 * see sl-tsdl-check.c), the host (env), the clocks, and the layout of the
 * packet header and each stream's packet context, to check every packet
 * of the stream files (sl-ctf-scan.c). Errors name the metadata line.
 */

typedef struct _SlTsdl SlTsdl;

/* @offset_s_span, @offset_span: where their values are in the text
 * (start, end; 0, 0 when absent), to give another trace's offset. */
typedef struct
{
  char     *name;
  gboolean  has_uuid;
  guint8    uuid[16];
  guint64   freq;
  gint64    offset_s;
  guint64   offset;
  gboolean  absolute;
  guint     line;
  gsize     offset_s_span[2];
  gsize     offset_span[2];
} SlTsdlClock;

/* A fixed-layout integer field of the packet header or context. */
typedef struct
{
  gboolean present;
  guint64  bit_offset;
  guint    size;
  gboolean big_endian;
  gboolean is_signed;
  int      clock;
} SlTsdlField;

typedef enum
{
  SL_TSDL_F_MAGIC,
  SL_TSDL_F_STREAM_ID,
  SL_TSDL_F_STREAM_INSTANCE_ID,
  SL_TSDL_F_TS_BEGIN,
  SL_TSDL_F_TS_END,
  SL_TSDL_F_CONTENT_SIZE,
  SL_TSDL_F_PACKET_SIZE,
  SL_TSDL_F_DISCARDED,
  SL_TSDL_F_SEQ_NUM,
  SL_TSDL_F_CPU_ID,
  SL_TSDL_N_FIELDS
} SlTsdlFieldId;

/* Where a packet's header and context fields are, for one stream class;
 * @fixed is FALSE when their size depends on the data (strings,
 * sequences, variants): the packets are then not checked. */
typedef struct
{
  gboolean    fixed;
  guint64     header_bits;
  guint64     context_bits;
  gboolean    has_uuid;
  guint64     uuid_bit_offset;
  SlTsdlField f[SL_TSDL_N_FIELDS];
} SlTsdlLayout;

SlTsdl            *sl_tsdl_parse             (const char    *text,
                                              gsize          len,
                                              GError       **error);
void               sl_tsdl_free              (SlTsdl        *tsdl);
const char        *sl_tsdl_get_env           (const SlTsdl  *tsdl,
                                              const char    *key);
const GPtrArray   *sl_tsdl_get_warnings      (const SlTsdl  *tsdl);
gboolean           sl_tsdl_get_uuid          (const SlTsdl  *tsdl,
                                              guint8        *uuid);
guint              sl_tsdl_get_n_clocks      (const SlTsdl  *tsdl);
const SlTsdlClock *sl_tsdl_get_clock         (const SlTsdl  *tsdl,
                                              guint          index);
guint              sl_tsdl_get_n_streams     (const SlTsdl  *tsdl);
gboolean           sl_tsdl_find_stream       (const SlTsdl  *tsdl,
                                              guint64        id,
                                              guint         *index);
const SlTsdlLayout *sl_tsdl_get_layout       (const SlTsdl  *tsdl,
                                              guint          stream);
const SlTsdlLayout *sl_tsdl_get_header_layout (const SlTsdl *tsdl);
guint64            sl_tsdl_get_max_static_bytes (const SlTsdl *tsdl);

gboolean           sl_tsdl_clock_ns          (const SlTsdlClock *clock,
                                              guint64            cycles,
                                              gint64            *ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTsdl, sl_tsdl_free)

G_END_DECLS
