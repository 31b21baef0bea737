/* sl-search-list.h: the events a search finds, as a list model, found on a
 * worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sl-event-list.h"
#include "sl-timeline-search.h"

G_BEGIN_DECLS

#define SL_TYPE_SEARCH_LIST (sl_search_list_get_type ())

G_DECLARE_FINAL_TYPE (SlSearchList, sl_search_list, SL, SEARCH_LIST, GObject)

SlSearchList  *sl_search_list_new            (void);
/**
 * sl_search_list_set_source:
 * @timeline: (nullable): the model; %NULL stops any search and empties
 *   the list
 * @stores: (array length=n_stores): each host's store by engine host index
 *
 * The pointers must stay valid until the next call (which waits for a
 * search running on them to stop).
 */
void           sl_search_list_set_source     (SlSearchList               *self,
                                              const SlTimeline           *timeline,
                                              const SlEventStore * const *stores,
                                              guint                       n_stores);
void           sl_search_list_set_lock_func  (SlSearchList               *self,
                                              SlSearchLockFunc            lock,
                                              SlSearchLockFunc            unlock,
                                              gpointer                    user_data);
/**
 * sl_search_list_start:
 * @text: an event query (see #SlEventQuery)
 *
 * Starts searching every store on a worker thread; #SlSearchList:searching
 * and #SlSearchList:progress follow it, the items come when it is done.
 *
 * Returns: %FALSE with @error when @text is not a query
 */
gboolean       sl_search_list_start          (SlSearchList               *self,
                                              const char                 *text,
                                              GError                    **error);
void           sl_search_list_clear          (SlSearchList               *self);
const char    *sl_search_list_get_text       (SlSearchList               *self);
gboolean       sl_search_list_get_searching  (SlSearchList               *self);
double         sl_search_list_get_progress   (SlSearchList               *self);
/**
 * sl_search_list_get_n_matches:
 *
 * Returns: the events found (the list holds the first
 *   #SlSearchList:max-hits of them)
 */
guint64        sl_search_list_get_n_matches  (SlSearchList               *self);
/**
 * sl_search_list_get_seconds:
 *
 * Returns: how long the last finished search took on its worker
 */
double         sl_search_list_get_seconds    (SlSearchList               *self);
/**
 * sl_search_list_get_n_scanned:
 *
 * Returns: the events the last finished search looked at
 */
guint64        sl_search_list_get_n_scanned  (SlSearchList               *self);
guint          sl_search_list_get_max_hits   (SlSearchList               *self);
void           sl_search_list_set_max_hits   (SlSearchList               *self,
                                              guint                       max_hits);
/**
 * sl_search_list_get_hit:
 *
 * Returns: (nullable): the hit at @position
 */
const SlSearchHit *sl_search_list_get_hit    (SlSearchList               *self,
                                              guint                       position);
/**
 * sl_search_list_get_event:
 *
 * Returns: (nullable): the event of the hit at @position (read under the
 *   lock; copied into @out)
 */
gboolean       sl_search_list_get_event      (SlSearchList               *self,
                                              guint                       position,
                                              SlEvent                    *out);

guint64        sl_search_list_get_n_dropped  (SlSearchList               *self);
guint          sl_search_list_forget_dropped (SlSearchList               *self,
                                              guint                      *position);

G_END_DECLS
