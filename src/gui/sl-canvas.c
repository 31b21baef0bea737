/* sl-canvas.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-canvas.h"

/* A frame's cairo node records a copy-on-write snapshot of the surface it
 * paints, and GTK keeps that node until the next frame is on screen: a
 * surface changed meanwhile is first copied whole (5 MB at 1400 × 900).
 * So each frame draws into a surface no live node shows; two alternate
 * as long as GTK drops a frame's node before the next one's drawing. */
#define N_SURFACES 3

typedef struct
{
  cairo_surface_t *surface;
  /* counts the surfaces made here, so that a node of a dropped one does
   * not free its successor */
  guint            generation;
  /* a node painting this surface is alive */
  gboolean         shown;
} Picture;

struct _SlCanvas
{
  /* shared with the nodes' recordings, which outlive the canvas */
  gatomicrefcount  ref_count;
  Picture          pictures[N_SURFACES];
  guint            current;
  int              width;
  int              height;
  int              scale;
  gboolean         drawing;
  gboolean         freed;
  guint            generation;
  guint            n_copies;
};

typedef struct
{
  SlCanvas *canvas;
  guint     index;
  guint     generation;
} Shown;

static const cairo_user_data_key_t shown_key;

static void
sl_canvas_unref (SlCanvas *self)
{
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  for (guint i = 0; i < N_SURFACES; i++)
    g_clear_pointer (&self->pictures[i].surface, cairo_surface_destroy);
  g_free (self);
}

/* The node's recording is gone, and with it its snapshot of the surface. */
static void
shown_free (gpointer data)
{
  Shown *s = data;

  if (s->canvas->pictures[s->index].generation == s->generation)
    s->canvas->pictures[s->index].shown = FALSE;
  sl_canvas_unref (s->canvas);
  g_free (s);
}

SlCanvas *
sl_canvas_new (void)
{
  SlCanvas *self = g_new0 (SlCanvas, 1);

  g_atomic_ref_count_init (&self->ref_count);
  return self;
}

void
sl_canvas_free (SlCanvas *self)
{
  if (self == NULL)
    return;
  g_return_if_fail (!self->freed);
  self->freed = TRUE;
  sl_canvas_unref (self);
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
  Picture *p = NULL;

  g_return_val_if_fail (self != NULL && !self->drawing, NULL);

  width = MAX (width, 1);
  height = MAX (height, 1);
  scale = MAX (scale, 1);
  if (width != self->width || height != self->height || scale != self->scale)
    {
      /* a node showing an old size keeps its snapshot: dropping the
       * surface makes cairo copy it once, as a resize must */
      for (guint i = 0; i < N_SURFACES; i++)
        {
          g_clear_pointer (&self->pictures[i].surface, cairo_surface_destroy);
          self->pictures[i].shown = FALSE;
        }
      self->width = width;
      self->height = height;
      self->scale = scale;
    }
  /* the least recently drawn one that no node shows (the last frame's
   * node is still alive), a new one only when none is free */
  for (guint pass = 0; pass < 2 && p == NULL; pass++)
    for (guint k = 1; k <= N_SURFACES && p == NULL; k++)
      {
        guint i = (self->current + k) % N_SURFACES;
        Picture *q = &self->pictures[i];

        if (pass == 0 ? q->surface != NULL && !q->shown : q->surface == NULL)
          {
            p = q;
            self->current = i;
          }
      }
  if (p == NULL)
    {
      /* every one shown (nodes kept somewhere): flushing gives the
       * oldest one's node its own copy before the pixels change */
      self->current = (self->current + 1) % N_SURFACES;
      p = &self->pictures[self->current];
      self->n_copies++;
    }
  if (p->surface == NULL)
    {
      p->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
      cairo_surface_set_device_scale (p->surface, scale, scale);
      p->generation = ++self->generation;
    }
  else
    {
      cairo_surface_flush (p->surface);
      memset (cairo_image_surface_get_data (p->surface), 0,
              (gsize) cairo_image_surface_get_stride (p->surface) * height * scale);
      cairo_surface_mark_dirty (p->surface);
    }
  self->drawing = TRUE;
  return p->surface;
}

/* Appends the picture, covering the widget, as one cairo node. */
void
sl_canvas_end (SlCanvas    *self,
               GtkSnapshot *snapshot)
{
  Picture *p;
  Shown *s;
  cairo_t *cr;

  g_return_if_fail (self != NULL && self->drawing);

  self->drawing = FALSE;
  p = &self->pictures[self->current];
  cairo_surface_flush (p->surface);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, self->width, self->height));
  cairo_set_source_surface (cr, p->surface, 0, 0);
  cairo_paint (cr);
  /* told when the node's recording, which holds the snapshot, goes */
  s = g_new (Shown, 1);
  s->canvas = self;
  s->index = self->current;
  s->generation = p->generation;
  g_atomic_ref_count_inc (&self->ref_count);
  if (cairo_surface_set_user_data (cairo_get_target (cr), &shown_key, s, shown_free) == CAIRO_STATUS_SUCCESS)
    p->shown = TRUE;
  else
    shown_free (s);
  cairo_destroy (cr);
}

guint
_sl_canvas_get_n_copies (SlCanvas *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_copies;
}
