/* test-timeline-ui.c: the timeline view, driven through its actions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under xvfb-run and dbus-run-session (tests/ui/run-ui-test.sh), once
 * under GTK's default renderer (GL) and once under cairo; the pixels of the
 * rendered canvas are checked: a state's colour where the model says the thread is in it, a
 * message where the model has one, and that messages move when the clocks
 * change.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-benchmark-timeline.h"
#include "sl-compare.h"
#include "sl-format.h"
#include "sl-timeline-chain.h"
#include "sl-link-plot.h"
#include "sl-timeline-view-private.h"
#include "ui-test-util.h"

/* Settled for three drawings of the canvas in a row: the window's
 * revealers may still be resizing it. The canvas's last picture is then
 * the settled view (ui_wait_drawn()). (The deadline only keeps a broken
 * view from hanging the test: a loaded machine paints slowly.) */
static void
settle (SlTimelineView *view)
{
  GtkWidget *canvas = sl_timeline_view_get_canvas (view);
  gint64 end = g_get_monotonic_time () + UI_WAIT_S * G_USEC_PER_SEC;
  guint still = 0;

  while (still < 3)
    {
      if (g_get_monotonic_time () >= end)
        g_error ("the timeline view did not settle within %d s", UI_WAIT_S);
      ui_wait_drawn (canvas);
      still = ui_timeline_settled (view) ? still + 1 : 0;
    }
}

static void
show_timeline (SlWindow *window)
{
  SlTimelineView *view = sl_window_get_timeline_view (window);
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (view), ADW_TYPE_VIEW_STACK);

  g_assert_nonnull (stack);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (stack), "timeline");
  ui_wait_mapped (sl_timeline_view_get_canvas (view));
  settle (view);
}

static void
activate (SlTimelineView *view,
          const char     *action,
          GVariant       *param)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (view), action, param));
}

/* Every channel below 160, and drawn. */
static gboolean
is_dark (guint32       c,
         gconstpointer data)
{
  return ((c >> 16) & 0xff) < 160 && ((c >> 8) & 0xff) < 160 && (c & 0xff) < 160 && c != 0;
}

/* What the canvas shows, through its window's renderer. */
static void
render (SlTimelineView *view,
        const char     *name,
        UiPixels       *p)
{
  GtkWidget *canvas = sl_timeline_view_get_canvas (view);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (canvas);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  int w = gtk_widget_get_width (canvas), h = gtk_widget_get_height (canvas);
  const char *dir = g_getenv ("SL_SCREENSHOT_DIR");

  settle (view);
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (canvas)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  if (dir != NULL && name != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_assert_true (gdk_texture_save_to_png (texture, path));
    }
  p->width = w;
  p->height = h;
  p->stride = (gsize) w * 4;
  p->data = g_malloc (p->stride * h);
  gdk_texture_download (texture, p->data, p->stride);
}

static gboolean
events_loaded (gpointer data)
{
  return !sl_event_list_get_loading (data);
}

/* The events table's model against the model's own copy of the row's
 * events: a moved span keeps the events it shares with the old one. */
typedef struct
{
  guint max_removed;
  guint max_added_small;   /* most added at once while there were fewer than 256 */
  guint calls;
} Changes;

static void
changes_cb (GListModel *model,
            guint       position,
            guint       removed,
            guint       added,
            Changes    *c)
{
  guint before = g_list_model_get_n_items (model) + removed - added;

  c->max_removed = MAX (c->max_removed, removed);
  if (before < 256)
    c->max_added_small = MAX (c->max_added_small, added);
  c->calls++;
}

static void
expect_events (SlEventList *events,
               SlTimeline  *tl,
               guint        row,
               gint64       start,
               gint64       end)
{
  g_autoptr(GArray) want = sl_timeline_dup_row_events (tl, row, start, end, sl_event_list_get_max_events (events));

  g_assert_true (ui_wait_for (events_loaded, events, UI_WAIT_S));
  g_test_message ("events in [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "): %u, expected %u", start, end,
                  g_list_model_get_n_items (G_LIST_MODEL (events)), want->len);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (events)), ==, want->len);
  /* (events at the same time may come in either order) */
  for (guint i = 0; i < want->len; i++)
    {
      g_autoptr(SlEventItem) item = g_list_model_get_item (G_LIST_MODEL (events), i);

      g_assert_cmpint (sl_event_item_get_event (item)->time, ==, g_array_index (want, SlEvent, i).time);
    }
}

static void
check_event_list (SlEventList *events,
                  SlTimeline  *tl,
                  guint        row)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (events)), max = sl_event_list_get_max_events (events);
  g_autoptr(SlEventItem) first = g_list_model_get_item (G_LIST_MODEL (events), 0);
  g_autoptr(SlEventItem) last = g_list_model_get_item (G_LIST_MODEL (events), n - 1);
  gint64 t0 = sl_event_item_get_event (first)->time, t1 = sl_event_item_get_event (last)->time + 1, d = t1 - t0;
  Changes c = { 0 };
  gulong id = g_signal_connect (events, "items-changed", G_CALLBACK (changes_cb), &c);
  guint n_mid;

  g_assert_cmpuint (n, >, 300);
  /* from scratch: the first rows come a few at a time */
  sl_event_list_data_changed (events);
  sl_event_list_set_row (events, row, t0, t1);
  expect_events (events, tl, row, t0, t1);
  g_assert_cmpuint (c.max_removed, ==, n);
  g_assert_cmpuint (c.max_added_small, <=, 24);
  g_assert_cmpuint (c.max_added_small, >, 0);

  /* zoomed in: only the ends go */
  memset (&c, 0, sizeof c);
  sl_event_list_set_row (events, row, t0 + d / 4, t0 + 3 * d / 4);
  expect_events (events, tl, row, t0 + d / 4, t0 + 3 * d / 4);
  n_mid = g_list_model_get_n_items (G_LIST_MODEL (events));
  g_assert_cmpuint (c.max_removed, >, 0);
  g_assert_cmpuint (c.max_removed, <, n);
  g_assert_cmpuint (c.calls, <=, 2);

  /* zoomed out again, less: only additions, at both ends */
  memset (&c, 0, sizeof c);
  sl_event_list_set_row (events, row, t0 + d / 8, t0 + 7 * d / 8);
  expect_events (events, tl, row, t0 + d / 8, t0 + 7 * d / 8);
  g_assert_cmpuint (c.max_removed, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (events)), >, n_mid);

  /* more than fit: the span's first events, the later ones dropped */
  sl_event_list_set_max_events (events, n_mid);
  sl_event_list_set_row (events, row, t0, t1);
  expect_events (events, tl, row, t0, t1);
  g_assert_true (sl_event_list_get_truncated (events));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (events)), ==, n_mid);

  /* a truncated list is loaded again whole */
  sl_event_list_set_max_events (events, max);
  memset (&c, 0, sizeof c);
  sl_event_list_set_row (events, row, t0, t1);
  expect_events (events, tl, row, t0, t1);
  g_assert_false (sl_event_list_get_truncated (events));
  g_assert_cmpuint (c.max_removed, ==, n_mid);

  /* so is one whose data changed */
  memset (&c, 0, sizeof c);
  sl_event_list_data_changed (events);
  sl_event_list_set_row (events, row, t0 + d / 4, t0 + 3 * d / 4);
  expect_events (events, tl, row, t0 + d / 4, t0 + 3 * d / 4);
  g_assert_cmpuint (c.max_removed, ==, n);
  g_signal_handler_disconnect (events, id);
}

/* django-vote: python on the client, apache2 on httpd, postgres on db */

typedef struct
{
  guint  row;
  guint  state_row;
  guint  host;
} Thread;

static void
check_span_actions (SlTimelineView *view)
{
  gint64 s0, e0, s1, e1, s2, e2;

  sl_timeline_view_get_span (view, &s0, &e0);
  activate (view, "timeline.zoom-in", NULL);
  activate (view, "timeline.zoom-in", NULL);
  sl_timeline_view_get_span (view, &s1, &e1);
  g_assert_cmpfloat (fabs ((double) (e1 - s1) * 2.25 / (double) (e0 - s0) - 1), <, 0.01);
  activate (view, "timeline.pan-right", NULL);
  sl_timeline_view_get_span (view, &s2, &e2);
  g_assert_cmpfloat (fabs ((double) (s2 - s1) / (double) (e1 - s1) - 0.1), <, 0.01);
  g_assert_cmpint (e2 - s2, ==, e1 - s1);
  activate (view, "timeline.pan-left", NULL);
  sl_timeline_view_get_span (view, &s2, &e2);
  g_assert_cmpint (s2, ==, s1);
  activate (view, "timeline.zoom-out", NULL);
  activate (view, "timeline.zoom-out", NULL);
  sl_timeline_view_get_span (view, &s2, &e2);
  g_assert_cmpfloat (fabs ((double) (e2 - s2) / (double) (e0 - s0) - 1), <, 0.01);
  activate (view, "timeline.fit", NULL);
  sl_timeline_view_get_span (view, &s2, &e2);
  g_assert_cmpint (s2, ==, s0);
  g_assert_cmpint (e2, ==, e0);
}

static void
check_state_colour (SlWindow       *window,
                    SlTimelineView *view,
                    const Thread   *th)
{
  SlTimeline *tl = sl_timeline_view_get_timeline (view);
  SlTimelineInterval best = { 0 }, iv;
  gint64 d, vs, ve;
  double x, y;
  UiPixels p = { 0 };
  guint n;

  /* the longest stretch in a colour unlike the background */
  for (guint64 i = 0; i < sl_timeline_get_n_intervals (tl, th->state_row); i++)
    {
      sl_timeline_get_interval (tl, th->state_row, i, &iv);
      if ((iv.state == SL_TIMELINE_STATE_USER || iv.state == SL_TIMELINE_STATE_SYSCALL ||
           iv.state == SL_TIMELINE_STATE_RUNNABLE) && iv.end - iv.start > best.end - best.start)
        best = iv;
    }
  g_assert_cmpint (best.end, >, best.start);
  vs = sl_timeline_to_view (tl, th->host, best.start);
  ve = sl_timeline_to_view (tl, th->host, best.end);
  d = ve - vs;
  activate (view, "timeline.set-span", g_variant_new ("(xx)", vs - d, ve + d));
  render (view, "timeline-state.png", &p);
  x = sl_timeline_view_host_time_to_x (view, th->host, best.start + (best.end - best.start) / 2);
  y = ui_row_y (view, th->row);
  n = ui_count_near (&p, x, y - 3, 2, sl_timeline_view_state_rgb (best.state), 6);
  g_test_message ("state %s at (%.0f, %.0f): %u pixels", sl_timeline_state_to_string (best.state), x, y, n);
  g_assert_cmpuint (n, >=, 10);
  /* along the row, each pixel has the colour of the model's state there */
  {
    guint checked = 0;

    for (double cx = x - 600; cx < x + 600; cx += 23)
      {
        gint64 local = sl_timeline_from_view (tl, th->host, sl_timeline_view_x_to_time (view, cx));
        guint64 k = sl_timeline_find_interval (tl, th->state_row, local);
        guint32 rgb;

        if (cx < 0 || cx >= p.width || k == G_MAXUINT64)
          continue;
        sl_timeline_get_interval (tl, th->state_row, k, &iv);
        /* far enough from its ends to be a whole pixel */
        if (sl_timeline_view_host_time_to_x (view, th->host, iv.start) > cx - 4 ||
            sl_timeline_view_host_time_to_x (view, th->host, iv.end) < cx + 4 ||
            iv.state == SL_TIMELINE_STATE_NONE || iv.state == SL_TIMELINE_STATE_EXITED)
          continue;
        /* (a message's 1-pixel line may cross the row) */
        rgb = sl_timeline_view_state_rgb (iv.state);
        g_assert_cmpuint (ui_count_near (&p, cx, y - 3, 2, rgb, 6), >=, 15);
        if (iv.state != best.state)
          g_assert_cmpuint (ui_count_near (&p, cx, y - 3, 2, sl_timeline_view_state_rgb (best.state), 6), <=, 5);
        checked++;
      }
    g_assert_cmpuint (checked, >=, 5);
  }
  ui_pixels_clear (&p);
}

/* A message that a thread named @name of @host sent. */
static SlTimelineArrow
find_message (SlTimelineView *view,
              guint           host,
              const char     *name)
{
  SlTimeline *tl = sl_timeline_view_get_timeline (view);
  g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  gint64 lo, hi;

  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  g_assert_cmpuint (sl_timeline_query_arrows (tl, lo - 1000000000, hi + 1000000000, 0, host, SL_TIMELINE_NONE,
                                              SL_TIMELINE_NONE, arrows), >, 20);
  for (guint i = 0; i < arrows->len; i++)
    {
      const SlTimelineArrow *a = &g_array_index (arrows, SlTimelineArrow, i);
      SlTimelineRowInfo ri, rr;

      sl_timeline_get_row_info (tl, a->send_row, &ri);
      sl_timeline_get_row_info (tl, a->recv_row, &rr);
      /* received by a thread, not on an idle CPU */
      if (a->send_host == host && g_strcmp0 (ri.name, name) == 0 && rr.kind == SL_TIMELINE_ROW_THREAD)
        return *a;
    }
  g_assert_not_reached ();
  return g_array_index (arrows, SlTimelineArrow, 0);
}

static void
arrow_points (SlTimelineView        *view,
              const SlTimelineArrow *a,
              double                *xs,
              double                *ys,
              double                *xr,
              double                *yr)
{
  *xs = sl_timeline_view_host_time_to_x (view, a->send_host, a->send_time);
  *xr = sl_timeline_view_host_time_to_x (view, a->recv_host, a->recv_time);
  *ys = ui_row_y (view, a->send_row);
  *yr = ui_row_y (view, a->recv_row);
}

/* The point @dist px from (x0, y0) towards (x1, y1). */
static void
along (double  x0,
       double  y0,
       double  x1,
       double  y1,
       double  dist,
       double *x,
       double *y)
{
  double len = hypot (x1 - x0, y1 - y0);

  *x = x0 + (x1 - x0) * dist / len;
  *y = y0 + (y1 - y0) * dist / len;
}

static gboolean
on_rows (SlTimelineView *view,
         double          y)
{
  int h = gtk_widget_get_height (sl_timeline_view_get_canvas (view));

  return y > SL_TLV_RULER_H && y < h - SL_TLV_LEGEND_H;
}

static void
test_django (void)
{
  g_autofree char *path = ui_shared_path ("traces/django-vote");
  const char *paths[] = { path, NULL };
  SlWindow *window;
  SlSession *session;
  SlTimelineView *view;
  SlTimeline *tl;
  SlTimelineRowInfo ri;
  Thread th;
  SlTimelineArrow a;
  GListModel *events;
  UiPixels p = { 0 };
  gint64 w, lo, hi;
  double xs, ys, xr, yr, mx, my, xr_sync, ux;
  SlLinkItem *link;

  if (path == NULL)
    {
      g_test_skip ("../shared/data/traces/django-vote is not there");
      return;
    }
  window = ui_new_window (NULL, 1500, 1000);
  session = sl_window_get_session (window);
  view = sl_window_get_timeline_view (window);
  sl_window_open_paths (window, paths);
  g_assert_true (ui_wait_for (ui_session_settled, session, UI_WAIT_S));
  g_assert_cmpint (sl_session_get_state (session), ==, SL_SESSION_STATE_READY);
  tl = sl_timeline_view_get_timeline (view);
  g_assert_nonnull (tl);
  g_assert_true (tl == sl_session_get_timeline (session));
  g_assert_cmpuint (sl_timeline_get_n_hosts (tl), ==, 3);
  g_assert_cmpuint (sl_timeline_get_n_arrows (tl), ==, 438);
  show_timeline (window);
  /* the pixel checks below were laid out on the rows in the order the
   * trace gives them (test_rows checks the default order) */
  g_object_set (view, "sort-rows", FALSE, NULL);

  check_span_actions (view);

  /* select python: its events fill the table */
  activate (view, "timeline.select-thread", g_variant_new_string ("python"));
  th.row = sl_timeline_view_get_selected_row (view);
  g_assert_cmpuint (th.row, !=, SL_TIMELINE_NONE);
  sl_timeline_get_row_info (tl, th.row, &ri);
  g_assert_cmpstr (ri.name, ==, "python");
  th.host = ri.host;
  th.state_row = ri.kind == SL_TIMELINE_ROW_PROCESS && ri.thread_row != SL_TIMELINE_NONE ? ri.thread_row : th.row;
  sl_timeline_get_row_info (tl, sl_timeline_get_host_row (tl, th.host), &ri);
  g_assert_cmpstr (ri.name, ==, "django-client");
  events = sl_timeline_view_get_events (view);
  g_assert_true (ui_wait_for (events_loaded, events, UI_WAIT_S));
  g_assert_cmpuint (g_list_model_get_n_items (events), >, 10);
  {
    g_autoptr(SlEventItem) first = g_list_model_get_item (events, 0);
    g_autoptr(SlEventItem) last = g_list_model_get_item (events, g_list_model_get_n_items (events) - 1);

    g_assert_cmpstr (sl_event_item_get_text (first, "host"), ==, "django-client");
    g_assert_cmpstr (sl_event_item_get_text (first, "event"), !=, "");
    g_assert_cmpint (sl_event_item_get_view_time (first), <=, sl_event_item_get_view_time (last));
    g_autofree char *ns = g_strdup_printf ("%03d", (int) (sl_event_item_get_event (first)->time % 1000));

    g_assert_true (g_str_has_suffix (sl_event_item_get_text (first, "local-time"), ns));
  }
  check_event_list (SL_EVENT_LIST (events), tl, th.row);

  check_state_colour (window, view, &th);

  /* a message python sent, seen from its receiving end (selecting the
   * receiving thread scrolls to it): highlighted, with its clock bound */
  a = find_message (view, th.host, "python");
  g_assert_cmpuint (a.recv_host, !=, th.host);
  g_assert_cmpfloat (a.uncertainty_ns, >, 0);
  w = MAX (ABS (a.recv_view - a.send_view), 20000) * 2;
  activate (view, "timeline.set-span", g_variant_new ("(xx)", MIN (a.send_view, a.recv_view) - w,
                                                       MAX (a.send_view, a.recv_view) + w));
  activate (view, "timeline.select-row", g_variant_new_uint32 (a.recv_row));
  g_assert_cmpuint (sl_timeline_view_get_selected_row (view), ==, a.recv_row);
  render (view, "timeline-message.png", &p);
  arrow_points (view, &a, &xs, &ys, &xr, &yr);
  g_test_message ("message (%.0f, %.0f) → (%.0f, %.0f), uncertainty %.0f ns", xs, ys, xr, yr, a.uncertainty_ns);
  along (xr, yr, xs, ys, 25, &mx, &my);
  g_assert_true (on_rows (view, my));
  g_assert_cmpuint (ui_count_near (&p, mx, my, 2, SL_TIMELINE_RGB_ARROW_HIGHLIGHT, 60), >=, 3);
  /* the whisker: where the receive may be, ±uncertainty */
  ux = MIN (a.uncertainty_ns * (sl_timeline_view_time_to_x (view, 1000000) - sl_timeline_view_time_to_x (view, 0)) / 1e6
            / 2, 40);
  g_assert_cmpfloat (ux, >, 4);
  g_assert_cmpuint (ui_count_near (&p, xr + ux, yr, 1, SL_TIMELINE_RGB_UNCERTAIN, 60), >=, 2);
  g_assert_cmpuint (ui_count_near (&p, xr - ux, yr, 1, SL_TIMELINE_RGB_UNCERTAIN, 60), >=, 2);
  ui_pixels_clear (&p);

  /* not selected: an ordinary message, with its whisker */
  activate (view, "timeline.select-row", g_variant_new_uint32 (G_MAXUINT));
  g_assert_cmpuint (sl_timeline_view_get_selected_row (view), ==, SL_TIMELINE_NONE);
  render (view, "timeline-message-plain.png", &p);
  g_assert_cmpuint (ui_count_near (&p, mx, my, 2, SL_TIMELINE_RGB_ARROW_HIGHLIGHT, 60), ==, 0);
  g_assert_cmpuint (ui_count_where (&p, mx, my, 2, is_dark, NULL), >=, 2);
  g_assert_cmpuint (ui_count_near (&p, xr + ux, yr, 1, SL_TIMELINE_RGB_UNCERTAIN, 60), >=, 2);
  ui_pixels_clear (&p);

  /* filtered out: the other host pair only */
  sl_timeline_view_set_arrow_filter (view, a.recv_host, 3 - a.recv_host - th.host, SL_TIMELINE_NONE);
  render (view, "timeline-message-filtered.png", &p);
  g_assert_cmpuint (ui_count_where (&p, mx, my, 2, is_dark, NULL), ==, 0);
  ui_pixels_clear (&p);
  sl_timeline_view_set_arrow_filter (view, SL_TIMELINE_NONE, SL_TIMELINE_NONE, SL_TIMELINE_NONE);

  /* the link selected elsewhere highlights its messages here */
  link = sl_session_find_link_between (session, a.send_host, a.recv_host);
  g_assert_nonnull (link);
  sl_session_set_selected_link (session, link);
  render (view, "timeline-link.png", &p);
  g_assert_cmpuint (ui_count_near (&p, mx, my, 2, SL_TIMELINE_RGB_ARROW_HIGHLIGHT, 60), >=, 3);
  ui_pixels_clear (&p);
  sl_session_set_selected_link (session, NULL);

  /* raw clocks: the selected thread's host (the client) stays, the
   * receiving end moves */
  th.row = a.send_row;
  activate (view, "timeline.select-row", g_variant_new_uint32 (th.row));
  render (view, "timeline-sending.png", &p);
  arrow_points (view, &a, &xs, &ys, &xr, &yr);
  along (xs, ys, xr, yr, 25, &mx, &my);
  g_assert_true (on_rows (view, my));
  g_assert_cmpuint (ui_count_near (&p, mx, my, 2, SL_TIMELINE_RGB_ARROW_HIGHLIGHT, 60), >=, 3);
  ui_pixels_clear (&p);
  xr_sync = xr;
  activate (view, "timeline.toggle-sync", NULL);
  g_assert_false (sl_timeline_view_get_synchronized (view));
  g_assert_false (sl_session_get_synchronized (session));
  render (view, "timeline-raw.png", &p);
  g_assert_cmpfloat (fabs (sl_timeline_view_host_time_to_x (view, a.send_host, a.send_time) - xs), <, 1);
  g_test_message ("receive end: %.0f synchronized, %.0f raw", xr_sync,
                  sl_timeline_view_host_time_to_x (view, a.recv_host, a.recv_time));
  g_assert_cmpfloat (fabs (sl_timeline_view_host_time_to_x (view, a.recv_host, a.recv_time) - xr_sync), >, 100);
  g_assert_cmpuint (ui_count_near (&p, mx, my, 2, SL_TIMELINE_RGB_ARROW_HIGHLIGHT, 60), ==, 0);
  {
    double rx = sl_timeline_view_host_time_to_x (view, a.recv_host, a.recv_time), nx, ny;

    /* now it leaves the send end in another direction */
    along (xs, ys, rx, yr, 25, &nx, &ny);
    g_assert_cmpuint (ui_count_near (&p, nx, ny, 2, SL_TIMELINE_RGB_ARROW_HIGHLIGHT, 60), >=, 2);
  }
  ui_pixels_clear (&p);
  activate (view, "timeline.toggle-sync", NULL);
  g_assert_true (sl_session_get_synchronized (session));
  render (view, "timeline-synchronized.png", &p);
  g_assert_cmpfloat (fabs (sl_timeline_view_host_time_to_x (view, a.recv_host, a.recv_time) - xr_sync), <, 1);
  g_assert_cmpuint (ui_count_near (&p, mx, my, 2, SL_TIMELINE_RGB_ARROW_HIGHLIGHT, 60), >=, 3);
  ui_pixels_clear (&p);

  /* a time range selected here is the session's */
  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  activate (view, "timeline.select-span", g_variant_new ("(xx)", lo + (hi - lo) / 4, lo + (hi - lo) / 2));
  {
    const SlTimeSpan *sel = sl_session_get_selected_span (session);

    g_assert_cmpint (sel->begin, ==, lo + (hi - lo) / 4);
    g_assert_cmpint (sel->end, ==, lo + (hi - lo) / 2);
  }
  activate (view, "timeline.zoom-selection", NULL);
  {
    gint64 s, e;

    sl_timeline_view_get_span (view, &s, &e);
    g_assert_cmpint (ABS (s - (lo + (hi - lo) / 4)), <, (hi - lo) / 1000);
  }

  /* ... and restricts the selected link's hull plot to it */
  {
    GtkWidget *hull = sl_quality_panel_get_hull_plot (sl_window_get_quality_panel (window));
    double x0, x1;

    sl_session_set_selected_link (session, link);
    g_assert_nonnull (sl_session_get_plot (session));
    sl_link_plot_get_range (SL_LINK_PLOT (hull), &x0, &x1);
    g_assert_true (isfinite (x0) && isfinite (x1));
    g_assert_cmpfloat (fabs ((x1 - x0) * 1e9 / (double) ((hi - lo) / 4) - 1), <, 0.01);
    activate (view, "timeline.clear-selection", NULL);
    sl_link_plot_get_range (SL_LINK_PLOT (hull), &x0, &x1);
    g_assert_true (isnan (x0) && isnan (x1));
    sl_session_set_selected_link (session, NULL);
  }

  ui_save_screenshot (window, "timeline-django.png");
  ui_close_window (window);
}

/* Highlighted messages and clock-bound whiskers must not read as a state:
 * their colours are far (CIE76 ΔE) from every state colour, and from each
 * other. */
static void
to_lab (guint32  rgb,
        double  *lab)
{
  double c[3], xyz[3];

  for (int i = 0; i < 3; i++)
    {
      double v = ((rgb >> (16 - 8 * i)) & 0xff) / 255.0;

      c[i] = v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
    }
  xyz[0] = (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047;
  xyz[1] = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  xyz[2] = (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883;
  for (int i = 0; i < 3; i++)
    xyz[i] = xyz[i] > 0.008856 ? cbrt (xyz[i]) : 7.787 * xyz[i] + 16.0 / 116;
  lab[0] = 116 * xyz[1] - 16;
  lab[1] = 500 * (xyz[0] - xyz[1]);
  lab[2] = 200 * (xyz[1] - xyz[2]);
}

static double
delta_e (guint32 a,
         guint32 b)
{
  double la[3], lb[3];

  to_lab (a, la);
  to_lab (b, lb);
  return sqrt ((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1]) +
               (la[2] - lb[2]) * (la[2] - lb[2]));
}

static void
test_colours (void)
{
  const guint32 marks[] = { SL_TIMELINE_RGB_ARROW_HIGHLIGHT, SL_TIMELINE_RGB_UNCERTAIN, SL_TIMELINE_RGB_BOOKMARK,
                            SL_TIMELINE_RGB_REQUEST };

  for (guint m = 0; m < G_N_ELEMENTS (marks); m++)
    {
      for (guint st = SL_TIMELINE_STATE_UNKNOWN; st < SL_TIMELINE_N_STATES; st++)
        {
          double d = delta_e (marks[m], sl_timeline_view_state_rgb (st));

          g_test_message ("%06x vs %s (%06x): ΔE %.1f", marks[m], sl_timeline_state_to_string (st),
                          sl_timeline_view_state_rgb (st), d);
          g_assert_cmpfloat (d, >=, 35);
        }
      g_assert_cmpfloat (delta_e (marks[m], SL_TIMELINE_RGB_ARROW), >=, 35);
      g_assert_cmpfloat (delta_e (marks[m], SL_TIMELINE_RGB_SELECTION), >=, 35);
    }
  for (guint m = 0; m < G_N_ELEMENTS (marks); m++)
    for (guint n = m + 1; n < G_N_ELEMENTS (marks); n++)
      g_assert_cmpfloat (delta_e (marks[m], marks[n]), >=, 35);
}

/* The django-vote traces in a window, the timeline shown; NULL when the
 * data is absent */
static SlWindow *
open_django_sized (SlTimelineView **view,
                   int              width,
                   int              height)
{
  g_autofree char *path = ui_shared_path ("traces/django-vote");
  const char *paths[] = { path, NULL };
  SlWindow *window;

  if (path == NULL)
    {
      g_test_skip ("../shared/data/traces/django-vote is not there");
      return NULL;
    }
  window = ui_new_window (NULL, width, height);
  *view = sl_window_get_timeline_view (window);
  sl_window_open_paths (window, paths);
  g_assert_true (ui_wait_for (ui_session_settled, sl_window_get_session (window), UI_WAIT_S));
  g_assert_nonnull (sl_timeline_view_get_timeline (*view));
  show_timeline (window);
  return window;
}

static SlWindow *
open_django (SlTimelineView **view)
{
  return open_django_sized (view, 1500, 1000);
}

static guint
activity_group (const SlTimelineRowActivity *a)
{
  return a->n_messages > 0 ? 0 : a->run_ns > 0 ? 1 : 2;
}

/* Brute force: the time @row's thread (or a process's threads) spent on a
 * CPU and its messages, from the intervals and the arrows. */
static void
brute_activity (SlTimeline            *tl,
                guint                  row,
                const GArray          *arrows,
                SlTimelineRowActivity *out)
{
  SlTimelineRowInfo ri;
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint));

  memset (out, 0, sizeof *out);
  sl_timeline_get_row_info (tl, row, &ri);
  if (ri.kind == SL_TIMELINE_ROW_PROCESS)
    {
      g_autoptr(GArray) c = sl_timeline_dup_children (tl, row);

      g_array_append_vals (threads, c->data, c->len);
    }
  else
    g_array_append_val (threads, row);
  for (guint i = 0; i < threads->len; i++)
    {
      guint t = g_array_index (threads, guint, i);

      for (guint64 k = 0; k < sl_timeline_get_n_intervals (tl, t); k++)
        {
          SlTimelineInterval iv;

          sl_timeline_get_interval (tl, t, k, &iv);
          if (iv.state == SL_TIMELINE_STATE_USER || iv.state == SL_TIMELINE_STATE_SYSCALL ||
              iv.state == SL_TIMELINE_STATE_IRQ || iv.state == SL_TIMELINE_STATE_SOFTIRQ)
            out->run_ns += iv.end - iv.start;
        }
      for (guint k = 0; k < arrows->len; k++)
        {
          const SlTimelineArrow *a = &g_array_index (arrows, SlTimelineArrow, k);

          out->n_messages += (a->send_row == t) + (a->recv_row == t);
        }
    }
}

/* The host's threads and processes that have lines, in order, and those
 * that do not */
static void
host_lines (SlTimelineView *view,
            guint           host,
            GArray         *shown,
            GArray         *hidden)
{
  SlTimeline *tl = sl_timeline_view_get_timeline (view);
  g_autoptr(GArray) lines = sl_timeline_view_dup_shown_rows (view);
  g_autoptr(GHashTable) on = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < lines->len; i++)
    {
      guint r = g_array_index (lines, guint, i);
      SlTimelineRowInfo ri;

      sl_timeline_get_row_info (tl, r, &ri);
      g_hash_table_add (on, GUINT_TO_POINTER (r));
      if (ri.host == host && (ri.kind == SL_TIMELINE_ROW_THREAD || ri.kind == SL_TIMELINE_ROW_PROCESS))
        g_array_append_val (shown, r);
    }
  for (guint r = 0; hidden != NULL && r < sl_timeline_get_n_rows (tl); r++)
    {
      SlTimelineRowInfo ri, pi;

      sl_timeline_get_row_info (tl, r, &ri);
      if (ri.host != host || (ri.kind != SL_TIMELINE_ROW_THREAD && ri.kind != SL_TIMELINE_ROW_PROCESS) ||
          g_hash_table_contains (on, GUINT_TO_POINTER (r)))
        continue;
      /* a main thread is drawn on its process's line */
      if (ri.kind == SL_TIMELINE_ROW_THREAD && ri.parent != SL_TIMELINE_NONE)
        {
          sl_timeline_get_row_info (tl, ri.parent, &pi);
          if (pi.kind == SL_TIMELINE_ROW_PROCESS && pi.thread_row == r)
            continue;
        }
      g_array_append_val (hidden, r);
    }
}

static gboolean
thread_wanted (SlTimeline   *tl,
               guint         row,
               const GArray *arrows,
               guint         flags)
{
  SlTimelineRowActivity a;
  SlTimelineRowInfo ri;

  brute_activity (tl, row, arrows, &a);
  sl_timeline_get_row_info (tl, row, &ri);
  /* a kernel thread: the state dump says so, or kthreadd is its parent */
  {
    g_autoptr(GArray) ev = sl_timeline_dup_row_events (tl, row, G_MININT64 / 2, G_MAXINT64 / 2, 0);
    SlTimelineRowActivity model;

    a.kernel = ri.tid == 2 || ri.pid == 2 || ri.ppid == 2;
    for (guint i = 0; i < ev->len; i++)
      {
        const SlEvent *e = &g_array_index (ev, SlEvent, i);

        if (e->kind == SL_EVENT_PROCESS_NAME && e->tid == ri.tid && (e->flags & SL_EVENT_NAME_KERNEL_THREAD))
          a.kernel = TRUE;
      }
    sl_timeline_get_row_activity (tl, row, &model);
    g_assert_cmpint (model.run_ns, ==, a.run_ns);
    g_assert_cmpuint (model.n_messages, ==, a.n_messages);
    g_assert_cmpint (model.kernel, ==, a.kernel);
  }
  if ((flags & SL_TIMELINE_FILTER_HIDE_KERNEL) && a.kernel)
    return FALSE;
  if ((flags & SL_TIMELINE_FILTER_ONLY_MESSAGES) && a.n_messages == 0)
    return FALSE;
  if ((flags & SL_TIMELINE_FILTER_HIDE_IDLE) && a.n_messages == 0 && a.run_ns == 0)
    return FALSE;
  return TRUE;
}

/* Every thread or process of @host has a line when the filter keeps it
 * (recomputed here from the intervals and arrows), none other; a process
 * is kept for any of its threads. */
static void
check_filter (SlTimelineView *view,
              guint           host,
              const GArray   *arrows,
              guint           flags)
{
  SlTimeline *tl = sl_timeline_view_get_timeline (view);
  g_autoptr(GArray) shown = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) hidden = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n_kept = 0;

  sl_timeline_view_set_row_filter (view, flags);
  host_lines (view, host, shown, hidden);
  for (guint pass = 0; pass < 2; pass++)
    {
      GArray *rows = pass == 0 ? shown : hidden;

      for (guint i = 0; i < rows->len; i++)
        {
          guint r = g_array_index (rows, guint, i);
          SlTimelineRowInfo ri;
          gboolean want = FALSE;

          sl_timeline_get_row_info (tl, r, &ri);
          if (ri.kind == SL_TIMELINE_ROW_THREAD)
            want = thread_wanted (tl, r, arrows, flags);
          else
            {
              g_autoptr(GArray) c = sl_timeline_dup_children (tl, r);
              SlTimelineRowActivity pa;

              sl_timeline_get_row_activity (tl, r, &pa);
              for (guint k = 0; k < c->len && !want; k++)
                want = thread_wanted (tl, g_array_index (c, guint, k), arrows, flags);
              if ((flags & SL_TIMELINE_FILTER_HIDE_KERNEL) && pa.kernel)
                want = FALSE;
            }
          if (want != (pass == 0))
            g_error ("%s row %u (%s %u): %s", pass == 0 ? "shown" : "hidden", r, ri.name, ri.tid,
                     want ? "wanted" : "not wanted");
          n_kept += want;
        }
    }
  g_test_message ("filter %u: %u of %u rows of host %u", flags, shown->len, shown->len + hidden->len, host);
  g_assert_cmpuint (shown->len, >, 0);
  if (flags != 0)
    g_assert_cmpuint (hidden->len, >, 0);
}

static void
test_rows (void)
{
  SlTimelineView *view = NULL;
  SlWindow *window = open_django (&view);
  SlTimeline *tl;
  g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  gint64 lo, hi;
  guint httpd = SL_TIMELINE_NONE, db = SL_TIMELINE_NONE;

  if (window == NULL)
    return;
  tl = sl_timeline_view_get_timeline (view);
  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  sl_timeline_query_arrows (tl, lo - 1000000000, hi + 1000000000, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                            SL_TIMELINE_NONE, arrows);
  for (guint h = 0; h < sl_timeline_get_n_hosts (tl); h++)
    {
      SlTimelineRowInfo hi_;

      sl_timeline_get_row_info (tl, sl_timeline_get_host_row (tl, h), &hi_);
      if (g_str_has_prefix (hi_.name, "django-httpd"))
        httpd = h;
      else if (g_str_has_prefix (hi_.name, "django-db"))
        db = h;
    }
  g_assert_cmpuint (httpd, !=, SL_TIMELINE_NONE);
  g_assert_cmpuint (db, !=, SL_TIMELINE_NONE);

  /* by default, under each host: what exchanged messages, then what ran,
   * then the rest; apache and postgres on top */
  for (guint h = 0; h < sl_timeline_get_n_hosts (tl); h++)
    {
      g_autoptr(GArray) shown = g_array_new (FALSE, FALSE, sizeof (guint));
      guint prev_group = 0, prev_parent = SL_TIMELINE_NONE;
      SlTimelineRowInfo first;

      host_lines (view, h, shown, NULL);
      g_assert_cmpuint (shown->len, >, 10);
      for (guint i = 0; i < shown->len; i++)
        {
          SlTimelineRowActivity a;
          SlTimelineRowInfo ri;
          guint g;

          sl_timeline_get_row_info (tl, g_array_index (shown, guint, i), &ri);
          if (ri.kind == SL_TIMELINE_ROW_THREAD && ri.parent != sl_timeline_get_host_row (tl, h))
            continue;
          brute_activity (tl, g_array_index (shown, guint, i), arrows, &a);
          g = activity_group (&a);
          g_assert_cmpuint (g, >=, prev_group);
          prev_group = g;
          prev_parent = ri.parent;
        }
      (void) prev_parent;
      sl_timeline_get_row_info (tl, g_array_index (shown, guint, 0), &first);
      g_test_message ("host %u: first line %s (%u)", h, first.name, first.tid);
      {
        SlTimelineRowActivity a;

        brute_activity (tl, g_array_index (shown, guint, 0), arrows, &a);
        g_assert_cmpuint (a.n_messages, >, 0);
        if (h == httpd)
          g_assert_cmpstr (first.name, ==, "apache2");
        if (h == db)
          g_assert_cmpstr (first.name, ==, "postgres");
      }
    }

  /* the filters, each against a brute-force count */
  check_filter (view, httpd, arrows, SL_TIMELINE_FILTER_HIDE_KERNEL);
  check_filter (view, httpd, arrows, SL_TIMELINE_FILTER_HIDE_IDLE);
  check_filter (view, db, arrows, SL_TIMELINE_FILTER_ONLY_MESSAGES);
  check_filter (view, db, arrows, SL_TIMELINE_FILTER_HIDE_IDLE | SL_TIMELINE_FILTER_HIDE_KERNEL);
  activate (view, "timeline.hide-kernel", NULL);
  g_assert_cmpuint (sl_timeline_view_get_row_filter (view), ==, SL_TIMELINE_FILTER_HIDE_IDLE);
  activate (view, "timeline.hide-idle", NULL);
  g_assert_cmpuint (sl_timeline_view_get_row_filter (view), ==, 0);

  /* one process tree: apache and its children only */
  {
    g_autoptr(GArray) shown = g_array_new (FALSE, FALSE, sizeof (guint));
    g_autoptr(GArray) hidden = g_array_new (FALSE, FALSE, sizeof (guint));
    g_autoptr(GHashTable) tree = g_hash_table_new (NULL, NULL);
    SlTimelineRowInfo root;
    gboolean grew = TRUE;
    guint n_children = 0;

    activate (view, "timeline.select-thread", g_variant_new_string ("apache2"));
    sl_timeline_get_row_info (tl, sl_timeline_view_get_selected_row (view), &root);
    g_assert_cmpuint (root.host, ==, httpd);
    activate (view, "timeline.process-tree", NULL);
    /* the tree by brute force: processes whose parent is in it */
    g_hash_table_add (tree, GUINT_TO_POINTER (root.pid));
    while (grew)
      {
        grew = FALSE;
        for (guint r = 0; r < sl_timeline_get_n_rows (tl); r++)
          {
            SlTimelineRowInfo ri;

            sl_timeline_get_row_info (tl, r, &ri);
            if (ri.host == httpd && ri.kind == SL_TIMELINE_ROW_PROCESS &&
                g_hash_table_contains (tree, GUINT_TO_POINTER (ri.ppid)) &&
                !g_hash_table_contains (tree, GUINT_TO_POINTER (ri.pid)))
              {
                g_hash_table_add (tree, GUINT_TO_POINTER (ri.pid));
                grew = TRUE;
              }
          }
      }
    host_lines (view, httpd, shown, hidden);
    for (guint i = 0; i < shown->len; i++)
      {
        SlTimelineRowInfo ri;

        sl_timeline_get_row_info (tl, g_array_index (shown, guint, i), &ri);
        g_assert_true (g_hash_table_contains (tree, GUINT_TO_POINTER (ri.pid)));
        n_children += ri.pid != root.pid;
      }
    for (guint i = 0; i < hidden->len; i++)
      {
        SlTimelineRowInfo ri;

        sl_timeline_get_row_info (tl, g_array_index (hidden, guint, i), &ri);
        g_assert_false (g_hash_table_contains (tree, GUINT_TO_POINTER (ri.pid)));
      }
    g_test_message ("apache2's tree: %u processes, %u lines", g_hash_table_size (tree), shown->len);
    g_assert_cmpuint (n_children, >, 0);
    /* other hosts keep only their header */
    {
      g_autoptr(GArray) other = g_array_new (FALSE, FALSE, sizeof (guint));

      host_lines (view, db, other, NULL);
      g_assert_cmpuint (other->len, ==, 0);
    }
    activate (view, "timeline.process-tree", NULL);
  }

  /* a pinned row stays on top while the others scroll under it */
  {
    guint pg = SL_TIMELINE_NONE, v0, vt;
    double y0, y1, yo0, yo1, step, before;
    GtkAdjustment *vadj = view->vadj;
    g_autoptr(GArray) shown = g_array_new (FALSE, FALSE, sizeof (guint));
    GtkEventController *wheel = NULL;
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (sl_timeline_view_get_canvas (view));
    gboolean handled = FALSE;
    int sy;

    activate (view, "timeline.select-thread", g_variant_new_string ("postgres"));
    pg = sl_timeline_view_get_selected_row (view);
    activate (view, "timeline.toggle-pin", NULL);
    g_assert_true (sl_timeline_view_get_row_pinned (view, pg));
    host_lines (view, httpd, shown, NULL);
    gtk_adjustment_set_value (vadj, 0);
    settle (view);
    g_assert_true (sl_timeline_view_get_row_y (view, pg, &y0));
    g_assert_true (sl_timeline_view_get_row_y (view, g_array_index (shown, guint, 3), &yo0));
    g_assert_cmpfloat (y0, <, yo0);
    g_assert_cmpfloat (y0, <, SL_TLV_RULER_H + SL_TLV_ROW_H);

    /* a wheel notch: as GTK's scrolled windows, page^(2/3): four or five rows */
    for (guint i = 0; i < g_list_model_get_n_items (controllers) && wheel == NULL; i++)
      {
        g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

        if (GTK_IS_EVENT_CONTROLLER_SCROLL (c))
          wheel = GTK_EVENT_CONTROLLER (c);
      }
    g_assert_nonnull (wheel);
    before = gtk_adjustment_get_value (vadj);
    g_signal_emit_by_name (wheel, "scroll", 0.0, 1.0, &handled);
    g_assert_true (handled);
    step = gtk_adjustment_get_value (vadj) - before;
    g_test_message ("a wheel notch: %.0f px of a %.0f px page", step, gtk_adjustment_get_page_size (vadj));
    g_assert_cmpfloat (fabs (step - pow (gtk_adjustment_get_page_size (vadj), 2.0 / 3.0)), <, 0.5);
    g_assert_cmpfloat (step, >=, 3 * SL_TLV_ROW_H);
    g_assert_cmpfloat (step, <, gtk_adjustment_get_page_size (vadj) / 2);
    for (guint i = 0; i < 3; i++)
      g_signal_emit_by_name (wheel, "scroll", 0.0, 1.0, &handled);
    settle (view);
    g_assert_true (sl_timeline_view_get_row_y (view, pg, &y1));
    g_assert_cmpfloat (y1, ==, y0);
    g_assert_true (sl_timeline_view_get_row_y (view, g_array_index (shown, guint, 3), &yo1));
    g_assert_cmpfloat (fabs (yo0 - yo1 - 4 * step), <, 1);

    /* the header of the host whose rows are on top stays there */
    v0 = _sl_timeline_view_vis_at (view, view->pinned_h + 1);
    g_assert_cmpuint (v0, !=, SL_TIMELINE_NONE);
    g_assert_cmpuint (g_array_index (view->vis, SlTlvRow, v0).kind, ==, SL_TIMELINE_ROW_HOST);
    g_assert_true (_sl_timeline_view_sticky_header (view, (int) gtk_adjustment_get_value (vadj), &vt, &sy));
    g_assert_cmpuint (vt, ==, v0);
    g_assert_cmpint (sy, ==, view->pinned_h);
    /* it names the host of the rows below it */
    {
      guint below = _sl_timeline_view_vis_at (view, view->pinned_h + SL_TLV_HOST_H + 2);

      g_assert_cmpuint (g_array_index (view->vis, SlTlvRow, below).host, ==,
                        g_array_index (view->vis, SlTlvRow, v0).host);
      g_assert_cmpuint (g_array_index (view->vis, SlTlvRow, below).kind, !=, SL_TIMELINE_ROW_HOST);
    }
    {
      UiPixels p = { 0 };

      render (view, "timeline-pinned.png", &p);
      ui_pixels_clear (&p);
    }
    activate (view, "timeline.toggle-pin", NULL);
    g_assert_false (sl_timeline_view_get_row_pinned (view, pg));
  }

  ui_close_window (window);
}

/* The store event of a message's end, by brute force */
static const SlEvent *
packet_event_of (SlTimelineView *view,
                 guint           host,
                 gint64          t,
                 SlEventKind     kind)
{
  const SlEventStore *store = sl_session_get_event_store (view->session, host);

  g_assert_nonnull (store);
  for (guint64 i = 0; i < sl_event_store_get_n_events (store, SL_EVENT_STREAM_NET); i++)
    {
      const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_NET, i);

      if (e->time == t && e->kind == kind)
        return e;
    }
  g_assert_not_reached ();
  return NULL;
}

static char *
expected_end (SlTimeline *tl,
              guint       host,
              guint       row,
              guint16     cpu)
{
  SlTimelineRowInfo hi, ri;

  sl_timeline_get_row_info (tl, sl_timeline_get_host_row (tl, host), &hi);
  sl_timeline_get_row_info (tl, row, &ri);
  return g_strdup_printf ("%s, %s (%u) of process %u, CPU %u", hi.name, ri.name, ri.tid, ri.pid, cpu);
}

static void
test_messages (void)
{
  SlTimelineView *view = NULL;
  SlWindow *window = open_django (&view);
  SlTimeline *tl;
  SlTimelineArrow a, got;
  double xs, ys, xr, yr;
  gint64 w;
  UiPixels p = { 0 };

  if (window == NULL)
    return;
  tl = sl_timeline_view_get_timeline (view);
  a = find_message (view, 0, "python");
  {
    /* the client's python, on host 0 as the reader numbers them */
    SlTimelineRowInfo hi;

    sl_timeline_get_row_info (tl, sl_timeline_get_host_row (tl, a.send_host), &hi);
    g_assert_cmpstr (hi.name, ==, "django-client");
  }
  w = MAX (ABS (a.recv_view - a.send_view), 20000) * 2;
  activate (view, "timeline.set-span", g_variant_new ("(xx)", MIN (a.send_view, a.recv_view) - w,
                                                       MAX (a.send_view, a.recv_view) + w));
  activate (view, "timeline.select-row", g_variant_new_uint32 (a.send_row));
  settle (view);

  /* the message under the pointer, halfway along it */
  arrow_points (view, &a, &xs, &ys, &xr, &yr);
  g_assert_true (_sl_timeline_view_arrow_at (view, (xs + xr) / 2 - SL_TLV_LABEL_W, (ys + yr) / 2 - SL_TLV_RULER_H,
                                             &got));
  g_assert_cmpint (got.send_time, ==, a.send_time);
  g_assert_cmpint (got.recv_time, ==, a.recv_time);
  g_assert_false (_sl_timeline_view_arrow_at (view, (xs + xr) / 2 - SL_TLV_LABEL_W + 40,
                                              (ys + yr) / 2 - SL_TLV_RULER_H, &got) &&
                  got.send_time == a.send_time && got.recv_time == a.recv_time);

  /* its details, each against the model and the events themselves */
  {
    g_autofree char *text = sl_timeline_view_dup_message_text (view, &a);
    g_autofree char *tip = _sl_timeline_view_arrow_tooltip (view, &a);
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
    const SlEvent *se = packet_event_of (view, a.send_host, a.send_time, SL_EVENT_PACKET_SEND);
    const SlEvent *re = packet_event_of (view, a.recv_host, a.recv_time, SL_EVENT_PACKET_RECV);
    SlTimelineRowInfo sh, rh;
    g_autofree char *from = expected_end (tl, a.send_host, a.send_row, se->cpu);
    g_autofree char *to = expected_end (tl, a.recv_host, a.recv_row, re->cpu);
    g_autofree char *sv = sl_format_clock_time (sl_timeline_to_view (tl, a.send_host, a.send_time), 9);
    g_autofree char *sl = sl_format_clock_time (a.send_time, 9);
    g_autofree char *rv = sl_format_clock_time (sl_timeline_to_view (tl, a.recv_host, a.recv_time), 9);
    g_autofree char *rl = sl_format_clock_time (a.recv_time, 9);
    g_autofree char *lat = sl_format_ns ((double) (sl_timeline_to_view (tl, a.recv_host, a.recv_time) -
                                                   sl_timeline_to_view (tl, a.send_host, a.send_time)));
    g_autofree char *bound = sl_format_ns (a.uncertainty_ns);
    g_autofree char *want = NULL;

    g_test_message ("%s", text);
    g_assert_cmpstr (tip, ==, text);
    sl_timeline_get_row_info (tl, sl_timeline_get_host_row (tl, a.send_host), &sh);
    sl_timeline_get_row_info (tl, sl_timeline_get_host_row (tl, a.recv_host), &rh);
    g_assert_cmpuint (g_strv_length (lines), ==, 8);
    want = g_strdup_printf ("Message %s → %s", sh.name, rh.name);
    g_assert_cmpstr (lines[0], ==, want);
    g_free (want);
    want = g_strdup_printf ("From: %s", from);
    g_assert_cmpstr (lines[1], ==, want);
    g_free (want);
    want = g_strdup_printf ("To: %s", to);
    g_assert_cmpstr (lines[2], ==, want);
    g_free (want);
    want = g_strdup_printf ("Sent: %s UTC on the reference clock · %s UTC on %s's clock", sv, sl, sh.name);
    g_assert_cmpstr (lines[3], ==, want);
    g_free (want);
    want = g_strdup_printf ("Received: %s UTC on the reference clock · %s UTC on %s's clock", rv, rl, rh.name);
    g_assert_cmpstr (lines[4], ==, want);
    g_free (want);
    want = g_strdup_printf ("Latency: %s", lat);
    g_assert_cmpstr (lines[5], ==, want);
    g_free (want);
    g_assert_cmpfloat (a.uncertainty_ns, >, 0);
    want = g_strdup_printf ("The link's bound at that instant: ± %s", bound);
    g_assert_cmpstr (lines[6], ==, want);
    g_free (want);
    /* these old kernel events (inet_sock_local_*) carry no ports nor length */
    want = g_strdup_printf ("TCP: ? → ?, seq %u, length not recorded", se->arg);
    g_assert_cmpstr (lines[7], ==, want);
    g_assert_cmpuint (re->arg, ==, se->arg);
  }

  /* selected: both ends marked, its page shown */
  activate (view, "timeline.select-message", g_variant_new ("(uuxx)", a.send_host, a.recv_host, a.send_time,
                                                            a.recv_time));
  g_assert_true (sl_timeline_view_get_selected_message (view, &got));
  g_assert_cmpint (got.send_time, ==, a.send_time);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (view->pages), ==, "message");
  {
    g_autofree char *text = sl_timeline_view_dup_message_text (view, &a);

    g_assert_cmpstr (gtk_label_get_text (view->message_label), ==, text);
  }
  render (view, "timeline-message-selected.png", &p);
  arrow_points (view, &a, &xs, &ys, &xr, &yr);
  /* (the receive end is hundreds of rows down) */
  g_assert_true (on_rows (view, ys));
  g_assert_false (on_rows (view, yr));
  g_assert_cmpuint (ui_count_near (&p, xs, ys, 6, SL_TIMELINE_RGB_SELECTION, 40), >=, 10);
  ui_pixels_clear (&p);

  /* a key shows the other end: its row selected, in the middle */
  for (guint k = 0; k < 2; k++)
    {
      gboolean to_recv = k == 0;
      guint want_row = to_recv ? a.recv_row : a.send_row;
      guint host = to_recv ? a.recv_host : a.send_host;
      gint64 t = to_recv ? a.recv_time : a.send_time;
      double y, mid;
      double before = gtk_adjustment_get_value (view->vadj);

      activate (view, "timeline.message-other-end", NULL);
      settle (view);
      g_assert_cmpuint (sl_timeline_view_get_selected_row (view), ==, want_row);
      y = ui_row_y (view, want_row);
      mid = SL_TLV_RULER_H + view->pinned_h + gtk_adjustment_get_page_size (view->vadj) / 2;
      g_test_message ("other end: row %u at %.0f (middle %.0f), scrolled %.0f → %.0f", want_row, y, mid, before,
                      gtk_adjustment_get_value (view->vadj));
      /* (as far as the scroll range allows: the first rows stay on top) */
      if (gtk_adjustment_get_value (view->vadj) == 0)
        g_assert_cmpfloat (y, <=, mid + SL_TLV_ROW_H);
      else
        g_assert_cmpfloat (fabs (y - mid), <=, SL_TLV_ROW_H);
      g_assert_cmpfloat (fabs (sl_timeline_view_host_time_to_x (view, host, t) -
                               (SL_TLV_LABEL_W + view->plot_w / 2.0)), <=, 1);
      g_assert_cmpfloat (fabs (gtk_adjustment_get_value (view->vadj) - before), >, 100);
      if (k == 0)
        g_assert_cmpfloat (gtk_adjustment_get_value (view->vadj), >, 0);
      /* and marked */
      render (view, to_recv ? "timeline-message-received.png" : "timeline-message-sent.png", &p);
      g_assert_cmpuint (ui_count_near (&p, sl_timeline_view_host_time_to_x (view, host, t), y, 6,
                                       SL_TIMELINE_RGB_SELECTION, 40), >=, 10);
      ui_pixels_clear (&p);
    }

  /* cleared */
  activate (view, "timeline.clear-selection", NULL);
  g_assert_false (sl_timeline_view_get_selected_message (view, NULL));
  ui_close_window (window);
}

static gboolean
search_done (gpointer data)
{
  return !sl_search_list_get_searching (data) &&
         g_list_model_get_n_items (data) == MIN (sl_search_list_get_n_matches (data),
                                                 sl_search_list_get_max_hits (data));
}

/* Every event of every store @pred keeps, by brute force, in view time */
static GArray *
brute_find (SlTimelineView *view,
            gboolean      (*pred) (const SlEventStore *, const SlEvent *, gconstpointer),
            gconstpointer   data)
{
  SlTimeline *tl = sl_timeline_view_get_timeline (view);
  GArray *times = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint h = 0; h < sl_timeline_get_n_hosts (tl); h++)
    {
      const SlEventStore *store = sl_session_get_event_store (view->session, h);

      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        for (guint64 k = 0; k < sl_event_store_get_n_events (store, s); k++)
          {
            const SlEvent *e = sl_event_store_get (store, s, k);

            if (pred (store, e, data))
              {
                gint64 t = sl_timeline_to_view (tl, h, e->time);

                g_array_append_val (times, t);
              }
          }
    }
  return times;
}

static gboolean
fd_is (const SlEventStore *store,
       const SlEvent      *e,
       gconstpointer       data)
{
  return e->kind == SL_EVENT_SYSCALL_ENTRY && (e->flags & SL_EVENT_SYSCALL_HAS_FD) &&
         (gint32) e->arg == *(const gint32 *) data;
}

static gboolean
postgres_selected (gpointer data)
{
  SlTimelineView *view = data;
  SlTimelineRowInfo ri;

  if (sl_timeline_view_get_selected_row (view) == SL_TIMELINE_NONE)
    return FALSE;
  sl_timeline_get_row_info (sl_timeline_view_get_timeline (view), sl_timeline_view_get_selected_row (view), &ri);
  return g_strcmp0 (ri.name, "postgres") == 0;
}

static gboolean
syscall_is (const SlEventStore *store,
            const SlEvent      *e,
            gconstpointer       data)
{
  return (e->kind == SL_EVENT_SYSCALL_ENTRY || e->kind == SL_EVENT_SYSCALL_EXIT) && e->str != 0 &&
         g_str_equal (sl_event_store_get_string (store, e->str), data);
}

static void
test_find (void)
{
  SlTimelineView *view = NULL;
  SlWindow *window = open_django (&view);
  SlTimeline *tl;
  SlSearchList *list;
  gint32 fd = 5;

  if (window == NULL)
    return;
  tl = sl_timeline_view_get_timeline (view);
  list = sl_timeline_view_get_search (view);
  g_object_set (view, "hide-kernel", TRUE, NULL);

  /* fd = 5: every system call on descriptor 5, on every host */
  activate (view, "timeline.find-events", g_variant_new_string ("fd = 5"));
  g_assert_true (ui_wait_for (search_done, list, UI_WAIT_S));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (view->pages), ==, "find");
  {
    g_autoptr(GArray) want = brute_find (view, fd_is, &fd);
    guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
    g_autofree char *count = g_strdup_printf ("%u events match “fd = 5”", want->len);

    g_test_message ("fd = 5: %u events; “%s”", want->len, gtk_label_get_text (view->find_label));
    g_assert_cmpuint (want->len, >, 10);
    g_assert_cmpuint (sl_search_list_get_n_matches (list), ==, want->len);
    g_assert_cmpuint (n, ==, want->len);
    g_assert_true (g_str_has_prefix (gtk_label_get_text (view->find_label), count));
    /* in time, each one what it says */
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(SlEventItem) item = g_list_model_get_item (G_LIST_MODEL (list), i);
        g_autoptr(SlEventItem) prev = i > 0 ? g_list_model_get_item (G_LIST_MODEL (list), i - 1) : NULL;

        g_assert_true (g_str_has_suffix (sl_event_item_get_text (item, "fields"), " fd=5"));
        if (prev != NULL)
          g_assert_cmpint (sl_event_item_get_view_time (prev), <=, sl_event_item_get_view_time (item));
      }
  }

  /* the first one is shown: its thread selected, in the middle, its time
   * in the middle and marked; then the next ones and back */
  for (guint step = 0; step < 4; step++)
    {
      guint want_index = step == 0 ? 0 : step == 1 ? 1 : step == 2 ? 0 : g_list_model_get_n_items (G_LIST_MODEL (list)) - 1;
      g_autoptr(SlEventItem) item = NULL;
      const SlEvent *e;
      guint row;
      double y, mid;

      if (step == 1)
        activate (view, "timeline.find-next", NULL);
      else if (step >= 2)
        activate (view, "timeline.find-previous", NULL);
      settle (view);
      g_assert_cmpuint (sl_timeline_view_get_found_index (view), ==, want_index);
      item = g_list_model_get_item (G_LIST_MODEL (list), want_index);
      e = sl_event_item_get_event (item);
      row = sl_timeline_find_thread (tl, sl_event_item_get_host (item), e->tid, e->time);
      g_assert_cmpuint (sl_timeline_view_get_selected_row (view), ==, row);
      g_assert_cmpfloat (fabs (sl_timeline_view_time_to_x (view, sl_event_item_get_view_time (item)) -
                               (SL_TLV_LABEL_W + view->plot_w / 2.0)), <=, 1);
      g_assert_true (view->has_cursor);
      g_assert_cmpint (view->cursor_time, ==, sl_event_item_get_view_time (item));
      y = ui_row_y (view, row);
      mid = SL_TLV_RULER_H + view->pinned_h + gtk_adjustment_get_page_size (view->vadj) / 2;
      if (gtk_adjustment_get_value (view->vadj) > 0 &&
          gtk_adjustment_get_value (view->vadj) < gtk_adjustment_get_upper (view->vadj) -
                                                  gtk_adjustment_get_page_size (view->vadj))
        g_assert_cmpfloat (fabs (y - mid), <=, SL_TLV_ROW_H);
      g_assert_cmpuint (gtk_single_selection_get_selected (view->find_selection), ==, want_index);
    }

  /* a system call by name, typed in the search field */
  gtk_editable_set_text (GTK_EDITABLE (view->search_entry), "syscall = read");
  g_signal_emit_by_name (view->search_entry, "activate");
  g_assert_true (ui_wait_for (search_done, list, UI_WAIT_S));
  {
    g_autoptr(GArray) want = brute_find (view, syscall_is, "read");

    g_test_message ("syscall = read: %u events", want->len);
    g_assert_cmpuint (want->len, >, 100);
    g_assert_cmpuint (sl_search_list_get_n_matches (list), ==, want->len);
  }

  /* what is not a query says why, on the Find page */
  g_assert_false (sl_timeline_view_find_events (view, "fd = five"));
  g_assert_nonnull (strstr (gtk_label_get_text (view->find_label), "needs a number"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);
  /* a name alone still finds rows */
  gtk_editable_set_text (GTK_EDITABLE (view->search_entry), "postgres");
  /* (after the search entry's delay, which a loaded machine stretches) */
  g_assert_true (ui_wait_for (postgres_selected, view, UI_WAIT_S));
  /* the Events page's table waits while the Find page is shown, and
   * catches up when it is shown again */
  {
    GListModel *events = sl_timeline_view_get_events (view);

    g_assert_cmpuint (sl_event_list_get_row (SL_EVENT_LIST (events)), !=, sl_timeline_view_get_selected_row (view));
    gtk_stack_set_visible_child_name (view->pages, "events");
    g_assert_cmpuint (sl_event_list_get_row (SL_EVENT_LIST (events)), ==, sl_timeline_view_get_selected_row (view));
    g_assert_true (ui_wait_for (events_loaded, events, UI_WAIT_S));
    g_assert_cmpuint (g_list_model_get_n_items (events), >, 0);
    /* the times' zone is in their columns' titles */
    g_assert_cmpuint (ui_check_zone_in_page (view->pages), >, 0);
  }
  ui_close_window (window);
}

/* The rows' labels as they reach the screen, under the renderer the test
 * runs with: each label's ink is the ink of its text drawn by cairo into
 * an image with the canvas's Pango context (the same glyphs, placed a
 * pixel apart at most; antialiasing a level apart), as opened and with
 * a span selected. GTK's GL renderer draws a cairo node from a texture
 * sampled at the nearest pixel over the node's bounds: a label image
 * placed or sized off the pixel grid loses or doubles columns of ink
 * (a 'u' without its right stem was reported in "lttng-consumerd"). */
/* 0xRRGGBB of the pixel over white: the canvas draws no background */
static guint32
over_white (const UiPixels *p,
            int             x,
            int             y)
{
  const guchar *px = p->data + (gsize) y * p->stride + (gsize) x * 4;
  guint32 c = 0;

  for (int i = 0; i < 3; i++)
    c |= (guint32) MIN (255, px[i] + 255 - px[3]) << (8 * i);
  return c;
}

static guint
label_ink_differs (const UiPixels *p,
                   GtkWidget      *canvas,
                   const char     *text,
                   double          x,
                   double          yc,
                   gboolean        bold,
                   guint          *n_ink)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (canvas, text);
  PangoFontDescription *font = NULL;
  PangoRectangle logical;
  cairo_surface_t *surface;
  cairo_t *cr;
  guint32 bg;
  int x0, x1, y0, y1, w, h, stride, screen_max = 1, ref_max = 1;
  guint best = G_MAXUINT;
  g_autofree guchar *screen = NULL;
  const guchar *ref;

  pango_layout_set_width (layout, (SL_TLV_LABEL_W - 40) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  if (bold)
    {
      font = pango_font_description_copy (pango_context_get_font_description (pango_layout_get_context (layout)));
      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      pango_layout_set_font_description (layout, font);
    }
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  /* the text's box in the canvas, a few pixels wider, inside the column */
  x0 = MAX ((int) floor (x) - 3, 0);
  x1 = MIN ((int) ceil (x + logical.width) + 3, SL_TLV_LABEL_W);
  y0 = (int) floor (yc - logical.height / 2.0);
  y1 = (int) ceil (yc + logical.height / 2.0);
  g_assert_cmpint (y1, <=, p->height);
  w = x1 - x0;
  h = y1 - y0;
  /* the screen's ink: how far from the background the pixel is (the
   * row's own, left of its text) */
  bg = over_white (p, 2, (int) yc);
  screen = g_malloc ((gsize) w * h);
  for (int y = 0; y < h; y++)
    for (int xx = 0; xx < w; xx++)
      {
        guint32 c = over_white (p, x0 + xx, y0 + y);
        int d = 0;

        for (int sh = 0; sh < 24; sh += 8)
          d = MAX (d, ABS ((int) ((c >> sh) & 0xff) - (int) ((bg >> sh) & 0xff)));
        screen[y * w + xx] = d;
        screen_max = MAX (screen_max, d);
      }
  /* the same text by cairo, opaque, where the view puts it */
  surface = cairo_image_surface_create (CAIRO_FORMAT_A8, w, h);
  cr = cairo_create (surface);
  cairo_move_to (cr, x - x0, yc - logical.height / 2.0 - y0);
  pango_cairo_show_layout (cr, layout);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  ref = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  *n_ink = 0;
  for (int y = 0; y < h; y++)
    for (int xx = 0; xx < w; xx++)
      {
        ref_max = MAX (ref_max, ref[y * stride + xx]);
        if (ref[y * stride + xx] > 96)
          (*n_ink)++;
      }
  /* pixels whose ink differs by more than a level, at the best of the
   * placements a pixel or two apart */
  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++)
      {
        guint differ = 0;

        for (int y = 0; y < h; y++)
          for (int xx = 0; xx < w; xx++)
            {
              int ry = y - dy, rx = xx - dx;
              int r = rx >= 0 && rx < w && ry >= 0 && ry < h ? ref[ry * stride + rx] * 255 / ref_max : 0;
              int s = screen[y * w + xx] * 255 / screen_max;

              if (ABS (r - s) > 96)
                differ++;
            }
        best = MIN (best, differ);
      }
  cairo_surface_destroy (surface);
  if (font != NULL)
    pango_font_description_free (font);
  g_object_unref (layout);
  return best;
}

static void
test_row_labels (void)
{
  SlTimelineView *view = NULL;
  SlWindow *window = open_django_sized (&view, 1200, 800);
  SlTimeline *tl;
  gint64 lo, hi;

  if (window == NULL)
    return;
  tl = sl_timeline_view_get_timeline (view);
  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  /* as opened, then with a span selected (where it was seen) */
  for (guint pass = 0; pass < 2; pass++)
    {
      g_autofree char *shot = g_strdup_printf ("row-labels-%u.png", pass);
      UiPixels p = { 0 };
      guint n_checked = 0, n_wrong = 0;

      if (pass == 1)
        activate (view, "timeline.select-span", g_variant_new ("(xx)", lo + (hi - lo) / 3, lo + (hi - lo) * 2 / 3));
      ui_wait_frames (view->canvas, 2);
      ui_render (window, view->canvas, shot, &p);
      for (guint n = 0;; n++)
        {
          double x, yc;
          gboolean bold;
          g_autofree char *text = _sl_timeline_view_dup_drawn_label (view, n, &x, &yc, &bold);
          guint differ, n_ink;

          if (text == NULL)
            break;
          differ = label_ink_differs (&p, view->canvas, text, x, yc, bold, &n_ink);
          g_test_message ("label \"%s\" at %.1f, %.1f%s: %u of %u ink pixels differ", text, x, yc,
                          bold ? " (bold)" : "", differ, n_ink);
          g_assert_cmpuint (n_ink, >, 0);
          if (differ > 2)
            n_wrong++;
          n_checked++;
        }
      ui_pixels_clear (&p);
      g_assert_cmpuint (n_checked, >=, 10);
      g_assert_cmpuint (n_wrong, ==, 0);
    }
  ui_close_window (window);
}

/* The status line at the default window size (1200 × 800): all its parts;
 * then narrowed, a selection measured: what it draws is whole parts of its
 * text (never a number cut, no ellipsis), the span shown among them, and
 * the drawing is inside the line (its ink neither touches its left end nor
 * passes its right end). */
static void
test_status_line (void)
{
  SlTimelineView *view = NULL;
  SlWindow *window = open_django_sized (&view, 1200, 800);
  SlStatusLine *status;
  SlTimeline *tl;
  gint64 lo, hi;

  if (window == NULL)
    return;
  status = view->status_label;
  tl = sl_timeline_view_get_timeline (view);
  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  for (guint pass = 0; pass < 2; pass++)
    {
      g_autofree char *shot = g_strdup_printf ("status-line-%u.png", pass);
      g_autofree char *span = NULL;
      g_autofree char *shown = NULL;
      g_autofree char *before = NULL;
      SlTimeSpan s;
      const char *text, *drawn;
      PangoLayout *layout;
      PangoRectangle logical;
      UiPixels p = { 0 };
      int left = G_MAXINT, right = -1;

      if (pass == 1)
        {
          /* 400 px: the line has the window's width, where all fits */
          gtk_widget_set_margin_start (GTK_WIDGET (status), gtk_widget_get_width (GTK_WIDGET (status)) +
                                                                gtk_widget_get_margin_start (GTK_WIDGET (status)) - 400);
          activate (view, "timeline.select-span", g_variant_new ("(xx)", lo + (hi - lo) / 3, lo + (hi - lo) * 2 / 3));
        }
      ui_wait_frames (GTK_WIDGET (status), 2);
      s = _sl_timeline_view_span (view);
      span = sl_format_ns ((double) (s.end - s.begin));
      shown = g_strdup_printf ("%s shown", span);
      text = sl_status_line_get_text (status);
      drawn = _sl_status_line_get_drawn_text (status);
      g_test_message ("status line %d px: \"%s\", drawn \"%s\"", gtk_widget_get_width (GTK_WIDGET (status)), text,
                      drawn != NULL ? drawn : "(not drawn)");
      g_assert_nonnull (drawn);
      g_assert_null (strstr (drawn, "…"));
      /* whole parts, the last ones: the span shown is always there */
      g_assert_true (g_str_has_suffix (drawn, shown));
      g_assert_true (g_str_has_suffix (text, drawn));
      before = g_strndup (text, strlen (text) - strlen (drawn));
      g_assert_true (before[0] == '\0' || g_str_has_suffix (before, " · "));
      /* in a line of its own: at 1200 px it drew "438 arrows · 2.3409 s
       * shown" of four parts */
      if (pass == 0)
        g_assert_cmpstr (drawn, ==, text);
      if (pass == 1)
        {
          g_assert_nonnull (strstr (drawn, "selection Δt "));
          /* the test's point: the whole text does not fit in 400 px */
          g_assert_cmpstr (text, !=, drawn);
        }

      /* in pixels: the ink of the text drawn, and no more */
      ui_save_screenshot (window, pass == 0 ? "status-line-window.png" : "status-line-selection.png");
      ui_render (window, GTK_WIDGET (status), shot, &p);
      for (int y = 0; y < p.height; y++)
        for (int x = 0; x < p.width; x++)
          if (p.data[(gsize) y * p.stride + (gsize) x * 4 + 3] > 0x40)
            {
              left = MIN (left, x);
              right = MAX (right, x);
            }
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (status), drawn);
      pango_layout_get_pixel_extents (layout, NULL, &logical);
      g_test_message ("ink %d–%d of %d px; drawn text %d px wide", left, right, p.width, logical.width);
      g_assert_cmpint (left, >, 0);
      g_assert_cmpint (right, <, p.width);
      g_assert_cmpint (right - left + 1, >=, logical.width * 9 / 10);
      g_assert_cmpint (right - left + 1, <=, logical.width + 4);
      g_object_unref (layout);
      ui_pixels_clear (&p);
    }
  ui_close_window (window);
}

/* A selection measured: its length and events in the status line, time
 * per state and message latencies on the Statistics page, each against
 * a count of the events, intervals and messages themselves */
static void
test_measure (void)
{
  SlTimelineView *view = NULL;
  SlWindow *window = open_django (&view);
  SlTimeline *tl;
  gint64 lo, hi, t0, t1;
  guint64 events = 0;
  SlTextList *states, *links;
  g_autoptr(GArray) arrows = NULL;

  if (window == NULL)
    return;
  tl = sl_timeline_view_get_timeline (view);
  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  t0 = lo + (hi - lo) / 3;
  t1 = lo + (hi - lo) * 2 / 3;
  activate (view, "timeline.select-span", g_variant_new ("(xx)", t0, t1));

  /* Δt and the events of every host in it */
  for (guint h = 0; h < sl_timeline_get_n_hosts (tl); h++)
    {
      const SlEventStore *store = sl_session_get_event_store (view->session, h);

      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        for (guint64 k = 0; k < sl_event_store_get_n_events (store, s); k++)
          {
            gint64 v = sl_timeline_to_view (tl, h, sl_event_store_get (store, s, k)->time);

            events += v >= t0 && v < t1;
          }
    }
  {
    g_autofree char *dt = sl_format_ns ((double) (t1 - t0));
    g_autofree char *count = sl_format_count (events);
    /* a part of its own, just before the span shown */
    g_autofree char *want = g_strdup_printf (" · %s events selected · selection Δt %s · ", count, dt);
    const char *status = sl_status_line_get_text (view->status_label);

    g_test_message ("status: %s", status);
    g_assert_cmpuint (events, >, 1000);
    g_assert_nonnull (strstr (status, want));
  }

  /* the Statistics page: time per state of each thread */
  gtk_stack_set_visible_child_name (view->pages, "statistics");
  states = sl_timeline_view_get_state_stats (view);
  links = sl_timeline_view_get_latency_stats (view);
  {
    guint n = g_list_model_get_n_items (G_LIST_MODEL (states)), want_rows = 0;

    for (guint r = 0; r < sl_timeline_get_n_rows (tl); r++)
      {
        SlTimelineRowInfo ri;
        gint64 l0, l1, run = 0, none = 0, user = 0;
        gboolean listed = FALSE;

        sl_timeline_get_row_info (tl, r, &ri);
        if (ri.kind != SL_TIMELINE_ROW_THREAD)
          continue;
        l0 = sl_timeline_from_view (tl, ri.host, t0);
        l1 = sl_timeline_from_view (tl, ri.host, t1);
        none = l1 - l0;
        for (guint64 k = 0; k < sl_timeline_get_n_intervals (tl, r); k++)
          {
            SlTimelineInterval iv;
            gint64 a, b;

            sl_timeline_get_interval (tl, r, k, &iv);
            a = MAX (iv.start, l0);
            b = MIN (iv.end, l1);
            if (b <= a)
              continue;
            none -= b - a;
            if (iv.state == SL_TIMELINE_STATE_USER || iv.state == SL_TIMELINE_STATE_SYSCALL ||
                iv.state == SL_TIMELINE_STATE_IRQ || iv.state == SL_TIMELINE_STATE_SOFTIRQ)
              run += b - a;
            if (iv.state == SL_TIMELINE_STATE_USER)
              user += b - a;
          }
        if (none == l1 - l0)
          continue;
        want_rows++;
        for (guint i = 0; i < n && !listed; i++)
          {
            g_autoptr(SlTextRow) item = g_list_model_get_item (G_LIST_MODEL (states), i);
            g_autofree char *name = g_strdup_printf ("%s (%u)", ri.name, ri.tid);
            g_autofree char *rt = sl_format_ns ((double) run);
            g_autofree char *ut = user > 0 ? sl_format_ns ((double) user) : g_strdup ("");

            if (sl_text_row_get_id (item) != r)
              continue;
            listed = TRUE;
            g_assert_cmpstr (sl_text_row_get_text (item, 0), ==, name);
            g_assert_cmpstr (sl_text_row_get_text (item, 2), ==, rt);
            g_assert_cmpstr (sl_text_row_get_text (item, 3), ==, ut);
          }
        g_assert_true (listed);
      }
    g_test_message ("time per state: %u threads", n);
    g_assert_cmpuint (n, ==, want_rows);
    g_assert_cmpuint (n, >, 10);
  }

  /* the latency of the messages sent in it, per link direction */
  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  sl_timeline_query_arrows (tl, lo - 1000000000, hi + 1000000000, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                            SL_TIMELINE_NONE, arrows);
  {
    guint n = g_list_model_get_n_items (G_LIST_MODEL (links)), seen = 0;

    for (guint a = 0; a < sl_timeline_get_n_hosts (tl); a++)
      for (guint b = 0; b < sl_timeline_get_n_hosts (tl); b++)
        {
          g_autoptr(GArray) d = g_array_new (FALSE, FALSE, sizeof (gint64));
          SlTimelineRowInfo ha, hb;
          g_autofree char *link = NULL;
          gboolean listed = FALSE;

          for (guint i = 0; i < arrows->len; i++)
            {
              const SlTimelineArrow *m = &g_array_index (arrows, SlTimelineArrow, i);

              if (m->send_host == a && m->recv_host == b && m->send_view >= t0 && m->send_view < t1)
                {
                  gint64 x = m->recv_view - m->send_view;

                  g_array_append_val (d, x);
                }
            }
          if (d->len == 0)
            continue;
          g_array_sort (d, sl_compare_gint64);
          sl_timeline_get_row_info (tl, sl_timeline_get_host_row (tl, a), &ha);
          sl_timeline_get_row_info (tl, sl_timeline_get_host_row (tl, b), &hb);
          link = g_strdup_printf ("%s → %s", ha.name, hb.name);
          for (guint i = 0; i < n; i++)
            if (g_strcmp0 (sl_text_list_get_text (links, i, 0), link) == 0)
              {
                g_autofree char *count = sl_format_count (d->len);
                g_autofree char *mn = sl_format_ns ((double) g_array_index (d, gint64, 0));
                g_autofree char *med = sl_format_ns ((double) g_array_index (d, gint64, (d->len + 1) / 2 - 1));
                g_autofree char *p99 = sl_format_ns ((double) g_array_index (d, gint64, (d->len * 99 + 99) / 100 - 1));
                g_autofree char *mx = sl_format_ns ((double) g_array_index (d, gint64, d->len - 1));

                g_test_message ("%s: %s messages, %s / %s / %s / %s, %s", link, count, mn, med, p99, mx,
                                sl_text_list_get_text (links, i, 6));
                g_assert_cmpstr (sl_text_list_get_text (links, i, 1), ==, count);
                g_assert_cmpstr (sl_text_list_get_text (links, i, 2), ==, mn);
                g_assert_cmpstr (sl_text_list_get_text (links, i, 3), ==, med);
                g_assert_cmpstr (sl_text_list_get_text (links, i, 4), ==, p99);
                g_assert_cmpstr (sl_text_list_get_text (links, i, 5), ==, mx);
                listed = TRUE;
              }
          g_assert_true (listed);
          seen++;
        }
    g_assert_cmpuint (n, ==, seen);
    g_assert_cmpuint (n, >=, 2);
  }

  /* per process: their threads' sums */
  gtk_drop_down_set_selected (view->stats_kind, 1);
  {
    guint n = g_list_model_get_n_items (G_LIST_MODEL (states));

    g_assert_cmpuint (n, >, 3);
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(SlTextRow) item = g_list_model_get_item (G_LIST_MODEL (states), i);
        SlTimelineRowInfo ri;

        sl_timeline_get_row_info (tl, sl_text_row_get_id (item), &ri);
        g_assert_cmpuint (ri.kind, ==, SL_TIMELINE_ROW_PROCESS);
      }
  }
  ui_close_window (window);
}

static gint64
span_middle (SlTimelineView *view)
{
  gint64 s, e;

  sl_timeline_view_get_span (view, &s, &e);
  return s + (e - s) / 2;
}

/* Bookmarks from the keyboard: named, listed by time, gone back to */
static void
test_bookmarks (void)
{
  SlTimelineView *view = NULL;
  SlWindow *window = open_django (&view);
  SlTimeline *tl;
  SlTextList *list;
  gint64 lo, hi, at[3], w;
  const char *names[3] = { "request starts", "Bookmark 2", "db answers" };
  GtkWidget *canvas;

  if (window == NULL)
    return;
  tl = sl_timeline_view_get_timeline (view);
  canvas = sl_timeline_view_get_canvas (view);
  list = view->bookmark_list;
  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  w = (hi - lo) / 50;
  activate (view, "timeline.select-thread", g_variant_new_string ("python"));

  /* B at three places (added out of time order); the first named by
   * typing, as one would */
  for (guint i = 0; i < 3; i++)
    {
      gint64 mid = lo + (hi - lo) * (i == 0 ? 5 : i == 1 ? 2 : 8) / 10;
      guint index;
      const char *name;
      guint host;
      gint64 local;
      SlTimelineRowInfo ri;

      activate (view, "timeline.set-span", g_variant_new ("(xx)", mid - w, mid + w));
      gtk_widget_grab_focus (canvas);
      if (i == 2)
        activate (view, "timeline.add-named-bookmark", g_variant_new_string (names[2]));
      else
        {
          activate (view, "timeline.add-bookmark", NULL);
          g_assert_cmpstr (gtk_stack_get_visible_child_name (view->pages), ==, "bookmarks");
          if (i == 0)
            {
              g_assert_true (gtk_widget_has_focus (GTK_WIDGET (view->bookmark_entry)) ||
                             gtk_widget_is_focus (gtk_widget_get_first_child (GTK_WIDGET (view->bookmark_entry))));
              gtk_editable_set_text (GTK_EDITABLE (view->bookmark_entry), names[0]);
              g_signal_emit_by_name (view->bookmark_entry, "activate");
              g_assert_true (gtk_widget_has_focus (canvas));
            }
        }
      index = sl_timeline_view_get_selected_bookmark (view);
      g_assert_true (sl_timeline_view_get_bookmark (view, index, &name, &host, &local));
      g_assert_cmpstr (name, ==, names[i]);
      sl_timeline_get_row_info (tl, sl_timeline_view_get_selected_row (view), &ri);
      g_assert_cmpuint (host, ==, ri.host);
      /* the middle of the span, on the selected row's host's clock */
      g_assert_cmpint (ABS (sl_timeline_to_view (tl, host, local) - mid), <=, 2);
      at[i] = sl_timeline_to_view (tl, host, local);
    }

  /* listed by time */
  g_assert_cmpuint (sl_timeline_view_get_n_bookmarks (view), ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 3);
  g_assert_cmpstr (sl_text_list_get_text (list, 0, 0), ==, "Bookmark 2");
  g_assert_cmpstr (sl_text_list_get_text (list, 1, 0), ==, "request starts");
  g_assert_cmpstr (sl_text_list_get_text (list, 2, 0), ==, "db answers");
  {
    g_autofree char *t = sl_format_clock_time (at[0], 9);

    g_assert_cmpstr (sl_text_list_get_text (list, 1, 1), ==, t);
  }

  /* ] and [ go from one to the next, in time, round the ends */
  activate (view, "timeline.set-span", g_variant_new ("(xx)", lo, lo + 2 * w));
  activate (view, "timeline.next-bookmark", NULL);
  g_assert_cmpint (ABS (span_middle (view) - at[1]), <=, 1);
  activate (view, "timeline.next-bookmark", NULL);
  g_assert_cmpint (ABS (span_middle (view) - at[0]), <=, 1);
  activate (view, "timeline.next-bookmark", NULL);
  g_assert_cmpint (ABS (span_middle (view) - at[2]), <=, 1);
  g_assert_cmpuint (sl_timeline_view_get_selected_bookmark (view), ==, 2);
  activate (view, "timeline.next-bookmark", NULL);
  g_assert_cmpint (ABS (span_middle (view) - at[1]), <=, 1);
  activate (view, "timeline.previous-bookmark", NULL);
  g_assert_cmpint (ABS (span_middle (view) - at[2]), <=, 1);
  /* the zoom kept */
  {
    gint64 s, e;

    sl_timeline_view_get_span (view, &s, &e);
    g_assert_cmpint (ABS ((e - s) - 2 * w), <=, 2);
  }
  /* drawn: a flag on the ruler */
  {
    UiPixels p = { 0 };
    double x = sl_timeline_view_time_to_x (view, at[2]);

    render (view, "timeline-bookmarks.png", &p);
    g_assert_cmpuint (ui_count_near (&p, x + 8, SL_TLV_RULER_H - 8, 4, SL_TIMELINE_RGB_BOOKMARK, 30), >=, 10);
    ui_pixels_clear (&p);
  }
  /* listed: the times of the reference and the host's own, their zone in
   * their columns' titles */
  g_assert_cmpstr (gtk_stack_get_visible_child_name (view->pages), ==, "bookmarks");
  g_assert_cmpuint (ui_check_zone_in_page (view->pages), ==, 2 * 3);
  /* renamed, removed */
  activate (view, "timeline.rename-bookmark", g_variant_new ("(us)", 0, "client idle"));
  g_assert_cmpstr (sl_text_list_get_text (list, 0, 0), ==, "client idle");
  activate (view, "timeline.goto-bookmark", g_variant_new_uint32 (1));
  activate (view, "timeline.remove-bookmark", NULL);
  g_assert_cmpuint (sl_timeline_view_get_n_bookmarks (view), ==, 2);
  g_assert_cmpstr (sl_text_list_get_text (list, 1, 0), ==, "db answers");
  ui_close_window (window);
}

static const char *
host_of (SlTimeline *tl,
         guint       host)
{
  SlTimelineRowInfo hi;

  sl_timeline_get_row_info (tl, sl_timeline_get_host_row (tl, host), &hi);
  return hi.name;
}

/* A request from the client followed: the web server's thread it woke,
 * the worker that thread handed it to, and the answer back, on one clock */
static void
test_request (void)
{
  SlTimelineView *view = NULL;
  SlWindow *window = open_django (&view);
  SlTimeline *tl;
  const GArray *steps = NULL;
  SlTextList *list;
  SlTimelineArrow a;
  gboolean handed = FALSE, back_to_client = FALSE;
  guint followed = 0, answer = G_MAXUINT;

  if (window == NULL)
    return;
  tl = sl_timeline_view_get_timeline (view);
  list = sl_timeline_view_get_request_list (view);
  /* the client's messages, one after the other, until one is a request
   * handed to a worker and answered */
  {
    g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
    gint64 lo, hi;

    g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
    sl_timeline_query_arrows (tl, lo - 1000000000, hi + 1000000000, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE,
                              SL_TIMELINE_NONE, arrows);
    for (guint i = 0; i < arrows->len && !(handed && back_to_client); i++)
      {
        SlTimelineRowInfo ri;

        a = g_array_index (arrows, SlTimelineArrow, i);
        sl_timeline_get_row_info (tl, a.send_row, &ri);
        if (g_strcmp0 (ri.name, "python") != 0 || !g_str_has_prefix (host_of (tl, a.recv_host), "django-httpd"))
          continue;
        sl_timeline_view_select_message (view, &a);
        activate (view, "timeline.follow-request", NULL);
        followed++;
        steps = sl_timeline_view_get_request (view);
        g_assert_nonnull (steps);
        handed = back_to_client = FALSE;
        for (guint k = 0; k < steps->len; k++)
          {
            const SlTimelineChainStep *st = &g_array_index (steps, SlTimelineChainStep, k);

            if (st->kind == SL_TIMELINE_CHAIN_HANDOFF)
              handed = TRUE;
            if (st->kind != SL_TIMELINE_CHAIN_HANDOFF && g_str_has_prefix (host_of (tl, st->message.send_host),
                                                                           "django-httpd") &&
                st->message.recv_host == a.send_host && st->message.send_view > a.send_view)
              {
                back_to_client = TRUE;
                answer = k;
              }
          }
      }
  }
  g_test_message ("%u messages followed before a request handed to a worker and answered", followed);
  g_assert_true (handed);
  g_assert_true (back_to_client);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (view->pages), ==, "request");

  /* the web server's thread woke first; each later step comes from the
   * thread its parent woke, while it ran, or answers its parent */
  {
    const SlTimelineChainStep *st0 = &g_array_index (steps, SlTimelineChainStep, 0);
    SlTimelineRowInfo wi;

    g_assert_cmpuint (st0->woken_row, !=, SL_TIMELINE_NONE);
    sl_timeline_get_row_info (tl, st0->woken_row, &wi);
    g_test_message ("woke %s (%u); %u steps", wi.name, wi.tid, steps->len);
    g_assert_cmpstr (wi.name, ==, "apache2");
    for (guint k = 1; k < steps->len; k++)
      {
        const SlTimelineChainStep *st = &g_array_index (steps, SlTimelineChainStep, k);
        const SlTimelineChainStep *p = &g_array_index (steps, SlTimelineChainStep, st->parent);

        if (st->kind == SL_TIMELINE_CHAIN_REPLY)
          {
            g_assert_cmpuint (st->message.connection, ==, p->message.connection);
            g_assert_cmpuint (st->message.send_host, ==, p->message.recv_host);
            continue;
          }
        g_assert_cmpuint (st->message.send_row, ==, p->woken_row);
        g_assert_cmpint (st->message.send_time, >=, p->wakeup_time);
        g_assert_cmpint (st->message.send_time, <=, p->run_end);
        if (st->kind == SL_TIMELINE_CHAIN_HANDOFF)
          {
            SlTimelineRowInfo hi;

            /* a user thread of the same host */
            sl_timeline_get_row_info (tl, st->woken_row, &hi);
            g_assert_cmpuint (hi.host, ==, p->message.recv_host);
          }
      }
  }

  /* listed, a row per step */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, steps->len);
  for (guint k = 0; k < steps->len; k++)
    {
      const SlTimelineChainStep *st = &g_array_index (steps, SlTimelineChainStep, k);
      g_autofree char *n = g_strdup_printf ("%u", k + 1);
      g_autofree char *sent = sl_format_clock_time (sl_timeline_to_view (tl, st->message.send_host,
                                                                         st->message.send_time), 9);

      g_assert_cmpstr (sl_text_list_get_text (list, k, 0), ==, n);
      g_assert_true (g_str_has_prefix (sl_text_list_get_text (list, k, 1), host_of (tl, st->message.send_host)));
      g_assert_cmpstr (sl_text_list_get_text (list, k, 2), ==, sent);
      if (st->kind != SL_TIMELINE_CHAIN_HANDOFF)
        {
          g_autofree char *lat = sl_format_ns ((double) (sl_timeline_to_view (tl, st->message.recv_host,
                                                                              st->message.recv_time) -
                                                         sl_timeline_to_view (tl, st->message.send_host,
                                                                              st->message.send_time)));

          g_assert_cmpstr (sl_text_list_get_text (list, k, 3), ==, lat);
        }
      else
        g_assert_nonnull (strstr (sl_text_list_get_text (list, k, 1), " wakes "));
    }
  /* the sent times' zone is their column's title's */
  g_assert_cmpuint (ui_check_zone_in_page (view->pages), >, 0);

  /* drawn over the rest: the answer to the client, in its colour */
  {
    const SlTimelineChainStep *st = &g_array_index (steps, SlTimelineChainStep, answer);
    gint64 w;
    double xs, ys, xr, yr, mx, my;
    UiPixels p = { 0 };

    sl_timeline_view_select_message (view, NULL);
    w = MAX (ABS (st->message.recv_view - st->message.send_view), 20000) * 2;
    activate (view, "timeline.set-span", g_variant_new ("(xx)", MIN (st->message.send_view, st->message.recv_view) - w,
                                                         MAX (st->message.send_view, st->message.recv_view) + w));
    activate (view, "timeline.select-row", g_variant_new_uint32 (st->message.recv_row));
    render (view, "timeline-request.png", &p);
    arrow_points (view, &st->message, &xs, &ys, &xr, &yr);
    along (xr, yr, xs, ys, 20, &mx, &my);
    g_assert_true (on_rows (view, my));
    g_assert_cmpuint (ui_count_near (&p, mx, my, 2, SL_TIMELINE_RGB_REQUEST, 50), >=, 3);
    ui_pixels_clear (&p);
  }

  /* from a thread: the first message it sends from the time marked */
  activate (view, "timeline.clear-selection", NULL);
  activate (view, "timeline.select-row", g_variant_new_uint32 (a.send_row));
  activate (view, "timeline.set-span", g_variant_new ("(xx)", a.send_view - 1, a.send_view + 1000000));
  view->has_cursor = FALSE;
  activate (view, "timeline.follow-request", NULL);
  steps = sl_timeline_view_get_request (view);
  g_assert_cmpuint (steps->len, >=, 1);
  g_assert_cmpuint (g_array_index (steps, SlTimelineChainStep, 0).message.send_row, ==, a.send_row);
  g_assert_cmpint (g_array_index (steps, SlTimelineChainStep, 0).message.send_view, >=, a.send_view - 1);
  activate (view, "timeline.clear-request", NULL);
  g_assert_null (sl_timeline_view_get_request (view));
  ui_close_window (window);
}

static gboolean
restored (gpointer data)
{
  return sl_timeline_view_get_n_bookmarks (data) > 0;
}

typedef struct
{
  guint   filter;
  guint   tree_host;
  guint32 tree_pid;
  guint   selected;
  guint   n_pins;
  guint   pins[4];
  gboolean has_msg;
  SlTimelineArrow msg;
  gint64  span[2];
  gint64  sel[2];
  guint   n_marks;
  char   *mark_names[4];
  guint   mark_hosts[4];
  gint64  mark_times[4];
} Where;

static void
where_get (SlTimelineView *view,
           Where          *w)
{
  g_autoptr(GArray) pins = sl_timeline_view_dup_pinned_rows (view);

  memset (w, 0, sizeof *w);
  w->filter = sl_timeline_view_get_row_filter (view);
  sl_timeline_view_get_process_tree (view, &w->tree_host, &w->tree_pid);
  w->selected = sl_timeline_view_get_selected_row (view);
  w->n_pins = MIN (pins->len, 4);
  for (guint i = 0; i < w->n_pins; i++)
    w->pins[i] = g_array_index (pins, guint, i);
  w->has_msg = sl_timeline_view_get_selected_message (view, &w->msg);
  sl_timeline_view_get_span (view, &w->span[0], &w->span[1]);
  w->sel[0] = sl_session_get_selected_span (sl_timeline_view_get_session (view))->begin;
  w->sel[1] = sl_session_get_selected_span (sl_timeline_view_get_session (view))->end;
  w->n_marks = MIN (sl_timeline_view_get_n_bookmarks (view), 4);
  for (guint i = 0; i < w->n_marks; i++)
    {
      const char *name;

      sl_timeline_view_get_bookmark (view, i, &name, &w->mark_hosts[i], &w->mark_times[i]);
      w->mark_names[i] = g_strdup (name);
    }
}

static void
where_clear (Where *w)
{
  for (guint i = 0; i < w->n_marks; i++)
    g_free (w->mark_names[i]);
}

/* Where one was, saved to a file, opened again in a new window: the same
 * rows, filters, pins, selection, message, span and bookmarks */
static void
test_session_file (void)
{
  SlTimelineView *view = NULL;
  SlWindow *window = open_django (&view);
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  SlTimeline *tl;
  SlTimelineArrow a;
  Where before, after;
  gint64 lo, hi;

  if (window == NULL)
    return;
  tl = sl_timeline_view_get_timeline (view);
  dir = g_dir_make_tmp ("syncline-session-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "django" SL_SESSION_FILE_SUFFIX, NULL);

  /* somewhere: filters, a pin, a tree, a message, a thread, spans, marks */
  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  activate (view, "timeline.hide-kernel", NULL);
  activate (view, "timeline.select-thread", g_variant_new_string ("postgres"));
  activate (view, "timeline.toggle-pin", NULL);
  a = find_message (view, 0, "python");
  activate (view, "timeline.select-message", g_variant_new ("(uuxx)", a.send_host, a.recv_host, a.send_time,
                                                            a.recv_time));
  activate (view, "timeline.select-row", g_variant_new_uint32 (a.send_row));
  activate (view, "timeline.set-span", g_variant_new ("(xx)", lo + (hi - lo) / 7, lo + (hi - lo) / 3));
  activate (view, "timeline.select-span", g_variant_new ("(xx)", lo + (hi - lo) / 5, lo + (hi - lo) / 4));
  activate (view, "timeline.add-named-bookmark", g_variant_new_string ("the vote"));
  activate (view, "timeline.set-span", g_variant_new ("(xx)", lo + (hi - lo) / 6, lo + (hi - lo) / 2));
  view->has_cursor = FALSE;
  activate (view, "timeline.add-named-bookmark", g_variant_new_string ("after"));
  where_get (view, &before);
  g_assert_true (before.has_msg);
  g_assert_cmpuint (before.n_pins, ==, 1);
  g_assert_cmpuint (before.n_marks, ==, 2);

  g_assert_true (sl_window_save_session (window, path, &error));
  g_assert_no_error (error);
  {
    g_auto(GStrv) recent = g_settings_get_strv (sl_window_get_settings (window), "recent-inputs");
    g_autofree char *text = NULL;

    g_assert_cmpstr (recent[0], ==, path);
    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_test_message ("%s", text);
  }
  ui_close_window (window);

  /* `syncline FILE`: the same path as the recent inputs and the command
   * line */
  window = ui_new_window (NULL, 1500, 1000);
  view = sl_window_get_timeline_view (window);
  {
    const char *paths[] = { path, NULL };

    sl_window_open_paths (window, paths);
  }
  g_assert_true (ui_wait_for (ui_session_settled, sl_window_get_session (window), UI_WAIT_S));
  g_assert_true (ui_wait_for (restored, view, UI_WAIT_S));
  show_timeline (window);
  where_get (view, &after);
  g_assert_cmpuint (after.filter, ==, before.filter);
  g_assert_cmpuint (after.selected, ==, before.selected);
  g_assert_cmpuint (after.n_pins, ==, before.n_pins);
  g_assert_cmpuint (after.pins[0], ==, before.pins[0]);
  g_assert_true (after.has_msg);
  g_assert_cmpint (after.msg.send_time, ==, before.msg.send_time);
  g_assert_cmpint (after.msg.recv_time, ==, before.msg.recv_time);
  g_assert_cmpuint (after.msg.send_host, ==, before.msg.send_host);
  g_test_message ("span %" G_GINT64_FORMAT "…%" G_GINT64_FORMAT " again %" G_GINT64_FORMAT "…%" G_GINT64_FORMAT,
                  before.span[0], before.span[1], after.span[0], after.span[1]);
  g_assert_cmpint (ABS (after.span[0] - before.span[0]), <=, 2);
  g_assert_cmpint (ABS (after.span[1] - before.span[1]), <=, 2);
  g_assert_cmpint (ABS (after.sel[0] - before.sel[0]), <=, 2);
  g_assert_cmpint (ABS (after.sel[1] - before.sel[1]), <=, 2);
  g_assert_cmpuint (after.n_marks, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpstr (after.mark_names[i], ==, before.mark_names[i]);
      g_assert_cmpuint (after.mark_hosts[i], ==, before.mark_hosts[i]);
      g_assert_cmpint (after.mark_times[i], ==, before.mark_times[i]);
    }
  where_clear (&before);
  where_clear (&after);

  /* closing with something new offers to save it, into the recent inputs */
  activate (view, "timeline.add-named-bookmark", g_variant_new_string ("one more"));
  {
    g_autoptr(GSettings) settings = g_object_ref (sl_window_get_settings (window));
    GListModel *toplevels = gtk_window_get_toplevels ();
    AdwMessageDialog *dialog = NULL;
    g_auto(GStrv) recent = NULL;

    gtk_window_close (GTK_WINDOW (window));
    for (guint i = 0; i < g_list_model_get_n_items (toplevels) && dialog == NULL; i++)
      {
        g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

        if (ADW_IS_MESSAGE_DIALOG (w) && gtk_window_get_transient_for (GTK_WINDOW (w)) == GTK_WINDOW (window))
          dialog = ADW_MESSAGE_DIALOG (w);
      }
    g_assert_nonnull (dialog);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
    adw_message_dialog_response (dialog, "save");
    recent = g_settings_get_strv (settings, "recent-inputs");
    g_test_message ("saved on closing: %s", recent[0]);
    g_assert_true (g_str_has_suffix (recent[0], SL_SESSION_FILE_SUFFIX));
    g_assert_true (g_str_has_prefix (recent[0], g_get_user_data_dir ()));
    g_assert_true (g_file_test (recent[0], G_FILE_TEST_IS_REGULAR));
    {
      g_autoptr(SlSessionFile) f = sl_session_file_load (recent[0], &error);

      g_assert_no_error (error);
      g_assert_cmpuint (f->bookmarks->len, ==, 3);
    }
    g_unlink (recent[0]);
    g_settings_reset (settings, "recent-inputs");
  }
  g_assert_finalize_object (window);
  g_unlink (path);
  g_rmdir (dir);

  /* a broken file says what is wrong, naming it (in a folder of this
   * run's own: two runs at once must not share it) */
  {
    g_autofree char *own = g_dir_make_tmp ("syncline-broken-XXXXXX", &error);
    g_autofree char *bad = NULL;
    const char *paths[] = { NULL, NULL };

    g_assert_no_error (error);
    bad = g_build_filename (own, "broken" SL_SESSION_FILE_SUFFIX, NULL);
    paths[0] = bad;

    g_assert_true (g_file_set_contents (bad, "[Session]\nInputs=/nowhere\n[View]\nHost=a\nStart=soon\n", -1, NULL));
    window = ui_new_window (NULL, 800, 600);
    sl_window_open_paths (window, paths);
    g_assert_true (sl_window_get_banner_visible (window));
    g_test_message ("%s", sl_window_get_banner_text (window));
    g_assert_nonnull (strstr (sl_window_get_banner_text (window), bad));
    g_assert_nonnull (strstr (sl_window_get_banner_text (window), "“soon” is not a number"));
    ui_close_window (window);
    g_unlink (bad);
    g_rmdir (own);
  }
}

/* At a coarse zoom, messages folded per link and column are drawn by their
 * ends: pointed at, they tell how many there are */
static void
test_coarse (void)
{
  g_autoptr(SlTimelineSynth) synth = sl_timeline_synth_new (8, 200000, 30000, 3);
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  SlTimelineView *view = g_object_new (SL_TYPE_TIMELINE_VIEW, NULL);
  const SlTransform *tr = (const SlTransform *) (gpointer) synth->to_reference->data;
  UiPixels p = { 0 };
  guint checked = 0;
  int scroll;

  g_object_ref (window);
  gtk_window_set_child (window, GTK_WIDGET (view));
  gtk_window_set_default_size (window, 1400, 900);
  gtk_window_present (window);
  ui_wait_mapped (sl_timeline_view_get_canvas (view));
  sl_timeline_view_set_timeline (view, synth->timeline, (const SlEventStore * const *) synth->stores->pdata, 8);
  for (guint h = 0; h < 8; h++)
    sl_timeline_view_set_host_clock (view, h, &tr[h], 0, 1000);
  sl_timeline_view_set_all_expanded (view, TRUE);
  activate (view, "timeline.fit", NULL);
  settle (view);
  g_assert_true (view->arrows_coarse);
  render (view, "timeline-coarse.png", &p);
  scroll = (int) gtk_adjustment_get_value (view->vadj);
  for (guint i = 0; i < view->arrows->len && checked < 20; i++)
    {
      const SlTimelineArrow *a = &g_array_index (view->arrows, SlTimelineArrow, i);
      SlTlvSegment seg[2], full[2];
      SlTimelineArrow got;
      double mx, my;
      gboolean clear = TRUE;

      if (a->count < 2 || _sl_timeline_view_arrow_segments (view, a, scroll, TRUE, seg) != 2)
        continue;
      _sl_timeline_view_arrow_segments (view, a, scroll, FALSE, full);
      /* a place on the whole line, beyond the sender's stub, far from
       * everything drawn */
      {
        double len = hypot (full[0].x1 - full[0].x0, full[0].y1 - full[0].y0);

        mx = full[0].x0 + (full[0].x1 - full[0].x0) * 40 / len;
        my = full[0].y0 + (full[0].y1 - full[0].y0) * 40 / len;
      }
      if (my < 2 || my > view->rows_h - 2 || mx < 2 || mx > view->plot_w - 2 || seg[0].y1 < 0 ||
          seg[0].y1 > view->rows_h)
        continue;
      for (guint k = 0; k < view->arrows->len && clear; k++)
        {
          SlTlvSegment o[2];
          guint n = _sl_timeline_view_arrow_segments (view, &g_array_index (view->arrows, SlTimelineArrow, k),
                                                      scroll, TRUE, o);

          for (guint j = 0; j < n; j++)
            {
              double dx = o[j].x1 - o[j].x0, dy = o[j].y1 - o[j].y0, l2 = dx * dx + dy * dy;
              double u = l2 > 0 ? CLAMP (((mx - o[j].x0) * dx + (my - o[j].y0) * dy) / l2, 0, 1) : 0;

              /* (arrow heads reach 8 px from their line) */
              clear &= hypot (o[j].x0 + u * dx - mx, o[j].y0 + u * dy - my) > 10;
            }
        }
      if (!clear)
        continue;
      /* not drawn along its whole length: no wall */
      g_assert_cmpuint (ui_count_near (&p, SL_TLV_LABEL_W + mx, SL_TLV_RULER_H + my, 1, SL_TIMELINE_RGB_ARROW, 40),
                        ==, 0);
      g_assert_false (_sl_timeline_view_arrow_at (view, mx, my, &got) && got.send_time == a->send_time);
      /* its stubs are, and point at it */
      g_assert_cmpuint (ui_count_near (&p, SL_TLV_LABEL_W + (seg[0].x0 + seg[0].x1) / 2,
                                       SL_TLV_RULER_H + (seg[0].y0 + seg[0].y1) / 2, 1, SL_TIMELINE_RGB_ARROW, 60),
                        >=, 1);
      g_assert_true (_sl_timeline_view_arrow_at (view, (seg[0].x0 + seg[0].x1) / 2, (seg[0].y0 + seg[0].y1) / 2,
                                                 &got));
      g_assert_cmpuint (got.send_host, ==, a->send_host);
      /* how many there are, told by the tooltip */
      {
        g_autofree char *tip = _sl_timeline_view_arrow_tooltip (view, a);
        g_autofree char *want = g_strdup_printf ("%u messages node-%02u → node-%02u in this column", a->count,
                                                 a->send_host + 1, a->recv_host + 1);

        if (!g_str_has_prefix (tip, want))
          g_error ("tooltip “%s”, expected “%s…”", tip, want);
      }
      checked++;
    }
  g_test_message ("%u folded messages checked of %u drawn", checked, view->arrows->len);
  g_assert_cmpuint (checked, >=, 5);
  ui_pixels_clear (&p);

  sl_timeline_view_set_timeline (view, NULL, NULL, 0);
  gtk_window_destroy (window);
  g_assert_finalize_object (window);
}

/* Generated hosts, the way a live session feeds the view */

/* A window of 1200 × 800 showing a new timeline view alone. */
static GtkWindow *
view_window (SlTimelineView **view)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  *view = g_object_new (SL_TYPE_TIMELINE_VIEW, NULL);
  g_object_ref (window);
  gtk_window_set_child (window, GTK_WIDGET (*view));
  gtk_window_set_default_size (window, 1200, 800);
  gtk_window_present (window);
  ui_wait_mapped (sl_timeline_view_get_canvas (*view));
  return window;
}

/* Host 1's position at every frame painted while its clock moves */
typedef struct
{
  SlTimelineView *view;
  gint64          anim_start;
  gint64          local;
  double          from;
  double          to;
  guint           during;
  guint           after;
} ClockFrames;

static void
clock_frame_cb (GdkFrameClock *clock,
                gpointer       data)
{
  ClockFrames *m = data;
  double x = sl_timeline_view_host_time_to_x (m->view, 1, m->local);

  if (gdk_frame_clock_get_frame_time (clock) - m->anim_start < SL_TLV_ANIM_US)
    {
      if (x < m->from - 0.5 || x > m->to + 0.5)
        g_error ("frame during the move: host 1 at %.1f, outside %.1f – %.1f", x, m->from, m->to);
      m->during++;
    }
  else
    {
      if (fabs (x - m->to) >= 1)
        g_error ("frame after the move: host 1 at %.1f, not at its end %.1f", x, m->to);
      m->after++;
    }
}

static void
test_clocks (void)
{
  ClockFrames moving = { 0 };
  gulong after_paint;
  g_autoptr(SlTimelineSynth) synth = sl_timeline_synth_new (3, 40000, 800, 7);
  SlTimelineView *view;
  GtkWindow *window = view_window (&view);
  const SlTransform *tr = (const SlTransform *) (gpointer) synth->to_reference->data;
  SlTransform moved, inv;
  gint64 lo, hi, s0, e0, s1, e1, local1, local0;
  double x_before, x_mid, x_after, shift, x0_before, x1_before;
  SlEventStore *store0 = g_ptr_array_index (synth->stores, 0);
  UiPixels p = { 0 };

  sl_timeline_view_set_timeline (view, synth->timeline, (const SlEventStore * const *) synth->stores->pdata, 3);
  for (guint h = 0; h < 3; h++)
    sl_timeline_view_set_host_clock (view, h, &tr[h], 0, 1000);
  g_assert_true (sl_timeline_get_view_range (synth->timeline, &lo, &hi));
  sl_timeline_view_set_span (view, lo + (hi - lo) / 2, lo + (hi - lo) / 2 + 2000000);
  settle (view);
  render (view, "timeline-generated.png", &p);
  /* some state of host 0's first process is drawn */
  {
    guint n = 0;

    for (guint s = SL_TIMELINE_STATE_USER; s <= SL_TIMELINE_STATE_BLOCKED; s++)
      n += ui_count_color (&p, sl_timeline_view_state_rgb (s), 4);
    g_assert_cmpuint (n, >, 1000);
  }
  ui_pixels_clear (&p);

  /* host 1's clock moves by 100 µs: gradually, over about 300 ms */
  sl_timeline_view_get_span (view, &s0, &e0);
  sl_transform_invert (&tr[1], &inv);
  local1 = sl_transform_apply (&inv, s0 + (e0 - s0) / 2);
  x_before = sl_timeline_view_host_time_to_x (view, 1, local1);
  moved = tr[1];
  moved.image += 100000;
  sl_timeline_view_set_host_clock (view, 1, &moved, 0, 1000);
  g_assert_true (sl_timeline_view_get_animating (view));
  shift = 100000.0 * (sl_timeline_view_time_to_x (view, e0) - sl_timeline_view_time_to_x (view, s0)) / (double) (e0 - s0);
  /* 90 ms into the animation, stepped as a frame at that instant would: a
   * wait of 90 ms on a loaded machine may see no frame, or the end */
  moving.anim_start = _sl_timeline_view_clock (view, 1)->anim_start;
  g_assert_cmpint (moving.anim_start, !=, 0);
  _sl_timeline_view_step_clocks (view, moving.anim_start + 90000);
  x_mid = sl_timeline_view_host_time_to_x (view, 1, local1);
  g_test_message ("host 1 moves from %.1f: %.1f after 90 ms, by %.1f px in all", x_before, x_mid, shift);
  g_assert_cmpfloat (x_mid, >, x_before + 1);
  g_assert_cmpfloat (x_mid, <, x_before + shift - 1);
  g_assert_true (sl_timeline_view_get_animating (view));
  /* then the frames carry it on: each painted frame shows it between its
   * ends while the animation lasts (by its frame time), at its end after */
  moving.view = view;
  moving.local = local1;
  moving.from = x_before;
  moving.to = x_before + shift;
  after_paint = g_signal_connect (gtk_widget_get_frame_clock (sl_timeline_view_get_canvas (view)), "after-paint",
                                  G_CALLBACK (clock_frame_cb), &moving);
  settle (view);
  g_signal_handler_disconnect (gtk_widget_get_frame_clock (sl_timeline_view_get_canvas (view)), after_paint);
  g_test_message ("%u frames during the move, %u after it", moving.during, moving.after);
  g_assert_cmpuint (moving.after, >, 0);
  x_after = sl_timeline_view_host_time_to_x (view, 1, local1);
  g_assert_cmpfloat (fabs (x_after - (x_before + shift)), <, 1);
  /* the others stayed */
  sl_timeline_view_get_span (view, &s1, &e1);
  g_assert_cmpint (s1, ==, s0);

  /* a new reference: every host's map changes by 5 s, nothing jumps */
  sl_transform_invert (&tr[0], &inv);
  local0 = sl_transform_apply (&inv, s0 + (e0 - s0) / 3);
  x0_before = sl_timeline_view_host_time_to_x (view, 0, local0);
  x1_before = sl_timeline_view_host_time_to_x (view, 1, local1);
  for (guint h = 0; h < 3; h++)
    {
      SlTransform m = h == 1 ? moved : tr[h];

      m.image += G_GINT64_CONSTANT (5000000000);
      sl_timeline_view_set_host_clock (view, h, &m, 2, 1000);
    }
  g_assert_cmpfloat (fabs (sl_timeline_view_host_time_to_x (view, 0, local0) - x0_before), <, 1);
  g_assert_cmpfloat (fabs (sl_timeline_view_host_time_to_x (view, 1, local1) - x1_before), <, 1);
  sl_timeline_view_get_span (view, &s1, &e1);
  g_assert_cmpint (ABS (s1 - (s0 + G_GINT64_CONSTANT (5000000000))), <, 2000);
  settle (view);
  g_assert_cmpfloat (fabs (sl_timeline_view_host_time_to_x (view, 1, local1) - x1_before), <, 1);

  /* following the end: new events move the span with them */
  sl_timeline_view_set_follow (view, TRUE);
  sl_timeline_view_get_span (view, &s0, &e0);
  g_assert_true (sl_timeline_get_view_range (synth->timeline, &lo, &hi));
  g_assert_cmpint (e0, ==, hi);
  {
    gint64 last = 0;
    SlEvent e = { 0 };

    sl_event_store_get_time_range (store0, NULL, &last);
    for (guint k = 1; k <= 50; k++)
      {
        e.time = last + k * 100000;
        e.kind = SL_EVENT_SCHED_SWITCH;
        e.tid = k % 2 ? 1000 : 1008;
        e.arg = k % 2 ? 1008 : 1000;
        e.cpu = 0;
        sl_event_store_append (store0, &e);
      }
    g_assert_true (sl_timeline_update (synth->timeline));
    sl_timeline_view_data_changed (view);
  }
  /* it scrolls there at the frame rate (here more than a span behind: in
   * one step; the live test checks the even steps) */
  g_assert_true (sl_timeline_view_get_animating (view));
  settle (view);
  g_assert_true (sl_timeline_get_view_range (synth->timeline, &lo, &hi));
  sl_timeline_view_get_span (view, &s1, &e1);
  g_assert_cmpint (e1, ==, hi);
  g_assert_cmpint (e1, >, e0);
  g_assert_cmpint (e1 - s1, ==, e0 - s0);

  sl_timeline_view_set_timeline (view, NULL, NULL, 0);
  gtk_window_destroy (window);
  g_assert_finalize_object (window);
}

/* Whether a message's line passes within @r px of @x between heights
 * @y0 and @y1 (lines are drawn from end to end; a row out of the layout
 * draws its messages on its parent's line) */
static gboolean
near_message_line (SlTimelineView *view,
                   GArray         *arrows,
                   double          x,
                   double          y0,
                   double          y1,
                   double          r)
{
  SlTimeline *tl = sl_timeline_view_get_timeline (view);

  for (guint i = 0; i < arrows->len; i++)
    {
      const SlTimelineArrow *c = &g_array_index (arrows, SlTimelineArrow, i);
      guint rows[2] = { c->send_row, c->recv_row };
      double ys[2], xs[2], xa, xb;
      gboolean shown = TRUE;

      for (guint e = 0; e < 2; e++)
        {
          SlTimelineRowInfo ri;
          guint depth = 0;

          while (!sl_timeline_view_get_row_y (view, rows[e], &ys[e]) && depth++ < 3)
            {
              sl_timeline_get_row_info (tl, rows[e], &ri);
              rows[e] = ri.parent;
            }
          shown &= depth <= 3;
        }
      if (!shown || ys[0] == ys[1] || MAX (ys[0], ys[1]) < y0 || MIN (ys[0], ys[1]) > y1)
        continue;
      xs[0] = sl_timeline_view_host_time_to_x (view, c->send_host, c->send_time);
      xs[1] = sl_timeline_view_host_time_to_x (view, c->recv_host, c->recv_time);
      xa = xs[0] + (xs[1] - xs[0]) * (CLAMP (y0, MIN (ys[0], ys[1]), MAX (ys[0], ys[1])) - ys[0]) / (ys[1] - ys[0]);
      xb = xs[0] + (xs[1] - xs[0]) * (CLAMP (y1, MIN (ys[0], ys[1]), MAX (ys[0], ys[1])) - ys[0]) / (ys[1] - ys[0]);
      if (x >= MIN (xa, xb) - r && x <= MAX (xa, xb) + r)
        return TRUE;
    }
  return FALSE;
}

/* A host whose map to the view is piecewise (a clock that stepped by
 * 3 ms halfway): its states and its messages' ends are drawn through
 * that map, the same one, not through its representative linear piece.
 * What is expected comes from the relation itself, not from the view. */
static void
test_piecewise_host (void)
{
  g_autoptr(SlTimelineSynth) synth = sl_timeline_synth_new (2, 40000, 600, 5);
  g_autoptr(SlRelation) rel = NULL;
  g_autoptr(GArray) arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  const SlTransform *tr = (const SlTransform *) (gpointer) synth->to_reference->data;
  SlTimeline *tl = synth->timeline;
  SlEventStore *store1 = g_ptr_array_index (synth->stores, 1);
  SlTimelineView *view;
  GtkWindow *window = view_window (&view);
  SlTimelineArrow a = { 0 };
  gint64 first, last, step_at, lo, hi, recv_view, rep_view;
  const gint64 step = 3000000;
  double xr, y;
  guint checked = 0, other = 0;
  gboolean found = FALSE;
  UiPixels p = { 0 };

  sl_event_store_get_time_range (store1, &first, &last);
  step_at = first + (last - first) / 2;
  {
    gint64 starts[2] = { G_MININT64, step_at };
    SlTransform maps[2];
    SlBoundPoint bounds[2] = { { first, 1000 }, { last, 1000 } };

    maps[0] = tr[1];
    sl_transform_rebase (&tr[1], step_at, &maps[1]);
    maps[1].image += step;
    rel = sl_relation_new (starts, maps, 2, bounds, 2, TRUE);
  }
  g_assert_cmpuint (sl_relation_get_n_pieces (rel), ==, 2);

  sl_timeline_view_set_timeline (view, tl, (const SlEventStore * const *) synth->stores->pdata, 2);
  sl_timeline_set_host_relation (tl, 1, rel, &tr[1]);
  sl_timeline_view_set_host_clock (view, 0, &tr[0], 0, 1000);
  sl_timeline_view_set_host_clock (view, 1, &tr[1], 0, 1000);

  /* a message to a thread of host 1 well after the step */
  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  sl_timeline_query_arrows (tl, lo, hi, 0, SL_TIMELINE_NONE, SL_TIMELINE_NONE, SL_TIMELINE_NONE, arrows);
  for (guint i = 0; i < arrows->len && !found; i++)
    {
      const SlTimelineArrow *c = &g_array_index (arrows, SlTimelineArrow, i);
      SlTimelineRowInfo ri;

      sl_timeline_get_row_info (tl, c->recv_row, &ri);
      if (c->recv_host == 1 && c->recv_time > step_at + (last - step_at) / 4 &&
          ri.kind == SL_TIMELINE_ROW_THREAD)
        {
          a = *c;
          found = TRUE;
        }
    }
  g_assert_true (found);
  recv_view = sl_relation_apply (rel, a.recv_time);
  rep_view = sl_transform_apply (&tr[1], a.recv_time);
  g_assert_cmpint (recv_view - rep_view, ==, step);
  g_assert_cmpint (sl_timeline_to_view (tl, 1, a.recv_time), ==, recv_view);

  /* 1 ms around the receive: the representative piece is 3 ms away */
  activate (view, "timeline.set-span", g_variant_new ("(xx)", recv_view - 500000, recv_view + 500000));
  activate (view, "timeline.select-message", g_variant_new ("(uuxx)", a.send_host, a.recv_host, a.send_time,
                                                            a.recv_time));
  activate (view, "timeline.message-other-end", NULL);
  activate (view, "timeline.set-span", g_variant_new ("(xx)", recv_view - 500000, recv_view + 500000));
  settle (view);
  g_assert_cmpuint (sl_timeline_view_get_selected_row (view), ==, a.recv_row);
  render (view, "timeline-piecewise.png", &p);
  xr = sl_timeline_view_time_to_x (view, recv_view);
  y = ui_row_y (view, a.recv_row);
  g_test_message ("receive at view %" G_GINT64_FORMAT " (x %.1f, y %.0f); its piece is %" G_GINT64_FORMAT
                  " ns from the representative one", recv_view, xr, y, step);
  g_assert_cmpfloat (fabs (sl_timeline_view_host_time_to_x (view, 1, a.recv_time) - xr), <, 0.5);
  g_assert_true (on_rows (view, y));
  /* the message's end, marked where the relation puts it */
  g_assert_cmpuint (ui_count_near (&p, xr, y, 6, SL_TIMELINE_RGB_SELECTION, 40), >=, 10);

  /* the row's states, each pixel in the colour of the state the relation
   * puts there */
  for (double cx = SL_TLV_LABEL_W + 2; cx < p.width - 2; cx += 7)
    {
      gint64 local = sl_relation_preimage (rel, sl_timeline_view_x_to_time (view, cx));
      guint64 k = sl_timeline_find_interval (tl, a.recv_row, local);
      SlTimelineInterval iv;
      double xs, xe;

      if (k == G_MAXUINT64)
        continue;
      sl_timeline_get_interval (tl, a.recv_row, k, &iv);
      xs = sl_timeline_view_time_to_x (view, sl_relation_apply (rel, iv.start));
      xe = sl_timeline_view_time_to_x (view, sl_relation_apply (rel, iv.end));
      /* (away from the marked end and from the messages' lines) */
      if (xs > cx - 4 || xe < cx + 4 || fabs (cx - xr) < 10 || iv.state == SL_TIMELINE_STATE_NONE ||
          iv.state == SL_TIMELINE_STATE_EXITED || near_message_line (view, arrows, cx, y - 5, y - 1, 3))
        continue;
      if (ui_count_near (&p, cx, y - 3, 2, sl_timeline_view_state_rgb (iv.state), 6) < 15)
        g_test_message ("column %.0f: %s from %.1f to %.1f", cx, sl_timeline_state_to_string (iv.state), xs, xe);
      g_assert_cmpuint (ui_count_near (&p, cx, y - 3, 2, sl_timeline_view_state_rgb (iv.state), 6), >=, 15);
      checked++;
      /* what the representative piece would have shown there */
      {
        SlTransform inv;
        SlTimelineInterval ir;
        guint64 kr;

        sl_transform_invert (&tr[1], &inv);
        kr = sl_timeline_find_interval (tl, a.recv_row,
                                        sl_transform_apply (&inv, sl_timeline_view_x_to_time (view, cx)));
        if (kr != G_MAXUINT64)
          sl_timeline_get_interval (tl, a.recv_row, kr, &ir);
        other += kr == G_MAXUINT64 || ir.state != iv.state;
      }
    }
  g_test_message ("%u columns checked, %u of them in another state on the linear piece", checked, other);
  g_assert_cmpuint (checked, >=, 10);
  /* (else this test could not tell the two maps apart) */
  g_assert_cmpuint (other, >=, checked / 4);
  ui_pixels_clear (&p);

  sl_timeline_view_set_timeline (view, NULL, NULL, 0);
  gtk_window_destroy (window);
  g_assert_finalize_object (window);
}

/* The span fitted to the data (on opening, Home) follows the clocks: the
 * model can come before its clocks (an input read at once), and a span
 * fitted to raw clocks 800 s apart once showed 806 s of 20 s of data. */
static void
check_fitted (SlTimelineView *view,
              SlTimeline     *tl)
{
  gint64 lo, hi, s, e, margin;

  g_assert_true (sl_timeline_get_view_range (tl, &lo, &hi));
  margin = MAX ((hi - lo) / 100, 500);
  sl_timeline_view_get_span (view, &s, &e);
  g_test_message ("data %.3f s, span %.3f s", (hi - lo) / 1e9, (e - s) / 1e9);
  g_assert_cmpint (s, ==, lo - margin);
  g_assert_cmpint (e, ==, hi + margin);
}

/* A timeline whose hosts have no event yet (a live session's before its
 * first event): no status line of an empty span, and the canvas says what
 * it waits for instead of drawing a ruler at 00:00:00. */
static void
test_no_event_yet (void)
{
  SlTimeline *tl = sl_timeline_new ();
  SlEventStore *store = sl_event_store_new ();
  const SlEventStore *stores[1] = { store };
  SlTimelineView *view;
  GtkWindow *window = view_window (&view);
  UiPixels p = { 0 };
  guint n_ruler = 0;

  sl_timeline_set_host (tl, 0, "quiet", store);
  sl_timeline_update (tl);
  sl_timeline_view_set_timeline (view, tl, stores, 1);
  ui_wait_frames (sl_timeline_view_get_canvas (view), 3);
  g_assert_false (sl_timeline_get_view_range (tl, NULL, NULL));
  g_test_message ("status: \"%s\"", sl_status_line_get_text (view->status_label));
  g_assert_cmpstr (sl_status_line_get_text (view->status_label), ==, "");
  render (view, "timeline-no-event.png", &p);
  /* the placeholder's text is in the middle; the ruler's band stays empty */
  for (int y = 0; y < SL_TLV_RULER_H; y++)
    for (int x = SL_TLV_LABEL_W; x < p.width; x++)
      n_ruler += !ui_color_near (ui_pixel (&p, x, y), ui_pixel (&p, SL_TLV_LABEL_W, 0), 40);
  g_assert_cmpuint (n_ruler, ==, 0);
  ui_pixels_clear (&p);

  sl_timeline_view_set_timeline (view, NULL, NULL, 0);
  gtk_window_destroy (window);
  g_assert_finalize_object (window);
  sl_timeline_free (tl);
  sl_event_store_free (store);
}

static void
test_fit_follows_clocks (void)
{
  g_autoptr(SlTimelineSynth) synth = sl_timeline_synth_new (3, 40000, 800, 11);
  SlTimelineView *view;
  GtkWindow *window = view_window (&view);
  const SlTransform *tr = (const SlTransform *) (gpointer) synth->to_reference->data;
  gint64 s0, e0, s1, e1;

  /* no clock yet: each host on its own */
  sl_timeline_view_set_timeline (view, synth->timeline, (const SlEventStore * const *) synth->stores->pdata, 3);
  check_fitted (view, synth->timeline);
  /* host 1 800 s away */
  for (guint h = 0; h < 3; h++)
    {
      SlTransform m = tr[h];

      if (h == 1)
        m.image += G_GINT64_CONSTANT (800000000000);
      sl_timeline_view_set_host_clock (view, h, &m, 0, 1000);
    }
  check_fitted (view, synth->timeline);
  sl_timeline_view_get_span (view, &s0, &e0);
  g_assert_cmpint (e0 - s0, >, G_GINT64_CONSTANT (800000000000));
  /* then together: the span is the data's again, not 800 s */
  for (guint h = 0; h < 3; h++)
    sl_timeline_view_set_host_clock (view, h, &tr[h], 0, 1000);
  check_fitted (view, synth->timeline);
  g_assert_false (sl_timeline_view_get_animating (view));
  sl_timeline_view_get_span (view, &s0, &e0);
  g_assert_cmpint (e0 - s0, <, G_GINT64_CONSTANT (100000000000));
  /* raw clocks and back */
  activate (view, "timeline.toggle-sync", NULL);
  check_fitted (view, synth->timeline);
  activate (view, "timeline.toggle-sync", NULL);
  check_fitted (view, synth->timeline);

  /* once the user moved the span, a clock change moves what is drawn,
   * not the span's width */
  activate (view, "timeline.zoom-in", NULL);
  sl_timeline_view_get_span (view, &s0, &e0);
  {
    SlTransform m = tr[1];

    m.image += G_GINT64_CONSTANT (800000000000);
    sl_timeline_view_set_host_clock (view, 1, &m, 0, 1000);
  }
  sl_timeline_view_get_span (view, &s1, &e1);
  g_assert_cmpint (e1 - s1, ==, e0 - s0);
  settle (view);
  activate (view, "timeline.fit", NULL);
  check_fitted (view, synth->timeline);

  sl_timeline_view_set_timeline (view, NULL, NULL, 0);
  gtk_window_destroy (window);
  g_assert_finalize_object (window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/timeline-ui/colours", test_colours);
  g_test_add_func ("/timeline-ui/django-vote", test_django);
  g_test_add_func ("/timeline-ui/clocks", test_clocks);
  g_test_add_func ("/timeline-ui/piecewise-host", test_piecewise_host);
  g_test_add_func ("/timeline-ui/fit-follows-clocks", test_fit_follows_clocks);
  g_test_add_func ("/timeline-ui/no-event-yet", test_no_event_yet);
  g_test_add_func ("/timeline-ui/rows", test_rows);
  g_test_add_func ("/timeline-ui/messages", test_messages);
  g_test_add_func ("/timeline-ui/coarse", test_coarse);
  g_test_add_func ("/timeline-ui/find", test_find);
  g_test_add_func ("/timeline-ui/measure", test_measure);
  g_test_add_func ("/timeline-ui/row-labels", test_row_labels);
  g_test_add_func ("/timeline-ui/status-line", test_status_line);
  g_test_add_func ("/timeline-ui/bookmarks", test_bookmarks);
  g_test_add_func ("/timeline-ui/request", test_request);
  g_test_add_func ("/timeline-ui/session-file", test_session_file);
  return g_test_run ();
}
