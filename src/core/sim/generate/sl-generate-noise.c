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

/* The net_dev_queue of @out->w, from @h at @t, with a fresh checksum and
 * IP id. */
static gint64
noise_send (SlGenerate *self,
            Host       *h,
            guint       cpu,
            gint64      t,
            Item       *out)
{
  out->w.checksum = (guint16) sl_rng_u64 (&self->noise_rng);
  out->w.ip_id = h->ip_id++;
  return _sl_gen_emit_net (self, h, cpu, t, TRUE, &out->w);
}

/* DNS query to an untraced resolver, and its answer */
static gint64
noise_dns (SlGenerate *self,
           Host       *h,
           guint       cpu,
           guint8      family,
           gint64      t,
           Item       *out)
{
  SlRng *r = &self->noise_rng;

  raw_wire (h, NULL, family, 17, &out->w);
  out->w.daddr[family == 4 ? 3 : 15] = 53;
  out->w.sport = (guint16) (32768 + sl_rng_below (r, 28000));
  out->w.dport = 53;
  out->w.payload = (guint16) (28 + sl_rng_below (r, 40));
  t = noise_send (self, h, cpu, t, out);
  swap_wire (&out->w);
  out->w.ip_id = (guint16) sl_rng_u64 (r);
  out->w.payload = (guint16) (out->w.payload + 16 + sl_rng_below (r, 120));
  out->host = h->index;
  out->aux = cpu;
  out->t = t + 200 * US + sl_rng_exp (r, 800 * US);
  self->stats.noise_packets += 2;
  return t;
}

/* To a neighbour: a ping, which the peer's kernel answers, or metrics over
 * UDP */
static gint64
noise_neighbour (SlGenerate *self,
                 Host       *h,
                 guint       cpu,
                 guint8      family,
                 guint       peer,
                 gboolean    ping,
                 gint64      t,
                 Item       *out)
{
  SlRng *r = &self->noise_rng;

  raw_wire (h, host_at (self, peer), family, ping ? 1 : 17, &out->w);
  if (ping)
    {
      out->w.icmp_type = 8;
      out->w.sport = (guint16) sl_rng_u64 (r);
      out->w.dport = (guint16) sl_rng_below (r, 1000);
      out->w.payload = 56;
    }
  else
    {
      out->w.sport = (guint16) (32768 + sl_rng_below (r, 28000));
      out->w.dport = 8125;
      out->w.payload = (guint16) (20 + sl_rng_below (r, 400));
    }
  t = noise_send (self, h, cpu, t, out);
  if (ping)
    {
      out->role = ROLE_ECHO;
      out->txn = h->index;
    }
  to_peer (self, out, peer, t);
  self->stats.noise_packets += ping ? 2 : 1;
  return t;
}

/* TCP with an untraced server on the Internet */
static gint64
noise_internet (SlGenerate *self,
                Host       *h,
                guint       cpu,
                guint8      family,
                gint64      t,
                Item       *out)
{
  SlRng *r = &self->noise_rng;
  guint32 seq;

  raw_wire (h, NULL, family, 6, &out->w);
  out->w.sport = (guint16) (32768 + sl_rng_below (r, 28000));
  out->w.dport = 443;
  out->w.seq = (guint32) sl_rng_u64 (r);
  out->w.ack = (guint32) sl_rng_u64 (r);
  out->w.flags = TCP_PSH | TCP_ACK;
  out->w.window = 501;
  out->w.payload = (guint16) (100 + sl_rng_below (r, 600));
  t = noise_send (self, h, cpu, t, out);
  swap_wire (&out->w);
  out->w.ip_id = (guint16) sl_rng_u64 (r);
  seq = out->w.seq;
  out->w.seq = out->w.ack;
  out->w.ack = seq + out->w.payload;
  out->w.payload = (guint16) (200 + sl_rng_below (r, MSS - 200));
  out->w.window = 1024;
  out->w.checksum = (guint16) sl_rng_u64 (r);
  out->host = h->index;
  out->aux = cpu;
  out->t = t + 5 * MS + sl_rng_exp (r, 15 * MS);
  self->stats.noise_packets += 2;
  return t;
}

/* loopback: both events on this host, with the same header */
static gint64
noise_loopback (SlGenerate *self,
                Host       *h,
                guint       cpu,
                guint8      family,
                gint64      t,
                Item       *out)
{
  SlRng *r = &self->noise_rng;

  out->w.family = family;
  out->w.proto = 6;
  out->w.lo = 1;
  if (family == 4)
    {
      out->w.saddr[0] = out->w.daddr[0] = 127;
      out->w.saddr[3] = out->w.daddr[3] = 1;
    }
  else
    out->w.saddr[15] = out->w.daddr[15] = 1;
  out->w.sport = (guint16) (32768 + sl_rng_below (r, 28000));
  out->w.dport = 6379;
  out->w.seq = (guint32) sl_rng_u64 (r);
  out->w.ack = (guint32) sl_rng_u64 (r);
  out->w.flags = TCP_PSH | TCP_ACK;
  out->w.window = 512;
  out->w.payload = (guint16) (20 + sl_rng_below (r, 200));
  t = noise_send (self, h, cpu, t, out);
  out->host = h->index;
  out->aux = cpu;
  out->t = t + 3 * US + sl_rng_exp (r, 5 * US);
  self->stats.noise_packets += 1;
  return t;
}

/* ARP: no network header */
static gint64
noise_arp (SlGenerate *self,
           Host       *h,
           guint       cpu,
           gint64      t,
           Item       *out)
{
  out->w.family = 0;
  t = _sl_gen_emit_net (self, h, cpu, t, TRUE, &out->w);
  out->host = h->index;
  out->aux = cpu;
  out->t = t + 100 * US + sl_rng_exp (&self->noise_rng, 200 * US);
  self->stats.noise_packets += 2;
  return t;
}

void
_sl_gen_handle_noise (SlGenerate *self,
                      Item       *it)
{
  Host *h = host_at (self, it->host);
  SlRng *r = &self->noise_rng;
  guint cpu = sl_rng_below (r, h->n_cpus);
  double u = sl_rng_double (r);
  guint8 family = self->options.ip == SL_GENERATE_IP_6 ? 6 :
                  self->options.ip == SL_GENERATE_IP_MIX ? (sl_rng_below (r, 2) ? 6 : 4) : 4;
  guint peer = NONE;
  Item out = { 0 };
  gint64 t = it->t;

  /* packets to a neighbour become DNS when the host has none */
  if (u >= 0.25 && u < 0.65)
    peer = pick_neighbour (self, h);
  if (peer == NONE && u >= 0.25 && u < 0.65)
    u = 0.1;

  out.kind = IT_ARRIVE;
  out.role = ROLE_RAW;
  if (u < 0.25)
    t = noise_dns (self, h, cpu, family, t, &out);
  else if (u < 0.65)
    t = noise_neighbour (self, h, cpu, family, peer, u < 0.45, t, &out);
  else if (u < 0.8)
    t = noise_internet (self, h, cpu, family, t, &out);
  else if (u < 0.92)
    t = noise_loopback (self, h, cpu, family, t, &out);
  else
    t = noise_arp (self, h, cpu, t, &out);
  _sl_gen_schedule (self, &out);

  it->t = t + 1 + sl_rng_exp (r, 1e9 / self->options.noise_rate);
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
