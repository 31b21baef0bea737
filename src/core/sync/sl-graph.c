/* sl-graph.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-graph-private.h"

/*
 * MST mode keeps three views of the spanning forest:
 *
 * - a link-cut forest (Sleator-Tarjan, splay based) whose nodes are the hosts
 *   and the tree edges, an edge node carrying its weight: the heaviest edge
 *   on a tree path, and the lowest common ancestor of its ends, in O(log n)
 *   amortized. Its trees keep the roots of the explicit forest below, so a
 *   query reverses no path and a swap only the short one it re-roots;
 * - a union-find over the components whose links carry upper bounds on the
 *   heaviest edge between two hosts, so that most offers that cannot enter
 *   the tree are refused in near-constant time (see uf_find);
 * - an explicit forest rooted at each component's reference, with parent
 *   pointers and subtree sizes [Jabbarifar ch. 4, DescendantSize]. A swap
 *   costs the length of the cycle it closes: sizes change only below the
 *   lowest common ancestor of the new edge's ends, the moved subtree is
 *   re-rooted along one path, and the reference can only move if it is that
 *   ancestor, and then only towards the new edge (it was a centroid, so no
 *   other subtree can exceed n/2). A link costs the depths of its ends.
 *   Removals and weight increases of tree edges scan the non-tree edges for
 *   a replacement: O(m), they are rare.
 *
 * Transforms to the reference are cached per host and validated lazily:
 * a change stamps only the hosts whose link to their parent changed (O(1)
 * each), and a query walks up to the first host already validated in the
 * current epoch, then recomputes down only the hosts whose own link or whose
 * parent's cache is newer than their cache. Nothing is recomposed per change;
 * a query recomposes only the stale part of its own path.
 *
 * Shortest-path mode reuses the explicit forest and the cache, but rebuilds
 * the touched components from scratch (Dijkstra from every host) at the next
 * query.
 */
/* Edge map: open addressing on the unordered pair. */

static inline guint64
pair_key (guint a,
          guint b)
{
  return ((guint64) MIN (a, b) << 32) | MAX (a, b);
}

static inline gsize
map_hash (guint64 key)
{
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;
  return (gsize) key;
}

static inline guint32
map_fp (guint64 key)
{
  return (guint32) (map_hash (key) >> 32);
}

static void
map_init (EdgeMap *map,
          gsize    capacity)
{
  map->slots = g_new (MapSlot, capacity);
  map->mask = capacity - 1;
  map->len = 0;
  for (gsize i = 0; i < capacity; i++)
    map->slots[i].val = NONE;
}

/* On a miss, hole (if not NULL) gets the free slot that ended the probe,
 * where map_insert() can put the key. */
static guint
map_lookup (const EdgeMap *map,
            const Edge    *edges,
            guint64        key,
            gsize         *hole)
{
  guint32 fp = map_fp (key);
  gsize i = fp & map->mask;

  /* slots and links are rarely met again soon: fetch them so that they do
   * not push the trees out of the caches */
  __builtin_prefetch (&map->slots[i], 0, 0);
  while (map->slots[i].val != NONE)
    {
      if (map->slots[i].fp == fp)
        {
          const Edge *E = &edges[map->slots[i].val];

          __builtin_prefetch (E, 0, 0);
          if (pair_key (E->a, E->b) == key)
            return map->slots[i].val;
        }
      i = (i + 1) & map->mask;
    }
  if (hole != NULL)
    *hole = i;
  return NONE;
}

static void map_put (EdgeMap *map,
                     guint32  fp,
                     guint    val);

static void
map_grow (EdgeMap *map)
{
  EdgeMap old = *map;

  map_init (map, (old.mask + 1) * 2);
  for (gsize i = 0; i <= old.mask; i++)
    if (old.slots[i].val != NONE)
      map_put (map, old.slots[i].fp, old.slots[i].val);
  g_free (old.slots);
}

static void
map_put (EdgeMap *map,
         guint32  fp,
         guint    val)
{
  gsize i;

  if ((map->len + 1) * 4 > (map->mask + 1) * 3)
    map_grow (map);

  i = fp & map->mask;
  while (map->slots[i].val != NONE)
    i = (i + 1) & map->mask;
  map->slots[i].fp = fp;
  map->slots[i].val = val;
  map->len++;
}

/* Right after a missed map_lookup() of the key. */
static void
map_insert (EdgeMap *map,
            gsize    hole,
            guint32  fp,
            guint    val)
{
  if ((map->len + 1) * 4 > (map->mask + 1) * 3)
    {
      map_put (map, fp, val);
      return;
    }
  map->slots[hole].fp = fp;
  map->slots[hole].val = val;
  map->len++;
}

/* Backward-shift deletion keeps probe chains intact without tombstones. */
static void
map_remove (EdgeMap *map,
            guint    val,
            guint64  key)
{
  MapSlot *slots = map->slots;
  gsize i = map_fp (key) & map->mask;
  gsize j;

  while (slots[i].val != val)
    {
      if (slots[i].val == NONE)
        return;
      i = (i + 1) & map->mask;
    }

  j = i;
  for (;;)
    {
      gsize k;

      j = (j + 1) & map->mask;
      if (slots[j].val == NONE)
        break;
      k = slots[j].fp & map->mask;
      if (j > i ? (k <= i || k > j) : (k <= i && k > j))
        {
          slots[i] = slots[j];
          i = j;
        }
    }
  slots[i].val = NONE;
  map->len--;
}

void
children_init (SlGraph  *self,
               Children *ch)
{
  const guint *P = self->parent;
  guint n = self->n_nodes;

  ch->start = g_new0 (guint, n + 2);
  ch->list = g_new (guint, MAX (n, 1));
  for (guint v = 0; v < n; v++)
    if (P[v] != NONE)
      ch->start[P[v] + 2]++;
  for (guint v = 0; v < n; v++)
    ch->start[v + 2] += ch->start[v + 1];
  for (guint v = 0; v < n; v++)
    if (P[v] != NONE)
      ch->list[ch->start[P[v] + 1]++] = v;
}

void
children_clear (Children *ch)
{
  g_free (ch->start);
  g_free (ch->list);
}

void
rebuild_components (SlGraph *self)
{
  const Vertex *V = self->vertices;
  const guint *P = self->parent;
  UfNode *uf = self->uf;
  guint *stack = self->buf_a;
  Children ch;

  self->n_wasted_queries = 0;
  children_init (self, &ch);
  for (guint r = 0; r < self->n_nodes; r++)
    {
      guint len = 0;

      if (P[r] != NONE)
        continue;
      uf[r].size = 0;
      stack[len++] = r;
      while (len > 0)
        {
          guint v = stack[--len];

          uf[v].parent = r;
          uf[v].bound = v == r ? 0.0 :
            MAX (uf[P[v]].bound, self->edges[V[v].parent_edge].weight);
          uf[r].size++;
          for (guint k = ch.start[v]; k < ch.start[v + 1]; k++)
            stack[len++] = ch.list[k];
        }
    }
  children_clear (&ch);
}

/* Explicit rooted forest */

static inline void
mark_changed (SlGraph *self,
              guint    v)
{
  self->cache[v].changed = ++self->epoch;
}

/* Makes sure ++mark_id can be called `count` times without wrapping onto ids
 * still stored in the marks. */
void
reserve_mark_ids (SlGraph *self,
                  guint    count)
{
  if (self->mark_id >= G_MAXUINT - count - 1)
    {
      for (guint v = 0; v < self->n_nodes; v++)
        self->vertices[v].mark = 0;
      self->mark_id = 0;
    }
}

void
set_parent (SlGraph *self,
            guint    v,
            guint    parent,
            guint    edge)
{
  self->parent[v] = parent;
  self->vertices[v].parent_edge = edge;
  mark_changed (self, v);
}

static guint
root_of (SlGraph *self,
         guint    v)
{
  const guint *P = self->parent;

  while (P[v] != NONE)
    v = P[v];
  return v;
}

/* Writes the path from v up to its root into path (v first); returns its
 * length. */
guint
collect_path (SlGraph *self,
              guint    v,
              guint   *path)
{
  const guint *P = self->parent;
  guint len = 0;

  for (; v != NONE; v = P[v])
    path[len++] = v;
  return len;
}

/* Makes v the root of its tree by reversing the path to the old root. */
void
reroot (SlGraph *self,
        guint    v)
{
  Vertex *V = self->vertices;
  guint *p = self->buf_c;
  guint k = collect_path (self, v, p) - 1;
  guint n;

  if (k == 0)
    return;

  n = V[p[k]].size;
  for (guint i = k; i >= 1; i--)
    {
      guint c = p[i - 1];

      V[p[i]].size = n - V[c].size;
      set_parent (self, p[i], c, V[c].parent_edge);
    }
  V[v].size = n;
  set_parent (self, v, NONE, NONE);
}

/* MST mode: the link-cut trees keep the explicit forest's roots. */
void
move_root (SlGraph *self,
           guint    v)
{
  reroot (self, v);
  lct_evert (self, lct_host (v));
}

/* up[len - 1] is the current root, up[i] a child of up[i + 1], and only
 * up[..len - 2] may hold more than half of the tree; returns the centroid,
 * keeping the root (or prev_other) when two vertices qualify. The path is
 * given bottom-up as the walks collect it: the search from the top rarely
 * goes further than one step. */
guint
centroid_along_path (SlGraph     *self,
                     const guint *up,
                     guint        len,
                     guint        prev_other)
{
  const Vertex *V = self->vertices;
  guint64 n = V[up[len - 1]].size;
  guint j = len - 1;

  while (j > 0 && 2 * (guint64) V[up[j - 1]].size > n)
    j--;

  if (j > 0 && 2 * (guint64) V[up[j - 1]].size == n)
    {
      guint d = up[j - 1];

      if (j == len - 1)
        return up[len - 1];
      if (d == prev_other)
        return d;
      return MIN (up[j], d);
    }
  return up[j];
}

/* Centroid of the tree rooted at root, scanning children; used after a split
 * or an unpin, where any subtree may have become the heavy one. */
guint
centroid_by_scan (SlGraph  *self,
                  guint     root,
                  gboolean  root_is_current)
{
  const Vertex *V = self->vertices;
  guint64 n = V[root].size;
  guint c = root;
  Children ch;

  children_init (self, &ch);
  for (;;)
    {
      guint next = NONE;

      for (guint k = ch.start[c]; k < ch.start[c + 1]; k++)
        if (2 * (guint64) V[ch.list[k]].size > n)
          {
            next = ch.list[k];
            break;
          }
      if (next == NONE)
        break;
      c = next;
    }

  if (c != root || !root_is_current)
    for (guint k = ch.start[c]; k < ch.start[c + 1]; k++)
      if (2 * (guint64) V[ch.list[k]].size == n)
        {
          c = MIN (c, ch.list[k]);
          break;
        }
  children_clear (&ch);
  return c;
}

/* Journal */

typedef struct
{
  guint64 seq;
  guint   node;
} Unsettled;

void
journal_edge (SlGraph      *self,
              SlChangeKind  kind,
              guint         e,
              const char   *reason)
{
  const Edge *E = &self->edges[e];
  SlQuality quality = SL_QUALITY_ABSENT;

  if (self->journal == NULL)
    return;
  if (kind == SL_CHANGE_TREE_EDGE_IN || (E->flags & EDGE_LIVE))
    quality = SL_QUALITY_ACCURATE;
  sl_journal_add (self->journal, kind, MIN (E->a, E->b), MAX (E->a, E->b),
                  quality, E->weight, reason);
}

void
journal_reference (SlGraph    *self,
                   guint       old_ref,
                   guint       new_ref,
                   const char *reason)
{
  self->n_reference_changes++;
  if (self->journal != NULL)
    sl_journal_add (self->journal, SL_CHANGE_REFERENCE, old_ref, new_ref,
                    SL_QUALITY_ABSENT, NAN, reason);
}

/* The entry's bound is filled in by settle_journal(), at the next
 * sl_graph_commit(): composing the path's relations at each swap and each
 * link update cost most of a live refresh. It is the subtree's bound once
 * the changes made together are applied. */
void
journal_transform (SlGraph    *self,
                   guint       subtree,
                   guint       ref,
                   const char *reason)
{
  Unsettled u;

  if (self->journal == NULL)
    return;
  u.seq = sl_journal_get_next_seq (self->journal);
  u.node = subtree;
  sl_journal_add (self->journal, SL_CHANGE_TRANSFORM, subtree, ref, SL_QUALITY_ABSENT, NAN, reason);
  g_array_append_val (self->unsettled, u);
}

static void
settle_journal (SlGraph *self)
{
  for (guint i = 0; i < self->unsettled->len; i++)
    {
      const Unsettled *u = &g_array_index (self->unsettled, Unsettled, i);

      ensure_cache (self, u->node);
      sl_journal_set_value (self->journal, u->seq, self->cache[u->node].bound);
    }
  g_array_set_size (self->unsettled, 0);
}

guint
tree_root (const SlGraph *self,
           guint          v)
{
  while (self->parent[v] != NONE)
    v = self->parent[v];
  return v;
}

/* One entry for the hosts whose transform changed: all of the component if
 * the reference moved, else the subtree below `subtree`. */
void
journal_outcome (SlGraph    *self,
                 guint       old_ref,
                 guint       new_ref,
                 guint       subtree,
                 const char *reason)
{
  if (new_ref != old_ref)
    journal_reference (self, old_ref, new_ref, "centroid moved");
  else
    journal_transform (self, subtree, new_ref, reason);
}

/* Transform cache */

static void
edge_link_transform (const Edge  *E,
                     guint        from,
                     SlTransform *out)
{
  if (from == E->a)
    *out = E->a_to_b;
  else
    sl_transform_invert (&E->a_to_b, out);
}

/* The edge's relation walked from @from (a linear one wrapped on demand). */
static const SlRelation *
edge_link_relation (Edge  *E,
                    guint  from)
{
  const SlRelation *fwd = E->rel;

  if (fwd == NULL)
    {
      if (E->rel_lin == NULL)
        E->rel_lin = sl_relation_new_linear (&E->a_to_b, E->bound);
      fwd = E->rel_lin;
    }
  if (from == E->a)
    return fwd;
  if (E->rel_inv == NULL)
    E->rel_inv = sl_relation_invert (fwd);
  return E->rel_inv;
}

void
ensure_cache (SlGraph *self,
              guint    v)
{
  const Vertex *V = self->vertices;
  const guint *P = self->parent;
  Cache *C = self->cache;
  guint *stack = self->buf_c;
  guint len = 0;
  guint y = v;

  if (C[v].verified == self->epoch)
    return;

  stack[len++] = y;
  while (P[y] != NONE && C[P[y]].verified != self->epoch)
    {
      y = P[y];
      stack[len++] = y;
    }

  for (guint i = len; i-- > 0;)
    {
      guint p;

      y = stack[i];
      p = P[y];

      if (p == NONE)
        {
          if (C[y].changed > C[y].stamp || C[y].ref != y)
            {
              sl_transform_init_identity (&C[y].to_ref);
              C[y].bound = 0.0;
              g_clear_pointer (&C[y].rel, sl_relation_unref);
              g_clear_pointer (&C[y].memo, sl_compose_memo_free);
              C[y].ref = y;
              C[y].stamp = self->epoch;
            }
        }
      else if (C[y].changed > C[y].stamp || C[p].stamp > C[y].stamp)
        {
          Edge *E = &self->edges[V[y].parent_edge];

          g_clear_pointer (&C[y].rel, sl_relation_unref);
          if (E->rel == NULL && C[p].rel == NULL)
            {
              SlTransform link;

              edge_link_transform (E, y, &link);
              sl_transform_compose (&C[p].to_ref, &link, &C[y].to_ref);
              C[y].bound = C[p].bound +
                           fabs (sl_transform_get_slope (&C[p].to_ref)) * E->bound;
              g_clear_pointer (&C[y].memo, sl_compose_memo_free);
            }
          else
            {
              g_autoptr(SlRelation) up = C[p].rel != NULL ? sl_relation_ref (C[p].rel)
                                                          : sl_relation_new_linear (&C[p].to_ref, C[p].bound);

              C[y].rel = sl_relation_compose_update (up, edge_link_relation (E, y), &C[y].memo);
              sl_relation_get_piece (C[y].rel, 0, &C[y].to_ref);
              C[y].bound = sl_relation_bound_at (C[y].rel, C[y].to_ref.origin);
            }
          C[y].ref = C[p].ref;
          C[y].stamp = self->epoch;
        }
      C[y].verified = self->epoch;
    }
}

/* Edges */

static guint
edge_alloc (SlGraph *self)
{
  guint e;

  if (self->free_edge != NONE)
    {
      e = self->free_edge;
      self->free_edge = self->edges[e].a;
    }
  else
    {
      if (self->n_edges == self->edges_cap)
        {
          self->edges_cap = MAX (64, self->edges_cap * 2);
          self->edges = g_renew (Edge, self->edges, self->edges_cap);
        }
      e = self->n_edges++;
    }
  memset (&self->edges[e], 0, sizeof (Edge));
  self->edges[e].slot = NONE;
  return e;
}

void
edge_free (SlGraph *self,
           guint    e)
{
  g_clear_pointer (&self->edges[e].rel, sl_relation_unref);
  g_clear_pointer (&self->edges[e].rel_lin, sl_relation_unref);
  g_clear_pointer (&self->edges[e].rel_inv, sl_relation_unref);
  g_clear_pointer (&self->edges[e].floor, g_free);
  self->edges[e].flags = 0;
  self->edges[e].a = self->free_edge;
  self->free_edge = e;
}

/* Public API
 *
 * Queries change nothing: what they return, and what the journal says,
 * must not depend on when they come (a job's snapshots are paced by CPU
 * time). Between two sl_graph_commit() they see the shortest-path tree of
 * the last one, with the links' current maps (a tree link's new map marks
 * its subtree at once, update_edge()): each link's map holds on its own,
 * so any tree of them gives guaranteed bounds, and an answer is a function
 * of the changes made, not of the queries before it. Recomputing in a
 * query without journaling would be no cheaper (Dijkstra from every host)
 * and would move the next commit's starting tree, on which its hysteresis
 * and tie-breaks depend. */

SlGraph *
sl_graph_new (SlTreeKind  kind,
              SlJournal  *journal)
{
  SlGraph *self = g_new0 (SlGraph, 1);

  self->kind = kind;
  self->journal = journal;
  self->pinned = NONE;
  self->free_edge = NONE;
  self->free_slot = NONE;
  self->epoch = 1;
  self->lct = g_new0 (LctNode, 1);
  self->lct_stack = g_new0 (guint, 1);
  self->dead_edges = g_array_new (FALSE, FALSE, sizeof (guint));
  self->unsettled = g_array_new (FALSE, FALSE, sizeof (Unsettled));
  map_init (&self->map, 64);
  return self;
}

void
sl_graph_free (SlGraph *self)
{
  if (self == NULL)
    return;

  for (guint v = 0; v < self->n_nodes; v++)
    {
      g_clear_pointer (&self->cache[v].rel, sl_relation_unref);
      g_clear_pointer (&self->cache[v].memo, sl_compose_memo_free);
    }
  for (guint e = 0; e < self->n_edges; e++)
    {
      g_clear_pointer (&self->edges[e].rel, sl_relation_unref);
      g_clear_pointer (&self->edges[e].rel_lin, sl_relation_unref);
      g_clear_pointer (&self->edges[e].rel_inv, sl_relation_unref);
      g_free (self->edges[e].floor);
    }
  g_free (self->parent);
  g_free (self->vertices);
  g_free (self->cache);
  g_free (self->dirty);
  g_free (self->edges);
  g_free (self->map.slots);
  g_free (self->lct);
  g_free (self->lct_stack);
  g_free (self->slot_edge);
  g_array_unref (self->dead_edges);
  g_array_unref (self->unsettled);
  g_free (self->uf);
  g_free (self->buf_a);
  g_free (self->buf_b);
  g_free (self->buf_c);
  g_free (self);
}

SlTreeKind
sl_graph_get_kind (const SlGraph *self)
{
  g_return_val_if_fail (self != NULL, SL_TREE_MST);

  return self->kind;
}

guint
sl_graph_add_node (SlGraph *self)
{
  guint v;
  Vertex *V;

  g_return_val_if_fail (self != NULL, NONE);
  g_return_val_if_fail (self->n_nodes < (1u << 30) - 1, NONE);

  if (self->n_nodes == self->cap)
    {
      guint old = self->cap;
      guint cap = MAX (16, old * 2);

      self->parent = g_renew (guint, self->parent, cap);
      self->vertices = g_renew (Vertex, self->vertices, cap);
      self->cache = g_renew (Cache, self->cache, cap);
      self->dirty = g_renew (guint8, self->dirty, cap);
      self->slot_edge = g_renew (guint, self->slot_edge, cap);
      self->uf = g_renew (UfNode, self->uf, cap);
      self->buf_a = g_renew (guint, self->buf_a, cap);
      self->buf_b = g_renew (guint, self->buf_b, cap);
      self->buf_c = g_renew (guint, self->buf_c, cap);
      self->lct = g_renew (LctNode, self->lct, 2 * (gsize) cap + 1);
      self->lct_stack = g_renew (guint, self->lct_stack, 2 * (gsize) cap + 1);
      memset (self->lct + 2 * (gsize) old + 1, 0,
              sizeof (LctNode) * 2 * (gsize) (cap - old));
      self->cap = cap;
    }

  v = self->n_nodes++;
  V = &self->vertices[v];
  self->parent[v] = NONE;
  V->parent_edge = NONE;
  V->size = 1;
  memset (&self->cache[v], 0, sizeof (Cache));
  self->cache[v].ref = NONE;
  V->mark = 0;
  self->dirty[v] = FALSE;
  self->uf[v].parent = v;
  self->uf[v].size = 1;
  self->uf[v].bound = 0.0;
  mark_changed (self, v);

  memset (&self->lct[lct_host (v)], 0, sizeof (LctNode));
  self->lct[lct_host (v)].val = -1.0;
  lct_pull (self->lct, lct_host (v));

  return v;
}

guint
sl_graph_get_n_nodes (const SlGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_nodes;
}

/* With a dwell, the weight the tree sees is the least the link was given
 * over the last dwell of input time (up to a quarter more): a link that
 * gets lighter is offered at once, one that gets heavier counts as such
 * only once it has stayed so for the whole dwell. A live link's bound
 * jumps for a second or two when the machine is loaded (round trips
 * delayed by the scheduler); with the margin alone, near-equal links
 * swapped, and the reference with them, at each such jump. */
static double
floor_weight (SlGraph *self,
              Edge    *E,
              double   weight)
{
  gint64 width = MAX (self->dwell / (DWELL_BUCKETS - 1), 1);
  gint64 bucket = self->now / width - (self->now % width < 0);
  Floor *f = E->floor;
  double least = INFINITY;

  if (f == NULL)
    {
      f = E->floor = g_new (Floor, 1);
      f->last = bucket;
      f->pos = 0;
      for (guint k = 0; k < DWELL_BUCKETS; k++)
        f->least[k] = INFINITY;
    }
  /* the buckets passed are emptied; an earlier time (links' change times
   * need not come in order) counts in the current one */
  if (bucket > f->last)
    {
      guint64 n = MIN ((guint64) bucket - (guint64) f->last, DWELL_BUCKETS);

      for (guint64 k = 0; k < n; k++)
        {
          f->pos = (f->pos + 1) % DWELL_BUCKETS;
          f->least[f->pos] = INFINITY;
        }
      f->last = bucket;
    }
  f->least[f->pos] = MIN (f->least[f->pos], weight);
  for (guint k = 0; k < DWELL_BUCKETS; k++)
    least = MIN (least, f->least[k]);
  return least;
}

static void
update_edge (SlGraph           *self,
             guint              a,
             guint              b,
             double             weight,
             const SlTransform *a_to_b,
             double             bound_ns,
             SlRelation        *rel)
{
  SlTransform tf;
  gboolean tf_changed;
  double old_weight;
  guint64 key;
  gsize hole;
  guint e;
  Edge *E;

  if (!(weight >= 0.0) || isinf (weight))
    {
      sl_graph_remove_edge (self, a, b);
      return;
    }

  /* most offers stop at the union-find: overlap its misses with the map's */
  if (self->kind == SL_TREE_MST)
    {
      __builtin_prefetch (&self->uf[a]);
      __builtin_prefetch (&self->uf[b]);
    }

  if (a_to_b != NULL)
    tf = *a_to_b;
  else
    sl_transform_init_identity (&tf);

  key = pair_key (a, b);
  e = map_lookup (&self->map, self->edges, key, &hole);

  if (e == NONE)
    {
      e = edge_alloc (self);
      E = &self->edges[e];
      if (self->dwell > 0)
        weight = floor_weight (self, E, weight);
      E->a = a;
      E->b = b;
      E->flags = EDGE_LIVE;
      E->weight = weight;
      E->bound = bound_ns;
      E->a_to_b = tf;
      E->rel = rel != NULL ? sl_relation_ref (rel) : NULL;
      map_insert (&self->map, hole, map_fp (key), e);

      if (self->kind == SL_TREE_SHORTEST_PATH)
        {
          sp_touch (self, a);
          sp_touch (self, b);
        }
      else
        mst_offer (self, e, "lighter edge closes a cycle");
      return;
    }

  E = &self->edges[e];
  tf_changed = E->a != a ||
               E->rel != rel ||
               E->bound != bound_ns ||
               E->a_to_b.origin != tf.origin ||
               E->a_to_b.image != tf.image ||
               E->a_to_b.image_frac != tf.image_frac ||
               E->a_to_b.drift != tf.drift;
  if (self->dwell > 0)
    weight = floor_weight (self, E, weight);
  old_weight = E->weight;
  if (!tf_changed && weight == old_weight)
    return;

  E->a = a;
  E->b = b;
  E->a_to_b = tf;
  E->bound = bound_ns;
  E->weight = weight;
  if (tf_changed)
    {
      if (rel != NULL)
        sl_relation_ref (rel);
      g_clear_pointer (&E->rel, sl_relation_unref);
      g_clear_pointer (&E->rel_lin, sl_relation_unref);
      g_clear_pointer (&E->rel_inv, sl_relation_unref);
      E->rel = rel;
    }

  if (self->kind == SL_TREE_SHORTEST_PATH)
    {
      if (tf_changed)
        {
          E->flags |= EDGE_TF_CHANGED;
          if (E->flags & EDGE_IN_TREE)
            mark_changed (self, child_endpoint (self, e));
        }
      sp_touch (self, a);
      sp_touch (self, b);
      return;
    }

  if (!(E->flags & EDGE_IN_TREE))
    {
      if (weight < old_weight)
        mst_offer (self, e, "lighter edge closes a cycle");
      return;
    }

  if (weight > old_weight)
    {
      if (mst_degrade (self, e))
        return;
    }
  else if (weight != old_weight)
    lct_set_weight (self, e);
  if (tf_changed)
    {
      guint y = child_endpoint (self, e);

      mark_changed (self, y);
      journal_transform (self, y, tree_root (self, y), "link transform updated");
    }
}

/**
 * sl_graph_update_edge:
 * @a_to_b: the link's affine map from @a's clock to @b's
 * @bound_ns: its bound, the same at every instant
 *
 * Adds the link or updates its weight and map. A weight that is NAN,
 * negative or infinite removes it.
 */
void
sl_graph_update_edge (SlGraph           *self,
                      guint              a,
                      guint              b,
                      double             weight,
                      const SlTransform *a_to_b,
                      double             bound_ns)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (a < self->n_nodes);
  g_return_if_fail (b < self->n_nodes);
  g_return_if_fail (a != b);

  update_edge (self, a, b, weight, a_to_b, bound_ns, NULL);
}

/**
 * sl_graph_update_edge_relation:
 * @a_to_b: the link's relation from @a's clock to @b's, with its bound at
 *   every instant (the graph takes a reference; the same pointer means the
 *   same relation)
 *
 * Like sl_graph_update_edge() for a piecewise relation or a bound that
 * varies in time; hosts' relations to their references are composed from
 * these exactly (sl_graph_get_relation()).
 */
void
sl_graph_update_edge_relation (SlGraph    *self,
                               guint       a,
                               guint       b,
                               double      weight,
                               SlRelation *a_to_b)
{
  SlTransform first;

  g_return_if_fail (self != NULL);
  g_return_if_fail (a < self->n_nodes);
  g_return_if_fail (b < self->n_nodes);
  g_return_if_fail (a != b);
  g_return_if_fail (a_to_b != NULL);

  sl_relation_get_piece (a_to_b, 0, &first);
  update_edge (self, a, b, weight, &first, sl_relation_bound_at (a_to_b, first.origin), a_to_b);
}

void
sl_graph_remove_edge (SlGraph *self,
                      guint    a,
                      guint    b)
{
  guint64 key;
  guint e;

  g_return_if_fail (self != NULL);
  g_return_if_fail (a < self->n_nodes);
  g_return_if_fail (b < self->n_nodes);

  key = pair_key (a, b);
  e = map_lookup (&self->map, self->edges, key, NULL);
  if (e == NONE)
    return;

  if (self->kind == SL_TREE_SHORTEST_PATH)
    {
      map_remove (&self->map, e, key);
      sp_touch (self, a);
      sp_touch (self, b);
      /* a tree edge stays in the forest until the next recomputation
       * replaces it and journals its removal */
      if (self->edges[e].flags & EDGE_IN_TREE)
        {
          self->edges[e].flags &= ~EDGE_LIVE;
          g_array_append_val (self->dead_edges, e);
        }
      else
        edge_free (self, e);
      return;
    }

  self->edges[e].flags &= ~EDGE_LIVE;
  mst_remove (self, e);
  map_remove (&self->map, e, key);
  edge_free (self, e);
}

void
sl_graph_pin_reference (SlGraph *self,
                        guint    node)
{
  guint old;

  g_return_if_fail (self != NULL);
  g_return_if_fail (node == NONE || node < self->n_nodes);

  old = self->pinned;
  if (old == node)
    return;
  self->pinned = node;

  /* a pin is an input of its own: applied now, as the MST does */
  if (self->kind == SL_TREE_SHORTEST_PATH)
    {
      if (node != NONE)
        sp_touch (self, node);
      if (old != NONE)
        sp_touch (self, old);
      sp_recompute (self);
      settle_journal (self);
      return;
    }

  if (node != NONE)
    {
      guint r = root_of (self, node);

      if (r != node)
        {
          move_root (self, node);
          journal_reference (self, r, node, "pinned");
        }
    }

  /* the old pin, if still a root, is in another component: back to its
   * centroid */
  if (old != NONE && self->parent[old] == NONE)
    {
      guint c = centroid_by_scan (self, old, TRUE);

      if (c != old)
        {
          move_root (self, c);
          journal_reference (self, old, c, "unpinned");
        }
    }
}

/**
 * sl_graph_set_margin:
 * @margin: relative margin (0.1: 10 %), finite and >= 0
 *
 * Hysteresis. MST: a link outside the tree replaces a tree edge only when
 * its weight times (1 + @margin) is below the tree edge's; the heaviest
 * edge on any host's path is then at most (1 + @margin) times the least
 * possible. Shortest paths: the reference stays while its sum of
 * distances is at most (1 + @margin) times the least. Bounds are always
 * those of the tree kept, from the current weights and maps. Set it
 * before the first edge.
 */
void
sl_graph_set_margin (SlGraph *self,
                     double   margin)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (margin >= 0.0 && isfinite (margin));
  g_return_if_fail (self->map.len == 0);

  self->margin = margin;
}

/**
 * sl_graph_set_dwell:
 * @dwell_ns: input time (ns, >= 0) a link must stay heavier before the
 *   tree sees it so
 *
 * The weight a link is given in the tree is the least it was given over
 * the last @dwell_ns of input time (sl_graph_set_time()), up to a quarter
 * more: a lighter link counts at once, a heavier one only once it has
 * stayed heavier that long. With the margin, a tree link is replaced by a
 * link that has been lighter by the margin for that long (or at once when
 * it is removed); the margin's guarantee holds for these weights. 0, the
 * default, uses the weights as given. Set it before the first edge.
 */
void
sl_graph_set_dwell (SlGraph *self,
                    gint64   dwell_ns)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (dwell_ns >= 0);
  g_return_if_fail (self->map.len == 0);

  self->dwell = dwell_ns;
}

/**
 * sl_graph_set_time:
 * @now: the input time of the changes that follow
 */
void
sl_graph_set_time (SlGraph *self,
                   gint64   now)
{
  g_return_if_fail (self != NULL);

  self->now = now;
}

double
sl_graph_get_margin (const SlGraph *self)
{
  g_return_val_if_fail (self != NULL, 0.0);

  return self->margin;
}

guint
sl_graph_get_pinned (const SlGraph *self)
{
  g_return_val_if_fail (self != NULL, NONE);

  return self->pinned;
}

gboolean
sl_graph_edge_in_tree (SlGraph *self,
                       guint    a,
                       guint    b)
{
  guint e;

  g_return_val_if_fail (self != NULL, FALSE);

  if (a == b || a >= self->n_nodes || b >= self->n_nodes)
    return FALSE;
  e = map_lookup (&self->map, self->edges, pair_key (a, b), NULL);
  return e != NONE && (self->edges[e].flags & EDGE_IN_TREE) != 0;
}

guint
sl_graph_get_reference (SlGraph *self,
                        guint    node)
{
  g_return_val_if_fail (self != NULL, NONE);
  g_return_val_if_fail (node < self->n_nodes, NONE);

  ensure_cache (self, node);
  return self->cache[node].ref;
}

guint
sl_graph_get_parent (SlGraph *self,
                     guint    node)
{
  g_return_val_if_fail (self != NULL, NONE);
  g_return_val_if_fail (node < self->n_nodes, NONE);

  return self->parent[node];
}

void
sl_graph_get_transform (SlGraph     *self,
                        guint        node,
                        SlTransform *to_reference,
                        double      *bound_ns)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (node < self->n_nodes);

  ensure_cache (self, node);
  if (to_reference != NULL)
    *to_reference = self->cache[node].to_ref;
  if (bound_ns != NULL)
    *bound_ns = self->cache[node].bound;
}

/**
 * sl_graph_get_relation:
 *
 * Returns: (transfer full): @node's relation to its reference: the exact
 * composition of the links' relations along its tree path, bounds added
 * instant by instant (the identity for a reference)
 */
SlRelation *
sl_graph_get_relation (SlGraph *self,
                       guint    node)
{
  Cache *c;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  ensure_cache (self, node);
  c = &self->cache[node];
  if (c->rel == NULL)
    c->rel = sl_relation_new_linear (&c->to_ref, c->bound);
  return sl_relation_ref (c->rel);
}

/**
 * sl_graph_commit:
 *
 * Applies the link changes made since the last commit as one batch: the
 * shortest-path tree and references are recomputed here, and only here
 * (the MST applies each change as it comes), and the transform entries'
 * bounds are filled in. Call it at points the input defines (the engine
 * does at the end of each flush of its links) so that the journal does not
 * depend on when the graph is read.
 */
void
sl_graph_commit (SlGraph *self)
{
  g_return_if_fail (self != NULL);

  if (self->kind == SL_TREE_SHORTEST_PATH)
    sp_recompute (self);
  settle_journal (self);
}

/**
 * sl_graph_settle_journal:
 *
 * Fills in the bounds of the transform entries journaled since the last
 * commit, with the graph as it is (see journal_transform()).
 */
void
sl_graph_settle_journal (SlGraph *self)
{
  g_return_if_fail (self != NULL);

  settle_journal (self);
}

GArray *
sl_graph_get_path (SlGraph *self,
                   guint    node)
{
  GArray *path;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  path = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint v = node; v != NONE; v = self->parent[v])
    g_array_append_val (path, v);
  return path;
}

guint64
sl_graph_get_n_tree_changes (const SlGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_tree_changes;
}

guint64
sl_graph_get_n_reference_changes (const SlGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_reference_changes;
}
