/* test-event-store.c: what a store holds after appends one by one and a
 * decoder's frames appended whole (sl_event_store_append_many())
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "sl-event-store-private.h"
#include "sl-rng.h"

#define N_EVENTS 5000
#define N_WIRE_STRINGS 40

/* A decoder's frame: events of every kind and a few of none, string ids
 * in and out of the frame's table, tids that share a slot of the store's
 * name cache (tid % 256) with names that change and come back, times that
 * go back now and then. */
static SlEvent *
make_events (SlRng *rng)
{
  SlEvent *ev = g_new0 (SlEvent, N_EVENTS);
  gint64 t = G_GINT64_CONSTANT (1700000000000000000);

  for (guint i = 0; i < N_EVENTS; i++)
    {
      SlEvent *e = &ev[i];
      guint r = sl_rng_below (rng, 100);

      t += sl_rng_below (rng, 2000);
      e->time = sl_rng_below (rng, 50) == 0 ? t - 1500 : t;
      e->tid = 1 + 256 * sl_rng_below (rng, 3) + sl_rng_below (rng, 4);
      e->arg = 1 + 256 * sl_rng_below (rng, 3) + sl_rng_below (rng, 4);
      e->str = sl_rng_below (rng, N_WIRE_STRINGS + 5);
      e->cpu = (guint16) sl_rng_below (rng, 8);
      e->flags = (guint8) sl_rng_below (rng, 4);
      if (r < 2)
        e->kind = r == 0 ? SL_EVENT_NONE : 200;
      else if (r < 30)
        e->kind = SL_EVENT_SCHED_SWITCH;
      else if (r < 40)
        e->kind = r < 35 ? SL_EVENT_PACKET_SEND : SL_EVENT_PACKET_RECV;
      else
        e->kind = 1 + sl_rng_below (rng, SL_EVENT_N_KINDS - 1);
      if (e->kind == SL_EVENT_LOST)
        e->arg = sl_rng_below (rng, 1000);
    }
  return ev;
}

static void
assert_same_store (const SlEventStore *a,
                   const SlEventStore *b)
{
  gint64 fa, la, fb, lb;

  for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
    {
      guint64 n = sl_event_store_get_n_events (a, s);

      g_assert_cmpuint (n, ==, sl_event_store_get_n_events (b, s));
      for (guint64 i = 0; i < n; i++)
        {
          const SlEvent *ea = sl_event_store_get (a, s, i);
          const SlEvent *eb = sl_event_store_get (b, s, i);

          g_assert_cmpmem (ea, sizeof *ea, eb, sizeof *eb);
          if (s == SL_EVENT_STREAM_NET)
            g_assert_cmpmem (sl_event_store_get_packet (a, i), sizeof (SlEventPacket),
                             sl_event_store_get_packet (b, i), sizeof (SlEventPacket));
        }
    }
  for (guint k = 0; k < SL_EVENT_N_KINDS; k++)
    g_assert_cmpuint (sl_event_store_get_kind_count (a, k), ==, sl_event_store_get_kind_count (b, k));
  g_assert_cmpuint (sl_event_store_get_n_lost (a), ==, sl_event_store_get_n_lost (b));
  g_assert_true (sl_event_store_get_time_range (a, &fa, &la));
  g_assert_true (sl_event_store_get_time_range (b, &fb, &lb));
  g_assert_cmpint (fa, ==, fb);
  g_assert_cmpint (la, ==, lb);
  g_assert_cmpuint (sl_event_store_get_n_threads (a), ==, sl_event_store_get_n_threads (b));
  for (guint32 tid = 0; tid < 1024; tid++)
    g_assert_cmpstr (sl_event_store_get_thread_name (a, tid), ==, sl_event_store_get_thread_name (b, tid));
}

/* Frames appended whole (at odd offsets, packet infos running out in
 * some) hold what the same events appended one by one hold. */
static void
test_append_many (void)
{
  SlRng rng;
  g_autofree SlEvent *ev = NULL;
  g_autoptr(SlEventStore) one = sl_event_store_new ();
  g_autoptr(SlEventStore) many = sl_event_store_new ();
  guint32 strings[N_WIRE_STRINGS];
  g_autofree guint8 *wire = g_malloc (N_EVENTS * sizeof (SlEvent) + 4);
  g_autoptr(GArray) packets = g_array_new (FALSE, FALSE, sizeof (SlEventPacket));
  guint first = 0;

  sl_rng_init (&rng, 74, 0);
  ev = make_events (&rng);
  strings[0] = 0;
  for (guint i = 1; i < N_WIRE_STRINGS; i++)
    {
      g_autofree char *name = g_strdup_printf ("thread-%u", i % 7);

      strings[i] = sl_event_store_intern (one, name);
      g_assert_cmpuint (sl_event_store_intern (many, name), ==, strings[i]);
    }
  /* unaligned, as in a decoder's frame */
  memcpy (wire + 4, ev, N_EVENTS * sizeof (SlEvent));

  while (first < N_EVENTS)
    {
      guint n = MIN (1 + sl_rng_below (&rng, 1500), N_EVENTS - first);
      guint n_packets = 0, given;

      g_array_set_size (packets, 0);
      for (guint i = first; i < first + n; i++)
        if (ev[i].kind == SL_EVENT_PACKET_SEND || ev[i].kind == SL_EVENT_PACKET_RECV)
          {
            SlEventPacket p = { (guint16) i, (guint16) (i * 7), i * 3 };

            g_array_append_val (packets, p);
            n_packets++;
          }
      /* a frame whose infos are short: the rest are unknown */
      given = sl_rng_below (&rng, 4) == 0 ? n_packets / 2 : n_packets;
      for (guint i = first, next = 0; i < first + n; i++)
        {
          SlEvent e = ev[i];

          if (e.kind <= SL_EVENT_NONE || e.kind >= SL_EVENT_N_KINDS)
            continue;
          e.str = e.str < N_WIRE_STRINGS ? strings[e.str] : 0;
          if (e.kind == SL_EVENT_PACKET_SEND || e.kind == SL_EVENT_PACKET_RECV)
            {
              if (next < given)
                sl_event_store_append_packet (one, &e, &g_array_index (packets, SlEventPacket, next));
              else
                sl_event_store_append (one, &e);
              next++;
            }
          else
            sl_event_store_append (one, &e);
        }
      sl_event_store_append_many (many, wire + 4 + first * sizeof (SlEvent), n, strings, N_WIRE_STRINGS,
                                  (const SlEventPacket *) packets->data, given);
      first += n;
    }
  /* several chunks of the busiest streams */
  g_assert_cmpuint (sl_event_store_get_n_events (one, SL_EVENT_STREAM_SCHED), >, 2048);
  assert_same_store (one, many);
}

/* A thread's name is the last one set (sl_event_store_append()'s doc),
 * whatever other tids share its slot in the store's cache of names. */
static void
test_thread_names (void)
{
  SlRng rng;
  g_autoptr(SlEventStore) store = sl_event_store_new ();
  g_autoptr(GHashTable) expected = g_hash_table_new (NULL, NULL);
  guint32 names[5];

  sl_rng_init (&rng, 1874, 0);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("name-%u", i);

      names[i] = sl_event_store_intern (store, name);
    }
  for (guint i = 0; i < 20000; i++)
    {
      SlEvent e = { 0 };
      guint32 tid = 3 + 256 * sl_rng_below (&rng, 3);
      guint32 str = sl_rng_below (&rng, 6) == 0 ? 0 : names[sl_rng_below (&rng, G_N_ELEMENTS (names))];
      guint32 id;

      e.time = i;
      e.str = str;
      switch (sl_rng_below (&rng, 3))
        {
        case 0:
          e.kind = SL_EVENT_SCHED_SWITCH;
          e.arg = tid;
          break;
        case 1:
          e.kind = SL_EVENT_PROCESS_FORK;
          e.arg = tid;
          break;
        default:
          e.kind = SL_EVENT_PROCESS_NAME;
          e.tid = tid;
          break;
        }
      sl_event_store_append (store, &e);
      if (str != 0)
        g_hash_table_insert (expected, GUINT_TO_POINTER (tid), GUINT_TO_POINTER (str));
      id = GPOINTER_TO_UINT (g_hash_table_lookup (expected, GUINT_TO_POINTER (tid)));
      g_assert_cmpstr (sl_event_store_get_thread_name (store, tid), ==,
                       id != 0 ? sl_event_store_get_string (store, id) : NULL);
    }
  g_assert_cmpuint (sl_event_store_get_n_threads (store), ==, 3);
}

/* The chunks of a long stream come from a few blocks (each twice the one
 * before), not one allocation each: a host thread's malloc arena grew by
 * a system call per chunk. Chunks dropped from the front and the store's
 * end give their pages back in whole chunks, and what is kept stays as
 * it was appended. */
static void
test_blocks (void)
{
  g_autoptr(SlEventStore) store = sl_event_store_new ();
  const guint n = 400 * 1024;
  guint64 dropped, first;
  gsize page = (gsize) sysconf (_SC_PAGESIZE);

  for (guint i = 0; i < n; i++)
    {
      SlEvent e = { 0 };
      SlEventPacket p = { (guint16) i, (guint16) (i >> 16), i };

      e.time = 1000 + i;
      e.tid = i;
      e.kind = i % 4 == 0 ? SL_EVENT_PACKET_SEND : i % 4 == 1 ? SL_EVENT_SYSCALL_ENTRY : SL_EVENT_SCHED_SWITCH;
      if (e.kind == SL_EVENT_PACKET_SEND)
        sl_event_store_append_packet (store, &e, &p);
      else
        sl_event_store_append (store, &e);
    }
  /* 100 chunks of packet events and of their ports, 100 of system calls
   * and 200 of scheduling, 500 in all: blocks of 1, 2, … 64 chunks hold
   * 127 of them, 7 blocks a stream, then 64 a block (9 for scheduling) */
  if ((24 * 1024) % page == 0 && (8 * 1024) % page == 0)
    g_assert_cmpuint (_sl_event_store_get_n_blocks (store), ==, 3 * 7 + 9);

  dropped = sl_event_store_drop_before (store, 1000 + n / 2);
  g_assert_cmpuint (dropped, >, n / 4);
  for (guint i = n; i < n + 5000; i++)
    {
      SlEvent e = { 0 };

      e.time = 1000 + i;
      e.tid = i;
      e.kind = SL_EVENT_SCHED_SWITCH;
      sl_event_store_append (store, &e);
    }
  first = sl_event_store_get_first_index (store, SL_EVENT_STREAM_NET);
  g_assert_cmpuint (first, >, 0);
  for (guint64 k = first; k < sl_event_store_get_n_events (store, SL_EVENT_STREAM_NET); k++)
    {
      const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_NET, k);
      const SlEventPacket *p = sl_event_store_get_packet (store, k);

      g_assert_cmpuint (e->tid, ==, 4 * k);
      g_assert_cmpuint (p->length, ==, 4 * k);
    }
  first = sl_event_store_get_first_index (store, SL_EVENT_STREAM_SCHED);
  for (guint64 k = first; k < sl_event_store_get_n_events (store, SL_EVENT_STREAM_SCHED); k++)
    {
      const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_SCHED, k);

      g_assert_cmpuint (e->tid, ==, k < n / 2 ? 4 * (k / 2) + 2 + k % 2 : n + (k - n / 2));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/event-store/append-many", test_append_many);
  g_test_add_func ("/event-store/thread-names", test_thread_names);
  g_test_add_func ("/event-store/blocks", test_blocks);
  return g_test_run ();
}
