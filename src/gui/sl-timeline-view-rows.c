/* sl-timeline-view-rows.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows: which are shown and where (hosts open or closed, pinned,
 * filtered, as a process tree), scrolling, the selected row.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-timeline-view-private.h"

static guint
row_height (guint8 kind)
{
  switch (kind)
    {
    case SL_TIMELINE_ROW_HOST:
      return SL_TLV_HOST_H;
    case SL_TIMELINE_ROW_CPU:
      return SL_TLV_CPU_H;
    default:
      return SL_TLV_ROW_H;
    }
}

static void
push_row (SlTimelineView          *self,
          const SlTimelineRowInfo *ri,
          guint                    row,
          guint8                   depth,
          gboolean                 expandable,
          gboolean                 expanded,
          gboolean                 pinned,
          int                     *y)
{
  SlTlvRow v = { 0 };

  v.row = row;
  v.host = ri->host;
  v.kind = (guint8) ri->kind;
  v.depth = depth;
  v.expandable = expandable;
  v.expanded = expanded;
  v.pinned = pinned;
  v.y = *y;
  v.h = (int) row_height (v.kind);
  *y += v.h;
  if (row < self->row_vis->len)
    g_array_index (self->row_vis, guint, row) = self->vis->len;
  g_array_append_val (self->vis, v);
}

gboolean
_sl_timeline_view_host_open (SlTimelineView *self,
                             guint           host)
{
  return host >= self->host_open->len || self->host_open->data[host];
}

static gboolean
row_pinned (SlTimelineView *self,
            guint           row)
{
  for (guint i = 0; i < self->pins->len; i++)
    if (g_array_index (self->pins, guint, i) == row)
      return TRUE;
  return FALSE;
}

/* The filters: a thread or process is kept when it passes the flags and,
 * with a process tree chosen, belongs to it. */
static gboolean
row_kept (SlTimelineView          *self,
          guint                    row,
          const SlTimelineRowInfo *ri)
{
  if (ri->kind != SL_TIMELINE_ROW_THREAD && ri->kind != SL_TIMELINE_ROW_PROCESS)
    return TRUE;
  if (self->tree_pids != NULL &&
      (ri->host != self->tree_host || !g_hash_table_contains (self->tree_pids, GUINT_TO_POINTER (ri->pid))))
    return FALSE;
  return self->row_filter == 0 || sl_timeline_row_passes (self->timeline, row, self->row_filter);
}

/* @rows without the CPUs (into @cpus), the rows filtered out and the
 * pinned ones, ordered by activity when asked for. */
static void
keep_rows (SlTimelineView *self,
           GArray         *rows,
           GArray         *cpus)
{
  guint kept = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      guint r = g_array_index (rows, guint, i);
      SlTimelineRowInfo ri;

      sl_timeline_get_row_info (self->timeline, r, &ri);
      if (ri.kind == SL_TIMELINE_ROW_CPU)
        {
          if (cpus != NULL)
            g_array_append_val (cpus, r);
          continue;
        }
      if (!row_kept (self, r, &ri) || row_pinned (self, r))
        continue;
      g_array_index (rows, guint, kept++) = r;
    }
  g_array_set_size (rows, kept);
  if (self->sort_rows)
    sl_timeline_sort_by_activity (self->timeline, rows);
}

static void
refresh_tree (SlTimelineView *self)
{
  g_clear_pointer (&self->tree_pids, g_hash_table_unref);
  if (self->timeline == NULL || self->tree_pid == 0 || self->tree_host >= sl_timeline_get_n_hosts (self->timeline))
    return;
  {
    g_autoptr(GArray) pids = sl_timeline_dup_process_tree (self->timeline, self->tree_host, self->tree_pid);

    self->tree_pids = g_hash_table_new (NULL, NULL);
    for (guint i = 0; i < pids->len; i++)
      g_hash_table_add (self->tree_pids, GUINT_TO_POINTER (g_array_index (pids, guint32, i)));
  }
}

/* Pinned rows on top (they do not scroll), then hosts, their processes
 * (with their other threads below them), threads without a process, and
 * CPUs when asked for; threads that exchanged messages or ran first. */
void
_sl_timeline_view_rebuild_layout (SlTimelineView *self)
{
  guint n_rows = self->timeline != NULL ? sl_timeline_get_n_rows (self->timeline) : 0;
  guint n_hosts = self->timeline != NULL ? sl_timeline_get_n_hosts (self->timeline) : 0;
  int y = 0, page;

  g_array_set_size (self->vis, 0);
  g_array_set_size (self->row_vis, n_rows);
  g_array_set_size (self->row_shown, n_rows);
  for (guint r = 0; r < n_rows; r++)
    {
      g_array_index (self->row_vis, guint, r) = SL_TIMELINE_NONE;
      g_array_index (self->row_shown, guint, r) = ROW_SHOWN_UNKNOWN;
    }
  while (self->host_open->len < n_hosts)
    {
      guint8 open = TRUE;
      g_byte_array_append (self->host_open, &open, 1);
    }
  refresh_tree (self);

  for (guint i = 0; i < self->pins->len; i++)
    {
      guint r = g_array_index (self->pins, guint, i);
      SlTimelineRowInfo ri;

      if (r >= n_rows)
        continue;
      sl_timeline_get_row_info (self->timeline, r, &ri);
      push_row (self, &ri, r, 0, FALSE, FALSE, TRUE, &y);
    }
  self->n_pinned = self->vis->len;
  /* at most half the plot: the rest scrolls */
  self->pinned_h = MIN (y, self->rows_h / 2);
  y = 0;

  for (guint h = 0; h < n_hosts; h++)
    {
      guint hrow = sl_timeline_get_host_row (self->timeline, h);
      g_autoptr(GArray) children = NULL;
      g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));
      SlTimelineRowInfo hi;
      gboolean open = _sl_timeline_view_host_open (self, h);

      if (hrow == SL_TIMELINE_NONE || hrow >= n_rows)
        continue;
      sl_timeline_get_row_info (self->timeline, hrow, &hi);
      push_row (self, &hi, hrow, 0, hi.n_children > 0, open, FALSE, &y);
      if (!open)
        continue;
      children = sl_timeline_dup_children (self->timeline, hrow);
      keep_rows (self, children, cpus);
      for (guint i = 0; i < children->len; i++)
        {
          guint c = g_array_index (children, guint, i);
          SlTimelineRowInfo ci;

          sl_timeline_get_row_info (self->timeline, c, &ci);
          if (ci.kind == SL_TIMELINE_ROW_PROCESS)
            {
              gboolean proc_open = !g_hash_table_contains (self->closed_procs, GUINT_TO_POINTER (c));
              g_autoptr(GArray) threads = sl_timeline_dup_children (self->timeline, c);

              /* the main thread is drawn on its process's row */
              for (guint k = 0; k < threads->len; k++)
                if (g_array_index (threads, guint, k) == ci.thread_row)
                  g_array_remove_index (threads, k--);
              keep_rows (self, threads, NULL);
              push_row (self, &ci, c, 1, threads->len > 0, proc_open, FALSE, &y);
              for (guint k = 0; proc_open && k < threads->len; k++)
                {
                  guint t = g_array_index (threads, guint, k);
                  SlTimelineRowInfo ti;

                  sl_timeline_get_row_info (self->timeline, t, &ti);
                  push_row (self, &ti, t, 2, FALSE, FALSE, FALSE, &y);
                }
            }
          else
            push_row (self, &ci, c, 1, FALSE, FALSE, FALSE, &y);
        }
      if (self->show_cpus)
        for (guint i = 0; i < cpus->len; i++)
          {
            guint c = g_array_index (cpus, guint, i);
            SlTimelineRowInfo ci;

            sl_timeline_get_row_info (self->timeline, c, &ci);
            push_row (self, &ci, c, 1, FALSE, FALSE, FALSE, &y);
          }
    }
  self->n_rows_seen = n_rows;
  self->content_h = y;
  self->layout_version++;
  page = MAX (self->rows_h - self->pinned_h, 1);
  gtk_adjustment_configure (self->vadj, MIN (gtk_adjustment_get_value (self->vadj), MAX (0, y - page)),
                            0, MAX (y, 1), SL_TLV_ROW_H * 3, MAX (page * 0.9, 1), page);
  _sl_timeline_view_update_status (self);
  _sl_timeline_view_queue_update (self);
}

/* The page of the scrolled rows (below the pinned ones). */
static double
scroll_page (SlTimelineView *self)
{
  return MAX (self->rows_h - self->pinned_h, 1);
}

static guint
scrolled_at (SlTimelineView *self,
             double          content_y)
{
  guint lo = self->n_pinned, hi = self->vis->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const SlTlvRow *v = &g_array_index (self->vis, SlTlvRow, mid);

      if (content_y < v->y)
        hi = mid;
      else if (content_y >= v->y + v->h)
        lo = mid + 1;
      else
        return mid;
    }
  return SL_TIMELINE_NONE;
}

/* The scrolled lines on the plot: [first, end) */
void
_sl_timeline_view_scrolled_range (SlTimelineView *self,
                                  int             scroll,
                                  guint          *first,
                                  guint          *end)
{
  guint f = scrolled_at (self, scroll), e;

  if (f == SL_TIMELINE_NONE)
    f = self->vis->len;
  for (e = f; e < self->vis->len; e++)
    if (_sl_tlv_screen_y (self, &g_array_index (self->vis, SlTlvRow, e), scroll) >= self->rows_h)
      break;
  *first = f;
  *end = e;
}

/* The header of the host whose rows are at the top of the scrolled area
 * stays there (pushed up by the next host's): its line and its place. */
gboolean
_sl_timeline_view_sticky_header (SlTimelineView *self,
                                 int             scroll,
                                 guint          *vis_index,
                                 int            *y)
{
  guint f = scrolled_at (self, scroll), hv;
  const SlTlvRow *v;
  int top = self->pinned_h;

  if (f == SL_TIMELINE_NONE || self->timeline == NULL)
    return FALSE;
  v = &g_array_index (self->vis, SlTlvRow, f);
  hv = g_array_index (self->row_vis, guint, sl_timeline_get_host_row (self->timeline, v->host));
  if (hv == SL_TIMELINE_NONE || (hv == f && v->y == scroll))
    return FALSE;
  *vis_index = hv;
  *y = top;
  /* the next host's header pushes it up */
  for (guint i = f + 1; i < self->vis->len; i++)
    {
      const SlTlvRow *n = &g_array_index (self->vis, SlTlvRow, i);
      int ny = _sl_tlv_screen_y (self, n, scroll);

      if (ny >= top + SL_TLV_HOST_H)
        break;
      if (n->kind == SL_TIMELINE_ROW_HOST)
        {
          *y = ny - SL_TLV_HOST_H;
          break;
        }
    }
  return TRUE;
}

/* The line at plot y (0 at the top of the rows). */
guint
_sl_timeline_view_vis_at (SlTimelineView *self,
                          double          y)
{
  int scroll = (int) gtk_adjustment_get_value (self->vadj);
  guint sticky;
  int sy;

  if (y < 0)
    return SL_TIMELINE_NONE;
  if (y < self->pinned_h)
    {
      for (guint i = 0; i < self->n_pinned; i++)
        {
          const SlTlvRow *v = &g_array_index (self->vis, SlTlvRow, i);

          if (y >= v->y && y < v->y + v->h)
            return i;
        }
      return SL_TIMELINE_NONE;
    }
  if (_sl_timeline_view_sticky_header (self, scroll, &sticky, &sy) && y >= sy && y < sy + SL_TLV_HOST_H)
    return sticky;
  return scrolled_at (self, y - self->pinned_h + scroll);
}

/* The line that shows @row: its own, or that of the closed (or hidden)
 * process, host or CPU list it is in; a main thread is on its process's.
 * Remembered per row until the layout changes: messages ask it for both
 * ends of each of up to a thousand messages a frame. */
static guint
vis_for_row (SlTimelineView *self,
             guint           row)
{
  guint r = row, found = SL_TIMELINE_NONE;

  if (self->timeline == NULL || row >= self->row_vis->len)
    return SL_TIMELINE_NONE;
  if (row < self->row_shown->len && g_array_index (self->row_shown, guint, row) != ROW_SHOWN_UNKNOWN)
    return g_array_index (self->row_shown, guint, row);
  for (guint depth = 0; depth < 4 && r < self->row_vis->len; depth++)
    {
      SlTimelineRowInfo ri;

      if (g_array_index (self->row_vis, guint, r) != SL_TIMELINE_NONE)
        {
          found = g_array_index (self->row_vis, guint, r);
          break;
        }
      sl_timeline_get_row_info (self->timeline, r, &ri);
      r = ri.parent;
    }
  if (row < self->row_shown->len)
    g_array_index (self->row_shown, guint, row) = found;
  return found;
}

/* The middle of the line showing @row on the plot, for @scroll; NAN when
 * none. */
double
_sl_timeline_view_row_center (SlTimelineView *self,
                              guint           row,
                              int             scroll)
{
  guint v = row != SL_TIMELINE_NONE ? vis_for_row (self, row) : SL_TIMELINE_NONE;
  const SlTlvRow *r;

  if (v == SL_TIMELINE_NONE)
    return NAN;
  r = &g_array_index (self->vis, SlTlvRow, v);
  return _sl_tlv_screen_y (self, r, scroll) + r->h / 2.0;
}

guint
_sl_timeline_view_selected_vis (SlTimelineView *self)
{
  return vis_for_row (self, self->selected_row);
}

guint
_sl_timeline_view_vis_for_row (SlTimelineView *self,
                               guint           row)
{
  return vis_for_row (self, row);
}

void
_sl_timeline_view_toggle_row (SlTimelineView *self,
                              guint           vis_index)
{
  const SlTlvRow *v;

  if (vis_index >= self->vis->len)
    return;
  v = &g_array_index (self->vis, SlTlvRow, vis_index);
  if (v->kind == SL_TIMELINE_ROW_HOST)
    sl_timeline_view_set_host_expanded (self, v->host, !v->expanded);
  else if (v->kind == SL_TIMELINE_ROW_PROCESS && v->expandable)
    {
      gpointer key = GUINT_TO_POINTER (v->row);

      if (!g_hash_table_remove (self->closed_procs, key))
        g_hash_table_add (self->closed_procs, key);
      _sl_timeline_view_rebuild_layout (self);
    }
}

/* Opens what hides @row (its host, its process) so that it has a line. */
void
_sl_timeline_view_reveal_row (SlTimelineView *self,
                              guint           row)
{
  SlTimelineRowInfo ri;
  gboolean changed = FALSE;

  if (self->timeline == NULL || row >= sl_timeline_get_n_rows (self->timeline))
    return;
  sl_timeline_get_row_info (self->timeline, row, &ri);
  if (ri.kind == SL_TIMELINE_ROW_THREAD && ri.parent != SL_TIMELINE_NONE)
    changed |= g_hash_table_remove (self->closed_procs, GUINT_TO_POINTER (ri.parent));
  if (ri.host < self->host_open->len && !self->host_open->data[ri.host])
    {
      self->host_open->data[ri.host] = TRUE;
      changed = TRUE;
    }
  if (changed)
    _sl_timeline_view_rebuild_layout (self);
}

void
_sl_timeline_view_scroll_to_row (SlTimelineView *self,
                                 guint           row)
{
  guint v;
  const SlTlvRow *r;
  double value, page;

  v = vis_for_row (self, row);
  if (v == SL_TIMELINE_NONE)
    return;
  r = &g_array_index (self->vis, SlTlvRow, v);
  if (r->pinned)
    return;
  value = gtk_adjustment_get_value (self->vadj);
  page = scroll_page (self);
  /* below the host's header, which stays on top */
  if (r->y - SL_TLV_HOST_H < value)
    gtk_adjustment_set_value (self->vadj, r->y - SL_TLV_HOST_H);
  else if (r->y + r->h > value + page)
    gtk_adjustment_set_value (self->vadj, r->y + r->h - page + SL_TLV_ROW_H);
}

/* Puts @row's line in the middle of the scrolled area (as far as the
 * scroll range allows). */
void
_sl_timeline_view_center_row (SlTimelineView *self,
                              guint           row)
{
  guint v;
  const SlTlvRow *r;

  _sl_timeline_view_reveal_row (self, row);
  v = vis_for_row (self, row);
  if (v == SL_TIMELINE_NONE)
    return;
  r = &g_array_index (self->vis, SlTlvRow, v);
  if (!r->pinned)
    gtk_adjustment_set_value (self->vadj, r->y + r->h / 2.0 - scroll_page (self) / 2);
}

/* A wheel notch: as GtkScrolledWindow scrolls, the page size to the
 * power 2/3 (about 5 rows on a 900 px plot). */
double
_sl_timeline_view_wheel_step (SlTimelineView *self)
{
  return pow (scroll_page (self), 2.0 / 3.0);
}

guint
sl_timeline_view_get_selected_row (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), SL_TIMELINE_NONE);
  return self->selected_row;
}

void
sl_timeline_view_select_row (SlTimelineView *self,
                             guint           row)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (self->timeline == NULL || row >= sl_timeline_get_n_rows (self->timeline))
    row = SL_TIMELINE_NONE;
  if (self->selected_row == row)
    return;
  self->selected_row = row;
  _sl_timeline_view_update_events (self);
  _sl_timeline_view_state_changed (self);
  _sl_timeline_view_queue_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_SELECTED_ROW]);
}

void
sl_timeline_view_set_host_expanded (SlTimelineView *self,
                                    guint           host,
                                    gboolean        expanded)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (host >= self->host_open->len || !!self->host_open->data[host] == !!expanded)
    return;
  self->host_open->data[host] = !!expanded;
  _sl_timeline_view_rebuild_layout (self);
}

/* Every host open or closed, in one layout. */
void
sl_timeline_view_set_all_expanded (SlTimelineView *self,
                                   gboolean        expanded)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (self->host_open->len == 0)
    return;
  memset (self->host_open->data, !!expanded, self->host_open->len);
  _sl_timeline_view_rebuild_layout (self);
}

gboolean
sl_timeline_view_get_host_expanded (SlTimelineView *self,
                                    guint           host)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  return _sl_timeline_view_host_open (self, host);
}

gboolean
sl_timeline_view_get_row_y (SlTimelineView *self,
                            guint           row,
                            double         *y)
{
  guint v;
  const SlTlvRow *r;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);

  if (row >= self->row_vis->len || (v = g_array_index (self->row_vis, guint, row)) == SL_TIMELINE_NONE)
    return FALSE;
  r = &g_array_index (self->vis, SlTlvRow, v);
  if (y != NULL)
    *y = SL_TLV_RULER_H + _sl_tlv_screen_y (self, r, (int) gtk_adjustment_get_value (self->vadj)) + r->h / 2.0;
  return TRUE;
}

void
_sl_timeline_view_relayout (SlTimelineView *self)
{
  _sl_timeline_view_rebuild_layout (self);
}

guint
sl_timeline_view_get_row_filter (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), 0);
  return self->row_filter;
}

void
sl_timeline_view_set_row_filter (SlTimelineView *self,
                                 guint           flags)
{
  guint changed;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  changed = self->row_filter ^ flags;
  if (changed == 0)
    return;
  self->row_filter = flags;
  _sl_timeline_view_rebuild_layout (self);
  _sl_timeline_view_state_changed (self);
  if (changed & SL_TIMELINE_FILTER_HIDE_IDLE)
    g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_HIDE_IDLE]);
  if (changed & SL_TIMELINE_FILTER_HIDE_KERNEL)
    g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_HIDE_KERNEL]);
  if (changed & SL_TIMELINE_FILTER_ONLY_MESSAGES)
    g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_ONLY_MESSAGES]);
}

void
sl_timeline_view_get_process_tree (SlTimelineView *self,
                                   guint          *host,
                                   guint32        *pid)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (host != NULL)
    *host = self->tree_pid != 0 ? self->tree_host : SL_TIMELINE_NONE;
  if (pid != NULL)
    *pid = self->tree_pid;
}

void
sl_timeline_view_set_process_tree (SlTimelineView *self,
                                   guint           host,
                                   guint32         pid)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (host == SL_TIMELINE_NONE)
    pid = 0;
  if (pid == 0)
    host = SL_TIMELINE_NONE;
  if (self->tree_host == host && self->tree_pid == pid)
    return;
  self->tree_host = host;
  self->tree_pid = pid;
  _sl_timeline_view_rebuild_layout (self);
  _sl_timeline_view_state_changed (self);
}

gboolean
sl_timeline_view_get_row_pinned (SlTimelineView *self,
                                 guint           row)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  return row_pinned (self, row);
}

void
sl_timeline_view_set_row_pinned (SlTimelineView *self,
                                 guint           row,
                                 gboolean        pinned)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (self->timeline == NULL || row >= sl_timeline_get_n_rows (self->timeline) || !!pinned == row_pinned (self, row))
    return;
  if (pinned)
    g_array_append_val (self->pins, row);
  else
    for (guint i = 0; i < self->pins->len; i++)
      if (g_array_index (self->pins, guint, i) == row)
        {
          g_array_remove_index (self->pins, i);
          break;
        }
  _sl_timeline_view_rebuild_layout (self);
  _sl_timeline_view_state_changed (self);
}

GArray *
sl_timeline_view_dup_pinned_rows (SlTimelineView *self)
{
  GArray *ret = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), ret);
  g_array_append_vals (ret, self->pins->data, self->pins->len);
  return ret;
}

GArray *
sl_timeline_view_dup_shown_rows (SlTimelineView *self)
{
  GArray *ret = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), ret);
  for (guint i = 0; i < self->vis->len; i++)
    g_array_append_val (ret, g_array_index (self->vis, SlTlvRow, i).row);
  return ret;
}
