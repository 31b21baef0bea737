/* sl-session.h: the view-model every view of a window shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sl-host-item.h"
#include "sl-link-item.h"
#include "sl-snapshot.h"
#include "sl-time-span.h"
#include "sl-timeline.h"

G_BEGIN_DECLS

/**
 * SlSessionState:
 * @SL_SESSION_STATE_EMPTY: no input
 * @SL_SESSION_STATE_LOADING: a worker is reading the input
 * @SL_SESSION_STATE_READY: everything was read (or reading was cancelled)
 * @SL_SESSION_STATE_LIVE: attached to a live session
 * @SL_SESSION_STATE_FAILED: nothing could be read
 */
typedef enum
{
  SL_SESSION_STATE_EMPTY,
  SL_SESSION_STATE_LOADING,
  SL_SESSION_STATE_READY,
  SL_SESSION_STATE_LIVE,
  SL_SESSION_STATE_FAILED,
} SlSessionState;

/**
 * SlSessionChanges:
 * @SL_SESSION_CHANGE_HOSTS: hosts were added
 * @SL_SESSION_CHANGE_LINKS: links were added
 * @SL_SESSION_CHANGE_TREE: the tree or a reference changed
 * @SL_SESSION_CHANGE_VALUES: numbers of hosts or links changed
 * @SL_SESSION_CHANGE_RESET: the session was cleared
 * @SL_SESSION_CHANGE_TIMELINE: the timeline model grew (live)
 *
 * What an #SlSession::updated emission brings.
 */
typedef enum /*< flags >*/
{
  SL_SESSION_CHANGE_HOSTS  = 1 << 0,
  SL_SESSION_CHANGE_LINKS  = 1 << 1,
  SL_SESSION_CHANGE_TREE   = 1 << 2,
  SL_SESSION_CHANGE_VALUES = 1 << 3,
  SL_SESSION_CHANGE_RESET  = 1 << 4,
  SL_SESSION_CHANGE_TIMELINE = 1 << 5,
} SlSessionChanges;

/* A live timeline keeps each host's last 10 minutes by default (at the
 * ~1 200 events/s of issue 20's three hosts, some 40 MB), at most a day. */
#define SL_SESSION_DEFAULT_RETENTION_S 600
#define SL_SESSION_MAX_RETENTION_S     86400

#define SL_TYPE_SESSION (sl_session_get_type ())

G_DECLARE_FINAL_TYPE (SlSession, sl_session, SL, SESSION, GObject)

SlSession      *sl_session_new                  (void);

void            sl_session_open                 (SlSession          *self,
                                                 const char * const *paths);
void            sl_session_open_with_transforms (SlSession          *self,
                                                 const char * const *folders,
                                                 const char         *transforms);
void            sl_session_open_demo            (SlSession          *self);
void            sl_session_open_live            (SlSession          *self,
                                                 const char * const *urls);
void            sl_session_reload               (SlSession          *self);
void            sl_session_cancel               (SlSession          *self);
void            sl_session_close                (SlSession          *self);

SlSessionState  sl_session_get_state            (SlSession          *self);
const char     *sl_session_get_title            (SlSession          *self);
const char * const *sl_session_get_inputs       (SlSession          *self);
gboolean        sl_session_get_is_live          (SlSession          *self);
double          sl_session_get_progress_fraction (SlSession         *self);
gboolean        sl_session_get_stopped          (SlSession          *self);
const char     *sl_session_get_progress_text    (SlSession          *self);
const char     *sl_session_get_error            (SlSession          *self);

GListModel     *sl_session_get_hosts            (SlSession          *self);
GListModel     *sl_session_get_links            (SlSession          *self);
GListModel     *sl_session_get_changes          (SlSession          *self);
guint           sl_session_get_n_links          (SlSession          *self);
guint           sl_session_get_n_tree_links     (SlSession          *self);
guint           sl_session_get_n_components     (SlSession          *self);
SlHostItem     *sl_session_get_host_item        (SlSession          *self,
                                                 guint               host);
guint           sl_session_get_n_hosts          (SlSession          *self);
guint           sl_session_get_n_unreadable     (SlSession          *self);
SlHostItem     *sl_session_get_unreadable       (SlSession          *self,
                                                 guint               i);
SlLinkItem     *sl_session_get_link_item        (SlSession          *self,
                                                 guint               link);
SlHostItem     *sl_session_find_host            (SlSession          *self,
                                                 const char         *name);
SlLinkItem     *sl_session_find_link            (SlSession          *self,
                                                 const char         *a,
                                                 const char         *b);
SlLinkItem     *sl_session_find_link_between    (SlSession          *self,
                                                 guint               a,
                                                 guint               b);

SlLinkItem     *sl_session_find_worst_link      (SlSession          *self);
SlLinkItem     *sl_session_get_selected_link    (SlSession          *self);
void            sl_session_set_selected_link    (SlSession          *self,
                                                 SlLinkItem         *link);
SlHostItem     *sl_session_get_selected_host    (SlSession          *self);
void            sl_session_set_selected_host    (SlSession          *self,
                                                 SlHostItem         *host);
SlPlotData     *sl_session_get_plot             (SlSession          *self);

const char     *sl_session_get_algorithm        (SlSession          *self);
void            sl_session_set_algorithm        (SlSession          *self,
                                                 const char         *algorithm);
const char     *sl_session_get_tree             (SlSession          *self);
void            sl_session_set_tree             (SlSession          *self,
                                                 const char         *tree);
const char     *sl_session_get_pinned_reference (SlSession          *self);
void            sl_session_set_pinned_reference (SlSession          *self,
                                                 const char         *host);
guint           sl_session_get_update_interval  (SlSession          *self);
void            sl_session_set_update_interval  (SlSession          *self,
                                                 guint               ms);

guint           sl_session_get_n_live_hosts     (SlSession          *self,
                                                 SlHostLive          live);
gboolean        sl_session_get_relay_stalled    (SlSession          *self);
guint           sl_session_get_retention        (SlSession          *self);
void            sl_session_set_retention        (SlSession          *self,
                                                 guint               seconds);
guint           sl_session_get_n_passing_problems (SlSession        *self);
char          **sl_session_dup_attached_urls    (SlSession          *self);
gboolean        sl_session_attach_live          (SlSession          *self,
                                                 const char * const *add,
                                                 const char * const *remove,
                                                 GError            **error);
double          sl_session_get_tree_margin      (SlSession          *self);
void            sl_session_set_tree_margin      (SlSession          *self,
                                                 double              margin);
gboolean        sl_session_get_synchronized     (SlSession          *self);
void            sl_session_set_synchronized     (SlSession          *self,
                                                 gboolean            synchronized);
gint64          sl_session_get_time_origin      (SlSession          *self);
const SlTimeSpan *sl_session_get_time_span     (SlSession          *self);
const SlTimeSpan *sl_session_get_visible_span  (SlSession          *self);
void            sl_session_set_visible_span     (SlSession          *self,
                                                 const SlTimeSpan   *span);
const SlTimeSpan *sl_session_get_selected_span (SlSession          *self);
void            sl_session_set_selected_span    (SlSession          *self,
                                                 const SlTimeSpan   *span);

gboolean        sl_session_get_can_export       (SlSession          *self);
SlTimeline     *sl_session_get_timeline         (SlSession          *self);
void            sl_session_lock_events          (SlSession          *self);
void            sl_session_unlock_events        (SlSession          *self);
const SlEventStore *sl_session_get_event_store  (SlSession          *self,
                                                 guint               host);
char           *sl_session_dup_report_json      (SlSession          *self,
                                                 GError            **error);
char           *sl_session_dup_links_csv        (SlSession          *self,
                                                 GError            **error);
char           *sl_session_dup_link_diagnosis   (SlSession          *self,
                                                 SlLinkItem         *link);
char           *sl_session_dup_host_diagnosis   (SlSession          *self,
                                                 SlHostItem         *host);

G_END_DECLS
