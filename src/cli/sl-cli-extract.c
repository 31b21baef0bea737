/* sl-cli-extract.c: syncline-cli extract, each host's packet events as a
 * small CTF trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include <glib/gstdio.h>

#include "sl-cli.h"
#include "sl-extract.h"
#include "sl-trace-reader.h"

/* packet buffers of all hosts together while they are written */
#define PACKET_BUDGET (64 * 1024 * 1024)

typedef struct
{
  SlTraceReader  *reader;
  SlEngine       *engine;
  const char     *out;
  gsize           packet_size;
  GPtrArray      *extracts;     /* by engine host */
  GArray         *reader_index; /* engine host -> reader host */
  GHashTable     *folders;      /* folder names given */
  GError         *error;
} Extract;

static char *
host_folder (Extract *x,
             guint    index)
{
  g_autofree char *name = g_strdup (sl_trace_reader_get_host_name (x->reader, index));
  g_autofree char *base = NULL;
  char *folder;

  /* "name/UUID8" of same-named hosts: one folder, not two */
  g_strdelimit (name, "/\\", '-');
  if (*name == '\0' || g_str_equal (name, ".") || g_str_equal (name, ".."))
    g_free (name), name = g_strdup_printf ("host-%u", index);
  base = g_strdup (name);
  for (guint k = 2; g_hash_table_contains (x->folders, name); k++)
    g_free (name), name = g_strdup_printf ("%s-%u", base, k);
  folder = g_build_filename (x->out, name, NULL);
  g_hash_table_add (x->folders, g_steal_pointer (&name));
  return folder;
}

static SlExtract *
extract_for (Extract *x,
             guint    engine_host)
{
  SlExtract *e;

  if (x->reader_index == NULL)
    {
      guint n = sl_trace_reader_get_n_hosts (x->reader);

      x->reader_index = g_array_new (FALSE, TRUE, sizeof (guint));
      g_array_set_size (x->reader_index, sl_engine_get_n_hosts (x->engine));
      for (guint i = 0; i < n; i++)
        g_array_index (x->reader_index, guint, sl_trace_reader_get_engine_host (x->reader, i)) = i;
      g_ptr_array_set_size (x->extracts, sl_engine_get_n_hosts (x->engine));
      x->packet_size = CLAMP (PACKET_BUDGET / MAX (n, 1) / 4096 * 4096, 4096, 256 * 1024);
    }
  e = g_ptr_array_index (x->extracts, engine_host);
  if (e == NULL && x->error == NULL)
    {
      guint i = g_array_index (x->reader_index, guint, engine_host);
      g_autofree char *dir = host_folder (x, i);
      const char *hostname, *uuid;

      sl_trace_reader_get_host_identity (x->reader, i, &hostname, &uuid);
      e = sl_extract_new (dir, hostname, uuid, x->packet_size, &x->error);
      g_ptr_array_index (x->extracts, engine_host) = e;
    }
  return e;
}

static void
packet_cb (const SlPacketEvent *event,
           gint64               key,
           gpointer             user_data)
{
  Extract *x = user_data;
  SlExtract *e;

  if (x->error != NULL)
    return;
  e = extract_for (x, event->host);
  if (e != NULL && !sl_extract_add (e, event, &x->error))
    sl_trace_reader_cancel (x->reader);
}

static gboolean
folder_is_new_or_empty (const char *path)
{
  g_autoptr(GDir) d = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  d = g_dir_open (path, 0, NULL);
  return d != NULL && g_dir_read_name (d) == NULL;
}

int
sl_cli_extract (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) ctx = g_option_context_new ("FOLDER… — each host's packet events as a small CTF trace");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *out = NULL;
  gint threads = 0;
  gboolean quiet = FALSE;
  GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Folder to write (new or empty): one DIR/<host>/ trace per host", "DIR" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Decoding threads (default: one per processor)", "N" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing on success but warnings", NULL },
    { NULL }
  };
  SlTraceReaderOptions ro;
  SlTraceReaderStatus st;
  Extract x = { 0 };
  guint64 events = 0, packets = 0;
  guint n_hosts;
  int ret = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_summary (ctx,
    "Reads the LTTng traces below the folders and writes, for each host, its TCP packet events and "
    "its identity (hostname, clock UUID, event counts, span) as a small CTF trace that babeltrace2 "
    "and `syncline-cli sync` read like any trace: reduce each host's traces where they are recorded, "
    "ship the extracts, synchronize them in one place. The transforms are the same as from the full "
    "traces.");
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return sl_cli_fail ("%s", error->message);
  if (out == NULL)
    return sl_cli_fail ("extract: --out=DIR is required");
  if (argc < 2)
    return sl_cli_fail ("extract: no FOLDER given (see syncline-cli extract --help)");
  if (threads < 0 || threads > 1024)
    return sl_cli_fail ("--threads: expected 1 to 1024");
  for (int i = 1; i < argc; i++)
    if (!g_file_test (argv[i], G_FILE_TEST_IS_DIR))
      return sl_cli_fail ("%s: not a folder", argv[i]);
  if (!folder_is_new_or_empty (out))
    return sl_cli_fail ("--out: %s is neither new nor empty", out);

  x.engine = sl_engine_new (NULL);
  x.out = out;
  x.extracts = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_extract_free);
  x.folders = folders;
  sl_trace_reader_options_init (&ro);
  ro.n_threads = (guint) threads;
  ro.packet_func = packet_cb;
  ro.packet_data = &x;
  x.reader = sl_trace_reader_new (x.engine, &ro);
  for (int i = 1; i < argc; i++)
    sl_trace_reader_add_folder (x.reader, argv[i]);
  sl_trace_reader_start (x.reader);
  st = sl_trace_reader_run (x.reader);

  problems = sl_trace_reader_dup_problems (x.reader);
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *msg = sl_trace_problem_to_string (g_ptr_array_index (problems, i));

      g_printerr ("syncline-cli: warning: %s\n", msg);
    }

  n_hosts = sl_trace_reader_get_n_hosts (x.reader);
  if (x.error == NULL && st == SL_TRACE_READER_DONE)
    for (guint i = 0; i < n_hosts && x.error == NULL; i++)
      {
        guint eh = sl_trace_reader_get_engine_host (x.reader, i);
        const GPtrArray *traces = sl_trace_reader_get_host_traces (x.reader, i);
        g_autoptr(GString) sources = g_string_new (NULL);
        SlExtract *e = extract_for (&x, eh);
        SlExtractInfo info = { 0 };
        SlHostCounts c;

        if (e == NULL)
          break;
        for (guint k = 0; k < traces->len; k++)
          g_string_append_printf (sources, "%s%s", k > 0 ? ", " : "", (const char *) g_ptr_array_index (traces, k));
        sl_engine_get_host_counts (x.engine, eh, &c);
        info.events = c.events;
        info.ignored = c.ignored;
        info.has_span = sl_engine_get_host_span (x.engine, eh, &info.span_first, &info.span_last);
        info.sources = sources->str;
        events += c.events;
        packets += sl_extract_get_n_packets (e);
        sl_extract_finish (e, &info, &x.error);
      }

  if (x.error != NULL)
    ret = sl_cli_fail ("%s", x.error->message);
  else if (st != SL_TRACE_READER_DONE)
    ret = sl_cli_fail ("interrupted");
  else if (n_hosts == 0 || events == 0)
    ret = sl_cli_fail ("no event could be read from %s", argv[1]);
  else if (!quiet)
    g_print ("%s: %u hosts, %" G_GUINT64_FORMAT " packet events of %" G_GUINT64_FORMAT " events\n",
             out, n_hosts, packets, events);

  g_clear_error (&x.error);
  g_ptr_array_unref (x.extracts);
  g_clear_pointer (&x.reader_index, g_array_unref);
  sl_trace_reader_free (x.reader);
  sl_engine_free (x.engine);
  return ret;
}
