/* sl-mask-raster.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each line is walked along its major axis one pixel at a time, with the
 * minor coordinate computed from the start at every step rather than
 * accumulated, so that a band of rows gives exactly the pixels the whole
 * mask would have there: bands can be drawn on different threads.
 * Coverage accumulates as a ∪ b = a + (1 − a) b, the lines of a band in
 * their order, so the result does not depend on the banding either.
 */

#include "config.h"

#include <math.h>

#include "sl-mask-raster.h"

/**
 * sl_mask_clip:
 * @width: the mask's width
 * @height: its height
 * @x0: (inout): start
 * @y0: (inout): start
 * @x1: (inout): end
 * @y1: (inout): end
 *
 * Clips the line to the mask with one pixel of margin (Liang–Barsky).
 *
 * Returns: whether anything of the line is left
 */
/* No check: called for every segment drawn. */
gboolean
sl_mask_clip (double  width,
              double  height,
              double *x0,
              double *y0,
              double *x1,
              double *y1)
{
  double dx = *x1 - *x0, dy = *y1 - *y0;
  double p[4] = { -dx, dx, -dy, dy };
  double q[4] = { *x0 + 1, width - *x0, *y0 + 1, height - *y0 };
  double u0 = 0, u1 = 1;

  if (!isfinite (*x0) || !isfinite (*y0) || !isfinite (*x1) || !isfinite (*y1))
    return FALSE;
  for (int i = 0; i < 4; i++)
    {
      double u;

      if (p[i] == 0)
        {
          if (q[i] < 0)
            return FALSE;
          continue;
        }
      u = q[i] / p[i];
      if (p[i] < 0)
        u0 = MAX (u0, u);
      else
        u1 = MIN (u1, u);
    }
  if (u0 > u1)
    return FALSE;
  *x1 = *x0 + u1 * dx;
  *y1 = *y0 + u1 * dy;
  *x0 = *x0 + u0 * dx;
  *y0 = *y0 + u0 * dy;
  return TRUE;
}

typedef struct
{
  guint8 *data;
  int     width;
  int     stride;
  int     row0;
  int     rows;
  gboolean steep;
} Band;

/* floor() of a value well inside int's range, without a call into libm
 * (the build targets SSE2, which has no rounding instruction) */
static inline int
floor_int (double v)
{
  int i = (int) v;

  return i - (v < i);
}

/* coverage @a over the pixel at @d */
static inline void
put (guint8 *d,
     guint   a)
{
  if (a == 255)
    *d = 255;
  else if (a != 0)
    *d = (guint8) (*d + ((255 - *d) * a) / 255);
}

/* a steep line's pixel: the row is in the band, the column may not be in
 * the mask */
static inline void
put_col (guint8 *row,
         int     width,
         int     col,
         guint   a)
{
  if ((guint) col < (guint) width)
    put (row + col, a);
}

/* a shallow line's pixel: the column is in the mask, the row may not be
 * in the band */
static inline void
put_row (const Band *b,
         int         col,
         int         row,
         guint       a)
{
  if ((guint) (row - b->row0) < (guint) b->rows)
    put (b->data + (gsize) row * b->stride + col, a);
}

static void
raster_line (Band             *b,
             const SlMaskLine *l,
             gboolean          antialias)
{
  /* pixel centres at .5 */
  double x0 = l->x0 - 0.5, y0 = l->y0 - 0.5, x1 = l->x1 - 0.5, y1 = l->y1 - 0.5;
  double gradient, base;
  int xs, xe, lo, hi, row1 = b->row0 + b->rows;
  guint a = l->alpha;

  /* (not clipped: nothing sensible to draw, and no overflow) */
  if (!(fabs (x0) < 1e7 && fabs (y0) < 1e7 && fabs (x1) < 1e7 && fabs (y1) < 1e7))
    return;
  b->steep = fabs (y1 - y0) > fabs (x1 - x0);
  if (b->steep)
    {
      double t;

      t = x0, x0 = y0, y0 = t;
      t = x1, x1 = y1, y1 = t;
    }
  if (x0 > x1)
    {
      double t;

      t = x0, x0 = x1, x1 = t;
      t = y0, y0 = y1, y1 = t;
    }
  gradient = x1 > x0 ? (y1 - y0) / (x1 - x0) : 0;
  xs = (int) floor (x0 + 0.5);
  xe = (int) floor (x1 + 0.5);
  base = y0 + gradient * (xs - x0);

  /* the steps that can touch the band: the minor coordinate plots rows
   * floor(y) − 1 … floor(y) + 2 at most */
  lo = xs;
  hi = xe;
  if (b->steep)
    {
      lo = MAX (lo, b->row0);
      hi = MIN (hi, row1 - 1);
    }
  else if (gradient == 0)
    {
      if (base < b->row0 - 3 || base > row1 + 1)
        return;
    }
  else
    {
      /* (a nearly flat line's are far outside int's range) */
      double ka = CLAMP ((b->row0 - 3 - base) / gradient, -1e8, 1e8);
      double kb = CLAMP ((row1 + 1 - base) / gradient, -1e8, 1e8);

      lo = MAX (lo, xs + (int) floor (MIN (ka, kb)) - 1);
      hi = MIN (hi, xs + (int) ceil (MAX (ka, kb)) + 1);
    }

  /* the same steps for both orientations, in two loops so that each
   * checks only the coordinate that can leave the band or the mask */
  if (b->steep)
    for (int x = lo; x <= hi; x++)
      {
        double intery = base + gradient * (x - xs);
        guint8 *row = b->data + (gsize) x * b->stride;

        if (!antialias)
          {
            int y = floor_int (intery + 0.5);

            put_col (row, b->width, y, a);
            if (l->wide)
              put_col (row, b->width, y + 1, a);
          }
        else
          {
            int y = floor_int (intery);
            double f = intery - y;

            put_col (row, b->width, y, (guint) ((1 - f) * a + 0.5));
            if (l->wide)
              {
                put_col (row, b->width, y + 1, a);
                put_col (row, b->width, y + 2, (guint) (f * a + 0.5));
              }
            else
              put_col (row, b->width, y + 1, (guint) (f * a + 0.5));
          }
      }
  else
    for (int x = MAX (lo, 0); x <= MIN (hi, b->width - 1); x++)
      {
        double intery = base + gradient * (x - xs);

        if (!antialias)
          {
            int y = floor_int (intery + 0.5);

            put_row (b, x, y, a);
            if (l->wide)
              put_row (b, x, y + 1, a);
          }
        else
          {
            int y = floor_int (intery);
            double f = intery - y;

            put_row (b, x, y, (guint) ((1 - f) * a + 0.5));
            if (l->wide)
              {
                put_row (b, x, y + 1, a);
                put_row (b, x, y + 2, (guint) (f * a + 0.5));
              }
            else
              put_row (b, x, y + 1, (guint) (f * a + 0.5));
          }
      }
}

/**
 * sl_mask_lines:
 * @data: the mask (A8)
 * @width: its width
 * @stride: bytes per row
 * @lines: (array length=n_lines): lines clipped by sl_mask_clip()
 * @n_lines: lines
 * @antialias: Wu's two pixels per step, else the nearest one
 * @row0: first row of the band drawn
 * @row1: the row after the band
 *
 * Adds the lines' pixels in rows [@row0, @row1) to the mask; nothing else
 * is read or written, so that bands can be drawn at the same time.
 */
void
sl_mask_lines (guint8           *data,
               int               width,
               int               stride,
               const SlMaskLine *lines,
               gsize             n_lines,
               gboolean          antialias,
               int               row0,
               int               row1)
{
  Band b = { data, width, stride, row0, row1 - row0, FALSE };

  g_return_if_fail (data != NULL || row1 <= row0 || width <= 0);
  g_return_if_fail (lines != NULL || n_lines == 0);

  if (row1 <= row0 || width <= 0)
    return;
  for (gsize i = 0; i < n_lines; i++)
    raster_line (&b, &lines[i], antialias);
}
