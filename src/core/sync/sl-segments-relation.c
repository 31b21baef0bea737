/* sl-segments-relation.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-compare.h"
#include "sl-segments-private.h"

/* The refitted path (refit()): breakpoints from a stab through the middle
 * twentieth of the band, none closer than 10 s apart, and none where the
 * fitted path bends by less than 1 µs. */
#define KNOT_INNER 0.05
#define MIN_PIECE_NS 10e9
#define SIMPLIFY_NS 1000.0

/* The estimate path */

/* @mid: where the estimate aims, the band's middle (moved by the window's
 * payload correction, sl-segments-payload.c) */
typedef struct
{
  double x;
  double lo;
  double hi;
  double mid;
} Check;

typedef struct
{
  double x;
  double y;
  double slope;
} Piece;

/* The pieces of the path: each starts at (x, y) with its slope; the last
 * extends for ever, the first backwards. */
static double
path_at (const GArray *pieces,
         double        x)
{
  const Piece *p = (const Piece *) (gpointer) pieces->data;
  guint lo = 0, hi = pieces->len;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (p[mid].x <= x)
        lo = mid;
      else
        hi = mid;
    }
  return p[lo].y + p[lo].slope * (x - p[lo].x);
}

/* Greedy stabbing from the start point: a piece keeps the interval of
 * slopes whose line stays inside the inner corridor at every check after
 * its start; where none is left it ends at the last check it reached,
 * aimed at the corridor's middle there. Between checks both edges are
 * linear, so the path is inside everywhere. */
static void
stab (const SlSegments *self,
      const Check      *c,
      guint             n,
      double            y0,
      double            inner,
      GArray           *pieces)
{
  Piece cur = { c[0].x, y0, 1.0 };
  guint i = 1;

  while (i < n)
    {
      double lo = self->lo_slope, hi = self->hi_slope;
      guint last = 0;

      for (guint k = i; k < n; k++)
        {
          double mid = c[k].mid, half = (c[k].hi - c[k].lo) / 2 * inner;
          double dx = c[k].x - cur.x;
          double nlo, nhi;

          if (dx <= 0)
            continue;
          nlo = MAX (lo, (mid - half - cur.y) / dx);
          nhi = MIN (hi, (mid + half - cur.y) / dx);
          if (nlo > nhi)
            break;
          lo = nlo;
          hi = nhi;
          last = k;
        }
      if (last == 0)
        {
          /* not even the next check in the inner corridor: aim at its
           * middle, as plausibly as the slope allows */
          double dx = c[i].x - cur.x;

          cur.slope = dx > 0 ? CLAMP ((c[i].mid - cur.y) / dx, self->lo_slope, self->hi_slope)
                             : 1.0;
          last = i;
        }
      else
        {
          double dx = c[last].x - cur.x;

          cur.slope = CLAMP ((c[last].mid - cur.y) / dx, lo, hi);
        }
      g_array_append_val (pieces, cur);
      cur.y += cur.slope * (c[last].x - cur.x);
      cur.x = c[last].x;
      i = last + 1;
    }
  g_array_append_val (pieces, cur);
}

/* The heights of a path's breakpoints refitted: the continuous
 * piecewise-linear function through those breakpoints that is closest, in
 * least squares, to the band's middle at every check. The middle at one
 * check is off the truth by how unevenly the two directions' fastest
 * packets fall near it (a few µs), and a stab only keeps the path within
 * a fraction of the band of it; the fit averages the middles over the
 * checks of a piece and of its neighbours. FALSE (run unchanged) unless
 * the refitted path stays in the inner half of the band at every check
 * and increases within the plausible slopes. */
static gboolean
refit_knots (const SlSegments *self,
             const Check      *c,
             guint             n,
             GArray           *run)
{
  guint k = run->len, i = 0;
  Piece *p = (Piece *) (gpointer) run->data;
  g_autofree double *d = NULL, *e = NULL, *r = NULL, *y = NULL;
  gboolean ok = TRUE;

  if (k < 2 || p[k - 1].x != c[n - 1].x)
    return FALSE;
  /* normal equations of the heights at the k breakpoints: tridiagonal
   * (d on the diagonal, e above it), right-hand side r */
  d = g_new0 (double, k);
  e = g_new0 (double, k);
  r = g_new0 (double, k);
  y = g_new0 (double, k);
  for (guint j = 0; j + 1 < k; j++)
    {
      double x0 = p[j].x, len = p[j + 1].x - x0;

      if (!(len > 0))
        return FALSE;
      for (; i < n && c[i].x <= p[j + 1].x; i++)
        {
          double t = (c[i].x - x0) / len, mid = c[i].mid - p[0].y;

          if (c[i].x < x0)
            continue;
          d[j] += (1 - t) * (1 - t);
          e[j] += (1 - t) * t;
          d[j + 1] += t * t;
          r[j] += (1 - t) * mid;
          r[j + 1] += t * mid;
        }
    }
  /* Thomas algorithm (the matrix is symmetric positive definite: every
   * breakpoint is a check) */
  for (guint j = 1; j < k; j++)
    {
      double f = e[j - 1] / d[j - 1];

      d[j] -= f * e[j - 1];
      r[j] -= f * r[j - 1];
      if (!(d[j] > 0))
        return FALSE;
    }
  y[k - 1] = r[k - 1] / d[k - 1];
  for (guint j = k - 1; j-- > 0;)
    y[j] = (r[j] - e[j] * y[j + 1]) / d[j];
  for (guint j = 0; j < k; j++)
    y[j] += p[0].y;

  for (guint j = 0; j + 1 < k && ok; j++)
    {
      double s = (y[j + 1] - y[j]) / (p[j + 1].x - p[j].x);

      ok = isfinite (s) && s >= self->lo_slope && s <= self->hi_slope;
    }
  for (guint j = 0, m = 0; m < n && ok; m++)
    {
      double v, q = (c[m].hi - c[m].lo) / 4;

      while (j + 2 < k && p[j + 1].x <= c[m].x)
        j++;
      if (c[m].x < p[0].x)
        continue;
      v = y[j] + (y[j + 1] - y[j]) * ((c[m].x - p[j].x) / (p[j + 1].x - p[j].x));
      ok = v >= c[m].lo + q && v <= c[m].hi - q;
    }
  if (!ok)
    return FALSE;
  for (guint j = 0; j + 1 < k; j++)
    {
      p[j].y = y[j];
      p[j].slope = (y[j + 1] - y[j]) / (p[j + 1].x - p[j].x);
    }
  p[k - 1].y = y[k - 1];
  return TRUE;
}

/* The refitted path from a stab's breakpoints (KNOT_INNER: closer to the
 * middle than the plain stab, so that they follow the clocks' curvature)
 * less those closer than MIN_PIECE_NS to the previous one (such short
 * pieces follow the middles' jitter, not the clocks); with all of them if
 * that fails. Measured on generated links (20 packets/s, wander 1 ppm,
 * 12 h): worst true error 3.9 µs against 7.6 µs for the plain stab, with
 * as many pieces; a linear clock keeps a few. */
static gboolean
refit (const SlSegments *self,
       const Check      *c,
       guint             n,
       GArray           *run)
{
  g_autoptr(GArray) thin = g_array_sized_new (FALSE, FALSE, sizeof (Piece), run->len);
  const Piece *p = (const Piece *) (gpointer) run->data;
  double min_len = MIN_PIECE_NS;

  for (guint j = 0; j < run->len; j++)
    {
      if (thin->len > 0 && j + 1 < run->len &&
          p[j].x - g_array_index (thin, Piece, thin->len - 1).x < min_len)
        continue;
      if (j + 1 == run->len && thin->len > 1 &&
          p[j].x - g_array_index (thin, Piece, thin->len - 1).x < min_len)
        g_array_set_size (thin, thin->len - 1);
      g_array_append_val (thin, p[j]);
    }
  if (!refit_knots (self, c, n, thin))
    {
      g_array_set_size (thin, 0);
      g_array_append_vals (thin, run->data, run->len);
      if (!refit_knots (self, c, n, thin))
        return FALSE;
    }
  /* breakpoints where the fitted path hardly bends go, as long as a line
   * from the last one kept stays within SIMPLIFY_NS of the fitted path at
   * every breakpoint it skips; the rest is fitted again */
  {
    g_autoptr(GArray) kept = g_array_sized_new (FALSE, FALSE, sizeof (Piece), thin->len);
    const Piece *q = (const Piece *) (gpointer) thin->data;
    guint a = 0;

    g_array_append_val (kept, q[0]);
    while (a + 1 < thin->len)
      {
        guint b = a + 1;

        while (b + 1 < thin->len)
          {
            gboolean within = TRUE;

            for (guint m = a + 1; m <= b && within; m++)
              within = fabs (q[a].y + (q[b + 1].y - q[a].y) * ((q[m].x - q[a].x) / (q[b + 1].x - q[a].x)) - q[m].y) <= SIMPLIFY_NS;
            if (!within)
              break;
            b++;
          }
        g_array_append_val (kept, q[b]);
        a = b;
      }
    if (kept->len < thin->len && refit_knots (self, c, n, kept))
      {
        g_array_set_size (thin, 0);
        g_array_append_vals (thin, kept->data, kept->len);
      }
  }
  g_array_set_size (run, 0);
  g_array_append_vals (run, thin->data, thin->len);
  return TRUE;
}

/* The checks of one window: its ends, its band's vertices and interior
 * points (the relaxation is sampled by them), sorted. */
static GArray *
window_checks (const Window *w)
{
  const Band *b = &w->band;
  GArray *xs = g_array_sized_new (FALSE, FALSE, sizeof (double), b->n_hi + b->n_lo + 9);
  double u = (double) MAX (b->u, w->valid_start), v = (double) MIN (b->v, w->valid_end);

  g_array_append_val (xs, u);
  for (guint i = 0; i < b->n_hi; i++)
    if (b->hi[i].x > u && b->hi[i].x < v)
      g_array_append_val (xs, b->hi[i].x);
  for (guint i = 0; i < b->n_lo; i++)
    if (b->lo[i].x > u && b->lo[i].x < v)
      g_array_append_val (xs, b->lo[i].x);
  for (int j = 1; j < 8 && v > u; j++)
    {
      double x = u + (v - u) * j / 8;
      g_array_append_val (xs, x);
    }
  if (v > u)
    g_array_append_val (xs, v);
  g_array_sort (xs, sl_compare_double);
  return xs;
}

/* Largest relaxation over [x1, x2] within the window. */
static double
eps_max (const Band *b,
         double      x1,
         double      x2)
{
  double m = ((double) b->u + (double) b->v) / 2;

  if (x1 > x2)
    {
      double t = x1;
      x1 = x2;
      x2 = t;
    }
  if (x1 <= m && m <= x2)
    return band_eps (b, m);
  return MAX (band_eps (b, x1), band_eps (b, x2));
}

/* The estimate's largest distance to the band's edges at x (no
 * relaxation margin). */
static double
bound_core (const Band   *b,
            const GArray *pieces,
            double        x)
{
  double e = path_at (pieces, x);

  return MAX (e - band_lo (b, x), band_hi (b, x) - e);
}

/* A bound point at x relative to the link's origin x0. */
static void
add_point (GArray *pts,
           gint64  x0,
           double  x,
           double  bound)
{
  SlBoundPoint p;
  double ax = (double) x0 + x;

  if (!(ax > -9.0e18 && ax < 9.0e18))
    return;
  p.x = x0 + (gint64) llround (x);
  p.bound = bound;
  g_array_append_val (pts, p);
}

/* Where the estimate and both edges of band b are linear (and stay so
 * outwards): beyond (dir 1) or before (dir -1) every vertex and every
 * breakpoint of the path. */
static double
tail_start (const Band   *b,
            const GArray *pieces,
            int           dir)
{
  const Piece *p = (const Piece *) (gpointer) pieces->data;

  if (dir > 0)
    return MAX (MAX ((double) b->v, p[pieces->len - 1].x),
                MAX (b->hi[b->n_hi - 1].x, b->lo[b->n_lo - 1].x));
  return MIN (MIN ((double) b->u, pieces->len > 1 ? p[1].x : (double) b->u),
              MIN (b->hi[0].x, b->lo[0].x));
}

/* The tail's bound relative tolerance: the chords between two tail points
 * exceed the exact bound by at most TAIL_TOL of it up to TAIL_NEAR_NS from
 * the data, and by at most 56 % beyond (the points there 4 times further
 * out each). */
#define TAIL_TOL 0.03
#define TAIL_NEAR_NS 86400e9

/* Bound points outside the windows, beyond window b's end (dir 1) or
 * before its start (dir -1). From tail_start() on, the bound is the larger
 * of two linear functions (the estimate's distances to the band's edges)
 * plus the relaxation, a parabola of curvature kappa: convex, so chords
 * between points are above it, and a chord of length d exceeds it by at
 * most kappa·d²/8 if no kink of the linear part lies inside it. Points at
 * the kink, 1 ms out, and spaced so that kappa·d²/8 stays within TAIL_TOL
 * of the bound: near the data the bound is nearly linear and a few points
 * cover hours; further out they grow geometrically (about 35 % apart). */
static void
tail_points (const SlSegments *self,
             const Band       *b,
             const GArray     *pieces,
             int               dir,
             GArray           *pts)
{
  double from = dir > 0 ? (double) b->v : (double) b->u;
  double start = tail_start (b, pieces, dir);
  double kink = -1, d, d0, d1;

  if (self->kappa == 0 || b->kappa == 0)
    {
      double x = from + dir * (double) FAR_NS;
      add_point (pts, self->x0, x, bound_core (b, pieces, x));
      return;
    }
  /* up to where the path and the edges are linear (rarely beyond the
   * band's end), as densely as before */
  for (d = 1e6; dir * (start - from) > 0 && d < dir * (start - from); d *= SQRT2)
    {
      double x = from + dir * d;
      add_point (pts, self->x0, x, bound_core (b, pieces, x) + band_eps (b, x));
    }
  /* the kink: where the distances to the two edges are equal */
  d0 = band_hi (b, start) + band_lo (b, start) - 2 * path_at (pieces, start);
  d1 = band_hi (b, start + dir * 1e9) + band_lo (b, start + dir * 1e9) - 2 * path_at (pieces, start + dir * 1e9);
  if (d0 != d1)
    kink = d0 / (d0 - d1) * 1e9;
  if (!(kink > 0 && kink < (double) FAR_NS))
    kink = -1;

  d = 0;
  while (d < (double) FAR_NS)
    {
      double x = start + dir * d;
      double v = bound_core (b, pieces, x) + band_eps (b, x);
      double step = sqrt (8 * TAIL_TOL * v / b->kappa);

      add_point (pts, self->x0, x, v);
      /* the last window's own point at its end carries the relaxation's
       * largest value over the check before it: a point 1 ms out keeps
       * that margin from spreading over the first step */
      if (d == 0)
        step = 1e6;
      else
        {
          /* the parabola alone makes the step at least 0.35·d (also
           * when v is not a number: the loop ends) */
          if (!(step >= 0.3 * d))
            step = 0.3 * d;
          if (d > TAIL_NEAR_NS)
            step = MAX (step, 3 * d);
          step = MAX (step, 1e6);
        }
      if (kink > d && kink < d + step)
        step = kink - d;
      d = MIN (d + step, (double) FAR_NS);
    }
  {
    double x = start + dir * d;
    add_point (pts, self->x0, x, bound_core (b, pieces, x) + band_eps (b, x));
  }
}

static int
cmp_bound_point (gconstpointer a,
                 gconstpointer b)
{
  const SlBoundPoint *p = a, *q = b;
  return (p->x > q->x) - (p->x < q->x);
}

/* A step (or a window that failed) between accurate windows i < j. */
static gboolean
step_between (GArray *ws,
              guint   i,
              guint   j)
{
  for (guint k = i; k < j; k++)
    if (g_array_index (ws, Window, k).failed_after ||
        (k > i && g_array_index (ws, Window, k).quality == SL_QUALITY_FAIL))
      return TRUE;
  return FALSE;
}

/* The linreg path of a run of windows (option linreg): through each
 * window's fitted line at its middle (the corridor's middle where a window
 * has no fit), then pulled into the inner corridor at every check; FALSE
 * when no window of the run has a fit or the path would not increase. */
static gboolean
linreg_run (const SlSegments *self,
            GArray           *ws,
            const GArray     *acc,
            guint             k0,
            guint             k1,
            const Check      *c,
            guint             n,
            GArray           *run)
{
  g_autoptr(GArray) anchors = g_array_new (FALSE, FALSE, sizeof (Piece));
  gboolean any = FALSE;
  double c_byte[2];
  Piece *a;

  payload_slopes (self, c_byte);
  for (guint k = k0; k <= k1; k++)
    {
      const Window *w = &g_array_index (ws, Window, g_array_index (acc, guint, k));
      double u = (double) MAX (w->band.u, w->valid_start), v = (double) MIN (w->band.v, w->valid_end);
      Piece p;
      Fit f;

      p.x = (u + v) / 2;
      if (moments_fit_sized (&w->lr, c_byte, &f))
        {
          p.y = p.x + f.a + f.b * p.x;
          p.slope = 1 + f.b;
          any = TRUE;
        }
      else
        p.y = band_bisector (&w->band, p.x, &p.slope);
      if (anchors->len > 0 && p.x <= g_array_index (anchors, Piece, anchors->len - 1).x)
        continue;
      g_array_append_val (anchors, p);
    }
  if (!any)
    return FALSE;
  a = (Piece *) (gpointer) anchors->data;

  for (guint i = 0; i < n; i++)
    {
      double x = c[i].x, y, margin = (c[i].hi - c[i].lo) * (1 - INNER) / 2;
      guint j = 0;
      Piece p = { x, 0, 1 };

      /* the anchors' polyline, their slopes beyond the ends */
      while (j + 1 < anchors->len && a[j + 1].x <= x)
        j++;
      if (x <= a[0].x)
        y = a[0].y + a[0].slope * (x - a[0].x);
      else if (j + 1 == anchors->len)
        y = a[j].y + a[j].slope * (x - a[j].x);
      else
        y = a[j].y + (a[j + 1].y - a[j].y) * ((x - a[j].x) / (a[j + 1].x - a[j].x));
      p.y = CLAMP (y, c[i].lo + margin, c[i].hi - margin);
      if (run->len > 0)
        {
          Piece *q = &g_array_index (run, Piece, run->len - 1);

          if (!(x > q->x && p.y > q->y))
            return FALSE;
          q->slope = (p.y - q->y) / (x - q->x);
          /* the same line as the piece before: that piece goes on */
          if (run->len >= 2)
            {
              const Piece *o = &g_array_index (run, Piece, run->len - 2);

              if (fabs (o->y + o->slope * (x - o->x) - p.y) < 1e-3)
                g_array_set_size (run, run->len - 1);
            }
        }
      g_array_append_val (run, p);
    }
  return TRUE;
}

/* Without an accurate band: the raw estimate, unbounded (a raw band is no
 * guarantee once clock rates may change). */
static SlRelation *
raw_relation (SlSegments *self)
{
  SlRelation *raw = self->raw != NULL ? sl_hull_get_relation (self->raw) : NULL;
  SlBoundPoint inf = { self->x0, INFINITY };
  gint64 start = G_MININT64;
  SlTransform t;

  if (raw == NULL)
    return NULL;
  sl_relation_get_piece (raw, 0, &t);
  sl_relation_unref (raw);
  return sl_relation_new (&start, &t, 1, &inf, 1, TRUE);
}

/* A step that made b's clock jump forward against a's may instead be a's
 * clock that went back: then a's readings just before the step come
 * again after it, up to the jump earlier than the first packet that
 * showed it. The old window yields that much (at most the largest jump
 * the two bands allow, in a's time at the slowest plausible rate). */
static void
yield_at_steps (SlSegments   *self,
                GArray       *ws,
                const GArray *acc)
{
  for (guint k = 0; k + 1 < acc->len; k++)
    {
      Window *w = &g_array_index (ws, Window, g_array_index (acc, guint, k));
      Window *nw = &g_array_index (ws, Window, g_array_index (acc, guint, k + 1));
      double x = (double) nw->band.u;
      double jump;

      if (!step_between (ws, g_array_index (acc, guint, k), g_array_index (acc, guint, k + 1)))
        continue;
      jump = band_hi (&nw->band, x) + band_eps (&nw->band, x) - (band_lo (&w->band, x) - band_eps (&w->band, x));
      if (jump > 0)
        {
          /* a's readings after the step start up to the jump before its
           * first packet, and those before it reach up to the jump after */
          gint64 ext = (gint64) ceil (jump * self->hi_slope);

          w->valid_end = MAX (w->band.u, w->valid_end - ext);
          nw->valid_start = MIN (nw->band.v, MAX (nw->valid_start, nw->band.u + ext));
        }
    }
}

/* The checks of the accurate windows acc[k0..k1] (no step between them). */
static void
run_checks (GArray       *ws,
            const GArray *acc,
            guint         k0,
            guint         k1,
            GArray       *checks)
{
  double shift = 0, n = 0;

  /* the payload correction: one shift for the run, the windows' own
   * (sl-segments-payload.c) weighted by their slices. The bias it
   * removes belongs to the link and its mix of sizes, the same from
   * window to window, and a window's own shift has the noise of its few
   * slices: on the 10-minute 5-host set of README's goals the worst error
   * is 5.6 µs with it, 8.2 µs with each window's own */
  for (guint k = k0; k <= k1; k++)
    {
      const Window *w = &g_array_index (ws, Window, g_array_index (acc, guint, k));

      shift += window_payload_shift (w) * (double) w->pl.n;
      n += (double) w->pl.n;
    }
  if (n > 0)
    shift /= n;
  for (guint k = k0; k <= k1; k++)
    {
      const Window *w = &g_array_index (ws, Window, g_array_index (acc, guint, k));
      const Band *b = &w->band;
      const Band *nb = k < k1 ? &g_array_index (ws, Window, g_array_index (acc, guint, k + 1)).band : NULL;
      g_autoptr(GArray) xs = window_checks (w);

      for (guint j = 0; j < xs->len; j++)
        {
          double x = g_array_index (xs, double, j);
          Check c = { x, band_lo (b, x), band_hi (b, x), 0 };

          if (checks->len > 0 && x <= g_array_index (checks, Check, checks->len - 1).x)
            continue;
          /* where two windows meet both bands hold f itself */
          if (j + 1 == xs->len && nb != NULL && nb->u == b->v)
            {
              double lo2 = MAX (c.lo, band_lo (nb, x)), hi2 = MIN (c.hi, band_hi (nb, x));

              if (lo2 <= hi2)
                {
                  c.lo = lo2;
                  c.hi = hi2;
                }
            }
          c.mid = (c.lo + c.hi) / 2;
          /* the payload correction stays within the inner half of the
           * band (where refit_knots() accepts a path) */
          if (shift != 0)
            c.mid = CLAMP (c.mid + shift, c.lo + (c.hi - c.lo) * 3 / 8, c.hi - (c.hi - c.lo) * 3 / 8);
          g_array_append_val (checks, c);
        }
    }
}

/* The path: one stab per run of windows without a step between them. */
static void
build_path (SlSegments   *self,
            GArray       *ws,
            const GArray *acc,
            GArray       *pieces)
{
  const Window *w0 = &g_array_index (ws, Window, g_array_index (acc, guint, 0));

  if (acc->len == 1 && w0->has_raw_est && !self->o.linreg)
    {
      /* one window: the raw hull's bisector, as without windows (moved by
       * the payload correction, within the inner half of the band) */
      gint64 whole;
      double frac, slope;
      Piece p;

      sl_transform_apply_split (&w0->raw_est, self->x0 + w0->band.u, &whole, &frac);
      slope = sl_transform_get_slope (&w0->raw_est);
      p.x = (double) w0->band.u;
      p.y = (double) (whole - self->y0) + frac;
      p.slope = slope;
      if (w0->pl.n > 0)
        {
          g_autoptr(GArray) xs = window_checks (w0);
          double shift = window_payload_shift (w0), lo = -INFINITY, hi = INFINITY;

          for (guint j = 0; j < xs->len; j++)
            {
              double x = g_array_index (xs, double, j), e = p.y + slope * (x - p.x);
              double blo = band_lo (&w0->band, x), bhi = band_hi (&w0->band, x), q = (bhi - blo) / 4;

              lo = MAX (lo, blo + q - e);
              hi = MIN (hi, bhi - q - e);
            }
          if (lo <= hi)
            p.y += CLAMP (shift, lo, hi);
        }
      g_array_append_val (pieces, p);
      return;
    }

  for (guint k0 = 0; k0 < acc->len;)
    {
      g_autoptr(GArray) checks = g_array_new (FALSE, FALSE, sizeof (Check));
      g_autoptr(GArray) run = g_array_new (FALSE, FALSE, sizeof (Piece));
      const Window *first = &g_array_index (ws, Window, g_array_index (acc, guint, k0));
      guint k1 = k0;
      double slope0, y0, slope1;

      while (k1 + 1 < acc->len && !step_between (ws, g_array_index (acc, guint, k1), g_array_index (acc, guint, k1 + 1)))
        k1++;
      run_checks (ws, acc, k0, k1, checks);

      y0 = band_bisector (&first->band, g_array_index (checks, Check, 0).x, &slope0);
      if (!self->o.linreg ||
          !linreg_run (self, ws, acc, k0, k1, (const Check *) (gpointer) checks->data, checks->len, run))
        {
          g_array_set_size (run, 0);
          stab (self, (const Check *) (gpointer) checks->data, checks->len, y0, KNOT_INNER, run);
          if (!refit (self, (const Check *) (gpointer) checks->data, checks->len, run))
            {
              g_array_set_size (run, 0);
              stab (self, (const Check *) (gpointer) checks->data, checks->len, y0, INNER, run);
            }
        }
      band_bisector (&g_array_index (ws, Window, g_array_index (acc, guint, k1)).band, 0, &slope1);
      g_array_index (run, Piece, run->len - 1).slope = slope1;
      if (pieces->len == 0)
        {
          /* before the first window: its bisector slope */
          Piece head = g_array_index (run, Piece, 0);

          head.slope = slope0;
          g_array_append_val (pieces, head);
        }
      else
        {
          /* across a step: a bridge that rises to the next run's start,
           * or a jump back when the clock ran back */
          Piece *tail = &g_array_index (pieces, Piece, pieces->len - 1);
          const Piece *next = &g_array_index (run, Piece, 0);

          if (next->x > tail->x && next->y > tail->y)
            tail->slope = (next->y - tail->y) / (next->x - tail->x);
        }
      g_array_append_vals (pieces, run->data, run->len);
      k0 = k1 + 1;
    }
}

/* The bound points of window w, at its checks and between them. */
static void
window_bound_points (SlSegments   *self,
                     const Window *w,
                     const GArray *pieces,
                     GArray       *pts)
{
  const Band *b = &w->band;
  g_autoptr(GArray) xs = window_checks (w);

  for (guint j = 0; j < xs->len; j++)
    {
      double x = g_array_index (xs, double, j);
      double e_left = j > 0 ? eps_max (b, g_array_index (xs, double, j - 1), x) : 0;
      double e_right = j + 1 < xs->len ? eps_max (b, x, g_array_index (xs, double, j + 1)) : 0;
      double v = bound_core (b, pieces, x) + MAX (e_left, e_right);

      add_point (pts, self->x0, x, v);
      /* where the two distances cross, between checks */
      if (j + 1 < xs->len)
        {
          double x2 = g_array_index (xs, double, j + 1);
          double e1 = path_at (pieces, x), e2 = path_at (pieces, x2);
          double d1 = (band_hi (b, x) - e1) - (e1 - band_lo (b, x));
          double d2 = (band_hi (b, x2) - e2) - (e2 - band_lo (b, x2));

          if ((d1 < 0) != (d2 < 0) && d1 != d2)
            {
              double xc = x + (x2 - x) * (d1 / (d1 - d2));

              if (xc > x && xc < x2)
                add_point (pts, self->x0, xc, bound_core (b, pieces, xc) + e_right);
            }
        }
    }
}

/* The bound points in the gap between the accurate windows acc[k] and
 * acc[k + 1]. */
static void
gap_bound_points (SlSegments   *self,
                  GArray       *ws,
                  const GArray *acc,
                  guint         k,
                  const GArray *pieces,
                  GArray       *pts)
{
  const Window *w = &g_array_index (ws, Window, g_array_index (acc, guint, k));
  const Band *b = &w->band;
  const Window *nw = &g_array_index (ws, Window, g_array_index (acc, guint, k + 1));
  const Band *nb = &nw->band;
  double x_end = (double) MIN (b->v, w->valid_end), x_start = (double) MAX (nb->u, nw->valid_start);
  double gap = x_start - x_end;
  gboolean step = step_between (ws, g_array_index (acc, guint, k), g_array_index (acc, guint, k + 1));
  gboolean several = FALSE;

  for (guint m = g_array_index (acc, guint, k) + 1; m < g_array_index (acc, guint, k + 1); m++)
    several |= g_array_index (ws, Window, m).quality == SL_QUALITY_FAIL;
  if (several && gap > 0)
    {
      /* packets that contradict each other in between: more than
       * one step may lie there, and the truth between them follows
       * neither side; nothing bounds it */
      add_point (pts, self->x0, x_end + 1, INFINITY);
      add_point (pts, self->x0, MAX (x_end + 1, x_start - 1), INFINITY);
    }
  /* after a step the truth follows one side or the other: the
   * bound covers both */
  for (int side = 0; side < 2 && gap > 0 && !several; side++)
    for (double d = 1e3; d < gap; d *= SQRT2)
      {
        double x = side == 0 ? x_end + d : x_start - d;
        double v1 = bound_core (b, pieces, x) + band_eps (b, x);
        double v2 = bound_core (nb, pieces, x) + band_eps (nb, x);

        add_point (pts, self->x0, x, step ? MAX (v1, v2) : MIN (v1, v2));
      }
  /* and at the step's ends themselves (the path may jump at its
   * end: just before it too) */
  if (step && gap >= 0)
    for (int side = 0; side < 3; side++)
      {
        double x = side == 0 ? x_end : side == 1 ? x_start : x_start - 1;

        if (side == 2 && several)
          continue;
        double v1 = bound_core (b, pieces, x) + band_eps (b, x);
        double v2 = bound_core (nb, pieces, x) + band_eps (nb, x);

        add_point (pts, self->x0, x, MAX (v1, v2));
      }
}

/* Sorted; the same instant from two windows: the larger value holds on
 * both sides. They come mostly in order (the gaps' second halves and
 * the first tail go backwards): sorted only when needed. */
static void
merge_bound_points (GArray *pts)
{
  const SlBoundPoint *in = (const SlBoundPoint *) (gpointer) pts->data;
  guint k = 0;

  for (guint i = 1; i < pts->len; i++)
    if (in[i].x < in[i - 1].x)
      {
        g_array_sort (pts, cmp_bound_point);
        break;
      }
  for (guint i = 0; i < pts->len; i++)
    {
      SlBoundPoint *p = &g_array_index (pts, SlBoundPoint, i);

      if (k > 0 && g_array_index (pts, SlBoundPoint, k - 1).x == p->x)
        {
          SlBoundPoint *q = &g_array_index (pts, SlBoundPoint, k - 1);
          q->bound = MAX (q->bound, p->bound);
          continue;
        }
      g_array_index (pts, SlBoundPoint, k++) = *p;
    }
  g_array_set_size (pts, k);
}

/* The pieces as SlTransforms anchored at their starts, with the bound
 * points. */
static SlRelation *
pieces_relation (SlSegments   *self,
                 const GArray *pieces,
                 const GArray *pts)
{
  guint n = pieces->len;
  gint64 *starts = g_new (gint64, n);
  SlTransform *maps = g_new (SlTransform, n);
  SlRelation *rel;
  guint k = 1;

  for (guint i = 0; i < n; i++)
    {
      const Piece *p = &g_array_index (pieces, Piece, i);
      double whole = floor (p->y);

      starts[i] = i == 0 ? G_MININT64 : self->x0 + (gint64) llround (p->x);
      sl_transform_init (&maps[i], self->x0 + (gint64) llround (p->x), self->y0 + (gint64) whole,
                         p->y - whole + p->slope * ((double) llround (p->x) - p->x), p->slope - 1.0);
    }
  /* pieces that round to the same start: the later one wins */
  for (guint i = 1; i < n; i++)
    {
      if (k > 1 && starts[i] <= starts[k - 1])
        k--;
      starts[k] = starts[i];
      maps[k] = maps[i];
      k++;
    }
  n = MIN (n, k);
  rel = sl_relation_new (starts, maps, n, (const SlBoundPoint *) (gpointer) pts->data, pts->len, FALSE);
  g_free (starts);
  g_free (maps);
  return rel;
}

/* What the accurate windows guarantee of the rate (sl-rates.c). */
static SlRates *
window_rates (SlSegments   *self,
              GArray       *ws,
              const GArray *acc)
{
  SlRateWindow *rw = g_new0 (SlRateWindow, acc->len);
  SlRates *rates;
  guint run = 0;

  for (guint k = 0; k < acc->len; k++)
    {
      const Window *w = &g_array_index (ws, Window, g_array_index (acc, guint, k));

      if (k > 0 && step_between (ws, g_array_index (acc, guint, k - 1), g_array_index (acc, guint, k)))
        run++;
      /* zeroed: compared with memcmp (sl_relation_equal()) */
      rw[k].u = self->x0 + w->band.u;
      rw[k].v = self->x0 + w->band.v;
      rw[k].from = self->x0 + MAX (w->band.u, w->valid_start);
      rw[k].to = self->x0 + MIN (w->band.v, w->valid_end);
      rw[k].lo = w->band.amin;
      rw[k].hi = w->band.amax;
      rw[k].kappa = w->band.kappa;
      rw[k].run = run;
    }
  rates = sl_rates_new (rw, acc->len);
  g_free (rw);
  return rates;
}

static SlRelation *
build_relation (SlSegments *self)
{
  GArray *ws = all_windows (self);
  g_autoptr(GArray) acc = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  /* two tails of about 35 points and a window's dozen or two: grown
   * once or not at all */
  g_autoptr(GArray) pts = g_array_sized_new (FALSE, FALSE, sizeof (SlBoundPoint), 128);
  SlRelation *rel;

  for (guint i = 0; i < ws->len; i++)
    if (g_array_index (ws, Window, i).quality == SL_QUALITY_ACCURATE &&
        band_ok (&g_array_index (ws, Window, i).band))
      g_array_append_val (acc, i);

  if (acc->len == 0)
    {
      windows_free (ws);
      return raw_relation (self);
    }

  yield_at_steps (self, ws, acc);
  build_path (self, ws, acc, pieces);

  /* bound points: the first tail (outwards, so reversed), the windows',
   * the gaps between them and the last tail */
  tail_points (self, &g_array_index (ws, Window, g_array_index (acc, guint, 0)).band, pieces, -1, pts);
  for (guint i = 0, j = pts->len; i + 1 < j; i++, j--)
    {
      SlBoundPoint t = g_array_index (pts, SlBoundPoint, i);

      g_array_index (pts, SlBoundPoint, i) = g_array_index (pts, SlBoundPoint, j - 1);
      g_array_index (pts, SlBoundPoint, j - 1) = t;
    }
  for (guint k = 0; k < acc->len; k++)
    {
      window_bound_points (self, &g_array_index (ws, Window, g_array_index (acc, guint, k)), pieces, pts);
      if (k + 1 < acc->len)
        gap_bound_points (self, ws, acc, k, pieces, pts);
    }
  tail_points (self, &g_array_index (ws, Window, g_array_index (acc, guint, acc->len - 1)).band, pieces, 1, pts);
  merge_bound_points (pts);

  rel = pieces_relation (self, pieces, pts);
  _sl_relation_set_rates (rel, window_rates (self, ws, acc));
  windows_free (ws);
  return rel;
}

/**
 * sl_segments_get_relation:
 *
 * Returns: (transfer full) (nullable): the estimate a → b with its bound at
 *   every instant (unbounded until a window's band is accurate), or %NULL
 *   without any estimate
 */
SlRelation *
sl_segments_get_relation (SlSegments *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->rel == NULL || self->rel_changes != self->changes)
    {
      g_clear_pointer (&self->rel, sl_relation_unref);
      self->rel = build_relation (self);
      self->rel_changes = self->changes;
    }
  return self->rel != NULL ? sl_relation_ref (self->rel) : NULL;
}

/**
 * sl_segments_get_band:
 * @lo, @hi: (out): the relaxed band t_b − t_a at @t_a (the window that
 *   holds it, or the nearest), margin included
 *
 * Returns: %FALSE when no window has a band
 */
gboolean
sl_segments_get_band (SlSegments *self,
                      gint64      t_a,
                      double     *lo,
                      double     *hi)
{
  const Window *open;
  const Band *best = NULL;
  double x;

  g_return_val_if_fail (self != NULL, FALSE);

  /* the windows read in place (all_windows() copies them) */
  open = open_window (self);
  x = (double) (t_a - self->x0);
  for (guint i = 0; i < self->windows->len + (open != NULL); i++)
    {
      const Window *w = i < self->windows->len ? &g_array_index (self->windows, Window, i) : open;

      if (w->quality != SL_QUALITY_ACCURATE || !band_ok (&w->band))
        continue;
      if (best == NULL || (double) w->band.u <= x)
        best = &w->band;
    }
  if (best != NULL)
    {
      double e = band_eps (best, x);

      *lo = (double) (self->y0 - self->x0) + (band_lo (best, x) - e - x);
      *hi = (double) (self->y0 - self->x0) + (band_hi (best, x) + e - x);
    }
  return best != NULL;
}
