/* sl-bt-decode-private.h: what the event decoder's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-bt-decode.h"

G_BEGIN_DECLS

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
  /* why its packet events cannot be read, found at the first one */
  char             *unusable;
} EventInfo;

/* What a packet event's decoding found. */
typedef enum
{
  DECODED,
  NOT_TCP,
  UNREADABLE,
} Decoded;

enum { NET_NH, NET_TID };
enum { IP_SADDR, IP_DADDR, IP_TH, IP_TOT_LEN, IP_IHL, IP_PAYLOAD_LEN };
enum { TCP_SPORT, TCP_DPORT, TCP_SEQ, TCP_ACK, TCP_FLAGS, TCP_DOFF };
enum { INET_SEQ, INET_ACK, INET_FLAGS, INET_LENGTH };
enum { UST_FAMILY, UST_SADDR, UST_DADDR, UST_SPORT, UST_DPORT, UST_SEQ, UST_ACK, UST_FLAGS, UST_LENGTH };


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

Member   _sl_bt_member_lookup (const bt_field_class *cls,
                               const char           *names);
Decoded  _sl_bt_decode_net    (EventInfo            *ei,
                               const bt_field       *payload,
                               SlPacketEvent        *pe,
                               guint32              *length,
                               char                **why);
Decoded  _sl_bt_decode_inet   (EventInfo            *ei,
                               const bt_field       *payload,
                               SlPacketEvent        *pe,
                               guint32              *length,
                               char                **why);
Decoded  _sl_bt_decode_ust    (EventInfo            *ei,
                               const bt_field       *payload,
                               SlPacketEvent        *pe,
                               guint32              *length,
                               char                **why);

G_END_DECLS
