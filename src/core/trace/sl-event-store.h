/* sl-event-store.h: compact per-host event streams for the timeline views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SlEventKind:
 *
 * What the timeline views need from a kernel trace. The meaning of the
 * #SlEvent fields per kind:
 *
 * - %SL_EVENT_SCHED_SWITCH: @tid previous thread, @arg next thread, @str
 *   next thread's name, @flags previous thread's state (low 8 bits)
 * - %SL_EVENT_SCHED_WAKEUP: @tid woken thread, @arg target CPU
 * - %SL_EVENT_PROCESS_FORK: @tid parent, @arg child, @str child's name,
 *   @flags #SlEventForkFlags (whether the child is a thread of the parent's
 *   process or a new process, when the trace says)
 * - %SL_EVENT_PROCESS_EXEC: @tid, @str file name
 * - %SL_EVENT_PROCESS_EXIT: @tid
 * - %SL_EVENT_PROCESS_NAME: @tid, @arg process id (0: not known), @str name,
 *   @flags #SlEventNameFlags: where it comes from (the state dump, a fork's
 *   parent, user-space events' context) and the state dump's task status
 * - %SL_EVENT_PROCESS_PARENT: @tid process id, @arg its parent's process id
 *   (state dump)
 * - %SL_EVENT_SYSCALL_ENTRY: @tid, @str system call name, @arg its `fd`
 *   argument (as gint32) when @flags has %SL_EVENT_SYSCALL_HAS_FD
 * - %SL_EVENT_SYSCALL_EXIT: @tid, @arg return value (as gint32), @str
 *   system call name when the trace names it
 * - %SL_EVENT_IRQ_ENTRY / %SL_EVENT_IRQ_EXIT: @arg IRQ line, @str handler
 * - %SL_EVENT_SOFTIRQ_ENTRY / _EXIT / _RAISE: @arg vector
 * - %SL_EVENT_PACKET_SEND / %SL_EVENT_PACKET_RECV: @tid, @arg TCP seq; its
 *   ports and length beside it (sl_event_store_get_packet())
 * - %SL_EVENT_LOST: the tracer discarded events of the stream of CPU @cpu
 *   from @time on (until that stream's next event): @arg how many (0: not
 *   known, saturates at %G_MAXUINT32), @flags #SlEventLostFlags
 *
 * Forks, state dumps and the `vpid`/`vtid`/`procname` contexts of user-space
 * events each give a thread's process: a fork whose trace names the
 * parent's process adds a %SL_EVENT_PROCESS_NAME of the parent (its tid, pid
 * and name) just before the %SL_EVENT_PROCESS_FORK, so the child's process
 * is known even without a state dump; user-space events add one whenever a
 * thread's process or name differs from the last one recorded.
 */
typedef enum
{
  SL_EVENT_NONE,
  SL_EVENT_SCHED_SWITCH,
  SL_EVENT_SCHED_WAKEUP,
  SL_EVENT_PROCESS_FORK,
  SL_EVENT_PROCESS_EXEC,
  SL_EVENT_PROCESS_EXIT,
  SL_EVENT_PROCESS_NAME,
  SL_EVENT_SYSCALL_ENTRY,
  SL_EVENT_SYSCALL_EXIT,
  SL_EVENT_IRQ_ENTRY,
  SL_EVENT_IRQ_EXIT,
  SL_EVENT_SOFTIRQ_ENTRY,
  SL_EVENT_SOFTIRQ_EXIT,
  SL_EVENT_SOFTIRQ_RAISE,
  SL_EVENT_PACKET_SEND,
  SL_EVENT_PACKET_RECV,
  SL_EVENT_PROCESS_PARENT,
  SL_EVENT_LOST,
  SL_EVENT_N_KINDS
} SlEventKind;

/**
 * SlEventForkFlags:
 * @SL_EVENT_FORK_THREAD: the child is a thread of the parent's process
 *   (`child_pid` is the parent's `parent_pid`, not `child_tid`)
 * @SL_EVENT_FORK_PROCESS: the child starts a new process (`child_pid` is
 *   `child_tid`)
 *
 * Neither is set when the trace has no `child_pid` (older lttng-modules).
 */
typedef enum
{
  SL_EVENT_FORK_THREAD  = 1 << 0,
  SL_EVENT_FORK_PROCESS = 1 << 1,
} SlEventForkFlags;

/**
 * SlEventTaskStatus:
 * @SL_EVENT_TASK_UNKNOWN: not said (lttng's `UNNAMED`)
 * @SL_EVENT_TASK_WAIT_FORK: ready to run (lttng-modules reports most
 *   runnable and running tasks so)
 * @SL_EVENT_TASK_WAIT_CPU: ready to run, or running
 * @SL_EVENT_TASK_EXIT: exiting
 * @SL_EVENT_TASK_ZOMBIE: exited, not reaped yet
 * @SL_EVENT_TASK_WAIT: sleeping (interruptible or not)
 * @SL_EVENT_TASK_RUN: running
 * @SL_EVENT_TASK_DEAD: exited
 *
 * The `status` of lttng's `lttng_statedump_process_state`, with its values.
 */
typedef enum
{
  SL_EVENT_TASK_UNKNOWN,
  SL_EVENT_TASK_WAIT_FORK,
  SL_EVENT_TASK_WAIT_CPU,
  SL_EVENT_TASK_EXIT,
  SL_EVENT_TASK_ZOMBIE,
  SL_EVENT_TASK_WAIT,
  SL_EVENT_TASK_RUN,
  SL_EVENT_TASK_DEAD,
} SlEventTaskStatus;

/**
 * SlEventNameFlags:
 * @SL_EVENT_NAME_STATUS_MASK: the #SlEventTaskStatus of a state dump record
 * @SL_EVENT_NAME_KERNEL_THREAD: the state dump says it is a kernel thread
 * @SL_EVENT_NAME_STATE_DUMP: from the state dump
 * @SL_EVENT_NAME_FORK: the parent of the %SL_EVENT_PROCESS_FORK that follows
 * @SL_EVENT_NAME_CONTEXT: from the context fields of the thread's events
 */
typedef enum
{
  SL_EVENT_NAME_STATUS_MASK   = 0x07,
  SL_EVENT_NAME_KERNEL_THREAD = 1 << 3,
  SL_EVENT_NAME_STATE_DUMP    = 1 << 4,
  SL_EVENT_NAME_FORK          = 1 << 5,
  SL_EVENT_NAME_CONTEXT       = 1 << 6,
} SlEventNameFlags;

/**
 * SlEventSyscallFlags:
 * @SL_EVENT_SYSCALL_HAS_FD: the entry's @arg is its `fd` argument
 */
typedef enum
{
  SL_EVENT_SYSCALL_HAS_FD = 1 << 0,
} SlEventSyscallFlags;

/**
 * SlEventLostFlags:
 * @SL_EVENT_LOST_USER: the events were lost from a user-space stream (they
 *   say nothing of the kernel's scheduling)
 */
typedef enum
{
  SL_EVENT_LOST_USER = 1 << 0,
} SlEventLostFlags;

/**
 * SlEventStream:
 *
 * Events are kept in one time-ordered array per stream, so a view reads
 * only what it draws: the scheduling stream holds switches, wake-ups,
 * process life cycle and names, and the marks of lost events; the others
 * hold what their names say.
 */
typedef enum
{
  SL_EVENT_STREAM_SCHED,
  SL_EVENT_STREAM_SYSCALL,
  SL_EVENT_STREAM_IRQ,
  SL_EVENT_STREAM_NET,
  SL_EVENT_N_STREAMS
} SlEventStream;

/**
 * SlEvent:
 * @time: host-local ns since the epoch
 * @tid: thread
 * @arg: kind-specific (see #SlEventKind)
 * @str: interned string id (see sl_event_store_get_string()), 0 for none
 * @cpu: CPU the event was recorded on
 * @kind: an #SlEventKind
 * @flags: kind-specific
 *
 * 24 bytes; no object per event.
 */
typedef struct
{
  gint64  time;
  guint32 tid;
  guint32 arg;
  guint32 str;
  guint16 cpu;
  guint8  kind;
  guint8  flags;
} SlEvent;

/**
 * SlEventPacket:
 * @sport: TCP source port, 0 when not known
 * @dport: TCP destination port, 0 when not known
 * @length: TCP payload bytes, %SL_EVENT_NO_LENGTH when not known
 *
 * What a packet event says beyond #SlEvent, kept beside it (8 bytes per
 * packet event).
 */
typedef struct
{
  guint16 sport;
  guint16 dport;
  guint32 length;
} SlEventPacket;

#define SL_EVENT_NO_LENGTH G_MAXUINT32

typedef struct _SlEventStore SlEventStore;

SlEventStore  *sl_event_store_new             (void);
void           sl_event_store_free            (SlEventStore       *self);
guint32        sl_event_store_intern          (SlEventStore       *self,
                                               const char         *str);
const char    *sl_event_store_get_string      (const SlEventStore *self,
                                               guint32             id);
guint          sl_event_store_get_n_strings   (const SlEventStore *self);
void           sl_event_store_append          (SlEventStore       *self,
                                               const SlEvent      *event);
/**
 * sl_event_store_append_packet:
 * @event: a %SL_EVENT_PACKET_SEND or %SL_EVENT_PACKET_RECV
 * @packet: its ports and length
 */
void           sl_event_store_append_packet   (SlEventStore       *self,
                                               const SlEvent      *event,
                                               const SlEventPacket *packet);
void           sl_event_store_append_many     (SlEventStore        *self,
                                               const void          *events,
                                               gsize                n_events,
                                               const guint32       *strings,
                                               gsize                n_strings,
                                               const SlEventPacket *packets,
                                               gsize                n_packets);
/**
 * sl_event_store_get_packet:
 * @index: an index of %SL_EVENT_STREAM_NET
 *
 * Returns: the ports and length of that packet event (unknown ones when
 *   it was appended without them)
 */
const SlEventPacket *sl_event_store_get_packet (const SlEventStore *self,
                                               guint64             index);
SlEventStream  sl_event_kind_get_stream       (SlEventKind         kind);
const char    *sl_event_kind_to_string        (SlEventKind         kind);
guint64        sl_event_store_get_n_events    (const SlEventStore *self,
                                               SlEventStream       stream);
guint64        sl_event_store_get_kind_count  (const SlEventStore *self,
                                               SlEventKind         kind);
guint64        sl_event_store_get_n_lost      (const SlEventStore *self);
/**
 * sl_event_store_get:
 * @index: below sl_event_store_get_n_events()
 *
 * Returns: the event, or %NULL when it was dropped (@index below
 *   sl_event_store_get_first_index())
 */
const SlEvent *sl_event_store_get             (const SlEventStore *self,
                                               SlEventStream       stream,
                                               guint64             index);
/**
 * sl_event_store_get_run:
 * @index: below sl_event_store_get_n_events(), not dropped
 * @n_run: (out): how many events from @index on are contiguous (at least 1)
 *
 * Returns: the event at @index, followed in memory by the next @n_run - 1
 *   ones of @stream (to read a stream in order without a call per event)
 */
const SlEvent *sl_event_store_get_run         (const SlEventStore *self,
                                               SlEventStream       stream,
                                               guint64             index,
                                               guint64            *n_run);
guint64        sl_event_store_lower_bound     (const SlEventStore *self,
                                               SlEventStream       stream,
                                               gint64              time);
gboolean       sl_event_store_get_time_range  (const SlEventStore *self,
                                               gint64             *first,
                                               gint64             *last);
const char    *sl_event_store_get_thread_name (const SlEventStore *self,
                                               guint32             tid);
guint          sl_event_store_get_n_threads   (const SlEventStore *self);
gsize          sl_event_store_get_memory_size (const SlEventStore *self);
guint64        sl_event_store_get_first_index (const SlEventStore *self,
                                               SlEventStream       stream);
gint64         sl_event_store_get_kept_from   (const SlEventStore *self);
guint64        sl_event_store_drop_before     (SlEventStore       *self,
                                               gint64              time);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlEventStore, sl_event_store_free)

G_END_DECLS
