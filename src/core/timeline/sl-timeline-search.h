/* sl-timeline-search.h: events found by name and field values, over every
 * host's store, on any thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sl-timeline.h"

G_BEGIN_DECLS

/**
 * SlEventQuery:
 *
 * A compiled search text: terms that must all hold, separated by spaces
 * (`and`, `&&` and commas are allowed too). A term is `FIELD OP VALUE`
 * (OP one of `=` `!=` `<` `<=` `>` `>=`; strings compare with `=` and `!=`
 * only, `*` and `?` as wildcards) or a bare word: an event's kind
 * (`sched_switch`, `syscall_entry`, `packet_recv`…) or the name it
 * carries (a system call's, a command's). Fields:
 *
 * | field | of |
 * |---|---|
 * | `event` | every event: its kind |
 * | `host` | every event: its host's name |
 * | `cpu` | every event |
 * | `tid` | every event with a thread (a switch: the previous one) |
 * | `syscall` | system call entries and exits |
 * | `fd` | system call entries with an `fd` argument |
 * | `ret` | system call exits |
 * | `comm` | switches (the next thread's), forks (the child's), names, execs |
 * | `next_tid`, `prev_state` | switches |
 * | `seq`, `sport`, `dport`, `port` (either), `len` | packet events |
 * | `irq` | interrupts; `vec`: softirqs |
 */
typedef struct _SlEventQuery SlEventQuery;

SlEventQuery *sl_event_query_new            (const char         *text,
                                             GError            **error);
void          sl_event_query_free           (SlEventQuery       *self);
/**
 * sl_event_query_looks_like:
 *
 * Returns: whether @text is meant as an event query (it has an operator,
 *   or is an event kind) rather than a name to find among the rows
 */
gboolean      sl_event_query_looks_like     (const char         *text);
/**
 * sl_event_query_prepare:
 *
 * Resolves the query's strings against @store (call it before matching
 * the store's events, again when the store has new strings).
 *
 * Returns: whether any of @store's events may match (%FALSE: skip it)
 */
gboolean      sl_event_query_prepare        (SlEventQuery       *self,
                                             const SlEventStore *store,
                                             const char         *host_name);
/**
 * sl_event_query_match:
 * @packet: (nullable): for packet events, their ports and length
 *
 * Whether @event of the store last prepared matches.
 */
gboolean      sl_event_query_match          (const SlEventQuery *self,
                                             const SlEvent      *event,
                                             const SlEventPacket *packet);
/**
 * sl_event_query_streams:
 *
 * Returns: the streams that may hold matching events (a bit per
 *   #SlEventStream)
 */
guint         sl_event_query_streams        (const SlEventQuery *self);

/**
 * SlSearchHit:
 * @view_time: the event's time on the view's clock when the search ran
 * @index: its index in its host's stream
 * @host: its host (engine index)
 * @stream: its #SlEventStream
 *
 * One event found: 24 bytes, no object.
 */
typedef struct
{
  gint64  view_time;
  guint64 index;
  guint32 host;
  guint8  stream;
} SlSearchHit;

typedef struct _SlTimelineSearch SlTimelineSearch;

typedef void (*SlSearchLockFunc) (gpointer user_data);

/**
 * sl_timeline_search_new:
 * @timeline: the hosts' names and clocks (read now, on this thread)
 * @stores: (array length=n_stores): each host's store by engine host index
 * @max_hits: hits kept (the first ones in time; all are counted)
 *
 * A search of @query over the events the stores hold now. The stores
 * must stay valid until sl_timeline_search_run() returns.
 */
SlTimelineSearch *sl_timeline_search_new    (const SlTimeline           *timeline,
                                             const SlEventStore * const *stores,
                                             guint                       n_stores,
                                             SlEventQuery               *query,
                                             guint                       max_hits);
void          sl_timeline_search_free       (SlTimelineSearch   *self);
/**
 * sl_timeline_search_set_lock_func:
 *
 * For stores other threads append to: called around each slice read.
 */
void          sl_timeline_search_set_lock_func (SlTimelineSearch *self,
                                             SlSearchLockFunc    lock,
                                             SlSearchLockFunc    unlock,
                                             gpointer            user_data);
/**
 * sl_timeline_search_run:
 *
 * Scans the stores (on the calling thread: a worker), a slice at a time,
 * then orders the hits by view time. Stops early when @cancellable is
 * cancelled.
 *
 * Returns: %FALSE when cancelled
 */
gboolean      sl_timeline_search_run        (SlTimelineSearch   *self,
                                             GCancellable       *cancellable);
/**
 * sl_timeline_search_get_progress:
 *
 * Returns: the share of events scanned, from any thread
 */
double        sl_timeline_search_get_progress (SlTimelineSearch *self);
guint64       sl_timeline_search_get_n_scanned (SlTimelineSearch *self);
/**
 * sl_timeline_search_get_n_matches:
 *
 * Returns: every match counted (the hits kept may be fewer)
 */
guint64       sl_timeline_search_get_n_matches (SlTimelineSearch *self);
/**
 * sl_timeline_search_get_hits:
 *
 * Returns: (transfer none): the #SlSearchHit kept, by view time, once
 *   sl_timeline_search_run() has returned %TRUE
 */
GArray       *sl_timeline_search_get_hits   (SlTimelineSearch   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlEventQuery, sl_event_query_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTimelineSearch, sl_timeline_search_free)

G_END_DECLS
