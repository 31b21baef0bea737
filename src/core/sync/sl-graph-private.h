/* sl-graph-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-graph.h"
#include "sl-relation.h"

G_BEGIN_DECLS

#define NONE SL_HOST_NONE

enum
{
  EDGE_LIVE = 1 << 0,
  EDGE_IN_TREE = 1 << 1,
  EDGE_TF_CHANGED = 1 << 2,
};

/* sl_graph_set_dwell(): the least weight a link was given in each of the
 * last DWELL_BUCKETS quarters of the dwell (bucket number `last`, the
 * current one, in least[pos]) */
#define DWELL_BUCKETS 5

typedef struct
{
  gint64 last;
  guint  pos;
  double least[DWELL_BUCKETS];
} Floor;

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
  Floor      *floor;
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
  /* what composing rel kept, to compose its next version incrementally */
  SlComposeMemo *memo;
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
  gint64      dwell;
  gint64      now;
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

/* Child lists, built on demand from the parent pointers: only rare paths walk
 * down the trees, so nothing maintains them. The children of v are
 * list[start[v] .. start[v + 1]). */
typedef struct
{
  guint *start;
  guint *list;
} Children;

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

static inline guint
lct_node_edge (SlGraph *self,
               guint    x)
{
  return self->slot_edge[(x - 2) / 2];
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

static inline guint
child_endpoint (SlGraph *self,
                guint    e)
{
  const Edge *E = &self->edges[e];

  return self->vertices[E->a].parent_edge == e ? E->a : E->b;
}

static inline void
sp_touch (SlGraph *self,
          guint    v)
{
  self->dirty[v] = TRUE;
  self->sp_dirty = TRUE;
}

/* sl-graph.c */

void rebuild_components (SlGraph *self);

void children_init (SlGraph  *self,
                    Children *ch);

void children_clear (Children *ch);

void reserve_mark_ids (SlGraph *self,
                       guint    count);

void set_parent (SlGraph *self,
                 guint    v,
                 guint    parent,
                 guint    edge);

guint collect_path (SlGraph *self,
                    guint    v,
                    guint   *path);

void reroot (SlGraph *self,
             guint    v);

void move_root (SlGraph *self,
                guint    v);

guint centroid_along_path (SlGraph     *self,
                           const guint *up,
                           guint        len,
                           guint        prev_other);

guint centroid_by_scan (SlGraph  *self,
                        guint     root,
                        gboolean  root_is_current);

void journal_edge (SlGraph      *self,
                   SlChangeKind  kind,
                   guint         e,
                   const char   *reason);

void journal_reference (SlGraph    *self,
                        guint       old_ref,
                        guint       new_ref,
                        const char *reason);

void journal_transform (SlGraph    *self,
                        guint       subtree,
                        guint       ref,
                        const char *reason);

guint tree_root (const SlGraph *self,
                 guint          v);

void journal_outcome (SlGraph    *self,
                      guint       old_ref,
                      guint       new_ref,
                      guint       subtree,
                      const char *reason);

void ensure_cache (SlGraph *self,
                   guint    v);

void edge_free (SlGraph *self,
                guint    e);

/* sl-graph-lct.c */

guint lct_evert (SlGraph *self,
                 guint    x);

guint lct_query (SlGraph *self,
                 guint    a,
                 guint    b,
                 double  *weight,
                 guint   *lca);

guint lct_replace (SlGraph *self,
                   guint    x,
                   guint    e,
                   guint    f);

void lct_cut_edge (SlGraph *self,
                   guint    e,
                   guint    y);

void lct_link_edge (SlGraph *self,
                    guint    e,
                    guint    g,
                    guint    h);

void lct_set_weight (SlGraph *self,
                     guint    e);

guint uf_find (SlGraph *self,
               guint    x,
               double  *bound);

void uf_union (SlGraph *self,
               guint    a,
               guint    b,
               double   w);

/* sl-graph-mst.c */

void mst_offer (SlGraph    *self,
                guint       e,
                const char *reason);

void mst_remove (SlGraph *self,
                 guint    e);

gboolean mst_degrade (SlGraph *self,
                      guint    e);

/* sl-graph-sp.c */

void sp_recompute (SlGraph *self);

G_END_DECLS
