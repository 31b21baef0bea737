/* sl-timeline.c: builds the control-flow rows from the hosts' event stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-timeline-private.h"

#define TID_UNKNOWN G_MAXUINT32
#define MAX_CPUS    4096

/* lttng's prev_state: the kernel's TASK_* bits (low byte; preemption is
 * reported above it); EXIT_DEAD and EXIT_ZOMBIE mean the task is gone. */
#define PREV_STATE_EXIT_MASK 0x30

typedef struct
{
  guint   row;
  guint32 tid;
  guint32 syscall;
  gint32  cpu;
  guint8  off_state;
  guint8  exited;
  guint8  dead;
  gint64  last_switch;
} Thread;

typedef struct
{
  guint    row;
  guint32  tid;
  Thread  *cur;
  guint16  irq;
  guint16  softirq;
  guint32  irq_line;
  guint32  vec;
} Cpu;

static const char *const state_names[SL_TIMELINE_N_STATES] = {
  [SL_TIMELINE_STATE_NONE] = "none",
  [SL_TIMELINE_STATE_UNKNOWN] = "unknown",
  [SL_TIMELINE_STATE_USER] = "user",
  [SL_TIMELINE_STATE_SYSCALL] = "syscall",
  [SL_TIMELINE_STATE_IRQ] = "irq",
  [SL_TIMELINE_STATE_SOFTIRQ] = "softirq",
  [SL_TIMELINE_STATE_RUNNABLE] = "runnable",
  [SL_TIMELINE_STATE_BLOCKED] = "blocked",
  [SL_TIMELINE_STATE_EXITED] = "exited",
  [SL_TIMELINE_STATE_IDLE] = "idle",
};

/* ---------------------------------------------------------------------- */
/* Strings, hosts, rows                                                    */

static guint32
intern (SlTimeline *self,
        const char *str)
{
  return sl_interner_intern (self->strings, str);
}

static guint32
host_str (SlTimeline *self,
          SlTlHost   *h,
          guint32     sid)
{
  guint32 *v;

  if (sid == 0 || h->store == NULL)
    return 0;
  if (sid >= h->str_map->len)
    g_array_set_size (h->str_map, sid + 1);
  v = &g_array_index (h->str_map, guint32, sid);
  if (*v == 0)
    *v = intern (self, sl_event_store_get_string (h->store, sid));
  return *v;
}

static guint
row_new (SlTimeline        *self,
         SlTimelineRowKind  kind,
         guint              host,
         guint              parent,
         gint64             t)
{
  SlTlRow *r = g_new0 (SlTlRow, 1);
  guint id = self->rows->len;

  r->kind = kind;
  r->host = host;
  r->parent = parent;
  r->first = t;
  r->exited_at = G_MAXINT64;
  r->thread_row = SL_TIMELINE_NONE;
  r->prev_same_tid = SL_TIMELINE_NONE;
  r->cpu = SL_TIMELINE_NONE;
  g_ptr_array_add (self->rows, r);

  if (parent != SL_TIMELINE_NONE)
    {
      SlTlRow *p = sl_tl_row (self, parent);

      if (p->children == NULL)
        p->children = g_array_new (FALSE, FALSE, sizeof (guint));
      g_array_append_val (p->children, id);
    }
  return id;
}

static void
row_free (gpointer p)
{
  SlTlRow *r = p;

  _sl_tl_row_clear (r);
  if (r->children != NULL)
    g_array_unref (r->children);
  g_free (r);
}

static void
row_reparent (SlTimeline *self,
              guint       row,
              guint       parent)
{
  SlTlRow *r = sl_tl_row (self, row), *p;

  if (r->parent == parent)
    return;
  p = sl_tl_row (self, r->parent);
  for (guint i = 0; p->children != NULL && i < p->children->len; i++)
    if (g_array_index (p->children, guint, i) == row)
      {
        g_array_remove_index (p->children, i);
        break;
      }
  p = sl_tl_row (self, parent);
  if (p->children == NULL)
    p->children = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (p->children, row);
  r->parent = parent;
}

static void
host_free (gpointer p)
{
  SlTlHost *h = p;

  if (h == NULL)
    return;
  g_free (h->name);
  g_clear_pointer (&h->bound_rel, sl_relation_unref);
  g_clear_pointer (&h->rel_inv, sl_relation_unref);
  g_hash_table_destroy (h->threads);
  g_ptr_array_unref (h->all_threads);
  g_hash_table_destroy (h->processes);
  g_array_unref (h->cpus);
  g_array_unref (h->str_map);
  g_free (h);
}

SlTimeline *
sl_timeline_new (void)
{
  SlTimeline *self = g_new0 (SlTimeline, 1);

  self->hosts = g_ptr_array_new_with_free_func (host_free);
  self->rows = g_ptr_array_new_with_free_func (row_free);
  self->strings = sl_interner_new ();
  _sl_tl_arrows_init (self);
  return self;
}

void
sl_timeline_free (SlTimeline *self)
{
  if (self == NULL)
    return;

  _sl_tl_arrows_clear (self);
  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->hosts);
  sl_interner_free (self->strings);
  g_free (self);
}

void
sl_timeline_set_host (SlTimeline         *self,
                      guint               host,
                      const char         *name,
                      const SlEventStore *store)
{
  SlTlHost *h;

  g_return_if_fail (self != NULL);
  g_return_if_fail (host < G_MAXUINT16);

  if (host >= self->hosts->len)
    g_ptr_array_set_size (self->hosts, host + 1);
  h = g_ptr_array_index (self->hosts, host);
  if (h != NULL)
    {
      g_return_if_fail (h->store == NULL || h->store == store);
      h->store = store;
      if (name != NULL && g_strcmp0 (name, h->name) != 0)
        {
          g_free (h->name);
          h->name = g_strdup (name);
          sl_tl_row (self, h->row)->name = intern (self, name);
        }
      return;
    }

  h = g_new0 (SlTlHost, 1);
  h->name = g_strdup (name != NULL ? name : "");
  h->store = store;
  h->threads = g_hash_table_new (NULL, NULL);
  h->all_threads = g_ptr_array_new_with_free_func (g_free);
  h->processes = g_hash_table_new (NULL, NULL);
  h->cpus = g_array_new (FALSE, TRUE, sizeof (Cpu));
  h->str_map = g_array_new (FALSE, TRUE, sizeof (guint32));
  h->first = G_MAXINT64;
  h->kept_from = G_MININT64;
  h->end = G_MININT64;
  sl_transform_init_identity (&h->to_view);
  sl_transform_init_identity (&h->from_view);
  h->bound_ns = NAN;
  g_ptr_array_index (self->hosts, host) = h;
  h->row = row_new (self, SL_TIMELINE_ROW_HOST, host, SL_TIMELINE_NONE, 0);
  sl_tl_row (self, h->row)->name = intern (self, h->name);
}

void
sl_timeline_add_reader_hosts (SlTimeline    *self,
                              SlTraceReader *reader)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (reader != NULL);

  for (guint i = 0; i < sl_trace_reader_get_n_hosts (reader); i++)
    sl_timeline_set_host (self, sl_trace_reader_get_engine_host (reader, i),
                          sl_trace_reader_get_host_name (reader, i),
                          sl_trace_reader_get_event_store (reader, i));
}

guint
sl_timeline_get_n_hosts (const SlTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->hosts->len;
}

/* ---------------------------------------------------------------------- */
/* Threads, processes, CPUs                                                */

static Cpu *
cpu_at (SlTimeline *self,
        SlTlHost   *h,
        guint       host,
        guint       cpu)
{
  while (h->cpus->len <= cpu)
    {
      Cpu c = { 0 };
      g_autofree char *name = g_strdup_printf ("CPU %u", h->cpus->len);
      SlTlRow *r;

      c.tid = TID_UNKNOWN;
      c.row = row_new (self, SL_TIMELINE_ROW_CPU, host, h->row, G_MAXINT64);
      r = sl_tl_row (self, c.row);
      r->cpu = h->cpus->len;
      r->name = intern (self, name);
      g_array_append_val (h->cpus, c);
    }
  return &g_array_index (h->cpus, Cpu, cpu);
}

static void
cpu_refresh (SlTimeline *self,
             SlTlHost   *h,
             Cpu        *c,
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
  _sl_tl_row_push (r, t, state, (guint16) r->cpu, detail);
}

static void
thread_refresh (SlTimeline *self,
                SlTlHost   *h,
                Thread     *th,
                gint64      t)
{
  guint8 state;
  guint16 cpu = SL_TIMELINE_NO_CPU;
  guint32 detail = 0;

  if (th->cpu >= 0)
    {
      const Cpu *c = &g_array_index (h->cpus, Cpu, th->cpu);

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
  _sl_tl_row_push (sl_tl_row (self, th->row), t, state, cpu, detail);
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
  row = row_new (self, SL_TIMELINE_ROW_PROCESS, host, h->row, t);
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
                 Thread     *th,
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
                Thread     *th,
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
  row_reparent (self, th->row, prow);
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
                Thread     *th,
                guint8      state,
                gint64      t)
{
  if (th->cpu >= 0)
    {
      Cpu *c = &g_array_index (h->cpus, Cpu, th->cpu);

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
               Thread     *th,
               guint       cpu,
               gint64      t)
{
  Cpu *c = &g_array_index (h->cpus, Cpu, cpu);

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

static Thread *
thread_new (SlTimeline *self,
            SlTlHost   *h,
            guint       host,
            guint32     tid,
            guint32     pid,
            guint32     name,
            gint64      t,
            guint8      state)
{
  Thread *th = g_new0 (Thread, 1), *old;
  guint parent = pid != 0 ? process_row (self, h, host, pid, t) : h->row;
  SlTlRow *r, *p;

  th->tid = tid;
  th->cpu = -1;
  th->off_state = state;
  th->last_switch = G_MININT64;

  old = g_hash_table_lookup (h->threads, GUINT_TO_POINTER (tid));
  if (old != NULL && !old->dead)
    {
      /* a new task with the tid of one whose end was not seen */
      if (!old->exited)
        sl_tl_row (self, old->row)->exited_at = t;
      old->exited = old->dead = TRUE;
      thread_off_cpu (self, h, old, SL_TIMELINE_STATE_EXITED, t);
    }

  th->row = row_new (self, SL_TIMELINE_ROW_THREAD, host, parent, t);
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
  g_ptr_array_add (h->all_threads, th);
  thread_refresh (self, h, th, t);
  return th;
}

static Thread *
thread_get (SlTimeline *self,
            SlTlHost   *h,
            guint       host,
            guint32     tid,
            gint64      t)
{
  Thread *th = g_hash_table_lookup (h->threads, GUINT_TO_POINTER (tid));

  if (th != NULL && !th->dead)
    return th;
  return thread_new (self, h, host, tid, 0, 0, t, SL_TIMELINE_STATE_UNKNOWN);
}

/* The thread of an event recorded on @c: usually the one running there. */
static Thread *
cpu_thread (SlTimeline *self,
            SlTlHost   *h,
            guint       host,
            Cpu        *c,
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
                 Cpu        *c,
                 gint64      t)
{
  cpu_refresh (self, h, c, t);
  if (c->cur != NULL)
    thread_refresh (self, h, c->cur, t);
}

/* ---------------------------------------------------------------------- */
/* Events                                                                  */

static void
handle_switch (SlTimeline    *self,
               SlTlHost      *h,
               guint          host,
               Cpu           *c,
               const SlEvent *e)
{
  gint64 t = e->time;

  if (e->tid != 0)
    {
      Thread *p = c->cur != NULL && c->cur->tid == e->tid ? c->cur
                  : g_hash_table_lookup (h->threads, GUINT_TO_POINTER (e->tid));
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
      Thread *n = thread_get (self, h, host, e->arg, t);

      thread_set_name (self, n, host_str (self, h, e->str));
      c->tid = TID_UNKNOWN;
      thread_on_cpu (self, h, n, e->cpu, t);
    }
}

static void
handle_syscall (SlTimeline    *self,
                SlTlHost      *h,
                guint          host,
                Cpu           *c,
                const SlEvent *e,
                gboolean       entry)
{
  Thread *th;

  if (e->tid == 0)
    return;
  th = cpu_thread (self, h, host, c, e->tid, e->time);
  if (entry)
    {
      th->syscall = host_str (self, h, e->str);
      if (th->syscall == 0)
        th->syscall = intern (self, "?");
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
        cpu_refresh (self, h, &g_array_index (h->cpus, Cpu, th->cpu), e->time);
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
  guint32 name = host_str (self, h, e->str);
  guint8 state = dump_state (e->flags);
  Thread *th;

  if (e->tid == 0)
    return;
  th = g_hash_table_lookup (h->threads, GUINT_TO_POINTER (e->tid));
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
             Cpu           *c,
             const SlEvent *e)
{
  Thread *parent = e->tid != 0 ? cpu_thread (self, h, host, c, e->tid, e->time) : NULL;
  guint32 parent_pid = parent != NULL ? sl_tl_row (self, parent->row)->pid : 0;
  guint32 name = host_str (self, h, e->str);
  Thread *th;

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
             Cpu           *c,
             const SlEvent *e)
{
  gint64 t = e->time;

  if (e->flags & SL_EVENT_LOST_USER)
    return;

  for (guint i = 0; i < h->cpus->len; i++)
    {
      Cpu *k = &g_array_index (h->cpus, Cpu, i);

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
      Thread *th = g_ptr_array_index (h->all_threads, i);

      if (th->cpu >= 0 || th->dead || th->exited || th->off_state == SL_TIMELINE_STATE_UNKNOWN)
        continue;
      th->off_state = SL_TIMELINE_STATE_UNKNOWN;
      thread_refresh (self, h, th, t);
    }
}

static void
handle_event (SlTimeline    *self,
              SlTlHost      *h,
              guint          host,
              const SlEvent *e)
{
  gint64 t = e->time;
  Cpu *c = NULL;
  Thread *th;

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
      if (e->tid == 0)
        break;
      th = g_hash_table_lookup (h->threads, GUINT_TO_POINTER (e->tid));
      if (th == NULL || th->dead)
        th = thread_new (self, h, host, e->tid, 0, 0, t, SL_TIMELINE_STATE_RUNNABLE);
      else if (th->cpu < 0 && (th->off_state == SL_TIMELINE_STATE_BLOCKED ||
                                th->off_state == SL_TIMELINE_STATE_UNKNOWN))
        {
          th->off_state = SL_TIMELINE_STATE_RUNNABLE;
          thread_refresh (self, h, th, t);
        }
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
        thread_set_name (self, th, intern (self, base != NULL ? base + 1 : file));
      }
      break;

    case SL_EVENT_PROCESS_EXIT:
      th = g_hash_table_lookup (h->threads, GUINT_TO_POINTER (e->tid));
      if (th == NULL || th->exited || e->tid == 0)
        break;
      th->exited = TRUE;
      th->syscall = 0;
      sl_tl_row (self, th->row)->exited_at = t;
      if (th->cpu < 0)
        th->off_state = SL_TIMELINE_STATE_EXITED;
      thread_refresh (self, h, th, t);
      if (th->cpu >= 0)
        cpu_refresh (self, h, &g_array_index (h->cpus, Cpu, th->cpu), t);
      {
        SlTlRow *r = sl_tl_row (self, th->row);
        gpointer v;

        if (r->tid == r->pid &&
            g_hash_table_lookup_extended (h->processes, GUINT_TO_POINTER (r->pid), NULL, &v) &&
            GPOINTER_TO_UINT (v) == r->parent)
          g_hash_table_remove (h->processes, GUINT_TO_POINTER (r->pid));
      }
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
          th = g_hash_table_lookup (h->threads, GUINT_TO_POINTER (e->tid));
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

/* The store's streams are each in time order and were appended in one
 * per-host time order, so merging what is new in them is safe: later
 * appends are never earlier than what is consumed now. Ties go to the
 * scheduling stream first. */
static gboolean
host_update (SlTimeline *self,
             SlTlHost   *h,
             guint       host)
{
  const SlEventStore *store = h->store;
  const SlEvent *head[SL_EVENT_N_STREAMS];
  guint64 n[SL_EVENT_N_STREAMS];
  guint64 before = self->events;

  if (store == NULL)
    return FALSE;

  for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
    {
      n[s] = sl_event_store_get_n_events (store, s);
      /* (what the store dropped before the timeline read it is not shown) */
      h->consumed[s] = MAX (h->consumed[s], sl_event_store_get_first_index (store, s));
      head[s] = h->consumed[s] < n[s] ? sl_event_store_get (store, s, h->consumed[s]) : NULL;
    }

  for (;;)
    {
      guint best = SL_EVENT_N_STREAMS;

      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        if (head[s] != NULL && (best == SL_EVENT_N_STREAMS || head[s]->time < head[best]->time))
          best = s;
      if (best == SL_EVENT_N_STREAMS)
        break;

      handle_event (self, h, host, head[best]);
      self->events++;
      h->consumed[best]++;
      head[best] = h->consumed[best] < n[best] ? sl_event_store_get (store, best, h->consumed[best]) : NULL;
    }
  return self->events != before;
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

/* ---------------------------------------------------------------------- */
/* Rows                                                                    */

guint
_sl_tl_thread_row_at (const SlTimeline *self,
                      SlTlHost         *h,
                      guint32           tid,
                      gint64            t)
{
  Thread *th = g_hash_table_lookup (h->threads, GUINT_TO_POINTER (tid));
  guint row;

  if (th == NULL)
    return SL_TIMELINE_NONE;
  row = th->row;
  while (sl_tl_row (self, row)->first > t && sl_tl_row (self, row)->prev_same_tid != SL_TIMELINE_NONE)
    row = sl_tl_row (self, row)->prev_same_tid;
  return row;
}

gint64
_sl_tl_row_end (const SlTimeline *self,
                const SlTlRow    *row)
{
  const SlTlHost *h = sl_tl_host (self, row->host);

  return h != NULL && h->has_data ? h->end : G_MININT64;
}

guint
sl_timeline_get_n_rows (const SlTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->rows->len;
}

guint
sl_timeline_get_host_row (const SlTimeline *self,
                          guint             host)
{
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, SL_TIMELINE_NONE);

  h = sl_tl_host (self, host);
  return h != NULL ? h->row : SL_TIMELINE_NONE;
}

void
sl_timeline_get_row_info (const SlTimeline  *self,
                          guint              row,
                          SlTimelineRowInfo *info)
{
  const SlTlRow *r;
  const SlTlHost *h;

  g_return_if_fail (self != NULL);
  g_return_if_fail (row < self->rows->len);
  g_return_if_fail (info != NULL);

  r = sl_tl_row (self, row);
  h = sl_tl_host (self, r->host);
  info->kind = r->kind;
  info->host = r->host;
  info->parent = r->parent;
  info->tid = r->tid;
  info->pid = r->pid;
  info->ppid = r->ppid;
  info->cpu = r->cpu;
  info->name = sl_interner_get (self->strings, r->name);
  info->first = r->kind == SL_TIMELINE_ROW_HOST && h->has_data ? h->first : r->first;
  info->last = MIN (r->exited_at, _sl_tl_row_end (self, r));
  info->n_intervals = r->n_iv;
  info->thread_row = r->thread_row;
  info->n_children = r->children != NULL ? r->children->len : 0;
}

GArray *
sl_timeline_dup_children (const SlTimeline *self,
                          guint             row)
{
  const SlTlRow *r;
  GArray *ret = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (self != NULL, ret);
  g_return_val_if_fail (row < self->rows->len, ret);

  r = sl_tl_row (self, row);
  if (r->children != NULL)
    g_array_append_vals (ret, r->children->data, r->children->len);
  return ret;
}

guint
sl_timeline_find_thread (const SlTimeline *self,
                         guint             host,
                         guint32           tid,
                         gint64            local)
{
  SlTlHost *h;

  g_return_val_if_fail (self != NULL, SL_TIMELINE_NONE);

  h = sl_tl_host (self, host);
  return h != NULL ? _sl_tl_thread_row_at (self, h, tid, local) : SL_TIMELINE_NONE;
}

guint
sl_timeline_find_cpu (const SlTimeline *self,
                      guint             host,
                      guint             cpu)
{
  SlTlHost *h;

  g_return_val_if_fail (self != NULL, SL_TIMELINE_NONE);

  h = sl_tl_host (self, host);
  if (h == NULL || cpu >= h->cpus->len)
    return SL_TIMELINE_NONE;
  return g_array_index (h->cpus, Cpu, cpu).row;
}

GArray *
sl_timeline_find_rows (const SlTimeline *self,
                       const char       *text)
{
  GArray *ret = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *needle = NULL;
  guint64 number = 0;
  gboolean is_number;

  g_return_val_if_fail (self != NULL, ret);
  g_return_val_if_fail (text != NULL, ret);

  needle = g_utf8_casefold (text, -1);
  is_number = g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &number, NULL);
  for (guint i = 0; i < self->rows->len; i++)
    {
      const SlTlRow *r = sl_tl_row (self, i);
      gboolean hit = FALSE;

      if (is_number && (r->kind == SL_TIMELINE_ROW_THREAD || r->kind == SL_TIMELINE_ROW_PROCESS))
        hit = r->tid == number || r->pid == number;
      if (!hit && r->name != 0)
        {
          g_autofree char *name = g_utf8_casefold (sl_interner_get (self->strings, r->name), -1);
          hit = strstr (name, needle) != NULL;
        }
      if (hit)
        g_array_append_val (ret, i);
    }
  return ret;
}

const char *
sl_timeline_get_string (const SlTimeline *self,
                        guint32           id)
{
  g_return_val_if_fail (self != NULL, NULL);
  return sl_interner_get (self->strings, id);
}

/* ---------------------------------------------------------------------- */
/* Views                                                                   */

/* A piecewise map is shown through its representative piece: the linear
 * transform the caller animates (sl_timeline_set_host_transform()) moves
 * the whole map with it. */
static void
update_anim (SlTlHost *h)
{
  SlTransform rep_inv;

  if (h->bound_rel == NULL || !h->has_rep || sl_relation_is_linear (h->bound_rel))
    return;
  sl_transform_invert (&h->rep, &rep_inv);
  sl_transform_compose (&h->to_view, &rep_inv, &h->anim);
  sl_transform_invert (&h->anim, &h->anim_inv);
}

void
sl_timeline_set_host_transform (SlTimeline        *self,
                                guint              host,
                                const SlTransform *to_view,
                                double             bound_ns)
{
  SlTlHost *h;

  g_return_if_fail (self != NULL);

  h = sl_tl_host (self, host);
  g_return_if_fail (h != NULL);

  if (to_view == NULL || sl_transform_is_identity (to_view))
    {
      h->has_view = FALSE;
      sl_transform_init_identity (&h->to_view);
      sl_transform_init_identity (&h->from_view);
    }
  else
    {
      h->has_view = TRUE;
      h->to_view = *to_view;
      sl_transform_invert (to_view, &h->from_view);
    }
  h->bound_ns = bound_ns;
  update_anim (h);
}

/**
 * sl_timeline_set_host_relation:
 * @to_view: (nullable): the host's relation to the view's clock: its map,
 *   piecewise, and its bound at every instant
 * @rep: (nullable): the piece of @to_view that
 *   sl_timeline_set_host_transform() is given for this host
 *
 * With @rep, the host is drawn through the whole piecewise map; the
 * transform set with sl_timeline_set_host_transform() moves it as a whole
 * (an animation from an old transform to @rep ends at @to_view exactly),
 * and %NULL there still shows raw local time. The bound serves the
 * uncertainty of messages on links that are not in the tree
 * (sl_timeline_set_link_relation()).
 */
void
sl_timeline_set_host_relation (SlTimeline        *self,
                               guint              host,
                               SlRelation        *to_view,
                               const SlTransform *rep)
{
  SlTlHost *h;

  g_return_if_fail (self != NULL);

  h = sl_tl_host (self, host);
  g_return_if_fail (h != NULL);

  if (to_view != h->bound_rel)
    {
      if (to_view != NULL)
        sl_relation_ref (to_view);
      g_clear_pointer (&h->bound_rel, sl_relation_unref);
      g_clear_pointer (&h->rel_inv, sl_relation_unref);
      h->bound_rel = to_view;
      if (to_view != NULL && !sl_relation_is_linear (to_view) && sl_relation_get_n_pieces (to_view) > 1)
        h->rel_inv = sl_relation_invert (to_view);
    }
  h->has_rep = rep != NULL;
  if (rep != NULL)
    h->rep = *rep;
  update_anim (h);
}

void
sl_timeline_clear_transforms (SlTimeline *self)
{
  g_return_if_fail (self != NULL);

  for (guint i = 0; i < self->hosts->len; i++)
    if (g_ptr_array_index (self->hosts, i) != NULL)
      sl_timeline_set_host_transform (self, i, NULL, NAN);
}

void
sl_timeline_sync_engine (SlTimeline *self,
                         SlEngine   *engine)
{
  guint n;
  g_autofree guint *ref = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (engine != NULL);

  n = sl_engine_get_n_hosts (engine);
  ref = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    {
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (engine, i, &hi);
      ref[i] = hi.reference;
      if (sl_tl_host (self, i) != NULL)
        {
          sl_timeline_set_host_relation (self, i, hi.relation, &hi.to_reference);
          sl_timeline_set_host_transform (self, i, &hi.to_reference, hi.bound_ns);
        }
      sl_host_info_clear (&hi);
    }
  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlLinkInfo li;

      sl_engine_get_link_info (engine, l, &li);
      if (ref[li.a] != ref[li.b])
        sl_timeline_set_link_bound (self, li.a, li.b, NAN);
      else if (li.in_tree)
        {
          g_autoptr(SlRelation) rel = sl_engine_get_link_relation (engine, l);

          sl_timeline_set_link_relation (self, li.a, li.b, rel);
        }
      else
        sl_timeline_set_link_relation (self, li.a, li.b, NULL);
    }
}

gint64
sl_timeline_to_view (const SlTimeline *self,
                     guint             host,
                     gint64            local)
{
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, local);

  h = sl_tl_host (self, host);
  if (h == NULL || !h->has_view)
    return local;
  if (piecewise_view (h))
    return sl_transform_apply (&h->anim, sl_relation_apply (h->bound_rel, local));
  return sl_transform_apply (&h->to_view, local);
}

gint64
sl_timeline_from_view (const SlTimeline *self,
                       guint             host,
                       gint64            view)
{
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, view);

  h = sl_tl_host (self, host);
  if (h == NULL || !h->has_view)
    return view;
  if (piecewise_view (h))
    return sl_relation_apply (h->rel_inv, sl_transform_apply (&h->anim_inv, view));
  return sl_transform_apply (&h->from_view, view);
}

/**
 * sl_timeline_drop_before:
 * @host: the engine's host index
 * @time: host-local ns
 *
 * Bounded memory for live sessions: drops the host's states and the
 * messages it sent before @time (whole blocks of intervals, so a little
 * before @time may stay) and its store's events before @time (the caller
 * owns the store and holds its lock). Row indices stay (a row whose
 * states were all dropped keeps its last one); interval indices of the
 * host's rows move, so none is kept across this call. The host's time
 * range then begins at @time at the earliest; sl_timeline_get_kept_from()
 * says where.
 *
 * Returns: how many intervals, messages and events were dropped
 */
guint64
sl_timeline_drop_before (SlTimeline   *self,
                         guint         host,
                         SlEventStore *store,
                         gint64        time)
{
  SlTlHost *h;
  guint64 dropped = 0;

  g_return_val_if_fail (self != NULL, 0);

  h = sl_tl_host (self, host);
  if (h == NULL || time <= h->kept_from)
    return 0;
  g_return_val_if_fail (store == NULL || store == h->store, 0);

  h->kept_from = time;
  if (h->has_data)
    h->first = MAX (h->first, MIN (time, h->end));
  for (guint i = 0; i < self->rows->len; i++)
    {
      SlTlRow *r = sl_tl_row (self, i);

      if (r->host == host && r->kind != SL_TIMELINE_ROW_HOST)
        dropped += _sl_tl_row_drop_before (r, time);
    }
  dropped += _sl_tl_arrows_drop_before (self, host, time);
  if (store != NULL)
    {
      dropped += sl_event_store_drop_before (store, time);
      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        h->consumed[s] = MAX (h->consumed[s], sl_event_store_get_first_index (store, s));
      h->net_cursor = MAX (h->net_cursor, sl_event_store_get_first_index (store, SL_EVENT_STREAM_NET));
    }
  return dropped;
}

/* Host-local time from which the host's data is kept (G_MININT64: all of
 * it; see sl_timeline_drop_before()). */
gint64
sl_timeline_get_kept_from (const SlTimeline *self,
                           guint             host)
{
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, G_MININT64);

  h = sl_tl_host (self, host);
  return h != NULL ? h->kept_from : G_MININT64;
}

gboolean
sl_timeline_get_time_range (const SlTimeline *self,
                            guint             host,
                            gint64           *first,
                            gint64           *last)
{
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, FALSE);

  h = sl_tl_host (self, host);
  if (h == NULL || !h->has_data)
    return FALSE;
  if (first != NULL)
    *first = h->first;
  if (last != NULL)
    *last = h->end;
  return TRUE;
}

gboolean
sl_timeline_get_view_range (const SlTimeline *self,
                            gint64           *first,
                            gint64           *last)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < self->hosts->len; i++)
    {
      const SlTlHost *h = g_ptr_array_index (self->hosts, i);

      if (h == NULL || !h->has_data)
        continue;
      lo = MIN (lo, sl_timeline_to_view (self, i, h->first));
      hi = MAX (hi, sl_timeline_to_view (self, i, h->end));
    }
  if (lo > hi)
    return FALSE;
  if (first != NULL)
    *first = lo;
  if (last != NULL)
    *last = hi;
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Events of a selection                                                   */

static gboolean
event_concerns (const SlEvent *e,
                const SlTlRow *r,
                GHashTable    *tids)
{
  switch (r->kind)
    {
    case SL_TIMELINE_ROW_HOST:
      return TRUE;

    case SL_TIMELINE_ROW_CPU:
      return e->cpu == r->cpu;

    case SL_TIMELINE_ROW_PROCESS:
      if (e->kind == SL_EVENT_SCHED_SWITCH || e->kind == SL_EVENT_PROCESS_FORK)
        return g_hash_table_contains (tids, GUINT_TO_POINTER (e->tid)) ||
               g_hash_table_contains (tids, GUINT_TO_POINTER (e->arg));
      return e->tid != 0 && g_hash_table_contains (tids, GUINT_TO_POINTER (e->tid));

    case SL_TIMELINE_ROW_THREAD:
    default:
      if (e->kind == SL_EVENT_SCHED_SWITCH || e->kind == SL_EVENT_PROCESS_FORK)
        return e->tid == r->tid || e->arg == r->tid;
      return e->tid == r->tid;
    }
}

static int
event_cmp (gconstpointer a,
           gconstpointer b)
{
  const SlEvent *x = a, *y = b;

  return x->time < y->time ? -1 : x->time > y->time;
}

GArray *
sl_timeline_dup_row_events (const SlTimeline *self,
                            guint             row,
                            gint64            t0,
                            gint64            t1,
                            guint             max_events)
{
  GArray *ret = g_array_new (FALSE, FALSE, sizeof (SlEvent));
  g_autoptr(GHashTable) tids = NULL;
  const SlTlRow *r;
  SlTlHost *h;

  g_return_val_if_fail (self != NULL, ret);
  g_return_val_if_fail (row < self->rows->len, ret);

  r = sl_tl_row (self, row);
  h = sl_tl_host (self, r->host);
  if (h == NULL || h->store == NULL || t1 <= t0)
    return ret;

  if (r->kind == SL_TIMELINE_ROW_THREAD)
    {
      t0 = MAX (t0, r->first);
      if (r->exited_at != G_MAXINT64)
        t1 = MIN (t1, r->exited_at + 1);
    }
  else if (r->kind == SL_TIMELINE_ROW_PROCESS)
    {
      tids = g_hash_table_new (NULL, NULL);
      for (guint i = 0; r->children != NULL && i < r->children->len; i++)
        g_hash_table_add (tids, GUINT_TO_POINTER (sl_tl_row (self, g_array_index (r->children, guint, i))->tid));
    }

  for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
    {
      guint64 n = MIN (sl_event_store_get_n_events (h->store, s), h->consumed[s]);
      guint kept = 0;

      if (s == SL_EVENT_STREAM_IRQ && (r->kind == SL_TIMELINE_ROW_THREAD || r->kind == SL_TIMELINE_ROW_PROCESS))
        continue;
      for (guint64 k = sl_event_store_lower_bound (h->store, s, t0); k < n; k++)
        {
          const SlEvent *e = sl_event_store_get (h->store, s, k);

          if (e->time >= t1)
            break;
          if (!event_concerns (e, r, tids))
            continue;
          g_array_append_val (ret, *e);
          if (max_events > 0 && ++kept >= max_events)
            break;
        }
    }
  g_array_sort (ret, event_cmp);
  if (max_events > 0 && ret->len > max_events)
    g_array_set_size (ret, max_events);
  return ret;
}

/* ---------------------------------------------------------------------- */
/* Statistics                                                              */

void
sl_timeline_get_stats (const SlTimeline *self,
                       SlTimelineStats  *stats)
{
  gsize other = sizeof *self;

  g_return_if_fail (self != NULL);
  g_return_if_fail (stats != NULL);

  memset (stats, 0, sizeof *stats);
  stats->rows = self->rows->len;
  for (guint i = 0; i < self->rows->len; i++)
    {
      const SlTlRow *r = sl_tl_row (self, i);

      stats->threads += r->kind == SL_TIMELINE_ROW_THREAD;
      stats->intervals += r->n_iv;
      stats->interval_bytes += _sl_tl_row_memory (r);
      other += sizeof *r + sizeof (gpointer);
      if (r->children != NULL)
        other += r->children->len * sizeof (guint) + 32;
    }
  for (guint i = 0; i < self->hosts->len; i++)
    {
      const SlTlHost *h = g_ptr_array_index (self->hosts, i);

      if (h == NULL)
        continue;
      other += sizeof *h + h->all_threads->len * (sizeof (Thread) + 4 * sizeof (gpointer)) +
               h->cpus->len * sizeof (Cpu) + h->str_map->len * sizeof (guint32) +
               g_hash_table_size (h->processes) * 4 * sizeof (gpointer);
    }
  other += sl_interner_get_memory_size (self->strings);
  stats->arrows = self->n_arrows;
  stats->pending_arrows = self->pending->len;
  stats->events = self->events;
  stats->arrow_bytes = _sl_tl_arrows_memory (self);
  stats->other_bytes = other;
}

const char *
sl_timeline_state_to_string (SlTimelineState state)
{
  g_return_val_if_fail (state < SL_TIMELINE_N_STATES, NULL);
  return state_names[state];
}

const char *
sl_timeline_row_kind_to_string (SlTimelineRowKind kind)
{
  switch (kind)
    {
    case SL_TIMELINE_ROW_HOST:
      return "host";
    case SL_TIMELINE_ROW_PROCESS:
      return "process";
    case SL_TIMELINE_ROW_THREAD:
      return "thread";
    case SL_TIMELINE_ROW_CPU:
      return "cpu";
    default:
      return NULL;
    }
}
