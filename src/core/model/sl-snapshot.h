/* sl-snapshot.h: what the views need from the engine, copied in one go
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK-free: a worker (or the live engine thread, engine locked) captures a
 * snapshot and hands it to the main thread, which never touches the engine
 * while it is being fed.
 */

#pragma once

#include <glib.h>

#include "sl-engine.h"
#include "sl-plot-data.h"
#include "sl-report.h"
#include "sl-trace-reader.h"

G_BEGIN_DECLS

/* @group_size: hosts on @reference's clock, this one included;
 * @data_start: where its synchronized data starts on its own clock, or
 *   G_MAXINT64 (sl_report_host_starts())
 * @drift_start: where its drift is read (sl_report_drift_start())
 * @drift_range: the interval its true drift lies in there
 *   (sl_report_drift_interval()), NAN when nothing bounds it
 * @reason: the engine's reason (sl_engine_get_host_info()), whole up to
 *   255 bytes, else cut and ended by "…"
 * @fixed_from: the file its relation was read from (sl_engine_fix_host()),
 *   or "", cut as @reason is
 * @unread: why none of its events could be read (sl_engine_set_host_unread()),
 *   or "", cut as @reason is */
typedef struct
{
  guint        host;
  guint        reference;
  guint        parent;
  guint        component;
  double       bound_ns;
  SlTransform  to_reference;
  SlHostCounts counts;
  guint        path_start;
  guint        path_len;
  guint        group_size;
  gint64       data_start;
  gint64       drift_start;
  double       drift_range[2];
  gboolean     synchronized;
  gboolean     best_effort;
  char         reason[256];
  char         fixed_from[64];
  char         unread[128];
} SlSnapHost;


/**
 * SlSnapshot:
 * @host_names: every host's name, by engine index
 * @hosts: an #SlSnapHost per host, by engine index
 * @host_relations: each host's #SlRelation to its reference (its exact,
 *   piecewise map and its bound at every instant), by engine index
 * @link_relations: each link's #SlRelation (a → b as the engine keeps it:
 *   #SlReportLink's info.a and info.b) or %NULL, by engine link index
 * @path_nodes: the hosts' paths to their references (engine indices)
 * @links: an #SlReportLink per link, by engine link index
 * @n_components: connected groups of hosts (by tree)
 * @changes: #SlChange entries of the journal since the previous snapshot
 * @journal_next: sequence number to start the next snapshot's changes at
 * @journal_dropped: journal entries lost to the ring's size
 * @matches: matched packets, all links
 * @time_start, @time_end: span covered by the links' packets (ns, raw)
 * @input_start: the input time of the first matched packet (the merge
 *   order's time, as the journal's), 0 before it
 * @problems: #SlTraceProblem raised since the previous snapshot
 * @live_hosts: #SlLiveHost of a live session, or %NULL
 * @progress: reading progress (trace folders)
 * @phase: what the worker is doing, for the progress line, or %NULL
 * @plot: data of the link the views asked for, or %NULL
 * @final: the worker is done: the engine is the main thread's now
 * @cancelled: the worker stopped early on request (with @final)
 * @failed: nothing could be read; @error says why
 * @capture_cpu_us: the worker's CPU time spent capturing this snapshot
 */
typedef struct
{
  GPtrArray       *host_names;
  GArray          *hosts;
  GPtrArray       *host_relations;
  GPtrArray       *link_relations;
  GArray          *path_nodes;
  GArray          *links;
  guint            n_components;
  GArray          *changes;
  guint64          journal_next;
  guint64          journal_dropped;
  guint64          matches;
  gint64           time_start;
  gint64           time_end;
  gint64           input_start;
  GPtrArray       *problems;
  GPtrArray       *live_hosts;
  SlTraceProgress  progress;
  char            *phase;
  SlPlotData      *plot;
  gboolean         final;
  gboolean         cancelled;
  gboolean         failed;
  char            *error;
  gint64           capture_cpu_us;
} SlSnapshot;

typedef struct _SlSnapshotCache SlSnapshotCache;

SlSnapshot *sl_snapshot_new             (void);
void        sl_snapshot_capture_engine  (SlSnapshot    *self,
                                         SlEngine      *engine,
                                         guint64        journal_from);
void        sl_snapshot_capture_engine_cached (SlSnapshot      *self,
                                               SlEngine        *engine,
                                               guint64          journal_from,
                                               SlSnapshotCache *cache);
SlSnapshotCache *sl_snapshot_cache_new  (void);
void        sl_snapshot_cache_free      (SlSnapshotCache *self);
guint       sl_snapshot_cache_get_reused (const SlSnapshotCache *self,
                                          guint                 *drifts);
void        sl_snapshot_merge_older     (SlSnapshot    *self,
                                         SlSnapshot    *older);
void        sl_snapshot_free            (SlSnapshot    *self);
const char *sl_snapshot_get_host_name   (const SlSnapshot *self,
                                         guint          host);


char       *sl_snapshot_links_to_csv    (const SlSnapshot *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSnapshot, sl_snapshot_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSnapshotCache, sl_snapshot_cache_free)

G_END_DECLS
