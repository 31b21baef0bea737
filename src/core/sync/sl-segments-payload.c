/* sl-segments-payload.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sl-segments-private.h"

/*
 * The payload correction of the estimate (never of the band).
 *
 * A packet's delay grows with its size (serialization: 8 ns a byte at
 * 1 Gb/s, more on slower hops), and the two directions of a link seldom
 * carry the same sizes: a client's pure ACKs are empty, a server's
 * fastest packets carry a response. The band's middle assumes that the
 * fastest packets of both directions are equally fast, so it sits half
 * the difference of their sizes' delays off the truth: a bias of each
 * link, the same all along the trace, which adds up along a path.
 *
 * The packets whose payload length is known, in slices of at most
 * SLICE_PACKETS packets and SLICE_NS (a line to well under a µs with
 * any plausible wander), give one offset each:
 *  - the slice's own band (plain hulls, no relaxation) gives a reference
 *    line, its bisector;
 *  - each direction's residual r, the packet's distance from the reference
 *    (its delay, up to the reference's unknown error), against its payload
 *    L: r ≥ a + c·L, with a the slice's own (the reference's error) and c
 *    the link's ns a byte in that direction. c is the one that maximises
 *    the sum over the slices of min(r − c·L) + c·mean(L) (one-sided noise:
 *    the linear-programming estimator of a lower envelope, pooled over
 *    the slices, so that a size seen in few packets of one slice does not
 *    bias it as a slice's own envelope would), kept on a grid of c;
 *    a direction whose sizes never vary takes the other's c (the same
 *    wire both ways), none takes 0;
 *  - the smallest r − c·L of each direction is the delay of an empty
 *    packet, plus the reference's error in the one and minus it in the
 *    other. With empty packets as fast one way as the other (the band's
 *    middle assumes it of the fastest packets; here it is assumed of equal
 *    sizes), half the difference is the reference's error: the slice's
 *    offset at its middle.
 * The offsets join the window that holds them, like round trips (Window's
 * pl sums); window_payload_shift() is their mean distance from the
 * window's band middle, and the estimate aims at the band's middle moved
 * by those shifts pooled over the run of windows (sl-segments-relation.c),
 * kept within the inner half of the band. The band, the bound's
 * guarantee, is the hulls' alone. Without lengths none of this runs and
 * the estimate is the band middle's, bit for bit.
 *
 * Measured on generated clusters whose latency is base + 8 ns a byte +
 * jitter (README, Goals on generated clusters): tests/test-segments
 * /segments/payload checks that the correction makes the error smaller.
 */

#define SLICE_PACKETS 128
#define SLICE_NS      G_GINT64_CONSTANT (5000000000)
#define MIN_SIDE      4
/* payload range (bytes) that a slice's slope needs */
#define MIN_SPREAD    64
#define GRID_FINE     48
#define GRID          97

typedef struct
{
  SlPoint p;
  guint32 side;
  guint32 length;
} Sized;

struct _Payload
{
  Sized   pkt[SLICE_PACKETS];
  guint   n;
  guint   n_side[2];
  gint64  min_x;
  gint64  max_x;
  /* per direction: the slices' envelopes summed at each grid c */
  double  f[2][GRID];
  guint64 n_spread[2];
};

void
payload_free (Payload *pl)
{
  g_free (pl);
}

gsize
payload_memory (const Payload *pl)
{
  return pl != NULL ? sizeof *pl : 0;
}

static int
cmp_sized_x (const void *a,
             const void *b)
{
  const Sized *p = a, *q = b;

  return (p->p.x > q->p.x) - (p->p.x < q->p.x);
}

/* The grid of c (ns a byte) at which the pooled envelope is evaluated:
 * half-ns steps up to 24, then 8 % steps up to 1000. */
static double
grid_c (guint k)
{
  return k < GRID_FINE ? 0.5 * k : 0.5 * GRID_FINE * pow (1.08, k - GRID_FINE);
}

/* The c that maximises the pooled envelope (interpolated between grid
 * points); NAN before any slice whose sizes vary. */
static double
pooled_c (const Payload *pl,
          int            side)
{
  const double *f = pl->f[side];
  guint best = 0;

  if (pl->n_spread[side] == 0)
    return NAN;
  for (guint k = 1; k < GRID; k++)
    if (f[k] > f[best])
      best = k;
  if (best > 0 && best + 1 < GRID && best < GRID_FINE)
    {
      /* the vertex of the parabola through the three */
      double d = f[best - 1] - 2 * f[best] + f[best + 1];

      if (d < 0)
        return grid_c (best) + 0.5 * 0.5 * (f[best - 1] - f[best + 1]) / d;
    }
  return grid_c (best);
}

static double
side_c (const Payload *pl,
        int            side)
{
  double c = pooled_c (pl, side);

  if (isnan (c))
    c = pooled_c (pl, 1 - side);
  return isnan (c) ? 0 : c;
}

/* The slice's offset, into its window. */
static void
flush (SlSegments *self,
       Payload    *pl)
{
  guint n = pl->n;
  SlChain ch[2] = { { 0 } };
  Band b = { 0 };
  DPt *res[2];
  guint nr[2] = { 0, 0 }, neq;
  double xm, ym, slope, lowest[2] = { INFINITY, INFINITY };
  gboolean ok;

  pl->n = 0;
  if (pl->n_side[0] < MIN_SIDE || pl->n_side[1] < MIN_SIDE)
    return;

  qsort (pl->pkt, n, sizeof pl->pkt[0], cmp_sized_x);
  for (guint i = 0; i < n; i++)
    _sl_chain_add (&ch[pl->pkt[i].side], (int) pl->pkt[i].side, pl->pkt[i].p);
  band_compute (&b, &ch[0], &ch[1], pl->pkt[0].p.x, pl->pkt[n - 1].p.x, 0);
  chains_clear (ch);
  ok = band_ok (&b);
  if (ok)
    {
      xm = ((double) pl->pkt[0].p.x + (double) pl->pkt[n - 1].p.x) / 2;
      ym = band_bisector (&b, xm, &slope);
    }
  band_clear (&b);
  if (!ok)
    return;

  res[0] = g_new (DPt, n);
  res[1] = g_new (DPt, n);
  for (guint i = 0; i < n; i++)
    {
      const Sized *s = &pl->pkt[i];
      double r = (double) s->p.y - (ym + slope * ((double) s->p.x - xm));

      res[s->side][nr[s->side]++] = (DPt) { (double) s->length, s->side == ABOVE ? r : -r };
    }
  for (int side = 0; side < 2; side++)
    {
      double mean = 0, lmin = INFINITY, lmax = -INFINITY;

      for (guint i = 0; i < nr[side]; i++)
        {
          mean += res[side][i].x / nr[side];
          lmin = MIN (lmin, res[side][i].x);
          lmax = MAX (lmax, res[side][i].x);
        }
      if (lmax - lmin < MIN_SPREAD)
        continue;
      pl->n_spread[side]++;
      for (guint k = 0; k < GRID; k++)
        {
          double c = grid_c (k), m = INFINITY;

          for (guint i = 0; i < nr[side]; i++)
            m = MIN (m, res[side][i].y - c * res[side][i].x);
          pl->f[side][k] += m + c * mean;
        }
    }
  /* as many packets of each direction, spread over the slice: the least
   * of more packets' jitter is smaller, which would pull the offset
   * towards the busier direction */
  neq = MIN (nr[0], nr[1]);
  for (int side = 0; side < 2; side++)
    {
      double c = side_c (pl, side);

      for (guint j = 0; j < neq; j++)
        {
          guint i = (guint) ((guint64) j * nr[side] / neq);

          lowest[side] = MIN (lowest[side], res[side][i].y - c * res[side][i].x);
        }
    }
  g_free (res[0]);
  g_free (res[1]);

  /* ABOVE: r − cL = (f − ref) + d0; BELOW: (ref − f) + d0 */
  window_payload_add (self, xm, ym + (lowest[ABOVE] - lowest[BELOW]) / 2 - xm);
}

/* A packet with its payload length (relative coordinates, as the
 * windows'). */
void
payload_add (SlSegments *self,
             int         side,
             SlPoint     p,
             guint       length)
{
  Payload *pl = self->payload;

  if (pl == NULL)
    pl = self->payload = g_new0 (Payload, 1);
  if (pl->n > 0 && (pl->n == SLICE_PACKETS || p.x - pl->min_x >= SLICE_NS || pl->max_x - p.x >= SLICE_NS))
    flush (self, pl);
  if (pl->n == 0)
    {
      pl->n_side[0] = pl->n_side[1] = 0;
      pl->min_x = pl->max_x = p.x;
    }
  pl->pkt[pl->n++] = (Sized) { p, (guint32) side, length };
  pl->n_side[side]++;
  pl->min_x = MIN (pl->min_x, p.x);
  pl->max_x = MAX (pl->max_x, p.x);
}

/* How far the window's payload-corrected offsets lie from its band's
 * middle, on average (0 without any). */
double
window_payload_shift (const Window *w)
{
  const Band *b = &w->band;
  double x, y;

  if (w->pl.n == 0 || !band_ok (b))
    return 0;
  x = w->pl.x / (double) w->pl.n;
  y = x + w->pl.d / (double) w->pl.n;
  return y - (band_lo (b, x) + band_hi (b, x)) / 2;
}

/* The link's fitted ns a byte of each direction (ABOVE: a → b), 0
 * without sizes: what linreg's round trips are corrected by
 * (moments_fit_sized()). */
void
payload_slopes (const SlSegments *self,
                double            c[2])
{
  for (int side = 0; side < 2; side++)
    c[side] = self->payload != NULL ? side_c (self->payload, side) : 0;
}
