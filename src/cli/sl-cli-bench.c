/* sl-cli-bench.c: syncline-cli bench hull
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <time.h>

#include "sl-cli.h"
#include "sl-hull.h"
#include "sl-matcher.h"
#include "sl-rng.h"
#include "sl-segments.h"

#define CHUNK 65536

/* A long two-host TCP exchange: host 1's clock is 2 h ahead, 40 ppm fast
 * and wanders by 1 ppm over an hour; one-way latency 30 µs plus an
 * exponential delay; packets every gap_ns on average (10 µs by default).
 * Events are made a chunk at a time outside the timed sections. */
typedef struct
{
  SlRng   rng;
  gint64  t;
  gint64  t0;
  double  gap_ns;
  guint32 seq[2];
  guint64 n;
} Stream;

static gint64
host1_time (const Stream *s,
            gint64        tt)
{
  double d = (double) (tt - s->t0);
  double w = sin (G_PI * d / 3.6e12);

  return tt + G_GINT64_CONSTANT (7200000000000) + (gint64) (d * 40e-6 + 1e-6 * 3.6e12 / G_PI * w * w);
}

static void
stream_fill (Stream        *s,
             SlPacketEvent *ev,
             SlMatch       *m,
             guint          n)
{
  for (guint i = 0; i < n; i++)
    {
      int dir = (int) sl_rng_below (&s->rng, 2);
      gint64 lat = 30000 + sl_rng_exp (&s->rng, 20000.0);
      gint64 send_true = s->t, recv_true = s->t + lat;
      gint64 local[2][2];
      SlPacketEvent *snd = &ev[2 * i], *rcv = &ev[2 * i + 1];

      for (int h = 0; h < 2; h++)
        for (int k = 0; k < 2; k++)
          {
            gint64 tt = k == 0 ? send_true : recv_true;
            local[h][k] = h == 0 ? tt : host1_time (s, tt);
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
      s->seq[dir] += 1 + sl_rng_below (&s->rng, 1448);

      *rcv = *snd;
      rcv->host = (guint32) (1 - dir);
      rcv->dir = SL_PACKET_RECV;
      rcv->time = local[1 - dir][1];

      m[i].send_host = (guint32) dir;
      m[i].recv_host = (guint32) (1 - dir);
      m[i].send_time = snd->time;
      m[i].recv_time = rcv->time;

      s->t += (gint64) (s->gap_ns * (0.5 + sl_rng_double (&s->rng)));
      s->n++;
    }
}

/* A match as the engine hands it to its link (host 0 is a): a → b or
 * b → a, with a's and b's times. Without a branch: the direction is
 * random, and a branch here would be mispredicted every other packet and
 * counted against the estimator. */
static inline gboolean
orient (const SlMatch *m,
        gint64        *t_a,
        gint64        *t_b)
{
  const gint64 t[2] = { m->send_time, m->recv_time };
  guint ab = m->send_host == 0;

  *t_a = t[ab ^ 1];
  *t_b = t[ab];
  return ab;
}

/* Both clocks of a timed section: the wall clock, and the thread's CPU
 * time, which leaves out the time the thread waited for a core (the only
 * figure that means something on a loaded machine). */
typedef struct
{
  gint64 wall;
  gint64 cpu;
} Lap;

static gint64
cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
lap_start (Lap *l)
{
  l->wall -= g_get_monotonic_time () * 1000;
  l->cpu -= cpu_ns ();
}

static void
lap_stop (Lap *l)
{
  l->wall += g_get_monotonic_time () * 1000;
  l->cpu += cpu_ns ();
}

/**
 * sl_cli_bench_hull:
 * @span_s: the stream's length in seconds (0: 10 µs between packets)
 *
 * What the engine runs per packet: the matcher and the link's windowed
 * estimator (SlSegments: a raw hull per window, the suffix hull, the
 * checkpoints); also the estimator alone and, for comparison, the plain
 * single hull alone.
 */
int
sl_cli_bench_hull (guint64  packets,
                   guint64  seed,
                   double   span_s,
                   gboolean json)
{
  SlPacketEvent *ev = g_new (SlPacketEvent, 2 * CHUNK);
  SlMatch *m = g_new (SlMatch, CHUNK);
  Stream s = { 0 };
  SlMatcher *matcher = sl_matcher_new (G_GINT64_CONSTANT (2000000000), 1 << 16);
  SlMatcher *matcher_d = sl_matcher_new (G_GINT64_CONSTANT (2000000000), 1 << 16);
  SlSegments *seg_a = sl_segments_new (NULL), *seg_b = sl_segments_new (NULL);
  SlHull *hull_c = sl_hull_new (0);
  guint64 done = 0, matched = 0, matched_d = 0;
  Lap t_full = { 0 }, t_match = { 0 }, t_seg = { 0 }, t_hull = { 0 };
  double per;
  SlHullResult r;
  SlMatcherStats st;
  guint windows;
  gsize seg_memory;

  sl_rng_init (&s.rng, seed, 0);
  s.t = s.t0 = G_GINT64_CONSTANT (1700000000000000000);
  s.gap_ns = span_s > 0 ? span_s * 1e9 / (double) packets : 10000;

  while (done < packets)
    {
      guint n = (guint) MIN ((guint64) CHUNK, packets - done);
      stream_fill (&s, ev, m, n);

      lap_start (&t_full);
      for (guint i = 0; i < 2 * n; i++)
        {
          SlMatch mm;
          gint64 ta, tb;

          if (sl_matcher_push (matcher, &ev[i], ev[i].time, &mm))
            {
              gboolean ab = orient (&mm, &ta, &tb);

              matched++;
              sl_segments_add (seg_a, ab, ta, tb);
            }
        }
      lap_stop (&t_full);

      lap_start (&t_match);
      for (guint i = 0; i < 2 * n; i++)
        {
          SlMatch mm;
          matched_d += sl_matcher_push (matcher_d, &ev[i], ev[i].time, &mm);
        }
      lap_stop (&t_match);

      lap_start (&t_seg);
      for (guint i = 0; i < n; i++)
        {
          gint64 ta, tb;
          gboolean ab = orient (&m[i], &ta, &tb);

          sl_segments_add (seg_b, ab, ta, tb);
        }
      lap_stop (&t_seg);

      lap_start (&t_hull);
      for (guint i = 0; i < n; i++)
        {
          gint64 ta, tb;
          gboolean ab = orient (&m[i], &ta, &tb);

          sl_hull_add (hull_c, ab, ta, tb);
        }
      lap_stop (&t_hull);

      done += n;
    }

  if (matched_d != matched)
    g_printerr ("the two matchers disagree: %" G_GUINT64_FORMAT " against %" G_GUINT64_FORMAT " matches\n",
                matched_d, matched);
  sl_segments_get_result (seg_b, &r);
  sl_matcher_get_stats (matcher, &st);
  windows = sl_segments_get_n_windows (seg_a);
  seg_memory = sl_segments_get_memory (seg_a);

  per = (double) packets;
  if (json)
    g_print ("{\"packets\": %" G_GUINT64_FORMAT ", \"span_s\": %.1f, \"ns_per_packet\": %.2f, "
             "\"matcher_only_ns_per_packet\": %.2f, "
             "\"estimator_only_ns_per_packet\": %.2f, \"hull_only_ns_per_packet\": %.2f, "
             "\"cpu_ns_per_packet\": %.2f, \"matcher_only_cpu_ns_per_packet\": %.2f, "
             "\"estimator_only_cpu_ns_per_packet\": %.2f, "
             "\"hull_only_cpu_ns_per_packet\": %.2f, "
             "\"peak_rss_kb\": %ld, \"windows\": %u, \"estimator_bytes\": %" G_GSIZE_FORMAT ", "
             "\"matched\": %" G_GUINT64_FORMAT ", \"accurate_packets\": %" G_GUINT64_FORMAT ", "
             "\"quality\": \"%s\", \"matcher_pending\": %" G_GSIZE_FORMAT "}\n",
             packets, (double) (s.t - s.t0) / 1e9, (double) t_full.wall / per,
             (double) t_match.wall / per, (double) t_seg.wall / per, (double) t_hull.wall / per,
             (double) t_full.cpu / per, (double) t_match.cpu / per, (double) t_seg.cpu / per,
             (double) t_hull.cpu / per,
             sl_cli_peak_rss_kb (), windows, seg_memory,
             matched, r.accurate_packets, sl_quality_to_string (r.quality), st.pending);
  else
    g_print ("packets                    %" G_GUINT64_FORMAT " over %.1f s\n"
             "                           wall       CPU (ns/packet)\n"
             "matcher + estimator        %-10.2f %.2f\n"
             "matcher alone              %-10.2f %.2f\n"
             "estimator alone            %-10.2f %.2f (%u windows, %" G_GSIZE_FORMAT " bytes)\n"
             "plain hull alone           %-10.2f %.2f\n"
             "matched                    %" G_GUINT64_FORMAT "\n"
             "accurate packets           %" G_GUINT64_FORMAT " (%s)\n"
             "matcher pending            %" G_GSIZE_FORMAT " (capacity %" G_GSIZE_FORMAT ")\n"
             "peak resident memory       %ld kB\n",
             packets, (double) (s.t - s.t0) / 1e9, (double) t_full.wall / per, (double) t_full.cpu / per,
             (double) t_match.wall / per, (double) t_match.cpu / per,
             (double) t_seg.wall / per, (double) t_seg.cpu / per, windows, seg_memory,
             (double) t_hull.wall / per, (double) t_hull.cpu / per, matched, r.accurate_packets,
             sl_quality_to_string (r.quality), st.pending, st.capacity, sl_cli_peak_rss_kb ());

  sl_segments_free (seg_a);
  sl_segments_free (seg_b);
  sl_hull_free (hull_c);
  sl_matcher_free (matcher);
  sl_matcher_free (matcher_d);
  g_free (ev);
  g_free (m);
  return 0;
}
