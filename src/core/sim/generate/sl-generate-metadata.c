/* sl-generate-metadata.c: each trace's CTF 1.8 metadata, lttng-modules 2.12
 * style
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-generate-private.h"

#define TI(size, sign, base) \
  "integer { size = " #size "; align = 8; signed = " #sign "; encoding = none; base = " #base "; }"
#define T_I32  TI (32, 1, 10)
#define T_U32  TI (32, 0, 10)
#define T_I64  TI (64, 1, 10)
#define T_U64  TI (64, 0, 10)
#define T_X64  TI (64, 0, 16)
#define T_U8   TI (8, 0, 10)
#define T_CHAR "integer { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; }"
#define T_BE(size, align, base) \
  "integer { size = " #size "; align = " #align "; signed = 0; encoding = none; base = " #base "; byte_order = be; }"

static const struct
{
  const char *name;
  const char *fields;
} event_defs[N_EVENTS] = {
  [EV_SCHED_SWITCH] = { "sched_switch",
    T_CHAR " _prev_comm[16];\n" T_I32 " _prev_tid;\n" T_I32 " _prev_prio;\n" T_I64 " _prev_state;\n"
    T_CHAR " _next_comm[16];\n" T_I32 " _next_tid;\n" T_I32 " _next_prio;\n" },
  [EV_SCHED_WAKEUP] = { "sched_wakeup",
    T_CHAR " _comm[16];\n" T_I32 " _tid;\n" T_I32 " _prio;\n" T_I32 " _target_cpu;\n" },
  [EV_SCHED_WAKEUP_NEW] = { "sched_wakeup_new",
    T_CHAR " _comm[16];\n" T_I32 " _tid;\n" T_I32 " _prio;\n" T_I32 " _target_cpu;\n" },
  [EV_READ_ENTRY] = { "syscall_entry_read", T_U32 " _fd;\n" T_U64 " _count;\n" },
  [EV_READ_EXIT] = { "syscall_exit_read", T_I64 " _ret;\n" T_X64 " _buf;\n" },
  [EV_WRITE_ENTRY] = { "syscall_entry_write", T_U32 " _fd;\n" T_X64 " _buf;\n" T_U64 " _count;\n" },
  [EV_WRITE_EXIT] = { "syscall_exit_write", T_I64 " _ret;\n" },
  [EV_EPOLL_ENTRY] = { "syscall_entry_epoll_wait",
    T_I32 " _epfd;\n" T_I32 " _maxevents;\n" T_I32 " _timeout;\n" },
  [EV_EPOLL_EXIT] = { "syscall_exit_epoll_wait", T_I64 " _ret;\n" T_X64 " _events;\n" },
  [EV_FUTEX_ENTRY] = { "syscall_entry_futex",
    T_X64 " _uaddr;\n" T_I32 " _op;\n" T_U32 " _val;\n" T_X64 " _utime;\n" T_X64 " _uaddr2;\n"
    T_U32 " _val3;\n" },
  [EV_FUTEX_EXIT] = { "syscall_exit_futex", T_I64 " _ret;\n" T_X64 " _uaddr;\n" T_X64 " _uaddr2;\n" },
  [EV_SENDTO_ENTRY] = { "syscall_entry_sendto",
    T_I32 " _fd;\n" T_X64 " _buff;\n" T_U64 " _len;\n" T_U32 " _flags;\n" T_X64 " _addr;\n"
    T_I32 " _addr_len;\n" },
  [EV_SENDTO_EXIT] = { "syscall_exit_sendto", T_I64 " _ret;\n" },
  [EV_RECVFROM_ENTRY] = { "syscall_entry_recvfrom", T_I32 " _fd;\n" T_U64 " _size;\n" T_U32 " _flags;\n" },
  [EV_RECVFROM_EXIT] = { "syscall_exit_recvfrom",
    T_I64 " _ret;\n" T_X64 " _ubuf;\n" T_X64 " _addr;\n" T_X64 " _addr_len;\n" },
  [EV_IRQ_ENTRY] = { "irq_handler_entry", T_I32 " _irq;\nstring _name;\n" },
  [EV_IRQ_EXIT] = { "irq_handler_exit", T_I32 " _irq;\n" T_I32 " _ret;\n" },
  [EV_SOFTIRQ_RAISE] = { "softirq_raise", T_U32 " _vec;\n" },
  [EV_SOFTIRQ_ENTRY] = { "softirq_entry", T_U32 " _vec;\n" },
  [EV_SOFTIRQ_EXIT] = { "softirq_exit", T_U32 " _vec;\n" },
  [EV_NET_DEV_QUEUE] = { "net_dev_queue", NULL },
  [EV_NET_IF_RECEIVE_SKB] = { "net_if_receive_skb", NULL },
  [EV_FORK] = { "sched_process_fork",
    T_CHAR " _parent_comm[16];\n" T_I32 " _parent_tid;\n" T_I32 " _parent_pid;\n"
    T_U32 " _parent_ns_inum;\n" T_CHAR " _child_comm[16];\n" T_I32 " _child_tid;\n"
    T_I32 " _child_pid;\n" T_U32 " _child_ns_inum;\n" },
  [EV_EXEC] = { "sched_process_exec", "string _filename;\n" T_I32 " _tid;\n" T_I32 " _old_tid;\n" },
  [EV_EXIT] = { "sched_process_exit", T_CHAR " _comm[16];\n" T_I32 " _tid;\n" T_I32 " _prio;\n" },
  [EV_STATEDUMP_START] = { "lttng_statedump_start", "" },
  [EV_STATEDUMP_PROCESS] = { "lttng_statedump_process_state",
    T_I32 " _tid;\n" T_I32 " _vtid;\n" T_I32 " _pid;\n" T_I32 " _vpid;\n" T_I32 " _ppid;\n"
    T_I32 " _vppid;\n" T_CHAR " _name[16];\n" T_I32 " _type;\n" T_I32 " _mode;\n"
    T_I32 " _submode;\n" T_I32 " _status;\n" T_I32 " _cpu;\n" },
  [EV_STATEDUMP_END] = { "lttng_statedump_end", "" },
};

static char *
net_fields (SlGenerateVariant variant)
{
  gboolean legacy = variant == SL_GENERATE_VARIANT_LEGACY;
  GString *s = g_string_new (NULL);
  const char *proto_enum =
    "enum : " T_BE (8, 8, 10) " { \"_unknown\" = 0, \"_icmp\" = 1, \"_unknown\" = 2 ... 5, "
    "\"_tcp\" = 6, \"_unknown\" = 7 ... 16, \"_udp\" = 17, \"_unknown\" = 18 ... 255 }";
  const char *th_enum =
    "enum : " T_U8 " { \"_unknown\" = 0, \"_tcp\" = 1, \"_udp\" = 2, \"_icmp\" = 3 } _transport_header_type;\n";

  g_string_append (s,
    T_X64 " _skbaddr;\n"
    T_U32 " _len;\n"
    "string _name;\n"
    "enum : " T_U8 " { \"_unknown\" = 0, \"_ipv4\" = 1, \"_ipv6\" = 2 } _network_header_type;\n"
    "variant <_network_header_type> {\n"
    "\tstruct {\n"
    "\t} _unknown;\n");

  for (guint v = 4; v <= 6; v += 2)
    {
      g_string_append (s, "\tstruct {\n");
      if (v == 4)
        {
          g_string_append_printf (s,
            "\t\t" T_BE (4, 4, 10) " _version;\n"
            "\t\t" T_BE (4, 4, 10) " _ihl;\n"
            "\t\t" T_BE (8, 8, 10) " _tos;\n"
            "\t\t" T_BE (16, 8, 10) " _tot_len;\n"
            "\t\t" T_BE (16, 8, 16) " _id;\n"
            "\t\t" T_BE (16, 8, 10) " _frag_off;\n"
            "\t\t" T_BE (8, 8, 10) " _ttl;\n"
            "\t\t%s _protocol;\n"
            "\t\t" T_BE (16, 8, 16) " _checksum;\n"
            "\t\t" T_BE (8, 8, 10) " _saddr[4];\n"
            "\t\t" T_BE (8, 8, 10) " _daddr[4];\n",
            proto_enum);
        }
      else
        {
          g_string_append_printf (s,
            "\t\t" T_BE (4, 4, 10) " _version;\n"
            "\t\t" T_BE (4, 4, 10) " _prio;\n"
            "\t\t" T_BE (8, 8, 16) " _flow_lbl[3];\n"
            "\t\t" T_BE (16, 8, 10) " _payload_len;\n"
            "\t\t%s _nexthdr;\n"
            "\t\t" T_BE (8, 8, 10) " _hop_limit;\n"
            "\t\t" T_BE (16, 8, 16) " _saddr[8];\n"
            "\t\t" T_BE (16, 8, 16) " _daddr[8];\n",
            proto_enum);
        }
      if (!legacy)
        g_string_append_printf (s, "\t\t%s", th_enum);
      g_string_append_printf (s,
        "\t\tvariant <%s> {\n"
        "\t\t\tstruct {\n"
        "\t\t\t} _unknown;\n"
        "\t\t\tstruct {\n"
        "\t\t\t\t" T_BE (16, 8, 10) " _source_port;\n"
        "\t\t\t\t" T_BE (16, 8, 10) " _dest_port;\n"
        "\t\t\t\t" T_BE (32, 8, 10) " _seq;\n"
        "\t\t\t\t" T_BE (32, 8, 10) " _ack_seq;\n"
        "\t\t\t\t" T_BE (4, 4, 10) " _data_offset;\n"
        "\t\t\t\t" T_BE (3, 1, 10) " _reserved;\n"
        "\t\t\t\t" T_BE (9, 1, 16) " _flags;\n"
        "\t\t\t\t" T_BE (16, 8, 10) " _window_size;\n"
        "\t\t\t\t" T_BE (16, 8, 16) " _checksum;\n"
        "\t\t\t\t" T_BE (16, 8, 10) " _urg_ptr;\n"
        "\t\t\t} _tcp;\n"
        "\t\t\tstruct {\n"
        "\t\t\t\t" T_BE (16, 8, 10) " _source_port;\n"
        "\t\t\t\t" T_BE (16, 8, 10) " _dest_port;\n"
        "\t\t\t\t" T_BE (16, 8, 10) " _len;\n"
        "\t\t\t\t" T_BE (16, 8, 10) " _check;\n"
        "\t\t\t} _udp;\n"
        "\t\t\tstruct {\n"
        "\t\t\t\t" T_BE (8, 8, 10) " _type;\n"
        "\t\t\t\t" T_BE (8, 8, 10) " _code;\n"
        "\t\t\t\t" T_BE (16, 8, 10) " _checksum;\n"
        "\t\t\t\t" T_BE (32, 8, 10) " _gateway;\n"
        "\t\t\t} _icmp;\n"
        "\t\t} _transport_header;\n"
        "\t} %s;\n",
        legacy ? (v == 4 ? "_protocol" : "_nexthdr") : "_transport_header_type",
        v == 4 ? "_ipv4" : "_ipv6");
    }
  g_string_append (s, "} _network_header;\n");
  return g_string_free (s, FALSE);
}

char *
_sl_gen_host_metadata (SlGenerate *self,
                       const Host *h)
{
  GString *out = g_string_new (NULL);
  g_autofree char *net = net_fields (self->options.variant);
  g_autoptr(GDateTime) dt = NULL;
  g_autofree char *created = NULL;
  g_autofree char *trace_name = NULL;
  gint64 local_start = self->options.start_ns + h->pub.offset_ns;
  SlCtfTraceInfo info = { 0 };

  dt = g_date_time_new_from_unix_utc (local_start / NS_PER_S);
  created = dt != NULL ? g_date_time_format (dt, "%Y%m%dT%H%M%S+0000") : g_strdup ("19700101T000000+0000");
  trace_name = g_strdup_printf ("syncline-%" G_GUINT64_FORMAT, self->options.seed);

  {
    const SlCtfEnv env[] = {
      { "hostname", h->pub.name, 0 },
      { "domain", "kernel", 0 },
      { "sysname", "Linux", 0 },
      { "kernel_release", "5.10.0-28-amd64", 0 },
      { "kernel_version", "#1 SMP Debian 5.10.209-2 (2024-01-31)", 0 },
      { "tracer_name", "lttng-modules", 0 },
      { "tracer_major", NULL, 2 },
      { "tracer_minor", NULL, 12 },
      { "tracer_patchlevel", NULL, 14 },
      { "trace_buffering_scheme", "global", 0 },
      { "trace_name", trace_name, 0 },
      { "trace_creation_datetime", created, 0 },
    };

    memcpy (info.uuid, h->trace_uuid, 16);
    memcpy (info.clock_uuid, h->boot_id, 16);
    info.env = env;
    info.n_env = G_N_ELEMENTS (env);
    info.clock_name = "monotonic";
    info.clock_description = "Monotonic Clock";
    info.clock_freq = h->pub.freq_hz;
    info.clock_offset_s = h->clock_offset_s;
    info.clock_offset = 0;
    info.header = self->options.header;
    sl_ctf_metadata_append_preamble (out, &info);
  }

  for (guint i = 0; i < N_EVENTS; i++)
    sl_ctf_metadata_append_event (out, event_defs[i].name, i, 0,
                                  event_defs[i].fields != NULL ? event_defs[i].fields : net);
  return g_string_free (out, FALSE);
}
