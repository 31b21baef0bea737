/* sl-timeline-view-state.c: where one is in the timeline, to a session
 * file and back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "sl-timeline-view-private.h"

static char *
host_name (SlTimelineView *self,
           guint           host)
{
  SlTimelineRowInfo hi;

  sl_timeline_get_row_info (self->timeline, sl_timeline_get_host_row (self->timeline, host), &hi);
  return g_strdup (hi.name);
}

/* Counts the changes a session file keeps (not the span: every zoom
 * would count) */
void
_sl_timeline_view_state_changed (SlTimelineView *self)
{
  self->state_serial++;
}

guint64
sl_timeline_view_get_state_serial (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), 0);
  return self->state_serial;
}

void
sl_timeline_view_save_state (SlTimelineView *self,
                             SlSessionFile  *out)
{
  SlTimeSpan sel;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (out != NULL);

  out->synchronized = self->synchronized;
  if (self->timeline == NULL || sl_timeline_get_n_hosts (self->timeline) == 0)
    return;
  /* times on the first host's own clock */
  g_clear_pointer (&out->span_host, g_free);
  out->span_host = host_name (self, 0);
  out->span_start = sl_timeline_from_view (self->timeline, 0, _sl_timeline_view_start (self));
  out->span_end = sl_timeline_from_view (self->timeline, 0, _sl_timeline_view_end (self));
  sel = _sl_timeline_view_selection (self);
  out->selection_start = out->selection_end = 0;
  if (!sl_time_span_is_empty (sel))
    {
      out->selection_start = sl_timeline_from_view (self->timeline, 0, sel.begin);
      out->selection_end = sl_timeline_from_view (self->timeline, 0, sel.end);
    }
  out->filters = self->row_filter;
  g_clear_pointer (&out->tree_host, g_free);
  if (self->tree_pid != 0)
    {
      out->tree_host = host_name (self, self->tree_host);
      out->tree_pid = self->tree_pid;
    }
  g_array_set_size (out->pins, 0);
  for (guint i = 0; i < self->pins->len; i++)
    {
      SlRowRef ref = { 0 };

      sl_row_ref_set (&ref, self->timeline, g_array_index (self->pins, guint, i));
      g_array_append_val (out->pins, ref);
    }
  sl_row_ref_clear (&out->row);
  out->has_row = self->selected_row != SL_TIMELINE_NONE;
  if (out->has_row)
    sl_row_ref_set (&out->row, self->timeline, self->selected_row);
  out->has_message = self->has_msg;
  g_clear_pointer (&out->message_send_host, g_free);
  g_clear_pointer (&out->message_recv_host, g_free);
  if (self->has_msg)
    {
      out->message_send_host = host_name (self, self->msg.send_host);
      out->message_recv_host = host_name (self, self->msg.recv_host);
      out->message_send_time = self->msg.send_time;
      out->message_recv_time = self->msg.recv_time;
    }
  g_array_set_size (out->bookmarks, 0);
  for (guint i = 0; i < sl_timeline_view_get_n_bookmarks (self); i++)
    {
      SlSessionBookmark b = { 0 };
      const char *name;
      guint host;

      sl_timeline_view_get_bookmark (self, i, &name, &host, &b.local);
      b.name = g_strdup (name);
      b.host = host_name (self, host);
      g_array_append_val (out->bookmarks, b);
    }
}

/* What refers to hosts or rows the inputs no longer have is left out. */
void
sl_timeline_view_restore_state (SlTimelineView      *self,
                                const SlSessionFile *in)
{
  guint host;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (in != NULL);

  sl_timeline_view_set_synchronized (self, in->synchronized);
  if (self->timeline == NULL)
    return;
  sl_timeline_view_set_row_filter (self, in->filters);
  host = sl_timeline_find_host_by_name (self->timeline, in->tree_host);
  sl_timeline_view_set_process_tree (self, host, host != SL_TIMELINE_NONE ? in->tree_pid : 0);
  g_array_set_size (self->pins, 0);
  for (guint i = 0; i < in->pins->len; i++)
    {
      guint row = sl_row_ref_find (&g_array_index (in->pins, SlRowRef, i), self->timeline);

      if (row != SL_TIMELINE_NONE)
        sl_timeline_view_set_row_pinned (self, row, TRUE);
    }
  sl_timeline_view_clear_bookmarks (self);
  for (guint i = 0; i < in->bookmarks->len; i++)
    {
      const SlSessionBookmark *b = &g_array_index (in->bookmarks, SlSessionBookmark, i);

      host = sl_timeline_find_host_by_name (self->timeline, b->host);
      if (host != SL_TIMELINE_NONE)
        sl_timeline_view_add_bookmark (self, b->name, host, b->local);
    }
  host = sl_timeline_find_host_by_name (self->timeline, in->span_host);
  if (host != SL_TIMELINE_NONE)
    {
      sl_timeline_view_set_span (self, sl_timeline_to_view (self->timeline, host, in->span_start),
                                 sl_timeline_to_view (self->timeline, host, in->span_end));
      if (in->selection_end > in->selection_start)
        _sl_timeline_view_set_selected_span (self, sl_timeline_to_view (self->timeline, host, in->selection_start),
                                             sl_timeline_to_view (self->timeline, host, in->selection_end));
    }
  if (in->has_row)
    {
      guint row = sl_row_ref_find (&in->row, self->timeline);

      sl_timeline_view_select_row (self, row);
      if (row != SL_TIMELINE_NONE)
        _sl_timeline_view_scroll_to_row (self, row);
    }
  if (in->has_message)
    {
      guint sh = sl_timeline_find_host_by_name (self->timeline, in->message_send_host);
      guint rh = sl_timeline_find_host_by_name (self->timeline, in->message_recv_host);
      SlTimelineArrow a;

      if (sh != SL_TIMELINE_NONE && rh != SL_TIMELINE_NONE &&
          sl_timeline_find_message (self->timeline, sh, rh, in->message_send_time, in->message_recv_time, &a))
        sl_timeline_view_select_message (self, &a);
    }
}
