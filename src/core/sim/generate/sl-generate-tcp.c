/* sl-generate-tcp.c: TCP between traced hosts: handshakes, requests and
 * responses, ACKs, losses and retransmissions, arrivals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-generate-private.h"

void
_sl_gen_tcp_wire (SlGenerate *self,
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
  w->checksum = (guint16) sl_rng_u64 (&self->net_rng);
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
  SlRng *r = &self->net_rng;
  double j = (double) self->options.jitter_ns;
  gint64 d = l->base_latency + (gint64) payload * 8 + sl_rng_exp (r, j / 2) + sl_rng_exp (r, j / 2);

  /* occasional queueing behind other traffic */
  if (sl_rng_chance (r, 0.02))
    d += sl_rng_exp (r, 10 * j + 50 * US);
  return d;
}

static gint64
retransmit_timeout (SlGenerate *self,
                    const Link *l,
                    const Item *seg)
{
  SlRng *r = &self->net_rng;
  guint k = MIN (seg->retrans, 6);

  if (seg->role == ROLE_SYN || seg->role == ROLE_SYNACK)
    return (NS_PER_S << k) + sl_rng_exp (r, MS);
  if (k == 0 && sl_rng_chance (r, 0.5))
    return 4 * l->base_latency + MS + sl_rng_exp (r, 2 * MS);   /* fast retransmit */
  return (200 * MS << k) + sl_rng_exp (r, 10 * MS);
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
  SlRng *r = &self->net_rng;
  Item next;

  seg->w.ip_id = h->ip_id++;
  t = _sl_gen_emit_net (self, h, cpu, t, TRUE, &seg->w);
  if (seg->retrans == 0)
    {
      _sl_gen_record_sample (self, h, cpu, t, TRUE, &seg->w);
      l->segments++;
      self->stats.tcp_segments++;
    }
  else
    {
      l->retransmissions++;
      self->stats.retransmissions++;
    }

  if (sl_rng_chance (r, self->options.loss))
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
      _sl_gen_schedule (self, &next);
      return t;
    }

  next = *seg;
  next.kind = IT_ARRIVE;
  next.host = c->host[1 - side];
  next.t = t + latency (self, l, seg->w.payload);
  _sl_gen_schedule (self, &next);

  if (seg->w.payload > 0 && sl_rng_chance (r, self->options.duplicate))
    {
      next = *seg;
      next.kind = IT_KSEND;
      next.host = c->host[side];
      next.retrans++;
      next.t = t + 3 * l->base_latency + sl_rng_exp (r, 500 * US);
      _sl_gen_schedule (self, &next);
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
  _sl_gen_schedule (self, &it);
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
  SlRng *r = &self->net_rng;
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
        _sl_gen_tcp_wire (self, c, 1, &sa.w);
        sa.w.seq = c->snd_nxt[1]++;
        sa.w.ack = c->rcv_nxt[1];
        sa.w.flags = TCP_SYN | TCP_ACK;
        sa.w.window = 65160;
        c->acked[1] = c->rcv_nxt[1];
        sa.t = t + 2 * US + sl_rng_exp (r, 3 * US);
        _sl_gen_schedule (self, &sa);
      }
      break;

    case ROLE_SYNACK:
      {
        Item txn = { 0 };

        c->established = 1;
        schedule_ack (self, c, it->aux, 0, ROLE_ACK, t + 2 * US + sl_rng_exp (r, 2 * US));
        txn.kind = IT_TXN;
        txn.host = c->host[0];
        txn.aux = it->aux;
        txn.t = t + 20 * US + sl_rng_exp (r, c->txn_gap_ns / 4);
        _sl_gen_schedule (self, &txn);
      }
      break;

    case ROLE_REQ:
      if (it->last && it->txn > c->done[1])
        {
          Item resp = { 0 };

          c->done[1] = it->txn;
          _sl_gen_emit_wakeup (self, h, cpu, t + step (h), c->thread[1], EV_SCHED_WAKEUP);
          resp.kind = IT_RESPOND;
          resp.host = c->host[1];
          resp.aux = it->aux;
          resp.t = t + 15 * US + sl_rng_exp (r, 150 * US);
          if (sl_rng_chance (r, 0.03))
            resp.t += sl_rng_exp (r, 5 * MS);
          _sl_gen_schedule (self, &resp);
        }
      break;

    case ROLE_RESP:
      if (w->payload > 0 && ++c->unacked_segs[0] >= 2)
        {
          c->unacked_segs[0] = 0;
          schedule_ack (self, c, it->aux, 0, ROLE_ACK, t + 2 * US + sl_rng_exp (r, 2 * US));
        }
      if (it->last && it->txn > c->done[0])
        {
          Item wake = { 0 };

          c->done[0] = it->txn;
          _sl_gen_emit_wakeup (self, h, cpu, t + step (h), c->thread[0], EV_SCHED_WAKEUP);
          wake.kind = IT_WAKE;
          wake.host = c->host[0];
          wake.aux = it->aux;
          wake.t = t + 5 * US + sl_rng_exp (r, 10 * US);
          _sl_gen_schedule (self, &wake);
          if (c->unacked_segs[0] > 0)
            {
              gboolean quick = sl_rng_chance (r, 0.3);
              schedule_ack (self, c, it->aux, 0, quick ? ROLE_ACK : ROLE_DELACK,
                            t + (quick ? 2 * US + sl_rng_exp (r, 2 * US) : 40 * MS));
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

  t = _sl_gen_emit_syscall_entry (self, h, cpu, t, SC_SENDTO, thread_at (h, ti), bytes, TRUE) + step (h);
  for (guint k = 0; k < n; k++)
    {
      Item seg = { 0 };
      guint32 len = k + 1 < n ? MSS : bytes - (n - 1) * MSS;

      seg.role = side == 0 ? ROLE_REQ : ROLE_RESP;
      seg.dir = (guint8) side;
      seg.last = k + 1 == n;
      seg.aux = it->aux;
      seg.txn = c->txn;
      _sl_gen_tcp_wire (self, c, side, &seg.w);
      seg.w.seq = c->snd_nxt[side];
      seg.w.ack = c->rcv_nxt[side];
      seg.w.flags = seg.last ? TCP_PSH | TCP_ACK : TCP_ACK;
      seg.w.payload = (guint16) len;
      c->snd_nxt[side] += len;
      c->acked[side] = c->rcv_nxt[side];
      c->unacked_segs[side] = 0;
      t = send_tcp (self, c, cpu, t, &seg) + 400 + sl_rng_below (&h->rng, 1200);
    }
  return _sl_gen_emit_syscall_exit (self, h, cpu, t, SC_SENDTO, thread_at (h, ti), bytes) + step (h);
}

void
_sl_gen_handle_connect (SlGenerate *self,
                        Item       *it)
{
  Conn *c = conn_at (self, it->aux);
  Host *h = host_at (self, c->host[0]);
  guint ti = c->thread[0], cpu = thread_at (h, ti)->cpu;
  Item seg = { 0 };
  gint64 t;

  t = _sl_gen_run_thread (self, h, cpu, it->t, ti, TRUE, 0);
  seg.role = ROLE_SYN;
  seg.dir = 0;
  seg.aux = it->aux;
  _sl_gen_tcp_wire (self, c, 0, &seg.w);
  seg.w.seq = c->snd_nxt[0]++;
  seg.w.ack = 0;
  seg.w.flags = TCP_SYN;
  seg.w.window = 64240;
  t = send_tcp (self, c, cpu, t, &seg) + step (h);
  thread_at (h, ti)->blocked = SC_FUTEX;
  _sl_gen_block_thread (self, h, cpu, t, ti, TASK_INTERRUPTIBLE);
}

void
_sl_gen_handle_txn (SlGenerate *self,
                    Item       *it)
{
  Conn *c = conn_at (self, it->aux);
  Host *h = host_at (self, c->host[0]);
  SlRng *r = &self->net_rng;
  guint ti = c->thread[0], cpu = thread_at (h, ti)->cpu;
  guint32 bytes = sl_rng_chance (r, 0.9) ? 60 + sl_rng_below (r, 1300) : MSS + 1 + sl_rng_below (r, 2000);
  gint64 t;

  if (!c->established)
    return;
  c->txn++;
  c->req_bytes = bytes;
  t = _sl_gen_run_thread (self, h, cpu, it->t, ti, TRUE, 0);
  t = send_message (self, it, 0, bytes, t);
  t = _sl_gen_emit_syscall_entry (self, h, cpu, t, SC_RECVFROM, thread_at (h, ti), 65536, TRUE) + step (h);
  thread_at (h, ti)->blocked = SC_RECVFROM;
  _sl_gen_block_thread (self, h, cpu, t, ti, TASK_INTERRUPTIBLE);
}

void
_sl_gen_handle_respond (SlGenerate *self,
                        Item       *it)
{
  Conn *c = conn_at (self, it->aux);
  Host *h = host_at (self, c->host[1]);
  SlRng *r = &self->net_rng;
  guint ti = c->thread[1], cpu = thread_at (h, ti)->cpu;
  double u = sl_rng_double (r);
  guint32 bytes;
  gint64 t;

  if (u < 0.7)
    bytes = 100 + sl_rng_below (r, MSS - 100);
  else if (u < 0.95)
    bytes = MSS + 1 + sl_rng_below (r, 3 * MSS);
  else
    bytes = 8 * MSS + sl_rng_below (r, 12 * MSS);
  c->resp_bytes = bytes;

  t = _sl_gen_run_thread (self, h, cpu, it->t, ti, FALSE, 1);
  t = _sl_gen_emit_syscall_entry (self, h, cpu, t, SC_RECVFROM, thread_at (h, ti), 65536, FALSE) + step (h);
  t = _sl_gen_emit_syscall_exit (self, h, cpu, t, SC_RECVFROM, thread_at (h, ti), c->req_bytes) + step (h);
  t = send_message (self, it, 1, bytes, t);
  t = _sl_gen_emit_syscall_entry (self, h, cpu, t, SC_EPOLL, thread_at (h, ti), 0, TRUE) + step (h);
  thread_at (h, ti)->blocked = SC_EPOLL;
  _sl_gen_block_thread (self, h, cpu, t, ti, TASK_INTERRUPTIBLE);
}

void
_sl_gen_handle_wake (SlGenerate *self,
                     Item       *it)
{
  Conn *c = conn_at (self, it->aux);
  Host *h = host_at (self, c->host[0]);
  SlRng *r = &self->net_rng;
  guint ti = c->thread[0], cpu = thread_at (h, ti)->cpu;
  Item next = *it;
  gint64 t;

  t = _sl_gen_run_thread (self, h, cpu, it->t, ti, FALSE, c->resp_bytes);
  if (sl_rng_chance (r, 0.5))
    {
      guint64 n = 40 + sl_rng_below (r, 200);
      t = _sl_gen_emit_syscall_entry (self, h, cpu, t, SC_WRITE, thread_at (h, ti), n, FALSE) + step (h);
      t = _sl_gen_emit_syscall_exit (self, h, cpu, t + sl_rng_exp (r, 2 * US), SC_WRITE, thread_at (h, ti), (gint64) n) +
          step (h);
    }
  t = _sl_gen_emit_syscall_entry (self, h, cpu, t, SC_FUTEX, thread_at (h, ti), 0, TRUE) + step (h);
  thread_at (h, ti)->blocked = SC_FUTEX;
  t = _sl_gen_block_thread (self, h, cpu, t, ti, TASK_INTERRUPTIBLE);

  next.kind = IT_TXN;
  next.t = t + sl_rng_exp (r, c->txn_gap_ns);
  _sl_gen_schedule (self, &next);
}

/* Kernel-sent segments: handshake replies, ACKs, retransmissions. */
void
_sl_gen_handle_ksend (SlGenerate *self,
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
          _sl_gen_tcp_wire (self, c, side, &it->w);
          it->w.seq = c->snd_nxt[side];
          it->w.ack = c->rcv_nxt[side];
          it->w.flags = TCP_ACK;
          c->acked[side] = c->rcv_nxt[side];
          c->unacked_segs[side] = 0;
        }
    }
  else if (it->retrans > 0 && it->role != ROLE_SYN && sl_rng_chance (&self->net_rng, 0.5))
    {
      /* the retransmission acknowledges what arrived meanwhile */
      it->w.ack = c->rcv_nxt[side];
    }

  t = _sl_gen_emit_softirq (self, h, cpu, t, EV_SOFTIRQ_ENTRY, vec) + step (h);
  t = send_tcp (self, c, cpu, t, it) + step (h);
  _sl_gen_emit_softirq (self, h, cpu, t, EV_SOFTIRQ_EXIT, vec);
}

static guint
nic_irq (guint cpu)
{
  return 40 + cpu;
}

void
_sl_gen_handle_arrive (SlGenerate *self,
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
      t = _sl_gen_emit_irq (self, h, cpu, t, TRUE, (gint32) nic_irq (cpu), name) + step (h);
      t = _sl_gen_emit_softirq (self, h, cpu, t, EV_SOFTIRQ_RAISE, SOFTIRQ_NET_RX) + step (h);
      t = _sl_gen_emit_irq (self, h, cpu, t, FALSE, (gint32) nic_irq (cpu), NULL) + step (h);
    }
  t = _sl_gen_emit_softirq (self, h, cpu, t, EV_SOFTIRQ_ENTRY, SOFTIRQ_NET_RX) + step (h);
  t_recv = _sl_gen_emit_net (self, h, cpu, t, FALSE, &it->w);
  if (tcp && it->retrans == 0)
    _sl_gen_record_sample (self, h, cpu, t_recv, FALSE, &it->w);
  if (tcp)
    tcp_receive (self, it, cpu, t_recv);
  t = _sl_gen_emit_softirq (self, h, cpu, t_recv + step (h), EV_SOFTIRQ_EXIT, SOFTIRQ_NET_RX);

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
      _sl_gen_schedule (self, &reply);
    }
}
