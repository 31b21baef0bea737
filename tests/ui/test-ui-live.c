/* test-ui-live.c: the window attached to a live session of real daemons
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three simulated hosts of the live harness (tests/live/) stream through a
 * real lttng-relayd; the relay dialog lists their sessions and attaches,
 * and the panel must update in place while packets arrive, keep its
 * selection, and the window must keep answering while the relay stalls.
 */

#include "config.h"

#include "live/live-harness.h"
#include "sl-relay-dialog.h"
#include "sl-session-private.h"
#include "ui-test-util.h"

#define SESSION  "uilive"
#define TIMER_US 100000

static const struct
{
  const char *name;
  gint64      wall_error_ns;
  gint64      drift_ppb;
} hosts[] = {
  { "ui-alpha", 2000000, 30000 },
  { "ui-beta", -3000000, -20000 },
  { "ui-gamma", 0, 0 },
};

typedef struct
{
  SlHarness     *h;
  SlHarnessHost *host[3];
  guint          port[3];
} Cluster;

static gboolean
cluster_start (Cluster *c)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *skip = NULL;

  memset (c, 0, sizeof *c);
  c->h = sl_harness_new (&skip);
  if (c->h == NULL)
    {
      if (sl_harness_must_not_skip ())
        g_error ("the live harness cannot run here, and SL_REQUIRE_LIVE=1: %s", skip);
      g_test_skip (skip);
      return FALSE;
    }
  if (!sl_harness_start_relay (c->h, &error))
    g_error ("relay: %s", error->message);
  for (guint i = 0; i < 3; i++)
    {
      c->host[i] = sl_harness_add_host (c->h, hosts[i].name, hosts[i].wall_error_ns, hosts[i].drift_ppb, &error);
      if (c->host[i] == NULL)
        g_error ("host %s: %s", hosts[i].name, error->message);
      if (!sl_harness_host_create_session (c->host[i], SESSION, TIMER_US, &error))
        g_error ("session on %s: %s", hosts[i].name, error->message);
      c->port[i] = sl_harness_free_port ();
    }
  /* alpha → beta → gamma, gamma first so that each port is open */
  for (guint k = 3; k-- > 0;)
    {
      g_autofree char *listen = g_strdup_printf ("--listen=%u", c->port[k]);
      g_autofree char *connect = k + 1 < 3 ? g_strdup_printf ("--connect=%u", c->port[k + 1]) : NULL;
      const char *args[] = { listen, "--rate=200", connect, NULL };

      if (sl_harness_host_spawn_peer (c->host[k], args, &error) == 0)
        g_error ("peer on %s: %s", hosts[k].name, error->message);
    }
  return TRUE;
}

static void
cluster_finish (Cluster *c)
{
  g_autoptr(GString) problems = g_string_new (NULL);

  if (!sl_harness_free_and_check_clean (c->h, problems))
    g_error ("the harness left things behind:\n%s", problems->str);
}

static gboolean
dialog_listed (gpointer data)
{
  return !sl_relay_dialog_get_busy (data) && sl_relay_dialog_get_n_sessions (data) >= 3;
}

static gboolean
tree_complete (gpointer data)
{
  SlSession *session = data;

  return sl_session_get_n_tree_links (session) == 2 &&
         g_list_model_get_n_items (sl_session_get_hosts (session)) == 3;
}

typedef struct
{
  SlLinkItem *link;
  guint64     matches;
} Grow;

static gboolean
link_grew (gpointer data)
{
  Grow *g = data;

  return sl_link_item_get_info (g->link)->info.matches > g->matches + 20;
}

typedef struct
{
  gint64 expected;
  gint64 worst;
  guint  ticks;
} Latency;

static gboolean
latency_cb (gpointer data)
{
  Latency *l = data;
  gint64 now = g_get_monotonic_time ();

  l->worst = MAX (l->worst, now - l->expected);
  l->expected = now + 50000;
  l->ticks++;
  return G_SOURCE_CONTINUE;
}

static gboolean
session_stopped (gpointer data)
{
  return sl_session_get_state (data) == SL_SESSION_STATE_READY;
}

static void
test_live_panel (void)
{
  Cluster c;
  SlWindow *window;
  SlSession *session;
  SlRelayDialog *dialog;
  SlQualityPanel *panel;
  SlLinkItem *link;
  Grow grow;
  Latency lat = { 0 };
  guint latency_id;
  guint n_rows;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  if (!cluster_start (&c))
    return;

  window = sl_window_new (NULL);
  g_object_ref (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  ui_wait_mapped (GTK_WIDGET (window));
  session = sl_window_get_session (window);
  panel = sl_window_get_quality_panel (window);

  /* the relay dialog lists the three hosts' sessions and attaches */
  dialog = sl_relay_dialog_new (GTK_WINDOW (window));
  g_signal_connect_object (dialog, "attach", G_CALLBACK (sl_window_open_live), window, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
  sl_relay_dialog_set_url (dialog, sl_harness_get_relay_url (c.h));
  gtk_widget_activate_action (GTK_WIDGET (dialog), "relay.list-sessions", NULL);
  g_assert_true (ui_wait_for (dialog_listed, dialog, 60));
  g_assert_cmpuint (sl_relay_dialog_get_n_sessions (dialog), ==, 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "relay.attach-sessions", NULL));
  g_assert_cmpint (sl_session_get_state (session), ==, SL_SESSION_STATE_LIVE);
  g_assert_true (sl_window_get_action_enabled (window, "win.cancel-loading"));

  g_assert_true (ui_wait_for (tree_complete, session, 90));

  /* select a link; packets keep arriving: the same item is updated in
   * place, its row stays selected and the table keeps its rows */
  link = sl_session_find_link (session, "ui-alpha", "ui-beta");
  g_assert_nonnull (link);
  sl_session_set_selected_link (session, link);
  g_assert_true (sl_quality_panel_get_selected_link (panel) == link);
  n_rows = g_list_model_get_n_items (sl_session_get_links (session));
  grow.link = link;
  grow.matches = sl_link_item_get_info (link)->info.matches;
  g_assert_true (ui_wait_for (link_grew, &grow, 60));
  g_assert_true (sl_session_find_link (session, "ui-alpha", "ui-beta") == link);
  g_assert_true (sl_session_get_selected_link (session) == link);
  g_assert_true (sl_quality_panel_get_selected_link (panel) == link);
  g_assert_cmpuint (g_list_model_get_n_items (sl_session_get_links (session)), ==, n_rows);
  g_assert_nonnull (sl_session_get_plot (session));
  g_assert_cmpuint (sl_session_get_plot (session)->link, ==, sl_link_item_get_link (link));
  g_assert_cmpuint (_sl_session_get_update_times (session)->len, >, 3);

  ui_wait_settled_view (window);
  ui_save_screenshot (window, "live.png");

  /* a stalled relay: the window keeps answering (a 50 ms timer is never
   * held up by more than a frame or two) */
  sl_harness_stall_relay (c.h, TRUE);
  latency_id = g_timeout_add (50, latency_cb, &lat);
  lat.expected = g_get_monotonic_time () + 50000;
  ui_wait_ms (3000);
  g_source_remove (latency_id);
  sl_harness_stall_relay (c.h, FALSE);
  g_test_message ("main loop with a stalled relay: %u ticks, worst delay %.1f ms", lat.ticks, lat.worst / 1e3);
  g_assert_cmpuint (lat.ticks, >=, 30);
  g_assert_cmpint (lat.worst, <, 500000);

  /* disconnecting keeps what was received, and the report exports */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-loading", NULL));
  g_assert_true (ui_wait_for (session_stopped, session, 30));
  json = sl_session_dup_report_json (session, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (json, "\"ui-alpha\""));

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
  cluster_finish (&c);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/ui/live/panel", test_live_panel);

  return g_test_run ();
}
