/* sl-bt-decode.c: babeltrace2 events into packet events and the event store
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-bt-decode.h"

typedef enum
{
  EK_OTHER,
  EK_NET_SEND,
  EK_NET_RECV,
  EK_INET_SEND,
  EK_INET_RECV,
  EK_UST_SEND,
  EK_UST_RECV,
  EK_SCHED_SWITCH,
  EK_SCHED_WAKEUP,
  EK_PROCESS_FORK,
  EK_PROCESS_EXEC,
  EK_PROCESS_EXIT,
  EK_STATEDUMP_PROCESS,
  EK_SYSCALL_ENTRY,
  EK_SYSCALL_EXIT,
  EK_IRQ_ENTRY,
  EK_IRQ_EXIT,
  EK_SOFTIRQ_ENTRY,
  EK_SOFTIRQ_EXIT,
  EK_SOFTIRQ_RAISE,
} EventKindInternal;

/* Option kinds of the network and transport header variants. */
enum
{
  OPT_OTHER,
  OPT_IPV4,
  OPT_IPV6,
  OPT_TCP,
};

#define CACHE_MAX_MEMBERS 9

/* What a structure member is, found once from the structure's class:
 * field classes do not change for the life of a trace, and a field is an
 * instance of its class, so reading it needs no further type check. */
typedef enum
{
  MK_NONE,
  MK_UNSIGNED,
  MK_SIGNED,
  MK_STRING,
  MK_ARRAY,
  MK_BLOB,
  MK_OTHER,
} MemberKind;

typedef struct
{
  gint16 idx;
  guint8 kind;
  guint8 bytes;
  guint8 elem;
} Member;

typedef struct
{
  const bt_field_class *cls;
  Member                m[CACHE_MAX_MEMBERS];
} MemberCache;

typedef struct
{
  const bt_field_class *cls;
  guint                 n;
  guint8                kinds[8];
} VariantCache;

typedef struct
{
  EventKindInternal kind;
  gboolean          payload_struct;
  Member            m[CACHE_MAX_MEMBERS];
  guint32           name_id;
  MemberCache       ip[2];
  MemberCache       tcp[2];
  VariantCache      nh;
  VariantCache      th[2];
} EventInfo;

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
/* Field access: every type is checked first (a wrong type aborts)         */

static inline const char *
strip_underscore (const char *name)
{
  return name != NULL && name[0] == '_' ? name + 1 : name;
}

static inline gboolean
field_is (const bt_field        *f,
          bt_field_class_type    type)
{
  return f != NULL && bt_field_class_type_is (bt_field_get_class_type (f), type);
}

static MemberKind
class_kind (const bt_field_class *cls,
            guint8               *bytes)
{
  bt_field_class_type t = bt_field_class_get_type (cls);

  *bytes = 0;
  if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_INTEGER))
    {
      *bytes = (guint8) MIN (bt_field_class_integer_get_field_value_range (cls) / 8, 8);
      return bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER) ? MK_UNSIGNED : MK_SIGNED;
    }
  if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_STRING))
    return MK_STRING;
  if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_ARRAY))
    return MK_ARRAY;
#if SL_BT_READS_CTF2
  /* CTF 2's BLOBs (LTTng 2.16's lttng_ust_field_*_blob), under MIP 1 */
  if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_BLOB))
    return MK_BLOB;
#endif
  return MK_OTHER;
}

/* @names: alternatives separated by '|', e.g. "source_port|source". */
static Member
member_lookup (const bt_field_class *cls,
               const char           *names)
{
  Member m = { -1, MK_NONE, 0, MK_NONE };
  g_auto(GStrv) alts = NULL;
  guint64 n;

  if (cls == NULL || names == NULL ||
      !bt_field_class_type_is (bt_field_class_get_type (cls), BT_FIELD_CLASS_TYPE_STRUCTURE))
    return m;

  alts = g_strsplit (names, "|", -1);
  n = bt_field_class_structure_get_member_count (cls);
  for (guint a = 0; alts[a] != NULL; a++)
    for (guint64 i = 0; i < n && i < G_MAXINT16; i++)
      {
        const bt_field_class_structure_member *sm = bt_field_class_structure_borrow_member_by_index_const (cls, i);
        const bt_field_class *mc;

        if (g_strcmp0 (strip_underscore (bt_field_class_structure_member_get_name (sm)), alts[a]) != 0)
          continue;
        mc = bt_field_class_structure_member_borrow_field_class_const (sm);
        m.idx = (gint16) i;
        m.kind = class_kind (mc, &m.bytes);
        if (m.kind == MK_ARRAY)
          {
            guint8 eb;

            m.elem = class_kind (bt_field_class_array_borrow_element_field_class_const (mc), &eb);
            m.bytes = eb;
          }
        return m;
      }
  return m;
}

static inline const bt_field *
member_field (const bt_field *st,
              Member          m)
{
  if (st == NULL || m.kind == MK_NONE)
    return NULL;
  return bt_field_structure_borrow_member_field_by_index_const (st, (guint64) m.idx);
}

static inline gboolean
member_uint (const bt_field *st,
             Member          m,
             guint64        *v)
{
  const bt_field *f;

  if (m.kind != MK_UNSIGNED && m.kind != MK_SIGNED)
    return FALSE;
  f = member_field (st, m);
  if (f == NULL)
    return FALSE;
  *v = m.kind == MK_UNSIGNED ? bt_field_integer_unsigned_get_value (f)
                             : (guint64) bt_field_integer_signed_get_value (f);
  return TRUE;
}

static inline const char *
member_string (const bt_field *st,
               Member          m)
{
  const bt_field *f;

  if (m.kind != MK_STRING)
    return NULL;
  f = member_field (st, m);
  return f != NULL ? bt_field_string_get_value (f) : NULL;
}

static const Member *
member_cache_get (MemberCache       *c,
                  const bt_field    *st,
                  const char *const *names)
{
  const bt_field_class *cls = bt_field_borrow_class_const (st);

  if (c->cls != cls)
    {
      for (guint i = 0; i < CACHE_MAX_MEMBERS; i++)
        c->m[i] = member_lookup (cls, names[i]);
      c->cls = cls;
    }
  return c->m;
}

static guint
option_kind (const char *name)
{
  name = strip_underscore (name);
  if (g_strcmp0 (name, "ipv4") == 0)
    return OPT_IPV4;
  if (g_strcmp0 (name, "ipv6") == 0)
    return OPT_IPV6;
  if (g_strcmp0 (name, "tcp") == 0)
    return OPT_TCP;
  return OPT_OTHER;
}

static guint
variant_kind (VariantCache   *c,
              const bt_field *v)
{
  const bt_field_class *cls;
  guint64 idx;

  if (!field_is (v, BT_FIELD_CLASS_TYPE_VARIANT))
    return OPT_OTHER;

  cls = bt_field_borrow_class_const (v);
  if (c->cls != cls)
    {
      guint64 n = bt_field_class_variant_get_option_count (cls);

      c->n = (guint) MIN (n, G_N_ELEMENTS (c->kinds));
      for (guint i = 0; i < c->n; i++)
        c->kinds[i] = option_kind (bt_field_class_variant_option_get_name (
                                     bt_field_class_variant_borrow_option_by_index_const (cls, i)));
      c->cls = cls;
    }
  idx = bt_field_variant_get_selected_option_index (v);
  return idx < c->n ? c->kinds[idx] : OPT_OTHER;
}

/* An address as stored in the trace (byte array or CTF 2 BLOB, 16-bit words as in
 * lttng-modules' IPv6 header, or one 32-bit integer) into network byte
 * order. Returns the number of bytes, 0 when the member has another
 * shape. */
static guint
read_address (const bt_field *st,
              Member          m,
              guint8         *out)
{
  const bt_field *f;
  guint len = 0;

  if (m.kind == MK_ARRAY && (m.elem == MK_UNSIGNED || m.elem == MK_SIGNED) && m.bytes >= 1 && m.bytes <= 4)
    {
      guint64 n;

      f = member_field (st, m);
      n = bt_field_array_get_length (f);
      if (n == 0 || n * m.bytes > 16)
        return 0;
      for (guint64 i = 0; i < n; i++)
        {
          const bt_field *e = bt_field_array_borrow_element_field_by_index_const (f, i);
          guint64 v = m.elem == MK_UNSIGNED ? bt_field_integer_unsigned_get_value (e)
                                            : (guint64) bt_field_integer_signed_get_value (e);

          for (guint k = 0; k < m.bytes; k++)
            out[len++] = (guint8) (v >> (8 * (m.bytes - 1 - k)));
        }
      return len;
    }

#if SL_BT_READS_CTF2
  if (m.kind == MK_BLOB)
    {
      f = member_field (st, m);
      len = (guint) MIN (bt_field_blob_get_length (f), 17);
      if (len == 0 || len > 16)
        return 0;
      memcpy (out, bt_field_blob_get_data_const (f), len);
      return len;
    }
#endif
  if ((m.kind == MK_UNSIGNED || m.kind == MK_SIGNED) && m.bytes == 4)
    {
      guint64 v = 0;

      member_uint (st, m, &v);
      for (guint k = 0; k < 4; k++)
        out[k] = (guint8) (v >> (8 * (3 - k)));
      return 4;
    }
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Event classes                                                           */

enum { NET_NH, NET_TID };
enum { IP_SADDR, IP_DADDR, IP_TH, IP_TOT_LEN, IP_IHL, IP_PAYLOAD_LEN };
enum { TCP_SPORT, TCP_DPORT, TCP_SEQ, TCP_ACK, TCP_FLAGS, TCP_DOFF };
enum { INET_SEQ, INET_ACK, INET_FLAGS, INET_LENGTH };
enum { UST_FAMILY, UST_SADDR, UST_DADDR, UST_SPORT, UST_DPORT, UST_SEQ, UST_ACK, UST_FLAGS, UST_LENGTH };

enum { FORK_PARENT_TID, FORK_CHILD_TID, FORK_CHILD_COMM, FORK_PARENT_PID, FORK_CHILD_PID, FORK_PARENT_COMM };
enum { DUMP_TID, DUMP_PID, DUMP_NAME, DUMP_PPID, DUMP_STATUS, DUMP_TYPE };

static const char *const ip_members[CACHE_MAX_MEMBERS] = {
  "saddr", "daddr", "transport_header", "tot_len", "ihl", "payload_len",
};
static const char *const tcp_members[CACHE_MAX_MEMBERS] = {
  "source_port|source|sport", "dest_port|dest|dport", "seq", "ack_seq", "flags", "data_offset|doff",
};

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
    ei->m[i] = member_lookup (NULL, NULL);
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
      ei->m[i] = member_lookup (payload, members[i]);
  if (syscall != NULL && d->keep)
    ei->name_id = intern (d, syscall);
  return ei;
}

static void
event_info_free (gpointer p)
{
  g_free (p);
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
  si->ctx_cpu = member_lookup (NULL, NULL);
  if (bt_stream_class_supports_packets (sc))
    {
      pc = bt_stream_class_borrow_packet_context_field_class_const (sc);
      si->ctx_cpu = member_lookup (pc, "cpu_id");
    }
  cc = bt_stream_class_borrow_event_common_context_field_class_const (sc);
  si->common_tid = member_lookup (cc, "tid|vtid");
  si->common_pid = member_lookup (cc, "pid|vpid");
  si->common_name = member_lookup (cc, "procname");
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
/* Packet events                                                           */

/* lttng-modules >= 2.9: network_header variant (ipv4 | ipv6 | unknown),
 * then transport_header variant (tcp | udp | icmp | unknown), whether the
 * variant is tagged by transport_header_type or by protocol/nexthdr:
 * either way the selected option's name says which. */
static gboolean
decode_net (EventInfo      *ei,
            const bt_field *payload,
            SlPacketEvent  *pe,
            guint32        *length)
{
  const bt_field *nh, *ip, *th, *tcp;
  const Member *ipm, *tcpm;
  guint kind, v, alen;
  guint64 sport, dport, seq, ack, flags, ip_len, ihl = 0, doff;

  nh = member_field (payload, ei->m[NET_NH]);
  kind = variant_kind (&ei->nh, nh);
  if (kind != OPT_IPV4 && kind != OPT_IPV6)
    return FALSE;
  v = kind == OPT_IPV4 ? 0 : 1;
  alen = v == 0 ? 4 : 16;

  ip = bt_field_variant_borrow_selected_option_field_const (nh);
  if (!field_is (ip, BT_FIELD_CLASS_TYPE_STRUCTURE))
    return FALSE;
  ipm = member_cache_get (&ei->ip[v], ip, ip_members);

  th = member_field (ip, ipm[IP_TH]);
  if (variant_kind (&ei->th[v], th) != OPT_TCP)
    return FALSE;
  tcp = bt_field_variant_borrow_selected_option_field_const (th);
  if (!field_is (tcp, BT_FIELD_CLASS_TYPE_STRUCTURE))
    return FALSE;
  tcpm = member_cache_get (&ei->tcp[v], tcp, tcp_members);

  memset (pe->saddr, 0, sizeof pe->saddr);
  memset (pe->daddr, 0, sizeof pe->daddr);
  if (read_address (ip, ipm[IP_SADDR], pe->saddr) != alen ||
      read_address (ip, ipm[IP_DADDR], pe->daddr) != alen ||
      !member_uint (tcp, tcpm[TCP_SPORT], &sport) ||
      !member_uint (tcp, tcpm[TCP_DPORT], &dport) ||
      !member_uint (tcp, tcpm[TCP_SEQ], &seq) ||
      !member_uint (tcp, tcpm[TCP_ACK], &ack) ||
      !member_uint (tcp, tcpm[TCP_FLAGS], &flags))
    return FALSE;

  pe->family = v == 0 ? 4 : 6;
  pe->sport = (guint16) sport;
  pe->dport = (guint16) dport;
  pe->seq = (guint32) seq;
  pe->ack_seq = (guint32) ack;
  pe->flags = (guint16) flags;

  /* the TCP payload: what the IP header counts after its own header (IPv4)
   * or after the fixed one (IPv6, no extension headers), less the TCP
   * header */
  *length = SL_EVENT_NO_LENGTH;
  if (member_uint (tcp, tcpm[TCP_DOFF], &doff) &&
      (v == 0 ? member_uint (ip, ipm[IP_TOT_LEN], &ip_len) && member_uint (ip, ipm[IP_IHL], &ihl)
              : member_uint (ip, ipm[IP_PAYLOAD_LEN], &ip_len)) &&
      ip_len <= G_MAXUINT16 && ihl <= 15 && doff <= 15 && ip_len >= 4 * (ihl + doff))
    *length = (guint32) (ip_len - 4 * (ihl + doff));
  return TRUE;
}

/* The payload length that syncline-cli extract writes since it carries
 * it (G_MAXUINT32: not known), which older extracts lack. */
static guint32
optional_length (const bt_field *payload,
                 Member          m)
{
  guint64 len;

  if (!member_uint (payload, m, &len) || len >= G_MAXUINT32)
    return SL_EVENT_NO_LENGTH;
  return (guint32) MIN (len, G_MAXUINT16);
}

/* The old out-of-tree inet_sock_local_* events: no addresses. */
static gboolean
decode_inet (EventInfo      *ei,
             const bt_field *payload,
             SlPacketEvent  *pe,
             guint32        *length)
{
  guint64 seq, ack, flags;

  if (!member_uint (payload, ei->m[INET_SEQ], &seq) ||
      !member_uint (payload, ei->m[INET_ACK], &ack) ||
      !member_uint (payload, ei->m[INET_FLAGS], &flags))
    return FALSE;

  pe->family = 0;
  pe->sport = pe->dport = 0;
  memset (pe->saddr, 0, sizeof pe->saddr);
  memset (pe->daddr, 0, sizeof pe->daddr);
  pe->seq = (guint32) seq;
  pe->ack_seq = (guint32) ack;
  pe->flags = (guint16) flags;
  *length = optional_length (payload, ei->m[INET_LENGTH]);
  return TRUE;
}

/* The flat UST event of README "Instrumenting your own programs". */
static gboolean
decode_ust (EventInfo      *ei,
            const bt_field *payload,
            SlPacketEvent  *pe,
            guint32        *length)
{
  guint64 family, sport, dport, seq, ack, flags;
  guint8 addr[16];
  guint want;

  if (!member_uint (payload, ei->m[UST_FAMILY], &family))
    return FALSE;
  if (family == 4 || family == 2)
    pe->family = 4, want = 4;
  else if (family == 6 || family == 10)
    pe->family = 6, want = 16;
  else
    return FALSE;

  memset (pe->saddr, 0, sizeof pe->saddr);
  memset (pe->daddr, 0, sizeof pe->daddr);
  if (read_address (payload, ei->m[UST_SADDR], addr) < want)
    return FALSE;
  memcpy (pe->saddr, addr, want);
  if (read_address (payload, ei->m[UST_DADDR], addr) < want)
    return FALSE;
  memcpy (pe->daddr, addr, want);

  if (!member_uint (payload, ei->m[UST_SPORT], &sport) ||
      !member_uint (payload, ei->m[UST_DPORT], &dport) ||
      !member_uint (payload, ei->m[UST_SEQ], &seq) ||
      !member_uint (payload, ei->m[UST_ACK], &ack) ||
      !member_uint (payload, ei->m[UST_FLAGS], &flags))
    return FALSE;
  pe->sport = (guint16) sport;
  pe->dport = (guint16) dport;
  pe->seq = (guint32) seq;
  pe->ack_seq = (guint32) ack;
  pe->flags = (guint16) flags;
  /* optional (extracts since they carry it) */
  *length = optional_length (payload, ei->m[UST_LENGTH]);
  return TRUE;
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
  gboolean ok;

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
    return ei->kind <= EK_UST_RECV ? SL_BT_EVENT_IGNORED : SL_BT_EVENT_OTHER;
  payload = bt_event_borrow_payload_field_const (ev);

  if (ei->kind > EK_UST_RECV)
    {
      store_event (d, st, ei, ev, payload, time, NULL, SL_EVENT_NO_LENGTH);
      return SL_BT_EVENT_OTHER;
    }

  switch (ei->kind)
    {
    case EK_NET_SEND:
    case EK_NET_RECV:
      ok = decode_net (ei, payload, pe, &length);
      pe->dir = ei->kind == EK_NET_SEND ? SL_PACKET_SEND : SL_PACKET_RECV;
      break;
    case EK_INET_SEND:
    case EK_INET_RECV:
      ok = decode_inet (ei, payload, pe, &length);
      pe->dir = ei->kind == EK_INET_SEND ? SL_PACKET_SEND : SL_PACKET_RECV;
      break;
    default:
      ok = decode_ust (ei, payload, pe, &length);
      pe->dir = ei->kind == EK_UST_SEND ? SL_PACKET_SEND : SL_PACKET_RECV;
      break;
    }
  if (!ok)
    return SL_BT_EVENT_IGNORED;

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
