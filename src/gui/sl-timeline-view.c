/* sl-timeline-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-compare.h"
#include "sl-format.h"
#include "sl-mask-raster.h"
#include "sl-text-cell.h"
#include "sl-timeline-view-private.h"

#define EVENTS_DELAY_MS 150

enum {
  PROP_0,
  PROP_SESSION,
  PROP_SYNCHRONIZED,
  PROP_FOLLOW,
  PROP_SHOW_CPUS,
  PROP_SELECTED_ROW,
  PROP_ANIMATING,
  PROP_HIDE_IDLE,
  PROP_HIDE_KERNEL,
  PROP_ONLY_MESSAGES,
  PROP_SORT_ROWS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SlTimelineView, sl_timeline_view, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

static const SlTextColumn event_columns[] = {
  { "events_time_column", "time", 0, 22 },
  { "events_local_time_column", "local-time", 0, 22 },
  { "events_host_column", "host", 0, 12 },
  { "events_cpu_column", "cpu", 1, 4 },
  { "events_event_column", "event", 0, 22 },
  { "events_fields_column", "fields", 0, 40 },
};

static const guint32 state_rgb[SL_TIMELINE_N_STATES] = {
  [SL_TIMELINE_STATE_NONE] = 0,
  [SL_TIMELINE_STATE_UNKNOWN] = 0xc0bfbc,
  [SL_TIMELINE_STATE_USER] = 0x2ec27e,
  [SL_TIMELINE_STATE_SYSCALL] = 0x1c71d8,
  [SL_TIMELINE_STATE_IRQ] = 0xc01c28,
  [SL_TIMELINE_STATE_SOFTIRQ] = 0xff7800,
  [SL_TIMELINE_STATE_RUNNABLE] = 0xf6d32d,
  [SL_TIMELINE_STATE_BLOCKED] = 0xdeddda,
  [SL_TIMELINE_STATE_EXITED] = 0x77767b,
  [SL_TIMELINE_STATE_IDLE] = 0xf2f2f0,
};

static guint64
pair_key (guint a,
          guint b)
{
  return ((guint64) MIN (a, b) << 32) | MAX (a, b);
}

/* Helpers for transforms */

static void
clock_interpolate (const SlTransform *from,
                   const SlTransform *to,
                   double             p,
                   SlTransform       *out)
{
  SlTransform fr;
  double d, img;
  gint64 whole;

  sl_transform_rebase (from, to->origin, &fr);
  d = (double) (to->image - fr.image) + (to->image_frac - fr.image_frac);
  img = fr.image_frac + p * d;
  whole = (gint64) floor (img);
  sl_transform_init (out, to->origin, fr.image + whole, img - (double) whole, fr.drift + p * (to->drift - fr.drift));
}

static double
ease_out (double p)
{
  p = CLAMP (p, 0, 1);
  return 1 - (1 - p) * (1 - p) * (1 - p);
}

static void
push_clock (SlTimelineView *self,
            guint           host)
{
  SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, host);

  c->version++;
  self->clock_version++;
  if (self->timeline != NULL && host < sl_timeline_get_n_hosts (self->timeline))
    sl_timeline_set_host_transform (self->timeline, host,
                                    sl_transform_is_identity (&c->shown) ? NULL : &c->shown,
                                    self->synchronized ? c->bound : 0);
}

/* A link's bound at every instant (its relation from a to b), or the
 * constant one. */
static void
push_link (SlTimelineView *self,
           guint           a,
           guint           b,
           double          bound_ns)
{
  guint64 key = pair_key (a, b);
  SlRelation *rel = g_hash_table_lookup (self->link_rels, &key);
  guint n;

  if (self->timeline == NULL)
    return;
  n = sl_timeline_get_n_hosts (self->timeline);
  if (a >= n || b >= n)
    return;
  if (rel != NULL && self->synchronized)
    sl_timeline_set_link_relation (self->timeline, MIN (a, b), MAX (a, b), rel);
  else
    sl_timeline_set_link_bound (self->timeline, a, b, self->synchronized ? bound_ns : NAN);
}

/* @rel from MIN (a, b)'s clock to the other's (the engine's order). */
static void
set_link_relation (SlTimelineView *self,
                   guint           a,
                   guint           b,
                   SlRelation     *rel)
{
  guint64 key = pair_key (a, b);
  SlRelation *old = g_hash_table_lookup (self->link_rels, &key);
  double *bound;

  if (old == rel)
    return;
  if (rel != NULL)
    {
      guint64 *k = g_new (guint64, 1);

      *k = key;
      g_hash_table_replace (self->link_rels, k, sl_relation_ref (rel));
    }
  else
    g_hash_table_remove (self->link_rels, &key);
  bound = g_hash_table_lookup (self->link_bounds, &key);
  push_link (self, a, b, bound != NULL ? *bound : NAN);
  self->arrow_version++;
}

static void
push_link_bounds (SlTimelineView *self)
{
  GHashTableIter iter;
  gpointer key, value;

  if (self->timeline == NULL)
    return;
  g_hash_table_iter_init (&iter, self->link_bounds);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint64 k = *(guint64 *) key;

      push_link (self, (guint) (k >> 32), (guint) (k & 0xffffffff), *(double *) value);
    }
}

const SlTlvClock *
_sl_timeline_view_clock (SlTimelineView *self,
                         guint           host)
{
  static SlTlvClock identity;

  if (host >= self->clocks->len)
    {
      sl_transform_init_identity (&identity.shown);
      return &identity;
    }
  return &g_array_index (self->clocks, SlTlvClock, host);
}

/* Span */

gint64
_sl_timeline_view_start (SlTimelineView *self)
{
  if (!self->has_span || self->plot_w <= 0)
    return self->pending_start;
  return self->origin + (gint64) floor ((double) self->col0 * self->px_ns);
}

gint64
_sl_timeline_view_end (SlTimelineView *self)
{
  if (!self->has_span || self->plot_w <= 0)
    return self->pending_end;
  return self->origin + (gint64) floor ((double) (self->col0 + self->plot_w) * self->px_ns);
}

static void
update_status (SlTimelineView *self)
{
  g_autofree char *span = NULL;
  g_autofree char *text = NULL;
  g_autofree char *sel = NULL;

  if (self->timeline == NULL || !sl_timeline_get_view_range (self->timeline, NULL, NULL))
    {
      /* (the canvas says what it waits for) */
      gtk_inscription_set_text (self->status_label, "");
      return;
    }
  span = sl_format_ns ((double) (_sl_timeline_view_end (self) - _sl_timeline_view_start (self)));
  sel = _sl_timeline_view_selection_text (self);
  text = g_strdup_printf (_("%u hosts · %u rows · %s arrows · %s shown"),
                          sl_timeline_get_n_hosts (self->timeline), self->vis->len,
                          sl_format_count (sl_timeline_get_n_arrows (self->timeline)), span);
  if (sel != NULL)
    {
      char *both = g_strdup_printf ("%s · %s", sel, text);

      g_free (text);
      text = both;
    }
  gtk_inscription_set_text (self->status_label, text);
}

static gboolean
events_timeout_cb (gpointer data)
{
  SlTimelineView *self = data;

  self->events_id = 0;
  _sl_timeline_view_update_events (self);
  return G_SOURCE_REMOVE;
}

/* The Events page shown again: what changed while it was hidden */
static void
events_page_cb (SlTimelineView *self)
{
  if (self->events_stale && g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "events") == 0)
    _sl_timeline_view_update_events (self);
}

static void
queue_events (SlTimelineView *self)
{
  if (self->selected_row == SL_TIMELINE_NONE)
    return;
  g_clear_handle_id (&self->events_id, g_source_remove);
  self->events_id = g_timeout_add (EVENTS_DELAY_MS, events_timeout_cb, self);
}

void
_sl_timeline_view_span_changed (SlTimelineView *self)
{
  if (self->session != NULL && self->timeline != NULL && !self->pushing_span)
    {
      self->pushing_span = TRUE;
      sl_session_set_visible_span (self->session, _sl_timeline_view_start (self), _sl_timeline_view_end (self));
      self->pushing_span = FALSE;
    }
  update_status (self);
  queue_events (self);
  _sl_timeline_view_queue_stats (self);
  _sl_timeline_view_queue_update (self);
}

static void
set_span_internal (SlTimelineView *self,
                   gint64          start,
                   gint64          end)
{
  if (end < start)
    {
      gint64 t = start;
      start = end;
      end = t;
    }
  if (end == start)
    end = start + 1000;
  self->has_span = TRUE;
  self->fitted = FALSE;
  self->pending_start = start;
  self->pending_end = end;
  if (self->plot_w > 0)
    {
      self->px_ns = MAX ((double) (end - start) / self->plot_w, SL_TLV_MIN_PX_NS);
      self->origin = start;
      self->col0 = 0;
    }
  _sl_timeline_view_span_changed (self);
}

void
_sl_timeline_view_zoom (SlTimelineView *self,
                        double          factor,
                        double          plot_x)
{
  double t, px;
  gint64 data_lo = 0, data_hi = 0;
  double max_px = 1e18;

  if (!self->has_span || self->plot_w <= 0 || factor <= 0)
    return;
  if (self->timeline != NULL && sl_timeline_get_view_range (self->timeline, &data_lo, &data_hi))
    max_px = MAX ((double) (data_hi - data_lo) * 4 / self->plot_w, 1e3);
  plot_x = CLAMP (plot_x, 0, self->plot_w);
  t = (double) self->origin + ((double) self->col0 + plot_x) * self->px_ns;
  px = CLAMP (self->px_ns / factor, SL_TLV_MIN_PX_NS, max_px);
  if (px == self->px_ns)
    return;
  self->fitted = FALSE;
  self->px_ns = px;
  self->origin = (gint64) floor (t - plot_x * px);
  self->col0 = 0;
  self->pending_start = _sl_timeline_view_start (self);
  self->pending_end = _sl_timeline_view_end (self);
  _sl_timeline_view_span_changed (self);
}

void
_sl_timeline_view_pan_px (SlTimelineView *self,
                          gint64          dx)
{
  if (!self->has_span || self->plot_w <= 0 || dx == 0)
    return;
  self->fitted = FALSE;
  self->col0 += dx;
  self->pending_start = _sl_timeline_view_start (self);
  self->pending_end = _sl_timeline_view_end (self);
  _sl_timeline_view_span_changed (self);
}

void
_sl_timeline_view_fit (SlTimelineView *self)
{
  gint64 lo, hi, margin;

  if (self->timeline == NULL || !sl_timeline_get_view_range (self->timeline, &lo, &hi))
    return;
  margin = MAX ((hi - lo) / 100, 500);
  if (!(self->fitted && _sl_timeline_view_start (self) == lo - margin &&
        _sl_timeline_view_end (self) == hi + margin))
    set_span_internal (self, lo - margin, hi + margin);
  self->fitted = TRUE;
  self->refit_pending = FALSE;
}

/* Following live data, the span ends this far past the data's end (a
 * 25th of its width): the newest events and the line up to which every
 * host is complete stay in view while the span catches up frame by frame. */
static gint64
follow_room (SlTimelineView *self,
             gint64          width)
{
  if (self->from_session && self->session != NULL && sl_session_get_is_live (self->session))
    return width / 25;
  return 0;
}

/* A view that follows (live data) shows its last SL_TIMELINE_LIVE_WINDOW_NS
 * when it gets data; others the fit of the data. */
static void
fit_or_follow (SlTimelineView *self)
{
  gint64 lo, hi;

  if (self->follow && self->timeline != NULL && sl_timeline_get_view_range (self->timeline, &lo, &hi))
    {
      self->data_end = hi;
      gint64 room = follow_room (self, SL_TIMELINE_LIVE_WINDOW_NS);

      set_span_internal (self, hi + room - SL_TIMELINE_LIVE_WINDOW_NS, hi + room);
      return;
    }
  _sl_timeline_view_fit (self);
}

/* After the clocks changed: a fitted span is fitted again (the data moved
 * under it), without animation. */
static void
refit_if_fitted (SlTimelineView *self)
{
  if (!self->refit_pending)
    return;
  self->refit_pending = FALSE;
  if (self->fitted)
    _sl_timeline_view_fit (self);
}

/* Rows */

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

static gboolean
host_open (SlTimelineView *self,
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
static void
rebuild_layout (SlTimelineView *self)
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
      gboolean open = host_open (self, h);

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
  update_status (self);
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
      rebuild_layout (self);
    }
}

/* Opens what hides @row (its host, its process) so that it has a line. */
static void
reveal_row (SlTimelineView *self,
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
    rebuild_layout (self);
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

  reveal_row (self, row);
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

/* Connections: host pairs and their connections, for the filters */

static void
rebuild_filters (SlTimelineView *self)
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
          gint64 pk = (gint64) pair_key (a->send_host, a->recv_host);
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

static void
rebuild_connections (SlTimelineView *self)
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
        if (pair_key (conn.host_a, conn.host_b) != pair_key (self->filter_a, self->filter_b))
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

static void
filter_changed_cb (SlTimelineView *self,
                   GParamSpec     *pspec,
                   GtkDropDown    *dropdown)
{
  guint sel = gtk_drop_down_get_selected (dropdown);

  if (dropdown == self->pair_dropdown)
    {
      guint a = SL_TIMELINE_NONE, b = SL_TIMELINE_NONE;

      if (sel != GTK_INVALID_LIST_POSITION && sel > 0 && 2 * (sel - 1) + 1 < self->pairs->len)
        {
          a = g_array_index (self->pairs, guint, 2 * (sel - 1));
          b = g_array_index (self->pairs, guint, 2 * (sel - 1) + 1);
        }
      if (a == self->filter_a && b == self->filter_b)
        return;
      self->filter_a = a;
      self->filter_b = b;
      self->filter_conn = SL_TIMELINE_NONE;
      rebuild_connections (self);
    }
  else
    {
      guint c = SL_TIMELINE_NONE;

      if (sel != GTK_INVALID_LIST_POSITION && sel > 0 && sel - 1 < self->pair_conns->len)
        c = g_array_index (self->pair_conns, guint, sel - 1);
      if (c == self->filter_conn)
        return;
      self->filter_conn = c;
    }
  self->arrow_version++;
  _sl_timeline_view_queue_update (self);
}

/* Search */

static void
search_changed_cb (SlTimelineView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_free (self->search_text);
  self->search_text = g_strdup (text);
  /* a query of events runs when Enter is pressed */
  if (text[0] != '\0' && !sl_event_query_looks_like (text))
    {
      /* from the top again for a new text */
      self->selected_row = SL_TIMELINE_NONE;
      sl_timeline_view_search (self, text);
    }
}

static void
search_activate_cb (SlTimelineView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (text[0] == '\0')
    return;
  if (sl_event_query_looks_like (text))
    {
      /* Enter again on the same query: the next event found */
      if (g_strcmp0 (sl_search_list_get_text (self->search), text) == 0 &&
          !sl_search_list_get_searching (self->search))
        _sl_timeline_view_find_step (self, 1);
      else
        sl_timeline_view_find_events (self, text);
    }
  else
    sl_timeline_view_search (self, text);
}

/* Events table */

static void
update_events_label (SlTimelineView *self)
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
  gint64 start, end, sel_start = 0, sel_end = 0;
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
      update_events_label (self);
      return;
    }
  start = _sl_timeline_view_start (self);
  end = _sl_timeline_view_end (self);
  if (self->session != NULL)
    sl_session_get_selected_span (self->session, &sel_start, &sel_end);
  self->events_selected = sel_end > sel_start;
  if (self->events_selected)
    {
      start = sel_start;
      end = sel_end;
    }
  sl_timeline_get_row_info (self->timeline, self->selected_row, &ri);
  sl_event_list_set_row (self->events, self->selected_row, sl_timeline_from_view (self->timeline, ri.host, start),
                         sl_timeline_from_view (self->timeline, ri.host, end) + 1);
  update_events_label (self);
}

void
_sl_timeline_view_set_selected_span (SlTimelineView *self,
                                     gint64          start,
                                     gint64          end)
{
  if (self->session != NULL)
    sl_session_set_selected_span (self->session, start, end);
  queue_events (self);
  update_status (self);
  _sl_timeline_view_state_changed (self);
  _sl_timeline_view_queue_stats (self);
  gtk_widget_queue_draw (self->canvas);
}

/* Clocks from the session */

static void session_timeline_grew (SlTimelineView *self);

static void step_clocks    (SlTimelineView    *self,
                            gint64             now);
static void set_host_clock (SlTimelineView    *self,
                            guint              host,
                            const SlTransform *to_reference,
                            guint              reference,
                            double             bound_ns,
                            gint64             now,
                            gboolean           stepped);

static void
session_updated_cb (SlTimelineView *self,
                    guint           changes)
{
  GListModel *hosts, *links;
  guint n;
  gint64 now;

  if (self->session == NULL)
    return;
  /* another input: its hosts are not the old ones */
  if (changes & SL_SESSION_CHANGE_RESET)
    {
      g_array_set_size (self->clocks, 0);
      g_hash_table_remove_all (self->link_bounds);
      g_hash_table_remove_all (self->link_rels);
    }
  hosts = sl_session_get_hosts (self->session);
  n = g_list_model_get_n_items (hosts);
  now = g_get_monotonic_time ();
  step_clocks (self, now);
  for (guint i = 0; i < n; i++)
    {
      SlHostItem *item = sl_session_get_host_item (self->session, i);
      const SlSnapHost *info = item != NULL ? sl_host_item_get_info (item) : NULL;

      if (info != NULL)
        {
          /* the exact, piecewise map; the clock animates its
           * representative piece (info->to_reference) */
          if (self->timeline != NULL && sl_host_item_get_host (item) < sl_timeline_get_n_hosts (self->timeline))
            sl_timeline_set_host_relation (self->timeline, sl_host_item_get_host (item),
                                           sl_host_item_get_relation (item), &info->to_reference);
          set_host_clock (self, sl_host_item_get_host (item), &info->to_reference, info->reference,
                          info->bound_ns, now, TRUE);
        }
    }
  refit_if_fitted (self);
  links = sl_session_get_links (self->session);
  n = g_list_model_get_n_items (links);
  for (guint i = 0; i < n; i++)
    {
      SlLinkItem *item = sl_session_get_link_item (self->session, i);
      const SlReportLink *rl;
      const SlTlvClock *ca, *cb;
      double u;

      if (item == NULL)
        continue;
      rl = sl_link_item_get_info (item);
      ca = _sl_timeline_view_clock (self, rl->a);
      cb = _sl_timeline_view_clock (self, rl->b);
      /* as sl_timeline_sync_engine() does: a tree link's bound at each
       * message's instant */
      if (!ca->known || !cb->known || ca->reference != cb->reference)
        u = NAN;
      else if (rl->info.in_tree)
        u = rl->info.bound_ns;
      else
        u = ca->bound + cb->bound;
      set_link_relation (self, rl->info.a, rl->info.b,
                         rl->info.in_tree && !isnan (u) ? sl_link_item_get_relation (item) : NULL);
      sl_timeline_view_set_link_bound (self, rl->a, rl->b, u);
    }
  if (changes & SL_SESSION_CHANGE_TIMELINE)
    session_timeline_grew (self);
}

static void
lock_events_cb (gpointer data)
{
  sl_session_lock_events (data);
}

static void
unlock_events_cb (gpointer data)
{
  sl_session_unlock_events (data);
}

static void
session_stores (SlTimelineView *self)
{
  guint n = sl_timeline_get_n_hosts (self->timeline);
  const SlEventStore **stores = g_new0 (const SlEventStore *, MAX (n, 1));

  for (guint h = 0; h < n; h++)
    stores[h] = sl_session_get_event_store (self->session, h);
  g_free ((gpointer) self->stores);
  self->stores = stores;
  self->n_stores = n;
  sl_event_list_set_lock_func (self->events, lock_events_cb, unlock_events_cb, self->session);
  sl_event_list_set_source (self->events, self->timeline, self->stores, self->n_stores);
  sl_search_list_set_lock_func (self->search, lock_events_cb, unlock_events_cb, self->session);
  _sl_timeline_view_find_source (self);
}

/* A live session's model grows under the view. */
static void
session_timeline_grew (SlTimelineView *self)
{
  if (self->timeline == NULL || !self->from_session)
    return;
  if (sl_timeline_get_n_hosts (self->timeline) > self->n_stores)
    {
      session_stores (self);
      _sl_timeline_view_update_events (self);
    }
  sl_timeline_view_data_changed (self);
}

static void
session_link_cb (SlTimelineView *self)
{
  SlLinkItem *link = self->session != NULL ? sl_session_get_selected_link (self->session) : NULL;
  guint a = link != NULL ? sl_link_item_get_a (link) : SL_TIMELINE_NONE;
  guint b = link != NULL ? sl_link_item_get_b (link) : SL_TIMELINE_NONE;

  if (a == self->hl_host_a && b == self->hl_host_b)
    return;
  self->hl_host_a = a;
  self->hl_host_b = b;
  _sl_timeline_view_queue_update (self);
}

static void
session_sync_cb (SlTimelineView *self)
{
  sl_timeline_view_set_synchronized (self, sl_session_get_synchronized (self->session));
}

static void
session_visible_cb (SlTimelineView *self)
{
  gint64 start, end;

  if (self->pushing_span || self->timeline == NULL)
    return;
  sl_session_get_visible_span (self->session, &start, &end);
  if (end <= start || (start == _sl_timeline_view_start (self) && end == _sl_timeline_view_end (self)))
    return;
  self->pushing_span = TRUE;
  set_span_internal (self, start, end);
  self->pushing_span = FALSE;
}

static void
session_selection_cb (SlTimelineView *self)
{
  queue_events (self);
  update_status (self);
  _sl_timeline_view_queue_stats (self);
  gtk_widget_queue_draw (self->canvas);
}

static void set_timeline (SlTimelineView *self,
                          SlTimeline     *timeline,
                          const SlEventStore * const *stores,
                          guint           n_stores,
                          gboolean        from_session);

static void
session_timeline_cb (SlTimelineView *self)
{
  SlTimeline *tl = sl_session_get_timeline (self->session);

  if (tl == NULL)
    {
      if (self->from_session)
        set_timeline (self, NULL, NULL, 0, TRUE);
      return;
    }
  {
    guint n = sl_timeline_get_n_hosts (tl);
    g_autofree const SlEventStore **stores = g_new0 (const SlEventStore *, MAX (n, 1));

    for (guint h = 0; h < n; h++)
      stores[h] = sl_session_get_event_store (self->session, h);
    set_timeline (self, tl, stores, n, TRUE);
  }
}

static void
set_timeline (SlTimelineView             *self,
              SlTimeline                 *timeline,
              const SlEventStore * const *stores,
              guint                       n_stores,
              gboolean                    from_session)
{
  guint n_hosts;

  g_clear_handle_id (&self->events_id, g_source_remove);
  _sl_timeline_view_clear_caches (self);
  sl_event_list_set_source (self->events, NULL, NULL, 0);
  /* (waits for a search reading the old stores to stop) */
  sl_search_list_set_source (self->search, NULL, NULL, 0);
  if (from_session && self->session != NULL)
    {
      sl_event_list_set_lock_func (self->events, lock_events_cb, unlock_events_cb, self->session);
      sl_search_list_set_lock_func (self->search, lock_events_cb, unlock_events_cb, self->session);
    }
  else
    {
      sl_event_list_set_lock_func (self->events, NULL, NULL, NULL);
      sl_search_list_set_lock_func (self->search, NULL, NULL, NULL);
    }
  g_free ((gpointer) self->stores);
  self->stores = NULL;
  self->n_stores = 0;
  self->timeline = timeline;
  self->from_session = from_session;
  self->selected_row = SL_TIMELINE_NONE;
  self->data_version++;
  g_array_set_size (self->pins, 0);
  if (timeline != self->timeline)
    sl_timeline_view_clear_bookmarks (self);
  self->has_msg = FALSE;
  sl_timeline_view_clear_request (self);
  self->tree_host = SL_TIMELINE_NONE;
  self->tree_pid = 0;
  g_hash_table_remove_all (self->closed_procs);
  g_byte_array_set_size (self->host_open, 0);
  self->follow_target = 0;
  /* live data is followed from the start, and again after each attach */
  if (from_session && timeline != NULL && self->session != NULL && sl_session_get_is_live (self->session))
    {
      self->has_span = FALSE;
      if (!self->follow)
        {
          self->follow = TRUE;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW]);
        }
    }

  n_hosts = timeline != NULL ? sl_timeline_get_n_hosts (timeline) : 0;
  /* clocks already known from the session stay; others are the identity */
  if (self->clocks->len < n_hosts)
    {
      guint old = self->clocks->len;

      g_array_set_size (self->clocks, n_hosts);
      for (guint h = old; h < n_hosts; h++)
        {
          SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, h);

          memset (c, 0, sizeof *c);
          sl_transform_init_identity (&c->target);
          sl_transform_init_identity (&c->shown);
          sl_transform_init_identity (&c->from);
          c->bound = NAN;
        }
    }
  if (timeline != NULL)
    {
      self->stores = g_memdup2 (stores, sizeof (gpointer) * MAX (n_stores, 1));
      self->n_stores = stores != NULL ? n_stores : 0;
      sl_event_list_set_source (self->events, timeline, self->stores, self->n_stores);
      for (guint h = 0; h < n_hosts; h++)
        {
          SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, h);

          c->anim_start = 0;
          if (self->synchronized && c->known)
            c->shown = c->target;
          else
            sl_transform_init_identity (&c->shown);
          push_clock (self, h);
        }
      push_link_bounds (self);
      /* many hosts start closed: their messages still show */
      for (guint h = 0; h < n_hosts; h++)
        {
          guint8 open = n_hosts <= 16;
          g_byte_array_append (self->host_open, &open, 1);
        }
    }
  _sl_timeline_view_find_source (self);
  rebuild_layout (self);
  rebuild_filters (self);
  rebuild_connections (self);
  sl_timeline_view_data_changed (self);
  if (timeline != NULL)
    {
      gint64 lo, hi;

      if (sl_timeline_get_view_range (timeline, &lo, &hi))
        self->data_end = hi;
      fit_or_follow (self);
    }
  _sl_timeline_view_update_events (self);
  _sl_timeline_view_message_changed (self);
  _sl_timeline_view_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
}

/* Animation */

static gboolean
clocks_animating (SlTimelineView *self)
{
  for (guint h = 0; h < self->clocks->len; h++)
    if (g_array_index (self->clocks, SlTlvClock, h).anim_start != 0)
      return TRUE;
  return FALSE;
}

static void
step_clocks (SlTimelineView *self,
             gint64          now)
{
  gboolean was = FALSE, is = FALSE;

  for (guint h = 0; h < self->clocks->len; h++)
    {
      SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, h);
      double p;

      if (c->anim_start == 0)
        continue;
      was = TRUE;
      p = (double) (now - c->anim_start) / SL_TLV_ANIM_US;
      if (p >= 1)
        {
          c->shown = c->target;
          c->anim_start = 0;
        }
      else
        {
          clock_interpolate (&c->from, &c->target, ease_out (p), &c->shown);
          is = TRUE;
        }
      push_clock (self, h);
    }
  if (was)
    {
      sl_event_list_times_changed (self->events);
      if (!is)
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANIMATING]);
    }
}

/* Following: each frame, the span's end moves towards the data's end by
 * half the way, between 0.5 % and 4 % of the width, so that it scrolls
 * evenly whatever the update rate (at 5 frames a second it keeps up with
 * 1 s of data a second in a 5 s window). More than a width behind, or on
 * the first frame after none for a second (the page was hidden), it jumps:
 * there is no motion on screen to keep even. */
static gboolean
follow_step (SlTimelineView *self,
             gint64          now_us)
{
  gint64 start, end, width, lag, step;
  gboolean resumed = now_us - self->follow_frame_us > G_USEC_PER_SEC;

  self->follow_frame_us = now_us;
  if (!self->follow || !self->has_span || self->follow_target == 0)
    return FALSE;
  start = _sl_timeline_view_start (self);
  end = _sl_timeline_view_end (self);
  width = MAX (end - start, 1);
  lag = self->follow_target - end;
  step = lag > width || resumed ? lag : CLAMP (lag / 2, MAX (width / 200, 1), MAX (width / 25, 1));
  /* the last step lands on the end exactly, whatever the rounding */
  if (step >= lag || lag <= (gint64) ceil (self->px_ns))
    {
      if (lag > 0)
        set_span_internal (self, self->follow_target - width, self->follow_target);
      self->follow_target = 0;
      return FALSE;
    }
  set_span_internal (self, start + step, end + step);
  return TRUE;
}

gboolean
_sl_timeline_view_tick (SlTimelineView *self,
                        gint64          now_us)
{
  gboolean following = follow_step (self, now_us);

  step_clocks (self, now_us);
  return clocks_animating (self) || following;
}

/* The host whose drawing must not move when clocks change: the selected
 * row's, else the first one on screen. */
static guint
anchor_host (SlTimelineView *self)
{
  guint v;

  if (self->timeline != NULL && self->selected_row != SL_TIMELINE_NONE)
    {
      SlTimelineRowInfo ri;

      sl_timeline_get_row_info (self->timeline, self->selected_row, &ri);
      return ri.host;
    }
  v = _sl_timeline_view_vis_at (self, 0);
  if (v != SL_TIMELINE_NONE)
    return g_array_index (self->vis, SlTlvRow, v).host;
  return 0;
}

/* Moves the span by @s (a map of the view's clock) if that is visible. */
static gboolean
shift_span (SlTimelineView    *self,
            const SlTransform *s)
{
  gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
  gint64 ns = sl_transform_apply (s, start), ne = sl_transform_apply (s, end);
  double px = self->px_ns > 0 ? self->px_ns : 1;

  if (fabs ((double) (ns - start)) < 0.5 * px && fabs ((double) (ne - end)) < 0.5 * px)
    return FALSE;
  if (self->plot_w > 0 && self->has_span)
    {
      self->origin = ns;
      self->col0 = 0;
      self->px_ns = MAX ((double) (ne - ns) / self->plot_w, SL_TLV_MIN_PX_NS);
      self->pending_start = ns;
      self->pending_end = ne;
      _sl_timeline_view_span_changed (self);
    }
  else
    {
      self->pending_start = ns;
      self->pending_end = ne;
    }
  return TRUE;
}

static void
ensure_clock (SlTimelineView *self,
              guint           host)
{
  if (host < self->clocks->len)
    return;
  {
    guint old = self->clocks->len;

    g_array_set_size (self->clocks, host + 1);
    for (guint h = old; h <= host; h++)
      {
        SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, h);

        memset (c, 0, sizeof *c);
        sl_transform_init_identity (&c->target);
        sl_transform_init_identity (&c->shown);
        sl_transform_init_identity (&c->from);
        c->bound = NAN;
      }
  }
}

/* Class */

static void
canvas_tick_removed (gpointer data)
{
}

static gboolean
canvas_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       data)
{
  SlTimelineView *self = data;
  gboolean more = _sl_timeline_view_tick (self, gdk_frame_clock_get_frame_time (clock));

  if (_sl_timeline_view_prepare (self))
    gtk_widget_queue_draw (widget);
  /* work left for the next frames (the selection's messages) */
  more = more || _sl_timeline_view_pending (self);
  if (more)
    {
      gtk_widget_queue_draw (widget);
      return G_SOURCE_CONTINUE;
    }
  self->tick_id = 0;
  return G_SOURCE_REMOVE;
}

void
_sl_timeline_view_queue_update (SlTimelineView *self)
{
  if (self->canvas == NULL)
    return;
  if (self->tick_id == 0 && gtk_widget_get_realized (self->canvas))
    self->tick_id = gtk_widget_add_tick_callback (self->canvas, canvas_tick_cb, self, canvas_tick_removed);
  gtk_widget_queue_draw (self->canvas);
}

static void
vadj_changed_cb (SlTimelineView *self)
{
  _sl_timeline_view_queue_update (self);
}

static void
sl_timeline_view_dispose (GObject *object)
{
  SlTimelineView *self = (SlTimelineView *) object;
  GtkWidget *child;

  sl_timeline_view_set_session (self, NULL);
  g_clear_handle_id (&self->events_id, g_source_remove);
  if (self->tick_id != 0 && self->canvas != NULL)
    gtk_widget_remove_tick_callback (self->canvas, self->tick_id);
  self->tick_id = 0;
  if (self->events_view != NULL)
    gtk_column_view_set_model (self->events_view, NULL);
  _sl_timeline_view_dispose_find (self);
  _sl_timeline_view_dispose_stats (self);
  _sl_timeline_view_dispose_marks (self);
  _sl_timeline_view_dispose_request (self);
  _sl_timeline_view_clear_caches (self);
  self->timeline = NULL;
  if (self->events != NULL)
    sl_event_list_set_source (self->events, NULL, NULL, 0);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TIMELINE_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->canvas = NULL;
  g_clear_object (&self->events);
  g_clear_object (&self->vadj);

  G_OBJECT_CLASS (sl_timeline_view_parent_class)->dispose (object);
}

static void
sl_timeline_view_finalize (GObject *object)
{
  SlTimelineView *self = (SlTimelineView *) object;

  g_free ((gpointer) self->stores);
  g_array_unref (self->clocks);
  g_hash_table_unref (self->link_bounds);
  g_hash_table_unref (self->link_rels);
  g_array_unref (self->vis);
  g_array_unref (self->row_vis);
  g_array_unref (self->row_shown);
  g_byte_array_unref (self->host_open);
  g_hash_table_unref (self->closed_procs);
  g_array_unref (self->pairs);
  g_array_unref (self->pair_conns);
  g_array_unref (self->pins);
  g_clear_pointer (&self->tree_pids, g_hash_table_unref);
  g_hash_table_unref (self->row_cache);
  g_array_unref (self->arrows);
  g_array_unref (self->hl_arrows);
  for (guint i = 0; i < G_N_ELEMENTS (self->mask_lines); i++)
    g_array_unref (self->mask_lines[i]);
  g_free (self->search_text);

  G_OBJECT_CLASS (sl_timeline_view_parent_class)->finalize (object);
}

static void
sl_timeline_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_SYNCHRONIZED:
      g_value_set_boolean (value, self->synchronized);
      break;
    case PROP_FOLLOW:
      g_value_set_boolean (value, self->follow);
      break;
    case PROP_SHOW_CPUS:
      g_value_set_boolean (value, self->show_cpus);
      break;
    case PROP_SELECTED_ROW:
      g_value_set_uint (value, self->selected_row);
      break;
    case PROP_ANIMATING:
      g_value_set_boolean (value, clocks_animating (self));
      break;
    case PROP_HIDE_IDLE:
      g_value_set_boolean (value, (self->row_filter & SL_TIMELINE_FILTER_HIDE_IDLE) != 0);
      break;
    case PROP_HIDE_KERNEL:
      g_value_set_boolean (value, (self->row_filter & SL_TIMELINE_FILTER_HIDE_KERNEL) != 0);
      break;
    case PROP_ONLY_MESSAGES:
      g_value_set_boolean (value, (self->row_filter & SL_TIMELINE_FILTER_ONLY_MESSAGES) != 0);
      break;
    case PROP_SORT_ROWS:
      g_value_set_boolean (value, self->sort_rows);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      sl_timeline_view_set_session (self, g_value_get_object (value));
      break;
    case PROP_SYNCHRONIZED:
      sl_timeline_view_set_synchronized (self, g_value_get_boolean (value));
      break;
    case PROP_FOLLOW:
      sl_timeline_view_set_follow (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_CPUS:
      if (self->show_cpus != g_value_get_boolean (value))
        {
          self->show_cpus = g_value_get_boolean (value);
          rebuild_layout (self);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_SELECTED_ROW:
      sl_timeline_view_select_row (self, g_value_get_uint (value));
      break;
    case PROP_HIDE_IDLE:
    case PROP_HIDE_KERNEL:
    case PROP_ONLY_MESSAGES:
      {
        guint bit = prop_id == PROP_HIDE_IDLE ? SL_TIMELINE_FILTER_HIDE_IDLE
                    : prop_id == PROP_HIDE_KERNEL ? SL_TIMELINE_FILTER_HIDE_KERNEL
                    : SL_TIMELINE_FILTER_ONLY_MESSAGES;

        sl_timeline_view_set_row_filter (self, g_value_get_boolean (value) ? self->row_filter | bit
                                                                           : self->row_filter & ~bit);
      }
      break;
    case PROP_SORT_ROWS:
      if (self->sort_rows != g_value_get_boolean (value))
        {
          self->sort_rows = g_value_get_boolean (value);
          rebuild_layout (self);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_view_class_init (SlTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sl_timeline_view_dispose;
  object_class->finalize = sl_timeline_view_finalize;
  object_class->get_property = sl_timeline_view_get_property;
  object_class->set_property = sl_timeline_view_set_property;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION, rw);
  properties[PROP_SYNCHRONIZED] = g_param_spec_boolean ("synchronized", NULL, NULL, TRUE, rw);
  properties[PROP_FOLLOW] = g_param_spec_boolean ("follow", NULL, NULL, FALSE, rw);
  properties[PROP_SHOW_CPUS] = g_param_spec_boolean ("show-cpus", NULL, NULL, FALSE, rw);
  properties[PROP_SELECTED_ROW] =
    g_param_spec_uint ("selected-row", NULL, NULL, 0, G_MAXUINT, SL_TIMELINE_NONE, rw);
  properties[PROP_ANIMATING] =
    g_param_spec_boolean ("animating", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HIDE_IDLE] = g_param_spec_boolean ("hide-idle", NULL, NULL, FALSE, rw);
  properties[PROP_HIDE_KERNEL] = g_param_spec_boolean ("hide-kernel", NULL, NULL, FALSE, rw);
  properties[PROP_ONLY_MESSAGES] = g_param_spec_boolean ("only-messages", NULL, NULL, FALSE, rw);
  properties[PROP_SORT_ROWS] = g_param_spec_boolean ("sort-rows", NULL, NULL, TRUE, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SL_TYPE_TIMELINE_CANVAS);
  g_type_ensure (SL_TYPE_TEXT_CELL);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/syncline/Syncline/ui/sl-timeline-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, toolbar);
  sl_text_cell_bind_columns (widget_class, event_columns, G_N_ELEMENTS (event_columns));
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, pair_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, connection_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, status_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, paned);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, canvas);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, scrollbar);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, events_view);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, events_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, pages);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, message_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, pair_list);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, connection_list);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "timelineview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  _sl_timeline_view_class_init_actions (widget_class);
  _sl_timeline_view_class_init_find (widget_class);
  _sl_timeline_view_class_init_stats (widget_class);
  _sl_timeline_view_class_init_marks (widget_class);
  _sl_timeline_view_class_init_request (widget_class);
}

static void
sl_timeline_view_init (SlTimelineView *self)
{
  g_autoptr(GtkNoSelection) selection = NULL;

  self->synchronized = TRUE;
  self->sort_rows = TRUE;
  self->tree_host = SL_TIMELINE_NONE;
  self->pins = g_array_new (FALSE, FALSE, sizeof (guint));
  self->selected_row = SL_TIMELINE_NONE;
  self->hl_host_a = self->hl_host_b = SL_TIMELINE_NONE;
  self->filter_a = self->filter_b = self->filter_conn = SL_TIMELINE_NONE;
  self->px_ns = 1e6;
  self->hl_cursor = G_MAXINT64;
  self->clocks = g_array_new (FALSE, TRUE, sizeof (SlTlvClock));
  self->link_bounds = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->link_rels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                           (GDestroyNotify) sl_relation_unref);
  self->vis = g_array_new (FALSE, FALSE, sizeof (SlTlvRow));
  self->row_vis = g_array_new (FALSE, FALSE, sizeof (guint));
  self->row_shown = g_array_new (FALSE, FALSE, sizeof (guint));
  self->host_open = g_byte_array_new ();
  self->closed_procs = g_hash_table_new (NULL, NULL);
  self->pairs = g_array_new (FALSE, FALSE, sizeof (guint));
  self->pair_conns = g_array_new (FALSE, FALSE, sizeof (guint));
  self->row_cache = g_hash_table_new_full (NULL, NULL, NULL, NULL);
  self->arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  self->hl_arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  for (guint i = 0; i < G_N_ELEMENTS (self->mask_lines); i++)
    self->mask_lines[i] = g_array_new (FALSE, FALSE, sizeof (SlMaskLine));
  self->events = sl_event_list_new ();
  self->vadj = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, SL_TLV_ROW_H * 3, 100, 100));

  gtk_widget_init_template (GTK_WIDGET (self));
  sl_text_cell_set_factories (GTK_WIDGET (self), SL_TYPE_TIMELINE_VIEW, event_columns, G_N_ELEMENTS (event_columns));

  gtk_scrollbar_set_adjustment (self->scrollbar, self->vadj);
  g_signal_connect_object (self->vadj, "value-changed", G_CALLBACK (vadj_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->events, "notify::n-items", G_CALLBACK (update_events_label), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->events, "notify::loading", G_CALLBACK (update_events_label), self,
                           G_CONNECT_SWAPPED);
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->events)));
  gtk_column_view_set_model (self->events_view, GTK_SELECTION_MODEL (selection));
  /* the table keeps its smallest height; the timeline gets the rest */
  gtk_paned_set_position (self->paned, 4000);
  _sl_timeline_view_init_input (self);
  _sl_timeline_view_init_find (self);
  _sl_timeline_view_init_stats (self);
  _sl_timeline_view_init_marks (self);
  _sl_timeline_view_init_request (self);
  g_signal_connect_object (self->pages, "notify::visible-child", G_CALLBACK (events_page_cb), self,
                           G_CONNECT_SWAPPED);
  rebuild_filters (self);
  rebuild_connections (self);
  _sl_timeline_view_update_events (self);
  _sl_timeline_view_update_actions (self);
}

/* Public */

guint32
sl_timeline_view_state_rgb (SlTimelineState state)
{
  return state < SL_TIMELINE_N_STATES ? state_rgb[state] : 0;
}

const char *
sl_timeline_view_state_label (SlTimelineState state)
{
  switch (state)
    {
    case SL_TIMELINE_STATE_UNKNOWN:
      return C_("state", "unknown");
    case SL_TIMELINE_STATE_USER:
      return C_("state", "user");
    case SL_TIMELINE_STATE_SYSCALL:
      return C_("state", "system call");
    case SL_TIMELINE_STATE_IRQ:
      return C_("state", "interrupt");
    case SL_TIMELINE_STATE_SOFTIRQ:
      return C_("state", "softirq");
    case SL_TIMELINE_STATE_RUNNABLE:
      return C_("state", "runnable");
    case SL_TIMELINE_STATE_BLOCKED:
      return C_("state", "blocked");
    case SL_TIMELINE_STATE_EXITED:
      return C_("state", "exited");
    case SL_TIMELINE_STATE_IDLE:
      return C_("state", "idle");
    case SL_TIMELINE_STATE_NONE:
    case SL_TIMELINE_N_STATES:
    default:
      return C_("state", "none");
    }
}

SlSession *
sl_timeline_view_get_session (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->session;
}

void
sl_timeline_view_set_session (SlTimelineView *self,
                              SlSession      *session)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (session == NULL || SL_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (self->session_ids); i++)
        g_clear_signal_handler (&self->session_ids[i], self->session);
      if (self->from_session)
        set_timeline (self, NULL, NULL, 0, FALSE);
      g_clear_object (&self->session);
    }
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      self->session_ids[0] = g_signal_connect_swapped (session, "notify::timeline",
                                                       G_CALLBACK (session_timeline_cb), self);
      self->session_ids[1] = g_signal_connect_swapped (session, "updated", G_CALLBACK (session_updated_cb), self);
      self->session_ids[2] = g_signal_connect_swapped (session, "notify::selected-link",
                                                       G_CALLBACK (session_link_cb), self);
      self->session_ids[3] = g_signal_connect_swapped (session, "notify::synchronized",
                                                       G_CALLBACK (session_sync_cb), self);
      self->session_ids[4] = g_signal_connect_swapped (session, "notify::visible-start",
                                                       G_CALLBACK (session_visible_cb), self);
      self->session_ids[5] = g_signal_connect_swapped (session, "notify::visible-end",
                                                       G_CALLBACK (session_visible_cb), self);
      self->session_ids[6] = g_signal_connect_swapped (session, "notify::selection-start",
                                                       G_CALLBACK (session_selection_cb), self);
      self->session_ids[7] = g_signal_connect_swapped (session, "notify::selection-end",
                                                       G_CALLBACK (session_selection_cb), self);
      self->session_ids[8] = g_signal_connect_swapped (session, "notify::state",
                                                       G_CALLBACK (gtk_widget_queue_draw), self->canvas);
      session_updated_cb (self, 0);
      session_link_cb (self);
      if (self->synchronized != sl_session_get_synchronized (session))
        session_sync_cb (self);
      session_timeline_cb (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

SlTimeline *
sl_timeline_view_get_timeline (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->timeline;
}

void
sl_timeline_view_set_timeline (SlTimelineView             *self,
                               SlTimeline                 *timeline,
                               const SlEventStore * const *stores,
                               guint                       n_stores)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  set_timeline (self, timeline, stores, n_stores, FALSE);
}

void
sl_timeline_view_data_changed (SlTimelineView *self)
{
  gint64 lo, hi;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  self->data_version++;
  self->arrow_version++;
  sl_event_list_data_changed (self->events);
  _sl_timeline_view_find_dropped (self);
  _sl_timeline_view_queue_stats (self);
  if (self->timeline == NULL)
    {
      _sl_timeline_view_queue_update (self);
      return;
    }
  for (guint h = self->clocks->len; h < sl_timeline_get_n_hosts (self->timeline); h++)
    {
      ensure_clock (self, h);
      push_clock (self, h);
    }
  if (sl_timeline_get_n_rows (self->timeline) != self->n_rows_seen)
    rebuild_layout (self);
  else
    /* new data can give a thread its process */
    for (guint r = 0; r < self->row_shown->len; r++)
      g_array_index (self->row_shown, guint, r) = ROW_SHOWN_UNKNOWN;
  if (sl_timeline_get_view_range (self->timeline, &lo, &hi))
    {
      /* followed at the frame rate (follow_step()), not per update */
      if (self->follow && hi > self->data_end && self->has_span)
        self->follow_target = hi + follow_room (self, _sl_timeline_view_end (self) -
                                                        _sl_timeline_view_start (self));
      self->data_end = MAX (self->data_end, hi);
      /* a live model that was empty when it was set, or one that shows
       * everything */
      if (!self->has_span)
        fit_or_follow (self);
      else if (self->fitted)
        _sl_timeline_view_fit (self);
    }
  update_status (self);
  _sl_timeline_view_queue_update (self);
}

/* @stepped: the clocks were stepped to @now already (a session update
 * sets every host's clock at one time: stepping every clock for each of
 * 200 hosts took a third of the update's handling). */
static void
set_host_clock (SlTimelineView    *self,
                guint              host,
                const SlTransform *to_reference,
                guint              reference,
                double             bound_ns,
                gint64             now,
                gboolean           stepped)
{
  SlTlvClock *c;
  SlTransform target;

  if (to_reference != NULL)
    target = *to_reference;
  else
    sl_transform_init_identity (&target);
  ensure_clock (self, host);
  c = &g_array_index (self->clocks, SlTlvClock, host);

  if (!c->known)
    {
      c->known = TRUE;
      c->target = target;
      c->reference = reference;
      c->bound = bound_ns;
      if (self->synchronized)
        {
          c->shown = target;
          push_clock (self, host);
          self->refit_pending = TRUE;
          _sl_timeline_view_queue_update (self);
        }
      return;
    }
  if (memcmp (&c->target, &target, sizeof target) == 0 && c->reference == reference)
    {
      if (c->bound != bound_ns && !(isnan (c->bound) && isnan (bound_ns)))
        {
          c->bound = bound_ns;
          push_clock (self, host);
        }
      return;
    }
  c->target = target;
  c->reference = reference;
  c->bound = bound_ns;
  if (!self->synchronized)
    return;
  if (self->fitted)
    {
      c->shown = target;
      c->anim_start = 0;
      push_clock (self, host);
      self->refit_pending = TRUE;
      _sl_timeline_view_queue_update (self);
      return;
    }

  /* everything drawn now, at its place now */
  if (!stepped)
    step_clocks (self, now);
  if (host == anchor_host (self))
    {
      SlTransform inv, s;

      sl_transform_invert (&c->shown, &inv);
      sl_transform_compose (&target, &inv, &s);
      if (shift_span (self, &s))
        for (guint h = 0; h < self->clocks->len; h++)
          {
            SlTlvClock *k = &g_array_index (self->clocks, SlTlvClock, h);
            SlTransform moved;

            if (!k->known)
              continue;
            sl_transform_compose (&s, &k->shown, &moved);
            k->shown = moved;
            k->from = moved;
            k->anim_start = now;
            push_clock (self, h);
          }
    }
  {
    /* a move of less than half a pixel over the span is not animated */
    gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
    SlTransform inv;
    gint64 l0, l1;
    double d0, d1;

    sl_transform_invert (&c->shown, &inv);
    l0 = sl_transform_apply (&inv, start);
    l1 = sl_transform_apply (&inv, end);
    d0 = fabs ((double) (sl_transform_apply (&target, l0) - start));
    d1 = fabs ((double) (sl_transform_apply (&target, l1) - end));
    c->from = c->shown;
    if (MAX (d0, d1) < 0.5 * self->px_ns || !gtk_widget_get_mapped (GTK_WIDGET (self)))
      {
        c->shown = target;
        c->anim_start = 0;
      }
    else if (c->anim_start == 0 || c->anim_start != now)
      c->anim_start = now;
  }
  push_clock (self, host);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANIMATING]);
  _sl_timeline_view_queue_update (self);
}

void
sl_timeline_view_set_host_clock (SlTimelineView    *self,
                                 guint              host,
                                 const SlTransform *to_reference,
                                 guint              reference,
                                 double             bound_ns)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  set_host_clock (self, host, to_reference, reference, bound_ns, g_get_monotonic_time (), FALSE);
  refit_if_fitted (self);
}

void
sl_timeline_view_set_link_bound (SlTimelineView *self,
                                 guint           host_a,
                                 guint           host_b,
                                 double          bound_ns)
{
  guint64 key;
  double *old;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  key = pair_key (host_a, host_b);
  old = g_hash_table_lookup (self->link_bounds, &key);
  if (old != NULL && (*old == bound_ns || (isnan (*old) && isnan (bound_ns))))
    return;
  if (old != NULL)
    *old = bound_ns;
  else
    {
      guint64 *k = g_new (guint64, 1);
      double *v = g_new (double, 1);

      *k = key;
      *v = bound_ns;
      g_hash_table_insert (self->link_bounds, k, v);
    }
  push_link (self, host_a, host_b, bound_ns);
  self->arrow_version++;
  _sl_timeline_view_queue_update (self);
}

void
sl_timeline_view_get_span (SlTimelineView *self,
                           gint64         *start,
                           gint64         *end)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (start != NULL)
    *start = _sl_timeline_view_start (self);
  if (end != NULL)
    *end = _sl_timeline_view_end (self);
}

void
sl_timeline_view_set_span (SlTimelineView *self,
                           gint64          start,
                           gint64          end)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  /* (a span asked for is not scrolled away to an end already reached) */
  self->follow_target = 0;
  set_span_internal (self, start, end);
}

gboolean
sl_timeline_view_get_synchronized (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), TRUE);
  return self->synchronized;
}

/* Instant (each host jumps to its clock: that is the point of the
 * toggle), but the anchor host's drawing stays where it is. */
void
sl_timeline_view_set_synchronized (SlTimelineView *self,
                                   gboolean        synchronized)
{
  guint anchor;
  SlTransform old_anchor, inv, s;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  synchronized = !!synchronized;
  if (self->synchronized == synchronized)
    return;
  anchor = anchor_host (self);
  old_anchor = _sl_timeline_view_clock (self, anchor)->shown;
  self->synchronized = synchronized;
  _sl_timeline_view_state_changed (self);
  for (guint h = 0; h < self->clocks->len; h++)
    {
      SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, h);

      c->anim_start = 0;
      if (synchronized && c->known)
        c->shown = c->target;
      else
        sl_transform_init_identity (&c->shown);
      push_clock (self, h);
    }
  push_link_bounds (self);
  if (self->fitted)
    _sl_timeline_view_fit (self);
  else
    {
      sl_transform_invert (&old_anchor, &inv);
      sl_transform_compose (&_sl_timeline_view_clock (self, anchor)->shown, &inv, &s);
      shift_span (self, &s);
    }
  self->arrow_version++;
  sl_event_list_times_changed (self->events);
  if (self->session != NULL)
    sl_session_set_synchronized (self->session, synchronized);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYNCHRONIZED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANIMATING]);
  _sl_timeline_view_queue_update (self);
}

gboolean
sl_timeline_view_get_follow (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  return self->follow;
}

void
sl_timeline_view_set_follow (SlTimelineView *self,
                             gboolean        follow)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  follow = !!follow;
  if (self->follow == follow)
    return;
  self->follow = follow;
  if (follow && self->timeline != NULL && self->has_span)
    {
      gint64 lo, hi;

      if (sl_timeline_get_view_range (self->timeline, &lo, &hi))
        {
          gint64 width = _sl_timeline_view_end (self) - _sl_timeline_view_start (self);

          self->data_end = hi;
          gint64 room = follow_room (self, width);

          set_span_internal (self, hi + room - width, hi + room);
        }
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW]);
}

/* Clocks sliding to new transforms, or the span scrolling to the end. */
gboolean
sl_timeline_view_get_animating (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  return clocks_animating (self) || (self->follow && self->follow_target != 0);
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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
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
  reveal_row (self, found);
  sl_timeline_view_select_row (self, found);
  _sl_timeline_view_scroll_to_row (self, found);
  return found;
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
  rebuild_layout (self);
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
  rebuild_layout (self);
}

gboolean
sl_timeline_view_get_host_expanded (SlTimelineView *self,
                                    guint           host)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  return host_open (self, host);
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

GtkWidget *
sl_timeline_view_get_canvas (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->canvas;
}

GListModel *
sl_timeline_view_get_events (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return G_LIST_MODEL (self->events);
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

double
sl_timeline_view_time_to_x (SlTimelineView *self,
                            gint64          view_time)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NAN);

  return SL_TLV_LABEL_W + ((double) (view_time - self->origin) / self->px_ns - (double) self->col0);
}

/* The view's time at canvas x. */
gint64
sl_timeline_view_x_to_time (SlTimelineView *self,
                            double          x)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), 0);

  return self->origin + (gint64) floor (((double) self->col0 + x - SL_TLV_LABEL_W) * self->px_ns);
}

double
sl_timeline_view_host_time_to_x (SlTimelineView *self,
                                 guint           host,
                                 gint64          local)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NAN);

  if (self->timeline != NULL)
    return sl_timeline_view_time_to_x (self, sl_timeline_to_view (self->timeline, host, local));
  return sl_timeline_view_time_to_x (self, sl_transform_apply (&_sl_timeline_view_clock (self, host)->shown, local));
}

void
sl_timeline_view_get_stats (SlTimelineView      *self,
                            SlTimelineViewStats *stats)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (stats != NULL);

  *stats = self->stats;
}

/* Rows */

void
_sl_timeline_view_relayout (SlTimelineView *self)
{
  rebuild_layout (self);
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
  rebuild_layout (self);
  _sl_timeline_view_state_changed (self);
  if (changed & SL_TIMELINE_FILTER_HIDE_IDLE)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDE_IDLE]);
  if (changed & SL_TIMELINE_FILTER_HIDE_KERNEL)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDE_KERNEL]);
  if (changed & SL_TIMELINE_FILTER_ONLY_MESSAGES)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ONLY_MESSAGES]);
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
  rebuild_layout (self);
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
  rebuild_layout (self);
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

/* The Message page follows the selected message */
void
_sl_timeline_view_message_changed (SlTimelineView *self)
{
  if (self->message_label == NULL)
    return;
  if (self->has_msg && self->timeline != NULL)
    {
      g_autofree char *text = sl_timeline_view_dup_message_text (self, &self->msg);

      gtk_label_set_text (self->message_label, text);
      gtk_stack_set_visible_child_name (self->pages, "message");
    }
  else
    gtk_label_set_text (self->message_label, _("Click a message (an arrow) to see where it went, when, and how "
                                               "long it took"));
  _sl_timeline_view_update_actions (self);
}

/**
 * sl_timeline_view_get_kept_from:
 * @view_time: (out): from where every host's data is kept, on the view's
 *   clock
 *
 * Live data with a retention (sl_session_set_retention()): the latest of
 * the hosts' starts of kept data; before it, some host's events were
 * dropped.
 *
 * Returns: %FALSE when nothing was dropped
 */
gboolean
sl_timeline_view_get_kept_from (SlTimelineView *self,
                                gint64         *view_time)
{
  gint64 t = G_MININT64;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  g_return_val_if_fail (view_time != NULL, FALSE);

  if (self->timeline == NULL)
    return FALSE;
  for (guint h = 0; h < sl_timeline_get_n_hosts (self->timeline); h++)
    {
      gint64 kept = sl_timeline_get_kept_from (self->timeline, h);

      if (kept != G_MININT64)
        t = MAX (t, sl_timeline_to_view (self->timeline, h, kept));
    }
  if (t == G_MININT64)
    return FALSE;
  *view_time = t;
  return TRUE;
}

/**
 * sl_timeline_view_get_complete_time:
 * @view_time: (out): where every host is complete, on the view's clock
 *
 * Live data: the time up to which every host still attached (streaming,
 * stalled, connecting) has delivered its events — the earliest of their
 * newest events, as each host's events arrive in its time order; an
 * ended or failed host sends nothing more. After it the data is ragged.
 *
 * Returns: %FALSE when the data is not live or no host has data yet
 */
gboolean
sl_timeline_view_get_complete_time (SlTimelineView *self,
                                    gint64         *view_time)
{
  gint64 t = G_MAXINT64;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  g_return_val_if_fail (view_time != NULL, FALSE);

  if (self->timeline == NULL || !self->from_session || self->session == NULL ||
      !sl_session_get_is_live (self->session))
    return FALSE;
  for (guint h = 0; h < sl_timeline_get_n_hosts (self->timeline); h++)
    {
      SlHostItem *item = sl_session_get_host_item (self->session, h);
      SlHostLive live = item != NULL ? sl_host_item_get_live (item) : SL_HOST_LIVE_NONE;
      gint64 first, last;

      if (live == SL_HOST_LIVE_ENDED || live == SL_HOST_LIVE_FAILED ||
          !sl_timeline_get_time_range (self->timeline, h, &first, &last))
        continue;
      t = MIN (t, sl_timeline_to_view (self->timeline, h, last));
    }
  if (t == G_MAXINT64)
    return FALSE;
  *view_time = t;
  return TRUE;
}
