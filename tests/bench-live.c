/* bench-live.c: latency and throughput of live synchronization
 *
 * Real relay, real session daemons, simulated hosts (tests/live/). For
 * every update Syncline delivers, two latencies:
 *
 * - end to end: from the moment the newest packet event it reflects was
 *   written on its host (the truth: the host's trace clock mapped back to
 *   CLOCK_MONOTONIC by the harness) to the update;
 * - added by Syncline: from the moment babeltrace handed Syncline the
 *   oldest packet event of the update to the update (merge, engine,
 *   coalescing).
 *
 * The relay's own delivery latency is the difference. Throughput: the
 * packet events the engine got per second while the peers ran flat out,
 * against what the hosts wrote (read back from the relay's output with
 * Syncline's folder reader after the run).
 *
 * Prints one JSON object. Usage:
 *   bench-live [--timer-ms=100] [--duration=S] [--hosts=N] [--rate=HZ]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include "live/live-harness.h"
#include "live/live-watch.h"
#include "sl-compare.h"
#include "sl-live.h"
#include "sl-trace-reader.h"

#define SESSION "bench"

typedef struct
{
  gint64 made;
  gint64 last_fed;
} Sample;

/* the watch's hook data: under the watch's lock */
typedef struct
{
  GArray        *samples;
  GArray        *e2e_ms;
  GArray        *added_ms;
  SlHarnessHost *ref_host;
  const char    *ref_name;
  gint64         first_packet_at;
  gint64         last_update_at;
  gint64         mono_offset;
} Bench;

static void
update_hook (SlLiveWatch        *w,
             SlEngine           *engine,
             const SlLiveUpdate *u,
             gpointer            data)
{
  Bench *b = data;

  if (u->first_arrival != 0 && !u->final)
    {
      double added = (u->made - u->first_arrival) / 1000.0;

      g_array_append_val (b->added_ms, added);
      for (guint i = 0; i < u->hosts->len; i++)
        {
          const SlLiveHost *h = g_ptr_array_index (u->hosts, i);

          /* mapped to the truth after the run: the callback holds the
           * engine lock and must stay short */
          if (g_str_equal (h->hostname, b->ref_name) && h->last_fed != G_MININT64)
            {
              Sample smp = { u->made, h->last_fed };

              g_array_append_val (b->samples, smp);
            }
        }
      if (b->first_packet_at == 0)
        b->first_packet_at = u->made;
    }
  b->last_update_at = u->made;
}

static void
print_stats (const char *name,
             GArray     *v)
{
  g_array_sort (v, sl_compare_double);
  if (v->len == 0)
    {
      printf ("  \"%s\": null,\n", name);
      return;
    }
  printf ("  \"%s\": { \"n\": %u, \"median_ms\": %.2f, \"p95_ms\": %.2f, \"worst_ms\": %.2f },\n", name, v->len,
          g_array_index (v, double, v->len / 2), g_array_index (v, double, (guint) (v->len * 0.95)),
          g_array_index (v, double, v->len - 1));
}

static guint64
packets_written (const char *folder)
{
  g_autoptr(SlEngine) engine = sl_engine_new (NULL);
  g_autoptr(SlTraceReader) reader = sl_trace_reader_new (engine, NULL);
  guint64 total = 0;

  sl_trace_reader_add_folder (reader, folder);
  sl_trace_reader_run (reader);
  for (guint i = 0; i < sl_engine_get_n_hosts (engine); i++)
    {
      SlHostCounts c;

      sl_engine_get_host_counts (engine, i, &c);
      total += c.packet_events;
    }
  return total;
}

int
main (int    argc,
      char **argv)
{
  gint timer_ms = 100, hosts = 3, rate = 200, hold_ms = -1;
  double duration = 20;
  GOptionEntry entries[] = {
    { "timer-ms", 0, 0, G_OPTION_ARG_INT, &timer_ms, "Live timer (ms)", "MS" },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration, "Seconds of traffic", "S" },
    { "hosts", 0, 0, G_OPTION_ARG_INT, &hosts, "Simulated hosts (a chain)", "N" },
    { "rate", 0, 0, G_OPTION_ARG_INT, &rate, "Round trips per second per connection (0: flat out)", "HZ" },
    { "hold-ms", 0, 0, G_OPTION_ARG_INT, &hold_ms, "Syncline's --hold-ms (default: its default)", "MS" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("— live latency and throughput");
  g_autoptr(GError) error = NULL;
  g_autofree char *skip = NULL;
  g_autoptr(GPtrArray) peer_hosts = g_ptr_array_new ();
  g_autoptr(GString) problems = g_string_new (NULL);
  g_autofree guint *ports = NULL;
  g_autofree GPid *peers = NULL;
  g_autofree char *url = NULL, *out_dir = NULL;
  SlHarness *h;
  SlEngine *engine;
  SlLive *live;
  SlLiveOptions lo;
  Bench b = { 0 };
  SlLiveWatch w;
  gint64 t0, t1;
  guint64 written, fed;
  double cpu0, cpu1;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    g_error ("%s", error->message);
  if (hosts < 2 || hosts > 16 || timer_ms < 1 || duration <= 0)
    g_error ("--hosts: 2 to 16, --timer-ms > 0, --duration > 0");

  h = sl_harness_new (&skip);
  if (h == NULL)
    g_error ("cannot run the live harness: %s", skip);
  if (!sl_harness_start_relay (h, &error))
    g_error ("%s", error->message);

  ports = g_new0 (guint, hosts);
  peers = g_new0 (GPid, hosts);
  for (gint i = 0; i < hosts; i++)
    {
      g_autofree char *name = g_strdup_printf ("bench-%d", i);
      SlHarnessHost *host = sl_harness_add_host (h, name, (i % 3 - 1) * 2000000, (i % 5 - 2) * 20000, &error);

      if (host == NULL || !sl_harness_host_create_session (host, SESSION, (guint) timer_ms * 1000, &error))
        g_error ("%s", error->message);
      g_ptr_array_add (peer_hosts, host);
      ports[i] = sl_harness_free_port ();
    }

  b.e2e_ms = g_array_new (FALSE, FALSE, sizeof (double));
  b.samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  b.added_ms = g_array_new (FALSE, FALSE, sizeof (double));
  b.ref_host = g_ptr_array_index (peer_hosts, hosts - 1);
  b.ref_name = sl_harness_host_get_name (b.ref_host);

  engine = sl_engine_new (NULL);
  sl_live_options_init (&lo);
  if (hold_ms >= 0)
    lo.hold_ms = (guint) hold_ms;
  url = g_strdup_printf ("%s/session/%s", sl_harness_get_relay_url (h), SESSION);
  sl_live_watch_init (&w);
  w.quiet = TRUE;
  w.hook = update_hook;
  w.hook_data = &b;
  live = sl_live_watch_start (&w, engine, &lo, url, &error);
  if (live == NULL)
    g_error ("%s", error->message);
  g_usleep (2 * G_USEC_PER_SEC);

  cpu0 = (double) clock () / CLOCKS_PER_SEC;
  t0 = g_get_monotonic_time ();
  for (gint k = hosts; k-- > 0;)
    {
      g_autofree char *listen = g_strdup_printf ("--listen=%u", ports[k]);
      g_autofree char *rate_s = g_strdup_printf ("--rate=%d", rate);
      g_autofree char *dur = g_strdup_printf ("--duration=%.3f", duration);
      g_autofree char *connect = k + 1 < hosts ? g_strdup_printf ("--connect=%u", ports[k + 1]) : NULL;
      const char *args[] = { listen, rate_s, dur, connect, NULL };

      peers[k] = sl_harness_host_spawn_peer (g_ptr_array_index (peer_hosts, k), args, &error);
      if (peers[k] == 0)
        g_error ("%s", error->message);
    }
  for (gint k = 0; k < hosts; k++)
    sl_harness_wait_process (h, peers[k], (guint) (duration * 1000) + 30000, NULL, NULL);
  /* what is still in flight: a few live-timer periods */
  g_usleep ((gulong) MAX (3 * timer_ms, 1000) * 1000);
  t1 = g_get_monotonic_time ();
  cpu1 = (double) clock () / CLOCKS_PER_SEC;
  sl_live_stop (live);
  g_mutex_lock (&w.lock);
  fed = w.packets;
  g_mutex_unlock (&w.lock);
  for (guint i = 0; i < b.samples->len; i++)
    {
      const Sample *smp = &g_array_index (b.samples, Sample, i);
      gint64 m = sl_harness_host_monotonic_time (b.ref_host, SESSION, smp->last_fed, NULL);
      double e2e = (smp->made * 1000 - m) / 1e6;

      if (m != G_MININT64)
        g_array_append_val (b.e2e_ms, e2e);
    }

  for (gint i = 0; i < hosts; i++)
    {
      g_autoptr(GError) e = NULL;

      sl_harness_host_destroy_session (g_ptr_array_index (peer_hosts, i), SESSION, &e);
    }
  out_dir = sl_harness_get_output_dir (h);
  written = packets_written (out_dir);

  printf ("{\n  \"hosts\": %d,\n  \"live_timer_ms\": %d,\n  \"rate_hz\": %d,\n  \"duration_s\": %.1f,\n"
          "  \"hold_ms\": %u,\n", hosts, timer_ms, rate, duration, lo.hold_ms);
  print_stats ("end_to_end", b.e2e_ms);
  print_stats ("added_by_syncline", b.added_ms);
  printf ("  \"packets_written\": %" G_GUINT64_FORMAT ",\n  \"packets_fed\": %" G_GUINT64_FORMAT ",\n",
          written, fed);
  printf ("  \"packets_per_s\": %.0f,\n", fed / ((t1 - t0) / 1e6));
  printf ("  \"syncline_cpu_s\": %.2f\n}\n", cpu1 - cpu0);

  sl_live_free (live);
  sl_engine_free (engine);
  if (!sl_harness_free_and_check_clean (h, problems))
    g_printerr ("harness left behind:\n%s", problems->str);
  g_array_unref (b.e2e_ms);
  g_array_unref (b.samples);
  g_array_unref (b.added_ms);
  sl_live_watch_clear (&w);
  return 0;
}
