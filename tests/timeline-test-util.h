/* timeline-test-util.h: trace folders read into an engine and a timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-timeline.h"
#include "sl-trace-reader.h"

typedef struct
{
  SlEngine      *engine;
  SlTraceReader *reader;
  SlTimeline    *tl;
} Loaded;

static G_GNUC_UNUSED void
loaded_init (Loaded            *l,
             const char *const *folders)
{
  SlEngineOptions eo;
  SlTraceReaderOptions ro;

  sl_engine_options_init (&eo);
  l->engine = sl_engine_new (&eo);
  sl_trace_reader_options_init (&ro);
  ro.keep_events = TRUE;
  l->reader = sl_trace_reader_new (l->engine, &ro);
  l->tl = sl_timeline_new ();
  sl_timeline_connect_engine (l->tl, l->engine);
  for (guint i = 0; folders[i] != NULL; i++)
    sl_trace_reader_add_folder (l->reader, folders[i]);
  g_assert_cmpint (sl_trace_reader_run (l->reader), ==, SL_TRACE_READER_DONE);
  sl_timeline_add_reader_hosts (l->tl, l->reader);
  g_assert_true (sl_timeline_update (l->tl));
  g_assert_false (sl_timeline_update (l->tl));
  sl_timeline_sync_engine (l->tl, l->engine);
}

static G_GNUC_UNUSED void
loaded_clear (Loaded *l)
{
  sl_engine_set_match_func (l->engine, NULL, NULL);
  sl_timeline_free (l->tl);
  sl_trace_reader_free (l->reader);
  sl_engine_free (l->engine);
}


/* The engine's matches as it made them (sl_engine_set_match_func()) */
typedef struct
{
  SlMatch       match;
  SlPacketEvent event;
  gboolean      has_event;
} Recorded;

static G_GNUC_UNUSED void
record_cb (const SlMatch       *match,
           const SlPacketEvent *event,
           gpointer             user_data)
{
  Recorded r = { *match, { 0 }, event != NULL };

  if (event != NULL)
    r.event = *event;
  g_array_append_val ((GArray *) user_data, r);
}

/* The generator's packets (sl_generate_set_packet_func()), with their true
 * times */
typedef struct
{
  SlPacketEvent ev;
  gint64        true_ns;
} TruthPacket;

static G_GNUC_UNUSED void
collect_cb (const SlPacketEvent *ev,
            gint64               true_ns,
            gpointer             user_data)
{
  TruthPacket tp = { *ev, true_ns };

  g_array_append_val ((GArray *) user_data, tp);
}
