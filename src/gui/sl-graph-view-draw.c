/* sl-graph-view-draw.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-graph-view-private.h"
#include "sl-line-raster.h"
#include "sl-plot.h"

/* A pin's head, by a pinned host: a filled disc with a ring of the
 * background, so that it reads on the reference's ring too. */
static void
draw_pin (cairo_t    *cr,
          double      x,
          double      y,
          Rgb         bg)
{
  cairo_new_path (cr);
  set_rgb (cr, bg, 1);
  cairo_arc (cr, x, y, 6, 0, 2 * G_PI);
  cairo_fill (cr);
  set_rgb (cr, rgb_from_hex (SL_GRAPH_RGB_PINNED), 1);
  cairo_arc (cr, x, y, 4.5, 0, 2 * G_PI);
  cairo_fill (cr);
  cairo_set_line_width (cr, 2);
  cairo_move_to (cr, x - 2, y + 3);
  cairo_line_to (cr, x - 6, y + 8);
  cairo_stroke (cr);
}

static const Rgb quality_grey = { 0.55, 0.55, 0.58 };

/* Drawing */

static void
dash_for (cairo_t   *cr,
          SlQuality  quality,
          gboolean   in_tree,
          double     width)
{
  static const double dashed[] = { 6, 4 };
  static const double dotted[] = { 1.5, 4 };
  static const double dash_dot[] = { 8, 3, 2, 3 };

  if (in_tree)
    cairo_set_dash (cr, NULL, 0, 0);
  else if (quality == SL_QUALITY_INCOMPLETE || quality == SL_QUALITY_ABSENT)
    cairo_set_dash (cr, dotted, 2, 0);
  else if (quality == SL_QUALITY_APPROXIMATE)
    cairo_set_dash (cr, dash_dot, 4, 0);
  else
    cairo_set_dash (cr, dashed, 2, 0);
}

static void
edge_style (const Edge *e,
            Rgb        *color,
            double     *width,
            double     *alpha)
{
  double t = bound_t (e->bound_ns);

  switch (e->quality)
    {
    case SL_QUALITY_ACCURATE:
      *color = bound_color (t);
      *width = e->in_tree ? 2.0 + 3.0 * (1 - t) : 1.3;
      *alpha = e->in_tree ? 1.0 : 0.6;
      break;
    case SL_QUALITY_FAIL:
      *color = rgb_from_hex (0xc01c28);
      *width = 1.6;
      *alpha = 0.9;
      break;
    case SL_QUALITY_APPROXIMATE:
      *color = rgb_from_hex (0x9141ac);
      *width = 1.3;
      *alpha = 0.8;
      break;
    case SL_QUALITY_INCOMPLETE:
    case SL_QUALITY_ABSENT:
    default:
      *color = quality_grey;
      *width = 1.2;
      *alpha = 0.7;
      break;
    }
}

static void
draw_quality_mark (cairo_t    *cr,
                   SlQuality   quality,
                   double      mx,
                   double      my,
                   Rgb         fg)
{
  const char *mark;

  switch (quality)
    {
    case SL_QUALITY_FAIL:
      mark = "✕";
      break;
    case SL_QUALITY_APPROXIMATE:
      mark = "≈";
      break;
    case SL_QUALITY_INCOMPLETE:
      mark = "→";
      break;
    case SL_QUALITY_ABSENT:
      mark = "∅";
      break;
    case SL_QUALITY_ACCURATE:
    default:
      return;
    }
  cairo_new_path (cr);
  cairo_arc (cr, mx, my, 7, 0, 2 * G_PI);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
  cairo_fill (cr);
  set_rgb (cr, fg, 1);
  cairo_set_font_size (cr, 11);
  sl_plot_show_text_at (cr, mark, mx, my, 0.5, 0.5);
}

static void
draw_legend (SlGraphView *self,
             cairo_t     *cr,
             int          height,
             Rgb          fg,
             Rgb          bg)
{
  const double h = 96, x0 = 10;
  double y0 = height - h - 10;
  double w, other_x, ring_x;
  cairo_pattern_t *grad;
  cairo_text_extents_t ext;
  const char *ticks[] = { "10 µs", "100 µs", "1 ms", "10 ms" };
  const char *tree = _("tree link"), *other = _("other"), *reference = _("reference");
  /* Translators: marks drawn on links: ≈ approximate, → one way, ∅ no match, ✕ hulls cross */
  const char *marks = _("≈ approximate  → incomplete"), *absent = _("∅ absent  ✕ fail");

  cairo_save (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_set_font_size (cr, 10);
  /* the items where the English words put them, further right when
   * a language's are longer ("lien de l'arbre" ran into the next one) */
  cairo_text_extents (cr, tree, &ext);
  other_x = MAX (x0 + 104, x0 + 44 + ext.x_advance + 12);
  cairo_text_extents (cr, absent, &ext);
  ring_x = MAX (x0 + 140, x0 + 8 + ext.x_advance + 12);
  cairo_text_extents (cr, other, &ext);
  w = MAX (200, other_x + 36 + ext.x_advance + 2 - x0);
  cairo_text_extents (cr, reference, &ext);
  w = MAX (w, ring_x + 10 + ext.x_advance + 2 - x0);
  cairo_text_extents (cr, marks, &ext);
  w = MAX (w, 8 + ext.x_advance + 2);

  set_rgb (cr, bg, 0.85);
  cairo_rectangle (cr, x0, y0, w, h);
  cairo_fill (cr);

  set_rgb (cr, fg, 1);
  cairo_move_to (cr, x0 + 8, y0 + 14);
  /* Translators: legend of the colour scale of the links */
  cairo_show_text (cr, _("Link bound (±)"));

  grad = cairo_pattern_create_linear (x0 + 8, 0, x0 + w - 8, 0);
  for (guint i = 0; i <= 10; i++)
    {
      Rgb c = bound_color (i / 10.0);
      cairo_pattern_add_color_stop_rgb (grad, i / 10.0, c.r, c.g, c.b);
    }
  cairo_rectangle (cr, x0 + 8, y0 + 20, w - 16, 8);
  cairo_set_source (cr, grad);
  cairo_fill (cr);
  cairo_pattern_destroy (grad);

  set_rgb (cr, fg, 1);
  for (guint i = 0; i < G_N_ELEMENTS (ticks); i++)
    {
      double tx = x0 + 8 + (w - 16) * i / (G_N_ELEMENTS (ticks) - 1.0);

      cairo_text_extents (cr, ticks[i], &ext);
      /* the end labels stay inside the legend */
      tx = CLAMP (tx - ext.width / 2, x0 + 4, x0 + w - 4 - ext.width);
      cairo_move_to (cr, tx - ext.x_bearing, y0 + 40);
      cairo_show_text (cr, ticks[i]);
    }

  cairo_set_line_width (cr, 3);
  set_rgb (cr, bound_color (0.3), 1);
  cairo_move_to (cr, x0 + 8, y0 + 54);
  cairo_line_to (cr, x0 + 38, y0 + 54);
  cairo_stroke (cr);
  set_rgb (cr, fg, 1);
  cairo_move_to (cr, x0 + 44, y0 + 58);
  cairo_show_text (cr, tree);

  cairo_set_line_width (cr, 1.3);
  dash_for (cr, SL_QUALITY_ACCURATE, FALSE, 1.3);
  set_rgb (cr, bound_color (0.3), 1);
  cairo_move_to (cr, other_x, y0 + 54);
  cairo_line_to (cr, other_x + 30, y0 + 54);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  set_rgb (cr, fg, 1);
  cairo_move_to (cr, other_x + 36, y0 + 58);
  cairo_show_text (cr, other);

  cairo_move_to (cr, x0 + 8, y0 + 74);
  cairo_show_text (cr, marks);
  cairo_move_to (cr, x0 + 8, y0 + 88);
  cairo_show_text (cr, absent);

  cairo_set_line_width (cr, 2.5);
  set_rgb (cr, rgb_from_hex (SL_GRAPH_RGB_REFERENCE), 1);
  cairo_new_path (cr);
  cairo_arc (cr, ring_x, y0 + 82, 5, 0, 2 * G_PI);
  cairo_stroke (cr);
  set_rgb (cr, fg, 1);
  cairo_move_to (cr, ring_x + 10, y0 + 86);
  cairo_show_text (cr, reference);
  cairo_restore (cr);
}

static guint32
rgb_to_hex (Rgb c)
{
  return ((guint32) (c.r * 255 + 0.5) << 16) | ((guint32) (c.g * 255 + 0.5) << 8) | (guint32) (c.b * 255 + 0.5);
}

static guint64
key_mix (guint64 key,
         guint64 v)
{
  key = (key ^ v) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  return key ^ (key >> 29);
}

static guint64
key_mix_double (guint64 key,
                double  v)
{
  guint64 bits;

  memcpy (&bits, &v, sizeof bits);
  return key_mix (key, bits);
}

/* What a drawing shows of the session, folded into a number: the hosts'
 * places, looks and names, the groups, the links' ends, looks and colours
 * (a bound as the colour it is drawn in), the layout's size. While hosts
 * are read most updates bring more matched packets and tighter bounds
 * that change none of it. (Moves and glows draw their own steps:
 * start_animation(); a new size, zoom or pan draws at once. The names'
 * order, busiest host first, is not in it: see session_updated_cb() in
 * sl-graph-view.c.) */
guint64
drawn_key (SlGraphView *self)
{
  guint64 key = key_mix (self->nodes->len, self->unreadable->len);

  key = key_mix (key, self->edges->len);
  key = key_mix_double (key, self->layout_w);
  key = key_mix_double (key, self->layout_h);
  for (guint h = 0; h < self->nodes->len; h++)
    {
      SlHostItem *item = sl_session_get_host_item (self->session, h);
      const Node *n = &g_array_index (self->nodes, Node, h);
      const SlSnapHost *info = sl_host_item_get_info (item);

      key = key_mix_double (key, n->to.x);
      key = key_mix_double (key, n->to.y);
      key = key_mix (key, (guint64) n->ref_left);
      key = key_mix (key, sl_host_item_get_state (item) | (guint64) sl_host_item_get_live (item) << 8 |
                              (guint64) sl_host_item_get_unsynchronized (item) << 16 |
                              (guint64) sl_host_item_get_unreadable (item) << 17 |
                              (guint64) info->best_effort << 18 | (guint64) sl_host_item_get_reference (item) << 32);
      key = key_mix (key, g_str_hash (sl_host_item_get_name (item)));
    }
  for (guint i = 0; i < self->unreadable->len; i++)
    key = key_mix (key, g_str_hash (sl_host_item_get_name (sl_session_get_unreadable (self->session, i))));
  for (guint l = 0; l < self->edges->len; l++)
    {
      const Edge *e = &g_array_index (self->edges, Edge, l);

      key = key_mix (key, e->a | (guint64) e->b << 32);
      key = key_mix (key, e->quality | (guint64) e->in_tree << 8 |
                              (guint64) rgb_to_hex (bound_color (bound_t (e->bound_ns))) << 32);
    }
  return key;
}

void
draw_back (SlGraphView     *self,
           cairo_t         *cr,
           const DrawState *ds)
{
  Rgb accent = rgb_from_hex (SL_GRAPH_RGB_SELECTED);
  guint lookups = 0;

  /* one faint disc per group of hosts on one clock: the members found
   * in one pass over the hosts (early in a read every host is its own
   * group's reference: a pass per reference was 10^6 lookups) */
  if (self->refs->len > 0)
    {
      g_autofree guint *slot = g_new (guint, self->nodes->len);
      g_autofree double *far = g_new0 (double, self->refs->len);
      g_autofree double *centre = g_new (double, 2 * self->refs->len);
      g_autofree guint *members = g_new0 (guint, self->refs->len);

      memset (slot, 0xff, self->nodes->len * sizeof *slot);
      for (guint i = 0; i < self->refs->len; i++)
        {
          guint ref = g_array_index (self->refs, guint, i);

          if (ref < self->nodes->len)
            slot[ref] = i;
          to_screen (self, node_pos (self, ref, ds->t), &centre[2 * i], &centre[2 * i + 1]);
        }
      for (guint h = 0; h < self->nodes->len; h++)
        {
          guint ref = sl_host_item_get_reference (sl_session_get_host_item (self->session, h));
          guint i;
          double hx, hy;

          lookups++;
          if (ref >= self->nodes->len || (i = slot[ref]) == G_MAXUINT)
            continue;
          to_screen (self, node_pos (self, h, ds->t), &hx, &hy);
          far[i] = MAX (far[i], hypot (hx - centre[2 * i], hy - centre[2 * i + 1]));
          members[i]++;
        }
      for (guint i = 0; i < self->refs->len; i++)
        {
          if (members[i] < 2)
            continue;
          set_rgb (cr, ds->fg, 0.05);
          cairo_new_path (cr);
          cairo_arc (cr, centre[2 * i], centre[2 * i + 1], far[i] + 3 * ds->r, 0, 2 * G_PI);
          cairo_fill (cr);
        }
    }
  if (self->nodes->len > 0)
    self->back_lookups_per_host = MAX (self->back_lookups_per_host, (lookups + self->nodes->len - 1) / self->nodes->len);

  if (ds->sel_l < self->edges->len)
    {
      const Edge *e = &g_array_index (self->edges, Edge, ds->sel_l);
      double ax, ay, bx, by;

      to_screen (self, node_pos (self, e->a, ds->t), &ax, &ay);
      to_screen (self, node_pos (self, e->b, ds->t), &bx, &by);
      cairo_set_dash (cr, NULL, 0, 0);
      set_rgb (cr, accent, 0.45);
      cairo_set_line_width (cr, 12);
      cairo_move_to (cr, ax, ay);
      cairo_line_to (cr, bx, by);
      cairo_stroke (cr);
    }
}

static Rgb
edge_color (const Edge *e,
            double     *width,
            double     *alpha)
{
  Rgb color;

  edge_style (e, &color, width, alpha);
  if (e->quality == SL_QUALITY_ACCURATE)
    color = bound_color (bound_t (e->bound_ns));
  return color;
}

/* Links outside the tree: thin and many. Into @raster (device pixels,
 * @scale per widget pixel) when given, else stroked with cairo. */
void
draw_other_edges (SlGraphView     *self,
                  cairo_t         *cr,
                  SlLineRaster    *raster,
                  double           scale,
                  const DrawState *ds)
{
  for (guint i = 0; i < self->edges->len; i++)
    {
      const Edge *e = &g_array_index (self->edges, Edge, i);
      double ax, ay, bx, by, width, alpha, on = 0, off = 0;
      Rgb color;

      if (e->in_tree || e->a >= self->nodes->len || e->b >= self->nodes->len)
        continue;
      color = edge_color (e, &width, &alpha);
      /* many links outside the tree would hide it: fade them */
      alpha *= ds->other_alpha;
      to_screen (self, node_pos (self, e->a, ds->t), &ax, &ay);
      to_screen (self, node_pos (self, e->b, ds->t), &bx, &by);
      if (raster != NULL)
        {
          if (e->quality == SL_QUALITY_INCOMPLETE || e->quality == SL_QUALITY_ABSENT)
            on = 1.5, off = 4;
          else if (e->quality == SL_QUALITY_APPROXIMATE)
            on = 9, off = 3;
          else
            on = 6, off = 4;
          sl_line_raster_line (raster, ax * scale, ay * scale, bx * scale, by * scale,
                               rgb_to_hex (color), alpha, on * scale, off * scale);
        }
      else
        {
          dash_for (cr, e->quality, FALSE, width);
          cairo_set_line_width (cr, width);
          set_rgb (cr, color, alpha);
          cairo_move_to (cr, ax, ay);
          cairo_line_to (cr, bx, by);
          cairo_stroke (cr);
        }
    }
  if (cr != NULL)
    cairo_set_dash (cr, NULL, 0, 0);
}

#define MARK_FG rgb_from_hex (0x241f31)

/* A quality mark as a picture: while a session streams in, many links
 * are not yet accurate; a frame with a few hundred marks spent 6–7 ms
 * drawing them with cairo's text, 0.6 ms blitting these. */
static const guint8 *
mark_sprite (SlGraphView *self,
             SlQuality    quality,
             double       scale,
             int         *size,
             int         *stride)
{
  int s = 2 * (int) ceil (8 * scale) + 2;
  cairo_surface_t **sprite = &self->mark_sprites[quality];

  g_assert (quality <= SL_QUALITY_FAIL);
  if (self->mark_scale != scale)
    {
      for (guint i = 0; i < G_N_ELEMENTS (self->mark_sprites); i++)
        g_clear_pointer (&self->mark_sprites[i], cairo_surface_destroy);
      self->mark_scale = scale;
    }
  if (*sprite == NULL)
    {
      cairo_t *cr;

      *sprite = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, s, s);
      cr = cairo_create (*sprite);
      cairo_scale (cr, scale, scale);
      draw_quality_mark (cr, quality, s / 2.0 / scale, s / 2.0 / scale, MARK_FG);
      cairo_destroy (cr);
      cairo_surface_flush (*sprite);
    }
  *size = cairo_image_surface_get_width (*sprite);
  *stride = cairo_image_surface_get_stride (*sprite);
  return cairo_image_surface_get_data (*sprite);
}

/* A host's disc as a picture, for the many hosts drawn alike: blitting
 * it costs a fraction of cairo's fill and stroke of two arcs. */
static const guint8 *
node_sprite (SlGraphView     *self,
             const DrawState *ds,
             double           scale,
             int             *size,
             int             *stride)
{
  int s = 2 * (int) ceil ((ds->r + 2) * scale) + 2;
  guint32 key_fg = rgb_to_hex (ds->fg), key_bg = rgb_to_hex (ds->bg);

  if (self->sprite == NULL || self->sprite_r != ds->r || self->sprite_scale != scale ||
      self->sprite_fg != key_fg || self->sprite_bg != key_bg)
    {
      cairo_t *cr;

      g_clear_pointer (&self->sprite, cairo_surface_destroy);
      self->sprite = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, s, s);
      cr = cairo_create (self->sprite);
      cairo_scale (cr, scale, scale);
      /* centred on the corner between the four middle pixels */
      cairo_arc (cr, s / 2.0 / scale, s / 2.0 / scale, ds->r, 0, 2 * G_PI);
      set_rgb (cr, ds->bg, 1);
      cairo_fill_preserve (cr);
      set_rgb (cr, ds->fg, 1);
      cairo_set_line_width (cr, 2);
      cairo_stroke (cr);
      cairo_destroy (cr);
      cairo_surface_flush (self->sprite);
      self->sprite_r = ds->r;
      self->sprite_scale = scale;
      self->sprite_fg = key_fg;
      self->sprite_bg = key_bg;
    }
  *size = cairo_image_surface_get_width (self->sprite);
  *stride = cairo_image_surface_get_stride (self->sprite);
  return cairo_image_surface_get_data (self->sprite);
}

static guint32
live_rgb (SlHostLive live)
{
  switch (live)
    {
    case SL_HOST_LIVE_STALLED:
      return SL_GRAPH_RGB_STALLED;
    case SL_HOST_LIVE_ENDED:
      return SL_GRAPH_RGB_ENDED;
    default:
      return SL_GRAPH_RGB_UNREADABLE;
    }
}

/* The tree, a line per stroke (cheaper than one path of many), and the
 * links that just joined it, glowing for a moment. */
static void
draw_tree_edges (SlGraphView     *self,
                 cairo_t         *cr,
                 SlLineRaster    *raster,
                 double           scale,
                 const DrawState *ds)
{
  for (guint i = 0; i < self->edges->len; i++)
    {
      const Edge *e = &g_array_index (self->edges, Edge, i);
      double ax, ay, bx, by, lw, alpha;
      Rgb color;

      if (!e->in_tree || e->a >= self->nodes->len || e->b >= self->nodes->len)
        continue;
      color = edge_color (e, &lw, &alpha);
      to_screen (self, node_pos (self, e->a, ds->t), &ax, &ay);
      to_screen (self, node_pos (self, e->b, ds->t), &bx, &by);
      if (raster != NULL)
        {
          sl_line_raster_thick (raster, ax * scale, ay * scale, bx * scale, by * scale, lw * scale,
                                rgb_to_hex (color), alpha);
          continue;
        }
      cairo_set_line_width (cr, lw);
      set_rgb (cr, color, alpha);
      cairo_move_to (cr, ax, ay);
      cairo_line_to (cr, bx, by);
      cairo_stroke (cr);
    }

  for (guint i = 0; i < self->edges->len && !ds->for_export; i++)
    {
      const Edge *e = &g_array_index (self->edges, Edge, i);
      double f, ax, ay, bx, by;

      if (e->flash_start == 0)
        continue;
      f = 1 - (double) (ds->now - e->flash_start) / (FLASH_MS * 1000.0);
      if (f <= 0)
        continue;
      to_screen (self, node_pos (self, e->a, ds->t), &ax, &ay);
      to_screen (self, node_pos (self, e->b, ds->t), &bx, &by);
      if (raster != NULL)
        {
          sl_line_raster_thick (raster, ax * scale, ay * scale, bx * scale, by * scale, (6 + 10 * f) * scale,
                                rgb_to_hex (bound_color (bound_t (e->bound_ns))), 0.5 * f);
          continue;
        }
      set_rgb (cr, bound_color (bound_t (e->bound_ns)), 0.5 * f);
      cairo_set_line_width (cr, 6 + 10 * f);
      cairo_move_to (cr, ax, ay);
      cairo_line_to (cr, bx, by);
      cairo_stroke (cr);
    }
}

/* The hosts drawn alike, blitted into @raster. */
static void
blit_hosts (SlGraphView     *self,
            SlLineRaster    *raster,
            double           scale,
            int              width,
            int              height,
            const DrawState *ds)
{
  int size, stride;
  const guint8 *sprite = node_sprite (self, ds, scale, &size, &stride);

  for (guint h = 0; h < self->nodes->len; h++)
    {
      double x, y;

      if (h == ds->sel_h || is_group_reference (self, h) || is_unsynchronized (self, h) ||
          sl_host_item_get_unreadable (sl_session_get_host_item (self->session, h)))
        continue;
      to_screen (self, node_pos (self, h, ds->t), &x, &y);
      if (x < -50 || y < -50 || x > width + 50 || y > height + 50)
        continue;
      sl_line_raster_blit (raster, sprite, size, size, stride,
                           (int) floor (x * scale + 0.5) - size / 2, (int) floor (y * scale + 0.5) - size / 2);
    }
}

/* Quality marks where there is room for them. */
static void
draw_quality_marks (SlGraphView     *self,
                    cairo_t         *cr,
                    SlLineRaster    *raster,
                    double           scale,
                    const DrawState *ds)
{
  double r = ds->r;

  for (guint i = 0; i < self->edges->len; i++)
    {
      const Edge *e = &g_array_index (self->edges, Edge, i);
      double ax, ay, bx, by;

      if (e->quality == SL_QUALITY_ACCURATE || e->a >= self->nodes->len || e->b >= self->nodes->len)
        continue;
      to_screen (self, node_pos (self, e->a, ds->t), &ax, &ay);
      to_screen (self, node_pos (self, e->b, ds->t), &bx, &by);
      if (hypot (bx - ax, by - ay) < 4 * r + 16)
        continue;
      if (raster != NULL)
        {
          int size, stride;
          const guint8 *sprite = mark_sprite (self, e->quality, scale, &size, &stride);

          sl_line_raster_blit (raster, sprite, size, size, stride,
                               (int) floor ((ax + bx) / 2 * scale + 0.5) - size / 2,
                               (int) floor ((ay + by) / 2 * scale + 0.5) - size / 2);
          continue;
        }
      draw_quality_mark (cr, e->quality, (ax + bx) / 2, (ay + by) / 2, MARK_FG);
    }
}

/* An unsynchronized host's ring: hollow (the links behind it show
 * through), dashed. */
static void
stroke_ring (cairo_t *cr,
             double   x,
             double   y,
             double   r)
{
  static const double dash[] = { 4, 3 };

  cairo_arc (cr, x, y, r, 0, 2 * G_PI);
  cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  set_rgb (cr, rgb_from_hex (SL_GRAPH_RGB_UNSYNCHRONIZED), 1);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* a × b / 255 rounded as cairo's span fillers do (a half of 0x7f) */
static inline guint
mul_un8 (guint a,
         guint b)
{
  guint t = a * b + 0x7f;

  return (t + (t >> 8)) >> 8;
}

/* An unsynchronized host's ring laid from its coverage. Early in a read
 * of many hosts most are unsynchronized, and cairo's dashing, stroking and
 * scan conversion of a thousand rings were 15 % of the main thread at
 * every drawing. Their coverage is kept per host while the host stays at
 * the same place: cairo's scan conversion does not change under a move by
 * whole device pixels (the ring is rendered at the same fraction of a
 * pixel), and an opaque colour over the picture is what cairo's span
 * filler computes, channel by channel d' = s·a/255 + d·(255−a)/255: the
 * pixels are those of the stroke (/ui/graph/rings compares them). FALSE
 * when it is not drawn so: a ring across the picture's edge (clipped: cairo
 * composites otherwise), a scale other than 1 or 2. */
static gboolean
lay_ring (SlGraphView *self,
          cairo_t     *cr,
          guint        h,
          double       x,
          double       y,
          double       r,
          gboolean    *laying)
{
  cairo_surface_t *target = cairo_get_target (cr);
  const guint32 pixel = 0xff000000u | SL_GRAPH_RGB_UNSYNCHRONIZED;
  int pad = (int) ceil (r + 3), scale, size, ox, oy, stride, mstride;
  double sx, sy, ux, uy;
  RingMask *m;
  guint8 *data;
  const guint8 *cov;

  cairo_surface_get_device_scale (target, &sx, &sy);
  if (self->ring_masks_off || sx != sy || (sx != 1 && sx != 2) || !isfinite (x) || !isfinite (y) ||
      fabs (x) > 1e6 || fabs (y) > 1e6)
    return FALSE;
  scale = (int) sx;
  size = (2 * pad + 2) * scale;
  ox = ((int) floor (x) - pad) * scale;
  oy = ((int) floor (y) - pad) * scale;
  if (ox < 0 || oy < 0 || ox + size > cairo_image_surface_get_width (target) ||
      oy + size > cairo_image_surface_get_height (target))
    return FALSE;
  /* exactly x and y less whole pixels (x ≥ pad: no rounding) */
  ux = (x - floor (x)) + pad;
  uy = (y - floor (y)) + pad;

  if (self->ring_masks->len < self->nodes->len)
    g_array_set_size (self->ring_masks, self->nodes->len);
  m = &g_array_index (self->ring_masks, RingMask, h);
  if (m->mask == NULL || m->ux != ux || m->uy != uy || m->r != r || m->scale != scale)
    {
      cairo_t *mc;

      if (m->mask == NULL || cairo_image_surface_get_width (m->mask) != size)
        {
          g_clear_pointer (&m->mask, cairo_surface_destroy);
          m->mask = cairo_image_surface_create (CAIRO_FORMAT_A8, size, size);
        }
      else
        {
          cairo_surface_flush (m->mask);
          memset (cairo_image_surface_get_data (m->mask), 0,
                  (gsize) cairo_image_surface_get_stride (m->mask) * size);
          cairo_surface_mark_dirty (m->mask);
        }
      cairo_surface_set_device_scale (m->mask, scale, scale);
      mc = cairo_create (m->mask);
      cairo_set_line_width (mc, 2);
      cairo_set_line_cap (mc, cairo_get_line_cap (cr));
      cairo_set_line_join (mc, cairo_get_line_join (cr));
      stroke_ring (mc, ux, uy, r);
      cairo_destroy (mc);
      cairo_surface_flush (m->mask);
      m->ux = ux;
      m->uy = uy;
      m->r = r;
      m->scale = scale;
      self->ring_strokes++;
    }

  if (!*laying)
    {
      cairo_surface_flush (target);
      *laying = TRUE;
    }
  data = cairo_image_surface_get_data (target);
  stride = cairo_image_surface_get_stride (target);
  cov = cairo_image_surface_get_data (m->mask);
  mstride = cairo_image_surface_get_stride (m->mask);
  for (int j = 0; j < size; j++)
    {
      guint32 *row = (guint32 *) (gpointer) (data + (gsize) (oy + j) * stride) + ox;

      for (int i = 0; i < size; i++)
        {
          guint a = cov[(gsize) j * mstride + i], d = row[i], out = 0;

          if (a == 0)
            continue;
          if (a == 0xff)
            {
              row[i] = pixel;
              continue;
            }
          for (int k = 0; k < 32; k += 8)
            out |= (mul_un8 ((pixel >> k) & 0xff, a) + mul_un8 ((d >> k) & 0xff, 255 - a)) << k;
          row[i] = out;
        }
    }
  return TRUE;
}

/* After rings laid by hand, cairo draws on the same pixels again. */
static void
end_laying (cairo_t  *cr,
            gboolean *laying)
{
  if (*laying)
    cairo_surface_mark_dirty (cairo_get_target (cr));
  *laying = FALSE;
}

/* The hosts cairo draws: all for export, else the references, the
 * selection and the unsynchronized. */
static void
draw_hosts (SlGraphView     *self,
            cairo_t         *cr,
            SlLineRaster    *raster,
            int              width,
            int              height,
            const DrawState *ds)
{
  Rgb accent = rgb_from_hex (SL_GRAPH_RGB_SELECTED);
  Rgb ref_rgb = rgb_from_hex (SL_GRAPH_RGB_REFERENCE);
  double r = ds->r;
  gboolean laying = FALSE;

  self->ring_strokes = 0;
  cairo_set_font_size (cr, 12);
  cairo_set_line_width (cr, 2);
  for (guint h = 0; h < self->nodes->len; h++)
    {
      gboolean is_ref = is_group_reference (self, h);
      double x, y;

      to_screen (self, node_pos (self, h, ds->t), &x, &y);
      if (x < -50 || y < -50 || x > width + 50 || y > height + 50)
        continue;

      /* a plain unsynchronized host on screen: its ring laid by hand */
      if (raster != NULL && !is_ref && h != ds->sel_h && is_unsynchronized (self, h) && !is_pinned (self, h) &&
          lay_ring (self, cr, h, x, y, r, &laying))
        continue;
      end_laying (cr, &laying);
      cairo_new_path (cr);
      if (h == ds->sel_h)
        {
          set_rgb (cr, accent, 0.45);
          cairo_arc (cr, x, y, r + 7, 0, 2 * G_PI);
          cairo_fill (cr);
        }
      if (is_ref)
        {
          if (self->flash_ref_start != 0 && h == self->flash_ref && !ds->for_export)
            {
              double f = 1 - (double) (ds->now - self->flash_ref_start) / (FLASH_MS * 1000.0);

              if (f > 0)
                {
                  set_rgb (cr, ref_rgb, 0.6 * f);
                  cairo_set_line_width (cr, 3);
                  cairo_arc (cr, x, y, r + 6 + 24 * (1 - f), 0, 2 * G_PI);
                  cairo_stroke (cr);
                  cairo_set_line_width (cr, 2);
                }
            }
          set_rgb (cr, ref_rgb, 1);
          cairo_arc (cr, x, y, r + 4, 0, 2 * G_PI);
          cairo_fill (cr);
        }
      if (!is_ref && is_unsynchronized (self, h))
        {
          stroke_ring (cr, x, y, r);
          self->ring_strokes++;
        }
      else if (raster == NULL || is_ref || h == ds->sel_h)
        {
          set_rgb (cr, ds->bg, 1);
          cairo_arc (cr, x, y, r, 0, 2 * G_PI);
          cairo_fill_preserve (cr);
          set_rgb (cr, is_ref ? ref_rgb : ds->fg, 1);
          cairo_stroke (cr);
        }
      if (is_ref)
        {
          cairo_arc (cr, x, y, r * 0.45, 0, 2 * G_PI);
          cairo_fill (cr);
        }
      if (is_pinned (self, h))
        draw_pin (cr, x + r * 0.8 + 3, y - r * 0.8 - 3, ds->bg);
    }
  end_laying (cr, &laying);
}

/* Live hosts that do not stream: an ended or failed one dimmed, and a
 * badge on each: pause bars (stalled), a stop square (ended), an
 * exclamation mark (failed) */
static void
draw_live_badges (SlGraphView     *self,
                  cairo_t         *cr,
                  int              width,
                  int              height,
                  const DrawState *ds)
{
  double r = ds->r;

  for (guint h = 0; h < self->nodes->len; h++)
    {
      SlHostLive live = sl_host_item_get_live (sl_session_get_host_item (self->session, h));
      double x, y, bx, by, br = MAX (5.0, r * 0.55);

      if (live != SL_HOST_LIVE_STALLED && live != SL_HOST_LIVE_ENDED && live != SL_HOST_LIVE_FAILED)
        continue;
      to_screen (self, node_pos (self, h, ds->t), &x, &y);
      if (x < -50 || y < -50 || x > width + 50 || y > height + 50)
        continue;
      bx = x + r * 0.8;
      by = y - r * 0.8;
      cairo_new_path (cr);
      if (live != SL_HOST_LIVE_STALLED)
        {
          set_rgb (cr, ds->bg, 0.6);
          cairo_arc (cr, x, y, r + 1, 0, 2 * G_PI);
          cairo_fill (cr);
        }
      set_rgb (cr, ds->bg, 1);
      cairo_arc (cr, bx, by, br + 1.5, 0, 2 * G_PI);
      cairo_fill (cr);
      set_rgb (cr, rgb_from_hex (live_rgb (live)), 1);
      cairo_arc (cr, bx, by, br, 0, 2 * G_PI);
      cairo_fill (cr);
      set_rgb (cr, rgb_from_hex (0xffffff), 1);
      switch (live)
        {
        case SL_HOST_LIVE_STALLED:
          cairo_rectangle (cr, bx - br * 0.45, by - br * 0.5, br * 0.3, br);
          cairo_rectangle (cr, bx + br * 0.15, by - br * 0.5, br * 0.3, br);
          break;
        case SL_HOST_LIVE_ENDED:
          cairo_rectangle (cr, bx - br * 0.4, by - br * 0.4, br * 0.8, br * 0.8);
          break;
        default:
          cairo_rectangle (cr, bx - br * 0.12, by - br * 0.6, br * 0.24, br * 0.75);
          cairo_rectangle (cr, bx - br * 0.12, by + br * 0.3, br * 0.24, br * 0.24);
          break;
        }
      cairo_fill (cr);
    }
}

/* Hosts of which nothing could be read: a crossed-out disc (those the
 * engine knows, then the others) */
static void
draw_unreadable_hosts (SlGraphView     *self,
                       cairo_t         *cr,
                       int              width,
                       int              height,
                       const DrawState *ds)
{
  Rgb accent = rgb_from_hex (SL_GRAPH_RGB_SELECTED);
  double r = ds->r;

  for (guint i = 0; i < self->nodes->len + self->unreadable->len; i++)
    {
      static const double dash[] = { 3, 2 };
      double x, y, k = r * 0.5;
      SlHostItem *item;

      if (i < self->nodes->len)
        {
          item = sl_session_get_host_item (self->session, i);
          if (!sl_host_item_get_unreadable (item))
            continue;
          to_screen (self, node_pos (self, i, ds->t), &x, &y);
        }
      else
        {
          item = sl_session_get_unreadable (self->session, i - self->nodes->len);
          to_screen (self, g_array_index (self->unreadable, Node, i - self->nodes->len).to, &x, &y);
        }
      if (x < -50 || y < -50 || x > width + 50 || y > height + 50)
        continue;
      cairo_new_path (cr);
      if (item == sl_session_get_selected_host (self->session))
        {
          set_rgb (cr, accent, 0.45);
          cairo_arc (cr, x, y, r + 7, 0, 2 * G_PI);
          cairo_fill (cr);
        }
      set_rgb (cr, ds->bg, 1);
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      cairo_fill_preserve (cr);
      cairo_set_dash (cr, dash, 2, 0);
      set_rgb (cr, rgb_from_hex (SL_GRAPH_RGB_UNREADABLE), 1);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_move_to (cr, x - k, y - k);
      cairo_line_to (cr, x + k, y + k);
      cairo_move_to (cr, x + k, y - k);
      cairo_line_to (cr, x - k, y + k);
      cairo_stroke (cr);
    }
}

/* The names, where place_labels() put them. */
static void
draw_labels (SlGraphView     *self,
             cairo_t         *cr,
             int              width,
             int              height,
             const DrawState *ds)
{
  place_labels (self, width, height, ds);
  for (guint i = 0; i < self->labels->len; i++)
    {
      const SlGraphLabel *l = &g_array_index (self->labels, SlGraphLabel, i);
      const Node *n = l->host != SL_HOST_NONE ? &g_array_index (self->nodes, Node, l->host)
                                              : &g_array_index (self->unreadable, Node, l->unreadable);
      g_autofree char *name = l->host != SL_HOST_NONE
                              ? host_label_text (self, l->host)
                              : g_strdup (sl_host_item_get_name (sl_session_get_unreadable (self->session, l->unreadable)));

      set_rgb (cr, ds->bg, 0.75);
      cairo_rectangle (cr, l->x, l->y, l->w, l->h);
      cairo_fill (cr);
      if (l->host == SL_HOST_NONE ||
          sl_host_item_get_unreadable (sl_session_get_host_item (self->session, l->host)))
        set_rgb (cr, rgb_from_hex (SL_GRAPH_RGB_UNREADABLE), 1);
      else if (is_unsynchronized (self, l->host))
        set_rgb (cr, rgb_from_hex (SL_GRAPH_RGB_UNSYNCHRONIZED), 1);
      else
        set_rgb (cr, ds->fg, 1);
      cairo_move_to (cr, l->x + 2 - n->label_xb, l->y + 2 - n->label_yb);
      cairo_show_text (cr, name);
      cairo_new_path (cr);
    }
}

/* The tree, glowing new tree links and the hosts. On screen, @raster
 * (device pixels, @scale per widget pixel) takes the lines and the
 * ordinary hosts; cairo (@cr) draws what is drawn once: the reference,
 * the selection, text. For export @raster is NULL and cairo draws all. */

void
draw_front (SlGraphView     *self,
            cairo_t         *cr,
            SlLineRaster    *raster,
            double           scale,
            int              width,
            int              height,
            const DrawState *ds)
{
  cairo_set_dash (cr, NULL, 0, 0);
  if (raster != NULL)
    cairo_surface_flush (cairo_get_target (cr));

  draw_tree_edges (self, cr, raster, scale, ds);
  if (raster != NULL)
    blit_hosts (self, raster, scale, width, height, ds);
  draw_quality_marks (self, cr, raster, scale, ds);
  if (raster != NULL)
    cairo_surface_mark_dirty (cairo_get_target (cr));

  draw_hosts (self, cr, raster, width, height, ds);
  draw_live_badges (self, cr, width, height, ds);
  draw_unreadable_hosts (self, cr, width, height, ds);
  draw_labels (self, cr, width, height, ds);
  draw_legend (self, cr, height, ds->fg, ds->bg);
}

/* The picture on screen, into @surface (cleared, @width × @height widget
 * pixels at @scale): cairo behind, the many thin links drawn by hand into
 * the same pixels, cairo in front (tree, hosts, legend). */
void
draw_screen (SlGraphView     *self,
             cairo_surface_t *surface,
             int              width,
             int              height,
             int              scale)
{
  SlLineRaster raster;
  DrawState ds;
  cairo_t *cr;

  draw_state_init (self, &ds, FALSE);
  cr = cairo_create (surface);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  draw_back (self, cr, &ds);

  cairo_surface_flush (surface);
  sl_line_raster_wrap (&raster, cairo_image_surface_get_data (surface), width * scale, height * scale);
  if (self->edges->len > self->n_tree_edges)
    draw_other_edges (self, NULL, &raster, scale, &ds);
  cairo_surface_mark_dirty (surface);

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  draw_front (self, cr, &raster, scale, width, height, &ds);
  cairo_destroy (cr);
}

void
draw_state_init (SlGraphView *self,
                 DrawState   *ds,
                 gboolean     for_export)
{
  SlLinkItem *sel_link = sl_session_get_selected_link (self->session);
  SlHostItem *sel_host = sl_session_get_selected_host (self->session);

  ds->t = move_progress (self);
  ds->r = node_radius (self);
  ds->now = g_get_monotonic_time ();
  ds->sel_l = sel_link != NULL ? sl_link_item_get_link (sel_link) : G_MAXUINT;
  ds->sel_h = sel_host != NULL ? sl_host_item_get_host (sel_host) : SL_HOST_NONE;
  ds->fg = (Rgb) { 0.1, 0.1, 0.12 };
  ds->bg = (Rgb) { 1, 1, 1 };
  ds->for_export = for_export;
  ds->other_alpha = CLAMP (150.0 / MAX (1, (double) self->edges->len - self->n_tree_edges), 0.3, 1.0);
  if (!for_export)
    {
      GdkRGBA c;

      gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &c);
      ds->fg = (Rgb) { c.red, c.green, c.blue };
      /* a light text colour means a dark background */
      if (c.red + c.green + c.blue > 1.5)
        ds->bg = (Rgb) { 0.14, 0.14, 0.15 };
    }
}

void
sl_graph_view_draw (SlGraphView *self,
                    cairo_t     *cr,
                    int          width,
                    int          height,
                    gboolean     for_export)
{
  DrawState ds;

  g_return_if_fail (SL_IS_GRAPH_VIEW (self));

  if (for_export)
    {
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
    }
  if (self->session == NULL || (self->nodes->len == 0 && self->unreadable->len == 0))
    return;
  draw_state_init (self, &ds, for_export);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  draw_back (self, cr, &ds);
  draw_other_edges (self, cr, NULL, 1, &ds);
  draw_front (self, cr, NULL, 1, width, height, &ds);
}

/* The unsynchronized hosts' rings cairo stroked in the last drawing
 * (onto the picture, or into a host's mask, see lay_ring()). */
guint
_sl_graph_view_get_ring_strokes (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), 0);

  return self->ring_strokes;
}

/* Rings stroked by cairo at every drawing (@off) or laid from their
 * masks; and the picture on screen drawn into a new image surface, as
 * the widget draws it at @scale. */
void
_sl_graph_view_set_ring_masks_off (SlGraphView *self,
                                   gboolean     off)
{
  g_return_if_fail (SL_IS_GRAPH_VIEW (self));

  self->ring_masks_off = off;
}

cairo_surface_t *
_sl_graph_view_draw_picture (SlGraphView *self,
                             int          scale)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  cairo_surface_t *surface;

  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self) && scale >= 1, NULL);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, MAX (width, 1) * scale, MAX (height, 1) * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  if (width > 0 && height > 0 && self->session != NULL && (self->nodes->len > 0 || self->unreadable->len > 0))
    draw_screen (self, surface, width, height, scale);
  cairo_surface_flush (surface);
  return surface;
}
