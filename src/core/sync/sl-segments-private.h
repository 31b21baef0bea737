/* sl-segments-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <math.h>

#include "sl-hull-private.h"
#include "sl-segments.h"

G_BEGIN_DECLS

#define SQRT2 1.4142135623730951
#define FAR_NS (G_GINT64_CONSTANT (1) << 60)
#define INNER 0.1

typedef struct
{
  double x;
  double y;
} DPt;

/* A window's relaxed band, in coordinates relative to the link's origin. */
typedef struct
{
  gint64   u;
  gint64   v;
  double   kappa;
  gboolean has_lmin;
  gboolean has_lmax;
  gboolean crossed;
  double   amin;
  double   amax;
  DPt     *hi;
  guint    n_hi;
  DPt     *lo;
  guint    n_lo;
} Band;

/* Round trips of linear regression (option linreg), fitted as
 * d = t_b − t_a (relative to the link's origin) against x = t_a: weighted
 * sums (weight 1/E², E the round trip's error margin: a round trip counts
 * by how tightly it pins the offset, so one paired across a loss or a
 * retransmission hardly counts) and plain ones (the residual deviation).
 * wh, wxh: the weighted sums of half each direction's payload bytes
 * (ABOVE: a → b), for moments_fit_sized(). */
typedef struct
{
  guint64     n;
  long double w, wx, wd, wxx, wxd, wdd;
  long double x, d, xx, xd, dd;
  long double wh[2], wxh[2];
} Moments;

/* A window's payload-corrected offsets (sl-segments-payload.c): how many,
 * and the sums of their x and d (as Moments'). */
typedef struct
{
  guint64 n;
  double  x;
  double  d;
} PlSums;

typedef struct
{
  Band         band;
  SlQuality    quality;
  guint64      n[2];
  guint64      accurate;
  double       raw_amin;
  double       raw_amax;
  gboolean     has_raw_est;
  SlTransform  raw_est;
  gboolean     failed_after;
  gint64       valid_start;
  gint64       valid_end;
  guint        hull_points[2];
  Moments      lr;
  PlSums       pl;
} Window;

/* The payload correction of the estimate (sl-segments-payload.c). */
typedef struct _Payload Payload;

/* The newest vertex of a suffix chain for the fast path's implied():
 * a.x and a.y − a.x; @ok when there is one, within ±2^61. */
typedef struct
{
  gint64   x;
  gint64   d;
  gboolean ok;
} Newest;

/* A packet that contradicts its window: the window closes before it and
 * the next one starts with it; the next PROBE packets tell a step (they
 * agree with it) from a bad match (they agree with the closed window). */
#define PROBE 16

typedef struct
{
  SlPoint p;
  int     side;
} Probe;

struct _SlSegments
{
  SlSegmentsOptions o;
  double       kappa;
  double       lo_slope;
  double       hi_slope;
  gboolean     has_origin;
  gint64       x0;
  gint64       y0;
  GArray      *windows;
  GArray      *failures;

  /* the open window */
  gboolean     open;
  gboolean     fast;
  Newest       newest[2];
  gint64       u;
  gint64       last_x;
  SlChain      full[2];
  SlChain      suffix[2];
  gint64       suffix_u;
  guint64      suffix_n[2];
  SlHull      *raw;
  SlHull      *raw_snap;
  SlHull      *first_raw;
  Moments      lr;
  Moments      lr_suffix;
  PlSums       pl;
  PlSums       pl_suffix;
  Payload     *payload;
  guint64      n[2];
  double       beta;
  gint64       next_check;
  double       step;
  gboolean     raw_crossed_seen;
  Band         guard;
  gint64       last_side_x[2];
  gint64       suffix_min_x;
  gint64       valid_start;

  /* probation after a contradiction (see Probe) */
  gboolean     probing;
  Probe        probe[PROBE + 1];
  guint        n_probe;
  SlChain      prev_full[2];
  gint64       prev_u;
  guint64      prev_n[2];
  gint64       prev_side_x;
  gint64       prev_last_x;
  double       prev_step;

  guint64      total[2];
  guint64      late;
  guint64      version;
  guint64      raw_version;
  /* every packet or round trip added: what a result depends on (the
   * version moves only when the relation does, not with a first window's
   * span or estimate's origin) */
  guint64      changes;

  SlRelation  *rel;
  guint64      rel_changes;

  /* the open window as open_window() last made it, and what it was made
   * of: a capture reads it for the relation, the result and the band at
   * both ends of a link's span */
  Window       open_w;
  gboolean     open_w_valid;
  guint64      open_w_key[7];
};

typedef struct
{
  double a;
  double b;
  double mean_x;
  double sxx;
  double s2;
  double e_r;
} Fit;

/* sl-segments.c */

void band_clear (Band *b);

double poly_at (const DPt *p,
                guint      n,
                double     x,
                double     left_slope,
                double     right_slope);

double band_bisector (const Band *b,
                      double      x,
                      double     *slope);

gboolean moments_fit (const Moments *m,
                      Fit           *f);

gboolean moments_fit_sized (const Moments *m,
                            const double   c[2],
                            Fit           *f);

double fit_se (const Fit     *f,
               const Moments *m,
               double         x);

void chains_clear (SlChain *c);

void open_chains (const SlSegments *self,
                  SlChain          *out);

void window_init_from (SlSegments   *self,
                       Window       *w,
                       const SlChain *chains,
                       gint64        u,
                       gint64        v,
                       const SlHull *raw,
                       const guint64 n[2]);

void band_compute (Band          *b,
                   const SlChain *above,
                   const SlChain *below,
                   gint64         u,
                   gint64         v,
                   double         kappa);

void window_payload_add (SlSegments *self,
                         double      x,
                         double      d);

/* sl-segments-payload.c */

void payload_add (SlSegments *self,
                  int         side,
                  SlPoint     p,
                  guint       length);

void payload_free (Payload *pl);

gsize payload_memory (const Payload *pl);

double window_payload_shift (const Window *w);

void payload_slopes (const SlSegments *self,
                     double            c[2]);

/* sl-segments-result.c */

const Window *open_window (SlSegments *self);

GArray *all_windows (SlSegments *self);

void windows_free (GArray *ws);

/* Inline: the fast path screens packets with the guard band. */
static inline gboolean
band_ok (const Band *b)
{
  return b->has_lmin && b->has_lmax && !b->crossed && b->n_hi > 0 && b->n_lo > 0;
}

static inline double
band_eps (const Band *b,
          double      x)
{
  return b->kappa / 2 * fabs ((x - (double) b->u) * (x - (double) b->v));
}

/* The upper edge: Lmin' left of its a→b pivot, the shifted a→b hull
 * between the pivots, Lmax' right of its a→b pivot (sl-hull.c's
 * band_hi()); the lower edge mirrors it. */
static inline double
band_hi (const Band *b,
         double      x)
{
  return poly_at (b->hi, b->n_hi, x, b->amin, b->amax);
}

static inline double
band_lo (const Band *b,
         double      x)
{
  return poly_at (b->lo, b->n_lo, x, b->amax, b->amin);
}

G_END_DECLS
