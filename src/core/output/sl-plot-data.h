/* sl-plot-data.h: what a link's plot shows, without cairo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built from the engine by sl-plot.c; the model hands it to the GUI's
 * hull plot, which draws it itself. sl-plot.h draws it with cairo.
 */

#pragma once

#include <glib.h>
#include <math.h>

#include "sl-engine.h"

G_BEGIN_DECLS

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
 *   y = t_b - t_a - @ref_ns in µs, at most %SL_PLOT_MAX_POINTS each: with
 *   more, the lowest and the highest of each run of consecutive points
 *   (an outlier is never thinned away)
 * @n_points: points of each direction before thinning
 * @n_dropped: points of each direction the engine no longer keeps (the
 *   live retention: the older ones; its cap: those far from the band),
 *   which @points cannot show (the legend says how many)
 * @hull: hull vertices of each direction, same units
 * @has_line, @line_y: Lmin, Lmax and the estimate at x = 0 and x = @x_end
 * @x_end: last point's x
 * @accuracy: x = input time (s after the input's first match, as the
 *   views count it: sl_engine_get_first_input_time()), y = alpha_max -
 *   alpha_min in ppm (NAN: unbounded), from the journal
 * @n_windows: the link's windows (see #SlWindowInfo); with more than one,
 *   the hulls and lines above describe the first window only and are left
 *   out (empty, has_line %FALSE): @path and @band are the link
 * @path: the link's estimate over the points, a polyline through its
 *   pieces' ends (same units)
 * @band_lo, @band_hi: the estimate minus and plus its bound at the bound's
 *   points (the guarantee; linear in between)
 * @window_x: where one window ends and the next starts
 * @failures: the steps and wrong matches, x = from, y = to (both in s)
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
  guint64      n_dropped[2];
  GArray      *hull[2];
  gboolean     has_line[SL_PLOT_N_LINES];
  double       line_y[SL_PLOT_N_LINES][2];
  double       x_end;
  GArray      *accuracy;
  guint        n_windows;
  GArray      *path;
  GArray      *band_lo;
  GArray      *band_hi;
  GArray      *window_x;
  GArray      *failures;
  gint64       version;
} SlPlotData;

#define SL_PLOT_MAX_POINTS 20000

SlPlotData *sl_plot_data_build          (SlEngine      *engine,
                                         guint          link);
SlPlotData *sl_plot_data_ref            (SlPlotData    *self);
void        sl_plot_data_unref          (SlPlotData    *self);
gint64      sl_plot_data_link_version   (SlEngine      *engine,
                                         guint          link);

/**
 * SlPlotBeyond:
 * @n: points above (0) and below (1) the y range shown, within its x range
 * @far: the farthest of them (µs, same units as the points), NAN for none
 * @thinned: the points were thinned (over %SL_PLOT_MAX_POINTS in a
 *   direction): each run keeps its lowest and highest, so every run with
 *   points beyond has one drawn, but @n can count fewer than there are
 *
 * What a hull plot whose y axis ends at the band and the points near it
 * does not show at their place: they are drawn at the frame's edge and
 * counted (sl_plot_draw_beyond()).
 */
typedef struct
{
  guint    n[2];
  double   far[2];
  gboolean thinned;
} SlPlotBeyond;

void        sl_plot_hull_y_range        (const SlPlotData *data,
                                         double            x0,
                                         double            x1,
                                         double           *ymin,
                                         double           *ymax);
void        sl_plot_count_beyond        (const SlPlotData *data,
                                         double            x0,
                                         double            x1,
                                         double            ymin,
                                         double            ymax,
                                         SlPlotBeyond     *beyond);

/* A round step (1, 2 or 5 times a power of ten) giving about @n ticks over
 * @range; shared with the GUI's plots. */
double      sl_plot_nice_step           (double         range,
                                         int            n);

/* [*lo, *hi] widened to take @v in; a NaN or infinite @v is left out.
 * The ranges of the core's panels and of the GUI's plot. */
static inline void
sl_plot_range_extend (double *lo,
                      double *hi,
                      double  v)
{
  if (!isfinite (v))
    return;
  *lo = MIN (*lo, v);
  *hi = MAX (*hi, v);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlPlotData, sl_plot_data_unref)

G_END_DECLS
