/* test-extract.c: syncline-cli extract, then sync on the extracts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-report.h"
#include "sl-trace-reader.h"
#include "test-util.h"

static char *spill_tmp;
/* TMPDIR before the test's own (where a failing comparison keeps both sides) */
static char *outer_tmp;

/* sync --json --journal=full on @folder, without its timing (the rest is
 * the same from run to run). */
static JsonNode *
sync_report (const char *folder)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  Run r = { 0 };

  run_cli (&r, "sync", "--json", "--journal=full", "--no-progress", folder, NULL);
  if (r.status != 0)
    g_error ("sync %s: %s", folder, r.err);
  root = parse_object (r.out, parser);
  json_object_remove_member (root, "timing");
  run_clear (&r);
  return json_node_copy (json_parser_get_root (parser));
}

/* The value of "  KEY: VALUE" in babeltrace2's sink.text.details output,
 * without its thousands separators; NULL when absent. */
static char *
details_value (const char *details,
               const char *key)
{
  g_autofree char *tag = g_strdup_printf ("\n%s: ", key);
  const char *p = strstr (details, tag);
  GString *v = g_string_new (NULL);

  if (p == NULL)
    {
      /* (indented: the tag is found after the spaces) */
      g_autofree char *indented = g_strdup_printf (" %s: ", key);

      p = strstr (details, indented);
      if (p == NULL)
        return g_string_free (v, TRUE), NULL;
      p += strlen (indented);
    }
  else
    p += strlen (tag);
  for (; *p != '\0' && *p != '\n'; p++)
    if (*p != ',')
      g_string_append_c (v, *p);
  return g_string_free (v, FALSE);
}

/* What babeltrace2 sees of an extract's identity: the host's name, its
 * clock (the UUID of the clock of the traces it came from: the same
 * clock), its counts and span as the report from the full traces gives
 * them. */
static void
check_identity (const char *dir,
                JsonObject *host)
{
  JsonObject *counts = json_object_get_object_member (host, "counts");
  const char *argv[] = { g_getenv ("SL_BABELTRACE2"), dir, "-c", "sink.text.details", NULL };
  g_autofree char *sources = NULL, *first_source = NULL, *uuid = NULL, *source_uuid = NULL;
  Run r = { 0 }, rs = { 0 };
  struct { const char *key, *count; } want[] = {
    { "syncline_extract_events", "events" },
    { "syncline_extract_packet_events", "packet_events" },
    { "syncline_extract_ignored", "ignored" },
  };

  run_argv (&r, argv[0], argv + 1);
  g_assert_cmpint (r.status, ==, 0);
  {
    g_autofree char *hostname = details_value (r.out, "hostname");

    g_assert_cmpstr (hostname, ==, json_object_get_string_member (host, "name"));
  }
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_autofree char *v = details_value (r.out, want[i].key);
      g_autofree char *expect = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                 json_object_get_int_member (counts, want[i].count));

      g_assert_cmpstr (v, ==, expect);
    }
  if (json_object_has_member (host, "bound_span") && !json_object_get_null_member (host, "bound_span"))
    {
      JsonObject *span = json_object_get_object_member (host, "bound_span");
      g_autofree char *first = details_value (r.out, "syncline_extract_span_first_ns");
      g_autofree char *last = details_value (r.out, "syncline_extract_span_last_ns");
      g_autofree char *want_first = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                     json_object_get_int_member (span, "start_ns"));
      g_autofree char *want_last = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (span, "end_ns"));

      g_assert_cmpstr (first, ==, want_first);
      g_assert_cmpstr (last, ==, want_last);
    }
  /* the clock: the first source trace's, read by babeltrace2 too */
  uuid = details_value (strstr (r.out, "Default clock class:"), "UUID");
  g_assert_nonnull (uuid);
  sources = details_value (r.out, "syncline_extract_sources");
  g_assert_nonnull (sources);
  first_source = g_strdup (sources);
  if (strstr (first_source, " ") != NULL)
    *strstr (first_source, " ") = '\0';
  {
    /* (its metadata only: Trace Compass's traces are not in time order
     * across their streams, which babeltrace2's muxer refuses) */
    const char *sargv[] = { argv[0], "-o", "ctf-metadata", first_source, NULL };
    const char *clock, *u;

    run_argv (&rs, sargv[0], sargv + 1);
    g_assert_cmpint (rs.status, ==, 0);
    clock = strstr (rs.out, "\nclock {");
    g_assert_nonnull (clock);
    u = strstr (clock, "uuid = \"");
    g_assert_nonnull (u);
    source_uuid = g_strndup (u + 8, 36);
  }
  g_test_message ("%s: clock %s", json_object_get_string_member (host, "name"), uuid);
  g_assert_cmpstr (uuid, ==, source_uuid);
  run_clear (&r);
  run_clear (&rs);
}

/* The whole report from the extracts equals the one from the full traces:
 * every transform and link to the last digit, the journal entry by entry,
 * the hosts' counts; babeltrace2 reads an extract as written. */
static void
check_same (const char *folder,
            guint       min_hosts)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *out = g_build_filename (tmp, "x", NULL);
  g_autofree char *out_arg = g_strdup_printf ("--out=%s", out);
  g_autoptr(JsonNode) full = NULL, extracted = NULL;
  JsonArray *hosts;
  Run r = { 0 };

  run_cli (&r, "extract", out_arg, folder, NULL);
  if (r.status != 0)
    g_error ("extract %s: %s", folder, r.err);
  run_clear (&r);

  full = sync_report (folder);
  extracted = sync_report (out);
  hosts = json_object_get_array_member (json_node_get_object (full), "hosts");
  g_assert_cmpuint (json_array_get_length (hosts), >=, min_hosts);
  if (!json_node_equal (full, extracted))
    {
      g_autofree char *a = json_to_string (full, TRUE), *b = json_to_string (extracted, TRUE);

      g_assert_cmpstr (a, ==, b);
    }

  /* the transforms saved from each, exact numbers: the same bytes */
  {
    g_autofree char *tf_full = g_build_filename (tmp, "full.txt", NULL);
    g_autofree char *tf_x = g_build_filename (tmp, "x.txt", NULL);
    g_autofree char *arg_full = g_strdup_printf ("--save-transforms=%s", tf_full);
    g_autofree char *arg_x = g_strdup_printf ("--save-transforms=%s", tf_x);
    g_autofree char *a = NULL, *b = NULL;

    run_cli (&r, "sync", "--no-progress", arg_full, folder, NULL);
    g_assert_cmpint (r.status, ==, 0);
    run_clear (&r);
    run_cli (&r, "sync", "--no-progress", arg_x, out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    run_clear (&r);
    g_assert_true (g_file_get_contents (tf_full, &a, NULL, NULL));
    g_assert_true (g_file_get_contents (tf_x, &b, NULL, NULL));
    g_assert_cmpuint (count_lines (a), >=, min_hosts);
    g_assert_cmpstr (b, ==, a);
  }

  /* babeltrace2 reads each extract: one event per packet event */
  if (g_getenv ("SL_BABELTRACE2") != NULL)
    for (guint i = 0; i < json_array_get_length (hosts); i++)
      {
        JsonObject *h = json_array_get_object_element (hosts, i);
        g_autofree char *dir = g_build_filename (out, json_object_get_string_member (h, "name"), NULL);
        const char *argv[] = { g_getenv ("SL_BABELTRACE2"), dir, NULL };
        JsonObject *counts = json_object_get_object_member (h, "counts");

        if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
          continue;
        run_argv (&r, argv[0], argv + 1);
        g_assert_cmpint (r.status, ==, 0);
        g_assert_cmpuint (count_lines (r.out), ==, json_object_get_int_member (counts, "packet_events"));
        run_clear (&r);
        check_identity (dir, h);
      }

  /* the output folder must be new or empty */
  run_cli (&r, "extract", out_arg, folder, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "neither new nor empty"));
  run_clear (&r);

  rm_rf (tmp);
}

static void
test_generated (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *set = g_build_filename (tmp, "set", NULL);
  g_autofree char *set_arg = g_strdup_printf ("--out=%s", set);
  Run r = { 0 };

  /* IPv4 and IPv6, legacy variant tags, clocks days apart, loss */
  run_cli (&r, "generate", set_arg, "--hosts=6", "--events=150000", "--ip=mix", "--variant-style=legacy",
           "--duration=3", "--seed=11", "--quiet", NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  check_same (set, 6);
  rm_rf (tmp);
}

/* Trace Compass's traces: the old inet_sock_local_* events, no addresses. */
static void
test_synctraces (void)
{
  g_autofree char *path = sl_test_data_path ("traces", "synctraces", NULL);

  if (path == NULL)
    return;
  check_same (path, 2);
}

/* Every event of every host's store (@keep_events), in order. */
static char *
stores_digest (SlTraceReader *reader)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  for (guint h = 0; h < sl_trace_reader_get_n_hosts (reader); h++)
    {
      const SlEventStore *store = sl_trace_reader_get_event_store (reader, h);

      g_assert_nonnull (store);
      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        {
          guint64 n = sl_event_store_get_n_events (store, s);

          g_checksum_update (sum, (const guchar *) &n, sizeof n);
          for (guint64 i = 0; i < n; i++)
            {
              const SlEvent *e = sl_event_store_get (store, s, i);
              const char *str = sl_event_store_get_string (store, e->str);

              g_checksum_update (sum, (const guchar *) &e->time, sizeof e->time);
              g_checksum_update (sum, (const guchar *) &e->tid, sizeof e->tid);
              g_checksum_update (sum, (const guchar *) &e->arg, sizeof e->arg);
              g_checksum_update (sum, (const guchar *) &e->cpu, sizeof e->cpu);
              g_checksum_update (sum, &e->kind, 1);
              g_checksum_update (sum, &e->flags, 1);
              g_checksum_update (sum, (const guchar *) (str != NULL ? str : ""), -1);
            }
        }
    }
  return g_strdup (g_checksum_get_string (sum));
}

/* The report of the engine fed by the folder reader with @spill, and
 * with @keep_events the digest of the hosts' event stores after it. */
static char *
reader_report (const char   *folder,
               SlTraceSpill  spill,
               guint         threads,
               gboolean      keep_events)
{
  g_autoptr(SlEngine) engine = sl_engine_new (NULL);
  SlTraceReaderOptions ro;
  g_autoptr(SlTraceReader) reader = NULL;
  g_autoptr(SlJsonOut) out = sl_json_out_new_string ();
  SlReportJsonOptions options;
  g_autoptr(GPtrArray) problems = NULL;

  sl_trace_reader_options_init (&ro);
  ro.spill = spill;
  ro.n_threads = threads;
  ro.keep_events = keep_events;
  reader = sl_trace_reader_new (engine, &ro);
  sl_trace_reader_add_folder (reader, folder);
  g_assert_cmpint (sl_trace_reader_run (reader), ==, SL_TRACE_READER_DONE);
  problems = sl_trace_reader_dup_problems (reader);
  g_assert_cmpuint (problems->len, ==, 0);
  sl_report_json_options_init (&options);
  options.journal = SL_JOURNAL_FULL;
  sl_report_write_json (engine, &options, out);
  if (keep_events)
    {
      g_autofree char *report = sl_json_out_steal_string (out);
      g_autofree char *digest = stores_digest (reader);

      return g_strconcat (report, "\nevents ", digest, NULL);
    }
  return sl_json_out_steal_string (out);
}

/* @a and @b are the same report; if not, where they first differ is said
 * and both are kept to compare (whole, they are long lines of JSON). */
static void
assert_same_report (const char *what,
                    const char *a,
                    const char *b)
{
  g_autofree char *dir = NULL;
  g_autofree char *path_a = NULL, *path_b = NULL;
  gsize i = 0, from;

  if (g_strcmp0 (a, b) == 0)
    return;
  while (a[i] != '\0' && a[i] == b[i])
    i++;
  from = i > 200 ? i - 200 : 0;
  dir = g_build_filename (outer_tmp, "sl-test-spill-report-XXXXXX", NULL);
  if (g_mkdtemp (dir) != NULL)
    {
      path_a = g_build_filename (dir, "expected.json", NULL);
      path_b = g_build_filename (dir, "got.json", NULL);
      g_file_set_contents (path_a, a, -1, NULL);
      g_file_set_contents (path_b, b, -1, NULL);
    }
  g_error ("%s: the reports differ from byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT "/%" G_GSIZE_FORMAT
           ":\n  expected ...%.400s\n  got      ...%.400s\n(both kept in %s)", what, i, strlen (a), strlen (b),
           a + from, b + from, path_a != NULL ? dir : "nowhere: no folder could be made");
}

/* Cancelled while a host decodes and the six others wait for the one
 * slot (each on a condition of its own): every thread sees it, the reader
 * ends and frees (a host left waiting would hang the free). */
static void
cancel_while_queued (const char *folder)
{
  g_autoptr(SlEngine) engine = sl_engine_new (NULL);
  SlTraceReaderOptions ro;
  SlTraceReader *reader;
  SlTraceReaderStatus st;
  SlTraceProgress p = { 0 };

  sl_trace_reader_options_init (&ro);
  ro.spill = SL_TRACE_SPILL_ALWAYS;
  ro.n_threads = 1;
  reader = sl_trace_reader_new (engine, &ro);
  sl_trace_reader_add_folder (reader, folder);
  sl_trace_reader_start (reader);
  do
    {
      st = sl_trace_reader_step (reader, 1000);
      sl_trace_reader_get_progress (reader, &p);
      if (st == SL_TRACE_READER_AGAIN)
        sl_trace_reader_wait (reader, 10000);
    }
  while (p.events == 0 && st != SL_TRACE_READER_DONE);
  g_assert_cmpint (st, !=, SL_TRACE_READER_DONE);
  sl_trace_reader_cancel (reader);
  while ((st = sl_trace_reader_step (reader, 1000)) != SL_TRACE_READER_CANCELLED)
    {
      g_assert_cmpint (st, !=, SL_TRACE_READER_DONE);
      sl_trace_reader_wait (reader, 10000);
    }
  sl_trace_reader_free (reader);
}

/* Hosts decoded one after the other into temporary files give the same
 * report as hosts decoded side by side, and the files go away; with the
 * events kept (the application's timeline), the same events too. */
static void
test_spill (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *set = g_build_filename (tmp, "set", NULL);
  g_autofree char *set_arg = g_strdup_printf ("--out=%s", set);
  g_autofree char *never = NULL;
  g_autoptr(GDir) d = NULL;
  Run r = { 0 };

  run_cli (&r, "generate", set_arg, "--hosts=7", "--events=120000", "--ip=mix", "--duration=3",
           "--seed=5", "--quiet", NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);

  never = reader_report (set, SL_TRACE_SPILL_NEVER, 2, FALSE);
  for (guint threads = 1; threads <= 3; threads++)
    {
      g_autofree char *spilled = reader_report (set, SL_TRACE_SPILL_ALWAYS, threads, FALSE);
      g_autofree char *what = g_strdup_printf ("spilled, %u decoding threads", threads);

      assert_same_report (what, never, spilled);
    }
  cancel_while_queued (set);
  {
    g_autofree char *kept = reader_report (set, SL_TRACE_SPILL_NEVER, 2, TRUE);
    g_autofree char *kept_spilled = reader_report (set, SL_TRACE_SPILL_ALWAYS, 2, TRUE);

    g_assert_true (g_str_has_prefix (kept, never));
    g_assert_cmpuint (strlen (kept), >, strlen (never));
    assert_same_report ("spilled, events kept", kept, kept_spilled);
  }
  rm_rf (tmp);
  /* only the reader's folders were made there, and they are gone */
  d = g_dir_open (spill_tmp, 0, NULL);
  g_assert_nonnull (d);
  g_assert_null (g_dir_read_name (d));
}

static void
test_bad_options (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *out_arg = g_strdup_printf ("--out=%s/x", tmp);
  g_autofree char *missing = g_build_filename (tmp, "missing", NULL);
  Run r = { 0 };

  run_cli (&r, "extract", tmp, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--out"));
  run_clear (&r);

  run_cli (&r, "extract", out_arg, missing, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "not a folder"));
  run_clear (&r);

  /* nothing to read */
  run_cli (&r, "extract", out_arg, tmp, NULL);
  g_assert_cmpint (r.status, ==, 2);
  run_clear (&r);
  rm_rf (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* the spill test sees the reader's temporary folder go: a TMPDIR of our
   * own, set before GLib first looks at it */
  outer_tmp = g_strdup (g_getenv ("TMPDIR") != NULL ? g_getenv ("TMPDIR") : "/tmp");
  spill_tmp = g_build_filename (outer_tmp, "sl-test-spill-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (spill_tmp));
  g_setenv ("TMPDIR", spill_tmp, TRUE);

  g_test_add_func ("/extract/generated", test_generated);
  g_test_add_func ("/extract/synctraces", test_synctraces);
  g_test_add_func ("/extract/bad-options", test_bad_options);
  g_test_add_func ("/extract/spill", test_spill);
  {
    int ret = g_test_run ();

    g_rmdir (spill_tmp);
    return ret;
  }
}
