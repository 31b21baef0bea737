/* sl-rates.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-rates.h"

/*
 * The guaranteed interval of a link's clock rate f'(x) (REFERENCE §6a).
 * A window's relaxed hulls hold the chord c of f over its packets [u, v]
 * (|f − c| <= κ/2·|(x − u)(x − v)| when |f''| <= κ), so every line they
 * admit, the chord included, has a slope in [lo, hi]: the chord's slope s
 * is. And f'(x) − s = (1/W)∫_u^v (f'(x) − f'(τ)) dτ, so
 *   |f'(x) − s| <= κ·g(x),  g(x) = (1/W)∫_u^v |x − τ| dτ,
 * which is W/4 in the window's middle, W/2 at its ends and grows as the
 * distance to the middle outside it. With κ = 0 (linear clocks) the
 * interval is the hull's [alpha_min, alpha_max] everywhere.
 *
 * The κ term cannot be dropped or narrowed: the relaxation is 0 at u and
 * v, so it does not widen [lo, hi] where packets pin the window's ends.
 * Take f(x) = κ/2·(x − u)² (the rate changing steadily) and packets
 * without latency both ways at u, at v and between: the relaxed a→b
 * points f + κ/2·(x − u)(v − x) lie on the chord, the b→a ones below it,
 * and both touch it at u and v, so [lo, hi] = {s} = {κW/2} while
 * f'(u) = 0 = s − κ·g(u) and f'(v) = κW = s + κ·g(v); before u,
 * f'(x) = κ(x − u) = s − κ·g(x) exactly. /rates/curvature builds that
 * case: the truth leaves [lo, hi] by up to 0.92 of κ·g (|f''| is
 * κ/(1+max_drift)⁴ there), and the test fails with κ·g taken at 0.9.
 */

struct _SlRates
{
  guint         n;
  SlRateWindow *w;
};

SlRates *
sl_rates_new (const SlRateWindow *windows,
              guint               n)
{
  SlRates *self = g_new0 (SlRates, 1);

  g_return_val_if_fail (windows != NULL || n == 0, self);

  self->n = n;
  self->w = g_memdup2 (windows, n * sizeof (SlRateWindow));
  return self;
}

void
sl_rates_free (SlRates *self)
{
  if (self == NULL)
    return;
  g_free (self->w);
  g_free (self);
}

gboolean
sl_rates_equal (const SlRates *a,
                const SlRates *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return a->n == b->n && memcmp (a->w, b->w, a->n * sizeof (SlRateWindow)) == 0;
}

guint
sl_rates_get_n (const SlRates *self)
{
  return self != NULL ? self->n : 0;
}

const SlRateWindow *
sl_rates_get (const SlRates *self,
              guint          i)
{
  g_return_val_if_fail (self != NULL && i < self->n, NULL);
  return &self->w[i];
}

/* (1/W)∫_u^v |x − τ| dτ, x relative to u */
static double
spread (double x,
        double w)
{
  if (w <= 0)
    return fabs (x);
  if (x <= 0)
    return w / 2 - x;
  if (x >= w)
    return x - w / 2;
  return (x * x + (w - x) * (w - x)) / (2 * w);
}

/**
 * sl_rate_window_at:
 * @x: an instant on the source clock
 * @slack: how far the true instant may be from @x (ns)
 * @lo, @hi: (out): the interval of f' at every instant within @x ± @slack
 *   that the window guarantees (a little wider: rounded outwards)
 */
void
sl_rate_window_at (const SlRateWindow *w,
                   gint64              x,
                   double              slack,
                   double             *lo,
                   double             *hi)
{
  double rx = (double) (x - w->u), width = (double) (w->v - w->u), g;

  /* g is convex: its largest value over x ± slack is at an end */
  g = MAX (spread (rx - slack, width), spread (rx + slack, width));
  *lo = w->lo - w->kappa * g;
  *hi = w->hi + w->kappa * g;
  /* the slopes' and this sum's rounding, far below what is shown */
  *lo -= 1e-13;
  *hi += 1e-13;
}

/* The last window whose @u is at most @x (-1: none). */
static int
window_before (const SlRates *self,
               gint64         x)
{
  int a = 0, b = (int) self->n;

  while (a < b)
    {
      int m = (a + b) / 2;

      if (self->w[m].u <= x)
        a = m + 1;
      else
        b = m;
    }
  return a - 1;
}

/* Two windows' intervals at x: both hold within a run (the narrower
 * intersection); across a step the truth follows one side or the other
 * (their union). */
static gboolean
combine (const SlRateWindow *a,
         const SlRateWindow *b,
         gint64              x,
         double              slack,
         double             *lo,
         double             *hi)
{
  double alo, ahi, blo, bhi;

  sl_rate_window_at (a, x, slack, &alo, &ahi);
  sl_rate_window_at (b, x, slack, &blo, &bhi);
  *lo = a->run == b->run ? MAX (alo, blo) : MIN (alo, blo);
  *hi = a->run == b->run ? MIN (ahi, bhi) : MAX (ahi, bhi);
  return *lo <= *hi;
}

/**
 * sl_rates_at:
 * @x: an instant on the source clock, known within ±@slack
 * @lo, @hi: (out): the interval the true rate f'(x) lies in: the window
 *   whose band holds at @x by itself, else the two around it (see
 *   combine()); before the first window the first, after the last the
 *   last
 *
 * Returns: %FALSE when no window bounds the rate there (none, or an
 *   infinite @slack)
 */
gboolean
sl_rates_at (const SlRates *self,
             gint64         x,
             double         slack,
             double        *lo,
             double        *hi)
{
  const SlRateWindow *a;
  int i;

  g_return_val_if_fail (lo != NULL && hi != NULL, FALSE);

  if (self == NULL || self->n == 0 || !(slack >= 0) || !isfinite (slack))
    return FALSE;
  i = window_before (self, x);
  if (i < 0)
    {
      sl_rate_window_at (&self->w[0], x, slack, lo, hi);
      return TRUE;
    }
  a = &self->w[i];
  /* exact differences: at ~1.7e18 ns a double's step is 256 ns */
  if ((double) (x - a->from) >= slack && (double) (a->to - x) >= slack)
    {
      sl_rate_window_at (a, x, slack, lo, hi);
      return TRUE;
    }
  /* before where a holds by itself: a step just before it */
  if ((double) (x - a->from) < slack && i > 0)
    return combine (&self->w[i - 1], a, x, slack, lo, hi);
  if (i + 1 < (int) self->n)
    return combine (a, &self->w[i + 1], x, slack, lo, hi);
  sl_rate_window_at (a, x, slack, lo, hi);
  return TRUE;
}
