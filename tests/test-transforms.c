/* test-transforms.c: saved transforms (sync --save-transforms) read back
 * and applied (syncline-cli apply)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "sl-engine.h"
#include "sl-transforms-file.h"
#include "sl-trace-reader.h"
#include "sl-types.h"
#include "test-util.h"

typedef struct
{
  SlEngine *engine;
  GArray   *times;  /* gint64 */
  GArray   *hosts;  /* guint, engine host */
} Times;

static void
packet_cb (const SlPacketEvent *event,
           gint64               key,
           gpointer             user_data)
{
  Times *t = user_data;
  guint host = event->host;

  g_array_append_val (t->times, event->time);
  g_array_append_val (t->hosts, host);
  if (t->engine != NULL)
    sl_engine_add_packet (t->engine, event, key);
}

static SlEngine *
sync_folder (const char *folder,
             Times      *times)
{
  SlTraceReaderOptions ro;
  SlEngine *engine = sl_engine_new (NULL);
  g_autoptr(SlTraceReader) reader = NULL;

  sl_trace_reader_options_init (&ro);
  if (times != NULL)
    {
      ro.packet_func = packet_cb;
      ro.packet_data = times;
    }
  reader = sl_trace_reader_new (engine, &ro);
  sl_trace_reader_add_folder (reader, folder);
  g_assert_cmpint (sl_trace_reader_run (reader), ==, SL_TRACE_READER_DONE);
  return engine;
}

static void
assert_same_map (const SlRelation *a,
                 const SlRelation *b,
                 gint64            x)
{
  gint64 wa, wb;
  double fa, fb, ba = sl_relation_bound_at (a, x), bb = sl_relation_bound_at (b, x);

  sl_relation_apply_split (a, x, &wa, &fa);
  sl_relation_apply_split (b, x, &wb, &fb);
  g_assert_cmpint (wa, ==, wb);
  g_assert_cmpfloat (fa, ==, fb);
  g_assert_true (ba == bb || (isnan (ba) && isnan (bb)));
}

/* Every host of @saved has the very relation @engine has: the same pieces
 * and bounds bit for bit, the same image and bound at @times' every
 * packet event and at each piece's start and the instant before. */
static void
assert_same_as_engine (const SlTransformSet *saved,
                       SlEngine             *engine,
                       const Times          *times,
                       guint                *n_pieces_max)
{
  g_assert_cmpuint (sl_transform_set_get_n_hosts (saved), ==, sl_engine_get_n_hosts (engine));
  *n_pieces_max = 0;
  for (guint i = 0; i < sl_engine_get_n_hosts (engine); i++)
    {
      const SlSavedHost *h = sl_transform_set_lookup (saved, sl_engine_get_host_name (engine, i));
      SlHostInfo info = { 0 };
      guint checked = 0;

      g_assert_nonnull (h);
      sl_engine_get_host_info (engine, i, &info);
      g_assert_cmpstr (h->reference, ==, sl_engine_get_host_name (engine, info.reference));
      g_assert_cmpint (h->synchronized, ==, info.synchronized);
      g_assert_cmpint (h->best_effort, ==, info.best_effort);
      g_assert_cmpmem (&h->to_reference, sizeof (SlTransform), &info.to_reference, sizeof (SlTransform));
      g_assert_cmpuint (sl_relation_get_n_pieces (h->relation), ==, sl_relation_get_n_pieces (info.relation));
      g_assert_cmpuint (sl_relation_get_n_bounds (h->relation), ==, sl_relation_get_n_bounds (info.relation));
      g_assert_cmpint (sl_relation_get_bounded_beyond (h->relation), ==,
                       sl_relation_get_bounded_beyond (info.relation));
      g_assert_cmpmem (sl_relation_get_bounds (h->relation), sl_relation_get_n_bounds (h->relation) * sizeof (SlBoundPoint),
                       sl_relation_get_bounds (info.relation),
                       sl_relation_get_n_bounds (info.relation) * sizeof (SlBoundPoint));
      for (guint k = 0; k < sl_relation_get_n_pieces (h->relation); k++)
        {
          SlTransform ta, tb;
          gint64 sa = sl_relation_get_piece (h->relation, k, &ta);
          gint64 sb = sl_relation_get_piece (info.relation, k, &tb);

          g_assert_cmpint (sa, ==, sb);
          g_assert_cmpmem (&ta, sizeof ta, &tb, sizeof tb);
          if (k > 0)
            {
              assert_same_map (h->relation, info.relation, sa);
              assert_same_map (h->relation, info.relation, sa - 1);
            }
        }
      *n_pieces_max = MAX (*n_pieces_max, sl_relation_get_n_pieces (h->relation));
      for (guint e = 0; e < times->times->len; e++)
        if (g_array_index (times->hosts, guint, e) == i)
          {
            assert_same_map (h->relation, info.relation, g_array_index (times->times, gint64, e));
            checked++;
          }
      g_assert_cmpuint (checked, >, 100);
      sl_host_info_clear (&info);
    }
}

/* A clock step and wandering rates: several pieces per host. */
static const char *const piecewise_set[] = {
  "--host=a:1000000000:0:10:5:4", "--host=b:1000000000:5000000:-20:5:4",
  "--host=c:250000000:-7200000000000:33", "--step=b:2:300000",
  "--duration=6", "--background=200", "--cpus=2", NULL
};

/* Opening with saved transforms (the application's --transforms): an
 * engine given the file's relations (sl_transform_set_fix_engine(), as the
 * job does) reports them exactly, at every packet event of a second read,
 * and synchronizes none of the hosts again (no link). */
static void
test_fixed (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen = g_build_filename (tmp, "gen", NULL);
  g_autofree char *file = g_build_filename (tmp, "transforms.txt", NULL);
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlEngine) fixed = sl_engine_new (NULL);
  g_autoptr(SlTransformSet) set = NULL;
  g_autoptr(SlTransformSet) loaded = NULL;
  g_autoptr(SlTraceReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  SlTraceReaderOptions ro;
  Times times = { NULL, g_array_new (FALSE, FALSE, sizeof (gint64)), g_array_new (FALSE, FALSE, sizeof (guint)) };
  guint n_pieces = 0;

  run_generate (gen, piecewise_set);
  engine = sync_folder (gen, NULL);
  set = sl_transform_set_new_from_engine (engine);
  g_assert_true (sl_transform_set_save (set, file, &error));
  g_assert_no_error (error);
  loaded = sl_transform_set_load (file, &error);
  g_assert_no_error (error);

  sl_transform_set_fix_engine (loaded, fixed, "transforms.txt");
  sl_trace_reader_options_init (&ro);
  ro.packet_func = packet_cb;
  ro.packet_data = &times;
  times.engine = fixed;
  reader = sl_trace_reader_new (fixed, &ro);
  sl_trace_reader_add_folder (reader, gen);
  g_assert_cmpint (sl_trace_reader_run (reader), ==, SL_TRACE_READER_DONE);

  g_assert_cmpuint (sl_engine_get_n_links (fixed), ==, 0);
  g_assert_cmpuint (sl_engine_get_n_matches (fixed), >, 1000);
  for (guint i = 0; i < sl_engine_get_n_hosts (fixed); i++)
    {
      g_assert_cmpstr (sl_engine_get_host_fixed (fixed, i), ==, "transforms.txt");
      g_assert_true (sl_engine_host_is_synchronized (fixed, i));
    }
  assert_same_as_engine (loaded, fixed, &times, &n_pieces);
  g_test_message ("%u packet events checked, up to %u pieces", times.times->len, n_pieces);
  g_assert_cmpuint (n_pieces, >, 1);
  g_array_unref (times.times);
  g_array_unref (times.hosts);
  rm_rf (tmp);
}

static void
test_round_trip (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen = g_build_filename (tmp, "gen", NULL);
  g_autofree char *file = g_build_filename (tmp, "transforms.txt", NULL);
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlEngine) again = NULL;
  g_autoptr(SlTransformSet) set = NULL;
  g_autoptr(SlTransformSet) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;
  Times times = { NULL, g_array_new (FALSE, FALSE, sizeof (gint64)), g_array_new (FALSE, FALSE, sizeof (guint)) };
  guint n_pieces = 0;

  run_generate (gen, piecewise_set);
  engine = sync_folder (gen, NULL);
  set = sl_transform_set_new_from_engine (engine);
  g_assert_true (sl_transform_set_save (set, file, &error));
  g_assert_no_error (error);
  loaded = sl_transform_set_load (file, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);

  /* the packet events, in a second read (the engine of the first has
   * the relations) */
  again = sync_folder (gen, &times);
  g_assert_cmpuint (times.times->len, >, 1000);
  assert_same_as_engine (loaded, engine, &times, &n_pieces);
  g_test_message ("%u packet events checked, up to %u pieces", times.times->len, n_pieces);
  g_assert_cmpuint (n_pieces, >, 1);

  /* saving what was read writes the same text */
  text = sl_transform_set_to_string (set);
  text2 = sl_transform_set_to_string (loaded);
  g_assert_cmpstr (text, ==, text2);

  g_array_unref (times.times);
  g_array_unref (times.hosts);
  rm_rf (tmp);
}

/* Every metadata file below @a equals its copy below @b. */
static guint
compare_metadata (const char *a,
                  const char *b)
{
  g_autoptr(GDir) d = g_dir_open (a, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *pa = g_build_filename (a, name, NULL);
      g_autofree char *pb = g_build_filename (b, name, NULL);

      if (g_file_test (pa, G_FILE_TEST_IS_DIR))
        n += compare_metadata (pa, pb);
      else if (g_str_equal (name, "metadata"))
        {
          g_autofree char *ta = NULL;
          g_autofree char *tb = NULL;

          g_assert_true (g_file_get_contents (pa, &ta, NULL, NULL));
          g_assert_true (g_file_get_contents (pb, &tb, NULL, NULL));
          g_assert_cmpstr (ta, ==, tb);
          n++;
        }
    }
  return n;
}

/* apply --export with the saved transforms writes the traces sync
 * --export writes, without decoding them. */
static void
check_apply (const char *folder,
             const char *tmp)
{
  g_autofree char *file = g_build_filename (tmp, "transforms.txt", NULL);
  g_autofree char *ex1 = g_build_filename (tmp, "ex-sync", NULL);
  g_autofree char *ex2 = g_build_filename (tmp, "ex-apply", NULL);
  g_autofree char *save_arg = g_strdup_printf ("--save-transforms=%s", file);
  g_autofree char *ex1_arg = g_strdup_printf ("--export=%s", ex1);
  g_autofree char *ex2_arg = g_strdup_printf ("--export=%s", ex2);
  g_autofree char *tr_arg = g_strdup_printf ("--transforms=%s", file);
  Run r = { 0 };

  run_cli (&r, "sync", "--no-progress", save_arg, ex1_arg, folder, NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  run_cli (&r, "apply", tr_arg, ex2_arg, folder, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "on another host's clock"));
  g_assert_cmpstr (r.err, ==, "");
  run_clear (&r);
  g_assert_cmpuint (compare_metadata (ex1, ex2), >=, 2);

  /* a host the file does not name keeps its clock, with a warning */
  {
    g_autofree char *text = NULL;
    g_autofree char *ex3 = g_build_filename (tmp, "ex-partial", NULL);
    g_autofree char *ex3_arg = g_strdup_printf ("--export=%s", ex3);
    char *second;

    g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
    second = strstr (strstr (text, "\nhost ") + 1, "\nhost ");
    g_assert_nonnull (second);
    second[1] = '\0';
    g_assert_true (g_file_set_contents (file, text, -1, NULL));
    run_cli (&r, "apply", tr_arg, ex3_arg, folder, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.err, "names no such host; its clock is kept"));
    run_clear (&r);
  }
}

static void
test_apply_generated (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen = g_build_filename (tmp, "gen", NULL);
  const char *extra[] = { "--hosts=3", "--duration=3", "--background=100", "--cpus=2", NULL };

  run_generate (gen, extra);
  check_apply (gen, tmp);
  rm_rf (tmp);
}

static void
test_apply_synctraces (void)
{
  g_autofree char *data = sl_test_data_path ("traces", "synctraces", NULL);
  g_autofree char *tmp = NULL;

  if (data == NULL)
    return;
  tmp = make_tmpdir ();
  check_apply (data, tmp);
  rm_rf (tmp);
}

static const char good_host[] =
  "host \"b\"\n"
  "  reference \"a\"\n"
  "  state synchronized\n"
  "  export 100 200 1/2^1 -3/2^20\n"
  "  piece - 100 200 1/2^1 -3/2^20\n"
  "  piece 500 500 600 0 5*2^0\n"
  "  bound 100 7\n"
  "  beyond bounded\n"
  "end\n";

static void
test_bad_files (void)
{
  static const struct
  {
    const char *text;
    guint       line;
    const char *what;
  } cases[] = {
    { "", 1, "empty" },
    { "hello\n", 1, "not a Syncline transforms file" },
    { "syncline-transforms\n", 1, "expected" },
    { "syncline-transforms 2\n", 1, "newer than this Syncline" },
    { "# c\n\nsyncline-transforms 1\nend\n", 4, "outside a host" },
    { "syncline-transforms 1\nhost b\n", 2, "quoted name" },
    { "syncline-transforms 1\nhost \"b\n", 2, "closing quote" },
    { "syncline-transforms 1\nhost \"b\"\n  reference \"a\"\n\n", 3, "no end line" },
    { "syncline-transforms 1\nhost \"b\"\n  colour blue\nend\n", 3, "unknown line" },
    { "syncline-transforms 1\nhost \"b\"\n  state great\n", 3, "state" },
    { "syncline-transforms 1\nhost \"b\"\n  piece 5 1 2 0 0\n", 3, "first piece starts at" },
    { "syncline-transforms 1\nhost \"b\"\n  piece - 1 2 0.5 0\n", 3, "not an exact number" },
    { "syncline-transforms 1\nhost \"b\"\n  piece - 1 2 1 0\n", 3, "[0, 1)" },
    { "syncline-transforms 1\nhost \"b\"\n  piece - 1 2 0 -1\n", 3, "above −1" },
    { "syncline-transforms 1\nhost \"b\"\n  piece - 1 2 0\n", 3, "drift missing" },
    { "syncline-transforms 1\nhost \"b\"\n  piece - 99999999999999999999 2 0 0\n", 3, "not a 64-bit integer" },
    { "syncline-transforms 1\nhost \"b\"\n  piece - 1 2 0 0\n  piece 9 1 2 0 0\n  piece 9 1 2 0 0\n", 5,
      "starts must increase" },
    { "syncline-transforms 1\nhost \"b\"\n  bound 5 1\n  bound 5 2\n", 4, "instants must increase" },
    { "syncline-transforms 1\nhost \"b\"\n  bound 5 -1\n", 3, "at least 0" },
    { "syncline-transforms 1\nhost \"b\"\n  bound 5 1*2^1100\n", 3, "too large" },
    { "syncline-transforms 1\nhost \"b\"\n  reference \"a\"\n  state alone\n  beyond bounded\nend\n", 6,
      "no export line" },
  };
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *file = g_build_filename (tmp, "t.txt", NULL);
  g_autofree char *good = g_strconcat ("syncline-transforms 1\n", good_host, NULL);
  g_autofree char *twice = g_strconcat ("syncline-transforms 1\n", good_host, good_host, NULL);
  g_autoptr(SlTransformSet) set = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *prefix = g_strdup_printf ("%s:%u: ", file, cases[i].line);

      g_assert_true (g_file_set_contents (file, cases[i].text, -1, NULL));
      g_assert_null (sl_transform_set_load (file, &error));
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, prefix));
      g_assert_nonnull (strstr (error->message, cases[i].what));
      g_clear_error (&error);
    }

  /* the good one reads, exactly */
  g_assert_true (g_file_set_contents (file, good, -1, NULL));
  set = sl_transform_set_load (file, &error);
  g_assert_no_error (error);
  {
    const SlSavedHost *h = sl_transform_set_lookup (set, "b");
    SlTransform t;

    g_assert_nonnull (h);
    g_assert_cmpstr (h->reference, ==, "a");
    g_assert_cmpfloat (h->to_reference.image_frac, ==, 0.5);
    g_assert_cmpfloat (h->to_reference.drift, ==, -3.0 / 1048576);
    g_assert_cmpuint (sl_relation_get_n_pieces (h->relation), ==, 2);
    g_assert_cmpint (sl_relation_get_piece (h->relation, 1, &t), ==, 500);
    g_assert_cmpfloat (t.drift, ==, 5);
    {
      gint64 whole;
      double frac;

      sl_relation_apply_split (h->relation, 100, &whole, &frac);
      g_assert_cmpint (whole, ==, 200);
      g_assert_cmpfloat (frac, ==, 0.5);
    }
  }

  /* a host twice */
  g_assert_true (g_file_set_contents (file, twice, -1, NULL));
  g_assert_null (sl_transform_set_load (file, &error));
  g_assert_true (g_str_has_prefix (error->message, file));
  g_assert_nonnull (strstr (error->message, ":11: host “b” a second time"));
  g_clear_error (&error);

  /* binary data, a folder, nothing */
  g_assert_true (g_file_set_contents (file, "syncline-transforms 1\n\0\1", 24, NULL));
  g_assert_null (sl_transform_set_load (file, &error));
  g_assert_nonnull (strstr (error->message, "binary data"));
  g_clear_error (&error);
  g_assert_null (sl_transform_set_load (tmp, &error));
  g_assert_true (g_str_has_prefix (error->message, tmp));
  g_clear_error (&error);
  g_unlink (file);
  g_assert_null (sl_transform_set_load (file, &error));
  g_assert_true (g_str_has_prefix (error->message, file));
  g_clear_error (&error);

  /* the CLI: one line naming the file and line, status 2 */
  {
    g_autofree char *arg = g_strdup_printf ("--transforms=%s", file);
    g_autofree char *ex = g_strdup_printf ("--export=%s/ex", tmp);
    g_autofree char *expect = g_strdup_printf ("syncline-cli: %s:3: state: expected", file);
    Run r = { 0 };

    g_assert_true (g_file_set_contents (file, "syncline-transforms 1\nhost \"b\"\n  state great\n", -1, NULL));
    run_cli (&r, "apply", arg, ex, tmp, NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_true (g_str_has_prefix (r.err, expect));
    g_assert_cmpuint (count_lines (r.err), ==, 1);
    run_clear (&r);
  }
  rm_rf (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transforms/round-trip", test_round_trip);
  g_test_add_func ("/transforms/fixed", test_fixed);
  g_test_add_func ("/transforms/bad-files", test_bad_files);
  g_test_add_func ("/transforms/apply/generated", test_apply_generated);
  g_test_add_func ("/transforms/apply/synctraces", test_apply_synctraces);
  return g_test_run ();
}
