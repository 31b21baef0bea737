/* sl-plot.h: per-link synchronization plots (PNG and SVG, drawn with cairo)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <glib.h>

#include "sl-engine.h"

G_BEGIN_DECLS

/* Colours of the plotted items, as 8-bit RGB, so that tests (and a GUI
 * legend) can find them in the pictures. */
#define SL_PLOT_RGB_AB       0x1f77b4 /* packets sent by a (above) */
#define SL_PLOT_RGB_BA       0xff7f0e /* packets sent by b (below) */
#define SL_PLOT_RGB_ESTIMATE 0xd62728 /* the estimate */

#define SL_PLOT_WIDTH  1200
#define SL_PLOT_HEIGHT 900

typedef struct
{
  double x;
  double y;
} SlPlotPoint;

enum
{
  SL_PLOT_LINE_LMIN,
  SL_PLOT_LINE_LMAX,
  SL_PLOT_LINE_ESTIMATE,
  SL_PLOT_N_LINES
};

/**
 * SlPlotData:
 * @link: engine link index
 * @a, @b: the hosts in the report's orientation (a < b by name)
 * @x0: a's time (ns) of the first point; x values are seconds after it
 * @ref_ns: offset subtracted from every y value (ns)
 * @points: matched packets of each direction (0: sent by a), x in s,
 *   y = t_b - t_a - @ref_ns in µs, at most %SL_PLOT_MAX_POINTS each
 * @n_points: points of each direction before thinning
 * @hull: hull vertices of each direction, same units
 * @has_line, @line_y: Lmin, Lmax and the estimate at x = 0 and x = @x_end
 * @x_end: last point's x
 * @accuracy: x = input time (s after @x0), y = alpha_max - alpha_min in
 *   ppm (NAN: unbounded), from the journal
 * @version: the link's change counter when captured
 *
 * Immutable once built; reference counted (g_atomic_rc_box).
 */
typedef struct
{
  guint        link;
  guint        a;
  guint        b;
  gint64       x0;
  double       ref_ns;
  GArray      *points[2];
  guint64      n_points[2];
  GArray      *hull[2];
  gboolean     has_line[SL_PLOT_N_LINES];
  double       line_y[SL_PLOT_N_LINES][2];
  double       x_end;
  GArray      *accuracy;
  gint64       version;
} SlPlotData;

#define SL_PLOT_MAX_POINTS 20000

SlPlotData *sl_plot_data_build          (SlEngine      *engine,
                                         guint          link);
SlPlotData *sl_plot_data_ref            (SlPlotData    *self);
void        sl_plot_data_unref          (SlPlotData    *self);
gint64      sl_plot_data_link_version   (SlEngine      *engine,
                                         guint          link);

/* Shared with the GUI's plots */
double      sl_plot_nice_step           (double         range,
                                         int            n);
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
