/* sl-live-attach.c: one live attachment (host, session), decoded by a process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-live-private.h"

/*
 * Each attachment has a thread that runs a syncline-decoder process on
 * the session's URL (one babeltrace2 graph: src.ctf.lttng-live into
 * Syncline's sink) and reads its steps into the attachment's feed and
 * event store. Connecting and waiting for the relay happen in that
 * process: a relay that stops answering blocks only it, and stopping kills
 * it, which is immediate whatever babeltrace2 is doing. (In-process, the
 * only prompt way was to shut the socket a blocked thread waited on:
 * interrupting lttng-live 2.0.4 while it fetched metadata made it abort
 * the whole process.)
 */

#define POLL_US           (100 * 1000)
/* a burst from the relay comes in many small steps: partial batches are
 * handed over at most this often */
#define MIN_PUBLISH_US    2000

void
sl_live_add_problem (SlLive     *self,
                     const char *host,
                     const char *file,
                     const char *fmt,
                     ...)
{
  va_list ap;

  va_start (ap, fmt);
  sl_problem_list_take (self->problems, sl_trace_problem_new_va (host, file, fmt, ap));
  va_end (ap);
  sl_feed_hub_signal (self->hub);
}

/* Called with the lock held: a host that has no event yet keeps the
 * first reason why (the engine thread gives it to the engine, which then
 * names it as the host's reason, as a folder's host of which nothing could
 * be read); one that has events is not one. */
void
sl_live_host_unread_locked (LiveHost   *h,
                            const char *fmt,
                            ...)
{
  va_list ap;

  if (h->unread != NULL || sl_feed_get_events_locked (h->feed) > 0)
    return;
  va_start (ap, fmt);
  h->unread = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  h->live->hosts_changed = TRUE;
  sl_feed_hub_signal_locked (h->live->hub);
}

/* Called with the lock held. */
static void
set_state_locked (LiveHost        *h,
                  SlLiveHostState  state,
                  const char      *message)
{
  SlLive *self = h->live;

  if (h->state != state || g_strcmp0 (h->message, message) != 0)
    {
      h->state = state;
      g_free (h->message);
      h->message = g_strdup (message);
      self->hosts_changed = TRUE;
      sl_feed_hub_signal_locked (self->hub);
    }
}

static void
set_state (LiveHost        *h,
           SlLiveHostState  state,
           const char      *message)
{
  SlLive *self = h->live;

  sl_feed_hub_lock (self->hub);
  set_state_locked (h, state, message);
  sl_feed_hub_unlock (self->hub);
}

/* The attachment's feed published (hub locked): the decoder goes on. */
static void
published_cb (SlFeed   *feed,
              gpointer  data)
{
  LiveHost *h = data;
  SlLive *self = h->live;

  h->last_progress = g_get_monotonic_time ();
  /* what a stopping attachment publishes last says nothing of the relay;
   * an attachment on probation shows nothing before its first event */
  if (atomic_load (&h->stop) || h->probing)
    return;
  if (h->state == SL_LIVE_HOST_STALLED || h->state == SL_LIVE_HOST_CONNECTING)
    {
      if (h->stalled_reported)
        {
          SlTraceProblem *p;

          /* what the decoder received before the stall, published late
           * (a loaded machine), is no answer: only what the relay sent
           * since the stall was reported (a decoder that cannot tell,
           * answered 0, is taken at its word) */
          if (h->answered != 0 && h->answered <= h->stalled_at)
            return;
          p = sl_trace_problem_new (h->hostname, h->url, "the relay answers again");

          p->transient = TRUE;
          sl_problem_list_take (self->problems, p);
          h->stalled_reported = FALSE;
        }
      h->state = SL_LIVE_HOST_STREAMING;
      g_clear_pointer (&h->message, g_free);
      self->hosts_changed = TRUE;
    }
}

typedef struct
{
  gboolean hello;
  gboolean committed;
  gboolean ended;
  gboolean clock_seen;
  char    *fatal;
} Run;

/* The session's clock offset from the epoch, in ns (FALSE: unusable). */
static gboolean
clock_offset_ns (const SlWireFrame *f,
                 gint64            *offset_ns)
{
  SlWireClock c;
  __int128 ns;

  if (f->size < sizeof c)
    return FALSE;
  memcpy (&c, f->data, sizeof c);
  if (c.freq == 0)
    return FALSE;
  ns = (__int128) c.offset_s * 1000000000 + (__int128) c.offset_cycles * 1000000000 / c.freq;
  if (ns > G_MAXINT64 || ns < G_MININT64)
    return FALSE;
  *offset_ns = (gint64) ns;
  return TRUE;
}

/* The first clock of a decoder: a session attached again whose clock
 * offset moved (created again after the wall clock was stepped, or on a
 * clock that drifts from the wall clock) puts its events on another
 * clock, which becomes a segment of the host, as a folder's (issue 7).
 * The events that follow wait until the engine thread has made it. */
static void
on_clock (LiveHost          *h,
          Run               *run,
          const SlWireFrame *f)
{
  SlLive *self = h->live;
  gint64 offset;

  if (run->clock_seen || !clock_offset_ns (f, &offset))
    return;
  run->clock_seen = TRUE;
  sl_feed_hub_lock (self->hub);
  if (h->has_clock && ((__int128) offset - h->clock_offset_ns > SL_LIVE_STEP_TOLERANCE_NS ||
                       (__int128) h->clock_offset_ns - offset > SL_LIVE_STEP_TOLERANCE_NS))
    {
      h->step_ns = offset - h->clock_offset_ns;
      h->segment_wanted = TRUE;
      sl_feed_hub_signal_locked (self->hub);
      while (h->segment_wanted && !atomic_load (&h->stop))
        g_cond_wait_until (sl_feed_hub_get_cond (self->hub), sl_feed_hub_get_mutex (self->hub),
                           g_get_monotonic_time () + 100000);
    }
  h->has_clock = TRUE;
  h->clock_offset_ns = offset;
  sl_feed_hub_unlock (self->hub);
}

/* A step: hand its packet events over, but partial batches at most every
 * MIN_PUBLISH_US while the relay delivers. */
static void
on_commit (LiveHost          *h,
           const SlWireFrame *f)
{
  SlWireCommit c = { 0 };
  gint64 now = g_get_monotonic_time ();

  if (f->size >= sizeof c)
    memcpy (&c, f->data, sizeof c);
  /* 0: this decoder cannot tell now (no connection), which takes what it
   * publishes at its word; not folded into an earlier time */
  h->answered = c.answered == 0 ? 0 : MAX (h->answered, c.answered);
  if (c.step == SL_WIRE_STEP_OK && now - h->last_publish < MIN_PUBLISH_US)
    return;
  h->last_publish = now;
  sl_feed_publish (h->feed, SL_FEED_FLUSH_ALL);
}

static gboolean
on_frame (LiveHost          *h,
          Run               *run,
          const SlWireFrame *f)
{
  if (f->type == SL_WIRE_HELLO)
    {
      SlWireHello hello = { 0 };

      if (f->size >= sizeof hello)
        memcpy (&hello, f->data, sizeof hello);
      run->hello = hello.version == SL_WIRE_VERSION && hello.packet_event_size == sizeof (SlPacketEvent) &&
                   hello.event_size == sizeof (SlEvent);
      if (!run->hello)
        run->fatal = g_strdup ("the trace decoder is of another build of Syncline; reinstall it");
      return run->hello;
    }
  if (!run->hello)
    return FALSE;
  if (sl_decoder_apply (&h->target, f))
    {
      if (f->type == SL_WIRE_COMMIT)
        {
          run->committed = TRUE;
          on_commit (h, f);
        }
      return TRUE;
    }
  if (f->type == SL_WIRE_CLOCK)
    on_clock (h, run, f);
  else if (f->type == SL_WIRE_END)
    run->ended = TRUE;
  else if (f->type == SL_WIRE_FATAL && run->fatal == NULL)
    {
      gsize skip = strnlen ((const char *) f->data, f->size) + 1;

      run->fatal = skip < f->size ? sl_wire_string (f->data + skip, f->size - skip) : g_strdup ("");
    }
  return TRUE;
}

static SlDecoder *
spawn (LiveHost  *h,
       GError   **error)
{
  SlLive *self = h->live;
  g_autofree char *poll = g_strdup_printf ("--poll-ms=%u", self->options.poll_ms);
  const char *args[] = { "live", poll, h->store != NULL ? "--keep-events" : "--", h->url, NULL };

  return sl_decoder_spawn (args, error);
}

/* Reads the decoder until it ends or the attachment is stopped. */
static char *
run_decoder (LiveHost *h,
             Run      *run)
{
  SlLive *self = h->live;
  g_autoptr(GError) error = NULL;
  SlDecoder *d = spawn (h, &error);
  gboolean mid_step = FALSE;
  char *how;

  if (d == NULL)
    {
      run->fatal = g_strdup_printf ("cannot start the trace decoder: %s", error->message);
      return NULL;
    }
  sl_feed_hub_lock (self->hub);
  h->decoder = d;
  if (atomic_load (&h->stop))
    sl_decoder_kill (d);
  sl_feed_hub_unlock (self->hub);
  sl_decoder_target_reset (&h->target);
  /* a new decoder's connections: what the last one received says nothing */
  h->answered = 0;

  /* A step is read whole, even when stopping: its frames are all there
   * (the reader hands a step out once its commit came), and stopping
   * between its packet events and its events would give the engine
   * packet events that the host's store does not have. */
  while ((mid_step || !atomic_load (&h->stop)) && !run->ended)
    {
      SlWireFrame f;
      SlDecoderStatus st = sl_decoder_next (d, &f, POLL_US);

      if (st == SL_DECODER_EOF || (st != SL_DECODER_FRAME && atomic_load (&h->stop)))
        break;
      if (st != SL_DECODER_FRAME)
        continue;
      if (f.type == SL_WIRE_PACKETS || f.type == SL_WIRE_STRING || f.type == SL_WIRE_PACKET_INFO ||
          f.type == SL_WIRE_EVENTS)
        mid_step = TRUE;
      else if (f.type == SL_WIRE_COMMIT || f.type == SL_WIRE_END || f.type == SL_WIRE_FATAL)
        mid_step = FALSE;
      if (!on_frame (h, run, &f))
        break;
    }

  sl_decoder_kill (d);
  sl_feed_hub_lock (self->hub);
  h->decoder = NULL;
  sl_feed_hub_unlock (self->hub);
  how = sl_decoder_finish (d);
  sl_decoder_free (d);
  return how;
}

/* "WHAT: the first clause of WHY" as the host's unread reason. */
static void
unread_because (LiveHost   *h,
                const char *what,
                const char *why)
{
  g_autofree char *clause = sl_trace_problem_first_clause (why);

  sl_feed_hub_lock (h->live->hub);
  sl_live_host_unread_locked (h, "%s: %s", what, clause);
  sl_feed_hub_unlock (h->live->hub);
}

static void
report_end (LiveHost   *h,
            Run        *run,
            const char *how)
{
  SlLive *self = h->live;

  gboolean probing;

  sl_feed_hub_lock (self->hub);
  probing = h->probing;
  h->probing = FALSE;
  if (probing)
    {
      /* no event came: still the ended session, whatever ended this try
       * (the next session list that shows it again tries again) */
      h->session_ended = TRUE;
      set_state_locked (h, SL_LIVE_HOST_ENDED, "session ended");
    }
  sl_feed_hub_unlock (self->hub);
  if (probing)
    return;

  if (atomic_load (&h->stop))
    {
      sl_feed_hub_lock (self->hub);
      if (h->state == SL_LIVE_HOST_STREAMING || h->state == SL_LIVE_HOST_CONNECTING ||
          h->state == SL_LIVE_HOST_STALLED)
        set_state_locked (h, SL_LIVE_HOST_ENDED, "detached");
      sl_feed_hub_unlock (self->hub);
    }
  else if (run->ended)
    {
      sl_live_add_problem (self, h->hostname, h->url, "the session ended (destroyed, or the relay closed it)");
      sl_feed_hub_lock (self->hub);
      sl_live_host_unread_locked (h, "the session ended before its first event");
      h->session_ended = TRUE;
      set_state_locked (h, SL_LIVE_HOST_ENDED, "session ended");
      sl_feed_hub_unlock (self->hub);
    }
  else if (!run->committed)
    {
      const char *why = run->fatal != NULL && *run->fatal ? run->fatal : how != NULL ? how : "babeltrace2 refused";

      sl_live_add_problem (self, h->hostname, h->url, "cannot attach: %s", why);
      unread_because (h, "cannot attach", why);
      set_state (h, SL_LIVE_HOST_WAITING, "cannot attach; retrying");
    }
  else
    {
      g_autofree char *died = how != NULL ? g_strdup_printf ("the trace decoder %s", how) : NULL;
      const char *why = run->fatal != NULL && *run->fatal ? run->fatal
                        : died != NULL ? died : "connection to the relay failed";

      sl_live_add_problem (self, h->hostname, h->url, "lost the session: %s; will reconnect", why);
      unread_because (h, "lost the session", why);
      set_state (h, SL_LIVE_HOST_WAITING, "connection lost; retrying");
    }
}

static gpointer
attach_thread (gpointer data)
{
  LiveHost *h = data;
  SlLive *self = h->live;
  g_autofree char *how = NULL;
  Run run = { 0 };

  sl_feed_hub_lock (self->hub);
  h->last_progress = g_get_monotonic_time ();
  if (!h->probing)
    set_state_locked (h, SL_LIVE_HOST_CONNECTING, NULL);
  sl_feed_hub_unlock (self->hub);

  how = run_decoder (h, &run);
  sl_feed_publish (h->feed, SL_FEED_FLUSH_ALL);
  report_end (h, &run, how);
  g_free (run.fatal);

  sl_feed_hub_lock (self->hub);
  h->running = FALSE;
  h->ended_at = g_get_monotonic_time ();
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
  sl_live_unref (self);
  return NULL;
}

/* Called with the lock held. */
void
sl_live_attach_start_locked (SlLive   *self,
                             LiveHost *h)
{
  g_autofree char *name = g_strdup_printf ("sl-live-%u", h->index);

  if (h->thread != NULL)
    g_thread_unref (h->thread);
  atomic_store (&h->stop, 0);
  h->running = TRUE;
  h->session_ended = FALSE;
  h->probing = FALSE;
  h->detached = FALSE;
  h->last_progress = g_get_monotonic_time ();
  atomic_fetch_add (&self->ref_count, 1);
  h->thread = g_thread_new (name, attach_thread, h);
}

/* Called with the lock held: the decoder dies now. */
void
sl_live_attach_stop_locked (LiveHost *h)
{
  atomic_store (&h->stop, 1);
  if (h->decoder != NULL)
    sl_decoder_kill (h->decoder);
}

LiveHost *
sl_live_attach_new_locked (SlLive     *self,
                           const char *relay,
                           const char *hostname,
                           const char *session)
{
  LiveHost *h = g_new0 (LiveHost, 1);

  h->live = self;
  h->index = self->hosts->len;
  h->hostname = g_strdup (hostname);
  h->session = g_strdup (session);
  h->url = g_strdup_printf ("%s/host/%s/%s", relay, hostname, session);
  if (self->options.keep_events)
    {
      h->store = g_hash_table_lookup (self->history, hostname);
      if (h->store != NULL)
        {
          /* once: a second session of the host has its own */
          g_hash_table_remove (self->history, hostname);
        }
      else
        {
          h->store = sl_event_store_new ();
          h->store_owned = TRUE;
        }
    }
  h->feed = sl_feed_new (self->hub);
  sl_feed_set_publish_func (h->feed, published_cb, h);
  h->target.feed = h->feed;
  h->target.store = h->store;
  if (h->store != NULL && !h->store_owned)
    sl_decoder_target_continue (&h->target);
  /* the stores are read under the engine lock (sl_live_lock()) */
  h->target.store_lock = h->store != NULL ? &self->engine_lock : NULL;
  h->engine_host = SL_HOST_NONE;
  h->segments = g_array_new (FALSE, FALSE, sizeof (LiveSegment));
  h->state = SL_LIVE_HOST_CONNECTING;
  g_ptr_array_add (self->hosts, h);
  self->hosts_changed = TRUE;
  return h;
}

void
sl_live_attach_free (LiveHost *h)
{
  g_free (h->hostname);
  g_free (h->session);
  g_free (h->url);
  g_free (h->message);
  g_free (h->unread);
  sl_decoder_target_clear (&h->target);
  if (h->store_owned)
    sl_event_store_free (h->store);
  for (guint i = 0; i < h->segments->len; i++)
    {
      LiveSegment *seg = &g_array_index (h->segments, LiveSegment, i);

      if (seg->store_owned)
        sl_event_store_free (seg->store);
    }
  g_array_unref (h->segments);
  sl_feed_free (h->feed);
  if (h->thread != NULL)
    g_thread_unref (h->thread);
  g_free (h);
}
