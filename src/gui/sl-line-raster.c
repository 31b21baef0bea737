/* sl-line-raster.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-line-raster.h"

void
sl_line_raster_init (SlLineRaster *self,
                     int           width,
                     int           height)
{
  g_return_if_fail (self != NULL);

  self->width = MAX (width, 1);
  self->height = MAX (height, 1);
  self->pixels = g_new0 (guint32, (gsize) self->width * self->height);
}

/* The buffer, for the caller to free (the texture's bytes). */
guint8 *
sl_line_raster_steal (SlLineRaster *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return (guint8 *) g_steal_pointer (&self->pixels);
}

void
sl_line_raster_clear (SlLineRaster *self)
{
  g_return_if_fail (self != NULL);
  g_clear_pointer (&self->pixels, g_free);
}

/* Source over destination, premultiplied; @a is alpha times coverage, 0..256. */
static inline void
blend (SlLineRaster *self,
       int           x,
       int           y,
       guint32       rgb,
       guint         a)
{
  guint32 *p;
  guint32 d;
  guint inv;

  if ((guint) x >= (guint) self->width || (guint) y >= (guint) self->height || a == 0)
    return;
  p = &self->pixels[(gsize) y * self->width + x];
  d = *p;
  inv = 256 - a;
  *p = ((((d >> 24) & 0xff) * inv + 255 * a) >> 8) << 24 |
       ((((d >> 16) & 0xff) * inv + ((rgb >> 16) & 0xff) * a) >> 8) << 16 |
       ((((d >> 8) & 0xff) * inv + ((rgb >> 8) & 0xff) * a) >> 8) << 8 |
       (((d & 0xff) * inv + (rgb & 0xff) * a) >> 8);
}

/* Liang–Barsky against the buffer (one pixel of margin). */
static gboolean
clip (double  w,
      double  h,
      double *x0,
      double *y0,
      double *x1,
      double *y1)
{
  double dx = *x1 - *x0, dy = *y1 - *y0;
  double p[4] = { -dx, dx, -dy, dy };
  double q[4] = { *x0 + 1, w - *x0, *y0 + 1, h - *y0 };
  double u0 = 0, u1 = 1;

  for (int i = 0; i < 4; i++)
    {
      if (p[i] == 0)
        {
          if (q[i] < 0)
            return FALSE;
          continue;
        }
      {
        double u = q[i] / p[i];

        if (p[i] < 0)
          u0 = MAX (u0, u);
        else
          u1 = MIN (u1, u);
      }
    }
  if (u0 > u1)
    return FALSE;
  *x1 = *x0 + u1 * dx;
  *y1 = *y0 + u1 * dy;
  *x0 = *x0 + u0 * dx;
  *y0 = *y0 + u0 * dy;
  return TRUE;
}

/* A line one pixel wide (Wu). @dash_on/@dash_off in pixels along the
 * line; @dash_off 0 draws it solid. */
void
sl_line_raster_line (SlLineRaster *self,
                     double        x0,
                     double        y0,
                     double        x1,
                     double        y1,
                     guint32       rgb,
                     double        alpha,
                     double        dash_on,
                     double        dash_off)
{
  gboolean steep;
  double dx, dy, gradient, step_len, period, along = 0, intery;
  guint a256 = (guint) CLAMP (alpha * 256, 0, 256);
  int xs, xe;

  g_return_if_fail (self != NULL && self->pixels != NULL);

  if (!isfinite (x0) || !isfinite (y0) || !isfinite (x1) || !isfinite (y1))
    return;
  if (!clip (self->width, self->height, &x0, &y0, &x1, &y1))
    return;

  steep = fabs (y1 - y0) > fabs (x1 - x0);
  if (steep)
    {
      double t;
      t = x0; x0 = y0; y0 = t;
      t = x1; x1 = y1; y1 = t;
    }
  if (x0 > x1)
    {
      double t;
      t = x0; x0 = x1; x1 = t;
      t = y0; y0 = y1; y1 = t;
    }
  dx = x1 - x0;
  dy = y1 - y0;
  gradient = dx > 0 ? dy / dx : 1;
  step_len = sqrt (1 + gradient * gradient);
  period = dash_on + dash_off;

  xs = (int) floor (x0 + 0.5);
  xe = (int) floor (x1 + 0.5);
  intery = y0 + gradient * (xs - x0);
  for (int x = xs; x <= xe; x++, intery += gradient)
    {
      int y;
      guint c1, c0;

      if (dash_off > 0)
        {
          gboolean on = along < dash_on;

          along += step_len;
          while (along >= period)
            along -= period;
          if (!on)
            continue;
        }
      y = (int) intery;
      if (intery < y)
        y--;
      c1 = (guint) (a256 * (intery - y));
      c0 = a256 - c1;
      if (steep)
        {
          blend (self, y, x, rgb, c0);
          blend (self, y + 1, x, rgb, c1);
        }
      else
        {
          blend (self, x, y, rgb, c0);
          blend (self, x, y + 1, rgb, c1);
        }
    }
}
