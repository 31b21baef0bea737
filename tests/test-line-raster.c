/* test-line-raster.c: the graph's hand-drawn lines and hosts against
 * brute force
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sl_line_raster_thick() gives each pixel the part of it a round-capped
 * segment covers, from the distance of the pixel's centre; here every
 * pixel is compared with its coverage counted on a 16 × 16 grid of
 * samples, which the one-pixel ramp approximates to within a few
 * hundredths (whole pixels in or out are exact). sl_line_raster_blit() is
 * compared with premultiplied "over" computed per pixel.
 */

#include "config.h"

#include <math.h>

#include "sl-line-raster.h"

#define W 64
#define H 48

/* covered fraction of pixel (px, py) by the capsule of radius r around
 * segment (x0, y0)–(x1, y1), counted on a grid */
static double
sampled_cover (double px,
               double py,
               double x0,
               double y0,
               double x1,
               double y1,
               double r)
{
  int in = 0;
  double dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy;

  for (int j = 0; j < 16; j++)
    for (int i = 0; i < 16; i++)
      {
        double sx = px + (i + 0.5) / 16, sy = py + (j + 0.5) / 16;
        double u = len2 > 0 ? ((sx - x0) * dx + (sy - y0) * dy) / len2 : 0;
        double qx, qy;

        u = CLAMP (u, 0, 1);
        qx = x0 + u * dx - sx;
        qy = y0 + u * dy - sy;
        if (qx * qx + qy * qy <= r * r)
          in++;
      }
  return in / 256.0;
}

static void
check_thick (double x0,
             double y0,
             double x1,
             double y1,
             double width)
{
  SlLineRaster raster;
  g_autofree guint32 *pixels = g_new0 (guint32, W * H);
  double worst = 0, total_drawn = 0, total_true = 0;

  sl_line_raster_wrap (&raster, (guint8 *) pixels, W, H);
  /* white, opaque: the pixel's alpha is its coverage */
  sl_line_raster_thick (&raster, x0, y0, x1, y1, width, 0xffffff, 1.0);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        double drawn = (pixels[y * W + x] >> 24) / 255.0;
        double truth = sampled_cover (x, y, x0, y0, x1, y1, width / 2);

        /* premultiplied white: every channel equals alpha */
        g_assert_cmpuint ((pixels[y * W + x] >> 16) & 0xff, ==, pixels[y * W + x] >> 24);
        if (truth == 0 || truth == 1)
          g_assert_cmpfloat_with_epsilon (drawn, truth, 0.5);
        worst = MAX (worst, fabs (drawn - truth));
        total_drawn += drawn;
        total_true += truth;
      }
  /* a one-pixel ramp against true area: within half a pixel anywhere, and
   * the ink in all within 5 % */
  g_assert_cmpfloat (worst, <=, 0.5);
  if (total_true > 0)
    g_assert_cmpfloat (fabs (total_drawn - total_true) / total_true, <=, 0.05);
  else
    g_assert_cmpfloat (total_drawn, ==, 0);
}

static void
test_thick_shapes (void)
{
  check_thick (5, 5, 50, 40, 3);         /* diagonal */
  check_thick (3.3, 20.7, 60.2, 22.1, 4); /* shallow */
  check_thick (30.5, 2.5, 31.5, 45.5, 2); /* steep */
  check_thick (20, 20, 20, 20, 8);       /* a dot: the round cap alone */
  check_thick (10, 10, 40, 10, 1.5);     /* horizontal, thin */
  check_thick (-40, -30, 100, 90, 5);    /* clipped at both ends */
  check_thick (-20, 60, 90, 70, 6);      /* wholly outside */
}

static void
test_thick_alpha (void)
{
  SlLineRaster raster;
  g_autofree guint32 *pixels = g_new0 (guint32, W * H);
  guint32 p;

  sl_line_raster_wrap (&raster, (guint8 *) pixels, W, H);
  /* a pixel fully covered, half transparent red over transparent */
  sl_line_raster_thick (&raster, 0, 10.5, 63, 10.5, 6, 0xff0000, 0.5);
  p = pixels[10 * W + 30];
  g_assert_cmpuint (p >> 24, >=, 126);
  g_assert_cmpuint (p >> 24, <=, 129);
  g_assert_cmpuint ((p >> 16) & 0xff, ==, p >> 24);
  g_assert_cmpuint (p & 0xffff, ==, 0);
  /* nothing far from it */
  g_assert_cmpuint (pixels[30 * W + 30], ==, 0);
}

/* premultiplied source over destination, per channel */
static guint32
over (guint32 s,
      guint32 d)
{
  guint inv = 255 - (s >> 24);
  guint32 out = 0;

  for (int c = 0; c < 32; c += 8)
    out |= ((((d >> c) & 0xff) * inv / 255 + ((s >> c) & 0xff)) & 0xff) << c;
  return out;
}

static void
test_blit (void)
{
  SlLineRaster raster;
  g_autofree guint32 *pixels = g_new (guint32, W * H);
  guint32 sprite[4 * 3];
  const guint32 back = 0xff204060;

  for (guint i = 0; i < W * H; i++)
    pixels[i] = back;
  for (guint i = 0; i < G_N_ELEMENTS (sprite); i++)
    sprite[i] = i % 3 == 0 ? 0 : i % 3 == 1 ? 0xffffffff : 0x80400000; /* clear, opaque white, half red */
  sl_line_raster_wrap (&raster, (guint8 *) pixels, W, H);
  /* partly outside the top left corner: clipped, not wrapped */
  sl_line_raster_blit (&raster, (const guint8 *) sprite, 4, 3, 16, -1, -1);
  sl_line_raster_blit (&raster, (const guint8 *) sprite, 4, 3, 16, 10, 20);

  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 4; i++)
      g_assert_cmphex (pixels[(20 + j) * W + 10 + i], ==, over (sprite[j * 4 + i], back));
  /* the clipped copy wrote its visible 3 × 2 only */
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 3; i++)
      g_assert_cmphex (pixels[j * W + i], ==, over (sprite[(j + 1) * 4 + i + 1], back));
  g_assert_cmphex (pixels[3], ==, back);
  g_assert_cmphex (pixels[2 * W], ==, back);
  g_assert_cmphex (pixels[W - 1], ==, back);
  g_assert_cmphex (pixels[(H - 1) * W], ==, back);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/line-raster/thick", test_thick_shapes);
  g_test_add_func ("/line-raster/thick-alpha", test_thick_alpha);
  g_test_add_func ("/line-raster/blit", test_blit);
  return g_test_run ();
}
