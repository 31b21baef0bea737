/* sl-timeline-view-compose.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The messages, as cairo paths when few or as lines rasterized into
 * coverage masks, and the plot's image composed from the rows' colours
 * and those masks.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-parallel.h"
#include "sl-mask-raster.h"
#include "sl-timeline-view-private.h"

#define WHISKER_MAX       600
#define VECTOR_MAX        80
#define FAST_LINES        300

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
  double xs = _sl_timeline_view_arrow_x (self, a->send_view), xr = _sl_timeline_view_arrow_x (self, a->recv_view);
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

/* Whether @arrows' @i-th message is drawn by its ends: folded at a coarse
 * zoom, or a dense selected link's or row's */
gboolean
_sl_timeline_view_stubs (SlTimelineView *self,
                         GArray         *arrows,
                         guint           i)
{
  if (arrows == self->arrows)
    return self->arrows_coarse;
  if (arrows != self->hl_arrows)
    return FALSE;
  return i < self->hl_link_n ? self->hl_link_coarse : self->hl_row_coarse;
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
  for (guint i = 0; i < arrows->len; i++)
    {
      const SlTimelineArrow *a = &g_array_index (arrows, SlTimelineArrow, i);
      SlTlvSegment seg[2];
      guint n;

      if (folded >= 0 && (a->count > 1) != folded)
        continue;
      n = _sl_timeline_view_arrow_segments (self, a, (int) scroll, _sl_timeline_view_stubs (self, arrows, i), seg);
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
      double xr = _sl_timeline_view_arrow_x (self, a->recv_view);
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
  guint32 colour = _sl_timeline_view_premul (rgb, alpha);

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
  g_autoptr(GArray) lines = _sl_timeline_view_lines_on_screen (self, scroll);
  guint32 band = _sl_timeline_view_premul (0x9a9996, 0.12);
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
gboolean
_sl_timeline_view_ensure_plot (SlTimelineView *self,
                               gboolean        rows_changed)
{
  SlTlvKey key, hl_key;
  gboolean arrows_changed, hl_changed;
  Pen p;
  double scroll;

  _sl_timeline_view_current_key (self, &key);
  hl_key = key;
  hl_key.extra = ((guint64) self->selected_row << 32) ^ ((guint64) self->hl_host_a << 48) ^
                 ((guint64) self->hl_host_b << 24) ^ self->hl_arrows->len ^ ((guint64) self->hl_row_coarse << 63);
  arrows_changed = !_sl_timeline_view_key_equal (&key, &self->mask_key);
  hl_changed = !_sl_timeline_view_key_equal (&hl_key, &self->hl_mask_key);
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
void
_sl_timeline_view_draw_messages (SlTimelineView *self,
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
      _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_ARROW, folded ? 0.95 : 0.7);
      cairo_stroke (cr);
    }
  h = p;
  if (self->arrows->len <= WHISKER_MAX)
    emit_bounds (self, self->arrows, &p, &h, scroll);
  emit_bounds (self, self->hl_arrows, &p, &h, scroll);
  _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_UNCERTAIN, 1);
  cairo_stroke (cr);
  cairo_set_line_width (cr, 2);
  emit_messages (self, self->hl_arrows, &p, scroll, -1, 7);
  _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_ARROW_HIGHLIGHT, 0.95);
  cairo_stroke (cr);
}
