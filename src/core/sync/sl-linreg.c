/* sl-linreg.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-linreg.h"

/*
 * Times are kept relative to the link's first packet: a's clock to its t_a,
 * b's clock to its t_b. Every quantity of a round trip is a difference of
 * two times on one host or a difference of a-b offsets, so it stays exact in
 * 64 bits, and D is relative to the first packet's one-way offset.
 *
 * Round trips: a packet can answer the latest unanswered packet of the other
 * direction that reached its sender before it left (the packet is a reply),
 * and be answered by the first packet of the other direction sent after it
 * arrived (the packet is a request). Each packet plays each role at most
 * once, so a ping-pong exchange p1 q1 p2 q2 gives (p1,q1) (q1,p2) (p2,q2):
 * twice the points of disjoint pairs, and LTTV's four-packet cases get two
 * round trips instead of one. Neighbouring points share one latency, which
 * makes the reported standard errors somewhat optimistic.
 *
 * Such chains have long turnarounds, over which b's clock gains X·(T3-T2)
 * on a's: 250 µs for 500 ppm over a second, far more than the latency. So
 * E is taken in a's units, dividing the interval measured on b's clock by
 * the fitted slope 1 + X. D needs no correction: the drift terms of its two
 * one-way offsets cancel at the midpoint.
 */

#define PENDING_PER_DIR 64

enum
{
  DIR_AB = 0,
  DIR_BA = 1,
};

enum
{
  USED_REQUEST = 1 << 0,
  USED_REPLY   = 1 << 1,
  USED_ALL     = USED_REQUEST | USED_REPLY,
};

typedef struct
{
  gint64  a;
  gint64  b;
  guint64 serial;
  guint   used;
  guint   length;
} Packet;

/* T relative to origin_a, D relative to origin_b - origin_a, all in ns;
 * the halves make them exact in a double for spans up to 52 days. @e is
 * E before the drift correction, which adds @s·X / (2 (1 + X)). */
typedef struct
{
  double t;
  double d;
  double e;
  double s;
} RoundTrip;

typedef struct
{
  guint       n;
  long double mean_t;
  long double mean_d;
  long double c_tt;
  long double c_td;
  long double ssr;
  long double sum_e;
  long double sum_s;
  double      t_min;
  double      t_max;
} Moments;

struct _SlLinreg
{
  double          z;
  gboolean        have_origin;
  gint64          origin_a;
  gint64          origin_b;
  gboolean        have_dir[2];
  gint64          last[2][2];
  Packet          pending[2][PENDING_PER_DIR];
  SlRoundTrip    *out;
  guint           n_out;
  guint64         serial;
  guint           n_round_trips;

  /* Without rejection: running (Welford) moments. */
  long double     mean_t;
  long double     mean_d;
  long double     c_tt;
  long double     c_td;
  long double     c_dd;
  long double     sum_e;
  long double     sum_s;
  double          t_min;
  double          t_max;

  /* With rejection: every round trip, since the cut depends on them all. */
  GArray         *round_trips;

  gboolean        dirty;
  SlLinregResult  cached;
};

static inline gint64
packet_send (const Packet *p,
             guint         dir)
{
  return dir == DIR_AB ? p->a : p->b;
}

static inline gint64
packet_recv (const Packet *p,
             guint         dir)
{
  return dir == DIR_AB ? p->b : p->a;
}

/* Table 2 of [Clément & Dagenais] gives mean + z·sd with the two-sided z of
 * the confidence level (1.64, 1.96, 2.58). Only the upper bound is applied:
 * a two-sided cut would also drop the lowest-delay round trips, which are
 * the most accurate ones. */
double
sl_linreg_confidence_to_z (double confidence)
{
  double lo = 0.0;
  double hi = 40.0;

  if (confidence <= 0.0 || confidence >= 1.0)
    return 0.0;

  for (guint i = 0; i < 100; i++)
    {
      double mid = (lo + hi) / 2.0;

      if (erfc (mid / G_SQRT2) > 1.0 - confidence)
        lo = mid;
      else
        hi = mid;
    }

  return (lo + hi) / 2.0;
}

static void
sl_linreg_add_round_trip (SlLinreg     *self,
                          const Packet *request,
                          guint         request_dir,
                          const Packet *reply)
{
  guint reply_dir = request_dir ^ 1;
  gint64 t1 = packet_send (request, request_dir);
  gint64 t2 = packet_recv (request, request_dir);
  gint64 t3 = packet_send (reply, reply_dir);
  gint64 t4 = packet_recv (reply, reply_dir);
  gint64 d2;
  gint64 t2x;
  RoundTrip rt;

  /* D = t_b - t_a at a time on a's clock, whoever started the exchange. */
  if (request_dir == DIR_AB)
    {
      d2 = (t2 - t1) + (t3 - t4);
      t2x = t1 + t4;
    }
  else
    {
      d2 = (t1 - t2) + (t4 - t3);
      t2x = t2 + t3;
    }

  rt.t = t2x / 2.0;
  rt.d = d2 / 2.0;
  rt.e = ((t4 - t1) - (t3 - t2)) / 2.0;
  rt.s = request_dir == DIR_AB ? (double) (t3 - t2) : (double) -(t4 - t1);

  self->n_round_trips++;

  if (self->out != NULL && self->n_out < 2)
    {
      SlRoundTrip *o = &self->out[self->n_out++];
      double whole = floor (rt.t);

      o->t_a = self->origin_a + (gint64) whole;
      o->t_b = self->origin_b + (gint64) floor (rt.t + rt.d);
      /* E before the rates' correction, plus the most the turnaround can
       * add at 100 ppm */
      o->e_ns = rt.e + fabs (rt.s) * 5e-5;
      o->len_ab = request_dir == DIR_AB ? request->length : reply->length;
      o->len_ba = request_dir == DIR_AB ? reply->length : request->length;
    }

  if (self->round_trips != NULL)
    {
      g_array_append_val (self->round_trips, rt);
    }
  else
    {
      long double n = self->n_round_trips;
      long double dt = rt.t - self->mean_t;
      long double dd = rt.d - self->mean_d;

      self->mean_t += dt / n;
      self->mean_d += dd / n;
      self->c_tt += dt * (rt.t - self->mean_t);
      self->c_td += dt * (rt.d - self->mean_d);
      self->c_dd += dd * (rt.d - self->mean_d);
      self->sum_e += rt.e;
      self->sum_s += rt.s;
      self->t_min = self->n_round_trips == 1 ? rt.t : MIN (self->t_min, rt.t);
      self->t_max = self->n_round_trips == 1 ? rt.t : MAX (self->t_max, rt.t);
    }
}

/* The buffered packet of direction @other that pairs with @x in the given
 * role with the smallest turnaround T3 - T2, or -1. */
static int
sl_linreg_find_partner (SlLinreg     *self,
                        const Packet *x,
                        guint         x_dir,
                        gboolean      x_is_reply,
                        int           exclude)
{
  guint other = x_dir ^ 1;
  guint busy = x_is_reply ? USED_REQUEST : USED_REPLY;
  gint64 best_turn = G_MAXINT64;
  int best = -1;

  for (int i = 0; i < PENDING_PER_DIR; i++)
    {
      const Packet *y = &self->pending[other][i];
      const Packet *req;
      const Packet *rep;
      guint req_dir;
      gint64 turn;

      if ((y->used & busy) || i == exclude)
        continue;

      req = x_is_reply ? y : x;
      rep = x_is_reply ? x : y;
      req_dir = x_is_reply ? other : x_dir;

      if (packet_send (rep, req_dir ^ 1) < packet_recv (req, req_dir) ||
          packet_recv (rep, req_dir ^ 1) < packet_send (req, req_dir))
        continue;

      turn = packet_send (rep, req_dir ^ 1) - packet_recv (req, req_dir);
      if (turn < best_turn)
        {
          best_turn = turn;
          best = i;
        }
    }

  return best;
}

static void
sl_linreg_keep (SlLinreg     *self,
                const Packet *x,
                guint         dir)
{
  Packet *slot = NULL;

  for (guint i = 0; i < PENDING_PER_DIR; i++)
    {
      Packet *p = &self->pending[dir][i];

      if (p->used == USED_ALL)
        {
          slot = p;
          break;
        }

      if (slot == NULL || p->serial < slot->serial)
        slot = p;
    }

  *slot = *x;
}

static inline long double
drift_correction (long double slope)
{
  return 1 + slope > 0 ? slope / (2 * (1 + slope)) : 0;
}

static void
moments_from_running (const SlLinreg *self,
                      Moments        *m)
{
  m->n = self->n_round_trips;
  m->mean_t = self->mean_t;
  m->mean_d = self->mean_d;
  m->c_tt = self->c_tt;
  m->c_td = self->c_td;
  m->ssr = self->c_tt > 0 ? self->c_dd - self->c_td * self->c_td / self->c_tt : 0;
  m->sum_e = self->sum_e;
  m->sum_s = self->sum_s;
  m->t_min = self->t_min;
  m->t_max = self->t_max;
}

/* Two-pass fit of the round trips whose corrected E is at most @cut. */
static void
moments_from_array (const RoundTrip *rts,
                    guint            len,
                    long double      correction,
                    long double      cut,
                    Moments         *m)
{
  long double slope = 0;

  memset (m, 0, sizeof *m);

  for (guint i = 0; i < len; i++)
    {
      if (rts[i].e + rts[i].s * correction > cut)
        continue;

      m->t_min = m->n == 0 ? rts[i].t : MIN (m->t_min, rts[i].t);
      m->t_max = m->n == 0 ? rts[i].t : MAX (m->t_max, rts[i].t);
      m->n++;
      m->mean_t += rts[i].t;
      m->mean_d += rts[i].d;
      m->sum_e += rts[i].e;
      m->sum_s += rts[i].s;
    }

  if (m->n == 0)
    return;

  m->mean_t /= m->n;
  m->mean_d /= m->n;

  for (guint i = 0; i < len; i++)
    {
      long double dt = rts[i].t - m->mean_t;

      if (rts[i].e + rts[i].s * correction > cut)
        continue;

      m->c_tt += dt * dt;
      m->c_td += dt * (rts[i].d - m->mean_d);
    }

  if (m->c_tt > 0)
    slope = m->c_td / m->c_tt;

  for (guint i = 0; i < len; i++)
    {
      long double r;

      if (rts[i].e + rts[i].s * correction > cut)
        continue;

      r = rts[i].d - m->mean_d - slope * (rts[i].t - m->mean_t);
      m->ssr += r * r;
    }
}

/* The cut needs E in a's units, hence the slope of a first fit of all. */
static void
moments_from_stored (const SlLinreg *self,
                     Moments        *m)
{
  const RoundTrip *rts = (const RoundTrip *) (gpointer) self->round_trips->data;
  guint len = self->round_trips->len;
  long double correction;
  long double mean_e = 0;
  long double var_e = 0;

  moments_from_array (rts, len, 0, INFINITY, m);
  if (len < 2 || m->c_tt <= 0)
    return;

  correction = drift_correction (m->c_td / m->c_tt);

  for (guint i = 0; i < len; i++)
    mean_e += rts[i].e + rts[i].s * correction;
  mean_e /= len;

  for (guint i = 0; i < len; i++)
    {
      long double dev = rts[i].e + rts[i].s * correction - mean_e;

      var_e += dev * dev;
    }

  if (var_e > 0)
    moments_from_array (rts, len, correction,
                        mean_e + self->z * sqrtl (var_e / (len - 1)), m);
}

static void
sl_linreg_compute (SlLinreg       *self,
                   SlLinregResult *result)
{
  long double slope = 0;
  long double intercept;
  long double whole;
  Moments m;

  memset (result, 0, sizeof *result);
  result->n_round_trips = self->n_round_trips;
  result->have_a_to_b = self->have_dir[DIR_AB];
  result->have_b_to_a = self->have_dir[DIR_BA];
  result->e_r_ns = NAN;
  result->se_slope = NAN;
  result->se_offset_ns = NAN;
  result->mean_error_margin_ns = NAN;
  sl_transform_init_identity (&result->fit);

  if (self->round_trips != NULL)
    moments_from_stored (self, &m);
  else
    moments_from_running (self, &m);

  result->n_used = m.n;
  if (m.n == 0)
    return;

  result->valid = m.n >= 2 && m.c_tt > 0;

  if (result->valid)
    slope = m.c_td / m.c_tt;

  result->mean_error_margin_ns = (double) ((m.sum_e + m.sum_s * drift_correction (slope)) / m.n);

  if (result->valid && m.n >= 3)
    {
      long double e_r = sqrtl (fmaxl (m.ssr, 0) / (m.n - 2));
      long double from_mean = ((long double) m.t_min + m.t_max) / 2 - m.mean_t;

      result->e_r_ns = (double) e_r;
      result->se_slope = (double) (e_r / sqrtl (m.c_tt));
      result->se_offset_ns = (double) (e_r * sqrtl (1.0L / m.n + from_mean * from_mean / m.c_tt));
    }

  /* t_b = t_a + D(t_a), anchored at the first packet's t_a; without a valid
   * fit this is the mean offset, as a best effort. */
  intercept = m.mean_d - slope * m.mean_t;
  whole = floorl (intercept);
  if (!isfinite (whole) || fabsl (whole) > 0x1p62L)
    {
      /* absurd data: an offset beyond 64 bits is no fit */
      result->valid = FALSE;
      return;
    }
  sl_transform_init (&result->fit,
                     self->origin_a,
                     self->origin_b + (gint64) whole,
                     (double) (intercept - whole),
                     (double) slope);
}

SlLinreg *
sl_linreg_new (double confidence)
{
  SlLinreg *self;

  g_return_val_if_fail (confidence >= 0.0 && confidence <= 1.0, NULL);

  self = g_new0 (SlLinreg, 1);
  self->z = sl_linreg_confidence_to_z (confidence);
  self->dirty = TRUE;

  for (guint d = 0; d < 2; d++)
    for (guint i = 0; i < PENDING_PER_DIR; i++)
      self->pending[d][i].used = USED_ALL;

  if (self->z > 0)
    self->round_trips = g_array_new (FALSE, FALSE, sizeof (RoundTrip));

  return self;
}

void
sl_linreg_free (SlLinreg *self)
{
  if (self == NULL)
    return;

  if (self->round_trips != NULL)
    g_array_unref (self->round_trips);

  g_free (self);
}

gboolean
sl_linreg_add (SlLinreg *self,
               gboolean  a_to_b,
               gint64    t_a,
               gint64    t_b)
{
  return sl_linreg_add_full (self, a_to_b, t_a, t_b, 0, NULL, NULL);
}

/**
 * sl_linreg_add_full:
 * @length: the packet's payload bytes (0 when unknown), passed on to the
 *   round trips it forms
 * @out: (out) (optional): the round trips the packet formed (at most two)
 * @n_out: (out) (optional): their number
 *
 * A packet identical to the previous one of its direction (a duplicated
 * match) is left out.
 *
 * Returns: %TRUE when the packet formed a round trip
 */
gboolean
sl_linreg_add_full (SlLinreg    *self,
                    gboolean     a_to_b,
                    gint64       t_a,
                    gint64       t_b,
                    guint        length,
                    SlRoundTrip  out[2],
                    guint       *n_out)
{
  guint dir = a_to_b ? DIR_AB : DIR_BA;
  guint other = dir ^ 1;
  gboolean formed = FALSE;
  Packet x;
  int i;

  g_return_val_if_fail (self != NULL, FALSE);

  if (n_out != NULL)
    *n_out = 0;
  if (self->have_dir[dir] && self->last[dir][0] == t_a && self->last[dir][1] == t_b)
    return FALSE;
  self->last[dir][0] = t_a;
  self->last[dir][1] = t_b;
  self->out = out;
  self->n_out = 0;

  if (!self->have_origin)
    {
      self->have_origin = TRUE;
      self->origin_a = t_a;
      self->origin_b = t_b;
    }

  self->have_dir[dir] = TRUE;
  self->dirty = TRUE;

  x.a = t_a - self->origin_a;
  x.b = t_b - self->origin_b;
  x.serial = ++self->serial;
  x.used = 0;
  x.length = length;

  i = sl_linreg_find_partner (self, &x, dir, TRUE, -1);
  if (i >= 0)
    {
      Packet *request = &self->pending[other][i];

      sl_linreg_add_round_trip (self, request, other, &x);
      request->used |= USED_REQUEST;
      x.used |= USED_REPLY;
      formed = TRUE;
    }

  i = sl_linreg_find_partner (self, &x, dir, FALSE, i);
  if (i >= 0)
    {
      Packet *reply = &self->pending[other][i];

      sl_linreg_add_round_trip (self, &x, dir, reply);
      reply->used |= USED_REPLY;
      x.used |= USED_REQUEST;
      formed = TRUE;
    }

  if (x.used != USED_ALL)
    sl_linreg_keep (self, &x, dir);

  if (n_out != NULL)
    *n_out = self->n_out;
  self->out = NULL;
  return formed;
}

void
sl_linreg_get (SlLinreg       *self,
               SlLinregResult *result)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (result != NULL);

  if (self->dirty)
    {
      sl_linreg_compute (self, &self->cached);
      self->dirty = FALSE;
    }

  *result = self->cached;
}
