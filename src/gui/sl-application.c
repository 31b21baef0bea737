/* sl-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <glib/gi18n.h>
#include <glib-unix.h>

#include "sl-application.h"
#include "sl-job.h"
#include "sl-preferences-window.h"
#include "sl-trace-reader.h"
#include "sl-window.h"

#define SCREENSHOT_SETTLE_MS 900
#define SCREENSHOT_TIMEOUT_S 300
/* what quitting waits for the readers to stop, at most */
#define JOBS_STOP_S          20

struct _SlApplication
{
  AdwApplication  parent_instance;

  char           *screenshot;
  char           *transforms;
  int             exit_status;
  guint           screenshot_timeout;
  guint           screenshot_settle;
  guint           signal_sources[3];
};

G_DEFINE_FINAL_TYPE (SlApplication, sl_application, ADW_TYPE_APPLICATION)

static SlWindow *
get_window (SlApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (SL_IS_WINDOW (window))
    return SL_WINDOW (window);
  return sl_window_new (GTK_APPLICATION (self));
}

/* --screenshot */

static void
take_screenshot (SlApplication *self,
                 SlWindow      *window)
{
  g_autoptr(GError) error = NULL;

  g_clear_handle_id (&self->screenshot_timeout, g_source_remove);
  g_clear_handle_id (&self->screenshot_settle, g_source_remove);
  if (!sl_window_save_screenshot (window, self->screenshot, &error))
    {
      g_printerr ("syncline: %s\n", error->message);
      self->exit_status = 1;
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
screenshot_settled_cb (gpointer data)
{
  SlApplication *self = SL_APPLICATION (g_application_get_default ());
  SlWindow *window = data;

  self->screenshot_settle = 0;
  /* the picture of the window as last drawn, once nothing moves: a draw
   * queued since (a label that changed) drops it until the next frame */
  if (sl_window_get_animating (window) || !sl_widget_has_picture (GTK_WIDGET (window)))
    {
      if (!sl_window_get_animating (window))
        gtk_widget_queue_draw (GTK_WIDGET (window));
      self->screenshot_settle = g_timeout_add (100, screenshot_settled_cb, window);
      return G_SOURCE_REMOVE;
    }
  take_screenshot (self, window);
  return G_SOURCE_REMOVE;
}

static gboolean
screenshot_timeout_cb (gpointer data)
{
  SlApplication *self = SL_APPLICATION (g_application_get_default ());

  self->screenshot_timeout = 0;
  g_printerr ("syncline: --screenshot: the input was not read within %d s\n", SCREENSHOT_TIMEOUT_S);
  self->exit_status = 1;
  take_screenshot (self, data);
  return G_SOURCE_REMOVE;
}

/* Loaded: read completely, failed, or live with some links. */
static void
screenshot_check (SlApplication *self,
                  SlWindow      *window)
{
  SlSession *session = sl_window_get_session (window);
  SlSessionState state = sl_session_get_state (session);
  gboolean ready = state == SL_SESSION_STATE_READY || state == SL_SESSION_STATE_FAILED ||
                   state == SL_SESSION_STATE_EMPTY ||
                   (state == SL_SESSION_STATE_LIVE && sl_session_get_n_tree_links (session) > 0);

  if (ready && self->screenshot_settle == 0)
    self->screenshot_settle = g_timeout_add (SCREENSHOT_SETTLE_MS, screenshot_settled_cb, window);
}

static void
screenshot_state_cb (SlWindow *window)
{
  screenshot_check (SL_APPLICATION (g_application_get_default ()), window);
}

static void
present (SlApplication *self,
         SlWindow      *window)
{
  gtk_window_present (GTK_WINDOW (window));
  if (self->screenshot != NULL && self->screenshot_timeout == 0)
    {
      SlSession *session = sl_window_get_session (window);

      g_signal_connect_object (session, "notify::state", G_CALLBACK (screenshot_state_cb),
                               window, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::n-tree-links", G_CALLBACK (screenshot_state_cb),
                               window, G_CONNECT_SWAPPED);
      self->screenshot_timeout = g_timeout_add_seconds (SCREENSHOT_TIMEOUT_S, screenshot_timeout_cb, window);
      screenshot_check (self, window);
    }
}

static void
sl_application_activate (GApplication *app)
{
  SlApplication *self = SL_APPLICATION (app);

  /* (an empty window would leave the option unsaid) */
  if (self->transforms != NULL)
    {
      g_printerr ("syncline: --transforms=%s: no trace folder to apply it to (syncline --transforms=FILE FOLDER…)\n",
                  self->transforms);
      self->exit_status = 2;
      return;
    }
  present (self, get_window (self));
}

static void
sl_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  SlApplication *self = SL_APPLICATION (app);
  SlWindow *window = get_window (self);
  g_autoptr(GStrvBuilder) urls = g_strv_builder_new ();
  g_autoptr(GPtrArray) local = g_ptr_array_new ();

  /* --transforms=FILE FOLDER…: the folders' hosts keep the file's relations */
  if (self->transforms != NULL)
    {
      g_autoptr(GPtrArray) folders = g_ptr_array_new_with_free_func (g_free);

      for (int i = 0; i < n_files; i++)
        {
          char *path = g_file_get_path (files[i]);

          if (path != NULL)
            g_ptr_array_add (folders, path);
        }
      g_ptr_array_add (folders, NULL);
      if (folders->len > 1)
        sl_window_open_with_transforms (window, (const char * const *) folders->pdata, self->transforms);
      present (self, window);
      return;
    }

  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *scheme = g_file_get_uri_scheme (files[i]);

      if (scheme != NULL && g_str_has_prefix (scheme, "net"))
        {
          g_autofree char *uri = g_file_get_uri (files[i]);
          g_strv_builder_add (urls, uri);
        }
      else
        g_ptr_array_add (local, files[i]);
    }

  if (local->len > 0 && n_files > (int) local->len)
    {
      /* trace folders and relays: the folders' history, then live */
      g_auto(GStrv) list = g_strv_builder_end (urls);
      g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < local->len; i++)
        {
          char *path = g_file_get_path (g_ptr_array_index (local, i));

          if (path != NULL)
            g_ptr_array_add (all, path);
        }
      for (guint i = 0; list[i] != NULL; i++)
        g_ptr_array_add (all, g_strdup (list[i]));
      g_ptr_array_add (all, NULL);
      sl_window_open_paths (window, (const char * const *) all->pdata);
    }
  else if (local->len > 0)
    sl_window_open_files (window, (GFile **) local->pdata, local->len);
  else
    {
      g_auto(GStrv) list = g_strv_builder_end (urls);

      if (list[0] != NULL)
        sl_window_open_live (window, (const char * const *) list);
    }
  present (self, window);
}

static int
sl_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  SlApplication *self = SL_APPLICATION (app);

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("syncline %s\n", PACKAGE_VERSION);
      return 0;
    }
  g_variant_dict_lookup (options, "screenshot", "^ay", &self->screenshot);
  if (g_variant_dict_lookup (options, "transforms", "^ay", &self->transforms))
    {
      char *absolute = g_canonicalize_filename (self->transforms, NULL);

      g_free (self->transforms);
      self->transforms = absolute;
      /* the option is this process's: it runs on its own */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  /* a screenshot runs on its own, never in another instance */
  if (self->screenshot != NULL)
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
  return -1;
}

/* SIGTERM, SIGINT, SIGHUP (a logout, Ctrl+C in a terminal, `kill`): the
 * application quits as through its menu, and its readers remove their
 * temporary folders and stop their decoders before the process ends. */
static gboolean
quit_signal_cb (gpointer data)
{
  g_action_group_activate_action (G_ACTION_GROUP (data), "quit", NULL);
  return G_SOURCE_CONTINUE;
}

static gpointer
remove_stale_thread (gpointer data)
{
  sl_trace_reader_remove_stale ();
  return NULL;
}

static void
sl_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *prefs_accels[] = { "<Control>comma", NULL };
  static const int signals[] = { SIGTERM, SIGINT, SIGHUP };
  SlApplication *self = SL_APPLICATION (app);

  G_APPLICATION_CLASS (sl_application_parent_class)->startup (app);

  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences", prefs_accels);
  G_STATIC_ASSERT (G_N_ELEMENTS (signals) == G_N_ELEMENTS (self->signal_sources));
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    self->signal_sources[i] = g_unix_signal_add (signals[i], quit_signal_cb, app);
  /* what killed runs left behind, without holding up the window */
  g_thread_unref (g_thread_new ("sl-stale", remove_stale_thread, NULL));
}

static void
sl_application_shutdown (GApplication *app)
{
  SlApplication *self = SL_APPLICATION (app);
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

  for (guint i = 0; i < G_N_ELEMENTS (self->signal_sources); i++)
    g_clear_handle_id (&self->signal_sources[i], g_source_remove);
  /* closing a window stops its reading; its worker finishes on its own */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free (windows);
  if (!sl_job_wait_all (JOBS_STOP_S * G_USEC_PER_SEC))
    g_printerr ("syncline: the reading did not stop within %d s; its temporary folders are removed the next "
                "time Syncline reads traces\n", JOBS_STOP_S);

  G_APPLICATION_CLASS (sl_application_parent_class)->shutdown (app);
}

static void
sl_application_finalize (GObject *object)
{
  SlApplication *self = (SlApplication *) object;

  g_free (self->screenshot);
  g_free (self->transforms);

  G_OBJECT_CLASS (sl_application_parent_class)->finalize (object);
}

static void
sl_application_class_init (SlApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = sl_application_finalize;
  app_class->activate = sl_application_activate;
  app_class->open = sl_application_open;
  app_class->startup = sl_application_startup;
  app_class->shutdown = sl_application_shutdown;
  app_class->handle_local_options = sl_application_handle_local_options;
}

static void
about_action_cb (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  SlApplication *self = user_data;
  const char *developers[] = { _("The Syncline developers"), NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", gtk_application_get_active_window (GTK_APPLICATION (self)),
                        "modal", TRUE,
                        "application-name", _("Syncline"),
                        "application-icon", APPLICATION_ID,
                        "version", PACKAGE_VERSION,
                        "developer-name", _("The Syncline developers"),
                        "developers", developers,
                        "comments", _("Puts LTTng traces recorded on many machines onto one clock, with "
                                      "guaranteed accuracy bounds, and shows which hosts are synchronized "
                                      "through which links."),
                        "license-type", GTK_LICENSE_GPL_3_0,
                        /* Translators: your names, one per line */
                        "translator-credits", _("translator-credits"),
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
preferences_action_cb (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  SlApplication *self = user_data;
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));
  SlPreferencesWindow *prefs;

  if (!SL_IS_WINDOW (active))
    return;
  prefs = sl_preferences_window_new (active, sl_window_get_settings (SL_WINDOW (active)),
                                     sl_window_get_session (SL_WINDOW (active)));
  gtk_window_present (GTK_WINDOW (prefs));
}

static void
quit_action_cb (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  SlApplication *self = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  /* closing saves each window's size */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
  g_application_quit (G_APPLICATION (self));
}

static void
sl_application_init (SlApplication *self)
{
  static const GActionEntry entries[] = {
    { "about", about_action_cb, NULL, NULL, NULL, { 0 } },
    { "preferences", preferences_action_cb, NULL, NULL, NULL, { 0 } },
    { "quit", quit_action_cb, NULL, NULL, NULL, { 0 } },
  };
  const GOptionEntry options[] = {
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Write a PNG picture of the window once the inputs are read, then quit"), N_("FILE") },
    { "transforms", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Open the trace folders with the hosts' relations of FILE (syncline-cli sync --save-transforms) "
         "instead of synchronizing them again"), N_("FILE") },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and quit"), NULL },
    { NULL }
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  g_application_add_main_option_entries (G_APPLICATION (self), options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FOLDER…|FILE|net://RELAY/…]"));
}

SlApplication *
sl_application_new (void)
{
  return g_object_new (SL_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       NULL);
}

int
sl_application_get_exit_status (SlApplication *self)
{
  g_return_val_if_fail (SL_IS_APPLICATION (self), 1);
  return self->exit_status;
}

void
sl_application_set_exit_status (SlApplication *self,
                                int            status)
{
  g_return_if_fail (SL_IS_APPLICATION (self));
  self->exit_status = status;
}
