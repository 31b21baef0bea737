/* sl-plot-data.c: what a link's plot shows, from the engine, without cairo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-plot-data.h"
#include "sl-segments.h"
#include "sl-report.h"

/* Plot data: a link in the report's orientation, in plot units (shared
 * with the desktop application's hull plot) */

static void
plot_data_clear (gpointer data)
{
  SlPlotData *self = data;

  for (guint d = 0; d < 2; d++)
    {
      g_clear_pointer (&self->points[d], g_array_unref);
      g_clear_pointer (&self->hull[d], g_array_unref);
    }
  g_clear_pointer (&self->accuracy, g_array_unref);
  g_clear_pointer (&self->path, g_array_unref);
  g_clear_pointer (&self->band_lo, g_array_unref);
  g_clear_pointer (&self->band_hi, g_array_unref);
  g_clear_pointer (&self->window_x, g_array_unref);
  g_clear_pointer (&self->failures, g_array_unref);
}

/* With several windows the offsets are shown against the estimate, which
 * follows the clocks' wander: the estimate is 0, its bound a band around
 * it. */
static void
build_path (SlPlotData       *self,
            SlEngine         *engine,
            guint             link,
            const SlRelation *fwd,
            const SlRelation *rel,
            gboolean          flipped,
            gint64            x0,
            gint64            x1)
{
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (gint64));
  SlSegments *seg = sl_engine_get_link_segments (engine, link);

  self->path = g_array_new (FALSE, FALSE, sizeof (SlPlotPoint));
  self->band_lo = g_array_new (FALSE, FALSE, sizeof (SlPlotPoint));
  self->band_hi = g_array_new (FALSE, FALSE, sizeof (SlPlotPoint));
  self->window_x = g_array_new (FALSE, FALSE, sizeof (double));
  self->failures = g_array_new (FALSE, FALSE, sizeof (SlPlotPoint));
  if (rel == NULL || x0 >= x1)
    return;

  /* the pieces' ends (both sides of each start) and the bound's points,
   * both in order: merged */
  {
    guint np = sl_relation_get_n_pieces (rel), nb = sl_relation_get_n_bounds (rel), i = 1, k = 0;
    const SlBoundPoint *bp = sl_relation_get_bounds (rel);

    g_array_append_val (xs, x0);
    while (i < np || k < nb)
      {
        gint64 ps = i < np ? sl_relation_get_piece (rel, i, NULL) : G_MAXINT64;
        gint64 x = k < nb && bp[k].x < ps ? bp[k++].x : (i++, ps);

        if (x <= x0 || x >= x1)
          continue;
        if (x == ps)
          {
            gint64 before = x - 1;

            g_array_append_val (xs, before);
          }
        g_array_append_val (xs, x);
      }
    g_array_append_val (xs, x1);
  }
  for (guint i = 0; i < xs->len; i++)
    {
      gint64 x = g_array_index (xs, gint64, i);
      gint64 whole;
      double frac, b = sl_relation_bound_at (rel, x), y;
      SlPlotPoint p;

      if (i > 0 && x <= g_array_index (xs, gint64, i - 1))
        continue;
      sl_relation_apply_split (rel, x, &whole, &frac);
      y = self->n_windows > 1 ? 0 : (double) (whole - x) + frac - self->ref_ns;
      p.x = (double) (x - self->x0) / 1e9;
      p.y = y / 1e3;
      g_array_append_val (self->path, p);
      p.y = isfinite (b) ? (y - b) / 1e3 : NAN;
      g_array_append_val (self->band_lo, p);
      p.y = isfinite (b) ? (y + b) / 1e3 : NAN;
      g_array_append_val (self->band_hi, p);
    }

  /* windows and failures are on the engine's a's clock */
  for (guint i = 1; i < self->n_windows; i++)
    {
      SlWindowInfo w;
      gint64 x;
      double wx;

      sl_segments_get_window (seg, i, &w);
      x = flipped ? sl_relation_apply (fwd, w.start) : w.start;
      wx = (double) (x - self->x0) / 1e9;
      g_array_append_val (self->window_x, wx);
    }
  for (guint i = 0; i < sl_segments_get_n_failures (seg); i++)
    {
      SlFailureInfo f;
      SlPlotPoint p;

      sl_segments_get_failure (seg, i, &f);
      p.x = (double) ((flipped ? sl_relation_apply (fwd, f.from) : f.from) - self->x0) / 1e9;
      p.y = (double) ((flipped ? sl_relation_apply (fwd, f.to) : f.to) - self->x0) / 1e9;
      g_array_append_val (self->failures, p);
    }
}

SlPlotData *
sl_plot_data_ref (SlPlotData *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
sl_plot_data_unref (SlPlotData *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_rc_box_release_full (self, plot_data_clear);
}

gint64
sl_plot_data_link_version (SlEngine *engine,
                           guint     link)
{
  g_return_val_if_fail (engine != NULL, -1);
  g_return_val_if_fail (link < sl_engine_get_n_links (engine), -1);

  return (gint64) sl_hull_get_version (sl_engine_get_link_hull (engine, link));
}

/* L(t) - t in ns, exact in 64 bits before the conversion to double. */
static double
line_offset_at (const SlTransform *l,
                gint64             t)
{
  gint64 whole;
  double frac;

  sl_transform_apply_split (l, t, &whole, &frac);
  return (double) (whole - t) + frac;
}

static SlPoint
orient_point (SlPoint  p,
              gboolean flipped)
{
  if (flipped)
    return (SlPoint) { p.y, p.x };
  return p;
}

/* The a's-time span of the points and hull vertices, oriented. */
static void
raw_x_span (GArray  **raw_pts,
            GArray  **raw_hull,
            gboolean  flipped,
            gint64   *x0,
            gint64   *x1)
{
  *x0 = G_MAXINT64;
  *x1 = G_MININT64;
  for (guint d = 0; d < 2; d++)
    {
      for (guint i = 0; i < raw_pts[d]->len; i++)
        {
          SlPoint q = orient_point (g_array_index (raw_pts[d], SlPoint, i), flipped);
          *x0 = MIN (*x0, q.x);
          *x1 = MAX (*x1, q.x);
        }
      for (guint i = 0; i < raw_hull[d]->len; i++)
        {
          SlPoint q = orient_point (g_array_index (raw_hull[d], SlPoint, i), flipped);
          *x0 = MIN (*x0, q.x);
          *x1 = MAX (*x1, q.x);
        }
    }
  if (*x0 > *x1)
    *x0 = *x1 = 0;
}

/* Lmin and Lmax in the report's orientation: inverting a line swaps which
 * slope is the smaller one. */
static void
oriented_bounds (SlPlotData         *self,
                 const SlHullResult *r,
                 gboolean            flipped,
                 SlTransform        *lines)
{
  if (!flipped)
    {
      self->has_line[SL_PLOT_LINE_LMIN] = r->has_lmin;
      lines[SL_PLOT_LINE_LMIN] = r->lmin;
      self->has_line[SL_PLOT_LINE_LMAX] = r->has_lmax;
      lines[SL_PLOT_LINE_LMAX] = r->lmax;
      return;
    }
  self->has_line[SL_PLOT_LINE_LMIN] = r->has_lmax && sl_transform_get_slope (&r->lmax) > 0;
  if (self->has_line[SL_PLOT_LINE_LMIN])
    sl_transform_invert (&r->lmax, &lines[SL_PLOT_LINE_LMIN]);
  self->has_line[SL_PLOT_LINE_LMAX] = r->has_lmin && sl_transform_get_slope (&r->lmin) > 0;
  if (self->has_line[SL_PLOT_LINE_LMAX])
    sl_transform_invert (&r->lmin, &lines[SL_PLOT_LINE_LMAX]);
}

/* The points of both directions, at most SL_PLOT_MAX_POINTS each, against
 * the estimate at x0 (@rel: a piecewise one, each point against it there);
 * without an estimate the first point gives the reference offset. With
 * more points, each run of consecutive ones keeps its lowest and its
 * highest (in their order): a retransmission 200 ms late stays drawn. */
static void
plot_points (SlPlotData       *self,
             GArray          **raw_pts,
             gboolean          flipped,
             const SlRelation *rel,
             gint64            x0,
             gboolean          has_ref)
{
  for (guint d = 0; d < 2; d++)
    {
      guint n = raw_pts[d]->len;
      guint run = n <= SL_PLOT_MAX_POINTS ? 1 : (2 * n + SL_PLOT_MAX_POINTS - 1) / SL_PLOT_MAX_POINTS;

      if (!has_ref && n > 0)
        {
          SlPoint q = orient_point (g_array_index (raw_pts[d], SlPoint, 0), flipped);
          self->ref_ns = (double) (q.y - q.x);
          has_ref = TRUE;
        }
      self->n_points[d] = n;
      self->points[d] = g_array_sized_new (FALSE, FALSE, sizeof (SlPlotPoint), MIN (n, SL_PLOT_MAX_POINTS) + 2);
      for (guint i = 0; i < n; i += run)
        {
          SlPlotPoint lo = { 0, INFINITY }, hi = { 0, -INFINITY };
          guint ilo = i, ihi = i;

          for (guint k = i; k < MIN (n, i + run); k++)
            {
              SlPoint q = orient_point (g_array_index (raw_pts[d], SlPoint, k), flipped);
              SlPlotPoint p = { (double) (q.x - x0) / 1e9, ((double) (q.y - q.x) - self->ref_ns) / 1e3 };

              if (rel != NULL)
                p.y = (double) (q.y - sl_relation_apply (rel, q.x)) / 1e3;
              if (p.y < lo.y)
                {
                  lo = p;
                  ilo = k;
                }
              if (p.y > hi.y)
                {
                  hi = p;
                  ihi = k;
                }
            }
          if (ilo == ihi)
            g_array_append_val (self->points[d], lo);
          else if (ilo < ihi)
            {
              g_array_append_val (self->points[d], lo);
              g_array_append_val (self->points[d], hi);
            }
          else
            {
              g_array_append_val (self->points[d], hi);
              g_array_append_val (self->points[d], lo);
            }
        }
    }
}

static void
plot_hulls (SlPlotData  *self,
            GArray     **raw_hull,
            gboolean     flipped,
            gint64       x0)
{
  for (guint d = 0; d < 2; d++)
    {
      self->hull[d] = g_array_sized_new (FALSE, FALSE, sizeof (SlPlotPoint), raw_hull[d]->len);
      for (guint i = 0; i < raw_hull[d]->len; i++)
        {
          SlPoint q = orient_point (g_array_index (raw_hull[d], SlPoint, i), flipped);
          SlPlotPoint p = { (double) (q.x - x0) / 1e9, ((double) (q.y - q.x) - self->ref_ns) / 1e3 };
          g_array_append_val (self->hull[d], p);
        }
    }
}

/* The link's accuracy changes. Journal entries name the link's hosts in
 * either order; their input times are on the merge's clock (each host's
 * shifted by its coarse offset), counted from the input's first match as
 * the Changes and Links tables count them: from a's first point on a's
 * own clock they read −3600 s for a host an hour ahead. */
static void
plot_accuracy (SlPlotData         *self,
               SlJournal          *journal,
               const SlReportLink *rl,
               gint64              input0)
{
  self->accuracy = g_array_new (FALSE, FALSE, sizeof (SlPlotPoint));
  for (guint64 seq = sl_journal_get_first_seq (journal);
       seq < sl_journal_get_next_seq (journal); seq++)
    {
      const SlChange *c = sl_journal_get (journal, seq);
      SlPlotPoint p;

      if (c == NULL || c->kind != SL_CHANGE_LINK)
        continue;
      if (!((c->a == rl->info.a && c->b == rl->info.b) || (c->a == rl->info.b && c->b == rl->info.a)))
        continue;
      p.x = (double) (c->input_time - input0) / 1e9;
      p.y = isfinite (c->value) && c->value > 0 ? c->value * 1e6 : NAN;
      g_array_append_val (self->accuracy, p);
    }
}

SlPlotData *
sl_plot_data_build (SlEngine *engine,
                    guint     link)
{
  const SlHull *hull;
  SlPlotData *self;
  SlReportLink rl;
  SlHullResult r;
  SlTransform lines[SL_PLOT_N_LINES];
  GArray *raw_pts[2], *raw_hull[2];
  gint64 x0, x1;
  gboolean has_ref = FALSE, multi;
  g_autoptr(SlRelation) fwd = NULL;
  g_autoptr(SlRelation) rel = NULL;

  g_return_val_if_fail (engine != NULL, NULL);
  g_return_val_if_fail (link < sl_engine_get_n_links (engine), NULL);

  hull = sl_engine_get_link_hull (engine, link);
  self = g_atomic_rc_box_new0 (SlPlotData);
  self->link = link;
  self->version = sl_plot_data_link_version (engine, link);

  sl_report_get_link (engine, link, &rl);
  sl_hull_get_result (hull, &r);
  self->a = rl.a;
  self->b = rl.b;

  /* Direction d (0: sent by the report's a) is the engine's a_to_b unless
   * the link is flipped. */
  for (guint d = 0; d < 2; d++)
    {
      gboolean a_to_b = rl.flipped ? d == 1 : d == 0;

      raw_pts[d] = sl_engine_get_link_points (engine, link, a_to_b);
      self->n_dropped[d] = rl.info.points_dropped[a_to_b ? 0 : 1];
      raw_hull[d] = sl_hull_get_hull (hull, a_to_b);
    }
  raw_x_span (raw_pts, raw_hull, rl.flipped, &x0, &x1);
  self->x0 = x0;
  fwd = sl_engine_get_link_relation (engine, link);
  rel = fwd == NULL ? NULL : rl.flipped ? sl_relation_invert (fwd) : sl_relation_ref (fwd);
  self->n_windows = sl_segments_get_n_windows (sl_engine_get_link_segments (engine, link));
  multi = self->n_windows > 1 && rel != NULL;

  oriented_bounds (self, &r, rl.flipped, lines);
  self->has_line[SL_PLOT_LINE_ESTIMATE] = rl.info.has_estimate;
  lines[SL_PLOT_LINE_ESTIMATE] = rl.estimate;

  if (self->has_line[SL_PLOT_LINE_ESTIMATE])
    {
      self->ref_ns = line_offset_at (&lines[SL_PLOT_LINE_ESTIMATE], x0);
      has_ref = isfinite (self->ref_ns);
    }

  plot_points (self, raw_pts, rl.flipped, multi ? rel : NULL, x0, has_ref);
  plot_hulls (self, raw_hull, rl.flipped, x0);
  for (guint d = 0; d < 2; d++)
    {
      g_array_unref (raw_pts[d]);
      g_array_unref (raw_hull[d]);
    }

  for (guint k = 0; k < SL_PLOT_N_LINES; k++)
    if (self->has_line[k])
      {
        self->line_y[k][0] = (line_offset_at (&lines[k], x0) - self->ref_ns) / 1e3;
        self->line_y[k][1] = (line_offset_at (&lines[k], x1) - self->ref_ns) / 1e3;
        if (!isfinite (self->line_y[k][0]) || !isfinite (self->line_y[k][1]))
          self->has_line[k] = FALSE;
      }
  self->x_end = (double) (x1 - x0) / 1e9;

  build_path (self, engine, link, fwd, rel, rl.flipped, x0, x1);
  if (self->n_windows > 1)
    {
      /* the raw hull and its lines are the first window's */
      for (guint k = 0; k < SL_PLOT_N_LINES; k++)
        self->has_line[k] = FALSE;
      for (guint d = 0; d < 2; d++)
        g_array_set_size (self->hull[d], 0);
    }

  plot_accuracy (self, sl_engine_get_journal (engine), &rl, sl_engine_get_first_input_time (engine));
  return self;
}

/* A line of the plot (Lmin, Lmax, the estimate) at @x */
static double
line_at (const SlPlotData *data,
         guint             k,
         double            x)
{
  double t = data->x_end > 0 ? CLAMP (x / data->x_end, 0, 1) : 0;

  return (1 - t) * data->line_y[k][0] + t * data->line_y[k][1];
}

/**
 * sl_plot_hull_y_range:
 * @x0, @x1: the x range shown
 * @ymin, @ymax: (out): the y range: the hulls, lines, piecewise estimate
 *   and its band over [@x0, @x1], and the points there within three
 *   times their height of them (at least 1 µs), with a margin
 */
void
sl_plot_hull_y_range (const SlPlotData *data,
                      double            x0,
                      double            x1,
                      double           *ymin,
                      double           *ymax)
{
  double ylo = INFINITY, yhi = -INFINITY, pad, clo, chi, reach;

  g_return_if_fail (data != NULL && ymin != NULL && ymax != NULL);

  for (guint d = 0; d < 2; d++)
    for (guint i = 0; i < data->hull[d]->len; i++)
      {
        const SlPlotPoint *q = &g_array_index (data->hull[d], SlPlotPoint, i);

        if (q->x >= x0 && q->x <= x1)
          sl_plot_range_extend (&ylo, &yhi, q->y);
      }
  for (guint k = 0; k < SL_PLOT_N_LINES; k++)
    if (data->has_line[k])
      {
        sl_plot_range_extend (&ylo, &yhi, line_at (data, k, x0));
        sl_plot_range_extend (&ylo, &yhi, line_at (data, k, x1));
      }
  for (guint i = 0; data->path != NULL && i < data->path->len; i++)
    {
      const SlPlotPoint *q = &g_array_index (data->path, SlPlotPoint, i);

      /* the segments that reach into the range */
      if ((i + 1 < data->path->len && g_array_index (data->path, SlPlotPoint, i + 1).x < x0) ||
          (i > 0 && g_array_index (data->path, SlPlotPoint, i - 1).x > x1))
        continue;
      sl_plot_range_extend (&ylo, &yhi, q->y);
      sl_plot_range_extend (&ylo, &yhi, g_array_index (data->band_lo, SlPlotPoint, i).y);
      sl_plot_range_extend (&ylo, &yhi, g_array_index (data->band_hi, SlPlotPoint, i).y);
    }
  clo = ylo;
  chi = yhi;
  reach = clo <= chi ? MAX (3 * (chi - clo), 1.0) : INFINITY;
  for (guint d = 0; d < 2; d++)
    for (guint i = 0; i < data->points[d]->len; i++)
      {
        const SlPlotPoint *q = &g_array_index (data->points[d], SlPlotPoint, i);

        if (q->x >= x0 && q->x <= x1 && (!(clo <= chi) || (q->y >= clo - reach && q->y <= chi + reach)))
          sl_plot_range_extend (&ylo, &yhi, q->y);
      }
  if (!(ylo <= yhi))
    ylo = yhi = 0;
  pad = MAX ((yhi - ylo) * 0.05, 1e-3);
  *ymin = ylo - pad;
  *ymax = yhi + pad;
}

/**
 * sl_plot_count_beyond:
 * @beyond: (out): the points within [@x0, @x1] above @ymax and below
 *   @ymin, and the farthest of each
 */
void
sl_plot_count_beyond (const SlPlotData *data,
                      double            x0,
                      double            x1,
                      double            ymin,
                      double            ymax,
                      SlPlotBeyond     *beyond)
{
  g_return_if_fail (data != NULL && beyond != NULL);

  *beyond = (SlPlotBeyond) { { 0, 0 }, { NAN, NAN }, FALSE };
  for (guint d = 0; d < 2; d++)
    beyond->thinned |= data->n_points[d] > data->points[d]->len;
  for (guint d = 0; d < 2; d++)
    for (guint i = 0; i < data->points[d]->len; i++)
      {
        const SlPlotPoint *q = &g_array_index (data->points[d], SlPlotPoint, i);
        guint side = q->y > ymax ? 0 : 1;

        if (q->x < x0 || q->x > x1 || (q->y <= ymax && q->y >= ymin))
          continue;
        beyond->n[side]++;
        if (isnan (beyond->far[side]) || (side == 0 ? q->y > beyond->far[side] : q->y < beyond->far[side]))
          beyond->far[side] = q->y;
      }
}

