/* sl-job.h: one input being synchronized on worker threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK-free. A job owns its engine (and reader or live session). Its worker
 * captures #SlSnapshot s into one mutex-protected pending slot and schedules
 * at most one idle callback on the main context; the callback hands the
 * merged snapshot to the main thread. Once the final snapshot is posted the
 * worker never touches the engine again and the main thread may use it
 * (sl_job_with_engine()); a live engine is reached under its lock.
 */

#pragma once

#include <glib.h>

#include "sl-engine.h"
#include "sl-generate.h"
#include "sl-report.h"
#include "sl-snapshot.h"
#include "sl-timeline.h"
#include "sl-trace-reader.h"

G_BEGIN_DECLS

typedef enum
{
  SL_JOB_FOLDERS,
  SL_JOB_LTTV_TEXT,
  SL_JOB_DEMO,
  SL_JOB_LIVE,
  SL_JOB_GENERATED,
} SlJobKind;

/**
 * SlJobOptions:
 * @engine: engine options
 * @update_ms: shortest time between two snapshots
 * @pinned: name of the host to pin as reference, or %NULL
 * @demo_dir: where the demo traces are written (SL_JOB_DEMO)
 * @generate: hosts, links and events of a generated input (SL_JOB_DEMO,
 *   SL_JOB_GENERATED); %NULL for the defaults
 * @generate_pace_us: SL_JOB_GENERATED: real time per simulated second of
 *   packets (0: as fast as possible), to replay like a live session
 * @generate_links: links between the automatic hosts (indices into them),
 *   or %NULL for the generator's own
 * @n_generate_links: their number
 * @keep_events: trace folders: keep the hosts' events and build the
 *   timeline model on the worker (sl_job_get_timeline()); live sessions:
 *   keep them and build it on the main thread (sl_job_update_timeline())
 * @no_timeline: trace folders with @keep_events: keep the events but build
 *   no timeline model (the CLI summarizes the streams)
 * @n_threads: trace folders: decoding threads (0: one per processor)
 * @retention_ns: live sessions with @keep_events: how much of each host's
 *   newest events the timeline keeps (0: all; sl_job_set_retention())
 * @any_text: SL_JOB_LTTV_TEXT: parse files that do not look like LTTV text
 *   too (the CLI's --input-format=lttv-text), so that the error is the
 *   parser's, naming the line
 * @discard_cancelled: trace folders: once cancelled, the final snapshot
 *   holds nothing of the engine, which is neither flushed nor read (the
 *   CLI prints nothing then: Ctrl-C costs no synchronization work)
 * @transforms: trace folders: a saved transforms file
 *   (`--save-transforms`) whose hosts keep its relations
 *   (sl_engine_fix_host()) instead of being synchronized again
 */
typedef struct
{
  SlEngineOptions          engine;
  guint                    update_ms;
  const char              *pinned;
  const char              *demo_dir;
  const SlGenerateOptions *generate;
  gint64                   generate_pace_us;
  const SlGenerateLink    *generate_links;
  guint                    n_generate_links;
  gboolean                 keep_events;
  gboolean                 no_timeline;
  guint                    n_threads;
  gboolean                 any_text;
  gint64                   retention_ns;
  gboolean                 discard_cancelled;
  const char              *transforms;
} SlJobOptions;

typedef struct _SlJob SlJob;

typedef void (*SlJobSnapshotFunc) (SlJob      *job,
                                   SlSnapshot *snapshot,
                                   gpointer    user_data);
typedef void (*SlJobEngineFunc)   (SlEngine   *engine,
                                   gpointer    user_data);

void        sl_job_options_init      (SlJobOptions        *options);
SlJob      *sl_job_new               (SlJobKind            kind,
                                      const char * const  *inputs,
                                      const SlJobOptions  *options);
SlJob      *sl_job_ref               (SlJob               *self);
void        sl_job_unref             (SlJob               *self);
SlJobKind   sl_job_get_kind          (SlJob               *self);
void        sl_job_set_snapshot_func (SlJob               *self,
                                      SlJobSnapshotFunc    func,
                                      gpointer             user_data);
void        sl_job_start             (SlJob               *self);
void        sl_job_cancel            (SlJob               *self);
void        sl_job_close             (SlJob               *self);
gboolean    sl_job_wait_all          (gint64               timeout_us);
void        sl_job_request_plot      (SlJob               *self,
                                      guint                link);
void        sl_job_pin_reference     (SlJob               *self,
                                      const char          *host);
gboolean    sl_job_with_engine       (SlJob               *self,
                                      SlJobEngineFunc      func,
                                      gpointer             user_data);
SlSnapshot *sl_job_capture_now       (SlJob               *self);
SlPlotData *sl_job_build_plot_now    (SlJob               *self,
                                      guint                link);
gboolean    sl_job_is_done           (SlJob               *self);
gint64      sl_job_get_elapsed_us    (SlJob               *self);
guint       sl_job_get_n_captures    (SlJob               *self);
void        sl_job_get_timing        (SlJob               *self,
                                      SlReportTiming      *timing);
GPtrArray  *sl_job_dup_problems      (SlJob               *self);
SlTimeline *sl_job_get_timeline      (SlJob               *self);
SlTraceReader *sl_job_get_reader     (SlJob               *self);
gboolean    sl_job_update_timeline   (SlJob               *self);
void        sl_job_set_retention     (SlJob               *self,
                                      gint64               retention_ns);
gboolean    sl_job_add_live_url      (SlJob               *self,
                                      const char          *url,
                                      GError             **error);
guint       sl_job_remove_live_url   (SlJob               *self,
                                      const char          *url);
void        sl_job_lock_events       (SlJob               *self);
void        sl_job_unlock_events     (SlJob               *self);
const SlEventStore *sl_job_get_event_store (SlJob             *self,
                                      guint                host);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlJob, sl_job_unref)

G_END_DECLS
