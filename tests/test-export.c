/* test-export.c: synchronized copies of traces, read back with babeltrace2
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sl-ctf-meta.h"
#include "sl-ctf-retime.h"
#include "sl-ctf2.h"
#include "sl-tsdl.h"
#include "sl-ctf-writer.h"
#include "sl-engine.h"
#include "sl-export.h"
#include "sl-generate.h"
#include "sl-trace-reader.h"
#include "test-util.h"

/* The export writes each host's map of every timestamp, in whole ns at
 * 1 GHz (checked event by event below); the hull's transform keeps matched
 * packets at least ~tens of µs apart (latency 40 µs + jitter, minus the
 * estimate's error), so no tolerance is needed: a receive before its send
 * is a failure. */

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

/* (strchr(), not g_strsplit()'s strstr(): the address sanitizer's
 * strstr() measures the whole rest of the text at each line.) */
typedef struct
{
  gint64      t;
  const char *rest;
} Line;

static GArray *
split_lines (char *text)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (Line));
  char *p = text;

  while (p != NULL && *p != '\0')
    {
      char *nl = strchr (p, '\n');
      Line l;

      if (nl != NULL)
        *nl = '\0';
      if (parse_time (p, &l.t))
        {
          l.rest = strchr (p, ']') + 1;
          g_array_append_val (lines, l);
        }
      p = nl != NULL ? nl + 1 : NULL;
    }
  return lines;
}

static guint
count_inversions (const char *text,
                  guint      *n_pairs)
{
  g_autoptr(GHashTable) pairs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, pair_free);
  g_autofree char *copy = g_strdup (text);
  g_autoptr(GArray) lines = split_lines (copy);
  const char *names[] = { "saddr", "daddr", "source_port", "dest_port", "seq", "ack_seq", "flags" };
  GHashTableIter iter;
  gpointer value;
  guint inversions = 0;

  *n_pairs = 0;
  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = g_array_index (lines, Line, i).rest;
      gint64 t = g_array_index (lines, Line, i).t;
      const char *ev;
      gboolean send;
      g_autoptr(GString) key = g_string_new (NULL);
      g_autofree char *host = NULL;
      Pair *pair;

      if ((ev = strstr (line, " net_dev_queue: ")) != NULL)
        send = TRUE;
      else if ((ev = strstr (line, " net_if_receive_skb: ")) != NULL)
        send = FALSE;
      else
        continue;
      if (strstr (line, "\"_tcp\"") == NULL)
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
  g_assert_true (sl_export_traces (reader, engine, out, NULL, &error));
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
  g_assert_false (sl_export_traces (reader, engine, out, NULL, &error));
  g_assert_error (error, SL_ERROR, SL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, out));

  rm_rf (tmp);
}

/* Shared data set @name read and exported into a new temporary folder;
 * FALSE (the test skipped) without it or without babeltrace2. */
static gboolean
export_data_set (const char     *name,
                 char          **dir,
                 char          **tmp,
                 char          **out,
                 SlEngine      **engine,
                 SlTraceReader **reader)
{
  g_autoptr(GError) error = NULL;

  *dir = sl_test_data_path ("traces", name, NULL);
  if (*dir == NULL)
    return FALSE;
  if (g_getenv ("SL_BABELTRACE2") == NULL)
    {
      g_test_skip ("babeltrace2 not found");
      return FALSE;
    }
  *tmp = make_tmpdir ();
  *out = g_build_filename (*tmp, "export", NULL);
  *engine = load (*dir, reader);
  g_assert_true (sl_export_traces (*reader, *engine, *out, NULL, &error));
  g_assert_no_error (error);
  return TRUE;
}

static void
test_synctraces (void)
{
  g_autofree char *dir = NULL;
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

  if (!export_data_set ("synctraces", &dir, &tmp, &out, &engine, &reader))
    return;

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

/* One line of babeltrace2's text: its time and the rest (the event). */

static char *
babeltrace_plain (const char *dir)
{
  const char *argv[] = { g_getenv ("SL_BABELTRACE2"), "--clock-seconds", "--no-delta", dir, NULL };

  return spawn (argv, TRUE);
}

/* The true time at which host @h's trace read @local (its clock is
 * non-decreasing). */
static gint64
true_time (const SlGenerate *gen,
           guint             h,
           gint64            local)
{
  gint64 lo = sl_generate_get_start (gen) - G_GINT64_CONSTANT (100000000000);
  gint64 hi = sl_generate_get_start (gen) + sl_generate_get_duration (gen) + G_GINT64_CONSTANT (100000000000);

  while (hi - lo > 1)
    {
      gint64 mid = lo + (hi - lo) / 2;

      if (sl_generate_trace_time (gen, h, mid) <= local)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* Every event of every host of the export, against the original: the same
 * events in the same order, each exported time the host's map of its
 * original time to the ns, and within the host's bound at that instant of
 * the truth (the reference's clock at the event's true time). Returns the
 * worst error over the bound. */
static double
check_every_event (SlTraceReader    *reader,
                   SlEngine         *engine,
                   const SlGenerate *gen,
                   const char       *out,
                   guint            *n_pieces)
{
  double worst = 0;

  *n_pieces = 0;
  for (guint i = 0; i < sl_trace_reader_get_n_hosts (reader); i++)
    {
      const char *name = sl_trace_reader_get_host_name (reader, i);
      const char *orig = g_ptr_array_index (sl_trace_reader_get_host_traces (reader, i), 0);
      g_autofree char *copy = g_build_filename (out, name, "kernel", NULL);
      g_autofree char *a_text = babeltrace_plain (orig);
      g_autofree char *b_text = babeltrace_plain (copy);
      g_autoptr(GArray) a = split_lines (a_text);
      g_autoptr(GArray) b = split_lines (b_text);
      guint h = sl_trace_reader_get_engine_host (reader, i);
      guint gh = sl_generate_find_host (gen, name);
      SlHostInfo hi = { 0 };
      guint gref;

      sl_engine_get_host_info (engine, h, &hi);
      gref = sl_generate_find_host (gen, sl_engine_get_host_name (engine, hi.reference));
      g_assert_cmpuint (gh, !=, G_MAXUINT);
      g_assert_cmpuint (gref, !=, G_MAXUINT);
      g_assert_true (hi.synchronized);
      *n_pieces = MAX (*n_pieces, sl_relation_get_n_pieces (hi.relation));
      g_assert_cmpuint (a->len, >, 1000);
      g_assert_cmpuint (b->len, ==, a->len);
      for (guint k = 0; k < a->len; k++)
        {
          Line *x = &g_array_index (a, Line, k);
          Line *y = &g_array_index (b, Line, k);
          gint64 t_true, truth;
          double err, bound;

          /* events a map puts on one ns may come out in another order */
          if (!g_str_equal (x->rest, y->rest))
            for (guint j = k + 1; j < MIN (k + 16, b->len); j++)
              {
                Line *z = &g_array_index (b, Line, j);

                if (z->t == y->t && g_str_equal (x->rest, z->rest))
                  {
                    Line tmp = *y;

                    *y = *z;
                    *z = tmp;
                    break;
                  }
              }
          if (!g_str_equal (x->rest, y->rest))
            g_error ("%s, event %u: the export has “%s” where the trace has “%s”", name, k, y->rest, x->rest);
          if (y->t != sl_relation_apply (hi.relation, x->t))
            g_error ("%s, event %u at %" G_GINT64_FORMAT ": exported at %" G_GINT64_FORMAT ", the map gives %"
                     G_GINT64_FORMAT, name, k, x->t, y->t, sl_relation_apply (hi.relation, x->t));
          if (hi.reference == h)
            continue;
          t_true = true_time (gen, gh, x->t);
          truth = sl_generate_local_time (gen, gref, t_true);
          err = fabs ((double) (y->t - truth));
          bound = sl_relation_bound_at (hi.relation, x->t);
          /* +4 ns: timestamps are whole ticks of clocks at ≥ 1 GHz */
          if (!(err <= bound + 4) || !(bound <= hi.bound_ns))
            g_error ("%s, event %u at +%.3f s: %.1f ns from the truth, bound there %.1f ns (host's %.1f ns)",
                     name, k, (double) (t_true - sl_generate_get_start (gen)) / 1e9, err, bound, hi.bound_ns);
          worst = MAX (worst, err / MAX (bound, 1));
        }
      g_test_message ("%s: %u events, %u pieces, bound %.0f ns", name, a->len,
                      sl_relation_get_n_pieces (hi.relation), hi.bound_ns);
      sl_host_info_clear (&hi);
    }
  return worst;
}

static void
check_piecewise (const char *const *gen_args,
                 gboolean           with_step)
{
  const char *cli = g_getenv ("SL_CLI");
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen_dir = g_build_filename (tmp, "gen", NULL);
  g_autofree char *out = g_build_filename (tmp, "export", NULL);
  g_autofree char *out_arg = g_strdup_printf ("--out=%s", gen_dir);
  g_autofree char *truth_path = g_build_filename (gen_dir, "ground-truth.json", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlTraceReader) reader = NULL;
  g_autoptr(SlGenerate) gen = NULL;
  g_autofree char *gen_out = NULL;
  g_autofree char *merged = NULL;
  guint n_pairs, n_pieces, inversions;
  guint64 engine_inversions = 0;
  double worst;

  if (g_getenv ("SL_BABELTRACE2") == NULL)
    {
      g_test_skip ("babeltrace2 not found");
      return;
    }
  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  g_ptr_array_add (argv, (char *) "generate");
  g_ptr_array_add (argv, out_arg);
  g_ptr_array_add (argv, (char *) "--quiet");
  for (guint i = 0; gen_args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) gen_args[i]);
  g_ptr_array_add (argv, NULL);
  gen_out = spawn ((const char *const *) argv->pdata, TRUE);
  gen = sl_generate_load_truth (truth_path, &error);
  g_assert_no_error (error);

  engine = load (gen_dir, &reader);
  g_assert_true (sl_export_traces (reader, engine, out, NULL, &error));
  g_assert_no_error (error);

  /* all hosts merged by babeltrace2: every receive after its send */
  /* all hosts merged by babeltrace2: a receive before its send only where
   * the engine's maps put one (at a clock step, where the step's instant
   * is uncertain: the host's bound there covers it) */
  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlLinkInfo li;

      sl_engine_get_link_info (engine, l, &li);
      if (li.in_tree)
        engine_inversions += li.inversions;
    }
  merged = babeltrace (out, TRUE);
  inversions = count_inversions (merged, &n_pairs);
  g_test_message ("%u pairs, %u inversions (the engine's maps: %" G_GUINT64_FORMAT ")", n_pairs, inversions,
                  engine_inversions);
  g_assert_cmpuint (n_pairs, >, 1000);
  g_assert_cmpuint (inversions, ==, engine_inversions);
  if (!with_step)
    g_assert_cmpuint (inversions, ==, 0);

  worst = check_every_event (reader, engine, gen, out, &n_pieces);

  g_test_message ("worst error %.2f of the bound; %u pieces at most", worst, n_pieces);
  g_assert_cmpuint (n_pieces, >, 1);

  rm_rf (tmp);
}

/* Wandering clocks: piecewise maps, compact (27-bit) event timestamps. */
static void
test_wander (void)
{
  static const char *args[] = { "--host=a:1000000000:2000000:3:4:200", "--host=b:2400000000:-1500000:-2:5:300",
                                "--host=c:1500000000:700000:8:3:250", "--link=a:b:100", "--link=b:c:100",
                                "--duration=120", "--background=20", "--cpus=2", "--event-header=compact",
                                NULL };

  check_piecewise (args, FALSE);
}

/* A clock step: the map jumps there; lttng's large event header. */
static void
test_step (void)
{
  static const char *args[] = { "--host=a:1000000000:0:5", "--host=b:3000000000:4000000:-6:2:400",
                                "--link=a:b:100", "--step=b:60:3000000", "--duration=120", "--background=20",
                                "--cpus=2", NULL };

  check_piecewise (args, TRUE);
}

/* A stream whose last packet is cut short (a trace of a killed session):
 * the copy of a synchronized host keeps the packets before it, says so,
 * and babeltrace2 reads it. */
static void
test_partial_packet (void)
{
  const char *cli = g_getenv ("SL_CLI");
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *gen_dir = g_build_filename (tmp, "gen", NULL);
  g_autofree char *out = g_build_filename (tmp, "export", NULL);
  g_autofree char *out_arg = g_strdup_printf ("--out=%s", gen_dir);
  const char *argv[] = { cli, "generate", out_arg, "--host=a:1000000000:0:5:2:30",
                         "--host=b:2400000000:300000:-5:2:40", "--link=a:b:200", "--duration=20",
                         "--background=20", "--cpus=2", "--quiet", NULL };
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlTraceReader) reader = NULL;
  g_autofree char *gen_out = NULL;
  g_autofree char *after = NULL;

  if (g_getenv ("SL_BABELTRACE2") == NULL)
    {
      g_test_skip ("babeltrace2 not found");
      return;
    }
  g_assert_nonnull (cli);
  gen_out = spawn (argv, TRUE);
  for (const char *const *h = (const char *const[]) { "a", "b", NULL }; *h != NULL; h++)
    {
      g_autofree char *path = g_build_filename (gen_dir, *h, "kernel", "channel0_0", NULL);
      GStatBuf st;

      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpint (truncate (path, st.st_size - 1000), ==, 0);
    }

  engine = load (gen_dir, &reader);
  g_assert_true (sl_export_traces (reader, engine, out, warnings, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 1);
  g_test_message ("%s", (const char *) g_ptr_array_index (warnings, 0));
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 0), "channel0_0: packet at byte "));

  /* the reference's streams are linked as they are (babeltrace2 stops on
   * them as on the originals); the other's copy ends before the partial
   * packet */
  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    {
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (engine, h, &hi);
      if (hi.reference != h)
        {
          g_autofree char *copy = g_build_filename (out, sl_engine_get_host_name (engine, h), NULL);
          g_autofree char *file = g_build_filename (sl_engine_get_host_name (engine, h), "kernel", "channel0_0",
                                                    NULL);

          g_assert_nonnull (strstr (g_ptr_array_index (warnings, 0), file));
          g_clear_pointer (&after, g_free);
          after = babeltrace (copy, TRUE);
          g_assert_cmpuint (count_lines (after), >, 1000);
        }
      sl_host_info_clear (&hi);
    }
  g_assert_nonnull (after);

  rm_rf (tmp);
}

/* ns → ns + 5 s, and a slope of 1 + 1e-5 from 1700000000 s on */
static gint64
shift_map (gint64   ns,
           gpointer data)
{
  return ns + G_GINT64_CONSTANT (5000000000);
}

static gint64
stretch_map (gint64   ns,
             gpointer data)
{
  gint64 origin = G_GINT64_CONSTANT (1700000000000000000);

  return origin + (gint64) ((__int128) (ns - origin) * 100001 / 100000);
}

static gint64
identity_map (gint64   ns,
              gpointer data)
{
  return ns;
}

/* A compact-header stream whose gaps come within 50 ns of 2^27 ns: copied
 * byte for byte through the identity, through a shift with its clock's
 * offset moved, and refused (file and packet named) when a map stretches a
 * gap past what 27 bits hold. */
static void
test_retime_compact (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *stream_path = g_build_filename (tmp, "channel0_0", NULL);
  g_autofree char *copy = g_build_filename (tmp, "copy", NULL);
  g_autoptr(GString) meta = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *cut = NULL;
  gsize a_len, b_len;
  SlCtfTraceInfo info = { { 1 }, NULL, 0, "monotonic", "test", { 2 }, 1000000000, 1700000000, 0,
                          SL_CTF_HEADER_COMPACT };
  SlCtfStreamOptions so = { { 1 }, 0, 0, 0, 65536, SL_CTF_HEADER_COMPACT, FALSE };
  SlCtfStream *st;
  guint64 t = 1000;

  sl_ctf_metadata_append_preamble (meta, &info);
  sl_ctf_metadata_append_event (meta, "ev", 0, 0,
                                "integer { size = 32; align = 8; signed = 0; encoding = none; base = 10; } _x;\n");
  st = sl_ctf_stream_new (stream_path, &so, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 200; i++)
    {
      sl_ctf_stream_begin_event (st, 0, t, 4);
      sl_ctf_put_u32 (st, i);
      sl_ctf_stream_end_event (st);
      t += i % 2 == 0 ? (G_GUINT64_CONSTANT (1) << 27) - 50 : 1000;
    }
  g_assert_true (sl_ctf_stream_close (st, t, &error));
  sl_ctf_stream_free (st);

  for (guint k = 0; k < 3; k++)
    {
      SlCtfRetimeFunc funcs[] = { identity_map, shift_map, stretch_map };
      g_autoptr(SlCtfRetime) rt = sl_ctf_retime_new (meta->str, meta->len, funcs[k], NULL, &error);
      gint64 base_s;

      g_assert_no_error (error);
      g_assert_true (sl_ctf_retime_clock_base (1000000000, 1700000000, 0, funcs[k], NULL, &base_s));
      g_assert_cmpint (base_s, ==, k == 1 ? 1700000005 : 1700000000);
      g_unlink (copy);
      if (k == 2)
        {
          g_assert_false (sl_ctf_retime_stream (rt, stream_path, copy, &cut, &error));
          g_assert_error (error, SL_ERROR, SL_ERROR_PARSE);
          g_test_message ("%s", error->message);
          g_assert_nonnull (strstr (error->message, stream_path));
          g_assert_nonnull (strstr (error->message, "does not fit the 27-bit field"));
          g_assert_false (g_file_test (copy, G_FILE_TEST_EXISTS));
          g_clear_error (&error);
          continue;
        }
      g_assert_true (sl_ctf_retime_stream (rt, stream_path, copy, &cut, &error));
      g_assert_no_error (error);
      g_assert_null (cut);
      g_clear_pointer (&a, g_free);
      g_clear_pointer (&b, g_free);
      g_assert_true (g_file_get_contents (stream_path, &a, &a_len, NULL));
      g_assert_true (g_file_get_contents (copy, &b, &b_len, NULL));
      g_assert_cmpmem (a, a_len, b, b_len);
    }
  rm_rf (tmp);
}

static gint64
slope_map (gint64   ns,
           gpointer data)
{
  gint64 origin = G_GINT64_CONSTANT (1700000000000000000);

  return origin + 250 + (gint64) ((__int128) (ns - origin) * 1000001 / 1000000);
}

#define U(bits, align, role) \
  "{\"type\":\"fixed-length-unsigned-integer\",\"length\":" #bits ",\"alignment\":" #align \
  ",\"byte-order\":\"little-endian\"" role "}"
#define ROLE(r) ",\"roles\":[\"" r "\"]"
#define MEMBER(name, fc) "{\"name\":\"" name "\",\"field-class\":" fc "}"

/* the clock class, and data stream class 0's packet context up to its
 * sizes */
#define CLOCK_AND_PACKET_TIMES \
  "\x1e{\"type\":\"clock-class\",\"id\":\"monotonic\",\"frequency\":1000000000," \
  "\"offset-from-origin\":{\"seconds\":1700000000,\"cycles\":0},\"origin\":\"unix-epoch\"}\n" \
  "\x1e{\"type\":\"data-stream-class\",\"id\":0,\"default-clock-class-id\":\"monotonic\"," \
  "\"packet-context-field-class\":{\"type\":\"structure\",\"member-classes\":[" \
  MEMBER ("timestamp_begin", U (64, 8, ROLE ("default-clock-timestamp"))) "," \
  MEMBER ("timestamp_end", U (64, 8, ROLE ("packet-end-default-clock-timestamp"))) ","

/* The layout sl_ctf_metadata_append_preamble() writes in TSDL, in CTF 2
 * as LTTng 2.15 writes it (a compact event record header: a 5-bit id
 * selecting a variant by range), and an event whose payload has a
 * dynamic-length array (its length located from the payload) and a
 * variant whose selector is located relative to it. */
static const char ctf2_meta[] =
  "\x1e{\"type\":\"preamble\",\"version\":2,\"uuid\":[1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}\n"
  "\x1e{\"type\":\"trace-class\",\"environment\":{\"hostname\":\"test\"},"
  "\"packet-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
  MEMBER ("magic", U (32, 8, ROLE ("packet-magic-number"))) ","
  MEMBER ("uuid", "{\"type\":\"static-length-blob\",\"length\":16,\"roles\":[\"metadata-stream-uuid\"]}") ","
  MEMBER ("stream_id", U (32, 8, ROLE ("data-stream-class-id"))) ","
  MEMBER ("stream_instance_id", U (64, 8, ROLE ("data-stream-id"))) "]}}\n"
  CLOCK_AND_PACKET_TIMES
  MEMBER ("content_size", U (64, 8, ROLE ("packet-content-length"))) ","
  MEMBER ("packet_size", U (64, 8, ROLE ("packet-total-length"))) ","
  MEMBER ("packet_seq_num", U (64, 8, ROLE ("packet-sequence-number"))) ","
  MEMBER ("events_discarded", U (64, 8, ROLE ("discarded-event-record-counter-snapshot"))) ","
  MEMBER ("cpu_id", U (32, 8, "")) "]},"
  "\"event-record-header-field-class\":{\"type\":\"structure\",\"minimum-alignment\":8,\"member-classes\":["
  MEMBER ("id", U (5, 1, ROLE ("event-record-class-id"))) ","
  MEMBER ("v", "{\"type\":\"variant\",\"selector-field-location\":{\"origin\":\"event-record-header\","
               "\"path\":[\"id\"]},\"options\":["
               "{\"name\":\"compact\",\"selector-field-ranges\":[[0,30]],\"field-class\":"
               "{\"type\":\"structure\",\"member-classes\":["
               MEMBER ("timestamp", U (27, 1, ROLE ("default-clock-timestamp"))) "]}},"
               "{\"name\":\"extended\",\"selector-field-ranges\":[[31,31]],\"field-class\":"
               "{\"type\":\"structure\",\"member-classes\":["
               MEMBER ("id", U (32, 8, ROLE ("event-record-class-id"))) ","
               MEMBER ("timestamp", U (64, 8, ROLE ("default-clock-timestamp"))) "]}}]}") "]}}\n"
  "\x1e{\"type\":\"event-record-class\",\"id\":0,\"data-stream-class-id\":0,\"name\":\"ev\","
  "\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["
  MEMBER ("_len", U (32, 8, "")) ","
  MEMBER ("_data", "{\"type\":\"dynamic-length-array\",\"element-field-class\":" U (8, 8, "") ","
                   "\"length-field-location\":{\"origin\":\"event-record-payload\",\"path\":[\"_len\"]}}") ","
  MEMBER ("_sel", U (8, 8, "")) ","
  MEMBER ("_v", "{\"type\":\"variant\",\"selector-field-location\":{\"path\":[\"_sel\"]},\"options\":["
                "{\"name\":\"a\",\"selector-field-ranges\":[[0,0]],\"field-class\":" U (16, 8, "") "},"
                "{\"name\":\"b\",\"selector-field-ranges\":[[1,1]],\"field-class\":"
                "{\"type\":\"null-terminated-string\"}}]}") "]}}\n";

/* One stream (compact headers, extended ones after long gaps, payloads of
 * every length) rewritten through its TSDL metadata and through the same
 * layout in CTF 2: the copies are the same bytes, and not the original's.
 * CTF 2 that cannot be laid out exactly is refused, the fragment named. */
static void
test_retime_ctf2 (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *stream_path = g_build_filename (tmp, "channel0_0", NULL);
  g_autofree char *copy18 = g_build_filename (tmp, "copy18", NULL);
  g_autofree char *copy2 = g_build_filename (tmp, "copy2", NULL);
  g_autoptr(GString) meta = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlCtfRetime) rt18 = NULL;
  g_autoptr(SlCtfRetime) rt2 = NULL;
  g_autoptr(SlTsdl) bad = NULL;
  g_autofree char *orig = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *cut = NULL;
  gsize orig_len, a_len, b_len;
  SlCtfTraceInfo info = { { 1 }, NULL, 0, "monotonic", "test", { 2 }, 1000000000, 1700000000, 0,
                          SL_CTF_HEADER_COMPACT };
  SlCtfStreamOptions so = { { 1 }, 0, 0, 0, 4096, SL_CTF_HEADER_COMPACT, FALSE };
  static const guint8 data[40] = { 7 };
  SlCtfStream *st;
  guint64 t = 1000;

  sl_ctf_metadata_append_preamble (meta, &info);
  sl_ctf_metadata_append_event (meta, "ev", 0, 0,
                                "uint32_t _len;\nuint8_t _data[_len];\nenum : uint8_t { a = 0, b = 1 } _sel;\n"
                                "variant <_sel> { uint16_t a; string b; } _v;\n");
  st = sl_ctf_stream_new (stream_path, &so, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 600; i++)
    {
      sl_ctf_stream_begin_event (st, 0, t, 64);
      sl_ctf_put_u32 (st, i % 41);
      sl_ctf_put_bytes (st, data, i % 41);
      sl_ctf_put_u8 (st, i % 3 == 0);
      if (i % 3 == 0)
        sl_ctf_put_string (st, i % 2 == 0 ? "" : "abc");
      else
        sl_ctf_put_u16 (st, (guint16) i);
      sl_ctf_stream_end_event (st);
      t += i % 7 == 0 ? (G_GUINT64_CONSTANT (1) << 27) + 5 : 1000 + i;
    }
  g_assert_true (sl_ctf_stream_close (st, t, &error));
  sl_ctf_stream_free (st);

  rt18 = sl_ctf_retime_new (meta->str, meta->len, slope_map, NULL, &error);
  g_assert_no_error (error);
  rt2 = sl_ctf_retime_new (ctf2_meta, strlen (ctf2_meta), slope_map, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (sl_ctf_retime_stream (rt18, stream_path, copy18, &cut, &error));
  g_assert_no_error (error);
  g_assert_null (cut);
  g_assert_true (sl_ctf_retime_stream (rt2, stream_path, copy2, &cut, &error));
  g_assert_no_error (error);
  g_assert_null (cut);
  g_assert_true (g_file_get_contents (stream_path, &orig, &orig_len, NULL));
  g_assert_true (g_file_get_contents (copy18, &a, &a_len, NULL));
  g_assert_true (g_file_get_contents (copy2, &b, &b_len, NULL));
  g_assert_cmpuint (orig_len, >, 3 * 4096);
  g_assert_cmpmem (a, a_len, b, b_len);
  g_assert_cmpuint (a_len, ==, orig_len);
  g_assert_true (memcmp (a, orig, a_len) != 0);

  {
    g_autoptr(GString) m = g_string_new (ctf2_meta);

    g_string_replace (m, "{\"type\":\"null-terminated-string\"}",
                      "{\"type\":\"null-terminated-string\",\"encoding\":\"utf-16le\"}", 1);
    bad = sl_ctf2_parse_full (m->str, m->len, &error);
    g_assert_null (bad);
    g_assert_nonnull (error);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "fragment 5 (event-record-class ev): a string encoded in utf-16le"));
    g_clear_error (&error);
    /* the scan's own reading is not that strict */
    bad = sl_ctf2_parse (m->str, m->len, &error);
    g_assert_no_error (error);
    g_assert_nonnull (bad);
  }
  rm_rf (tmp);
}

/* Metadata with variable-length (LEB128) role fields: packet sizes and
 * the event record class id; class 1's payload is 8 bytes, class 0's 1,
 * class 2's a variable-length integer. */
static const char ctf2_leb_meta[] =
  "\x1e{\"type\":\"preamble\",\"version\":2}\n"
  "\x1e{\"type\":\"trace-class\",\"packet-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
  MEMBER ("magic", U (32, 8, ROLE ("packet-magic-number"))) "]}}\n"
  CLOCK_AND_PACKET_TIMES
  MEMBER ("packet_size", "{\"type\":\"variable-length-unsigned-integer\",\"roles\":[\"packet-total-length\"]}") ","
  MEMBER ("content_size", "{\"type\":\"variable-length-unsigned-integer\",\"roles\":[\"packet-content-length\"]}") "]},"
  "\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
  MEMBER ("id", "{\"type\":\"variable-length-unsigned-integer\",\"roles\":[\"event-record-class-id\"]}") ","
  MEMBER ("timestamp", U (64, 8, ROLE ("default-clock-timestamp"))) "]}}\n"
  "\x1e{\"type\":\"event-record-class\",\"id\":0,\"name\":\"small\",\"payload-field-class\":"
  "{\"type\":\"structure\",\"member-classes\":[" MEMBER ("x", U (8, 8, "")) "]}}\n"
  "\x1e{\"type\":\"event-record-class\",\"id\":1,\"name\":\"big\",\"payload-field-class\":"
  "{\"type\":\"structure\",\"member-classes\":[" MEMBER ("x", U (64, 8, "")) "]}}\n"
  "\x1e{\"type\":\"event-record-class\",\"id\":2,\"name\":\"leb\",\"payload-field-class\":"
  "{\"type\":\"structure\",\"member-classes\":["
  MEMBER ("x", "{\"type\":\"variable-length-unsigned-integer\"}") "]}}\n";

static void
put_le64 (GByteArray *b,
          guint64     v)
{
  for (guint i = 0; i < 8; i++)
    g_byte_array_append (b, (guint8[]) { (guint8) (v >> (8 * i)) }, 1);
}

static guint64
get_le64 (const char *p)
{
  guint64 v = 0;

  for (guint i = 8; i-- > 0;)
    v = (v << 8) | (guint8) p[i];
  return v;
}

/* One 128-byte packet of @ev (class ids) at times 2000, 3000, …; the
 * offsets of its timestamps in @at (begin, end, then each event's). */
static void
write_leb_packet (const char   *path,
                  const guint8 *ev,
                  guint         n,
                  guint         at[8])
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  static const guint8 magic[] = { 0xc1, 0x1f, 0xfc, 0xc1 };
  /* a 10th byte of 2: bit 64, which no 64-bit value holds */
  static const guint8 too_long[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02 };
  guint content;

  g_byte_array_append (b, magic, 4);
  at[0] = b->len;
  put_le64 (b, 1000);
  at[1] = b->len;
  put_le64 (b, 9000);
  g_byte_array_append (b, (guint8[]) { 0x80, 0x08 }, 2); /* 1024 bits */
  g_byte_array_append (b, (guint8[]) { 0, 0 }, 2);       /* content_size, below */
  for (guint i = 0; i < n; i++)
    {
      g_byte_array_append (b, &ev[i], 1);
      at[2 + i] = b->len;
      put_le64 (b, 2000 + 1000 * i);
      if (ev[i] == 0)
        g_byte_array_append (b, (guint8[]) { 0x11 }, 1);
      else if (ev[i] == 1)
        put_le64 (b, G_GUINT64_CONSTANT (0x0102030405060708));
      else
        g_byte_array_append (b, too_long, sizeof too_long);
    }
  content = b->len * 8;
  b->data[22] = (guint8) (0x80 | (content & 0x7f));
  b->data[23] = (guint8) (content >> 7);
  g_assert_cmpuint (content >> 14, ==, 0);
  g_byte_array_set_size (b, 128);
  memset (b->data + content / 8, 0, 128 - content / 8);
  g_assert_true (g_file_set_contents (path, (const char *) b->data, b->len, NULL));
}

/* What CTF 2's full reading must refuse rather than guess. */
static void
full_refuses (const char *meta,
              const char *from,
              const char *to,
              const char *want)
{
  g_autoptr(GString) m = g_string_new (meta);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTsdl) t = NULL;

  g_assert_cmpuint (g_string_replace (m, from, to, 1), ==, 1);
  t = sl_ctf2_parse_full (m->str, m->len, &error);
  g_assert_null (t);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, want));
}

/* Role fields of variable length decoded for their role (a class 1
 * event is laid out as class 1, the content's end is where it says,
 * every timestamp is rewritten in place); a variable-length integer
 * beyond 64 bits, forward field locations, and what full mode used to
 * clamp or drop are refused. */
static void
test_retime_ctf2_fields (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *path = g_build_filename (tmp, "channel0_0", NULL);
  g_autofree char *copy = g_build_filename (tmp, "copy", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlCtfRetime) rt = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *cut = NULL;
  g_autoptr(GString) deep = g_string_new ("\"path\":[");
  gint64 origin = G_GINT64_CONSTANT (1700000000000000000);
  gsize a_len, b_len;
  guint at[8];

  rt = sl_ctf_retime_new (ctf2_leb_meta, strlen (ctf2_leb_meta), slope_map, NULL, &error);
  g_assert_no_error (error);
  write_leb_packet (path, (const guint8[]) { 1, 0, 1 }, 3, at);
  g_assert_true (sl_ctf_retime_stream (rt, path, copy, &cut, &error));
  g_assert_no_error (error);
  g_assert_null (cut);
  g_assert_true (g_file_get_contents (path, &a, &a_len, NULL));
  g_assert_true (g_file_get_contents (copy, &b, &b_len, NULL));
  g_assert_cmpuint (a_len, ==, b_len);
  for (guint i = 0; i < 5; i++)
    {
      guint64 was = get_le64 (a + at[i]);

      g_assert_cmpuint (get_le64 (b + at[i]), ==, (guint64) (slope_map (origin + (gint64) was, NULL) - origin));
      g_assert_cmpuint (get_le64 (b + at[i]), !=, was);
      memcpy (b + at[i], a + at[i], 8);
    }
  /* nothing else changed: not the payloads, not the padding */
  g_assert_cmpmem (a, a_len, b, b_len);

  /* bits 64–69 of a variable-length integer are not dropped */
  write_leb_packet (path, (const guint8[]) { 0, 2 }, 2, at);
  g_assert_true (g_unlink (copy) == 0);
  g_assert_false (sl_ctf_retime_stream (rt, path, copy, &cut, &error) && cut == NULL);
  g_test_message ("%s", error != NULL ? error->message : cut);
  g_assert_nonnull (strstr (error != NULL ? error->message : cut, "more than 64 bits"));
  g_clear_error (&error);
  g_clear_pointer (&cut, g_free);

  /* a length located in the payload, from the event record header */
  full_refuses (ctf2_meta, MEMBER ("timestamp", U (27, 1, ROLE ("default-clock-timestamp"))),
                MEMBER ("timestamp", U (27, 1, ROLE ("default-clock-timestamp"))) ","
                MEMBER ("s", "{\"type\":\"dynamic-length-string\",\"length-field-location\":"
                             "{\"origin\":\"event-record-payload\",\"path\":[\"_len\"]}}"),
                "a scope decoded after the field's own");
  /* clock offsets that are not integers: not read as 0 */
  full_refuses (ctf2_meta, "\"seconds\":1700000000", "\"seconds\":1.7e9", "not an integer");
  full_refuses (ctf2_meta, "\"seconds\":1700000000", "\"seconds\":\"1700000000\"", "not an integer");
  full_refuses (ctf2_meta, "\"cycles\":0", "\"cycles\":0.5", "not an integer");
  /* what full mode used to clamp, drop or zero */
  full_refuses (ctf2_meta, MEMBER ("_sel", U (8, 8, "")), MEMBER ("_sel", U (65, 8, "")), "length 65");
  full_refuses (ctf2_meta, "\"event-record-class\",\"id\":0", "\"event-record-class\",\"id\":9223372036854775808",
                "not an integer below 2^63");
  full_refuses (ctf2_meta, "\"data-stream-class\",\"id\":0", "\"data-stream-class\",\"id\":1e3",
                "not an integer below 2^63");
  full_refuses (ctf2_meta, "\"data-stream-class-id\":0", "\"data-stream-class-id\":18446744073709551615",
                "not an integer below 2^63");
  for (guint i = 0; i < 64; i++)
    g_string_append (deep, "null,");
  g_string_append (deep, "\"_sel\"]");
  full_refuses (ctf2_meta, "\"path\":[\"_sel\"]", deep->str, "path of 65 names");
  rm_rf (tmp);
}

static guint64
be64 (const guint8 *p)
{
  guint64 v = 0;

  for (guint i = 0; i < 8; i++)
    v = (v << 8) | p[i];
  return v;
}

/* a packet context's 64-bit, byte-aligned, little-endian field */
static guint64
le64_field (const guint8      *packet,
            const SlTsdlField *f)
{
  guint64 v = 0;

  g_assert_true (f->size == 64 && f->bit_offset % 8 == 0 && !f->big_endian);
  for (guint i = 8; i-- > 0;)
    v = (v << 8) | packet[f->bit_offset / 8 + i];
  return v;
}

/* django-vote (lttng-modules 2.4, with index/): the synchronized hosts'
 * copies have indexes whose packet times are those of the rewritten
 * packets, and babeltrace2 reads the whole export as it reads the
 * original. */
static void
test_django_index (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *out = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlTraceReader) reader = NULL;
  guint checked = 0;

  if (!export_data_set ("django-vote", &dir, &tmp, &out, &engine, &reader))
    return;

  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    {
      const char *name = sl_engine_get_host_name (engine, h);
      g_autofree char *kernel = g_build_filename (out, name, "kernel", NULL);
      g_autofree char *meta_path = g_build_filename (kernel, "metadata", NULL);
      g_autofree char *text = NULL;
      g_autofree char *why = NULL;
      g_autoptr(SlTsdl) tsdl = NULL;
      const SlTsdlLayout *l;
      SlHostInfo hi = { 0 };
      gsize len;

      sl_engine_get_host_info (engine, h, &hi);
      if (hi.reference == h)
        {
          sl_host_info_clear (&hi);
          continue;
        }
      sl_host_info_clear (&hi);
      g_assert_cmpint (sl_ctf_meta_read_file (meta_path, &text, &len, NULL, &why), ==, SL_CTF_META_OK);
      tsdl = sl_tsdl_parse (text, len, &error);
      g_assert_no_error (error);
      l = sl_tsdl_get_layout (tsdl, 0);
      g_assert_true (l->fixed && l->f[SL_TSDL_F_TS_BEGIN].present && l->f[SL_TSDL_F_TS_END].present);
      for (guint k = 0; k < 2; k++)
        {
          g_autofree char *sname = g_strdup_printf ("k_%u", k);
          g_autofree char *spath = g_build_filename (kernel, sname, NULL);
          g_autofree char *ipath = g_strdup_printf ("%s/index/%s.idx", kernel, sname);
          g_autofree guint8 *sd = NULL;
          g_autofree guint8 *id = NULL;
          gsize slen, ilen, entry;

          g_assert_true (g_file_get_contents (spath, (char **) &sd, &slen, NULL));
          g_assert_true (g_file_get_contents (ipath, (char **) &id, &ilen, NULL));
          entry = (gsize) ((id[12] << 24) | (id[13] << 16) | (id[14] << 8) | id[15]);
          for (gsize e = 16; e + entry <= ilen; e += entry)
            {
              guint64 off = be64 (id + e);
              const SlTsdlField *b = &l->f[SL_TSDL_F_TS_BEGIN], *x = &l->f[SL_TSDL_F_TS_END];

              g_assert_cmpuint (off, <, slen);
              g_assert_cmpuint (be64 (id + e + 24), ==, le64_field (sd + off, b));
              g_assert_cmpuint (be64 (id + e + 32), ==, le64_field (sd + off, x));
              checked++;
            }
        }
    }
  g_test_message ("%u index entries checked", checked);
  g_assert_cmpuint (checked, >, 100);

  before = babeltrace (dir, TRUE);
  after = babeltrace (out, TRUE);
  g_assert_cmpuint (count_lines (after), ==, count_lines (before));

  rm_rf (tmp);
}

/* A slow clock's large cycle count is a time past any integer's range:
 * refused, never converted (a double of 2^64 or more to an integer is
 * undefined; x86 gave 0, a time at the clock's origin). */
static void
test_retime_clock_range (void)
{
  gint64 base_s = 0;

  g_assert_true (sl_ctf_retime_clock_base (1, 0, G_GUINT64_CONSTANT (4000000000), identity_map, NULL, &base_s));
  g_assert_cmpint (base_s, ==, G_GINT64_CONSTANT (4000000000));
  g_assert_false (sl_ctf_retime_clock_base (1, 0, G_GUINT64_CONSTANT (5000000000), identity_map, NULL, &base_s));
  g_assert_false (sl_ctf_retime_clock_base (1, 0, G_GUINT64_CONSTANT (1) << 62, identity_map, NULL, &base_s));
  g_assert_false (sl_ctf_retime_clock_base (1000, -1700000000, G_MAXUINT64, identity_map, NULL, &base_s));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/retime-compact", test_retime_compact);
  g_test_add_func ("/export/retime-ctf2", test_retime_ctf2);
  g_test_add_func ("/export/retime-clock-range", test_retime_clock_range);
  g_test_add_func ("/export/retime-ctf2-fields", test_retime_ctf2_fields);
  g_test_add_func ("/export/generated", test_generated);
  g_test_add_func ("/export/synctraces", test_synctraces);
  g_test_add_func ("/export/django-index", test_django_index);
  g_test_add_func ("/export/piecewise/wander", test_wander);
  g_test_add_func ("/export/piecewise/step", test_step);
  g_test_add_func ("/export/partial-packet", test_partial_packet);

  return g_test_run ();
}
