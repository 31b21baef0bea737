/* sl-cli.c: syncline-cli, the command-line front-end
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gio/gunixoutputstream.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-cpu-time.h"
#include "sl-diagnosis.h"
#include "sl-engine.h"
#include "sl-export.h"
#include "sl-transforms-file.h"
#include "sl-job.h"
#include "sl-lttv-text.h"
#include "sl-plot.h"
#include "sl-report.h"
#include "sl-sim.h"
#include "sl-trace-reader.h"

static const char usage[] =
  "Usage:\n"
  "  syncline-cli sync [OPTIONS] INPUT...    synchronize hosts and report\n"
  "  syncline-cli sessions net://HOST[:PORT] list a relay daemon's live sessions\n"
  "  syncline-cli live [OPTIONS] URL...      synchronize live sessions as they stream\n"
  "  syncline-cli demo [OPTIONS]             synchronize a built-in simulated cluster\n"
  "  syncline-cli generate --out=DIR [OPTIONS]  write realistic multi-host LTTng kernel traces\n"
  "  syncline-cli extract --out=DIR FOLDER...    each host's packet events as a small CTF trace\n"
  "  syncline-cli apply --transforms=FILE --export=DIR FOLDER...  saved transforms applied to traces\n"
  "  syncline-cli bench hull [OPTIONS]       matcher and hull speed\n"
  "  syncline-cli bench graph [OPTIONS]      incremental tree and reference speed\n"
  "\n"
  "Run a command with --help for its options.\n";

double
sl_cli_cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec / 1e6 +
         (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec / 1e6;
}

/* The report's timing since @t0 and @cpu0 (this process's processor
 * time then), the decoders' included: the children that ended and were
 * waited for (a process starts with none, and `sync` has no others). */
static void
report_timing (SlReportTiming *timing,
               gint64          t0,
               double          cpu0)
{
  timing->elapsed_s = (double) (g_get_monotonic_time () - t0) / 1e6;
  timing->decoders_cpu_s = sl_children_cpu_seconds ();
  timing->cpu_s = sl_cli_cpu_seconds () - cpu0 + timing->decoders_cpu_s;
}

glong
sl_cli_peak_rss_kb (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

/* ---------------------------------------------------------------------- */
/* Ctrl-C                                                                  */

/*
 * The first Ctrl-C (or SIGTERM) asks the command to stop, cleanly: the
 * readers kill their decoder processes, so that is quick whatever they
 * do. A second one ends the process at once (the decoders die with it).
 * The handler only counts and writes to a pipe the main loop watches.
 * Two signals can be handled at once by two threads: the count is an
 * atomic (lock-free, so safe in a handler), or both would read 0 and the
 * second request would be lost.
 */

static atomic_int stop_requests;
static int stop_pipe[2] = { -1, -1 };

static void
on_stop_signal (int signo)
{
  static const char msg[] = "syncline-cli: interrupted again; stopping at once\n";
  int saved = errno;

  if (atomic_fetch_add (&stop_requests, 1) > 0)
    {
      if (write (STDERR_FILENO, msg, sizeof msg - 1) < 0)
        {
          /* nothing more to say */
        }
      _exit (128 + signo);
    }
  if (stop_pipe[1] >= 0 && write (stop_pipe[1], "x", 1) < 0)
    {
      /* the main loop sees the first one anyway */
    }
  errno = saved;
}

typedef struct
{
  GSourceFunc first;
  gpointer    data;
} StopWatch;

static gboolean
stop_readable_cb (int          fd,
                  GIOCondition condition,
                  gpointer     data)
{
  StopWatch *w = data;
  char buf[16];

  while (read (fd, buf, sizeof buf) > 0)
    ;
  w->first (w->data);
  return G_SOURCE_CONTINUE;
}

/**
 * sl_cli_catch_stop:
 * @first: called on the main loop at the first Ctrl-C or SIGTERM
 *
 * Returns: the main-loop source to give to sl_cli_release_stop()
 */
guint
sl_cli_catch_stop (GSourceFunc first,
                   gpointer    data)
{
  struct sigaction sa = { 0 };
  StopWatch *w = g_new0 (StopWatch, 1);

  if (stop_pipe[0] < 0 && g_unix_open_pipe (stop_pipe, FD_CLOEXEC, NULL))
    g_unix_set_fd_nonblocking (stop_pipe[0], TRUE, NULL);
  atomic_store (&stop_requests, 0);
  w->first = first;
  w->data = data;
  sa.sa_handler = on_stop_signal;
  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  return g_unix_fd_add_full (G_PRIORITY_HIGH, stop_pipe[0], G_IO_IN, stop_readable_cb, w, g_free);
}

void
sl_cli_release_stop (guint source)
{
  signal (SIGINT, SIG_DFL);
  signal (SIGTERM, SIG_DFL);
  g_source_remove (source);
}

/* One line on stderr, exit status 2: how every command fails. */
int
sl_cli_fail (const char *fmt,
             ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, fmt);
  msg = g_strdup_vprintf (fmt, args);
  va_end (args);
  g_printerr ("syncline-cli: %s\n", msg);
  return 2;
}


GOptionEntry *
sl_cli_engine_entries (SyncArgs *args)
{
  GOptionEntry entries[] = {
    { "algorithm", 0, 0, G_OPTION_ARG_STRING, &args->algorithm,
      "Per-link estimator: hull (default) or linreg", "NAME" },
    { "tree", 0, 0, G_OPTION_ARG_STRING, &args->tree,
      "How hosts reach their reference: mst (default) or shortest-path", "KIND" },
    { "reference", 0, 0, G_OPTION_ARG_STRING, &args->reference,
      "Pin the reference host of its component (default: automatic)", "HOST" },
    { "tree-margin", 0, 0, G_OPTION_ARG_DOUBLE, &args->tree_margin_pct,
      "Tree hysteresis: a link replaces a tree link only when its bound is this many percent lower "
      "and has been for 10 s of input (default 25 for live sessions, 0 for trace folders: the exact tree)", "PERCENT" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &args->json,
      "Print one JSON object instead of the text report", NULL },
    { "journal", 0, 0, G_OPTION_ARG_STRING, &args->journal,
      "With --json: the journal of changes as a summary (default: entries by kind and key times), "
      "in full (every entry) or not at all", "summary|full|none" },
    { "profiles", 0, 0, G_OPTION_ARG_STRING, &args->profiles,
      "With --json: each bound over time as at most 8 points never below it (compact, default) "
      "or as its exact breakpoints with each link's windows (full)", "compact|full" },
    { "max-drift-ppm", 0, 0, G_OPTION_ARG_DOUBLE, &args->max_drift_ppm,
      "Largest plausible relative clock rate error in ppm (default 10000)", "PPM" },
    { "max-drift-change", 0, 0, G_OPTION_ARG_STRING, &args->max_drift_change,
      "The assumption the bounds rest on: no clock's rate changes by more than this many ppm "
      "per second (default 0.1; 0 assumes linear clocks)", "PPM_PER_S" },
    { "linreg-confidence", 0, 0, G_OPTION_ARG_INT, &args->confidence,
      "linreg: drop round trips above this percentile of error margin (0 = keep all, 90, 95, 99)", "N" },
    { "plots", 0, 0, G_OPTION_ARG_FILENAME, &args->plots,
      "Draw each link's hulls, bounds, estimate and accuracy over time to DIR/A--B.png and .svg", "DIR" },
    { NULL }
  };

  return g_memdup2 (entries, sizeof entries);
}

void
sl_cli_sync_args_clear (SyncArgs *args)
{
  g_free (args->algorithm);
  g_free (args->tree);
  g_free (args->reference);
  g_free (args->input_format);
  g_free (args->plots);
  g_free (args->export_dir);
  g_free (args->save_transforms);
  g_free (args->journal);
  g_free (args->profiles);
  g_free (args->max_drift_change);
}

gboolean
sl_cli_engine_options (const SyncArgs   *args,
                          SlEngineOptions  *options,
                          GError          **error)
{
  sl_engine_options_init (options);

  if (args->algorithm != NULL && !sl_algorithm_from_string (args->algorithm, &options->algorithm))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--algorithm: “%s” is not hull or linreg", args->algorithm);
      return FALSE;
    }
  if (args->tree != NULL && !sl_tree_kind_from_string (args->tree, &options->tree))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--tree: “%s” is not mst or shortest-path", args->tree);
      return FALSE;
    }
  if (args->max_drift_ppm != 0)
    {
      if (!(args->max_drift_ppm > 0 && args->max_drift_ppm <= 1e7))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                       "--max-drift-ppm: expected a value in (0, 10000000]");
          return FALSE;
        }
      options->max_drift = args->max_drift_ppm * 1e-6;
    }
  if (args->max_drift_change != NULL)
    {
      char *end = NULL;
      double v = g_ascii_strtod (args->max_drift_change, &end);

      if (end == args->max_drift_change || *end != '\0' || !(v >= 0 && v <= 1000))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                       "--max-drift-change: expected ppm per second from 0 to 1000, not “%s”",
                       args->max_drift_change);
          return FALSE;
        }
      options->drift_change = v * 1e-6;
    }
  if (args->confidence < 0 || args->confidence > 100)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--linreg-confidence: expected a percentage from 0 to 100");
      return FALSE;
    }
  options->linreg_confidence = args->confidence / 100.0;
  if (args->journal != NULL)
    {
      SlJournalMode mode;

      if (!sl_journal_mode_from_string (args->journal, &mode))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                       "--journal: “%s” is not summary, full or none", args->journal);
          return FALSE;
        }
    }
  if (args->profiles != NULL)
    {
      SlProfilesMode mode;

      if (!sl_profiles_mode_from_string (args->profiles, &mode))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                       "--profiles: “%s” is not compact or full", args->profiles);
          return FALSE;
        }
    }
  if (!(args->tree_margin_pct >= 0 && args->tree_margin_pct <= 1000))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--tree-margin: expected a percentage from 0 to 1000");
      return FALSE;
    }
  options->tree_margin = args->tree_margin_pct / 100.0;
  return TRUE;
}

/* Checked by sl_cli_engine_options(). */
SlJournalMode
sl_cli_journal_mode (const SyncArgs *args)
{
  SlJournalMode mode = SL_JOURNAL_SUMMARY;

  if (args->journal != NULL)
    sl_journal_mode_from_string (args->journal, &mode);
  return mode;
}

/* The JSON report on standard output, written as it goes (a report of
 * thousands of hosts never exists whole in memory). */
gboolean
sl_cli_print_json (SlEngine            *engine,
                   const SyncArgs      *args,
                   SlReportJsonOptions *options,
                   GError             **error)
{
  g_autoptr(GOutputStream) stream = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  g_autoptr(SlJsonOut) out = sl_json_out_new_stream (stream);

  options->journal = sl_cli_journal_mode (args);
  if (args->profiles != NULL)
    sl_profiles_mode_from_string (args->profiles, &options->profiles);
  fflush (stdout);
  sl_report_write_json (engine, options, out);
  return sl_json_out_finish (out, error) &&
         g_output_stream_write_all (stream, "\n", 1, NULL, NULL, error);
}

static int
print_report (SlEngine       *engine,
              const SyncArgs *args,
              gint64          t0,
              double          cpu0)
{
  SlReportTiming timing;

  report_timing (&timing, t0, cpu0);

  if (args->json)
    {
      g_autoptr(GError) error = NULL;
      SlReportJsonOptions options;

      sl_report_json_options_init (&options);
      options.timing = &timing;
      if (!sl_cli_print_json (engine, args, &options, &error))
        return sl_cli_fail ("standard output: %s", error->message);
    }
  else
    {
      g_autofree char *text = sl_report_to_text (engine, &timing);
      g_print ("%s", text);
    }
  return 0;
}

/* --plots, once the report is out */
static int
write_plots (SlEngine       *engine,
             const SyncArgs *args,
             int             ret)
{
  g_autoptr(GError) error = NULL;

  if (ret != 0 || args->plots == NULL)
    return ret;
  if (!sl_plot_links (engine, args->plots, &error))
    return sl_cli_fail ("%s", error->message);
  return 0;
}

/* A host with packet events that no accurate path joins to another host
 * makes `sync` exit with status 3 (after the report, which says why). */
#define EXIT_UNSYNCHRONIZED 3

static int
check_synchronized (SlEngine *engine)
{
  g_autoptr(GString) names = g_string_new (NULL);
  guint n = 0;

  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    {
      SlHostCounts c;

      sl_engine_get_host_counts (engine, h, &c);
      if ((c.packet_events > 0 || c.matched > 0) && !sl_engine_host_is_synchronized (engine, h))
        g_string_append_printf (names, "%s%s", n++ > 0 ? ", " : "", sl_engine_get_host_name (engine, h));
    }
  if (n == 0)
    return 0;
  g_printerr ("syncline-cli: %u host%s with packet events could not be synchronized: %s\n",
              n, n > 1 ? "s" : "", names->str);
  return EXIT_UNSYNCHRONIZED;
}

gboolean
sl_cli_apply_reference (SlEngine       *engine,
                 const SyncArgs *args,
                 GError        **error)
{
  guint host;

  if (args->reference == NULL)
    return TRUE;
  host = sl_engine_find_host (engine, args->reference);
  if (host == SL_HOST_NONE)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--reference: no host named “%s” in the input", args->reference);
      return FALSE;
    }
  sl_engine_pin_reference (engine, host);
  return TRUE;
}

static void
print_progress (const SlTraceProgress *p,
                gboolean               final)
{
  if (p->scanning)
    g_printerr ("\rSearching for traces…");
  else if (p->eta_s >= 0)
    g_printerr ("\rReading %u hosts: %3.0f %%, %.2f M events/s, ETA %.0f s   ",
                p->hosts, 100 * p->fraction, p->events_per_s / 1e6, p->eta_s);
  else
    g_printerr ("\rReading %u hosts: %3.0f %%, %.2f M events/s   ",
                p->hosts, 100 * p->fraction, p->events_per_s / 1e6);
  if (final)
    g_printerr ("\n");
}

static void
timeline_json (SlJsonOut          *out,
               const SlEventStore *store)
{
  gint64 first = 0, last = 0;

  sl_json_out_begin_object (out, "timeline");
  sl_json_out_begin_object (out, "kinds");
  for (guint k = SL_EVENT_NONE + 1; k < SL_EVENT_N_KINDS; k++)
    sl_json_out_int (out, sl_event_kind_to_string (k), (gint64) sl_event_store_get_kind_count (store, k));
  sl_json_out_end_object (out);
  sl_json_out_int (out, "threads", sl_event_store_get_n_threads (store));
  sl_json_out_int (out, "strings", sl_event_store_get_n_strings (store));
  sl_json_out_int (out, "memory_bytes", (gint64) sl_event_store_get_memory_size (store));
  if (sl_event_store_get_time_range (store, &first, &last))
    {
      sl_json_out_int (out, "first_ns", first);
      sl_json_out_int (out, "last_ns", last);
    }
  sl_json_out_end_object (out);
}

static void
timeline_text (GString            *s,
               const char         *host,
               const SlEventStore *store)
{
  g_string_append_printf (s, "  %s: %u threads named, %.1f MiB\n     ", host,
                          sl_event_store_get_n_threads (store),
                          (double) sl_event_store_get_memory_size (store) / (1 << 20));
  for (guint k = SL_EVENT_NONE + 1; k < SL_EVENT_N_KINDS; k++)
    {
      guint64 n = sl_event_store_get_kind_count (store, k);

      if (n > 0)
        g_string_append_printf (s, " %s %" G_GUINT64_FORMAT, sl_event_kind_to_string (k), n);
    }
  g_string_append_c (s, '\n');
}

/* What the report of `sync` shows besides the engine's own numbers. */
typedef struct
{
  const SyncArgs   *args;
  SlTraceReader    *reader;     /* trace folders */
  GPtrArray        *problems;   /* trace folders */
  const SlSnapshot *diagnosis;  /* --diagnose */
  gboolean          timeline;
  gint64            t0;
  double            cpu0;
} SyncReport;

/* The members `sync` adds to each host and link of the JSON report. */
typedef struct
{
  const SyncReport    *report;
  const SlEventStore **stores;    /* by engine host, --timeline */
} JsonExtras;

static void
host_members_cb (SlJsonOut *out,
                 guint      host,
                 gpointer   user_data)
{
  JsonExtras *x = user_data;

  if (x->stores != NULL && x->stores[host] != NULL)
    timeline_json (out, x->stores[host]);
  if (x->report->diagnosis != NULL && host < x->report->diagnosis->hosts->len)
    {
      g_autofree char *text = sl_diagnose_host (x->report->diagnosis, host);

      sl_json_out_string (out, "diagnosis", text);
    }
}

static void
link_members_cb (SlJsonOut *out,
                 guint      link,
                 gpointer   user_data)
{
  JsonExtras *x = user_data;

  if (x->report->diagnosis != NULL && link < x->report->diagnosis->links->len)
    {
      g_autofree char *text = sl_diagnose_link (x->report->diagnosis, link);

      sl_json_out_string (out, "diagnosis", text);
    }
}

static gboolean
print_sync_report (SlEngine         *engine,
                   const SyncReport *r,
                   GError          **error)
{
  SlReportTiming timing;
  gboolean timeline = r->timeline && r->reader != NULL;

  report_timing (&timing, r->t0, r->cpu0);

  if (r->args->json)
    {
      g_autofree const SlEventStore **stores = NULL;
      JsonExtras extras = { r, NULL };
      SlReportJsonOptions options;

      if (timeline)
        {
          stores = g_new0 (const SlEventStore *, sl_engine_get_n_hosts (engine));
          for (guint i = 0; i < sl_trace_reader_get_n_hosts (r->reader); i++)
            stores[sl_trace_reader_get_engine_host (r->reader, i)] = sl_trace_reader_get_event_store (r->reader, i);
          extras.stores = stores;
        }
      sl_report_json_options_init (&options);
      options.timing = &timing;
      options.problems = r->problems;
      options.host_members = host_members_cb;
      options.link_members = link_members_cb;
      options.user_data = &extras;
      return sl_cli_print_json (engine, r->args, &options, error);
    }
  else
    {
      g_autofree char *text = sl_report_to_text (engine, &timing);

      g_print ("%s", text);
      if (timeline)
        {
          g_autoptr(GString) s = g_string_new ("\nTimeline streams kept:\n");

          for (guint i = 0; i < sl_trace_reader_get_n_hosts (r->reader); i++)
            {
              const SlEventStore *store = sl_trace_reader_get_event_store (r->reader, i);

              if (store != NULL)
                timeline_text (s, sl_trace_reader_get_host_name (r->reader, i), store);
            }
          g_print ("%s", s->str);
        }
      if (r->diagnosis != NULL)
        {
          g_autofree char *diagnosis = sl_diagnose_all_to_text (r->diagnosis);

          g_print ("%s", diagnosis);
        }
    }
  return TRUE;
}

/* The job's snapshots, on this thread's main loop: progress lines, and
 * the final one, which stops the loop. */
typedef struct
{
  GMainLoop  *loop;
  gboolean    progress;
  SlSnapshot *final;
} SyncRun;

static void
sync_snapshot_cb (SlJob      *job,
                  SlSnapshot *snapshot,
                  gpointer    user_data)
{
  SyncRun *run = user_data;

  if (run->progress)
    print_progress (&snapshot->progress, snapshot->final);
  if (!snapshot->final)
    {
      sl_snapshot_free (snapshot);
      return;
    }
  run->final = snapshot;
  g_main_loop_quit (run->loop);
}

static gboolean
sync_sigint_cb (gpointer job)
{
  sl_job_cancel (job);
  return G_SOURCE_CONTINUE;
}

typedef struct
{
  const SyncArgs *args;
  SyncReport     *report;
  SlTraceReader  *reader;
  GError         *error;
  int             status;
} SyncOutput;

static void
apply_reference_cb (SlEngine *engine,
                    gpointer  user_data)
{
  SyncOutput *o = user_data;

  sl_cli_apply_reference (engine, o->args, &o->error);
}

/* The report, then --plots and --export, each failing with its message. */
static void
sync_output_cb (SlEngine *engine,
                gpointer  user_data)
{
  SyncOutput *o = user_data;

  if (!print_sync_report (engine, o->report, &o->error))
    return;
  if (o->args->plots != NULL && !sl_plot_links (engine, o->args->plots, &o->error))
    return;
  if (o->args->export_dir != NULL)
    {
      g_autoptr(GPtrArray) left_out = g_ptr_array_new_with_free_func (g_free);
      gboolean ok = sl_export_traces (o->reader, engine, o->args->export_dir, left_out, &o->error);

      for (guint i = 0; i < left_out->len; i++)
        g_printerr ("syncline-cli: warning: --export: %s\n", (const char *) g_ptr_array_index (left_out, i));
      if (!ok)
        return;
    }
  if (o->args->save_transforms != NULL)
    {
      g_autoptr(SlTransformSet) set = sl_transform_set_new_from_engine (engine);
      g_autoptr(GError) error = NULL;

      if (!sl_transform_set_save (set, o->args->save_transforms, &error))
        {
          g_set_error (&o->error, error->domain, error->code, "--save-transforms: %s", error->message);
          return;
        }
    }
  o->status = check_synchronized (engine);
}

static void
print_warnings (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *msg = sl_trace_problem_to_string (g_ptr_array_index (problems, i));

      g_printerr ("syncline-cli: warning: %s\n", msg);
    }
}

/* Trace folders or LTTV text files, read and synchronized by the job the
 * application runs (sl-job.c), with its rule: per-host problems are
 * warnings and the other hosts go on; only when nothing at all could be
 * read is it an error. */
static int
sync_inputs (SlJobKind           kind,
             const char *const  *inputs,
             const SlJobOptions *options,
             const SyncArgs     *args,
             gboolean            diagnose,
             gboolean            progress,
             gint64              t0,
             double              cpu0)
{
  g_autoptr(SlJob) job = sl_job_new (kind, inputs, options);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(SlSnapshot) final = NULL;
  g_autoptr(SlSnapshot) diagnosis = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  SyncRun run = { loop, progress && kind == SL_JOB_FOLDERS, NULL };
  SyncReport report = { 0 };
  SyncOutput out = { 0 };
  guint sigint;

  sl_job_set_snapshot_func (job, sync_snapshot_cb, &run);
  sigint = sl_cli_catch_stop (sync_sigint_cb, job);
  sl_job_start (job);
  g_main_loop_run (loop);
  sl_cli_release_stop (sigint);
  sl_job_set_snapshot_func (job, NULL, NULL);
  final = run.final;

  if (final->cancelled)
    return sl_cli_fail ("interrupted");
  problems = sl_job_dup_problems (job);
  if (final->failed)
    {
      /* a lone problem is the error itself */
      if (problems->len != 1)
        print_warnings (problems);
      return sl_cli_fail ("%s", final->error);
    }
  print_warnings (problems);

  /* the job is done: the engine is this thread's */
  out.args = args;
  sl_job_with_engine (job, apply_reference_cb, &out);
  if (out.error != NULL)
    {
      int ret = sl_cli_fail ("%s", out.error->message);

      g_clear_error (&out.error);
      return ret;
    }
  if (diagnose)
    diagnosis = sl_job_capture_now (job);

  report.args = args;
  report.timeline = options->keep_events;
  report.diagnosis = diagnosis;
  report.t0 = t0;
  report.cpu0 = cpu0;
  if (kind == SL_JOB_FOLDERS)
    {
      report.reader = sl_job_get_reader (job);
      report.problems = problems;
    }
  out.report = &report;
  out.reader = report.reader;
  sl_job_with_engine (job, sync_output_cb, &out);
  if (out.error != NULL)
    {
      int ret = sl_cli_fail ("%s", out.error->message);

      g_clear_error (&out.error);
      return ret;
    }
  return out.status;
}

/* Which inputs are folders (a metadata file stands for its folder) and
 * whether they go together; 0, or the status of the failure printed. */
static int
check_inputs (int        argc,
              char     **argv,
              SyncArgs  *args,
              GPtrArray *owned,
              int       *n_folders)
{
  *n_folders = 0;
  for (int i = 1; i < argc; i++)
    {
      if (!g_file_test (argv[i], G_FILE_TEST_EXISTS))
        return sl_cli_fail ("%s: no such file or folder", argv[i]);
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          g_autofree char *real = realpath (argv[i], NULL);

          if (real != NULL && g_str_equal (real, "/"))
            return sl_cli_fail ("%s: refusing to search the whole file system for traces; "
                                "give the folder that holds them", argv[i]);
          (*n_folders)++;
        }
      else
        {
          g_autofree char *base = g_path_get_basename (argv[i]);

          if (g_str_equal (base, "metadata") && g_strcmp0 (args->input_format, "lttv-text") != 0)
            {
              /* a trace's metadata file stands for its folder */
              argv[i] = g_path_get_dirname (argv[i]);
              g_ptr_array_add (owned, argv[i]);
              (*n_folders)++;
            }
        }
    }

  if (*n_folders > 0 && *n_folders < argc - 1)
    return sl_cli_fail ("sync: give either trace folders or LTTV text files, not both");
  if (*n_folders > 0 && g_strcmp0 (args->input_format, "lttv-text") == 0)
    return sl_cli_fail ("%s: is a folder; --input-format=lttv-text reads LTTV unit-case text files", argv[1]);
  if (*n_folders == 0 && args->export_dir != NULL)
    return sl_cli_fail ("--export: copies trace folders; the inputs are LTTV text files");
  if (*n_folders == 0 && g_strcmp0 (args->input_format, "lttng") == 0)
    return sl_cli_fail ("%s: is not a folder; --input-format=lttng reads trace folders", argv[1]);
  return 0;
}

static int
cmd_sync (int    argc,
          char **argv)
{
  SyncArgs args = { 0 };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("INPUT… — synchronize the hosts of the inputs");
  g_autofree GOptionEntry *entries = sl_cli_engine_entries (&args);
  gint threads = 0;
  gboolean timeline = FALSE, progress = FALSE, no_progress = FALSE, diagnose = FALSE;
  GOptionEntry extra[] = {
    { "input-format", 0, 0, G_OPTION_ARG_STRING, &args.input_format,
      "Input format: auto (default), lttng (trace folders) or lttv-text (LTTV's unit-case files)", "FORMAT" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads,
      "Trace folders: decoding threads (default: one per processor)", "N" },
    { "timeline", 0, 0, G_OPTION_ARG_NONE, &timeline,
      "Trace folders: keep the scheduling, system call and interrupt streams and summarize them "
      "(memory then grows with the traces)", NULL },
    { "progress", 0, 0, G_OPTION_ARG_NONE, &progress,
      "Show progress on stderr (default when stderr is a terminal)", NULL },
    { "no-progress", 0, 0, G_OPTION_ARG_NONE, &no_progress, "Never show progress", NULL },
    { "diagnose", 0, 0, G_OPTION_ARG_NONE, &diagnose,
      "Say why each host and link is or is not synchronized, and what to do (the application's "
      "diagnosis): a section of the text report, a \"diagnosis\" member of each host and link in JSON", NULL },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &args.export_dir,
      "Trace folders: write a synchronized copy of the traces to DIR (new or empty): every "
      "timestamp of a synchronized host rewritten through its map to its reference's clock (a "
      "reference's files linked)", "DIR" },
    { "save-transforms", 0, 0, G_OPTION_ARG_FILENAME, &args.save_transforms,
      "Write each host's clock relation to its reference (exact pieces and bounds) to FILE, "
      "for `syncline-cli apply` and the application", "FILE" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  SlEngineOptions options;
  SlJobOptions job_options;
  gint64 t0 = g_get_monotonic_time ();
  double cpu0 = sl_cli_cpu_seconds ();
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  int n_folders = 0;
  int ret;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_main_entries (ctx, extra, NULL);
  g_option_context_set_summary (ctx,
    "Reads matched network packets between hosts, bounds each link's clock relation, "
    "connects the hosts through the most accurate links and prints every host's "
    "transform to its reference.\n\n"
    "An INPUT is a folder searched for LTTng traces (LTTng session folders, relayd output, "
    "single traces: any folder with a metadata file; hosts are told apart by the trace's "
    "hostname and boot), or an LTTV unit-case text file.");

  if (!g_option_context_parse (ctx, &argc, &argv, &error) ||
      !sl_cli_engine_options (&args, &options, &error))
    {
      ret = sl_cli_fail ("%s", error->message);
      sl_cli_sync_args_clear (&args);
      return ret;
    }

  if (args.input_format != NULL &&
      g_strcmp0 (args.input_format, "auto") != 0 &&
      g_strcmp0 (args.input_format, "lttng") != 0 &&
      g_strcmp0 (args.input_format, "lttv-text") != 0)
    {
      ret = sl_cli_fail ("--input-format: “%s” is not auto, lttng or lttv-text", args.input_format);
      sl_cli_sync_args_clear (&args);
      return ret;
    }
  if (threads < 0 || threads > 1024)
    {
      sl_cli_sync_args_clear (&args);
      return sl_cli_fail ("--threads: expected 1 to 1024");
    }

  if (argc < 2)
    {
      sl_cli_sync_args_clear (&args);
      return sl_cli_fail ("sync: no INPUT given (see syncline-cli sync --help)");
    }

  ret = check_inputs (argc, argv, &args, owned, &n_folders);
  if (ret == 0 && args.export_dir != NULL &&
      !sl_export_check_target (args.export_dir, (const char *const *) argv + 1, NULL, &error))
    ret = sl_cli_fail ("--export: %s", error->message);
  if (ret == 0 && args.save_transforms != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (args.save_transforms);

      /* said now, not after a long read */
      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        ret = sl_cli_fail ("--save-transforms: %s: no such folder", dir);
      else if (g_file_test (args.save_transforms, G_FILE_TEST_IS_DIR))
        ret = sl_cli_fail ("--save-transforms: %s: is a folder", args.save_transforms);
    }
  if (ret != 0)
    {
      sl_cli_sync_args_clear (&args);
      return ret;
    }

  sl_job_options_init (&job_options);
  job_options.engine = options;
  job_options.update_ms = 250;
  job_options.n_threads = (guint) threads;
  job_options.keep_events = timeline && n_folders > 0;
  job_options.no_timeline = TRUE;
  job_options.discard_cancelled = TRUE;
  job_options.any_text = g_strcmp0 (args.input_format, "lttv-text") == 0;
  if (no_progress)
    progress = FALSE;
  else if (!progress)
    progress = isatty (2);
  ret = sync_inputs (n_folders > 0 ? SL_JOB_FOLDERS : SL_JOB_LTTV_TEXT, (const char *const *) argv + 1,
                     &job_options, &args, diagnose, progress, t0, cpu0);
  sl_cli_sync_args_clear (&args);
  return ret;
}

/* The built-in cluster: a web application whose hosts' clocks are
 * microseconds to a day apart, plus a pair that never talks to it. */
static const struct
{
  const char *name;
  gint64      offset_ns;
  double      drift_ppm;
} demo_hosts[] = {
  { "client", 3200000, 12.5 },
  { "web", 0, -4.0 },
  { "db", G_GINT64_CONSTANT (-7200123456789), 31.0 },
  { "cache", G_GINT64_CONSTANT (86400000000000), -18.0 },
  { "auth", 35000, 55.0 },
  { "batch-1", 1500000000, 7.0 },
  { "batch-2", -900000000, -9.0 },
};

static const struct
{
  guint  a;
  guint  b;
  double rate;
} demo_links[] = {
  { 0, 1, 400 }, { 1, 2, 900 }, { 1, 3, 700 }, { 1, 4, 60 }, { 2, 3, 25 }, { 5, 6, 120 },
};

static int
cmd_demo (int    argc,
          char **argv)
{
  SyncArgs args = { 0 };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("— synchronize a simulated cluster with known clocks");
  g_autofree GOptionEntry *entries = sl_cli_engine_entries (&args);
  gint64 seed = 1, duration_s = 60;
  GOptionEntry extra[] = {
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Random seed (default 1)", "N" },
    { "duration", 0, 0, G_OPTION_ARG_INT64, &duration_s, "Simulated seconds (default 60)", "S" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  SlEngineOptions options;
  SlSimOptions sim_options;
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlSim) sim = NULL;
  SlPacketEvent ev;
  gint64 true_time;
  gint64 t0 = g_get_monotonic_time ();
  double cpu0 = sl_cli_cpu_seconds ();
  gboolean all_ok = TRUE;
  int ret;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_main_entries (ctx, extra, NULL);
  g_option_context_set_summary (ctx,
    "Simulates seven hosts exchanging TCP packets (latency, loss, retransmissions, "
    "duplicates), feeds their send and receive events through the matcher and the "
    "engine, prints the report and checks every transform against the true clocks.");

  if (!g_option_context_parse (ctx, &argc, &argv, &error) ||
      !sl_cli_engine_options (&args, &options, &error))
    {
      ret = sl_cli_fail ("%s", error->message);
      sl_cli_sync_args_clear (&args);
      return ret;
    }
  if (argc > 1)
    {
      sl_cli_sync_args_clear (&args);
      return sl_cli_fail ("demo: unexpected argument “%s”", argv[1]);
    }
  if (duration_s < 1 || duration_s > 86400)
    {
      sl_cli_sync_args_clear (&args);
      return sl_cli_fail ("--duration: expected 1 to 86400 seconds");
    }

  sl_sim_options_init (&sim_options);
  sim_options.seed = (guint64) seed;
  sim_options.duration_ns = duration_s * G_GINT64_CONSTANT (1000000000);
  sim_options.loss = 0.002;
  sim_options.duplicate = 0.001;
  sim = sl_sim_new (&sim_options);
  engine = sl_engine_new (&options);
  for (guint i = 0; i < G_N_ELEMENTS (demo_hosts); i++)
    {
      sl_sim_add_host (sim, demo_hosts[i].name, demo_hosts[i].offset_ns, demo_hosts[i].drift_ppm * 1e-6);
      sl_engine_add_host (engine, demo_hosts[i].name);
    }
  for (guint i = 0; i < G_N_ELEMENTS (demo_links); i++)
    sl_sim_add_link (sim, demo_links[i].a, demo_links[i].b, demo_links[i].rate);

  if (!sl_cli_apply_reference (engine, &args, &error))
    {
      ret = sl_cli_fail ("%s", error->message);
      goto out;
    }

  while (sl_sim_next (sim, &ev, &true_time))
    sl_engine_add_packet (engine, &ev, true_time);

  ret = write_plots (engine, &args, print_report (engine, &args, t0, cpu0));

  /* Ground truth: every host's relation to its reference against the true
   * clocks, at 1001 instants of the run, must be within the bound reported
   * for that instant. */
  if (!args.json)
    g_print ("\nCheck against the simulated clocks (1001 instants):\n");
  for (guint h = 0; h < sl_sim_get_n_hosts (sim); h++)
    {
      SlHostInfo hi = { 0 };
      double err = 0;
      gboolean ok = TRUE;

      sl_engine_get_host_info (engine, h, &hi);
      for (int k = 0; k <= 1000; k++)
        {
          gint64 t_true = sim_options.start_ns + sim_options.duration_ns / 1000 * k;
          gint64 t_local = sl_sim_local_time (sim, h, t_true);
          double e = fabs ((double) (sl_relation_apply (hi.relation, t_local) -
                                     sl_sim_local_time (sim, hi.reference, t_true)));

          err = MAX (err, e);
          ok &= e <= sl_relation_bound_at (hi.relation, t_local) + 2.0;
        }
      all_ok &= ok;
      if (!args.json)
        g_print ("  %-8s largest error %9.3f µs, bound %9.3f µs  %s\n", demo_hosts[h].name,
                 err / 1e3, hi.bound_ns / 1e3, ok ? "ok" : "OUTSIDE THE BOUND");
      sl_host_info_clear (&hi);
    }
  if (!all_ok)
    ret = sl_cli_fail ("demo: a recovered transform is outside its bound");

out:
  sl_cli_sync_args_clear (&args);
  return ret;
}

static int
cmd_bench (int    argc,
           char **argv)
{
  g_autoptr(GOptionContext) ctx = NULL;
  g_autoptr(GError) error = NULL;
  gint64 packets = 20000000, nodes = 10000, ops = 1000000, seed = 1;
  double span = 0;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "packets", 0, 0, G_OPTION_ARG_INT64, &packets, "hull: packets in the stream (default 20000000)", "N" },
    { "span", 0, 0, G_OPTION_ARG_DOUBLE, &span,
      "hull: seconds the stream spans (default: 10 µs between packets)", "S" },
    { "nodes", 0, 0, G_OPTION_ARG_INT64, &nodes, "graph: hosts (default 10000)", "N" },
    { "ops", 0, 0, G_OPTION_ARG_INT64, &ops, "graph: link insertions and improvements (default 1000000)", "M" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Random seed (default 1)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
    { NULL }
  };

  ctx = g_option_context_new ("hull|graph — measure the engine's speed");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return sl_cli_fail ("%s", error->message);
  if (argc != 2)
    return sl_cli_fail ("bench: expected hull or graph");

  if (g_strcmp0 (argv[1], "hull") == 0)
    {
      if (packets < 1)
        return sl_cli_fail ("--packets: expected a positive count");
      if (!(span >= 0 && span <= 1e7))
        return sl_cli_fail ("--span: expected 0 to 10000000 seconds");
      return sl_cli_bench_hull ((guint64) packets, (guint64) seed, span, json);
    }
  if (g_strcmp0 (argv[1], "graph") == 0)
    {
      if (nodes < 2 || nodes > 10000000)
        return sl_cli_fail ("--nodes: expected 2 to 10000000");
      if (ops < 1)
        return sl_cli_fail ("--ops: expected a positive count");
      return sl_cli_bench_graph ((guint) nodes, (guint64) ops, (guint64) seed, json);
    }
  return sl_cli_fail ("bench: unknown benchmark “%s” (hull or graph)", argv[1]);
}

/* Text output is UTF-8 (µs, −, thin spaces in times of day, host names
 * as the traces hold them) whatever the locale. In a C or POSIX locale
 * g_print() would turn each of those characters into "?"; that locale
 * is mostly one nobody set (a container, cron, ssh) on a UTF-8 terminal,
 * as Python 3.7 also takes it (PEP 538, 540), and the same command then
 * writes the same bytes everywhere. `iconv -t ASCII//TRANSLIT` makes
 * ASCII of it. */
static void
print_utf8 (const char *string)
{
  fputs (string, stdout);
  fflush (stdout);
}

static void
printerr_utf8 (const char *string)
{
  fputs (string, stderr);
  fflush (stderr);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  /* Its words are English: so are its numbers. Under a French locale
   * "(3,000 s)" read as three thousand seconds, "[0,99, 1,00]" as four
   * numbers, and --json-lines and the benchmarks' JSON were not JSON. */
  setlocale (LC_NUMERIC, "C");
  g_set_print_handler (print_utf8);
  g_set_printerr_handler (printerr_utf8);

  if (argc < 2 || g_strcmp0 (argv[1], "--help") == 0 || g_strcmp0 (argv[1], "-h") == 0)
    {
      (argc < 2 ? g_printerr : g_print) ("%s", usage);
      return argc < 2 ? 2 : 0;
    }
  if (g_strcmp0 (argv[1], "--version") == 0)
    {
      g_print ("syncline-cli %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (g_strcmp0 (argv[1], "sync") == 0)
    return cmd_sync (argc - 1, argv + 1);
  if (g_strcmp0 (argv[1], "sessions") == 0)
    return sl_cli_sessions (argc - 1, argv + 1);
  if (g_strcmp0 (argv[1], "live") == 0)
    return sl_cli_live (argc - 1, argv + 1);
  if (g_strcmp0 (argv[1], "demo") == 0)
    return cmd_demo (argc - 1, argv + 1);
  if (g_strcmp0 (argv[1], "bench") == 0)
    return cmd_bench (argc - 1, argv + 1);
  if (g_strcmp0 (argv[1], "generate") == 0)
    return sl_cli_generate (argc - 1, argv + 1);
  if (g_strcmp0 (argv[1], "extract") == 0)
    return sl_cli_extract (argc - 1, argv + 1);
  if (g_strcmp0 (argv[1], "apply") == 0)
    return sl_cli_apply (argc - 1, argv + 1);

  g_printerr ("syncline-cli: unknown command “%s”\n%s", argv[1], usage);
  return 2;
}
