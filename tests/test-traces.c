/* test-traces.c: reading real and hand-made LTTng traces, good and broken
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-engine.h"
#include "sl-report.h"
#include "sl-generate.h"
#include "sl-parallel.h"
#include "sl-trace-reader.h"
#include "test-util.h"

/* Trace Compass's numbers for data/traces/synctraces (data/README.md):
 * VM1 = alpha * VM3 + beta, and VM1's transform to VM3. */
#define TC_ALPHA_MIN 0.9973702713903009
#define TC_ALPHA_MAX 1.0027469787424652
#define TC_SLOPE     0.9999413783703139011056845831168394
#define TC_OFFSET    79796507913179.33347660124688298171

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */

/* Every line on stderr is ours: "syncline-cli: …". */
static void
assert_clean_stderr (const Run *r)
{
  g_auto(GStrv) lines = g_strsplit (r->err, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] != '\0' && !g_str_has_prefix (lines[i], "syncline-cli: "))
      g_error ("stray stderr line: “%s” in:\n%s", lines[i], r->err);
}

static JsonObject *
find_host (JsonObject *root,
           const char *name)
{
  JsonArray *hosts = json_object_get_array_member (root, "hosts");

  for (guint i = 0; i < json_array_get_length (hosts); i++)
    {
      JsonObject *h = json_array_get_object_element (hosts, i);
      if (g_str_equal (json_object_get_string_member (h, "name"), name))
        return h;
    }
  return NULL;
}

static SlEngine *
load (const char *const    *folders,
      gboolean              keep_events,
      SlTraceReader       **reader_out,
      GPtrArray           **problems_out)
{
  SlEngineOptions eo;
  SlTraceReaderOptions ro;
  SlEngine *engine;
  g_autoptr(SlTraceReader) reader = NULL;

  sl_engine_options_init (&eo);
  engine = sl_engine_new (&eo);
  sl_trace_reader_options_init (&ro);
  ro.keep_events = keep_events;
  reader = sl_trace_reader_new (engine, &ro);
  for (guint i = 0; folders[i] != NULL; i++)
    sl_trace_reader_add_folder (reader, folders[i]);
  g_assert_cmpint (sl_trace_reader_run (reader), ==, SL_TRACE_READER_DONE);

  if (problems_out != NULL)
    *problems_out = sl_trace_reader_dup_problems (reader);
  if (reader_out != NULL)
    *reader_out = g_steal_pointer (&reader);
  return engine;
}

static guint
link_between (SlEngine   *engine,
              const char *a,
              const char *b)
{
  guint ha = sl_engine_find_host (engine, a), hb = sl_engine_find_host (engine, b);

  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlLinkInfo info;

      sl_engine_get_link_info (engine, l, &info);
      if ((info.a == ha && info.b == hb) || (info.a == hb && info.b == ha))
        return l;
    }
  return G_MAXUINT;
}

static void
assert_rel (double      got,
            double      want,
            double      rel,
            const char *what)
{
  if (!(fabs (got - want) <= rel * fabs (want)))
    g_error ("%s: got %.17g, want %.17g (relative %.3g > %.3g)", what, got, want,
             fabs (got - want) / fabs (want), rel);
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (from, &data, &len, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (to, data, (gssize) len, &error));
  g_assert_no_error (error);
}

static void
copy_trace (const char *from,
            const char *to)
{
  g_autoptr(GDir) d = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *a = g_build_filename (from, name, NULL);
      g_autofree char *b = g_build_filename (to, name, NULL);

      if (g_file_test (a, G_FILE_TEST_IS_REGULAR))
        copy_file (a, b);
    }
}

/* The text of a packetized metadata file, as babeltrace would see it. */
static char *
metadata_text (const char *path)
{
  g_autofree guint8 *data = NULL;
  GString *s = g_string_new ("/* CTF 1.8 */\n");
  gsize len, off = 0;

  g_assert_true (g_file_get_contents (path, (char **) &data, &len, NULL));
  while (off + 37 <= len)
    {
      guint32 content, packet;

      memcpy (&content, data + off + 24, 4);
      memcpy (&packet, data + off + 28, 4);
      g_string_append_len (s, (const char *) data + off + 37, content / 8 - 37);
      off += packet / 8;
    }
  return g_string_free (s, FALSE);
}

/* ---------------------------------------------------------------------- */
/* Real traces                                                             */

static void
test_synctraces (void)
{
  g_autofree char *dir = sl_test_data_path ("traces", "synctraces", NULL);
  const char *folders[] = { dir, NULL };
  g_autoptr(GPtrArray) problems = NULL;
  SlEngine *engine;
  SlReportLink rl;
  SlHostInfo hi = { 0 };
  SlLinkInfo info;
  SlHostCounts c;
  guint vm1, vm3, l;
  double slope, lo, hi_band;

  if (dir == NULL)
    return;

  engine = load (folders, FALSE, NULL, &problems);
  g_assert_cmpuint (problems->len, ==, 0);

  g_assert_cmpuint (sl_engine_get_n_hosts (engine), ==, 2);
  vm1 = sl_engine_find_host (engine, "VM1");
  vm3 = sl_engine_find_host (engine, "VM3");
  g_assert_cmpuint (vm1, !=, SL_HOST_NONE);
  g_assert_cmpuint (vm3, !=, SL_HOST_NONE);

  sl_engine_get_host_counts (engine, vm1, &c);
  g_assert_cmpuint (c.events, ==, 110771);
  g_assert_cmpuint (c.matched, ==, 46);
  sl_engine_get_host_counts (engine, vm3, &c);
  g_assert_cmpuint (c.events, ==, 85729);

  g_assert_cmpuint (sl_engine_get_n_matches (engine), ==, 46);
  l = link_between (engine, "VM1", "VM3");
  g_assert_cmpuint (l, !=, G_MAXUINT);

  /* Oriented VM1 -> VM3: t_VM3 = alpha * t_VM1 + beta */
  sl_report_get_link (engine, l, &rl);
  g_assert_cmpuint (rl.a, ==, vm1);
  g_assert_cmpint (rl.info.quality, ==, SL_QUALITY_ACCURATE);
  g_assert_cmpuint (rl.info.matches, ==, 46);
  g_assert_cmpuint (rl.info.accurate_packets, ==, 25);
  g_assert_cmpuint (rl.hull_points[0], ==, 4);
  g_assert_cmpuint (rl.hull_points[1], ==, 4);
  g_assert_true (rl.info.inversions_known);
  g_assert_cmpuint (rl.info.inversions, ==, 0);

  /* Trace Compass states the bounds as VM1 = alpha * VM3 + beta. */
  assert_rel (1.0 / rl.alpha_max, TC_ALPHA_MIN, 1e-9, "alpha_min");
  assert_rel (1.0 / rl.alpha_min, TC_ALPHA_MAX, 1e-9, "alpha_max");

  /* With VM3 as reference, VM1's transform lies in the feasible band:
   * its slope between the bounds, and at both ends of the trace it is
   * no farther from Trace Compass's (itself inside the band) than the
   * band is wide. */
  sl_engine_pin_reference (engine, vm3);
  sl_engine_get_host_info (engine, vm1, &hi);
  g_assert_cmpuint (hi.reference, ==, vm3);
  slope = sl_transform_get_slope (&hi.to_reference);
  g_assert_cmpfloat (slope, >=, rl.alpha_min);
  g_assert_cmpfloat (slope, <=, rl.alpha_max);
  sl_engine_get_link_info (engine, l, &info);
  for (int k = 0; k < 2; k++)
    {
      gint64 t = k == 0 ? info.span_start : info.span_end;
      double ours = (double) sl_transform_apply (&hi.to_reference, t);
      double tc = TC_SLOPE * (double) t + TC_OFFSET;

      g_test_message ("VM1 at %" G_GINT64_FORMAT ": ours - Trace Compass = %.0f ns (band %.0f ns)",
                      t, ours - tc, info.band_ns);
      g_assert_cmpfloat (fabs (ours - tc), <=, info.band_ns + 1e3);
    }
  lo = rl.alpha_min;
  hi_band = rl.alpha_max;
  g_assert_cmpfloat (lo, <, hi_band);
  sl_host_info_clear (&hi);
  sl_engine_free (engine);
}

static void
test_synctraces_cli (void)
{
  g_autofree char *dir = sl_test_data_path ("traces", "synctraces", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *vm1, *counts, *link;
  Run r = { 0 };

  if (dir == NULL)
    return;

  run_cli (&r, "sync", "--json", "--reference=VM3", dir, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  root = parse_object (r.out, parser);
  g_assert_cmpint (json_object_get_int_member (root, "matches"), ==, 46);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "problems")), ==, 0);
  vm1 = find_host (root, "VM1");
  g_assert_nonnull (vm1);
  g_assert_nonnull (find_host (root, "VM3"));
  g_assert_cmpstr (json_object_get_string_member (vm1, "reference"), ==, "VM3");
  counts = json_object_get_object_member (vm1, "counts");
  g_assert_cmpint (json_object_get_int_member (counts, "events"), ==, 110771);
  g_assert_cmpint (json_object_get_int_member (counts, "matched"), ==, 46);
  g_assert_cmpint (json_object_get_int_member (counts, "packet_events"), ==,
                   46 + json_object_get_int_member (counts, "unmatched"));
  g_assert_cmpint (json_object_get_int_member (counts, "ignored"), ==, 0);
  link = json_array_get_object_element (json_object_get_array_member (root, "links"), 0);
  g_assert_cmpstr (json_object_get_string_member (link, "quality"), ==, "accurate");
  g_assert_cmpint (json_object_get_int_member (link, "accurate_packets"), ==, 25);
  g_assert_cmpint (json_object_get_int_member (link, "inversions_after_sync"), ==, 0);
  run_clear (&r);

  /* the text report names the counts too */
  run_cli (&r, "sync", dir, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "VM1 - VM3: accurate"));
  g_assert_nonnull (strstr (r.out, "events 110771, packet events"));
  /* accurate with a bound of ±44.2 ms: the report says how near the
   * packets the bound is and why it is wide away from them */
  g_assert_nonnull (strstr (r.out, "estimate within ±44.20 ms, over both hosts' events (23.00 s)"));
  g_assert_nonnull (strstr (r.out, "estimate within ±171.8 µs over its packets (118.7 ms)\n"));
  g_assert_nonnull (strstr (r.out, "accurate: a bound holds at every instant, not a small one: the rates "
                                   "its packets allow (a band of 5376 ppm) part away from them"));
  run_clear (&r);
}

/* --diagnose: the application's diagnosis of every host and link, in the
 * text report and on each host and link of the JSON one. c talks to no
 * traced host. */
static void
test_diagnose_cli (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *out = g_build_filename (dir, "t", NULL);
  g_autofree char *out_arg = g_strdup_printf ("--out=%s", out);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *link;
  Run r = { 0 };

  run_cli (&r, "generate", out_arg, "--quiet", "--host=a:1000000000:1500:-50",
           "--host=b:2400000000:-3000:50", "--host=c:1000000000:700:20", "--link=a:b:400",
           "--duration=2", "--background=50", "--cpus=1", NULL);
  if (r.status != 0)
    g_error ("generate failed: %s", r.err);
  run_clear (&r);

  /* c has packet events and no accurate link: status 3 (issue 14) */
  run_cli (&r, "sync", "--diagnose", "--reference=b", out, NULL);
  g_assert_cmpint (r.status, ==, 3);
  assert_clean_stderr (&r);
  g_assert_nonnull (strstr (r.out, "\nDiagnosis of the hosts:\n"));
  g_assert_nonnull (strstr (r.out, "\n  - a is synchronized with b within ±"));
  g_assert_nonnull (strstr (r.out, "\n  - b is the reference of its group of 2 hosts"));
  g_assert_nonnull (strstr (r.out, "\n  - c is not synchronized: "));
  g_assert_nonnull (strstr (r.out, "\nDiagnosis of the links:\n  - a and b are synchronized: "));
  run_clear (&r);

  /* without the flag, no diagnosis */
  run_cli (&r, "sync", out, NULL);
  g_assert_cmpint (r.status, ==, 3);
  g_assert_null (strstr (r.out, "Diagnosis"));
  run_clear (&r);

  run_cli (&r, "sync", "--json", "--diagnose", "--reference=b", out, NULL);
  g_assert_cmpint (r.status, ==, 3);
  root = parse_object (r.out, parser);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (find_host (root, "a"), "diagnosis"),
                                   "a is synchronized with b within ±"));
  g_assert_true (g_str_has_prefix (json_object_get_string_member (find_host (root, "b"), "diagnosis"),
                                   "b is the reference of its group of 2 hosts"));
  g_assert_true (g_str_has_prefix (json_object_get_string_member (find_host (root, "c"), "diagnosis"),
                                   "c is not synchronized: "));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "links")), ==, 1);
  link = json_array_get_object_element (json_object_get_array_member (root, "links"), 0);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (link, "diagnosis"),
                                   "a and b are synchronized: "));
  run_clear (&r);
  rm_rf (dir);
}

static void
test_django (void)
{
  g_autofree char *dir = sl_test_data_path ("traces", "django-vote", NULL);
  const char *folders[] = { dir, NULL };
  static const char *const names[] = { "django-client", "django-db", "django-httpd" };
  g_autoptr(GPtrArray) problems = NULL;
  SlTraceReader *reader = NULL;
  SlEngine *engine;
  SlHostInfo hi = { 0 };
  guint client, db, httpd;

  if (dir == NULL)
    return;

  engine = load (folders, TRUE, &reader, &problems);
  g_assert_cmpuint (problems->len, ==, 0);

  /* three hosts found from the session folder tree */
  g_assert_cmpuint (sl_engine_get_n_hosts (engine), ==, 3);
  g_assert_cmpuint (sl_trace_reader_get_n_hosts (reader), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (sl_engine_find_host (engine, names[i]), !=, SL_HOST_NONE);
  client = sl_engine_find_host (engine, "django-client");
  db = sl_engine_find_host (engine, "django-db");
  httpd = sl_engine_find_host (engine, "django-httpd");

  /* two tree links, no client-db link, no inversion */
  g_assert_cmpuint (sl_engine_get_n_links (engine), ==, 2);
  g_assert_cmpuint (link_between (engine, "django-client", "django-db"), ==, G_MAXUINT);
  for (guint l = 0; l < 2; l++)
    {
      SlLinkInfo info;

      sl_engine_get_link_info (engine, l, &info);
      g_assert_cmpint (info.quality, ==, SL_QUALITY_ACCURATE);
      g_assert_true (info.in_tree);
      g_assert_true (info.inversions_known);
      g_assert_cmpuint (info.inversions, ==, 0);
    }

  /* client <-> db goes through httpd */
  sl_engine_pin_reference (engine, db);
  sl_engine_get_host_info (engine, client, &hi);
  g_assert_cmpuint (hi.reference, ==, db);
  g_assert_cmpuint (hi.path->len, ==, 3);
  g_assert_cmpuint (g_array_index (hi.path, guint, 0), ==, client);
  g_assert_cmpuint (g_array_index (hi.path, guint, 1), ==, httpd);
  g_assert_cmpuint (g_array_index (hi.path, guint, 2), ==, db);
  sl_host_info_clear (&hi);

  /* the timeline streams: scheduling, system calls, interrupts, names */
  for (guint i = 0; i < 3; i++)
    {
      const SlEventStore *store = sl_trace_reader_get_event_store (reader, i);
      SlHostCounts c;
      guint64 n, waiting = 0, dumped = 0;
      gint64 prev = G_MININT64;

      g_assert_nonnull (store);
      sl_engine_get_host_counts (engine, sl_trace_reader_get_engine_host (reader, i), &c);
      g_assert_cmpuint (c.events, >, 70000);
      g_assert_cmpuint (sl_event_store_get_kind_count (store, SL_EVENT_SCHED_SWITCH), >, 100);
      g_assert_cmpuint (sl_event_store_get_kind_count (store, SL_EVENT_SYSCALL_ENTRY), >, 1000);
      g_assert_cmpuint (sl_event_store_get_kind_count (store, SL_EVENT_SYSCALL_EXIT), >, 1000);
      g_assert_cmpuint (sl_event_store_get_kind_count (store, SL_EVENT_IRQ_ENTRY), >, 10);
      g_assert_cmpuint (sl_event_store_get_kind_count (store, SL_EVENT_PACKET_SEND) +
                        sl_event_store_get_kind_count (store, SL_EVENT_PACKET_RECV), ==, c.packet_events);
      g_assert_cmpuint (sl_event_store_get_n_threads (store), >, 5);

      /* the state dump's status and parents; forks say whether the child
       * is a process (lttng-modules 2.4 has child_pid), after their
       * parent's process; nothing was lost */
      g_assert_cmpuint (sl_event_store_get_kind_count (store, SL_EVENT_PROCESS_PARENT), >, 50);
      g_assert_cmpuint (sl_event_store_get_kind_count (store, SL_EVENT_LOST), ==, 0);
      g_assert_cmpuint (sl_event_store_get_n_lost (store), ==, 0);

      /* time-ordered, so views can bisect */
      n = sl_event_store_get_n_events (store, SL_EVENT_STREAM_SCHED);
      for (guint64 k = 0; k < n; k++)
        {
          const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_SCHED, k);
          g_assert_cmpint (e->time, >=, prev);
          prev = e->time;
          if (e->kind == SL_EVENT_PROCESS_NAME && (e->flags & SL_EVENT_NAME_STATE_DUMP))
            {
              g_assert_cmpuint (e->flags & SL_EVENT_NAME_STATUS_MASK, !=, SL_EVENT_TASK_UNKNOWN);
              waiting += (e->flags & SL_EVENT_NAME_STATUS_MASK) == SL_EVENT_TASK_WAIT;
              dumped++;
            }
          else if (e->kind == SL_EVENT_PROCESS_NAME)
            g_assert_cmpuint (e->flags, ==, SL_EVENT_NAME_FORK);
          if (e->kind == SL_EVENT_PROCESS_FORK)
            {
              const SlEvent *parent = sl_event_store_get (store, SL_EVENT_STREAM_SCHED, k - 1);

              g_assert_cmpuint (e->flags, ==, SL_EVENT_FORK_PROCESS);
              g_assert_cmpuint (parent->kind, ==, SL_EVENT_PROCESS_NAME);
              g_assert_cmpuint (parent->flags, ==, SL_EVENT_NAME_FORK);
              g_assert_cmpuint (parent->tid, ==, e->tid);
              g_assert_cmpint (parent->time, ==, e->time);
            }
        }
      g_assert_cmpuint (waiting, >, 50);
      g_assert_cmpuint (dumped, >, 100);
      g_assert_cmpuint (sl_event_store_get_kind_count (store, SL_EVENT_PROCESS_NAME), ==,
                        dumped + sl_event_store_get_kind_count (store, SL_EVENT_PROCESS_FORK));
      if (n > 10)
        {
          const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_SCHED, n / 2);
          guint64 k = sl_event_store_lower_bound (store, SL_EVENT_STREAM_SCHED, e->time);

          g_assert_cmpuint (k, <=, n / 2);
          g_assert_cmpint (sl_event_store_get (store, SL_EVENT_STREAM_SCHED, k)->time, ==, e->time);
        }
    }
  /* names come from sched_switch and the state dump */
  {
    const SlEventStore *store = sl_trace_reader_get_event_store (reader, httpd);
    gboolean apache = FALSE;

    for (guint64 k = 0; k < sl_event_store_get_n_events (store, SL_EVENT_STREAM_SCHED) && !apache; k++)
      {
        const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_SCHED, k);
        const char *name = sl_event_store_get_thread_name (store, e->arg);

        apache = name != NULL && (strstr (name, "apache") != NULL || strstr (name, "httpd") != NULL);
      }
    g_assert_true (apache);
  }

  sl_trace_reader_free (reader);
  sl_engine_free (engine);
}

/* ---------------------------------------------------------------------- */
/* Progress and cancellation                                               */

static void
test_progress_cancel (void)
{
  g_autofree char *dir = sl_test_data_path ("traces", "django-vote", NULL);
  SlEngine *engine;
  SlTraceReader *reader;
  SlTraceProgress p;
  SlTraceReaderStatus st;
  double last = 0;
  guint steps = 0;

  if (dir == NULL)
    return;

  /* cancelled at once: returns promptly, frees cleanly */
  engine = sl_engine_new (NULL);
  reader = sl_trace_reader_new (engine, NULL);
  sl_trace_reader_add_folder (reader, dir);
  sl_trace_reader_start (reader);
  sl_trace_reader_cancel (reader);
  g_assert_cmpint (sl_trace_reader_step (reader, 1000), ==, SL_TRACE_READER_CANCELLED);
  sl_trace_reader_free (reader);
  sl_engine_free (engine);

  /* cancelled midway, from the step loop */
  engine = sl_engine_new (NULL);
  reader = sl_trace_reader_new (engine, NULL);
  sl_trace_reader_add_folder (reader, dir);
  sl_trace_reader_start (reader);
  for (;;)
    {
      st = sl_trace_reader_step (reader, 1000);
      sl_trace_reader_get_progress (reader, &p);
      g_assert_cmpfloat (p.fraction, >=, last);
      g_assert_cmpfloat (p.fraction, <=, 1.0);
      last = p.fraction;
      if (p.events > 20000)
        sl_trace_reader_cancel (reader);
      if (st == SL_TRACE_READER_CANCELLED || st == SL_TRACE_READER_DONE)
        break;
      if (st == SL_TRACE_READER_AGAIN)
        sl_trace_reader_wait (reader, 50000);
      steps++;
    }
  g_assert_cmpint (st, ==, SL_TRACE_READER_CANCELLED);
  sl_trace_reader_free (reader);
  sl_engine_free (engine);

  /* to the end: the fraction reaches 1, the rate and ETA are known */
  engine = sl_engine_new (NULL);
  reader = sl_trace_reader_new (engine, NULL);
  sl_trace_reader_add_folder (reader, dir);
  g_assert_cmpint (sl_trace_reader_run (reader), ==, SL_TRACE_READER_DONE);
  sl_trace_reader_get_progress (reader, &p);
  g_assert_cmpfloat (p.fraction, ==, 1.0);
  g_assert_cmpuint (p.events, ==, 170415 + 72405 + 80654);
  g_assert_cmpfloat (p.events_per_s, >, 0);
  g_assert_cmpfloat (p.eta_s, ==, 0);
  g_assert_cmpuint (p.hosts, ==, 3);
  g_assert_cmpuint (p.hosts_done, ==, 3);
  sl_trace_reader_free (reader);
  sl_engine_free (engine);
}

/* The step that finds the hosts puts them in the engine and returns
 * before any of them is decoded: a window shows a thousand hosts without
 * waiting for their decoders' views and threads (issue 18). */
static void
test_hosts_before_decoders (void)
{
  g_autofree char *dir = sl_test_data_path ("traces", "django-vote", NULL);
  SlEngine *engine;
  SlTraceReader *reader;
  SlTraceReaderStatus st;
  SlTraceProgress p;

  if (dir == NULL)
    return;

  engine = sl_engine_new (NULL);
  reader = sl_trace_reader_new (engine, NULL);
  sl_trace_reader_add_folder (reader, dir);
  sl_trace_reader_start (reader);
  do
    {
      st = sl_trace_reader_step (reader, 1000);
      if (st == SL_TRACE_READER_AGAIN && sl_trace_reader_get_n_hosts (reader) == 0)
        sl_trace_reader_wait (reader, 50000);
    }
  while (sl_trace_reader_get_n_hosts (reader) == 0 && st != SL_TRACE_READER_DONE);
  g_assert_cmpint (st, ==, SL_TRACE_READER_BUSY);
  g_assert_cmpuint (sl_trace_reader_get_n_hosts (reader), ==, 3);
  g_assert_cmpuint (sl_engine_get_n_hosts (engine), ==, 3);
  g_assert_false (sl_trace_reader_get_launched (reader));
  sl_trace_reader_get_progress (reader, &p);
  g_assert_cmpuint (p.events, ==, 0);

  g_assert_cmpint (sl_trace_reader_run (reader), ==, SL_TRACE_READER_DONE);
  g_assert_true (sl_trace_reader_get_launched (reader));
  sl_trace_reader_get_progress (reader, &p);
  g_assert_cmpuint (p.events, ==, 170415 + 72405 + 80654);
  sl_trace_reader_free (reader);
  sl_engine_free (engine);
}

/* ---------------------------------------------------------------------- */
/* Errors                                                                  */

typedef enum
{
  BREAK_MISSING_METADATA,
  BREAK_CORRUPT_METADATA,
  BREAK_TRUNCATED_METADATA,
  BREAK_TRUNCATED_STREAM,
  BREAK_NO_PACKETS,
  BREAK_UNREADABLE_PACKETS,
  BREAK_UNREADABLE,
  BREAK_CUT_STREAMS,
  N_BREAKS
} Break;

static const struct
{
  const char *name;
  const char *file;
  const char *needle;
} breaks[N_BREAKS] = {
  [BREAK_MISSING_METADATA] = { "missing-metadata", "metadata", "no metadata file" },
  [BREAK_CORRUPT_METADATA] = { "corrupt-metadata", "metadata", "corrupt metadata" },
  [BREAK_TRUNCATED_METADATA] = { "truncated-metadata", "metadata", "truncated metadata" },
  [BREAK_TRUNCATED_STREAM] = { "truncated-stream", "channel0_0", "channel0_0" },
  [BREAK_NO_PACKETS] = { "no-packets", NULL, "no TCP packet events" },
  [BREAK_UNREADABLE_PACKETS] = { "unreadable-packets", "channel0_0",
                                 "TCP packet events can be read (inet_sock_local_" },
  [BREAK_UNREADABLE] = { "unreadable", NULL, "cannot read" },
  [BREAK_CUT_STREAMS] = { "cut-streams", "channel0_0", "its header is cut" },
};

/* A copy of synctraces' VM1 (scp_src) broken one way, in @parent/NAME.
 * Returns the path the message must name. */
static char *
make_broken (const char *parent,
             Break       b)
{
  g_autofree char *src = sl_test_data_path ("traces", "synctraces", "scp_src", NULL);
  g_autofree char *dir = g_build_filename (parent, breaks[b].name, "kernel", NULL);
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autofree char *stream = g_build_filename (dir, "channel0_0", NULL);
  g_autofree char *data = NULL;
  gsize len;

  copy_trace (src, dir);

  switch (b)
    {
    case BREAK_MISSING_METADATA:
      g_unlink (metadata);
      return g_steal_pointer (&metadata);

    case BREAK_CORRUPT_METADATA:
      {
        /* a syntax error in the TSDL text, packet framing intact */
        g_assert_true (g_file_get_contents (metadata, &data, &len, NULL));
        for (gsize i = 0; i + 8 < len; i++)
          if (memcmp (data + i, "typealias", 9) == 0)
            {
              memcpy (data + i, "typeali@s", 9);
              break;
            }
        g_assert_true (g_file_set_contents (metadata, data, (gssize) len, NULL));
        return g_steal_pointer (&metadata);
      }

    case BREAK_TRUNCATED_METADATA:
      /* cut inside a packet's text: babeltrace2 2.0.4 would loop for ever
       * on this one (a cut in the last packet's padding is harmless) */
      g_assert_true (g_file_get_contents (metadata, &data, &len, NULL));
      g_assert_true (g_file_set_contents (metadata, data, (gssize) (len / 2 + 100), NULL));
      return g_steal_pointer (&metadata);

    case BREAK_TRUNCATED_STREAM:
      g_assert_true (g_file_get_contents (stream, &data, &len, NULL));
      g_assert_true (g_file_set_contents (stream, data, (gssize) (len / 2 + 123), NULL));
      return g_steal_pointer (&stream);

    case BREAK_NO_PACKETS:
      {
        /* the same trace, its packet events renamed in plain-text metadata */
        g_autofree char *text = metadata_text (metadata);
        g_autoptr(GString) s = g_string_new (text);

        g_string_replace (s, "inet_sock_local_", "inet_sock_locxl_", 0);
        g_assert_true (g_file_set_contents (metadata, s->str, (gssize) s->len, NULL));
        return g_steal_pointer (&dir);
      }

    case BREAK_UNREADABLE_PACKETS:
      {
        /* the packet events there, one of their fields renamed: they
         * cannot be read, which is not having none */
        g_autofree char *text = metadata_text (metadata);
        g_autoptr(GString) s = g_string_new (text);

        g_assert_cmpuint (g_string_replace (s, "ack_seq", "ack_sxq", 0), >, 0);
        g_assert_true (g_file_set_contents (metadata, s->str, (gssize) s->len, NULL));
        return g_steal_pointer (&stream);
      }

    case BREAK_UNREADABLE:
      if (geteuid () == 0)
        {
          /* root reads a mode-000 folder anyway: a link to nowhere
           * stands for the unreadable folder */
          g_autofree char *parent_dir = g_path_get_dirname (dir);

          rm_rf (dir);
          g_assert_cmpint (symlink ("/nonexistent/syncline/kernel", dir), ==, 0);
          (void) parent_dir;
        }
      else
        g_assert_cmpint (g_chmod (dir, 0), ==, 0);
      return g_steal_pointer (&dir);

    case BREAK_CUT_STREAMS:
      /* every stream file cut within its first packet's header: the
       * host is there, nothing of it can be read */
      for (guint cpu = 0;; cpu++)
        {
          g_autofree char *name = g_strdup_printf ("channel0_%u", cpu);
          g_autofree char *path = g_build_filename (dir, name, NULL);

          if (!g_file_test (path, G_FILE_TEST_EXISTS))
            {
              g_assert_cmpuint (cpu, >, 0);
              break;
            }
          g_assert_true (g_file_set_contents (path, "\xc1\x1f\xfc\xc1\0\0\0", 7, NULL));
        }
      return g_steal_pointer (&stream);

    case N_BREAKS:
    default:
      g_assert_not_reached ();
    }
  return NULL;
}

static void
assert_problem (const Run  *r,
                const char *file,
                const char *host,
                const char *needle)
{
  g_auto(GStrv) lines = g_strsplit (r->err, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], file) != NULL && strstr (lines[i], needle) != NULL &&
        (host == NULL || strstr (lines[i], host) != NULL))
      return;
  g_error ("no warning naming %s (host %s, “%s”) in:\n%s", file, host ? host : "-", needle, r->err);
}

static void
test_errors (void)
{
  g_autofree char *good = sl_test_data_path ("traces", "synctraces", "scp_dest", NULL);

  if (good == NULL)
    return;

  for (Break b = 0; b < N_BREAKS; b++)
    {
      g_autofree char *tmp = make_tmpdir ();
      g_autofree char *vm3 = g_build_filename (tmp, "vm3", NULL);
      g_autofree char *file = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *root, *h;
      JsonArray *problems;
      Run r = { 0 };

      g_test_message ("case %s", breaks[b].name);
      g_assert_cmpint (symlink (good, vm3), ==, 0);
      file = make_broken (tmp, b);

      if (b == BREAK_UNREADABLE_PACKETS || b == BREAK_CUT_STREAMS)
        run_cli (&r, "sync", "--json", "--diagnose", tmp, NULL);
      else
        run_cli (&r, "sync", "--json", tmp, NULL);
      g_test_message ("%s", r.err);
      assert_clean_stderr (&r);
      /* the other host still loads; it has packets but nobody to match
       * them with, so it cannot be synchronized: exit status 3 */
      g_assert_cmpint (r.status, ==, 3);
      root = parse_object (r.out, parser);
      h = find_host (root, "VM3");
      g_assert_nonnull (h);
      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (h, "counts"), "events"), ==, 85729);

      /* a clear message naming the file and, when known, the host */
      assert_problem (&r, file, b == BREAK_MISSING_METADATA || b == BREAK_UNREADABLE ? NULL : "VM1",
                      breaks[b].needle);
      if (b == BREAK_UNREADABLE_PACKETS)
        {
          JsonObject *vm1 = find_host (root, "VM1");
          const char *why;

          assert_problem (&r, file, "VM1", "has no ack_seq field");
          /* the diagnosis counts them, and does not say there are none */
          g_assert_nonnull (vm1);
          why = json_object_get_string_member (vm1, "diagnosis");
          g_test_message ("VM1: %s", why);
          g_assert_nonnull (strstr (why, "TCP packet events can be read"));
          g_assert_null (strstr (why, "no TCP packet events"));
          g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (vm1, "counts"), "ignored"),
                           >, 0);
        }
      if (b == BREAK_CUT_STREAMS)
        {
          JsonObject *vm1 = find_host (root, "VM1");
          const char *reason, *why;

          /* its reason and diagnosis name the first problem, not a lack
           * of packet events (it read "no TCP packet event in its
           * traces"); so does its last problem */
          g_assert_nonnull (vm1);
          reason = json_object_get_string_member (vm1, "reason");
          why = json_object_get_string_member (vm1, "diagnosis");
          g_test_message ("VM1: %s\n%s", reason, why);
          g_assert_cmpstr (reason, ==, "no event could be read: channel0_0: packet at offset 0: its header is cut");
          g_assert_nonnull (strstr (why, "could be read: channel0_0: packet at offset 0: its header is cut"));
          assert_problem (&r, "kernel", "VM1", "no event could be read (channel0_0: packet at offset 0");
          g_assert_null (strstr (r.err, "no TCP packet events"));
        }
      problems = json_object_get_array_member (root, "problems");
      g_assert_cmpuint (json_array_get_length (problems), >=, 1);
      run_clear (&r);
      rm_rf (tmp);
    }
}

/* All the broken copies beside django-vote's three hosts: the link
 * structure is as without them. */
static void
test_errors_others_synchronized (void)
{
  g_autofree char *django = sl_test_data_path ("traces", "django-vote", NULL);
  g_autofree char *tmp = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *links;
  Run r = { 0 };
  static const char *const names[] = { "django-client.phd.vm", "django-db.phd.vm", "django-httpd.phd.vm" };

  if (django == NULL)
    return;

  tmp = make_tmpdir ();
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *from = g_build_filename (django, names[i], NULL);
      g_autofree char *to = g_build_filename (tmp, names[i], NULL);
      g_assert_cmpint (symlink (from, to), ==, 0);
    }
  for (Break b = 0; b < N_BREAKS; b++)
    g_free (make_broken (tmp, b));

  run_cli (&r, "sync", "--json", tmp, NULL);
  assert_clean_stderr (&r);
  g_assert_cmpint (r.status, ==, 0);
  root = parse_object (r.out, parser);
  links = json_object_get_array_member (root, "links");
  g_assert_cmpuint (json_array_get_length (links), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *l = json_array_get_object_element (links, i);

      g_assert_cmpstr (json_object_get_string_member (l, "quality"), ==, "accurate");
      g_assert_cmpint (json_object_get_int_member (l, "inversions_after_sync"), ==, 0);
    }
  g_assert_nonnull (find_host (root, "django-client"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "problems")), >=, N_BREAKS);
  run_clear (&r);
  rm_rf (tmp);
}

static void
test_nothing_found (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *sub = g_build_filename (tmp, "empty", NULL);
  Run r = { 0 };

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  run_cli (&r, "sync", tmp, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_true (g_str_has_prefix (r.err, "syncline-cli: "));
  g_assert_true (strchr (r.err, '\n') == r.err + strlen (r.err) - 1);
  g_assert_nonnull (strstr (r.err, tmp));
  g_assert_nonnull (strstr (r.err, "no LTTng trace"));
  run_clear (&r);

  /* folders and LTTV files do not mix */
  run_cli (&r, "sync", tmp, "/dev/null", NULL);
  g_assert_cmpint (r.status, ==, 2);
  run_clear (&r);
  rm_rf (tmp);
}

/* What the scan of @folder found, in its order: every problem, then each
 * host with its identity and trace folders. */
static char *
scan_record (const char *const *folders,
             guint              n_threads)
{
  g_autoptr(SlEngine) engine = sl_engine_new (NULL);
  g_autoptr(GPtrArray) problems = NULL;
  SlTraceReaderOptions ro;
  SlTraceReader *reader;
  GString *out = g_string_new (NULL);

  sl_trace_reader_options_init (&ro);
  ro.scan_only = TRUE;
  ro.n_threads = n_threads;
  reader = sl_trace_reader_new (engine, &ro);
  for (guint i = 0; folders[i] != NULL; i++)
    sl_trace_reader_add_folder (reader, folders[i]);
  sl_trace_reader_start (reader);
  g_assert_cmpint (sl_trace_reader_run (reader), ==, SL_TRACE_READER_DONE);
  problems = sl_trace_reader_dup_problems (reader);
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *line = sl_trace_problem_to_string (g_ptr_array_index (problems, i));

      g_string_append_printf (out, "problem %s\n", line);
    }
  for (guint i = 0; i < sl_trace_reader_get_n_hosts (reader); i++)
    {
      const GPtrArray *traces = sl_trace_reader_get_host_traces (reader, i);
      const char *hostname, *uuid;

      sl_trace_reader_get_host_identity (reader, i, &hostname, &uuid);
      g_string_append_printf (out, "host %s (%s, %s)%s:", sl_trace_reader_get_host_name (reader, i), hostname,
                              uuid != NULL ? uuid : "-", sl_trace_reader_host_failed (reader, i) ? " failed" : "");
      for (guint k = 0; k < traces->len; k++)
        g_string_append_printf (out, " %s", (const char *) g_ptr_array_index (traces, k));
      g_string_append_c (out, '\n');
    }
  sl_trace_reader_free (reader);
  return g_string_free (out, FALSE);
}

/* The folder of a trace a problem names (the problem may name a file in
 * it, or the folder itself) */
static char *
problem_folder (const char *file)
{
  return g_str_has_suffix (file, "/kernel") ? g_strdup (file) : g_path_get_dirname (file);
}

/* Damaged folders (each break, twice, and streams with damaged packet
 * headers) beside django-vote's hosts: the scan meets them in the order
 * of their names, so its messages come in that order, whatever the heap
 * (g_ptr_array_sort() with g_strcmp0 compared the pointers' bytes). It
 * checks the traces on several threads: what it finds and says is the
 * same, in the same order, as on one. */
static void
test_scan_order (void)
{
  g_autofree char *django = sl_test_data_path ("traces", "django-vote", NULL);
  g_autofree char *src = sl_test_data_path ("traces", "synctraces", "scp_src", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261128);
  g_autofree char *tmp = NULL;
  g_autofree char *one = NULL;
  g_autofree char *many = NULL;
  g_autofree char *last = g_strdup ("");
  guint helpers = sl_parallel_get_helpers ();
  g_auto(GStrv) lines = NULL;
  guint n_scan_problems = 0;
  static const char *const names[] = { "django-client.phd.vm", "django-db.phd.vm", "django-httpd.phd.vm" };

  if (django == NULL || src == NULL)
    return;

  tmp = make_tmpdir ();
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *from = g_build_filename (django, names[i], NULL);
      g_autofree char *parent = g_build_filename (tmp, "m", NULL);
      g_autofree char *to = g_build_filename (parent, names[i], NULL);

      g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
      g_assert_cmpint (symlink (from, to), ==, 0);
    }
  for (guint g = 0; g < 2; g++)
    {
      g_autofree char *parent = g_strdup_printf ("%s/%c", tmp, "dr"[g]);

      for (Break b = 0; b < N_BREAKS; b++)
        g_free (make_broken (parent, b));
    }
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/f%u/kernel", tmp, i);
      g_autofree char *stream = g_build_filename (dir, "channel0_0", NULL);
      g_autofree char *data = NULL;
      gsize len, at;

      copy_trace (src, dir);
      g_assert_true (g_file_get_contents (stream, &data, &len, NULL));
      /* a byte of a packet's header or context (packets of 256 KiB) */
      at = (gsize) g_rand_int_range (rand, 0, (gint32) (len / 262144)) * 262144 + (gsize) g_rand_int_range (rand, 0, 48);
      data[at] ^= (char) (1 << g_rand_int_range (rand, 0, 8));
      g_assert_true (g_file_set_contents (stream, data, (gssize) len, NULL));
    }

  sl_parallel_set_helpers (0);
  one = scan_record ((const char *const[]) { tmp, NULL }, 1);
  sl_parallel_set_helpers (3);
  many = scan_record ((const char *const[]) { tmp, NULL }, 4);
  sl_parallel_set_helpers (helpers);
  g_test_message ("%s", one);
  g_assert_cmpstr (many, ==, one);
  /* the damage is seen where it lies */
  for (Break b = 0; b < N_BREAKS; b++)
    if (b != BREAK_NO_PACKETS)
      {
        g_autofree char *d = g_strdup_printf ("/d/%s/", breaks[b].name);
        g_autofree char *r = g_strdup_printf ("/r/%s/", breaks[b].name);

        g_assert_nonnull (strstr (one, d));
        g_assert_nonnull (strstr (one, r));
      }
  g_assert_nonnull (strstr (one, "host django-httpd"));
  /* the scan's messages (the copies left out come after, when the
   * traces are grouped) in the order of the folders' names */
  lines = g_strsplit (one, "\n", -1);
  for (guint i = 0; lines[i] != NULL && g_str_has_prefix (lines[i], "problem ") &&
                    strstr (lines[i], "the same trace as") == NULL; i++)
    {
      const char *file = strstr (lines[i], tmp);
      g_autofree char *path = g_strndup (file, strcspn (file, ":"));
      g_autofree char *folder = problem_folder (path);

      if (strcmp (folder, last) < 0)
        g_error ("%s comes after %s", folder, last);
      g_free (last);
      last = g_steal_pointer (&folder);
      n_scan_problems++;
    }
  g_assert_cmpuint (n_scan_problems, >=, 10);

  /* Two folders given, each with only a problem: each is told once, and
   * neither is "no LTTng trace found" (the second folder's problem once
   * joined the first's) */
  {
    g_autofree char *a = g_build_filename (tmp, "two", "a", NULL);
    g_autofree char *b = g_build_filename (tmp, "two", "b", NULL);
    g_autofree char *two = NULL;
    g_auto(GStrv) two_lines = NULL;

    for (guint i = 0; i < 2; i++)
      {
        const char *dir = i == 0 ? a : b;
        g_autofree char *stream = g_build_filename (dir, "chan_0", NULL);
        static const guint8 header[40] = { 0xc1, 0x1f, 0xfc, 0xc1 };

        g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
        g_assert_true (g_file_set_contents (stream, (const char *) header, sizeof header, NULL));
      }
    two = scan_record ((const char *const[]) { a, b, NULL }, 2);
    g_test_message ("%s", two);
    g_assert_null (strstr (two, "no LTTng trace found"));
    two_lines = g_strsplit (g_strchomp (two), "\n", -1);
    g_assert_cmpuint (g_strv_length (two_lines), ==, 2);
    g_assert_nonnull (strstr (two_lines[0], a));
    g_assert_nonnull (strstr (two_lines[1], b));
  }
  rm_rf (tmp);
}

/* Truncated and bit-flipped copies of VM1 beside an intact VM3: the
 * reader never crashes nor hangs, speaks in clear lines, and VM3 is read
 * whole. Deterministic seeds. */
static void
test_fuzz (void)
{
  g_autofree char *src = sl_test_data_path ("traces", "synctraces", "scp_src", NULL);
  g_autofree char *good = sl_test_data_path ("traces", "synctraces", "scp_dest", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240611);
  guint n_cases = g_test_slow () ? 64 : 14;

  if (src == NULL || good == NULL)
    return;

  for (guint i = 0; i < n_cases; i++)
    {
      g_autofree char *tmp = make_tmpdir ();
      g_autofree char *vm3 = g_build_filename (tmp, "vm3", NULL);
      g_autofree char *dir = g_build_filename (tmp, "vm1", NULL);
      gboolean meta = g_rand_boolean (rand);
      g_autofree char *file = g_build_filename (dir, meta ? "metadata" : "channel0_0", NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *data = NULL;
      gsize len;
      guint kind = g_rand_int_range (rand, 0, 3);
      Run r = { 0 };

      g_assert_cmpint (symlink (good, vm3), ==, 0);
      copy_trace (src, dir);
      g_assert_true (g_file_get_contents (file, &data, &len, NULL));
      if (kind == 0)
        len = (gsize) g_rand_int_range (rand, 0, (gint32) len);
      else
        {
          guint flips = kind == 1 ? 1 : 16;
          /* the first packets hold the headers babeltrace trusts most */
          gsize span = g_rand_boolean (rand) ? MIN (len, 8192) : len;

          for (guint k = 0; k < flips; k++)
            data[g_rand_int_range (rand, 0, (gint32) span)] ^= (char) (1 << g_rand_int_range (rand, 0, 8));
        }
      g_assert_true (g_file_set_contents (file, data, (gssize) len, NULL));
      g_test_message ("case %u: %s, %s", i, meta ? "metadata" : "stream",
                      kind == 0 ? "truncated" : kind == 1 ? "one bit flipped" : "16 bits flipped");

      run_cli (&r, "sync", "--json", tmp, NULL);
      assert_clean_stderr (&r);
      {
        JsonObject *root = parse_object (r.out, parser);
        JsonObject *h = find_host (root, "VM3");
        JsonArray *hosts = json_object_get_array_member (root, "hosts");
        gboolean unsynchronized = FALSE;

        g_assert_nonnull (h);
        g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (h, "counts"), "events"),
                         ==, 85729);
        /* status 3 exactly when a host with packets is not synchronized
         * (VM1 too damaged to match VM3's packets) */
        for (guint k = 0; k < json_array_get_length (hosts); k++)
          {
            JsonObject *o = json_array_get_object_element (hosts, k);

            unsynchronized |= !json_object_get_boolean_member (o, "synchronized") &&
                              json_object_get_int_member (json_object_get_object_member (o, "counts"),
                                                          "packet_events") > 0;
          }
        g_assert_cmpint (r.status, ==, unsynchronized ? 3 : 0);
      }
      run_clear (&r);
      rm_rf (tmp);
    }
}

/* ---------------------------------------------------------------------- */
/* Hand-made traces: the layouts the real traces do not have               */

/*
 * A minimal CTF 1.8 writer: text metadata, one packet per stream, byte
 * aligned fields. Event layouts copy lttng-modules >= 2.9 (network and
 * transport header variants, tagged by transport_header_type, or by
 * protocol/nexthdr as in 2.9.0-2.9.7) and the flat syncline_net UST
 * event of README.md.
 */

typedef enum
{
  LAYOUT_KERNEL,
  LAYOUT_KERNEL_OLD_TAG,
  LAYOUT_UST,
} Layout;

typedef enum
{
  PROTO_TCP,
  PROTO_UDP,
  PROTO_NONE,
} Proto;

typedef struct
{
  gint64  time;
  guint   cpu;
  gboolean send;
  guint8  family;
  Proto   proto;
  guint8  saddr[16];
  guint8  daddr[16];
  guint16 sport;
  guint16 dport;
  guint32 seq;
  guint32 ack;
  guint16 flags;
} FakeEvent;

#define FAKE_CLOCK_OFFSET_S G_GINT64_CONSTANT (1600000000)

static const char metadata_common[] =
  "/* CTF 1.8 */\n"
  "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
  "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
  "typealias integer { size = 16; align = 8; signed = false; byte_order = be; } := be16;\n"
  "typealias integer { size = 32; align = 8; signed = false; byte_order = be; } := be32;\n"
  "trace {\n"
  "  major = 1; minor = 8; uuid = \"%s\"; byte_order = le;\n"
  "  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };\n"
  "};\n"
  "env { hostname = \"%s\"; domain = \"%s\"; tracer_name = \"%s\"; };\n"
  "clock { name = monotonic; uuid = \"%s\"; freq = 1000000000; offset_s = %" G_GINT64_FORMAT "; offset = 0; };\n"
  "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := clock64;\n"
  "stream {\n"
  "  id = 0;\n"
  "  event.header := struct { uint32_t id; clock64 timestamp; };\n"
  "  packet.context := struct { clock64 timestamp_begin; clock64 timestamp_end; uint64_t content_size;\n"
  "                             uint64_t packet_size; uint32_t cpu_id; };\n"
  "};\n";

static const char metadata_tcp[] =
  "struct { be16 _source_port; be16 _dest_port; be32 _seq; be32 _ack_seq;\n"
  "  integer { size = 4; align = 1; signed = false; byte_order = be; } _data_offset;\n"
  "  integer { size = 3; align = 1; signed = false; byte_order = be; } _reserved;\n"
  "  integer { size = 9; align = 1; signed = false; byte_order = be; } _flags;\n"
  "  be16 _window_size; be16 _checksum; be16 _urg_ptr; } _tcp;\n"
  "struct { be16 _source_port; be16 _dest_port; be16 _len; be16 _check; } _udp;\n"
  "struct { uint8_t _type; uint8_t _code; be16 _checksum; be32 _gateway; } _icmp;\n";

static const char metadata_proto_enum[] =
  "enum : integer { size = 8; align = 8; signed = false; byte_order = be; } {\n"
  "  _unknown = 0, _icmp = 1, _unknown = 2 ... 5, _tcp = 6, _unknown = 7 ... 16, _udp = 17,\n"
  "  _unknown = 18 ... 255 }";

static const char metadata_th_enum[] =
  "enum : uint8_t { _unknown = 0, _tcp = 1, _udp = 2, _icmp = 3 } _transport_header_type;\n";

static char *
kernel_event_metadata (const char *name,
                       guint       id,
                       gboolean    old_tag)
{
  GString *s = g_string_new (NULL);
  const char *tag4 = old_tag ? "_protocol" : "_transport_header_type";
  const char *tag6 = old_tag ? "_nexthdr" : "_transport_header_type";

  g_string_append_printf (s, "event {\n  name = %s;\n  id = %u;\n  stream_id = 0;\n  fields := struct {\n", name, id);
  g_string_append (s, "    uint64_t _skbaddr; uint32_t _len; string _name;\n"
                      "    enum : uint8_t { _unknown = 0, _ipv4 = 1, _ipv6 = 2 } _network_header_type;\n"
                      "    variant <_network_header_type> {\n"
                      "      struct { } _unknown;\n"
                      "      struct {\n"
                      "        uint8_t _version_ihl; uint8_t _tos; be16 _tot_len; be16 _id; be16 _frag_off; uint8_t _ttl;\n");
  g_string_append_printf (s, "        %s _protocol;\n", metadata_proto_enum);
  g_string_append (s, "        be16 _checksum; uint8_t _saddr[4]; uint8_t _daddr[4];\n");
  g_string_append_printf (s, "        %s", metadata_th_enum);
  g_string_append_printf (s, "        variant <%s> {\n          struct { } _unknown;\n%s        } _transport_header;\n",
                          tag4, metadata_tcp);
  g_string_append (s, "      } _ipv4;\n"
                      "      struct {\n"
                      "        uint8_t _version_prio; uint8_t _flow_lbl[3]; be16 _payload_len;\n");
  g_string_append_printf (s, "        %s _nexthdr;\n", metadata_proto_enum);
  g_string_append (s, "        uint8_t _hop_limit; be16 _saddr[8]; be16 _daddr[8];\n");
  g_string_append_printf (s, "        %s", metadata_th_enum);
  g_string_append_printf (s, "        variant <%s> {\n          struct { } _unknown;\n%s        } _transport_header;\n",
                          tag6, metadata_tcp);
  g_string_append (s, "      } _ipv6;\n    } _network_header;\n  };\n};\n");
  return g_string_free (s, FALSE);
}

static const char metadata_ust[] =
  "event {\n  name = \"syncline_net:%s\";\n  id = %u;\n  stream_id = 0;\n  fields := struct {\n"
  "    uint8_t _family; uint8_t _saddr[16]; uint8_t _daddr[16]; uint16_t _sport; uint16_t _dport;\n"
  "    uint32_t _seq; uint32_t _ack_seq; uint16_t _flags;\n  };\n};\n";

static void
put_le (GByteArray *b,
        guint64     v,
        guint       bytes)
{
  for (guint i = 0; i < bytes; i++)
    g_byte_array_append (b, (guint8[]) { (guint8) (v >> (8 * i)) }, 1);
}

static void
put_be (GByteArray *b,
        guint64     v,
        guint       bytes)
{
  for (guint i = 0; i < bytes; i++)
    g_byte_array_append (b, (guint8[]) { (guint8) (v >> (8 * (bytes - 1 - i))) }, 1);
}

static void
uuid_bytes (const char *uuid,
            guint8     *out)
{
  guint n = 0;

  for (const char *p = uuid; *p != '\0' && n < 16; p++)
    if (g_ascii_isxdigit (p[0]) && g_ascii_isxdigit (p[1]))
      {
        out[n++] = (guint8) (g_ascii_xdigit_value (p[0]) << 4 | g_ascii_xdigit_value (p[1]));
        p++;
      }
}

static void
put_event (GByteArray      *b,
           Layout           layout,
           const FakeEvent *e)
{
  guint64 raw = (guint64) (e->time - FAKE_CLOCK_OFFSET_S * 1000000000);

  if (layout == LAYOUT_UST)
    {
      put_le (b, e->send ? 0 : 1, 4);
      put_le (b, raw, 8);
      put_le (b, e->family, 1);
      g_byte_array_append (b, e->saddr, 16);
      g_byte_array_append (b, e->daddr, 16);
      put_le (b, e->sport, 2);
      put_le (b, e->dport, 2);
      put_le (b, e->seq, 4);
      put_le (b, e->ack, 4);
      put_le (b, e->flags, 2);
      return;
    }

  put_le (b, e->send ? 0 : 1, 4);
  put_le (b, raw, 8);
  put_le (b, G_GUINT64_CONSTANT (0xffff888012345678), 8);
  put_le (b, 60, 4);
  g_byte_array_append (b, (const guint8 *) "eth0", 5);
  put_le (b, e->proto == PROTO_NONE ? 0 : e->family == 4 ? 1 : 2, 1);
  if (e->proto == PROTO_NONE)
    return;

  if (e->family == 4)
    {
      put_le (b, 0x45, 1);
      put_le (b, 0, 1);
      put_be (b, 60, 2);
      put_be (b, 1234, 2);
      put_be (b, 0, 2);
      put_le (b, 64, 1);
      put_be (b, e->proto == PROTO_TCP ? 6 : 17, 1);
      put_be (b, 0xbeef, 2);
      g_byte_array_append (b, e->saddr, 4);
      g_byte_array_append (b, e->daddr, 4);
    }
  else
    {
      put_le (b, 0x60, 1);
      g_byte_array_append (b, (const guint8[]) { 0, 0, 0 }, 3);
      put_be (b, 40, 2);
      put_be (b, e->proto == PROTO_TCP ? 6 : 17, 1);
      put_le (b, 64, 1);
      for (guint i = 0; i < 16; i += 2)
        put_be (b, (guint) e->saddr[i] << 8 | e->saddr[i + 1], 2);
      for (guint i = 0; i < 16; i += 2)
        put_be (b, (guint) e->daddr[i] << 8 | e->daddr[i + 1], 2);
    }
  put_le (b, e->proto == PROTO_TCP ? 1 : 2, 1);
  put_be (b, e->sport, 2);
  put_be (b, e->dport, 2);
  if (e->proto == PROTO_TCP)
    {
      put_be (b, e->seq, 4);
      put_be (b, e->ack, 4);
      put_be (b, (guint64) 5 << 12 | (e->flags & 0x1ff), 2);
      put_be (b, 29200, 2);
      put_be (b, 0x1234, 2);
      put_be (b, 0, 2);
    }
  else
    {
      put_be (b, 20, 2);
      put_be (b, 0x4321, 2);
    }
}

static int
cmp_fake (gconstpointer a,
          gconstpointer b)
{
  const FakeEvent *x = a, *y = b;
  return (x->time > y->time) - (x->time < y->time);
}

/* One trace, one stream file per CPU. */
static void
write_fake_trace (const char *dir,
                  const char *hostname,
                  const char *trace_uuid,
                  const char *clock_uuid,
                  Layout      layout,
                  GArray     *events)
{
  g_autoptr(GString) meta = g_string_new (NULL);
  g_autofree char *meta_path = g_build_filename (dir, "metadata", NULL);
  guint8 uuid[16] = { 0 };

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_string_append_printf (meta, metadata_common, trace_uuid, hostname,
                          layout == LAYOUT_UST ? "ust" : "kernel",
                          layout == LAYOUT_UST ? "lttng-ust" : "lttng-modules",
                          clock_uuid, FAKE_CLOCK_OFFSET_S);
  if (layout == LAYOUT_UST)
    {
      g_string_append_printf (meta, metadata_ust, "tcp_send", 0);
      g_string_append_printf (meta, metadata_ust, "tcp_recv", 1);
    }
  else
    {
      g_autofree char *send = kernel_event_metadata ("net_dev_queue", 0, layout == LAYOUT_KERNEL_OLD_TAG);
      g_autofree char *recv = kernel_event_metadata ("net_if_receive_skb", 1, layout == LAYOUT_KERNEL_OLD_TAG);

      g_string_append (meta, send);
      g_string_append (meta, recv);
    }
  g_assert_true (g_file_set_contents (meta_path, meta->str, (gssize) meta->len, NULL));

  uuid_bytes (trace_uuid, uuid);
  g_array_sort (events, cmp_fake);
  for (guint cpu = 0; cpu < 2; cpu++)
    {
      g_autoptr(GByteArray) body = g_byte_array_new ();
      g_autoptr(GByteArray) pkt = g_byte_array_new ();
      g_autofree char *name = g_strdup_printf ("chan_%u", cpu);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      gint64 first = -1, last = 0;
      const guint header = 4 + 16 + 4 + 8 * 4 + 4;

      for (guint i = 0; i < events->len; i++)
        {
          const FakeEvent *e = &g_array_index (events, FakeEvent, i);

          if (e->cpu != cpu)
            continue;
          if (first < 0)
            first = e->time;
          last = e->time;
          put_event (body, layout, e);
        }
      if (first < 0)
        continue;

      put_le (pkt, 0xc1fc1fc1, 4);
      g_byte_array_append (pkt, uuid, 16);
      put_le (pkt, 0, 4);
      put_le (pkt, (guint64) (first - FAKE_CLOCK_OFFSET_S * 1000000000), 8);
      put_le (pkt, (guint64) (last - FAKE_CLOCK_OFFSET_S * 1000000000), 8);
      put_le (pkt, (guint64) (header + body->len) * 8, 8);
      put_le (pkt, (guint64) (header + body->len) * 8, 8);
      put_le (pkt, cpu, 4);
      g_byte_array_append (pkt, body->data, body->len);
      g_assert_true (g_file_set_contents (path, (const char *) pkt->data, (gssize) pkt->len, NULL));
    }
}

typedef struct
{
  const char *name;
  gint64      offset_ns;
  double      drift;
} FakeClock;

static gint64
local_time (const FakeClock *c,
            gint64           t)
{
  gint64 base = FAKE_CLOCK_OFFSET_S * 1000000000 + G_GINT64_CONSTANT (3600) * 1000000000;

  return t + c->offset_ns + (gint64) (c->drift * (double) (t - base));
}

/* One TCP exchange a -> b and back, recorded on both sides. */
static void
fake_exchange (GArray          *ea,
               GArray          *eb,
               const FakeClock *ca,
               const FakeClock *cb,
               gint64           t,
               guint8           family,
               guint            k,
               GRand           *rand)
{
  FakeEvent e = { 0 };
  gint64 lat1 = 40000 + g_rand_int_range (rand, 0, 80000);
  gint64 lat2 = 40000 + g_rand_int_range (rand, 0, 80000);

  e.family = family;
  e.proto = PROTO_TCP;
  if (family == 4)
    {
      memcpy (e.saddr, (guint8[]) { 10, 0, 0, 1 }, 4);
      memcpy (e.daddr, (guint8[]) { 10, 0, 0, 2 }, 4);
    }
  else
    {
      memcpy (e.saddr, (guint8[]) { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }, 16);
      memcpy (e.daddr, (guint8[]) { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 }, 16);
    }
  e.sport = 45000;
  e.dport = 80;
  e.seq = 1000 + k * 100;
  e.ack = 5000 + k * 10;
  e.flags = 0x18;

  e.send = TRUE;
  e.time = local_time (ca, t);
  e.cpu = k % 2;
  g_array_append_val (ea, e);
  e.send = FALSE;
  e.time = local_time (cb, t + lat1);
  e.cpu = (k / 2) % 2;
  g_array_append_val (eb, e);

  /* the answer */
  {
    guint8 tmp[16];

    memcpy (tmp, e.saddr, 16);
    memcpy (e.saddr, e.daddr, 16);
    memcpy (e.daddr, tmp, 16);
  }
  e.sport = 80;
  e.dport = 45000;
  e.seq = 5000 + k * 10;
  e.ack = 1000 + k * 100 + 100;
  e.flags = 0x10;
  e.send = TRUE;
  e.time = local_time (cb, t + lat1 + 20000);
  g_array_append_val (eb, e);
  e.send = FALSE;
  e.time = local_time (ca, t + lat1 + 20000 + lat2);
  g_array_append_val (ea, e);
}

static void
test_synthetic_layouts (void)
{
  static const FakeClock clocks[] = {
    { "alpha", 0, 0 },
    { "beta", 1234567, 20e-6 },
    /* hours ahead: the merge must still bring sends and receives together */
    { "gamma", G_GINT64_CONSTANT (3) * 3600 * 1000000000 + 987654321, -15e-6 },
  };
  g_autofree char *tmp = make_tmpdir ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GArray) alpha = g_array_new (FALSE, TRUE, sizeof (FakeEvent));
  g_autoptr(GArray) beta = g_array_new (FALSE, TRUE, sizeof (FakeEvent));
  g_autoptr(GArray) gamma_ust = g_array_new (FALSE, TRUE, sizeof (FakeEvent));
  g_autoptr(GArray) gamma_kernel = g_array_new (FALSE, TRUE, sizeof (FakeEvent));
  g_autoptr(GPtrArray) problems = NULL;
  const char *folders[] = { tmp, NULL };
  const guint n = 60;
  gint64 t0 = FAKE_CLOCK_OFFSET_S * 1000000000 + G_GINT64_CONSTANT (3600) * 1000000000;
  SlTraceReader *reader = NULL;
  SlEngine *engine;
  SlHostCounts c;
  guint ha, hb, hg;

  for (guint k = 0; k < n; k++)
    {
      /* alpha <-> beta over IPv4 (kernel, both variant tagging styles) */
      fake_exchange (alpha, beta, &clocks[0], &clocks[1], t0 + (gint64) k * 10000000, 4, k, rand);
      /* alpha <-> gamma over IPv6, gamma's side from its UST event */
      fake_exchange (alpha, gamma_ust, &clocks[0], &clocks[2], t0 + (gint64) k * 10000000 + 3000000, 6,
                     k + 1000, rand);
    }
  /* ignored on alpha: a UDP packet and one without network header */
  {
    FakeEvent e = g_array_index (alpha, FakeEvent, 0);

    e.proto = PROTO_UDP;
    e.time += 1000;
    g_array_append_val (alpha, e);
    e.proto = PROTO_NONE;
    e.time += 1000;
    g_array_append_val (alpha, e);
  }
  /* gamma's kernel trace, same boot as its UST trace: one host */
  {
    FakeEvent e = { 0 };

    e.family = 4;
    e.proto = PROTO_UDP;
    e.time = local_time (&clocks[2], t0);
    g_array_append_val (gamma_kernel, e);
  }

  {
    g_autofree char *a = g_build_filename (tmp, "alpha", "kernel", NULL);
    g_autofree char *b = g_build_filename (tmp, "relayd", "beta", "session-20240101", "kernel", NULL);
    g_autofree char *gu = g_build_filename (tmp, "gamma", "ust", "uid", "1000", "64-bit", NULL);
    g_autofree char *gk = g_build_filename (tmp, "gamma", "kernel", NULL);

    write_fake_trace (a, "alpha", "11111111-2222-3333-4444-000000000001", "aaaaaaaa-0000-0000-0000-000000000001",
                      LAYOUT_KERNEL, alpha);
    write_fake_trace (b, "beta", "11111111-2222-3333-4444-000000000002", "bbbbbbbb-0000-0000-0000-000000000002",
                      LAYOUT_KERNEL_OLD_TAG, beta);
    write_fake_trace (gu, "gamma", "11111111-2222-3333-4444-000000000003", "cccccccc-0000-0000-0000-000000000003",
                      LAYOUT_UST, gamma_ust);
    write_fake_trace (gk, "gamma", "11111111-2222-3333-4444-000000000004", "cccccccc-0000-0000-0000-000000000003",
                      LAYOUT_KERNEL, gamma_kernel);
  }

  engine = load (folders, TRUE, &reader, &problems);
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *msg = sl_trace_problem_to_string (g_ptr_array_index (problems, i));
      g_test_message ("problem: %s", msg);
    }
  g_assert_cmpuint (problems->len, ==, 0);
  g_assert_cmpuint (sl_engine_get_n_hosts (engine), ==, 3);
  ha = sl_engine_find_host (engine, "alpha");
  hb = sl_engine_find_host (engine, "beta");
  hg = sl_engine_find_host (engine, "gamma");
  g_assert_cmpuint (ha, !=, SL_HOST_NONE);
  g_assert_cmpuint (hb, !=, SL_HOST_NONE);
  g_assert_cmpuint (hg, !=, SL_HOST_NONE);

  g_assert_cmpuint (sl_engine_get_n_matches (engine), ==, 4 * n);
  sl_engine_get_host_counts (engine, ha, &c);
  g_assert_cmpuint (c.events, ==, 4 * n + 2);
  g_assert_cmpuint (c.packet_events, ==, 4 * n);
  g_assert_cmpuint (c.matched, ==, 4 * n);
  g_assert_cmpuint (c.ignored, ==, 2);
  sl_engine_get_host_counts (engine, hg, &c);
  g_assert_cmpuint (c.events, ==, 2 * n + 1);
  g_assert_cmpuint (c.ignored, ==, 1);

  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlLinkInfo info;

      sl_engine_get_link_info (engine, l, &info);
      g_assert_cmpuint (info.matches, ==, 2 * n);
      g_assert_cmpint (info.quality, ==, SL_QUALITY_ACCURATE);
      g_assert_cmpuint (info.inversions, ==, 0);
    }

  /* every host's transform holds the true one within its bound */
  sl_engine_pin_reference (engine, ha);
  for (guint i = 1; i < 3; i++)
    {
      guint h = sl_engine_find_host (engine, clocks[i].name);
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (engine, h, &hi);
      for (gint64 t = t0; t <= t0 + (gint64) n * 10000000; t += (gint64) n * 5000000)
        {
          double err = fabs ((double) (sl_transform_apply (&hi.to_reference, local_time (&clocks[i], t)) - t));

          g_test_message ("%s at +%" G_GINT64_FORMAT " ms: error %.0f ns, bound %.0f ns", clocks[i].name,
                          (t - t0) / 1000000, err, hi.bound_ns);
          g_assert_cmpfloat (err, <=, hi.bound_ns + 1);
        }
      sl_host_info_clear (&hi);
    }

  /* the packet events are in the timeline store too */
  g_assert_cmpuint (sl_event_store_get_n_events (sl_trace_reader_get_event_store (reader, 0), SL_EVENT_STREAM_NET),
                    ==, 4 * n);

  sl_trace_reader_free (reader);
  sl_engine_free (engine);
  rm_rf (tmp);
}

/* Same hostname, two boots (clock UUIDs): two hosts, named apart. */
static void
test_same_name_two_boots (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autoptr(GArray) events = g_array_new (FALSE, TRUE, sizeof (FakeEvent));
  g_autoptr(GPtrArray) problems = NULL;
  const char *folders[] = { tmp, NULL };
  g_autofree char *a = g_build_filename (tmp, "twin-boot1", "kernel", NULL);
  g_autofree char *b = g_build_filename (tmp, "twin-boot2", "kernel", NULL);
  FakeEvent e = { 0 };
  SlEngine *engine;

  e.family = 4;
  e.proto = PROTO_TCP;
  e.send = TRUE;
  e.time = FAKE_CLOCK_OFFSET_S * 1000000000 + 1000;
  g_array_append_val (events, e);
  write_fake_trace (a, "twin", "11111111-2222-3333-4444-00000000000a", "eeeeeeee-0000-0000-0000-00000000000e",
                    LAYOUT_KERNEL, events);
  write_fake_trace (b, "twin", "11111111-2222-3333-4444-00000000000b", "ffffffff-0000-0000-0000-00000000000f",
                    LAYOUT_KERNEL, events);

  engine = load (folders, FALSE, NULL, &problems);
  g_assert_cmpuint (sl_engine_get_n_hosts (engine), ==, 2);
  g_assert_cmpuint (sl_engine_find_host (engine, "twin/eeeeeeee"), !=, SL_HOST_NONE);
  g_assert_cmpuint (sl_engine_find_host (engine, "twin/ffffffff"), !=, SL_HOST_NONE);
  sl_engine_free (engine);
  rm_rf (tmp);
}

/* Generated traces end to end: `generate` writes them, the reader and the
 * engine synchronize them, and every host's transform is within its bound
 * of ground-truth.json, in the middle and at the quarters of the run. */
static void
check_generated (const char *const *gen_args,
                 guint              n_components)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *out = g_build_filename (dir, "t", NULL);
  g_autofree char *out_arg = g_strdup_printf ("--out=%s", out);
  g_autofree char *truth_path = g_build_filename (out, "ground-truth.json", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGenerate) truth = NULL;
  const char *folders[] = { out, NULL };
  SlEngine *engine;
  guint refs = 0;
  Run r = { 0 };

  g_ptr_array_add (argv, (char *) "generate");
  g_ptr_array_add (argv, out_arg);
  g_ptr_array_add (argv, (char *) "--quiet");
  for (guint i = 0; gen_args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) gen_args[i]);
  for (guint i = argv->len; i < 14; i++)
    g_ptr_array_add (argv, NULL);
  run_cli (&r, argv->pdata[0], argv->pdata[1], argv->pdata[2], argv->pdata[3], argv->pdata[4],
           argv->pdata[5], argv->pdata[6], argv->pdata[7], argv->pdata[8], argv->pdata[9],
           argv->pdata[10], argv->pdata[11], argv->pdata[12], NULL);
  if (r.status != 0)
    g_error ("generate failed: %s", r.err);
  run_clear (&r);

  truth = sl_generate_load_truth (truth_path, &error);
  g_assert_no_error (error);
  engine = load (folders, FALSE, NULL, NULL);
  g_assert_cmpuint (sl_engine_get_n_hosts (engine), ==, sl_generate_get_n_hosts (truth));

  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    {
      const char *name = sl_engine_get_host_name (engine, h);
      guint gh = sl_generate_find_host (truth, name);
      SlHostInfo hi = { 0 };
      SlTransform tt;

      g_assert_cmpuint (gh, !=, G_MAXUINT);
      sl_engine_get_host_info (engine, h, &hi);
      refs += hi.reference == h;
      g_assert_true (sl_generate_true_transform_by_name (truth, name,
                                                         sl_engine_get_host_name (engine, hi.reference),
                                                         &tt, &error));
      g_assert_no_error (error);
      for (int k = 1; k <= 3; k++)
        {
          gint64 t_true = sl_generate_get_start (truth) + sl_generate_get_duration (truth) * k / 4;
          gint64 local = sl_generate_local_time (truth, gh, t_true);
          double err = fabs ((double) (sl_transform_apply (&hi.to_reference, local) -
                                       sl_transform_apply (&tt, local)));

          if (g_test_verbose ())
            g_test_message ("%s: error %.1f ns, bound %.1f ns", name, err, hi.bound_ns);
          if (!(err <= hi.bound_ns + 2.0))
            g_error ("%s (reference %s, %u hops): %.1f ns from the truth, bound %.1f ns",
                     name, sl_engine_get_host_name (engine, hi.reference), hi.path->len - 1,
                     err, hi.bound_ns);
        }
      sl_host_info_clear (&hi);
    }
  g_assert_cmpuint (refs, ==, n_components);

  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlLinkInfo li;

      sl_engine_get_link_info (engine, l, &li);
      if (li.in_tree)
        g_assert_cmpuint (li.inversions, ==, 0);
    }

  sl_engine_free (engine);
  rm_rf (dir);
}

static void
test_generated_truth (void)
{
  static const char *two[] = { "--host=a:1000000000:1500:-500", "--host=b:2400000000:-3000:500",
                               "--link=a:b:400", "--duration=4", "--loss=0.01", "--background=100",
                               "--cpus=2", NULL };
  static const char *days[] = { "--hosts=5", "--max-offset=259200000000000", "--max-drift-ppm=500",
                                "--duration=4", "--seed=3", "--background=100", "--cpus=2", NULL };
  static const char *groups[] = { "--hosts=16", "--components=3", "--ip=mix", "--variant-style=legacy",
                                  "--duration=3", "--seed=4", "--background=100", "--cpus=2", NULL };
  static const char *many[] = { "--hosts=64", "--duration=3", "--seed=5", "--background=50",
                                "--cpus=2", "--max-drift-ppm=500", NULL };

  if (g_getenv ("SL_BABELTRACE2") == NULL)
    {
      g_test_skip ("babeltrace2 is not installed");
      return;
    }
  check_generated (two, 1);
  check_generated (days, 1);
  check_generated (groups, 3);
  check_generated (many, 1);
}

/* A link's span ends at its newest matched packet, in its first window
 * too (a packet there that leaves the hull alone does not change the
 * segments' version): sync --json, whose job asks the engine as it reads,
 * gives each link's span_end_ns as the engine that read the same folders
 * unasked has it from its matched points. */
static void
test_span_end (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-span-end-XXXXXX", NULL);
  g_autofree char *traces = g_build_filename (dir, "traces", NULL);
  g_autofree char *rm = g_strdup_printf ("rm -rf %s", dir);
  const char *const gen[] = { "--hosts=4", "--duration=20", "--background=20", "--rate=5", "--seed=1", NULL };
  const char *folders[] = { traces, NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) problems = NULL;
  JsonArray *links;
  SlEngine *engine;
  Run r = { 0 };

  run_generate (traces, gen);
  engine = load (folders, FALSE, NULL, &problems);
  run_cli (&r, "sync", "--json", traces, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  links = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "links");
  g_assert_cmpuint (json_array_get_length (links), ==, sl_engine_get_n_links (engine));
  g_assert_cmpuint (sl_engine_get_n_links (engine), >=, 3);
  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlReportLink rl;
      gint64 newest = G_MININT64;
      JsonObject *link = NULL;

      sl_report_get_link (engine, l, &rl);
      for (int d = 0; d < 2; d++)
        {
          g_autoptr(GArray) pts = sl_engine_get_link_points (engine, l, d == 0);

          for (guint i = 0; i < pts->len; i++)
            newest = MAX (newest, g_array_index (pts, SlPoint, i).x);
        }
      g_assert_cmpint (rl.info.span_end, ==, newest);
      for (guint k = 0; k < json_array_get_length (links); k++)
        {
          JsonObject *o = json_array_get_object_element (links, k);

          if (g_str_equal (json_object_get_string_member (o, "a"), sl_engine_get_host_name (engine, rl.a)) &&
              g_str_equal (json_object_get_string_member (o, "b"), sl_engine_get_host_name (engine, rl.b)))
            link = o;
        }
      g_assert_nonnull (link);
      g_test_message ("%s - %s: span_end_ns %" G_GINT64_FORMAT ", newest packet %" G_GINT64_FORMAT,
                      sl_engine_get_host_name (engine, rl.a), sl_engine_get_host_name (engine, rl.b),
                      json_object_get_int_member (link, "span_end_ns"), rl.span_end);
      g_assert_cmpint (json_object_get_int_member (link, "span_end_ns"), ==, rl.span_end);
    }
  run_clear (&r);
  sl_engine_free (engine);
  g_assert_true (g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/traces/synctraces", test_synctraces);
  g_test_add_func ("/traces/span-end", test_span_end);
  g_test_add_func ("/traces/synctraces-cli", test_synctraces_cli);
  g_test_add_func ("/traces/diagnose-cli", test_diagnose_cli);
  g_test_add_func ("/traces/django-vote", test_django);
  g_test_add_func ("/traces/generated-truth", test_generated_truth);
  g_test_add_func ("/traces/synthetic-layouts", test_synthetic_layouts);
  g_test_add_func ("/traces/same-name-two-boots", test_same_name_two_boots);
  g_test_add_func ("/traces/progress-cancel", test_progress_cancel);
  g_test_add_func ("/traces/hosts-before-decoders", test_hosts_before_decoders);
  g_test_add_func ("/traces/scan-order", test_scan_order);
  g_test_add_func ("/traces/errors", test_errors);
  g_test_add_func ("/traces/errors-others-synchronized", test_errors_others_synchronized);
  g_test_add_func ("/traces/nothing-found", test_nothing_found);
  g_test_add_func ("/traces/fuzz", test_fuzz);

  return g_test_run ();
}
