/* test-points.c: the links' matched-point stores read back every point bit
 * for bit (32-bit differences where they fit, the exact point where they
 * do not: extreme instants, long gaps, offsets that jump), hold a dense
 * run in about 8 bytes a point, and keep order when filtered and trimmed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "sl-points-private.h"

#define SEC G_GINT64_CONSTANT (1000000000)

static void
check_all (const SlPointStore *s,
           const SlPoint      *want,
           gsize               n)
{
  g_assert_cmpuint (s->len, ==, n);
  for (gsize i = 0; i < n; i++)
    {
      SlPoint p = sl_point_store_get (s, i);

      if (p.x != want[i].x || p.y != want[i].y)
        g_error ("point %" G_GSIZE_FORMAT ": (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") read back as (%"
                 G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", i, want[i].x, want[i].y, p.x, p.y);
    }
}

/* Points a trace gives (1.7e18 ns, an offset of hours, latencies of µs)
 * mixed with those that cannot be differences from their chunk's first:
 * the ends of the time line, gaps and offset jumps past 32 bits, and
 * values right at the 32-bit limits. */
static void
test_exact (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (18);
  g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (SlPoint));
  SlPointStore s;
  gint64 x = G_GINT64_CONSTANT (1700000000000000000);
  gint64 off = 3 * 3600 * SEC;

  sl_point_store_init (&s);
  for (guint i = 0; i < 20000; i++)
    {
      SlPoint p;
      guint r = g_rand_int_range (rand, 0, 1000);

      x += g_rand_int_range (rand, 0, 200000);
      p.x = x;
      p.y = x + off + g_rand_int_range (rand, -50000, 50000);
      if (r == 0)
        p = (SlPoint) { G_MININT64, G_MAXINT64 };
      else if (r == 1)
        p = (SlPoint) { G_MAXINT64, G_MININT64 };
      else if (r == 2)
        p.x += G_MAXINT32;
      else if (r == 3)
        p.x -= (gint64) G_MAXINT32 + 2;
      else if (r == 4)
        p.y += G_MAXINT32;
      else if (r == 5)
        p.y -= (gint64) G_MAXINT32 + 1;
      else if (r == 6)
        x += 10 * SEC;
      else if (r == 7)
        off = -off;
      g_array_append_val (want, p);
      sl_point_store_append (&s, p);
    }
  check_all (&s, (const SlPoint *) (gpointer) want->data, want->len);
  g_assert_nonnull (s.exact);
  g_assert_cmpuint (s.exact->len, <, want->len / 8);
  sl_point_store_clear (&s);
}

/* Around a chunk's first point: the largest differences kept as such,
 * one more and the point is kept exact; either way it reads back. */
static void
test_limits (void)
{
  const gint64 x0 = G_GINT64_CONSTANT (1700000000000000000), y0 = x0 - 42;
  const struct { gint64 dx, dd; gboolean fits; } cases[] = {
    { G_MAXINT32, 0, TRUE },
    { (gint64) G_MAXINT32 + 1, 0, FALSE },
    { (gint64) G_MININT32 + 1, 0, TRUE },
    { G_MININT32, 0, FALSE },
    { 0, G_MAXINT32, TRUE },
    { 0, (gint64) G_MAXINT32 + 1, FALSE },
    { 0, G_MININT32, TRUE },
    { 0, (gint64) G_MININT32 - 1, FALSE },
    { G_MAXINT32, G_MININT32, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SlPointStore s;
      SlPoint first = { x0, y0 };
      SlPoint p = { x0 + cases[i].dx, y0 + cases[i].dx + cases[i].dd };
      SlPoint want[2] = { first, p };

      sl_point_store_init (&s);
      sl_point_store_append (&s, first);
      sl_point_store_append (&s, p);
      check_all (&s, want, 2);
      g_assert_cmpuint (s.exact != NULL ? s.exact->len : 0, ==, cases[i].fits ? 0 : 1);
      sl_point_store_clear (&s);
    }
}

static gboolean
keep_odd (SlPoint  p,
          gsize    i,
          gpointer data)
{
  return i % 2 == 1;
}

/* A dense run costs its 8-byte differences and little else; filtering
 * keeps the order; a trimmed store holds what it has and grows again. */
static void
test_dense_filter_trim (void)
{
  g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (SlPoint));
  g_autoptr(GArray) odd = g_array_new (FALSE, FALSE, sizeof (SlPoint));
  SlPointStore s;
  const gsize n = 10 * SL_POINTS_CHUNK + 5;

  sl_point_store_init (&s);
  for (gsize i = 0; i < n; i++)
    {
      SlPoint p = { G_GINT64_CONSTANT (1700000000000000000) + (gint64) i * 1000003,
                    G_GINT64_CONSTANT (1700000000000000000) + (gint64) i * 1000011 + 17 * (gint64) (i % 7) };

      g_array_append_val (want, p);
      if (i % 2 == 1)
        g_array_append_val (odd, p);
      sl_point_store_append (&s, p);
    }
  check_all (&s, (const SlPoint *) (gpointer) want->data, n);
  g_assert_null (s.exact);
  g_assert_cmpint (s.min_x, ==, g_array_index (want, SlPoint, 0).x);
  g_assert_cmpuint (sl_point_store_capacity (&s), ==, 11 * SL_POINTS_CHUNK);
  g_assert_cmpuint (sl_point_store_memory (&s), <=, 9 * (sl_point_store_capacity (&s)));

  sl_point_store_trim (&s);
  g_assert_cmpuint (sl_point_store_capacity (&s), ==, n);
  check_all (&s, (const SlPoint *) (gpointer) want->data, n);

  s.dropped = 3;
  sl_point_store_filter (&s, keep_odd, NULL);
  check_all (&s, (const SlPoint *) (gpointer) odd->data, odd->len);
  g_assert_cmpuint (s.dropped, ==, 3);
  g_assert_cmpint (s.min_x, ==, g_array_index (odd, SlPoint, 0).x);

  sl_point_store_trim (&s);
  g_assert_cmpuint (sl_point_store_capacity (&s), ==, s.len);
  for (guint i = 0; i < 3; i++)
    {
      SlPoint p = { G_GINT64_CONSTANT (1800000000000000000) + i, G_GINT64_CONSTANT (1800000000000000000) };

      g_array_append_val (odd, p);
      sl_point_store_append (&s, p);
    }
  check_all (&s, (const SlPoint *) (gpointer) odd->data, odd->len);
  sl_point_store_clear (&s);
  g_assert_cmpuint (s.len, ==, 0);
  g_assert_cmpuint (sl_point_store_capacity (&s), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/points/exact", test_exact);
  g_test_add_func ("/points/limits", test_limits);
  g_test_add_func ("/points/dense-filter-trim", test_dense_filter_trim);
  return g_test_run ();
}
