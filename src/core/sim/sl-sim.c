/* sl-sim.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-heap.h"
#include "sl-rng.h"
#include "sl-sim.h"

/* A discrete-event simulation in true time: each link is a TCP connection
 * whose two ends send at Poisson instants; packets arrive after a minimum
 * latency plus an exponential delay, may be lost (and then retransmitted
 * with the same header) or duplicated. Events come out in true-time order,
 * stamped with each host's own clock. */

enum { ITEM_SOURCE, ITEM_EVENT };

typedef struct
{
  gint64        t;
  guint64       tie;
  guint         kind;
  guint         link;
  SlPacketEvent ev;
} Item;

typedef struct
{
  SlSimLink link;
  guint32   seq[2];
} Conn;

struct _SlSim
{
  SlSimOptions options;
  GArray      *hosts;
  GArray      *conns;
  GArray      *heap;
  SlRng        rng;
  guint64      tie;
  gboolean     started;
};

void
sl_sim_options_init (SlSimOptions *options)
{
  g_return_if_fail (options != NULL);

  options->start_ns = G_GINT64_CONSTANT (1700000000000000000);
  options->duration_ns = 60 * G_GINT64_CONSTANT (1000000000);
  options->min_latency_ns = 40000;
  options->mean_extra_latency_ns = 30000;
  options->loss = 0.0;
  options->duplicate = 0.0;
  options->seed = 1;
}

SlSim *
sl_sim_new (const SlSimOptions *options)
{
  SlSim *self;

  g_return_val_if_fail (options != NULL, NULL);

  self = g_new0 (SlSim, 1);
  self->options = *options;
  self->hosts = g_array_new (FALSE, TRUE, sizeof (SlSimHost));
  self->conns = g_array_new (FALSE, TRUE, sizeof (Conn));
  self->heap = g_array_new (FALSE, FALSE, sizeof (Item));
  sl_rng_init (&self->rng, options->seed, 0);
  return self;
}

void
sl_sim_free (SlSim *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->hosts->len; i++)
    g_free (g_array_index (self->hosts, SlSimHost, i).name);
  g_array_unref (self->hosts);
  g_array_unref (self->conns);
  g_array_unref (self->heap);
  g_free (self);
}

guint
sl_sim_add_host (SlSim      *self,
                 const char *name,
                 gint64      offset_ns,
                 double      drift)
{
  SlSimHost h = { NULL, offset_ns, drift, 0.0, 1.0, 0.0, 0, 0 };

  g_return_val_if_fail (self != NULL, G_MAXUINT);
  g_return_val_if_fail (name != NULL, G_MAXUINT);

  h.name = g_strdup (name);
  g_array_append_val (self->hosts, h);
  return self->hosts->len - 1;
}

void
sl_sim_set_host_wander (SlSim  *self,
                        guint   host,
                        double  wander,
                        double  period_s)
{
  SlSimHost *h;

  g_return_if_fail (self != NULL);
  g_return_if_fail (host < self->hosts->len);
  g_return_if_fail (wander >= 0 && period_s > 0);

  h = &g_array_index (self->hosts, SlSimHost, host);
  h->wander = wander;
  h->wander_period_ns = period_s * 1e9;
}

/* A rate that changes steadily by @per_s a second (1e-6: 1 ppm a second,
 * either sign): a clock with a constant second derivative. */
void
sl_sim_set_host_ramp (SlSim  *self,
                      guint   host,
                      double  per_s)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (host < self->hosts->len);
  g_return_if_fail (isfinite (per_s));

  g_array_index (self->hosts, SlSimHost, host).ramp = per_s * 1e-9;
}

void
sl_sim_set_host_step (SlSim  *self,
                      guint   host,
                      gint64  at_true_ns,
                      gint64  step_ns)
{
  SlSimHost *h;

  g_return_if_fail (self != NULL);
  g_return_if_fail (host < self->hosts->len);

  h = &g_array_index (self->hosts, SlSimHost, host);
  h->step_at = at_true_ns;
  h->step_ns = step_ns;
}

void
sl_sim_add_link_span (SlSim  *self,
                      guint   a,
                      guint   b,
                      double  packets_per_s,
                      gint64  start_ns,
                      gint64  end_ns)
{
  Conn c = { { a, b, packets_per_s, start_ns, end_ns }, { 1000, 5000 } };

  g_return_if_fail (self != NULL);
  g_return_if_fail (a < self->hosts->len && b < self->hosts->len && a != b);
  g_return_if_fail (packets_per_s > 0);
  g_return_if_fail (start_ns <= end_ns);
  g_array_append_val (self->conns, c);
}

void
sl_sim_add_link (SlSim  *self,
                 guint   a,
                 guint   b,
                 double  packets_per_s)
{
  sl_sim_add_link_span (self, a, b, packets_per_s, 0, 0);
}

guint
sl_sim_get_n_hosts (const SlSim *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->hosts->len;
}

const SlSimHost *
sl_sim_get_host (const SlSim *self,
                 guint        host)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (host < self->hosts->len, NULL);
  return &g_array_index (self->hosts, SlSimHost, host);
}

gint64
sl_sim_local_time (const SlSim *self,
                   guint        host,
                   gint64       true_time)
{
  const SlSimHost *h;
  double d, w = 0;

  g_return_val_if_fail (self != NULL, true_time);
  g_return_val_if_fail (host < self->hosts->len, true_time);

  h = sl_sim_get_host (self, host);
  d = (double) (true_time - self->options.start_ns);

  if (h->wander > 0)
    {
      double s = sin (G_PI * d / h->wander_period_ns);

      w = h->wander * h->wander_period_ns / G_PI * s * s;
    }
  w += h->ramp / 2 * d * d;
  return true_time + h->offset_ns + (gint64) llround (h->drift * d + w) +
         (h->step_at != 0 && true_time >= h->step_at ? h->step_ns : 0);
}

void
sl_sim_true_transform (const SlSim *self,
                       guint        from,
                       guint        to,
                       SlTransform *out)
{
  const SlSimHost *f, *t;
  SlTransform lf, lt, inv;
  gint64 s;

  g_return_if_fail (self != NULL && out != NULL);
  g_return_if_fail (from < self->hosts->len && to < self->hosts->len);

  f = sl_sim_get_host (self, from);
  t = sl_sim_get_host (self, to);
  s = self->options.start_ns;

  sl_transform_init (&lf, s, s + f->offset_ns, 0.0, f->drift);
  sl_transform_init (&lt, s, s + t->offset_ns, 0.0, t->drift);
  sl_transform_invert (&lf, &inv);
  sl_transform_compose (&lt, &inv, out);
}

/* by true time, ties in the order they were scheduled */
static gboolean
item_less (gconstpointer a,
           gconstpointer b)
{
  const Item *x = a, *y = b;

  return x->t < y->t || (x->t == y->t && x->tie < y->tie);
}

static void
heap_push (SlSim *self,
           Item  *it)
{
  it->tie = self->tie++;
  sl_heap_push (self->heap, it, sizeof *it, item_less);
}

static void
set_addr (guint8 addr[16],
          guint  host)
{
  memset (addr, 0, 16);
  addr[0] = 10;
  addr[1] = (guint8) (host >> 16);
  addr[2] = (guint8) (host >> 8);
  addr[3] = (guint8) host;
}

static void
schedule_source (SlSim *self,
                 guint  link,
                 gint64 after)
{
  Conn *c = &g_array_index (self->conns, Conn, link);
  Item it = { 0 };

  it.t = after + 1 + sl_rng_exp (&self->rng, 1e9 / c->link.packets_per_s);
  it.kind = ITEM_SOURCE;
  it.link = link;
  heap_push (self, &it);
}

static void
start (SlSim *self)
{
  self->started = TRUE;
  for (guint i = 0; i < self->conns->len; i++)
    {
      const SlSimLink *l = &g_array_index (self->conns, Conn, i).link;

      schedule_source (self, i, MAX (self->options.start_ns, l->start_ns));
    }
}

static void
schedule_delivery (SlSim               *self,
                   const SlPacketEvent *send,
                   guint                to,
                   gint64               t_send)
{
  Item it = { 0 };

  it.kind = ITEM_EVENT;
  it.ev = *send;
  it.ev.dir = SL_PACKET_RECV;
  it.ev.host = to;

  if (sl_rng_chance (&self->rng, self->options.loss))
    {
      /* Lost: the sender retransmits the same header after a timeout. */
      it.ev = *send;
      it.t = t_send + 4 * self->options.min_latency_ns + 200000;
      heap_push (self, &it);
      return;
    }

  it.t = t_send + self->options.min_latency_ns +
         sl_rng_exp (&self->rng, self->options.mean_extra_latency_ns);
  heap_push (self, &it);

  if (sl_rng_chance (&self->rng, self->options.duplicate))
    {
      it.t += 1000 + sl_rng_exp (&self->rng, self->options.mean_extra_latency_ns);
      heap_push (self, &it);
    }
}

/* Returns the next event in true-time order with its host-local time
 * in event->time, or FALSE when the simulation is over. */
gboolean
sl_sim_next (SlSim         *self,
             SlPacketEvent *event,
             gint64        *true_time)
{
  gint64 end;

  g_return_val_if_fail (self != NULL && event != NULL && true_time != NULL, FALSE);

  end = self->options.start_ns + self->options.duration_ns;

  if (!self->started)
    start (self);

  while (self->heap->len > 0)
    {
      Item it;

      sl_heap_pop (self->heap, &it, sizeof it, item_less);

      if (it.kind == ITEM_SOURCE)
        {
          Conn *c = &g_array_index (self->conns, Conn, it.link);
          int dir = sl_rng_below (&self->rng, 2);
          guint from = dir == 0 ? c->link.a : c->link.b;
          guint to = dir == 0 ? c->link.b : c->link.a;
          SlPacketEvent ev = { 0 };

          if (it.t >= end || (c->link.end_ns != 0 && it.t >= c->link.end_ns))
            continue;

          ev.host = from;
          ev.dir = SL_PACKET_SEND;
          ev.family = 4;
          set_addr (ev.saddr, from);
          set_addr (ev.daddr, to);
          ev.sport = (guint16) (dir == 0 ? 40000 + it.link % 20000 : 443);
          ev.dport = (guint16) (dir == 0 ? 443 : 40000 + it.link % 20000);
          ev.seq = c->seq[dir];
          ev.ack_seq = c->seq[1 - dir];
          ev.flags = 0x18;
          c->seq[dir] += 100 + sl_rng_below (&self->rng, 1400);

          schedule_delivery (self, &ev, to, it.t);
          schedule_source (self, it.link, it.t);

          ev.time = sl_sim_local_time (self, from, it.t);
          *event = ev;
          *true_time = it.t;
          return TRUE;
        }

      if (it.ev.dir == SL_PACKET_SEND)
        {
          /* a retransmission */
          guint to = 0;

          for (; to < self->hosts->len; to++)
            {
              guint8 addr[16];
              set_addr (addr, to);
              if (memcmp (addr, it.ev.daddr, 16) == 0)
                break;
            }
          schedule_delivery (self, &it.ev, to, it.t);
        }

      *event = it.ev;
      event->time = sl_sim_local_time (self, it.ev.host, it.t);
      *true_time = it.t;
      return TRUE;
    }

  return FALSE;
}
