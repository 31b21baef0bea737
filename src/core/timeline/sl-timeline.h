/* sl-timeline.h: the merged control-flow timeline model (no GTK)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-engine.h"
#include "sl-event-store.h"
#include "sl-trace-reader.h"
#include "sl-relation.h"
#include "sl-transform.h"

G_BEGIN_DECLS

/**
 * SlTimelineState:
 * @SL_TIMELINE_STATE_NONE: no information: before the row's first event,
 *   after its host's last one
 * @SL_TIMELINE_STATE_UNKNOWN: the thread exists but its state is not known
 *   (seen only through user-space events, a state dump without status), or
 *   no longer known: the tracer lost events, and until the thread's next
 *   events anything may have happened (for the CPU whose events were lost:
 *   what ran there)
 * @SL_TIMELINE_STATE_USER: running in user space
 * @SL_TIMELINE_STATE_SYSCALL: running in a system call
 * @SL_TIMELINE_STATE_IRQ: its CPU runs an interrupt handler
 * @SL_TIMELINE_STATE_SOFTIRQ: its CPU runs a softirq
 * @SL_TIMELINE_STATE_RUNNABLE: ready, waiting for a CPU (preempted or woken)
 * @SL_TIMELINE_STATE_BLOCKED: waiting for something else
 * @SL_TIMELINE_STATE_EXITED: has exited
 * @SL_TIMELINE_STATE_IDLE: CPU rows: the CPU runs its idle task
 *
 * The meaning of an interval's `detail` per state:
 *
 * |              | thread rows                          | CPU rows          |
 * |--------------|--------------------------------------|-------------------|
 * | USER         | 0                                    | thread id         |
 * | SYSCALL      | system call name (string id)         | thread id         |
 * | IRQ          | IRQ line                             | IRQ line          |
 * | SOFTIRQ      | softirq vector                       | softirq vector    |
 * | BLOCKED      | system call it waits in, or 0        | —                 |
 * | others       | 0                                    | 0                 |
 *
 * String ids are read with sl_timeline_get_string().
 */
typedef enum
{
  SL_TIMELINE_STATE_NONE,
  SL_TIMELINE_STATE_UNKNOWN,
  SL_TIMELINE_STATE_USER,
  SL_TIMELINE_STATE_SYSCALL,
  SL_TIMELINE_STATE_IRQ,
  SL_TIMELINE_STATE_SOFTIRQ,
  SL_TIMELINE_STATE_RUNNABLE,
  SL_TIMELINE_STATE_BLOCKED,
  SL_TIMELINE_STATE_EXITED,
  SL_TIMELINE_STATE_IDLE,
  SL_TIMELINE_N_STATES
} SlTimelineState;

/**
 * SlTimelineRowKind:
 * @SL_TIMELINE_ROW_HOST: one per host, the root of its rows
 * @SL_TIMELINE_ROW_PROCESS: a process (child of its host row); its states
 *   are those of its main thread (tid = pid), when that thread is known
 * @SL_TIMELINE_ROW_THREAD: a thread (child of its process row, or of the
 *   host row while its process is not known). Its process comes from the
 *   state dump, from the fork that started it (a thread of its parent's
 *   process, or a new process whose parent is the forking one) or from the
 *   `vpid` context of user-space events
 * @SL_TIMELINE_ROW_CPU: one per CPU (child of the host row)
 */
typedef enum
{
  SL_TIMELINE_ROW_HOST,
  SL_TIMELINE_ROW_PROCESS,
  SL_TIMELINE_ROW_THREAD,
  SL_TIMELINE_ROW_CPU,
} SlTimelineRowKind;

#define SL_TIMELINE_NONE   G_MAXUINT
#define SL_TIMELINE_NO_CPU G_MAXUINT16

/**
 * SlTimelineRowInfo:
 * @kind: an #SlTimelineRowKind
 * @host: the host (engine host index)
 * @parent: parent row, %SL_TIMELINE_NONE for host rows
 * @tid: threads: thread id; processes: pid
 * @pid: process id, 0 when not known
 * @ppid: parent process id (of the thread's process for threads), 0 when
 *   not known
 * @cpu: CPU rows: the CPU
 * @name: command name (the latest one), host name, or "CPU n"
 * @first: local time of the row's first interval
 * @last: local time at which the thread exited, or the host's last event
 * @n_intervals: intervals stored for the row
 * @thread_row: processes: the main thread's row, or %SL_TIMELINE_NONE
 * @n_children: rows whose parent is this one
 *
 * Row ids are stable: rows are only appended, never removed or renumbered.
 * A thread id reused after an exit gets a new row. A thread seen before
 * its process is known (before the state dump) moves from the host row to
 * its process row then. Threads start in the state the state dump gives
 * (runnable, blocked, exited), unknown without one.
 */
typedef struct
{
  SlTimelineRowKind  kind;
  guint              host;
  guint              parent;
  guint32            tid;
  guint32            pid;
  guint32            ppid;
  guint              cpu;
  const char        *name;
  gint64             first;
  gint64             last;
  guint64            n_intervals;
  guint              thread_row;
  guint              n_children;
} SlTimelineRowInfo;

/**
 * SlTimelineInterval:
 * @start: local time (ns) the state starts at
 * @end: local time it ends at (the next interval's start, or the host's
 *   last event for the last one)
 * @state: an #SlTimelineState
 * @cpu: the CPU the thread is on, %SL_TIMELINE_NO_CPU when off CPU
 * @detail: see #SlTimelineState
 */
typedef struct
{
  gint64  start;
  gint64  end;
  guint8  state;
  guint16 cpu;
  guint32 detail;
} SlTimelineInterval;

/**
 * SlTimelinePixel:
 * @state: the state that holds most of the pixel's time (ties: the lower
 *   #SlTimelineState)
 * @n_states: states present in the pixel; 1 is a plain pixel, more is a
 *   mixed one (draw it with @fraction)
 * @cpu: CPU of the first interval of @state among the first nine of the
 *   pixel (the one covering its start, then the next ones);
 *   %SL_TIMELINE_NO_CPU when there is none
 * @detail: that interval's detail (see #SlTimelineState), 0 when none
 * @n_changes: intervals starting in (left edge, right edge] (saturates at
 *   %G_MAXUINT32)
 * @fraction: share of the pixel's time per #SlTimelineState, summing to 1
 *
 * The summary of one row over one pixel column.
 */
typedef struct
{
  guint8  state;
  guint8  n_states;
  guint16 cpu;
  guint32 detail;
  guint32 n_changes;
  float   fraction[SL_TIMELINE_N_STATES];
} SlTimelinePixel;

/**
 * SlTimelineArrow:
 * @send_host: host of the send event (engine index)
 * @recv_host: host of the receive event
 * @send_row: row of the thread the send event was recorded in; the CPU's
 *   row when it ran on an idle CPU (a softirq), @send_host's host row when
 *   neither is known
 * @recv_row: likewise for the receive event (kernel receive events run in a
 *   softirq: their thread is the one it interrupted)
 * @send_cpu: CPU of the send event, %SL_TIMELINE_NO_CPU when not known
 * @recv_cpu: CPU of the receive event
 * @connection: connection id (see sl_timeline_get_connection()), or
 *   %SL_TIMELINE_NONE when the match carried no TCP key
 * @count: arrows of the same host pair this one stands for in its pixel
 *   column (1 when the query did not fold arrows)
 * @send_time: local time of the send event on @send_host
 * @recv_time: local time of the receive event on @recv_host
 * @send_view: @send_time through @send_host's view transform
 * @recv_view: @recv_time through @recv_host's view transform
 * @uncertainty_ns: how far the drawn receive end may be from its true
 *   place relative to the send end (see sl_timeline_set_link_bound()); NAN
 *   when not known
 *
 * One matched packet: a message from one thread to another.
 */
typedef struct
{
  guint   send_host;
  guint   recv_host;
  guint   send_row;
  guint   recv_row;
  guint16 send_cpu;
  guint16 recv_cpu;
  guint   connection;
  guint   count;
  gint64  send_time;
  gint64  recv_time;
  gint64  send_view;
  gint64  recv_view;
  double  uncertainty_ns;
} SlTimelineArrow;

/**
 * SlTimelineConnection:
 * @host_a: the host that sent the first matched packet of the connection
 * @host_b: the other host
 * @family: 4, 6, or 0 for events without addresses
 * @port_a: TCP port on @host_a's side
 * @port_b: TCP port on @host_b's side
 * @addr_a: @host_a's address (IPv4 in the first 4 bytes)
 * @addr_b: @host_b's address
 * @n_arrows: matched packets of the connection
 */
typedef struct
{
  guint   host_a;
  guint   host_b;
  guint8  family;
  guint16 port_a;
  guint16 port_b;
  guint8  addr_a[16];
  guint8  addr_b[16];
  guint64 n_arrows;
} SlTimelineConnection;

/**
 * SlTimelineStats:
 * @rows: rows, all kinds
 * @threads: thread rows
 * @intervals: intervals, all rows
 * @arrows: arrows resolved
 * @pending_arrows: matches whose ends are not yet in the event stores
 * @events: store events consumed
 * @interval_bytes: memory of the intervals and their index (allocated)
 * @arrow_bytes: memory of the arrows (allocated)
 * @other_bytes: rows, threads, names, hash tables
 */
typedef struct
{
  guint   rows;
  guint   threads;
  guint64 intervals;
  guint64 arrows;
  guint64 pending_arrows;
  guint64 events;
  gsize   interval_bytes;
  gsize   arrow_bytes;
  gsize   other_bytes;
} SlTimelineStats;

/**
 * SlTimeline:
 *
 * The merged control-flow model of a set of hosts: per host a row per
 * process, thread and CPU, each holding its states as intervals in the
 * host's local time, and the matched packets as arrows between rows.
 *
 * Build it from the hosts' #SlEventStore (sl_timeline_set_host(), or
 * sl_timeline_add_reader_hosts()) and the engine's matches
 * (sl_timeline_connect_engine() before the reader runs), then call
 * sl_timeline_update() whenever the stores have grown: it consumes what is
 * new, so a live reader's events extend the rows as they come. Clocks are
 * applied only by queries (sl_timeline_set_host_transform()): switching
 * between raw and synchronized views, or a new transform, costs nothing.
 *
 * Intervals take 12 bytes (a start as an offset from its block's), plus 88
 * bytes per 32 of them for the index (the block's start and the time spent
 * per state before it), which makes a pixel column cost a few steps
 * whatever the number of intervals it covers.
 *
 * Not thread-safe: sl_timeline_update() must not run while a store it
 * reads is appended to, nor while another thread queries.
 */
typedef struct _SlTimeline SlTimeline;

SlTimeline    *sl_timeline_new                 (void);
void           sl_timeline_free                (SlTimeline               *self);

/* Building */

/**
 * sl_timeline_set_host:
 * @host: the engine's host index (below 65535)
 * @name: the host's name
 * @store: (nullable): its event store; without one, the host has a row
 *   and arrows but no processes
 *
 * Declares a host. The store is read by sl_timeline_update() and must
 * outlive the timeline.
 */
void           sl_timeline_set_host            (SlTimeline               *self,
                                                guint                     host,
                                                const char               *name,
                                                const SlEventStore       *store);
/**
 * sl_timeline_add_reader_hosts:
 *
 * sl_timeline_set_host() for every host of @reader (which keeps events).
 */
void           sl_timeline_add_reader_hosts    (SlTimeline               *self,
                                                SlTraceReader            *reader);
guint          sl_timeline_get_n_hosts         (const SlTimeline         *self);
/**
 * sl_timeline_connect_engine:
 *
 * Makes every match of @engine an arrow, through sl_engine_set_match_func();
 * call it before the reader runs. Disconnect with
 * sl_engine_set_match_func (engine, NULL, NULL) before freeing the timeline
 * if the engine lives on.
 */
void           sl_timeline_connect_engine      (SlTimeline               *self,
                                                SlEngine                 *engine);
/**
 * sl_timeline_add_match:
 * @match: a matched packet (engine host indices, local times)
 * @event: (nullable): either of its packet events, for its connection
 *
 * Records an arrow. Its rows and CPUs are looked up in the stores at the
 * next sl_timeline_update() that has both ends' events.
 */
void           sl_timeline_add_match           (SlTimeline               *self,
                                                const SlMatch            *match,
                                                const SlPacketEvent      *event);
/**
 * sl_timeline_update:
 *
 * Consumes the events appended to the hosts' stores since the last call
 * (the stores' streams must grow in time order, as the reader appends
 * them) and resolves the arrows whose ends are now known.
 *
 * Returns: whether rows or arrows changed
 */
gboolean       sl_timeline_update              (SlTimeline               *self);
/**
 * sl_timeline_update_host:
 * @host: a host declared with sl_timeline_set_host()
 *
 * Consumes what is new in @host's store only, without resolving arrows
 * (the next sl_timeline_update() does). It touches the host's rows, the
 * rows' array and the names, never the matches: one thread may run it
 * while another adds matches (sl_timeline_add_match(), the engine's
 * match function), nothing else using the timeline meanwhile.
 * Hosts built in the order of their indices make the rows
 * sl_timeline_update() makes.
 *
 * Returns: whether rows changed
 */
gboolean       sl_timeline_update_host         (SlTimeline               *self,
                                                guint                     host);

/* Clocks */

/**
 * sl_timeline_set_host_transform:
 * @to_view: (nullable): maps @host's local time to the view's (its
 *   reference host's); %NULL for raw local time
 * @bound_ns: how far that map may be from the truth
 *
 * The clock the *_view queries and the arrows use for @host. O(1).
 */
void           sl_timeline_set_host_transform  (SlTimeline               *self,
                                                guint                     host,
                                                const SlTransform        *to_view,
                                                double                    bound_ns);
void           sl_timeline_set_host_relation   (SlTimeline               *self,
                                                guint                     host,
                                                SlRelation               *to_view,
                                                const SlTransform        *rep);
void           sl_timeline_set_link_relation   (SlTimeline               *self,
                                                guint                     host_a,
                                                guint                     host_b,
                                                SlRelation               *a_to_b);
/**
 * sl_timeline_set_link_bound:
 * @uncertainty_ns: the arrows' uncertainty between the two hosts, the same
 *   at every instant (NAN: unknown)
 */
void           sl_timeline_set_link_bound      (SlTimeline               *self,
                                                guint                     host_a,
                                                guint                     host_b,
                                                double                    uncertainty_ns);
/**
 * sl_timeline_sync_engine:
 *
 * Every host's transform to its reference and every link's arrow
 * uncertainty from @engine, at each message's instant: the link's bound
 * there when the link is in the tree (the two transforms then differ by
 * its estimate), the sum of both hosts' bounds at the send and receive
 * otherwise, NAN across components. Costs one sl_engine_get_link_info()
 * per link.
 */
void           sl_timeline_sync_engine         (SlTimeline               *self,
                                                SlEngine                 *engine);
/**
 * sl_timeline_clear_transforms:
 *
 * Back to raw local clocks for every host.
 */
void           sl_timeline_clear_transforms    (SlTimeline               *self);
gint64         sl_timeline_to_view             (const SlTimeline         *self,
                                                guint                     host,
                                                gint64                    local);
gint64         sl_timeline_from_view           (const SlTimeline         *self,
                                                guint                     host,
                                                gint64                    view);
/**
 * sl_timeline_get_time_range:
 *
 * The local times of @host's first and last consumed events.
 *
 * Returns: %FALSE when the host has none
 */
gboolean       sl_timeline_get_time_range      (const SlTimeline         *self,
                                                guint                     host,
                                                gint64                   *first,
                                                gint64                   *last);
/**
 * sl_timeline_get_view_range:
 *
 * The span of all hosts' events on the view's clock.
 */
guint64        sl_timeline_drop_before         (SlTimeline               *self,
                                                guint                     host,
                                                SlEventStore             *store,
                                                gint64                    time);
gint64         sl_timeline_get_kept_from       (const SlTimeline         *self,
                                                guint                     host);
gboolean       sl_timeline_get_view_range      (const SlTimeline         *self,
                                                gint64                   *first,
                                                gint64                   *last);

/* Rows */

guint          sl_timeline_get_n_rows          (const SlTimeline         *self);
guint          sl_timeline_get_host_row        (const SlTimeline         *self,
                                                guint                     host);
void           sl_timeline_get_row_info        (const SlTimeline         *self,
                                                guint                     row,
                                                SlTimelineRowInfo        *info);
/**
 * sl_timeline_dup_children:
 *
 * Returns: (transfer full): the rows whose parent is @row (guint), in the
 *   order they appeared
 */
GArray        *sl_timeline_dup_children        (const SlTimeline         *self,
                                                guint                     row);
/**
 * sl_timeline_find_thread:
 *
 * Returns: the row of the thread @tid of @host alive at @local (the
 *   closest one when none was: a tid is reused after an exit), or
 *   %SL_TIMELINE_NONE
 */
guint          sl_timeline_find_thread         (const SlTimeline         *self,
                                                guint                     host,
                                                guint32                   tid,
                                                gint64                    local);
guint          sl_timeline_find_cpu            (const SlTimeline         *self,
                                                guint                     host,
                                                guint                     cpu);
/**
 * sl_timeline_find_rows:
 * @text: part of a name (case-insensitive), or a thread or process id
 *
 * Returns: (transfer full): the matching rows (guint)
 */
GArray        *sl_timeline_find_rows           (const SlTimeline         *self,
                                                const char               *text);
/**
 * SlTimelineRowActivity:
 * @run_ns: time on a CPU (user space, system calls, interrupts) over the
 *   whole row; a process's is its threads'
 * @n_messages: messages sent or received (arrows ending on the row; a
 *   process's are its threads')
 * @kernel: a kernel thread (the state dump says so, or kthreadd started
 *   it); a process whose main thread is one
 */
typedef struct
{
  gint64   run_ns;
  guint64  n_messages;
  gboolean kernel;
} SlTimelineRowActivity;

void           sl_timeline_get_row_activity    (const SlTimeline         *self,
                                                guint                     row,
                                                SlTimelineRowActivity    *out);

/**
 * SlTimelineRowFilterFlags:
 * @SL_TIMELINE_FILTER_HIDE_IDLE: hide threads and processes that never ran
 *   nor exchanged a message
 * @SL_TIMELINE_FILTER_HIDE_KERNEL: hide kernel threads
 * @SL_TIMELINE_FILTER_ONLY_MESSAGES: keep only threads (and their
 *   processes) that sent or received messages
 */
typedef enum /*< flags >*/
{
  SL_TIMELINE_FILTER_HIDE_IDLE     = 1 << 0,
  SL_TIMELINE_FILTER_HIDE_KERNEL   = 1 << 1,
  SL_TIMELINE_FILTER_ONLY_MESSAGES = 1 << 2,
} SlTimelineRowFilterFlags;

/**
 * sl_timeline_row_passes:
 * @flags: #SlTimelineRowFilterFlags
 *
 * Whether a thread or process row is kept by @flags (host and CPU rows
 * always are). A process is kept when its main thread or one of its
 * threads is.
 */
gboolean       sl_timeline_row_passes          (const SlTimeline         *self,
                                                guint                     row,
                                                guint                     flags);
/**
 * sl_timeline_sort_by_activity:
 * @rows: (inout): rows (guint)
 *
 * Orders @rows with those that exchanged messages first (most first), then
 * those that ran (longest first), then the others, each group in row order.
 */
void           sl_timeline_sort_by_activity    (const SlTimeline         *self,
                                                GArray                   *rows);
/**
 * sl_timeline_dup_process_tree:
 * @pid: the root process
 *
 * Returns: (transfer full): the process ids of @pid and its descendants on
 *   @host (guint32), by the parent ids the trace gives
 */
GArray        *sl_timeline_dup_process_tree    (const SlTimeline         *self,
                                                guint                     host,
                                                guint32                   pid);

/**
 * sl_timeline_get_string:
 *
 * The text of a string id (system call names in intervals' details).
 */
const char    *sl_timeline_get_string          (const SlTimeline         *self,
                                                guint32                   id);

/* States */

guint64        sl_timeline_get_n_intervals     (const SlTimeline         *self,
                                                guint                     row);
void           sl_timeline_get_interval        (const SlTimeline         *self,
                                                guint                     row,
                                                guint64                   index,
                                                SlTimelineInterval       *interval);
/**
 * sl_timeline_find_interval:
 *
 * Returns: the index of @row's interval covering @local, %G_MAXUINT64
 *   outside them
 */
guint64        sl_timeline_find_interval       (const SlTimeline         *self,
                                                guint                     row,
                                                gint64                    local);
/**
 * sl_timeline_get_state_time:
 * @ns: (out caller-allocates): ns per #SlTimelineState over [@t0, @t1)
 *
 * The time @row spends in each state over a local span (time outside its
 * intervals counts as %SL_TIMELINE_STATE_NONE). O(log n).
 */
void           sl_timeline_get_state_time      (const SlTimeline         *self,
                                                guint                     row,
                                                gint64                    t0,
                                                gint64                    t1,
                                                gint64                    ns[SL_TIMELINE_N_STATES]);
/**
 * sl_timeline_query_row:
 * @t0: local time of the first pixel's left edge
 * @t1: local time of the last pixel's right edge
 * @n_px: pixel columns
 * @out: (array length=n_px): the summaries
 *
 * Summarizes @row per pixel column; pixel k covers
 * [t0 + ⌊(t1 − t0)·k / n_px⌋, the next). Process rows show their main
 * thread; host rows are %SL_TIMELINE_STATE_NONE. The cost is one
 * bisection plus, per pixel, a galloping search from the previous one and
 * at most 16 interval steps, whatever the zoom.
 */
void           sl_timeline_query_row           (const SlTimeline         *self,
                                                guint                     row,
                                                gint64                    t0,
                                                gint64                    t1,
                                                guint                     n_px,
                                                SlTimelinePixel          *out);
/**
 * sl_timeline_query_row_view:
 * @t0: view time of the left edge
 * @t1: view time of the right edge
 *
 * sl_timeline_query_row() over a span of the view's clock, through the
 * transform set by sl_timeline_set_host_transform() (raw local time when
 * none is set): each pixel boundary is taken back to local time.
 */
void           sl_timeline_query_row_view      (const SlTimeline         *self,
                                                guint                     row,
                                                gint64                    t0,
                                                gint64                    t1,
                                                guint                     n_px,
                                                SlTimelinePixel          *out);
/**
 * sl_timeline_query_row_mapped:
 * @to_view: maps the row's host's local time to the view's
 *
 * Like sl_timeline_query_row_view() with an explicit transform.
 */
void           sl_timeline_query_row_mapped    (const SlTimeline         *self,
                                                guint                     row,
                                                const SlTransform        *to_view,
                                                gint64                    t0,
                                                gint64                    t1,
                                                guint                     n_px,
                                                SlTimelinePixel          *out);
/**
 * sl_timeline_query_row_bounds:
 * @bounds: (array): @n_px + 1 non-decreasing local times; pixel k covers
 *   [bounds[k], bounds[k + 1])
 *
 * The general per-pixel query, for any monotonic pixel-to-time mapping.
 */
void           sl_timeline_query_row_bounds    (const SlTimeline         *self,
                                                guint                     row,
                                                const gint64             *bounds,
                                                guint                     n_px,
                                                SlTimelinePixel          *out);

/* Arrows */

/**
 * sl_timeline_query_arrows:
 * @t0: view time of the span's start
 * @t1: view time of its end
 * @n_px: columns to fold into: at most one arrow per ordered host pair and
 *   column of its send end is returned, its @count saying how many it
 *   stands for; 0 returns every arrow. A zoomed-out view of many hosts
 *   should ask for fewer columns than it has pixels.
 * @host_a: only arrows between @host_a and @host_b (either direction);
 *   %SL_TIMELINE_NONE for any
 * @host_b: see @host_a
 * @connection: only this connection, %SL_TIMELINE_NONE for any
 * @out: #SlTimelineArrow array the arrows are appended to
 *
 * The arrows that cross [@t0, @t1] on the view's clock (hosts' transforms
 * as set by sl_timeline_set_host_transform()), by host pair then send time.
 *
 * Returns: the arrows appended
 */
guint64        sl_timeline_query_arrows        (const SlTimeline         *self,
                                                gint64                    t0,
                                                gint64                    t1,
                                                guint                     n_px,
                                                guint                     host_a,
                                                guint                     host_b,
                                                guint                     connection,
                                                GArray                   *out);
/**
 * sl_timeline_find_message:
 * @out: (out caller-allocates): the message, as a query gives it (@count 1)
 *
 * The message from @send_host sent at local @send_time and received at
 * local @recv_time on @recv_host (a message is named by its two ends).
 *
 * Returns: whether there is one
 */
gboolean       sl_timeline_find_message        (const SlTimeline         *self,
                                                guint                     send_host,
                                                guint                     recv_host,
                                                gint64                    send_time,
                                                gint64                    recv_time,
                                                SlTimelineArrow          *out);

/**
 * SlTimelineMessage:
 * @send_tid: thread of the send event, 0 when not known
 * @recv_tid: thread of the receive event (in a softirq: the one it
 *   interrupted), 0 when not known
 * @send_pid: @send_tid's process, 0 when not known
 * @recv_pid: @recv_tid's process, 0 when not known
 * @has_seq: whether @seq is known
 * @seq: the TCP sequence number
 * @family: 4, 6, or 0 when the addresses are not known
 * @send_addr: the sender's address (IPv4 in the first 4 bytes)
 * @recv_addr: the receiver's address
 * @send_port: the sender's TCP port, 0 when not known
 * @recv_port: the receiver's TCP port, 0 when not known
 * @length: TCP payload bytes, %SL_EVENT_NO_LENGTH when not known
 *
 * What the events of a message's two ends say.
 */
typedef struct
{
  guint32  send_tid;
  guint32  recv_tid;
  guint32  send_pid;
  guint32  recv_pid;
  gboolean has_seq;
  guint32  seq;
  guint8   family;
  guint8   send_addr[16];
  guint8   recv_addr[16];
  guint16  send_port;
  guint16  recv_port;
  guint32  length;
} SlTimelineMessage;

/**
 * sl_timeline_get_message:
 * @arrow: a message (a folded arrow's first one)
 *
 * Fills @out from the stores' packet events and the connection.
 */
void           sl_timeline_get_message         (const SlTimeline         *self,
                                                const SlTimelineArrow    *arrow,
                                                SlTimelineMessage        *out);
guint64        sl_timeline_get_n_arrows        (const SlTimeline         *self);
guint          sl_timeline_get_n_connections   (const SlTimeline         *self);
void           sl_timeline_get_connection      (const SlTimeline         *self,
                                                guint                     connection,
                                                SlTimelineConnection     *out);

/* Events */

/**
 * sl_timeline_dup_row_events:
 * @t0: local start of the span
 * @t1: local end (excluded)
 * @max_events: at most this many (the first ones), 0 for all
 *
 * Copies of the store's events that concern @row in [@t0, @t1), in time
 * order: the lazy source of an events table. A thread's are its
 * scheduling, system call and packet events, a process's those of its
 * threads, a CPU's all events recorded on it. The cost is the number of
 * the host's events in the span.
 *
 * Returns: (transfer full): #SlEvent array
 */
GArray        *sl_timeline_dup_row_events      (const SlTimeline         *self,
                                                guint                     row,
                                                gint64                    t0,
                                                gint64                    t1,
                                                guint                     max_events);

void           sl_timeline_get_stats           (const SlTimeline         *self,
                                                SlTimelineStats          *stats);
const char    *sl_timeline_state_to_string     (SlTimelineState           state);
const char    *sl_timeline_row_kind_to_string  (SlTimelineRowKind         kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTimeline, sl_timeline_free)

G_END_DECLS
