/* ui-test-util.h: waiting, rendering and reading pixels in UI tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <math.h>
#include <adwaita.h>

#include "sl-row-table.h"
#include "sl-text-cell-private.h"
#include "sl-window.h"

typedef gboolean (*UiCondition) (gpointer data);

/* How long a wait for something that must come may last before the test
 * fails: only there to keep a broken build from hanging. A machine whose
 * 2 cores carry 40 runnable processes paints a frame in seconds, and
 * tests never assert how long things take. */
#define UI_WAIT_S 120

static gboolean
ui_timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @cond holds or @timeout_s passes. */
static G_GNUC_UNUSED gboolean
ui_wait_for (UiCondition cond,
             gpointer    data,
             double      timeout_s)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add ((guint) (timeout_s * 1000), ui_timeout_cb, &timed_out);

  while (!cond (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  return cond (data);
}

static G_GNUC_UNUSED void
ui_wait_ms (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, ui_timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
ui_after_paint_cb (GdkFrameClock *clock,
                   guint         *count)
{
  (*count)++;
}

/* Waits until the toplevel of @widget has painted @n more frames (frames
 * of the window, not drawings of @widget: see ui_wait_drawn()). */
static G_GNUC_UNUSED void
ui_wait_frames (GtkWidget *widget,
                guint      n)
{
  GdkFrameClock *clock;
  guint count = 0;
  gulong id;
  gboolean timed_out = FALSE;
  guint timeout;

  g_assert_true (gtk_widget_get_mapped (widget));
  clock = gtk_widget_get_frame_clock (widget);
  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (ui_after_paint_cb), &count);
  timeout = g_timeout_add_seconds (UI_WAIT_S, ui_timeout_cb, &timed_out);
  while (count < n && !timed_out)
    {
      gtk_widget_queue_draw (widget);
      g_main_context_iteration (NULL, TRUE);
    }
  if (timed_out)
    g_error ("%u of %u frames painted in %d s", count, n, UI_WAIT_S);
  g_source_remove (timeout);
  g_signal_handler_disconnect (clock, id);
}

/* Waits until @widget itself has been drawn again: frames of its window
 * are not counted, the widget's own picture is waited for
 * (sl_widget_has_picture()). The loop returns right after the main loop
 * iteration that painted it: no session update came in between, and what
 * the widget shows is the state the test reads now. */
static G_GNUC_UNUSED void
ui_wait_drawn (GtkWidget *widget)
{
  gboolean timed_out = FALSE;
  guint timeout;

  g_assert_true (gtk_widget_get_mapped (widget));
  timeout = g_timeout_add_seconds (UI_WAIT_S, ui_timeout_cb, &timed_out);
  gtk_widget_queue_draw (widget);
  while (!sl_widget_has_picture (widget) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (timed_out)
    g_error ("%s (mapped: %d, %d × %d) not drawn in %d s, or it draws nothing", G_OBJECT_TYPE_NAME (widget),
             gtk_widget_get_mapped (widget), gtk_widget_get_width (widget), gtk_widget_get_height (widget),
             UI_WAIT_S);
  g_source_remove (timeout);
}

/* Draws @widget again until @cond holds right after a drawing (the
 * picture then shows what @cond saw). */
static G_GNUC_UNUSED void
ui_wait_drawn_until (GtkWidget   *widget,
                     UiCondition  cond,
                     gpointer     data)
{
  gint64 end = g_get_monotonic_time () + UI_WAIT_S * G_USEC_PER_SEC;

  do
    {
      if (g_get_monotonic_time () >= end)
        g_error ("%s: the condition did not hold after a drawing within %d s", G_OBJECT_TYPE_NAME (widget),
                 UI_WAIT_S);
      ui_wait_drawn (widget);
    }
  while (!cond (data));
}

static gboolean
ui_mapped_cond (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static G_GNUC_UNUSED void
ui_wait_mapped (GtkWidget *widget)
{
  g_assert_true (ui_wait_for (ui_mapped_cond, widget, UI_WAIT_S));
}

/* @rel under ../shared/data (SL_SHARED_DATA), or NULL when it is absent. */
static G_GNUC_UNUSED char *
ui_shared_path (const char *rel)
{
  const char *root = g_getenv ("SL_SHARED_DATA");
  char *path;

  if (root == NULL)
    return NULL;
  path = g_build_filename (root, rel, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    g_clear_pointer (&path, g_free);
  return path;
}

/* GTK falls back to cairo without a word when GL cannot start: the
 * renderer the test is meant for (SL_TEST_RENDERER) must be the one that
 * draws @widget's window. */
static G_GNUC_UNUSED void
ui_assert_renderer (GtkWidget *widget)
{
  const char *want = g_getenv ("SL_TEST_RENDERER");
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  const char *type;

  if (want == NULL || renderer == NULL)
    return;
  type = G_OBJECT_TYPE_NAME (renderer);
  if (g_str_equal (want, "gl"))
    g_assert_cmpstr (type, ==, "GskGLRenderer");
  else if (g_str_equal (want, "cairo"))
    g_assert_cmpstr (type, ==, "GskCairoRenderer");
}

/* A window of @width × @height on @app (NULL: none), shown and painted
 * once; the caller owns a reference for ui_close_window(). */
static G_GNUC_UNUSED SlWindow *
ui_new_window (GtkApplication *app,
               int             width,
               int             height)
{
  SlWindow *window = sl_window_new (app);

  g_object_ref (window);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  ui_wait_mapped (GTK_WIDGET (window));
  ui_assert_renderer (GTK_WIDGET (window));
  ui_wait_frames (GTK_WIDGET (window), 1);
  return window;
}

/* Destroys @window, checks it is freed, and puts the settings it may
 * have changed back to their defaults for the next test. */
static G_GNUC_UNUSED void
ui_close_window (SlWindow *window)
{
  g_autoptr(GSettings) settings = g_object_ref (sl_window_get_settings (window));

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
  g_settings_reset (settings, "pinned-reference");
  g_settings_reset (settings, "pinned-references");
  g_settings_reset (settings, "relay-address");
  g_settings_reset (settings, "algorithm");
  g_settings_reset (settings, "tree");
  g_settings_reset (settings, "recent-inputs");
  g_settings_reset (settings, "tree-margin");
  g_settings_reset (settings, "live-retention");
}

static gboolean
ui_session_settled (gpointer data)
{
  SlSessionState state = sl_session_get_state (data);

  return state == SL_SESSION_STATE_READY || state == SL_SESSION_STATE_FAILED;
}

/* Waits until @session has read its input (or failed to). */
static G_GNUC_UNUSED void
ui_wait_settled (SlSession *session)
{
  g_assert_true (ui_wait_for (ui_session_settled, session, 120));
}

/* The host every host is synchronized to, checked to be the same for all
 * and the only one marked as reference. */
static G_GNUC_UNUSED guint
ui_reference_of_all (SlSession *session)
{
  GListModel *hosts = sl_session_get_hosts (session);
  guint ref = SL_HOST_NONE, n_refs = 0;

  for (guint i = 0; i < g_list_model_get_n_items (hosts); i++)
    {
      g_autoptr(SlHostItem) h = g_list_model_get_item (hosts, i);

      if (ref == SL_HOST_NONE)
        ref = sl_host_item_get_reference (h);
      g_assert_cmpuint (sl_host_item_get_reference (h), ==, ref);
      if (sl_host_item_get_is_reference (h))
        n_refs++;
    }
  g_assert_cmpuint (n_refs, ==, 1);
  return ref;
}

typedef struct
{
  int     width;
  int     height;
  gsize   stride;
  guchar *data;
} UiPixels;

static G_GNUC_UNUSED void
ui_pixels_clear (UiPixels *p)
{
  g_clear_pointer (&p->data, g_free);
}

/* What @widget showed when it was last drawn, through the window's
 * renderer: right after ui_wait_drawn(), with no draw queued since. */
static G_GNUC_UNUSED void
ui_render_drawn (SlWindow   *window,
                 GtkWidget  *widget,
                 const char *name,
                 UiPixels   *p)
{
  g_autoptr(GdkTexture) texture = sl_window_render_texture (window, widget);
  const char *dir = g_getenv ("SL_SCREENSHOT_DIR");

  if (texture == NULL)
    g_error ("no picture of %s (mapped: %d, %d × %d)", G_OBJECT_TYPE_NAME (widget), gtk_widget_get_mapped (widget),
             gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  /* kept beside the screenshots, to look at when a check fails */
  if (dir != NULL && name != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_assert_true (gdk_texture_save_to_png (texture, path));
    }
  p->width = gdk_texture_get_width (texture);
  p->height = gdk_texture_get_height (texture);
  p->stride = (gsize) p->width * 4;
  p->data = g_malloc (p->stride * p->height);
  gdk_texture_download (texture, p->data, p->stride);
}

/* What @widget shows now: drawn once more, then rendered. */
static G_GNUC_UNUSED void
ui_render (SlWindow   *window,
           GtkWidget  *widget,
           const char *name,
           UiPixels   *p)
{
  ui_wait_drawn (widget);
  ui_render_drawn (window, widget, name, p);
}

/* 0xRRGGBB of the pixel (cairo ARGB32 in memory: B G R A, premultiplied) */
static G_GNUC_UNUSED guint32
ui_pixel (const UiPixels *p,
          int             x,
          int             y)
{
  const guchar *px;
  guint a, r, g, b;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, p->width);
  g_assert_cmpint (y, <, p->height);
  px = p->data + (gsize) y * p->stride + (gsize) x * 4;
  a = px[3];
  if (a == 0)
    return 0;
  b = MIN (255u, px[0] * 255u / a);
  g = MIN (255u, px[1] * 255u / a);
  r = MIN (255u, px[2] * 255u / a);
  return (r << 16) | (g << 8) | b;
}

static G_GNUC_UNUSED gboolean
ui_color_near (guint32 a,
               guint32 b,
               int     tolerance)
{
  for (int shift = 0; shift <= 16; shift += 8)
    if (ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > tolerance)
      return FALSE;
  return TRUE;
}

typedef gboolean (*UiPixelTest) (guint32       c,
                                 gconstpointer data);

/* Pixels within @radius of (@cx, @cy) that pass @test. */
static G_GNUC_UNUSED guint
ui_count_where (const UiPixels *p,
                double          cx,
                double          cy,
                int             radius,
                UiPixelTest     test,
                gconstpointer   data)
{
  guint n = 0;

  for (int y = (int) cy - radius; y <= (int) cy + radius; y++)
    for (int x = (int) cx - radius; x <= (int) cx + radius; x++)
      if (x >= 0 && y >= 0 && x < p->width && y < p->height && test (ui_pixel (p, x, y), data))
        n++;
  return n;
}

typedef struct
{
  guint32 rgb;
  int     tolerance;
} UiNear;

static G_GNUC_UNUSED gboolean
ui_is_near (guint32       c,
            gconstpointer data)
{
  const UiNear *near = data;

  return ui_color_near (c, near->rgb, near->tolerance);
}

/* Pixels within @radius of (@cx, @cy) close to @rgb. */
static G_GNUC_UNUSED guint
ui_count_near (const UiPixels *p,
               double          cx,
               double          cy,
               int             radius,
               guint32         rgb,
               int             tolerance)
{
  UiNear near = { rgb, tolerance };

  return ui_count_where (p, cx, cy, radius, ui_is_near, &near);
}

/* The selection's blue, blended over the background: blue well above red. */
static G_GNUC_UNUSED gboolean
ui_is_bluish (guint32       c,
              gconstpointer data)
{
  return (int) (c & 0xff) - (int) ((c >> 16) & 0xff) > 50;
}

static G_GNUC_UNUSED guint
ui_count_bluish_near (const UiPixels *p,
                      double          cx,
                      double          cy,
                      int             radius)
{
  return ui_count_where (p, cx, cy, radius, ui_is_bluish, NULL);
}

/* Where @row is drawn: its own line, or its process's for a main thread. */
static G_GNUC_UNUSED double
ui_row_y (SlTimelineView *view,
          guint           row)
{
  SlTimeline *tl = sl_timeline_view_get_timeline (view);
  double y;

  for (guint i = 0; i < 3; i++)
    {
      SlTimelineRowInfo ri;

      if (sl_timeline_view_get_row_y (view, row, &y))
        return y;
      sl_timeline_get_row_info (tl, row, &ri);
      row = ri.parent;
    }
  g_assert_not_reached ();
  return 0;
}

/* Pixels of the whole picture close to @rgb. */
static G_GNUC_UNUSED guint
ui_count_color (const UiPixels *p,
                guint32         rgb,
                int             tolerance)
{
  guint n = 0;

  for (int y = 0; y < p->height; y++)
    for (int x = 0; x < p->width; x++)
      if (ui_color_near (ui_pixel (p, x, y), rgb, tolerance))
        n++;
  return n;
}

static G_GNUC_UNUSED void
ui_save_screenshot (SlWindow   *window,
                    const char *name)
{
  const char *dir = g_getenv ("SL_SCREENSHOT_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (dir == NULL)
    return;
  path = g_build_filename (dir, name, NULL);
  ui_wait_frames (GTK_WIDGET (window), 2);
  ui_wait_drawn (GTK_WIDGET (window));
  g_assert_true (sl_window_save_screenshot (window, path, &error));
  g_assert_no_error (error);
  g_test_message ("screenshot: %s", path);
}

/* The first of @widget and its descendants, depth first, that @match. */
static G_GNUC_UNUSED GtkWidget *
ui_find_widget (GtkWidget *widget,
                gboolean (*match) (GtkWidget *, gconstpointer),
                gconstpointer data)
{
  if (match (widget, data))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = ui_find_widget (child, match, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* ui_find_widget()'s match for a type, by name (@type_name). */
static G_GNUC_UNUSED gboolean
ui_is_type (GtkWidget     *widget,
            gconstpointer  type_name)
{
  GType type = g_type_from_name (type_name);

  return type != 0 && g_type_is_a (G_OBJECT_TYPE (widget), type);
}

/* Whether a revealer or a stack inside @widget is in a transition. */
static gboolean
ui_in_transition (GtkWidget *widget)
{
  if (GTK_IS_REVEALER (widget) &&
      gtk_revealer_get_child_revealed (GTK_REVEALER (widget)) != gtk_revealer_get_reveal_child (GTK_REVEALER (widget)))
    return TRUE;
  if (GTK_IS_STACK (widget) && gtk_stack_get_transition_running (GTK_STACK (widget)))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (ui_in_transition (child))
      return TRUE;
  return FALSE;
}

static gboolean
ui_window_still (gpointer data)
{
  return !sl_graph_view_get_animating (sl_window_get_graph_view (data)) && !ui_in_transition (data);
}

/* Waits for the graph's animations and the revealers' and stacks'
 * transitions to end, and for the window to be drawn after them. */
static G_GNUC_UNUSED void
ui_wait_settled_view (SlWindow *window)
{
  ui_wait_frames (GTK_WIDGET (window), 1);
  ui_wait_drawn_until (GTK_WIDGET (window), ui_window_still, window);
}

/* The timeline view has drawn everything it shows (UiCondition on an
 * SlTimelineView): no clock animation left, every row's summary done. */
static G_GNUC_UNUSED gboolean
ui_timeline_settled (gpointer data)
{
  SlTimelineViewStats st;

  sl_timeline_view_get_stats (data, &st);
  return !sl_timeline_view_get_animating (data) && st.complete;
}

/* The title of @view's column drawn above @box of @cell (in @cell's
 * coordinates). */
static G_GNUC_UNUSED const char *
ui_title_over (GtkWidget             *view,
               GtkWidget             *cell,
               const graphene_rect_t *box)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (view));
  GtkWidget *header = gtk_widget_get_first_child (view);
  graphene_point_t middle;
  guint i = 0;

  g_assert_cmpstr (gtk_widget_get_css_name (header), ==, "header");
  g_assert_true (gtk_widget_compute_point (cell, view, &GRAPHENE_POINT_INIT (box->origin.x + box->size.width / 2, 0),
                                           &middle));
  for (GtkWidget *t = gtk_widget_get_first_child (header); t != NULL; t = gtk_widget_get_next_sibling (t), i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      graphene_rect_t b;

      if (gtk_widget_get_mapped (t) && gtk_widget_compute_bounds (t, view, &b) &&
          middle.x >= b.origin.x && middle.x < b.origin.x + b.size.width)
        return gtk_column_view_column_get_title (column);
    }
  return NULL;
}

/* The title of @view's column drawn above @cell. */
static G_GNUC_UNUSED const char *
ui_title_above (GtkWidget *view,
                GtkWidget *cell)
{
  return ui_title_over (view, cell, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (cell), gtk_widget_get_height (cell)));
}

static G_GNUC_UNUSED void
ui_collect_text_cells (GtkWidget *widget,
                    GPtrArray *cells)
{
  if (SL_IS_TEXT_CELL (widget) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (cells, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    ui_collect_text_cells (c, cells);
}

/* Tables say the zone of their times of day once, in the column's title
 * ("… (UTC)", "… (reference, UTC)"), and their cells the time alone,
 * which parses as a time: every mapped cell of @view with a time of day
 * in it. Returns how many. */
static G_GNUC_UNUSED guint
ui_check_zone_in_titles (GtkWidget *view)
{
  g_autoptr(GRegex) time = g_regex_new ("\\d\\d:\\d\\d:\\d\\d", 0, 0, NULL);
  /* "23:14:00.600 000 000" (thin spaces), "+182.4 ms at 23:14:00.6" or a
   * host's own clock: "django-db, 23:14:00.600 000 000" */
  g_autoptr(GRegex) cell_re = g_regex_new ("^(([+\u2212])[0-9.]+ (ns|µs|ms|s) at |[^,]+, )?"
                                           "\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,3}(\u2009\\d{3}){0,2})?$",
                                           0, 0, NULL);
  g_autoptr(GPtrArray) cells = g_ptr_array_new ();
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  g_autoptr(GPtrArray) titles = g_ptr_array_new ();
  /* a row table's header: a column view without rows */
  GtkWidget *header = SL_IS_ROW_TABLE (view) ? GTK_WIDGET (sl_row_table_get_header (SL_ROW_TABLE (view))) : view;
  guint n = 0;

  g_assert_true (GTK_IS_COLUMN_VIEW (header));
  ui_collect_text_cells (view, cells);
  /* each cell's text, or each column of a row's */
  for (guint i = 0; i < cells->len; i++)
    if (!_sl_text_cell_is_row (cells->pdata[i]))
      {
        g_ptr_array_add (texts, (gpointer) sl_text_cell_get_text (cells->pdata[i]));
        g_ptr_array_add (titles, (gpointer) ui_title_above (header, cells->pdata[i]));
      }
    else
      for (guint c = 0; c < _sl_row_table_get_n_columns (SL_ROW_TABLE (view)); c++)
        {
          const char *property = _sl_row_table_get_column (SL_ROW_TABLE (view), c)->property;
          graphene_rect_t box;

          if (_sl_text_cell_get_column_box (cells->pdata[i], property, &box))
            {
              g_ptr_array_add (texts, (gpointer) _sl_text_cell_get_column_text (cells->pdata[i], property));
              g_ptr_array_add (titles, (gpointer) ui_title_over (header, cells->pdata[i], &box));
            }
        }
  for (guint i = 0; i < texts->len; i++)
    {
      const char *text = texts->pdata[i];
      const char *title = titles->pdata[i];

      if (text == NULL || !g_regex_match (time, text, 0, NULL))
        continue;
      if (n == 0)
        g_test_message ("%s: \"%s\"", title, text);
      g_assert_nonnull (title);
      /* "… (UTC)", "… (reference, UTC)" */
      if (!g_str_has_suffix (title, " (UTC)") && !g_str_has_suffix (title, ", UTC)"))
        g_error ("\"%s\" is under \"%s\", which does not name its zone", text, title);
      if (!g_regex_match (cell_re, text, 0, NULL))
        g_error ("cell under \"%s\" is not a time of day alone: \"%s\"", title, text);
      n++;
    }
  return n;
}

/* ui_check_zone_in_titles() on the table of @stack's page shown, once
 * drawn. */
static G_GNUC_UNUSED guint
ui_check_zone_in_page (GtkStack *stack)
{
  GtkWidget *view;

  ui_wait_frames (GTK_WIDGET (stack), 2);
  view = ui_find_widget (gtk_stack_get_visible_child (stack), ui_is_type, "GtkColumnView");
  g_assert_nonnull (view);
  return ui_check_zone_in_titles (view);
}
