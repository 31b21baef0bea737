/* test-timeline-tools.c: what the timeline's tools compute, without a
 * display: messages' details
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-generate.h"
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline-tools/messages", test_messages);
  return g_test_run ();
}
