/* sl-timeline-view-events.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The selected row's events (the Events page), the message filters'
 * host pairs and connections, the search.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sl-compare.h"
#include "sl-format.h"
#include "sl-timeline-view-private.h"

#define EVENTS_DELAY_MS 150

static gboolean
events_timeout_cb (gpointer data)
{
  SlTimelineView *self = data;

  self->events_id = 0;
  _sl_timeline_view_update_events (self);
  return G_SOURCE_REMOVE;
}

/* The Events page shown again: what changed while it was hidden */
void
_sl_timeline_view_events_page_cb (SlTimelineView *self)
{
  if (self->events_stale && g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "events") == 0)
    _sl_timeline_view_update_events (self);
}

void
_sl_timeline_view_queue_events (SlTimelineView *self)
{
  if (self->selected_row == SL_TIMELINE_NONE)
    return;
  g_clear_handle_id (&self->events_id, g_source_remove);
  self->events_id = g_timeout_add (EVENTS_DELAY_MS, events_timeout_cb, self);
}

void
_sl_timeline_view_rebuild_filters (SlTimelineView *self)
{
  g_autoptr(GArray) probe = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  g_autoptr(GHashTable) lanes = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint n;

  g_array_set_size (self->pairs, 0);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->pair_list));
  g_ptr_array_add (labels, g_strdup (_("All host pairs")));
  self->n_lanes = 0;
  if (self->timeline != NULL)
    {
      /* one column: one arrow per lane (ordered host pair) is enough */
      sl_timeline_query_arrows (self->timeline, G_MININT64 / 4, G_MAXINT64 / 4, 1, SL_TIMELINE_NONE,
                                SL_TIMELINE_NONE, SL_TIMELINE_NONE, probe);
      for (guint i = 0; i < probe->len; i++)
        {
          const SlTimelineArrow *a = &g_array_index (probe, SlTimelineArrow, i);
          /* host indices are below 65535 */
          gsize lane = ((gsize) a->send_host << 16 | a->recv_host) + 1;
          gint64 pk = (gint64) _sl_timeline_view_pair_key (a->send_host, a->recv_host);
          gsize pk_small = ((gsize) MIN (a->send_host, a->recv_host) << 16 | MAX (a->send_host, a->recv_host)) + 1;

          g_hash_table_add (lanes, GSIZE_TO_POINTER (lane));
          if (!g_hash_table_contains (seen, GSIZE_TO_POINTER (pk_small)))
            {
              g_hash_table_add (seen, GSIZE_TO_POINTER (pk_small));
              g_array_append_val (keys, pk);
            }
        }
      self->n_lanes = g_hash_table_size (lanes);
      g_array_sort (keys, sl_compare_gint64);
      for (guint i = 0; i < keys->len; i++)
        {
          guint64 k = (guint64) g_array_index (keys, gint64, i);
          guint pair[2] = { (guint) (k >> 32), (guint) (k & 0xffffffff) };
          SlTimelineRowInfo a, b;

          sl_timeline_get_row_info (self->timeline, sl_timeline_get_host_row (self->timeline, pair[0]), &a);
          sl_timeline_get_row_info (self->timeline, sl_timeline_get_host_row (self->timeline, pair[1]), &b);
          g_array_append_vals (self->pairs, pair, 2);
          g_ptr_array_add (labels, g_strdup_printf ("%s ↔ %s", a.name, b.name));
        }
    }
  g_ptr_array_add (labels, NULL);
  self->filter_a = self->filter_b = self->filter_conn = SL_TIMELINE_NONE;
  gtk_string_list_splice (self->pair_list, 0, n, (const char * const *) labels->pdata);
  gtk_drop_down_set_selected (self->pair_dropdown, 0);
}

void
_sl_timeline_view_rebuild_connections (SlTimelineView *self)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->connection_list));

  g_array_set_size (self->pair_conns, 0);
  g_ptr_array_add (labels, g_strdup (_("All connections")));
  if (self->timeline != NULL && self->filter_a != SL_TIMELINE_NONE)
    for (guint c = 0; c < sl_timeline_get_n_connections (self->timeline); c++)
      {
        SlTimelineConnection conn;
        char a[64], b[64];

        sl_timeline_get_connection (self->timeline, c, &conn);
        if (_sl_timeline_view_pair_key (conn.host_a, conn.host_b) != _sl_timeline_view_pair_key (self->filter_a, self->filter_b))
          continue;
        if (conn.family == 4)
          {
            g_snprintf (a, sizeof a, "%u.%u.%u.%u:%u", conn.addr_a[0], conn.addr_a[1], conn.addr_a[2], conn.addr_a[3],
                        conn.port_a);
            g_snprintf (b, sizeof b, "%u.%u.%u.%u:%u", conn.addr_b[0], conn.addr_b[1], conn.addr_b[2], conn.addr_b[3],
                        conn.port_b);
          }
        else
          {
            g_snprintf (a, sizeof a, ":%u", conn.port_a);
            g_snprintf (b, sizeof b, ":%u", conn.port_b);
          }
        g_array_append_val (self->pair_conns, c);
        g_ptr_array_add (labels, g_strdup_printf ("%s → %s (%" G_GUINT64_FORMAT ")", a, b, conn.n_arrows));
      }
  g_ptr_array_add (labels, NULL);
  gtk_string_list_splice (self->connection_list, 0, n, (const char * const *) labels->pdata);
  gtk_drop_down_set_selected (self->connection_dropdown, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->connection_dropdown), self->pair_conns->len > 0);
}

void
_sl_timeline_view_update_events_label (SlTimelineView *self)
{
  guint row = sl_event_list_get_row (self->events);
  g_autofree char *count = NULL;
  g_autofree char *text = NULL;
  SlTimelineRowInfo ri;
  const char *where;

  if (self->timeline == NULL || row == SL_TIMELINE_NONE || row >= sl_timeline_get_n_rows (self->timeline))
    {
      gtk_label_set_text (self->events_label, _("Select a thread, a process or a CPU to see its events"));
      return;
    }
  sl_timeline_get_row_info (self->timeline, row, &ri);
  count = sl_format_count (g_list_model_get_n_items (G_LIST_MODEL (self->events)));
  where = self->events_selected ? _("selected time range") : _("visible time range");
  if (sl_event_list_get_loading (self->events))
    text = g_strdup_printf (_("%s events of %s (%u) in the %s so far…"), count, ri.name, ri.tid, where);
  else if (sl_event_list_get_truncated (self->events))
    text = g_strdup_printf (_("The first %s events of %s (%u) in the %s"), count, ri.name, ri.tid, where);
  else
    text = g_strdup_printf (_("%s events of %s (%u) in the %s"), count, ri.name, ri.tid, where);
  gtk_label_set_text (self->events_label, text);
}

void
_sl_timeline_view_update_events (SlTimelineView *self)
{
  gint64 start, end;
  SlTimeSpan sel;
  SlTimelineRowInfo ri;

  g_clear_handle_id (&self->events_id, g_source_remove);
  /* Not while another page is shown: a GTK 4.8 table keeps up to 200 rows
   * of cells, which take tens of milliseconds to make or undo, for nobody
   * to see (a search going from one thread to the next, say). The page's
   * showing brings the list up to date. */
  if (self->pages != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "events") != 0)
    {
      self->events_stale = TRUE;
      return;
    }
  self->events_stale = FALSE;
  if (self->timeline == NULL || self->selected_row == SL_TIMELINE_NONE ||
      self->selected_row >= sl_timeline_get_n_rows (self->timeline))
    {
      sl_event_list_set_row (self->events, SL_TIMELINE_NONE, 0, 0);
      _sl_timeline_view_update_events_label (self);
      return;
    }
  start = _sl_timeline_view_start (self);
  end = _sl_timeline_view_end (self);
  sel = _sl_timeline_view_selection (self);
  self->events_selected = !sl_time_span_is_empty (sel);
  if (self->events_selected)
    {
      start = sel.begin;
      end = sel.end;
    }
  sl_timeline_get_row_info (self->timeline, self->selected_row, &ri);
  sl_event_list_set_row (self->events, self->selected_row, sl_timeline_from_view (self->timeline, ri.host, start),
                         sl_timeline_from_view (self->timeline, ri.host, end) + 1);
  _sl_timeline_view_update_events_label (self);
}

void
_sl_timeline_view_set_selected_span (SlTimelineView *self,
                                     gint64          start,
                                     gint64          end)
{
  if (self->session != NULL)
    sl_session_set_selected_span (self->session, &(SlTimeSpan) { start, end });
  _sl_timeline_view_queue_events (self);
  _sl_timeline_view_update_status (self);
  _sl_timeline_view_state_changed (self);
  _sl_timeline_view_queue_stats (self);
  gtk_widget_queue_draw (self->canvas);
}

guint
sl_timeline_view_search (SlTimelineView *self,
                         const char     *text)
{
  g_autoptr(GArray) rows = NULL;
  guint found = SL_TIMELINE_NONE, first = SL_TIMELINE_NONE;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), SL_TIMELINE_NONE);

  if (self->timeline == NULL || text == NULL || text[0] == '\0')
    return SL_TIMELINE_NONE;
  rows = sl_timeline_find_rows (self->timeline, text);
  for (guint i = 0; i < rows->len; i++)
    {
      guint r = g_array_index (rows, guint, i);
      SlTimelineRowInfo ri;

      sl_timeline_get_row_info (self->timeline, r, &ri);
      if (ri.kind != SL_TIMELINE_ROW_THREAD && ri.kind != SL_TIMELINE_ROW_PROCESS)
        continue;
      if (first == SL_TIMELINE_NONE || r < first)
        first = r;
      if ((self->selected_row == SL_TIMELINE_NONE || r > self->selected_row) &&
          (found == SL_TIMELINE_NONE || r < found))
        found = r;
    }
  if (found == SL_TIMELINE_NONE)
    found = first;
  if (found == SL_TIMELINE_NONE)
    return SL_TIMELINE_NONE;
  _sl_timeline_view_reveal_row (self, found);
  sl_timeline_view_select_row (self, found);
  _sl_timeline_view_scroll_to_row (self, found);
  return found;
}

void
sl_timeline_view_set_arrow_filter (SlTimelineView *self,
                                   guint           host_a,
                                   guint           host_b,
                                   guint           connection)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  self->filter_a = host_a;
  self->filter_b = host_a != SL_TIMELINE_NONE ? host_b : SL_TIMELINE_NONE;
  self->filter_conn = connection;
  self->arrow_version++;
  _sl_timeline_view_queue_update (self);
}
