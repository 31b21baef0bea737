/* sl-timeline-chain.c: requests followed from host to host
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-timeline-chain.h"
#include "sl-timeline-private.h"

/* a softirq that receives a packet wakes its reader within it */
#define WAKEUP_WINDOW_NS  G_GINT64_CONSTANT (1000000)
/* the segments of one request or reply: sent in one burst, no two more
 * than this apart */
#define BURST_GAP_NS      G_GINT64_CONSTANT (1000000)
/* a woken thread followed until it blocks, at most this long */
#define RUN_HORIZON_NS    G_GINT64_CONSTANT (10000000000)

static gboolean
interval_at (const SlTimeline   *self,
             guint               row,
             gint64              t,
             SlTimelineInterval *iv)
{
  guint64 k;

  if (row == SL_TIMELINE_NONE)
    return FALSE;
  k = sl_timeline_find_interval (self, row, t);
  if (k == G_MAXUINT64)
    return FALSE;
  sl_timeline_get_interval (self, row, k, iv);
  return TRUE;
}

/* The thread the receive of a message at local @tr on @cpu woke: a
 * sched_wakeup on that CPU in the interrupt the receive ran in */
static gboolean
wakeup_after (const SlTimeline *self,
              guint             host,
              guint16           cpu,
              gint64            tr,
              guint            *row,
              gint64           *when)
{
  const SlTlHost *h = sl_tl_host (self, host);
  guint cpu_row = cpu != SL_TIMELINE_NO_CPU ? sl_timeline_find_cpu (self, host, cpu) : SL_TIMELINE_NONE;
  SlTimelineInterval iv;
  gint64 end;
  guint64 n, k;

  if (h == NULL || h->store == NULL || !interval_at (self, cpu_row, tr, &iv) ||
      (iv.state != SL_TIMELINE_STATE_SOFTIRQ && iv.state != SL_TIMELINE_STATE_IRQ))
    return FALSE;
  /* until the CPU leaves its interrupts (an interrupt may come in the
   * middle of the softirq) */
  for (k = sl_timeline_find_interval (self, cpu_row, tr) + 1;
       k < sl_timeline_get_n_intervals (self, cpu_row) && iv.end < tr + WAKEUP_WINDOW_NS; k++)
    {
      SlTimelineInterval next;

      sl_timeline_get_interval (self, cpu_row, k, &next);
      if (next.state != SL_TIMELINE_STATE_SOFTIRQ && next.state != SL_TIMELINE_STATE_IRQ)
        break;
      iv.end = next.end;
    }
  end = MIN (iv.end, tr + WAKEUP_WINDOW_NS);
  n = MIN (sl_event_store_get_n_events (h->store, SL_EVENT_STREAM_SCHED), h->consumed[SL_EVENT_STREAM_SCHED]);
  for (k = sl_event_store_lower_bound (h->store, SL_EVENT_STREAM_SCHED, tr); k < n; k++)
    {
      const SlEvent *e = sl_event_store_get (h->store, SL_EVENT_STREAM_SCHED, k);

      if (e->time > end)
        break;
      if (e->kind != SL_EVENT_SCHED_WAKEUP || e->cpu != cpu || e->tid == 0)
        continue;
      *row = sl_timeline_find_thread (self, host, e->tid, e->time);
      *when = e->time;
      return *row != SL_TIMELINE_NONE;
    }
  return FALSE;
}

/* Who reacted to @m, and when: the thread its receive (or that of a later
 * segment of the same connection) woke; the receiving thread itself when
 * the receive was not in an interrupt (user-space events) */
static gboolean
receiver_of (const SlTimeline      *self,
             const SlTimelineArrow *m,
             guint                 *row,
             gint64                *when)
{
  const SlTlLane *l;
  SlTimelineInterval iv;
  SlTimelineRowInfo ri;

  guint r;
  gint64 t, last;
  gboolean found = FALSE;

  if (wakeup_after (self, m->recv_host, m->recv_cpu, m->recv_time, row, when))
    return TRUE;
  /* the reader waits for the whole request: the receive of a later
   * segment of the burst (received in any order) may be the one that
   * wakes it; the earliest such wake-up */
  l = _sl_tl_lane_find (self, m->send_host, m->recv_host);
  last = m->send_time;
  if (l != NULL)
    for (guint64 k = _sl_tl_arrow_lower_bound (l, 0, m->send_time);
         k < l->n && l->a[k].send_time <= last + BURST_GAP_NS; k++)
      {
        const SlTlArrow *a = &l->a[k];

        if (a->conn != m->connection)
          continue;
        last = a->send_time;
        if (wakeup_after (self, m->recv_host, a->recv_cpu, a->recv_time, &r, &t) && (!found || t < *when))
          {
            *row = r;
            *when = t;
            found = TRUE;
          }
      }
  if (found)
    return TRUE;
  if (m->recv_row < sl_timeline_get_n_rows (self))
    {
      sl_timeline_get_row_info (self, m->recv_row, &ri);
      if (ri.kind == SL_TIMELINE_ROW_THREAD &&
          !(interval_at (self, sl_timeline_find_cpu (self, m->recv_host, m->recv_cpu), m->recv_time, &iv) &&
            (iv.state == SL_TIMELINE_STATE_SOFTIRQ || iv.state == SL_TIMELINE_STATE_IRQ)))
        {
          *row = m->recv_row;
          *when = m->recv_time;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
on_cpu (guint8 state)
{
  return state == SL_TIMELINE_STATE_USER || state == SL_TIMELINE_STATE_SYSCALL ||
         state == SL_TIMELINE_STATE_IRQ || state == SL_TIMELINE_STATE_SOFTIRQ;
}

/* From @t: when @row is next on a CPU, then when it blocks or exits */
static void
run_of (const SlTimeline *self,
        guint             row,
        gint64            t,
        gint64           *start,
        gint64           *end)
{
  guint64 n = sl_timeline_get_n_intervals (self, row), k = sl_timeline_find_interval (self, row, t);
  gboolean ran = FALSE;
  SlTimelineRowInfo ri;

  sl_timeline_get_row_info (self, row, &ri);
  *start = t;
  *end = MIN (ri.last, t + RUN_HORIZON_NS);
  for (k = k == G_MAXUINT64 ? 0 : k; k < n; k++)
    {
      SlTimelineInterval iv;

      sl_timeline_get_interval (self, row, k, &iv);
      if (iv.start > t + RUN_HORIZON_NS)
        break;
      if (!ran)
        {
          if (on_cpu (iv.state))
            {
              ran = TRUE;
              *start = MAX (iv.start, t);
            }
          continue;
        }
      if (iv.state == SL_TIMELINE_STATE_BLOCKED || iv.state == SL_TIMELINE_STATE_EXITED)
        {
          *end = iv.start;
          return;
        }
    }
}

static gboolean
same_message (const SlTimelineArrow *a,
              const SlTimelineArrow *b)
{
  return a->send_host == b->send_host && a->recv_host == b->recv_host && a->send_time == b->send_time &&
         a->recv_time == b->recv_time;
}

static int
arrow_time_cmp (gconstpointer a,
                gconstpointer b)
{
  const SlTimelineArrow *x = a, *y = b;

  return x->send_time < y->send_time ? -1 : x->send_time > y->send_time;
}

/* What @row (of @host) sent in [@t0, @t1] (local): its messages, but the
 * pure acknowledgements */
static void
sent_by (const SlTimeline *self,
         guint             host,
         guint             row,
         gint64            t0,
         gint64            t1,
         gboolean          first_only,
         GArray           *out)
{
  for (guint li = 0; li < self->lanes->len; li++)
    {
      const SlTlLane *l = g_ptr_array_index (self->lanes, li);

      if (l->send_host != host)
        continue;
      for (guint64 k = _sl_tl_arrow_lower_bound (l, 0, t0); k < l->n && l->a[k].send_time <= t1; k++)
        {
          SlTimelineArrow a;
          SlTimelineMessage m;

          if (l->a[k].send_row != row)
            continue;
          _sl_tl_fill_arrow (self, l, &l->a[k], sl_timeline_to_view (self, l->send_host, l->a[k].send_time),
                             sl_timeline_to_view (self, l->recv_host, l->a[k].recv_time), &a);
          sl_timeline_get_message (self, &a, &m);
          if (m.length == 0)
            continue;
          g_array_append_val (out, a);
          if (first_only)
            break;
        }
    }
  g_array_sort (out, arrow_time_cmp);
  if (first_only && out->len > 1)
    g_array_set_size (out, 1);
}

/* The user threads @row (on @host) woke in [@t0, @t1] while it ran:
 * wake-ups on the CPU it was running on, at that time */
static void
woken_by (const SlTimeline *self,
          guint             host,
          guint             row,
          gint64            t0,
          gint64            t1,
          GArray           *rows,
          GArray           *times)
{
  const SlTlHost *h = sl_tl_host (self, host);
  SlTimelineRowInfo ri;
  guint64 n;

  if (h == NULL || h->store == NULL)
    return;
  sl_timeline_get_row_info (self, row, &ri);
  n = MIN (sl_event_store_get_n_events (h->store, SL_EVENT_STREAM_SCHED), h->consumed[SL_EVENT_STREAM_SCHED]);
  for (guint64 k = sl_event_store_lower_bound (h->store, SL_EVENT_STREAM_SCHED, t0); k < n; k++)
    {
      const SlEvent *e = sl_event_store_get (h->store, SL_EVENT_STREAM_SCHED, k);
      SlTimelineInterval iv;
      SlTimelineRowActivity act;
      guint w;

      if (e->time > t1)
        break;
      if (e->kind != SL_EVENT_SCHED_WAKEUP || e->tid == 0 || e->tid == ri.tid ||
          !interval_at (self, row, e->time, &iv) || iv.cpu != e->cpu ||
          (iv.state != SL_TIMELINE_STATE_USER && iv.state != SL_TIMELINE_STATE_SYSCALL))
        continue;
      w = sl_timeline_find_thread (self, host, e->tid, e->time);
      if (w == SL_TIMELINE_NONE)
        continue;
      sl_timeline_get_row_activity (self, w, &act);
      if (act.kernel)
        continue;
      /* once per thread (a waker-side and a woken-side event may both
       * say it) */
      for (guint i = 0; i < rows->len && w != SL_TIMELINE_NONE; i++)
        if (g_array_index (rows, guint, i) == w)
          w = SL_TIMELINE_NONE;
      if (w == SL_TIMELINE_NONE)
        continue;
      g_array_append_val (rows, w);
      g_array_append_val (times, e->time);
    }
}

static void
add_message (GArray                *steps,
             const SlTimelineArrow *a,
             SlTimelineChainKind    kind,
             guint                  parent,
             guint                  depth)
{
  SlTimelineChainStep next = { 0 };

  for (guint j = 0; j < steps->len; j++)
    if (g_array_index (steps, SlTimelineChainStep, j).kind != SL_TIMELINE_CHAIN_HANDOFF &&
        same_message (&g_array_index (steps, SlTimelineChainStep, j).message, a))
      return;
  next.kind = kind;
  next.message = *a;
  next.parent = parent;
  next.depth = depth;
  next.woken_row = SL_TIMELINE_NONE;
  g_array_append_val (steps, next);
}

/* The answer to @m: the first message back on its connection sent after
 * @m arrived (an acknowledgement of a handshake too: it wakes the thread
 * waiting to connect) */
static gboolean
reply_to (const SlTimeline      *self,
          const SlTimelineArrow *m,
          SlTimelineArrow       *out)
{
  const SlTlLane *l = _sl_tl_lane_find (self, m->recv_host, m->send_host);

  if (l == NULL || m->connection == SL_TIMELINE_NONE)
    return FALSE;
  for (guint64 k = _sl_tl_arrow_lower_bound (l, 0, m->recv_time);
       k < l->n && l->a[k].send_time <= m->recv_time + RUN_HORIZON_NS; k++)
    if (l->a[k].conn == m->connection)
      {
        _sl_tl_fill_arrow (self, l, &l->a[k], sl_timeline_to_view (self, l->send_host, l->a[k].send_time),
                           sl_timeline_to_view (self, l->recv_host, l->a[k].recv_time), out);
        return TRUE;
      }
  return FALSE;
}

GArray *
sl_timeline_follow_message (const SlTimeline      *self,
                            const SlTimelineArrow *start,
                            guint                  max_steps)
{
  GArray *steps = g_array_new (FALSE, TRUE, sizeof (SlTimelineChainStep));
  g_autoptr(GHashTable) woken = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                                       NULL);
  g_autoptr(GArray) sent = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  g_autoptr(GArray) handed = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) handed_at = g_array_new (FALSE, FALSE, sizeof (gint64));
  SlTimelineChainStep first = { 0 };
  guint origin;

  g_return_val_if_fail (self != NULL, steps);
  g_return_val_if_fail (start != NULL, steps);

  first.message = *start;
  first.message.count = 1;
  first.parent = G_MAXUINT;
  first.woken_row = SL_TIMELINE_NONE;
  g_array_append_val (steps, first);
  origin = start->send_row;

  /* breadth first: each step's thread, then what it sent */
  for (guint i = 0; i < steps->len; i++)
    {
      SlTimelineChainStep *st = &g_array_index (steps, SlTimelineChainStep, i);
      SlTimelineChainStep copy;
      gint64 key[2];
      g_autoptr(GBytes) kb = NULL;

      /* what answered a message the request sent (not the answer to the
       * first one, which comes back to where it started: that is what
       * follows the request) */
      if (st->kind == SL_TIMELINE_CHAIN_SENT && steps->len < max_steps &&
          !(st->message.recv_host == start->send_host && st->message.connection == start->connection))
        {
          SlTimelineArrow answer;
          guint depth = st->depth;

          if (reply_to (self, &st->message, &answer))
            add_message (steps, &answer, SL_TIMELINE_CHAIN_REPLY, i, depth + 1);
          st = &g_array_index (steps, SlTimelineChainStep, i);
        }
      if (st->kind != SL_TIMELINE_CHAIN_HANDOFF && !receiver_of (self, &st->message, &st->woken_row, &st->wakeup_time))
        {
          st->woken_row = SL_TIMELINE_NONE;
          continue;
        }
      run_of (self, st->woken_row, st->wakeup_time, &st->run_start, &st->run_end);
      /* a thread woken once is followed once; an answer back to the
       * request's first thread ends it */
      key[0] = st->woken_row;
      key[1] = st->wakeup_time;
      kb = g_bytes_new (key, sizeof key);
      if (g_hash_table_contains (woken, kb) || (i > 0 && st->woken_row == origin))
        continue;
      g_hash_table_add (woken, g_bytes_ref (kb));
      st->expanded = TRUE;
      copy = *st;

      g_array_set_size (sent, 0);
      sent_by (self, copy.message.recv_host, copy.woken_row, copy.wakeup_time, copy.run_end, FALSE, sent);
      for (guint k = 0; k < sent->len && steps->len < max_steps; k++)
        add_message (steps, &g_array_index (sent, SlTimelineArrow, k), SL_TIMELINE_CHAIN_SENT, i, copy.depth + 1);

      /* the threads it handed work to */
      g_array_set_size (handed, 0);
      g_array_set_size (handed_at, 0);
      woken_by (self, copy.message.recv_host, copy.woken_row, copy.run_start, copy.run_end, handed, handed_at);
      for (guint k = 0; k < handed->len && steps->len < max_steps; k++)
        {
          SlTimelineChainStep next = { 0 };

          next.kind = SL_TIMELINE_CHAIN_HANDOFF;
          next.message.send_host = next.message.recv_host = copy.message.recv_host;
          next.message.send_row = copy.woken_row;
          next.message.recv_row = g_array_index (handed, guint, k);
          next.message.connection = SL_TIMELINE_NONE;
          next.message.send_time = next.message.recv_time = g_array_index (handed_at, gint64, k);
          next.message.send_view = next.message.recv_view =
            sl_timeline_to_view (self, copy.message.recv_host, next.message.send_time);
          next.message.uncertainty_ns = 0;
          next.message.send_cpu = next.message.recv_cpu = SL_TIMELINE_NO_CPU;
          next.message.count = 1;
          next.parent = i;
          next.depth = copy.depth + 1;
          next.woken_row = g_array_index (handed, guint, k);
          next.wakeup_time = g_array_index (handed_at, gint64, k);
          g_array_append_val (steps, next);
        }
    }
  return steps;
}

GArray *
sl_timeline_follow_thread (const SlTimeline *self,
                           guint             row,
                           gint64            local,
                           guint             max_steps)
{
  g_autoptr(GArray) sent = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  SlTimelineRowInfo ri;

  g_return_val_if_fail (self != NULL, g_array_new (FALSE, TRUE, sizeof (SlTimelineChainStep)));
  g_return_val_if_fail (row < sl_timeline_get_n_rows (self), g_array_new (FALSE, TRUE, sizeof (SlTimelineChainStep)));

  sl_timeline_get_row_info (self, row, &ri);
  if (ri.kind == SL_TIMELINE_ROW_PROCESS && ri.thread_row != SL_TIMELINE_NONE)
    row = ri.thread_row;
  sent_by (self, ri.host, row, local, G_MAXINT64, TRUE, sent);
  if (sent->len == 0)
    return g_array_new (FALSE, TRUE, sizeof (SlTimelineChainStep));
  return sl_timeline_follow_message (self, &g_array_index (sent, SlTimelineArrow, 0), max_steps);
}
