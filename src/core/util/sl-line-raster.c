/* sl-line-raster.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-line-raster.h"
#include "sl-mask-raster.h"

/* Draw into @pixels, which the caller keeps: @width × @height, ARGB32
 * without row padding (a cairo image surface's data, after a flush). */
void
sl_line_raster_wrap (SlLineRaster *self,
                     guint8       *pixels,
                     int           width,
                     int           height)
{
  g_return_if_fail (self != NULL && pixels != NULL);

  self->width = MAX (width, 1);
  self->height = MAX (height, 1);
  self->pixels = (guint32 *) (gpointer) pixels;
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
  if (!sl_mask_clip (self->width, self->height, &x0, &y0, &x1, &y1))
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

/* A segment @width pixels wide with round caps, antialiased: each pixel
 * near it gets the part of it the segment covers, from its centre's
 * distance to the segment. Cost is the segment's area, clipped to the
 * buffer. */
void
sl_line_raster_thick (SlLineRaster *self,
                      double        x0,
                      double        y0,
                      double        x1,
                      double        y1,
                      double        width,
                      guint32       rgb,
                      double        alpha)
{
  double r = width / 2 + 0.5;
  double dx, dy, len2, lo, hi;
  double a256 = CLAMP (alpha, 0, 1) * 256;
  gboolean steep;
  int ms, me, limit_major, limit_minor;

  g_return_if_fail (self != NULL && self->pixels != NULL);

  if (!isfinite (x0) || !isfinite (y0) || !isfinite (x1) || !isfinite (y1) || !(width > 0) || a256 < 1)
    return;
  /* the part that can touch the buffer, caps included */
  {
    double cx0 = x0, cy0 = y0, cx1 = x1, cy1 = y1;
    double w = self->width + 2 * r, h = self->height + 2 * r;

    cx0 += r; cy0 += r; cx1 += r; cy1 += r;
    if (!sl_mask_clip (w, h, &cx0, &cy0, &cx1, &cy1))
      return;
    x0 = cx0 - r; y0 = cy0 - r; x1 = cx1 - r; y1 = cy1 - r;
  }

  dx = x1 - x0;
  dy = y1 - y0;
  len2 = dx * dx + dy * dy;
  steep = fabs (dy) > fabs (dx);
  /* walk the major axis; on each step the pixels within r of the segment
   * lie within r / cos(angle) of its centre line */
  if (steep)
    {
      lo = MIN (y0, y1) - r;
      hi = MAX (y0, y1) + r;
      limit_major = self->height;
      limit_minor = self->width;
    }
  else
    {
      lo = MIN (x0, x1) - r;
      hi = MAX (x0, x1) + r;
      limit_major = self->width;
      limit_minor = self->height;
    }
  ms = MAX ((int) floor (lo), 0);
  me = MIN ((int) ceil (hi), limit_major - 1);
  for (int m = ms; m <= me; m++)
    {
      double c = m + 0.5, t, centre, half;
      int ns, ne;

      /* the centre line at this step, held at the ends for the caps */
      if (steep)
        {
          t = dy != 0 ? (c - y0) / dy : 0;
          t = CLAMP (t, 0, 1);
          centre = x0 + t * dx;
          half = len2 > 0 ? r * sqrt (len2) / fabs (dy) : r;
        }
      else
        {
          t = dx != 0 ? (c - x0) / dx : 0;
          t = CLAMP (t, 0, 1);
          centre = y0 + t * dy;
          half = len2 > 0 ? r * sqrt (len2) / MAX (fabs (dx), 1e-9) : r;
        }
      ns = MAX ((int) floor (centre - half), 0);
      ne = MIN ((int) ceil (centre + half), limit_minor - 1);
      for (int n = ns; n <= ne; n++)
        {
          double px = steep ? n + 0.5 : c, py = steep ? c : n + 0.5;
          double u = len2 > 0 ? ((px - x0) * dx + (py - y0) * dy) / len2 : 0;
          double qx, qy, d, cover;

          u = CLAMP (u, 0, 1);
          qx = x0 + u * dx - px;
          qy = y0 + u * dy - py;
          d = sqrt (qx * qx + qy * qy);
          cover = r - d;
          if (cover <= 0)
            continue;
          if (cover > 1)
            cover = 1;
          if (steep)
            blend (self, n, m, rgb, (guint) (a256 * cover));
          else
            blend (self, m, n, rgb, (guint) (a256 * cover));
        }
    }
}

/* Draws @src (premultiplied ARGB32, @width × @height, @stride bytes a
 * row) over the buffer with its top left corner at (@x, @y). */
void
sl_line_raster_blit (SlLineRaster  *self,
                     const guint8  *src,
                     int            width,
                     int            height,
                     int            stride,
                     int            x,
                     int            y)
{
  int x0 = MAX (x, 0), y0 = MAX (y, 0);
  int x1 = MIN (x + width, self->width), y1 = MIN (y + height, self->height);

  g_return_if_fail (self != NULL && self->pixels != NULL && src != NULL);

  for (int j = y0; j < y1; j++)
    {
      const guint32 *s = (const guint32 *) (gconstpointer) (src + (gsize) (j - y) * stride) + (x0 - x);
      guint32 *d = &self->pixels[(gsize) j * self->width + x0];

      for (int i = x0; i < x1; i++, s++, d++)
        {
          guint32 sp = *s, dp = *d;
          guint inv = 255 - (sp >> 24);

          if (inv == 255)
            continue;
          if (inv == 0)
            {
              *d = sp;
              continue;
            }
          /* premultiplied source over: d = s + d × (1 − αs) */
          *d = ((((dp >> 24) & 0xff) * inv / 255 + (sp >> 24)) << 24) |
               ((((dp >> 16) & 0xff) * inv / 255 + ((sp >> 16) & 0xff)) << 16) |
               ((((dp >> 8) & 0xff) * inv / 255 + ((sp >> 8) & 0xff)) << 8) |
               ((dp & 0xff) * inv / 255 + (sp & 0xff));
        }
    }
}
