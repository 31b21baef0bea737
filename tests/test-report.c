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

/* @sim's packets, flushed every simulated second as the readers do: links
 * are refreshed (and journaled) at flushes. Frees @sim. */
static void
feed (SlEngine *engine,
      SlSim    *sim)
{
  SlPacketEvent ev;
  gint64 t;

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
  sl_engine_flush (engine);
}

static SlEngine *
make_engine (void)
{
  SlEngine *engine = sl_engine_new (NULL);
  SlSimOptions options;
  SlSim *sim;

  sl_sim_options_init (&options);
  options.seed = 7;
  options.duration_ns = 40 * G_GINT64_CONSTANT (1000000000);
  sim = sl_sim_new (&options);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      sl_sim_add_host (sim, names[i], (gint64) i * 123456789, (double) i * 3e-6);
      sl_engine_add_host (engine, names[i]);
    }
  for (guint i = 0; i + 2 < G_N_ELEMENTS (names); i++)
    sl_sim_add_link (sim, i, i + 1, 50);
  feed (engine, sim);
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
  return json_to_string (root, FALSE);
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

/* The text is json-glib's compact layout byte for byte, in every mode and
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
            options.profiles = SL_PROFILES_FULL;
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
    r = json_to_string (full_root, FALSE);
    g_assert_cmpstr (t, ==, r);
  }
  sl_engine_free (engine);
}

/* The bound at @x by linear interpolation of a [[t, bound]…] profile,
 * +inf outside it and where a point is null. */
static double
profile_at (JsonArray *prof,
            gint64     x)
{
  guint n = json_array_get_length (prof);

  for (guint i = 0; i < n; i++)
    {
      JsonArray *p = json_array_get_array_element (prof, i);
      gint64 x0 = json_array_get_int_element (p, 0);
      JsonArray *q;
      gint64 x1;
      double b0, b1;

      if (x < x0)
        return INFINITY;
      if (json_array_get_null_element (p, 1))
        b0 = INFINITY;
      else
        b0 = json_array_get_double_element (p, 1);
      if (x == x0 || i + 1 == n)
        {
          if (x == x0)
            return b0;
          continue;
        }
      q = json_array_get_array_element (prof, i + 1);
      x1 = json_array_get_int_element (q, 0);
      if (x >= x1)
        continue;
      b1 = json_array_get_null_element (q, 1) ? INFINITY : json_array_get_double_element (q, 1);
      if (isinf (b0) || isinf (b1))
        return INFINITY;
      return b0 + (b1 - b0) * (double) (x - x0) / (double) (x1 - x0);
    }
  return INFINITY;
}

/* Both profiles are linear between their points, so the compact one is
 * above the full one everywhere when it is at each point of both (and, as
 * a check of the reading, at instants in between). */
static guint
check_envelope (JsonArray  *compact,
                JsonArray  *full,
                const char *what)
{
  guint nc = json_array_get_length (compact), nf = json_array_get_length (full);
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (gint64));
  double full_max = 0, compact_max = 0;

  g_assert_cmpuint (nc, <=, SL_REPORT_COMPACT_POINTS);
  g_assert_cmpuint (nc > 0, ==, nf > 0);
  if (nf == 0)
    return 0;
  /* the same span */
  g_assert_cmpint (json_array_get_int_element (json_array_get_array_element (compact, 0), 0), ==,
                   json_array_get_int_element (json_array_get_array_element (full, 0), 0));
  g_assert_cmpint (json_array_get_int_element (json_array_get_array_element (compact, nc - 1), 0), ==,
                   json_array_get_int_element (json_array_get_array_element (full, nf - 1), 0));
  for (guint i = 0; i < nc; i++)
    {
      gint64 x = json_array_get_int_element (json_array_get_array_element (compact, i), 0);
      g_array_append_val (xs, x);
    }
  for (guint i = 0; i < nf; i++)
    {
      gint64 x = json_array_get_int_element (json_array_get_array_element (full, i), 0);
      g_array_append_val (xs, x);
      if (i + 1 < nf)
        {
          gint64 x1 = json_array_get_int_element (json_array_get_array_element (full, i + 1), 0);

          x += (x1 - x) / 3;
          g_array_append_val (xs, x);
        }
    }
  for (guint i = 0; i < xs->len; i++)
    {
      gint64 x = g_array_index (xs, gint64, i);
      double c = profile_at (compact, x), f = profile_at (full, x);

      if (!(c >= f))
        g_error ("%s: the compact profile is below the bound at %" G_GINT64_FORMAT ": %.3f < %.3f ns",
                 what, x, c, f);
      full_max = MAX (full_max, f);
      compact_max = MAX (compact_max, c);
    }
  /* the largest value is kept (rounded up to the ns) */
  if (isfinite (full_max))
    g_assert_cmpfloat (compact_max, ==, ceil (full_max));
  return nf;
}

/* The default report's host profiles: at most SL_REPORT_COMPACT_POINTS
 * points, never below the exact bound (--profiles=full) at any instant;
 * links' profiles and windows only in full. Clocks that wander give bounds
 * of many points. */
static void
test_compact_profiles (void)
{
  SlEngine *engine = sl_engine_new (NULL);
  SlSimOptions options;
  SlSim *sim;
  SlReportJsonOptions ro;
  g_autofree char *compact = NULL, *full = NULL;
  g_autoptr(JsonParser) pc = json_parser_new ();
  g_autoptr(JsonParser) pf = json_parser_new ();
  JsonObject *rc, *rf;
  guint longer = 0;

  sl_sim_options_init (&options);
  options.seed = 11;
  options.duration_ns = 600 * G_GINT64_CONSTANT (1000000000);
  sim = sl_sim_new (&options);
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *name = g_strdup_printf ("h%u", i);

      sl_sim_add_host (sim, name, (gint64) i * 987654321, (double) i * 4e-6);
      sl_sim_set_host_wander (sim, i, 2e-6 * i, 120.0 + 60 * i);
      sl_engine_add_host (engine, name);
    }
  for (guint i = 0; i + 2 < 4; i++)
    sl_sim_add_link (sim, i, i + 1, 20);
  /* the last link only for the first minute: extrapolated after */
  sl_sim_add_link_span (sim, 2, 3, 20, 0, 60 * G_GINT64_CONSTANT (1000000000));
  feed (engine, sim);

  sl_report_json_options_init (&ro);
  g_assert_cmpint (ro.profiles, ==, SL_PROFILES_COMPACT);
  compact = write_text (engine, &ro);
  ro.profiles = SL_PROFILES_FULL;
  full = write_text (engine, &ro);
  g_assert_true (json_parser_load_from_data (pc, compact, -1, NULL));
  g_assert_true (json_parser_load_from_data (pf, full, -1, NULL));
  rc = json_node_get_object (json_parser_get_root (pc));
  rf = json_node_get_object (json_parser_get_root (pf));

  for (guint k = 0; k < 2; k++)
    {
      const char *member = k == 0 ? "hosts" : "links";
      JsonArray *ac = json_object_get_array_member (rc, member);
      JsonArray *af = json_object_get_array_member (rf, member);

      g_assert_cmpuint (json_array_get_length (ac), ==, json_array_get_length (af));
      for (guint i = 0; i < json_array_get_length (ac); i++)
        {
          JsonObject *oc = json_array_get_object_element (ac, i);
          JsonObject *of = json_array_get_object_element (af, i);
          g_autofree char *what = g_strdup_printf ("%s %u", member, i);

          g_assert_cmpint (json_object_has_member (oc, "windows"), ==, FALSE);
          if (k == 1)
            {
              /* a link's bound over time: --profiles=full only */
              g_assert_false (json_object_has_member (oc, "bound_profile"));
              g_assert_true (json_object_has_member (of, "bound_profile"));
            }
          else if (check_envelope (json_object_get_array_member (oc, "bound_profile"),
                                   json_object_get_array_member (of, "bound_profile"), what) > SL_REPORT_COMPACT_POINTS)
            longer++;
          g_assert_cmpint (json_object_has_member (of, "windows"), ==, k == 1);
          g_assert_cmpfloat (json_object_get_double_member (oc, "bound_ns"), ==,
                             json_object_get_double_member (of, "bound_ns"));
        }
    }
  /* the check is not vacuous: some exact profiles are longer than the
   * compact ones */
  g_assert_cmpuint (longer, >=, 2);
  sl_engine_free (engine);
}

/* Every control character is escaped (json-glib 1.6 leaves 0x1f raw,
 * which is not JSON), an empty object is {}. */
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
  g_assert_cmpstr (text, ==, "[\"a\\u001f\x7f\\\"\",{}]");
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

/* A host's map where its data starts is the piece that covers its data:
 * b's start is its link's span start mapped by the link's relation,
 * rounded up, so it falls on the first piece of b's inverse map, not on
 * the piece before it (the first window's slope, extrapolated back). Before,
 * the link's estimate (the piece covering most of it) mapped it, landing
 * microseconds off: on a 600 s set with wandering clocks node-03 showed
 * +11.44 ppm where its link said -11.69 and the truth +11.69. Two hosts,
 * b's clock wandering by 20 ppm over 300 s, a dozen phases and offsets
 * (fails before at the second: the piece before the data, 0.09 ppm off
 * its link's). */
static void
test_drift_at_start (void)
{
  gint64 t0 = G_GINT64_CONSTANT (1700000000000000000);
  guint n_piecewise = 0;
  double worst = 0;

  for (guint k = 0; k < 12; k++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (k + 1);
      SlEngine *e = sl_engine_new (NULL);
      double drift = -40e-6 + 7e-6 * k, phase = k * G_PI / 6, off = 1e6 * k + 12345.678;
      g_autoptr(GArray) links = g_array_new (FALSE, TRUE, sizeof (SlReportLink));
      g_autoptr(GPtrArray) rels = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
      gint64 starts[2];
      const SlLinkInfo *li;

      sl_engine_add_host (e, "a");
      sl_engine_add_host (e, "b");
      for (int i = 0; i < 30000; i++)
        {
          /* true time = a's clock; b's reads this plus its offset, drift
           * and wander */
          gint64 ta = t0 + (gint64) i * 10000000 + g_rand_int_range (rand, 0, 1000000);
          gint64 lat = 40000 + g_rand_int_range (rand, 0, 60000);
#define B_AT(t) ((t) + (gint64) (off + drift * (double) ((t) - t0) + \
                 20e-6 * 300e9 / (2 * G_PI) * (cos (phase) - cos (phase + 2 * G_PI * (double) ((t) - t0) / 300e9))))
          SlMatch m = i % 2 == 0 ? (SlMatch) { 0, 1, ta, B_AT (ta + lat) } : (SlMatch) { 1, 0, B_AT (ta), ta + lat };

          sl_engine_add_match (e, &m, m.recv_time);
        }
      sl_engine_flush (e);
      g_array_set_size (links, 1);
      sl_report_get_link (e, 0, &g_array_index (links, SlReportLink, 0));
      g_ptr_array_add (rels, sl_engine_get_link_relation (e, 0));
      li = &g_array_index (links, SlReportLink, 0).info;
      g_assert_true (li->has_estimate);
      g_assert_nonnull (rels->pdata[0]);
      sl_report_host_starts ((const SlReportLink *) (gpointer) links->data, (SlRelation * const *) rels->pdata, 1,
                             starts, 2);
      for (guint h = 0; h < 2; h++)
        {
          SlHostInfo hi = { 0 };
          double shown, link_ppm, truth, rate_b, d;
          const SlTransform *piece, *lp;

          sl_engine_get_host_info (e, h, &hi);
          if (hi.reference == h)
            {
              sl_host_info_clear (&hi);
              continue;
            }
          piece = sl_relation_piece_at (hi.relation, starts[h]);
          shown = sl_transform_get_slope (piece) - 1;
          /* the link's own piece where its data starts, a -> b */
          lp = sl_relation_piece_at (rels->pdata[0], li->span_start);
          link_ppm = h == 0 ? sl_transform_get_slope (lp) - 1 : 1 / sl_transform_get_slope (lp) - 1;
          /* the truth: b's rate against a's at the start */
          d = (double) (li->span_start - t0);
          rate_b = 1 + drift + 20e-6 * sin (phase + 2 * G_PI * d / 300e9);
          truth = h == 0 ? rate_b - 1 : 1 / rate_b - 1;
          g_test_message ("phase %u: %s's drift at its start %+.4f ppm (piece %u of %u), its link's %+.4f, truth %+.4f",
                          k, h == 0 ? "a" : "b", shown * 1e6, sl_relation_find_piece (hi.relation, starts[h]),
                          sl_relation_get_n_pieces (hi.relation), link_ppm * 1e6, truth * 1e6);
          n_piecewise += sl_relation_get_n_pieces (hi.relation) > 1;
          g_assert_cmpfloat (fabs (shown - link_ppm) * 1e6, <=, 1e-6);
          /* (a window's slope, not the instant's: the rate moves by
           * 0.4 ppm/s) */
          worst = MAX (worst, fabs (shown - truth) * 1e6);
          /* and the offset there within the bound of the truth */
          {
            gint64 mapped = sl_transform_apply (piece, starts[h]);
            double want = h == 0 ? (double) B_AT (starts[h])
                                 : (double) li->span_start + (double) (starts[h] - B_AT (li->span_start)) / rate_b;

            g_assert_cmpfloat (fabs ((double) mapped - want), <=, sl_relation_bound_at (hi.relation, starts[h]) + 2);
          }
          sl_host_info_clear (&hi);
        }
#undef B_AT
      sl_engine_free (e);
    }
  g_test_message ("largest drift from the truth's at the start %.4f ppm", worst);
  g_assert_cmpuint (n_piecewise, >=, 10);
}

/* The rate of the truth at @x on @h's clock against @r's: a secant over
 * ±1 s of true time (the clocks' ns rounding: 0.001 ppm). */
static double
true_drift (const SlSim *sim,
            guint        h,
            guint        r,
            gint64       x)
{
  gint64 tt = x, d = 1000000000;

  for (int k = 0; k < 6; k++)
    tt -= sl_sim_local_time (sim, h, tt) - x;
  return (double) (sl_sim_local_time (sim, r, tt + d) - sl_sim_local_time (sim, r, tt - d)) /
         (double) (sl_sim_local_time (sim, h, tt + d) - sl_sim_local_time (sim, h, tt - d)) - 1;
}

/* What the map and its bound guarantee of the true rate at @t, with
 * |g''| <= @kappa (1/ns): from t to t ± h the truth's secant is within
 * (b(t) + b(t ± h)) / h of the map's, and the rate at t within κh/2 of
 * the secant. */
static void
drift_interval (const SlRelation *rel,
                gint64            t,
                double            kappa,
                double           *lo,
                double           *hi)
{
  gint64 gt = sl_relation_apply (rel, t);
  double bt = sl_relation_bound_at (rel, t);

  *lo = -INFINITY;
  *hi = INFINITY;
  for (double h = 1e8; h <= 1e12; h *= M_SQRT2)
    for (int dir = -1; dir <= 1; dir += 2)
      {
        gint64 u = t + dir * (gint64) h;
        double secant = (double) (dir * (sl_relation_apply (rel, u) - gt)) / h - 1;
        double e = (bt + sl_relation_bound_at (rel, u)) / h + kappa * h / 2;

        *lo = MAX (*lo, secant - e);
        *hi = MIN (*hi, secant + e);
      }
}

/* Where a host's drift is read (sl_report_drift_start()): on the first
 * piece of its map over packets of every link of its path. A host whose
 * data starts on a link off the tree, before its tree path's first
 * packets, read it on the piece before them (each link's first window's
 * bisector continued backwards: node-01 53.7685 ppm where its link said
 * 53.7987 on a 120 s set). Random clusters of 4-7 hosts whose clocks
 * wander (up to 5 ppm, within the default assumption), tree links that
 * start 2-40 s in, and bursts of packets in the first second on other
 * links. Checked by walking the path: just after the drift's instant no
 * link of the path is on its piece 0, just before it one is, and the
 * drift is the product of the links' slopes there; the truth's rate
 * there within what the host's bound guarantees of it. */
static void
test_drift_on_path (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (78);
  SlEngineOptions eo;
  double kappa, worst = 0, worst_before = 0, widest = 0;
  guint n_later = 0, n_hosts_checked = 0;

  sl_engine_options_init (&eo);
  kappa = 2 * eo.drift_change * 1e-9 * pow (1 + eo.max_drift, 4);
  for (guint sc = 0; sc < 8; sc++)
    {
      SlSimOptions so;
      g_autoptr(SlSim) sim = NULL;
      SlEngine *e = sl_engine_new (&eo);
      guint n = g_rand_int_range (rand, 4, 8);
      g_autoptr(GArray) links = g_array_new (FALSE, TRUE, sizeof (SlReportLink));
      g_autoptr(GPtrArray) lrels = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
      g_autoptr(GPtrArray) hrels = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
      g_autoptr(GHashTable) pairs = NULL;
      g_autofree gint64 *starts = g_new (gint64, n);
      SlPacketEvent ev;
      gint64 t;

      sl_sim_options_init (&so);
      so.seed = sc + 1;
      so.duration_ns = 120 * G_GINT64_CONSTANT (1000000000);
      sim = sl_sim_new (&so);
      for (guint h = 0; h < n; h++)
        {
          char name[16];

          g_snprintf (name, sizeof name, "h%u", h);
          sl_sim_add_host (sim, name, (gint64) g_rand_double_range (rand, -1e12, 1e12),
                           g_rand_double_range (rand, -100e-6, 100e-6));
          sl_sim_set_host_wander (sim, h, g_rand_double_range (rand, 0, 5e-6), g_rand_double_range (rand, 600, 7200));
          sl_engine_add_host (e, name);
        }
      for (guint h = 1; h < n; h++)
        {
          guint other = (h + 1 + g_rand_int_range (rand, 0, n - 1)) % n;

          sl_sim_add_link_span (sim, g_rand_int_range (rand, 0, h), h, 100,
                                so.start_ns + (gint64) g_rand_double_range (rand, 2e9, 40e9), so.start_ns + so.duration_ns);
          if (other != h && g_rand_int_range (rand, 0, 3) > 0)
            sl_sim_add_link_span (sim, other, h, 50, so.start_ns, so.start_ns + 1000000000);
        }
      while (sl_sim_next (sim, &ev, &t))
        sl_engine_add_packet (e, &ev, t);
      sl_engine_flush (e);

      g_array_set_size (links, sl_engine_get_n_links (e));
      for (guint l = 0; l < links->len; l++)
        {
          sl_report_get_link (e, l, &g_array_index (links, SlReportLink, l));
          g_ptr_array_add (lrels, sl_engine_get_link_relation (e, l));
        }
      for (guint h = 0; h < n; h++)
        {
          SlHostInfo hi = { 0 };

          sl_engine_get_host_info (e, h, &hi);
          g_ptr_array_add (hrels, sl_relation_ref (hi.relation));
          sl_host_info_clear (&hi);
        }
      for (guint l = 0; l < links->len; l++)
        {
          const SlLinkInfo *li = &g_array_index (links, SlReportLink, l).info;

          if (lrels->pdata[l] != NULL && sl_relation_get_n_pieces (lrels->pdata[l]) > 1 &&
              sl_relation_get_piece (lrels->pdata[l], 1, NULL) > li->span_start + 1000000)
            g_test_message ("scenario %u link %u-%u: first accurate piece %.3f s after its first packet", sc, li->a, li->b,
                            (double) (sl_relation_get_piece (lrels->pdata[l], 1, NULL) - li->span_start) / 1e9);
        }
      pairs = sl_report_link_pairs ((const SlReportLink *) (gpointer) links->data, links->len);
      sl_report_host_starts ((const SlReportLink *) (gpointer) links->data, (SlRelation * const *) lrels->pdata,
                             links->len, starts, n);
      for (guint h = 0; h < n; h++)
        {
          SlHostInfo hi = { 0 };
          gint64 at;
          double shown, before, truth, lo, hi_, product = 1;
          gboolean head_before = FALSE;

          sl_engine_get_host_info (e, h, &hi);
          if (hi.reference == h || !isfinite (hi.bound_ns) || starts[h] == G_MAXINT64)
            {
              sl_host_info_clear (&hi);
              continue;
            }
          at = sl_report_drift_start ((const SlReportLink *) (gpointer) links->data,
                                      (SlRelation * const *) lrels->pdata, pairs, (SlRelation * const *) hrels->pdata,
                                      (const guint *) (gpointer) hi.path->data, hi.path->len, starts[h]);
          g_assert_cmpint (at, >=, starts[h]);
          /* walk the path 1 µs after the instant and 1 µs before it */
          for (int side = 0; side < 2; side++)
            {
              gint64 x = side == 0 ? at + 1000 : at - 1000;

              if (side == 1 && at - 1000 < starts[h])
                break;
              for (guint k = 0; k + 1 < hi.path->len; k++)
                {
                  guint u = g_array_index (hi.path, guint, k), v = g_array_index (hi.path, guint, k + 1), l;
                  g_autoptr(SlRelation) f = NULL;
                  guint piece;

                  for (l = 0; l < links->len; l++)
                    {
                      const SlLinkInfo *li = &g_array_index (links, SlReportLink, l).info;

                      if ((li->a == u && li->b == v) || (li->a == v && li->b == u))
                        break;
                    }
                  g_assert_cmpuint (l, <, links->len);
                  f = g_array_index (links, SlReportLink, l).info.a == u ? sl_relation_ref (lrels->pdata[l])
                                                                          : sl_relation_invert (lrels->pdata[l]);
                  piece = sl_relation_find_piece (f, x);
                  if (side == 0)
                    {
                      g_assert_true (piece > 0 || sl_relation_get_n_pieces (f) == 1);
                      product *= sl_transform_get_slope (sl_relation_piece_at (f, x));
                    }
                  else
                    head_before |= piece == 0 && sl_relation_get_n_pieces (f) > 1;
                  x = sl_relation_apply (f, x);
                }
            }
          shown = sl_relation_piece_at (hi.relation, at)->drift;
          before = sl_relation_piece_at (hi.relation, starts[h])->drift;
          if (sl_relation_find_piece (hi.relation, at) == sl_relation_find_piece (hi.relation, at + 1000))
            g_assert_cmpfloat (fabs (shown - (product - 1)) * 1e6, <=, 1e-6);
          if (at > starts[h])
            {
              g_assert_true (head_before || at - 1000 < starts[h]);
              n_later++;
            }
          /* the text says where the drift is read when it is not at
           * the start's tenth of a second */
          {
            g_autofree char *text = sl_report_offset_text (sl_relation_piece_at (hi.relation, starts[h]), starts[h],
                                                           sl_relation_piece_at (hi.relation, at), at);

            if (at - starts[h] >= 200000000)
              g_assert_nonnull (strstr (text, " ppm from "));
            else if (at == starts[h])
              g_assert_null (strstr (text, " from "));
          }
          truth = true_drift (sim, h, hi.reference, at);
          drift_interval (hi.relation, at, kappa, &lo, &hi_);
          g_test_message ("scenario %u h%u (%u hops): drift %+.4f ppm %.3f s after its start (there %+.4f), "
                          "truth %+.4f, guaranteed [%+.3f, %+.3f]", sc, h, hi.path->len - 1, shown * 1e6,
                          (double) (at - starts[h]) / 1e9, before * 1e6, truth * 1e6, lo * 1e6, hi_ * 1e6);
          g_assert_cmpfloat (truth, >=, lo);
          g_assert_cmpfloat (truth, <=, hi_);
          worst = MAX (worst, fabs (shown - truth) * 1e6);
          worst_before = MAX (worst_before, fabs (before - true_drift (sim, h, hi.reference, starts[h])) * 1e6);
          widest = MAX (widest, (hi_ - lo) * 1e6);
          n_hosts_checked++;
          sl_host_info_clear (&hi);
        }
      sl_engine_free (e);
    }
  g_test_message ("%u hosts, %u with a drift read after their start; largest error %.4f ppm (at the start, "
                  "on the piece there: %.4f), widest guaranteed interval %.3f ppm", n_hosts_checked, n_later,
                  worst, worst_before, widest);
  g_assert_cmpuint (n_later, >=, 10);
}

/* A link whose first windows are not accurate: its relation starts
 * resting on packets at its first accurate window (piece 1); before, it is
 * that window's bisector continued backwards (build_path() in
 * sl-segments-relation.c). Its drift is read there (sl_report_link_start()'s
 * rate), its offset still where its data starts, both ways round (fails
 * before: the drift was piece 0's). */
static void
test_drift_first_accurate (void)
{
  gint64 t0 = G_GINT64_CONSTANT (1700000000000000000), s = 10000000000;
  gint64 starts[3] = { G_MININT64, t0 + 3 * s, t0 + 9 * s };
  SlTransform maps[3];
  SlBoundPoint b = { t0, 50000 };
  g_autoptr(SlRelation) rel = NULL;

  sl_transform_init (&maps[0], t0 + 3 * s, t0 + 3 * s + 5000000, 0.25, 41e-6);
  sl_transform_init (&maps[1], t0 + 3 * s, t0 + 3 * s + 5000000, 0.25, 40e-6);
  sl_transform_init (&maps[2], t0 + 9 * s, sl_transform_apply (&maps[1], t0 + 9 * s), 0, 39e-6);
  rel = sl_relation_new (starts, maps, 3, &b, 1, TRUE);
  for (int flipped = 0; flipped < 2; flipped++)
    {
      SlReportLink rl = { 0 };
      SlTransform map, rate;
      gint64 start, rate_at;

      rl.flipped = flipped;
      rl.info.has_estimate = TRUE;
      rl.info.matches = 1000;
      rl.info.span_start = t0 + s;
      rl.info.span_end = t0 + 12 * s;
      rl.info.estimate = maps[1];
      g_assert_true (sl_report_link_start (&rl, rel, &start, &map, &rate, &rate_at));
      g_test_message ("flipped %d: drift %+.4f ppm from %+.3f s, offset's piece %+.4f ppm", flipped, rate.drift * 1e6,
                      (double) (rate_at - start) / 1e9, map.drift * 1e6);
      if (!flipped)
        {
          g_assert_cmpint (start, ==, t0 + s);
          g_assert_true (memcmp (&map, &maps[0], sizeof map) == 0);
          g_assert_cmpint (rate_at, ==, t0 + 3 * s);
          g_assert_cmpfloat (rate.drift, ==, 40e-6);
        }
      else
        {
          g_assert_cmpint (start, ==, sl_transform_apply (&maps[0], t0 + s));
          g_assert_cmpint (rate_at, ==, sl_relation_apply_up (rel, t0 + 3 * s));
          g_assert_cmpfloat (fabs ((1 + rate.drift) * (1 + 40e-6) - 1), <, 1e-15);
          g_assert_cmpfloat (fabs ((1 + map.drift) * (1 + 41e-6) - 1), <, 1e-15);
        }
    }
}

/* A link's row is oriented by its hosts' names, whichever end the engine
 * saw first (kept per link by the engine). */
static void
test_link_orientation (void)
{
  g_autoptr(SlEngine) e = sl_engine_new (NULL);
  const gint64 t0 = G_GINT64_CONSTANT (1700000000000000000);
  SlReportLink rl;

  sl_engine_add_host (e, "web");
  sl_engine_add_host (e, "db");
  sl_engine_add_host (e, "zz");
  for (int i = 0; i < 40; i++)
    {
      gint64 t = t0 + (gint64) i * 1000000;
      SlMatch m = i % 2 == 0 ? (SlMatch) { 0, 1, t, t + 50000 } : (SlMatch) { 1, 0, t, t + 50000 };
      SlMatch n = i % 2 == 0 ? (SlMatch) { 0, 2, t, t + 50000 } : (SlMatch) { 2, 0, t, t + 50000 };

      sl_engine_add_match (e, &m, m.recv_time);
      sl_engine_add_match (e, &n, n.recv_time);
    }
  sl_engine_flush (e);
  g_assert_cmpuint (sl_engine_get_n_links (e), ==, 2);
  for (guint l = 0; l < 2; l++)
    {
      sl_report_get_link (e, l, &rl);
      g_assert_cmpint (rl.flipped, ==, strcmp (sl_engine_get_host_name (e, rl.info.a),
                                               sl_engine_get_host_name (e, rl.info.b)) > 0);
      g_assert_cmpint (strcmp (sl_engine_get_host_name (e, rl.a), sl_engine_get_host_name (e, rl.b)), <, 0);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/report/same-as-json-glib", test_same_as_json_glib);
  g_test_add_func ("/report/journal-modes", test_journal_modes);
  g_test_add_func ("/report/escapes", test_escapes);
  g_test_add_func ("/report/link-orientation", test_link_orientation);
  g_test_add_func ("/report/compact-profiles", test_compact_profiles);
  g_test_add_func ("/report/mode-strings", test_modes_strings);
  g_test_add_func ("/report/drift-at-start", test_drift_at_start);
  g_test_add_func ("/report/drift-on-path", test_drift_on_path);
  g_test_add_func ("/report/drift-first-accurate", test_drift_first_accurate);
  return g_test_run ();
}
