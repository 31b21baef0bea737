/* sl-timeline-view-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The canvas's text: row labels (cached), the ruler, the legend, and
 * why there is nothing to show.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-timeline-view-private.h"

void
_sl_timeline_view_get_fg (GtkWidget *widget,
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

/* The session's item of the timeline's host @host, or NULL. */
static SlHostItem *
host_item (SlTimelineView *self,
           guint           host)
{
  if (!self->from_session || self->session == NULL || host >= sl_session_get_n_hosts (self->session))
    return NULL;
  return sl_session_get_host_item (self->session, host);
}

/* A hash of which hosts are not synchronized: their headers say so. */
static guint
unsynchronized_hash (SlTimelineView *self)
{
  guint hash = 0;

  for (guint h = 0; self->timeline != NULL && h < sl_timeline_get_n_hosts (self->timeline); h++)
    {
      SlHostItem *item = host_item (self, h);

      if (item != NULL && sl_host_item_get_unsynchronized (item))
        hash = hash * 31 + h + 1 + (sl_host_item_get_info (item)->best_effort ? 0x10000 : 0);
    }
  return hash;
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
      {
        SlHostItem *item = host_item (self, v->host);

        if (item != NULL)
          return sl_host_item_dup_label (item);
        return g_strdup (ri->name != NULL ? ri->name : "?");
      }
    case SL_TIMELINE_ROW_CPU:
      return g_strdup_printf (_("CPU %u"), ri->cpu);
    case SL_TIMELINE_ROW_PROCESS:
      return g_strdup_printf ("%s [%u]", ri->name != NULL ? ri->name : "?", ri->tid);
    default:
      return g_strdup_printf ("%s (%u)", ri->name != NULL ? ri->name : "?", ri->tid);
    }
}

/* For the tests: the header of @host's rows as drawn. */
char *
_sl_timeline_view_dup_host_label (SlTimelineView *self,
                                  guint           host)
{
  SlTlvRow v = { .host = host, .kind = SL_TIMELINE_ROW_HOST };
  SlTimelineRowInfo ri;

  g_return_val_if_fail (self->timeline != NULL, NULL);
  v.row = sl_timeline_get_host_row (self->timeline, host);
  sl_timeline_get_row_info (self->timeline, v.row, &ri);
  return row_label (self, &v, &ri);
}

/* For the tests: the label of the @n-th line of rows drawn whole in the
 * labels' column (under no pinned line or sticky header), where its text
 * is placed (x, and y of its middle, in the canvas) and whether it is
 * bold; NULL past the last. */
char *
_sl_timeline_view_dup_drawn_label (SlTimelineView *self,
                                   guint           n,
                                   double         *x,
                                   double         *yc,
                                   gboolean       *bold)
{
  int scroll = (int) gtk_adjustment_get_value (self->vadj), top = self->pinned_h, sticky_y;
  guint sticky, found = 0;
  g_autoptr(GArray) lines = NULL;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  if (self->timeline == NULL)
    return NULL;
  if (_sl_timeline_view_sticky_header (self, scroll, &sticky, &sticky_y))
    top = MAX (top, sticky_y + g_array_index (self->vis, SlTlvRow, sticky).h);
  lines = _sl_timeline_view_lines_on_screen (self, scroll);
  for (guint li = 0; li < lines->len; li++)
    {
      const SlTlvRow *v = &g_array_index (self->vis, SlTlvRow, g_array_index (lines, guint, li));
      int y0 = _sl_tlv_screen_y (self, v, scroll);
      SlTimelineRowInfo ri;

      if (v->pinned || y0 < top || y0 + v->h > self->rows_h || found++ < n)
        continue;
      sl_timeline_get_row_info (self->timeline, v->row, &ri);
      *x = 8 + v->depth * 14 + 14;
      *yc = SL_TLV_RULER_H + y0 + v->h / 2.0;
      *bold = v->kind == SL_TIMELINE_ROW_HOST;
      return row_label (self, v, &ri);
    }
  return NULL;
}

void
_sl_timeline_view_ensure_labels (SlTimelineView *self,
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
  guint sel, sticky = SL_TIMELINE_NONE, unsynchronized;
  int sticky_y = 0;

  memset (&key, 0, sizeof key);
  key.height = h;
  key.scroll = scroll;
  key.width = scale;
  key.layout_version = self->layout_version;
  key.data_version = self->data_version;
  unsynchronized = unsynchronized_hash (self);
  if (self->labels_surface != NULL && _sl_timeline_view_key_equal (&key, &self->labels_key) &&
      self->labels_sel == self->selected_row && self->labels_unsynchronized == unsynchronized)
    return;
  g_clear_pointer (&self->labels_surface, cairo_surface_destroy);
  if (h <= 0 || self->timeline == NULL)
    return;

  _sl_timeline_view_get_fg (canvas, &fg);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, SL_TLV_LABEL_W * scale, h * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  layout = gtk_widget_create_pango_layout (canvas, NULL);
  pango_layout_set_width (layout, (SL_TLV_LABEL_W - 40) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  bold = pango_font_description_copy (pango_context_get_font_description (pango_layout_get_context (layout)));
  pango_font_description_set_weight (bold, PANGO_WEIGHT_BOLD);

  lines = _sl_timeline_view_lines_on_screen (self, scroll);
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
          _sl_timeline_view_set_hex (cr, 0x9a9996, 0.12);
          cairo_rectangle (cr, 0, y0, SL_TLV_LABEL_W, v->h);
          cairo_fill (cr);
        }
      if (i == sel)
        {
          _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.25);
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
      /* (a host on its own clock: dimmed, as in the graph) */
      if (v->kind == SL_TIMELINE_ROW_CPU || (ri.kind == SL_TIMELINE_ROW_THREAD && ri.n_intervals == 0) ||
          (v->kind == SL_TIMELINE_ROW_HOST && host_item (self, v->host) != NULL &&
           sl_host_item_get_unsynchronized (host_item (self, v->host))))
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
  self->labels_unsynchronized = unsynchronized;
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
PangoLayout *
_sl_timeline_view_ruler_layout (SlTimelineView *self,
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

void
_sl_timeline_view_show_cached (cairo_t     *cr,
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

void
_sl_timeline_view_draw_ruler (SlTimelineView *self,
                              GtkWidget      *canvas,
                              cairo_t        *cr,
                              const GdkRGBA  *fg)
{
  gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
  gint64 step, first;
  SlTimeSpan sel = _sl_timeline_view_selection (self);
  int decimals = _sl_timeline_view_ruler_step (self->px_ns, &step);
  g_autofree char *label = NULL;

  cairo_save (cr);
  cairo_rectangle (cr, SL_TLV_LABEL_W, 0, self->plot_w, SL_TLV_RULER_H);
  cairo_clip (cr);
  if (!sl_time_span_is_empty (sel))
    {
      double x0 = sl_timeline_view_time_to_x (self, sel.begin), x1 = sl_timeline_view_time_to_x (self, sel.end);

      _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_SELECTION, 0.35);
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
      PangoLayout *layout;
      int lw;

      cairo_move_to (cr, floor (x) + 0.5, SL_TLV_RULER_H - 8);
      cairo_line_to (cr, floor (x) + 0.5, SL_TLV_RULER_H);
      for (int k = 1; k < 5; k++)
        {
          double xm = x + k * (double) step / 5 / self->px_ns;

          cairo_move_to (cr, floor (xm) + 0.5, SL_TLV_RULER_H - 3);
          cairo_line_to (cr, floor (xm) + 0.5, SL_TLV_RULER_H);
        }
      text = sl_format_clock_time (t, decimals);
      layout = _sl_timeline_view_ruler_layout (self, canvas, text);
      pango_layout_get_pixel_size (layout, &lw, NULL);
      /* a time whose label the clip would cut is not labelled (")0.5"
       * read as a time) */
      if (x + 3 >= SL_TLV_LABEL_W && x + 3 + lw <= SL_TLV_LABEL_W + self->plot_w)
        _sl_timeline_view_show_cached (cr, layout, x + 3, 3, 0);
    }
  cairo_stroke (cr);
  cairo_restore (cr);

  /* the span, in the corner above the labels */
  label = sl_format_ns ((double) (end - start));
  gdk_cairo_set_source_rgba (cr, &(GdkRGBA) { fg->red, fg->green, fg->blue, fg->alpha * 0.7f });
  /* (two lines in the ruler's height: the span's digits below the clock's
   * name, not under its descenders) */
  _sl_timeline_view_show_cached (cr, _sl_timeline_view_ruler_layout (self, canvas, self->synchronized ? _("reference clock") : _("each host's own clock")),
                                 8, 0, 0);
  _sl_timeline_view_show_cached (cr, _sl_timeline_view_ruler_layout (self, canvas, label), 8, SL_TLV_RULER_H, 1);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.25);
  cairo_rectangle (cr, 0, SL_TLV_RULER_H - 1, SL_TLV_LABEL_W + self->plot_w, 1);
  cairo_fill (cr);
}

void
_sl_timeline_view_ensure_legend (SlTimelineView *self,
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
  _sl_timeline_view_get_fg (canvas, &fg);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * scale, SL_TLV_LEGEND_H * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  layout = gtk_widget_create_pango_layout (canvas, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
    {
      _sl_timeline_view_set_hex (cr, sl_timeline_view_state_rgb (shown[i]), 1);
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
  _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_ARROW, 1);
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
  _sl_timeline_view_set_hex (cr, SL_TIMELINE_RGB_UNCERTAIN, 1);
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
void
_sl_timeline_view_draw_placeholder (SlTimelineView *self,
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
  _sl_timeline_view_get_fg (self->canvas, &fg);
  layout = gtk_widget_create_pango_layout (self->canvas, text);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.6);
  cairo_move_to (cr, (width - lw) / 2.0, (height - lh) / 2.0);
  pango_cairo_show_layout (cr, layout);
  cairo_destroy (cr);
  g_object_unref (layout);
}
