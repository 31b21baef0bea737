/* sl-preferences-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sl-preferences-window.h"

struct _SlPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;
  SlSession            *session;
  GPtrArray            *reference_names;

  AdwComboRow          *algorithm_row;
  AdwComboRow          *tree_row;
  AdwComboRow          *reference_row;
  GtkStringList        *reference_list;
  GtkSpinButton        *update_spin;
  GtkSpinButton        *margin_spin;
  GtkSpinButton        *retention_spin;
};

G_DEFINE_FINAL_TYPE (SlPreferencesWindow, sl_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static const char *algorithms[] = { "hull", "linreg" };
static const char *trees[] = { "mst", "shortest-path" };

static gboolean
choice_get (GValue   *value,
            GVariant *variant,
            gpointer  user_data)
{
  const char **choices = user_data;
  const char *s = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < 2; i++)
    if (g_strcmp0 (s, choices[i]) == 0)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
choice_set (const GValue       *value,
            const GVariantType *type,
            gpointer            user_data)
{
  const char **choices = user_data;
  guint i = g_value_get_uint (value);

  return g_variant_new_string (choices[MIN (i, 1)]);
}

static void
reference_selected_cb (SlPreferencesWindow *self)
{
  guint i = adw_combo_row_get_selected (self->reference_row);
  const char *name = i == 0 || i >= self->reference_names->len + 1
    ? "" : g_ptr_array_index (self->reference_names, i - 1);

  g_settings_set_string (self->settings, "pinned-reference", name);
}

static void
fill_references (SlPreferencesWindow *self)
{
  g_autofree char *pinned = g_settings_get_string (self->settings, "pinned-reference");
  GListModel *hosts = sl_session_get_hosts (self->session);
  guint n = g_list_model_get_n_items (hosts), selected = 0;
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) strings = NULL;

  g_ptr_array_set_size (self->reference_names, 0);
  g_strv_builder_add (b, _("Automatic"));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlHostItem) item = g_list_model_get_item (hosts, i);

      g_ptr_array_add (self->reference_names, g_strdup (sl_host_item_get_name (item)));
    }
  /* a pinned host the current input does not have stays choosable */
  if (pinned[0] != '\0' && sl_session_find_host (self->session, pinned) == NULL)
    g_ptr_array_add (self->reference_names, g_strdup (pinned));
  for (guint i = 0; i < self->reference_names->len; i++)
    {
      const char *name = g_ptr_array_index (self->reference_names, i);

      g_strv_builder_add (b, name);
      if (g_strcmp0 (name, pinned) == 0)
        selected = i + 1;
    }
  strings = g_strv_builder_end (b);

  g_signal_handlers_block_by_func (self->reference_row, reference_selected_cb, self);
  gtk_string_list_splice (self->reference_list, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->reference_list)),
                          (const char * const *) strings);
  adw_combo_row_set_selected (self->reference_row, selected);
  g_signal_handlers_unblock_by_func (self->reference_row, reference_selected_cb, self);
}

static void
sl_preferences_window_dispose (GObject *object)
{
  SlPreferencesWindow *self = (SlPreferencesWindow *) object;

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_PREFERENCES_WINDOW);

  G_OBJECT_CLASS (sl_preferences_window_parent_class)->dispose (object);
}

static void
sl_preferences_window_finalize (GObject *object)
{
  SlPreferencesWindow *self = (SlPreferencesWindow *) object;

  g_ptr_array_unref (self->reference_names);

  G_OBJECT_CLASS (sl_preferences_window_parent_class)->finalize (object);
}

static void
sl_preferences_window_class_init (SlPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_preferences_window_dispose;
  object_class->finalize = sl_preferences_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/syncline/Syncline/ui/sl-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, algorithm_row);
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, tree_row);
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, reference_row);
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, reference_list);
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, update_spin);
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, margin_spin);
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, retention_spin);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sl_preferences_window_init (SlPreferencesWindow *self)
{
  self->reference_names = g_ptr_array_new_with_free_func (g_free);
  gtk_widget_init_template (GTK_WIDGET (self));
}

SlPreferencesWindow *
sl_preferences_window_new (GtkWindow *parent,
                           GSettings *settings,
                           SlSession *session)
{
  SlPreferencesWindow *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (SL_IS_SESSION (session), NULL);

  self = g_object_new (SL_TYPE_PREFERENCES_WINDOW, "transient-for", parent, NULL);
  self->settings = g_object_ref (settings);
  self->session = g_object_ref (session);

  g_settings_bind_with_mapping (settings, "algorithm", self->algorithm_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, choice_get, choice_set, algorithms, NULL);
  g_settings_bind_with_mapping (settings, "tree", self->tree_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, choice_get, choice_set, trees, NULL);
  g_settings_bind (settings, "live-update-ms", gtk_spin_button_get_adjustment (self->update_spin),
                   "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "tree-margin", gtk_spin_button_get_adjustment (self->margin_spin),
                   "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "live-retention", gtk_spin_button_get_adjustment (self->retention_spin),
                   "value", G_SETTINGS_BIND_DEFAULT);

  fill_references (self);
  g_signal_connect_object (self->reference_row, "notify::selected",
                           G_CALLBACK (reference_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::n-hosts", G_CALLBACK (fill_references),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::pinned-reference", G_CALLBACK (fill_references),
                           self, G_CONNECT_SWAPPED);
  return self;
}
