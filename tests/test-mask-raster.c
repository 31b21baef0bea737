/* test-mask-raster.c: the message masks' line rasterizer and the parallel loop
 * that draws them a band of rows per thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-parallel.h"
#include "sl-mask-raster.h"

#define W 203
#define H 157

static guint8 *
new_mask (void)
{
  return g_malloc0 (W * H);
}

static void
draw_all (guint8           *mask,
          const SlMaskLine *lines,
          gsize             n,
          gboolean          aa)
{
  sl_mask_lines (mask, W, W, lines, n, aa, 0, H);
}

static void
add_line (GArray  *lines,
          double   x0,
          double   y0,
          double   x1,
          double   y1,
          guint8   alpha,
          gboolean wide)
{
  SlMaskLine l;

  if (!sl_mask_clip (W, H, &x0, &y0, &x1, &y1))
    return;
  l.x0 = (float) x0, l.y0 = (float) y0, l.x1 = (float) x1, l.y1 = (float) y1;
  l.alpha = alpha;
  l.wide = (guint8) wide;
  g_array_append_val (lines, l);
}

static guint
count_set (const guint8 *mask)
{
  guint n = 0;

  for (guint i = 0; i < W * H; i++)
    n += mask[i] != 0;
  return n;
}

/* Exact pixels of simple lines */
static void
test_geometry (void)
{
  g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (SlMaskLine));
  g_autofree guint8 *mask = new_mask ();

  /* a horizontal line through the centres of row 20, columns 10..30 */
  add_line (lines, 10.5, 20.5, 30.5, 20.5, 255, FALSE);
  draw_all (mask, (SlMaskLine *) lines->data, lines->len, FALSE);
  for (int x = 10; x <= 30; x++)
    g_assert_cmpuint (mask[20 * W + x], ==, 255);
  g_assert_cmpuint (count_set (mask), ==, 21);

  /* antialiased on pixel centres: the same pixels, nothing on the row below */
  memset (mask, 0, W * H);
  draw_all (mask, (SlMaskLine *) lines->data, lines->len, TRUE);
  g_assert_cmpuint (count_set (mask), ==, 21);
  g_assert_cmpuint (mask[20 * W + 10], ==, 255);

  /* halfway between rows 20 and 21: half on each */
  g_array_set_size (lines, 0);
  memset (mask, 0, W * H);
  add_line (lines, 10.5, 21.0, 30.5, 21.0, 255, FALSE);
  draw_all (mask, (SlMaskLine *) lines->data, lines->len, TRUE);
  g_assert_cmpuint (mask[20 * W + 15], ==, 128);
  g_assert_cmpuint (mask[21 * W + 15], ==, 128);
  g_assert_cmpuint (count_set (mask), ==, 42);

  /* a wide vertical line: two columns */
  g_array_set_size (lines, 0);
  memset (mask, 0, W * H);
  add_line (lines, 50.5, 5.5, 50.5, 100.5, 200, TRUE);
  draw_all (mask, (SlMaskLine *) lines->data, lines->len, FALSE);
  for (int y = 5; y <= 100; y++)
    {
      g_assert_cmpuint (mask[y * W + 50], ==, 200);
      g_assert_cmpuint (mask[y * W + 51], ==, 200);
    }
  g_assert_cmpuint (count_set (mask), ==, 2 * 96);

  /* the diagonal: one pixel per row and column */
  g_array_set_size (lines, 0);
  memset (mask, 0, W * H);
  add_line (lines, 0.5, 0.5, 120.5, 120.5, 255, FALSE);
  draw_all (mask, (SlMaskLine *) lines->data, lines->len, FALSE);
  for (int k = 0; k <= 120; k++)
    g_assert_cmpuint (mask[k * W + k], ==, 255);
  g_assert_cmpuint (count_set (mask), ==, 121);

  /* two lines crossing: coverage a + (1 - a) b */
  g_array_set_size (lines, 0);
  memset (mask, 0, W * H);
  add_line (lines, 60.5, 70.5, 90.5, 70.5, 128, FALSE);
  add_line (lines, 75.5, 60.5, 75.5, 80.5, 128, FALSE);
  draw_all (mask, (SlMaskLine *) lines->data, lines->len, FALSE);
  g_assert_cmpuint (mask[70 * W + 75], ==, 128 + (127 * 128) / 255);
  g_assert_cmpuint (mask[70 * W + 74], ==, 128);
}

static void
test_clip (void)
{
  double x0, y0, x1, y1;

  /* outside */
  x0 = -50, y0 = -50, x1 = -10, y1 = 300;
  g_assert_false (sl_mask_clip (W, H, &x0, &y0, &x1, &y1));
  x0 = NAN, y0 = 0, x1 = 10, y1 = 10;
  g_assert_false (sl_mask_clip (W, H, &x0, &y0, &x1, &y1));
  x0 = 0, y0 = 0, x1 = INFINITY, y1 = 10;
  g_assert_false (sl_mask_clip (W, H, &x0, &y0, &x1, &y1));

  /* across the mask: ends on its margin, on the same line */
  x0 = -1e9, y0 = 10, x1 = 1e9, y1 = 10;
  g_assert_true (sl_mask_clip (W, H, &x0, &y0, &x1, &y1));
  g_assert_cmpfloat_with_epsilon (x0, -1, 1e-6);
  g_assert_cmpfloat_with_epsilon (x1, W, 1e-6);
  g_assert_cmpfloat (y0, ==, 10);
  x0 = 100, y0 = -1000, x1 = 110, y1 = 1000;
  g_assert_true (sl_mask_clip (W, H, &x0, &y0, &x1, &y1));
  g_assert_cmpfloat_with_epsilon (y0, -1, 1e-6);
  g_assert_cmpfloat_with_epsilon (x0, 100 + 10 * 999.0 / 2000, 1e-6);
  g_assert_cmpfloat_with_epsilon (y1, H, 1e-6);
}

typedef struct
{
  guint8           *mask;
  const SlMaskLine *lines;
  gsize             n;
  gboolean          aa;
  const int        *cuts;
} Bands;

static void
band_cb (guint    i,
         gpointer data)
{
  Bands *b = data;

  sl_mask_lines (b->mask, W, W, b->lines, b->n, b->aa, b->cuts[i], b->cuts[i + 1]);
}

/* A mask drawn a band at a time, on several threads, is the mask drawn
 * whole, byte for byte: random lines of every slope, many outside or
 * across the edges, wide and thin, in bands of random heights. */
static void
test_bands (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 300; round++)
    {
      g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (SlMaskLine));
      g_autofree guint8 *whole = new_mask ();
      g_autofree guint8 *banded = new_mask ();
      int cuts[H + 1], n_cuts = 0;
      guint n = g_rand_int_range (rand, 1, 120);
      gboolean aa = g_rand_boolean (rand);
      Bands b;

      for (guint i = 0; i < n; i++)
        {
          double x0 = g_rand_double_range (rand, -80, W + 80), y0 = g_rand_double_range (rand, -80, H + 80);
          double x1, y1;

          switch (g_rand_int_range (rand, 0, 4))
            {
            case 0: /* steep */
              x1 = x0 + g_rand_double_range (rand, -8, 8), y1 = g_rand_double_range (rand, -80, H + 80);
              break;
            case 1: /* shallow */
              x1 = g_rand_double_range (rand, -80, W + 80), y1 = y0 + g_rand_double_range (rand, -8, 8);
              break;
            case 2: /* horizontal */
              x1 = g_rand_double_range (rand, -80, W + 80), y1 = y0;
              break;
            default:
              x1 = g_rand_double_range (rand, -80, W + 80), y1 = g_rand_double_range (rand, -80, H + 80);
            }
          add_line (lines, x0, y0, x1, y1, (guint8) g_rand_int_range (rand, 1, 256), g_rand_boolean (rand));
        }
      draw_all (whole, (SlMaskLine *) lines->data, lines->len, aa);

      cuts[n_cuts++] = 0;
      while (cuts[n_cuts - 1] < H)
        {
          int next = cuts[n_cuts - 1] + g_rand_int_range (rand, 1, 40);

          cuts[n_cuts++] = MIN (next, H);
        }
      b.mask = banded;
      b.lines = (SlMaskLine *) lines->data;
      b.n = lines->len;
      b.aa = aa;
      b.cuts = cuts;
      sl_parallel_for ((guint) n_cuts - 1, band_cb, &b);
      g_assert_cmpmem (whole, W * H, banded, W * H);
      /* and something was drawn, most of the time */
      if (round == 0)
        g_assert_cmpuint (count_set (whole), >, 0);
    }
  g_rand_free (rand);
}

/* The rasterizer's definition, one pixel at a time with every check:
 * pixel centres at .5; the major axis stepped from the nearest pixel of
 * the start to that of the end; the minor coordinate from the start at
 * each step; the nearest pixel, or Wu's two (three when wide); coverage
 * a over a pixel d gives d + (255 − d) · a / 255. */
static void
ref_put (guint8 *mask,
         int     x,
         int     y,
         guint   a)
{
  if (x < 0 || x >= W || y < 0 || y >= H || a == 0)
    return;
  mask[y * W + x] = (guint8) (mask[y * W + x] + ((255 - mask[y * W + x]) * a) / 255);
}

static void
ref_line (guint8           *mask,
          const SlMaskLine *l,
          gboolean          aa)
{
  double x0 = l->x0 - 0.5, y0 = l->y0 - 0.5, x1 = l->x1 - 0.5, y1 = l->y1 - 0.5, g, base, t;
  gboolean steep = fabs (y1 - y0) > fabs (x1 - x0);
  int xs, xe;

  if (steep)
    {
      t = x0, x0 = y0, y0 = t;
      t = x1, x1 = y1, y1 = t;
    }
  if (x0 > x1)
    {
      t = x0, x0 = x1, x1 = t;
      t = y0, y0 = y1, y1 = t;
    }
  g = x1 > x0 ? (y1 - y0) / (x1 - x0) : 0;
  xs = (int) floor (x0 + 0.5);
  xe = (int) floor (x1 + 0.5);
  base = y0 + g * (xs - x0);
  for (int k = xs; k <= xe; k++)
    {
      double inter = base + g * (k - xs);
      int m = (int) floor (aa ? inter : inter + 0.5);
      double f = inter - m;
      guint c[3] = { l->alpha, 0, 0 };

      if (aa)
        {
          c[0] = (guint) ((1 - f) * l->alpha + 0.5);
          c[1] = l->wide ? l->alpha : (guint) (f * l->alpha + 0.5);
          c[2] = l->wide ? (guint) (f * l->alpha + 0.5) : 0;
        }
      else if (l->wide)
        c[1] = l->alpha;
      for (int j = 0; j < 3; j++)
        ref_put (mask, steep ? m + j : k, steep ? k : m + j, c[j]);
    }
}

/* The drawn masks are the definition's, byte for byte, for random lines
 * of every kind (the rasterizer has a loop per orientation that checks
 * only the coordinate that can leave the band or the mask) */
static void
test_reference (void)
{
  GRand *rand = g_rand_new_with_seed (19);

  for (guint round = 0; round < 400; round++)
    {
      g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (SlMaskLine));
      g_autofree guint8 *got = new_mask ();
      g_autofree guint8 *want = new_mask ();
      gboolean aa = round % 2;
      guint n = g_rand_int_range (rand, 1, 60);

      for (guint i = 0; i < n; i++)
        {
          double x0 = g_rand_double_range (rand, -40, W + 40), y0 = g_rand_double_range (rand, -40, H + 40);
          double x1 = g_rand_double_range (rand, -40, W + 40), y1 = g_rand_double_range (rand, -40, H + 40);

          switch (i % 4)
            {
            case 0: /* nearly vertical */
              x1 = x0 + g_rand_double_range (rand, -3, 3);
              break;
            case 1: /* nearly flat */
              y1 = y0 + g_rand_double_range (rand, -0.01, 0.01);
              break;
            default:
              break;
            }
          add_line (lines, x0, y0, x1, y1, (guint8) g_rand_int_range (rand, 1, 256), g_rand_boolean (rand));
        }
      draw_all (got, (SlMaskLine *) lines->data, lines->len, aa);
      for (guint i = 0; i < lines->len; i++)
        ref_line (want, &g_array_index (lines, SlMaskLine, i), aa);
      g_assert_cmpmem (got, W * H, want, W * H);
      if (round < 2)
        g_assert_cmpuint (count_set (got), >, 0);
    }
  g_rand_free (rand);
}

/* Lines far outside, or not clipped at all, draw nothing and do not crash */
static void
test_hostile (void)
{
  g_autofree guint8 *mask = new_mask ();
  SlMaskLine l[3] = {
    { -1e30f, 5, 1e30f, 6, 255, 0 },
    { 5, -1e9f, 6, 1e9f, 255, 1 },
    { NAN, 0, 3, 3, 255, 0 },
  };

  sl_mask_lines (mask, W, W, l, G_N_ELEMENTS (l), TRUE, 0, H);
  sl_mask_lines (mask, W, W, l, G_N_ELEMENTS (l), FALSE, 0, H);
  g_assert_cmpuint (count_set (mask), ==, 0);
  /* an empty band */
  sl_mask_lines (mask, W, W, l, G_N_ELEMENTS (l), FALSE, 10, 10);
}

static void
sum_cb (guint    i,
        gpointer data)
{
  gint *hits = data;

  g_atomic_int_inc (&hits[i]);
}

/* Every index exactly once, with helpers and without */
static void
test_parallel_for (void)
{
  guint helpers = sl_parallel_get_helpers ();

  for (guint mode = 0; mode < 2; mode++)
    {
      sl_parallel_set_helpers (mode == 0 ? 0 : MAX (helpers, 1));
      for (guint n = 0; n < 300; n += 1 + n / 4)
        for (guint rep = 0; rep < 20; rep++)
          {
            g_autofree gint *hits = g_new0 (gint, MAX (n, 1));

            sl_parallel_for (n, sum_cb, hits);
            for (guint i = 0; i < n; i++)
              g_assert_cmpint (hits[i], ==, 1);
          }
    }
  sl_parallel_set_helpers (helpers);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mask-raster/geometry", test_geometry);
  g_test_add_func ("/mask-raster/clip", test_clip);
  g_test_add_func ("/mask-raster/bands", test_bands);
  g_test_add_func ("/mask-raster/reference", test_reference);
  g_test_add_func ("/mask-raster/hostile", test_hostile);
  g_test_add_func ("/mask-raster/parallel-for", test_parallel_for);

  return g_test_run ();
}
