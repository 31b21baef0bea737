/* test-segments.c: the windowed estimator of one link against clocks
 * whose rates wander, step, or stay constant
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-hull.h"
#include "sl-matcher.h"
#include "sl-segments.h"
#include "sl-sim.h"

#define SEC G_GINT64_CONSTANT (1000000000)

typedef struct
{
  SlSim      *sim;
  SlSegments *seg;
  SlHull     *hull;
  gint64      start;
  gint64      end;
  guint64     matched;
} Link;

/* Two hosts (a = 0, b = 1) on one link; every match goes to the segments
 * (and to a plain hull when asked). */
static void
link_run (Link                    *l,
          const SlSegmentsOptions *so,
          guint64                  seed,
          gint64                   duration,
          double                   rate,
          double                   wander_a,
          double                   wander_b,
          double                   period_s,
          gboolean                 with_hull)
{
  SlSimOptions o;
  SlMatcher *m = sl_matcher_new (10 * SEC, 1 << 16);
  SlPacketEvent ev;
  gint64 t;

  sl_sim_options_init (&o);
  o.seed = seed;
  o.duration_ns = duration;
  o.loss = 0.005;
  o.duplicate = 0.005;
  l->sim = sl_sim_new (&o);
  l->seg = sl_segments_new (so);
  l->hull = with_hull ? sl_hull_new (0) : NULL;
  l->start = o.start_ns;
  l->end = o.start_ns + duration;
  sl_sim_add_host (l->sim, "a", 12345678, 31e-6);
  sl_sim_add_host (l->sim, "b", -987654321012, -17e-6);
  if (wander_a > 0)
    sl_sim_set_host_wander (l->sim, 0, wander_a, period_s);
  if (wander_b > 0)
    sl_sim_set_host_wander (l->sim, 1, wander_b, period_s * 0.77);
  sl_sim_add_link (l->sim, 0, 1, rate);

  while (sl_sim_next (l->sim, &ev, &t))
    {
      SlMatch mm;

      if (!sl_matcher_push (m, &ev, t, &mm))
        continue;
      l->matched++;
      if (mm.send_host == 0)
        {
          sl_segments_add (l->seg, TRUE, mm.send_time, mm.recv_time);
          if (l->hull != NULL)
            sl_hull_add (l->hull, TRUE, mm.send_time, mm.recv_time);
        }
      else
        {
          sl_segments_add (l->seg, FALSE, mm.recv_time, mm.send_time);
          if (l->hull != NULL)
            sl_hull_add (l->hull, FALSE, mm.recv_time, mm.send_time);
        }
    }
  sl_matcher_free (m);
}

static void
link_clear (Link *l)
{
  sl_segments_free (l->seg);
  sl_hull_free (l->hull);
  sl_sim_free (l->sim);
}

/* The truth inside the band at n instants over [t0, t1] (true time),
 * returns the largest error / bound */
static double
check_truth (Link       *l,
             SlRelation *rel,
             gint64      t0,
             gint64      t1,
             guint       n,
             double     *worst_err)
{
  double ratio = 0;

  for (guint i = 0; i <= n; i++)
    {
      gint64 tt = t0 + (gint64) ((__int128) (t1 - t0) * i / n);
      gint64 x = sl_sim_local_time (l->sim, 0, tt);
      gint64 y = sl_sim_local_time (l->sim, 1, tt);
      double err = fabs ((double) (sl_relation_apply (rel, x) - y));
      double b = sl_relation_bound_at (rel, x);

      if (!(err <= b + 2))
        g_error ("at +%.3f s: error %.1f ns, bound %.1f ns", (double) (tt - l->start) / 1e9, err, b);
      ratio = MAX (ratio, err / MAX (b, 1));
      if (worst_err != NULL)
        *worst_err = MAX (*worst_err, err);
    }
  return ratio;
}

/* Linear clocks without the assumption (0): one window, the plain hull's
 * estimate and bounds. */
static void
test_linear_matches_hull (void)
{
  SlSegmentsOptions so;
  Link l = { 0 };
  g_autoptr(SlRelation) a = NULL, b = NULL;
  SlTransform ta, tb;
  SlHullResult r;

  sl_segments_options_init (&so);
  so.drift_change = 0;
  link_run (&l, &so, 3, 600 * SEC, 100, 0, 0, 600, TRUE);
  g_assert_cmpuint (sl_segments_get_n_windows (l.seg), ==, 1);
  a = sl_segments_get_relation (l.seg);
  b = sl_hull_get_relation (l.hull);
  g_assert_cmpuint (sl_relation_get_n_pieces (a), ==, 1);
  sl_relation_get_piece (a, 0, &ta);
  sl_relation_get_piece (b, 0, &tb);
  for (gint64 x = l.start - 100 * SEC; x < l.end + 100 * SEC; x += 7 * SEC)
    {
      g_assert_cmpint (llabs (sl_relation_apply (a, x) - sl_relation_apply (b, x)), <=, 1);
      g_assert_cmpfloat (fabs (sl_relation_bound_at (a, x) - sl_relation_bound_at (b, x)), <=,
                         1e-6 * sl_relation_bound_at (b, x) + 1);
    }
  sl_segments_get_result (l.seg, &r);
  g_assert_cmpint (r.quality, ==, SL_QUALITY_ACCURATE);
  g_assert_cmpuint (r.n_ab + r.n_ba, ==, l.matched);
  check_truth (&l, a, l.start, l.end, 2000, NULL);
  link_clear (&l);
}

/* Wandering clocks over an hour: the truth is inside the band at every
 * instant; a single line would be far off. */
static void
test_wander (void)
{
  static const struct
  {
    double wander_ppm;
    double period_s;
    gint64 duration;
  } cases[] = {
    { 0.5, 7200, 3600 * SEC },
    { 1.0, 1800, 3600 * SEC },
    { 5.0, 600, 1800 * SEC },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      SlSegmentsOptions so;
      Link l = { 0 };
      g_autoptr(SlRelation) rel = NULL;
      double worst = 0, ratio;
      SlHullResult r;

      sl_segments_options_init (&so);
      link_run (&l, &so, 10 + c, cases[c].duration, 50, cases[c].wander_ppm * 1e-6,
                cases[c].wander_ppm * 1e-6, cases[c].period_s, TRUE);
      rel = sl_segments_get_relation (l.seg);
      ratio = check_truth (&l, rel, l.start, l.end, 5000, &worst);
      sl_segments_get_result (l.seg, &r);
      g_test_message ("wander %.1f ppm / %.0f s over %.0f s: %u windows, %u pieces, %u bound points, "
                      "largest bound %.1f us, worst error %.2f us, error/bound %.3f, plain hull %s",
                      cases[c].wander_ppm, cases[c].period_s, cases[c].duration / 1e9,
                      sl_segments_get_n_windows (l.seg), sl_relation_get_n_pieces (rel),
                      sl_relation_get_n_bounds (rel),
                      sl_relation_max_bound (rel, sl_sim_local_time (l.sim, 0, l.start),
                                             sl_sim_local_time (l.sim, 0, l.end), NULL) / 1e3,
                      worst / 1e3, ratio, sl_quality_to_string (sl_hull_get_quality (l.hull)));
      g_assert_cmpint (r.quality, ==, SL_QUALITY_ACCURATE);
      g_assert_cmpuint (sl_segments_get_n_failures (l.seg), ==, 0);
      link_clear (&l);
    }
}

/* A linear clock over ten minutes with the default assumption: several
 * windows for the guarantee, but the estimate stays (nearly) one line. */
static void
test_linear_few_pieces (void)
{
  SlSegmentsOptions so;
  Link l = { 0 };
  g_autoptr(SlRelation) rel = NULL;

  sl_segments_options_init (&so);
  link_run (&l, &so, 5, 600 * SEC, 100, 0, 0, 600, FALSE);
  rel = sl_segments_get_relation (l.seg);
  check_truth (&l, rel, l.start, l.end, 2000, NULL);
  g_test_message ("%u windows, %u pieces", sl_segments_get_n_windows (l.seg), sl_relation_get_n_pieces (rel));
  g_assert_cmpuint (sl_relation_get_n_pieces (rel), <=, 4);
  link_clear (&l);
}

typedef struct
{
  gboolean ab;
  gint64   x;
  gint64   y;
} Pt;

static int
cmp_pt_x (gconstpointer a,
          gconstpointer b)
{
  gint64 x = ((const Pt *) a)->x, y = ((const Pt *) b)->x;

  return (x > y) - (x < y);
}

/* Each window's packets of each direction, counted again from the packets
 * (in a's time order, so none is late): the estimator counts most of them
 * on its short path and the rest on its general one. */
static void
test_window_counts (void)
{
  GRand *rand = g_rand_new_with_seed (14);
  GArray *pts = g_array_new (FALSE, FALSE, sizeof (Pt));
  const gint64 t0 = G_GINT64_CONSTANT (1700000000000000000);
  SlSegments *seg = sl_segments_new (NULL);
  guint64 sum = 0;
  guint nw;

  for (gint64 t = 0; t < 600 * SEC; t += 2000000)
    {
      gint64 lat = 40000 + (gint64) (-log1p (-g_rand_double (rand)) * 30000);
      gboolean ab = g_rand_boolean (rand);
      /* b: 3 ms ahead, 20 ppm fast, wandering by 2 ppm over 10 minutes */
      gint64 ts = t, tr = t + lat;
      gint64 ta = ab ? ts : tr, tb = ab ? tr : ts;
      double w = sin (G_PI * (double) tb / 600e9);
      Pt p = { ab, t0 + ta, t0 + tb + 3000000 + (gint64) ((double) tb * 20e-6 + 2e-6 * 600e9 / G_PI * w * w) };

      g_array_append_val (pts, p);
    }
  g_array_sort (pts, cmp_pt_x);
  for (guint i = 0; i < pts->len; i++)
    {
      const Pt *p = &g_array_index (pts, Pt, i);

      sl_segments_add (seg, p->ab, p->x, p->y);
    }

  nw = sl_segments_get_n_windows (seg);
  g_test_message ("%u windows", nw);
  g_assert_cmpuint (nw, >=, 3);
  g_assert_cmpuint (sl_segments_get_n_late (seg), ==, 0);
  for (guint k = 0; k < nw; k++)
    {
      SlWindowInfo info;
      guint64 n[2] = { 0, 0 };

      sl_segments_get_window (seg, k, &info);
      for (guint i = 0; i < pts->len; i++)
        {
          const Pt *p = &g_array_index (pts, Pt, i);

          if (p->x >= info.start && (p->x < info.end || k == nw - 1))
            n[p->ab ? 0 : 1]++;
        }
      g_assert_cmpuint (info.n_ab, ==, n[0]);
      g_assert_cmpuint (info.n_ba, ==, n[1]);
      sum += info.n_ab + info.n_ba;
    }
  g_assert_cmpuint (sum, ==, pts->len);

  sl_segments_free (seg);
  g_array_unref (pts);
  g_rand_free (rand);
}

/* Points straight from the simulated clocks (no matcher): a packet every
 * 1/rate s of true time, either way, 40 µs + exponential latency. An
 * optional bad match at true time bad_at (its receive 2 ms before its
 * send). */
static SlSegments *
feed_points (SlSim   *sim,
             gint64   start,
             gint64   duration,
             double   rate,
             gint64   bad_at,
             guint64  seed)
{
  SlSegmentsOptions so;
  SlSegments *seg;
  GRand *rand = g_rand_new_with_seed ((guint32) seed);
  gint64 step = (gint64) (1e9 / rate);

  sl_segments_options_init (&so);
  seg = sl_segments_new (&so);
  for (gint64 t = start; t < start + duration; t += step)
    {
      gint64 lat = 40000 + (gint64) (-log1p (-g_rand_double (rand)) * 30000);
      gboolean ab = g_rand_boolean (rand);

      if (bad_at != 0 && t >= bad_at && t < bad_at + step)
        {
          sl_segments_add (seg, TRUE, sl_sim_local_time (sim, 0, t), sl_sim_local_time (sim, 1, t) - 2000000);
          continue;
        }
      if (ab)
        sl_segments_add (seg, TRUE, sl_sim_local_time (sim, 0, t), sl_sim_local_time (sim, 1, t + lat));
      else
        sl_segments_add (seg, FALSE, sl_sim_local_time (sim, 0, t + lat), sl_sim_local_time (sim, 1, t));
    }
  g_rand_free (rand);
  return seg;
}

static void
check_truth_sim (SlSim      *sim,
                 SlRelation *rel,
                 gint64      t0,
                 gint64      t1,
                 guint       n)
{
  for (guint i = 0; i <= n; i++)
    {
      gint64 tt = t0 + (gint64) ((__int128) (t1 - t0) * i / n);
      gint64 x = sl_sim_local_time (sim, 0, tt);
      double err = fabs ((double) (sl_relation_apply (rel, x) - sl_sim_local_time (sim, 1, tt)));
      double b = sl_relation_bound_at (rel, x);

      if (!(err <= b + 2))
        g_error ("at +%.6f s: error %.1f ns, bound %.1f ns", (double) (tt - t0) / 1e9, err, b);
    }
}

/* Beyond the data the bound is the estimate's distance to the far edge of
 * the last (first) window's relaxed band: linear edges plus the
 * relaxation's parabola. The relation's few tail points are a guarantee
 * (never under that bound, at every instant tried, 1 µs to 36 years out
 * on either side of [lo, hi], the data's extent on a's clock) and close
 * to it from 1 ms out (within 3 % up to a day out, within 57 % beyond). */
static void
check_tails (SlSegments *seg,
             SlRelation *rel,
             gint64      lo,
             gint64      hi,
             const char *what)
{
  double worst_over[2] = { 0, 0 };
  guint tried = 0, n_tail = 0;

  for (int dir = -1; dir <= 1; dir += 2)
    {
      gint64 from = dir > 0 ? hi : lo;

      for (double d = 1e3; d < (double) (G_GINT64_CONSTANT (1) << 60); d *= 1.03)
        {
          gint64 x = from + dir * (gint64) d, whole;
          double frac, band_lo, band_hi, est, exact, b;

          g_assert_true (sl_segments_get_band (seg, x, &band_lo, &band_hi));
          sl_relation_apply_split (rel, x, &whole, &frac);
          est = (double) (whole - x) + frac;
          exact = MAX (est - band_lo, band_hi - est);
          b = sl_relation_bound_at (rel, x);
          if (!(b >= exact * (1 - 1e-9) - 1))
            g_error ("%s, %+.3g ns from the data: bound %.6g ns under the exact %.6g ns",
                     what, dir * d, b, exact);
          /* nearer, the window's own point at the data's end holds */
          if (d >= 1e6)
            worst_over[d > 86400e9] = MAX (worst_over[d > 86400e9], b / exact - 1);
          tried++;
        }
    }
  for (guint i = 0; i < sl_relation_get_n_bounds (rel); i++)
    {
      gint64 bx = sl_relation_get_bounds (rel)[i].x;

      n_tail += bx < lo || bx > hi;
    }
  g_test_message ("%s: %u tail instants, %u bound points (%u beyond the data); wider than exact by at most "
                  "%.2f %% up to a day out, %.1f %% beyond", what, tried, sl_relation_get_n_bounds (rel), n_tail,
                  100 * worst_over[0], 100 * worst_over[1]);
  g_assert_cmpfloat (worst_over[0], <=, 0.03 + 1e-6);
  g_assert_cmpfloat (worst_over[1], <=, 0.57);
}

/* A clock step, forward or back, on either host: reported once, as a step,
 * between the packets around it; the bound holds before, around and after
 * it. */
static void
test_steps (void)
{
  static const struct
  {
    guint  host;
    gint64 step;
  } cases[] = {
    { 1, 3000000 }, { 1, -3000000 }, { 0, 3000000 }, { 0, -3000000 }, { 1, 250000 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      SlSimOptions o;
      SlSim *sim;
      SlSegments *seg;
      g_autoptr(SlRelation) rel = NULL;
      SlFailureInfo f;
      gint64 at;
      SlHullResult r;

      sl_sim_options_init (&o);
      sim = sl_sim_new (&o);
      sl_sim_add_host (sim, "a", 1000, 20e-6);
      sl_sim_add_host (sim, "b", -5000000000, -30e-6);
      sl_sim_set_host_wander (sim, 0, 1e-6, 900);
      at = o.start_ns + 301 * SEC + 123456;
      sl_sim_set_host_step (sim, cases[c].host, at, cases[c].step);
      seg = feed_points (sim, o.start_ns, 600 * SEC, 100, 0, c);
      rel = sl_segments_get_relation (seg);
      sl_segments_get_result (seg, &r);

      g_assert_cmpint (r.quality, ==, SL_QUALITY_ACCURATE);
      g_assert_cmpuint (sl_segments_get_n_failures (seg), ==, 1);
      sl_segments_get_failure (seg, 0, &f);
      g_test_message ("step %+.3f ms on %s: reported between +%.6f and +%.6f s (true +%.6f s), %u pieces",
                      cases[c].step / 1e6, cases[c].host == 0 ? "a" : "b",
                      (double) (f.from - sl_sim_local_time (sim, 0, o.start_ns)) / 1e9,
                      (double) (f.to - sl_sim_local_time (sim, 0, o.start_ns)) / 1e9,
                      (double) (at - o.start_ns) / 1e9, sl_relation_get_n_pieces (rel));
      g_assert_cmpint (f.kind, ==, SL_FAILURE_STEP);
      /* between the packets around a's last reading before the step */
      g_assert_cmpint (f.from, <=, sl_sim_local_time (sim, 0, at - 1));
      g_assert_cmpint (f.to, >=, sl_sim_local_time (sim, 0, at - 1));
      g_assert_cmpint (f.to - f.from, <, 200000000);
      check_truth_sim (sim, rel, o.start_ns, o.start_ns + 600 * SEC, 20000);
      check_tails (seg, rel, sl_sim_local_time (sim, 0, o.start_ns), sl_sim_local_time (sim, 0, o.start_ns + 600 * SEC),
                   "tails of a link with a step");
      /* densely around the step */
      check_truth_sim (sim, rel, at - 50000000, at + 50000000, 20000);
      sl_segments_free (seg);
      sl_sim_free (sim);
    }
}

/* Both clocks step, a fraction of a second apart: between the steps the
 * truth follows neither the relation before nor the one after, so there
 * the bound holds or is infinite; before and after it is finite again. */
static void
test_close_steps (void)
{
  static const struct
  {
    double  rate;
    gint64  apart;
    gint64  step_a;
    gint64  step_b;
  } cases[] = {
    { 20, 440000000, 4300000, 3500000 }, { 100, 100000000, 4300000, -3500000 },
    { 20, 1500000000, -2000000, 5000000 }, { 50, 300000000, 3000000, 3000000 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      SlSimOptions o;
      SlSim *sim;
      SlSegments *seg;
      g_autoptr(SlRelation) rel = NULL;
      gint64 at;

      sl_sim_options_init (&o);
      sim = sl_sim_new (&o);
      sl_sim_add_host (sim, "a", 1000, 20e-6);
      sl_sim_add_host (sim, "b", -5000000000, -30e-6);
      at = o.start_ns + 301 * SEC + 123456;
      sl_sim_set_host_step (sim, 0, at, cases[c].step_a);
      sl_sim_set_host_step (sim, 1, at + cases[c].apart, cases[c].step_b);
      seg = feed_points (sim, o.start_ns, 600 * SEC, cases[c].rate, 0, 100 + c);
      rel = sl_segments_get_relation (seg);
      check_truth_sim (sim, rel, o.start_ns, o.start_ns + 600 * SEC, 20000);
      check_truth_sim (sim, rel, at - 50000000, at + cases[c].apart + 50000000, 20000);
      /* finite away from the steps */
      g_assert_true (isfinite (sl_relation_bound_at (rel, sl_sim_local_time (sim, 0, at - 10 * SEC))));
      g_assert_true (isfinite (sl_relation_bound_at (rel, sl_sim_local_time (sim, 0, at + cases[c].apart + 10 * SEC))));
      sl_segments_free (seg);
      sl_sim_free (sim);
    }
}

/* Linear regression inside the bands, with round trips of every quality:
 * one in 50 paired across a retransmission (E of 100 ms, D off by 50 ms).
 * Weighted by 1/E² those hardly count: the estimate moves by less than a
 * microsecond (unweighted, by the whole corridor), and the bound holds
 * either way, being the bands'. */
static void
test_linreg_robust (void)
{
  SlSimOptions o;
  SlSegmentsOptions so;
  SlSim *sim;
  SlSegments *clean, *dirty;
  GRand *rand = g_rand_new_with_seed (5);
  g_autoptr(SlRelation) r1 = NULL, r2 = NULL;
  SlSegmentsLinreg st;
  gint64 span = 1800 * SEC;
  double worst = 0, err1 = 0;

  sl_sim_options_init (&o);
  sim = sl_sim_new (&o);
  sl_sim_add_host (sim, "a", 1000, 20e-6);
  sl_sim_add_host (sim, "b", -5000000000, -30e-6);
  sl_sim_set_host_wander (sim, 0, 1e-6, 900);
  sl_segments_options_init (&so);
  so.linreg = TRUE;
  clean = sl_segments_new (&so);
  dirty = sl_segments_new (&so);
  for (gint64 t = o.start_ns; t < o.start_ns + span; t += 10000000)
    {
      gint64 lat = 40000 + (gint64) (-log1p (-g_rand_double (rand)) * 30000);
      gboolean ab = g_rand_boolean (rand);
      gint64 xa = sl_sim_local_time (sim, 0, t), off = sl_sim_local_time (sim, 1, t) - xa;
      double e = 40000 + -log1p (-g_rand_double (rand)) * 30000;
      gint64 d = off + (gint64) g_rand_double_range (rand, -e / 2, e / 2);

      for (int k = 0; k < 2; k++)
        {
          SlSegments *seg = k == 0 ? clean : dirty;

          if (ab)
            sl_segments_add (seg, TRUE, xa, sl_sim_local_time (sim, 1, t + lat));
          else
            sl_segments_add (seg, FALSE, sl_sim_local_time (sim, 0, t + lat), sl_sim_local_time (sim, 1, t));
          sl_segments_add_round_trip (seg, xa, xa + d, e);
        }
      if (g_rand_double (rand) < 0.02)
        sl_segments_add_round_trip (dirty, xa, xa + off + 50000000, 1e8);
    }
  r1 = sl_segments_get_relation (clean);
  r2 = sl_segments_get_relation (dirty);
  check_truth_sim (sim, r1, o.start_ns, o.start_ns + span, 20000);
  check_truth_sim (sim, r2, o.start_ns, o.start_ns + span, 20000);
  for (int i = 0; i <= 2000; i++)
    {
      gint64 tt = o.start_ns + span * i / 2000;
      gint64 x = sl_sim_local_time (sim, 0, tt);

      worst = MAX (worst, fabs ((double) (sl_relation_apply (r1, x) - sl_relation_apply (r2, x))));
      err1 = MAX (err1, fabs ((double) (sl_relation_apply (r1, x) - sl_sim_local_time (sim, 1, tt))));
    }
  sl_segments_get_linreg (dirty, &st);
  g_test_message ("linreg: %u windows with a fit, %" G_GUINT64_FORMAT " round trips; outliers move the estimate "
                  "by %.1f ns at most; largest error %.1f ns; statistical 2σ %.1f ns", st.n_windows, st.n_round_trips,
                  worst, err1, 2 * st.se_offset_ns);
  g_assert_cmpuint (st.n_windows, >, 0);
  g_assert_true (isfinite (st.se_offset_ns));
  g_assert_cmpfloat (worst, <, 1000);
  sl_segments_free (clean);
  sl_segments_free (dirty);
  sl_sim_free (sim);
  g_rand_free (rand);
}

/* One bad match: reported where it is, left out, and no step. */
static void
test_mismatch (void)
{
  SlSimOptions o;
  SlSim *sim;
  SlSegments *seg;
  g_autoptr(SlRelation) rel = NULL;
  SlFailureInfo f;
  gint64 at;

  sl_sim_options_init (&o);
  sim = sl_sim_new (&o);
  sl_sim_add_host (sim, "a", 1000, 20e-6);
  sl_sim_add_host (sim, "b", -5000000000, -30e-6);
  at = o.start_ns + 120 * SEC + 5000000;
  seg = feed_points (sim, o.start_ns, 300 * SEC, 100, at, 9);
  rel = sl_segments_get_relation (seg);
  g_assert_cmpuint (sl_segments_get_n_failures (seg), ==, 1);
  sl_segments_get_failure (seg, 0, &f);
  g_assert_cmpint (f.kind, ==, SL_FAILURE_MISMATCH);
  g_assert_cmpint (llabs (f.from - sl_sim_local_time (sim, 0, at)), <, 20000000);
  check_truth_sim (sim, rel, o.start_ns, o.start_ns + 300 * SEC, 20000);
  g_assert_cmpuint (sl_relation_get_n_pieces (rel), <=, 4);
  sl_segments_free (seg);
  sl_sim_free (sim);
}

static void
test_tails (void)
{
  static const struct
  {
    double wander_ppm;
    gint64 duration;
    double rate;
  } cases[] = {
    { 0.0, 30 * SEC, 3 },
    { 1.0, 30 * SEC, 30 },
    { 0.5, 3600 * SEC, 50 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      SlSegmentsOptions so;
      Link l = { 0 };
      g_autoptr(SlRelation) rel = NULL;
      g_autofree char *what = g_strdup_printf ("wander %.1f ppm over %.0f s", cases[c].wander_ppm,
                                               cases[c].duration / 1e9);

      sl_segments_options_init (&so);
      link_run (&l, &so, 20 + c, cases[c].duration, cases[c].rate, cases[c].wander_ppm * 1e-6,
                cases[c].wander_ppm * 1e-6, 600, FALSE);
      rel = sl_segments_get_relation (l.seg);
      check_tails (l.seg, rel, sl_sim_local_time (l.sim, 0, l.start), sl_sim_local_time (l.sim, 0, l.end), what);
      link_clear (&l);
    }
}

/* Latency that grows with the payload (base + 8 ns a byte + jitter) and
 * directions that carry different sizes: a's packets are mostly empty
 * ACKs, b's responses of 500 bytes and more. The band's middle sits about
 * half the difference (~2 µs) off the truth; the sizes given, the estimate
 * comes within a fraction of it. The same packets, with and without
 * their sizes; the truth inside the band at every instant in both. */
static void
test_payload (void)
{
  SlSimOptions o;
  SlSegmentsOptions so;
  g_autoptr(SlSim) sim = NULL;
  g_autoptr(SlSegments) plain = NULL, sized = NULL;
  g_autoptr(SlRelation) rp = NULL, rs = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);
  gint64 duration = 1800 * SEC, t;
  double mean[2] = { 0, 0 }, worst[2] = { 0, 0 };
  guint n = 5000;

  sl_sim_options_init (&o);
  o.duration_ns = duration;
  sim = sl_sim_new (&o);
  sl_sim_add_host (sim, "a", 12345678, 31e-6);
  sl_sim_add_host (sim, "b", -987654321012, -17e-6);
  sl_sim_set_host_wander (sim, 0, 1e-6, 1800);
  sl_sim_set_host_wander (sim, 1, 1e-6, 1800 * 0.77);
  sl_segments_options_init (&so);
  plain = sl_segments_new (&so);
  sized = sl_segments_new (&so);

  for (t = o.start_ns; t < o.start_ns + duration; t += 25000000 + g_rand_int_range (rand, 0, 50000000))
    {
      gboolean a_to_b = g_rand_boolean (rand);
      guint len = a_to_b ? (g_rand_double (rand) < 0.8 ? 0 : (guint) g_rand_int_range (rand, 60, 600))
                         : (guint) g_rand_int_range (rand, 500, 1449);
      gint64 lat = 40000 + 8 * (gint64) len + (gint64) (-15000 * log (1 - g_rand_double (rand)));
      gint64 ta = sl_sim_local_time (sim, 0, a_to_b ? t : t + lat);
      gint64 tb = sl_sim_local_time (sim, 1, a_to_b ? t + lat : t);

      sl_segments_add (plain, a_to_b, ta, tb);
      sl_segments_add_sized (sized, a_to_b, ta, tb, len);
    }
  rp = sl_segments_get_relation (plain);
  rs = sl_segments_get_relation (sized);

  for (guint i = 0; i <= n; i++)
    {
      gint64 tt = o.start_ns + 10 * SEC + (gint64) ((__int128) (duration - 20 * SEC) * i / n);
      gint64 x = sl_sim_local_time (sim, 0, tt), y = sl_sim_local_time (sim, 1, tt);
      SlRelation *rel[2] = { rp, rs };

      for (int k = 0; k < 2; k++)
        {
          double err = (double) (sl_relation_apply (rel[k], x) - y);
          double b = sl_relation_bound_at (rel[k], x);

          if (!(fabs (err) <= b + 2))
            g_error ("%s, at +%.3f s: error %.1f ns, bound %.1f ns", k ? "sized" : "plain",
                     (double) (tt - o.start_ns) / 1e9, err, b);
          mean[k] += err / (n + 1);
          worst[k] = MAX (worst[k], fabs (err));
        }
    }
  g_test_message ("mean error %.2f us without the sizes, %.2f us with them; worst %.2f and %.2f us",
                  mean[0] / 1e3, mean[1] / 1e3, worst[0] / 1e3, worst[1] / 1e3);
  /* the scenario has the bias, and the sizes take it away */
  g_assert_cmpfloat (fabs (mean[0]), >, 1000);
  g_assert_cmpfloat (fabs (mean[1]), <, fabs (mean[0]) / 3);
  g_assert_cmpfloat (worst[1], <, worst[0]);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/segments/linear-matches-hull", test_linear_matches_hull);
  g_test_add_func ("/segments/wander", test_wander);
  g_test_add_func ("/segments/linear-few-pieces", test_linear_few_pieces);
  g_test_add_func ("/segments/steps", test_steps);
  g_test_add_func ("/segments/close-steps", test_close_steps);
  g_test_add_func ("/segments/linreg-robust", test_linreg_robust);
  g_test_add_func ("/segments/mismatch", test_mismatch);
  g_test_add_func ("/segments/tails", test_tails);
  g_test_add_func ("/segments/payload", test_payload);
  g_test_add_func ("/segments/window-counts", test_window_counts);

  return g_test_run ();
}
