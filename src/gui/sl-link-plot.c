/* sl-link-plot.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-gui-enums.h"
#include "sl-link-plot.h"
#include "sl-plot.h"
#include "sl-units.h"

struct _SlLinkPlot
{
  GtkWidget       parent_instance;

  SlPlotData     *plot;
  SlLinkPlotKind  kind;
  char           *a_name;
  char           *b_name;

  /* the view in data units; zoomed: not the data's own bounds */
  gboolean        zoomed;
  double          vx0;
  double          vx1;
  double          vy0;
  double          vy1;
  double          drag_vx0;
  double          drag_vy0;
  double          pointer_x;
  double          pointer_y;
  SlPlotPanel     frame;
  /* a time range selected elsewhere (x units), NAN for none */
  double          range_x0;
  double          range_x1;
  /* the hull plot's points beyond its y range, as last drawn */
  SlPlotBeyond    beyond;
  /* its legend's and counts' boxes, as last drawn */
  SlPlotTexts     texts;
};

enum {
  PROP_0,
  PROP_PLOT,
  PROP_KIND,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SlLinkPlot, sl_link_plot, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

static void
set_hex (cairo_t *cr,
         guint32  rgb,
         double   alpha)
{
  cairo_set_source_rgba (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                         (rgb & 0xff) / 255.0, alpha);
}

/* The core renderer's style at a widget's size, in its colours. */
static void
widget_style (SlPlotStyle   *st,
              const GdkRGBA *fg,
              double         left)
{
  sl_plot_style_init (st);
  st->fg[0] = fg->red;
  st->fg[1] = fg->green;
  st->fg[2] = fg->blue;
  st->grid[0] = fg->red;
  st->grid[1] = fg->green;
  st->grid[2] = fg->blue;
  st->grid[3] = 0.12;
  st->tick_size = 10;
  st->label_size = 10;
  st->x_ticks = 6;
  st->y_ticks = 5;
  st->tick_len = 0;
  st->tick_gap = 4;
  st->xlabel_dy = 18;
  st->ylabel_dx = left - 12;
  st->ylabel_valign = 0.5;
  st->snap = TRUE;
  st->point_size = 3;
  st->line_scale = 0.7;
}

static void
pad_range (double *lo,
           double *hi)
{
  double d;

  if (*lo > *hi)
    {
      *lo = 0;
      *hi = 1;
    }
  d = *hi - *lo;
  if (d <= 0)
    d = MAX (fabs (*lo) * 0.1, 1);
  *lo -= d * 0.05;
  *hi += d * 0.05;
}

/* The hull panel's range: its x axis ends at the data (or the selected
 * range), its y axis at the band and the points near it
 * (sl_plot_hull_y_range(), as --plots): the others are drawn at the edge
 * and counted. */
static void
hull_bounds (const SlPlotData *p,
             double            rx0,
             double            rx1,
             double           *x0,
             double           *x1,
             double           *y0,
             double           *y1)
{
  if (isfinite (rx0) && isfinite (rx1) && rx1 > rx0)
    {
      *x0 = rx0;
      *x1 = rx1;
    }
  else
    {
      *x0 = 0;
      *x1 = MAX (p->x_end, 1e-9);
    }
  sl_plot_hull_y_range (p, *x0, *x1, y0, y1);
}

static void
draw_line (cairo_t           *cr,
           const SlPlotPanel *f,
           double             x0,
           double             ya,
           double             x1,
           double             yb)
{
  cairo_move_to (cr, sl_plot_panel_x (f, x0), sl_plot_panel_y (f, ya));
  cairo_line_to (cr, sl_plot_panel_x (f, x1), sl_plot_panel_y (f, yb));
  cairo_stroke (cr);
}

/* How many points are beyond the y range, and how far: the axis ends at
 * the band, not at a packet retransmitted 200 ms late, yet none is
 * hidden. @texts[side] is NULL for none. */
static void
beyond_texts (const SlPlotBeyond *beyond,
              char               *texts[2])
{
  for (guint side = 0; side < 2; side++)
    {
      g_autofree char *far = NULL;
      guint n = beyond->n[side];

      texts[side] = NULL;
      if (n == 0)
        continue;
      far = sl_units_offset (beyond->far[side] * 1e3);
      if (beyond->thinned)
        texts[side] = side == 0
          /* Translators: points of the hull plot above its y axis' end, of those drawn (thinned out from more); %s is an offset ("+212.4 ms") */
          ? g_strdup_printf (ngettext ("▲ at least %u point above, up to %s", "▲ at least %u points above, up to %s", n), n, far)
          /* Translators: as above, below its y axis' start */
          : g_strdup_printf (ngettext ("▼ at least %u point below, down to %s", "▼ at least %u points below, down to %s", n), n, far);
      else
        texts[side] = side == 0
          /* Translators: points of the hull plot above its y axis' end; %s is an offset ("+212.4 ms") */
          ? g_strdup_printf (ngettext ("▲ %u point above, up to %s", "▲ %u points above, up to %s", n), n, far)
          /* Translators: points of the hull plot below its y axis' start; %s is an offset ("−199.8 ms") */
          : g_strdup_printf (ngettext ("▼ %u point below, down to %s", "▼ %u points below, down to %s", n), n, far);
    }
}

/* Outside the frame, top to bottom: the legend in rows, the count of the
 * points above the y range; under the x axis' label the count below. The
 * frame holds data only. */
static void
draw_hull (SlLinkPlot    *self,
           cairo_t       *cr,
           int            width,
           int            height,
           const GdkRGBA *fg)
{
  const SlPlotData *p = self->plot;
  SlPlotPanel *f = &self->frame;
  SlPlotStyle st;
  SlPlotLegendItem items[SL_PLOT_MAX_LEGEND];
  guint n_items = sl_plot_legend_items (p, self->a_name ? self->a_name : "a",
                                        self->b_name ? self->b_name : "b", items);
  guint rows;
  char *counts[2];
  gboolean beside;
  g_autofree char *ylabel = NULL;
  g_autofree char *xlabel = NULL;

  if (!self->zoomed)
    hull_bounds (p, self->range_x0, self->range_x1, &self->vx0, &self->vx1, &self->vy0, &self->vy1);
  f->xmin = self->vx0;
  f->xmax = self->vx1;
  f->ymin = self->vy0;
  f->ymax = self->vy1;
  f->log_y = FALSE;
  sl_plot_count_beyond (p, f->xmin, f->xmax, f->ymin, f->ymax, &self->beyond);
  beyond_texts (&self->beyond, counts);

  cairo_set_font_size (cr, 10);
  rows = sl_plot_legend_fit_rows (cr, items, n_items, width - 64);
  f->left = 64;
  f->top = 10 + 15 * rows + (counts[0] != NULL ? 14 : 0);
  f->right = width - 10;
  widget_style (&st, fg, f->left);
  /* Translators: axis label; %s is a host name */
  xlabel = g_strdup_printf (_("%s's time (s after the first packet)"), self->a_name ? self->a_name : "a");
  beside = sl_plot_count_fits_beside (cr, f, &st, xlabel, counts[1]);
  f->bottom = height - 36 - (beside ? 0 : 14);
  self->texts.n = 0;
  if (f->right > f->left + 10 && f->bottom > f->top + 10)
    {
      ylabel = p->n_windows > 1
        ? g_strdup_printf (_("t_%s − t_%s (µs, relative to the estimate there)"), self->b_name ? self->b_name : "b",
                           self->a_name ? self->a_name : "a")
        : g_strdup_printf (_("t_%s − t_%s (µs, relative)"), self->b_name ? self->b_name : "b",
                           self->a_name ? self->a_name : "a");
      sl_plot_draw_axes (cr, f, &st, xlabel, ylabel);
      sl_plot_draw_hull (cr, p, f, &st);
      sl_plot_draw_beyond (cr, p, f, &st, NULL);
      cairo_set_font_size (cr, 10);
      sl_plot_draw_legend_rows (cr, items, n_items, rows, f->left, 3.5, 15, &st, &self->texts);
      gdk_cairo_set_source_rgba (cr, fg);
      sl_plot_draw_counts (cr, counts, f->right, f->top - 4, f->bottom + st.xlabel_dy + (beside ? 0 : 14),
                           &self->texts);
    }
  for (guint i = 0; i < n_items; i++)
    g_free (items[i].text);
  g_free (counts[0]);
  g_free (counts[1]);
}

static double
band_at (const SlPlotData *p,
         guint             line,
         guint             end)
{
  return p->line_y[line][end] - p->line_y[SL_PLOT_LINE_ESTIMATE][end];
}

/* The band's edge @edge (band_lo or band_hi) at the path's point @i,
 * relative to the estimate there; NAN where the bound is infinite */
static double
path_band_at (const SlPlotData *p,
              const GArray     *edge,
              guint             i)
{
  return g_array_index (edge, SlPlotPoint, i).y - g_array_index (p->path, SlPlotPoint, i).y;
}

/* A link of several windows: the estimate ± its guaranteed bound, piece
 * by piece (its bound is linear between its points), the lower edge in
 * Lmin's colour, the upper in Lmax's, the windows' limits dotted.
 * Returns what is missing, or NULL. */
static const char *
draw_piecewise_band (const SlPlotData  *p,
                     cairo_t           *cr,
                     const SlPlotPanel *f)
{
  double dash[] = { 2, 4 };
  guint finite = 0;

  for (guint i = 0; i + 1 < p->path->len; i++)
    {
      double x0 = g_array_index (p->path, SlPlotPoint, i).x, x1 = g_array_index (p->path, SlPlotPoint, i + 1).x;
      double lo0 = path_band_at (p, p->band_lo, i), lo1 = path_band_at (p, p->band_lo, i + 1);
      double hi0 = path_band_at (p, p->band_hi, i), hi1 = path_band_at (p, p->band_hi, i + 1);

      if (!isfinite (lo0) || !isfinite (lo1) || !isfinite (hi0) || !isfinite (hi1))
        continue;
      finite++;
      cairo_move_to (cr, sl_plot_panel_x (f, x0), sl_plot_panel_y (f, lo0));
      cairo_line_to (cr, sl_plot_panel_x (f, x1), sl_plot_panel_y (f, lo1));
      cairo_line_to (cr, sl_plot_panel_x (f, x1), sl_plot_panel_y (f, hi1));
      cairo_line_to (cr, sl_plot_panel_x (f, x0), sl_plot_panel_y (f, hi0));
      cairo_close_path (cr);
      set_hex (cr, SL_PLOT_RGB_LMAX, 0.18);
      cairo_fill (cr);
      cairo_set_line_width (cr, 1.3);
      set_hex (cr, SL_PLOT_RGB_LMIN, 1);
      draw_line (cr, f, x0, lo0, x1, lo1);
      set_hex (cr, SL_PLOT_RGB_LMAX, 1);
      draw_line (cr, f, x0, hi0, x1, hi1);
    }
  cairo_set_dash (cr, dash, 2, 0);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; p->window_x != NULL && i < p->window_x->len; i++)
    {
      double x = floor (sl_plot_panel_x (f, g_array_index (p->window_x, double, i))) + 0.5;

      cairo_move_to (cr, x, f->top);
      cairo_line_to (cr, x, f->bottom);
    }
  cairo_set_source_rgba (cr, 0.4, 0.4, 0.4, 0.6);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  if (finite == 0)
    return _("no band: no window of this link is accurate yet, so its bound is infinite everywhere");
  return NULL;
}

static void
draw_band (SlLinkPlot    *self,
           cairo_t       *cr,
           int            width,
           int            height,
           const GdkRGBA *fg)
{
  const SlPlotData *p = self->plot;
  SlPlotPanel top = { 0 }, bottom = { 0 };
  SlPlotStyle st;
  double ylo = G_MAXDOUBLE, yhi = -G_MAXDOUBLE, alo = G_MAXDOUBLE, ahi = -G_MAXDOUBLE;
  /* each axis ends where its data does: trace time at the link's last
   * packet, input time at the accuracy's last change */
  double x0 = 0, x1 = MAX (p->x_end, 1e-9), bx0 = G_MAXDOUBLE, bx1 = -G_MAXDOUBLE;
  gboolean has_est = p->has_line[SL_PLOT_LINE_ESTIMATE];
  /* several windows: the band is the estimate's path and its bound */
  gboolean piecewise = p->n_windows > 1 && p->path != NULL && p->path->len > 1;
  const char *missing = NULL;
  double split = height * 0.5;

  for (guint i = 0; i < p->accuracy->len; i++)
    {
      const SlPlotPoint *q = &g_array_index (p->accuracy, SlPlotPoint, i);

      sl_plot_range_extend (&bx0, &bx1, q->x);
      if (isfinite (q->y) && q->y > 0)
        sl_plot_range_extend (&alo, &ahi, log10 (q->y));
    }
  if (bx0 >= bx1)
    {
      /* one change or none: the trace's span, out to that change (a
       * short trace's links are estimated once, at the end of the input,
       * after their last packet: the point fell off the axis) */
      gboolean one = bx0 == bx1;
      double at = bx0;

      bx0 = x0;
      bx1 = x1;
      if (one)
        {
          bx0 = MIN (bx0, at);
          bx1 = MAX (bx1, at);
        }
    }
  if (self->zoomed)
    {
      x0 = bx0 = self->vx0;
      x1 = bx1 = self->vx1;
    }
  else
    {
      self->vx0 = x0;
      self->vx1 = x1;
    }

  top.left = bottom.left = 64;
  top.right = bottom.right = width - 10;
  top.top = 10;
  top.bottom = split - 30;
  bottom.top = split + 6;
  bottom.bottom = height - 36;
  top.xmin = x0;
  top.xmax = x1;
  bottom.xmin = bx0;
  bottom.xmax = bx1;
  if (top.right <= top.left + 10 || top.bottom <= top.top + 10 || bottom.bottom <= bottom.top + 10)
    return;
  widget_style (&st, fg, top.left);

  if (piecewise)
    for (guint i = 0; i < p->path->len; i++)
      {
        sl_plot_range_extend (&ylo, &yhi, path_band_at (p, p->band_lo, i));
        sl_plot_range_extend (&ylo, &yhi, path_band_at (p, p->band_hi, i));
      }
  else
    for (guint k = SL_PLOT_LINE_LMIN; has_est && k <= SL_PLOT_LINE_LMAX; k++)
      if (p->has_line[k])
        {
          sl_plot_range_extend (&ylo, &yhi, band_at (p, k, 0));
          sl_plot_range_extend (&ylo, &yhi, band_at (p, k, 1));
        }
  sl_plot_range_extend (&ylo, &yhi, 0);
  pad_range (&ylo, &yhi);
  top.ymin = ylo;
  top.ymax = yhi;
  self->frame = top;
  sl_plot_draw_axes (cr, &top, &st, _("trace time (s)"), _("band (µs)"));

  cairo_save (cr);
  cairo_rectangle (cr, top.left, top.top, top.right - top.left, top.bottom - top.top);
  cairo_clip (cr);
  if (piecewise)
    missing = draw_piecewise_band (p, cr, &top);
  else
    {
      if (has_est && p->has_line[SL_PLOT_LINE_LMIN] && p->has_line[SL_PLOT_LINE_LMAX])
        {
          cairo_move_to (cr, sl_plot_panel_x (&top, 0), sl_plot_panel_y (&top, band_at (p, SL_PLOT_LINE_LMIN, 0)));
          cairo_line_to (cr, sl_plot_panel_x (&top, p->x_end), sl_plot_panel_y (&top, band_at (p, SL_PLOT_LINE_LMIN, 1)));
          cairo_line_to (cr, sl_plot_panel_x (&top, p->x_end), sl_plot_panel_y (&top, band_at (p, SL_PLOT_LINE_LMAX, 1)));
          cairo_line_to (cr, sl_plot_panel_x (&top, 0), sl_plot_panel_y (&top, band_at (p, SL_PLOT_LINE_LMAX, 0)));
          cairo_close_path (cr);
          set_hex (cr, SL_PLOT_RGB_LMAX, 0.18);
          cairo_fill (cr);
        }
      for (guint k = SL_PLOT_LINE_LMIN; has_est && k <= SL_PLOT_LINE_LMAX; k++)
        if (p->has_line[k])
          {
            cairo_set_line_width (cr, 1.3);
            set_hex (cr, k == SL_PLOT_LINE_LMIN ? SL_PLOT_RGB_LMIN : SL_PLOT_RGB_LMAX, 1);
            draw_line (cr, &top, 0, band_at (p, k, 0), p->x_end, band_at (p, k, 1));
          }
      if (!has_est)
        missing = _("no band yet: the link has no estimate");
      else if (!p->has_line[SL_PLOT_LINE_LMIN] && !p->has_line[SL_PLOT_LINE_LMAX])
        missing = _("no band: neither bounding line (Lmin, Lmax) exists yet");
      else if (!p->has_line[SL_PLOT_LINE_LMIN])
        missing = _("no band: the lower bounding line (Lmin) does not exist yet");
      else if (!p->has_line[SL_PLOT_LINE_LMAX])
        missing = _("no band: the upper bounding line (Lmax) does not exist yet");
    }
  if (has_est || piecewise)
    {
      cairo_set_line_width (cr, 2);
      set_hex (cr, SL_PLOT_RGB_ESTIMATE, 1);
      draw_line (cr, &top, 0, 0, p->x_end, 0);
    }
  cairo_restore (cr);
  if (missing != NULL)
    {
      cairo_set_font_size (cr, 11);
      gdk_cairo_set_source_rgba (cr, fg);
      sl_plot_show_text_at (cr, missing, (top.left + top.right) / 2, (top.top + top.bottom) / 2, 0.5, 0.5);
    }

  bottom.log_y = TRUE;
  if (alo > ahi)
    {
      alo = -2;
      ahi = 2;
    }
  bottom.ymin = floor (alo - 0.1);
  bottom.ymax = ceil (ahi + 0.1);
  if (bottom.ymax <= bottom.ymin)
    bottom.ymax = bottom.ymin + 1;
  sl_plot_draw_axes (cr, &bottom, &st, _("input time (s)"), _("accuracy (ppm)"));
  sl_plot_draw_accuracy (cr, p->accuracy, &bottom, bottom.xmax, &st);
}

static void
sl_link_plot_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  SlLinkPlot *self = SL_LINK_PLOT (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GdkRGBA fg;
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->plot == NULL)
    {
      cairo_set_font_size (cr, 12);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
      sl_plot_show_text_at (cr, _("No data for this link yet"), width / 2.0, height / 2.0, 0.5, 0.5);
    }
  else if (self->kind == SL_LINK_PLOT_HULL)
    draw_hull (self, cr, width, height, &fg);
  else
    draw_band (self, cr, width, height, &fg);
  cairo_destroy (cr);
}

static void
sl_link_plot_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : 160;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 480 : 300;
}

/* Zoom and pan */

static void
zoom_at (SlLinkPlot *self,
         double      factor,
         double      px,
         double      py,
         gboolean    x_only)
{
  const SlPlotPanel *f = &self->frame;
  double fx, fy, cx, cy;

  if (self->plot == NULL || f->right <= f->left || f->bottom <= f->top)
    return;
  fx = CLAMP ((px - f->left) / (f->right - f->left), 0, 1);
  fy = CLAMP ((f->bottom - py) / (f->bottom - f->top), 0, 1);
  cx = self->vx0 + fx * (self->vx1 - self->vx0);
  cy = self->vy0 + fy * (self->vy1 - self->vy0);
  self->vx0 = cx - (cx - self->vx0) / factor;
  self->vx1 = cx + (self->vx1 - cx) / factor;
  if (!x_only && self->kind == SL_LINK_PLOT_HULL)
    {
      self->vy0 = cy - (cy - self->vy0) / factor;
      self->vy1 = cy + (self->vy1 - cy) / factor;
    }
  self->zoomed = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
scroll_cb (SlLinkPlot               *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->plot == NULL)
    return FALSE;
  zoom_at (self, pow (1.2, -dy), self->pointer_x, self->pointer_y, (mods & GDK_SHIFT_MASK) != 0);
  return TRUE;
}

static void
motion_cb (SlLinkPlot               *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

static void
drag_begin_cb (SlLinkPlot     *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  self->drag_vx0 = self->vx0;
  self->drag_vy0 = self->vy0;
}

static void
drag_update_cb (SlLinkPlot     *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  const SlPlotPanel *f = &self->frame;
  double w = self->vx1 - self->vx0, h = self->vy1 - self->vy0;

  if (self->plot == NULL || f->right <= f->left || f->bottom <= f->top)
    return;
  self->vx0 = self->drag_vx0 - dx / (f->right - f->left) * w;
  self->vx1 = self->vx0 + w;
  if (self->kind == SL_LINK_PLOT_HULL)
    {
      self->vy0 = self->drag_vy0 + dy / (f->bottom - f->top) * h;
      self->vy1 = self->vy0 + h;
    }
  self->zoomed = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
click_pressed_cb (SlLinkPlot      *self,
                  int              n_press,
                  double           x,
                  double           y,
                  GtkGestureClick *gesture)
{
  if (n_press == 2)
    gtk_widget_activate_action (GTK_WIDGET (self), "plot.zoom-reset", NULL);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SlLinkPlot *self = SL_LINK_PLOT (widget);
  double cx = (self->frame.left + self->frame.right) / 2, cy = (self->frame.top + self->frame.bottom) / 2;

  if (g_str_equal (action_name, "plot.zoom-in"))
    zoom_at (self, 1.5, cx, cy, FALSE);
  else if (g_str_equal (action_name, "plot.zoom-out"))
    zoom_at (self, 1 / 1.5, cx, cy, FALSE);
  else
    {
      self->zoomed = FALSE;
      gtk_widget_queue_draw (widget);
    }
}

static void
sl_link_plot_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SL_TYPE_LINK_PLOT);

  G_OBJECT_CLASS (sl_link_plot_parent_class)->dispose (object);
}

static void
sl_link_plot_finalize (GObject *object)
{
  SlLinkPlot *self = (SlLinkPlot *) object;

  g_clear_pointer (&self->plot, sl_plot_data_unref);
  g_free (self->a_name);
  g_free (self->b_name);

  G_OBJECT_CLASS (sl_link_plot_parent_class)->finalize (object);
}

static void
sl_link_plot_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SlLinkPlot *self = SL_LINK_PLOT (object);

  switch (prop_id)
    {
    case PROP_PLOT:
      g_value_set_pointer (value, self->plot);
      break;
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_link_plot_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  SlLinkPlot *self = SL_LINK_PLOT (object);

  switch (prop_id)
    {
    case PROP_PLOT:
      sl_link_plot_set_plot (self, g_value_get_pointer (value));
      break;
    case PROP_KIND:
      sl_link_plot_set_kind (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_link_plot_class_init (SlLinkPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_link_plot_dispose;
  object_class->finalize = sl_link_plot_finalize;
  object_class->get_property = sl_link_plot_get_property;
  object_class->set_property = sl_link_plot_set_property;

  widget_class->snapshot = sl_link_plot_snapshot;
  widget_class->measure = sl_link_plot_measure;

  properties[PROP_PLOT] =
    g_param_spec_pointer ("plot", NULL, NULL,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL, SL_TYPE_LINK_PLOT_KIND, SL_LINK_PLOT_HULL,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/syncline/Syncline/ui/sl-link-plot.ui");
  gtk_widget_class_bind_template_callback (widget_class, scroll_cb);
  gtk_widget_class_bind_template_callback (widget_class, motion_cb);
  gtk_widget_class_bind_template_callback (widget_class, drag_begin_cb);
  gtk_widget_class_bind_template_callback (widget_class, drag_update_cb);
  gtk_widget_class_bind_template_callback (widget_class, click_pressed_cb);

  gtk_widget_class_install_action (widget_class, "plot.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "plot.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "plot.zoom-reset", NULL, zoom_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "plot.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "plot.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "plot.zoom-reset", NULL);

  gtk_widget_class_set_css_name (widget_class, "linkplot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sl_link_plot_init (SlLinkPlot *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->range_x0 = self->range_x1 = NAN;
}

SlPlotData *
sl_link_plot_get_plot (SlLinkPlot *self)
{
  g_return_val_if_fail (SL_IS_LINK_PLOT (self), NULL);
  return self->plot;
}

/* A new capture of the same link keeps the zoom; another link resets it. */
void
sl_link_plot_set_plot (SlLinkPlot *self,
                       SlPlotData *plot)
{
  g_return_if_fail (SL_IS_LINK_PLOT (self));

  if (self->plot == plot)
    return;
  if (plot == NULL || self->plot == NULL || plot->link != self->plot->link)
    self->zoomed = FALSE;
  g_clear_pointer (&self->plot, sl_plot_data_unref);
  self->plot = plot != NULL ? sl_plot_data_ref (plot) : NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLOT]);
}

SlLinkPlotKind
sl_link_plot_get_kind (SlLinkPlot *self)
{
  g_return_val_if_fail (SL_IS_LINK_PLOT (self), SL_LINK_PLOT_HULL);
  return self->kind;
}

void
sl_link_plot_set_kind (SlLinkPlot     *self,
                       SlLinkPlotKind  kind)
{
  g_return_if_fail (SL_IS_LINK_PLOT (self));

  if (self->kind == kind)
    return;
  self->kind = kind;
  self->zoomed = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
}

void
sl_link_plot_set_names (SlLinkPlot *self,
                        const char *a,
                        const char *b)
{
  g_return_if_fail (SL_IS_LINK_PLOT (self));

  if (g_strcmp0 (a, self->a_name) == 0 && g_strcmp0 (b, self->b_name) == 0)
    return;
  g_free (self->a_name);
  g_free (self->b_name);
  self->a_name = g_strdup (a);
  self->b_name = g_strdup (b);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
sl_link_plot_get_zoomed (SlLinkPlot *self)
{
  g_return_val_if_fail (SL_IS_LINK_PLOT (self), FALSE);
  return self->zoomed;
}

/* The hull plot shows only [@x0, @x1] (seconds after the plot's first
 * point, a's clock), unless zoomed by hand; NAN for all. */
void
sl_link_plot_set_range (SlLinkPlot *self,
                        double      x0,
                        double      x1)
{
  g_return_if_fail (SL_IS_LINK_PLOT (self));

  if ((self->range_x0 == x0 || (isnan (self->range_x0) && isnan (x0))) &&
      (self->range_x1 == x1 || (isnan (self->range_x1) && isnan (x1))))
    return;
  self->range_x0 = x0;
  self->range_x1 = x1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_link_plot_get_range (SlLinkPlot *self,
                        double     *x0,
                        double     *x1)
{
  g_return_if_fail (SL_IS_LINK_PLOT (self));

  if (x0 != NULL)
    *x0 = self->range_x0;
  if (x1 != NULL)
    *x1 = self->range_x1;
}

/* For the tests: the last frame drawn (widget pixels) and its data
 * ranges. */
/* The hull plot's points beyond its y range, as last drawn */
void
_sl_link_plot_get_beyond (SlLinkPlot   *self,
                          SlPlotBeyond *beyond)
{
  g_return_if_fail (SL_IS_LINK_PLOT (self));

  *beyond = self->beyond;
}

/* The hull plot's legend and counts, as last drawn */
void
_sl_link_plot_get_texts (SlLinkPlot  *self,
                         SlPlotTexts *texts)
{
  g_return_if_fail (SL_IS_LINK_PLOT (self));

  *texts = self->texts;
}

void
_sl_link_plot_get_frame (SlLinkPlot *self,
                         double     *box,
                         double     *range)
{
  g_return_if_fail (SL_IS_LINK_PLOT (self));

  box[0] = self->frame.left;
  box[1] = self->frame.top;
  box[2] = self->frame.right;
  box[3] = self->frame.bottom;
  range[0] = self->frame.xmin;
  range[1] = self->frame.xmax;
  range[2] = self->frame.ymin;
  range[3] = self->frame.ymax;
}
