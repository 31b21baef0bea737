/* sl-bench-main.c: syncline-bench, the desktop views' benchmarks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not installed: `syncline-bench views|timeline` runs the real windows of
 * the application on generated clusters and prints one JSON object on
 * stdout (README, Benchmarks). Run it from the build folder with
 * `meson devenv`, which finds the GSettings schema.
 */

#include "config.h"

#include <locale.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-benchmark.h"
#include "sl-benchmark-timeline.h"

typedef struct
{
  const char         *name;
  const char         *screenshot;
  const char * const *inputs;
} BenchArgs;

static void
activate_cb (GApplication *app,
             BenchArgs    *args)
{
  /* released by the benchmark when it is done */
  g_application_hold (app);
  if (g_str_equal (args->name, "timeline"))
    sl_benchmark_timeline_run (GTK_APPLICATION (app));
  else
    sl_benchmark_run (GTK_APPLICATION (app), args->name, args->screenshot, args->inputs);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *screenshot = NULL;
  GOptionEntry entries[] = {
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &screenshot,
      "views, open: also write a PNG of the window at the end", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("views|timeline|open [FOLDER…] — measure the desktop views");
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(AdwApplication) app = NULL;
  GSettingsSchemaSource *source;
  BenchArgs args = { 0 };
  char *app_argv[] = { argv[0], NULL };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_summary (ctx,
    "views: 200 hosts and 2000 links generated in memory and streamed like a live session, then "
    "frames of the graph, the tables and the hull plot.\n"
    "timeline: 64 hosts, 10 M state intervals and 1 M messages in the timeline view, then scripted "
    "zooms, pans and scrolls.\n"
    "open FOLDER…: the application's window opens the trace folders; the time to the first graph "
    "and to the end of reading, then the frames of views.");
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("syncline-bench: %s\n", error->message);
      return 2;
    }
  if (argc >= 2 && g_str_equal (argv[1], "open"))
    {
      if (argc < 3)
        {
          g_printerr ("syncline-bench: open needs at least one trace folder\n");
          return 2;
        }
      args.inputs = (const char * const *) argv + 2;
    }
  else if (argc != 2 || (!g_str_equal (argv[1], "views") && !g_str_equal (argv[1], "timeline")))
    {
      g_printerr ("syncline-bench: expected views, timeline or open FOLDER… (see --help)\n");
      return 2;
    }
  args.name = argv[1];
  args.screenshot = screenshot;

  source = g_settings_schema_source_get_default ();
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema == NULL)
    {
      g_printerr ("syncline-bench: the GSettings schema %s is not found; run it with "
                  "`meson devenv -C build`\n", APPLICATION_ID);
      return 1;
    }

  /* never another instance's: the benchmark measures its own windows */
  app = adw_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), &args);
  return g_application_run (G_APPLICATION (app), 1, app_argv);
}
