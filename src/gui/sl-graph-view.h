/* sl-graph-view.h: hosts and links of the session as a graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"

G_BEGIN_DECLS

/* Colours the view draws with, as 8-bit RGB, so that tests find them. */
#define SL_GRAPH_RGB_REFERENCE 0xe5a50a
#define SL_GRAPH_RGB_SELECTED  0x3584e4
#define SL_GRAPH_RGB_UNREADABLE 0xc01c28
#define SL_GRAPH_RGB_UNSYNCHRONIZED 0x9a9996
/* badges of live hosts that do not stream (failed: the unreadable red) */
#define SL_GRAPH_RGB_STALLED   0xc061cb
#define SL_GRAPH_RGB_ENDED     0x865e3c
/* the pin by a reference the user pinned */
#define SL_GRAPH_RGB_PINNED    0xe01b24

/* A host's name as drawn: its box, in widget coordinates; @host is
 * SL_HOST_NONE for an unreadable host (@unreadable its index in the
 * session's). */
typedef struct
{
  guint  host;
  guint  unreadable;
  double x;
  double y;
  double w;
  double h;
} SlGraphLabel;

#define SL_TYPE_GRAPH_VIEW (sl_graph_view_get_type ())

G_DECLARE_FINAL_TYPE (SlGraphView, sl_graph_view, SL, GRAPH_VIEW, GtkWidget)

SlSession  *sl_graph_view_get_session        (SlGraphView  *self);
void        sl_graph_view_set_session        (SlGraphView  *self,
                                              SlSession    *session);
double      sl_graph_view_get_zoom           (SlGraphView  *self);
gboolean    sl_graph_view_get_animating      (SlGraphView  *self);
gboolean    sl_graph_view_get_host_position  (SlGraphView  *self,
                                              guint         host,
                                              double       *x,
                                              double       *y);
gboolean    sl_graph_view_get_unreadable_position (SlGraphView *self,
                                              guint         i,
                                              double       *x,
                                              double       *y);
gboolean    sl_graph_view_pick               (SlGraphView  *self,
                                              double        x,
                                              double        y,
                                              guint        *host,
                                              guint        *link);
guint       sl_graph_view_get_highlighted_link (SlGraphView *self);
guint       sl_graph_view_get_highlighted_host (SlGraphView *self);
void        sl_graph_view_draw               (SlGraphView  *self,
                                              cairo_t      *cr,
                                              int           width,
                                              int           height,
                                              gboolean      for_export);
gboolean    sl_graph_view_find_host          (SlGraphView  *self,
                                              const char   *text,
                                              gboolean      next);
gboolean    sl_graph_view_export             (SlGraphView  *self,
                                              const char   *path,
                                              const char   *format,
                                              GError      **error);

/* for the tests: links glowing now for having joined the tree; at most
 * SL_GRAPH_VIEW_MAX_GLOWING at a time */
#define SL_GRAPH_VIEW_MAX_GLOWING 8
guint       _sl_graph_view_count_glowing     (SlGraphView  *self);
guint       _sl_graph_view_get_pulsing_reference (SlGraphView *self);
void        _sl_graph_view_set_undo_ms       (SlGraphView  *self,
                                              guint         undo_ms);
const GArray *_sl_graph_view_get_labels      (SlGraphView  *self);
char       *_sl_graph_view_dup_label_text   (SlGraphView  *self,
                                              guint         host);
/* for the tests: drawings of the graph (all, and while its session was
 * read); the least cost pacing assumes a drawing has (µs) */
guint       _sl_graph_view_get_n_draws       (SlGraphView  *self,
                                              gboolean      while_loading);
/* drawings while the session was read that the pacing asked for */
guint       _sl_graph_view_get_n_paced_draws (SlGraphView  *self);
guint       _sl_graph_view_get_n_canvas_copies (SlGraphView *self);
guint       _sl_graph_view_get_n_ticks_loading (SlGraphView *self);
/* the session's updates while it was read, and those of them that changed
 * nothing the graph shows */
guint       _sl_graph_view_get_n_updates_loading (SlGraphView *self,
                                                  gboolean     unseen);
guint       _sl_graph_view_get_back_lookups_per_host (SlGraphView *self);
void        _sl_graph_view_set_pace_floor_us (SlGraphView  *self,
                                              gint64        cost_us);
guint       _sl_graph_view_get_ring_strokes  (SlGraphView  *self);
void        _sl_graph_view_set_ring_masks_off (SlGraphView *self,
                                               gboolean     off);
cairo_surface_t *_sl_graph_view_draw_picture (SlGraphView  *self,
                                              int           scale);

G_END_DECLS
