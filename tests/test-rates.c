/* test-rates.c: the guaranteed drift interval (sl-rates.c,
 * sl-report-rate.c) against the simulated clocks' true rates
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-report.h"
#include "sl-sim.h"

/* The simulated host's clock rate against true time at true time @tt:
 * 1 + drift + wander·sin(2πd/P) (sl-sim.h). */
static double
sim_rate (const SlSim *sim,
          gint64       start,
          guint        h,
          gint64       tt)
{
  const SlSimHost *sh = sl_sim_get_host (sim, h);
  double d = (double) (tt - start);

  return 1 + sh->drift + (sh->wander > 0 ? sh->wander * sin (2 * G_PI * d / sh->wander_period_ns) : 0);
}

/* The true drift of @r's clock against @h's where @h reads @x: the
 * derivative of the true map h → r there, exact but for the instant's
 * ns. */
static double
true_drift (const SlSim *sim,
            gint64       start,
            guint        h,
            guint        r,
            gint64       x)
{
  gint64 tt = x;

  for (int k = 0; k < 8; k++)
    tt -= sl_sim_local_time (sim, h, tt) - x;
  return sim_rate (sim, start, r, tt) / sim_rate (sim, start, h, tt) - 1;
}

typedef struct
{
  guint  n_checks;
  guint  n_windows;
  double widest;
  double width_sum;
  guint  n_widths;
} Stats;

/* Every accurate window of every link: the truth within the link's
 * interval at its ends, its middle and 7 instants between, and just
 * outside it. */
static void
check_links (SlEngine    *e,
             const SlSim *sim,
             gint64       start,
             Stats       *st)
{
  for (guint l = 0; l < sl_engine_get_n_links (e); l++)
    {
      SlLinkInfo li;
      g_autoptr(SlRelation) rel = sl_engine_get_link_relation (e, l);
      const SlRates *rates;

      sl_engine_get_link_info (e, l, &li);
      if (rel == NULL || li.quality != SL_QUALITY_ACCURATE)
        continue;
      rates = sl_relation_get_rates (rel);
      g_assert_nonnull (rates);
      g_assert_cmpuint (sl_rates_get_n (rates), >, 0);
      for (guint i = 0; i < sl_rates_get_n (rates); i++)
        {
          const SlRateWindow *w = sl_rates_get (rates, i);

          for (int j = -1; j <= 9; j++)
            {
              gint64 x = w->u + (gint64) ((double) (w->v - w->u) * j / 8);
              double lo, hi, truth = true_drift (sim, start, li.a, li.b, x);

              g_assert_true (sl_relation_rate_at (rel, x, 0, &lo, &hi));
              if (truth < lo - 1 || truth > hi - 1)
                g_test_message ("link %u window %u/%u (%.1f s) at %d/8: truth %+.4f ppm, guaranteed [%+.4f, %+.4f]",
                                l, i, sl_rates_get_n (rates), (double) (w->v - w->u) / 1e9, j, truth * 1e6,
                                (lo - 1) * 1e6, (hi - 1) * 1e6);
              g_assert_cmpfloat (truth, >=, lo - 1);
              g_assert_cmpfloat (truth, <=, hi - 1);
              st->n_checks++;
              if (j == 4)
                {
                  st->widest = MAX (st->widest, hi - lo);
                  st->width_sum += hi - lo;
                  st->n_widths++;
                }
            }
          st->n_windows++;
        }
    }
}

/* One link, 2 hosts (b drifting @drift and wandering), @minutes of
 * packets at @rate a second each way, every window checked; the engine,
 * to be freed. */
static SlEngine *
one_link (double   drift_change_ppm_s,
          double   drift,
          double   wander,
          double   period_s,
          int      minutes,
          double   rate,
          double   jitter_ns,
          guint64  seed,
          Stats   *st)
{
  SlEngineOptions eo;
  SlSimOptions so;
  g_autoptr(SlSim) sim = NULL;
  SlEngine *e;
  SlPacketEvent ev;
  gint64 t;

  sl_engine_options_init (&eo);
  eo.drift_change = drift_change_ppm_s * 1e-6;
  e = sl_engine_new (&eo);
  sl_sim_options_init (&so);
  so.seed = seed;
  so.duration_ns = minutes * 60 * G_GINT64_CONSTANT (1000000000);
  if (jitter_ns > 0)
    so.mean_extra_latency_ns = jitter_ns;
  sim = sl_sim_new (&so);
  sl_sim_add_host (sim, "a", 0, 0);
  sl_sim_add_host (sim, "b", 123456789, drift);
  if (wander > 0)
    sl_sim_set_host_wander (sim, 1, wander, period_s);
  sl_sim_add_link (sim, 0, 1, rate);
  sl_engine_add_host (e, "a");
  sl_engine_add_host (e, "b");
  while (sl_sim_next (sim, &ev, &t))
    sl_engine_add_packet (e, &ev, t);
  sl_engine_flush (e);
  check_links (e, sim, so.start_ns, st);
  return e;
}

/* A link's interval holds the true rate in every window, on clocks that
 * wander as fast as the generator's hardest goal clock (5 ppm over 10
 * minutes: 0.052 ppm/s, within the default 0.1), three times as fast
 * with packets 40 µs + 1 µs of jitter apart (short windows, where the
 * rate's change across a window matters most) and on a linear pair
 * (κ = 0: the interval is the hull's own [alpha_min, alpha_max]); and it
 * is not trivially wide. */
static void
test_links (void)
{
  Stats st = { 0 }, lin = { 0 };
  SlEngine *e;
  SlLinkInfo li;
  double lo, hi;
  g_autoptr(SlRelation) rel = NULL;

  sl_engine_free (one_link (0.1, -37e-6, 5e-6, 600, 20, 20, 0, 1, &st));
  sl_engine_free (one_link (0.1, -37e-6, 2e-6, 300, 10, 50, 0, 2, &st));
  sl_engine_free (one_link (0.1, -37e-6, 15e-6, 600, 10, 200, 1000, 4, &st));
  g_test_message ("wandering: %u windows, %u instants; interval %.3f ppm wide in a window's middle on "
                  "average, %.3f at most", st.n_windows, st.n_checks, st.width_sum / st.n_widths * 1e6,
                  st.widest * 1e6);
  g_assert_cmpuint (st.n_windows, >=, 40);
  g_assert_cmpfloat (st.widest * 1e6, <, 50);
  g_assert_cmpfloat (st.width_sum / st.n_widths * 1e6, <, 30);

  /* linear clocks, no change assumed: one window, the hull's slopes */
  e = one_link (0, 41e-6, 0, 0, 5, 20, 0, 3, &lin);
  sl_engine_get_link_info (e, 0, &li);
  rel = sl_engine_get_link_relation (e, 0);
  g_assert_cmpuint (sl_rates_get_n (sl_relation_get_rates (rel)), ==, 1);
  g_assert_true (sl_relation_rate_at (rel, li.span_start - G_GINT64_CONSTANT (3600000000000), 0, &lo, &hi));
  g_assert_cmpfloat (fabs (lo - li.alpha_min), <, 1e-12);
  g_assert_cmpfloat (fabs (hi - li.alpha_max), <, 1e-12);
  g_test_message ("linear: [%+.4f, %+.4f] ppm, %.4f wide (the hull's)", (lo - 1) * 1e6, (hi - 1) * 1e6,
                  (hi - lo) * 1e6);
  g_assert_cmpfloat ((hi - lo) * 1e6, <, 1);
  sl_engine_free (e);
}

/* Random clusters as /report/drift-on-path has them (4–7 hosts whose
 * clocks wander up to 5 ppm, tree links that start 2–40 s in): each
 * host's interval, through its path, holds the true rate against its
 * reference where its drift is read and every 4 s over its 2 minutes
 * (every piece of its map), and is not trivially wide. */
static void
test_hosts (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (90);
  guint n_checks = 0, n_hops = 0;
  double widest = 0, width_sum = 0;
  guint n_widths = 0;

  for (guint sc = 0; sc < 6; sc++)
    {
      SlSimOptions so;
      g_autoptr(SlSim) sim = NULL;
      SlEngine *e = sl_engine_new (NULL);
      guint n = g_rand_int_range (rand, 4, 8);
      g_autoptr(GArray) links = g_array_new (FALSE, TRUE, sizeof (SlReportLink));
      g_autoptr(GPtrArray) lrels = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
      g_autoptr(GPtrArray) hrels = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
      g_autoptr(GHashTable) pairs = NULL;
      g_autofree gint64 *starts = g_new (gint64, n);
      SlPacketEvent ev;
      gint64 t;

      sl_sim_options_init (&so);
      so.seed = sc + 11;
      so.duration_ns = 120 * G_GINT64_CONSTANT (1000000000);
      sim = sl_sim_new (&so);
      for (guint h = 0; h < n; h++)
        {
          char name[16];

          g_snprintf (name, sizeof name, "h%u", h);
          sl_sim_add_host (sim, name, (gint64) g_rand_double_range (rand, -1e12, 1e12),
                           g_rand_double_range (rand, -100e-6, 100e-6));
          sl_sim_set_host_wander (sim, h, g_rand_double_range (rand, 0, 5e-6), g_rand_double_range (rand, 600, 7200));
          sl_engine_add_host (e, name);
        }
      for (guint h = 1; h < n; h++)
        sl_sim_add_link_span (sim, g_rand_int_range (rand, 0, h), h, 100,
                              so.start_ns + (gint64) g_rand_double_range (rand, 2e9, 40e9), so.start_ns + so.duration_ns);
      while (sl_sim_next (sim, &ev, &t))
        sl_engine_add_packet (e, &ev, t);
      sl_engine_flush (e);

      g_array_set_size (links, sl_engine_get_n_links (e));
      for (guint l = 0; l < links->len; l++)
        {
          sl_report_get_link (e, l, &g_array_index (links, SlReportLink, l));
          g_ptr_array_add (lrels, sl_engine_get_link_relation (e, l));
        }
      for (guint h = 0; h < n; h++)
        {
          SlHostInfo hi = { 0 };

          sl_engine_get_host_info (e, h, &hi);
          g_ptr_array_add (hrels, sl_relation_ref (hi.relation));
          sl_host_info_clear (&hi);
        }
      pairs = sl_report_link_pairs ((const SlReportLink *) (gpointer) links->data, links->len);
      sl_report_host_starts ((const SlReportLink *) (gpointer) links->data, (SlRelation * const *) lrels->pdata,
                             links->len, starts, n);
      for (guint h = 0; h < n; h++)
        {
          SlHostInfo hi = { 0 };
          gint64 at, end;

          sl_engine_get_host_info (e, h, &hi);
          if (hi.reference == h || !isfinite (hi.bound_ns) || starts[h] == G_MAXINT64)
            {
              sl_host_info_clear (&hi);
              continue;
            }
          at = sl_report_drift_start ((const SlReportLink *) (gpointer) links->data,
                                      (SlRelation * const *) lrels->pdata, pairs, (SlRelation * const *) hrels->pdata,
                                      (const guint *) (gpointer) hi.path->data, hi.path->len, starts[h]);
          end = sl_relation_preimage (hi.relation, so.start_ns + so.duration_ns);
          for (gint64 x = at, k = 0; x <= end; x = at + ++k * G_GINT64_CONSTANT (4000000000))
            {
              double lo, hi_, truth = true_drift (sim, so.start_ns, h, hi.reference, x);
              double shown = sl_relation_piece_at (hi.relation, x)->drift;

              g_assert_true (sl_report_drift_interval ((const SlReportLink *) (gpointer) links->data,
                                                       (SlRelation * const *) lrels->pdata, pairs,
                                                       (const guint *) (gpointer) hi.path->data, hi.path->len, x,
                                                       &lo, &hi_));
              if (k == 0 || truth < lo || truth > hi_)
                g_test_message ("scenario %u h%u (%u hops) %.1f s in: drift %+.4f ppm, truth %+.4f, "
                                "guaranteed [%+.4f, %+.4f]", sc, h, hi.path->len - 1,
                                (double) (x - starts[h]) / 1e9, shown * 1e6, truth * 1e6, lo * 1e6, hi_ * 1e6);
              g_assert_cmpfloat (truth, >=, lo);
              g_assert_cmpfloat (truth, <=, hi_);
              if (k == 0)
                {
                  widest = MAX (widest, (hi_ - lo) / (hi.path->len - 1));
                  width_sum += hi_ - lo;
                  n_widths++;
                  n_hops += hi.path->len - 1;
                }
              n_checks++;
            }
          sl_host_info_clear (&hi);
        }
      sl_engine_free (e);
    }
  g_test_message ("%u hosts (%u hops), %u instants; interval where the drift is read %.3f ppm wide on average, "
                  "%.3f ppm a hop at most", n_widths, n_hops, n_checks, width_sum / n_widths * 1e6, widest * 1e6);
  g_assert_cmpuint (n_widths, >=, 20);
  g_assert_cmpfloat (widest * 1e6, <, 30);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rates/links", test_links);
  g_test_add_func ("/rates/hosts", test_hosts);
  return g_test_run ();
}
