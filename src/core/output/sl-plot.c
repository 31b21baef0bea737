/* sl-plot.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <cairo.h>
#include <cairo-svg.h>
#include <glib/gstdio.h>

#include "sl-plot.h"
#include "sl-report.h"
#include "sl-segments.h"
#include "sl-units.h"


/* One link in the report's orientation (a < b by name), in plot units:
 * x in seconds since the first packet, offsets in µs relative to the
 * estimate's offset there, accuracy in ppm. */
typedef struct
{
  char       *title;
  char       *name_a;
  char       *name_b;
  SlPlotData *data;
} Plot;

static void
set_rgb (cairo_t *cr,
         guint32  rgb)
{
  cairo_set_source_rgb (cr,
                        ((rgb >> 16) & 0xff) / 255.0,
                        ((rgb >> 8) & 0xff) / 255.0,
                        (rgb & 0xff) / 255.0);
}

static void
plot_clear (Plot *p)
{
  g_free (p->title);
  g_free (p->name_a);
  g_free (p->name_b);
  g_clear_pointer (&p->data, sl_plot_data_unref);
}

static char *
sanitize_name (const char *name)
{
  GString *s = g_string_new (NULL);

  for (const char *c = name; *c != '\0'; c++)
    g_string_append_c (s, g_ascii_isalnum (*c) || *c == '.' || *c == '_' || *c == '-' ? *c : '_');
  if (s->len == 0 || s->str[0] == '.')
    g_string_prepend_c (s, '_');
  return g_string_free (s, FALSE);
}

/**
 * sl_plot_title:
 * @link: a link of @engine
 *
 * Returns: a plot's title, its numbers as the text report writes them:
 *   "a – b: accurate, rate band 1220 ppm, bound ±875.3 µs, 120 + 98 packets"
 */
char *
sl_plot_title (SlEngine *engine,
               guint     link)
{
  SlReportLink rl;
  g_autofree char *band = NULL;
  g_autofree char *bound = NULL;
  g_autofree char *bound_text = NULL;
  double accuracy;

  g_return_val_if_fail (engine != NULL, NULL);

  sl_report_get_link (engine, link, &rl);
  accuracy = rl.alpha_max - rl.alpha_min;
  band = isfinite (accuracy) ? sl_units_rate (accuracy) : g_strdup ("unbounded");
  bound = sl_units_size (rl.info.bound_ns);
  bound_text = isfinite (rl.info.bound_ns) ? g_strdup_printf (", bound \u00b1%s", bound) : g_strdup ("");
  return g_strdup_printf ("%s \u2013 %s: %s, rate band %s%s, %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT " packets",
                          sl_engine_get_host_name (engine, rl.a), sl_engine_get_host_name (engine, rl.b),
                          sl_quality_to_string (rl.info.quality), band, bound_text,
                          rl.flipped ? rl.info.n_ba : rl.info.n_ab,
                          rl.flipped ? rl.info.n_ab : rl.info.n_ba);
}

static void
plot_build (SlEngine *engine,
            guint     link,
            Plot     *p)
{
  SlReportLink rl;

  sl_report_get_link (engine, link, &rl);
  p->data = sl_plot_data_build (engine, link);
  p->name_a = g_strdup (sl_engine_get_host_name (engine, rl.a));
  p->name_b = g_strdup (sl_engine_get_host_name (engine, rl.b));
  p->title = sl_plot_title (engine, link);
}

double
sl_plot_panel_x (const SlPlotPanel *pn,
                 double             x)
{
  return pn->left + (x - pn->xmin) / (pn->xmax - pn->xmin) * (pn->right - pn->left);
}

/* With log_y, values that are not positive go to the bottom edge. */
double
sl_plot_panel_y (const SlPlotPanel *pn,
                 double             y)
{
  if (pn->log_y)
    y = y > 0 ? log10 (y) : pn->ymin;
  return pn->bottom - (y - pn->ymin) / (pn->ymax - pn->ymin) * (pn->bottom - pn->top);
}

/* A round step (1, 2 or 5 times a power of ten) giving about @n ticks
 * over @range. */
double
sl_plot_nice_step (double range,
                   int    n)
{
  double raw = range / n;
  double mag = pow (10, floor (log10 (raw)));
  double f = raw / mag;

  if (f < 1.5)
    return mag;
  if (f < 3.5)
    return 2 * mag;
  if (f < 7.5)
    return 5 * mag;
  return 10 * mag;
}

/* @text with its ink box placed by @halign and @valign (0 left/top, 1
 * right/bottom) at (@x, @y). */
void
sl_plot_show_text_at (cairo_t    *cr,
                      const char *text,
                      double      x,
                      double      y,
                      double      halign,
                      double      valign)
{
  cairo_text_extents_t ext;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (text != NULL);

  cairo_text_extents (cr, text, &ext);
  cairo_move_to (cr,
                 x - ext.x_bearing - ext.width * halign,
                 y - ext.y_bearing - ext.height * valign);
  cairo_show_text (cr, text);
}

/* The ink box sl_plot_show_text_at() gives @text */
void
sl_plot_text_box (cairo_t    *cr,
                  const char *text,
                  double      x,
                  double      y,
                  double      halign,
                  double      valign,
                  SlPlotBox  *box)
{
  cairo_text_extents_t ext;

  g_return_if_fail (cr != NULL && text != NULL && box != NULL);

  cairo_text_extents (cr, text, &ext);
  box->x0 = x - ext.width * halign;
  box->y0 = y - ext.height * valign;
  box->x1 = box->x0 + ext.width;
  box->y1 = box->y0 + ext.height;
}

static void
texts_add (SlPlotTexts     *texts,
           const SlPlotBox *box)
{
  if (texts != NULL && texts->n < G_N_ELEMENTS (texts->box))
    texts->box[texts->n++] = *box;
}

/**
 * sl_plot_style_init:
 * @style: (out): the style of the `--plots` pictures: dark on white, 1200
 *   pixels wide
 */
void
sl_plot_style_init (SlPlotStyle *style)
{
  g_return_if_fail (style != NULL);

  *style = (SlPlotStyle) {
    .fg = { 0x20 / 255.0, 0x20 / 255.0, 0x20 / 255.0 },
    .grid = { 0xe4 / 255.0, 0xe4 / 255.0, 0xe4 / 255.0, 1 },
    .tick_size = 12,
    .label_size = 13,
    .x_ticks = 10,
    .y_ticks = 8,
    .tick_len = 5,
    .tick_gap = 8,
    .xlabel_dy = 26,
    .ylabel_dx = 70,
    .ylabel_valign = 0,
    .snap = FALSE,
    .point_size = 0,
    .line_scale = 1,
  };
}

static void
set_fg (cairo_t           *cr,
        const SlPlotStyle *st)
{
  cairo_set_source_rgb (cr, st->fg[0], st->fg[1], st->fg[2]);
}

/* A coordinate on the pixel grid's centres when the style snaps lines. */
static double
snap (const SlPlotStyle *st,
      double             v)
{
  return st->snap ? round (v) + 0.5 : v;
}

/**
 * sl_plot_draw_axes:
 *
 * The frame of @pn, its grid, ticks and their numbers, and the axes'
 * labels, in @st's colours and sizes.
 */
void
sl_plot_draw_axes (cairo_t           *cr,
                   const SlPlotPanel *pn,
                   const SlPlotStyle *st,
                   const char        *xlabel,
                   const char        *ylabel)
{
  double step;
  char buf[64];

  g_return_if_fail (cr != NULL && pn != NULL && st != NULL);

  cairo_save (cr);
  cairo_set_font_size (cr, st->tick_size);
  cairo_set_line_width (cr, 1);

  step = sl_plot_nice_step (pn->xmax - pn->xmin, st->x_ticks);
  for (double x = ceil (pn->xmin / step) * step; x <= pn->xmax + step * 1e-9; x += step)
    {
      double px = snap (st, sl_plot_panel_x (pn, x));

      cairo_set_source_rgba (cr, st->grid[0], st->grid[1], st->grid[2], st->grid[3]);
      cairo_move_to (cr, px, pn->top);
      cairo_line_to (cr, px, pn->bottom);
      cairo_stroke (cr);
      set_fg (cr, st);
      if (st->tick_len > 0)
        {
          cairo_move_to (cr, px, pn->bottom);
          cairo_line_to (cr, px, pn->bottom + st->tick_len);
          cairo_stroke (cr);
        }
      g_snprintf (buf, sizeof buf, "%g", fabs (x) < step * 1e-6 ? 0.0 : x);
      sl_plot_show_text_at (cr, buf, px, pn->bottom + st->tick_gap, 0.5, 0);
    }

  if (pn->log_y)
    step = 1;
  else
    step = sl_plot_nice_step (pn->ymax - pn->ymin, st->y_ticks);
  for (double y = ceil (pn->ymin / step) * step; y <= pn->ymax + step * 1e-9; y += step)
    {
      double v = pn->log_y ? pow (10, y) : (fabs (y) < step * 1e-6 ? 0.0 : y);
      double py = snap (st, sl_plot_panel_y (pn, v));

      cairo_set_source_rgba (cr, st->grid[0], st->grid[1], st->grid[2], st->grid[3]);
      cairo_move_to (cr, pn->left, py);
      cairo_line_to (cr, pn->right, py);
      cairo_stroke (cr);
      set_fg (cr, st);
      if (st->tick_len > 0)
        {
          cairo_move_to (cr, pn->left - st->tick_len, py);
          cairo_line_to (cr, pn->left, py);
          cairo_stroke (cr);
        }
      g_snprintf (buf, sizeof buf, "%g", v);
      sl_plot_show_text_at (cr, buf, pn->left - st->tick_gap, py, 1, 0.5);
    }

  set_fg (cr, st);
  if (st->snap)
    cairo_rectangle (cr, pn->left + 0.5, pn->top + 0.5, pn->right - pn->left, pn->bottom - pn->top);
  else
    cairo_rectangle (cr, pn->left, pn->top, pn->right - pn->left, pn->bottom - pn->top);
  cairo_stroke (cr);

  cairo_set_font_size (cr, st->label_size);
  sl_plot_show_text_at (cr, xlabel, (pn->left + pn->right) / 2, pn->bottom + st->xlabel_dy, 0.5, 0);
  cairo_save (cr);
  cairo_translate (cr, pn->left - st->ylabel_dx, (pn->top + pn->bottom) / 2);
  cairo_rotate (cr, -G_PI / 2);
  sl_plot_show_text_at (cr, ylabel, 0, 0, 0.5, st->ylabel_valign);
  cairo_restore (cr);
  cairo_restore (cr);
}

static void
clip_panel (cairo_t           *cr,
            const SlPlotPanel *pn)
{
  cairo_rectangle (cr, pn->left, pn->top, pn->right - pn->left, pn->bottom - pn->top);
  cairo_clip (cr);
}

/* The guaranteed band around a piecewise estimate, the failures, the
 * windows' ends. */
static void
draw_band_and_windows (cairo_t           *cr,
                       const SlPlotData  *data,
                       const SlPlotPanel *pn)
{
  const GArray *lo = data->band_lo, *hi = data->band_hi;
  double dash[] = { 2, 4 };

  for (guint i = 0; i + 1 < lo->len; i++)
    {
      const SlPlotPoint *a = &g_array_index (lo, SlPlotPoint, i), *b = &g_array_index (lo, SlPlotPoint, i + 1);
      const SlPlotPoint *c = &g_array_index (hi, SlPlotPoint, i + 1), *d = &g_array_index (hi, SlPlotPoint, i);

      if (!isfinite (a->y) || !isfinite (b->y))
        continue;
      cairo_move_to (cr, sl_plot_panel_x (pn, a->x), sl_plot_panel_y (pn, a->y));
      cairo_line_to (cr, sl_plot_panel_x (pn, b->x), sl_plot_panel_y (pn, b->y));
      cairo_line_to (cr, sl_plot_panel_x (pn, c->x), sl_plot_panel_y (pn, c->y));
      cairo_line_to (cr, sl_plot_panel_x (pn, d->x), sl_plot_panel_y (pn, d->y));
      cairo_close_path (cr);
    }
  cairo_set_source_rgba (cr, 0.95, 0.6, 0.1, 0.18);
  cairo_fill (cr);
  for (guint i = 0; i < data->failures->len; i++)
    {
      const SlPlotPoint *f = &g_array_index (data->failures, SlPlotPoint, i);
      double fx0 = sl_plot_panel_x (pn, f->x), fx1 = sl_plot_panel_x (pn, f->y);

      cairo_rectangle (cr, MIN (fx0, fx1) - 1, pn->top, fabs (fx1 - fx0) + 2, pn->bottom - pn->top);
    }
  cairo_set_source_rgba (cr, 0.85, 0.1, 0.1, 0.35);
  cairo_fill (cr);

  cairo_set_dash (cr, dash, 2, 0);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < data->window_x->len; i++)
    {
      double x = sl_plot_panel_x (pn, g_array_index (data->window_x, double, i));

      cairo_move_to (cr, floor (x) + 0.5, pn->top);
      cairo_line_to (cr, floor (x) + 0.5, pn->bottom);
    }
  cairo_set_source_rgba (cr, 0.4, 0.4, 0.4, 0.6);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* Points as pixel-aligned squares without antialiasing: their colours
 * stay exact, and one path per direction keeps the SVG small. Points far
 * outside the panel are left out of the path. */
static void
draw_points (cairo_t           *cr,
             const SlPlotData  *data,
             const SlPlotPanel *pn,
             const SlPlotStyle *st)
{
  static const guint32 pts_rgb[2] = { SL_PLOT_RGB_AB, SL_PLOT_RGB_BA };

  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  for (guint d = 0; d < 2; d++)
    {
      double size = st->point_size > 0 ? st->point_size : data->points[d]->len < 1000 ? 6 : 2;

      for (guint i = 0; i < data->points[d]->len; i++)
        {
          const SlPlotPoint *q = &g_array_index (data->points[d], SlPlotPoint, i);
          double px = sl_plot_panel_x (pn, q->x), py = sl_plot_panel_y (pn, q->y);

          if (px < pn->left - size || px > pn->right + size || py < pn->top - size || py > pn->bottom + size)
            continue;
          cairo_rectangle (cr, floor (px - size / 2), floor (py - size / 2), size, size);
        }
      set_rgb (cr, pts_rgb[d]);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

/* The hulls of both directions with their vertices. */
static void
draw_hulls (cairo_t           *cr,
            const SlPlotData  *data,
            const SlPlotPanel *pn,
            const SlPlotStyle *st)
{
  static const guint32 hull_rgb[2] = { SL_PLOT_RGB_HULL_AB, SL_PLOT_RGB_HULL_BA };

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint d = 0; d < 2; d++)
    {
      const GArray *h = data->hull[d];

      if (h->len == 0)
        continue;
      set_rgb (cr, hull_rgb[d]);
      cairo_set_line_width (cr, 1.5 * st->line_scale);
      for (guint i = 0; i < h->len; i++)
        {
          const SlPlotPoint *q = &g_array_index (h, SlPlotPoint, i);
          cairo_line_to (cr, sl_plot_panel_x (pn, q->x), sl_plot_panel_y (pn, q->y));
        }
      cairo_stroke (cr);
      for (guint i = 0; i < h->len; i++)
        {
          const SlPlotPoint *q = &g_array_index (h, SlPlotPoint, i);
          cairo_new_sub_path (cr);
          cairo_arc (cr, sl_plot_panel_x (pn, q->x), sl_plot_panel_y (pn, q->y), 2.5 * st->line_scale, 0, 2 * G_PI);
        }
      cairo_fill (cr);
    }
}

/* Lmin and Lmax dashed, the estimate; a piecewise estimate: its path. */
static void
draw_lines (cairo_t           *cr,
            const SlPlotData  *data,
            const SlPlotPanel *pn,
            const SlPlotStyle *st)
{
  for (guint k = 0; k < SL_PLOT_N_LINES; k++)
    {
      static const guint32 rgb[SL_PLOT_N_LINES] = { SL_PLOT_RGB_LMIN, SL_PLOT_RGB_LMAX, SL_PLOT_RGB_ESTIMATE };
      double dash[] = { 8, 5 };

      if (!data->has_line[k])
        continue;
      set_rgb (cr, rgb[k]);
      cairo_set_line_width (cr, (k == SL_PLOT_LINE_ESTIMATE ? 3 : 1.5) * st->line_scale);
      cairo_set_dash (cr, dash, k == SL_PLOT_LINE_ESTIMATE ? 0 : 2, 0);
      cairo_move_to (cr, sl_plot_panel_x (pn, 0), sl_plot_panel_y (pn, data->line_y[k][0]));
      cairo_line_to (cr, sl_plot_panel_x (pn, data->x_end), sl_plot_panel_y (pn, data->line_y[k][1]));
      cairo_stroke (cr);
    }
  cairo_set_dash (cr, NULL, 0, 0);
  if (data->n_windows > 1 && data->path != NULL)
    {
      set_rgb (cr, SL_PLOT_RGB_ESTIMATE);
      cairo_set_line_width (cr, 2 * st->line_scale);
      for (guint i = 0; i < data->path->len; i++)
        {
          const SlPlotPoint *q = &g_array_index (data->path, SlPlotPoint, i);
          cairo_line_to (cr, sl_plot_panel_x (pn, q->x), sl_plot_panel_y (pn, q->y));
        }
      cairo_stroke (cr);
    }
}

/**
 * sl_plot_draw_hull:
 *
 * Inside @pn (clipped to it): the guaranteed band of a piecewise estimate,
 * its windows and failures, the matched packets of both directions, their
 * hulls, Lmin, Lmax and the estimate. The axes are sl_plot_draw_axes()'s.
 */
void
sl_plot_draw_hull (cairo_t           *cr,
                   const SlPlotData  *data,
                   const SlPlotPanel *pn,
                   const SlPlotStyle *st)
{
  g_return_if_fail (cr != NULL && data != NULL && pn != NULL && st != NULL);

  cairo_save (cr);
  clip_panel (cr, pn);
  if (data->path != NULL && data->path->len > 1)
    draw_band_and_windows (cr, data, pn);
  draw_points (cr, data, pn, st);
  draw_hulls (cr, data, pn, st);
  draw_lines (cr, data, pn, st);
  cairo_restore (cr);
}

/**
 * sl_plot_draw_accuracy:
 * @accuracy: (element-type SlPlotPoint): a link's accuracy changes (see
 *   #SlPlotData)
 * @x_end: where the last accuracy ends
 *
 * Inside @pn (log_y, clipped): the accuracy as a step line, each value
 * holding until the next change; none where the accuracy is unbounded.
 * Few changes make short steps: each start is marked.
 */
void
sl_plot_draw_accuracy (cairo_t           *cr,
                       const GArray      *accuracy,
                       const SlPlotPanel *pn,
                       double             x_end,
                       const SlPlotStyle *st)
{
  gboolean open = FALSE;

  g_return_if_fail (cr != NULL && accuracy != NULL && pn != NULL && st != NULL);

  cairo_save (cr);
  clip_panel (cr, pn);
  set_rgb (cr, SL_PLOT_RGB_ACCURACY);
  cairo_set_line_width (cr, 2 * st->line_scale);
  for (guint i = 0; i < accuracy->len; i++)
    {
      const SlPlotPoint *q = &g_array_index (accuracy, SlPlotPoint, i);
      double x_next = i + 1 < accuracy->len ? g_array_index (accuracy, SlPlotPoint, i + 1).x : x_end;

      if (!isfinite (q->y) || q->y <= 0)
        {
          open = FALSE;
          continue;
        }
      if (open)
        cairo_line_to (cr, sl_plot_panel_x (pn, q->x), sl_plot_panel_y (pn, q->y));
      else
        cairo_move_to (cr, sl_plot_panel_x (pn, q->x), sl_plot_panel_y (pn, q->y));
      cairo_line_to (cr, sl_plot_panel_x (pn, x_next), sl_plot_panel_y (pn, q->y));
      open = TRUE;
    }
  cairo_stroke (cr);

  if (accuracy->len < 200)
    {
      for (guint i = 0; i < accuracy->len; i++)
        {
          const SlPlotPoint *q = &g_array_index (accuracy, SlPlotPoint, i);

          if (!isfinite (q->y) || q->y <= 0)
            continue;
          cairo_new_sub_path (cr);
          cairo_arc (cr, sl_plot_panel_x (pn, q->x), sl_plot_panel_y (pn, q->y), 3.5 * st->line_scale, 0, 2 * G_PI);
        }
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

/**
 * sl_plot_legend_items:
 * @items: (out caller-allocates) (array fixed-size=7): filled; free each
 *   text
 *
 * What the hull plot of @data shows, for a legend.
 *
 * Returns: the number of items
 */
guint
sl_plot_legend_items (const SlPlotData *data,
                      const char       *name_a,
                      const char       *name_b,
                      SlPlotLegendItem *items)
{
  guint n = 0;

  g_return_val_if_fail (data != NULL && name_a != NULL && name_b != NULL && items != NULL, 0);

  for (guint d = 0; d < 2; d++)
    {
      const char *from = d == 0 ? name_a : name_b, *to = d == 0 ? name_b : name_a;

      items[n++] = (SlPlotLegendItem) { d == 0 ? SL_PLOT_RGB_AB : SL_PLOT_RGB_BA, SL_PLOT_LEGEND_DOT,
        data->n_dropped[d] == 0
          ? g_strdup_printf ("%s \u2192 %s packets", from, to)
          : g_strdup_printf ("%s \u2192 %s packets (%" G_GUINT64_FORMAT " no longer kept)", from, to,
                             data->n_dropped[d]) };
    }
  if (data->n_windows > 1)
    {
      items[n++] = (SlPlotLegendItem) { SL_PLOT_RGB_ESTIMATE, SL_PLOT_LEGEND_THICK,
        g_strdup_printf ("estimate (%u windows, dotted), its bound shaded", data->n_windows) };
      if (data->failures->len > 0)
        items[n++] = (SlPlotLegendItem) { SL_PLOT_RGB_FAILURE, SL_PLOT_LEGEND_LINE,
                                          g_strdup ("clock steps and wrong matches") };
    }
  else
    {
      items[n++] = (SlPlotLegendItem) { SL_PLOT_RGB_HULL_AB, SL_PLOT_LEGEND_LINE,
                                        g_strdup_printf ("%s \u2192 %s hull", name_a, name_b) };
      items[n++] = (SlPlotLegendItem) { SL_PLOT_RGB_HULL_BA, SL_PLOT_LEGEND_LINE,
                                        g_strdup_printf ("%s \u2192 %s hull", name_b, name_a) };
      items[n++] = (SlPlotLegendItem) { SL_PLOT_RGB_LMIN, SL_PLOT_LEGEND_DASHED, g_strdup ("Lmin") };
      items[n++] = (SlPlotLegendItem) { SL_PLOT_RGB_LMAX, SL_PLOT_LEGEND_DASHED, g_strdup ("Lmax") };
      items[n++] = (SlPlotLegendItem) { SL_PLOT_RGB_ESTIMATE, SL_PLOT_LEGEND_THICK,
                                        g_strdup ("estimate, its bound shaded") };
    }
  return n;
}

/**
 * sl_plot_draw_legend_item:
 *
 * @item's swatch from @x (30 units wide, a dot or a line) and its text
 * after it, centred on @cy, in the current font.
 */
void
sl_plot_draw_legend_item (cairo_t                *cr,
                          const SlPlotLegendItem *item,
                          double                  x,
                          double                  cy,
                          const SlPlotStyle      *st)
{
  g_return_if_fail (cr != NULL && item != NULL && st != NULL);

  set_rgb (cr, item->rgb);
  if (item->kind == SL_PLOT_LEGEND_DOT)
    {
      cairo_rectangle (cr, x + 14, floor (cy) - 3, 6, 6);
      cairo_fill (cr);
    }
  else
    {
      double dash[] = { 6, 4 };

      cairo_set_line_width (cr, (item->kind == SL_PLOT_LEGEND_THICK ? 3 : 1.5) * st->line_scale);
      if (item->kind == SL_PLOT_LEGEND_DASHED)
        cairo_set_dash (cr, dash, 2, 0);
      cairo_move_to (cr, x + 6, cy);
      cairo_line_to (cr, x + 30, cy);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  set_fg (cr, st);
  sl_plot_show_text_at (cr, item->text, x + 38, cy, 0, 0.5);
}

/**
 * sl_plot_draw_legend_rows:
 * @rows: items per column
 * @left, @top: the first column's left, its first row's top
 * @row_h: the rows' height
 * @st: (nullable): the style; %NULL measures only
 * @texts: (nullable): each item's box added
 *
 * The legend's items in columns of @rows, in the current font: outside
 * the frame (inside, it hid points).
 *
 * Returns: its width, a column's gap after the last
 */
double
sl_plot_draw_legend_rows (cairo_t                *cr,
                          const SlPlotLegendItem *items,
                          guint                   n,
                          guint                   rows,
                          double                  left,
                          double                  top,
                          double                  row_h,
                          const SlPlotStyle      *st,
                          SlPlotTexts            *texts)
{
  double x = left - 6;

  g_return_val_if_fail (cr != NULL && (items != NULL || n == 0) && rows > 0, 0);

  for (guint i = 0; i < n; i += rows)
    {
      double w = 0;

      for (guint k = i; k < MIN (i + rows, n); k++)
        {
          double cy = top + row_h * (k - i + 0.5);
          cairo_text_extents_t ext;

          cairo_text_extents (cr, items[k].text, &ext);
          w = MAX (w, ext.x_advance);
          if (st == NULL)
            continue;
          sl_plot_draw_legend_item (cr, &items[k], x, cy, st);
          if (texts != NULL)
            {
              SlPlotBox box;

              /* the swatch: a dot of 6, a line up to 4.5 wide */
              sl_plot_text_box (cr, items[k].text, x + 38, cy, 0, 0.5, &box);
              box.x0 = x + 6;
              box.y0 = MIN (box.y0, floor (cy) - 3);
              box.y1 = MAX (box.y1, floor (cy) + 3);
              texts_add (texts, &box);
            }
        }
      x += w + 48;
    }
  return x - (left - 6);
}

/* Two rows of legend items a column, more (up to 4) when they are wider
 * than @width. */
guint
sl_plot_legend_fit_rows (cairo_t                *cr,
                         const SlPlotLegendItem *items,
                         guint                   n,
                         double                  width)
{
  guint rows = 2;

  g_return_val_if_fail (cr != NULL, 2);

  while (rows < 4 && sl_plot_draw_legend_rows (cr, items, n, rows, 0, 0, 1, NULL, NULL) > width)
    rows++;
  return rows;
}

/**
 * sl_plot_count_fits_beside:
 * @pn: the frame: only its left, right and bottom are read
 * @count: (nullable): the count below (sl_plot_beyond_text())
 *
 * Whether @count, right-aligned with the frame in @st's tick size, fits
 * on the line of the x axis' label @xlabel (centred, sl_plot_draw_axes())
 * without meeting it; else it goes on a line under it.
 */
gboolean
sl_plot_count_fits_beside (cairo_t           *cr,
                           const SlPlotPanel *pn,
                           const SlPlotStyle *st,
                           const char        *xlabel,
                           const char        *count)
{
  SlPlotBox label, box;

  g_return_val_if_fail (cr != NULL && pn != NULL && st != NULL && xlabel != NULL, FALSE);

  if (count == NULL)
    return TRUE;
  cairo_save (cr);
  cairo_set_font_size (cr, st->label_size);
  sl_plot_text_box (cr, xlabel, (pn->left + pn->right) / 2, 0, 0.5, 0, &label);
  cairo_set_font_size (cr, st->tick_size);
  sl_plot_text_box (cr, count, pn->right, 0, 1, 0, &box);
  cairo_restore (cr);
  return box.x0 > label.x1 + 2 * st->tick_size && box.x0 >= pn->left;
}

/**
 * sl_plot_draw_counts:
 * @texts: the counts above and below (sl_plot_beyond_text()), each
 *   nullable
 * @right: their right end
 * @above_bottom: the bottom of the count above, @below_top: the top of
 *   the count below: outside the frame (inside, they hid points)
 * @boxes: (nullable): their boxes added
 *
 * In the current font and colour.
 */
void
sl_plot_draw_counts (cairo_t      *cr,
                     char * const *texts,
                     double        right,
                     double        above_bottom,
                     double        below_top,
                     SlPlotTexts  *boxes)
{
  g_return_if_fail (cr != NULL && texts != NULL);

  for (guint side = 0; side < 2; side++)
    {
      double y = side == 0 ? above_bottom : below_top;
      SlPlotBox box;

      if (texts[side] == NULL)
        continue;
      sl_plot_text_box (cr, texts[side], right, y, 1, side == 0 ? 1 : 0, &box);
      sl_plot_show_text_at (cr, texts[side], right, y, 1, side == 0 ? 1 : 0);
      texts_add (boxes, &box);
    }
}

/* The hulls and lines are what the plot is about: they always fit. A
 * retransmission 200 ms late would squash them to a line, so points
 * widen the range only up to a few band widths beyond; the others are
 * drawn at the frame's edge and counted (sl_plot_draw_beyond()). */

/**
 * sl_plot_draw_beyond:
 * @beyond: (out) (optional): what is counted
 *
 * The points of @data beyond @pn's y range (within its x range) as
 * triangles at the frame's edge, pointing out, in their direction's
 * colour. The caller says how many (sl_plot_beyond_text()).
 */
void
sl_plot_draw_beyond (cairo_t           *cr,
                     const SlPlotData  *data,
                     const SlPlotPanel *pn,
                     const SlPlotStyle *st,
                     SlPlotBeyond      *beyond)
{
  static const guint32 pts_rgb[2] = { SL_PLOT_RGB_AB, SL_PLOT_RGB_BA };
  double size = 4 * MAX (st->line_scale, 0.75);

  g_return_if_fail (cr != NULL && data != NULL && pn != NULL && st != NULL);

  if (beyond != NULL)
    sl_plot_count_beyond (data, pn->xmin, pn->xmax, pn->ymin, pn->ymax, beyond);
  cairo_save (cr);
  clip_panel (cr, pn);
  for (guint d = 0; d < 2; d++)
    {
      double last_px = -INFINITY;
      int last_side = -1;

      for (guint i = 0; i < data->points[d]->len; i++)
        {
          const SlPlotPoint *q = &g_array_index (data->points[d], SlPlotPoint, i);
          int side = q->y > pn->ymax ? 0 : q->y < pn->ymin ? 1 : -1;
          double px, edge, dir;

          if (side < 0 || q->x < pn->xmin || q->x > pn->xmax)
            continue;
          px = round (sl_plot_panel_x (pn, q->x));
          /* one triangle a pixel column and side */
          if (side == last_side && px == last_px)
            continue;
          last_px = px;
          last_side = side;
          edge = side == 0 ? pn->top + 1 : pn->bottom - 1;
          dir = side == 0 ? 1 : -1;
          cairo_move_to (cr, px, edge);
          cairo_line_to (cr, px - size, edge + dir * 1.6 * size);
          cairo_line_to (cr, px + size, edge + dir * 1.6 * size);
          cairo_close_path (cr);
        }
      set_rgb (cr, pts_rgb[d]);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

/**
 * sl_plot_beyond_text:
 * @side: 0 above, 1 below
 *
 * Returns: (nullable): "▲ 3 points above, up to +212.4 ms" (in English,
 *   the `--plots` pictures'), %NULL for none
 */
char *
sl_plot_beyond_text (const SlPlotBeyond *beyond,
                     guint               side)
{
  g_autofree char *far = NULL;

  g_return_val_if_fail (beyond != NULL && side < 2, NULL);

  if (beyond->n[side] == 0)
    return NULL;
  far = sl_units_offset (beyond->far[side] * 1e3);
  if (side == 0)
    return g_strdup_printf ("\u25b2 %s%u point%s above, up to %s", beyond->thinned ? "at least " : "", beyond->n[0],
                            beyond->n[0] == 1 ? "" : "s", far);
  return g_strdup_printf ("\u25bc %s%u point%s below, down to %s", beyond->thinned ? "at least " : "", beyond->n[1],
                          beyond->n[1] == 1 ? "" : "s", far);
}

static void
hull_panel_range (const SlPlotData *data,
                  SlPlotPanel      *pn)
{
  double pad = MAX (data->x_end, 1e-9) * 0.02;

  pn->xmin = -pad;
  pn->xmax = MAX (data->x_end, 1e-9) + pad;
  sl_plot_hull_y_range (data, pn->xmin, pn->xmax, &pn->ymin, &pn->ymax);
  pn->log_y = FALSE;
}

/* The legend from @top in rows above the frame, then the count of the
 * points above it; the count below beside the x axis' label, or under it:
 * the data area holds data only. */
static void
draw_hull_panel (cairo_t           *cr,
                 const Plot        *p,
                 const SlPlotStyle *st,
                 double             top,
                 SlPlotPanel       *pn,
                 SlPlotTexts       *texts)
{
  SlPlotLegendItem items[SL_PLOT_MAX_LEGEND];
  guint n = sl_plot_legend_items (p->data, p->name_a, p->name_b, items);
  SlPlotBeyond beyond;
  char *counts[2];
  guint rows;
  const char *xlabel = "time on a (s since the first packet)";
  double below;

  hull_panel_range (p->data, pn);
  sl_plot_count_beyond (p->data, pn->xmin, pn->xmax, pn->ymin, pn->ymax, &beyond);
  for (guint side = 0; side < 2; side++)
    counts[side] = sl_plot_beyond_text (&beyond, side);

  cairo_save (cr);
  cairo_set_font_size (cr, 12);
  rows = sl_plot_legend_fit_rows (cr, items, n, pn->right - pn->left);
  sl_plot_draw_legend_rows (cr, items, n, rows, pn->left, top, 18, st, texts);
  cairo_restore (cr);
  pn->top = top + 18 * rows + 10 + (counts[0] != NULL ? st->tick_size + 8 : 0);

  sl_plot_draw_axes (cr, pn, st, xlabel,
                     p->data->n_windows > 1 ? "offset t_b \u2212 t_a (\u00b5s, relative to the estimate there)"
                                            : "offset t_b \u2212 t_a (\u00b5s, relative to the estimate at 0)");
  sl_plot_draw_hull (cr, p->data, pn, st);
  sl_plot_draw_beyond (cr, p->data, pn, st, NULL);

  cairo_save (cr);
  cairo_set_font_size (cr, st->tick_size);
  set_fg (cr, st);
  below = pn->bottom + st->xlabel_dy;
  if (!sl_plot_count_fits_beside (cr, pn, st, xlabel, counts[1]))
    below += st->label_size + 8;
  sl_plot_draw_counts (cr, counts, pn->right, pn->top - 6, below, texts);
  cairo_restore (cr);
  for (guint i = 0; i < n; i++)
    g_free (items[i].text);
  g_free (counts[0]);
  g_free (counts[1]);
}

static void
draw_accuracy_panel (cairo_t           *cr,
                     const Plot        *p,
                     const SlPlotStyle *st,
                     SlPlotPanel       *pn)
{
  double ylo = INFINITY, yhi = -INFINITY;
  double xlo = 0, xhi = p->data->x_end, pad;
  gboolean any = FALSE;

  for (guint i = 0; i < p->data->accuracy->len; i++)
    {
      const SlPlotPoint *q = &g_array_index (p->data->accuracy, SlPlotPoint, i);

      sl_plot_range_extend (&xlo, &xhi, q->x);
      if (isfinite (q->y))
        {
          sl_plot_range_extend (&ylo, &yhi, log10 (q->y));
          any = TRUE;
        }
    }
  if (!any)
    ylo = yhi = 0;
  pn->ymin = floor (ylo);
  pn->ymax = ceil (yhi);
  if (pn->ymax - pn->ymin < 1)
    {
      pn->ymin -= 1;
      pn->ymax += 1;
    }
  pad = MAX (xhi - xlo, 1e-9) * 0.02;
  pn->xmin = xlo - pad;
  pn->xmax = MAX (xhi, xlo + 1e-9) + pad;
  pn->log_y = TRUE;

  sl_plot_draw_axes (cr, pn, st, "input time (s since the first packet)", "accuracy (ppm, log)");
  sl_plot_draw_accuracy (cr, p->data->accuracy, pn, xhi, st);

  if (!any)
    {
      cairo_save (cr);
      set_fg (cr, st);
      cairo_set_font_size (cr, 14);
      sl_plot_show_text_at (cr, "no bounded accuracy in the journal",
                            (pn->left + pn->right) / 2, (pn->top + pn->bottom) / 2, 0.5, 0.5);
      cairo_restore (cr);
    }
}

static void
draw_plot (cairo_t     *cr,
           const Plot  *p,
           SlPlotPanel *hull,
           SlPlotTexts *texts)
{
  SlPlotPanel hull_panel = { 100, 0, SL_PLOT_WIDTH - 30, 580 };
  SlPlotPanel acc_panel = { 100, 650, SL_PLOT_WIDTH - 30, SL_PLOT_HEIGHT - 60 };
  SlPlotStyle st;

  sl_plot_style_init (&st);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 16);
  set_fg (cr, &st);
  sl_plot_show_text_at (cr, p->title, SL_PLOT_WIDTH / 2.0, 16, 0.5, 0);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

  draw_hull_panel (cr, p, &st, 38, &hull_panel, texts);
  draw_accuracy_panel (cr, p, &st, &acc_panel);
  if (hull != NULL)
    *hull = hull_panel;
}

/**
 * sl_plot_draw_link:
 * @cr: a context of %SL_PLOT_WIDTH × %SL_PLOT_HEIGHT
 * @hull: (out) (optional): the hull panel as drawn
 * @texts: (out) (optional): where its legend and counts were drawn
 *
 * Draws @link's picture as sl_plot_links() writes it.
 */
void
sl_plot_draw_link (cairo_t     *cr,
                   SlEngine    *engine,
                   guint        link,
                   SlPlotPanel *hull,
                   SlPlotTexts *texts)
{
  Plot p = { 0 };

  g_return_if_fail (cr != NULL && engine != NULL && link < sl_engine_get_n_links (engine));

  if (texts != NULL)
    texts->n = 0;
  plot_build (engine, link, &p);
  draw_plot (cr, &p, hull, texts);
  plot_clear (&p);
}

static gboolean
check_cairo (cairo_status_t   status,
             const char      *path,
             GError         **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, SL_ERROR, SL_ERROR_IO, "Cannot write %s: %s",
               path, cairo_status_to_string (status));
  return FALSE;
}

static gboolean
write_png (const Plot  *p,
           const char  *path,
           GError     **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, SL_PLOT_WIDTH, SL_PLOT_HEIGHT);
  cr = cairo_create (surface);
  draw_plot (cr, p, NULL, NULL);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_write_to_png (surface, path);
  cairo_surface_destroy (surface);
  return check_cairo (status, path, error);
}

static gboolean
write_svg (const Plot  *p,
           const char  *path,
           GError     **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  surface = cairo_svg_surface_create (path, SL_PLOT_WIDTH, SL_PLOT_HEIGHT);
  status = cairo_surface_status (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    {
      cr = cairo_create (surface);
      draw_plot (cr, p, NULL, NULL);
      status = cairo_status (cr);
      cairo_destroy (cr);
      cairo_surface_finish (surface);
      if (status == CAIRO_STATUS_SUCCESS)
        status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  return check_cairo (status, path, error);
}

gboolean
sl_plot_links (SlEngine    *engine,
               const char  *out_dir,
               GError     **error)
{
  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (out_dir != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    {
      int saved = errno;

      g_set_error (error, SL_ERROR, SL_ERROR_IO, "Cannot create the plot folder %s: %s",
                   out_dir, g_strerror (saved));
      return FALSE;
    }
  if (!g_file_test (out_dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "Cannot create the plot folder %s: %s",
                   out_dir, g_strerror (ENOTDIR));
      return FALSE;
    }

  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      Plot p = { 0 };
      g_autofree char *a = NULL;
      g_autofree char *b = NULL;
      g_autofree char *base = NULL;
      g_autofree char *png = NULL;
      g_autofree char *svg = NULL;
      gboolean ok;

      plot_build (engine, l, &p);
      a = sanitize_name (p.name_a);
      b = sanitize_name (p.name_b);
      base = g_strdup_printf ("%s--%s", a, b);
      png = g_strconcat (out_dir, G_DIR_SEPARATOR_S, base, ".png", NULL);
      svg = g_strconcat (out_dir, G_DIR_SEPARATOR_S, base, ".svg", NULL);
      ok = write_png (&p, png, error) && write_svg (&p, svg, error);
      plot_clear (&p);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}
