/* sl-line-raster.h: many thin antialiased lines into a pixel buffer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK-free. Cairo strokes cost tens of microseconds per line; a frame of
 * the host graph has thousands of links. These one-pixel lines (Xiaolin
 * Wu's algorithm, optional dashes) cost about a microsecond per hundred
 * pixels. Thick round-capped segments (the tree) and copies of a small
 * picture (the hosts) cost their area in pixels. The buffer is a cairo
 * ARGB32 image's (premultiplied, native-endian), drawn on between a flush
 * and a mark_dirty.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint32 *pixels;
  int      width;
  int      height;
} SlLineRaster;

void    sl_line_raster_wrap   (SlLineRaster *self,
                               guint8       *pixels,
                               int           width,
                               int           height);
void    sl_line_raster_line   (SlLineRaster *self,
                               double        x0,
                               double        y0,
                               double        x1,
                               double        y1,
                               guint32       rgb,
                               double        alpha,
                               double        dash_on,
                               double        dash_off);

void    sl_line_raster_thick  (SlLineRaster *self,
                               double        x0,
                               double        y0,
                               double        x1,
                               double        y1,
                               double        width,
                               guint32       rgb,
                               double        alpha);
void    sl_line_raster_blit   (SlLineRaster *self,
                               const guint8 *src,
                               int           width,
                               int           height,
                               int           stride,
                               int           x,
                               int           y);

G_END_DECLS
