/* bench-timeline.c: speed and memory of the timeline model, as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-timeline traces DIR...   read trace folders (keep_events), build
 *                                  the model, time per-pixel queries
 *   bench-timeline synthetic [--hosts=N] [--intervals=N] [--arrows=N]
 *                                  [--rows=N] [--seed=N]
 *                                  the same on the generated cluster of
 *                                  `syncline --benchmark=timeline`
 *                                  (sl-timeline-synth.c) sized to the goals
 *                                  (64 hosts, 10 M intervals, 1 M arrows)
 *
 * Then every store is searched for field values (the Find page's search,
 * here on the calling thread rather than the view's worker): the events
 * scanned, the matches and the wall time per query.
 *
 * A frame is --rows visible rows (default 100, spread over the hosts)
 * queried at 1600 pixels plus the arrows of the span folded to 1600
 * columns; it is timed over spans from the whole trace down to 10 µs.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "sl-compare.h"
#include "sl-cpu-time.h"
#include "sl-timeline-search.h"
#include "sl-timeline-synth.h"
#include "sl-trace-reader.h"

#define WIDTH 1600

static double
wall_now (void)
{
  return g_get_monotonic_time () / 1e6;
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
  g_array_sort (a, sl_compare_double);
  return g_array_index (a, double, a->len / 2);
}

#define DIGEST_ADD(c, v) \
  G_STMT_START { __typeof__ (v) v_ = (v); g_checksum_update ((c), (const guchar *) &v_, sizeof v_); } G_STMT_END

/* A digest of what the model holds: every row (kind, place, names, span,
 * every interval), every arrow (lane by lane, in send order), the messages
 * per row and the connections; equal digests from two builds say their
 * timelines are the same. */
static void
append_digest (SlTimeline *tl,
               GString    *json)
{
  g_autoptr(GChecksum) c = g_checksum_new (G_CHECKSUM_SHA256);
  g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  const gint64 wide = G_GINT64_CONSTANT (1) << 62;

  DIGEST_ADD (c, sl_timeline_get_n_rows (tl));
  for (guint r = 0; r < sl_timeline_get_n_rows (tl); r++)
    {
      SlTimelineRowInfo ri;
      SlTimelineRowActivity act;

      sl_timeline_get_row_info (tl, r, &ri);
      sl_timeline_get_row_activity (tl, r, &act);
      DIGEST_ADD (c, (guint) ri.kind);
      DIGEST_ADD (c, ri.host);
      DIGEST_ADD (c, ri.parent);
      DIGEST_ADD (c, ri.tid);
      DIGEST_ADD (c, ri.pid);
      DIGEST_ADD (c, ri.ppid);
      DIGEST_ADD (c, ri.cpu);
      g_checksum_update (c, (const guchar *) (ri.name != NULL ? ri.name : ""), -1);
      DIGEST_ADD (c, ri.first);
      DIGEST_ADD (c, ri.last);
      DIGEST_ADD (c, ri.thread_row);
      DIGEST_ADD (c, ri.n_children);
      DIGEST_ADD (c, ri.n_intervals);
      DIGEST_ADD (c, act.n_messages);
      for (guint64 i = 0; i < ri.n_intervals; i++)
        {
          SlTimelineInterval iv;

          sl_timeline_get_interval (tl, r, i, &iv);
          DIGEST_ADD (c, iv.start);
          DIGEST_ADD (c, iv.end);
          DIGEST_ADD (c, (guint) iv.state);
          DIGEST_ADD (c, (guint) iv.cpu);
          DIGEST_ADD (c, (guint) iv.detail);
        }
    }
  DIGEST_ADD (c, sl_timeline_get_n_arrows (tl));
  sl_timeline_query_arrows (tl, -wide, wide, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE, SL_TIMELINE_NONE, arrows);
  for (guint i = 0; i < arrows->len; i++)
    {
      const SlTimelineArrow *a = &g_array_index (arrows, SlTimelineArrow, i);

      DIGEST_ADD (c, a->send_host);
      DIGEST_ADD (c, a->recv_host);
      DIGEST_ADD (c, a->send_row);
      DIGEST_ADD (c, a->recv_row);
      DIGEST_ADD (c, (guint) a->send_cpu);
      DIGEST_ADD (c, (guint) a->recv_cpu);
      DIGEST_ADD (c, a->connection);
      DIGEST_ADD (c, a->send_time);
      DIGEST_ADD (c, a->recv_time);
    }
  for (guint k = 0; k < sl_timeline_get_n_connections (tl); k++)
    {
      SlTimelineConnection conn;

      sl_timeline_get_connection (tl, k, &conn);
      DIGEST_ADD (c, conn.host_a);
      DIGEST_ADD (c, conn.host_b);
      DIGEST_ADD (c, (guint) conn.family);
      DIGEST_ADD (c, (guint) conn.port_a);
      DIGEST_ADD (c, (guint) conn.port_b);
      g_checksum_update (c, conn.addr_a, sizeof conn.addr_a);
      g_checksum_update (c, conn.addr_b, sizeof conn.addr_b);
      DIGEST_ADD (c, conn.n_arrows);
    }
  g_string_append_printf (json, "  \"digest\": \"%s\",\n", g_checksum_get_string (c));
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

/* The Find page's search over every host's store, a query at a time */
static void
bench_search (SlTimeline                 *tl,
              const SlEventStore * const *stores,
              guint                       n_stores,
              GString                    *json)
{
  static const char *const queries[] = { "syscall = read", "tid = 1042", "event = packet_recv", "cpu = 3" };

  g_string_append (json, "  \"search\": [\n");
  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    {
      g_autoptr(GError) error = NULL;
      SlEventQuery *query = sl_event_query_new (queries[q], &error);
      g_autoptr(SlTimelineSearch) search = NULL;
      double w0, c0, w1, c1;

      g_assert_no_error (error);
      /* (the search owns the query) */
      search = sl_timeline_search_new (tl, stores, n_stores, query, 1000000);
      w0 = wall_now (), c0 = sl_cpu_time_seconds ();
      sl_timeline_search_run (search, NULL);
      w1 = wall_now (), c1 = sl_cpu_time_seconds ();
      g_string_append_printf (json,
                              "    { \"query\": \"%s\", \"events_scanned\": %" G_GUINT64_FORMAT
                              ", \"matches\": %" G_GUINT64_FORMAT ", \"wall_s\": %.3f, \"cpu_s\": %.3f, "
                              "\"ns_per_event\": %.2f }%s\n",
                              queries[q], sl_timeline_search_get_n_scanned (search),
                              sl_timeline_search_get_n_matches (search), w1 - w0, c1 - c0,
                              (w1 - w0) * 1e9 / (double) MAX (sl_timeline_search_get_n_scanned (search), 1),
                              q + 1 < G_N_ELEMENTS (queries) ? "," : "");
    }
  g_string_append (json, "  ],\n");
}

static int
bench_traces (char **dirs,
              guint  n_dirs,
              guint  n_rows)
{
  g_autoptr(GString) json = g_string_new ("{\n");
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  /* freed last: the engine calls it until then */
  g_autoptr(SlTimeline) tl = NULL;
  SlEngineOptions eo;
  SlTraceReaderOptions ro;
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlTraceReader) reader = NULL;
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

  w0 = wall_now (), c0 = sl_cpu_time_seconds ();
  if (sl_trace_reader_run (reader) != SL_TRACE_READER_DONE)
    {
      g_printerr ("bench-timeline: reading failed\n");
      return 2;
    }
  w1 = wall_now (), c1 = sl_cpu_time_seconds ();
  sl_timeline_add_reader_hosts (tl, reader);
  sl_timeline_update (tl);
  w2 = wall_now (), c2 = sl_cpu_time_seconds ();
  sl_timeline_sync_engine (tl, engine);

  g_string_append_printf (json, "  \"mode\": \"traces\", \"hosts\": %u,\n", sl_trace_reader_get_n_hosts (reader));
  g_string_append_printf (json, "  \"read_wall_s\": %.3f, \"read_cpu_s\": %.3f,\n", w1 - w0, c1 - c0);
  g_string_append_printf (json, "  \"build_wall_s\": %.3f, \"build_cpu_s\": %.3f, \"build_over_read_cpu\": %.3f,\n",
                          w2 - w1, c2 - c1, (c2 - c1) / (c1 - c0));
  append_stats (tl, json);
  sl_timeline_get_stats (tl, &st);
  g_string_append_printf (json, "  \"build_ns_per_event\": %.1f,\n", (w2 - w1) * 1e9 / (double) MAX (st.events, 1));
  append_digest (tl, json);
  bench_queries (tl, rand, n_rows, json);
  {
    guint n = sl_trace_reader_get_n_hosts (reader), n_stores = 0;
    g_autofree const SlEventStore **stores = NULL;

    /* by engine host index, as the view has them */
    for (guint i = 0; i < n; i++)
      n_stores = MAX (n_stores, sl_trace_reader_get_engine_host (reader, i) + 1);
    stores = g_new0 (const SlEventStore *, MAX (n_stores, 1));
    for (guint i = 0; i < n; i++)
      stores[sl_trace_reader_get_engine_host (reader, i)] = sl_trace_reader_get_event_store (reader, i);
    bench_search (tl, stores, n_stores, json);
  }
  g_string_append_printf (json, "  \"peak_rss_kb\": %ld\n}\n", sl_peak_rss_kb ());
  fputs (json->str, stdout);
  return 0;
}

/* The synthetic cluster of `syncline --benchmark=timeline` */
static int
bench_synthetic (guint   n_hosts,
                 guint64 target_intervals,
                 guint64 target_arrows,
                 guint   n_rows,
                 guint64 seed)
{
  g_autoptr(GString) json = g_string_new ("{\n");
  g_autoptr(GRand) rand = g_rand_new_with_seed ((guint32) seed);
  g_autoptr(SlTimelineSynth) synth = sl_timeline_synth_new (n_hosts, target_intervals, target_arrows,
                                                            (guint32) seed);
  guint64 events = 0;

  for (guint i = 0; i < n_hosts; i++)
    for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
      events += sl_event_store_get_n_events (g_ptr_array_index (synth->stores, i), s);

  g_string_append_printf (json, "  \"mode\": \"synthetic\", \"hosts\": %u, \"store_events\": %" G_GUINT64_FORMAT ",\n",
                          n_hosts, events);
  g_string_append_printf (json, "  \"generate_wall_s\": %.3f, \"build_wall_s\": %.3f, \"build_cpu_s\": %.3f, "
                          "\"build_ns_per_event\": %.1f,\n", synth->generate_s, synth->build_s, synth->build_cpu_s,
                          synth->build_s * 1e9 / (double) MAX (events, 1));
  append_stats (synth->timeline, json);
  bench_queries (synth->timeline, rand, n_rows, json);
  bench_search (synth->timeline, (const SlEventStore * const *) synth->stores->pdata, synth->stores->len, json);
  g_string_append_printf (json, "  \"peak_rss_kb\": %ld\n}\n", sl_peak_rss_kb ());
  fputs (json->str, stdout);
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
  if (argc == 2 && g_str_equal (argv[1], "synthetic") && hosts >= 2 && hosts < 65535 && intervals > 0 &&
      arrows >= 0)
    return bench_synthetic ((guint) hosts, (guint64) intervals, (guint64) arrows, (guint) rows, (guint64) seed);
  g_printerr ("usage: bench-timeline traces DIR... | bench-timeline synthetic [OPTIONS]\n");
  return 2;
}
