/* sl-trace-reader.c: trace folders: calibration, merge, the public API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "sl-cpu-time.h"
#include "sl-heap.h"
#include "sl-trace-reader-private.h"

/*
 * Pipeline
 * --------
 * A scan thread finds the traces below the inputs and groups them into
 * hosts (sl-trace-scan.c). Each host is decoded by a syncline-decoder
 * process read by the host's thread (sl-trace-host.c) into the host's
 * feed of packet events and its event store; a host whose queue of
 * batches is full waits, and so does its decoder. The consumer (the
 * engine's thread, in sl_trace_reader_step()) never waits for a host: it
 * returns AGAIN instead (sl-feed.c: the merge).
 *
 * Merge order across hosts
 * ------------------------
 * The matcher swaps its table generations by the `now` we give it, so a
 * send and its receive must reach it close together in `now`, even when
 * the hosts' clocks are hours apart. Before merging, the consumer reads
 * ahead a few thousand packet events per host (the calibration), pairs
 * them by their TCP key regardless of time, and takes per link the offset
 * (median one-way difference, halved between the two directions when both
 * exist); a spanning tree of the links with most pairs gives each host an
 * offset hint to the first host of its component. Hosts are then merged by
 * local time minus hint, which is also the `now` given to the engine.
 * Hosts that no calibration pair reaches keep hint 0: their epoch-based
 * clocks (the CTF clock offset is included in every timestamp) are trusted
 * as they are. Each host also publishes a watermark (its decoding
 * position), so a host with few packets does not stall the merge.
 */

/* packet events held in the hosts' queues and in their calibration
 * read-ahead, all hosts together: with many hosts each gets less, so that
 * memory per host stays small (at least MIN_* each); nothing is merged
 * before every host's calibration packets are decoded, so they are fewer
 * than the queues' */
#define BUDGET_QUEUED          (512 * 1024)
#define BUDGET_CALIBRATION     (128 * 1024)
#define MIN_BATCH              64
#define MIN_CAL_PACKETS        256
/* SL_TRACE_SPILL_AUTO spills beyond this many hosts: a babeltrace2 graph
 * costs 1 to 3 MB (and far more with a real kernel's metadata) */
#define SPILL_HOSTS            256
#define DEFAULT_CAL_PACKETS    4096
#define CAL_SPAN_NS            (G_GINT64_CONSTANT (60) * 1000000000)


void
sl_trace_reader_add_problem (SlTraceReader *self,
                             const char    *host,
                             const char    *file,
                             const char    *fmt,
                             ...)
{
  va_list args;

  g_return_if_fail (self != NULL);
  g_return_if_fail (fmt != NULL);

  va_start (args, fmt);
  sl_problem_list_take (self->problems, sl_trace_problem_new_va (host, file, fmt, args));
  va_end (args);
}

static guint32
read_u32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return v;
}

/* ---------------------------------------------------------------------- */
/* Consumer: calibration and merge                                         */

static gboolean
calibration_enough (SlTraceReader *self,
                    Host          *h)
{
  return h->got_last ||
         h->cal_packets >= self->cal_packets ||
         (h->cal_packets > 0 && h->cal_last - h->cal_first >= CAL_SPAN_NS);
}

typedef struct
{
  guint8  family;
  guint16 sport;
  guint16 dport;
  guint32 seq;
  guint32 ack_seq;
  guint16 flags;
  guint8  saddr[16];
  guint8  daddr[16];
} CalKey;

static guint
cal_key_hash (gconstpointer p)
{
  const CalKey *k = p;
  guint h = k->seq * 2654435761u ^ k->ack_seq * 40503u ^ k->flags ^ ((guint) k->sport << 16 | k->dport) ^ k->family;

  for (guint i = 0; i < 16; i += 4)
    h = h * 31 + read_u32 (k->saddr + i) + read_u32 (k->daddr + i) * 7;
  return h;
}

static gboolean
cal_key_equal (gconstpointer a,
               gconstpointer b)
{
  return memcmp (a, b, sizeof (CalKey)) == 0;
}

static void
cal_key_init (CalKey              *k,
              const SlPacketEvent *e)
{
  memset (k, 0, sizeof *k);
  k->family = e->family;
  k->sport = e->sport;
  k->dport = e->dport;
  k->seq = e->seq;
  k->ack_seq = e->ack_seq;
  k->flags = e->flags;
  memcpy (k->saddr, e->saddr, 16);
  memcpy (k->daddr, e->daddr, 16);
}

static void
array_unref0 (gpointer a)
{
  if (a != NULL)
    g_array_unref (a);
}

static int
cmp_gint64 (gconstpointer a,
            gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

static gint64
median (GArray *a)
{
  g_array_sort (a, cmp_gint64);
  return g_array_index (a, gint64, a->len / 2);
}

/* Calls @func on the host's calibration packets: the read-ahead up to
 * calibration_packets or CAL_SPAN_NS, whatever the batches' sizes, so
 * that the hints do not depend on how the decoders' batches fell. */
static void
foreach_cal_packet (SlTraceReader *self,
                    Host          *h,
                    void         (*func) (const SlPacketEvent *e,
                                          gpointer             data),
                    gpointer       data)
{
  guint64 count = 0;
  gint64 first = 0;

  for (GList *l = sl_feed_get_read_ahead (h->feed)->head; l != NULL; l = l->next)
    {
      SlBatch *b = l->data;

      for (guint k = 0; k < b->n; k++)
        {
          const SlPacketEvent *e = &b->ev[k];

          if (count++ == 0)
            first = e->time;
          func (e, data);
          if (count >= self->cal_packets || e->time - first >= CAL_SPAN_NS)
            return;
        }
    }
}

typedef struct
{
  GHashTable *sends;
  GHashTable *diffs;
  guint       host;
} CalPairing;

static void
cal_send_cb (const SlPacketEvent *e,
             gpointer             data)
{
  CalPairing *c = data;
  CalKey key;

  if (e->dir != SL_PACKET_SEND)
    return;
  cal_key_init (&key, e);
  if (!g_hash_table_contains (c->sends, &key))
    {
      gint64 *v = g_new (gint64, 2);

      v[0] = c->host;
      v[1] = e->time;
      g_hash_table_insert (c->sends, g_memdup2 (&key, sizeof key), v);
    }
}

/* diffs[(a, b)]: recv_b - send_a */
static void
cal_recv_cb (const SlPacketEvent *e,
             gpointer             data)
{
  CalPairing *c = data;
  gint64 *v, d;
  guint64 pair;
  GArray *arr;
  CalKey key;

  if (e->dir == SL_PACKET_SEND)
    return;
  cal_key_init (&key, e);
  v = g_hash_table_lookup (c->sends, &key);
  if (v == NULL || v[0] == c->host)
    return;
  pair = (guint64) v[0] << 32 | c->host;
  arr = g_hash_table_lookup (c->diffs, &pair);
  if (arr == NULL)
    {
      arr = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (c->diffs, g_memdup2 (&pair, sizeof pair), arr);
    }
  d = e->time - v[1];
  g_array_append_val (arr, d);
}

static GArray *
cal_diffs (GHashTable *diffs,
           guint       a,
           guint       b)
{
  guint64 pair = (guint64) a << 32 | b;

  return g_hash_table_lookup (diffs, &pair);
}

/* A candidate tree edge of Prim's algorithm: the most pairs first, then
 * the lowest hosts, as a scan of every pair in index order would choose. */
typedef struct
{
  guint count;
  guint a;
  guint b;
} CalEdge;

static gboolean
cal_edge_before (gconstpointer x,
                 gconstpointer y)
{
  const CalEdge *p = x, *q = y;

  if (p->count != q->count)
    return p->count > q->count;
  return p->a != q->a ? p->a < q->a : p->b < q->b;
}

static void
push_cal_edges (GArray        *heap,
                GArray *const *adjacent,
                GHashTable    *diffs,
                const gboolean *reached,
                guint          a)
{
  for (guint k = 0; adjacent[a] != NULL && k < adjacent[a]->len; k++)
    {
      guint b = g_array_index (adjacent[a], guint, k);
      GArray *ab = cal_diffs (diffs, a, b), *ba = cal_diffs (diffs, b, a);
      CalEdge e = { (ab ? ab->len : 0) + (ba ? ba->len : 0), a, b };

      if (!reached[b])
        sl_heap_push (heap, &e, sizeof e, cal_edge_before);
    }
}

/* Offset hints from the calibration packets (see the top of the file).
 * Memory and time follow the pairs found, not the square of the hosts. */
static void
compute_hints (SlTraceReader *self)
{
  guint n = self->hosts->len;
  g_autoptr(GHashTable) sends = g_hash_table_new_full (cal_key_hash, cal_key_equal, g_free, g_free);
  g_autoptr(GHashTable) diffs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, array_unref0);
  g_autoptr(GArray) heap = g_array_new (FALSE, FALSE, sizeof (CalEdge));
  g_autofree gboolean *reached = NULL;
  g_autofree GArray **adjacent = NULL;
  CalPairing c = { sends, diffs, 0 };
  GHashTableIter it;
  gpointer key;

  if (n < 2)
    return;

  for (c.host = 0; c.host < n; c.host++)
    foreach_cal_packet (self, g_ptr_array_index (self->hosts, c.host), cal_send_cb, &c);
  for (c.host = 0; c.host < n; c.host++)
    foreach_cal_packet (self, g_ptr_array_index (self->hosts, c.host), cal_recv_cb, &c);

  /* each pair once in both hosts' lists */
  adjacent = g_new0 (GArray *, n);
  g_hash_table_iter_init (&it, diffs);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      guint a = (guint) (*(guint64 *) key >> 32), b = (guint) *(guint64 *) key;

      if (a > b && cal_diffs (diffs, b, a) != NULL)
        continue;
      for (guint side = 0; side < 2; side++)
        {
          guint from = side == 0 ? a : b, to = side == 0 ? b : a;

          if (adjacent[from] == NULL)
            adjacent[from] = g_array_new (FALSE, FALSE, sizeof (guint));
          g_array_append_val (adjacent[from], to);
        }
    }

  /* Prim's algorithm on the number of pairs, from the first host of each
   * component: hint_b = hint_a + offset_ab, offset_ab ~ t_b - t_a. */
  reached = g_new0 (gboolean, n);
  for (guint root = 0; root < n; root++)
    {
      CalEdge e;

      if (reached[root])
        continue;
      reached[root] = TRUE;
      sl_feed_set_hint (((Host *) g_ptr_array_index (self->hosts, root))->feed, 0);
      push_cal_edges (heap, adjacent, diffs, reached, root);

      while (sl_heap_pop (heap, &e, sizeof e, cal_edge_before))
        {
          GArray *ab = cal_diffs (diffs, e.a, e.b), *ba = cal_diffs (diffs, e.b, e.a);
          Host *ha = g_ptr_array_index (self->hosts, e.a);
          Host *hb = g_ptr_array_index (self->hosts, e.b);
          gint64 off;

          if (reached[e.b])
            continue;
          if (ab != NULL && ab->len > 0 && ba != NULL && ba->len > 0)
            off = median (ab) / 2 - median (ba) / 2;
          else if (ab != NULL && ab->len > 0)
            off = median (ab);
          else
            off = -median (ba);
          sl_feed_set_hint (hb->feed, sl_feed_get_hint (ha->feed) + off);
          reached[e.b] = TRUE;
          push_cal_edges (heap, adjacent, diffs, reached, e.b);
        }
    }
  for (guint i = 0; i < n; i++)
    if (adjacent[i] != NULL)
      g_array_unref (adjacent[i]);
}

/* Batches, queues and calibration sized to the number of hosts (see
 * BUDGET_QUEUED): 8 batches of 1024 up to ~100 hosts, 2 of 64 at 10 000. */
static void
size_queues (SlTraceReader *self)
{
  guint n = MAX (self->hosts->len, 1);
  guint per_host = MAX (BUDGET_QUEUED / n, 2 * MIN_BATCH);
  guint batch = CLAMP (per_host / 4, MIN_BATCH, SL_BATCH_CAP);

  sl_feed_hub_set_batch_size (self->hub, batch);
  self->queue_max = CLAMP (per_host / batch - 1, 1, SL_TRACE_QUEUE_MAX);
  self->cal_packets = self->options.calibration_packets != 0
                      ? self->options.calibration_packets
                      : CLAMP (BUDGET_CALIBRATION / n, MIN_CAL_PACKETS, DEFAULT_CAL_PACKETS);
}

/* With SL_TRACE_SPILL_*: each host's packet events to a temporary file. */
static void
set_up_spill (SlTraceReader *self)
{
  g_autoptr(GError) error = NULL;
  gboolean spill = self->options.spill == SL_TRACE_SPILL_ALWAYS ||
                   (self->options.spill == SL_TRACE_SPILL_AUTO && self->hosts->len > SPILL_HOSTS);

  if (!spill)
    return;
  self->spill_dir = sl_trace_tmp_make (g_get_tmp_dir (), "spill", &error);
  if (self->spill_dir == NULL)
    {
      sl_trace_reader_add_problem (self, NULL, g_get_tmp_dir (), "cannot make a folder for temporary files "
                                   "(%s); every host's decoder stays open", error->message);
      return;
    }
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);
      g_autofree char *name = g_strdup_printf ("host-%u", i);
      g_autofree char *path = g_build_filename (self->spill_dir, name, NULL);

      sl_feed_set_spill (h->feed, path);
    }
}

/* With more threads than hosts, a host's stream files are decoded by
 * several decoders at once (the threads shared out among the hosts);
 * not with --timeline (the event store takes one decoder's order) nor
 * when spilling (many hosts). The packet events reach the engine in the
 * same order either way. */
static void
split_hosts (SlTraceReader *self)
{
  guint n_hosts = self->hosts->len;
  guint per_host = n_hosts > 0 ? (self->options.n_threads + n_hosts - 1) / n_hosts : 1;

  self->n_decoders = 0;
  for (guint i = 0; i < n_hosts; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);

      if (per_host >= 2 && !self->options.keep_events && self->spill_dir == NULL)
        self->n_decoders += sl_trace_host_split (h, per_host);
      else
        self->n_decoders++;
    }
}

/* The hosts found join the engine, which can show them at once: their
 * decoders start at the next step (launch_hosts()). */
static void
register_hosts (SlTraceReader *self)
{
  size_queues (self);
  set_up_spill (self);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);

      sl_feed_set_engine_host (h->feed, sl_engine_add_host (self->engine, h->name));
      sl_feed_set_data (h->feed, h);
      g_ptr_array_add (self->feeds, h->feed);
      if (self->options.keep_events)
        h->store = sl_event_store_new ();
    }
  sl_profile_mark ("reader", "%u hosts in the engine", self->hosts->len);
}

/* The decoders' views of the traces, then a thread per host. With a
 * thousand hosts the views took a second and the threads more on a busy
 * machine, which the hosts' first picture waited for. */
static void
launch_hosts (SlTraceReader *self)
{
  sl_trace_group_make_views (self, self->hosts);
  split_hosts (self);
  self->free_slots = self->options.n_threads;
  for (guint i = 0; i < self->hosts->len; i++)
    sl_trace_host_start (g_ptr_array_index (self->hosts, i));
  self->launched = TRUE;
  sl_profile_mark ("reader", "%u host threads started", self->hosts->len);
}

/* Reads ahead what the host has published, up to enough for the
 * calibration (hub locked). */
static gboolean
calibrate_host_locked (SlTraceReader *self,
                       Host          *h)
{
  SlBatch *b;

  while (!calibration_enough (self, h) && (b = sl_feed_read_ahead_locked (h->feed)) != NULL)
    {
      if (b->n > 0)
        {
          if (h->cal_packets == 0)
            h->cal_first = b->ev[0].time;
          h->cal_last = b->ev[b->n - 1].time;
        }
      h->cal_packets += b->n;
      if (b->last)
        h->got_last = TRUE;
    }
  if (calibration_enough (self, h))
    return TRUE;
  sl_feed_want (h->feed);
  return FALSE;
}

/* Reads ahead a few thousand packet events per host (see the top of the
 * file); TRUE when every host has enough. After the first call, only the
 * hosts that published since are looked at. */
static gboolean
calibrate (SlTraceReader *self)
{
  g_autoptr(GPtrArray) published = g_ptr_array_new ();
  gboolean all;

  sl_feed_hub_lock (self->hub);
  sl_feed_hub_take_published_locked (self->hub, published);
  if (!self->cal_started)
    {
      self->cal_started = TRUE;
      self->cal_left = self->hosts->len;
      for (guint i = 0; i < self->hosts->len; i++)
        g_ptr_array_add (published, ((Host *) g_ptr_array_index (self->hosts, i))->feed);
    }
  for (guint i = 0; i < published->len; i++)
    {
      Host *h = sl_feed_get_data (g_ptr_array_index (published, i));

      if (h != NULL && !h->cal_done && calibrate_host_locked (self, h))
        {
          h->cal_done = TRUE;
          self->cal_left--;
        }
    }
  all = self->cal_left == 0;
  if (!all)
    sl_feed_hub_set_waiting_locked (self->hub);
  sl_feed_hub_unlock (self->hub);

  return all;
}

/* The events an extract's host had, not only its packet events, and
 * their span. */
static void
account_extracts (SlTraceReader *self)
{
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);
      guint eh = sl_feed_get_engine_host (h->feed);
      SlHostCounts c;

      if (!h->all_extracts || h->decode_failed || h->stopped)
        continue;
      sl_engine_get_host_counts (self->engine, eh, &c);
      if (h->extract_events >= c.events)
        sl_engine_add_host_counts (self->engine, eh, h->extract_events - c.events, h->extract_ignored, 0);
      if (h->extract_first <= h->extract_last)
        sl_engine_add_host_span (self->engine, eh, h->extract_first, h->extract_last);
    }
}

/* Once no decoder can run any more: the views go now, not when the reader
 * is freed (a process may end before the thread that frees it). The
 * host threads are at their end (or soon: cancelled); one that is not
 * after a second is left to sl_trace_reader_free(), never waited for. */
static void
remove_views (SlTraceReader *self)
{
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);

      for (guint k = 0; h->thread != NULL && !atomic_load (&h->thread_over); k++)
        {
          if (k == 100)
            return;
          g_usleep (10 * 1000);
        }
    }
  for (guint i = 0; i < self->hosts->len; i++)
    sl_trace_host_join (g_ptr_array_index (self->hosts, i));
  sl_trace_view_remove_all (self);
}

/* The first problem of each host's own, short, by host name: why a host
 * of which nothing was read could not be. */
static GHashTable *
first_problems (SlTraceReader *self)
{
  g_autoptr(GPtrArray) all = sl_problem_list_dup (self->problems);
  GHashTable *first = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < all->len; i++)
    {
      const SlTraceProblem *p = g_ptr_array_index (all, i);
      g_autofree char *file = NULL;
      g_autofree char *what = NULL;

      if (p->host == NULL || p->transient || g_hash_table_contains (first, p->host))
        continue;
      file = g_path_get_basename (p->file != NULL ? p->file : "?");
      what = sl_trace_problem_first_clause (p->message);
      g_hash_table_insert (first, g_strdup (p->host), g_strdup_printf ("%s: %s", file, what));
    }
  return first;
}

/* A host of which no event was read, with a problem of its own: the
 * engine names that problem as its reason, and so does the host's last
 * problem, rather than "no TCP packet events". Returns TRUE when it is
 * one. @first: first_problems(), made at the first call. */
static gboolean
mark_unread (SlTraceReader  *self,
             Host           *h,
             GHashTable    **first)
{
  guint eh = sl_feed_get_engine_host (h->feed);
  SlHostCounts c;
  const char *why;

  sl_engine_get_host_counts (self->engine, eh, &c);
  if (c.events > 0)
    return FALSE;
  if (*first == NULL)
    *first = first_problems (self);
  why = g_hash_table_lookup (*first, h->name);
  if (why == NULL)
    return FALSE;
  sl_engine_set_host_unread (self->engine, eh, why);
  if (!h->decode_failed)
    sl_trace_reader_add_problem (self, h->name, h->trace_paths->len == 1 ? g_ptr_array_index (h->trace_paths, 0) : h->hostname,
                                 "no event could be read (%s); the host cannot be synchronized", why);
  return TRUE;
}

static void
finish_merge (SlTraceReader *self)
{
  g_autoptr(GHashTable) first = NULL;

  account_extracts (self);
  remove_views (self);
  sl_feed_hub_lock (self->hub);
  self->end_time = g_get_monotonic_time ();
  sl_feed_hub_unlock (self->hub);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);

      if (sl_feed_get_out_of_span (h->feed) > 0)
        sl_trace_reader_add_problem (self, h->name, g_ptr_array_index (h->trace_paths, 0),
                                     "%" G_GUINT64_FORMAT " packet events lie more than 2^59 ns (18 years) from the "
                                     "host's first or out of the years 1896 to 2043 (damaged timestamps?); left out", sl_feed_get_out_of_span (h->feed));
      if (sl_feed_get_spill_lost (h->feed) > 0)
        sl_trace_reader_add_problem (self, h->name, self->spill_dir,
                                     "%" G_GUINT64_FORMAT " packet events lost: their temporary file went away",
                                     sl_feed_get_spill_lost (h->feed));
      if (sl_feed_get_fed (h->feed) == 0 && !h->stopped && !atomic_load (&self->cancelled) &&
          !mark_unread (self, h, &first) && !h->decode_failed)
        {
          g_autofree char *file = NULL, *why = NULL;
          guint64 unusable;

          sl_feed_hub_lock (self->hub);
          unusable = sl_feed_get_unusable_locked (h->feed);
          file = g_strdup (h->unusable_file);
          why = g_strdup (h->unusable_why);
          sl_feed_hub_unlock (self->hub);
          /* packet events there were, but none could be read: say which
           * and why, not that there are none */
          if (unusable > 0 && why != NULL)
            sl_trace_reader_add_problem (self, h->name, file,
                                         "none of its %" G_GUINT64_FORMAT " TCP packet events can be read (%s); "
                                         "the host cannot be synchronized", unusable, why);
          else
            sl_trace_reader_add_problem (self, h->name, h->trace_paths->len == 1 ? g_ptr_array_index (h->trace_paths, 0) : h->hostname,
                                         "no TCP packet events (net_dev_queue/net_if_receive_skb, inet_sock_local_*, "
                                         "syncline_net:tcp_*); the host cannot be synchronized");
        }
    }
}

static SlTraceReaderStatus
merge (SlTraceReader *self,
       gint64         deadline)
{
  SlFeedMerge m = { 0 };

  m.feeds = (SlFeed **) self->feeds->pdata;
  m.n_feeds = self->feeds->len;
  m.engine = self->engine;
  m.packet_func = self->options.packet_func;
  m.packet_data = self->options.packet_data;
  m.hold_us = -1;
  m.deadline = deadline;
  m.cancelled = &self->cancelled;
  switch (sl_feed_merge (self->hub, &m))
    {
    case SL_FEED_MERGE_DONE:
      finish_merge (self);
      self->state = STATE_DONE;
      return SL_TRACE_READER_DONE;
    case SL_FEED_MERGE_CANCELLED:
      return SL_TRACE_READER_CANCELLED;
    case SL_FEED_MERGE_BUSY:
      return SL_TRACE_READER_BUSY;
    case SL_FEED_MERGE_WAIT:
    case SL_FEED_MERGE_HOLD:
    default:
      return SL_TRACE_READER_AGAIN;
    }
}


/* ---------------------------------------------------------------------- */
/* Public API                                                              */

void
sl_trace_reader_options_init (SlTraceReaderOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->n_threads = 0;
  options->keep_events = FALSE;
  options->calibration_packets = 0;
}

SlTraceReader *
sl_trace_reader_new (SlEngine                   *engine,
                     const SlTraceReaderOptions *options)
{
  SlTraceReader *self;

  g_return_val_if_fail (engine != NULL, NULL);

  self = g_new0 (SlTraceReader, 1);
  self->engine = engine;
  if (options != NULL)
    self->options = *options;
  else
    sl_trace_reader_options_init (&self->options);
  if (self->options.n_threads == 0)
    self->options.n_threads = MAX (1, g_get_num_processors ());
  self->folders = g_ptr_array_new_with_free_func (g_free);
  self->hosts = g_ptr_array_new ();
  self->feeds = g_ptr_array_new ();
  self->hub = sl_feed_hub_new ();
  self->problems = sl_problem_list_new ();
  g_queue_init (&self->slot_queue);
  atomic_init (&self->cancelled, 0);
  self->state = STATE_INIT;
  return self;
}

void
sl_trace_reader_free (SlTraceReader *self)
{
  if (self == NULL)
    return;

  sl_trace_reader_cancel (self);
  if (self->scan_thread != NULL)
    g_thread_join (self->scan_thread);
  for (guint i = 0; i < self->hosts->len; i++)
    sl_trace_host_join (g_ptr_array_index (self->hosts, i));
  for (guint i = 0; i < self->hosts->len; i++)
    sl_trace_host_free (g_ptr_array_index (self->hosts, i));
  g_ptr_array_unref (self->hosts);
  g_ptr_array_unref (self->feeds);
  if (self->scanned != NULL && self->scanned != self->hosts)
    {
      for (guint i = 0; i < self->scanned->len; i++)
        sl_trace_host_free (g_ptr_array_index (self->scanned, i));
      g_ptr_array_unref (self->scanned);
    }
  if (self->spill_dir != NULL)
    g_rmdir (self->spill_dir);
  g_free (self->spill_dir);
  g_ptr_array_unref (self->folders);
  sl_trace_view_remove_all (self);
  sl_problem_list_free (self->problems);
  sl_feed_hub_free (self->hub);
  g_free (self);
}

void
sl_trace_reader_add_folder (SlTraceReader *self,
                            const char    *path)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (path != NULL);
  g_return_if_fail (self->state == STATE_INIT);

  g_ptr_array_add (self->folders, g_strdup (path));
}

void
sl_trace_reader_set_wakeup (SlTraceReader       *self,
                            SlTraceReaderWakeup  wakeup,
                            gpointer             user_data)
{
  g_return_if_fail (self != NULL);

  sl_feed_hub_set_wakeup (self->hub, wakeup, user_data);
}

void
sl_trace_reader_start (SlTraceReader *self)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->state == STATE_INIT);

  self->start_time = g_get_monotonic_time ();
  self->state = STATE_SCANNING;
  sl_profile_mark ("reader", "scan starts");
  self->scan_thread = g_thread_new ("sl-trace-scan", sl_trace_scan_thread, self);
}

/**
 * sl_trace_reader_step:
 * @budget_us: how long it may feed the engine before returning BUSY
 *
 * Call on the engine's thread. Never blocks on a worker: returns AGAIN
 * when it needs data that is not decoded yet (then sl_trace_reader_wait()
 * or the wakeup callback tells when to call again).
 */
SlTraceReaderStatus
sl_trace_reader_step (SlTraceReader *self,
                      gint64         budget_us)
{
  gint64 deadline;

  g_return_val_if_fail (self != NULL, SL_TRACE_READER_DONE);
  g_return_val_if_fail (self->state != STATE_INIT, SL_TRACE_READER_DONE);

  deadline = g_get_monotonic_time () + MAX (budget_us, 0);

  if (self->state == STATE_DONE)
    return SL_TRACE_READER_DONE;
  if (atomic_load (&self->cancelled) || self->state == STATE_CANCELLED)
    {
      if (self->state != STATE_CANCELLED && self->state != STATE_SCANNING)
        remove_views (self);
      self->state = STATE_CANCELLED;
      return SL_TRACE_READER_CANCELLED;
    }

  if (self->state == STATE_SCANNING)
    {
      gboolean done;

      sl_feed_hub_lock (self->hub);
      done = self->scan_done;
      if (done)
        {
          g_ptr_array_unref (self->hosts);
          self->hosts = g_steal_pointer (&self->scanned);
        }
      else
        sl_feed_hub_set_waiting_locked (self->hub);
      sl_feed_hub_unlock (self->hub);
      if (!done)
        return SL_TRACE_READER_AGAIN;

      if (self->options.scan_only)
        {
          for (guint i = 0; i < self->hosts->len; i++)
            {
              Host *h = g_ptr_array_index (self->hosts, i);

              sl_feed_set_engine_host (h->feed, sl_engine_add_host (self->engine, h->name));
            }
          remove_views (self);
          self->state = STATE_DONE;
          return SL_TRACE_READER_DONE;
        }
      register_hosts (self);
      self->state = STATE_CALIBRATING;
      return SL_TRACE_READER_BUSY;
    }

  if (self->state == STATE_CALIBRATING)
    {
      if (!self->launched)
        launch_hosts (self);
      if (!calibrate (self))
        return SL_TRACE_READER_AGAIN;
      sl_profile_mark ("reader", "calibrated");
      compute_hints (self);
      for (guint i = 0; i < self->hosts->len; i++)
        {
          Host *h = g_ptr_array_index (self->hosts, i);
          g_debug ("merge offset hint of %s: %" G_GINT64_FORMAT " ns", h->name, sl_feed_get_hint (h->feed));
        }
      self->state = STATE_MERGING;
    }

  return merge (self, deadline);
}

void
sl_trace_reader_wait (SlTraceReader *self,
                      gint64         timeout_us)
{
  g_return_if_fail (self != NULL);

  sl_feed_hub_wait (self->hub, g_get_monotonic_time () + timeout_us, &self->cancelled);
}

SlTraceReaderStatus
sl_trace_reader_run (SlTraceReader *self)
{
  g_return_val_if_fail (self != NULL, SL_TRACE_READER_DONE);

  if (self->state == STATE_INIT)
    sl_trace_reader_start (self);
  for (;;)
    {
      SlTraceReaderStatus st = sl_trace_reader_step (self, 100000);

      if (st == SL_TRACE_READER_DONE || st == SL_TRACE_READER_CANCELLED)
        return st;
      if (st == SL_TRACE_READER_AGAIN)
        sl_trace_reader_wait (self, 100000);
    }
}

void
sl_trace_reader_cancel (SlTraceReader *self)
{
  g_return_if_fail (self != NULL);

  atomic_store (&self->cancelled, 1);
  sl_feed_hub_lock (self->hub);
  /* the hosts array is swapped in under the hub lock */
  for (guint i = 0; i < self->hosts->len; i++)
    sl_trace_host_kill_locked (g_ptr_array_index (self->hosts, i));
  sl_trace_host_wake_slot_queue_locked (self);
  sl_feed_hub_broadcast_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
  sl_feed_hub_signal (self->hub);
}

void
sl_trace_reader_get_progress (SlTraceReader   *self,
                              SlTraceProgress *p)
{
  double bytes = 0, total = 0;
  gint64 end_time;
  double elapsed;

  g_return_if_fail (self != NULL);
  g_return_if_fail (p != NULL);

  memset (p, 0, sizeof *p);
  p->eta_s = -1;

  sl_feed_hub_lock (self->hub);
  end_time = self->end_time;
  p->scanning = !self->scan_done;
  if (self->scan_done)
    {
      GPtrArray *hosts = self->scanned != NULL ? self->scanned : self->hosts;

      p->hosts = hosts->len;
      for (guint i = 0; i < hosts->len; i++)
        {
          Host *h = g_ptr_array_index (hosts, i);
          gint64 b = atomic_load_explicit (&h->range_begin, memory_order_relaxed);
          gint64 e = atomic_load_explicit (&h->range_end, memory_order_relaxed);
          gint64 pos = sl_feed_get_position_locked (h->feed);
          double f = 0;

          /* by decoding position in the host's time range, weighted by
           * the host's stream bytes */
          p->events += sl_feed_get_events_locked (h->feed);
          if (sl_feed_get_finished_locked (h->feed))
            {
              p->hosts_done++;
              f = 1;
            }
          else if (e > b && pos > b)
            f = MIN (1.0, ((double) pos - (double) b) / ((double) e - (double) b));
          bytes += f * (double) MAX (h->total_bytes, 1);
          total += (double) MAX (h->total_bytes, 1);
        }
    }
  sl_feed_hub_unlock (self->hub);

  elapsed = self->start_time > 0
            ? (double) ((end_time > 0 ? end_time : g_get_monotonic_time ()) - self->start_time) / 1e6
            : 0;
  if (total > 0)
    p->fraction = MIN (1.0, bytes / total);
  if (end_time > 0 || (p->hosts > 0 && p->hosts_done == p->hosts))
    p->fraction = 1.0;
  if (elapsed > 0)
    p->events_per_s = (double) p->events / elapsed;
  if (p->fraction >= 1.0)
    p->eta_s = 0;
  else if (p->fraction > 0.01 && elapsed > 0.2)
    p->eta_s = elapsed * (1.0 - p->fraction) / p->fraction;
}

GPtrArray *
sl_trace_reader_dup_problems (SlTraceReader *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return sl_problem_list_dup (self->problems);
}

static Host *
get_host (SlTraceReader *self,
          guint          index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->state >= STATE_CALIBRATING, NULL);
  g_return_val_if_fail (index < self->hosts->len, NULL);

  return g_ptr_array_index (self->hosts, index);
}

/**
 * sl_trace_reader_get_launched:
 *
 * Whether the hosts' decoding has begun (their threads are started). The
 * step that makes the hosts known (sl_trace_reader_get_n_hosts()) returns
 * before: whoever shows them need not wait for a thousand threads and
 * their decoders' views.
 */
gboolean
sl_trace_reader_get_launched (SlTraceReader *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->launched;
}

/* Host queries are for the engine's thread once scanning is over. */
guint
sl_trace_reader_get_n_hosts (SlTraceReader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->state >= STATE_CALIBRATING ? self->hosts->len : 0;
}

const char *
sl_trace_reader_get_host_name (SlTraceReader *self,
                               guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL ? h->name : NULL;
}

guint
sl_trace_reader_get_engine_host (SlTraceReader *self,
                                 guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL ? sl_feed_get_engine_host (h->feed) : SL_HOST_NONE;
}

const GPtrArray *
sl_trace_reader_get_host_traces (SlTraceReader *self,
                                 guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL ? h->trace_paths : NULL;
}

/* The trace environment's hostname and the clock UUID (or %NULL) that
 * make the host. */
void
sl_trace_reader_get_host_identity (SlTraceReader  *self,
                                   guint           index,
                                   const char    **hostname,
                                   const char    **clock_uuid)
{
  Host *h;

  g_return_if_fail (hostname != NULL && clock_uuid != NULL);

  h = get_host (self, index);
  *hostname = h != NULL ? h->hostname : NULL;
  *clock_uuid = h != NULL ? h->clock_uuid : NULL;
}

gboolean
sl_trace_reader_host_failed (SlTraceReader *self,
                             guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL && h->decode_failed;
}

/* The store is complete, and may be read, once the reader is DONE or
 * sl_trace_reader_host_decoded() says so; until then its host's thread
 * appends to it. */
const SlEventStore *
sl_trace_reader_get_event_store (SlTraceReader *self,
                                 guint          index)
{
  Host *h = get_host (self, index);

  return h != NULL ? h->store : NULL;
}

/* TRUE once the host's decoding is over: nothing appends to its event
 * store any more (the merge may still be taking its packet events). */
gboolean
sl_trace_reader_host_decoded (SlTraceReader *self,
                              guint          index)
{
  Host *h = get_host (self, index);

  return h != NULL && (atomic_load (&h->thread_over) != 0 || self->state == STATE_DONE);
}

gint64
sl_trace_reader_get_merge_hint (SlTraceReader *self,
                                guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL ? sl_feed_get_hint (h->feed) : 0;
}

/**
 * sl_trace_reader_get_segment:
 * @index: a host of the reader
 * @first: (out) (optional): the reader's index of the host's first segment
 * @step_ns: (out) (optional): how far the clock stepped: this segment's
 *   timestamps read @step_ns more than the first segment's would for the
 *   same instant (its clock offset minus the first's)
 * @start_ns: (out) (optional): the segment's first timestamp (its own
 *   clock), where the step happened
 *
 * Whether the host is a later segment of another: the same machine and
 * boot after its clock stepped (a session begun again with a new clock
 * offset). The reader synchronizes each segment as a host of its own and
 * reports the step as a problem; an engine that joins segments into one
 * host with a break in its clock takes them from here.
 */
gboolean
sl_trace_reader_get_segment (SlTraceReader *self,
                             guint          index,
                             guint         *first,
                             gint64        *step_ns,
                             gint64        *start_ns)
{
  Host *h = get_host (self, index);

  if (h == NULL || h->first_segment == NULL)
    return FALSE;
  if (first != NULL)
    *first = h->first_segment->index;
  if (step_ns != NULL)
    *step_ns = h->step_ns;
  if (start_ns != NULL)
    *start_ns = h->segment_start_ns;
  return TRUE;
}
