/* live-watch.h: a live reader's updates watched from another thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the live tests and the live benchmark (tests/test-live.c,
 * tests/bench-live.c) read of the updates an SlLive delivers: counts,
 * links, problems, each host's state; a test waits (bounded) until a
 * predicate on them holds. The fields are read under @lock.
 */

#pragma once

#include "sl-live.h"

G_BEGIN_DECLS

typedef struct _SlLiveWatch SlLiveWatch;

/* Called from the update, under @lock, after the watch took what it
 * keeps: keep it short (the engine is locked). */
typedef void (*SlLiveWatchHook) (SlLiveWatch        *w,
                                 SlEngine           *engine,
                                 const SlLiveUpdate *u,
                                 gpointer            data);

struct _SlLiveWatch
{
  GMutex     lock;
  GCond      cond;
  guint      updates;
  guint      accurate_updates;
  gboolean   final;
  guint64    packets;
  guint64    last_accurate_total;
  gint64     first_packets_at;
  gint64     first_estimate_at;
  GPtrArray *problems;
  GPtrArray *hosts;
  guint      accurate_links;
  guint      n_links;
  guint      n_engine_hosts;
  gint64     started;
  /* updates in which a host left "ended" before it said that its session
   * was created again */
  guint      left_ended;
  /* TRUE: no g_test_message() of problems and host states (a benchmark's
   * standard output is its JSON) */
  gboolean   quiet;
  SlLiveWatchHook hook;
  gpointer   hook_data;
};

typedef gboolean (*SlLiveWatchPredicate) (SlLiveWatch *w,
                                          gpointer     data);

void     sl_live_watch_init   (SlLiveWatch          *w);
void     sl_live_watch_clear  (SlLiveWatch          *w);
SlLive  *sl_live_watch_start  (SlLiveWatch          *w,
                               SlEngine             *engine,
                               const SlLiveOptions  *lo,
                               const char           *url,
                               GError              **error);
gboolean sl_live_watch_wait   (SlLiveWatch          *w,
                               SlLiveWatchPredicate  pred,
                               gpointer              data,
                               guint                 seconds);

G_END_DECLS
