/* test-retention.c: a live timeline that drops its oldest data
 * (sl_timeline_drop_before(), issue 20): every reader of the stores and of
 * the timeline, on what is kept, against the same queries on a timeline
 * that kept everything
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "sl-generate.h"
#include "sl-timeline-chain.h"
#include "sl-timeline-search.h"
#include "sl-timeline-stats.h"
#include "test-util.h"
#include "timeline-test-util.h"

#define NS_PER_S G_GINT64_CONSTANT (1000000000)

typedef struct
{
  char          *dir;
  SlEngine      *engine;
  SlTraceReader *reader;
  /* the reader's stores: every event */
  const SlEventStore **ref_stores;
  /* the reference: fed as the replay, dropping nothing (a timeline built
   * as events arrive resolves some messages' rows differently from one
   * built at once, which is not what is tested here) */
  SlTimeline    *ref;
  SlEventStore **all_stores;
  GArray        *matches;
  guint          n_hosts;
  /* the replay, fed piece by piece and dropping its front */
  SlTimeline    *tl;
  SlEventStore **stores;
  guint64        (*fed)[SL_EVENT_N_STREAMS];
  guint          next_match;
  gint64        *cutoff;
  /* each host's first event (hosts' clocks differ by up to hours) */
  gint64        *origin;
} Replay;

static void
replay_init (Replay *r,
             guint   n_hosts,
             double  seconds,
             guint64 seed)
{
  SlGenerateOptions go;
  SlEngineOptions eo;
  SlTraceReaderOptions ro;
  g_autoptr(SlGenerate) gen = NULL;
  g_autoptr(GError) error = NULL;

  memset (r, 0, sizeof *r);
  r->dir = make_tmpdir ();
  sl_generate_options_init (&go);
  go.n_hosts = n_hosts;
  go.duration_ns = (gint64) (seconds * NS_PER_S);
  go.seed = seed;
  go.cpus = 2;
  go.background_rate = 4000;
  gen = sl_generate_new (&go);
  g_assert_true (sl_generate_run (gen, r->dir, NULL, &error));
  g_assert_no_error (error);

  sl_engine_options_init (&eo);
  r->engine = sl_engine_new (&eo);
  sl_trace_reader_options_init (&ro);
  ro.keep_events = TRUE;
  r->reader = sl_trace_reader_new (r->engine, &ro);
  r->matches = g_array_new (FALSE, FALSE, sizeof (Recorded));
  sl_engine_set_match_func (r->engine, record_cb, r->matches);
  sl_trace_reader_add_folder (r->reader, r->dir);
  g_assert_cmpint (sl_trace_reader_run (r->reader), ==, SL_TRACE_READER_DONE);

  r->n_hosts = sl_engine_get_n_hosts (r->engine);
  g_assert_cmpuint (r->n_hosts, ==, n_hosts);
  r->ref_stores = g_new0 (const SlEventStore *, r->n_hosts);
  for (guint i = 0; i < sl_trace_reader_get_n_hosts (r->reader); i++)
    r->ref_stores[sl_trace_reader_get_engine_host (r->reader, i)] = sl_trace_reader_get_event_store (r->reader, i);

  r->ref = sl_timeline_new ();
  r->tl = sl_timeline_new ();
  r->stores = g_new0 (SlEventStore *, r->n_hosts);
  r->all_stores = g_new0 (SlEventStore *, r->n_hosts);
  r->fed = g_malloc0 (r->n_hosts * sizeof *r->fed);
  r->cutoff = g_new0 (gint64, r->n_hosts);
  r->origin = g_new0 (gint64, r->n_hosts);
  for (guint h = 0; h < r->n_hosts; h++)
    {
      g_assert_nonnull (r->ref_stores[h]);
      r->stores[h] = sl_event_store_new ();
      r->all_stores[h] = sl_event_store_new ();
      r->cutoff[h] = G_MININT64;
      g_assert_true (sl_event_store_get_time_range (r->ref_stores[h], &r->origin[h], NULL));
      sl_timeline_set_host (r->ref, h, sl_engine_get_host_name (r->engine, h), r->all_stores[h]);
      sl_timeline_set_host (r->tl, h, sl_engine_get_host_name (r->engine, h), r->stores[h]);
    }
}

static void
replay_clear (Replay *r)
{
  sl_engine_set_match_func (r->engine, NULL, NULL);
  sl_timeline_free (r->tl);
  sl_timeline_free (r->ref);
  for (guint h = 0; h < r->n_hosts; h++)
    {
      sl_event_store_free (r->stores[h]);
      sl_event_store_free (r->all_stores[h]);
    }
  g_free (r->stores);
  g_free (r->all_stores);
  g_free (r->ref_stores);
  g_free (r->fed);
  g_free (r->cutoff);
  g_free (r->origin);
  g_array_unref (r->matches);
  sl_trace_reader_free (r->reader);
  sl_engine_free (r->engine);
  rm_rf (r->dir);
  g_free (r->dir);
}

/* Appends each host's events of its first @elapsed ns, as a live session
 * would, and the matches whose both ends are in them (in the engine's
 * order). */
static void
replay_feed (Replay *r,
             gint64  elapsed)
{
  for (guint h = 0; h < r->n_hosts; h++)
    for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
      {
        gint64 t = r->origin[h] + elapsed;
        const SlEventStore *from = r->ref_stores[h];
        guint64 *k = &r->fed[h][s];

        for (; *k < sl_event_store_get_n_events (from, s); (*k)++)
          {
            SlEvent e = *sl_event_store_get (from, s, *k);

            if (e.time >= t)
              break;
            for (guint side = 0; side < 2; side++)
              {
                SlEventStore *to = side == 0 ? r->stores[h] : r->all_stores[h];
                SlEvent c = e;

                if (c.str != 0)
                  c.str = sl_event_store_intern (to, sl_event_store_get_string (from, e.str));
                if (s == SL_EVENT_STREAM_NET)
                  sl_event_store_append_packet (to, &c, sl_event_store_get_packet (from, *k));
                else
                  sl_event_store_append (to, &c);
              }
          }
      }
  for (; r->next_match < r->matches->len; r->next_match++)
    {
      const Recorded *m = &g_array_index (r->matches, Recorded, r->next_match);

      if (m->match.send_time >= r->origin[m->match.send_host] + elapsed ||
          m->match.recv_time >= r->origin[m->match.recv_host] + elapsed)
        break;
      sl_timeline_add_match (r->tl, &m->match, m->has_event ? &m->event : NULL);
      sl_timeline_add_match (r->ref, &m->match, m->has_event ? &m->event : NULL);
    }
  sl_timeline_update (r->tl);
  sl_timeline_update (r->ref);
}

static void
replay_drop (Replay *r,
             gint64  span)
{
  for (guint h = 0; h < r->n_hosts; h++)
    {
      gint64 last;

      if (!sl_event_store_get_time_range (r->stores[h], NULL, &last))
        continue;
      sl_timeline_drop_before (r->tl, h, r->stores[h], last - span);
      r->cutoff[h] = sl_timeline_get_kept_from (r->tl, h);
      g_assert_cmpint (r->cutoff[h], ==, last - span);
    }
}

static gboolean
same_event (const SlEventStore *a,
            const SlEvent      *x,
            const SlEventStore *b,
            const SlEvent      *y)
{
  return x->time == y->time && x->tid == y->tid && x->arg == y->arg && x->cpu == y->cpu &&
         x->kind == y->kind && x->flags == y->flags &&
         g_strcmp0 (sl_event_store_get_string (a, x->str), sl_event_store_get_string (b, y->str)) == 0;
}

/* The replay's stores against the reference's, brute force: every kept
 * index, what is dropped, searches by time, counts, the time range. */
static void
check_stores (Replay *r)
{
  for (guint h = 0; h < r->n_hosts; h++)
    {
      const SlEventStore *a = r->stores[h], *ref = r->ref_stores[h];
      gint64 kept = sl_event_store_get_kept_from (a), first, last, bf_first = G_MAXINT64;
      guint64 counts[SL_EVENT_N_KINDS] = { 0 };

      /* nothing at or after the time asked for is dropped */
      g_assert_cmpint (kept, <=, r->cutoff[h]);

      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        {
          guint64 n = sl_event_store_get_n_events (a, s), f = sl_event_store_get_first_index (a, s);

          g_assert_cmpuint (n, ==, r->fed[h][s]);
          g_assert_cmpuint (f, <=, n);
          if (f > 0)
            {
              g_assert_null (sl_event_store_get (a, s, f - 1));
              /* dropped only what is before the kept time */
              g_assert_cmpint (sl_event_store_get (ref, s, f - 1)->time, <, kept);
            }
          for (guint64 k = f; k < n; k++)
            {
              const SlEvent *x = sl_event_store_get (a, s, k);

              g_assert_nonnull (x);
              g_assert_true (same_event (a, x, ref, sl_event_store_get (ref, s, k)));
              if (s == SL_EVENT_STREAM_NET)
                g_assert_cmpmem (sl_event_store_get_packet (a, k), sizeof (SlEventPacket),
                                 sl_event_store_get_packet (ref, k), sizeof (SlEventPacket));
              counts[x->kind]++;
              bf_first = MIN (bf_first, x->time);
            }
          /* every event at or after the kept time is there */
          for (guint64 k = 0; k < f; k++)
            g_assert_cmpint (sl_event_store_get (ref, s, k)->time, <, kept);
          /* searches by time, before, inside and after what is kept */
          for (guint i = 0; i < 64 && n > 0; i++)
            {
              gint64 t = sl_event_store_get (ref, s, g_test_rand_int_range (0, (gint32) n))->time +
                         g_test_rand_int_range (-1000, 1000);
              guint64 want = f;

              while (want < n && sl_event_store_get (a, s, want)->time < t)
                want++;
              g_assert_cmpuint (sl_event_store_lower_bound (a, s, t), ==, want);
            }
        }
      for (guint k = 1; k < SL_EVENT_N_KINDS; k++)
        g_assert_cmpuint (sl_event_store_get_kind_count (a, k), ==, counts[k]);
      g_assert_true (sl_event_store_get_time_range (a, &first, &last));
      g_assert_cmpint (first, ==, bf_first);
    }
}

static gboolean
same_interval (const SlTimelineInterval *x,
               const SlTimelineInterval *y)
{
  return x->start == y->start && x->end == y->end && x->state == y->state && x->cpu == y->cpu &&
         x->detail == y->detail;
}

/* The timeline's readers on the kept part against the reference (both
 * have read everything; no host transform: view time is local time). */
static void
check_timeline (Replay  *r,
                gboolean last)
{
  gint64 lo, hi, kept = G_MININT64;
  g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  g_autoptr(GArray) ref_arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  guint64 n_kept_arrows = 0, n_rows = sl_timeline_get_n_rows (r->ref);
  guint compared_chains = 0;

  g_assert_cmpuint (sl_timeline_get_n_rows (r->tl), ==, n_rows);
  g_assert_true (sl_timeline_get_view_range (r->ref, &lo, &hi));
  for (guint h = 0; h < r->n_hosts; h++)
    kept = MAX (kept, r->cutoff[h]);
  g_assert_cmpint (kept, >, lo);

  /* states: the interval at any kept instant, time per state over kept spans */
  for (guint row = 0; row < n_rows; row++)
    {
      SlTimelineRowInfo ri, ai;
      gint64 cut;

      sl_timeline_get_row_info (r->ref, row, &ri);
      sl_timeline_get_row_info (r->tl, row, &ai);
      g_assert_cmpint (ai.kind, ==, ri.kind);
      g_assert_cmpuint (ai.host, ==, ri.host);
      g_assert_cmpuint (ai.tid, ==, ri.tid);
      cut = r->cutoff[ri.host];
      g_assert_cmpuint (sl_timeline_get_n_intervals (r->tl, row), <=, sl_timeline_get_n_intervals (r->ref, row));
      for (guint i = 0; i < 40; i++)
        {
          gint64 t0 = cut + (gint64) g_test_rand_double_range (0, (double) (hi - cut));
          gint64 t1 = t0 + (gint64) g_test_rand_double_range (0, (double) (hi - t0) + 1e6);
          gint64 ns_a[SL_TIMELINE_N_STATES], ns_r[SL_TIMELINE_N_STATES];
          guint64 ka = sl_timeline_find_interval (r->tl, row, t0), kr = sl_timeline_find_interval (r->ref, row, t0);

          g_assert_cmpint (ka == G_MAXUINT64, ==, kr == G_MAXUINT64);
          if (ka != G_MAXUINT64)
            {
              SlTimelineInterval ia, ir;

              sl_timeline_get_interval (r->tl, row, ka, &ia);
              sl_timeline_get_interval (r->ref, row, kr, &ir);
              g_assert_true (same_interval (&ia, &ir));
            }
          sl_timeline_get_state_time (r->tl, row, t0, t1, ns_a);
          sl_timeline_get_state_time (r->ref, row, t0, t1, ns_r);
          g_assert_cmpmem (ns_a, sizeof ns_a, ns_r, sizeof ns_r);
          if (i % 8 == 0)
            {
              g_autoptr(GArray) ea = sl_timeline_dup_row_events (r->tl, row, t0, t1, 0);
              g_autoptr(GArray) er = sl_timeline_dup_row_events (r->ref, row, t0, t1, 0);

              g_assert_cmpuint (ea->len, ==, er->len);
              for (guint k = 0; k < ea->len; k++)
                g_assert_true (same_event (r->stores[ri.host], &g_array_index (ea, SlEvent, k),
                                           r->all_stores[ri.host], &g_array_index (er, SlEvent, k)));
            }
        }
      /* a request followed from a kept instant */
      if (ri.kind == SL_TIMELINE_ROW_THREAD && compared_chains < 20)
        {
          gint64 t = cut + (hi - cut) / 4;
          g_autoptr(GArray) ca = sl_timeline_follow_thread (r->tl, row, t, 50);
          g_autoptr(GArray) cr = sl_timeline_follow_thread (r->ref, row, t, 50);

          g_assert_cmpuint (ca->len, ==, cr->len);
          for (guint k = 0; k < ca->len; k++)
            {
              const SlTimelineChainStep *x = &g_array_index (ca, SlTimelineChainStep, k);
              const SlTimelineChainStep *y = &g_array_index (cr, SlTimelineChainStep, k);

              g_assert_cmpint (x->kind, ==, y->kind);
              g_assert_cmpint (x->message.send_time, ==, y->message.send_time);
              g_assert_cmpint (x->message.recv_time, ==, y->message.recv_time);
              g_assert_cmpuint (x->message.send_row, ==, y->message.send_row);
              g_assert_cmpuint (x->message.recv_row, ==, y->message.recv_row);
              g_assert_cmpuint (x->woken_row, ==, y->woken_row);
              g_assert_cmpint (x->run_start, ==, y->run_start);
              g_assert_cmpint (x->run_end, ==, y->run_end);
            }
          compared_chains += cr->len > 0;
        }
    }
  g_assert_true (compared_chains > 0 || !last);

  /* messages: those sent at kept instants, nothing else */
  sl_timeline_query_arrows (r->tl, lo - NS_PER_S, hi + NS_PER_S, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                            SL_TIMELINE_NONE, arrows);
  sl_timeline_query_arrows (r->ref, lo - NS_PER_S, hi + NS_PER_S, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                            SL_TIMELINE_NONE, ref_arrows);
  for (guint i = 0, j = 0; i < ref_arrows->len; i++)
    {
      const SlTimelineArrow *y = &g_array_index (ref_arrows, SlTimelineArrow, i), *x;

      if (y->send_time < r->cutoff[y->send_host])
        continue;
      g_assert_cmpuint (j, <, arrows->len);
      x = &g_array_index (arrows, SlTimelineArrow, j++);
      g_assert_cmpuint (x->send_host, ==, y->send_host);
      g_assert_cmpuint (x->recv_host, ==, y->recv_host);
      g_assert_cmpint (x->send_time, ==, y->send_time);
      g_assert_cmpint (x->recv_time, ==, y->recv_time);
      g_assert_cmpuint (x->send_row, ==, y->send_row);
      g_assert_cmpuint (x->recv_row, ==, y->recv_row);
      g_assert_cmpuint (x->connection, ==, y->connection);
      n_kept_arrows++;
    }
  g_assert_cmpuint (arrows->len, ==, n_kept_arrows);
  g_assert_cmpuint (sl_timeline_get_n_arrows (r->tl), ==, n_kept_arrows);
  g_assert_cmpuint (n_kept_arrows, <, ref_arrows->len);
  g_assert_cmpuint (n_kept_arrows, >, 0);

  /* statistics of kept spans */
  for (guint i = 0; i < 20; i++)
    {
      gint64 t0 = kept + (gint64) g_test_rand_double_range (0, (double) (hi - kept));
      gint64 t1 = t0 + (gint64) g_test_rand_double_range (0, (double) (hi - t0) + 1e6);
      g_autoptr(GArray) la = sl_timeline_dup_latency_stats (r->tl, t0, t1);
      g_autoptr(GArray) lr = sl_timeline_dup_latency_stats (r->ref, t0, t1);

      g_assert_cmpuint (sl_timeline_count_events (r->tl, t0, t1), ==, sl_timeline_count_events (r->ref, t0, t1));
      g_assert_cmpuint (la->len, ==, lr->len);
      for (guint k = 0; k < la->len; k++)
        {
          const SlTimelineLatencyStat *x = &g_array_index (la, SlTimelineLatencyStat, k);
          const SlTimelineLatencyStat *y = &g_array_index (lr, SlTimelineLatencyStat, k);

          g_assert_cmpuint (x->count, ==, y->count);
          g_assert_cmpint (x->min_ns, ==, y->min_ns);
          g_assert_cmpint (x->median_ns, ==, y->median_ns);
          g_assert_cmpint (x->max_ns, ==, y->max_ns);
        }
    }
}

/* A search over the kept events finds the reference's hits that are kept. */
static void
check_search (Replay     *r,
              const char *text)
{
  g_autoptr(SlTimelineSearch) sa = NULL, sr = NULL;
  g_autoptr(GError) error = NULL;
  GArray *ha, *hr;
  guint j = 0;

  sa = sl_timeline_search_new (r->tl, (const SlEventStore * const *) r->stores, r->n_hosts,
                               sl_event_query_new (text, &error), G_MAXUINT);
  g_assert_no_error (error);
  sr = sl_timeline_search_new (r->ref, (const SlEventStore * const *) r->all_stores, r->n_hosts,
                               sl_event_query_new (text, &error), G_MAXUINT);
  g_assert_true (sl_timeline_search_run (sa, NULL));
  g_assert_true (sl_timeline_search_run (sr, NULL));
  ha = sl_timeline_search_get_hits (sa);
  hr = sl_timeline_search_get_hits (sr);
  for (guint i = 0; i < hr->len; i++)
    {
      const SlSearchHit *y = &g_array_index (hr, SlSearchHit, i), *x;

      if (y->index < sl_event_store_get_first_index (r->stores[y->host], y->stream))
        continue;
      g_assert_cmpuint (j, <, ha->len);
      x = &g_array_index (ha, SlSearchHit, j++);
      g_assert_cmpuint (x->host, ==, y->host);
      g_assert_cmpuint (x->stream, ==, y->stream);
      g_assert_cmpuint (x->index, ==, y->index);
      g_assert_cmpint (x->view_time, ==, y->view_time);
    }
  g_assert_cmpuint (j, ==, ha->len);
  g_assert_cmpuint (j, >, 0);
  g_assert_cmpuint (j, <, hr->len);
}

static gsize
replay_memory (Replay *r)
{
  SlTimelineStats st;
  gsize m = 0;

  for (guint h = 0; h < r->n_hosts; h++)
    m += sl_event_store_get_memory_size (r->stores[h]);
  sl_timeline_get_stats (r->tl, &st);
  return m + st.interval_bytes + st.arrow_bytes;
}

/* Fed in steps of 100 ms, each host keeping its last second: the stores
 * and every reader checked along the way and at the end; the memory it
 * takes stops growing once a second is held. */
static void
test_drop_readers (void)
{
  Replay r;
  gint64 span = NS_PER_S, step = NS_PER_S / 10, duration = 5 * NS_PER_S;
  gsize mem_full = 0, mem_max = 0;
  guint steps = 0;

  replay_init (&r, 3, (double) duration / NS_PER_S, 71);
  for (gint64 t = step; t <= duration + step; t += step, steps++)
    {
      replay_feed (&r, t);
      replay_drop (&r, span);
      check_stores (&r);
      if (steps % 5 == 4 && t > 2 * span)
        check_timeline (&r, FALSE);
      if (t <= 2 * span)
        mem_full = replay_memory (&r);
      else
        mem_max = MAX (mem_max, replay_memory (&r));
    }
  replay_feed (&r, G_MAXINT64 / 2);
  check_stores (&r);
  for (guint h = 0; h < r.n_hosts; h++)
    for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
      {
        g_test_message ("host %u stream %u: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " dropped", h, s,
                        sl_event_store_get_first_index (r.stores[h], s),
                        sl_event_store_get_n_events (r.stores[h], s));
        if ((s == SL_EVENT_STREAM_SCHED || s == SL_EVENT_STREAM_SYSCALL))
          g_assert_cmpuint (sl_event_store_get_first_index (r.stores[h], s), >, 0);
      }
  g_test_message ("memory after 2 s %zu, at most %zu later", mem_full, mem_max);
  check_timeline (&r, TRUE);
  check_search (&r, "syscall = sendto");
  check_search (&r, "sched_switch");
  g_assert_cmpuint (mem_max, <=, mem_full + mem_full / 2);
  replay_clear (&r);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/retention/drop-readers", test_drop_readers);
  return g_test_run ();
}
