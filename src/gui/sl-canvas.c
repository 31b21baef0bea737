/* sl-canvas.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-canvas.h"

struct _SlCanvas
{
  cairo_surface_t *surface;
  int              width;
  int              height;
  int              scale;
  gboolean         drawing;
};

SlCanvas *
sl_canvas_new (void)
{
  return g_new0 (SlCanvas, 1);
}

void
sl_canvas_free (SlCanvas *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->surface, cairo_surface_destroy);
  g_free (self);
}

/* The cleared picture, @width × @height widget pixels at @scale, to draw
 * on (with cairo, or by hand between a flush and a mark_dirty) until
 * sl_canvas_end(). */
cairo_surface_t *
sl_canvas_begin (SlCanvas *self,
                 int       width,
                 int       height,
                 int       scale)
{
  g_return_val_if_fail (self != NULL && !self->drawing, NULL);

  width = MAX (width, 1);
  height = MAX (height, 1);
  scale = MAX (scale, 1);
  if (self->surface == NULL || width != self->width || height != self->height || scale != self->scale)
    {
      g_clear_pointer (&self->surface, cairo_surface_destroy);
      self->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
      cairo_surface_set_device_scale (self->surface, scale, scale);
      self->width = width;
      self->height = height;
      self->scale = scale;
    }
  else
    {
      /* The previous frame's node still shows this surface: flushing
       * gives it its own copy before the pixels change. */
      cairo_surface_flush (self->surface);
      memset (cairo_image_surface_get_data (self->surface), 0,
              (gsize) cairo_image_surface_get_stride (self->surface) * self->height * self->scale);
      cairo_surface_mark_dirty (self->surface);
    }
  self->drawing = TRUE;
  return self->surface;
}

/* Appends the picture, covering the widget, as one cairo node. */
void
sl_canvas_end (SlCanvas    *self,
               GtkSnapshot *snapshot)
{
  cairo_t *cr;

  g_return_if_fail (self != NULL && self->drawing);

  self->drawing = FALSE;
  cairo_surface_flush (self->surface);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, self->width, self->height));
  cairo_set_source_surface (cr, self->surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
}
