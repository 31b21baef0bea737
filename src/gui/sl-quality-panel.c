/* sl-quality-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-link-plot.h"
#include "sl-quality-panel.h"
#include "sl-text-cell.h"

struct _SlQualityPanel
{
  GtkWidget           parent_instance;

  SlSession          *session;
  GBinding           *hull_binding;
  GBinding           *band_binding;

  GtkWidget          *box;
  AdwViewStack       *stack;
  GtkColumnView      *links_view;
  GtkSingleSelection *links_selection;
  GtkSortListModel   *links_sort;
  GtkColumnView      *hosts_view;
  GtkSingleSelection *hosts_selection;
  GtkSortListModel   *hosts_sort;
  GtkColumnView      *changes_view;
  GtkNoSelection     *changes_selection;
  GtkLabel           *details_title;
  GtkLabel           *diagnosis_label;
  GtkLabel           *host_diagnosis_label;
  SlLinkPlot         *hull_plot;
  SlLinkPlot         *band_plot;

  gboolean            syncing;
};

enum {
  PROP_0,
  PROP_SESSION,
  PROP_PAGE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SlQualityPanel, sl_quality_panel, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

static const SlTextColumn text_columns[] = {
  { "link_hosts_column", "hosts", 0, 30 },
  { "link_quality_column", "quality-text", 0, 11 },
  { "link_tree_column", "in-tree-text", 0.5, 4 },
  { "link_accuracy_column", "accuracy-text", 1, 14 },
  { "link_band_column", "band-text", 1, 12 },
  { "link_estimate_column", "estimate-text", 0, 30 },
  { "link_matches_column", "matches", 1, 12 },
  { "link_accurate_column", "accurate-packets", 1, 12 },
  { "link_hull_column", "hull-points-text", 1, 12 },
  { "link_inversions_column", "inversions-text", 1, 12 },
  { "link_last_change_column", "last-change-text", 1, 12 },
  { "host_name_column", "name", 0, 20 },
  { "host_reference_column", "reference-name", 0, 12 },
  { "host_path_column", "path-text", 0, 20 },
  { "host_bound_column", "bound-text", 1, 12 },
  { "host_transform_column", "transform-text", 0, 44 },
  { "host_events_column", "events", 1, 12 },
  { "host_packets_column", "packet-events", 1, 12 },
  { "host_matched_column", "matched", 1, 12 },
  { "host_status_column", "status", 0, 20 },
  { "change_time_column", "time-text", 1, 12 },
  { "change_kind_column", "kind-text", 0, 12 },
  { "change_text_column", "text", 0, 20 },
  { "change_reason_column", "reason", 0, 20 },
};

static guint
position_of (GListModel *model,
             gpointer    item)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; item != NULL && i < n; i++)
    {
      g_autoptr(GObject) it = g_list_model_get_item (model, i);

      if ((gpointer) it == item)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* GtkColumnView 4.8 has no scrolling API; its list view child has the
 * action. */
static void
scroll_to (GtkColumnView *view,
           guint          position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      {
        gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
        return;
      }
}

static void
update_details (SlQualityPanel *self)
{
  SlLinkItem *link = self->session != NULL ? sl_session_get_selected_link (self->session) : NULL;
  SlHostItem *host = self->session != NULL ? sl_session_get_selected_host (self->session) : NULL;
  g_autofree char *title = NULL;
  g_autofree char *diagnosis = NULL;
  g_autofree char *host_diagnosis = NULL;

  if (link != NULL)
    {
      title = g_strdup_printf ("%s ↔ %s", sl_link_item_get_a_name (link), sl_link_item_get_b_name (link));
      diagnosis = sl_session_dup_link_diagnosis (self->session, link);
    }
  else
    title = g_strdup (_("Select a link in the graph or the link table to see its hull plot"));
  if (host != NULL)
    host_diagnosis = sl_session_dup_host_diagnosis (self->session, host);

  gtk_label_set_text (self->details_title, title);
  gtk_label_set_text (self->diagnosis_label, diagnosis != NULL ? diagnosis : "");
  gtk_widget_set_visible (GTK_WIDGET (self->diagnosis_label), diagnosis != NULL);
  gtk_label_set_text (self->host_diagnosis_label, host_diagnosis != NULL ? host_diagnosis : "");
  gtk_widget_set_visible (GTK_WIDGET (self->host_diagnosis_label), host_diagnosis != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->hull_plot), link != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->band_plot), link != NULL);
  if (link != NULL)
    {
      sl_link_plot_set_names (self->hull_plot, sl_link_item_get_a_name (link), sl_link_item_get_b_name (link));
      sl_link_plot_set_names (self->band_plot, sl_link_item_get_a_name (link), sl_link_item_get_b_name (link));
    }
}

/* A time range selected in the timeline (the view's clock: the reference's,
 * or each host's own when not synchronized) restricts the hull plot. */
static void
update_plot_range (SlQualityPanel *self)
{
  SlPlotData *plot = self->session != NULL ? sl_session_get_plot (self->session) : NULL;
  SlHostItem *a = plot != NULL ? sl_session_get_host_item (self->session, plot->a) : NULL;
  gint64 s0 = 0, s1 = 0;
  SlTransform inv;

  if (self->session != NULL)
    sl_session_get_selected_span (self->session, &s0, &s1);
  if (a == NULL || s1 <= s0)
    {
      sl_link_plot_set_range (self->hull_plot, NAN, NAN);
      return;
    }
  if (sl_session_get_synchronized (self->session))
    {
      sl_transform_invert (&sl_host_item_get_info (a)->to_reference, &inv);
      s0 = sl_transform_apply (&inv, s0);
      s1 = sl_transform_apply (&inv, s1);
    }
  sl_link_plot_set_range (self->hull_plot, (double) (s0 - plot->x0) / 1e9, (double) (s1 - plot->x0) / 1e9);
}

static void
session_link_changed_cb (SlQualityPanel *self)
{
  SlLinkItem *link = sl_session_get_selected_link (self->session);
  guint pos = position_of (G_LIST_MODEL (self->links_selection), link);

  if (!self->syncing)
    {
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->links_selection, pos);
      self->syncing = FALSE;
      if (pos != GTK_INVALID_LIST_POSITION)
        scroll_to (self->links_view, pos);
    }
  update_details (self);
}

static void
session_host_changed_cb (SlQualityPanel *self)
{
  SlHostItem *host = sl_session_get_selected_host (self->session);
  guint pos = position_of (G_LIST_MODEL (self->hosts_selection), host);

  if (!self->syncing)
    {
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->hosts_selection, pos);
      self->syncing = FALSE;
      if (pos != GTK_INVALID_LIST_POSITION)
        scroll_to (self->hosts_view, pos);
    }
  update_details (self);
}

static void
session_updated_cb (SlQualityPanel   *self,
                    SlSessionChanges  changes,
                    SlSession        *session)
{
  if (sl_session_get_selected_link (session) != NULL || sl_session_get_selected_host (session) != NULL)
    update_details (self);
}

/* A link selected before the table took it in (new links join the sorted
 * table at its next reorder) is selected when it arrives. */
static void
links_items_changed_cb (SlQualityPanel *self)
{
  if (self->session != NULL && !self->syncing &&
      gtk_single_selection_get_selected_item (self->links_selection) != (gpointer) sl_session_get_selected_link (self->session))
    {
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->links_selection,
                                         position_of (G_LIST_MODEL (self->links_selection),
                                                      sl_session_get_selected_link (self->session)));
      self->syncing = FALSE;
    }
}

static void
links_selection_changed_cb (SlQualityPanel *self)
{
  if (self->syncing || self->session == NULL)
    return;
  self->syncing = TRUE;
  sl_session_set_selected_link (self->session, gtk_single_selection_get_selected_item (self->links_selection));
  self->syncing = FALSE;
}

static void
hosts_selection_changed_cb (SlQualityPanel *self)
{
  if (self->syncing || self->session == NULL)
    return;
  self->syncing = TRUE;
  sl_session_set_selected_host (self->session, gtk_single_selection_get_selected_item (self->hosts_selection));
  self->syncing = FALSE;
}

/* The host table and the change log get their models only while shown:
 * hidden tables would otherwise build and update their rows for nothing. */
static void
sync_models (SlQualityPanel *self)
{
  const char *page = adw_view_stack_get_visible_child_name (self->stack);
  GListModel *hosts = NULL, *changes = NULL;

  if (self->session != NULL && g_strcmp0 (page, "hosts") == 0)
    hosts = sl_session_get_hosts (self->session);
  if (self->session != NULL && g_strcmp0 (page, "changes") == 0)
    changes = sl_session_get_changes (self->session);
  if (gtk_sort_list_model_get_model (self->hosts_sort) != hosts)
    {
      gtk_sort_list_model_set_model (self->hosts_sort, hosts);
      if (hosts != NULL)
        session_host_changed_cb (self);
    }
  if (gtk_no_selection_get_model (self->changes_selection) != changes)
    gtk_no_selection_set_model (self->changes_selection, changes);
}

static void
stack_page_changed_cb (SlQualityPanel *self)
{
  sync_models (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE]);
}

static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  sl_quality_panel_set_page (SL_QUALITY_PANEL (widget), g_variant_get_string (param, NULL));
}

static void
sl_quality_panel_dispose (GObject *object)
{
  SlQualityPanel *self = (SlQualityPanel *) object;

  sl_quality_panel_set_session (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_QUALITY_PANEL);

  G_OBJECT_CLASS (sl_quality_panel_parent_class)->dispose (object);
}

static void
sl_quality_panel_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SlQualityPanel *self = SL_QUALITY_PANEL (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_PAGE:
      g_value_set_string (value, sl_quality_panel_get_page (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_quality_panel_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SlQualityPanel *self = SL_QUALITY_PANEL (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      sl_quality_panel_set_session (self, g_value_get_object (value));
      break;
    case PROP_PAGE:
      sl_quality_panel_set_page (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_quality_panel_class_init (SlQualityPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_quality_panel_dispose;
  object_class->get_property = sl_quality_panel_get_property;
  object_class->set_property = sl_quality_panel_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PAGE] =
    g_param_spec_string ("page", NULL, NULL, "links",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SL_TYPE_LINK_PLOT);
  g_type_ensure (SL_TYPE_TEXT_CELL);
  g_type_ensure (SL_TYPE_LINK_ITEM);
  g_type_ensure (SL_TYPE_HOST_ITEM);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/syncline/Syncline/ui/sl-quality-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, box);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, stack);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, links_view);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, links_selection);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, links_sort);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, hosts_view);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, hosts_selection);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, hosts_sort);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, changes_view);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, changes_selection);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, details_title);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, diagnosis_label);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, host_diagnosis_label);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, hull_plot);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, band_plot);
  sl_text_cell_bind_columns (widget_class, text_columns, G_N_ELEMENTS (text_columns));
  gtk_widget_class_bind_template_callback (widget_class, links_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, hosts_selection_changed_cb);

  gtk_widget_class_install_action (widget_class, "panel.show-page", "s", show_page_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK, "panel.show-page", "s", "links");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK, "panel.show-page", "s", "hosts");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK, "panel.show-page", "s", "details");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_4, GDK_ALT_MASK, "panel.show-page", "s", "changes");

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "qualitypanel");
}

static void
sl_quality_panel_init (SlQualityPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  sl_text_cell_set_factories (GTK_WIDGET (self), SL_TYPE_QUALITY_PANEL, text_columns, G_N_ELEMENTS (text_columns));
  g_signal_connect_object (self->stack, "notify::visible-child-name",
                           G_CALLBACK (stack_page_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->links_selection, "items-changed",
                           G_CALLBACK (links_items_changed_cb), self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  update_details (self);
}

SlSession *
sl_quality_panel_get_session (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return self->session;
}

void
sl_quality_panel_set_session (SlQualityPanel *self,
                              SlSession      *session)
{
  g_return_if_fail (SL_IS_QUALITY_PANEL (self));
  g_return_if_fail (session == NULL || SL_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_clear_pointer (&self->hull_binding, g_binding_unbind);
      g_clear_pointer (&self->band_binding, g_binding_unbind);
      gtk_sort_list_model_set_model (self->links_sort, NULL);
      gtk_sort_list_model_set_model (self->hosts_sort, NULL);
      gtk_no_selection_set_model (self->changes_selection, NULL);
      g_clear_object (&self->session);
    }
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      gtk_sort_list_model_set_model (self->links_sort, sl_session_get_links (session));
      g_signal_connect_object (session, "notify::selected-link",
                               G_CALLBACK (session_link_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selected-host",
                               G_CALLBACK (session_host_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "updated",
                               G_CALLBACK (session_updated_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selection-start",
                               G_CALLBACK (update_plot_range), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selection-end",
                               G_CALLBACK (update_plot_range), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::plot",
                               G_CALLBACK (update_plot_range), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::synchronized",
                               G_CALLBACK (update_plot_range), self, G_CONNECT_SWAPPED);
      self->hull_binding = g_object_bind_property (session, "plot", self->hull_plot, "plot",
                                                   G_BINDING_SYNC_CREATE);
      self->band_binding = g_object_bind_property (session, "plot", self->band_plot, "plot",
                                                   G_BINDING_SYNC_CREATE);
      /* sorted by accuracy unless the user picks another column */
      gtk_column_view_sort_by_column (self->links_view,
                                      GTK_COLUMN_VIEW_COLUMN (gtk_widget_get_template_child (GTK_WIDGET (self),
                                                                                             SL_TYPE_QUALITY_PANEL,
                                                                                             "link_accuracy_column")),
                                      GTK_SORT_ASCENDING);
    }
  sync_models (self);
  update_details (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

const char *
sl_quality_panel_get_page (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return adw_view_stack_get_visible_child_name (self->stack);
}

void
sl_quality_panel_set_page (SlQualityPanel *self,
                           const char     *page)
{
  g_return_if_fail (SL_IS_QUALITY_PANEL (self));

  if (page != NULL && adw_view_stack_get_child_by_name (self->stack, page) != NULL)
    adw_view_stack_set_visible_child_name (self->stack, page);
}

SlLinkItem *
sl_quality_panel_get_selected_link (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return gtk_single_selection_get_selected_item (self->links_selection);
}

SlHostItem *
sl_quality_panel_get_selected_host (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return gtk_single_selection_get_selected_item (self->hosts_selection);
}

const char *
sl_quality_panel_get_details_title (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return gtk_label_get_text (self->details_title);
}

const char *
sl_quality_panel_get_diagnosis (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return gtk_label_get_text (self->diagnosis_label);
}

GtkWidget *
sl_quality_panel_get_hull_plot (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return GTK_WIDGET (self->hull_plot);
}

GtkWidget *
sl_quality_panel_get_band_plot (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return GTK_WIDGET (self->band_plot);
}
