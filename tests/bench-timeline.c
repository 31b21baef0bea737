/* bench-timeline.c: speed and memory of the timeline model, as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-timeline traces DIR...   read trace folders (keep_events), build
 *                                  the model, time per-pixel queries
 *   bench-timeline synthetic [--hosts=N] [--intervals=N] [--arrows=N]
 *                                  [--rows=N] [--seed=N]
 *                                  the same on in-memory event stores sized
 *                                  to the goals (64 hosts, 10 M intervals,
 *                                  1 M arrows); each host sends to 4 peers
 *
 * A frame is --rows visible rows (default 100, spread over the hosts)
 * queried at 1600 pixels plus the arrows of the span folded to 1600
 * columns; it is timed over spans from the whole trace down to 10 µs.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "sl-timeline.h"
#include "sl-trace-reader.h"

#define WIDTH 1600

static double
cpu_now (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static double
wall_now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static long
peak_rss_kb (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

static int
cmp_double (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static GArray *
pick_rows (SlTimeline *tl,
           guint       n,
           GRand      *rand)
{
  GArray *all = g_array_new (FALSE, FALSE, sizeof (guint)), *ret = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint r = 0; r < sl_timeline_get_n_rows (tl); r++)
    {
      SlTimelineRowInfo ri;

      sl_timeline_get_row_info (tl, r, &ri);
      if ((ri.kind == SL_TIMELINE_ROW_THREAD || ri.kind == SL_TIMELINE_ROW_CPU) && ri.n_intervals > 0)
        g_array_append_val (all, r);
    }
  for (guint i = 0; i < n && all->len > 0; i++)
    {
      guint k = g_rand_int_range (rand, 0, (gint32) all->len);

      g_array_append_val (ret, g_array_index (all, guint, k));
      g_array_remove_index_fast (all, k);
    }
  g_array_unref (all);
  return ret;
}

static double
median (GArray *a)
{
  g_array_sort (a, cmp_double);
  return g_array_index (a, double, a->len / 2);
}

/* Frames over spans from the whole view down to 10 µs, at random places:
 * the rows at WIDTH pixels, then the arrows folded to WIDTH columns per
 * host pair and, as a zoomed-out view would ask, to WIDTH / 8. */
static void
bench_queries (SlTimeline *tl,
               GRand      *rand,
               guint       n_rows,
               GString    *json)
{
  static const double zooms[] = { 1, 1e-1, 1e-3, 1e-5, 0 };
  g_autofree SlTimelinePixel *px = g_new (SlTimelinePixel, WIDTH);
  g_autoptr(GArray) rows = pick_rows (tl, n_rows, rand);
  g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  gint64 lo, hi;

  sl_timeline_get_view_range (tl, &lo, &hi);
  g_string_append_printf (json, "  \"frame_rows\": %u, \"width\": %u,\n  \"frames\": [\n", rows->len, WIDTH);
  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    {
      gint64 span = zooms[z] > 0 ? (gint64) ((double) (hi - lo) * zooms[z]) : 10000;
      g_autoptr(GArray) frame = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) row_t = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) fine_t = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) coarse_t = g_array_new (FALSE, FALSE, sizeof (double));
      guint64 n_fine = 0, n_coarse = 0, n_in_span = 0;
      double worst = 0;

      span = MAX (span, 1000);
      for (guint f = 0; f < 30; f++)
        {
          gint64 t0 = lo + (gint64) (g_rand_double (rand) * (double) MAX (hi - lo - span, 0));
          double a = wall_now (), b, c, d;

          for (guint i = 0; i < rows->len; i++)
            sl_timeline_query_row_view (tl, g_array_index (rows, guint, i), t0, t0 + span, WIDTH, px);
          b = wall_now ();
          g_array_set_size (arrows, 0);
          n_fine += sl_timeline_query_arrows (tl, t0, t0 + span, WIDTH, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                                              SL_TIMELINE_NONE, arrows);
          c = wall_now ();
          for (guint i = 0; i < arrows->len; i++)
            n_in_span += g_array_index (arrows, SlTimelineArrow, i).count;
          g_array_set_size (arrows, 0);
          d = wall_now ();
          n_coarse += sl_timeline_query_arrows (tl, t0, t0 + span, WIDTH / 8, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                                                SL_TIMELINE_NONE, arrows);
          d = wall_now () - d;
          c -= b;
          b -= a;
          g_array_append_val (row_t, b);
          g_array_append_val (fine_t, c);
          g_array_append_val (coarse_t, d);
          b += c;
          g_array_append_val (frame, b);
          worst = MAX (worst, b);
        }
      g_string_append_printf (json,
                              "    { \"span_ns\": %" G_GINT64_FORMAT ", \"frame_ms\": %.3f, \"frame_ms_max\": %.3f, "
                              "\"rows_ms\": %.3f, \"us_per_row\": %.2f, \"arrows_in_span\": %.0f,\n"
                              "      \"arrows_%u_cols\": %.0f, \"arrows_%u_cols_ms\": %.3f, "
                              "\"arrows_%u_cols\": %.0f, \"arrows_%u_cols_ms\": %.3f }%s\n",
                              span, median (frame) * 1e3, worst * 1e3, median (row_t) * 1e3,
                              median (row_t) * 1e6 / MAX (rows->len, 1), (double) n_in_span / 30,
                              WIDTH, (double) n_fine / 30, WIDTH, median (fine_t) * 1e3,
                              WIDTH / 8, (double) n_coarse / 30, WIDTH / 8, median (coarse_t) * 1e3,
                              z + 1 < G_N_ELEMENTS (zooms) ? "," : "");
    }
  g_string_append (json, "  ],\n");
}

static void
append_stats (SlTimeline *tl,
              GString    *json)
{
  SlTimelineStats st;
  guint64 cpu_iv = 0;

  sl_timeline_get_stats (tl, &st);
  for (guint r = 0; r < sl_timeline_get_n_rows (tl); r++)
    {
      SlTimelineRowInfo ri;

      sl_timeline_get_row_info (tl, r, &ri);
      if (ri.kind == SL_TIMELINE_ROW_CPU)
        cpu_iv += ri.n_intervals;
    }
  g_string_append_printf (json,
                          "  \"rows\": %u, \"threads\": %u, \"events\": %" G_GUINT64_FORMAT ",\n"
                          "  \"intervals\": %" G_GUINT64_FORMAT ", \"cpu_row_intervals\": %" G_GUINT64_FORMAT ",\n"
                          "  \"arrows\": %" G_GUINT64_FORMAT ",\n"
                          "  \"interval_bytes\": %" G_GSIZE_FORMAT ", \"bytes_per_interval\": %.2f,\n"
                          "  \"arrow_bytes\": %" G_GSIZE_FORMAT ", \"other_bytes\": %" G_GSIZE_FORMAT ",\n",
                          st.rows, st.threads, st.events, st.intervals, cpu_iv, st.arrows, st.interval_bytes,
                          (double) st.interval_bytes / (double) MAX (st.intervals, 1), st.arrow_bytes, st.other_bytes);
}

static int
bench_traces (char **dirs,
              guint  n_dirs,
              guint  n_rows)
{
  g_autoptr(GString) json = g_string_new ("{\n");
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  SlEngineOptions eo;
  SlTraceReaderOptions ro;
  SlEngine *engine;
  SlTraceReader *reader;
  SlTimeline *tl;
  SlTimelineStats st;
  double w0, c0, w1, c1, w2, c2;

  sl_engine_options_init (&eo);
  engine = sl_engine_new (&eo);
  sl_trace_reader_options_init (&ro);
  ro.keep_events = TRUE;
  reader = sl_trace_reader_new (engine, &ro);
  tl = sl_timeline_new ();
  sl_timeline_connect_engine (tl, engine);
  for (guint i = 0; i < n_dirs; i++)
    sl_trace_reader_add_folder (reader, dirs[i]);

  w0 = wall_now (), c0 = cpu_now ();
  if (sl_trace_reader_run (reader) != SL_TRACE_READER_DONE)
    {
      g_printerr ("bench-timeline: reading failed\n");
      return 2;
    }
  w1 = wall_now (), c1 = cpu_now ();
  sl_timeline_add_reader_hosts (tl, reader);
  sl_timeline_update (tl);
  w2 = wall_now (), c2 = cpu_now ();
  sl_timeline_sync_engine (tl, engine);

  g_string_append_printf (json, "  \"mode\": \"traces\", \"hosts\": %u,\n", sl_trace_reader_get_n_hosts (reader));
  g_string_append_printf (json, "  \"read_wall_s\": %.3f, \"read_cpu_s\": %.3f,\n", w1 - w0, c1 - c0);
  g_string_append_printf (json, "  \"build_wall_s\": %.3f, \"build_cpu_s\": %.3f, \"build_over_read_cpu\": %.3f,\n",
                          w2 - w1, c2 - c1, (c2 - c1) / (c1 - c0));
  append_stats (tl, json);
  sl_timeline_get_stats (tl, &st);
  g_string_append_printf (json, "  \"build_ns_per_event\": %.1f,\n", (w2 - w1) * 1e9 / (double) MAX (st.events, 1));
  bench_queries (tl, rand, n_rows, json);
  g_string_append_printf (json, "  \"peak_rss_kb\": %ld\n}\n", peak_rss_kb ());
  fputs (json->str, stdout);

  sl_engine_set_match_func (engine, NULL, NULL);
  sl_timeline_free (tl);
  sl_trace_reader_free (reader);
  sl_engine_free (engine);
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Synthetic hosts                                                         */

typedef struct
{
  guint32 running;
  guint8  in_syscall;
} SynCpu;

typedef struct
{
  SlEventStore *store;
  SynCpu       *cpus;
  guint32      *threads;
  guint8       *blocked;
  guint         n_threads;
  guint         n_cpus;
  guint32       names[4];
  guint32       syscalls[6];
  guint         peers[4];
} SynHost;

typedef struct
{
  gint64 due;
  guint  send_host;
  guint  recv_host;
  gint64 send_time;
} InFlight;

static void
syn_put (SynHost    *h,
         gint64      t,
         SlEventKind kind,
         guint       cpu,
         guint32     tid,
         guint32     arg,
         guint32     str,
         guint8      flags)
{
  SlEvent e = { 0 };

  e.time = t;
  e.kind = (guint8) kind;
  e.cpu = (guint16) cpu;
  e.tid = tid;
  e.arg = arg;
  e.str = str;
  e.flags = flags;
  sl_event_store_append (h->store, &e);
}

/* One scheduling, system call or interrupt action on a random CPU;
 * returns the time of its last event. */
static gint64
syn_step (SynHost *h,
          GRand   *rand,
          gint64   t)
{
  guint c = g_rand_int_range (rand, 0, (gint32) h->n_cpus);
  SynCpu *cpu = &h->cpus[c];
  double u = g_rand_double (rand);

  if (cpu->running == 0 || u < 0.12)
    {
      /* switch to a thread homed on this CPU that is not running */
      guint k = c + h->n_cpus * (guint) g_rand_int_range (rand, 0, (gint32) (h->n_threads / h->n_cpus));
      guint32 next = h->threads[k];
      gboolean block = g_rand_double (rand) < 0.5;

      if (next == cpu->running)
        next = 0;
      if (cpu->running != 0 && block && !cpu->in_syscall)
        {
          syn_put (h, t, SL_EVENT_SYSCALL_ENTRY, c, cpu->running, 0, h->syscalls[4], 0);
          t += 200;
        }
      syn_put (h, t, SL_EVENT_SCHED_SWITCH, c, cpu->running, next, h->names[next % 4],
               block && cpu->running != 0 ? 1 : 0);
      cpu->running = next;
      cpu->in_syscall = 0;
    }
  else if (u < 0.5)
    {
      syn_put (h, t, cpu->in_syscall ? SL_EVENT_SYSCALL_EXIT : SL_EVENT_SYSCALL_ENTRY, c, cpu->running, 0,
               h->syscalls[g_rand_int_range (rand, 0, 4)], 0);
      cpu->in_syscall = !cpu->in_syscall;
    }
  else if (u < 0.62)
    {
      syn_put (h, t, SL_EVENT_IRQ_ENTRY, c, 0, 40 + c, 0, 0);
      t += 1500;
      syn_put (h, t, SL_EVENT_IRQ_EXIT, c, 0, 40 + c, 0, 0);
    }
  else if (u < 0.75)
    {
      syn_put (h, t, SL_EVENT_SOFTIRQ_ENTRY, c, 0, 3, 0, 0);
      t += 2500;
      syn_put (h, t, SL_EVENT_SOFTIRQ_EXIT, c, 0, 3, 0, 0);
    }
  else
    syn_put (h, t, SL_EVENT_SCHED_WAKEUP, c, h->threads[g_rand_int_range (rand, 0, (gint32) h->n_threads)], c, 0, 0);
  return t;
}

static int
bench_synthetic (guint   n_hosts,
                 guint64 target_intervals,
                 guint64 target_arrows,
                 guint   n_rows,
                 guint64 seed)
{
  g_autoptr(GString) json = g_string_new ("{\n");
  g_autoptr(GRand) rand = g_rand_new_with_seed ((guint32) seed);
  g_autoptr(GArray) flights = g_array_new (FALSE, FALSE, sizeof (InFlight));
  SynHost *hosts = g_new0 (SynHost, n_hosts);
  SlTimeline *tl = sl_timeline_new ();
  static const char *const syscalls[] = { "read", "write", "sendto", "recvfrom", "futex", "epoll_wait" };
  static const char *const names[] = { "worker", "java", "postgres", "nginx" };
  /* about 1.7 intervals per step (thread row plus CPU row) */
  guint64 steps = target_intervals * 6 / 10, flight_head = 0;
  double arrow_rate = (double) target_arrows / (double) MAX (steps, 1);
  gint64 t = G_GINT64_CONSTANT (1700000000000000000), gap = 2000;
  double w0, w1, c1, w2, c2;
  guint64 events = 0;

  for (guint i = 0; i < n_hosts; i++)
    {
      SynHost *h = &hosts[i];
      g_autofree char *name = g_strdup_printf ("node-%02u", i + 1);

      h->store = sl_event_store_new ();
      h->n_cpus = 8;
      h->n_threads = 64;
      h->cpus = g_new0 (SynCpu, h->n_cpus);
      h->threads = g_new (guint32, h->n_threads);
      for (guint k = 0; k < h->n_threads; k++)
        h->threads[k] = 1000 + k;
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        h->names[k] = sl_event_store_intern (h->store, names[k]);
      for (guint k = 0; k < G_N_ELEMENTS (syscalls); k++)
        h->syscalls[k] = sl_event_store_intern (h->store, syscalls[k]);
      for (guint k = 0; k < h->n_threads; k++)
        {
          SlEvent e = { 0 };

          e.time = t;
          e.kind = SL_EVENT_PROCESS_NAME;
          e.tid = h->threads[k];
          e.arg = 1000 + (k / 8) * 8;
          e.str = h->names[k % 4];
          sl_event_store_append (h->store, &e);
        }
      /* a few peers each, as services talk in a real cluster */
      for (guint k = 0; k < G_N_ELEMENTS (h->peers); k++)
        h->peers[k] = (i + 1 + g_rand_int_range (rand, 0, (gint32) n_hosts - 1)) % n_hosts;
      sl_timeline_set_host (tl, i, name, h->store);
    }

  /* all hosts on one global clock, so sends and receives interleave */
  w0 = wall_now ();
  for (guint64 s = 0; s < steps; s++)
    {
      guint hi = g_rand_int_range (rand, 0, (gint32) n_hosts);
      SynHost *h = &hosts[hi];

      t += 1 + g_rand_int_range (rand, 0, (gint32) gap);
      while (flight_head < flights->len && g_array_index (flights, InFlight, flight_head).due <= t)
        {
          InFlight *f = &g_array_index (flights, InFlight, flight_head++);
          SynHost *r = &hosts[f->recv_host];
          guint c = g_rand_int_range (rand, 0, (gint32) r->n_cpus);
          SlMatch m = { f->send_host, f->recv_host, f->send_time, t };

          /* latencies vary, so a receive is placed when its turn comes */
          syn_put (r, t, SL_EVENT_PACKET_RECV, c, r->cpus[c].running, 0, 0, 0);
          sl_timeline_add_match (tl, &m, NULL);
        }
      if (flight_head > 4096 && flight_head * 2 > flights->len)
        {
          g_array_remove_range (flights, 0, (guint) flight_head);
          flight_head = 0;
        }

      if (g_rand_double (rand) < arrow_rate)
        {
          guint c = g_rand_int_range (rand, 0, (gint32) h->n_cpus);
          InFlight f = { t + 30000 + g_rand_int_range (rand, 0, 50000), hi,
                         h->peers[g_rand_int_range (rand, 0, G_N_ELEMENTS (h->peers))], t };

          syn_put (h, t, SL_EVENT_PACKET_SEND, c, h->cpus[c].running, 0, 0, 0);
          g_array_append_val (flights, f);
        }
      else
        t = syn_step (h, rand, t);
    }
  for (guint i = 0; i < n_hosts; i++)
    for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
      events += sl_event_store_get_n_events (hosts[i].store, s);

  w1 = wall_now (), c1 = cpu_now ();
  sl_timeline_update (tl);
  w2 = wall_now (), c2 = cpu_now ();

  g_string_append_printf (json, "  \"mode\": \"synthetic\", \"hosts\": %u, \"store_events\": %" G_GUINT64_FORMAT ",\n",
                          n_hosts, events);
  g_string_append_printf (json, "  \"generate_wall_s\": %.3f, \"build_wall_s\": %.3f, \"build_cpu_s\": %.3f, "
                          "\"build_ns_per_event\": %.1f,\n", w1 - w0, w2 - w1, c2 - c1, (w2 - w1) * 1e9 / (double) events);
  append_stats (tl, json);
  bench_queries (tl, rand, n_rows, json);
  g_string_append_printf (json, "  \"peak_rss_kb\": %ld\n}\n", peak_rss_kb ());
  fputs (json->str, stdout);

  sl_timeline_free (tl);
  for (guint i = 0; i < n_hosts; i++)
    {
      sl_event_store_free (hosts[i].store);
      g_free (hosts[i].cpus);
      g_free (hosts[i].threads);
    }
  g_free (hosts);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  gint hosts = 64, rows = 100;
  gint64 intervals = 10000000, arrows = 1000000, seed = 1;
  g_autoptr(GOptionContext) ctx = g_option_context_new ("traces DIR... | synthetic");
  GOptionEntry entries[] = {
    { "hosts", 0, 0, G_OPTION_ARG_INT, &hosts, "synthetic: hosts", "N" },
    { "intervals", 0, 0, G_OPTION_ARG_INT64, &intervals, "synthetic: intervals to aim for", "N" },
    { "arrows", 0, 0, G_OPTION_ARG_INT64, &arrows, "synthetic: arrows to aim for", "N" },
    { "rows", 0, 0, G_OPTION_ARG_INT, &rows, "rows per frame", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "synthetic: random seed", "N" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("bench-timeline: %s\n", error->message);
      return 2;
    }
  if (argc >= 3 && g_str_equal (argv[1], "traces"))
    return bench_traces (argv + 2, (guint) argc - 2, (guint) rows);
  if (argc == 2 && g_str_equal (argv[1], "synthetic") && hosts >= 2 && intervals > 0 && arrows >= 0)
    return bench_synthetic ((guint) hosts, (guint64) intervals, (guint64) arrows, (guint) rows, (guint64) seed);
  g_printerr ("usage: bench-timeline traces DIR... | bench-timeline synthetic [OPTIONS]\n");
  return 2;
}
