/* sl-graph.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-graph.h"
#include "sl-heap.h"
#include "sl-relation.h"

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

#define NONE SL_HOST_NONE

enum
{
  EDGE_LIVE = 1 << 0,
  EDGE_IN_TREE = 1 << 1,
  EDGE_TF_CHANGED = 1 << 2,
};

typedef struct
{
  guint       a;
  guint       b;
  guint       slot;
  guint       flags;
  double      weight;
  double      bound;
  SlTransform a_to_b;
  SlRelation *rel;
  SlRelation *rel_lin;
  SlRelation *rel_inv;
} Edge;

/* The parents are an array of their own: the walks up the trees chase
 * them, and a compact array of them stays in the caches better. */
typedef struct
{
  guint parent_edge;
  guint size;
  guint mark;
} Vertex;

/* rel is NULL while the whole path is linear with constant bounds: then
 * to_ref and bound say all. */
typedef struct
{
  SlTransform to_ref;
  double      bound;
  SlRelation *rel;
  guint64     changed;
  guint64     stamp;
  guint64     verified;
  guint       ref;
} Cache;

typedef struct
{
  guint  parent;
  guint  size;
  double bound;
} UfNode;

/* Link-cut node; index 0 is the nil sentinel, host v is 2v+1 and tree-edge
 * slot k is 2k+2 (a forest has fewer tree edges than hosts). The top bit of
 * `best` is the pending reversal, to keep nodes at 32 bytes. */
typedef struct
{
  guint  ch[2];
  guint  par;
  guint  best;
  double val;
  double best_val;
} LctNode;

#define LCT_REV (1u << 31)

/* A slot holds 32 bits of the pair's hash (which also give its home slot)
 * and the edge; a match is confirmed on the edge itself, which the caller
 * reads next anyway. Eight-byte slots keep the table small. */
typedef struct
{
  guint32 fp;
  guint32 val;
} MapSlot;

typedef struct
{
  MapSlot *slots;
  gsize    mask;
  gsize    len;
} EdgeMap;

struct _SlGraph
{
  SlTreeKind  kind;
  SlJournal  *journal;

  guint       n_nodes;
  guint       cap;
  guint      *parent;
  Vertex     *vertices;
  Cache      *cache;
  guint       mark_id;
  guint8     *dirty;
  UfNode     *uf;
  guint       n_wasted_queries;

  Edge       *edges;
  guint       n_edges;
  guint       edges_cap;
  guint       free_edge;
  EdgeMap     map;

  LctNode    *lct;
  guint      *lct_stack;
  guint      *slot_edge;
  guint       n_slots;
  guint       free_slot;

  guint       pinned;
  double      margin;
  guint64     epoch;
  guint64     n_tree_changes;
  guint64     n_reference_changes;

  gboolean    sp_dirty;
  GArray     *dead_edges;
  GArray     *unsettled;

  /* scratch paths and stacks, n entries each */
  guint      *buf_a;
  guint      *buf_b;
  guint      *buf_c;
};

static void ensure_cache (SlGraph *self,
                          guint    v);

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

/* Link-cut trees */

static inline gboolean
lct_is_root (const LctNode *t,
             guint          x)
{
  guint p = t[x].par;

  return p == 0 || (t[p].ch[0] != x && t[p].ch[1] != x);
}

static inline void
lct_push (LctNode *t,
          guint    x)
{
  if (t[x].best & LCT_REV)
    {
      guint l = t[x].ch[0];
      guint r = t[x].ch[1];

      t[x].ch[0] = r;
      t[x].ch[1] = l;
      if (l)
        t[l].best ^= LCT_REV;
      if (r)
        t[r].best ^= LCT_REV;
      t[x].best &= ~LCT_REV;
    }
}

static inline void
lct_pull (LctNode *t,
          guint    x)
{
  guint best = x;
  double v = t[x].val;

  for (guint i = 0; i < 2; i++)
    {
      guint c = t[x].ch[i];

      if (c && t[c].best_val > v)
        {
          v = t[c].best_val;
          best = t[c].best & ~LCT_REV;
        }
    }
  t[x].best = best | (t[x].best & LCT_REV);
  t[x].best_val = v;
}

/* Rotates x above its parent p; g is p's parent in the splay tree, or 0 if p
 * is the root of it (x then inherits p's path-parent). */
static inline void
lct_rotate (LctNode *t,
            guint    x,
            guint    p,
            guint    g)
{
  guint dir = t[p].ch[1] == x;
  guint c = t[x].ch[!dir];

  if (g)
    t[g].ch[t[g].ch[1] == p] = x;
  t[x].par = g ? g : t[p].par;
  t[x].ch[!dir] = p;
  t[p].par = x;
  t[p].ch[dir] = c;
  if (c)
    t[c].par = p;
  lct_pull (t, p);
}

/* The splay ancestors of x are collected once (they are needed top-down to
 * push reversals), so the rotations need no more root tests. x is left
 * unpulled: every caller changes its children or its value next, or drops
 * it, and pulls then if needed. */
static void
lct_splay (SlGraph *self,
           guint    x)
{
  LctNode *t = self->lct;
  guint *stack = self->lct_stack;
  guint n = 0;
  guint i;

  stack[n++] = x;
  while (!lct_is_root (t, stack[n - 1]))
    {
      stack[n] = t[stack[n - 1]].par;
      n++;
    }
  for (i = n; i-- > 0;)
    lct_push (t, stack[i]);

  for (i = 1; i < n; i += 2)
    {
      guint p = stack[i];
      guint g = i + 1 < n ? stack[i + 1] : 0;
      guint gg = i + 2 < n ? stack[i + 2] : 0;

      if (!g)
        lct_rotate (t, x, p, 0);
      else if ((t[g].ch[1] == p) == (t[p].ch[1] == x))
        {
          lct_rotate (t, p, g, gg);
          lct_rotate (t, x, p, gg);
        }
      else
        {
          lct_rotate (t, x, p, g);
          lct_rotate (t, x, g, gg);
        }
    }
}

/* Makes the path from the root to x preferred; returns the root of its
 * splay tree, before the final splay of x that a full access adds. */
static guint
lct_expose (SlGraph *self,
            guint    x)
{
  LctNode *t = self->lct;
  guint last = 0;

  for (guint y = x; y; y = t[y].par)
    {
      lct_splay (self, y);
      t[y].ch[1] = last;
      lct_pull (t, y);
      last = y;
    }
  return last;
}

/* Makes x the root of its tree; returns the root of the splay tree holding
 * the path from x, with no path-parent. Reversing that whole splay tree
 * reverses the path: x need not be splayed to its root first (the amortized
 * bound of an access does not need that final splay either). Links and
 * moves of a reference need this; queries and swaps do not. */
static guint
lct_evert (SlGraph *self,
           guint    x)
{
  guint top = lct_expose (self, x);

  self->lct[top].best ^= LCT_REV;
  return top;
}

static inline guint
lct_host (guint v)
{
  return 2 * v + 1;
}

static inline guint
lct_slot (guint k)
{
  return 2 * k + 2;
}

/* Gives tree edge e a fresh, unattached link-cut node. */
static guint
lct_slot_alloc (SlGraph *self,
                guint    e)
{
  Edge *E = &self->edges[e];
  guint k;
  guint x;

  if (self->free_slot != NONE)
    {
      k = self->free_slot;
      self->free_slot = self->slot_edge[k];
    }
  else
    k = self->n_slots++;
  g_assert (k < self->cap);

  E->slot = k;
  self->slot_edge[k] = e;
  x = lct_slot (k);
  memset (&self->lct[x], 0, sizeof (LctNode));
  self->lct[x].val = E->weight;
  lct_pull (self->lct, x);
  return x;
}

static void
lct_slot_free (SlGraph *self,
               guint    e)
{
  Edge *E = &self->edges[e];

  self->slot_edge[E->slot] = self->free_slot;
  self->free_slot = E->slot;
  E->slot = NONE;
}

static inline guint
lct_node_edge (SlGraph *self,
               guint    x)
{
  return self->slot_edge[(x - 2) / 2];
}

/* The link-cut node of the heaviest tree edge on the path a..b (connected),
 * its weight and the lowest common ancestor of a and b. The link-cut trees
 * are rooted like the explicit forest, so no query reverses a path: a is
 * accessed, then b's access stops at the splay tree holding the root, at
 * the common ancestor, where the two halves of the path hang: the part
 * towards a below it, the part towards b as the last splay tree met. Each
 * half is then one splay tree ending at a or at b, which is what
 * lct_replace() expects. */
static guint
lct_query (SlGraph *self,
           guint    a,
           guint    b,
           double  *weight,
           guint   *lca)
{
  LctNode *t = self->lct;
  guint last = 0;
  guint best = 0;
  double best_val = -1.0;

  lct_expose (self, lct_host (a));
  for (guint y = lct_host (b); ; y = t[y].par)
    {
      lct_splay (self, y);
      if (t[y].par == 0)
        {
          guint below = t[y].ch[1];

          if (below != 0)
            {
              best = t[below].best & ~LCT_REV;
              best_val = t[below].best_val;
            }
          if (last != 0 && t[last].best_val > best_val)
            {
              best = t[last].best & ~LCT_REV;
              best_val = t[last].best_val;
            }
          g_assert (y & 1);
          t[y].ch[1] = last;
          lct_pull (t, y);
          *lca = (y - 1) / 2;
          break;
        }
      t[y].ch[1] = last;
      lct_pull (t, y);
      last = y;
    }

  g_assert (best_val >= 0.0 && (best & 1) == 0);
  /* the weight is at hand; the edge record is far, and a swap writes it */
  __builtin_prefetch (&self->edges[lct_node_edge (self, best)], 1);
  if (weight != NULL)
    *weight = best_val;
  return best;
}

/* Right after lct_query (f's ends): tree edge e, node x on that path,
 * leaves and f takes its place. Splaying x splits its half of the path into
 * the part above x and the part below, from e's child end y down to the end
 * w of f inside y's subtree; reversing the latter re-roots that subtree at
 * w, which then hangs below f's node, below f's other end. x was in the
 * splay tree holding the root (no path-parent) iff it is on the half
 * towards f->b. Returns w. */
static guint
lct_replace (SlGraph *self,
             guint    x,
             guint    e,
             guint    f)
{
  LctNode *t = self->lct;
  const Edge *F = &self->edges[f];
  guint l, r, y, w, u;

  lct_splay (self, x);
  w = t[x].par == 0 ? F->b : F->a;
  u = w == F->a ? F->b : F->a;
  l = t[x].ch[0];
  r = t[x].ch[1];
  g_assert (r != 0);
  if (l != 0)
    t[l].par = t[x].par;
  t[x].ch[0] = 0;
  t[x].ch[1] = 0;
  lct_slot_free (self, e);

  y = lct_slot_alloc (self, f);
  t[y].par = lct_host (u);
  t[r].par = y;
  t[r].best ^= LCT_REV;
  return w;
}

/* Tree edge e, whose child end is y, leaves without a replacement. */
static void
lct_cut_edge (SlGraph *self,
              guint    e,
              guint    y)
{
  LctNode *t = self->lct;
  guint x = lct_slot (self->edges[e].slot);
  guint l, r;

  lct_expose (self, lct_host (y));
  lct_splay (self, x);
  l = t[x].ch[0];
  r = t[x].ch[1];
  g_assert (l != 0 && r == lct_host (y) && t[x].par == 0);
  t[x].ch[0] = 0;
  t[x].ch[1] = 0;
  t[l].par = 0;
  t[r].par = 0;
  lct_slot_free (self, e);
}

/* Edge e joins two trees: g's, re-rooted at g, goes below h. */
static void
lct_link_edge (SlGraph *self,
               guint    e,
               guint    g,
               guint    h)
{
  guint y = lct_slot_alloc (self, e);

  self->lct[y].par = lct_host (h);
  self->lct[lct_evert (self, lct_host (g))].par = y;
}

/* Only x's own splay tree aggregates its value, and splaying x to the root of
 * that tree is O(log n) amortized on its own: no access is needed. */
static void
lct_set_weight (SlGraph *self,
                guint    e)
{
  guint x = lct_slot (self->edges[e].slot);

  lct_splay (self, x);
  self->lct[x].val = self->edges[e].weight;
  lct_pull (self->lct, x);
}

/* Components: a union-find whose links carry upper bounds on the minimax
 * distance (the heaviest edge on the tree path; an ultrametric). With
 * bound(v) the heaviest link up v's chain, the tree path u..w holds no edge
 * heavier than max (bound (u), bound (w)), so an offer at least that heavy
 * is refused without touching the link-cut trees; each query tightens the
 * bounds of its two ends. New or lighter links only lower minimax distances,
 * so the bounds stay valid; when a tree edge gets heavier or leaves,
 * rebuild_components() recomputes them exactly in O(n). */

static guint
uf_find (SlGraph *self,
         guint    x,
         double  *bound)
{
  UfNode *uf = self->uf;
  double b = 0.0;

  while (uf[x].parent != x)
    {
      guint p = uf[x].parent;

      if (uf[p].parent != p)
        {
          uf[x].bound = MAX (uf[x].bound, uf[p].bound);
          uf[x].parent = uf[p].parent;
        }
      b = MAX (b, uf[x].bound);
      x = uf[x].parent;
    }
  *bound = b;
  return x;
}

static inline void
uf_tighten (SlGraph *self,
            guint    v,
            guint    root,
            double   bound)
{
  if (v != root)
    {
      self->uf[v].parent = root;
      self->uf[v].bound = bound;
    }
}

/* A tree edge of weight w joins the components of a and b. */
static void
uf_union (SlGraph *self,
          guint    a,
          guint    b,
          double   w)
{
  UfNode *uf = self->uf;
  double ba, bb;

  a = uf_find (self, a, &ba);
  b = uf_find (self, b, &bb);
  g_assert (a != b);
  if (uf[a].size < uf[b].size)
    {
      guint t = a;

      a = b;
      b = t;
    }
  uf[b].parent = a;
  uf[b].bound = MAX (w, MAX (ba, bb));
  uf[a].size += uf[b].size;
}

/* Child lists, built on demand from the parent pointers: only rare paths walk
 * down the trees, so nothing maintains them. The children of v are
 * list[start[v] .. start[v + 1]). */
typedef struct
{
  guint *start;
  guint *list;
} Children;

static void
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

static void
children_clear (Children *ch)
{
  g_free (ch->start);
  g_free (ch->list);
}

static void
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
static void
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

static void
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
static guint
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
static void
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
static void
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
static guint
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
static guint
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

static inline guint
child_endpoint (SlGraph *self,
                guint    e)
{
  const Edge *E = &self->edges[e];

  return self->vertices[E->a].parent_edge == e ? E->a : E->b;
}

/* Journal */

typedef struct
{
  guint64 seq;
  guint   node;
} Unsettled;

static void
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

static void
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

/* The entry's bound is filled in by settle_journal(), when the graph is
 * next read or the engine's flush ends: composing the path's relations at
 * each swap and each link update cost most of a live refresh. It is the
 * subtree's bound once the changes made together are applied. */
static void
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

static guint
tree_root (const SlGraph *self,
           guint          v)
{
  while (self->parent[v] != NONE)
    v = self->parent[v];
  return v;
}

/* One entry for the hosts whose transform changed: all of the component if
 * the reference moved, else the subtree below `subtree`. */
static void
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

static void
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
            }
          else
            {
              g_autoptr(SlRelation) up = C[p].rel != NULL ? sl_relation_ref (C[p].rel)
                                                          : sl_relation_new_linear (&C[p].to_ref, C[p].bound);

              C[y].rel = sl_relation_compose (up, edge_link_relation (E, y));
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

static void
edge_free (SlGraph *self,
           guint    e)
{
  g_clear_pointer (&self->edges[e].rel, sl_relation_unref);
  g_clear_pointer (&self->edges[e].rel_lin, sl_relation_unref);
  g_clear_pointer (&self->edges[e].rel_inv, sl_relation_unref);
  self->edges[e].flags = 0;
  self->edges[e].a = self->free_edge;
  self->free_edge = e;
}

/* MST mode */

/* Hysteresis: a link outside the tree of weight w replaces a tree edge of
 * weight t only when w (1 + margin) < t. The tree is then a minimum
 * spanning tree of weights each within a factor (1 + margin): every edge
 * outside it is at least 1 / (1 + margin) times the heaviest tree edge of
 * the path between its ends, so the heaviest edge of any tree path is at
 * most (1 + margin) times the least possible (the minimax path's). Every
 * invariant below holds for margin 0 exactly as without one. */
static inline gboolean
better_by_margin (const SlGraph *self,
                  double         w,
                  double         t)
{
  return w * (1.0 + self->margin) < t;
}

/* Tree edge e leaves and edge f, which closes a cycle through e, enters.
 *
 * With e = (x, y), x the parent, the subtree S of y moves: it is re-rooted
 * at f's end w inside S and hung below f's other end u. Only the sizes below
 * the lowest common ancestor l of f's ends change (minus |S| from x up, plus
 * |S| from u up), so the work is the length of the cycle; the two walks are
 * independent chains of loads, which keeps two cache misses in flight. The
 * reference can only move if l is the root, and then only towards u.
 *
 * lct_query (f's ends) must have been called just before; it gave l, and
 * x_e is e's link-cut node. */
static void
mst_swap (SlGraph    *self,
          guint       e,
          guint       f,
          guint       x_e,
          guint       l,
          const char *reason)
{
  Vertex *V = self->vertices;
  const guint *P = self->parent;
  Edge *E = &self->edges[e];
  Edge *F = &self->edges[f];
  guint *pu = self->buf_b + 1;
  guint lu = 0;
  guint y, u, w, p, q, r, c, s;

  w = lct_replace (self, x_e, e, f);
  u = w == F->a ? F->b : F->a;
  E->flags &= ~EDGE_IN_TREE;
  F->flags |= EDGE_IN_TREE;

  y = child_endpoint (self, e);
  s = V[y].size;

  /* pu gets the path from u up to, not including, l */
  p = P[y];
  q = u;
  while (p != l || q != l)
    {
      if (p != l)
        {
          V[p].size -= s;
          p = P[p];
        }
      if (q != l)
        {
          pu[lu++] = q;
          V[q].size += s;
          q = P[q];
        }
    }

  set_parent (self, y, NONE, NONE);
  reroot (self, w);
  set_parent (self, w, u, f);

  self->n_tree_changes++;
  journal_edge (self, SL_CHANGE_TREE_EDGE_OUT, e, reason);
  journal_edge (self, SL_CHANGE_TREE_EDGE_IN, f, reason);

  if (P[l] != NONE)
    {
      /* the reference's subtrees kept their sizes */
      journal_transform (self, w, tree_root (self, w), reason);
      return;
    }

  r = c = l;
  if (self->pinned != r)
    {
      /* [w, u, .., r] */
      pu[-1] = w;
      pu[lu] = r;
      c = centroid_along_path (self, pu - 1, lu + 2, NONE);
      if (c != r)
        move_root (self, c);
    }
  journal_outcome (self, r, c, w, reason);
}

/* Tree edge e leaves for f, found by a scan rather than by a query. */
static void
mst_swap_for (SlGraph    *self,
              guint       e,
              guint       f,
              const char *reason)
{
  const Edge *F = &self->edges[f];
  guint l;

  lct_query (self, F->a, F->b, NULL, &l);
  mst_swap (self, e, f, lct_slot (self->edges[e].slot), l, reason);
}

static void
mst_link (SlGraph *self,
          guint    e)
{
  Vertex *V = self->vertices;
  Edge *E = &self->edges[e];
  guint *pa = self->buf_a;
  guint *pb = self->buf_b;
  guint *ph;
  guint la, lb, lh;
  guint ra, rb, h, g, rh, rg, c;
  guint64 na, nb;
  gboolean host_a;

  /* the paths start at index 1, to prepend g below h for the centroid */
  la = collect_path (self, E->a, pa + 1);
  lb = collect_path (self, E->b, pb + 1);
  ra = pa[la];
  rb = pb[lb];
  na = V[ra].size;
  nb = V[rb].size;

  if (self->pinned == ra)
    host_a = TRUE;
  else if (self->pinned == rb)
    host_a = FALSE;
  else if (na != nb)
    host_a = na > nb;
  else
    host_a = ra < rb;

  h = host_a ? E->a : E->b;
  g = host_a ? E->b : E->a;
  rh = host_a ? ra : rb;
  rg = host_a ? rb : ra;
  ph = host_a ? pa : pb;
  lh = host_a ? la : lb;

  lct_link_edge (self, e, g, h);
  uf_union (self, E->a, E->b, E->weight);
  E->flags |= EDGE_IN_TREE;

  reroot (self, g);
  set_parent (self, g, h, e);
  for (guint i = 1; i <= lh; i++)
    V[ph[i]].size += V[g].size;

  self->n_tree_changes++;
  journal_edge (self, SL_CHANGE_TREE_EDGE_IN, e, "components merged");

  c = rh;
  if (self->pinned != rh)
    {
      ph[0] = g;
      c = centroid_along_path (self, ph, lh + 1, rg);
      if (c != rh)
        move_root (self, c);
    }
  journal_outcome (self, rh, c, g, "components merged");
}

/* Edge e is new or lighter and not in the tree. The union-find's bounds
 * bound the heaviest tree edge of a path with or without a margin: only a
 * swap, always to a lighter edge, changes the tree here. */
static void
mst_offer (SlGraph    *self,
           guint       e,
           const char *reason)
{
  const Edge *E = &self->edges[e];
  double ba, bb, d;
  guint ra, rb;
  guint x, l;

  ra = uf_find (self, E->a, &ba);
  rb = uf_find (self, E->b, &bb);
  if (ra != rb)
    {
      mst_link (self, e);
      return;
    }
  if (!better_by_margin (self, E->weight, MAX (ba, bb)))
    return;

  /* d: the heaviest tree edge between a and b once done */
  x = lct_query (self, E->a, E->b, &d, &l);
  if (better_by_margin (self, E->weight, d))
    {
      d = E->weight;
      mst_swap (self, lct_node_edge (self, x), e, x, l, reason);
    }
  else if (++self->n_wasted_queries > self->n_nodes / 64 + 64)
    {
      /* the bounds have drifted far above the distances: O(n) now saves
       * more than that in queries (a wasted query, mostly cache misses,
       * costs about as much as rebuilding 64 hosts, which is sequential) */
      rebuild_components (self);
      return;
    }
  ba = MIN (ba, MAX (d, bb));
  bb = MIN (bb, MAX (d, ba));
  uf_tighten (self, E->a, ra, ba);
  uf_tighten (self, E->b, ra, bb);
}

/* Sets the mark of the subtree of root to id. */
static void
mark_subtree (SlGraph *self,
              guint    root,
              guint    id)
{
  guint *stack = self->buf_a;
  guint len = 0;
  Children ch;

  children_init (self, &ch);
  stack[len++] = root;
  while (len > 0)
    {
      guint v = stack[--len];

      self->vertices[v].mark = id;
      for (guint k = ch.start[v]; k < ch.start[v + 1]; k++)
        stack[len++] = ch.list[k];
    }
  children_clear (&ch);
}

/* The lightest non-tree edge joining the two sides of tree edge e. */
static guint
mst_find_replacement (SlGraph *self,
                      guint    e)
{
  guint id;
  guint best = NONE;
  double best_weight = INFINITY;

  reserve_mark_ids (self, 1);
  id = ++self->mark_id;
  mark_subtree (self, child_endpoint (self, e), id);

  for (guint i = 0; i < self->n_edges; i++)
    {
      const Edge *F = &self->edges[i];

      if ((F->flags & (EDGE_LIVE | EDGE_IN_TREE)) != EDGE_LIVE)
        continue;
      if ((self->vertices[F->a].mark == id) != (self->vertices[F->b].mark == id) &&
          F->weight < best_weight)
        {
          best = i;
          best_weight = F->weight;
        }
    }
  return best;
}

/* Tree edge e is removed from the forest without a replacement. */
static void
mst_split (SlGraph    *self,
           guint       e,
           const char *reason)
{
  Vertex *V = self->vertices;
  const guint *P = self->parent;
  guint y = child_endpoint (self, e);
  guint x = P[y];
  guint s = V[y].size;
  guint r, c;

  lct_cut_edge (self, e, y);
  self->edges[e].flags &= ~EDGE_IN_TREE;

  set_parent (self, y, NONE, NONE);
  for (r = x; ; r = P[r])
    {
      V[r].size -= s;
      if (P[r] == NONE)
        break;
    }

  self->n_tree_changes++;
  journal_edge (self, SL_CHANGE_TREE_EDGE_OUT, e, reason);

  c = r;
  if (self->pinned != r)
    {
      c = centroid_by_scan (self, r, TRUE);
      if (c != r)
        {
          move_root (self, c);
          journal_reference (self, r, c, reason);
        }
    }

  c = centroid_by_scan (self, y, FALSE);
  if (c != y)
    move_root (self, c);
  journal_reference (self, NONE, c, reason);
}

static void
mst_remove (SlGraph *self,
            guint    e)
{
  if (self->edges[e].flags & EDGE_IN_TREE)
    {
      guint f = mst_find_replacement (self, e);

      if (f != NONE)
        mst_swap_for (self, e, f, "link removed");
      else
        mst_split (self, e, "link removed");
      rebuild_components (self);
    }
}

/* Tree edge e got heavier; returns whether it left the tree. */
static gboolean
mst_degrade (SlGraph *self,
             guint    e)
{
  guint f = mst_find_replacement (self, e);
  gboolean swapped = FALSE;

  if (f != NONE && better_by_margin (self, self->edges[f].weight, self->edges[e].weight))
    {
      mst_swap_for (self, e, f, "link degraded");
      swapped = TRUE;
    }
  else
    lct_set_weight (self, e);
  rebuild_components (self);
  return swapped;
}

/* Shortest-path mode */

typedef struct
{
  double d;
  guint  v;
} HeapItem;

static gboolean
heap_item_less (gconstpointer a,
                gconstpointer b)
{
  return ((const HeapItem *) a)->d < ((const HeapItem *) b)->d;
}

static void
heap_push (GArray *heap,
           double  d,
           guint   v)
{
  HeapItem it = { d, v };

  sl_heap_push (heap, &it, sizeof it, heap_item_less);
}

static HeapItem
heap_pop (GArray *heap)
{
  HeapItem top;

  sl_heap_pop (heap, &top, sizeof top, heap_item_less);
  return top;
}

typedef struct
{
  guint  *start;
  guint  *adj;
  double *dist;
  guint  *pred;
  guint8 *done;
  guint  *pos;
  GArray *heap;
} SpWork;

/* Dijkstra from src; pred[] gets the parent edge, preferring the current one
 * on ties so the tree does not change needlessly. */
static void
sp_dijkstra (SlGraph     *self,
             SpWork      *w,
             const guint *members,
             guint        n_members,
             guint        src)
{
  for (guint i = 0; i < n_members; i++)
    {
      w->dist[members[i]] = INFINITY;
      w->pred[members[i]] = NONE;
      w->done[members[i]] = FALSE;
    }

  g_array_set_size (w->heap, 0);
  w->dist[src] = 0.0;
  heap_push (w->heap, 0.0, src);
  while (w->heap->len > 0)
    {
      HeapItem it = heap_pop (w->heap);
      guint v = it.v;

      if (w->done[v])
        continue;
      w->done[v] = TRUE;

      for (guint k = w->start[v]; k < w->start[v + 1]; k++)
        {
          guint e = w->adj[k];
          const Edge *E = &self->edges[e];
          guint x = E->a == v ? E->b : E->a;
          double nd = w->dist[v] + E->weight;

          if (w->done[x])
            continue;
          if (nd < w->dist[x])
            {
              w->dist[x] = nd;
              w->pred[x] = e;
              heap_push (w->heap, nd, x);
            }
          else if (nd == w->dist[x] && e == self->vertices[x].parent_edge)
            w->pred[x] = e;
        }
    }
}

static void
sp_component (SlGraph     *self,
              SpWork      *w,
              const guint *members,
              guint        n_members,
              guint        cid,
              guint       *old_root,
              guint8      *changed,
              guint       *edge_stamp)
{
  static const char *reason = "shortest paths recomputed";
  Vertex *V = self->vertices;
  const guint *P = self->parent;
  guint ref = NONE;
  guint prev = NONE;
  guint n_in = 0;
  guint n_out = 0;
  double *sums = g_new (double, n_members);
  guint *count = g_new0 (guint, n_members);
  guint *new_pe = g_new (guint, n_members);

  for (guint i = 0; i < n_members; i++)
    {
      guint v = members[i];
      guint r = v;

      /* old roots, through the structure as it was */
      while (P[r] != NONE)
        r = P[r];
      old_root[v] = r;
      w->pos[v] = i;
    }

  for (guint i = 0; i < n_members; i++)
    {
      double sum = 0.0;

      sp_dijkstra (self, w, members, n_members, members[i]);
      for (guint j = 0; j < n_members; j++)
        sum += w->dist[members[j]];
      sums[i] = sum;
    }

  /* the previous reference: the old root that most members had */
  for (guint i = 0; i < n_members; i++)
    {
      guint r = old_root[members[i]];

      if (self->vertices[r].mark == cid)
        count[w->pos[r]]++;
    }
  for (guint j = 0; j < n_members; j++)
    if (count[j] > 0 &&
        (prev == NONE || count[j] > count[prev] ||
         (count[j] == count[prev] && members[j] < members[prev])))
      prev = j;

  if (self->pinned != NONE && self->vertices[self->pinned].mark == cid)
    ref = self->pinned;
  else
    {
      double min_sum = INFINITY;
      double limit;

      for (guint i = 0; i < n_members; i++)
        min_sum = MIN (min_sum, sums[i]);
      /* sums of the same paths in another order may differ by rounding;
       * keep the previous reference among (near) ties, else the lowest id */
      limit = min_sum + 1e-9 * min_sum;
      /* hysteresis: the previous reference stays while its sum is within
       * the margin of the least */
      if (prev != NONE && sums[prev] <= MAX (limit, min_sum * (1.0 + self->margin)))
        ref = members[prev];
      else
        for (guint i = 0; i < n_members; i++)
          if (sums[i] <= limit && (ref == NONE || members[i] < ref))
            ref = members[i];
    }

  sp_dijkstra (self, w, members, n_members, ref);

  for (guint i = 0; i < n_members; i++)
    {
      guint v = members[i];
      guint e = w->pred[v];

      new_pe[i] = e;
      if (e != NONE)
        edge_stamp[e] = cid;
    }

  for (guint i = 0; i < n_members; i++)
    {
      guint e = V[members[i]].parent_edge;

      if (e != NONE && (self->edges[e].flags & EDGE_IN_TREE) &&
          edge_stamp[e] != cid)
        {
          self->edges[e].flags &= ~EDGE_IN_TREE;
          journal_edge (self, SL_CHANGE_TREE_EDGE_OUT, e,
                        (self->edges[e].flags & EDGE_LIVE) ? reason : "link removed");
          n_out++;
        }
    }
  for (guint i = 0; i < n_members; i++)
    {
      guint e = new_pe[i];

      if (e != NONE && !(self->edges[e].flags & EDGE_IN_TREE))
        {
          self->edges[e].flags |= EDGE_IN_TREE;
          journal_edge (self, SL_CHANGE_TREE_EDGE_IN, e, reason);
          n_in++;
        }
    }
  self->n_tree_changes += MAX (n_in, n_out);

  for (guint i = 0; i < n_members; i++)
    {
      guint v = members[i];
      guint e = new_pe[i];
      guint p = NONE;

      if (e != NONE)
        p = self->edges[e].a == v ? self->edges[e].b : self->edges[e].a;
      changed[v] = p != P[v] || e != V[v].parent_edge ||
                   (e != NONE && (self->edges[e].flags & EDGE_TF_CHANGED));
    }
  for (guint i = 0; i < n_members; i++)
    {
      guint v = members[i];
      guint e = new_pe[i];

      if (!changed[v])
        continue;
      if (e == NONE)
        set_parent (self, v, NONE, NONE);
      else
        set_parent (self, v, self->edges[e].a == v ? self->edges[e].b : self->edges[e].a, e);
    }

  if (prev == NONE || members[prev] != ref)
    journal_reference (self, prev == NONE ? NONE : members[prev], ref, reason);
  else if (self->journal != NULL)
    for (guint i = 0; i < n_members; i++)
      {
        guint v = members[i];
        guint a;

        if (!changed[v] || v == ref)
          continue;
        for (a = P[v]; a != NONE && !changed[a]; a = P[a])
          ;
        if (a == NONE)
          journal_transform (self, v, ref, reason);
      }

  g_free (sums);
  g_free (count);
  g_free (new_pe);
}

static void
sp_recompute (SlGraph *self)
{
  SpWork w;
  guint n = self->n_nodes;
  guint *comp_order;
  guint *old_root;
  guint8 *changed;
  guint *edge_stamp;
  guint *fill;
  guint base;

  if (!self->sp_dirty)
    return;
  self->sp_dirty = FALSE;

  w.start = g_new0 (guint, n + 1);
  for (guint i = 0; i < self->n_edges; i++)
    if (self->edges[i].flags & EDGE_LIVE)
      {
        w.start[self->edges[i].a + 1]++;
        w.start[self->edges[i].b + 1]++;
      }
  for (guint v = 0; v < n; v++)
    w.start[v + 1] += w.start[v];
  w.adj = g_new (guint, MAX (1, w.start[n]));
  fill = g_memdup2 (w.start, sizeof (guint) * n);
  for (guint i = 0; i < self->n_edges; i++)
    if (self->edges[i].flags & EDGE_LIVE)
      {
        w.adj[fill[self->edges[i].a]++] = i;
        w.adj[fill[self->edges[i].b]++] = i;
      }
  g_free (fill);

  w.dist = g_new (double, n);
  w.pred = g_new (guint, n);
  w.done = g_new0 (guint8, n);
  w.pos = g_new (guint, n);
  w.heap = g_array_new (FALSE, FALSE, sizeof (HeapItem));
  comp_order = g_new (guint, n);
  old_root = g_new (guint, n);
  changed = g_new0 (guint8, n);
  edge_stamp = g_new0 (guint, MAX (1, self->n_edges));

  /* components by breadth-first search; marks hold a per-component id */
  reserve_mark_ids (self, n);
  base = self->mark_id + 1;
  for (guint s = 0; s < n; s++)
    {
      guint head = 0, tail = 0;
      gboolean dirty = FALSE;
      guint cid;

      if (self->vertices[s].mark >= base)
        continue;

      cid = ++self->mark_id;
      comp_order[tail++] = s;
      self->vertices[s].mark = cid;
      while (head < tail)
        {
          guint v = comp_order[head++];

          dirty |= self->dirty[v];
          for (guint k = w.start[v]; k < w.start[v + 1]; k++)
            {
              const Edge *E = &self->edges[w.adj[k]];
              guint x = E->a == v ? E->b : E->a;

              if (self->vertices[x].mark != cid)
                {
                  self->vertices[x].mark = cid;
                  comp_order[tail++] = x;
                }
            }
        }
      if (dirty)
        sp_component (self, &w, comp_order, tail, cid, old_root, changed,
                      edge_stamp);
    }

  memset (self->dirty, 0, n);
  for (guint i = 0; i < self->n_edges; i++)
    self->edges[i].flags &= ~EDGE_TF_CHANGED;
  for (guint i = 0; i < self->dead_edges->len; i++)
    edge_free (self, g_array_index (self->dead_edges, guint, i));
  g_array_set_size (self->dead_edges, 0);

  g_free (w.start);
  g_free (w.adj);
  g_free (w.dist);
  g_free (w.pred);
  g_free (w.done);
  g_free (w.pos);
  g_array_unref (w.heap);
  g_free (comp_order);
  g_free (old_root);
  g_free (changed);
  g_free (edge_stamp);
}

static inline void
sp_touch (SlGraph *self,
          guint    v)
{
  self->dirty[v] = TRUE;
  self->sp_dirty = TRUE;
}

static inline void
prepare (SlGraph *self)
{
  if (self->kind == SL_TREE_SHORTEST_PATH)
    sp_recompute (self);
  settle_journal (self);
}

/* Public API */

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
    g_clear_pointer (&self->cache[v].rel, sl_relation_unref);
  for (guint e = 0; e < self->n_edges; e++)
    {
      g_clear_pointer (&self->edges[e].rel, sl_relation_unref);
      g_clear_pointer (&self->edges[e].rel_lin, sl_relation_unref);
      g_clear_pointer (&self->edges[e].rel_inv, sl_relation_unref);
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
        E->flags |= EDGE_TF_CHANGED;
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

  if (self->kind == SL_TREE_SHORTEST_PATH)
    {
      if (node != NONE)
        sp_touch (self, node);
      if (old != NONE)
        sp_touch (self, old);
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
  prepare (self);
  e = map_lookup (&self->map, self->edges, pair_key (a, b), NULL);
  return e != NONE && (self->edges[e].flags & EDGE_IN_TREE) != 0;
}

guint
sl_graph_get_reference (SlGraph *self,
                        guint    node)
{
  g_return_val_if_fail (self != NULL, NONE);
  g_return_val_if_fail (node < self->n_nodes, NONE);

  prepare (self);
  ensure_cache (self, node);
  return self->cache[node].ref;
}

guint
sl_graph_get_parent (SlGraph *self,
                     guint    node)
{
  g_return_val_if_fail (self != NULL, NONE);
  g_return_val_if_fail (node < self->n_nodes, NONE);

  prepare (self);
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

  prepare (self);
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

  prepare (self);
  ensure_cache (self, node);
  c = &self->cache[node];
  if (c->rel == NULL)
    c->rel = sl_relation_new_linear (&c->to_ref, c->bound);
  return sl_relation_ref (c->rel);
}

/**
 * sl_graph_settle_journal:
 *
 * Fills in the bounds of the transform entries journaled since the last
 * read of the graph (see journal_transform()).
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

  prepare (self);
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
