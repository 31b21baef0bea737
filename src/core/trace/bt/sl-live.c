/* sl-live.c: live LTTng sessions through lttng-relayd
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-live-private.h"

/*
 * Threads
 * -------
 * Each attachment (host, session) has its own thread and its own
 * syncline-decoder process (sl-live-attach.c), which connects, decodes
 * and converts; the thread reads the process's steps into the
 * attachment's feed of packet events. A relay that stops answering blocks
 * only that process, and stopping kills it.
 *
 * A discovery thread reads the relay's session list every discover_ms
 * (sl-live-sessions.c, in a decoder process too): it starts an attachment
 * for every (host, session) that matches an URL and has none (hosts that
 * join later, and reconnection after a failure), and reports hosts whose
 * relay has not answered for stall_ms.
 *
 * The engine thread is the only one that touches the engine. It merges
 * the hosts' batches by time (sl-feed.c): a packet event is given to the
 * engine when every other streaming host is known up to its time (its own
 * events or the relay's inactivity beacons are past it: the per-host
 * watermark), or when it has waited hold_ms. After it has drained what is
 * there, it delivers one coalesced update if something changed, due
 * update_ms after the previous one or after the oldest packet event it
 * reflects arrived.
 *
 * Merge order across hosts uses each host's local time minus a hint: the
 * offset of its current transform to its reference (0 until it has one),
 * refreshed at each update. LTTng's timestamps are based on each host's
 * wall clock, so hosts start within their NTP error of each other; the
 * matcher pairs a send with its receive when their merge-order times are
 * within its window (10 s by default).
 */

/* ---------------------------------------------------------------------- */
/* Discovery                                                               */

static gboolean
target_matches (const Target        *t,
                const char          *relay,
                const SlLiveSession *s)
{
  return g_str_equal (t->relay, relay) &&
         (t->hostname == NULL || g_str_equal (t->hostname, s->hostname)) &&
         (t->session == NULL || g_str_equal (t->session, s->session));
}

static gboolean
host_matches (const Target   *t,
              const LiveHost *h)
{
  return g_str_has_prefix (h->url, t->relay) && h->url[strlen (t->relay)] == '/' &&
         (t->hostname == NULL || g_str_equal (t->hostname, h->hostname)) &&
         (t->session == NULL || g_str_equal (t->session, h->session));
}

static LiveHost *
find_host_locked (SlLive     *self,
                  const char *url)
{
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (g_str_equal (h->url, url))
        return h;
    }
  return NULL;
}

static gboolean
stopping_abort (gpointer data)
{
  SlLive *self = data;
  gboolean stopping;

  sl_feed_hub_lock (self->hub);
  stopping = self->stopping;
  sl_feed_hub_unlock (self->hub);
  return stopping;
}

/* Hosts the engine does not know yet are added on the engine thread. */
static void
discover_relay (SlLive     *self,
                const char *relay,
                GHashTable *unreachable)
{
  g_autoptr(GError) error = NULL;
  gint64 asked = g_get_monotonic_time ();
  g_autoptr(GPtrArray) list = sl_live_query_sessions (relay, self->options.stall_ms, stopping_abort, self, &error);

  if (list == NULL)
    {
      gboolean stopping, attached;

      sl_feed_hub_lock (self->hub);
      stopping = self->stopping;
      attached = self->hosts->len > 0;
      sl_feed_hub_unlock (self->hub);
      if (!stopping && !g_hash_table_contains (unreachable, relay))
        {
          SlTraceProblem *p = sl_trace_problem_new (NULL, relay, "%s; will retry", error->message);

          /* a relay that stalls under attachments is their stalled state
           * (one banner in the application), not news of its own; one that
           * refuses, or stalls before anything was attached, is */
          p->transient = attached && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
          sl_problem_list_take (self->problems, p);
          sl_feed_hub_signal (self->hub);
          g_hash_table_insert (unreachable, g_strdup (relay), GINT_TO_POINTER (p->transient ? 2 : 1));
        }
      return;
    }
  if (g_hash_table_contains (unreachable, relay))
    {
      SlTraceProblem *p = sl_trace_problem_new (NULL, relay, "the relay is reachable again");

      p->transient = GPOINTER_TO_INT (g_hash_table_lookup (unreachable, relay)) == 2;
      sl_problem_list_take (self->problems, p);
      sl_feed_hub_signal (self->hub);
      g_hash_table_remove (unreachable, relay);
    }

  sl_feed_hub_lock (self->hub);
  self->relay_answered = TRUE;
  for (guint i = 0; i < list->len && !self->stopping; i++)
    {
      SlLiveSession *s = g_ptr_array_index (list, i);
      gboolean wanted = FALSE, recreated;
      LiveHost *h;

      for (guint k = 0; k < self->targets->len && !wanted; k++)
        wanted = target_matches (g_ptr_array_index (self->targets, k), relay, s);
      if (!wanted || g_hash_table_contains (self->excluded, s->url))
        continue;

      h = find_host_locked (self, s->url);
      if (h != NULL && (h->running || (h->state == SL_LIVE_HOST_ENDED && !h->session_ended && !h->detached)))
        continue;
      /* A list asked for before the host's attachment ended may show the
       * session it read, its own viewer among the clients (the query is a
       * process of its own, which a loaded machine or the sanitizers slow
       * down): that is neither another viewer nor the session created
       * again. The next list says. */
      if (h != NULL && h->ended_at >= asked)
        continue;
      /* The relay lists no closed session: an ended session listed again
       * is the session created again under its name (a new session id),
       * attached again as the same host, its history kept. */
      recreated = h != NULL && h->session_ended;
      if (s->clients > 0)
        {
          /* Another viewer holds it: the relay allows one per session. */
          if (h == NULL)
            h = sl_live_attach_new_locked (self, relay, s->hostname, s->session);
          if (h->state != SL_LIVE_HOST_WAITING || g_strcmp0 (h->message, "another viewer is attached") != 0)
            {
              sl_problem_list_take (self->problems,
                               sl_trace_problem_new (s->hostname, s->url,
                                                     "another viewer is already attached to this session "
                                                     "(the relay allows one); waiting for it to detach"));
              h->state = SL_LIVE_HOST_WAITING;
              g_free (h->message);
              h->message = g_strdup ("another viewer is attached");
              sl_live_host_unread_locked (h, "another viewer is attached to its session");
              self->hosts_changed = TRUE;
            }
          continue;
        }
      if (h == NULL)
        h = sl_live_attach_new_locked (self, relay, s->hostname, s->session);
      sl_live_attach_start_locked (self, h);
      if (recreated)
        {
          /* still "ended" until its first event (check_stalls()): should
           * the relay list a closed session after all, a user sees no
           * host coming back, only one that really does */
          h->probing = TRUE;
          h->probe_events = sl_feed_get_events_locked (h->feed);
        }
    }
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
}

/* On the engine thread, which never waits for the network. */
static void
check_stalls (SlLive *self)
{
  gint64 now = g_get_monotonic_time ();

  sl_feed_hub_lock (self->hub);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (h->probing && h->running && sl_feed_get_events_locked (h->feed) > h->probe_events)
        {
          /* events: the session created again */
          h->probing = FALSE;
          h->reattached++;
          h->last_progress = now;
          h->state = SL_LIVE_HOST_STREAMING;
          g_clear_pointer (&h->message, g_free);
          sl_problem_list_take (self->problems,
                                sl_trace_problem_new (h->hostname, h->url,
                                                      "the session was created again; attached to it"));
          self->hosts_changed = TRUE;
        }
      if (!h->running || h->stalled_reported || h->probing)
        continue;
      if (now - h->last_progress > (gint64) self->options.stall_ms * 1000)
        {
          SlTraceProblem *p = sl_trace_problem_new (h->hostname, h->url,
                                                    "the relay has not answered for %.1f s (stalled relay or network cut)",
                                                    (now - h->last_progress) / 1e6);

          p->transient = TRUE;
          sl_problem_list_take (self->problems, p);
          h->stalled_reported = TRUE;
          h->stalled_at = now;
          h->state = SL_LIVE_HOST_STALLED;
          g_free (h->message);
          h->message = g_strdup ("relay not answering");
          self->hosts_changed = TRUE;
        }
    }
  sl_feed_hub_unlock (self->hub);
}

static gpointer
discover_thread (gpointer data)
{
  SlLive *self = data;
  g_autoptr(GHashTable) unreachable = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gint64 next = 0;

  for (;;)
    {
      g_autoptr(GPtrArray) relays = g_ptr_array_new_with_free_func (g_free);
      gint64 now = g_get_monotonic_time ();
      gint64 wake;

      sl_feed_hub_lock (self->hub);
      if (self->stopping)
        {
          sl_feed_hub_unlock (self->hub);
          break;
        }
      if (self->discover_now || now >= next)
        {
          self->discover_now = FALSE;
          next = now + (gint64) self->options.discover_ms * 1000;
          for (guint i = 0; i < self->targets->len; i++)
            {
              Target *t = g_ptr_array_index (self->targets, i);
              gboolean seen = FALSE;

              for (guint k = 0; k < relays->len && !seen; k++)
                seen = g_str_equal (g_ptr_array_index (relays, k), t->relay);
              if (!seen)
                g_ptr_array_add (relays, g_strdup (t->relay));
            }
        }
      sl_feed_hub_unlock (self->hub);

      for (guint i = 0; i < relays->len && !stopping_abort (self); i++)
        discover_relay (self, g_ptr_array_index (relays, i), unreachable);

      wake = MIN (next, g_get_monotonic_time () + 200 * 1000);
      sl_feed_hub_lock (self->hub);
      while (!self->stopping && !self->discover_now && g_get_monotonic_time () < wake)
        g_cond_wait_until (sl_feed_hub_get_cond (self->hub), sl_feed_hub_get_mutex (self->hub), wake);
      sl_feed_hub_unlock (self->hub);
    }

  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Engine thread                                                           */

static GPtrArray *
dup_hosts_locked (SlLive *self)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_live_host_free);

  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);
      SlLiveHost *c = g_new0 (SlLiveHost, 1);

      c->engine_host = h->engine_host;
      c->hostname = g_strdup (h->hostname);
      c->url = g_strdup (h->url);
      c->state = h->state;
      c->message = g_strdup (h->message);
      c->events = sl_feed_get_events_locked (h->feed);
      c->packets = sl_feed_get_published_locked (h->feed);
      c->watermark = sl_feed_get_watermark_locked (h->feed);
      c->last_fed = G_MININT64;
      g_ptr_array_add (out, c);
    }
  return out;
}

static gboolean
host_active (const LiveHost *h)
{
  return h->running && (h->state == SL_LIVE_HOST_STREAMING || h->state == SL_LIVE_HOST_CONNECTING);
}

/* A host whose session came back on a stepped clock: its events from now
 * on are a segment of their own, NAME/2, NAME/3…, synchronized as a host,
 * with their own store; the earlier segment keeps its events (engine
 * locked). Made once everything the feed published before is fed. */
static gboolean
start_segment (SlLive   *self,
               LiveHost *h)
{
  LiveSegment seg = { h->engine_host, h->store, h->store_owned };
  g_autofree char *name = NULL;
  guint e;

  sl_feed_hub_lock (self->hub);
  if (sl_feed_get_published_locked (h->feed) != sl_feed_get_fed (h->feed) + sl_feed_get_out_of_span (h->feed))
    {
      sl_feed_hub_unlock (self->hub);
      return FALSE;
    }
  sl_feed_hub_unlock (self->hub);

  name = g_strdup_printf ("%s/%u", h->hostname, h->segments->len + 2);
  e = sl_engine_find_host (self->engine, name);
  if (e == SL_HOST_NONE)
    e = sl_engine_add_host (self->engine, name);

  sl_feed_hub_lock (self->hub);
  g_array_append_val (h->segments, seg);
  if (h->store != NULL)
    {
      h->store = sl_event_store_new ();
      h->store_owned = TRUE;
      h->target.store = h->store;
      h->target.continues = FALSE;
    }
  h->engine_host = e;
  sl_feed_start_segment_locked (h->feed, e);
  h->segment_wanted = FALSE;
  sl_problem_list_take (self->problems,
                        sl_trace_problem_new (h->hostname, h->url,
                                              "the host's clock steps by %+.6f ms here (the session was created "
                                              "again, its clock offset measured anew); what follows is segment %s, "
                                              "synchronized as a host of its own",
                                              (double) h->step_ns / 1e6, name));
  self->hosts_changed = TRUE;
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
  return TRUE;
}

/* Gives the engine why a host of which no event came could not be read,
 * and takes it back once events come (engine locked). */
static gboolean
give_unread (SlLive   *self,
             LiveHost *h)
{
  g_autofree char *why = NULL;
  gboolean give = FALSE, take_back = FALSE;

  sl_feed_hub_lock (self->hub);
  if (h->unread != NULL)
    {
      if (sl_feed_get_events_locked (h->feed) > 0)
        {
          take_back = h->unread_given;
          g_clear_pointer (&h->unread, g_free);
          h->unread_given = FALSE;
        }
      else if (!h->unread_given)
        {
          give = TRUE;
          why = g_strdup (h->unread);
          h->unread_given = TRUE;
        }
    }
  sl_feed_hub_unlock (self->hub);
  if (give || take_back)
    sl_engine_set_host_unread (self->engine, h->engine_host, why);
  return give || take_back;
}

/* Registers the hosts the engine does not know yet, and gives it why
 * those of which nothing came could not be read (engine locked). */
static gboolean
register_hosts (SlLive *self,
                guint   n)
{
  gboolean changed = FALSE;

  for (guint i = 0; i < n; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);
      guint e;

      if (h->segment_wanted)
        changed |= start_segment (self, h);
      if (h->engine_host == SL_HOST_NONE)
        {
          e = sl_engine_find_host (self->engine, h->hostname);
          if (e == SL_HOST_NONE)
            e = sl_engine_add_host (self->engine, h->hostname);
          sl_feed_hub_lock (self->hub);
          h->engine_host = e;
          sl_feed_set_engine_host (h->feed, e);
          sl_feed_hub_unlock (self->hub);
          changed = TRUE;
        }
      changed |= give_unread (self, h);
    }
  return changed;
}

/* Feeds the engine with every packet event that may go; returns the time
 * (monotonic µs) at which a held one must go anyway, or G_MAXINT64. */
static gint64
feed (SlLive  *self,
      SlFeed **feeds,
      guint    n_hosts)
{
  SlFeedMerge m = { 0 };
  SlFeedMergeStatus st;

  m.feeds = feeds;
  m.n_feeds = n_hosts;
  m.engine = self->engine;
  m.hold_us = (gint64) self->options.hold_ms * 1000;
  m.deadline = G_MAXINT64;
  m.first_arrival = self->first_arrival;
  st = sl_feed_merge (self->hub, &m);
  self->first_arrival = m.first_arrival;
  self->packets_fed = 0;
  for (guint i = 0; i < n_hosts; i++)
    self->packets_fed += sl_feed_get_fed (feeds[i]);
  return st == SL_FEED_MERGE_HOLD ? m.until : G_MAXINT64;
}

static void
refresh_hints (SlLive *self,
               guint   n_hosts)
{
  for (guint i = 0; i < n_hosts; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);
      gint64 last_fed = sl_feed_get_last_fed (h->feed);
      SlHostInfo info = { 0 };

      /* at the newest packet event fed (the watermark may be G_MAXINT64
       * once a session ended) */
      if (h->engine_host == SL_HOST_NONE || last_fed == G_MININT64)
        continue;
      sl_engine_get_host_info (self->engine, h->engine_host, &info);
      if (info.reference != SL_HOST_NONE && info.reference != h->engine_host)
        sl_feed_set_hint (h->feed, last_fed - sl_transform_apply (&info.to_reference, last_fed));
      sl_host_info_clear (&info);
    }
}

static void
deliver (SlLive   *self,
         gboolean  final)
{
  SlJournal *j = sl_engine_get_journal (self->engine);
  SlLiveUpdate u = { 0 };
  GPtrArray *problems;

  sl_feed_hub_lock (self->hub);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);
      guint64 n = sl_feed_get_out_of_span (h->feed);

      if (n > h->out_of_span)
        sl_problem_list_add (self->problems, h->hostname, h->url,
                             "%" G_GUINT64_FORMAT " packet events lie more than 2^59 ns (18 years) from the host's "
                             "first or out of the years 1896 to 2043 (damaged timestamps?); left out", n - h->out_of_span);
      h->out_of_span = n;
      /* as a folder's host of which nothing could be read: its last problem */
      if (final && h->unread != NULL && sl_feed_get_events_locked (h->feed) == 0)
        sl_problem_list_add (self->problems, h->hostname, h->url,
                             "no event could be read (%s); the host cannot be synchronized", h->unread);
    }
  u.hosts = dup_hosts_locked (self);
  problems = sl_problem_list_take_new (self->problems);
  self->hosts_changed = FALSE;
  for (guint i = 0; i < u.hosts->len; i++)
    {
      SlLiveHost *c = g_ptr_array_index (u.hosts, i);

      c->last_fed = sl_feed_get_last_fed (((LiveHost *) g_ptr_array_index (self->hosts, i))->feed);
      u.events += c->events;
    }
  sl_feed_hub_unlock (self->hub);

  sl_engine_flush (self->engine);
  u.wall_time = g_get_real_time ();
  u.journal_first = self->journal_sent;
  u.journal_next = sl_journal_get_next_seq (j);
  u.packets = self->packets_fed;
  u.first_arrival = self->first_arrival;
  u.made = g_get_monotonic_time ();
  u.problems = problems;
  u.final = final;
  if (self->func != NULL)
    self->func (self, self->engine, &u, self->func_data);

  self->journal_sent = u.journal_next;
  self->packets_sent = self->packets_fed;
  self->first_arrival = 0;
  self->last_update = g_get_monotonic_time ();
  g_ptr_array_unref (u.hosts);
  g_ptr_array_unref (problems);
}

/* When the next update is due, if something changed (engine locked). */
static gint64
update_due (SlLive   *self,
            guint     n,
            gboolean  changed,
            gint64    due)
{
  gint64 next;

  changed |= self->packets_fed != self->packets_sent ||
             sl_journal_get_next_seq (sl_engine_get_journal (self->engine)) != self->journal_sent;
  if (!changed)
    return due;

  next = self->last_update + (gint64) self->options.update_ms * 1000;
  /* a packet that waited for slower hosts is not kept waiting for the
   * next update slot as well: latency stays ~max (hold, update); updates
   * still come at most four times per update_ms */
  if (self->first_arrival != 0)
    next = MIN (next, MAX (self->first_arrival + (gint64) self->options.update_ms * 1000,
                           self->last_update + (gint64) self->options.update_ms * 250));
  if (g_get_monotonic_time () >= next)
    {
      refresh_hints (self, n);
      deliver (self, FALSE);
      return due;
    }
  return MIN (due, next);
}

/* Waits for a signal (published batches, states, problems) or @due. */
static void
engine_wait (SlLive  *self,
             guint64  seen,
             gint64   due)
{
  GCond *cond = sl_feed_hub_get_cond (self->hub);
  GMutex *mutex = sl_feed_hub_get_mutex (self->hub);

  /* stall checks */
  due = MIN (due, g_get_monotonic_time () + 200000);
  sl_feed_hub_lock (self->hub);
  while (sl_feed_hub_get_seq_locked (self->hub) == seen && !self->stopping && g_get_monotonic_time () < due)
    g_cond_wait_until (cond, mutex, due);
  if (self->stopping)
    {
      /* wait for the hosts to finish instead of spinning */
      gboolean any = FALSE;

      for (guint i = 0; i < self->hosts->len; i++)
        any |= ((LiveHost *) g_ptr_array_index (self->hosts, i))->running;
      if (any && sl_feed_hub_get_seq_locked (self->hub) == seen)
        g_cond_wait_until (cond, mutex, g_get_monotonic_time () + 20000);
    }
  sl_feed_hub_unlock (self->hub);
}

static gpointer
engine_thread (gpointer data)
{
  SlLive *self = data;
  g_autoptr(GPtrArray) feeds = g_ptr_array_new ();

  for (;;)
    {
      gint64 due;
      gboolean stopping, changed, running = FALSE;
      guint64 seen;
      guint n;

      check_stalls (self);

      sl_feed_hub_lock (self->hub);
      n = self->hosts->len;
      stopping = self->stopping;
      g_ptr_array_set_size (feeds, 0);
      for (guint i = 0; i < n; i++)
        {
          LiveHost *h = g_ptr_array_index (self->hosts, i);

          running |= h->running;
          /* a host that stopped is no longer waited for */
          sl_feed_set_waited (h->feed, !stopping && host_active (h));
          g_ptr_array_add (feeds, h->feed);
        }
      changed = self->hosts_changed || sl_problem_list_count_new (self->problems) > 0;
      seen = sl_feed_hub_get_seq_locked (self->hub);
      sl_feed_hub_unlock (self->hub);

      g_mutex_lock (&self->engine_lock);
      changed |= register_hosts (self, n);
      sl_feed_hub_lock (self->hub);
      for (guint i = 0; i < n; i++)
        sl_feed_account_locked (g_ptr_array_index (feeds, i), self->engine);
      sl_feed_hub_unlock (self->hub);
      due = feed (self, (SlFeed **) feeds->pdata, n);

      if (stopping && !running)
        {
          /* everything published has been fed (hosts are inactive) */
          deliver (self, TRUE);
          g_mutex_unlock (&self->engine_lock);
          break;
        }
      due = update_due (self, n, changed, due);
      g_mutex_unlock (&self->engine_lock);

      engine_wait (self, seen, due);
    }
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Public API                                                              */

void
sl_live_options_init (SlLiveOptions *options)
{
  g_return_if_fail (options != NULL);

  options->poll_ms = 10;
  options->update_ms = 20;
  options->discover_ms = 1000;
  options->stall_ms = 3000;
  options->hold_ms = 20;
  options->keep_events = FALSE;
}

/**
 * sl_live_new:
 * @engine: the engine to feed; it must outlive the #SlLive and, while
 *   live is running, be used by other threads only between
 *   sl_live_lock() and sl_live_unlock()
 */
SlLive *
sl_live_new (SlEngine            *engine,
             const SlLiveOptions *options)
{
  SlLive *self;

  g_return_val_if_fail (engine != NULL, NULL);

  self = g_new0 (SlLive, 1);
  atomic_init (&self->ref_count, 1);
  self->engine = engine;
  if (options != NULL)
    self->options = *options;
  else
    sl_live_options_init (&self->options);
  self->options.poll_ms = MAX (self->options.poll_ms, 1);
  self->options.discover_ms = MAX (self->options.discover_ms, 50);
  self->options.stall_ms = MAX (self->options.stall_ms, 100);
  self->hub = sl_feed_hub_new ();
  self->problems = sl_problem_list_new ();
  g_mutex_init (&self->engine_lock);
  self->targets = g_ptr_array_new_with_free_func (sl_live_target_free);
  self->hosts = g_ptr_array_new ();
  self->history = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->excluded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->journal_sent = sl_journal_get_next_seq (sl_engine_get_journal (engine));
  return self;
}

void
sl_live_unref (SlLive *self)
{
  if (atomic_fetch_sub (&self->ref_count, 1) != 1)
    return;

  for (guint i = 0; i < self->hosts->len; i++)
    sl_live_attach_free (g_ptr_array_index (self->hosts, i));
  g_ptr_array_unref (self->hosts);
  g_ptr_array_unref (self->targets);
  sl_problem_list_free (self->problems);
  sl_feed_hub_free (self->hub);
  g_hash_table_unref (self->history);
  g_hash_table_unref (self->excluded);
  g_mutex_clear (&self->engine_lock);
  g_free (self);
}

void
sl_live_free (SlLive *self)
{
  if (self == NULL)
    return;
  sl_live_stop (self);
  sl_live_unref (self);
}

/**
 * sl_live_add_history:
 * @hostname: a host's name, as its traces and the relay give it
 * @store: its events read from a trace folder (the relay's output, for
 *   the history a viewer never receives)
 *
 * With #SlLiveOptions.keep_events, the host's first attachment appends
 * what it receives to @store instead of a store of its own, after what
 * @store holds (what it holds already is not added again; when the live
 * events start after a gap, a lost-events mark at the end of the history
 * says that what happened in between is not known). @store must outlive
 * @self. Call it before sl_live_start().
 */
void
sl_live_add_history (SlLive       *self,
                     const char   *hostname,
                     SlEventStore *store)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (hostname != NULL);
  g_return_if_fail (store != NULL);

  sl_feed_hub_lock (self->hub);
  g_hash_table_replace (self->history, g_strdup (hostname), store);
  sl_feed_hub_unlock (self->hub);
}

/**
 * sl_live_add_url:
 * @url: `net://RELAY[:PORT]` (every session of every host, now and
 *   later), `net://RELAY[:PORT]/session/NAME` (that session on every
 *   host) or `net://RELAY[:PORT]/host/HOSTNAME/NAME`
 */
gboolean
sl_live_add_url (SlLive      *self,
                 const char  *url,
                 GError     **error)
{
  g_autoptr(GError) spawn_error = NULL;
  Target *t;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (url != NULL, FALSE);

  if (sl_decoder_get_program (&spawn_error) == NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s", spawn_error->message);
      return FALSE;
    }
  t = g_new0 (Target, 1);
  if (!sl_live_parse_url (url, &t->relay, &t->hostname, &t->session, error))
    {
      sl_live_target_free (t);
      return FALSE;
    }
  sl_feed_hub_lock (self->hub);
  /* what was detached and this URL asks for is attached again */
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (host_matches (t, h))
        g_hash_table_remove (self->excluded, h->url);
    }
  g_ptr_array_add (self->targets, t);
  self->discover_now = TRUE;
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
  return TRUE;
}

/**
 * sl_live_remove_url:
 * @url: an URL as sl_live_add_url() takes
 *
 * Detaches the attachments @url matches, now, without waiting: what they
 * received stays (their hosts, links and events), their state becomes
 * ended ("detached"). The URLs given before that equal @url are forgotten,
 * and broader ones (a whole relay, a session on every host) no longer
 * attach these sessions; sl_live_add_url() attaches them again.
 *
 * Returns: how many attachments were detached
 */
guint
sl_live_remove_url (SlLive     *self,
                    const char *url)
{
  Target t = { 0 };
  guint n = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (url != NULL, 0);

  if (!sl_live_parse_url (url, &t.relay, &t.hostname, &t.session, NULL))
    return 0;
  sl_feed_hub_lock (self->hub);
  for (guint i = self->targets->len; i-- > 0;)
    {
      Target *o = g_ptr_array_index (self->targets, i);

      if (g_str_equal (o->relay, t.relay) && g_strcmp0 (o->hostname, t.hostname) == 0 &&
          g_strcmp0 (o->session, t.session) == 0)
        g_ptr_array_remove_index (self->targets, i);
    }
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (!host_matches (&t, h))
        continue;
      g_hash_table_add (self->excluded, g_strdup (h->url));
      h->detached = TRUE;
      if (h->running)
        {
          sl_live_attach_stop_locked (h);
          n++;
        }
      else if (h->state != SL_LIVE_HOST_ENDED)
        {
          /* waiting (another viewer, a lost connection): it stops here */
          h->state = SL_LIVE_HOST_ENDED;
          g_free (h->message);
          h->message = g_strdup ("detached");
          self->hosts_changed = TRUE;
          n++;
        }
    }
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
  g_free (t.relay);
  g_free (t.hostname);
  g_free (t.session);
  return n;
}

void
sl_live_set_update_func (SlLive           *self,
                         SlLiveUpdateFunc  func,
                         gpointer          user_data)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->engine_lock);
  self->func = func;
  self->func_data = user_data;
  g_mutex_unlock (&self->engine_lock);
}

void
sl_live_start (SlLive *self)
{
  g_return_if_fail (self != NULL);

  sl_feed_hub_lock (self->hub);
  if (self->started)
    {
      sl_feed_hub_unlock (self->hub);
      return;
    }
  self->started = TRUE;
  sl_feed_hub_unlock (self->hub);

  self->engine_thread = g_thread_new ("sl-live-engine", engine_thread, self);
  self->discover_thread = g_thread_new ("sl-live-discover", discover_thread, self);
}

/**
 * sl_live_stop:
 *
 * Detaches from every session and returns when the engine thread has
 * delivered its final update: each attachment's decoder process is killed,
 * so nothing waits for a relay.
 */
void
sl_live_stop (SlLive *self)
{
  g_return_if_fail (self != NULL);

  sl_feed_hub_lock (self->hub);
  if (!self->started || self->stopping)
    {
      sl_feed_hub_unlock (self->hub);
      return;
    }
  self->stopping = TRUE;
  for (guint i = 0; i < self->hosts->len; i++)
    sl_live_attach_stop_locked (g_ptr_array_index (self->hosts, i));
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);

  g_thread_join (self->discover_thread);
  self->discover_thread = NULL;
  /* attachments started meanwhile are stopped too */
  sl_feed_hub_lock (self->hub);
  for (guint i = 0; i < self->hosts->len; i++)
    sl_live_attach_stop_locked (g_ptr_array_index (self->hosts, i));
  sl_feed_hub_unlock (self->hub);

  g_thread_join (self->engine_thread);
  self->engine_thread = NULL;
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (h->thread != NULL)
        {
          g_thread_join (h->thread);
          h->thread = NULL;
        }
    }
}

/**
 * sl_live_reconnect:
 *
 * Reads the relays' session lists now, attaching again to what was lost.
 */
void
sl_live_reconnect (SlLive *self)
{
  g_return_if_fail (self != NULL);

  sl_feed_hub_lock (self->hub);
  self->discover_now = TRUE;
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
}

/**
 * sl_live_get_event_store:
 * @engine_host: a host's index in the engine
 *
 * With #SlLiveOptions.keep_events, the events received live from
 * @engine_host's first attachment (for the timeline); %NULL otherwise.
 * Read it only in the update callback or between sl_live_lock() and
 * sl_live_unlock(): the host's thread appends to it.
 */
const SlEventStore *
sl_live_get_event_store (SlLive *self,
                         guint   engine_host)
{
  const SlEventStore *store = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  sl_feed_hub_lock (self->hub);
  for (guint i = 0; i < self->hosts->len && store == NULL; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (h->engine_host == engine_host)
        store = h->store;
      for (guint k = 0; k < h->segments->len && store == NULL; k++)
        if (g_array_index (h->segments, LiveSegment, k).engine_host == engine_host)
          store = g_array_index (h->segments, LiveSegment, k).store;
    }
  sl_feed_hub_unlock (self->hub);
  return store;
}

void
sl_live_lock (SlLive *self)
{
  g_mutex_lock (&self->engine_lock);
}

void
sl_live_unlock (SlLive *self)
{
  g_mutex_unlock (&self->engine_lock);
}

GPtrArray *
sl_live_dup_hosts (SlLive *self)
{
  GPtrArray *out;

  g_return_val_if_fail (self != NULL, NULL);

  sl_feed_hub_lock (self->hub);
  out = dup_hosts_locked (self);
  sl_feed_hub_unlock (self->hub);
  return out;
}

/**
 * sl_live_get_connected:
 *
 * Whether a relay answered a session list since sl_live_start().
 */
gboolean
sl_live_get_connected (SlLive *self)
{
  gboolean connected;

  g_return_val_if_fail (self != NULL, FALSE);

  sl_feed_hub_lock (self->hub);
  connected = self->relay_answered;
  sl_feed_hub_unlock (self->hub);
  return connected;
}

/**
 * sl_live_dup_problems:
 *
 * Returns: (transfer full): every #SlTraceProblem raised so far
 */
GPtrArray *
sl_live_dup_problems (SlLive *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return sl_problem_list_dup (self->problems);
}
