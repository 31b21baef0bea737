/* sl-relation.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-compare.h"
#include "sl-rates.h"
#include "sl-relation.h"
#include "sl-round-private.h"

/*
 * Pieces are SlTransforms (exact on epoch-scale times) with their starts;
 * piece 0 starts at G_MININT64. The bound is a list of points, linear in
 * between.
 *
 * Composition g∘f: the pieces break where f's do and where f reaches one of
 * g's breakpoints; each piece is the exact composition of the two affine
 * maps. The bound adds instant by instant: with f's truth f*(x) within
 * f(x) ± b_f(x) and g's truth g* within g ± b_g,
 *   |g(f(x)) − g*(f*(x))| ≤ |g(f(x)) − g(f*(x))| + |g(f*(x)) − g*(f*(x))|
 *                         ≤ S·b_f(x) + J + b_g(f(x)) + L·b_f(x)
 * where S is g's largest slope, J the sum of g's jumps and L the largest
 * slope of b_g, all over f(x) ± b_f(x). Between consecutive breakpoints of
 * both bounds these terms are linear with S, J and L taken over the whole
 * interval, so the bound's points are the larger of the two intervals'
 * values at each breakpoint: an upper bound everywhere.
 *
 * Inversion: f(x*) = y ± b(x*) gives |x* − f⁻¹(y)| ≤ b / (s − L) with s the
 * smallest slope of f and L the largest slope of b around f⁻¹(y).
 */

struct _SlRelation
{
  gint          ref;
  guint64       serial;
  guint         n_pieces;
  guint         n_bounds;
  gboolean      bounded_beyond;
  gint64       *starts;
  SlTransform  *maps;
  SlBoundPoint *bounds;
  double        min_slope;
  SlRates      *rates;
};

static guint64 next_serial;

static SlRelation *
relation_alloc (guint n_pieces,
                guint n_bounds)
{
  SlRelation *self = g_new0 (SlRelation, 1);

  self->ref = 1;
  self->serial = __atomic_add_fetch (&next_serial, 1, __ATOMIC_RELAXED);
  self->n_pieces = n_pieces;
  self->n_bounds = n_bounds;
  self->starts = g_new (gint64, n_pieces);
  self->maps = g_new (SlTransform, n_pieces);
  self->bounds = g_new (SlBoundPoint, MAX (n_bounds, 1));
  return self;
}

static void
relation_finish (SlRelation *self)
{
  self->starts[0] = G_MININT64;
  self->min_slope = INFINITY;
  for (guint i = 0; i < self->n_pieces; i++)
    self->min_slope = MIN (self->min_slope, sl_transform_get_slope (&self->maps[i]));
}

SlRelation *
sl_relation_new (const gint64       *starts,
                 const SlTransform  *maps,
                 guint               n_pieces,
                 const SlBoundPoint *bounds,
                 guint               n_bounds,
                 gboolean            bounded_beyond)
{
  SlRelation *self;

  g_return_val_if_fail (n_pieces >= 1 && starts != NULL && maps != NULL, NULL);
  g_return_val_if_fail (n_bounds >= 1 && bounds != NULL, NULL);

  self = relation_alloc (n_pieces, n_bounds);
  memcpy (self->starts, starts, n_pieces * sizeof (gint64));
  memcpy (self->maps, maps, n_pieces * sizeof (SlTransform));
  memcpy (self->bounds, bounds, n_bounds * sizeof (SlBoundPoint));
  self->bounded_beyond = bounded_beyond;
  relation_finish (self);
  for (guint i = 1; i < n_pieces; i++)
    g_return_val_if_fail (starts[i] > starts[i - 1] || i == 1, self);
  for (guint i = 1; i < n_bounds; i++)
    g_return_val_if_fail (bounds[i].x > bounds[i - 1].x, self);
  return self;
}

SlRelation *
sl_relation_new_linear (const SlTransform *map,
                        double             bound_ns)
{
  SlBoundPoint b = { map->origin, bound_ns };
  gint64 start = G_MININT64;

  g_return_val_if_fail (map != NULL, NULL);
  return sl_relation_new (&start, map, 1, &b, 1, TRUE);
}

SlRelation *
sl_relation_new_identity (void)
{
  SlTransform id;

  sl_transform_init_identity (&id);
  return sl_relation_new_linear (&id, 0.0);
}

SlRelation *
sl_relation_ref (SlRelation *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref);
  return self;
}

/**
 * sl_relation_get_serial:
 *
 * Returns: a number no other relation of this process has or had (0 for
 *   none): what a cache compares to know its relation is the same without
 *   holding it (an address can be that of a later one)
 */
guint64
sl_relation_get_serial (const SlRelation *self)
{
  return self != NULL ? self->serial : 0;
}

/* Its references (tests: who still holds an old version). */
gint
_sl_relation_get_refs (const SlRelation *self)
{
  return g_atomic_int_get (&self->ref);
}

void
sl_relation_unref (SlRelation *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref))
    return;
  g_free (self->starts);
  g_free (self->maps);
  g_free (self->bounds);
  sl_rates_free (self->rates);
  g_free (self);
}

/**
 * sl_relation_equal:
 *
 * Returns: whether @a and @b are the same relation bit for bit: pieces,
 *   bound points, what holds beyond them and the rates
 */
gboolean
sl_relation_equal (const SlRelation *a,
                   const SlRelation *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a == b)
    return TRUE;
  return a->n_pieces == b->n_pieces && a->n_bounds == b->n_bounds &&
         a->bounded_beyond == b->bounded_beyond &&
         memcmp (a->starts, b->starts, a->n_pieces * sizeof (gint64)) == 0 &&
         memcmp (a->maps, b->maps, a->n_pieces * sizeof (SlTransform)) == 0 &&
         memcmp (a->bounds, b->bounds, a->n_bounds * sizeof (SlBoundPoint)) == 0 &&
         sl_rates_equal (a->rates, b->rates);
}

/* Only on a relation no one else holds yet (it is immutable once
 * shared): its link's windows' rate intervals (sl-segments-relation.c).
 * Compositions and inversions carry none. */
void
_sl_relation_set_rates (SlRelation *self,
                        SlRates    *rates)
{
  g_return_if_fail (self != NULL && self->ref == 1);

  sl_rates_free (self->rates);
  self->rates = rates;
}

/**
 * sl_relation_rate_at:
 * @x: an instant on the source clock, known within ±@slack ns
 * @lo, @hi: (out): the guaranteed interval of the true map's slope there
 *   (sl_rates_at())
 *
 * Returns: %FALSE when the relation carries no rates (not a link's) or
 *   they bound nothing there
 */
gboolean
sl_relation_rate_at (const SlRelation *self,
                     gint64            x,
                     double            slack,
                     double           *lo,
                     double           *hi)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return sl_rates_at (self->rates, x, slack, lo, hi);
}

const SlRates *
sl_relation_get_rates (const SlRelation *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->rates;
}

guint
sl_relation_get_n_pieces (const SlRelation *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_pieces;
}

/* Returns the piece's start (G_MININT64 for the first). */
gint64
sl_relation_get_piece (const SlRelation *self,
                       guint             i,
                       SlTransform      *map)
{
  g_return_val_if_fail (self != NULL && i < self->n_pieces, 0);
  if (map != NULL)
    *map = self->maps[i];
  return self->starts[i];
}

/* No check: called for every timestamp mapped. */
guint
sl_relation_find_piece (const SlRelation *self,
                        gint64            x)
{
  guint lo = 0, hi = self->n_pieces;

  /* the last piece whose start is <= x */
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (self->starts[mid] <= x)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

const SlTransform *
sl_relation_piece_at (const SlRelation *self,
                      gint64            x)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->maps[sl_relation_find_piece (self, x)];
}

gboolean
sl_relation_is_linear (const SlRelation *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->n_pieces == 1 && self->n_bounds == 1 && self->bounded_beyond;
}

gint64
sl_relation_apply (const SlRelation *self,
                   gint64            x)
{
  g_return_val_if_fail (self != NULL, x);
  return sl_transform_apply (&self->maps[sl_relation_find_piece (self, x)], x);
}

void
sl_relation_apply_split (const SlRelation *self,
                         gint64            x,
                         gint64           *whole,
                         double           *frac)
{
  g_return_if_fail (self != NULL);
  sl_transform_apply_split (&self->maps[sl_relation_find_piece (self, x)], x, whole, frac);
}

/* The piece's value at its own start, as a real number split in two. */
static long double
piece_value (const SlTransform *t,
             gint64             x)
{
  gint64 whole;
  double frac;

  sl_transform_apply_split (t, x, &whole, &frac);
  return (long double) whole + frac;
}

/**
 * sl_relation_apply_up:
 *
 * Returns: the first instant of the target clock at or after @x's exact
 *   image: where the inverse's piece for @x's piece starts when @x is that
 *   piece's start (sl_relation_apply() rounds to the nearest, which can be
 *   the last instant of the inverse's piece before)
 */
gint64
sl_relation_apply_up (const SlRelation *self,
                      gint64            x)
{
  g_return_val_if_fail (self != NULL, x);
  return (gint64) ceill (piece_value (&self->maps[sl_relation_find_piece (self, x)], x));
}

static gint64
piece_inverse (const SlTransform *t,
               gint64             y)
{
  long double d = (sl_diff_ld (y, t->image) - t->image_frac) / (1.0L + (long double) t->drift);

  if (!isfinite (d))
    return t->origin;
  d = CLAMP (d, -9.0e18L - (long double) t->origin, 9.0e18L - (long double) t->origin);
  return t->origin + sl_llroundl (d);
}

/* sl_relation_apply() at x, which is mostly in piece i. */
static inline gint64
apply_near (const SlRelation *self,
            guint             i,
            gint64            x)
{
  if (x < self->starts[i] || (i + 1 < self->n_pieces && x >= self->starts[i + 1]))
    i = sl_relation_find_piece (self, x);
  return sl_transform_apply (&self->maps[i], x);
}

/* The smallest x whose image is at least y (pieces are non-decreasing;
 * within a piece, the nearest instant). */
gint64
sl_relation_preimage (const SlRelation *self,
                      gint64            y)
{
  guint lo = 0, hi = self->n_pieces;
  gint64 x;

  g_return_val_if_fail (self != NULL, y);

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (piece_value (&self->maps[mid], self->starts[mid]) <= (long double) y)
        lo = mid;
      else
        hi = mid;
    }

  if (sl_transform_get_slope (&self->maps[lo]) <= 0)
    x = lo + 1 < self->n_pieces ? self->starts[lo + 1] : self->maps[lo].origin;
  else
    x = piece_inverse (&self->maps[lo], y);
  if (lo > 0)
    x = MAX (x, self->starts[lo]);
  if (lo + 1 < self->n_pieces)
    x = MIN (x, self->starts[lo + 1]);
  /* rounding: the first instant that reaches y */
  for (int k = 0; k < 4 && x < G_MAXINT64 && apply_near (self, lo, x) < y; k++)
    x++;
  for (int k = 0; k < 4 && x > G_MININT64 && apply_near (self, lo, x - 1) >= y; k++)
    x--;
  return x;
}

guint
sl_relation_get_n_bounds (const SlRelation *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_bounds;
}

const SlBoundPoint *
sl_relation_get_bounds (const SlRelation *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->bounds;
}

gboolean
sl_relation_get_bounded_beyond (const SlRelation *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->bounded_beyond;
}

static double
lerp_bound (const SlBoundPoint *p,
            const SlBoundPoint *q,
            gint64              x)
{
  if (!isfinite (p->bound) || !isfinite (q->bound))
    return INFINITY;
  if (x <= p->x)
    return p->bound;
  if (x >= q->x)
    return q->bound;
  return p->bound + (q->bound - p->bound) * ((double) (x - p->x) / (double) (q->x - p->x));
}

/* Index of the last bound point at or before x, -1 before the first. */
static int
find_bound (const SlRelation *self,
            gint64            x)
{
  int lo = -1, hi = (int) self->n_bounds;

  while (hi - lo > 1)
    {
      int mid = (lo + hi) / 2;

      if (self->bounds[mid].x <= x)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* The last index of a strictly increasing sequence of instants (n of them,
 * `stride` bytes apart) at or before x, -1 before the first; the search
 * starts from *hint and leaves the answer there. Compositions look up
 * instants in order: a gallop from the previous answer is a step or two
 * where a binary search over a long relation is ten cache misses, and the
 * answer is the same. */
static int
search_near (const void *base,
             gsize       stride,
             int         n,
             gint64      x,
             int        *hint)
{
#define AT(i) (*(const gint64 *) (gconstpointer) ((const char *) base + (gsize) (i) * stride))
  int lo, hi, h = CLAMP (*hint, -1, n - 1);
  int step = 1;

  /* invariant: lo == -1 or AT(lo) <= x; hi == n or AT(hi) > x */
  if (h >= 0 && AT (h) > x)
    {
      hi = h;
      lo = h - 1;
      while (lo >= 0 && AT (lo) > x)
        {
          hi = lo;
          lo -= step;
          step *= 2;
        }
      lo = MAX (lo, -1);
    }
  else
    {
      lo = h;
      hi = h + 1;
      while (hi < n && AT (hi) <= x)
        {
          lo = hi;
          hi += step;
          step *= 2;
        }
      hi = MIN (hi, n);
    }
  while (hi - lo > 1)
    {
      int mid = lo + (hi - lo) / 2;

      if (AT (mid) <= x)
        lo = mid;
      else
        hi = mid;
    }
#undef AT
  *hint = lo;
  return lo;
}

static inline guint
find_piece_near (const SlRelation *self,
                 gint64            x,
                 int              *hint)
{
  /* starts[0] is G_MININT64: never -1 */
  return (guint) MAX (search_near (self->starts, sizeof (gint64), (int) self->n_pieces, x, hint), 0);
}

static inline int
find_bound_near (const SlRelation *self,
                 gint64            x,
                 int              *hint)
{
  return search_near (&self->bounds[0].x, sizeof (SlBoundPoint), (int) self->n_bounds, x, hint);
}

/* The value of t's offset (image − t) in double, and a bound on its error
 * against offset_at()'s long double (both round the same real number). */
static inline double
offset_approx (const SlTransform *t,
               gint64             x,
               double            *size)
{
  double a = (double) (t->image - t->origin), d = t->drift * (double) (x - t->origin);

  *size += fabs (a) + fabs (d) + 1;
  return a + t->image_frac + d;
}

/**
 * sl_relation_compare_images:
 * @hints: two ints kept between calls (start them at 0): instants in order
 *   find their pieces in a step or two
 *
 * Returns: the sign of sl_relation_apply (@b, @y) − sl_relation_apply (@a,
 *   @x), exactly, mostly without computing either: far from 0, the images'
 *   difference in double precision tells it.
 */
int
sl_relation_compare_images (const SlRelation *a,
                            gint64            x,
                            const SlRelation *b,
                            gint64            y,
                            int              *hints)
{
  const SlTransform *ta = &a->maps[find_piece_near (a, x, &hints[0])];
  const SlTransform *tb = &b->maps[find_piece_near (b, y, &hints[1])];
  const gint64 lim = G_GINT64_CONSTANT (1) << 61;
  gint64 ia, ib;

  if (x > -lim && x < lim && y > -lim && y < lim &&
      ta->origin > -lim && ta->origin < lim && ta->image > -lim && ta->image < lim &&
      tb->origin > -lim && tb->origin < lim && tb->image > -lim && tb->image < lim)
    {
      /* each term's rounding is a few ulps of the largest; the two images
       * round their offsets to integers: ±1 between them */
      double size = fabs ((double) (y - x));
      double diff = (double) (y - x) + offset_approx (tb, y, &size) - offset_approx (ta, x, &size);
      double margin = 2 + size * 0x1p-48;

      if (size < 0x1p60 && diff > margin)
        return 1;
      if (size < 0x1p60 && diff < -margin)
        return -1;
    }
  ia = sl_transform_apply (ta, x);
  ib = sl_transform_apply (tb, y);
  return ib > ia ? 1 : ib < ia ? -1 : 0;
}

/* The bound at x, with i = find_bound (self, x). */
static double
bound_at_index (const SlRelation *self,
                gint64            x,
                int               i)
{
  if (i < 0)
    return self->bounded_beyond ? self->bounds[0].bound : INFINITY;
  if (i == (int) self->n_bounds - 1)
    {
      if (x == self->bounds[i].x || self->bounded_beyond)
        return self->bounds[i].bound;
      return INFINITY;
    }
  return lerp_bound (&self->bounds[i], &self->bounds[i + 1], x);
}

double
sl_relation_bound_at (const SlRelation *self,
                      gint64            x)
{
  g_return_val_if_fail (self != NULL, INFINITY);

  return bound_at_index (self, x, find_bound (self, x));
}

/* The bound is linear between its points: its largest value over
 * [x0, x1] is at an end or at one of the points in between. */
double
sl_relation_max_bound (const SlRelation *self,
                       gint64            x0,
                       gint64            x1,
                       gint64           *where)
{
  double best;
  gint64 at = x0;
  int i;

  g_return_val_if_fail (self != NULL, INFINITY);

  if (x1 < x0)
    {
      gint64 t = x0;
      x0 = x1;
      x1 = t;
    }

  best = sl_relation_bound_at (self, x0);
  {
    double b1 = sl_relation_bound_at (self, x1);

    if (b1 > best || (isinf (b1) && !isinf (best)))
      {
        best = b1;
        at = x1;
      }
  }
  for (i = MAX (find_bound (self, x0), 0); i < (int) self->n_bounds && self->bounds[i].x <= x1; i++)
    if (self->bounds[i].x >= x0 && self->bounds[i].bound > best)
      {
        best = self->bounds[i].bound;
        at = self->bounds[i].x;
      }
  if (where != NULL)
    *where = at;
  return best;
}

/* A piecewise-linear upper envelope of the bound over [x0, x1] with at
 * most max_points points (max_points >= 2): where the bound has more
 * points, the span is cut in equal buckets and each point takes the
 * largest value of the two buckets it joins. */
GArray *
sl_relation_profile (const SlRelation *self,
                     gint64            x0,
                     gint64            x1,
                     guint             max_points)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (SlBoundPoint));
  GArray *exact = g_array_new (FALSE, FALSE, sizeof (SlBoundPoint));
  SlBoundPoint p;

  g_return_val_if_fail (self != NULL, out);

  max_points = MAX (max_points, 2);
  if (x1 < x0)
    {
      g_array_unref (exact);
      return out;
    }

  p.x = x0;
  p.bound = sl_relation_bound_at (self, x0);
  g_array_append_val (exact, p);
  for (int i = MAX (find_bound (self, x0) + 1, 0); i < (int) self->n_bounds && self->bounds[i].x < x1; i++)
    if (self->bounds[i].x > x0)
      g_array_append_val (exact, self->bounds[i]);
  if (x1 > x0)
    {
      p.x = x1;
      p.bound = sl_relation_bound_at (self, x1);
      g_array_append_val (exact, p);
    }

  if (exact->len <= max_points)
    {
      g_array_unref (out);
      return exact;
    }

  {
    guint n = max_points - 1;
    double *bucket = g_new (double, n);

    for (guint j = 0; j < n; j++)
      {
        gint64 lo = x0 + (gint64) ((__int128) (x1 - x0) * j / n);
        gint64 hi = x0 + (gint64) ((__int128) (x1 - x0) * (j + 1) / n);

        bucket[j] = sl_relation_max_bound (self, lo, hi, NULL);
      }
    for (guint j = 0; j <= n; j++)
      {
        p.x = x0 + (gint64) ((__int128) (x1 - x0) * j / n);
        p.bound = MAX (j > 0 ? bucket[j - 1] : 0, j < n ? bucket[j] : 0);
        g_array_append_val (out, p);
      }
    g_free (bucket);
  }
  g_array_unref (exact);
  return out;
}

/* |value after − value before| at each piece's start (0 at piece 0). */
static long double
piece_jump (const SlRelation *self,
            guint             i)
{
  if (i == 0)
    return 0;
  return fabsl (piece_value (&self->maps[i], self->starts[i]) -
                piece_value (&self->maps[i - 1], self->starts[i]));
}

/* Slopes and jumps of a map over [y0, y1] of its source; @jumps_at: the
 * pieces' jumps computed beforehand (piece_jump()), or NULL. */
static void
map_stats_range (const SlRelation  *self,
                 guint              i0,
                 guint              i1,
                 const long double *jumps_at,
                 double            *max_slope,
                 double            *min_slope,
                 double            *jumps)
{
  *max_slope = 0;
  *min_slope = INFINITY;
  *jumps = 0;
  for (guint i = i0; i <= i1; i++)
    {
      double s = sl_transform_get_slope (&self->maps[i]);

      *max_slope = MAX (*max_slope, s);
      *min_slope = MIN (*min_slope, s);
      if (i > i0)
        *jumps += jumps_at != NULL ? jumps_at[i] : piece_jump (self, i);
    }
}

static void
map_stats (const SlRelation *self,
           gint64            y0,
           gint64            y1,
           double           *max_slope,
           double           *min_slope,
           double           *jumps)
{
  map_stats_range (self, sl_relation_find_piece (self, y0), sl_relation_find_piece (self, y1), NULL,
                   max_slope, min_slope, jumps);
}

/* How much the bound can grow between two instants of [y0, y1]: at most
 * lip per ns along its gentle segments, plus the rise of its steep ones
 * (slope above STEEP: where two windows meet, across a clock step), which
 * count once whatever the distance. */
#define STEEP 0.05

/* The last variation summed, from i0 up to i1: a range that starts at
 * i0 too and ends later continues the sum in the same order (a
 * composition's far intervals all reach back to outer's first point). */
typedef struct
{
  gboolean valid;
  gboolean stopped;
  int      i0;
  int      i1;
  double   lip;
  double   rise;
} VaryMemo;

static void
bound_variation_range (const SlRelation *self,
                       int               i0,
                       int               i1,
                       VaryMemo         *memo,
                       double           *lip,
                       double           *rise)
{
  int from = i0;
  gboolean stopped = FALSE;

  /* Beyond its points the bound is constant or infinite: either way the
   * variation that matters for instants inside is that of the segments
   * there (an instant beyond has an infinite bound of its own). */
  *lip = 0;
  *rise = 0;
  if (memo != NULL && memo->valid && memo->i0 == i0 && memo->i1 <= i1)
    {
      *lip = memo->lip;
      *rise = memo->rise;
      stopped = memo->stopped;
      from = memo->i1 + 1;
    }
  for (int i = MAX (from, 0); !stopped && i <= i1 && i + 1 < (int) self->n_bounds; i++)
    {
      const SlBoundPoint *p = &self->bounds[i], *q = &self->bounds[i + 1];
      double d = fabs (q->bound - p->bound), m;

      if (!isfinite (p->bound) || !isfinite (q->bound))
        {
          *rise = INFINITY;
          stopped = TRUE;
          break;
        }
      m = d / (double) (q->x - p->x);
      if (m > STEEP)
        *rise += d;
      else
        *lip = MAX (*lip, m);
    }
  if (memo != NULL)
    *memo = (VaryMemo) { TRUE, stopped, i0, i1, *lip, *rise };
}

static void
bound_variation (const SlRelation *self,
                 gint64            y0,
                 gint64            y1,
                 double           *lip,
                 double           *rise)
{
  bound_variation_range (self, find_bound (self, y0), find_bound (self, y1), NULL, lip, rise);
}

static void
sort_unique (GArray *xs)
{
  guint k = 0;

  g_array_sort (xs, sl_compare_gint64);
  for (guint i = 0; i < xs->len; i++)
    if (k == 0 || g_array_index (xs, gint64, i) != g_array_index (xs, gint64, k - 1))
      g_array_index (xs, gint64, k++) = g_array_index (xs, gint64, i);
  g_array_set_size (xs, k);
}

static gboolean
sorted_run (const gint64 *x,
            guint         n)
{
  for (guint i = 1; i < n; i++)
    if (x[i] < x[i - 1])
      return FALSE;
  return TRUE;
}

/* sort_unique() of xs whose first `mid` and remaining elements are each
 * sorted, as a merge (a composition's instants are a few such runs). */
static void
merge_unique (GArray *xs,
              guint   mid)
{
  const gint64 *x = (const gint64 *) (gpointer) xs->data;
  gint64 *out;
  guint i = 0, j = mid, k = 0;

  if (xs->len == 0)
    return;
  if (!sorted_run (x, mid) || !sorted_run (x + mid, xs->len - mid))
    {
      sort_unique (xs);
      return;
    }
  out = g_new (gint64, MAX (xs->len, 1));
  while (i < mid || j < xs->len)
    {
      gint64 v = j >= xs->len || (i < mid && x[i] <= x[j]) ? x[i++] : x[j++];

      if (k == 0 || out[k - 1] != v)
        out[k++] = v;
    }
  if (k > 0)
    memcpy (xs->data, out, k * sizeof (gint64));
  g_array_set_size (xs, k);
  g_free (out);
}

static gint64
sat_add (gint64 a,
         double  d)
{
  double r = (double) a + d;

  if (!(r < 9.2e18))
    return G_MAXINT64;
  if (!(r > -9.2e18))
    return G_MININT64;
  return (gint64) r;
}

/* Drops bound points that lie on (or a hair under) the line through their
 * neighbours: the bound without them is never lower. */
static void
simplify_bounds (SlRelation *self)
{
  guint k = 0;

  for (guint i = 0; i < self->n_bounds; i++)
    {
      const SlBoundPoint *p = &self->bounds[i];

      if (k >= 1 && i + 1 < self->n_bounds)
        {
          const SlBoundPoint *a = &self->bounds[k - 1], *c = &self->bounds[i + 1];
          double line = lerp_bound (a, c, p->x);

          if (isfinite (line) && p->bound <= line && line - p->bound <= 1e-9 * fabs (line) + 1e-9)
            continue;
        }
      self->bounds[k++] = *p;
    }
  /* one constant value */
  if (k == 2 && self->bounded_beyond && self->bounds[0].bound == self->bounds[1].bound)
    k = 1;
  self->n_bounds = k;
}

/* What a composition keeps for the next one with the same place in a
 * chain (sl_relation_compose_update()): its inputs, the instants its bound
 * was computed at, and each interval's two values with the farthest
 * instant of outer they read. The instants are those of its result's
 * bound when simplifying it removed none (almost always): the result is
 * held (the chain holds it anyway) rather than a copy of them. */
struct _SlComposeMemo
{
  SlRelation *outer;
  SlRelation *inner;
  SlRelation *result;
  gboolean    bounded_beyond;
  gboolean    empty;
  guint       n;
  gint64     *xs;
  double     *va;
  double     *vb;
  gint64     *reach;
};

void
sl_compose_memo_free (SlComposeMemo *memo)
{
  if (memo == NULL)
    return;
  sl_relation_unref (memo->outer);
  sl_relation_unref (memo->inner);
  sl_relation_unref (memo->result);
  g_free (memo->xs);
  g_free (memo->va);
  g_free (memo->vb);
  g_free (memo->reach);
  g_free (memo);
}

static gint64
memo_x (const SlComposeMemo *memo,
        guint                i)
{
  return memo->xs != NULL ? memo->xs[i] : memo->result->bounds[i].x;
}

/* Two versions of a relation agree at every instant below `below`: their
 * pieces (with the lookups that find them) and their bound's points (with
 * the segments that interpolate them). */
typedef struct
{
  gboolean all;
  gint64   below;
} Agreement;

static gboolean
agrees (const Agreement *a,
        gint64           x)
{
  return a->all || x < a->below;
}

static void
agreement (const SlRelation *old,
           const SlRelation *cur,
           Agreement        *pieces,
           Agreement        *bounds)
{
  guint n = MIN (old->n_pieces, cur->n_pieces), j = 0;

  while (j < n && old->starts[j] == cur->starts[j] &&
         memcmp (&old->maps[j], &cur->maps[j], sizeof (SlTransform)) == 0)
    j++;
  pieces->all = j == old->n_pieces && j == cur->n_pieces;
  pieces->below = MIN (j < old->n_pieces ? old->starts[j] : G_MAXINT64,
                       j < cur->n_pieces ? cur->starts[j] : G_MAXINT64);
  if (j == 0)
    pieces->below = G_MININT64;

  /* a lookup between points j-2 and j-1 reads j-1 at most */
  n = MIN (old->n_bounds, cur->n_bounds);
  j = 0;
  while (j < n && memcmp (&old->bounds[j], &cur->bounds[j], sizeof (SlBoundPoint)) == 0)
    j++;
  bounds->all = j == old->n_bounds && j == cur->n_bounds && old->bounded_beyond == cur->bounded_beyond;
  bounds->below = j > 0 && old->bounded_beyond == cur->bounded_beyond ? old->bounds[j - 1].x : G_MININT64;
}

/* Where the previous interval's lookups ended, to start the next ones
 * from (search_near()). */
typedef struct
{
  int inner_piece[2];
  int inner_bound[2];
  int outer_piece[2];
  int outer_bound[4];
  /* interval k's far end is interval k+1's near end: its values, computed
   * once (the same calls with the same arguments) */
  gboolean end_valid;
  gboolean end_outer_valid;
  gint64   end_x;
  double   end_inner_bound;
  gint64   end_y;
  double   end_outer_bound;
  /* outer's piece jumps (|value after − value before| at each start) */
  const long double *jumps;
  VaryMemo vary;
} Hints;

/* Interval k of the composition's bound, [xs[k], xs[k+1]] (the last one a
 * single instant): its linear upper bound's values at both ends, and the
 * farthest instant of outer that they read (G_MININT64 when none). */
static void
compose_interval (const SlRelation *outer,
                  const SlRelation *inner,
                  const gint64     *xs,
                  guint             n,
                  guint             k,
                  gboolean          bounded_beyond,
                  Hints            *h,
                  double           *va_out,
                  double           *vb_out,
                  gint64           *reach)
{
  gint64 a = xs[k];
  gint64 b = k + 1 < n ? xs[k + 1] : a;
  gboolean a_known = h->end_valid && h->end_x == a;
  gboolean a_outer_known = a_known && h->end_outer_valid;
  double a_outer = a_outer_known ? h->end_outer_bound : 0;
  double ba = a_known ? h->end_inner_bound
                      : bound_at_index (inner, a, find_bound_near (inner, a, &h->inner_bound[0]));
  double bb = bound_at_index (inner, b, find_bound_near (inner, b, &h->inner_bound[1]));
  double beta = MAX (ba, bb);
  double s, smin, jumps, lip, rise, va, vb;
  gint64 ya = a_known ? h->end_y
                      : sl_transform_apply (&inner->maps[find_piece_near (inner, a, &h->inner_piece[0])], a);
  gint64 yb = sl_transform_apply (&inner->maps[find_piece_near (inner, b, &h->inner_piece[1])], b);

  h->end_valid = TRUE;
  h->end_outer_valid = FALSE;
  h->end_x = b;
  h->end_inner_bound = bb;
  h->end_y = yb;
  *reach = G_MININT64;
  if (!isfinite (beta))
    va = vb = INFINITY;
  else
    {
      /* a constant bound beyond the ends meets all of outer's pieces
       * out there */
      gint64 z0 = k == 0 && bounded_beyond ? G_MININT64 : sat_add (MIN (ya, yb), -beta - 1);
      gint64 z1 = k + 1 == n && bounded_beyond ? G_MAXINT64 : sat_add (MAX (ya, yb), beta + 1);

      double b_outer;

      map_stats_range (outer, find_piece_near (outer, z0, &h->outer_piece[0]),
                       find_piece_near (outer, z1, &h->outer_piece[1]), h->jumps, &s, &smin, &jumps);
      bound_variation_range (outer, find_bound_near (outer, z0, &h->outer_bound[0]),
                             find_bound_near (outer, z1, &h->outer_bound[1]), &h->vary, &lip, &rise);
      if (!a_outer_known)
        a_outer = bound_at_index (outer, ya, find_bound_near (outer, ya, &h->outer_bound[2]));
      b_outer = bound_at_index (outer, yb, find_bound_near (outer, yb, &h->outer_bound[3]));
      h->end_outer_valid = TRUE;
      h->end_outer_bound = b_outer;
      va = (s + lip) * ba + jumps + rise + a_outer;
      vb = (s + lip) * bb + jumps + rise + b_outer;
      if (isnan (va))
        va = INFINITY;
      if (isnan (vb))
        vb = INFINITY;
      *reach = MAX (z1, MAX (ya, yb));
    }
  *va_out = va;
  *vb_out = vb;
}

/* Interval k of the previous composition gives the same values when its
 * instants are the same and neither input changed where it read them
 * (the last interval of either reads for ever). */
static gboolean
interval_reusable (const SlComposeMemo *memo,
                   const gint64        *xs,
                   guint                n,
                   guint                same_xs,
                   guint                k,
                   const Agreement     *inner_p,
                   const Agreement     *inner_b,
                   const Agreement     *outer_p,
                   const Agreement     *outer_b)
{
  gint64 b;

  if (k + 1 >= MIN (n, memo->n) || k + 1 >= same_xs)
    return FALSE;
  b = xs[k + 1];
  if (!agrees (inner_p, b) || !agrees (inner_b, b))
    return FALSE;
  return memo->reach[k] == G_MININT64 ||
         (agrees (outer_p, memo->reach[k]) && agrees (outer_b, memo->reach[k]));
}

/* The composition's piece starts (cuts) and the instants its bound is
 * computed at (xs); FALSE when the two bounds hold nowhere together. */
static gboolean
compose_instants (const SlRelation *outer,
                  const SlRelation *inner,
                  GArray           *cuts,
                  GArray           *xs)
{
  gboolean empty;
  guint mid;

  /* pieces */
  for (guint i = 1; i < inner->n_pieces; i++)
    g_array_append_val (cuts, inner->starts[i]);
  mid = cuts->len;
  for (guint j = 1; j < outer->n_pieces; j++)
    {
      gint64 x = sl_relation_preimage (inner, outer->starts[j]);
      g_array_append_val (cuts, x);
    }
  merge_unique (cuts, mid);
  /* a cut at G_MININT64 would duplicate piece 0 */
  while (cuts->len > 0 && g_array_index (cuts, gint64, 0) == G_MININT64)
    g_array_remove_index (cuts, 0);

  for (guint i = 0; i < inner->n_bounds; i++)
    g_array_append_val (xs, inner->bounds[i].x);
  for (guint j = 0; j < outer->n_bounds; j++)
    {
      gint64 x = sl_relation_preimage (inner, outer->bounds[j].x);
      g_array_append_val (xs, x);
    }
  merge_unique (xs, inner->n_bounds);
  mid = xs->len;
  g_array_append_vals (xs, cuts->data, cuts->len);
  merge_unique (xs, mid);

  /* Beyond the instants where either bound ends (when it does not hold
   * beyond) the result is unbounded: points there would only make the
   * interval next to them infinite. */
  {
    gint64 lo = G_MININT64, hi = G_MAXINT64;
    guint k = 0;

    if (!inner->bounded_beyond)
      {
        lo = inner->bounds[0].x;
        hi = inner->bounds[inner->n_bounds - 1].x;
      }
    if (!outer->bounded_beyond)
      {
        lo = MAX (lo, sl_relation_preimage (inner, outer->bounds[0].x));
        hi = MIN (hi, sl_relation_preimage (inner, outer->bounds[outer->n_bounds - 1].x));
      }
    for (guint i = 0; i < xs->len; i++)
      {
        gint64 x = g_array_index (xs, gint64, i);

        if (x >= lo && x <= hi)
          g_array_index (xs, gint64, k++) = x;
      }
    g_array_set_size (xs, k);
    if (k == 0)
      {
        gint64 x = lo <= hi ? lo : inner->maps[0].origin;
        g_array_append_val (xs, x);
      }
    empty = lo > hi;
  }

  return !empty;
}

static SlRelation *
compose (const SlRelation  *outer,
         const SlRelation  *inner,
         SlComposeMemo    **memo)
{
  g_autoptr(GArray) cuts = g_array_sized_new (FALSE, FALSE, sizeof (gint64), inner->n_pieces + outer->n_pieces);
  g_autoptr(GArray) xs = NULL;
  SlComposeMemo *old = memo != NULL ? *memo : NULL;
  SlComposeMemo *next = NULL;
  Agreement inner_p = { FALSE, G_MININT64 }, inner_b = inner_p, outer_p = inner_p, outer_b = inner_p;
  SlRelation *self;
  double *left, *right, *va, *vb;
  gint64 *reach;
  guint same_xs = 0;
  Hints hints = { { 0 } };
  g_autofree long double *jumps = g_new (long double, outer->n_pieces);
  gboolean empty;

  /* the instants: both bounds' and the pieces' */
  xs = g_array_sized_new (FALSE, FALSE, sizeof (gint64),
                          inner->n_bounds + outer->n_bounds + inner->n_pieces + outer->n_pieces);
  empty = !compose_instants (outer, inner, cuts, xs);
  for (guint i = 0; i < outer->n_pieces; i++)
    jumps[i] = piece_jump (outer, i);
  hints.jumps = jumps;

  self = relation_alloc (cuts->len + 1, xs->len);
  for (guint m = 0; m <= cuts->len; m++)
    {
      gint64 at = m == 0 ? (cuts->len > 0 ? g_array_index (cuts, gint64, 0) - 1 : inner->maps[0].origin)
                         : g_array_index (cuts, gint64, m - 1);
      const SlTransform *f = sl_relation_piece_at (inner, at);
      const SlTransform *g = sl_relation_piece_at (outer, sl_transform_apply (f, at));
      SlTransform c;

      sl_transform_compose (g, f, &c);
      if (m > 0)
        sl_transform_rebase (&c, at, &self->maps[m]);
      else
        self->maps[m] = c;
      self->starts[m] = m == 0 ? G_MININT64 : at;
    }
  self->bounded_beyond = inner->bounded_beyond && outer->bounded_beyond;
  relation_finish (self);

  if (memo != NULL)
    {
      next = g_new0 (SlComposeMemo, 1);
      next->outer = sl_relation_ref ((SlRelation *) outer);
      next->inner = sl_relation_ref ((SlRelation *) inner);
      next->bounded_beyond = self->bounded_beyond;
      next->empty = empty;
      next->n = xs->len;
      next->va = g_new (double, xs->len);
      next->vb = g_new (double, xs->len);
      next->reach = g_new (gint64, xs->len);
    }
  va = next != NULL ? next->va : g_new (double, xs->len);
  vb = next != NULL ? next->vb : g_new (double, xs->len);
  reach = next != NULL ? next->reach : g_new (gint64, xs->len);

  if (old != NULL && !old->empty && !empty && old->bounded_beyond == self->bounded_beyond)
    {
      const gint64 *x = (const gint64 *) (gpointer) xs->data;

      agreement (old->inner, inner, &inner_p, &inner_b);
      agreement (old->outer, outer, &outer_p, &outer_b);
      while (same_xs < MIN (xs->len, old->n) && memo_x (old, same_xs) == x[same_xs])
        same_xs++;
    }

  /* bounds: each interval's linear upper bound, the larger of the two at
   * every point */
  for (guint k = 0; k < xs->len; k++)
    {
      if (same_xs > 0 &&
          interval_reusable (old, (const gint64 *) (gpointer) xs->data, xs->len, same_xs, k,
                             &inner_p, &inner_b, &outer_p, &outer_b))
        {
          va[k] = old->va[k];
          vb[k] = old->vb[k];
          reach[k] = old->reach[k];
        }
      else
        compose_interval (outer, inner, (const gint64 *) (gpointer) xs->data, xs->len, k,
                          self->bounded_beyond, &hints, &va[k], &vb[k], &reach[k]);
    }

  left = g_new0 (double, xs->len);
  right = g_new0 (double, xs->len);
  for (guint k = 0; k < xs->len; k++)
    {
      left[k] = MAX (left[k], va[k]);
      if (k + 1 < xs->len)
        right[k + 1] = MAX (right[k + 1], vb[k]);
      else
        left[k] = MAX (left[k], vb[k]);
    }
  for (guint k = 0; k < xs->len; k++)
    {
      self->bounds[k].x = g_array_index (xs, gint64, k);
      self->bounds[k].bound = empty ? INFINITY : MAX (left[k], right[k]);
    }
  g_free (left);
  g_free (right);
  if (next == NULL)
    {
      g_free (va);
      g_free (vb);
      g_free (reach);
    }
  else
    {
      sl_compose_memo_free (old);
      *memo = next;
    }
  simplify_bounds (self);
  if (next != NULL)
    {
      if (self->n_bounds == xs->len)
        next->result = sl_relation_ref (self);
      else
        next->xs = g_memdup2 (xs->data, xs->len * sizeof (gint64));
    }
  return self;
}

SlRelation *
sl_relation_compose (const SlRelation *outer,
                     const SlRelation *inner)
{
  g_return_val_if_fail (outer != NULL && inner != NULL, NULL);

  return compose (outer, inner, NULL);
}

/**
 * sl_relation_compose_update:
 * @memo: (inout) (nullable): what the previous composition at this place
 *   of a chain kept, replaced by this one's
 *
 * The same relation as sl_relation_compose(), bit for bit, computing again
 * only the intervals of the bound where @outer or @inner differ from the
 * previous inputs kept in @memo (a live link's relation changes in its
 * tail). Free the memo with sl_compose_memo_free().
 */
SlRelation *
sl_relation_compose_update (const SlRelation  *outer,
                            const SlRelation  *inner,
                            SlComposeMemo    **memo)
{
  g_return_val_if_fail (outer != NULL && inner != NULL, NULL);
  g_return_val_if_fail (memo != NULL, NULL);

  return compose (outer, inner, memo);
}

SlRelation *
sl_relation_invert (const SlRelation *self)
{
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) maps = g_array_new (FALSE, FALSE, sizeof (SlTransform));
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (gint64));
  SlRelation *inv;
  guint nb;

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->n_pieces; i++)
    {
      SlTransform t;
      gint64 y = G_MININT64;

      if (i > 0)
        {
          long double lo = piece_value (&self->maps[i - 1], self->starts[i]);
          long double hi = piece_value (&self->maps[i], self->starts[i]);
          gint64 ylo = (gint64) ceill (lo), yhi = (gint64) ceill (hi);

          /* a forward step: the instants the clock skipped map to the
           * step's instant */
          if (yhi > ylo + 1)
            {
              SlTransform flat;

              sl_transform_init (&flat, ylo, self->starts[i], 0.0, -1.0);
              if (starts->len == 0 || ylo > g_array_index (starts, gint64, starts->len - 1))
                {
                  g_array_append_val (starts, ylo);
                  g_array_append_val (maps, flat);
                }
            }
          y = yhi;
          /* a backward step: the instants just before it were read twice;
           * from y on the later reading wins (the bound covers both), also
           * over whole pieces shorter than the step */
          while (starts->len > 1 && y <= g_array_index (starts, gint64, starts->len - 1))
            {
              g_array_set_size (starts, starts->len - 1);
              g_array_set_size (maps, maps->len - 1);
            }
          if (starts->len > 0 && y <= g_array_index (starts, gint64, starts->len - 1))
            y = g_array_index (starts, gint64, starts->len - 1) + 1;
        }
      sl_transform_invert (&self->maps[i], &t);
      g_array_append_val (starts, y);
      g_array_append_val (maps, t);
    }

  for (guint k = 0; k < self->n_bounds; k++)
    g_array_append_val (xs, self->bounds[k].x);
  for (guint i = 1; i < self->n_pieces; i++)
    g_array_append_val (xs, self->starts[i]);
  sort_unique (xs);

  nb = xs->len;
  inv = relation_alloc (starts->len, nb);
  memcpy (inv->starts, starts->data, starts->len * sizeof (gint64));
  memcpy (inv->maps, maps->data, maps->len * sizeof (SlTransform));
  inv->bounded_beyond = self->bounded_beyond;
  relation_finish (inv);

  {
    double *val = g_new (double, nb);
    gint64 *ys = g_new (gint64, nb);
    guint m = 0;

    for (guint k = 0; k < nb; k++)
      val[k] = 0;
    for (guint k = 0; k < nb; k++)
      {
        gint64 a = g_array_index (xs, gint64, k);
        gint64 b = k + 1 < nb ? g_array_index (xs, gint64, k + 1) : a;
        double ba = sl_relation_bound_at (self, a), bb = sl_relation_bound_at (self, b);
        double beta = MAX (ba, bb);
        double lo_slope = self->min_slope > 0 ? self->min_slope : 0;
        double reach = lo_slope > 0 ? beta / lo_slope + 1 : INFINITY;
        double s, smax, jumps, lip, rise, va, vb;

        ys[k] = sl_relation_apply (self, a);
        if (!isfinite (beta) || !isfinite (reach))
          va = vb = INFINITY;
        else
          {
            /* |x* − x| <= (b + lip·|x* − x| + rise) / s: the reach grows
             * with the rises it meets; twice is enough, else it is
             * checked */
            gboolean settled = FALSE;

            for (int it = 0; it < 4 && !settled; it++)
              {
                gint64 x0 = k == 0 && self->bounded_beyond ? G_MININT64 : sat_add (a, -reach);
                gint64 x1 = k + 1 == nb && self->bounded_beyond ? G_MAXINT64 : sat_add (b, reach);
                double need;

                map_stats (self, x0, x1, &smax, &s, &jumps);
                bound_variation (self, x0, x1, &lip, &rise);
                need = s - lip > 0 ? (beta + rise) / (s - lip) + 1 : INFINITY;
                if (!isfinite (need))
                  break;
                if (need <= reach)
                  settled = TRUE;
                else
                  reach = 2 * need;
              }
            va = settled ? (ba + rise) / (s - lip) : INFINITY;
            vb = settled ? (bb + rise) / (s - lip) : INFINITY;
          }
        val[k] = MAX (val[k], va);
        if (k + 1 < nb)
          val[k + 1] = MAX (val[k + 1], vb);
      }
    /* images can coincide (slopes near 0): keep the largest */
    for (guint k = 0; k < nb; k++)
      {
        if (m > 0 && ys[k] <= inv->bounds[m - 1].x)
          {
            inv->bounds[m - 1].bound = MAX (inv->bounds[m - 1].bound, val[k]);
            continue;
          }
        inv->bounds[m].x = ys[k];
        inv->bounds[m].bound = val[k];
        m++;
      }
    inv->n_bounds = m;
    g_free (val);
    g_free (ys);
  }
  simplify_bounds (inv);
  return inv;
}
