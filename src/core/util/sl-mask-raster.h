/* sl-mask-raster.h: one-pixel lines into an 8-bit coverage mask, a band of rows
 * at a time (the timeline's messages, when there are too many for cairo)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SlMaskLine:
 * @x0: start, in pixels (pixel centres at .5), within the mask's margin
 * @y0: start
 * @x1: end
 * @y1: end
 * @alpha: coverage of the line, 0–255
 * @wide: two pixels across instead of one
 *
 * A line as sl_mask_clip() left it.
 */
typedef struct
{
  float  x0;
  float  y0;
  float  x1;
  float  y1;
  guint8 alpha;
  guint8 wide;
} SlMaskLine;

gboolean sl_mask_clip  (double            width,
                        double            height,
                        double           *x0,
                        double           *y0,
                        double           *x1,
                        double           *y1);

void     sl_mask_lines (guint8           *data,
                        int               width,
                        int               stride,
                        const SlMaskLine *lines,
                        gsize             n_lines,
                        gboolean          antialias,
                        int               row0,
                        int               row1);

G_END_DECLS
