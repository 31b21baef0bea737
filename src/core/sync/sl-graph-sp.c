/* sl-graph-sp.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-graph-private.h"
#include "sl-heap.h"

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

/* The previous reference's index in members: the old root that most
 * members had (NONE if none of them is still in the component). */
static guint
sp_previous_reference (SlGraph     *self,
                       SpWork      *w,
                       const guint *members,
                       guint        n_members,
                       guint        cid,
                       const guint *old_root)
{
  guint *count = g_new0 (guint, n_members);
  guint prev = NONE;

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
  g_free (count);
  return prev;
}

/* The pinned host, else the member whose paths' sum (sums[i]) is least. */
static guint
sp_choose_reference (SlGraph      *self,
                     const guint  *members,
                     guint         n_members,
                     guint         cid,
                     const double *sums,
                     guint         prev)
{
  double min_sum = INFINITY;
  double limit;
  guint ref = NONE;

  if (self->pinned != NONE && self->vertices[self->pinned].mark == cid)
    return self->pinned;

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
  return ref;
}

/* The tree edges that leave (no member's new parent edge, stamped cid in
 * edge_stamp) and those that join, journaled and counted. */
static void
sp_swap_tree_edges (SlGraph     *self,
                    const guint *members,
                    guint        n_members,
                    const guint *new_pe,
                    guint        cid,
                    guint       *edge_stamp,
                    const char  *reason)
{
  const Vertex *V = self->vertices;
  guint n_in = 0;
  guint n_out = 0;

  for (guint i = 0; i < n_members; i++)
    if (new_pe[i] != NONE)
      edge_stamp[new_pe[i]] = cid;

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
}

/* Members get their new parents; changed[v] says whose parent, parent edge
 * or parent edge's transform changed. */
static void
sp_reparent (SlGraph     *self,
             const guint *members,
             guint        n_members,
             const guint *new_pe,
             guint8      *changed)
{
  Vertex *V = self->vertices;
  const guint *P = self->parent;

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
}

/* With the reference kept, one transform entry per topmost changed host. */
static void
sp_journal_transforms (SlGraph      *self,
                       const guint  *members,
                       guint         n_members,
                       const guint8 *changed,
                       guint         ref,
                       const char   *reason)
{
  const guint *P = self->parent;

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
  const guint *P = self->parent;
  guint ref;
  guint prev;
  double *sums = g_new (double, n_members);
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

  prev = sp_previous_reference (self, w, members, n_members, cid, old_root);
  ref = sp_choose_reference (self, members, n_members, cid, sums, prev);

  sp_dijkstra (self, w, members, n_members, ref);
  for (guint i = 0; i < n_members; i++)
    new_pe[i] = w->pred[members[i]];

  sp_swap_tree_edges (self, members, n_members, new_pe, cid, edge_stamp, reason);
  sp_reparent (self, members, n_members, new_pe, changed);

  if (prev == NONE || members[prev] != ref)
    journal_reference (self, prev == NONE ? NONE : members[prev], ref, reason);
  else if (self->journal != NULL)
    sp_journal_transforms (self, members, n_members, changed, ref, reason);

  g_free (sums);
  g_free (new_pe);
}

void
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
