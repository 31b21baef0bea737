/* test-timeline-tools.c: what the timeline's tools compute, without a
 * display: messages' details
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-compare.h"
#include "sl-generate.h"
#include "sl-timeline-chain.h"
#include "sl-timeline-search.h"
#include "sl-timeline-stats.h"
#include "test-util.h"
#include "timeline-test-util.h"

/* ---------------------------------------------------------------------- */
/* Generated traces with their ground truth                                */

typedef struct
{
  char        *dir;
  SlGenerate  *gen;
  GArray      *packets;   /* TruthPacket */
  GHashTable  *by_end;    /* (engine host, dir, time) → TruthPacket index + 1 */
  JsonParser  *truth;
  guint       *engine_host;
  Loaded       l;
} Generated;

static GBytes *
end_key (guint  host,
         guint  dir,
         gint64 time)
{
  gint64 k[3] = { host, dir, time };

  return g_bytes_new (k, sizeof k);
}

static void
generated_init (Generated *g,
                guint      n_hosts,
                gint64     duration_ns,
                guint64    seed)
{
  SlGenerateOptions options;
  g_autoptr(GError) error = NULL;
  g_autofree char *truth_path = NULL;
  const char *folders[2] = { NULL, NULL };

  memset (g, 0, sizeof *g);
  g->dir = make_tmpdir ();
  sl_generate_options_init (&options);
  options.n_hosts = n_hosts;
  options.duration_ns = duration_ns;
  options.seed = seed;
  options.cpus = 2;
  options.background_rate = 1500;
  options.ip = SL_GENERATE_IP_MIX;
  g->gen = sl_generate_new (&options);
  g->packets = g_array_new (FALSE, FALSE, sizeof (TruthPacket));
  sl_generate_set_packet_func (g->gen, collect_cb, g->packets);
  g_assert_true (sl_generate_run (g->gen, g->dir, NULL, &error));
  g_assert_no_error (error);
  truth_path = g_build_filename (g->dir, "ground-truth.json", NULL);
  g->truth = json_parser_new ();
  g_assert_true (json_parser_load_from_file (g->truth, truth_path, &error));

  folders[0] = g->dir;
  loaded_init (&g->l, folders);
  g->engine_host = g_new (guint, sl_generate_get_n_hosts (g->gen));
  for (guint h = 0; h < sl_generate_get_n_hosts (g->gen); h++)
    {
      g->engine_host[h] = sl_engine_find_host (g->l.engine, sl_generate_get_host (g->gen, h)->name);
      g_assert_cmpuint (g->engine_host[h], !=, SL_HOST_NONE);
    }
  g->by_end = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  for (guint i = 0; i < g->packets->len; i++)
    {
      const TruthPacket *tp = &g_array_index (g->packets, TruthPacket, i);

      g_hash_table_insert (g->by_end, end_key (g->engine_host[tp->ev.host], tp->ev.dir, tp->ev.time),
                           GUINT_TO_POINTER (i + 1));
    }
}

static void
generated_clear (Generated *g)
{
  loaded_clear (&g->l);
  g_hash_table_unref (g->by_end);
  g_array_unref (g->packets);
  g_object_unref (g->truth);
  sl_generate_free (g->gen);
  g_free (g->engine_host);
  rm_rf (g->dir);
  g_free (g->dir);
}

static const TruthPacket *
truth_at (Generated *g,
          guint      host,
          guint      dir,
          gint64     time)
{
  g_autoptr(GBytes) k = end_key (host, dir, time);
  guint i = GPOINTER_TO_UINT (g_hash_table_lookup (g->by_end, k));

  return i > 0 ? &g_array_index (g->packets, TruthPacket, i - 1) : NULL;
}

static const SlEventStore *
host_store (Loaded *l,
            guint   engine_host)
{
  for (guint i = 0; i < sl_trace_reader_get_n_hosts (l->reader); i++)
    if (sl_trace_reader_get_engine_host (l->reader, i) == engine_host)
      return sl_trace_reader_get_event_store (l->reader, i);
  g_assert_not_reached ();
  return NULL;
}

static GArray *
all_arrows (SlTimeline *tl)
{
  GArray *arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  gint64 lo, hi;

  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  sl_timeline_query_arrows (tl, lo - 1000000000, hi + 1000000000, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                            SL_TIMELINE_NONE, arrows);
  return arrows;
}

/* ---------------------------------------------------------------------- */
/* Messages                                                                */

/* Every message's details against what the generator sent: ports and seq
 * of both ends' packets; the payload length of the sampled segments. */
static void
test_messages (void)
{
  Generated g;
  g_autoptr(GArray) arrows = NULL;
  JsonArray *hosts;
  guint checked_len = 0;

  generated_init (&g, 3, 2 * G_GINT64_CONSTANT (1000000000), 21);
  arrows = all_arrows (g.l.tl);
  g_assert_cmpuint (arrows->len, >, 500);
  for (guint i = 0; i < arrows->len; i++)
    {
      const SlTimelineArrow *a = &g_array_index (arrows, SlTimelineArrow, i);
      const TruthPacket *ts = truth_at (&g, a->send_host, SL_PACKET_SEND, a->send_time);
      const TruthPacket *tr = truth_at (&g, a->recv_host, SL_PACKET_RECV, a->recv_time);
      SlTimelineMessage m;
      SlTimelineArrow found;

      g_assert_nonnull (ts);
      g_assert_nonnull (tr);
      sl_timeline_get_message (g.l.tl, a, &m);
      g_assert_cmpuint (m.family, ==, ts->ev.family);
      g_assert_cmpuint (m.send_port, ==, ts->ev.sport);
      g_assert_cmpuint (m.recv_port, ==, ts->ev.dport);
      g_assert_cmpmem (m.send_addr, 16, ts->ev.saddr, 16);
      g_assert_cmpmem (m.recv_addr, 16, ts->ev.daddr, 16);
      g_assert_true (m.has_seq);
      g_assert_cmpuint (m.seq, ==, ts->ev.seq);
      g_assert_cmpuint (tr->ev.seq, ==, ts->ev.seq);
      /* the thread of each end: its row's, none on an idle CPU */
      for (guint e = 0; e < 2; e++)
        {
          SlTimelineRowInfo ri;

          sl_timeline_get_row_info (g.l.tl, e == 0 ? a->send_row : a->recv_row, &ri);
          if (ri.kind == SL_TIMELINE_ROW_THREAD)
            g_assert_cmpuint (e == 0 ? m.send_tid : m.recv_tid, ==, ri.tid);
          else
            g_assert_cmpuint (e == 0 ? m.send_tid : m.recv_tid, ==, 0);
        }

      /* a message is found again by its two ends */
      g_assert_true (sl_timeline_find_message (g.l.tl, a->send_host, a->recv_host, a->send_time, a->recv_time,
                                               &found));
      g_assert_cmpint (found.send_time, ==, a->send_time);
      g_assert_cmpint (found.recv_time, ==, a->recv_time);
      g_assert_cmpuint (found.send_row, ==, a->send_row);
      g_assert_cmpuint (found.recv_row, ==, a->recv_row);
      g_assert_cmpint (found.send_view, ==, a->send_view);
      g_assert_false (sl_timeline_find_message (g.l.tl, a->send_host, a->recv_host, a->send_time,
                                                a->recv_time + 1, &found));
    }

  /* lengths: the generator's samples of data segments (the skb length of
   * the event, with the Ethernet header when sent) */
  hosts = json_object_get_array_member (json_node_get_object (json_parser_get_root (g.truth)), "hosts");
  for (guint h = 0; h < json_array_get_length (hosts); h++)
    {
      JsonObject *ho = json_array_get_object_element (hosts, h);
      JsonArray *samples = json_object_get_array_member (ho, "samples");
      guint host = sl_engine_find_host (g.l.engine, json_object_get_string_member (ho, "name"));

      for (guint k = 0; k < json_array_get_length (samples); k++)
        {
          JsonObject *so = json_array_get_object_element (samples, k);
          gboolean send = g_str_equal (json_object_get_string_member (so, "event"), "net_dev_queue");
          gint64 t = json_object_get_int_member (so, "trace_ns");
          const TruthPacket *tp = truth_at (&g, host, send ? SL_PACKET_SEND : SL_PACKET_RECV, t);
          const SlEventStore *store = host_store (&g.l, host);
          gint64 ip_total = json_object_get_int_member (so, "len") - (send ? 14 : 0);
          guint64 n = sl_event_store_get_n_events (store, SL_EVENT_STREAM_NET), found = G_MAXUINT64;

          g_assert_nonnull (tp);
          for (guint64 e = sl_event_store_lower_bound (store, SL_EVENT_STREAM_NET, t); e < n; e++)
            {
              const SlEvent *ev = sl_event_store_get (store, SL_EVENT_STREAM_NET, e);

              if (ev->time != t)
                break;
              if (ev->kind == (send ? SL_EVENT_PACKET_SEND : SL_EVENT_PACKET_RECV) && ev->arg == tp->ev.seq)
                found = e;
            }
          g_assert_cmpuint (found, !=, G_MAXUINT64);
          {
            const SlEventPacket *pk = sl_event_store_get_packet (store, found);

            g_assert_cmpuint (pk->sport, ==, json_object_get_int_member (so, "source_port"));
            g_assert_cmpuint (pk->dport, ==, tp->ev.dport);
            g_assert_cmpint (pk->length, ==, ip_total - (tp->ev.family == 4 ? 20 : 40) - 32);
            g_assert_cmpint (pk->length, >, 0);
            checked_len++;
          }
        }
    }
  g_test_message ("%u messages, %u sampled lengths", arrows->len, checked_len);
  g_assert_cmpuint (checked_len, >=, 12);
  generated_clear (&g);
}

/* ---------------------------------------------------------------------- */
/* Searches                                                                */

typedef gboolean (*Predicate) (const SlEventStore *store,
                               const SlEvent      *e,
                               const SlEventPacket *pk,
                               gpointer            data);

typedef struct
{
  gint64 number;
  const char *text;
} Want;

static const char *
str_of (const SlEventStore *store,
        guint32             id)
{
  return id != 0 ? sl_event_store_get_string (store, id) : "";
}

static gboolean
is_syscall (const SlEvent *e)
{
  return e->kind == SL_EVENT_SYSCALL_ENTRY || e->kind == SL_EVENT_SYSCALL_EXIT;
}

static gboolean
is_packet (const SlEvent *e)
{
  return e->kind == SL_EVENT_PACKET_SEND || e->kind == SL_EVENT_PACKET_RECV;
}

static gboolean
p_syscall (const SlEventStore *store, const SlEvent *e, const SlEventPacket *pk, gpointer data)
{
  return is_syscall (e) && g_str_equal (str_of (store, e->str), ((Want *) data)->text);
}

static gboolean
p_fd (const SlEventStore *store, const SlEvent *e, const SlEventPacket *pk, gpointer data)
{
  return e->kind == SL_EVENT_SYSCALL_ENTRY && (e->flags & SL_EVENT_SYSCALL_HAS_FD) &&
         (gint32) e->arg == ((Want *) data)->number;
}

static gboolean
p_port (const SlEventStore *store, const SlEvent *e, const SlEventPacket *pk, gpointer data)
{
  return is_packet (e) && (pk->sport == ((Want *) data)->number || pk->dport == ((Want *) data)->number);
}

static gboolean
p_long_send (const SlEventStore *store, const SlEvent *e, const SlEventPacket *pk, gpointer data)
{
  return e->kind == SL_EVENT_PACKET_SEND && pk->length != SL_EVENT_NO_LENGTH && pk->length > 100;
}

static gboolean
p_switch_to (const SlEventStore *store, const SlEvent *e, const SlEventPacket *pk, gpointer data)
{
  return e->kind == SL_EVENT_SCHED_SWITCH && g_str_equal (str_of (store, e->str), ((Want *) data)->text);
}

static gboolean
p_tid_cpu (const SlEventStore *store, const SlEvent *e, const SlEventPacket *pk, gpointer data)
{
  gboolean threaded = e->kind != SL_EVENT_IRQ_ENTRY && e->kind != SL_EVENT_IRQ_EXIT &&
                      e->kind != SL_EVENT_SOFTIRQ_ENTRY && e->kind != SL_EVENT_SOFTIRQ_EXIT &&
                      e->kind != SL_EVENT_SOFTIRQ_RAISE && e->kind != SL_EVENT_LOST;

  return threaded && e->tid == ((Want *) data)->number && e->cpu == 0;
}

/* The search against a scan of every event of every store */
static guint64
check_search (Generated  *g,
              const char *text,
              Predicate   pred,
              gpointer    data,
              guint       max_hits)
{
  guint n_hosts = sl_timeline_get_n_hosts (g->l.tl);
  g_autofree const SlEventStore **stores = g_new0 (const SlEventStore *, n_hosts);
  g_autoptr(GError) error = NULL;
  SlEventQuery *q = sl_event_query_new (text, &error);
  g_autoptr(SlTimelineSearch) search = NULL;
  g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (SlSearchHit));
  GArray *hits;

  g_assert_no_error (error);
  g_assert_true (sl_event_query_looks_like (text));
  for (guint h = 0; h < n_hosts; h++)
    stores[h] = host_store (&g->l, h);
  search = sl_timeline_search_new (g->l.tl, stores, n_hosts, q, max_hits);
  g_assert_true (sl_timeline_search_run (search, NULL));
  g_assert_cmpfloat (sl_timeline_search_get_progress (search), ==, 1);

  for (guint h = 0; h < n_hosts; h++)
    for (guint st = 0; st < SL_EVENT_N_STREAMS; st++)
      for (guint64 k = 0; k < sl_event_store_get_n_events (stores[h], st); k++)
        {
          const SlEvent *e = sl_event_store_get (stores[h], st, k);

          if (pred (stores[h], e, st == SL_EVENT_STREAM_NET ? sl_event_store_get_packet (stores[h], k) : NULL, data))
            {
              SlSearchHit hit = { sl_timeline_to_view (g->l.tl, h, e->time), k, h, (guint8) st };

              g_array_append_val (want, hit);
            }
        }
  g_test_message ("“%s”: %u events", text, want->len);
  g_assert_cmpuint (sl_timeline_search_get_n_matches (search), ==, want->len);
  hits = sl_timeline_search_get_hits (search);
  g_assert_cmpuint (hits->len, ==, MIN (want->len, max_hits));
  /* by view time: the first ones kept */
  for (guint i = 0; i < hits->len; i++)
    {
      const SlSearchHit *x = &g_array_index (hits, SlSearchHit, i);
      guint rank = 0;

      if (i > 0)
        g_assert_cmpint (g_array_index (hits, SlSearchHit, i - 1).view_time, <=, x->view_time);
      g_assert_cmpint (x->view_time, ==, sl_timeline_to_view (g->l.tl, x->host,
                                                                sl_event_store_get (stores[x->host], x->stream,
                                                                                    x->index)->time));
      g_assert_true (pred (stores[x->host], sl_event_store_get (stores[x->host], x->stream, x->index),
                           x->stream == SL_EVENT_STREAM_NET ? sl_event_store_get_packet (stores[x->host], x->index)
                                                            : NULL, data));
      for (guint k = 0; k < want->len; k++)
        rank += g_array_index (want, SlSearchHit, k).view_time < x->view_time;
      g_assert_cmpuint (rank, <=, i);
    }
  return want->len;
}

static void
expect_error (const char *text,
              const char *fragment)
{
  g_autoptr(GError) error = NULL;
  SlEventQuery *q = sl_event_query_new (text, &error);

  g_assert_null (q);
  g_assert_nonnull (error);
  g_test_message ("“%s”: %s", text, error->message);
  g_assert_nonnull (strstr (error->message, fragment));
}

static void
test_search (void)
{
  Generated g;
  Want w = { 0 };
  guint32 port = 0, tid = 0;
  guint64 truth_port = 0;

  generated_init (&g, 3, 2 * G_GINT64_CONSTANT (1000000000), 31);
  sl_timeline_sync_engine (g.l.tl, g.l.engine);

  w.text = "sendto";
  g_assert_cmpuint (check_search (&g, "syscall = sendto", p_syscall, &w, 1000000), >, 100);
  /* the first ones only, all counted */
  check_search (&g, "syscall=sendto", p_syscall, &w, 10);

  /* an fd the traces have */
  {
    const SlEventStore *store = host_store (&g.l, 1);

    for (guint64 k = 0; k < sl_event_store_get_n_events (store, SL_EVENT_STREAM_SYSCALL) && w.number == 0; k++)
      {
        const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_SYSCALL, k);

        if (e->kind == SL_EVENT_SYSCALL_ENTRY && (e->flags & SL_EVENT_SYSCALL_HAS_FD) && e->arg > 2)
          w.number = (gint32) e->arg;
      }
  }
  g_assert_cmpint (w.number, >, 2);
  {
    g_autofree char *q = g_strdup_printf ("fd = %" G_GINT64_FORMAT, w.number);

    g_assert_cmpuint (check_search (&g, q, p_fd, &w, 1000000), >, 0);
  }

  /* a TCP port: as many events as packets the generator sent or received
   * on it */
  port = g_array_index (g.packets, TruthPacket, 0).ev.dport;
  for (guint i = 0; i < g.packets->len; i++)
    {
      const SlPacketEvent *ev = &g_array_index (g.packets, TruthPacket, i).ev;

      truth_port += ev->sport == port || ev->dport == port;
    }
  w.number = port;
  {
    g_autofree char *q = g_strdup_printf ("port = %u", port);

    g_assert_cmpuint (check_search (&g, q, p_port, &w, 1000000), ==, truth_port);
  }

  g_assert_cmpuint (check_search (&g, "event = packet_send and len > 100", p_long_send, NULL, 1000000), >, 0);
  w.text = "postgres";
  g_assert_cmpuint (check_search (&g, "sched_switch comm = postgres", p_switch_to, &w, 1000000), >, 0);
  {
    const SlEventStore *store = host_store (&g.l, 0);

    for (guint64 k = 0; k < sl_event_store_get_n_events (store, SL_EVENT_STREAM_SYSCALL) && tid == 0; k++)
      {
        const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_SYSCALL, k);

        if (e->cpu == 0 && e->tid != 0)
          tid = e->tid;
      }
  }
  w.number = tid;
  {
    g_autofree char *q = g_strdup_printf ("tid = %u && cpu = 0", tid);

    g_assert_cmpuint (check_search (&g, q, p_tid_cpu, &w, 1000000), >, 0);
  }

  /* host 1 shown through a piecewise map (its clock stepped 3 ms forward
   * halfway): the hits' view times are the timeline's, through that map */
  {
    const SlEventStore *store = host_store (&g.l, 1);
    guint64 n = sl_event_store_get_n_events (store, SL_EVENT_STREAM_SYSCALL);
    gint64 first = sl_event_store_get (store, SL_EVENT_STREAM_SYSCALL, 0)->time;
    gint64 last = sl_event_store_get (store, SL_EVENT_STREAM_SYSCALL, n - 1)->time;
    gint64 starts[2] = { G_MININT64, first + (last - first) / 2 };
    SlBoundPoint b[2] = { { first, 1000 }, { last, 1000 } };
    SlHostInfo hi = { 0 };
    SlTransform maps[2];
    g_autoptr(SlRelation) rel = NULL;

    sl_engine_get_host_info (g.l.engine, 1, &hi);
    maps[0] = hi.to_reference;
    maps[1] = hi.to_reference;
    maps[1].image += 3000000;
    rel = sl_relation_new (starts, maps, 2, b, 2, TRUE);
    sl_timeline_set_host_relation (g.l.tl, 1, rel, &maps[0]);
    sl_host_info_clear (&hi);
    g_assert_cmpint (sl_timeline_to_view (g.l.tl, 1, last), ==, sl_transform_apply (&maps[1], last));
    w.text = "sendto";
    g_assert_cmpuint (check_search (&g, "syscall = sendto", p_syscall, &w, 1000000), >, 100);
  }

  /* a cancelled search stops */
  {
    const SlEventStore *stores[3] = { host_store (&g.l, 0), host_store (&g.l, 1), host_store (&g.l, 2) };
    g_autoptr(SlTimelineSearch) search = sl_timeline_search_new (g.l.tl, stores, 3,
                                                                 sl_event_query_new ("cpu >= 0", NULL), 100);
    g_autoptr(GCancellable) c = g_cancellable_new ();

    g_cancellable_cancel (c);
    g_assert_false (sl_timeline_search_run (search, c));
  }

  /* what is not a query says why */
  g_assert_false (sl_event_query_looks_like ("python"));
  g_assert_true (sl_event_query_looks_like ("sched_wakeup"));
  expect_error ("foo = 1", "unknown field “foo”");
  expect_error ("fd = abc", "“fd” needs a number, not “abc”");
  expect_error ("= 5", "needs a field");
  expect_error ("fd =", "needs a value");
  expect_error ("syscall > read", "compare it with = or != only");
  expect_error ("event = nothing", "no kind of event is called “nothing”");
  expect_error ("", "nothing to find");
  generated_clear (&g);
}

/* ---------------------------------------------------------------------- */
/* Statistics                                                              */

static gboolean
running (guint state)
{
  return state == SL_TIMELINE_STATE_USER || state == SL_TIMELINE_STATE_SYSCALL || state == SL_TIMELINE_STATE_IRQ ||
         state == SL_TIMELINE_STATE_SOFTIRQ;
}

/* The time @row spends per state in [l0, l1), from its intervals */
static void
brute_states (SlTimeline *tl,
              guint       row,
              gint64      l0,
              gint64      l1,
              gint64      ns[SL_TIMELINE_N_STATES])
{
  gint64 sum = 0;

  memset (ns, 0, SL_TIMELINE_N_STATES * sizeof (gint64));
  for (guint64 k = 0; k < sl_timeline_get_n_intervals (tl, row); k++)
    {
      SlTimelineInterval iv;
      gint64 a, b;

      sl_timeline_get_interval (tl, row, k, &iv);
      a = MAX (iv.start, l0);
      b = MIN (iv.end, l1);
      if (b > a)
        {
          ns[iv.state] += b - a;
          sum += b - a;
        }
    }
  ns[SL_TIMELINE_STATE_NONE] += (l1 - l0) - sum;
}

static void
test_stats (void)
{
  Generated g;
  gint64 lo, hi, t0, t1;
  guint64 want_events = 0;
  g_autoptr(GArray) threads = NULL;
  g_autoptr(GArray) procs = NULL;
  g_autoptr(GArray) lat = NULL;
  g_autoptr(GArray) arrows = NULL;
  guint n_hosts, checked = 0;

  generated_init (&g, 3, 2 * G_GINT64_CONSTANT (1000000000), 41);
  sl_timeline_sync_engine (g.l.tl, g.l.engine);
  n_hosts = sl_timeline_get_n_hosts (g.l.tl);
  g_assert_true (sl_timeline_get_view_range (g.l.tl, &lo, &hi));
  t0 = lo + (hi - lo) / 5;
  t1 = lo + (hi - lo) * 3 / 5;

  /* events in the span, every one looked at */
  for (guint h = 0; h < n_hosts; h++)
    {
      const SlEventStore *store = host_store (&g.l, h);

      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        for (guint64 k = 0; k < sl_event_store_get_n_events (store, s); k++)
          {
            gint64 v = sl_timeline_to_view (g.l.tl, h, sl_event_store_get (store, s, k)->time);

            want_events += v >= t0 && v < t1;
          }
    }
  g_test_message ("%" G_GUINT64_FORMAT " events in the span", want_events);
  g_assert_cmpuint (want_events, >, 1000);
  g_assert_cmpuint (sl_timeline_count_events (g.l.tl, t0, t1), ==, want_events);
  g_assert_cmpuint (sl_timeline_count_events (g.l.tl, t1, t0), ==, 0);

  /* time per state per thread and per process */
  threads = sl_timeline_dup_state_stats (g.l.tl, t0, t1, SL_TIMELINE_ROW_THREAD);
  procs = sl_timeline_dup_state_stats (g.l.tl, t0, t1, SL_TIMELINE_ROW_PROCESS);
  g_assert_cmpuint (threads->len, >, 10);
  for (guint pass = 0; pass < 2; pass++)
    {
      GArray *stats = pass == 0 ? threads : procs;
      guint listed = 0;

      for (guint row = 0; row < sl_timeline_get_n_rows (g.l.tl); row++)
        {
          SlTimelineRowInfo ri;
          gint64 l0, l1, ns[SL_TIMELINE_N_STATES] = { 0 }, run = 0;
          gboolean any = FALSE;
          const SlTimelineStateStat *st = NULL;

          sl_timeline_get_row_info (g.l.tl, row, &ri);
          if (ri.kind != (pass == 0 ? SL_TIMELINE_ROW_THREAD : SL_TIMELINE_ROW_PROCESS))
            continue;
          l0 = sl_timeline_from_view (g.l.tl, ri.host, t0);
          l1 = sl_timeline_from_view (g.l.tl, ri.host, t1);
          if (pass == 0)
            {
              brute_states (g.l.tl, row, l0, l1, ns);
              any = ns[SL_TIMELINE_STATE_NONE] < l1 - l0;
            }
          else
            {
              g_autoptr(GArray) c = sl_timeline_dup_children (g.l.tl, row);

              for (guint i = 0; i < c->len; i++)
                {
                  gint64 tns[SL_TIMELINE_N_STATES];

                  brute_states (g.l.tl, g_array_index (c, guint, i), l0, l1, tns);
                  for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
                    ns[s] += tns[s];
                  any |= tns[SL_TIMELINE_STATE_NONE] < l1 - l0;
                }
            }
          for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
            run += running (s) ? ns[s] : 0;
          for (guint i = 0; i < stats->len; i++)
            if (g_array_index (stats, SlTimelineStateStat, i).row == row)
              st = &g_array_index (stats, SlTimelineStateStat, i);
          g_assert_true ((st != NULL) == any);
          if (st == NULL)
            continue;
          listed++;
          for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
            g_assert_cmpint (st->ns[s], ==, ns[s]);
          g_assert_cmpint (st->run_ns, ==, run);
        }
      g_assert_cmpuint (listed, ==, stats->len);
      for (guint i = 1; i < stats->len; i++)
        g_assert_cmpint (g_array_index (stats, SlTimelineStateStat, i - 1).run_ns, >=,
                         g_array_index (stats, SlTimelineStateStat, i).run_ns);
    }

  /* latency per link direction: every message sent in the span */
  lat = sl_timeline_dup_latency_stats (g.l.tl, t0, t1);
  arrows = all_arrows (g.l.tl);
  for (guint a = 0; a < n_hosts; a++)
    for (guint b = 0; b < n_hosts; b++)
      {
        g_autoptr(GArray) d = g_array_new (FALSE, FALSE, sizeof (gint64));
        const SlTimelineLatencyStat *st = NULL;
        guint64 bins[SL_TIMELINE_LATENCY_BINS] = { 0 };

        for (guint i = 0; i < arrows->len; i++)
          {
            const SlTimelineArrow *m = &g_array_index (arrows, SlTimelineArrow, i);

            if (m->send_host == a && m->recv_host == b && m->send_view >= t0 && m->send_view < t1)
              {
                gint64 x = m->recv_view - m->send_view;

                g_array_append_val (d, x);
              }
          }
        for (guint i = 0; i < lat->len; i++)
          if (g_array_index (lat, SlTimelineLatencyStat, i).send_host == a &&
              g_array_index (lat, SlTimelineLatencyStat, i).recv_host == b)
            st = &g_array_index (lat, SlTimelineLatencyStat, i);
        g_assert_true ((st != NULL) == (d->len > 0));
        if (st == NULL)
          continue;
        g_array_sort (d, sl_compare_gint64);
        g_test_message ("%u → %u: %u messages, %" G_GINT64_FORMAT " … %" G_GINT64_FORMAT " ns", a, b, d->len,
                        g_array_index (d, gint64, 0), g_array_index (d, gint64, d->len - 1));
        g_assert_cmpuint (st->count, ==, d->len);
        g_assert_cmpint (st->min_ns, ==, g_array_index (d, gint64, 0));
        g_assert_cmpint (st->max_ns, ==, g_array_index (d, gint64, d->len - 1));
        /* nearest rank, with doubles here */
        g_assert_cmpint (st->median_ns, ==, g_array_index (d, gint64, (guint) ceil (0.5 * d->len) - 1));
        g_assert_cmpint (st->p99_ns, ==, g_array_index (d, gint64, (guint) ceil (0.99 * d->len) - 1));
        g_assert_cmpint (st->min_ns + SL_TIMELINE_LATENCY_BINS * st->bin_ns, >, st->max_ns);
        for (guint i = 0; i < d->len; i++)
          bins[(g_array_index (d, gint64, i) - st->min_ns) / st->bin_ns]++;
        for (guint k = 0; k < SL_TIMELINE_LATENCY_BINS; k++)
          g_assert_cmpuint (st->bins[k], ==, bins[k]);
        checked++;
      }
  g_assert_cmpuint (checked, >=, 4);
  generated_clear (&g);
}

/* ---------------------------------------------------------------------- */
/* Requests followed                                                       */

static gboolean
state_blocks (guint8 state)
{
  return state == SL_TIMELINE_STATE_BLOCKED || state == SL_TIMELINE_STATE_EXITED;
}

/* Every step checked against the events, intervals and messages; returns
 * whether the chain holds a reply to @start (a message back on its
 * connection) */
static gboolean
check_chain (Generated             *g,
             const GArray          *arrows,
             const SlTimelineArrow *start,
             const GArray          *chain)
{
  SlTimeline *tl = g->l.tl;
  gboolean reply = FALSE;
  guint n_handoffs = 0;

  g_assert_cmpuint (chain->len, >=, 1);
  g_assert_cmpint (g_array_index (chain, SlTimelineChainStep, 0).message.send_time, ==, start->send_time);
  g_assert_cmpint (g_array_index (chain, SlTimelineChainStep, 0).message.recv_time, ==, start->recv_time);
  for (guint i = 0; i < chain->len; i++)
    {
      const SlTimelineChainStep *st = &g_array_index (chain, SlTimelineChainStep, i);
      const SlTimelineArrow *m = &st->message;
      SlTimelineRowInfo wi;

      if (st->kind != SL_TIMELINE_CHAIN_HANDOFF && m->connection == start->connection && m->send_host == start->recv_host &&
          m->send_view > start->send_view)
        reply = TRUE;
      if (i > 0)
        {
          const SlTimelineChainStep *p = &g_array_index (chain, SlTimelineChainStep, st->parent);

          g_assert_cmpuint (st->parent, <, i);
          g_assert_cmpuint (st->depth, ==, p->depth + 1);
          if (st->kind == SL_TIMELINE_CHAIN_REPLY)
            {
              /* the first message back on the parent's connection after
               * the parent arrived */
              g_assert_cmpuint (m->connection, ==, p->message.connection);
              g_assert_cmpuint (m->send_host, ==, p->message.recv_host);
              g_assert_cmpuint (m->recv_host, ==, p->message.send_host);
              g_assert_cmpint (m->send_time, >=, p->message.recv_time);
              for (guint a = 0; a < arrows->len; a++)
                {
                  const SlTimelineArrow *x = &g_array_index (arrows, SlTimelineArrow, a);

                  g_assert_false (x->connection == m->connection && x->send_host == m->send_host &&
                                  x->send_time >= p->message.recv_time && x->send_time < m->send_time);
                }
            }
          else
            {
              /* sent (or woken) by its parent's thread while it ran */
              g_assert_cmpuint (m->send_row, ==, p->woken_row);
              g_assert_cmpuint (m->send_host, ==, p->message.recv_host);
              g_assert_cmpint (m->send_time, >=, p->wakeup_time);
              g_assert_cmpint (m->send_time, <=, p->run_end);
            }
        }
      if (st->woken_row == SL_TIMELINE_NONE)
        continue;
      sl_timeline_get_row_info (tl, st->woken_row, &wi);
      g_assert_cmpuint (wi.host, ==, m->recv_host);
      if (st->kind == SL_TIMELINE_CHAIN_HANDOFF)
        {
          /* woken by its parent's thread, running on the CPU the wake-up
           * was recorded on */
          const SlEventStore *store = host_store (&g->l, m->recv_host);
          const SlTimelineChainStep *p = &g_array_index (chain, SlTimelineChainStep, st->parent);
          gboolean seen = FALSE;

          for (guint64 k = sl_event_store_lower_bound (store, SL_EVENT_STREAM_SCHED, st->wakeup_time);
               k < sl_event_store_get_n_events (store, SL_EVENT_STREAM_SCHED); k++)
            {
              const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_SCHED, k);
              SlTimelineInterval iv;

              if (e->time != st->wakeup_time)
                break;
              if (e->kind != SL_EVENT_SCHED_WAKEUP || e->tid != wi.tid)
                continue;
              sl_timeline_get_interval (tl, p->woken_row, sl_timeline_find_interval (tl, p->woken_row, e->time), &iv);
              seen |= iv.cpu == e->cpu &&
                      (iv.state == SL_TIMELINE_STATE_USER || iv.state == SL_TIMELINE_STATE_SYSCALL);
            }
          g_assert_true (seen);
          n_handoffs++;
        }
      /* woken by a wake-up event on a CPU that received this message or a
       * later segment of its burst (received in any order) */
      else
      {
        const SlEventStore *store = host_store (&g->l, m->recv_host);
        gboolean seen = FALSE, cpu_ok = FALSE;

        for (guint64 k = sl_event_store_lower_bound (store, SL_EVENT_STREAM_SCHED, st->wakeup_time);
             k < sl_event_store_get_n_events (store, SL_EVENT_STREAM_SCHED); k++)
          {
            const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_SCHED, k);

            if (e->time != st->wakeup_time)
              break;
            if (e->kind == SL_EVENT_SCHED_WAKEUP && e->tid == wi.tid)
              {
                seen = TRUE;
                for (guint a = 0; a < arrows->len; a++)
                  {
                    const SlTimelineArrow *x = &g_array_index (arrows, SlTimelineArrow, a);

                    cpu_ok |= x->connection == m->connection && x->recv_host == m->recv_host &&
                              x->send_time >= m->send_time && x->recv_time <= st->wakeup_time &&
                              x->recv_cpu == e->cpu;
                  }
              }
          }
        g_assert_true (seen);
        g_assert_true (cpu_ok);
      }
      /* it ran from run_start, and blocked at run_end, not before */
      g_assert_cmpint (st->run_start, >=, st->wakeup_time);
      g_assert_cmpint (st->run_end, >=, st->run_start);
      for (guint64 k = 0; k < sl_timeline_get_n_intervals (tl, st->woken_row); k++)
        {
          SlTimelineInterval iv;

          sl_timeline_get_interval (tl, st->woken_row, k, &iv);
          if (iv.start > st->run_start && iv.start < st->run_end)
            g_assert_false (state_blocks (iv.state));
          if (iv.start == st->run_end && iv.end > iv.start)
            g_assert_true (state_blocks (iv.state));
        }
      /* every message it sent meanwhile is in the chain */
      if (st->expanded)
        for (guint a = 0; a < arrows->len; a++)
          {
            const SlTimelineArrow *x = &g_array_index (arrows, SlTimelineArrow, a);
            SlTimelineMessage mm;
            gboolean in = FALSE;

            if (x->send_row != st->woken_row || x->send_time < st->wakeup_time || x->send_time > st->run_end)
              continue;
            sl_timeline_get_message (tl, x, &mm);
            if (mm.length == 0)
              continue;
            for (guint j = 0; j < chain->len && !in; j++)
              in = g_array_index (chain, SlTimelineChainStep, j).kind != SL_TIMELINE_CHAIN_HANDOFF &&
                   g_array_index (chain, SlTimelineChainStep, j).message.send_time == x->send_time &&
                   g_array_index (chain, SlTimelineChainStep, j).message.recv_host == x->recv_host;
            g_assert_true (in);
          }
    }
  (void) n_handoffs;
  return reply;
}

static void
test_follow (void)
{
  Generated g;
  g_autoptr(GArray) arrows = NULL;
  guint starts = 0, woke = 0, replied = 0, longest = 0;

  generated_init (&g, 3, 2 * G_GINT64_CONSTANT (1000000000), 51);
  sl_timeline_sync_engine (g.l.tl, g.l.engine);
  arrows = all_arrows (g.l.tl);
  for (guint i = 0; i < arrows->len && starts < 60; i += 7)
    {
      const SlTimelineArrow *a = &g_array_index (arrows, SlTimelineArrow, i);
      SlTimelineConnection conn;
      SlTimelineMessage m;
      g_autoptr(GArray) chain = NULL;

      /* requests: data from a client's ephemeral port to a server's (the
       * generator's clients use 32768 and up) */
      sl_timeline_get_connection (g.l.tl, a->connection, &conn);
      sl_timeline_get_message (g.l.tl, a, &m);
      if (m.send_port < 32768 || m.recv_port >= 32768 || m.length == 0 || m.length == SL_EVENT_NO_LENGTH)
        continue;
      starts++;
      chain = sl_timeline_follow_message (g.l.tl, a, 256);
      if (g_array_index (chain, SlTimelineChainStep, 0).woken_row != SL_TIMELINE_NONE)
        woke++;
      if (check_chain (&g, arrows, a, chain))
        replied++;
      longest = MAX (longest, chain->len);
    }
  g_test_message ("%u requests followed: %u woke their server's thread, %u chains hold the reply, longest %u",
                  starts, woke, replied, longest);
  g_assert_cmpuint (starts, >=, 20);
  /* (a request's earlier segments find the wake-up of its last one) */
  g_assert_cmpuint (woke, >=, starts * 9 / 10);
  g_assert_cmpuint (replied, >=, woke * 9 / 10);

  /* from a thread: the first request it sends */
  {
    const SlTimelineArrow *a = NULL;
    g_autoptr(GArray) chain = NULL;

    for (guint i = 0; i < arrows->len && a == NULL; i++)
      {
        const SlTimelineArrow *x = &g_array_index (arrows, SlTimelineArrow, i);
        SlTimelineRowInfo ri;
        SlTimelineMessage m;

        sl_timeline_get_row_info (g.l.tl, x->send_row, &ri);
        sl_timeline_get_message (g.l.tl, x, &m);
        if (ri.kind == SL_TIMELINE_ROW_THREAD && m.length > 0 && m.length != SL_EVENT_NO_LENGTH)
          a = x;
      }
    g_assert_nonnull (a);
    chain = sl_timeline_follow_thread (g.l.tl, a->send_row, a->send_time - 1, 256);
    g_assert_cmpuint (chain->len, >=, 1);
    /* the thread's first data message at or after that time: this one or
     * another one it sent at the same ns */
    g_assert_cmpint (g_array_index (chain, SlTimelineChainStep, 0).message.send_time, ==, a->send_time);
    g_assert_cmpuint (g_array_index (chain, SlTimelineChainStep, 0).message.send_row, ==, a->send_row);
  }
  generated_clear (&g);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline-tools/messages", test_messages);
  g_test_add_func ("/timeline-tools/search", test_search);
  g_test_add_func ("/timeline-tools/stats", test_stats);
  g_test_add_func ("/timeline-tools/follow", test_follow);
  return g_test_run ();
}
