/* test-relation.c: piecewise clock relations, their composition, inversion
 * and bounds, against relations that wander inside the claimed bounds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-relation.h"

#define EPOCH G_GINT64_CONSTANT (1700000000000000000)
#define SPAN  1e13

/* The relation's map at a real instant, in long double. */
static long double
eval_ld (const SlRelation *r,
         long double       x)
{
  const SlTransform *t = sl_relation_piece_at (r, (gint64) floorl (x));

  return (long double) t->image + t->image_frac + (1.0L + t->drift) * (x - (long double) t->origin);
}

static double
bound_ld (const SlRelation *r,
          long double       x)
{
  gint64 f = (gint64) floorl (x);

  return MAX (sl_relation_bound_at (r, f), sl_relation_bound_at (r, f + 1));
}

/* A continuous increasing map with n pieces over [EPOCH, EPOCH + SPAN], an
 * offset of up to a day, and a random bound. */
static SlRelation *
random_relation (GRand   *rand,
                 guint    n,
                 gboolean bounded_beyond)
{
  gint64 *starts = g_new (gint64, n);
  SlTransform *maps = g_new (SlTransform, n);
  guint nb = 1 + g_rand_int_range (rand, 0, 12);
  SlBoundPoint *b = g_new (SlBoundPoint, nb);
  gint64 at = EPOCH;
  long double y = (long double) EPOCH + g_rand_double_range (rand, -8.64e13, 8.64e13);
  SlRelation *r;

  for (guint i = 0; i < n; i++)
    {
      double drift = g_rand_double_range (rand, -1e-3, 1e-3);
      gint64 whole = (gint64) floorl (y);

      starts[i] = i == 0 ? G_MININT64 : at;
      sl_transform_init (&maps[i], at, whole, (double) (y - whole), drift);
      {
        gint64 next = at + (gint64) g_rand_double_range (rand, 1e6, SPAN / n);
        y += (1.0L + drift) * (long double) (next - at);
        at = next;
      }
    }
  for (guint k = 0; k < nb; k++)
    {
      b[k].x = EPOCH + (gint64) (SPAN * k / nb) + g_rand_int_range (rand, 0, 1000);
      b[k].bound = g_rand_double_range (rand, 0, 2e5);
    }
  r = sl_relation_new (starts, maps, n, b, nb, bounded_beyond);
  g_free (starts);
  g_free (maps);
  g_free (b);
  return r;
}

/* A truth inside the relation's band: map + bound·sin, slow enough to stay
 * increasing. */
static long double
truth_ld (const SlRelation *r,
          long double       x,
          double            phase)
{
  double b = bound_ld (r, x);

  if (!isfinite (b))
    b = 0;
  return eval_ld (r, x) + 0.999L * b * sinl (phase + (x - EPOCH) * 1e-11L);
}

static void
test_linear (void)
{
  SlTransform f, g, fg;
  g_autoptr(SlRelation) rf = NULL, rg = NULL, c = NULL, id = NULL, ci = NULL;

  sl_transform_init (&f, EPOCH, EPOCH + 5000000, 0.25, 3e-5);
  sl_transform_init (&g, EPOCH + 86400, EPOCH - 86400000000000, 0.5, -7e-5);
  sl_transform_compose (&g, &f, &fg);
  rf = sl_relation_new_linear (&f, 100);
  rg = sl_relation_new_linear (&g, 250);
  c = sl_relation_compose (rg, rf);
  g_assert_true (sl_relation_is_linear (c));
  for (gint64 t = EPOCH - G_GINT64_CONSTANT (86400000000000); t < EPOCH + G_GINT64_CONSTANT (86400000000000);
       t += G_GINT64_CONSTANT (3600000000000))
    {
      g_assert_cmpint (llabs (sl_relation_apply (c, t) - sl_transform_apply (&fg, t)), <=, 1);
      /* 250 + slope(g) * 100, and a hair for g's bound slope (none) */
      g_assert_cmpfloat (fabs (sl_relation_bound_at (c, t) - (250 + (1 - 7e-5) * 100)), <, 1e-6);
    }

  id = sl_relation_new_identity ();
  ci = sl_relation_compose (id, rf);
  g_assert_cmpint (sl_relation_apply (ci, EPOCH + 12345), ==, sl_transform_apply (&f, EPOCH + 12345));
  g_assert_cmpfloat (sl_relation_bound_at (ci, EPOCH), ==, 100);
}

/* g∘f against g(f(x)) evaluated directly, and its bound against truths
 * that use their whole band. */
static void
test_compose_random (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (int iter = 0; iter < 400; iter++)
    {
      g_autoptr(SlRelation) f = random_relation (rand, 1 + g_rand_int_range (rand, 0, 8), g_rand_boolean (rand));
      g_autoptr(SlRelation) g = NULL;
      g_autoptr(SlRelation) c = NULL;
      double pf = g_rand_double_range (rand, 0, 6.3), pg = g_rand_double_range (rand, 0, 6.3);

      /* g's domain is f's image */
      {
        SlRelation *g0 = random_relation (rand, 1 + g_rand_int_range (rand, 0, 8), g_rand_boolean (rand));
        gint64 shift = sl_relation_apply (f, EPOCH) - EPOCH;
        guint n = sl_relation_get_n_pieces (g0), nb = sl_relation_get_n_bounds (g0);
        gint64 *starts = g_new (gint64, n);
        SlTransform *maps = g_new (SlTransform, n);
        SlBoundPoint *b = g_memdup2 (sl_relation_get_bounds (g0), nb * sizeof (SlBoundPoint));

        for (guint i = 0; i < n; i++)
          {
            starts[i] = sl_relation_get_piece (g0, i, &maps[i]);
            if (i > 0)
              starts[i] += shift;
            maps[i].origin += shift;
          }
        for (guint k = 0; k < nb; k++)
          b[k].x += shift;
        g = sl_relation_new (starts, maps, n, b, nb, sl_relation_get_bounded_beyond (g0));
        sl_relation_unref (g0);
        g_free (starts);
        g_free (maps);
        g_free (b);
      }

      c = sl_relation_compose (g, f);
      for (int k = 0; k < 200; k++)
        {
          gint64 x = EPOCH + (gint64) g_rand_double_range (rand, -0.1 * SPAN, 1.1 * SPAN);
          long double direct = eval_ld (g, eval_ld (f, x));
          long double truth = truth_ld (g, truth_ld (f, x, pf), pg);
          double b = sl_relation_bound_at (c, x);

          g_assert_cmpfloat (fabsl ((long double) sl_relation_apply (c, x) - direct), <=, 1.0L);
          if (!(fabsl (eval_ld (c, x) - truth) <= b + 1e-3))
            g_error ("iteration %d: at %" G_GINT64_FORMAT " error %.3Lf > bound %.3f", iter, x,
                     fabsl (eval_ld (c, x) - truth), b);
        }
    }
  g_rand_free (rand);
}

static void
test_invert_random (void)
{
  GRand *rand = g_rand_new_with_seed (11);

  for (int iter = 0; iter < 300; iter++)
    {
      g_autoptr(SlRelation) f = random_relation (rand, 1 + g_rand_int_range (rand, 0, 8), g_rand_boolean (rand));
      g_autoptr(SlRelation) inv = sl_relation_invert (f);
      double phase = g_rand_double_range (rand, 0, 6.3);

      for (int k = 0; k < 200; k++)
        {
          gint64 x = EPOCH + (gint64) g_rand_double_range (rand, -0.1 * SPAN, 1.1 * SPAN);
          gint64 y = sl_relation_apply (f, x);
          long double lo = x - 1e7L, hi = x + 1e7L;
          double b;

          /* the inverse undoes the map */
          g_assert_cmpint (llabs (sl_relation_apply (inv, y) - x), <=, 2);

          /* the truth's inverse at y, by bisection */
          for (int it = 0; it < 80; it++)
            {
              long double mid = (lo + hi) / 2;

              if (truth_ld (f, mid, phase) < (long double) y)
                lo = mid;
              else
                hi = mid;
            }
          b = sl_relation_bound_at (inv, y);
          if (!(fabsl ((long double) sl_relation_apply (inv, y) - lo) <= b + 1.0))
            g_error ("iteration %d: error %.3Lf > bound %.3f", iter,
                     fabsl ((long double) sl_relation_apply (inv, y) - lo), b);
        }
    }
  g_rand_free (rand);
}

/* A clock stepped back by J at T inside [S, S + L], the interval the
 * packets leave open (the engine's step interval, whose bound covers the
 * step): the estimate follows the old reading up to S + L, the new one
 * after. The inverse holds at every reading, the ones made twice too, also
 * when the interval is shorter than the step. */
static void
test_invert_backward_step (void)
{
  GRand *rand = g_rand_new_with_seed (17);

  for (int iter = 0; iter < 300; iter++)
    {
      double drift = g_rand_double_range (rand, -2e-4, 2e-4), beta = g_rand_double_range (rand, 100, 50000);
      gint64 S = EPOCH + 1000000000, L = (gint64) g_rand_double_range (rand, 1e3, 5e6);
      gint64 J = (gint64) g_rand_double_range (rand, 1e4, 8e6);
      gint64 T = S + (gint64) (g_rand_double (rand) * (double) L);
      gint64 off = (gint64) g_rand_double_range (rand, -8.64e13, 8.64e13);
      gint64 starts[3] = { G_MININT64, S, S + L };
      SlTransform maps[3];
      SlBoundPoint b[40] = { { EPOCH, beta }, { S - 1, beta }, { S, beta + (double) J }, { S + L, beta + (double) J } };
      g_autoptr(SlRelation) f = NULL;
      g_autoptr(SlRelation) inv = NULL;

      /* then β every 0.1 s: far from the step the bound is small again */
      for (int k = 4; k < 40; k++)
        b[k] = (SlBoundPoint) { S + L + 1 + (k - 4) * G_GINT64_CONSTANT (100000000), beta };
      sl_transform_init (&maps[0], EPOCH, EPOCH + off, 0.0, drift);
      maps[1] = maps[0];
      sl_transform_init (&maps[2], EPOCH, EPOCH + off - J, 0.0, drift);
      f = sl_relation_new (starts, maps, 3, b, 40, FALSE);
      inv = sl_relation_invert (f);

      for (int k = 0; k < 400; k++)
        {
          gint64 x = k < 200 ? S - 2 * J + (gint64) (g_rand_double (rand) * (double) (L + 4 * J))
                             : EPOCH + (gint64) g_rand_double_range (rand, 0, 4e9);
          gint64 y = sl_transform_apply (&maps[0], x) - (x >= T ? J : 0);
          gint64 e = llabs (sl_relation_apply (inv, y) - x);
          double bound = sl_relation_bound_at (inv, y);

          if (!((double) e <= bound + 2))
            g_error ("iteration %d: L %" G_GINT64_FORMAT " J %" G_GINT64_FORMAT " x - S %" G_GINT64_FORMAT
                     ": error %" G_GINT64_FORMAT " > bound %.1f", iter, L, J, x - S, e, bound);
        }
    }
  g_rand_free (rand);
}

/* The largest bound over a span and the compact profile are upper bounds
 * of the bound at every instant, and the maximum is reached. */
static void
test_profile (void)
{
  GRand *rand = g_rand_new_with_seed (3);

  for (int iter = 0; iter < 200; iter++)
    {
      g_autoptr(SlRelation) f = random_relation (rand, 2, TRUE);
      gint64 x0 = EPOCH + (gint64) g_rand_double_range (rand, -0.1 * SPAN, 0.5 * SPAN);
      gint64 x1 = x0 + (gint64) g_rand_double_range (rand, 1, SPAN);
      gint64 where;
      double m = sl_relation_max_bound (f, x0, x1, &where);
      guint max_points = 2 + g_rand_int_range (rand, 0, 10);
      g_autoptr(GArray) prof = sl_relation_profile (f, x0, x1, max_points);
      double seen = 0;

      g_assert_cmpuint (prof->len, <=, max_points);
      g_assert_cmpint (g_array_index (prof, SlBoundPoint, 0).x, ==, x0);
      g_assert_cmpint (g_array_index (prof, SlBoundPoint, prof->len - 1).x, ==, x1);
      g_assert_cmpfloat (sl_relation_bound_at (f, where), ==, m);
      for (int k = 0; k <= 1000; k++)
        {
          gint64 x = x0 + (gint64) ((__int128) (x1 - x0) * k / 1000);
          double b = sl_relation_bound_at (f, x), p = 0;

          g_assert_cmpfloat (b, <=, m + 1e-6);
          seen = MAX (seen, b);
          for (guint j = 0; j + 1 < prof->len; j++)
            {
              const SlBoundPoint *u = &g_array_index (prof, SlBoundPoint, j);
              const SlBoundPoint *v = &g_array_index (prof, SlBoundPoint, j + 1);

              if (x >= u->x && x <= v->x)
                p = u->bound + (v->bound - u->bound) * ((double) (x - u->x) / (double) MAX (v->x - u->x, 1));
            }
          if (prof->len == 1)
            p = g_array_index (prof, SlBoundPoint, 0).bound;
          g_assert_cmpfloat (b, <=, p + 1e-6);
        }
      g_assert_cmpfloat (seen, <=, m);
    }
  g_rand_free (rand);
}

/* Beyond its points, a relation that is not bounded there is unbounded. */
static void
test_unbounded_beyond (void)
{
  SlTransform t;
  SlBoundPoint b[2] = { { EPOCH, 10 }, { EPOCH + 1000, 30 } };
  gint64 start = G_MININT64;
  g_autoptr(SlRelation) r = NULL;

  sl_transform_init_identity (&t);
  r = sl_relation_new (&start, &t, 1, b, 2, FALSE);
  g_assert_cmpfloat (sl_relation_bound_at (r, EPOCH + 500), ==, 20);
  g_assert_true (isinf (sl_relation_bound_at (r, EPOCH + 1001)));
  g_assert_true (isinf (sl_relation_bound_at (r, EPOCH - 1)));
  g_assert_true (isinf (sl_relation_max_bound (r, EPOCH, EPOCH + 2000, NULL)));
  g_assert_cmpfloat (sl_relation_max_bound (r, EPOCH, EPOCH + 1000, NULL), ==, 30);
}

/* sl_relation_compare_images() gives the sign of the two images'
 * difference that sl_relation_apply() gives, for instants whose images
 * land within a few ns of each other (where its double-precision shortcut
 * cannot decide) and far apart, in order and out of order (the hints). */
static void
test_compare_images (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (15);
  guint near = 0, counts[3] = { 0 };

  for (int trial = 0; trial < 200; trial++)
    {
      g_autoptr(SlRelation) a = random_relation (rand, 1 + g_rand_int_range (rand, 0, 8), TRUE);
      g_autoptr(SlRelation) b = random_relation (rand, 1 + g_rand_int_range (rand, 0, 8), TRUE);
      int hints[2] = { 0, 0 };
      gint64 x = EPOCH - 1000000;

      for (int i = 0; i < 2000; i++)
        {
          gint64 ia, y, ib;
          int want, got;

          x = g_rand_int_range (rand, 0, 8) == 0 ? EPOCH + (gint64) g_rand_double_range (rand, -1e9, SPAN + 1e9)
                                                 : x + g_rand_int_range (rand, 1, 100000000);
          ia = sl_relation_apply (a, x);
          y = sl_relation_preimage (b, ia);
          switch (g_rand_int_range (rand, 0, 3))
            {
            case 0:
              y += g_rand_int_range (rand, -3, 4);
              break;
            case 1:
              y += g_rand_int_range (rand, -100000, 100000);
              break;
            default:
              y = EPOCH + (gint64) g_rand_double_range (rand, -1e9, SPAN + 1e9);
            }
          ib = sl_relation_apply (b, y);
          want = ib > ia ? 1 : ib < ia ? -1 : 0;
          near += ib - ia >= -2 && ib - ia <= 2;
          got = sl_relation_compare_images (a, x, b, y, hints);
          g_assert_cmpint (got, ==, want);
          counts[want + 1]++;
        }
    }
  /* every sign, and many within the shortcut's margin */
  g_assert_cmpuint (counts[0], >, 1000);
  g_assert_cmpuint (counts[1], >, 1000);
  g_assert_cmpuint (counts[2], >, 1000);
  g_assert_cmpuint (near, >, 10000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/relation/linear", test_linear);
  g_test_add_func ("/relation/compose-random", test_compose_random);
  g_test_add_func ("/relation/invert-random", test_invert_random);
  g_test_add_func ("/relation/invert-backward-step", test_invert_backward_step);
  g_test_add_func ("/relation/profile", test_profile);
  g_test_add_func ("/relation/unbounded-beyond", test_unbounded_beyond);
  g_test_add_func ("/relation/compare-images", test_compare_images);

  return g_test_run ();
}
