/* sl-generate-cpu.c: what runs on the CPUs: scheduling, background
 * activity, processes and threads that come and go, the event-rate control
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-generate-private.h"

static const char *const exec_files[] = {
  "/usr/bin/date", "/usr/bin/ls", "/bin/sh", "/usr/bin/awk", "/usr/sbin/logrotate",
  "/usr/bin/curl", "/usr/bin/grep", "/usr/lib/update-notifier/apt-check",
};

/* Scheduling helpers */

static gint64
resume_ret (Host  *h,
            guint  sc)
{
  switch (sc)
    {
    case SC_READ:
      return 1 + sl_rng_below (&h->rng, 4096);
    case SC_EPOLL:
      return 1 + sl_rng_below (&h->rng, 2);
    default:
      return 0;
    }
}

/* Makes @ti run on @cpu (it must be homed there), finishing the system
 * call it was blocked in with @ret. */
gint64
_sl_gen_run_thread (SlGenerate *self,
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
        t = _sl_gen_emit_wakeup (self, h, cpu, t, ti, EV_SCHED_WAKEUP) + step (h);
      if (th->kind == THREAD_APP && (cur->kind == THREAD_USER || cur->kind == THREAD_KERNEL))
        c->preempted = c->current;
      t = _sl_gen_emit_switch (self, h, cpu, t, c->current, TASK_RUNNING, ti) + step (h);
    }
  if (th->blocked != SC_NONE)
    {
      guint sc = th->blocked;

      th->blocked = SC_NONE;
      t = _sl_gen_emit_syscall_exit (self, h, cpu, t, sc, th, ret) + step (h);
    }
  return t;
}

/* Switches @ti out (it sleeps, or dies) to the thread it preempted, or to
 * the idle thread. */
gint64
_sl_gen_block_thread (SlGenerate *self,
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
  return _sl_gen_emit_switch (self, h, cpu, t, ti, state, next);
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
  guint d = sl_rng_below (&h->rng, G_N_ELEMENTS (devices));

  t = _sl_gen_emit_irq (self, h, cpu, t, TRUE, devices[d].irq, devices[d].name);
  return _sl_gen_emit_irq (self, h, cpu, t + 800 + sl_rng_exp (&h->rng, 3000), FALSE, devices[d].irq, NULL);
}

static gint64
bg_softirq (SlGenerate *self,
            Host       *h,
            guint       cpu,
            gint64      t)
{
  double u = sl_rng_double (&h->rng);
  guint32 vec = u < 0.6 ? SOFTIRQ_TIMER : u < 0.85 ? SOFTIRQ_RCU : SOFTIRQ_SCHED;

  t = _sl_gen_emit_softirq (self, h, cpu, t, EV_SOFTIRQ_RAISE, vec) + step (h);
  t = _sl_gen_emit_softirq (self, h, cpu, t, EV_SOFTIRQ_ENTRY, vec);
  return _sl_gen_emit_softirq (self, h, cpu, t + 600 + sl_rng_exp (&h->rng, 4000), EV_SOFTIRQ_EXIT, vec);
}

static gint64
bg_syscall (SlGenerate *self,
            Host       *h,
            guint       cpu,
            gint64      t,
            guint       ti)
{
  SlRng *r = &h->rng;
  Thread *th = thread_at (h, ti);
  double u = sl_rng_double (r);
  guint64 size = 1 + sl_rng_below (r, 8192);
  guint sc;
  gint64 ret;

  if (u < 0.3)
    sc = SC_READ, ret = (gint64) sl_rng_below (r, (guint32) size + 1);
  else if (u < 0.5)
    sc = SC_WRITE, ret = (gint64) size;
  else if (u < 0.65)
    sc = SC_FUTEX, ret = sl_rng_below (r, 2);
  else if (u < 0.8)
    sc = SC_EPOLL, ret = sl_rng_below (r, 2);
  else if (u < 0.9)
    sc = SC_RECVFROM, ret = -11;
  else
    sc = SC_SENDTO, ret = (gint64) size;

  t = _sl_gen_emit_syscall_entry (self, h, cpu, t, sc, th, size, FALSE);
  return _sl_gen_emit_syscall_exit (self, h, cpu, t + 300 + sl_rng_exp (r, 3000), sc, th, ret);
}

static gint64
bg_block (SlGenerate *self,
          Host       *h,
          guint       cpu,
          gint64      t,
          guint       ti)
{
  SlRng *r = &h->rng;
  Thread *th = thread_at (h, ti);
  double u = sl_rng_double (r);
  guint sc = u < 0.5 ? SC_FUTEX : u < 0.8 ? SC_EPOLL : SC_READ;

  t = _sl_gen_emit_syscall_entry (self, h, cpu, t, sc, th, 4096, TRUE) + step (h);
  th->blocked = (guint8) sc;
  return _sl_gen_block_thread (self, h, cpu, t, ti, TASK_INTERRUPTIBLE);
}

void
_sl_gen_handle_cpu (SlGenerate *self,
                    Item       *it)
{
  Host *h = host_at (self, it->host);
  guint cpu = it->aux;
  Cpu *c = &h->cpu[cpu];
  SlRng *r = &h->rng;
  gint64 t = MAX (it->t, c->last);
  const Thread *cur;
  guint64 before = h->events;
  double u;

  if (!isfinite (self->bg_gap_ns))
    {
      it->t = self->control_mark_t + self->control_step;
      _sl_gen_schedule (self, it);
      return;
    }

  cur = thread_at (h, c->current);
  u = sl_rng_double (r);
  if (cur->kind == THREAD_IDLE)
    {
      if (u < 0.45 && c->bg->len > 0)
        {
          guint ti = g_array_index (c->bg, guint, sl_rng_below (r, c->bg->len));
          const Thread *th = thread_at (h, ti);
          guint sc = th->blocked;

          t = _sl_gen_run_thread (self, h, cpu, t, ti, sc != SC_NONE || th->kind == THREAD_KERNEL,
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
        t = _sl_gen_block_thread (self, h, cpu, t, c->current, TASK_INTERRUPTIBLE);
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
          guint ti = g_array_index (c->bg, guint, sl_rng_below (r, c->bg->len));
          guint sc = thread_at (h, ti)->blocked;

          if (ti != c->current)
            t = _sl_gen_run_thread (self, h, cpu, t, ti, sc != SC_NONE, resume_ret (h, sc));
        }
      else if (u < 0.9)
        t = bg_irq (self, h, cpu, t);
      else
        t = bg_softirq (self, h, cpu, t);
    }

  self->bg_events += h->events - before;
  self->bg_activities++;
  it->t = t + 1 + sl_rng_exp (r, self->bg_gap_ns);
  _sl_gen_schedule (self, it);
}

/* The running thread @ti exits and is switched out for good. */
static gint64
thread_exit (SlGenerate *self,
             Host       *h,
             guint       cpu,
             gint64      t,
             guint       ti)
{
  t = _sl_gen_emit_exit (self, h, cpu, t, ti);
  t += 3 * US + sl_rng_exp (&h->rng, 5 * US);
  t = _sl_gen_block_thread (self, h, cpu, t, ti, TASK_DEAD);
  t += step (h);
  thread_at (h, ti)->alive = 0;
  return t;
}

/* The new thread @ci of @cpu is forked by @parent, woken and switched to. */
static gint64
fork_and_switch (SlGenerate *self,
                 Host       *h,
                 guint       cpu,
                 gint64      t,
                 guint       parent,
                 guint       ci,
                 gint64      parent_state)
{
  t = _sl_gen_emit_fork (self, h, cpu, t, parent, ci);
  t += step (h);
  t = _sl_gen_emit_wakeup (self, h, cpu, t, ci, EV_SCHED_WAKEUP_NEW);
  t += step (h);
  return _sl_gen_emit_switch (self, h, cpu, t, parent, parent_state, ci);
}

/* The next step of a process's or thread's life (Item.role: 0 the shell
 * forks a process, 1 it exits, 2 a daemon starts a thread, 3 it exits). */
static void
schedule_step (SlGenerate *self,
               const Item *it,
               guint8      role,
               guint       child,
               gint64      t)
{
  Item next = *it;

  next.role = role;
  next.txn = child;
  next.t = t;
  _sl_gen_schedule (self, &next);
}

/* The shell forks a process that execs a program at once. */
static void
process_start (SlGenerate *self,
               Item       *it)
{
  Host *h = host_at (self, it->host);
  SlRng *r = &h->rng;
  guint sh = h->shell, ci, cpu;
  const char *file = exec_files[sl_rng_below (r, G_N_ELEMENTS (exec_files))];
  const Thread *parent;
  gint64 t;

  if (sh == NONE)
    return;
  cpu = thread_at (h, sh)->cpu;
  t = _sl_gen_run_thread (self, h, cpu, it->t, sh, TRUE, resume_ret (h, thread_at (h, sh)->blocked));
  parent = thread_at (h, sh);
  ci = _sl_gen_add_thread (h, parent->comm, h->next_tid, h->next_tid, parent->pid, 20, cpu, THREAD_APP);
  h->next_tid++;
  thread_at (h, ci)->origin = ORIGIN_PROCESS;
  t = fork_and_switch (self, h, cpu, t, sh, ci, TASK_INTERRUPTIBLE) + 20 * US + sl_rng_exp (r, 30 * US);
  t = _sl_gen_emit_exec (self, h, cpu, t, ci, file);
  schedule_step (self, it, 1, ci, t + 300 * US + sl_rng_exp (r, 2 * MS));
}

/* A daemon starts a thread of its own process: it preempts its parent,
 * does some work later and exits. */
static void
thread_start (SlGenerate *self,
              Item       *it)
{
  Host *h = host_at (self, it->host);
  SlRng *r = &h->rng;
  guint pi = NONE, ci, cpu, n = 0;
  const Thread *parent;
  Cpu *c;
  gint64 t;

  for (guint i = 0; i < h->threads->len; i++)
    {
      const Thread *th = thread_at (h, i);

      if (th->kind == THREAD_USER && th->alive && i != h->shell && th->origin == ORIGIN_DUMP &&
          sl_rng_below (r, ++n) == 0)
        pi = i;
    }
  if (pi == NONE)
    return;
  cpu = thread_at (h, pi)->cpu;
  c = &h->cpu[cpu];
  t = _sl_gen_run_thread (self, h, cpu, it->t, pi, thread_at (h, pi)->blocked != SC_NONE,
                          resume_ret (h, thread_at (h, pi)->blocked));
  parent = thread_at (h, pi);
  ci = _sl_gen_add_thread (h, parent->comm, h->next_tid, parent->pid, parent->ppid, 20, cpu, THREAD_APP);
  h->next_tid++;
  thread_at (h, ci)->origin = ORIGIN_THREAD;
  t = fork_and_switch (self, h, cpu, t, pi, ci, TASK_RUNNING) + step (h);
  if (c->preempted == NONE)
    c->preempted = pi;
  schedule_step (self, it, 3, ci, t + 200 * US + sl_rng_exp (r, 5 * MS));
}

/* The child exits: a daemon's thread after one system call, a process
 * waking the shell; then the parent starts another one later. */
static void
child_end (SlGenerate *self,
           Item       *it)
{
  Host *h = host_at (self, it->host);
  guint ci = it->txn, cpu = thread_at (h, ci)->cpu;
  gboolean thread = it->role == 3;
  gint64 t;

  t = _sl_gen_run_thread (self, h, cpu, it->t, ci, FALSE, 0);
  if (thread)
    {
      t += step (h);
      t = bg_syscall (self, h, cpu, t, ci);
      t += step (h);
    }
  t = thread_exit (self, h, cpu, t, ci);
  if (!thread && h->shell != NONE)
    _sl_gen_emit_wakeup (self, h, cpu, t, h->shell, EV_SCHED_WAKEUP);
  schedule_step (self, it, thread ? 2 : 0, ci,
                 t + sl_rng_exp (&h->rng, thread ? NS_PER_S : 2 * NS_PER_S));
}

/* Processes and threads come and go: Item.role says which step is next
 * (0 fork a process, 1 its exit, 2 start a thread, 3 its exit). */
void
_sl_gen_handle_proc (SlGenerate *self,
                     Item       *it)
{
  switch (it->role)
    {
    case 0:
      process_start (self, it);
      break;
    case 2:
      thread_start (self, it);
      break;
    default:
      child_end (self, it);
      break;
    }
}

/* Steers the background rate towards the event target. */
void
_sl_gen_handle_control (SlGenerate *self,
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
  _sl_gen_schedule (self, it);
}
