/* sl-hull.h: fully incremental convex-hull synchronization of one link
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-relation.h"
#include "sl-transform.h"
#include "sl-types.h"

G_BEGIN_DECLS

/* Default plausibility limit: a relative clock rate outside
 * [1/(1+m), 1+m] is not a real pair of clocks but a matching or
 * clock-frequency error. 1 % is ~100x what crystals drift. */
#define SL_HULL_DEFAULT_MAX_DRIFT 0.01

typedef struct
{
  gint64 x;
  gint64 y;
} SlPoint;

/**
 * SlHullResult:
 * @quality: see #SlQuality
 * @reason: static text saying why the link is not accurate (or "")
 * @n_ab: matched packets sent by a (points above the line)
 * @n_ba: matched packets sent by b (points below the line)
 * @accurate_packets: packets that tightened alpha_min or alpha_max
 * @hull_points: hull points in use on each side (a->b, b->a), counted as
 *   [Jabbarifar §3.6.4] does: up to the point the bounding line rests on
 * @has_lmin, @has_lmax: whether each bounding line exists
 * @alpha_min, @alpha_max: their slopes (NAN when missing)
 * @lmin, @lmax: the bounding lines as t_b = L(t_a)
 * @has_estimate: whether @estimate is meaningful
 * @estimate: t_b = estimate(t_a)
 * @accuracy: alpha_max - alpha_min (the tree weight), INFINITY if unbounded
 * @band_ns: largest width of the feasible offset interval over the span
 * @bound_ns: largest possible |estimate - truth| over the span (guaranteed
 *   when the link is accurate)
 * @span_start, @span_end: a's clock range covered by the packets
 */
typedef struct
{
  SlQuality    quality;
  const char  *reason;
  guint64      n_ab;
  guint64      n_ba;
  guint64      accurate_packets;
  guint        hull_points[2];
  gboolean     has_lmin;
  gboolean     has_lmax;
  double       alpha_min;
  double       alpha_max;
  SlTransform  lmin;
  SlTransform  lmax;
  gboolean     has_estimate;
  SlTransform  estimate;
  double       accuracy;
  double       band_ns;
  double       bound_ns;
  gint64       span_start;
  gint64       span_end;
} SlHullResult;

typedef struct _SlHull SlHull;

SlHull   *sl_hull_new         (double             max_drift);
void      sl_hull_free        (SlHull            *self);
gboolean  sl_hull_add         (SlHull            *self,
                               gboolean           a_to_b,
                               gint64             t_a,
                               gint64             t_b);
SlQuality sl_hull_get_quality (const SlHull      *self);
void      sl_hull_get_result  (const SlHull      *self,
                               SlHullResult      *result);
guint64   sl_hull_get_version (const SlHull      *self);
GArray   *sl_hull_get_hull    (const SlHull      *self,
                               gboolean           a_to_b);
gboolean  sl_hull_get_band    (const SlHull      *self,
                               gint64             t_a,
                               double            *lo,
                               double            *hi);
SlRelation *sl_hull_get_relation (const SlHull   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlHull, sl_hull_free)

G_END_DECLS
