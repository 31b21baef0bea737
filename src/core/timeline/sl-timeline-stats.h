/* sl-timeline-stats.h: what a span of the timeline holds, counted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-timeline.h"

G_BEGIN_DECLS

/**
 * sl_timeline_count_events:
 * @t0: start of the span on the view's clock
 * @t1: its end (excluded)
 *
 * The events of every host's store whose time on the view's clock is in
 * [@t0, @t1) (consumed ones: what the rows show). O(hosts × log n).
 */
guint64        sl_timeline_count_events        (const SlTimeline         *self,
                                                gint64                    t0,
                                                gint64                    t1);

/**
 * SlTimelineStateStat:
 * @row: a thread, process or CPU row
 * @ns: time per #SlTimelineState in the span (%SL_TIMELINE_STATE_NONE:
 *   outside the row's intervals)
 * @run_ns: user, system call, interrupt and softirq time
 */
typedef struct
{
  guint  row;
  gint64 ns[SL_TIMELINE_N_STATES];
  gint64 run_ns;
} SlTimelineStateStat;

/**
 * sl_timeline_dup_state_stats:
 * @t0: start of the span on the view's clock
 * @t1: its end
 * @kind: %SL_TIMELINE_ROW_THREAD (a process's main thread included) or
 *   %SL_TIMELINE_ROW_PROCESS (the sum of its threads)
 *
 * The time each row spends in each state over the span (each host's span
 * taken back to its local clock), for the rows that have intervals in it,
 * longest running first.
 *
 * Returns: (transfer full): #SlTimelineStateStat array
 */
GArray        *sl_timeline_dup_state_stats     (const SlTimeline         *self,
                                                gint64                    t0,
                                                gint64                    t1,
                                                SlTimelineRowKind         kind);

#define SL_TIMELINE_LATENCY_BINS 20

/**
 * SlTimelineLatencyStat:
 * @send_host: the sending host
 * @recv_host: the receiving host
 * @count: messages sent in the span
 * @min_ns: the smallest latency (receive minus send, view's clock)
 * @median_ns: the median (nearest rank: the ⌈n/2⌉-th smallest)
 * @p99_ns: the 99th percentile (nearest rank: the ⌈0.99 n⌉-th smallest)
 * @max_ns: the largest
 * @bin_ns: width of a bin of @bins; bin k holds latencies in
 *   [@min_ns + k @bin_ns, + @bin_ns)
 * @bins: how many fall in each bin
 */
typedef struct
{
  guint   send_host;
  guint   recv_host;
  guint64 count;
  gint64  min_ns;
  gint64  median_ns;
  gint64  p99_ns;
  gint64  max_ns;
  gint64  bin_ns;
  guint64 bins[SL_TIMELINE_LATENCY_BINS];
} SlTimelineLatencyStat;

/**
 * sl_timeline_dup_latency_stats:
 *
 * Per link direction, the latency distribution of the messages sent in
 * [@t0, @t1) on the view's clock.
 *
 * Returns: (transfer full): #SlTimelineLatencyStat array, by host pair
 */
GArray        *sl_timeline_dup_latency_stats   (const SlTimeline         *self,
                                                gint64                    t0,
                                                gint64                    t1);
/**
 * sl_timeline_latency_stat_init:
 * @latencies: (array length=n): latencies in ns, sorted in place
 *
 * Fills @out's distribution from @latencies (the same rules as
 * sl_timeline_dup_latency_stats()).
 */
void           sl_timeline_latency_stat_init   (SlTimelineLatencyStat    *out,
                                                gint64                   *latencies,
                                                guint64                   n);

G_END_DECLS
