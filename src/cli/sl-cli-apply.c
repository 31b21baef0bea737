/* sl-cli-apply.c: syncline-cli apply, saved transforms applied to traces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "sl-cli.h"
#include "sl-export.h"
#include "sl-trace-reader.h"
#include "sl-transforms-file.h"

/* The traces are found, checked and grouped into hosts as `sync` does,
 * but not decoded: each host takes its transform from the file, by name
 * (the trace hostname, or NAME/UUID8), so the transforms found on
 * extracts (`extract`, then `sync --save-transforms`) apply to the full
 * traces where they are. */
int
sl_cli_apply (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) ctx = g_option_context_new ("FOLDER… — apply saved transforms to trace folders");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(SlTransformSet) set = NULL;
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlTraceReader) reader = NULL;
  g_autoptr(GHashTable) found = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *transforms = NULL;
  g_autofree char *export_dir = NULL;
  GOptionEntry entries[] = {
    { "transforms", 0, 0, G_OPTION_ARG_FILENAME, &transforms,
      "File written by `syncline-cli sync --save-transforms`", "FILE" },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &export_dir,
      "Write a synchronized copy of the traces to DIR (new or empty), as `sync --export` does", "DIR" },
    { NULL }
  };
  SlTraceReaderOptions ro;
  guint rewritten = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_summary (ctx,
    "Finds the LTTng traces below the folders and groups them into hosts as `sync` does, without "
    "decoding them, and writes their synchronized copy with each host's transform taken from FILE "
    "(matched by host name). A host FILE does not name keeps its clock, with a warning.");
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return sl_cli_fail ("%s", error->message);
  if (transforms == NULL)
    return sl_cli_fail ("apply: --transforms=FILE is required");
  if (export_dir == NULL)
    return sl_cli_fail ("apply: --export=DIR is required");
  if (argc < 2)
    return sl_cli_fail ("apply: no FOLDER given (see syncline-cli apply --help)");
  for (int i = 1; i < argc; i++)
    if (!g_file_test (argv[i], G_FILE_TEST_IS_DIR))
      return sl_cli_fail ("%s: not a folder", argv[i]);
  set = sl_transform_set_load (transforms, &error);
  if (set == NULL)
    return sl_cli_fail ("%s", error->message);
  if (!sl_export_check_target (export_dir, (const char *const *) argv + 1, NULL, &error))
    return sl_cli_fail ("--export: %s", error->message);

  engine = sl_engine_new (NULL);
  sl_trace_reader_options_init (&ro);
  ro.scan_only = TRUE;
  reader = sl_trace_reader_new (engine, &ro);
  for (int i = 1; i < argc; i++)
    sl_trace_reader_add_folder (reader, argv[i]);
  sl_trace_reader_start (reader);
  if (sl_trace_reader_run (reader) != SL_TRACE_READER_DONE)
    return sl_cli_fail ("interrupted");

  problems = sl_trace_reader_dup_problems (reader);
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *msg = sl_trace_problem_to_string (g_ptr_array_index (problems, i));

      g_printerr ("syncline-cli: warning: %s\n", msg);
    }
  if (sl_trace_reader_get_n_hosts (reader) == 0)
    return sl_cli_fail ("no LTTng trace found below the folders");
  for (guint i = 0; i < sl_trace_reader_get_n_hosts (reader); i++)
    {
      const char *name = sl_trace_reader_get_host_name (reader, i);
      const SlSavedHost *h = sl_transform_set_lookup (set, name);

      g_hash_table_add (found, (gpointer) name);
      if (h == NULL)
        g_printerr ("syncline-cli: warning: host %s: %s names no such host; its clock is kept\n", name, transforms);
      else if (!g_str_equal (h->reference, h->name))
        rewritten++;
    }
  for (guint i = 0; i < sl_transform_set_get_n_hosts (set); i++)
    {
      const SlSavedHost *h = sl_transform_set_get_host (set, i);

      if (!g_hash_table_contains (found, h->name))
        g_printerr ("syncline-cli: warning: host %s: in %s but in no folder given\n", h->name, transforms);
    }
  {
    g_autoptr(GPtrArray) left_out = g_ptr_array_new_with_free_func (g_free);
    gboolean ok = sl_export_traces_saved (reader, set, export_dir, left_out, &error);

    for (guint i = 0; i < left_out->len; i++)
      g_printerr ("syncline-cli: warning: --export: %s\n", (const char *) g_ptr_array_index (left_out, i));
    if (!ok)
      return sl_cli_fail ("--export: %s", error->message);
  }
  g_print ("%u hosts, %u on another host's clock, written to %s\n", sl_trace_reader_get_n_hosts (reader), rewritten,
           export_dir);
  return 0;
}
