/* test-timeline.c: the control-flow timeline model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-generate.h"
#include "sl-timeline.h"
#include "sl-timeline-private.h"
#include "sl-trace-reader.h"
#include "test-util.h"
#include "timeline-test-util.h"

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */

static SlTimelineRowInfo
row_info (SlTimeline *tl,
          guint       row)
{
  SlTimelineRowInfo ri;

  sl_timeline_get_row_info (tl, row, &ri);
  return ri;
}

static SlTimelineInterval
interval (SlTimeline *tl,
          guint       row,
          guint64     i)
{
  SlTimelineInterval iv;

  sl_timeline_get_interval (tl, row, i, &iv);
  return iv;
}

/* The interval of @row at @t; state NONE outside them. */
static SlTimelineInterval
interval_at (SlTimeline *tl,
             guint       row,
             gint64      t)
{
  guint64 i = sl_timeline_find_interval (tl, row, t);
  SlTimelineInterval none = { t, t, SL_TIMELINE_STATE_NONE, SL_TIMELINE_NO_CPU, 0 };

  return i == G_MAXUINT64 ? none : interval (tl, row, i);
}

static const char *
detail_name (SlTimeline               *tl,
             const SlTimelineInterval *iv)
{
  return sl_timeline_get_string (tl, iv->detail);
}

static gboolean
on_cpu (guint8 state)
{
  return state == SL_TIMELINE_STATE_USER || state == SL_TIMELINE_STATE_SYSCALL ||
         state == SL_TIMELINE_STATE_IRQ || state == SL_TIMELINE_STATE_SOFTIRQ;
}

static gint
cmp_i64_pair (gconstpointer a,
              gconstpointer b)
{
  const gint64 *x = a, *y = b;

  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Structural invariants any timeline must hold: ordered, merged intervals,
 * states that fit the row kind, a tree of rows, and at most one thread on a
 * CPU at a time, the one the CPU's row names. */
static void
check_invariants (SlTimeline *tl)
{
  guint n_rows = sl_timeline_get_n_rows (tl);
  g_autoptr(GHashTable) per_cpu = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                         (GDestroyNotify) g_array_unref);
  GHashTableIter it;
  gpointer value;

  for (guint r = 0; r < n_rows; r++)
    {
      SlTimelineRowInfo ri = row_info (tl, r);
      g_autoptr(GArray) children = sl_timeline_dup_children (tl, r);

      g_assert_cmpuint (children->len, ==, ri.n_children);
      for (guint c = 0; c < children->len; c++)
        g_assert_cmpuint (row_info (tl, g_array_index (children, guint, c)).parent, ==, r);
      if (ri.kind == SL_TIMELINE_ROW_HOST)
        g_assert_cmpuint (ri.parent, ==, SL_TIMELINE_NONE);
      else
        g_assert_cmpuint (row_info (tl, ri.parent).host, ==, ri.host);
      if (ri.kind == SL_TIMELINE_ROW_PROCESS || ri.kind == SL_TIMELINE_ROW_HOST)
        {
          g_assert_cmpuint (ri.n_intervals, ==, 0);
          if (ri.kind == SL_TIMELINE_ROW_PROCESS && ri.thread_row != SL_TIMELINE_NONE)
            {
              SlTimelineRowInfo ti = row_info (tl, ri.thread_row);

              g_assert_cmpuint (ti.parent, ==, r);
              g_assert_cmpuint (ti.tid, ==, ri.pid);
            }
          continue;
        }

      for (guint64 i = 0; i < ri.n_intervals; i++)
        {
          SlTimelineInterval iv = interval (tl, r, i);

          g_assert_cmpint (iv.end, >=, iv.start);
          g_assert_cmpuint (iv.state, >, SL_TIMELINE_STATE_NONE);
          g_assert_cmpuint (iv.state, <, SL_TIMELINE_N_STATES);
          if (i + 1 < ri.n_intervals)
            {
              SlTimelineInterval nx = interval (tl, r, i + 1);

              g_assert_cmpint (nx.start, >, iv.start);
              g_assert_cmpint (iv.end, ==, nx.start);
              g_assert_false (nx.state == iv.state && nx.cpu == iv.cpu && nx.detail == iv.detail);
            }

          if (ri.kind == SL_TIMELINE_ROW_CPU)
            {
              g_assert_true (on_cpu (iv.state) || iv.state == SL_TIMELINE_STATE_IDLE ||
                             iv.state == SL_TIMELINE_STATE_UNKNOWN);
              continue;
            }

          g_assert_cmpuint (iv.state, !=, SL_TIMELINE_STATE_IDLE);
          if (on_cpu (iv.state))
            g_assert_cmpuint (iv.cpu, !=, SL_TIMELINE_NO_CPU);
          else if (iv.state != SL_TIMELINE_STATE_EXITED)
            g_assert_cmpuint (iv.cpu, ==, SL_TIMELINE_NO_CPU);
          if (iv.state == SL_TIMELINE_STATE_SYSCALL)
            g_assert_cmpstr (detail_name (tl, &iv), !=, "");
          if (iv.cpu != SL_TIMELINE_NO_CPU && iv.end > iv.start)
            {
              gint64 key = (gint64) ri.host << 16 | iv.cpu;
              gint64 span[3] = { iv.start, iv.end, r };
              GArray *a = g_hash_table_lookup (per_cpu, &key);

              if (a == NULL)
                {
                  a = g_array_new (FALSE, FALSE, 3 * sizeof (gint64));
                  g_hash_table_insert (per_cpu, g_memdup2 (&key, sizeof key), a);
                }
              g_array_append_vals (a, span, 1);
            }
        }
    }

  g_hash_table_iter_init (&it, per_cpu);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      GArray *a = value;
      gint64 last_end = G_MININT64;

      g_array_sort (a, cmp_i64_pair);
      for (guint i = 0; i < a->len; i++)
        {
          const gint64 *span = &g_array_index (a, gint64, 3 * i);
          guint row = (guint) span[2];
          SlTimelineInterval iv = interval_at (tl, row, span[0]);
          SlTimelineRowInfo ri = row_info (tl, row);
          guint cpu_row = sl_timeline_find_cpu (tl, ri.host, iv.cpu);
          SlTimelineInterval ci;

          if (span[0] < last_end)
            g_error ("host %u CPU %u: thread row %u on it from %" G_GINT64_FORMAT
                     " while another one is until %" G_GINT64_FORMAT, ri.host, iv.cpu, row, span[0], last_end);
          last_end = span[1];

          g_assert_cmpuint (cpu_row, !=, SL_TIMELINE_NONE);
          ci = interval_at (tl, cpu_row, span[0]);
          if (iv.state == SL_TIMELINE_STATE_USER || iv.state == SL_TIMELINE_STATE_SYSCALL)
            {
              g_assert_cmpuint (ci.state, ==, iv.state);
              g_assert_cmpuint (ci.detail, ==, ri.tid);
            }
          else if (iv.state == SL_TIMELINE_STATE_IRQ || iv.state == SL_TIMELINE_STATE_SOFTIRQ)
            {
              g_assert_cmpuint (ci.state, ==, iv.state);
              g_assert_cmpuint (ci.detail, ==, iv.detail);
            }
        }
    }
}

/* Pixel k of a span covers [t0 + floor((t1 - t0) k / n), the next). */
static gint64
pixel_bound (gint64 t0,
             gint64 t1,
             guint  n,
             guint  k)
{
  return t0 + (gint64) (((__int128) (t1 - t0) * k) / n);
}

/* The per-pixel query against a direct scan of the row's intervals. */
static void
check_query_row (SlTimeline *tl,
                 guint       row,
                 gint64      t0,
                 gint64      t1,
                 guint       n_px)
{
  g_autofree SlTimelinePixel *px = g_new (SlTimelinePixel, n_px);
  guint64 n = sl_timeline_get_n_intervals (tl, row);
  guint64 j = 0;

  sl_timeline_query_row (tl, row, t0, t1, n_px, px);
  for (guint k = 0; k < n_px; k++)
    {
      gint64 a = pixel_bound (t0, t1, n_px, k), b = pixel_bound (t0, t1, n_px, k + 1);
      gint64 ns[SL_TIMELINE_N_STATES] = { 0 }, got[SL_TIMELINE_N_STATES], sum = 0, best = -1;
      guint n_states = 0, state = SL_TIMELINE_STATE_NONE, changes = 0;
      guint64 first_in = G_MAXUINT64;

      while (j < n && interval (tl, row, j).end <= a && j + 1 < n)
        j++;
      for (guint64 i = j; i < n; i++)
        {
          SlTimelineInterval iv = interval (tl, row, i);
          gint64 lo = MAX (iv.start, a), hi = MIN (iv.end, b);

          if (iv.start > b)
            break;
          if (iv.start > a)
            changes++;
          if (hi > lo)
            {
              ns[iv.state] += hi - lo;
              if (first_in == G_MAXUINT64)
                first_in = i;
            }
          else if (iv.start <= a && a < iv.end && first_in == G_MAXUINT64)
            first_in = i;
        }
      for (guint s = 1; s < SL_TIMELINE_N_STATES; s++)
        sum += ns[s];
      ns[SL_TIMELINE_STATE_NONE] = (b - a) - sum;

      if (b > a)
        for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
          {
            if (ns[s] > 0)
              n_states++;
            if (ns[s] > best)
              best = ns[s], state = s;
          }

      if (b > a)
        {
          g_assert_cmpuint (px[k].state, ==, state);
          g_assert_cmpuint (px[k].n_states, ==, n_states);
          for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
            if (fabsf (px[k].fraction[s] - (float) ((double) ns[s] / (double) (b - a))) > 1e-6f)
              g_error ("row %u pixel %u of %u [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "): state %u: %g, scan %g",
                       row, k, n_px, a, b, s, px[k].fraction[s], (double) ns[s] / (double) (b - a));
        }
      g_assert_cmpuint (px[k].n_changes, ==, changes);

      /* the cpu and detail come from the first interval of the dominant
       * state among the pixel's first nine */
      if (b > a)
        {
          guint16 cpu = SL_TIMELINE_NO_CPU;
          guint32 detail = 0;

          for (guint64 i = first_in; state != SL_TIMELINE_STATE_NONE && i < n && i <= first_in + 8; i++)
            {
              SlTimelineInterval iv = interval (tl, row, i);

              if (iv.start >= b && i != first_in)
                break;
              if (iv.state == state)
                {
                  cpu = iv.cpu;
                  detail = iv.detail;
                  break;
                }
            }
          g_assert_cmpuint (px[k].cpu, ==, cpu);
          g_assert_cmpuint (px[k].detail, ==, detail);
        }

      if (k % 97 == 0 && b > a)
        {
          sl_timeline_get_state_time (tl, row, a, b, got);
          for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
            g_assert_cmpint (got[s], ==, ns[s]);
        }
    }
}

static void
check_queries (SlTimeline *tl,
               GRand      *rand,
               guint       rows_to_check,
               guint       spans_per_row)
{
  guint n_rows = sl_timeline_get_n_rows (tl), checked = 0;

  for (guint tries = 0; tries < 50 * rows_to_check && checked < rows_to_check; tries++)
    {
      guint row = g_rand_int_range (rand, 0, (gint32) n_rows);
      SlTimelineRowInfo ri = row_info (tl, row);
      gint64 lo, hi, span;

      if (ri.n_intervals < 3 || (ri.kind != SL_TIMELINE_ROW_THREAD && ri.kind != SL_TIMELINE_ROW_CPU))
        continue;
      lo = interval (tl, row, 0).start;
      hi = interval (tl, row, ri.n_intervals - 1).end;
      span = MAX (hi - lo, 1);
      checked++;

      /* the whole row at common widths, then random spans down to a few ns */
      check_query_row (tl, row, lo - span / 10, hi + span / 10, 1600);
      check_query_row (tl, row, lo, hi, 1);
      for (guint s = 0; s < spans_per_row; s++)
        {
          double zoom = pow (10, -g_rand_double_range (rand, 0, 7));
          gint64 w = MAX ((gint64) (span * zoom), 1);
          gint64 a = lo - span / 20 + (gint64) (g_rand_double (rand) * (double) (span + span / 10));
          guint n_px = s % 3 == 0 ? 1600 : (guint) g_rand_int_range (rand, 1, 3000);

          check_query_row (tl, row, a, a + w, n_px);
        }
    }
  g_assert_cmpuint (checked, >, 0);
}

static guint
find_row (SlTimeline        *tl,
          guint              host,
          SlTimelineRowKind  kind,
          const char        *name,
          guint              nth)
{
  for (guint r = 0; r < sl_timeline_get_n_rows (tl); r++)
    {
      SlTimelineRowInfo ri = row_info (tl, r);

      if (ri.host == host && ri.kind == kind && g_strcmp0 (ri.name, name) == 0 && nth-- == 0)
        return r;
    }
  return SL_TIMELINE_NONE;
}

/* ---------------------------------------------------------------------- */
/* Hand-made event streams with known states                               */

typedef struct
{
  gint64  start;
  guint8  state;
  guint16 cpu;
  const char *detail;
  guint32 number;
} Expect;

static void
expect_row (SlTimeline   *tl,
            guint         row,
            const Expect *want,
            guint         n)
{
  g_assert_cmpuint (row, !=, SL_TIMELINE_NONE);
  if (sl_timeline_get_n_intervals (tl, row) != n)
    {
      for (guint64 i = 0; i < sl_timeline_get_n_intervals (tl, row); i++)
        {
          SlTimelineInterval iv = interval (tl, row, i);
          g_printerr ("  %" G_GINT64_FORMAT " %s cpu %u detail %u\n", iv.start,
                      sl_timeline_state_to_string (iv.state), iv.cpu, iv.detail);
        }
      g_error ("row %u (%s): %" G_GUINT64_FORMAT " intervals, expected %u", row, row_info (tl, row).name,
               sl_timeline_get_n_intervals (tl, row), n);
    }
  for (guint i = 0; i < n; i++)
    {
      SlTimelineInterval iv = interval (tl, row, i);

      g_assert_cmpint (iv.start, ==, want[i].start);
      g_assert_cmpstr (sl_timeline_state_to_string (iv.state), ==, sl_timeline_state_to_string (want[i].state));
      g_assert_cmpuint (iv.cpu, ==, want[i].cpu);
      if (want[i].detail != NULL)
        g_assert_cmpstr (detail_name (tl, &iv), ==, want[i].detail);
      else
        g_assert_cmpuint (iv.detail, ==, want[i].number);
    }
}

static void
put (SlEventStore *store,
     gint64        time,
     SlEventKind   kind,
     guint16       cpu,
     guint32       tid,
     guint32       arg,
     const char   *str,
     guint8        flags)
{
  SlEvent e = { 0 };

  e.time = time;
  e.kind = (guint8) kind;
  e.cpu = cpu;
  e.tid = tid;
  e.arg = arg;
  e.str = sl_event_store_intern (store, str);
  e.flags = flags;
  sl_event_store_append (store, &e);
}

#define NO SL_TIMELINE_NO_CPU

/* A host drawn through a piecewise map (three pieces, the middle one
 * steeper, then a clock that ran back 50 ns): times and states land where
 * the map puts them, a move of its representative piece moves the whole
 * map, and the raw view is still local time. */
static void
test_piecewise_view (void)
{
  SlEventStore *k = sl_event_store_new ();
  g_autoptr(SlTimeline) tl = sl_timeline_new ();
  g_autoptr(SlRelation) rel = NULL;
  gint64 starts[3] = { G_MININT64, 2000, 3000 };
  SlTransform maps[3], shift, moved;
  SlBoundPoint b[2] = { { 0, 10 }, { 10000, 10 } };
  SlTimelinePixel px[10];
  guint server;

  put (k, 100, SL_EVENT_PROCESS_NAME, 0, 10, 10, "server", 0);
  put (k, 1000, SL_EVENT_SCHED_SWITCH, 0, 0, 10, "server", 0);
  put (k, 2500, SL_EVENT_SYSCALL_ENTRY, 0, 10, 0, "read", 0);
  put (k, 3500, SL_EVENT_SYSCALL_EXIT, 0, 10, 5, NULL, 0);
  put (k, 4000, SL_EVENT_SCHED_SWITCH, 0, 10, 0, "swapper/0", 1);
  sl_timeline_set_host (tl, 0, "h", k);
  g_assert_true (sl_timeline_update (tl));
  server = find_row (tl, 0, SL_TIMELINE_ROW_THREAD, "server", 0);

  /* t + 100 until 2000, slope 2 until 3000, then t + 1050 (a step back of
   * 50 ns at 3000) */
  sl_transform_init (&maps[0], 0, 100, 0.0, 0.0);
  sl_transform_init (&maps[1], 2000, 2100, 0.0, 1.0);
  sl_transform_init (&maps[2], 3000, 4050, 0.0, 0.0);
  rel = sl_relation_new (starts, maps, 3, b, 2, TRUE);
  sl_timeline_set_host_relation (tl, 0, rel, &maps[0]);
  sl_timeline_set_host_transform (tl, 0, &maps[0], 10);

  for (gint64 x = 0; x < 5000; x += 37)
    {
      gint64 v = sl_timeline_to_view (tl, 0, x);

      g_assert_cmpint (v, ==, sl_relation_apply (rel, x));
      /* a view time maps back to the instant (but where the clock ran
       * back, whose view times come twice) */
      if (x < 2950 || x >= 3050)
        g_assert_cmpint (llabs (sl_timeline_from_view (tl, 0, v) - x), <=, 1);
    }

  /* the system call [2500, 3500) is drawn at [3100, 4550) */
  sl_timeline_query_row_view (tl, server, 3000, 5000, 10, px);
  g_assert_cmpuint (px[0].state, ==, SL_TIMELINE_STATE_USER);
  g_assert_cmpuint (px[2].state, ==, SL_TIMELINE_STATE_SYSCALL);
  g_assert_cmpuint (px[7].state, ==, SL_TIMELINE_STATE_SYSCALL);
  g_assert_cmpuint (px[8].state, ==, SL_TIMELINE_STATE_USER);

  /* a move of the representative (an animation frame) moves it all */
  sl_transform_init (&shift, 0, 1000, 0.0, 0.0);
  sl_transform_compose (&shift, &maps[0], &moved);
  sl_timeline_set_host_transform (tl, 0, &moved, 10);
  g_assert_cmpint (sl_timeline_to_view (tl, 0, 2500), ==, sl_relation_apply (rel, 2500) + 1000);
  g_assert_cmpint (sl_timeline_from_view (tl, 0, sl_relation_apply (rel, 2500) + 1000), ==, 2500);

  /* raw */
  sl_timeline_set_host_transform (tl, 0, NULL, NAN);
  g_assert_cmpint (sl_timeline_to_view (tl, 0, 2500), ==, 2500);
  sl_timeline_free (g_steal_pointer (&tl));
  sl_event_store_free (k);
}

static void
test_states (void)
{
  SlEventStore *k = sl_event_store_new (), *u = sl_event_store_new ();
  g_autoptr(SlTimeline) tl = sl_timeline_new ();
  g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  g_autoptr(GArray) events = NULL, found = NULL;
  SlPacketEvent pe = { 0 };
  SlMatch m = { 0, 1, 1150, 5000 };
  SlTransform shift;
  SlTimelineConnection conn;
  guint server, server2, worker, worker2, client, cpu0, cpu1, p, connection;
  SlTimelinePixel px[4];

  /* host 0: a kernel trace with lttng 2.4-style system calls (entry
   * named, exit not) and modern ones (both named) */
  put (k, 100, SL_EVENT_PROCESS_NAME, 0, 10, 10, "server", 0);
  put (k, 110, SL_EVENT_PROCESS_NAME, 0, 11, 10, "server", 0);
  put (k, 120, SL_EVENT_PROCESS_NAME, 0, 20, 20, "client", 0);
  /* a thread seen running through its system calls before any switch */
  put (k, 130, SL_EVENT_SYSCALL_ENTRY, 1, 20, 0, "poll", 0);
  put (k, 140, SL_EVENT_SYSCALL_EXIT, 1, 20, 1, "poll", 0);
  put (k, 150, SL_EVENT_SCHED_SWITCH, 1, 20, 0, "swapper/1", 1);
  put (k, 1000, SL_EVENT_SCHED_SWITCH, 0, 0, 10, "server", 0);
  put (k, 1100, SL_EVENT_SYSCALL_ENTRY, 0, 10, 0, "read", 0);
  put (k, 1150, SL_EVENT_PACKET_SEND, 0, 10, 1, NULL, 0);
  put (k, 1200, SL_EVENT_IRQ_ENTRY, 0, 0, 42, "eth0", 0);
  put (k, 1300, SL_EVENT_IRQ_EXIT, 0, 0, 42, NULL, 0);
  put (k, 1400, SL_EVENT_SYSCALL_EXIT, 0, 10, 5, NULL, 0);
  put (k, 1500, SL_EVENT_SYSCALL_ENTRY, 0, 10, 0, "futex", 0);
  put (k, 1600, SL_EVENT_SCHED_SWITCH, 0, 10, 11, "server", 1);
  put (k, 1700, SL_EVENT_SCHED_WAKEUP, 0, 10, 0, NULL, 0);
  put (k, 1800, SL_EVENT_SOFTIRQ_ENTRY, 0, 0, 3, NULL, 0);
  put (k, 1900, SL_EVENT_SOFTIRQ_EXIT, 0, 0, 3, NULL, 0);
  put (k, 2000, SL_EVENT_SCHED_SWITCH, 0, 11, 10, "server", 0);
  put (k, 2100, SL_EVENT_SYSCALL_EXIT, 0, 10, 0, "futex", 0);
  put (k, 2200, SL_EVENT_PROCESS_FORK, 0, 10, 30, "server", 0);
  put (k, 2300, SL_EVENT_SCHED_SWITCH, 0, 10, 30, "server", 0);
  put (k, 2400, SL_EVENT_PROCESS_EXEC, 0, 30, 0, "/usr/bin/worker", 0);
  put (k, 2500, SL_EVENT_PROCESS_EXIT, 0, 30, 0, NULL, 0);
  put (k, 2600, SL_EVENT_SCHED_SWITCH, 0, 30, 0, "swapper/0", 128);
  put (k, 2700, SL_EVENT_PROCESS_FORK, 0, 10, 30, "again", 0);
  put (k, 3000, SL_EVENT_SCHED_SWITCH, 1, 0, 30, "again", 0);
  put (k, 3100, SL_EVENT_SYSCALL_ENTRY, 1, 30, 0, "nanosleep", 0);
  put (k, 3200, SL_EVENT_SCHED_SWITCH, 1, 30, 0, "swapper/1", 2);
  put (k, 4000, SL_EVENT_SCHED_WAKEUP, 0, 11, 0, NULL, 0);

  sl_timeline_set_host (tl, 0, "kernel-host", k);
  sl_timeline_set_host (tl, 1, "ust-host", u);

  /* an arrow whose receive end is not in its host's store yet waits */
  pe.family = 4;
  pe.sport = 40000;
  pe.dport = 5432;
  pe.saddr[0] = 10, pe.saddr[3] = 1;
  pe.daddr[0] = 10, pe.daddr[3] = 2;
  sl_timeline_add_match (tl, &m, &pe);
  g_assert_true (sl_timeline_update (tl));
  g_assert_cmpuint (sl_timeline_get_n_arrows (tl), ==, 0);

  server = sl_timeline_find_thread (tl, 0, 10, 1000);
  {
    static const Expect want[] = {
      { 100, SL_TIMELINE_STATE_UNKNOWN, NO, NULL, 0 },
      { 1000, SL_TIMELINE_STATE_USER, 0, NULL, 0 },
      { 1100, SL_TIMELINE_STATE_SYSCALL, 0, "read", 0 },
      { 1200, SL_TIMELINE_STATE_IRQ, 0, NULL, 42 },
      { 1300, SL_TIMELINE_STATE_SYSCALL, 0, "read", 0 },
      { 1400, SL_TIMELINE_STATE_USER, 0, NULL, 0 },
      { 1500, SL_TIMELINE_STATE_SYSCALL, 0, "futex", 0 },
      { 1600, SL_TIMELINE_STATE_BLOCKED, NO, "futex", 0 },
      { 1700, SL_TIMELINE_STATE_RUNNABLE, NO, NULL, 0 },
      { 2000, SL_TIMELINE_STATE_SYSCALL, 0, "futex", 0 },
      { 2100, SL_TIMELINE_STATE_USER, 0, NULL, 0 },
      { 2300, SL_TIMELINE_STATE_RUNNABLE, NO, NULL, 0 },
    };
    expect_row (tl, server, want, G_N_ELEMENTS (want));
  }
  server2 = sl_timeline_find_thread (tl, 0, 11, 1000);
  {
    static const Expect want[] = {
      { 110, SL_TIMELINE_STATE_UNKNOWN, NO, NULL, 0 },
      { 1600, SL_TIMELINE_STATE_USER, 0, NULL, 0 },
      { 1800, SL_TIMELINE_STATE_SOFTIRQ, 0, NULL, 3 },
      { 1900, SL_TIMELINE_STATE_USER, 0, NULL, 0 },
      { 2000, SL_TIMELINE_STATE_RUNNABLE, NO, NULL, 0 },
    };
    expect_row (tl, server2, want, G_N_ELEMENTS (want));
  }
  worker = sl_timeline_find_thread (tl, 0, 30, 2400);
  {
    static const Expect want[] = {
      { 2200, SL_TIMELINE_STATE_RUNNABLE, NO, NULL, 0 },
      { 2300, SL_TIMELINE_STATE_USER, 0, NULL, 0 },
      { 2500, SL_TIMELINE_STATE_EXITED, 0, NULL, 0 },
      { 2600, SL_TIMELINE_STATE_EXITED, NO, NULL, 0 },
    };
    expect_row (tl, worker, want, G_N_ELEMENTS (want));
  }
  worker2 = sl_timeline_find_thread (tl, 0, 30, 3500);
  g_assert_cmpuint (worker2, !=, worker);
  {
    static const Expect want[] = {
      { 2700, SL_TIMELINE_STATE_RUNNABLE, NO, NULL, 0 },
      { 3000, SL_TIMELINE_STATE_USER, 1, NULL, 0 },
      { 3100, SL_TIMELINE_STATE_SYSCALL, 1, "nanosleep", 0 },
      { 3200, SL_TIMELINE_STATE_BLOCKED, NO, "nanosleep", 0 },
    };
    expect_row (tl, worker2, want, G_N_ELEMENTS (want));
  }
  cpu0 = sl_timeline_find_cpu (tl, 0, 0);
  {
    static const Expect want[] = {
      { 100, SL_TIMELINE_STATE_UNKNOWN, 0, NULL, 0 },
      { 1000, SL_TIMELINE_STATE_USER, 0, NULL, 10 },
      { 1100, SL_TIMELINE_STATE_SYSCALL, 0, NULL, 10 },
      { 1200, SL_TIMELINE_STATE_IRQ, 0, NULL, 42 },
      { 1300, SL_TIMELINE_STATE_SYSCALL, 0, NULL, 10 },
      { 1400, SL_TIMELINE_STATE_USER, 0, NULL, 10 },
      { 1500, SL_TIMELINE_STATE_SYSCALL, 0, NULL, 10 },
      { 1600, SL_TIMELINE_STATE_USER, 0, NULL, 11 },
      { 1800, SL_TIMELINE_STATE_SOFTIRQ, 0, NULL, 3 },
      { 1900, SL_TIMELINE_STATE_USER, 0, NULL, 11 },
      { 2000, SL_TIMELINE_STATE_SYSCALL, 0, NULL, 10 },
      { 2100, SL_TIMELINE_STATE_USER, 0, NULL, 10 },
      { 2300, SL_TIMELINE_STATE_USER, 0, NULL, 30 },
      { 2600, SL_TIMELINE_STATE_IDLE, 0, NULL, 0 },
    };
    expect_row (tl, cpu0, want, G_N_ELEMENTS (want));
  }
  cpu1 = sl_timeline_find_cpu (tl, 0, 1);
  {
    static const Expect want[] = {
      { 130, SL_TIMELINE_STATE_SYSCALL, 1, NULL, 20 },
      { 140, SL_TIMELINE_STATE_USER, 1, NULL, 20 },
      { 150, SL_TIMELINE_STATE_IDLE, 1, NULL, 0 },
      { 3000, SL_TIMELINE_STATE_USER, 1, NULL, 30 },
      { 3100, SL_TIMELINE_STATE_SYSCALL, 1, NULL, 30 },
      { 3200, SL_TIMELINE_STATE_IDLE, 1, NULL, 0 },
    };
    expect_row (tl, cpu1, want, G_N_ELEMENTS (want));
  }

  /* the row tree: processes from the state dump and forks, names from
   * exec, a reused tid is a new row */
  p = row_info (tl, server).parent;
  g_assert_cmpuint (row_info (tl, p).kind, ==, SL_TIMELINE_ROW_PROCESS);
  g_assert_cmpstr (row_info (tl, p).name, ==, "server");
  g_assert_cmpuint (row_info (tl, p).thread_row, ==, server);
  g_assert_cmpuint (row_info (tl, server2).parent, ==, p);
  g_assert_cmpuint (row_info (tl, server2).pid, ==, 10);
  g_assert_cmpuint (row_info (tl, p).n_children, ==, 2);
  g_assert_cmpstr (row_info (tl, worker).name, ==, "worker");
  g_assert_cmpstr (row_info (tl, row_info (tl, worker).parent).name, ==, "worker");
  g_assert_cmpuint (row_info (tl, row_info (tl, worker).parent).ppid, ==, 10);
  g_assert_cmpint (row_info (tl, worker).last, ==, 2500);
  g_assert_cmpstr (row_info (tl, worker2).name, ==, "again");
  g_assert_cmpuint (row_info (tl, worker2).parent, !=, row_info (tl, worker).parent);
  client = find_row (tl, 0, SL_TIMELINE_ROW_THREAD, "client", 0);
  {
    static const Expect want[] = {
      { 120, SL_TIMELINE_STATE_UNKNOWN, NO, NULL, 0 },
      { 130, SL_TIMELINE_STATE_SYSCALL, 1, "poll", 0 },
      { 140, SL_TIMELINE_STATE_USER, 1, NULL, 0 },
      { 150, SL_TIMELINE_STATE_BLOCKED, NO, NULL, 0 },
    };
    expect_row (tl, client, want, G_N_ELEMENTS (want));
  }
  g_assert_cmpint (row_info (tl, client).last, ==, 4000);
  found = sl_timeline_find_rows (tl, "SERV");
  g_assert_cmpuint (found->len, ==, 3);
  g_clear_pointer (&found, g_array_unref);
  found = sl_timeline_find_rows (tl, "30");
  g_assert_cmpuint (found->len, ==, 4);

  /* queries: a pixel per state, a mixed one, nothing outside */
  sl_timeline_query_row (tl, server, 1100, 1500, 4, px);
  g_assert_cmpuint (px[0].state, ==, SL_TIMELINE_STATE_SYSCALL);
  g_assert_cmpstr (sl_timeline_get_string (tl, px[0].detail), ==, "read");
  g_assert_cmpuint (px[0].n_states, ==, 1);
  g_assert_cmpuint (px[1].state, ==, SL_TIMELINE_STATE_IRQ);
  g_assert_cmpuint (px[3].state, ==, SL_TIMELINE_STATE_USER);
  sl_timeline_query_row (tl, server, 1000, 2000, 1, px);
  g_assert_cmpuint (px[0].n_states, ==, 5);
  g_assert_cmpuint (px[0].n_changes, ==, 8);
  g_assert_cmpuint (px[0].state, ==, SL_TIMELINE_STATE_SYSCALL);
  g_assert_cmpfloat_with_epsilon (px[0].fraction[SL_TIMELINE_STATE_SYSCALL], 0.3, 1e-6);
  g_assert_cmpfloat_with_epsilon (px[0].fraction[SL_TIMELINE_STATE_RUNNABLE], 0.3, 1e-6);
  sl_timeline_query_row (tl, server, 0, 100, 2, px);
  g_assert_cmpuint (px[0].state, ==, SL_TIMELINE_STATE_NONE);
  sl_timeline_query_row (tl, server, 3900, 4100, 2, px);
  g_assert_cmpuint (px[0].state, ==, SL_TIMELINE_STATE_RUNNABLE);
  g_assert_cmpuint (px[1].state, ==, SL_TIMELINE_STATE_NONE);
  check_invariants (tl);

  /* the process row shows its main thread */
  sl_timeline_query_row (tl, p, 1100, 1500, 4, px);
  g_assert_cmpuint (px[1].state, ==, SL_TIMELINE_STATE_IRQ);

  /* a user-space-only host: its threads come from its events, states
   * unknown; the arrow waiting for it is resolved */
  put (u, 4900, SL_EVENT_PACKET_SEND, 3, 501, 7, NULL, 0);
  put (u, 5000, SL_EVENT_PACKET_RECV, 2, 500, 1, NULL, 0);
  g_assert_true (sl_timeline_update (tl));
  g_assert_cmpuint (sl_timeline_get_n_arrows (tl), ==, 1);
  {
    guint t500 = sl_timeline_find_thread (tl, 1, 500, 5000);
    SlTimelineArrow *a;

    g_assert_cmpuint (t500, !=, SL_TIMELINE_NONE);
    g_assert_cmpuint (row_info (tl, t500).parent, ==, sl_timeline_get_host_row (tl, 1));
    g_assert_cmpuint (interval (tl, t500, 0).state, ==, SL_TIMELINE_STATE_UNKNOWN);
    events = sl_timeline_dup_row_events (tl, t500, 0, 10000, 0);
    g_assert_cmpuint (events->len, ==, 1);
    g_assert_cmpint (g_array_index (events, SlEvent, 0).time, ==, 5000);

    sl_timeline_set_link_bound (tl, 0, 1, 250);
    sl_transform_init (&shift, 0, -3000, 0, 0);
    sl_timeline_set_host_transform (tl, 1, &shift, 100);
    g_assert_cmpuint (sl_timeline_query_arrows (tl, 1000, 1200, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                                                SL_TIMELINE_NONE, arrows), ==, 1);
    a = &g_array_index (arrows, SlTimelineArrow, 0);
    g_assert_cmpuint (a->send_row, ==, server);
    g_assert_cmpuint (a->recv_row, ==, t500);
    g_assert_cmpuint (a->send_cpu, ==, 0);
    g_assert_cmpuint (a->recv_cpu, ==, 2);
    g_assert_cmpint (a->send_view, ==, 1150);
    g_assert_cmpint (a->recv_view, ==, 2000);
    g_assert_cmpfloat (a->uncertainty_ns, ==, 250);
    sl_timeline_get_connection (tl, a->connection, &conn);
    g_assert_cmpuint (conn.port_a, ==, 40000);
    g_assert_cmpuint (conn.port_b, ==, 5432);
    g_assert_cmpuint (conn.n_arrows, ==, 1);
    connection = a->connection;
    g_array_set_size (arrows, 0);
    /* crossing the span, at its end, outside it, filtered out */
    g_assert_cmpuint (sl_timeline_query_arrows (tl, 1300, 1900, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                                                SL_TIMELINE_NONE, arrows), ==, 1);
    g_assert_cmpuint (sl_timeline_query_arrows (tl, 1900, 2100, 16, 1, 0, SL_TIMELINE_NONE, arrows), ==, 1);
    g_assert_cmpuint (sl_timeline_query_arrows (tl, 2500, 3000, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                                                SL_TIMELINE_NONE, arrows), ==, 0);
    g_assert_cmpuint (sl_timeline_query_arrows (tl, 1000, 3000, 0, 0, 2, SL_TIMELINE_NONE, arrows), ==, 0);
    g_assert_cmpuint (sl_timeline_query_arrows (tl, 1000, 3000, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                                                connection + 1, arrows), ==, 0);
    /* raw clocks: the receive end at its local time */
    sl_timeline_clear_transforms (tl);
    g_assert_cmpuint (sl_timeline_query_arrows (tl, 4999, 5001, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                                                SL_TIMELINE_NONE, arrows), ==, 1);
    g_assert_cmpint (g_array_index (arrows, SlTimelineArrow, arrows->len - 1).recv_view, ==, 5000);
  }

  /* events of a selection: the server thread's, in time order */
  g_clear_pointer (&events, g_array_unref);
  events = sl_timeline_dup_row_events (tl, server, 1000, 1700, 0);
  g_assert_cmpuint (events->len, ==, 6);
  g_assert_cmpuint (g_array_index (events, SlEvent, 0).kind, ==, SL_EVENT_SCHED_SWITCH);
  g_assert_cmpuint (g_array_index (events, SlEvent, 2).kind, ==, SL_EVENT_PACKET_SEND);
  g_clear_pointer (&events, g_array_unref);
  events = sl_timeline_dup_row_events (tl, cpu0, 1000, 1400, 2);
  g_assert_cmpuint (events->len, ==, 2);

  sl_timeline_free (g_steal_pointer (&tl));
  sl_event_store_free (k);
  sl_event_store_free (u);
}

/* ---------------------------------------------------------------------- */
/* Generated traces against the generator's ground truth                   */


static gboolean
same_packet (const SlPacketEvent *a,
             const SlPacketEvent *b)
{
  return a->family == b->family && a->sport == b->sport && a->dport == b->dport && a->seq == b->seq &&
         a->ack_seq == b->ack_seq && a->flags == b->flags && memcmp (a->saddr, b->saddr, 16) == 0 &&
         memcmp (a->daddr, b->daddr, 16) == 0;
}

static gboolean
is_in (const char        *name,
       const char *const *list)
{
  return name != NULL && g_strv_contains (list, name);
}

/* After a data segment is sent, the application thread goes on in its
 * sendto, returns to user space, then waits in recvfrom (client) or
 * epoll_wait (server): blocked, made runnable by the reply, then back in
 * that system call on its CPU. */
static void
check_send_chain (SlTimeline *tl,
                  guint       row,
                  gint64      t,
                  guint16     cpu)
{
  guint64 n = sl_timeline_get_n_intervals (tl, row), i = sl_timeline_find_interval (tl, row, t);
  const char *wait = NULL;
  guint stage = 0;

  g_assert_cmpuint (i, !=, G_MAXUINT64);
  for (; i < n && stage < 4; i++)
    {
      SlTimelineInterval iv = interval (tl, row, i);
      const char *d = detail_name (tl, &iv);

      if (iv.state == SL_TIMELINE_STATE_IRQ || iv.state == SL_TIMELINE_STATE_SOFTIRQ)
        {
          g_assert_cmpuint (iv.cpu, ==, cpu);
          continue;
        }
      switch (stage)
        {
        case 0:
          g_assert_cmpuint (iv.cpu, ==, cpu);
          if (iv.state == SL_TIMELINE_STATE_USER)
            continue;
          g_assert_cmpuint (iv.state, ==, SL_TIMELINE_STATE_SYSCALL);
          if (g_str_equal (d, "sendto"))
            continue;
          g_assert_true (g_str_equal (d, "recvfrom") || g_str_equal (d, "epoll_wait"));
          wait = d;
          stage = 1;
          break;
        case 1:
          g_assert_cmpuint (iv.state, ==, SL_TIMELINE_STATE_BLOCKED);
          g_assert_cmpstr (d, ==, wait);
          stage = 2;
          break;
        case 2:
          g_assert_cmpuint (iv.state, ==, SL_TIMELINE_STATE_RUNNABLE);
          stage = 3;
          break;
        default:
          g_assert_cmpuint (iv.state, ==, SL_TIMELINE_STATE_SYSCALL);
          g_assert_cmpstr (d, ==, wait);
          g_assert_cmpuint (iv.cpu, ==, cpu);
          stage = 4;
          break;
        }
    }
  /* only the end of the trace may cut the chain short */
  g_assert_true (stage == 4 || i == n);
}

/* Every task of the ground truth is a thread row of its process (threads
 * started during the trace too), named as it ends, with its process's
 * parent, and in the state its state dump record gives until an event says
 * more. */
static void
check_truth_threads (SlTimeline *tl,
                     guint       host,
                     JsonArray  *threads,
                     guint      *n_dumped,
                     guint      *n_spawned)
{
  g_autoptr(GHashTable) per_process = g_hash_table_new (NULL, NULL);
  GHashTableIter it;
  gpointer key, value;
  guint n_dump = 0, dumped = 0;

  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *to = json_array_get_object_element (threads, i);
      guint32 tid = (guint32) json_object_get_int_member (to, "tid");
      guint32 pid = (guint32) json_object_get_int_member (to, "pid");
      guint32 ppid = (guint32) json_object_get_int_member (to, "ppid");
      gint64 born = json_object_get_int_member (to, "born_ns");
      const char *origin = json_object_get_string_member (to, "origin");
      guint row = sl_timeline_find_thread (tl, host, tid, born);
      SlTimelineRowInfo ri, pi;
      SlTimelineInterval first;

      if (row == SL_TIMELINE_NONE)
        g_error ("host %u: no row for thread %u (%s)", host, tid, json_object_get_string_member (to, "name"));
      ri = row_info (tl, row);
      pi = row_info (tl, ri.parent);
      g_assert_cmpuint (ri.tid, ==, tid);
      g_assert_cmpuint (ri.pid, ==, pid);
      g_assert_cmpstr (ri.name, ==, json_object_get_string_member (to, "name"));
      g_assert_cmpuint (pi.kind, ==, SL_TIMELINE_ROW_PROCESS);
      g_assert_cmpuint (pi.pid, ==, pid);
      if (pi.ppid != ppid)
        g_error ("host %u: thread %u of %u: process ppid %u, truth %u (%s)", host, tid, pid, pi.ppid, ppid, origin);
      g_assert_cmpuint (ri.ppid, ==, ppid);
      g_hash_table_insert (per_process, GUINT_TO_POINTER (ri.parent),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (per_process,
                                                                                    GUINT_TO_POINTER (ri.parent))) + 1));
      if (json_object_has_member (to, "exit_ns"))
        g_assert_cmpint (ri.last, ==, json_object_get_int_member (to, "exit_ns"));

      first = interval (tl, row, 0);
      if (g_str_equal (origin, "statedump"))
        {
          gint64 status = json_object_get_int_member (to, "status");

          n_dump++;
          /* unless an event came before its record */
          if (ri.first == born)
            {
              g_assert_cmpint (first.start, ==, born);
              g_assert_cmpstr (sl_timeline_state_to_string (first.state), ==,
                               sl_timeline_state_to_string (status == 5 ? SL_TIMELINE_STATE_BLOCKED
                                                                        : SL_TIMELINE_STATE_RUNNABLE));
              dumped++;
            }
        }
      else
        {
          /* the fork: ready to run */
          g_assert_cmpint (ri.first, ==, born);
          g_assert_cmpint (first.start, ==, born);
          g_assert_cmpuint (first.state, ==, SL_TIMELINE_STATE_RUNNABLE);
          if (g_str_equal (origin, "thread"))
            {
              g_assert_cmpuint (tid, !=, pid);
              (*n_spawned)++;
            }
          else
            g_assert_cmpuint (tid, ==, pid);
        }
    }
  /* the state dump comes first: few threads ran before their record */
  g_assert_cmpuint (dumped, >=, n_dump * 3 / 4);
  *n_dumped += dumped;

  /* and processes have no other threads */
  g_hash_table_iter_init (&it, per_process);
  while (g_hash_table_iter_next (&it, &key, &value))
    g_assert_cmpuint (row_info (tl, GPOINTER_TO_UINT (key)).n_children, ==, GPOINTER_TO_UINT (value));
}

static void
test_generated (void)
{
  static const char *const clients[] = { "python3", "gunicorn", "node", "java", "php-fpm", "uwsgi", NULL };
  static const char *const servers[] = { "postgres", "redis-server", "nginx", "java", "memcached", "mysqld",
                                         "etcd", NULL };
  static const char *const execs[] = { "date", "ls", "sh", "awk", "logrotate", "curl", "grep", "apt-check", NULL };
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *truth_path = g_build_filename (tmp, "ground-truth.json", NULL);
  g_autoptr(GArray) packets = g_array_new (FALSE, FALSE, sizeof (TruthPacket));
  g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  g_autoptr(GHashTable) by_end = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                                        (GDestroyNotify) g_array_unref);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(SlGenerate) gen = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autofree char *text = NULL;
  g_autofree guint *engine_host = NULL;
  SlGenerateOptions options;
  const char *folders[] = { tmp, NULL };
  JsonArray *hosts;
  Loaded l;
  gint64 lo, hi;
  guint64 n, total = 0, send_checked = 0, recv_checked = 0, exited = 0;
  guint n_dumped = 0, n_spawned = 0;

  sl_generate_options_init (&options);
  options.n_hosts = 3;
  options.duration_ns = 3 * G_GINT64_CONSTANT (1000000000);
  options.seed = 11;
  options.cpus = 2;
  options.background_rate = 1500;
  options.loss = 0.01;
  options.duplicate = 0.005;
  options.max_drift_ppm = 200;
  gen = sl_generate_new (&options);
  sl_generate_set_packet_func (gen, collect_cb, packets);
  g_assert_true (sl_generate_run (gen, tmp, NULL, &error));
  g_assert_no_error (error);

  loaded_init (&l, folders);
  check_invariants (l.tl);
  g_assert_cmpuint (sl_engine_get_n_hosts (l.engine), ==, 3);
  engine_host = g_new (guint, sl_generate_get_n_hosts (gen));
  for (guint g = 0; g < sl_generate_get_n_hosts (gen); g++)
    {
      engine_host[g] = sl_engine_find_host (l.engine, sl_generate_get_host (gen, g)->name);
      g_assert_cmpuint (engine_host[g], !=, SL_HOST_NONE);
    }

  /* every arrow joins the send and the receive of one segment; there is
   * one per match */
  for (guint i = 0; i < packets->len; i++)
    {
      TruthPacket *tp = &g_array_index (packets, TruthPacket, i);
      gint64 key[3] = { engine_host[tp->ev.host], tp->ev.dir, tp->ev.time };
      g_autoptr(GBytes) b = g_bytes_new (key, sizeof key);
      GArray *list = g_hash_table_lookup (by_end, b);

      if (list == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (SlPacketEvent));
          g_hash_table_insert (by_end, g_bytes_ref (b), list);
        }
      g_array_append_val (list, tp->ev);
    }
  g_assert_true (sl_timeline_get_view_range (l.tl, &lo, &hi));
  n = sl_timeline_query_arrows (l.tl, lo - 1000000000, hi + 1000000000, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                                SL_TIMELINE_NONE, arrows);
  g_assert_cmpuint (n, ==, sl_engine_get_n_matches (l.engine));
  g_assert_cmpuint (sl_timeline_get_n_arrows (l.tl), ==, n);
  g_assert_cmpuint (n, >, 1000);
  for (guint i = 0; i < arrows->len; i++)
    {
      const SlTimelineArrow *a = &g_array_index (arrows, SlTimelineArrow, i);
      gint64 ks[3] = { a->send_host, SL_PACKET_SEND, a->send_time };
      gint64 kr[3] = { a->recv_host, SL_PACKET_RECV, a->recv_time };
      g_autoptr(GBytes) bs = g_bytes_new (ks, sizeof ks);
      g_autoptr(GBytes) br = g_bytes_new (kr, sizeof kr);
      GArray *ls = g_hash_table_lookup (by_end, bs), *lr = g_hash_table_lookup (by_end, br);
      gboolean same = FALSE;
      SlTimelineConnection conn;

      g_assert_nonnull (ls);
      g_assert_nonnull (lr);
      for (guint x = 0; x < ls->len && !same; x++)
        for (guint y = 0; y < lr->len && !same; y++)
          same = same_packet (&g_array_index (ls, SlPacketEvent, x), &g_array_index (lr, SlPacketEvent, y));
      g_assert_true (same);

      sl_timeline_get_connection (l.tl, a->connection, &conn);
      g_assert_true ((conn.port_a == g_array_index (ls, SlPacketEvent, 0).sport &&
                      conn.port_b == g_array_index (ls, SlPacketEvent, 0).dport) ||
                     (conn.port_b == g_array_index (ls, SlPacketEvent, 0).sport &&
                      conn.port_a == g_array_index (ls, SlPacketEvent, 0).dport));
      g_assert_cmpuint (a->send_cpu, !=, SL_TIMELINE_NO_CPU);
      g_assert_cmpuint (a->recv_cpu, !=, SL_TIMELINE_NO_CPU);
      g_assert_cmpuint (row_info (l.tl, a->send_row).host, ==, a->send_host);
      g_assert_cmpuint (row_info (l.tl, a->recv_row).host, ==, a->recv_host);

      /* synchronized, a message never arrives before it leaves by more
       * than the bound */
      g_assert_true (isfinite (a->uncertainty_ns));
      g_assert_cmpfloat ((double) (a->recv_view - a->send_view), >=, -a->uncertainty_ns - 2);
    }

  /* folded per pixel column, the counts still add up */
  g_array_set_size (arrows, 0);
  sl_timeline_query_arrows (l.tl, lo - 1000000000, hi + 1000000000, 1600, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                            SL_TIMELINE_NONE, arrows);
  for (guint i = 0; i < arrows->len; i++)
    total += g_array_index (arrows, SlTimelineArrow, i).count;
  g_assert_cmpuint (total, ==, n);
  g_assert_cmpuint (arrows->len, <, n);

  /* the sampled packet events of the ground truth */
  g_assert_true (g_file_get_contents (truth_path, &text, NULL, &error));
  hosts = json_object_get_array_member (parse_object (text, parser), "hosts");
  for (guint i = 0; i < json_array_get_length (hosts); i++)
    {
      JsonObject *ho = json_array_get_object_element (hosts, i);
      guint host = sl_engine_find_host (l.engine, json_object_get_string_member (ho, "name"));
      JsonArray *samples = json_object_get_array_member (ho, "samples");

      check_truth_threads (l.tl, host, json_object_get_array_member (ho, "threads"), &n_dumped, &n_spawned);

      for (guint s = 0; s < json_array_get_length (samples); s++)
        {
          JsonObject *so = json_array_get_object_element (samples, s);
          gint64 t = json_object_get_int_member (so, "trace_ns");
          guint16 cpu = (guint16) json_object_get_int_member (so, "cpu");
          guint cpu_row = sl_timeline_find_cpu (l.tl, host, cpu);
          SlTimelineInterval ci = interval_at (l.tl, cpu_row, t);

          if (g_str_equal (json_object_get_string_member (so, "event"), "net_dev_queue"))
            {
              /* an application thread, in sendto on that CPU */
              guint row = sl_timeline_find_thread (l.tl, host, ci.detail, t);
              SlTimelineInterval iv = interval_at (l.tl, row, t);
              SlTimelineRowInfo ri = row_info (l.tl, row);

              g_assert_cmpuint (ci.state, ==, SL_TIMELINE_STATE_SYSCALL);
              g_assert_cmpuint (iv.state, ==, SL_TIMELINE_STATE_SYSCALL);
              g_assert_cmpstr (detail_name (l.tl, &iv), ==, "sendto");
              g_assert_cmpuint (iv.cpu, ==, cpu);
              g_assert_true (is_in (ri.name, clients) || is_in (ri.name, servers));
              g_assert_cmpuint (row_info (l.tl, ri.parent).kind, ==, SL_TIMELINE_ROW_PROCESS);
              check_send_chain (l.tl, row, t, cpu);
              send_checked++;
            }
          else
            {
              /* in the NET_RX softirq, over whatever ran there */
              g_assert_cmpuint (ci.state, ==, SL_TIMELINE_STATE_SOFTIRQ);
              g_assert_cmpuint (ci.detail, ==, 3);
              recv_checked++;
            }
        }
    }
  g_assert_cmpuint (send_checked, >, 10);
  g_assert_cmpuint (recv_checked, >, 10);
  g_assert_cmpuint (n_dumped, >, 50);
  g_assert_cmpuint (n_spawned, >, 3);

  /* processes (see check_truth_threads() too): multi-threaded daemons are
   * one process, the shell's children exec and exit */
  for (guint h = 0; h < 3; h++)
    {
      guint systemd = find_row (l.tl, h, SL_TIMELINE_ROW_PROCESS, "systemd", 0);

      g_assert_cmpuint (systemd, !=, SL_TIMELINE_NONE);
      g_assert_cmpuint (row_info (l.tl, systemd).pid, ==, 1);
      g_assert_cmpuint (find_row (l.tl, h, SL_TIMELINE_ROW_THREAD, "ksoftirqd/1", 0), !=, SL_TIMELINE_NONE);
    }
  for (guint r = 0; r < sl_timeline_get_n_rows (l.tl); r++)
    {
      SlTimelineRowInfo ri = row_info (l.tl, r);

      if (ri.kind == SL_TIMELINE_ROW_THREAD && is_in (ri.name, execs) &&
          interval (l.tl, r, ri.n_intervals - 1).state == SL_TIMELINE_STATE_EXITED)
        {
          gint64 ns[SL_TIMELINE_N_STATES];

          sl_timeline_get_state_time (l.tl, r, ri.first, ri.last + 1, ns);
          g_assert_cmpint (ns[SL_TIMELINE_STATE_USER], >, 0);
          g_assert_cmpuint (row_info (l.tl, ri.parent).ppid, !=, 0);
          exited++;
        }
    }
  g_assert_cmpuint (exited, >, 0);

  check_queries (l.tl, rand, 12, 20);
  loaded_clear (&l);
  rm_rf (tmp);
}

/* ---------------------------------------------------------------------- */
/* Hand-written traces: what the decoder keeps of forks, the state dump,    */
/* user-space contexts and lost events, end to end                          */

#define HW_OFFSET_S G_GINT64_CONSTANT (1700000000)
#define HW(t)       (HW_OFFSET_S * 1000000000 + (t))

static const char hw_metadata[] =
  "/* CTF 1.8 */\n"
  "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
  "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
  "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
  "typealias integer { size = 8; align = 8; signed = true; encoding = UTF8; } := char_t;\n"
  "trace {\n major = 1; minor = 8; uuid = \"%s\"; byte_order = le;\n"
  " packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };\n};\n"
  "env { hostname = \"%s\"; domain = \"%s\"; tracer_name = \"%s\"; tracer_major = 2; tracer_minor = 12; };\n"
  "clock { name = \"monotonic\"; uuid = \"%s\"; freq = 1000000000; offset_s = %" G_GINT64_FORMAT "; offset = 0; };\n"
  "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := clock_t;\n"
  "stream {\n id = 0;\n event.header := struct { uint32_t id; clock_t timestamp; };\n"
  " packet.context := struct { clock_t timestamp_begin; clock_t timestamp_end; uint64_t content_size;\n"
  "   uint64_t packet_size; uint64_t events_discarded; uint32_t cpu_id; };\n%s};\n";

/* lttng-modules 2.12's layouts (the fork with its vtids sequence), and a
 * user-space application event */
static const char hw_kernel_events[] =
  "event { name = \"sched_switch\"; id = 0; stream_id = 0; fields := struct {\n"
  " char_t _prev_comm[16]; int32_t _prev_tid; int32_t _prev_prio; int64_t _prev_state;\n"
  " char_t _next_comm[16]; int32_t _next_tid; int32_t _next_prio; }; };\n"
  "event { name = \"sched_wakeup\"; id = 1; stream_id = 0; fields := struct {\n"
  " char_t _comm[16]; int32_t _tid; int32_t _prio; int32_t _target_cpu; }; };\n"
  "event { name = \"lttng_statedump_process_state\"; id = 2; stream_id = 0; fields := struct {\n"
  " int32_t _tid; int32_t _pid; int32_t _ppid; char_t _name[16]; int32_t _type; int32_t _mode;\n"
  " int32_t _submode; int32_t _status; uint32_t _cpu; uint64_t _file_table_address; }; };\n"
  "event { name = \"sched_process_fork\"; id = 3; stream_id = 0; fields := struct {\n"
  " char_t _parent_comm[16]; int32_t _parent_tid; int32_t _parent_pid; uint32_t _parent_ns_inum;\n"
  " char_t _child_comm[16]; int32_t _child_tid; uint8_t __vtids_length; int32_t _vtids[__vtids_length];\n"
  " int32_t _child_pid; uint32_t _child_ns_inum; }; };\n"
  "event { name = \"syscall_entry_futex\"; id = 4; stream_id = 0; fields := struct { int32_t _op; }; };\n";

static const char hw_ust_events[] =
  "event { name = \"myapp:tick\"; id = 0; stream_id = 0; fields := struct { uint32_t _n; }; };\n";

static const char hw_ust_context[] =
  " event.context := struct { int32_t _vpid; int32_t _vtid; char_t _procname[17]; };\n";

static void
hw_le (GByteArray *b,
       guint64     v,
       guint       bytes)
{
  for (guint i = 0; i < bytes; i++)
    g_byte_array_append (b, (guint8[]) { (guint8) (v >> (8 * i)) }, 1);
}

static void
hw_text (GByteArray *b,
         const char *text,
         guint       size)
{
  guint8 buf[32] = { 0 };

  g_assert_cmpuint (size, <=, sizeof buf);
  memcpy (buf, text, MIN (strlen (text), size - 1));
  g_byte_array_append (b, buf, size);
}

/* Starts a packet; returns where it starts, for hw_packet_end(). */
static guint
hw_packet (GByteArray *f,
           gint64      begin,
           gint64      end,
           guint64     discarded,
           guint       cpu)
{
  guint at = f->len;

  hw_le (f, 0xc1fc1fc1, 4);
  g_byte_array_append (f, (const guint8 *) "0123456789abcdef", 16);
  hw_le (f, 0, 4);
  hw_le (f, (guint64) begin, 8);
  hw_le (f, (guint64) end, 8);
  hw_le (f, 0, 8);
  hw_le (f, 0, 8);
  hw_le (f, discarded, 8);
  hw_le (f, cpu, 4);
  return at;
}

static void
hw_packet_end (GByteArray *f,
               guint       at)
{
  guint64 bits = (guint64) (f->len - at) * 8;

  for (guint i = 0; i < 8; i++)
    f->data[at + 40 + i] = f->data[at + 48 + i] = (guint8) (bits >> (8 * i));
}

static void
hw_header (GByteArray *f,
           guint       id,
           gint64      t)
{
  hw_le (f, id, 4);
  hw_le (f, (guint64) t, 8);
}

static void
hw_switch (GByteArray *f,
           gint64      t,
           const char *prev,
           guint32     prev_tid,
           gint64      prev_state,
           const char *next,
           guint32     next_tid)
{
  hw_header (f, 0, t);
  hw_text (f, prev, 16);
  hw_le (f, prev_tid, 4);
  hw_le (f, 20, 4);
  hw_le (f, (guint64) prev_state, 8);
  hw_text (f, next, 16);
  hw_le (f, next_tid, 4);
  hw_le (f, 20, 4);
}

static void
hw_wakeup (GByteArray *f,
           gint64      t,
           guint32     tid,
           guint       cpu)
{
  hw_header (f, 1, t);
  hw_text (f, "x", 16);
  hw_le (f, tid, 4);
  hw_le (f, 20, 4);
  hw_le (f, cpu, 4);
}

static void
hw_dump (GByteArray *f,
         gint64      t,
         guint32     tid,
         guint32     pid,
         guint32     ppid,
         const char *name,
         guint       type,
         guint       status)
{
  hw_header (f, 2, t);
  hw_le (f, tid, 4);
  hw_le (f, pid, 4);
  hw_le (f, ppid, 4);
  hw_text (f, name, 16);
  hw_le (f, type, 4);
  hw_le (f, 5, 4);
  hw_le (f, 0, 4);
  hw_le (f, status, 4);
  hw_le (f, 0, 4);
  hw_le (f, 0xffff888000001000, 8);
}

static void
hw_fork (GByteArray *f,
         gint64      t,
         const char *comm,
         guint32     parent_tid,
         guint32     parent_pid,
         guint32     child_tid,
         guint32     child_pid)
{
  hw_header (f, 3, t);
  hw_text (f, comm, 16);
  hw_le (f, parent_tid, 4);
  hw_le (f, parent_pid, 4);
  hw_le (f, 4026531836u, 4);
  hw_text (f, comm, 16);
  hw_le (f, child_tid, 4);
  hw_le (f, 1, 1);
  hw_le (f, child_tid, 4);
  hw_le (f, child_pid, 4);
  hw_le (f, 4026531836u, 4);
}

static void
hw_tick (GByteArray *f,
         gint64      t,
         guint32     vpid,
         guint32     vtid,
         const char *procname)
{
  hw_header (f, 0, t);
  hw_le (f, vpid, 4);
  hw_le (f, vtid, 4);
  hw_text (f, procname, 17);
  hw_le (f, 1, 4);
}

static void
hw_write (const char *dir,
          const char *host,
          gboolean    ust,
          const char *clock_uuid,
          GByteArray *const *streams,
          guint       n_streams)
{
  g_autofree char *meta = g_strdup_printf (hw_metadata, "30313233-3435-3637-3839-616263646566", host,
                                           ust ? "ust" : "kernel", ust ? "lttng-ust" : "lttng-modules",
                                           clock_uuid, HW_OFFSET_S, ust ? hw_ust_context : "");
  g_autofree char *all = g_strconcat (meta, ust ? hw_ust_events : hw_kernel_events, NULL);
  g_autofree char *path = g_build_filename (dir, "metadata", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, all, -1, NULL));
  for (guint i = 0; i < n_streams; i++)
    {
      g_autofree char *name = g_strdup_printf ("chan_%u", i);
      g_autofree char *p = g_build_filename (dir, name, NULL);

      g_assert_true (g_file_set_contents (p, (const char *) streams[i]->data, (gssize) streams[i]->len, NULL));
    }
}

static const SlEvent *
find_event (const SlEventStore *store,
            SlEventKind         kind,
            guint               nth)
{
  SlEventStream s = sl_event_kind_get_stream (kind);

  for (guint64 k = 0; k < sl_event_store_get_n_events (store, s); k++)
    {
      const SlEvent *e = sl_event_store_get (store, s, k);

      if (e->kind == kind && nth-- == 0)
        return e;
    }
  return NULL;
}

static void
test_decoded (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autofree char *kdir = g_build_filename (tmp, "kern", "kernel", NULL);
  g_autofree char *udir = g_build_filename (tmp, "app", "ust", "uid", "1000", "64-bit", NULL);
  const char *folders[] = { tmp, NULL };
  g_autoptr(GByteArray) k0 = g_byte_array_new ();
  g_autoptr(GByteArray) k1 = g_byte_array_new ();
  g_autoptr(GByteArray) u0 = g_byte_array_new ();
  const SlEventStore *ks = NULL, *us = NULL;
  const SlEvent *e;
  guint kern = G_MAXUINT, app = G_MAXUINT, at, p100, row;
  Loaded l;

  /* CPU 0: the state dump, a thread started, then 7 events lost between
   * the packets; CPU 1: a kernel thread runs, the daemon is woken */
  at = hw_packet (k0, 1000, 2600, 0, 0);
  hw_dump (k0, 1000, 100, 100, 1, "daemon", 0, SL_EVENT_TASK_WAIT);
  hw_dump (k0, 1100, 101, 100, 1, "daemon", 0, SL_EVENT_TASK_WAIT_CPU);
  hw_dump (k0, 1200, 200, 200, 100, "child", 0, SL_EVENT_TASK_ZOMBIE);
  hw_dump (k0, 1300, 2, 2, 0, "kthreadd", 1, SL_EVENT_TASK_WAIT);
  hw_switch (k0, 2000, "swapper/0", 0, 0, "daemon", 101);
  hw_fork (k0, 2100, "daemon", 101, 100, 102, 100);
  hw_wakeup (k0, 2200, 102, 0);
  hw_switch (k0, 2300, "daemon", 101, 0, "daemon", 102);
  hw_header (k0, 4, 2400);
  hw_le (k0, 0, 4);
  hw_switch (k0, 2500, "daemon", 102, 1, "swapper/0", 0);
  hw_packet_end (k0, at);
  at = hw_packet (k0, 5000, 5200, 7, 0);
  hw_switch (k0, 5000, "swapper/0", 0, 0, "daemon", 100);
  hw_fork (k0, 5100, "daemon", 100, 100, 300, 300);
  hw_switch (k0, 5200, "daemon", 100, 1, "swapper/0", 0);
  hw_packet_end (k0, at);

  at = hw_packet (k1, 1500, 4000, 0, 1);
  hw_switch (k1, 1500, "swapper/1", 0, 0, "kthreadd", 2);
  hw_switch (k1, 1600, "kthreadd", 2, 1, "swapper/1", 0);
  hw_wakeup (k1, 4000, 100, 0);
  hw_packet_end (k1, at);

  /* a user-space-only host: threads known from their events' context;
   * its lost events say nothing of scheduling */
  at = hw_packet (u0, 1000, 1300, 0, 0);
  hw_tick (u0, 1000, 500, 500, "server");
  hw_tick (u0, 1100, 500, 501, "server");
  hw_tick (u0, 1200, 500, 500, "server");
  hw_tick (u0, 1300, 600, 600, "client");
  hw_packet_end (u0, at);
  at = hw_packet (u0, 3000, 3100, 3, 0);
  hw_tick (u0, 3000, 500, 501, "server-io");
  hw_tick (u0, 3100, 500, 500, "server");
  hw_packet_end (u0, at);

  hw_write (kdir, "kern", FALSE, "11111111-0000-0000-0000-000000000001", (GByteArray *[]) { k0, k1 }, 2);
  hw_write (udir, "app", TRUE, "22222222-0000-0000-0000-000000000002", (GByteArray *[]) { u0 }, 1);

  loaded_init (&l, folders);
  for (guint i = 0; i < sl_trace_reader_get_n_hosts (l.reader); i++)
    {
      const char *name = sl_trace_reader_get_host_name (l.reader, i);

      if (g_str_equal (name, "kern"))
        kern = sl_trace_reader_get_engine_host (l.reader, i), ks = sl_trace_reader_get_event_store (l.reader, i);
      else if (g_str_equal (name, "app"))
        app = sl_trace_reader_get_engine_host (l.reader, i), us = sl_trace_reader_get_event_store (l.reader, i);
    }
  g_assert_nonnull (ks);
  g_assert_nonnull (us);
  check_invariants (l.tl);

  /* the store: the state dump's status and parents, the forks' kinds and
   * their parents' processes, the gap at the end of the packet before it */
  g_assert_cmpuint (sl_event_store_get_kind_count (ks, SL_EVENT_PROCESS_NAME), ==, 4 + 2);
  g_assert_cmpuint (sl_event_store_get_kind_count (ks, SL_EVENT_PROCESS_PARENT), ==, 2);
  e = find_event (ks, SL_EVENT_PROCESS_NAME, 1);
  g_assert_cmpuint (e->tid, ==, 101);
  g_assert_cmpuint (e->arg, ==, 100);
  g_assert_cmpuint (e->flags, ==, SL_EVENT_NAME_STATE_DUMP | SL_EVENT_TASK_WAIT_CPU);
  e = find_event (ks, SL_EVENT_PROCESS_NAME, 3);
  g_assert_cmpuint (e->flags, ==, SL_EVENT_NAME_STATE_DUMP | SL_EVENT_NAME_KERNEL_THREAD | SL_EVENT_TASK_WAIT);
  e = find_event (ks, SL_EVENT_PROCESS_NAME, 4);
  g_assert_cmpint (e->time, ==, HW (2100));
  g_assert_cmpuint (e->tid, ==, 101);
  g_assert_cmpuint (e->arg, ==, 100);
  g_assert_cmpuint (e->flags, ==, SL_EVENT_NAME_FORK);
  e = find_event (ks, SL_EVENT_PROCESS_PARENT, 1);
  g_assert_cmpuint (e->tid, ==, 200);
  g_assert_cmpuint (e->arg, ==, 100);
  e = find_event (ks, SL_EVENT_PROCESS_FORK, 0);
  g_assert_cmpuint (e->tid, ==, 101);
  g_assert_cmpuint (e->arg, ==, 102);
  g_assert_cmpuint (e->flags, ==, SL_EVENT_FORK_THREAD);
  g_assert_cmpuint (find_event (ks, SL_EVENT_PROCESS_FORK, 1)->flags, ==, SL_EVENT_FORK_PROCESS);
  e = find_event (ks, SL_EVENT_PROCESS_NAME, 5);
  g_assert_cmpint (e->time, ==, HW (5100));
  g_assert_cmpuint (e->tid, ==, 100);
  g_assert_cmpuint (e->flags, ==, SL_EVENT_NAME_FORK);
  g_assert_cmpuint (sl_event_store_get_kind_count (ks, SL_EVENT_LOST), ==, 1);
  e = find_event (ks, SL_EVENT_LOST, 0);
  g_assert_cmpint (e->time, ==, HW (2600));
  g_assert_cmpuint (e->cpu, ==, 0);
  g_assert_cmpuint (e->arg, ==, 7);
  g_assert_cmpuint (e->flags, ==, 0);
  g_assert_cmpuint (sl_event_store_get_n_lost (ks), ==, 7);

  /* 500's thread 501 is renamed; nothing else is repeated */
  g_assert_cmpuint (sl_event_store_get_kind_count (us, SL_EVENT_PROCESS_NAME), ==, 4);
  e = find_event (us, SL_EVENT_PROCESS_NAME, 3);
  g_assert_cmpint (e->time, ==, HW (3000));
  g_assert_cmpuint (e->tid, ==, 501);
  g_assert_cmpuint (e->arg, ==, 500);
  g_assert_cmpstr (sl_event_store_get_string (us, e->str), ==, "server-io");
  g_assert_cmpuint (e->flags, ==, SL_EVENT_NAME_CONTEXT);
  e = find_event (us, SL_EVENT_LOST, 0);
  g_assert_nonnull (e);
  g_assert_cmpuint (e->arg, ==, 3);
  g_assert_cmpuint (e->flags, ==, SL_EVENT_LOST_USER);

  /* the model: the thread started is one of its parent's process; the
   * state dump's states until events say more; unknown after the gap */
  p100 = row_info (l.tl, sl_timeline_find_thread (l.tl, kern, 100, HW (1000))).parent;
  g_assert_cmpuint (row_info (l.tl, p100).kind, ==, SL_TIMELINE_ROW_PROCESS);
  g_assert_cmpuint (row_info (l.tl, p100).pid, ==, 100);
  g_assert_cmpuint (row_info (l.tl, p100).ppid, ==, 1);
  g_assert_cmpuint (row_info (l.tl, p100).n_children, ==, 3);
  {
    static const Expect want[] = {
      { HW (1000), SL_TIMELINE_STATE_BLOCKED, NO, NULL, 0 },
      { HW (2600), SL_TIMELINE_STATE_UNKNOWN, NO, NULL, 0 },
      { HW (4000), SL_TIMELINE_STATE_RUNNABLE, NO, NULL, 0 },
      { HW (5000), SL_TIMELINE_STATE_USER, 0, NULL, 0 },
      { HW (5200), SL_TIMELINE_STATE_BLOCKED, NO, NULL, 0 },
    };
    expect_row (l.tl, sl_timeline_find_thread (l.tl, kern, 100, HW (1000)), want, G_N_ELEMENTS (want));
  }
  {
    static const Expect want[] = {
      { HW (1100), SL_TIMELINE_STATE_RUNNABLE, NO, NULL, 0 },
      { HW (2000), SL_TIMELINE_STATE_USER, 0, NULL, 0 },
      { HW (2300), SL_TIMELINE_STATE_RUNNABLE, NO, NULL, 0 },
      { HW (2600), SL_TIMELINE_STATE_UNKNOWN, NO, NULL, 0 },
    };
    expect_row (l.tl, sl_timeline_find_thread (l.tl, kern, 101, HW (1100)), want, G_N_ELEMENTS (want));
  }
  row = sl_timeline_find_thread (l.tl, kern, 102, HW (2100));
  g_assert_cmpuint (row_info (l.tl, row).parent, ==, p100);
  g_assert_cmpuint (row_info (l.tl, row).pid, ==, 100);
  g_assert_cmpuint (row_info (l.tl, row).ppid, ==, 1);
  g_assert_cmpstr (row_info (l.tl, row).name, ==, "daemon");
  {
    static const Expect want[] = {
      { HW (2100), SL_TIMELINE_STATE_RUNNABLE, NO, NULL, 0 },
      { HW (2300), SL_TIMELINE_STATE_USER, 0, NULL, 0 },
      { HW (2400), SL_TIMELINE_STATE_SYSCALL, 0, "futex", 0 },
      { HW (2500), SL_TIMELINE_STATE_BLOCKED, NO, "futex", 0 },
      { HW (2600), SL_TIMELINE_STATE_UNKNOWN, NO, NULL, 0 },
    };
    expect_row (l.tl, row, want, G_N_ELEMENTS (want));
  }
  /* a zombie: exited at once; its process's parent is the daemon */
  row = sl_timeline_find_thread (l.tl, kern, 200, HW (1200));
  g_assert_cmpuint (row_info (l.tl, row).ppid, ==, 100);
  g_assert_cmpint (row_info (l.tl, row).last, ==, HW (1200));
  {
    static const Expect want[] = { { HW (1200), SL_TIMELINE_STATE_EXITED, NO, NULL, 0 } };
    expect_row (l.tl, row, want, G_N_ELEMENTS (want));
  }
  {
    static const Expect want[] = {
      { HW (1300), SL_TIMELINE_STATE_BLOCKED, NO, NULL, 0 },
      { HW (1500), SL_TIMELINE_STATE_USER, 1, NULL, 0 },
      { HW (1600), SL_TIMELINE_STATE_BLOCKED, NO, NULL, 0 },
      { HW (2600), SL_TIMELINE_STATE_UNKNOWN, NO, NULL, 0 },
    };
    expect_row (l.tl, sl_timeline_find_thread (l.tl, kern, 2, HW (1300)), want, G_N_ELEMENTS (want));
  }
  /* a new process: its parent process from the fork */
  row = sl_timeline_find_thread (l.tl, kern, 300, HW (5100));
  g_assert_cmpuint (row_info (l.tl, row).pid, ==, 300);
  g_assert_cmpuint (row_info (l.tl, row_info (l.tl, row).parent).ppid, ==, 100);
  g_assert_cmpuint (row_info (l.tl, row_info (l.tl, row).parent).thread_row, ==, row);
  {
    static const Expect want[] = {
      { HW (1000), SL_TIMELINE_STATE_UNKNOWN, 0, NULL, 0 },
      { HW (2000), SL_TIMELINE_STATE_USER, 0, NULL, 101 },
      { HW (2300), SL_TIMELINE_STATE_USER, 0, NULL, 102 },
      { HW (2400), SL_TIMELINE_STATE_SYSCALL, 0, NULL, 102 },
      { HW (2500), SL_TIMELINE_STATE_IDLE, 0, NULL, 0 },
      { HW (2600), SL_TIMELINE_STATE_UNKNOWN, 0, NULL, 0 },
      { HW (5000), SL_TIMELINE_STATE_USER, 0, NULL, 100 },
      { HW (5200), SL_TIMELINE_STATE_IDLE, 0, NULL, 0 },
    };
    expect_row (l.tl, sl_timeline_find_cpu (l.tl, kern, 0), want, G_N_ELEMENTS (want));
  }
  {
    static const Expect want[] = {
      { HW (1500), SL_TIMELINE_STATE_USER, 1, NULL, 2 },
      { HW (1600), SL_TIMELINE_STATE_IDLE, 1, NULL, 0 },
    };
    expect_row (l.tl, sl_timeline_find_cpu (l.tl, kern, 1), want, G_N_ELEMENTS (want));
  }

  /* user space: threads under their processes, named */
  {
    guint t500 = sl_timeline_find_thread (l.tl, app, 500, HW (1000));
    guint t501 = sl_timeline_find_thread (l.tl, app, 501, HW (1100));
    guint t600 = sl_timeline_find_thread (l.tl, app, 600, HW (1300));
    SlTimelineRowInfo p500 = row_info (l.tl, row_info (l.tl, t500).parent);

    g_assert_cmpuint (p500.kind, ==, SL_TIMELINE_ROW_PROCESS);
    g_assert_cmpuint (p500.pid, ==, 500);
    g_assert_cmpstr (p500.name, ==, "server");
    g_assert_cmpuint (p500.thread_row, ==, t500);
    g_assert_cmpuint (p500.n_children, ==, 2);
    g_assert_cmpuint (row_info (l.tl, t501).parent, ==, row_info (l.tl, t500).parent);
    g_assert_cmpstr (row_info (l.tl, t501).name, ==, "server-io");
    g_assert_cmpstr (row_info (l.tl, row_info (l.tl, t600).parent).name, ==, "client");
    g_assert_cmpuint (sl_timeline_get_n_intervals (l.tl, t501), ==, 1);
    g_assert_cmpuint (interval (l.tl, t501, 0).state, ==, SL_TIMELINE_STATE_UNKNOWN);
  }

  loaded_clear (&l);
  rm_rf (tmp);
}

/* ---------------------------------------------------------------------- */
/* Appending: the live reader's stores grow between updates                */

static gint
cmp_rows (SlTimeline *a,
          SlTimeline *b)
{
  g_assert_cmpuint (sl_timeline_get_n_rows (a), ==, sl_timeline_get_n_rows (b));
  for (guint r = 0; r < sl_timeline_get_n_rows (a); r++)
    {
      SlTimelineRowInfo x = row_info (a, r), y = row_info (b, r);

      g_assert_cmpuint (x.kind, ==, y.kind);
      g_assert_cmpuint (x.parent, ==, y.parent);
      g_assert_cmpuint (x.tid, ==, y.tid);
      g_assert_cmpuint (x.pid, ==, y.pid);
      g_assert_cmpstr (x.name, ==, y.name);
      g_assert_cmpuint (x.n_intervals, ==, y.n_intervals);
      for (guint64 i = 0; i < x.n_intervals; i++)
        {
          SlTimelineInterval p = interval (a, r, i), q = interval (b, r, i);

          g_assert_cmpint (p.start, ==, q.start);
          g_assert_cmpint (p.end, ==, q.end);
          g_assert_cmpuint (p.state, ==, q.state);
          g_assert_cmpuint (p.cpu, ==, q.cpu);
          if (x.kind == SL_TIMELINE_ROW_THREAD &&
              (p.state == SL_TIMELINE_STATE_SYSCALL || p.state == SL_TIMELINE_STATE_BLOCKED))
            g_assert_cmpstr (sl_timeline_get_string (a, p.detail), ==, sl_timeline_get_string (b, q.detail));
          else
            g_assert_cmpuint (p.detail, ==, q.detail);
        }
    }
  return 0;
}

static void
test_incremental (void)
{
  g_autofree char *tmp = make_tmpdir ();
  const char *folders[] = { tmp, NULL };
  g_autoptr(GRand) rand = g_rand_new_with_seed (9);
  SlGenerateOptions options;
  g_autoptr(SlGenerate) gen = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) copies = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_event_store_free);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, 2 * sizeof (guint64));
  g_autoptr(SlTimeline) grown = sl_timeline_new ();
  Loaded l;
  guint n_hosts;

  sl_generate_options_init (&options);
  options.n_hosts = 2;
  options.duration_ns = 2 * G_GINT64_CONSTANT (1000000000);
  options.seed = 3;
  options.cpus = 2;
  options.background_rate = 800;
  gen = sl_generate_new (&options);
  g_assert_true (sl_generate_run (gen, tmp, NULL, &error));
  g_assert_no_error (error);
  loaded_init (&l, folders);
  n_hosts = sl_trace_reader_get_n_hosts (l.reader);

  /* replay each host's events in the reader's order into a fresh store,
   * in uneven slices, updating in between */
  for (guint i = 0; i < n_hosts; i++)
    {
      guint host = sl_trace_reader_get_engine_host (l.reader, i);
      SlEventStore *copy = sl_event_store_new ();

      g_ptr_array_add (copies, copy);
      sl_timeline_set_host (grown, host, sl_trace_reader_get_host_name (l.reader, i), copy);
    }
  for (guint i = 0; i < n_hosts; i++)
    {
      const SlEventStore *src = sl_trace_reader_get_event_store (l.reader, i);
      guint64 at[SL_EVENT_N_STREAMS] = { 0 };

      for (;;)
        {
          guint best = SL_EVENT_N_STREAMS;
          guint64 rec[2];

          for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
            if (at[s] < sl_event_store_get_n_events (src, s) &&
                (best == SL_EVENT_N_STREAMS ||
                 sl_event_store_get (src, s, at[s])->time < sl_event_store_get (src, best, at[best])->time))
              best = s;
          if (best == SL_EVENT_N_STREAMS)
            break;
          rec[0] = i;
          rec[1] = ((guint64) best << 56) | at[best]++;
          g_array_append_vals (order, rec, 1);
        }
    }
  for (guint k = 0; k < order->len;)
    {
      guint step = (guint) g_rand_int_range (rand, 1, 20000);
      gint64 before_last = G_MININT64, after_last = G_MININT64;

      sl_timeline_get_time_range (grown, 0, NULL, &before_last);
      for (guint e = 0; e < step && k < order->len; e++, k++)
        {
          const guint64 *rec = &g_array_index (order, guint64, 2 * k);
          const SlEventStore *src = sl_trace_reader_get_event_store (l.reader, (guint) rec[0]);
          SlEventStore *dst = g_ptr_array_index (copies, rec[0]);
          SlEvent ev = *sl_event_store_get (src, (SlEventStream) (rec[1] >> 56), rec[1] & ((G_GUINT64_CONSTANT (1) << 56) - 1));

          ev.str = sl_event_store_intern (dst, sl_event_store_get_string (src, ev.str));
          sl_event_store_append (dst, &ev);
        }
      g_assert_true (sl_timeline_update (grown));
      sl_timeline_get_time_range (grown, 0, NULL, &after_last);
      g_assert_cmpint (after_last, >=, before_last);
    }
  check_invariants (grown);
  cmp_rows (l.tl, grown);
  loaded_clear (&l);
  rm_rf (tmp);
}

/* Many events at the same nanoseconds in every stream, over several of
 * the store's chunks: the rows built from the whole store at once (the
 * builder reading each stream run by run) are those built one event at a
 * time, where the order is the append order (by time, ties in stream
 * order: scheduling, system calls, interrupts, packets). */
static void
test_ties (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (SlEvent));
  SlEventStore *whole = sl_event_store_new (), *one = sl_event_store_new (), *slices = sl_event_store_new ();
  g_autoptr(SlTimeline) a = sl_timeline_new ();
  g_autoptr(SlTimeline) b = sl_timeline_new ();
  g_autoptr(SlTimeline) c = sl_timeline_new ();
  static const SlEventKind kinds[] = {
    SL_EVENT_SCHED_SWITCH, SL_EVENT_SCHED_WAKEUP, SL_EVENT_PROCESS_FORK, SL_EVENT_PROCESS_EXIT,
    SL_EVENT_SYSCALL_ENTRY, SL_EVENT_SYSCALL_EXIT, SL_EVENT_IRQ_ENTRY, SL_EVENT_IRQ_EXIT,
    SL_EVENT_SOFTIRQ_ENTRY, SL_EVENT_SOFTIRQ_EXIT, SL_EVENT_PACKET_SEND, SL_EVENT_PACKET_RECV,
  };
  SlEventStore *stores[] = { whole, one, slices };
  guint32 names[G_N_ELEMENTS (stores)][3];
  guint64 streams[SL_EVENT_N_STREAMS] = { 0 };
  SlTimelineStats st;

  for (guint k = 0; k < G_N_ELEMENTS (stores); k++)
    {
      names[k][0] = sl_event_store_intern (stores[k], "read");
      names[k][1] = sl_event_store_intern (stores[k], "worker");
      names[k][2] = sl_event_store_intern (stores[k], "sendto");
    }
  /* at each instant, events of random kinds, appended in stream order */
  for (gint64 t = 1000; events->len < 9000; t += g_rand_int_range (rand, 1, 4))
    {
      guint n = (guint) g_rand_int_range (rand, 1, 7);
      guint first = events->len;

      for (guint i = 0; i < n; i++)
        {
          SlEvent e = { 0 };

          e.time = t;
          e.kind = kinds[g_rand_int_range (rand, 0, G_N_ELEMENTS (kinds))];
          e.tid = (guint32) g_rand_int_range (rand, 0, 12) * 7;
          e.arg = (guint32) g_rand_int_range (rand, 0, 12) * 7;
          e.cpu = (guint16) g_rand_int_range (rand, 0, 3);
          e.str = (guint32) g_rand_int_range (rand, 0, 3);
          e.flags = e.kind == SL_EVENT_SCHED_SWITCH ? (guint8) g_rand_int_range (rand, 0, 2) : 0;
          g_array_append_val (events, e);
        }
      for (guint i = first + 1; i < events->len; i++)
        for (guint j = i; j > first; j--)
          {
            SlEvent *x = &g_array_index (events, SlEvent, j - 1), *y = x + 1, tmp;

            if (sl_event_kind_get_stream (x->kind) <= sl_event_kind_get_stream (y->kind))
              break;
            tmp = *x;
            *x = *y;
            *y = tmp;
          }
    }

  sl_timeline_set_host (a, 0, "h", whole);
  sl_timeline_set_host (b, 0, "h", one);
  sl_timeline_set_host (c, 0, "h", slices);
  for (guint i = 0; i < events->len; i++)
    {
      const SlEvent *src = &g_array_index (events, SlEvent, i);

      streams[sl_event_kind_get_stream (src->kind)]++;
      for (guint k = 0; k < G_N_ELEMENTS (stores); k++)
        {
          SlEvent e = *src;

          e.str = e.str != 0 ? names[k][e.str] : 0;
          sl_event_store_append (stores[k], &e);
        }
      sl_timeline_update (b);
      if (g_rand_int_range (rand, 0, 500) == 0)
        sl_timeline_update (c);
    }
  /* more than a chunk (1 024 events) in each stream */
  for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
    g_assert_cmpuint (streams[s], >, 1500);
  g_assert_true (sl_timeline_update (a));
  sl_timeline_update (c);
  sl_timeline_get_stats (a, &st);
  g_assert_cmpuint (st.events, ==, events->len);
  check_invariants (a);
  cmp_rows (a, b);
  cmp_rows (a, c);

  g_clear_pointer (&a, sl_timeline_free);
  g_clear_pointer (&b, sl_timeline_free);
  g_clear_pointer (&c, sl_timeline_free);
  for (guint k = 0; k < G_N_ELEMENTS (stores); k++)
    sl_event_store_free (stores[k]);
}

/* ---------------------------------------------------------------------- */
/* A real trace: django-vote (lttng-modules 2.4 names)                     */

static guint64
syscall_intervals (SlTimeline *tl,
                   guint       row,
                   const char *name)
{
  guint64 n = 0;

  for (guint64 i = 0; i < sl_timeline_get_n_intervals (tl, row); i++)
    {
      SlTimelineInterval iv = interval (tl, row, i);

      n += iv.state == SL_TIMELINE_STATE_SYSCALL && g_str_equal (detail_name (tl, &iv), name);
    }
  return n;
}

static void
check_django_process (SlTimeline        *tl,
                      SlEngine          *engine,
                      const char        *host_name,
                      const char        *name,
                      const char *const *syscalls)
{
  guint host = sl_engine_find_host (engine, host_name);
  gint64 ns_all[SL_TIMELINE_N_STATES] = { 0 };
  guint threads = 0;
  g_autoptr(GArray) rows = sl_timeline_find_rows (tl, name);

  g_assert_cmpuint (host, !=, SL_HOST_NONE);
  for (guint i = 0; i < rows->len; i++)
    {
      guint r = g_array_index (rows, guint, i);
      SlTimelineRowInfo ri = row_info (tl, r);
      gint64 ns[SL_TIMELINE_N_STATES];

      if (ri.host != host || ri.kind != SL_TIMELINE_ROW_THREAD || !g_str_equal (ri.name, name))
        continue;
      g_assert_cmpuint (row_info (tl, ri.parent).kind, ==, SL_TIMELINE_ROW_PROCESS);
      threads++;
      sl_timeline_get_state_time (tl, r, ri.first, ri.last, ns);
      for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
        ns_all[s] += ns[s];
      for (guint k = 0; syscalls[k] != NULL; k++)
        if (syscall_intervals (tl, r, syscalls[k]) > 0)
          ns_all[0] |= G_GINT64_CONSTANT (1) << (40 + k);
    }
  if (g_test_verbose ())
    g_test_message ("%s on %s: %u threads, user %.3f s, syscall %.3f s, runnable %.3f s, blocked %.3f s",
                    name, host_name, threads, ns_all[SL_TIMELINE_STATE_USER] / 1e9,
                    ns_all[SL_TIMELINE_STATE_SYSCALL] / 1e9, ns_all[SL_TIMELINE_STATE_RUNNABLE] / 1e9,
                    ns_all[SL_TIMELINE_STATE_BLOCKED] / 1e9);
  g_assert_cmpuint (threads, >, 0);
  g_assert_cmpint (ns_all[SL_TIMELINE_STATE_USER], >, 0);
  g_assert_cmpint (ns_all[SL_TIMELINE_STATE_SYSCALL], >, 0);
  g_assert_cmpint (ns_all[SL_TIMELINE_STATE_RUNNABLE], >, 0);
  g_assert_cmpint (ns_all[SL_TIMELINE_STATE_BLOCKED], >, 0);
  for (guint k = 0; syscalls[k] != NULL; k++)
    if (!(ns_all[0] & (G_GINT64_CONSTANT (1) << (40 + k))))
      g_error ("%s on %s: never in %s", name, host_name, syscalls[k]);
}

/* The processes of @name on @host: their threads are rows of theirs (from
 * the state dump and forks) and none starts unknown; they are one tree
 * under a process whose parent is init. Returns the number of processes;
 * *max_threads the most threads one has, *forked those started during the
 * trace. */
static guint
check_django_tree (SlTimeline *tl,
                   guint       host,
                   const char *name,
                   guint      *max_threads,
                   guint      *forked)
{
  g_autoptr(GArray) rows = sl_timeline_find_rows (tl, name);
  g_autoptr(GHashTable) pids = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) processes = g_array_new (FALSE, FALSE, sizeof (guint));
  guint roots = 0;

  *max_threads = *forked = 0;
  for (guint i = 0; i < rows->len; i++)
    {
      guint r = g_array_index (rows, guint, i);
      SlTimelineRowInfo ri = row_info (tl, r);

      if (ri.host != host || !g_str_equal (ri.name, name))
        continue;
      if (ri.kind == SL_TIMELINE_ROW_THREAD)
        {
          g_assert_cmpuint (row_info (tl, ri.parent).kind, ==, SL_TIMELINE_ROW_PROCESS);
          g_assert_cmpuint (row_info (tl, ri.parent).pid, ==, ri.pid);
          g_assert_cmpuint (interval (tl, r, 0).state, !=, SL_TIMELINE_STATE_UNKNOWN);
        }
      else if (ri.kind == SL_TIMELINE_ROW_PROCESS)
        {
          g_array_append_val (processes, r);
          g_hash_table_add (pids, GUINT_TO_POINTER (ri.pid));
        }
    }

  for (guint i = 0; i < processes->len; i++)
    {
      guint r = g_array_index (processes, guint, i);
      SlTimelineRowInfo ri = row_info (tl, r);
      g_autoptr(GArray) children = sl_timeline_dup_children (tl, r);

      if (!g_hash_table_contains (pids, GUINT_TO_POINTER (ri.ppid)))
        {
          g_assert_cmpuint (ri.ppid, ==, 1);
          roots++;
        }
      *max_threads = MAX (*max_threads, ri.n_children);
      for (guint c = 0; c < children->len; c++)
        {
          SlTimelineRowInfo ti = row_info (tl, g_array_index (children, guint, c));

          g_assert_cmpuint (ti.pid, ==, ri.pid);
          g_assert_cmpuint (ti.ppid, ==, ri.ppid);
        }
      /* started by a fork in the trace: its first event */
      if (ri.thread_row != SL_TIMELINE_NONE)
        {
          SlTimelineRowInfo main = row_info (tl, ri.thread_row);
          g_autoptr(GArray) events = sl_timeline_dup_row_events (tl, ri.thread_row, main.first, main.first + 1, 0);

          for (guint k = 0; k < events->len; k++)
            if (g_array_index (events, SlEvent, k).kind == SL_EVENT_PROCESS_FORK &&
                g_array_index (events, SlEvent, k).arg == ri.pid)
              {
                g_assert_cmpuint (interval (tl, ri.thread_row, 0).state, ==, SL_TIMELINE_STATE_RUNNABLE);
                (*forked)++;
              }
        }
    }
  g_assert_cmpuint (roots, ==, 1);
  return processes->len;
}

static void
test_django (void)
{
  static const char *const python_calls[] = { "connect", "sendto", "recvfrom", "poll", "read", NULL };
  static const char *const apache_calls[] = { "accept4", "read", "writev", "epoll_wait", "connect", NULL };
  static const char *const postgres_calls[] = { "recvfrom", "sendto", "select", NULL };
  g_autofree char *dir = sl_test_data_path ("traces", "django-vote", NULL);
  const char *folders[] = { dir, NULL };
  g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  guint client, httpd, db, python_sends = 0, apache_to_postgres = 0;
  SlTimelineStats st;
  gint64 lo, hi;
  Loaded l;

  if (dir == NULL)
    return;

  loaded_init (&l, folders);
  client = sl_engine_find_host (l.engine, "django-client");
  httpd = sl_engine_find_host (l.engine, "django-httpd");
  db = sl_engine_find_host (l.engine, "django-db");
  check_invariants (l.tl);

  check_django_process (l.tl, l.engine, "django-client", "python", python_calls);
  check_django_process (l.tl, l.engine, "django-httpd", "apache2", apache_calls);
  check_django_process (l.tl, l.engine, "django-db", "postgres", postgres_calls);

  /* apache2's workers are processes of many threads each (the state dump
   * says so), children of the main apache2; postgres forks a process per
   * connection during the trace, children of the postmaster */
  {
    guint n, max_threads, forked;

    n = check_django_tree (l.tl, httpd, "apache2", &max_threads, &forked);
    g_assert_cmpuint (n, >=, 3);
    g_assert_cmpuint (max_threads, >=, 20);
    n = check_django_tree (l.tl, db, "postgres", &max_threads, &forked);
    g_assert_cmpuint (n, >=, 10);
    g_assert_cmpuint (max_threads, ==, 1);
    g_assert_cmpuint (forked, >=, 5);
  }

  /* every matched packet is an arrow; the client's requests leave python,
   * apache2 talks to postgres */
  g_assert_true (sl_timeline_get_view_range (l.tl, &lo, &hi));
  g_assert_cmpuint (sl_timeline_query_arrows (l.tl, lo, hi, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                                              SL_TIMELINE_NONE, arrows), ==, 438);
  g_assert_cmpuint (sl_engine_get_n_matches (l.engine), ==, 438);
  for (guint i = 0; i < arrows->len; i++)
    {
      const SlTimelineArrow *a = &g_array_index (arrows, SlTimelineArrow, i);
      SlTimelineRowInfo s = row_info (l.tl, a->send_row), r = row_info (l.tl, a->recv_row);

      g_assert_false (a->send_host == client && a->recv_host == db);
      g_assert_cmpfloat (a->uncertainty_ns, >, 0);
      g_assert_cmpfloat (a->uncertainty_ns, <, 200000);
      g_assert_cmpfloat ((double) (a->recv_view - a->send_view), >=, -a->uncertainty_ns);
      python_sends += a->send_host == client && g_str_equal (s.name, "python");
      apache_to_postgres += a->send_host == httpd && g_str_equal (s.name, "apache2") &&
                            a->recv_host == db && g_str_equal (r.name, "postgres");
    }
  g_assert_cmpuint (python_sends, >, 20);
  g_assert_cmpuint (apache_to_postgres, >, 5);

  sl_timeline_get_stats (l.tl, &st);
  if (g_test_verbose ())
    g_test_message ("%u rows, %" G_GUINT64_FORMAT " intervals, %.1f bytes each", st.rows, st.intervals,
                    (double) st.interval_bytes / (double) st.intervals);
  g_assert_cmpfloat ((double) st.interval_bytes / (double) st.intervals, <=, 32);

  check_queries (l.tl, rand, 20, 20);
  loaded_clear (&l);
}

/* @l's rows built again in @tl, its scratch area limited, are the same */
static void
rebuild_same (Loaded     *l,
              SlTimeline *tl,
              gsize       row_max,
              gsize       max)
{
  _sl_tl_scratch_set_limits (tl, row_max, max);
  for (guint i = 0; i < sl_trace_reader_get_n_hosts (l->reader); i++)
    sl_timeline_set_host (tl, sl_trace_reader_get_engine_host (l->reader, i),
                          sl_trace_reader_get_host_name (l->reader, i), sl_trace_reader_get_event_store (l->reader, i));
  g_assert_true (sl_timeline_update (tl));
  check_invariants (tl);
  cmp_rows (l->tl, tl);
}

/* Rows built from finished traces get arrays of their final size, each
 * written once outside the scratch area (their growth by realloc copied
 * each interval 2.4 times over, 70 % of building the rows); rows that
 * outgrow a small area, or grow when it is full, are the same rows. */
static void
test_sized_once (void)
{
  g_autofree char *tmp = make_tmpdir ();
  const char *folders[] = { tmp, NULL };
  SlGenerateOptions options;
  g_autoptr(SlGenerate) gen = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTimeline) small = sl_timeline_new ();
  SlTimelineStats st;
  guint64 exact = 0;
  Loaded l;

  sl_generate_options_init (&options);
  options.n_hosts = 2;
  options.duration_ns = G_GINT64_CONSTANT (1000000000);
  options.seed = 5;
  options.cpus = 2;
  options.background_rate = 800;
  gen = sl_generate_new (&options);
  g_assert_true (sl_generate_run (gen, tmp, NULL, &error));
  g_assert_no_error (error);
  loaded_init (&l, folders);

  for (guint r = 0; r < sl_timeline_get_n_rows (l.tl); r++)
    {
      guint64 n = row_info (l.tl, r).n_intervals;
      guint64 blocks = (n + SL_TL_BLOCK - 1) / SL_TL_BLOCK;

      exact += n * sizeof (SlTlIval) + blocks * (sizeof (SlTlBlock) + sizeof (gint64));
    }
  sl_timeline_get_stats (l.tl, &st);
  g_assert_cmpuint (st.intervals, >, 10000);
  g_assert_cmpuint (st.interval_bytes, ==, exact);
  g_assert_cmpuint (l.tl->interval_copy_bytes, ==, exact);

  /* rows of 4 kB at most in an area of 16 kB */
  rebuild_same (&l, small, 4096, 16384);
  g_assert_cmpuint (small->interval_copy_bytes, >, exact);
  g_clear_pointer (&small, sl_timeline_free);

  /* arrays grow fourfold in the area (each interval copied there less
   * than once, rather than about twice growing by half): the same rows as
   * without the area */
  g_assert_cmpuint (l.tl->scratch_copy_bytes, >, 0);
  g_assert_cmpuint (l.tl->scratch_copy_bytes, <=, exact);
  small = sl_timeline_new ();
  rebuild_same (&l, small, 0, 0);
  g_assert_cmpuint (small->scratch_copy_bytes, ==, 0);
  g_clear_pointer (&small, sl_timeline_free);
  loaded_clear (&l);
}

/* ---------------------------------------------------------------------- */
/* Starts stored as offsets from their block's                             */

typedef struct
{
  gint64  start;
  guint8  state;
  guint16 cpu;
  guint32 detail;
} RefIval;

/* _sl_tl_row_push()'s rules on a plain array of 64-bit starts */
static void
ref_push (GArray  *ref,
          gint64   t,
          guint8   state,
          guint16  cpu,
          guint32  detail)
{
  RefIval iv = { t, state, cpu, detail };
  RefIval *last = ref->len > 0 ? &g_array_index (ref, RefIval, ref->len - 1) : NULL;

#define SAME(x) ((x)->state == state && (x)->cpu == cpu && (x)->detail == detail)
  if (last != NULL && SAME (last))
    return;
  if (last != NULL && t <= last->start)
    {
      if (ref->len > 1 && SAME (&g_array_index (ref, RefIval, ref->len - 2)))
        g_array_set_size (ref, ref->len - 1);
      else
        last->state = state, last->cpu = cpu, last->detail = detail;
      return;
    }
#undef SAME
  g_array_append_val (ref, iv);
}

/* Time per state before @t, @ref's last interval ending at @end */
static void
ref_cum (GArray *ref,
         gint64  end,
         gint64  t,
         gint64  out[SL_TIMELINE_N_STATES])
{
  memset (out, 0, SL_TIMELINE_N_STATES * sizeof (gint64));
  for (guint i = 0; i < ref->len; i++)
    {
      const RefIval *a = &g_array_index (ref, RefIval, i);

      if (a->start >= t)
        break;
      out[a->state] += MIN (i + 1 < ref->len ? a[1].start : end, t) - a->start;
    }
}

static void
cmp_ref (SlTimeline *tl,
         guint       row,
         GArray     *ref,
         gint64      end,
         GRand      *rand)
{
  const RefIval *r0 = &g_array_index (ref, RefIval, 0);
  gint64 span = end - r0->start;

  g_assert_cmpuint (sl_timeline_get_n_intervals (tl, row), ==, ref->len);
  for (guint i = 0; i < ref->len; i++)
    {
      const RefIval *e = &g_array_index (ref, RefIval, i);
      SlTimelineInterval iv = interval (tl, row, i);

      g_assert_cmpint (iv.start, ==, e->start);
      g_assert_cmpint (iv.end, ==, i + 1 < ref->len ? e[1].start : end);
      g_assert_cmpuint (iv.state, ==, e->state);
      g_assert_cmpuint (iv.cpu, ==, e->cpu);
      g_assert_cmpuint (iv.detail, ==, e->detail);
      g_assert_cmpuint (sl_timeline_find_interval (tl, row, e->start), ==, i);
      if (i > 0)
        g_assert_cmpuint (sl_timeline_find_interval (tl, row, e->start - 1), ==, i - 1);
    }
  for (guint k = 0; k < 2000; k++)
    {
      gint64 t0 = r0->start + (gint64) (g_rand_double (rand) * (double) span);
      gint64 t1 = t0 + (gint64) (g_rand_double (rand) * (double) span / (k % 2 ? 1000 : 4));
      gint64 ns[SL_TIMELINE_N_STATES], a[SL_TIMELINE_N_STATES], b[SL_TIMELINE_N_STATES];

      sl_timeline_get_state_time (tl, row, t0, t1, ns);
      ref_cum (ref, end, MIN (t0, end), a);
      ref_cum (ref, end, MIN (t1, end), b);
      for (guint s = SL_TIMELINE_STATE_NONE + 1; s < SL_TIMELINE_N_STATES; s++)
        g_assert_cmpint (ns[s], ==, b[s] - a[s]);
    }
}

/* A row's starts are 40-bit offsets from its block's start, those further
 * in a side array: rows whose gaps reach 2^40 ns and beyond, with
 * inversions and merges, read the same starts, ends, states and times per
 * state as a plain array of 64-bit starts, also after their first blocks
 * are dropped. */
static void
test_offsets (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (23);
  g_autoptr(SlTimeline) tl = sl_timeline_new ();
  g_autoptr(GArray) ref = g_array_new (FALSE, FALSE, sizeof (RefIval));
  SlEventStore *store = sl_event_store_new ();
  const SlTlRow *r;
  SlTlHost *h;
  gint64 t = G_GINT64_CONSTANT (1700000000000000000);
  guint64 high = 0, dropped;
  guint row;

  /* a host that ends 1 µs after the row's last start */
  sl_timeline_set_host (tl, 0, "h", store);
  h = sl_tl_host (tl, 0);
  row = _sl_tl_row_new (tl, SL_TIMELINE_ROW_THREAD, 0, SL_TIMELINE_NONE, t);
  r = sl_tl_row (tl, row);

  for (guint i = 0; i < 6000; i++)
    {
      guint32 kind = g_rand_int_range (rand, 0, 100);
      guint8 state = (guint8) g_rand_int_range (rand, SL_TIMELINE_STATE_USER, SL_TIMELINE_STATE_IDLE);
      guint16 cpu = (guint16) g_rand_int_range (rand, 0, 3);
      guint32 detail = (guint32) g_rand_int_range (rand, 0, 2);

      if (kind < 5)
        t -= g_rand_int_range (rand, 0, 1000);
      else if (kind < 70)
        t += g_rand_int_range (rand, 1, 100000);
      else if (kind < 85)
        t += (gint64) g_rand_int_range (rand, 0, 1 << 20) << g_rand_int_range (rand, 12, 22);
      else if (kind < 95)
        t += ((gint64) 1 << 40) - 2 + g_rand_int_range (rand, 0, 4);
      else
        t += (gint64) 1 << g_rand_int_range (rand, 40, 50);
      _sl_tl_row_push (tl, (SlTlRow *) r, t, state, cpu, detail);
      ref_push (ref, t, state, cpu, detail);
      t = MAX (t, g_array_index (ref, RefIval, ref->len - 1).start);
    }
  _sl_tl_scratch_settle (tl);
  h->has_data = TRUE;
  h->first = g_array_index (ref, RefIval, 0).start;
  h->end = g_array_index (ref, RefIval, ref->len - 1).start + 1000;
  for (guint64 i = 0; i < r->n_iv; i++)
    high += r->iv[i].off_hi != 0 && r->iv[i].off_hi != 0xff;
  cmp_ref (tl, row, ref, h->end, rand);
  /* (offsets beyond 32 bits, and beyond 40) */
  g_assert_cmpuint (high, >, 100);
  g_assert_cmpuint (r->n_far, >, 100);

  dropped = _sl_tl_row_drop_before ((SlTlRow *) r, g_array_index (ref, RefIval, ref->len / 2).start);
  g_assert_cmpuint (dropped, >, 0);
  g_array_remove_range (ref, 0, (guint) dropped);
  cmp_ref (tl, row, ref, h->end, rand);
  g_clear_pointer (&tl, sl_timeline_free);
  sl_event_store_free (store);
}

/* ---------------------------------------------------------------------- */
/* Views: raw and synchronized spans are the same query                    */

static void
test_views (void)
{
  g_autofree char *dir = sl_test_data_path ("traces", "django-vote", NULL);
  const char *folders[] = { dir, NULL };
  SlTimelinePixel a[400], b[400];
  gint64 bounds[401];
  Loaded l;

  if (dir == NULL)
    return;

  loaded_init (&l, folders);
  for (guint r = 0; r < sl_timeline_get_n_rows (l.tl); r += 7)
    {
      SlTimelineRowInfo ri = row_info (l.tl, r);
      SlHostInfo hi = { 0 };
      SlTransform inv;
      gint64 v0, v1;

      if (ri.n_intervals < 10)
        continue;
      sl_engine_get_host_info (l.engine, ri.host, &hi);
      v0 = sl_transform_apply (&hi.to_reference, ri.first);
      v1 = sl_transform_apply (&hi.to_reference, ri.last);

      /* the stored view transform, the explicit one and explicit bounds */
      sl_timeline_query_row_view (l.tl, r, v0, v1, 400, a);
      sl_timeline_query_row_mapped (l.tl, r, &hi.to_reference, v0, v1, 400, b);
      g_assert_cmpmem (a, sizeof a, b, sizeof b);
      /* boundaries rounded to the ns may differ by one from
       * sl_transform_apply()'s: the shares, not the bits, must agree */
      sl_transform_invert (&hi.to_reference, &inv);
      for (guint k = 0; k <= 400; k++)
        bounds[k] = sl_transform_apply (&inv, pixel_bound (v0, v1, 400, k));
      sl_timeline_query_row_bounds (l.tl, r, bounds, 400, b);
      for (guint k = 0; k < 400; k++)
        {
          double width = (double) (bounds[k + 1] - bounds[k]);

          g_assert_cmpint (labs ((long) a[k].n_changes - (long) b[k].n_changes), <=, 1);
          for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
            g_assert_cmpfloat (fabs (a[k].fraction[s] - b[k].fraction[s]), <=, 2.5 / width + 1e-6);
        }
      g_assert_cmpint (sl_timeline_from_view (l.tl, ri.host, v0), ==, bounds[0]);

      /* raw: local spans */
      sl_timeline_clear_transforms (l.tl);
      sl_timeline_query_row_view (l.tl, r, ri.first, ri.last, 400, a);
      sl_timeline_query_row (l.tl, r, ri.first, ri.last, 400, b);
      g_assert_cmpmem (a, sizeof a, b, sizeof b);
      sl_timeline_sync_engine (l.tl, l.engine);
      sl_host_info_clear (&hi);
    }
  loaded_clear (&l);
}

/* The builder's thread (sl-timeline-builder.c) makes each message's arrow
 * once both its hosts are built, while the other hosts are read; the
 * matches come before, between and after the builds. What it made and
 * what _sl_tl_arrows_resolve() adds at the end must be what resolving
 * every match at once makes: the same lanes in the same order, each lane's
 * arrows in the same order (ties in send time in the matches' order), the
 * same counts, the same matches left waiting. */
static void
add_saved (SlTimeline   *tl,
           const GArray *matches,
           guint         from,
           guint         to)
{
  for (guint i = from; i < to; i++)
    {
      const Recorded *r = &g_array_index (matches, Recorded, i);

      sl_timeline_add_match (tl, &r->match, r->has_event ? &r->event : NULL);
    }
}

static void
cmp_arrows (SlTimeline *a,
            SlTimeline *b)
{
  g_assert_cmpuint (a->n_arrows, ==, b->n_arrows);
  g_assert_cmpuint (a->lanes->len, ==, b->lanes->len);
  for (guint i = 0; i < a->lanes->len; i++)
    {
      const SlTlLane *x = g_ptr_array_index (a->lanes, i), *y = g_ptr_array_index (b->lanes, i);

      g_assert_cmpuint (x->send_host, ==, y->send_host);
      g_assert_cmpuint (x->recv_host, ==, y->recv_host);
      g_assert_cmpuint (x->n, ==, y->n);
      g_assert_cmpuint (x->cap, ==, y->cap);
      g_assert_cmpint (x->min_delta, ==, y->min_delta);
      g_assert_cmpint (x->max_delta, ==, y->max_delta);
      g_assert_cmpmem (x->a, x->n * sizeof *x->a, y->a, y->n * sizeof *y->a);
    }
  g_assert_cmpuint (a->rows->len, ==, b->rows->len);
  for (guint r = 0; r < a->rows->len; r++)
    g_assert_cmpuint (sl_tl_row (a, r)->n_msgs, ==, sl_tl_row (b, r)->n_msgs);
  g_assert_cmpuint (a->conns->len, ==, b->conns->len);
  g_assert_cmpmem (a->conns->data, a->conns->len * sizeof (SlTimelineConnection), b->conns->data,
                   b->conns->len * sizeof (SlTimelineConnection));
  g_assert_cmpmem (a->pending->data, a->pending->len * g_array_get_element_size (a->pending), b->pending->data,
                   b->pending->len * g_array_get_element_size (b->pending));
}

static void
test_early_arrows (void)
{
  g_autofree char *tmp = make_tmpdir ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);
  g_autoptr(GArray) recorded = g_array_new (FALSE, FALSE, sizeof (Recorded));
  g_autoptr(GArray) matches = g_array_new (FALSE, FALSE, sizeof (Recorded));
  g_autoptr(SlTimeline) whole = sl_timeline_new ();
  g_autoptr(SlGenerate) gen = NULL;
  g_autoptr(GError) error = NULL;
  SlGenerateOptions options;
  SlEngineOptions eo;
  SlTraceReaderOptions ro;
  g_autoptr(SlEngine) engine = NULL;
  g_autoptr(SlTraceReader) reader = NULL;
  guint n_hosts, n_real;
  gint64 end;

  sl_generate_options_init (&options);
  options.n_hosts = 4;
  options.duration_ns = G_GINT64_CONSTANT (1000000000);
  options.seed = 7;
  options.cpus = 2;
  options.background_rate = 400;
  gen = sl_generate_new (&options);
  g_assert_true (sl_generate_run (gen, tmp, NULL, &error));
  g_assert_no_error (error);
  sl_engine_options_init (&eo);
  engine = sl_engine_new (&eo);
  sl_engine_set_match_func (engine, record_cb, recorded);
  sl_trace_reader_options_init (&ro);
  ro.keep_events = TRUE;
  reader = sl_trace_reader_new (engine, &ro);
  sl_trace_reader_add_folder (reader, tmp);
  g_assert_cmpint (sl_trace_reader_run (reader), ==, SL_TRACE_READER_DONE);
  sl_engine_set_match_func (engine, NULL, NULL);
  /* (a copy: nothing the engine may still call changes it) */
  g_array_append_vals (matches, recorded->data, recorded->len);
  n_hosts = sl_trace_reader_get_n_hosts (reader);
  n_real = matches->len;
  g_assert_cmpuint (n_hosts, ==, 4);
  g_assert_cmpuint (n_real, >, 500);

  /* ties: a copy of every 7th match received 1 ns later (a lane sorts by
   * send time; equal ones stay in the matches' order); and a match sent
   * after its host's last event, whose end is never known */
  for (guint i = 0; i < n_real; i += 7)
    {
      Recorded sm = g_array_index (matches, Recorded, i);

      sm.match.recv_time++;
      g_array_insert_val (matches, MIN (matches->len, i + 1 + (guint) g_rand_int_range (rand, 0, 40)), sm);
    }
  sl_timeline_add_reader_hosts (whole, reader);
  g_assert_true (sl_timeline_update (whole));
  {
    Recorded sm = g_array_index (matches, Recorded, matches->len / 3);

    g_assert_true (sl_timeline_get_time_range (whole, sm.match.send_host, NULL, &end));
    sm.match.send_time = end + 1000;
    g_array_insert_val (matches, matches->len / 3, sm);
  }
  add_saved (whole, matches, 0, matches->len);
  g_assert_true (sl_timeline_update (whole));
  g_assert_cmpuint (whole->pending->len, ==, 1);

  /* the hosts built in the engine's order (as the builder does: the rows'
   * numbers follow), the matches coming in uneven slices between them; the
   * last hosts left to the end in some passes (as hosts not handed over
   * yet: their lanes are made there, between the builder's) */
  for (guint pass = 0; pass < 4; pass++)
    {
      g_autoptr(SlTimeline) early = sl_timeline_new ();
      guint next = 0;
      guint64 made = 0;

      sl_timeline_add_reader_hosts (early, reader);
      for (guint h = 0; h < n_hosts - pass % 3; h++)
        {
          guint to = MIN (matches->len, next + (guint) g_rand_int_range (rand, 0, (gint32) (matches->len / 3)));

          add_saved (early, matches, next, to);
          next = to;
          if (g_rand_boolean (rand))
            _sl_tl_arrows_take_new (early);
          sl_timeline_update_host (early, h);
          _sl_tl_arrows_host_built (early, h);
        }
      add_saved (early, matches, next, matches->len);
      _sl_tl_arrows_take_new (early);
      /* (the builder's thread made most of them) */
      for (guint r = 0; r < early->rows->len; r++)
        made += sl_tl_row (early, r)->n_msgs;
      g_assert_cmpuint (made, >, pass % 3 == 0 ? matches->len : matches->len / 10);
      g_assert_cmpuint (early->n_arrows, ==, 0);
      g_assert_true (sl_timeline_update (early));
      cmp_arrows (early, whole);
    }
  rm_rf (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline/states", test_states);
  g_test_add_func ("/timeline/piecewise-view", test_piecewise_view);
  g_test_add_func ("/timeline/generated", test_generated);
  g_test_add_func ("/timeline/decoded", test_decoded);
  g_test_add_func ("/timeline/incremental", test_incremental);
  g_test_add_func ("/timeline/sized-once", test_sized_once);
  g_test_add_func ("/timeline/offsets", test_offsets);
  g_test_add_func ("/timeline/ties", test_ties);
  g_test_add_func ("/timeline/early-arrows", test_early_arrows);
  g_test_add_func ("/timeline/django-vote", test_django);
  g_test_add_func ("/timeline/views", test_views);

  return g_test_run ();
}
