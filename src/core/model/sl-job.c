/* sl-job.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "sl-cpu-time.h"
#include "sl-job.h"
#include "sl-live.h"
#include "sl-lttv-text.h"
#include "sl-timeline-builder.h"
#include "sl-trace-reader.h"
#include "sl-transforms-file.h"

#define STEP_BUDGET_US 20000

/* SL_PROFILE=1: the end of a read, step by step */
static void
profile_mark (const char *what)
{
  sl_profile_mark ("job", "%s", what);
}

struct _SlJob
{
  gatomicrefcount    ref_count;
  SlJobKind          kind;
  char             **inputs;
  SlEngineOptions    engine_options;
  guint              update_ms;
  char              *demo_dir;
  SlGenerateOptions  generate;
  gboolean           has_generate;
  gint64             pace_us;
  GArray            *links;

  SlEngine          *engine;
  SlTraceReader     *reader;
  SlLive            *live;
  GThread           *thread;
  gboolean           keep_events;
  gboolean           no_timeline;
  guint              n_threads;
  gboolean           any_text;
  gboolean           discard_cancelled;
  char              *transforms;
  SlTimeline        *timeline;

  /* live timeline: matches wait here (engine thread, live engine lock
   * held) until the main thread takes them under the same lock */
  GArray            *live_matches;
  guint              timeline_hosts;
  /* live with trace folders: their history is read first (self->reader),
   * its stores continued by the live attachments */
  gboolean           history_done;
  /* live timeline: the span kept (0: all), main thread */
  gint64             retention_ns;

  /* worker only */
  guint64            journal_next;
  /* the previous capture's hosts, which the next takes while unchanged */
  SlSnapshotCache   *capture_cache;
  guint              problems_sent;
  gint64             last_capture;
  gint64             capture_cost;
  gint64             capture_wait;
  gint64             wait_checked;
  guint              n_captures;

  GMutex             lock;
  GCond              cond;
  SlSnapshot        *pending;
  guint              idle_id;
  SlJobSnapshotFunc  func;
  gpointer           func_data;
  gboolean           cancelled;
  gboolean           done;
  guint              plot_link;
  gint64             plot_version;
  gboolean           plot_force;
  char              *pin_name;
  gboolean           pin_dirty;
  GPtrArray         *problems;
  gint64             t0;
  gint64             t1;
  double             cpu0;
  double             cpu1;
  /* the processor time of the process's children that ended: its
   * decoders */
  double             children0;
  double             children1;
};

/* Jobs not yet freed: an application waits for their workers, which
 * remove the readers' temporary folders, before its process ends. */
static GMutex jobs_lock;
static GCond jobs_freed;
static guint n_jobs;

typedef struct
{
  SlMatch       match;
  SlPacketEvent event;
  gboolean      has_event;
} LiveMatch;

static SlTraceProblem *
problem_new (const char *host,
             const char *file,
             const char *message)
{
  SlTraceProblem p = { (char *) host, (char *) file, (char *) message };

  return sl_trace_problem_copy (&p);
}

static SlLiveHost *
live_host_copy (const SlLiveHost *h)
{
  SlLiveHost *c = g_new0 (SlLiveHost, 1);

  *c = *h;
  c->hostname = g_strdup (h->hostname);
  c->url = g_strdup (h->url);
  c->message = g_strdup (h->message);
  return c;
}

void
sl_job_options_init (SlJobOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  sl_engine_options_init (&options->engine);
  options->update_ms = 100;
}

SlJob *
sl_job_new (SlJobKind            kind,
            const char * const  *inputs,
            const SlJobOptions  *options)
{
  SlJob *self;

  g_return_val_if_fail (options != NULL, NULL);

  self = g_new0 (SlJob, 1);
  g_atomic_ref_count_init (&self->ref_count);
  g_mutex_lock (&jobs_lock);
  n_jobs++;
  g_mutex_unlock (&jobs_lock);
  self->kind = kind;
  self->inputs = g_strdupv ((char **) inputs);
  self->engine_options = options->engine;
  self->update_ms = MAX (options->update_ms, 10);
  self->demo_dir = g_strdup (options->demo_dir);
  if (options->generate != NULL)
    {
      self->generate = *options->generate;
      self->has_generate = TRUE;
    }
  else
    sl_generate_options_init (&self->generate);
  self->pace_us = options->generate_pace_us;
  self->keep_events = options->keep_events;
  self->no_timeline = options->no_timeline;
  self->n_threads = options->n_threads;
  self->any_text = options->any_text;
  self->discard_cancelled = options->discard_cancelled;
  self->transforms = g_strdup (options->transforms);
  self->retention_ns = MAX (options->retention_ns, 0);
  /* the hull plot shows the matched points of the span the timeline keeps */
  if (kind == SL_JOB_LIVE && self->keep_events)
    self->engine_options.point_retention_ns = self->retention_ns;
  self->links = g_array_new (FALSE, FALSE, sizeof (SlGenerateLink));
  if (options->generate_links != NULL)
    g_array_append_vals (self->links, options->generate_links, options->n_generate_links);
  self->pin_name = g_strdup (options->pinned);
  self->pin_dirty = options->pinned != NULL;
  self->plot_link = G_MAXUINT;
  self->plot_version = -1;
  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);
  self->engine = sl_engine_new (&self->engine_options);
  /* live: the main thread owns the timeline from the start
   * (sl_job_update_timeline()) */
  if (kind == SL_JOB_LIVE && self->keep_events)
    {
      self->timeline = sl_timeline_new ();
      self->live_matches = g_array_new (FALSE, FALSE, sizeof (LiveMatch));
    }
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  return self;
}

SlJob *
sl_job_ref (SlJob *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
sl_job_unref (SlJob *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_assert (self->idle_id == 0);
  g_clear_pointer (&self->live, sl_live_free);
  if (self->timeline != NULL)
    sl_engine_set_match_func (self->engine, NULL, NULL);
  g_clear_pointer (&self->timeline, sl_timeline_free);
  g_clear_pointer (&self->live_matches, g_array_unref);
  g_clear_pointer (&self->reader, sl_trace_reader_free);
  g_clear_pointer (&self->engine, sl_engine_free);
  g_clear_pointer (&self->pending, sl_snapshot_free);
  g_ptr_array_unref (self->problems);
  g_array_unref (self->links);
  g_strfreev (self->inputs);
  g_free (self->transforms);
  g_free (self->demo_dir);
  g_free (self->pin_name);
  g_clear_pointer (&self->capture_cache, sl_snapshot_cache_free);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self);

  g_mutex_lock (&jobs_lock);
  n_jobs--;
  g_cond_broadcast (&jobs_freed);
  g_mutex_unlock (&jobs_lock);
}

/**
 * sl_job_wait_all:
 * @timeout_us: how long to wait at most
 *
 * Waits until every job is freed: closed jobs' workers finish on their
 * own (sl_job_close()), and a process that ended before them would leave
 * their readers' temporary folders and decoders behind.
 *
 * Returns: whether every job was freed in time
 */
gboolean
sl_job_wait_all (gint64 timeout_us)
{
  gint64 end = g_get_monotonic_time () + timeout_us;
  gboolean all;

  g_mutex_lock (&jobs_lock);
  while (n_jobs > 0 && g_cond_wait_until (&jobs_freed, &jobs_lock, end))
    ;
  all = n_jobs == 0;
  g_mutex_unlock (&jobs_lock);
  return all;
}

SlJobKind
sl_job_get_kind (SlJob *self)
{
  g_return_val_if_fail (self != NULL, SL_JOB_FOLDERS);
  return self->kind;
}

void
sl_job_set_snapshot_func (SlJob             *self,
                          SlJobSnapshotFunc  func,
                          gpointer           user_data)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  self->func = func;
  self->func_data = user_data;
  g_mutex_unlock (&self->lock);
}

/* Main thread */

static gboolean
job_idle_cb (gpointer data)
{
  SlJob *self = data;
  SlSnapshot *snapshot;
  SlJobSnapshotFunc func;
  gpointer func_data;

  g_mutex_lock (&self->lock);
  snapshot = g_steal_pointer (&self->pending);
  self->idle_id = 0;
  func = self->func;
  func_data = self->func_data;
  g_mutex_unlock (&self->lock);

  if (snapshot != NULL && func != NULL)
    func (self, snapshot, func_data);
  else
    sl_snapshot_free (snapshot);
  return G_SOURCE_REMOVE;
}

/* Any thread: at most one idle is pending; a newer snapshot replaces the
 * pending one and keeps its changes and problems. */
static void
job_post (SlJob      *self,
          SlSnapshot *snapshot)
{
  g_mutex_lock (&self->lock);
  if (self->pending != NULL)
    sl_snapshot_merge_older (snapshot, g_steal_pointer (&self->pending));
  self->pending = snapshot;
  /* above redraws: a view that animates must not starve the updates */
  if (self->idle_id == 0 && self->func != NULL)
    self->idle_id = g_idle_add_full (G_PRIORITY_DEFAULT, job_idle_cb,
                                     sl_job_ref (self), (GDestroyNotify) sl_job_unref);
  g_mutex_unlock (&self->lock);
}

/* Worker side */

static gboolean
job_cancelled (SlJob *self)
{
  gboolean ret;

  g_mutex_lock (&self->lock);
  ret = self->cancelled;
  g_mutex_unlock (&self->lock);
  return ret;
}

static void
job_apply_pin (SlJob    *self,
               SlEngine *engine)
{
  g_autofree char *name = NULL;
  gboolean dirty;
  guint host = SL_HOST_NONE;

  g_mutex_lock (&self->lock);
  dirty = self->pin_dirty;
  name = g_strdup (self->pin_name);
  g_mutex_unlock (&self->lock);

  if (!dirty)
    return;
  if (name != NULL)
    {
      host = sl_engine_find_host (engine, name);
      if (host == SL_HOST_NONE)
        return;
    }
  sl_engine_pin_reference (engine, host);

  g_mutex_lock (&self->lock);
  if (g_strcmp0 (name, self->pin_name) == 0)
    self->pin_dirty = FALSE;
  g_mutex_unlock (&self->lock);
}

static void
job_add_problems (SlJob      *self,
                  SlSnapshot *snapshot,
                  GPtrArray  *problems)
{
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < problems->len; i++)
    {
      const SlTraceProblem *p = g_ptr_array_index (problems, i);

      g_ptr_array_add (self->problems, sl_trace_problem_copy (p));
      g_ptr_array_add (snapshot->problems, sl_trace_problem_copy (p));
    }
  g_mutex_unlock (&self->lock);
}

static SlSnapshot *
job_capture (SlJob    *self,
             SlEngine *engine)
{
  SlSnapshot *snapshot = sl_snapshot_new ();
  gint64 t = g_get_monotonic_time ();
  gint64 cpu = sl_thread_cpu_us ();
  guint plot_link;
  gint64 plot_version;
  gboolean plot_force;

  job_apply_pin (self, engine);
  if (self->capture_cache == NULL)
    self->capture_cache = sl_snapshot_cache_new ();
  sl_snapshot_capture_engine_cached (snapshot, engine, self->journal_next, self->capture_cache);
  self->journal_next = snapshot->journal_next;

  g_mutex_lock (&self->lock);
  plot_link = self->plot_link;
  plot_version = self->plot_version;
  plot_force = self->plot_force;
  g_mutex_unlock (&self->lock);

  if (plot_link < sl_engine_get_n_links (engine))
    {
      gint64 version = sl_plot_data_link_version (engine, plot_link);

      if (plot_force || version != plot_version)
        {
          snapshot->plot = sl_plot_data_build (engine, plot_link);
          g_mutex_lock (&self->lock);
          if (self->plot_link == plot_link)
            {
              self->plot_version = version;
              self->plot_force = FALSE;
            }
          g_mutex_unlock (&self->lock);
        }
    }

  self->last_capture = g_get_monotonic_time ();
  g_atomic_int_inc (&self->n_captures);
  snapshot->capture_cpu_us = sl_thread_cpu_us () - cpu;
  self->capture_cost = snapshot->capture_cpu_us > 0 ? snapshot->capture_cpu_us : self->last_capture - t;
  self->capture_wait = sl_thread_wait_us ();
  self->wait_checked = self->last_capture;
  return snapshot;
}

/* The main thread has not taken the last snapshot yet. */
static gboolean
job_main_behind (SlJob *self)
{
  gboolean ret;

  g_mutex_lock (&self->lock);
  ret = self->pending != NULL && self->func != NULL;
  g_mutex_unlock (&self->lock);
  return ret;
}

/* A capture is due --update-ms after the previous one, unless that one
 * cost more than a fifth of the worker's own time since: its processor
 * time against the time the worker ran or chose to wait (for input, or
 * pacing), that is the wall time less the time it waited, runnable, for a
 * processor that other programs held. Wall time alone gave a loaded
 * machine fewer updates (a capture's wall time grows with the load, and
 * so did the pause after it) without giving the input more of the
 * worker; processor time alone would capture nonstop on a machine that
 * gives the worker a sliver (which still gets one at the latest ten
 * update intervals late). Without the kernel's figure, the wall time. A
 * main thread that lags (drawing 1 000 hosts on a loaded machine) is
 * not sent snapshots it would only merge: each cost the worker a copy
 * of every host and link. */
static gboolean
job_capture_due (SlJob *self)
{
  gint64 now = g_get_monotonic_time ();
  gint64 elapsed = now - self->last_capture;
  gint64 need = 4 * self->capture_cost;
  gint64 waited = 0, w;

  if (elapsed < MAX ((gint64) self->update_ms * 1000, need))
    return FALSE;
  /* nor while the main thread has not taken the previous snapshot: this
   * one would replace it unseen (the next carries the changes since) */
  if (job_main_behind (self))
    return FALSE;
  if (elapsed >= need + (gint64) self->update_ms * 1000 * 10 || self->capture_wait < 0)
    return TRUE;
  /* /proc is read at most every millisecond (this runs per packet) */
  if (now - self->wait_checked < 1000)
    return FALSE;
  self->wait_checked = now;
  w = sl_thread_wait_us ();
  if (w >= self->capture_wait)
    waited = w - self->capture_wait;
  return elapsed - waited >= need;
}

static void
job_finish (SlJob      *self,
            SlSnapshot *snapshot)
{
  snapshot->final = TRUE;
  g_mutex_lock (&self->lock);
  self->done = TRUE;
  self->t1 = g_get_monotonic_time ();
  self->cpu1 = sl_cpu_time_seconds ();
  self->children1 = sl_children_cpu_seconds ();
  g_mutex_unlock (&self->lock);
  job_post (self, snapshot);
}

static void
reader_progress (SlJob      *self,
                 SlSnapshot *snapshot)
{
  g_autoptr(GPtrArray) problems = NULL;

  sl_trace_reader_get_progress (self->reader, &snapshot->progress);
  problems = sl_trace_reader_dup_problems (self->reader);
  if (problems->len > self->problems_sent)
    {
      g_ptr_array_remove_range (problems, 0, self->problems_sent);
      self->problems_sent += problems->len;
      job_add_problems (self, snapshot, problems);
    }
}

static gboolean
run_reader (SlJob      *self,
            const char *const *folders,
            const char *phase)
{
  SlTraceReaderOptions ro;
  SlTraceReaderStatus st;
  gboolean cancel_sent = FALSE, hosts_shown = FALSE, first_hosts;
  SlTimelineBuilder *builder = NULL;

  sl_trace_reader_options_init (&ro);
  ro.keep_events = self->keep_events;
  ro.n_threads = self->n_threads;
  self->reader = sl_trace_reader_new (self->engine, &ro);
  if (self->keep_events && !self->no_timeline && self->kind != SL_JOB_LIVE)
    {
      self->timeline = sl_timeline_new ();
      sl_timeline_connect_engine (self->timeline, self->engine);
    }
  for (guint i = 0; folders[i] != NULL; i++)
    sl_trace_reader_add_folder (self->reader, folders[i]);
  /* the snapshots below do not decide when links are refreshed: the same
   * folders give the same journal (live data goes on flushing per query) */
  sl_engine_set_flush_on_input (self->engine, self->live == NULL);
  sl_trace_reader_start (self->reader);

  for (;;)
    {
      /* (live: the main thread takes the matches under the live lock) */
      if (self->live != NULL)
        sl_live_lock (self->live);
      st = sl_trace_reader_step (self->reader, STEP_BUDGET_US);
      if (self->live != NULL)
        sl_live_unlock (self->live);
      /* the hosts' rows are built on a thread as their decoding ends */
      if (self->timeline != NULL && builder == NULL && sl_trace_reader_get_n_hosts (self->reader) > 0)
        builder = sl_timeline_builder_new (self->timeline, self->reader);
      if (builder != NULL)
        sl_timeline_builder_poll (builder);
      if (st == SL_TRACE_READER_DONE || st == SL_TRACE_READER_CANCELLED)
        {
          profile_mark ("reader done");
          break;
        }
      if (!cancel_sent && job_cancelled (self))
        {
          sl_trace_reader_cancel (self->reader);
          cancel_sent = TRUE;
        }
      /* the hosts found are shown at once, before their decoders start
       * (once the main thread has taken the last snapshot) */
      first_hosts = !hosts_shown && sl_trace_reader_get_n_hosts (self->reader) > 0 && !job_main_behind (self);
      if (first_hosts || job_capture_due (self))
        {
          SlSnapshot *snapshot = job_capture (self, self->engine);

          reader_progress (self, snapshot);
          snapshot->phase = g_strdup (phase);
          if (!hosts_shown && snapshot->hosts->len > 0)
            {
              hosts_shown = TRUE;
              profile_mark ("first capture with hosts posted");
            }
          /* (the snapshot is the main thread's from here) */
          job_post (self, snapshot);
        }
      if (st == SL_TRACE_READER_AGAIN)
        sl_trace_reader_wait (self->reader, STEP_BUDGET_US);
    }
  if (st == SL_TRACE_READER_DONE || !self->discard_cancelled)
    {
      sl_engine_set_flush_on_input (self->engine, FALSE);
      sl_engine_flush (self->engine);
      profile_mark ("engine flushed");
    }
  if (builder != NULL)
    {
      sl_timeline_builder_finish (builder, st != SL_TRACE_READER_DONE);
      profile_mark ("timeline builder joined");
    }
  /* A cancelled reader's decoders may still be filling the event stores:
   * no timeline then (the window says to read again for it). */
  if (self->timeline != NULL && st != SL_TRACE_READER_DONE)
    {
      sl_engine_set_match_func (self->engine, NULL, NULL);
      g_clear_pointer (&self->timeline, sl_timeline_free);
    }
  /* the timeline model is finished here, off the main thread, before the
   * final snapshot hands everything over (live: on the main thread): what
   * the builder did not build yet, and the arrows */
  if (self->timeline != NULL && self->kind != SL_JOB_LIVE)
    {
      SlSnapshot *snapshot = job_capture (self, self->engine);

      reader_progress (self, snapshot);
      snapshot->phase = g_strdup (_("Building the timeline"));
      job_post (self, snapshot);
      if (builder == NULL)
        sl_timeline_add_reader_hosts (self->timeline, self->reader);
      sl_timeline_update (self->timeline);
      profile_mark ("timeline updated");
    }
  return st == SL_TRACE_READER_DONE;
}

static void
finish_reader (SlJob    *self,
               gboolean  completed)
{
  SlSnapshot *snapshot;
  guint64 events = 0;
  guint n_hosts = sl_trace_reader_get_n_hosts (self->reader);

  if (!completed && self->discard_cancelled)
    {
      snapshot = sl_snapshot_new ();
      snapshot->cancelled = TRUE;
      job_finish (self, snapshot);
      return;
    }
  snapshot = job_capture (self, self->engine);
  reader_progress (self, snapshot);
  for (guint i = 0; i < n_hosts; i++)
    {
      SlHostCounts c;

      sl_engine_get_host_counts (self->engine, sl_trace_reader_get_engine_host (self->reader, i), &c);
      events += c.events;
    }
  if (!completed)
    snapshot->cancelled = TRUE;
  else if (n_hosts == 0 || events == 0)
    {
      snapshot->failed = TRUE;
      g_mutex_lock (&self->lock);
      if (self->problems->len == 1)
        snapshot->error = sl_trace_problem_to_string (g_ptr_array_index (self->problems, 0));
      else if (n_hosts == 0)
        snapshot->error = g_strdup_printf (_("No LTTng trace was found in %s"), self->inputs[0]);
      else
        snapshot->error = g_strdup (_("No event could be read from the trace folders"));
      g_mutex_unlock (&self->lock);
    }
  profile_mark ("final snapshot");
  job_finish (self, snapshot);
}

/* --transforms: the file's hosts keep its relations (the engine matches
 * them by name as the reader adds them). */
static gboolean
fix_hosts (SlJob   *self,
           GError **error)
{
  g_autoptr(SlTransformSet) set = sl_transform_set_load (self->transforms, error);
  g_autofree char *source = NULL;

  if (set == NULL)
    return FALSE;
  source = g_path_get_basename (self->transforms);
  sl_transform_set_fix_engine (set, self->engine, source);
  return TRUE;
}

static void
run_folders (SlJob *self)
{
  g_autoptr(GError) error = NULL;
  gboolean completed;

  if (self->transforms != NULL && !fix_hosts (self, &error))
    {
      SlSnapshot *snapshot = sl_snapshot_new ();

      snapshot->failed = TRUE;
      snapshot->error = g_strdup (error->message);
      job_finish (self, snapshot);
      return;
    }
  completed = run_reader (self, (const char *const *) self->inputs, _("Reading traces"));
  finish_reader (self, completed);
}

static void
run_lttv_text (SlJob *self)
{
  SlSnapshot *snapshot;
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;

  for (guint i = 0; ok && self->inputs[i] != NULL; i++)
    {
      if (!self->any_text && !sl_lttv_text_looks_like (self->inputs[i]))
        {
          g_set_error (&error, SL_ERROR, SL_ERROR_INVALID,
                       _("%s: not a trace folder nor an LTTV unit-case text file"), self->inputs[i]);
          ok = FALSE;
        }
      else
        ok = sl_lttv_text_load (self->engine, self->inputs[i], &error);
    }
  snapshot = job_capture (self, self->engine);
  if (!ok)
    {
      g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);

      snapshot->failed = TRUE;
      snapshot->error = g_strdup (error->message);
      g_ptr_array_add (one, problem_new (NULL, self->inputs[0], error->message));
      job_add_problems (self, snapshot, one);
    }
  job_finish (self, snapshot);
}

/* Generated inputs */

typedef struct
{
  SlJob  *job;
  gint64  start_ns;
  gint64  duration_ns;
  gint64  wall0;
  gboolean feed;
  gboolean stopped;
} GenerateRun;

static void
generate_packet_cb (const SlPacketEvent *event,
                    gint64               true_ns,
                    gpointer             user_data)
{
  GenerateRun *run = user_data;
  SlJob *self = run->job;

  if (run->stopped)
    return;
  if (run->feed)
    sl_engine_add_packet (self->engine, event, true_ns);

  if (self->pace_us > 0)
    {
      gint64 due = run->wall0 + (true_ns - run->start_ns) / 1000 * self->pace_us / G_USEC_PER_SEC;
      gint64 now = g_get_monotonic_time ();

      if (due > now)
        g_usleep (MIN (due - now, G_USEC_PER_SEC));
    }

  if (job_capture_due (self))
    {
      SlSnapshot *snapshot;

      if (run->feed)
        snapshot = job_capture (self, self->engine);
      else
        {
          snapshot = sl_snapshot_new ();
          self->last_capture = g_get_monotonic_time ();
          self->capture_wait = sl_thread_wait_us ();
        }
      snapshot->phase = g_strdup (run->feed ? _("Synchronizing") : _("Generating demo traces"));
      snapshot->progress.fraction = run->duration_ns > 0
        ? CLAMP ((double) (true_ns - run->start_ns) / (double) run->duration_ns, 0, 1) : 0;
      snapshot->progress.eta_s = -1;
      job_post (self, snapshot);
      if (job_cancelled (self))
        run->stopped = TRUE;
    }
}

static gboolean
generate (SlJob       *self,
          const char  *out_dir,
          GError     **error)
{
  g_autoptr(SlGenerate) gen = sl_generate_new (&self->generate);
  GenerateRun run = { 0 };

  if (self->links->len > 0)
    {
      if (!sl_generate_prepare_hosts (gen, error))
        return FALSE;
      for (guint i = 0; i < self->links->len; i++)
        {
          const SlGenerateLink *l = &g_array_index (self->links, SlGenerateLink, i);

          if (l->a >= sl_generate_get_n_hosts (gen) || l->b >= sl_generate_get_n_hosts (gen) ||
              !sl_generate_add_link (gen, sl_generate_get_host (gen, l->a)->name,
                                     sl_generate_get_host (gen, l->b)->name, l->rate, error))
            {
              if (error != NULL && *error == NULL)
                g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "generated link %u: no such host", i);
              return FALSE;
            }
        }
    }
  if (!sl_generate_prepare (gen, error))
    return FALSE;
  run.job = self;
  run.start_ns = sl_generate_get_start (gen);
  run.duration_ns = sl_generate_get_duration (gen);
  run.wall0 = g_get_monotonic_time ();
  run.feed = out_dir == NULL;
  if (run.feed)
    for (guint h = 0; h < sl_generate_get_n_hosts (gen); h++)
      sl_engine_add_host (self->engine, sl_generate_get_host (gen, h)->name);
  sl_generate_set_packet_func (gen, generate_packet_cb, &run);
  return sl_generate_run (gen, out_dir, NULL, error);
}

static void
run_generated (SlJob *self)
{
  g_autoptr(GError) error = NULL;
  SlSnapshot *snapshot;
  gboolean ok;

  ok = generate (self, NULL, &error);
  snapshot = job_capture (self, self->engine);
  if (!ok)
    {
      snapshot->failed = TRUE;
      snapshot->error = g_strdup (error->message);
    }
  else if (job_cancelled (self))
    snapshot->cancelled = TRUE;
  job_finish (self, snapshot);
}

/* The demo: realistic traces written once into the cache, then read like
 * any trace folder. */
static void
run_demo (SlJob *self)
{
  g_autofree char *truth = g_build_filename (self->demo_dir, "ground-truth.json", NULL);
  g_autoptr(GError) error = NULL;

  if (!g_file_test (truth, G_FILE_TEST_EXISTS))
    {
      g_autofree char *tmp = g_strconcat (self->demo_dir, ".part", NULL);
      g_autofree char *parent = g_path_get_dirname (self->demo_dir);

      /* a previous run may have stopped half-way: the generator writes the
       * same files again */
      g_mkdir_with_parents (parent, 0755);
      if (!generate (self, tmp, &error) || job_cancelled (self) || g_rename (tmp, self->demo_dir) != 0)
        {
          SlSnapshot *snapshot = job_capture (self, self->engine);

          if (job_cancelled (self))
            snapshot->cancelled = TRUE;
          else
            {
              snapshot->failed = TRUE;
              snapshot->error = g_strdup_printf (_("Could not write the demo traces in %s: %s"),
                                                 tmp, error != NULL ? error->message : g_strerror (errno));
            }
          job_finish (self, snapshot);
          return;
        }
    }

  {
    const char *folders[] = { self->demo_dir, NULL };
    gboolean completed = run_reader (self, folders, _("Reading demo traces"));

    finish_reader (self, completed);
  }
}

/* Live: the update function runs on the live engine thread, engine
 * locked; the job's own thread only starts and stops the session, so a
 * stalled relay never blocks the main thread. */
static void
live_update_cb (SlLive             *live,
                SlEngine           *engine,
                const SlLiveUpdate *update,
                gpointer            user_data)
{
  SlJob *self = user_data;
  SlSnapshot *snapshot = job_capture (self, engine);

  snapshot->live_hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_live_host_free);
  for (guint i = 0; update->hosts != NULL && i < update->hosts->len; i++)
    g_ptr_array_add (snapshot->live_hosts, live_host_copy (g_ptr_array_index (update->hosts, i)));
  if (update->problems != NULL)
    job_add_problems (self, snapshot, update->problems);
  snapshot->progress.events = update->events;
  snapshot->progress.eta_s = -1;
  snapshot->progress.hosts = update->hosts != NULL ? update->hosts->len : 0;
  snapshot->phase = g_strdup (_("Live"));
  if (update->final)
    {
      snapshot->cancelled = TRUE;
      job_finish (self, snapshot);
    }
  else
    job_post (self, snapshot);
}

/* Live engine thread, engine locked */
static void
live_match_cb (const SlMatch       *match,
               const SlPacketEvent *event,
               gpointer             user_data)
{
  SlJob *self = user_data;
  LiveMatch m = { *match, { 0 }, event != NULL };

  if (event != NULL)
    m.event = *event;
  g_array_append_val (self->live_matches, m);
}

static void
run_live (SlJob *self)
{
  SlLiveOptions lo;
  g_autoptr(GPtrArray) bad = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);
  guint attached = 0;

  g_autoptr(GPtrArray) folders = g_ptr_array_new ();

  sl_live_options_init (&lo);
  lo.update_ms = self->update_ms;
  lo.keep_events = self->timeline != NULL;
  g_atomic_pointer_set (&self->live, sl_live_new (self->engine, &lo));
  if (self->timeline != NULL)
    sl_engine_set_match_func (self->engine, live_match_cb, self);
  for (guint i = 0; self->inputs[i] != NULL; i++)
    if (!g_str_has_prefix (self->inputs[i], "net"))
      g_ptr_array_add (folders, self->inputs[i]);
  /* trace folders first (the relay's output: the history a viewer never
   * receives), to completion, into the same engine; the live attachments
   * of their hosts go on in the same event stores */
  if (folders->len > 0)
    {
      g_ptr_array_add (folders, NULL);
      if (!run_reader (self, (const char * const *) folders->pdata, _("Reading the history")))
        {
          SlSnapshot *snapshot = job_capture (self, self->engine);

          snapshot->cancelled = TRUE;
          job_finish (self, snapshot);
          return;
        }
      for (guint i = 0; self->timeline != NULL && i < sl_trace_reader_get_n_hosts (self->reader); i++)
        {
          SlEventStore *store = (SlEventStore *) sl_trace_reader_get_event_store (self->reader, i);

          if (store != NULL)
            sl_live_add_history (self->live, sl_trace_reader_get_host_name (self->reader, i), store);
        }
      sl_live_lock (self->live);
      self->history_done = TRUE;
      sl_live_unlock (self->live);
    }
  for (guint i = 0; self->inputs[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!g_str_has_prefix (self->inputs[i], "net"))
        continue;
      if (sl_live_add_url (self->live, self->inputs[i], &error))
        attached++;
      else
        g_ptr_array_add (bad, problem_new (NULL, self->inputs[i], error->message));
    }

  if (attached == 0)
    {
      SlSnapshot *snapshot = sl_snapshot_new ();

      job_add_problems (self, snapshot, bad);
      snapshot->failed = TRUE;
      snapshot->error = bad->len > 0
        ? sl_trace_problem_to_string (g_ptr_array_index (bad, 0))
        : g_strdup (_("No live session to attach to"));
      job_finish (self, snapshot);
      return;
    }

  sl_live_set_update_func (self->live, live_update_cb, self);
  sl_live_start (self->live);
  {
    SlSnapshot *snapshot;

    sl_live_lock (self->live);
    snapshot = job_capture (self, self->engine);
    sl_live_unlock (self->live);
    job_add_problems (self, snapshot, bad);
    snapshot->phase = g_strdup (_("Live"));
    snapshot->live_hosts = sl_live_dup_hosts (self->live);
    job_post (self, snapshot);
  }

  g_mutex_lock (&self->lock);
  while (!self->cancelled)
    g_cond_wait (&self->cond, &self->lock);
  g_mutex_unlock (&self->lock);

  /* delivers the final update, which finishes the job */
  sl_live_stop (self->live);
  g_mutex_lock (&self->lock);
  if (!self->done)
    {
      g_mutex_unlock (&self->lock);
      {
        SlSnapshot *snapshot = job_capture (self, self->engine);

        snapshot->cancelled = TRUE;
        job_finish (self, snapshot);
      }
    }
  else
    g_mutex_unlock (&self->lock);
}

static gpointer
job_thread (gpointer data)
{
  SlJob *self = data;

  switch (self->kind)
    {
    case SL_JOB_FOLDERS:
      run_folders (self);
      break;
    case SL_JOB_LTTV_TEXT:
      run_lttv_text (self);
      break;
    case SL_JOB_DEMO:
      run_demo (self);
      break;
    case SL_JOB_LIVE:
      run_live (self);
      break;
    case SL_JOB_GENERATED:
      run_generated (self);
      break;
    default:
      g_assert_not_reached ();
    }
  sl_job_unref (self);
  return NULL;
}

void
sl_job_start (SlJob *self)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->thread == NULL);

  self->t0 = g_get_monotonic_time ();
  self->cpu0 = sl_cpu_time_seconds ();
  self->children0 = sl_children_cpu_seconds ();
  self->last_capture = G_MININT64 / 2;
  self->thread = g_thread_new ("sl-job", job_thread, sl_job_ref (self));
  g_thread_unref (self->thread);
}

void
sl_job_cancel (SlJob *self)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  self->cancelled = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* Main thread: no snapshot is delivered after this; the worker finishes
 * (and frees the engine) on its own. */
void
sl_job_close (SlJob *self)
{
  guint idle_id;

  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  self->cancelled = TRUE;
  self->func = NULL;
  self->func_data = NULL;
  idle_id = self->idle_id;
  self->idle_id = 0;
  g_clear_pointer (&self->pending, sl_snapshot_free);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  if (idle_id != 0)
    g_source_remove (idle_id);
  sl_job_unref (self);
}

void
sl_job_request_plot (SlJob *self,
                     guint  link)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  self->plot_link = link;
  self->plot_version = -1;
  self->plot_force = TRUE;
  g_mutex_unlock (&self->lock);
}

void
sl_job_pin_reference (SlJob      *self,
                      const char *host)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  g_free (self->pin_name);
  self->pin_name = g_strdup (host);
  self->pin_dirty = TRUE;
  g_mutex_unlock (&self->lock);
}

gboolean
sl_job_is_done (SlJob *self)
{
  gboolean ret;

  g_return_val_if_fail (self != NULL, FALSE);

  g_mutex_lock (&self->lock);
  ret = self->done;
  g_mutex_unlock (&self->lock);
  return ret;
}

/* Runs @func at once when the engine can be reached without waiting for
 * the worker (done, or live under its lock). */
gboolean
sl_job_with_engine (SlJob           *self,
                    SlJobEngineFunc  func,
                    gpointer         user_data)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (sl_job_is_done (self))
    {
      job_apply_pin (self, self->engine);
      func (self->engine, user_data);
      return TRUE;
    }
  if (self->kind == SL_JOB_LIVE && self->live != NULL)
    {
      sl_live_lock (self->live);
      job_apply_pin (self, self->engine);
      func (self->engine, user_data);
      sl_live_unlock (self->live);
      return TRUE;
    }
  return FALSE;
}

static void
capture_now_cb (SlEngine *engine,
                gpointer  user_data)
{
  gpointer *data = user_data;

  data[1] = job_capture (data[0], engine);
}

/* Main thread: a snapshot now, when the engine can be reached. */
SlSnapshot *
sl_job_capture_now (SlJob *self)
{
  gpointer data[2] = { self, NULL };

  g_return_val_if_fail (self != NULL, NULL);

  if (!sl_job_with_engine (self, capture_now_cb, data))
    return NULL;
  if (self->kind == SL_JOB_LIVE && self->live != NULL && !sl_job_is_done (self))
    ((SlSnapshot *) data[1])->live_hosts = sl_live_dup_hosts (self->live);
  return data[1];
}

static void
build_plot_cb (SlEngine *engine,
               gpointer  user_data)
{
  gpointer *data = user_data;
  guint link = GPOINTER_TO_UINT (data[1]);

  if (link < sl_engine_get_n_links (engine))
    data[2] = sl_plot_data_build (engine, link);
}

SlPlotData *
sl_job_build_plot_now (SlJob *self,
                       guint  link)
{
  gpointer data[3] = { self, GUINT_TO_POINTER (link), NULL };

  g_return_val_if_fail (self != NULL, NULL);

  sl_job_with_engine (self, build_plot_cb, data);
  if (data[2] != NULL)
    {
      g_mutex_lock (&self->lock);
      if (self->plot_link == link)
        {
          self->plot_version = ((SlPlotData *) data[2])->version;
          self->plot_force = FALSE;
        }
      g_mutex_unlock (&self->lock);
    }
  return data[2];
}

/* Any thread: the snapshots the worker captured so far (those replaced
 * before the main thread took them included). */
guint
sl_job_get_n_captures (SlJob *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return (guint) g_atomic_int_get (&self->n_captures);
}

gint64
sl_job_get_elapsed_us (SlJob *self)
{
  gint64 ret;

  g_return_val_if_fail (self != NULL, 0);

  g_mutex_lock (&self->lock);
  ret = (self->done ? self->t1 : g_get_monotonic_time ()) - self->t0;
  g_mutex_unlock (&self->lock);
  return ret;
}

/* The processor time so far (or to the end): the process's and its
 * children's that ended meanwhile, the decoders (of this job, and of any
 * other job of the process that ran meanwhile: the kernel counts them
 * together). */
void
sl_job_get_timing (SlJob          *self,
                   SlReportTiming *timing)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (timing != NULL);

  timing->elapsed_s = (double) sl_job_get_elapsed_us (self) / 1e6;
  g_mutex_lock (&self->lock);
  timing->decoders_cpu_s = (self->done ? self->children1 : sl_children_cpu_seconds ()) - self->children0;
  timing->cpu_s = (self->done ? self->cpu1 : sl_cpu_time_seconds ()) - self->cpu0 + timing->decoders_cpu_s;
  g_mutex_unlock (&self->lock);
}

/* Main thread, once the job is done: the worker no longer touches them.
 * A live job's timeline belongs to the main thread from the start. */
SlTimeline *
sl_job_get_timeline (SlJob *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->kind == SL_JOB_LIVE)
    return self->live != NULL ? self->timeline : NULL;
  return sl_job_is_done (self) ? self->timeline : NULL;
}

/* A host's store: its live attachment's (which continues its history's),
 * else its history's */
static const SlEventStore *
job_store (SlJob *self,
           guint  host)
{
  const SlEventStore *store = self->live != NULL ? sl_live_get_event_store (self->live, host) : NULL;

  if (store == NULL && self->reader != NULL && (self->kind != SL_JOB_LIVE || self->history_done))
    for (guint i = 0; i < sl_trace_reader_get_n_hosts (self->reader); i++)
      if (sl_trace_reader_get_engine_host (self->reader, i) == host)
        return sl_trace_reader_get_event_store (self->reader, i);
  return store;
}

/* Main thread, live jobs: brings the timeline up to date with the events
 * and matches that arrived. The hosts' threads append to the stores and
 * the engine thread makes matches under the live engine lock, so the
 * stores are read (and the matches taken) under it; the timeline itself
 * is touched by the main thread only. */
gboolean
sl_job_update_timeline (SlJob *self)
{
  gboolean changed = FALSE;
  guint n_hosts;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->kind != SL_JOB_LIVE || self->timeline == NULL || self->live == NULL)
    return FALSE;
  sl_live_lock (self->live);
  /* (the history's stores are the reader's until it is done) */
  if (self->reader != NULL && !self->history_done)
    {
      sl_live_unlock (self->live);
      return FALSE;
    }
  n_hosts = sl_engine_get_n_hosts (self->engine);
  for (; self->timeline_hosts < n_hosts && self->timeline_hosts < G_MAXUINT16 - 1; self->timeline_hosts++)
    {
      guint h = self->timeline_hosts;

      sl_timeline_set_host (self->timeline, h, sl_engine_get_host_name (self->engine, h),
                            job_store (self, h));
      changed = TRUE;
    }
  for (guint i = 0; i < self->live_matches->len; i++)
    {
      const LiveMatch *m = &g_array_index (self->live_matches, LiveMatch, i);

      sl_timeline_add_match (self->timeline, &m->match, m->has_event ? &m->event : NULL);
    }
  g_array_set_size (self->live_matches, 0);
  changed |= sl_timeline_update (self->timeline);
  if (self->retention_ns > 0)
    for (guint h = 0; h < self->timeline_hosts; h++)
      {
        /* the job's own live session's store, appended to under the lock
         * held here */
        SlEventStore *store = (SlEventStore *) job_store (self, h);
        gint64 last;

        if (store == NULL || !sl_event_store_get_time_range (store, NULL, &last) ||
            last < G_MININT64 + self->retention_ns)
          continue;
        sl_timeline_drop_before (self->timeline, h, store, last - self->retention_ns);
      }
  /* (the engine's points follow a change of the retention from here) */
  sl_engine_set_point_retention (self->engine, self->retention_ns);
  sl_live_unlock (self->live);
  return changed;
}

/**
 * sl_job_set_retention:
 * @retention_ns: live sessions: the span of events, states and messages the
 *   timeline keeps behind each host's newest event; older ones are dropped
 *   at the next sl_job_update_timeline() (0: all are kept)
 *
 * The synchronization keeps what its bounds need whatever this says; the
 * engine's matched points (inversion counts, the hull plot) follow it
 * (sl_engine_set_point_retention()).
 */
void
sl_job_set_retention (SlJob  *self,
                      gint64  retention_ns)
{
  g_return_if_fail (self != NULL);

  self->retention_ns = MAX (retention_ns, 0);
}


/* Main thread, trace folders, once the job is done: the reader, its hosts
 * and their event streams (with @keep_events), for exports. */
SlTraceReader *
sl_job_get_reader (SlJob *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return sl_job_is_done (self) ? self->reader : NULL;
}

/* Main thread: around reads of the event stores (which a live session
 * appends to on its threads). */
void
sl_job_lock_events (SlJob *self)
{
  g_return_if_fail (self != NULL);

  if (self->kind == SL_JOB_LIVE && self->live != NULL)
    sl_live_lock (self->live);
}

void
sl_job_unlock_events (SlJob *self)
{
  g_return_if_fail (self != NULL);

  if (self->kind == SL_JOB_LIVE && self->live != NULL)
    sl_live_unlock (self->live);
}

const SlEventStore *
sl_job_get_event_store (SlJob *self,
                        guint  host)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->kind == SL_JOB_LIVE)
    return self->live != NULL && self->timeline != NULL ? job_store (self, host) : NULL;
  if (self->reader == NULL || self->timeline == NULL || !sl_job_is_done (self))
    return NULL;
  return job_store (self, host);
}

GPtrArray *
sl_job_dup_problems (SlJob *self)
{
  GPtrArray *ret = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);

  g_return_val_if_fail (self != NULL, ret);

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->problems->len; i++)
    g_ptr_array_add (ret, sl_trace_problem_copy (g_ptr_array_index (self->problems, i)));
  g_mutex_unlock (&self->lock);
  return ret;
}

/**
 * sl_job_add_live_url:
 * @url: a relay URL (see sl_live_add_url())
 *
 * Main thread, a live job that runs: attaches what @url names besides what
 * it attached so far, keeping everything received.
 *
 * Returns: %FALSE with @error set when the job is not a running live job
 *   or @url is not a relay URL
 */
gboolean
sl_job_add_live_url (SlJob       *self,
                     const char  *url,
                     GError     **error)
{
  SlLive *live;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (url != NULL, FALSE);

  live = g_atomic_pointer_get (&self->live);
  if (self->kind != SL_JOB_LIVE || live == NULL || sl_job_is_done (self))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, _("%s: no live session runs to attach it to"), url);
      return FALSE;
    }
  return sl_live_add_url (live, url, error);
}

/**
 * sl_job_remove_live_url:
 *
 * Main thread, a live job that runs: detaches what @url names (see
 * sl_live_remove_url()); what it received stays.
 *
 * Returns: how many attachments were detached
 */
guint
sl_job_remove_live_url (SlJob      *self,
                        const char *url)
{
  SlLive *live;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (url != NULL, 0);

  live = g_atomic_pointer_get (&self->live);
  if (self->kind != SL_JOB_LIVE || live == NULL || sl_job_is_done (self))
    return 0;
  return sl_live_remove_url (live, url);
}
