/* sl-generate.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-generate.h"
#include "sl-types.h"

/* A discrete-event simulation in true time. Heap items are CPU activities,
 * TCP transactions, segments to send and segments arriving; each item emits
 * a short burst of events (a few µs) on one CPU of one host, at once. Items
 * come out in true-time order, so a CPU's events are in order as long as a
 * burst never starts before the previous one ended: each CPU keeps the true
 * time of its last event and later events are pushed past it. A segment's
 * delivery is scheduled from the time its net_dev_queue event was actually
 * written, so causality holds exactly for every matched pair.
 *
 * Random streams are separate for the network (connections, latencies,
 * losses), the noise packets and each host's background, so the background
 * rate or the event target does not change which packets are exchanged. */

#define NS_PER_S G_GINT64_CONSTANT (1000000000)
#define US       G_GINT64_CONSTANT (1000)
#define MS       G_GINT64_CONSTANT (1000000)
#define NONE     G_MAXUINT
#define MSS      1448
#define N_SKB_SLOTS 512

#define FORMAT_NAME "syncline-generate-truth"

/* Random numbers: xoshiro256**, seeded by splitmix64. */

typedef struct
{
  guint64 s[4];
} Rng;

static guint64
splitmix64 (guint64 *x)
{
  guint64 z = (*x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static void
rng_init (Rng     *r,
          guint64  seed,
          guint64  stream)
{
  guint64 x = seed ^ (stream * G_GUINT64_CONSTANT (0xd1342543de82ef95));

  for (guint i = 0; i < 4; i++)
    r->s[i] = splitmix64 (&x);
}

static inline guint64
rotl64 (guint64 x,
        int     k)
{
  return (x << k) | (x >> (64 - k));
}

static inline guint64
rng_u64 (Rng *r)
{
  guint64 result = rotl64 (r->s[1] * 5, 7) * 9;
  guint64 t = r->s[1] << 17;

  r->s[2] ^= r->s[0];
  r->s[3] ^= r->s[1];
  r->s[1] ^= r->s[2];
  r->s[0] ^= r->s[3];
  r->s[2] ^= t;
  r->s[3] = rotl64 (r->s[3], 45);
  return result;
}

static inline double
rng_double (Rng *r)
{
  return (double) (rng_u64 (r) >> 11) * 0x1.0p-53;
}

static inline guint32
rng_below (Rng     *r,
           guint32  n)
{
  return (guint32) (((rng_u64 (r) >> 32) * (guint64) n) >> 32);
}

static inline gboolean
rng_chance (Rng    *r,
            double  p)
{
  return p > 0 && rng_double (r) < p;
}

static inline gint64
rng_exp (Rng    *r,
         double  mean)
{
  return (gint64) (-log1p (-rng_double (r)) * mean);
}

static inline gint64
rng_range (Rng    *r,
           gint64  lo,
           gint64  hi)
{
  return lo + (gint64) (rng_u64 (r) % (guint64) (hi - lo + 1));
}

/* Event ids: the most frequent first, all below 31 so that the compact
 * header never needs its extended form for the id. */
enum
{
  EV_SCHED_SWITCH,
  EV_SCHED_WAKEUP,
  EV_SCHED_WAKEUP_NEW,
  EV_READ_ENTRY,
  EV_READ_EXIT,
  EV_WRITE_ENTRY,
  EV_WRITE_EXIT,
  EV_EPOLL_ENTRY,
  EV_EPOLL_EXIT,
  EV_FUTEX_ENTRY,
  EV_FUTEX_EXIT,
  EV_SENDTO_ENTRY,
  EV_SENDTO_EXIT,
  EV_RECVFROM_ENTRY,
  EV_RECVFROM_EXIT,
  EV_IRQ_ENTRY,
  EV_IRQ_EXIT,
  EV_SOFTIRQ_RAISE,
  EV_SOFTIRQ_ENTRY,
  EV_SOFTIRQ_EXIT,
  EV_NET_DEV_QUEUE,
  EV_NET_IF_RECEIVE_SKB,
  EV_FORK,
  EV_EXEC,
  EV_EXIT,
  EV_STATEDUMP_START,
  EV_STATEDUMP_PROCESS,
  EV_STATEDUMP_END,
  N_EVENTS
};

enum { SC_NONE, SC_READ, SC_WRITE, SC_EPOLL, SC_FUTEX, SC_SENDTO, SC_RECVFROM };

enum { SOFTIRQ_TIMER = 1, SOFTIRQ_NET_TX = 2, SOFTIRQ_NET_RX = 3, SOFTIRQ_SCHED = 7, SOFTIRQ_RCU = 9 };

enum { THREAD_IDLE, THREAD_KERNEL, THREAD_USER, THREAD_APP };

#define TASK_RUNNING       0
#define TASK_INTERRUPTIBLE 1
#define TASK_DEAD          128

/* lttng-modules' state dump: what it writes for a task's mode, submode
 * (LTTNG_MODE_UNKNOWN, LTTNG_NONE) and status */
#define DUMP_MODE_UNKNOWN  5
#define DUMP_SUBMODE_NONE  0
#define DUMP_WAIT_CPU      2
#define DUMP_WAIT          5

/* How a thread came to be (ground truth). */
enum { ORIGIN_DUMP, ORIGIN_PROCESS, ORIGIN_THREAD };

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

/* Scenario state */

typedef struct
{
  char    comm[16];
  gint32  tid;
  gint32  pid;
  gint32  ppid;
  gint32  prio;
  gint32  fd;
  guint16 cpu;
  guint8  blocked;
  guint8  kind;
  guint8  alive;
  guint8  origin;
  guint8  status;
  guint64 born_cycles;
  guint64 exit_cycles;
} Thread;

typedef struct
{
  SlCtfStream *stream;
  gint64       last;
  guint        current;
  guint        idle;
  guint        preempted;
  GArray      *bg;
} Cpu;

typedef struct
{
  guint8  dir;
  guint16 cpu;
  guint32 seq;
  guint32 len;
  guint16 sport;
  gint64  true_ns;
  guint64 cycles;
} Sample;

typedef struct
{
  SlGenerateHost pub;
  guint        index;
  guint        n_cpus;
  Cpu         *cpu;
  GArray      *threads;
  guint8       addr4[4];
  guint8       addr6[16];
  guint64      boot_age_ns;
  gint64       clock_offset_s;
  gint64       origin_at_start;
  long double  cycles_per_ns;
  double       drift;
  double       wander_amp_ns;
  double       wander_half_omega;
  guint8       boot_id[16];
  guint8       trace_uuid[16];
  guint16      ip_id;
  guint32      skb_slot;
  guint64      skb_base;
  Rng          rng;
  guint64      events;
  guint        shell;
  gint32       next_tid;
  gint32       client_pid;
  gint32       server_pid;
  const char  *client_comm;
  GArray      *samples;
  gint64       next_sample[2];
  guint        n_samples[2];
} Host;

typedef struct
{
  SlGenerateLink pub;
  guint   first_conn;
  guint   n_conns;
  gint64  base_latency;
  guint16 server_port;
  guint64 segments;
  guint64 lost;
  guint64 retransmissions;
} Link;

typedef struct
{
  guint   link;
  guint   host[2];
  guint   thread[2];
  guint   rx_cpu[2];
  guint8  family;
  guint8  established;
  guint8  syn_seen;
  guint16 port[2];
  guint16 window[2];
  guint32 snd_nxt[2];
  guint32 rcv_nxt[2];
  guint32 rcv_high[2];
  guint32 acked[2];
  guint32 unacked_segs[2];
  guint32 txn;
  guint32 done[2];
  guint32 req_bytes;
  guint32 resp_bytes;
  double  txn_gap_ns;
} Conn;

typedef struct
{
  guint8  family;
  guint8  proto;
  guint8  lo;
  guint8  icmp_type;
  guint16 flags;
  guint16 window;
  guint16 sport;
  guint16 dport;
  guint16 payload;
  guint16 checksum;
  guint16 ip_id;
  guint32 seq;
  guint32 ack;
  guint8  saddr[16];
  guint8  daddr[16];
} Wire;

enum
{
  IT_CONTROL,
  IT_CPU,
  IT_NOISE,
  IT_PROC,
  IT_CONNECT,
  IT_TXN,
  IT_RESPOND,
  IT_WAKE,
  IT_KSEND,
  IT_RAWSEND,
  IT_ARRIVE,
};

enum
{
  ROLE_REQ,
  ROLE_RESP,
  ROLE_SYN,
  ROLE_SYNACK,
  ROLE_ACK,
  ROLE_DELACK,
  ROLE_RAW,
  ROLE_ECHO,
};

typedef struct
{
  gint64  t;
  guint64 tie;
  guint8  kind;
  guint8  role;
  guint8  dir;
  guint8  last;
  guint8  retrans;
  guint32 host;
  guint32 aux;
  guint32 txn;
  Wire    w;
} Item;

struct _SlGenerate
{
  SlGenerateOptions    options;
  GPtrArray           *hosts;
  GArray              *links;
  GArray              *conns;
  GArray              *heap;
  guint64              tie;
  Rng                  scenario_rng;
  Rng                  net_rng;
  Rng                  noise_rng;
  gboolean             prepared;
  gboolean             ran;
  gboolean             from_truth;
  SlGeneratePacketFunc packet_func;
  gpointer             packet_data;
  SlGenerateStats      stats;
  gint64               end;
  guint64              last_cycles;
  guint                total_cpus;
  double               bg_gap_ns;
  gint64               control_step;
  gint64               control_mark_t;
  guint64              control_mark_other;
  guint64              bg_events;
  guint64              bg_activities;
  double               other_rate;
};

static inline Host *
host_at (const SlGenerate *self,
         guint             i)
{
  return g_ptr_array_index (self->hosts, i);
}

static inline Thread *
thread_at (Host  *h,
           guint  i)
{
  return &g_array_index (h->threads, Thread, i);
}

static inline Conn *
conn_at (SlGenerate *self,
         guint       i)
{
  return &g_array_index (self->conns, Conn, i);
}

static inline Link *
link_at (const SlGenerate *self,
         guint             i)
{
  return &g_array_index (self->links, Link, i);
}

static inline gboolean
seq_after (guint32 a,
           guint32 b)
{
  return (gint32) (a - b) > 0;
}

/* Options and host specifications */

void
sl_generate_options_init (SlGenerateOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->start_ns = G_GINT64_CONSTANT (1700000000000000000);
  options->duration_ns = 10 * NS_PER_S;
  options->seed = 1;
  options->cpus = 4;
  options->threads = 12;
  options->events = 0;
  options->background_rate = 3000;
  options->link_rate = 200;
  options->connections = 2;
  options->loss = 0.002;
  options->duplicate = 0.001;
  options->min_latency_ns = 40 * US;
  options->jitter_ns = 25 * US;
  options->noise_rate = 20;
  options->ip = SL_GENERATE_IP_4;
  options->variant = SL_GENERATE_VARIANT_MODERN;
  options->header = SL_CTF_HEADER_LARGE;
  options->packet_size = 256 * 1024;
  options->n_hosts = 4;
  options->components = 1;
  options->max_drift_ppm = 50;
  options->max_offset_ns = 2 * 86400 * NS_PER_S;
  options->wander_ppm = 0;
  options->wander_period_s = 600;
}

const char *
sl_generate_variant_to_string (SlGenerateVariant variant)
{
  return variant == SL_GENERATE_VARIANT_LEGACY ? "legacy" : "modern";
}

gboolean
sl_generate_variant_from_string (const char        *str,
                                 SlGenerateVariant *variant)
{
  if (g_strcmp0 (str, "modern") == 0)
    *variant = SL_GENERATE_VARIANT_MODERN;
  else if (g_strcmp0 (str, "legacy") == 0)
    *variant = SL_GENERATE_VARIANT_LEGACY;
  else
    return FALSE;
  return TRUE;
}

const char *
sl_generate_ip_to_string (SlGenerateIp ip)
{
  switch (ip)
    {
    case SL_GENERATE_IP_6:
      return "6";
    case SL_GENERATE_IP_MIX:
      return "mix";
    case SL_GENERATE_IP_4:
    default:
      return "4";
    }
}

gboolean
sl_generate_ip_from_string (const char   *str,
                            SlGenerateIp *ip)
{
  if (g_strcmp0 (str, "4") == 0 || g_strcmp0 (str, "ipv4") == 0)
    *ip = SL_GENERATE_IP_4;
  else if (g_strcmp0 (str, "6") == 0 || g_strcmp0 (str, "ipv6") == 0)
    *ip = SL_GENERATE_IP_6;
  else if (g_strcmp0 (str, "mix") == 0)
    *ip = SL_GENERATE_IP_MIX;
  else
    return FALSE;
  return TRUE;
}

static gboolean
valid_host_name (const char *name)
{
  gsize n = strlen (name);

  if (n == 0 || n > 64 || name[0] == '.' || name[0] == '-')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      return FALSE;
  return TRUE;
}

static gboolean
parse_double (const char *str,
              double     *out)
{
  char *end = NULL;
  double v;

  if (str == NULL || *str == '\0')
    return FALSE;
  v = g_ascii_strtod (str, &end);
  if (end == str || *end != '\0' || !isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}

void
sl_generate_host_clear (SlGenerateHost *host)
{
  g_clear_pointer (&host->name, g_free);
}

/* NAME:FREQ_HZ:OFFSET_NS:DRIFT_PPM[:WANDER_PPM[:PERIOD_S]] */
gboolean
sl_generate_parse_host (const char      *spec,
                        SlGenerateHost  *host,
                        GError         **error)
{
  g_auto(GStrv) parts = NULL;
  guint n;
  guint64 freq;
  gint64 offset;
  double drift, wander = 0, period = 600;

  g_return_val_if_fail (spec != NULL && host != NULL, FALSE);

  memset (host, 0, sizeof *host);
  parts = g_strsplit (spec, ":", -1);
  n = g_strv_length (parts);
  if (n < 4 || n > 6)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host: “%s” is not NAME:FREQ_HZ:OFFSET_NS:DRIFT_PPM[:WANDER_PPM[:PERIOD_S]]", spec);
      return FALSE;
    }
  if (!valid_host_name (parts[0]))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host: “%s” is not a valid host name (letters, digits, “-”, “_”, “.”; at most 64)",
                   parts[0]);
      return FALSE;
    }
  if (!g_ascii_string_to_unsigned (parts[1], 10, 1000, G_GUINT64_CONSTANT (100000000000), &freq, NULL))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host %s: frequency “%s” is not an integer from 1000 to 100000000000 Hz",
                   parts[0], parts[1]);
      return FALSE;
    }
  if (!g_ascii_string_to_signed (parts[2], 10, -365 * 86400 * NS_PER_S, 365 * 86400 * NS_PER_S,
                                 &offset, NULL))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host %s: offset “%s” is not an integer number of ns within ±1 year",
                   parts[0], parts[2]);
      return FALSE;
    }
  if (!parse_double (parts[3], &drift) || fabs (drift) > 10000)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host %s: drift “%s” is not a number of ppm within ±10000",
                   parts[0], parts[3]);
      return FALSE;
    }
  if (n >= 5 && (!parse_double (parts[4], &wander) || wander < 0 || wander > 1000))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host %s: wander “%s” is not a number of ppm from 0 to 1000", parts[0], parts[4]);
      return FALSE;
    }
  if (n == 6 && (!parse_double (parts[5], &period) || period < 1 || period > 1e7))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--host %s: wander period “%s” is not a number of seconds from 1 to 1e7",
                   parts[0], parts[5]);
      return FALSE;
    }

  host->name = g_strdup (parts[0]);
  host->freq_hz = freq;
  host->offset_ns = offset;
  host->drift_ppm = drift;
  host->wander_ppm = wander;
  host->wander_period_s = period;
  return TRUE;
}

/* Construction */

static void
host_free (gpointer data)
{
  Host *h = data;

  if (h->cpu != NULL)
    {
      for (guint i = 0; i < h->n_cpus; i++)
        {
          sl_ctf_stream_free (h->cpu[i].stream);
          if (h->cpu[i].bg != NULL)
            g_array_unref (h->cpu[i].bg);
        }
      g_free (h->cpu);
    }
  if (h->threads != NULL)
    g_array_unref (h->threads);
  if (h->samples != NULL)
    g_array_unref (h->samples);
  g_free (h->pub.name);
  g_free (h);
}

SlGenerate *
sl_generate_new (const SlGenerateOptions *options)
{
  SlGenerate *self = g_new0 (SlGenerate, 1);

  if (options != NULL)
    self->options = *options;
  else
    sl_generate_options_init (&self->options);
  self->hosts = g_ptr_array_new_with_free_func (host_free);
  self->links = g_array_new (FALSE, TRUE, sizeof (Link));
  self->conns = g_array_new (FALSE, TRUE, sizeof (Conn));
  self->heap = g_array_new (FALSE, FALSE, sizeof (Item));
  rng_init (&self->scenario_rng, self->options.seed, 1);
  rng_init (&self->net_rng, self->options.seed, 2);
  rng_init (&self->noise_rng, self->options.seed, 3);
  return self;
}

void
sl_generate_free (SlGenerate *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->hosts);
  g_array_unref (self->links);
  g_array_unref (self->conns);
  g_array_unref (self->heap);
  g_free (self);
}

const SlGenerateOptions *
sl_generate_get_options (const SlGenerate *self)
{
  return &self->options;
}

guint
sl_generate_find_host (const SlGenerate *self,
                       const char       *name)
{
  g_return_val_if_fail (self != NULL, NONE);

  for (guint i = 0; i < self->hosts->len; i++)
    if (g_strcmp0 (host_at (self, i)->pub.name, name) == 0)
      return i;
  return NONE;
}

gboolean
sl_generate_add_host (SlGenerate           *self,
                      const SlGenerateHost *host,
                      GError              **error)
{
  Host *h;

  g_return_val_if_fail (self != NULL && host != NULL, FALSE);
  g_return_val_if_fail (!self->prepared, FALSE);

  if (host->name == NULL || !valid_host_name (host->name))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host name “%s” is not valid",
                   host->name != NULL ? host->name : "");
      return FALSE;
    }
  if (sl_generate_find_host (self, host->name) != NONE)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host “%s” is given twice", host->name);
      return FALSE;
    }
  if (host->freq_hz < 1000)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host “%s”: frequency below 1000 Hz", host->name);
      return FALSE;
    }
  if (host->cpus > 256)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host “%s”: more than 256 CPUs", host->name);
      return FALSE;
    }
  if (fabs (host->drift_ppm) + host->wander_ppm >= 1e5 || host->wander_ppm < 0 ||
      (host->wander_ppm > 0 && !(host->wander_period_s >= 1)))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "host “%s”: drift or wander out of range",
                   host->name);
      return FALSE;
    }

  h = g_new0 (Host, 1);
  h->pub = *host;
  h->pub.name = g_strdup (host->name);
  if (h->pub.wander_period_s <= 0)
    h->pub.wander_period_s = 600;
  h->index = self->hosts->len;
  g_ptr_array_add (self->hosts, h);
  return TRUE;
}

gboolean
sl_generate_add_link (SlGenerate  *self,
                      const char  *a,
                      const char  *b,
                      double       rate,
                      GError     **error)
{
  guint ia, ib;
  Link l = { 0 };

  g_return_val_if_fail (self != NULL && a != NULL && b != NULL, FALSE);
  g_return_val_if_fail (!self->prepared, FALSE);

  ia = sl_generate_find_host (self, a);
  ib = sl_generate_find_host (self, b);
  if (ia == NONE || ib == NONE)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "link %s:%s: no host named “%s”", a, b,
                   ia == NONE ? a : b);
      return FALSE;
    }
  if (ia == ib)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "link %s:%s: a host cannot link to itself", a, b);
      return FALSE;
    }
  if (!(rate >= 0 && rate <= 1e6))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "link %s:%s: rate must be from 0 to 1000000 segments/s",
                   a, b);
      return FALSE;
    }
  for (guint i = 0; i < self->links->len; i++)
    {
      const Link *o = link_at (self, i);
      if ((o->pub.a == ia && o->pub.b == ib) || (o->pub.a == ib && o->pub.b == ia))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "link %s:%s is given twice", a, b);
          return FALSE;
        }
    }
  l.pub.a = ia;
  l.pub.b = ib;
  l.pub.rate = rate;
  g_array_append_val (self->links, l);
  return TRUE;
}

/* A:B[:RATE] */
gboolean
sl_generate_add_link_spec (SlGenerate  *self,
                           const char  *spec,
                           GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":", -1);
  guint n = g_strv_length (parts);
  double rate = 0;

  if (n < 2 || n > 3)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "--link: “%s” is not A:B[:RATE]", spec);
      return FALSE;
    }
  if (n == 3 && (!parse_double (parts[2], &rate) || rate <= 0))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "--link %s:%s: rate “%s” is not a positive number of segments per second",
                   parts[0], parts[1], parts[2]);
      return FALSE;
    }
  if (!sl_generate_add_link (self, parts[0], parts[1], rate, error))
    {
      if (error != NULL && *error != NULL)
        g_prefix_error (error, "--link: ");
      return FALSE;
    }
  return TRUE;
}

void
sl_generate_set_packet_func (SlGenerate           *self,
                             SlGeneratePacketFunc  func,
                             gpointer              user_data)
{
  g_return_if_fail (self != NULL);

  self->packet_func = func;
  self->packet_data = user_data;
}

guint
sl_generate_get_n_hosts (const SlGenerate *self)
{
  return self->hosts->len;
}

const SlGenerateHost *
sl_generate_get_host (const SlGenerate *self,
                      guint             host)
{
  g_return_val_if_fail (host < self->hosts->len, NULL);
  return &host_at (self, host)->pub;
}

guint
sl_generate_get_n_links (const SlGenerate *self)
{
  return self->links->len;
}

const SlGenerateLink *
sl_generate_get_link (const SlGenerate *self,
                      guint             link)
{
  g_return_val_if_fail (link < self->links->len, NULL);
  return &link_at (self, link)->pub;
}

gint64
sl_generate_get_start (const SlGenerate *self)
{
  return self->options.start_ns;
}

gint64
sl_generate_get_duration (const SlGenerate *self)
{
  return self->options.duration_ns;
}

/* Clocks */

static void
host_setup_clock (SlGenerate *self,
                  Host       *h)
{
  gint64 local_start = self->options.start_ns + h->pub.offset_ns;
  gint64 origin;
  double period_ns = h->pub.wander_period_s * 1e9;

  h->drift = h->pub.drift_ppm * 1e-6;
  h->wander_amp_ns = h->pub.wander_ppm > 0 ? h->pub.wander_ppm * 1e-6 * period_ns / (2 * G_PI) : 0;
  h->wander_half_omega = h->pub.wander_ppm > 0 ? G_PI / period_ns : 0;
  h->cycles_per_ns = (long double) h->pub.freq_hz / 1e9L;

  /* The monotonic clock counts from boot; its origin in the metadata is
   * the boot time, rounded down to a whole second. */
  if (h->boot_age_ns > (guint64) MAX (local_start, 0))
    h->boot_age_ns = (guint64) MAX (local_start, 0);
  origin = local_start - (gint64) h->boot_age_ns;
  h->clock_offset_s = origin / NS_PER_S;
  h->origin_at_start = local_start - h->clock_offset_s * NS_PER_S;
}

static inline double
wander_ns (const Host *h,
           gint64      dt)
{
  double s;

  if (h->wander_amp_ns == 0)
    return 0;
  /* amp·(1 − cos 2x) = 2·amp·sin²x, without cancellation near 0 */
  s = sin (h->wander_half_omega * (double) dt);
  return 2 * h->wander_amp_ns * s * s;
}

static inline guint64
host_cycles (const SlGenerate *self,
             const Host       *h,
             gint64            t)
{
  gint64 dt = t - self->options.start_ns;
  long double x = (long double) (h->origin_at_start + dt) +
                  (long double) (h->drift * (double) dt + wander_ns (h, dt));

  return (guint64) llroundl (x * h->cycles_per_ns);
}

/* The conversion babeltrace2 2.0 applies (bt_util_ns_from_value()), so a
 * reader sees exactly this value. */
static inline gint64
cycles_to_trace_ns (const Host *h,
                    guint64     cycles)
{
  guint64 ns;

  if (h->pub.freq_hz == (guint64) NS_PER_S)
    ns = cycles;
  else
    ns = (guint64) ((1e9 * (double) cycles) / (double) h->pub.freq_hz);
  return h->clock_offset_s * NS_PER_S + (gint64) ns;
}

static gint64
host_local_time (const SlGenerate *self,
                 const Host       *h,
                 gint64            true_ns)
{
  gint64 dt = true_ns - self->options.start_ns;

  return true_ns + h->pub.offset_ns + (gint64) llround (h->drift * (double) dt + wander_ns (h, dt));
}

gint64
sl_generate_local_time (const SlGenerate *self,
                        guint             host,
                        gint64            true_ns)
{
  g_return_val_if_fail (self != NULL && host < self->hosts->len, 0);
  return host_local_time (self, host_at (self, host), true_ns);
}

/* What babeltrace2 prints (ns from the epoch) for an event written at
 * @true_ns; needs sl_generate_prepare() or a loaded ground truth. */
gint64
sl_generate_trace_time (const SlGenerate *self,
                        guint             host,
                        gint64            true_ns)
{
  const Host *h;

  g_return_val_if_fail (self != NULL && host < self->hosts->len, 0);
  h = host_at (self, host);
  return cycles_to_trace_ns (h, host_cycles (self, h, true_ns));
}

/* The linear part of the relation local(@from) → local(@to); wander, if
 * any, adds at most sl_generate_wander_bound_ns() to it. */
void
sl_generate_true_transform (const SlGenerate *self,
                            guint             from,
                            guint             to,
                            SlTransform      *out)
{
  const Host *f, *t;
  SlTransform lf, lt, inv;
  gint64 s;

  g_return_if_fail (self != NULL && out != NULL);
  g_return_if_fail (from < self->hosts->len && to < self->hosts->len);

  f = host_at (self, from);
  t = host_at (self, to);
  s = self->options.start_ns;
  sl_transform_init (&lf, s, s + f->pub.offset_ns, 0.0, f->pub.drift_ppm * 1e-6);
  sl_transform_init (&lt, s, s + t->pub.offset_ns, 0.0, t->pub.drift_ppm * 1e-6);
  sl_transform_invert (&lf, &inv);
  sl_transform_compose (&lt, &inv, out);
}

gboolean
sl_generate_true_transform_by_name (const SlGenerate  *self,
                                    const char        *from,
                                    const char        *to,
                                    SlTransform       *out,
                                    GError           **error)
{
  guint f = sl_generate_find_host (self, from), t = sl_generate_find_host (self, to);

  if (f == NONE || t == NONE)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "no host named “%s” in the ground truth",
                   f == NONE ? from : to);
      return FALSE;
    }
  sl_generate_true_transform (self, f, t, out);
  return TRUE;
}

/* Largest distance between the true relation of two wandering clocks and
 * its linear part, in ns of the target clock. */
double
sl_generate_wander_bound_ns (const SlGenerate *self,
                             guint             from,
                             guint             to)
{
  const Host *f, *t;

  g_return_val_if_fail (from < self->hosts->len && to < self->hosts->len, 0);
  f = host_at (self, from);
  t = host_at (self, to);
  return 2 * (f->wander_amp_ns + t->wander_amp_ns) * (1 + 1e-3) + 1;
}

/* Scenario */

static const guint64 auto_freqs[] = {
  1000000000, 1000000000, 1000000000, 2400000000, 3000000000, 1500000000,
};

static const struct
{
  guint16     port;
  const char *comm;
} servers[] = {
  { 5432, "postgres" }, { 6379, "redis-server" }, { 443, "nginx" }, { 8080, "java" },
  { 11211, "memcached" }, { 3306, "mysqld" }, { 9092, "java" }, { 2379, "etcd" },
};

static const char *const clients[] = {
  "python3", "gunicorn", "node", "java", "php-fpm", "uwsgi",
};

static const struct
{
  const char *comm;
  guint       threads;
} daemons[] = {
  { "systemd-journal", 1 }, { "sshd", 1 }, { "bash", 1 }, { "rsyslogd", 3 }, { "cron", 1 },
  { "containerd", 6 }, { "node_exporter", 4 }, { "dockerd", 8 }, { "chronyd", 1 },
  { "snapd", 6 }, { "kubelet", 12 }, { "prometheus", 10 }, { "java", 24 },
};

static const char *const exec_files[] = {
  "/usr/bin/date", "/usr/bin/ls", "/bin/sh", "/usr/bin/awk", "/usr/sbin/logrotate",
  "/usr/bin/curl", "/usr/bin/grep", "/usr/lib/update-notifier/apt-check",
};

static void
auto_hosts (SlGenerate *self)
{
  const SlGenerateOptions *o = &self->options;
  Rng *r = &self->scenario_rng;
  guint n = o->n_hosts;
  int width = n >= 100 ? 3 : 2;

  for (guint i = 0; i < n; i++)
    {
      SlGenerateHost h = { 0 };
      double lo = log (1000.0), hi = log ((double) MAX (o->max_offset_ns, 1001));
      double mag = exp (lo + rng_double (r) * (hi - lo));

      h.name = g_strdup_printf ("node-%0*u", width, i + 1);
      h.freq_hz = auto_freqs[rng_below (r, G_N_ELEMENTS (auto_freqs))];
      h.offset_ns = (gint64) mag * (rng_below (r, 2) ? 1 : -1);
      h.drift_ppm = (2 * rng_double (r) - 1) * o->max_drift_ppm;
      h.wander_ppm = o->wander_ppm;
      h.wander_period_s = o->wander_period_s;
      sl_generate_add_host (self, &h, NULL);
      g_free (h.name);
    }
}

static void
auto_links (SlGenerate *self)
{
  Rng *r = &self->scenario_rng;
  guint n = self->hosts->len;
  guint k = CLAMP (self->options.components, 1, MAX (n, 1));

  for (guint c = 0; c < k; c++)
    {
      guint lo = c * n / k, hi = (c + 1) * n / k, m = hi - lo;

      /* a random tree, the newer host being the client, plus a few chords */
      for (guint j = 1; j < m; j++)
        {
          Link l = { 0 };
          l.pub.a = lo + j;
          l.pub.b = lo + rng_below (r, j);
          g_array_append_val (self->links, l);
        }
      for (guint e = 0; m >= 4 && e < m / 4; e++)
        {
          guint a = lo + rng_below (r, m), b = lo + rng_below (r, m);
          gboolean dup = a == b;

          for (guint i = 0; i < self->links->len && !dup; i++)
            {
              const Link *o = link_at (self, i);
              dup = (o->pub.a == a && o->pub.b == b) || (o->pub.a == b && o->pub.b == a);
            }
          if (!dup)
            {
              Link l = { 0 };
              l.pub.a = a;
              l.pub.b = b;
              g_array_append_val (self->links, l);
            }
        }
    }
}

static guint
add_thread (Host       *h,
            const char *comm,
            gint32      tid,
            gint32      pid,
            gint32      ppid,
            gint32      prio,
            guint       cpu,
            guint8      kind)
{
  Thread t = { 0 };

  g_strlcpy (t.comm, comm, sizeof t.comm);
  t.tid = tid;
  t.pid = pid;
  t.ppid = ppid;
  t.prio = prio;
  t.cpu = (guint16) cpu;
  t.kind = kind;
  t.alive = 1;
  t.fd = 3 + (gint32) rng_below (&h->rng, 20);
  g_array_append_val (h->threads, t);
  return h->threads->len - 1;
}

static void
host_setup_threads (SlGenerate *self,
                    Host       *h)
{
  Rng *r = &h->rng;
  guint n_user = 0;

  h->threads = g_array_new (FALSE, TRUE, sizeof (Thread));
  h->cpu = g_new0 (Cpu, h->n_cpus);
  for (guint c = 0; c < h->n_cpus; c++)
    {
      g_autofree char *name = g_strdup_printf ("swapper/%u", c);

      h->cpu[c].idle = add_thread (h, name, 0, 0, 0, 20, c, THREAD_IDLE);
      h->cpu[c].current = h->cpu[c].idle;
      h->cpu[c].preempted = NONE;
      h->cpu[c].bg = g_array_new (FALSE, FALSE, sizeof (guint));
    }

  add_thread (h, "systemd", 1, 1, 0, 20, rng_below (r, h->n_cpus), THREAD_USER);
  add_thread (h, "kthreadd", 2, 2, 0, 20, 0, THREAD_KERNEL);
  add_thread (h, "rcu_sched", 10, 10, 2, 20, 0, THREAD_KERNEL);
  for (guint c = 0; c < h->n_cpus; c++)
    {
      g_autofree char *a = g_strdup_printf ("ksoftirqd/%u", c);
      g_autofree char *b = g_strdup_printf ("kworker/%u:1", c);
      g_autofree char *m = g_strdup_printf ("migration/%u", c);
      gint32 kthread = 11 + 6 * (gint32) c;

      add_thread (h, m, kthread, kthread, 2, -100, c, THREAD_KERNEL);
      add_thread (h, a, kthread + 1, kthread + 1, 2, 20, c, THREAD_KERNEL);
      add_thread (h, b, kthread + 2, kthread + 2, 2, 20, c, THREAD_KERNEL);
    }

  h->next_tid = 11 + 6 * (gint32) h->n_cpus + 300 + (gint32) rng_below (r, 700);
  h->shell = NONE;
  for (guint d = 0; d < G_N_ELEMENTS (daemons) && n_user < self->options.threads; d++)
    {
      gint32 pid = h->next_tid;

      for (guint k = 0; k < daemons[d].threads && n_user < self->options.threads; k++, n_user++)
        {
          guint ti = add_thread (h, daemons[d].comm, h->next_tid++, pid, 1, 20,
                                 rng_below (r, h->n_cpus), THREAD_USER);
          if (h->shell == NONE && g_strcmp0 (daemons[d].comm, "bash") == 0)
            h->shell = ti;
        }
      h->next_tid += (gint32) rng_below (r, 40);
    }

  for (guint i = 0; i < h->threads->len; i++)
    {
      Thread *t = thread_at (h, i);
      if (t->kind == THREAD_USER || t->kind == THREAD_KERNEL)
        g_array_append_val (h->cpu[t->cpu].bg, i);
      if (t->kind == THREAD_USER && h->shell == NONE)
        h->shell = i;
    }

  h->client_comm = clients[rng_below (r, G_N_ELEMENTS (clients))];
  h->client_pid = 0;
  h->server_pid = 0;
}

static guint
app_thread (Host       *h,
            gboolean    server,
            const char *comm)
{
  gint32 *pid = server ? &h->server_pid : &h->client_pid;
  guint ti;
  Thread *t;

  if (*pid == 0)
    {
      /* the process's main thread waits for its workers the whole time */
      *pid = h->next_tid;
      h->next_tid += 1 + (gint32) rng_below (&h->rng, 20);
      ti = add_thread (h, comm, *pid, *pid, 1, 20, rng_below (&h->rng, h->n_cpus), THREAD_APP);
      thread_at (h, ti)->blocked = SC_FUTEX;
    }
  ti = add_thread (h, comm, h->next_tid++, *pid, 1, 20, rng_below (&h->rng, h->n_cpus), THREAD_APP);
  t = thread_at (h, ti);
  t->fd = 8 + (gint32) rng_below (&h->rng, 200);
  t->blocked = server ? SC_EPOLL : SC_FUTEX;
  return ti;
}

static void
set_addr4 (guint8 addr[16],
           const guint8 a4[4])
{
  memset (addr, 0, 16);
  memcpy (addr, a4, 4);
}

static guint16
ip_checksum (const guint8 *hdr,
             gsize         n)
{
  guint32 sum = 0;

  for (gsize i = 0; i + 1 < n; i += 2)
    sum += (guint32) (hdr[i] << 8 | hdr[i + 1]);
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (guint16) ~sum;
}

static void schedule (SlGenerate *self, Item *it);

static gboolean
setup_scenario (SlGenerate  *self,
                GError     **error)
{
  const SlGenerateOptions *o = &self->options;
  Rng *r = &self->scenario_rng;

  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = host_at (self, i);
      guint64 id = (guint64) i + 1;

      rng_init (&h->rng, o->seed, 1000 + id);
      h->n_cpus = h->pub.cpus > 0 ? h->pub.cpus : o->cpus;
      h->pub.cpus = h->n_cpus;
      h->boot_age_ns = (guint64) rng_range (r, 3600 * NS_PER_S, 40 * 86400 * NS_PER_S);
      if (o->start_ns + h->pub.offset_ns < 0)
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                       "host “%s”: its clock would read before the epoch", h->pub.name);
          return FALSE;
        }
      host_setup_clock (self, h);
      for (guint k = 0; k < 16; k++)
        {
          h->boot_id[k] = (guint8) rng_u64 (r);
          h->trace_uuid[k] = (guint8) rng_u64 (r);
        }
      h->boot_id[6] = (h->boot_id[6] & 0x0f) | 0x40;
      h->boot_id[8] = (h->boot_id[8] & 0x3f) | 0x80;
      h->trace_uuid[6] = (h->trace_uuid[6] & 0x0f) | 0x40;
      h->trace_uuid[8] = (h->trace_uuid[8] & 0x3f) | 0x80;
      h->addr4[0] = 10;
      h->addr4[1] = 1;
      h->addr4[2] = (guint8) ((i + 1) >> 8);
      h->addr4[3] = (guint8) (i + 1);
      memset (h->addr6, 0, 16);
      h->addr6[0] = 0xfd;
      h->addr6[3] = 0x5c;
      h->addr6[14] = (guint8) ((i + 1) >> 8);
      h->addr6[15] = (guint8) (i + 1);
      h->ip_id = (guint16) rng_u64 (r);
      h->skb_base = G_GUINT64_CONSTANT (0xffff888000000000) |
                    ((rng_u64 (r) & G_GUINT64_CONSTANT (0x3fff0000)) << 8);
      h->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
      host_setup_threads (self, h);
      self->total_cpus += h->n_cpus;
    }

  for (guint li = 0; li < self->links->len; li++)
    {
      Link *l = link_at (self, li);
      Host *ha = host_at (self, l->pub.a), *hb = host_at (self, l->pub.b);
      guint sv = li % G_N_ELEMENTS (servers);
      double rate = l->pub.rate > 0 ? l->pub.rate : o->link_rate;
      guint nc = MAX (o->connections, 1);

      l->pub.rate = rate;
      l->server_port = servers[sv].port;
      l->base_latency = o->min_latency_ns + (gint64) (rng_double (r) * (double) o->min_latency_ns * 0.5);
      l->first_conn = self->conns->len;
      l->n_conns = nc;

      for (guint k = 0; k < nc; k++)
        {
          Conn c = { 0 };
          Item it = { 0 };

          c.link = li;
          c.host[0] = l->pub.a;
          c.host[1] = l->pub.b;
          c.thread[0] = app_thread (ha, FALSE, ha->client_comm);
          c.thread[1] = app_thread (hb, TRUE, servers[sv].comm);
          c.rx_cpu[0] = rng_below (r, ha->n_cpus);
          c.rx_cpu[1] = rng_below (r, hb->n_cpus);
          c.family = o->ip == SL_GENERATE_IP_6 ? 6 :
                     o->ip == SL_GENERATE_IP_MIX ? (rng_below (r, 2) ? 6 : 4) : 4;
          c.port[0] = (guint16) (32768 + rng_below (r, 28000));
          c.port[1] = l->server_port;
          c.window[0] = (guint16) (500 + rng_below (r, 3000));
          c.window[1] = (guint16) (500 + rng_below (r, 3000));
          c.snd_nxt[0] = (guint32) rng_u64 (r);
          c.snd_nxt[1] = (guint32) rng_u64 (r);
          /* segments per transaction: request, ~2 response segments, ~1 ACK */
          c.txn_gap_ns = 1e9 / (rate / nc / 3.8);
          it.aux = self->conns->len;
          it.host = c.host[0];

          if (rng_chance (r, 0.5))
            {
              /* opened before tracing started */
              c.established = 1;
              c.syn_seen = 1;
              c.rcv_nxt[0] = c.rcv_high[0] = c.acked[1] = c.snd_nxt[1];
              c.rcv_nxt[1] = c.rcv_high[1] = c.acked[0] = c.snd_nxt[0];
              it.kind = IT_TXN;
              it.t = o->start_ns + rng_exp (r, c.txn_gap_ns);
            }
          else
            {
              it.kind = IT_CONNECT;
              it.t = o->start_ns + 10 * US + rng_range (r, 0, MIN (50 * MS, o->duration_ns / 10));
            }
          g_array_append_val (self->conns, c);
          schedule (self, &it);
        }
    }
  return TRUE;
}

/* Creates the automatic hosts (SlGenerateOptions.n_hosts) if none was
 * added, so that links can name them. */
gboolean
sl_generate_prepare_hosts (SlGenerate  *self,
                           GError     **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->hosts->len > 0)
    return TRUE;
  if (self->options.n_hosts < 1 || self->options.n_hosts > 4096)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "hosts must be from 1 to 4096");
      return FALSE;
    }
  auto_hosts (self);
  return TRUE;
}

/* Completes the scenario: automatic hosts and links if none were added,
 * clocks, processes and connections. sl_generate_run() calls it. */
gboolean
sl_generate_prepare (SlGenerate  *self,
                     GError     **error)
{
  const SlGenerateOptions *o;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->prepared)
    return TRUE;
  o = &self->options;

  if (o->duration_ns < MS || o->duration_ns > 30 * 86400 * NS_PER_S)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "duration must be from 1 ms to 30 days");
      return FALSE;
    }
  if (o->start_ns < 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "start must not be before the epoch");
      return FALSE;
    }
  if (o->cpus < 1 || o->cpus > 256)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "CPUs per host must be from 1 to 256");
      return FALSE;
    }
  if (!(o->loss >= 0 && o->loss < 0.5) || !(o->duplicate >= 0 && o->duplicate < 0.5))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "loss and duplicate must be in [0, 0.5)");
      return FALSE;
    }
  if (o->packet_size < 4096 || o->packet_size > 64 * 1024 * 1024 || o->packet_size % 4096 != 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "packet size must be a multiple of 4 KiB from 4 KiB to 64 MiB");
      return FALSE;
    }
  if (o->min_latency_ns < 1000 || o->jitter_ns < 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "minimum latency must be at least 1 µs");
      return FALSE;
    }

  if (!sl_generate_prepare_hosts (self, error))
    return FALSE;
  if (self->links->len == 0)
    auto_links (self);

  if (!setup_scenario (self, error))
    return FALSE;
  self->prepared = TRUE;
  return TRUE;
}

/* The event queue */

static inline gboolean
item_less (const Item *x,
           const Item *y)
{
  return x->t < y->t || (x->t == y->t && x->tie < y->tie);
}

static void
schedule (SlGenerate *self,
          Item       *it)
{
  Item *h;
  guint i;

  it->tie = self->tie++;
  g_array_append_val (self->heap, *it);
  h = (Item *) (gpointer) self->heap->data;
  for (i = self->heap->len - 1; i > 0; )
    {
      guint parent = (i - 1) / 2;
      Item tmp;

      if (!item_less (&h[i], &h[parent]))
        break;
      tmp = h[i];
      h[i] = h[parent];
      h[parent] = tmp;
      i = parent;
    }
}

static void
heap_pop (SlGenerate *self,
          Item       *out)
{
  Item *h = (Item *) (gpointer) self->heap->data;
  guint n = self->heap->len - 1, i = 0;
  Item last;

  *out = h[0];
  last = h[n];
  g_array_set_size (self->heap, n);
  if (n == 0)
    return;
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m;

      if (l >= n)
        break;
      m = (r < n && item_less (&h[r], &h[l])) ? r : l;
      if (!item_less (&h[m], &last))
        break;
      h[i] = h[m];
      i = m;
    }
  h[i] = last;
}

/* Event writers. Each returns the true time the event was written at:
 * never before the CPU's previous event. */

static inline gint64
ev_begin (SlGenerate *self,
          Host       *h,
          guint       cpu,
          gint64      t,
          guint       id,
          gsize       max_payload)
{
  Cpu *c = &h->cpu[cpu];

  if (t < c->last)
    t = c->last;
  c->last = t;
  self->last_cycles = host_cycles (self, h, t);
  sl_ctf_stream_begin_event (c->stream, id, self->last_cycles, max_payload);
  h->events++;
  self->stats.events++;
  return t;
}

static inline void
ev_end (Host  *h,
        guint  cpu)
{
  sl_ctf_stream_end_event (h->cpu[cpu].stream);
}

static inline gint64
step (Host *h)
{
  return 250 + (gint64) rng_below (&h->rng, 1500);
}

static inline guint64
user_addr (const Thread *th,
           guint         salt)
{
  return G_GUINT64_CONSTANT (0x7f0000000000) |
         (((guint64) (guint32) th->tid * 0x9e3779b1u + salt * 0x1000u) & G_GUINT64_CONSTANT (0xfffffff0));
}

static gint64
emit_switch (SlGenerate *self,
             Host       *h,
             guint       cpu,
             gint64      t,
             guint       prev,
             gint64      prev_state,
             guint       next)
{
  SlCtfStream *s = h->cpu[cpu].stream;
  const Thread *p = thread_at (h, prev), *n = thread_at (h, next);

  t = ev_begin (self, h, cpu, t, EV_SCHED_SWITCH, 56);
  sl_ctf_put_bytes (s, p->comm, 16);
  sl_ctf_put_i32 (s, p->tid);
  sl_ctf_put_i32 (s, p->prio);
  sl_ctf_put_i64 (s, prev_state);
  sl_ctf_put_bytes (s, n->comm, 16);
  sl_ctf_put_i32 (s, n->tid);
  sl_ctf_put_i32 (s, n->prio);
  ev_end (h, cpu);
  h->cpu[cpu].current = next;
  return t;
}

static gint64
emit_wakeup (SlGenerate *self,
             Host       *h,
             guint       cpu,
             gint64      t,
             guint       ti,
             guint       id)
{
  SlCtfStream *s = h->cpu[cpu].stream;
  const Thread *th = thread_at (h, ti);

  t = ev_begin (self, h, cpu, t, id, 28);
  sl_ctf_put_bytes (s, th->comm, 16);
  sl_ctf_put_i32 (s, th->tid);
  sl_ctf_put_i32 (s, th->prio);
  sl_ctf_put_i32 (s, th->cpu);
  ev_end (h, cpu);
  return t;
}

static gint64
emit_syscall_entry (SlGenerate   *self,
                    Host         *h,
                    guint         cpu,
                    gint64        t,
                    guint         sc,
                    const Thread *th,
                    guint64       size,
                    gboolean      blocking)
{
  SlCtfStream *s = h->cpu[cpu].stream;

  t = ev_begin (self, h, cpu, t, EV_READ_ENTRY + 2 * (sc - 1), 40);
  switch (sc)
    {
    case SC_READ:
      sl_ctf_put_u32 (s, (guint32) th->fd);
      sl_ctf_put_u64 (s, size);
      break;
    case SC_WRITE:
      sl_ctf_put_u32 (s, (guint32) th->fd);
      sl_ctf_put_u64 (s, user_addr (th, 1));
      sl_ctf_put_u64 (s, size);
      break;
    case SC_EPOLL:
      sl_ctf_put_i32 (s, 4);
      sl_ctf_put_i32 (s, 1024);
      sl_ctf_put_i32 (s, blocking ? -1 : 0);
      break;
    case SC_FUTEX:
      sl_ctf_put_u64 (s, user_addr (th, 2));
      sl_ctf_put_i32 (s, blocking ? 128 : 129);
      sl_ctf_put_u32 (s, blocking ? 0 : 1);
      sl_ctf_put_u64 (s, 0);
      sl_ctf_put_u64 (s, 0);
      sl_ctf_put_u32 (s, 0);
      break;
    case SC_SENDTO:
      sl_ctf_put_i32 (s, th->fd);
      sl_ctf_put_u64 (s, user_addr (th, 3));
      sl_ctf_put_u64 (s, size);
      sl_ctf_put_u32 (s, 0x4000);
      sl_ctf_put_u64 (s, 0);
      sl_ctf_put_i32 (s, 0);
      break;
    case SC_RECVFROM:
      sl_ctf_put_i32 (s, th->fd);
      sl_ctf_put_u64 (s, size);
      sl_ctf_put_u32 (s, blocking ? 0 : 0x40);
      break;
    default:
      g_assert_not_reached ();
    }
  ev_end (h, cpu);
  return t;
}

static gint64
emit_syscall_exit (SlGenerate   *self,
                   Host         *h,
                   guint         cpu,
                   gint64        t,
                   guint         sc,
                   const Thread *th,
                   gint64        ret)
{
  SlCtfStream *s = h->cpu[cpu].stream;

  t = ev_begin (self, h, cpu, t, EV_READ_EXIT + 2 * (sc - 1), 32);
  sl_ctf_put_i64 (s, ret);
  switch (sc)
    {
    case SC_READ:
      sl_ctf_put_u64 (s, user_addr (th, 4));
      break;
    case SC_EPOLL:
      sl_ctf_put_u64 (s, user_addr (th, 5));
      break;
    case SC_FUTEX:
      sl_ctf_put_u64 (s, user_addr (th, 2));
      sl_ctf_put_u64 (s, 0);
      break;
    case SC_RECVFROM:
      sl_ctf_put_u64 (s, user_addr (th, 6));
      sl_ctf_put_u64 (s, 0);
      sl_ctf_put_u64 (s, 0);
      break;
    default:
      break;
    }
  ev_end (h, cpu);
  return t;
}

static gint64
emit_irq (SlGenerate *self,
          Host       *h,
          guint       cpu,
          gint64      t,
          gboolean    entry,
          gint32      irq,
          const char *name)
{
  SlCtfStream *s = h->cpu[cpu].stream;

  t = ev_begin (self, h, cpu, t, entry ? EV_IRQ_ENTRY : EV_IRQ_EXIT, 8 + 64);
  sl_ctf_put_i32 (s, irq);
  if (entry)
    sl_ctf_put_string (s, name);
  else
    sl_ctf_put_i32 (s, 1);
  ev_end (h, cpu);
  return t;
}

static gint64
emit_softirq (SlGenerate *self,
              Host       *h,
              guint       cpu,
              gint64      t,
              guint       id,
              guint32     vec)
{
  t = ev_begin (self, h, cpu, t, id, 4);
  sl_ctf_put_u32 (h->cpu[cpu].stream, vec);
  ev_end (h, cpu);
  return t;
}

static void
put_be16 (guint8  *p,
          guint16  v)
{
  p[0] = (guint8) (v >> 8);
  p[1] = (guint8) v;
}

static void
put_be32 (guint8  *p,
          guint32  v)
{
  p[0] = (guint8) (v >> 24);
  p[1] = (guint8) (v >> 16);
  p[2] = (guint8) (v >> 8);
  p[3] = (guint8) v;
}

/* Header copies are written byte for byte as lttng-modules copies them
 * from the skb; the metadata declares them big-endian. TCP headers carry
 * the timestamp option (data offset 8), as Linux sends them. */
static gint64
emit_net (SlGenerate *self,
          Host       *h,
          guint       cpu,
          gint64      t,
          gboolean    send,
          const Wire *w)
{
  SlCtfStream *s = h->cpu[cpu].stream;
  gboolean legacy = self->options.variant == SL_GENERATE_VARIANT_LEGACY;
  guint th_len = w->proto == 6 ? 32 : 8;
  guint ip_total = w->family == 4 ? 20 + th_len + w->payload :
                   w->family == 6 ? 40 + th_len + w->payload : 28;
  guint8 hdr[40];

  t = ev_begin (self, h, cpu, t, send ? EV_NET_DEV_QUEUE : EV_NET_IF_RECEIVE_SKB, 128);
  sl_ctf_put_u64 (s, h->skb_base + (guint64) (h->skb_slot++ % N_SKB_SLOTS) * 0x100);
  sl_ctf_put_u32 (s, send ? 14 + ip_total : ip_total);
  sl_ctf_put_string (s, w->lo ? "lo" : "eth0");
  sl_ctf_put_u8 (s, w->family == 4 ? 1 : w->family == 6 ? 2 : 0);

  if (w->family == 4)
    {
      hdr[0] = 0x45;
      hdr[1] = 0;
      put_be16 (hdr + 2, (guint16) ip_total);
      put_be16 (hdr + 4, w->ip_id);
      put_be16 (hdr + 6, 0x4000);
      hdr[8] = 64;
      hdr[9] = w->proto;
      put_be16 (hdr + 10, 0);
      memcpy (hdr + 12, w->saddr, 4);
      memcpy (hdr + 16, w->daddr, 4);
      put_be16 (hdr + 10, ip_checksum (hdr, 20));
      sl_ctf_put_bytes (s, hdr, 20);
    }
  else if (w->family == 6)
    {
      guint32 flow = ((guint32) w->sport * 2654435761u ^ w->dport) & 0xfffff;

      put_be32 (hdr, (6u << 28) | flow);
      put_be16 (hdr + 4, (guint16) (th_len + w->payload));
      hdr[6] = w->proto;
      hdr[7] = 64;
      memcpy (hdr + 8, w->saddr, 16);
      memcpy (hdr + 24, w->daddr, 16);
      sl_ctf_put_bytes (s, hdr, 40);
    }

  if (w->family != 0)
    {
      if (!legacy)
        sl_ctf_put_u8 (s, w->proto == 6 ? 1 : w->proto == 17 ? 2 : w->proto == 1 ? 3 : 0);
      if (w->proto == 6)
        {
          put_be16 (hdr, w->sport);
          put_be16 (hdr + 2, w->dport);
          put_be32 (hdr + 4, w->seq);
          put_be32 (hdr + 8, w->ack);
          hdr[12] = (guint8) ((8 << 4) | ((w->flags >> 8) & 1));
          hdr[13] = (guint8) w->flags;
          put_be16 (hdr + 14, w->window);
          put_be16 (hdr + 16, w->checksum);
          put_be16 (hdr + 18, 0);
          sl_ctf_put_bytes (s, hdr, 20);
        }
      else if (w->proto == 17)
        {
          put_be16 (hdr, w->sport);
          put_be16 (hdr + 2, w->dport);
          put_be16 (hdr + 4, (guint16) (8 + w->payload));
          put_be16 (hdr + 6, w->checksum);
          sl_ctf_put_bytes (s, hdr, 8);
        }
      else if (w->proto == 1)
        {
          hdr[0] = w->icmp_type;
          hdr[1] = 0;
          put_be16 (hdr + 2, w->checksum);
          put_be16 (hdr + 4, w->sport);
          put_be16 (hdr + 6, w->dport);
          sl_ctf_put_bytes (s, hdr, 8);
        }
    }
  ev_end (h, cpu);

  if (self->packet_func != NULL && w->proto == 6 && w->family != 0)
    {
      SlPacketEvent ev = { 0 };

      ev.host = h->index;
      ev.dir = send ? SL_PACKET_SEND : SL_PACKET_RECV;
      ev.time = cycles_to_trace_ns (h, self->last_cycles);
      ev.family = w->family;
      ev.sport = w->sport;
      ev.dport = w->dport;
      ev.seq = w->seq;
      ev.ack_seq = w->ack;
      ev.flags = w->flags;
      memcpy (ev.saddr, w->saddr, 16);
      memcpy (ev.daddr, w->daddr, 16);
      self->packet_func (&ev, t, self->packet_data);
    }
  return t;
}

/* Keeps, per host and direction, the first two data segments and then one
 * every eighth of the trace, so tests can check written timestamps over the
 * whole span (timestamp wrap-arounds included). */
static void
record_sample (SlGenerate *self,
               Host       *h,
               guint       cpu,
               gint64      t,
               gboolean    send,
               const Wire *w)
{
  guint dir = send ? 0 : 1;
  Sample sm;

  if (w->payload == 0 || t < h->next_sample[dir])
    return;
  if (++h->n_samples[dir] >= 2)
    h->next_sample[dir] = t + self->options.duration_ns / 8;
  sm.dir = (guint8) dir;
  sm.cpu = (guint16) cpu;
  sm.seq = w->seq;
  sm.len = (send ? 14 : 0) + (w->family == 4 ? 20 : 40) + 32 + w->payload;
  sm.sport = w->sport;
  sm.true_ns = t;
  sm.cycles = self->last_cycles;
  g_array_append_val (h->samples, sm);
}

static gint64
emit_statedump (SlGenerate *self,
                Host       *h,
                gint64      t)
{
  SlCtfStream *s = h->cpu[0].stream;

  t = ev_begin (self, h, 0, t, EV_STATEDUMP_START, 0);
  ev_end (h, 0);
  for (guint i = 0; i < h->threads->len; i++)
    {
      Thread *th = thread_at (h, i);

      if (th->kind == THREAD_IDLE)
        continue;
      /* kernel threads sleep until woken; background user threads are
       * ready (they are switched in without a wake-up) */
      th->status = th->blocked != SC_NONE || th->kind == THREAD_KERNEL ? DUMP_WAIT : DUMP_WAIT_CPU;
      t = ev_begin (self, h, 0, t + 700 + rng_below (&h->rng, 800), EV_STATEDUMP_PROCESS, 60);
      th->born_cycles = self->last_cycles;
      sl_ctf_put_i32 (s, th->tid);
      sl_ctf_put_i32 (s, th->tid);
      sl_ctf_put_i32 (s, th->pid);
      sl_ctf_put_i32 (s, th->pid);
      sl_ctf_put_i32 (s, th->ppid);
      sl_ctf_put_i32 (s, th->ppid);
      sl_ctf_put_bytes (s, th->comm, 16);
      sl_ctf_put_i32 (s, th->kind == THREAD_KERNEL ? 1 : 0);
      sl_ctf_put_i32 (s, DUMP_MODE_UNKNOWN);
      sl_ctf_put_i32 (s, DUMP_SUBMODE_NONE);
      sl_ctf_put_i32 (s, th->status);
      sl_ctf_put_i32 (s, th->cpu);
      ev_end (h, 0);
    }
  t = ev_begin (self, h, 0, t + 1000, EV_STATEDUMP_END, 0);
  ev_end (h, 0);
  return t;
}

/* Scheduling helpers */

static gint64
resume_ret (Host  *h,
            guint  sc)
{
  switch (sc)
    {
    case SC_READ:
      return 1 + rng_below (&h->rng, 4096);
    case SC_EPOLL:
      return 1 + rng_below (&h->rng, 2);
    default:
      return 0;
    }
}

/* Makes @ti run on @cpu (it must be homed there), finishing the system
 * call it was blocked in with @ret. */
static gint64
run_thread (SlGenerate *self,
            Host       *h,
            guint       cpu,
            gint64      t,
            guint       ti,
            gboolean    wake,
            gint64      ret)
{
  Cpu *c = &h->cpu[cpu];
  Thread *th = thread_at (h, ti);

  g_assert (th->cpu == cpu);

  if (c->current != ti)
    {
      const Thread *cur = thread_at (h, c->current);

      if (wake)
        t = emit_wakeup (self, h, cpu, t, ti, EV_SCHED_WAKEUP) + step (h);
      if (th->kind == THREAD_APP && (cur->kind == THREAD_USER || cur->kind == THREAD_KERNEL))
        c->preempted = c->current;
      t = emit_switch (self, h, cpu, t, c->current, TASK_RUNNING, ti) + step (h);
    }
  if (th->blocked != SC_NONE)
    {
      guint sc = th->blocked;

      th->blocked = SC_NONE;
      t = emit_syscall_exit (self, h, cpu, t, sc, th, ret) + step (h);
    }
  return t;
}

/* Switches @ti out (it sleeps, or dies) to the thread it preempted, or to
 * the idle thread. */
static gint64
block_thread (SlGenerate *self,
              Host       *h,
              guint       cpu,
              gint64      t,
              guint       ti,
              gint64      state)
{
  Cpu *c = &h->cpu[cpu];
  guint next = c->preempted != NONE ? c->preempted : c->idle;

  c->preempted = NONE;
  if (c->current != ti)
    return t;
  return emit_switch (self, h, cpu, t, ti, state, next);
}

/* Background activity */

static const struct
{
  gint32      irq;
  const char *name;
} devices[] = {
  { 27, "ahci[0000:00:1f.2]" }, { 16, "ehci_hcd:usb1" }, { 11, "virtio2" }, { 1, "i8042" },
  { 19, "nvme0q1" },
};

static gint64
bg_irq (SlGenerate *self,
        Host       *h,
        guint       cpu,
        gint64      t)
{
  guint d = rng_below (&h->rng, G_N_ELEMENTS (devices));

  t = emit_irq (self, h, cpu, t, TRUE, devices[d].irq, devices[d].name);
  return emit_irq (self, h, cpu, t + 800 + rng_exp (&h->rng, 3000), FALSE, devices[d].irq, NULL);
}

static gint64
bg_softirq (SlGenerate *self,
            Host       *h,
            guint       cpu,
            gint64      t)
{
  double u = rng_double (&h->rng);
  guint32 vec = u < 0.6 ? SOFTIRQ_TIMER : u < 0.85 ? SOFTIRQ_RCU : SOFTIRQ_SCHED;

  t = emit_softirq (self, h, cpu, t, EV_SOFTIRQ_RAISE, vec) + step (h);
  t = emit_softirq (self, h, cpu, t, EV_SOFTIRQ_ENTRY, vec);
  return emit_softirq (self, h, cpu, t + 600 + rng_exp (&h->rng, 4000), EV_SOFTIRQ_EXIT, vec);
}

static gint64
bg_syscall (SlGenerate *self,
            Host       *h,
            guint       cpu,
            gint64      t,
            guint       ti)
{
  Rng *r = &h->rng;
  Thread *th = thread_at (h, ti);
  double u = rng_double (r);
  guint64 size = 1 + rng_below (r, 8192);
  guint sc;
  gint64 ret;

  if (u < 0.3)
    sc = SC_READ, ret = (gint64) rng_below (r, (guint32) size + 1);
  else if (u < 0.5)
    sc = SC_WRITE, ret = (gint64) size;
  else if (u < 0.65)
    sc = SC_FUTEX, ret = rng_below (r, 2);
  else if (u < 0.8)
    sc = SC_EPOLL, ret = rng_below (r, 2);
  else if (u < 0.9)
    sc = SC_RECVFROM, ret = -11;
  else
    sc = SC_SENDTO, ret = (gint64) size;

  t = emit_syscall_entry (self, h, cpu, t, sc, th, size, FALSE);
  return emit_syscall_exit (self, h, cpu, t + 300 + rng_exp (r, 3000), sc, th, ret);
}

static gint64
bg_block (SlGenerate *self,
          Host       *h,
          guint       cpu,
          gint64      t,
          guint       ti)
{
  Rng *r = &h->rng;
  Thread *th = thread_at (h, ti);
  double u = rng_double (r);
  guint sc = u < 0.5 ? SC_FUTEX : u < 0.8 ? SC_EPOLL : SC_READ;

  t = emit_syscall_entry (self, h, cpu, t, sc, th, 4096, TRUE) + step (h);
  th->blocked = (guint8) sc;
  return block_thread (self, h, cpu, t, ti, TASK_INTERRUPTIBLE);
}

static void
handle_cpu (SlGenerate *self,
            Item       *it)
{
  Host *h = host_at (self, it->host);
  guint cpu = it->aux;
  Cpu *c = &h->cpu[cpu];
  Rng *r = &h->rng;
  gint64 t = MAX (it->t, c->last);
  const Thread *cur;
  guint64 before = h->events;
  double u;

  if (!isfinite (self->bg_gap_ns))
    {
      it->t = self->control_mark_t + self->control_step;
      schedule (self, it);
      return;
    }

  cur = thread_at (h, c->current);
  u = rng_double (r);
  if (cur->kind == THREAD_IDLE)
    {
      if (u < 0.45 && c->bg->len > 0)
        {
          guint ti = g_array_index (c->bg, guint, rng_below (r, c->bg->len));
          const Thread *th = thread_at (h, ti);
          guint sc = th->blocked;

          t = run_thread (self, h, cpu, t, ti, sc != SC_NONE || th->kind == THREAD_KERNEL,
                          resume_ret (h, sc));
        }
      else if (u < 0.7)
        t = bg_irq (self, h, cpu, t);
      else
        t = bg_softirq (self, h, cpu, t);
    }
  else if (cur->kind == THREAD_APP)
    {
      t = u < 0.5 ? bg_irq (self, h, cpu, t) : bg_softirq (self, h, cpu, t);
    }
  else if (cur->kind == THREAD_KERNEL)
    {
      if (u < 0.6)
        t = block_thread (self, h, cpu, t, c->current, TASK_INTERRUPTIBLE);
      else
        t = u < 0.8 ? bg_irq (self, h, cpu, t) : bg_softirq (self, h, cpu, t);
    }
  else
    {
      if (u < 0.5)
        t = bg_syscall (self, h, cpu, t, c->current);
      else if (u < 0.65)
        t = bg_block (self, h, cpu, t, c->current);
      else if (u < 0.78 && c->bg->len > 1)
        {
          guint ti = g_array_index (c->bg, guint, rng_below (r, c->bg->len));
          guint sc = thread_at (h, ti)->blocked;

          if (ti != c->current)
            t = run_thread (self, h, cpu, t, ti, sc != SC_NONE, resume_ret (h, sc));
        }
      else if (u < 0.9)
        t = bg_irq (self, h, cpu, t);
      else
        t = bg_softirq (self, h, cpu, t);
    }

  self->bg_events += h->events - before;
  self->bg_activities++;
  it->t = t + 1 + rng_exp (r, self->bg_gap_ns);
  schedule (self, it);
}

/* lttng-modules >= 2.8's sched_process_fork (without the vtids sequence):
 * the child's pid is its own tid for a new process, the parent's for a
 * thread */
static gint64
emit_fork (SlGenerate *self,
           Host       *h,
           guint       cpu,
           gint64      t,
           guint       parent,
           guint       child)
{
  SlCtfStream *s = h->cpu[cpu].stream;
  const Thread *p = thread_at (h, parent);
  Thread *c = thread_at (h, child);

  t = ev_begin (self, h, cpu, t, EV_FORK, 72);
  c->born_cycles = self->last_cycles;
  sl_ctf_put_bytes (s, p->comm, 16);
  sl_ctf_put_i32 (s, p->tid);
  sl_ctf_put_i32 (s, p->pid);
  sl_ctf_put_u32 (s, 4026531836u);
  sl_ctf_put_bytes (s, c->comm, 16);
  sl_ctf_put_i32 (s, c->tid);
  sl_ctf_put_i32 (s, c->pid);
  sl_ctf_put_u32 (s, 4026531836u);
  ev_end (h, cpu);
  return t;
}

/* The running thread @ti exits and is switched out for good. */
static gint64
emit_exit (SlGenerate *self,
           Host       *h,
           guint       cpu,
           gint64      t,
           guint       ti)
{
  SlCtfStream *s = h->cpu[cpu].stream;
  Thread *th = thread_at (h, ti);

  t = ev_begin (self, h, cpu, t, EV_EXIT, 24);
  th->exit_cycles = self->last_cycles;
  sl_ctf_put_bytes (s, th->comm, 16);
  sl_ctf_put_i32 (s, th->tid);
  sl_ctf_put_i32 (s, th->prio);
  ev_end (h, cpu);
  t = block_thread (self, h, cpu, t + 3 * US + rng_exp (&h->rng, 5 * US), ti, TASK_DEAD) + step (h);
  thread_at (h, ti)->alive = 0;
  return t;
}

static void
handle_proc (SlGenerate *self,
             Item       *it)
{
  Host *h = host_at (self, it->host);
  Rng *r = &h->rng;
  gint64 t = it->t;

  if (it->role == 0)
    {
      guint sh = h->shell, ci, cpu;
      const char *file = exec_files[rng_below (r, G_N_ELEMENTS (exec_files))];
      const char *base = strrchr (file, '/') + 1;
      SlCtfStream *s;
      Thread *parent, *child;
      Item next = *it;

      if (sh == NONE)
        return;
      cpu = thread_at (h, sh)->cpu;
      s = h->cpu[cpu].stream;
      t = run_thread (self, h, cpu, t, sh, TRUE, resume_ret (h, thread_at (h, sh)->blocked));
      parent = thread_at (h, sh);
      ci = add_thread (h, parent->comm, h->next_tid, h->next_tid, parent->pid, 20, cpu, THREAD_APP);
      h->next_tid++;
      parent = thread_at (h, sh);
      child = thread_at (h, ci);

      child->origin = ORIGIN_PROCESS;
      t = emit_fork (self, h, cpu, t, sh, ci);
      t = emit_wakeup (self, h, cpu, t + step (h), ci, EV_SCHED_WAKEUP_NEW) + step (h);
      t = emit_switch (self, h, cpu, t, sh, TASK_INTERRUPTIBLE, ci) + 20 * US + rng_exp (r, 30 * US);

      t = ev_begin (self, h, cpu, t, EV_EXEC, 8 + 64);
      sl_ctf_put_string (s, file);
      sl_ctf_put_i32 (s, child->tid);
      sl_ctf_put_i32 (s, child->tid);
      ev_end (h, cpu);
      memset (child->comm, 0, sizeof child->comm);
      g_strlcpy (child->comm, base, sizeof child->comm);

      next.role = 1;
      next.txn = ci;
      next.t = t + 300 * US + rng_exp (r, 2 * MS);
      schedule (self, &next);
    }
  else if (it->role == 1)
    {
      guint ci = it->txn, cpu = thread_at (h, ci)->cpu;

      t = run_thread (self, h, cpu, t, ci, FALSE, 0);
      t = emit_exit (self, h, cpu, t, ci);
      if (h->shell != NONE)
        emit_wakeup (self, h, cpu, t, h->shell, EV_SCHED_WAKEUP);

      it->role = 0;
      it->t = t + rng_exp (r, 2 * NS_PER_S);
      schedule (self, it);
    }
  else if (it->role == 2)
    {
      /* a daemon starts a thread of its own process: it preempts its
       * parent, does some work later and exits */
      guint pi = NONE, ci, cpu, n = 0;
      Cpu *c;
      Item next = *it;

      for (guint i = 0; i < h->threads->len; i++)
        {
          const Thread *th = thread_at (h, i);

          if (th->kind == THREAD_USER && th->alive && i != h->shell && th->origin == ORIGIN_DUMP &&
              rng_below (r, ++n) == 0)
            pi = i;
        }
      if (pi == NONE)
        return;
      cpu = thread_at (h, pi)->cpu;
      c = &h->cpu[cpu];
      t = run_thread (self, h, cpu, t, pi, thread_at (h, pi)->blocked != SC_NONE,
                      resume_ret (h, thread_at (h, pi)->blocked));
      ci = add_thread (h, thread_at (h, pi)->comm, h->next_tid, thread_at (h, pi)->pid, thread_at (h, pi)->ppid,
                       20, cpu, THREAD_APP);
      h->next_tid++;
      thread_at (h, ci)->origin = ORIGIN_THREAD;
      t = emit_fork (self, h, cpu, t, pi, ci);
      t = emit_wakeup (self, h, cpu, t + step (h), ci, EV_SCHED_WAKEUP_NEW) + step (h);
      t = emit_switch (self, h, cpu, t, pi, TASK_RUNNING, ci) + step (h);
      if (c->preempted == NONE)
        c->preempted = pi;

      next.role = 3;
      next.txn = ci;
      next.t = t + 200 * US + rng_exp (r, 5 * MS);
      schedule (self, &next);
    }
  else
    {
      guint ci = it->txn, cpu = thread_at (h, ci)->cpu;

      t = run_thread (self, h, cpu, t, ci, FALSE, 0);
      t = bg_syscall (self, h, cpu, t + step (h), ci) + step (h);
      t = emit_exit (self, h, cpu, t, ci);

      it->role = 2;
      it->t = t + rng_exp (r, NS_PER_S);
      schedule (self, it);
    }
}

/* TCP */

#define TCP_FIN 0x001
#define TCP_SYN 0x002
#define TCP_PSH 0x008
#define TCP_ACK 0x010

static void
tcp_wire (SlGenerate *self,
          const Conn *c,
          guint       side,
          Wire       *w)
{
  const Host *src = host_at (self, c->host[side]), *dst = host_at (self, c->host[1 - side]);

  memset (w, 0, sizeof *w);
  w->family = c->family;
  w->proto = 6;
  w->sport = c->port[side];
  w->dport = c->port[1 - side];
  w->window = c->window[side];
  w->checksum = (guint16) rng_u64 (&self->net_rng);
  if (c->family == 4)
    {
      set_addr4 (w->saddr, src->addr4);
      set_addr4 (w->daddr, dst->addr4);
    }
  else
    {
      memcpy (w->saddr, src->addr6, 16);
      memcpy (w->daddr, dst->addr6, 16);
    }
}

static gint64
latency (SlGenerate *self,
         const Link *l,
         guint       payload)
{
  Rng *r = &self->net_rng;
  double j = (double) self->options.jitter_ns;
  gint64 d = l->base_latency + (gint64) payload * 8 + rng_exp (r, j / 2) + rng_exp (r, j / 2);

  /* occasional queueing behind other traffic */
  if (rng_chance (r, 0.02))
    d += rng_exp (r, 10 * j + 50 * US);
  return d;
}

static gint64
retransmit_timeout (SlGenerate *self,
                    const Link *l,
                    const Item *seg)
{
  Rng *r = &self->net_rng;
  guint k = MIN (seg->retrans, 6);

  if (seg->role == ROLE_SYN || seg->role == ROLE_SYNACK)
    return (NS_PER_S << k) + rng_exp (r, MS);
  if (k == 0 && rng_chance (r, 0.5))
    return 4 * l->base_latency + MS + rng_exp (r, 2 * MS);   /* fast retransmit */
  return (200 * MS << k) + rng_exp (r, 10 * MS);
}

/* Writes the net_dev_queue of one segment and schedules what becomes of
 * it: arrival, or loss and retransmission, or a spurious second copy. */
static gint64
send_tcp (SlGenerate *self,
          Conn       *c,
          guint       cpu,
          gint64      t,
          Item       *seg)
{
  guint side = seg->dir;
  Host *h = host_at (self, c->host[side]);
  Link *l = link_at (self, c->link);
  Rng *r = &self->net_rng;
  Item next;

  seg->w.ip_id = h->ip_id++;
  t = emit_net (self, h, cpu, t, TRUE, &seg->w);
  if (seg->retrans == 0)
    {
      record_sample (self, h, cpu, t, TRUE, &seg->w);
      l->segments++;
      self->stats.tcp_segments++;
    }
  else
    {
      l->retransmissions++;
      self->stats.retransmissions++;
    }

  if (rng_chance (r, self->options.loss))
    {
      l->lost++;
      self->stats.lost++;
      /* pure ACKs are not retransmitted */
      if (seg->w.payload == 0 && !(seg->w.flags & TCP_SYN))
        return t;
      next = *seg;
      next.kind = IT_KSEND;
      next.host = c->host[side];
      next.retrans++;
      next.t = t + retransmit_timeout (self, l, seg);
      schedule (self, &next);
      return t;
    }

  next = *seg;
  next.kind = IT_ARRIVE;
  next.host = c->host[1 - side];
  next.t = t + latency (self, l, seg->w.payload);
  schedule (self, &next);

  if (seg->w.payload > 0 && rng_chance (r, self->options.duplicate))
    {
      next = *seg;
      next.kind = IT_KSEND;
      next.host = c->host[side];
      next.retrans++;
      next.t = t + 3 * l->base_latency + rng_exp (r, 500 * US);
      schedule (self, &next);
    }
  return t;
}

static void
schedule_ack (SlGenerate *self,
              const Conn *c,
              guint       conn,
              guint       side,
              guint8      role,
              gint64      t)
{
  Item it = { 0 };

  it.kind = IT_KSEND;
  it.role = role;
  it.dir = (guint8) side;
  it.host = c->host[side];
  it.aux = conn;
  it.t = t;
  schedule (self, &it);
}

static void
tcp_receive (SlGenerate *self,
             Item       *it,
             guint       cpu,
             gint64      t)
{
  Conn *c = conn_at (self, it->aux);
  guint side = 1 - it->dir;
  Host *h = host_at (self, c->host[side]);
  Rng *r = &self->net_rng;
  const Wire *w = &it->w;
  guint32 end = w->seq + w->payload + ((w->flags & (TCP_SYN | TCP_FIN)) ? 1 : 0);

  if (w->flags & TCP_SYN)
    {
      if (c->syn_seen && side == 1)
        return;
      if (side == 0 && c->established)
        return;
      c->rcv_nxt[side] = c->rcv_high[side] = end;
    }
  else if (!seq_after (w->seq, c->rcv_nxt[side]))
    {
      if (seq_after (end, c->rcv_nxt[side]))
        c->rcv_nxt[side] = end;
      if (seq_after (c->rcv_high[side], c->rcv_nxt[side]))
        c->rcv_nxt[side] = c->rcv_high[side];
    }
  else if (seq_after (end, c->rcv_high[side]))
    c->rcv_high[side] = end;

  switch (it->role)
    {
    case ROLE_SYN:
      {
        Item sa = { 0 };

        c->syn_seen = 1;
        sa.kind = IT_KSEND;
        sa.role = ROLE_SYNACK;
        sa.dir = 1;
        sa.host = c->host[1];
        sa.aux = it->aux;
        tcp_wire (self, c, 1, &sa.w);
        sa.w.seq = c->snd_nxt[1]++;
        sa.w.ack = c->rcv_nxt[1];
        sa.w.flags = TCP_SYN | TCP_ACK;
        sa.w.window = 65160;
        c->acked[1] = c->rcv_nxt[1];
        sa.t = t + 2 * US + rng_exp (r, 3 * US);
        schedule (self, &sa);
      }
      break;

    case ROLE_SYNACK:
      {
        Item txn = { 0 };

        c->established = 1;
        schedule_ack (self, c, it->aux, 0, ROLE_ACK, t + 2 * US + rng_exp (r, 2 * US));
        txn.kind = IT_TXN;
        txn.host = c->host[0];
        txn.aux = it->aux;
        txn.t = t + 20 * US + rng_exp (r, c->txn_gap_ns / 4);
        schedule (self, &txn);
      }
      break;

    case ROLE_REQ:
      if (it->last && it->txn > c->done[1])
        {
          Item resp = { 0 };

          c->done[1] = it->txn;
          emit_wakeup (self, h, cpu, t + step (h), c->thread[1], EV_SCHED_WAKEUP);
          resp.kind = IT_RESPOND;
          resp.host = c->host[1];
          resp.aux = it->aux;
          resp.t = t + 15 * US + rng_exp (r, 150 * US);
          if (rng_chance (r, 0.03))
            resp.t += rng_exp (r, 5 * MS);
          schedule (self, &resp);
        }
      break;

    case ROLE_RESP:
      if (w->payload > 0 && ++c->unacked_segs[0] >= 2)
        {
          c->unacked_segs[0] = 0;
          schedule_ack (self, c, it->aux, 0, ROLE_ACK, t + 2 * US + rng_exp (r, 2 * US));
        }
      if (it->last && it->txn > c->done[0])
        {
          Item wake = { 0 };

          c->done[0] = it->txn;
          emit_wakeup (self, h, cpu, t + step (h), c->thread[0], EV_SCHED_WAKEUP);
          wake.kind = IT_WAKE;
          wake.host = c->host[0];
          wake.aux = it->aux;
          wake.t = t + 5 * US + rng_exp (r, 10 * US);
          schedule (self, &wake);
          if (c->unacked_segs[0] > 0)
            {
              gboolean quick = rng_chance (r, 0.3);
              schedule_ack (self, c, it->aux, 0, quick ? ROLE_ACK : ROLE_DELACK,
                            t + (quick ? 2 * US + rng_exp (r, 2 * US) : 40 * MS));
            }
        }
      break;

    default:
      break;
    }
}

/* Application messages: the thread wakes up, sends the message in one
 * sendto() whose segments the kernel queues at once, then sleeps. */
static gint64
send_message (SlGenerate *self,
              Item       *it,
              guint       side,
              guint32     bytes,
              gint64      t)
{
  Conn *c = conn_at (self, it->aux);
  Host *h = host_at (self, c->host[side]);
  guint ti = c->thread[side];
  guint cpu = thread_at (h, ti)->cpu;
  guint n = (bytes + MSS - 1) / MSS;

  t = emit_syscall_entry (self, h, cpu, t, SC_SENDTO, thread_at (h, ti), bytes, TRUE) + step (h);
  for (guint k = 0; k < n; k++)
    {
      Item seg = { 0 };
      guint32 len = k + 1 < n ? MSS : bytes - (n - 1) * MSS;

      seg.role = side == 0 ? ROLE_REQ : ROLE_RESP;
      seg.dir = (guint8) side;
      seg.last = k + 1 == n;
      seg.aux = it->aux;
      seg.txn = c->txn;
      tcp_wire (self, c, side, &seg.w);
      seg.w.seq = c->snd_nxt[side];
      seg.w.ack = c->rcv_nxt[side];
      seg.w.flags = seg.last ? TCP_PSH | TCP_ACK : TCP_ACK;
      seg.w.payload = (guint16) len;
      c->snd_nxt[side] += len;
      c->acked[side] = c->rcv_nxt[side];
      c->unacked_segs[side] = 0;
      t = send_tcp (self, c, cpu, t, &seg) + 400 + rng_below (&h->rng, 1200);
    }
  return emit_syscall_exit (self, h, cpu, t, SC_SENDTO, thread_at (h, ti), bytes) + step (h);
}

static void
handle_connect (SlGenerate *self,
                Item       *it)
{
  Conn *c = conn_at (self, it->aux);
  Host *h = host_at (self, c->host[0]);
  guint ti = c->thread[0], cpu = thread_at (h, ti)->cpu;
  Item seg = { 0 };
  gint64 t;

  t = run_thread (self, h, cpu, it->t, ti, TRUE, 0);
  seg.role = ROLE_SYN;
  seg.dir = 0;
  seg.aux = it->aux;
  tcp_wire (self, c, 0, &seg.w);
  seg.w.seq = c->snd_nxt[0]++;
  seg.w.ack = 0;
  seg.w.flags = TCP_SYN;
  seg.w.window = 64240;
  t = send_tcp (self, c, cpu, t, &seg) + step (h);
  thread_at (h, ti)->blocked = SC_FUTEX;
  block_thread (self, h, cpu, t, ti, TASK_INTERRUPTIBLE);
}

static void
handle_txn (SlGenerate *self,
            Item       *it)
{
  Conn *c = conn_at (self, it->aux);
  Host *h = host_at (self, c->host[0]);
  Rng *r = &self->net_rng;
  guint ti = c->thread[0], cpu = thread_at (h, ti)->cpu;
  guint32 bytes = rng_chance (r, 0.9) ? 60 + rng_below (r, 1300) : MSS + 1 + rng_below (r, 2000);
  gint64 t;

  if (!c->established)
    return;
  c->txn++;
  c->req_bytes = bytes;
  t = run_thread (self, h, cpu, it->t, ti, TRUE, 0);
  t = send_message (self, it, 0, bytes, t);
  t = emit_syscall_entry (self, h, cpu, t, SC_RECVFROM, thread_at (h, ti), 65536, TRUE) + step (h);
  thread_at (h, ti)->blocked = SC_RECVFROM;
  block_thread (self, h, cpu, t, ti, TASK_INTERRUPTIBLE);
}

static void
handle_respond (SlGenerate *self,
                Item       *it)
{
  Conn *c = conn_at (self, it->aux);
  Host *h = host_at (self, c->host[1]);
  Rng *r = &self->net_rng;
  guint ti = c->thread[1], cpu = thread_at (h, ti)->cpu;
  double u = rng_double (r);
  guint32 bytes;
  gint64 t;

  if (u < 0.7)
    bytes = 100 + rng_below (r, MSS - 100);
  else if (u < 0.95)
    bytes = MSS + 1 + rng_below (r, 3 * MSS);
  else
    bytes = 8 * MSS + rng_below (r, 12 * MSS);
  c->resp_bytes = bytes;

  t = run_thread (self, h, cpu, it->t, ti, FALSE, 1);
  t = emit_syscall_entry (self, h, cpu, t, SC_RECVFROM, thread_at (h, ti), 65536, FALSE) + step (h);
  t = emit_syscall_exit (self, h, cpu, t, SC_RECVFROM, thread_at (h, ti), c->req_bytes) + step (h);
  t = send_message (self, it, 1, bytes, t);
  t = emit_syscall_entry (self, h, cpu, t, SC_EPOLL, thread_at (h, ti), 0, TRUE) + step (h);
  thread_at (h, ti)->blocked = SC_EPOLL;
  block_thread (self, h, cpu, t, ti, TASK_INTERRUPTIBLE);
}

static void
handle_wake (SlGenerate *self,
             Item       *it)
{
  Conn *c = conn_at (self, it->aux);
  Host *h = host_at (self, c->host[0]);
  Rng *r = &self->net_rng;
  guint ti = c->thread[0], cpu = thread_at (h, ti)->cpu;
  Item next = *it;
  gint64 t;

  t = run_thread (self, h, cpu, it->t, ti, FALSE, c->resp_bytes);
  if (rng_chance (r, 0.5))
    {
      guint64 n = 40 + rng_below (r, 200);
      t = emit_syscall_entry (self, h, cpu, t, SC_WRITE, thread_at (h, ti), n, FALSE) + step (h);
      t = emit_syscall_exit (self, h, cpu, t + rng_exp (r, 2 * US), SC_WRITE, thread_at (h, ti), (gint64) n) +
          step (h);
    }
  t = emit_syscall_entry (self, h, cpu, t, SC_FUTEX, thread_at (h, ti), 0, TRUE) + step (h);
  thread_at (h, ti)->blocked = SC_FUTEX;
  t = block_thread (self, h, cpu, t, ti, TASK_INTERRUPTIBLE);

  next.kind = IT_TXN;
  next.t = t + rng_exp (r, c->txn_gap_ns);
  schedule (self, &next);
}

/* Kernel-sent segments: handshake replies, ACKs, retransmissions. */
static void
handle_ksend (SlGenerate *self,
              Item       *it)
{
  Conn *c = conn_at (self, it->aux);
  guint side = it->dir;
  Host *h = host_at (self, c->host[side]);
  gboolean from_rx = it->role == ROLE_SYNACK || it->role == ROLE_ACK || it->role == ROLE_DELACK;
  guint cpu = from_rx ? c->rx_cpu[side] : thread_at (h, c->thread[side])->cpu;
  guint32 vec = it->retrans > 0 ? SOFTIRQ_TIMER : SOFTIRQ_NET_RX;
  gint64 t = it->t;

  if (it->role == ROLE_ACK || it->role == ROLE_DELACK)
    {
      if (it->retrans == 0)
        {
          if (it->role == ROLE_DELACK && !seq_after (c->rcv_nxt[side], c->acked[side]))
            return;
          it->role = ROLE_ACK;
          tcp_wire (self, c, side, &it->w);
          it->w.seq = c->snd_nxt[side];
          it->w.ack = c->rcv_nxt[side];
          it->w.flags = TCP_ACK;
          c->acked[side] = c->rcv_nxt[side];
          c->unacked_segs[side] = 0;
        }
    }
  else if (it->retrans > 0 && it->role != ROLE_SYN && rng_chance (&self->net_rng, 0.5))
    {
      /* the retransmission acknowledges what arrived meanwhile */
      it->w.ack = c->rcv_nxt[side];
    }

  t = emit_softirq (self, h, cpu, t, EV_SOFTIRQ_ENTRY, vec) + step (h);
  t = send_tcp (self, c, cpu, t, it) + step (h);
  emit_softirq (self, h, cpu, t, EV_SOFTIRQ_EXIT, vec);
}

static guint
nic_irq (guint cpu)
{
  return 40 + cpu;
}

static void
handle_arrive (SlGenerate *self,
               Item       *it)
{
  Host *h = host_at (self, it->host);
  gboolean tcp = it->role < ROLE_RAW;
  guint cpu = tcp ? conn_at (self, it->aux)->rx_cpu[1 - it->dir] : it->aux % h->n_cpus;
  gint64 t = it->t, t_recv;

  if (!it->w.lo)
    {
      char name[32];

      g_snprintf (name, sizeof name, "eth0-TxRx-%u", cpu);
      t = emit_irq (self, h, cpu, t, TRUE, (gint32) nic_irq (cpu), name) + step (h);
      t = emit_softirq (self, h, cpu, t, EV_SOFTIRQ_RAISE, SOFTIRQ_NET_RX) + step (h);
      t = emit_irq (self, h, cpu, t, FALSE, (gint32) nic_irq (cpu), NULL) + step (h);
    }
  t = emit_softirq (self, h, cpu, t, EV_SOFTIRQ_ENTRY, SOFTIRQ_NET_RX) + step (h);
  t_recv = emit_net (self, h, cpu, t, FALSE, &it->w);
  if (tcp && it->retrans == 0)
    record_sample (self, h, cpu, t_recv, FALSE, &it->w);
  if (tcp)
    tcp_receive (self, it, cpu, t_recv);
  t = emit_softirq (self, h, cpu, t_recv + step (h), EV_SOFTIRQ_EXIT, SOFTIRQ_NET_RX);

  if (it->role == ROLE_ECHO)
    {
      Item reply = *it;
      guint8 tmp[16];

      reply.kind = IT_RAWSEND;
      reply.role = ROLE_RAW;
      reply.host = it->host;
      reply.txn = it->txn;
      reply.aux = cpu;
      reply.w.icmp_type = 0;
      memcpy (tmp, reply.w.saddr, 16);
      memcpy (reply.w.saddr, reply.w.daddr, 16);
      memcpy (reply.w.daddr, tmp, 16);
      reply.t = t + 3 * US;
      schedule (self, &reply);
    }
}

/* Packets readers must ignore: UDP, ICMP, ARP, loopback, untraced peers. */

static guint
pick_neighbour (SlGenerate *self,
                guint       host)
{
  guint n = 0, pick = NONE;

  for (guint i = 0; i < self->links->len; i++)
    {
      const Link *l = link_at (self, i);
      guint other = l->pub.a == host ? l->pub.b : l->pub.b == host ? l->pub.a : NONE;

      if (other != NONE && rng_below (&self->noise_rng, ++n) == 0)
        pick = other;
    }
  return pick;
}

static void
raw_wire (Host   *src,
          Host   *dst,
          guint8  family,
          guint8  proto,
          Wire   *w)
{
  static const guint8 ext4[4] = { 198, 51, 100, 7 };
  static const guint8 ext6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7 };

  memset (w, 0, sizeof *w);
  w->family = family;
  w->proto = proto;
  if (family == 4)
    {
      set_addr4 (w->saddr, src->addr4);
      if (dst != NULL)
        set_addr4 (w->daddr, dst->addr4);
      else
        set_addr4 (w->daddr, ext4);
    }
  else if (family == 6)
    {
      memcpy (w->saddr, src->addr6, 16);
      memcpy (w->daddr, dst != NULL ? dst->addr6 : ext6, 16);
    }
}

static void
swap_wire (Wire *w)
{
  guint8 tmp[16];
  guint16 p = w->sport;

  memcpy (tmp, w->saddr, 16);
  memcpy (w->saddr, w->daddr, 16);
  memcpy (w->daddr, tmp, 16);
  w->sport = w->dport;
  w->dport = p;
}

static void
handle_noise (SlGenerate *self,
              Item       *it)
{
  Host *h = host_at (self, it->host);
  Rng *r = &self->noise_rng;
  guint cpu = rng_below (r, h->n_cpus);
  double u = rng_double (r);
  guint8 family = self->options.ip == SL_GENERATE_IP_6 ? 6 :
                  self->options.ip == SL_GENERATE_IP_MIX ? (rng_below (r, 2) ? 6 : 4) : 4;
  guint peer = NONE;
  Item out = { 0 };
  gint64 t = it->t;

  if (u >= 0.25 && u < 0.65)
    peer = pick_neighbour (self, h->index);
  if (peer == NONE && u >= 0.25 && u < 0.65)
    u = 0.1;

  out.kind = IT_ARRIVE;
  out.role = ROLE_RAW;
  if (u < 0.25)
    {
      /* DNS query to an untraced resolver, and its answer */
      raw_wire (h, NULL, family, 17, &out.w);
      out.w.daddr[family == 4 ? 3 : 15] = 53;
      out.w.sport = (guint16) (32768 + rng_below (r, 28000));
      out.w.dport = 53;
      out.w.payload = (guint16) (28 + rng_below (r, 40));
      out.w.checksum = (guint16) rng_u64 (r);
      out.w.ip_id = h->ip_id++;
      t = emit_net (self, h, cpu, t, TRUE, &out.w);
      swap_wire (&out.w);
      out.w.ip_id = (guint16) rng_u64 (r);
      out.w.payload = (guint16) (out.w.payload + 16 + rng_below (r, 120));
      out.host = h->index;
      out.aux = cpu;
      out.t = t + 200 * US + rng_exp (r, 800 * US);
      self->stats.noise_packets += 2;
    }
  else if (u < 0.45)
    {
      /* ping: the peer's kernel answers */
      raw_wire (h, host_at (self, peer), family, 1, &out.w);
      out.w.icmp_type = 8;
      out.w.sport = (guint16) rng_u64 (r);
      out.w.dport = (guint16) rng_below (r, 1000);
      out.w.payload = 56;
      out.w.checksum = (guint16) rng_u64 (r);
      out.w.ip_id = h->ip_id++;
      t = emit_net (self, h, cpu, t, TRUE, &out.w);
      out.role = ROLE_ECHO;
      out.host = peer;
      out.txn = h->index;
      out.aux = rng_below (r, host_at (self, peer)->n_cpus);
      out.t = t + self->options.min_latency_ns + rng_exp (r, (double) self->options.jitter_ns);
      self->stats.noise_packets += 2;
    }
  else if (u < 0.65)
    {
      /* metrics over UDP to a neighbour */
      raw_wire (h, host_at (self, peer), family, 17, &out.w);
      out.w.sport = (guint16) (32768 + rng_below (r, 28000));
      out.w.dport = 8125;
      out.w.payload = (guint16) (20 + rng_below (r, 400));
      out.w.checksum = (guint16) rng_u64 (r);
      out.w.ip_id = h->ip_id++;
      t = emit_net (self, h, cpu, t, TRUE, &out.w);
      out.host = peer;
      out.aux = rng_below (r, host_at (self, peer)->n_cpus);
      out.t = t + self->options.min_latency_ns + rng_exp (r, (double) self->options.jitter_ns);
      self->stats.noise_packets += 1;
    }
  else if (u < 0.8)
    {
      /* TCP with an untraced server on the Internet */
      raw_wire (h, NULL, family, 6, &out.w);
      out.w.sport = (guint16) (32768 + rng_below (r, 28000));
      out.w.dport = 443;
      out.w.seq = (guint32) rng_u64 (r);
      out.w.ack = (guint32) rng_u64 (r);
      out.w.flags = TCP_PSH | TCP_ACK;
      out.w.window = 501;
      out.w.payload = (guint16) (100 + rng_below (r, 600));
      out.w.checksum = (guint16) rng_u64 (r);
      out.w.ip_id = h->ip_id++;
      t = emit_net (self, h, cpu, t, TRUE, &out.w);
      swap_wire (&out.w);
      out.w.ip_id = (guint16) rng_u64 (r);
      {
        guint32 s = out.w.seq;
        out.w.seq = out.w.ack;
        out.w.ack = s + out.w.payload;
      }
      out.w.payload = (guint16) (200 + rng_below (r, MSS - 200));
      out.w.window = 1024;
      out.w.checksum = (guint16) rng_u64 (r);
      out.host = h->index;
      out.aux = cpu;
      out.t = t + 5 * MS + rng_exp (r, 15 * MS);
      self->stats.noise_packets += 2;
    }
  else if (u < 0.92)
    {
      /* loopback: both events on this host, with the same header */
      out.w.family = family;
      out.w.proto = 6;
      out.w.lo = 1;
      if (family == 4)
        {
          out.w.saddr[0] = out.w.daddr[0] = 127;
          out.w.saddr[3] = out.w.daddr[3] = 1;
        }
      else
        out.w.saddr[15] = out.w.daddr[15] = 1;
      out.w.sport = (guint16) (32768 + rng_below (r, 28000));
      out.w.dport = 6379;
      out.w.seq = (guint32) rng_u64 (r);
      out.w.ack = (guint32) rng_u64 (r);
      out.w.flags = TCP_PSH | TCP_ACK;
      out.w.window = 512;
      out.w.payload = (guint16) (20 + rng_below (r, 200));
      out.w.checksum = (guint16) rng_u64 (r);
      out.w.ip_id = h->ip_id++;
      t = emit_net (self, h, cpu, t, TRUE, &out.w);
      out.host = h->index;
      out.aux = cpu;
      out.t = t + 3 * US + rng_exp (r, 5 * US);
      self->stats.noise_packets += 1;
    }
  else
    {
      /* ARP: no network header */
      out.w.family = 0;
      t = emit_net (self, h, cpu, t, TRUE, &out.w);
      out.host = h->index;
      out.aux = cpu;
      out.t = t + 100 * US + rng_exp (r, 200 * US);
      self->stats.noise_packets += 2;
    }
  schedule (self, &out);

  it->t = t + 1 + rng_exp (r, 1e9 / self->options.noise_rate);
  schedule (self, it);
}

static void
handle_rawsend (SlGenerate *self,
                Item       *it)
{
  Host *h = host_at (self, it->host);
  guint cpu = it->aux % h->n_cpus;
  gint64 t;

  it->w.ip_id = h->ip_id++;
  t = emit_net (self, h, cpu, it->t, TRUE, &it->w);

  it->kind = IT_ARRIVE;
  it->role = ROLE_RAW;
  it->host = it->txn;
  it->aux = rng_below (&self->noise_rng, host_at (self, it->txn)->n_cpus);
  it->t = t + self->options.min_latency_ns + rng_exp (&self->noise_rng, (double) self->options.jitter_ns);
  schedule (self, it);
}

/* Steers the background rate towards the event target. */
static void
handle_control (SlGenerate *self,
                Item       *it)
{
  const SlGenerateOptions *o = &self->options;
  guint64 other = self->stats.events - self->bg_events;
  double remaining, per_activity, need;

  if (it->t > self->control_mark_t && self->control_mark_t > o->start_ns)
    self->other_rate = (double) (other - self->control_mark_other) /
                       (double) (it->t - self->control_mark_t);
  self->control_mark_t = it->t;
  self->control_mark_other = other;

  remaining = (double) o->events - (double) self->stats.events;
  per_activity = self->bg_activities > 100 ? (double) self->bg_events / (double) self->bg_activities : 2.3;
  need = remaining / (double) (self->end - it->t) - self->other_rate;
  if (remaining <= 0 || need <= 0 || self->total_cpus == 0)
    self->bg_gap_ns = INFINITY;
  else
    self->bg_gap_ns = per_activity * self->total_cpus / need;

  it->t += self->control_step;
  schedule (self, it);
}

/* Output */

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

static char *
host_metadata (SlGenerate *self,
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

static gboolean
write_file (SlGenerate  *self,
            const char  *path,
            const char  *contents,
            GError     **error)
{
  gsize n = strlen (contents);

  if (!g_file_set_contents (path, contents, (gssize) n, error))
    return FALSE;
  self->stats.bytes += n;
  self->stats.files++;
  return TRUE;
}

static void
add_json_int (JsonBuilder *b,
              const char  *key,
              gint64       v)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, v);
}

static void
add_json_double (JsonBuilder *b,
                 const char  *key,
                 double       v)
{
  json_builder_set_member_name (b, key);
  json_builder_add_double_value (b, v);
}

static void
add_json_string (JsonBuilder *b,
                 const char  *key,
                 const char  *v)
{
  json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, v);
}

static void
format_addr (const guint8 *addr,
             int           family,
             char         *out,
             gsize         size)
{
  g_autoptr(GInetAddress) a = g_inet_address_new_from_bytes (addr, family == 4 ? G_SOCKET_FAMILY_IPV4
                                                                              : G_SOCKET_FAMILY_IPV6);
  g_autofree char *s = g_inet_address_to_string (a);

  g_strlcpy (out, s, size);
}

static char *
truth_json (SlGenerate *self)
{
  const SlGenerateOptions *o = &self->options;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  char buf[64];

  json_builder_begin_object (b);
  add_json_string (b, "format", FORMAT_NAME);
  add_json_int (b, "version", 1);
  add_json_string (b, "clock_model",
    "local_ns = true_ns + offset_ns + drift_ppm*1e-6*(true_ns - start_ns) + "
    "wander_ppm*1e-6*P/(2*pi)*(1 - cos(2*pi*(true_ns - start_ns)/P)), P = wander_period_s*1e9; "
    "cycles = round(local_ns*freq/1e9) - clock_offset_s*freq; the trace shows "
    "clock_offset_s*1e9 + cycles*1e9/freq");
  add_json_int (b, "seed", (gint64) o->seed);
  add_json_int (b, "start_ns", o->start_ns);
  add_json_int (b, "duration_ns", o->duration_ns);
  add_json_string (b, "variant_style", sl_generate_variant_to_string (o->variant));
  add_json_string (b, "event_header", o->header == SL_CTF_HEADER_COMPACT ? "compact" : "large");
  add_json_string (b, "ip", sl_generate_ip_to_string (o->ip));
  add_json_int (b, "packet_size", (gint64) o->packet_size);
  add_json_double (b, "loss", o->loss);
  add_json_double (b, "duplicate", o->duplicate);
  add_json_int (b, "min_latency_ns", o->min_latency_ns);
  add_json_int (b, "jitter_ns", o->jitter_ns);
  add_json_double (b, "noise_rate", o->noise_rate);
  add_json_int (b, "events_target", (gint64) o->events);
  add_json_int (b, "events", (gint64) self->stats.events);
  add_json_int (b, "tcp_segments", (gint64) self->stats.tcp_segments);
  add_json_int (b, "lost", (gint64) self->stats.lost);
  add_json_int (b, "retransmissions", (gint64) self->stats.retransmissions);
  add_json_int (b, "noise_packets", (gint64) self->stats.noise_packets);

  json_builder_set_member_name (b, "hosts");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      const Host *h = host_at (self, i);

      json_builder_begin_object (b);
      add_json_string (b, "name", h->pub.name);
      add_json_int (b, "freq", (gint64) h->pub.freq_hz);
      add_json_int (b, "offset_ns", h->pub.offset_ns);
      add_json_double (b, "drift_ppm", h->pub.drift_ppm);
      add_json_double (b, "wander_ppm", h->pub.wander_ppm);
      add_json_double (b, "wander_period_s", h->pub.wander_period_s);
      add_json_int (b, "start_ns", o->start_ns);
      add_json_int (b, "cpus", h->n_cpus);
      add_json_int (b, "clock_offset_s", h->clock_offset_s);
      add_json_int (b, "clock_offset_cycles", 0);
      sl_ctf_uuid_to_string (h->boot_id, buf);
      add_json_string (b, "boot_id", buf);
      sl_ctf_uuid_to_string (h->trace_uuid, buf);
      add_json_string (b, "trace_uuid", buf);
      format_addr (h->addr4, 4, buf, sizeof buf);
      add_json_string (b, "ipv4", buf);
      format_addr (h->addr6, 6, buf, sizeof buf);
      add_json_string (b, "ipv6", buf);
      add_json_int (b, "events", (gint64) h->events);

      json_builder_set_member_name (b, "samples");
      json_builder_begin_array (b);
      for (guint k = 0; k < h->samples->len; k++)
        {
          const Sample *sm = &g_array_index (h->samples, Sample, k);

          json_builder_begin_object (b);
          add_json_string (b, "event", sm->dir == 0 ? "net_dev_queue" : "net_if_receive_skb");
          add_json_int (b, "cpu", sm->cpu);
          add_json_int (b, "seq", sm->seq);
          add_json_int (b, "len", sm->len);
          add_json_int (b, "source_port", sm->sport);
          add_json_int (b, "true_ns", sm->true_ns);
          add_json_int (b, "local_ns", host_local_time (self, h, sm->true_ns));
          add_json_int (b, "cycles", (gint64) sm->cycles);
          add_json_int (b, "trace_ns", cycles_to_trace_ns (h, sm->cycles));
          json_builder_end_object (b);
        }
      json_builder_end_array (b);

      /* every task but the idle ones: how it came (state dump, fork of a
       * process, new thread of its parent's process), when (born_ns: the
       * state dump record or the fork event, trace ns) and its state dump
       * status (lttng's values) */
      json_builder_set_member_name (b, "threads");
      json_builder_begin_array (b);
      for (guint k = 0; k < h->threads->len; k++)
        {
          const Thread *th = &g_array_index (h->threads, Thread, k);

          if (th->kind == THREAD_IDLE)
            continue;
          json_builder_begin_object (b);
          add_json_int (b, "tid", th->tid);
          add_json_int (b, "pid", th->pid);
          add_json_int (b, "ppid", th->ppid);
          add_json_string (b, "name", th->comm);
          add_json_string (b, "kind", th->kind == THREAD_KERNEL ? "kernel" : "user");
          add_json_string (b, "origin", th->origin == ORIGIN_DUMP ? "statedump" :
                                        th->origin == ORIGIN_PROCESS ? "process" : "thread");
          if (th->origin == ORIGIN_DUMP)
            add_json_int (b, "status", th->status);
          add_json_int (b, "born_ns", cycles_to_trace_ns (h, th->born_cycles));
          if (th->exit_cycles != 0)
            add_json_int (b, "exit_ns", cycles_to_trace_ns (h, th->exit_cycles));
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "links");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->links->len; i++)
    {
      const Link *l = link_at (self, i);

      json_builder_begin_object (b);
      add_json_string (b, "a", host_at (self, l->pub.a)->pub.name);
      add_json_string (b, "b", host_at (self, l->pub.b)->pub.name);
      add_json_double (b, "rate", l->pub.rate);
      add_json_int (b, "min_latency_ns", l->base_latency);
      add_json_int (b, "segments", (gint64) l->segments);
      add_json_int (b, "lost", (gint64) l->lost);
      add_json_int (b, "retransmissions", (gint64) l->retransmissions);
      json_builder_set_member_name (b, "connections");
      json_builder_begin_array (b);
      for (guint k = 0; k < l->n_conns; k++)
        {
          const Conn *c = &g_array_index (self->conns, Conn, l->first_conn + k);

          json_builder_begin_object (b);
          add_json_int (b, "family", c->family);
          add_json_int (b, "client_port", c->port[0]);
          add_json_int (b, "server_port", c->port[1]);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}

static gboolean
open_streams (SlGenerate  *self,
              const char  *out_dir,
              GError     **error)
{
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = host_at (self, i);
      g_autofree char *dir = NULL;

      if (out_dir != NULL)
        {
          dir = g_build_filename (out_dir, h->pub.name, "kernel", NULL);
          if (g_mkdir_with_parents (dir, 0755) != 0)
            {
              int errsv = errno;
              g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", dir, g_strerror (errsv));
              return FALSE;
            }
        }
      for (guint c = 0; c < h->n_cpus; c++)
        {
          SlCtfStreamOptions so = { 0 };
          g_autofree char *name = g_strdup_printf ("channel0_%u", c);
          g_autofree char *path = dir != NULL ? g_build_filename (dir, name, NULL) : NULL;

          memcpy (so.trace_uuid, h->trace_uuid, 16);
          so.stream_id = 0;
          so.stream_instance_id = c;
          so.cpu_id = c;
          so.packet_size = self->options.packet_size;
          so.header = self->options.header;
          h->cpu[c].stream = sl_ctf_stream_new (path, &so, error);
          if (h->cpu[c].stream == NULL)
            return FALSE;
          h->cpu[c].last = self->options.start_ns;
        }
    }
  return TRUE;
}

static gboolean
close_streams (SlGenerate  *self,
               gboolean     written,
               GError     **error)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = host_at (self, i);
      guint64 first = host_cycles (self, h, self->options.start_ns);

      for (guint c = 0; c < h->n_cpus; c++)
        {
          SlCtfStream *s = h->cpu[c].stream;

          if (s == NULL)
            continue;
          if (ok && !sl_ctf_stream_close (s, first, error))
            ok = FALSE;
          if (written)
            {
              self->stats.bytes += s->bytes;
              self->stats.files++;
            }
          g_clear_pointer (&h->cpu[c].stream, sl_ctf_stream_free);
        }
    }
  return ok;
}

static void
simulate (SlGenerate *self)
{
  const SlGenerateOptions *o = &self->options;
  gboolean background = o->events > 0 || o->background_rate > 0;
  Item it;

  self->end = o->start_ns + o->duration_ns;
  self->control_step = MAX (o->duration_ns / 200, MS);
  self->control_mark_t = o->start_ns;
  self->bg_gap_ns = o->events > 0 ? INFINITY : o->background_rate > 0 ? 1e9 / o->background_rate : INFINITY;
  self->other_rate = 0;
  for (guint i = 0; i < self->links->len; i++)
    self->other_rate += link_at (self, i)->pub.rate * 9 / 1e9;
  self->other_rate += o->noise_rate * self->hosts->len * 6 / 1e9;

  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = host_at (self, i);

      emit_statedump (self, h, o->start_ns);
      if (background)
        {
          for (guint c = 0; c < h->n_cpus; c++)
            {
              memset (&it, 0, sizeof it);
              it.kind = IT_CPU;
              it.host = i;
              it.aux = c;
              it.t = o->start_ns + 1 + rng_exp (&h->rng, isfinite (self->bg_gap_ns) ? self->bg_gap_ns : 1e5);
              schedule (self, &it);
            }
          memset (&it, 0, sizeof it);
          it.kind = IT_PROC;
          it.host = i;
          it.t = o->start_ns + rng_exp (&h->rng, NS_PER_S);
          schedule (self, &it);
          it.role = 2;
          it.t = o->start_ns + rng_exp (&h->rng, NS_PER_S);
          schedule (self, &it);
        }
      if (o->noise_rate > 0)
        {
          memset (&it, 0, sizeof it);
          it.kind = IT_NOISE;
          it.host = i;
          it.t = o->start_ns + rng_exp (&self->noise_rng, 1e9 / o->noise_rate);
          schedule (self, &it);
        }
    }
  if (o->events > 0)
    {
      memset (&it, 0, sizeof it);
      it.kind = IT_CONTROL;
      it.t = o->start_ns;
      schedule (self, &it);
    }

  while (self->heap->len > 0)
    {
      heap_pop (self, &it);
      if (it.t >= self->end)
        break;
      switch (it.kind)
        {
        case IT_CONTROL:
          handle_control (self, &it);
          break;
        case IT_CPU:
          handle_cpu (self, &it);
          break;
        case IT_NOISE:
          handle_noise (self, &it);
          break;
        case IT_PROC:
          handle_proc (self, &it);
          break;
        case IT_CONNECT:
          handle_connect (self, &it);
          break;
        case IT_TXN:
          handle_txn (self, &it);
          break;
        case IT_RESPOND:
          handle_respond (self, &it);
          break;
        case IT_WAKE:
          handle_wake (self, &it);
          break;
        case IT_KSEND:
          handle_ksend (self, &it);
          break;
        case IT_RAWSEND:
          handle_rawsend (self, &it);
          break;
        case IT_ARRIVE:
          handle_arrive (self, &it);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  g_array_set_size (self->heap, 0);
}

/* Simulates the scenario and writes, unless @out_dir is %NULL, one LTTng
 * kernel trace folder per host (`out_dir/<host>/kernel/`) and
 * `out_dir/ground-truth.json`. A generator runs once. */
gboolean
sl_generate_run (SlGenerate       *self,
                 const char       *out_dir,
                 SlGenerateStats  *stats,
                 GError          **error)
{
  gint64 t0 = g_get_monotonic_time ();
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->ran && !self->from_truth, FALSE);

  if (!sl_generate_prepare (self, error))
    return FALSE;
  self->ran = TRUE;

  if (out_dir != NULL && g_mkdir_with_parents (out_dir, 0755) != 0)
    {
      int errsv = errno;
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", out_dir, g_strerror (errsv));
      return FALSE;
    }
  if (!open_streams (self, out_dir, error))
    {
      close_streams (self, FALSE, NULL);
      return FALSE;
    }

  simulate (self);

  ok = close_streams (self, out_dir != NULL, error);
  if (ok && out_dir != NULL)
    {
      for (guint i = 0; ok && i < self->hosts->len; i++)
        {
          const Host *h = host_at (self, i);
          g_autofree char *text = host_metadata (self, h);
          g_autofree char *path = g_build_filename (out_dir, h->pub.name, "kernel", "metadata", NULL);

          ok = write_file (self, path, text, error);
        }
      if (ok)
        {
          g_autofree char *text = truth_json (self);
          g_autofree char *path = g_build_filename (out_dir, "ground-truth.json", NULL);

          ok = write_file (self, path, text, error);
        }
    }

  self->stats.elapsed_s = (double) (g_get_monotonic_time () - t0) / 1e6;
  if (stats != NULL)
    *stats = self->stats;
  return ok;
}

/* Ground truth */

static gboolean
member_int (JsonObject  *o,
            const char  *key,
            gint64      *out,
            GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || json_node_get_value_type (n) != G_TYPE_INT64)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "ground truth: “%s” missing or not an integer", key);
      return FALSE;
    }
  *out = json_node_get_int (n);
  return TRUE;
}

static gboolean
member_double (JsonObject  *o,
               const char  *key,
               double      *out,
               GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_VALUE ||
      (json_node_get_value_type (n) != G_TYPE_DOUBLE && json_node_get_value_type (n) != G_TYPE_INT64))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "ground truth: “%s” missing or not a number", key);
      return FALSE;
    }
  *out = json_node_get_double (n);
  return TRUE;
}

/* Reads a ground-truth.json written by sl_generate_run(): hosts, clocks and
 * links, enough for sl_generate_true_transform*(), _local_time() and
 * _trace_time(). The result cannot be run. */
SlGenerate *
sl_generate_load_truth (const char  *path,
                        GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(SlGenerate) self = NULL;
  SlGenerateOptions options;
  JsonObject *root;
  JsonArray *hosts, *links;
  gint64 v;

  g_return_val_if_fail (path != NULL, NULL);

  if (!json_parser_load_from_file (parser, path, error))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: not a ground-truth file", path);
      return NULL;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  if (g_strcmp0 (json_object_get_string_member_with_default (root, "format", ""), FORMAT_NAME) != 0 ||
      !json_object_has_member (root, "hosts") || !json_object_has_member (root, "links"))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: not a ground-truth file", path);
      return NULL;
    }

  sl_generate_options_init (&options);
  if (!member_int (root, "start_ns", &options.start_ns, error) ||
      !member_int (root, "duration_ns", &options.duration_ns, error) ||
      !member_int (root, "seed", &v, error))
    return NULL;
  options.seed = (guint64) v;
  sl_generate_variant_from_string (json_object_get_string_member_with_default (root, "variant_style", ""),
                                   &options.variant);
  options.header = g_strcmp0 (json_object_get_string_member_with_default (root, "event_header", ""),
                              "compact") == 0 ? SL_CTF_HEADER_COMPACT : SL_CTF_HEADER_LARGE;
  self = sl_generate_new (&options);

  hosts = json_object_get_array_member (root, "hosts");
  for (guint i = 0; hosts != NULL && i < json_array_get_length (hosts); i++)
    {
      JsonObject *ho = json_array_get_object_element (hosts, i);
      SlGenerateHost hd = { 0 };
      gint64 freq, cpus, off_s;
      Host *h;

      if (ho == NULL)
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: host %u is not an object", path, i);
          return NULL;
        }
      hd.name = (char *) json_object_get_string_member_with_default (ho, "name", "");
      if (!member_int (ho, "freq", &freq, error) ||
          !member_int (ho, "offset_ns", &hd.offset_ns, error) ||
          !member_double (ho, "drift_ppm", &hd.drift_ppm, error) ||
          !member_double (ho, "wander_ppm", &hd.wander_ppm, error) ||
          !member_double (ho, "wander_period_s", &hd.wander_period_s, error) ||
          !member_int (ho, "cpus", &cpus, error) ||
          !member_int (ho, "clock_offset_s", &off_s, error))
        return NULL;
      hd.freq_hz = (guint64) freq;
      hd.cpus = (guint) cpus;
      if (!sl_generate_add_host (self, &hd, error))
        return NULL;
      h = host_at (self, self->hosts->len - 1);
      h->n_cpus = hd.cpus;
      h->boot_age_ns = (guint64) (options.start_ns + hd.offset_ns - off_s * NS_PER_S);
      host_setup_clock (self, h);
    }

  links = json_object_get_array_member (root, "links");
  for (guint i = 0; links != NULL && i < json_array_get_length (links); i++)
    {
      JsonObject *lo = json_array_get_object_element (links, i);
      double rate = 0;

      if (lo == NULL || !member_double (lo, "rate", &rate, error))
        return NULL;
      if (!sl_generate_add_link (self, json_object_get_string_member_with_default (lo, "a", ""),
                                 json_object_get_string_member_with_default (lo, "b", ""), rate, error))
        return NULL;
    }

  self->prepared = TRUE;
  self->from_truth = TRUE;
  return g_steal_pointer (&self);
}
