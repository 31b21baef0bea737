/* sl-benchmark-timeline.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `syncline-bench timeline`: a generated cluster of 64 hosts (about
 * 10 M state intervals and 1 M messages) shown in the real timeline view,
 * its plot 1600 px wide, then a scripted series of zooms, pans, scrolls
 * and clock switches, one per frame. Frames are timed from the frame
 * clock's before-paint to its after-paint: the UI thread's whole work for
 * the frame (the per-pixel queries run in its update phase, then layout,
 * snapshot and rendering). Also measured: drawing every interval with
 * cairo instead (the full-detail drawing), the model's bytes per interval,
 * and, on traces written by the generator, the model's build time against
 * the trace decoding time. Prints one JSON object on stdout.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-benchmark-timeline.h"
#include "sl-benchmark-private.h"
#include "sl-cpu-time.h"
#include "sl-generate.h"
#include "sl-timeline-view-private.h"
#include "sl-timeline-synth.h"
#include "sl-trace-reader.h"

#define N_HOSTS      64
#define N_INTERVALS  G_GUINT64_CONSTANT (10000000)
#define N_ARROWS     G_GUINT64_CONSTANT (1000000)
#define PLOT_W       1600
#define TRACE_EVENTS 2000000
/* a field's value (the events of one thread), as one would look for it */
#define SEARCH_QUERY "tid = 1042"

/* Decoding against building, on traces the generator writes */

static void
rm_rf (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        rm_rf (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
measure_decode (JsonBuilder *jb,
                guint64      events)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("syncline-bench-XXXXXX", &error);
  SlGenerateOptions go;
  SlGenerate *gen;
  double w[2] = { 0 }, c[2] = { 0 }, bw = 0, bc = 0;
  SlTimelineStats st = { 0 };
  guint64 n_events = 0;

  json_builder_set_member_name (jb, "decode");
  json_builder_begin_object (jb);
  if (dir == NULL)
    {
      json_builder_set_member_name (jb, "error");
      json_builder_add_string_value (jb, error->message);
      json_builder_end_object (jb);
      return;
    }
  sl_generate_options_init (&go);
  go.n_hosts = 8;
  go.events = events;
  go.seed = 3;
  gen = sl_generate_new (&go);
  if (!sl_generate_prepare (gen, &error) || !sl_generate_run (gen, dir, NULL, &error))
    {
      json_builder_set_member_name (jb, "error");
      json_builder_add_string_value (jb, error->message);
      json_builder_end_object (jb);
      sl_generate_free (gen);
      rm_rf (dir);
      return;
    }
  sl_generate_free (gen);

  /* twice: without keeping events (what synchronizing costs), then with
   * them and the model connected, then the model's build */
  for (guint pass = 0; pass < 2; pass++)
    {
      SlEngineOptions eo;
      SlTraceReaderOptions ro;
      SlEngine *engine;
      SlTraceReader *reader;
      SlTimeline *tl = NULL;
      double w0, c0;

      sl_engine_options_init (&eo);
      engine = sl_engine_new (&eo);
      sl_trace_reader_options_init (&ro);
      ro.keep_events = pass == 1;
      reader = sl_trace_reader_new (engine, &ro);
      if (pass == 1)
        {
          tl = sl_timeline_new ();
          sl_timeline_connect_engine (tl, engine);
        }
      sl_trace_reader_add_folder (reader, dir);
      w0 = g_get_monotonic_time () / 1e6;
      c0 = sl_cpu_time_seconds ();
      sl_trace_reader_run (reader);
      w[pass] = g_get_monotonic_time () / 1e6 - w0;
      c[pass] = sl_cpu_time_seconds () - c0;
      if (tl != NULL)
        {
          w0 = g_get_monotonic_time () / 1e6;
          c0 = sl_cpu_time_seconds ();
          sl_timeline_add_reader_hosts (tl, reader);
          sl_timeline_update (tl);
          bw = g_get_monotonic_time () / 1e6 - w0;
          bc = sl_cpu_time_seconds () - c0;
          sl_timeline_get_stats (tl, &st);
          n_events = st.events;
          sl_engine_set_match_func (engine, NULL, NULL);
          sl_timeline_free (tl);
        }
      sl_trace_reader_free (reader);
      sl_engine_free (engine);
    }
  rm_rf (dir);

  json_builder_set_member_name (jb, "hosts");
  json_builder_add_int_value (jb, 8);
  json_builder_set_member_name (jb, "events");
  json_builder_add_int_value (jb, (gint64) n_events);
  json_builder_set_member_name (jb, "decode_wall_s");
  json_builder_add_double_value (jb, w[0]);
  json_builder_set_member_name (jb, "decode_cpu_s");
  json_builder_add_double_value (jb, c[0]);
  json_builder_set_member_name (jb, "decode_keep_events_wall_s");
  json_builder_add_double_value (jb, w[1]);
  json_builder_set_member_name (jb, "decode_keep_events_cpu_s");
  json_builder_add_double_value (jb, c[1]);
  json_builder_set_member_name (jb, "build_wall_s");
  json_builder_add_double_value (jb, bw);
  json_builder_set_member_name (jb, "build_cpu_s");
  json_builder_add_double_value (jb, bc);
  json_builder_set_member_name (jb, "build_over_decode_cpu");
  json_builder_add_double_value (jb, c[0] > 0 ? bc / c[0] : 0);
  json_builder_set_member_name (jb, "timeline_over_decode_cpu");
  json_builder_add_double_value (jb, c[0] > 0 ? (c[1] + bc - c[0]) / c[0] : 0);
  json_builder_set_member_name (jb, "intervals");
  json_builder_add_int_value (jb, (gint64) st.intervals);
  json_builder_end_object (jb);
}

/* The view, frame by frame */

typedef struct
{
  const char *phase;
  const char *action;
  GVariant   *param;
} Step;

typedef struct
{
  GtkApplication  *app;
  GtkWindow       *window;
  SlTimelineView  *view;
  SlTimelineSynth *synth;
  JsonBuilder     *jb;
  GArray          *steps;
  guint            step;
  gboolean         step_pending;
  gint64           step_start;
  gint64           frame_start;
  gint64           frame_cpu_start;
  SlBenchPhases    phases;
  gint64           last_after_paint;
  gint64           longest_gap;
  gint64           steps_start;
  gint64           steps_end;
  gint64           steal_start;
  gint64           steal_end;
  gint64           t_set;
  double           first_frame_ms;
  double           first_complete_ms;
  double           set_timeline_ms;
  GArray          *frame_us;
  GArray          *latency_us;
  GArray          *prepare_us;
  GArray          *frame_cpu_us;
  GHashTable      *phase_frames;
  gulong           before_id;
  gulong           after_id;
  guint            idle_id;
  guint64          columns;
  guint            max_arrows;
} Bench;


static void
add_step (GArray     *steps,
          const char *phase,
          const char *action,
          GVariant   *param,
          guint       times)
{
  if (param != NULL)
    g_variant_ref_sink (param);
  for (guint i = 0; i < times; i++)
    {
      Step s = { phase, action, param != NULL ? g_variant_ref (param) : NULL };

      g_array_append_val (steps, s);
    }
  if (param != NULL)
    g_variant_unref (param);
}

static void
build_steps (Bench *b)
{
  GArray *s = b->steps;

  add_step (s, "zoom", "timeline.zoom-in", NULL, 14);
  add_step (s, "pan", "timeline.pan-right", NULL, 10);
  add_step (s, "pan", "timeline.pan-left", NULL, 10);
  add_step (s, "scroll", "timeline.scroll-down", NULL, 8);
  add_step (s, "zoom", "timeline.zoom-in", NULL, 12);
  add_step (s, "pan", "timeline.pan-right", NULL, 10);
  add_step (s, "scroll", "timeline.scroll-up", NULL, 8);
  add_step (s, "zoom", "timeline.zoom-out", NULL, 26);
  add_step (s, "pan", "timeline.pan-left", NULL, 6);
  add_step (s, "sync", "timeline.toggle-sync", NULL, 4);
  add_step (s, "zoom", "timeline.fit", NULL, 1);
  add_step (s, "select", "timeline.select-thread", g_variant_new_string ("postgres"), 1);
  add_step (s, "zoom", "timeline.zoom-in", NULL, 8);
  add_step (s, "cpus", "timeline.show-cpus", NULL, 1);
  add_step (s, "pan", "timeline.pan-right", NULL, 6);
  add_step (s, "zoom", "timeline.zoom-out", NULL, 8);
  add_step (s, "cpus", "timeline.show-cpus", NULL, 1);
  add_step (s, "collapsed", "timeline.collapse-all", NULL, 1);
  add_step (s, "collapsed", "timeline.zoom-in", NULL, 10);
  add_step (s, "collapsed", "timeline.pan-right", NULL, 6);
  add_step (s, "collapsed", "timeline.zoom-out", NULL, 10);
  add_step (s, "collapsed", "timeline.expand-all", NULL, 1);
  /* a search of every host's events on its worker, the view panning
   * meanwhile */
  add_step (s, "search", "timeline.find-events", g_variant_new_string (SEARCH_QUERY), 1);
  add_step (s, "search", "timeline.pan-right", NULL, 20);
  add_step (s, "search", "timeline.pan-left", NULL, 20);
}

/* Every interval of the visible rows as its own cairo rectangle */
static double
full_detail_ms (Bench *b)
{
  SlTimelineView *v = b->view;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, v->plot_w, v->rows_h);
  cairo_t *cr = cairo_create (surface);
  gint64 t0 = g_get_monotonic_time ();
  int scroll = (int) gtk_adjustment_get_value (v->vadj);
  gint64 start = _sl_timeline_view_start (v), end = _sl_timeline_view_end (v);

  for (guint i = 0; i < v->vis->len; i++)
    {
      const SlTlvRow *r = &g_array_index (v->vis, SlTlvRow, i);
      SlTransform inv;
      gint64 l0, l1;
      guint64 k, n;
      guint row = r->row;
      SlTimelineRowInfo ri;

      if (r->y + r->h <= scroll)
        continue;
      if (r->y - scroll >= v->rows_h)
        break;
      if (r->kind == SL_TIMELINE_ROW_HOST)
        continue;
      sl_timeline_get_row_info (v->timeline, row, &ri);
      if (ri.kind == SL_TIMELINE_ROW_PROCESS)
        {
          if (ri.thread_row == SL_TIMELINE_NONE)
            continue;
          row = ri.thread_row;
        }
      sl_transform_invert (&_sl_timeline_view_clock (v, r->host)->shown, &inv);
      l0 = sl_transform_apply (&inv, start);
      l1 = sl_transform_apply (&inv, end);
      n = sl_timeline_get_n_intervals (v->timeline, row);
      k = sl_timeline_find_interval (v->timeline, row, l0);
      if (k == G_MAXUINT64)
        k = 0;
      for (; k < n; k++)
        {
          SlTimelineInterval iv;
          double x0, x1;
          guint32 rgb;

          sl_timeline_get_interval (v->timeline, row, k, &iv);
          if (iv.start > l1)
            break;
          x0 = (double) (sl_transform_apply (&_sl_timeline_view_clock (v, r->host)->shown, iv.start) - start) / v->px_ns;
          x1 = (double) (sl_transform_apply (&_sl_timeline_view_clock (v, r->host)->shown, iv.end) - start) / v->px_ns;
          rgb = sl_timeline_view_state_rgb (iv.state);
          cairo_set_source_rgb (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
          cairo_rectangle (cr, x0, r->y - scroll + 2, MAX (x1 - x0, 0.01), r->h - 4);
          cairo_fill (cr);
        }
    }
  cairo_surface_flush (surface);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return (g_get_monotonic_time () - t0) / 1000.0;
}

/* The view's own preparation of the same frame, from empty caches */
static double
aggregated_ms (Bench *b)
{
  gint64 t0;

  _sl_timeline_view_clear_caches (b->view);
  t0 = g_get_monotonic_time ();
  _sl_timeline_view_prepare (b->view);
  return (g_get_monotonic_time () - t0) / 1000.0;
}

static void
compare_full_detail (Bench *b)
{
  static const double shares[] = { 1, 1e-2, 1e-4 };
  JsonBuilder *jb = b->jb;
  gint64 lo, hi;

  sl_timeline_view_set_synchronized (b->view, TRUE);
  sl_timeline_view_set_all_expanded (b->view, TRUE);
  gtk_adjustment_set_value (b->view->vadj, 0);
  sl_timeline_get_view_range (b->view->timeline, &lo, &hi);
  json_builder_set_member_name (jb, "full_detail");
  json_builder_begin_array (jb);
  for (guint i = 0; i < G_N_ELEMENTS (shares); i++)
    {
      gint64 span = (gint64) ((double) (hi - lo) * shares[i]), mid = lo + (hi - lo) / 2;
      double agg, full;

      sl_timeline_view_set_span (b->view, mid - span / 2, mid + span / 2);
      agg = aggregated_ms (b);
      full = full_detail_ms (b);
      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "span_ns");
      json_builder_add_int_value (jb, span);
      json_builder_set_member_name (jb, "rows");
      json_builder_add_int_value (jb, b->view->stats.visible_rows);
      json_builder_set_member_name (jb, "aggregated_prepare_ms");
      json_builder_add_double_value (jb, agg);
      json_builder_set_member_name (jb, "full_detail_cairo_ms");
      json_builder_add_double_value (jb, full);
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
}

static void
finish (Bench *b)
{
  JsonBuilder *jb = b->jb;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (b->window));
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (b->window));
  GHashTableIter it;
  gpointer key, value;

  g_clear_signal_handler (&b->before_id, clock);
  g_clear_signal_handler (&b->after_id, clock);
  _sl_benchmark_phases_disconnect (&b->phases, clock);

  json_builder_set_member_name (jb, "renderer");
  json_builder_add_string_value (jb, renderer != NULL ? G_OBJECT_TYPE_NAME (renderer) : "none");
  json_builder_set_member_name (jb, "plot_width");
  json_builder_add_int_value (jb, b->view->plot_w);
  json_builder_set_member_name (jb, "rows_height");
  json_builder_add_int_value (jb, b->view->rows_h);
  json_builder_set_member_name (jb, "set_timeline_ms");
  json_builder_add_double_value (jb, b->set_timeline_ms);
  json_builder_set_member_name (jb, "first_frame_ms");
  json_builder_add_double_value (jb, b->first_frame_ms);
  json_builder_set_member_name (jb, "first_complete_frame_ms");
  json_builder_add_double_value (jb, b->first_complete_ms);
  _sl_benchmark_add_stats (jb, "frames", b->frame_us, "worst_ms");
  _sl_benchmark_add_stats (jb, "step_to_complete_frame", b->latency_us, "worst_ms");
  _sl_benchmark_add_stats (jb, "frame_main_thread_cpu", b->frame_cpu_us, "worst_ms");
  _sl_benchmark_add_stats (jb, "prepare", b->prepare_us, "worst_ms");
  /* work between frames (idle callbacks, list models' signals) delays the
   * next frame without showing in any frame's time */
  json_builder_set_member_name (jb, "longest_gap_between_frames_ms");
  json_builder_add_double_value (jb, b->longest_gap / 1000.0);
  json_builder_set_member_name (jb, "phases");
  json_builder_begin_object (jb);
  g_hash_table_iter_init (&it, b->phase_frames);
  while (g_hash_table_iter_next (&it, &key, &value))
    _sl_benchmark_add_stats (jb, key, value, "worst_ms");
  json_builder_end_object (jb);
  json_builder_set_member_name (jb, "max_arrows_drawn");
  json_builder_add_int_value (jb, b->max_arrows);
  json_builder_set_member_name (jb, "row_filters");
  json_builder_add_int_value (jb, sl_timeline_view_get_row_filter (b->view));
  json_builder_set_member_name (jb, "message_selected");
  json_builder_add_boolean_value (jb, sl_timeline_view_get_selected_message (b->view, NULL));
  {
    SlSearchList *list = sl_timeline_view_get_search (b->view);

    json_builder_set_member_name (jb, "search");
    json_builder_begin_object (jb);
    json_builder_set_member_name (jb, "query");
    json_builder_add_string_value (jb, SEARCH_QUERY);
    json_builder_set_member_name (jb, "events_scanned");
    json_builder_add_int_value (jb, (gint64) sl_search_list_get_n_scanned (list));
    json_builder_set_member_name (jb, "matches");
    json_builder_add_int_value (jb, (gint64) sl_search_list_get_n_matches (list));
    json_builder_set_member_name (jb, "worker_s");
    json_builder_add_double_value (jb, sl_search_list_get_seconds (list));
    json_builder_end_object (jb);
  }
  compare_full_detail (b);
  json_builder_set_member_name (jb, "goals_ms");
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "first_frame");
  json_builder_add_double_value (jb, 100);
  json_builder_set_member_name (jb, "frame_median");
  json_builder_add_double_value (jb, 16);
  json_builder_set_member_name (jb, "frame_worst");
  json_builder_add_double_value (jb, 33);
  json_builder_end_object (jb);
  json_builder_set_member_name (jb, "machine");
  json_builder_begin_object (jb);
  _sl_benchmark_add_machine (jb, GTK_WIDGET (b->window));
  /* a virtual machine's processors may be taken away while a frame runs */
  json_builder_set_member_name (jb, "steps_wall_ms");
  json_builder_add_double_value (jb, (b->steps_end - b->steps_start) / 1000.0);
  if (b->steal_start >= 0 && b->steal_end >= b->steal_start)
    {
      json_builder_set_member_name (jb, "hypervisor_steal_during_steps_ms");
      json_builder_add_int_value (jb, b->steal_end - b->steal_start);
    }
  {
    g_autofree char *load = NULL;

    /* other work on the machine slows the frames down: say how much there was */
    if (g_file_get_contents ("/proc/loadavg", &load, NULL, NULL))
      {
        json_builder_set_member_name (jb, "load_average_at_end");
        json_builder_add_string_value (jb, g_strstrip (load));
      }
  }
  json_builder_end_object (jb);
  json_builder_end_object (jb);

  _sl_benchmark_print_json (jb);

  sl_timeline_view_set_timeline (b->view, NULL, NULL, 0);
  gtk_window_destroy (b->window);
  sl_timeline_synth_free (b->synth);
  g_object_unref (b->jb);
  for (guint i = 0; i < b->steps->len; i++)
    g_clear_pointer (&g_array_index (b->steps, Step, i).param, g_variant_unref);
  g_array_unref (b->steps);
  g_array_unref (b->frame_us);
  g_array_unref (b->latency_us);
  g_array_unref (b->prepare_us);
  g_array_unref (b->frame_cpu_us);
  g_hash_table_unref (b->phase_frames);
  g_application_release (G_APPLICATION (b->app));
  g_free (b);
}

static gboolean
finish_idle_cb (gpointer data)
{
  Bench *b = data;

  b->idle_id = 0;
  finish (b);
  return G_SOURCE_REMOVE;
}

static void
do_step (Bench *b)
{
  Step *s = &g_array_index (b->steps, Step, b->step);

  gtk_widget_activate_action_variant (GTK_WIDGET (b->view), s->action, s->param);
}

/* A step happens as a frame starts, so that the frame shows it. */
static void
before_paint_cb (GdkFrameClock *clock,
                 Bench         *b)
{
  b->frame_start = g_get_monotonic_time ();
  b->frame_cpu_start = sl_thread_cpu_us ();
  _sl_benchmark_phases_begin (&b->phases, b->frame_cpu_start);
  if (b->t_set != 0 && b->first_complete_ms > 0 && !b->step_pending && b->step < b->steps->len)
    {
      if (b->step > 0 && b->last_after_paint != 0)
        {
          gint64 gap = b->frame_start - b->last_after_paint;

          b->longest_gap = MAX (b->longest_gap, gap);
          if (g_getenv ("SL_PROFILE") != NULL && gap > 20000)
            g_printerr ("gap of %.2f ms before step %u\n", gap / 1000.0, b->step + 1);
        }
      if (b->step == 0)
        {
          b->steps_start = b->frame_start;
          b->steal_start = _sl_benchmark_steal_ms ();
        }
      b->step_start = b->frame_start;
      b->step_pending = TRUE;
      do_step (b);
    }
}

static void
after_paint_cb (GdkFrameClock *clock,
                Bench         *b)
{
  gint64 now = g_get_monotonic_time (), dt = now - b->frame_start;
  SlTimelineViewStats st;

  if (b->t_set == 0 || b->frame_start == 0)
    return;
  b->last_after_paint = now;
  sl_timeline_view_get_stats (b->view, &st);
  if (b->first_frame_ms == 0)
    b->first_frame_ms = (now - b->t_set) / 1000.0;
  if (b->first_complete_ms == 0)
    {
      if (st.complete)
        b->first_complete_ms = (now - b->t_set) / 1000.0;
      gtk_widget_queue_draw (b->view->canvas);
      return;
    }
  if (b->step_pending)
    {
      const char *phase = g_array_index (b->steps, Step, b->step).phase;
      GArray *per_phase = g_hash_table_lookup (b->phase_frames, phase);
      gint64 prep = (gint64) (st.prepare_ms * 1000);
      gint64 cpu = sl_thread_cpu_us () - b->frame_cpu_start;

      g_array_append_val (b->frame_us, dt);
      g_array_append_val (b->frame_cpu_us, cpu);
      if (per_phase == NULL)
        {
          per_phase = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_hash_table_insert (b->phase_frames, (gpointer) phase, per_phase);
        }
      g_array_append_val (per_phase, dt);
      if (st.complete)
        {
          gint64 lat = now - b->step_start;

          g_array_append_val (b->latency_us, lat);
          g_array_append_val (b->prepare_us, prep);
          b->max_arrows = MAX (b->max_arrows, st.arrows);
          b->step_pending = FALSE;
          b->step++;
          if (g_getenv ("SL_PROFILE") != NULL)
            {
              double u, l, pt;

              /* update: the step's action and the view's preparation */
              _sl_benchmark_phases_split (&b->phases, b->frame_cpu_start + cpu, &u, &l, &pt);
              g_printerr ("step %u %s: frame %.2f ms, prepare %.2f ms, rows %u/%u, arrows %u; "
                          "CPU %.2f ms (update %.2f, layout %.2f, paint %.2f); monotonic %" G_GINT64_FORMAT
                          " %" G_GINT64_FORMAT "\n", b->step,
                          phase, dt / 1000.0, st.prepare_ms, st.rows_queried, st.visible_rows, st.arrows,
                          cpu / 1000.0, u, l, pt, b->frame_start, now);
            }
        }
    }
  if (b->step >= b->steps->len && sl_search_list_get_searching (sl_timeline_view_get_search (b->view)))
    {
      /* (the search's end, on its worker) */
      gtk_widget_queue_draw (b->view->canvas);
      return;
    }
  if (b->step >= b->steps->len)
    {
      if (b->steps_end == 0)
        {
          b->steps_end = now;
          b->steal_end = _sl_benchmark_steal_ms ();
        }
      if (b->idle_id == 0)
        b->idle_id = g_idle_add (finish_idle_cb, b);
      return;
    }
  gtk_widget_queue_draw (b->view->canvas);
}

static void
mapped_cb (Bench *b)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (b->window));
  int extra = b->view->plot_w - PLOT_W;
  gint64 t0;

  if (extra != 0 && b->view->plot_w > 0)
    {
      int w, h;

      /* make the plot exactly PLOT_W wide */
      gtk_window_get_default_size (b->window, &w, &h);
      gtk_window_set_default_size (b->window, w - extra, h);
      return;
    }
  if (b->before_id != 0)
    return;
  /* keys go to the plot, as for someone zooming with the keyboard (a
   * focused entry's caret is drawn again and again, and GTK 4.8 asks the
   * X server for the pointer each time) */
  gtk_widget_grab_focus (b->view->canvas);
  b->before_id = g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), b);
  b->after_id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), b);
  _sl_benchmark_phases_connect (&b->phases, clock);

  t0 = g_get_monotonic_time ();
  b->t_set = t0;
  sl_timeline_view_set_timeline (b->view, b->synth->timeline,
                                 (const SlEventStore * const *) b->synth->stores->pdata, b->synth->n_hosts);
  for (guint h = 0; h < b->synth->n_hosts; h++)
    sl_timeline_view_set_host_clock (b->view, h, &g_array_index (b->synth->to_reference, SlTransform, h), 0, 50000);
  sl_timeline_view_set_all_expanded (b->view, TRUE);
  for (guint h = 0; h + 1 < b->synth->n_hosts; h++)
    sl_timeline_view_set_link_bound (b->view, h, h + 1, 100000);
  _sl_timeline_view_fit (b->view);
  /* rows filtered (as one would, they hide nothing of this cluster but
   * are evaluated) and a message selected, both ends marked every frame */
  sl_timeline_view_set_row_filter (b->view, SL_TIMELINE_FILTER_HIDE_IDLE | SL_TIMELINE_FILTER_HIDE_KERNEL);
  {
    g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
    gint64 lo, hi;

    sl_timeline_get_view_range (b->synth->timeline, &lo, &hi);
    sl_timeline_query_arrows (b->synth->timeline, lo + (hi - lo) / 2, lo + (hi - lo) / 2 + 1000000, 0,
                              SL_TIMELINE_NONE, SL_TIMELINE_NONE, SL_TIMELINE_NONE, arrows);
    if (arrows->len > 0)
      sl_timeline_view_select_message (b->view, &g_array_index (arrows, SlTimelineArrow, 0));
  }
  b->set_timeline_ms = (g_get_monotonic_time () - t0) / 1000.0;
  gtk_widget_queue_draw (b->view->canvas);
}

static gboolean
wait_size_cb (gpointer data)
{
  Bench *b = data;

  if (!gtk_widget_get_mapped (GTK_WIDGET (b->window)) || b->view->plot_w <= 0)
    return G_SOURCE_CONTINUE;
  mapped_cb (b);
  return b->before_id != 0 ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

void
sl_benchmark_timeline_run (GtkApplication *application)
{
  Bench *b = g_new0 (Bench, 1);
  const char *env = g_getenv ("SL_BENCH_TIMELINE_TRACE_EVENTS");
  guint64 trace_events = env != NULL ? g_ascii_strtoull (env, NULL, 10) : TRACE_EVENTS;
  SlTimelineStats st;
  gint64 lo, hi;

  b->app = application;
  b->jb = json_builder_new ();
  b->steps = g_array_new (FALSE, FALSE, sizeof (Step));
  b->frame_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->latency_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->prepare_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->frame_cpu_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->phase_frames = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  build_steps (b);

  json_builder_begin_object (b->jb);
  json_builder_set_member_name (b->jb, "benchmark");
  json_builder_add_string_value (b->jb, "timeline");

  g_printerr ("syncline-bench timeline: generating %u hosts, ~%" G_GUINT64_FORMAT " intervals, %"
              G_GUINT64_FORMAT " messages…\n", N_HOSTS, N_INTERVALS, N_ARROWS);
  b->synth = sl_timeline_synth_new (N_HOSTS, N_INTERVALS, N_ARROWS, 1);
  sl_timeline_get_stats (b->synth->timeline, &st);
  sl_timeline_get_view_range (b->synth->timeline, &lo, &hi);
  json_builder_set_member_name (b->jb, "model");
  json_builder_begin_object (b->jb);
  json_builder_set_member_name (b->jb, "hosts");
  json_builder_add_int_value (b->jb, N_HOSTS);
  json_builder_set_member_name (b->jb, "rows");
  json_builder_add_int_value (b->jb, st.rows);
  json_builder_set_member_name (b->jb, "intervals");
  json_builder_add_int_value (b->jb, (gint64) st.intervals);
  json_builder_set_member_name (b->jb, "arrows");
  json_builder_add_int_value (b->jb, (gint64) st.arrows);
  json_builder_set_member_name (b->jb, "events");
  json_builder_add_int_value (b->jb, (gint64) st.events);
  json_builder_set_member_name (b->jb, "span_s");
  json_builder_add_double_value (b->jb, (hi - lo) / 1e9);
  json_builder_set_member_name (b->jb, "bytes_per_interval");
  json_builder_add_double_value (b->jb, (double) st.interval_bytes / (double) MAX (st.intervals, 1));
  json_builder_set_member_name (b->jb, "arrow_bytes");
  json_builder_add_int_value (b->jb, (gint64) st.arrow_bytes);
  json_builder_set_member_name (b->jb, "other_bytes");
  json_builder_add_int_value (b->jb, (gint64) st.other_bytes);
  json_builder_set_member_name (b->jb, "generate_s");
  json_builder_add_double_value (b->jb, b->synth->generate_s);
  json_builder_set_member_name (b->jb, "build_s");
  json_builder_add_double_value (b->jb, b->synth->build_s);
  json_builder_set_member_name (b->jb, "build_ns_per_event");
  json_builder_add_double_value (b->jb, b->synth->build_s * 1e9 / (double) MAX (st.events, 1));
  json_builder_end_object (b->jb);

  if (trace_events > 0)
    {
      g_printerr ("syncline-bench timeline: decoding %" G_GUINT64_FORMAT " generated trace events…\n",
                  trace_events);
      measure_decode (b->jb, trace_events);
    }

  b->window = GTK_WINDOW (gtk_application_window_new (application));
  b->view = g_object_new (SL_TYPE_TIMELINE_VIEW, NULL);
  gtk_window_set_child (b->window, GTK_WIDGET (b->view));
  gtk_window_set_default_size (b->window, PLOT_W + SL_TLV_LABEL_W + 16, 1150);
  gtk_paned_set_position (b->view->paned, 960);
  gtk_window_present (b->window);
  g_timeout_add (50, wait_size_cb, b);
}
