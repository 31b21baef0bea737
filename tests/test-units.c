/* test-units.c: clock numbers as people read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-units.h"

static void
check (char       *got,
       const char *want)
{
  g_assert_cmpstr (got, ==, want);
  g_free (got);
}

static void
test_offset (void)
{
  check (sl_units_offset (0), "+0 ns");
  check (sl_units_offset (0.4), "+0 ns");
  check (sl_units_offset (-7), "\u22127 ns");
  /* a size has no sign */
  check (sl_units_size (-182.4e6), "182.4 ms");
  check (sl_units_size (171752), "171.8 µs");
  check (sl_units_size (INFINITY), "—");
  check (sl_units_offset (999), "+999 ns");
  check (sl_units_offset (1000), "+1.000 µs");
  check (sl_units_offset (-3052), "\u22123.052 µs");
  check (sl_units_offset (999940), "+999.9 µs");
  /* rounds up into the next unit, never "1000 µs" */
  check (sl_units_offset (999960), "+1.000 ms");
  check (sl_units_offset (182.4e6), "+182.4 ms");
  check (sl_units_offset (-203.84e6), "\u2212203.8 ms");
  check (sl_units_offset (12.345e9), "+12.35 s");
  /* four significant digits whatever they are: zeros kept, so that
   * numbers side by side read alike ("±248.0 µs" beside "±743.3 µs") */
  check (sl_units_size (248e3), "248.0 µs");
  check (sl_units_size (743.3e3), "743.3 µs");
  check (sl_units_size (44.2e6), "44.20 ms");
  check (sl_units_offset (-2e9), "\u22122.000 s");
  check (sl_units_offset (9.99960e3), "+10.00 µs");
  check (sl_units_offset (999.7), "+0.9997 µs");
  check (sl_units_offset (59.996e9), "+1 min 0.0 s");
  check (sl_units_offset (756.36e9), "+12 min 36.4 s");
  check (sl_units_offset (-47921.726e9), "\u221213 h 18 min 41.7 s");
  check (sl_units_offset (3599.96e9), "+1 h 0 min 0.0 s");
  check (sl_units_offset (48.0e3 * 3600e9 + 30 * 60e9), "+2000 d 0 h 30 min");
  /* the "−231.6 h" intercept, had it been the offset */
  check (sl_units_offset (-231.6 * 3600e9), "\u22129 d 15 h 36 min");
  check (sl_units_offset (NAN), "—");
  check (sl_units_offset (INFINITY), "—");
}

static void
test_drift (void)
{
  check (sl_units_drift (0), "0 ppm");
  check (sl_units_drift (-27.871e-6), "\u221227.87 ppm");
  check (sl_units_drift (593.2e-6), "+593.2 ppm");
  check (sl_units_drift (3.1e-9), "+0.003100 ppm");
  check (sl_units_drift (10e-6), "+10.00 ppm");
  check (sl_units_drift (-1.5e-6), "\u22121.500 ppm");
  check (sl_units_drift (0.02384), "+23840 ppm");
  check (sl_units_drift (NAN), "—");
}

/* A guaranteed interval of drifts: its ends rounded outwards (never
 * narrower than what is guaranteed), the decimals of the larger end */
static void
check_range (double      lo,
             double      hi,
             const char *want_lo,
             const char *want_hi)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  g_assert_true (sl_units_drift_range (lo, hi, &a, &b));
  g_assert_cmpstr (a, ==, want_lo);
  g_assert_cmpstr (b, ==, want_hi);
}

static void
test_drift_range (void)
{
  char *a = NULL, *b = NULL;

  check_range (-33.1234e-6, -22.4011e-6, "\u221233.13", "\u221222.40");
  check_range (38.411e-6, 68.181e-6, "+38.41", "+68.19");
  check_range (-5.0e-6, 123.4561e-6, "\u22125.0", "+123.5");
  check_range (0.12301e-6, 0.30701e-6, "+0.1230", "+0.3071");
  check_range (-107988.58e-6, 175691.13e-6, "\u2212107989", "+175692");
  check_range (-0.00001e-6, 1.5e-6, "\u22120.001", "+1.500");
  g_assert_false (sl_units_drift_range (NAN, 1e-6, &a, &b));
  g_assert_false (sl_units_drift_range (-1e-6, INFINITY, &a, &b));
  g_assert_null (a);
  g_assert_null (b);
}

/* A width of rates (a link's rate band): the drift's digits, no sign, no
 * exponent ("accuracy 1.22e+03 ppm" was a plot's title) */
static void
test_rate (void)
{
  check (sl_units_rate (1220.3e-6), "1220 ppm");
  check (sl_units_rate (670e-6), "670.0 ppm");
  check (sl_units_rate (12.2e-6), "12.20 ppm");
  check (sl_units_rate (4.5e-9), "0.004500 ppm");
  check (sl_units_rate (0), "0 ppm");
  check (sl_units_rate (INFINITY), "—");
}

static void
test_time_of_day (void)
{
  /* 2014-07-16 23:14:00.126216029 UTC */
  gint64 t = G_GINT64_CONSTANT (1405552440126216029);

  check (sl_units_time_of_day (t, 1), "23:14:00.1");
  check (sl_units_time_of_day (t, 9), "23:14:00.126\u2009216\u2009029");
  check (sl_units_time_of_day (t, 0), "23:14:00");
  /* before the epoch: 1969-12-31 23:59:59.5 */
  check (sl_units_time_of_day (-500000000, 1), "23:59:59.5");
  check (sl_units_time_of_day (-1, 9), "23:59:59.999\u2009999\u2009999");
  check (sl_units_time_of_day (G_MININT64, 0), "00:12:43");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/units/offset", test_offset);
  g_test_add_func ("/units/drift", test_drift);
  g_test_add_func ("/units/drift-range", test_drift_range);
  g_test_add_func ("/units/rate", test_rate);
  g_test_add_func ("/units/time-of-day", test_time_of_day);
  return g_test_run ();
}
