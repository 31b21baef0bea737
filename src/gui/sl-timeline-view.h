/* sl-timeline-view.h: every host's threads on one clock, with the messages
 * between them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sl-event-list.h"
#include "sl-search-list.h"
#include "sl-session-file.h"
#include "sl-text-list.h"
#include "sl-session.h"
#include "sl-timeline.h"

G_BEGIN_DECLS

/* Colours the view draws with, as 8-bit RGB, so that tests find them. */
#define SL_TIMELINE_RGB_ARROW           0x3d3846
/* the highlighted messages (magenta) and the clock bound's whiskers and
 * hatching (cyan) are unlike every state colour (CIE ΔE ≥ 35) */
#define SL_TIMELINE_RGB_ARROW_HIGHLIGHT 0xd629b8
#define SL_TIMELINE_RGB_UNCERTAIN       0x00a5b8
#define SL_TIMELINE_RGB_SELECTION       0x3584e4
/* bookmarks (dark purple) and a followed request (brown): unlike the
 * states, the arrows, the selection and the marks above, and each other
 * (ΔE ≥ 35) */
#define SL_TIMELINE_RGB_BOOKMARK        0x613583
#define SL_TIMELINE_RGB_REQUEST         0x8f5902
/* live: the line up to which every streaming host is complete */
#define SL_TIMELINE_RGB_COMPLETE        0x26a269

/* live data opens following its end, this wide (zooming changes it) */
#define SL_TIMELINE_LIVE_WINDOW_NS      (5 * G_GINT64_CONSTANT (1000000000))

#define SL_TYPE_TIMELINE_VIEW (sl_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (SlTimelineView, sl_timeline_view, SL, TIMELINE_VIEW, GtkWidget)

/**
 * SlTimelineViewStats:
 * @prepare_ms: the last frame's preparation (per-pixel queries, arrows,
 *   textures), in the frame clock's update phase
 * @rows_queried: rows whose pixels were queried for it (the others came
 *   from the cache)
 * @columns_queried: pixel columns queried, all rows
 * @arrows: arrows drawn (after folding)
 * @visible_rows: rows on screen
 * @complete: the frame showed the current span (not a scaled older one)
 */
typedef struct
{
  double  prepare_ms;
  guint   rows_queried;
  guint64 columns_queried;
  guint   arrows;
  guint   visible_rows;
  gboolean complete;
} SlTimelineViewStats;

guint32         sl_timeline_view_state_rgb        (SlTimelineState  state);
const char     *sl_timeline_view_state_label      (SlTimelineState  state);

SlSession      *sl_timeline_view_get_session      (SlTimelineView  *self);
void            sl_timeline_view_set_session      (SlTimelineView  *self,
                                                   SlSession       *session);
SlTimeline     *sl_timeline_view_get_timeline     (SlTimelineView  *self);
/**
 * sl_timeline_view_set_timeline:
 * @timeline: (nullable): a model, instead of the session's
 * @stores: (nullable) (array length=n_stores): each host's event store, for
 *   the events table
 *
 * Shows @timeline, which the caller keeps alive (and does not update
 * behind the view's back: call sl_timeline_view_data_changed()) until the
 * next call. The session's model replaces it when one is loaded.
 */
void            sl_timeline_view_set_timeline     (SlTimelineView  *self,
                                                   SlTimeline      *timeline,
                                                   const SlEventStore * const *stores,
                                                   guint            n_stores);
/**
 * sl_timeline_view_data_changed:
 *
 * The model grew (sl_timeline_update() returned %TRUE): new rows, longer
 * rows, new arrows. A view that follows the end of the data moves with it.
 */
void            sl_timeline_view_data_changed     (SlTimelineView  *self);
/**
 * sl_timeline_view_set_host_clock:
 * @to_reference: (nullable): @host's map to its reference's clock, %NULL
 *   for the identity
 * @reference: its reference host
 * @bound_ns: how far the map may be from the truth
 *
 * What a session update brings, one host at a time: a changed map moves
 * what is drawn of @host to its new place over 300 ms; a changed reference
 * also moves the visible span so that nothing jumps.
 */
void            sl_timeline_view_set_host_clock   (SlTimelineView  *self,
                                                   guint            host,
                                                   const SlTransform *to_reference,
                                                   guint            reference,
                                                   double           bound_ns);
void            sl_timeline_view_set_link_bound   (SlTimelineView  *self,
                                                   guint            host_a,
                                                   guint            host_b,
                                                   double           bound_ns);

void            sl_timeline_view_get_span         (SlTimelineView  *self,
                                                   gint64          *start,
                                                   gint64          *end);
void            sl_timeline_view_set_span         (SlTimelineView  *self,
                                                   gint64           start,
                                                   gint64           end);
gboolean        sl_timeline_view_get_synchronized (SlTimelineView  *self);
void            sl_timeline_view_set_synchronized (SlTimelineView  *self,
                                                   gboolean         synchronized);
gboolean        sl_timeline_view_get_follow       (SlTimelineView  *self);
void            sl_timeline_view_set_follow       (SlTimelineView  *self,
                                                   gboolean         follow);
gboolean        sl_timeline_view_get_animating    (SlTimelineView  *self);

guint           sl_timeline_view_get_selected_row (SlTimelineView  *self);
void            sl_timeline_view_select_row       (SlTimelineView  *self,
                                                   guint            row);
/**
 * sl_timeline_view_search:
 * @text: part of a process or thread name, or a thread id
 *
 * Selects the next row that matches (after the selected one), opening its
 * host and process and scrolling to it.
 *
 * Returns: the row, or %SL_TIMELINE_NONE
 */
guint           sl_timeline_view_search           (SlTimelineView  *self,
                                                   const char      *text);
void            sl_timeline_view_set_host_expanded (SlTimelineView *self,
                                                   guint            host,
                                                   gboolean         expanded);
gboolean        sl_timeline_view_get_host_expanded (SlTimelineView *self,
                                                   guint            host);
void            sl_timeline_view_set_all_expanded (SlTimelineView  *self,
                                                   gboolean         expanded);
void            sl_timeline_view_set_arrow_filter (SlTimelineView  *self,
                                                   guint            host_a,
                                                   guint            host_b,
                                                   guint            connection);

/**
 * sl_timeline_view_set_row_filter:
 * @flags: #SlTimelineRowFilterFlags
 *
 * Which threads and processes have a line (their messages go to the line
 * of what contains them).
 */
void            sl_timeline_view_set_row_filter   (SlTimelineView  *self,
                                                   guint            flags);
guint           sl_timeline_view_get_row_filter   (SlTimelineView  *self);
/**
 * sl_timeline_view_set_process_tree:
 * @pid: a process of @host, 0 for none
 *
 * Only that process and its descendants, of the hosts' processes.
 */
void            sl_timeline_view_set_process_tree (SlTimelineView  *self,
                                                   guint            host,
                                                   guint32          pid);
void            sl_timeline_view_get_process_tree (SlTimelineView  *self,
                                                   guint           *host,
                                                   guint32         *pid);
/**
 * sl_timeline_view_set_row_pinned:
 *
 * A pinned row is shown above the others, which scroll under it.
 */
void            sl_timeline_view_set_row_pinned   (SlTimelineView  *self,
                                                   guint            row,
                                                   gboolean         pinned);
gboolean        sl_timeline_view_get_row_pinned   (SlTimelineView  *self,
                                                   guint            row);
GArray         *sl_timeline_view_dup_pinned_rows  (SlTimelineView  *self);
/**
 * sl_timeline_view_dup_shown_rows:
 *
 * Returns: (transfer full): the rows that have a line, top to bottom
 *   (pinned ones first)
 */
GArray         *sl_timeline_view_dup_shown_rows   (SlTimelineView  *self);

/**
 * sl_timeline_view_select_message:
 * @message: (nullable): a message, as sl_timeline_query_arrows() or
 *   sl_timeline_find_message() give it; %NULL for none
 *
 * Marks both ends of @message and shows its details on the Message page.
 */
void            sl_timeline_view_select_message   (SlTimelineView  *self,
                                                   const SlTimelineArrow *message);
gboolean        sl_timeline_view_get_selected_message (SlTimelineView *self,
                                                   SlTimelineArrow *message);
/**
 * sl_timeline_view_jump_to_other_end:
 *
 * Selects the row at the other end of the selected message (its receive
 * end first) and puts it and that end's time in the middle of the view.
 *
 * Returns: that row, or %SL_TIMELINE_NONE without a selected message
 */
guint           sl_timeline_view_jump_to_other_end (SlTimelineView *self);
/**
 * sl_timeline_view_dup_message_text:
 *
 * Returns: (transfer full): @message's sender and receiver (host, process,
 *   thread, CPU), send and receive times on the view's clock and each
 *   host's own, latency, the link's bound, TCP ports, seq and length, a
 *   line each
 */
char           *sl_timeline_view_dup_message_text (SlTimelineView  *self,
                                                   const SlTimelineArrow *message);

/**
 * sl_timeline_view_find_events:
 * @text: an event query (see #SlEventQuery)
 *
 * Searches every host's events on a worker thread; the Find page lists
 * them, and the first one is shown when they are found.
 *
 * Returns: %FALSE when @text is not a query (the Find page says why)
 */
gboolean        sl_timeline_view_find_events      (SlTimelineView  *self,
                                                   const char      *text);
SlSearchList   *sl_timeline_view_get_search       (SlTimelineView  *self);
/**
 * sl_timeline_view_show_found:
 *
 * Shows the @position-th event found: its thread selected and in the
 * middle of the rows, its time in the middle of the span and marked.
 */
gboolean        sl_timeline_view_show_found       (SlTimelineView  *self,
                                                   guint            position);
guint           sl_timeline_view_get_found_index  (SlTimelineView  *self);

/**
 * sl_timeline_view_get_state_stats:
 *
 * The Statistics page's time per state: a row per thread (or process) with
 * its name, host, then running, user, system call, interrupt, softirq,
 * runnable, blocked and unknown time; the item's id is the timeline row.
 */
SlTextList     *sl_timeline_view_get_state_stats  (SlTimelineView  *self);
/**
 * sl_timeline_view_get_latency_stats:
 *
 * The Statistics page's latencies: a row per link direction with its
 * hosts, messages, min, median, p99, max and a histogram.
 */
SlTextList     *sl_timeline_view_get_latency_stats (SlTimelineView *self);

/**
 * sl_timeline_view_add_bookmark:
 * @name: (nullable): its name; %NULL or "" for "Bookmark N"
 * @local: the time marked, on @host's own clock (so that it stays on the
 *   same events when the clocks change)
 *
 * Returns: its place in the list (by time)
 */
guint           sl_timeline_view_add_bookmark     (SlTimelineView  *self,
                                                   const char      *name,
                                                   guint            host,
                                                   gint64           local);
guint           sl_timeline_view_get_n_bookmarks  (SlTimelineView  *self);
gboolean        sl_timeline_view_get_bookmark     (SlTimelineView  *self,
                                                   guint            index,
                                                   const char     **name,
                                                   guint           *host,
                                                   gint64          *local);
void            sl_timeline_view_rename_bookmark  (SlTimelineView  *self,
                                                   guint            index,
                                                   const char      *name);
void            sl_timeline_view_remove_bookmark  (SlTimelineView  *self,
                                                   guint            index);
void            sl_timeline_view_clear_bookmarks  (SlTimelineView  *self);
/**
 * sl_timeline_view_goto_bookmark:
 *
 * Puts the bookmark's time in the middle of the span (the zoom kept) and
 * marks it.
 */
gboolean        sl_timeline_view_goto_bookmark    (SlTimelineView  *self,
                                                   guint            index);
guint           sl_timeline_view_get_selected_bookmark (SlTimelineView *self);

/**
 * sl_timeline_view_follow_request:
 *
 * Follows the request from the selected message (else from the selected
 * thread's first message after the time marked, the selection's start or
 * the span's start; see sl_timeline_follow_message()): its messages, the
 * threads they woke and how long those ran are drawn over the rest and
 * listed on the Request page.
 *
 * Returns: the messages followed
 */
guint           sl_timeline_view_follow_request   (SlTimelineView  *self);
void            sl_timeline_view_clear_request    (SlTimelineView  *self);
/**
 * sl_timeline_view_get_request:
 *
 * Returns: (nullable): the #SlTimelineChainStep of the request followed
 */
const GArray   *sl_timeline_view_get_request      (SlTimelineView  *self);
SlTextList     *sl_timeline_view_get_request_list (SlTimelineView  *self);

/**
 * sl_timeline_view_save_state:
 *
 * Fills @out's view part (clock, span, selection, filters, process tree,
 * pins, selected row and message, bookmarks), by host names and local
 * times.
 */
void            sl_timeline_view_save_state       (SlTimelineView  *self,
                                                   SlSessionFile   *out);
/**
 * sl_timeline_view_restore_state:
 *
 * Shows the timeline as @in says, for the same inputs read again.
 */
void            sl_timeline_view_restore_state    (SlTimelineView  *self,
                                                   const SlSessionFile *in);
/**
 * sl_timeline_view_get_state_serial:
 *
 * Returns: a number that changes with what a session file keeps (but the
 *   span)
 */
guint64         sl_timeline_view_get_state_serial (SlTimelineView  *self);

GtkWidget      *sl_timeline_view_get_canvas       (SlTimelineView  *self);
/**
 * sl_timeline_view_get_events:
 *
 * Returns: (transfer none): the selected row's events in the visible (or
 *   selected) span, an #SlEventList; brought up to date while the Events
 *   page is shown, and when it is shown again
 */
GListModel     *sl_timeline_view_get_events       (SlTimelineView  *self);
/**
 * sl_timeline_view_get_row_y:
 * @y: (out): the row's middle, in the canvas's coordinates
 *
 * Returns: whether @row is shown (its host and process are open)
 */
gboolean        sl_timeline_view_get_row_y        (SlTimelineView  *self,
                                                   guint            row,
                                                   double          *y);
/**
 * sl_timeline_view_time_to_x:
 *
 * Returns: the canvas x of a time of the view's clock
 */
double          sl_timeline_view_time_to_x        (SlTimelineView  *self,
                                                   gint64           view_time);
gint64          sl_timeline_view_x_to_time        (SlTimelineView  *self,
                                                   double           x);
/**
 * sl_timeline_view_host_time_to_x:
 *
 * Returns: the canvas x at which @host's local time @local is drawn now
 */
double          sl_timeline_view_host_time_to_x   (SlTimelineView  *self,
                                                   guint            host,
                                                   gint64           local);
gboolean        sl_timeline_view_get_kept_from     (SlTimelineView *self,
                                                    gint64         *view_time);
gboolean        sl_timeline_view_get_complete_time (SlTimelineView *self,
                                                   gint64          *view_time);
void            sl_timeline_view_get_stats        (SlTimelineView  *self,
                                                   SlTimelineViewStats *stats);

G_END_DECLS
