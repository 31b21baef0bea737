/* sl-timeline-view-private.h: state shared by the timeline view's files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sl-timeline-view.c: the widget, its properties and its session;
 * sl-timeline-view-clock.c: the hosts' clocks, their animation, following;
 * sl-timeline-view-span.c: zoom, pan, fit, time and x;
 * sl-timeline-view-rows.c: the rows' layout, scrolling, selection;
 * sl-timeline-view-events.c: the Events page, message filters, search;
 * sl-timeline-view-draw.c: the canvas, per-pixel caches, the frame's data;
 * sl-timeline-view-compose.c: the messages and the plot's image;
 * sl-timeline-view-text.c: labels, ruler, legend, placeholder;
 * sl-timeline-view-input.c: actions, key bindings, pointer and tooltips.
 */

#pragma once

#include "sl-search-list.h"
#include "sl-status-line.h"
#include "sl-text-list.h"
#include "sl-timeline-view.h"

G_BEGIN_DECLS

#define ROW_SHOWN_UNKNOWN (G_MAXUINT - 1)

#define SL_TLV_LABEL_W    220
#define SL_TLV_RULER_H    34
#define SL_TLV_LEGEND_H   22
#define SL_TLV_HOST_H     24
#define SL_TLV_ROW_H      18
#define SL_TLV_CPU_H      16
#define SL_TLV_ANIM_US    300000
#define SL_TLV_MIN_PX_NS  1.0
/* a folded message's ends at a coarse zoom */
#define SL_TLV_STUB_PX    12.0

typedef struct
{
  guint   row;
  guint   host;
  guint8  kind;
  guint8  depth;
  guint8  expandable;
  guint8  expanded;
  guint8  pinned;
  /* pinned rows: from the top of the plot; the others: from the top of the
   * scrolled area, below the pinned ones */
  int     y;
  int     h;
} SlTlvRow;

typedef struct
{
  gboolean    known;
  SlTransform target;
  guint       reference;
  double      bound;
  SlTransform from;
  gint64      anim_start;
  SlTransform shown;
  guint64     version;
} SlTlvClock;

typedef struct
{
  guint   row;
  guint64 version;
  gint64  origin;
  double  px_ns;
  gint64  c_start;
  int     n;
  guint32 *rgba;
  guint64 frame;
} SlTlvRowCache;

typedef struct
{
  gint64  origin;
  double  px_ns;
  gint64  col0;
  int     width;
  int     height;
  int     scroll;
  guint64 layout_version;
  guint64 data_version;
  guint64 clock_version;
  guint64 arrow_version;
  guint64 extra;
} SlTlvKey;

typedef struct
{
  double   x0;
  double   y0;
  double   x1;
  double   y1;
  gboolean head;
} SlTlvSegment;

typedef struct
{
  char   *name;
  guint   host;
  gint64  local;
} SlTlvBookmark;

#define SL_TYPE_TIMELINE_CANVAS (sl_timeline_canvas_get_type ())

G_DECLARE_FINAL_TYPE (SlTimelineCanvas, sl_timeline_canvas, SL, TIMELINE_CANVAS, GtkWidget)

struct _SlTimelineView
{
  GtkWidget          parent_instance;

  /* template */
  GtkWidget         *toolbar;
  GtkSearchEntry    *search_entry;
  GtkDropDown       *pair_dropdown;
  GtkDropDown       *connection_dropdown;
  SlStatusLine      *status_label;
  GtkPaned          *paned;
  GtkWidget         *canvas;
  GtkScrollbar      *scrollbar;
  GtkColumnView     *events_view;
  GtkStack          *pages;
  GtkLabel          *message_label;
  GtkLabel          *find_label;
  GtkProgressBar    *find_progress;
  GtkColumnView     *find_view;
  GtkLabel          *stats_label;
  GtkDropDown       *stats_kind;
  GtkColumnView     *states_view;
  GtkColumnView     *latency_view;
  GtkEntry          *bookmark_entry;
  GtkColumnView     *bookmarks_view;
  GtkLabel          *request_label;
  GtkColumnView     *request_view;

  /* the request followed (SlTimelineChainStep; sl-timeline-view-request.c) */
  GArray            *chain_steps;
  SlTextList        *request_list;
  GtkSingleSelection *request_selection;
  gboolean           request_updating;

  /* bookmarks (SlTlvBookmark), by time (sl-timeline-view-marks.c) */
  GArray            *bookmarks;
  guint              bookmark_sel;
  guint              bookmark_serial;
  SlTextList        *bookmark_list;
  GtkSingleSelection *bookmark_selection;
  gboolean           bookmarks_updating;

  /* statistics of the selection (sl-timeline-view-stats.c) */
  SlTextList        *state_stats;
  SlTextList        *latency_stats;
  guint              stats_id;
  gboolean           stats_stale;
  gint64             stats_t0;
  gint64             stats_t1;

  /* events found (sl-timeline-view-find.c), the one shown, and the time
   * marked on the plot */
  SlSearchList      *search;
  GtkSingleSelection *find_selection;
  guint              find_index;
  char              *find_error;
  gboolean           find_selecting;
  gboolean           has_cursor;
  gint64             cursor_time;
  GtkLabel          *events_label;
  GtkStringList     *pair_list;
  GtkStringList     *connection_list;

  SlSession         *session;
  gulong             session_ids[7];

  SlTimeline        *timeline;
  gboolean           from_session;
  /* the session's links changed while there was no timeline to draw them */
  gboolean           links_stale;
  const SlEventStore * const *stores;
  guint              n_stores;
  SlEventList       *events;
  guint              events_id;
  gboolean           events_selected;
  /* the selection or span changed while the Events page was hidden */
  gboolean           events_stale;

  /* the visible span: pixel k covers [origin + (col0 + k) px_ns, + px_ns) */
  gint64             origin;
  double             px_ns;
  gint64             col0;
  int                plot_w;
  int                rows_h;
  gboolean           has_span;
  /* the span is the fit of the data (Home): it follows the clocks and the
   * data until the user moves it */
  gboolean           fitted;
  gboolean           refit_pending;
  gint64             pending_start;
  gint64             pending_end;
  gboolean           pushing_span;

  gboolean           synchronized;
  gboolean           follow;
  gint64             follow_target;   /* the end the span moves towards */
  gint64             follow_frame_us; /* the frame it last moved in */
  gboolean           show_cpus;
  gint64             data_end;

  GArray            *clocks;
  GHashTable        *link_bounds;
  GHashTable        *link_rels;
  guint64            clock_version;

  GArray            *vis;
  GArray            *row_vis;
  GArray            *row_shown;      /* row → line showing it, memo */
  GByteArray        *host_open;
  GHashTable        *closed_procs;
  double             content_h;
  GtkAdjustment     *vadj;
  guint64            layout_version;
  guint64            data_version;
  guint              n_rows_seen;

  /* rows: filters (SlTimelineRowFilterFlags), one process tree, pins */
  guint              row_filter;
  gboolean           sort_rows;
  guint              tree_host;
  guint32            tree_pid;
  GHashTable        *tree_pids;
  GArray            *pins;
  guint              n_pinned;
  int                pinned_h;

  /* the selected message, and the end shown last (0 send, 1 receive) */
  gboolean           has_msg;
  SlTimelineArrow    msg;
  guint              msg_end;
  /* the request followed: its messages (SlTimelineArrow), or NULL */
  GArray            *chain;

  /* changes a session file keeps (sl-timeline-view-state.c) */
  guint64            state_serial;

  guint              selected_row;
  guint              hl_host_a;
  guint              hl_host_b;
  guint              filter_a;
  guint              filter_b;
  guint              filter_conn;
  guint64            arrow_version;
  GArray            *pairs;
  GArray            *pair_conns;
  guint              n_lanes;
  char              *search_text;

  /* caches (sl-timeline-view-draw.c) */
  GHashTable        *row_cache;
  guint64            frame_no;
  SlTlvKey           rows_key;
  GArray            *arrows;
  SlTlvKey           arrows_key;
  guint              arrow_cols;
  gboolean           arrows_coarse;
  /* the selected link's messages first (hl_link_n of them, folded into
   * hl_link_cols columns, drawn by their ends when hl_link_coarse), then
   * the selected row's */
  GArray            *hl_arrows;
  guint              hl_link_n;
  guint              hl_link_cols;
  gboolean           hl_link_coarse;
  /* the selected row's: hl_row_msgs of them found (all when the search
   * ended without reaching the cap), drawn whole while at most one every
   * few pixels, else folded per lane into hl_row_cols columns and drawn by
   * their ends (hl_row_coarse; hl_row_fold: (lane, column) to index) */
  guint64            hl_row_msgs;
  gboolean           hl_row_capped;
  guint              hl_row_cols;
  gboolean           hl_row_coarse;
  GHashTable        *hl_row_fold;
  SlTlvKey           hl_key;
  gint64             hl_cursor;
  SlTlvKey           mask_key;
  SlTlvKey           hl_mask_key;
  /* the rows and the messages' masks, composed in the update phase */
  cairo_surface_t   *plot_image;
  gboolean           plot_has_messages;
  /* SlMaskLine: the lines of the three masks, reused */
  GArray            *mask_lines[3];
  cairo_surface_t   *labels_surface;
  SlTlvKey           labels_key;
  guint              labels_sel;
  guint              labels_unsynchronized;
  cairo_surface_t   *legend_surface;
  GHashTable        *ruler_layouts;
  int                legend_w;
  guint              tick_id;
  SlTimelineViewStats stats;

  /* pointer (sl-timeline-view-input.c) */
  int                drag_mode;
  double             drag_x0;
  double             drag_y0;
  double             drag_dx;
  double             drag_dy;
  gint64             drag_col0;
  double             drag_scroll;
  double             pointer_x;
  double             pointer_y;
  gboolean           pointer_in;
};

/* Where a line of rows is on the plot, for a scroll offset */
static inline int
_sl_tlv_screen_y (const SlTimelineView *self,
                  const SlTlvRow       *v,
                  int                   scroll)
{
  return v->pinned ? v->y : self->pinned_h + v->y - scroll;
}

/* sl-timeline-view.c */
enum {
  PROP_0,
  PROP_SESSION,
  PROP_SYNCHRONIZED,
  PROP_FOLLOW,
  PROP_SHOW_CPUS,
  PROP_SELECTED_ROW,
  PROP_ANIMATING,
  PROP_HIDE_IDLE,
  PROP_HIDE_KERNEL,
  PROP_ONLY_MESSAGES,
  PROP_SORT_ROWS,
  N_PROPS
};

extern GParamSpec *_sl_timeline_view_properties[N_PROPS];

void      _sl_timeline_view_queue_update    (SlTimelineView *self);
char     *_sl_timeline_view_dup_host_label  (SlTimelineView *self,
                                             guint           host);
char     *_sl_timeline_view_dup_drawn_label (SlTimelineView *self,
                                             guint           n,
                                             double         *x,
                                             double         *yc,
                                             gboolean       *bold);
void      _sl_timeline_view_span_changed    (SlTimelineView *self);
gint64    _sl_timeline_view_start           (SlTimelineView *self);
gint64    _sl_timeline_view_end             (SlTimelineView *self);
SlTimeSpan _sl_timeline_view_span           (SlTimelineView *self);
SlTimeSpan _sl_timeline_view_selection      (SlTimelineView *self);
void      _sl_timeline_view_zoom            (SlTimelineView *self,
                                             double          factor,
                                             double          plot_x);
void      _sl_timeline_view_pan_px          (SlTimelineView *self,
                                             gint64          dx);
void      _sl_timeline_view_fit             (SlTimelineView *self);
void      _sl_timeline_view_scroll_to_row   (SlTimelineView *self,
                                             guint           row);
void      _sl_timeline_view_relayout        (SlTimelineView *self);
void      _sl_timeline_view_state_changed   (SlTimelineView *self);
void      _sl_timeline_view_message_changed (SlTimelineView *self);
void      _sl_timeline_view_toggle_row      (SlTimelineView *self,
                                             guint           vis_index);
guint     _sl_timeline_view_vis_at          (SlTimelineView *self,
                                             double          y);
void      _sl_timeline_view_scrolled_range  (SlTimelineView *self,
                                             int             scroll,
                                             guint          *first,
                                             guint          *end);
gboolean  _sl_timeline_view_sticky_header   (SlTimelineView *self,
                                             int             scroll,
                                             guint          *vis_index,
                                             int            *y);
double    _sl_timeline_view_wheel_step      (SlTimelineView *self);
guint     _sl_timeline_view_selected_vis    (SlTimelineView *self);
double    _sl_timeline_view_row_center      (SlTimelineView *self,
                                             guint           row,
                                             int             scroll);
guint     _sl_timeline_view_vis_for_row     (SlTimelineView *self,
                                             guint           row);
void      _sl_timeline_view_center_row      (SlTimelineView *self,
                                             guint           row);
gboolean  _sl_timeline_view_tick            (SlTimelineView *self,
                                             gint64          now_us);
void      _sl_timeline_view_update_events   (SlTimelineView *self);
void      _sl_timeline_view_set_selected_span (SlTimelineView *self,
                                             gint64          start,
                                             gint64          end);
const SlTlvClock *_sl_timeline_view_clock   (SlTimelineView *self,
                                             guint           host);

/* sl-timeline-view-draw.c */
gboolean  _sl_timeline_view_prepare         (SlTimelineView *self);
gboolean  _sl_timeline_view_pending         (SlTimelineView *self);
gboolean  _sl_timeline_view_row_is_selected (SlTimelineView *self,
                                             guint           row);
void      _sl_timeline_view_snapshot_canvas (SlTimelineView *self,
                                             GtkSnapshot    *snapshot,
                                             int             width,
                                             int             height);
void      _sl_timeline_view_clear_caches    (SlTimelineView *self);
int       _sl_timeline_view_ruler_step      (double          px_ns,
                                             gint64         *step_ns);

guint     _sl_timeline_view_arrow_segments  (SlTimelineView        *self,
                                             const SlTimelineArrow *a,
                                             int                    scroll,
                                             gboolean               stubs,
                                             SlTlvSegment           seg[2]);

/* sl-timeline-view-message.c */
gboolean  _sl_timeline_view_arrow_at        (SlTimelineView        *self,
                                             double                 x,
                                             double                 y,
                                             SlTimelineArrow       *out);
gboolean  _sl_timeline_view_stubs          (SlTimelineView        *self,
                                            GArray                *arrows,
                                            guint                  i);
char     *_sl_timeline_view_arrow_tooltip   (SlTimelineView        *self,
                                             const SlTimelineArrow *a);
void      _sl_timeline_view_draw_selected_message (SlTimelineView *self,
                                             cairo_t        *cr,
                                             int             scroll);

/* sl-timeline-view-find.c */
void      _sl_timeline_view_class_init_find (GtkWidgetClass *widget_class);
void      _sl_timeline_view_init_find       (SlTimelineView *self);
void      _sl_timeline_view_dispose_find    (SlTimelineView *self);
void      _sl_timeline_view_find_source     (SlTimelineView *self);
void     _sl_timeline_view_find_dropped (SlTimelineView *self);
void      _sl_timeline_view_find_step       (SlTimelineView *self,
                                             int             step);

/* sl-timeline-view-stats.c */
void      _sl_timeline_view_class_init_stats (GtkWidgetClass *widget_class);
void      _sl_timeline_view_init_stats      (SlTimelineView *self);
void      _sl_timeline_view_dispose_stats   (SlTimelineView *self);
void      _sl_timeline_view_queue_stats     (SlTimelineView *self);
void      _sl_timeline_view_update_stats    (SlTimelineView *self);
gboolean  _sl_timeline_view_selection_parts (SlTimelineView  *self,
                                             char           **events,
                                             char           **duration);

/* sl-timeline-view-marks.c */
char     *_sl_timeline_view_dup_host_name (SlTimelineView *self,
                                           guint           host);
void      _sl_timeline_view_class_init_marks (GtkWidgetClass *widget_class);
void      _sl_timeline_view_init_marks      (SlTimelineView *self);
void      _sl_timeline_view_dispose_marks   (SlTimelineView *self);
guint     _sl_timeline_view_bookmark_step   (SlTimelineView *self,
                                             int             step);
guint     _sl_timeline_view_add_bookmark_here (SlTimelineView *self,
                                             const char     *name);
void      _sl_timeline_view_draw_bookmark_lines (SlTimelineView *self,
                                             cairo_t        *cr,
                                             int             h);
void      _sl_timeline_view_draw_bookmark_flags (SlTimelineView *self,
                                             cairo_t        *cr);

/* sl-timeline-view-request.c */
void      _sl_timeline_view_class_init_request (GtkWidgetClass *widget_class);
void      _sl_timeline_view_init_request    (SlTimelineView *self);
void      _sl_timeline_view_dispose_request (SlTimelineView *self);
void      _sl_timeline_view_draw_request    (SlTimelineView *self,
                                             cairo_t        *cr,
                                             int             scroll);

/* sl-timeline-view-input.c */
void      _sl_timeline_view_class_init_actions (GtkWidgetClass *widget_class);
void      _sl_timeline_view_init_input      (SlTimelineView *self);
void      _sl_timeline_view_update_actions  (SlTimelineView *self);

guint64   _sl_timeline_view_pair_key (guint a,
                                      guint b);
void      _sl_timeline_view_push_clock (SlTimelineView *self,
                                        guint           host);
void      _sl_timeline_view_set_link_relation (SlTimelineView *self,
                                               guint           a,
                                               guint           b,
                                               SlRelation     *rel);
void      _sl_timeline_view_push_link_bounds (SlTimelineView *self);
void      _sl_timeline_view_update_status (SlTimelineView *self);
void      _sl_timeline_view_events_page_cb (SlTimelineView *self);
void      _sl_timeline_view_queue_events (SlTimelineView *self);
void      _sl_timeline_view_set_span_internal (SlTimelineView *self,
                                               gint64          start,
                                               gint64          end);
gint64    _sl_timeline_view_follow_room (SlTimelineView *self,
                                         gint64          width);
void      _sl_timeline_view_fit_or_follow (SlTimelineView *self);
void      _sl_timeline_view_refit_if_fitted (SlTimelineView *self);
gboolean  _sl_timeline_view_host_open (SlTimelineView *self,
                                       guint           host);
void      _sl_timeline_view_rebuild_layout (SlTimelineView *self);
void      _sl_timeline_view_reveal_row (SlTimelineView *self,
                                        guint           row);
void      _sl_timeline_view_rebuild_filters (SlTimelineView *self);
void      _sl_timeline_view_rebuild_connections (SlTimelineView *self);
void      _sl_timeline_view_update_events_label (SlTimelineView *self);
gboolean  _sl_timeline_view_clocks_animating (SlTimelineView *self);
void      _sl_timeline_view_step_clocks (SlTimelineView *self,
                                         gint64          now);
void      _sl_timeline_view_ensure_clock (SlTimelineView *self,
                                          guint           host);
void      _sl_timeline_view_set_host_clock (SlTimelineView    *self,
                                            guint              host,
                                            const SlTransform *to_reference,
                                            guint              reference,
                                            double             bound_ns,
                                            gint64             now,
                                            gboolean           stepped);

void      _sl_timeline_view_set_hex (cairo_t *cr,
                                     guint32  rgb,
                                     double   alpha);
guint32   _sl_timeline_view_premul (guint32 rgb,
                                    double  alpha);
gboolean  _sl_timeline_view_key_equal (const SlTlvKey *a,
                                       const SlTlvKey *b);
void      _sl_timeline_view_current_key (SlTimelineView *self,
                                         SlTlvKey       *key);
GArray    *_sl_timeline_view_lines_on_screen (SlTimelineView *self,
                                              int             scroll);
double    _sl_timeline_view_arrow_x (SlTimelineView *self,
                                     gint64          view_time);
gboolean  _sl_timeline_view_ensure_plot (SlTimelineView *self,
                                         gboolean        rows_changed);
void      _sl_timeline_view_draw_messages (SlTimelineView *self,
                                           cairo_t        *cr,
                                           double          scroll);
void      _sl_timeline_view_get_fg (GtkWidget *widget,
                                    GdkRGBA   *fg);
void      _sl_timeline_view_ensure_labels (SlTimelineView *self,
                                           GtkWidget      *canvas);
PangoLayout *_sl_timeline_view_ruler_layout (SlTimelineView *self,
                                             GtkWidget      *canvas,
                                             const char     *text);
void      _sl_timeline_view_show_cached (cairo_t     *cr,
                                         PangoLayout *layout,
                                         double       x,
                                         double       y,
                                         double       valign);
void      _sl_timeline_view_draw_ruler (SlTimelineView *self,
                                        GtkWidget      *canvas,
                                        cairo_t        *cr,
                                        const GdkRGBA  *fg);
void      _sl_timeline_view_ensure_legend (SlTimelineView *self,
                                           GtkWidget      *canvas);
void      _sl_timeline_view_draw_placeholder (SlTimelineView *self,
                                              GtkSnapshot    *snapshot,
                                              int             width,
                                              int             height);

G_END_DECLS
