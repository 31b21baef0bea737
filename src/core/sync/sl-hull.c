/* sl-hull.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-compare.h"
#include "sl-hull.h"
#include "sl-hull-private.h"

/*
 * Points are (t_a, t_b) relative to the link's first packet, so they fit in
 * 64 bits for spans of centuries; cross products need 128 bits.
 *
 * Side 0 holds packets a->b, (send_a, recv_b): they lie above the true line,
 * and we keep their lower hull. Side 1 holds packets b->a, (recv_a, send_b):
 * below the line, upper hull.
 *
 * The separating lines have slopes in [alpha_min, alpha_max] with
 *   alpha_max = min over pairs (d below, u above, d.x < u.x) of slope (d, u)
 *   alpha_min = max over pairs (u above, d below, u.x < d.x) of slope (u, d)
 * (for a fixed slope s a separating intercept exists iff every such pair
 * allows s). Constraints only accumulate, so a new hull vertex p updates
 * both by a min/max over the pairs it forms with the other hull's vertices;
 * a point that is not a hull vertex is implied by the vertices around it.
 * Packets that arrive in time order and lie outside the band (almost all of
 * them) cost one hull append and two cross products [Jabbarifar §3.6.4].
 */


struct _SlHull
{
  double       max_drift;
  gboolean     has_origin;
  gint64       x0;
  gint64       y0;
  gint64       xmin;
  gint64       xmax;
  SlChain      chain[2];
  guint64      count[2];
  guint64      n_points;
  guint64      accurate_packets;

  /* Lmax rests on lmax_d (below, left) and lmax_u (above, right);
   * Lmin on lmin_u (above, left) and lmin_d (below, right). */
  gboolean     has_lmax;
  gboolean     has_lmin;
  SlPoint      lmax_d;
  SlPoint      lmax_u;
  SlPoint      lmin_u;
  SlPoint      lmin_d;

  /* Hulls crossed: no line separates the two directions. Adding packets
   * only adds constraints, so this never clears. */
  gboolean     crossed;
  gboolean     has_last_good;
  SlTransform  last_good;

  /* Bumped whenever the quality or the bounds may have changed. */
  guint64      version;
};

/* slope (p1, p2) < slope (q1, q2), both with x2 > x1 */
static inline gboolean
slope_less (SlPoint p1,
            SlPoint p2,
            SlPoint q1,
            SlPoint q2)
{
  return (__int128) (p2.y - p1.y) * (q2.x - q1.x) <
         (__int128) (q2.y - q1.y) * (p2.x - p1.x);
}

static double
slope_of (SlPoint p1,
          SlPoint p2)
{
  return (double) (p2.y - p1.y) / (double) (p2.x - p1.x);
}

/* slope - 1 without the cancellation of computing the slope first */
static double
drift_of (SlPoint p1,
          SlPoint p2)
{
  return (double) ((p2.y - p1.y) - (p2.x - p1.x)) / (double) (p2.x - p1.x);
}

static void
chain_reserve (SlChain *c)
{
  if (c->len == c->cap)
    {
      c->cap = MAX (8, c->cap * 2);
      c->pts = g_renew (SlPoint, c->pts, c->cap);
    }
}

static void
chain_remove (SlChain *c,
              gsize  i)
{
  memmove (&c->pts[i], &c->pts[i + 1], (c->len - i - 1) * sizeof (SlPoint));
  c->len--;
}

/* Inserts p into the chain if it is a vertex of the new hull. */
gboolean
_sl_chain_insert (SlChain *c,
              int      side,
              SlPoint  p)
{
  SlPoint *h = c->pts;
  gsize lo, hi, i;

  if (c->len == 0 || p.x > h[c->len - 1].x)
    {
      while (c->len >= 2 && _sl_turn (side, h[c->len - 2], h[c->len - 1], p) <= 0)
        c->len--;
      chain_reserve (c);
      c->pts[c->len++] = p;
      return TRUE;
    }

  /* Out of time order: rare, O(h). */
  lo = 0;
  hi = c->len;
  while (lo < hi)
    {
      gsize mid = (lo + hi) / 2;
      if (h[mid].x < p.x)
        lo = mid + 1;
      else
        hi = mid;
    }
  i = lo;

  if (h[i].x == p.x)
    {
      if (side == ABOVE ? p.y >= h[i].y : p.y <= h[i].y)
        return FALSE;
      h[i] = p;
    }
  else
    {
      if (i > 0 && _sl_turn (side, h[i - 1], h[i], p) >= 0)
        return FALSE;
      chain_reserve (c);
      h = c->pts;
      memmove (&h[i + 1], &h[i], (c->len - i) * sizeof (SlPoint));
      h[i] = p;
      c->len++;
    }

  while (i >= 2 && _sl_turn (side, h[i - 2], h[i - 1], h[i]) <= 0)
    {
      chain_remove (c, i - 1);
      i--;
    }
  while (i + 2 < c->len && _sl_turn (side, h[i], h[i + 1], h[i + 2]) <= 0)
    chain_remove (c, i + 1);

  return TRUE;
}

void
_sl_chain_copy (SlChain       *dst,
                const SlChain *src)
{
  if (dst->cap < src->len)
    {
      dst->cap = MAX (8, src->len);
      dst->pts = g_renew (SlPoint, dst->pts, dst->cap);
    }
  if (src->len > 0)
    memcpy (dst->pts, src->pts, src->len * sizeof (SlPoint));
  dst->len = src->len;
}

void
_sl_chain_clear (SlChain *c)
{
  g_clear_pointer (&c->pts, g_free);
  c->len = c->cap = 0;
}

/* The hulls cross: no line separates the two directions (sticky). */
gboolean
_sl_hull_is_crossed (const SlHull *self)
{
  return self->crossed;
}

SlHull *
_sl_hull_copy (const SlHull *src)
{
  SlHull *self = g_new (SlHull, 1);

  *self = *src;
  memset (self->chain, 0, sizeof self->chain);
  _sl_chain_copy (&self->chain[0], &src->chain[0]);
  _sl_chain_copy (&self->chain[1], &src->chain[1]);
  return self;
}

SlHull *
sl_hull_new (double max_drift)
{
  SlHull *self = g_new0 (SlHull, 1);

  self->max_drift = max_drift > 0 ? max_drift : SL_HULL_DEFAULT_MAX_DRIFT;
  return self;
}

void
sl_hull_free (SlHull *self)
{
  if (self == NULL)
    return;
  g_free (self->chain[0].pts);
  g_free (self->chain[1].pts);
  g_free (self);
}

/* New vertex p above the line: pairs (d, p) bound alpha_max from above,
 * pairs (p, d) bound alpha_min from below. */
static gboolean
update_lines_above (SlHull  *self,
                    SlPoint  p)
{
  const SlChain *other = &self->chain[BELOW];
  gboolean changed = FALSE;

  for (gsize i = 0; i < other->len; i++)
    {
      SlPoint d = other->pts[i];

      if (d.x < p.x)
        {
          if (!self->has_lmax || slope_less (d, p, self->lmax_d, self->lmax_u))
            {
              self->has_lmax = TRUE;
              self->lmax_d = d;
              self->lmax_u = p;
              changed = TRUE;
            }
        }
      else if (d.x > p.x)
        {
          if (!self->has_lmin || slope_less (self->lmin_u, self->lmin_d, p, d))
            {
              self->has_lmin = TRUE;
              self->lmin_u = p;
              self->lmin_d = d;
              changed = TRUE;
            }
        }
      else if (d.y >= p.y)
        self->crossed = TRUE;
    }

  return changed;
}

static gboolean
update_lines_below (SlHull  *self,
                    SlPoint  q)
{
  const SlChain *other = &self->chain[ABOVE];
  gboolean changed = FALSE;

  for (gsize i = 0; i < other->len; i++)
    {
      SlPoint u = other->pts[i];

      if (u.x > q.x)
        {
          if (!self->has_lmax || slope_less (q, u, self->lmax_d, self->lmax_u))
            {
              self->has_lmax = TRUE;
              self->lmax_d = q;
              self->lmax_u = u;
              changed = TRUE;
            }
        }
      else if (u.x < q.x)
        {
          if (!self->has_lmin || slope_less (self->lmin_u, self->lmin_d, u, q))
            {
              self->has_lmin = TRUE;
              self->lmin_u = u;
              self->lmin_d = q;
              changed = TRUE;
            }
        }
      else if (u.y <= q.y)
        self->crossed = TRUE;
    }

  return changed;
}

static void compute_result (const SlHull *self,
                            SlHullResult *r);

/* Right of Lmax's upper point every feasible line lies below Lmax (it
 * passes below that point with a smaller slope), and the feasible set only
 * shrinks: an upper point above Lmax there can never constrain anything,
 * now or later. Likewise left of Lmin's upper point with Lmin, and for
 * lower points with the mirrored lines. These are the "neglected" points
 * of [Jabbarifar §3.6.4]; most packets stop here after one cross product. */
static inline gboolean
is_neglected (const SlHull *self,
              int           side,
              SlPoint       p)
{
  if (side == ABOVE)
    return (self->has_lmax && p.x >= self->lmax_u.x && _sl_cross (self->lmax_d, self->lmax_u, p) > 0) ||
           (self->has_lmin && p.x <= self->lmin_u.x && _sl_cross (self->lmin_u, self->lmin_d, p) > 0);
  else
    return (self->has_lmin && p.x >= self->lmin_d.x && _sl_cross (self->lmin_u, self->lmin_d, p) < 0) ||
           (self->has_lmax && p.x <= self->lmax_d.x && _sl_cross (self->lmax_d, self->lmax_u, p) < 0);
}

static G_GNUC_NO_INLINE gboolean
add_vertex (SlHull  *self,
            int      side,
            SlPoint  p)
{
  gboolean had_lmax, had_lmin, changed;
  SlPoint old_max[2], old_min[2];

  if (!_sl_chain_insert (&self->chain[side], side, p))
    return FALSE;

  if (self->crossed)
    return FALSE;

  /* Outside the band on the far side of both lines: changes nothing. */
  if (self->has_lmax && self->has_lmin)
    {
      if (side == ABOVE &&
          _sl_cross (self->lmax_d, self->lmax_u, p) > 0 &&
          _sl_cross (self->lmin_u, self->lmin_d, p) > 0)
        return FALSE;
      if (side == BELOW &&
          _sl_cross (self->lmax_d, self->lmax_u, p) < 0 &&
          _sl_cross (self->lmin_u, self->lmin_d, p) < 0)
        return FALSE;
    }

  had_lmax = self->has_lmax;
  had_lmin = self->has_lmin;
  old_max[0] = self->lmax_d;
  old_max[1] = self->lmax_u;
  old_min[0] = self->lmin_u;
  old_min[1] = self->lmin_d;

  changed = side == ABOVE ? update_lines_above (self, p)
                          : update_lines_below (self, p);

  if (!self->crossed && self->has_lmax && self->has_lmin &&
      !slope_less (self->lmin_u, self->lmin_d, self->lmax_d, self->lmax_u))
    self->crossed = TRUE;

  if (self->crossed)
    {
      SlHullResult before;

      /* Keep the last estimate made before the contradiction for a
       * best-effort display, as Trace Compass does. */
      self->crossed = FALSE;
      self->has_lmax = had_lmax;
      self->has_lmin = had_lmin;
      self->lmax_d = old_max[0];
      self->lmax_u = old_max[1];
      self->lmin_u = old_min[0];
      self->lmin_d = old_min[1];
      compute_result (self, &before);
      self->has_last_good = before.has_estimate;
      self->last_good = before.estimate;
      self->crossed = TRUE;
      self->version++;
      return FALSE;
    }

  /* While the other direction has no packet the band is unbounded: the
   * packet lies inside it and counts as accurate (Trace Compass counts the
   * same way; its 25 accurate packets on data/traces/synctraces need it). */
  if (changed || self->chain[side ^ 1].len == 0)
    self->accurate_packets++;
  if (changed)
    self->version++;
  return changed;
}

/**
 * sl_hull_add:
 * @a_to_b: %TRUE for a packet sent by a (at @t_a) and received by b (at
 *   @t_b); %FALSE for one sent by b at @t_b and received by a at @t_a
 *
 * Returns: %TRUE if the packet was accurate: it tightened alpha_min or
 *   alpha_max (or created a bounding line).
 */
gboolean
sl_hull_add (SlHull   *self,
             gboolean  a_to_b,
             gint64    t_a,
             gint64    t_b)
{
  int side = a_to_b ? ABOVE : BELOW;
  SlPoint p;

  g_return_val_if_fail (self != NULL, FALSE);

  if (G_UNLIKELY (!self->has_origin))
    {
      self->has_origin = TRUE;
      self->x0 = t_a;
      self->y0 = t_b;
    }

  p.x = t_a - self->x0;
  p.y = t_b - self->y0;
  if (G_UNLIKELY (self->count[side]++ == 0))
    self->version++;

  if (G_UNLIKELY (self->n_points++ == 0))
    self->xmin = self->xmax = p.x;
  else if (p.x < self->xmin)
    self->xmin = p.x;
  else if (p.x > self->xmax)
    self->xmax = p.x;

  if (G_LIKELY (!self->crossed) && is_neglected (self, side, p))
    return FALSE;

  return add_vertex (self, side, p);
}

/* sl_hull_add() for the windowed estimator's first window: the version
 * after it. */
guint64
_sl_hull_add_version (SlHull *self,
                      int     side,
                      gint64  t_a,
                      gint64  t_b)
{
  sl_hull_add (self, side == ABOVE, t_a, t_b);
  return self->version;
}

static void
line_transform (const SlHull *self,
                SlPoint       p1,
                SlPoint       p2,
                SlTransform  *out)
{
  sl_transform_init (out, self->x0 + p1.x, self->y0 + p1.y, 0.0,
                     drift_of (p1, p2));
}

static double
line_at (SlPoint p1,
         SlPoint p2,
         double  x)
{
  return (double) p1.y + slope_of (p1, p2) * (x - (double) p1.x);
}

/* Feasible intercepts at slope s: [max over below of y - s x,
 * min over above of y - s x]; returns their midpoint. */
static double
mid_intercept (const SlHull *self,
               double        s)
{
  double lo = -INFINITY, hi = INFINITY;

  for (gsize i = 0; i < self->chain[BELOW].len; i++)
    {
      SlPoint d = self->chain[BELOW].pts[i];
      lo = MAX (lo, (double) d.y - s * (double) d.x);
    }
  for (gsize i = 0; i < self->chain[ABOVE].len; i++)
    {
      SlPoint u = self->chain[ABOVE].pts[i];
      hi = MIN (hi, (double) u.y - s * (double) u.x);
    }

  if (isinf (lo))
    return hi;
  if (isinf (hi))
    return lo;
  return (lo + hi) / 2;
}

static void
set_estimate (const SlHull *self,
              SlHullResult *r,
              double        slope,
              double        drift,
              double        intercept)
{
  gint64 xmid = self->xmin + (self->xmax - self->xmin) / 2;
  double v = intercept + slope * (double) xmid;
  double whole = floor (v);

  /* hulls of absurd data (a slope of thousands): no estimate rather than
   * an offset beyond 64 bits */
  if (!isfinite (whole) || fabs (whole) > 0x1p62)
    return;
  sl_transform_init (&r->estimate, self->x0 + xmid,
                     self->y0 + (gint64) whole, v - whole, drift);
  r->has_estimate = TRUE;
}

static guint
count_upto (const SlChain *c,
            gboolean     bounded,
            gint64       x)
{
  guint n = 0;

  if (!bounded)
    return c->len;
  for (gsize i = 0; i < c->len && c->pts[i].x <= x; i++)
    n++;
  return n;
}

static void
compute_result (const SlHull *self,
                SlHullResult *r)
{
  double lo_slope = 1.0 / (1.0 + self->max_drift);
  double hi_slope = 1.0 + self->max_drift;

  memset (r, 0, sizeof *r);
  r->reason = "";
  r->n_ab = self->count[ABOVE];
  r->n_ba = self->count[BELOW];
  r->accurate_packets = self->accurate_packets;
  r->hull_points[ABOVE] = count_upto (&self->chain[ABOVE], self->has_lmax, self->lmax_u.x);
  r->hull_points[BELOW] = count_upto (&self->chain[BELOW], self->has_lmin, self->lmin_d.x);
  r->has_lmax = self->has_lmax;
  r->has_lmin = self->has_lmin;
  r->alpha_max = self->has_lmax ? slope_of (self->lmax_d, self->lmax_u) : NAN;
  r->alpha_min = self->has_lmin ? slope_of (self->lmin_u, self->lmin_d) : NAN;
  if (self->has_lmax)
    line_transform (self, self->lmax_d, self->lmax_u, &r->lmax);
  if (self->has_lmin)
    line_transform (self, self->lmin_u, self->lmin_d, &r->lmin);
  r->accuracy = self->has_lmax && self->has_lmin ? r->alpha_max - r->alpha_min : INFINITY;
  r->band_ns = INFINITY;
  r->bound_ns = INFINITY;
  r->span_start = self->x0 + self->xmin;
  r->span_end = self->x0 + self->xmax;

  if (r->n_ab == 0 && r->n_ba == 0)
    {
      r->quality = SL_QUALITY_ABSENT;
      r->reason = "no packet";
      return;
    }

  if (r->n_ab == 0 || r->n_ba == 0)
    {
      r->quality = SL_QUALITY_INCOMPLETE;
      r->reason = r->n_ab == 0 ? "packets from b to a only" : "packets from a to b only";
      /* Zero-latency bound at slope 1: an upper (or lower) limit only. */
      set_estimate (self, r, 1.0, 0.0, mid_intercept (self, 1.0));
      return;
    }

  if (self->crossed)
    {
      r->quality = SL_QUALITY_FAIL;
      r->reason = "hulls cross: no line separates the two directions "
                  "(drift not linear over the span, or packets mismatched)";
      r->has_estimate = self->has_last_good;
      r->estimate = self->last_good;
      return;
    }

  if ((self->has_lmax && r->alpha_max < lo_slope) ||
      (self->has_lmin && r->alpha_min > hi_slope))
    {
      /* Adding packets only narrows the band: this never recovers. */
      r->quality = SL_QUALITY_FAIL;
      r->reason = "only implausible clock rates separate the packets "
                  "(wrong clock frequency or mismatched packets)";
    }
  else if (!self->has_lmax || !self->has_lmin)
    {
      r->quality = SL_QUALITY_APPROXIMATE;
      r->reason = "a bounding line is missing (too few packets on one side of the other's)";
    }
  else if (r->alpha_min <= 0 || r->alpha_min < lo_slope || r->alpha_max > hi_slope)
    {
      r->quality = SL_QUALITY_APPROXIMATE;
      r->reason = "bounds still allow implausible clock rates";
    }
  else
    r->quality = SL_QUALITY_ACCURATE;

  if (self->has_lmax && self->has_lmin)
    {
      double s1 = r->alpha_min, s2 = r->alpha_max;
      double n1 = sqrt (1 + s1 * s1), n2 = sqrt (1 + s2 * s2);
      double w1 = n2 / (n1 + n2), w2 = n1 / (n1 + n2);

      /* The angle bisector of Lmin and Lmax [Jabbarifar §3.6.2] is the
       * weighted mean of the two lines; unlike the mean of slopes used by
       * Trace Compass it does not depend on which host is the reference. */
      for (int k = 0; k < 2; k++)
        {
          double x = (double) (k == 0 ? self->xmin : self->xmax);
          double vmin = line_at (self->lmin_u, self->lmin_d, x);
          double vmax = line_at (self->lmax_d, self->lmax_u, x);
          double est = w1 * vmin + w2 * vmax;

          r->band_ns = k == 0 ? fabs (vmax - vmin) : MAX (r->band_ns, fabs (vmax - vmin));
          r->bound_ns = k == 0 ? MAX (fabs (vmax - est), fabs (vmin - est))
                               : MAX (r->bound_ns, MAX (fabs (vmax - est), fabs (vmin - est)));
        }

      /* A failed link still shows what its packets say. */
      if (r->quality != SL_QUALITY_APPROXIMATE)
        {
          double xm = (double) (self->xmin + (self->xmax - self->xmin) / 2);
          double v = w1 * line_at (self->lmin_u, self->lmin_d, xm) +
                     w2 * line_at (self->lmax_d, self->lmax_u, xm);
          double drift = w1 * drift_of (self->lmin_u, self->lmin_d) +
                         w2 * drift_of (self->lmax_d, self->lmax_u);
          double slope = 1.0 + drift;

          set_estimate (self, r, slope, drift, v - slope * xm);
          return;
        }
    }

  /* Best effort: the plausible feasible slope nearest the bisector (or
   * to 1 when a line is missing), centred in the band at that slope. */
  {
    double want = self->has_lmax && self->has_lmin
                    ? tan ((atan (r->alpha_min) + atan (r->alpha_max)) / 2) : 1.0;
    double lo = self->has_lmin ? MAX (r->alpha_min, lo_slope) : lo_slope;
    double hi = self->has_lmax ? MIN (r->alpha_max, hi_slope) : hi_slope;
    double s = CLAMP (want, MIN (lo, hi), MAX (lo, hi));

    set_estimate (self, r, s, s - 1.0, mid_intercept (self, s));
  }
}

void
sl_hull_get_result (const SlHull *self,
                    SlHullResult *result)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (result != NULL);

  compute_result (self, result);
}

SlQuality
sl_hull_get_quality (const SlHull *self)
{
  SlHullResult r;

  g_return_val_if_fail (self != NULL, SL_QUALITY_ABSENT);

  compute_result (self, &r);
  return r.quality;
}

/* The feasible band at x (relative coordinates). For a slope s in
 * [alpha_min, alpha_max] the highest separating line is
 * min over above points u of u.y + s (x - u.x); maximizing over s a concave
 * function gives Lmin left of Lmin's upper pivot, Lmax right of Lmax's upper
 * pivot and the lower hull of the above points in between (mirrored for the
 * lowest line). Needs both lines. */
static double
chain_at (const SlChain *c,
          double       x)
{
  gsize lo = 0, hi = c->len - 1;

  if (c->len == 1)
    return (double) c->pts[0].y;
  while (hi - lo > 1)
    {
      gsize mid = (lo + hi) / 2;

      if ((double) c->pts[mid].x <= x)
        lo = mid;
      else
        hi = mid;
    }
  return line_at (c->pts[lo], c->pts[hi], x);
}

static double
band_hi (const SlHull *self,
         double        x)
{
  if (x <= (double) self->lmin_u.x)
    return line_at (self->lmin_u, self->lmin_d, x);
  if (x >= (double) self->lmax_u.x)
    return line_at (self->lmax_d, self->lmax_u, x);
  return chain_at (&self->chain[ABOVE], x);
}

static double
band_lo (const SlHull *self,
         double        x)
{
  if (x <= (double) self->lmax_d.x)
    return line_at (self->lmax_d, self->lmax_u, x);
  if (x >= (double) self->lmin_d.x)
    return line_at (self->lmin_u, self->lmin_d, x);
  return chain_at (&self->chain[BELOW], x);
}

/**
 * sl_hull_get_band:
 * @t_a: an instant on a's clock
 * @lo: (out): lowest t_b − t_a any separating line gives at @t_a
 * @hi: (out): highest
 *
 * Returns: %FALSE when a bounding line is missing (the band is unbounded)
 */
gboolean
sl_hull_get_band (const SlHull *self,
                  gint64        t_a,
                  double       *lo,
                  double       *hi)
{
  double x;

  g_return_val_if_fail (self != NULL, FALSE);

  if (!self->has_lmin || !self->has_lmax || self->crossed)
    return FALSE;
  x = (double) (t_a - self->x0);
  *lo = (double) (self->y0 - self->x0) + (band_lo (self, x) - x);
  *hi = (double) (self->y0 - self->x0) + (band_hi (self, x) - x);
  return TRUE;
}

static void
add_bound_x (GArray *xs,
             gint64  x)
{
  g_array_append_val (xs, x);
}

/* Far enough that no trace reaches it, near enough not to overflow with
 * epoch-scale origins. */
#define FAR_NS (G_GINT64_CONSTANT (1) << 60)

/**
 * sl_hull_get_relation:
 *
 * The estimate as a relation a → b with its guaranteed bound at every
 * instant: the largest distance from the estimate to the feasible band
 * (exact: linear between the hull vertices that shape the band, growing
 * linearly outside the packets). Unbounded unless the link is accurate.
 *
 * Returns: (transfer full) (nullable): %NULL without an estimate
 */
SlRelation *
sl_hull_get_relation (const SlHull *self)
{
  SlHullResult r;
  g_autoptr(GArray) xs = NULL;
  SlBoundPoint *b;
  gint64 start = G_MININT64;
  SlRelation *rel;
  guint n = 0;

  g_return_val_if_fail (self != NULL, NULL);

  compute_result (self, &r);
  if (!r.has_estimate)
    return NULL;
  if (r.quality != SL_QUALITY_ACCURATE)
    {
      SlBoundPoint inf = { r.estimate.origin, INFINITY };
      return sl_relation_new (&start, &r.estimate, 1, &inf, 1, TRUE);
    }

  xs = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (int side = 0; side < 2; side++)
    {
      const SlChain *c = &self->chain[side];
      gint64 from = side == ABOVE ? self->lmin_u.x : self->lmax_d.x;
      gint64 to = side == ABOVE ? self->lmax_u.x : self->lmin_d.x;

      for (gsize i = 0; i < c->len; i++)
        if (c->pts[i].x >= from && c->pts[i].x <= to)
          add_bound_x (xs, c->pts[i].x);
    }
  add_bound_x (xs, self->lmin_u.x);
  add_bound_x (xs, self->lmin_d.x);
  add_bound_x (xs, self->lmax_u.x);
  add_bound_x (xs, self->lmax_d.x);
  add_bound_x (xs, self->xmin);
  add_bound_x (xs, self->xmax);
  /* outside the pivots the band is linear: its ends are exact */
  add_bound_x (xs, MAX (self->xmin - FAR_NS, G_MININT64 / 2 - self->x0));
  add_bound_x (xs, MIN (self->xmax + FAR_NS, G_MAXINT64 / 2 - self->x0));
  g_array_sort (xs, sl_compare_gint64);

  /* Between these points both edges are linear, so the bound is the larger
   * of two linear functions: exact once the points where they cross are
   * added. */
  b = g_new (SlBoundPoint, 2 * xs->len);
  {
    double prev_d = 0;
    gint64 prev_x = 0;

    for (guint i = 0; i < xs->len; i++)
      {
        gint64 x = g_array_index (xs, gint64, i);
        gint64 whole;
        double frac, e, up, down;

        if (n > 0 && b[n - 1].x == self->x0 + x)
          continue;
        sl_transform_apply_split (&r.estimate, self->x0 + x, &whole, &frac);
        e = (double) (whole - self->y0) + frac;
        up = band_hi (self, (double) x) - e;
        down = e - band_lo (self, (double) x);
        if (n > 0 && (prev_d < 0) != (up - down < 0) && prev_d != 0 && up != down)
          {
            gint64 xc = prev_x + (gint64) ((double) (x - prev_x) * (prev_d / (prev_d - (up - down))));

            if (xc > prev_x && xc < x)
              {
                gint64 wc;
                double fc, ec;

                sl_transform_apply_split (&r.estimate, self->x0 + xc, &wc, &fc);
                ec = (double) (wc - self->y0) + fc;
                b[n].x = self->x0 + xc;
                b[n].bound = MAX (band_hi (self, (double) xc) - ec, ec - band_lo (self, (double) xc));
                n++;
              }
          }
        b[n].x = self->x0 + x;
        b[n].bound = MAX (up, down);
        n++;
        prev_d = up - down;
        prev_x = x;
      }
  }
  rel = sl_relation_new (&start, &r.estimate, 1, b, n, FALSE);
  g_free (b);
  return rel;
}

/* Returns the hull vertices of one direction in absolute time (t_a, t_b). */
GArray *
sl_hull_get_hull (const SlHull *self,
                  gboolean      a_to_b)
{
  const SlChain *c;
  GArray *ret;

  g_return_val_if_fail (self != NULL, NULL);

  c = &self->chain[a_to_b ? ABOVE : BELOW];
  ret = g_array_sized_new (FALSE, FALSE, sizeof (SlPoint), c->len);
  for (gsize i = 0; i < c->len; i++)
    {
      SlPoint p = { self->x0 + c->pts[i].x, self->y0 + c->pts[i].y };
      g_array_append_val (ret, p);
    }
  return ret;
}

/* No check: the engine asks after every match. */
guint64
sl_hull_get_version (const SlHull *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->version;
}
