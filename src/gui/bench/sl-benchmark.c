/* sl-benchmark.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `syncline-bench views`: a window fed with a generated cluster of
 * 200 hosts and 2000 links, streamed like a live session (one coalesced
 * update per refresh interval), then frames of each view while it is
 * zoomed or scrolled. `syncline-bench open FOLDER…`: the same window
 * opens trace folders as the application does (File › Open), and the
 * times to the first graph and to the end of reading come first. Prints
 * one JSON object on stdout.
 */

#include "config.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <json-glib/json-glib.h>

#include "sl-benchmark.h"
#include "sl-benchmark-private.h"
#include "sl-compare.h"
#include "sl-cpu-time.h"
#include "sl-graph-layout.h"
#include "sl-rng.h"
#include "sl-link-plot.h"
#include "sl-row-table.h"
#include "sl-session-private.h"
#include "sl-window.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#define N_HOSTS        200
#define N_LINKS        2000
#define SIM_SECONDS    30
#define WALL_SECONDS   6
#define FRAMES         60

typedef enum
{
  PHASE_LOADING,
  PHASE_SETTLING,
  PHASE_GRAPH,
  PHASE_TABLE,
  PHASE_PLOT,
  PHASE_DONE,
} Phase;

typedef struct
{
  GtkApplication *app;
  SlWindow       *window;
  SlSession      *session;
  Phase           phase;
  gint64          t_open;
  gint64          t_ready;
  gint64          frame_start;
  gint64          frame_cpu_start;
  double          frame_process_cpu_start;
  SlBenchPhases   phases;
  guint           frame_no;
  GArray         *frames[3];
  GArray         *frames_cpu[3];
  GArray         *frames_process_cpu[3];
  gulong          before_id;
  gulong          after_id;
  guint           tick_id;
  double          layout_ms;
  char           *screenshot;
  gboolean        stall_watch;
  gint64          stall_last;
  gint64          stall_max;
  GArray         *captures;
  /* `open`: the folders, and when the graph was first on screen */
  char          **inputs;
  gulong          first_paint_id;
  gulong          paint_count_id;
  guint           paints_while_reading;
  gint64          t_first_graph;
  guint           first_graph_hosts;
  /* CPU seconds at the open and at the end of reading: the process, its
   * decoders (children waited for), the main thread */
  double          cpu_open[3];
  double          cpu_ready[3];
} Bench;

/* While the session streams in, the time from each return of the main
 * loop's poll to its next call: the main thread was busy for that long
 * (making table rows, reordering, applying an update, drawing) and could
 * not answer. (A high-priority timeout every 2 ms that came late measured
 * the same by waking the main thread 500 times a second for the whole
 * read: on this PVM guest, poll and the scheduler were ~25 % of the main
 * thread's samples, its own CPU counted as the application's.) */
static GPollFunc stall_next_poll;
static Bench *stall_bench;

static gint
stall_poll (GPollFD *fds,
            guint    nfds,
            gint     timeout)
{
  Bench *b = stall_bench;
  gint ret;

  if (b != NULL && b->stall_watch)
    {
      gint64 now = g_get_monotonic_time ();

      b->stall_max = MAX (b->stall_max, now - b->stall_last);
      /* monotonic times, to line up with `perf record -k CLOCK_MONOTONIC` */
      if (now - b->stall_last > 20000 && g_getenv ("SL_PROFILE") != NULL)
        g_printerr ("stall %" G_GINT64_FORMAT " %" G_GINT64_FORMAT ": %.1f ms\n", b->stall_last, now,
                    (now - b->stall_last) / 1000.0);
    }
  ret = stall_next_poll (fds, nfds, timeout);
  if (b != NULL)
    b->stall_last = g_get_monotonic_time ();
  return ret;
}

static void
stall_watch (Bench    *b,
             gboolean  on)
{
  if (stall_next_poll == NULL)
    {
      stall_next_poll = g_main_context_get_poll_func (NULL);
      g_main_context_set_poll_func (NULL, stall_poll);
    }
  stall_bench = b;
  b->stall_watch = on;
}

/* Count, mean, median, p95 and the largest of durations in µs, as ms;
 * @max_key names the largest ("max_ms", "worst_ms"). */
void
_sl_benchmark_add_stats (JsonBuilder *b,
                         const char  *name,
                         GArray      *us,
                         const char  *max_key)
{
  g_autoptr(GArray) sorted = g_array_copy (us);
  double sum = 0;

  g_array_sort (sorted, sl_compare_gint64);
  for (guint i = 0; i < sorted->len; i++)
    sum += (double) g_array_index (sorted, gint64, i);
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, sorted->len);
  if (sorted->len > 0)
    {
      json_builder_set_member_name (b, "mean_ms");
      json_builder_add_double_value (b, sum / sorted->len / 1000.0);
      json_builder_set_member_name (b, "median_ms");
      json_builder_add_double_value (b, g_array_index (sorted, gint64, sorted->len / 2) / 1000.0);
      json_builder_set_member_name (b, "p95_ms");
      json_builder_add_double_value (b, g_array_index (sorted, gint64, (sorted->len * 95) / 100) / 1000.0);
      json_builder_set_member_name (b, max_key);
      json_builder_add_double_value (b, g_array_index (sorted, gint64, sorted->len - 1) / 1000.0);
    }
  json_builder_end_object (b);
}

static char *
cpu_model (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL))
    return g_strdup ("unknown");
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "model name"))
      {
        const char *colon = strchr (lines[i], ':');
        return g_strstrip (g_strdup (colon != NULL ? colon + 1 : lines[i]));
      }
  return g_strdup ("unknown");
}

/* Time the hypervisor gave to other guests while this machine's
 * processors had work (all processors, ms since boot), or -1 where
 * /proc/stat does not say. It makes frames slower without showing in
 * their CPU time. */
gint64
_sl_benchmark_steal_ms (void)
{
  g_autofree char *text = NULL;
  guint64 v[8] = { 0 };
  long hz = sysconf (_SC_CLK_TCK);

  if (hz <= 0 || !g_file_get_contents ("/proc/stat", &text, NULL, NULL) || !g_str_has_prefix (text, "cpu "))
    return -1;
  if (sscanf (text + 4, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
              " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
              &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
    return -1;
  return (gint64) (v[7] * 1000 / (guint64) hz);
}

/* The builder's document, pretty, on standard output. */
void
_sl_benchmark_print_json (JsonBuilder *b)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = NULL;

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  g_print ("%s\n", text);
}

/* Members of the "machine" object: the processors, and what the frames
 * went through on their way to the screen: the display server and, on
 * X11, the window manager (without one, GTK 4.8 asks the X server on
 * every frame whether one has appeared). */
void
_sl_benchmark_add_machine (JsonBuilder *b,
                           GtkWidget   *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  g_autofree char *cpu = cpu_model ();

  json_builder_set_member_name (b, "cpu");
  json_builder_add_string_value (b, cpu);
  json_builder_set_member_name (b, "processors");
  json_builder_add_int_value (b, g_get_num_processors ());
  json_builder_set_member_name (b, "display");
  json_builder_add_string_value (b, G_OBJECT_TYPE_NAME (display));
#ifdef GDK_WINDOWING_X11
  if (GDK_IS_X11_DISPLAY (display))
    {
      GdkX11Screen *screen = gdk_x11_display_get_screen (display);
      const char *wm = gdk_x11_screen_get_window_manager_name (screen);

      json_builder_set_member_name (b, "window_manager");
      json_builder_add_string_value (b, wm != NULL && g_strcmp0 (wm, "unknown") != 0 ? wm : "none");
    }
#endif
}

/* The handlers run after GTK's own for each phase: update (tick
 * callbacks, then CSS validation), layout (measuring, allocating, binding
 * list rows); paint (snapshot and render) is what follows. */
static void
phases_after_update_cb (GdkFrameClock *clock,
                        SlBenchPhases *p)
{
  p->update_end = p->layout_end = sl_thread_cpu_us ();
}

static void
phases_after_layout_cb (GdkFrameClock *clock,
                        SlBenchPhases *p)
{
  p->layout_end = sl_thread_cpu_us ();
}

void
_sl_benchmark_phases_connect (SlBenchPhases *phases,
                              GdkFrameClock *clock)
{
  if (g_getenv ("SL_PROFILE") == NULL)
    return;
  g_signal_connect_after (clock, "update", G_CALLBACK (phases_after_update_cb), phases);
  g_signal_connect_after (clock, "layout", G_CALLBACK (phases_after_layout_cb), phases);
}

void
_sl_benchmark_phases_disconnect (SlBenchPhases *phases,
                                 GdkFrameClock *clock)
{
  g_signal_handlers_disconnect_by_data (clock, phases);
}

void
_sl_benchmark_phases_begin (SlBenchPhases *phases,
                            gint64         cpu)
{
  phases->start = phases->update_end = phases->layout_end = cpu;
}

void
_sl_benchmark_phases_split (const SlBenchPhases *phases,
                            gint64               end_cpu,
                            double              *update_ms,
                            double              *layout_ms,
                            double              *paint_ms)
{
  *update_ms = (phases->update_end - phases->start) / 1000.0;
  *layout_ms = (phases->layout_end - phases->update_end) / 1000.0;
  *paint_ms = (end_cpu - phases->layout_end) / 1000.0;
}

/* Layout alone, on the tree the session has. */
static double
measure_layout (SlSession *session)
{
  guint n = g_list_model_get_n_items (sl_session_get_hosts (session));
  g_autofree guint *parent = g_new (guint, n);
  g_autofree guint *reference = g_new (guint, n);
  g_autofree SlLayoutPos *pos = g_new (SlLayoutPos, n);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint h = 0; h < n; h++)
    {
      const SlSnapHost *info = sl_host_item_get_info (sl_session_get_host_item (session, h));

      parent[h] = info->parent;
      reference[h] = info->reference;
    }
  for (guint k = 0; k < 21; k++)
    {
      gint64 t0 = g_get_monotonic_time (), dt;
      double w, h;

      sl_graph_layout_compute (n, parent, reference, pos, &w, &h);
      dt = g_get_monotonic_time () - t0;
      g_array_append_val (times, dt);
    }
  g_array_sort (times, sl_compare_gint64);
  return g_array_index (times, gint64, times->len / 2) / 1000.0;
}

static void
finish (Bench *b)
{
  g_autoptr(JsonBuilder) jb = json_builder_new ();
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (b->window));
  GArray *updates = _sl_session_get_update_times (b->session);
  static const char *names[] = { "graph", "links_table", "hull_plot" };

  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "benchmark");
  json_builder_add_string_value (jb, b->inputs != NULL ? "open" : "views");
  json_builder_set_member_name (jb, "hosts");
  json_builder_add_int_value (jb, g_list_model_get_n_items (sl_session_get_hosts (b->session)));
  json_builder_set_member_name (jb, "links");
  json_builder_add_int_value (jb, sl_session_get_n_links (b->session));
  json_builder_set_member_name (jb, "tree_links");
  json_builder_add_int_value (jb, sl_session_get_n_tree_links (b->session));
  json_builder_set_member_name (jb, "renderer");
  json_builder_add_string_value (jb, renderer != NULL ? G_OBJECT_TYPE_NAME (renderer) : "none");
  json_builder_set_member_name (jb, "window");
  json_builder_begin_array (jb);
  json_builder_add_int_value (jb, gtk_widget_get_width (GTK_WIDGET (b->window)));
  json_builder_add_int_value (jb, gtk_widget_get_height (GTK_WIDGET (b->window)));
  json_builder_end_array (jb);
  json_builder_set_member_name (jb, "open_s");
  json_builder_add_double_value (jb, (b->t_ready - b->t_open) / 1e6);
  if (b->inputs != NULL)
    {
      /* from sl_session_open() to the end of the first frame that drew
       * the graph with at least one host */
      json_builder_set_member_name (jb, "first_graph_s");
      json_builder_add_double_value (jb, b->t_first_graph > 0 ? (b->t_first_graph - b->t_open) / 1e6 : -1);
      json_builder_set_member_name (jb, "first_graph_hosts");
      json_builder_add_int_value (jb, b->first_graph_hosts);
    }
  /* processor time from the open to the end of reading, to set against
   * `/usr/bin/time syncline-cli sync` (which counts its decoders too) */
  json_builder_set_member_name (jb, "open_cpu_s");
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "process");
  json_builder_add_double_value (jb, b->cpu_ready[0] - b->cpu_open[0]);
  json_builder_set_member_name (jb, "decoders");
  json_builder_add_double_value (jb, b->cpu_ready[1] - b->cpu_open[1]);
  json_builder_set_member_name (jb, "main_thread");
  json_builder_add_double_value (jb, b->cpu_ready[2] - b->cpu_open[2]);
  json_builder_end_object (jb);
  /* the window's frames from the open to the end of reading */
  json_builder_set_member_name (jb, "frames_while_reading");
  json_builder_add_int_value (jb, b->paints_while_reading);
  if (b->inputs != NULL)
    {
      SlGraphView *graph = sl_window_get_graph_view (b->window);

      /* the graph's drawings meanwhile, and the session's updates: those
       * that changed something it shows, and not */
      json_builder_set_member_name (jb, "graph_while_reading");
      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "drawings");
      json_builder_add_int_value (jb, _sl_graph_view_get_n_draws (graph, TRUE));
      json_builder_set_member_name (jb, "drawings_paced");
      json_builder_add_int_value (jb, _sl_graph_view_get_n_paced_draws (graph));
      json_builder_set_member_name (jb, "updates");
      json_builder_add_int_value (jb, _sl_graph_view_get_n_updates_loading (graph, FALSE));
      json_builder_set_member_name (jb, "updates_unseen");
      json_builder_add_int_value (jb, _sl_graph_view_get_n_updates_loading (graph, TRUE));
      json_builder_end_object (jb);
    }
  json_builder_set_member_name (jb, "layout_ms");
  json_builder_add_double_value (jb, b->layout_ms);
  _sl_benchmark_add_stats (jb, "update_handling", updates, "max_ms");
  /* the same updates in the main thread's CPU time */
  _sl_benchmark_add_stats (jb, "update_handling_cpu", _sl_session_get_update_cpu_times (b->session), "max_ms");
  /* the worker's CPU time capturing each snapshot that was applied, and
   * how many it captured (those merged before they were applied too) */
  _sl_benchmark_add_stats (jb, "capture_cpu", b->captures, "max_ms");
  json_builder_set_member_name (jb, "captures");
  json_builder_add_int_value (jb, _sl_session_get_n_captures (b->session));
  json_builder_set_member_name (jb, "longest_stall_while_streaming_ms");
  json_builder_add_double_value (jb, b->stall_max / 1000.0);
  _sl_benchmark_add_stats (jb, "table_reorder", _sl_session_get_resort_times (b->session), "max_ms");
  json_builder_set_member_name (jb, "frames");
  json_builder_begin_object (jb);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    _sl_benchmark_add_stats (jb, names[i], b->frames[i], "max_ms");
  json_builder_end_object (jb);
  /* the main thread's own CPU time in those frames: what is left is
   * waiting (for the X server, mostly) */
  json_builder_set_member_name (jb, "frames_main_thread_cpu");
  json_builder_begin_object (jb);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    _sl_benchmark_add_stats (jb, names[i], b->frames_cpu[i], "max_ms");
  json_builder_end_object (jb);
  /* every thread's: with GL on a software rasterizer (llvmpipe), its
   * threads' rasterizing too, which the wall time shows only as far as
   * the processors are free */
  json_builder_set_member_name (jb, "frames_process_cpu");
  json_builder_begin_object (jb);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    _sl_benchmark_add_stats (jb, names[i], b->frames_process_cpu[i], "max_ms");
  json_builder_end_object (jb);
  json_builder_set_member_name (jb, "goals_ms");
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "frame");
  json_builder_add_double_value (jb, 16);
  json_builder_set_member_name (jb, "update_handling");
  json_builder_add_double_value (jb, 5);
  json_builder_end_object (jb);
  json_builder_set_member_name (jb, "machine");
  json_builder_begin_object (jb);
  _sl_benchmark_add_machine (jb, GTK_WIDGET (b->window));
  json_builder_end_object (jb);
  json_builder_end_object (jb);

  _sl_benchmark_print_json (jb);

  b->phase = PHASE_DONE;
  if (b->screenshot != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!sl_window_save_screenshot (b->window, b->screenshot, &error))
        g_printerr ("syncline-bench views: %s\n", error->message);
      g_free (b->screenshot);
    }
  gtk_window_destroy (GTK_WINDOW (b->window));
  for (guint i = 0; i < G_N_ELEMENTS (b->frames); i++)
    {
      g_array_unref (b->frames[i]);
      g_array_unref (b->frames_cpu[i]);
      g_array_unref (b->frames_process_cpu[i]);
    }
  g_array_unref (b->captures);
  g_strfreev (b->inputs);
  g_application_release (G_APPLICATION (b->app));
  if (stall_bench == b)
    stall_bench = NULL;
  g_free (b);
}

static gboolean
finish_cb (gpointer data)
{
  Bench *b = data;

  if (sl_graph_view_get_animating (sl_window_get_graph_view (b->window)))
    return G_SOURCE_CONTINUE;
  finish (b);
  return G_SOURCE_REMOVE;
}

/* The picture shows the fitted graph and the link table. */
static gboolean
prepare_finish_cb (gpointer data)
{
  Bench *b = data;

  sl_quality_panel_set_page (sl_window_get_quality_panel (b->window), "links");
  gtk_widget_activate_action (GTK_WIDGET (sl_window_get_graph_view (b->window)), "graph.zoom-fit", NULL);
  g_timeout_add (300, finish_cb, b);
  return G_SOURCE_REMOVE;
}

/* Frames: what happens between before-paint and after-paint is the UI
 * thread's whole work for a frame (ticks, layout, snapshot, render). */
static void
before_paint_cb (GdkFrameClock *clock,
                 Bench         *b)
{
  b->frame_start = g_get_monotonic_time ();
  b->frame_cpu_start = sl_thread_cpu_us ();
  b->frame_process_cpu_start = sl_cpu_time_seconds ();
  _sl_benchmark_phases_begin (&b->phases, b->frame_cpu_start);
}

static void start_phase (Bench *b,
                         Phase  phase);

static void
after_paint_cb (GdkFrameClock *clock,
                Bench         *b)
{
  gint64 dt, cpu, process_cpu;

  if (b->phase < PHASE_GRAPH || b->phase > PHASE_PLOT || b->frame_start == 0)
    return;
  dt = g_get_monotonic_time () - b->frame_start;
  cpu = sl_thread_cpu_us () - b->frame_cpu_start;
  process_cpu = (gint64) ((sl_cpu_time_seconds () - b->frame_process_cpu_start) * 1e6);
  /* the first frame of a phase includes switching pages */
  if (b->frame_no++ > 0)
    {
      g_array_append_val (b->frames[b->phase - PHASE_GRAPH], dt);
      g_array_append_val (b->frames_cpu[b->phase - PHASE_GRAPH], cpu);
      g_array_append_val (b->frames_process_cpu[b->phase - PHASE_GRAPH], process_cpu);
      /* monotonic times, to line up with `perf record -k CLOCK_MONOTONIC` */
      if (g_getenv ("SL_PROFILE") != NULL)
        {
          double u, l, pt;

          _sl_benchmark_phases_split (&b->phases, b->frame_cpu_start + cpu, &u, &l, &pt);
          g_printerr ("frame %s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT ": %.2f ms, CPU %.2f ms "
                      "(update %.2f, layout %.2f, paint %.2f), process CPU %.2f ms\n",
                      b->phase == PHASE_GRAPH ? "graph" : b->phase == PHASE_TABLE ? "links_table" : "hull_plot",
                      b->frame_start, b->frame_start + dt, dt / 1000.0, cpu / 1000.0, u, l, pt,
                      process_cpu / 1000.0);
        }
    }
  b->frame_start = 0;
}

static gboolean
drive_cb (GtkWidget     *widget,
          GdkFrameClock *clock,
          gpointer       data)
{
  Bench *b = data;
  SlGraphView *graph = sl_window_get_graph_view (b->window);
  SlQualityPanel *panel = sl_window_get_quality_panel (b->window);

  if (b->frame_no > FRAMES)
    {
      b->tick_id = 0;
      start_phase (b, b->phase + 1);
      return G_SOURCE_REMOVE;
    }

  switch (b->phase)
    {
    case PHASE_GRAPH:
      /* zoom in and out around the middle: every frame redraws the graph */
      gtk_widget_activate_action (GTK_WIDGET (graph), b->frame_no % 2 ? "graph.zoom-in" : "graph.zoom-out", NULL);
      break;
    case PHASE_TABLE:
      {
        SlRowTable *table = SL_ROW_TABLE (_sl_quality_panel_get_links_table (panel));

        /* scroll the link table's list a page per frame */
        gtk_widget_activate_action (GTK_WIDGET (sl_row_table_get_list (table)), "list.scroll-to-item", "u",
                                    (b->frame_no * 37) % MAX (sl_session_get_n_links (b->session), 1));
        break;
      }
    case PHASE_PLOT:
      gtk_widget_activate_action (sl_quality_panel_get_hull_plot (panel),
                                  b->frame_no % 2 ? "plot.zoom-in" : "plot.zoom-out", NULL);
      break;
    case PHASE_LOADING:
    case PHASE_SETTLING:
    case PHASE_DONE:
    default:
      break;
    }
  gtk_widget_queue_draw (widget);
  return G_SOURCE_CONTINUE;
}

static void
start_phase (Bench *b,
             Phase  phase)
{
  SlQualityPanel *panel = sl_window_get_quality_panel (b->window);
  GtkWidget *target = GTK_WIDGET (sl_window_get_graph_view (b->window));

  b->phase = phase;
  b->frame_no = 0;
  b->frame_start = 0;
  switch (phase)
    {
    case PHASE_GRAPH:
      sl_quality_panel_set_page (panel, "links");
      break;
    case PHASE_TABLE:
      sl_quality_panel_set_page (panel, "links");
      target = GTK_WIDGET (panel);
      break;
    case PHASE_PLOT:
      {
        GListModel *links = sl_session_get_links (b->session);
        guint best = 0;
        guint64 most = 0;

        /* the link with the most matched packets */
        for (guint i = 0; i < g_list_model_get_n_items (links); i++)
          {
            const SlReportLink *rl = sl_link_item_get_info (sl_session_get_link_item (b->session, i));

            if (rl->info.matches > most)
              {
                most = rl->info.matches;
                best = i;
              }
          }
        sl_session_set_selected_link (b->session, sl_session_get_link_item (b->session, best));
        sl_quality_panel_set_page (panel, "details");
        target = sl_quality_panel_get_hull_plot (panel);
        break;
      }
    case PHASE_DONE:
      {
        GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (b->window));

        g_clear_signal_handler (&b->before_id, clock);
        g_clear_signal_handler (&b->after_id, clock);
        _sl_benchmark_phases_disconnect (&b->phases, clock);
        /* out of the frame clock's cycle, where the window can be rendered */
        g_timeout_add (100, prepare_finish_cb, b);
        return;
      }
    case PHASE_LOADING:
    case PHASE_SETTLING:
    default:
      return;
    }
  b->tick_id = gtk_widget_add_tick_callback (target, drive_cb, b, NULL);
}

static gboolean
settled_cb (gpointer data)
{
  Bench *b = data;
  GdkFrameClock *clock;

  if (sl_graph_view_get_animating (sl_window_get_graph_view (b->window)))
    return G_SOURCE_CONTINUE;
  b->layout_ms = measure_layout (b->session);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (b->window));
  b->before_id = g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), b);
  b->after_id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), b);
  _sl_benchmark_phases_connect (&b->phases, clock);
  start_phase (b, PHASE_GRAPH);
  return G_SOURCE_REMOVE;
}

static void
read_cpu (double cpu[3])
{
  cpu[0] = sl_cpu_time_seconds ();
  cpu[1] = sl_children_cpu_seconds ();
  cpu[2] = sl_thread_cpu_us () / 1e6;
}

static void
state_cb (Bench *b)
{
  SlSessionState state = sl_session_get_state (b->session);

  if (b->phase != PHASE_LOADING)
    return;
  if (state == SL_SESSION_STATE_FAILED)
    {
      stall_watch (b, FALSE);
      g_printerr ("syncline-bench views: %s\n", sl_session_get_error (b->session));
      g_application_release (G_APPLICATION (b->app));
      return;
    }
  if (state != SL_SESSION_STATE_READY)
    return;
  b->t_ready = g_get_monotonic_time ();
  read_cpu (b->cpu_ready);
  if (b->paint_count_id != 0)
    g_clear_signal_handler (&b->paint_count_id, gtk_widget_get_frame_clock (GTK_WIDGET (b->window)));
  if (b->inputs != NULL)
    g_printerr ("syncline-bench open: read after %.2f s\n", (b->t_ready - b->t_open) / 1e6);
  stall_watch (b, FALSE);
  b->phase = PHASE_SETTLING;
  g_timeout_add (100, settled_cb, b);
}

/* The clock of the open starts, with the stall ticks and empty samples. */
static void
begin_open (Bench *b)
{
  b->t_open = g_get_monotonic_time ();
  read_cpu (b->cpu_open);
  b->stall_last = b->t_open;
  stall_watch (b, TRUE);
  g_array_set_size (_sl_session_get_update_times (b->session), 0);
  g_array_set_size (_sl_session_get_update_cpu_times (b->session), 0);
  g_array_set_size (b->captures, 0);
  g_array_set_size (_sl_session_get_resort_times (b->session), 0);
}

static void
start (Bench *b)
{
  SlGenerateOptions o;
  g_autoptr(GArray) links = g_array_new (FALSE, FALSE, sizeof (SlGenerateLink));
  g_autoptr(GHashTable) pairs = g_hash_table_new (NULL, NULL);
  SlRng rng;

  sl_rng_init (&rng, 42, 0);
  sl_generate_options_init (&o);
  o.n_hosts = N_HOSTS;
  o.duration_ns = SIM_SECONDS * G_GINT64_CONSTANT (1000000000);
  o.background_rate = 0;
  o.noise_rate = 0;
  o.threads = 0;
  o.cpus = 1;
  o.connections = 1;
  o.seed = 7;

  /* a random spanning tree, then random extra pairs */
  while (links->len < N_LINKS)
    {
      guint n = links->len;
      guint a = n < N_HOSTS - 1 ? n + 1 : sl_rng_below (&rng, N_HOSTS);
      guint c = sl_rng_below (&rng, n < N_HOSTS - 1 ? n + 1 : N_HOSTS);
      SlGenerateLink l = { MIN (a, c), MAX (a, c), 6 };
      gpointer key = GSIZE_TO_POINTER ((gsize) l.a * N_HOSTS + l.b + 1);

      if (a == c || g_hash_table_contains (pairs, key))
        continue;
      g_hash_table_add (pairs, key);
      g_array_append_val (links, l);
    }

  begin_open (b);
  _sl_session_open_generated (b->session, &o, (const SlGenerateLink *) (gpointer) links->data, links->len,
                              (gint64) WALL_SECONDS * G_USEC_PER_SEC / SIM_SECONDS);
}

/* `open`: the first frame in which the content page shows the graph
 * with hosts in it */
static void
first_paint_cb (GdkFrameClock *clock,
                Bench         *b)
{
  GtkWidget *graph = GTK_WIDGET (sl_window_get_graph_view (b->window));
  guint n = g_list_model_get_n_items (sl_session_get_hosts (b->session));
  double x, y;

  if (n == 0 || !gtk_widget_get_mapped (graph) ||
      g_strcmp0 (sl_window_get_page (b->window), "content") != 0 ||
      !sl_graph_view_get_host_position (SL_GRAPH_VIEW (graph), 0, &x, &y))
    return;
  b->t_first_graph = g_get_monotonic_time ();
  b->first_graph_hosts = n;
  /* at once, for runs that take long */
  sl_profile_mark ("bench", "first graph painted");
  g_printerr ("syncline-bench open: first graph after %.2f s (%u hosts)\n",
              (b->t_first_graph - b->t_open) / 1e6, n);
  g_clear_signal_handler (&b->first_paint_id, clock);
}

static void
count_paint_cb (GdkFrameClock *clock,
                Bench         *b)
{
  b->paints_while_reading++;
}

static void
start_open (Bench *b)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (b->window));

  b->first_paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (first_paint_cb), b);
  b->paint_count_id = g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint_cb), b);
  begin_open (b);
  sl_profile_mark ("bench", "open");
  sl_session_open (b->session, (const char * const *) b->inputs);
}

static void
updated_cb (Bench *b)
{
  const SlSnapshot *snapshot = _sl_session_get_snapshot (b->session);

  if (snapshot != NULL)
    g_array_append_val (b->captures, snapshot->capture_cpu_us);
}

static void
mapped_cb (Bench *b)
{
  g_signal_handlers_disconnect_by_func (b->window, mapped_cb, b);
  if (b->inputs != NULL)
    start_open (b);
  else
    start (b);
}

/* @inputs: the folders of `open` (%NULL for `views`) */
void
sl_benchmark_run (GtkApplication     *application,
                  const char         *name,
                  const char         *screenshot,
                  const char * const *inputs)
{
  Bench *b;

  g_return_if_fail (g_strcmp0 (name, "views") == 0 || (g_strcmp0 (name, "open") == 0 && inputs != NULL));

  b = g_new0 (Bench, 1);
  b->inputs = g_strdupv ((char **) inputs);
  b->app = application;
  b->screenshot = g_strdup (screenshot);
  for (guint i = 0; i < G_N_ELEMENTS (b->frames); i++)
    {
      b->frames[i] = g_array_new (FALSE, FALSE, sizeof (gint64));
      b->frames_cpu[i] = g_array_new (FALSE, FALSE, sizeof (gint64));
      b->frames_process_cpu[i] = g_array_new (FALSE, FALSE, sizeof (gint64));
    }
  b->captures = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->window = sl_window_new (application);
  b->session = sl_window_get_session (b->window);
  g_signal_connect_swapped (b->session, "updated", G_CALLBACK (updated_cb), b);
  /* the views measure the input as it is, with the automatic reference */
  sl_session_set_pinned_reference (b->session, "");
  g_signal_connect_swapped (b->session, "notify::state", G_CALLBACK (state_cb), b);
  gtk_window_set_default_size (GTK_WINDOW (b->window), 1400, 900);
  g_signal_connect_swapped (b->window, "map", G_CALLBACK (mapped_cb), b);
  gtk_window_present (GTK_WINDOW (b->window));
}
