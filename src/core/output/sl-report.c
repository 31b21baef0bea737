/* sl-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-report.h"
#include "sl-units.h"

static int
cmp_names (SlEngine *engine,
           guint     a,
           guint     b)
{
  return g_strcmp0 (sl_engine_get_host_name (engine, a),
                    sl_engine_get_host_name (engine, b));
}

void
sl_report_get_link (SlEngine     *engine,
                    guint         link,
                    SlReportLink *out)
{
  SlLinkInfo *i;

  g_return_if_fail (engine != NULL);
  g_return_if_fail (link < sl_engine_get_n_links (engine));
  g_return_if_fail (out != NULL);

  i = &out->info;
  sl_engine_get_link_info (engine, link, i);
  out->link = link;
  out->flipped = cmp_names (engine, i->a, i->b) > 0;

  if (!out->flipped)
    {
      out->a = i->a;
      out->b = i->b;
      out->alpha_min = i->alpha_min;
      out->alpha_max = i->alpha_max;
      out->estimate = i->estimate;
      out->hull_points[0] = i->hull_points[0];
      out->hull_points[1] = i->hull_points[1];
    }
  else
    {
      out->a = i->b;
      out->b = i->a;
      /* t_a = f^-1 (t_b): slopes invert, and so does their order. */
      if (i->alpha_min > 0 && i->alpha_max > 0)
        {
          out->alpha_min = 1.0 / i->alpha_max;
          out->alpha_max = 1.0 / i->alpha_min;
        }
      else
        out->alpha_min = out->alpha_max = NAN;
      if (i->has_estimate)
        sl_transform_invert (&i->estimate, &out->estimate);
      out->hull_points[0] = i->hull_points[1];
      out->hull_points[1] = i->hull_points[0];
    }

  if (i->has_estimate)
    {
      out->alpha = sl_transform_get_slope (&out->estimate);
      out->beta = sl_transform_get_offset (&out->estimate);
    }
  else
    out->alpha = out->beta = NAN;
}

static void
add_number (JsonBuilder *b,
            const char  *member,
            double       v)
{
  json_builder_set_member_name (b, member);
  if (isfinite (v))
    json_builder_add_double_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
add_string (JsonBuilder *b,
            const char  *member,
            const char  *v)
{
  json_builder_set_member_name (b, member);
  json_builder_add_string_value (b, v);
}

static void
add_int (JsonBuilder *b,
         const char  *member,
         gint64       v)
{
  json_builder_set_member_name (b, member);
  json_builder_add_int_value (b, v);
}

static void
add_transform (JsonBuilder       *b,
               const SlTransform *t)
{
  g_autofree char *slope = sl_transform_slope_to_string (t);
  g_autofree char *offset = sl_transform_offset_to_string (t);

  json_builder_set_member_name (b, "transform");
  json_builder_begin_object (b);
  add_number (b, "slope", sl_transform_get_slope (t));
  add_number (b, "offset_ns", sl_transform_get_offset (t));
  add_string (b, "slope_exact", slope);
  add_string (b, "offset_ns_exact", offset);
  json_builder_end_object (b);
}

static void
add_counts (JsonBuilder *b,
            SlEngine    *engine,
            guint        host)
{
  SlHostCounts c;

  sl_engine_get_host_counts (engine, host, &c);
  json_builder_set_member_name (b, "counts");
  json_builder_begin_object (b);
  add_int (b, "events", (gint64) c.events);
  add_int (b, "packet_events", (gint64) c.packet_events);
  add_int (b, "matched", (gint64) c.matched);
  add_int (b, "unmatched", (gint64) (c.packet_events > c.matched ? c.packet_events - c.matched : 0));
  add_int (b, "ignored", (gint64) c.ignored);
  json_builder_end_object (b);
}

static void
add_hosts (JsonBuilder *b,
           SlEngine    *engine)
{
  json_builder_set_member_name (b, "hosts");
  json_builder_begin_array (b);
  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    {
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (engine, h, &hi);
      json_builder_begin_object (b);
      add_string (b, "name", sl_engine_get_host_name (engine, h));
      add_string (b, "reference", sl_engine_get_host_name (engine, hi.reference));
      add_transform (b, &hi.to_reference);
      add_number (b, "bound_ns", hi.bound_ns);
      json_builder_set_member_name (b, "path");
      json_builder_begin_array (b);
      for (guint k = 0; k < hi.path->len; k++)
        json_builder_add_string_value (b, sl_engine_get_host_name (engine, g_array_index (hi.path, guint, k)));
      json_builder_end_array (b);
      add_counts (b, engine, h);
      json_builder_end_object (b);
      sl_host_info_clear (&hi);
    }
  json_builder_end_array (b);
}

static void
add_links (JsonBuilder *b,
           SlEngine    *engine)
{
  json_builder_set_member_name (b, "links");
  json_builder_begin_array (b);
  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlReportLink rl;
      const SlLinkInfo *i = &rl.info;

      sl_report_get_link (engine, l, &rl);
      json_builder_begin_object (b);
      add_string (b, "a", sl_engine_get_host_name (engine, rl.a));
      add_string (b, "b", sl_engine_get_host_name (engine, rl.b));
      add_string (b, "quality", sl_quality_to_string (i->quality));
      add_string (b, "reason", i->reason);
      add_int (b, "matches", (gint64) i->matches);
      add_int (b, "accurate_packets", (gint64) i->accurate_packets);
      json_builder_set_member_name (b, "hull_points");
      json_builder_begin_array (b);
      json_builder_add_int_value (b, rl.hull_points[0]);
      json_builder_add_int_value (b, rl.hull_points[1]);
      json_builder_end_array (b);
      add_number (b, "alpha_min", rl.alpha_min);
      add_number (b, "alpha_max", rl.alpha_max);
      add_number (b, "alpha", rl.alpha);
      add_number (b, "beta", rl.beta);
      if (i->has_estimate)
        {
          g_autofree char *slope = sl_transform_slope_to_string (&rl.estimate);
          g_autofree char *offset = sl_transform_offset_to_string (&rl.estimate);
          add_string (b, "alpha_exact", slope);
          add_string (b, "beta_exact", offset);
        }
      add_number (b, "weight", i->weight);
      json_builder_set_member_name (b, "in_tree");
      json_builder_add_boolean_value (b, i->in_tree);
      json_builder_set_member_name (b, "inversions_after_sync");
      if (i->inversions_known)
        json_builder_add_int_value (b, (gint64) i->inversions);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "inversions_exact");
      json_builder_add_boolean_value (b, i->inversions_exact);
      add_number (b, "accuracy", i->accuracy);
      add_number (b, "band_ns", i->band_ns);
      add_number (b, "bound_ns", i->bound_ns);
      add_int (b, "span_start_ns", i->span_start);
      add_int (b, "span_end_ns", i->span_end);
      if (sl_engine_get_options (engine)->algorithm == SL_ALGORITHM_LINREG)
        {
          add_int (b, "round_trips", i->n_round_trips);
          add_number (b, "e_r_ns", i->e_r_ns);
          add_number (b, "se_slope", i->se_slope);
          add_number (b, "se_offset_ns", i->se_offset_ns);
        }
      add_int (b, "last_change_input_time", i->last_change);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static GPtrArray *
components (SlEngine *engine)
{
  GPtrArray *comps = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GHashTable) by_ref = g_hash_table_new (NULL, NULL);
  SlGraph *graph = sl_engine_get_graph (engine);

  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    {
      guint ref = sl_graph_get_reference (graph, h);
      GArray *members = g_hash_table_lookup (by_ref, GUINT_TO_POINTER (ref + 1));

      if (members == NULL)
        {
          members = g_array_new (FALSE, FALSE, sizeof (guint));
          g_array_append_val (members, ref);
          g_ptr_array_add (comps, members);
          g_hash_table_insert (by_ref, GUINT_TO_POINTER (ref + 1), members);
        }
      g_array_append_val (members, h);
    }
  return comps;
}

static void
add_components (JsonBuilder *b,
                SlEngine    *engine)
{
  g_autoptr(GPtrArray) comps = components (engine);

  json_builder_set_member_name (b, "components");
  json_builder_begin_array (b);
  for (guint c = 0; c < comps->len; c++)
    {
      GArray *m = g_ptr_array_index (comps, c);

      json_builder_begin_object (b);
      add_string (b, "reference", sl_engine_get_host_name (engine, g_array_index (m, guint, 0)));
      json_builder_set_member_name (b, "hosts");
      json_builder_begin_array (b);
      for (guint k = 1; k < m->len; k++)
        json_builder_add_string_value (b, sl_engine_get_host_name (engine, g_array_index (m, guint, k)));
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static const char *
host_or_none (SlEngine *engine,
              guint     h)
{
  return h == SL_HOST_NONE ? NULL : sl_engine_get_host_name (engine, h);
}

static void
add_journal (JsonBuilder *b,
             SlEngine    *engine,
             guint64      from)
{
  SlJournal *j = sl_engine_get_journal (engine);

  json_builder_set_member_name (b, "journal_dropped");
  json_builder_add_int_value (b, (gint64) sl_journal_get_n_dropped (j));
  json_builder_set_member_name (b, "journal");
  json_builder_begin_array (b);
  for (guint64 s = MAX (from, sl_journal_get_first_seq (j)); s < sl_journal_get_next_seq (j); s++)
    {
      const SlChange *c = sl_journal_get (j, s);
      const char *a = host_or_none (engine, c->a), *bb = host_or_none (engine, c->b);

      json_builder_begin_object (b);
      add_int (b, "seq", (gint64) c->seq);
      add_int (b, "input_time", c->input_time);
      add_string (b, "kind", sl_change_kind_to_string (c->kind));
      json_builder_set_member_name (b, "a");
      a != NULL ? (void) json_builder_add_string_value (b, a) : (void) json_builder_add_null_value (b);
      json_builder_set_member_name (b, "b");
      bb != NULL ? (void) json_builder_add_string_value (b, bb) : (void) json_builder_add_null_value (b);
      if (c->kind == SL_CHANGE_LINK)
        add_string (b, "quality", sl_quality_to_string (c->quality));
      add_number (b, "value", c->value);
      add_string (b, "reason", c->reason != NULL ? c->reason : "");
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

JsonNode *
sl_report_to_json (SlEngine             *engine,
                   const SlReportTiming *timing)
{
  g_return_val_if_fail (engine != NULL, NULL);

  return sl_report_to_json_since (engine, timing, 0);
}

/* Same as sl_report_to_json(), with only the journal entries from
 * sequence number @journal_from on (live updates). */
JsonNode *
sl_report_to_json_since (SlEngine             *engine,
                         const SlReportTiming *timing,
                         guint64               journal_from)
{
  g_autoptr(JsonBuilder) b = NULL;
  const SlEngineOptions *o;

  g_return_val_if_fail (engine != NULL, NULL);

  b = json_builder_new ();
  o = sl_engine_get_options (engine);
  sl_engine_flush (engine);

  json_builder_begin_object (b);
  add_string (b, "algorithm", sl_algorithm_to_string (o->algorithm));
  add_string (b, "tree", sl_tree_kind_to_string (o->tree));
  add_int (b, "matches", (gint64) sl_engine_get_n_matches (engine));
  add_hosts (b, engine);
  add_links (b, engine);
  add_components (b, engine);
  add_journal (b, engine, journal_from);
  if (timing != NULL)
    {
      json_builder_set_member_name (b, "timing");
      json_builder_begin_object (b);
      add_number (b, "elapsed_s", timing->elapsed_s);
      add_number (b, "cpu_s", timing->cpu_s);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/**
 * sl_report_host_starts:
 * @starts: (out): @n_hosts times, G_MAXINT64 where a host has no link
 *   with packets
 *
 * Where each host's synchronized data starts, on its own clock: the
 * earliest start of its links' spans (a link's span is on its host a's
 * clock; its estimate maps it to b's).
 */
void
sl_report_host_starts (const SlReportLink *links,
                       guint               n_links,
                       gint64             *starts,
                       guint               n_hosts)
{
  g_return_if_fail (starts != NULL || n_hosts == 0);

  for (guint h = 0; h < n_hosts; h++)
    starts[h] = G_MAXINT64;
  for (guint l = 0; l < n_links; l++)
    {
      const SlLinkInfo *i = &links[l].info;

      if (i->matches == 0 || i->span_end < i->span_start)
        continue;
      if (i->a < n_hosts)
        starts[i->a] = MIN (starts[i->a], i->span_start);
      if (i->b < n_hosts && i->has_estimate)
        starts[i->b] = MIN (starts[i->b], sl_transform_apply (&i->estimate, i->span_start));
    }
}

/**
 * sl_report_offset_at:
 * @map: a clock map (a host to its reference, a to b)
 * @start: where the data starts on @map's source clock
 *
 * Returns: the offset at @start with the target clock's time of day there:
 *   "+182.4 ms at 23:14:00.6"
 */
char *
sl_report_offset_at (const SlTransform *map,
                     gint64             start)
{
  g_autofree char *offset = NULL;
  g_autofree char *at = NULL;

  g_return_val_if_fail (map != NULL, NULL);

  offset = sl_units_offset (sl_transform_apply_delta (map, start));
  at = sl_units_time_of_day (sl_transform_apply (map, start), 1);
  return g_strdup_printf ("%s at %s", offset, at);
}

/**
 * sl_report_offset_text:
 *
 * Returns: sl_report_offset_at() and the drift:
 *   "+182.4 ms at 23:14:00.6, drift −27.87 ppm"
 */
char *
sl_report_offset_text (const SlTransform *map,
                       gint64             start)
{
  g_autofree char *offset = NULL;
  g_autofree char *drift = NULL;

  g_return_val_if_fail (map != NULL, NULL);

  offset = sl_report_offset_at (map, start);
  drift = sl_units_drift (map->drift);
  return g_strdup_printf ("%s, drift %s", offset, drift);
}

char *
sl_report_to_text (SlEngine             *engine,
                   const SlReportTiming *timing)
{
  const SlEngineOptions *o;
  GString *s;
  g_autoptr(GPtrArray) comps = NULL;
  g_autoptr(GArray) links = NULL;
  g_autofree gint64 *starts = NULL;

  g_return_val_if_fail (engine != NULL, NULL);

  o = sl_engine_get_options (engine);
  s = g_string_new (NULL);
  sl_engine_flush (engine);
  comps = components (engine);

  g_string_append_printf (s, "Synchronization: %s per link, %s tree, %u hosts, %u links, "
                          "%" G_GUINT64_FORMAT " matched packets\n",
                          o->algorithm == SL_ALGORITHM_HULL ? "convex hull" : "linear regression",
                          o->tree == SL_TREE_MST ? "minimum spanning" : "shortest-path",
                          sl_engine_get_n_hosts (engine), sl_engine_get_n_links (engine),
                          sl_engine_get_n_matches (engine));

  links = g_array_sized_new (FALSE, TRUE, sizeof (SlReportLink), sl_engine_get_n_links (engine));
  g_array_set_size (links, sl_engine_get_n_links (engine));
  for (guint l = 0; l < links->len; l++)
    sl_report_get_link (engine, l, &g_array_index (links, SlReportLink, l));
  starts = g_new (gint64, MAX (sl_engine_get_n_hosts (engine), 1));
  sl_report_host_starts ((const SlReportLink *) (gpointer) links->data, links->len, starts,
                         sl_engine_get_n_hosts (engine));

  g_string_append (s, "\nLinks (offset t_b - t_a where the link's data starts, at b's time of day; exact maps in --json):\n");
  for (guint l = 0; l < links->len; l++)
    {
      const SlReportLink rl = g_array_index (links, SlReportLink, l);
      const SlLinkInfo *i = &rl.info;

      g_string_append_printf (s, "  %s - %s: %s%s%s%s\n",
                              sl_engine_get_host_name (engine, rl.a),
                              sl_engine_get_host_name (engine, rl.b),
                              sl_quality_to_string (i->quality),
                              *i->reason ? " (" : "", i->reason, *i->reason ? ")" : "");
      g_string_append_printf (s, "      matched %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
                              " a->b, %" G_GUINT64_FORMAT " b->a), accurate packets %"
                              G_GUINT64_FORMAT ", hull points %u + %u\n",
                              i->matches, rl.flipped ? i->n_ba : i->n_ab,
                              rl.flipped ? i->n_ab : i->n_ba, i->accurate_packets,
                              rl.hull_points[0], rl.hull_points[1]);
      if (!isnan (rl.alpha_min) || !isnan (rl.alpha_max))
        g_string_append_printf (s, "      alpha in [%.12g, %.12g] (accuracy %.3g)\n",
                                rl.alpha_min, rl.alpha_max, i->accuracy);
      if (i->has_estimate && i->matches > 0)
        {
          /* the span is on the engine's a, rl.a when not flipped */
          gint64 start_a = rl.flipped ? sl_transform_apply (&i->estimate, i->span_start) : i->span_start;
          g_autofree char *offset = sl_report_offset_text (&rl.estimate, start_a);

          g_string_append_printf (s, "      offset %s -> %s %s\n", sl_engine_get_host_name (engine, rl.a),
                                  sl_engine_get_host_name (engine, rl.b), offset);
        }
      if (isfinite (i->band_ns))
        g_string_append_printf (s, "      offset band %.3f us over the span, estimate within %.3f us\n",
                                i->band_ns / 1e3, i->bound_ns / 1e3);
      if (o->algorithm == SL_ALGORITHM_LINREG)
        g_string_append_printf (s, "      round trips %u, E_r %.3f us, SE(slope) %.3g, SE(offset) %.3f us\n",
                                i->n_round_trips, i->e_r_ns / 1e3, i->se_slope, i->se_offset_ns / 1e3);
      g_string_append_printf (s, "      %s", i->in_tree ? "in tree" : "not in tree");
      if (i->inversions_known)
        g_string_append_printf (s, ", %s%" G_GUINT64_FORMAT " inversions after sync",
                                i->inversions_exact ? "" : "at least ", i->inversions);
      g_string_append_c (s, '\n');
    }

  g_string_append (s, "\nHosts (offset t_reference - t where the host's data starts, at the reference's time of day; exact maps in --json):\n");
  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    {
      SlHostInfo hi = { 0 };
      SlHostCounts c;

      sl_engine_get_host_info (engine, h, &hi);
      if (hi.reference == h)
        g_string_append_printf (s, "  %s: reference\n", sl_engine_get_host_name (engine, h));
      else
        {
          g_string_append_printf (s, "  %s: reference %s, path", sl_engine_get_host_name (engine, h),
                                  sl_engine_get_host_name (engine, hi.reference));
          for (guint k = 0; k < hi.path->len; k++)
            g_string_append_printf (s, "%s%s", k ? " -> " : " ",
                                    sl_engine_get_host_name (engine, g_array_index (hi.path, guint, k)));
          g_string_append_printf (s, ", bound %.3f us\n", hi.bound_ns / 1e3);
          if (starts[h] != G_MAXINT64)
            {
              g_autofree char *offset = sl_report_offset_text (&hi.to_reference, starts[h]);

              g_string_append_printf (s, "      offset to %s %s\n",
                                      sl_engine_get_host_name (engine, hi.reference), offset);
            }
        }
      sl_engine_get_host_counts (engine, h, &c);
      if (c.events > 0 || c.packet_events > 0)
        g_string_append_printf (s, "      events %" G_GUINT64_FORMAT ", packet events %" G_GUINT64_FORMAT
                                ", matched %" G_GUINT64_FORMAT ", unmatched %" G_GUINT64_FORMAT
                                ", ignored %" G_GUINT64_FORMAT "\n",
                                c.events, c.packet_events, c.matched,
                                c.packet_events > c.matched ? c.packet_events - c.matched : 0,
                                c.ignored);
      sl_host_info_clear (&hi);
    }

  g_string_append_printf (s, "\nComponents: %u\n", comps->len);
  for (guint c = 0; c < comps->len; c++)
    {
      GArray *m = g_ptr_array_index (comps, c);

      g_string_append_printf (s, "  reference %s:", sl_engine_get_host_name (engine, g_array_index (m, guint, 0)));
      for (guint k = 1; k < m->len; k++)
        g_string_append_printf (s, " %s", sl_engine_get_host_name (engine, g_array_index (m, guint, k)));
      g_string_append_c (s, '\n');
    }

  g_string_append_printf (s, "\nTree changes %" G_GUINT64_FORMAT ", reference changes %" G_GUINT64_FORMAT
                          ", journal entries %" G_GUINT64_FORMAT "\n",
                          sl_graph_get_n_tree_changes (sl_engine_get_graph (engine)),
                          sl_graph_get_n_reference_changes (sl_engine_get_graph (engine)),
                          sl_journal_get_next_seq (sl_engine_get_journal (engine)));
  if (timing != NULL)
    g_string_append_printf (s, "Time: %.3f s elapsed, %.3f s CPU\n", timing->elapsed_s, timing->cpu_s);

  return g_string_free (s, FALSE);
}

/**
 * sl_report_set_problems:
 * @report: the root object of a JSON report
 * @problems: (element-type SlTraceProblem): what the reader reported
 *
 * Sets the report's "problems" member: one object per problem, its
 * "host" (null when not tied to one), "file" and "message".
 */
void
sl_report_set_problems (JsonObject *report,
                        GPtrArray  *problems)
{
  JsonArray *arr;

  g_return_if_fail (report != NULL);
  g_return_if_fail (problems != NULL);

  arr = json_array_new ();
  for (guint i = 0; i < problems->len; i++)
    {
      const SlTraceProblem *p = g_ptr_array_index (problems, i);
      JsonObject *o = json_object_new ();

      if (p->host != NULL)
        json_object_set_string_member (o, "host", p->host);
      else
        json_object_set_null_member (o, "host");
      json_object_set_string_member (o, "file", p->file);
      json_object_set_string_member (o, "message", p->message);
      json_array_add_object_element (arr, o);
    }
  json_object_set_array_member (report, "problems", arr);
}
