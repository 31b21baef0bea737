/* test-transform.c: exact composition and inversion on epoch-scale times
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <math.h>

#include "sl-round-private.h"
#include "sl-transform.h"

#define EPOCH G_GINT64_CONSTANT (1400000000000000000)

/* The map evaluated in long double arithmetic (64-bit mantissa), as a
 * reference independent of the anchoring tricks of SlTransform. */
static long double
reference_apply (long double slope,
                 long double intercept,
                 gint64      t)
{
  return slope * (long double) t + intercept;
}

static void
test_apply (void)
{
  SlTransform t;

  sl_transform_init_identity (&t);
  g_assert_true (sl_transform_is_identity (&t));
  g_assert_cmpint (sl_transform_apply (&t, EPOCH + 123), ==, EPOCH + 123);

  /* 100 ppm fast, anchored at EPOCH, one day ahead */
  sl_transform_init (&t, EPOCH, EPOCH + G_GINT64_CONSTANT (86400000000000), 0.25, 1e-4);
  g_assert_cmpint (sl_transform_apply (&t, EPOCH), ==, EPOCH + G_GINT64_CONSTANT (86400000000000));
  /* one hour later: 3.6e12 * 1e-4 = 360 000 000 ns more */
  g_assert_cmpint (sl_transform_apply (&t, EPOCH + G_GINT64_CONSTANT (3600000000000)), ==,
                   EPOCH + G_GINT64_CONSTANT (86400000000000) + G_GINT64_CONSTANT (3600000000000) + 360000000);
}

/* The roundings without a library call give llroundl()'s and floorl()'s
 * results at every value: halves and their neighbours, both signs, near
 * the limit where the library takes over, and random long doubles. */
static void
check_round (long double v)
{
  g_assert_cmpint (sl_llroundl (v), ==, llroundl (v));
  g_assert_true (sl_floorl (v) == floorl (v));
}

static void
test_round (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  static const long double ints[] = { 0, 1, 2, 3, 1e6L, 4503599627370496.0L, 9007199254740993.0L,
                                      1.7e18L, 3.9999999999e18L, 4.0e18L, 4.5e18L, 9.2e18L };

  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    for (int sign = -1; sign <= 1; sign += 2)
      {
        long double base = sign * ints[i];
        long double vs[] = { base, base + 0.5L, base - 0.5L, base + 0.25L, base - 0.75L };

        for (guint k = 0; k < G_N_ELEMENTS (vs); k++)
          {
            check_round (vs[k]);
            check_round (nextafterl (vs[k], INFINITY));
            check_round (nextafterl (vs[k], -INFINITY));
          }
      }
  for (int iter = 0; iter < 200000; iter++)
    {
      long double mag = powl (2.0L, g_rand_double_range (rand, -4, 63));
      long double v = (g_rand_boolean (rand) ? 1 : -1) * mag * (long double) g_rand_double (rand);
      long double half = (long double) (gint64) v + (v < 0 ? -0.5L : 0.5L);

      check_round (v);
      if (fabsl (v) < 1e18L)
        {
          check_round (half);
          check_round (nextafterl (half, 0));
        }
    }
  for (int iter = 0; iter < 10000; iter++)
    {
      gint64 a = (gint64) g_rand_double_range (rand, -9.2e18, 9.2e18);
      gint64 b = (gint64) g_rand_double_range (rand, -9.2e18, 9.2e18);

      g_assert_true (sl_diff_ld (a, b) == (long double) ((__int128) a - b));
    }
  g_rand_free (rand);
}

/* sl_transform_apply() against the formula in 128-bit integers and
 * llroundl(), at random epoch-scale transforms and instants */
static void
test_apply_exact (void)
{
  GRand *rand = g_rand_new_with_seed (11);

  for (int iter = 0; iter < 200000; iter++)
    {
      SlTransform t;
      gint64 o = EPOCH + (gint64) g_rand_double_range (rand, -1e17, 1e17);
      gint64 x = o + (gint64) g_rand_double_range (rand, -1e16, 1e16);
      long double off;

      sl_transform_init (&t, o, o + (gint64) g_rand_double_range (rand, -1e15, 1e15),
                         g_rand_double (rand), g_rand_double_range (rand, -1e-3, 1e-3));
      off = (long double) ((__int128) t.image - t.origin) + (long double) t.image_frac +
            (long double) t.drift * (long double) ((__int128) x - t.origin);
      g_assert_cmpint (sl_transform_apply (&t, x), ==, x + (gint64) llroundl (off));
    }
  g_rand_free (rand);
}

static void
test_compose_invert_random (void)
{
  GRand *rand = g_rand_new_with_seed (42);

  for (int iter = 0; iter < 20000; iter++)
    {
      SlTransform f, g, fg, inv, back;
      gint64 o1 = EPOCH + g_rand_int (rand);
      gint64 o2 = EPOCH + g_rand_int (rand);
      double d1 = g_rand_double_range (rand, -1e-3, 1e-3);
      double d2 = g_rand_double_range (rand, -1e-3, 1e-3);
      gint64 off1 = (gint64) g_rand_double_range (rand, -1e14, 1e14);
      gint64 off2 = (gint64) g_rand_double_range (rand, -1e14, 1e14);
      gint64 t = o1 + (gint64) g_rand_double_range (rand, -1e13, 1e13);
      long double ref;

      sl_transform_init (&f, o1, o1 + off1, 0.0, d1);
      sl_transform_init (&g, o2, o2 + off2, 0.0, d2);

      /* g ∘ f against the long double evaluation of the two maps */
      sl_transform_compose (&g, &f, &fg);
      ref = (long double) o1 + off1 + (1.0L + d1) * ((long double) t - o1);
      ref = (long double) o2 + off2 + (1.0L + d2) * (ref - o2);
      g_assert_cmpfloat (fabsl ((long double) sl_transform_apply (&fg, t) - ref), <=, 1.0L);

      /* f^-1 ∘ f = identity to the nanosecond */
      sl_transform_invert (&f, &inv);
      sl_transform_compose (&inv, &f, &back);
      g_assert_cmpint (llabs (sl_transform_apply (&back, t) - t), <=, 1);
      g_assert_cmpfloat (fabs (back.drift), <, 1e-18);
    }
  g_rand_free (rand);
}

/* A chain of 1000 compositions (a deep tree path) stays within a ns. */
static void
test_long_chain (void)
{
  SlTransform acc, step;
  long double slope = 1.0L, intercept = 0.0L;
  gint64 t = EPOCH + 5000000000;

  sl_transform_init_identity (&acc);
  acc.origin = acc.image = EPOCH;
  for (int i = 0; i < 1000; i++)
    {
      double d = ((i % 7) - 3) * 1e-5;
      gint64 off = (i % 5 - 2) * 1000003;

      sl_transform_init (&step, EPOCH, EPOCH + off, 0.0, d);
      sl_transform_compose (&step, &acc, &acc);
      /* step (x) = (1+d)(x - EPOCH) + EPOCH + off */
      intercept = (1.0L + d) * intercept + (long double) off - (long double) d * EPOCH;
      slope = (1.0L + d) * slope;
    }
  g_assert_cmpfloat (fabsl ((long double) sl_transform_apply (&acc, t) - reference_apply (slope, intercept, t)), <=, 2.0L);
}

static void
test_strings (void)
{
  SlTransform t;
  g_autofree char *slope = NULL, *offset = NULL;

  /* Trace Compass's transform of scp_src: slope 0.99994137837031390110...,
   * offset 79796507913179.3334766... ns */
  sl_transform_init (&t, 0, 79796507913179, 0.33347660124688298171, -5.86216296860988943154168831606e-05);
  slope = sl_transform_slope_to_string (&t);
  offset = sl_transform_offset_to_string (&t);
  g_assert_true (g_str_has_prefix (slope, "0.99994137837031390"));
  g_assert_true (g_str_has_prefix (offset, "79796507913179.33"));

  /* parsed back, the strings map an epoch-scale time to the ns */
  {
    long double s = strtold (slope, NULL), o = strtold (offset, NULL);
    gint64 x = EPOCH + 123456789;
    g_assert_cmpfloat (fabsl (s * x + o - (long double) sl_transform_apply (&t, x)), <=, 1.0L);
  }

  /* programs read them (the JSON's exact maps): a point under a locale
   * whose decimal separator is a comma too, as the application runs */
  {
    locale_t french = newlocale (LC_NUMERIC_MASK, "fr_FR.UTF-8", (locale_t) 0);
    locale_t old;
    g_autofree char *fr_slope = NULL, *fr_offset = NULL;

    if (french == (locale_t) 0)
      {
        g_test_message ("fr_FR.UTF-8 not installed: the strings not checked under it");
        return;
      }
    old = uselocale (french);
    fr_slope = sl_transform_slope_to_string (&t);
    fr_offset = sl_transform_offset_to_string (&t);
    uselocale (old);
    freelocale (french);
    g_assert_cmpstr (fr_slope, ==, slope);
    g_assert_cmpstr (fr_offset, ==, offset);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/transform/apply", test_apply);
  g_test_add_func ("/transform/round", test_round);
  g_test_add_func ("/transform/apply-exact", test_apply_exact);
  g_test_add_func ("/transform/compose-invert-random", test_compose_invert_random);
  g_test_add_func ("/transform/long-chain", test_long_chain);
  g_test_add_func ("/transform/strings", test_strings);

  return g_test_run ();
}
