/* sl-quality-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-link-item.h"
#include "sl-link-plot.h"
#include "sl-quality-panel.h"
#include "sl-row-table.h"
#include "sl-text-cell.h"

/* GTK 4.8's list views make rows for up to 200 items as soon as their
 * model has them: the link table going from empty to 2 000 links made
 * 2 200 cells in one main-loop iteration (90–220 ms), and so did showing
 * the host table of a big session. Each table sees its items through a
 * slice that grows by REVEAL_STEP items per frame (a tick callback: an
 * idle waits behind a live session's updates and reorders) until it
 * holds REVEAL_ALL of them (more than a list view makes rows for), then
 * all. */
#define REVEAL_STEP SL_QUALITY_PANEL_REVEAL_STEP
#define REVEAL_ALL  SL_QUALITY_PANEL_REVEAL_ALL

typedef struct
{
  GtkSliceListModel *slice;
  GtkWidget         *view;
  GListModel        *watched;
  gulong             changed_id;
  guint              tick_id;
} Reveal;

enum {
  REVEAL_LINKS,
  REVEAL_HOSTS,
  REVEAL_CHANGES,
  N_REVEALS
};

struct _SlQualityPanel
{
  GtkWidget           parent_instance;

  SlSession          *session;
  GBinding           *hull_binding;
  GBinding           *band_binding;

  GtkWidget          *box;
  AdwViewStack       *stack;
  SlRowTable         *links_table;
  GtkColumnView      *links_view;
  GtkSingleSelection *links_selection;
  GtkSliceListModel  *links_slice;
  GtkColumnView      *hosts_view;
  GtkSingleSelection *hosts_selection;
  GtkSliceListModel  *hosts_slice;
  GtkColumnView      *changes_view;
  GtkSliceListModel  *changes_slice;
  Reveal              reveals[N_REVEALS];
  GtkLabel           *links_empty;
  GtkLabel           *hosts_empty;
  GtkLabel           *changes_empty;
  GtkRevealer        *host_message_revealer;
  GtkLabel           *host_message;
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

/* Widths in digits: at the default window (1200 × 800) the first five
 * columns of each table fit the panel; the others are to the right, behind
 * a scrollbar that is always shown. Every cell's tooltip is its row's
 * summary: rates in ppm, the exact maps. The change log's sentences wrap
 * (every column of it fits), each its own tooltip. */
static const SlTextColumn link_columns[] = {
  { "link_hosts_column", "hosts", 0, 28, "summary" },
  { "link_quality_column", "quality-text", 0, 12, "summary" },
  { "link_bound_column", "bound-text", 1, 9, "summary" },
  { "link_offset_column", "offset-text", 0, 28, "summary" },
  { "link_drift_column", "drift-text", 1, 11, "summary" },
  { "link_tree_column", "in-tree-text", 0.5, 4, "summary" },
  { "link_matches_column", "matches", 1, 8, "summary" },
  { "link_accuracy_column", "accuracy-text", 1, 10, "summary" },
  { "link_band_column", "band-text", 1, 10, "summary" },
  { "link_accurate_column", "accurate-packets", 1, 8, "summary" },
  { "link_hull_column", "hull-points-text", 1, 8, "summary" },
  { "link_inversions_column", "inversions-text", 1, 8, "summary" },
  { "link_last_change_column", "last-change-text", 1, 11, "summary" },
};

static const SlTextColumn text_columns[] = {
  { "host_name_column", "name", 0, 13, "summary" },
  { "host_state_column", "state-text", 0, 16, "summary" },
  { "host_live_column", "live-text", 0, 10, "status" },
  { "host_offset_column", "offset-text", 0, 28, "summary" },
  { "host_drift_column", "drift-text", 1, 11, "summary" },
  { "host_bound_column", "bound-text", 1, 9, "summary" },
  { "host_reference_column", "reference-name", 0, 12, "summary" },
  { "host_path_column", "path-text", 0, 20, "summary" },
  { "host_events_column", "events", 1, 10, "summary" },
  { "host_packets_column", "packet-events", 1, 10, "summary" },
  { "host_matched_column", "matched", 1, 10, "summary" },
  { "host_status_column", "status", 0, 30, "status" },
  { "change_time_column", "time-text", 1, 12, "time-tooltip" },
  { "change_kind_column", "kind-text", 0, 12, NULL },
  { "change_text_column", "text", 0, 20, "text", TRUE },
  { "change_reason_column", "reason", 0, 20, "reason", TRUE },
};

static const struct
{
  const char    *column;
  SlLinkSortKey  key;
} link_sorters[] = {
  { "link_hosts_column", SL_LINK_SORT_HOSTS },
  { "link_quality_column", SL_LINK_SORT_QUALITY },
  { "link_bound_column", SL_LINK_SORT_BOUND },
  { "link_offset_column", SL_LINK_SORT_OFFSET },
  { "link_drift_column", SL_LINK_SORT_SLOPE },
  { "link_tree_column", SL_LINK_SORT_IN_TREE },
  { "link_matches_column", SL_LINK_SORT_MATCHES },
  { "link_accuracy_column", SL_LINK_SORT_ACCURACY },
  { "link_band_column", SL_LINK_SORT_BAND },
  { "link_accurate_column", SL_LINK_SORT_ACCURATE_PACKETS },
  { "link_hull_column", SL_LINK_SORT_HULL_POINTS },
  { "link_inversions_column", SL_LINK_SORT_INVERSIONS },
  { "link_last_change_column", SL_LINK_SORT_LAST_CHANGE },
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
 * action, as the link table's list does. */
static void
scroll_to (GtkWidget *view,
           guint      position)
{
  if (SL_IS_ROW_TABLE (view))
    view = GTK_WIDGET (sl_row_table_get_list (SL_ROW_TABLE (view)));
  if (GTK_IS_LIST_VIEW (view))
    {
      gtk_widget_activate_action (view, "list.scroll-to-item", "u", position);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (view); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      {
        gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
        return;
      }
}

/* GTK's list views keep the item of the first row shown in view when their
 * model changes: a reorder that moved it, or rows sorted in before it,
 * took the view down with it, and a 100-host folder's Links table opened
 * a quarter of the way down. A table at its top stays there (its first
 * rows are what a sorted table is for); a table the user has scrolled
 * keeps its rows in view. The adjustment still holds the last layout's
 * place: the view moves its anchor now and lays out later. */
static void
keep_at_top (GtkWidget  *view,
             GListModel *model)
{
  GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));

  if (adj != NULL && gtk_adjustment_get_value (adj) <= gtk_adjustment_get_lower (adj) &&
      model != NULL && g_list_model_get_n_items (model) > 0)
    scroll_to (view, 0);
}

static gboolean
reveal_tick_cb (GtkWidget     *view,
                GdkFrameClock *clock,
                gpointer       data)
{
  Reveal *r = data;
  GListModel *model = gtk_slice_list_model_get_model (r->slice);
  guint n = model != NULL ? g_list_model_get_n_items (model) : 0;
  guint size = gtk_slice_list_model_get_size (r->slice);

  size = size + REVEAL_STEP >= REVEAL_ALL ? G_MAXUINT : size + REVEAL_STEP;
  gtk_slice_list_model_set_size (r->slice, size);
  if (size < n)
    return G_SOURCE_CONTINUE;
  r->tick_id = 0;
  return G_SOURCE_REMOVE;
}

static void
reveal_restart (Reveal *r)
{
  if (r->tick_id != 0)
    gtk_widget_remove_tick_callback (r->view, r->tick_id);
  r->tick_id = 0;
  gtk_slice_list_model_set_size (r->slice, REVEAL_STEP);
}

/* After the slice's model changed (its handler runs after the slice's). */
static void
reveal_check (Reveal *r)
{
  GListModel *model = gtk_slice_list_model_get_model (r->slice);
  guint n = model != NULL ? g_list_model_get_n_items (model) : 0;

  if (n == 0)
    reveal_restart (r);
  else if (n > gtk_slice_list_model_get_size (r->slice) && r->tick_id == 0)
    r->tick_id = gtk_widget_add_tick_callback (r->view, reveal_tick_cb, r, NULL);
}

static void
reveal_watch (Reveal *r)
{
  GListModel *model = gtk_slice_list_model_get_model (r->slice);

  g_clear_signal_handler (&r->changed_id, r->watched);
  r->watched = model;
  if (model != NULL)
    r->changed_id = g_signal_connect_swapped (model, "items-changed", G_CALLBACK (reveal_check), r);
}

/* The data a table shows: a sorted table's sort model keeps its place
 * and takes @model; the change log's slice takes it directly. */
static void
reveal_set_model (Reveal     *r,
                  GListModel *model)
{
  GListModel *under = gtk_slice_list_model_get_model (r->slice);

  reveal_restart (r);
  if (GTK_IS_SORT_LIST_MODEL (under))
    gtk_sort_list_model_set_model (GTK_SORT_LIST_MODEL (under), model);
  else
    {
      gtk_slice_list_model_set_model (r->slice, model);
      reveal_watch (r);
    }
  reveal_check (r);
}

static GListModel *
reveal_get_model (Reveal *r)
{
  GListModel *under = gtk_slice_list_model_get_model (r->slice);

  if (GTK_IS_SORT_LIST_MODEL (under))
    return gtk_sort_list_model_get_model (GTK_SORT_LIST_MODEL (under));
  return under;
}

static void
reveal_init (Reveal            *r,
             GtkSliceListModel *slice,
             GtkWidget         *view)
{
  r->slice = slice;
  r->view = view;
  gtk_slice_list_model_set_size (slice, REVEAL_STEP);
  reveal_watch (r);
}

static void
reveal_clear (Reveal *r)
{
  if (r->tick_id != 0)
    gtk_widget_remove_tick_callback (r->view, r->tick_id);
  r->tick_id = 0;
  g_clear_signal_handler (&r->changed_id, r->watched);
  r->watched = NULL;
}

/* @text with each space between a number and the word after it (its
 * unit: "±77.97 µs", "670.0 ppm") made a no-break space, so that a
 * wrapped label never puts a unit on the line after its number. */
static char *
glue_units (const char *text)
{
  GString *out;

  if (text == NULL)
    return NULL;
  out = g_string_sized_new (strlen (text) + 16);
  for (const char *c = text; *c != '\0'; c++)
    {
      if (*c == ' ' && c > text && g_ascii_isdigit (c[-1]) &&
          g_unichar_isalpha (g_utf8_get_char_validated (c + 1, -1)))
        g_string_append (out, "\u00a0");
      else
        g_string_append_c (out, *c);
    }
  return g_string_free (out, FALSE);
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
      g_autofree char *text = sl_session_dup_link_diagnosis (self->session, link);

      diagnosis = glue_units (text);
    }
  else
    title = g_strdup (_("Select a link in the graph or the link table to see its hull plot"));
  if (host != NULL)
    {
      g_autofree char *text = sl_session_dup_host_diagnosis (self->session, host);

      host_diagnosis = glue_units (text);
    }

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
  gint64 s0, s1;
  SlTransform inv;

  if (a == NULL || sl_time_span_is_empty (*sl_session_get_selected_span (self->session)))
    {
      sl_link_plot_set_range (self->hull_plot, NAN, NAN);
      return;
    }
  s0 = sl_session_get_selected_span (self->session)->begin;
  s1 = sl_session_get_selected_span (self->session)->end;
  if (sl_session_get_synchronized (self->session))
    {
      sl_transform_invert (&sl_host_item_get_info (a)->to_reference, &inv);
      s0 = sl_transform_apply (&inv, s0);
      s1 = sl_transform_apply (&inv, s1);
    }
  sl_link_plot_set_range (self->hull_plot, (double) (s0 - plot->x0) / 1e9, (double) (s1 - plot->x0) / 1e9);
}

static void
set_empty (GtkLabel   *label,
           GListModel *model,
           const char *text)
{
  gboolean empty = model == NULL || g_list_model_get_n_items (model) == 0;

  gtk_widget_set_visible (GTK_WIDGET (label), empty);
  if (empty)
    gtk_label_set_text (label, text);
}

/* The Live column, for the hosts of a live session (its cells' tooltip:
 * the whole status). */
static void
update_live_column (SlQualityPanel *self)
{
  GObject *column = gtk_widget_get_template_child (GTK_WIDGET (self), SL_TYPE_QUALITY_PANEL, "host_live_column");
  gboolean live = FALSE;

  for (SlHostLive l = SL_HOST_LIVE_CONNECTING; l < SL_HOST_LIVE_N_STATES && self->session != NULL; l++)
    live |= sl_session_get_n_live_hosts (self->session, l) > 0;
  if (gtk_column_view_column_get_visible (GTK_COLUMN_VIEW_COLUMN (column)) != live)
    gtk_column_view_column_set_visible (GTK_COLUMN_VIEW_COLUMN (column), live);
}

/* What an empty table is waiting for, or what is missing. */
static void
update_empty (SlQualityPanel *self)
{
  SlSessionState state = self->session != NULL ? sl_session_get_state (self->session) : SL_SESSION_STATE_EMPTY;
  guint n_hosts = self->session != NULL ? sl_session_get_n_hosts (self->session) : 0;
  const char *links, *hosts, *changes;
  g_autofree char *fixed_text = NULL;
  const char *fixed_from = NULL;
  guint n_fixed = 0;

  switch (state)
    {
    case SL_SESSION_STATE_EMPTY:
      links = hosts = changes = _("Open the trace folders of hosts that talk to each other over TCP");
      break;
    case SL_SESSION_STATE_LOADING:
    case SL_SESSION_STATE_LIVE:
      links = _("A link appears when a packet sent by one host is matched with its receipt on another");
      hosts = _("Looking for the hosts’ traces…");
      changes = _("Changes of the tree of links and of the references appear here as packets arrive");
      break;
    default:
      /* hosts of a saved-transforms file get no link (their relations are
       * read): an empty table then says so, not that packets are missing
       * (counted in this state only, not at every update while reading) */
      for (guint i = 0; self->session != NULL && i < g_list_model_get_n_items (sl_session_get_hosts (self->session)); i++)
        {
          g_autoptr(SlHostItem) item = g_list_model_get_item (sl_session_get_hosts (self->session), i);
          const SlSnapHost *info = sl_host_item_get_info (item);

          if (info != NULL && info->fixed_from[0] != '\0')
            {
              fixed_from = info->fixed_from;
              n_fixed++;
            }
        }
      if (n_hosts == 0)
        links = _("No host could be read: the Hosts table says why");
      else if (n_hosts < 2)
        links = _("One host only: putting clocks together needs the traces of two or more hosts "
                  "that exchange TCP packets");
      else if (n_fixed > 0 && n_hosts - n_fixed < 2)
        {
          fixed_text = g_strdup_printf (_("The hosts keep the relations saved in %s: no link is estimated "
                                          "between them (their packets still draw the timeline’s messages). "
                                          "The Hosts table says where each host’s clock comes from"),
                                        fixed_from);
          links = fixed_text;
        }
      else
        links = _("No packet sent by one host was found received by another. Each host’s trace "
                  "needs its network events (net_dev_queue and netif_receive_skb): select a host "
                  "in the graph and see Details for the command");
      hosts = _("No trace was found in the input");
      changes = _("The tree of links and the references did not change");
      break;
    }
  set_empty (self->links_empty, G_LIST_MODEL (self->links_selection), links);
  set_empty (self->hosts_empty, self->session != NULL ? sl_session_get_hosts (self->session) : NULL, hosts);
  set_empty (self->changes_empty, self->session != NULL ? sl_session_get_changes (self->session) : NULL, changes);
}

/* The selected host's problems, whole, to select and copy. */
static void
update_host_message (SlQualityPanel *self)
{
  SlHostItem *host = self->session != NULL ? sl_session_get_selected_host (self->session) : NULL;
  const char *status = host != NULL ? sl_host_item_get_status (host) : "";
  g_autofree char *text = NULL;

  if (status[0] == '\0')
    {
      gtk_revealer_set_reveal_child (self->host_message_revealer, FALSE);
      return;
    }
  if (sl_host_item_get_state (host) == SL_HOST_STATE_UNSYNCHRONIZED)
    {
      const SlSnapHost *info = sl_host_item_get_info (host);

      /* the status says "Not synchronized: why" */
      text = g_strdup_printf ("%s: %s", sl_host_item_get_name (host), status);
      if (info->best_effort)
        {
          SlHostItem *ref = sl_session_get_host_item (self->session, info->reference);
          char *more = g_strdup_printf (_("%s\nShown on %s’s clock as a best effort, through a link that "
                                          "gives an estimate but no bound: its times may be off by any amount"),
                                        text, sl_host_item_get_name (ref));

          g_free (text);
          text = more;
        }
    }
  else
    text = g_strdup_printf ("%s (%s): %s", sl_host_item_get_name (host),
                            sl_host_state_to_string (sl_host_item_get_state (host)), status);
  gtk_label_set_text (self->host_message, text);
  gtk_revealer_set_reveal_child (self->host_message_revealer, TRUE);
}

static void
copy_host_message_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  SlQualityPanel *self = SL_QUALITY_PANEL (widget);

  if (gtk_revealer_get_reveal_child (self->host_message_revealer))
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), gtk_label_get_text (self->host_message));
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
        scroll_to (GTK_WIDGET (self->links_table), pos);
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
        scroll_to (GTK_WIDGET (self->hosts_view), pos);
    }
  update_host_message (self);
  update_details (self);
}

static void
session_updated_cb (SlQualityPanel   *self,
                    SlSessionChanges  changes,
                    SlSession        *session)
{
  if (sl_session_get_selected_link (session) != NULL || sl_session_get_selected_host (session) != NULL)
    update_details (self);
  if (sl_session_get_selected_host (session) != NULL)
    update_host_message (self);
  update_empty (self);
  update_live_column (self);
}

/* A link or host selected before its table took it in (new links join
 * the sorted table at its next reorder; a table shows its first items
 * gradually) is selected when it arrives. */
static void
follow_selection (SlQualityPanel     *self,
                  GtkSingleSelection *selection,
                  gpointer            item)
{
  if (self->session != NULL && !self->syncing &&
      gtk_single_selection_get_selected_item (selection) != item)
    {
      self->syncing = TRUE;
      gtk_single_selection_set_selected (selection, position_of (G_LIST_MODEL (selection), item));
      self->syncing = FALSE;
    }
}

/* The sort models sort again with the values as they are now, and move
 * only the rows that are out of place. The host table's values change
 * with the links'. */
static void
session_reorder_cb (SlQualityPanel *self)
{
  GtkSorter *links = gtk_column_view_get_sorter (self->links_view);
  GtkSorter *hosts = gtk_column_view_get_sorter (self->hosts_view);

  if (links != NULL)
    gtk_sorter_changed (links, GTK_SORTER_CHANGE_DIFFERENT);
  if (hosts != NULL && reveal_get_model (&self->reveals[REVEAL_HOSTS]) != NULL)
    gtk_sorter_changed (hosts, GTK_SORTER_CHANGE_DIFFERENT);
}

static void
links_items_changed_cb (SlQualityPanel *self)
{
  keep_at_top (GTK_WIDGET (self->links_table), G_LIST_MODEL (self->links_selection));
  update_empty (self);
  if (self->session != NULL)
    follow_selection (self, self->links_selection, sl_session_get_selected_link (self->session));
}

static void
hosts_items_changed_cb (SlQualityPanel *self)
{
  keep_at_top (GTK_WIDGET (self->hosts_view), G_LIST_MODEL (self->hosts_selection));
  update_empty (self);
  if (self->session != NULL)
    follow_selection (self, self->hosts_selection, sl_session_get_selected_host (self->session));
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
  if (reveal_get_model (&self->reveals[REVEAL_HOSTS]) != hosts)
    {
      reveal_set_model (&self->reveals[REVEAL_HOSTS], hosts);
      if (hosts != NULL)
        session_host_changed_cb (self);
    }
  if (reveal_get_model (&self->reveals[REVEAL_CHANGES]) != changes)
    reveal_set_model (&self->reveals[REVEAL_CHANGES], changes);
}

static void
stack_page_changed_cb (SlQualityPanel *self)
{
  /* the details of something rather than nothing: the worst link */
  if (self->session != NULL && sl_session_get_selected_link (self->session) == NULL &&
      g_strcmp0 (adw_view_stack_get_visible_child_name (self->stack), "details") == 0)
    {
      SlLinkItem *worst = sl_session_find_worst_link (self->session);

      if (worst != NULL)
        sl_session_set_selected_link (self->session, worst);
    }
  sync_models (self);
  update_empty (self);
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
  for (guint i = 0; i < N_REVEALS; i++)
    reveal_clear (&self->reveals[i]);
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
  g_type_ensure (SL_TYPE_ROW_TABLE);
  g_type_ensure (SL_TYPE_LINK_ITEM);
  g_type_ensure (SL_TYPE_HOST_ITEM);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/syncline/Syncline/ui/sl-quality-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, box);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, stack);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, links_table);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, links_view);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, links_selection);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, links_slice);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, hosts_view);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, hosts_selection);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, hosts_slice);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, changes_view);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, changes_slice);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, links_empty);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, hosts_empty);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, changes_empty);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, host_message_revealer);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, host_message);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, details_title);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, diagnosis_label);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, host_diagnosis_label);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, hull_plot);
  gtk_widget_class_bind_template_child (widget_class, SlQualityPanel, band_plot);
  sl_text_cell_bind_columns (widget_class, link_columns, G_N_ELEMENTS (link_columns));
  sl_text_cell_bind_columns (widget_class, text_columns, G_N_ELEMENTS (text_columns));
  gtk_widget_class_bind_template_callback (widget_class, links_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, hosts_selection_changed_cb);

  gtk_widget_class_install_action (widget_class, "panel.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "panel.copy-host-message", NULL, copy_host_message_action);
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
  for (guint i = 0; i < G_N_ELEMENTS (link_columns); i++)
    sl_row_table_add_column (self->links_table,
                             GTK_COLUMN_VIEW_COLUMN (gtk_widget_get_template_child (GTK_WIDGET (self),
                                                                                    SL_TYPE_QUALITY_PANEL,
                                                                                    link_columns[i].column)),
                             &link_columns[i]);
  sl_text_cell_set_factories (GTK_WIDGET (self), SL_TYPE_QUALITY_PANEL, text_columns, G_N_ELEMENTS (text_columns));
  for (guint i = 0; i < G_N_ELEMENTS (link_sorters); i++)
    {
      GObject *column = gtk_widget_get_template_child (GTK_WIDGET (self), SL_TYPE_QUALITY_PANEL, link_sorters[i].column);
      g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (sl_link_item_compare,
                                                                       GUINT_TO_POINTER (link_sorters[i].key),
                                                                       NULL));

      gtk_column_view_column_set_sorter (GTK_COLUMN_VIEW_COLUMN (column), sorter);
    }
  reveal_init (&self->reveals[REVEAL_LINKS], self->links_slice, GTK_WIDGET (self->links_table));
  reveal_init (&self->reveals[REVEAL_HOSTS], self->hosts_slice, GTK_WIDGET (self->hosts_view));
  reveal_init (&self->reveals[REVEAL_CHANGES], self->changes_slice, GTK_WIDGET (self->changes_view));
  g_signal_connect_object (self->stack, "notify::visible-child-name",
                           G_CALLBACK (stack_page_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->links_selection, "items-changed",
                           G_CALLBACK (links_items_changed_cb), self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->hosts_selection, "items-changed",
                           G_CALLBACK (hosts_items_changed_cb), self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
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
      for (guint i = 0; i < N_REVEALS; i++)
        reveal_set_model (&self->reveals[i], NULL);
      g_clear_object (&self->session);
    }
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      reveal_set_model (&self->reveals[REVEAL_LINKS], sl_session_get_links (session));
      g_signal_connect_object (session, "notify::selected-link",
                               G_CALLBACK (session_link_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selected-host",
                               G_CALLBACK (session_host_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "updated",
                               G_CALLBACK (session_updated_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "reorder",
                               G_CALLBACK (session_reorder_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selected-span",
                               G_CALLBACK (update_plot_range), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::plot",
                               G_CALLBACK (update_plot_range), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::synchronized",
                               G_CALLBACK (update_plot_range), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::state",
                               G_CALLBACK (update_empty), self, G_CONNECT_SWAPPED);
      self->hull_binding = g_object_bind_property (session, "plot", self->hull_plot, "plot",
                                                   G_BINDING_SYNC_CREATE);
      self->band_binding = g_object_bind_property (session, "plot", self->band_plot, "plot",
                                                   G_BINDING_SYNC_CREATE);
      /* sorted by bound unless the user picks another column */
      gtk_column_view_sort_by_column (self->links_view,
                                      GTK_COLUMN_VIEW_COLUMN (gtk_widget_get_template_child (GTK_WIDGET (self),
                                                                                             SL_TYPE_QUALITY_PANEL,
                                                                                             "link_bound_column")),
                                      GTK_SORT_ASCENDING);
    }
  sync_models (self);
  update_details (self);
  update_host_message (self);
  update_empty (self);
  update_live_column (self);
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

/* The link table's header: its columns, without rows. */
GtkColumnView *
_sl_quality_panel_get_links_view (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return self->links_view;
}

GtkWidget *
_sl_quality_panel_get_links_table (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return GTK_WIDGET (self->links_table);
}

/* What a table says while it is empty, or NULL when it is not. */
const char *
sl_quality_panel_get_empty_text (SlQualityPanel *self,
                                 const char     *page)
{
  GtkLabel *label;

  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);

  if (g_strcmp0 (page, "links") == 0)
    label = self->links_empty;
  else if (g_strcmp0 (page, "hosts") == 0)
    label = self->hosts_empty;
  else if (g_strcmp0 (page, "changes") == 0)
    label = self->changes_empty;
  else
    return NULL;
  return gtk_widget_get_visible (GTK_WIDGET (label)) ? gtk_label_get_text (label) : NULL;
}

/* The selected host's problems as shown under the host table, or NULL. */
const char *
sl_quality_panel_get_host_message (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);

  if (!gtk_revealer_get_reveal_child (self->host_message_revealer))
    return NULL;
  return gtk_label_get_text (self->host_message);
}

GtkColumnView *
_sl_quality_panel_get_hosts_view (SlQualityPanel *self)
{
  g_return_val_if_fail (SL_IS_QUALITY_PANEL (self), NULL);
  return self->hosts_view;
}
