/* sl-generate.h: realistic multi-host LTTng kernel traces with known clocks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Output of sl_generate_run (DIR):
 *
 *   DIR/ground-truth.json        clocks, links, counts, sampled events, and
 *                                every task: tid, pid, ppid, name, how it
 *                                came (state dump and its status, fork of a
 *                                process, new thread), when, when it exited
 *   DIR/<host>/kernel/metadata   CTF 1.8 TSDL text, lttng-modules 2.12 style
 *   DIR/<host>/kernel/channel0_N one stream per CPU N, little-endian packets
 *
 * Per host: env (hostname, domain = "kernel", tracer_name = "lttng-modules",
 * tracer_major/minor = 2/12, …), one clock "monotonic" whose uuid is the boot
 * id, freq = the host's counter frequency and offset_s = its boot time;
 * lttng's packet header (magic, trace uuid, stream_id, stream_instance_id)
 * and context (timestamp_begin/end, content_size, packet_size,
 * packet_seq_num, events_discarded, cpu_id); lttng's `large` or `compact`
 * event header. Packets are at most SlGenerateOptions.packet_size and padded
 * to 4 KiB, as lttng's consumer writes them. Every field is byte-aligned as
 * on x86-64; network header copies are declared `byte_order = be`.
 *
 * Events (lttng-modules ≥ 2.9 names and fields): sched_switch, sched_wakeup,
 * sched_wakeup_new, sched_process_fork/exec/exit (forks of processes by a
 * shell, and threads that daemons start and end), lttng_statedump_start/
 * process_state/end (with lttng-modules' status: waiting or ready),
 * syscall_entry_/syscall_exit_ read, write, epoll_wait, futex, sendto,
 * recvfrom, irq_handler_entry/exit, softirq_raise/entry/exit, net_dev_queue
 * and net_if_receive_skb with the full network and transport header
 * variants (TCP between traced hosts, plus UDP, ICMP, ARP, loopback and
 * untraced-peer packets that readers must ignore).
 */

#pragma once

#include <glib.h>

#include "sl-ctf-writer.h"
#include "sl-matcher.h"
#include "sl-transform.h"

G_BEGIN_DECLS

/* The most hosts a generator writes (automatic or added) */
#define SL_GENERATE_MAX_HOSTS 10000

/**
 * SlGenerateVariant:
 * @SL_GENERATE_VARIANT_MODERN: lttng-modules ≥ 2.9.8/2.10.5: the transport
 *   header variant is tagged by a `transport_header_type` enum field
 * @SL_GENERATE_VARIANT_LEGACY: lttng-modules 2.9.0–2.9.7, 2.10.0–2.10.4: it is
 *   tagged by the `protocol` (IPv4) or `nexthdr` (IPv6) enum itself
 */
typedef enum
{
  SL_GENERATE_VARIANT_MODERN,
  SL_GENERATE_VARIANT_LEGACY,
} SlGenerateVariant;

typedef enum
{
  SL_GENERATE_IP_4,
  SL_GENERATE_IP_6,
  SL_GENERATE_IP_MIX,
} SlGenerateIp;

/**
 * SlGenerateHost:
 * @name: host name (trace folder and `env.hostname`)
 * @freq_hz: frequency of the traced clock's counter
 * @offset_ns: local minus true time at the start
 * @drift_ppm: rate error of the local clock
 * @wander_ppm: amplitude of a slow sinusoidal change of the rate (0: linear)
 * @wander_period_s: period of that change
 * @step_after_ns: true time after the start at which the clock steps
 *   forward by @step_ns (0: never); forward only, as a CTF stream's
 *   timestamps never go back
 * @step_ns: that step
 * @cpus: CPUs (streams) of the host, 0 for the scenario's default
 *
 * The host's clock reads, in ns, `true + offset_ns + drift_ppm·1e-6·(true −
 * start) + W(true − start)` with `W(d) = wander_ppm·1e-6·P/2π·(1 − cos(2πd/P))`
 * (so its rate is `1 + (drift_ppm + wander_ppm·sin(2πd/P))·1e-6`), and the
 * trace stores that reading counted by a @freq_hz counter from the clock's
 * origin: `cycles = round(local_ns · freq_hz / 1e9) − clock_offset_s · freq_hz`.
 */
typedef struct
{
  char    *name;
  guint64  freq_hz;
  gint64   offset_ns;
  double   drift_ppm;
  double   wander_ppm;
  double   wander_period_s;
  gint64   step_after_ns;
  gint64   step_ns;
  guint    cpus;
} SlGenerateHost;

/**
 * SlGenerateLink:
 * @a: client host (opens the TCP connections)
 * @b: server host
 * @rate: TCP segments per second on the link, both directions together
 */
typedef struct
{
  guint  a;
  guint  b;
  double rate;
} SlGenerateLink;

/**
 * SlGenerateOptions:
 * @start_ns: true time at which tracing starts (ns since the epoch)
 * @duration_ns: traced span
 * @seed: random seed; the output is byte-identical for the same options
 * @cpus: default CPUs per host
 * @threads: background user threads per host (besides kernel threads and
 *   the application threads that own the connections)
 * @events: total events to aim for (the background rate adapts); 0 to use
 *   @background_rate
 * @background_rate: background activities (syscalls, scheduling, interrupts;
 *   about 2.3 events each) per CPU per second when @events is 0
 * @link_rate: segments per second of links added without a rate
 * @connections: TCP connections per link
 * @loss: probability that a segment is lost (the sender retransmits it)
 * @duplicate: probability of a spurious retransmission (both copies arrive)
 * @min_latency_ns: smallest one-way latency of the links
 * @jitter_ns: mean of the variable part of the latency
 * @noise_rate: non-TCP, loopback and untraced-peer packets per host per second
 * @ip: address family of the connections
 * @variant: layout of the network events' transport header variant
 * @header: event header of the streams
 * @packet_size: largest packet (sub-buffer) size in bytes
 * @n_hosts: hosts to create when none is added explicitly
 * @components: groups of automatic hosts that never talk to each other
 * @max_drift_ppm: automatic hosts draw their drift in ±this
 * @max_offset_ns: automatic hosts draw |offset| log-uniformly in [1 µs, this]
 * @wander_ppm: wander of automatic hosts
 * @wander_period_s: its period
 * @max_open_streams: stream files kept open during the run; with more, each
 *   packet is appended by opening its file (the bytes are the same); 0 for
 *   half the process's limit on open files
 */
typedef struct
{
  gint64            start_ns;
  gint64            duration_ns;
  guint64           seed;
  guint             cpus;
  guint             threads;
  guint64           events;
  double            background_rate;
  double            link_rate;
  guint             connections;
  double            loss;
  double            duplicate;
  gint64            min_latency_ns;
  gint64            jitter_ns;
  double            noise_rate;
  SlGenerateIp      ip;
  SlGenerateVariant variant;
  SlCtfHeader       header;
  gsize             packet_size;
  guint             n_hosts;
  guint             components;
  double            max_drift_ppm;
  gint64            max_offset_ns;
  double            wander_ppm;
  double            wander_period_s;
  guint             max_open_streams;
} SlGenerateOptions;

/**
 * SlGenerateStats:
 * @events: events written, all hosts
 * @tcp_segments: TCP segments sent between traced hosts (first copies)
 * @lost: segments lost
 * @retransmissions: retransmitted segments (after a loss or spuriously)
 * @noise_packets: packets that readers should ignore (UDP, ICMP, ARP,
 *   loopback, untraced peers)
 * @bytes: bytes written (streams and metadata)
 * @files: files written
 * @elapsed_s: wall-clock time of the run
 */
typedef struct
{
  guint64 events;
  guint64 tcp_segments;
  guint64 lost;
  guint64 retransmissions;
  guint64 noise_packets;
  guint64 bytes;
  guint   files;
  double  elapsed_s;
} SlGenerateStats;

/**
 * SlGeneratePacketFunc:
 * @event: a TCP packet event as a trace reader would report it: host index,
 *   direction, time in ns from the epoch exactly as babeltrace2 computes it
 *   from the written cycles, header fields in host order
 * @true_ns: the true time of the event
 *
 * Called, in true-time order, for every TCP send and receive event written.
 */
typedef void (*SlGeneratePacketFunc) (const SlPacketEvent *event,
                                      gint64               true_ns,
                                      gpointer             user_data);

typedef struct _SlGenerate SlGenerate;

void         sl_generate_options_init      (SlGenerateOptions       *options);
SlGenerate  *sl_generate_new               (const SlGenerateOptions *options);
void         sl_generate_free              (SlGenerate              *self);
const SlGenerateOptions *sl_generate_get_options (const SlGenerate  *self);

gboolean     sl_generate_parse_host        (const char              *spec,
                                            SlGenerateHost          *host,
                                            GError                 **error);
void         sl_generate_host_clear        (SlGenerateHost          *host);
gboolean     sl_generate_add_host          (SlGenerate              *self,
                                            const SlGenerateHost    *host,
                                            GError                 **error);
gboolean     sl_generate_add_step_spec     (SlGenerate              *self,
                                            const char              *spec,
                                            GError                 **error);
gboolean     sl_generate_add_link          (SlGenerate              *self,
                                            const char              *a,
                                            const char              *b,
                                            double                   rate,
                                            GError                 **error);
gboolean     sl_generate_add_link_spec     (SlGenerate              *self,
                                            const char              *spec,
                                            GError                 **error);
gboolean     sl_generate_prepare_hosts     (SlGenerate              *self,
                                            GError                 **error);
gboolean     sl_generate_prepare           (SlGenerate              *self,
                                            GError                 **error);
void         sl_generate_set_packet_func   (SlGenerate              *self,
                                            SlGeneratePacketFunc     func,
                                            gpointer                 user_data);
gboolean     sl_generate_run               (SlGenerate              *self,
                                            const char              *out_dir,
                                            SlGenerateStats         *stats,
                                            GError                 **error);

guint        sl_generate_get_n_hosts       (const SlGenerate        *self);
const SlGenerateHost *sl_generate_get_host (const SlGenerate        *self,
                                            guint                    host);
guint        sl_generate_find_host         (const SlGenerate        *self,
                                            const char              *name);
guint        sl_generate_get_n_links       (const SlGenerate        *self);
const SlGenerateLink *sl_generate_get_link (const SlGenerate        *self,
                                            guint                    link);
gint64       sl_generate_get_start         (const SlGenerate        *self);
gint64       sl_generate_get_duration      (const SlGenerate        *self);

gint64       sl_generate_local_time        (const SlGenerate        *self,
                                            guint                    host,
                                            gint64                   true_ns);
gint64       sl_generate_trace_time        (const SlGenerate        *self,
                                            guint                    host,
                                            gint64                   true_ns);
void         sl_generate_true_transform    (const SlGenerate        *self,
                                            guint                    from,
                                            guint                    to,
                                            SlTransform             *out);
gboolean     sl_generate_true_transform_by_name (const SlGenerate   *self,
                                                 const char         *from,
                                                 const char         *to,
                                                 SlTransform        *out,
                                                 GError            **error);
double       sl_generate_wander_bound_ns   (const SlGenerate        *self,
                                            guint                    from,
                                            guint                    to);

SlGenerate  *sl_generate_load_truth        (const char              *path,
                                            GError                 **error);

const char  *sl_generate_variant_to_string (SlGenerateVariant        variant);
gboolean     sl_generate_variant_from_string (const char            *str,
                                              SlGenerateVariant     *variant);
const char  *sl_generate_ip_to_string      (SlGenerateIp             ip);
gboolean     sl_generate_ip_from_string    (const char              *str,
                                            SlGenerateIp            *ip);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlGenerate, sl_generate_free)

G_END_DECLS
