/* sl-feed.c: packet events from decoders to the engine, merged by time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sl-feed.h"
#include "sl-heap.h"

/* packets fed between two looks at the deadline and the cancel flag */
#define CHECK_EVERY 4096
#define MAX_FREE_BATCHES 64

/* The merge's order: a feed's next packet event by merge key, ties to the
 * feed given first. A packet event goes only before every other feed's
 * next one or watermark in this order: a waited feed's watermark is
 * often its next packet event's key exactly (its partial batch's first),
 * so a tie with it must wait for it too, or the order of tied packet
 * events would follow which batches had arrived (the threads' timing). */
typedef struct
{
  gint64  key;
  guint32 index;
  guint32 gen;
} HeapEntry;

typedef enum
{
  MERGE_NONE,
  MERGE_READY,
  MERGE_STALLED,
  MERGE_DONE,
} MergeState;

struct _SlFeedHub
{
  GMutex           lock;
  GCond            cond;
  guint64          seq;
  guint64          seen;
  gboolean         consumer_waiting;
  SlFeedHubWakeup  wakeup;
  gpointer         wakeup_data;
  GPtrArray       *free_batches;
  guint            batch_cap;
  /* feeds that published since the consumer last looked */
  GPtrArray       *published;
  atomic_int       any_published;

  /* the merge (consumer): the feeds it knows, a heap of those with a
   * packet event in hand by its key, a heap of the waited ones without,
   * by watermark key (entries of a feed that moved on are skipped) */
  GPtrArray       *known;
  GArray          *ready;
  GArray          *stalled;
  guint            n_active;
  gboolean         dirty;
};

struct _SlFeed
{
  SlFeedHub  *hub;
  SlFeedFunc  publish_func;
  gpointer    publish_data;
  SlFeedFunc  take_func;
  gpointer    take_data;

  /* producer */
  SlBatch    *fill;
  int         spill_fd;
  gboolean    spill_failed;
  guint64     events_local;
  guint64     ignored_local;
  guint64     unusable_local;
  gint64      seen;
  gint64      first_local;
  gint64      last_local;

  /* hub locked */
  GQueue      queue;
  gint64      watermark;
  gboolean    finished;
  guint64     events;
  guint64     ignored;
  guint64     unusable;
  gint64      first;
  gint64      last;
  guint64     published;
  gint64      position;
  atomic_int  wanted;
  gboolean    listed;
  guint64     spilled;

  /* consumer */
  GQueue      ahead;
  SlBatch    *cur;
  guint       engine_host;
  gint64      hint;
  gboolean    waited;
  gboolean    done;
  guint64     fed;
  gint64      last_fed;
  gint64      first_fed;
  guint64     out_of_span;
  guint64     events_counted;
  guint64     ignored_counted;
  guint64     unusable_counted;
  gpointer    data;
  char       *spill_path;
  guint64     spill_pos;
  guint64     spill_lost;
  guint       merge_index;
  MergeState  merge_state;
  guint32     stall_gen;
  gint64      first_counted;
  gint64      last_counted;
};

/* ---------------------------------------------------------------------- */
/* Hub                                                                     */

static void
batch_free (SlBatch *b)
{
  if (b == NULL)
    return;
  g_free (b->ev);
  g_free (b);
}

SlFeedHub *
sl_feed_hub_new (void)
{
  SlFeedHub *hub = g_new0 (SlFeedHub, 1);

  g_mutex_init (&hub->lock);
  g_cond_init (&hub->cond);
  hub->free_batches = g_ptr_array_new_with_free_func ((GDestroyNotify) batch_free);
  hub->batch_cap = SL_BATCH_CAP;
  hub->published = g_ptr_array_new ();
  atomic_init (&hub->any_published, 0);
  hub->known = g_ptr_array_new ();
  hub->ready = g_array_new (FALSE, FALSE, sizeof (HeapEntry));
  hub->stalled = g_array_new (FALSE, FALSE, sizeof (HeapEntry));
  return hub;
}

void
sl_feed_hub_free (SlFeedHub *hub)
{
  if (hub == NULL)
    return;
  g_ptr_array_unref (hub->free_batches);
  g_ptr_array_unref (hub->published);
  g_ptr_array_unref (hub->known);
  g_array_unref (hub->ready);
  g_array_unref (hub->stalled);
  g_mutex_clear (&hub->lock);
  g_cond_clear (&hub->cond);
  g_free (hub);
}

/* Packet events per batch, at most SL_BATCH_CAP (the default): with many
 * hosts, small batches keep the memory of their queues small. Batches made
 * from now on have this size. */
void
sl_feed_hub_set_batch_size (SlFeedHub *hub,
                            guint      n)
{
  g_return_if_fail (hub != NULL);

  g_mutex_lock (&hub->lock);
  hub->batch_cap = CLAMP (n, 1, SL_BATCH_CAP);
  g_ptr_array_set_size (hub->free_batches, 0);
  g_mutex_unlock (&hub->lock);
}

void
sl_feed_hub_lock (SlFeedHub *hub)
{
  g_mutex_lock (&hub->lock);
}

void
sl_feed_hub_unlock (SlFeedHub *hub)
{
  g_mutex_unlock (&hub->lock);
}

GCond *
sl_feed_hub_get_cond (SlFeedHub *hub)
{
  return &hub->cond;
}

GMutex *
sl_feed_hub_get_mutex (SlFeedHub *hub)
{
  return &hub->lock;
}

guint64
sl_feed_hub_get_seq_locked (SlFeedHub *hub)
{
  return hub->seq;
}

/* Returns whether the wakeup callback is due (call it unlocked). */
gboolean
sl_feed_hub_signal_locked (SlFeedHub *hub)
{
  gboolean wake = hub->consumer_waiting && hub->wakeup != NULL;

  hub->seq++;
  hub->consumer_waiting = FALSE;
  g_cond_broadcast (&hub->cond);
  return wake;
}

void
sl_feed_hub_signal (SlFeedHub *hub)
{
  gboolean wake;

  g_mutex_lock (&hub->lock);
  wake = sl_feed_hub_signal_locked (hub);
  g_mutex_unlock (&hub->lock);
  if (wake)
    hub->wakeup (hub->wakeup_data);
}

/* Wakes the threads waiting on the hub's condition (producers waiting for
 * room) without a signal for the consumer. */
void
sl_feed_hub_broadcast_locked (SlFeedHub *hub)
{
  g_cond_broadcast (&hub->cond);
}

void
sl_feed_hub_set_wakeup (SlFeedHub       *hub,
                        SlFeedHubWakeup  wakeup,
                        gpointer         user_data)
{
  g_mutex_lock (&hub->lock);
  hub->wakeup = wakeup;
  hub->wakeup_data = user_data;
  g_mutex_unlock (&hub->lock);
}

/* The consumer looked at everything up to now and waits for more: the
 * next signal calls the wakeup callback. */
void
sl_feed_hub_set_waiting_locked (SlFeedHub *hub)
{
  hub->seen = hub->seq;
  hub->consumer_waiting = TRUE;
}

/* Appends the feeds that published since the last call (or the merge's
 * last look) to @out, and forgets them: the consumer looks at those only. */
void
sl_feed_hub_take_published_locked (SlFeedHub *hub,
                                   GPtrArray *out)
{
  for (guint i = 0; i < hub->published->len; i++)
    {
      SlFeed *f = g_ptr_array_index (hub->published, i);

      f->listed = FALSE;
      g_ptr_array_add (out, f);
    }
  g_ptr_array_set_size (hub->published, 0);
  atomic_store_explicit (&hub->any_published, 0, memory_order_relaxed);
}

/* Waits until a signal after the consumer's last look (the merge, or
 * sl_feed_hub_set_waiting_locked()), @end_time or a cancel. Returns FALSE
 * on timeout. */
gboolean
sl_feed_hub_wait (SlFeedHub        *hub,
                  gint64            end_time,
                  const atomic_int *cancelled)
{
  gboolean signalled = TRUE;

  g_mutex_lock (&hub->lock);
  while (hub->seq == hub->seen && !(cancelled != NULL && atomic_load (cancelled)))
    if (!g_cond_wait_until (&hub->cond, &hub->lock, end_time))
      {
        signalled = FALSE;
        break;
      }
  g_mutex_unlock (&hub->lock);
  return signalled;
}

static SlBatch *
batch_new_locked (SlFeedHub *hub)
{
  SlBatch *b;

  if (hub->free_batches->len > 0)
    b = g_ptr_array_steal_index_fast (hub->free_batches, hub->free_batches->len - 1);
  else
    {
      b = g_new0 (SlBatch, 1);
      b->cap = hub->batch_cap;
      b->ev = g_new (SlPacketEvent, b->cap);
    }
  b->n = b->pos = 0;
  b->arrival = 0;
  b->last = FALSE;
  return b;
}

static void
batch_recycle_locked (SlFeedHub *hub,
                      SlBatch   *b)
{
  if (hub->free_batches->len < MAX_FREE_BATCHES && b->cap == hub->batch_cap)
    g_ptr_array_add (hub->free_batches, b);
  else
    batch_free (b);
}

/* ---------------------------------------------------------------------- */
/* Feeds                                                                   */

SlFeed *
sl_feed_new (SlFeedHub *hub)
{
  SlFeed *f;

  g_return_val_if_fail (hub != NULL, NULL);

  f = g_new0 (SlFeed, 1);
  f->hub = hub;
  f->seen = G_MININT64;
  f->first_local = f->first = f->first_counted = G_MAXINT64;
  f->last_local = f->last = f->last_counted = G_MININT64;
  f->watermark = G_MININT64;
  f->position = G_MININT64;
  f->last_fed = G_MININT64;
  f->first_fed = G_MININT64;
  f->engine_host = SL_HOST_NONE;
  f->waited = TRUE;
  f->spill_fd = -1;
  atomic_init (&f->wanted, 0);
  g_queue_init (&f->queue);
  g_queue_init (&f->ahead);
  return f;
}

void
sl_feed_free (SlFeed *feed)
{
  SlBatch *b;

  if (feed == NULL)
    return;
  batch_free (feed->fill);
  batch_free (feed->cur);
  while ((b = g_queue_pop_head (&feed->queue)) != NULL)
    batch_free (b);
  while ((b = g_queue_pop_head (&feed->ahead)) != NULL)
    batch_free (b);
  if (feed->spill_fd >= 0)
    close (feed->spill_fd);
  if (feed->spill_path != NULL)
    g_unlink (feed->spill_path);
  g_free (feed->spill_path);
  g_free (feed);
}

/* @func runs at every publication, hub locked (the live reader's states). */
void
sl_feed_set_publish_func (SlFeed     *feed,
                          SlFeedFunc  func,
                          gpointer    user_data)
{
  feed->publish_func = func;
  feed->publish_data = user_data;
}

/* @func runs when the consumer takes a batch, hub locked (the folder
 * reader requeues a parked decoder). */
void
sl_feed_set_take_func (SlFeed     *feed,
                       SlFeedFunc  func,
                       gpointer    user_data)
{
  feed->take_func = func;
  feed->take_data = user_data;
}

/* Producer: appends the batch to the spill file; FALSE when it cannot (the
 * batch then goes to the queue, and all later ones too). */
static gboolean
spill_write (SlFeed  *feed,
             SlBatch *b)
{
  const guint8 *p = (const guint8 *) b->ev;
  gsize left = (gsize) b->n * sizeof (SlPacketEvent);

  if (feed->spill_failed)
    return FALSE;
  if (feed->spill_fd < 0)
    feed->spill_fd = g_open (feed->spill_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
  while (feed->spill_fd >= 0 && left > 0)
    {
      gssize w = write (feed->spill_fd, p, left);

      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        break;
      p += w;
      left -= (gsize) w;
    }
  if (feed->spill_fd < 0 || left > 0)
    {
      /* what was half written is never read: the count is not updated */
      feed->spill_failed = TRUE;
      return FALSE;
    }
  return TRUE;
}

/* Consumer, hub locked: the next batch of the spill file, or NULL. */
static SlBatch *
spill_read_locked (SlFeedHub *hub,
                   SlFeed    *feed)
{
  SlBatch *b;
  guint n;
  gsize want, got = 0;
  int fd;

  if (feed->spill_pos >= feed->spilled)
    return NULL;
  b = batch_new_locked (hub);
  n = (guint) MIN ((guint64) b->cap, feed->spilled - feed->spill_pos);
  want = (gsize) n * sizeof (SlPacketEvent);
  fd = g_open (feed->spill_path, O_RDONLY | O_CLOEXEC, 0);
  while (fd >= 0 && got < want)
    {
      gssize r = pread (fd, (guint8 *) b->ev + got, want - got,
                        (off_t) (feed->spill_pos * sizeof (SlPacketEvent) + got));

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      got += (gsize) r;
    }
  if (fd >= 0)
    close (fd);
  if (got < want)
    {
      /* the file went away under us: those packet events are lost */
      feed->spill_lost += feed->spilled - feed->spill_pos;
      feed->spill_pos = feed->spilled;
      batch_recycle_locked (hub, b);
      return NULL;
    }
  b->n = n;
  b->arrival = g_get_monotonic_time ();
  feed->spill_pos += n;
  return b;
}

/* Adds a packet event to the batch being filled; a full batch is handed
 * over. */
void
sl_feed_push (SlFeed              *feed,
              const SlPacketEvent *event)
{
  if (G_UNLIKELY (feed->fill == NULL))
    {
      g_mutex_lock (&feed->hub->lock);
      feed->fill = batch_new_locked (feed->hub);
      g_mutex_unlock (&feed->hub->lock);
    }
  feed->fill->ev[feed->fill->n] = *event;
  if (++feed->fill->n == feed->fill->cap)
    sl_feed_publish (feed, SL_FEED_FLUSH_IF_WANTED);
}

/* Events decoded (packet events or not), network events ignored, and of
 * those the packet events that could not be read. */
void
sl_feed_count (SlFeed  *feed,
               guint64  events,
               guint64  ignored,
               guint64  unusable)
{
  feed->events_local += events;
  feed->ignored_local += ignored;
  feed->unusable_local += unusable;
}

/* The host's events seen so far span [@first, @last] (its own clock): the
 * engine's bounds cover every one of them. */
void
sl_feed_span (SlFeed *feed,
              gint64  first,
              gint64  last)
{
  if (first > last)
    return;
  feed->first_local = MIN (feed->first_local, first);
  feed->last_local = MAX (feed->last_local, last);
}

/* Everything of the host up to @time is decoded (an event's time, an
 * inactivity beacon). */
void
sl_feed_seen (SlFeed *feed,
              gint64  time)
{
  if (time > feed->seen)
    feed->seen = time;
}

/* Packet events not handed over yet. */
guint
sl_feed_get_filled (SlFeed *feed)
{
  return feed->fill != NULL ? feed->fill->n : 0;
}

guint64
sl_feed_get_events_local (SlFeed *feed)
{
  return feed->events_local;
}

/**
 * sl_feed_publish:
 * @flush: IF_WANTED hands the batch being filled over when it is full or
 *   when the consumer waits for this host (pushing every partial batch
 *   would fill the queue with tiny batches); ALL hands any packet event
 *   over (live); LAST ends the feed
 *
 * Publishes the counts, the decoding position and the watermark: every
 * packet event not handed over yet is at or after it.
 */
void
sl_feed_publish (SlFeed      *feed,
                 SlFeedFlush  flush)
{
  SlFeedHub *hub = feed->hub;
  SlBatch *b = feed->fill;
  guint spilled = 0;
  gboolean wake;
  /* read once: a spilling feed that left a partial batch out of its file
   * must not queue it because the consumer wanted it meanwhile, or it
   * would be taken after the file's later batches */
  gboolean wanted = atomic_load (&feed->wanted);

  /* what would be handed over goes to the spill file, outside the lock */
  if (feed->spill_path != NULL && b != NULL && b->n > 0 &&
      (flush != SL_FEED_FLUSH_IF_WANTED || b->n == b->cap || wanted) &&
      spill_write (feed, b))
    {
      spilled = b->n;
      b->n = 0;
    }
  if (flush == SL_FEED_FLUSH_LAST && feed->spill_fd >= 0)
    {
      close (feed->spill_fd);
      feed->spill_fd = -1;
    }

  g_mutex_lock (&hub->lock);
  if (spilled > 0)
    {
      feed->spilled += spilled;
      feed->published += spilled;
      atomic_store (&feed->wanted, 0);
    }
  if (b == NULL && flush == SL_FEED_FLUSH_LAST)
    b = feed->fill = batch_new_locked (hub);
  if (b != NULL &&
      (flush == SL_FEED_FLUSH_LAST || b->n == b->cap ||
       (b->n > 0 && (flush == SL_FEED_FLUSH_ALL || wanted))))
    {
      b->last = flush == SL_FEED_FLUSH_LAST;
      b->arrival = g_get_monotonic_time ();
      g_queue_push_tail (&feed->queue, b);
      feed->published += b->n;
      feed->fill = NULL;
      atomic_store (&feed->wanted, 0);
    }
  feed->watermark = MAX (feed->watermark,
                         feed->fill != NULL && feed->fill->n > 0 ? feed->fill->ev[0].time : feed->seen);
  feed->events = feed->events_local;
  feed->ignored = feed->ignored_local;
  feed->unusable = feed->unusable_local;
  feed->first = feed->first_local;
  feed->last = feed->last_local;
  feed->position = feed->seen;
  if (flush == SL_FEED_FLUSH_LAST)
    feed->finished = TRUE;
  if (!feed->listed)
    {
      feed->listed = TRUE;
      g_ptr_array_add (hub->published, feed);
      atomic_store_explicit (&hub->any_published, 1, memory_order_relaxed);
    }
  if (feed->publish_func != NULL)
    feed->publish_func (feed, feed->publish_data);
  wake = sl_feed_hub_signal_locked (hub);
  g_mutex_unlock (&hub->lock);

  if (wake)
    hub->wakeup (hub->wakeup_data);
}

guint
sl_feed_get_queued_locked (SlFeed *feed)
{
  return feed->queue.length;
}

gint64
sl_feed_get_watermark_locked (SlFeed *feed)
{
  return feed->watermark;
}

gboolean
sl_feed_get_finished_locked (SlFeed *feed)
{
  return feed->finished;
}

guint64
sl_feed_get_events_locked (SlFeed *feed)
{
  return feed->events;
}

guint64
sl_feed_get_ignored_locked (SlFeed *feed)
{
  return feed->ignored;
}

guint64
sl_feed_get_unusable_locked (SlFeed *feed)
{
  return feed->unusable;
}

/* The span of the events published so far (first > last: none). */
void
sl_feed_get_span_locked (SlFeed *feed,
                         gint64 *first,
                         gint64 *last)
{
  *first = feed->first;
  *last = feed->last;
}

/* Packet events handed over so far. */
guint64
sl_feed_get_published_locked (SlFeed *feed)
{
  return feed->published;
}

/* The decoding position at the last publication (G_MININT64: none). */
gint64
sl_feed_get_position_locked (SlFeed *feed)
{
  return feed->position;
}

/* The next published batch, for a consumer that does not merge (the
 * decoder process writes it out); give it back with
 * sl_feed_recycle_locked(). */
SlBatch *
sl_feed_take_locked (SlFeed *feed)
{
  SlBatch *b = spill_read_locked (feed->hub, feed);

  /* the spill file holds everything handed over before the queue's */
  if (b == NULL)
    b = g_queue_pop_head (&feed->queue);

  if (b != NULL && feed->take_func != NULL)
    feed->take_func (feed, feed->take_data);
  return b;
}

void
sl_feed_recycle_locked (SlFeed  *feed,
                        SlBatch *batch)
{
  batch_recycle_locked (feed->hub, batch);
}

/* Moves the next published batch to the read-ahead (merged before the
 * queue; the folder reader's calibration reads it). */
SlBatch *
sl_feed_read_ahead_locked (SlFeed *feed)
{
  SlBatch *b = sl_feed_take_locked (feed);

  if (b != NULL)
    g_queue_push_tail (&feed->ahead, b);
  return b;
}

/* The consumer needs this host's packet events: partial batches are
 * handed over. */
void
sl_feed_want (SlFeed *feed)
{
  atomic_store (&feed->wanted, 1);
}

const GQueue *
sl_feed_get_read_ahead (SlFeed *feed)
{
  return &feed->ahead;
}

void
sl_feed_set_engine_host (SlFeed *feed,
                         guint   engine_host)
{
  feed->engine_host = engine_host;
}

/* The feed's next packet events belong to another engine host (a live
 * session created again on a clock that stepped: a segment of the host):
 * its span and its first fed time start again there. Hub locked, between
 * two publications of the producer, everything published before fed. */
void
sl_feed_start_segment_locked (SlFeed *feed,
                              guint   engine_host)
{
  feed->engine_host = engine_host;
  feed->first_local = feed->first = feed->first_counted = G_MAXINT64;
  feed->last_local = feed->last = feed->last_counted = G_MININT64;
  feed->first_fed = G_MININT64;
}

guint
sl_feed_get_engine_host (SlFeed *feed)
{
  return feed->engine_host;
}

/* The merge key is local time minus @hint (the host's offset to a common
 * clock, as far as it is known). */
void
sl_feed_set_hint (SlFeed *feed,
                  gint64  hint)
{
  if (hint != feed->hint)
    feed->hub->dirty = TRUE;
  feed->hint = hint;
}

gint64
sl_feed_get_hint (SlFeed *feed)
{
  return feed->hint;
}

/* Whether the merge waits for this host's watermark (default: until its
 * last batch; the live reader waits only for hosts that stream). */
void
sl_feed_set_waited (SlFeed   *feed,
                    gboolean  waited)
{
  if (!waited != !feed->waited)
    feed->hub->dirty = TRUE;
  feed->waited = waited;
}

/* Anything the owner wants to find from the feed (sl_feed_hub_take_published_locked()). */
void
sl_feed_set_data (SlFeed   *feed,
                  gpointer  data)
{
  feed->data = data;
}

gpointer
sl_feed_get_data (SlFeed *feed)
{
  return feed->data;
}

/**
 * sl_feed_set_spill:
 * @path: a file to create
 *
 * Before the producer starts: what it hands over goes to @path instead of
 * the queue, and the consumer reads it back a batch at a time, so that a
 * host decoded from start to end holds no more than a batch in memory (the
 * file is removed with the feed). A write that fails falls back to the
 * queue.
 */
void
sl_feed_set_spill (SlFeed     *feed,
                   const char *path)
{
  g_return_if_fail (feed != NULL && path != NULL);
  g_return_if_fail (feed->spill_path == NULL && feed->published == 0);

  feed->spill_path = g_strdup (path);
}

/* Packet events a spill file lost (removed while being read). */
guint64
sl_feed_get_spill_lost (SlFeed *feed)
{
  return feed->spill_lost;
}

gboolean
sl_feed_is_done (SlFeed *feed)
{
  return feed->done;
}

guint64
sl_feed_get_fed (SlFeed *feed)
{
  return feed->fed;
}

/* Packet events dropped for lying more than SL_HOST_MAX_SPAN_NS from the
 * host's first one, or beyond SL_MAX_ABS_TIME_NS. */
guint64
sl_feed_get_out_of_span (SlFeed *feed)
{
  return feed->out_of_span;
}

gint64
sl_feed_get_last_fed (SlFeed *feed)
{
  return feed->last_fed;
}

/* Adds the events decoded since the previous call to the engine's host
 * counts, and their span to its span (the engine host must be set). */
void
sl_feed_account_locked (SlFeed   *feed,
                        SlEngine *engine)
{
  if (feed->engine_host == SL_HOST_NONE)
    return;
  if (feed->first <= feed->last && (feed->first != feed->first_counted || feed->last != feed->last_counted))
    {
      sl_engine_add_host_span (engine, feed->engine_host, feed->first, feed->last);
      feed->first_counted = feed->first;
      feed->last_counted = feed->last;
    }
  if (feed->events == feed->events_counted && feed->ignored == feed->ignored_counted &&
      feed->unusable == feed->unusable_counted)
    return;
  sl_engine_add_host_counts (engine, feed->engine_host, feed->events - feed->events_counted,
                             feed->ignored - feed->ignored_counted, feed->unusable - feed->unusable_counted);
  feed->events_counted = feed->events;
  feed->ignored_counted = feed->ignored;
  feed->unusable_counted = feed->unusable;
}

/* ---------------------------------------------------------------------- */
/* Merge                                                                   */

/* time - hint, saturated: G_MININT64 (nothing known) and G_MAXINT64
 * (everything known) keep their meaning. */
gint64
sl_feed_key (gint64 time,
             gint64 hint)
{
  gint64 k;

  if (time == G_MININT64 || time == G_MAXINT64)
    return time;
  if (__builtin_sub_overflow (time, hint, &k))
    return hint > 0 ? G_MININT64 + 1 : G_MAXINT64 - 1;
  return k;
}

/* Makes feed->cur a batch with packet events left (hub locked). FALSE
 * when none is published yet, or the feed is done. */
static gboolean
refill_locked (SlFeedHub *hub,
               SlFeed    *feed)
{
  while (feed->cur == NULL || feed->cur->pos == feed->cur->n)
    {
      SlBatch *b;

      if (feed->cur != NULL)
        {
          if (feed->cur->last)
            feed->done = TRUE;
          batch_recycle_locked (hub, feed->cur);
          feed->cur = NULL;
          if (feed->done)
            return FALSE;
        }
      b = g_queue_pop_head (&feed->ahead);
      if (b == NULL)
        b = sl_feed_take_locked (feed);
      if (b == NULL)
        return FALSE;
      feed->cur = b;
    }
  return TRUE;
}

static inline void
feed_one (SlFeedMerge *m,
          SlFeed      *f,
          gint64       key)
{
  SlPacketEvent *e = &f->cur->ev[f->cur->pos++];

  if (G_UNLIKELY (e->time > SL_MAX_ABS_TIME_NS || e->time < -SL_MAX_ABS_TIME_NS))
    {
      f->out_of_span++;
      return;
    }
  if (G_UNLIKELY (f->first_fed == G_MININT64))
    f->first_fed = e->time;
  else if (G_UNLIKELY ((__int128) e->time - f->first_fed > SL_HOST_MAX_SPAN_NS ||
                       (__int128) f->first_fed - e->time > SL_HOST_MAX_SPAN_NS))
    {
      /* a damaged timestamp: the estimators' arithmetic must not see it */
      f->out_of_span++;
      return;
    }
  e->host = f->engine_host;
  f->fed++;
  f->last_fed = MAX (f->last_fed, e->time);
  if (m->packet_func != NULL)
    m->packet_func (e, key, m->packet_data);
  else
    sl_engine_add_packet (m->engine, e, key);
}

static gboolean
entry_less (gconstpointer a,
            gconstpointer b)
{
  const HeapEntry *x = a, *y = b;

  return x->key < y->key || (x->key == y->key && x->index < y->index);
}

static inline gint64
next_key (SlFeed *f)
{
  return sl_feed_key (f->cur->ev[f->cur->pos].time, f->hint);
}

static inline SlFeed *
known_feed (SlFeedHub *hub,
            guint      index)
{
  return g_ptr_array_index (hub->known, index);
}

static void
ready_push (SlFeedHub *hub,
            SlFeed    *f)
{
  HeapEntry e = { next_key (f), f->merge_index, 0 };

  f->merge_state = MERGE_READY;
  sl_heap_push (hub->ready, &e, sizeof e, entry_less);
}

static gboolean
entry_stale (SlFeedHub       *hub,
             const HeapEntry *e)
{
  SlFeed *f = known_feed (hub, e->index);

  return f->merge_state != MERGE_STALLED || e->gen != f->stall_gen;
}

/* Drops the entries of feeds that moved on (hub locked). They are
 * otherwise dropped only when they reach the top while a packet event
 * waits; with none in hand (a live session with no traffic, its hosts'
 * watermarks moved on by the relay's inactivity beacons) each beacon
 * added one for good: 5 kB a second with four hosts. */
static void
stalled_compact (SlFeedHub *hub)
{
  g_autoptr(GArray) old = hub->stalled;

  hub->stalled = g_array_sized_new (FALSE, FALSE, sizeof (HeapEntry), hub->known->len);
  for (guint i = 0; i < old->len; i++)
    if (!entry_stale (hub, &g_array_index (old, HeapEntry, i)))
      sl_heap_push (hub->stalled, &g_array_index (old, HeapEntry, i), sizeof (HeapEntry), entry_less);
}

/* A feed with no packet event in hand waits for its next batch; a waited
 * one holds the others back at its watermark (hub locked). */
static void
stall_locked (SlFeedHub *hub,
              SlFeed    *f)
{
  HeapEntry e;

  f->merge_state = MERGE_STALLED;
  if (!f->waited)
    return;
  atomic_store (&f->wanted, 1);
  e.key = sl_feed_key (f->watermark, f->hint);
  e.index = f->merge_index;
  e.gen = ++f->stall_gen;
  /* at most one live entry a feed: past twice that, half are stale */
  if (hub->stalled->len >= 2 * hub->known->len + 16)
    stalled_compact (hub);
  sl_heap_push (hub->stalled, &e, sizeof e, entry_less);
}

guint
_sl_feed_hub_get_stalled_len (SlFeedHub *hub)
{
  return hub->stalled->len;
}

/* Looks at a feed that published (hub locked): its counts, and, if the
 * merge has nothing of it in hand, its next batch or its watermark. */
static void
update_locked (SlFeedHub   *hub,
               SlFeedMerge *m,
               SlFeed      *f)
{
  if (m->engine != NULL)
    sl_feed_account_locked (f, m->engine);
  if (f->merge_state == MERGE_READY || f->merge_state == MERGE_DONE)
    return;
  if (refill_locked (hub, f))
    ready_push (hub, f);
  else if (f->done)
    {
      f->merge_state = MERGE_DONE;
      hub->n_active--;
    }
  else
    stall_locked (hub, f);
}

static void
add_feed_locked (SlFeedHub   *hub,
                 SlFeedMerge *m,
                 SlFeed      *f)
{
  f->merge_index = hub->known->len;
  f->merge_state = MERGE_NONE;
  g_ptr_array_add (hub->known, f);
  hub->n_active++;
  update_locked (hub, m, f);
}

/* Takes in what the feeds published since the last look (hub locked). */
static void
drain_locked (SlFeedHub   *hub,
              SlFeedMerge *m)
{
  hub->seen = hub->seq;
  for (guint i = 0; i < hub->published->len; i++)
    {
      SlFeed *f = g_ptr_array_index (hub->published, i);

      f->listed = FALSE;
      if (f->merge_index < hub->known->len && known_feed (hub, f->merge_index) == f)
        update_locked (hub, m, f);
    }
  g_ptr_array_set_size (hub->published, 0);
  atomic_store_explicit (&hub->any_published, 0, memory_order_relaxed);
}

/* The merge keeps its heaps from call to call: feeds may be appended to
 * @m->feeds between calls; a changed hint or waited flag, or any other
 * change of the list, makes it look at every feed again. */
static void
sync_feeds (SlFeedHub   *hub,
            SlFeedMerge *m)
{
  guint n = hub->known->len;

  if (!hub->dirty && m->n_feeds == n &&
      (n == 0 || (m->feeds[0] == known_feed (hub, 0) && m->feeds[n - 1] == known_feed (hub, n - 1))))
    return;

  g_mutex_lock (&hub->lock);
  if (hub->dirty || m->n_feeds < n ||
      (n > 0 && (m->feeds[0] != known_feed (hub, 0) || m->feeds[n - 1] != known_feed (hub, n - 1))))
    {
      g_ptr_array_set_size (hub->known, 0);
      g_array_set_size (hub->ready, 0);
      g_array_set_size (hub->stalled, 0);
      hub->n_active = 0;
      hub->dirty = FALSE;
      n = 0;
    }
  for (guint i = n; i < m->n_feeds; i++)
    add_feed_locked (hub, m, m->feeds[i]);
  drain_locked (hub, m);
  g_mutex_unlock (&hub->lock);
}

/* The lowest watermark key (and its feed) of the waited feeds the merge
 * has nothing of. */
static HeapEntry
stalled_limit (SlFeedHub *hub)
{
  HeapEntry none = { G_MAXINT64, G_MAXUINT32, 0 };

  while (hub->stalled->len > 0)
    {
      HeapEntry *e = &g_array_index (hub->stalled, HeapEntry, 0);
      HeapEntry stale;

      if (!entry_stale (hub, e))
        return *e;
      sl_heap_pop (hub->stalled, &stale, sizeof stale, entry_less);
    }
  return none;
}

/* The feed whose next packet event comes first, and the limit before
 * which its packet events may go (entry_less()): the next packet event
 * of any other feed, or the watermark of a waited one the merge has
 * nothing of. FALSE when it may not go. */
static gboolean
choose (SlFeedHub *hub,
        HeapEntry *top,
        HeapEntry *limit)
{
  const HeapEntry *h = (const HeapEntry *) (gpointer) hub->ready->data;
  guint n = hub->ready->len;

  if (n == 0)
    return FALSE;
  *top = h[0];
  *limit = stalled_limit (hub);
  if (n > 1 && entry_less (&h[1], limit))
    *limit = h[1];
  if (n > 2 && entry_less (&h[2], limit))
    *limit = h[2];
  return entry_less (top, limit);
}

/**
 * sl_feed_merge:
 *
 * Gives the engine every packet event that may go now, in merge-key
 * order. Never waits for a producer. WAIT: a host it waits for has
 * published nothing past the next packet event yet (call again after the
 * hub's next signal); HOLD: the same, but the packet event goes anyway at
 * @merge->until; DONE: every feed has ended and is drained.
 *
 * A heap of the feeds by their next key makes a packet event cost
 * O(log feeds), and the consumer looks only at the feeds that published
 * since its last look.
 */
SlFeedMergeStatus
sl_feed_merge (SlFeedHub   *hub,
               SlFeedMerge *m)
{
  guint emitted = 0;

  g_return_val_if_fail (hub != NULL && m != NULL, SL_FEED_MERGE_DONE);
  g_return_val_if_fail (m->engine != NULL || m->packet_func != NULL, SL_FEED_MERGE_DONE);

  sync_feeds (hub, m);
  for (;;)
    {
      HeapEntry top, limit;
      SlFeed *f;

      if (atomic_load_explicit (&hub->any_published, memory_order_relaxed))
        {
          g_mutex_lock (&hub->lock);
          drain_locked (hub, m);
          g_mutex_unlock (&hub->lock);
        }

      if (!choose (hub, &top, &limit))
        {
          SlFeedMergeStatus st = SL_FEED_MERGE_WAIT;
          gboolean go;

          g_mutex_lock (&hub->lock);
          drain_locked (hub, m);
          go = choose (hub, &top, &limit);
          if (!go && hub->ready->len > 0 && m->hold_us >= 0)
            {
              gint64 until = known_feed (hub, top.index)->cur->arrival + m->hold_us;

              /* waited long enough: goes out of order */
              if (g_get_monotonic_time () >= until)
                {
                  limit.key = top.key;
                  limit.index = G_MAXUINT32;
                  go = TRUE;
                }
              else
                {
                  m->until = until;
                  st = SL_FEED_MERGE_HOLD;
                }
            }
          if (!go)
            {
              if (hub->n_active == 0)
                st = SL_FEED_MERGE_DONE;
              else
                hub->consumer_waiting = TRUE;
              g_mutex_unlock (&hub->lock);
              return st;
            }
          g_mutex_unlock (&hub->lock);
        }

      f = known_feed (hub, top.index);
      sl_heap_pop (hub->ready, &top, sizeof top, entry_less);
      if (m->first_arrival == 0 || f->cur->arrival < m->first_arrival)
        m->first_arrival = f->cur->arrival;
      for (;;)
        {
          feed_one (m, f, top.key);
          emitted++;
          if (f->cur->pos == f->cur->n)
            break;
          top.key = next_key (f);
          if (!entry_less (&top, &limit))
            break;
        }

      if (f->cur->pos < f->cur->n)
        ready_push (hub, f);
      else
        {
          g_mutex_lock (&hub->lock);
          f->merge_state = MERGE_STALLED;
          update_locked (hub, m, f);
          drain_locked (hub, m);
          g_mutex_unlock (&hub->lock);
        }

      if (emitted >= CHECK_EVERY)
        {
          emitted = 0;
          if (m->cancelled != NULL && atomic_load (m->cancelled))
            return SL_FEED_MERGE_CANCELLED;
          if (g_get_monotonic_time () >= m->deadline)
            return SL_FEED_MERGE_BUSY;
        }
    }
}
