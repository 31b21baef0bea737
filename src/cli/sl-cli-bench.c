/* sl-cli-bench.c: syncline-cli bench hull
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-cli.h"
#include "sl-hull.h"
#include "sl-matcher.h"

#define CHUNK 65536

/* A long two-host TCP exchange: host 1's clock is 2 h ahead and 40 ppm
 * fast; one-way latency 30 µs plus an exponential delay. Events are made
 * a chunk at a time outside the timed sections. */
typedef struct
{
  GRand  *rand;
  gint64  t;
  guint32 seq[2];
  guint64 n;
} Stream;

static void
stream_fill (Stream        *s,
             SlPacketEvent *ev,
             SlMatch       *m,
             guint          n)
{
  for (guint i = 0; i < n; i++)
    {
      int dir = g_rand_boolean (s->rand) ? 1 : 0;
      gint64 lat = 30000 + (gint64) (-log1p (-g_rand_double (s->rand)) * 20000.0);
      gint64 send_true = s->t, recv_true = s->t + lat;
      gint64 local[2][2];
      SlPacketEvent *snd = &ev[2 * i], *rcv = &ev[2 * i + 1];

      for (int h = 0; h < 2; h++)
        for (int k = 0; k < 2; k++)
          {
            gint64 tt = k == 0 ? send_true : recv_true;
            local[h][k] = h == 0 ? tt : tt + G_GINT64_CONSTANT (7200000000000) +
                                        (gint64) ((double) (tt - G_GINT64_CONSTANT (1700000000000000000)) * 40e-6);
          }

      *snd = (SlPacketEvent) { 0 };
      snd->host = (guint32) dir;
      snd->dir = SL_PACKET_SEND;
      snd->time = local[dir][0];
      snd->family = 4;
      snd->saddr[0] = 10;
      snd->saddr[3] = (guint8) (dir + 1);
      snd->daddr[0] = 10;
      snd->daddr[3] = (guint8) (2 - dir);
      snd->sport = dir ? 5432 : 40000;
      snd->dport = dir ? 40000 : 5432;
      snd->seq = s->seq[dir];
      snd->ack_seq = s->seq[1 - dir];
      snd->flags = 0x18;
      s->seq[dir] += 1 + (guint32) g_rand_int_range (s->rand, 0, 1448);

      *rcv = *snd;
      rcv->host = (guint32) (1 - dir);
      rcv->dir = SL_PACKET_RECV;
      rcv->time = local[1 - dir][1];

      m[i].send_host = (guint32) dir;
      m[i].recv_host = (guint32) (1 - dir);
      m[i].send_time = snd->time;
      m[i].recv_time = rcv->time;

      s->t += 5000 + g_rand_int_range (s->rand, 0, 10000);
      s->n++;
    }
}

int
sl_cli_bench_hull (guint64  packets,
                   guint64  seed,
                   gboolean json)
{
  SlPacketEvent *ev = g_new (SlPacketEvent, 2 * CHUNK);
  SlMatch *m = g_new (SlMatch, CHUNK);
  Stream s = { 0 };
  SlMatcher *matcher = sl_matcher_new (G_GINT64_CONSTANT (2000000000), 1 << 16);
  SlHull *hull_a = sl_hull_new (0), *hull_b = sl_hull_new (0);
  guint64 done = 0, matched = 0;
  gint64 t_full = 0, t_hull = 0;
  SlHullResult r;
  SlMatcherStats st;

  s.rand = g_rand_new_with_seed ((guint32) seed);
  s.t = G_GINT64_CONSTANT (1700000000000000000);

  while (done < packets)
    {
      guint n = (guint) MIN ((guint64) CHUNK, packets - done);
      gint64 t0;

      stream_fill (&s, ev, m, n);

      t0 = g_get_monotonic_time ();
      for (guint i = 0; i < 2 * n; i++)
        {
          SlMatch mm;
          if (sl_matcher_push (matcher, &ev[i], ev[i].time, &mm))
            {
              matched++;
              if (mm.send_host == 0)
                sl_hull_add (hull_a, TRUE, mm.send_time, mm.recv_time);
              else
                sl_hull_add (hull_a, FALSE, mm.recv_time, mm.send_time);
            }
        }
      t_full += g_get_monotonic_time () - t0;

      t0 = g_get_monotonic_time ();
      for (guint i = 0; i < n; i++)
        {
          /* selects, not branches: the direction is random */
          gboolean ab = m[i].send_host == 0;
          gint64 ta = ab ? m[i].send_time : m[i].recv_time;
          gint64 tb = ab ? m[i].recv_time : m[i].send_time;

          sl_hull_add (hull_b, ab, ta, tb);
        }
      t_hull += g_get_monotonic_time () - t0;

      done += n;
    }

  sl_hull_get_result (hull_b, &r);
  sl_matcher_get_stats (matcher, &st);

  if (json)
    g_print ("{\"packets\": %" G_GUINT64_FORMAT ", \"ns_per_packet\": %.2f, "
             "\"hull_only_ns_per_packet\": %.2f, \"peak_rss_kb\": %ld, "
             "\"matched\": %" G_GUINT64_FORMAT ", \"accurate_packets\": %" G_GUINT64_FORMAT ", "
             "\"quality\": \"%s\", \"matcher_pending\": %" G_GSIZE_FORMAT "}\n",
             packets, (double) t_full * 1e3 / (double) packets,
             (double) t_hull * 1e3 / (double) packets, sl_cli_peak_rss_kb (),
             matched, r.accurate_packets, sl_quality_to_string (r.quality), st.pending);
  else
    g_print ("packets               %" G_GUINT64_FORMAT "\n"
             "matcher + hull        %.2f ns/packet\n"
             "hull alone            %.2f ns/packet\n"
             "matched               %" G_GUINT64_FORMAT "\n"
             "accurate packets      %" G_GUINT64_FORMAT " (%s, accuracy %.3g)\n"
             "matcher pending       %" G_GSIZE_FORMAT " (capacity %" G_GSIZE_FORMAT ")\n"
             "peak resident memory  %ld kB\n",
             packets, (double) t_full * 1e3 / (double) packets,
             (double) t_hull * 1e3 / (double) packets, matched, r.accurate_packets,
             sl_quality_to_string (r.quality), r.accuracy, st.pending, st.capacity,
             sl_cli_peak_rss_kb ());

  sl_hull_free (hull_a);
  sl_hull_free (hull_b);
  sl_matcher_free (matcher);
  g_rand_free (s.rand);
  g_free (ev);
  g_free (m);
  return 0;
}
