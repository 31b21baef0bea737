/* sl-relation.h: a clock relation: a piecewise-linear map from one clock to
 * another, with a guaranteed bound on its error at every instant
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-rates.h"
#include "sl-transform.h"

G_BEGIN_DECLS

/**
 * SlBoundPoint:
 * @x: an instant on the relation's source clock (ns)
 * @bound: the largest possible error of the map there (ns of the target
 *   clock), INFINITY when nothing bounds it
 */
typedef struct
{
  gint64 x;
  double bound;
} SlBoundPoint;

/**
 * SlRelation:
 *
 * An immutable, reference-counted map t_target = map(t_source) made of
 * pieces (each an #SlTransform valid from its start to the next piece's;
 * the first and the last extend for ever), and a bound b(t_source): the
 * true relation lies within map(t) ± b(t). The bound is piecewise linear
 * through its points and an upper bound between them; beyond its first and
 * last points it either keeps the end value (a constant bound) or is
 * infinite.
 *
 * Maps are non-decreasing. They are continuous except at detected clock
 * steps, where consecutive pieces may disagree at the breakpoint.
 */
typedef struct _SlRelation SlRelation;

/* What sl_relation_compose_update() keeps between compositions. */
typedef struct _SlComposeMemo SlComposeMemo;

SlRelation  *sl_relation_new_identity   (void);
SlRelation  *sl_relation_new_linear     (const SlTransform  *map,
                                         double              bound_ns);
SlRelation  *sl_relation_new            (const gint64       *starts,
                                         const SlTransform  *maps,
                                         guint               n_pieces,
                                         const SlBoundPoint *bounds,
                                         guint               n_bounds,
                                         gboolean            bounded_beyond);
SlRelation  *sl_relation_ref            (SlRelation         *self);
void         sl_relation_unref          (SlRelation         *self);
guint64      sl_relation_get_serial     (const SlRelation   *self);
gint         _sl_relation_get_refs      (const SlRelation   *self);

gboolean     sl_relation_equal          (const SlRelation   *a,
                                         const SlRelation   *b);
void         _sl_relation_set_rates     (SlRelation         *self,
                                         SlRates            *rates);
const SlRates *sl_relation_get_rates    (const SlRelation   *self);
gboolean     sl_relation_rate_at        (const SlRelation   *self,
                                         gint64              x,
                                         double              slack,
                                         double             *lo,
                                         double             *hi);
guint        sl_relation_get_n_pieces   (const SlRelation   *self);
gint64       sl_relation_get_piece      (const SlRelation   *self,
                                         guint               i,
                                         SlTransform        *map);
guint        sl_relation_find_piece     (const SlRelation   *self,
                                         gint64              x);
const SlTransform *sl_relation_piece_at (const SlRelation   *self,
                                         gint64              x);
gboolean     sl_relation_is_linear      (const SlRelation   *self);
gint64       sl_relation_apply          (const SlRelation   *self,
                                         gint64              x);
gint64       sl_relation_apply_up       (const SlRelation   *self,
                                         gint64              x);
void         sl_relation_apply_split    (const SlRelation   *self,
                                         gint64              x,
                                         gint64             *whole,
                                         double             *frac);
gint64       sl_relation_preimage       (const SlRelation   *self,
                                         gint64              y);
int          sl_relation_compare_images (const SlRelation   *a,
                                         gint64              x,
                                         const SlRelation   *b,
                                         gint64              y,
                                         int                *hints);

guint        sl_relation_get_n_bounds   (const SlRelation   *self);
const SlBoundPoint *sl_relation_get_bounds (const SlRelation *self);
gboolean     sl_relation_get_bounded_beyond (const SlRelation *self);
double       sl_relation_bound_at       (const SlRelation   *self,
                                         gint64              x);
double       sl_relation_max_bound      (const SlRelation   *self,
                                         gint64              x0,
                                         gint64              x1,
                                         gint64             *where);
GArray      *sl_relation_profile        (const SlRelation   *self,
                                         gint64              x0,
                                         gint64              x1,
                                         guint               max_points);

SlRelation  *sl_relation_invert         (const SlRelation   *self);
SlRelation  *sl_relation_compose        (const SlRelation   *outer,
                                         const SlRelation   *inner);
SlRelation  *sl_relation_compose_update (const SlRelation   *outer,
                                         const SlRelation   *inner,
                                         SlComposeMemo     **memo);
void         sl_compose_memo_free       (SlComposeMemo      *memo);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlRelation, sl_relation_unref)

G_END_DECLS
