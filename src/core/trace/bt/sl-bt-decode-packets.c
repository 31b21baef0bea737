/* sl-bt-decode-packets.c: TCP packet events out of babeltrace2's fields
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-bt-decode-private.h"

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
Member
_sl_bt_member_lookup (const bt_field_class *cls,
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

static const Member *
member_cache_get (MemberCache       *c,
                  const bt_field    *st,
                  const char *const *names)
{
  const bt_field_class *cls = bt_field_borrow_class_const (st);

  if (c->cls != cls)
    {
      for (guint i = 0; i < CACHE_MAX_MEMBERS; i++)
        c->m[i] = _sl_bt_member_lookup (cls, names[i]);
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

/* Why member @name of @st cannot be read as @want (for the diagnosis:
 * "saddr is a 5-byte BLOB, not 4 bytes"). */
static char *
member_why (const bt_field *st,
            Member          m,
            const char     *name,
            const char     *want)
{
  const bt_field *f = member_field (st, m);

  switch (m.kind)
    {
    case MK_NONE:
      return g_strdup_printf ("it has no %s field", name);
    case MK_UNSIGNED:
    case MK_SIGNED:
      return g_strdup_printf ("its %s is a %u-byte integer, not %s", name, m.bytes, want);
    case MK_STRING:
      return g_strdup_printf ("its %s is a string, not %s", name, want);
    case MK_ARRAY:
      if (f != NULL && (m.elem == MK_UNSIGNED || m.elem == MK_SIGNED))
        return g_strdup_printf ("its %s is an array of %" G_GUINT64_FORMAT " %u-byte integers, not %s", name,
                                bt_field_array_get_length (f), m.bytes, want);
      return g_strdup_printf ("its %s is an array of what is not an integer, not %s", name, want);
#if SL_BT_READS_CTF2
    case MK_BLOB:
      if (f != NULL)
        return g_strdup_printf ("its %s is a %" G_GUINT64_FORMAT "-byte BLOB, not %s", name,
                                bt_field_blob_get_length (f), want);
      break;
#endif
    default:
      break;
    }
  return g_strdup_printf ("its %s is of a type Syncline cannot read, not %s", name, want);
}

/* The first of @names' members that is not an integer, described. */
static char *
ints_why (const bt_field     *st,
          const Member       *m,
          const char *const  *names,
          const guint        *which,
          guint               n)
{
  guint64 v;

  for (guint i = 0; i < n; i++)
    if (!member_uint (st, m[which[i]], &v))
      {
        g_autofree char *name = g_strdup (names[which[i]]);

        /* "source_port|source|sport": the first name */
        name[strcspn (name, "|")] = '\0';
        return member_why (st, m[which[i]], name, "an integer");
      }
  return g_strdup ("its fields cannot be read");
}

static const char *const ip_members[CACHE_MAX_MEMBERS] = {
  "saddr", "daddr", "transport_header", "tot_len", "ihl", "payload_len",
};
static const char *const tcp_members[CACHE_MAX_MEMBERS] = {
  "source_port|source|sport", "dest_port|dest|dport", "seq", "ack_seq", "flags", "data_offset|doff",
};


/* ---------------------------------------------------------------------- */
/* Packet events                                                           */

/* lttng-modules >= 2.9: network_header variant (ipv4 | ipv6 | unknown),
 * then transport_header variant (tcp | udp | icmp | unknown), whether the
 * variant is tagged by transport_header_type or by protocol/nexthdr:
 * either way the selected option's name says which. @why: where to say
 * why an unreadable event is (or %NULL). */
Decoded
_sl_bt_decode_net (EventInfo      *ei,
            const bt_field *payload,
            SlPacketEvent  *pe,
            guint32        *length,
            char          **why)
{
  static const guint tcp_ints[] = { TCP_SPORT, TCP_DPORT, TCP_SEQ, TCP_ACK, TCP_FLAGS };
  const bt_field *nh, *ip, *th, *tcp;
  const Member *ipm, *tcpm;
  guint kind, v, alen;
  guint64 sport, dport, seq, ack, flags, ip_len, ihl = 0, doff;

  nh = member_field (payload, ei->m[NET_NH]);
  if (!field_is (nh, BT_FIELD_CLASS_TYPE_VARIANT))
    {
      if (why != NULL)
        *why = member_why (payload, ei->m[NET_NH], "network_header",
                           "a variant (lttng-modules 2.9 and later record the headers)");
      return UNREADABLE;
    }
  kind = variant_kind (&ei->nh, nh);
  if (kind != OPT_IPV4 && kind != OPT_IPV6)
    return NOT_TCP;
  v = kind == OPT_IPV4 ? 0 : 1;
  alen = v == 0 ? 4 : 16;

  ip = bt_field_variant_borrow_selected_option_field_const (nh);
  if (!field_is (ip, BT_FIELD_CLASS_TYPE_STRUCTURE))
    {
      if (why != NULL)
        *why = g_strdup ("its network_header's IP option is not a structure");
      return UNREADABLE;
    }
  ipm = member_cache_get (&ei->ip[v], ip, ip_members);

  th = member_field (ip, ipm[IP_TH]);
  if (!field_is (th, BT_FIELD_CLASS_TYPE_VARIANT))
    {
      if (why != NULL)
        *why = member_why (ip, ipm[IP_TH], "transport_header", "a variant");
      return UNREADABLE;
    }
  if (variant_kind (&ei->th[v], th) != OPT_TCP)
    return NOT_TCP;
  tcp = bt_field_variant_borrow_selected_option_field_const (th);
  if (!field_is (tcp, BT_FIELD_CLASS_TYPE_STRUCTURE))
    {
      if (why != NULL)
        *why = g_strdup ("its transport_header's tcp option is not a structure");
      return UNREADABLE;
    }
  tcpm = member_cache_get (&ei->tcp[v], tcp, tcp_members);

  memset (pe->saddr, 0, sizeof pe->saddr);
  memset (pe->daddr, 0, sizeof pe->daddr);
  if (read_address (ip, ipm[IP_SADDR], pe->saddr) != alen)
    {
      if (why != NULL)
        *why = member_why (ip, ipm[IP_SADDR], "saddr", v == 0 ? "4 bytes (IPv4)" : "16 bytes (IPv6)");
      return UNREADABLE;
    }
  if (read_address (ip, ipm[IP_DADDR], pe->daddr) != alen)
    {
      if (why != NULL)
        *why = member_why (ip, ipm[IP_DADDR], "daddr", v == 0 ? "4 bytes (IPv4)" : "16 bytes (IPv6)");
      return UNREADABLE;
    }
  if (!member_uint (tcp, tcpm[TCP_SPORT], &sport) ||
      !member_uint (tcp, tcpm[TCP_DPORT], &dport) ||
      !member_uint (tcp, tcpm[TCP_SEQ], &seq) ||
      !member_uint (tcp, tcpm[TCP_ACK], &ack) ||
      !member_uint (tcp, tcpm[TCP_FLAGS], &flags))
    {
      if (why != NULL)
        *why = ints_why (tcp, tcpm, tcp_members, tcp_ints, G_N_ELEMENTS (tcp_ints));
      return UNREADABLE;
    }

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
  return DECODED;
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

static const char *const inet_names[CACHE_MAX_MEMBERS] = { "seq", "ack_seq", "flags", "length" };
static const char *const ust_names[CACHE_MAX_MEMBERS] = {
  "family", "saddr", "daddr", "sport", "dport", "seq", "ack_seq", "flags", "length",
};

/* The old out-of-tree inet_sock_local_* events: no addresses. */
Decoded
_sl_bt_decode_inet (EventInfo      *ei,
             const bt_field *payload,
             SlPacketEvent  *pe,
             guint32        *length,
             char          **why)
{
  static const guint ints[] = { INET_SEQ, INET_ACK, INET_FLAGS };
  guint64 seq, ack, flags;

  if (!member_uint (payload, ei->m[INET_SEQ], &seq) ||
      !member_uint (payload, ei->m[INET_ACK], &ack) ||
      !member_uint (payload, ei->m[INET_FLAGS], &flags))
    {
      if (why != NULL)
        *why = ints_why (payload, ei->m, inet_names, ints, G_N_ELEMENTS (ints));
      return UNREADABLE;
    }

  pe->family = 0;
  pe->sport = pe->dport = 0;
  memset (pe->saddr, 0, sizeof pe->saddr);
  memset (pe->daddr, 0, sizeof pe->daddr);
  pe->seq = (guint32) seq;
  pe->ack_seq = (guint32) ack;
  pe->flags = (guint16) flags;
  *length = optional_length (payload, ei->m[INET_LENGTH]);
  return DECODED;
}

/* The flat UST event of README "Instrumenting your own programs". */
Decoded
_sl_bt_decode_ust (EventInfo      *ei,
            const bt_field *payload,
            SlPacketEvent  *pe,
            guint32        *length,
            char          **why)
{
  static const guint ints[] = { UST_SPORT, UST_DPORT, UST_SEQ, UST_ACK, UST_FLAGS };
  guint64 family, sport, dport, seq, ack, flags;
  guint8 addr[16];
  const char *want_len;
  guint want;

  if (!member_uint (payload, ei->m[UST_FAMILY], &family))
    {
      if (why != NULL)
        *why = member_why (payload, ei->m[UST_FAMILY], "family", "an integer");
      return UNREADABLE;
    }
  if (family == 4 || family == 2)
    pe->family = 4, want = 4, want_len = "4 bytes (IPv4)";
  else if (family == 6 || family == 10)
    pe->family = 6, want = 16, want_len = "16 bytes (IPv6)";
  else
    return NOT_TCP;

  memset (pe->saddr, 0, sizeof pe->saddr);
  memset (pe->daddr, 0, sizeof pe->daddr);
  if (read_address (payload, ei->m[UST_SADDR], addr) < want)
    {
      if (why != NULL)
        *why = member_why (payload, ei->m[UST_SADDR], "saddr", want_len);
      return UNREADABLE;
    }
  memcpy (pe->saddr, addr, want);
  if (read_address (payload, ei->m[UST_DADDR], addr) < want)
    {
      if (why != NULL)
        *why = member_why (payload, ei->m[UST_DADDR], "daddr", want_len);
      return UNREADABLE;
    }
  memcpy (pe->daddr, addr, want);

  if (!member_uint (payload, ei->m[UST_SPORT], &sport) ||
      !member_uint (payload, ei->m[UST_DPORT], &dport) ||
      !member_uint (payload, ei->m[UST_SEQ], &seq) ||
      !member_uint (payload, ei->m[UST_ACK], &ack) ||
      !member_uint (payload, ei->m[UST_FLAGS], &flags))
    {
      if (why != NULL)
        *why = ints_why (payload, ei->m, ust_names, ints, G_N_ELEMENTS (ints));
      return UNREADABLE;
    }
  pe->sport = (guint16) sport;
  pe->dport = (guint16) dport;
  pe->seq = (guint32) seq;
  pe->ack_seq = (guint32) ack;
  pe->flags = (guint16) flags;
  /* optional (extracts since they carry it) */
  *length = optional_length (payload, ei->m[UST_LENGTH]);
  return DECODED;
}


