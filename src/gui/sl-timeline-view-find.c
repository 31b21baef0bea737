/* sl-timeline-view-find.c: events found by name and field values, and
 * going from one to the next
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-text-cell.h"
#include "sl-timeline-view-private.h"

/* find_index of a hit the retention dropped: none shown, and none to show
 * by itself either */
#define FIND_DROPPED (G_MAXUINT - 1)

static const SlTextColumn find_columns[] = {
  { "find_time_column", "time", 0, 22 },
  { "find_local_time_column", "local-time", 0, 22 },
  { "find_host_column", "host", 0, 12 },
  { "find_cpu_column", "cpu", 1, 4 },
  { "find_event_column", "event", 0, 22 },
  { "find_fields_column", "fields", 0, 40 },
};

static void
update_find_label (SlTimelineView *self)
{
  SlSearchList *list = self->search;
  const char *text = sl_search_list_get_text (list);
  g_autofree char *label = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->find_progress), sl_search_list_get_searching (list));
  gtk_progress_bar_set_fraction (self->find_progress, sl_search_list_get_progress (list));
  if (self->find_error != NULL)
    label = g_strdup (self->find_error);
  else if (text == NULL)
    label = g_strdup (_("Type a query in the search field and press Enter: syscall = read, fd = 5, port = 80, "
                        "comm = postgres, event = sched_wakeup, len > 1000"));
  else if (sl_search_list_get_searching (list))
    label = g_strdup_printf (_("Searching for “%s”… %.0f %%"), text, 100 * sl_search_list_get_progress (list));
  else
    {
      guint64 n = sl_search_list_get_n_matches (list);
      guint listed = g_list_model_get_n_items (G_LIST_MODEL (list));
      g_autofree char *count = sl_format_count (n);
      g_autofree char *secs = sl_format_ns (sl_search_list_get_seconds (list) * 1e9);

      if (n == 0)
        label = g_strdup_printf (_("No event matches “%s”"), text);
      else if (n > sl_search_list_get_max_hits (list))
        {
          g_autofree char *max = sl_format_count (sl_search_list_get_max_hits (list));

          label = g_strdup_printf (_("%s events match “%s” (found in %s; the first %s listed)"), count, text, secs,
                                   max);
        }
      else
        label = g_strdup_printf (ngettext ("%s event matches “%s” (found in %s)",
                                           "%s events match “%s” (found in %s)", n), count, text, secs);
      (void) listed;
      if (sl_search_list_get_n_dropped (list) > 0)
        {
          g_autofree char *dropped = sl_format_count (sl_search_list_get_n_dropped (list));
          char *with = g_strdup_printf (_("%s; %s more dropped with the oldest data"), label, dropped);

          g_free (label);
          label = with;
        }
    }
  gtk_label_set_text (self->find_label, label);
  _sl_timeline_view_update_actions (self);
}

/* The list's own scrolling (GtkColumnView has no scroll_to in GTK 4.8):
 * its list view's action */
static void
scroll_list_to (GtkColumnView *view,
                guint          position)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (view)); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      {
        gtk_widget_activate_action (c, "list.scroll-to-item", "u", position);
        return;
      }
}

/* Goes to the @position-th event found: its thread (or CPU) selected and
 * in the middle of the rows, its time in the middle of the span and
 * marked. */
gboolean
sl_timeline_view_show_found (SlTimelineView *self,
                             guint           position)
{
  const SlSearchHit *hit;
  SlEvent e;
  guint row = SL_TIMELINE_NONE;
  gint64 t, start, end;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);

  if (self->timeline == NULL || (hit = sl_search_list_get_hit (self->search, position)) == NULL ||
      !sl_search_list_get_event (self->search, position, &e))
    return FALSE;
  self->find_index = position;
  if (e.tid != 0)
    row = sl_timeline_find_thread (self->timeline, hit->host, e.tid, e.time);
  if (row == SL_TIMELINE_NONE && e.cpu != SL_TIMELINE_NO_CPU)
    row = sl_timeline_find_cpu (self->timeline, hit->host, e.cpu);
  if (row == SL_TIMELINE_NONE)
    row = sl_timeline_get_host_row (self->timeline, hit->host);
  t = sl_timeline_to_view (self->timeline, hit->host, e.time);
  start = _sl_timeline_view_start (self);
  end = _sl_timeline_view_end (self);
  self->has_cursor = TRUE;
  self->cursor_time = t;
  sl_timeline_view_select_row (self, row);
  sl_timeline_view_set_span (self, t - (end - start) / 2, t - (end - start) / 2 + (end - start));
  _sl_timeline_view_center_row (self, row);
  if (position < g_list_model_get_n_items (G_LIST_MODEL (self->search)))
    {
      self->find_selecting = TRUE;
      gtk_single_selection_set_selected (self->find_selection, position);
      scroll_list_to (self->find_view, position);
      self->find_selecting = FALSE;
    }
  _sl_timeline_view_update_actions (self);
  _sl_timeline_view_queue_update (self);
  return TRUE;
}

guint
sl_timeline_view_get_found_index (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), G_MAXUINT);
  return self->find_index == FIND_DROPPED ? G_MAXUINT : self->find_index;
}

SlSearchList *
sl_timeline_view_get_search (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->search;
}

/* Starts a search for events; its results (or why the text is not a
 * query) on the Find page. */
gboolean
sl_timeline_view_find_events (SlTimelineView *self,
                              const char     *text)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  g_clear_pointer (&self->find_error, g_free);
  self->find_index = G_MAXUINT;
  if (!sl_search_list_start (self->search, text, &error))
    self->find_error = g_strdup_printf (_("“%s”: %s"), text, error->message);
  gtk_stack_set_visible_child_name (self->pages, "find");
  update_find_label (self);
  return error == NULL;
}

static void
found_selected_cb (SlTimelineView *self)
{
  guint pos = gtk_single_selection_get_selected (self->find_selection);

  if (!self->find_selecting && pos != GTK_INVALID_LIST_POSITION && pos != self->find_index)
    sl_timeline_view_show_found (self, pos);
}

static void
search_done_cb (SlTimelineView *self)
{
  update_find_label (self);
  /* the first one, once there is one */
  if (!sl_search_list_get_searching (self->search) && self->find_index == G_MAXUINT &&
      g_list_model_get_n_items (G_LIST_MODEL (self->search)) > 0)
    sl_timeline_view_show_found (self, 0);
}

void
_sl_timeline_view_find_step (SlTimelineView *self,
                             int             step)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->search));

  if (n == 0)
    return;
  if (self->find_index >= n)
    sl_timeline_view_show_found (self, step > 0 ? 0 : n - 1);
  else
    sl_timeline_view_show_found (self, (guint) (((gint64) self->find_index + step + n) % n));
}

void
_sl_timeline_view_class_init_find (GtkWidgetClass *widget_class)
{
  sl_text_cell_bind_columns (widget_class, find_columns, G_N_ELEMENTS (find_columns));
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, find_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, find_progress);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, find_view);
}

void
_sl_timeline_view_init_find (SlTimelineView *self)
{
  self->search = sl_search_list_new ();
  self->find_index = G_MAXUINT;
  sl_text_cell_set_factories (GTK_WIDGET (self), SL_TYPE_TIMELINE_VIEW, find_columns, G_N_ELEMENTS (find_columns));
  self->find_selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->search)));
  gtk_single_selection_set_autoselect (self->find_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->find_selection, TRUE);
  gtk_column_view_set_model (self->find_view, GTK_SELECTION_MODEL (self->find_selection));
  g_signal_connect_object (self->find_selection, "notify::selected", G_CALLBACK (found_selected_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search, "notify::progress", G_CALLBACK (update_find_label), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search, "notify::searching", G_CALLBACK (search_done_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search, "notify::n-items", G_CALLBACK (search_done_cb), self,
                           G_CONNECT_SWAPPED);
  update_find_label (self);
}

void
_sl_timeline_view_dispose_find (SlTimelineView *self)
{
  if (self->find_view != NULL)
    gtk_column_view_set_model (self->find_view, NULL);
  g_clear_object (&self->find_selection);
  if (self->search != NULL)
    sl_search_list_set_source (self->search, NULL, NULL, 0);
  g_clear_object (&self->search);
  g_clear_pointer (&self->find_error, g_free);
}

/* A live session's retention dropped the stores' oldest events: their hits
 * leave the Find page; the hit shown keeps its place in the list, or, when
 * it was dropped, is forgotten without the first hit being shown instead
 * (which would move a followed view). */
void
_sl_timeline_view_find_dropped (SlTimelineView *self)
{
  guint pos = self->find_index;

  if (sl_search_list_forget_dropped (self->search, &pos) == 0)
    return;
  self->find_index = pos != G_MAXUINT ? pos : FIND_DROPPED;
  update_find_label (self);
}

/* The models' stores changed (another input, a live host joined) */
void
_sl_timeline_view_find_source (SlTimelineView *self)
{
  g_clear_pointer (&self->find_error, g_free);
  self->find_index = G_MAXUINT;
  self->has_cursor = FALSE;
  sl_search_list_set_source (self->search, self->timeline, self->stores, self->n_stores);
  update_find_label (self);
}
