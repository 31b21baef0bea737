/* sl-hull-private.h: the hull chains, shared with the windowed estimator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-hull.h"

G_BEGIN_DECLS

/* Side 0 holds packets a->b, (send_a, recv_b): they lie above the true
 * line, and we keep their lower hull. Side 1 holds packets b->a, (recv_a,
 * send_b): below the line, upper hull. */
enum { SL_ABOVE = 0, SL_BELOW = 1 };
#define ABOVE SL_ABOVE
#define BELOW SL_BELOW

/* A convex chain sorted by x: the lower hull of a side's points (SL_ABOVE)
 * or their upper hull (SL_BELOW). */
typedef struct
{
  SlPoint *pts;
  gsize    len;
  gsize    cap;
} SlChain;

gboolean _sl_chain_insert (SlChain *c,
                           int      side,
                           SlPoint  p);
void     _sl_chain_copy   (SlChain       *dst,
                           const SlChain *src);
void     _sl_chain_clear  (SlChain       *c);
SlHull  *_sl_hull_copy    (const SlHull  *src);

G_END_DECLS
