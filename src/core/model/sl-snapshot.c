/* sl-snapshot.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <math.h>

#include "sl-snapshot.h"

SlSnapshot *
sl_snapshot_new (void)
{
  SlSnapshot *self = g_new0 (SlSnapshot, 1);

  self->host_names = g_ptr_array_new_with_free_func (g_free);
  self->hosts = g_array_new (FALSE, TRUE, sizeof (SlSnapHost));
  self->host_relations = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
  self->link_relations = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
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
  g_ptr_array_unref (self->host_relations);
  g_ptr_array_unref (self->link_relations);
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

/* @text into @size bytes, whole when it fits, else cut at a character
 * and ended by "…"; the rest zeroed, as items compare hosts with memcmp.
 * (g_utf8_strlen()'s limit is in bytes: a quarter of the field kept 39
 * bytes of every reason, "none of its 5 packet events matched a p".) */
static void
copy_text (char       *dest,
           gsize       size,
           const char *text)
{
  gsize len = strlen (text);
  const char *end;

  memset (dest, 0, size);
  if (len < size)
    {
      memcpy (dest, text, len);
      return;
    }
  end = text + size - 1 - strlen ("…");
  while (end > text && ((guchar) *end & 0xc0) == 0x80)
    end--;
  memcpy (dest, text, end - text);
  memcpy (dest + (end - text), "…", strlen ("…"));
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
  g_ptr_array_set_size (self->host_relations, 0);
  g_ptr_array_set_size (self->link_relations, 0);
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
      g_ptr_array_add (self->host_relations, sl_relation_ref (hi.relation));
      sh->synchronized = hi.synchronized;
      sh->best_effort = hi.best_effort;
      copy_text (sh->reason, sizeof sh->reason, hi.reason);
      copy_text (sh->fixed_from, sizeof sh->fixed_from,
                 sl_engine_get_host_fixed (engine, h) != NULL ? sl_engine_get_host_fixed (engine, h) : "");
      copy_text (sh->unread, sizeof sh->unread,
                 sl_engine_get_host_unread (engine, h) != NULL ? sl_engine_get_host_unread (engine, h) : "");
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
      g_ptr_array_add (self->link_relations, sl_engine_get_link_relation (engine, l));
      if (rl->info.matches > 0 && rl->info.span_end >= rl->info.span_start)
        {
          self->time_start = MIN (self->time_start, rl->info.span_start);
          self->time_end = MAX (self->time_end, rl->info.span_end);
        }
    }
  if (self->time_start > self->time_end)
    self->time_start = self->time_end = 0;
  {
    g_autofree gint64 *starts = g_new (gint64, MAX (n_hosts, 1));
    g_autofree guint *sizes = g_new0 (guint, MAX (n_hosts, 1));

    sl_report_host_starts ((const SlReportLink *) (gpointer) self->links->data,
                           (SlRelation * const *) self->link_relations->pdata, n_links, starts, n_hosts);
    for (guint h = 0; h < n_hosts; h++)
      {
        guint r = g_array_index (self->hosts, SlSnapHost, h).reference;

        if (r < n_hosts)
          sizes[r]++;
      }
    g_autoptr(GHashTable) pairs = sl_report_link_pairs ((const SlReportLink *) (gpointer) self->links->data, n_links);

    for (guint h = 0; h < n_hosts; h++)
      {
        SlSnapHost *sh = &g_array_index (self->hosts, SlSnapHost, h);

        sh->data_start = starts[h];
        sh->drift_start = sl_report_drift_start ((const SlReportLink *) (gpointer) self->links->data,
                                                 (SlRelation * const *) self->link_relations->pdata, pairs,
                                                 (SlRelation * const *) self->host_relations->pdata,
                                                 &g_array_index (self->path_nodes, guint, sh->path_start),
                                                 sh->path_len, starts[h]);
        if (!sl_report_drift_interval ((const SlReportLink *) (gpointer) self->links->data,
                                       (SlRelation * const *) self->link_relations->pdata, pairs,
                                       &g_array_index (self->path_nodes, guint, sh->path_start), sh->path_len,
                                       sh->drift_start, &sh->drift_range[0], &sh->drift_range[1]))
          sh->drift_range[0] = sh->drift_range[1] = NAN;
        sh->group_size = sh->reference < n_hosts ? sizes[sh->reference] : 1;
      }
  }

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
  self->input_start = self->matches > 0 ? sl_engine_get_first_input_time (engine) : 0;
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
