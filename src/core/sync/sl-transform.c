/* sl-transform.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>

#include "sl-round-private.h"
#include "sl-transform.h"

static void
normalize (SlTransform *self)
{
  double whole = floor (self->image_frac);

  if (whole != 0.0)
    {
      self->image += (gint64) whole;
      self->image_frac -= whole;
    }
}

void
sl_transform_init_identity (SlTransform *self)
{
  g_return_if_fail (self != NULL);

  self->origin = 0;
  self->image = 0;
  self->image_frac = 0.0;
  self->drift = 0.0;
}

void
sl_transform_init (SlTransform *self,
                   gint64       origin,
                   gint64       image,
                   double       image_frac,
                   double       drift)
{
  g_return_if_fail (self != NULL);

  self->origin = origin;
  self->image = image;
  self->image_frac = image_frac;
  self->drift = drift;
  normalize (self);
}

gboolean
sl_transform_is_identity (const SlTransform *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->drift == 0.0 &&
         self->image_frac == 0.0 &&
         self->image == self->origin;
}

double
sl_transform_get_slope (const SlTransform *self)
{
  g_return_val_if_fail (self != NULL, 1.0);

  return 1.0 + self->drift;
}

/* Returns image(t) - t as a long double; the magnitudes involved stay far
 * below 2^64 ns so no precision is lost on epoch-scale inputs. */
static long double
offset_at (const SlTransform *self,
           gint64             t)
{
  return sl_diff_ld (self->image, self->origin) +
         (long double) self->image_frac +
         (long double) self->drift * sl_diff_ld (t, self->origin);
}

/* The apply functions check nothing: they run once per event. */
void
sl_transform_apply_split (const SlTransform *self,
                          gint64             t,
                          gint64            *whole,
                          double            *frac)
{
  long double off = offset_at (self, t);
  long double fl = sl_floorl (off);

  *whole = t + (gint64) fl;
  *frac = (double) (off - fl);
}

gint64
sl_transform_apply (const SlTransform *self,
                    gint64             t)
{
  return t + sl_llroundl (offset_at (self, t));
}

/* image(t) - t, for plotting and error measurement. */
double
sl_transform_apply_delta (const SlTransform *self,
                          gint64             t)
{
  return (double) offset_at (self, t);
}

/* out = outer ∘ inner, anchored at inner's origin. */
void
sl_transform_compose (const SlTransform *outer,
                      const SlTransform *inner,
                      SlTransform       *out)
{
  SlTransform r;
  gint64 whole;
  double frac;

  g_return_if_fail (outer != NULL && inner != NULL && out != NULL);

  /* outer(inner.image + inner.image_frac)
   *   = outer(inner.image) + (1 + outer.drift) * inner.image_frac */
  sl_transform_apply_split (outer, inner->image, &whole, &frac);
  r.origin = inner->origin;
  r.image = whole;
  r.image_frac = frac + (1.0 + outer->drift) * inner->image_frac;
  r.drift = outer->drift + inner->drift + outer->drift * inner->drift;
  normalize (&r);
  *out = r;
}

void
sl_transform_invert (const SlTransform *self,
                     SlTransform       *out)
{
  SlTransform r;
  double slope;

  g_return_if_fail (self != NULL && out != NULL);

  slope = 1.0 + self->drift;
  /* y = image + f + s (t - origin)  <=>  t = origin - f/s + (y - image)/s */
  r.origin = self->image;
  r.image = self->origin;
  r.image_frac = -self->image_frac / slope;
  r.drift = -self->drift / slope;
  normalize (&r);
  *out = r;
}

void
sl_transform_rebase (const SlTransform *self,
                     gint64             origin,
                     SlTransform       *out)
{
  SlTransform r;
  gint64 whole;
  double frac;

  g_return_if_fail (self != NULL && out != NULL);

  sl_transform_apply_split (self, origin, &whole, &frac);
  r.origin = origin;
  r.image = whole;
  r.image_frac = frac;
  r.drift = self->drift;
  *out = r;
}

/* @value with a decimal point whatever the locale: programs read these
 * (the JSON's exact maps), and the application runs under the user's
 * ("1,0000520734…" under fr_FR). */
static char *
format_c (int          decimals,
          long double  value)
{
  static gsize c_numeric;
  locale_t old;
  char *out;

  if (g_once_init_enter (&c_numeric))
    g_once_init_leave (&c_numeric, (gsize) newlocale (LC_NUMERIC_MASK, "C", (locale_t) 0));
  old = uselocale ((locale_t) c_numeric);
  out = g_strdup_printf ("%.*Lf", decimals, value);
  uselocale (old);
  return out;
}

/* Decimal strings precise to ~1e-19 of slope (x87/quad long double), enough
 * to map an epoch-scale timestamp to the nanosecond. */
char *
sl_transform_slope_to_string (const SlTransform *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return format_c (22, 1.0L + (long double) self->drift);
}

char *
sl_transform_offset_to_string (const SlTransform *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return format_c (6, offset_at (self, 0));
}

/* Intercept at t = 0 as a double, for display only (loses ~100 ns). */
double
sl_transform_get_offset (const SlTransform *self)
{
  g_return_val_if_fail (self != NULL, 0.0);

  return (double) offset_at (self, 0);
}
