/* sl-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-report.h"
#include "sl-units.h"

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
  out->flipped = sl_engine_get_link_names_descending (engine, link);

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

  out->span_start = i->span_start;
  out->span_end = i->span_end;
  out->bound_start = i->bound_start;
  out->bound_end = i->bound_end;
  if (out->flipped && i->has_estimate)
    {
      out->span_start = sl_transform_apply (&i->estimate, i->span_start);
      out->span_end = sl_transform_apply (&i->estimate, i->span_end);
      out->bound_start = sl_transform_apply (&i->estimate, i->bound_start);
      out->bound_end = sl_transform_apply (&i->estimate, i->bound_end);
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
add_transform (SlJsonOut         *o,
               const SlTransform *t)
{
  g_autofree char *slope = sl_transform_slope_to_string (t);
  g_autofree char *offset = sl_transform_offset_to_string (t);

  sl_json_out_begin_object (o, "transform");
  sl_json_out_number (o, "slope", sl_transform_get_slope (t));
  sl_json_out_number (o, "offset_ns", sl_transform_get_offset (t));
  sl_json_out_string (o, "slope_exact", slope);
  sl_json_out_string (o, "offset_ns_exact", offset);
  sl_json_out_end_object (o);
}

static void
add_counts (SlJsonOut *o,
            SlEngine  *engine,
            guint      host)
{
  SlHostCounts c;

  sl_engine_get_host_counts (engine, host, &c);
  sl_json_out_begin_object (o, "counts");
  sl_json_out_int (o, "events", (gint64) c.events);
  sl_json_out_int (o, "packet_events", (gint64) c.packet_events);
  sl_json_out_int (o, "matched", (gint64) c.matched);
  sl_json_out_int (o, "unmatched", (gint64) (c.packet_events > c.matched ? c.packet_events - c.matched : 0));
  sl_json_out_int (o, "ignored", (gint64) c.ignored);
  sl_json_out_int (o, "unreadable", (gint64) c.unusable);
  sl_json_out_end_object (o);
}

/* A relation's pieces: t_target = slope * t + offset from start_ns (null
 * for the first) to the next piece's start, exact to the ns (the _exact
 * strings, as for a transform). */
static void
add_pieces (SlJsonOut        *o,
            const SlRelation *rel)
{
  sl_json_out_begin_array (o, "pieces");
  for (guint i = 0; rel != NULL && i < sl_relation_get_n_pieces (rel); i++)
    {
      SlTransform t;
      gint64 start = sl_relation_get_piece (rel, i, &t);
      g_autofree char *slope = sl_transform_slope_to_string (&t);
      g_autofree char *offset = sl_transform_offset_to_string (&t);

      sl_json_out_begin_object (o, NULL);
      if (i == 0)
        sl_json_out_null (o, "start_ns");
      else
        sl_json_out_int (o, "start_ns", start);
      sl_json_out_number (o, "slope", sl_transform_get_slope (&t));
      sl_json_out_number (o, "offset_ns", sl_transform_get_offset (&t));
      sl_json_out_string (o, "slope_exact", slope);
      sl_json_out_string (o, "offset_ns_exact", offset);
      sl_json_out_end_object (o);
    }
  sl_json_out_end_array (o);
}

/* The bound over [x0, x1]: its exact breakpoints (full), or at most
 * SL_REPORT_COMPACT_POINTS points whose linear interpolation is never
 * below it, each rounded up to the ns (compact: a guarantee stays one). */
static void
add_profile (SlJsonOut        *o,
             const SlRelation *rel,
             gint64            x0,
             gint64            x1,
             SlProfilesMode    mode)
{
  gboolean compact = mode == SL_PROFILES_COMPACT;
  g_autoptr(GArray) prof = sl_relation_profile (rel, x0, x1, compact ? SL_REPORT_COMPACT_POINTS : G_MAXUINT);

  sl_json_out_begin_array (o, "bound_profile");
  for (guint i = 0; i < prof->len; i++)
    {
      const SlBoundPoint *p = &g_array_index (prof, SlBoundPoint, i);

      sl_json_out_begin_array (o, NULL);
      sl_json_out_int (o, NULL, p->x);
      /* below 2^53 every whole number is a double */
      if (compact && p->bound >= 0 && p->bound < 0x1p53)
        sl_json_out_int (o, NULL, (gint64) ceil (p->bound));
      else
        sl_json_out_number (o, NULL, p->bound);
      sl_json_out_end_array (o);
    }
  sl_json_out_end_array (o);
}

/* The span the bound covers (the host's first to last event) and its
 * profile. */
static void
add_bound_span (SlJsonOut        *o,
                const SlHostInfo *hi,
                SlProfilesMode    mode)
{
  if (!hi->has_span)
    {
      sl_json_out_null (o, "bound_span");
      sl_json_out_begin_array (o, "bound_profile");
      sl_json_out_end_array (o);
      return;
    }
  sl_json_out_begin_object (o, "bound_span");
  sl_json_out_int (o, "start_ns", hi->first);
  sl_json_out_int (o, "end_ns", hi->last);
  sl_json_out_int (o, "largest_at_ns", hi->bound_at);
  sl_json_out_end_object (o);

  add_profile (o, hi->relation, hi->first, hi->last, mode);
}

/* The engine's links as reported, and their relations (a → b as the
 * engine keeps them). */
static void
engine_links (SlEngine   *engine,
              GArray    **links,
              GPtrArray **relations)
{
  *links = g_array_sized_new (FALSE, TRUE, sizeof (SlReportLink), sl_engine_get_n_links (engine));
  g_array_set_size (*links, sl_engine_get_n_links (engine));
  *relations = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
  for (guint l = 0; l < (*links)->len; l++)
    {
      sl_report_get_link (engine, l, &g_array_index (*links, SlReportLink, l));
      g_ptr_array_add (*relations, sl_engine_get_link_relation (engine, l));
    }
}

/* Each host's data start and drift start (sl_report_host_starts(),
 * sl_report_drift_start()) from the engine's links and their relations. */
static void
engine_host_starts (SlEngine  *engine,
                    GArray    *links,
                    GPtrArray *relations,
                    gint64    *starts,
                    gint64    *drift_starts,
                    double    *drift_range)
{
  guint n = sl_engine_get_n_hosts (engine);
  const SlReportLink *rl = (const SlReportLink *) (gpointer) links->data;
  g_autoptr(GHashTable) pairs = sl_report_link_pairs (rl, links->len);
  g_autoptr(GPtrArray) rels = g_ptr_array_new_full (n, (GDestroyNotify) sl_relation_unref);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_full (n, (GDestroyNotify) g_array_unref);

  sl_report_host_starts (rl, (SlRelation * const *) relations->pdata, links->len, starts, n);
  for (guint h = 0; h < n; h++)
    {
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (engine, h, &hi);
      g_ptr_array_add (rels, hi.relation != NULL ? sl_relation_ref (hi.relation) : NULL);
      g_ptr_array_add (paths, hi.path != NULL ? g_array_ref (hi.path) : g_array_new (FALSE, FALSE, sizeof (guint)));
      sl_host_info_clear (&hi);
    }
  for (guint h = 0; h < n; h++)
    {
      GArray *path = g_ptr_array_index (paths, h);

      drift_starts[h] = sl_report_drift_start (rl, (SlRelation * const *) relations->pdata, pairs,
                                               (SlRelation * const *) rels->pdata,
                                               (const guint *) (gpointer) path->data, path->len, starts[h]);
      if (!sl_report_drift_interval (rl, (SlRelation * const *) relations->pdata, pairs,
                                     (const guint *) (gpointer) path->data, path->len, drift_starts[h],
                                     &drift_range[2 * h], &drift_range[2 * h + 1]))
        drift_range[2 * h] = drift_range[2 * h + 1] = NAN;
    }
}

/* Where the host's data starts, its offset there and its drift where
 * its path's packets start (sl_report_drift_start()), as the text report
 * and the application's Hosts table give them; null for a reference and
 * a host with no map or no data. */
static void
add_start (SlJsonOut        *o,
           const SlHostInfo *hi,
           guint             h,
           gint64            start,
           gint64            drift_start,
           const double     *drift_range)
{
  if (hi->reference == h || hi->relation == NULL || start == G_MAXINT64)
    {
      sl_json_out_null (o, "start");
      return;
    }
  sl_json_out_begin_object (o, "start");
  sl_json_out_int (o, "at_ns", start);
  sl_json_out_number (o, "offset_ns", sl_transform_apply_delta (sl_relation_piece_at (hi->relation, start), start));
  sl_json_out_number (o, "drift_ppm", sl_relation_piece_at (hi->relation, drift_start)->drift * 1e6);
  sl_json_out_int (o, "drift_at_ns", drift_start);
  _sl_report_json_drift_range (o, drift_range);
  sl_json_out_end_object (o);
}

static void
add_hosts (SlJsonOut                 *o,
           SlEngine                  *engine,
           const SlReportJsonOptions *options)
{
  guint n = sl_engine_get_n_hosts (engine);
  g_autoptr(GArray) links = NULL;
  g_autoptr(GPtrArray) relations = NULL;
  g_autofree gint64 *starts = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *drift_starts = g_new (gint64, MAX (n, 1));
  g_autofree double *drift_range = g_new (double, 2 * MAX (n, 1));

  engine_links (engine, &links, &relations);
  engine_host_starts (engine, links, relations, starts, drift_starts, drift_range);
  sl_json_out_begin_array (o, "hosts");
  for (guint h = 0; h < n; h++)
    {
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (engine, h, &hi);
      sl_json_out_begin_object (o, NULL);
      sl_json_out_string (o, "name", sl_engine_get_host_name (engine, h));
      sl_json_out_boolean (o, "synchronized", hi.synchronized);
      sl_json_out_string (o, "reason", hi.reason);
      sl_json_out_boolean (o, "best_effort", hi.best_effort);
      sl_json_out_string (o, "reference", hi.synchronized || hi.best_effort
                                             ? sl_engine_get_host_name (engine, hi.reference) : NULL);
      add_transform (o, &hi.to_reference);
      add_pieces (o, hi.relation);
      add_start (o, &hi, h, starts[h], drift_starts[h], &drift_range[2 * h]);
      sl_json_out_number (o, "bound_ns", hi.bound_ns);
      add_bound_span (o, &hi, options->profiles);
      sl_json_out_begin_array (o, "path");
      for (guint k = 0; k < hi.path->len; k++)
        sl_json_out_string (o, NULL, sl_engine_get_host_name (engine, g_array_index (hi.path, guint, k)));
      sl_json_out_end_array (o);
      add_counts (o, engine, h);
      if (options->host_members != NULL)
        options->host_members (o, h, options->user_data);
      sl_json_out_end_object (o);
      sl_host_info_clear (&hi);
    }
  sl_json_out_end_array (o);
}

static const char *
failure_kind_to_string (SlFailureKind kind)
{
  return kind == SL_FAILURE_MISMATCH ? "mismatch" : "step";
}

/* The link's relation in the report's orientation (a → b by name). */
static SlRelation *
report_link_relation (SlEngine           *engine,
                      const SlReportLink *rl)
{
  g_autoptr(SlRelation) rel = sl_engine_get_link_relation (engine, rl->link);

  if (rel == NULL)
    return NULL;
  return rl->flipped ? sl_relation_invert (rel) : g_steal_pointer (&rel);
}

/* Instants of the link's windows, on the report's a (through the estimate
 * when the engine keeps the link the other way round). */
static gint64
link_instant (const SlReportLink *rl,
              const SlRelation   *engine_rel,
              gint64              t)
{
  return rl->flipped && engine_rel != NULL ? sl_relation_apply (engine_rel, t) : t;
}

/* The windows of packets the link's bands come from, on a's clock. */
static void
add_windows (SlJsonOut          *o,
             const SlReportLink *rl,
             const SlRelation   *engine_rel,
             SlSegments         *seg)
{
  sl_json_out_begin_array (o, "windows");
  for (guint w = 0; w < sl_segments_get_n_windows (seg); w++)
    {
      SlWindowInfo wi;

      sl_segments_get_window (seg, w, &wi);
      sl_json_out_begin_object (o, NULL);
      sl_json_out_int (o, "start_ns", link_instant (rl, engine_rel, wi.start));
      sl_json_out_int (o, "end_ns", link_instant (rl, engine_rel, wi.end));
      sl_json_out_int (o, "valid_start_ns", link_instant (rl, engine_rel, wi.valid_start));
      sl_json_out_int (o, "valid_end_ns", link_instant (rl, engine_rel, wi.valid_end));
      sl_json_out_string (o, "quality", sl_quality_to_string (wi.quality));
      sl_json_out_int (o, "packets", (gint64) (wi.n_ab + wi.n_ba));
      sl_json_out_number (o, "delta_ns", wi.delta_ns);
      sl_json_out_number (o, "band_ns", wi.band_ns);
      sl_json_out_end_object (o);
    }
  sl_json_out_end_array (o);
}

/* Pieces, the bound over both hosts' events and the windows (full
 * profiles only: the default report of thousands of hosts stays small;
 * a host's compact profile is what issue 14 asks for), the failures, on
 * a's clock. */
static void
add_link_time (SlJsonOut          *o,
               SlEngine           *engine,
               const SlReportLink *rl,
               SlProfilesMode      mode)
{
  g_autoptr(SlRelation) rel = report_link_relation (engine, rl);
  g_autoptr(SlRelation) engine_rel = sl_engine_get_link_relation (engine, rl->link);
  SlSegments *seg = sl_engine_get_link_segments (engine, rl->link);

  add_pieces (o, rel);
  if (mode == SL_PROFILES_FULL)
    {
      if (rel != NULL)
        add_profile (o, rel, rl->bound_start, rl->bound_end, mode);
      add_windows (o, rl, engine_rel, seg);
    }

  sl_json_out_begin_array (o, "failures");
  for (guint f = 0; f < sl_segments_get_n_failures (seg); f++)
    {
      SlFailureInfo fi;
      gint64 t0, t1;

      sl_segments_get_failure (seg, f, &fi);
      t0 = link_instant (rl, engine_rel, fi.from);
      t1 = link_instant (rl, engine_rel, fi.to);
      sl_json_out_begin_object (o, NULL);
      sl_json_out_string (o, "kind", failure_kind_to_string (fi.kind));
      sl_json_out_int (o, "from_ns", MIN (t0, t1));
      sl_json_out_int (o, "to_ns", MAX (t0, t1));
      sl_json_out_end_object (o);
    }
  sl_json_out_end_array (o);
  sl_json_out_int (o, "late_packets", (gint64) sl_segments_get_n_late (seg));
}

static void
add_links (SlJsonOut                 *o,
           SlEngine                  *engine,
           const SlReportJsonOptions *options)
{
  sl_json_out_begin_array (o, "links");
  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlReportLink rl;
      const SlLinkInfo *i = &rl.info;

      sl_report_get_link (engine, l, &rl);
      sl_json_out_begin_object (o, NULL);
      sl_json_out_string (o, "a", sl_engine_get_host_name (engine, rl.a));
      sl_json_out_string (o, "b", sl_engine_get_host_name (engine, rl.b));
      sl_json_out_string (o, "quality", sl_quality_to_string (i->quality));
      sl_json_out_string (o, "reason", i->reason);
      sl_json_out_int (o, "matches", (gint64) i->matches);
      sl_json_out_int (o, "accurate_packets", (gint64) i->accurate_packets);
      sl_json_out_begin_array (o, "hull_points");
      sl_json_out_int (o, NULL, rl.hull_points[0]);
      sl_json_out_int (o, NULL, rl.hull_points[1]);
      sl_json_out_end_array (o);
      sl_json_out_number (o, "alpha_min", rl.alpha_min);
      sl_json_out_number (o, "alpha_max", rl.alpha_max);
      sl_json_out_number (o, "alpha", rl.alpha);
      sl_json_out_number (o, "beta", rl.beta);
      if (i->has_estimate)
        {
          g_autofree char *slope = sl_transform_slope_to_string (&rl.estimate);
          g_autofree char *offset = sl_transform_offset_to_string (&rl.estimate);

          sl_json_out_string (o, "alpha_exact", slope);
          sl_json_out_string (o, "beta_exact", offset);
        }
      _sl_report_json_link_drift (o, engine, &rl);
      sl_json_out_number (o, "weight", i->weight);
      sl_json_out_boolean (o, "in_tree", i->in_tree);
      if (i->inversions_known)
        sl_json_out_int (o, "inversions_after_sync", (gint64) i->inversions);
      else
        sl_json_out_null (o, "inversions_after_sync");
      sl_json_out_boolean (o, "inversions_exact", i->inversions_exact);
      sl_json_out_number (o, "accuracy", i->accuracy);
      sl_json_out_number (o, "band_ns", i->band_ns);
      sl_json_out_number (o, "bound_ns", i->bound_ns);
      sl_json_out_int (o, "span_start_ns", rl.span_start);
      sl_json_out_int (o, "span_end_ns", rl.span_end);
      sl_json_out_int (o, "bound_start_ns", rl.bound_start);
      sl_json_out_int (o, "bound_end_ns", rl.bound_end);
      if (sl_engine_get_options (engine)->algorithm == SL_ALGORITHM_LINREG)
        {
          sl_json_out_int (o, "round_trips", i->n_round_trips);
          sl_json_out_number (o, "e_r_ns", i->e_r_ns);
          sl_json_out_number (o, "se_slope", i->se_slope);
          sl_json_out_number (o, "se_offset_ns", i->se_offset_ns);
          /* 2 SE: a statistic of the fits, not a guarantee (bound_ns is) */
          sl_json_out_number (o, "statistical_bound_ns", i->statistical_bound_ns);
        }
      sl_json_out_int (o, "last_change_input_time", i->last_change);
      add_link_time (o, engine, &rl, options->profiles);
      if (options->link_members != NULL)
        options->link_members (o, l, options->user_data);
      sl_json_out_end_object (o);
    }
  sl_json_out_end_array (o);
}

/* Groups of synchronized hosts, each as [reference, members…]; hosts that
 * are not synchronized are in none. */
static GPtrArray *
components (SlEngine *engine)
{
  GPtrArray *comps = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GHashTable) by_ref = g_hash_table_new (NULL, NULL);

  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    {
      SlHostInfo hi = { 0 };
      guint ref;
      GArray *members;

      sl_engine_get_host_info (engine, h, &hi);
      ref = hi.reference;
      if (!hi.synchronized)
        {
          sl_host_info_clear (&hi);
          continue;
        }
      sl_host_info_clear (&hi);
      members = g_hash_table_lookup (by_ref, GUINT_TO_POINTER (ref + 1));

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
add_components (SlJsonOut *o,
                SlEngine  *engine)
{
  g_autoptr(GPtrArray) comps = components (engine);

  sl_json_out_begin_array (o, "components");
  for (guint c = 0; c < comps->len; c++)
    {
      GArray *m = g_ptr_array_index (comps, c);

      sl_json_out_begin_object (o, NULL);
      sl_json_out_string (o, "reference", sl_engine_get_host_name (engine, g_array_index (m, guint, 0)));
      sl_json_out_begin_array (o, "hosts");
      for (guint k = 1; k < m->len; k++)
        sl_json_out_string (o, NULL, sl_engine_get_host_name (engine, g_array_index (m, guint, k)));
      sl_json_out_end_array (o);
      sl_json_out_end_object (o);
    }
  sl_json_out_end_array (o);

  sl_json_out_begin_array (o, "unsynchronized");
  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    if (!sl_engine_host_is_synchronized (engine, h))
      sl_json_out_string (o, NULL, sl_engine_get_host_name (engine, h));
  sl_json_out_end_array (o);
}

static const char *
host_or_none (SlEngine *engine,
              guint     h)
{
  return h == SL_HOST_NONE ? NULL : sl_engine_get_host_name (engine, h);
}

static void
add_journal (SlJsonOut *o,
             SlEngine  *engine,
             guint64    from)
{
  SlJournal *j = sl_engine_get_journal (engine);

  sl_json_out_int (o, "journal_dropped", (gint64) sl_journal_get_n_dropped (j));
  sl_json_out_begin_array (o, "journal");
  for (guint64 s = MAX (from, sl_journal_get_first_seq (j)); s < sl_journal_get_next_seq (j); s++)
    {
      const SlChange *c = sl_journal_get (j, s);

      sl_json_out_begin_object (o, NULL);
      sl_json_out_int (o, "seq", (gint64) c->seq);
      sl_json_out_int (o, "input_time", c->input_time);
      sl_json_out_string (o, "kind", sl_change_kind_to_string (c->kind));
      sl_json_out_string (o, "a", host_or_none (engine, c->a));
      sl_json_out_string (o, "b", host_or_none (engine, c->b));
      if (c->kind == SL_CHANGE_LINK)
        sl_json_out_string (o, "quality", sl_quality_to_string (c->quality));
      sl_json_out_number (o, "value", c->value);
      sl_json_out_string (o, "reason", c->reason != NULL ? c->reason : "");
      sl_json_out_end_object (o);
    }
  sl_json_out_end_array (o);
}

static void
add_time (SlJsonOut  *o,
          const char *name,
          gboolean    known,
          gint64      t)
{
  if (known)
    sl_json_out_int (o, name, t);
  else
    sl_json_out_null (o, name);
}

/* What the journal says in a few numbers (README, The JSON report). */
static void
add_journal_summary (SlJsonOut *o,
                     SlEngine  *engine)
{
  SlJournal *j = sl_engine_get_journal (engine);
  guint64 first = sl_journal_get_first_seq (j), next = sl_journal_get_next_seq (j);
  guint64 kinds[SL_CHANGE_TRANSFORM + 1] = { 0 };
  gint64 tree = 0, reference = 0;
  gboolean has_tree = FALSE, has_reference = FALSE;

  for (guint64 s = first; s < next; s++)
    {
      const SlChange *c = sl_journal_get (j, s);

      kinds[c->kind]++;
      if (c->kind == SL_CHANGE_TREE_EDGE_IN || c->kind == SL_CHANGE_TREE_EDGE_OUT)
        tree = c->input_time, has_tree = TRUE;
      else if (c->kind == SL_CHANGE_REFERENCE)
        reference = c->input_time, has_reference = TRUE;
    }

  sl_json_out_begin_object (o, "journal_summary");
  sl_json_out_int (o, "entries", (gint64) next);
  sl_json_out_int (o, "dropped", (gint64) sl_journal_get_n_dropped (j));
  sl_json_out_begin_object (o, "kinds");
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    sl_json_out_int (o, sl_change_kind_to_string (k), (gint64) kinds[k]);
  sl_json_out_end_object (o);
  add_time (o, "first_input_time", next > first, next > first ? sl_journal_get (j, first)->input_time : 0);
  add_time (o, "last_input_time", next > first, next > first ? sl_journal_get (j, next - 1)->input_time : 0);
  add_time (o, "last_tree_change_input_time", has_tree, tree);
  add_time (o, "last_reference_change_input_time", has_reference, reference);
  sl_json_out_end_object (o);
}

static void
add_problems (SlJsonOut *o,
              GPtrArray *problems)
{
  sl_json_out_begin_array (o, "problems");
  for (guint i = 0; i < problems->len; i++)
    {
      const SlTraceProblem *p = g_ptr_array_index (problems, i);

      sl_json_out_begin_object (o, NULL);
      sl_json_out_string (o, "host", p->host);
      sl_json_out_string (o, "file", p->file);
      sl_json_out_string (o, "message", p->message);
      sl_json_out_end_object (o);
    }
  sl_json_out_end_array (o);
}

void
sl_report_json_options_init (SlReportJsonOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->journal = SL_JOURNAL_SUMMARY;
}

/**
 * sl_report_write_json:
 * @options: what besides the engine's state: timing, journal, problems,
 *   members of each host and link
 *
 * Writes the JSON report (README, The JSON report) as it goes: with a
 * stream destination, the document never exists whole in memory.
 */
void
sl_report_write_json (SlEngine                  *engine,
                      const SlReportJsonOptions *options,
                      SlJsonOut                 *out)
{
  const SlEngineOptions *eo;

  g_return_if_fail (engine != NULL);
  g_return_if_fail (options != NULL);
  g_return_if_fail (out != NULL);

  eo = sl_engine_get_options (engine);
  sl_engine_flush (engine);

  sl_json_out_begin_object (out, NULL);
  sl_json_out_string (out, "algorithm", sl_algorithm_to_string (eo->algorithm));
  sl_json_out_string (out, "tree", sl_tree_kind_to_string (eo->tree));
  sl_json_out_int (out, "matches", (gint64) sl_engine_get_n_matches (engine));
  add_hosts (out, engine, options);
  add_links (out, engine, options);
  add_components (out, engine);
  if (options->journal == SL_JOURNAL_FULL)
    add_journal (out, engine, options->journal_from);
  else if (options->journal == SL_JOURNAL_SUMMARY)
    add_journal_summary (out, engine);
  if (options->timing != NULL)
    {
      sl_json_out_begin_object (out, "timing");
      sl_json_out_number (out, "elapsed_s", options->timing->elapsed_s);
      sl_json_out_number (out, "cpu_s", options->timing->cpu_s);
      sl_json_out_number (out, "decoders_cpu_s", options->timing->decoders_cpu_s);
      sl_json_out_end_object (out);
    }
  if (options->problems != NULL)
    add_problems (out, options->problems);
  sl_json_out_end_object (out);
}

JsonNode *
sl_report_to_json (SlEngine             *engine,
                   const SlReportTiming *timing)
{
  g_return_val_if_fail (engine != NULL, NULL);

  return sl_report_to_json_since (engine, timing, 0);
}

/* Same as sl_report_to_json(), with only the journal entries from
 * sequence number @journal_from on (live updates). Both give the whole
 * journal, as a tree to edit. */
JsonNode *
sl_report_to_json_since (SlEngine             *engine,
                         const SlReportTiming *timing,
                         guint64               journal_from)
{
  g_autoptr(SlJsonOut) out = NULL;
  SlReportJsonOptions options;

  g_return_val_if_fail (engine != NULL, NULL);

  sl_report_json_options_init (&options);
  options.timing = timing;
  options.journal = SL_JOURNAL_FULL;
  options.journal_from = journal_from;
  out = sl_json_out_new_builder ();
  sl_report_write_json (engine, &options, out);
  return sl_json_out_steal_root (out);
}

/**
 * sl_report_host_starts:
 * @relations: (nullable) (array length=n_links): each link's relation
 *   from the engine's a to its b (sl_engine_get_link_relation()), or
 *   %NULL: the links' estimates
 * @starts: (out): @n_hosts times, G_MAXINT64 where a host has no link
 *   with packets
 *
 * Where each host's synchronized data starts, on its own clock: the
 * earliest start of its links' spans. A link's span is on its host a's
 * clock; its relation maps the start to b's, rounded up: the first piece
 * of a link's relation that holds on its data starts there, and so does
 * the inverse's on b's clock, one ns after the rounded image (the
 * estimate, the piece covering most of the link, lands microseconds off)
 * — b's start then fell on the piece before its data, extrapolated.
 */
void
sl_report_host_starts (const SlReportLink *links,
                       SlRelation * const *relations,
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
        starts[i->b] = MIN (starts[i->b], relations != NULL && relations[l] != NULL
                                            ? sl_relation_apply_up (relations[l], i->span_start)
                                            : sl_transform_apply (&i->estimate, i->span_start));
    }
}

gint64
_sl_report_pair_key (guint a,
                     guint b)
{
  return (gint64) (((guint64) MIN (a, b) << 32) | MAX (a, b));
}

/**
 * sl_report_link_pairs:
 *
 * Returns: (transfer full): @links by their two hosts, for
 *   sl_report_drift_start()
 */
GHashTable *
sl_report_link_pairs (const SlReportLink *links,
                      guint               n_links)
{
  GHashTable *pairs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  g_return_val_if_fail (links != NULL || n_links == 0, pairs);

  for (guint l = 0; l < n_links; l++)
    {
      gint64 *key = g_new (gint64, 1);

      *key = _sl_report_pair_key (links[l].info.a, links[l].info.b);
      g_hash_table_insert (pairs, key, GUINT_TO_POINTER (l + 1));
    }
  return pairs;
}

/* Where a link's relation starts resting on its packets, on its engine a's
 * clock: its first accurate window's first packet (build_path() in
 * sl-segments-relation.c: piece 0 is that window's bisector continued
 * backwards, with no packet under it); G_MAXINT64 without packets. */
gint64
_sl_report_link_data_start (const SlReportLink *rl,
                            const SlRelation   *relation)
{
  const SlLinkInfo *i = &rl->info;

  if (i->matches == 0 || i->span_end < i->span_start)
    return G_MAXINT64;
  if (relation != NULL && sl_relation_get_n_pieces (relation) > 1)
    return MAX (i->span_start, sl_relation_get_piece (relation, 1, NULL));
  return i->span_start;
}

/**
 * sl_report_drift_start:
 * @links: (array): every link, by engine index
 * @link_relations: (array): each link's relation from its engine a to its
 *   b, or %NULL
 * @pairs: sl_report_link_pairs() of @links
 * @host_relations: (array): each host's relation to its reference, by
 *   engine index, or %NULL
 * @path: (array length=path_len): the host's path to its reference, the
 *   host first
 * @start: where the host's data starts (sl_report_host_starts())
 *
 * Where a host's drift is read: @start, unless a link of its path has no
 * packet yet there — its relation is then its first window's bisector
 * continued backwards, a slope no packet measured there — and then where
 * the last of them starts, on the host's clock: where the host's map
 * starts its first piece over packets of every link of its path.
 *
 * Returns: that instant on the host's clock (G_MAXINT64 when @start is)
 */
gint64
sl_report_drift_start (const SlReportLink *links,
                       SlRelation * const *link_relations,
                       GHashTable         *pairs,
                       SlRelation * const *host_relations,
                       const guint        *path,
                       guint               path_len,
                       gint64              start)
{
  const SlRelation *rel;
  gint64 on_ref = G_MININT64, at, brk;
  guint piece;

  g_return_val_if_fail (pairs != NULL, start);

  if (start == G_MAXINT64 || path_len < 2 || (rel = host_relations[path[0]]) == NULL)
    return start;
  for (guint k = 0; k + 1 < path_len; k++)
    {
      gint64 key = _sl_report_pair_key (path[k], path[k + 1]);
      guint l = GPOINTER_TO_UINT (g_hash_table_lookup (pairs, &key));
      gint64 s;

      if (l-- == 0)
        continue;
      s = _sl_report_link_data_start (&links[l], link_relations[l]);
      if (s != G_MAXINT64 && host_relations[links[l].info.a] != NULL)
        on_ref = MAX (on_ref, sl_relation_apply_up (host_relations[links[l].info.a], s));
    }
  if (on_ref == G_MININT64)
    return start;
  at = sl_relation_preimage (rel, on_ref);
  /* the composition breaks there, give or take the rounding of two maps
   * through the reference's clock (a ns; hundreds where long double is
   * double, as under valgrind, which put it 4 ns before): at its
   * breakpoint */
  piece = sl_relation_find_piece (rel, at + 1000);
  brk = sl_relation_get_piece (rel, piece, NULL);
  if (piece > 0 && brk >= at - 1000)
    at = brk;
  return MAX (start, at);
}

/**
 * sl_report_offset_cell:
 * @map: a clock map (a host to its reference, a to b)
 * @start: where the data starts on @map's source clock
 *
 * Returns: the offset at @start with the target clock's time of day
 *   there, without its zone, as a table cell whose column's title names
 *   the zone (UTC: the traces' clocks count from the epoch):
 *   "+182.4 ms at 23:14:00.6"
 */
char *
sl_report_offset_cell (const SlTransform *map,
                       gint64             start)
{
  g_autofree char *offset = NULL;
  g_autofree char *at = NULL;

  g_return_val_if_fail (map != NULL, NULL);

  offset = sl_units_offset (sl_transform_apply_delta (map, start));
  at = sl_units_time_of_day (sl_transform_apply (map, start), 1);
  /* Translators: an offset between two clocks and the time of day it
   * holds at, "+182.4 ms at 23:14:00.6" (syncline-cli's report stays
   * English) */
  return g_strdup_printf (_("%s at %s"), offset, at);
}

/**
 * sl_report_offset_at:
 *
 * Returns: sl_report_offset_cell() with the zone, for text read away
 *   from a column's title (the report, tooltips):
 *   "+182.4 ms at 23:14:00.6 UTC"
 */
char *
sl_report_offset_at (const SlTransform *map,
                     gint64             start)
{
  g_autofree char *cell = NULL;

  g_return_val_if_fail (map != NULL, NULL);

  cell = sl_report_offset_cell (map, start);
  return g_strdup_printf ("%s UTC", cell);
}

/**
 * sl_report_link_start:
 * @rl: a link as reported (a and b by name)
 * @relation: (nullable): the link's map from the engine's a to its b
 *   (sl_engine_get_link_relation()); %NULL: its estimate alone
 * @start: (out): where the link's data starts, on @rl's a's clock
 * @map: (out): t_b from t_a there: the piece of @relation that holds at
 *   @start (with clocks that wander, the estimate is the piece that
 *   covers most of the link, extrapolated back to its start by up to its
 *   whole span)
 * @rate: (out) (optional): the piece its drift is read from: @map, unless
 *   its first windows are not accurate — then the first accurate one's
 *   first piece (before it, that window's bisector continued backwards)
 * @rate_at: (out) (optional): where @rate starts, on @rl's a's clock
 *
 * Returns: FALSE when the link has no estimate
 */
gboolean
sl_report_link_start (const SlReportLink *rl,
                      const SlRelation   *relation,
                      gint64             *start,
                      SlTransform        *map,
                      SlTransform        *rate,
                      gint64             *rate_at)
{
  const SlLinkInfo *i;
  const SlTransform *piece, *rate_piece;
  gint64 from;

  g_return_val_if_fail (rl != NULL, FALSE);

  i = &rl->info;
  if (!i->has_estimate || i->matches == 0)
    return FALSE;
  /* the span is on the engine's a, rl->a when not flipped */
  piece = relation != NULL ? sl_relation_piece_at (relation, i->span_start) : &i->estimate;
  from = relation != NULL ? _sl_report_link_data_start (rl, relation) : i->span_start;
  rate_piece = relation != NULL ? sl_relation_piece_at (relation, from) : piece;
  if (rl->flipped)
    {
      *start = sl_transform_apply (piece, i->span_start);
      sl_transform_invert (piece, map);
      if (rate != NULL)
        sl_transform_invert (rate_piece, rate);
      if (rate_at != NULL)
        *rate_at = relation != NULL ? sl_relation_apply_up (relation, from) : *start;
    }
  else
    {
      *start = i->span_start;
      *map = *piece;
      if (rate != NULL)
        *rate = *rate_piece;
      if (rate_at != NULL)
        *rate_at = from;
    }
  return TRUE;
}

/**
 * sl_report_drift_text:
 * @map: the piece where the data starts, at @start
 * @rate: the piece the drift is read from, at @rate_at
 *   (sl_report_drift_start()): @map at @start but where a link of a
 *   host's path has no packet yet
 *
 * Returns: the drift, with its time of day when it is not @start's:
 *   "−27.87 ppm", "−27.87 ppm from 23:16:12.4 UTC"
 */
char *
sl_report_drift_text (const SlTransform *map,
                      gint64             start,
                      const SlTransform *rate,
                      gint64             rate_at)
{
  g_autofree char *drift = NULL;
  g_autofree char *at = NULL;
  g_autofree char *from = NULL;

  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (rate != NULL, NULL);

  drift = sl_units_drift (rate->drift);
  at = sl_units_time_of_day (sl_transform_apply (map, start), 1);
  from = sl_units_time_of_day (sl_transform_apply (rate, rate_at), 1);
  if (strcmp (at, from) == 0)
    return g_steal_pointer (&drift);
  return g_strdup_printf ("%s from %s UTC", drift, from);
}

/**
 * sl_report_offset_text:
 *
 * Returns: sl_report_offset_at() and sl_report_drift_text():
 *   "+182.4 ms at 23:14:00.6 UTC, drift −27.87 ppm"
 */
char *
sl_report_offset_text (const SlTransform *map,
                       gint64             start,
                       const SlTransform *rate,
                       gint64             rate_at)
{
  g_autofree char *offset = NULL;
  g_autofree char *drift = NULL;

  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (rate != NULL, NULL);

  offset = sl_report_offset_at (map, start);
  drift = sl_report_drift_text (map, start, rate, rate_at);
  return g_strdup_printf ("%s, drift %s", offset, drift);
}

/**
 * sl_report_packets_bound:
 * @rel: (nullable): the link's relation, from the engine's a to its b
 *
 * Returns: the largest bound of the link's estimate over its packets'
 *   span (INFINITY without a relation)
 */
double
sl_report_packets_bound (const SlReportLink *rl,
                         const SlRelation   *rel)
{
  g_return_val_if_fail (rl != NULL, INFINITY);

  if (rel == NULL || rl->info.matches == 0 || rl->info.span_end < rl->info.span_start)
    return INFINITY;
  return sl_relation_max_bound (rel, rl->info.span_start, rl->info.span_end, NULL);
}

/**
 * sl_report_bound_is_far:
 *
 * Returns: whether an accurate link's bound over both hosts' events is
 *   ten times its bound over its packets or more: "accurate" says that a
 *   bound holds at every instant, and the rates its packets allow, a band
 *   that is wide when they span little time, part away from them
 *   (data/traces/synctraces: ±172 µs over 0.12 s of packets, ±44.2 ms at
 *   the hosts' first events, 12 s before them)
 */
gboolean
sl_report_bound_is_far (const SlReportLink *rl,
                        double              packets_bound)
{
  g_return_val_if_fail (rl != NULL, FALSE);

  return rl->info.quality == SL_QUALITY_ACCURATE && isfinite (rl->info.bound_ns) &&
         isfinite (packets_bound) && rl->info.bound_ns >= 10 * MAX (packets_bound, 1.0);
}

/* A link's windows and failures (clock steps, wrong matches), when it has
 * more than one window. */
static void
text_link_windows (GString            *s,
                   SlEngine           *engine,
                   guint               l,
                   const SlReportLink *rl)
{
  SlSegments *seg = sl_engine_get_link_segments (engine, l);
  guint nw = sl_segments_get_n_windows (seg), nf = sl_segments_get_n_failures (seg);
  g_autoptr(SlRelation) rel = sl_engine_get_link_relation (engine, l);

  if (nw > 1 || nf > 0)
    g_string_append_printf (s, "      %u windows, estimate in %u pieces\n", nw,
                            rel != NULL ? sl_relation_get_n_pieces (rel) : 0);
  for (guint f = 0; f < nf; f++)
    {
      SlFailureInfo fi;
      gint64 t0, t1;

      sl_segments_get_failure (seg, f, &fi);
      t0 = link_instant (rl, rel, fi.from);
      t1 = link_instant (rl, rel, fi.to);
      if (fi.kind == SL_FAILURE_STEP)
        g_string_append_printf (s, "      fail: clock step between %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT
                                " ns (on %s's clock); the data before and after are used\n",
                                MIN (t0, t1), MAX (t0, t1), sl_engine_get_host_name (engine, rl->a));
      else
        g_string_append_printf (s, "      fail: a wrong match at %" G_GINT64_FORMAT " ns (on %s's clock), left out\n",
                                t0, sl_engine_get_host_name (engine, rl->a));
    }
}

static void
text_link (GString               *s,
           SlEngine              *engine,
           const SlEngineOptions *o,
           guint                  l,
           const SlReportLink    *rl)
{
  const SlLinkInfo *i = &rl->info;

  g_string_append_printf (s, "  %s - %s: %s%s%s%s\n",
                          sl_engine_get_host_name (engine, rl->a),
                          sl_engine_get_host_name (engine, rl->b),
                          sl_quality_to_string (i->quality),
                          *i->reason ? " (" : "", i->reason, *i->reason ? ")" : "");
  g_string_append_printf (s, "      matched %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
                          " a->b, %" G_GUINT64_FORMAT " b->a), accurate packets %"
                          G_GUINT64_FORMAT ", hull points %u + %u\n",
                          i->matches, rl->flipped ? i->n_ba : i->n_ab,
                          rl->flipped ? i->n_ab : i->n_ba, i->accurate_packets,
                          rl->hull_points[0], rl->hull_points[1]);
  if (!isnan (rl->alpha_min) || !isnan (rl->alpha_max))
    {
      g_autofree char *band = sl_units_rate (i->accuracy);

      g_string_append_printf (s, "      alpha in [%.12g, %.12g] (rate band %s)\n",
                              rl->alpha_min, rl->alpha_max, isfinite (i->accuracy) ? band : "unbounded");
    }
  if (i->has_estimate && i->matches > 0)
    {
      g_autoptr(SlRelation) relation = sl_engine_get_link_relation (engine, l);
      g_autofree char *offset = NULL;
      SlTransform map, rate;
      gint64 start_a, rate_at;

      double lo = NAN, hi = NAN;

      sl_report_link_start (rl, relation, &start_a, &map, &rate, &rate_at);
      offset = sl_report_offset_text (&map, start_a, &rate, rate_at);
      g_string_append_printf (s, "      offset %s -> %s %s\n", sl_engine_get_host_name (engine, rl->a),
                              sl_engine_get_host_name (engine, rl->b), offset);
      sl_report_link_drift_interval (rl, relation, &lo, &hi);
      _sl_report_text_drift_range (s, lo, hi);
    }
  if (isfinite (i->band_ns))
    {
      g_autofree char *band = sl_units_size (i->band_ns);
      g_autofree char *bound = sl_units_size (i->bound_ns);
      g_autofree char *over = sl_units_size ((double) (i->bound_end - i->bound_start));

      g_string_append_printf (s, "      offset band %s, estimate within ±%s, over both hosts' events (%s)\n",
                              band, bound, over);
    }
  {
    g_autoptr(SlRelation) rel = sl_engine_get_link_relation (engine, l);
    double near = sl_report_packets_bound (rl, rel);

    if (isfinite (near))
      {
        g_autofree char *bound = sl_units_size (near);
        g_autofree char *over = sl_units_size ((double) (i->span_end - i->span_start));

        g_string_append_printf (s, "      estimate within ±%s over its packets (%s)\n", bound, over);
      }
    if (sl_report_bound_is_far (rl, near))
      {
        g_autofree char *band = sl_units_rate (i->accuracy);

        g_string_append_printf (s, "      accurate: a bound holds at every instant, not a small one: the rates "
                                "its packets allow (a band of %s) part away from them\n", band);
      }
  }
  if (o->algorithm == SL_ALGORITHM_LINREG)
    {
      g_autofree char *e_r = sl_units_size (i->e_r_ns);
      g_autofree char *se_slope = sl_units_rate (i->se_slope);
      g_autofree char *se_offset = sl_units_size (i->se_offset_ns);
      g_autofree char *sigma2 = sl_units_size (i->statistical_bound_ns);

      g_string_append_printf (s, "      linear regression per window (a statistical estimate): round trips %u, "
                              "E_r %s, SE(slope) %s, SE(offset) %s, 2-sigma ±%s (not a guarantee; "
                              "the bound above is)\n",
                              i->n_round_trips, e_r, se_slope, se_offset, sigma2);
    }
  text_link_windows (s, engine, l, rl);
  g_string_append_printf (s, "      %s", i->in_tree ? "in tree" : "not in tree");
  if (i->inversions_known)
    g_string_append_printf (s, ", %s%" G_GUINT64_FORMAT " inversions after sync",
                            i->inversions_exact ? "" : "at least ", i->inversions);
  g_string_append_c (s, '\n');
}

/* @start: where the host's data starts (G_MAXINT64: unknown). */
static void
text_host (GString  *s,
           SlEngine *engine,
           guint     h,
           gint64    start,
           gint64    drift_start,
           const double *drift_range)
{
  SlHostInfo hi = { 0 };
  SlHostCounts c;

  sl_engine_get_host_info (engine, h, &hi);
  if (!hi.synchronized)
    g_string_append_printf (s, "  %s: NOT SYNCHRONIZED: %s\n", sl_engine_get_host_name (engine, h), hi.reason);
  if (hi.reference == h && hi.synchronized)
    g_string_append_printf (s, "  %s: reference\n", sl_engine_get_host_name (engine, h));
  else if (hi.reference != h)
    {
      if (hi.best_effort)
        g_string_append_printf (s, "      best effort on %s's clock, path",
                                sl_engine_get_host_name (engine, hi.reference));
      else
        g_string_append_printf (s, "  %s: reference %s, path", sl_engine_get_host_name (engine, h),
                                sl_engine_get_host_name (engine, hi.reference));
      for (guint k = 0; k < hi.path->len; k++)
        g_string_append_printf (s, "%s%s", k ? " -> " : " ",
                                sl_engine_get_host_name (engine, g_array_index (hi.path, guint, k)));
      if (hi.has_span && !isfinite (hi.bound_ns))
        g_string_append (s, ", unbounded\n");
      else if (hi.has_span)
        {
          g_autofree char *bound = sl_units_size (hi.bound_ns);
          g_autofree char *over = sl_units_size ((double) (hi.last - hi.first));
          g_autofree char *at = sl_units_offset ((double) (hi.bound_at - hi.first));

          g_string_append_printf (s, ", bound ±%s over its events (%s, largest at %s)\n", bound, over, at);
        }
      else
        g_string_append (s, ", no event seen\n");
      if (start != G_MAXINT64)
        {
          /* the map where its data starts (a piecewise map: that piece),
           * its drift where its path's packets start */
          g_autofree char *offset = sl_report_offset_text (sl_relation_piece_at (hi.relation, start), start,
                                                           sl_relation_piece_at (hi.relation, drift_start),
                                                           drift_start);

          g_string_append_printf (s, "      offset to %s %s\n",
                                  sl_engine_get_host_name (engine, hi.reference), offset);
          _sl_report_text_drift_range (s, drift_range[0], drift_range[1]);
        }
      if (sl_relation_get_n_pieces (hi.relation) > 1)
        g_string_append_printf (s, "      (there: the map has %u pieces, each in --json)\n",
                                sl_relation_get_n_pieces (hi.relation));
    }
  sl_engine_get_host_counts (engine, h, &c);
  if (c.events > 0 || c.packet_events > 0)
    g_string_append_printf (s, "      events %" G_GUINT64_FORMAT ", packet events %" G_GUINT64_FORMAT
                            ", matched %" G_GUINT64_FORMAT ", unmatched %" G_GUINT64_FORMAT
                            ", ignored %" G_GUINT64_FORMAT "\n",
                            c.events, c.packet_events, c.matched,
                            c.packet_events > c.matched ? c.packet_events - c.matched : 0,
                            c.ignored);
  if (c.unusable > 0)
    g_string_append_printf (s, "      of the ignored, %" G_GUINT64_FORMAT " TCP packet events that cannot be read\n",
                            c.unusable);
  sl_host_info_clear (&hi);
}

static void
text_components (GString         *s,
                 SlEngine        *engine,
                 const GPtrArray *comps)
{
  guint n = 0;

  g_string_append_printf (s, "\nComponents: %u\n", comps->len);
  for (guint c = 0; c < comps->len; c++)
    {
      GArray *m = g_ptr_array_index (comps, c);

      g_string_append_printf (s, "  reference %s:", sl_engine_get_host_name (engine, g_array_index (m, guint, 0)));
      for (guint k = 1; k < m->len; k++)
        g_string_append_printf (s, " %s", sl_engine_get_host_name (engine, g_array_index (m, guint, k)));
      g_string_append_c (s, '\n');
    }
  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    if (!sl_engine_host_is_synchronized (engine, h))
      g_string_append_printf (s, "%s %s", n++ == 0 ? "Not synchronized:" : "",
                              sl_engine_get_host_name (engine, h));
  if (n > 0)
    g_string_append_c (s, '\n');
}

char *
sl_report_to_text (SlEngine             *engine,
                   const SlReportTiming *timing)
{
  const SlEngineOptions *o;
  GString *s;
  g_autoptr(GPtrArray) comps = NULL;
  g_autoptr(GArray) links = NULL;
  g_autoptr(GPtrArray) relations = NULL;
  g_autofree gint64 *starts = NULL;
  g_autofree gint64 *drift_starts = NULL;
  g_autofree double *drift_range = NULL;

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

  engine_links (engine, &links, &relations);
  starts = g_new (gint64, MAX (sl_engine_get_n_hosts (engine), 1));
  drift_starts = g_new (gint64, MAX (sl_engine_get_n_hosts (engine), 1));
  drift_range = g_new (double, 2 * MAX (sl_engine_get_n_hosts (engine), 1));
  engine_host_starts (engine, links, relations, starts, drift_starts, drift_range);

  g_string_append (s, "\nLinks (offset t_b - t_a where the link's data starts, at b's time of day, UTC; exact maps in --json):\n");
  for (guint l = 0; l < links->len; l++)
    text_link (s, engine, o, l, &g_array_index (links, SlReportLink, l));

  g_string_append (s, "\nHosts (offset t_reference - t where the host's data starts, at the reference's time of day, UTC; exact maps in --json):\n");
  for (guint h = 0; h < sl_engine_get_n_hosts (engine); h++)
    text_host (s, engine, h, starts[h], drift_starts[h], &drift_range[2 * h]);

  text_components (s, engine, comps);

  g_string_append_printf (s, "\nTree changes %" G_GUINT64_FORMAT ", reference changes %" G_GUINT64_FORMAT
                          ", journal entries %" G_GUINT64_FORMAT "\n",
                          sl_graph_get_n_tree_changes (sl_engine_get_graph (engine)),
                          sl_graph_get_n_reference_changes (sl_engine_get_graph (engine)),
                          sl_journal_get_next_seq (sl_engine_get_journal (engine)));
  if (timing != NULL)
    g_string_append_printf (s, "Time: %.3f s elapsed, %.3f s CPU (this process %.3f s, its trace decoders %.3f s)\n",
                            timing->elapsed_s, timing->cpu_s, timing->cpu_s - timing->decoders_cpu_s,
                            timing->decoders_cpu_s);

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
  g_autoptr(SlJsonOut) out = NULL;

  g_return_if_fail (report != NULL);
  g_return_if_fail (problems != NULL);

  out = sl_json_out_new_builder ();
  sl_json_out_begin_object (out, NULL);
  add_problems (out, problems);
  sl_json_out_end_object (out);
  {
    g_autoptr(JsonNode) root = sl_json_out_steal_root (out);

    json_object_set_member (report, "problems",
                            json_node_copy (json_object_get_member (json_node_get_object (root), "problems")));
  }
}

static const char *const journal_modes[] = { "summary", "full", "none" };

const char *
sl_journal_mode_to_string (SlJournalMode mode)
{
  g_return_val_if_fail (mode < G_N_ELEMENTS (journal_modes), NULL);
  return journal_modes[mode];
}

static const char *const profiles_modes[] = { "compact", "full" };

const char *
sl_profiles_mode_to_string (SlProfilesMode mode)
{
  g_return_val_if_fail (mode < G_N_ELEMENTS (profiles_modes), NULL);
  return profiles_modes[mode];
}

/* The index of @str in @names, or -1. */
static int
find_name (const char *const *names,
           guint              n,
           const char        *str)
{
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (str, names[i]) == 0)
      return (int) i;
  return -1;
}

gboolean
sl_profiles_mode_from_string (const char     *str,
                              SlProfilesMode *mode)
{
  int i;

  g_return_val_if_fail (mode != NULL, FALSE);

  i = find_name (profiles_modes, G_N_ELEMENTS (profiles_modes), str);
  if (i >= 0)
    *mode = i;
  return i >= 0;
}

gboolean
sl_journal_mode_from_string (const char    *str,
                             SlJournalMode *mode)
{
  int i;

  g_return_val_if_fail (mode != NULL, FALSE);

  i = find_name (journal_modes, G_N_ELEMENTS (journal_modes), str);
  if (i >= 0)
    *mode = i;
  return i >= 0;
}
