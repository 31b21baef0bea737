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
 * - %SL_EVENT_PROCESS_FORK: @tid parent, @arg child, @str child's name
 * - %SL_EVENT_PROCESS_EXEC: @tid, @str file name
 * - %SL_EVENT_PROCESS_EXIT: @tid
 * - %SL_EVENT_PROCESS_NAME: @tid, @arg process id, @str name (state dump)
 * - %SL_EVENT_SYSCALL_ENTRY: @tid, @str system call name
 * - %SL_EVENT_SYSCALL_EXIT: @tid, @arg return value (as gint32), @str
 *   system call name when the trace names it
 * - %SL_EVENT_IRQ_ENTRY / %SL_EVENT_IRQ_EXIT: @arg IRQ line, @str handler
 * - %SL_EVENT_SOFTIRQ_ENTRY / _EXIT / _RAISE: @arg vector
 * - %SL_EVENT_PACKET_SEND / %SL_EVENT_PACKET_RECV: @tid, @arg TCP seq
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
  SL_EVENT_N_KINDS
} SlEventKind;

/**
 * SlEventStream:
 *
 * Events are kept in one time-ordered array per stream, so a view reads
 * only what it draws: the scheduling stream holds switches, wake-ups and
 * process life cycle and names; the others hold what their names say.
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
SlEventStream  sl_event_kind_get_stream       (SlEventKind         kind);
const char    *sl_event_kind_to_string        (SlEventKind         kind);
guint64        sl_event_store_get_n_events    (const SlEventStore *self,
                                               SlEventStream       stream);
guint64        sl_event_store_get_kind_count  (const SlEventStore *self,
                                               SlEventKind         kind);
const SlEvent *sl_event_store_get             (const SlEventStore *self,
                                               SlEventStream       stream,
                                               guint64             index);
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

G_END_DECLS
