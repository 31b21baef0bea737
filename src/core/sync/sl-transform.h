/* sl-transform.h: affine clock transforms on 64-bit nanosecond timestamps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SlTransform:
 * @origin: local time (ns) the map is anchored at
 * @image: integer part of the image of @origin (ns, target clock)
 * @image_frac: fractional part of that image, in [0, 1)
 * @drift: slope - 1
 *
 * The map `t -> image + image_frac + (1 + drift) * (t - origin)`.
 *
 * Timestamps are ~1.4e18 ns; a double holding such a value loses ~100 ns, and
 * a double slope multiplied by it loses as much. Anchoring the map near the
 * data keeps `t - origin` exact and small, and storing the slope as `drift`
 * keeps ~1e-20 of absolute slope precision for real clocks (drift ~1e-4), so
 * composition and inversion stay well under a nanosecond over spans of days.
 */
typedef struct
{
  gint64 origin;
  gint64 image;
  double image_frac;
  double drift;
} SlTransform;

void     sl_transform_init_identity  (SlTransform       *self);
void     sl_transform_init           (SlTransform       *self,
                                      gint64             origin,
                                      gint64             image,
                                      double             image_frac,
                                      double             drift);
gboolean sl_transform_is_identity    (const SlTransform *self);
double   sl_transform_get_slope      (const SlTransform *self);
gint64   sl_transform_apply          (const SlTransform *self,
                                      gint64             t);
void     sl_transform_apply_split    (const SlTransform *self,
                                      gint64             t,
                                      gint64            *whole,
                                      double            *frac);
double   sl_transform_apply_delta    (const SlTransform *self,
                                      gint64             t);
void     sl_transform_compose        (const SlTransform *outer,
                                      const SlTransform *inner,
                                      SlTransform       *out);
void     sl_transform_invert         (const SlTransform *self,
                                      SlTransform       *out);
void     sl_transform_rebase         (const SlTransform *self,
                                      gint64             origin,
                                      SlTransform       *out);
char    *sl_transform_slope_to_string  (const SlTransform *self);
char    *sl_transform_offset_to_string (const SlTransform *self);
double   sl_transform_get_offset     (const SlTransform *self);

G_END_DECLS
