/* sl-cli.c: syncline-cli, the command-line front-end
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <sys/resource.h>

#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-engine.h"
#include "sl-lttv-text.h"
#include "sl-report.h"
#include "sl-sim.h"

static const char usage[] =
  "Usage:\n"
  "  syncline-cli sync [OPTIONS] INPUT...    synchronize hosts and report\n"
  "  syncline-cli demo [OPTIONS]             synchronize a built-in simulated cluster\n"
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

glong
sl_cli_peak_rss_kb (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

static int
fail (const char *fmt,
      ...) G_GNUC_PRINTF (1, 2);

static int
fail (const char *fmt,
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

typedef struct
{
  char     *algorithm;
  char     *tree;
  char     *reference;
  char     *input_format;
  gboolean  json;
  double    max_drift_ppm;
  int       confidence;
} SyncArgs;

static GOptionEntry *
engine_entries (SyncArgs *args)
{
  GOptionEntry entries[] = {
    { "algorithm", 0, 0, G_OPTION_ARG_STRING, &args->algorithm,
      "Per-link estimator: hull (default) or linreg", "NAME" },
    { "tree", 0, 0, G_OPTION_ARG_STRING, &args->tree,
      "How hosts reach their reference: mst (default) or shortest-path", "KIND" },
    { "reference", 0, 0, G_OPTION_ARG_STRING, &args->reference,
      "Pin the reference host of its component (default: automatic)", "HOST" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &args->json,
      "Print one JSON object instead of the text report", NULL },
    { "max-drift-ppm", 0, 0, G_OPTION_ARG_DOUBLE, &args->max_drift_ppm,
      "Largest plausible relative clock rate error in ppm (default 10000)", "PPM" },
    { "linreg-confidence", 0, 0, G_OPTION_ARG_INT, &args->confidence,
      "linreg: drop round trips above this percentile of error margin (0 = keep all, 90, 95, 99)", "N" },
    { NULL }
  };

  return g_memdup2 (entries, sizeof entries);
}

static void
sync_args_clear (SyncArgs *args)
{
  g_free (args->algorithm);
  g_free (args->tree);
  g_free (args->reference);
  g_free (args->input_format);
}

static gboolean
engine_options_from_args (const SyncArgs   *args,
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
  if (args->confidence < 0 || args->confidence > 100)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--linreg-confidence: expected a percentage from 0 to 100");
      return FALSE;
    }
  options->linreg_confidence = args->confidence / 100.0;
  return TRUE;
}

static int
print_report (SlEngine       *engine,
              const SyncArgs *args,
              gint64          t0,
              double          cpu0)
{
  SlReportTiming timing;

  timing.elapsed_s = (double) (g_get_monotonic_time () - t0) / 1e6;
  timing.cpu_s = sl_cli_cpu_seconds () - cpu0;

  if (args->json)
    {
      g_autoptr(JsonNode) root = sl_report_to_json (engine, &timing);
      g_autofree char *text = json_to_string (root, TRUE);
      g_print ("%s\n", text);
    }
  else
    {
      g_autofree char *text = sl_report_to_text (engine, &timing);
      g_print ("%s", text);
    }
  return 0;
}

static gboolean
apply_reference (SlEngine       *engine,
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

static int
cmd_sync (int    argc,
          char **argv)
{
  SyncArgs args = { 0 };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("INPUT… — synchronize the hosts of the inputs");
  g_autofree GOptionEntry *entries = engine_entries (&args);
  GOptionEntry extra[] = {
    { "input-format", 0, 0, G_OPTION_ARG_STRING, &args.input_format,
      "Input format: auto (default) or lttv-text (LTTV's unit-case files)", "FORMAT" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  SlEngineOptions options;
  SlEngine *engine;
  gint64 t0 = g_get_monotonic_time ();
  double cpu0 = sl_cli_cpu_seconds ();
  int ret;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_main_entries (ctx, extra, NULL);
  g_option_context_set_summary (ctx,
    "Reads matched network packets between hosts, bounds each link's clock relation, "
    "connects the hosts through the most accurate links and prints every host's "
    "transform to its reference.");

  if (!g_option_context_parse (ctx, &argc, &argv, &error) ||
      !engine_options_from_args (&args, &options, &error))
    {
      ret = fail ("%s", error->message);
      sync_args_clear (&args);
      return ret;
    }

  if (args.input_format != NULL &&
      g_strcmp0 (args.input_format, "auto") != 0 &&
      g_strcmp0 (args.input_format, "lttv-text") != 0)
    {
      ret = fail ("--input-format: “%s” is not auto or lttv-text", args.input_format);
      sync_args_clear (&args);
      return ret;
    }

  if (argc < 2)
    {
      sync_args_clear (&args);
      return fail ("sync: no INPUT given (see syncline-cli sync --help)");
    }

  engine = sl_engine_new (&options);
  for (int i = 1; i < argc; i++)
    {
      if (!g_file_test (argv[i], G_FILE_TEST_EXISTS))
        {
          ret = fail ("%s: no such file or folder", argv[i]);
          goto out;
        }
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          ret = fail ("%s: is a folder; this version reads LTTV unit-case text files "
                      "(--input-format=lttv-text) only", argv[i]);
          goto out;
        }
      if (g_strcmp0 (args.input_format, "lttv-text") != 0 && !sl_lttv_text_looks_like (argv[i]))
        {
          ret = fail ("%s: unrecognized input (not an LTTV unit-case text file)", argv[i]);
          goto out;
        }
      if (!sl_lttv_text_load (engine, argv[i], &error))
        {
          ret = fail ("%s", error->message);
          goto out;
        }
    }

  if (!apply_reference (engine, &args, &error))
    {
      ret = fail ("%s", error->message);
      goto out;
    }

  ret = print_report (engine, &args, t0, cpu0);

out:
  sl_engine_free (engine);
  sync_args_clear (&args);
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
  g_autofree GOptionEntry *entries = engine_entries (&args);
  gint64 seed = 1, duration_s = 60;
  GOptionEntry extra[] = {
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Random seed (default 1)", "N" },
    { "duration", 0, 0, G_OPTION_ARG_INT64, &duration_s, "Simulated seconds (default 60)", "S" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  SlEngineOptions options;
  SlSimOptions sim_options;
  SlEngine *engine;
  SlSim *sim;
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
      !engine_options_from_args (&args, &options, &error))
    {
      ret = fail ("%s", error->message);
      sync_args_clear (&args);
      return ret;
    }
  if (argc > 1)
    {
      sync_args_clear (&args);
      return fail ("demo: unexpected argument “%s”", argv[1]);
    }
  if (duration_s < 1 || duration_s > 86400)
    {
      sync_args_clear (&args);
      return fail ("--duration: expected 1 to 86400 seconds");
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

  if (!apply_reference (engine, &args, &error))
    {
      ret = fail ("%s", error->message);
      goto out;
    }

  while (sl_sim_next (sim, &ev, &true_time))
    sl_engine_add_packet (engine, &ev, true_time);

  ret = print_report (engine, &args, t0, cpu0);

  /* Ground truth: every host's transform against the true clocks, at the
   * start and the end of the run, must be within the reported bound. */
  if (!args.json)
    g_print ("\nCheck against the simulated clocks:\n");
  for (guint h = 0; h < sl_sim_get_n_hosts (sim); h++)
    {
      SlHostInfo hi = { 0 };
      SlTransform truth;
      double err = 0;

      sl_engine_get_host_info (engine, h, &hi);
      sl_sim_true_transform (sim, h, hi.reference, &truth);
      for (int k = 0; k < 2; k++)
        {
          gint64 t_true = sim_options.start_ns + k * sim_options.duration_ns;
          gint64 t_local = sl_sim_local_time (sim, h, t_true);
          double e = fabs ((double) (sl_transform_apply (&hi.to_reference, t_local) -
                                     sl_transform_apply (&truth, t_local)));
          err = MAX (err, e);
        }
      if (err > hi.bound_ns + 1.0)
        all_ok = FALSE;
      if (!args.json)
        g_print ("  %-8s error %9.3f us, bound %9.3f us  %s\n", demo_hosts[h].name,
                 err / 1e3, hi.bound_ns / 1e3, err <= hi.bound_ns + 1.0 ? "ok" : "OUTSIDE THE BOUND");
      sl_host_info_clear (&hi);
    }
  if (!all_ok)
    ret = fail ("demo: a recovered transform is outside its bound");

out:
  sl_engine_free (engine);
  sl_sim_free (sim);
  sync_args_clear (&args);
  return ret;
}

static int
cmd_bench (int    argc,
           char **argv)
{
  g_autoptr(GOptionContext) ctx = NULL;
  g_autoptr(GError) error = NULL;
  gint64 packets = 20000000, nodes = 10000, ops = 1000000, seed = 1;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "packets", 0, 0, G_OPTION_ARG_INT64, &packets, "hull: packets in the stream (default 20000000)", "N" },
    { "nodes", 0, 0, G_OPTION_ARG_INT64, &nodes, "graph: hosts (default 10000)", "N" },
    { "ops", 0, 0, G_OPTION_ARG_INT64, &ops, "graph: link insertions and improvements (default 1000000)", "M" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Random seed (default 1)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
    { NULL }
  };

  ctx = g_option_context_new ("hull|graph — measure the engine's speed");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return fail ("%s", error->message);
  if (argc != 2)
    return fail ("bench: expected hull or graph");

  if (g_strcmp0 (argv[1], "hull") == 0)
    {
      if (packets < 1)
        return fail ("--packets: expected a positive count");
      return sl_cli_bench_hull ((guint64) packets, (guint64) seed, json);
    }
  if (g_strcmp0 (argv[1], "graph") == 0)
    {
      if (nodes < 2 || nodes > 10000000)
        return fail ("--nodes: expected 2 to 10000000");
      if (ops < 1)
        return fail ("--ops: expected a positive count");
      return sl_cli_bench_graph ((guint) nodes, (guint64) ops, (guint64) seed, json);
    }
  return fail ("bench: unknown benchmark “%s” (hull or graph)", argv[1]);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");

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
  if (g_strcmp0 (argv[1], "demo") == 0)
    return cmd_demo (argc - 1, argv + 1);
  if (g_strcmp0 (argv[1], "bench") == 0)
    return cmd_bench (argc - 1, argv + 1);

  g_printerr ("syncline-cli: unknown command “%s”\n%s", argv[1], usage);
  return 2;
}
