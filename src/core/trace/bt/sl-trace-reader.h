/* sl-trace-reader.h: LTTng trace folders to packet events and event stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-engine.h"
#include "sl-event-store.h"
#include "sl-feed.h"
#include "sl-trace-problem.h"

G_BEGIN_DECLS

/**
 * SlTraceSpill:
 * @SL_TRACE_SPILL_AUTO: spill beyond 256 hosts (with @keep_events too:
 *   a decoder left open per host, paused while others have the threads,
 *   made 1 000 hosts' reading wait on 1 000 processes' wake-ups)
 * @SL_TRACE_SPILL_NEVER: every host's decoder stays open until the merge
 *   has taken its events (results come while reading)
 * @SL_TRACE_SPILL_ALWAYS: each host is decoded from start to end and its
 *   packet events go to a temporary file that the merge reads back: only
 *   as many babeltrace graphs as threads exist at once, memory per host is
 *   a batch, but the merge starts once every host has been decoded
 */
typedef enum
{
  SL_TRACE_SPILL_AUTO,
  SL_TRACE_SPILL_NEVER,
  SL_TRACE_SPILL_ALWAYS,
} SlTraceSpill;

/**
 * SlTraceReaderOptions:
 * @n_threads: decoding threads, and at most as many check the traces first (0: one per processor)
 * @keep_events: fill each host's #SlEventStore (memory grows with the
 *   trace; without it, memory is independent of trace length)
 * @spill: whether packet events wait in temporary files (see #SlTraceSpill)
 * @packet_func: (nullable): receives the packet events, in merge order
 *   (each host's in its own order), instead of the engine, which still
 *   gets the hosts and their counts (`syncline-cli extract`)
 * @packet_data: its user data
 * @calibration_packets: packet events per host read ahead to estimate
 *   coarse clock offsets for the merge order (0: 4096, fewer beyond 32
 *   hosts, at least 256)
 * @scan_only: find, check and group the traces into hosts (and add them to
 *   the engine), decode nothing: the reader is DONE once the hosts are
 *   known (`syncline-cli apply`)
 */
typedef struct
{
  guint            n_threads;
  gboolean         keep_events;
  guint            calibration_packets;
  SlTraceSpill     spill;
  SlFeedPacketFunc packet_func;
  gpointer         packet_data;
  gboolean         scan_only;
} SlTraceReaderOptions;

typedef enum
{
  SL_TRACE_READER_BUSY,
  SL_TRACE_READER_AGAIN,
  SL_TRACE_READER_DONE,
  SL_TRACE_READER_CANCELLED,
} SlTraceReaderStatus;

/**
 * SlTraceProgress:
 * @fraction: 0 to 1, by stream bytes decoded
 * @events: events decoded so far, all hosts
 * @events_per_s: decoding rate since the start
 * @eta_s: seconds left, or -1 when not known yet
 * @hosts: hosts found (0 while the folders are being searched)
 * @hosts_done: hosts fully decoded
 * @scanning: still searching the folders
 */
typedef struct
{
  double   fraction;
  guint64  events;
  double   events_per_s;
  double   eta_s;
  guint    hosts;
  guint    hosts_done;
  gboolean scanning;
} SlTraceProgress;

typedef void (*SlTraceReaderWakeup) (gpointer user_data);

typedef struct _SlTraceReader SlTraceReader;

void                 sl_trace_reader_remove_stale    (void);
void                 sl_trace_reader_options_init    (SlTraceReaderOptions       *options);
SlTraceReader       *sl_trace_reader_new             (SlEngine                   *engine,
                                                      const SlTraceReaderOptions *options);
void                 sl_trace_reader_free            (SlTraceReader              *self);
void                 sl_trace_reader_add_folder      (SlTraceReader              *self,
                                                      const char                 *path);
void                 sl_trace_reader_set_wakeup      (SlTraceReader              *self,
                                                      SlTraceReaderWakeup         wakeup,
                                                      gpointer                    user_data);
void                 sl_trace_reader_start           (SlTraceReader              *self);
SlTraceReaderStatus  sl_trace_reader_step            (SlTraceReader              *self,
                                                      gint64                      budget_us);
void                 sl_trace_reader_wait            (SlTraceReader              *self,
                                                      gint64                      timeout_us);
SlTraceReaderStatus  sl_trace_reader_run             (SlTraceReader              *self);
void                 sl_trace_reader_cancel          (SlTraceReader              *self);
void                 sl_trace_reader_get_progress    (SlTraceReader              *self,
                                                      SlTraceProgress            *progress);
GPtrArray           *sl_trace_reader_dup_problems    (SlTraceReader              *self);
guint                sl_trace_reader_get_n_hosts     (SlTraceReader              *self);
gboolean             sl_trace_reader_get_launched    (SlTraceReader              *self);
const char          *sl_trace_reader_get_host_name   (SlTraceReader              *self,
                                                      guint                       index);
guint                sl_trace_reader_get_engine_host (SlTraceReader              *self,
                                                      guint                       index);
const GPtrArray     *sl_trace_reader_get_host_traces (SlTraceReader              *self,
                                                      guint                       index);
void                 sl_trace_reader_get_host_identity (SlTraceReader            *self,
                                                      guint                       index,
                                                      const char                **hostname,
                                                      const char                **clock_uuid);
gboolean             sl_trace_reader_host_failed     (SlTraceReader              *self,
                                                      guint                       index);
const SlEventStore  *sl_trace_reader_get_event_store (SlTraceReader              *self,
                                                      guint                       index);
gboolean             sl_trace_reader_host_decoded    (SlTraceReader              *self,
                                                      guint                       index);
gint64               sl_trace_reader_get_merge_hint  (SlTraceReader              *self,
                                                      guint                       index);
gboolean             sl_trace_reader_get_segment     (SlTraceReader              *self,
                                                      guint                       index,
                                                      guint                      *first,
                                                      gint64                     *step_ns,
                                                      gint64                     *start_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTraceReader, sl_trace_reader_free)

G_END_DECLS
