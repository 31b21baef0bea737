/* sl-bt-decode.c: babeltrace2 events into packet events and the event store
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-bt-decode-private.h"

struct _SlBtStreamInfo
{
  const bt_stream_class *sc;
  gboolean               has_clock;
  GPtrArray             *by_id;
  GHashTable            *by_class;
  Member                 ctx_cpu;
  Member                 common_tid;
  Member                 common_pid;
  Member                 common_name;
};

/* What the events' context last said of a thread. */
typedef struct
{
  guint32  pid;
  guint32  name;
  char    *name_str;
} ContextThread;

/* Events the tracer discarded, waiting for the merge to reach @begin: the
 * store's streams must stay in time order. */
typedef struct
{
  gint64                 begin;
  guint32                count;
  guint16                cpu;
  guint8                 flags;
  guint8                 cpu_known;
  const SlBtStreamState *st;
} Gap;

/* The name a switch gave the thread it runs, by thread (the idle
 * threads, all tid 0, by CPU), and an interrupt handler's, by line: most
 * name what they named last time, and interning it again (the string
 * hashed, the decoder's table searched) was the larger part of what the
 * timeline's events add to decoding. */
#define NAME_SLOTS 1024
#define IDLE_SLOTS 64
#define IRQ_SLOTS  256

typedef struct
{
  guint32 key;
  guint32 id;
  char    name[16];
} NameSlot;

typedef struct
{
  NameSlot threads[NAME_SLOTS];
  NameSlot idle[IDLE_SLOTS];
  NameSlot irqs[IRQ_SLOTS];
} NameCache;

struct _SlBtDecoder
{
  GHashTable    *stream_infos;
  GArray        *cpu_tid;
  gboolean       keep;
  gboolean       muted;
  SlBtEventSink  out;
  gint64         last_appended;
  GHashTable    *context_threads;
  GArray        *gaps;
  NameCache     *names;
  /* the timeline's events since sl_bt_decoder_clear_events(), and the
   * packet events' details, one per packet event */
  SlEvent       *events;
  guint          n_events;
  guint          events_size;
  GArray        *packet_infos;
  /* an event class's first unreadable packet event, not taken yet */
  const char    *unusable;
};

static guint32
intern (SlBtDecoder *d,
        const char  *str)
{
  if (str == NULL || *str == '\0')
    return 0;
  return d->out.intern (d->out.data, str);
}

static void
grow_events (SlBtDecoder *d)
{
  d->events_size = MAX (d->events_size * 2, 1024);
  d->events = g_renew (SlEvent, d->events, d->events_size);
}

/* Every timeline event goes through here (@packet: a packet event's ports
 * and length), into the decoder's array at the cost of a copy; the
 * reader that receives them skips what a continued store holds already
 * (sl-decoder.c). */
static inline void
append (SlBtDecoder         *d,
        const SlEvent       *e,
        const SlEventPacket *packet)
{
  static const SlEventPacket unknown = { 0, 0, SL_EVENT_NO_LENGTH };

  if (d->muted)
    return;
  d->last_appended = MAX (d->last_appended, e->time);
  if (G_UNLIKELY (d->n_events == d->events_size))
    grow_events (d);
  d->events[d->n_events++] = *e;
  if (G_UNLIKELY (e->kind == SL_EVENT_PACKET_SEND || e->kind == SL_EVENT_PACKET_RECV))
    g_array_append_vals (d->packet_infos, packet != NULL ? packet : &unknown, 1);
}

/* @slot's id for @name if it holds them with @key, else @name interned
 * (and kept in @slot when it fits). */
static inline guint32
cached_intern (SlBtDecoder *d,
               NameSlot    *slot,
               guint32      key,
               const char  *name)
{
  guint32 id;
  gsize len;

  if (name == NULL || *name == '\0')
    return 0;
  if (slot->id != 0 && slot->key == key && strcmp (slot->name, name) == 0)
    return slot->id;
  id = intern (d, name);
  len = strlen (name);
  if (len < sizeof slot->name)
    {
      slot->key = key;
      slot->id = id;
      memcpy (slot->name, name, len + 1);
    }
  return id;
}


/* ---------------------------------------------------------------------- */
/* Event classes                                                           */

enum { FORK_PARENT_TID, FORK_CHILD_TID, FORK_CHILD_COMM, FORK_PARENT_PID, FORK_CHILD_PID, FORK_PARENT_COMM };
enum { DUMP_TID, DUMP_PID, DUMP_NAME, DUMP_PPID, DUMP_STATUS, DUMP_TYPE };

static const struct
{
  const char        *name;
  EventKindInternal  kind;
  const char        *members[CACHE_MAX_MEMBERS];
} known_events[] = {
  { "net_dev_queue", EK_NET_SEND, { "network_header" } },
  { "net_if_receive_skb", EK_NET_RECV, { "network_header" } },
  { "netif_receive_skb", EK_NET_RECV, { "network_header" } },
  { "net_if_rx", EK_NET_RECV, { "network_header" } },
  { "netif_rx", EK_NET_RECV, { "network_header" } },
  { "inet_sock_local_out", EK_INET_SEND, { "seq", "ack_seq", "flags", "length" } },
  { "inet_sock_local_in", EK_INET_RECV, { "seq", "ack_seq", "flags", "length" } },
  { "syncline_net:tcp_send", EK_UST_SEND,
    { "family", "saddr", "daddr", "sport|source_port", "dport|dest_port", "seq", "ack_seq", "flags", "length" } },
  { "syncline_net:tcp_recv", EK_UST_RECV,
    { "family", "saddr", "daddr", "sport|source_port", "dport|dest_port", "seq", "ack_seq", "flags", "length" } },
  { "sched_switch", EK_SCHED_SWITCH, { "prev_tid", "next_tid", "next_comm", "prev_state" } },
  { "sched_wakeup", EK_SCHED_WAKEUP, { "tid", "target_cpu" } },
  { "sched_wakeup_new", EK_SCHED_WAKEUP, { "tid", "target_cpu" } },
  { "sched_waking", EK_SCHED_WAKEUP, { "tid", "target_cpu" } },
  /* older lttng-modules: try_to_wake_up in the waker's context, where
   * their sched_wakeup is on the woken task's CPU */
  { "sched_ttwu", EK_SCHED_WAKEUP, { "tid", "target_cpu" } },
  /* lttng-modules 2.4 and later also have parent_pid and child_pid, the
   * processes (tgid) of both */
  { "sched_process_fork", EK_PROCESS_FORK,
    { "parent_tid", "child_tid", "child_comm", "parent_pid", "child_pid", "parent_comm" } },
  { "sched_process_exec", EK_PROCESS_EXEC, { "tid", "filename" } },
  { "sched_process_exit", EK_PROCESS_EXIT, { "tid" } },
  { "lttng_statedump_process_state", EK_STATEDUMP_PROCESS, { "tid", "pid", "name", "ppid", "status", "type" } },
  { "irq_handler_entry", EK_IRQ_ENTRY, { "irq", "name" } },
  { "irq_handler_exit", EK_IRQ_EXIT, { "irq", "ret" } },
  { "softirq_entry", EK_SOFTIRQ_ENTRY, { "vec" } },
  { "softirq_exit", EK_SOFTIRQ_EXIT, { "vec" } },
  { "softirq_raise", EK_SOFTIRQ_RAISE, { "vec" } },
  { "exit_syscall", EK_SYSCALL_EXIT, { "ret" } },
};

static EventInfo *
event_info_new (SlBtDecoder          *d,
                const bt_event_class *ec)
{
  EventInfo *ei = g_new0 (EventInfo, 1);
  const char *name = bt_event_class_get_name (ec);
  const bt_field_class *payload = bt_event_class_borrow_payload_field_class_const (ec);
  const char *const *members = NULL;
  const char *syscall = NULL;
  static const char *const exit_members[CACHE_MAX_MEMBERS] = { "ret" };
  static const char *const entry_members[CACHE_MAX_MEMBERS] = { "fd" };

  for (guint i = 0; i < CACHE_MAX_MEMBERS; i++)
    ei->m[i] = _sl_bt_member_lookup (NULL, NULL);
  ei->kind = EK_OTHER;
  /* an event's payload is an instance of its class's */
  ei->payload_struct = payload != NULL &&
                       bt_field_class_type_is (bt_field_class_get_type (payload), BT_FIELD_CLASS_TYPE_STRUCTURE);
  if (name == NULL)
    return ei;

  for (guint i = 0; i < G_N_ELEMENTS (known_events); i++)
    if (g_str_equal (name, known_events[i].name))
      {
        ei->kind = known_events[i].kind;
        members = known_events[i].members;
        break;
      }

  if (ei->kind == EK_OTHER)
    {
      if (g_str_has_prefix (name, "syscall_entry_"))
        ei->kind = EK_SYSCALL_ENTRY, syscall = name + strlen ("syscall_entry_"), members = entry_members;
      else if (g_str_has_prefix (name, "compat_syscall_entry_"))
        ei->kind = EK_SYSCALL_ENTRY, syscall = name + strlen ("compat_syscall_entry_"), members = entry_members;
      else if (g_str_has_prefix (name, "syscall_exit_"))
        ei->kind = EK_SYSCALL_EXIT, syscall = name + strlen ("syscall_exit_"), members = exit_members;
      else if (g_str_has_prefix (name, "compat_syscall_exit_"))
        ei->kind = EK_SYSCALL_EXIT, syscall = name + strlen ("compat_syscall_exit_"), members = exit_members;
      else if (g_str_has_prefix (name, "sys_"))
        ei->kind = EK_SYSCALL_ENTRY, syscall = name + strlen ("sys_"), members = entry_members;
      else if (g_str_has_prefix (name, "compat_sys_"))
        ei->kind = EK_SYSCALL_ENTRY, syscall = name + strlen ("compat_sys_"), members = entry_members;
    }

  /* Without an event store only the packet events matter. */
  if (!d->keep && ei->kind > EK_UST_RECV)
    ei->kind = EK_OTHER;

  if (members != NULL)
    for (guint i = 0; i < CACHE_MAX_MEMBERS && members[i] != NULL; i++)
      ei->m[i] = _sl_bt_member_lookup (payload, members[i]);
  if (syscall != NULL && d->keep)
    ei->name_id = intern (d, syscall);
  return ei;
}

static void
event_info_free (gpointer p)
{
  EventInfo *ei = p;

  /* by_id's slots of ids not seen are NULL */
  if (ei == NULL)
    return;
  g_free (ei->unusable);
  g_free (ei);
}

static void
stream_info_free (gpointer p)
{
  SlBtStreamInfo *si = p;

  g_ptr_array_unref (si->by_id);
  g_hash_table_destroy (si->by_class);
  g_free (si);
}

static SlBtStreamInfo *
stream_info_get (SlBtDecoder           *d,
                 const bt_stream_class *sc)
{
  SlBtStreamInfo *si = g_hash_table_lookup (d->stream_infos, sc);
  const bt_field_class *pc, *cc;

  if (si != NULL)
    return si;

  si = g_new0 (SlBtStreamInfo, 1);
  si->sc = sc;
  si->has_clock = bt_stream_class_borrow_default_clock_class_const (sc) != NULL;
  si->by_id = g_ptr_array_new_with_free_func (event_info_free);
  si->by_class = g_hash_table_new_full (NULL, NULL, NULL, event_info_free);
  si->ctx_cpu = _sl_bt_member_lookup (NULL, NULL);
  if (bt_stream_class_supports_packets (sc))
    {
      pc = bt_stream_class_borrow_packet_context_field_class_const (sc);
      si->ctx_cpu = _sl_bt_member_lookup (pc, "cpu_id");
    }
  cc = bt_stream_class_borrow_event_common_context_field_class_const (sc);
  si->common_tid = _sl_bt_member_lookup (cc, "tid|vtid");
  si->common_pid = _sl_bt_member_lookup (cc, "pid|vpid");
  si->common_name = _sl_bt_member_lookup (cc, "procname");
  g_hash_table_insert (d->stream_infos, (gpointer) sc, si);
  return si;
}

static inline EventInfo *
event_info_get (SlBtDecoder          *d,
                SlBtStreamInfo           *si,
                const bt_event_class *ec)
{
  guint64 id = bt_event_class_get_id (ec);
  EventInfo *ei;

  if (id < 65536)
    {
      if (id < si->by_id->len)
        {
          ei = g_ptr_array_index (si->by_id, id);
          if (ei != NULL)
            return ei;
        }
      else
        g_ptr_array_set_size (si->by_id, (guint) id + 1);
      ei = event_info_new (d, ec);
      g_ptr_array_index (si->by_id, id) = ei;
      return ei;
    }

  ei = g_hash_table_lookup (si->by_class, ec);
  if (ei == NULL)
    {
      ei = event_info_new (d, ec);
      g_hash_table_insert (si->by_class, (gpointer) ec, ei);
    }
  return ei;
}

/* ---------------------------------------------------------------------- */
/* Event store                                                             */

static guint32
current_tid (SlBtDecoder *d,
             SlBtStreamState *st,
             const bt_event *ev)
{
  guint64 tid;

  if (st->sinfo->common_tid.kind != MK_NONE &&
      member_uint (bt_event_borrow_common_context_field_const (ev), st->sinfo->common_tid, &tid))
    return (guint32) tid;
  if (st->cpu < d->cpu_tid->len)
    return g_array_index (d->cpu_tid, guint32, st->cpu);
  return 0;
}

static guint64
payload_uint (const bt_field  *payload,
              const EventInfo *ei,
              guint            i)
{
  guint64 v = 0;

  member_uint (payload, ei->m[i], &v);
  return v;
}

/* the idle threads are all tid 0, named after their CPU */
static guint32
next_thread_name (SlBtDecoder     *d,
                  const bt_field  *payload,
                  const EventInfo *ei,
                  guint            i,
                  guint32          tid,
                  guint            cpu)
{
  NameSlot *slot = tid != 0 ? &d->names->threads[tid % NAME_SLOTS] : &d->names->idle[cpu % IDLE_SLOTS];

  return cached_intern (d, slot, tid, member_string (payload, ei->m[i]));
}

static guint32
payload_str (SlBtDecoder     *d,
             const bt_field  *payload,
             const EventInfo *ei,
             guint            i)
{
  return intern (d, member_string (payload, ei->m[i]));
}

/* @e: the fork; the parent's name appended before it when its pid is known */
static void
fork_event (SlBtDecoder     *d,
            const EventInfo *ei,
            const bt_field  *payload,
            SlEvent         *e)
{
  guint64 parent_pid = 0, child_pid = 0;
  gboolean pids = member_uint (payload, ei->m[FORK_PARENT_PID], &parent_pid) &&
                  member_uint (payload, ei->m[FORK_CHILD_PID], &child_pid);

  e->kind = SL_EVENT_PROCESS_FORK;
  e->tid = (guint32) payload_uint (payload, ei, FORK_PARENT_TID);
  e->arg = (guint32) payload_uint (payload, ei, FORK_CHILD_TID);
  e->str = payload_str (d, payload, ei, FORK_CHILD_COMM);
  /* without *_tid members, *_pid are thread ids (ftrace's layout) */
  if (pids && e->arg != 0 && child_pid != 0)
    e->flags = (guint32) child_pid == e->arg ? SL_EVENT_FORK_PROCESS : SL_EVENT_FORK_THREAD;
  if (pids && e->tid != 0 && parent_pid != 0)
    {
      SlEvent parent = *e;

      parent.kind = SL_EVENT_PROCESS_NAME;
      parent.arg = (guint32) parent_pid;
      parent.str = payload_str (d, payload, ei, FORK_PARENT_COMM);
      parent.flags = SL_EVENT_NAME_FORK;
      append (d, &parent, NULL);
    }
}

/* @e: a thread's name from the state dump; a main thread's is appended
 * and @e becomes its process's parent */
static void
statedump_event (SlBtDecoder     *d,
                 const EventInfo *ei,
                 const bt_field  *payload,
                 SlEvent         *e)
{
  guint64 v;

  e->kind = SL_EVENT_PROCESS_NAME;
  e->tid = (guint32) payload_uint (payload, ei, DUMP_TID);
  e->arg = (guint32) payload_uint (payload, ei, DUMP_PID);
  e->str = payload_str (d, payload, ei, DUMP_NAME);
  e->flags = SL_EVENT_NAME_STATE_DUMP;
  if (member_uint (payload, ei->m[DUMP_STATUS], &v) && v <= SL_EVENT_TASK_DEAD)
    e->flags |= (guint8) v;
  if (member_uint (payload, ei->m[DUMP_TYPE], &v) && v == 1)
    e->flags |= SL_EVENT_NAME_KERNEL_THREAD;
  /* a process's parent, once: after its main thread */
  if (e->tid != 0 && e->tid == e->arg && member_uint (payload, ei->m[DUMP_PPID], &v) && v != 0)
    {
      append (d, e, NULL);
      e->kind = SL_EVENT_PROCESS_PARENT;
      e->arg = (guint32) v;
      e->str = 0;
      e->flags = 0;
    }
}

static void
store_event (SlBtDecoder    *d,
             SlBtStreamState *st,
             EventInfo      *ei,
             const bt_event *ev,
             const bt_field *payload,
             gint64          time,
             const SlPacketEvent *pe,
             guint32         length)
{
  SlEvent e = { 0 };
  SlEventPacket packet;
  guint64 fd;

  e.time = time;
  e.cpu = (guint16) MIN (st->cpu, G_MAXUINT16);

  switch (ei->kind)
    {
    case EK_NET_SEND:
    case EK_INET_SEND:
    case EK_UST_SEND:
    case EK_NET_RECV:
    case EK_INET_RECV:
    case EK_UST_RECV:
      e.kind = pe->dir == SL_PACKET_SEND ? SL_EVENT_PACKET_SEND : SL_EVENT_PACKET_RECV;
      e.tid = current_tid (d, st, ev);
      e.arg = pe->seq;
      packet.sport = pe->sport;
      packet.dport = pe->dport;
      packet.length = length;
      append (d, &e, &packet);
      return;

    case EK_SCHED_SWITCH:
      e.kind = SL_EVENT_SCHED_SWITCH;
      e.tid = (guint32) payload_uint (payload, ei, 0);
      e.arg = (guint32) payload_uint (payload, ei, 1);
      e.str = next_thread_name (d, payload, ei, 2, e.arg, st->cpu);
      e.flags = (guint8) payload_uint (payload, ei, 3);
      if (st->cpu < 4096)
        {
          if (st->cpu >= d->cpu_tid->len)
            g_array_set_size (d->cpu_tid, st->cpu + 1);
          g_array_index (d->cpu_tid, guint32, st->cpu) = e.arg;
        }
      break;

    case EK_SCHED_WAKEUP:
      e.kind = SL_EVENT_SCHED_WAKEUP;
      e.tid = (guint32) payload_uint (payload, ei, 0);
      e.arg = (guint32) payload_uint (payload, ei, 1);
      break;

    case EK_PROCESS_FORK:
      fork_event (d, ei, payload, &e);
      break;

    case EK_PROCESS_EXEC:
      e.kind = SL_EVENT_PROCESS_EXEC;
      e.tid = ei->m[0].kind != MK_NONE ? (guint32) payload_uint (payload, ei, 0) : current_tid (d, st, ev);
      e.str = payload_str (d, payload, ei, 1);
      break;

    case EK_PROCESS_EXIT:
      e.kind = SL_EVENT_PROCESS_EXIT;
      e.tid = (guint32) payload_uint (payload, ei, 0);
      break;

    case EK_STATEDUMP_PROCESS:
      statedump_event (d, ei, payload, &e);
      break;

    case EK_SYSCALL_ENTRY:
      e.kind = SL_EVENT_SYSCALL_ENTRY;
      e.tid = current_tid (d, st, ev);
      e.str = ei->name_id;
      /* the descriptor it works on, for searches (fd = 5) */
      if (member_uint (payload, ei->m[0], &fd))
        {
          e.arg = (guint32) fd;
          e.flags |= SL_EVENT_SYSCALL_HAS_FD;
        }
      break;

    case EK_SYSCALL_EXIT:
      e.kind = SL_EVENT_SYSCALL_EXIT;
      e.tid = current_tid (d, st, ev);
      e.arg = (guint32) payload_uint (payload, ei, 0);
      e.str = ei->name_id;
      break;

    case EK_IRQ_ENTRY:
      e.kind = SL_EVENT_IRQ_ENTRY;
      e.arg = (guint32) payload_uint (payload, ei, 0);
      e.str = cached_intern (d, &d->names->irqs[e.arg % IRQ_SLOTS], e.arg, member_string (payload, ei->m[1]));
      break;

    case EK_IRQ_EXIT:
      e.kind = SL_EVENT_IRQ_EXIT;
      e.arg = (guint32) payload_uint (payload, ei, 0);
      break;

    case EK_SOFTIRQ_ENTRY:
    case EK_SOFTIRQ_EXIT:
    case EK_SOFTIRQ_RAISE:
      e.kind = ei->kind == EK_SOFTIRQ_ENTRY ? SL_EVENT_SOFTIRQ_ENTRY :
               ei->kind == EK_SOFTIRQ_EXIT ? SL_EVENT_SOFTIRQ_EXIT : SL_EVENT_SOFTIRQ_RAISE;
      e.arg = (guint32) payload_uint (payload, ei, 0);
      break;

    case EK_OTHER:
    default:
      return;
    }

  append (d, &e, NULL);
}


/* A thread's process and name from the context of its events (user-space
 * `vpid`/`vtid`/`procname`, or a kernel channel's `pid`/`tid` contexts):
 * recorded when they are not what was last recorded for the thread. */
static void
store_context (SlBtDecoder     *d,
               SlBtStreamState *st,
               const bt_event  *ev,
               gint64           time)
{
  const SlBtStreamInfo *si = st->sinfo;
  const bt_field *cc = bt_event_borrow_common_context_field_const (ev);
  const char *name;
  ContextThread *ct;
  guint64 tid, pid;
  SlEvent e = { 0 };

  if (!member_uint (cc, si->common_tid, &tid) || !member_uint (cc, si->common_pid, &pid) ||
      tid == 0 || tid > G_MAXUINT32 || pid > G_MAXUINT32)
    return;
  name = member_string (cc, si->common_name);
  if (name == NULL)
    name = "";
  ct = g_hash_table_lookup (d->context_threads, GUINT_TO_POINTER ((guint) tid));
  if (ct != NULL && ct->pid == (guint32) pid && g_str_equal (ct->name_str, name))
    return;
  if (ct == NULL)
    {
      ct = g_new0 (ContextThread, 1);
      g_hash_table_insert (d->context_threads, GUINT_TO_POINTER ((guint) tid), ct);
    }
  ct->pid = (guint32) pid;
  ct->name = intern (d, name);
  g_free (ct->name_str);
  ct->name_str = g_strdup (name);

  e.time = time;
  e.cpu = (guint16) MIN (st->cpu, G_MAXUINT16);
  e.kind = SL_EVENT_PROCESS_NAME;
  e.tid = (guint32) tid;
  e.arg = ct->pid;
  e.str = ct->name;
  e.flags = SL_EVENT_NAME_CONTEXT;
  append (d, &e, NULL);
}

/* Lost events are recorded once the merge reaches where they were lost
 * (or as close after it as what is already stored allows). */
static void
flush_gaps (SlBtDecoder *d,
            gint64       time)
{
  for (guint i = 0; i < d->gaps->len;)
    {
      const Gap *g = &g_array_index (d->gaps, Gap, i);
      SlEvent e = { 0 };
      gint64 last;

      if (g->begin > time)
        {
          i++;
          continue;
        }
      e.time = g->begin;
      last = d->last_appended;
      if (last != G_MININT64 && last > e.time)
        e.time = last;
      if (e.time == G_MININT64)
        e.time = time;
      e.cpu = g->cpu_known ? g->cpu : (guint16) MIN (g->st->cpu, G_MAXUINT16);
      e.kind = SL_EVENT_LOST;
      e.arg = g->count;
      e.flags = g->flags;
      append (d, &e, NULL);
      g_array_remove_index (d->gaps, i);
    }
}

static void
add_gap (SlBtDecoder           *d,
         const SlBtStreamState *st,
         const bt_message      *msg)
{
  const bt_stream *stream = bt_message_discarded_events_borrow_stream_const (msg);
  const bt_stream_class *sc = bt_stream_borrow_class_const (stream);
  const bt_value *domain = bt_trace_borrow_environment_entry_value_by_name_const (
                             bt_stream_borrow_trace_const (stream), "domain");
  Gap g = { G_MININT64, 0, 0, 0, FALSE, st };
  guint64 count;

  if (bt_message_discarded_events_get_count (msg, &count) == BT_PROPERTY_AVAILABILITY_AVAILABLE)
    g.count = (guint32) MIN (count, G_MAXUINT32);
  /* babeltrace's range starts where the stream's previous packet ends */
  if (bt_stream_class_borrow_default_clock_class_const (sc) != NULL &&
      bt_stream_class_discarded_events_have_default_clock_snapshots (sc))
    {
      const bt_clock_snapshot *cs = bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const (msg);
      int64_t ns;

      if (cs != NULL && bt_clock_snapshot_get_ns_from_origin (cs, &ns) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
        g.begin = ns;
      else
        bt_current_thread_clear_error ();
    }
  if (domain != NULL && bt_value_is_string (domain) && g_strcmp0 (bt_value_string_get (domain), "ust") == 0)
    g.flags |= SL_EVENT_LOST_USER;
  g_array_append_val (d->gaps, g);
}


/* ---------------------------------------------------------------------- */
/* Non-event messages: streams, packets, gaps                               */

/* A packet event that cannot be read; @why (taken), the first of its
 * class's, is what sl_bt_decoder_take_unusable() gives next. */
static SlBtEventResult
unusable (SlBtDecoder    *d,
          EventInfo      *ei,
          const bt_event *ev,
          char           *why)
{
  if (why != NULL && ei->unusable == NULL)
    {
      const char *name = bt_event_class_get_name (bt_event_borrow_class_const (ev));

      ei->unusable = g_strdup_printf ("%s: %s", name != NULL ? name : "an event", why);
      /* a muted event was delivered by an earlier run, which said it */
      if (!d->muted)
        d->unusable = ei->unusable;
    }
  g_free (why);
  return SL_BT_EVENT_UNUSABLE;
}

SlBtEventResult
sl_bt_decoder_event (SlBtDecoder      *d,
                     SlBtStreamState  *st,
                     const bt_message *msg,
                     gint64            time,
                     guint             engine_host,
                     SlPacketEvent    *pe)
{
  const bt_event *ev = bt_message_event_borrow_event_const (msg);
  EventInfo *ei;
  const bt_field *payload;
  guint32 length = SL_EVENT_NO_LENGTH;
  Decoded decoded;
  char *why = NULL, **why_p;

  if (st->sinfo == NULL)
    st->sinfo = stream_info_get (d, bt_stream_borrow_class_const (bt_event_borrow_stream_const (ev)));
  if (d->keep)
    {
      if (G_UNLIKELY (d->gaps->len > 0))
        flush_gaps (d, time);
      if (st->sinfo->common_pid.kind != MK_NONE)
        store_context (d, st, ev, time);
    }
  ei = event_info_get (d, st->sinfo, bt_event_borrow_class_const (ev));
  if (ei->kind == EK_OTHER)
    return SL_BT_EVENT_OTHER;

  if (!ei->payload_struct)
    {
      if (ei->kind > EK_UST_RECV)
        return SL_BT_EVENT_OTHER;
      return unusable (d, ei, ev, ei->unusable == NULL ? g_strdup ("its payload is not a structure") : NULL);
    }
  payload = bt_event_borrow_payload_field_const (ev);

  if (ei->kind > EK_UST_RECV)
    {
      store_event (d, st, ei, ev, payload, time, NULL, SL_EVENT_NO_LENGTH);
      return SL_BT_EVENT_OTHER;
    }

  why_p = ei->unusable == NULL ? &why : NULL;
  switch (ei->kind)
    {
    case EK_NET_SEND:
    case EK_NET_RECV:
      decoded = _sl_bt_decode_net (ei, payload, pe, &length, why_p);
      pe->dir = ei->kind == EK_NET_SEND ? SL_PACKET_SEND : SL_PACKET_RECV;
      break;
    case EK_INET_SEND:
    case EK_INET_RECV:
      decoded = _sl_bt_decode_inet (ei, payload, pe, &length, why_p);
      pe->dir = ei->kind == EK_INET_SEND ? SL_PACKET_SEND : SL_PACKET_RECV;
      break;
    default:
      decoded = _sl_bt_decode_ust (ei, payload, pe, &length, why_p);
      pe->dir = ei->kind == EK_UST_SEND ? SL_PACKET_SEND : SL_PACKET_RECV;
      break;
    }
  if (decoded == NOT_TCP)
    return SL_BT_EVENT_IGNORED;
  if (decoded == UNREADABLE)
    return unusable (d, ei, ev, why);

  pe->host = engine_host;
  pe->time = time;
  pe->has_length = length != SL_EVENT_NO_LENGTH;
  pe->length = pe->has_length ? (guint16) MIN (length, G_MAXUINT16) : 0;
  if (d->keep)
    store_event (d, st, ei, ev, payload, time, pe, length);
  return SL_BT_EVENT_PACKET;
}

/* Non-event messages are handled in stream order as they come. */
gboolean
sl_bt_decoder_other (SlBtDecoder      *d,
                     SlBtStreamState  *st,
                     const bt_message *msg)
{
  switch (bt_message_get_type (msg))
    {
    case BT_MESSAGE_TYPE_STREAM_BEGINNING:
      {
        const bt_stream *stream = bt_message_stream_beginning_borrow_stream_const (msg);
        const char *name = bt_stream_get_name (stream);

        /* src.ctf.fs names a stream after its file; its port names hold
         * the path only for traces without stream instance IDs */
        if (name != NULL && strchr (name, '/') != NULL)
          {
            g_free (st->file);
            st->file = g_strdup (name);
          }
        st->sinfo = stream_info_get (d, bt_stream_borrow_class_const (stream));
        if (!st->sinfo->has_clock)
          {
            bt_current_thread_clear_error ();
            bt_current_thread_error_append_cause_from_unknown ("syncline", __FILE__, __LINE__,
                                                               "a stream has no clock: events cannot be placed in time");
            return FALSE;
          }
        break;
      }

    case BT_MESSAGE_TYPE_PACKET_BEGINNING:
      {
        const bt_packet *packet = bt_message_packet_beginning_borrow_packet_const (msg);
        const bt_field *ctx = bt_packet_borrow_context_field_const (packet);
        guint64 v;

        if (st->sinfo == NULL)
          st->sinfo = stream_info_get (d, bt_stream_borrow_class_const (bt_packet_borrow_stream_const (packet)));
        if (member_uint (ctx, st->sinfo->ctx_cpu, &v))
          st->cpu = (guint) MIN (v, G_MAXUINT);
        /* the packet after a gap says on which CPU it was */
        for (guint i = 0; i < d->gaps->len; i++)
          {
            Gap *g = &g_array_index (d->gaps, Gap, i);

            if (!g->cpu_known && g->st == st)
              {
                g->cpu = (guint16) MIN (st->cpu, G_MAXUINT16);
                g->cpu_known = TRUE;
                g->st = NULL;
              }
          }
        break;
      }

    case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
      if (d->keep)
        add_gap (d, st, msg);
      break;

    default:
      break;
    }
  return TRUE;
}


/* ---------------------------------------------------------------------- */
/* Decoder                                                                 */

static void
context_thread_free (gpointer p)
{
  ContextThread *ct = p;

  g_free (ct->name_str);
  g_free (ct);
}

SlBtDecoder *
sl_bt_decoder_new (void)
{
  SlBtDecoder *d = g_new0 (SlBtDecoder, 1);

  d->stream_infos = g_hash_table_new_full (NULL, NULL, NULL, stream_info_free);
  d->cpu_tid = g_array_new (FALSE, TRUE, sizeof (guint32));
  d->context_threads = g_hash_table_new_full (NULL, NULL, NULL, context_thread_free);
  d->last_appended = G_MININT64;
  d->gaps = g_array_new (FALSE, FALSE, sizeof (Gap));
  d->names = g_new0 (NameCache, 1);
  d->packet_infos = g_array_new (FALSE, FALSE, sizeof (SlEventPacket));
  return d;
}

void
sl_bt_decoder_free (SlBtDecoder *d)
{
  if (d == NULL)
    return;
  g_hash_table_destroy (d->stream_infos);
  g_array_unref (d->cpu_tid);
  g_hash_table_destroy (d->context_threads);
  g_array_unref (d->gaps);
  g_free (d->names);
  g_free (d->events);
  g_array_unref (d->packet_infos);
  g_free (d);
}

/* Before the first event (event classes already seen keep what they were
 * decoded as): the scheduling, system call, interrupt, packet and process
 * events for the timeline go to @sink (%NULL: packet events only). */
void
sl_bt_decoder_set_events (SlBtDecoder         *d,
                          const SlBtEventSink *sink)
{
  d->keep = sink != NULL;
  if (sink != NULL)
    d->out = *sink;
  /* the ids were another sink's */
  memset (d->names, 0, sizeof *d->names);
}

/**
 * sl_bt_decoder_get_events:
 * @n_events: (out): how many
 * @packets: (out): the packet events' details, one per packet event in order
 *
 * The timeline's events decoded since sl_bt_decoder_clear_events(), in the
 * order they were decoded.
 */
const SlEvent *
sl_bt_decoder_get_events (SlBtDecoder          *d,
                          guint                *n_events,
                          const SlEventPacket **packets)
{
  *n_events = d->n_events;
  *packets = (const SlEventPacket *) (gpointer) d->packet_infos->data;
  return d->events;
}

void
sl_bt_decoder_clear_events (SlBtDecoder *d)
{
  d->n_events = 0;
  g_array_set_size (d->packet_infos, 0);
}

/* Why the packet events of a class were unusable, once per class, after
 * sl_bt_decoder_event() returned SL_BT_EVENT_UNUSABLE ("net_dev_queue:
 * its saddr is a 5-byte BLOB, not 4 bytes (IPv4)"); %NULL when said. */
const char *
sl_bt_decoder_take_unusable (SlBtDecoder *d)
{
  const char *why = d->unusable;

  d->unusable = NULL;
  return why;
}

/* While muted, events update the decoder's state but none goes out (the
 * decoder process skips what an earlier run already delivered). */
void
sl_bt_decoder_set_muted (SlBtDecoder *d,
                         gboolean     muted)
{
  d->muted = muted;
}

/* FALSE, with the thread's babeltrace error set, when the event's stream
 * has no clock. An event whose time cannot be expressed in ns from the
 * origin keeps *time as it is. */
gboolean
sl_bt_decoder_event_time (SlBtDecoder      *d,
                          SlBtStreamState  *st,
                          const bt_message *msg,
                          gint64           *time)
{
  const bt_clock_snapshot *cs;
  int64_t ns = 0;

  if (st->sinfo == NULL)
    st->sinfo = stream_info_get (d, bt_stream_borrow_class_const (
                                   bt_event_borrow_stream_const (bt_message_event_borrow_event_const (msg))));
  /* the stream's class was checked at its beginning: its clock is the
   * events' */
  if (!st->sinfo->has_clock)
    {
      bt_current_thread_clear_error ();
      bt_current_thread_error_append_cause_from_unknown ("syncline", __FILE__, __LINE__,
                                                         "an event has no timestamp");
      return FALSE;
    }
  cs = bt_message_event_borrow_default_clock_snapshot_const (msg);
  if (bt_clock_snapshot_get_ns_from_origin (cs, &ns) != BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
    {
      bt_current_thread_clear_error ();
      return TRUE;
    }
  *time = ns;
  return TRUE;
}
