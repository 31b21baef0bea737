/* sl-ground.h: a window's background drawn only where it is seen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* @node with its first opaque fill of at least @min_ground_area left out
 * where opaque fills drawn after it cover it: the same pixels. */
GskRenderNode *sl_ground_cull (GskRenderNode *node,
                               double         min_ground_area);

G_END_DECLS
