/* sl-window-private.h: state shared by sl-window.c and sl-window-actions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-session-file.h"
#include "sl-window.h"

G_BEGIN_DECLS

struct _SlWindow
{
  AdwApplicationWindow  parent_instance;

  SlSession            *session;
  GSettings            *settings;
  GtkFileChooserNative *chooser;
  guint                 n_problem_toasts;
  gboolean              stall_banner;
  guint                 n_problems;
  GHashTable           *disabled_actions;
  GPtrArray            *toasts;
  gint64                toast_front_since;
  gboolean              toast_front_shown;
  guint                 toast_tick_id;
  AdwToast             *stale_toast;
  guint                 stale_toast_id;
  SlSessionState        last_state;

  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  AdwSplitButton       *open_button;
  GtkWidget            *stop_button;
  GtkWidget            *export_button;
  GtkRevealer          *banner_revealer;
  GtkLabel             *banner_label;
  GtkRevealer          *progress_revealer;
  GtkProgressBar       *progress_bar;
  GtkInscription       *progress_label;
  guint                 progress_bar_id;   /* the bar's next move */
  gint64                progress_moved;    /* its last, monotonic µs */
  GtkButton            *cancel_button;
  GtkStack             *main_stack;
  GtkPaned             *paned;
  SlGraphView          *graph_view;
  GtkSearchEntry       *host_search;
  SlQualityPanel       *quality_panel;
  AdwViewStack         *view_stack;
  SlTimelineView       *timeline_view;
  GtkDropTarget        *drop_target;
  GMenu                *recent_section;

  /* sl-window-session.c: a session file being opened, what was saved */
  SlSessionFile        *pending_state;
  guint                 restore_id;
  guint64               saved_serial;
  gboolean              close_confirmed;
  char                 *last_session_path;

  /* the hosts that could not be synchronized, as last said in the banner */
  char                 *unsynchronized_text;

  /* replacing a running live view asks first: the question, and what
   * opens on "replace" (relay URLs or paths) */
  AdwMessageDialog     *replace_dialog;

  /* the input whose pinned reference pinned-reference is (its recent
   * entry), and whether the window is setting it */
  char                 *pin_input;
  gboolean              switching_pin;
  GStrv                 replace_inputs;
  gboolean              replace_live;
  /* Open with Saved Transforms: the file chosen, while the folders are */
  char                 *open_transforms;

  /* tests: the window's background drawn whole, as GTK draws it */
  gboolean              whole_ground;
};

void   _sl_window_set_whole_ground   (SlWindow       *self,
                                      gboolean        whole);
void   _sl_window_class_init_actions (GtkWidgetClass *widget_class);
void   _sl_window_update_actions     (SlWindow       *self);
void   _sl_window_add_recent         (SlWindow       *self,
                                      const char     *entry);
void   _sl_window_rebuild_recent     (SlWindow       *self);
void   _sl_window_show_banner        (SlWindow       *self,
                                      const char     *text);
void      _sl_window_switch_pin     (SlWindow       *self,
                                     const char     *input);
AdwToast *_sl_window_toast           (SlWindow       *self,
                                      const char     *text);

/* sl-window-session.c */
void     _sl_window_class_init_session (GtkWidgetClass *widget_class);
void     _sl_window_init_session       (SlWindow       *self);
void     _sl_window_dispose_session    (SlWindow       *self);
gboolean _sl_window_open_session_file  (SlWindow       *self,
                                        const char     *path);
gboolean _sl_window_offer_session      (SlWindow       *self);

G_END_DECLS
