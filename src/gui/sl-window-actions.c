/* sl-window-actions.c: the window's actions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sl-live.h"
#include "sl-relay-dialog.h"
#include "sl-window-private.h"

#define MAX_RECENT 10

static char *
recent_label (const char *entry)
{
  g_auto(GStrv) parts = g_strsplit (entry, "\n", -1);
  GString *s = g_string_new (NULL);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *base = g_str_has_prefix (parts[i], "net") ? g_strdup (parts[i])
                                                                 : g_path_get_basename (parts[i]);

      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, base);
    }
  return g_string_free (s, FALSE);
}

static gboolean
recent_exists (const char *entry)
{
  g_auto(GStrv) parts = g_strsplit (entry, "\n", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    if (!g_str_has_prefix (parts[i], "net") && !g_file_test (parts[i], G_FILE_TEST_EXISTS))
      return FALSE;
  return parts[0] != NULL;
}

static void
set_enabled (SlWindow   *self,
             const char *action,
             gboolean    enabled)
{
  g_hash_table_insert (self->disabled_actions, (gpointer) g_intern_string (action), GINT_TO_POINTER (!enabled));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), action, enabled);
}

/* GTK has no getter for a widget action's enabled state; tests ask here. */
gboolean
sl_window_get_action_enabled (SlWindow   *self,
                              const char *action)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);
  return !GPOINTER_TO_INT (g_hash_table_lookup (self->disabled_actions, g_intern_string (action)));
}

void
_sl_window_rebuild_recent (SlWindow *self)
{
  g_auto(GStrv) entries = g_settings_get_strv (self->settings, "recent-inputs");
  guint shown = 0;

  g_menu_remove_all (self->recent_section);
  for (guint i = 0; entries[i] != NULL; i++)
    {
      g_autofree char *label = NULL;
      g_autoptr(GMenuItem) item = NULL;

      if (!recent_exists (entries[i]))
        continue;
      label = recent_label (entries[i]);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (entries[i]));
      g_menu_append_item (self->recent_section, item);
      shown++;
    }
  set_enabled (self, "win.clear-recent", shown > 0);
}

void
_sl_window_add_recent (SlWindow   *self,
                       const char *entry)
{
  g_auto(GStrv) old = g_settings_get_strv (self->settings, "recent-inputs");
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) entries = NULL;
  guint n = 1;

  g_strv_builder_add (b, entry);
  for (guint i = 0; old[i] != NULL && n < MAX_RECENT; i++)
    if (g_strcmp0 (old[i], entry) != 0 && recent_exists (old[i]))
      {
        g_strv_builder_add (b, old[i]);
        n++;
      }
  entries = g_strv_builder_end (b);
  g_settings_set_strv (self->settings, "recent-inputs", (const char * const *) entries);
}

void
_sl_window_update_actions (SlWindow *self)
{
  SlSessionState state = sl_session_get_state (self->session);
  gboolean can_export = sl_session_get_can_export (self->session);
  gboolean has_hosts = g_list_model_get_n_items (sl_session_get_hosts (self->session)) > 0;

  set_enabled (self, "win.cancel-loading",
                                 state == SL_SESSION_STATE_LOADING || state == SL_SESSION_STATE_LIVE);
  set_enabled (self, "win.close-input", state != SL_SESSION_STATE_EMPTY);
  set_enabled (self, "win.reload-inputs",
                                 state != SL_SESSION_STATE_EMPTY && state != SL_SESSION_STATE_LIVE);
  set_enabled (self, "win.save-report", can_export);
  set_enabled (self, "win.copy-report", can_export);
  set_enabled (self, "win.save-graph", has_hosts);
  gtk_widget_set_sensitive (self->export_button, can_export || has_hosts);
}

/* Opening */

static void
open_chooser_response_cb (SlWindow             *self,
                          int                   response,
                          GtkFileChooserNative *chooser)
{
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        g_ptr_array_add (array, g_list_model_get_item (files, i));
      if (array->len > 0)
        sl_window_open_files (self, (GFile **) array->pdata, array->len);
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

/* The window's one open chooser, replacing any other. */
static void
show_chooser (SlWindow             *self,
              const char           *title,
              GtkFileChooserAction  action,
              const char           *accept,
              GCallback             response_cb)
{
  GtkFileChooserNative *chooser;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, accept, _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), action == GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
  g_signal_connect_object (chooser, "response", response_cb, self, G_CONNECT_SWAPPED);
  self->chooser = chooser;
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_folders_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  show_chooser (SL_WINDOW (widget), _("Open Trace Folders"), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Open"),
                G_CALLBACK (open_chooser_response_cb));
}

/* Open with Saved Transforms: the file, then the folders it applies to */
static void
transforms_folders_response_cb (SlWindow             *self,
                                int                   response,
                                GtkFileChooserNative *chooser)
{
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *transforms = g_steal_pointer (&self->open_transforms);

  if (response == GTK_RESPONSE_ACCEPT && transforms != NULL)
    {
      files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);
          char *path = g_file_get_path (file);

          if (path != NULL)
            g_ptr_array_add (paths, path);
        }
      g_ptr_array_add (paths, NULL);
      if (paths->len > 1)
        sl_window_open_with_transforms (self, (const char * const *) paths->pdata, transforms);
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

static void
transforms_file_response_cb (SlWindow             *self,
                             int                   response,
                             GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) != NULL)
    {
      g_free (self->open_transforms);
      self->open_transforms = g_file_get_path (file);
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
  if (self->open_transforms != NULL)
    show_chooser (self, _("Open the Trace Folders the Transforms Apply To"), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                  _("_Open"), G_CALLBACK (transforms_folders_response_cb));
}

static void
open_transforms_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);

  g_clear_pointer (&self->open_transforms, g_free);
  show_chooser (self, _("Open Saved Transforms"), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Next"),
                G_CALLBACK (transforms_file_response_cb));
}

static void
open_demo_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);

  gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
  /* (the demo's pin is the demo's, as any input's) */
  _sl_window_switch_pin (self, "demo");
  sl_session_open_demo (self->session);
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  g_auto(GStrv) paths = g_strsplit (g_variant_get_string (param, NULL), "\n", -1);

  if (paths[0] != NULL)
    sl_window_open_paths (SL_WINDOW (widget), (const char * const *) paths);
}

static void
clear_recent_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);

  g_settings_reset (self->settings, "recent-inputs");
}

static void
remember_relay (SlWindow           *self,
                const char * const *urls)
{
  g_autofree char *relay = NULL;

  if (urls != NULL && urls[0] != NULL && sl_live_parse_url (urls[0], &relay, NULL, NULL, NULL))
    g_settings_set_string (self->settings, "relay-address", relay);
}

static void
relay_attach_cb (SlWindow           *self,
                 const char * const *urls)
{
  remember_relay (self, urls);
  sl_window_open_live (self, urls);
}

/* A running live view: attachments added and removed in place, nothing
 * read is lost. */
static void
relay_change_cb (SlWindow           *self,
                 const char * const *add,
                 const char * const *remove)
{
  g_autoptr(GError) error = NULL;

  remember_relay (self, add);
  if (!sl_session_attach_live (self->session, add, remove, &error))
    _sl_window_toast (self, error->message);
}

static void
connect_relay_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  SlRelayDialog *dialog = sl_relay_dialog_new (GTK_WINDOW (self));
  g_auto(GStrv) attached = sl_session_dup_attached_urls (self->session);
  g_autofree char *remembered = g_settings_get_string (self->settings, "relay-address");
  g_autofree char *in_use = NULL;
  const char * const *inputs = sl_session_get_inputs (self->session);

  /* the relay in use, else the one attached last */
  for (guint i = 0; sl_session_get_is_live (self->session) && inputs != NULL && inputs[i] != NULL && !in_use; i++)
    sl_live_parse_url (inputs[i], &in_use, NULL, NULL, NULL);
  sl_relay_dialog_set_url (dialog, in_use != NULL ? in_use : remembered);
  g_signal_connect_object (dialog, "attach", G_CALLBACK (relay_attach_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "change", G_CALLBACK (relay_change_cb), self, G_CONNECT_SWAPPED);
  if (sl_session_get_is_live (self->session))
    {
      sl_relay_dialog_set_attached (dialog, (const char * const *) attached);
      sl_relay_dialog_list_sessions (dialog);
    }
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
cancel_loading_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  sl_session_cancel (SL_WINDOW (widget)->session);
}

static void
close_input_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);

  gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
  sl_session_close (self->session);
}

static void
reload_inputs_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);

  gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
  sl_session_reload (self->session);
}

static void
dismiss_banner_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  gtk_revealer_set_reveal_child (SL_WINDOW (widget)->banner_revealer, FALSE);
}

/* Exporting */

static void
copy_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  const char *format = g_variant_get_string (param, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (g_strcmp0 (format, "csv") == 0)
    text = sl_session_dup_links_csv (self->session, &error);
  else
    text = sl_session_dup_report_json (self->session, &error);
  if (text == NULL)
    {
      _sl_window_toast (self, error->message);
      return;
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  _sl_window_toast (self, g_strcmp0 (format, "csv") == 0 ? _("Link table copied as CSV")
                                                         : _("Report copied as JSON"));
}

typedef struct
{
  char     *format;
  gboolean  graph;
} SaveData;

static void
save_data_free (gpointer data)
{
  SaveData *d = data;

  g_free (d->format);
  g_free (d);
}

static void
save_chooser_response_cb (GtkFileChooserNative *chooser,
                          int                   response,
                          SlWindow             *self)
{
  SaveData *d = g_object_get_data (G_OBJECT (chooser), "sl-save");
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) != NULL)
    {
      gboolean ok = d->graph ? sl_window_save_graph (self, d->format, file, &error)
                             : sl_window_save_report (self, d->format, file, &error);

      if (ok)
        {
          g_autofree char *name = g_file_get_basename (file);
          g_autofree char *text = g_strdup_printf (_("Saved %s"), name);
          _sl_window_toast (self, text);
        }
      else
        _sl_window_toast (self, error->message);
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

static void
save_with_chooser (SlWindow   *self,
                   const char *title,
                   const char *format,
                   gboolean    graph)
{
  GtkFileChooserNative *chooser;
  SaveData *d = g_new0 (SaveData, 1);
  g_autofree char *name = NULL;
  const char *base = sl_session_get_title (self->session);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  d->format = g_strdup (format);
  d->graph = graph;
  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data_full (G_OBJECT (chooser), "sl-save", d, save_data_free);
  name = g_strdup_printf ("%s%s.%s", base != NULL && base[0] != '\0' ? base : "syncline",
                          graph ? "-graph" : (g_strcmp0 (format, "csv") == 0 ? "-links" : ""), format);
  g_strdelimit (name, "/\n, ", '_');
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect_object (chooser, "response", G_CALLBACK (save_chooser_response_cb), self, 0);
  self->chooser = chooser;
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
save_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  const char *format = g_variant_get_string (param, NULL);

  save_with_chooser (SL_WINDOW (widget),
                     g_strcmp0 (format, "csv") == 0 ? _("Save Link Table") : _("Save Report"),
                     g_strcmp0 (format, "csv") == 0 ? "csv" : "json", FALSE);
}

static void
save_graph_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  const char *format = g_variant_get_string (param, NULL);

  save_with_chooser (SL_WINDOW (widget), _("Save Host Graph"),
                     g_strcmp0 (format, "svg") == 0 ? "svg" : "png", TRUE);
}

/* Selection, for keyboard users and tests */

static void
select_link_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  const char *a, *b;
  SlLinkItem *link;

  g_variant_get (param, "(&s&s)", &a, &b);
  link = sl_session_find_link (self->session, a, b);
  if (link == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("No link between %s and %s"), a, b);
      _sl_window_toast (self, text);
      return;
    }
  sl_session_set_selected_link (self->session, link);
}

static void
select_host_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  const char *name = g_variant_get_string (param, NULL);
  SlHostItem *host = sl_session_find_host (self->session, name);

  if (host == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("No host named %s"), name);
      _sl_window_toast (self, text);
      return;
    }
  sl_session_set_selected_host (self->session, host);
}

static void
find_host_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->view_stack, "sync");
  gtk_widget_grab_focus (GTK_WIDGET (self->host_search));
}

/* The host in the Hosts table (from a toast about it). */
static void
show_host_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  SlHostItem *host = sl_session_find_host (self->session, g_variant_get_string (param, NULL));

  if (host == NULL)
    return;
  adw_view_stack_set_visible_child_name (self->view_stack, "sync");
  sl_quality_panel_set_page (self->quality_panel, "hosts");
  sl_session_set_selected_host (self->session, host);
}

static void
select_next_link_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  GListModel *links = sl_session_get_links (self->session);
  guint n = g_list_model_get_n_items (links);
  SlLinkItem *current = sl_session_get_selected_link (self->session);
  guint next = 0;

  if (n == 0)
    return;
  if (current != NULL)
    next = (sl_link_item_get_link (current) + (g_str_equal (action_name, "win.select-previous-link") ? n - 1 : 1)) % n;
  sl_session_set_selected_link (self->session, sl_session_get_link_item (self->session, next));
}

void
_sl_window_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-folders", NULL, open_folders_action);
  gtk_widget_class_install_action (widget_class, "win.open-demo", NULL, open_demo_action);
  gtk_widget_class_install_action (widget_class, "win.open-transforms", NULL, open_transforms_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.clear-recent", NULL, clear_recent_action);
  gtk_widget_class_install_action (widget_class, "win.connect-relay", NULL, connect_relay_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-loading", NULL, cancel_loading_action);
  gtk_widget_class_install_action (widget_class, "win.close-input", NULL, close_input_action);
  gtk_widget_class_install_action (widget_class, "win.reload-inputs", NULL, reload_inputs_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-banner", NULL, dismiss_banner_action);
  gtk_widget_class_install_action (widget_class, "win.copy-report", "s", copy_report_action);
  gtk_widget_class_install_action (widget_class, "win.save-report", "s", save_report_action);
  gtk_widget_class_install_action (widget_class, "win.save-graph", "s", save_graph_action);
  gtk_widget_class_install_action (widget_class, "win.select-link", "(ss)", select_link_action);
  gtk_widget_class_install_action (widget_class, "win.select-host", "s", select_host_action);
  gtk_widget_class_install_action (widget_class, "win.show-host", "s", show_host_action);
  gtk_widget_class_install_action (widget_class, "win.find-host", NULL, find_host_action);
  gtk_widget_class_install_action (widget_class, "win.select-next-link", NULL, select_next_link_action);
  gtk_widget_class_install_action (widget_class, "win.select-previous-link", NULL, select_next_link_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-folders", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.find-host", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.connect-relay", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.open-demo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel-loading", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close-input", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.reload-inputs", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "win.reload-inputs", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save-report", "s", "json");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.save-report", "s", "csv");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.copy-report", "s", "json");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.save-graph", "s", "png");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.save-graph", "s", "svg");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, GDK_CONTROL_MASK,
                                       "win.select-next-link", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, GDK_CONTROL_MASK,
                                       "win.select-previous-link", NULL);
}
