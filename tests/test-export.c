/* test-export.c: synchronized copies of traces, read back with babeltrace2
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "sl-engine.h"
#include "sl-export.h"
#include "sl-trace-reader.h"
#include "test-util.h"

/* The export errs by the integer freq (0.5/freq relative: under 2 ns over
 * these 3 s traces), half a cycle of offset and babeltrace2's truncation to
 * whole ns; the hull's transform keeps matched packets at least ~tens of
 * µs apart (latency 40 µs + jitter, minus the estimate's error), so no
 * tolerance is needed: a receive before its send is a failure. */

typedef struct
{
  gint64   send_t;
  gint64   recv_t;
  char    *send_host;
  char    *recv_host;
} Pair;

static void
pair_free (gpointer p)
{
  Pair *pair = p;

  g_free (pair->send_host);
  g_free (pair->recv_host);
  g_free (pair);
}

static char *
spawn (const char *const *argv,
       gboolean           must_succeed)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (must_succeed && !(WIFEXITED (status) && WEXITSTATUS (status) == 0))
    g_error ("%s failed: %s", argv[0], err);
  if (!WIFEXITED (status))
    g_error ("%s died of signal %d", argv[0], WTERMSIG (status));
  return out;
}

static char *
babeltrace (const char *dir,
            gboolean    must_succeed)
{
  const char *bt = g_getenv ("SL_BABELTRACE2");
  const char *argv[] = { bt, "--clock-seconds", dir, NULL };

  g_assert_nonnull (bt);
  return spawn (argv, must_succeed);
}

static SlEngine *
load (const char     *folder,
      SlTraceReader **reader_out)
{
  SlEngineOptions eo;
  SlTraceReaderOptions ro;
  SlEngine *engine;

  sl_engine_options_init (&eo);
  engine = sl_engine_new (&eo);
  sl_trace_reader_options_init (&ro);
  *reader_out = sl_trace_reader_new (engine, &ro);
  sl_trace_reader_add_folder (*reader_out, folder);
  g_assert_cmpint (sl_trace_reader_run (*reader_out), ==, SL_TRACE_READER_DONE);
  return engine;
}

/* "[1700000000.123456789]" -> ns */
static gboolean
parse_time (const char *line,
            gint64     *t)
{
  const char *dot;
  char *end;
  gint64 s, ns;

  if (line[0] != '[')
    return FALSE;
  s = g_ascii_strtoll (line + 1, &end, 10);
  if (*end != '.')
    return FALSE;
  dot = end;
  ns = g_ascii_strtoll (dot + 1, &end, 10);
  if (*end != ']' || end - dot - 1 != 9)
    return FALSE;
  *t = s * G_GINT64_CONSTANT (1000000000) + ns;
  return TRUE;
}

/* The text from "name = " to the next ", " or " }" at the same level. */
static char *
field (const char *line,
       const char *name)
{
  g_autofree char *pat = g_strdup_printf (" %s = ", name);
  const char *p = strstr (line, pat), *q;
  int depth = 0;

  if (p == NULL)
    return NULL;
  p += strlen (pat);
  for (q = p; *q != '\0'; q++)
    {
      if (*q == '[' || *q == '{' || *q == '(')
        depth++;
      else if (*q == ']' || *q == '}' || *q == ')')
        {
          if (depth == 0)
            break;
          depth--;
        }
      else if (*q == ',' && depth == 0)
        break;
    }
  return g_strstrip (g_strndup (p, (gsize) (q - p)));
}

/* Pairs sends (net_dev_queue) with receives (net_if_receive_skb) on other
 * hosts by TCP header, first of each; returns receives before their send. */
static guint
count_inversions (const char *text,
                  guint      *n_pairs)
{
  g_autoptr(GHashTable) pairs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, pair_free);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  const char *names[] = { "saddr", "daddr", "source_port", "dest_port", "seq", "ack_seq", "flags" };
  GHashTableIter iter;
  gpointer value;
  guint inversions = 0;

  *n_pairs = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *ev;
      gboolean send;
      g_autoptr(GString) key = g_string_new (NULL);
      g_autofree char *host = NULL;
      gint64 t;
      Pair *pair;

      if ((ev = strstr (line, " net_dev_queue: ")) != NULL)
        send = TRUE;
      else if ((ev = strstr (line, " net_if_receive_skb: ")) != NULL)
        send = FALSE;
      else
        continue;
      if (strstr (line, "\"_tcp\"") == NULL || !parse_time (line, &t))
        continue;
      {
        const char *h = ev;
        while (h > line && h[-1] != ' ')
          h--;
        host = g_strndup (h, (gsize) (ev - h));
      }
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        {
          g_autofree char *v = field (line, names[k]);
          g_assert_nonnull (v);
          g_string_append_printf (key, "%s|", v);
        }

      pair = g_hash_table_lookup (pairs, key->str);
      if (pair == NULL)
        {
          pair = g_new0 (Pair, 1);
          g_hash_table_insert (pairs, g_strdup (key->str), pair);
        }
      if (send && pair->send_host == NULL)
        {
          pair->send_t = t;
          pair->send_host = g_steal_pointer (&host);
        }
      else if (!send && pair->recv_host == NULL)
        {
          pair->recv_t = t;
          pair->recv_host = g_steal_pointer (&host);
        }
    }

  g_hash_table_iter_init (&iter, pairs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Pair *pair = value;

      if (pair->send_host == NULL || pair->recv_host == NULL ||
          g_str_equal (pair->send_host, pair->recv_host))
        continue;
      (*n_pairs)++;
      if (pair->recv_t < pair->send_t)
        inversions++;
    }
  return inversions;
}

static void
test_generated (void)
{
  const char *cli = g_getenv ("SL_CLI");
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen = g_build_filename (tmp, "gen", NULL);
  g_autofree char *out = g_build_filename (tmp, "export", NULL);
  g_autofree char *out_arg = g_strdup_printf ("--out=%s", gen);
  const char *argv[] = { cli, "generate", out_arg, "--hosts=3", "--duration=3",
                         "--background=100", "--cpus=2", "--quiet", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *gen_out = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlTraceReader) reader = NULL;
  guint n_before, n_after, inv_before, inv_after;

  if (g_getenv ("SL_BABELTRACE2") == NULL)
    {
      g_test_skip ("babeltrace2 not found");
      return;
    }
  g_assert_nonnull (cli);
  gen_out = spawn (argv, TRUE);

  engine = load (gen, &reader);
  g_assert_true (sl_export_traces (reader, engine, out, &error));
  g_assert_no_error (error);

  before = babeltrace (gen, TRUE);
  after = babeltrace (out, TRUE);
  g_assert_cmpuint (count_lines (before), ==, count_lines (after));

  inv_before = count_inversions (before, &n_before);
  inv_after = count_inversions (after, &n_after);
  g_test_message ("pairs %u/%u, inversions before %u, after %u", n_before, n_after,
                  inv_before, inv_after);
  g_assert_cmpuint (n_before, >, 100);
  g_assert_cmpuint (n_after, ==, n_before);
  g_assert_cmpuint (inv_before, >, 0);
  g_assert_cmpuint (inv_after, ==, 0);

  /* a second export into the now non-empty folder is refused */
  g_assert_false (sl_export_traces (reader, engine, out, &error));
  g_assert_error (error, SL_ERROR, SL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, out));

  rm_rf (tmp);
}

static void
test_synctraces (void)
{
  g_autofree char *dir = sl_test_data_path ("traces", "synctraces", NULL);
  g_autofree char *tmp = NULL;
  g_autofree char *out = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *meta = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = NULL;
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlTraceReader) reader = NULL;
  const char *name;
  guint rewritten = 0, hosts = 0;

  if (dir == NULL)
    return;
  if (g_getenv ("SL_BABELTRACE2") == NULL)
    {
      g_test_skip ("babeltrace2 not found");
      return;
    }
  tmp = make_tmpdir ();
  out = g_build_filename (tmp, "export", NULL);

  engine = load (dir, &reader);
  g_assert_true (sl_export_traces (reader, engine, out, &error));
  g_assert_no_error (error);

  /* packetized metadata became text; one host's clock was rewritten */
  d = g_dir_open (out, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *host_dir = g_build_filename (out, name, NULL);
      g_autoptr(GDir) hd = g_dir_open (host_dir, 0, NULL);
      const char *trace;

      g_assert_nonnull (hd);
      hosts++;
      while ((trace = g_dir_read_name (hd)) != NULL)
        {
          g_autofree char *path = g_build_filename (host_dir, trace, "metadata", NULL);

          g_clear_pointer (&meta, g_free);
          g_assert_true (g_file_get_contents (path, &meta, NULL, NULL));
          g_assert_true (g_str_has_prefix (meta, "/* CTF 1.8 */"));
          rewritten += strstr (meta, "syncline: synchronized to") != NULL;
        }
    }
  g_assert_cmpuint (hosts, ==, 2);
  g_assert_cmpuint (rewritten, ==, 1);

  /* babeltrace2 2.0.4 stops on these 2013 traces (a packet's timestamps
   * go back by ~1.5 µs) whatever the clock: each exported trace must give
   * the same events before it stops as the original. */
  for (guint i = 0; i < sl_trace_reader_get_n_hosts (reader); i++)
    {
      const GPtrArray *traces = sl_trace_reader_get_host_traces (reader, i);
      const char *host = sl_trace_reader_get_host_name (reader, i);

      for (guint t = 0; t < traces->len; t++)
        {
          const char *orig = g_ptr_array_index (traces, t);
          g_autofree char *base = g_path_get_basename (orig);
          g_autofree char *copy = g_build_filename (out, host, base, NULL);

          g_free (before);
          g_free (after);
          before = babeltrace (orig, FALSE);
          after = babeltrace (copy, FALSE);
          g_assert_cmpuint (count_lines (before), >, 10000);
          g_assert_cmpuint (count_lines (after), ==, count_lines (before));
        }
    }

  rm_rf (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/generated", test_generated);
  g_test_add_func ("/export/synctraces", test_synctraces);

  return g_test_run ();
}
