/* sl-graph-layout.h: where the host graph view puts its hosts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK-free. Each group of hosts on one clock is laid out as a radial tree
 * around its reference (angular room proportional to the leaves below a
 * host, rings far enough apart for the outer ring to hold every leaf); the
 * groups are then packed in rows, largest first. O(n log n) in the hosts.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double x;
  double y;
} SlLayoutPos;

/* Distance, in layout units, kept between neighbouring leaves. */
#define SL_GRAPH_LAYOUT_SPACING 1.0

void sl_graph_layout_compute (guint         n_hosts,
                              const guint  *parent,
                              const guint  *reference,
                              SlLayoutPos  *positions,
                              double       *width,
                              double       *height);

G_END_DECLS
