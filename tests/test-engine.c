/* test-engine.c: the whole engine against simulated clusters with known clocks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-engine.h"
#include "sl-engine-private.h"
#include "sl-lttv-text.h"
#include "sl-plot-data.h"
#include "sl-report.h"
#include "sl-sim.h"
#include "test-journal.h"
#include "test-util.h"

#define SEC G_GINT64_CONSTANT (1000000000)

typedef struct
{
  SlSim    *sim;
  SlEngine *engine;
  guint     n_hosts;
  guint    *component;   /* true connectivity over simulated links */
} Cluster;

static guint
uf_find (guint *p,
         guint  x)
{
  while (p[x] != x)
    x = p[x] = p[p[x]];
  return x;
}

/* Random hosts (offsets µs to days, drifts up to ±500 ppm) on a random
 * forest plus extra links; some hosts may stay alone. */
static void
cluster_init (Cluster               *c,
              GRand                 *rand,
              guint                  n_hosts,
              guint                  n_trees,
              guint                  n_extra,
              const SlEngineOptions *options,
              gint64                 duration)
{
  SlSimOptions so;

  sl_sim_options_init (&so);
  so.seed = g_rand_int (rand);
  so.duration_ns = duration;
  so.loss = 0.003;
  so.duplicate = 0.002;
  c->sim = sl_sim_new (&so);
  c->engine = sl_engine_new (options);
  c->n_hosts = n_hosts;
  c->component = g_new (guint, n_hosts);

  for (guint h = 0; h < n_hosts; h++)
    {
      char name[32];
      double scale = pow (10, g_rand_double_range (rand, 3, 14));
      gint64 off = (gint64) (g_rand_double_range (rand, -1, 1) * scale);

      g_snprintf (name, sizeof name, "host%03u", h);
      sl_sim_add_host (c->sim, name, off, g_rand_double_range (rand, -500e-6, 500e-6));
      sl_engine_add_host (c->engine, name);
      c->component[h] = h;
    }

  for (guint h = n_trees; h < n_hosts; h++)
    {
      guint parent = g_rand_int_range (rand, 0, h);
      sl_sim_add_link (c->sim, parent, h, g_rand_double_range (rand, 20, 300));
      c->component[uf_find (c->component, h)] = uf_find (c->component, parent);
    }
  for (guint k = 0; k < n_extra && n_hosts > 1; k++)
    {
      guint a = g_rand_int_range (rand, 0, n_hosts);
      guint b = g_rand_int_range (rand, 0, n_hosts);
      if (a == b)
        continue;
      sl_sim_add_link (c->sim, a, b, g_rand_double_range (rand, 5, 100));
      c->component[uf_find (c->component, a)] = uf_find (c->component, b);
    }
  for (guint h = 0; h < n_hosts; h++)
    c->component[h] = uf_find (c->component, h);
}

static void
cluster_run (Cluster *c)
{
  SlPacketEvent ev;
  gint64 t;

  while (sl_sim_next (c->sim, &ev, &t))
    sl_engine_add_packet (c->engine, &ev, t);
  sl_engine_flush (c->engine);
}

static void
cluster_clear (Cluster *c)
{
  sl_engine_free (c->engine);
  sl_sim_free (c->sim);
  g_free (c->component);
}

/* Every host's transform is within its bound of the truth, every host in a
 * connected group shares its reference, and tree links show no inversion. */
static guint
check_against_truth (Cluster *c,
                     gboolean guaranteed)
{
  SlSimOptions so;
  guint n_checked = 0;
  guint n_links = sl_engine_get_n_links (c->engine);
  g_autofree SlLinkInfo *links = g_new (SlLinkInfo, n_links);

  sl_sim_options_init (&so);
  for (guint l = 0; l < n_links; l++)
    sl_engine_get_link_info (c->engine, l, &links[l]);

  for (guint h = 0; h < c->n_hosts; h++)
    {
      SlHostInfo hi = { 0 };
      SlTransform truth;

      sl_engine_get_host_info (c->engine, h, &hi);
      g_assert_cmpuint (hi.path->len, >=, 1);
      g_assert_cmpuint (g_array_index (hi.path, guint, 0), ==, h);
      g_assert_cmpuint (g_array_index (hi.path, guint, hi.path->len - 1), ==, hi.reference);
      /* a reference is in the host's true group */
      g_assert_cmpuint (c->component[hi.reference], ==, c->component[h]);

      sl_sim_true_transform (c->sim, h, hi.reference, &truth);

      /* The bounds hold over the links' spans: check at the ends of the
       * true-time range that every link of the path covers. */
      {
        gint64 lo = so.start_ns, hi_t = so.start_ns + so.duration_ns;

        for (guint k = 0; k + 1 < hi.path->len; k++)
          {
            guint x = g_array_index (hi.path, guint, k), y = g_array_index (hi.path, guint, k + 1);

            for (guint l = 0; l < n_links; l++)
              {
                const SlLinkInfo li = links[l];

                if ((li.a == x && li.b == y) || (li.a == y && li.b == x))
                  {
                    SlTransform to_true, from_true;

                    /* span is on a's clock; go back to true time */
                    sl_transform_init (&from_true, so.start_ns,
                                       so.start_ns + sl_sim_get_host (c->sim, li.a)->offset_ns,
                                       0.0, sl_sim_get_host (c->sim, li.a)->drift);
                    sl_transform_invert (&from_true, &to_true);
                    lo = MAX (lo, sl_transform_apply (&to_true, li.span_start) + 1);
                    hi_t = MIN (hi_t, sl_transform_apply (&to_true, li.span_end) - 1);
                  }
              }
          }

        n_checked += lo <= hi_t;
        for (int k = 0; k < 2 && lo <= hi_t; k++)
          {
            gint64 tt = k == 0 ? lo : hi_t;
            gint64 local = sl_sim_local_time (c->sim, h, tt);
            double err = fabs ((double) (sl_transform_apply (&hi.to_reference, local) -
                                         sl_transform_apply (&truth, local)));
            if (guaranteed && !(err <= hi.bound_ns + 2.0))
              g_error ("host %u (ref %u, %u hops): error %.1f ns > bound %.1f ns",
                       h, hi.reference, hi.path->len - 1, err, hi.bound_ns);
          }
      }
      sl_host_info_clear (&hi);
    }

  for (guint l = 0; l < n_links; l++)
    {
      const SlLinkInfo li = links[l];

      if (li.in_tree)
        {
          g_assert_cmpint (li.quality, ==, SL_QUALITY_ACCURATE);
          if (guaranteed)
            {
              g_assert_true (li.inversions_known);
              g_assert_cmpuint (li.inversions, ==, 0);
            }
        }
    }
  return n_checked;
}

static void
test_clusters_hull (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  SlEngineOptions o;

  sl_engine_options_init (&o);
  for (guint iter = 0; iter < 24; iter++)
    {
      Cluster c;
      guint n = g_rand_int_range (rand, 2, 24);
      guint n_components = 0;

      cluster_init (&c, rand, n, g_rand_int_range (rand, 1, 3), g_rand_int_range (rand, 0, n), &o, 4 * SEC);
      cluster_run (&c);
      /* most paths share a common span (not all: a quiet link may start late) */
      g_assert_cmpuint (check_against_truth (&c, TRUE), >=, n * 3 / 4);

      /* One reference per true group: every link is busy enough for the
       * hull to be accurate within a few seconds. */
      for (guint h = 0; h < n; h++)
        {
          SlHostInfo hi = { 0 };
          sl_engine_get_host_info (c.engine, h, &hi);
          n_components += hi.reference == h;
          sl_host_info_clear (&hi);
        }
      {
        guint truth = 0;
        for (guint h = 0; h < n; h++)
          truth += c.component[h] == h;
        g_assert_cmpuint (n_components, ==, truth);
      }
      cluster_clear (&c);
    }
  g_rand_free (rand);
}

static void
test_clusters_variants (void)
{
  GRand *rand = g_rand_new_with_seed (12);

  for (guint v = 0; v < 3; v++)
    {
      SlEngineOptions o;
      Cluster c;

      sl_engine_options_init (&o);
      if (v == 0)
        o.tree = SL_TREE_SHORTEST_PATH;
      else
        {
          o.algorithm = SL_ALGORITHM_LINREG;
          o.linreg_confidence = v == 2 ? 0.9 : 0.0;
        }

      cluster_init (&c, rand, 12, 1, 6, &o, 4 * SEC);
      cluster_run (&c);
      /* linreg's estimate lies in the same guaranteed bands: checked too */
      check_against_truth (&c, TRUE);

      if (o.algorithm == SL_ALGORITHM_LINREG)
        for (guint l = 0; l < sl_engine_get_n_links (c.engine); l++)
          {
            SlLinkInfo li;
            SlTransform truth;

            sl_engine_get_link_info (c.engine, l, &li);
            g_assert_cmpint (li.quality, ==, SL_QUALITY_ACCURATE);
            g_assert_true (isfinite (li.e_r_ns));
            sl_sim_true_transform (c.sim, li.a, li.b, &truth);
            /* within 6 standard errors and 10 ppm */
            g_assert_cmpfloat (fabs (li.estimate.drift - truth.drift), <, MAX (6 * li.se_slope, 1e-5));
          }
      cluster_clear (&c);
    }
  g_rand_free (rand);
}

static void
test_pinned_reference (void)
{
  GRand *rand = g_rand_new_with_seed (13);
  SlEngineOptions o;
  Cluster c;

  sl_engine_options_init (&o);
  cluster_init (&c, rand, 8, 1, 0, &o, 2 * SEC);
  sl_engine_pin_reference (c.engine, 5);
  cluster_run (&c);
  for (guint h = 0; h < 8; h++)
    {
      SlHostInfo hi = { 0 };
      sl_engine_get_host_info (c.engine, h, &hi);
      g_assert_cmpuint (hi.reference, ==, 5);
      sl_host_info_clear (&hi);
    }
  check_against_truth (&c, TRUE);
  cluster_clear (&c);
  g_rand_free (rand);
}

/* The journal's ring against every entry written (issue 20): a ring of
 * at most 300 entries that grows and shrinks as it fills and empties,
 * without a retention, then with a long one, then a short one, over input
 * times in random steps. After each entry: every entry kept is the one
 * written under its number (values set since too), at most 300 are kept,
 * all within the retention behind the newest, and the one before the
 * first kept was out of it or the ring full. */
static void
test_journal_ring (void)
{
  const gint64 retentions[3] = { 0, 5000, 700 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20);
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SlChange));
  SlJournal *j = sl_journal_new (300);
  gint64 t = G_GINT64_CONSTANT (1700000000000000000);
  guint64 most = 0, fewest_dropped = G_MAXUINT64;

  for (guint phase = 0; phase < 3; phase++)
    {
      sl_journal_set_retention (j, retentions[phase]);
      for (guint i = 0; i < 4000; i++)
        {
          SlChange w = { 0 };
          guint64 first, next;

          /* bursts of equal times and gaps */
          t += g_rand_int_range (rand, 0, 4) == 0 ? g_rand_int_range (rand, 0, 200) : 0;
          sl_journal_set_time (j, t);
          w.seq = all->len;
          w.input_time = t;
          w.kind = (SlChangeKind) g_rand_int_range (rand, 0, SL_CHANGE_TRANSFORM + 1);
          w.a = g_rand_int_range (rand, 0, 50);
          w.b = g_rand_int_range (rand, 0, 50);
          w.value = g_rand_double (rand);
          sl_journal_add (j, w.kind, w.a, w.b, SL_QUALITY_ACCURATE, w.value, NULL);
          g_array_append_val (all, w);
          first = sl_journal_get_first_seq (j);
          next = sl_journal_get_next_seq (j);
          g_assert_cmpuint (next, ==, all->len);
          g_assert_cmpuint (next - first, >=, 1);
          g_assert_cmpuint (next - first, <=, 300);
          g_assert_cmpuint (sl_journal_get_n_dropped (j), ==, first);
          g_assert_null (sl_journal_get (j, next));
          if (first > 0)
            {
              g_assert_null (sl_journal_get (j, first - 1));
              g_assert_true (next - first == 300 ||
                             (retentions[phase] > 0 &&
                              g_array_index (all, SlChange, first - 1).input_time < t - retentions[phase]));
            }
          /* a value set late, on an entry kept and on one no longer kept */
          if (g_rand_int_range (rand, 0, 8) == 0)
            {
              guint64 s = first + g_rand_int_range (rand, 0, (gint32) (next - first));

              g_array_index (all, SlChange, s).value = -g_rand_double (rand);
              sl_journal_set_value (j, s, g_array_index (all, SlChange, s).value);
              if (first > 0)
                sl_journal_set_value (j, first - 1, 1e9);
            }
          for (guint64 s = first; s < next; s++)
            {
              const SlChange *c = sl_journal_get (j, s);
              const SlChange *e = &g_array_index (all, SlChange, s);

              g_assert_nonnull (c);
              g_assert_cmpuint (c->seq, ==, s);
              g_assert_cmpint (c->input_time, ==, e->input_time);
              g_assert_cmpint (c->kind, ==, e->kind);
              g_assert_cmpuint (c->a, ==, e->a);
              g_assert_cmpuint (c->b, ==, e->b);
              g_assert_cmpfloat (c->value, ==, e->value);
              if (retentions[phase] > 0)
                g_assert_cmpint (c->input_time, >=, t - retentions[phase]);
            }
          most = MAX (most, next - first);
          if (phase == 2 && i > 100)
            fewest_dropped = MIN (fewest_dropped, first);
        }
      g_test_message ("retention %" G_GINT64_FORMAT ": %" G_GUINT64_FORMAT " entries kept at the end",
                      retentions[phase], sl_journal_get_next_seq (j) - sl_journal_get_first_seq (j));
    }
  /* the ring was full, and the short retention kept far fewer */
  g_assert_cmpuint (most, ==, 300);
  g_assert_cmpuint (sl_journal_get_next_seq (j) - sl_journal_get_first_seq (j), <, 100);
  g_assert_cmpuint (fewest_dropped, >, 8000);
  sl_journal_free (j);
}

static void
test_journal (void)
{
  GRand *rand = g_rand_new_with_seed (14);
  SlEngineOptions o;
  SlJournal *j;
  Cluster c;
  guint edges_in = 0, references = 0, links = 0;
  gint64 last_time = G_MININT64;

  sl_engine_options_init (&o);
  cluster_init (&c, rand, 10, 1, 4, &o, 2 * SEC);
  cluster_run (&c);
  j = sl_engine_get_journal (c.engine);

  for (guint64 s = sl_journal_get_first_seq (j); s < sl_journal_get_next_seq (j); s++)
    {
      const SlChange *ch = sl_journal_get (j, s);

      g_assert_nonnull (ch);
      g_assert_cmpuint (ch->seq, ==, s);
      /* input times follow the merged input order */
      g_assert_cmpint (ch->input_time, >=, last_time);
      last_time = ch->input_time;
      edges_in += ch->kind == SL_CHANGE_TREE_EDGE_IN;
      references += ch->kind == SL_CHANGE_REFERENCE;
      links += ch->kind == SL_CHANGE_LINK;
    }
  /* 10 connected hosts: at least 9 edges joined, a reference was chosen */
  g_assert_cmpuint (edges_in, >=, 9);
  g_assert_cmpuint (references, >=, 1);
  g_assert_cmpuint (links, >=, sl_engine_get_n_links (c.engine));
  cluster_clear (&c);
  g_rand_free (rand);
}

/* What the engine decides depends on the input only: the same packets
 * read with queries at different paces (a job's snapshots come as CPU time
 * allows) give the same journal, byte for byte, and the same transforms,
 * for both trees. */
static char *
run_paced (SlTreeKind kind,
           SlAlgorithm algorithm,
           guint      pace)
{
  GRand *rand = g_rand_new_with_seed (15);
  GString *out = g_string_new (NULL);
  SlEngineOptions o;
  SlPacketEvent ev;
  g_autofree char *journal = NULL;
  guint64 n = 0;
  Cluster c;
  gint64 t;

  sl_engine_options_init (&o);
  o.tree = kind;
  o.algorithm = algorithm;
  cluster_init (&c, rand, 12, 1, 8, &o, 20 * SEC);
  sl_engine_set_flush_on_input (c.engine, TRUE);
  while (sl_sim_next (c.sim, &ev, &t))
    {
      sl_engine_add_packet (c.engine, &ev, t);
      if (pace != 0 && ++n % pace == 0)
        {
          for (guint l = 0; l < sl_engine_get_n_links (c.engine); l++)
            {
              SlLinkInfo li;

              sl_engine_get_link_info (c.engine, l, &li);
            }
          for (guint h = 0; h < c.n_hosts; h++)
            {
              SlHostInfo hi = { 0 };

              sl_engine_get_host_info (c.engine, h, &hi);
              sl_host_info_clear (&hi);
            }
        }
    }
  sl_engine_set_flush_on_input (c.engine, FALSE);
  sl_engine_flush (c.engine);

  journal = sl_test_journal_dump (sl_engine_get_journal (c.engine));
  g_string_append (out, journal);
  for (guint h = 0; h < c.n_hosts; h++)
    {
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (c.engine, h, &hi);
      g_string_append_printf (out, "host %u ref %u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %a %a %a\n",
                              h, hi.reference, hi.to_reference.origin, hi.to_reference.image,
                              hi.to_reference.image_frac, hi.to_reference.drift, hi.bound_ns);
      sl_host_info_clear (&hi);
    }
  cluster_clear (&c);
  g_rand_free (rand);
  return g_string_free (out, FALSE);
}

static void
test_query_pacing (void)
{
  static const guint paces[] = { 0, 7, 61, 997 };

  for (guint k = 0; k < 2; k++)
    for (guint a = 0; a < 2; a++)
      {
        SlTreeKind kind = k == 0 ? SL_TREE_MST : SL_TREE_SHORTEST_PATH;
        SlAlgorithm algorithm = a == 0 ? SL_ALGORITHM_HULL : SL_ALGORITHM_LINREG;
        g_autofree char *first = run_paced (kind, algorithm, paces[0]);

        g_test_message ("tree %d algorithm %d: %u journal lines", kind, algorithm, count_lines (first));
        g_assert_cmpuint (count_lines (first), >, 30);
        for (guint p = 1; p < G_N_ELEMENTS (paces); p++)
          {
            g_autofree char *other = run_paced (kind, algorithm, paces[p]);

            sl_test_assert_same_text (other, first);
          }
      }
}

static void
test_degenerate (void)
{
  SlEngineOptions o;
  SlEngine *e;
  SlHostInfo hi = { 0 };
  SlLinkInfo li;
  SlMatch m = { 0 };
  gint64 t = G_GINT64_CONSTANT (1700000000000000000);

  sl_engine_options_init (&o);

  /* one host, no packets */
  e = sl_engine_new (&o);
  sl_engine_add_host (e, "alone");
  sl_engine_get_host_info (e, 0, &hi);
  g_assert_cmpuint (hi.reference, ==, 0);
  g_assert_true (sl_transform_is_identity (&hi.to_reference) || hi.to_reference.drift == 0);
  g_assert_cmpfloat (hi.bound_ns, ==, 0);
  sl_host_info_clear (&hi);
  g_assert_cmpuint (sl_engine_get_n_links (e), ==, 0);
  sl_engine_free (e);

  /* one-way traffic: the link exists, is incomplete and not in the tree */
  e = sl_engine_new (&o);
  sl_engine_add_host (e, "a");
  sl_engine_add_host (e, "b");
  for (int i = 0; i < 50; i++)
    {
      m = (SlMatch) { 0, 1, t + i * 1000000, t + i * 1000000 + 3600 * SEC };
      sl_engine_add_match (e, &m, m.recv_time);
    }
  sl_engine_get_link_info (e, 0, &li);
  g_assert_cmpint (li.quality, ==, SL_QUALITY_INCOMPLETE);
  g_assert_false (li.in_tree);
  g_assert_true (isnan (li.weight));
  /* neither host is synchronized; b is placed on a's clock through the
   * incomplete link's estimate as a best effort, unbounded (it used to stay
   * on its own clock, an hour off, passing for a reference) */
  for (guint h = 0; h < 2; h++)
    {
      sl_engine_get_host_info (e, h, &hi);
      g_assert_false (hi.synchronized);
      g_assert_nonnull (strstr (hi.reason, "the link with"));
      g_assert_nonnull (strstr (hi.reason, "incomplete"));
      g_assert_cmpint (hi.best_effort, ==, h == 1);
      g_assert_cmpuint (hi.reference, ==, 0);
      if (h == 1)
        {
          g_assert_true (isinf (hi.bound_ns));
          /* the estimate is the zero-latency line: within the latency */
          g_assert_cmpint (llabs (sl_relation_apply (hi.relation, t + 3600 * SEC) - t), <, 2000000);
        }
      sl_host_info_clear (&hi);
    }
  /* pinned as the reference, b stays on its own clock and a is placed on
   * it (b used to be placed on a's clock: fuzz case 2171 of seed 1) */
  sl_engine_pin_reference (e, 1);
  for (guint h = 0; h < 2; h++)
    {
      sl_engine_get_host_info (e, h, &hi);
      g_assert_false (hi.synchronized);
      g_assert_cmpint (hi.best_effort, ==, h == 0);
      g_assert_cmpuint (hi.reference, ==, 1);
      if (h == 0)
        g_assert_cmpint (llabs (sl_relation_apply (hi.relation, t) - (t + 3600 * SEC)), <, 2000000);
      sl_host_info_clear (&hi);
    }
  sl_engine_free (e);

  /* a packet to oneself never makes a link */
  e = sl_engine_new (&o);
  sl_engine_add_host (e, "a");
  m = (SlMatch) { 0, 0, t, t + 10 };
  sl_engine_add_match (e, &m, t);
  g_assert_cmpuint (sl_engine_get_n_links (e), ==, 0);
  sl_engine_free (e);
}

/* 1000 hosts in a long chain with clocks days apart: all one group. */
static void
test_thousand_hosts (void)
{
  GRand *rand = g_rand_new_with_seed (15);
  SlEngineOptions o;
  Cluster c;
  SlSimOptions so;

  sl_engine_options_init (&o);
  sl_sim_options_init (&so);
  so.duration_ns = SEC / 2;
  c.sim = sl_sim_new (&so);
  c.engine = sl_engine_new (&o);
  c.n_hosts = 1000;
  c.component = g_new0 (guint, 1000);
  for (guint h = 0; h < 1000; h++)
    {
      char name[32];
      g_snprintf (name, sizeof name, "n%04u", h);
      sl_sim_add_host (c.sim, name, (gint64) g_rand_double_range (rand, -3 * 86400e9, 3 * 86400e9),
                       g_rand_double_range (rand, -100e-6, 100e-6));
      sl_engine_add_host (c.engine, name);
      if (h > 0)
        sl_sim_add_link (c.sim, h % 7 == 0 ? h / 2 : h - 1, h, 400);
    }
  cluster_run (&c);
  g_assert_cmpuint (check_against_truth (&c, TRUE), >=, 990);
  cluster_clear (&c);
  g_rand_free (rand);
}

/* LTTV text through the engine: the host transform is LTTV's factor. */
static void
test_lttv_engine (void)
{
  g_autofree char *path = sl_test_data_path ("lttv-sync-cases", "test2.txt", NULL);
  g_autoptr(GError) error = NULL;
  SlEngineOptions o;
  SlEngine *e;
  SlHostInfo hi = { 0 };
  SlLinkInfo li;

  if (path == NULL)
    return;

  sl_engine_options_init (&o);
  o.max_drift = 0.5;
  e = sl_engine_new (&o);
  g_assert_true (sl_lttv_text_load (e, path, &error));
  g_assert_no_error (error);
  sl_engine_pin_reference (e, sl_engine_find_host (e, "0"));

  sl_engine_get_link_info (e, 0, &li);
  g_assert_cmpint (li.quality, ==, SL_QUALITY_ACCURATE);
  g_assert_true (li.in_tree);
  g_assert_cmpuint (li.inversions, ==, 0);

  sl_engine_get_host_info (e, sl_engine_find_host (e, "1"), &hi);
  g_assert_cmpuint (hi.reference, ==, sl_engine_find_host (e, "0"));
  /* expected-lttv-chull.txt: trace 1 drift= 1.00344 offset= -5.418e+09 */
  g_assert_cmpfloat (fabs (sl_transform_get_slope (&hi.to_reference) - 1.00344), <, 1e-5);
  g_assert_cmpfloat (fabs (sl_transform_get_offset (&hi.to_reference) + 5.418e9), <, 1e5);
  sl_host_info_clear (&hi);
  sl_engine_free (e);
}

/* Inversion counts are cached per link and extended with new points
 * only: they must equal a recount over the kept points under the current
 * relations (all their pieces), through transform changes and point-store
 * compactions. */
static guint64
recount_inversions (SlEngine *e,
                    guint     link)
{
  SlLinkInfo li;
  SlHostInfo ha = { 0 }, hb = { 0 };
  guint64 n = 0;

  sl_engine_get_link_info (e, link, &li);
  sl_engine_get_host_info (e, li.a, &ha);
  sl_engine_get_host_info (e, li.b, &hb);
  for (int side = 0; side < 2; side++)
    {
      g_autoptr(GArray) pts = sl_engine_get_link_points (e, link, side == 0);

      for (guint i = 0; i < pts->len; i++)
        {
          const SlPoint *p = &g_array_index (pts, SlPoint, i);
          gint64 xa = sl_relation_apply (ha.relation, p->x);
          gint64 yb = sl_relation_apply (hb.relation, p->y);

          n += side == 0 ? yb < xa : xa < yb;
        }
    }
  sl_host_info_clear (&ha);
  sl_host_info_clear (&hb);
  return n;
}

static void
test_inversion_cache (void)
{
  SlEngineOptions o;
  SlEngine *e;
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  gint64 t = G_GINT64_CONSTANT (1700000000000000000);
  guint64 max_seen = 0;
  guint replaced = 0, walks = 0, accurate = 0;
  SlRelation *old[3] = { NULL, NULL, NULL };
  SlRelation *now[3];

  sl_engine_options_init (&o);
  o.max_points = 64;
  e = sl_engine_new (&o);
  sl_engine_add_host (e, "a");
  sl_engine_add_host (e, "b");
  sl_engine_add_host (e, "c");

  for (int round = 0; round < 50; round++)
    {
      for (int i = 0; i < 25; i++)
        {
          gint64 at = t + (round * 25 + i) * 1000000;
          gint64 ab = 20000 + g_rand_int_range (rand, 0, 20000);
          gint64 bc = 500 + g_rand_int_range (rand, 0, 500);
          gint64 ac = 1000 + g_rand_int_range (rand, 0, 4000);
          SlMatch m = { 0 };

          /* a–c (c = a − 2 ms) always; a–b (b = a + 1 ms, 20–40 µs)
           * until round 40; from round 20 b–c (c = b − 3.35 ms, 350 µs
           * off the path through a, and tighter than a–b), which takes
           * a–b's place in the tree: the transforms change path, so the
           * link whose points are inverted changes. From round 40 a–b
           * alone, slower (200–340 µs, inverted against the new path,
           * no bound of the tree changes): its store compacts under
           * unchanged transforms. */
          if (round < 40)
            {
              m = (SlMatch) { 0, 2, at, at - 2000000 + ac };
              sl_engine_add_match (e, &m, at);
              m = (SlMatch) { 2, 0, at - 2000000 + 10, at + 10 + ac };
              sl_engine_add_match (e, &m, at);
            }
          else
            ab = 200000 + g_rand_int_range (rand, 0, 140000);
          m = (SlMatch) { 0, 1, at + 20, at + 1000000 + 20 + ab };
          sl_engine_add_match (e, &m, at);
          m = (SlMatch) { 1, 0, at + 1000000 + 30, at + 30 + ab };
          sl_engine_add_match (e, &m, at);
          if (round >= 20 && round < 40)
            {
              m = (SlMatch) { 1, 2, at + 1350000 + 40, at - 2000000 + 40 + bc };
              sl_engine_add_match (e, &m, at);
              m = (SlMatch) { 2, 1, at - 2000000 + 50, at + 1350000 + 50 + bc };
              sl_engine_add_match (e, &m, at);
            }
        }
      sl_engine_flush (e);
      /* The links' rows and inversion counts keep no host relation: once
       * the graph has composed every host anew (no memo holds the old
       * versions), a relation replaced since the last capture is held by
       * this test alone, not by the links until the next capture. */
      for (guint h = 0; h < 3; h++)
        now[h] = sl_graph_get_relation (sl_engine_get_graph (e), h);
      for (guint h = 0; h < 3; h++)
        {
          if (old[h] != NULL && now[h] != old[h])
            {
              g_assert_cmpint (_sl_relation_get_refs (old[h]), ==, 1);
              replaced++;
            }
          g_clear_pointer (&now[h], sl_relation_unref);
        }
      if (g_test_verbose ())
        for (guint l = 0; l < sl_engine_get_n_links (e); l++)
          {
            SlLinkInfo li;

            sl_engine_get_link_info (e, l, &li);
            g_test_message ("round %d link %u-%u: in tree %d, inversions %" G_GUINT64_FORMAT,
                            round, li.a, li.b, li.in_tree, li.inversions);
          }
      /* a link's quality alone (a live status line's, at every update)
       * walks none of its points, and is its row's */
      {
        guint64 walked = _sl_engine_get_inversion_points (e);
        SlQuality q[3];

        g_assert_cmpuint (sl_engine_get_n_links (e), <=, G_N_ELEMENTS (q));
        for (guint l = 0; l < sl_engine_get_n_links (e); l++)
          q[l] = sl_engine_get_link_quality (e, l);
        g_assert_cmpuint (_sl_engine_get_inversion_points (e), ==, walked);
        for (guint l = 0; l < sl_engine_get_n_links (e); l++)
          {
            SlLinkInfo li;

            sl_engine_get_link_info (e, l, &li);
            g_assert_cmpint (q[l], ==, li.quality);
            accurate += li.quality == SL_QUALITY_ACCURATE;
          }
        walks += _sl_engine_get_inversion_points (e) > walked;
      }
      for (guint l = 0; l < sl_engine_get_n_links (e); l++)
        {
          SlLinkInfo li;

          sl_engine_get_link_info (e, l, &li);
          if (!li.inversions_known)
            continue;
          g_assert_cmpuint (li.inversions, ==, recount_inversions (e, l));
          max_seen = MAX (max_seen, li.inversions);
        }
      for (guint h = 0; h < 3; h++)
        {
          g_clear_pointer (&old[h], sl_relation_unref);
          old[h] = sl_graph_get_relation (sl_engine_get_graph (e), h);
        }
    }
  for (guint h = 0; h < 3; h++)
    g_clear_pointer (&old[h], sl_relation_unref);
  /* the test saw real inversions, so the counts were exercised */
  g_assert_cmpuint (max_seen, >, 0);
  g_assert_cmpuint (replaced, >, 0);
  /* the rows counted points (so the counter counts) and links were accurate */
  g_assert_cmpuint (walks, >, 0);
  g_assert_cmpuint (accurate, >, 0);
  sl_engine_free (e);
}

/* Two relations are the same bit for bit: pieces, maps and bound. */
static void
assert_relations_identical (const SlRelation *x,
                            const SlRelation *y)
{
  g_assert_cmpuint (sl_relation_get_n_pieces (x), ==, sl_relation_get_n_pieces (y));
  for (guint i = 0; i < sl_relation_get_n_pieces (x); i++)
    {
      SlTransform mx, my;

      g_assert_cmpint (sl_relation_get_piece (x, i, &mx), ==, sl_relation_get_piece (y, i, &my));
      g_assert_cmpmem (&mx, sizeof mx, &my, sizeof my);
    }
  g_assert_cmpmem (sl_relation_get_bounds (x), sl_relation_get_n_bounds (x) * sizeof (SlBoundPoint),
                   sl_relation_get_bounds (y), sl_relation_get_n_bounds (y) * sizeof (SlBoundPoint));
  g_assert_cmpint (sl_relation_get_bounded_beyond (x), ==, sl_relation_get_bounded_beyond (y));
}

/* The engine's matched points under a point retention (issue 20): a long
 * feed of three links through two engines, one keeping every point, one
 * with a retention of half a minute. At every flush (each second) the
 * second's links, hosts and journal are those of the first bit for bit
 * (the estimator never reads the points; the journal from the retention's
 * cut behind its newest entry), and what it keeps of each
 * direction is exactly the first's points from a cut that lies between
 * the retention and an eighth more behind the link's newest point:
 * bounded, nothing of the retention missing. Its inversion counts are
 * those of what it keeps. */
static void
test_point_retention (void)
{
  const gint64 retention = 30 * SEC, every = SEC;
  SlSimOptions so;
  SlEngineOptions o;
  g_autoptr(SlSim) sim = NULL;
  SlEngine *full, *kept;
  SlPacketEvent ev;
  gint64 t, next_flush;
  guint64 dropped = 0, seq = 0;
  gsize most_kept = 0;

  sl_sim_options_init (&so);
  so.duration_ns = 5 * 60 * SEC;
  so.loss = 0.003;
  so.duplicate = 0.002;
  so.seed = 20;
  sim = sl_sim_new (&so);
  sl_engine_options_init (&o);
  full = sl_engine_new (&o);
  o.point_retention_ns = retention;
  kept = sl_engine_new (&o);
  for (guint h = 0; h < 3; h++)
    {
      char name[8];

      g_snprintf (name, sizeof name, "h%u", h);
      sl_sim_add_host (sim, name, (gint64) h * 3 * SEC + 1234567, (h * 40.0 - 40.0) * 1e-6);
      sl_sim_set_host_wander (sim, h, 2e-6 * (h + 1), (h + 2) * 100.0);
      g_assert_cmpuint (sl_engine_add_host (full, name), ==, h);
      g_assert_cmpuint (sl_engine_add_host (kept, name), ==, h);
    }
  sl_sim_add_link (sim, 0, 1, 200);
  sl_sim_add_link (sim, 1, 2, 200);
  sl_sim_add_link (sim, 0, 2, 180);

  next_flush = so.start_ns + every;
  for (gboolean more = TRUE; more;)
    {
      more = sl_sim_next (sim, &ev, &t);
      if (more)
        {
          sl_engine_add_packet (full, &ev, t);
          sl_engine_add_packet (kept, &ev, t);
          if (t < next_flush)
            continue;
          next_flush += every;
        }
      sl_engine_flush (full);
      sl_engine_flush (kept);

      g_assert_cmpuint (sl_engine_get_n_links (kept), ==, sl_engine_get_n_links (full));
      for (guint l = 0; l < sl_engine_get_n_links (full); l++)
        {
          SlLinkInfo fi, ki;
          g_autoptr(SlRelation) fr = sl_engine_get_link_relation (full, l);
          g_autoptr(SlRelation) kr = sl_engine_get_link_relation (kept, l);
          g_autoptr(GArray) fp0 = sl_engine_get_link_points (full, l, TRUE);
          g_autoptr(GArray) fp1 = sl_engine_get_link_points (full, l, FALSE);
          GArray *fp[2] = { fp0, fp1 };
          gint64 newest = G_MININT64;

          sl_engine_get_link_info (full, l, &fi);
          sl_engine_get_link_info (kept, l, &ki);
          /* the estimate and bounds, bit for bit */
          g_assert_cmpint (fi.quality, ==, ki.quality);
          g_assert_cmpmem (&fi.estimate, sizeof fi.estimate, &ki.estimate, sizeof ki.estimate);
          g_assert_cmpmem (&fi.alpha_min, sizeof (double), &ki.alpha_min, sizeof (double));
          g_assert_cmpmem (&fi.alpha_max, sizeof (double), &ki.alpha_max, sizeof (double));
          g_assert_cmpmem (&fi.bound_ns, sizeof (double), &ki.bound_ns, sizeof (double));
          g_assert_cmpmem (&fi.band_ns, sizeof (double), &ki.band_ns, sizeof (double));
          g_assert_cmpmem (&fi.weight, sizeof (double), &ki.weight, sizeof (double));
          g_assert_cmpint (fi.span_start, ==, ki.span_start);
          g_assert_cmpint (fi.span_end, ==, ki.span_end);
          g_assert_cmpint (fi.in_tree, ==, ki.in_tree);
          g_assert_cmpuint (fi.hull_points[0], ==, ki.hull_points[0]);
          g_assert_cmpuint (fi.hull_points[1], ==, ki.hull_points[1]);
          g_assert_cmpuint (fi.points_dropped[0] + fi.points_dropped[1], ==, 0);
          g_assert_true ((fr == NULL) == (kr == NULL));
          if (fr != NULL)
            assert_relations_identical (fr, kr);
          /* counted over what is kept; not exact once some was dropped */
          g_assert_cmpint (ki.inversions_known, ==, fi.inversions_known);
          if (ki.inversions_known)
            {
              g_assert_cmpuint (ki.inversions, ==, recount_inversions (kept, l));
              g_assert_cmpuint (ki.inversions, <=, fi.inversions);
              g_assert_cmpint (ki.inversions_exact, ==, ki.points_dropped[0] + ki.points_dropped[1] == 0);
            }

          for (int d = 0; d < 2; d++)
            for (guint i = 0; i < fp[d]->len; i++)
              newest = MAX (newest, g_array_index (fp[d], SlPoint, i).x);
          for (int d = 0; d < 2; d++)
            {
              g_autoptr(GArray) kp = sl_engine_get_link_points (kept, l, d == 0);
              gint64 cut = newest - retention;
              guint j = 0;

              for (guint i = 0; i < kp->len; i++)
                cut = MIN (cut, g_array_index (kp, SlPoint, i).x);
              g_assert_cmpint (cut, >=, newest - retention - retention / 8);
              for (guint i = 0; i < fp[d]->len; i++)
                {
                  const SlPoint *p = &g_array_index (fp[d], SlPoint, i);

                  if (p->x < cut)
                    continue;
                  g_assert_cmpuint (j, <, kp->len);
                  g_assert_cmpint (p->x, ==, g_array_index (kp, SlPoint, j).x);
                  g_assert_cmpint (p->y, ==, g_array_index (kp, SlPoint, j).y);
                  j++;
                }
              g_assert_cmpuint (j, ==, kp->len);
              g_assert_cmpuint (kp->len + ki.points_dropped[d], ==, fp[d]->len);
              dropped += ki.points_dropped[d];
              most_kept = MAX (most_kept, kp->len);
            }
        }
      for (guint h = 0; h < 3; h++)
        {
          SlHostInfo fh = { 0 }, kh = { 0 };

          sl_engine_get_host_info (full, h, &fh);
          sl_engine_get_host_info (kept, h, &kh);
          g_assert_cmpuint (fh.reference, ==, kh.reference);
          g_assert_cmpmem (&fh.bound_ns, sizeof (double), &kh.bound_ns, sizeof (double));
          assert_relations_identical (fh.relation, kh.relation);
          sl_host_info_clear (&fh);
          sl_host_info_clear (&kh);
        }
      {
        SlJournal *fj = sl_engine_get_journal (full), *kj = sl_engine_get_journal (kept);

        guint64 next = sl_journal_get_next_seq (fj);
        gint64 cut = next > 0 ? sl_journal_get (fj, next - 1)->input_time - retention : G_MININT64;

        g_assert_cmpuint (next, ==, sl_journal_get_next_seq (kj));
        g_assert_cmpuint (sl_journal_get_first_seq (fj), ==, 0);
        /* the new entries at each flush (values set later: all at the end);
         * the journal follows the retention too: it keeps exactly the
         * entries from the cut behind the newest one's input time */
        if (!more)
          seq = sl_journal_get_first_seq (fj);
        for (; seq < next; seq++)
          {
            const SlChange *fc = sl_journal_get (fj, seq), *kc = sl_journal_get (kj, seq);

            g_assert_cmpint (kc == NULL, ==, fc->input_time < cut);
            g_assert_cmpint (kc == NULL, ==, seq < sl_journal_get_first_seq (kj));
            if (kc == NULL)
              continue;
            g_assert_cmpint (fc->input_time, ==, kc->input_time);
            g_assert_cmpint (fc->kind, ==, kc->kind);
            g_assert_cmpuint (fc->a, ==, kc->a);
            g_assert_cmpuint (fc->b, ==, kc->b);
            g_assert_cmpint (fc->quality, ==, kc->quality);
            g_assert_cmpmem (&fc->value, sizeof (double), &kc->value, sizeof (double));
            g_assert_cmpstr (fc->reason, ==, kc->reason);
          }
      }
    }
  /* the hull plot shows what is kept and counts what is not */
  for (guint l = 0; l < sl_engine_get_n_links (kept); l++)
    {
      g_autoptr(SlPlotData) fd = sl_plot_data_build (full, l);
      g_autoptr(SlPlotData) kd = sl_plot_data_build (kept, l);

      for (int d = 0; d < 2; d++)
        {
          g_assert_cmpuint (fd->n_dropped[d], ==, 0);
          g_assert_cmpuint (kd->n_dropped[d], >, 0);
          g_assert_cmpuint (kd->n_points[d] + kd->n_dropped[d], ==, fd->n_points[d]);
        }
    }
  /* the feed was long enough to drop, and a direction keeps about half a
   * minute of its ~100 points/s */
  g_assert_cmpuint (dropped, >, 0);
  g_assert_cmpuint (most_kept, <=, 100 * 34 * 1.2);
  g_assert_cmpuint (sl_journal_get_n_dropped (sl_engine_get_journal (kept)), >, 0);
  g_test_message ("most points kept in a direction: %" G_GSIZE_FORMAT "; journal entries %" G_GUINT64_FORMAT
                  ", the last %" G_GUINT64_FORMAT " kept", most_kept,
                  sl_journal_get_next_seq (sl_engine_get_journal (full)),
                  sl_journal_get_next_seq (sl_engine_get_journal (kept)) -
                  sl_journal_get_first_seq (sl_engine_get_journal (kept)));
  sl_engine_free (full);
  sl_engine_free (kept);
}

/* No host passes for a reference when it is not one: a host joined only by
 * an approximate link, one whose packets match nobody's, one without
 * packets. */
static void
test_unsynchronized (void)
{
  SlSimOptions so;
  SlSim *sim;
  SlEngine *e;
  SlPacketEvent ev;
  SlHostInfo hi = { 0 };
  gint64 t, t0;
  guint a, b;

  sl_sim_options_init (&so);
  so.duration_ns = 10 * SEC;
  sim = sl_sim_new (&so);
  e = sl_engine_new (NULL);
  a = sl_sim_add_host (sim, "a", 0, 20e-6);
  b = sl_sim_add_host (sim, "b", 3 * SEC, -15e-6);
  sl_engine_add_host (e, "a");
  sl_engine_add_host (e, "b");
  sl_engine_add_host (e, "c");
  sl_engine_add_host (e, "d");
  sl_engine_add_host (e, "e");
  sl_sim_add_link (sim, a, b, 200);
  while (sl_sim_next (sim, &ev, &t))
    sl_engine_add_packet (e, &ev, t);
  t0 = so.start_ns + 5 * SEC;

  /* c runs 5 ms ahead of b: b→c at 0 and 10 ms, c→b at 20 ms; no line
   * bounds the slope from above: approximate */
  {
    gint64 off = 5000000, lat = 60000;
    SlMatch m1 = { 1, 2, sl_sim_local_time (sim, b, t0), sl_sim_local_time (sim, b, t0) + off + lat };
    SlMatch m2 = { 1, 2, m1.send_time + 10000000, m1.recv_time + 10000000 };
    SlMatch m3 = { 2, 1, m1.recv_time + 20000000, m1.send_time + 20000000 + 2 * lat };

    sl_engine_add_match (e, &m1, t0);
    sl_engine_add_match (e, &m2, t0);
    sl_engine_add_match (e, &m3, t0);
  }
  /* d sends packets nobody receives */
  for (int i = 0; i < 5; i++)
    {
      SlPacketEvent p = { 0 };

      p.host = 3;
      p.dir = SL_PACKET_SEND;
      p.time = t0 + i;
      p.seq = 77 + i;
      sl_engine_add_packet (e, &p, t0);
    }
  sl_engine_flush (e);

  for (guint h = 0; h < 2; h++)
    {
      sl_engine_get_host_info (e, h, &hi);
      g_assert_true (hi.synchronized);
      g_assert_false (hi.best_effort);
      g_assert_cmpstr (hi.reason, ==, "");
      g_assert_true (isfinite (hi.bound_ns));
      sl_host_info_clear (&hi);
    }

  sl_engine_get_host_info (e, 2, &hi);
  g_assert_false (hi.synchronized);
  g_assert_true (hi.best_effort);
  g_assert_nonnull (strstr (hi.reason, "the link with b is approximate"));
  g_assert_nonnull (strstr (hi.reason, "placed on b's clock"));
  g_assert_true (isinf (hi.bound_ns));
  g_assert_cmpuint (hi.path->len, >=, 2);
  g_assert_cmpuint (g_array_index (hi.path, guint, 1), ==, 1);
  /* the best effort is near the truth: c = b + 5 ms */
  {
    SlHostInfo hb = { 0 };
    gint64 tc = sl_sim_local_time (sim, b, t0) + 5000000;

    sl_engine_get_host_info (e, 1, &hb);
    g_assert_cmpuint (hi.reference, ==, hb.reference);
    g_assert_cmpint (llabs (sl_relation_apply (hi.relation, tc) - sl_relation_apply (hb.relation, tc - 5000000)),
                     <, 200000);
    sl_host_info_clear (&hb);
  }
  sl_host_info_clear (&hi);

  sl_engine_get_host_info (e, 3, &hi);
  g_assert_false (hi.synchronized);
  g_assert_false (hi.best_effort);
  g_assert_cmpuint (hi.reference, ==, 3);
  g_assert_cmpstr (hi.reason, ==, "none of its 5 packet events matched a packet of another host");
  sl_host_info_clear (&hi);

  sl_engine_get_host_info (e, 4, &hi);
  g_assert_false (hi.synchronized);
  g_assert_cmpstr (hi.reason, ==, "no TCP packet event in its traces");
  sl_host_info_clear (&hi);

  g_assert_true (sl_engine_host_is_synchronized (e, 0));
  g_assert_false (sl_engine_host_is_synchronized (e, 2));
  sl_engine_free (e);
  sl_sim_free (sim);
}

/* A link's span ends at its newest matched packet at every flush, in
 * its first window as in later ones. */
static void
test_span_end (void)
{
  SlSimOptions so;
  SlEngineOptions o;
  g_autoptr(SlSim) sim = NULL;
  g_autoptr(SlEngine) engine = NULL;
  SlPacketEvent ev;
  gint64 t, next_flush;
  guint stale = 0, checked = 0;

  sl_sim_options_init (&so);
  so.duration_ns = 60 * SEC;
  so.seed = 7;
  sim = sl_sim_new (&so);
  sl_engine_options_init (&o);
  engine = sl_engine_new (&o);
  for (guint h = 0; h < 3; h++)
    {
      char name[8];

      g_snprintf (name, sizeof name, "h%u", h);
      sl_sim_add_host (sim, name, (gint64) h * 3 * SEC + 1234567, (h * 40.0 - 40.0) * 1e-6);
      g_assert_cmpuint (sl_engine_add_host (engine, name), ==, h);
    }
  sl_sim_add_link (sim, 0, 1, 2000);
  sl_sim_add_link (sim, 1, 2, 20);
  sl_sim_add_link (sim, 0, 2, 700);
  next_flush = so.start_ns + SEC / 3;
  for (gboolean more = TRUE; more;)
    {
      more = sl_sim_next (sim, &ev, &t);
      if (more)
        {
          sl_engine_add_packet (engine, &ev, t);
          if (t < next_flush)
            continue;
          next_flush += SEC / 3;
        }
      sl_engine_flush (engine);
      for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
        {
          SlLinkInfo info;
          gint64 newest = G_MININT64;

          sl_engine_get_link_info (engine, l, &info);
          for (int d = 0; d < 2; d++)
            {
              g_autoptr(GArray) pts = sl_engine_get_link_points (engine, l, d == 0);

              for (guint i = 0; i < pts->len; i++)
                newest = MAX (newest, g_array_index (pts, SlPoint, i).x);
            }
          if (info.matches == 0)
            continue;
          checked++;
          if (info.span_end != newest)
            {
              g_test_message ("link %u: span_end %" G_GINT64_FORMAT " newest %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT " behind), matches %" G_GUINT64_FORMAT,
                              l, info.span_end, newest, newest - info.span_end, info.matches);
              stale++;
            }
        }
    }
  g_test_message ("%u of %u stale", stale, checked);
  g_assert_cmpuint (stale, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/clusters-hull", test_clusters_hull);
  g_test_add_func ("/engine/clusters-variants", test_clusters_variants);
  g_test_add_func ("/engine/pinned-reference", test_pinned_reference);
  g_test_add_func ("/engine/journal", test_journal);
  g_test_add_func ("/engine/journal-ring", test_journal_ring);
  g_test_add_func ("/engine/query-pacing", test_query_pacing);
  g_test_add_func ("/engine/degenerate", test_degenerate);
  g_test_add_func ("/engine/unsynchronized", test_unsynchronized);
  g_test_add_func ("/engine/thousand-hosts", test_thousand_hosts);
  g_test_add_func ("/engine/lttv", test_lttv_engine);
  g_test_add_func ("/engine/inversion-cache", test_inversion_cache);
  g_test_add_func ("/engine/point-retention", test_point_retention);
  g_test_add_func ("/engine/span-end", test_span_end);

  return g_test_run ();
}
