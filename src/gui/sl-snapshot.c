/* sl-snapshot.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-snapshot.h"

SlSnapshot *
sl_snapshot_new (void)
{
  SlSnapshot *self = g_new0 (SlSnapshot, 1);

  self->host_names = g_ptr_array_new_with_free_func (g_free);
  self->hosts = g_array_new (FALSE, TRUE, sizeof (SlSnapHost));
  self->path_nodes = g_array_new (FALSE, FALSE, sizeof (guint));
  self->links = g_array_new (FALSE, TRUE, sizeof (SlReportLink));
  self->changes = g_array_new (FALSE, FALSE, sizeof (SlChange));
  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);
  self->progress.eta_s = -1;
  return self;
}

void
sl_snapshot_free (SlSnapshot *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->host_names);
  g_array_unref (self->hosts);
  g_array_unref (self->path_nodes);
  g_array_unref (self->links);
  g_array_unref (self->changes);
  g_ptr_array_unref (self->problems);
  g_clear_pointer (&self->live_hosts, g_ptr_array_unref);
  g_clear_pointer (&self->plot, sl_plot_data_unref);
  g_free (self->phase);
  g_free (self->error);
  g_free (self);
}

const char *
sl_snapshot_get_host_name (const SlSnapshot *self,
                           guint             host)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (host >= self->host_names->len)
    return NULL;
  return g_ptr_array_index (self->host_names, host);
}

void
sl_snapshot_capture_engine (SlSnapshot *self,
                            SlEngine   *engine,
                            guint64     journal_from)
{
  SlGraph *graph = sl_engine_get_graph (engine);
  SlJournal *journal = sl_engine_get_journal (engine);
  guint n_hosts = sl_engine_get_n_hosts (engine);
  guint n_links = sl_engine_get_n_links (engine);
  g_autoptr(GHashTable) components = g_hash_table_new (NULL, NULL);
  guint64 first, next;

  g_return_if_fail (self != NULL);
  g_return_if_fail (engine != NULL);

  g_ptr_array_set_size (self->host_names, 0);
  g_array_set_size (self->hosts, n_hosts);
  g_array_set_size (self->path_nodes, 0);
  for (guint h = 0; h < n_hosts; h++)
    {
      SlSnapHost *sh = &g_array_index (self->hosts, SlSnapHost, h);
      SlHostInfo hi = { 0 };
      gpointer comp;

      g_ptr_array_add (self->host_names, g_strdup (sl_engine_get_host_name (engine, h)));
      sl_engine_get_host_info (engine, h, &hi);
      sh->host = h;
      sh->reference = hi.reference;
      sh->parent = sl_graph_get_parent (graph, h);
      sh->bound_ns = hi.bound_ns;
      sh->to_reference = hi.to_reference;
      sl_engine_get_host_counts (engine, h, &sh->counts);
      sh->path_start = self->path_nodes->len;
      sh->path_len = hi.path != NULL ? hi.path->len : 0;
      if (hi.path != NULL)
        g_array_append_vals (self->path_nodes, hi.path->data, hi.path->len);
      if (!g_hash_table_lookup_extended (components, GUINT_TO_POINTER (hi.reference), NULL, &comp))
        {
          comp = GUINT_TO_POINTER (g_hash_table_size (components));
          g_hash_table_insert (components, GUINT_TO_POINTER (hi.reference), comp);
        }
      sh->component = GPOINTER_TO_UINT (comp);
      sl_host_info_clear (&hi);
    }
  self->n_components = g_hash_table_size (components);

  self->time_start = G_MAXINT64;
  self->time_end = G_MININT64;
  g_array_set_size (self->links, n_links);
  for (guint l = 0; l < n_links; l++)
    {
      SlReportLink *rl = &g_array_index (self->links, SlReportLink, l);

      sl_report_get_link (engine, l, rl);
      if (rl->info.matches > 0 && rl->info.span_end >= rl->info.span_start)
        {
          self->time_start = MIN (self->time_start, rl->info.span_start);
          self->time_end = MAX (self->time_end, rl->info.span_end);
        }
    }
  if (self->time_start > self->time_end)
    self->time_start = self->time_end = 0;

  first = MAX (journal_from, sl_journal_get_first_seq (journal));
  next = sl_journal_get_next_seq (journal);
  for (guint64 seq = first; seq < next; seq++)
    {
      const SlChange *c = sl_journal_get (journal, seq);

      if (c != NULL)
        g_array_append_val (self->changes, *c);
    }
  self->journal_next = next;
  self->journal_dropped = sl_journal_get_n_dropped (journal);
  self->matches = sl_engine_get_n_matches (engine);
}

/* @self is the newer snapshot: it keeps its own state and takes the older
 * one's changes and problems in front of its own. */
void
sl_snapshot_merge_older (SlSnapshot *self,
                         SlSnapshot *older)
{
  g_return_if_fail (self != NULL);

  if (older == NULL)
    return;
  if (older->changes->len > 0)
    g_array_prepend_vals (self->changes, older->changes->data, older->changes->len);
  if (older->problems->len > 0)
    {
      g_autoptr(GPtrArray) mine = g_steal_pointer (&self->problems);

      self->problems = g_steal_pointer (&older->problems);
      older->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);
      g_ptr_array_extend_and_steal (self->problems, g_steal_pointer (&mine));
    }
  if (self->plot == NULL && older->plot != NULL)
    self->plot = g_steal_pointer (&older->plot);
  sl_snapshot_free (older);
}

/* Plot data */

static void
plot_data_clear (gpointer data)
{
  SlPlotData *self = data;

  for (guint d = 0; d < 2; d++)
    {
      g_clear_pointer (&self->points[d], g_array_unref);
      g_clear_pointer (&self->hull[d], g_array_unref);
    }
  g_clear_pointer (&self->accuracy, g_array_unref);
}

SlPlotData *
sl_plot_data_ref (SlPlotData *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
sl_plot_data_unref (SlPlotData *self)
{
  g_atomic_rc_box_release_full (self, plot_data_clear);
}

gint64
sl_plot_data_link_version (SlEngine *engine,
                           guint     link)
{
  g_return_val_if_fail (link < sl_engine_get_n_links (engine), -1);

  return (gint64) sl_hull_get_version (sl_engine_get_link_hull (engine, link));
}

/* L(t) - t in ns, exact in 64 bits before the conversion to double. */
static double
line_offset_at (const SlTransform *l,
                gint64             t)
{
  gint64 whole;
  double frac;

  sl_transform_apply_split (l, t, &whole, &frac);
  return (double) (whole - t) + frac;
}

static SlPoint
orient_point (SlPoint  p,
              gboolean flipped)
{
  if (flipped)
    return (SlPoint) { p.y, p.x };
  return p;
}

SlPlotData *
sl_plot_data_build (SlEngine *engine,
                    guint     link)
{
  const SlHull *hull;
  SlJournal *journal;
  SlPlotData *self;
  SlReportLink rl;
  SlHullResult r;
  SlTransform lines[SL_PLOT_N_LINES];
  GArray *raw_pts[2], *raw_hull[2];
  gint64 x0 = G_MAXINT64, x1 = G_MININT64;
  gboolean has_ref = FALSE;

  g_return_val_if_fail (engine != NULL, NULL);
  g_return_val_if_fail (link < sl_engine_get_n_links (engine), NULL);

  hull = sl_engine_get_link_hull (engine, link);
  journal = sl_engine_get_journal (engine);
  self = g_atomic_rc_box_new0 (SlPlotData);
  self->link = link;
  self->version = sl_plot_data_link_version (engine, link);

  sl_report_get_link (engine, link, &rl);
  sl_hull_get_result (hull, &r);
  self->a = rl.a;
  self->b = rl.b;

  /* Direction d (0: sent by the report's a) is the engine's a_to_b unless
   * the link is flipped. */
  for (guint d = 0; d < 2; d++)
    {
      gboolean a_to_b = rl.flipped ? d == 1 : d == 0;

      raw_pts[d] = sl_engine_get_link_points (engine, link, a_to_b);
      raw_hull[d] = sl_hull_get_hull (hull, a_to_b);
      for (guint i = 0; i < raw_pts[d]->len; i++)
        {
          SlPoint q = orient_point (g_array_index (raw_pts[d], SlPoint, i), rl.flipped);
          x0 = MIN (x0, q.x);
          x1 = MAX (x1, q.x);
        }
      for (guint i = 0; i < raw_hull[d]->len; i++)
        {
          SlPoint q = orient_point (g_array_index (raw_hull[d], SlPoint, i), rl.flipped);
          x0 = MIN (x0, q.x);
          x1 = MAX (x1, q.x);
        }
    }
  if (x0 > x1)
    x0 = x1 = 0;
  self->x0 = x0;

  /* Inverting a line swaps which slope is the smaller one. */
  if (!rl.flipped)
    {
      self->has_line[SL_PLOT_LINE_LMIN] = r.has_lmin;
      lines[SL_PLOT_LINE_LMIN] = r.lmin;
      self->has_line[SL_PLOT_LINE_LMAX] = r.has_lmax;
      lines[SL_PLOT_LINE_LMAX] = r.lmax;
    }
  else
    {
      self->has_line[SL_PLOT_LINE_LMIN] = r.has_lmax && sl_transform_get_slope (&r.lmax) > 0;
      if (self->has_line[SL_PLOT_LINE_LMIN])
        sl_transform_invert (&r.lmax, &lines[SL_PLOT_LINE_LMIN]);
      self->has_line[SL_PLOT_LINE_LMAX] = r.has_lmin && sl_transform_get_slope (&r.lmin) > 0;
      if (self->has_line[SL_PLOT_LINE_LMAX])
        sl_transform_invert (&r.lmin, &lines[SL_PLOT_LINE_LMAX]);
    }
  self->has_line[SL_PLOT_LINE_ESTIMATE] = rl.info.has_estimate;
  lines[SL_PLOT_LINE_ESTIMATE] = rl.estimate;

  if (self->has_line[SL_PLOT_LINE_ESTIMATE])
    {
      self->ref_ns = line_offset_at (&lines[SL_PLOT_LINE_ESTIMATE], x0);
      has_ref = isfinite (self->ref_ns);
    }

  for (guint d = 0; d < 2; d++)
    {
      guint n = raw_pts[d]->len;
      guint stride = MAX (1, (n + SL_PLOT_MAX_POINTS - 1) / SL_PLOT_MAX_POINTS);

      if (!has_ref && n > 0)
        {
          SlPoint q = orient_point (g_array_index (raw_pts[d], SlPoint, 0), rl.flipped);
          self->ref_ns = (double) (q.y - q.x);
          has_ref = TRUE;
        }
      self->n_points[d] = n;
      self->points[d] = g_array_sized_new (FALSE, FALSE, sizeof (SlPlotPoint), n / stride + 1);
      for (guint i = 0; i < n; i += stride)
        {
          SlPoint q = orient_point (g_array_index (raw_pts[d], SlPoint, i), rl.flipped);
          SlPlotPoint p = { (double) (q.x - x0) / 1e9, ((double) (q.y - q.x) - self->ref_ns) / 1e3 };
          g_array_append_val (self->points[d], p);
        }
    }

  for (guint d = 0; d < 2; d++)
    {
      self->hull[d] = g_array_sized_new (FALSE, FALSE, sizeof (SlPlotPoint), raw_hull[d]->len);
      for (guint i = 0; i < raw_hull[d]->len; i++)
        {
          SlPoint q = orient_point (g_array_index (raw_hull[d], SlPoint, i), rl.flipped);
          SlPlotPoint p = { (double) (q.x - x0) / 1e9, ((double) (q.y - q.x) - self->ref_ns) / 1e3 };
          g_array_append_val (self->hull[d], p);
        }
      g_array_unref (raw_pts[d]);
      g_array_unref (raw_hull[d]);
    }

  for (guint k = 0; k < SL_PLOT_N_LINES; k++)
    if (self->has_line[k])
      {
        self->line_y[k][0] = (line_offset_at (&lines[k], x0) - self->ref_ns) / 1e3;
        self->line_y[k][1] = (line_offset_at (&lines[k], x1) - self->ref_ns) / 1e3;
        if (!isfinite (self->line_y[k][0]) || !isfinite (self->line_y[k][1]))
          self->has_line[k] = FALSE;
      }
  self->x_end = (double) (x1 - x0) / 1e9;

  /* Journal entries name the link's hosts in either order; their input
   * times are merge-order times, close to a's clock. */
  self->accuracy = g_array_new (FALSE, FALSE, sizeof (SlPlotPoint));
  for (guint64 seq = sl_journal_get_first_seq (journal);
       seq < sl_journal_get_next_seq (journal); seq++)
    {
      const SlChange *c = sl_journal_get (journal, seq);
      SlPlotPoint p;

      if (c == NULL || c->kind != SL_CHANGE_LINK)
        continue;
      if (!((c->a == rl.info.a && c->b == rl.info.b) || (c->a == rl.info.b && c->b == rl.info.a)))
        continue;
      p.x = (double) (c->input_time - x0) / 1e9;
      p.y = isfinite (c->value) && c->value > 0 ? c->value * 1e6 : NAN;
      g_array_append_val (self->accuracy, p);
    }

  return self;
}

/* CSV (RFC 4180) of the link table, in the report's orientation. */

static void
csv_string (GString    *s,
            const char *v)
{
  g_string_append_c (s, '"');
  for (const char *c = v != NULL ? v : ""; *c != '\0'; c++)
    {
      if (*c == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *c);
    }
  g_string_append_c (s, '"');
}

static void
csv_number (GString *s,
            double   v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isfinite (v))
    g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.17g", v));
}

char *
sl_snapshot_links_to_csv (const SlSnapshot *self)
{
  GString *s;

  g_return_val_if_fail (self != NULL, NULL);

  s = g_string_new ("a,b,quality,reason,accuracy_ppm,band_us,bound_us,alpha,beta_ns,"
                    "matches,accurate_packets,hull_points_ab,hull_points_ba,"
                    "inversions_after_sync,in_tree,last_change_input_time\r\n");
  for (guint l = 0; l < self->links->len; l++)
    {
      const SlReportLink *rl = &g_array_index (self->links, SlReportLink, l);
      const SlLinkInfo *i = &rl->info;

      csv_string (s, sl_snapshot_get_host_name (self, rl->a));
      g_string_append_c (s, ',');
      csv_string (s, sl_snapshot_get_host_name (self, rl->b));
      g_string_append_c (s, ',');
      csv_string (s, sl_quality_to_string (i->quality));
      g_string_append_c (s, ',');
      csv_string (s, i->reason);
      g_string_append_c (s, ',');
      csv_number (s, i->accuracy * 1e6);
      g_string_append_c (s, ',');
      csv_number (s, i->band_ns / 1e3);
      g_string_append_c (s, ',');
      csv_number (s, i->bound_ns / 1e3);
      g_string_append_c (s, ',');
      csv_number (s, rl->alpha);
      g_string_append_c (s, ',');
      csv_number (s, rl->beta);
      g_string_append_printf (s, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%u,%u,",
                              i->matches, i->accurate_packets,
                              rl->hull_points[0], rl->hull_points[1]);
      if (i->inversions_known)
        g_string_append_printf (s, "%" G_GUINT64_FORMAT, i->inversions);
      g_string_append_printf (s, ",%s,%" G_GINT64_FORMAT "\r\n",
                              i->in_tree ? "true" : "false", i->last_change);
    }
  return g_string_free (s, FALSE);
}
