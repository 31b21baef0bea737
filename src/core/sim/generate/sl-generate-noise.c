/* sl-generate-noise.c: packets readers must ignore: UDP, ICMP, ARP,
 * loopback, untraced peers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-generate-private.h"

/* A random neighbour of @h (a host it has a link with), NONE if it has
 * none */
static guint
pick_neighbour (SlGenerate *self,
                const Host *h)
{
  guint pick = NONE;

  for (guint i = 0; i < h->neighbours->len; i++)
    if (sl_rng_below (&self->noise_rng, i + 1) == 0)
      pick = g_array_index (h->neighbours, guint, i);
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

/* @out, sent at @t, arrives at @peer on a random CPU after the network's
 * latency. */
static void
to_peer (SlGenerate *self,
         Item       *out,
         guint       peer,
         gint64      t)
{
  SlRng *r = &self->noise_rng;

  out->host = peer;
  out->aux = sl_rng_below (r, host_at (self, peer)->n_cpus);
  out->t = t + self->options.min_latency_ns + sl_rng_exp (r, (double) self->options.jitter_ns);
}

/* One noise packet in the making: the host and CPU it leaves from, when
 * (once sent: when its net_dev_queue was written), and what arrives then
 * (the answer, or the packet itself). */
typedef struct
{
  SlGenerate *self;
  Host       *h;
  SlRng      *r;
  guint       cpu;
  guint8      family;
  gint64      t;
  Item        out;
} Noise;

/* The net_dev_queue of the packet, with a fresh checksum and IP id */
static void
noise_send (Noise *n)
{
  n->out.w.checksum = (guint16) sl_rng_u64 (n->r);
  n->out.w.ip_id = n->h->ip_id++;
  n->t = _sl_gen_emit_net (n->self, n->h, n->cpu, n->t, TRUE, &n->out.w);
}

/* What arrives comes back to the sender's CPU after @delay */
static void
noise_back_here (Noise  *n,
                 gint64  delay)
{
  n->out.host = n->h->index;
  n->out.aux = n->cpu;
  n->out.t = n->t + delay;
}

/* DNS query to an untraced resolver, and its answer */
static void
noise_dns (Noise *n)
{
  Wire *w = &n->out.w;

  raw_wire (n->h, NULL, n->family, 17, w);
  w->daddr[n->family == 4 ? 3 : 15] = 53;
  w->sport = (guint16) (32768 + sl_rng_below (n->r, 28000));
  w->dport = 53;
  w->payload = (guint16) (28 + sl_rng_below (n->r, 40));
  noise_send (n);
  swap_wire (w);
  w->ip_id = (guint16) sl_rng_u64 (n->r);
  w->payload = (guint16) (w->payload + 16 + sl_rng_below (n->r, 120));
  noise_back_here (n, 200 * US + sl_rng_exp (n->r, 800 * US));
  n->self->stats.noise_packets += 2;
}

/* To a neighbour: a ping, which the peer's kernel answers, or metrics over
 * UDP */
static void
noise_neighbour (Noise    *n,
                 guint     peer,
                 gboolean  ping)
{
  Wire *w = &n->out.w;

  raw_wire (n->h, host_at (n->self, peer), n->family, ping ? 1 : 17, w);
  if (ping)
    {
      w->icmp_type = 8;
      w->sport = (guint16) sl_rng_u64 (n->r);
      w->dport = (guint16) sl_rng_below (n->r, 1000);
      w->payload = 56;
    }
  else
    {
      w->sport = (guint16) (32768 + sl_rng_below (n->r, 28000));
      w->dport = 8125;
      w->payload = (guint16) (20 + sl_rng_below (n->r, 400));
    }
  noise_send (n);
  if (ping)
    {
      n->out.role = ROLE_ECHO;
      n->out.txn = n->h->index;
    }
  to_peer (n->self, &n->out, peer, n->t);
  n->self->stats.noise_packets += ping ? 2 : 1;
}

/* TCP with an untraced server on the Internet */
static void
noise_internet (Noise *n)
{
  Wire *w = &n->out.w;
  guint32 seq;

  raw_wire (n->h, NULL, n->family, 6, w);
  w->sport = (guint16) (32768 + sl_rng_below (n->r, 28000));
  w->dport = 443;
  w->seq = (guint32) sl_rng_u64 (n->r);
  w->ack = (guint32) sl_rng_u64 (n->r);
  w->flags = TCP_PSH | TCP_ACK;
  w->window = 501;
  w->payload = (guint16) (100 + sl_rng_below (n->r, 600));
  noise_send (n);
  swap_wire (w);
  w->ip_id = (guint16) sl_rng_u64 (n->r);
  seq = w->seq;
  w->seq = w->ack;
  w->ack = seq + w->payload;
  w->payload = (guint16) (200 + sl_rng_below (n->r, MSS - 200));
  w->window = 1024;
  w->checksum = (guint16) sl_rng_u64 (n->r);
  noise_back_here (n, 5 * MS + sl_rng_exp (n->r, 15 * MS));
  n->self->stats.noise_packets += 2;
}

/* loopback: both events on this host, with the same header */
static void
noise_loopback (Noise *n)
{
  Wire *w = &n->out.w;

  w->family = n->family;
  w->proto = 6;
  w->lo = 1;
  if (n->family == 4)
    {
      w->saddr[0] = w->daddr[0] = 127;
      w->saddr[3] = w->daddr[3] = 1;
    }
  else
    w->saddr[15] = w->daddr[15] = 1;
  w->sport = (guint16) (32768 + sl_rng_below (n->r, 28000));
  w->dport = 6379;
  w->seq = (guint32) sl_rng_u64 (n->r);
  w->ack = (guint32) sl_rng_u64 (n->r);
  w->flags = TCP_PSH | TCP_ACK;
  w->window = 512;
  w->payload = (guint16) (20 + sl_rng_below (n->r, 200));
  noise_send (n);
  noise_back_here (n, 3 * US + sl_rng_exp (n->r, 5 * US));
  n->self->stats.noise_packets += 1;
}

/* ARP: no network header */
static void
noise_arp (Noise *n)
{
  n->out.w.family = 0;
  n->t = _sl_gen_emit_net (n->self, n->h, n->cpu, n->t, TRUE, &n->out.w);
  noise_back_here (n, 100 * US + sl_rng_exp (n->r, 200 * US));
  n->self->stats.noise_packets += 2;
}

void
_sl_gen_handle_noise (SlGenerate *self,
                      Item       *it)
{
  Noise n = { self, host_at (self, it->host), &self->noise_rng, 0, 4, it->t, { 0 } };
  double u;
  guint peer = NONE;

  n.cpu = sl_rng_below (n.r, n.h->n_cpus);
  u = sl_rng_double (n.r);
  n.family = self->options.ip == SL_GENERATE_IP_6 ? 6 :
             self->options.ip == SL_GENERATE_IP_MIX ? (sl_rng_below (n.r, 2) ? 6 : 4) : 4;

  /* packets to a neighbour become DNS when the host has none */
  if (u >= 0.25 && u < 0.65)
    peer = pick_neighbour (self, n.h);
  if (peer == NONE && u >= 0.25 && u < 0.65)
    u = 0.1;

  n.out.kind = IT_ARRIVE;
  n.out.role = ROLE_RAW;
  if (u < 0.25)
    noise_dns (&n);
  else if (u < 0.65)
    noise_neighbour (&n, peer, u < 0.45);
  else if (u < 0.8)
    noise_internet (&n);
  else if (u < 0.92)
    noise_loopback (&n);
  else
    noise_arp (&n);
  _sl_gen_schedule (self, &n.out);

  it->t = n.t + 1 + sl_rng_exp (n.r, 1e9 / self->options.noise_rate);
  _sl_gen_schedule (self, it);
}

void
_sl_gen_handle_rawsend (SlGenerate *self,
                        Item       *it)
{
  Host *h = host_at (self, it->host);
  guint cpu = it->aux % h->n_cpus;
  gint64 t;

  it->w.ip_id = h->ip_id++;
  t = _sl_gen_emit_net (self, h, cpu, it->t, TRUE, &it->w);

  it->kind = IT_ARRIVE;
  it->role = ROLE_RAW;
  to_peer (self, it, it->txn, t);
  _sl_gen_schedule (self, it);
}
