/* sl-engine-hosts.c: the engine's hosts: groups, references and what
 * sl_engine_get_host_info() says of each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-engine-private.h"

/* The piece that covers most of [first, last]: the host's transform when
 * one line is shown. */
static const SlTransform *
longest_piece (const SlRelation *rel,
               gint64            first,
               gint64            last)
{
  guint i0 = sl_relation_find_piece (rel, first), i1 = sl_relation_find_piece (rel, last), best = i0;
  gint64 best_len = -1;

  for (guint i = i0; i <= i1; i++)
    {
      gint64 s = MAX (sl_relation_get_piece (rel, i, NULL), first);
      gint64 e = i + 1 < sl_relation_get_n_pieces (rel) ? MIN (sl_relation_get_piece (rel, i + 1, NULL), last) : last;

      if (e - s > best_len)
        {
          best_len = e - s;
          best = i;
        }
    }
  return sl_relation_piece_at (rel, MAX (sl_relation_get_piece (rel, best, NULL), first));
}

static int
quality_rank (SlQuality q)
{
  switch (q)
    {
    case SL_QUALITY_ACCURATE:
      return 4;
    case SL_QUALITY_APPROXIMATE:
      return 3;
    case SL_QUALITY_FAIL:
      return 2;
    case SL_QUALITY_INCOMPLETE:
      return 1;
    case SL_QUALITY_ABSENT:
    default:
      return 0;
    }
}

static int
cmp_host_names (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  SlEngine *self = data;

  return strcmp (g_ptr_array_index (self->host_names, *(const guint *) a),
                 g_ptr_array_index (self->host_names, *(const guint *) b));
}

/* Component sizes from the tree; then each host alone is placed, in name
 * order, through its best link that has an estimate: to a synchronized
 * host if it can (the largest group first), else to a host alone that
 * comes earlier by name (so that a group of hosts alone shares the clock
 * of its first host). Recomputed when the journal moved (every change of
 * a link's quality and of the tree is journaled). */
static void
ensure_groups (SlEngine *self)
{
  guint n = self->host_names->len;
  g_autofree guint *ref = NULL;
  g_autofree guint *count = NULL;
  g_autofree guint *order = NULL;
  g_autofree guint8 *decided = NULL;
  guint64 stamp;
  guint pinned;

  /* The stamp is checked before any per-host work: a capture asks for
   * every host's info, and reading every host's reference first made it
   * O(hosts²). Reading one settles the tree (its changes are journaled)
   * before the journal is read. */
  if (n > 0)
    (void) sl_graph_get_parent (self->graph, 0);
  stamp = sl_journal_get_next_seq (self->journal) + 1;
  pinned = sl_graph_get_pinned (self->graph);
  if (self->groups->len == n && self->groups_stamp == stamp && self->groups_pinned == pinned)
    return;
  ref = g_new (guint, MAX (n, 1));
  count = g_new0 (guint, MAX (n, 1));
  order = g_new (guint, MAX (n, 1));
  decided = g_new0 (guint8, MAX (n, 1));
  for (guint h = 0; h < n; h++)
    ref[h] = sl_graph_get_reference (self->graph, h);
  self->groups_stamp = stamp;
  self->groups_pinned = pinned;
  g_array_set_size (self->groups, n);

  for (guint h = 0; h < n; h++)
    count[ref[h]]++;
  for (guint h = 0; h < n; h++)
    {
      Group *g = &g_array_index (self->groups, Group, h);

      g->size = count[ref[h]];
      g->place_link = G_MAXUINT;
      g->place_on = SL_HOST_NONE;
      order[h] = h;
      decided[h] = g->size >= 2;
    }
  g_qsort_with_data (order, (gint) n, sizeof (guint), cmp_host_names, self);
  /* a pinned reference alone stays on its own clock, and the others alone
   * may be placed on it */
  if (pinned < n)
    decided[pinned] = TRUE;

  for (guint k = 0; k < n; k++)
    {
      guint h = order[k];
      Group *g = &g_array_index (self->groups, Group, h);
      int best_score = -1;

      if (g->size >= 2 || h == pinned)
        continue;
      for (guint li = 0; li < self->links->len; li++)
        {
          Link *l = &g_array_index (self->links, Link, li);
          guint o;
          int score;

          if (l->a != h && l->b != h)
            continue;
          o = l->a == h ? l->b : l->a;
          if (!decided[o] || l->rel == NULL)
            continue;
          /* synchronized targets first, larger groups, better links */
          score = (g_array_index (self->groups, Group, o).size >= 2 ? 1 << 28 : 0) +
                  (int) MIN (g_array_index (self->groups, Group, o).size, 4095u) * 16 +
                  quality_rank (l->quality);
          if (score > best_score)
            {
              best_score = score;
              g->place_link = li;
              g->place_on = o;
            }
        }
      decided[h] = TRUE;
    }
}

/* Atomic: engines of several threads draw from it, and a stamp is never
 * another engine's. */
static guint64 next_hosts_stamp;

void
_sl_engine_hosts_changed (SlEngine *self)
{
  self->hosts_stamp = __atomic_add_fetch (&next_hosts_stamp, 1, __ATOMIC_RELAXED);
}

/**
 * sl_engine_get_hosts_stamp:
 *
 * What sl_engine_get_host_info() says of a host follows the tree, the
 * links' relations and qualities, pins, fixed and unread hosts (all of
 * which change only with a new stamp), the host's span and, for a host
 * that is neither synchronized nor fixed, its counts: every match on one
 * of its links counts on it, and only matches and flushes change a link.
 * Flushes first, as a query does, and settles the tree and the groups.
 *
 * Returns: a value that is never the same once any of the former changed,
 *   nor another engine's
 */
guint64
sl_engine_get_hosts_stamp (SlEngine *self)
{
  g_return_val_if_fail (self != NULL, 0);

  _sl_engine_query_flush (self);
  ensure_groups (self);
  return self->hosts_stamp;
}

/**
 * sl_engine_host_is_synchronized:
 *
 * Returns: whether an accurate path joins @host to at least one other host
 */
gboolean
sl_engine_host_is_synchronized (SlEngine *self,
                                guint     host)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (host < self->host_names->len, FALSE);

  if (g_ptr_array_index (self->host_fixed, host) != NULL)
    {
      SlHostInfo info = { 0 };
      gboolean synchronized;

      sl_engine_get_host_info (self, host, &info);
      synchronized = info.synchronized;
      sl_host_info_clear (&info);
      return synchronized;
    }
  _sl_engine_query_flush (self);
  ensure_groups (self);
  return g_array_index (self->groups, Group, host).size >= 2;
}

static const char *
host_name (const SlEngine *self,
           guint           h)
{
  return g_ptr_array_index (self->host_names, h);
}

static char *
unsynchronized_reason (SlEngine *self,
                       guint     host)
{
  const SlHostCounts *c = &g_array_index (self->host_counts, SlHostCounts, host);
  const Group *g = &g_array_index (self->groups, Group, host);
  const Link *best = NULL;
  guint n_links = 0;
  const char *unread = g_ptr_array_index (self->host_unread, host);
  GString *s;

  /* its files could not be read: that, not what they hold */
  if (c->events == 0 && c->packet_events == 0 && unread != NULL)
    return g_strdup_printf ("no event could be read: %s", unread);
  if (c->packet_events == 0 && c->matched == 0)
    return g_strdup ("no TCP packet event in its traces");
  if (c->matched == 0)
    return g_strdup_printf ("none of its %" G_GUINT64_FORMAT " packet events matched a packet of another host",
                            c->packet_events);

  for (guint li = 0; li < self->links->len; li++)
    {
      const Link *l = &g_array_index (self->links, Link, li);

      if (l->a != host && l->b != host)
        continue;
      n_links++;
      if (best == NULL || quality_rank (l->quality) > quality_rank (best->quality) ||
          (quality_rank (l->quality) == quality_rank (best->quality) && l->matches > best->matches))
        best = l;
    }
  s = g_string_new (NULL);
  if (best != NULL)
    {
      SlLinkInfo info;

      _sl_engine_link_estimate (self, (Link *) best, &info);
      g_string_append_printf (s, "no accurate link: the link with %s is %s",
                              host_name (self, best->a == host ? best->b : best->a),
                              info.quality == SL_QUALITY_FAIL ? "failed" : sl_quality_to_string (info.quality));
      if (info.reason != NULL && *info.reason != '\0')
        g_string_append_printf (s, ": %s", info.reason);
      if (n_links > 1)
        g_string_append_printf (s, "; its %u other links are not accurate either", n_links - 1);
    }
  else
    g_string_append (s, "no link to another host");
  if (g->place_on != SL_HOST_NONE)
    g_string_append_printf (s, "; placed on %s's clock through its link with it as a best effort, unbounded",
                            host_name (self, g->place_on));
  return g_string_free (s, FALSE);
}

/* The relation of a host placed through a non-accurate link: that link's
 * estimate (its bound infinite) composed with where the other host is. */
static void
place_host (SlEngine   *self,
            guint       host,
            SlHostInfo *info)
{
  const Group *g = &g_array_index (self->groups, Group, host);
  Link *l = &g_array_index (self->links, Link, g->place_link);
  SlHostInfo on = { 0 };
  g_autoptr(SlRelation) hop = NULL;

  sl_engine_get_host_info (self, g->place_on, &on);
  hop = l->a == host ? sl_relation_ref (l->rel) : sl_relation_invert (l->rel);
  g_clear_pointer (&info->relation, sl_relation_unref);
  info->relation = sl_relation_compose (on.relation, hop);
  info->reference = on.reference;
  g_array_set_size (info->path, 1);
  g_array_append_vals (info->path, on.path->data, on.path->len);
  info->best_effort = TRUE;
  sl_host_info_clear (&on);
}

/* A fixed host: its saved relation to its saved reference, when that
 * host is here; else it stays on its own clock (the graph's, as it has no
 * link). */
static void
fixed_host_info (SlEngine    *self,
                 guint        host,
                 const Fixed *fixed,
                 SlHostInfo  *info)
{
  guint ref = sl_engine_find_host (self, fixed->reference);

  if (ref == SL_HOST_NONE)
    {
      info->synchronized = FALSE;
      info->reason = g_strdup_printf ("its reference in %s, %s, is not among the traces", self->fixed_source,
                                      fixed->reference);
      return;
    }
  info->synchronized = fixed->synchronized;
  info->best_effort = fixed->best_effort;
  info->reason = g_strdup (fixed->synchronized ? "" : fixed->best_effort
                           ? "placed as a best effort, unbounded, in the saved transforms"
                           : "not synchronized in the saved transforms");
  if (ref == host)
    return;
  info->reference = ref;
  g_clear_pointer (&info->relation, sl_relation_unref);
  info->relation = sl_relation_ref (fixed->relation);
  g_array_set_size (info->path, 0);
  g_array_append_val (info->path, host);
  g_array_append_val (info->path, ref);
}

void
sl_engine_get_host_info (SlEngine   *self,
                         guint       host,
                         SlHostInfo *info)
{
  const Group *g;
  const Fixed *fixed;

  g_return_if_fail (self != NULL);
  g_return_if_fail (host < self->host_names->len);
  g_return_if_fail (info != NULL);

  _sl_engine_query_flush (self);
  ensure_groups (self);
  g = &g_array_index (self->groups, Group, host);

  info->host = host;
  info->reference = sl_graph_get_reference (self->graph, host);
  info->relation = sl_graph_get_relation (self->graph, host);
  info->path = sl_graph_get_path (self->graph, host);
  info->synchronized = g->size >= 2;
  info->best_effort = FALSE;
  fixed = g_ptr_array_index (self->host_fixed, host);
  if (fixed != NULL)
    fixed_host_info (self, host, fixed, info);
  else
    {
      if (!info->synchronized && g->place_on != SL_HOST_NONE)
        place_host (self, host, info);
      info->reason = info->synchronized ? g_strdup ("") : unsynchronized_reason (self, host);
    }
  sl_engine_update_host_info_span (self, info);
}

/**
 * sl_engine_update_host_info_span:
 * @info: a host's info (sl_engine_get_host_info()) whose other parts still
 *   hold (sl_engine_get_hosts_stamp()): @host, @reference, @relation and
 *   @synchronized are read
 *
 * Sets what of @info follows the host's span, as sl_engine_get_host_info()
 * does: @has_span, @first, @last, @bound_ns, @bound_at, @to_reference and,
 * for a synchronized host, @reason.
 */
void
sl_engine_update_host_info_span (SlEngine   *self,
                                 SlHostInfo *info)
{
  const Fixed *fixed;

  g_return_if_fail (self != NULL);
  g_return_if_fail (info != NULL && info->host < self->host_names->len && info->relation != NULL);

  fixed = g_ptr_array_index (self->host_fixed, info->host);
  if (info->synchronized && (info->reason == NULL || *info->reason != '\0'))
    {
      g_free (info->reason);
      info->reason = g_strdup ("");
    }
  info->has_span = sl_engine_get_host_span (self, info->host, &info->first, &info->last);
  if (info->has_span)
    {
      info->bound_ns = sl_relation_max_bound (info->relation, info->first, info->last, &info->bound_at);
      if (fixed != NULL && info->reference != info->host)
        info->to_reference = fixed->to_reference;
      else
        info->to_reference = *longest_piece (info->relation, info->first, info->last);
      if (info->synchronized && !isfinite (info->bound_ns))
        {
          g_free (info->reason);
          info->reason = g_strdup_printf ("no bound from %" G_GINT64_FORMAT " ns on its clock: a link of its path "
                                          "has none there (its packets contradict each other, as with two clock "
                                          "steps close together, or they stop too far away)", info->bound_at);
        }
    }
  else
    {
      sl_relation_get_piece (info->relation, 0, &info->to_reference);
      info->bound_at = info->to_reference.origin;
      info->bound_ns = sl_relation_bound_at (info->relation, info->bound_at);
    }
}

void
sl_host_info_clear (SlHostInfo *info)
{
  g_return_if_fail (info != NULL);

  g_clear_pointer (&info->path, g_array_unref);
  g_clear_pointer (&info->relation, sl_relation_unref);
  g_clear_pointer (&info->reason, g_free);
}
