/* sl-segments.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-compare.h"
#include "sl-hull-private.h"
#include "sl-segments.h"

/*
 * The model (REFERENCE §6a). The true relation f (b's clock against a's)
 * has |f''| <= kappa: each clock's rate changes by at most drift_change per
 * second, so kappa = 2·drift_change·(1+m)⁴ per ns of a's clock (f'' =
 * (r_b' r_a − r_b r_a') / r_a³ with rates within [1/(1+m), 1+m]).
 *
 * A window of packets with x in [u, v]: the chord l of f over [u, v]
 * differs from f by at most eps(x) = kappa/2·|(x − u)(x − v)| at any x
 * (Lagrange's remainder; also outside [u, v]). Raising the a→b points and
 * lowering the b→a points by eps keeps l separating them; eps is concave
 * on [u, v], so a point that is not a hull vertex stays above (below) the
 * chord of the shifted vertices around it: the shifted hull vertices are
 * enough. The separating lines of the shifted points form a band
 * [B'_lo, B'_hi] (computed as in sl-hull.c) that contains l, so f(x) is in
 * [B'_lo(x) − eps(x), B'_hi(x) + eps(x)]: a guarantee under the assumption.
 *
 * Windows are contiguous (a window ends at the next one's first packet) and
 * adapt: at checkpoints (window lengths first_check·√2^k) the packets since
 * the previous checkpoint (the "suffix", a hull of its own) join the window
 * if that does not make the window's predicted bound worse; otherwise the
 * window closes without them and they start the next one. Per packet: the
 * window's raw incremental hull (quality, accurate packets) and one append
 * to the suffix's hull chains. Per checkpoint: O(h²) on the hull vertices.
 *
 * The estimate is a continuous piecewise-linear path through the corridor
 * of the windows' bands (intersected where two windows meet, where both
 * contain f): pieces are as long as a line through the previous piece's end
 * stays in the inner half of the corridor (the slopes that do form one
 * interval, updated in O(1) per corridor vertex), and end aimed at the
 * corridor's middle. A linear clock keeps one piece. Outside the windows
 * the path continues with the end windows' bisector slopes.
 */

#define SQRT2 1.4142135623730951
#define FAR_NS (G_GINT64_CONSTANT (1) << 60)
#define INNER 0.1

typedef struct
{
  double x;
  double y;
} DPt;

/* A window's relaxed band, in coordinates relative to the link's origin. */
typedef struct
{
  gint64   u;
  gint64   v;
  double   kappa;
  gboolean has_lmin;
  gboolean has_lmax;
  gboolean crossed;
  double   amin;
  double   amax;
  DPt     *hi;
  guint    n_hi;
  DPt     *lo;
  guint    n_lo;
} Band;

/* Round trips of linear regression (option linreg), fitted as
 * d = t_b − t_a (relative to the link's origin) against x = t_a: weighted
 * sums (weight 1/E², E the round trip's error margin: a round trip counts
 * by how tightly it pins the offset, so one paired across a loss or a
 * retransmission hardly counts) and plain ones (the residual deviation). */
typedef struct
{
  guint64     n;
  long double w, wx, wd, wxx, wxd, wdd;
  long double x, d, xx, xd, dd;
} Moments;

typedef struct
{
  Band         band;
  SlQuality    quality;
  guint64      n[2];
  guint64      accurate;
  double       raw_amin;
  double       raw_amax;
  gboolean     has_raw_est;
  SlTransform  raw_est;
  gboolean     failed_after;
  gint64       valid_start;
  gint64       valid_end;
  guint        hull_points[2];
  Moments      lr;
} Window;

static GArray *all_windows  (SlSegments *self);
static void    windows_free (GArray     *ws);

/* A packet that contradicts its window: the window closes before it and
 * the next one starts with it; the next PROBE packets tell a step (they
 * agree with it) from a bad match (they agree with the closed window). */
#define PROBE 16

typedef struct
{
  SlPoint p;
  int     side;
} Probe;

struct _SlSegments
{
  SlSegmentsOptions o;
  double       kappa;
  double       lo_slope;
  double       hi_slope;
  gboolean     has_origin;
  gint64       x0;
  gint64       y0;
  GArray      *windows;
  GArray      *failures;

  /* the open window */
  gboolean     open;
  gint64       u;
  gint64       last_x;
  SlChain      full[2];
  SlChain      suffix[2];
  gint64       suffix_u;
  guint64      suffix_n[2];
  SlHull      *raw;
  SlHull      *raw_snap;
  SlHull      *first_raw;
  Moments      lr;
  Moments      lr_suffix;
  guint64      n[2];
  double       beta;
  gint64       next_check;
  double       step;
  gboolean     raw_crossed_seen;
  Band         guard;
  gint64       last_side_x[2];
  gint64       suffix_min_x;
  gint64       valid_start;

  /* probation after a contradiction (see Probe) */
  gboolean     probing;
  Probe        probe[PROBE + 1];
  guint        n_probe;
  SlChain      prev_full[2];
  gint64       prev_u;
  guint64      prev_n[2];
  gint64       prev_side_x;
  gint64       prev_last_x;
  double       prev_step;

  guint64      total[2];
  guint64      late;
  guint64      version;
  guint64      raw_version;

  SlRelation  *rel;
  guint64      rel_version;
};

/* Bands */

static void
band_clear (Band *b)
{
  g_clear_pointer (&b->hi, g_free);
  g_clear_pointer (&b->lo, g_free);
  b->n_hi = b->n_lo = 0;
}

static inline double
band_eps (const Band *b,
          double      x)
{
  return b->kappa / 2 * fabs ((x - (double) b->u) * (x - (double) b->v));
}

static double
poly_at (const DPt *p,
         guint      n,
         double     x,
         double     left_slope,
         double     right_slope)
{
  guint lo = 0, hi = n - 1;

  if (x <= p[0].x)
    return p[0].y + left_slope * (x - p[0].x);
  if (x >= p[n - 1].x)
    return p[n - 1].y + right_slope * (x - p[n - 1].x);
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (p[mid].x <= x)
        lo = mid;
      else
        hi = mid;
    }
  return p[lo].y + (p[hi].y - p[lo].y) * ((x - p[lo].x) / (p[hi].x - p[lo].x));
}

/* The upper edge: Lmin' left of its a→b pivot, the shifted a→b hull
 * between the pivots, Lmax' right of its a→b pivot (sl-hull.c's
 * band_hi()); the lower edge mirrors it. */
static inline double
band_hi (const Band *b,
         double      x)
{
  return poly_at (b->hi, b->n_hi, x, b->amin, b->amax);
}

static inline double
band_lo (const Band *b,
         double      x)
{
  return poly_at (b->lo, b->n_lo, x, b->amax, b->amin);
}

static gboolean
band_ok (const Band *b)
{
  return b->has_lmin && b->has_lmax && !b->crossed && b->n_hi > 0 && b->n_lo > 0;
}

static double
cross_ld (DPt o,
          DPt a,
          DPt c)
{
  return (double) (((long double) a.x - o.x) * ((long double) c.y - o.y) -
                   ((long double) a.y - o.y) * ((long double) c.x - o.x));
}

/* Lower (sign 1) or upper (sign -1) hull of points sorted by x, in place.
 * A wrong decision on nearly collinear points keeps a point above the
 * lower hull or drops one of its vertices: both only widen the band. */
static guint
hull_in_place (DPt  *p,
               guint n,
               int   sign)
{
  guint k = 0;

  for (guint i = 0; i < n; i++)
    {
      while (k >= 2 && sign * cross_ld (p[k - 2], p[k - 1], p[i]) <= 0)
        k--;
      p[k++] = p[i];
    }
  return k;
}

static void
band_compute (Band          *b,
              const SlChain *above,
              const SlChain *below,
              gint64         u,
              gint64         v,
              double         kappa)
{
  DPt *a = g_new (DPt, MAX (above->len, 1)), *d = g_new (DPt, MAX (below->len, 1));
  DPt umin = { 0 }, dmin = { 0 }, umax = { 0 }, dmax = { 0 };
  guint na = above->len, nd = below->len;

  band_clear (b);
  b->u = u;
  b->v = v;
  b->kappa = kappa;
  b->has_lmin = b->has_lmax = b->crossed = FALSE;
  b->amin = -INFINITY;
  b->amax = INFINITY;

  for (guint i = 0; i < na; i++)
    {
      a[i].x = (double) above->pts[i].x;
      a[i].y = (double) above->pts[i].y + band_eps (b, a[i].x);
    }
  for (guint i = 0; i < nd; i++)
    {
      d[i].x = (double) below->pts[i].x;
      d[i].y = (double) below->pts[i].y - band_eps (b, d[i].x);
    }

  /* alpha_max = min slope (d, u) with d.x < u.x; alpha_min = max slope
   * (u, d) with u.x < d.x (sl-hull.c): over all vertex pairs */
  for (guint i = 0; i < nd; i++)
    for (guint j = 0; j < na; j++)
      {
        if (d[i].x < a[j].x)
          {
            double s = (a[j].y - d[i].y) / (a[j].x - d[i].x);

            if (!b->has_lmax || s < b->amax)
              {
                b->has_lmax = TRUE;
                b->amax = s;
                dmax = d[i];
                umax = a[j];
              }
          }
        else if (d[i].x > a[j].x)
          {
            double s = (d[i].y - a[j].y) / (d[i].x - a[j].x);

            if (!b->has_lmin || s > b->amin)
              {
                b->has_lmin = TRUE;
                b->amin = s;
                umin = a[j];
                dmin = d[i];
              }
          }
        else if (d[i].y >= a[j].y)
          b->crossed = TRUE;
      }
  if (b->has_lmin && b->has_lmax && !(b->amin < b->amax))
    b->crossed = TRUE;

  if (b->has_lmin && b->has_lmax && !b->crossed)
    {
      double hx0 = MIN (umin.x, umax.x), hx1 = MAX (umin.x, umax.x);
      double lx0 = MIN (dmax.x, dmin.x), lx1 = MAX (dmax.x, dmin.x);

      b->hi = g_new (DPt, na);
      for (guint i = 0; i < na; i++)
        if (a[i].x >= hx0 && a[i].x <= hx1)
          b->hi[b->n_hi++] = a[i];
      b->n_hi = hull_in_place (b->hi, b->n_hi, 1);
      b->lo = g_new (DPt, nd);
      for (guint i = 0; i < nd; i++)
        if (d[i].x >= lx0 && d[i].x <= lx1)
          b->lo[b->n_lo++] = d[i];
      b->n_lo = hull_in_place (b->lo, b->n_lo, -1);
    }
  g_free (a);
  g_free (d);
}

/* The largest bound a centred estimate would have over the window: half
 * the band at the ends (where it is widest) or in the middle plus the
 * largest relaxation. */
static double
band_beta (const Band *b)
{
  double m = ((double) b->u + (double) b->v) / 2;

  if (!band_ok (b))
    return INFINITY;
  return MAX (MAX (band_hi (b, (double) b->u) - band_lo (b, (double) b->u),
                   band_hi (b, (double) b->v) - band_lo (b, (double) b->v)) / 2,
              (band_hi (b, m) - band_lo (b, m)) / 2 + band_eps (b, m));
}

static SlQuality
band_quality (const SlSegments *self,
              const Band       *b,
              const guint64     n[2])
{
  if (n[0] == 0 && n[1] == 0)
    return SL_QUALITY_ABSENT;
  if (n[0] == 0 || n[1] == 0)
    return SL_QUALITY_INCOMPLETE;
  if (b->crossed)
    return SL_QUALITY_FAIL;
  if ((b->has_lmax && b->amax < self->lo_slope) || (b->has_lmin && b->amin > self->hi_slope))
    return SL_QUALITY_FAIL;
  if (!b->has_lmin || !b->has_lmax)
    return SL_QUALITY_APPROXIMATE;
  if (b->amin <= 0 || b->amin < self->lo_slope || b->amax > self->hi_slope)
    return SL_QUALITY_APPROXIMATE;
  return SL_QUALITY_ACCURATE;
}

/* The bisector of Lmin' and Lmax' at x (sl-hull.c's estimate). */
static double
band_bisector (const Band *b,
               double      x,
               double     *slope)
{
  double n1 = sqrt (1 + b->amin * b->amin), n2 = sqrt (1 + b->amax * b->amax);
  double w1 = n2 / (n1 + n2), w2 = n1 / (n1 + n2);
  double lmin = b->hi[0].y + b->amin * (x - b->hi[0].x);
  double lmax = b->lo[0].y + b->amax * (x - b->lo[0].x);

  if (slope != NULL)
    *slope = w1 * b->amin + w2 * b->amax;
  return w1 * lmin + w2 * lmax;
}

/* Round-trip moments */

static void
moments_add (Moments *m,
             double   x,
             double   d,
             double   w)
{
  m->n++;
  m->w += w;
  m->wx += w * (long double) x;
  m->wd += w * (long double) d;
  m->wxx += w * (long double) x * x;
  m->wxd += w * (long double) x * d;
  m->wdd += w * (long double) d * d;
  m->x += x;
  m->d += d;
  m->xx += (long double) x * x;
  m->xd += (long double) x * d;
  m->dd += (long double) d * d;
}

static void
moments_merge (Moments       *m,
               const Moments *o,
               int            sign)
{
  m->n = sign > 0 ? m->n + o->n : m->n - MIN (m->n, o->n);
  m->w += sign * o->w;
  m->wx += sign * o->wx;
  m->wd += sign * o->wd;
  m->wxx += sign * o->wxx;
  m->wxd += sign * o->wxd;
  m->wdd += sign * o->wdd;
  m->x += sign * o->x;
  m->d += sign * o->d;
  m->xx += sign * o->xx;
  m->xd += sign * o->xd;
  m->dd += sign * o->dd;
  if (m->n == 0)
    memset (m, 0, sizeof *m);
}

typedef struct
{
  double a;
  double b;
  double mean_x;
  double sxx;
  double s2;
  double e_r;
} Fit;

/* The weighted least-squares line d = a + b·x; FALSE with fewer than
 * three round trips or no spread in x. */
static gboolean
moments_fit (const Moments *m,
             Fit           *f)
{
  long double mx, md, sxx, sxd, sdd, b, a, ssr, px, pd, pxx, pxd, pdd, pssr;

  if (m->n < 3 || !(m->w > 0))
    return FALSE;
  mx = m->wx / m->w;
  md = m->wd / m->w;
  sxx = m->wxx - m->w * mx * mx;
  sxd = m->wxd - m->w * mx * md;
  sdd = m->wdd - m->w * md * md;
  if (!(sxx > 0))
    return FALSE;
  b = sxd / sxx;
  a = md - b * mx;
  ssr = sdd - b * sxd;
  f->a = (double) a;
  f->b = (double) b;
  f->mean_x = (double) mx;
  f->sxx = (double) sxx;
  f->s2 = (double) (fmaxl (ssr, 0) / (m->n - 2));
  /* the plain residual deviation about that line, in ns */
  px = m->x / m->n;
  pd = m->d / m->n;
  pxx = m->xx - m->n * px * px;
  pxd = m->xd - m->n * px * pd;
  pdd = m->dd - m->n * pd * pd;
  pssr = pdd - 2 * b * pxd + b * b * pxx + m->n * (pd - a - b * px) * (pd - a - b * px);
  f->e_r = (double) sqrtl (fmaxl (pssr, 0) / (m->n - 2));
  return TRUE;
}

/* The fit's standard error at x (ns): the unit variance of the weighted
 * fit times its leverage there. */
static double
fit_se (const Fit     *f,
        const Moments *m,
        double         x)
{
  double dx = x - f->mean_x;

  return sqrt (f->s2 * (1.0 / (double) m->w + dx * dx / f->sxx));
}

/* Chains */

static void
chains_merge (SlChain       *dst,
              const SlChain *src)
{
  for (int side = 0; side < 2; side++)
    for (gsize i = 0; i < src[side].len; i++)
      _sl_chain_insert (&dst[side], side, src[side].pts[i]);
}

static void
chains_clear (SlChain *c)
{
  _sl_chain_clear (&c[0]);
  _sl_chain_clear (&c[1]);
}

/* Construction */

void
sl_segments_options_init (SlSegmentsOptions *options)
{
  g_return_if_fail (options != NULL);

  options->drift_change = SL_SEGMENTS_DEFAULT_DRIFT_CHANGE_PPM_S * 1e-6;
  options->max_drift = SL_HULL_DEFAULT_MAX_DRIFT;
  options->first_check_ns = G_GINT64_CONSTANT (1000000000);
  options->linreg = FALSE;
}

SlSegments *
sl_segments_new (const SlSegmentsOptions *options)
{
  SlSegments *self = g_new0 (SlSegments, 1);
  double m;

  if (options != NULL)
    self->o = *options;
  else
    sl_segments_options_init (&self->o);
  if (!(self->o.max_drift > 0))
    self->o.max_drift = SL_HULL_DEFAULT_MAX_DRIFT;
  if (self->o.first_check_ns <= 0)
    self->o.first_check_ns = G_GINT64_CONSTANT (1000000000);
  if (!(self->o.drift_change >= 0))
    self->o.drift_change = 0;

  m = self->o.max_drift;
  self->kappa = 2 * self->o.drift_change * 1e-9 * pow (1 + m, 4);
  self->lo_slope = 1.0 / (1.0 + m);
  self->hi_slope = 1.0 + m;
  self->windows = g_array_new (FALSE, TRUE, sizeof (Window));
  self->failures = g_array_new (FALSE, FALSE, sizeof (SlFailureInfo));
  self->beta = INFINITY;
  return self;
}

void
sl_segments_free (SlSegments *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->windows->len; i++)
    band_clear (&g_array_index (self->windows, Window, i).band);
  g_array_unref (self->windows);
  g_array_unref (self->failures);
  chains_clear (self->full);
  chains_clear (self->suffix);
  chains_clear (self->prev_full);
  band_clear (&self->guard);
  sl_hull_free (self->raw);
  sl_hull_free (self->raw_snap);
  sl_hull_free (self->first_raw);
  g_clear_pointer (&self->rel, sl_relation_unref);
  g_free (self);
}

/* Windows */

static void
raw_add (SlSegments *self,
         SlHull     *raw,
         int         side,
         SlPoint     p)
{
  if (raw != NULL)
    sl_hull_add (raw, side == ABOVE, self->x0 + p.x, self->y0 + p.y);
}

/* The open window's hull of points, as if the suffix had joined it. */
static void
open_chains (const SlSegments *self,
             SlChain          *out)
{
  _sl_chain_copy (&out[0], &self->full[0]);
  _sl_chain_copy (&out[1], &self->full[1]);
  chains_merge (out, self->suffix);
}

static void
window_init_from (SlSegments   *self,
                  Window       *w,
                  const SlChain *chains,
                  gint64        u,
                  gint64        v,
                  const SlHull *raw,
                  const guint64 n[2])
{
  SlHullResult r;

  memset (w, 0, sizeof *w);
  band_compute (&w->band, &chains[0], &chains[1], u, v, self->kappa);
  w->valid_start = u;
  w->valid_end = v;
  w->n[0] = n[0];
  w->n[1] = n[1];
  w->quality = band_quality (self, &w->band, n);
  w->raw_amin = w->raw_amax = NAN;
  w->hull_points[0] = (guint) chains[0].len;
  w->hull_points[1] = (guint) chains[1].len;
  /* windows after the first have no plain hull: their hull's vertices
   * are the packets that tightened them */
  w->accurate = chains[0].len + chains[1].len;
  if (raw != NULL)
    {
      sl_hull_get_result (raw, &r);
      w->accurate = r.accurate_packets;
      w->raw_amin = r.alpha_min;
      w->raw_amax = r.alpha_max;
      w->has_raw_est = r.quality == SL_QUALITY_ACCURATE && r.has_estimate;
      w->raw_est = r.estimate;
    }
}

static void
start_window (SlSegments    *self,
              gint64         u,
              const SlChain *chains,
              const guint64  n[2],
              gint64         last_x)
{
  self->open = TRUE;
  self->u = u;
  self->valid_start = u;
  self->last_x = last_x;
  chains_clear (self->full);
  chains_clear (self->suffix);
  if (chains != NULL)
    {
      _sl_chain_copy (&self->full[0], &chains[0]);
      _sl_chain_copy (&self->full[1], &chains[1]);
    }
  self->suffix_u = last_x;
  self->suffix_n[0] = self->suffix_n[1] = 0;
  self->n[0] = n != NULL ? n[0] : 0;
  self->n[1] = n != NULL ? n[1] : 0;
  g_clear_pointer (&self->raw, sl_hull_free);
  g_clear_pointer (&self->raw_snap, sl_hull_free);
  /* round trips: a window that starts from nothing has none; one that
   * starts from the previous window's suffix (or its own probation) keeps
   * what close_window() carried over */
  if (chains == NULL)
    memset (&self->lr, 0, sizeof self->lr);
  memset (&self->lr_suffix, 0, sizeof self->lr_suffix);
  /* The first window also runs the plain incremental hull: a link that
   * stays one window gives its numbers (accurate packets, hull points, the
   * bisector) exactly as without windows. Later windows skip it. */
  if (self->windows->len == 0)
    {
      self->raw = sl_hull_new (self->o.max_drift);
      if (chains != NULL)
        for (int side = 0; side < 2; side++)
          for (gsize i = 0; i < chains[side].len; i++)
            raw_add (self, self->raw, side, chains[side].pts[i]);
      self->raw_snap = _sl_hull_copy (self->raw);
      self->raw_version = sl_hull_get_version (self->raw);
    }
  self->raw_crossed_seen = FALSE;
  self->last_side_x[0] = self->last_side_x[1] = G_MININT64;
  if (chains != NULL)
    for (int side = 0; side < 2; side++)
      if (chains[side].len > 0)
        self->last_side_x[side] = chains[side].pts[chains[side].len - 1].x;
  self->step = (double) self->o.first_check_ns;
  self->next_check = u + self->o.first_check_ns;
  while (self->next_check <= last_x)
    {
      self->step *= SQRT2;
      self->next_check = u + (gint64) self->step;
    }
  band_clear (&self->guard);
  self->suffix_min_x = G_MAXINT64;
  if (chains != NULL)
    {
      band_compute (&self->guard, &self->full[0], &self->full[1], u, last_x, self->kappa);
      self->beta = band_quality (self, &self->guard, self->n) == SL_QUALITY_ACCURATE ? band_beta (&self->guard) : INFINITY;
    }
  else
    self->beta = INFINITY;
}

/* Closes the open window at v (its full chains, as of the last
 * checkpoint). */
static void
close_window (SlSegments *self,
              gint64      v,
              gboolean    failed)
{
  Window w;
  guint64 n[2] = { self->n[0] - self->suffix_n[0], self->n[1] - self->suffix_n[1] };

  window_init_from (self, &w, self->full, self->u, v, self->raw_snap, n);
  if (self->windows->len == 0 && self->raw_snap != NULL)
    {
      sl_hull_free (self->first_raw);
      self->first_raw = _sl_hull_copy (self->raw_snap);
    }
  w.failed_after = failed;
  w.valid_start = MAX (w.valid_start, self->valid_start);
  w.lr = self->lr;
  moments_merge (&w.lr, &self->lr_suffix, -1);
  self->lr = self->lr_suffix;
  g_array_append_val (self->windows, w);
  self->version++;
}

static void
add_failure (SlSegments    *self,
             SlFailureKind  kind,
             gint64         from,
             gint64         to)
{
  SlFailureInfo f = { kind, self->x0 + from, self->x0 + to };

  g_array_append_val (self->failures, f);
}

/* The suffix joins the window, or starts the next one if the window's
 * bound would get worse; a window whose band breaks (hulls cross even with
 * the relaxation) closes there. */
static void
checkpoint (SlSegments *self)
{
  SlChain merged[2] = { { 0 } };
  Band b = { 0 };
  guint64 n[2] = { self->n[0], self->n[1] };
  double beta, beta_s = INFINITY;
  SlQuality q;

  open_chains (self, merged);
  band_compute (&b, &merged[0], &merged[1], self->u, self->last_x, self->kappa);
  q = band_quality (self, &b, n);
  beta = q == SL_QUALITY_ACCURATE ? band_beta (&b) : INFINITY;

  if (q == SL_QUALITY_FAIL)
    {
      SlChain suffix[2] = { { 0 } };
      guint64 sn[2] = { self->suffix_n[0], self->suffix_n[1] };
      gint64 su = MIN (self->suffix_u, self->suffix_min_x), last = self->last_x;
      gboolean window_ok = self->n[0] + self->n[1] > sn[0] + sn[1] && isfinite (self->beta);
      Band sb = { 0 };

      band_clear (&b);
      /* the suffix contradicts the window (a step or a bad match in it):
       * the window closes before it; what follows is usable again */
      _sl_chain_copy (&suffix[0], &self->suffix[0]);
      _sl_chain_copy (&suffix[1], &self->suffix[1]);
      chains_clear (merged);
      if (window_ok)
        {
          close_window (self, su, TRUE);
          add_failure (self, SL_FAILURE_STEP, su, last);
          band_compute (&sb, &suffix[0], &suffix[1], su, last, self->kappa);
          if (band_quality (self, &sb, sn) != SL_QUALITY_FAIL)
            start_window (self, su, suffix, sn, last);
          else
            start_window (self, last, NULL, NULL, last);
          band_clear (&sb);
        }
      else
        {
          /* nothing before it was usable either: all of it is a failed
           * window */
          open_chains (self, merged);
          chains_clear (self->full);
          self->full[0] = merged[0];
          self->full[1] = merged[1];
          memset (merged, 0, sizeof merged);
          self->suffix_n[0] = self->suffix_n[1] = 0;
          memset (&self->lr_suffix, 0, sizeof self->lr_suffix);
          sl_hull_free (self->raw_snap);
          self->raw_snap = self->raw != NULL ? _sl_hull_copy (self->raw) : NULL;
          close_window (self, last, TRUE);
          add_failure (self, SL_FAILURE_STEP, self->u, last);
          start_window (self, last, NULL, NULL, last);
        }
      chains_clear (suffix);
      return;
    }

  /* one window, or the window and the suffix apart: merge unless the
   * merged bound is worse than the worse of the two (with linear clocks it
   * never is: more constraints, no relaxation) */
  if (isfinite (self->beta) && self->suffix_n[0] + self->suffix_n[1] > 0)
    {
      guint64 sn[2] = { self->suffix_n[0], self->suffix_n[1] };
      Band sb = { 0 };

      band_compute (&sb, &self->suffix[0], &self->suffix[1], self->suffix_u, self->last_x, self->kappa);
      beta_s = band_quality (self, &sb, sn) == SL_QUALITY_ACCURATE ? band_beta (&sb) : INFINITY;
      band_clear (&sb);
    }
  if (!isfinite (self->beta) || !isfinite (beta_s) || beta <= MAX (self->beta, beta_s))
    {
      chains_clear (self->full);
      self->full[0] = merged[0];
      self->full[1] = merged[1];
      chains_clear (self->suffix);
      self->suffix_n[0] = self->suffix_n[1] = 0;
      memset (&self->lr_suffix, 0, sizeof self->lr_suffix);
      self->suffix_u = self->last_x;
      self->beta = beta;
      band_clear (&self->guard);
      self->guard = b;
      memset (&b, 0, sizeof b);
      self->suffix_min_x = G_MAXINT64;
      sl_hull_free (self->raw_snap);
      self->raw_snap = self->raw != NULL ? _sl_hull_copy (self->raw) : NULL;
      self->step *= SQRT2;
      self->next_check = self->u + (gint64) self->step;
      return;
    }

  chains_clear (merged);
  band_clear (&b);
  {
    SlChain suffix[2] = { { 0 } };
    guint64 sn[2] = { self->suffix_n[0], self->suffix_n[1] };
    gint64 su = self->suffix_u, last = self->last_x;

    _sl_chain_copy (&suffix[0], &self->suffix[0]);
    _sl_chain_copy (&suffix[1], &self->suffix[1]);
    close_window (self, su, FALSE);
    start_window (self, su, suffix, sn, last);
    chains_clear (suffix);
  }
}

static gboolean contradicts (SlSegments *self,
                             int         side,
                             SlPoint     p);

static SlQuality
chains_quality (SlSegments    *self,
                const SlChain *chains,
                gint64         u,
                gint64         v,
                const guint64  n[2])
{
  Band b = { 0 };
  SlQuality q;

  band_compute (&b, &chains[0], &chains[1], u, v, self->kappa);
  q = band_quality (self, &b, n);
  band_clear (&b);
  return q;
}

/* Whether p's constraint follows from the chain's newest vertex a and the
 * bound on the clocks' relative rate (in [1/(1+m), 1+m]): sent a → b,
 * t_b(recv_p) ≥ t_b(recv_a) + (1+m)·(x_p − x_a) past a and
 * ≥ t_b(recv_a) − x_a + x_p − m·|x_p − x_a| on either side, the same with
 * the signs turned for b → a. Such a packet adds nothing the rate bound
 * does not already give (a band built without it is never narrower), so
 * it joins no chain: most packets of a busy link are these, and the
 * chains then change only with the packets that tighten them. */
static inline gboolean
implied (const SlSegments *self,
         const SlChain    *c,
         int               side,
         SlPoint           p)
{
  const guint64 half = G_GUINT64_CONSTANT (1) << 61;
  SlPoint a;
  gint64 dx, dy;

  if (c->len == 0)
    return FALSE;
  a = c->pts[c->len - 1];
  /* times 73 years from the link's first packet (hostile input) could
   * overflow below: such packets are kept (keeping one is always safe) */
  if (G_UNLIKELY ((((guint64) p.x + half) | ((guint64) p.y + half) | ((guint64) a.x + half) |
                   ((guint64) a.y + half)) >> 62))
    return FALSE;
  dx = p.x - a.x;
  dy = (p.y - a.y) - dx;
  if (side != ABOVE)
    dy = -dy;
  /* 1 ns for the product's rounding */
  return (double) dy >= self->o.max_drift * (double) (dx >= 0 ? dx : -dx) + 1.0;
}

static inline SlChain *
target_chain (SlSegments *self,
              int         side,
              SlPoint     p)
{
  return p.x >= self->suffix_u ? &self->suffix[side] : &self->full[side];
}

/* @skip: implied() of p for its chain */
static void
insert_point (SlSegments *self,
              int         side,
              SlPoint     p,
              gboolean    skip)
{
  if (p.x >= self->suffix_u)
    {
      if (self->suffix_n[0] + self->suffix_n[1] == 0)
        self->suffix_u = p.x;
      if (!skip)
        _sl_chain_add (&self->suffix[side], side, p);
      self->suffix_n[side]++;
    }
  else if (!skip)
    _sl_chain_insert (&self->full[side], side, p);
  if (p.x > self->last_x)
    self->last_x = p.x;
  self->last_side_x[side] = MAX (self->last_side_x[side], p.x);
  self->suffix_min_x = MIN (self->suffix_min_x, p.x);
}

/* p contradicts the open window (with the relaxation): the window closes
 * before it, the next starts with it, on probation. */
static void
start_probation (SlSegments *self,
                 int         side,
                 SlPoint     p)
{
  SlChain merged[2] = { { 0 } };
  guint64 n[2] = { self->n[0], self->n[1] };

  open_chains (self, merged);
  _sl_chain_copy (&self->prev_full[0], &merged[0]);
  _sl_chain_copy (&self->prev_full[1], &merged[1]);
  self->prev_u = self->u;
  self->prev_n[0] = n[0];
  self->prev_n[1] = n[1];
  self->prev_side_x = self->last_side_x[side];
  self->prev_last_x = self->last_x;
  self->prev_step = self->step;

  chains_clear (self->full);
  self->full[0] = merged[0];
  self->full[1] = merged[1];
  chains_clear (self->suffix);
  self->suffix_n[0] = self->suffix_n[1] = 0;
  memset (&self->lr_suffix, 0, sizeof self->lr_suffix);
  sl_hull_free (self->raw_snap);
  self->raw_snap = self->raw != NULL ? _sl_hull_copy (self->raw) : NULL;
  close_window (self, p.x, TRUE);

  start_window (self, p.x, NULL, NULL, p.x);
  self->probing = TRUE;
  self->n_probe = 0;
  /* until the probation decides, as if it were a step (end_probation()) */
  if (self->prev_side_x != G_MININT64)
    {
      Window *w = &g_array_index (self->windows, Window, self->windows->len - 1);

      w->valid_end = MIN (w->valid_end, MIN (self->prev_side_x, p.x));
      self->valid_start = MAX (p.x, self->prev_last_x);
    }
}

/* The probation's points, without its first (the one that contradicted),
 * into chains; their counts into n. */
static void
probe_chains (const SlSegments *self,
              SlChain          *chains,
              guint64           n[2])
{
  for (guint i = 1; i < self->n_probe; i++)
    {
      _sl_chain_insert (&chains[self->probe[i].side], self->probe[i].side, self->probe[i].p);
      n[self->probe[i].side]++;
    }
}

/* The first probation point was a bad match: the closed window opens again
 * with everything since, but it. */
static void
reopen (SlSegments *self)
{
  SlChain chains[2] = { { 0 } };
  guint64 n[2] = { self->prev_n[0], self->prev_n[1] };
  Window *w = &g_array_index (self->windows, Window, self->windows->len - 1);
  gint64 last = self->last_x;

  _sl_chain_copy (&chains[0], &self->prev_full[0]);
  _sl_chain_copy (&chains[1], &self->prev_full[1]);
  probe_chains (self, chains, n);
  band_clear (&w->band);
  moments_merge (&self->lr, &w->lr, 1);
  g_array_set_size (self->windows, self->windows->len - 1);
  start_window (self, self->prev_u, chains, n, last);
  self->step = self->prev_step;
  self->next_check = self->prev_u + (gint64) self->step;
  while (self->next_check <= last)
    {
      self->step *= SQRT2;
      self->next_check = self->prev_u + (gint64) self->step;
    }
  chains_clear (chains);
  self->version++;
}

/* Probation ends: a bad match if the points after the first agree with
 * the closed window (it opens again without it), else a step. When the
 * first point also disagrees with those after it (first_bad), it is left
 * out of the new window too. */
static void
end_probation (SlSegments *self,
               gboolean    first_bad)
{
  SlChain merged[2] = { { 0 } };
  guint64 n[2] = { self->prev_n[0], self->prev_n[1] };
  SlPoint first = self->probe[0].p;
  Window *w = &g_array_index (self->windows, Window, self->windows->len - 1);

  self->probing = FALSE;
  _sl_chain_copy (&merged[0], &self->prev_full[0]);
  _sl_chain_copy (&merged[1], &self->prev_full[1]);
  probe_chains (self, merged, n);
  if (self->n_probe > 1 && chains_quality (self, merged, self->prev_u, self->last_x, n) != SL_QUALITY_FAIL)
    {
      add_failure (self, SL_FAILURE_MISMATCH, first.x, first.x);
      reopen (self);
    }
  else
    {
      /* the step happened after the last packet of its direction that
       * agreed with the closed window, and at the latest at the first one
       * that did not; when a's clock went back, a's readings before it
       * reach beyond that one (up to the closed window's last) */
      gint64 a = MIN (self->prev_side_x, first.x), b = MAX (self->prev_last_x, first.x);

      if (self->prev_side_x == G_MININT64)
        a = b = first.x;
      add_failure (self, SL_FAILURE_STEP, a, b);
      w->valid_end = MIN (w->valid_end, a);
      if (first_bad && self->n_probe > 1)
        {
          SlChain chains[2] = { { 0 } };
          guint64 pn[2] = { 0, 0 };
          gint64 last = self->last_x;

          add_failure (self, SL_FAILURE_MISMATCH, first.x, first.x);
          probe_chains (self, chains, pn);
          start_window (self, self->probe[1].p.x, chains, pn, last);
          chains_clear (chains);
        }
      self->valid_start = MAX (b, self->u);
    }
  chains_clear (merged);
  chains_clear (self->prev_full);
  self->version++;
}

/* A quick screen once the raw hulls have crossed: p lies beyond the band
 * of the last checkpoint (then contradicts() decides). */
static gboolean
guard_flags (const SlSegments *self,
             int               side,
             SlPoint           p)
{
  const Band *g = &self->guard;
  double x = (double) p.x;

  if (!band_ok (g))
    return FALSE;
  if (side == ABOVE)
    return (double) p.y + band_eps (g, x) < band_lo (g, x);
  return (double) p.y - band_eps (g, x) > band_hi (g, x);
}

/* Whether p breaks the open window's relaxed band (which holds without
 * it): curvature alone never does. */
static gboolean
contradicts (SlSegments *self,
             int         side,
             SlPoint     p)
{
  SlChain merged[2] = { { 0 } };
  guint64 n[2] = { self->n[0], self->n[1] };
  gint64 u = MIN (self->u, p.x), v = MAX (self->last_x, p.x);
  gboolean ret = FALSE;

  open_chains (self, merged);
  if (self->n[0] + self->n[1] > 1 && chains_quality (self, merged, u, self->last_x, n) != SL_QUALITY_FAIL)
    {
      _sl_chain_insert (&merged[side], side, p);
      ret = chains_quality (self, merged, u, v, n) == SL_QUALITY_FAIL;
    }
  chains_clear (merged);
  return ret;
}

/**
 * sl_segments_add:
 * @a_to_b: %TRUE for a packet sent by a (at @t_a) and received by b (at
 *   @t_b); %FALSE for one sent by b at @t_b and received by a at @t_a
 */
void
sl_segments_add (SlSegments *self,
                 gboolean    a_to_b,
                 gint64      t_a,
                 gint64      t_b)
{
  int side = a_to_b ? ABOVE : BELOW;
  gboolean suspect = FALSE, skip;
  SlPoint p;

  g_return_if_fail (self != NULL);

  if (G_UNLIKELY (!self->has_origin))
    {
      self->has_origin = TRUE;
      self->x0 = t_a;
      self->y0 = t_b;
    }
  p.x = t_a - self->x0;
  p.y = t_b - self->y0;
  self->total[side]++;

  if (G_UNLIKELY (!self->open))
    start_window (self, p.x, NULL, NULL, p.x);
  else if (G_UNLIKELY (p.x < self->u))
    {
      if (self->windows->len > 0)
        {
          /* its window is closed: leaving a constraint out only widens
           * the band */
          self->late++;
          return;
        }
      /* the first window reaches back to it */
      self->u = p.x;
    }
  else if (G_UNLIKELY (p.x >= self->next_check))
    {
      if (self->probing)
        end_probation (self, FALSE);
      checkpoint (self);
    }

  if (G_UNLIKELY (self->n[side]++ == 0))
    self->version++;
  skip = implied (self, target_chain (self, side, p), side, p);

  if (self->raw != NULL)
    {
      raw_add (self, self->raw, side, p);
      if (G_UNLIKELY (self->raw_crossed_seen && guard_flags (self, side, p)))
        self->raw_version = ~self->raw_version;
      if (sl_hull_get_version (self->raw) != self->raw_version)
        {
          self->raw_version = sl_hull_get_version (self->raw);
          self->version++;
          suspect = self->raw_crossed_seen || _sl_hull_is_crossed (self->raw);
        }
    }
  else
    {
      /* later windows: the band of the last checkpoint screens every
       * packet that could tighten the chains; the window's end moves with
       * each one */
      self->version++;
      suspect = !skip && guard_flags (self, side, p);
    }

  if (G_UNLIKELY (suspect))
    {
      /* a step, a bad match, or only curvature: the relaxed band
       * decides, before p joins the chains */
      self->raw_crossed_seen = TRUE;
      if (self->probing)
        {
          /* on probation: was it the first probation point? */
          SlChain chains[2] = { { 0 } };
          guint64 n[2] = { 0, 0 };
          gboolean first_bad;

          probe_chains (self, chains, n);
          _sl_chain_insert (&chains[side], side, p);
          n[side]++;
          first_bad = self->n_probe > 0 &&
                      chains_quality (self, chains, self->u, MAX (self->last_x, p.x), n) != SL_QUALITY_FAIL;
          chains_clear (chains);
          if (first_bad)
            {
              self->n[side]--;
              self->probe[self->n_probe++] = (Probe) { p, side };
              end_probation (self, TRUE);
              return;
            }
          end_probation (self, FALSE);
        }
      if (contradicts (self, side, p))
        {
          self->n[side]--;
          start_probation (self, side, p);
          self->n[side]++;
          raw_add (self, self->raw, side, p);
          if (self->raw != NULL)
            self->raw_version = sl_hull_get_version (self->raw);
        }
      skip = implied (self, target_chain (self, side, p), side, p);
    }
  insert_point (self, side, p, skip);

  if (self->probing)
    {
      self->probe[self->n_probe++] = (Probe) { p, side };
      if (self->n_probe > PROBE || p.x >= self->next_check)
        end_probation (self, FALSE);
    }
}

/**
 * sl_segments_add_round_trip:
 * @t_a, @t_b: a round trip's instant on a's clock and b's reading then
 *   (t_a + its offset D)
 * @e_ns: its error margin E (half the network round trip)
 *
 * For the linreg option: the round trip joins the window that holds @t_a.
 */
void
sl_segments_add_round_trip (SlSegments *self,
                            gint64      t_a,
                            gint64      t_b,
                            double      e_ns)
{
  double x, d, w;

  g_return_if_fail (self != NULL);

  if (!self->has_origin || !isfinite (e_ns))
    return;
  x = (double) (t_a - self->x0);
  d = (double) (t_b - self->y0) - x;
  /* E of a few ns would outweigh everything: no round trip pins the
   * offset better than the clocks' reading (1 ns) */
  w = 1.0 / (MAX (e_ns, 1.0) * MAX (e_ns, 1.0));
  if (self->open && t_a - self->x0 >= self->u)
    {
      moments_add (&self->lr, x, d, w);
      if (self->suffix_n[0] + self->suffix_n[1] > 0 && t_a - self->x0 >= self->suffix_u)
        moments_add (&self->lr_suffix, x, d, w);
    }
  else if (self->windows->len > 0)
    {
      /* late: the closed window that holds it */
      guint lo = 0, hi = self->windows->len;

      while (hi - lo > 1)
        {
          guint mid = (lo + hi) / 2;

          if (g_array_index (self->windows, Window, mid).band.u <= t_a - self->x0)
            lo = mid;
          else
            hi = mid;
        }
      moments_add (&g_array_index (self->windows, Window, lo).lr, x, d, w);
    }
  else
    return;
  if (self->o.linreg)
    self->version++;
}

/**
 * sl_segments_get_linreg:
 *
 * The round trips' statistics over the windows (see #SlSegmentsLinreg).
 */
void
sl_segments_get_linreg (SlSegments       *self,
                        SlSegmentsLinreg *stats)
{
  GArray *ws;
  long double ss = 0;
  guint64 dof = 0;

  g_return_if_fail (self != NULL && stats != NULL);

  memset (stats, 0, sizeof *stats);
  stats->e_r_ns = stats->se_slope = stats->se_offset_ns = NAN;
  ws = all_windows (self);
  for (guint i = 0; i < ws->len; i++)
    {
      const Window *w = &g_array_index (ws, Window, i);
      Fit f;

      stats->n_round_trips += w->lr.n;
      if (!moments_fit (&w->lr, &f))
        continue;
      stats->n_windows++;
      ss += (long double) f.e_r * f.e_r * (w->lr.n - 2);
      dof += w->lr.n - 2;
      stats->se_slope = isnan (stats->se_slope) ? sqrt (f.s2 / f.sxx) : MAX (stats->se_slope, sqrt (f.s2 / f.sxx));
      for (int end = 0; end < 2; end++)
        {
          double se = fit_se (&f, &w->lr, (double) (end == 0 ? w->band.u : w->band.v));

          stats->se_offset_ns = isnan (stats->se_offset_ns) ? se : MAX (stats->se_offset_ns, se);
        }
    }
  if (dof > 0)
    stats->e_r_ns = (double) sqrtl (ss / dof);
  windows_free (ws);
}

guint64
sl_segments_get_version (const SlSegments *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->version;
}

/* The raw hull of the open window (all packets since it opened). */
const SlHull *
sl_segments_get_hull (const SlSegments *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->raw != NULL ? self->raw : self->first_raw;
}

guint64
sl_segments_get_n_late (const SlSegments *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->late;
}

guint
sl_segments_get_n_failures (const SlSegments *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->failures->len;
}

void
sl_segments_get_failure (const SlSegments *self,
                         guint             i,
                         SlFailureInfo    *info)
{
  g_return_if_fail (self != NULL && i < self->failures->len);
  *info = g_array_index (self->failures, SlFailureInfo, i);
}

/* Every window, the open one last (as it stands). The caller frees the
 * bands. */
static GArray *
all_windows (SlSegments *self)
{
  GArray *ws = g_array_new (FALSE, TRUE, sizeof (Window));

  for (guint i = 0; i < self->windows->len; i++)
    {
      Window w = g_array_index (self->windows, Window, i);

      w.band.hi = g_memdup2 (w.band.hi, w.band.n_hi * sizeof (DPt));
      w.band.lo = g_memdup2 (w.band.lo, w.band.n_lo * sizeof (DPt));
      g_array_append_val (ws, w);
    }
  if (self->open && self->n[0] + self->n[1] > 0)
    {
      SlChain merged[2] = { { 0 } };
      Window w;

      open_chains (self, merged);
      window_init_from (self, &w, merged, self->u, self->last_x, self->raw, self->n);
      w.valid_start = MAX (w.valid_start, self->valid_start);
      w.lr = self->lr;
      g_array_append_val (ws, w);
      chains_clear (merged);
    }
  return ws;
}

static void
windows_free (GArray *ws)
{
  for (guint i = 0; i < ws->len; i++)
    band_clear (&g_array_index (ws, Window, i).band);
  g_array_unref (ws);
}

guint
sl_segments_get_n_windows (SlSegments *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->windows->len + (self->open && self->n[0] + self->n[1] > 0 ? 1 : 0);
}

void
sl_segments_get_window (SlSegments   *self,
                        guint         i,
                        SlWindowInfo *info)
{
  GArray *ws;
  const Window *w;
  const Band *b;

  g_return_if_fail (self != NULL && info != NULL);
  g_return_if_fail (i < sl_segments_get_n_windows (self));

  ws = all_windows (self);
  w = &g_array_index (ws, Window, i);
  b = &w->band;
  info->start = self->x0 + b->u;
  info->end = self->x0 + b->v;
  info->quality = w->quality;
  info->n_ab = w->n[0];
  info->n_ba = w->n[1];
  info->accurate_packets = w->accurate;
  info->alpha_min = b->has_lmin ? b->amin : NAN;
  info->alpha_max = b->has_lmax ? b->amax : NAN;
  info->delta_ns = b->kappa * ((double) (b->v - b->u)) * ((double) (b->v - b->u)) / 8;
  info->band_ns = band_ok (b) ? MAX (band_hi (b, (double) b->u) - band_lo (b, (double) b->u),
                                     band_hi (b, (double) b->v) - band_lo (b, (double) b->v)) : INFINITY;
  info->failed_after = w->failed_after;
  info->valid_start = self->x0 + w->valid_start;
  info->valid_end = self->x0 + w->valid_end;
  windows_free (ws);
}

/* After the first window the open window has no plain hull: its numbers
 * come from its band (the relaxed lines, their bisector, its hull). */
static void
open_window_result (const SlSegments *self,
                    const Window     *w,
                    SlHullResult     *r)
{
  const Band *b = &w->band;

  r->quality = w->quality;
  r->reason = w->quality == SL_QUALITY_ACCURATE ? "" : "the open window's band is not accurate";
  r->hull_points[0] = w->hull_points[0];
  r->hull_points[1] = w->hull_points[1];
  r->span_end = self->x0 + b->v;
  r->has_lmin = b->has_lmin && b->n_hi > 0;
  r->has_lmax = b->has_lmax && b->n_lo > 0;
  r->alpha_min = r->has_lmin ? b->amin : NAN;
  r->alpha_max = r->has_lmax ? b->amax : NAN;
  if (r->has_lmin)
    sl_transform_init (&r->lmin, self->x0 + (gint64) llround (b->hi[0].x), self->y0 + (gint64) llround (b->hi[0].y),
                       0.0, b->amin - 1.0);
  if (r->has_lmax)
    sl_transform_init (&r->lmax, self->x0 + (gint64) llround (b->lo[0].x), self->y0 + (gint64) llround (b->lo[0].y),
                       0.0, b->amax - 1.0);
  r->accuracy = INFINITY;
  r->band_ns = r->bound_ns = INFINITY;
  r->has_estimate = FALSE;
  if (band_ok (b))
    {
      gint64 xm = b->u + (b->v - b->u) / 2;
      double slope, y = band_bisector (b, (double) xm, &slope), whole = floor (y);

      sl_transform_init (&r->estimate, self->x0 + xm, self->y0 + (gint64) whole, y - whole, slope - 1.0);
      r->has_estimate = TRUE;
      r->accuracy = b->amax - b->amin;
      r->band_ns = MAX (band_hi (b, (double) b->u) - band_lo (b, (double) b->u),
                        band_hi (b, (double) b->v) - band_lo (b, (double) b->v));
      r->bound_ns = r->band_ns / 2;
    }
}

/**
 * sl_segments_get_result:
 *
 * The link as a whole in #SlHullResult terms: quality over the windows
 * (accurate when one window's band is), counts and accurate packets summed,
 * and the raw numbers (alpha range, lines, hull points, estimate) of the
 * open window (all of the link when it has one window).
 */
void
sl_segments_get_result (SlSegments   *self,
                        SlHullResult *result)
{
  guint64 accurate = 0;
  gboolean any_accurate = FALSE, any_fail = FALSE;

  g_return_if_fail (self != NULL && result != NULL);

  if (self->raw != NULL)
    sl_hull_get_result (self->raw, result);
  else
    {
      SlHull *empty = sl_hull_new (self->o.max_drift);
      sl_hull_get_result (empty, result);
      sl_hull_free (empty);
    }

  for (guint i = 0; i < self->windows->len; i++)
    {
      const Window *w = &g_array_index (self->windows, Window, i);

      accurate += w->accurate;
      any_accurate |= w->quality == SL_QUALITY_ACCURATE;
      any_fail |= w->quality == SL_QUALITY_FAIL;
    }
  result->accurate_packets += accurate;
  result->n_ab = self->total[0];
  result->n_ba = self->total[1];
  if (self->windows->len == 0 && self->kappa == 0)
    return;

  {
    GArray *ws = all_windows (self);
    const Window *last = ws->len > 0 ? &g_array_index (ws, Window, ws->len - 1) : NULL;

    if (last != NULL)
      {
        any_accurate |= last->quality == SL_QUALITY_ACCURATE;
        any_fail |= last->quality == SL_QUALITY_FAIL;
        if (self->raw == NULL)
          open_window_result (self, last, result);
      }
    result->span_start = self->x0 + (ws->len > 0 ? g_array_index (ws, Window, 0).band.u : 0);
    if (self->total[0] == 0 || self->total[1] == 0)
      ;
    else if (any_accurate)
      {
        result->quality = SL_QUALITY_ACCURATE;
        result->reason = "";
      }
    else if (any_fail)
      {
        result->quality = SL_QUALITY_FAIL;
        result->reason = "hulls cross even allowing for the clock rates' changes: a clock step or "
                         "mismatched packets throughout";
      }
    else if (last != NULL && last->quality == SL_QUALITY_APPROXIMATE && result->quality == SL_QUALITY_ACCURATE)
      {
        result->quality = SL_QUALITY_APPROXIMATE;
        result->reason = "the band allows implausible clock rates once the rates' changes are allowed for";
      }
    windows_free (ws);
  }
}

/* The estimate path */

typedef struct
{
  double x;
  double lo;
  double hi;
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
          double mid = (c[k].lo + c[k].hi) / 2, half = (c[k].hi - c[k].lo) / 2 * INNER;
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

          cur.slope = dx > 0 ? CLAMP (((c[i].lo + c[i].hi) / 2 - cur.y) / dx, self->lo_slope, self->hi_slope)
                             : 1.0;
          last = i;
        }
      else
        {
          double dx = c[last].x - cur.x;

          cur.slope = CLAMP (((c[last].lo + c[last].hi) / 2 - cur.y) / dx, lo, hi);
        }
      g_array_append_val (pieces, cur);
      cur.y += cur.slope * (c[last].x - cur.x);
      cur.x = c[last].x;
      i = last + 1;
    }
  g_array_append_val (pieces, cur);
}

/* The checks of one window: its ends, its band's vertices and interior
 * points (the relaxation is sampled by them), sorted. */
static GArray *
window_checks (const Window *w)
{
  const Band *b = &w->band;
  GArray *xs = g_array_new (FALSE, FALSE, sizeof (double));
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

/* Bound points outside the windows, beyond window b's end (dir 1) or
 * before its start (dir -1): the band's lines and the relaxation grow
 * convexly, so chords between samples are above them. */
static void
tail_points (const SlSegments *self,
             const Band       *b,
             const GArray     *pieces,
             int               dir,
             GArray           *pts)
{
  double from = dir > 0 ? (double) b->v : (double) b->u;

  if (self->kappa == 0)
    {
      double x = from + dir * (double) FAR_NS;
      add_point (pts, self->x0, x, bound_core (b, pieces, x));
      return;
    }
  for (double d = 1e6; d <= (double) FAR_NS; d *= SQRT2)
    {
      double x = from + dir * d;
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
  Piece *a;

  for (guint k = k0; k <= k1; k++)
    {
      const Window *w = &g_array_index (ws, Window, g_array_index (acc, guint, k));
      double u = (double) MAX (w->band.u, w->valid_start), v = (double) MIN (w->band.v, w->valid_end);
      Piece p;
      Fit f;

      p.x = (u + v) / 2;
      if (moments_fit (&w->lr, &f))
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

static SlRelation *
build_relation (SlSegments *self)
{
  GArray *ws = all_windows (self);
  g_autoptr(GArray) acc = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  g_autoptr(GArray) pts = g_array_new (FALSE, FALSE, sizeof (SlBoundPoint));
  SlRelation *rel;

  for (guint i = 0; i < ws->len; i++)
    if (g_array_index (ws, Window, i).quality == SL_QUALITY_ACCURATE &&
        band_ok (&g_array_index (ws, Window, i).band))
      g_array_append_val (acc, i);

  if (acc->len == 0)
    {
      /* no band: the raw estimate, unbounded (a raw band is no guarantee
       * once clock rates may change) */
      SlRelation *raw = self->raw != NULL ? sl_hull_get_relation (self->raw) : NULL;
      SlBoundPoint inf = { self->x0, INFINITY };
      gint64 start = G_MININT64;
      SlTransform t;

      windows_free (ws);
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

  /* the path: one stab per run of windows without a step between them */
  {
    const Window *w0 = &g_array_index (ws, Window, g_array_index (acc, guint, 0));

    if (acc->len == 1 && w0->has_raw_est && !self->o.linreg)
      {
        /* one window: the raw hull's bisector, as without windows */
        gint64 whole;
        double frac, slope;
        Piece p;

        sl_transform_apply_split (&w0->raw_est, self->x0 + w0->band.u, &whole, &frac);
        slope = sl_transform_get_slope (&w0->raw_est);
        p.x = (double) w0->band.u;
        p.y = (double) (whole - self->y0) + frac;
        p.slope = slope;
        g_array_append_val (pieces, p);
      }
    else
      for (guint k0 = 0; k0 < acc->len;)
        {
          g_autoptr(GArray) checks = g_array_new (FALSE, FALSE, sizeof (Check));
          g_autoptr(GArray) run = g_array_new (FALSE, FALSE, sizeof (Piece));
          const Window *first = &g_array_index (ws, Window, g_array_index (acc, guint, k0));
          guint k1 = k0;
          double slope0, y0, slope1;

          while (k1 + 1 < acc->len && !step_between (ws, g_array_index (acc, guint, k1), g_array_index (acc, guint, k1 + 1)))
            k1++;
          for (guint k = k0; k <= k1; k++)
            {
              const Window *w = &g_array_index (ws, Window, g_array_index (acc, guint, k));
              const Band *b = &w->band;
              const Band *nb = k < k1 ? &g_array_index (ws, Window, g_array_index (acc, guint, k + 1)).band : NULL;
              g_autoptr(GArray) xs = window_checks (w);

              for (guint j = 0; j < xs->len; j++)
                {
                  double x = g_array_index (xs, double, j);
                  Check c = { x, band_lo (b, x), band_hi (b, x) };

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
                  g_array_append_val (checks, c);
                }
            }

          y0 = band_bisector (&first->band, g_array_index (checks, Check, 0).x, &slope0);
          if (!self->o.linreg ||
              !linreg_run (self, ws, acc, k0, k1, (const Check *) (gpointer) checks->data, checks->len, run))
            {
              g_array_set_size (run, 0);
              stab (self, (const Check *) (gpointer) checks->data, checks->len, y0, run);
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

  /* bound points: the windows', then the gaps between them and the tails */
  for (guint k = 0; k < acc->len; k++)
    {
      const Window *w = &g_array_index (ws, Window, g_array_index (acc, guint, k));
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

      if (k + 1 < acc->len)
        {
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
    }
  tail_points (self, &g_array_index (ws, Window, g_array_index (acc, guint, 0)).band, pieces, -1, pts);
  tail_points (self, &g_array_index (ws, Window, g_array_index (acc, guint, acc->len - 1)).band, pieces, 1, pts);

  g_array_sort (pts, cmp_bound_point);
  {
    guint k = 0;

    /* the same instant from two windows: the larger value holds on both
     * sides */
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

  /* pieces as SlTransforms anchored at their starts */
  {
    guint n = pieces->len;
    gint64 *starts = g_new (gint64, n);
    SlTransform *maps = g_new (SlTransform, n);

    for (guint i = 0; i < n; i++)
      {
        const Piece *p = &g_array_index (pieces, Piece, i);
        double whole = floor (p->y);

        starts[i] = i == 0 ? G_MININT64 : self->x0 + (gint64) llround (p->x);
        sl_transform_init (&maps[i], self->x0 + (gint64) llround (p->x), self->y0 + (gint64) whole,
                           p->y - whole + p->slope * ((double) llround (p->x) - p->x), p->slope - 1.0);
      }
    /* pieces that round to the same start: the later one wins */
    {
      guint k = 1;

      for (guint i = 1; i < n; i++)
        {
          if (k > 1 && starts[i] <= starts[k - 1])
            k--;
          starts[k] = starts[i];
          maps[k] = maps[i];
          k++;
        }
      n = MIN (n, k);
    }
    rel = sl_relation_new (starts, maps, n, (const SlBoundPoint *) (gpointer) pts->data, pts->len, FALSE);
    g_free (starts);
    g_free (maps);
  }
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

  if (self->rel == NULL || self->rel_version != self->version)
    {
      g_clear_pointer (&self->rel, sl_relation_unref);
      self->rel = build_relation (self);
      self->rel_version = self->version;
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
  GArray *ws;
  const Band *best = NULL;
  double x;

  g_return_val_if_fail (self != NULL, FALSE);

  ws = all_windows (self);
  x = (double) (t_a - self->x0);
  for (guint i = 0; i < ws->len; i++)
    {
      const Window *w = &g_array_index (ws, Window, i);

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
  windows_free (ws);
  return best != NULL;
}

gsize
sl_segments_get_memory (const SlSegments *self)
{
  gsize m = sizeof *self + self->windows->len * sizeof (Window) +
            self->failures->len * sizeof (SlFailureInfo);

  g_return_val_if_fail (self != NULL, 0);
  for (guint i = 0; i < self->windows->len; i++)
    {
      const Window *w = &g_array_index (self->windows, Window, i);
      m += (w->band.n_hi + w->band.n_lo) * sizeof (DPt);
    }
  for (int side = 0; side < 2; side++)
    m += (self->full[side].cap + self->suffix[side].cap) * sizeof (SlPoint);
  return m;
}
