/* sl-timeline-build.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows built from the hosts' event stores: threads, processes and
 * CPUs as the kernel's events change them (scheduling, system calls,
 * interrupts, names, forks, lost events), incrementally.
 */

#include "config.h"

#include <string.h>

#include "sl-timeline-private.h"

#define TID_UNKNOWN G_MAXUINT32
#define MAX_CPUS    4096

/* lttng's prev_state: the kernel's TASK_* bits (low byte; preemption is
 * reported above it); EXIT_DEAD and EXIT_ZOMBIE mean the task is gone. */
#define PREV_STATE_EXIT_MASK 0x30

/* sl_tl_thread_find(), keeping what it found for the next lookups */
static SlTlThread *
thread_lookup (SlTlHost *h,
               guint32   tid)
{
  SlTlThread *th = sl_tl_thread_find (h, tid);

  if (th != NULL)
    h->thread_cache[tid % SL_TL_THREAD_CACHE] = th;
  return th;
}

static SlTlCpu *
cpu_at (SlTimeline *self,
        SlTlHost   *h,
        guint       host,
        guint       cpu)
{
  while (h->cpus->len <= cpu)
    {
      SlTlCpu c = { 0 };
      g_autofree char *name = g_strdup_printf ("CPU %u", h->cpus->len);
      SlTlRow *r;

      c.tid = TID_UNKNOWN;
      c.row = _sl_tl_row_new (self, SL_TIMELINE_ROW_CPU, host, h->row, G_MAXINT64);
      r = sl_tl_row (self, c.row);
      r->cpu = h->cpus->len;
      r->name = _sl_tl_intern (self, name);
      g_array_append_val (h->cpus, c);
    }
  return &g_array_index (h->cpus, SlTlCpu, cpu);
}

static void
cpu_refresh (SlTimeline *self,
             SlTlHost   *h,
             SlTlCpu    *c,
             gint64      t)
{
  SlTlRow *r = sl_tl_row (self, c->row);
  guint8 state;
  guint32 detail = 0;

  if (c->irq > 0)
    state = SL_TIMELINE_STATE_IRQ, detail = c->irq_line;
  else if (c->softirq > 0)
    state = SL_TIMELINE_STATE_SOFTIRQ, detail = c->vec;
  else if (c->tid == 0)
    state = SL_TIMELINE_STATE_IDLE;
  else if (c->tid == TID_UNKNOWN)
    state = SL_TIMELINE_STATE_UNKNOWN;
  else
    {
      state = c->cur != NULL && c->cur->syscall != 0 && !c->cur->exited ? SL_TIMELINE_STATE_SYSCALL
                                                                          : SL_TIMELINE_STATE_USER;
      detail = c->tid;
    }
  if (r->n_iv == 0)
    r->first = t;
  _sl_tl_row_push (self, r, t, state, (guint16) r->cpu, detail);
}

static void
thread_refresh (SlTimeline *self,
                SlTlHost   *h,
                SlTlThread *th,
                gint64      t)
{
  guint8 state;
  guint16 cpu = SL_TIMELINE_NO_CPU;
  guint32 detail = 0;

  if (th->cpu >= 0)
    {
      const SlTlCpu *c = &g_array_index (h->cpus, SlTlCpu, th->cpu);

      cpu = (guint16) th->cpu;
      if (c->irq > 0)
        state = SL_TIMELINE_STATE_IRQ, detail = c->irq_line;
      else if (c->softirq > 0)
        state = SL_TIMELINE_STATE_SOFTIRQ, detail = c->vec;
      else if (th->exited)
        state = SL_TIMELINE_STATE_EXITED;
      else if (th->syscall != 0)
        state = SL_TIMELINE_STATE_SYSCALL, detail = th->syscall;
      else
        state = SL_TIMELINE_STATE_USER;
    }
  else
    {
      state = th->off_state;
      if (state == SL_TIMELINE_STATE_BLOCKED)
        detail = th->syscall;
    }
  _sl_tl_row_push (self, sl_tl_row (self, th->row), t, state, cpu, detail);
}

static guint
process_row (SlTimeline *self,
             SlTlHost   *h,
             guint       host,
             guint32     pid,
             gint64      t)
{
  gpointer v;
  guint row;
  SlTlRow *r;

  if (g_hash_table_lookup_extended (h->processes, GUINT_TO_POINTER (pid), NULL, &v))
    return GPOINTER_TO_UINT (v);
  row = _sl_tl_row_new (self, SL_TIMELINE_ROW_PROCESS, host, h->row, t);
  r = sl_tl_row (self, row);
  r->tid = pid;
  r->pid = pid;
  g_hash_table_insert (h->processes, GUINT_TO_POINTER (pid), GUINT_TO_POINTER (row));
  return row;
}

/* A process's parent, also shown by its threads' rows. */
static void
process_set_ppid (SlTimeline *self,
                  guint       prow,
                  guint32     ppid)
{
  SlTlRow *p = sl_tl_row (self, prow);

  if (ppid == 0 || p->kind != SL_TIMELINE_ROW_PROCESS)
    return;
  p->ppid = ppid;
  for (guint i = 0; p->children != NULL && i < p->children->len; i++)
    sl_tl_row (self, g_array_index (p->children, guint, i))->ppid = ppid;
}

static void
thread_set_name (SlTimeline *self,
                 SlTlThread *th,
                 guint32     name)
{
  SlTlRow *r = sl_tl_row (self, th->row);

  if (name == 0 || r->name == name)
    return;
  r->name = name;
  if (r->pid == r->tid && r->parent != SL_TIMELINE_NONE)
    {
      SlTlRow *p = sl_tl_row (self, r->parent);
      if (p->kind == SL_TIMELINE_ROW_PROCESS)
        p->name = name;
    }
}

static void
thread_set_pid (SlTimeline *self,
                SlTlHost   *h,
                guint       host,
                SlTlThread *th,
                guint32     pid,
                gint64      t)
{
  SlTlRow *r = sl_tl_row (self, th->row), *p;
  guint prow;

  if (pid == 0 || r->pid == pid)
    return;
  prow = process_row (self, h, host, pid, t);
  r = sl_tl_row (self, th->row);
  r->pid = pid;
  _sl_tl_row_reparent (self, th->row, prow);
  p = sl_tl_row (self, prow);
  r->ppid = p->ppid;
  if (th->tid == pid)
    {
      p->thread_row = th->row;
      if (r->name != 0)
        p->name = r->name;
    }
  else if (p->name == 0)
    p->name = r->name;
}

static void
thread_off_cpu (SlTimeline *self,
                SlTlHost   *h,
                SlTlThread *th,
                guint8      state,
                gint64      t)
{
  if (th->cpu >= 0)
    {
      SlTlCpu *c = &g_array_index (h->cpus, SlTlCpu, th->cpu);

      if (c->cur == th)
        {
          c->cur = NULL;
          c->tid = TID_UNKNOWN;
          cpu_refresh (self, h, c, t);
        }
      th->cpu = -1;
    }
  th->off_state = state;
  thread_refresh (self, h, th, t);
}

static void
thread_on_cpu (SlTimeline *self,
               SlTlHost   *h,
               SlTlThread *th,
               guint       cpu,
               gint64      t)
{
  SlTlCpu *c = &g_array_index (h->cpus, SlTlCpu, cpu);

  if (c->cur == th && th->cpu == (gint32) cpu)
    return;
  if (c->cur != NULL && c->cur != th)
    thread_off_cpu (self, h, c->cur, SL_TIMELINE_STATE_UNKNOWN, t);
  if (th->cpu >= 0 && th->cpu != (gint32) cpu)
    thread_off_cpu (self, h, th, SL_TIMELINE_STATE_UNKNOWN, t);
  c->cur = th;
  c->tid = th->tid;
  th->cpu = (gint32) cpu;
  thread_refresh (self, h, th, t);
  cpu_refresh (self, h, c, t);
}

static SlTlThread *
thread_new (SlTimeline *self,
            SlTlHost   *h,
            guint       host,
            guint32     tid,
            guint32     pid,
            guint32     name,
            gint64      t,
            guint8      state)
{
  SlTlThread *th = g_new0 (SlTlThread, 1), *old;
  guint parent = pid != 0 ? process_row (self, h, host, pid, t) : h->row;
  SlTlRow *r, *p;

  th->tid = tid;
  th->cpu = -1;
  th->off_state = state;
  th->last_switch = G_MININT64;

  old = thread_lookup (h, tid);
  if (old != NULL && !old->dead)
    {
      /* a new task with the tid of one whose end was not seen */
      if (!old->exited)
        sl_tl_row (self, old->row)->exited_at = t;
      old->exited = old->dead = TRUE;
      thread_off_cpu (self, h, old, SL_TIMELINE_STATE_EXITED, t);
    }

  th->row = _sl_tl_row_new (self, SL_TIMELINE_ROW_THREAD, host, parent, t);
  r = sl_tl_row (self, th->row);
  r->tid = tid;
  r->pid = pid;
  r->name = name;
  r->prev_same_tid = old != NULL ? old->row : SL_TIMELINE_NONE;
  p = sl_tl_row (self, parent);
  if (pid != 0)
    r->ppid = p->ppid;
  if (pid != 0 && tid == pid)
    {
      p->thread_row = th->row;
      if (name != 0)
        p->name = name;
    }
  else if (pid != 0 && p->name == 0)
    p->name = name;
  g_hash_table_insert (h->threads, GUINT_TO_POINTER (tid), th);
  h->thread_cache[tid % SL_TL_THREAD_CACHE] = th;
  g_ptr_array_add (h->all_threads, th);
  thread_refresh (self, h, th, t);
  return th;
}

static SlTlThread *
thread_get (SlTimeline *self,
            SlTlHost   *h,
            guint       host,
            guint32     tid,
            gint64      t)
{
  SlTlThread *th = thread_lookup (h, tid);

  if (th != NULL && !th->dead)
    return th;
  return thread_new (self, h, host, tid, 0, 0, t, SL_TIMELINE_STATE_UNKNOWN);
}

/* The thread of an event recorded on @c: usually the one running there. */
static SlTlThread *
cpu_thread (SlTimeline *self,
            SlTlHost   *h,
            guint       host,
            SlTlCpu    *c,
            guint32     tid,
            gint64      t)
{
  if (c != NULL && c->cur != NULL && c->cur->tid == tid)
    return c->cur;
  return thread_get (self, h, host, tid, t);
}

static void
cpu_irq_changed (SlTimeline *self,
                 SlTlHost   *h,
                 SlTlCpu    *c,
                 gint64      t)
{
  cpu_refresh (self, h, c, t);
  if (c->cur != NULL)
    thread_refresh (self, h, c->cur, t);
}

static void
handle_switch (SlTimeline    *self,
               SlTlHost      *h,
               guint          host,
               SlTlCpu       *c,
               const SlEvent *e)
{
  gint64 t = e->time;

  if (e->tid != 0)
    {
      SlTlThread *p = c->cur != NULL && c->cur->tid == e->tid ? c->cur
                  : thread_lookup (h, e->tid);
      guint8 state;

      if (p == NULL)
        p = thread_new (self, h, host, e->tid, 0, 0, t, SL_TIMELINE_STATE_UNKNOWN);
      /* an exiting task may still be preempted before its last switch */
      if ((e->flags & PREV_STATE_EXIT_MASK) != 0 || (p->exited && e->flags != 0))
        p->dead = TRUE;
      if (p->exited || p->dead)
        state = SL_TIMELINE_STATE_EXITED;
      else if (e->flags == 0)
        state = SL_TIMELINE_STATE_RUNNABLE;
      else
        state = SL_TIMELINE_STATE_BLOCKED;
      if (p->dead && !p->exited)
        {
          p->exited = TRUE;
          sl_tl_row (self, p->row)->exited_at = t;
        }
      if (c->cur != NULL && c->cur != p)
        thread_off_cpu (self, h, c->cur, SL_TIMELINE_STATE_UNKNOWN, t);
      p->last_switch = t;
      thread_off_cpu (self, h, p, state, t);
    }
  else if (c->cur != NULL)
    thread_off_cpu (self, h, c->cur, SL_TIMELINE_STATE_UNKNOWN, t);

  c->cur = NULL;
  if (e->arg == 0)
    {
      c->tid = 0;
      cpu_refresh (self, h, c, t);
    }
  else
    {
      SlTlThread *n = thread_get (self, h, host, e->arg, t);

      thread_set_name (self, n, _sl_tl_host_str (self, h, e->str));
      c->tid = TID_UNKNOWN;
      thread_on_cpu (self, h, n, e->cpu, t);
    }
}

static void
handle_syscall (SlTimeline    *self,
                SlTlHost      *h,
                guint          host,
                SlTlCpu       *c,
                const SlEvent *e,
                gboolean       entry)
{
  SlTlThread *th;

  if (e->tid == 0)
    return;
  th = cpu_thread (self, h, host, c, e->tid, e->time);
  if (entry)
    {
      th->syscall = _sl_tl_host_str (self, h, e->str);
      if (th->syscall == 0)
        th->syscall = _sl_tl_intern (self, "?");
    }
  else
    th->syscall = 0;

  /* a system call event says where the thread runs, unless it was switched
   * out at the same nanosecond (ties between the store's streams) */
  if (th->cpu != (gint32) e->cpu && th->last_switch != e->time && !th->dead)
    thread_on_cpu (self, h, th, e->cpu, e->time);
  else
    {
      thread_refresh (self, h, th, e->time);
      if (th->cpu >= 0)
        cpu_refresh (self, h, &g_array_index (h->cpus, SlTlCpu, th->cpu), e->time);
    }
}

/* lttng-modules' state dump reports every task that can run as WAIT_FORK or
 * WAIT_CPU, whether it is running or waiting for a CPU: ready, off CPU, until
 * a switch says otherwise. */
static guint8
dump_state (guint8 flags)
{
  if (!(flags & SL_EVENT_NAME_STATE_DUMP))
    return SL_TIMELINE_STATE_UNKNOWN;
  switch (flags & SL_EVENT_NAME_STATUS_MASK)
    {
    case SL_EVENT_TASK_WAIT_FORK:
    case SL_EVENT_TASK_WAIT_CPU:
    case SL_EVENT_TASK_RUN:
      return SL_TIMELINE_STATE_RUNNABLE;
    case SL_EVENT_TASK_WAIT:
      return SL_TIMELINE_STATE_BLOCKED;
    case SL_EVENT_TASK_EXIT:
    case SL_EVENT_TASK_ZOMBIE:
    case SL_EVENT_TASK_DEAD:
      return SL_TIMELINE_STATE_EXITED;
    default:
      return SL_TIMELINE_STATE_UNKNOWN;
    }
}

/* The state dump, a fork's parent or user-space context: a thread's
 * process and name, and from the state dump its state when no event has
 * told it yet. */
static void
handle_process_name (SlTimeline    *self,
                     SlTlHost      *h,
                     guint          host,
                     const SlEvent *e)
{
  guint32 name = _sl_tl_host_str (self, h, e->str);
  guint8 state = dump_state (e->flags);
  SlTlThread *th;

  if (e->tid == 0)
    return;
  th = thread_lookup (h, e->tid);
  if (th == NULL || th->dead)
    th = thread_new (self, h, host, e->tid, e->arg, name, e->time,
                     state == SL_TIMELINE_STATE_EXITED ? SL_TIMELINE_STATE_UNKNOWN : state);
  else
    {
      thread_set_pid (self, h, host, th, e->arg, e->time);
      thread_set_name (self, th, name);
      if (th->cpu < 0 && !th->exited && th->off_state == SL_TIMELINE_STATE_UNKNOWN &&
          state != SL_TIMELINE_STATE_UNKNOWN && state != SL_TIMELINE_STATE_EXITED)
        {
          th->off_state = state;
          thread_refresh (self, h, th, e->time);
        }
    }

  if (e->flags & SL_EVENT_NAME_KERNEL_THREAD)
    sl_tl_row (self, th->row)->kernel = TRUE;

  if (state == SL_TIMELINE_STATE_EXITED && th->cpu < 0 && !th->exited)
    {
      th->exited = th->dead = TRUE;
      th->off_state = SL_TIMELINE_STATE_EXITED;
      sl_tl_row (self, th->row)->exited_at = e->time;
      thread_refresh (self, h, th, e->time);
    }
}

static void
handle_fork (SlTimeline    *self,
             SlTlHost      *h,
             guint          host,
             SlTlCpu       *c,
             const SlEvent *e)
{
  SlTlThread *parent = e->tid != 0 ? cpu_thread (self, h, host, c, e->tid, e->time) : NULL;
  guint32 parent_pid = parent != NULL ? sl_tl_row (self, parent->row)->pid : 0;
  guint32 name = _sl_tl_host_str (self, h, e->str);
  SlTlThread *th;

  if (e->arg == 0)
    return;
  if (e->flags & SL_EVENT_FORK_THREAD)
    {
      /* a thread of the parent's process (under the host row while that
       * process is not known) */
      th = thread_new (self, h, host, e->arg, parent_pid, name, e->time, SL_TIMELINE_STATE_RUNNABLE);
    }
  else
    {
      /* a new process; the store's older traces do not say, and a fork is
       * taken for one */
      th = thread_new (self, h, host, e->arg, e->arg, name, e->time, SL_TIMELINE_STATE_RUNNABLE);
      process_set_ppid (self, sl_tl_row (self, th->row)->parent, parent_pid != 0 ? parent_pid : e->tid);
    }
  if (parent != NULL && sl_tl_row (self, th->row)->name == 0)
    thread_set_name (self, th, sl_tl_row (self, parent->row)->name);
  /* kernel threads are started by kernel threads (kthreadd) */
  if (parent != NULL && sl_tl_row (self, parent->row)->kernel)
    sl_tl_row (self, th->row)->kernel = TRUE;
}

/* After events were lost on a CPU, what ran there and every thread that is
 * not seen on another CPU may have changed state: unknown until their next
 * events. Lost user-space events say nothing of scheduling. */
static void
handle_lost (SlTimeline    *self,
             SlTlHost      *h,
             SlTlCpu       *c,
             const SlEvent *e)
{
  gint64 t = e->time;

  if (e->flags & SL_EVENT_LOST_USER)
    return;

  for (guint i = 0; i < h->cpus->len; i++)
    {
      SlTlCpu *k = &g_array_index (h->cpus, SlTlCpu, i);

      /* a stream without a CPU number could be any CPU's */
      if (c != NULL && k != c)
        continue;
      k->irq = k->softirq = 0;
      if (k->cur != NULL)
        thread_off_cpu (self, h, k->cur, SL_TIMELINE_STATE_UNKNOWN, t);
      k->cur = NULL;
      k->tid = TID_UNKNOWN;
      cpu_refresh (self, h, k, t);
    }
  for (guint i = 0; i < h->all_threads->len; i++)
    {
      SlTlThread *th = g_ptr_array_index (h->all_threads, i);

      if (th->cpu >= 0 || th->dead || th->exited || th->off_state == SL_TIMELINE_STATE_UNKNOWN)
        continue;
      th->off_state = SL_TIMELINE_STATE_UNKNOWN;
      thread_refresh (self, h, th, t);
    }
}

static void
handle_wakeup (SlTimeline    *self,
               SlTlHost      *h,
               guint          host,
               const SlEvent *e)
{
  gint64 t = e->time;
  SlTlThread *th;

  if (e->tid == 0)
    return;
  th = thread_lookup (h, e->tid);
  if (th == NULL || th->dead)
    th = thread_new (self, h, host, e->tid, 0, 0, t, SL_TIMELINE_STATE_RUNNABLE);
  else if (th->cpu < 0 && (th->off_state == SL_TIMELINE_STATE_BLOCKED ||
                            th->off_state == SL_TIMELINE_STATE_UNKNOWN))
    {
      th->off_state = SL_TIMELINE_STATE_RUNNABLE;
      thread_refresh (self, h, th, t);
    }
}

static void
handle_exit (SlTimeline    *self,
             SlTlHost      *h,
             const SlEvent *e)
{
  gint64 t = e->time;
  SlTlThread *th = thread_lookup (h, e->tid);
  SlTlRow *r;
  gpointer v;

  if (th == NULL || th->exited || e->tid == 0)
    return;
  th->exited = TRUE;
  th->syscall = 0;
  sl_tl_row (self, th->row)->exited_at = t;
  if (th->cpu < 0)
    th->off_state = SL_TIMELINE_STATE_EXITED;
  thread_refresh (self, h, th, t);
  if (th->cpu >= 0)
    cpu_refresh (self, h, &g_array_index (h->cpus, SlTlCpu, th->cpu), t);
  r = sl_tl_row (self, th->row);
  if (r->tid == r->pid &&
      g_hash_table_lookup_extended (h->processes, GUINT_TO_POINTER (r->pid), NULL, &v) &&
      GPOINTER_TO_UINT (v) == r->parent)
    g_hash_table_remove (h->processes, GUINT_TO_POINTER (r->pid));
}

static void
handle_event (SlTimeline    *self,
              SlTlHost      *h,
              guint          host,
              const SlEvent *e)
{
  gint64 t = e->time;
  SlTlCpu *c = NULL;
  SlTlThread *th;

  if (!h->has_data)
    h->first = t, h->has_data = TRUE;
  h->first = MIN (h->first, t);
  h->end = MAX (h->end, t);

  /* events of streams without a CPU number say nothing about CPUs */
  if (e->cpu < MAX_CPUS)
    {
      c = cpu_at (self, h, host, e->cpu);
      if (sl_tl_row (self, c->row)->n_iv == 0)
        cpu_refresh (self, h, c, t);
    }
  else if (e->kind == SL_EVENT_SCHED_SWITCH || e->kind == SL_EVENT_SYSCALL_ENTRY ||
           e->kind == SL_EVENT_SYSCALL_EXIT || e->kind == SL_EVENT_IRQ_ENTRY || e->kind == SL_EVENT_IRQ_EXIT ||
           e->kind == SL_EVENT_SOFTIRQ_ENTRY || e->kind == SL_EVENT_SOFTIRQ_EXIT)
    return;

  switch ((SlEventKind) e->kind)
    {
    case SL_EVENT_SCHED_SWITCH:
      handle_switch (self, h, host, c, e);
      break;

    case SL_EVENT_SCHED_WAKEUP:
      handle_wakeup (self, h, host, e);
      break;

    case SL_EVENT_PROCESS_FORK:
      handle_fork (self, h, host, c, e);
      break;

    case SL_EVENT_PROCESS_EXEC:
      {
        const char *file = e->str != 0 && h->store != NULL ? sl_event_store_get_string (h->store, e->str) : NULL;
        const char *base = file != NULL ? strrchr (file, '/') : NULL;

        if (e->tid == 0)
          break;
        th = cpu_thread (self, h, host, c, e->tid, t);
        thread_set_name (self, th, _sl_tl_intern (self, base != NULL ? base + 1 : file));
      }
      break;

    case SL_EVENT_PROCESS_EXIT:
      handle_exit (self, h, e);
      break;

    case SL_EVENT_PROCESS_NAME:
      handle_process_name (self, h, host, e);
      break;

    case SL_EVENT_PROCESS_PARENT:
      {
        gpointer v;

        if (g_hash_table_lookup_extended (h->processes, GUINT_TO_POINTER (e->tid), NULL, &v))
          process_set_ppid (self, GPOINTER_TO_UINT (v), e->arg);
      }
      break;

    case SL_EVENT_LOST:
      handle_lost (self, h, c, e);
      break;

    case SL_EVENT_SYSCALL_ENTRY:
    case SL_EVENT_SYSCALL_EXIT:
      handle_syscall (self, h, host, c, e, e->kind == SL_EVENT_SYSCALL_ENTRY);
      break;

    case SL_EVENT_IRQ_ENTRY:
      c->irq++;
      c->irq_line = e->arg;
      cpu_irq_changed (self, h, c, t);
      break;

    case SL_EVENT_IRQ_EXIT:
      if (c->irq > 0)
        {
          c->irq--;
          cpu_irq_changed (self, h, c, t);
        }
      break;

    case SL_EVENT_SOFTIRQ_ENTRY:
      c->softirq++;
      c->vec = e->arg;
      cpu_irq_changed (self, h, c, t);
      break;

    case SL_EVENT_SOFTIRQ_EXIT:
      if (c->softirq > 0)
        {
          c->softirq--;
          cpu_irq_changed (self, h, c, t);
        }
      break;

    case SL_EVENT_PACKET_SEND:
    case SL_EVENT_PACKET_RECV:
      /* user-space-only hosts know their threads from these alone */
      if (e->tid != 0)
        {
          th = thread_lookup (h, e->tid);
          if (th == NULL)
            thread_new (self, h, host, e->tid, 0, 0, t, SL_TIMELINE_STATE_UNKNOWN);
        }
      break;

    case SL_EVENT_SOFTIRQ_RAISE:
    case SL_EVENT_NONE:
    case SL_EVENT_N_KINDS:
    default:
      break;
    }
}

/* The next events of a stream of the store, as far as they are
 * contiguous in memory */
typedef struct
{
  const SlEvent *e;
  const SlEvent *end;
} Run;

static void
run_next (const SlEventStore *store,
          guint               s,
          guint64             index,
          guint64             n,
          Run                *run)
{
  guint64 k;

  if (index >= n)
    {
      run->e = run->end = NULL;
      return;
    }
  run->e = sl_event_store_get_run (store, s, index, &k);
  run->end = run->e + MIN (k, n - index);
}

/* The store's streams are each in time order and were appended in one
 * per-host time order, so merging what is new in them is safe: later
 * appends are never earlier than what is consumed now. Ties go to the
 * scheduling stream first (the stream of lower index). */
static gboolean
host_update (SlTimeline *self,
             SlTlHost   *h,
             guint       host)
{
  const SlEventStore *store = h->store;
  Run run[SL_EVENT_N_STREAMS];
  guint64 n[SL_EVENT_N_STREAMS];
  guint64 before = self->events;

  if (store == NULL)
    return FALSE;

  for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
    {
      n[s] = sl_event_store_get_n_events (store, s);
      /* (what the store dropped before the timeline read it is not shown) */
      h->consumed[s] = MAX (h->consumed[s], sl_event_store_get_first_index (store, s));
      run_next (store, s, h->consumed[s], n[s], &run[s]);
    }

  for (;;)
    {
      guint best = SL_EVENT_N_STREAMS;

      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        if (run[s].e != NULL && (best == SL_EVENT_N_STREAMS || run[s].e->time < run[best].e->time))
          best = s;
      if (best == SL_EVENT_N_STREAMS)
        break;

      handle_event (self, h, host, run[best].e);
      self->events++;
      h->consumed[best]++;
      if (++run[best].e == run[best].end)
        run_next (store, best, h->consumed[best], n[best], &run[best]);
    }
  _sl_tl_scratch_settle (self);
  return self->events != before;
}

gboolean
sl_timeline_update_host (SlTimeline *self,
                         guint       host)
{
  SlTlHost *h;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (host < self->hosts->len, FALSE);

  h = g_ptr_array_index (self->hosts, host);
  return h != NULL && host_update (self, h, host);
}

gboolean
sl_timeline_update (SlTimeline *self)
{
  gboolean changed = FALSE;
  guint64 arrows;

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < self->hosts->len; i++)
    {
      SlTlHost *h = g_ptr_array_index (self->hosts, i);

      if (h != NULL)
        changed |= host_update (self, h, i);
    }
  arrows = self->n_arrows;
  _sl_tl_arrows_resolve (self);
  return changed || arrows != self->n_arrows;
}
