/* sl-fuzz-mutate.h: deterministic damage to trace files and LTTV text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every function takes its randomness from @rand only: the same seed gives
 * the same damage. @what receives a short static description of what was
 * done (for the case's log line).
 */

#pragma once

#include <glib.h>

#include "sl-tsdl.h"

G_BEGIN_DECLS

/* Byte-level damage: bit flips (one or many, anywhere or in the first
 * @head bytes), overwrites (random, zero or 0xff runs), truncation, a
 * chunk deleted or repeated. */
void        sl_fuzz_bytes         (GByteArray  *bytes,
                                   GRand       *rand,
                                   gsize        head,
                                   const char **what);

/* TSDL edits, each one a construct babeltrace2 2.0.4 once aborted or
 * looped on, or a generic token edit: duplicate members, reversed or
 * overlapping enum ranges, a dropped enum mapping, huge arrays, a clock
 * without frequency, numbers at their limits, sizes and alignments,
 * deleted, repeated or swapped tokens and lines, deep nesting, CTF 2. */
void        sl_fuzz_tsdl          (GString     *text,
                                   GRand       *rand,
                                   const char **what);

/* Edits of a stream file's packet headers and contexts at the fields'
 * places (from @metadata): all-ones, zero or top-byte values of sizes,
 * timestamps, sequence numbers, discarded counts, stream ids, magic and
 * UUID. FALSE when @metadata has no usable layout. */
gboolean    sl_fuzz_packets       (GByteArray  *stream,
                                   const char  *metadata,
                                   gsize        metadata_len,
                                   GRand       *rand,
                                   const char **what);

/* One field of packet @packet set to @value (or, with @top_byte, its
 * value with the top byte all ones); @offset: the packet's. */
gboolean    sl_fuzz_edit_field    (GByteArray    *stream,
                                   const char    *metadata,
                                   gsize          metadata_len,
                                   guint          packet,
                                   SlTsdlFieldId  field,
                                   guint64        value,
                                   gboolean       top_byte,
                                   guint64       *offset);

/* @uuid written into every packet header of @stream (FALSE: no layout). */
gboolean    sl_fuzz_set_uuid      (GByteArray   *stream,
                                   const char   *metadata,
                                   gsize         metadata_len,
                                   const guint8 *uuid);

/* LTTV unit-case text edits: times at and beyond the estimators' range,
 * NaN, infinities, trace counts and numbers out of range, truncated or
 * repeated lines, stray bytes. */
void        sl_fuzz_lttv          (GString     *text,
                                   GRand       *rand,
                                   const char **what);

/* TSDL text as a packetized CTF metadata file (LTTng's form), its
 * packets @packet_bytes long and carrying @uuid (nullable: zeros). */
GByteArray *sl_fuzz_packetize     (const char   *text,
                                   gsize         len,
                                   const guint8 *uuid,
                                   gsize         packet_bytes);

/* The TSDL text of a metadata file, packetized or not (NULL: not CTF 1.8
 * metadata the checked reader accepts). */
char       *sl_fuzz_metadata_text (const guint8 *data,
                                   gsize         len,
                                   gsize        *text_len);

G_END_DECLS
