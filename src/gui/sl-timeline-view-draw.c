/* sl-timeline-view-draw.c: the timeline's canvas
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rows are summarized per pixel column by the model (a few steps per
 * pixel whatever the zoom) into one colour per column, kept per row and
 * reused when the view only pans or scrolls. In the frame clock's update
 * phase the rows and, when there are many, the messages (rasterized as
 * coverage masks) are composed into one image, a band of rows per task on
 * this thread and a helper. snapshot() paints that image and draws what
 * cairo does well: text, the selection, and the messages when few.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-parallel.h"
#include "sl-timeline-view-private.h"

#define ARROW_BUDGET      1000
#define HIGHLIGHT_MAX     600
#define HIGHLIGHT_BUDGET_US 6000
/* the selected link's and the selected row's messages are drawn whole
 * while there is at most one every LINK_WHOLE_PX pixels; else folded, one
 * every LINK_FOLD_PX pixels per direction, by their ends */
#define LINK_WHOLE_PX     8
#define LINK_FOLD_PX      16

struct _SlTimelineCanvas
{
  GtkWidget parent_instance;
};

G_DEFINE_FINAL_TYPE (SlTimelineCanvas, sl_timeline_canvas, GTK_TYPE_WIDGET)

static SlTimelineView *
canvas_view (GtkWidget *canvas)
{
  GtkWidget *v = gtk_widget_get_ancestor (canvas, SL_TYPE_TIMELINE_VIEW);

  return v != NULL ? SL_TIMELINE_VIEW (v) : NULL;
}

void
_sl_timeline_view_set_hex (cairo_t *cr,
                           guint32  rgb,
                           double   alpha)
{
  cairo_set_source_rgba (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0,
                         alpha);
}

guint32
_sl_timeline_view_premul (guint32 rgb,
                          double  alpha)
{
  guint a = (guint) CLAMP (alpha * 255 + 0.5, 0, 255);

  return a << 24 | ((((rgb >> 16) & 0xff) * a / 255) << 16) | ((((rgb >> 8) & 0xff) * a / 255) << 8) |
         ((rgb & 0xff) * a / 255);
}

/* Exited threads fade out; nothing is drawn where nothing is known. */
static double
state_alpha (guint state)
{
  switch (state)
    {
    case SL_TIMELINE_STATE_NONE:
      return 0;
    case SL_TIMELINE_STATE_EXITED:
      return 0.22;
    default:
      return 1;
    }
}

static guint32
pixel_rgba (const SlTimelinePixel *p)
{
  double r = 0, g = 0, b = 0, a = 0;

  if (p->n_states <= 1)
    return _sl_timeline_view_premul (sl_timeline_view_state_rgb (p->state), state_alpha (p->state));
  for (guint s = 1; s < SL_TIMELINE_N_STATES; s++)
    {
      double f = p->fraction[s] * state_alpha (s);
      guint32 rgb;

      if (f <= 0)
        continue;
      rgb = sl_timeline_view_state_rgb (s);
      r += f * ((rgb >> 16) & 0xff);
      g += f * ((rgb >> 8) & 0xff);
      b += f * (rgb & 0xff);
      a += f;
    }
  a = CLAMP (a, 0, 1);
  return (guint32) (a * 255 + 0.5) << 24 | (guint32) MIN (r + 0.5, 255) << 16 | (guint32) MIN (g + 0.5, 255) << 8 |
         (guint32) MIN (b + 0.5, 255);
}

static void
row_cache_free (gpointer data)
{
  SlTlvRowCache *rc = data;

  g_free (rc->rgba);
  g_free (rc);
}

static void
hl_row_reset (SlTimelineView *self)
{
  self->hl_row_msgs = 0;
  self->hl_row_capped = FALSE;
  self->hl_row_coarse = FALSE;
  self->hl_row_cols = 0;
  g_hash_table_remove_all (self->hl_row_fold);
}

void
_sl_timeline_view_clear_caches (SlTimelineView *self)
{
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, self->row_cache);
  while (g_hash_table_iter_next (&it, NULL, &value))
    row_cache_free (value);
  g_hash_table_remove_all (self->row_cache);
  g_clear_pointer (&self->labels_surface, cairo_surface_destroy);
  g_clear_pointer (&self->legend_surface, cairo_surface_destroy);
  g_clear_pointer (&self->ruler_layouts, g_hash_table_unref);
  g_clear_pointer (&self->plot_image, cairo_surface_destroy);
  self->plot_has_messages = FALSE;
  memset (&self->mask_key, 0, sizeof self->mask_key);
  memset (&self->hl_mask_key, 0, sizeof self->hl_mask_key);
  g_array_set_size (self->arrows, 0);
  g_array_set_size (self->hl_arrows, 0);
  self->hl_link_n = 0;
  hl_row_reset (self);
  memset (&self->rows_key, 0, sizeof self->rows_key);
  memset (&self->arrows_key, 0, sizeof self->arrows_key);
  memset (&self->hl_key, 0, sizeof self->hl_key);
  self->hl_cursor = G_MAXINT64;
  memset (&self->labels_key, 0, sizeof self->labels_key);
}

gboolean
_sl_timeline_view_key_equal (const SlTlvKey *a,
                             const SlTlvKey *b)
{
  return memcmp (a, b, sizeof *a) == 0;
}

void
_sl_timeline_view_current_key (SlTimelineView *self,
                               SlTlvKey       *key)
{
  memset (key, 0, sizeof *key);
  key->origin = self->origin;
  key->px_ns = self->px_ns;
  key->col0 = self->col0;
  key->width = self->plot_w;
  key->height = self->rows_h;
  key->scroll = (int) gtk_adjustment_get_value (self->vadj);
  key->layout_version = self->layout_version;
  key->data_version = self->data_version;
  key->clock_version = self->clock_version;
  key->arrow_version = self->arrow_version;
}

/* The lines on the plot for @scroll: the pinned ones, then the scrolled
 * ones (vis indices) */
GArray *
_sl_timeline_view_lines_on_screen (SlTimelineView *self,
                                   int             scroll)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));
  guint first, end;

  for (guint i = 0; i < self->n_pinned; i++)
    if (g_array_index (self->vis, SlTlvRow, i).y < self->pinned_h)
      g_array_append_val (out, i);
  _sl_timeline_view_scrolled_range (self, scroll, &first, &end);
  for (guint i = first; i < end; i++)
    g_array_append_val (out, i);
  return out;
}

/* Per-pixel colours */

typedef struct
{
  SlTimelineView  *self;
  gint64          *view_bounds;
  gint64         **local_bounds;
  guint            n_hosts;
  guint            rows_queried;
  guint64          columns_queried;
} Frame;

static const gint64 *
host_bounds (Frame *f,
             guint  host)
{
  int w = f->self->plot_w;

  if (host >= f->n_hosts)
    return f->view_bounds;
  if (f->local_bounds[host] == NULL)
    {
      gint64 *lb = g_new (gint64, w + 1);

      /* through the timeline's map of the host, piecewise where the
       * host's clock is, as its messages and marks are placed */
      for (int k = 0; k <= w; k++)
        lb[k] = sl_timeline_from_view (f->self->timeline, host, f->view_bounds[k]);
      /* rounding must never make them decrease */
      for (int k = 1; k <= w; k++)
        if (lb[k] < lb[k - 1])
          lb[k] = lb[k - 1];
      f->local_bounds[host] = lb;
    }
  return f->local_bounds[host];
}

/* A row's columns to query: [a0, a1) and [b0, b1), absolute, into @dst
 * (indexed from col0) */
typedef struct
{
  guint          row;
  const gint64  *bounds;
  gint64         a0;
  gint64         a1;
  gint64         b0;
  gint64         b1;
  guint32       *dst;
} RowJob;

typedef struct
{
  const SlTimeline *timeline;
  const RowJob     *jobs;
  gint64            col0;
  int               width;
} RowJobs;

static void
query_columns (const RowJobs   *q,
               const RowJob    *j,
               gint64           a,
               gint64           b,
               SlTimelinePixel *px)
{
  gint64 n = b - a;

  if (n <= 0)
    return;
  sl_timeline_query_row_bounds (q->timeline, j->row, j->bounds + (a - q->col0), (guint) n, px);
  for (gint64 k = 0; k < n; k++)
    j->dst[a - q->col0 + k] = pixel_rgba (&px[k]);
}

/* One row's queries, on this thread or a helper: the model is only read
 * (it changes on this thread, never while a frame is prepared) */
static void
row_job_cb (guint    i,
            gpointer data)
{
  const RowJobs *q = data;
  const RowJob *j = &q->jobs[i];
  g_autofree SlTimelinePixel *px = g_new (SlTimelinePixel, q->width);

  query_columns (q, j, j->a0, j->a1, px);
  query_columns (q, j, j->b0, j->b1, px);
}

/* The colours of @v's pixel columns: known from the cache, else to be
 * queried (@jobs), the columns already known kept when only panned */
static void
plan_row (Frame          *f,
          const SlTlvRow *v,
          GArray         *jobs)
{
  SlTimelineView *self = f->self;
  SlTlvRowCache *rc = g_hash_table_lookup (self->row_cache, GUINT_TO_POINTER (v->row + 1));
  guint64 version = _sl_timeline_view_clock (self, v->host)->version * G_GUINT64_CONSTANT (1000003) +
                    self->data_version;
  gint64 c0 = self->col0, c1 = self->col0 + self->plot_w;
  RowJob j = { v->row, NULL, c0, c1, c1, c1, NULL };

  if (rc != NULL && rc->version == version && rc->origin == self->origin && rc->px_ns == self->px_ns &&
      rc->c_start == c0 && rc->n == self->plot_w)
    {
      rc->frame = self->frame_no;
      return;
    }
  f->rows_queried++;
  if (rc != NULL && rc->version == version && rc->origin == self->origin && rc->px_ns == self->px_ns &&
      rc->c_start < c1 && rc->c_start + rc->n > c0)
    {
      /* panned: keep the columns already known */
      guint32 *rgba = g_new (guint32, self->plot_w);
      gint64 o0 = MAX (c0, rc->c_start), o1 = MIN (c1, rc->c_start + rc->n);

      memcpy (rgba + (o0 - c0), rc->rgba + (o0 - rc->c_start), (gsize) (o1 - o0) * sizeof (guint32));
      j.a1 = o0;
      j.b0 = o1;
      g_free (rc->rgba);
      rc->rgba = rgba;
    }
  else
    {
      if (rc == NULL)
        {
          rc = g_new0 (SlTlvRowCache, 1);
          rc->row = v->row;
          g_hash_table_insert (self->row_cache, GUINT_TO_POINTER (v->row + 1), rc);
        }
      if (rc->n != self->plot_w)
        {
          g_free (rc->rgba);
          rc->rgba = g_new (guint32, self->plot_w);
        }
    }
  /* (the host's bounds only when a row of it is queried) */
  j.bounds = host_bounds (f, v->host);
  j.dst = rc->rgba;
  f->columns_queried += (guint64) ((j.a1 - j.a0) + (j.b1 - j.b0));
  g_array_append_val (jobs, j);
  rc->version = version;
  rc->origin = self->origin;
  rc->px_ns = self->px_ns;
  rc->c_start = c0;
  rc->n = self->plot_w;
  rc->frame = self->frame_no;
}

static void
evict_rows (SlTimelineView *self,
            guint           keep)
{
  GHashTableIter it;
  gpointer value;

  if (g_hash_table_size (self->row_cache) <= keep)
    return;
  g_hash_table_iter_init (&it, self->row_cache);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (((SlTlvRowCache *) value)->frame != self->frame_no)
      {
        row_cache_free (value);
        g_hash_table_iter_remove (&it);
      }
}

/* Messages */

double
_sl_timeline_view_arrow_x (SlTimelineView *self,
                           gint64          view_time)
{
  return (double) (view_time - self->origin) / self->px_ns - (double) self->col0;
}

static void
query_arrows (SlTimelineView *self,
              const guint8   *host_visible,
              guint           n_visible,
              GArray         *out)
{
  guint n_hosts = sl_timeline_get_n_hosts (self->timeline);
  gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
  gint64 lo, hi;
  double share, est, span_share;
  guint cols = (guint) self->plot_w;

  g_array_set_size (out, 0);
  self->arrow_cols = cols;
  self->arrows_coarse = FALSE;
  if (sl_timeline_get_n_arrows (self->timeline) == 0 || !sl_timeline_get_view_range (self->timeline, &lo, &hi))
    return;
  if (self->filter_a != SL_TIMELINE_NONE)
    {
      sl_timeline_query_arrows (self->timeline, start, end, cols, self->filter_a, self->filter_b,
                                self->filter_conn, out);
      return;
    }
  /* fold more when many would be drawn: at most about ARROW_BUDGET */
  span_share = hi > lo ? MIN (1.0, (double) (end - start) / (double) (hi - lo)) : 1;
  share = n_hosts > 0 ? MIN (1.0, 2.0 * n_visible / n_hosts) : 1;
  est = (double) sl_timeline_get_n_arrows (self->timeline) * span_share * share;
  if (est > ARROW_BUDGET)
    cols = (guint) CLAMP (ARROW_BUDGET / MAX (self->n_lanes * share, 1), 4, self->plot_w);
  self->arrow_cols = cols;
  /* fewer columns than pixels: messages folded, shown by their ends */
  self->arrows_coarse = cols < (guint) self->plot_w;
  if (n_visible * 2 >= n_hosts)
    {
      sl_timeline_query_arrows (self->timeline, start, end, cols, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                                SL_TIMELINE_NONE, out);
      return;
    }
  for (guint h = 0; h < n_hosts; h++)
    {
      guint from;

      if (!host_visible[h])
        continue;
      from = out->len;
      sl_timeline_query_arrows (self->timeline, start, end, cols, h, SL_TIMELINE_NONE, SL_TIMELINE_NONE, out);
      /* a message between two visible hosts comes once */
      for (guint i = out->len; i > from; i--)
        {
          const SlTimelineArrow *a = &g_array_index (out, SlTimelineArrow, i - 1);
          guint other = a->send_host == h ? a->recv_host : a->send_host;

          if (other < h && other < n_hosts && host_visible[other])
            g_array_remove_index_fast (out, i - 1);
        }
    }
}

gboolean
_sl_timeline_view_row_is_selected (SlTimelineView *self,
                                   guint           row)
{
  SlTimelineRowInfo ri;

  if (row == self->selected_row)
    return TRUE;
  if (row >= sl_timeline_get_n_rows (self->timeline))
    return FALSE;
  sl_timeline_get_row_info (self->timeline, row, &ri);
  /* a process stands for its threads */
  return ri.kind == SL_TIMELINE_ROW_THREAD && ri.parent == self->selected_row;
}

/* The selected row's message @a in its lane's coarse column: a new arrow,
 * or one more of the arrow there */
static void
hl_row_fold_in (SlTimelineView        *self,
                const SlTimelineArrow *a)
{
  gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
  double span = (double) MAX (end - start, 1);
  gint64 col = (gint64) floor ((double) (a->send_view - start) * self->hl_row_cols / span);
  gint64 key = (gint64) ((guint64) a->send_host << 48 | (guint64) a->recv_host << 32 | (guint32) col);
  gpointer index;

  if (g_hash_table_lookup_extended (self->hl_row_fold, &key, NULL, &index))
    {
      g_array_index (self->hl_arrows, SlTimelineArrow, GPOINTER_TO_UINT (index)).count += MAX (a->count, 1);
      return;
    }
  g_array_append_val (self->hl_arrows, *a);
  g_hash_table_insert (self->hl_row_fold, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (self->hl_arrows->len - 1));
}

/* Past one message every LINK_WHOLE_PX pixels the selected row's messages
 * made a wall (each a whole line from one host's rows to another's): from
 * then on they are folded per lane into one column every LINK_FOLD_PX
 * pixels, those found so far too. */
static void
hl_row_fold (SlTimelineView *self)
{
  g_autoptr(GArray) row = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));

  g_array_append_vals (row, &g_array_index (self->hl_arrows, SlTimelineArrow, self->hl_link_n),
                       self->hl_arrows->len - self->hl_link_n);
  g_array_set_size (self->hl_arrows, self->hl_link_n);
  self->hl_row_coarse = TRUE;
  self->hl_row_cols = MAX ((guint) self->plot_w / LINK_FOLD_PX, 4);
  for (guint i = 0; i < row->len; i++)
    hl_row_fold_in (self, &g_array_index (row, SlTimelineArrow, i));
}

/* The selected thread's (or process's) messages: the host's messages
 * filtered by row, a slice of the span at a time within a budget per
 * frame (at a wide span a host can have tens of thousands); the selected
 * link's, folded per pixel column, at once. */
static gboolean
query_highlight_slice (SlTimelineView *self,
                       gint64          budget_us)
{
  gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
  gint64 chunk = MAX ((end - start) / 16, 1), t0 = g_get_monotonic_time ();
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  guint whole_max = MAX ((guint) self->plot_w / LINK_WHOLE_PX, 1);
  SlTimelineRowInfo ri;

  if (self->hl_cursor >= end || self->selected_row >= sl_timeline_get_n_rows (self->timeline))
    {
      self->hl_cursor = G_MAXINT64;
      return FALSE;
    }
  sl_timeline_get_row_info (self->timeline, self->selected_row, &ri);
  if (ri.kind == SL_TIMELINE_ROW_HOST)
    {
      self->hl_cursor = G_MAXINT64;
      return FALSE;
    }
  while (self->hl_cursor < end && self->hl_arrows->len < HIGHLIGHT_MAX)
    {
      gint64 c0 = self->hl_cursor, c1 = MIN (c0 + chunk, end);
      gint64 last_col = G_MININT64;
      guint last_lane = G_MAXUINT;

      g_array_set_size (all, 0);
      sl_timeline_query_arrows (self->timeline, c0, c1, 0, ri.host, SL_TIMELINE_NONE, SL_TIMELINE_NONE, all);
      for (guint i = 0; i < all->len && self->hl_arrows->len < HIGHLIGHT_MAX; i++)
        {
          const SlTimelineArrow *a = &g_array_index (all, SlTimelineArrow, i);
          guint lane = a->send_host << 16 | a->recv_host;
          gint64 col = (gint64) floor (_sl_timeline_view_arrow_x (self, a->send_view) / 2);

          /* each message once: in the slice its send falls in */
          if ((c0 > start && a->send_view < c0) || (c1 < end && a->send_view >= c1))
            continue;
          if (!((a->send_host == ri.host && _sl_timeline_view_row_is_selected (self, a->send_row)) ||
                (a->recv_host == ri.host && _sl_timeline_view_row_is_selected (self, a->recv_row))))
            continue;
          self->hl_row_msgs++;
          if (self->hl_row_coarse)
            {
              hl_row_fold_in (self, a);
              continue;
            }
          /* the arrows come by lane, then time: one per lane and 2 px */
          if (lane == last_lane && col == last_col)
            continue;
          last_lane = lane;
          last_col = col;
          g_array_append_val (self->hl_arrows, *a);
          if (self->hl_arrows->len - self->hl_link_n > whole_max)
            hl_row_fold (self);
        }
      self->hl_cursor = c1 >= end ? G_MAXINT64 : c1;
      if (g_get_monotonic_time () - t0 > budget_us)
        break;
    }
  if (self->hl_arrows->len >= HIGHLIGHT_MAX)
    {
      self->hl_cursor = G_MAXINT64;
      self->hl_row_capped = TRUE;
    }
  return TRUE;
}

/* The selected link's messages, folded per column as the other messages
 * are. A dense link folded per pixel column still has an arrow in every
 * column, and drawn whole, from one host's rows to the other's, they hid
 * everything between (a link of 100 000 messages was a magenta wall): past
 * one every LINK_WHOLE_PX pixels they are folded into fewer columns and
 * drawn by their ends, which mark where on both hosts the link talks. */
static void
query_link_highlight (SlTimelineView *self)
{
  gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
  guint cols = (guint) self->plot_w;

  self->hl_link_n = 0;
  self->hl_link_cols = cols;
  self->hl_link_coarse = FALSE;
  if (self->hl_host_a == SL_TIMELINE_NONE)
    return;
  sl_timeline_query_arrows (self->timeline, start, end, cols, self->hl_host_a, self->hl_host_b, SL_TIMELINE_NONE,
                            self->hl_arrows);
  if (self->hl_arrows->len > MAX (cols / LINK_WHOLE_PX, 1))
    {
      cols = MAX (cols / LINK_FOLD_PX, 4);
      g_array_set_size (self->hl_arrows, 0);
      sl_timeline_query_arrows (self->timeline, start, end, cols, self->hl_host_a, self->hl_host_b,
                                SL_TIMELINE_NONE, self->hl_arrows);
      self->hl_link_cols = cols;
      self->hl_link_coarse = TRUE;
    }
  self->hl_link_n = self->hl_arrows->len;
}

static gboolean
ensure_highlight (SlTimelineView *self,
                  gint64          budget_us)
{
  SlTlvKey key;

  _sl_timeline_view_current_key (self, &key);
  key.scroll = 0;
  key.height = 0;
  key.layout_version = 0;
  key.extra = ((guint64) self->selected_row << 32) ^ ((guint64) self->hl_host_a << 48) ^ ((guint64) self->hl_host_b << 24);
  if (!_sl_timeline_view_key_equal (&key, &self->hl_key))
    {
      self->hl_key = key;
      g_array_set_size (self->hl_arrows, 0);
      self->hl_cursor = G_MAXINT64;
      hl_row_reset (self);
      query_link_highlight (self);
      if (self->selected_row != SL_TIMELINE_NONE)
        self->hl_cursor = _sl_timeline_view_start (self);
      query_highlight_slice (self, budget_us);
      /* the status line counts the selected row's messages once all found */
      if (self->hl_cursor == G_MAXINT64)
        _sl_timeline_view_update_status (self);
      return TRUE;
    }
  if (self->hl_cursor != G_MAXINT64)
    {
      gboolean changed = query_highlight_slice (self, budget_us);

      if (self->hl_cursor == G_MAXINT64)
        _sl_timeline_view_update_status (self);
      return changed;
    }
  return FALSE;
}

gboolean
_sl_timeline_view_pending (SlTimelineView *self)
{
  return self->timeline != NULL && self->hl_cursor != G_MAXINT64;
}

/* The frame's data, in the frame clock's update phase: the visible rows'
 * colours per pixel column and the messages on screen. */
gboolean
_sl_timeline_view_prepare (SlTimelineView *self)
{
  SlTlvKey key, akey;
  Frame f = { 0 };
  guint n_hosts;
  int w = self->plot_w, h = self->rows_h, scroll;
  g_autofree guint8 *host_visible = NULL;
  g_autoptr(GArray) jobs = g_array_new (FALSE, FALSE, sizeof (RowJob));
  guint n_visible_hosts = 0, visible_rows = 0;
  g_autoptr(GArray) lines = NULL;
  gint64 t0;
  gboolean hl;

  if (self->timeline == NULL || w <= 0 || h <= 0 || !self->has_span)
    return FALSE;
  hl = ensure_highlight (self, HIGHLIGHT_BUDGET_US);
  _sl_timeline_view_current_key (self, &key);
  if (_sl_timeline_view_key_equal (&key, &self->rows_key))
    return _sl_timeline_view_ensure_plot (self, FALSE) || hl;

  t0 = g_get_monotonic_time ();
  self->frame_no++;
  scroll = key.scroll;
  n_hosts = sl_timeline_get_n_hosts (self->timeline);
  host_visible = g_new0 (guint8, MAX (n_hosts, 1));
  f.self = self;
  f.n_hosts = n_hosts;
  f.view_bounds = g_new (gint64, w + 1);
  f.local_bounds = g_new0 (gint64 *, MAX (n_hosts, 1));
  for (int k = 0; k <= w; k++)
    f.view_bounds[k] = self->origin + (gint64) floor ((double) (self->col0 + k) * self->px_ns);

  lines = _sl_timeline_view_lines_on_screen (self, scroll);
  for (guint i = 0; i < lines->len; i++)
    {
      const SlTlvRow *v = &g_array_index (self->vis, SlTlvRow, g_array_index (lines, guint, i));

      visible_rows++;
      if (v->host < n_hosts && !host_visible[v->host])
        {
          host_visible[v->host] = TRUE;
          n_visible_hosts++;
        }
      if (v->kind != SL_TIMELINE_ROW_HOST)
        plan_row (&f, v, jobs);
    }
  if (jobs->len > 0)
    {
      RowJobs q = { self->timeline, (const RowJob *) (gpointer) jobs->data, self->col0, w };

      sl_parallel_for (jobs->len, row_job_cb, &q);
    }
  evict_rows (self, visible_rows * 2 + 16);

  /* messages of the hosts on screen; kept while only the rows move */
  akey = key;
  akey.scroll = 0;
  akey.height = 0;
  for (guint hh = 0; hh < n_hosts; hh++)
    if (host_visible[hh])
      akey.extra = akey.extra * 31 + hh + 1;
  if (!_sl_timeline_view_key_equal (&akey, &self->arrows_key))
    {
      query_arrows (self, host_visible, n_visible_hosts, self->arrows);
      self->arrows_key = akey;
    }
  self->rows_key = key;

  for (guint hh = 0; hh < n_hosts; hh++)
    g_free (f.local_bounds[hh]);
  g_free (f.local_bounds);
  g_free (f.view_bounds);

  _sl_timeline_view_ensure_plot (self, TRUE);
  self->stats.prepare_ms = (g_get_monotonic_time () - t0) / 1000.0;
  self->stats.rows_queried = f.rows_queried;
  self->stats.columns_queried = f.columns_queried;
  self->stats.arrows = self->arrows->len;
  self->stats.visible_rows = visible_rows;
  return TRUE;
}

static void
paint_surface (GtkSnapshot     *snapshot,
               cairo_surface_t *surface,
               double           x,
               double           y,
               double           w,
               double           h)
{
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x, y, w, h));

  cairo_set_source_surface (cr, surface, x, y);
  cairo_paint (cr);
  cairo_destroy (cr);
}

static void
draw_selected_span (SlTimelineView *self,
                    cairo_t        *cr,
                    int             h)
{
  SlTimeSpan sel = _sl_timeline_view_selection (self);

  if (!sl_time_span_is_empty (sel))
    {
      double x0 = _sl_timeline_view_arrow_x (self, sel.begin), x1 = _sl_timeline_view_arrow_x (self, sel.end);

      _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.12);
      cairo_rectangle (cr, x0, 0, MAX (x1 - x0, 1), h);
      cairo_fill (cr);
      _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.8);
      cairo_rectangle (cr, floor (x0) + 0.5, -1, 0, h + 2);
      cairo_rectangle (cr, floor (x1) + 0.5, -1, 0, h + 2);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }
}

/* live with a retention: what was dropped, shaded darker */
static void
draw_dropped (SlTimelineView *self,
              GtkWidget      *canvas,
              cairo_t        *cr,
              int             w,
              int             h)
{
  gint64 kept = 0;
  double x;

  if (!sl_timeline_view_get_kept_from (self, &kept) || _sl_timeline_view_arrow_x (self, kept) <= 0)
    return;
  x = floor (MIN (_sl_timeline_view_arrow_x (self, kept), w)) + 0.5;
  _sl_timeline_view_set_hex (cr, 0x5e5c64, 0.35);
  cairo_rectangle (cr, 0, 0, x, h);
  cairo_fill (cr);
  _sl_timeline_view_set_hex (cr, 0x5e5c64, 1);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, x, 0);
  cairo_line_to (cr, x, h);
  cairo_stroke (cr);
  {
    /* "dropped before HH:MM:SS", left of its line, at the top */
    g_autofree char *when = sl_format_clock_time (kept, 0);
    g_autofree char *text = g_strdup_printf (_("dropped before %s"), when);
    PangoLayout *layout = _sl_timeline_view_ruler_layout (self, canvas, text);
    int lw, lh;

    pango_layout_get_pixel_size (layout, &lw, &lh);
    if (x - 6 - lw >= 0)
      {
        _sl_timeline_view_set_hex (cr, 0x3d3846, 1);
        _sl_timeline_view_show_cached (cr, layout, x - 6 - lw, 4, 0);
      }
  }
}

void
_sl_timeline_view_snapshot_canvas (SlTimelineView *self,
                                   GtkSnapshot    *snapshot,
                                   int             width,
                                   int             height)
{
  GtkWidget *canvas = self->canvas;
  int w = self->plot_w, h = self->rows_h;
  /* whole pixels, as the cached labels and message masks are keyed: a
   * mask moved by half a pixel is filtered, 15 ms a frame (a page scroll
   * gives half pixels) */
  double scroll = (int) gtk_adjustment_get_value (self->vadj);
  GdkRGBA fg;
  cairo_t *cr;
  gint64 complete = 0;
  gboolean has_complete;
  SlTlvKey key;

  /* (a live timeline's hosts may be known before their first event) */
  if (self->timeline == NULL || !sl_timeline_get_view_range (self->timeline, NULL, NULL))
    {
      /* (nothing else to draw: the frame is complete) */
      self->stats.complete = TRUE;
      _sl_timeline_view_draw_placeholder (self, snapshot, width, height);
      return;
    }
  if (w <= 0 || h <= 0)
    return;
  _sl_timeline_view_current_key (self, &key);
  /* normally done in the update phase; a redraw GTK asked for on its own
   * (a new size) does it here */
  if (!_sl_timeline_view_key_equal (&key, &self->rows_key))
    _sl_timeline_view_prepare (self);
  ensure_highlight (self, HIGHLIGHT_BUDGET_US);
  _sl_timeline_view_get_fg (canvas, &fg);
  _sl_timeline_view_ensure_labels (self, canvas);
  _sl_timeline_view_ensure_legend (self, canvas);
  _sl_timeline_view_current_key (self, &key);
  self->stats.complete = _sl_timeline_view_key_equal (&key, &self->rows_key) && !_sl_timeline_view_pending (self);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (SL_TLV_LABEL_W, SL_TLV_RULER_H, w, h));
  cairo_translate (cr, SL_TLV_LABEL_W, SL_TLV_RULER_H);
  cairo_rectangle (cr, 0, 0, w, h);
  cairo_clip (cr);
  if (self->plot_image != NULL)
    {
      cairo_set_source_surface (cr, self->plot_image, 0, 0);
      cairo_paint (cr);
    }
  _sl_timeline_view_draw_messages (self, cr, scroll);
  _sl_timeline_view_draw_request (self, cr, (int) scroll);
  _sl_timeline_view_draw_selected_message (self, cr, (int) scroll);
  if (_sl_timeline_view_selected_vis (self) != SL_TIMELINE_NONE)
    {
      const SlTlvRow *v = &g_array_index (self->vis, SlTlvRow, _sl_timeline_view_selected_vis (self));

      _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, 0.5, _sl_tlv_screen_y (self, v, (int) scroll) + 0.5, w - 1, v->h - 1);
      cairo_stroke (cr);
    }
  draw_selected_span (self, cr, h);
  _sl_timeline_view_draw_bookmark_lines (self, cr, h);
  draw_dropped (self, canvas, cr, w, h);
  has_complete = sl_timeline_view_get_complete_time (self, &complete);
  if (has_complete && _sl_timeline_view_arrow_x (self, complete) < w)
    {
      /* live: the ragged part, where some host may still deliver, shaded */
      double x = floor (_sl_timeline_view_arrow_x (self, complete)) + 0.5;

      _sl_timeline_view_set_hex (cr, 0x9a9996, 0.18);
      cairo_rectangle (cr, MAX (x, 0), 0, w - MAX (x, 0), h);
      cairo_fill (cr);
      _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_COMPLETE, 1);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, 0);
      cairo_line_to (cr, x, h);
      cairo_stroke (cr);
    }
  if (self->has_cursor)
    {
      /* the event found shown last */
      double x = floor (_sl_timeline_view_arrow_x (self, self->cursor_time)) + 0.5;

      _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, 0);
      cairo_line_to (cr, x, h);
      cairo_stroke (cr);
    }
  if (self->drag_mode == 2)
    {
      double x0 = self->drag_x0 - SL_TLV_LABEL_W, x1 = x0 + self->drag_dx;

      _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.2);
      cairo_rectangle (cr, MIN (x0, x1), 0, fabs (x1 - x0), h);
      cairo_fill (cr);
    }
  cairo_destroy (cr);

  if (self->labels_surface != NULL)
    paint_surface (snapshot, self->labels_surface, 0, SL_TLV_RULER_H, SL_TLV_LABEL_W, h);
  if (self->legend_surface != NULL)
    paint_surface (snapshot, self->legend_surface, 0, SL_TLV_RULER_H + h, SL_TLV_LABEL_W + w, SL_TLV_LEGEND_H);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, SL_TLV_RULER_H));
  _sl_timeline_view_draw_ruler (self, canvas, cr, &fg);
  _sl_timeline_view_draw_bookmark_flags (self, cr);
  if (has_complete && _sl_timeline_view_arrow_x (self, complete) >= 0 && _sl_timeline_view_arrow_x (self, complete) < w)
    {
      /* its mark in the ruler: a line and a small flag */
      double x = SL_TLV_LABEL_W + floor (_sl_timeline_view_arrow_x (self, complete)) + 0.5;

      _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_COMPLETE, 1);
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x, SL_TLV_RULER_H - 14);
      cairo_line_to (cr, x, SL_TLV_RULER_H);
      cairo_stroke (cr);
      cairo_move_to (cr, x, SL_TLV_RULER_H - 14);
      cairo_line_to (cr, x - 6, SL_TLV_RULER_H - 14);
      cairo_line_to (cr, x, SL_TLV_RULER_H - 8);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  cairo_destroy (cr);
}

/* The canvas widget */

static void
sl_timeline_canvas_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  SlTimelineView *view = canvas_view (widget);

  if (view != NULL)
    _sl_timeline_view_snapshot_canvas (view, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
}

static void
sl_timeline_canvas_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  SlTimelineView *self = canvas_view (widget);
  int w = MAX (width - SL_TLV_LABEL_W, 0), h = MAX (height - SL_TLV_RULER_H - SL_TLV_LEGEND_H, 0);

  if (self == NULL)
    return;
  if (w != self->plot_w && self->has_span && w > 0)
    {
      gint64 start = self->pending_start, end = self->pending_end;

      self->plot_w = w;
      self->origin = start;
      self->col0 = 0;
      self->px_ns = MAX ((double) (end - start) / w, SL_TLV_MIN_PX_NS);
    }
  self->plot_w = w;
  if (h != self->rows_h)
    {
      self->rows_h = h;
      /* the pinned rows' share and the page */
      _sl_timeline_view_relayout (self);
    }
  _sl_timeline_view_queue_update (self);
}

static void
sl_timeline_canvas_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = SL_TLV_LABEL_W + 100;
      *natural = SL_TLV_LABEL_W + 800;
    }
  else
    {
      *minimum = SL_TLV_RULER_H + SL_TLV_LEGEND_H + 60;
      *natural = SL_TLV_RULER_H + SL_TLV_LEGEND_H + 400;
    }
}

static void
sl_timeline_canvas_map (GtkWidget *widget)
{
  SlTimelineView *view;

  GTK_WIDGET_CLASS (sl_timeline_canvas_parent_class)->map (widget);
  view = canvas_view (widget);
  if (view != NULL)
    _sl_timeline_view_queue_update (view);
}

static void
sl_timeline_canvas_unrealize (GtkWidget *widget)
{
  SlTimelineView *view = canvas_view (widget);

  if (view != NULL && view->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (widget, view->tick_id);
      view->tick_id = 0;
    }
  GTK_WIDGET_CLASS (sl_timeline_canvas_parent_class)->unrealize (widget);
}

/* Colours and fonts of the text come from the style */
static void
sl_timeline_canvas_css_changed (GtkWidget         *widget,
                                GtkCssStyleChange *change)
{
  SlTimelineView *view = canvas_view (widget);

  GTK_WIDGET_CLASS (sl_timeline_canvas_parent_class)->css_changed (widget, change);
  if (view == NULL)
    return;
  g_clear_pointer (&view->labels_surface, cairo_surface_destroy);
  g_clear_pointer (&view->legend_surface, cairo_surface_destroy);
  g_clear_pointer (&view->ruler_layouts, g_hash_table_unref);
  gtk_widget_queue_draw (widget);
}

static void
sl_timeline_canvas_class_init (SlTimelineCanvasClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->css_changed = sl_timeline_canvas_css_changed;
  widget_class->snapshot = sl_timeline_canvas_snapshot;
  widget_class->size_allocate = sl_timeline_canvas_size_allocate;
  widget_class->measure = sl_timeline_canvas_measure;
  widget_class->map = sl_timeline_canvas_map;
  widget_class->unrealize = sl_timeline_canvas_unrealize;
  gtk_widget_class_set_css_name (widget_class, "timelinecanvas");
}

static void
sl_timeline_canvas_init (SlTimelineCanvas *self)
{
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
}
