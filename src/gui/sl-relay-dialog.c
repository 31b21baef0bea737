/* sl-relay-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sl-live.h"
#include "sl-relay-dialog.h"

struct _SlRelayDialog
{
  AdwWindow      parent_instance;

  GCancellable  *cancellable;
  GPtrArray     *sessions;
  GPtrArray     *checks;
  GPtrArray     *subtitles;
  /* the running live view's attachments: rows marked, changes applied in
   * place ("change") rather than a new view ("attach") */
  GStrv          attached;

  AdwEntryRow   *url_row;
  GtkWidget     *attach_button;
  GtkSpinner    *spinner;
  GtkLabel      *status_label;
  GtkListBox    *sessions_list;
};

enum {
  ATTACH,
  CHANGE,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (SlRelayDialog, sl_relay_dialog, ADW_TYPE_WINDOW)

static guint signals[N_SIGNALS];

static void
update_attach (SlRelayDialog *self)
{
  gboolean any = FALSE;

  for (guint i = 0; i < self->checks->len; i++)
    any |= gtk_check_button_get_active (g_ptr_array_index (self->checks, i));
  /* in a live view, unchecking detaches */
  any |= self->attached != NULL && self->checks->len > 0;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "relay.attach-sessions", any);
}

static void
set_status (SlRelayDialog *self,
            const char    *text)
{
  gtk_label_set_text (self->status_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && text[0] != '\0');
}

static void
clear_sessions (SlRelayDialog *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->sessions_list))) != NULL)
    gtk_list_box_remove (self->sessions_list, child);
  g_ptr_array_set_size (self->checks, 0);
  g_ptr_array_set_size (self->subtitles, 0);
  g_clear_pointer (&self->sessions, g_ptr_array_unref);
  gtk_widget_set_visible (GTK_WIDGET (self->sessions_list), FALSE);
  update_attach (self);
}

static gboolean
is_attached (SlRelayDialog       *self,
             const SlLiveSession *s)
{
  return self->attached != NULL && g_strv_contains ((const char * const *) self->attached, s->url);
}

static void
fill_sessions (SlRelayDialog *self,
               GPtrArray     *sessions)
{
  clear_sessions (self);
  self->sessions = sessions;
  for (guint i = 0; i < sessions->len; i++)
    {
      const SlLiveSession *s = g_ptr_array_index (sessions, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();
      g_autofree char *subtitle = NULL;
      g_autofree char *streams = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u stream", "%u streams",
                                                               (gulong) s->streams), (guint) s->streams);
      gboolean ours = is_attached (self, s);
      /* our own attachment is one of the relay's viewers */
      guint others = (guint) s->clients - (ours && s->clients > 0 ? 1 : 0);
      g_autofree char *viewers = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u viewer", "%u viewers",
                                                               (gulong) others), others);
      g_autofree char *other_viewers = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u other viewer",
                                                                     "%u other viewers", (gulong) others), others);

      if (ours && others > 0)
        subtitle = g_strdup_printf (_("session %s · %s · attached in this view · %s"), s->session, streams,
                                    other_viewers);
      else if (ours)
        subtitle = g_strdup_printf (_("session %s · %s · attached in this view"), s->session, streams);
      else
        subtitle = g_strdup_printf (_("session %s · %s · %s"), s->session, streams, viewers);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), s->hostname);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      /* every host of a session is usually wanted; in a live view, what
       * it has */
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), self->attached == NULL || ours);
      if (ours)
        gtk_widget_add_css_class (row, "accent");
      g_signal_connect_object (check, "toggled", G_CALLBACK (update_attach), self, G_CONNECT_SWAPPED);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
      gtk_list_box_append (self->sessions_list, row);
      g_ptr_array_add (self->checks, check);
      g_ptr_array_add (self->subtitles, g_steal_pointer (&subtitle));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->sessions_list), sessions->len > 0);
  if (sessions->len == 0)
    set_status (self, _("The relay has no live session now. Sessions created later appear when you list again."));
  else
    set_status (self, NULL);
  update_attach (self);
}

static void
list_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SlRelayDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  GPtrArray *sessions = sl_live_list_sessions_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->cancellable);
  gtk_spinner_stop (self->spinner);
  if (sessions == NULL)
    {
      clear_sessions (self);
      set_status (self, error->message);
      return;
    }
  fill_sessions (self, sessions);
}

static void
list_sessions_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  sl_relay_dialog_list_sessions (SL_RELAY_DIALOG (widget));
}

static void
url_apply_cb (SlRelayDialog *self)
{
  sl_relay_dialog_list_sessions (self);
}

static void
attach_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlRelayDialog *self = SL_RELAY_DIALOG (widget);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) urls = NULL;

  g_autoptr(GStrvBuilder) rb = g_strv_builder_new ();
  g_auto(GStrv) removed = NULL;

  for (guint i = 0; self->sessions != NULL && i < self->checks->len; i++)
    {
      const SlLiveSession *s = g_ptr_array_index (self->sessions, i);
      gboolean active = gtk_check_button_get_active (g_ptr_array_index (self->checks, i));

      if (active && (self->attached == NULL || !is_attached (self, s)))
        g_strv_builder_add (b, s->url);
      else if (!active && is_attached (self, s))
        g_strv_builder_add (rb, s->url);
    }
  urls = g_strv_builder_end (b);
  removed = g_strv_builder_end (rb);
  if (self->attached != NULL)
    g_signal_emit (self, signals[CHANGE], 0, urls, removed);
  else if (urls[0] != NULL)
    g_signal_emit (self, signals[ATTACH], 0, urls);
  else
    return;
  gtk_window_close (GTK_WINDOW (self));
}

static void
sl_relay_dialog_dispose (GObject *object)
{
  SlRelayDialog *self = (SlRelayDialog *) object;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->sessions, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_RELAY_DIALOG);

  G_OBJECT_CLASS (sl_relay_dialog_parent_class)->dispose (object);
}

static void
sl_relay_dialog_finalize (GObject *object)
{
  SlRelayDialog *self = (SlRelayDialog *) object;

  g_ptr_array_unref (self->checks);
  g_ptr_array_unref (self->subtitles);
  g_strfreev (self->attached);

  G_OBJECT_CLASS (sl_relay_dialog_parent_class)->finalize (object);
}

static void
sl_relay_dialog_class_init (SlRelayDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_relay_dialog_dispose;
  object_class->finalize = sl_relay_dialog_finalize;

  /**
   * SlRelayDialog::attach:
   * @urls: the chosen sessions' URLs
   */
  signals[ATTACH] = g_signal_new ("attach", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRV);

  /**
   * SlRelayDialog::change:
   * @add: the sessions checked that the live view has not attached
   * @remove: its attachments unchecked
   *
   * Instead of ::attach when the dialog was given the live view's
   * attachments (sl_relay_dialog_set_attached()).
   */
  signals[CHANGE] = g_signal_new ("change", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRV, G_TYPE_STRV);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/syncline/Syncline/ui/sl-relay-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SlRelayDialog, url_row);
  gtk_widget_class_bind_template_child (widget_class, SlRelayDialog, attach_button);
  gtk_widget_class_bind_template_child (widget_class, SlRelayDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, SlRelayDialog, status_label);
  gtk_widget_class_bind_template_child (widget_class, SlRelayDialog, sessions_list);
  gtk_widget_class_bind_template_callback (widget_class, url_apply_cb);

  gtk_widget_class_install_action (widget_class, "relay.list-sessions", NULL, list_sessions_action);
  gtk_widget_class_install_action (widget_class, "relay.attach-sessions", NULL, attach_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "relay.attach-sessions", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "relay.list-sessions", NULL);
}

static void
sl_relay_dialog_init (SlRelayDialog *self)
{
  self->checks = g_ptr_array_new ();
  self->subtitles = g_ptr_array_new_with_free_func (g_free);
  gtk_widget_init_template (GTK_WIDGET (self));
  set_status (self, _("Enter the relay's address and list its sessions."));
  gtk_widget_set_visible (GTK_WIDGET (self->sessions_list), FALSE);
  update_attach (self);
}

SlRelayDialog *
sl_relay_dialog_new (GtkWindow *parent)
{
  return g_object_new (SL_TYPE_RELAY_DIALOG, "transient-for", parent, NULL);
}

const char *
sl_relay_dialog_get_url (SlRelayDialog *self)
{
  g_return_val_if_fail (SL_IS_RELAY_DIALOG (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->url_row));
}

void
sl_relay_dialog_set_url (SlRelayDialog *self,
                         const char    *url)
{
  g_return_if_fail (SL_IS_RELAY_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->url_row), url);
}

/* Asks the relay on a worker thread; a relay that does not answer only
 * keeps the spinner turning. */
void
sl_relay_dialog_list_sessions (SlRelayDialog *self)
{
  g_autoptr(GError) error = NULL;
  const char *url;

  g_return_if_fail (SL_IS_RELAY_DIALOG (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  clear_sessions (self);

  url = sl_relay_dialog_get_url (self);
  if (!sl_live_parse_url (url, NULL, NULL, NULL, &error))
    {
      gtk_spinner_stop (self->spinner);
      set_status (self, error->message);
      return;
    }
  self->cancellable = g_cancellable_new ();
  gtk_spinner_start (self->spinner);
  set_status (self, _("Asking the relay…"));
  sl_live_list_sessions_async (url, self->cancellable, list_done_cb, g_object_ref (self));
}

guint
sl_relay_dialog_get_n_sessions (SlRelayDialog *self)
{
  g_return_val_if_fail (SL_IS_RELAY_DIALOG (self), 0);
  return self->sessions != NULL ? self->sessions->len : 0;
}

void
sl_relay_dialog_set_session_active (SlRelayDialog *self,
                                    guint          index,
                                    gboolean       active)
{
  g_return_if_fail (SL_IS_RELAY_DIALOG (self));
  g_return_if_fail (index < self->checks->len);

  gtk_check_button_set_active (g_ptr_array_index (self->checks, index), active);
}

gboolean
sl_relay_dialog_get_busy (SlRelayDialog *self)
{
  g_return_val_if_fail (SL_IS_RELAY_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

const char *
sl_relay_dialog_get_status (SlRelayDialog *self)
{
  g_return_val_if_fail (SL_IS_RELAY_DIALOG (self), NULL);
  return gtk_label_get_text (self->status_label);
}

/**
 * sl_relay_dialog_set_attached:
 * @urls: (nullable): the attachments of the live view the dialog changes
 *
 * With @urls, the dialog edits a running live view: its sessions are
 * marked and checked, the others unchecked, and the choice is given by
 * ::change (in place) instead of ::attach (a new view).
 */
void
sl_relay_dialog_set_attached (SlRelayDialog      *self,
                              const char * const *urls)
{
  g_return_if_fail (SL_IS_RELAY_DIALOG (self));

  g_strfreev (self->attached);
  self->attached = urls != NULL ? g_strdupv ((char **) urls) : NULL;
  gtk_button_set_label (GTK_BUTTON (self->attach_button), urls != NULL ? _("_Apply") : _("_Attach"));
  if (self->sessions != NULL)
    fill_sessions (self, g_ptr_array_ref (self->sessions));
}

/* The row's subtitle: session, streams, viewers, ours. */
const char *
sl_relay_dialog_get_session_subtitle (SlRelayDialog *self,
                                      guint          index)
{
  g_return_val_if_fail (SL_IS_RELAY_DIALOG (self), NULL);
  g_return_val_if_fail (index < self->subtitles->len, NULL);

  return g_ptr_array_index (self->subtitles, index);
}

gboolean
sl_relay_dialog_get_session_active (SlRelayDialog *self,
                                    guint          index)
{
  g_return_val_if_fail (SL_IS_RELAY_DIALOG (self), FALSE);
  g_return_val_if_fail (index < self->checks->len, FALSE);

  return gtk_check_button_get_active (g_ptr_array_index (self->checks, index));
}

const char *
sl_relay_dialog_get_session_url (SlRelayDialog *self,
                                 guint          index)
{
  g_return_val_if_fail (SL_IS_RELAY_DIALOG (self), NULL);
  g_return_val_if_fail (self->sessions != NULL && index < self->sessions->len, NULL);

  return ((SlLiveSession *) g_ptr_array_index (self->sessions, index))->url;
}
