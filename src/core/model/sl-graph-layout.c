/* sl-graph-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-graph-layout.h"
#include "sl-types.h"

typedef struct
{
  guint   root;
  GArray *members;
  double  radius;
  double  x;
  double  y;
} Group;

typedef struct
{
  guint        n;
  const guint *parent;
  guint       *first_child;
  guint       *next_sibling;
  guint       *leaves;
  guint       *depth;
  SlLayoutPos *pos;
} Tree;

static void
group_clear (gpointer data)
{
  Group *g = data;

  g_clear_pointer (&g->members, g_array_unref);
}

static int
group_cmp (gconstpointer a,
           gconstpointer b)
{
  const Group *ga = a, *gb = b;

  if (ga->members->len != gb->members->len)
    return ga->members->len > gb->members->len ? -1 : 1;
  return ga->root < gb->root ? -1 : ga->root > gb->root;
}

/* Leaves below each node and depth, iteratively (deep chains exist). */
static guint
measure (Tree  *t,
         guint  root)
{
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  guint max_depth = 0;

  t->depth[root] = 0;
  g_array_append_val (order, root);
  for (guint i = 0; i < order->len; i++)
    {
      guint v = g_array_index (order, guint, i);

      for (guint c = t->first_child[v]; c != SL_HOST_NONE; c = t->next_sibling[c])
        {
          t->depth[c] = t->depth[v] + 1;
          max_depth = MAX (max_depth, t->depth[c]);
          g_array_append_val (order, c);
        }
    }
  for (guint i = order->len; i-- > 0;)
    {
      guint v = g_array_index (order, guint, i);

      if (t->first_child[v] == SL_HOST_NONE)
        t->leaves[v] = 1;
      if (v != root && t->parent[v] != SL_HOST_NONE)
        t->leaves[t->parent[v]] += t->leaves[v];
    }
  return max_depth;
}

typedef struct
{
  guint  node;
  double a0;
  double a1;
} Wedge;

static void
place (Tree   *t,
       guint   root,
       double  ring)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Wedge));
  Wedge w = { root, 0, 2 * G_PI };

  t->pos[root].x = 0;
  t->pos[root].y = 0;
  g_array_append_val (stack, w);
  while (stack->len > 0)
    {
      Wedge top = g_array_index (stack, Wedge, stack->len - 1);
      double a = top.a0;

      g_array_set_size (stack, stack->len - 1);
      for (guint c = t->first_child[top.node]; c != SL_HOST_NONE; c = t->next_sibling[c])
        {
          double span = (top.a1 - top.a0) * t->leaves[c] / MAX (t->leaves[top.node], 1);
          double mid = a + span / 2;
          double r = ring * t->depth[c];
          Wedge cw = { c, a, a + span };

          t->pos[c].x = r * cos (mid);
          t->pos[c].y = r * sin (mid);
          g_array_append_val (stack, cw);
          a += span;
        }
    }
}

void
sl_graph_layout_compute (guint         n_hosts,
                         const guint  *parent,
                         const guint  *reference,
                         SlLayoutPos  *positions,
                         double       *width,
                         double       *height)
{
  g_autoptr(GArray) groups = NULL;
  g_autoptr(GHashTable) by_root = NULL;
  g_autofree guint *first_child = NULL;
  g_autofree guint *next_sibling = NULL;
  g_autofree guint *last_child = NULL;
  g_autofree guint *leaves = NULL;
  g_autofree guint *depth = NULL;
  Tree t;
  double area = 0, row_width, x = 0, y = 0, row_h = 0, max_w = 0;

  g_return_if_fail (positions != NULL || n_hosts == 0);

  if (width != NULL)
    *width = 0;
  if (height != NULL)
    *height = 0;
  if (n_hosts == 0)
    return;

  groups = g_array_new (FALSE, TRUE, sizeof (Group));
  g_array_set_clear_func (groups, group_clear);
  by_root = g_hash_table_new (NULL, NULL);
  first_child = g_new (guint, n_hosts);
  next_sibling = g_new (guint, n_hosts);
  last_child = g_new (guint, n_hosts);
  leaves = g_new0 (guint, n_hosts);
  depth = g_new0 (guint, n_hosts);

  for (guint h = 0; h < n_hosts; h++)
    first_child[h] = next_sibling[h] = last_child[h] = SL_HOST_NONE;

  /* children in host order, so that the layout is stable */
  for (guint h = 0; h < n_hosts; h++)
    {
      guint p = parent[h];

      if (p == SL_HOST_NONE || p >= n_hosts || reference[h] == h)
        continue;
      if (last_child[p] == SL_HOST_NONE)
        first_child[p] = h;
      else
        next_sibling[last_child[p]] = h;
      last_child[p] = h;
    }

  for (guint h = 0; h < n_hosts; h++)
    {
      guint r = reference[h] < n_hosts ? reference[h] : h;
      gpointer idx;
      Group *g;

      if (!g_hash_table_lookup_extended (by_root, GUINT_TO_POINTER (r), NULL, &idx))
        {
          Group ng = { r, g_array_new (FALSE, FALSE, sizeof (guint)), 0, 0, 0 };

          idx = GUINT_TO_POINTER (groups->len);
          g_array_append_val (groups, ng);
          g_hash_table_insert (by_root, GUINT_TO_POINTER (r), idx);
        }
      g = &g_array_index (groups, Group, GPOINTER_TO_UINT (idx));
      g_array_append_val (g->members, h);
    }

  t.n = n_hosts;
  t.parent = parent;
  t.first_child = first_child;
  t.next_sibling = next_sibling;
  t.leaves = leaves;
  t.depth = depth;
  t.pos = positions;

  for (guint i = 0; i < groups->len; i++)
    {
      Group *g = &g_array_index (groups, Group, i);
      guint max_depth;
      double ring;

      /* a host whose parent chain does not reach the root (should not
       * happen) sits next to it rather than nowhere */
      for (guint k = 0; k < g->members->len; k++)
        {
          guint h = g_array_index (g->members, guint, k);
          positions[h].x = positions[h].y = 0;
        }
      max_depth = measure (&t, g->root);
      ring = max_depth == 0 ? 0
           : MAX (1.6 * SL_GRAPH_LAYOUT_SPACING,
                  leaves[g->root] * SL_GRAPH_LAYOUT_SPACING / (2 * G_PI * max_depth));
      place (&t, g->root, ring);
      g->radius = ring * max_depth + SL_GRAPH_LAYOUT_SPACING;
      area += (2 * g->radius) * (2 * g->radius);
    }

  g_array_sort (groups, group_cmp);

  /* shelf packing, rows about as wide as the whole is tall */
  row_width = MAX (sqrt (area) * 1.3, 2 * g_array_index (groups, Group, 0).radius);
  for (guint i = 0; i < groups->len; i++)
    {
      Group *g = &g_array_index (groups, Group, i);
      double d = 2 * g->radius;

      if (x > 0 && x + d > row_width)
        {
          y += row_h;
          x = 0;
          row_h = 0;
        }
      g->x = x + g->radius;
      g->y = y + g->radius;
      x += d;
      row_h = MAX (row_h, d);
      max_w = MAX (max_w, x);
    }

  for (guint i = 0; i < groups->len; i++)
    {
      const Group *g = &g_array_index (groups, Group, i);

      for (guint k = 0; k < g->members->len; k++)
        {
          guint h = g_array_index (g->members, guint, k);

          positions[h].x += g->x;
          positions[h].y += g->y;
        }
    }

  if (width != NULL)
    *width = max_w;
  if (height != NULL)
    *height = y + row_h;
}
