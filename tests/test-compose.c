/* test-compose.c: hosts' relations, composed incrementally as links
 * change, and the links' rows, kept while their inputs stay the same,
 * against the same compositions and rows from scratch (bit for bit) at
 * every flush of live-like sessions whose clocks wander and step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-engine.h"
#include "sl-engine-private.h"
#include "sl-graph.h"
#include "sl-sim.h"

#define SEC G_GINT64_CONSTANT (1000000000)

typedef struct
{
  guint  max_hosts;
  gint64 duration;
  gint64 flush_every;
  double wander_ppm;
  double rate;
  gboolean steps;
} Kind;

typedef struct
{
  guint64 flushes;
  guint64 compared;
  guint64 pieces;
  guint64 bound_points;
  GChecksum *digest;
  guint64 rows;
  guint64 rows_same;
} Stats;

/* Every composition's bits, to compare builds (the same SHA-1 before and
 * after a change to the arithmetic means the same numbers). */
static void
digest_relation (GChecksum        *sum,
                 const SlRelation *rel)
{
  gboolean beyond = sl_relation_get_bounded_beyond (rel);

  for (guint i = 0; i < sl_relation_get_n_pieces (rel); i++)
    {
      SlTransform t;
      gint64 start = sl_relation_get_piece (rel, i, &t);

      g_checksum_update (sum, (const guchar *) &start, sizeof start);
      g_checksum_update (sum, (const guchar *) &t, sizeof t);
    }
  g_checksum_update (sum, (const guchar *) sl_relation_get_bounds (rel),
                     sl_relation_get_n_bounds (rel) * sizeof (SlBoundPoint));
  g_checksum_update (sum, (const guchar *) &beyond, sizeof beyond);
}

/* The link's relation walked from @from, as the graph walks it. */
static SlRelation *
hop_relation (SlEngine *engine,
              guint     from,
              guint     to)
{
  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlLinkInfo li;
      g_autoptr(SlRelation) rel = NULL;

      sl_engine_get_link_info (engine, l, &li);
      if (!((li.a == from && li.b == to) || (li.a == to && li.b == from)))
        continue;
      rel = sl_engine_get_link_relation (engine, l);
      if (rel == NULL)
        return NULL;
      return li.a == from ? g_steal_pointer (&rel) : sl_relation_invert (rel);
    }
  return NULL;
}

/* The host's relation to its reference composed from scratch along its
 * tree path, hop by hop from the reference down (NULL at the reference,
 * or where a tree link has no relation of its own). */
static SlRelation *
from_scratch (SlEngine *engine,
              guint     host,
              gboolean *linear)
{
  SlGraph *graph = sl_engine_get_graph (engine);
  guint parent = sl_graph_get_parent (graph, host);
  g_autoptr(SlRelation) up = NULL;
  g_autoptr(SlRelation) hop = NULL;

  if (parent == SL_HOST_NONE)
    return NULL;
  hop = hop_relation (engine, host, parent);
  if (hop == NULL)
    {
      *linear = TRUE;
      return NULL;
    }
  up = from_scratch (engine, parent, linear);
  if (*linear)
    return NULL;
  if (up == NULL)
    {
      SlTransform id;

      sl_transform_init_identity (&id);
      up = sl_relation_new_linear (&id, 0.0);
    }
  return sl_relation_compose (up, hop);
}

/* Every link's row as a capture asks for it (kept while its inputs stay
 * the same) against the row computed from scratch, bit for bit; @prev
 * holds the rows of the previous flush. */
static void
check_rows (SlEngine *engine,
            GArray   *prev,
            Stats    *st)
{
  guint n = sl_engine_get_n_links (engine);

  if (prev->len < n)
    g_array_set_size (prev, n);
  for (guint l = 0; l < n; l++)
    {
      SlLinkInfo got, want;

      sl_engine_get_link_info (engine, l, &got);
      memset (&want, 0, sizeof want);
      _sl_engine_get_link_info_from_scratch (engine, l, &want);
      if (memcmp (&got, &want, sizeof got) != 0)
        g_error ("flush %" G_GUINT64_FORMAT ", link %u (%u-%u): the row kept differs from the row "
                 "computed again (bound %.17g / %.17g ns, weight %.17g / %.17g, inversions %" G_GUINT64_FORMAT
                 " / %" G_GUINT64_FORMAT ", in tree %d / %d)",
                 st->flushes, l, got.a, got.b, got.bound_ns, want.bound_ns, got.weight, want.weight,
                 got.inversions, want.inversions, got.in_tree, want.in_tree);
      st->rows++;
      if (memcmp (&g_array_index (prev, SlLinkInfo, l), &got, sizeof got) == 0)
        st->rows_same++;
      g_array_index (prev, SlLinkInfo, l) = got;
    }
}

static void
check_all (SlEngine *engine,
           guint     n,
           GArray   *rows,
           Stats    *st)
{
  SlGraph *graph = sl_engine_get_graph (engine);

  sl_engine_flush (engine);
  st->flushes++;
  check_rows (engine, rows, st);
  for (guint h = 0; h < n; h++)
    {
      g_autoptr(SlRelation) got = sl_graph_get_relation (graph, h);
      g_autoptr(SlRelation) want = NULL;
      gboolean linear = FALSE;

      want = from_scratch (engine, h, &linear);
      if (want == NULL)
        continue;
      if (!sl_relation_equal (got, want))
        g_error ("flush %" G_GUINT64_FORMAT ", host %u: the incremental composition (%u pieces, %u bound points) "
                 "differs from the one from scratch (%u pieces, %u bound points)",
                 st->flushes, h, sl_relation_get_n_pieces (got), sl_relation_get_n_bounds (got),
                 sl_relation_get_n_pieces (want), sl_relation_get_n_bounds (want));
      digest_relation (st->digest, want);
      st->compared++;
      st->pieces += sl_relation_get_n_pieces (want);
      st->bound_points += sl_relation_get_n_bounds (want);
    }
}

static void
run_scenario (GRand      *rand,
              const Kind *k,
              Stats      *st)
{
  SlSimOptions so;
  SlEngineOptions eo;
  g_autoptr(SlEngine) engine = NULL;
  SlSim *sim;
  guint n = g_rand_int_range (rand, 3, k->max_hosts + 1);
  SlPacketEvent ev;
  gint64 t, next_flush;
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (SlLinkInfo));

  sl_sim_options_init (&so);
  so.seed = g_rand_int (rand);
  so.duration_ns = k->duration;
  so.loss = g_rand_double_range (rand, 0, 0.02);
  so.min_latency_ns = (gint64) g_rand_double_range (rand, 5000, 80000);
  so.mean_extra_latency_ns = g_rand_double_range (rand, 1000, 100000);
  sim = sl_sim_new (&so);
  for (guint h = 0; h < n; h++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "h%02u", h);
      sl_sim_add_host (sim, name, (gint64) g_rand_double_range (rand, -1e12, 1e12),
                       g_rand_double_range (rand, -100e-6, 100e-6));
      if (k->wander_ppm > 0)
        sl_sim_set_host_wander (sim, h, g_rand_double_range (rand, 0, k->wander_ppm) * 1e-6,
                                g_rand_double_range (rand, 600, 7200));
      if (k->steps && g_rand_int_range (rand, 0, 3) == 0)
        sl_sim_set_host_step (sim, h, so.start_ns + (gint64) (g_rand_double_range (rand, 0.1, 0.9) * (double) so.duration_ns),
                              (g_rand_boolean (rand) ? 1 : -1) * (gint64) g_rand_double_range (rand, 5e5, 5e6));
    }
  /* a chain and a few chords: paths several hops long that change */
  for (guint h = 1; h < n; h++)
    sl_sim_add_link (sim, h - 1, h, k->rate * g_rand_double_range (rand, 0.5, 1.5));
  for (guint x = 0; x < n / 2; x++)
    {
      guint a = g_rand_int_range (rand, 0, n), b = g_rand_int_range (rand, 0, n);

      if (a != b && (a > b ? a - b : b - a) > 1)
        sl_sim_add_link (sim, a, b, k->rate * g_rand_double_range (rand, 0.2, 1.0));
    }
  /* a chord that stops half way between hosts that go on: its row
   * follows their spans and relations */
  sl_sim_add_link_span (sim, 0, n - 1, k->rate, so.start_ns, so.start_ns + so.duration_ns / 2);
  /* and two hosts on their own whose link stops half way: from then on
   * their rows stay the same */
  sl_sim_add_host (sim, "q0", 0, 0);
  sl_sim_add_host (sim, "q1", (gint64) g_rand_double_range (rand, -1e12, 1e12),
                   g_rand_double_range (rand, -100e-6, 100e-6));
  sl_sim_add_link_span (sim, n, n + 1, k->rate, so.start_ns, so.start_ns + so.duration_ns / 2);
  n += 2;
  sl_engine_options_init (&eo);
  engine = sl_engine_new (&eo);
  for (guint h = 0; h < n; h++)
    sl_engine_add_host (engine, sl_sim_get_host (sim, h)->name);

  next_flush = so.start_ns + k->flush_every;
  while (sl_sim_next (sim, &ev, &t))
    {
      if (t >= next_flush)
        {
          check_all (engine, n, rows, st);
          next_flush += k->flush_every;
        }
      sl_engine_add_packet (engine, &ev, t);
    }
  check_all (engine, n, rows, st);
  sl_sim_free (sim);
}

static void
run_kind (const Kind *k,
          guint       scenarios,
          guint32     seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  Stats st = { 0 };

  st.digest = g_checksum_new (G_CHECKSUM_SHA1);
  for (guint i = 0; i < scenarios; i++)
    run_scenario (rand, k, &st);
  g_test_message ("%" G_GUINT64_FORMAT " flushes, %" G_GUINT64_FORMAT " host relations compared "
                  "(%.1f pieces, %.1f bound points on average), SHA-1 %s",
                  st.flushes, st.compared, (double) st.pieces / MAX (st.compared, 1),
                  (double) st.bound_points / MAX (st.compared, 1), g_checksum_get_string (st.digest));
  g_checksum_free (st.digest);
  g_test_message ("%" G_GUINT64_FORMAT " link rows compared, %" G_GUINT64_FORMAT " the same as at the previous flush",
                  st.rows, st.rows_same);
  g_assert_cmpuint (st.compared, >, 10 * scenarios);
  g_assert_cmpuint (st.rows_same, >, 0);
  g_assert_cmpuint (st.rows_same, <, st.rows);
}

/* Crystals wandering over an hour, a flush every 20 s of it. */
static void
test_wander (void)
{
  static const Kind k = { 7, 3600 * SEC, 20 * SEC, 20, 4 };

  run_kind (&k, 3, 1);
}

/* Clock steps forward and back (a third of the hosts). */
static void
test_steps (void)
{
  static const Kind k = { 7, 1200 * SEC, 10 * SEC, 2, 8, TRUE };

  run_kind (&k, 4, 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/compose/wander", test_wander);
  g_test_add_func ("/compose/steps", test_steps);

  return g_test_run ();
}
