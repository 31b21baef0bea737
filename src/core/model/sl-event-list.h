/* sl-event-list.h: the events of the timeline's selection, as a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sl-event-store.h"
#include "sl-timeline.h"

G_BEGIN_DECLS

#define SL_TYPE_EVENT_ITEM (sl_event_item_get_type ())

G_DECLARE_FINAL_TYPE (SlEventItem, sl_event_item, SL, EVENT_ITEM, GObject)

/**
 * SlEventItem:
 *
 * One row of the events table, made by sl_event_list's get_item() when a
 * list view asks for it; its texts are computed then (properties "time",
 * "local-time", "host", "cpu", "event", "fields").
 */
/**
 * sl_event_item_new:
 * @store: (nullable): @event's store, for its names (read now: hold its
 *   lock if other threads append to it)
 *
 * Returns: (transfer full): the item of @event of @host
 */
SlEventItem   *sl_event_item_new            (const SlTimeline   *timeline,
                                             const SlEventStore *store,
                                             guint               host,
                                             const SlEvent      *event);
const SlEvent *sl_event_item_get_event      (SlEventItem *self);
guint          sl_event_item_get_host       (SlEventItem *self);
gint64         sl_event_item_get_view_time  (SlEventItem *self);
const char    *sl_event_item_get_text       (SlEventItem *self,
                                             const char  *property);

#define SL_TYPE_EVENT_LIST (sl_event_list_get_type ())

G_DECLARE_FINAL_TYPE (SlEventList, sl_event_list, SL, EVENT_LIST, GObject)

typedef void (*SlEventListLockFunc) (gpointer user_data);

SlEventList   *sl_event_list_new            (void);
/**
 * sl_event_list_set_source:
 * @timeline: (nullable): the model; %NULL empties the list
 * @stores: (array length=n_stores): each host's store, by engine host
 *   index (%NULL entries for hosts without one)
 *
 * The pointers must stay valid until the next call.
 */
void           sl_event_list_set_source     (SlEventList               *self,
                                             const SlTimeline          *timeline,
                                             const SlEventStore * const *stores,
                                             guint                      n_stores);
/**
 * sl_event_list_set_lock_func:
 * @lock: (nullable): called before the stores are read
 * @unlock: (nullable): called after
 *
 * For stores that other threads append to (a live session's).
 */
void           sl_event_list_set_lock_func  (SlEventList               *self,
                                             SlEventListLockFunc        lock,
                                             SlEventListLockFunc        unlock,
                                             gpointer                   user_data);
/**
 * sl_event_list_set_row:
 * @row: a timeline row, or %SL_TIMELINE_NONE for none
 * @local_start: start of the span in the row's host's local time
 * @local_end: its end (excluded)
 *
 * Copies the events of @row in the span (at most #SlEventList:max-events:
 * the first ones), a slice at a time from idle callbacks
 * (#SlEventList:loading); the first rows are announced a few at a time.
 * A new span of the same row that overlaps a complete list keeps the
 * events they share and loads only the others.
 */
void           sl_event_list_set_row        (SlEventList               *self,
                                             guint                      row,
                                             gint64                     local_start,
                                             gint64                     local_end);
void           sl_event_list_data_changed   (SlEventList               *self);
guint          sl_event_list_get_row        (SlEventList               *self);
gboolean       sl_event_list_get_loading    (SlEventList               *self);
gboolean       sl_event_list_get_truncated  (SlEventList               *self);
guint          sl_event_list_get_max_events (SlEventList               *self);
void           sl_event_list_set_max_events (SlEventList               *self,
                                             guint                      max_events);
/**
 * sl_event_list_times_changed:
 *
 * The hosts' clocks changed: the reference times are computed again.
 */
void           sl_event_list_times_changed  (SlEventList               *self);
/**
 * sl_event_list_find_time:
 *
 * Returns: the position of the first event at or after @view_time
 */
guint          sl_event_list_find_time      (SlEventList               *self,
                                             gint64                     view_time);

char          *sl_format_clock_time         (gint64                     ns,
                                             int                        decimals);

G_END_DECLS
