/* sl-timeline-stats.c: counts, time per state, latency distributions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-compare.h"
#include "sl-timeline-private.h"
#include "sl-timeline-stats.h"

/* First event of @stream in [0, n) whose time on the view's clock is at or
 * after @t (the host's map is monotonic) */
static guint64
view_lower_bound (const SlTimeline   *self,
                  guint               host,
                  const SlEventStore *store,
                  SlEventStream       stream,
                  guint64             n,
                  gint64              t)
{
  guint64 lo = MIN (sl_event_store_get_first_index (store, stream), n), hi = n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (sl_timeline_to_view (self, host, sl_event_store_get (store, stream, mid)->time) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint64
sl_timeline_count_events (const SlTimeline *self,
                          gint64            t0,
                          gint64            t1)
{
  guint64 count = 0;

  g_return_val_if_fail (self != NULL, 0);

  if (t1 <= t0)
    return 0;
  for (guint h = 0; h < self->hosts->len; h++)
    {
      const SlTlHost *th = sl_tl_host (self, h);

      if (th == NULL || th->store == NULL)
        continue;
      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        {
          guint64 n = MIN (sl_event_store_get_n_events (th->store, s), th->consumed[s]);

          count += view_lower_bound (self, h, th->store, s, n, t1) - view_lower_bound (self, h, th->store, s, n, t0);
        }
    }
  return count;
}

static gboolean
is_running (guint state)
{
  return state == SL_TIMELINE_STATE_USER || state == SL_TIMELINE_STATE_SYSCALL ||
         state == SL_TIMELINE_STATE_IRQ || state == SL_TIMELINE_STATE_SOFTIRQ;
}

static int
stat_cmp (gconstpointer a,
          gconstpointer b)
{
  const SlTimelineStateStat *x = a, *y = b;

  if (x->run_ns != y->run_ns)
    return x->run_ns > y->run_ns ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

GArray *
sl_timeline_dup_state_stats (const SlTimeline  *self,
                             gint64             t0,
                             gint64             t1,
                             SlTimelineRowKind  kind)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (SlTimelineStateStat));

  g_return_val_if_fail (self != NULL, out);
  g_return_val_if_fail (kind == SL_TIMELINE_ROW_THREAD || kind == SL_TIMELINE_ROW_PROCESS, out);

  if (t1 <= t0)
    return out;
  for (guint row = 0; row < self->rows->len; row++)
    {
      const SlTlRow *r = sl_tl_row (self, row);
      gint64 l0, l1, span;
      SlTimelineStateStat st = { 0 };
      gboolean any = FALSE;

      if (r->kind != kind)
        continue;
      l0 = sl_timeline_from_view (self, r->host, t0);
      l1 = sl_timeline_from_view (self, r->host, t1);
      span = l1 - l0;
      if (span <= 0)
        continue;
      st.row = row;
      if (kind == SL_TIMELINE_ROW_THREAD)
        {
          sl_timeline_get_state_time (self, row, l0, l1, st.ns);
          any = st.ns[SL_TIMELINE_STATE_NONE] < span;
        }
      else
        for (guint i = 0; r->children != NULL && i < r->children->len; i++)
          {
            gint64 ns[SL_TIMELINE_N_STATES];

            sl_timeline_get_state_time (self, g_array_index (r->children, guint, i), l0, l1, ns);
            for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
              st.ns[s] += ns[s];
            any |= ns[SL_TIMELINE_STATE_NONE] < span;
          }
      if (!any)
        continue;
      for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
        if (is_running (s))
          st.run_ns += st.ns[s];
      g_array_append_val (out, st);
    }
  g_array_sort (out, stat_cmp);
  return out;
}

/* the k-th smallest (1-based) for rank ⌈q n⌉, q = num / den */
static gint64
nearest_rank (const gint64 *sorted,
              guint64       n,
              guint64       num,
              guint64       den)
{
  guint64 k = (num * n + den - 1) / den;

  return sorted[MAX (k, 1) - 1];
}

void
sl_timeline_latency_stat_init (SlTimelineLatencyStat *out,
                               gint64                *latencies,
                               guint64                n)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (latencies != NULL || n == 0);

  out->count = n;
  memset (out->bins, 0, sizeof out->bins);
  if (n == 0)
    {
      out->min_ns = out->median_ns = out->p99_ns = out->max_ns = 0;
      out->bin_ns = 1;
      return;
    }
  qsort (latencies, n, sizeof (gint64), sl_compare_gint64);
  out->min_ns = latencies[0];
  out->max_ns = latencies[n - 1];
  out->median_ns = nearest_rank (latencies, n, 1, 2);
  out->p99_ns = nearest_rank (latencies, n, 99, 100);
  /* (in 128 bits: latencies between hosts of no common clock can be
   * anything) */
  out->bin_ns = (gint64) MAX (((__int128) out->max_ns - out->min_ns) / SL_TIMELINE_LATENCY_BINS + 1, 1);
  for (guint64 i = 0; i < n; i++)
    out->bins[MIN ((guint64) (((__int128) latencies[i] - out->min_ns) / out->bin_ns),
                   (guint64) SL_TIMELINE_LATENCY_BINS - 1)]++;
}

static int
latency_cmp (gconstpointer a,
             gconstpointer b)
{
  const SlTimelineLatencyStat *x = a, *y = b;

  if (x->send_host != y->send_host)
    return x->send_host < y->send_host ? -1 : 1;
  return x->recv_host < y->recv_host ? -1 : x->recv_host > y->recv_host;
}

GArray *
sl_timeline_dup_latency_stats (const SlTimeline *self,
                               gint64            t0,
                               gint64            t1)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (SlTimelineLatencyStat));
  g_autoptr(GArray) lat = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_return_val_if_fail (self != NULL, out);

  if (t1 <= t0)
    return out;
  for (guint li = 0; li < self->lanes->len; li++)
    {
      const SlTlLane *l = g_ptr_array_index (self->lanes, li);
      SlTimelineLatencyStat st = { 0 };
      guint64 lo = 0, hi = l->n;
      gint64 ls0;

      if (l->n == 0)
        continue;
      /* the first send at or after t0 on the view's clock, a little before
       * in local time (the maps round) */
      ls0 = sl_timeline_from_view (self, l->send_host, t0) - 2;
      while (lo < hi)
        {
          guint64 mid = lo + (hi - lo) / 2;

          if (l->a[mid].send_time < ls0)
            lo = mid + 1;
          else
            hi = mid;
        }
      g_array_set_size (lat, 0);
      for (guint64 k = lo; k < l->n; k++)
        {
          gint64 sv = sl_timeline_to_view (self, l->send_host, l->a[k].send_time), d;

          if (sv >= t1)
            break;
          if (sv < t0)
            continue;
          d = sl_timeline_to_view (self, l->recv_host, l->a[k].recv_time) - sv;
          g_array_append_val (lat, d);
        }
      if (lat->len == 0)
        continue;
      st.send_host = l->send_host;
      st.recv_host = l->recv_host;
      sl_timeline_latency_stat_init (&st, (gint64 *) (gpointer) lat->data, lat->len);
      g_array_append_val (out, st);
    }
  g_array_sort (out, latency_cmp);
  return out;
}
