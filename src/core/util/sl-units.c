/* sl-units.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sl-units.h"

/* U+2212: a minus sign as wide as the plus */
#define MINUS "\u2212"

/* @a ≥ 0: four significant digits, the zeros after the point kept, so
 * that numbers side by side read alike ("248.0" beside "743.3", never
 * "248"; "1.000", "0.9997"); %.3e rounds first, so 9.9996 gives "10.00" */
static char *
four_digits (double a)
{
  char e[40];
  const char *x;
  int exponent;

  g_snprintf (e, sizeof e, "%.3e", a);
  x = strchr (e, 'e');
  exponent = x != NULL ? atoi (x + 1) : 0;
  return g_strdup_printf ("%.*f", MAX (0, 3 - exponent), a);
}

/**
 * sl_units_time_of_day:
 * @ns: ns since the epoch
 * @decimals: digits of the second, 0 to 9 (thin spaces between groups of 3)
 *
 * Returns: HH:MM:SS.fraction of the day, UTC
 */
char *
sl_units_time_of_day (gint64 ns,
                      int    decimals)
{
  gint64 s = ns >= 0 ? ns / 1000000000 : -((-(ns + 1)) / 1000000000) - 1;
  gint64 frac = ns - s * 1000000000;
  gint64 day_s = ((s % 86400) + 86400) % 86400;
  char digits[16];
  GString *str = g_string_new (NULL);

  g_string_append_printf (str, "%02d:%02d:%02d", (int) (day_s / 3600), (int) (day_s / 60 % 60), (int) (day_s % 60));
  decimals = CLAMP (decimals, 0, 9);
  if (decimals > 0)
    {
      g_snprintf (digits, sizeof digits, "%09" G_GINT64_FORMAT, frac);
      g_string_append_c (str, '.');
      for (int i = 0; i < decimals; i++)
        {
          if (i > 0 && i % 3 == 0)
            g_string_append (str, "\u2009");
          g_string_append_c (str, digits[i]);
        }
    }
  return g_string_free (str, FALSE);
}

/**
 * sl_units_offset:
 * @ns: a clock offset
 *
 * Returns: the offset signed, in the unit that fits: whole ns below a
 *   µs (the clocks' resolution), then four significant digits, zeros
 *   kept, below a minute ("+182.4 ms", "−3.052 µs", "+248.0 µs", "+0 ns"),
 *   then minutes, hours and days ("+12 min 36.4 s", "−13 h 18 min 41.7 s",
 *   "+554 d 13 h 18 min")
 */
char *
sl_units_offset (double ns)
{
  const char *sign = ns < 0 ? MINUS : "+";
  double a = fabs (ns);
  double s;
  gint64 min, h, d;
  g_autofree char *digits = NULL;

  if (!isfinite (ns))
    return g_strdup ("—");
  if (a < 0.5)
    return g_strdup ("+0 ns");
  if (a < 999.5)
    return g_strdup_printf ("%s%.0f ns", sign, a);
  if (a < 999.95e3)
    return g_strdup_printf ("%s%s µs", sign, (digits = four_digits (a / 1e3)));
  if (a < 999.95e6)
    return g_strdup_printf ("%s%s ms", sign, (digits = four_digits (a / 1e6)));
  if (a < 59.995e9)
    return g_strdup_printf ("%s%s s", sign, (digits = four_digits (a / 1e9)));
  /* a tenth of a second at most: the rest is below what anyone reads
   * from a clock hours off */
  s = round (a / 1e8) / 10;
  min = (gint64) (s / 60);
  s -= 60.0 * (double) min;
  if (min < 60)
    return g_strdup_printf ("%s%" G_GINT64_FORMAT " min %.1f s", sign, min, s);
  h = min / 60;
  min %= 60;
  if (h < 24)
    return g_strdup_printf ("%s%" G_GINT64_FORMAT " h %" G_GINT64_FORMAT " min %.1f s", sign, h, min, s);
  d = h / 24;
  h %= 24;
  return g_strdup_printf ("%s%" G_GINT64_FORMAT " d %" G_GINT64_FORMAT " h %" G_GINT64_FORMAT " min",
                          sign, d, h, min);
}

/**
 * sl_units_size:
 * @ns: a bound, a width
 *
 * Returns: sl_units_offset() of |@ns| without its sign ("182.4 ms")
 */
char *
sl_units_size (double ns)
{
  char *text = sl_units_offset (fabs (ns));

  if (text[0] == '+')
    memmove (text, text + 1, strlen (text));
  return text;
}

/* |@ppm|: four significant digits, whole ppm from 1000 */
static char *
ppm_text (double ppm)
{
  g_autofree char *digits = NULL;

  if (ppm >= 999.95)
    return g_strdup_printf ("%.0f ppm", ppm);
  return g_strdup_printf ("%s ppm", (digits = four_digits (ppm)));
}

/**
 * sl_units_drift:
 * @drift: slope − 1 of a clock map
 *
 * Returns: the drift in parts per million, signed, four significant
 *   digits, zeros kept, or whole ppm ("−27.87 ppm", "+10.00 ppm",
 *   "+0.003100 ppm", "+23840 ppm")
 */
char *
sl_units_drift (double drift)
{
  double ppm = drift * 1e6;
  g_autofree char *text = NULL;

  if (!isfinite (ppm))
    return g_strdup ("—");
  if (ppm == 0)
    return g_strdup ("0 ppm");
  text = ppm_text (fabs (ppm));
  return g_strdup_printf ("%s%s", ppm < 0 ? MINUS : "+", text);
}

/**
 * sl_units_rate:
 * @rate: a width of relative rates (a link's rate band, alpha_max −
 *   alpha_min)
 *
 * Returns: sl_units_drift() of |@rate| without its sign ("1220 ppm",
 *   "12.20 ppm"); "—" when not finite
 */
char *
sl_units_rate (double rate)
{
  if (!isfinite (rate))
    return g_strdup ("—");
  if (rate == 0)
    return g_strdup ("0 ppm");
  return ppm_text (fabs (rate) * 1e6);
}

/* one end of sl_units_drift_range(), rounded away from the inside */
static char *
ppm_end (double   ppm,
         int      decimals,
         gboolean up)
{
  double scale = pow (10, decimals);
  double r = (up ? ceil (ppm * scale) : floor (ppm * scale)) / scale;

  if (r == 0)
    return g_strdup_printf ("%.*f", decimals, 0.0);
  return g_strdup_printf ("%s%.*f", r < 0 ? MINUS : "+", decimals, fabs (r));
}

/**
 * sl_units_drift_range:
 * @lo, @hi: the ends of an interval of drifts (slope − 1)
 * @lo_text, @hi_text: (out): the ends in ppm, without the unit, rounded
 *   outwards to as many decimals as sl_units_drift() gives the larger
 *   end ("−33.13" and "−22.40", "+0.1230" and "+0.3070")
 *
 * Returns: %FALSE (and no text) when an end is not finite
 */
gboolean
sl_units_drift_range (double  lo,
                      double  hi,
                      char  **lo_text,
                      char  **hi_text)
{
  double big = MAX (fabs (lo), fabs (hi)) * 1e6;
  int decimals = big >= 999.95 ? 0 : big >= 99.995 ? 1 : big >= 9.9995 ? 2 : big >= 0.99995 ? 3 : 4;

  g_return_val_if_fail (lo_text != NULL && hi_text != NULL, FALSE);

  if (!isfinite (lo) || !isfinite (hi))
    return FALSE;
  *lo_text = ppm_end (lo * 1e6, decimals, FALSE);
  *hi_text = ppm_end (hi * 1e6, decimals, TRUE);
  return TRUE;
}
