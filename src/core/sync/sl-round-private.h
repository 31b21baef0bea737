/* sl-round-private.h: long double roundings without a libm call
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <math.h>

#include <glib.h>

/* Transforms are applied at every composition instant, link point and
 * event; llroundl(), floorl() and the conversion of a 128-bit integer are
 * library calls that cost more than the arithmetic around them. These give
 * the same results, bit for bit (tests/test-transform.c): below 2^62 the
 * integer part of a long double (64-bit mantissa) and its fraction are both
 * exact, so truncating and comparing the fraction with one half rounds as
 * llroundl() does (halves away from zero). Beyond, or for NaN, the library
 * decides. */

#define SL_ROUND_EXACT_LIMIT 4.0e18L

static inline gint64
sl_llroundl (long double v)
{
  gint64 i;
  long double f;

  if (!(fabsl (v) < SL_ROUND_EXACT_LIMIT))
    return llroundl (v);
  i = (gint64) v;
  f = v - (long double) i;
  if (f >= 0.5L)
    i++;
  else if (f <= -0.5L)
    i--;
  return i;
}

static inline long double
sl_floorl (long double v)
{
  gint64 i;

  if (!(fabsl (v) < SL_ROUND_EXACT_LIMIT))
    return floorl (v);
  i = (gint64) v;
  if ((long double) i > v)
    i--;
  return (long double) i;
}

/* (long double) (a - b) for 64-bit a and b, the difference taken exactly */
static inline long double
sl_diff_ld (gint64 a,
            gint64 b)
{
  gint64 d;

  if (!__builtin_sub_overflow (a, b, &d))
    return (long double) d;
  return (long double) ((__int128) a - b);
}
