/* test-matcher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-matcher.h"

static SlPacketEvent
make_event (guint32     host,
            SlPacketDir dir,
            gint64      time,
            guint32     seq)
{
  SlPacketEvent ev;

  memset (&ev, 0, sizeof ev);
  ev.host = host;
  ev.dir = dir;
  ev.time = time;
  ev.seq = seq;
  ev.ack_seq = seq ^ 0x5a5a5a5a;
  ev.flags = 0x10;

  return ev;
}

static SlPacketEvent
make_event4 (guint32     host,
             SlPacketDir dir,
             gint64      time,
             guint32     seq,
             guint16     sport,
             guint16     dport)
{
  static const guint8 src[4] = { 10, 0, 0, 1 };
  static const guint8 dst[4] = { 10, 0, 0, 2 };
  SlPacketEvent ev = make_event (host, dir, time, seq);

  ev.family = 4;
  ev.sport = sport;
  ev.dport = dport;
  memcpy (ev.saddr, src, 4);
  memcpy (ev.daddr, dst, 4);

  return ev;
}

static SlPacketEvent
make_event6 (guint32     host,
             SlPacketDir dir,
             gint64      time,
             guint32     seq,
             guint8      last_daddr_byte)
{
  SlPacketEvent ev = make_event (host, dir, time, seq);

  ev.family = 6;
  ev.sport = 40000;
  ev.dport = 22;
  for (guint i = 0; i < 16; i++)
    {
      ev.saddr[i] = 0x20 + i;
      ev.daddr[i] = 0x20 + i;
    }
  ev.saddr[15] = 1;
  ev.daddr[15] = last_daddr_byte;

  return ev;
}

static void
assert_invariants (const SlMatcherStats *st,
                   gsize                 max_pending)
{
  guint64 accounted = 2 * st->matched + st->duplicates + st->same_host + st->expired;

  g_assert_cmpuint (st->pending, <=, max_pending);
  g_assert_cmpuint (st->pushed, >=, accounted);
  /* What is left over are the events still waiting in a table. */
  g_assert_cmpuint (st->pushed - accounted, <=, st->pending);
}

static void
test_matcher_no_addresses (void)
{
  SlMatcher *m = sl_matcher_new (0, 64);
  SlPacketEvent ev;
  SlMatcherStats st;
  SlMatch match;

  ev = make_event (0, SL_PACKET_SEND, 1000, 42);
  g_assert_false (sl_matcher_push (m, &ev, 1000, &match));

  /* different seq: no match */
  ev = make_event (1, SL_PACKET_RECV, 5000, 43);
  g_assert_false (sl_matcher_push (m, &ev, 1001, &match));

  ev = make_event (1, SL_PACKET_RECV, 5000, 42);
  g_assert_true (sl_matcher_push (m, &ev, 1002, &match));
  g_assert_cmpuint (match.send_host, ==, 0);
  g_assert_cmpuint (match.recv_host, ==, 1);
  g_assert_cmpint (match.send_time, ==, 1000);
  g_assert_cmpint (match.recv_time, ==, 5000);

  /* same seq, other ack: another packet */
  ev = make_event (0, SL_PACKET_SEND, 2000, 7);
  ev.ack_seq = 1;
  g_assert_false (sl_matcher_push (m, &ev, 2000, &match));
  ev = make_event (1, SL_PACKET_RECV, 6000, 7);
  ev.ack_seq = 2;
  g_assert_false (sl_matcher_push (m, &ev, 2001, &match));

  /* other flags: another packet */
  ev = make_event (1, SL_PACKET_RECV, 6000, 7);
  ev.ack_seq = 1;
  ev.flags = 0x18;
  g_assert_false (sl_matcher_push (m, &ev, 2002, &match));

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.pushed, ==, 6);
  g_assert_cmpuint (st.matched, ==, 1);
  g_assert_cmpuint (st.pending, ==, 5);
  g_assert_cmpuint (st.duplicates, ==, 0);
  g_assert_cmpuint (st.same_host, ==, 0);

  sl_matcher_free (m);
}

static void
test_matcher_receive_first (void)
{
  SlMatcher *m = sl_matcher_new (0, 64);
  SlPacketEvent ev;
  SlMatch match;

  /* the receiver's clock is hours ahead and its trace is read first */
  ev = make_event4 (3, SL_PACKET_RECV, G_GINT64_CONSTANT (1400000000000000000) + 3 * 3600 * G_GINT64_CONSTANT (1000000000),
                    99, 1234, 80);
  g_assert_false (sl_matcher_push (m, &ev, 0, &match));

  ev = make_event4 (2, SL_PACKET_SEND, G_GINT64_CONSTANT (1400000000000000000), 99, 1234, 80);
  g_assert_true (sl_matcher_push (m, &ev, 1, &match));
  g_assert_cmpuint (match.send_host, ==, 2);
  g_assert_cmpuint (match.recv_host, ==, 3);
  g_assert_cmpint (match.send_time, ==, G_GINT64_CONSTANT (1400000000000000000));
  g_assert_cmpint (match.recv_time - match.send_time, ==, 3 * 3600 * G_GINT64_CONSTANT (1000000000));

  /* NULL match is allowed */
  ev = make_event4 (2, SL_PACKET_SEND, 10, 100, 1234, 80);
  g_assert_false (sl_matcher_push (m, &ev, 2, NULL));
  ev = make_event4 (3, SL_PACKET_RECV, 20, 100, 1234, 80);
  g_assert_true (sl_matcher_push (m, &ev, 3, NULL));

  sl_matcher_free (m);
}

static void
test_matcher_ipv4_keys (void)
{
  SlMatcher *m = sl_matcher_new (0, 64);
  SlPacketEvent ev;
  SlMatcherStats st;
  SlMatch match;

  ev = make_event4 (0, SL_PACKET_SEND, 1, 5, 1000, 2000);
  g_assert_false (sl_matcher_push (m, &ev, 1, &match));

  /* other port, other address, no address: all different packets */
  ev = make_event4 (1, SL_PACKET_RECV, 2, 5, 1001, 2000);
  g_assert_false (sl_matcher_push (m, &ev, 2, &match));
  ev = make_event4 (1, SL_PACKET_RECV, 2, 5, 1000, 2001);
  g_assert_false (sl_matcher_push (m, &ev, 2, &match));
  ev = make_event4 (1, SL_PACKET_RECV, 2, 5, 1000, 2000);
  ev.daddr[3] = 3;
  g_assert_false (sl_matcher_push (m, &ev, 2, &match));
  ev = make_event (1, SL_PACKET_RECV, 2, 5);
  g_assert_false (sl_matcher_push (m, &ev, 2, &match));

  /* bytes past an IPv4 address do not belong to the key */
  ev = make_event4 (1, SL_PACKET_RECV, 3, 5, 1000, 2000);
  ev.saddr[7] = 0xee;
  ev.daddr[12] = 0xff;
  g_assert_true (sl_matcher_push (m, &ev, 3, &match));
  g_assert_cmpint (match.send_time, ==, 1);
  g_assert_cmpint (match.recv_time, ==, 3);

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.matched, ==, 1);
  g_assert_cmpuint (st.pending, ==, 5);

  sl_matcher_free (m);
}

static void
test_matcher_ipv6_keys (void)
{
  SlMatcher *m = sl_matcher_new (0, 64);
  SlPacketEvent ev;
  SlMatcherStats st;
  SlMatch match;

  ev = make_event6 (0, SL_PACKET_SEND, 100, 1, 2);
  g_assert_false (sl_matcher_push (m, &ev, 100, &match));

  /* differs in the last address byte only */
  ev = make_event6 (1, SL_PACKET_RECV, 200, 1, 3);
  g_assert_false (sl_matcher_push (m, &ev, 101, &match));

  /* same low bytes as an IPv4 key but IPv6 */
  ev = make_event6 (1, SL_PACKET_RECV, 200, 1, 2);
  ev.saddr[14] = 0x99;
  g_assert_false (sl_matcher_push (m, &ev, 102, &match));

  ev = make_event6 (1, SL_PACKET_RECV, 300, 1, 2);
  g_assert_true (sl_matcher_push (m, &ev, 103, &match));
  g_assert_cmpint (match.send_time, ==, 100);
  g_assert_cmpint (match.recv_time, ==, 300);

  /* IPv4 event with the same first bytes does not match an IPv6 one */
  ev = make_event6 (0, SL_PACKET_SEND, 400, 8, 2);
  g_assert_false (sl_matcher_push (m, &ev, 104, &match));
  ev.family = 4;
  ev.host = 1;
  ev.dir = SL_PACKET_RECV;
  g_assert_false (sl_matcher_push (m, &ev, 105, &match));

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.matched, ==, 1);

  sl_matcher_free (m);
}

static void
test_matcher_same_host (void)
{
  SlMatcher *m = sl_matcher_new (0, 64);
  SlPacketEvent ev;
  SlMatcherStats st;
  SlMatch match;

  /* loopback: send and receive on host 0 */
  ev = make_event (0, SL_PACKET_SEND, 10, 1);
  g_assert_false (sl_matcher_push (m, &ev, 10, &match));
  ev = make_event (0, SL_PACKET_RECV, 11, 1);
  g_assert_false (sl_matcher_push (m, &ev, 11, &match));

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.same_host, ==, 1);
  g_assert_cmpuint (st.matched, ==, 0);

  /* the real peer still matches the first send */
  ev = make_event (1, SL_PACKET_RECV, 50, 1);
  g_assert_true (sl_matcher_push (m, &ev, 12, &match));
  g_assert_cmpuint (match.send_host, ==, 0);
  g_assert_cmpuint (match.recv_host, ==, 1);
  g_assert_cmpint (match.send_time, ==, 10);
  g_assert_cmpint (match.recv_time, ==, 50);

  /* receive first, then a bridge's send on the same host, then the sender */
  ev = make_event (4, SL_PACKET_RECV, 100, 2);
  g_assert_false (sl_matcher_push (m, &ev, 20, &match));
  ev = make_event (4, SL_PACKET_SEND, 101, 2);
  g_assert_false (sl_matcher_push (m, &ev, 21, &match));
  ev = make_event (5, SL_PACKET_SEND, 90, 2);
  g_assert_true (sl_matcher_push (m, &ev, 22, &match));
  g_assert_cmpuint (match.send_host, ==, 5);
  g_assert_cmpuint (match.recv_host, ==, 4);
  g_assert_cmpint (match.send_time, ==, 90);
  g_assert_cmpint (match.recv_time, ==, 100);

  /* only same-host pairs: never a match */
  for (guint i = 0; i < 100; i++)
    {
      ev = make_event (7, SL_PACKET_SEND, 1000 + i, 1000 + i);
      g_assert_false (sl_matcher_push (m, &ev, 30 + i, &match));
      ev = make_event (7, SL_PACKET_RECV, 1000 + i, 1000 + i);
      g_assert_false (sl_matcher_push (m, &ev, 30 + i, &match));
    }

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.same_host, ==, 102);
  g_assert_cmpuint (st.matched, ==, 2);
  assert_invariants (&st, 64);

  sl_matcher_free (m);
}

static void
test_matcher_duplicates (void)
{
  SlMatcher *m = sl_matcher_new (0, 64);
  SlPacketEvent ev;
  SlMatcherStats st;
  SlMatch match;

  /* a retransmission before the receive: the first send is kept */
  ev = make_event (0, SL_PACKET_SEND, 10, 1);
  g_assert_false (sl_matcher_push (m, &ev, 10, &match));
  ev = make_event (0, SL_PACKET_SEND, 20, 1);
  g_assert_false (sl_matcher_push (m, &ev, 20, &match));

  ev = make_event (1, SL_PACKET_RECV, 30, 1);
  g_assert_true (sl_matcher_push (m, &ev, 30, &match));
  g_assert_cmpint (match.send_time, ==, 10);
  g_assert_cmpint (match.recv_time, ==, 30);

  /* duplicated packet, later retransmission and its receive: no new point */
  ev = make_event (1, SL_PACKET_RECV, 31, 1);
  g_assert_false (sl_matcher_push (m, &ev, 31, &match));
  ev = make_event (0, SL_PACKET_SEND, 40, 1);
  g_assert_false (sl_matcher_push (m, &ev, 40, &match));
  ev = make_event (1, SL_PACKET_RECV, 41, 1);
  g_assert_false (sl_matcher_push (m, &ev, 41, &match));

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.matched, ==, 1);
  g_assert_cmpuint (st.duplicates, ==, 4);
  g_assert_cmpuint (st.pending, ==, 1);

  /* two receives before the send: the first receive is kept */
  ev = make_event (1, SL_PACKET_RECV, 100, 2);
  g_assert_false (sl_matcher_push (m, &ev, 50, &match));
  ev = make_event (1, SL_PACKET_RECV, 105, 2);
  g_assert_false (sl_matcher_push (m, &ev, 51, &match));
  ev = make_event (0, SL_PACKET_SEND, 90, 2);
  g_assert_true (sl_matcher_push (m, &ev, 52, &match));
  g_assert_cmpint (match.recv_time, ==, 100);
  g_assert_cmpint (match.send_time, ==, 90);

  /* a duplicate receive seen on a third host is still a duplicate */
  ev = make_event (2, SL_PACKET_RECV, 100, 2);
  g_assert_false (sl_matcher_push (m, &ev, 53, &match));

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.matched, ==, 2);
  g_assert_cmpuint (st.duplicates, ==, 6);
  assert_invariants (&st, 64);

  sl_matcher_free (m);
}

static void
test_matcher_time_expiry (void)
{
  SlMatcher *m = sl_matcher_new (100, 1024);
  SlPacketEvent ev;
  SlMatcherStats st;
  SlMatch match;

  ev = make_event (0, SL_PACKET_SEND, 0, 1);
  g_assert_false (sl_matcher_push (m, &ev, 0, &match));
  ev = make_event (0, SL_PACKET_SEND, 0, 11);
  g_assert_false (sl_matcher_push (m, &ev, 10, &match));
  ev = make_event (0, SL_PACKET_SEND, 0, 10);
  g_assert_false (sl_matcher_push (m, &ev, 50, &match));
  ev = make_event (1, SL_PACKET_RECV, 0, 10);
  g_assert_true (sl_matcher_push (m, &ev, 60, &match));

  /* one window later: everything moves to the old generation */
  ev = make_event (0, SL_PACKET_SEND, 0, 2);
  g_assert_false (sl_matcher_push (m, &ev, 150, &match));
  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.generations, ==, 1);
  g_assert_cmpuint (st.expired, ==, 0);
  g_assert_cmpuint (st.pending, ==, 4);

  /* still found in the old generation */
  ev = make_event (1, SL_PACKET_RECV, 0, 1);
  g_assert_true (sl_matcher_push (m, &ev, 160, &match));

  /* the next swap drops 1 and 10 (matched) and 11 (never matched) */
  ev = make_event (0, SL_PACKET_SEND, 0, 3);
  g_assert_false (sl_matcher_push (m, &ev, 300, &match));
  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.generations, ==, 2);
  g_assert_cmpuint (st.expired, ==, 1);
  g_assert_cmpuint (st.pending, ==, 2);

  ev = make_event (1, SL_PACKET_RECV, 0, 11);
  g_assert_false (sl_matcher_push (m, &ev, 301, &match));

  /* a late duplicate of a dropped, matched packet starts afresh */
  ev = make_event (1, SL_PACKET_RECV, 0, 10);
  g_assert_false (sl_matcher_push (m, &ev, 302, &match));

  /* a jump of more than two windows drops both generations:
   * 2 in one, 3 and the receives of 11 and 10 in the other */
  ev = make_event (0, SL_PACKET_SEND, 0, 4);
  g_assert_false (sl_matcher_push (m, &ev, 1000, &match));
  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.generations, ==, 4);
  g_assert_cmpuint (st.expired, ==, 5);
  g_assert_cmpuint (st.pending, ==, 1);

  /* time going backwards triggers nothing */
  ev = make_event (0, SL_PACKET_SEND, 0, 5);
  g_assert_false (sl_matcher_push (m, &ev, 10, &match));
  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.generations, ==, 4);
  g_assert_cmpuint (st.pending, ==, 2);
  assert_invariants (&st, 1024);

  sl_matcher_free (m);
}

static void
test_matcher_size_expiry (void)
{
  SlMatcher *m = sl_matcher_new (0, 8);
  SlPacketEvent ev;
  SlMatcherStats st;
  SlMatch match;

  for (guint i = 0; i < 4; i++)
    {
      ev = make_event (0, SL_PACKET_SEND, i, i);
      g_assert_false (sl_matcher_push (m, &ev, i, &match));
    }

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.generations, ==, 0);
  g_assert_cmpuint (st.pending, ==, 4);

  for (guint i = 4; i < 8; i++)
    {
      ev = make_event (0, SL_PACKET_SEND, i, i);
      g_assert_false (sl_matcher_push (m, &ev, i, &match));
    }

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.generations, ==, 1);
  g_assert_cmpuint (st.pending, ==, 8);
  g_assert_cmpuint (st.expired, ==, 0);

  ev = make_event (0, SL_PACKET_SEND, 8, 8);
  g_assert_false (sl_matcher_push (m, &ev, 8, &match));
  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.generations, ==, 2);
  g_assert_cmpuint (st.expired, ==, 4);
  g_assert_cmpuint (st.pending, ==, 5);

  /* 0..3 are gone, 4..8 are still there */
  ev = make_event (1, SL_PACKET_RECV, 0, 0);
  g_assert_false (sl_matcher_push (m, &ev, 9, &match));
  ev = make_event (1, SL_PACKET_RECV, 4, 4);
  g_assert_true (sl_matcher_push (m, &ev, 10, &match));
  g_assert_cmpint (match.send_time, ==, 4);

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.capacity, ==, 16);
  assert_invariants (&st, 8);

  sl_matcher_free (m);
  /* with a window too: a size swap restarts it */
  m = sl_matcher_new (100, 8);
  for (guint i = 0; i < 5; i++)
    {
      ev = make_event (0, SL_PACKET_SEND, i, i);
      g_assert_false (sl_matcher_push (m, &ev, i == 4 ? 50 : i, &match));
    }
  ev = make_event (1, SL_PACKET_RECV, 0, 0);
  g_assert_true (sl_matcher_push (m, &ev, 120, &match));
  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.generations, ==, 1);

  /* a window after the size swap, 0..3 go */
  ev = make_event (1, SL_PACKET_RECV, 0, 1);
  g_assert_false (sl_matcher_push (m, &ev, 151, &match));
  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.generations, ==, 2);
  g_assert_cmpuint (st.expired, ==, 3);
  ev = make_event (1, SL_PACKET_RECV, 0, 4);
  g_assert_true (sl_matcher_push (m, &ev, 152, &match));
  sl_matcher_free (m);
}

/* A tiny table under a sliding load: every lookup walks collision chains,
 * and each receive must find exactly its own send. Keys differ in one bit
 * of one field, in every field. */
static void
test_matcher_collisions (void)
{
  const guint lag = 10;
  const guint n = 200000;
  SlMatcher *m = sl_matcher_new (0, 32);
  SlMatcherStats st;
  SlMatch match;

  for (guint i = 0; i < n + lag; i++)
    {
      SlPacketEvent ev;

      if (i < n)
        {
          ev = make_event4 (i % 3, SL_PACKET_SEND, 10 * (gint64) i, i >> 3, 1, 2);
          ev.flags = 1 << (i & 7);
          g_assert_false (sl_matcher_push (m, &ev, i, &match));
        }

      if (i >= lag)
        {
          guint j = i - lag;

          ev = make_event4 ((j % 3) + 1, SL_PACKET_RECV, 10 * (gint64) j + 5, j >> 3, 1, 2);
          ev.flags = 1 << (j & 7);
          g_assert_true (sl_matcher_push (m, &ev, i, &match));
          g_assert_cmpint (match.send_time, ==, 10 * (gint64) j);
          g_assert_cmpint (match.recv_time, ==, 10 * (gint64) j + 5);
          g_assert_cmpuint (match.send_host, ==, j % 3);
          g_assert_cmpuint (match.recv_host, ==, (j % 3) + 1);
        }
    }

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.matched, ==, n);
  g_assert_cmpuint (st.expired, ==, 0);
  g_assert_cmpuint (st.capacity, ==, 64);
  g_assert_cmpuint (st.generations, >, n / 16 - 2);
  assert_invariants (&st, 32);

  sl_matcher_free (m);

  /* Keys that differ only in one address or port byte, all pending together. */
  m = sl_matcher_new (0, 4096);
  for (guint i = 0; i < 2000; i++)
    {
      SlPacketEvent ev = make_event6 (0, SL_PACKET_SEND, i, 77, 0);

      ev.daddr[i % 16] ^= (guint8) (1 + i / 16);
      ev.sport = (guint16) (i / 256);
      g_assert_false (sl_matcher_push (m, &ev, i, &match));
    }
  for (guint i = 2000; i-- > 0;)
    {
      SlPacketEvent ev = make_event6 (1, SL_PACKET_RECV, 100000 + i, 77, 0);

      ev.daddr[i % 16] ^= (guint8) (1 + i / 16);
      ev.sport = (guint16) (i / 256);
      g_assert_true (sl_matcher_push (m, &ev, 3000, &match));
      g_assert_cmpint (match.send_time, ==, i);
      g_assert_cmpint (match.recv_time, ==, 100000 + i);
    }

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.matched, ==, 2000);
  sl_matcher_free (m);
}

/*
 * Two hosts exchanging traffic for minutes, host 1's clock 3 h ahead, with
 * lost events, retransmissions and loopback traffic. First merged on a
 * corrected time (what the engine does once it has a hint): every real
 * packet matches once. Then merged on raw timestamps, host 0's whole trace
 * first: the tables must stay bounded and nothing can match.
 */
#define CLOCK_OFFSET (3 * 3600 * G_GINT64_CONSTANT (1000000000))

typedef struct
{
  gint64  now;
  gint64  time;
  guint32 packet;
  guint8  host;
  guint8  dir;
  guint8  sender;
} Item;

static int
item_compare (gconstpointer a,
              gconstpointer b)
{
  const Item *ia = a;
  const Item *ib = b;

  return (ia->now > ib->now) - (ia->now < ib->now);
}

static void
run_stream (GArray         *items,
            gint64          window_ns,
            gsize           max_pending,
            SlMatcherStats *out)
{
  SlMatcher *m = sl_matcher_new (window_ns, max_pending);
  SlMatcherStats st;
  gsize capacity;

  sl_matcher_get_stats (m, &st);
  capacity = st.capacity;
  g_assert_cmpuint (capacity, <=, 2 * 2 * max_pending);

  for (guint i = 0; i < items->len; i++)
    {
      const Item *it = &g_array_index (items, Item, i);
      SlPacketEvent ev;
      SlMatch match;

      ev = make_event4 (it->host, it->dir, it->time, it->packet,
                        it->sender == 0 ? 5000 : 22,
                        it->sender == 0 ? 22 : 5000);

      if (sl_matcher_push (m, &ev, it->now, &match))
        {
          gint64 latency = match.recv_time - match.send_time +
                           (match.send_host == 0 ? -CLOCK_OFFSET : CLOCK_OFFSET);

          g_assert_cmpuint (match.send_host, !=, match.recv_host);
          g_assert_cmpint (latency, >=, 20000);
          g_assert_cmpint (latency, <, 120000);
        }

      if ((i & 1023) == 0)
        {
          sl_matcher_get_stats (m, &st);
          g_assert_cmpuint (st.pending, <=, max_pending);
          g_assert_cmpuint (st.capacity, ==, capacity);
        }
    }

  sl_matcher_get_stats (m, out);
  g_assert_cmpuint (out->capacity, ==, capacity);
  assert_invariants (out, max_pending);
  sl_matcher_free (m);
}

static void
test_matcher_long_stream (void)
{
  const gint64 t0 = G_GINT64_CONSTANT (1400000000000000000);
  const guint n_packets = 1500000;
  GRand *rand = g_rand_new_with_seed (1234);
  GArray *items = g_array_sized_new (FALSE, FALSE, sizeof (Item), 2 * n_packets + n_packets / 20);
  guint n_real = 0;
  guint n_loopback = 0;
  guint n_retransmit = 0;
  SlMatcherStats st;
  gint64 t = t0;

  for (guint i = 0; i < n_packets; i++)
    {
      guint8 sender = g_rand_boolean (rand) ? 1 : 0;
      gint64 latency = g_rand_int_range (rand, 20000, 120000);
      guint dice = g_rand_int_range (rand, 0, 100);
      Item send;
      Item recv;

      t += g_rand_int_range (rand, 100000, 200000);

      send.packet = recv.packet = i;
      send.sender = recv.sender = sender;
      send.host = sender;
      send.dir = SL_PACKET_SEND;
      recv.host = sender ^ 1;
      recv.dir = SL_PACKET_RECV;

      /* true times, then each host's clock */
      send.now = t;
      recv.now = t + latency;
      send.time = send.now + (sender == 1 ? CLOCK_OFFSET : 0);
      recv.time = recv.now + (sender == 0 ? CLOCK_OFFSET : 0);

      if (dice < 2)
        {
          /* lost: only one side traced */
          if (dice == 0)
            g_array_append_val (items, send);
          else
            g_array_append_val (items, recv);
          continue;
        }

      if (dice < 4)
        {
          recv.host = send.host;
          recv.time = send.time + 1000;
          recv.now = send.now + 1000;
          n_loopback++;
        }
      else
        n_real++;

      g_array_append_val (items, send);
      g_array_append_val (items, recv);

      if (dice == 4)
        {
          /* retransmission 200 ms later, received too */
          send.now += 200000000;
          send.time += 200000000;
          recv.now += 200000000;
          recv.time += 200000000;
          g_array_append_val (items, send);
          g_array_append_val (items, recv);
          n_retransmit++;
        }
    }

  g_array_sort (items, item_compare);
  run_stream (items, 1000000000, 32768, &st);
  g_test_message ("corrected merge: %" G_GUINT64_FORMAT " pushed, %" G_GUINT64_FORMAT
                  " matched, %" G_GUINT64_FORMAT " expired, %" G_GUINT64_FORMAT " generations",
                  st.pushed, st.matched, st.expired, st.generations);
  g_assert_cmpuint (st.pushed, ==, items->len);
  g_assert_cmpuint (st.pushed, >=, 3000000);
  g_assert_cmpuint (st.matched, ==, n_real);
  g_assert_cmpuint (st.same_host, ==, n_loopback);
  g_assert_cmpuint (st.duplicates, ==, 2 * n_retransmit);

  /* raw timestamps: host 1's events all come 3 h after host 0's */
  for (guint i = 0; i < items->len; i++)
    {
      Item *it = &g_array_index (items, Item, i);

      it->now = it->time;
    }
  g_array_sort (items, item_compare);
  run_stream (items, 1000000000, 32768, &st);
  g_test_message ("raw merge: %" G_GUINT64_FORMAT " matched, %" G_GUINT64_FORMAT
                  " expired, %" G_GUINT64_FORMAT " generations",
                  st.matched, st.expired, st.generations);
  g_assert_cmpuint (st.matched, ==, 0);
  g_assert_cmpuint (st.expired, >, n_packets);

  /* size-triggered swaps only */
  run_stream (items, 0, 10000, &st);
  g_assert_cmpuint (st.matched, ==, 0);
  g_assert_cmpuint (st.generations, >, n_packets / 5000);

  g_array_unref (items);
  g_rand_free (rand);
}

/*
 * A plain model of the matcher: two GHashTables keyed by the packet key,
 * with the same swap rules. Random streams with few distinct keys, small
 * tables and short windows must give the same answers, matches and counts
 * event by event, whatever the matcher does inside.
 */
typedef struct
{
  guint8 family;
  guint8 flags[2];
  guint8 ports[4];
  guint8 seq[8];
  guint8 addr[32];
} ModelKey;

typedef struct
{
  gint64  time;
  guint32 host;
  guint   state;
} ModelEntry;

typedef struct
{
  GHashTable     *gen[2];
  guint           cur;
  gsize           gen_limit;
  gint64          window_ns;
  gboolean        started;
  gint64          last_swap;
  gsize           unmatched[2];
  SlMatcherStats  stats;
} Model;

static guint
model_key_hash (gconstpointer key)
{
  const guint8 *p = key;
  guint h = 5381;

  for (gsize i = 0; i < sizeof (ModelKey); i++)
    h = h * 33 + p[i];

  return h;
}

static gboolean
model_key_equal (gconstpointer a,
                 gconstpointer b)
{
  return memcmp (a, b, sizeof (ModelKey)) == 0;
}

static void
model_init (Model  *model,
            gint64  window_ns,
            gsize   max_pending)
{
  memset (model, 0, sizeof *model);
  for (guint i = 0; i < 2; i++)
    model->gen[i] = g_hash_table_new_full (model_key_hash, model_key_equal, g_free, g_free);
  model->gen_limit = max_pending / 2;
  model->window_ns = window_ns;
}

static void
model_clear (Model *model)
{
  for (guint i = 0; i < 2; i++)
    g_hash_table_unref (model->gen[i]);
}

static void
model_swap (Model *model)
{
  guint old = model->cur ^ 1;

  model->stats.expired += model->unmatched[old];
  model->unmatched[old] = 0;
  g_hash_table_remove_all (model->gen[old]);
  model->cur = old;
  model->stats.generations++;
}

static gboolean
model_push (Model               *model,
            const SlPacketEvent *ev,
            gint64               now,
            SlMatch             *match)
{
  guint side = ev->dir == SL_PACKET_SEND ? 1 : 2;
  ModelEntry *e = NULL;
  ModelKey key;
  guint owner = 0;

  model->stats.pushed++;

  if (model->window_ns > 0)
    {
      if (!model->started)
        {
          model->started = TRUE;
          model->last_swap = now;
        }
      else if (now > model->last_swap)
        {
          guint64 elapsed = (guint64) now - (guint64) model->last_swap;

          if (elapsed > (guint64) model->window_ns)
            {
              model_swap (model);
              if (elapsed > 2 * (guint64) model->window_ns)
                model_swap (model);
              model->last_swap = now;
            }
        }
    }

  memset (&key, 0, sizeof key);
  key.family = ev->family;
  memcpy (key.flags, &ev->flags, 2);
  memcpy (key.seq, &ev->seq, 4);
  memcpy (key.seq + 4, &ev->ack_seq, 4);
  if (ev->family != 0)
    {
      gsize n = ev->family == 4 ? 4 : 16;

      memcpy (key.ports, &ev->sport, 2);
      memcpy (key.ports + 2, &ev->dport, 2);
      memcpy (key.addr, ev->saddr, n);
      memcpy (key.addr + 16, ev->daddr, n);
    }

  for (guint i = 0; i < 2 && e == NULL; i++)
    {
      owner = model->cur ^ i;
      e = g_hash_table_lookup (model->gen[owner], &key);
    }

  if (e != NULL)
    {
      if (e->state & side)
        {
          model->stats.duplicates++;
          return FALSE;
        }
      if (e->host == ev->host)
        {
          model->stats.same_host++;
          return FALSE;
        }

      e->state |= side | 4;
      model->unmatched[owner]--;
      model->stats.matched++;
      match->send_host = side == 2 ? e->host : ev->host;
      match->send_time = side == 2 ? e->time : ev->time;
      match->recv_host = side == 2 ? ev->host : e->host;
      match->recv_time = side == 2 ? ev->time : e->time;
      return TRUE;
    }

  if (g_hash_table_size (model->gen[model->cur]) >= model->gen_limit)
    {
      model_swap (model);
      model->last_swap = MAX (model->last_swap, now);
    }

  e = g_new (ModelEntry, 1);
  e->time = ev->time;
  e->host = ev->host;
  e->state = side;
  g_hash_table_insert (model->gen[model->cur], g_memdup2 (&key, sizeof key), e);
  model->unmatched[model->cur]++;

  return FALSE;
}

/* An event on one of @n_keys packets; they share seq, ack_seq, ports and
 * addresses in many ways so that keys differ in single fields. */
static SlPacketEvent
random_event (GRand  *rand,
              guint   n_keys,
              guint   n_hosts,
              gint64  time)
{
  guint k = g_rand_int_range (rand, 0, n_keys);
  SlPacketEvent ev;

  memset (&ev, 0, sizeof ev);
  ev.host = g_rand_int_range (rand, 0, n_hosts);
  ev.dir = g_rand_boolean (rand) ? SL_PACKET_SEND : SL_PACKET_RECV;
  ev.time = time;
  ev.family = (guint8[]) { 0, 4, 6 } [k % 3];
  ev.seq = k / 3 % 50;
  ev.ack_seq = k / 150;
  ev.flags = 0x10 | (k & 8);
  if (ev.family != 0)
    {
      ev.sport = 1000 + k % 7;
      ev.dport = 22;
      ev.saddr[0] = 10;
      ev.daddr[0] = 10;
      ev.daddr[ev.family == 4 ? 3 : 15] = k % 5;
    }

  /* bytes that are not part of the key */
  ev.saddr[ev.family == 4 ? 7 : 0] ^= g_rand_int_range (rand, 0, 2);
  if (ev.family == 0)
    ev.sport = g_rand_int_range (rand, 0, 3);

  return ev;
}

static void
check_against_model (guint64 seed,
                     gint64  window_ns,
                     gsize   max_pending,
                     guint   n_keys,
                     guint   n_events)
{
  GRand *rand = g_rand_new_with_seed ((guint32) seed);
  SlMatcher *m = sl_matcher_new (window_ns, max_pending);
  gint64 t = 1000000;
  Model model;

  model_init (&model, window_ns, max_pending);

  for (guint i = 0; i < n_events; i++)
    {
      SlPacketEvent ev;
      SlMatch got, want;
      gboolean r, expect;
      gint64 now;

      /* mostly forward, sometimes a jump, sometimes back */
      t += g_rand_int_range (rand, 0, 3) == 0 ? g_rand_int_range (rand, 0, 40) : 1;
      if (g_rand_int_range (rand, 0, 5000) == 0)
        t += 5 * window_ns;
      now = g_rand_int_range (rand, 0, 50) == 0 ? t - g_rand_int_range (rand, 0, 200) : t;

      ev = random_event (rand, n_keys, 3, t);
      memset (&got, 0, sizeof got);
      memset (&want, 0, sizeof want);
      r = sl_matcher_push (m, &ev, now, &got);
      expect = model_push (&model, &ev, now, &want);

      g_assert_cmpint (r, ==, expect);
      if (r)
        {
          g_assert_cmpuint (got.send_host, ==, want.send_host);
          g_assert_cmpuint (got.recv_host, ==, want.recv_host);
          g_assert_cmpint (got.send_time, ==, want.send_time);
          g_assert_cmpint (got.recv_time, ==, want.recv_time);
        }

      if (i % 997 == 0 || i == n_events - 1)
        {
          SlMatcherStats st;

          sl_matcher_get_stats (m, &st);
          g_assert_cmpuint (st.pushed, ==, model.stats.pushed);
          g_assert_cmpuint (st.matched, ==, model.stats.matched);
          g_assert_cmpuint (st.duplicates, ==, model.stats.duplicates);
          g_assert_cmpuint (st.same_host, ==, model.stats.same_host);
          g_assert_cmpuint (st.expired, ==, model.stats.expired);
          g_assert_cmpuint (st.generations, ==, model.stats.generations);
          g_assert_cmpuint (st.pending, ==, g_hash_table_size (model.gen[0]) +
                                            g_hash_table_size (model.gen[1]));
          assert_invariants (&st, max_pending);
        }
    }

  model_clear (&model);
  sl_matcher_free (m);
  g_rand_free (rand);
}

/* Clock values at the ends of the range, where window arithmetic could
 * overflow. */
static void
check_extreme_times (gint64 window_ns)
{
  const gint64 nows[] = {
    G_MININT64, G_MININT64 + 1, 0, window_ns, G_MININT64, G_MAXINT64 - window_ns,
    G_MAXINT64 - 1, G_MAXINT64, G_MAXINT64, 0, G_MAXINT64, G_MININT64,
  };
  SlMatcher *m = sl_matcher_new (window_ns, 64);
  SlMatcherStats st;
  Model model;

  model_init (&model, window_ns, 64);

  for (guint i = 0; i < 4 * G_N_ELEMENTS (nows); i++)
    {
      SlPacketEvent ev = make_event (i % 3, i % 2 ? SL_PACKET_RECV : SL_PACKET_SEND, i, i / 4);
      SlMatch got, want;
      gint64 now = nows[i % G_N_ELEMENTS (nows)];

      g_assert_cmpint (sl_matcher_push (m, &ev, now, &got), ==,
                       model_push (&model, &ev, now, &want));
      sl_matcher_get_stats (m, &st);
      g_assert_cmpuint (st.generations, ==, model.stats.generations);
      g_assert_cmpuint (st.expired, ==, model.stats.expired);
      g_assert_cmpuint (st.matched, ==, model.stats.matched);
    }

  model_clear (&model);
  sl_matcher_free (m);
}

static void
test_matcher_model (void)
{
  check_extreme_times (0);
  check_extreme_times (1);
  check_extreme_times (1000);
  check_extreme_times (G_MAXINT64);

  /* size swaps only, in tables from one group to many */
  check_against_model (1, 0, 2, 40, 20000);
  check_against_model (2, 0, 8, 60, 50000);
  check_against_model (3, 0, 64, 300, 200000);
  check_against_model (4, 0, 1000, 3000, 200000);
  check_against_model (5, 0, 8192, 30000, 300000);

  /* windows that swap every few events, or rarely; big tables with few
   * entries, which are dropped entry by entry */
  check_against_model (6, 30, 64, 300, 200000);
  check_against_model (7, 500, 4096, 3000, 200000);
  check_against_model (8, 20000, 1 << 16, 3000, 300000);
  check_against_model (9, 7, 1 << 12, 500, 200000);
  check_against_model (10, 200, 1 << 14, 60, 100000);
}

/*
 * Receives long after their sends, duplicates of packets inserted long
 * before and packets whose first event arrives in an older generation:
 * lookups that cannot use the array of recent inserts.
 */
static void
test_matcher_late (void)
{
  const guint n = 20000;
  SlMatcher *m = sl_matcher_new (0, 4 * n);
  SlMatcherStats st;
  SlMatch match;

  for (guint i = 0; i < n; i++)
    {
      SlPacketEvent ev = make_event4 (0, SL_PACKET_SEND, i, i, 1, 2);

      g_assert_false (sl_matcher_push (m, &ev, i, &match));
    }

  /* retransmissions, in another order */
  for (guint i = 0; i < n; i++)
    {
      guint j = (i * 7919) % n;
      SlPacketEvent ev = make_event4 (0, SL_PACKET_SEND, n + j, j, 1, 2);

      g_assert_false (sl_matcher_push (m, &ev, n + i, &match));
    }

  /* the first send matches, whatever came since */
  for (guint i = n; i-- > 0;)
    {
      SlPacketEvent ev = make_event4 (1, SL_PACKET_RECV, 3 * n + i, i, 1, 2);

      g_assert_true (sl_matcher_push (m, &ev, 2 * n + i, &match));
      g_assert_cmpint (match.send_time, ==, i);
      g_assert_cmpint (match.recv_time, ==, 3 * n + i);
    }

  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.matched, ==, n);
  g_assert_cmpuint (st.duplicates, ==, n);
  g_assert_cmpuint (st.pending, ==, n);
  assert_invariants (&st, 4 * n);
  sl_matcher_free (m);

  /* half the sends land in the older generation: a size swap lies
   * between the two halves */
  m = sl_matcher_new (0, n);
  for (guint i = 0; i < n; i++)
    {
      SlPacketEvent ev = make_event (0, SL_PACKET_SEND, i, i);

      g_assert_false (sl_matcher_push (m, &ev, i, &match));
    }
  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.generations, ==, 1);
  for (guint i = 0; i < n; i++)
    {
      SlPacketEvent ev = make_event (1, SL_PACKET_RECV, n + i, i);

      g_assert_true (sl_matcher_push (m, &ev, n + i, &match));
      g_assert_cmpint (match.send_time, ==, i);
    }
  sl_matcher_get_stats (m, &st);
  g_assert_cmpuint (st.matched, ==, n);
  g_assert_cmpuint (st.expired, ==, 0);
  sl_matcher_free (m);
}

static void
test_matcher_bad_args (void)
{
  if (g_test_subprocess ())
    {
      g_assert_null (sl_matcher_new (0, 1));
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*max_pending >= 2*");
}

/* A match carries the payload length: the send's, else the receive's,
 * whichever comes first. */
static void
test_matcher_length (void)
{
  SlMatcher *m = sl_matcher_new (0, 64);
  SlPacketEvent ev;
  SlMatch match;

  /* send first, with a length; receive without */
  ev = make_event (0, SL_PACKET_SEND, 1000, 1);
  ev.has_length = TRUE;
  ev.length = 1448;
  g_assert_false (sl_matcher_push (m, &ev, 1000, &match));
  ev = make_event (1, SL_PACKET_RECV, 5000, 1);
  g_assert_true (sl_matcher_push (m, &ev, 1001, &match));
  g_assert_true (match.has_length);
  g_assert_cmpuint (match.length, ==, 1448);

  /* receive first, with a length; send with another: the send's */
  ev = make_event (1, SL_PACKET_RECV, 6000, 2);
  ev.has_length = TRUE;
  ev.length = 7;
  g_assert_false (sl_matcher_push (m, &ev, 1002, &match));
  ev = make_event (0, SL_PACKET_SEND, 2000, 2);
  ev.has_length = TRUE;
  ev.length = 0;
  g_assert_true (sl_matcher_push (m, &ev, 1003, &match));
  g_assert_true (match.has_length);
  g_assert_cmpuint (match.length, ==, 0);

  /* receive first, with a length; send without: the receive's */
  ev = make_event (1, SL_PACKET_RECV, 7000, 3);
  ev.has_length = TRUE;
  ev.length = 65535;
  g_assert_false (sl_matcher_push (m, &ev, 1004, &match));
  ev = make_event (0, SL_PACKET_SEND, 3000, 3);
  g_assert_true (sl_matcher_push (m, &ev, 1005, &match));
  g_assert_true (match.has_length);
  g_assert_cmpuint (match.length, ==, 65535);

  /* neither */
  ev = make_event (0, SL_PACKET_SEND, 4000, 4);
  g_assert_false (sl_matcher_push (m, &ev, 1006, &match));
  ev = make_event (1, SL_PACKET_RECV, 8000, 4);
  g_assert_true (sl_matcher_push (m, &ev, 1007, &match));
  g_assert_false (match.has_length);

  sl_matcher_free (m);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/matcher/no-addresses", test_matcher_no_addresses);
  g_test_add_func ("/matcher/length", test_matcher_length);
  g_test_add_func ("/matcher/receive-first", test_matcher_receive_first);
  g_test_add_func ("/matcher/ipv4-keys", test_matcher_ipv4_keys);
  g_test_add_func ("/matcher/ipv6-keys", test_matcher_ipv6_keys);
  g_test_add_func ("/matcher/same-host", test_matcher_same_host);
  g_test_add_func ("/matcher/duplicates", test_matcher_duplicates);
  g_test_add_func ("/matcher/time-expiry", test_matcher_time_expiry);
  g_test_add_func ("/matcher/size-expiry", test_matcher_size_expiry);
  g_test_add_func ("/matcher/collisions", test_matcher_collisions);
  g_test_add_func ("/matcher/long-stream", test_matcher_long_stream);
  g_test_add_func ("/matcher/model", test_matcher_model);
  g_test_add_func ("/matcher/late", test_matcher_late);
  g_test_add_func ("/matcher/bad-args", test_matcher_bad_args);

  return g_test_run ();
}
