/* sl-window-session.c: saving where one was (inputs, reference, the
 * timeline's span, filters, bookmarks, selection) and opening it again
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "sl-session-file.h"
#include "sl-window-private.h"

/* A session file made of what the window shows now */
static SlSessionFile *
capture (SlWindow *self)
{
  SlSessionFile *file = sl_session_file_new ();
  const char *pinned = sl_session_get_pinned_reference (self->session);

  file->inputs = g_strdupv ((char **) sl_session_get_inputs (self->session));
  /* folders by their whole path: the file may be opened from elsewhere */
  for (guint i = 0; file->inputs[i] != NULL; i++)
    if (!g_str_has_prefix (file->inputs[i], "net"))
      {
        char *whole = g_canonicalize_filename (file->inputs[i], NULL);

        g_free (file->inputs[i]);
        file->inputs[i] = whole;
      }
  file->reference = pinned != NULL && pinned[0] != '\0' ? g_strdup (pinned) : NULL;
  sl_timeline_view_save_state (self->timeline_view, file);
  return file;
}

gboolean
sl_window_save_session (SlWindow    *self,
                        const char  *path,
                        GError     **error)
{
  g_autoptr(SlSessionFile) file = NULL;

  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (sl_session_get_inputs (self->session) == NULL || sl_session_get_inputs (self->session)[0] == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("There is no input to come back to"));
      return FALSE;
    }
  file = capture (self);
  if (!sl_session_file_save (file, path, error))
    return FALSE;
  self->saved_serial = sl_timeline_view_get_state_serial (self->timeline_view);
  _sl_window_add_recent (self, path);
  return TRUE;
}

/* Once the inputs are read (or the live timeline has its hosts), the view
 * goes where the file says */
static gboolean
restore_cb (gpointer data)
{
  SlWindow *self = data;
  SlSessionState state = sl_session_get_state (self->session);

  self->restore_id = 0;
  if (self->pending_state == NULL || sl_timeline_view_get_timeline (self->timeline_view) == NULL)
    return G_SOURCE_REMOVE;
  if (state != SL_SESSION_STATE_READY && state != SL_SESSION_STATE_LIVE)
    return G_SOURCE_REMOVE;
  sl_timeline_view_restore_state (self->timeline_view, self->pending_state);
  g_clear_pointer (&self->pending_state, sl_session_file_free);
  self->saved_serial = sl_timeline_view_get_state_serial (self->timeline_view);
  return G_SOURCE_REMOVE;
}

static void
maybe_restore_cb (SlWindow *self)
{
  if (self->pending_state != NULL && self->restore_id == 0)
    self->restore_id = g_idle_add (restore_cb, self);
}

/* @path: a session file: its inputs are opened, the rest restored when
 * they are read */
gboolean
_sl_window_open_session_file (SlWindow   *self,
                              const char *path)
{
  g_autoptr(GError) error = NULL;
  SlSessionFile *file = sl_session_file_load (path, &error);

  if (file == NULL)
    {
      _sl_window_show_banner (self, error->message);
      return FALSE;
    }
  g_clear_pointer (&self->pending_state, sl_session_file_free);
  g_clear_handle_id (&self->restore_id, g_source_remove);
  if (file->reference != NULL)
    sl_session_set_pinned_reference (self->session, file->reference);
  _sl_window_add_recent (self, path);
  sl_window_open_paths (self, (const char * const *) file->inputs);
  self->pending_state = file;
  maybe_restore_cb (self);
  return TRUE;
}

/* Saved, on quitting, beside the application's data: offered in the
 * recent inputs */
static char *
autosave_path (SlWindow *self)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "syncline", "sessions", NULL);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d %H.%M.%S");
  const char *title = sl_session_get_title (self->session);
  g_autofree char *name = g_strdup_printf ("%s %s%s", title != NULL && title[0] != '\0' ? title : "syncline", stamp,
                                           SL_SESSION_FILE_SUFFIX);

  g_strdelimit (name, "/\\:\n", '_');
  g_mkdir_with_parents (dir, 0700);
  return g_build_filename (dir, name, NULL);
}

static void
offer_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   SlWindow         *self)
{
  if (g_str_equal (response, "cancel"))
    return;
  if (g_str_equal (response, "save"))
    {
      g_autofree char *path = autosave_path (self);
      g_autoptr(GError) error = NULL;

      if (!sl_window_save_session (self, path, &error))
        {
          _sl_window_toast (self, error->message);
          return;
        }
      self->last_session_path = g_steal_pointer (&path);
    }
  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

/* On closing: when the timeline holds changes a session file would keep
 * (bookmarks, pins, filters, a selection), a dialog offers to save them.
 * Returns whether closing waits for it. */
gboolean
_sl_window_offer_session (SlWindow *self)
{
  AdwMessageDialog *dialog;
  const char * const *inputs = sl_session_get_inputs (self->session);

  if (self->close_confirmed || inputs == NULL || inputs[0] == NULL ||
      sl_timeline_view_get_timeline (self->timeline_view) == NULL ||
      sl_timeline_view_get_state_serial (self->timeline_view) == self->saved_serial)
    return FALSE;
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Save Where You Were?"),
                                                       _("The inputs, the reference, the timeline's span, filters, "
                                                         "pinned rows, bookmarks and selection are kept in a small "
                                                         "file, listed in the recent inputs to come back to.")));
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "discard", _("_Close Without Saving"), "save",
                                    _("_Save"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "discard", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (dialog, "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "save");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (offer_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

const char *
sl_window_get_last_session_path (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  return self->last_session_path;
}

static void
save_response_cb (GtkFileChooserNative *chooser,
                  int                   response,
                  SlWindow             *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) != NULL)
    {
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *named = path != NULL && !g_str_has_suffix (path, SL_SESSION_FILE_SUFFIX)
                               ? g_strconcat (path, SL_SESSION_FILE_SUFFIX, NULL) : g_strdup (path);

      if (named == NULL)
        _sl_window_toast (self, _("Sessions are saved to local files only"));
      else if (!sl_window_save_session (self, named, &error))
        _sl_window_toast (self, error->message);
      else
        {
          g_autofree char *base = g_path_get_basename (named);
          g_autofree char *text = g_strdup_printf (_("Saved %s"), base);

          _sl_window_toast (self, text);
        }
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

static void
save_session_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  GtkFileChooserNative *chooser;
  const char *title = sl_session_get_title (self->session);
  g_autofree char *name = g_strdup_printf ("%s%s", title != NULL && title[0] != '\0' ? title : "syncline",
                                           SL_SESSION_FILE_SUFFIX);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  chooser = gtk_file_chooser_native_new (_("Save Where You Were"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_strdelimit (name, "/\n, ", '_');
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect_object (chooser, "response", G_CALLBACK (save_response_cb), self, 0);
  self->chooser = chooser;
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_sl_window_class_init_session (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.save-session", NULL, save_session_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_ALT_MASK, "win.save-session",
                                       NULL);
}

void
_sl_window_init_session (SlWindow *self)
{
  g_signal_connect_object (self->session, "notify::state", G_CALLBACK (maybe_restore_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::timeline", G_CALLBACK (maybe_restore_cb), self,
                           G_CONNECT_SWAPPED);
}

void
_sl_window_dispose_session (SlWindow *self)
{
  g_clear_handle_id (&self->restore_id, g_source_remove);
  g_clear_pointer (&self->pending_state, sl_session_file_free);
  g_clear_pointer (&self->last_session_path, g_free);
}
