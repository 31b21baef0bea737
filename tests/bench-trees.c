/* bench-trees.c: minimum spanning tree against shortest-path trees, by the
 * host bounds they give on simulated clusters (README, "Tree and
 * reference"); not a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sl-compare.h"
#include "sl-engine.h"
#include "sl-sim.h"

#define SEC G_GINT64_CONSTANT (1000000000)

typedef struct
{
  double median;
  double p90;
  double max;
  double worst_error;
  guint  synchronized;
  guint  unbounded;
  double cpu_s;
} Result;

/* A cluster: a random tree of links plus n/2 more, rates 2–100 packets/s,
 * a third of the links active in a part of the trace only, clocks ±100 ppm
 * wandering by up to 2 ppm. The same seed gives the same cluster. */
static SlSim *
make_cluster (guint   n,
              guint32 seed,
              gint64  duration,
              gint64 *start)
{
  GRand *rand = g_rand_new_with_seed (seed);
  SlSimOptions so;
  SlSim *sim;

  sl_sim_options_init (&so);
  so.seed = seed;
  so.duration_ns = duration;
  so.loss = 0.01;
  so.duplicate = 0.01;
  sim = sl_sim_new (&so);
  *start = so.start_ns;
  for (guint h = 0; h < n; h++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "h%03u", h);
      sl_sim_add_host (sim, name, (gint64) g_rand_double_range (rand, -1e12, 1e12),
                       g_rand_double_range (rand, -100e-6, 100e-6));
      sl_sim_set_host_wander (sim, h, g_rand_double_range (rand, 0, 2e-6), g_rand_double_range (rand, 600, 3600));
    }
  for (guint k = 1; k < n + n / 2; k++)
    {
      guint a = (guint) (k < n ? g_rand_int_range (rand, 0, k) : g_rand_int_range (rand, 0, n));
      guint b = k < n ? k : (guint) g_rand_int_range (rand, 0, n);
      double rate = exp (g_rand_double_range (rand, log (2), log (100)));
      gint64 s = so.start_ns, e = so.start_ns + duration;

      if (a == b)
        continue;
      if (g_rand_int_range (rand, 0, 3) == 0)
        {
          gint64 u = (gint64) (g_rand_double (rand) * (double) duration * 0.8);

          s += u;
          e = s + duration / 5;
        }
      sl_sim_add_link_span (sim, a, b, rate, s, e);
    }
  g_rand_free (rand);
  return sim;
}

static void
run (guint       n,
     guint32     seed,
     gint64      duration,
     SlTreeKind  kind,
     Result     *r)
{
  gint64 t, start;
  SlSim *sim = make_cluster (n, seed, duration, &start);
  SlEngineOptions eo;
  SlEngine *engine;
  SlPacketEvent ev;
  g_autoptr(GArray) bounds = g_array_new (FALSE, FALSE, sizeof (double));
  double cpu0 = (double) clock () / CLOCKS_PER_SEC;

  sl_engine_options_init (&eo);
  eo.tree = kind;
  engine = sl_engine_new (&eo);
  for (guint h = 0; h < n; h++)
    sl_engine_add_host (engine, sl_sim_get_host (sim, h)->name);
  while (sl_sim_next (sim, &ev, &t))
    sl_engine_add_packet (engine, &ev, t);
  for (guint h = 0; h < n; h++)
    sl_engine_add_host_span (engine, h, sl_sim_local_time (sim, h, start), sl_sim_local_time (sim, h, start + duration));
  sl_engine_flush (engine);

  memset (r, 0, sizeof *r);
  for (guint h = 0; h < n; h++)
    {
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (engine, h, &hi);
      if (hi.synchronized)
        r->synchronized++;
      if (hi.synchronized && hi.reference != h)
        {
          if (!isfinite (hi.bound_ns))
            r->unbounded++;
          else
            g_array_append_val (bounds, hi.bound_ns);
          for (int i = 0; i <= 200; i++)
            {
              gint64 tt = start + duration * i / 200;
              double err = fabs ((double) (sl_relation_apply (hi.relation, sl_sim_local_time (sim, h, tt)) -
                                           sl_sim_local_time (sim, hi.reference, tt)));

              r->worst_error = MAX (r->worst_error, err);
            }
        }
      sl_host_info_clear (&hi);
    }
  r->cpu_s = (double) clock () / CLOCKS_PER_SEC - cpu0;
  g_array_sort (bounds, sl_compare_double);
  if (bounds->len > 0)
    {
      r->median = g_array_index (bounds, double, bounds->len / 2);
      r->p90 = g_array_index (bounds, double, bounds->len * 9 / 10);
      r->max = g_array_index (bounds, double, bounds->len - 1);
    }
  sl_engine_free (engine);
  sl_sim_free (sim);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *sizes = NULL;
  gint seeds = 3;
  gdouble duration_s = 120;
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes, "Host counts (default 10,20,50,100,200)", "N,…" },
    { "seeds", 0, 0, G_OPTION_ARG_INT, &seeds, "Clusters per size (default 3)", "K" },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration_s, "Seconds per cluster (default 120)", "S" },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("— MST against shortest-path trees, by host bounds");
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) list = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("bench-trees: %s\n", error->message);
      return 2;
    }
  list = g_strsplit (sizes != NULL ? sizes : "10,20,50,100,200", ",", -1);
  g_print ("hosts seed  tree           synchronized unbounded  median_us    p90_us    max_us  worst_true_error_us  cpu_s\n");
  for (guint i = 0; list[i] != NULL; i++)
    {
      guint n = (guint) g_ascii_strtoull (list[i], NULL, 10);

      for (gint s = 1; s <= seeds && n >= 2; s++)
        for (int k = 0; k < 2; k++)
          {
            SlTreeKind kind = k == 0 ? SL_TREE_MST : SL_TREE_SHORTEST_PATH;
            Result r;

            run (n, (guint32) (1000 * n + s), (gint64) (duration_s * 1e9), kind, &r);
            g_print ("%5u %4d  %-14s %12u %9u %10.2f %9.2f %9.2f %20.2f %6.2f\n", n, s, sl_tree_kind_to_string (kind),
                     r.synchronized, r.unbounded, r.median / 1e3, r.p90 / 1e3, r.max / 1e3, r.worst_error / 1e3, r.cpu_s);
          }
    }
  return 0;
}
