/* sl-segments.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-compare.h"
#include "sl-segments-private.h"

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

/* Bands */

void
band_clear (Band *b)
{
  g_clear_pointer (&b->hi, g_free);
  g_clear_pointer (&b->lo, g_free);
  b->n_hi = b->n_lo = 0;
}

double
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

void
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
double
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

/* @h: half the payload bytes of the round trip's packet of each
 * direction (ABOVE: a → b) */
static void
moments_add (Moments      *m,
             double        x,
             double        d,
             double        w,
             const double  h[2])
{
  for (int side = 0; side < 2; side++)
    {
      m->wh[side] += w * (long double) h[side];
      m->wxh[side] += w * (long double) x * h[side];
    }
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
pl_merge (PlSums       *m,
          const PlSums *o,
          int           sign)
{
  m->n += sign > 0 ? o->n : -o->n;
  m->x += sign * o->x;
  m->d += sign * o->d;
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
  for (int side = 0; side < 2; side++)
    {
      m->wh[side] += sign * o->wh[side];
      m->wxh[side] += sign * o->wxh[side];
    }
  if (m->n == 0)
    memset (m, 0, sizeof *m);
}

/* The weighted least-squares line d = a + b·x; FALSE with fewer than
 * three round trips or no spread in x. */
gboolean
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

/* moments_fit() of the round trips' offsets corrected for their sizes:
 * D = θ + (d_ab − d_ba)/2, and a packet's delay grows by c ns a byte of
 * its direction (the hull's pooled slopes, sl-segments-payload.c), so
 * each D less c_ab·L_ab/2 − c_ba·L_ba/2 is the offset with empty packets
 * both ways (as the hull's estimate assumes them equally fast). The fit
 * being linear in D, that is the plain fit less the same combination of
 * the fits of the halved sizes. The residual figures (s2, e_r) stay
 * those of the uncorrected offsets: a statistic beside the estimate. */
gboolean
moments_fit_sized (const Moments *m,
                   const double   c[2],
                   Fit           *f)
{
  long double mx;

  if (!moments_fit (m, f))
    return FALSE;
  mx = m->wx / m->w;
  for (int side = 0; side < 2; side++)
    {
      long double mh, b;

      if (c[side] == 0)
        continue;
      mh = m->wh[side] / m->w;
      b = (m->wxh[side] - m->w * mx * mh) / f->sxx;
      /* ABOVE's delay adds to D, BELOW's takes from it */
      f->a -= (double) ((side == ABOVE ? c[side] : -c[side]) * (mh - b * mx));
      f->b -= (double) ((side == ABOVE ? c[side] : -c[side]) * b);
    }
  return TRUE;
}

/* The fit's standard error at x (ns): the unit variance of the weighted
 * fit times its leverage there. */
double
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

void
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
  band_clear (&self->open_w.band);
  sl_hull_free (self->raw);
  sl_hull_free (self->raw_snap);
  sl_hull_free (self->first_raw);
  payload_free (self->payload);
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
void
open_chains (const SlSegments *self,
             SlChain          *out)
{
  _sl_chain_copy (&out[0], &self->full[0]);
  _sl_chain_copy (&out[1], &self->full[1]);
  chains_merge (out, self->suffix);
}

void
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
    {
      memset (&self->lr, 0, sizeof self->lr);
      memset (&self->pl, 0, sizeof self->pl);
    }
  memset (&self->lr_suffix, 0, sizeof self->lr_suffix);
  memset (&self->pl_suffix, 0, sizeof self->pl_suffix);
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
  w.pl = self->pl;
  pl_merge (&w.pl, &self->pl_suffix, -1);
  self->pl = self->pl_suffix;
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
          memset (&self->pl_suffix, 0, sizeof self->pl_suffix);
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
      memset (&self->pl_suffix, 0, sizeof self->pl_suffix);
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

/* Times 73 years from the link's first packet (hostile input) could
 * overflow in implied_by(): such packets are kept (keeping one is always
 * safe). */
static inline gboolean
far_point (SlPoint p)
{
  const guint64 half = G_GUINT64_CONSTANT (1) << 61;

  return ((((guint64) p.x + half) | ((guint64) p.y + half)) >> 62) != 0;
}

/* implied() with the chain's newest vertex a given as a.x and a.y − a.x,
 * both points within ±2^61. */
static inline gboolean
implied_by (const SlSegments *self,
            int               side,
            SlPoint           p,
            gint64            ax,
            gint64            ad)
{
  gint64 dx = p.x - ax, dy = (p.y - p.x) - ad;

  if (side != ABOVE)
    dy = -dy;
  /* 1 ns for the product's rounding */
  return (double) dy >= self->o.max_drift * (double) (dx >= 0 ? dx : -dx) + 1.0;
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
  SlPoint a;

  if (c->len == 0)
    return FALSE;
  a = c->pts[c->len - 1];
  if (G_UNLIKELY (far_point (p) || far_point (a)))
    return FALSE;
  return implied_by (self, side, p, a.x, a.y - a.x);
}

/* The newest vertex of a suffix chain, as implied_fast() reads it. */
static inline void
newest_update (SlSegments *self,
               int         side)
{
  const SlChain *c = &self->suffix[side];
  Newest *a = &self->newest[side];

  a->ok = c->len > 0 && !far_point (c->pts[c->len - 1]);
  if (a->ok)
    {
      a->x = c->pts[c->len - 1].x;
      a->d = c->pts[c->len - 1].y - a->x;
    }
}

/* implied() of p for the suffix chain of its side. */
static inline gboolean
implied_fast (const SlSegments *self,
              int               side,
              SlPoint           p)
{
  const Newest *a = &self->newest[side];

  return a->ok && !far_point (p) && implied_by (self, side, p, a->x, a->d);
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
  memset (&self->pl_suffix, 0, sizeof self->pl_suffix);
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
  pl_merge (&self->pl, &w->pl, 1);
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

/* p joins the open window, counted, implied() decided and the raw hull
 * fed: a suspect packet first goes through the relaxed band's verdict. */
static G_GNUC_NO_INLINE void
add_join (SlSegments *self,
          int         side,
          SlPoint     p,
          gboolean    skip,
          gboolean    suspect)
{
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

/* Every case of sl_segments_add(); add_fast() takes the common one. */
static G_GNUC_NO_INLINE void
add_slow (SlSegments *self,
          int         side,
          gint64      t_a,
          gint64      t_b)
{
  gboolean suspect = FALSE, skip;
  SlPoint p;

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
  add_join (self, side, p, skip, suspect);
}

/* Whether the next packet may take add_fast(): an open window, not on
 * probation, with packets of both directions (none is the first of its
 * side) and a suffix that is not empty (suffix_min_x <= suffix_u, so that
 * a packet past suffix_u leaves it alone), whose raw hull, if it runs
 * one, has not crossed; and the suffix chains' newest vertices for
 * implied_fast(). */
static void
update_fast (SlSegments *self)
{
  for (int side = 0; side < 2; side++)
    newest_update (self, side);
  self->fast = self->open && !self->probing && self->n[0] > 0 && self->n[1] > 0 &&
               self->suffix_n[0] + self->suffix_n[1] > 0 &&
               !(self->raw != NULL && self->raw_crossed_seen);
}

/* add_slow() for a packet in the suffix (p.x >= suffix_u >= u), before
 * the next checkpoint, of an open window that update_fast() cleared. */
static G_GNUC_NO_INLINE void
add_fast (SlSegments *self,
          int         side,
          SlPoint     p,
          gboolean    skip)
{
  self->total[side]++;
  self->n[side]++;
  if (self->raw != NULL)
    {
      guint64 v = _sl_hull_add_version (self->raw, side, self->x0 + p.x, self->y0 + p.y);

      if (G_UNLIKELY (v != self->raw_version))
        {
          self->raw_version = v;
          self->version++;
          if (_sl_hull_is_crossed (self->raw))
            {
              add_join (self, side, p, skip, TRUE);
              update_fast (self);
              return;
            }
        }
    }
  else
    {
      self->version++;
      if (G_UNLIKELY (!skip && guard_flags (self, side, p)))
        {
          add_join (self, side, p, skip, TRUE);
          update_fast (self);
          return;
        }
    }

  /* insert_point() */
  if (!skip)
    {
      _sl_chain_add (&self->suffix[side], side, p);
      newest_update (self, side);
    }
  self->suffix_n[side]++;
  self->last_x = MAX (self->last_x, p.x);
  self->last_side_x[side] = MAX (self->last_side_x[side], p.x);
}

static G_GNUC_NO_INLINE void
add_slow_fast (SlSegments *self,
               int         side,
               gint64      t_a,
               gint64      t_b)
{
  add_slow (self, side, t_a, t_b);
  update_fast (self);
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
  gboolean skip;
  SlPoint p;

  g_return_if_fail (self != NULL);

  self->changes++;
  p.x = t_a - self->x0;
  p.y = t_b - self->y0;
  if (G_UNLIKELY (!self->fast || p.x < self->suffix_u || p.x >= self->next_check))
    {
      add_slow_fast (self, side, t_a, t_b);
      return;
    }

  skip = implied_fast (self, side, p);
  if (G_UNLIKELY (!skip || self->raw != NULL))
    {
      add_fast (self, side, p, skip);
      return;
    }

  /* Most packets of a busy link: add_fast() for a later window's packet
   * that implied() leaves out of the chains. A leaf, so that it saves no
   * registers. */
  self->total[side]++;
  self->n[side]++;
  self->version++;
  self->suffix_n[side]++;
  self->last_x = MAX (self->last_x, p.x);
  self->last_side_x[side] = MAX (self->last_side_x[side], p.x);
}

/* The closed window that holds x (relative), or the first. */
static Window *
closed_window_at (SlSegments *self,
                  gint64      x)
{
  guint lo = 0, hi = self->windows->len;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (self->windows, Window, mid).band.u <= x)
        lo = mid;
      else
        hi = mid;
    }
  return &g_array_index (self->windows, Window, lo);
}

/**
 * sl_segments_add_sized:
 * @length: the packet's TCP payload bytes
 *
 * sl_segments_add() for a packet whose size is known: the sizes move the
 * estimate off the band's middle by what serialization delays make of it
 * (sl-segments-payload.c), never the band.
 */
void
sl_segments_add_sized (SlSegments *self,
                       gboolean    a_to_b,
                       gint64      t_a,
                       gint64      t_b,
                       guint       length)
{
  g_return_if_fail (self != NULL);

  sl_segments_add (self, a_to_b, t_a, t_b);
  payload_add (self, a_to_b ? ABOVE : BELOW, (SlPoint) { t_a - self->x0, t_b - self->y0 }, length);
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
  sl_segments_add_round_trip_sized (self, t_a, t_b, e_ns, 0, 0);
}

/**
 * sl_segments_add_round_trip_sized:
 * @len_ab, @len_ba: the payload bytes of its a → b and b → a packets (0
 *   when unknown)
 *
 * sl_segments_add_round_trip() for a round trip whose packets' sizes are
 * known: with the packets' own sizes (sl_segments_add_sized()), linreg's
 * estimate discounts what serialization adds to each direction.
 */
void
sl_segments_add_round_trip_sized (SlSegments *self,
                                  gint64      t_a,
                                  gint64      t_b,
                                  double      e_ns,
                                  guint       len_ab,
                                  guint       len_ba)
{
  double x, d, w, h[2];

  g_return_if_fail (self != NULL);

  if (!self->has_origin || !isfinite (e_ns))
    return;
  self->changes++;
  x = (double) (t_a - self->x0);
  d = (double) (t_b - self->y0) - x;
  /* E of a few ns would outweigh everything: no round trip pins the
   * offset better than the clocks' reading (1 ns) */
  w = 1.0 / (MAX (e_ns, 1.0) * MAX (e_ns, 1.0));
  h[ABOVE] = len_ab / 2.0;
  h[BELOW] = len_ba / 2.0;
  if (self->open && t_a - self->x0 >= self->u)
    {
      moments_add (&self->lr, x, d, w, h);
      if (self->suffix_n[0] + self->suffix_n[1] > 0 && t_a - self->x0 >= self->suffix_u)
        moments_add (&self->lr_suffix, x, d, w, h);
    }
  else if (self->windows->len > 0)
    moments_add (&closed_window_at (self, t_a - self->x0)->lr, x, d, w, h);
  else
    return;
  if (self->o.linreg)
    self->version++;
}

/* A payload-corrected offset (sl-segments-payload.c) into the window
 * that holds x, as a round trip. */
void
window_payload_add (SlSegments *self,
                    double      x,
                    double      d)
{
  gint64 xi = (gint64) floor (x);
  PlSums *to[2] = { NULL, NULL };

  if (self->open && xi >= self->u)
    {
      to[0] = &self->pl;
      if (self->suffix_n[0] + self->suffix_n[1] > 0 && xi >= self->suffix_u)
        to[1] = &self->pl_suffix;
    }
  else if (self->windows->len > 0)
    to[0] = &closed_window_at (self, xi)->pl;
  for (int i = 0; i < 2; i++)
    if (to[i] != NULL)
      {
        to[i]->n++;
        to[i]->x += x;
        to[i]->d += d;
      }
  if (to[0] != NULL)
    self->version++;
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
  return m + payload_memory (self->payload);
}
