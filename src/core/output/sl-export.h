/* sl-export.h: a synchronized copy of LTTng traces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-engine.h"
#include "sl-trace-reader.h"
#include "sl-transforms-file.h"

G_BEGIN_DECLS

/**
 * sl_export_traces:
 * @reader: a reader that has finished (%SL_TRACE_READER_DONE)
 * @engine: the engine @reader fed
 * @out_dir: folder to create; it must not exist or be empty
 * @error: return location for a #GError naming the file at fault
 *
 * Writes every trace of every host of @reader to
 * `out_dir/<host>/<trace>`, where `<trace>` is the trace's path below the
 * folder common to the host's traces (the trace folder's name when the
 * host has one trace), every path resolved first and checked to stay below
 * @out_dir (nothing is written otherwise); a host name longer than 200
 * bytes is cut and given a hash. Stream files and `index/` are hard-linked, or copied
 * when linking fails. `metadata` is written as plain text (packetized
 * metadata is unpacked) with each `clock` block rewritten so that readers
 * such as babeltrace2 and Trace Compass convert cycles to the host's
 * reference clock: with the host's transform t_ref = s·t + o, the clock
 * gets `freq = round(f / s)` and new `offset_s`/`offset`, matched exactly
 * at the transform's origin. The rounding of `freq` to an integer costs
 * at most 0.5 / freq relative, i.e. 0.5 ns per second away from the
 * origin at 1 GHz (about 1 µs over 30 minutes); the offset is exact to
 * half a cycle. Reference hosts and hosts joined to no reference keep
 * their clocks.
 *
 * Returns: %TRUE on success
 */
gboolean sl_export_check_target (const char         *out_dir,
                                 const char *const  *inputs,
                                 char              **resolved,
                                 GError            **error);
gboolean sl_export_traces (SlTraceReader  *reader,
                           SlEngine       *engine,
                           const char     *out_dir,
                           GError        **error);
gboolean sl_export_traces_saved (SlTraceReader        *reader,
                                 const SlTransformSet *saved,
                                 const char           *out_dir,
                                 GError              **error);

G_END_DECLS
