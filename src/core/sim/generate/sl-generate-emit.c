/* sl-generate-emit.c: the event writers: one lttng-modules event each,
 * field by field
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-generate-private.h"

/* Every event: the CPU's clock never goes back, the cycles are the host's
 * clock at that true time. */
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

static inline guint64
user_addr (const Thread *th,
           guint         salt)
{
  return G_GUINT64_CONSTANT (0x7f0000000000) |
         (((guint64) (guint32) th->tid * 0x9e3779b1u + salt * 0x1000u) & G_GUINT64_CONSTANT (0xfffffff0));
}

gint64
_sl_gen_emit_switch (SlGenerate *self,
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

gint64
_sl_gen_emit_wakeup (SlGenerate *self,
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

gint64
_sl_gen_emit_syscall_entry (SlGenerate   *self,
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

gint64
_sl_gen_emit_syscall_exit (SlGenerate   *self,
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

gint64
_sl_gen_emit_irq (SlGenerate *self,
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

gint64
_sl_gen_emit_softirq (SlGenerate *self,
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

/* Header copies are written byte for byte as lttng-modules copies them
 * from the skb; the metadata declares them big-endian. TCP headers carry
 * the timestamp option (data offset 8), as Linux sends them. */
gint64
_sl_gen_emit_net (SlGenerate *self,
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
      /* what a reader takes from the IP and TCP headers written above */
      ev.has_length = TRUE;
      ev.length = w->payload;
      memcpy (ev.saddr, w->saddr, 16);
      memcpy (ev.daddr, w->daddr, 16);
      self->packet_func (&ev, t, self->packet_data);
    }
  return t;
}

/* Keeps, per host and direction, the first two data segments and then one
 * every eighth of the trace, so tests can check written timestamps over the
 * whole span (timestamp wrap-arounds included). */
void
_sl_gen_record_sample (SlGenerate *self,
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

gint64
_sl_gen_emit_statedump (SlGenerate *self,
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
      t = ev_begin (self, h, 0, t + 700 + sl_rng_below (&h->rng, 800), EV_STATEDUMP_PROCESS, 60);
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

/* lttng-modules >= 2.8's sched_process_fork (without the vtids sequence):
 * the child's pid is its own tid for a new process, the parent's for a
 * thread */
gint64
_sl_gen_emit_fork (SlGenerate *self,
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

/* sched_process_exec: @ti now runs @file and takes its base name */
gint64
_sl_gen_emit_exec (SlGenerate *self,
                   Host       *h,
                   guint       cpu,
                   gint64      t,
                   guint       ti,
                   const char *file)
{
  SlCtfStream *s = h->cpu[cpu].stream;
  Thread *th = thread_at (h, ti);
  const char *base = strrchr (file, '/');

  t = ev_begin (self, h, cpu, t, EV_EXEC, 8 + 64);
  sl_ctf_put_string (s, file);
  sl_ctf_put_i32 (s, th->tid);
  sl_ctf_put_i32 (s, th->tid);
  ev_end (h, cpu);
  memset (th->comm, 0, sizeof th->comm);
  g_strlcpy (th->comm, base != NULL ? base + 1 : file, sizeof th->comm);
  return t;
}

/* sched_process_exit of the running thread @ti */
gint64
_sl_gen_emit_exit (SlGenerate *self,
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
  return t;
}
