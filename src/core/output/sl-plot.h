/* sl-plot.h: per-link synchronization plots (PNG and SVG, drawn with cairo)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <glib.h>

#include "sl-engine.h"
#include "sl-plot-data.h"

G_BEGIN_DECLS

/* Colours of the plotted items, as 8-bit RGB, so that tests (and a GUI
 * legend) can find them in the pictures. */
#define SL_PLOT_RGB_AB       0x1f77b4 /* packets sent by a (above) */
#define SL_PLOT_RGB_BA       0xff7f0e /* packets sent by b (below) */
#define SL_PLOT_RGB_ESTIMATE 0xd62728 /* the estimate */

#define SL_PLOT_WIDTH  1200
#define SL_PLOT_HEIGHT 900

/* Shared with the GUI's plots */
void        sl_plot_show_text_at        (cairo_t       *cr,
                                         const char    *text,
                                         double         x,
                                         double         y,
                                         double         halign,
                                         double         valign);

/**
 * sl_plot_links:
 * @engine: the engine, after the input is consumed
 * @out_dir: output folder, created if missing
 * @error: return location for a #GError
 *
 * Writes, for every link, `out_dir/A--B.png` and `out_dir/A--B.svg`, where
 * A < B are the host names (sanitized for file names), oriented as in the
 * JSON report. The top panel shows the offset t_b - t_a of the matched
 * packets of both directions against a's time, the two hulls, Lmin, Lmax
 * and the estimate; the bottom panel shows the link's accuracy
 * (alpha_max - alpha_min, ppm, log scale) against input time, from the
 * engine's journal.
 *
 * Returns: %TRUE on success; on failure @error names the path.
 */
gboolean sl_plot_links (SlEngine    *engine,
                        const char  *out_dir,
                        GError     **error);

G_END_DECLS
