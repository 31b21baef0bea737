/* test-plots.c: per-link PNG and SVG plots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <glib/gstdio.h>

#include "sl-engine.h"
#include "sl-lttv-text.h"
#include "sl-plot.h"
#include "sl-report.h"
#include "sl-segments.h"
#include "sl-units.h"
#include "plot-test-util.h"
#include "test-util.h"

#define SEC G_GINT64_CONSTANT (1000000000)

static char *
make_tmp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("sl-plots-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

/* An opaque PNG loads as RGB24, whose top byte is undefined. */
static gboolean
near_rgb (guint32 pixel,
          guint32 rgb)
{
  for (int shift = 0; shift < 24; shift += 8)
    {
      int a = (pixel >> shift) & 0xff;
      int b = (rgb >> shift) & 0xff;

      if (ABS (a - b) > 2)
        return FALSE;
    }
  return TRUE;
}

static cairo_surface_t *
load_png (const char *path)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, SL_PLOT_WIDTH);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, SL_PLOT_HEIGHT);
  return s;
}

typedef struct
{
  guint elements;
  guint paths;
} SvgCounts;

static void
svg_start_cb (GMarkupParseContext  *context,
              const char           *element,
              const char          **names,
              const char          **values,
              gpointer              user_data,
              GError              **error)
{
  SvgCounts *c = user_data;

  c->elements++;
  if (g_str_equal (element, "path"))
    c->paths++;
}

static void
check_svg (const char *path)
{
  static const GMarkupParser parser = { svg_start_cb, NULL, NULL, NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  SvgCounts counts = { 0 };
  GMarkupParseContext *ctx;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "<svg"));
  ctx = g_markup_parse_context_new (&parser, 0, &counts, NULL);
  g_assert_true (g_markup_parse_context_parse (ctx, text, len, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
  g_assert_no_error (error);
  g_markup_parse_context_free (ctx);
  g_assert_cmpuint (counts.paths, >, 5);
}

static void
test_lttv (void)
{
  g_autofree char *data = sl_test_data_path ("lttv-sync-cases", "test1.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  SlEngineOptions o;
  SlEngine *e;
  GDir *d;
  const char *name;
  guint n_png = 0, n_svg = 0;

  if (data == NULL)
    return;

  sl_engine_options_init (&o);
  o.max_drift = 0.5;
  e = sl_engine_new (&o);
  g_assert_true (sl_lttv_text_load (e, data, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sl_engine_get_n_links (e), >=, 1);

  dir = make_tmp_dir ();
  out = g_build_filename (dir, "new", "plots", NULL);
  g_assert_true (sl_plot_links (e, out, &error));
  g_assert_no_error (error);

  d = g_dir_open (out, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (out, name, NULL);

      g_assert_nonnull (strstr (name, "--"));
      if (g_str_has_suffix (name, ".png"))
        {
          cairo_surface_destroy (load_png (path));
          n_png++;
        }
      else if (g_str_has_suffix (name, ".svg"))
        {
          check_svg (path);
          n_svg++;
        }
    }
  g_dir_close (d);
  g_assert_cmpuint (n_png, ==, sl_engine_get_n_links (e));
  g_assert_cmpuint (n_svg, ==, sl_engine_get_n_links (e));

  rm_rf (dir);
  sl_engine_free (e);
}

/* zulu's clock at alpha's (true) time t: 3 ms ahead, 50 ppm fast, and
 * with wander, its rate swinging by 2 ppm over 100 s. */
static gint64
zulu_time (gint64   t,
           gint64   t0,
           gboolean wander)
{
  double d = (double) (t - t0);

  return t + 3000000 + (gint64) (d * 50e-6) +
         (wander ? (gint64) (2e-6 * 100e9 / (2 * G_PI) * (1 - cos (2 * G_PI * d / 100e9))) : 0);
}

/* "zulu" is added first, so the engine's link runs zulu -> alpha and the
 * plot (alpha < zulu by name) must flip it. Latencies are 40-240 µs. */
static SlEngine *
make_synthetic_over (gboolean wander)
{
  GRand *rand = g_rand_new_with_seed (7);
  gint64 t0 = G_GINT64_CONSTANT (1400000000000000000);
  gint64 span = wander ? 300 * SEC : 10 * SEC;
  int n = wander ? 60000 : 6000;
  SlEngineOptions o;
  SlEngine *e;
  guint zulu, alpha;

  sl_engine_options_init (&o);
  e = sl_engine_new (&o);
  zulu = sl_engine_add_host (e, "zulu");
  alpha = sl_engine_add_host (e, "alpha/1");

  for (int i = 0; i < n; i++)
    {
      gint64 ta = t0 + (gint64) i * (span / n);
      gint64 lat = 40000 + g_rand_int_range (rand, 0, 200000);
      gboolean from_alpha = i % 2 == 0;
      SlMatch m;

      if (from_alpha)
        m = (SlMatch) { alpha, zulu, ta, zulu_time (ta + lat, t0, wander) };
      else
        m = (SlMatch) { zulu, alpha, zulu_time (ta, t0, wander), ta + lat };
      sl_engine_add_match (e, &m, m.recv_time);
    }
  g_rand_free (rand);
  return e;
}

static SlEngine *
make_synthetic (void)
{
  return make_synthetic_over (FALSE);
}

/* the band's shade (orange, 18 % opaque) over the white background */
#define BAND_ON_WHITE 0xfcecd5

/* The picture of link 0 as sl_plot_links() draws it: its legend and the
 * counts of the points beyond the hull panel's y range outside the panel,
 * off the data (the legend took the panel's corner that hid the fewest
 * points, hiding some still). Returns the hull panel. */
static SlPlotPanel
check_texts (SlEngine   *e,
             const char *what)
{
  g_autoptr(SlPlotData) data = sl_plot_data_build (e, 0);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, SL_PLOT_WIDTH, SL_PLOT_HEIGHT);
  cairo_t *cr = cairo_create (s);
  SlPlotLegendItem items[SL_PLOT_MAX_LEGEND];
  guint n = sl_plot_legend_items (data, "a", "b", items);
  SlPlotBeyond beyond;
  SlPlotPanel hull;
  SlPlotTexts texts;

  sl_plot_draw_link (cr, e, 0, &hull, &texts);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  for (guint i = 0; i < n; i++)
    g_free (items[i].text);
  sl_plot_count_beyond (data, hull.xmin, hull.xmax, hull.ymin, hull.ymax, &beyond);
  plot_check_texts (&texts, &hull, data, n + (beyond.n[0] > 0) + (beyond.n[1] > 0), what);
  return hull;
}

static void
check_synthetic (SlEngine *e)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *png = g_build_filename (dir, "alpha_1--zulu.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "alpha_1--zulu.svg", NULL);
  SlLinkInfo li;
  cairo_surface_t *s;
  const guchar *data;
  int w, h, stride;
  guint ordered = 0, inverted = 0, est_between = 0, band = 0;
  gboolean est_seen = FALSE;

  g_assert_cmpuint (sl_engine_get_n_links (e), ==, 1);
  sl_engine_get_link_info (e, 0, &li);
  g_assert_cmpint (li.quality, ==, SL_QUALITY_ACCURATE);

  g_assert_true (sl_plot_links (e, dir, &error));
  g_assert_no_error (error);
  check_texts (e, "synthetic");

  check_svg (svg);
  s = load_png (png);
  data = cairo_image_surface_get_data (s);
  w = cairo_image_surface_get_width (s);
  h = cairo_image_surface_get_height (s);
  stride = cairo_image_surface_get_stride (s);

  /* Per column: packets sent by alpha (a) lie above the estimate, which
   * lies above the packets sent by zulu. */
  for (int x = 0; x < w; x++)
    {
      int ab_lo = -1, ba_hi = h, est_hi = h, est_lo = -1, ab_hi = h, ba_lo = -1;

      for (int y = 0; y < h; y++)
        {
          guint32 px = *(const guint32 *) (data + y * stride + x * 4);

          if (near_rgb (px, SL_PLOT_RGB_AB))
            {
              ab_lo = MAX (ab_lo, y);
              ab_hi = MIN (ab_hi, y);
            }
          else if (near_rgb (px, SL_PLOT_RGB_BA))
            {
              ba_hi = MIN (ba_hi, y);
              ba_lo = MAX (ba_lo, y);
            }
          else if (near_rgb (px, SL_PLOT_RGB_ESTIMATE))
            {
              est_hi = MIN (est_hi, y);
              est_lo = MAX (est_lo, y);
              est_seen = TRUE;
            }
          else if (near_rgb (px, BAND_ON_WHITE))
            band++;
        }
      if (ab_lo < 0 || ba_lo < 0)
        continue;
      if (ab_lo < ba_hi)
        ordered++;
      if (ba_lo < ab_hi)
        inverted++;
      if (est_lo >= 0 && ab_lo < est_hi && est_lo < ba_hi)
        est_between++;
    }
  cairo_surface_destroy (s);

  g_assert_true (est_seen);
  g_assert_cmpuint (ordered, >, 500);
  g_assert_cmpuint (inverted, ==, 0);
  g_assert_cmpuint (est_between, >, 500);
  /* the guaranteed band is shaded around the estimate */
  g_assert_cmpuint (band, >, 10000);

  rm_rf (dir);
}

/* The accuracy panel's x is input time as the Changes and Links tables
 * count it: from the input's first match, on the merge's clock. "alpha" is
 * an hour ahead of "zulu" and the input time is zulu's clock (the merge
 * shifts alpha's by its coarse offset): counted from alpha's first point
 * on its own clock, every change read about −3600 s. */
static void
test_input_time (void)
{
  gint64 t0 = G_GINT64_CONSTANT (1400000000000000000), hour = 3600 * SEC;
  GRand *rand = g_rand_new_with_seed (3);
  g_autoptr(SlPlotData) data = NULL;
  SlEngineOptions o;
  SlJournal *journal;
  SlEngine *e;
  guint zulu, alpha, n = 0;
  gint64 first, last = 0;

  sl_engine_options_init (&o);
  e = sl_engine_new (&o);
  zulu = sl_engine_add_host (e, "zulu");
  alpha = sl_engine_add_host (e, "alpha");
  for (int i = 0; i < 2000; i++)
    {
      gint64 t = t0 + (gint64) i * (SEC / 200), lat = 40000 + g_rand_int_range (rand, 0, 100000);
      SlMatch m;

      if (i % 2 == 0)
        m = (SlMatch) { alpha, zulu, t + hour, t + lat };
      else
        m = (SlMatch) { zulu, alpha, t, t + lat + hour };
      last = MAX (m.send_host == zulu ? m.send_time : m.recv_time, last);
      sl_engine_add_match (e, &m, last);
      if (i % 200 == 199)
        sl_engine_flush (e);
    }
  g_rand_free (rand);
  first = sl_engine_get_first_input_time (e);
  /* zulu's clock: the first match's receive */
  g_assert_cmpint (first, >=, t0);
  g_assert_cmpint (first, <, t0 + SEC);
  data = sl_plot_data_build (e, 0);
  g_assert_cmpuint (data->a, ==, alpha);
  journal = sl_engine_get_journal (e);
  for (guint64 seq = sl_journal_get_first_seq (journal); seq < sl_journal_get_next_seq (journal); seq++)
    {
      const SlChange *c = sl_journal_get (journal, seq);

      if (c == NULL || c->kind != SL_CHANGE_LINK)
        continue;
      g_assert_cmpuint (n, <, data->accuracy->len);
      g_assert_cmpfloat (g_array_index (data->accuracy, SlPlotPoint, n).x, ==, (double) (c->input_time - first) / 1e9);
      n++;
    }
  g_assert_cmpuint (n, ==, data->accuracy->len);
  g_assert_cmpuint (n, >, 1);
  for (guint i = 0; i < n; i++)
    {
      double x = g_array_index (data->accuracy, SlPlotPoint, i).x;

      g_assert_cmpfloat (x, >=, 0);
      g_assert_cmpfloat (x, <=, (double) (last - first) / 1e9);
    }
  sl_engine_free (e);
}

static void
test_synthetic (void)
{
  SlEngine *e = make_synthetic ();

  check_synthetic (e);
  sl_engine_free (e);
}

/* A clock that wanders: many windows; drawn against its estimate, the
 * packets of each direction still lie on their side of it all along (a
 * straight estimate would cross them). */
static void
test_piecewise (void)
{
  SlEngine *e = make_synthetic_over (TRUE);

  g_assert_cmpuint (sl_segments_get_n_windows (sl_engine_get_link_segments (e, 0)), >, 1);
  check_synthetic (e);
  sl_engine_free (e);
}


/* Packets retransmitted 200 ms late: the y axis stays at the band's
 * scale and they are drawn at the hull panel's top edge (they were
 * clipped away unseen), the data counting them, the count outside the
 * panel. */
static void
test_beyond (void)
{
  SlEngine *e = make_synthetic_over (FALSE);
  gint64 t0 = G_GINT64_CONSTANT (1400000000000000000);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *png = g_build_filename (dir, "alpha_1--zulu.png", NULL);
  g_autoptr(SlPlotData) data = NULL;
  SlPlotBeyond beyond;
  SlPlotPanel hull;
  cairo_surface_t *s;
  const guchar *px;
  double ymin, ymax;
  guint edge = 0;

  /* alpha (1) sends, zulu receives 200 ms later than it should */
  for (int i = 1; i <= 5; i++)
    {
      gint64 ta = t0 + i * SEC + 1234567;
      SlMatch m = { 1, 0, ta, zulu_time (ta + 200 * G_GINT64_CONSTANT (1000000), t0, FALSE) };

      sl_engine_add_match (e, &m, m.recv_time);
    }
  sl_engine_flush (e);
  data = sl_plot_data_build (e, 0);
  sl_plot_hull_y_range (data, 0, data->x_end, &ymin, &ymax);
  sl_plot_count_beyond (data, 0, data->x_end, ymin, ymax, &beyond);
  g_test_message ("y from %.1f to %.1f µs; %u points above (to %.1f µs), %u below", ymin, ymax, beyond.n[0],
                  beyond.far[0], beyond.n[1]);
  g_assert_cmpfloat (ymax - ymin, <, 5000);
  g_assert_false (beyond.thinned);
  g_assert_cmpuint (beyond.n[0], ==, 5);
  g_assert_cmpfloat (beyond.far[0], >, 199000);

  hull = check_texts (e, "beyond");

  g_assert_true (sl_plot_links (e, dir, &error));
  g_assert_no_error (error);
  s = load_png (png);
  px = cairo_image_surface_get_data (s);
  /* the hull panel's top edge */
  for (int y = (int) hull.top; y < (int) hull.top + 8; y++)
    for (int x = 100; x < SL_PLOT_WIDTH - 30; x++)
      edge += near_rgb (*(const guint32 *) (px + y * cairo_image_surface_get_stride (s) + x * 4), SL_PLOT_RGB_AB);
  g_test_message ("%u pixels of alpha's colour at the top edge", edge);
  g_assert_cmpuint (edge, >, 20);
  cairo_surface_destroy (s);
  rm_rf (dir);
  sl_engine_free (e);
}

/* One-way traffic: no hull on one side, no estimate; still two files. */
static void
test_incomplete (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *png = g_build_filename (dir, "a--b.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "a--b.svg", NULL);
  gint64 t = G_GINT64_CONSTANT (1400000000000000000);
  SlEngineOptions o;
  SlEngine *e;

  sl_engine_options_init (&o);
  e = sl_engine_new (&o);
  sl_engine_add_host (e, "a");
  sl_engine_add_host (e, "b");
  for (int i = 0; i < 50; i++)
    {
      SlMatch m = { 0, 1, t + i * 1000000, t + i * 1000000 + 3600 * SEC };
      sl_engine_add_match (e, &m, m.recv_time);
    }

  g_assert_true (sl_plot_links (e, dir, &error));
  g_assert_no_error (error);
  cairo_surface_destroy (load_png (png));
  check_svg (svg);

  rm_rf (dir);
  sl_engine_free (e);
}

static void
test_unwritable (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *file = g_build_filename (dir, "a-file", NULL);
  g_autofree char *below = g_build_filename (file, "plots", NULL);
  SlEngine *e = make_synthetic ();

  g_assert_true (g_file_set_contents (file, "x", 1, NULL));

  g_assert_false (sl_plot_links (e, below, &error));
  g_assert_error (error, SL_ERROR, SL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, below));
  g_clear_error (&error);

  g_assert_false (sl_plot_links (e, file, &error));
  g_assert_error (error, SL_ERROR, SL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, file));

  rm_rf (dir);
  sl_engine_free (e);
}

/* A plot's title gives its numbers as the text report and the tables do:
 * "rate band 670.0 ppm, bound ±115.0 µs", never an exponent ("accuracy
 * 1.22e+03 ppm") nor zeros dropped ("±115 µs") */
static void
test_title (void)
{
  g_autoptr(GRegex) re = g_regex_new ("^alpha/1 \u2013 zulu: accurate, rate band ([0-9.]+) ppm, "
                                      "bound \u00b1([0-9.]+) (µs|ms), ([0-9]+) \\+ ([0-9]+) packets$",
                                      0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  SlEngine *e = make_synthetic ();
  g_autofree char *title = sl_plot_title (e, 0);
  g_autofree char *band = NULL;
  g_autofree char *bound = NULL;
  g_autofree char *want_band = NULL;
  g_autofree char *want_bound = NULL;
  SlReportLink rl;

  g_test_message ("%s", title);
  g_assert_null (strstr (title, "e+"));
  g_assert_true (g_regex_match (re, title, 0, &m));
  band = g_match_info_fetch (m, 1);
  bound = g_match_info_fetch (m, 2);
  sl_report_get_link (e, 0, &rl);
  want_band = sl_units_rate (rl.alpha_max - rl.alpha_min);
  want_bound = sl_units_size (rl.info.bound_ns);
  g_assert_true (g_str_has_prefix (want_band, band));
  g_assert_true (g_str_has_prefix (want_bound, bound));
  /* four significant digits, zeros kept (whole ppm from 1000) */
  g_assert_cmpuint (strlen (bound) - (strchr (bound, '.') != NULL) - strspn (bound, "0."), ==, 4);
  g_assert_cmpuint (strlen (band) - (strchr (band, '.') != NULL) - strspn (band, "0."), >=, 4);
  sl_engine_free (e);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plots/lttv", test_lttv);
  g_test_add_func ("/plots/synthetic", test_synthetic);
  g_test_add_func ("/plots/piecewise", test_piecewise);
  g_test_add_func ("/plots/beyond", test_beyond);
  g_test_add_func ("/plots/incomplete", test_incomplete);
  g_test_add_func ("/plots/unwritable", test_unwritable);
  g_test_add_func ("/plots/title", test_title);
  g_test_add_func ("/plots/input-time", test_input_time);

  ret = g_test_run ();

  /* Drop cairo's and fontconfig's font caches so that the leak checker
   * sees only ours. */
  cairo_debug_reset_static_data ();
  FcFini ();
  return ret;
}
