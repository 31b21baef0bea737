/* sl-generate-scenario.c: automatic hosts and links, each host's identity and
 * tasks, the connections of each link
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-generate-private.h"
#include "sl-types.h"

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

void
_sl_gen_auto_hosts (SlGenerate *self)
{
  const SlGenerateOptions *o = &self->options;
  SlRng *r = &self->scenario_rng;
  guint n = o->n_hosts;
  int width = n >= 100 ? 3 : 2;

  for (guint i = 0; i < n; i++)
    {
      SlGenerateHost h = { 0 };
      double lo = log (1000.0), hi = log ((double) MAX (o->max_offset_ns, 1001));
      double mag = exp (lo + sl_rng_double (r) * (hi - lo));

      h.name = g_strdup_printf ("node-%0*u", width, i + 1);
      h.freq_hz = auto_freqs[sl_rng_below (r, G_N_ELEMENTS (auto_freqs))];
      h.offset_ns = (gint64) mag * (sl_rng_below (r, 2) ? 1 : -1);
      h.drift_ppm = (2 * sl_rng_double (r) - 1) * o->max_drift_ppm;
      h.wander_ppm = o->wander_ppm;
      h.wander_period_s = o->wander_period_s;
      sl_generate_add_host (self, &h, NULL);
      g_free (h.name);
    }
}

void
_sl_gen_auto_links (SlGenerate *self)
{
  SlRng *r = &self->scenario_rng;
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
          l.pub.b = lo + sl_rng_below (r, j);
          g_array_append_val (self->links, l);
        }
      for (guint e = 0; m >= 4 && e < m / 4; e++)
        {
          guint a = lo + sl_rng_below (r, m), b = lo + sl_rng_below (r, m);
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

guint
_sl_gen_add_thread (Host       *h,
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
  t.fd = 3 + (gint32) sl_rng_below (&h->rng, 20);
  g_array_append_val (h->threads, t);
  return h->threads->len - 1;
}

static void
host_setup_threads (SlGenerate *self,
                    Host       *h)
{
  SlRng *r = &h->rng;
  guint n_user = 0;

  h->threads = g_array_new (FALSE, TRUE, sizeof (Thread));
  h->cpu = g_new0 (Cpu, h->n_cpus);
  for (guint c = 0; c < h->n_cpus; c++)
    {
      g_autofree char *name = g_strdup_printf ("swapper/%u", c);

      h->cpu[c].idle = _sl_gen_add_thread (h, name, 0, 0, 0, 20, c, THREAD_IDLE);
      h->cpu[c].current = h->cpu[c].idle;
      h->cpu[c].preempted = NONE;
      h->cpu[c].bg = g_array_new (FALSE, FALSE, sizeof (guint));
    }

  _sl_gen_add_thread (h, "systemd", 1, 1, 0, 20, sl_rng_below (r, h->n_cpus), THREAD_USER);
  _sl_gen_add_thread (h, "kthreadd", 2, 2, 0, 20, 0, THREAD_KERNEL);
  _sl_gen_add_thread (h, "rcu_sched", 10, 10, 2, 20, 0, THREAD_KERNEL);
  for (guint c = 0; c < h->n_cpus; c++)
    {
      g_autofree char *a = g_strdup_printf ("ksoftirqd/%u", c);
      g_autofree char *b = g_strdup_printf ("kworker/%u:1", c);
      g_autofree char *m = g_strdup_printf ("migration/%u", c);
      gint32 kthread = 11 + 6 * (gint32) c;

      _sl_gen_add_thread (h, m, kthread, kthread, 2, -100, c, THREAD_KERNEL);
      _sl_gen_add_thread (h, a, kthread + 1, kthread + 1, 2, 20, c, THREAD_KERNEL);
      _sl_gen_add_thread (h, b, kthread + 2, kthread + 2, 2, 20, c, THREAD_KERNEL);
    }

  h->next_tid = 11 + 6 * (gint32) h->n_cpus + 300 + (gint32) sl_rng_below (r, 700);
  h->shell = NONE;
  for (guint d = 0; d < G_N_ELEMENTS (daemons) && n_user < self->options.threads; d++)
    {
      gint32 pid = h->next_tid;

      for (guint k = 0; k < daemons[d].threads && n_user < self->options.threads; k++, n_user++)
        {
          guint ti = _sl_gen_add_thread (h, daemons[d].comm, h->next_tid++, pid, 1, 20,
                                         sl_rng_below (r, h->n_cpus), THREAD_USER);
          if (h->shell == NONE && g_strcmp0 (daemons[d].comm, "bash") == 0)
            h->shell = ti;
        }
      h->next_tid += (gint32) sl_rng_below (r, 40);
    }

  for (guint i = 0; i < h->threads->len; i++)
    {
      Thread *t = thread_at (h, i);
      if (t->kind == THREAD_USER || t->kind == THREAD_KERNEL)
        g_array_append_val (h->cpu[t->cpu].bg, i);
      if (t->kind == THREAD_USER && h->shell == NONE)
        h->shell = i;
    }

  h->client_comm = clients[sl_rng_below (r, G_N_ELEMENTS (clients))];
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
      h->next_tid += 1 + (gint32) sl_rng_below (&h->rng, 20);
      ti = _sl_gen_add_thread (h, comm, *pid, *pid, 1, 20, sl_rng_below (&h->rng, h->n_cpus), THREAD_APP);
      thread_at (h, ti)->blocked = SC_FUTEX;
    }
  ti = _sl_gen_add_thread (h, comm, h->next_tid++, *pid, 1, 20, sl_rng_below (&h->rng, h->n_cpus), THREAD_APP);
  t = thread_at (h, ti);
  t->fd = 8 + (gint32) sl_rng_below (&h->rng, 200);
  t->blocked = server ? SC_EPOLL : SC_FUTEX;
  return ti;
}

/* The host's random stream, CPUs, boot time and clock, identity
 * (boot id, trace UUID, addresses) and tasks */
static gboolean
setup_host (SlGenerate  *self,
            Host        *h,
            GError     **error)
{
  const SlGenerateOptions *o = &self->options;
  SlRng *r = &self->scenario_rng;
  guint64 id = (guint64) h->index + 1;

  sl_rng_init (&h->rng, o->seed, 1000 + id);
  h->n_cpus = h->pub.cpus > 0 ? h->pub.cpus : o->cpus;
  h->pub.cpus = h->n_cpus;
  h->boot_age_ns = (guint64) sl_rng_range (r, 3600 * NS_PER_S, 40 * 86400 * NS_PER_S);
  if (o->start_ns + h->pub.offset_ns < 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "host “%s”: its clock would read before the epoch", h->pub.name);
      return FALSE;
    }
  _sl_gen_setup_clock (self, h);
  for (guint k = 0; k < 16; k++)
    {
      h->boot_id[k] = (guint8) sl_rng_u64 (r);
      h->trace_uuid[k] = (guint8) sl_rng_u64 (r);
    }
  h->boot_id[6] = (h->boot_id[6] & 0x0f) | 0x40;
  h->boot_id[8] = (h->boot_id[8] & 0x3f) | 0x80;
  h->trace_uuid[6] = (h->trace_uuid[6] & 0x0f) | 0x40;
  h->trace_uuid[8] = (h->trace_uuid[8] & 0x3f) | 0x80;
  h->addr4[0] = 10;
  h->addr4[1] = 1;
  h->addr4[2] = (guint8) (id >> 8);
  h->addr4[3] = (guint8) id;
  memset (h->addr6, 0, 16);
  h->addr6[0] = 0xfd;
  h->addr6[3] = 0x5c;
  h->addr6[14] = (guint8) (id >> 8);
  h->addr6[15] = (guint8) id;
  h->ip_id = (guint16) sl_rng_u64 (r);
  h->skb_base = G_GUINT64_CONSTANT (0xffff888000000000) |
                ((sl_rng_u64 (r) & G_GUINT64_CONSTANT (0x3fff0000)) << 8);
  h->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  h->neighbours = g_array_new (FALSE, FALSE, sizeof (guint));
  host_setup_threads (self, h);
  self->total_cpus += h->n_cpus;
  return TRUE;
}

/* One TCP connection of link @li: its two application threads, ports and
 * sequence numbers; open when tracing starts, or connecting soon after. */
static void
setup_conn (SlGenerate *self,
            guint       li,
            guint       sv,
            double      rate)
{
  const SlGenerateOptions *o = &self->options;
  SlRng *r = &self->scenario_rng;
  Link *l = link_at (self, li);
  Host *ha = host_at (self, l->pub.a), *hb = host_at (self, l->pub.b);
  Conn c = { 0 };
  Item it = { 0 };

  c.link = li;
  c.host[0] = l->pub.a;
  c.host[1] = l->pub.b;
  c.thread[0] = app_thread (ha, FALSE, ha->client_comm);
  c.thread[1] = app_thread (hb, TRUE, servers[sv].comm);
  c.rx_cpu[0] = sl_rng_below (r, ha->n_cpus);
  c.rx_cpu[1] = sl_rng_below (r, hb->n_cpus);
  c.family = o->ip == SL_GENERATE_IP_6 ? 6 :
             o->ip == SL_GENERATE_IP_MIX ? (sl_rng_below (r, 2) ? 6 : 4) : 4;
  c.port[0] = (guint16) (32768 + sl_rng_below (r, 28000));
  c.port[1] = l->server_port;
  c.window[0] = (guint16) (500 + sl_rng_below (r, 3000));
  c.window[1] = (guint16) (500 + sl_rng_below (r, 3000));
  c.snd_nxt[0] = (guint32) sl_rng_u64 (r);
  c.snd_nxt[1] = (guint32) sl_rng_u64 (r);
  /* segments per transaction: request, ~2 response segments, ~1 ACK */
  c.txn_gap_ns = 1e9 / (rate / l->n_conns / 3.8);
  it.aux = self->conns->len;
  it.host = c.host[0];

  if (sl_rng_chance (r, 0.5))
    {
      /* opened before tracing started */
      c.established = 1;
      c.syn_seen = 1;
      c.rcv_nxt[0] = c.rcv_high[0] = c.acked[1] = c.snd_nxt[1];
      c.rcv_nxt[1] = c.rcv_high[1] = c.acked[0] = c.snd_nxt[0];
      it.kind = IT_TXN;
      it.t = o->start_ns + sl_rng_exp (r, c.txn_gap_ns);
    }
  else
    {
      it.kind = IT_CONNECT;
      it.t = o->start_ns + 10 * US + sl_rng_range (r, 0, MIN (50 * MS, o->duration_ns / 10));
    }
  g_array_append_val (self->conns, c);
  _sl_gen_schedule (self, &it);
}

/* Hosts, then links with their connections, in order (the scenario's
 * random stream is drawn in this order). */
gboolean
_sl_gen_setup_scenario (SlGenerate  *self,
                        GError     **error)
{
  const SlGenerateOptions *o = &self->options;

  for (guint i = 0; i < self->hosts->len; i++)
    if (!setup_host (self, host_at (self, i), error))
      return FALSE;

  for (guint li = 0; li < self->links->len; li++)
    {
      Link *l = link_at (self, li);
      guint sv = li % G_N_ELEMENTS (servers);
      double rate = l->pub.rate > 0 ? l->pub.rate : o->link_rate;

      l->pub.rate = rate;
      l->server_port = servers[sv].port;
      l->base_latency = o->min_latency_ns + (gint64) (sl_rng_double (&self->scenario_rng) *
                                                      (double) o->min_latency_ns * 0.5);
      g_array_append_val (host_at (self, l->pub.a)->neighbours, l->pub.b);
      g_array_append_val (host_at (self, l->pub.b)->neighbours, l->pub.a);
      l->first_conn = self->conns->len;
      l->n_conns = MAX (o->connections, 1);
      for (guint k = 0; k < l->n_conns; k++)
        setup_conn (self, li, sv, rate);
    }
  return TRUE;
}
