/* test-feed.c: the merge of the hosts' packet events (sl-feed.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "sl-feed.h"

/* Each feed's packet events carry the feed in @host (its engine host) and
 * their rank in the feed in @seq; the output is checked against a sort of
 * every key, the brute-force merge. */
typedef struct
{
  GArray *keys;
  GArray *feeds;
  GArray *ranks;
} Output;

static void
record_cb (const SlPacketEvent *e,
           gint64               key,
           gpointer             data)
{
  Output *o = data;

  g_array_append_val (o->keys, key);
  g_array_append_val (o->feeds, e->host);
  g_array_append_val (o->ranks, e->seq);
}

static void
output_init (Output *o)
{
  o->keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  o->feeds = g_array_new (FALSE, FALSE, sizeof (guint32));
  o->ranks = g_array_new (FALSE, FALSE, sizeof (guint32));
}

static void
output_clear (Output *o)
{
  g_array_unref (o->keys);
  g_array_unref (o->feeds);
  g_array_unref (o->ranks);
}

typedef struct
{
  SlFeed  **feeds;
  guint     n_feeds;
  gint64  **times;
  guint    *n_events;
  guint     first;
  guint     step;
  guint32   seed;
} Producer;

static void
make_times (GRand   *rand,
            guint    n_feeds,
            guint    max_events,
            gint64 **times,
            guint   *n_events,
            gint64  *hints)
{
  for (guint f = 0; f < n_feeds; f++)
    {
      gint64 t = 1700000000000000000 + g_rand_int_range (rand, 0, 1000000);

      hints[f] = (gint64) g_rand_int_range (rand, -1000000, 1000000) * 1000;
      n_events[f] = g_rand_int_range (rand, 0, max_events + 1);
      times[f] = g_new (gint64, MAX (n_events[f], 1));
      for (guint k = 0; k < n_events[f]; k++)
        {
          /* equal times within a feed and across feeds too */
          t += g_rand_int_range (rand, 0, 4) == 0 ? 0 : g_rand_int_range (rand, 1, 20000);
          times[f][k] = t + hints[f];
        }
    }
}

static void
push_event (SlFeed *feed,
            gint64  time,
            guint   rank)
{
  SlPacketEvent e = { 0 };

  e.dir = SL_PACKET_SEND;
  e.time = time;
  e.family = 4;
  e.seq = rank;
  sl_feed_push (feed, &e);
}

/* Publishes the feeds first, first + step, … in random slices, with
 * watermarks, partial batches and flushes of every kind. */
static gpointer
produce (gpointer data)
{
  Producer *p = data;
  GRand *rand = g_rand_new_with_seed (p->seed);
  g_autofree guint *pos = g_new0 (guint, p->n_feeds);
  guint left = 0;

  for (guint f = p->first; f < p->n_feeds; f += p->step)
    left++;
  while (left > 0)
    {
      guint f = p->first + p->step * g_rand_int_range (rand, 0, (p->n_feeds - p->first + p->step - 1) / p->step);
      guint k = g_rand_int_range (rand, 0, 2000);

      if (pos[f] > p->n_events[f])
        continue;
      for (; k > 0 && pos[f] < p->n_events[f]; k--, pos[f]++)
        push_event (p->feeds[f], p->times[f][pos[f]], pos[f]);
      if (pos[f] > 0)
        sl_feed_seen (p->feeds[f], p->times[f][pos[f] - 1]);
      if (pos[f] == p->n_events[f])
        {
          sl_feed_publish (p->feeds[f], SL_FEED_FLUSH_LAST);
          pos[f]++;
          left--;
        }
      else
        sl_feed_publish (p->feeds[f], g_rand_boolean (rand) ? SL_FEED_FLUSH_IF_WANTED : SL_FEED_FLUSH_ALL);
      if (g_rand_int_range (rand, 0, 8) == 0)
        g_thread_yield ();
    }
  g_rand_free (rand);
  return NULL;
}

/* The brute-force merge's order: by key, ties to the feed given first,
 * each feed in its order. */
typedef struct
{
  gint64  key;
  guint32 feed;
  guint32 rank;
} Keyed;

static int
keyed_cmp (gconstpointer a,
           gconstpointer b)
{
  const Keyed *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  if (x->feed != y->feed)
    return x->feed < y->feed ? -1 : 1;
  return (x->rank > y->rank) - (x->rank < y->rank);
}

static void
check_output (const Output  *o,
              guint          n_feeds,
              gint64 *const *times,
              const guint   *n_events,
              const gint64  *hints)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (Keyed));

  for (guint f = 0; f < n_feeds; f++)
    for (guint k = 0; k < n_events[f]; k++)
      {
        Keyed e = { sl_feed_key (times[f][k], hints[f]), f, k };
        g_array_append_val (all, e);
      }
  g_array_sort (all, keyed_cmp);

  /* every packet event once, in exactly that order, whatever the
   * producers' timing: the same input gives the engine the same sequence */
  g_assert_cmpuint (o->keys->len, ==, all->len);
  for (guint i = 0; i < all->len; i++)
    {
      const Keyed *e = &g_array_index (all, Keyed, i);

      g_assert_cmpint (g_array_index (o->keys, gint64, i), ==, e->key);
      g_assert_cmpuint (g_array_index (o->feeds, guint32, i), ==, e->feed);
      g_assert_cmpuint (g_array_index (o->ranks, guint32, i), ==, e->rank);
    }
}

/* Strict merge (trace folders): producers on threads, the consumer never
 * waiting for them but on the hub. */
static void
run_strict (guint   n_feeds,
            guint   max_events,
            guint   n_threads,
            guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  SlFeedHub *hub = sl_feed_hub_new ();
  g_autofree SlFeed **feeds = g_new0 (SlFeed *, n_feeds);
  g_autofree gint64 **times = g_new0 (gint64 *, n_feeds);
  g_autofree guint *n_events = g_new0 (guint, n_feeds);
  g_autofree gint64 *hints = g_new0 (gint64, n_feeds);
  g_autofree Producer *producers = g_new0 (Producer, n_threads);
  g_autofree GThread **threads = g_new0 (GThread *, n_threads);
  SlFeedMerge m = { 0 };
  SlFeedMergeStatus st;
  Output o;

  make_times (rand, n_feeds, max_events, times, n_events, hints);
  output_init (&o);
  for (guint f = 0; f < n_feeds; f++)
    {
      feeds[f] = sl_feed_new (hub);
      sl_feed_set_engine_host (feeds[f], f);
      sl_feed_set_hint (feeds[f], hints[f]);
    }
  for (guint t = 0; t < n_threads; t++)
    {
      producers[t] = (Producer) { feeds, n_feeds, times, n_events, t, n_threads, g_rand_int (rand) };
      threads[t] = g_thread_new ("producer", produce, &producers[t]);
    }

  m.feeds = feeds;
  m.n_feeds = n_feeds;
  m.packet_func = record_cb;
  m.packet_data = &o;
  m.hold_us = -1;
  for (;;)
    {
      m.deadline = g_get_monotonic_time () + 1000;
      st = sl_feed_merge (hub, &m);
      if (st == SL_FEED_MERGE_DONE)
        break;
      g_assert_true (st == SL_FEED_MERGE_WAIT || st == SL_FEED_MERGE_BUSY);
      if (st == SL_FEED_MERGE_WAIT)
        sl_feed_hub_wait (hub, g_get_monotonic_time () + G_USEC_PER_SEC, NULL);
    }
  for (guint t = 0; t < n_threads; t++)
    g_thread_join (threads[t]);

  check_output (&o, n_feeds, times, n_events, hints);
  for (guint f = 0; f < n_feeds; f++)
    {
      g_assert_true (sl_feed_is_done (feeds[f]));
      g_assert_cmpuint (sl_feed_get_fed (feeds[f]), ==, n_events[f]);
    }

  output_clear (&o);
  for (guint f = 0; f < n_feeds; f++)
    {
      sl_feed_free (feeds[f]);
      g_free (times[f]);
    }
  sl_feed_hub_free (hub);
  g_rand_free (rand);
}

static void
test_strict_few (void)
{
  for (guint32 seed = 1; seed <= 20; seed++)
    run_strict (g_test_quick () ? 5 : 9, 3000, 3, seed);
}

static void
test_strict_many (void)
{
  run_strict (3000, 60, 4, 77);
  run_strict (300, 1500, 2, 78);
}

/* Two feeds (engine hosts 0 and 1) merged into one output, nothing held
 * back by time. */
typedef struct
{
  SlFeedHub   *hub;
  SlFeed      *feeds[2];
  SlFeedMerge  m;
  Output       o;
} TwoFeeds;

static void
two_feeds_init (TwoFeeds *t)
{
  t->hub = sl_feed_hub_new ();
  for (guint i = 0; i < 2; i++)
    {
      t->feeds[i] = sl_feed_new (t->hub);
      sl_feed_set_engine_host (t->feeds[i], i);
    }
  output_init (&t->o);
  memset (&t->m, 0, sizeof t->m);
  t->m.feeds = t->feeds;
  t->m.n_feeds = 2;
  t->m.packet_func = record_cb;
  t->m.packet_data = &t->o;
  t->m.hold_us = -1;
  t->m.deadline = G_MAXINT64;
}

static void
two_feeds_clear (TwoFeeds *t)
{
  output_clear (&t->o);
  sl_feed_free (t->feeds[0]);
  sl_feed_free (t->feeds[1]);
  sl_feed_hub_free (t->hub);
}

/* A feed that publishes nothing holds the others back, up to its
 * watermark; then they go. */
static void
test_watermark (void)
{
  TwoFeeds t;

  two_feeds_init (&t);

  for (guint k = 0; k < 10; k++)
    push_event (t.feeds[0], 100 + 10 * k, k);
  sl_feed_publish (t.feeds[0], SL_FEED_FLUSH_ALL);
  g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_WAIT);
  g_assert_cmpuint (t.o.keys->len, ==, 0);

  /* feed 1 known up to 135: 100…130 may go */
  sl_feed_seen (t.feeds[1], 135);
  sl_feed_publish (t.feeds[1], SL_FEED_FLUSH_IF_WANTED);
  g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_WAIT);
  g_assert_cmpuint (t.o.keys->len, ==, 4);

  /* feed 1 ends: feed 0 goes to its end, then waits for its own
   * watermark */
  push_event (t.feeds[1], 150, 0);
  sl_feed_publish (t.feeds[1], SL_FEED_FLUSH_LAST);
  g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_WAIT);
  g_assert_cmpuint (t.o.keys->len, ==, 11);
  /* a tie goes to the feed given first */
  g_assert_cmpuint (g_array_index (t.o.feeds, guint32, 5), ==, 0);
  g_assert_cmpuint (g_array_index (t.o.feeds, guint32, 6), ==, 1);
  g_assert_cmpint (g_array_index (t.o.keys, gint64, 6), ==, 150);

  sl_feed_publish (t.feeds[0], SL_FEED_FLUSH_LAST);
  g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_DONE);
  g_assert_cmpuint (t.o.keys->len, ==, 11);
  g_assert_true (sl_feed_is_done (t.feeds[0]) && sl_feed_is_done (t.feeds[1]));

  two_feeds_clear (&t);
}

/* Feeds that only move their watermarks on (a live session with no
 * traffic: the relay's inactivity beacons) leave the merge no more than
 * a few entries each: it kept one per beacon for good (5 kB a second
 * with four hosts, found in an idle live session of the application). */
static void
test_idle_watermarks (void)
{
  TwoFeeds t;
  guint most = 0;

  two_feeds_init (&t);
  for (guint k = 1; k <= 10000; k++)
    {
      for (guint i = 0; i < 2; i++)
        {
          sl_feed_seen (t.feeds[i], 1000 * k + i);
          sl_feed_publish (t.feeds[i], SL_FEED_FLUSH_IF_WANTED);
        }
      g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_WAIT);
      most = MAX (most, _sl_feed_hub_get_stalled_len (t.hub));
    }
  g_test_message ("at most %u entries for 2 waited feeds over 20 000 watermarks", most);
  g_assert_cmpuint (most, <=, 2 * 2 + 16);

  /* the merge still holds each feed back at the other's watermark */
  push_event (t.feeds[1], 10000000 + 5, 0);
  sl_feed_publish (t.feeds[1], SL_FEED_FLUSH_ALL);
  g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_WAIT);
  g_assert_cmpuint (t.o.keys->len, ==, 0);
  sl_feed_seen (t.feeds[0], 10000000 + 7);
  sl_feed_publish (t.feeds[0], SL_FEED_FLUSH_IF_WANTED);
  g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_WAIT);
  g_assert_cmpuint (t.o.keys->len, ==, 1);
  push_event (t.feeds[0], 10000000 + 9, 0);
  sl_feed_publish (t.feeds[0], SL_FEED_FLUSH_LAST);
  sl_feed_publish (t.feeds[1], SL_FEED_FLUSH_LAST);
  g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_DONE);
  g_assert_cmpuint (t.o.keys->len, ==, 2);
  g_assert_cmpuint (g_array_index (t.o.feeds, guint32, 1), ==, 0);
  two_feeds_clear (&t);
}

/* A tie with a feed known only up to the tied key (its partial batch not
 * handed over: its watermark is that packet event's time) waits for it:
 * the feed given first goes first, whether its batch came or not. */
static void
test_tie_watermark (void)
{
  TwoFeeds t;

  two_feeds_init (&t);

  push_event (t.feeds[0], 100, 0);
  push_event (t.feeds[0], 150, 1);
  sl_feed_publish (t.feeds[0], SL_FEED_FLUSH_ALL);
  push_event (t.feeds[0], 200, 2);
  sl_feed_seen (t.feeds[0], 200);
  sl_feed_publish (t.feeds[0], SL_FEED_FLUSH_IF_WANTED);
  g_assert_cmpint (sl_feed_get_watermark_locked (t.feeds[0]), ==, 200);

  push_event (t.feeds[1], 120, 0);
  push_event (t.feeds[1], 200, 1);
  push_event (t.feeds[1], 300, 2);
  sl_feed_publish (t.feeds[1], SL_FEED_FLUSH_LAST);

  /* feed 0's packet event at 200 is not handed over yet: feed 1's at 200
   * waits for it */
  g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_WAIT);
  g_assert_cmpuint (t.o.keys->len, ==, 3);

  sl_feed_publish (t.feeds[0], SL_FEED_FLUSH_LAST);
  g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_DONE);
  g_assert_cmpuint (t.o.keys->len, ==, 6);
  g_assert_cmpint (g_array_index (t.o.keys, gint64, 3), ==, 200);
  g_assert_cmpuint (g_array_index (t.o.feeds, guint32, 3), ==, 0);
  g_assert_cmpint (g_array_index (t.o.keys, gint64, 4), ==, 200);
  g_assert_cmpuint (g_array_index (t.o.feeds, guint32, 4), ==, 1);

  two_feeds_clear (&t);
}

/* Live: feeds appended between calls, hints changed, a feed not waited
 * for, and a packet event that waited long enough going out of order. */
static void
test_live (void)
{
  SlFeedHub *hub = sl_feed_hub_new ();
  SlFeed *feeds[3] = { sl_feed_new (hub), sl_feed_new (hub), sl_feed_new (hub) };
  SlFeedMerge m = { 0 };
  Output o;

  output_init (&o);
  for (guint f = 0; f < 3; f++)
    sl_feed_set_engine_host (feeds[f], f);
  m.feeds = feeds;
  m.n_feeds = 1;
  m.packet_func = record_cb;
  m.packet_data = &o;
  m.hold_us = (gint64) G_USEC_PER_SEC * 3600;
  m.deadline = G_MAXINT64;

  push_event (feeds[0], 1000, 0);
  push_event (feeds[0], 2000, 1);
  sl_feed_publish (feeds[0], SL_FEED_FLUSH_ALL);
  sl_feed_seen (feeds[1], 1500);
  sl_feed_publish (feeds[1], SL_FEED_FLUSH_ALL);
  g_assert_cmpint (sl_feed_merge (hub, &m), ==, SL_FEED_MERGE_WAIT);
  g_assert_cmpuint (o.keys->len, ==, 2);

  /* a second host appears, known up to 2500 */
  push_event (feeds[0], 3000, 2);
  sl_feed_publish (feeds[0], SL_FEED_FLUSH_ALL);
  sl_feed_seen (feeds[1], 2500);
  sl_feed_publish (feeds[1], SL_FEED_FLUSH_ALL);
  m.n_feeds = 2;
  g_assert_cmpint (sl_feed_merge (hub, &m), ==, SL_FEED_MERGE_HOLD);
  g_assert_cmpuint (o.keys->len, ==, 2);
  g_assert_cmpint (m.until, >, g_get_monotonic_time ());

  /* its clock is 1000 ns behind: known up to 3500 on the merge's clock */
  sl_feed_set_hint (feeds[1], -1000);
  g_assert_cmpint (sl_feed_merge (hub, &m), ==, SL_FEED_MERGE_WAIT);
  g_assert_cmpuint (o.keys->len, ==, 3);

  /* not waited for: its silence holds nothing back */
  push_event (feeds[0], 4000, 3);
  sl_feed_publish (feeds[0], SL_FEED_FLUSH_ALL);
  sl_feed_set_waited (feeds[1], FALSE);
  g_assert_cmpint (sl_feed_merge (hub, &m), ==, SL_FEED_MERGE_WAIT);
  g_assert_cmpuint (o.keys->len, ==, 4);

  /* waited for again, silent: what waited long enough goes anyway */
  sl_feed_set_waited (feeds[1], TRUE);
  push_event (feeds[0], 9000, 4);
  sl_feed_publish (feeds[0], SL_FEED_FLUSH_ALL);
  m.hold_us = 0;
  g_assert_cmpint (sl_feed_merge (hub, &m), ==, SL_FEED_MERGE_WAIT);
  g_assert_cmpuint (o.keys->len, ==, 5);

  /* a third host's older packet event is merged once it publishes */
  m.hold_us = -1;
  m.n_feeds = 3;
  push_event (feeds[2], 500, 0);
  sl_feed_publish (feeds[2], SL_FEED_FLUSH_LAST);
  sl_feed_publish (feeds[1], SL_FEED_FLUSH_LAST);
  sl_feed_publish (feeds[0], SL_FEED_FLUSH_LAST);
  g_assert_cmpint (sl_feed_merge (hub, &m), ==, SL_FEED_MERGE_DONE);
  g_assert_cmpuint (o.keys->len, ==, 6);
  g_assert_cmpuint (g_array_index (o.feeds, guint32, 5), ==, 2);

  output_clear (&o);
  for (guint f = 0; f < 3; f++)
    sl_feed_free (feeds[f]);
  sl_feed_hub_free (hub);
}

static gpointer
publish_cb (gpointer data)
{
  sl_feed_publish (data, SL_FEED_FLUSH_IF_WANTED);
  return NULL;
}

/* A spilling feed's partial batch left out of its file (not wanted when
 * the producer looked) stays out of the queue when the consumer wants it
 * before the producer takes the hub's lock: the queue is read after the
 * file, so those packet events came after the file's later ones (with
 * the threads' timing: /parallel/same-input's spilled runs, host b's
 * keys going back by 372 ms). The test holds the lock so that the want
 * comes in between. */
static void
test_spill_wanted (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-feed-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "spill", NULL);
  TwoFeeds t;
  GThread *producer;

  g_assert_no_error (error);
  two_feeds_init (&t);
  sl_feed_hub_set_batch_size (t.hub, 4);
  sl_feed_set_spill (t.feeds[0], path);
  sl_feed_publish (t.feeds[1], SL_FEED_FLUSH_LAST);
  for (guint k = 0; k < 3; k++)
    push_event (t.feeds[0], 100 + 10 * k, k);

  sl_feed_hub_lock (t.hub);
  producer = g_thread_new ("producer", publish_cb, t.feeds[0]);
  /* time for it to look at the flag and wait for the lock */
  g_usleep (200 * 1000);
  sl_feed_want (t.feeds[0]);
  sl_feed_hub_unlock (t.hub);
  g_thread_join (producer);

  for (guint k = 3; k < 11; k++)
    push_event (t.feeds[0], 100 + 10 * k, k);
  sl_feed_publish (t.feeds[0], SL_FEED_FLUSH_LAST);
  g_assert_cmpint (sl_feed_merge (t.hub, &t.m), ==, SL_FEED_MERGE_DONE);

  g_assert_cmpuint (t.o.keys->len, ==, 11);
  for (guint k = 0; k < 11; k++)
    g_assert_cmpint (g_array_index (t.o.keys, gint64, k), ==, 100 + 10 * k);
  two_feeds_clear (&t);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/feed/strict-few", test_strict_few);
  g_test_add_func ("/feed/strict-many", test_strict_many);
  g_test_add_func ("/feed/watermark", test_watermark);
  g_test_add_func ("/feed/tie-watermark", test_tie_watermark);
  g_test_add_func ("/feed/idle-watermarks", test_idle_watermarks);
  g_test_add_func ("/feed/live", test_live);
  g_test_add_func ("/feed/spill-wanted", test_spill_wanted);
  return g_test_run ();
}
