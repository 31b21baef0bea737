/* sl-timeline-view-stats.c: a selection measured: its length and events,
 * time per state, message latencies
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-text-cell.h"
#include "sl-timeline-stats.h"
#include "sl-timeline-view-private.h"

#define STATS_DELAY_MS 200

static const SlTimelineState shown_states[] = {
  SL_TIMELINE_STATE_USER, SL_TIMELINE_STATE_SYSCALL, SL_TIMELINE_STATE_IRQ, SL_TIMELINE_STATE_SOFTIRQ,
  SL_TIMELINE_STATE_RUNNABLE, SL_TIMELINE_STATE_BLOCKED, SL_TIMELINE_STATE_UNKNOWN,
};

static const SlTextColumn stats_columns[] = {
  { "states_c0", "c0", 0, 20 },
  { "states_c1", "c1", 0, 12 },
  { "states_c2", "c2", 1, 10 },
  { "states_c3", "c3", 1, 10 },
  { "states_c4", "c4", 1, 10 },
  { "states_c5", "c5", 1, 10 },
  { "states_c6", "c6", 1, 10 },
  { "states_c7", "c7", 1, 10 },
  { "states_c8", "c8", 1, 10 },
  { "states_c9", "c9", 1, 10 },
  { "latency_c0", "c0", 0, 24 },
  { "latency_c1", "c1", 1, 8 },
  { "latency_c2", "c2", 1, 10 },
  { "latency_c3", "c3", 1, 10 },
  { "latency_c4", "c4", 1, 10 },
  { "latency_c5", "c5", 1, 10 },
  { "latency_c6", "c6", 0, SL_TIMELINE_LATENCY_BINS },
};

/* The span measured: the selection, else what is shown */
static gboolean
measured_span (SlTimelineView *self,
               gint64         *t0,
               gint64         *t1)
{
  SlTimeSpan sel = _sl_timeline_view_selection (self);

  if (!sl_time_span_is_empty (sel))
    {
      *t0 = sel.begin;
      *t1 = sel.end;
      return TRUE;
    }
  *t0 = _sl_timeline_view_start (self);
  *t1 = _sl_timeline_view_end (self);
  return FALSE;
}

static void
lock (SlTimelineView *self)
{
  if (self->from_session && self->session != NULL)
    sl_session_lock_events (self->session);
}

static void
unlock (SlTimelineView *self)
{
  if (self->from_session && self->session != NULL)
    sl_session_unlock_events (self->session);
}

/* The status line's parts about the selection, "12 345 events selected"
 * and "selection Δt 1.234 ms" (two parts: a narrow line keeps the second
 * alone); FALSE without a selection. */
gboolean
_sl_timeline_view_selection_parts (SlTimelineView  *self,
                                   char           **events,
                                   char           **duration)
{
  gint64 t0, t1;
  guint64 n;
  g_autofree char *dt = NULL;
  g_autofree char *count = NULL;

  if (self->timeline == NULL || !measured_span (self, &t0, &t1))
    return FALSE;
  lock (self);
  n = sl_timeline_count_events (self->timeline, t0, t1);
  unlock (self);
  dt = sl_format_ns ((double) (t1 - t0));
  count = sl_format_count (n);
  *events = g_strdup_printf (ngettext ("%s event selected", "%s events selected", n), count);
  *duration = g_strdup_printf (_("selection Δt %s"), dt);
  return TRUE;
}

/* The bins as a line of block characters, the fullest one whole */
static char *
sparkline (const SlTimelineLatencyStat *st)
{
  static const char *const blocks[] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
  GString *s = g_string_new (NULL);
  guint64 top = 1;

  for (guint k = 0; k < SL_TIMELINE_LATENCY_BINS; k++)
    top = MAX (top, st->bins[k]);
  for (guint k = 0; k < SL_TIMELINE_LATENCY_BINS; k++)
    g_string_append (s, blocks[st->bins[k] == 0 ? 0 : 1 + (st->bins[k] * 7 + top - 1) / top]);
  return g_string_free (s, FALSE);
}

void
_sl_timeline_view_update_stats (SlTimelineView *self)
{
  g_autoptr(GPtrArray) state_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GPtrArray) link_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) states = NULL;
  g_autoptr(GArray) lat = NULL;
  g_autofree char *label = NULL, *dt = NULL;
  gboolean selected;
  gint64 t0, t1;
  SlTimelineRowKind kind;

  g_clear_handle_id (&self->stats_id, g_source_remove);
  self->stats_stale = FALSE;
  if (self->timeline == NULL)
    {
      sl_text_list_set_rows (self->state_stats, g_steal_pointer (&state_rows), NULL);
      sl_text_list_set_rows (self->latency_stats, g_steal_pointer (&link_rows), NULL);
      gtk_label_set_text (self->stats_label, "");
      return;
    }
  selected = measured_span (self, &t0, &t1);
  kind = gtk_drop_down_get_selected (self->stats_kind) == 1 ? SL_TIMELINE_ROW_PROCESS : SL_TIMELINE_ROW_THREAD;
  states = sl_timeline_dup_state_stats (self->timeline, t0, t1, kind);
  lat = sl_timeline_dup_latency_stats (self->timeline, t0, t1);
  self->stats_t0 = t0;
  self->stats_t1 = t1;

  for (guint i = 0; i < states->len; i++)
    {
      const SlTimelineStateStat *st = &g_array_index (states, SlTimelineStateStat, i);
      SlTimelineRowInfo ri;
      GStrv row = g_new0 (char *, 3 + G_N_ELEMENTS (shown_states) + 1);

      sl_timeline_get_row_info (self->timeline, st->row, &ri);
      row[0] = g_strdup_printf (kind == SL_TIMELINE_ROW_PROCESS ? "%s [%u]" : "%s (%u)",
                                ri.name != NULL ? ri.name : "?", ri.tid);
      row[1] = _sl_timeline_view_dup_host_name (self, ri.host);
      row[2] = sl_format_ns ((double) st->run_ns);
      for (guint k = 0; k < G_N_ELEMENTS (shown_states); k++)
        row[3 + k] = st->ns[shown_states[k]] > 0 ? sl_format_ns ((double) st->ns[shown_states[k]]) : g_strdup ("");
      g_ptr_array_add (state_rows, row);
      g_array_append_val (ids, st->row);
    }
  for (guint i = 0; i < lat->len; i++)
    {
      const SlTimelineLatencyStat *st = &g_array_index (lat, SlTimelineLatencyStat, i);
      g_autofree char *a = _sl_timeline_view_dup_host_name (self, st->send_host);
      g_autofree char *b = _sl_timeline_view_dup_host_name (self, st->recv_host);
      GStrv row = g_new0 (char *, 8);

      row[0] = g_strdup_printf ("%s → %s", a, b);
      row[1] = sl_format_count (st->count);
      row[2] = sl_format_ns ((double) st->min_ns);
      row[3] = sl_format_ns ((double) st->median_ns);
      row[4] = sl_format_ns ((double) st->p99_ns);
      row[5] = sl_format_ns ((double) st->max_ns);
      row[6] = sparkline (st);
      g_ptr_array_add (link_rows, row);
    }
  sl_text_list_set_rows (self->state_stats, g_steal_pointer (&state_rows), g_steal_pointer (&ids));
  sl_text_list_set_rows (self->latency_stats, g_steal_pointer (&link_rows), NULL);
  dt = sl_format_ns ((double) (t1 - t0));
  label = g_strdup_printf (selected ? _("The selection (Δt %s): time per state, and the latency of the messages "
                                        "sent in it (median and p99 by nearest rank)")
                                    : _("The visible span (%s; select a time range on the ruler to measure it): "
                                        "time per state, and the latency of the messages sent in it"),
                           dt);
  gtk_label_set_text (self->stats_label, label);
}

static gboolean
stats_timeout_cb (gpointer data)
{
  SlTimelineView *self = data;

  self->stats_id = 0;
  _sl_timeline_view_update_stats (self);
  return G_SOURCE_REMOVE;
}

/* The span or the data changed: the statistics are computed again when
 * their page shows, a moment after the last change */
void
_sl_timeline_view_queue_stats (SlTimelineView *self)
{
  self->stats_stale = TRUE;
  if (self->pages == NULL || g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "statistics") != 0)
    return;
  g_clear_handle_id (&self->stats_id, g_source_remove);
  self->stats_id = g_timeout_add (STATS_DELAY_MS, stats_timeout_cb, self);
}

static void
page_changed_cb (SlTimelineView *self)
{
  if (self->stats_stale && g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "statistics") == 0)
    _sl_timeline_view_update_stats (self);
}

static void
stats_kind_cb (SlTimelineView *self)
{
  self->stats_stale = TRUE;
  page_changed_cb (self);
}

SlTextList *
sl_timeline_view_get_state_stats (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->state_stats;
}

SlTextList *
sl_timeline_view_get_latency_stats (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->latency_stats;
}

void
_sl_timeline_view_class_init_stats (GtkWidgetClass *widget_class)
{
  sl_text_cell_bind_columns (widget_class, stats_columns, G_N_ELEMENTS (stats_columns));
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, stats_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, stats_kind);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, states_view);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, latency_view);
  gtk_widget_class_bind_template_callback (widget_class, stats_kind_cb);
}

void
_sl_timeline_view_init_stats (SlTimelineView *self)
{
  self->state_stats = sl_text_list_new ();
  self->latency_stats = sl_text_list_new ();
  sl_text_cell_set_factories (GTK_WIDGET (self), SL_TYPE_TIMELINE_VIEW, stats_columns, G_N_ELEMENTS (stats_columns));
  gtk_column_view_set_model (self->states_view,
                             GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->state_stats)))));
  gtk_column_view_set_model (self->latency_view,
                             GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->latency_stats)))));
  g_signal_connect_object (self->pages, "notify::visible-child", G_CALLBACK (page_changed_cb), self,
                           G_CONNECT_SWAPPED);
  self->stats_stale = TRUE;
}

void
_sl_timeline_view_dispose_stats (SlTimelineView *self)
{
  g_clear_handle_id (&self->stats_id, g_source_remove);
  if (self->states_view != NULL)
    gtk_column_view_set_model (self->states_view, NULL);
  if (self->latency_view != NULL)
    gtk_column_view_set_model (self->latency_view, NULL);
  g_clear_object (&self->state_stats);
  g_clear_object (&self->latency_stats);
}
