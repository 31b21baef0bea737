/* sl-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sl-format.h"
#include "sl-ground.h"
#include "sl-session-file.h"
#include "sl-solid-frame.h"
#include "sl-window-private.h"

#define MAX_PROBLEM_TOASTS 4

/* libadwaita 1.2 frees a toast's record when its hide animation ends (300 ms)
 * even if its show animation is still running (500 ms when it replaced
 * another toast); the end of that animation then writes into freed memory.
 * Both count frame clock time, and a frame ends the newer animation first
 * (GTK runs a widget's newest tick callback first): after a frame that
 * came late (a loaded machine), the hide and the show end in the same
 * frame, the hide first, however long the toast was there by the wall
 * clock. So the toast on screen is dismissed only once a frame has shown
 * its show animation over (a tick of our own, TOAST_SHOWN_US of the
 * overlay's frame clock after it came), or while the overlay is unmapped
 * (libadwaita's animations end at once there); the queued ones, never
 * shown, at once. */
#define TOAST_SHOWN_US (600 * G_TIME_SPAN_MILLISECOND)

G_DEFINE_FINAL_TYPE (SlWindow, sl_window, ADW_TYPE_APPLICATION_WINDOW)

static void pinned_changed_cb (SlWindow *self);
static void front_toast_started (SlWindow *self);

/* Once everything is read, hosts with packet events that no accurate path
 * joins to another host are named in the banner (`sync` exits with status
 * 3 then); said once for each different set, so that a dismissed banner
 * stays dismissed. */
static void
update_unsynchronized (SlWindow *self)
{
  g_autoptr(GString) names = g_string_new (NULL);
  g_autofree char *text = NULL;
  guint n = 0;

  if (sl_session_get_state (self->session) != SL_SESSION_STATE_READY)
    return;
  for (guint h = 0; h < sl_session_get_n_hosts (self->session); h++)
    {
      SlHostItem *item = sl_session_get_host_item (self->session, h);
      const SlSnapHost *info = sl_host_item_get_info (item);

      if (sl_host_item_get_unreadable (item) || info->synchronized || info->counts.packet_events == 0)
        continue;
      if (n < 5)
        g_string_append_printf (names, "%s%s", n > 0 ? ", " : "", sl_host_item_get_name (item));
      n++;
    }
  if (n == 0)
    {
      g_clear_pointer (&self->unsynchronized_text, g_free);
      return;
    }
  if (n > 5)
    g_string_append (names, ", …");
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u host could not be synchronized (%s): the Hosts table says why",
                                       "%u hosts could not be synchronized (%s): the Hosts table says why", n),
                          n, names->str);
  if (g_strcmp0 (text, self->unsynchronized_text) == 0)
    return;
  g_free (self->unsynchronized_text);
  self->unsynchronized_text = g_strdup (text);
  _sl_window_show_banner (self, text);
}

static void
update_state (SlWindow *self)
{
  SlSessionState state = sl_session_get_state (self->session);
  guint n_hosts = g_list_model_get_n_items (sl_session_get_hosts (self->session));
  gboolean busy = state == SL_SESSION_STATE_LOADING || state == SL_SESSION_STATE_LIVE;
  const char *page = "content";

  if (state == SL_SESSION_STATE_EMPTY ||
      (n_hosts == 0 && state != SL_SESSION_STATE_LOADING && state != SL_SESSION_STATE_LIVE))
    page = "empty";
  gtk_stack_set_visible_child_name (self->main_stack, page);
  gtk_revealer_set_reveal_child (self->progress_revealer, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), state == SL_SESSION_STATE_LOADING);
  gtk_widget_set_hexpand (GTK_WIDGET (self->progress_label), state == SL_SESSION_STATE_LIVE);
  gtk_widget_set_visible (self->stop_button, busy);
  gtk_widget_set_tooltip_text (self->stop_button,
                               state == SL_SESSION_STATE_LIVE ? _("Disconnect (Esc)") : _("Stop Reading (Esc)"));
  gtk_button_set_label (self->cancel_button, state == SL_SESSION_STATE_LIVE ? _("_Disconnect") : _("_Cancel"));

  if (state == SL_SESSION_STATE_FAILED)
    {
      g_autofree char *text = g_strdup_printf (_("Nothing could be read: %s"),
                                               sl_session_get_error (self->session));
      _sl_window_show_banner (self, text);
    }
  update_unsynchronized (self);
  _sl_window_update_actions (self);
}

static gboolean
front_toast_over (SlWindow *self)
{
  return self->toast_front_shown || !gtk_widget_get_mapped (GTK_WIDGET (self->toast_overlay));
}

static gboolean
stale_toast_cb (gpointer data)
{
  SlWindow *self = data;
  g_autoptr(AdwToast) toast = g_steal_pointer (&self->stale_toast);

  self->stale_toast_id = 0;
  if (self->toasts->len > 0 && g_ptr_array_index (self->toasts, 0) == toast)
    {
      g_ptr_array_remove_index (self->toasts, 0);
      adw_toast_dismiss (toast);
      if (self->toasts->len > 0)
        front_toast_started (self);
    }
  return G_SOURCE_REMOVE;
}

/* A dismissal waiting for the front toast's show is done after the frame
 * that ends it (its own tick runs after ours in that frame). */
static void
dismiss_stale_later (SlWindow *self)
{
  if (self->stale_toast != NULL && self->stale_toast_id == 0)
    self->stale_toast_id = g_idle_add (stale_toast_cb, self);
}

static gboolean
toast_tick_cb (GtkWidget     *overlay,
               GdkFrameClock *clock,
               gpointer       data)
{
  SlWindow *self = data;

  if (gdk_frame_clock_get_frame_time (clock) - self->toast_front_since < TOAST_SHOWN_US)
    return G_SOURCE_CONTINUE;
  self->toast_tick_id = 0;
  self->toast_front_shown = TRUE;
  dismiss_stale_later (self);
  return G_SOURCE_REMOVE;
}

static void
toast_overlay_unmap_cb (SlWindow *self)
{
  if (self->toasts != NULL)
    dismiss_stale_later (self);
}

/* The front toast changed: its show animation starts now, on the
 * overlay's frame clock. */
static void
front_toast_started (SlWindow *self)
{
  GtkWidget *overlay = GTK_WIDGET (self->toast_overlay);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (overlay);

  self->toast_front_since = clock != NULL ? gdk_frame_clock_get_frame_time (clock) : g_get_monotonic_time ();
  self->toast_front_shown = FALSE;
  if (self->toast_tick_id == 0)
    self->toast_tick_id = gtk_widget_add_tick_callback (overlay, toast_tick_cb, self, NULL);
}

/* The first toast is the one on screen (all have the normal priority). */
static void
dismiss_toasts (SlWindow *self)
{
  while (self->toasts->len > 1)
    {
      g_autoptr(AdwToast) toast = g_ptr_array_steal_index (self->toasts, self->toasts->len - 1);

      adw_toast_dismiss (toast);
    }
  if (self->toasts->len == 0)
    return;
  if (front_toast_over (self))
    {
      g_autoptr(AdwToast) toast = g_ptr_array_steal_index (self->toasts, 0);

      adw_toast_dismiss (toast);
      return;
    }
  g_set_object (&self->stale_toast, g_ptr_array_index (self->toasts, 0));
}

static void
session_state_cb (SlWindow *self)
{
  SlSessionState state = sl_session_get_state (self->session);

  if (state == SL_SESSION_STATE_LOADING || state == SL_SESSION_STATE_LIVE)
    {
      /* what was said about the previous input no longer applies */
      dismiss_toasts (self);
      self->n_problem_toasts = 0;
      self->n_problems = 0;
    }
  if (state == SL_SESSION_STATE_READY && self->n_problems > self->n_problem_toasts)
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "%u problem in all: see the Hosts table",
                                                            "%u problems in all: see the Hosts table",
                                                            self->n_problems),
                                               self->n_problems);
      _sl_window_toast (self, text);
    }
  if (state == SL_SESSION_STATE_READY && self->last_state == SL_SESSION_STATE_LIVE)
    _sl_window_toast (self, _("Disconnected; what was received is shown"));
  else if (state == SL_SESSION_STATE_READY && self->last_state == SL_SESSION_STATE_LOADING &&
           sl_session_get_progress_fraction (self->session) < 1)
    _sl_window_toast (self, _("Reading stopped; what was read is shown"));
  self->last_state = state;
  update_state (self);
}

/* While reading, the progress line changes at every snapshot (about ten
 * a second). A GtkLabel given a new text, or a GtkProgressBar a new
 * fraction, asks for the window to be laid out again, and GTK's X11
 * backend then asks the server for the monitor's work area (a round
 * trip, 4 % of the main thread opening 1 000 hosts). The line is a
 * GtkInscription, whose size does not follow its text (a new text is
 * only drawn); the bar moves when its fill would change by a pixel or
 * more, at most every PROGRESS_BAR_MS (a timeout brings it to the last
 * fraction), and at once to 0 and to 1. */
#define PROGRESS_BAR_MS 250

static void
move_progress_bar (SlWindow *self)
{
  double fraction = sl_session_get_progress_fraction (self->session);
  double shown = gtk_progress_bar_get_fraction (self->progress_bar);
  int width = gtk_widget_get_width (GTK_WIDGET (self->progress_bar));

  if (fraction == shown ||
      (fraction > 0 && fraction < 1 && width > 0 && fabs (fraction - shown) * width < 1))
    return;
  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  self->progress_moved = g_get_monotonic_time ();
}

static gboolean
progress_bar_cb (gpointer data)
{
  SlWindow *self = data;

  self->progress_bar_id = 0;
  move_progress_bar (self);
  return G_SOURCE_REMOVE;
}

static void
session_progress_cb (SlWindow *self)
{
  const char *text = sl_session_get_progress_text (self->session);
  double fraction = sl_session_get_progress_fraction (self->session);
  gint64 since_ms = (g_get_monotonic_time () - self->progress_moved) / 1000;

  gtk_inscription_set_text (self->progress_label, text != NULL ? text : "");
  if (fraction <= 0 || fraction >= 1 || since_ms >= PROGRESS_BAR_MS)
    {
      g_clear_handle_id (&self->progress_bar_id, g_source_remove);
      move_progress_bar (self);
    }
  else if (self->progress_bar_id == 0)
    self->progress_bar_id = g_timeout_add ((guint) (PROGRESS_BAR_MS - since_ms), progress_bar_cb, self);
}

static void
session_title_cb (SlWindow *self)
{
  const char *title = sl_session_get_title (self->session);

  adw_window_title_set_subtitle (self->window_title, title != NULL ? title : "");
}

static void
session_problem_cb (SlWindow   *self,
                    const char *host,
                    const char *file,
                    const char *message,
                    SlSession  *session)
{
  g_autofree char *text = NULL;
  AdwToast *toast;

  self->n_problems++;
  if (self->n_problem_toasts >= MAX_PROBLEM_TOASTS)
    return;
  self->n_problem_toasts++;
  text = sl_format_problem_short (host, file, message);
  toast = _sl_window_toast (self, text);
  /* the whole message is in the host's row */
  if (host != NULL)
    {
      /* the target first: a button given the name alone warns that its
       * target does not fit */
      adw_toast_set_action_target_value (toast, g_variant_new_string (host));
      adw_toast_set_action_name (toast, "win.show-host");
      adw_toast_set_button_label (toast, _("Show"));
    }
}

/* One banner for a stall of the whole relay, gone when it answers again
 * (per host, a stall is the host's state in the graph and the tables). */
static void
session_relay_stalled_cb (SlWindow *self)
{
  if (sl_session_get_relay_stalled (self->session))
    {
      _sl_window_show_banner (self, _("The relay is not answering (stalled relay or network cut); "
                                      "what was received is shown, and streaming goes on when it answers"));
      self->stall_banner = TRUE;
    }
  else if (self->stall_banner)
    {
      self->stall_banner = FALSE;
      gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
    }
}

static gboolean
drop_cb (SlWindow      *self,
         const GValue  *value,
         double         x,
         double         y,
         GtkDropTarget *target)
{
  GSList *list;
  g_autoptr(GPtrArray) files = g_ptr_array_new ();

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  list = g_value_get_boxed (value);
  for (GSList *l = list; l != NULL; l = l->next)
    g_ptr_array_add (files, l->data);
  if (files->len == 0)
    return FALSE;
  sl_window_open_files (self, (GFile **) files->pdata, files->len);
  return TRUE;
}

/* Find a host: as the name is typed, its first match; Enter, the next. */
static void
find_host (SlWindow *self,
           gboolean  next)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->host_search));
  gboolean found = text[0] == '\0' || sl_graph_view_find_host (self->graph_view, text, next);

  if (found)
    gtk_widget_remove_css_class (GTK_WIDGET (self->host_search), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->host_search), "error");
}

static void
host_search_changed_cb (SlWindow *self)
{
  find_host (self, FALSE);
}

static void
host_search_next_cb (SlWindow *self)
{
  find_host (self, TRUE);
}

static void
host_search_stop_cb (SlWindow *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->host_search), "");
  gtk_widget_grab_focus (GTK_WIDGET (self->graph_view));
}

static gboolean
sl_window_close_request (GtkWindow *window)
{
  SlWindow *self = SL_WINDOW (window);
  int width, height;

  /* (a dialog offers to keep where one was; closing waits for it) */
  if (_sl_window_offer_session (self))
    return TRUE;
  gtk_window_get_default_size (window, &width, &height);
  g_settings_delay (self->settings);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  g_settings_apply (self->settings);

  sl_session_close (self->session);

  return GTK_WINDOW_CLASS (sl_window_parent_class)->close_request (window);
}

static void
sl_window_dispose (GObject *object)
{
  SlWindow *self = (SlWindow *) object;

  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      sl_session_close (self->session);
    }
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  if (self->graph_view != NULL)
    sl_graph_view_set_session (self->graph_view, NULL);
  if (self->quality_panel != NULL)
    sl_quality_panel_set_session (self->quality_panel, NULL);
  if (self->timeline_view != NULL)
    sl_timeline_view_set_session (self->timeline_view, NULL);
  _sl_window_dispose_session (self);
  if (self->replace_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->replace_dialog));
  self->replace_dialog = NULL;
  g_clear_pointer (&self->replace_inputs, g_strfreev);
  g_clear_pointer (&self->pin_input, g_free);
  if (self->toast_tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->toast_overlay), self->toast_tick_id);
  self->toast_tick_id = 0;
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_WINDOW);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->disabled_actions, g_hash_table_unref);
  g_clear_pointer (&self->toasts, g_ptr_array_unref);
  g_clear_handle_id (&self->stale_toast_id, g_source_remove);
  g_clear_handle_id (&self->progress_bar_id, g_source_remove);
  g_clear_object (&self->stale_toast);
  g_clear_pointer (&self->unsynchronized_text, g_free);

  G_OBJECT_CLASS (sl_window_parent_class)->dispose (object);
}

/* The window's background only where nothing opaque covers it
 * (sl-ground.c). */
static void
sl_window_snapshot (GtkWidget   *widget,
                    GtkSnapshot *snapshot)
{
  SlWindow *self = SL_WINDOW (widget);
  GtkSnapshot *inner;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GskRenderNode) culled = NULL;

  if (self->whole_ground)
    {
      GTK_WIDGET_CLASS (sl_window_parent_class)->snapshot (widget, snapshot);
      return;
    }
  inner = gtk_snapshot_new ();
  GTK_WIDGET_CLASS (sl_window_parent_class)->snapshot (widget, inner);
  node = gtk_snapshot_free_to_node (inner);
  if (node == NULL)
    return;
  /* the ground: as large as half the window at least */
  culled = sl_ground_cull (node, 0.5 * gtk_widget_get_width (widget) * gtk_widget_get_height (widget));
  gtk_snapshot_append_node (snapshot, culled);
}

static void
sl_window_class_init (SlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = sl_window_dispose;
  window_class->close_request = sl_window_close_request;
  widget_class->snapshot = sl_window_snapshot;

  g_type_ensure (SL_TYPE_GRAPH_VIEW);
  g_type_ensure (SL_TYPE_QUALITY_PANEL);
  g_type_ensure (SL_TYPE_TIMELINE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/syncline/Syncline/ui/sl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SlWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, open_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, stop_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, banner_revealer);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, banner_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, progress_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, graph_view);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, host_search);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, quality_panel);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, drop_target);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, recent_section);
  gtk_widget_class_bind_template_callback (widget_class, drop_cb);
  gtk_widget_class_bind_template_callback (widget_class, host_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, host_search_next_cb);
  gtk_widget_class_bind_template_callback (widget_class, host_search_stop_cb);

  _sl_window_class_init_actions (widget_class);
  _sl_window_class_init_session (widget_class);
}

static void
sl_window_init (SlWindow *self)
{
  GType drop_types[] = { GDK_TYPE_FILE_LIST };

  gtk_widget_init_template (GTK_WIDGET (self));
  sl_solid_frame_install (gtk_widget_get_display (GTK_WIDGET (self)));

  self->disabled_actions = g_hash_table_new (NULL, NULL);
  self->toasts = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect_object (self->toast_overlay, "unmap", G_CALLBACK (toast_overlay_unmap_cb), self, G_CONNECT_SWAPPED);
  self->session = sl_session_new ();
  self->settings = g_settings_new (APPLICATION_ID);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  g_settings_bind (self->settings, "algorithm", self->session, "algorithm", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "tree", self->session, "tree", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "pinned-reference", self->session, "pinned-reference",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "live-update-ms", self->session, "update-interval",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "tree-margin", self->session, "tree-margin", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "live-retention", self->session, "retention", G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->settings, "changed::pinned-reference", G_CALLBACK (pinned_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::recent-inputs",
                           G_CALLBACK (_sl_window_rebuild_recent), self, G_CONNECT_SWAPPED);

  sl_graph_view_set_session (self->graph_view, self->session);
  sl_quality_panel_set_session (self->quality_panel, self->session);
  sl_timeline_view_set_session (self->timeline_view, self->session);

  g_signal_connect_object (self->session, "notify::state", G_CALLBACK (session_state_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::progress-fraction", G_CALLBACK (session_progress_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::progress-text", G_CALLBACK (session_progress_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::title", G_CALLBACK (session_title_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::can-export", G_CALLBACK (_sl_window_update_actions),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::n-hosts", G_CALLBACK (update_state),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "problem", G_CALLBACK (session_problem_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "updated", G_CALLBACK (update_unsynchronized),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::relay-stalled", G_CALLBACK (session_relay_stalled_cb),
                           self, G_CONNECT_SWAPPED);

  _sl_window_init_session (self);
  gtk_drop_target_set_gtypes (self->drop_target, drop_types, G_N_ELEMENTS (drop_types));
  /* typing on the graph finds a host */
  gtk_search_entry_set_key_capture_widget (self->host_search, GTK_WIDGET (self->graph_view));

  _sl_window_rebuild_recent (self);
  update_state (self);
}

SlWindow *
sl_window_new (GtkApplication *application)
{
  return g_object_new (SL_TYPE_WINDOW, "application", application, NULL);
}

SlSession *
sl_window_get_session (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->session;
}

GSettings *
sl_window_get_settings (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->settings;
}

SlGraphView *
sl_window_get_graph_view (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->graph_view;
}

SlQualityPanel *
sl_window_get_quality_panel (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->quality_panel;
}

SlTimelineView *
sl_window_get_timeline_view (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->timeline_view;
}

static void
hide_banner (SlWindow *self)
{
  gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
}

void
_sl_window_show_banner (SlWindow   *self,
                        const char *text)
{
  /* another banner replaces the stall's: its end does not hide it */
  self->stall_banner = FALSE;
  gtk_label_set_text (self->banner_label, text);
  gtk_revealer_set_reveal_child (self->banner_revealer, TRUE);
}

static void
toast_dismissed_cb (SlWindow *self,
                    AdwToast *toast)
{
  guint i;

  if (self->toasts == NULL || !g_ptr_array_find (self->toasts, toast, &i))
    return;
  g_ptr_array_remove_index (self->toasts, i);
  /* the next one comes on screen */
  if (i == 0 && self->toasts->len > 0)
    front_toast_started (self);
}

AdwToast *
_sl_window_toast (SlWindow   *self,
                  const char *text)
{
  AdwToast *toast = adw_toast_new (text);

  adw_toast_set_timeout (toast, 6);
  g_ptr_array_add (self->toasts, g_object_ref (toast));
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (toast_dismissed_cb), self, G_CONNECT_SWAPPED);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  if (self->toasts->len == 1)
    front_toast_started (self);
  return toast;
}

/**
 * sl_window_dup_toasts:
 *
 * Returns: (transfer full): the titles of the toasts on screen or waiting
 *   for their turn, the one on screen first
 */
char **
sl_window_dup_toasts (SlWindow *self)
{
  GStrvBuilder *b;
  char **ret;

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);

  b = g_strv_builder_new ();
  for (guint i = 0; i < self->toasts->len; i++)
    g_strv_builder_add (b, adw_toast_get_title (g_ptr_array_index (self->toasts, i)));
  ret = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return ret;
}

/* Paths: folders are trace folders, files LTTV unit-case text; URLs
 * net://… attach to a live session. */
#define MAX_PINNED_INPUTS 64

/* A pinned reference belongs to its input: opening another sets the pin
 * to that input's own, or none, never carrying a host name over. */
void
_sl_window_switch_pin (SlWindow   *self,
                       const char *input)
{
  g_autoptr(GVariant) map = g_settings_get_value (self->settings, "pinned-references");
  const char *pin = "";

  g_variant_lookup (map, input, "&s", &pin);
  g_free (self->pin_input);
  self->pin_input = g_strdup (input);
  self->switching_pin = TRUE;
  g_settings_set_string (self->settings, "pinned-reference", pin);
  self->switching_pin = FALSE;
}

/* The user pinned or unpinned: remembered for the input shown, the
 * input last in the map (the oldest go first beyond MAX_PINNED_INPUTS). */
static void
pinned_changed_cb (SlWindow *self)
{
  g_autoptr(GVariant) map = NULL;
  g_autofree char *pin = NULL;
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  GVariantBuilder b;
  GVariantIter iter;
  const char *k, *v;
  guint skip;

  if (self->switching_pin || self->pin_input == NULL)
    return;
  map = g_settings_get_value (self->settings, "pinned-references");
  pin = g_settings_get_string (self->settings, "pinned-reference");
  g_variant_iter_init (&iter, map);
  while (g_variant_iter_next (&iter, "{&s&s}", &k, &v))
    if (!g_str_equal (k, self->pin_input))
      {
        g_ptr_array_add (keys, (gpointer) k);
        g_ptr_array_add (values, (gpointer) v);
      }
  if (pin[0] != '\0')
    {
      g_ptr_array_add (keys, self->pin_input);
      g_ptr_array_add (values, pin);
    }
  skip = keys->len > MAX_PINNED_INPUTS ? keys->len - MAX_PINNED_INPUTS : 0;
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
  for (guint i = skip; i < keys->len; i++)
    g_variant_builder_add (&b, "{ss}", g_ptr_array_index (keys, i), g_ptr_array_index (values, i));
  g_settings_set_value (self->settings, "pinned-references", g_variant_builder_end (&b));
}

static void open_paths_now (SlWindow *self, const char * const *paths);
static void open_live_now (SlWindow *self, const char * const *urls);

static void
replace_response_cb (SlWindow         *self,
                     const char       *response,
                     AdwMessageDialog *dialog)
{
  g_auto(GStrv) inputs = g_steal_pointer (&self->replace_inputs);

  self->replace_dialog = NULL;
  if (!g_str_equal (response, "replace") || inputs == NULL)
    return;
  if (self->replace_live)
    open_live_now (self, (const char * const *) inputs);
  else
    open_paths_now (self, (const char * const *) inputs);
}

/* A running live view holds what its attachments received and nothing
 * else does: replacing it asks first (adding attachments does not
 * replace it: Connect to a Relay changes them in place). */
static gboolean
ask_replace (SlWindow           *self,
             const char * const *inputs,
             gboolean            live)
{
  AdwMessageDialog *dialog;

  if (sl_session_get_state (self->session) != SL_SESSION_STATE_LIVE)
    return FALSE;
  if (self->replace_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->replace_dialog));
  g_strfreev (self->replace_inputs);
  g_free (self->open_transforms);
  self->replace_inputs = g_strdupv ((char **) inputs);
  self->replace_live = live;
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Replace the Live View?"),
                                                       _("The live sessions are detached and what they sent "
                                                         "is closed. To attach more sessions to this view "
                                                         "instead, use Connect to a Relay.")));
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "replace", _("_Replace"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "replace", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (replace_response_cb), self, G_CONNECT_SWAPPED);
  self->replace_dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

/**
 * sl_window_get_replace_dialog:
 *
 * Returns: (transfer none) (nullable): the question asked before a
 *   running live view is replaced, while it is asked
 */
AdwMessageDialog *
sl_window_get_replace_dialog (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->replace_dialog;
}

void
sl_window_open_paths (SlWindow           *self,
                      const char * const *paths)
{
  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (paths != NULL && paths[0] != NULL);

  if (!ask_replace (self, paths, FALSE))
    open_paths_now (self, paths);
}

static void
open_paths_now (SlWindow           *self,
                const char * const *paths)
{
  g_autoptr(GPtrArray) missing = g_ptr_array_new ();
  g_autofree char *entry = NULL;

  /* a session file: its inputs, then where one was */
  if (paths[1] == NULL && sl_session_file_is_one (paths[0]))
    {
      _sl_window_open_session_file (self, paths[0]);
      return;
    }
  /* relay URLs, with trace folders read first for their history */
  for (guint i = 0; paths[i] != NULL; i++)
    if (g_str_has_prefix (paths[i], "net://") || g_str_has_prefix (paths[i], "net4://") ||
        g_str_has_prefix (paths[i], "net6://"))
      {
        open_live_now (self, paths);
        return;
      }
  for (guint i = 0; paths[i] != NULL; i++)
    if (!g_file_test (paths[i], G_FILE_TEST_EXISTS))
      g_ptr_array_add (missing, (gpointer) paths[i]);
  hide_banner (self);
  if (missing->len > 0)
    {
      g_autofree char *text = g_strdup_printf (_("%s: no such file or folder"),
                                               (const char *) g_ptr_array_index (missing, 0));

      sl_session_close (self->session);
      _sl_window_show_banner (self, text);
      return;
    }
  entry = g_strjoinv ("\n", (char **) paths);
  _sl_window_add_recent (self, entry);
  _sl_window_switch_pin (self, entry);
  sl_session_open (self->session, paths);
}

/**
 * sl_window_open_with_transforms:
 * @folders: trace folders
 * @transforms: a file of `syncline-cli sync --save-transforms`
 *
 * Opens the full traces of hosts synchronized elsewhere (on their
 * extracts): the hosts the file names keep its relations and bounds,
 * shown as coming from it (sl_session_open_with_transforms()).
 */
void
sl_window_open_with_transforms (SlWindow           *self,
                                const char * const *folders,
                                const char         *transforms)
{
  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (folders != NULL && folders[0] != NULL);
  g_return_if_fail (transforms != NULL);

  hide_banner (self);
  for (guint i = 0; folders[i] != NULL; i++)
    if (!g_file_test (folders[i], G_FILE_TEST_IS_DIR))
      {
        g_autofree char *text = g_strdup_printf (_("%s: no such folder"), folders[i]);

        sl_session_close (self->session);
        _sl_window_show_banner (self, text);
        return;
      }
  sl_session_open_with_transforms (self->session, folders, transforms);
}

void
sl_window_open_files (SlWindow  *self,
                      GFile    **files,
                      guint      n_files)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  g_return_if_fail (SL_IS_WINDOW (self));

  for (guint i = 0; i < n_files; i++)
    {
      char *path = g_file_get_path (files[i]);

      if (path == NULL)
        {
          g_autofree char *uri = g_file_get_uri (files[i]);
          g_autofree char *text = g_strdup_printf (_("%s: only local files and folders can be opened"), uri);

          _sl_window_show_banner (self, text);
          return;
        }
      g_ptr_array_add (paths, path);
    }
  if (paths->len == 0)
    return;
  g_ptr_array_add (paths, NULL);
  sl_window_open_paths (self, (const char * const *) paths->pdata);
}

void
sl_window_open_live (SlWindow           *self,
                     const char * const *urls)
{
  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (urls != NULL && urls[0] != NULL);

  if (!ask_replace (self, urls, TRUE))
    open_live_now (self, urls);
}

static void
open_live_now (SlWindow           *self,
               const char * const *urls)
{
  g_autofree char *entry = NULL;

  hide_banner (self);
  entry = g_strjoinv ("\n", (char **) urls);
  _sl_window_add_recent (self, entry);
  _sl_window_switch_pin (self, entry);
  sl_session_open_live (self->session, urls);
}

gboolean
sl_window_get_banner_visible (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);
  return gtk_revealer_get_reveal_child (self->banner_revealer);
}

const char *
sl_window_get_banner_text (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->banner_label);
}

const char *
sl_window_get_page (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->main_stack);
}

gboolean
sl_window_save_report (SlWindow    *self,
                       const char  *format,
                       GFile       *file,
                       GError     **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (g_strcmp0 (format, "csv") == 0)
    text = sl_session_dup_links_csv (self->session, error);
  else
    text = sl_session_dup_report_json (self->session, error);
  if (text == NULL)
    return FALSE;
  return g_file_replace_contents (file, text, strlen (text), NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

gboolean
sl_window_save_graph (SlWindow    *self,
                      const char  *format,
                      GFile       *file,
                      GError     **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Only local files can be written"));
      return FALSE;
    }
  return sl_graph_view_export (self->graph_view, path, format, error);
}

/**
 * sl_widget_has_picture:
 *
 * Whether @widget holds the picture it last drew. GTK drops it when a draw
 * of the widget or of anything inside it is queued, until the widget is
 * drawn again, and a frame of the window may be painted without drawing
 * it (while the X server has not confirmed a resize, GDK holds the
 * window's drawing): only then is there something to render.
 */
gboolean
sl_widget_has_picture (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  node = gtk_snapshot_free_to_node (snapshot);
  return node != NULL;
}

/* What @widget showed when it was last drawn, rendered by the window's
 * renderer; NULL while it holds no picture (sl_widget_has_picture()). */
GdkTexture *
sl_window_render_texture (SlWindow  *self,
                          GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer;
  graphene_rect_t bounds;
  int width, height;

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  if (width <= 0 || height <= 0 || renderer == NULL || !gtk_widget_compute_bounds (widget, widget, &bounds))
    return NULL;

  /* The paintable draws the widget's bounds into the size it is given:
   * a window's include the 5 px frame around its allocation, and drawn
   * into the allocation's size the whole window was shrunk by a pixel in
   * a hundred (GL then dropped a column of some glyphs). Drawn at its own
   * size, the texture is the allocation, pixel for pixel. */
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, bounds.size.width, bounds.size.height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return NULL;
  return gsk_renderer_render_texture (renderer, node,
                                      &GRAPHENE_RECT_INIT (-bounds.origin.x, -bounds.origin.y, width, height));
}

/* Whether something is still moving: the graph's hosts, or the progress
 * bar sliding in or out (under a slow renderer it is still half shown
 * well after the reading ended). */
gboolean
sl_window_get_animating (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);

  return sl_graph_view_get_animating (self->graph_view) ||
         gtk_revealer_get_child_revealed (self->progress_revealer) !=
         gtk_revealer_get_reveal_child (self->progress_revealer);
}

gboolean
sl_window_save_screenshot (SlWindow    *self,
                           const char  *path,
                           GError     **error)
{
  g_autoptr(GdkTexture) texture = NULL;

  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);

  texture = sl_window_render_texture (self, GTK_WIDGET (self));
  if (texture == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The window is not shown"));
      return FALSE;
    }
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not write %s"), path);
      return FALSE;
    }
  return TRUE;
}

void
_sl_window_set_whole_ground (SlWindow *self,
                             gboolean  whole)
{
  g_return_if_fail (SL_IS_WINDOW (self));

  self->whole_ground = whole;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
