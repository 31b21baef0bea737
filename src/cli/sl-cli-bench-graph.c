/* sl-cli-bench-graph.c: the incremental host graph against a from-scratch
 * baseline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl-graph.h"
#include "sl-rng.h"

/* Generates `ops` random link operations on `nodes` hosts, times the
 * incremental graph on them, then a from-scratch recomputation (Kruskal +
 * centroid per component) at evenly spaced points of the sequence, as many
 * as fit in about 2 s. Prints one JSON object (json) or a table; returns an exit
 * status. */
int sl_cli_bench_graph (guint    nodes,
                        guint64  ops,
                        guint64  seed,
                        gboolean json);

#define BASELINE_BUDGET_US (2 * G_USEC_PER_SEC)
#define QUERY_EVERY 1000

typedef struct
{
  guint  a;
  guint  b;
  guint  edge;
  double weight;
} BenchOp;

typedef struct
{
  guint  a;
  guint  b;
  double weight;
} BenchEdge;

static guint
pair_hash (gconstpointer key)
{
  guint64 k = (guint64) GPOINTER_TO_SIZE (key);

  k ^= k >> 33;
  k *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  k ^= k >> 33;
  return (guint) k;
}

/* The mix: while there are fewer links than hosts every operation inserts
 * a new link between two random hosts (hosts discover each other); after
 * that 60 % pick a random pair (a new link, or a fresh estimate of an
 * existing one, kept only if it lowers the weight) and 40 % improve a random
 * existing link by a factor in [0.5, 1), as a hull tightens when accurate
 * packets arrive [Jabbarifar eq. 5.12]. New links get a weight in (0, 1). */
static BenchOp *
generate_ops (guint    nodes,
              guint64  n_ops,
              SlRng   *rng,
              guint   *n_edges_out)
{
  BenchOp *ops = g_new (BenchOp, n_ops);
  GHashTable *index = g_hash_table_new (pair_hash, g_direct_equal);
  GArray *edges = g_array_new (FALSE, FALSE, sizeof (BenchEdge));

  for (guint64 i = 0; i < n_ops; i++)
    {
      BenchOp *op = &ops[i];

      if (edges->len < nodes || sl_rng_below (rng, 100) < 60)
        {
          guint a = sl_rng_below (rng, nodes);
          guint b;
          gpointer key;
          gpointer found;

          do
            b = sl_rng_below (rng, nodes);
          while (b == a);
          key = GSIZE_TO_POINTER (((gsize) MIN (a, b) << 32) | MAX (a, b));
          op->a = a;
          op->b = b;
          op->weight = sl_rng_double (rng);

          if (g_hash_table_lookup_extended (index, key, NULL, &found))
            {
              BenchEdge *e;

              op->edge = GPOINTER_TO_UINT (found);
              e = &g_array_index (edges, BenchEdge, op->edge);
              op->weight = MIN (op->weight, e->weight);
              e->weight = op->weight;
            }
          else
            {
              BenchEdge e = { MIN (a, b), MAX (a, b), op->weight };

              op->edge = edges->len;
              g_array_append_val (edges, e);
              g_hash_table_insert (index, key, GUINT_TO_POINTER (op->edge));
            }
        }
      else
        {
          guint k = sl_rng_below (rng, edges->len);
          BenchEdge *e = &g_array_index (edges, BenchEdge, k);

          e->weight *= sl_rng_double_range (rng, 0.5, 1.0);
          op->a = e->a;
          op->b = e->b;
          op->edge = k;
          op->weight = e->weight;
        }
    }

  *n_edges_out = edges->len;
  g_array_unref (edges);
  g_hash_table_unref (index);
  return ops;
}

static void
op_transform (const BenchOp *op,
              SlTransform   *tf)
{
  static const gint64 epoch = G_GINT64_CONSTANT (1400000000000000000);

  sl_transform_init (tf, epoch, epoch + 1000 * ((gint64) op->b - (gint64) op->a), 0.0,
                     1e-6 * (op->weight - 0.5));
}

/* From-scratch baseline */

typedef struct
{
  guint      n;
  BenchEdge *edges;
  guint      n_edges;
  BenchEdge *sorted;
  guint     *uf;
  guint     *deg;
  guint     *adj;
  guint     *queue;
  guint     *parent;
  guint     *size;
  guint     *comp;
} Baseline;

static int
cmp_edge_weight (const void *pa,
                 const void *pb)
{
  double a = ((const BenchEdge *) pa)->weight;
  double b = ((const BenchEdge *) pb)->weight;

  return a < b ? -1 : a > b ? 1 : 0;
}

static guint
uf_find (guint *uf,
         guint  x)
{
  while (uf[x] != x)
    {
      uf[x] = uf[uf[x]];
      x = uf[x];
    }
  return x;
}

/* Kruskal, then the centroid of each tree; returns the tree weight. */
static double
baseline_recompute (Baseline *bl,
                    guint    *n_refs,
                    guint64  *ref_sum)
{
  guint n = bl->n;
  guint n_tree = 0;
  double total = 0.0;
  guint *tree = bl->queue;

  memcpy (bl->sorted, bl->edges, sizeof (BenchEdge) * bl->n_edges);
  qsort (bl->sorted, bl->n_edges, sizeof (BenchEdge), cmp_edge_weight);

  for (guint v = 0; v < n; v++)
    {
      bl->uf[v] = v;
      bl->deg[v + 1] = 0;
    }
  bl->deg[0] = 0;

  for (guint i = 0; i < bl->n_edges && n_tree + 1 < n; i++)
    {
      const BenchEdge *e = &bl->sorted[i];
      guint ra = uf_find (bl->uf, e->a);
      guint rb = uf_find (bl->uf, e->b);

      if (ra == rb)
        continue;
      bl->uf[ra] = rb;
      tree[n_tree++] = i;
      total += e->weight;
      bl->deg[e->a + 1]++;
      bl->deg[e->b + 1]++;
    }

  for (guint v = 0; v < n; v++)
    bl->deg[v + 1] += bl->deg[v];
  for (guint i = 0; i < n_tree; i++)
    {
      const BenchEdge *e = &bl->sorted[tree[i]];

      bl->adj[bl->deg[e->a]++] = e->b;
      bl->adj[bl->deg[e->b]++] = e->a;
    }
  /* deg[v] now holds the end of v's list, deg[v - 1] its start */
  for (guint v = n; v > 0; v--)
    bl->deg[v] = bl->deg[v - 1];
  bl->deg[0] = 0;

  *n_refs = 0;
  for (guint v = 0; v < n; v++)
    bl->comp[v] = G_MAXUINT;
  for (guint s = 0; s < n; s++)
    {
      guint head = 0, tail = 0;
      guint best = s, best_piece = G_MAXUINT;

      if (bl->comp[s] != G_MAXUINT)
        continue;
      bl->queue[tail++] = s;
      bl->comp[s] = s;
      bl->parent[s] = G_MAXUINT;
      while (head < tail)
        {
          guint v = bl->queue[head++];

          for (guint k = bl->deg[v]; k < bl->deg[v + 1]; k++)
            if (bl->comp[bl->adj[k]] == G_MAXUINT)
              {
                bl->comp[bl->adj[k]] = s;
                bl->parent[bl->adj[k]] = v;
                bl->queue[tail++] = bl->adj[k];
              }
        }
      for (guint i = tail; i-- > 0;)
        {
          guint v = bl->queue[i];
          guint piece = tail;

          bl->size[v] = 1;
          for (guint k = bl->deg[v]; k < bl->deg[v + 1]; k++)
            if (bl->adj[k] != bl->parent[v])
              bl->size[v] += bl->size[bl->adj[k]];
          piece -= bl->size[v];
          for (guint k = bl->deg[v]; k < bl->deg[v + 1]; k++)
            if (bl->adj[k] != bl->parent[v])
              piece = MAX (piece, bl->size[bl->adj[k]]);
          if (piece < best_piece || (piece == best_piece && v < best))
            {
              best = v;
              best_piece = piece;
            }
        }
      (*n_refs)++;
      *ref_sum += best;
    }

  return total;
}

/* Brings the baseline's link set to the state after operation `to`. */
static void
baseline_apply (Baseline      *bl,
                const BenchOp *ops,
                guint64        from,
                guint64        to)
{
  for (guint64 i = from; i < to; i++)
    {
      const BenchOp *op = &ops[i];

      if (op->edge == bl->n_edges)
        {
          bl->edges[op->edge].a = MIN (op->a, op->b);
          bl->edges[op->edge].b = MAX (op->a, op->b);
          bl->n_edges++;
        }
      bl->edges[op->edge].weight = op->weight;
    }
}

static double
incremental_tree_weight (SlGraph       *g,
                         const BenchOp *ops,
                         guint64        n_ops,
                         BenchEdge     *edges,
                         guint          n_edges)
{
  double total = 0.0;

  for (guint i = 0; i < n_edges; i++)
    edges[i].weight = NAN;
  for (guint64 i = 0; i < n_ops; i++)
    {
      edges[ops[i].edge].a = MIN (ops[i].a, ops[i].b);
      edges[ops[i].edge].b = MAX (ops[i].a, ops[i].b);
      edges[ops[i].edge].weight = ops[i].weight;
    }
  for (guint i = 0; i < n_edges; i++)
    if (!isnan (edges[i].weight) && sl_graph_edge_in_tree (g, edges[i].a, edges[i].b))
      total += edges[i].weight;
  return total;
}

typedef struct
{
  guint   nodes;
  guint64 ops;
  guint   n_edges;
  double  incremental_s;
  double  per_op;
  double  baseline_s;
  guint64 baseline_ops;
  double  baseline_per_op;
  guint64 mst_changes;
  guint64 reference_changes;
  guint   n_refs;
} BenchResult;

static void
print_result (const BenchResult *r,
              gboolean           json)
{
  if (json)
    printf ("{\"nodes\":%u,\"ops\":%" G_GUINT64_FORMAT ",\"incremental_s\":%.6g,"
            "\"incremental_s_per_op\":%.6g,\"baseline_ops\":%" G_GUINT64_FORMAT ","
            "\"baseline_s_per_op\":%.6g,\"speedup\":%.6g,\"mst_changes\":%" G_GUINT64_FORMAT
            ",\"reference_changes\":%" G_GUINT64_FORMAT "}\n",
            r->nodes, r->ops, r->incremental_s, r->per_op, r->baseline_ops, r->baseline_per_op,
            r->baseline_per_op / r->per_op, r->mst_changes, r->reference_changes);
  else
    {
      printf ("Host graph benchmark: %u hosts, %" G_GUINT64_FORMAT " operations, %u links\n",
              r->nodes, r->ops, r->n_edges);
      printf ("  %-34s %12.3f s  %10.3f µs/op\n", "incremental (MST + reference)",
              r->incremental_s, r->per_op * 1e6);
      printf ("  %-34s %12.3f s  %10.3f µs/op  (%" G_GUINT64_FORMAT " ops)\n",
              "from scratch (Kruskal + centroid)", r->baseline_s, r->baseline_per_op * 1e6,
              r->baseline_ops);
      printf ("  %-34s\n", "  (timed at evenly spaced points of the sequence)");
      printf ("  %-34s %12.1fx\n", "speed-up per operation", r->baseline_per_op / r->per_op);
      printf ("  %-34s %12" G_GUINT64_FORMAT "\n", "MST changes", r->mst_changes);
      printf ("  %-34s %12" G_GUINT64_FORMAT "\n", "reference changes", r->reference_changes);
      printf ("  %-34s %12u\n", "components at the end", r->n_refs);
    }
}

static void
baseline_init (Baseline *bl,
               guint     nodes,
               guint     n_edges)
{
  bl->n = nodes;
  bl->edges = g_new (BenchEdge, n_edges);
  bl->sorted = g_new (BenchEdge, n_edges);
  bl->uf = g_new (guint, nodes);
  bl->deg = g_new (guint, nodes + 1);
  bl->adj = g_new (guint, 2 * (gsize) nodes);
  bl->queue = g_new (guint, nodes);
  bl->parent = g_new (guint, nodes);
  bl->size = g_new (guint, nodes);
  bl->comp = g_new (guint, nodes);
}

static void
baseline_clear (Baseline *bl)
{
  g_free (bl->edges);
  g_free (bl->sorted);
  g_free (bl->uf);
  g_free (bl->deg);
  g_free (bl->adj);
  g_free (bl->queue);
  g_free (bl->parent);
  g_free (bl->size);
  g_free (bl->comp);
}

int
sl_cli_bench_graph (guint    nodes,
                    guint64  ops,
                    guint64  seed,
                    gboolean json)
{
  SlRng rng;
  BenchOp *list;
  guint n_edges;
  guint *queries;
  SlGraph *g;
  SlTransform tf;
  double bound;
  gint64 t0, t1;
  double incremental_s, baseline_s, per_op, baseline_per_op;
  guint64 baseline_ops = 0;
  guint64 mst_changes, reference_changes;
  Baseline bl = { 0 };
  guint n_refs = 0;
  guint64 ref_sum = 0;
  double baseline_weight = 0.0;
  double check_weight;
  BenchEdge *check_edges;
  guint64 n_samples, done;
  int status = EXIT_SUCCESS;

  if (nodes < 2 || ops == 0)
    {
      g_printerr ("bench-graph: needs at least 2 nodes and 1 operation\n");
      return EXIT_FAILURE;
    }

  sl_rng_init (&rng, seed, 0);
  list = generate_ops (nodes, ops, &rng, &n_edges);
  queries = g_new (guint, ops / QUERY_EVERY + 1);
  for (guint64 i = 0; i <= ops / QUERY_EVERY; i++)
    queries[i] = sl_rng_below (&rng, nodes);

  /* incremental: tree, reference and propagation marks per operation, a
   * transform query now and then */
  g = sl_graph_new (SL_TREE_MST, NULL);
  for (guint v = 0; v < nodes; v++)
    sl_graph_add_node (g);

  t0 = g_get_monotonic_time ();
  for (guint64 i = 0; i < ops; i++)
    {
      op_transform (&list[i], &tf);
      sl_graph_update_edge (g, list[i].a, list[i].b, list[i].weight, &tf, 100.0);
      if ((i + 1) % QUERY_EVERY == 0)
        sl_graph_get_transform (g, queries[i / QUERY_EVERY], &tf, &bound);
    }
  t1 = g_get_monotonic_time ();
  /* the clock counts microseconds: keep the ratios finite */
  incremental_s = MAX (t1 - t0, 1) / 1e6;
  per_op = incremental_s / ops;
  mst_changes = sl_graph_get_n_tree_changes (g);
  reference_changes = sl_graph_get_n_reference_changes (g);
  sl_graph_free (g);

  /* baseline: everything from scratch after each operation */
  baseline_init (&bl, nodes, n_edges);
  check_edges = g_new (BenchEdge, n_edges);

  /* The from-scratch cost grows with the number of links, so timing it on
   * a prefix of the operations would flatter the incremental side. Time
   * it instead at evenly spaced points of the whole sequence (as many as
   * fit in the budget, judged from the cost at the end), and check at each
   * point that both agree on the tree weight. */
  baseline_apply (&bl, list, 0, ops);
  t0 = g_get_monotonic_time ();
  baseline_recompute (&bl, &n_refs, &ref_sum);
  t1 = g_get_monotonic_time ();
  n_samples = (guint64) CLAMP (BASELINE_BUDGET_US / MAX (t1 - t0, 1), 3, 100);
  n_samples = MIN (n_samples, ops);
  bl.n_edges = 0;

  g = sl_graph_new (SL_TREE_MST, NULL);
  for (guint v = 0; v < nodes; v++)
    sl_graph_add_node (g);
  baseline_s = 0;
  done = 0;
  for (guint64 k = 1; k <= n_samples && status == EXIT_SUCCESS; k++)
    {
      guint64 upto = ops * k / n_samples;

      baseline_apply (&bl, list, done, upto);
      for (guint64 i = done; i < upto; i++)
        {
          op_transform (&list[i], &tf);
          sl_graph_update_edge (g, list[i].a, list[i].b, list[i].weight, &tf, 100.0);
        }
      done = upto;

      t0 = g_get_monotonic_time ();
      baseline_weight = baseline_recompute (&bl, &n_refs, &ref_sum);
      t1 = g_get_monotonic_time ();
      baseline_s += (t1 - t0) / 1e6;
      baseline_ops++;

      check_weight = incremental_tree_weight (g, list, upto, check_edges, n_edges);
      if (fabs (check_weight - baseline_weight) > 1e-9 * (1.0 + baseline_weight))
        {
          g_printerr ("bench-graph: tree weights differ after %" G_GUINT64_FORMAT
                      " operations: incremental %.12g, baseline %.12g\n",
                      upto, check_weight, baseline_weight);
          status = EXIT_FAILURE;
        }
    }
  sl_graph_free (g);
  baseline_s = MAX (baseline_s, 1e-6);
  baseline_per_op = baseline_s / baseline_ops;

  if (status == EXIT_SUCCESS)
    {
      BenchResult r = { nodes, ops, n_edges, incremental_s, per_op, baseline_s, baseline_ops,
                        baseline_per_op, mst_changes, reference_changes, n_refs };

      print_result (&r, json);
    }

  baseline_clear (&bl);
  g_free (check_edges);
  g_free (queries);
  g_free (list);
  return status;
}
