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
 * @warnings: (nullable) (element-type utf8): where to add what was left
 *   out (a stream of a synchronized host whose damaged or partial packet
 *   ends its copy, as it ends what was decoded), each naming the file
 * @error: return location for a #GError naming the file at fault
 *
 * Writes every trace of every host of @reader to
 * `out_dir/<host>/<trace>`, where `<trace>` is the trace's path below the
 * folder common to the host's traces (the trace folder's name when the
 * host has one trace), every path resolved first and checked to stay below
 * @out_dir (nothing is written otherwise); a host name longer than 200
 * bytes is cut and given a hash. `metadata` is written as plain text
 * (packetized metadata is unpacked). A host placed on another host's
 * clock has a piecewise-linear map, which a (linear) CTF clock cannot
 * express: its clocks become 1 GHz clocks (`offset_s` the whole seconds
 * below the map of cycle 0, `offset` 0) and every clock value of its
 * stream files is rewritten to the map of its time (sl-ctf-retime.h), and
 * of its `index/` files; the copy is exact to the ns at every event.
 * Reference hosts and hosts joined to no reference keep their clocks:
 * their stream files and `index/` are hard-linked, or copied when linking
 * fails.
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
                           GPtrArray      *warnings,
                           GError        **error);
gboolean sl_export_traces_saved (SlTraceReader        *reader,
                                 const SlTransformSet *saved,
                                 const char           *out_dir,
                                 GPtrArray            *warnings,
                                 GError              **error);

G_END_DECLS
