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
#include "sl-mask-raster.h"
#include "sl-timeline-view-private.h"

#define ARROW_BUDGET      1000
#define WHISKER_MAX       600
#define HIGHLIGHT_MAX     600
#define VECTOR_MAX        80
#define FAST_LINES        300
#define HIGHLIGHT_BUDGET_US 6000

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

static void
set_hex (cairo_t *cr,
         guint32  rgb,
         double   alpha)
{
  cairo_set_source_rgba (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0,
                         alpha);
}

static guint32
premul (guint32 rgb,
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
    return premul (sl_timeline_view_state_rgb (p->state), state_alpha (p->state));
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
  memset (&self->rows_key, 0, sizeof self->rows_key);
  memset (&self->arrows_key, 0, sizeof self->arrows_key);
  memset (&self->hl_key, 0, sizeof self->hl_key);
  self->hl_cursor = G_MAXINT64;
  memset (&self->labels_key, 0, sizeof self->labels_key);
}

static gboolean
key_equal (const SlTlvKey *a,
           const SlTlvKey *b)
{
  return memcmp (a, b, sizeof *a) == 0;
}

static void
current_key (SlTimelineView *self,
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
static GArray *
lines_on_screen (SlTimelineView *self,
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

static double
arrow_x (SlTimelineView *self,
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

static gboolean
row_is_selected (SlTimelineView *self,
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
          gint64 col = (gint64) floor (arrow_x (self, a->send_view) / 2);

          /* each message once: in the slice its send falls in */
          if ((c0 > start && a->send_view < c0) || (c1 < end && a->send_view >= c1))
            continue;
          if (!((a->send_host == ri.host && row_is_selected (self, a->send_row)) ||
                (a->recv_host == ri.host && row_is_selected (self, a->recv_row))))
            continue;
          /* the arrows come by lane, then time: one per lane and 2 px */
          if (lane == last_lane && col == last_col)
            continue;
          last_lane = lane;
          last_col = col;
          g_array_append_val (self->hl_arrows, *a);
        }
      self->hl_cursor = c1 >= end ? G_MAXINT64 : c1;
      if (g_get_monotonic_time () - t0 > budget_us)
        break;
    }
  if (self->hl_arrows->len >= HIGHLIGHT_MAX)
    self->hl_cursor = G_MAXINT64;
  return TRUE;
}

static gboolean
ensure_highlight (SlTimelineView *self,
                  gint64          budget_us)
{
  SlTlvKey key;

  current_key (self, &key);
  key.scroll = 0;
  key.height = 0;
  key.layout_version = 0;
  key.extra = ((guint64) self->selected_row << 32) ^ ((guint64) self->hl_host_a << 48) ^ ((guint64) self->hl_host_b << 24);
  if (!key_equal (&key, &self->hl_key))
    {
      self->hl_key = key;
      g_array_set_size (self->hl_arrows, 0);
      self->hl_cursor = G_MAXINT64;
      if (self->hl_host_a != SL_TIMELINE_NONE)
        sl_timeline_query_arrows (self->timeline, _sl_timeline_view_start (self), _sl_timeline_view_end (self),
                                  (guint) self->plot_w, self->hl_host_a, self->hl_host_b, SL_TIMELINE_NONE,
                                  self->hl_arrows);
      if (self->selected_row != SL_TIMELINE_NONE)
        self->hl_cursor = _sl_timeline_view_start (self);
      query_highlight_slice (self, budget_us);
      return TRUE;
    }
  if (self->hl_cursor != G_MAXINT64)
    return query_highlight_slice (self, budget_us);
  return FALSE;
}

gboolean
_sl_timeline_view_pending (SlTimelineView *self)
{
  return self->timeline != NULL && self->hl_cursor != G_MAXINT64;
}



static gboolean ensure_plot (SlTimelineView *self,
                             gboolean        rows_changed);

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
  current_key (self, &key);
  if (key_equal (&key, &self->rows_key))
    return ensure_plot (self, FALSE) || hl;

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

  lines = lines_on_screen (self, scroll);
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
  if (!key_equal (&akey, &self->arrows_key))
    {
      query_arrows (self, host_visible, n_visible_hosts, self->arrows);
      self->arrows_key = akey;
    }
  self->rows_key = key;

  for (guint hh = 0; hh < n_hosts; hh++)
    g_free (f.local_bounds[hh]);
  g_free (f.local_bounds);
  g_free (f.view_bounds);

  ensure_plot (self, TRUE);
  self->stats.prepare_ms = (g_get_monotonic_time () - t0) / 1000.0;
  self->stats.rows_queried = f.rows_queried;
  self->stats.columns_queried = f.columns_queried;
  self->stats.arrows = self->arrows->len;
  self->stats.visible_rows = visible_rows;
  return TRUE;
}

/* Messages: drawn as cairo paths when few, else recorded as lines and
 * rasterized into A8 masks (a cairo stroke costs tens of microseconds
 * through the cairo renderer; a rasterized line about one), a band of rows
 * per task, on this thread and a helper (sl_parallel_for). */

typedef struct
{
  cairo_t *cr;
  GArray  *lines;
  double   w;
  double   h;
  double   alpha;
  double   width;
} Pen;

static void
pen_line (Pen    *p,
          double  x0,
          double  y0,
          double  x1,
          double  y1)
{
  SlMaskLine l;

  if (!isfinite (x0) || !isfinite (y0) || !isfinite (x1) || !isfinite (y1))
    return;
  if (p->cr != NULL)
    {
      cairo_move_to (p->cr, x0, y0);
      cairo_line_to (p->cr, x1, y1);
      return;
    }
  if (!sl_mask_clip (p->w, p->h, &x0, &y0, &x1, &y1))
    return;
  l.x0 = (float) x0;
  l.y0 = (float) y0;
  l.x1 = (float) x1;
  l.y1 = (float) y1;
  l.alpha = (guint8) CLAMP (p->alpha * 255 + 0.5, 0, 255);
  l.wide = p->width > 1.5;
  g_array_append_val (p->lines, l);
}

static void
pen_init_record (Pen    *p,
                 GArray *lines,
                 int     w,
                 int     h)
{
  memset (p, 0, sizeof *p);
  g_array_set_size (lines, 0);
  p->lines = lines;
  p->w = w;
  p->h = h;
  p->alpha = 1;
  p->width = 1;
}

static void
emit_arrow (Pen    *p,
            double  xs,
            double  ys,
            double  xr,
            double  yr,
            double  head)
{
  double dx = xr - xs, dy = yr - ys, len = sqrt (dx * dx + dy * dy);

  pen_line (p, xs, ys, xr, yr);
  if (len > 2 * head)
    {
      double ux = dx / len, uy = dy / len;

      pen_line (p, xr - head * ux - head / 2 * uy, yr - head * uy + head / 2 * ux, xr, yr);
      pen_line (p, xr - head * ux + head / 2 * uy, yr - head * uy - head / 2 * ux, xr, yr);
    }
}

/* Where an arrow is drawn on the plot: the whole line, or, for the
 * messages folded per column at a coarse zoom (@stubs), its two ends only:
 * a stub leaving the sender towards the receiver and one arriving there,
 * so that a zoomed-out view of many hosts is not a wall of lines through
 * every row. Returns the segments (0 when off the plot). */
guint
_sl_timeline_view_arrow_segments (SlTimelineView        *self,
                                  const SlTimelineArrow *a,
                                  int                    scroll,
                                  gboolean               stubs,
                                  SlTlvSegment           seg[2])
{
  double w = self->plot_w, h = self->rows_h;
  double xs = arrow_x (self, a->send_view), xr = arrow_x (self, a->recv_view);
  double ys = _sl_timeline_view_row_center (self, a->send_row, scroll);
  double yr = _sl_timeline_view_row_center (self, a->recv_row, scroll);
  double dx = xr - xs, dy = yr - ys, len = sqrt (dx * dx + dy * dy);

  if (isnan (ys) || isnan (yr) || (ys < 0 && yr < 0) || (ys > h && yr > h) || (xs < 0 && xr < 0) ||
      (xs > w && xr > w))
    return 0;
  if (!stubs || len <= 3 * SL_TLV_STUB_PX)
    {
      seg[0] = (SlTlvSegment) { xs, ys, xr, yr, TRUE };
      return 1;
    }
  dx *= SL_TLV_STUB_PX / len;
  dy *= SL_TLV_STUB_PX / len;
  seg[0] = (SlTlvSegment) { xs, ys, xs + dx, ys + dy, FALSE };
  seg[1] = (SlTlvSegment) { xr - dx, yr - dy, xr, yr, TRUE };
  return 2;
}

/* The arrows of @arrows with (@folded) or without several messages in
 * their pixel column. */
static void
emit_messages (SlTimelineView *self,
               GArray         *arrows,
               Pen            *p,
               double          scroll,
               int             folded,
               double          head)
{
  gboolean stubs = arrows == self->arrows && self->arrows_coarse;

  for (guint i = 0; i < arrows->len; i++)
    {
      const SlTimelineArrow *a = &g_array_index (arrows, SlTimelineArrow, i);
      SlTlvSegment seg[2];
      guint n;

      if (folded >= 0 && (a->count > 1) != folded)
        continue;
      n = _sl_timeline_view_arrow_segments (self, a, (int) scroll, stubs, seg);
      for (guint k = 0; k < n; k++)
        if (seg[k].head)
          emit_arrow (p, seg[k].x0, seg[k].y0, seg[k].x1, seg[k].y1, head);
        else
          pen_line (p, seg[k].x0, seg[k].y0, seg[k].x1, seg[k].y1);
    }
}

/* Where the receive may truly be relative to the send (the link's bound):
 * a whisker; hatched where the clocks cannot order the two ends. */
static void
emit_bounds (SlTimelineView *self,
             GArray         *arrows,
             Pen            *whisker,
             Pen            *hatched,
             double          scroll)
{
  for (guint i = 0; i < arrows->len; i++)
    {
      const SlTimelineArrow *a = &g_array_index (arrows, SlTimelineArrow, i);
      double xr = arrow_x (self, a->recv_view);
      double yr = _sl_timeline_view_row_center (self, a->recv_row, (int) scroll);
      double u = a->uncertainty_ns / self->px_ns;

      if (!isfinite (u) || u < 1.5 || isnan (yr) || yr < -10 || yr > self->rows_h + 10 || xr + u < 0 ||
          xr - u > self->plot_w)
        continue;
      u = MIN (u, 4 * self->plot_w);
      /* crisp: on a pixel's middle */
      yr = floor (yr) + 0.5;
      pen_line (whisker, xr - u, yr, xr + u, yr);
      pen_line (whisker, xr - u, yr - 3, xr - u, yr + 3);
      pen_line (whisker, xr + u, yr - 3, xr + u, yr + 3);
      if (fabs ((double) (a->recv_view - a->send_view)) < a->uncertainty_ns)
        {
          double x0 = MAX (xr - u, -10), x1 = MIN (xr + u, self->plot_w + 10), hh = 5;

          double keep = hatched->alpha;

          hatched->alpha = keep * 0.8;
          pen_line (hatched, x0, yr - hh, x1, yr - hh);
          pen_line (hatched, x0, yr + hh, x1, yr + hh);
          for (double x = x0 - 2 * hh; x < x1; x += 4)
            {
              double l = MAX (x, x0), r = MIN (x + 2 * hh, x1);

              if (r > l)
                pen_line (hatched, l, yr + hh - (l - x), r, yr + hh - (r - x));
            }
          hatched->alpha = keep;
        }
    }
}

static guint
bounds_count (SlTimelineView *self)
{
  return (self->arrows->len <= WHISKER_MAX ? self->arrows->len : 0) + self->hl_arrows->len;
}

/* The plot: the rows' colours and, when there are many messages, their
 * masks, composed into one image in the update phase, a band of rows per
 * task on this thread and the helpers (sl_parallel_for). The snapshot
 * paints that one image: one pass over the plot instead of one per row
 * and per mask through cairo's recording of the node. */

typedef struct
{
  GArray  *lines;
  gboolean antialias;
  /* the colour through coverage m, and what is left of the pixel below */
  guint32  src[256];
  guint8   inv[256];
} Layer;

typedef struct
{
  guint32        *pixels;
  const guint32 **line_src;
  int             w;
  int             h;
  int             band_h;
  int             stride_a8;
  Layer          *layers;
  guint           n_layers;
} Compose;

#define PLOT_BANDS 8

/* the four channels of @x times @a / 255, rounded as pixman does */
static inline guint32
un8x4_mul_un8 (guint32 x,
               guint   a)
{
  guint32 rb = (x & 0x00ff00ff) * a + 0x00800080;
  guint32 ag = ((x >> 8) & 0x00ff00ff) * a + 0x00800080;

  rb = ((rb + ((rb >> 8) & 0x00ff00ff)) >> 8) & 0x00ff00ff;
  ag = (ag + ((ag >> 8) & 0x00ff00ff)) & 0xff00ff00;
  return rb | ag;
}

/* @x + @y per channel, saturated */
static inline guint32
un8x4_add (guint32 x,
           guint32 y)
{
  guint32 rb = (x & 0x00ff00ff) + (y & 0x00ff00ff);
  guint32 ag = ((x >> 8) & 0x00ff00ff) + ((y >> 8) & 0x00ff00ff);

  rb |= 0x01000100 - ((rb >> 8) & 0x00ff00ff);
  ag |= 0x01000100 - ((ag >> 8) & 0x00ff00ff);
  return (rb & 0x00ff00ff) | (ag & 0x00ff00ff) << 8;
}

/* Over, a layer's colour through its coverage mask, on one row */
static void
blend_row (guint32      *dst,
           const guint8 *mask,
           int           w,
           const Layer  *l)
{
  int x = 0;

  while (x < w)
    {
      guint64 eight;

      /* most of a mask is empty: eight pixels at a time */
      if (x + 8 <= w)
        {
          memcpy (&eight, mask + x, sizeof eight);
          if (eight == 0)
            {
              x += 8;
              continue;
            }
        }
      for (int end = MIN (x + 8, w); x < end; x++)
        {
          guint m = mask[x];

          if (m != 0)
            dst[x] = un8x4_add (l->src[m], un8x4_mul_un8 (dst[x], l->inv[m]));
        }
    }
}

static void
compose_band_cb (guint    band,
                 gpointer data)
{
  Compose *c = data;
  int r0 = (int) band * c->band_h, r1 = MIN (r0 + c->band_h, c->h);
  g_autofree guint8 *mask = NULL;

  if (r0 >= r1)
    return;
  for (int y = r0; y < r1; y++)
    {
      guint32 *dst = c->pixels + (gsize) y * c->w;

      if (c->line_src[y] != NULL)
        memcpy (dst, c->line_src[y], (gsize) c->w * sizeof (guint32));
      else
        memset (dst, 0, (gsize) c->w * sizeof (guint32));
    }
  if (c->n_layers == 0)
    return;
  mask = g_malloc ((gsize) c->stride_a8 * (r1 - r0));
  for (guint k = 0; k < c->n_layers; k++)
    {
      const Layer *l = &c->layers[k];

      if (l->lines->len == 0)
        continue;
      memset (mask, 0, (gsize) c->stride_a8 * (r1 - r0));
      /* the band's rows of a mask whose row r0 is at @mask */
      sl_mask_lines (mask - (gssize) r0 * c->stride_a8, c->w, c->stride_a8, (const SlMaskLine *) l->lines->data,
                     l->lines->len, l->antialias, r0, r1);
      for (int y = r0; y < r1; y++)
        blend_row (c->pixels + (gsize) y * c->w, mask + (gsize) (y - r0) * c->stride_a8, c->w, l);
    }
}

static void
layer_init (Layer   *l,
            GArray  *lines,
            guint32  rgb,
            double   alpha,
            gboolean antialias)
{
  guint32 colour = premul (rgb, alpha);

  l->lines = lines;
  l->antialias = antialias;
  for (guint m = 0; m < 256; m++)
    {
      l->src[m] = un8x4_mul_un8 (colour, m);
      l->inv[m] = (guint8) (255 - (l->src[m] >> 24));
    }
}

static gboolean
use_masks (SlTimelineView *self)
{
  return self->arrows->len > VECTOR_MAX || self->hl_arrows->len > VECTOR_MAX || bounds_count (self) > VECTOR_MAX;
}

static void
compose_plot (SlTimelineView *self)
{
  static const cairo_user_data_key_t data_key;
  int w = self->plot_w, h = self->rows_h, scroll = (int) gtk_adjustment_get_value (self->vadj);
  g_autofree const guint32 **line_src = g_new0 (const guint32 *, h);
  g_autofree guint32 *host_line = NULL;
  g_autofree Layer *layers = g_new (Layer, 3);
  Compose c = { 0 };
  g_autoptr(GArray) lines = lines_on_screen (self, scroll);
  guint32 band = premul (0x9a9996, 0.12);
  guint sticky;
  int sticky_y;

  host_line = g_new (guint32, w);
  for (int x = 0; x < w; x++)
    host_line[x] = band;
  /* which colours each line of pixels shows */
  for (guint i = 0; i < lines->len; i++)
    {
      const SlTlvRow *v = &g_array_index (self->vis, SlTlvRow, g_array_index (lines, guint, i));
      int y0 = _sl_tlv_screen_y (self, v, scroll), ya, yb;
      /* scrolled rows pass under the pinned ones */
      int top = v->pinned ? 0 : self->pinned_h, bottom = v->pinned ? self->pinned_h : h;
      const guint32 *src;

      if (v->kind == SL_TIMELINE_ROW_HOST)
        {
          src = host_line;
          ya = y0, yb = y0 + v->h;
        }
      else
        {
          SlTlvRowCache *rc = g_hash_table_lookup (self->row_cache, GUINT_TO_POINTER (v->row + 1));

          if (rc == NULL || rc->n != w || rc->c_start != self->col0 || rc->px_ns != self->px_ns ||
              rc->origin != self->origin)
            continue;
          src = rc->rgba;
          ya = y0 + 2, yb = y0 + v->h - 2;
        }
      for (int y = MAX (ya, top); y < MIN (yb, bottom); y++)
        line_src[y] = src;
    }
  if (_sl_timeline_view_sticky_header (self, scroll, &sticky, &sticky_y))
    for (int y = MAX (sticky_y, self->pinned_h); y < MIN (sticky_y + SL_TLV_HOST_H, h); y++)
      line_src[y] = host_line;

  c.w = w;
  c.h = h;
  c.band_h = (h + PLOT_BANDS - 1) / PLOT_BANDS;
  c.stride_a8 = cairo_format_stride_for_width (CAIRO_FORMAT_A8, w);
  c.line_src = line_src;
  c.layers = layers;
  self->plot_has_messages = use_masks (self);
  if (self->plot_has_messages)
    {
      layer_init (&c.layers[c.n_layers++], self->mask_lines[0], SL_TIMELINE_RGB_ARROW, 0.95,
                  self->arrows->len <= FAST_LINES);
      layer_init (&c.layers[c.n_layers++], self->mask_lines[2], SL_TIMELINE_RGB_UNCERTAIN, 1, TRUE);
      layer_init (&c.layers[c.n_layers++], self->mask_lines[1], SL_TIMELINE_RGB_ARROW_HIGHLIGHT, 0.95,
                  self->hl_arrows->len <= FAST_LINES);
    }
  c.pixels = g_malloc ((gsize) w * h * sizeof (guint32));
  sl_parallel_for (PLOT_BANDS, compose_band_cb, &c);

  g_clear_pointer (&self->plot_image, cairo_surface_destroy);
  self->plot_image = cairo_image_surface_create_for_data ((guchar *) c.pixels, CAIRO_FORMAT_ARGB32, w, h,
                                                          w * (int) sizeof (guint32));
  cairo_surface_set_user_data (self->plot_image, &data_key, c.pixels, g_free);
}

/* The plot image for the frame: made again when the rows changed or the
 * messages (the span, the scroll, the selection); the lines of each kind
 * of message recorded again only when they changed. */
static gboolean
ensure_plot (SlTimelineView *self,
             gboolean        rows_changed)
{
  SlTlvKey key, hl_key;
  gboolean arrows_changed, hl_changed;
  Pen p;
  double scroll;

  current_key (self, &key);
  hl_key = key;
  hl_key.extra = ((guint64) self->selected_row << 32) ^ ((guint64) self->hl_host_a << 48) ^
                 ((guint64) self->hl_host_b << 24) ^ self->hl_arrows->len;
  arrows_changed = !key_equal (&key, &self->mask_key);
  hl_changed = !key_equal (&hl_key, &self->hl_mask_key);
  if (!arrows_changed && !hl_changed && !rows_changed && self->plot_image != NULL)
    return FALSE;
  scroll = key.scroll;
  if (arrows_changed || hl_changed)
    {
      gboolean masks = use_masks (self);

      self->mask_key = key;
      self->hl_mask_key = hl_key;
      /* single messages lighter than folded ones */
      pen_init_record (&p, self->mask_lines[0], self->plot_w, self->rows_h);
      if (masks)
        {
          p.alpha = 0.7 / 0.95;
          emit_messages (self, self->arrows, &p, scroll, 0, 6);
          p.alpha = 1;
          emit_messages (self, self->arrows, &p, scroll, 1, 6);
        }
      pen_init_record (&p, self->mask_lines[1], self->plot_w, self->rows_h);
      if (masks)
        {
          p.width = 2;
          emit_messages (self, self->hl_arrows, &p, scroll, -1, 7);
        }
      /* whiskers and hatching in one mask (same pen: the hatching is
       * drawn at 0.8 by emit_bounds) */
      pen_init_record (&p, self->mask_lines[2], self->plot_w, self->rows_h);
      if (masks)
        {
          if (self->arrows->len <= WHISKER_MAX)
            emit_bounds (self, self->arrows, &p, &p, scroll);
          emit_bounds (self, self->hl_arrows, &p, &p, scroll);
        }
    }
  compose_plot (self);
  return TRUE;
}

/* The messages as cairo paths, when they are few (else they are in the
 * plot image) */
static void
draw_messages (SlTimelineView *self,
               cairo_t        *cr,
               double          scroll)
{
  Pen p = { 0 }, h;

  /* (as when the plot was composed: the selection's messages may have
   * grown since) */
  if (self->plot_has_messages)
    return;
  p.cr = cr;
  p.alpha = 1;
  cairo_set_line_width (cr, 1);
  for (int folded = 0; folded < 2; folded++)
    {
      emit_messages (self, self->arrows, &p, scroll, folded, 6);
      /* folded arrows (several in a pixel column) are darker */
      set_hex (cr, SL_TIMELINE_RGB_ARROW, folded ? 0.95 : 0.7);
      cairo_stroke (cr);
    }
  h = p;
  if (self->arrows->len <= WHISKER_MAX)
    emit_bounds (self, self->arrows, &p, &h, scroll);
  emit_bounds (self, self->hl_arrows, &p, &h, scroll);
  set_hex (cr, SL_TIMELINE_RGB_UNCERTAIN, 1);
  cairo_stroke (cr);
  cairo_set_line_width (cr, 2);
  emit_messages (self, self->hl_arrows, &p, scroll, -1, 7);
  set_hex (cr, SL_TIMELINE_RGB_ARROW_HIGHLIGHT, 0.95);
  cairo_stroke (cr);
}

/* Text: labels (cached), ruler, legend */

static void
get_fg (GtkWidget *widget,
        GdkRGBA   *fg)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
layout_text (cairo_t     *cr,
             PangoLayout *layout,
             const char  *text,
             double       x,
             double       y,
             double       halign,
             double       valign)
{
  int lw, lh;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  cairo_move_to (cr, x - lw * halign, y - lh * valign);
  pango_cairo_show_layout (cr, layout);
}

static char *
row_label (SlTimelineView  *self,
           const SlTlvRow  *v,
           const SlTimelineRowInfo *ri)
{
  if (v->pinned && v->kind != SL_TIMELINE_ROW_HOST)
    {
      /* out of its host's rows: named with it */
      SlTlvRow plain = *v;
      SlTimelineRowInfo hi;
      g_autofree char *text = NULL;

      plain.pinned = FALSE;
      text = row_label (self, &plain, ri);
      sl_timeline_get_row_info (self->timeline, sl_timeline_get_host_row (self->timeline, v->host), &hi);
      return g_strdup_printf ("%s: %s", hi.name, text);
    }
  switch (v->kind)
    {
    case SL_TIMELINE_ROW_HOST:
      return g_strdup (ri->name != NULL ? ri->name : "?");
    case SL_TIMELINE_ROW_CPU:
      return g_strdup_printf (_("CPU %u"), ri->cpu);
    case SL_TIMELINE_ROW_PROCESS:
      return g_strdup_printf ("%s [%u]", ri->name != NULL ? ri->name : "?", ri->tid);
    default:
      return g_strdup_printf ("%s (%u)", ri->name != NULL ? ri->name : "?", ri->tid);
    }
}

static void
ensure_labels (SlTimelineView *self,
               GtkWidget      *canvas)
{
  SlTlvKey key;
  int scale = gtk_widget_get_scale_factor (canvas);
  int h = self->rows_h, scroll = (int) gtk_adjustment_get_value (self->vadj);
  cairo_surface_t *surface;
  cairo_t *cr;
  PangoLayout *layout;
  PangoFontDescription *bold;
  GdkRGBA fg;
  g_autoptr(GArray) lines = NULL;
  guint sel, sticky = SL_TIMELINE_NONE;
  int sticky_y = 0;

  memset (&key, 0, sizeof key);
  key.height = h;
  key.scroll = scroll;
  key.width = scale;
  key.layout_version = self->layout_version;
  key.data_version = self->data_version;
  if (self->labels_surface != NULL && key_equal (&key, &self->labels_key) && self->labels_sel == self->selected_row)
    return;
  g_clear_pointer (&self->labels_surface, cairo_surface_destroy);
  if (h <= 0 || self->timeline == NULL)
    return;

  get_fg (canvas, &fg);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, SL_TLV_LABEL_W * scale, h * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  layout = gtk_widget_create_pango_layout (canvas, NULL);
  pango_layout_set_width (layout, (SL_TLV_LABEL_W - 40) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  bold = pango_font_description_copy (pango_context_get_font_description (pango_layout_get_context (layout)));
  pango_font_description_set_weight (bold, PANGO_WEIGHT_BOLD);

  lines = lines_on_screen (self, scroll);
  sel = _sl_timeline_view_selected_vis (self);
  if (_sl_timeline_view_sticky_header (self, scroll, &sticky, &sticky_y))
    g_array_append_val (lines, sticky);
  for (guint li = 0; li < lines->len; li++)
    {
      guint i = g_array_index (lines, guint, li);
      const SlTlvRow *v = &g_array_index (self->vis, SlTlvRow, i);
      gboolean is_sticky = li == lines->len - 1 && sticky != SL_TIMELINE_NONE;
      double y0 = is_sticky ? sticky_y : _sl_tlv_screen_y (self, v, scroll), yc = y0 + v->h / 2.0;
      double x = 8 + v->depth * 14;
      g_autofree char *text = NULL;
      SlTimelineRowInfo ri;

      cairo_save (cr);
      /* scrolled lines pass under the pinned ones; the sticky header
       * hides what it covers */
      cairo_rectangle (cr, 0, v->pinned ? 0 : self->pinned_h, SL_TLV_LABEL_W, v->pinned ? self->pinned_h : h);
      cairo_clip (cr);
      if (is_sticky)
        {
          cairo_save (cr);
          cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
          cairo_rectangle (cr, 0, y0, SL_TLV_LABEL_W, v->h);
          cairo_fill (cr);
          cairo_restore (cr);
        }
      sl_timeline_get_row_info (self->timeline, v->row, &ri);
      if (v->kind == SL_TIMELINE_ROW_HOST)
        {
          set_hex (cr, 0x9a9996, 0.12);
          cairo_rectangle (cr, 0, y0, SL_TLV_LABEL_W, v->h);
          cairo_fill (cr);
        }
      if (i == sel)
        {
          set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.25);
          cairo_rectangle (cr, 0, y0, SL_TLV_LABEL_W, v->h);
          cairo_fill (cr);
        }
      gdk_cairo_set_source_rgba (cr, &fg);
      if (v->expandable)
        {
          /* ▸ closed, ▾ open */
          cairo_save (cr);
          cairo_translate (cr, x + 4, yc);
          if (v->expanded)
            cairo_rotate (cr, G_PI / 2);
          cairo_move_to (cr, -3, -4);
          cairo_line_to (cr, 3, 0);
          cairo_line_to (cr, -3, 4);
          cairo_close_path (cr);
          cairo_fill (cr);
          cairo_restore (cr);
        }
      pango_layout_set_font_description (layout, v->kind == SL_TIMELINE_ROW_HOST ? bold : NULL);
      text = row_label (self, v, &ri);
      if (v->kind == SL_TIMELINE_ROW_CPU || (ri.kind == SL_TIMELINE_ROW_THREAD && ri.n_intervals == 0))
        gdk_cairo_set_source_rgba (cr, &(GdkRGBA) { fg.red, fg.green, fg.blue, fg.alpha * 0.6f });
      layout_text (cr, layout, text, x + 14, yc, 0, 0.5);
      cairo_restore (cr);
    }
  if (self->pinned_h > 0)
    {
      /* the pinned rows' lower edge */
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.35);
      cairo_rectangle (cr, 0, self->pinned_h - 1, SL_TLV_LABEL_W, 1);
      cairo_fill (cr);
    }
  pango_font_description_free (bold);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  self->labels_surface = surface;
  self->labels_key = key;
  self->labels_sel = self->selected_row;
}

/* Ticks: a step of 1, 2 or 5 × 10^k ns, labels at least 130 px apart;
 * returns the decimals of a second the labels need. */
int
_sl_timeline_view_ruler_step (double  px_ns,
                              gint64 *step_ns)
{
  double want = px_ns * 130;
  gint64 step = 1;
  int decimals = 9;

  while ((double) step < want && step < G_GINT64_CONSTANT (1000000000000000))
    {
      if ((double) step * 2 >= want)
        {
          step *= 2;
          break;
        }
      if ((double) step * 5 >= want)
        {
          step *= 5;
          break;
        }
      step *= 10;
    }
  *step_ns = step;
  for (gint64 s = step; s % 10 == 0 && decimals > 0; s /= 10)
    decimals--;
  return decimals;
}

/* Tick labels repeat from frame to frame while panning: their shaped
 * layouts are kept. */
static PangoLayout *
ruler_layout (SlTimelineView *self,
              GtkWidget      *canvas,
              const char     *text)
{
  PangoLayout *layout;

  if (self->ruler_layouts == NULL)
    self->ruler_layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  layout = g_hash_table_lookup (self->ruler_layouts, text);
  if (layout != NULL)
    return layout;
  if (g_hash_table_size (self->ruler_layouts) > 256)
    g_hash_table_remove_all (self->ruler_layouts);
  layout = gtk_widget_create_pango_layout (canvas, text);
  {
    PangoFontDescription *small =
      pango_font_description_copy (pango_context_get_font_description (pango_layout_get_context (layout)));

    pango_font_description_set_size (small, pango_font_description_get_size (small) * 0.85);
    pango_layout_set_font_description (layout, small);
    pango_font_description_free (small);
  }
  g_hash_table_insert (self->ruler_layouts, g_strdup (text), layout);
  return layout;
}

static void
show_cached (cairo_t     *cr,
             PangoLayout *layout,
             double       x,
             double       y,
             double       valign)
{
  int lw, lh;

  pango_layout_get_pixel_size (layout, &lw, &lh);
  cairo_move_to (cr, x, y - lh * valign);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_ruler (SlTimelineView *self,
            GtkWidget      *canvas,
            cairo_t        *cr,
            const GdkRGBA  *fg)
{
  gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
  gint64 step, first, sel_start = 0, sel_end = 0;
  int decimals = _sl_timeline_view_ruler_step (self->px_ns, &step);
  g_autofree char *label = NULL;

  cairo_save (cr);
  cairo_rectangle (cr, SL_TLV_LABEL_W, 0, self->plot_w, SL_TLV_RULER_H);
  cairo_clip (cr);
  if (self->session != NULL)
    sl_session_get_selected_span (self->session, &sel_start, &sel_end);
  if (sel_end > sel_start)
    {
      double x0 = sl_timeline_view_time_to_x (self, sel_start), x1 = sl_timeline_view_time_to_x (self, sel_end);

      set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.35);
      cairo_rectangle (cr, x0, SL_TLV_RULER_H - 10, MAX (x1 - x0, 1), 10);
      cairo_fill (cr);
    }
  gdk_cairo_set_source_rgba (cr, fg);
  cairo_set_line_width (cr, 1);
  first = start >= 0 ? start / step * step : -((-start + step - 1) / step) * step;
  for (gint64 t = first; t <= end + step; t += step)
    {
      double x = sl_timeline_view_time_to_x (self, t);
      g_autofree char *text = NULL;

      cairo_move_to (cr, floor (x) + 0.5, SL_TLV_RULER_H - 8);
      cairo_line_to (cr, floor (x) + 0.5, SL_TLV_RULER_H);
      for (int k = 1; k < 5; k++)
        {
          double xm = x + k * (double) step / 5 / self->px_ns;

          cairo_move_to (cr, floor (xm) + 0.5, SL_TLV_RULER_H - 3);
          cairo_line_to (cr, floor (xm) + 0.5, SL_TLV_RULER_H);
        }
      text = sl_format_clock_time (t, decimals);
      show_cached (cr, ruler_layout (self, canvas, text), x + 3, 3, 0);
    }
  cairo_stroke (cr);
  cairo_restore (cr);

  /* the span, in the corner above the labels */
  label = sl_format_ns ((double) (end - start));
  gdk_cairo_set_source_rgba (cr, &(GdkRGBA) { fg->red, fg->green, fg->blue, fg->alpha * 0.7f });
  show_cached (cr, ruler_layout (self, canvas, self->synchronized ? _("reference clock") : _("each host's own clock")),
               8, 3, 0);
  show_cached (cr, ruler_layout (self, canvas, label), 8, SL_TLV_RULER_H - 2, 1);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.25);
  cairo_rectangle (cr, 0, SL_TLV_RULER_H - 1, SL_TLV_LABEL_W + self->plot_w, 1);
  cairo_fill (cr);
}

static void
ensure_legend (SlTimelineView *self,
               GtkWidget      *canvas)
{
  static const SlTimelineState shown[] = {
    SL_TIMELINE_STATE_USER, SL_TIMELINE_STATE_SYSCALL, SL_TIMELINE_STATE_IRQ, SL_TIMELINE_STATE_SOFTIRQ,
    SL_TIMELINE_STATE_RUNNABLE, SL_TIMELINE_STATE_BLOCKED, SL_TIMELINE_STATE_UNKNOWN, SL_TIMELINE_STATE_EXITED,
    SL_TIMELINE_STATE_IDLE,
  };
  int scale = gtk_widget_get_scale_factor (canvas);
  int w = SL_TLV_LABEL_W + self->plot_w;
  cairo_surface_t *surface;
  cairo_t *cr;
  PangoLayout *layout;
  GdkRGBA fg;
  double x = 8, yc = SL_TLV_LEGEND_H / 2.0;
  int lw, lh;

  if (self->legend_surface != NULL && self->legend_w == w)
    return;
  g_clear_pointer (&self->legend_surface, cairo_surface_destroy);
  if (w <= 0)
    return;
  get_fg (canvas, &fg);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * scale, SL_TLV_LEGEND_H * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  layout = gtk_widget_create_pango_layout (canvas, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
    {
      set_hex (cr, sl_timeline_view_state_rgb (shown[i]), 1);
      cairo_rectangle (cr, x, yc - 5, 14, 10);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.3);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      gdk_cairo_set_source_rgba (cr, &fg);
      pango_layout_set_text (layout, sl_timeline_view_state_label (shown[i]), -1);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      cairo_move_to (cr, x + 18, yc - lh / 2.0);
      pango_cairo_show_layout (cr, layout);
      x += 18 + lw + 14;
    }
  set_hex (cr, SL_TIMELINE_RGB_ARROW, 1);
  cairo_set_line_width (cr, 1.2);
  cairo_move_to (cr, x, yc + 4);
  cairo_line_to (cr, x + 20, yc - 4);
  cairo_stroke (cr);
  gdk_cairo_set_source_rgba (cr, &fg);
  pango_layout_set_text (layout, _("message"), -1);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  cairo_move_to (cr, x + 24, yc - lh / 2.0);
  pango_cairo_show_layout (cr, layout);
  x += 24 + lw + 14;
  set_hex (cr, SL_TIMELINE_RGB_UNCERTAIN, 1);
  cairo_move_to (cr, x, yc);
  cairo_line_to (cr, x + 20, yc);
  cairo_move_to (cr, x + 0.5, yc - 3);
  cairo_line_to (cr, x + 0.5, yc + 3);
  cairo_move_to (cr, x + 19.5, yc - 3);
  cairo_line_to (cr, x + 19.5, yc + 3);
  cairo_stroke (cr);
  gdk_cairo_set_source_rgba (cr, &fg);
  pango_layout_set_text (layout, _("clock bound (hatched: order unknown)"), -1);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  cairo_move_to (cr, x + 24, yc - lh / 2.0);
  pango_cairo_show_layout (cr, layout);

  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  self->legend_surface = surface;
  self->legend_w = w;
}

/* Why there is nothing to show */
static void
draw_placeholder (SlTimelineView *self,
                  GtkSnapshot    *snapshot,
                  int             width,
                  int             height)
{
  SlSessionState state = self->session != NULL ? sl_session_get_state (self->session) : SL_SESSION_STATE_EMPTY;
  const char *text;
  PangoLayout *layout;
  GdkRGBA fg;
  cairo_t *cr;
  int lw, lh;

  if (state == SL_SESSION_STATE_LOADING)
    text = _("The timeline is built once the traces are read");
  else if (state == SL_SESSION_STATE_LIVE)
    text = _("Waiting for the live hosts' first events");
  else if (state == SL_SESSION_STATE_READY && sl_session_get_stopped (self->session))
    text = _("Reading was stopped before the end: read the traces again (Ctrl+R) for the timeline");
  else if (state == SL_SESSION_STATE_READY || state == SL_SESSION_STATE_FAILED)
    text = _("This input has no events to draw: the timeline needs LTTng trace folders");
  else
    text = _("Open trace folders to see every host's threads on one clock");
  get_fg (self->canvas, &fg);
  layout = gtk_widget_create_pango_layout (self->canvas, text);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.6);
  cairo_move_to (cr, (width - lw) / 2.0, (height - lh) / 2.0);
  pango_cairo_show_layout (cr, layout);
  cairo_destroy (cr);
  g_object_unref (layout);
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
  gint64 sel_start = 0, sel_end = 0, complete = 0, kept = 0;
  gboolean has_complete, has_kept;
  SlTlvKey key;

  /* (a live timeline's hosts may be known before their first event) */
  if (self->timeline == NULL || !sl_timeline_get_view_range (self->timeline, NULL, NULL))
    {
      /* (nothing else to draw: the frame is complete) */
      self->stats.complete = TRUE;
      draw_placeholder (self, snapshot, width, height);
      return;
    }
  if (w <= 0 || h <= 0)
    return;
  current_key (self, &key);
  /* normally done in the update phase; a redraw GTK asked for on its own
   * (a new size) does it here */
  if (!key_equal (&key, &self->rows_key))
    _sl_timeline_view_prepare (self);
  ensure_highlight (self, HIGHLIGHT_BUDGET_US);
  get_fg (canvas, &fg);
  ensure_labels (self, canvas);
  ensure_legend (self, canvas);
  current_key (self, &key);
  self->stats.complete = key_equal (&key, &self->rows_key) && !_sl_timeline_view_pending (self);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (SL_TLV_LABEL_W, SL_TLV_RULER_H, w, h));
  cairo_translate (cr, SL_TLV_LABEL_W, SL_TLV_RULER_H);
  cairo_rectangle (cr, 0, 0, w, h);
  cairo_clip (cr);
  if (self->plot_image != NULL)
    {
      cairo_set_source_surface (cr, self->plot_image, 0, 0);
      cairo_paint (cr);
    }
  draw_messages (self, cr, scroll);
  _sl_timeline_view_draw_request (self, cr, (int) scroll);
  _sl_timeline_view_draw_selected_message (self, cr, (int) scroll);
  if (_sl_timeline_view_selected_vis (self) != SL_TIMELINE_NONE)
    {
      const SlTlvRow *v = &g_array_index (self->vis, SlTlvRow, _sl_timeline_view_selected_vis (self));

      set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, 0.5, _sl_tlv_screen_y (self, v, (int) scroll) + 0.5, w - 1, v->h - 1);
      cairo_stroke (cr);
    }
  if (self->session != NULL)
    sl_session_get_selected_span (self->session, &sel_start, &sel_end);
  if (sel_end > sel_start)
    {
      double x0 = arrow_x (self, sel_start), x1 = arrow_x (self, sel_end);

      set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.12);
      cairo_rectangle (cr, x0, 0, MAX (x1 - x0, 1), h);
      cairo_fill (cr);
      set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.8);
      cairo_rectangle (cr, floor (x0) + 0.5, -1, 0, h + 2);
      cairo_rectangle (cr, floor (x1) + 0.5, -1, 0, h + 2);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }
  _sl_timeline_view_draw_bookmark_lines (self, cr, h);
  has_kept = sl_timeline_view_get_kept_from (self, &kept);
  if (has_kept && arrow_x (self, kept) > 0)
    {
      /* live with a retention: what was dropped, shaded darker */
      double x = floor (MIN (arrow_x (self, kept), w)) + 0.5;

      set_hex (cr, 0x5e5c64, 0.35);
      cairo_rectangle (cr, 0, 0, x, h);
      cairo_fill (cr);
      set_hex (cr, 0x5e5c64, 1);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, 0);
      cairo_line_to (cr, x, h);
      cairo_stroke (cr);
      {
        /* "dropped before HH:MM:SS", left of its line, at the top */
        g_autofree char *when = sl_format_clock_time (kept, 0);
        g_autofree char *text = g_strdup_printf (_("dropped before %s"), when);
        PangoLayout *layout = ruler_layout (self, canvas, text);
        int lw, lh;

        pango_layout_get_pixel_size (layout, &lw, &lh);
        if (x - 6 - lw >= 0)
          {
            set_hex (cr, 0x3d3846, 1);
            show_cached (cr, layout, x - 6 - lw, 4, 0);
          }
      }
    }
  has_complete = sl_timeline_view_get_complete_time (self, &complete);
  if (has_complete && arrow_x (self, complete) < w)
    {
      /* live: the ragged part, where some host may still deliver, shaded */
      double x = floor (arrow_x (self, complete)) + 0.5;

      set_hex (cr, 0x9a9996, 0.18);
      cairo_rectangle (cr, MAX (x, 0), 0, w - MAX (x, 0), h);
      cairo_fill (cr);
      set_hex (cr, SL_TIMELINE_RGB_COMPLETE, 1);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, 0);
      cairo_line_to (cr, x, h);
      cairo_stroke (cr);
    }
  if (self->has_cursor)
    {
      /* the event found shown last */
      double x = floor (arrow_x (self, self->cursor_time)) + 0.5;

      set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, 0);
      cairo_line_to (cr, x, h);
      cairo_stroke (cr);
    }
  if (self->drag_mode == 2)
    {
      double x0 = self->drag_x0 - SL_TLV_LABEL_W, x1 = x0 + self->drag_dx;

      set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.2);
      cairo_rectangle (cr, MIN (x0, x1), 0, fabs (x1 - x0), h);
      cairo_fill (cr);
    }
  cairo_destroy (cr);

  if (self->labels_surface != NULL)
    paint_surface (snapshot, self->labels_surface, 0, SL_TLV_RULER_H, SL_TLV_LABEL_W, h);
  if (self->legend_surface != NULL)
    paint_surface (snapshot, self->legend_surface, 0, SL_TLV_RULER_H + h, SL_TLV_LABEL_W + w, SL_TLV_LEGEND_H);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, SL_TLV_RULER_H));
  draw_ruler (self, canvas, cr, &fg);
  _sl_timeline_view_draw_bookmark_flags (self, cr);
  if (has_complete && arrow_x (self, complete) >= 0 && arrow_x (self, complete) < w)
    {
      /* its mark in the ruler: a line and a small flag */
      double x = SL_TLV_LABEL_W + floor (arrow_x (self, complete)) + 0.5;

      set_hex (cr, SL_TIMELINE_RGB_COMPLETE, 1);
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
