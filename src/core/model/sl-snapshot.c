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

  self->host_names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ref_string_release);
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

/* What a host's entry was computed from, besides the engine's hosts
 * stamp (sl_engine_get_hosts_stamp()). */
typedef struct
{
  gboolean     has_span;
  gint64       first;
  gint64       last;
  SlHostCounts counts;
} HostKey;

/* The previous capture's hosts, for the next one to take the entries of
 * those whose inputs did not change. */
struct _SlSnapshotCache
{
  guint64    stamp;
  guint64    journal_next;
  GArray    *hosts;
  GArray    *keys;
  GPtrArray *relations;
  GArray    *path_nodes;
  /* each host's drift inputs (drift_key()) at drift_at[h] .. [h + 1] */
  GArray    *drift_keys;
  GArray    *drift_at;
  guint      n_reused;
  guint      n_drifts_reused;
};

SlSnapshotCache *
sl_snapshot_cache_new (void)
{
  SlSnapshotCache *self = g_new0 (SlSnapshotCache, 1);

  self->hosts = g_array_new (FALSE, TRUE, sizeof (SlSnapHost));
  self->keys = g_array_new (FALSE, TRUE, sizeof (HostKey));
  self->relations = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_relation_unref);
  self->path_nodes = g_array_new (FALSE, FALSE, sizeof (guint));
  self->drift_keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->drift_at = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

void
sl_snapshot_cache_free (SlSnapshotCache *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->hosts);
  g_array_unref (self->keys);
  g_ptr_array_unref (self->relations);
  g_array_unref (self->path_nodes);
  g_array_unref (self->drift_keys);
  g_array_unref (self->drift_at);
  g_free (self);
}

/**
 * sl_snapshot_cache_get_reused:
 * @drifts: (out) (optional): of them, entries whose drift was taken too
 *
 * Returns: host entries the last capture took from the one before
 */
guint
sl_snapshot_cache_get_reused (const SlSnapshotCache *self,
                              guint                 *drifts)
{
  g_return_val_if_fail (self != NULL, 0);

  if (drifts != NULL)
    *drifts = self->n_drifts_reused;
  return self->n_reused;
}

static void
host_key (SlEngine *engine,
          guint     h,
          HostKey  *key)
{
  memset (key, 0, sizeof *key);
  key->has_span = sl_engine_get_host_span (engine, h, &key->first, &key->last);
  sl_engine_get_host_counts (engine, h, &key->counts);
}

/* A host's entry from the engine, but for its component, group size,
 * data start and drift. */
static void
compute_host (SlSnapHost *sh,
              SlEngine   *engine,
              guint       h,
              GPtrArray  *relations,
              GArray     *path_nodes)
{
  SlHostInfo hi = { 0 };
  const char *fixed = sl_engine_get_host_fixed (engine, h);
  const char *unread = sl_engine_get_host_unread (engine, h);

  sl_engine_get_host_info (engine, h, &hi);
  sh->host = h;
  sh->reference = hi.reference;
  sh->parent = sl_graph_get_parent (sl_engine_get_graph (engine), h);
  sh->bound_ns = hi.bound_ns;
  sh->to_reference = hi.to_reference;
  g_ptr_array_add (relations, sl_relation_ref (hi.relation));
  sh->synchronized = hi.synchronized;
  sh->best_effort = hi.best_effort;
  copy_text (sh->reason, sizeof sh->reason, hi.reason);
  copy_text (sh->fixed_from, sizeof sh->fixed_from, fixed != NULL ? fixed : "");
  copy_text (sh->unread, sizeof sh->unread, unread != NULL ? unread : "");
  sh->path_start = path_nodes->len;
  sh->path_len = hi.path != NULL ? hi.path->len : 0;
  if (hi.path != NULL)
    g_array_append_vals (path_nodes, hi.path->data, hi.path->len);
  sl_host_info_clear (&hi);
}

/* Whether the cached entry of @h holds but for what follows its span
 * (sl_engine_get_hosts_stamp() says which inputs that takes). */
static gboolean
host_unchanged (const SlSnapshotCache *cache,
                gboolean               same_stamp,
                SlEngine              *engine,
                guint                  h,
                const HostKey         *key)
{
  const HostKey *old;

  if (!same_stamp || h >= cache->hosts->len)
    return FALSE;
  old = &g_array_index (cache->keys, HostKey, h);
  /* the reason of a host neither synchronized nor fixed counts its
   * packets and reads its links */
  return g_array_index (cache->hosts, SlSnapHost, h).synchronized ||
         sl_engine_get_host_fixed (engine, h) != NULL ||
         memcmp (&old->counts, &key->counts, sizeof key->counts) == 0;
}

/* The cached entry of @h, with what follows its span computed again when
 * the span moved. */
static void
reuse_host (SlSnapHost            *sh,
            const SlSnapshotCache *cache,
            SlEngine              *engine,
            guint                  h,
            const HostKey         *key)
{
  const HostKey *old = &g_array_index (cache->keys, HostKey, h);
  SlHostInfo hi = { 0 };

  *sh = g_array_index (cache->hosts, SlSnapHost, h);
  if (old->has_span == key->has_span && old->first == key->first && old->last == key->last)
    return;
  hi.host = h;
  hi.reference = sh->reference;
  hi.relation = sl_relation_ref (g_ptr_array_index (cache->relations, h));
  hi.synchronized = sh->synchronized;
  sl_engine_update_host_info_span (engine, &hi);
  sh->bound_ns = hi.bound_ns;
  sh->to_reference = hi.to_reference;
  if (hi.reason != NULL)
    copy_text (sh->reason, sizeof sh->reason, hi.reason);
  sl_host_info_clear (&hi);
}

/* Everything sl_report_drift_start() and sl_report_drift_interval() read
 * for the host: its data start, its path, and on each link of it the
 * link, the data start of its relation and the relations (by serial: a
 * relation does not change; a new one has a new serial). */
static void
drift_key (GArray             *out,
           const SlSnapshot   *self,
           GHashTable         *pairs,
           const SlSnapHost   *sh,
           gint64              start)
{
  const SlReportLink *links = (const SlReportLink *) (gpointer) self->links->data;
  SlRelation *const *link_rel = (SlRelation *const *) self->link_relations->pdata;
  SlRelation *const *host_rel = (SlRelation *const *) self->host_relations->pdata;
  const guint *path = &g_array_index (self->path_nodes, guint, sh->path_start);
  guint64 head[3] = { (guint64) start, sl_relation_get_serial (host_rel[sh->host]), sh->path_len };

  g_array_append_vals (out, head, G_N_ELEMENTS (head));
  for (guint k = 0; k < sh->path_len; k++)
    {
      guint64 node = path[k];

      g_array_append_val (out, node);
    }
  for (guint k = 0; k + 1 < sh->path_len; k++)
    {
      gint64 pair = _sl_report_pair_key (path[k], path[k + 1]);
      guint l = GPOINTER_TO_UINT (g_hash_table_lookup (pairs, &pair));
      guint64 edge[4] = { l, 0, 0, 0 };

      if (l-- > 0)
        {
          edge[1] = sl_relation_get_serial (link_rel[l]);
          edge[2] = (guint64) _sl_report_link_data_start (&links[l], link_rel[l]);
          edge[3] = links[l].info.a < self->host_relations->len
                    ? sl_relation_get_serial (host_rel[links[l].info.a]) : 0;
        }
      g_array_append_vals (out, edge, G_N_ELEMENTS (edge));
    }
}

static void
compute_drift (SlSnapshot *self,
               GHashTable *pairs,
               SlSnapHost *sh)
{
  const SlReportLink *links = (const SlReportLink *) (gpointer) self->links->data;
  SlRelation *const *link_rel = (SlRelation *const *) self->link_relations->pdata;
  const guint *path = &g_array_index (self->path_nodes, guint, sh->path_start);

  sh->drift_start = sl_report_drift_start (links, link_rel, pairs, (SlRelation *const *) self->host_relations->pdata,
                                           path, sh->path_len, sh->data_start);
  if (!sl_report_drift_interval (links, link_rel, pairs, path, sh->path_len, sh->drift_start,
                                 &sh->drift_range[0], &sh->drift_range[1]))
    sh->drift_range[0] = sh->drift_range[1] = NAN;
}

static void
cache_update (SlSnapshotCache  *cache,
              const SlSnapshot *self,
              guint64           stamp,
              guint64           journal_next,
              GArray           *keys,
              GArray           *drift_keys,
              GArray           *drift_at)
{
  cache->stamp = stamp;
  cache->journal_next = journal_next;
  g_array_set_size (cache->hosts, 0);
  g_array_append_vals (cache->hosts, self->hosts->data, self->hosts->len);
  g_ptr_array_set_size (cache->relations, 0);
  for (guint h = 0; h < self->host_relations->len; h++)
    g_ptr_array_add (cache->relations, sl_relation_ref (g_ptr_array_index (self->host_relations, h)));
  g_array_set_size (cache->path_nodes, 0);
  g_array_append_vals (cache->path_nodes, self->path_nodes->data, self->path_nodes->len);
  g_array_set_size (cache->keys, 0);
  g_array_append_vals (cache->keys, keys->data, keys->len);
  g_array_set_size (cache->drift_keys, 0);
  g_array_append_vals (cache->drift_keys, drift_keys->data, drift_keys->len);
  g_array_set_size (cache->drift_at, 0);
  g_array_append_vals (cache->drift_at, drift_at->data, drift_at->len);
}

void
sl_snapshot_capture_engine (SlSnapshot *self,
                            SlEngine   *engine,
                            guint64     journal_from)
{
  sl_snapshot_capture_engine_cached (self, engine, journal_from, NULL);
}

/**
 * sl_snapshot_capture_engine_cached:
 * @cache: (nullable): what the previous capture of @engine computed,
 *   updated to this one
 *
 * sl_snapshot_capture_engine(), taking from @cache the entries of hosts
 * whose inputs did not change since the previous capture: the snapshot is
 * the same, field for field, as one captured without it.
 */
void
sl_snapshot_capture_engine_cached (SlSnapshot      *self,
                                   SlEngine        *engine,
                                   guint64          journal_from,
                                   SlSnapshotCache *cache)
{
  SlJournal *journal = sl_engine_get_journal (engine);
  guint n_hosts = sl_engine_get_n_hosts (engine);
  guint n_links = sl_engine_get_n_links (engine);
  g_autoptr(GHashTable) components = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) keys = g_array_sized_new (FALSE, TRUE, sizeof (HostKey), n_hosts);
  g_autoptr(GArray) drift_keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) drift_at = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_hosts + 1);
  guint64 first, next, stamp = 0, journal_next = 0;
  gboolean same_stamp = FALSE;
  guint n_reused = 0, n_drifts_reused = 0;

  g_return_if_fail (self != NULL);
  g_return_if_fail (engine != NULL);

  if (cache != NULL)
    {
      /* before anything is read: it flushes and settles the tree */
      stamp = sl_engine_get_hosts_stamp (engine);
      journal_next = sl_journal_get_next_seq (journal);
      same_stamp = stamp == cache->stamp && journal_next == cache->journal_next;
    }

  g_ptr_array_set_size (self->host_names, 0);
  g_ptr_array_set_size (self->host_relations, 0);
  g_ptr_array_set_size (self->link_relations, 0);
  g_array_set_size (self->hosts, n_hosts);
  g_array_set_size (self->path_nodes, 0);
  g_array_set_size (keys, n_hosts);
  for (guint h = 0; h < n_hosts; h++)
    {
      SlSnapHost *sh = &g_array_index (self->hosts, SlSnapHost, h);
      HostKey *key = &g_array_index (keys, HostKey, h);
      gpointer comp;

      g_ptr_array_add (self->host_names, sl_engine_dup_host_name (engine, h));
      host_key (engine, h, key);
      if (cache != NULL && host_unchanged (cache, same_stamp, engine, h, key))
        {
          reuse_host (sh, cache, engine, h, key);
          g_array_append_vals (self->path_nodes, &g_array_index (cache->path_nodes, guint, sh->path_start),
                               sh->path_len);
          sh->path_start = self->path_nodes->len - sh->path_len;
          g_ptr_array_add (self->host_relations, sl_relation_ref (g_ptr_array_index (cache->relations, h)));
          n_reused++;
        }
      else
        compute_host (sh, engine, h, self->host_relations, self->path_nodes);
      sh->counts = key->counts;
      if (!g_hash_table_lookup_extended (components, GUINT_TO_POINTER (sh->reference), NULL, &comp))
        {
          comp = GUINT_TO_POINTER (g_hash_table_size (components));
          g_hash_table_insert (components, GUINT_TO_POINTER (sh->reference), comp);
        }
      sh->component = GPOINTER_TO_UINT (comp);
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
        guint at = drift_keys->len;

        sh->data_start = starts[h];
        g_array_append_val (drift_at, at);
        if (cache != NULL)
          drift_key (drift_keys, self, pairs, sh, starts[h]);
        if (cache != NULL && h + 1 < cache->drift_at->len &&
            g_array_index (cache->drift_at, guint, h + 1) - g_array_index (cache->drift_at, guint, h) ==
              drift_keys->len - at &&
            memcmp (&g_array_index (cache->drift_keys, guint64, g_array_index (cache->drift_at, guint, h)),
                    &g_array_index (drift_keys, guint64, at), (drift_keys->len - at) * sizeof (guint64)) == 0)
          {
            const SlSnapHost *old = &g_array_index (cache->hosts, SlSnapHost, h);

            sh->drift_start = old->drift_start;
            sh->drift_range[0] = old->drift_range[0];
            sh->drift_range[1] = old->drift_range[1];
            n_drifts_reused++;
          }
        else
          compute_drift (self, pairs, sh);
        sh->group_size = sh->reference < n_hosts ? sizes[sh->reference] : 1;
      }
    g_array_append_val (drift_at, drift_keys->len);
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

  if (cache != NULL)
    {
      cache_update (cache, self, stamp, journal_next, keys, drift_keys, drift_at);
      cache->n_reused = n_reused;
      cache->n_drifts_reused = n_drifts_reused;
    }
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
