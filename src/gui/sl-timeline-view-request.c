/* sl-timeline-view-request.c: a request followed across hosts, on one
 * clock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-text-cell.h"
#include "sl-timeline-chain.h"
#include "sl-timeline-view-private.h"

#define MAX_STEPS 256

static const SlTextColumn request_columns[] = {
  { "request_c0", "c0", 1, 3 },
  { "request_c1", "c1", 0, 40 },
  { "request_c2", "c2", 0, 22 },
  { "request_c3", "c3", 1, 10 },
  { "request_c4", "c4", 0, 30 },
  { "request_c5", "c5", 1, 10 },
};

static char *
who (SlTimelineView *self,
     guint           host,
     guint           row)
{
  SlTimelineRowInfo hi, ri;

  sl_timeline_get_row_info (self->timeline, sl_timeline_get_host_row (self->timeline, host), &hi);
  sl_timeline_get_row_info (self->timeline, row, &ri);
  if (ri.kind == SL_TIMELINE_ROW_THREAD || ri.kind == SL_TIMELINE_ROW_PROCESS)
    return g_strdup_printf ("%s %s (%u)", hi.name, ri.name != NULL ? ri.name : "?", ri.tid);
  return g_strdup (hi.name);
}

static void
set_steps (SlTimelineView *self,
           GArray         *steps)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GHashTable) hosts = g_hash_table_new (NULL, NULL);
  gint64 first = G_MAXINT64, last = G_MININT64;

  g_clear_pointer (&self->chain_steps, g_array_unref);
  g_clear_pointer (&self->chain, g_array_unref);
  self->chain_steps = steps;
  if (steps != NULL)
    {
      self->chain = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
      for (guint i = 0; i < steps->len; i++)
        {
          const SlTimelineChainStep *st = &g_array_index (steps, SlTimelineChainStep, i);
          const SlTimelineArrow *m = &st->message;
          gint64 sv = sl_timeline_to_view (self->timeline, m->send_host, m->send_time);
          gint64 rv = sl_timeline_to_view (self->timeline, m->recv_host, m->recv_time);
          g_autofree char *from = who (self, m->send_host, m->send_row);
          g_autofree char *to = who (self, m->recv_host, m->recv_row);
          GStrv row = g_new0 (char *, 7);

          if (st->kind == SL_TIMELINE_CHAIN_HANDOFF)
            {
              g_autofree char *w = who (self, m->send_host, m->send_row);
              g_autofree char *t = who (self, m->recv_host, m->recv_row);
              GStrv hrow = g_new0 (char *, 7);

              hrow[0] = g_strdup_printf ("%u", i + 1);
              hrow[1] = g_strdup_printf (_("%s wakes %s"), w, t);
              hrow[2] = sl_format_clock_time (sv, 9);
              hrow[3] = g_strdup ("");
              hrow[4] = st->expanded ? g_strdup (_("(same host)")) : g_strdup (_("(followed above)"));
              hrow[5] = sl_format_ns ((double) (st->run_end - st->run_start));
              g_ptr_array_add (rows, hrow);
              /* (drawn from the waker's line to the woken's, at its time) */
              g_array_append_val (self->chain, *m);
              continue;
            }
          g_array_append_val (self->chain, *m);
          g_hash_table_add (hosts, GUINT_TO_POINTER (m->send_host + 1));
          g_hash_table_add (hosts, GUINT_TO_POINTER (m->recv_host + 1));
          first = MIN (first, sv);
          last = MAX (last, rv);
          row[0] = g_strdup_printf ("%u", i + 1);
          row[1] = st->kind == SL_TIMELINE_CHAIN_REPLY ? g_strdup_printf (_("%s → %s (the answer)"), from, to)
                                                     : g_strdup_printf ("%s → %s", from, to);
          row[2] = sl_format_clock_time (sv, 9);
          row[3] = sl_format_ns ((double) (rv - sv));
          if (st->woken_row != SL_TIMELINE_NONE)
            {
              g_autofree char *w = who (self, m->recv_host, st->woken_row);
              g_autofree char *after = sl_format_ns ((double) (sl_timeline_to_view (self->timeline, m->recv_host,
                                                                                    st->wakeup_time) - rv));

              row[4] = st->expanded ? g_strdup_printf (_("%s, %s after"), w, after)
                                    : g_strdup_printf (_("%s, %s after (followed above)"), w, after);
              row[5] = sl_format_ns ((double) (st->run_end - st->run_start));
            }
          else
            {
              row[4] = g_strdup (_("no thread woken"));
              row[5] = g_strdup ("");
            }
          g_ptr_array_add (rows, row);
        }
    }
  self->request_updating = TRUE;
  sl_text_list_set_rows (self->request_list, g_steal_pointer (&rows), NULL);
  self->request_updating = FALSE;
  if (steps == NULL)
    gtk_label_set_text (self->request_label, _("Select a message or a thread, then Q follows the request: the "
                                               "thread each message woke and what it sent on, across hosts"));
  else if (steps->len == 0)
    gtk_label_set_text (self->request_label, _("The selected thread sends no message after this time"));
  else
    {
      g_autofree char *dur = sl_format_ns ((double) (last - first));
      g_autofree char *text = g_strdup_printf (ngettext ("%u message across %u hosts, %s from the first send to "
                                                         "the last receive",
                                                         "%u messages across %u hosts, %s from the first send to "
                                                         "the last receive", steps->len),
                                               steps->len, g_hash_table_size (hosts), dur);

      gtk_label_set_text (self->request_label, text);
    }
  _sl_timeline_view_update_actions (self);
  _sl_timeline_view_queue_update (self);
}

/* From the selected message, else from the selected thread's first message
 * after the time marked, the selection's start or the span's start.
 * Returns the messages followed. */
guint
sl_timeline_view_follow_request (SlTimelineView *self)
{
  GArray *steps = NULL;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), 0);

  if (self->timeline == NULL)
    return 0;
  if (self->has_msg)
    steps = sl_timeline_follow_message (self->timeline, &self->msg, MAX_STEPS);
  else if (self->selected_row != SL_TIMELINE_NONE)
    {
      SlTimelineRowInfo ri;
      gint64 t = _sl_timeline_view_start (self);
      SlTimeSpan sel = _sl_timeline_view_selection (self);

      if (self->has_cursor)
        t = self->cursor_time;
      else if (!sl_time_span_is_empty (sel))
        t = sel.begin;
      sl_timeline_get_row_info (self->timeline, self->selected_row, &ri);
      if (ri.kind == SL_TIMELINE_ROW_THREAD || ri.kind == SL_TIMELINE_ROW_PROCESS)
        steps = sl_timeline_follow_thread (self->timeline, self->selected_row,
                                           sl_timeline_from_view (self->timeline, ri.host, t), MAX_STEPS);
    }
  if (steps == NULL)
    return 0;
  set_steps (self, steps);
  gtk_stack_set_visible_child_name (self->pages, "request");
  return steps->len;
}

void
sl_timeline_view_clear_request (SlTimelineView *self)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (self->chain_steps != NULL)
    set_steps (self, NULL);
}

const GArray *
sl_timeline_view_get_request (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->chain_steps;
}

SlTextList *
sl_timeline_view_get_request_list (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->request_list;
}

/* The request's messages, the threads they woke (a dot) and how long each
 * ran then (a band on its line), drawn over the rest */
void
_sl_timeline_view_draw_request (SlTimelineView *self,
                                cairo_t        *cr,
                                int             scroll)
{
  double r = ((SL_TIMELINE_RGB_REQUEST >> 16) & 0xff) / 255.0, g = ((SL_TIMELINE_RGB_REQUEST >> 8) & 0xff) / 255.0,
         b = (SL_TIMELINE_RGB_REQUEST & 0xff) / 255.0;

  if (self->chain_steps == NULL || self->timeline == NULL)
    return;
  cairo_save (cr);
  for (guint i = 0; i < self->chain_steps->len; i++)
    {
      const SlTimelineChainStep *st = &g_array_index (self->chain_steps, SlTimelineChainStep, i);
      guint host = st->message.recv_host;
      double y, x0, x1;

      if (st->woken_row == SL_TIMELINE_NONE || !st->expanded)
        continue;
      y = _sl_timeline_view_row_center (self, st->woken_row, scroll);
      if (isnan (y))
        continue;
      x0 = sl_timeline_view_host_time_to_x (self, host, st->run_start) - SL_TLV_LABEL_W;
      x1 = sl_timeline_view_host_time_to_x (self, host, st->run_end) - SL_TLV_LABEL_W;
      cairo_set_source_rgba (cr, r, g, b, 0.3);
      cairo_rectangle (cr, x0, y - 6, MAX (x1 - x0, 1), 12);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, r, g, b, 1);
      cairo_arc (cr, sl_timeline_view_host_time_to_x (self, host, st->wakeup_time) - SL_TLV_LABEL_W, y, 3.5, 0,
                 2 * G_PI);
      cairo_fill (cr);
    }
  cairo_set_source_rgba (cr, r, g, b, 1);
  cairo_set_line_width (cr, 2.5);
  for (guint i = 0; i < self->chain->len; i++)
    {
      SlTlvSegment seg[2];

      if (_sl_timeline_view_arrow_segments (self, &g_array_index (self->chain, SlTimelineArrow, i), scroll, FALSE,
                                            seg) == 0)
        continue;
      cairo_move_to (cr, seg[0].x0, seg[0].y0);
      cairo_line_to (cr, seg[0].x1, seg[0].y1);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
request_selected_cb (SlTimelineView *self)
{
  guint pos = gtk_single_selection_get_selected (self->request_selection);

  if (pos == GTK_INVALID_LIST_POSITION || self->chain == NULL || pos >= self->chain->len || self->request_updating)
    return;
  /* that message, its send end in the middle */
  {
    SlTimelineArrow m = g_array_index (self->chain, SlTimelineArrow, pos);
    gint64 t = sl_timeline_to_view (self->timeline, m.send_host, m.send_time);
    gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);

    self->has_msg = TRUE;
    self->msg = m;
    self->msg_end = 0;
    sl_timeline_view_set_span (self, t - (end - start) / 2, t - (end - start) / 2 + (end - start));
    _sl_timeline_view_center_row (self, m.send_row);
    _sl_timeline_view_queue_update (self);
  }
}

void
_sl_timeline_view_class_init_request (GtkWidgetClass *widget_class)
{
  sl_text_cell_bind_columns (widget_class, request_columns, G_N_ELEMENTS (request_columns));
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, request_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, request_view);
}

void
_sl_timeline_view_init_request (SlTimelineView *self)
{
  self->request_list = sl_text_list_new ();
  sl_text_cell_set_factories (GTK_WIDGET (self), SL_TYPE_TIMELINE_VIEW, request_columns,
                              G_N_ELEMENTS (request_columns));
  self->request_selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->request_list)));
  gtk_single_selection_set_autoselect (self->request_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->request_selection, TRUE);
  gtk_column_view_set_model (self->request_view, GTK_SELECTION_MODEL (self->request_selection));
  g_signal_connect_object (self->request_selection, "notify::selected", G_CALLBACK (request_selected_cb), self,
                           G_CONNECT_SWAPPED);
  set_steps (self, NULL);
}

void
_sl_timeline_view_dispose_request (SlTimelineView *self)
{
  if (self->request_view != NULL)
    gtk_column_view_set_model (self->request_view, NULL);
  g_clear_object (&self->request_selection);
  g_clear_object (&self->request_list);
  g_clear_pointer (&self->chain_steps, g_array_unref);
  g_clear_pointer (&self->chain, g_array_unref);
}
