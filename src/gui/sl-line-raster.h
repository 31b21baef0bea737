/* sl-line-raster.h: many thin antialiased lines into a pixel buffer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK-free. Cairo strokes cost tens of microseconds per line; a frame of
 * the host graph has thousands of links. These one-pixel lines (Xiaolin
 * Wu's algorithm, optional dashes) cost about a microsecond per hundred
 * pixels, in a buffer laid out as cairo's ARGB32 (premultiplied,
 * native-endian), so GDK takes it as a texture without conversion.
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

void    sl_line_raster_init   (SlLineRaster *self,
                               int           width,
                               int           height);
guint8 *sl_line_raster_steal  (SlLineRaster *self);
void    sl_line_raster_clear  (SlLineRaster *self);
void    sl_line_raster_line   (SlLineRaster *self,
                               double        x0,
                               double        y0,
                               double        x1,
                               double        y1,
                               guint32       rgb,
                               double        alpha,
                               double        dash_on,
                               double        dash_off);

G_END_DECLS
