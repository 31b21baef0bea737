/* sl-graph-lct.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "sl-graph-private.h"

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
guint
lct_evert (SlGraph *self,
           guint    x)
{
  guint top = lct_expose (self, x);

  self->lct[top].best ^= LCT_REV;
  return top;
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

/* The link-cut node of the heaviest tree edge on the path a..b (connected),
 * its weight and the lowest common ancestor of a and b. The link-cut trees
 * are rooted like the explicit forest, so no query reverses a path: a is
 * accessed, then b's access stops at the splay tree holding the root, at
 * the common ancestor, where the two halves of the path hang: the part
 * towards a below it, the part towards b as the last splay tree met. Each
 * half is then one splay tree ending at a or at b, which is what
 * lct_replace() expects. */
guint
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
guint
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
void
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
void
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
void
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

guint
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

/* A tree edge of weight w joins the components of a and b. */
void
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
