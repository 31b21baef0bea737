/* sl-engine.h: hosts, links, host graph and journal, fed with packets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-graph.h"
#include "sl-hull.h"
#include "sl-journal.h"
#include "sl-matcher.h"
#include "sl-segments.h"
#include "sl-transform.h"
#include "sl-types.h"

G_BEGIN_DECLS

typedef enum
{
  SL_ALGORITHM_HULL,
  SL_ALGORITHM_LINREG,
} SlAlgorithm;

/**
 * SlEngineOptions:
 * @algorithm: per-link estimator
 * @tree: how hosts are connected to their reference
 * @max_drift: plausibility limit on relative clock rate (see
 *   %SL_HULL_DEFAULT_MAX_DRIFT)
 * @drift_change: the assumption the bounds rest on: each host's clock rate
 *   changes by at most this much per second (relative; default
 *   %SL_SEGMENTS_DEFAULT_DRIFT_CHANGE_PPM_S ppm/s); 0 assumes linear clocks
 * @linreg_confidence: linreg: round trips whose E is above mean + z·sd of
 *   those so far are left out (0 = none, 0.9, …)
 * @match_window_ns: generation length of the matcher (merge-order time)
 * @max_pending: matcher entries kept at most
 * @max_points: matched points kept per link and direction for inversion
 *   counts and plots; past it, the points farthest from the band are dropped
 * @point_retention_ns: when positive, a link's matched points older than
 *   this behind its newest (on a's clock) are dropped too, in batches of an
 *   eighth of it (sl_engine_set_point_retention()); 0 (the default) keeps
 *   them up to @max_points. The estimates and bounds never read them.
 *   The journal keeps the entries of this span behind the newest input
 *   time too (counted as dropped, like those past @journal_size).
 * @journal_size: journal entries kept at most
 * @tree_margin: hysteresis of the tree (sl_graph_set_margin()): a link
 *   replaces a tree link only when its weight is lower by this fraction,
 *   and has been for %SL_GRAPH_LIVE_DWELL_NS of input (sl_graph_set_dwell());
 *   0 (the default) keeps the exact tree, %SL_GRAPH_LIVE_MARGIN is live's
 */
typedef struct
{
  SlAlgorithm algorithm;
  SlTreeKind  tree;
  double      max_drift;
  double      drift_change;
  double      linreg_confidence;
  gint64      match_window_ns;
  gsize       max_pending;
  gsize       max_points;
  gint64      point_retention_ns;
  gsize       journal_size;
  double      tree_margin;
} SlEngineOptions;

/**
 * SlLinkInfo:
 *
 * One link as seen from @a: the numbers describe t_b = alpha * t_a + beta.
 * @weight is the link's weight in the tree: the largest bound (ns) it adds
 * over its packets and both hosts' events; NAN when the link cannot be in
 * the tree. With linear regression the estimate follows each window's
 * weighted fit of round trips inside the bands: @bound_ns and @band_ns stay
 * the bands' guarantees; @n_round_trips, @e_r_ns, @se_slope, @se_offset_ns
 * and @statistical_bound_ns (2 SE) describe the fits: statistics, not
 * guarantees. @points_dropped (0: a → b, 1: b → a): matched points no
 * longer kept (@max_points, @point_retention_ns), which inversion counts
 * (then not exact) and plots do not see.
 */
typedef struct
{
  guint        a;
  guint        b;
  SlQuality    quality;
  const char  *reason;
  guint64      matches;
  guint64      n_ab;
  guint64      n_ba;
  guint64      accurate_packets;
  guint        hull_points[2];
  double       alpha_min;
  double       alpha_max;
  gboolean     has_estimate;
  SlTransform  estimate;
  double       alpha;
  double       beta;
  double       accuracy;
  double       weight;
  double       band_ns;
  double       bound_ns;
  gint64       span_start;
  gint64       span_end;
  gint64       bound_start;
  gint64       bound_end;
  gboolean     in_tree;
  gboolean     inversions_known;
  gboolean     inversions_exact;
  guint64      inversions;
  guint64      points_dropped[2];
  guint        n_round_trips;
  double       e_r_ns;
  double       se_slope;
  double       se_offset_ns;
  double       statistical_bound_ns;
  gint64       last_change;
} SlLinkInfo;

/**
 * SlHostInfo:
 * @reference: the host's reference (itself for a reference)
 * @to_reference: the piece of @relation that covers most of the host's
 *   events (the whole map when @relation has one piece)
 * @bound_ns: the largest error of @relation over the host's events, from
 *   @first to @last (when nothing of the host was seen: at its origin)
 * @bound_at: where it is reached
 * @path: the hosts from this one to its reference
 * @relation: the host's clock → its reference's clock, with its bound at
 *   every instant
 * @has_span: whether @first and @last are known
 * @first, @last: the host's first and last events seen (its own clock)
 * @synchronized: an accurate path joins the host to at least one other
 *   host (a reference of such a group is synchronized; a host alone is not)
 * @best_effort: not synchronized, but placed on another host's clock
 *   through a link that is not accurate: @relation is an estimate with an
 *   infinite bound, @reference and @path say where it was placed
 * @reason: why the host is not synchronized, or why a synchronized host's
 *   bound is infinite somewhere ("" otherwise)
 *
 * A host that is neither synchronized nor placed stays on its own clock:
 * @reference is itself, which does not make it a reference.
 */
typedef struct
{
  guint        host;
  guint        reference;
  SlTransform  to_reference;
  double       bound_ns;
  gint64       bound_at;
  GArray      *path;
  SlRelation  *relation;
  gboolean     has_span;
  gint64       first;
  gint64       last;
  gboolean     synchronized;
  gboolean     best_effort;
  char        *reason;
} SlHostInfo;

/**
 * SlHostCounts:
 * @events: trace events read on the host (set by the reader)
 * @packet_events: TCP packet events given to the matcher
 * @matched: packet events paired with one on another host
 * @ignored: network events that are not TCP or cannot be decoded (set by
 *   the reader)
 * @unusable: of @ignored, the packet events whose addresses, ports or
 *   sequence numbers could not be read (set by the reader)
 *
 * Unmatched packet events are @packet_events - @matched.
 */
typedef struct
{
  guint64 events;
  guint64 packet_events;
  guint64 matched;
  guint64 ignored;
  guint64 unusable;
} SlHostCounts;

typedef struct _SlEngine SlEngine;

/**
 * SlEngineMatchFunc:
 * @match: the pair just given to its link
 * @event: the packet event that completed the pair (its TCP key), or
 *   %NULL when the match came in already paired (sl_engine_add_match())
 *
 * Called on the engine's thread for every match between two hosts.
 */
typedef void (*SlEngineMatchFunc) (const SlMatch       *match,
                                   const SlPacketEvent *event,
                                   gpointer             user_data);

void             sl_engine_options_init     (SlEngineOptions       *options);
SlEngine        *sl_engine_new              (const SlEngineOptions *options);
void             sl_engine_free             (SlEngine              *self);
const SlEngineOptions *sl_engine_get_options (const SlEngine       *self);
guint            sl_engine_add_host         (SlEngine              *self,
                                             const char            *name);
guint            sl_engine_find_host        (const SlEngine        *self,
                                             const char            *name);
guint            sl_engine_get_n_hosts      (const SlEngine        *self);
const char      *sl_engine_get_host_name    (const SlEngine        *self,
                                             guint                  host);
char            *sl_engine_dup_host_name    (const SlEngine        *self,
                                             guint                  host);
gboolean         sl_engine_get_link_names_descending (const SlEngine *self,
                                                      guint           link);
void             sl_engine_pin_reference    (SlEngine              *self,
                                             guint                  host);
void             sl_engine_fix_host         (SlEngine              *self,
                                             const char            *name,
                                             const char            *reference,
                                             SlRelation            *relation,
                                             const SlTransform     *to_reference,
                                             gboolean               synchronized,
                                             gboolean               best_effort,
                                             const char            *source);
const char      *sl_engine_get_host_fixed   (const SlEngine        *self,
                                             guint                  host);
void             sl_engine_get_host_counts  (const SlEngine        *self,
                                             guint                  host,
                                             SlHostCounts          *counts);
void             sl_engine_add_host_counts  (SlEngine              *self,
                                             guint                  host,
                                             guint64                events,
                                             guint64                ignored,
                                             guint64                unusable);
void             sl_engine_set_host_unread  (SlEngine              *self,
                                             guint                  host,
                                             const char            *why);
const char      *sl_engine_get_host_unread  (const SlEngine        *self,
                                             guint                  host);
void             sl_engine_add_host_span    (SlEngine              *self,
                                             guint                  host,
                                             gint64                 first,
                                             gint64                 last);
gboolean         sl_engine_get_host_span    (const SlEngine        *self,
                                             guint                  host,
                                             gint64                *first,
                                             gint64                *last);
void             sl_engine_add_match        (SlEngine              *self,
                                             const SlMatch         *match,
                                             gint64                 now);
gboolean         sl_engine_add_packet       (SlEngine              *self,
                                             const SlPacketEvent   *event,
                                             gint64                 now);
void             sl_engine_set_match_func   (SlEngine              *self,
                                             SlEngineMatchFunc      func,
                                             gpointer               user_data);
void             sl_engine_flush            (SlEngine              *self);
void             sl_engine_set_flush_on_input (SlEngine            *self,
                                               gboolean             on);
guint            sl_engine_get_n_links      (const SlEngine        *self);
void             sl_engine_get_link_info    (SlEngine              *self,
                                             guint                  link,
                                             SlLinkInfo            *info);
SlQuality        sl_engine_get_link_quality (SlEngine              *self,
                                             guint                  link);
void             sl_engine_get_host_info    (SlEngine              *self,
                                             guint                  host,
                                             SlHostInfo            *info);
void             sl_host_info_clear         (SlHostInfo            *info);
guint64          sl_engine_get_hosts_stamp  (SlEngine              *self);
void             sl_engine_update_host_info_span (SlEngine         *self,
                                                  SlHostInfo       *info);
gboolean         sl_engine_host_is_synchronized (SlEngine          *self,
                                                 guint              host);
guint64          sl_engine_get_n_matches    (const SlEngine        *self);
gint64           sl_engine_get_first_input_time (const SlEngine    *self);
SlJournal       *sl_engine_get_journal      (SlEngine              *self);
SlGraph         *sl_engine_get_graph        (SlEngine              *self);
const SlMatcher *sl_engine_get_matcher      (const SlEngine        *self);
const SlHull    *sl_engine_get_link_hull    (const SlEngine        *self,
                                             guint                  link);
SlRelation      *sl_engine_get_link_relation (SlEngine             *self,
                                              guint                 link);
SlSegments      *sl_engine_get_link_segments (SlEngine             *self,
                                              guint                 link);
GArray          *sl_engine_get_link_points  (const SlEngine        *self,
                                             guint                  link,
                                             gboolean               a_to_b);
void             sl_engine_set_point_retention (SlEngine           *self,
                                                gint64              retention_ns);

const char      *sl_algorithm_to_string     (SlAlgorithm            algorithm);
gboolean         sl_algorithm_from_string   (const char            *str,
                                             SlAlgorithm           *algorithm);
const char      *sl_tree_kind_to_string     (SlTreeKind             kind);
gboolean         sl_tree_kind_from_string   (const char            *str,
                                             SlTreeKind            *kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlEngine, sl_engine_free)

G_END_DECLS
