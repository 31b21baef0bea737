/* test-parallel.c: one host's stream files decoded by several decoders give
 * the report one decoder gives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "sl-decoder.h"
#include "sl-report.h"
#include "sl-trace-reader.h"
#include "test-journal.h"
#include "test-util.h"

/* The JSON report with the full journal, timing left out (its values
 * zeroed: the report is one compact line since 5585f83, where dropping the
 * lines that hold them left nothing to compare), and the warnings. */
static char *
report_with (const char *folder,
             guint       threads,
             const char *option,
             char      **warnings)
{
  g_autofree char *threads_arg = g_strdup_printf ("--threads=%u", threads);
  g_autoptr(GRegex) timing = g_regex_new ("(\"(elapsed_s|cpu_s|decoders_cpu_s|peak_rss[a-z_]*)\" *: *)[-+.0-9eE]+",
                                          0, 0, NULL);
  g_autofree char *kept = NULL;
  char *s;
  Run r = { 0 };

  run_cli (&r, "sync", "--no-progress", "--json", "--journal=full", threads_arg,
           option != NULL ? option : folder, option != NULL ? folder : NULL, NULL);
  g_assert_cmpint (r.status, !=, 2);
  g_assert_nonnull (strstr (r.out, "\"elapsed_s\""));
  kept = g_regex_replace (timing, r.out, -1, 0, "\\g<1>0", 0, NULL);
  g_assert_nonnull (kept);
  g_assert_null (strstr (kept, "\"elapsed_s\":1"));
  s = g_strdup_printf ("%s\nstatus %d\n", kept, r.status);
  *warnings = g_steal_pointer (&r.err);
  run_clear (&r);
  return s;
}

static char *
report (const char *folder,
        guint       threads,
        char      **warnings)
{
  return report_with (folder, threads, NULL, warnings);
}

/* How many decoders decode host @host with @threads threads (the reader's
 * debug message; 1 when it says nothing). */
static guint
decoders_of (const char *folder,
             const char *host,
             guint       threads)
{
  g_autofree char *threads_arg = g_strdup_printf ("--threads=%u", threads);
  g_autofree char *needle = g_strdup_printf ("host %s: ", host);
  const char *p;
  guint n = 1;
  Run r = { 0 };

  g_setenv ("G_MESSAGES_DEBUG", "Syncline", TRUE);
  run_cli (&r, "sync", "--no-progress", threads_arg, folder, NULL);
  g_unsetenv ("G_MESSAGES_DEBUG");
  p = strstr (r.out, needle);
  if (p == NULL)
    p = strstr (r.err, needle);
  if (p != NULL && (p = strstr (p, "decoded by ")) != NULL)
    n = (guint) g_ascii_strtoull (p + strlen ("decoded by "), NULL, 10);
  run_clear (&r);
  return n;
}

/* The same report and warnings with @threads as with one thread. */
static void
assert_same (const char *folder,
             guint       threads)
{
  g_autofree char *w1 = NULL;
  g_autofree char *wn = NULL;
  g_autofree char *one = report (folder, 1, &w1);
  g_autofree char *many = report (folder, threads, &wn);

  g_assert_cmpstr (many, ==, one);
  g_assert_cmpstr (wn, ==, w1);
}

static void
test_one_host (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen = g_build_filename (tmp, "gen", NULL);
  const char *extra[] = { "--host=a:1000000000:0:10", "--host=b:1000000000:3000:-20", "--link=a:b:2000",
                          "--cpus=6", "--duration=3", "--background=2000", NULL };

  run_generate (gen, extra);
  /* one thread a host: each decoded whole; more: shared out */
  g_assert_cmpuint (decoders_of (gen, "a", 2), ==, 1);
  g_assert_cmpuint (decoders_of (gen, "a", 4), ==, 2);
  g_assert_cmpuint (decoders_of (gen, "b", 6), ==, 3);
  assert_same (gen, 4);
  assert_same (gen, 6);
  assert_same (gen, 12);
  rm_rf (tmp);
}

/* A truncated stream file in one part: the same warning, the other parts
 * go on. */
static void
test_damaged (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen = g_build_filename (tmp, "gen", NULL);
  g_autofree char *stream = NULL;
  g_autofree char *w = NULL;
  g_autofree char *out = NULL;
  const char *extra[] = { "--hosts=2", "--cpus=4", "--duration=3", "--background=2000", NULL };
  g_autofree char *kernel = g_build_filename (gen, "node-02", "kernel", NULL);
  g_autoptr(GDir) d = NULL;
  const char *name;
  guint64 size;

  run_generate (gen, extra);
  d = g_dir_open (kernel, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, "_2"))
      stream = g_build_filename (kernel, name, NULL);
  g_assert_nonnull (stream);
  {
    g_autofree char *text = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (stream, &text, &len, NULL));
    size = len / 2 + 1000;
    g_assert_true (g_file_set_contents (stream, text, (gssize) size, NULL));
  }
  g_assert_cmpuint (decoders_of (gen, "node-02", 4), ==, 2);
  assert_same (gen, 4);
  out = report (gen, 4, &w);
  g_assert_nonnull (strstr (w, "truncated or damaged"));
  g_assert_nonnull (strstr (w, stream));
  rm_rf (tmp);
}

static void
test_shared_data (void)
{
  const char *sets[] = { "synctraces", "django-vote" };

  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    {
      g_autofree char *data = sl_test_data_path ("traces", sets[i], NULL);

      if (data == NULL)
        return;
      assert_same (data, 8);
    }
}

/* Both trees and both algorithms: the same report from run to run and
 * with one or two threads. The shortest-path tree was recomputed when the
 * graph was read, that is at each snapshot, paced by CPU time: three runs
 * gave three journals. */
static void
assert_deterministic (const char *folder)
{
  static const char *options[] = { "--tree=shortest-path", "--tree=mst", "--algorithm=linreg" };

  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      char *w[3] = { NULL };
      g_autofree char *first = report_with (folder, 1, options[i], &w[0]);
      g_autofree char *again = report_with (folder, 1, options[i], &w[1]);
      g_autofree char *two = report_with (folder, 2, options[i], &w[2]);

      g_test_message ("%s %s: %u lines", folder, options[i], count_lines (first));
      g_assert_nonnull (strstr (first, "\"journal\""));
      sl_test_assert_same_text (again, first);
      sl_test_assert_same_text (two, first);
      for (guint k = 0; k < 3; k++)
        g_free (w[k]);
    }
}

static void
test_trees (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen = g_build_filename (tmp, "gen", NULL);
  const char *extra[] = { "--hosts=12", "--duration=60", "--events=300000", NULL };
  const char *sets[] = { "synctraces", "django-vote" };

  run_generate (gen, extra);
  assert_deterministic (gen);
  rm_rf (tmp);
  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    {
      g_autofree char *data = sl_test_data_path ("traces", sets[i], NULL);

      if (data == NULL)
        return;
      assert_deterministic (data);
    }
}

/* What a job's snapshot asks the engine (sl_snapshot_capture_engine()). */
static void
query_all (SlEngine *engine)
{
  sl_engine_get_journal (engine);
  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    {
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (engine, h, &hi);
      sl_host_info_clear (&hi);
    }
  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlReportLink rl;
      g_autoptr(SlRelation) rel = NULL;

      sl_report_get_link (engine, l, &rl);
      rel = sl_engine_get_link_relation (engine, l);
    }
}

/* The engine's input, packet event by packet event; every @query_every
 * packet events (0: never) the engine is asked what a job's snapshot
 * asks. */
typedef struct
{
  SlEngine  *engine;
  GChecksum *sum;
  guint      query_every;
  guint64    n;
  guint64    ties;
  gint64     last_key;
  guint32    last_host;
  guint64    disorder;
  char      *first_disorder;
  GArray    *steps;
} Order;

/* One packet event as the engine got it. */
typedef struct
{
  gint64  key;
  gint64  time;
  guint32 host;
} Step;

static void
order_cb (const SlPacketEvent *e,
          gint64               key,
          gpointer             data)
{
  Order *o = data;

  g_checksum_update (o->sum, (const guchar *) &e->host, sizeof e->host);
  g_checksum_update (o->sum, (const guchar *) &e->time, sizeof e->time);
  g_checksum_update (o->sum, (const guchar *) &key, sizeof key);
  /* the same key as the previous packet event's, of another host */
  if (o->n > 0 && key == o->last_key && e->host != o->last_host)
    o->ties++;
  /* each host's packet events here are in time order, so the merge's
   * are in (key, host) order, whatever the timing */
  if (o->n > 0 && (key < o->last_key || (key == o->last_key && e->host < o->last_host)) && o->disorder++ == 0)
    o->first_disorder = g_strdup_printf ("packet event %" G_GUINT64_FORMAT ": host %u key %" G_GINT64_FORMAT
                                         " after host %u key %" G_GINT64_FORMAT,
                                         o->n, e->host, key, o->last_host, o->last_key);
  o->n++;
  o->last_key = key;
  o->last_host = e->host;
  if (o->steps != NULL)
    {
      Step st = { key, e->time, e->host };

      g_array_append_val (o->steps, st);
    }
  sl_engine_add_packet (o->engine, e, key);
  if (o->query_every > 0 && o->n % o->query_every == 0)
    query_all (o->engine);
}

/* The digest of the sequence of packet events the folder reader gives
 * the engine with @spill and @threads, the hosts' merge hints, and the
 * engine's report; the engine flushes as a job's does (by the input), and
 * is asked every @query_every packet events what a snapshot asks. The
 * sequence itself goes to @steps. */
static char *
merged (const char   *folder,
        SlTraceSpill  spill,
        guint         threads,
        guint         query_every,
        GArray       *steps)
{
  g_autoptr(SlEngine) engine = sl_engine_new (NULL);
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autoptr(SlTraceReader) reader = NULL;
  g_autoptr(SlJsonOut) out = sl_json_out_new_string ();
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *json = NULL;
  SlReportJsonOptions options;
  SlTraceReaderOptions ro;
  g_autoptr(GString) hints = g_string_new (NULL);
  Order o = { engine, sum, query_every, 0, 0, 0, 0, 0, NULL, steps };

  sl_trace_reader_options_init (&ro);
  ro.spill = spill;
  ro.n_threads = threads;
  ro.packet_func = order_cb;
  ro.packet_data = &o;
  reader = sl_trace_reader_new (engine, &ro);
  sl_trace_reader_add_folder (reader, folder);
  sl_engine_set_flush_on_input (engine, TRUE);
  g_assert_cmpint (sl_trace_reader_run (reader), ==, SL_TRACE_READER_DONE);
  sl_engine_set_flush_on_input (engine, FALSE);
  sl_engine_flush (engine);
  problems = sl_trace_reader_dup_problems (reader);
  g_assert_cmpuint (problems->len, ==, 0);
  if (o.disorder > 0)
    g_test_message ("spill %d, %u threads, queried every %u: %" G_GUINT64_FORMAT " packet events out of "
                    "(key, host) order, the first %s", spill, threads, query_every, o.disorder, o.first_disorder);
  g_free (o.first_disorder);
  g_assert_cmpuint (o.disorder, ==, 0);
  for (guint h = 0; h < sl_trace_reader_get_n_hosts (reader); h++)
    g_string_append_printf (hints, " %s %" G_GINT64_FORMAT, sl_trace_reader_get_host_name (reader, h),
                            sl_trace_reader_get_merge_hint (reader, h));
  sl_report_json_options_init (&options);
  options.journal = SL_JOURNAL_FULL;
  sl_report_write_json (engine, &options, out);
  json = sl_json_out_steal_string (out);
  return g_strdup_printf ("%" G_GUINT64_FORMAT " packet events, %" G_GUINT64_FORMAT " ties, order %s, hints%s\n%s",
                          o.n, o.ties, g_checksum_get_string (sum), hints->str, json);
}

static gboolean
step_equal (const Step *x,
            const Step *y)
{
  return x->key == y->key && x->time == y->time && x->host == y->host;
}

/* Where two sequences of packet events part (a failure says it). */
static void
message_first_difference (GArray *a,
                          GArray *b)
{
  guint i = 0;

  while (i < a->len && i < b->len && step_equal (&g_array_index (a, Step, i), &g_array_index (b, Step, i)))
    i++;
  if (i == a->len && i == b->len)
    return;
  for (guint k = i >= 2 ? i - 2 : 0; k < i + 3; k++)
    {
      const Step *x = k < a->len ? &g_array_index (a, Step, k) : NULL;
      const Step *y = k < b->len ? &g_array_index (b, Step, k) : NULL;

      g_test_message ("%s packet event %u: host %d time %" G_GINT64_FORMAT " key %" G_GINT64_FORMAT
                      " | host %d time %" G_GINT64_FORMAT " key %" G_GINT64_FORMAT,
                      k == i ? "first different" : "", k, x != NULL ? (int) x->host : -1, x != NULL ? x->time : 0,
                      x != NULL ? x->key : 0, y != NULL ? (int) y->host : -1, y != NULL ? y->time : 0,
                      y != NULL ? y->key : 0);
    }
}

/* The same input gives the engine the same sequence and the same report,
 * spilled or not, on 1 to 12 threads, run after run, whatever the
 * threads' timing and whenever the engine is asked for its state. Hosts
 * whose clocks tick every microsecond make many packet events of
 * different hosts tie on the merge key (the merge let a tie go before a
 * host known only up to that key); a job's snapshots, which come by
 * wall-clock time, kept a link's result computed then, later reported
 * (a first window's span end and offset digits: 3 of 4 runs of a spilled
 * 300-host set differed). */
static void
test_same_input (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen = g_build_filename (tmp, "gen", NULL);
  const char *extra[] = { "--host=a:1000000:0:10", "--host=b:1000000:3000000:-20",
                          "--host=c:1000000:-7000000:5", "--host=d:1000000:12000000:0",
                          "--host=e:1000000:1000:30", "--host=f:1000000:-2000:-5",
                          "--link=a:b:8000", "--link=a:c:8000", "--link=a:d:8000", "--link=a:e:8000",
                          "--link=a:f:8000", "--cpus=2", "--duration=2", "--background=500", NULL };
  g_autofree char *one = NULL;
  g_autoptr(GArray) first = g_array_new (FALSE, FALSE, sizeof (Step));
  struct { SlTraceSpill spill; guint threads; guint query_every; } runs[] = {
    { SL_TRACE_SPILL_NEVER, 1, 997 }, { SL_TRACE_SPILL_ALWAYS, 1, 0 }, { SL_TRACE_SPILL_ALWAYS, 2, 0 },
    { SL_TRACE_SPILL_NEVER, 2, 0 }, { SL_TRACE_SPILL_ALWAYS, 2, 61 }, { SL_TRACE_SPILL_ALWAYS, 3, 0 },
    { SL_TRACE_SPILL_NEVER, 12, 4001 }, { SL_TRACE_SPILL_ALWAYS, 2, 0 },
  };

  run_generate (gen, extra);
  one = merged (gen, SL_TRACE_SPILL_NEVER, 1, 0, first);
  g_test_message ("%.*s", (int) strcspn (one, "\n"), one);
  /* the ties this test is about are there */
  g_assert_cmpuint (g_ascii_strtoull (strstr (one, ", ") + 2, NULL, 10), >=, 100);
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (Step));
      g_autofree char *again = merged (gen, runs[i].spill, runs[i].threads, runs[i].query_every, steps);

      if (strcmp (again, one) != 0)
        {
          g_test_message ("run %u (spill %d, %u threads, queried every %u): %.*s", i, runs[i].spill,
                          runs[i].threads, runs[i].query_every, (int) strcspn (again, "\n"), again);
          message_first_difference (first, steps);
        }
      g_assert_cmpstr (again, ==, one);
    }
  rm_rf (tmp);
}

/* A paused decoder stops between two steps and goes on when resumed,
 * to a normal end: the reader's --threads, without signals (a decoder
 * stopped while its sanitizer checked for leaks at exit never resumed). */
static void
test_pause (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen = g_build_filename (tmp, "gen", NULL);
  g_autofree char *kernel = g_build_filename (gen, "node-01", "kernel", NULL);
  const char *extra[] = { "--hosts=2", "--cpus=4", "--duration=4", "--background=20000", NULL };
  const char *args[] = { "trace", "--keep-events", "--", kernel, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(SlDecoder) d = NULL;
  guint commits = 0, drained = 0, after = 0;
  SlDecoderStatus st;
  SlWireFrame f;

  run_generate (gen, extra);
  d = sl_decoder_spawn (args, &error);
  g_assert_no_error (error);
  /* a few steps, then a pause: what is already on its way still comes */
  while (commits < 3 && (st = sl_decoder_next (d, &f, 30 * G_USEC_PER_SEC)) == SL_DECODER_FRAME)
    commits += f.type == SL_WIRE_COMMIT;
  g_assert_cmpuint (commits, ==, 3);
  sl_decoder_pause (d, TRUE);
  while ((st = sl_decoder_next (d, &f, 2 * G_USEC_PER_SEC)) == SL_DECODER_FRAME)
    drained++;
  /* without the pause it would decode on to its end */
  g_assert_cmpint (st, ==, SL_DECODER_TIMEOUT);
  g_test_message ("%u frames after the pause", drained);
  sl_decoder_pause (d, FALSE);
  while ((st = sl_decoder_next (d, &f, 60 * G_USEC_PER_SEC)) == SL_DECODER_FRAME)
    after += f.type == SL_WIRE_COMMIT;
  g_assert_cmpint (st, ==, SL_DECODER_EOF);
  g_assert_cmpuint (after, >, 0);
  g_assert_null (sl_decoder_finish (d));
  rm_rf (tmp);
}

/* The decoder's output pipe holds a step (256 kB, not Linux's 64 kB),
 * as far as the share of the user's pipe pages set aside allows; the
 * others keep the default, and a decoder freed gives its pages back. */
static void
test_pipe_size (void)
{
  const char *args[] = { "trace", "--", "/nonexistent", NULL };
  g_autoptr(GError) error = NULL;
  SlDecoder *d[4];
  int max = 1 << 20;
  g_autofree char *text = NULL;

  if (g_file_get_contents ("/proc/sys/fs/pipe-max-size", &text, NULL, NULL))
    max = (int) g_ascii_strtoll (text, NULL, 10);
  if (max < (256 << 10))
    {
      g_test_skip ("pipe-max-size is below 256 kB");
      return;
    }
  /* room for two: 48 pages each */
  _sl_decoder_set_pipe_budget (100);
  for (guint i = 0; i < 3; i++)
    {
      d[i] = sl_decoder_spawn (args, &error);
      g_assert_no_error (error);
    }
  g_assert_cmpint (_sl_decoder_get_pipe_size (d[0]), ==, 256 << 10);
  g_assert_cmpint (_sl_decoder_get_pipe_size (d[1]), ==, 256 << 10);
  g_assert_cmpint (_sl_decoder_get_pipe_size (d[2]), <, 256 << 10);
  sl_decoder_free (d[0]);
  d[3] = sl_decoder_spawn (args, &error);
  g_assert_no_error (error);
  g_assert_cmpint (_sl_decoder_get_pipe_size (d[3]), ==, 256 << 10);
  for (guint i = 1; i < 4; i++)
    sl_decoder_free (d[i]);
  /* all given back: two more fit */
  for (guint i = 0; i < 3; i++)
    d[i] = sl_decoder_spawn (args, &error);
  g_assert_cmpint (_sl_decoder_get_pipe_size (d[1]), ==, 256 << 10);
  g_assert_cmpint (_sl_decoder_get_pipe_size (d[2]), <, 256 << 10);
  for (guint i = 0; i < 3; i++)
    sl_decoder_free (d[i]);
}

/* A decoder loads babeltrace2's ctf plugin alone: bt_plugin_find() also
 * loaded the system folder's text, utils and lttng-utils plugins (and
 * libdw, libelf, liblzma…) then unloaded them, once per host. The
 * dynamic loader's own log (LD_DEBUG=files) says which plugins a decoder
 * that read a trace to its end mapped. */
static void
test_ctf_plugin_only (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen = g_build_filename (tmp, "gen", NULL);
  g_autofree char *kernel = g_build_filename (gen, "node-01", "kernel", NULL);
  g_autofree char *log = g_build_filename (tmp, "ld", NULL);
  g_autofree char *user_dir = g_build_filename (g_get_home_dir (), ".local", "lib", "babeltrace2", "plugins", NULL);
  const char *extra[] = { "--hosts=2", "--duration=1", NULL };
  const char *args[] = { "trace", "--", kernel, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) plugins = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;
  SlDecoder *d;
  SlWireFrame f;

  if (g_file_test (user_dir, G_FILE_TEST_EXISTS) || g_getenv ("BABELTRACE_PLUGIN_PATH") != NULL)
    {
      g_test_skip ("babeltrace2 plugins of the user's or of $BABELTRACE_PLUGIN_PATH");
      return;
    }
  run_generate (gen, extra);
  g_setenv ("LD_DEBUG", "files", TRUE);
  g_setenv ("LD_DEBUG_OUTPUT", log, TRUE);
  d = sl_decoder_spawn (args, &error);
  g_unsetenv ("LD_DEBUG");
  g_unsetenv ("LD_DEBUG_OUTPUT");
  g_assert_no_error (error);
  while (sl_decoder_next (d, &f, 60 * G_USEC_PER_SEC) == SL_DECODER_FRAME)
    ;
  g_assert_null (sl_decoder_finish (d));
  sl_decoder_free (d);

  dir = g_dir_open (tmp, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp, name, NULL);
      g_autofree char *text = NULL;
      g_auto(GStrv) lines = NULL;

      if (!g_str_has_prefix (name, "ld."))
        continue;
      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      lines = g_strsplit (text, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          const char *file = strstr (lines[i], "file=");
          g_autofree char *path_of = NULL;

          if (file == NULL || strstr (lines[i], "dynamically loaded by") == NULL)
            continue;
          path_of = g_strndup (file + 5, strcspn (file + 5, " \t["));
          if (strstr (path_of, "babeltrace-plugin-") != NULL)
            g_ptr_array_add (plugins, g_path_get_basename (path_of));
        }
    }
  for (guint i = 0; i < plugins->len; i++)
    g_test_message ("mapped %s", (const char *) plugins->pdata[i]);
  g_assert_cmpuint (plugins->len, ==, 1);
  g_assert_cmpstr (plugins->pdata[0], ==, "babeltrace-plugin-ctf.so");
  rm_rf (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parallel/hosts", test_one_host);
  g_test_add_func ("/parallel/damaged", test_damaged);
  g_test_add_func ("/parallel/shared-data", test_shared_data);
  g_test_add_func ("/parallel/trees", test_trees);
  g_test_add_func ("/parallel/pause", test_pause);
  g_test_add_func ("/parallel/same-input", test_same_input);
  g_test_add_func ("/parallel/pipe-size", test_pipe_size);
  g_test_add_func ("/parallel/ctf-plugin-only", test_ctf_plugin_only);
  return g_test_run ();
}
