/* sl-graph.h: the host graph: dynamic minimum spanning tree, reference node
 * per component, and each host's transform to its reference
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-journal.h"
#include "sl-relation.h"
#include "sl-transform.h"

G_BEGIN_DECLS

/**
 * SlTreeKind:
 * @SL_TREE_MST: minimum spanning tree over link inaccuracy, maintained
 *   incrementally [Jabbarifar ch. 5]; reference = tree centroid per component
 *   [Jabbarifar ch. 4]
 * @SL_TREE_SHORTEST_PATH: reference = the node with the minimum sum of
 *   shortest-path distances, each host following its shortest path to it
 *   [Clément & Dagenais §10]
 */
typedef enum
{
  SL_TREE_MST,
  SL_TREE_SHORTEST_PATH,
} SlTreeKind;

/* The tree's hysteresis for live sessions (sl_graph_set_margin()): a
 * link must be 25 % lighter than a tree link to replace it. */
#define SL_GRAPH_LIVE_MARGIN 0.25

/* ...and it must have been so for 10 s of input (sl_graph_set_dwell()):
 * a link's bound jumps for a second or two at a time on a loaded machine. */
#define SL_GRAPH_LIVE_DWELL_NS G_GINT64_CONSTANT (10000000000)

typedef struct _SlGraph SlGraph;

SlGraph    *sl_graph_new                (SlTreeKind         kind,
                                         SlJournal         *journal);
void        sl_graph_free               (SlGraph           *self);
SlTreeKind  sl_graph_get_kind           (const SlGraph     *self);
guint       sl_graph_add_node           (SlGraph           *self);
guint       sl_graph_get_n_nodes        (const SlGraph     *self);
void        sl_graph_update_edge        (SlGraph           *self,
                                         guint              a,
                                         guint              b,
                                         double             weight,
                                         const SlTransform *a_to_b,
                                         double             bound_ns);
void        sl_graph_update_edge_relation (SlGraph         *self,
                                         guint              a,
                                         guint              b,
                                         double             weight,
                                         SlRelation        *a_to_b);
void        sl_graph_remove_edge        (SlGraph           *self,
                                         guint              a,
                                         guint              b);
void        sl_graph_pin_reference      (SlGraph           *self,
                                         guint              node);
guint       sl_graph_get_pinned         (const SlGraph     *self);
void        sl_graph_set_margin         (SlGraph           *self,
                                         double             margin);
double      sl_graph_get_margin         (const SlGraph     *self);
void        sl_graph_set_dwell          (SlGraph           *self,
                                         gint64             dwell_ns);
void        sl_graph_set_time           (SlGraph           *self,
                                         gint64             now);
gboolean    sl_graph_edge_in_tree       (SlGraph           *self,
                                         guint              a,
                                         guint              b);
guint       sl_graph_get_reference      (SlGraph           *self,
                                         guint              node);
guint       sl_graph_get_parent         (SlGraph           *self,
                                         guint              node);
void        sl_graph_get_transform      (SlGraph           *self,
                                         guint              node,
                                         SlTransform       *to_reference,
                                         double            *bound_ns);
SlRelation *sl_graph_get_relation       (SlGraph           *self,
                                         guint              node);
void        sl_graph_commit             (SlGraph           *self);
void        sl_graph_settle_journal     (SlGraph           *self);
GArray     *sl_graph_get_path           (SlGraph           *self,
                                         guint              node);
guint64     sl_graph_get_n_tree_changes (const SlGraph     *self);
guint64     sl_graph_get_n_reference_changes (const SlGraph *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlGraph, sl_graph_free)

G_END_DECLS
