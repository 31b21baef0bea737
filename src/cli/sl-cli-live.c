/* sl-cli-live.c: syncline-cli sessions and live
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "sl-cli.h"
#include "sl-json.h"
#include "sl-live.h"
#include "sl-plot.h"
#include "sl-report.h"
#include "sl-trace-reader.h"

int
sl_cli_sessions (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) ctx = g_option_context_new ("net://HOST[:PORT] — list a relay daemon's live sessions");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print a JSON array", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_summary (ctx,
    "Lists the (host, session) pairs an lttng-relayd serves to live viewers, with their stream "
    "count, connected viewers and live timer. The default port is 5344.");
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return sl_cli_fail ("%s", error->message);
  if (argc != 2)
    return sl_cli_fail ("sessions: give one relay URL, net://HOST[:PORT]");

  list = sl_live_list_sessions (argv[1], NULL, &error);
  if (list == NULL)
    {
      g_printerr ("syncline-cli: %s\n", error->message);
      return 1;
    }

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_array (b);
      for (guint i = 0; i < list->len; i++)
        {
          SlLiveSession *s = g_ptr_array_index (list, i);

          json_builder_begin_object (b);
          sl_json_add_string (b, "hostname", s->hostname);
          sl_json_add_string (b, "session", s->session);
          sl_json_add_int (b, "streams", (gint64) s->streams);
          sl_json_add_int (b, "viewers", (gint64) s->clients);
          sl_json_add_int (b, "live_timer_us", (gint64) s->timer_us);
          sl_json_add_string (b, "url", s->url);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      root = json_builder_get_root (b);
      text = json_to_string (root, TRUE);
      g_print ("%s\n", text);
      return 0;
    }

  if (list->len == 0)
    {
      g_print ("No live session on %s\n", argv[1]);
      return 0;
    }
  g_print ("%-20s %-24s %7s %7s %10s  %s\n", "HOST", "SESSION", "STREAMS", "VIEWERS", "LIVE TIMER", "URL");
  for (guint i = 0; i < list->len; i++)
    {
      SlLiveSession *s = g_ptr_array_index (list, i);
      g_autofree char *timer = g_strdup_printf ("%.0f ms", s->timer_us / 1000.0);

      g_print ("%-20s %-24s %7" G_GUINT64_FORMAT " %7" G_GUINT64_FORMAT " %10s  %s\n",
               s->hostname, s->session, s->streams, s->clients, timer, s->url);
    }
  return 0;
}

typedef struct
{
  gboolean    json_lines;
  const char *reference;
  gboolean    pinned;
  gint64      last_line;
  guint       last_accurate;
  guint       last_streaming;
} LiveCli;

static JsonNode *
live_json (const SlLiveUpdate *u)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (u->wall_time / G_USEC_PER_SEC);
  g_autofree char *iso = dt != NULL ? g_date_time_format (dt, "%Y-%m-%dT%H:%M:%S") : g_strdup ("");
  g_autofree char *stamp = g_strdup_printf ("%s.%06dZ", iso, (int) (u->wall_time % G_USEC_PER_SEC));
  JsonNode *root;

  json_builder_begin_object (b);
  sl_json_add_string (b, "wall_time", stamp);
  sl_json_add_int (b, "wall_time_us", u->wall_time);
  json_builder_set_member_name (b, "final");
  json_builder_add_boolean_value (b, u->final);
  sl_json_add_int (b, "packets", (gint64) u->packets);
  sl_json_add_int (b, "events", (gint64) u->events);
  json_builder_set_member_name (b, "added_latency_ms");
  if (u->first_arrival != 0)
    json_builder_add_double_value (b, (u->made - u->first_arrival) / 1000.0);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "attachments");
  json_builder_begin_array (b);
  for (guint i = 0; i < u->hosts->len; i++)
    {
      const SlLiveHost *h = g_ptr_array_index (u->hosts, i);

      json_builder_begin_object (b);
      sl_json_add_string (b, "host", h->hostname);
      sl_json_add_string (b, "url", h->url);
      sl_json_add_string (b, "state", sl_live_host_state_to_string (h->state));
      json_builder_set_member_name (b, "message");
      h->message != NULL ? (void) json_builder_add_string_value (b, h->message) : (void) json_builder_add_null_value (b);
      sl_json_add_int (b, "events", (gint64) h->events);
      sl_json_add_int (b, "packets", (gint64) h->packets);
      json_builder_set_member_name (b, "last_fed_ns");
      h->last_fed != G_MININT64 ? (void) json_builder_add_int_value (b, h->last_fed) : (void) json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  sl_report_set_problems (json_node_get_object (root), u->problems);
  return root;
}

/* On the live engine thread. */
static void
update_cb (SlLive             *live,
           SlEngine           *engine,
           const SlLiveUpdate *u,
           gpointer            data)
{
  LiveCli *cli = data;

  /* a pinned reference may join later */
  if (cli->reference != NULL && !cli->pinned && sl_engine_find_host (engine, cli->reference) != SL_HOST_NONE)
    {
      sl_engine_pin_reference (engine, sl_engine_find_host (engine, cli->reference));
      cli->pinned = TRUE;
    }

  if (cli->json_lines)
    {
      /* the last one is the whole report, journal included */
      g_autoptr(JsonNode) report = sl_report_to_json_since (engine, NULL, u->final ? 0 : u->journal_first);
      g_autoptr(JsonNode) extra = live_json (u);
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      JsonObject *r = json_node_get_object (report), *x = json_node_get_object (extra);
      GList *members = json_object_get_members (x);
      g_autofree char *text = NULL;

      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (r, l->data, json_node_copy (json_object_get_member (x, l->data)));
      g_list_free (members);
      json_generator_set_root (gen, report);
      text = json_generator_to_data (gen, NULL);
      fprintf (stdout, "%s\n", text);
      fflush (stdout);
    }
  else
    {
      guint n_links = sl_engine_get_n_links (engine), accurate = 0, streaming = 0, structural = 0;
      SlJournal *j = sl_engine_get_journal (engine);

      /* the quality alone: a link's whole row counts its inversions again
       * over all of its points at each new host relation, and live keeps
       * every point (the CLI's CPU grew with the session's length) */
      for (guint i = 0; i < n_links; i++)
        accurate += sl_engine_get_link_quality (engine, i) == SL_QUALITY_ACCURATE;
      for (guint i = 0; i < u->hosts->len; i++)
        streaming += ((SlLiveHost *) g_ptr_array_index (u->hosts, i))->state == SL_LIVE_HOST_STREAMING;

      /* a line a second, or when something other than counts changed */
      for (guint64 s = MAX (u->journal_first, sl_journal_get_first_seq (j)); s < u->journal_next; s++)
        structural += sl_journal_get (j, s)->kind != SL_CHANGE_LINK;
      if (u->made - cli->last_line < G_USEC_PER_SEC && !u->final && accurate == cli->last_accurate &&
          streaming == cli->last_streaming && structural == 0 && u->problems->len == 0)
        goto problems;
      cli->last_line = u->made;
      cli->last_accurate = accurate;
      cli->last_streaming = streaming;
      g_print ("[%.3f] %u/%u attachments streaming, %" G_GUINT64_FORMAT " packet events, %u links (%u accurate)\n",
               u->wall_time / 1e6, streaming, u->hosts->len, u->packets, n_links, accurate);
      for (guint64 s = MAX (u->journal_first, sl_journal_get_first_seq (j)); s < u->journal_next; s++)
        {
          const SlChange *c = sl_journal_get (j, s);

          if (c->kind == SL_CHANGE_LINK)
            continue;
          g_print ("    %s %s%s%s%s%s\n", sl_change_kind_to_string (c->kind),
                   c->a != SL_HOST_NONE ? sl_engine_get_host_name (engine, c->a) : "-",
                   c->b != SL_HOST_NONE ? " " : "",
                   c->b != SL_HOST_NONE ? sl_engine_get_host_name (engine, c->b) : "",
                   c->reason != NULL && *c->reason ? ": " : "", c->reason != NULL ? c->reason : "");
        }
      /* a line as it happens, also into a pipe or a file */
      fflush (stdout);
    }
problems:
  for (guint i = 0; i < u->problems->len; i++)
    {
      g_autofree char *line = sl_trace_problem_to_string (g_ptr_array_index (u->problems, i));

      g_printerr ("syncline-cli: %s\n", line);
    }
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static gboolean
read_folders (SlEngine  *engine,
              GPtrArray *folders)
{
  SlTraceReaderOptions ro;
  g_autoptr(SlTraceReader) reader = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  SlTraceReaderStatus st;

  if (folders->len == 0)
    return TRUE;
  sl_trace_reader_options_init (&ro);
  reader = sl_trace_reader_new (engine, &ro);
  for (guint i = 0; i < folders->len; i++)
    sl_trace_reader_add_folder (reader, g_ptr_array_index (folders, i));
  st = sl_trace_reader_run (reader);
  problems = sl_trace_reader_dup_problems (reader);
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *line = sl_trace_problem_to_string (g_ptr_array_index (problems, i));

      g_printerr ("syncline-cli: %s\n", line);
    }
  return st == SL_TRACE_READER_DONE;
}

int
sl_cli_live (int    argc,
             char **argv)
{
  SyncArgs args = { .tree_margin_pct = SL_GRAPH_LIVE_MARGIN * 100 };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("INPUT… — synchronize live sessions as they stream");
  g_autofree GOptionEntry *entries = sl_cli_engine_entries (&args);
  double duration = 0;
  gboolean json_lines = FALSE;
  gint update_ms = -1, hold_ms = -1, stall_ms = -1;
  GOptionEntry extra[] = {
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration,
      "Stop after S seconds (default: until interrupted with Ctrl+C)", "S" },
    { "json-lines", 0, 0, G_OPTION_ARG_NONE, &json_lines,
      "Print one JSON object per update: the fields of sync --json, the journal entries since the "
      "previous update, the attachments and the wall time", NULL },
    { "update-ms", 0, 0, G_OPTION_ARG_INT, &update_ms,
      "Shortest time between two updates (default 20)", "MS" },
    { "hold-ms", 0, 0, G_OPTION_ARG_INT, &hold_ms,
      "Longest time a packet event waits for slower hosts before it is given to the engine out of time order (default 20)", "MS" },
    { "stall-ms", 0, 0, G_OPTION_ARG_INT, &stall_ms,
      "Report a relay that answers nothing for this long (default 3000)", "MS" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) folders = g_ptr_array_new ();
  g_autoptr(GMainLoop) loop = NULL;
  SlEngineOptions options;
  SlLiveOptions lo;
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlLive) live = NULL;
  LiveCli cli = { 0 };
  guint n_urls = 0, stop;
  int ret = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_main_entries (ctx, extra, NULL);
  g_option_context_set_summary (ctx,
    "Attaches to live LTTng sessions through lttng-relayd and keeps every host on one clock while "
    "the traces stream in. An INPUT is a relay URL:\n"
    "  net://RELAY[:PORT]                       every session of every host, also those that start later\n"
    "  net://RELAY[:PORT]/session/NAME          that session, on every host\n"
    "  net://RELAY[:PORT]/host/HOSTNAME/NAME    one host's session\n"
    "or a trace folder, read first (for example the relay's output folder, for the history).");

  if (!g_option_context_parse (ctx, &argc, &argv, &error) ||
      !sl_cli_engine_options (&args, &options, &error))
    {
      ret = sl_cli_fail ("%s", error->message);
      sl_cli_sync_args_clear (&args);
      return ret;
    }
  if (duration < 0 || duration > 1e7)
    ret = sl_cli_fail ("--duration: expected 0 to 10000000 seconds");
  else if (update_ms > 600000 || hold_ms > 600000 || stall_ms > 600000)
    ret = sl_cli_fail ("--update-ms, --hold-ms, --stall-ms: at most 600000");
  else if (argc < 2)
    ret = sl_cli_fail ("live: no INPUT given (see syncline-cli live --help)");
  if (ret != 0)
    {
      sl_cli_sync_args_clear (&args);
      return ret;
    }

  sl_live_options_init (&lo);
  if (update_ms >= 0)
    lo.update_ms = (guint) update_ms;
  if (hold_ms >= 0)
    lo.hold_ms = (guint) hold_ms;
  if (stall_ms >= 0)
    lo.stall_ms = (guint) stall_ms;

  engine = sl_engine_new (&options);
  live = sl_live_new (engine, &lo);
  for (int i = 1; i < argc && ret == 0; i++)
    {
      if (g_str_has_prefix (argv[i], "net://") || g_str_has_prefix (argv[i], "net4://"))
        {
          if (!sl_live_add_url (live, argv[i], &error))
            ret = sl_cli_fail ("%s", error->message);
          n_urls++;
        }
      else if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        g_ptr_array_add (folders, argv[i]);
      else
        ret = sl_cli_fail ("%s: neither a relay URL (net://…) nor a trace folder", argv[i]);
    }
  if (ret == 0 && n_urls == 0)
    ret = sl_cli_fail ("live: no relay URL given (use sync for trace folders alone)");
  if (ret != 0)
    goto out;

  if (!read_folders (engine, folders))
    {
      ret = sl_cli_fail ("reading the trace folders was interrupted");
      goto out;
    }
  loop = g_main_loop_new (NULL, FALSE);
  cli.json_lines = json_lines;
  cli.reference = args.reference;
  sl_live_set_update_func (live, update_cb, &cli);
  stop = sl_cli_catch_stop (quit_cb, loop);
  if (duration > 0)
    g_timeout_add ((guint) (duration * 1000), quit_cb, loop);

  sl_live_start (live);
  g_main_loop_run (loop);
  sl_live_stop (live);
  sl_cli_release_stop (stop);

  if (!json_lines)
    {
      g_autofree char *text = NULL;

      if (args.reference != NULL && !cli.pinned)
        g_printerr ("syncline-cli: --reference: no host named “%s” appeared\n", args.reference);
      text = args.json ? NULL : sl_report_to_text (engine, NULL);
      if (args.json)
        {
          SlReportJsonOptions report_options;

          sl_report_json_options_init (&report_options);
          if (!sl_cli_print_json (engine, &args, &report_options, &error))
            {
              ret = sl_cli_fail ("standard output: %s", error->message);
              g_clear_error (&error);
            }
        }
      else
        g_print ("\n%s", text);
    }
  if (args.plots != NULL && !sl_plot_links (engine, args.plots, &error))
    ret = sl_cli_fail ("%s", error->message);
  if (ret == 0 && !sl_live_get_connected (live))
    {
      /* the report says nothing of any relay: say so in the status */
      g_printerr ("syncline-cli: live: no relay answered (see the problems above)\n");
      ret = 1;
    }

out:
  sl_cli_sync_args_clear (&args);
  return ret;
}
