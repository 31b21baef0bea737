/* bench-capture.c: a job's captures with and without the previous
 * capture's entries, on one generated read, side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-capture [HOSTS [SECONDS [PACKETS-PER-CAPTURE]]]: HOSTS simulated
 * hosts in a random tree with as many extra links, read as folders are
 * (flushes at input times); every PACKETS-PER-CAPTURE packet events the
 * engine is captured twice, from scratch and through the cache, in
 * alternating order, and the thread's processor time of each is summed.
 * Prints JSON.
 */

#include "config.h"

#include <stdlib.h>

#include "sl-cpu-time.h"
#include "sl-sim.h"
#include "sl-snapshot.h"

int
main (int   argc,
      char *argv[])
{
  guint n_hosts = argc > 1 ? (guint) atoi (argv[1]) : 300;
  gint64 seconds = argc > 2 ? atoi (argv[2]) : 20;
  guint every = argc > 3 ? (guint) atoi (argv[3]) : 20000;
  g_autoptr(GRand) rand = g_rand_new_with_seed (106);
  g_autoptr(SlSnapshotCache) cache = sl_snapshot_cache_new ();
  g_autoptr(SlSim) sim = NULL;
  SlSimOptions so;
  SlEngine *engine;
  SlPacketEvent ev;
  gint64 t, cpu[2] = { 0, 0 }, read_cpu = 0, t0;
  guint64 n = 0, reused = 0, drifts = 0, entries = 0;
  guint captures = 0;

  if (n_hosts < 2 || seconds < 1 || every < 1)
    {
      g_printerr ("usage: bench-capture [HOSTS>=2 [SECONDS>=1 [PACKETS-PER-CAPTURE>=1]]]\n");
      return 2;
    }
  sl_sim_options_init (&so);
  so.seed = 106;
  so.duration_ns = seconds * G_GINT64_CONSTANT (1000000000);
  sim = sl_sim_new (&so);
  engine = sl_engine_new (NULL);
  sl_engine_set_flush_on_input (engine, TRUE);
  for (guint h = 0; h < n_hosts; h++)
    {
      g_autofree char *name = g_strdup_printf ("host%04u", h);

      sl_sim_add_host (sim, name, g_rand_int_range (rand, -1000000, 1000000) * G_GINT64_CONSTANT (1000),
                       g_rand_double_range (rand, -100e-6, 100e-6));
      sl_engine_add_host (engine, name);
    }
  for (guint h = 1; h < n_hosts; h++)
    sl_sim_add_link (sim, g_rand_int_range (rand, 0, h), h, 20);
  for (guint k = 0; k < n_hosts; k++)
    {
      guint a = g_rand_int_range (rand, 0, n_hosts), b = g_rand_int_range (rand, 0, n_hosts);

      if (a != b)
        sl_sim_add_link (sim, a, b, 10);
    }

  t0 = sl_thread_cpu_us ();
  while (sl_sim_next (sim, &ev, &t))
    {
      sl_engine_add_packet (engine, &ev, t);
      if (++n % every != 0)
        continue;
      read_cpu += sl_thread_cpu_us () - t0;
      for (int k = 0; k < 2; k++)
        {
          /* alternate which goes first */
          gboolean cached = (k + captures) % 2 == 0;
          g_autoptr(SlSnapshot) snap = sl_snapshot_new ();
          gint64 c0 = sl_thread_cpu_us ();
          guint d;

          sl_snapshot_capture_engine_cached (snap, engine, 0, cached ? cache : NULL);
          cpu[cached] += sl_thread_cpu_us () - c0;
          if (cached)
            {
              reused += sl_snapshot_cache_get_reused (cache, &d);
              drifts += d;
              entries += snap->hosts->len;
            }
        }
      captures++;
      t0 = sl_thread_cpu_us ();
    }
  read_cpu += sl_thread_cpu_us () - t0;
  g_print ("{\"hosts\": %u, \"links\": %u, \"packet_events\": %" G_GUINT64_FORMAT ", \"captures\": %u, "
           "\"read_cpu_s\": %.3f, \"capture_cpu_s\": {\"scratch\": %.3f, \"cached\": %.3f}, "
           "\"entries_taken\": %.3f, \"drifts_taken\": %.3f}\n",
           n_hosts, sl_engine_get_n_links (engine), n, captures, read_cpu / 1e6, cpu[0] / 1e6, cpu[1] / 1e6,
           entries > 0 ? (double) reused / (double) entries : 0.0,
           entries > 0 ? (double) drifts / (double) entries : 0.0);
  sl_engine_free (engine);
  return 0;
}
