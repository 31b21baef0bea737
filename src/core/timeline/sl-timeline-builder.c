/* sl-timeline-builder.c: a reader's hosts' rows built while it reads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline of trace folders was built once the reader was done, on
 * the engine's thread: seconds at a thousand hosts, with the processors
 * otherwise idle during the merge (one thread) and every result waiting
 * for it. Here a thread of its own builds each host's rows as soon as its
 * decoding is over (its store no longer grows), in the order of the
 * engine's host indices, so the rows are the ones sl_timeline_update()
 * makes alone; the engine's thread only hands the hosts over and goes on
 * adding matches, which touch other parts of the timeline. The same
 * thread finds the thread and CPU of each match's ends as their hosts are
 * built (sl-timeline-arrows.c), which was most of the arrows' cost at the
 * end, and makes each arrow once both its hosts are built (lane by lane in
 * the matches' order, as the end would).
 */

#include "config.h"

#include <stdatomic.h>

#include "sl-cpu-time.h"
#include "sl-timeline-builder.h"
#include "sl-timeline-private.h"

struct _SlTimelineBuilder
{
  SlTimeline    *timeline;
  SlTraceReader *reader;
  /* the reader's host indices by engine host index, and the next one to
   * hand over */
  GArray        *order;
  guint          next;
  GAsyncQueue   *queue;
  GThread       *thread;
  atomic_int     stop;
  atomic_int     built;
};

/* the end of the queue (a host is its engine index + 1: never NULL) */
#define END_OF_HOSTS GUINT_TO_POINTER (G_MAXUINT)
#define TAKE_MATCHES_US 50000

static gpointer
build_thread (gpointer data)
{
  SlTimelineBuilder *b = data;

  for (;;)
    {
      /* while no host comes, the matches between built hosts */
      gpointer item = g_async_queue_timeout_pop (b->queue, TAKE_MATCHES_US);

      if (item == END_OF_HOSTS || atomic_load (&b->stop))
        break;
      if (item == NULL)
        {
          _sl_tl_arrows_take_new (b->timeline);
          continue;
        }
      sl_timeline_update_host (b->timeline, GPOINTER_TO_UINT (item) - 1);
      _sl_tl_arrows_host_built (b->timeline, GPOINTER_TO_UINT (item) - 1);
      atomic_fetch_add (&b->built, 1);
    }
  if (g_getenv ("SL_PROFILE") != NULL)
    g_printerr ("builder %.1f ms (thread CPU %.1f ms): over\n", g_get_monotonic_time () / 1000.0,
                sl_thread_cpu_us () / 1000.0);
  return NULL;
}

static int
cmp_engine_host (gconstpointer a,
                 gconstpointer b,
                 gpointer      reader)
{
  guint x = sl_trace_reader_get_engine_host (reader, *(const guint *) a);
  guint y = sl_trace_reader_get_engine_host (reader, *(const guint *) b);

  return x < y ? -1 : x > y;
}

/**
 * sl_timeline_builder_new:
 * @timeline: a timeline with no hosts yet, connected to the reader's
 *   engine (sl_timeline_connect_engine())
 * @reader: a reader that keeps events and has found its hosts
 *   (sl_trace_reader_get_n_hosts() > 0)
 *
 * Declares the reader's hosts in @timeline (sl_timeline_add_reader_hosts())
 * and starts the thread that builds them. From now until
 * sl_timeline_builder_finish(), only the engine's matches may touch
 * @timeline. Engine thread.
 */
SlTimelineBuilder *
sl_timeline_builder_new (SlTimeline    *timeline,
                         SlTraceReader *reader)
{
  SlTimelineBuilder *b;
  guint n;

  g_return_val_if_fail (timeline != NULL, NULL);
  g_return_val_if_fail (reader != NULL, NULL);
  g_return_val_if_fail (sl_timeline_get_n_hosts (timeline) == 0, NULL);

  n = sl_trace_reader_get_n_hosts (reader);
  b = g_new0 (SlTimelineBuilder, 1);
  b->timeline = timeline;
  b->reader = reader;
  b->order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  for (guint i = 0; i < n; i++)
    if (sl_trace_reader_get_engine_host (reader, i) < G_MAXUINT16)
      g_array_append_val (b->order, i);
  g_array_sort_with_data (b->order, cmp_engine_host, reader);
  b->queue = g_async_queue_new ();
  atomic_init (&b->stop, 0);
  atomic_init (&b->built, 0);
  sl_timeline_add_reader_hosts (timeline, reader);
  b->thread = g_thread_new ("sl-timeline", build_thread, b);
  return b;
}

/**
 * sl_timeline_builder_poll:
 *
 * Hands over the hosts whose decoding has ended since the last call, in
 * the order of their engine indices (a host waits for those before it).
 * Engine thread, as often as convenient: it costs a load per call when
 * nothing is new.
 */
void
sl_timeline_builder_poll (SlTimelineBuilder *b)
{
  g_return_if_fail (b != NULL);

  while (b->next < b->order->len)
    {
      guint index = g_array_index (b->order, guint, b->next);

      if (!sl_trace_reader_host_decoded (b->reader, index))
        return;
      g_async_queue_push (b->queue, GUINT_TO_POINTER (sl_trace_reader_get_engine_host (b->reader, index) + 1));
      b->next++;
    }
}

/**
 * sl_timeline_builder_finish:
 * @abandon: stop after the host being built (cancelled reading) rather
 *   than build every host handed over
 *
 * Waits for the thread and frees @b; the timeline is the caller's alone
 * again. After a complete read, sl_timeline_update() builds what was not
 * handed over yet and resolves the arrows.
 */
void
sl_timeline_builder_finish (SlTimelineBuilder *b,
                            gboolean           abandon)
{
  g_return_if_fail (b != NULL);

  if (g_getenv ("SL_PROFILE") != NULL)
    g_printerr ("builder: %u of %u hosts handed over, %d built\n", b->next, b->order->len, atomic_load (&b->built));
  if (abandon)
    atomic_store (&b->stop, 1);
  g_async_queue_push (b->queue, END_OF_HOSTS);
  g_thread_join (b->thread);
  g_async_queue_unref (b->queue);
  g_array_unref (b->order);
  g_free (b);
}
