/* sl-window.h: the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "sl-graph-view.h"
#include "sl-quality-panel.h"
#include "sl-session.h"
#include "sl-timeline-view.h"

G_BEGIN_DECLS

#define SL_TYPE_WINDOW (sl_window_get_type ())

G_DECLARE_FINAL_TYPE (SlWindow, sl_window, SL, WINDOW, AdwApplicationWindow)

SlWindow       *sl_window_new                (GtkApplication     *application);
SlSession      *sl_window_get_session        (SlWindow           *self);
GSettings      *sl_window_get_settings       (SlWindow           *self);
SlGraphView    *sl_window_get_graph_view     (SlWindow           *self);
SlQualityPanel *sl_window_get_quality_panel  (SlWindow           *self);
SlTimelineView *sl_window_get_timeline_view  (SlWindow           *self);
void            sl_window_open_with_transforms (SlWindow         *self,
                                                const char * const *folders,
                                                const char       *transforms);
void            sl_window_open_paths         (SlWindow           *self,
                                              const char * const *paths);
void            sl_window_open_files         (SlWindow           *self,
                                              GFile             **files,
                                              guint               n_files);
AdwMessageDialog *sl_window_get_replace_dialog (SlWindow         *self);
void            sl_window_open_live          (SlWindow           *self,
                                              const char * const *urls);
gboolean        sl_window_get_action_enabled (SlWindow           *self,
                                              const char         *action);
/**
 * sl_window_save_session:
 * @path: a session file to write (`.syncline`)
 *
 * Saves where one is: the inputs, the pinned reference, the timeline's
 * span, filters, pins, bookmarks and selection; `syncline FILE` (or
 * sl_window_open_paths()) opens it again. Also added to the recent inputs.
 */
gboolean        sl_window_save_session       (SlWindow           *self,
                                              const char         *path,
                                              GError            **error);
/**
 * sl_window_get_last_session_path:
 *
 * Returns: (nullable): the file saved when closing the window last
 */
const char     *sl_window_get_last_session_path (SlWindow        *self);
gboolean        sl_window_get_banner_visible (SlWindow           *self);
const char     *sl_window_get_banner_text    (SlWindow           *self);
const char     *sl_window_get_page           (SlWindow           *self);
char          **sl_window_dup_toasts         (SlWindow           *self);
gboolean        sl_window_save_report        (SlWindow           *self,
                                              const char         *format,
                                              GFile              *file,
                                              GError            **error);
gboolean        sl_window_save_graph         (SlWindow           *self,
                                              const char         *format,
                                              GFile              *file,
                                              GError            **error);
gboolean        sl_widget_has_picture        (GtkWidget          *widget);
GdkTexture     *sl_window_render_texture     (SlWindow           *self,
                                              GtkWidget          *widget);
gboolean        sl_window_get_animating      (SlWindow           *self);
gboolean        sl_window_save_screenshot    (SlWindow           *self,
                                              const char         *path,
                                              GError            **error);

G_END_DECLS
