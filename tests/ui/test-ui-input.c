/* test-ui-input.c: the graph's context menu and tooltips, the open dialog
 * and the about window, reached the way a user reaches them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under xvfb-run and dbus-run-session (tests/ui/run-ui-test.sh) with
 * GSETTINGS_BACKEND=memory and fatal warnings, once under GTK's default
 * renderer (GL) and once under cairo (tests/ui/meson.build).
 *
 * The pointer is real: it is moved with XWarpPointer and its buttons are
 * pressed through the X server's XTEST extension (Xvfb has it), so that GDK
 * gets X input events as from a mouse. Emitting "pressed" on the graph's
 * GtkGestureClick would not do: it listens to every button and asks
 * gtk_gesture_single_get_current_button(), which is 0 outside a real event.
 */

#include "config.h"

#include <gdk/x11/gdkx.h>
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>

#include "sl-application.h"
#include "ui-test-util.h"

static SlWindow *
open_django (const char *path)
{
  const char *paths[] = { path, NULL };
  SlWindow *window = ui_new_window (NULL, 1200, 800);
  SlSession *session = sl_window_get_session (window);

  sl_window_open_paths (window, paths);
  ui_wait_settled (session);
  g_assert_cmpint (sl_session_get_state (session), ==, SL_SESSION_STATE_READY);
  g_assert_cmpuint (g_list_model_get_n_items (sl_session_get_hosts (session)), ==, 3);
  ui_wait_settled_view (window);
  return window;
}

/* A menu item (GtkModelButton) by its label, mnemonic left out. */
static gboolean
has_text (GtkWidget     *widget,
          gconstpointer  text)
{
  g_autofree char *label = NULL;

  if (!ui_is_type (widget, "GtkModelButton"))
    return FALSE;
  g_object_get (widget, "text", &label, NULL);
  return g_strcmp0 (label, text) == 0;
}

/* The real pointer */

typedef struct
{
  Display *xdisplay;
  gboolean has_xtest;
} Pointer;

/* Fills @p, or says why it cannot (the caller skips). */
static const char *
pointer_init (Pointer   *p,
              GtkWidget *widget,
              gboolean   buttons)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  int event, error, major, minor;

  memset (p, 0, sizeof *p);
  if (!GDK_IS_X11_DISPLAY (display))
    return "the display is not X11: the pointer is moved through Xlib";
  p->xdisplay = gdk_x11_display_get_xdisplay (GDK_X11_DISPLAY (display));
  p->has_xtest = XTestQueryExtension (p->xdisplay, &event, &error, &major, &minor);
  if (buttons && !p->has_xtest)
    return "the X server has no XTEST extension to press pointer buttons";
  return NULL;
}

/* django-vote opened, with the pointer ready (@buttons: able to press
 * them); NULL after skipping the test when either is not available. */
static SlWindow *
open_django_with_pointer (Pointer  *p,
                          gboolean  buttons)
{
  g_autofree char *path = ui_shared_path ("traces/django-vote");
  SlWindow *window;
  const char *skip;

  if (path == NULL)
    {
      g_test_skip ("../shared/data/traces/django-vote is absent (SL_SHARED_DATA)");
      return NULL;
    }
  window = open_django (path);
  if ((skip = pointer_init (p, GTK_WIDGET (window), buttons)) != NULL)
    {
      g_test_skip (skip);
      ui_close_window (window);
      return NULL;
    }
  return window;
}

static void
pointer_button (Pointer *p,
                guint    button,
                gboolean press)
{
  g_assert_true (p->has_xtest);
  XTestFakeButtonEvent (p->xdisplay, button, press, CurrentTime);
  XSync (p->xdisplay, False);
}

/* Puts the pointer on (@x, @y) of @widget. */
static void
pointer_move (Pointer   *p,
              GtkWidget *widget,
              double     x,
              double     y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GdkSurface *surface = gtk_native_get_surface (native);
  int scale = gdk_surface_get_scale_factor (surface);
  graphene_point_t pt;
  double sx, sy;
  int rx, ry;
  Window child;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (x, y), &pt));
  gtk_native_get_surface_transform (native, &sx, &sy);
  g_assert_true (XTranslateCoordinates (p->xdisplay, gdk_x11_surface_get_xid (surface),
                                        DefaultRootWindow (p->xdisplay),
                                        (int) round ((pt.x + sx) * scale), (int) round ((pt.y + sy) * scale),
                                        &rx, &ry, &child));
  XWarpPointer (p->xdisplay, None, DefaultRootWindow (p->xdisplay), 0, 0, 0, 0, rx, ry);
  XFlush (p->xdisplay);
}

static void
pointer_click (Pointer   *p,
               GtkWidget *widget,
               double     x,
               double     y,
               guint      button)
{
  pointer_move (p, widget, x, y);
  pointer_button (p, button, TRUE);
  pointer_button (p, button, FALSE);
  XFlush (p->xdisplay);
}

/* Counts the button presses that reach the window, to know when a click
 * has been handled even if it changed nothing. (Not the releases: those go
 * to a menu that the press may have opened.) */
static gboolean
count_press_cb (GtkEventControllerLegacy *controller,
                GdkEvent                 *event,
                guint                    *count)
{
  if (gdk_event_get_event_type (event) == GDK_BUTTON_PRESS)
    (*count)++;
  return GDK_EVENT_PROPAGATE;
}

typedef struct
{
  guint *count;
  guint  target;
} Count;

static gboolean
count_reached (gpointer data)
{
  Count *c = data;

  return *c->count >= c->target;
}

static gboolean
widget_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static gboolean
widget_unmapped (gpointer data)
{
  return !gtk_widget_get_mapped (data);
}

/* 1. The graph's context menu */

static GtkWidget *
graph_context_menu (SlGraphView *graph)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (graph)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER_MENU (child))
      return child;
  return NULL;
}

static gboolean
reference_is (gpointer data)
{
  return sl_host_item_get_is_reference (data);
}

/* A point of the view that is on neither a host nor a link. */
static void
empty_point (SlGraphView *graph,
             double      *x,
             double      *y)
{
  int w = gtk_widget_get_width (GTK_WIDGET (graph)), h = gtk_widget_get_height (GTK_WIDGET (graph));

  for (int step = 0; step < 400; step++)
    {
      /* a spiral out of the centre, well inside the view */
      double a = step * 0.5, r = 4.0 * step;

      *x = w / 2.0 + r * cos (a);
      *y = h / 2.0 + r * sin (a);
      if (*x < 20 || *y < 20 || *x > w - 20 || *y > h - 20)
        continue;
      if (!sl_graph_view_pick (graph, *x, *y, NULL, NULL) &&
          !sl_graph_view_pick (graph, *x - 6, *y, NULL, NULL) &&
          !sl_graph_view_pick (graph, *x + 6, *y, NULL, NULL) &&
          !sl_graph_view_pick (graph, *x, *y - 6, NULL, NULL) &&
          !sl_graph_view_pick (graph, *x, *y + 6, NULL, NULL))
        return;
    }
  g_assert_not_reached ();
}

static void
test_context_menu (void)
{
  SlWindow *window;
  SlSession *session;
  SlGraphView *graph;
  GtkWidget *menu, *item;
  GtkEventController *counter;
  SlHostItem *db, *httpd;
  guint presses = 0;
  Count count = { &presses, 0 };
  double x, y, ex, ey;
  guint picked;
  Pointer p;

  if ((window = open_django_with_pointer (&p, TRUE)) == NULL)
    return;
  session = sl_window_get_session (window);
  graph = sl_window_get_graph_view (window);
  counter = gtk_event_controller_legacy_new ();
  gtk_event_controller_set_propagation_phase (counter, GTK_PHASE_CAPTURE);
  g_signal_connect (counter, "event", G_CALLBACK (count_press_cb), &presses);
  gtk_widget_add_controller (GTK_WIDGET (window), counter);

  db = sl_session_find_host (session, "django-db");
  httpd = sl_session_find_host (session, "django-httpd");
  g_assert_true (sl_host_item_get_is_reference (httpd));
  g_assert_false (sl_host_item_get_is_reference (db));
  g_assert_cmpstr (sl_session_get_pinned_reference (session), ==, "");

  menu = graph_context_menu (graph);
  g_assert_nonnull (menu);
  item = ui_find_widget (menu, has_text, "Use as Reference");
  g_assert_nonnull (item);
  g_assert_false (gtk_widget_get_mapped (menu));
  /* nothing right-clicked yet: “Use as Reference” is off */
  g_assert_false (gtk_widget_get_sensitive (item));

  /* on empty space: no menu, the item stays off */
  empty_point (graph, &ex, &ey);
  count.target = presses + 1;
  pointer_click (&p, GTK_WIDGET (graph), ex, ey, GDK_BUTTON_SECONDARY);
  g_assert_true (ui_wait_for (count_reached, &count, UI_WAIT_S));
  ui_wait_frames (GTK_WIDGET (window), 1);
  g_assert_false (gtk_widget_get_visible (menu));
  g_assert_false (gtk_widget_get_sensitive (item));
  g_assert_cmpstr (sl_session_get_pinned_reference (session), ==, "");

  /* on django-db: the menu opens there, with the item on */
  g_assert_true (sl_graph_view_get_host_position (graph, sl_host_item_get_host (db), &x, &y));
  g_assert_true (sl_graph_view_pick (graph, x, y, &picked, NULL));
  g_assert_cmpuint (picked, ==, sl_host_item_get_host (db));
  pointer_click (&p, GTK_WIDGET (graph), x, y, GDK_BUTTON_SECONDARY);
  g_assert_true (ui_wait_for (widget_mapped, menu, UI_WAIT_S));
  g_assert_true (gtk_widget_get_visible (menu));
  g_assert_true (gtk_widget_get_sensitive (item));
  {
    GdkRectangle rect;

    g_assert_true (gtk_popover_get_pointing_to (GTK_POPOVER (menu), &rect));
    g_assert_cmpint (ABS (rect.x - (int) x), <=, 1);
    g_assert_cmpint (ABS (rect.y - (int) y), <=, 1);
  }
  /* the menu is a surface of its own: rendered alone, to look at */
  ui_wait_frames (menu, 2);
  {
    UiPixels px = { 0 };

    ui_render (window, menu, "graph-context-menu.png", &px);
    ui_pixels_clear (&px);
  }

  /* “Use as Reference”, clicked: the menu closes and django-db is the
   * reference of every host */
  {
    graphene_rect_t bounds;

    g_assert_true (ui_wait_for (ui_mapped_cond, item, UI_WAIT_S));
    g_assert_true (gtk_widget_compute_bounds (item, item, &bounds));
    pointer_click (&p, item, bounds.size.width / 2, bounds.size.height / 2, GDK_BUTTON_PRIMARY);
  }
  g_assert_true (ui_wait_for (reference_is, db, UI_WAIT_S));
  g_assert_cmpstr (sl_session_get_pinned_reference (session), ==, "django-db");
  g_assert_cmpuint (ui_reference_of_all (session), ==, sl_host_item_get_host (db));
  g_assert_false (sl_host_item_get_is_reference (httpd));
  g_assert_true (ui_wait_for (widget_unmapped, menu, UI_WAIT_S));

  /* empty space again: no menu, and the item is off again */
  ui_wait_settled_view (window);
  count.target = presses + 1;
  pointer_click (&p, GTK_WIDGET (graph), ex, ey, GDK_BUTTON_SECONDARY);
  g_assert_true (ui_wait_for (count_reached, &count, UI_WAIT_S));
  ui_wait_frames (GTK_WIDGET (window), 1);
  g_assert_false (gtk_widget_get_visible (menu));
  g_assert_false (gtk_widget_get_sensitive (item));
  g_assert_cmpstr (sl_session_get_pinned_reference (session), ==, "django-db");

  ui_close_window (window);
}

/* 2. Tooltips, shown by hovering */

/* The text of the tooltip now shown over @window, if any. */
static const char *
tooltip_text (GtkWidget *window)
{
  for (GtkWidget *child = gtk_widget_get_first_child (window); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (ui_is_type (child, "GtkTooltipWindow") && gtk_widget_get_mapped (child))
      {
        GtkWidget *label = ui_find_widget (child, ui_is_type, "GtkLabel");

        if (label != NULL && gtk_widget_get_visible (label))
          return gtk_label_get_text (GTK_LABEL (label));
      }
  return NULL;
}

static void
save_tooltip (SlWindow   *window,
              const char *name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (window)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (ui_is_type (child, "GtkTooltipWindow") && gtk_widget_get_mapped (child))
      {
        UiPixels px = { 0 };

        ui_wait_frames (child, 1);
        ui_render (window, child, name, &px);
        ui_pixels_clear (&px);
      }
}

typedef struct
{
  GtkWidget  *window;
  const char *prefix;
} Tip;

static gboolean
tooltip_starts_with (gpointer data)
{
  Tip *t = data;
  const char *text = tooltip_text (t->window);

  return text != NULL && g_str_has_prefix (text, t->prefix);
}

static void
test_tooltips (void)
{
  g_autofree char *accuracy = NULL;
  g_autofree char *bound = NULL;
  SlWindow *window;
  SlSession *session;
  SlGraphView *graph;
  SlHostItem *db, *client, *httpd;
  SlLinkItem *link;
  const char *text;
  double ax, ay, bx, by, dx, dy, mx, my;
  guint h, e;
  Pointer p;
  Tip tip;

  if ((window = open_django_with_pointer (&p, FALSE)) == NULL)
    return;
  session = sl_window_get_session (window);
  graph = sl_window_get_graph_view (window);
  db = sl_session_find_host (session, "django-db");
  client = sl_session_find_host (session, "django-client");
  httpd = sl_session_find_host (session, "django-httpd");
  link = sl_session_find_link (session, "django-client", "django-httpd");
  g_assert_nonnull (link);
  g_assert_true (sl_graph_view_get_host_position (graph, sl_host_item_get_host (db), &dx, &dy));
  g_assert_true (sl_graph_view_get_host_position (graph, sl_host_item_get_host (client), &ax, &ay));
  g_assert_true (sl_graph_view_get_host_position (graph, sl_host_item_get_host (httpd), &bx, &by));
  mx = (ax + bx) / 2;
  my = (ay + by) / 2;
  g_assert_true (sl_graph_view_pick (graph, mx, my, &h, &e));
  g_assert_cmpuint (h, ==, SL_HOST_NONE);
  g_assert_cmpuint (e, ==, sl_link_item_get_link (link));

  /* the handler itself answers for a host and nothing for empty space */
  {
    g_autoptr(GtkTooltip) tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
    double ex, ey;
    gboolean shown = FALSE;

    g_signal_emit_by_name (graph, "query-tooltip", (int) dx, (int) dy, FALSE, tooltip, &shown);
    g_assert_true (shown);
    empty_point (graph, &ex, &ey);
    g_signal_emit_by_name (graph, "query-tooltip", (int) ex, (int) ey, FALSE, tooltip, &shown);
    g_assert_false (shown);
  }

  /* a host: its name and how it is synchronized */
  pointer_move (&p, GTK_WIDGET (graph), dx, dy);
  tip = (Tip) { GTK_WIDGET (window), "django-db:" };
  g_assert_true (ui_wait_for (tooltip_starts_with, &tip, UI_WAIT_S));
  text = tooltip_text (GTK_WIDGET (window));
  g_test_message ("host tooltip: %s", text);
  g_assert_nonnull (strstr (text, "django-httpd"));
  save_tooltip (window, "graph-tooltip-host.png");

  /* a link's middle: both hosts, the bound as the link table shows it and
   * the rate band in ppm */
  g_object_get (link, "accuracy-text", &accuracy, "bound-text", &bound, NULL);
  g_assert_nonnull (strstr (accuracy, "ppm"));
  pointer_move (&p, GTK_WIDGET (graph), mx, my);
  tip = (Tip) { GTK_WIDGET (window), "django-client ↔ django-httpd:" };
  g_assert_true (ui_wait_for (tooltip_starts_with, &tip, UI_WAIT_S));
  text = tooltip_text (GTK_WIDGET (window));
  g_test_message ("link tooltip: %s (accuracy %s)", text, accuracy);
  {
    g_autofree char *needle = g_strdup_printf ("rate band %s,", accuracy);
    g_autofree char *bound_needle = g_strdup_printf ("bound %s", bound);

    g_assert_nonnull (strstr (text, needle));
    g_assert_nonnull (strstr (text, bound_needle));
  }
  save_tooltip (window, "graph-tooltip-link.png");

  ui_close_window (window);
}

/* 3. The open dialog */

static GtkWidget *
find_toplevel (GType type)
{
  /* (transfer none) */
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (g_type_is_a (G_OBJECT_TYPE (w), type) && gtk_widget_get_visible (w))
        return w;
    }
  return NULL;
}

static gboolean
chooser_shown (gpointer data)
{
  GtkWidget *w = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);

  return w != NULL && gtk_widget_get_mapped (w);
}

static gboolean
chooser_gone (gpointer data)
{
  return find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG) == NULL;
}

/* The chooser's answer is @data's folder, alone. */
static gboolean
chooser_picks (gpointer data)
{
  GtkWidget *w = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GFile) first = NULL;

  if (w == NULL)
    return FALSE;
  files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (w));
  if (g_list_model_get_n_items (files) != 1)
    return FALSE;
  first = g_list_model_get_item (files, 0);
  return g_file_equal (first, data);
}

static void
test_open_dialog (void)
{
  g_autofree char *path = ui_shared_path ("traces/django-vote");
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GError) error = NULL;
  SlWindow *window;
  SlSession *session;
  GtkWidget *dialog, *button;

  if (path == NULL)
    {
      g_test_skip ("../shared/data/traces/django-vote is absent (SL_SHARED_DATA)");
      return;
    }
  folder = g_file_new_for_path (path);
  window = ui_new_window (NULL, 1200, 800);
  session = sl_window_get_session (window);
  g_assert_cmpint (sl_session_get_state (session), ==, SL_SESSION_STATE_EMPTY);

  g_assert_null (find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-folders", NULL));
  /* no portal on this bus: GtkFileChooserNative shows GTK's own dialog */
  g_assert_true (ui_wait_for (chooser_shown, NULL, UI_WAIT_S));
  dialog = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Open Trace Folders");
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));
  g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)), ==,
                   GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
  g_assert_true (gtk_file_chooser_get_select_multiple (GTK_FILE_CHOOSER (dialog)));
  ui_wait_frames (dialog, 2);

  /* pick django-vote, as a click in its parent folder does */
  g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (dialog), folder, &error));
  g_assert_no_error (error);
  g_assert_true (ui_wait_for (chooser_picks, folder, UI_WAIT_S));
  ui_wait_frames (dialog, 2);
  {
    UiPixels px = { 0 };

    ui_render (window, dialog, "open-dialog.png", &px);
    ui_pixels_clear (&px);
  }

  /* “Open” */
  button = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (ui_wait_for (chooser_gone, NULL, UI_WAIT_S));
  g_assert_cmpint (sl_session_get_state (session), !=, SL_SESSION_STATE_EMPTY);
  ui_wait_settled (session);
  g_assert_cmpint (sl_session_get_state (session), ==, SL_SESSION_STATE_READY);
  g_assert_cmpuint (g_list_model_get_n_items (sl_session_get_hosts (session)), ==, 3);
  g_assert_nonnull (sl_session_find_host (session, "django-db"));
  {
    g_autofree char *canonical = g_canonicalize_filename (path, NULL);

    g_assert_cmpstr (sl_session_get_inputs (session)[0], ==, canonical);
  }
  g_assert_null (sl_session_get_inputs (session)[1]);
  g_assert_cmpstr (sl_window_get_page (window), ==, "content");

  ui_close_window (window);
}

/* 4. The about window */

static void
test_about (void)
{
  g_autoptr(SlApplication) app = sl_application_new ();
  g_autoptr(GError) error = NULL;
  SlWindow *window;
  AdwAboutWindow *about;

  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  window = ui_new_window (GTK_APPLICATION (app), 1200, 800);
  g_assert_true (gtk_application_get_active_window (GTK_APPLICATION (app)) == GTK_WINDOW (window));
  g_assert_null (find_toplevel (ADW_TYPE_ABOUT_WINDOW));

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  about = ADW_ABOUT_WINDOW (find_toplevel (ADW_TYPE_ABOUT_WINDOW));
  g_assert_nonnull (about);
  g_object_ref (about);
  ui_wait_mapped (GTK_WIDGET (about));
  g_assert_cmpstr (adw_about_window_get_application_name (about), ==, "Syncline");
  g_assert_cmpstr (adw_about_window_get_version (about), ==, PACKAGE_VERSION);
  g_assert_cmpstr (adw_about_window_get_application_icon (about), ==, "io.github.syncline.Syncline");
  g_assert_cmpint (adw_about_window_get_license_type (about), ==, GTK_LICENSE_GPL_3_0);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (about)) == GTK_WINDOW (window));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (about)));
  ui_wait_frames (GTK_WIDGET (about), 2);
  {
    UiPixels px = { 0 };

    ui_render (window, GTK_WIDGET (about), "about.png", &px);
    ui_pixels_clear (&px);
  }

  gtk_window_close (GTK_WINDOW (about));
  g_assert_null (find_toplevel (ADW_TYPE_ABOUT_WINDOW));
  g_assert_finalize_object (about);
  ui_close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/ui-input/graph/context-menu", test_context_menu);
  g_test_add_func ("/ui-input/graph/tooltips", test_tooltips);
  g_test_add_func ("/ui-input/open-dialog", test_open_dialog);
  g_test_add_func ("/ui-input/about", test_about);

  return g_test_run ();
}
