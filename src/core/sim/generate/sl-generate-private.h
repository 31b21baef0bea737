/* sl-generate-private.h: the trace generator's state, shared by its parts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A discrete-event simulation in true time. Queue items are CPU activities,
 * TCP transactions, segments to send and segments arriving; each item emits
 * a short burst of events (a few µs) on one CPU of one host, at once. Items
 * come out in true-time order, so a CPU's events are in order as long as a
 * burst never starts before the previous one ended: each CPU keeps the true
 * time of its last event and later events are pushed past it. A segment's
 * delivery is scheduled from the time its net_dev_queue event was actually
 * written, so causality holds exactly for every matched pair.
 *
 * Random streams are separate for the scenario, the network (connections,
 * latencies, losses), the noise packets and each host's background, so the
 * background rate or the event target does not change which packets are
 * exchanged.
 *
 * The parts: sl-generate.c (options, hosts and links, the run and its
 * queue), -clock.c (host clocks), -scenario.c (hosts, links, tasks,
 * connections), -emit.c (event writers), -cpu.c (scheduling, background,
 * processes, the event-rate control), -tcp.c (connections, segments,
 * arrivals), -noise.c (packets readers must ignore), -metadata.c (CTF
 * metadata), -truth.c (ground-truth.json, written and read).
 */

#pragma once

#include <math.h>
#include <string.h>

#include "sl-generate.h"
#include "sl-heap.h"
#include "sl-rng.h"

G_BEGIN_DECLS

#define NS_PER_S G_GINT64_CONSTANT (1000000000)
#define US       G_GINT64_CONSTANT (1000)
#define MS       G_GINT64_CONSTANT (1000000)
#define NONE     G_MAXUINT
#define MSS      1448
#define N_SKB_SLOTS 512

#define TCP_FIN 0x001
#define TCP_SYN 0x002
#define TCP_PSH 0x008
#define TCP_ACK 0x010

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
  SlRng        rng;
  guint64      events;
  guint        shell;
  gint32       next_tid;
  gint32       client_pid;
  gint32       server_pid;
  const char  *client_comm;
  GArray      *samples;
  gint64       next_sample[2];
  guint        n_samples[2];
  GArray      *neighbours;
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
  GHashTable          *host_index;
  GArray              *links;
  GArray              *conns;
  GArray              *queue;
  guint64              tie;
  SlRng                scenario_rng;
  SlRng                net_rng;
  SlRng                noise_rng;
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
  /* run without files: the one buffer every discarded stream builds its
   * packets in */
  guint8              *scratch;
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

static inline void
set_addr4 (guint8       addr[16],
           const guint8 a4[4])
{
  memset (addr, 0, 16);
  memcpy (addr, a4, 4);
}

/* Clocks (sl-generate-clock.c) */

void     _sl_gen_setup_clock      (SlGenerate       *self,
                                   Host             *h);
gint64   _sl_gen_local_time       (const SlGenerate *self,
                                   const Host       *h,
                                   gint64            true_ns);

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

/* The clock's step (forward only), once it has happened. */
static inline gint64
step_ns (const Host *h,
         gint64      dt)
{
  return h->pub.step_after_ns > 0 && dt >= h->pub.step_after_ns ? h->pub.step_ns : 0;
}

static inline guint64
host_cycles (const SlGenerate *self,
             const Host       *h,
             gint64            t)
{
  gint64 dt = t - self->options.start_ns;
  long double x = (long double) (h->origin_at_start + dt + step_ns (h, dt)) +
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

/* Scenario (sl-generate-scenario.c) */

void     _sl_gen_auto_hosts       (SlGenerate       *self);
void     _sl_gen_auto_links       (SlGenerate       *self);
gboolean _sl_gen_setup_scenario   (SlGenerate       *self,
                                   GError          **error);
guint    _sl_gen_add_thread       (Host             *h,
                                   const char       *comm,
                                   gint32            tid,
                                   gint32            pid,
                                   gint32            ppid,
                                   gint32            prio,
                                   guint             cpu,
                                   guint8            kind);

/* The queue (sl-generate.c) */

void     _sl_gen_schedule         (SlGenerate       *self,
                                   Item             *it);

/* Event writers (sl-generate-emit.c). Each returns the true time the event
 * was written at: never before the CPU's previous event. */

/* a few hundred ns between the events of a burst */
static inline gint64
step (Host *h)
{
  return 250 + (gint64) sl_rng_below (&h->rng, 1500);
}

gint64   _sl_gen_emit_switch      (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   guint             prev,
                                   gint64            prev_state,
                                   guint             next);
gint64   _sl_gen_emit_wakeup      (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   guint             ti,
                                   guint             id);
gint64   _sl_gen_emit_syscall_entry (SlGenerate     *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   guint             sc,
                                   const Thread     *th,
                                   guint64           size,
                                   gboolean          blocking);
gint64   _sl_gen_emit_syscall_exit (SlGenerate      *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   guint             sc,
                                   const Thread     *th,
                                   gint64            ret);
gint64   _sl_gen_emit_irq         (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   gboolean          entry,
                                   gint32            irq,
                                   const char       *name);
gint64   _sl_gen_emit_softirq     (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   guint             id,
                                   guint32           vec);
gint64   _sl_gen_emit_net         (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   gboolean          send,
                                   const Wire       *w);
void     _sl_gen_record_sample    (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   gboolean          send,
                                   const Wire       *w);
gint64   _sl_gen_emit_statedump   (SlGenerate       *self,
                                   Host             *h,
                                   gint64            t);
gint64   _sl_gen_emit_fork        (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   guint             parent,
                                   guint             child);
gint64   _sl_gen_emit_exec        (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   guint             ti,
                                   const char       *file);
gint64   _sl_gen_emit_exit        (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   guint             ti);

/* Scheduling, background and processes (sl-generate-cpu.c) */

gint64   _sl_gen_run_thread       (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   guint             ti,
                                   gboolean          wake,
                                   gint64            ret);
gint64   _sl_gen_block_thread     (SlGenerate       *self,
                                   Host             *h,
                                   guint             cpu,
                                   gint64            t,
                                   guint             ti,
                                   gint64            state);
void     _sl_gen_handle_cpu       (SlGenerate       *self,
                                   Item             *it);
void     _sl_gen_handle_proc      (SlGenerate       *self,
                                   Item             *it);
void     _sl_gen_handle_control   (SlGenerate       *self,
                                   Item             *it);

/* TCP (sl-generate-tcp.c) */

void     _sl_gen_tcp_wire         (SlGenerate       *self,
                                   const Conn       *c,
                                   guint             side,
                                   Wire             *w);
void     _sl_gen_handle_connect   (SlGenerate       *self,
                                   Item             *it);
void     _sl_gen_handle_txn       (SlGenerate       *self,
                                   Item             *it);
void     _sl_gen_handle_respond   (SlGenerate       *self,
                                   Item             *it);
void     _sl_gen_handle_wake      (SlGenerate       *self,
                                   Item             *it);
void     _sl_gen_handle_ksend     (SlGenerate       *self,
                                   Item             *it);
void     _sl_gen_handle_arrive    (SlGenerate       *self,
                                   Item             *it);

/* Packets readers must ignore (sl-generate-noise.c) */

void     _sl_gen_handle_noise     (SlGenerate       *self,
                                   Item             *it);
void     _sl_gen_handle_rawsend   (SlGenerate       *self,
                                   Item             *it);

/* Output (sl-generate-metadata.c, sl-generate-truth.c) */

char    *_sl_gen_host_metadata    (SlGenerate       *self,
                                   const Host       *h);
gboolean _sl_gen_write_truth      (SlGenerate       *self,
                                   const char       *path,
                                   GError          **error);

G_END_DECLS
