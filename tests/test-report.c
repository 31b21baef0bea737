/* test-report.c: the JSON report written as it goes (sl-json-out.c,
 * sl-report.c), against json-glib's own printer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-report.h"
#include "sl-sim.h"

/* Names a JSON printer must escape, and a host that never talks (NaN and
 * null members). */
static const char *const names[] = {
  "plain", "quo\"te", "back\\slash", "new\nline", "tab\tand\rcr", "ctl\x01\x1e", "ünïcödé ✓", "lonely",
};

static SlEngine *
make_engine (void)
{
  SlEngine *engine = sl_engine_new (NULL);
  SlSimOptions options;
  SlSim *sim;
  SlPacketEvent ev;
  gint64 t;

  sl_sim_options_init (&options);
  options.seed = 7;
  options.duration_ns = 20 * G_GINT64_CONSTANT (1000000000);
  sim = sl_sim_new (&options);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      sl_sim_add_host (sim, names[i], (gint64) i * 123456789, (double) i * 3e-6);
      sl_engine_add_host (engine, names[i]);
    }
  for (guint i = 0; i + 2 < G_N_ELEMENTS (names); i++)
    sl_sim_add_link (sim, i, i + 1, 50);
  /* flushed every simulated second, as the readers do: links are
   * refreshed (and journaled) at flushes */
  for (gint64 next = G_MININT64; sl_sim_next (sim, &ev, &t);)
    {
      if (next == G_MININT64)
        next = t + G_GINT64_CONSTANT (1000000000);
      if (t >= next)
        {
          sl_engine_flush (engine);
          next += G_GINT64_CONSTANT (1000000000);
        }
      sl_engine_add_packet (engine, &ev, t);
    }
  sl_sim_free (sim);
  return engine;
}

static char *
write_text (SlEngine                  *engine,
            const SlReportJsonOptions *options)
{
  g_autoptr(SlJsonOut) out = sl_json_out_new_string ();

  sl_report_write_json (engine, options, out);
  g_assert_true (sl_json_out_finish (out, NULL));
  return sl_json_out_steal_string (out);
}

static char *
write_builder (SlEngine                  *engine,
               const SlReportJsonOptions *options)
{
  g_autoptr(SlJsonOut) out = sl_json_out_new_builder ();
  g_autoptr(JsonNode) root = NULL;

  sl_report_write_json (engine, options, out);
  root = sl_json_out_steal_root (out);
  return json_to_string (root, TRUE);
}

static void
extra_members_cb (SlJsonOut *out,
                  guint      index,
                  gpointer   user_data)
{
  sl_json_out_begin_object (out, "extra");
  sl_json_out_int (out, "index", index);
  sl_json_out_number (out, "nan", NAN);
  sl_json_out_number (out, "whole", 3.0);
  sl_json_out_number (out, "tiny", -2.5e-300);
  sl_json_out_boolean (out, "yes", TRUE);
  sl_json_out_string (out, "none", NULL);
  sl_json_out_begin_array (out, "empty");
  sl_json_out_end_array (out);
  sl_json_out_end_object (out);
}

/* The text is json-glib's pretty layout byte for byte, in every mode and
 * with every kind of value, and a stream gets the same bytes. */
static void
test_same_as_json_glib (void)
{
  SlEngine *engine = make_engine ();
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);
  SlReportTiming timing = { 1.25, 0.5 };

  g_ptr_array_add (problems, sl_trace_problem_new (NULL, "/a \"b\"", "no trace"));
  g_ptr_array_add (problems, sl_trace_problem_new ("plain", "/c", "truncated\nstream"));

  for (SlJournalMode mode = SL_JOURNAL_SUMMARY; mode <= SL_JOURNAL_NONE; mode++)
    for (guint extras = 0; extras < 2; extras++)
      {
        SlReportJsonOptions options;
        g_autofree char *text = NULL, *reference = NULL;

        sl_report_json_options_init (&options);
        options.journal = mode;
        if (extras)
          {
            options.timing = &timing;
            options.problems = problems;
            options.host_members = extra_members_cb;
            options.link_members = extra_members_cb;
          }
        text = write_text (engine, &options);
        reference = write_builder (engine, &options);
        g_assert_cmpstr (text, ==, reference);
        g_assert_true (g_utf8_validate (text, -1, NULL));

        /* through a stream, larger than its buffer */
        {
          g_autoptr(GOutputStream) mem = g_memory_output_stream_new_resizable ();
          g_autoptr(SlJsonOut) out = sl_json_out_new_stream (mem);
          gsize len;

          sl_report_write_json (engine, &options, out);
          g_assert_true (sl_json_out_finish (out, NULL));
          g_output_stream_close (mem, NULL, NULL);
          len = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem));
          g_assert_cmpuint (len, ==, strlen (text));
          g_assert_cmpint (memcmp (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)), text, len), ==, 0);
          if (mode == SL_JOURNAL_FULL)
            g_assert_cmpuint (len, >, 64 * 1024);
        }
      }
  sl_engine_free (engine);
}

/* The summary counts what the full journal lists, and none leaves both
 * out; the full journal is what sl_report_to_json() gives. */
static void
test_journal_modes (void)
{
  SlEngine *engine = make_engine ();
  g_autoptr(JsonNode) full_root = sl_report_to_json (engine, NULL);
  JsonObject *full = json_node_get_object (full_root);
  JsonArray *journal = json_object_get_array_member (full, "journal");
  guint n = json_array_get_length (journal);
  SlReportJsonOptions options;
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *summary, *kinds;
  gint64 last_tree = -1;

  g_assert_cmpuint (n, >, 20);
  sl_report_json_options_init (&options);
  g_assert_cmpint (options.journal, ==, SL_JOURNAL_SUMMARY);
  text = write_text (engine, &options);
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_false (json_object_has_member (root, "journal"));
  summary = json_object_get_object_member (root, "journal_summary");
  g_assert_cmpint (json_object_get_int_member (summary, "entries"), ==, n);
  g_assert_cmpint (json_object_get_int_member (summary, "dropped"), ==, 0);
  kinds = json_object_get_object_member (summary, "kinds");
  for (SlChangeKind k = SL_CHANGE_LINK; k <= SL_CHANGE_TRANSFORM; k++)
    {
      gint64 count = 0;

      for (guint i = 0; i < n; i++)
        {
          JsonObject *c = json_array_get_object_element (journal, i);

          if (g_str_equal (json_object_get_string_member (c, "kind"), sl_change_kind_to_string (k)))
            {
              count++;
              if (k == SL_CHANGE_TREE_EDGE_IN || k == SL_CHANGE_TREE_EDGE_OUT)
                last_tree = MAX (last_tree, json_object_get_int_member (c, "input_time"));
            }
        }
      g_assert_cmpint (json_object_get_int_member (kinds, sl_change_kind_to_string (k)), ==, count);
    }
  g_assert_cmpint (json_object_get_int_member (summary, "first_input_time"), ==,
                   json_object_get_int_member (json_array_get_object_element (journal, 0), "input_time"));
  g_assert_cmpint (json_object_get_int_member (summary, "last_input_time"), ==,
                   json_object_get_int_member (json_array_get_object_element (journal, n - 1), "input_time"));
  g_assert_cmpint (json_object_get_int_member (summary, "last_tree_change_input_time"), ==, last_tree);

  {
    g_autofree char *none = NULL;
    g_autoptr(JsonParser) p2 = json_parser_new ();
    JsonObject *r2;

    options.journal = SL_JOURNAL_NONE;
    none = write_text (engine, &options);
    g_assert_true (json_parser_load_from_data (p2, none, -1, NULL));
    r2 = json_node_get_object (json_parser_get_root (p2));
    g_assert_false (json_object_has_member (r2, "journal"));
    g_assert_false (json_object_has_member (r2, "journal_summary"));
    g_assert_true (json_object_has_member (r2, "links"));
  }
  {
    g_autofree char *t = NULL, *r = NULL;

    options.journal = SL_JOURNAL_FULL;
    t = write_text (engine, &options);
    r = json_to_string (full_root, TRUE);
    g_assert_cmpstr (t, ==, r);
  }
  sl_engine_free (engine);
}

/* Every control character is escaped (json-glib 1.6 leaves 0x1f raw,
 * which is not JSON), an empty object is {} (json-glib pads it). */
static void
test_escapes (void)
{
  g_autoptr(SlJsonOut) out = sl_json_out_new_string ();
  g_autofree char *text = NULL;

  sl_json_out_begin_array (out, NULL);
  sl_json_out_string (out, NULL, "a\x1f\x7f\"");
  sl_json_out_begin_object (out, NULL);
  sl_json_out_end_object (out);
  sl_json_out_end_array (out);
  text = sl_json_out_steal_string (out);
  g_assert_cmpstr (text, ==, "[\n  \"a\\u001f\x7f\\\"\",\n  {}\n]");
}

static void
test_modes_strings (void)
{
  SlJournalMode mode;

  for (SlJournalMode m = SL_JOURNAL_SUMMARY; m <= SL_JOURNAL_NONE; m++)
    {
      g_assert_true (sl_journal_mode_from_string (sl_journal_mode_to_string (m), &mode));
      g_assert_cmpint (mode, ==, m);
    }
  g_assert_false (sl_journal_mode_from_string ("all", &mode));
  g_assert_false (sl_journal_mode_from_string (NULL, &mode));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/report/same-as-json-glib", test_same_as_json_glib);
  g_test_add_func ("/report/journal-modes", test_journal_modes);
  g_test_add_func ("/report/escapes", test_escapes);
  g_test_add_func ("/report/mode-strings", test_modes_strings);
  return g_test_run ();
}
