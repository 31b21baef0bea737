/* sl-timeline-synth.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"


#include "sl-cpu-time.h"
#include "sl-rng.h"
#include "sl-timeline-synth.h"

typedef struct
{
  guint32 running;
  gboolean in_syscall;
} SynCpu;

typedef struct
{
  SlEventStore *store;
  SynCpu        cpu[8];
  guint32       names[8];
  guint32       calls[6];
  guint         peers[4];
  guint32       seq;
  gint64        offset;
  double        drift;
} SynHost;

typedef struct
{
  gint64 due;
  gint64 send_local;
  guint  from;
  guint  to;
} Flight;

static gint64
syn_local (const SynHost *h,
           gint64         t0,
           gint64         t)
{
  return t0 + h->offset + (t - t0) + (gint64) ((double) (t - t0) * h->drift);
}

static void
syn_put (SynHost    *h,
         gint64      t0,
         gint64      t,
         SlEventKind kind,
         guint       cpu,
         guint32     tid,
         guint32     arg,
         guint32     str,
         guint8      flags)
{
  SlEvent e = { 0 };

  e.time = syn_local (h, t0, t);
  e.kind = (guint8) kind;
  e.cpu = (guint16) cpu;
  e.tid = tid;
  e.arg = arg;
  e.str = str;
  e.flags = flags;
  sl_event_store_append (h->store, &e);
}

/* Thread i (of 64) is pid 1000 + 8 (i / 8), tid 1000 + i, homed on CPU i % 8. */
static gint64
syn_step (SynHost *h,
          SlRng   *rng,
          gint64   t0,
          gint64   t)
{
  guint c = sl_rng_below (rng, 8);
  SynCpu *cpu = &h->cpu[c];
  double u = sl_rng_double (rng);

  if (cpu->running == 0 || u < 0.15)
    {
      guint i = c + 8 * sl_rng_below (rng, 8);
      guint32 next = 1000 + i;
      gboolean block = sl_rng_below (rng, 2);

      if (next == cpu->running)
        next = sl_rng_double (rng) < 0.2 ? 0 : 1000 + ((i + 8) % 64);
      if (cpu->running != 0 && block && !cpu->in_syscall)
        {
          syn_put (h, t0, t, SL_EVENT_SYSCALL_ENTRY, c, cpu->running, 0, h->calls[4], 0);
          t += 300;
        }
      syn_put (h, t0, t, SL_EVENT_SCHED_SWITCH, c, cpu->running, next, next != 0 ? h->names[(next - 1000) / 8] : 0,
               cpu->running != 0 && block ? 1 : 0);
      cpu->running = next;
      cpu->in_syscall = FALSE;
    }
  else if (u < 0.5)
    {
      syn_put (h, t0, t, cpu->in_syscall ? SL_EVENT_SYSCALL_EXIT : SL_EVENT_SYSCALL_ENTRY, c, cpu->running, 0,
               h->calls[sl_rng_below (rng, 4)], 0);
      cpu->in_syscall = !cpu->in_syscall;
    }
  else if (u < 0.6)
    {
      syn_put (h, t0, t, SL_EVENT_IRQ_ENTRY, c, cpu->running, 30 + c, 0, 0);
      t += 1500;
      syn_put (h, t0, t, SL_EVENT_IRQ_EXIT, c, cpu->running, 30 + c, 0, 0);
    }
  else if (u < 0.72)
    {
      syn_put (h, t0, t, SL_EVENT_SOFTIRQ_ENTRY, c, cpu->running, 3, 0, 0);
      t += 2500;
      syn_put (h, t0, t, SL_EVENT_SOFTIRQ_EXIT, c, cpu->running, 3, 0, 0);
    }
  else
    syn_put (h, t0, t, SL_EVENT_SCHED_WAKEUP, c, 1000 + sl_rng_below (rng, 64), c, 0, 0);
  return t;
}

SlTimelineSynth *
sl_timeline_synth_new (guint   n_hosts,
                       guint64 intervals,
                       guint64 arrows,
                       guint32 seed)
{
  static const char *const names[] = { "nginx", "java", "postgres", "redis", "worker", "python", "envoy", "kafka" };
  static const char *const calls[] = { "read", "write", "sendto", "recvfrom", "futex", "epoll_wait" };
  SlTimelineSynth *synth = g_new0 (SlTimelineSynth, 1);
  SlRng rng;
  g_autoptr(GArray) flights = g_array_new (FALSE, FALSE, sizeof (Flight));
  SynHost *hosts = g_new0 (SynHost, n_hosts);
  gint64 t0 = G_GINT64_CONSTANT (1700000000000000000), t = t0;
  /* about 1.7 intervals per step: the thread's and its CPU's */
  guint64 steps = intervals * 6 / 10, head = 0;
  double arrow_rate = (double) arrows / (double) MAX (steps, 1);
  gint64 w0 = g_get_monotonic_time (), w1;
  double c1;

  g_return_val_if_fail (n_hosts >= 2 && n_hosts < 65535, NULL);

  sl_rng_init (&rng, seed, 0);
  synth->n_hosts = n_hosts;
  synth->timeline = sl_timeline_new ();
  synth->stores = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_event_store_free);
  synth->to_reference = g_array_new (FALSE, FALSE, sizeof (SlTransform));
  for (guint i = 0; i < n_hosts; i++)
    {
      SynHost *h = &hosts[i];
      g_autofree char *name = g_strdup_printf ("node-%02u", i + 1);
      SlTransform tr;

      h->store = sl_event_store_new ();
      g_ptr_array_add (synth->stores, h->store);
      /* clocks a few milliseconds apart, drifting by up to 20 ppm */
      h->offset = i == 0 ? 0 : sl_rng_range (&rng, -20000, 19999) * 1000;
      h->drift = i == 0 ? 0 : sl_rng_double_range (&rng, -20e-6, 20e-6);
      sl_transform_init (&tr, t0 + h->offset, t0, 0, 1 / (1 + h->drift) - 1);
      g_array_append_val (synth->to_reference, tr);
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        h->names[k] = sl_event_store_intern (h->store, names[k]);
      for (guint k = 0; k < G_N_ELEMENTS (calls); k++)
        h->calls[k] = sl_event_store_intern (h->store, calls[k]);
      for (guint k = 0; k < 64; k++)
        syn_put (h, t0, t, SL_EVENT_PROCESS_NAME, 0, 1000 + k, 1000 + 8 * (k / 8), h->names[k / 8], 0);
      for (guint k = 0; k < G_N_ELEMENTS (h->peers); k++)
        h->peers[k] = (i + 1 + sl_rng_below (&rng, n_hosts - 1)) % n_hosts;
      sl_timeline_set_host (synth->timeline, i, name, h->store);
    }

  for (guint64 s = 0; s < steps; s++)
    {
      guint hi = sl_rng_below (&rng, n_hosts);
      SynHost *h = &hosts[hi];

      t += 1 + sl_rng_below (&rng, 2000);
      while (head < flights->len && g_array_index (flights, Flight, head).due <= t)
        {
          Flight *f = &g_array_index (flights, Flight, head++);
          SynHost *r = &hosts[f->to];
          guint c = sl_rng_below (&rng, 8);
          SlMatch m = { 0 };

          syn_put (r, t0, t, SL_EVENT_PACKET_RECV, c, r->cpu[c].running, r->seq++, 0, 0);
          m.send_host = f->from;
          m.recv_host = f->to;
          m.send_time = f->send_local;
          m.recv_time = syn_local (r, t0, t);
          sl_timeline_add_match (synth->timeline, &m, NULL);
        }
      if (head > 4096 && head * 2 > flights->len)
        {
          g_array_remove_range (flights, 0, (guint) head);
          head = 0;
        }
      if (sl_rng_double (&rng) < arrow_rate)
        {
          guint c = sl_rng_below (&rng, 8);
          Flight f;

          f.due = t + 30000 + sl_rng_below (&rng, 50000);
          f.from = hi;
          f.to = h->peers[sl_rng_below (&rng, G_N_ELEMENTS (h->peers))];
          f.send_local = syn_local (h, t0, t);
          syn_put (h, t0, t, SL_EVENT_PACKET_SEND, c, h->cpu[c].running, h->seq++, 0, 0);
          g_array_append_val (flights, f);
        }
      else
        t = syn_step (h, &rng, t0, t);
    }
  w1 = g_get_monotonic_time ();
  c1 = sl_cpu_time_seconds ();
  sl_timeline_update (synth->timeline);
  synth->generate_s = (w1 - w0) / 1e6;
  synth->build_s = (g_get_monotonic_time () - w1) / 1e6;
  synth->build_cpu_s = sl_cpu_time_seconds () - c1;
  g_free (hosts);
  return synth;
}

void
sl_timeline_synth_free (SlTimelineSynth *synth)
{
  if (synth == NULL)
    return;
  sl_timeline_free (synth->timeline);
  g_ptr_array_unref (synth->stores);
  g_array_unref (synth->to_reference);
  g_free (synth);
}

