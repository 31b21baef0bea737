/* test-linreg.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl-linreg.h"

#define T0 G_GINT64_CONSTANT (1400000000000000000)
#define SECOND G_GINT64_CONSTANT (1000000000)

typedef struct
{
  gboolean a_to_b;
  gint64   t_a;
  gint64   t_b;
  gboolean outlier;
} Pkt;

/* The truth: t_b = (1 + ppb·1e-9)·t_a + offset, with a's clock as true time. */
typedef struct
{
  gint64 offset;
  gint64 ppb;
} Truth;

static gint64
truth_apply (const Truth *truth,
             gint64       t)
{
  __int128 skew = (__int128) t * truth->ppb;

  return t + truth->offset + (gint64) (skew / 1000000000);
}

/* A chain of request/reply exchanges: each packet answers the previous one.
 * Replies come after a short turnaround, the next request after a longer
 * pause; latencies are 30..80 µs, plus @outlier_delay on a fraction
 * @outlier_rate of the a->b packets. */
static GArray *
make_chain (GRand       *rand,
            const Truth *truth,
            guint        n,
            gboolean     a_first,
            double       outlier_rate,
            gint64       outlier_delay)
{
  GArray *pkts = g_array_sized_new (FALSE, FALSE, sizeof (Pkt), n);
  gint64 t = T0 + g_rand_int_range (rand, 0, 1000000000);
  gboolean from_a = a_first;

  for (guint k = 0; k < n; k++)
    {
      gint64 latency = g_rand_int_range (rand, 30000, 80000);
      Pkt p;

      p.a_to_b = from_a;
      p.outlier = from_a && g_rand_double (rand) < outlier_rate;
      if (p.outlier)
        latency += outlier_delay;

      if (from_a)
        {
          p.t_a = t;
          p.t_b = truth_apply (truth, t + latency);
        }
      else
        {
          p.t_b = truth_apply (truth, t);
          p.t_a = t + latency;
        }
      g_array_append_val (pkts, p);

      t += latency;
      if ((k & 1) == 0)
        t += g_rand_int_range (rand, 10000, 300000);
      else
        t += g_rand_int_range (rand, 100000000, 900000000);

      from_a = !from_a;
    }

  return pkts;
}

static void
feed (SlLinreg *lr,
      GArray   *pkts)
{
  for (guint i = 0; i < pkts->len; i++)
    {
      const Pkt *p = &g_array_index (pkts, Pkt, i);

      sl_linreg_add (lr, p->a_to_b, p->t_a, p->t_b);
    }
}

typedef struct
{
  guint       n;
  long double slope;
  long double d_at_mid;
  long double mid;
  long double e_r;
  long double se_slope;
  long double se_offset;
  long double mean_e;
} Brute;

/* Round trips of a chain are its consecutive packets; recompute everything
 * from absolute timestamps in long double, two passes. E is half the network
 * round trip in a's units: the interval seen on b's clock is divided by the
 * fitted slope. */
static void
brute_force (GArray   *pkts,
             gboolean  skip_outliers,
             Brute    *out)
{
  guint n_rt = pkts->len - 1;
  long double *t = g_new (long double, n_rt);
  long double *d = g_new (long double, n_rt);
  long double *on_a = g_new (long double, n_rt);
  long double *on_b = g_new (long double, n_rt);
  gboolean *from_a = g_new (gboolean, n_rt);
  long double st = 0, sd = 0, stt = 0, std_ = 0, ssr = 0, se = 0;
  long double t_min = INFINITY, t_max = -INFINITY, centre;
  guint n = 0;

  for (guint k = 0; k < n_rt; k++)
    {
      const Pkt *q = &g_array_index (pkts, Pkt, k);
      const Pkt *r = &g_array_index (pkts, Pkt, k + 1);
      long double t1, t2, t3, t4;

      if (skip_outliers && (q->outlier || r->outlier))
        continue;

      from_a[n] = q->a_to_b;
      if (q->a_to_b)
        {
          t1 = q->t_a; t2 = q->t_b; t3 = r->t_b; t4 = r->t_a;
          d[n] = ((t2 - t1) + (t3 - t4)) / 2;
          t[n] = (t1 + t4) / 2;
          on_a[n] = t4 - t1;
          on_b[n] = t3 - t2;
        }
      else
        {
          t1 = q->t_b; t2 = q->t_a; t3 = r->t_a; t4 = r->t_b;
          d[n] = ((t1 - t2) + (t4 - t3)) / 2;
          t[n] = (t2 + t3) / 2;
          on_a[n] = t3 - t2;
          on_b[n] = t4 - t1;
        }
      n++;
    }

  for (guint k = 0; k < n; k++)
    {
      st += t[k] - t[0];
      sd += d[k];
      t_min = fminl (t_min, t[k]);
      t_max = fmaxl (t_max, t[k]);
    }
  st /= n;
  sd /= n;

  for (guint k = 0; k < n; k++)
    {
      stt += (t[k] - t[0] - st) * (t[k] - t[0] - st);
      std_ += (t[k] - t[0] - st) * (d[k] - sd);
    }

  out->n = n;
  out->slope = std_ / stt;
  out->mid = t[0] + st;
  out->d_at_mid = sd;

  for (guint k = 0; k < n; k++)
    {
      long double res = d[k] - sd - out->slope * (t[k] - t[0] - st);
      long double on_b_in_a = on_b[k] / (1 + out->slope);

      ssr += res * res;
      se += (from_a[k] ? on_a[k] - on_b_in_a : on_b_in_a - on_a[k]) / 2;
    }
  out->e_r = sqrtl (ssr / (n - 2));

  /* SE(slope) = E_r·sqrt(n/Δ), Δ = nΣT² - (ΣT)² = n·Σ(T - mean)²;
   * SE of the fitted D at the centre of the span */
  out->se_slope = out->e_r * sqrtl (n / (n * stt));
  centre = (t_min - t[0]) + (t_max - t_min) / 2;
  out->se_offset = out->e_r * sqrtl (1.0L / n + (centre - st) * (centre - st) / stt);
  out->mean_e = se / n;

  g_free (t);
  g_free (d);
  g_free (on_a);
  g_free (on_b);
  g_free (from_a);
}

static void
check_against_brute (const SlLinregResult *res,
                     const Brute          *brute)
{
  gint64 mid = (gint64) llroundl (brute->mid);
  long double d_brute = brute->d_at_mid + brute->slope * (mid - brute->mid);
  gint64 whole;
  double frac;

  sl_transform_apply_split (&res->fit, mid, &whole, &frac);

  g_assert_cmpuint (res->n_used, ==, brute->n);
  g_assert_true (res->valid);
  g_assert_cmpfloat (fabs (res->e_r_ns - (double) brute->e_r), <=, 1e-9 * brute->e_r);
  g_assert_cmpfloat (fabs (res->fit.drift - (double) brute->slope), <=, 1e-6 * res->se_slope);
  g_assert_cmpfloat (fabsl ((whole - mid) + (long double) frac - d_brute), <=, 1e-3);
  g_assert_cmpfloat (fabs (res->mean_error_margin_ns - (double) brute->mean_e), <=, 1e-6);
  g_assert_cmpfloat (fabs (res->se_offset_ns - (double) brute->se_offset), <=, 1e-9 * brute->se_offset);
  g_assert_cmpfloat (fabs (res->se_slope - (double) brute->se_slope), <=, 1e-9 * brute->se_slope);
}

/* Fit error relative to the truth, in standard errors, at the fit's centre. */
static void
truth_errors (const SlLinregResult *res,
              const Truth          *truth,
              gint64                mid,
              double               *slope_z,
              double               *offset_z)
{
  double true_drift = truth->ppb * 1e-9;
  gint64 whole;
  double frac;
  double err;

  sl_transform_apply_split (&res->fit, mid, &whole, &frac);
  err = (double) (whole - truth_apply (truth, mid)) + frac;

  *slope_z = (res->fit.drift - true_drift) / res->se_slope;
  *offset_z = err / res->se_offset_ns;
}

static void
test_linreg_recovers_truth (void)
{
  static const Truth truths[] = {
    { 0, 0 },
    { 3 * 86400 * SECOND + 123456789, 500000 },
    { -2 * 86400 * SECOND - 987654321, -500000 },
    { 7 * 3600 * SECOND, 37 },
    { -SECOND / 3, -12345 },
    { 86400 * SECOND, 250000 },
  };
  GRand *rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < G_N_ELEMENTS (truths); i++)
    {
      for (guint a_first = 0; a_first < 2; a_first++)
        {
          GArray *pkts = make_chain (rand, &truths[i], 3001, a_first, 0, 0);
          SlLinreg *lr = sl_linreg_new (0);
          SlLinregResult res;
          double slope_z;
          double offset_z;
          Brute brute;

          feed (lr, pkts);
          sl_linreg_get (lr, &res);
          brute_force (pkts, FALSE, &brute);

          g_assert_true (res.have_a_to_b);
          g_assert_true (res.have_b_to_a);
          g_assert_cmpuint (res.n_round_trips, ==, 3000);
          check_against_brute (&res, &brute);

          truth_errors (&res, &truths[i], (gint64) llroundl (brute.mid), &slope_z, &offset_z);
          g_test_message ("truth %u/%u: drift %.9g (true %.9g) +/- %.3g, E_r %.1f ns, "
                          "slope %.2f SE, offset %.2f SE",
                          i, a_first, res.fit.drift, truths[i].ppb * 1e-9, res.se_slope,
                          res.e_r_ns, slope_z, offset_z);
          g_assert_cmpfloat (fabs (slope_z), <, 4.0);
          g_assert_cmpfloat (fabs (offset_z), <, 4.0);

          /* half the spread of a 30..80 µs latency difference */
          g_assert_cmpfloat (res.e_r_ns, >, 5000);
          g_assert_cmpfloat (res.e_r_ns, <, 15000);
          g_assert_cmpfloat (res.mean_error_margin_ns, >, 30000);
          g_assert_cmpfloat (res.mean_error_margin_ns, <, 80000);

          sl_linreg_free (lr);
          g_array_unref (pkts);
        }
    }

  g_rand_free (rand);
}

/* A whole file of one direction first, then the other: the same round trips
 * as in time order as long as the buffer holds one direction's packets. */
static void
test_linreg_block_order (void)
{
  const Truth truth = { 5 * 3600 * SECOND, -300000 };
  GRand *rand = g_rand_new_with_seed (7);
  GArray *pkts = make_chain (rand, &truth, 121, TRUE, 0, 0);
  SlLinreg *ordered = sl_linreg_new (0);
  SlLinreg *blocks = sl_linreg_new (0);
  SlLinreg *reversed = sl_linreg_new (0);
  SlLinregResult r1, r2, r3;

  feed (ordered, pkts);
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < pkts->len; i++)
      {
        const Pkt *p = &g_array_index (pkts, Pkt, i);

        if (p->a_to_b == (pass == 0))
          sl_linreg_add (blocks, p->a_to_b, p->t_a, p->t_b);
        if (p->a_to_b == (pass == 1))
          sl_linreg_add (reversed, p->a_to_b, p->t_a, p->t_b);
      }

  sl_linreg_get (ordered, &r1);
  sl_linreg_get (blocks, &r2);
  sl_linreg_get (reversed, &r3);

  g_assert_cmpuint (r1.n_round_trips, ==, 120);
  g_assert_cmpuint (r2.n_round_trips, ==, 120);
  g_assert_cmpuint (r3.n_round_trips, ==, 120);
  g_assert_true (r2.valid && r3.valid);
  g_assert_cmpfloat (fabs (r2.fit.drift - r1.fit.drift), <=, 1e-6 * r1.se_slope);
  g_assert_cmpfloat (fabs (r3.fit.drift - r1.fit.drift), <=, 1e-6 * r1.se_slope);
  g_assert_cmpfloat (fabs (r2.e_r_ns - r1.e_r_ns), <=, 1e-6 * r1.e_r_ns);
  g_assert_cmpfloat (fabs (r3.e_r_ns - r1.e_r_ns), <=, 1e-6 * r1.e_r_ns);

  sl_linreg_free (ordered);
  sl_linreg_free (blocks);
  sl_linreg_free (reversed);
  g_array_unref (pkts);
  g_rand_free (rand);
}

static void
test_linreg_rejection (void)
{
  const Truth truth = { -86400 * SECOND, 420000 };
  GRand *rand = g_rand_new_with_seed (99);
  GArray *pkts = make_chain (rand, &truth, 4001, FALSE, 0.03, 5000000);
  SlLinreg *plain = sl_linreg_new (0);
  SlLinreg *all = sl_linreg_new (1.0);
  SlLinreg *c90 = sl_linreg_new (0.90);
  SlLinreg *c99 = sl_linreg_new (0.99);
  SlLinregResult rp, ra, r90, r99;
  double slope_z, offset_z;
  double plain_slope_z, plain_offset_z;
  guint n_outlier_rts = 0;
  Brute brute;

  for (guint k = 0; k + 1 < pkts->len; k++)
    if (g_array_index (pkts, Pkt, k).outlier || g_array_index (pkts, Pkt, k + 1).outlier)
      n_outlier_rts++;
  g_assert_cmpuint (n_outlier_rts, >, 60);

  feed (plain, pkts);
  feed (all, pkts);
  feed (c90, pkts);
  feed (c99, pkts);
  sl_linreg_get (plain, &rp);
  sl_linreg_get (all, &ra);
  sl_linreg_get (c90, &r90);
  sl_linreg_get (c99, &r99);

  /* 100 % keeps everything, like no rejection */
  g_assert_cmpuint (rp.n_used, ==, 4000);
  g_assert_cmpuint (ra.n_used, ==, 4000);
  g_assert_cmpfloat (fabs (ra.e_r_ns - rp.e_r_ns), <=, 1e-9 * rp.e_r_ns);

  /* 90 %: exactly the round trips with a delayed packet go */
  g_assert_cmpuint (r90.n_round_trips, ==, 4000);
  g_assert_cmpuint (r90.n_used, ==, 4000 - n_outlier_rts);
  brute_force (pkts, TRUE, &brute);
  check_against_brute (&r90, &brute);

  g_assert_cmpuint (r99.n_used, >=, r90.n_used);
  g_assert_cmpuint (r99.n_used, <=, 4000);

  truth_errors (&r90, &truth, (gint64) llroundl (brute.mid), &slope_z, &offset_z);
  truth_errors (&rp, &truth, (gint64) llroundl (brute.mid), &plain_slope_z, &plain_offset_z);
  g_test_message ("90%%: %u used, E_r %.0f ns, offset %.2f SE; none: E_r %.0f ns, offset %.2f SE",
                  r90.n_used, r90.e_r_ns, offset_z, rp.e_r_ns, plain_offset_z);
  g_assert_cmpfloat (fabs (slope_z), <, 4.0);
  g_assert_cmpfloat (fabs (offset_z), <, 4.0);

  /* the delays bias the unfiltered fit by tens of µs and blow up E_r */
  g_assert_cmpfloat (rp.e_r_ns, >, 10 * r90.e_r_ns);
  g_assert_cmpfloat (fabs (plain_offset_z * rp.se_offset_ns), >, 50000);

  sl_linreg_free (plain);
  sl_linreg_free (all);
  sl_linreg_free (c90);
  sl_linreg_free (c99);
  g_array_unref (pkts);
  g_rand_free (rand);
}

static void
assert_no_fit_stats (const SlLinregResult *res)
{
  g_assert_true (isnan (res->e_r_ns));
  g_assert_true (isnan (res->se_slope));
  g_assert_true (isnan (res->se_offset_ns));
}

static void
test_linreg_degenerate (void)
{
  SlLinreg *lr;
  SlLinregResult res;
  gboolean formed;

  /* nothing */
  lr = sl_linreg_new (0.9);
  sl_linreg_get (lr, &res);
  g_assert_false (res.valid);
  g_assert_cmpuint (res.n_round_trips, ==, 0);
  g_assert_false (res.have_a_to_b || res.have_b_to_a);
  g_assert_true (isnan (res.mean_error_margin_ns));
  assert_no_fit_stats (&res);
  sl_linreg_free (lr);

  /* one direction only */
  lr = sl_linreg_new (0);
  for (guint i = 0; i < 1000; i++)
    g_assert_false (sl_linreg_add (lr, TRUE, T0 + i * SECOND, T0 + i * SECOND + 50000));
  sl_linreg_get (lr, &res);
  g_assert_false (res.valid);
  g_assert_true (res.have_a_to_b);
  g_assert_false (res.have_b_to_a);
  g_assert_cmpuint (res.n_round_trips, ==, 0);
  assert_no_fit_stats (&res);
  sl_linreg_free (lr);

  /* one round trip: an offset but no line */
  lr = sl_linreg_new (0);
  g_assert_false (sl_linreg_add (lr, TRUE, T0, T0 + 1000 + 40000));
  formed = sl_linreg_add (lr, FALSE, T0 + 100000, T0 + 1000 + 60000);
  g_assert_true (formed);
  sl_linreg_get (lr, &res);
  g_assert_false (res.valid);
  g_assert_cmpuint (res.n_round_trips, ==, 1);
  g_assert_cmpfloat (res.mean_error_margin_ns, ==, 40000);
  g_assert_cmpint (sl_transform_apply (&res.fit, T0), ==, T0 + 1000);
  assert_no_fit_stats (&res);

  /* a second one: a line through two points, no error estimate */
  /* answers the first reply: a round trip too */
  g_assert_true (sl_linreg_add (lr, TRUE, T0 + SECOND, T0 + SECOND + 2000 + 40000));
  g_assert_true (sl_linreg_add (lr, FALSE, T0 + SECOND + 100000, T0 + SECOND + 2000 + 60000));
  sl_linreg_get (lr, &res);
  g_assert_true (res.valid);
  g_assert_cmpuint (res.n_round_trips, ==, 3);
  g_assert_cmpfloat (fabs (res.fit.drift - 1e-6), <, 1e-9);
  sl_linreg_free (lr);

  /* a reply that left before the request arrived is no round trip */
  lr = sl_linreg_new (0);
  g_assert_false (sl_linreg_add (lr, TRUE, T0, T0 + 50000));
  g_assert_false (sl_linreg_add (lr, FALSE, T0 + 100000, T0 + 30000));
  sl_linreg_get (lr, &res);
  g_assert_cmpuint (res.n_round_trips, ==, 0);
  g_assert_false (res.valid);
  sl_linreg_free (lr);

  /* identical timestamps: round trips, but all at one time */
  for (guint c = 0; c < 2; c++)
    {
      lr = sl_linreg_new (c == 0 ? 0 : 0.9);
      for (guint i = 0; i < 200; i++)
        sl_linreg_add (lr, (i & 1) == 0, T0, T0 + 777);
      sl_linreg_get (lr, &res);
      g_assert_cmpuint (res.n_round_trips, >, 0);
      g_assert_false (res.valid);
      g_assert_true (isfinite (res.mean_error_margin_ns));
      assert_no_fit_stats (&res);
      g_assert_cmpint (sl_transform_apply (&res.fit, T0), ==, T0 + 777);
      sl_linreg_free (lr);
    }

  /* extreme but legal timestamps do not crash */
  lr = sl_linreg_new (0.95);
  sl_linreg_add (lr, TRUE, 0, G_MAXINT64 / 4);
  sl_linreg_add (lr, FALSE, G_MAXINT64 / 4, G_MAXINT64 / 2);
  sl_linreg_add (lr, TRUE, G_MAXINT64 / 4, 0);
  sl_linreg_get (lr, &res);
  sl_linreg_free (lr);
}

static void
test_linreg_bad_args (void)
{
  if (g_test_subprocess ())
    {
      g_assert_null (sl_linreg_new (1.5));
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*confidence*");
}

/* LTTV's text cases hold packets in file order (one direction, then the
 * other); LTTV's own linreg gives NaN on them. */
static char *
shared_data_dir (void)
{
  const char *env = g_getenv ("SL_SHARED_DATA");

  if (env != NULL)
    return g_strdup (env);

  return g_test_build_filename (G_TEST_DIST, "..", "..", "shared", "data", NULL);
}

static gboolean
load_lttv_case (const char *path,
                SlLinreg   *lr)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean have_count = FALSE;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *hash = strchr (lines[i], '#');
      guint sender, receiver;
      double ts, tr;
      gint64 send, recv;

      if (hash != NULL)
        *hash = '\0';
      g_strstrip (lines[i]);
      if (lines[i][0] == '\0')
        continue;

      if (!have_count)
        {
          g_assert_cmpint (atoi (lines[i]), ==, 2);
          have_count = TRUE;
          continue;
        }

      g_assert_cmpint (sscanf (lines[i], "%u %u %lf %lf", &sender, &receiver, &ts, &tr), ==, 4);
      send = llround (ts * 1e9);
      recv = llround (tr * 1e9);
      if (sender == 0)
        sl_linreg_add (lr, TRUE, send, recv);
      else
        sl_linreg_add (lr, FALSE, recv, send);
    }

  return TRUE;
}

/* LTTV prints t_0 = drift·t_1 + offset for trace 1. */
static double
lttv_chull_slope (const char *expected,
                  const char *name)
{
  g_autofree char *header = g_strdup_printf ("=== %s\n", name);
  const char *at = strstr (expected, header);
  double drift;

  g_assert_nonnull (at);
  at = strstr (at, "trace 1 drift=");
  g_assert_nonnull (at);
  g_assert_cmpint (sscanf (at, "trace 1 drift= %lf", &drift), ==, 1);

  return 1.0 / drift;
}

static void
test_linreg_lttv_cases (void)
{
  g_autofree char *dir = shared_data_dir ();
  g_autofree char *cases = g_build_filename (dir, "lttv-sync-cases", NULL);
  g_autofree char *expected_path = g_build_filename (cases, "expected-lttv-chull.txt", NULL);
  g_autofree char *expected = NULL;

  if (!g_file_get_contents (expected_path, &expected, NULL, NULL))
    {
      g_autofree char *msg = g_strdup_printf ("%s not found: set SL_SHARED_DATA to the shared data folder",
                                              expected_path);

      g_test_skip (msg);
      return;
    }

  for (guint i = 1; i <= 12; i++)
    {
      g_autofree char *name = g_strdup_printf ("test%u.txt", i);
      g_autofree char *path = g_build_filename (cases, name, NULL);
      SlLinreg *lr = sl_linreg_new (0);
      SlLinregResult res;

      g_assert_true (load_lttv_case (path, lr));
      sl_linreg_get (lr, &res);

      if (res.valid)
        {
          g_assert_true (isfinite (res.fit.drift));
          g_assert_true (isfinite (res.fit.image_frac));
        }

      if (i <= 3)
        {
          double chull = lttv_chull_slope (expected, name);
          double slope = sl_transform_get_slope (&res.fit);

          g_test_message ("%s: %u round trips, slope %.5f +/- %.5f, E_r %.3g ns; chull slope %.5f",
                          name, res.n_round_trips, slope, res.se_slope, res.e_r_ns, chull);

          g_assert_true (res.valid);
          g_assert_cmpuint (res.n_round_trips, >=, 2);
          g_assert_true (isfinite (slope));
          /* The cases are tiny and noisy (error margins of seconds over a
           * 20-s span): test3's points scatter so much that no regression
           * lands inside the hull's slope interval; "near" means within
           * a quarter. */
          g_assert_cmpfloat (fabs (slope - chull), <, 0.25);
          if (!isnan (res.se_slope))
            g_assert_cmpfloat (fabs (slope - chull), <, 2 * res.se_slope);
        }

      sl_linreg_free (lr);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/linreg/recovers-truth", test_linreg_recovers_truth);
  g_test_add_func ("/linreg/block-order", test_linreg_block_order);
  g_test_add_func ("/linreg/rejection", test_linreg_rejection);
  g_test_add_func ("/linreg/degenerate", test_linreg_degenerate);
  g_test_add_func ("/linreg/bad-args", test_linreg_bad_args);
  g_test_add_func ("/linreg/lttv-cases", test_linreg_lttv_cases);

  return g_test_run ();
}
