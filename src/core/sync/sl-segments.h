/* sl-segments.h: one link's clock relation as a continuous piecewise-linear
 * function from windows of packets, with a guaranteed band at every instant
 * under an assumption on how fast clock rates change
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-hull.h"
#include "sl-relation.h"
#include "sl-types.h"

G_BEGIN_DECLS

/* Default assumption on each clock: its rate changes by at most 0.1 ppm
 * per second (a crystal moves about 1 ppm per °C; a board warming by 6 °C
 * a minute). */
#define SL_SEGMENTS_DEFAULT_DRIFT_CHANGE_PPM_S 0.1

/**
 * SlSegmentsOptions:
 * @drift_change: largest change of each host's clock rate per second
 *   (relative: 1e-7 is 0.1 ppm/s); 0 assumes linear clocks (one window)
 * @max_drift: plausibility limit on relative clock rates (see
 *   %SL_HULL_DEFAULT_MAX_DRIFT)
 * @first_check_ns: window length at which a window is first compared with
 *   its own continuation
 * @linreg: the estimate inside the bands follows each window's linear
 *   regression over round trips (sl_segments_add_round_trip()) instead of
 *   the corridor's middle; the bound stays the band's
 */
typedef struct
{
  double   drift_change;
  double   max_drift;
  gint64   first_check_ns;
  gboolean linreg;
} SlSegmentsOptions;

/**
 * SlSegmentsLinreg:
 * @n_round_trips: round trips in the windows
 * @n_windows: windows with a fit (at least three round trips)
 * @e_r_ns: residual deviation of the round trips about their window's
 *   line, pooled over the windows
 * @se_slope: the largest standard error of a window's slope
 * @se_offset_ns: the largest standard error of a window's line at its
 *   ends (where it is least certain)
 *
 * Statistics, not guarantees: the bound is the band's.
 */
typedef struct
{
  guint64 n_round_trips;
  guint   n_windows;
  double  e_r_ns;
  double  se_slope;
  double  se_offset_ns;
} SlSegmentsLinreg;

/**
 * SlWindowInfo:
 * @start, @end: the window's interval on a's clock (windows are
 *   contiguous: a window ends where the next begins)
 * @quality: of its band (relaxed by the curvature the assumption allows)
 * @n_ab, @n_ba: its packets of each direction
 * @accurate_packets: the first window: packets that tightened its raw
 *   bounding lines (as #SlHull counts them); later windows (which run no
 *   plain hull): the packets their hull rests on
 * @alpha_min, @alpha_max: the slopes its relaxed band allows
 * @delta_ns: the largest relaxation, κ·W²/8, in the middle of the window
 * @band_ns: the band's widest point (at an end), relaxation included
 * @failed_after: %TRUE when the window was closed by an inconsistency at
 *   its end (see #SlFailureInfo)
 * @valid_start, @valid_end: where its band holds by itself: a window next
 *   to a clock step yields the step's interval, where the bound covers
 *   both sides
 */
typedef struct
{
  gint64    start;
  gint64    end;
  SlQuality quality;
  guint64   n_ab;
  guint64   n_ba;
  guint64   accurate_packets;
  double    alpha_min;
  double    alpha_max;
  double    delta_ns;
  double    band_ns;
  gboolean  failed_after;
  gint64    valid_start;
  gint64    valid_end;
} SlWindowInfo;

/**
 * SlFailureKind:
 * @SL_FAILURE_STEP: the relation jumped: a clock step (or a new session of
 *   a host's tracer) between @from and @to
 * @SL_FAILURE_MISMATCH: one packet contradicted those around it (a wrong
 *   match) at @from; it was left out
 */
typedef enum
{
  SL_FAILURE_STEP,
  SL_FAILURE_MISMATCH,
} SlFailureKind;

typedef struct
{
  SlFailureKind kind;
  gint64        from;
  gint64        to;
} SlFailureInfo;

typedef struct _SlSegments SlSegments;

void         sl_segments_options_init   (SlSegmentsOptions       *options);
SlSegments  *sl_segments_new            (const SlSegmentsOptions *options);
void         sl_segments_free           (SlSegments              *self);
void         sl_segments_add            (SlSegments              *self,
                                         gboolean                 a_to_b,
                                         gint64                   t_a,
                                         gint64                   t_b);
void         sl_segments_add_sized      (SlSegments              *self,
                                         gboolean                 a_to_b,
                                         gint64                   t_a,
                                         gint64                   t_b,
                                         guint                    length);
void         sl_segments_add_round_trip (SlSegments              *self,
                                         gint64                   t_a,
                                         gint64                   t_b,
                                         double                   e_ns);
void         sl_segments_add_round_trip_sized (SlSegments        *self,
                                               gint64             t_a,
                                               gint64             t_b,
                                               double             e_ns,
                                               guint              len_ab,
                                               guint              len_ba);
void         sl_segments_get_linreg     (SlSegments              *self,
                                         SlSegmentsLinreg        *stats);
guint64      sl_segments_get_version    (const SlSegments        *self);
guint64      sl_segments_get_changes    (const SlSegments        *self);
const SlHull *sl_segments_get_hull      (const SlSegments        *self);
void         sl_segments_get_result     (SlSegments              *self,
                                         SlHullResult            *result);
guint        sl_segments_get_n_windows  (SlSegments              *self);
void         sl_segments_get_window     (SlSegments              *self,
                                         guint                    i,
                                         SlWindowInfo            *info);
guint        sl_segments_get_n_failures (const SlSegments        *self);
void         sl_segments_get_failure    (const SlSegments        *self,
                                         guint                    i,
                                         SlFailureInfo           *info);
guint64      sl_segments_get_n_late     (const SlSegments        *self);
SlRelation  *sl_segments_get_relation   (SlSegments              *self);
gboolean     sl_segments_get_band       (SlSegments              *self,
                                         gint64                   t_a,
                                         double                  *lo,
                                         double                  *hi);
gsize        sl_segments_get_memory     (const SlSegments        *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSegments, sl_segments_free)

G_END_DECLS
