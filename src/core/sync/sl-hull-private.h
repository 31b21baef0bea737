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

/* In coordinates sheared by y' = y − x (same value: the shear has
 * determinant 1) the y differences are offsets, small for real clocks, and
 * both products fit in 64 bits; 128 bits when they do not. */
static inline __int128
_sl_cross (SlPoint o,
       SlPoint a,
       SlPoint b)
{
  gint64 ax = a.x - o.x, bx = b.x - o.x;
  gint64 ay = (a.y - o.y) - ax, by = (b.y - o.y) - bx;
  gint64 p1, p2, r;

  if (G_LIKELY (!__builtin_mul_overflow (ax, by, &p1) && !__builtin_mul_overflow (ay, bx, &p2) &&
                !__builtin_sub_overflow (p1, p2, &r)))
    return r;
  return (__int128) ax * by - (__int128) ay * bx;
}

/* Orientation made positive for a convex turn on either chain: the lower
 * hull turns counter-clockwise, the upper hull clockwise. */
static inline __int128
_sl_turn (int     side,
      SlPoint a,
      SlPoint b,
      SlPoint c)
{
  __int128 t = _sl_cross (a, b, c);
  return side == ABOVE ? t : -t;
}

/* In time order, the new point is the hull's last vertex: drop the ones it
 * hides and append it (the common case, inline); else _sl_chain_insert(). */
static inline gboolean
_sl_chain_add (SlChain *c,
               int      side,
               SlPoint  p);

gboolean _sl_chain_insert (SlChain *c,
                           int      side,
                           SlPoint  p);
void     _sl_chain_copy   (SlChain       *dst,
                           const SlChain *src);
void     _sl_chain_clear  (SlChain       *c);
SlHull  *_sl_hull_copy    (const SlHull  *src);
guint64  _sl_hull_add_version (SlHull    *self,
                               int        side,
                               gint64     t_a,
                               gint64     t_b);
gboolean _sl_hull_is_crossed (const SlHull *self);

G_END_DECLS

static inline gboolean
_sl_chain_add (SlChain *c,
               int      side,
               SlPoint  p)
{
  gsize n = c->len;

  if (G_UNLIKELY (n == 0 || p.x <= c->pts[n - 1].x || n == c->cap))
    return _sl_chain_insert (c, side, p);
  while (n >= 2 && _sl_turn (side, c->pts[n - 2], c->pts[n - 1], p) <= 0)
    n--;
  c->pts[n] = p;
  c->len = n + 1;
  return TRUE;
}
