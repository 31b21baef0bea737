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
 * 1 + drift + ramp·d + wander·sin(2πd/P) (sl-sim.h). */
static double
sim_rate (const SlSim *sim,
          gint64       start,
          guint        h,
          gint64       tt)
{
  const SlSimHost *sh = sl_sim_get_host (sim, h);
  double d = (double) (tt - start);

  return 1 + sh->drift + sh->ramp * d + (sh->wander > 0 ? sh->wander * sin (2 * G_PI * d / sh->wander_period_ns) : 0);
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

/* @n_flat: instants where the truth lies outside the interval the same
 * windows give with the κ term dropped; @used: the largest share of the
 * κ term the truth needed there (1: all of it) */
typedef struct
{
  guint  n_checks;
  guint  n_windows;
  double widest;
  double width_sum;
  guint  n_widths;
  guint  n_flat;
  double used;
} Stats;

/* @rates with κ = 0: what the windows' relaxed slopes alone say. */
static SlRates *
rates_without_kappa (const SlRates *rates)
{
  guint n = sl_rates_get_n (rates);
  g_autofree SlRateWindow *w = g_new (SlRateWindow, n);

  for (guint i = 0; i < n; i++)
    {
      w[i] = *sl_rates_get (rates, i);
      w[i].kappa = 0;
    }
  return sl_rates_new (w, n);
}

/* How far @truth lies outside [@flo, @fhi] (the interval without the κ
 * term) as a share of what the κ term adds on that side ([@lo, @hi]);
 * 0 inside. */
static double
kappa_used (double truth,
            double lo,
            double hi,
            double flo,
            double fhi)
{
  if (truth < flo)
    return (flo - truth) / (flo - lo);
  if (truth > fhi)
    return (truth - fhi) / (hi - fhi);
  return 0;
}

/* Every accurate window of every link: the truth within the link's
 * interval at its ends, its middle and 7 instants between, and just
 * outside it; and whether it would be without the κ term. */
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
      SlRates *flat;

      sl_engine_get_link_info (e, l, &li);
      if (rel == NULL || li.quality != SL_QUALITY_ACCURATE)
        continue;
      rates = sl_relation_get_rates (rel);
      g_assert_nonnull (rates);
      g_assert_cmpuint (sl_rates_get_n (rates), >, 0);
      flat = rates_without_kappa (rates);
      for (guint i = 0; i < sl_rates_get_n (rates); i++)
        {
          const SlRateWindow *w = sl_rates_get (rates, i);

          for (int j = -1; j <= 9; j++)
            {
              gint64 x = w->u + (gint64) ((double) (w->v - w->u) * j / 8);
              double lo, hi, flo, fhi, used, truth = true_drift (sim, start, li.a, li.b, x);

              g_assert_true (sl_relation_rate_at (rel, x, 0, &lo, &hi));
              g_assert_true (sl_rates_at (flat, x, 0, &flo, &fhi));
              used = kappa_used (truth + 1, lo, hi, flo, fhi);
              st->n_flat += used > 0;
              st->used = MAX (st->used, used);
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
      sl_rates_free (flat);
    }
}

/* An engine assuming rates change by @drift_change_ppm_s a second, and
 * @so set to the simulation's defaults with @seed and @duration_ns. */
static SlEngine *
engine_for_sim (double        drift_change_ppm_s,
                guint64       seed,
                gint64        duration_ns,
                SlSimOptions *so)
{
  SlEngineOptions eo;

  sl_engine_options_init (&eo);
  eo.drift_change = drift_change_ppm_s * 1e-6;
  sl_sim_options_init (so);
  so->seed = seed;
  so->duration_ns = duration_ns;
  return sl_engine_new (&eo);
}

/* Every packet of @sim into @e. */
static void
feed (SlEngine *e,
      SlSim    *sim)
{
  SlPacketEvent ev;
  gint64 t;

  while (sl_sim_next (sim, &ev, &t))
    sl_engine_add_packet (e, &ev, t);
  sl_engine_flush (e);
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
  SlSimOptions so;
  g_autoptr(SlSim) sim = NULL;
  SlEngine *e = engine_for_sim (drift_change_ppm_s, seed, minutes * 60 * G_GINT64_CONSTANT (1000000000), &so);

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
  feed (e, sim);
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
  g_test_message ("wandering: %u windows, %u instants (outside [lo, hi] without the kappa term: %u, by up to %.3f "
                  "of it); interval %.3f ppm wide in a window's middle on "
                  "average, %.3f at most", st.n_windows, st.n_checks, st.n_flat, st.used, st.width_sum / st.n_widths * 1e6,
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

/* @edge: the truth's smallest distance to its interval's nearer end, as a
 * share of the interval's width (0: on it) */
typedef struct
{
  guint  n_checks;
  guint  n_hops;
  double widest;
  double width_sum;
  guint  n_widths;
  double edge;
  double edge2;
} HostStats;

/* Every host but the references: its interval, through its path, holds
 * the true rate against its reference where its drift is read and every
 * @step ns until @end_true (true time). */
static void
check_hosts (SlEngine    *e,
             const SlSim *sim,
             gint64       start,
             gint64       end_true,
             gint64       step,
             guint        sc,
             HostStats   *st)
{
  guint n = sl_engine_get_n_hosts (e);
  g_autoptr(GArray) links = g_array_new (FALSE, TRUE, sizeof (SlReportLink));
  g_autoptr(GPtrArray) lrels = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
  g_autoptr(GPtrArray) hrels = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
  g_autoptr(GHashTable) pairs = NULL;
  g_autofree gint64 *starts = g_new (gint64, n);

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
      end = sl_relation_preimage (hi.relation, end_true);
      for (gint64 x = at, k = 0; x <= end; x = at + ++k * step)
        {
          double lo, hi_, truth = true_drift (sim, start, h, hi.reference, x);
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
          st->edge = MIN (st->edge, MIN (truth - lo, hi_ - truth) / (hi_ - lo));
          if (hi.path->len > 2)
            st->edge2 = MIN (st->edge2, MIN (truth - lo, hi_ - truth) / (hi_ - lo));
          if (k == 0)
            {
              st->widest = MAX (st->widest, (hi_ - lo) / (hi.path->len - 1));
              st->width_sum += hi_ - lo;
              st->n_widths++;
              st->n_hops += hi.path->len - 1;
            }
          st->n_checks++;
        }
      sl_host_info_clear (&hi);
    }
}

/* Random clusters as /report/drift-on-path has them (4–7 hosts whose
 * clocks wander up to 5 ppm, tree links that start 2–40 s in): each
 * host's interval, through its path, holds the true rate (check_hosts())
 * every 4 s over its 2 minutes (every piece of its map), and is not
 * trivially wide. */
static void
test_hosts (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (90);
  HostStats st = { 0, 0, 0, 0, 0, 1, 1 };

  for (guint sc = 0; sc < 6; sc++)
    {
      SlSimOptions so;
      g_autoptr(SlSim) sim = NULL;
      SlEngine *e = sl_engine_new (NULL);
      guint n = g_rand_int_range (rand, 4, 8);

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
      feed (e, sim);
      check_hosts (e, sim, so.start_ns, so.start_ns + so.duration_ns, G_GINT64_CONSTANT (4000000000), sc, &st);
      sl_engine_free (e);
    }
  g_test_message ("%u hosts (%u hops), %u instants; interval where the drift is read %.3f ppm wide on average, "
                  "%.3f ppm a hop at most", st.n_widths, st.n_hops, st.n_checks, st.width_sum / st.n_widths * 1e6,
                  st.widest * 1e6);
  g_assert_cmpuint (st.n_widths, >=, 20);
  g_assert_cmpfloat (st.widest * 1e6, <, 30);
}

/* The worst case of the κ term (sl-rates.c): a chain of @n hosts h0 – h1
 * – … whose clocks' rates change steadily as fast as the assumption
 * allows (@drift_change_ppm_s a second), in turn up and down, so that
 * every link has |f''| = κ/(1+max_drift)⁴ across every window; packets
 * every 5 ms with 2 ns of latency and 1 ns of jitter both ways (tight
 * hulls; timestamps are whole ns, so at 0 latency a packet may land on
 * the wrong side of the true map), @seconds long. Every window of every
 * link checked (check_links()), and every host every 250 ms
 * (check_hosts(): in a chain of 5, h2 is the reference and h0 and h4 are
 * 2 hops away, h4 through links run backwards). */
static void
curved_chain (guint      n,
              double     drift_change_ppm_s,
              int        seconds,
              guint64    seed,
              Stats     *st,
              HostStats *hs)
{
  SlSimOptions so;
  g_autoptr(SlSim) sim = NULL;
  SlEngine *e = engine_for_sim (drift_change_ppm_s, seed, seconds * G_GINT64_CONSTANT (1000000000), &so);

  so.min_latency_ns = 2;
  so.mean_extra_latency_ns = 1;
  sim = sl_sim_new (&so);
  for (guint h = 0; h < n; h++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "h%u", h);
      sl_sim_add_host (sim, name, (gint64) h * 987654321, (h * 13.0 - 20) * 1e-6);
      sl_sim_set_host_ramp (sim, h, (h % 2 == 0 ? 1 : -1) * drift_change_ppm_s * 1e-6);
      sl_engine_add_host (e, name);
      if (h > 0)
        sl_sim_add_link (sim, h - 1, h, 200);
    }
  feed (e, sim);
  check_links (e, sim, so.start_ns, st);
  check_hosts (e, sim, so.start_ns, so.start_ns + so.duration_ns, 250000000, 0, hs);
  sl_engine_free (e);
}

/* The κ term is needed, nearly all of it: on the worst case the truth
 * leaves the windows' relaxed slopes [lo, hi] at a window's ends and
 * beyond by up to 1/(1+max_drift)⁴ of κ·g, and a host's interval through
 * its path nearly reaches the truth; with the term, the truth is inside. */
static void
test_curvature (void)
{
  Stats st = { 0 };
  HostStats hs = { 0, 0, 0, 0, 0, 1, 1 };

  curved_chain (2, 0.1, 60, 5, &st, &hs);
  curved_chain (5, 0.1, 40, 6, &st, &hs);
  g_test_message ("steady rate change: %u windows, %u instants; outside [lo, hi] at %u, by up to %.3f of the "
                  "kappa term; interval %.3f ppm wide in a window's middle on average", st.n_windows, st.n_checks,
                  st.n_flat, st.used, st.width_sum / st.n_widths * 1e6);
  g_test_message ("%u hosts (%u hops), %u instants; truth within %.4f of its interval's width from an end "
                  "(%.4f on 2 hops)", hs.n_widths, hs.n_hops, hs.n_checks, hs.edge, hs.edge2);
  g_assert_cmpuint (st.n_windows, >=, 100);
  g_assert_cmpuint (st.n_flat, >, st.n_checks / 2);
  g_assert_cmpfloat (st.used, >, 0.8);
  g_assert_cmpuint (hs.n_hops, ==, 7);
  g_assert_cmpfloat (hs.edge2, <, 0.2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rates/links", test_links);
  g_test_add_func ("/rates/hosts", test_hosts);
  g_test_add_func ("/rates/curvature", test_curvature);
  return g_test_run ();
}
