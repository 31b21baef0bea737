/* sl-engine-private.h: the engine's state, shared by its files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-engine.h"
#include "sl-linreg.h"
#include "sl-points-private.h"
#include "sl-segments.h"

G_BEGIN_DECLS

/* Matched points of one direction (sl-points-private.h), kept for
 * inversion counts and plots. Past max_points the half farthest from the
 * band is dropped: those can only be inverted by a correction that is off
 * by more than their slack. With a point retention, those older than it
 * are dropped too (the estimator never reads them: its windows keep what
 * the bounds need). */

/* Inversion counts of a link under the hosts' relations they were counted
 * with (their serials; the graph keeps a relation until it changes):
 * points are only appended between compactions, so while the relations
 * stay the same only the new points are counted. */
typedef struct
{
  gboolean    valid;
  guint64     ra;
  guint64     rb;
  guint64     compactions[2];
  gsize       counted[2];
  guint64     inversions;
} InversionCache;

/* The link's row (sl_engine_get_link_info()) with everything it was made
 * from: while none of it changes, the row is the same, bit for bit. The
 * relations are known by their serials (sl_relation_get_serial()), not
 * held: old versions of every host's relation would stay in memory until
 * the next capture. */
typedef struct
{
  gboolean    valid;
  guint64     rel;
  guint64     ra;
  guint64     rb;
  guint64     seg_version;
  guint64     matches;
  guint64     n[2];
  gint64      last_change;
  gsize       len[2];
  guint64     dropped[2];
  guint64     compactions[2];
  gint64      span[4];
  gboolean    has_span[2];
  gboolean    in_tree;
  gboolean    same_reference;
  SlLinkInfo  info;
} RowCache;

typedef struct
{
  guint       a;
  guint       b;
  /* sl_engine_get_link_names_descending() */
  gboolean    names_descending;
  SlSegments *seg;
  SlLinreg   *linreg;
  guint64     rt_n;
  double      rt_mean;
  double      rt_m2;
  guint64     matches;
  guint64     n[2];
  guint64     seg_version;
  gint64      change_time;
  SlQuality   quality;
  double      accuracy;
  gboolean    in_graph;
  gboolean    queued;
  gint64      last_change;
  SlPointStore points[2];
  gint64      newest_x;
  InversionCache inv;
  RowCache    row;
  SlRelation *rel;
  /* the segments' result at seg_result_changes (sl_segments_get_changes()):
   * a flush and the link's row in the capture after it read the same one */
  SlHullResult seg_result;
  guint64     seg_result_changes;
  gboolean    seg_result_valid;
  /* the relation's largest bound where it is applied, with what it was
   * computed from (see link_span_bound()): a flush and the link's row
   * read it, the row twice */
  SlRelation *span_rel;
  gint64      span_key[6];
  gint64      span_x[2];
  double      span_bound;
} Link;

/* The host's events seen so far, on its own clock; held: what readers
 * reported while flushes follow the input (sl_engine_set_flush_on_input()),
 * taken in at the next sl_engine_flush(). */
typedef struct
{
  gint64 first;
  gint64 last;
  gint64 held_first;
  gint64 held_last;
} Span;

/* A host's group: the size of its tree component, and for a host alone,
 * the non-accurate link that places it on another host's clock. */
typedef struct
{
  guint size;
  guint place_link;
  guint place_on;
} Group;

/* A host whose relation was found elsewhere (sl_engine_fix_host()). */
typedef struct
{
  char        *reference;
  SlRelation  *relation;
  SlTransform  to_reference;
  gboolean     synchronized;
  gboolean     best_effort;
} Fixed;

struct _SlEngine
{
  SlEngineOptions  options;
  double           rt_z;
  GPtrArray       *host_names;
  GHashTable      *host_by_name;
  GArray          *host_counts;
  /* why nothing of a host could be read (sl_engine_set_host_unread()), or NULL */
  GPtrArray       *host_unread;
  GArray          *host_spans;
  GArray          *groups;
  guint64          groups_stamp;
  guint            groups_pinned;
  GArray          *links;
  GHashTable      *link_by_pair;
  GArray          *dirty;
  SlMatcher       *matcher;
  SlGraph         *graph;
  SlJournal       *journal;
  guint64          n_matches;
  gint64           now;
  /* the input time of the first match: where the input's times count from */
  gint64           first_input;
  /* sl_engine_set_flush_on_input(): flushes at input times only */
  gboolean         flush_on_input;
  gboolean         spans_held;
  gint64           flush_first;
  gint64           flush_next;
  SlEngineMatchFunc match_func;
  gpointer         match_data;
  /* sl_engine_fix_host(): by name, and each host's (or NULL) */
  GHashTable      *fixed;
  GPtrArray       *host_fixed;
  char            *fixed_source;
  /* points walked by the inversion counts (_sl_engine_get_inversion_points()) */
  guint64          inversion_points;
  /* sl_engine_get_hosts_stamp(): renewed, unique across engines, by every
   * change a host's info may follow other than its counts and span */
  guint64          hosts_stamp;
};

void  _sl_engine_query_flush   (SlEngine   *self);
void  _sl_engine_hosts_changed (SlEngine   *self);
void  _sl_engine_get_link_info_from_scratch (SlEngine   *self,
                                             guint       link,
                                             SlLinkInfo *info);
guint64 _sl_engine_get_inversion_points (const SlEngine *self);
void  _sl_engine_link_estimate (SlEngine   *self,
                                Link       *l,
                                SlLinkInfo *info);

G_END_DECLS
