/* sl-graph-mst.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-graph-private.h"

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
void
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

void
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
gboolean
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
