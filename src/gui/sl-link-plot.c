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

typedef struct
{
  double left;
  double top;
  double right;
  double bottom;
  double x0;
  double x1;
  double y0;
  double y1;
  gboolean log_y;
} Frame;

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
  Frame           frame;
  /* a time range selected elsewhere (x units), NAN for none */
  double          range_x0;
  double          range_x1;
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

static double
frame_x (const Frame *f,
         double       x)
{
  return f->left + (x - f->x0) / (f->x1 - f->x0) * (f->right - f->left);
}

static double
frame_y (const Frame *f,
         double       y)
{
  if (f->log_y)
    y = y > 0 ? log10 (y) : f->y0;
  return f->bottom - (y - f->y0) / (f->y1 - f->y0) * (f->bottom - f->top);
}

static void
draw_axes (cairo_t     *cr,
           const Frame *f,
           const GdkRGBA *fg,
           const char  *xlabel,
           const char  *ylabel)
{
  double step;
  char buf[64];

  cairo_save (cr);
  cairo_set_font_size (cr, 10);
  cairo_set_line_width (cr, 1);

  step = sl_plot_nice_step (f->x1 - f->x0, 6);
  for (double x = ceil (f->x0 / step) * step; x <= f->x1 + step * 1e-9; x += step)
    {
      double px = round (frame_x (f, x)) + 0.5;

      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.12);
      cairo_move_to (cr, px, f->top);
      cairo_line_to (cr, px, f->bottom);
      cairo_stroke (cr);
      gdk_cairo_set_source_rgba (cr, fg);
      g_snprintf (buf, sizeof buf, "%g", fabs (x) < step * 1e-6 ? 0.0 : x);
      sl_plot_show_text_at (cr, buf, px, f->bottom + 4, 0.5, 0);
    }

  step = f->log_y ? 1 : sl_plot_nice_step (f->y1 - f->y0, 5);
  for (double y = ceil (f->y0 / step) * step; y <= f->y1 + step * 1e-9; y += step)
    {
      double v = f->log_y ? pow (10, y) : (fabs (y) < step * 1e-6 ? 0.0 : y);
      double py = round (frame_y (f, v)) + 0.5;

      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.12);
      cairo_move_to (cr, f->left, py);
      cairo_line_to (cr, f->right, py);
      cairo_stroke (cr);
      gdk_cairo_set_source_rgba (cr, fg);
      g_snprintf (buf, sizeof buf, "%g", v);
      sl_plot_show_text_at (cr, buf, f->left - 4, py, 1, 0.5);
    }

  gdk_cairo_set_source_rgba (cr, fg);
  cairo_rectangle (cr, f->left + 0.5, f->top + 0.5, f->right - f->left, f->bottom - f->top);
  cairo_stroke (cr);
  sl_plot_show_text_at (cr, xlabel, (f->left + f->right) / 2, f->bottom + 18, 0.5, 0);
  cairo_save (cr);
  cairo_translate (cr, 12, (f->top + f->bottom) / 2);
  cairo_rotate (cr, -G_PI / 2);
  sl_plot_show_text_at (cr, ylabel, 0, 0, 0.5, 0.5);
  cairo_restore (cr);
  cairo_restore (cr);
}

static void
extend (double *lo,
        double *hi,
        double  v)
{
  if (!isfinite (v))
    return;
  *lo = MIN (*lo, v);
  *hi = MAX (*hi, v);
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

/* Data bounds of the hull panel. */
static void
hull_bounds (const SlPlotData *p,
             double           *x0,
             double           *x1,
             double           *y0,
             double           *y1)
{
  *x0 = 0;
  *x1 = MAX (p->x_end, 1e-9);
  *y0 = G_MAXDOUBLE;
  *y1 = -G_MAXDOUBLE;
  for (guint d = 0; d < 2; d++)
    {
      for (guint i = 0; i < p->points[d]->len; i++)
        extend (y0, y1, g_array_index (p->points[d], SlPlotPoint, i).y);
      for (guint i = 0; i < p->hull[d]->len; i++)
        extend (y0, y1, g_array_index (p->hull[d], SlPlotPoint, i).y);
    }
  if (p->has_line[SL_PLOT_LINE_ESTIMATE])
    {
      extend (y0, y1, p->line_y[SL_PLOT_LINE_ESTIMATE][0]);
      extend (y0, y1, p->line_y[SL_PLOT_LINE_ESTIMATE][1]);
    }
  pad_range (y0, y1);
}

/* The selected range only: the points and hull vertices in it fix the y
 * range. */
static void
range_bounds (const SlPlotData *p,
              double            rx0,
              double            rx1,
              double           *x0,
              double           *x1,
              double           *y0,
              double           *y1)
{
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;

  for (guint d = 0; d < 2; d++)
    {
      for (guint i = 0; i < p->points[d]->len; i++)
        {
          const SlPlotPoint *q = &g_array_index (p->points[d], SlPlotPoint, i);

          if (q->x >= rx0 && q->x <= rx1)
            extend (&lo, &hi, q->y);
        }
      for (guint i = 0; i < p->hull[d]->len; i++)
        {
          const SlPlotPoint *q = &g_array_index (p->hull[d], SlPlotPoint, i);

          if (q->x >= rx0 && q->x <= rx1)
            extend (&lo, &hi, q->y);
        }
    }
  if (lo > hi)
    return;
  pad_range (&lo, &hi);
  *x0 = rx0;
  *x1 = rx1;
  *y0 = lo;
  *y1 = hi;
}

static void
draw_line (cairo_t     *cr,
           const Frame *f,
           double       x0,
           double       ya,
           double       x1,
           double       yb)
{
  cairo_move_to (cr, frame_x (f, x0), frame_y (f, ya));
  cairo_line_to (cr, frame_x (f, x1), frame_y (f, yb));
  cairo_stroke (cr);
}

static void
legend_entry (cairo_t       *cr,
              double         x,
              double         y,
              guint32        rgb,
              gboolean       dot,
              const char    *text,
              const GdkRGBA *fg)
{
  set_hex (cr, rgb, 1);
  if (dot)
    cairo_rectangle (cr, x, y - 4, 4, 4);
  else
    {
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x - 4, y - 2);
      cairo_line_to (cr, x + 8, y - 2);
      cairo_stroke (cr);
    }
  cairo_fill (cr);
  gdk_cairo_set_source_rgba (cr, fg);
  cairo_move_to (cr, x + 12, y);
  cairo_show_text (cr, text);
}

static void
draw_hull (SlLinkPlot    *self,
           cairo_t       *cr,
           int            width,
           int            height,
           const GdkRGBA *fg)
{
  const SlPlotData *p = self->plot;
  Frame *f = &self->frame;
  static const guint32 pts_rgb[2] = { SL_LINK_PLOT_RGB_AB, SL_LINK_PLOT_RGB_BA };
  static const guint32 hull_rgb[2] = { SL_LINK_PLOT_RGB_HULL_AB, SL_LINK_PLOT_RGB_HULL_BA };
  static const guint32 line_rgb[SL_PLOT_N_LINES] = {
    SL_LINK_PLOT_RGB_LMIN, SL_LINK_PLOT_RGB_LMAX, SL_LINK_PLOT_RGB_ESTIMATE
  };
  g_autofree char *ylabel = NULL;
  g_autofree char *xlabel = NULL;
  g_autofree char *ab = NULL;
  g_autofree char *ba = NULL;

  /* the legend above the frame: inside it, it hid points */
  f->left = 64;
  f->top = 40;
  f->right = width - 10;
  f->bottom = height - 36;
  f->log_y = FALSE;
  if (!self->zoomed)
    {
      hull_bounds (p, &self->vx0, &self->vx1, &self->vy0, &self->vy1);
      if (isfinite (self->range_x0) && isfinite (self->range_x1) && self->range_x1 > self->range_x0)
        range_bounds (p, self->range_x0, self->range_x1, &self->vx0, &self->vx1, &self->vy0, &self->vy1);
    }
  f->x0 = self->vx0;
  f->x1 = self->vx1;
  f->y0 = self->vy0;
  f->y1 = self->vy1;
  if (f->right <= f->left + 10 || f->bottom <= f->top + 10)
    return;

  /* Translators: axis label; %s is a host name */
  xlabel = g_strdup_printf (_("%s's time (s after the first packet)"), self->a_name ? self->a_name : "a");
  ylabel = g_strdup_printf (_("t_%s − t_%s (µs, relative)"), self->b_name ? self->b_name : "b",
                            self->a_name ? self->a_name : "a");
  draw_axes (cr, f, fg, xlabel, ylabel);

  cairo_save (cr);
  cairo_rectangle (cr, f->left, f->top, f->right - f->left, f->bottom - f->top);
  cairo_clip (cr);

  for (guint d = 0; d < 2; d++)
    {
      for (guint i = 0; i < p->points[d]->len; i++)
        {
          const SlPlotPoint *q = &g_array_index (p->points[d], SlPlotPoint, i);
          double px = frame_x (f, q->x), py = frame_y (f, q->y);

          if (px < f->left - 2 || px > f->right + 2 || py < f->top - 2 || py > f->bottom + 2)
            continue;
          cairo_rectangle (cr, px - 1.5, py - 1.5, 3, 3);
        }
      set_hex (cr, pts_rgb[d], 0.8);
      cairo_fill (cr);
    }

  cairo_set_line_width (cr, 1.5);
  for (guint d = 0; d < 2; d++)
    {
      for (guint i = 0; i < p->hull[d]->len; i++)
        {
          const SlPlotPoint *q = &g_array_index (p->hull[d], SlPlotPoint, i);

          if (i == 0)
            cairo_move_to (cr, frame_x (f, q->x), frame_y (f, q->y));
          else
            cairo_line_to (cr, frame_x (f, q->x), frame_y (f, q->y));
        }
      set_hex (cr, hull_rgb[d], 1);
      cairo_stroke (cr);
    }

  for (guint k = 0; k < SL_PLOT_N_LINES; k++)
    if (p->has_line[k])
      {
        cairo_set_line_width (cr, k == SL_PLOT_LINE_ESTIMATE ? 2 : 1.3);
        set_hex (cr, line_rgb[k], 1);
        draw_line (cr, f, 0, p->line_y[k][0], p->x_end, p->line_y[k][1]);
      }
  cairo_restore (cr);

  cairo_set_font_size (cr, 10);
  ab = g_strdup_printf (_("sent by %s"), self->a_name ? self->a_name : "a");
  ba = g_strdup_printf (_("sent by %s"), self->b_name ? self->b_name : "b");
  legend_entry (cr, f->left + 10, 14, SL_LINK_PLOT_RGB_AB, TRUE, ab, fg);
  legend_entry (cr, f->left + 10, 28, SL_LINK_PLOT_RGB_BA, TRUE, ba, fg);
  legend_entry (cr, f->left + 150, 14, SL_LINK_PLOT_RGB_LMIN, FALSE, "Lmin", fg);
  legend_entry (cr, f->left + 150, 28, SL_LINK_PLOT_RGB_LMAX, FALSE, "Lmax", fg);
  legend_entry (cr, f->left + 220, 14, SL_LINK_PLOT_RGB_ESTIMATE, FALSE, _("estimate"), fg);
  legend_entry (cr, f->left + 220, 28, SL_LINK_PLOT_RGB_HULL_AB, FALSE, _("hulls"), fg);
}

static double
band_at (const SlPlotData *p,
         guint             line,
         guint             end)
{
  return p->line_y[line][end] - p->line_y[SL_PLOT_LINE_ESTIMATE][end];
}

/* A step line: each accuracy holds until the next change, the last to
 * the frame's right edge; no line where there is none. */
static void
draw_accuracy_steps (cairo_t      *cr,
                     const Frame  *f,
                     const GArray *accuracy)
{
  gboolean pen = FALSE;
  double cx, cy;

  for (guint i = 0; i < accuracy->len; i++)
    {
      const SlPlotPoint *q = &g_array_index (accuracy, SlPlotPoint, i);
      double px = frame_x (f, q->x);

      if (!isfinite (q->y) || q->y <= 0)
        {
          pen = FALSE;
          continue;
        }
      if (pen)
        {
          cairo_get_current_point (cr, &cx, &cy);
          cairo_line_to (cr, px, cy);
        }
      else
        cairo_move_to (cr, px, frame_y (f, q->y));
      cairo_line_to (cr, px, frame_y (f, q->y));
      pen = TRUE;
    }
  if (pen)
    {
      cairo_get_current_point (cr, &cx, &cy);
      cairo_line_to (cr, f->right, cy);
    }
  cairo_stroke (cr);
}

static void
draw_band (SlLinkPlot    *self,
           cairo_t       *cr,
           int            width,
           int            height,
           const GdkRGBA *fg)
{
  const SlPlotData *p = self->plot;
  Frame top = { 0 }, bottom = { 0 };
  double ylo = G_MAXDOUBLE, yhi = -G_MAXDOUBLE, alo = G_MAXDOUBLE, ahi = -G_MAXDOUBLE;
  /* each axis ends where its data does: trace time at the link's last
   * packet, input time at the accuracy's last change */
  double x0 = 0, x1 = MAX (p->x_end, 1e-9), bx0 = G_MAXDOUBLE, bx1 = -G_MAXDOUBLE;
  gboolean has_est = p->has_line[SL_PLOT_LINE_ESTIMATE];
  double split = height * 0.5;

  for (guint i = 0; i < p->accuracy->len; i++)
    {
      const SlPlotPoint *q = &g_array_index (p->accuracy, SlPlotPoint, i);

      extend (&bx0, &bx1, q->x);
      if (isfinite (q->y) && q->y > 0)
        extend (&alo, &ahi, log10 (q->y));
    }
  if (bx0 >= bx1)
    {
      bx0 = x0;
      bx1 = x1;
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
  top.x0 = x0;
  top.x1 = x1;
  bottom.x0 = bx0;
  bottom.x1 = bx1;
  if (top.right <= top.left + 10 || top.bottom <= top.top + 10 || bottom.bottom <= bottom.top + 10)
    return;

  for (guint k = SL_PLOT_LINE_LMIN; has_est && k <= SL_PLOT_LINE_LMAX; k++)
    if (p->has_line[k])
      {
        extend (&ylo, &yhi, band_at (p, k, 0));
        extend (&ylo, &yhi, band_at (p, k, 1));
      }
  extend (&ylo, &yhi, 0);
  pad_range (&ylo, &yhi);
  top.y0 = ylo;
  top.y1 = yhi;
  self->frame = top;
  draw_axes (cr, &top, fg, _("trace time (s)"), _("band (µs)"));

  cairo_save (cr);
  cairo_rectangle (cr, top.left, top.top, top.right - top.left, top.bottom - top.top);
  cairo_clip (cr);
  if (has_est && p->has_line[SL_PLOT_LINE_LMIN] && p->has_line[SL_PLOT_LINE_LMAX])
    {
      cairo_move_to (cr, frame_x (&top, 0), frame_y (&top, band_at (p, SL_PLOT_LINE_LMIN, 0)));
      cairo_line_to (cr, frame_x (&top, p->x_end), frame_y (&top, band_at (p, SL_PLOT_LINE_LMIN, 1)));
      cairo_line_to (cr, frame_x (&top, p->x_end), frame_y (&top, band_at (p, SL_PLOT_LINE_LMAX, 1)));
      cairo_line_to (cr, frame_x (&top, 0), frame_y (&top, band_at (p, SL_PLOT_LINE_LMAX, 0)));
      cairo_close_path (cr);
      set_hex (cr, SL_LINK_PLOT_RGB_LMAX, 0.18);
      cairo_fill (cr);
    }
  for (guint k = SL_PLOT_LINE_LMIN; has_est && k <= SL_PLOT_LINE_LMAX; k++)
    if (p->has_line[k])
      {
        cairo_set_line_width (cr, 1.3);
        set_hex (cr, k == SL_PLOT_LINE_LMIN ? SL_LINK_PLOT_RGB_LMIN : SL_LINK_PLOT_RGB_LMAX, 1);
        draw_line (cr, &top, 0, band_at (p, k, 0), p->x_end, band_at (p, k, 1));
      }
  if (has_est)
    {
      cairo_set_line_width (cr, 2);
      set_hex (cr, SL_LINK_PLOT_RGB_ESTIMATE, 1);
      draw_line (cr, &top, 0, 0, p->x_end, 0);
    }
  cairo_restore (cr);
  if (!has_est || !p->has_line[SL_PLOT_LINE_LMIN] || !p->has_line[SL_PLOT_LINE_LMAX])
    {
      cairo_set_font_size (cr, 11);
      gdk_cairo_set_source_rgba (cr, fg);
      sl_plot_show_text_at (cr, _("no band: a bounding line is missing"), (top.left + top.right) / 2,
               (top.top + top.bottom) / 2, 0.5, 0.5);
    }

  bottom.log_y = TRUE;
  if (alo > ahi)
    {
      alo = -2;
      ahi = 2;
    }
  bottom.y0 = floor (alo - 0.1);
  bottom.y1 = ceil (ahi + 0.1);
  if (bottom.y1 <= bottom.y0)
    bottom.y1 = bottom.y0 + 1;
  draw_axes (cr, &bottom, fg, _("input time (s)"), _("accuracy (ppm)"));

  cairo_save (cr);
  cairo_rectangle (cr, bottom.left, bottom.top, bottom.right - bottom.left, bottom.bottom - bottom.top);
  cairo_clip (cr);
  cairo_set_line_width (cr, 1.5);
  set_hex (cr, SL_LINK_PLOT_RGB_ACCURACY, 1);
  draw_accuracy_steps (cr, &bottom, p->accuracy);
  cairo_restore (cr);
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
  const Frame *f = &self->frame;
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
  const Frame *f = &self->frame;
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

void
sl_link_plot_get_view (SlLinkPlot *self,
                       double     *x0,
                       double     *x1)
{
  g_return_if_fail (SL_IS_LINK_PLOT (self));

  if (x0 != NULL)
    *x0 = self->vx0;
  if (x1 != NULL)
    *x1 = self->vx1;
}

/* For the tests: the last frame drawn (widget pixels) and its data
 * ranges. */
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
  range[0] = self->frame.x0;
  range[1] = self->frame.x1;
  range[2] = self->frame.y0;
  range[3] = self->frame.y1;
}
