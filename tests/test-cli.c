/* test-cli.c: syncline-cli as users run it, good and hostile input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "test-util.h"

/* A failure is one line on stderr naming the culprit, exit status 2. */
static void
assert_clean_error (Run        *r,
                    const char *needle)
{
  g_assert_cmpint (r->status, ==, 2);
  g_assert_true (g_str_has_prefix (r->err, "syncline-cli: "));
  g_assert_cmpuint (strlen (r->err), >, 16);
  g_assert_true (strchr (r->err, '\n') == r->err + strlen (r->err) - 1);
  if (needle != NULL && strstr (r->err, needle) == NULL)
    g_error ("error “%s” does not mention “%s”", r->err, needle);
}

static char *
write_temp (const char *contents,
            gssize      len)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("sl-cli-XXXXXX.txt", &path, &error);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, contents, len, &error));
  g_assert_no_error (error);
  close (fd);
  return path;
}

static void
test_bad_usage (void)
{
  Run r = { 0 };

  run_cli (&r, "sync", "--bogus", NULL);
  assert_clean_error (&r, "--bogus");
  run_clear (&r);

  run_cli (&r, "frobnicate", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "frobnicate"));
  run_clear (&r);

  run_cli (&r, "sync", NULL);
  assert_clean_error (&r, "INPUT");
  run_clear (&r);

  run_cli (&r, "sync", "--algorithm=magic", "/dev/null", NULL);
  assert_clean_error (&r, "magic");
  run_clear (&r);

  run_cli (&r, "sync", "--tree=forest", "/dev/null", NULL);
  assert_clean_error (&r, "forest");
  run_clear (&r);

  run_cli (&r, "sync", "--max-drift-ppm=-3", "/dev/null", NULL);
  assert_clean_error (&r, "--max-drift-ppm");
  run_clear (&r);

  run_cli (&r, "sync", "--tree-margin=-1", "/dev/null", NULL);
  assert_clean_error (&r, "--tree-margin");
  run_clear (&r);

  run_cli (&r, "live", "--tree-margin=nan", "net://localhost", NULL);
  assert_clean_error (&r, "--tree-margin");
  run_clear (&r);

  run_cli (&r, "sync", "/nonexistent/trace", NULL);
  assert_clean_error (&r, "/nonexistent/trace");
  run_clear (&r);

  run_cli (&r, "sync", "/", NULL);
  assert_clean_error (&r, "/");
  run_clear (&r);

  run_cli (&r, "bench", "nothing", NULL);
  assert_clean_error (&r, "nothing");
  run_clear (&r);
}

static void
test_hostile_inputs (void)
{
  static const struct
  {
    const char *contents;
    gssize      len;
    const char *needle;
  } cases[] = {
    { "", 0, "empty" },
    { "# only a comment\n", -1, "empty" },
    { "two\n0 1 1 2\n", -1, ":1:" },
    { "0\n", -1, ":1:" },
    { "99999999999999999999\n", -1, ":1:" },
    { "2\n0 1 1.0\n", -1, ":2:" },
    { "2\n0 7 1.0 2.0\n", -1, ":2:" },
    { "2\n0 1 nan 2.0\n", -1, ":2:" },
    { "2\n0 1 1e400 2.0\n", -1, ":2:" },
    { "2\n0 1 99999999999.5 2.0\n", -1, ":2:" },
    { "2\n1 1 1.0 2.0\n", -1, "itself" },
    { "2\n0 1 1.0 2.0 3.0\n", -1, ":2:" },
    { "2\n\0\1\2\3", 6, "not a text" },
    { "2\n0 1 \xff\xfe 2\n", -1, "not a text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_temp (cases[i].contents, cases[i].len);
      Run r = { 0 };

      run_cli (&r, "sync", "--input-format=lttv-text", path, NULL);
      g_test_message ("case %u: %s", i, r.err);
      assert_clean_error (&r, cases[i].needle);
      g_assert_nonnull (strstr (r.err, path));
      run_clear (&r);

      /* without the format flag, anything that does not look like LTTV
       * text is refused up front, also with a clear line */
      run_cli (&r, "sync", path, NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, path));
      run_clear (&r);
      g_unlink (path);
    }

  /* an unknown --reference is refused by name */
  {
    g_autofree char *path = write_temp ("2\n0 1 1.0 2.0\n1 0 3.0 4.0\n", -1);
    Run r = { 0 };

    run_cli (&r, "sync", "--reference=db", path, NULL);
    assert_clean_error (&r, "db");
    run_clear (&r);
    g_unlink (path);
  }
}

static void
test_json_schema (void)
{
  g_autofree char *path = sl_test_data_path ("lttv-sync-cases", "test1.txt", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *host1 = NULL, *tr, *link;
  JsonArray *hosts, *links, *comps, *journal;
  Run r = { 0 };

  if (path == NULL)
    return;

  run_cli (&r, "sync", "--json", "--journal=full", "--profiles=full", "--max-drift-ppm=500000", "--reference=0", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = parse_object (r.out, parser);

  hosts = json_object_get_array_member (root, "hosts");
  g_assert_cmpuint (json_array_get_length (hosts), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *h = json_array_get_object_element (hosts, i);
      if (g_str_equal (json_object_get_string_member (h, "name"), "1"))
        host1 = h;
      g_assert_cmpstr (json_object_get_string_member (h, "reference"), ==, "0");
      g_assert_true (json_object_get_boolean_member (h, "synchronized"));
      g_assert_cmpstr (json_object_get_string_member (h, "reason"), ==, "");
      g_assert_true (json_object_has_member (h, "bound_ns"));
      g_assert_true (json_object_has_member (h, "path"));
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (h, "pieces")), >=, 1);
      g_assert_true (json_object_has_member (h, "bound_span"));
    }
  g_assert_nonnull (host1);
  tr = json_object_get_object_member (host1, "transform");
  /* LTTV: trace 1 drift= 1.02384 offset= -6.74347e+09 */
  g_assert_cmpfloat (fabs (json_object_get_double_member (tr, "slope") - 1.02384), <, 1e-5);
  g_assert_cmpfloat (fabs (json_object_get_double_member (tr, "offset_ns") + 6.74347e9), <, 1e5);
  g_assert_cmpfloat (fabs (g_ascii_strtod (json_object_get_string_member (tr, "slope_exact"), NULL) - 1.02384), <, 1e-5);
  g_assert_true (json_object_has_member (tr, "offset_ns_exact"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (host1, "path")), ==, 2);

  links = json_object_get_array_member (root, "links");
  g_assert_cmpuint (json_array_get_length (links), ==, 1);
  link = json_array_get_object_element (links, 0);
  g_assert_cmpstr (json_object_get_string_member (link, "a"), ==, "0");
  g_assert_cmpstr (json_object_get_string_member (link, "b"), ==, "1");
  g_assert_cmpstr (json_object_get_string_member (link, "quality"), ==, "accurate");
  g_assert_cmpint (json_object_get_int_member (link, "matches"), ==, 4);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (link, "hull_points")), ==, 2);
  g_assert_cmpfloat (fabs (json_object_get_double_member (link, "alpha_min") - 0.850575), <, 1e-5);
  g_assert_cmpfloat (fabs (json_object_get_double_member (link, "alpha_max") - 1.121049), <, 1e-5);
  g_assert_true (json_object_get_boolean_member (link, "in_tree"));
  g_assert_cmpint (json_object_get_int_member (link, "inversions_after_sync"), ==, 0);
  g_assert_cmpfloat (json_object_get_double_member (link, "weight"), >, 0);
  g_assert_true (json_object_has_member (link, "alpha"));
  g_assert_true (json_object_has_member (link, "beta"));
  /* LTTV's case is one window: one piece, its hull's estimate */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (link, "windows")), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (link, "pieces")), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (link, "failures")), ==, 0);
  /* the drifts shown are estimates: LTTV's lies within what the bounds
   * guarantee, which holds every slope the link's hull admits (its
   * window relaxes them) */
  {
    JsonObject *start = json_object_get_object_member (host1, "start");

    g_assert_cmpfloat (json_object_get_double_member (start, "drift_min_ppm"), <=, 23840);
    g_assert_cmpfloat (json_object_get_double_member (start, "drift_max_ppm"), >=, 23840);
    g_assert_cmpfloat (json_object_get_double_member (start, "drift_min_ppm"), <, json_object_get_double_member (start, "drift_ppm"));
    g_assert_cmpfloat (json_object_get_double_member (link, "drift_min_ppm"), <=, (0.850575 - 1) * 1e6);
    g_assert_cmpfloat (json_object_get_double_member (link, "drift_max_ppm"), >=, (1.121049 - 1) * 1e6);
    g_assert_cmpfloat (json_object_get_double_member (link, "drift_max_ppm"), <, 200000);
  }

  comps = json_object_get_array_member (root, "components");
  g_assert_cmpuint (json_array_get_length (comps), ==, 1);
  journal = json_object_get_array_member (root, "journal");
  g_assert_cmpuint (json_array_get_length (journal), >=, 3);
  run_clear (&r);

  /* by default the journal is summarized; none leaves it out */
  {
    g_autoptr(JsonParser) p2 = json_parser_new ();
    g_autoptr(JsonParser) p3 = json_parser_new ();
    JsonObject *summary;

    run_cli (&r, "sync", "--json", "--max-drift-ppm=500000", "--reference=0", path, NULL);
    g_assert_cmpint (r.status, ==, 0);
    root = parse_object (r.out, p2);
    g_assert_false (json_object_has_member (root, "journal"));
    summary = json_object_get_object_member (root, "journal_summary");
    g_assert_cmpint (json_object_get_int_member (summary, "entries"), ==, json_array_get_length (journal));
    /* and the profiles are compact, the links' left out with the windows */
    link = json_array_get_object_element (json_object_get_array_member (root, "links"), 0);
    g_assert_false (json_object_has_member (link, "windows"));
    g_assert_false (json_object_has_member (link, "bound_profile"));
    host1 = json_array_get_object_element (json_object_get_array_member (root, "hosts"), 1);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (host1, "bound_profile")), <=,
                      8 /* SL_REPORT_COMPACT_POINTS */);
    run_clear (&r);

    run_cli (&r, "sync", "--json", "--journal=none", "--max-drift-ppm=500000", path, NULL);
    g_assert_cmpint (r.status, ==, 0);
    root = parse_object (r.out, p3);
    g_assert_false (json_object_has_member (root, "journal"));
    g_assert_false (json_object_has_member (root, "journal_summary"));
    g_assert_true (json_object_has_member (root, "links"));
    run_clear (&r);

    run_cli (&r, "sync", "--json", "--journal=all", path, NULL);
    assert_clean_error (&r, "--journal");
    run_clear (&r);
    run_cli (&r, "sync", "--json", "--profiles=exact", path, NULL);
    assert_clean_error (&r, "--profiles");
    run_clear (&r);
  }

  /* The text report says the same in words. */
  run_cli (&r, "sync", "--max-drift-ppm=500000", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "0 - 1: accurate"));
  g_assert_nonnull (strstr (r.out, "in tree"));
  run_clear (&r);

  /* --plots draws the link; --export needs trace folders */
  {
    g_autofree char *dir = g_dir_make_tmp ("sl-cli-plots-XXXXXX", NULL);
    g_autofree char *plots = g_build_filename (dir, "plots", NULL);
    g_autofree char *plots_arg = g_strdup_printf ("--plots=%s", plots);
    g_autofree char *png = g_build_filename (plots, "0--1.png", NULL);
    g_autofree char *svg = g_build_filename (plots, "0--1.svg", NULL);
    g_autofree char *export_arg = g_strdup_printf ("--export=%s", dir);

    run_cli (&r, "sync", "--max-drift-ppm=500000", plots_arg, path, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
    g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
    run_clear (&r);
    g_unlink (png);
    g_unlink (svg);
    g_rmdir (plots);

    run_cli (&r, "sync", export_arg, path, NULL);
    assert_clean_error (&r, "--export");
    run_clear (&r);
    g_rmdir (dir);
  }

  /* linreg and shortest-path run on the same input; its 4 packets make 2
   * round trips, too few for linreg: the hosts are not synchronized, which
   * the report says and the exit status (3) too */
  run_cli (&r, "sync", "--json", "--algorithm=linreg", "--tree=shortest-path", path, NULL);
  g_assert_cmpint (r.status, ==, 3);
  g_assert_nonnull (strstr (r.err, "could not be synchronized: 0, 1"));
  root = parse_object (r.out, parser);
  g_assert_cmpstr (json_object_get_string_member (root, "algorithm"), ==, "linreg");
  hosts = json_object_get_array_member (root, "hosts");
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *h = json_array_get_object_element (hosts, i);

      g_assert_false (json_object_get_boolean_member (h, "synchronized"));
      g_assert_nonnull (strstr (json_object_get_string_member (h, "reason"), "fewer than three round trips"));
    }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "components")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "unsynchronized")), ==, 2);
  run_clear (&r);
}

static void
test_demo (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  Run r = { 0 };

  run_cli (&r, "demo", "--duration=5", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Check against the simulated clocks"));
  g_assert_null (strstr (r.out, "OUTSIDE"));
  run_clear (&r);

  run_cli (&r, "demo", "--duration=5", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = parse_object (r.out, parser);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "hosts")), ==, 7);
  /* the web cluster and the batch pair */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "components")), ==, 2);
  run_clear (&r);
}

static void
test_bench_json (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  Run r = { 0 };

  run_cli (&r, "bench", "hull", "--packets=200000", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = parse_object (r.out, parser);
  g_assert_cmpint (json_object_get_int_member (root, "packets"), ==, 200000);
  g_assert_true (json_object_has_member (root, "ns_per_packet"));
  g_assert_true (json_object_has_member (root, "hull_only_ns_per_packet"));
  g_assert_true (json_object_has_member (root, "matcher_only_cpu_ns_per_packet"));
  g_assert_cmpint (json_object_get_int_member (root, "matched"), ==, 200000);
  g_assert_null (strstr (r.err, "disagree"));
  g_assert_true (json_object_has_member (root, "peak_rss_kb"));
  g_assert_cmpstr (json_object_get_string_member (root, "quality"), ==, "accurate");
  run_clear (&r);

  run_cli (&r, "bench", "graph", "--nodes=500", "--ops=20000", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = parse_object (r.out, parser);
  g_assert_cmpint (json_object_get_int_member (root, "nodes"), ==, 500);
  g_assert_cmpint (json_object_get_int_member (root, "ops"), ==, 20000);
  g_assert_true (json_object_has_member (root, "incremental_s"));
  g_assert_true (json_object_has_member (root, "incremental_s_per_op"));
  g_assert_true (json_object_has_member (root, "baseline_ops"));
  g_assert_true (json_object_has_member (root, "baseline_s_per_op"));
  g_assert_true (json_object_has_member (root, "mst_changes"));
  g_assert_true (json_object_has_member (root, "reference_changes"));
  run_clear (&r);
}

/* The text report gives offsets in human terms, against a known clock:
 * b reads 182.4 ms ahead of a and runs 10 ppm fast. */
static void
test_text_offsets (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-cli-offsets-XXXXXX", NULL);
  g_autofree char *traces = g_build_filename (dir, "traces", NULL);
  g_autofree char *out_arg = g_strdup_printf ("--out=%s", traces);
  g_autofree char *rm = g_strdup_printf ("rm -rf %s", dir);
  g_autoptr(GRegex) re = g_regex_new ("offset to (\\S+) ([+\u2212])([0-9.]+) (ns|µs|ms|s) at (\\d\\d:\\d\\d:\\d\\d\\.\\d) UTC, "
                                      "drift ([+\u2212])([0-9.]+) ppm", 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  Run r = { 0 };
  double offset, drift;
  g_autofree char *ref = NULL;
  g_autofree char *sign = NULL;
  g_autofree char *number = NULL;
  g_autofree char *unit = NULL;
  g_autofree char *at = NULL;
  g_autofree char *dsign = NULL;
  g_autofree char *dnumber = NULL;

  run_cli (&r, "generate", out_arg, "--host=a:1000000000:0:0", "--host=b:1000000000:182400000:10",
           "--link=a:b", "--duration=10", "--events=200000", "--seed=1", "--start=1405552440000000000", NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  run_cli (&r, "sync", traces, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_test_message ("%s", r.out);
  /* the exact maps are the JSON's, not the text's */
  g_assert_null (strstr (r.out, "* t"));
  g_assert_true (g_regex_match (re, r.out, 0, &m));
  ref = g_match_info_fetch (m, 1);
  sign = g_match_info_fetch (m, 2);
  number = g_match_info_fetch (m, 3);
  unit = g_match_info_fetch (m, 4);
  at = g_match_info_fetch (m, 5);
  dsign = g_match_info_fetch (m, 6);
  dnumber = g_match_info_fetch (m, 7);
  offset = g_ascii_strtod (number, NULL) * (g_str_equal (sign, "+") ? 1 : -1);
  drift = g_ascii_strtod (dnumber, NULL) * (g_str_equal (dsign, "+") ? 1 : -1);
  g_assert_cmpstr (unit, ==, "ms");
  /* t_reference - t of the host that is not the reference */
  if (g_str_equal (ref, "a"))
    {
      g_assert_cmpfloat (fabs (offset + 182.4), <, 0.1);
      g_assert_cmpfloat (fabs (drift + 10), <, 5);
    }
  else
    {
      g_assert_cmpfloat (fabs (offset - 182.4), <, 0.1);
      g_assert_cmpfloat (fabs (drift - 10), <, 5);
    }
  /* where the data starts, on the reference's clock, which is UTC and
   * says so: 23:14:00 UTC */
  g_assert_true (g_str_has_prefix (at, "23:14:0"));
  run_clear (&r);
  g_assert_true (g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL));
}

/* An approximate link synchronizes nobody: exit status 3, the reason in
 * the text, and the best-effort placement says it is unbounded. */
static void
test_unsynchronized_status (void)
{
  g_autofree char *path = sl_test_data_path ("lttv-sync-cases", "test4.txt", NULL);
  Run r = { 0 };

  if (path == NULL)
    return;

  run_cli (&r, "sync", "--max-drift-ppm=500000", path, NULL);
  g_assert_cmpint (r.status, ==, 3);
  g_assert_cmpstr (r.err, ==, "syncline-cli: 2 hosts with packet events could not be synchronized: 0, 1\n");
  g_assert_nonnull (strstr (r.out, "0: NOT SYNCHRONIZED: no accurate link: the link with 1 is approximate"));
  g_assert_nonnull (strstr (r.out, "best effort on 0's clock, path 1 -> 0, unbounded"));
  g_assert_nonnull (strstr (r.out, "Not synchronized: 0 1"));
  g_assert_null (strstr (r.out, "0: reference"));
  run_clear (&r);
}

/* The processor time of the children this process waited for. */
static double
children_cpu_s (void)
{
  struct rusage ru;

  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &ru), ==, 0);
  return (double) (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         (double) (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* The text report in a C locale: µs throughout (never "us"), as UTF-8,
 * no character turned into "?"; its CPU time counts the decoder
 * processes, which do most of the work: all but the CLI's start and end
 * of what the whole run took, as this process's rusage of its children
 * (the CLI and, through it, its decoders) says. */
static void
test_text_units_cpu (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-cli-units-XXXXXX", NULL);
  g_autofree char *traces = g_build_filename (dir, "traces", NULL);
  g_autofree char *rm = g_strdup_printf ("rm -rf %s", dir);
  g_autofree char *lc_all = g_strdup (g_getenv ("LC_ALL"));
  g_autofree char *asan = g_strdup (g_getenv ("ASAN_OPTIONS"));
  const char *const gen[] = { "--hosts=3", "--duration=10", "--events=400000", "--seed=2", NULL };
  double before, total, cpu = 0, process = 0, decoders = 0;
  const char *time_line;
  Run r = { 0 };

  run_generate (traces, gen);
  g_setenv ("LC_ALL", "C", TRUE);
  /* In a sanitizer build the leak checker scans the heap at each
   * process's exit, after the report is written (a fifth of the run
   * here): not what the report can count. The other runs check leaks. */
  if (asan != NULL)
    {
      g_autofree char *no_leaks = g_strconcat (asan, ":detect_leaks=0", NULL);

      g_setenv ("ASAN_OPTIONS", no_leaks, TRUE);
    }
  before = children_cpu_s ();
  run_cli (&r, "sync", traces, NULL);
  total = children_cpu_s () - before;
  if (asan != NULL)
    g_setenv ("ASAN_OPTIONS", asan, TRUE);
  if (lc_all != NULL)
    g_setenv ("LC_ALL", lc_all, TRUE);
  else
    g_unsetenv ("LC_ALL");
  g_assert_cmpint (r.status, ==, 0);
  g_test_message ("%s", r.out);
  g_assert_true (g_utf8_validate (r.out, -1, NULL));
  g_assert_nonnull (strstr (r.out, " µs"));
  g_assert_null (strstr (r.out, " us"));
  g_assert_null (strchr (r.out, '?'));

  time_line = strstr (r.out, "\nTime: ");
  g_assert_nonnull (time_line);
  g_assert_cmpint (sscanf (time_line, "\nTime: %*f s elapsed, %lf s CPU (this process %lf s, its trace decoders %lf s)",
                           &cpu, &process, &decoders), ==, 3);
  g_test_message ("reported %.3f s CPU (%.3f + %.3f), the run took %.3f s", cpu, process, decoders, total);
  g_assert_cmpfloat (decoders, >, 0);
  g_assert_cmpfloat (fabs (cpu - process - decoders), <=, 0.0015);
  g_assert_cmpfloat (cpu, <=, total + 0.01);
  g_assert_cmpfloat (cpu, >=, 0.9 * total - 0.05);
  run_clear (&r);
  g_assert_true (g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL));
}

/* Under LC_ALL=@locale, syncline-cli @args; the report's "Time:" line
 * (CPU times) left out. */
static char *
sync_under (const char        *locale,
            const char *const *args)
{
  g_autofree char *lc_all = g_strdup (g_getenv ("LC_ALL"));
  g_auto(GStrv) lines = NULL;
  g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
  g_auto(GStrv) joined = NULL;
  Run r = { 0 };

  g_setenv ("LC_ALL", locale, TRUE);
  run_cli_argv (&r, args);
  if (lc_all != NULL)
    g_setenv ("LC_ALL", lc_all, TRUE);
  else
    g_unsetenv ("LC_ALL");
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (!g_str_has_prefix (lines[i], "Time: "))
      g_strv_builder_add (kept, lines[i]);
  joined = g_strv_builder_end (kept);
  run_clear (&r);
  return g_strjoinv ("\n", joined);
}

/* The report's words are English, and so are its numbers under a French
 * locale: "(3,000 s)" read as three thousand seconds and
 * "alpha in [0,99, 1,00]" as four numbers. Skipped without fr_FR.UTF-8
 * (localedef -i fr_FR -f UTF-8 fr_FR.UTF-8). */
static void
test_french (void)
{
  g_autofree char *dir = NULL, *traces = NULL, *rm = NULL;
  g_autofree char *c = NULL, *fr = NULL;
  const char *const gen[] = { "--hosts=3", "--duration=2", "--events=20000", "--seed=3", NULL };
  locale_t french = newlocale (LC_ALL_MASK, "fr_FR.UTF-8", (locale_t) 0);

  if (french == (locale_t) 0)
    {
      g_test_skip ("the fr_FR.UTF-8 locale is not installed (localedef -i fr_FR -f UTF-8 fr_FR.UTF-8)");
      return;
    }
  freelocale (french);

  dir = g_dir_make_tmp ("sl-cli-french-XXXXXX", NULL);
  traces = g_build_filename (dir, "traces", NULL);
  rm = g_strdup_printf ("rm -rf %s", dir);
  run_generate (traces, gen);
  c = sync_under ("C.UTF-8", (const char *const[]) { "sync", traces, NULL });
  fr = sync_under ("fr_FR.UTF-8", (const char *const[]) { "sync", traces, NULL });
  g_test_message ("%s", fr);
  g_assert_nonnull (strstr (c, " ppm"));
  g_assert_cmpstr (fr, ==, c);
  g_assert_true (g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/bad-usage", test_bad_usage);
  g_test_add_func ("/cli/hostile-inputs", test_hostile_inputs);
  g_test_add_func ("/cli/json-schema", test_json_schema);
  g_test_add_func ("/cli/text-offsets", test_text_offsets);
  g_test_add_func ("/cli/text-units-cpu", test_text_units_cpu);
  g_test_add_func ("/cli/french", test_french);
  g_test_add_func ("/cli/unsynchronized-status", test_unsynchronized_status);
  g_test_add_func ("/cli/demo", test_demo);
  g_test_add_func ("/cli/bench-json", test_bench_json);

  return g_test_run ();
}
