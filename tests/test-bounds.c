/* test-bounds.c: the reported bounds against the true clocks at every
 * sampled event, on random scenarios: links active in different parts of
 * the trace, handshake-only links, loss and duplicates
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-engine.h"
#include "sl-sim.h"

#define SEC G_GINT64_CONSTANT (1000000000)
#define SAMPLES 1000
#define MAX_HOSTS 50

typedef struct
{
  guint    min_hosts;
  guint    max_hosts;
  gint64   min_duration;
  gint64   max_duration;
  gboolean partial_links;
  double   wander_ppm;
  double   min_rate;
  double   max_rate;
  gboolean tight;
  gboolean steps;
  double   bad_matches;
  gboolean linreg;
} Kind;

typedef struct
{
  guint64 hosts_checked;
  guint64 samples;
  guint64 unbounded;
  guint64 pieces;
  double  worst_ratio;
} Stats;

/* A link's active span: all of it, a part, or a handshake (a burst of
 * 50 ms). */
static void
link_span (GRand  *rand,
           gint64  start,
           gint64  duration,
           gboolean partial,
           gint64 *s,
           gint64 *e)
{
  int kind = partial ? g_rand_int_range (rand, 0, 5) : 0;
  gint64 u = (gint64) (g_rand_double (rand) * (double) duration);
  gint64 v = (gint64) (g_rand_double (rand) * (double) duration);

  switch (kind)
    {
    case 1: /* the first part */
      *s = start;
      *e = start + MAX (u, duration / 20);
      break;
    case 2: /* the last part */
      *s = start + MIN (u, duration - duration / 20);
      *e = start + duration;
      break;
    case 3: /* somewhere in the middle */
      *s = start + MIN (u, v);
      *e = start + MAX (MAX (u, v), MIN (u, v) + duration / 20);
      break;
    case 4: /* the handshakes of a short connection */
      *s = start + MIN (u, duration - 50000000);
      *e = *s + 50000000;
      break;
    default:
      *s = start;
      *e = start + duration;
    }
}

static void
run_scenario (GRand      *rand,
              const Kind *k,
              Stats      *st)
{
  SlSimOptions so;
  g_autoptr(GArray) ref_of = NULL;
  SlEngineOptions eo;
  SlEngine *engine;
  SlSim *sim;
  guint n = g_rand_int_range (rand, k->min_hosts, k->max_hosts + 1);
  SlPacketEvent ev;
  double max_change = 0;
  gboolean adj[MAX_HOSTS][MAX_HOSTS] = { { FALSE } };
  gint64 t;

  g_assert_cmpuint (n, <=, MAX_HOSTS);
  sl_sim_options_init (&so);
  so.seed = g_rand_int (rand);
  so.duration_ns = (gint64) g_rand_double_range (rand, (double) k->min_duration, (double) k->max_duration);
  so.loss = g_rand_double_range (rand, 0, 0.02);
  so.duplicate = g_rand_double_range (rand, 0, 0.02);
  so.min_latency_ns = (gint64) g_rand_double_range (rand, 5000, 80000);
  so.mean_extra_latency_ns = g_rand_double_range (rand, 1000, 100000);
  sim = sl_sim_new (&so);
  for (guint h = 0; h < n; h++)
    {
      char name[16];
      double scale = pow (10, g_rand_double_range (rand, 3, 14));

      g_snprintf (name, sizeof name, "h%02u", h);
      sl_sim_add_host (sim, name, (gint64) (g_rand_double_range (rand, -1, 1) * scale),
                       g_rand_double_range (rand, -100e-6, 100e-6));
      /* crystals: up to wander_ppm over periods of 10 min to 2 h (at most
       * 0.052 ppm/s of rate change, within the default assumption) */
      if (k->wander_ppm > 0)
        {
          double w = g_rand_double_range (rand, 0, k->wander_ppm) * 1e-6, p = g_rand_double_range (rand, 600, 7200);

          sl_sim_set_host_wander (sim, h, w, p);
          max_change = MAX (max_change, w * 2 * G_PI / p);
        }
      /* a third of the hosts step forward or back by 0.5-5 ms once */
      if (k->steps && g_rand_int_range (rand, 0, 3) == 0)
        sl_sim_set_host_step (sim, h, so.start_ns + (gint64) (g_rand_double_range (rand, 0.1, 0.9) * (double) so.duration_ns),
                              (g_rand_boolean (rand) ? 1 : -1) * (gint64) g_rand_double_range (rand, 5e5, 5e6));
    }
  sl_engine_options_init (&eo);
  if (k->linreg)
    eo.algorithm = SL_ALGORITHM_LINREG;
  /* a tight assumption: the largest rate change the clocks really have */
  if (k->tight)
    eo.drift_change = max_change * 1.001;
  engine = sl_engine_new (&eo);
  for (guint h = 0; h < n; h++)
    sl_engine_add_host (engine, sl_sim_get_host (sim, h)->name);
  for (guint h = 1; h < n; h++)
    {
      gint64 s, e;

      guint a = g_rand_int_range (rand, 0, h);

      link_span (rand, so.start_ns, so.duration_ns, k->partial_links, &s, &e);
      sl_sim_add_link_span (sim, a, h, g_rand_double_range (rand, k->min_rate, k->max_rate), s, e);
      adj[a][h] = adj[h][a] = TRUE;
    }
  for (guint x = 0; x < n / 2; x++)
    {
      guint a = g_rand_int_range (rand, 0, n), b = g_rand_int_range (rand, 0, n);
      gint64 s, e;

      if (a == b)
        continue;
      link_span (rand, so.start_ns, so.duration_ns, k->partial_links, &s, &e);
      sl_sim_add_link_span (sim, a, b, g_rand_double_range (rand, k->min_rate, k->max_rate), s, e);
      adj[a][b] = adj[b][a] = TRUE;
    }

  while (sl_sim_next (sim, &ev, &t))
    {
      sl_engine_add_packet (engine, &ev, t);
      /* a wrong match now and then, on a link that exists (the matcher
       * pairs packets of one connection; a link made of wrong matches
       * alone would be indistinguishable from a real one): a receive 3 ms
       * before its send */
      if (k->bad_matches > 0 && ev.dir == SL_PACKET_RECV && g_rand_double (rand) < k->bad_matches)
        {
          SlMatch m = { 0 };
          guint other = (ev.host + 1 + g_rand_int_range (rand, 0, n - 1)) % n;

          while (!adj[ev.host][other])
            other = (other + 1) % n;

          m.send_host = other;
          m.recv_host = ev.host;
          m.send_time = sl_sim_local_time (sim, other, t);
          m.recv_time = ev.time - 3000000;
          sl_engine_add_match (engine, &m, t);
        }
    }
  sl_engine_flush (engine);

  /* every host has events from the start to the end of the trace */
  for (guint h = 0; h < n; h++)
    sl_engine_add_host_span (engine, h, sl_sim_local_time (sim, h, so.start_ns),
                             sl_sim_local_time (sim, h, so.start_ns + so.duration_ns));

  for (guint h = 0; h < n; h++)
    {
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (engine, h, &hi);
      if (hi.reference == h)
        {
          sl_host_info_clear (&hi);
          continue;
        }
      if (!isfinite (hi.bound_ns))
        {
          if (g_getenv ("SL_TEST_VERBOSE") != NULL)
            g_test_message ("host %u unbounded: %s", h, hi.reason);
          st->unbounded++;
          sl_host_info_clear (&hi);
          continue;
        }
      st->hosts_checked++;
      /* the estimate is strictly increasing, and continuous where no
       * clock stepped: one host's events never reorder */
      for (guint i = 0; i < sl_relation_get_n_pieces (hi.relation); i++)
        {
          SlTransform map;
          gint64 at = sl_relation_get_piece (hi.relation, i, &map);

          if (!(sl_transform_get_slope (&map) > 0))
            g_error ("host %u: piece %u has slope %.9f", h, i, sl_transform_get_slope (&map));
          if (i > 0 && !k->steps)
            {
              gint64 jump = sl_relation_apply (hi.relation, at) - sl_relation_apply (hi.relation, at - 1);

              if (jump < 0 || jump > 3)
                g_error ("host %u: the estimate jumps by %" G_GINT64_FORMAT " ns at piece %u", h, jump, i);
            }
          st->pieces++;
        }
      for (int i = 0; i <= SAMPLES + (int) n * 400; i++)
        {
          gint64 tt = so.start_ns + (gint64) ((__int128) so.duration_ns * i / SAMPLES);

          /* then densely around every host's clock step */
          if (i > SAMPLES)
            {
              const SlSimHost *sh = sl_sim_get_host (sim, (i - SAMPLES - 1) / 400);

              if (sh->step_at == 0)
                continue;
              tt = sh->step_at - 100000000 + (gint64) ((i - SAMPLES - 1) % 400) * 500000;
              if (tt < so.start_ns || tt > so.start_ns + so.duration_ns)
                continue;
            }
          gint64 x = sl_sim_local_time (sim, h, tt);
          gint64 y = sl_sim_local_time (sim, hi.reference, tt);
          double err = fabs ((double) (sl_relation_apply (hi.relation, x) - y));
          double b = sl_relation_bound_at (hi.relation, x);

          /* 2 ns: both clocks' readings are rounded to the ns */
          if ((!(err <= b + 2) || !(b <= hi.bound_ns)) && g_getenv ("SL_TEST_VERBOSE") != NULL)
            {
              for (guint z = 0; z < n; z++)
                g_printerr ("host %u: step %+.6f ms at +%.6f s (a-local +%.6f)\n", z, sl_sim_get_host (sim, z)->step_ns / 1e6,
                            (double) (sl_sim_get_host (sim, z)->step_at - so.start_ns) / 1e9,
                            (double) (sl_sim_local_time (sim, z, sl_sim_get_host (sim, z)->step_at - 1) - sl_sim_local_time (sim, z, so.start_ns)) / 1e9);
              for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
                {
                  SlLinkInfo li;
                  SlSegments *sg = sl_engine_get_link_segments (engine, l);

                  sl_engine_get_link_info (engine, l, &li);
                  g_printerr ("link %u-%u %s in_tree %d windows %u\n", li.a, li.b, sl_quality_to_string (li.quality), li.in_tree,
                              sl_segments_get_n_windows (sg));
                  for (guint wi = 0; wi < sl_segments_get_n_windows (sg); wi++)
                    {
                      SlWindowInfo wf;
                      double o = (double) sl_sim_local_time (sim, li.a, so.start_ns);

                      sl_segments_get_window (sg, wi, &wf);
                      if (wf.failed_after || (wi > 0 && wf.valid_start != wf.start))
                        g_printerr ("   window %u %.6f..%.6f valid %.6f..%.6f %s%s\n", wi, (wf.start - o) / 1e9, (wf.end - o) / 1e9,
                                    (wf.valid_start - o) / 1e9, (wf.valid_end - o) / 1e9, sl_quality_to_string (wf.quality),
                                    wf.failed_after ? " failed-after" : "");
                    }
                  for (guint fi = 0; fi < sl_segments_get_n_failures (sg); fi++)
                    {
                      SlFailureInfo f;

                      sl_segments_get_failure (sg, fi, &f);
                      g_printerr ("   failure %d %.6f..%.6f\n", f.kind, (double) (f.from - sl_sim_local_time (sim, li.a, so.start_ns)) / 1e9,
                                  (double) (f.to - sl_sim_local_time (sim, li.a, so.start_ns)) / 1e9);
                    }
                }
              g_printerr ("host %u x=+%.6f (a-local rel)\n", h, (double) (x - sl_sim_local_time (sim, h, so.start_ns)) / 1e9);
            }
          if (!(err <= b + 2) || !(b <= hi.bound_ns))
            g_error ("host %u (reference %u, %u hops) at +%.6f s: error %.1f ns, bound there %.1f ns, "
                     "host bound %.1f ns", h, hi.reference, hi.path->len - 1,
                     (double) (tt - so.start_ns) / 1e9, err, b, hi.bound_ns);
          st->worst_ratio = MAX (st->worst_ratio, b > 0 ? err / b : 0);
          st->samples++;
        }
      sl_host_info_clear (&hi);
    }

  sl_engine_free (engine);
  sl_sim_free (sim);
}

static void
run_kind (const Kind *k,
          guint       scenarios,
          guint64     seed)
{
  GRand *rand;
  Stats st = { 0 };

  /* SL_TEST_SEED=N runs other scenarios of the same kinds */
  if (g_getenv ("SL_TEST_SEED") != NULL)
    seed += g_ascii_strtoull (g_getenv ("SL_TEST_SEED"), NULL, 10) * 1000;
  rand = g_rand_new_with_seed ((guint32) seed);

  for (guint i = 0; i < scenarios; i++)
    run_scenario (rand, k, &st);
  g_test_message ("%" G_GUINT64_FORMAT " hosts checked at %" G_GUINT64_FORMAT " instants (%"
                  G_GUINT64_FORMAT " pieces), %" G_GUINT64_FORMAT " unbounded, largest error / bound %.3f",
                  st.hosts_checked, st.samples, st.pieces, st.unbounded, st.worst_ratio);
  g_assert_cmpuint (st.hosts_checked, >=, scenarios);
  g_rand_free (rand);
}

/* Links active in parts of the trace and handshake-only links: the bound
 * covers every instant of each host, beyond its links' packets. */
static void
test_partial_links (void)
{
  static const Kind k = { 2, 12, 1 * SEC, 120 * SEC, TRUE, 0, 5, 300 };

  run_kind (&k, 60, 1);
}

static void
test_whole_links (void)
{
  static const Kind k = { 2, 12, 1 * SEC, 60 * SEC, FALSE, 0, 5, 300 };

  run_kind (&k, 40, 2);
}

/* Clocks whose rates wander as crystals do, on traces of 10 minutes to 12
 * hours: no single line holds, the bound still does at every instant. */
static void
test_wander_long (void)
{
  static const Kind k = { 2, 4, 600 * SEC, 12 * 3600 * SEC, FALSE, 5, 2, 10 };

  run_kind (&k, 8, 3);
}

static void
test_wander_partial (void)
{
  static const Kind k = { 3, 8, 60 * SEC, 3600 * SEC, TRUE, 5, 5, 40 };

  run_kind (&k, 12, 4);
}

/* Linear regression's estimate (round trips of links with loss and
 * duplicates): its bound is the bands', and holds the same. */
static void
test_linreg (void)
{
  static const Kind k = { 2, 8, 60 * SEC, 3600 * SEC, TRUE, 3, 5, 40, FALSE, FALSE, 0, TRUE };

  run_kind (&k, 12, 7);
}

/* The assumption set to the largest rate change the clocks really have:
 * the bound still holds, with no margin to spare. */
static void
test_wander_tight (void)
{
  static const Kind k = { 2, 3, 1800 * SEC, 4 * 3600 * SEC, FALSE, 5, 20, 50, TRUE };

  run_kind (&k, 6, 6);
}

/* Clock steps forward and back (a third of the hosts) and wrong matches:
 * the bound still holds at every instant, around the steps too. */
static void
test_steps_and_bad_matches (void)
{
  static const Kind k = { 2, 8, 60 * SEC, 1800 * SEC, FALSE, 1, 20, 60, FALSE, TRUE, 2e-4 };

  run_kind (&k, 16, 7);
}

/* Many hosts, short traces. */
static void
test_many_hosts (void)
{
  static const Kind k = { 30, 50, 1 * SEC, 30 * SEC, TRUE, 2, 20, 100 };

  run_kind (&k, 4, 5);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/bounds/whole-links", test_whole_links);
  g_test_add_func ("/bounds/partial-links", test_partial_links);
  g_test_add_func ("/bounds/wander-long", test_wander_long);
  g_test_add_func ("/bounds/wander-partial", test_wander_partial);
  g_test_add_func ("/bounds/wander-tight", test_wander_tight);
  g_test_add_func ("/bounds/linreg", test_linreg);
  g_test_add_func ("/bounds/steps-and-bad-matches", test_steps_and_bad_matches);
  g_test_add_func ("/bounds/many-hosts", test_many_hosts);

  return g_test_run ();
}
