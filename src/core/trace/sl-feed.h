/* sl-feed.h: packet events from decoders to the engine, merged by time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdatomic.h>

#include <glib.h>

#include "sl-engine.h"
#include "sl-matcher.h"

G_BEGIN_DECLS

/*
 * A host's decoder (the producer, one thread at a time) fills batches of
 * packet events and publishes them with a watermark: the host-local time
 * up to which everything of the host is known. The engine's thread (the
 * consumer) merges the hosts' batches by merge key (local time minus the
 * host's hint) and gives the engine a packet event only when every other
 * host it waits for is known up to that key, by a batch or by its
 * watermark; optionally (live) a packet event that has waited long enough
 * goes anyway. All hosts of a reader share a hub: one lock, one condition,
 * one signal counter, recycled batches.
 */

#define SL_BATCH_CAP 1024

/*
 * The estimators compute in 64-bit nanoseconds relative to a link's first
 * packet (sl-hull.c: coordinates and their differences; sl-linreg.c: the
 * sum of two differences between hosts). Packet events of one host that
 * span at most 2^59 ns (about 18 years) keep every one of those within 64
 * bits; the readers drop (and report) those that would not.
 */
#define SL_HOST_MAX_SPAN_NS (G_GINT64_CONSTANT (1) << 59)

/* Mapped between hosts, times of ±2^61 ns (1896 to 2043 from the epoch)
 * stay within 64 bits with any plausible clock rate; the readers drop
 * (and report) the others. */
#define SL_MAX_ABS_TIME_NS (G_GINT64_CONSTANT (1) << 61)

typedef struct
{
  SlPacketEvent *ev;
  guint          cap;
  guint          n;
  guint          pos;
  gint64         arrival;
  gboolean       last;
} SlBatch;

typedef struct _SlFeedHub SlFeedHub;
typedef struct _SlFeed    SlFeed;

typedef void (*SlFeedHubWakeup) (gpointer user_data);
/* Called with the hub locked. */
typedef void (*SlFeedFunc)      (SlFeed  *feed,
                                 gpointer user_data);

typedef enum
{
  SL_FEED_FLUSH_IF_WANTED,
  SL_FEED_FLUSH_ALL,
  SL_FEED_FLUSH_LAST,
} SlFeedFlush;

SlFeedHub *sl_feed_hub_new               (void);
void       sl_feed_hub_free              (SlFeedHub       *hub);
void       sl_feed_hub_set_batch_size    (SlFeedHub       *hub,
                                          guint            n);
void       sl_feed_hub_lock              (SlFeedHub       *hub);
void       sl_feed_hub_unlock            (SlFeedHub       *hub);
GCond     *sl_feed_hub_get_cond          (SlFeedHub       *hub);
GMutex    *sl_feed_hub_get_mutex         (SlFeedHub       *hub);
guint64    sl_feed_hub_get_seq_locked    (SlFeedHub       *hub);
gboolean   sl_feed_hub_signal_locked     (SlFeedHub       *hub);
void       sl_feed_hub_signal            (SlFeedHub       *hub);
void       sl_feed_hub_broadcast_locked  (SlFeedHub       *hub);
void       sl_feed_hub_set_wakeup        (SlFeedHub       *hub,
                                          SlFeedHubWakeup  wakeup,
                                          gpointer         user_data);
void       sl_feed_hub_set_waiting_locked (SlFeedHub      *hub);
void       sl_feed_hub_take_published_locked (SlFeedHub   *hub,
                                          GPtrArray       *out);
gboolean   sl_feed_hub_wait              (SlFeedHub       *hub,
                                          gint64           end_time,
                                          const atomic_int *cancelled);

SlFeed    *sl_feed_new                   (SlFeedHub       *hub);
void       sl_feed_free                  (SlFeed          *feed);
void       sl_feed_set_publish_func      (SlFeed          *feed,
                                          SlFeedFunc       func,
                                          gpointer         user_data);
void       sl_feed_set_take_func         (SlFeed          *feed,
                                          SlFeedFunc       func,
                                          gpointer         user_data);
void       sl_feed_set_data              (SlFeed          *feed,
                                          gpointer         data);
gpointer   sl_feed_get_data              (SlFeed          *feed);
void       sl_feed_set_spill             (SlFeed          *feed,
                                          const char      *path);
guint64    sl_feed_get_spill_lost        (SlFeed          *feed);

/* producer */
void       sl_feed_push                  (SlFeed              *feed,
                                          const SlPacketEvent *event);
void       sl_feed_count                 (SlFeed          *feed,
                                          guint64          events,
                                          guint64          ignored,
                                          guint64          unusable);
void       sl_feed_seen                  (SlFeed          *feed,
                                          gint64           time);
void       sl_feed_span                  (SlFeed          *feed,
                                          gint64           first,
                                          gint64           last);
guint      sl_feed_get_filled            (SlFeed          *feed);
guint64    sl_feed_get_events_local      (SlFeed          *feed);
void       sl_feed_publish               (SlFeed          *feed,
                                          SlFeedFlush      flush);

/* shared, hub locked */
guint      sl_feed_get_queued_locked     (SlFeed          *feed);
gint64     sl_feed_get_watermark_locked  (SlFeed          *feed);
gboolean   sl_feed_get_finished_locked   (SlFeed          *feed);
guint64    sl_feed_get_events_locked     (SlFeed          *feed);
guint64    sl_feed_get_ignored_locked    (SlFeed          *feed);
guint64    sl_feed_get_unusable_locked   (SlFeed          *feed);
guint64    sl_feed_get_published_locked  (SlFeed          *feed);
void       sl_feed_get_span_locked       (SlFeed          *feed,
                                          gint64          *first,
                                          gint64          *last);
gint64     sl_feed_get_position_locked   (SlFeed          *feed);
SlBatch   *sl_feed_read_ahead_locked     (SlFeed          *feed);
SlBatch   *sl_feed_take_locked           (SlFeed          *feed);
void       sl_feed_recycle_locked        (SlFeed          *feed,
                                          SlBatch         *batch);
void       sl_feed_want                  (SlFeed          *feed);

/* consumer */
void       sl_feed_set_engine_host       (SlFeed          *feed,
                                          guint            engine_host);
guint      sl_feed_get_engine_host       (SlFeed          *feed);
void       sl_feed_start_segment_locked  (SlFeed          *feed,
                                          guint            engine_host);
void       sl_feed_set_hint              (SlFeed          *feed,
                                          gint64           hint);
gint64     sl_feed_get_hint              (SlFeed          *feed);
void       sl_feed_set_waited            (SlFeed          *feed,
                                          gboolean         waited);
const GQueue *sl_feed_get_read_ahead     (SlFeed          *feed);
gboolean   sl_feed_is_done               (SlFeed          *feed);
guint64    sl_feed_get_fed               (SlFeed          *feed);
guint64    sl_feed_get_out_of_span       (SlFeed          *feed);
gint64     sl_feed_get_last_fed          (SlFeed          *feed);
void       sl_feed_account_locked        (SlFeed          *feed,
                                          SlEngine        *engine);

typedef enum
{
  SL_FEED_MERGE_DONE,
  SL_FEED_MERGE_WAIT,
  SL_FEED_MERGE_HOLD,
  SL_FEED_MERGE_BUSY,
  SL_FEED_MERGE_CANCELLED,
} SlFeedMergeStatus;

/* Receives the merged packet events instead of an engine. */
typedef void (*SlFeedPacketFunc) (const SlPacketEvent *event,
                                  gint64               key,
                                  gpointer             user_data);

/**
 * SlFeedMerge:
 * @feeds: (array length=n_feeds): the hosts to merge; the hub's merge
 *   keeps its state between calls: feeds may be appended, any other change
 *   makes it start over from the feeds' current state
 * @engine: receives the packet events (sl_engine_add_packet(), the merge
 *   key as `now`) and the hosts' event counts
 * @packet_func: (nullable): if set, receives the packet events instead
 * @packet_data: its user data
 * @hold_us: how long a packet event may wait for slower hosts before it
 *   goes anyway; negative: never out of order
 * @deadline: monotonic time after which the merge returns BUSY
 * @cancelled: checked with the deadline, may be %NULL
 * @until: out, for HOLD: when the held packet event must go
 * @first_arrival: in/out: the earliest arrival of a batch fed from (0:
 *   none yet)
 */
typedef struct
{
  SlFeed          **feeds;
  guint             n_feeds;
  SlEngine         *engine;
  SlFeedPacketFunc  packet_func;
  gpointer          packet_data;
  gint64            hold_us;
  gint64            deadline;
  const atomic_int *cancelled;
  gint64            until;
  gint64            first_arrival;
} SlFeedMerge;

SlFeedMergeStatus sl_feed_merge          (SlFeedHub       *hub,
                                          SlFeedMerge     *merge);

gint64     sl_feed_key                   (gint64           time,
                                          gint64           hint);

/* for tests: the merge's entries for waited feeds without a packet event */
guint      _sl_feed_hub_get_stalled_len  (SlFeedHub       *hub);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlFeedHub, sl_feed_hub_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlFeed, sl_feed_free)

G_END_DECLS
