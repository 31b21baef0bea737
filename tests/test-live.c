/* test-live.c: live sessions against real lttng-relayd and lttng-sessiond
 *
 * Three simulated hosts (own UTS namespace, own session daemon, own clock
 * through the lttng-ust clock plugin) exchange real TCP messages over
 * loopback and stream their traces through a real relay; Syncline attaches
 * as a live viewer. The ground truth of every clock is known (harness).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <signal.h>
#include <sys/syscall.h>

#include "live/live-cluster.h"
#include "live/live-watch.h"
#include "sl-live.h"
#include "sl-report.h"
#include "test-util.h"

#define SESSION        "cluster"
#define TIMER_US       100000
#define WAIT_S         SL_HARNESS_WAIT_S

/* A live reader on @url, started, its updates watched by @w. */
static SlLive *
watch_live (SlLiveWatch         *w,
            SlEngine            *engine,
            const SlLiveOptions *lo,
            const char          *url)
{
  g_autoptr(GError) error = NULL;
  SlLive *live;

  sl_live_watch_init (w);
  live = sl_live_watch_start (w, engine, lo, url, &error);
  g_assert_no_error (error);
  return live;
}

static gboolean
has_problem (SlLiveWatch      *w,
             const char *needle)
{
  for (guint i = 0; i < w->problems->len; i++)
    if (strstr (g_ptr_array_index (w->problems, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

static gboolean
pred_problem (SlLiveWatch   *w,
              gpointer data)
{
  return has_problem (w, data);
}

typedef struct
{
  const char *needle;
  guint       from;
} ProblemFrom;

/* a problem with the needle among those from index @from on */
static gboolean
pred_problem_from (SlLiveWatch   *w,
                   gpointer data)
{
  ProblemFrom *pf = data;

  for (guint i = pf->from; i < w->problems->len; i++)
    if (strstr (g_ptr_array_index (w->problems, i), pf->needle) != NULL)
      return TRUE;
  return FALSE;
}

static guint
count_problems_from (SlLiveWatch *w,
                     const char  *needle,
                     guint        from)
{
  guint n = 0;

  g_mutex_lock (&w->lock);
  for (guint i = from; i < w->problems->len; i++)
    n += strstr (g_ptr_array_index (w->problems, i), needle) != NULL;
  g_mutex_unlock (&w->lock);
  return n;
}

/* The live attachments' decoder processes: this process's children
 * running `syncline-decoder live`, directly or through a loader (the
 * lttng216 suite runs it with babeltrace2 2.1's ld.so: `ld-linux…
 * --library-path … syncline-decoder live`). */
static GArray *
live_decoders (void)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (GPid));
  g_autoptr(GDir) tasks = g_dir_open ("/proc/self/task", 0, NULL);
  const char *task;

  g_assert_nonnull (tasks);
  while ((task = g_dir_read_name (tasks)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/self/task/%s/children", task);
      g_autofree char *children = NULL;
      g_auto(GStrv) list = NULL;

      if (!g_file_get_contents (path, &children, NULL, NULL))
        continue;
      list = g_strsplit (g_strstrip (children), " ", -1);
      for (guint i = 0; list[i] != NULL; i++)
        {
          g_autofree char *cmd_path = g_strdup_printf ("/proc/%s/cmdline", list[i]);
          g_autofree char *cmd = NULL;
          gsize len = 0;
          GPid pid = (GPid) g_ascii_strtoll (list[i], NULL, 10);

          if (pid <= 0 || !g_file_get_contents (cmd_path, &cmd, &len, NULL))
            continue;
          /* argv[0] NUL argv[1] NUL … */
          for (gsize at = 0; at < len; at += strlen (cmd + at) + 1)
            if (g_str_has_suffix (cmd + at, "syncline-decoder") && at + strlen (cmd + at) + 1 < len &&
                g_str_equal (cmd + at + strlen (cmd + at) + 1, "live"))
              {
                g_array_append_val (pids, pid);
                break;
              }
        }
    }
  return pids;
}

static void
signal_all (GArray *pids,
            int     signo)
{
  for (guint i = 0; i < pids->len; i++)
    kill (g_array_index (pids, GPid, i), signo);
}

/* The process's state letter (/proc/PID/stat), 0 if gone. */
static char
process_state (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *paren;

  if (!g_file_get_contents (path, &stat, NULL, NULL) || (paren = strrchr (stat, ')')) == NULL)
    return 0;
  return paren[1] == ' ' ? paren[2] : 0;
}

/* Stops @pid at a moment it waits for the relay's answer to a request
 * (its main thread in recvfrom(): babeltrace's lttng-live), as a loaded
 * machine would hold it back. FALSE if no such moment came. */
static gboolean
stop_in_request (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/syscall", (int) pid);

  for (guint attempt = 0; attempt < 400; attempt++)
    {
      g_autofree char *text = NULL;

      kill (pid, SIGSTOP);
      for (guint k = 0; k < 200 && process_state (pid) != 'T'; k++)
        g_usleep (1000);
      if (g_file_get_contents (path, &text, NULL, NULL) && g_ascii_strtoll (text, NULL, 10) == SYS_recvfrom)
        return TRUE;
      kill (pid, SIGCONT);
      g_usleep (g_random_int_range (200, 5000));
    }
  return FALSE;
}

static SlLiveHostState
host_state (SlLiveWatch      *w,
            const char *hostname)
{
  for (guint i = 0; w->hosts != NULL && i < w->hosts->len; i++)
    {
      SlLiveHost *h = g_ptr_array_index (w->hosts, i);

      if (g_str_equal (h->hostname, hostname))
        return h->state;
    }
  return SL_LIVE_HOST_FAILED + 1;
}

typedef struct
{
  const char      *host;
  SlLiveHostState  state;
} StateWant;

static gboolean
pred_state (SlLiveWatch   *w,
            gpointer data)
{
  StateWant *sw = data;

  return host_state (w, sw->host) == sw->state;
}

typedef struct
{
  guint hosts;
  guint links;
  guint accurate_updates;
} Goal;

static gboolean
pred_goal (SlLiveWatch   *w,
           gpointer data)
{
  Goal *g = data;

  return w->n_engine_hosts == g->hosts && w->n_links == g->links && w->accurate_links == w->n_links &&
         w->accurate_updates >= g->accurate_updates;
}

typedef struct
{
  guint64 packets;
} More;

static gboolean
pred_more_packets (SlLiveWatch   *w,
                   gpointer data)
{
  return w->packets > ((More *) data)->packets;
}

/* ---------------------------------------------------------------------- */

static const SlClusterHost cluster_hosts[] = {
  { "sl-alpha", 3000000, 40000 },
  { "sl-beta", -4000000, -25000 },
  { "sl-gamma", 0, 0 },
};

/* alpha → beta, beta → gamma: request/reply both ways on each link. */
static gboolean
cluster_start (SlCluster *c,
               guint      rate)
{
  return sl_cluster_start (c, cluster_hosts, SESSION, TIMER_US, rate, SL_CLUSTER_CHAIN);
}

static guint
engine_host (SlEngine   *engine,
             const char *name)
{
  guint h = sl_engine_find_host (engine, name);

  g_assert_cmpuint (h, !=, SL_HOST_NONE);
  return h;
}

/* The estimate of every link against the truth: at three instants of the
 * link's span, the true time on b for a's timestamp must lie within the
 * estimate ± the link's bound. */
static void
check_truth (SlCluster *c,
             SlEngine  *engine)
{
  guint n_links = sl_engine_get_n_links (engine);
  guint checked = 0;

  g_assert_cmpuint (n_links, >=, 2);
  for (guint l = 0; l < n_links; l++)
    {
      SlLinkInfo info;
      SlHarnessHost *ha = NULL, *hb = NULL;
      g_autoptr(GError) error = NULL;

      sl_engine_get_link_info (engine, l, &info);
      g_assert_cmpint (info.quality, ==, SL_QUALITY_ACCURATE);
      g_assert_true (info.has_estimate);
      for (guint i = 0; i < 3; i++)
        {
          if (engine_host (engine, cluster_hosts[i].name) == info.a)
            ha = c->host[i];
          if (engine_host (engine, cluster_hosts[i].name) == info.b)
            hb = c->host[i];
        }
      if (ha == NULL || hb == NULL)
        continue;       /* the late host's link: its clock is checked by bounds only */
      checked++;

      for (guint k = 0; k < 3; k++)
        {
          gint64 ta = info.span_start + (info.span_end - info.span_start) / 2 * k;
          gint64 m = sl_harness_host_monotonic_time (ha, SESSION, ta, &error);
          gint64 tb_true, tb_est;
          double err;

          g_assert_no_error (error);
          tb_true = sl_harness_host_trace_time (hb, SESSION, m, &error);
          g_assert_no_error (error);
          tb_est = sl_transform_apply (&info.estimate, ta);
          err = fabs ((double) (tb_est - tb_true));
          g_test_message ("link %s -> %s at +%.3f s: estimate off by %.0f ns, bound %.0f ns, band %.0f ns",
                          sl_harness_host_get_name (ha), sl_harness_host_get_name (hb),
                          (ta - info.span_start) / 1e9, err, info.bound_ns, info.band_ns);
          g_assert_cmpfloat (err, <=, info.bound_ns + 1.0);
        }
    }
  g_assert_cmpuint (checked, ==, 2);
}

static void
test_live_sync (void)
{
  SlCluster c;
  SlLiveWatch w;
  SlEngine *engine;
  SlLive *live;
  SlLiveOptions lo;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  gint64 started;
  double first_estimate_periods;

  if (!cluster_start (&c, 200))
    return;

  engine = sl_engine_new (NULL);
  sl_live_options_init (&lo);
  lo.keep_events = TRUE;
  url = g_strdup_printf ("%s/session/%s", sl_harness_get_relay_url (c.h), SESSION);
  started = g_get_monotonic_time ();
  live = watch_live (&w, engine, &lo, url);

  /* every host found, every link accurate, and accurate packets keep
   * coming in separate updates */
  if (!sl_live_watch_wait (&w, pred_goal, &(Goal) { 3, 2, 20 }, WAIT_S))
    {
      for (guint i = 0; i < w.problems->len; i++)
        g_test_message ("problem: %s", (char *) g_ptr_array_index (w.problems, i));
      g_error ("links not accurate: %u hosts, %u/%u accurate links, %u updates with new accurate packets",
               w.n_engine_hosts, w.accurate_links, w.n_links, w.accurate_updates);
    }
  for (guint i = 0; i < w.problems->len; i++)
    g_test_message ("problem: %s", (char *) g_ptr_array_index (w.problems, i));
  g_assert_cmpuint (w.problems->len, ==, 0);

  g_mutex_lock (&w.lock);
  g_assert_cmpint (w.first_estimate_at, >, 0);
  first_estimate_periods = (w.first_estimate_at - MAX (w.first_packets_at, started)) / (double) TIMER_US;
  g_test_message ("first packets %.0f ms after start, first estimate %.1f live-timer periods later; %u updates",
                  (w.first_packets_at - started) / 1e3, first_estimate_periods, w.updates);
  g_mutex_unlock (&w.lock);
  /* a few live-timer periods; generous for a loaded 2-core machine */
  g_assert_cmpfloat (first_estimate_periods, <=, 20);

  /* a host that joins the session later is picked up without restarting */
  {
    g_autofree char *connect = g_strdup_printf ("--connect=%u", c.port[2]);
    const char *args[] = { connect, "--rate=200", NULL };
    SlHarnessHost *delta = sl_harness_add_host (c.h, "sl-delta", 1500000, 15000, &error);

    g_assert_no_error (error);
    g_assert_true (sl_harness_host_create_session (delta, SESSION, TIMER_US, &error));
    g_assert_no_error (error);
    g_assert_cmpint (sl_harness_host_spawn_peer (delta, args, &error), >, 0);
    g_assert_no_error (error);
    g_assert_true (sl_live_watch_wait (&w, pred_goal, &(Goal) { 4, 3, 21 }, WAIT_S));
  }

  sl_live_stop (live);
  g_assert_true (w.final);

  g_assert_cmpuint (sl_engine_get_n_hosts (engine), ==, 4);
  for (guint i = 0; i < 3; i++)
    engine_host (engine, cluster_hosts[i].name);
  check_truth (&c, engine);

  /* the events kept for the timeline: every packet event the engine got */
  for (guint i = 0; i < 3; i++)
    {
      guint e = engine_host (engine, cluster_hosts[i].name);
      const SlEventStore *store = sl_live_get_event_store (live, e);
      SlHostCounts counts;

      g_assert_nonnull (store);
      sl_engine_get_host_counts (engine, e, &counts);
      g_assert_cmpuint (counts.packet_events, >, 0);
      g_assert_cmpuint (sl_event_store_get_kind_count (store, SL_EVENT_PACKET_SEND) +
                        sl_event_store_get_kind_count (store, SL_EVENT_PACKET_RECV), ==, counts.packet_events);
    }

  sl_live_free (live);
  sl_engine_free (engine);
  sl_live_watch_clear (&w);
  sl_cluster_finish (&c);
}

static gboolean
pred_streaming2 (SlLiveWatch   *w,
                 gpointer data)
{
  const char **names = data;

  return host_state (w, names[0]) == SL_LIVE_HOST_STREAMING && host_state (w, names[1]) == SL_LIVE_HOST_STREAMING;
}

/* 4b. the decoders held back (a loaded machine) with the relay's last
 * answers unread, the relay stalls: what they had, published after the
 * stall was reported, is no answer of the relay (under LTTng 2.16, /live/cli
 * said "answers again" while the relay was stopped); it answers again:
 * reported */
static void
held_back_decoders (SlCluster   *c,
                    SlLiveWatch *w)
{
  g_autoptr(GArray) decoders = live_decoders ();
  gint64 until;
  guint stalled_from;

  g_assert_cmpuint (decoders->len, >, 0);
  for (guint i = 0; i < decoders->len; i++)
    g_assert_true (stop_in_request (g_array_index (decoders, GPid, i)));
  /* the relay answers what they asked */
  g_usleep (100 * 1000);
  sl_harness_stall_relay (c->h, TRUE);
  g_mutex_lock (&w->lock);
  stalled_from = w->problems->len;
  g_mutex_unlock (&w->lock);
  until = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
  while (count_problems_from (w, "has not answered", stalled_from) < decoders->len &&
         g_get_monotonic_time () < until)
    g_usleep (50 * 1000);
  g_assert_cmpuint (count_problems_from (w, "has not answered", stalled_from), >, 0);
  signal_all (decoders, SIGCONT);
  g_usleep (1000 * 1000);
  g_assert_cmpuint (count_problems_from (w, "answers again", stalled_from), ==, 0);
  sl_harness_stall_relay (c->h, FALSE);
  g_assert_true (sl_live_watch_wait (w, pred_problem_from, &(ProblemFrom) { "answers again", stalled_from },
                                     WAIT_S));
}

typedef struct
{
  const char *host;
  char       *reason;   /* the engine's for @host at the last update */
} HostReason;

static void
reason_hook (SlLiveWatch        *w,
             SlEngine           *engine,
             const SlLiveUpdate *u,
             gpointer            data)
{
  HostReason *hr = data;
  guint h = sl_engine_find_host (engine, hr->host);
  SlHostInfo info = { 0 };

  if (h == SL_HOST_NONE)
    return;
  sl_engine_get_host_info (engine, h, &info);
  g_free (hr->reason);
  hr->reason = g_strdup (info.reason);
  sl_host_info_clear (&info);
}

static gboolean
pred_reason (SlLiveWatch *w,
             gpointer     data)
{
  HostReason *hr = data;

  return hr->reason != NULL && strstr (hr->reason, "no event could be read: another viewer") != NULL;
}

/* A live reader on @url whose updates keep the engine's reason for
 * @hr->host. */
static SlLive *
watch_reason (SlLiveWatch         *w,
              SlEngine            *engine,
              const SlLiveOptions *lo,
              const char          *url,
              HostReason          *hr)
{
  g_autoptr(GError) error = NULL;
  SlLive *live;

  sl_live_watch_init (w);
  w->hook = reason_hook;
  w->hook_data = hr;
  live = sl_live_watch_start (w, engine, lo, url, &error);
  g_assert_no_error (error);
  return live;
}

/* Relay not reachable, another viewer, session destroyed, relay stalled
 * and cut (killed), reconnection; the other hosts go on each time. */
static void
test_live_faults (void)
{
  SlCluster c;
  SlLiveWatch w, w2;
  SlEngine *engine, *engine2;
  SlLive *live, *live2;
  SlLiveOptions lo;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL, *dead = NULL, *viewer_url = NULL, *url6 = NULL;
  GPid viewer;
  More more;
  StateWant want;
  gint64 t0;
  guint stalled_from;
  HostReason gamma = { cluster_hosts[2].name, NULL }, gamma2 = { cluster_hosts[2].name, NULL };

  if (!cluster_start (&c, 100))
    return;

  sl_live_options_init (&lo);
  lo.stall_ms = 1000;
  lo.discover_ms = 300;

  /* 1. nobody listens */
  engine2 = sl_engine_new (NULL);
  dead = g_strdup_printf ("net://127.0.0.1:%u", sl_harness_free_port ());
  live2 = watch_live (&w2, engine2, &lo, dead);
  g_assert_true (sl_live_watch_wait (&w2, pred_problem, "not reachable", WAIT_S));
  sl_live_free (live2);
  sl_engine_free (engine2);
  sl_live_watch_clear (&w2);

  /* 2. another viewer holds gamma's session */
  viewer_url = g_strdup_printf ("%s/host/%s/%s", sl_harness_get_relay_url (c.h), cluster_hosts[2].name, SESSION);
  {
    const char *argv[] = { "babeltrace2", "-i", "lttng-live", viewer_url, NULL };

    viewer = sl_harness_spawn (c.h, argv, "/dev/null", &error);
    g_assert_no_error (error);
  }
  /* wait until the relay counts it */
  for (int i = 0; i < 100; i++)
    {
      g_autoptr(GPtrArray) list = sl_live_list_sessions (sl_harness_get_relay_url (c.h), NULL, NULL);
      gboolean attached = FALSE;

      for (guint k = 0; list != NULL && k < list->len; k++)
        {
          SlLiveSession *s = g_ptr_array_index (list, k);

          attached |= g_str_equal (s->hostname, cluster_hosts[2].name) && s->clients > 0;
        }
      if (attached)
        break;
      g_usleep (100000);
    }

  /* 2a. gamma alone, which the other viewer holds: nothing of it can be
   * read, and it says why, as a folder's host (its reason, and at the end
   * its last problem), not "no TCP packet event" */
  engine2 = sl_engine_new (NULL);
  live2 = watch_reason (&w2, engine2, &lo, viewer_url, &gamma2);
  g_assert_true (sl_live_watch_wait (&w2, pred_reason, &gamma2, WAIT_S));
  g_test_message ("sl-gamma held by another viewer: %s", gamma2.reason);
  sl_live_stop (live2);
  g_assert_true (w2.final);
  g_assert_true (has_problem (&w2, "no event could be read (another viewer is attached to its session); "
                                   "the host cannot be synchronized"));
  sl_live_free (live2);
  sl_engine_free (engine2);
  sl_live_watch_clear (&w2);
  g_free (gamma2.reason);

  engine = sl_engine_new (NULL);
  url = g_strdup_printf ("%s/session/%s", sl_harness_get_relay_url (c.h), SESSION);
  live = watch_reason (&w, engine, &lo, url, &gamma);

  g_assert_true (sl_live_watch_wait (&w, pred_problem, "another viewer", WAIT_S));
  g_assert_true (sl_live_watch_wait (&w, pred_reason, &gamma, WAIT_S));
  want = (StateWant) { cluster_hosts[0].name, SL_LIVE_HOST_STREAMING };
  g_assert_true (sl_live_watch_wait (&w, pred_state, &want, WAIT_S));
  more.packets = w.packets;
  g_assert_true (sl_live_watch_wait (&w, pred_more_packets, &more, WAIT_S));

  /* the other viewer leaves: Syncline attaches on its own, and gamma,
   * read, no longer says that it could not be */
  g_assert_true (sl_harness_stop_process (c.h, viewer, 5000, NULL, &error));
  want = (StateWant) { cluster_hosts[2].name, SL_LIVE_HOST_STREAMING };
  g_assert_true (sl_live_watch_wait (&w, pred_state, &want, WAIT_S));
  g_assert_true (sl_live_watch_wait (&w, pred_goal, &(Goal) { 3, 2, 1 }, WAIT_S));
  g_mutex_lock (&w.lock);
  g_assert_null (strstr (gamma.reason, "no event could be read"));
  g_mutex_unlock (&w.lock);

  /* 3. gamma's session is destroyed: reported, the others go on */
  g_assert_true (sl_harness_host_destroy_session (c.host[2], SESSION, &error));
  g_assert_no_error (error);
  want = (StateWant) { cluster_hosts[2].name, SL_LIVE_HOST_ENDED };
  g_assert_true (sl_live_watch_wait (&w, pred_state, &want, WAIT_S));
  g_assert_true (has_problem (&w, "session ended"));
  more.packets = w.packets;
  g_assert_true (sl_live_watch_wait (&w, pred_more_packets, &more, WAIT_S));

  /* 4. the relay stalls: reported; it answers again: reported */
  sl_harness_stall_relay (c.h, TRUE);
  g_assert_true (sl_live_watch_wait (&w, pred_problem, "has not answered", WAIT_S));
  sl_harness_stall_relay (c.h, FALSE);
  g_assert_true (sl_live_watch_wait (&w, pred_problem, "answers again", WAIT_S));

  /* 4b. held back, see held_back_decoders() */
  held_back_decoders (&c, &w);

  /* 5. stopping while the relay is stalled returns (interrupter + signal),
   * and says nothing of the relay answering again: it does not (issue 17) */
  sl_harness_stall_relay (c.h, TRUE);
  g_mutex_lock (&w.lock);
  stalled_from = w.problems->len;
  g_mutex_unlock (&w.lock);
  g_assert_true (sl_live_watch_wait (&w, pred_problem_from, &(ProblemFrom) { "has not answered", stalled_from }, WAIT_S));
  g_mutex_lock (&w.lock);
  stalled_from = w.problems->len;
  g_mutex_unlock (&w.lock);
  t0 = g_get_monotonic_time ();
  sl_live_stop (live);
  g_test_message ("stop with a stalled relay took %.0f ms", (g_get_monotonic_time () - t0) / 1e3);
  g_assert_true (w.final);
  for (guint i = stalled_from; i < w.problems->len; i++)
    {
      g_test_message ("after the stall: %s", (char *) g_ptr_array_index (w.problems, i));
      g_assert_null (strstr (g_ptr_array_index (w.problems, i), "answers again"));
      g_assert_null (strstr (g_ptr_array_index (w.problems, i), "reachable again"));
    }
  sl_harness_stall_relay (c.h, FALSE);
  sl_live_free (live);
  sl_engine_free (engine);
  sl_live_watch_clear (&w);
  g_free (gamma.reason);

  /* 5b. 4b through an IPv6 relay address (an IPv4-mapped one reaches the
   * harness's relay): the decoders' in-process forwarder copies what the
   * relay sent before the stall once they go on, which babeltrace's
   * loopback end receives then; no answer of the relay either */
  g_assert_true (g_str_has_prefix (sl_harness_get_relay_url (c.h), "net://127.0.0.1:"));
  url6 = g_strdup_printf ("net://[::ffff:127.0.0.1]%s/session/%s",
                          sl_harness_get_relay_url (c.h) + strlen ("net://127.0.0.1"), SESSION);
  engine = sl_engine_new (NULL);
  live = watch_live (&w, engine, &lo, url6);
  g_assert_true (sl_live_watch_wait (&w, pred_streaming2, (const char *[]) { cluster_hosts[0].name, cluster_hosts[1].name },
                                     WAIT_S));
  held_back_decoders (&c, &w);
  sl_live_free (live);
  sl_engine_free (engine);
  sl_live_watch_clear (&w);

  /* 6. the relay is cut (killed) under a viewer, comes back, and the
   * sessions are made again: reported, then attached again */
  engine = sl_engine_new (NULL);
  live = watch_live (&w, engine, &lo, url);
  want = (StateWant) { cluster_hosts[1].name, SL_LIVE_HOST_STREAMING };
  g_assert_true (sl_live_watch_wait (&w, pred_state, &want, WAIT_S));
  sl_harness_kill_relay (c.h);
  g_assert_true (sl_live_watch_wait (&w, pred_problem, "lost the session", WAIT_S));
  g_assert_true (sl_harness_restart_relay (c.h, &error));
  g_assert_no_error (error);
  g_assert_true (sl_live_watch_wait (&w, pred_problem, "reachable again", WAIT_S) ||
                 has_problem (&w, "lost the session"));
  for (guint i = 0; i < 2; i++)
    {
      const char *destroy[] = { "destroy", SESSION, NULL };

      sl_harness_host_run_lttng (c.host[i], destroy, NULL, NULL);
      g_assert_true (sl_harness_host_create_session (c.host[i], SESSION, TIMER_US, &error));
      g_assert_no_error (error);
    }
  sl_live_reconnect (live);
  want = (StateWant) { cluster_hosts[1].name, SL_LIVE_HOST_STREAMING };
  g_assert_true (sl_live_watch_wait (&w, pred_state, &want, WAIT_S));
  more.packets = w.packets;
  g_assert_true (sl_live_watch_wait (&w, pred_more_packets, &more, WAIT_S));

  sl_live_free (live);
  sl_engine_free (engine);
  sl_live_watch_clear (&w);
  sl_cluster_finish (&c);
}

/* Each of the two hosts said that its session was created again: its
 * new session gave events (streaming alone may be an attachment that has
 * not read anything yet). */
static gboolean
pred_created_again2 (SlLiveWatch   *w,
                     gpointer data)
{
  const char **names = data;

  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *host = g_strdup_printf ("host %s:", names[k]);
      gboolean found = FALSE;

      for (guint i = 0; i < w->problems->len && !found; i++)
        {
          const char *p = g_ptr_array_index (w->problems, i);

          found = strstr (p, host) != NULL && strstr (p, "created again; attached") != NULL;
        }
      if (!found)
        return FALSE;
    }
  return TRUE;
}

static guint64
store_packets (const SlEventStore *store)
{
  return sl_event_store_get_kind_count (store, SL_EVENT_PACKET_SEND) +
         sl_event_store_get_kind_count (store, SL_EVENT_PACKET_RECV);
}

/* Sessions destroyed and created again under their names, through the
 * bare relay URL: attached again as the same hosts, their history kept;
 * gamma's clock has no drift (the new session's offset is the same: one
 * host), alpha's drifts 40 ppm from the wall clock, so its new session's
 * offset has moved by about a millisecond: a clock step, a segment of its
 * own (sl-alpha/2), as the folder reader makes. */
static void
test_live_recreated (void)
{
  SlCluster c;
  SlLiveWatch w;
  SlEngine *engine;
  SlLive *live;
  SlLiveOptions lo;
  g_autoptr(GError) error = NULL;
  const char *names[] = { cluster_hosts[0].name, cluster_hosts[2].name };
  guint e_alpha, e_gamma, e_alpha2;
  guint64 gamma_before, alpha_before;
  StateWant want;
  gint64 t0;

  if (!cluster_start (&c, 200))
    return;

  engine = sl_engine_new (NULL);
  sl_live_options_init (&lo);
  lo.keep_events = TRUE;
  live = watch_live (&w, engine, &lo, sl_harness_get_relay_url (c.h));
  g_assert_true (sl_live_watch_wait (&w, pred_goal, &(Goal) { 3, 2, 5 }, WAIT_S));

  for (guint i = 0; i < 2; i++)
    g_assert_true (sl_harness_host_destroy_session (c.host[i * 2], SESSION, &error));
  for (guint i = 0; i < 2; i++)
    {
      want = (StateWant) { names[i], SL_LIVE_HOST_ENDED };
      g_assert_true (sl_live_watch_wait (&w, pred_state, &want, WAIT_S));
    }

  sl_live_lock (live);
  e_alpha = engine_host (engine, names[0]);
  e_gamma = engine_host (engine, names[1]);
  alpha_before = store_packets (sl_live_get_event_store (live, e_alpha));
  gamma_before = store_packets (sl_live_get_event_store (live, e_gamma));
  sl_live_unlock (live);
  g_assert_cmpuint (alpha_before, >, 0);
  g_assert_cmpuint (gamma_before, >, 0);

  for (guint i = 0; i < 2; i++)
    g_assert_true (sl_harness_host_create_session (c.host[i * 2], SESSION, TIMER_US, &error));
  t0 = g_get_monotonic_time ();
  g_assert_true (sl_live_watch_wait (&w, pred_streaming2, names, WAIT_S));
  g_test_message ("re-attached %.0f ms after the sessions were created again", (g_get_monotonic_time () - t0) / 1e3);
  g_assert_true (sl_live_watch_wait (&w, pred_created_again2, names, WAIT_S));
  /* what a user saw: each host ended, and stayed so until its session
   * came back; nothing took our own ended viewer for another one */
  g_mutex_lock (&w.lock);
  g_assert_cmpuint (w.left_ended, ==, 0);
  g_assert_false (has_problem (&w, "another viewer"));
  g_mutex_unlock (&w.lock);

  /* alpha's new session is a segment of its own; gamma's is gamma */
  g_assert_true (sl_live_watch_wait (&w, pred_goal, &(Goal) { 4, 3, 10 }, WAIT_S));
  g_assert_true (has_problem (&w, "clock steps"));
  for (guint i = 0; i < w.problems->len; i++)
    {
      const char *p = g_ptr_array_index (w.problems, i);

      g_test_message ("problem: %s", p);
      if (strstr (p, "clock steps") != NULL)
        {
          g_assert_nonnull (strstr (p, "sl-alpha/2"));
          g_assert_null (strstr (p, "sl-gamma"));
        }
    }

  sl_live_stop (live);
  g_assert_true (w.final);
  g_assert_cmpuint (sl_engine_get_n_hosts (engine), ==, 4);
  g_assert_cmpuint (engine_host (engine, names[0]), ==, e_alpha);
  g_assert_cmpuint (engine_host (engine, names[1]), ==, e_gamma);
  e_alpha2 = engine_host (engine, "sl-alpha/2");
  /* the history is kept: gamma's store goes on from what it held, alpha's
   * first segment keeps its events, the new segment has its own; each
   * holds every packet event its engine host got */
  g_assert_cmpuint (store_packets (sl_live_get_event_store (live, e_gamma)), >, gamma_before);
  g_assert_cmpuint (store_packets (sl_live_get_event_store (live, e_alpha)), ==, alpha_before);
  g_assert_true (sl_live_get_event_store (live, e_alpha2) != sl_live_get_event_store (live, e_alpha));
  for (guint e = 0; e < sl_engine_get_n_hosts (engine); e++)
    {
      SlHostCounts counts;

      sl_engine_get_host_counts (engine, e, &counts);
      g_assert_cmpuint (counts.packet_events, >, 0);
      g_assert_cmpuint (store_packets (sl_live_get_event_store (live, e)), ==, counts.packet_events);
    }

  sl_live_free (live);
  sl_engine_free (engine);
  sl_live_watch_clear (&w);
  sl_cluster_finish (&c);
}

/* syncline-cli sessions and live --json-lines, and folder (the relay's
 * output, for history) then live in one run. */
static void
test_live_cli (void)
{
  SlCluster c;
  Run r = { 0 };
  g_autofree char *out_dir = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_json = 0, n_final = 0;

  if (!cluster_start (&c, 200))
    return;

  run_cli (&r, "sessions", sl_harness_get_relay_url (c.h), NULL);
  g_assert_cmpint (r.status, ==, 0);
  for (guint i = 0; i < 3; i++)
    g_assert_nonnull (strstr (r.out, cluster_hosts[i].name));
  g_assert_nonnull (strstr (r.out, SESSION));
  g_assert_nonnull (strstr (r.out, "100 ms"));
  run_clear (&r);

  run_cli (&r, "sessions", "net://127.0.0.1:1", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "not reachable"));
  run_clear (&r);

  /* history from the relay's output folder, then live */
  g_usleep (2 * G_USEC_PER_SEC);
  out_dir = sl_harness_get_output_dir (c.h);
  run_cli (&r, "live", "--duration=6", "--json-lines", out_dir, sl_harness_get_relay_url (c.h), NULL);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = NULL;
      JsonObject *o;

      if (*lines[i] == '\0')
        continue;
      parser = json_parser_new ();
      o = parse_object (lines[i], parser);
      g_assert_true (json_object_has_member (o, "links"));
      g_assert_true (json_object_has_member (o, "hosts"));
      g_assert_true (json_object_has_member (o, "journal"));
      g_assert_true (json_object_has_member (o, "wall_time"));
      g_assert_true (json_object_has_member (o, "attachments"));
      n_json++;
      if (json_object_get_boolean_member (o, "final"))
        {
          JsonArray *links = json_object_get_array_member (o, "links");

          n_final++;
          /* the same three hosts from the folder and live, not six */
          g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "hosts")), ==, 3);
          g_assert_cmpuint (json_array_get_length (links), ==, 2);
          for (guint k = 0; k < 2; k++)
            g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (links, k), "quality"),
                             ==, "accurate");
        }
    }
  g_assert_cmpuint (n_json, >=, 3);
  g_assert_cmpuint (n_final, ==, 1);
  run_clear (&r);

  /* Ctrl-C while the relay is stalled: the stall is reported, and nothing
   * says that the relay answers again, since it does not (issue 17) */
  {
    g_autofree char *err_path = g_build_filename (sl_harness_get_dir (c.h), "cli-stall.err", NULL);
    g_autofree char *out_path = g_build_filename (sl_harness_get_dir (c.h), "cli-stall.out", NULL);
    g_autofree char *script = g_strdup_printf ("exec \"$0\" live --stall-ms=1000 %s 2>%s",
                                               sl_harness_get_relay_url (c.h), err_path);
    g_autofree char *out = NULL;
    const char *argv[] = { "sh", "-c", script, g_getenv ("SL_CLI"), NULL };
    g_autoptr(GError) error = NULL;
    g_autofree char *err = NULL;
    const char *stall_at;
    int wait_status = 0;
    GPid cli;

    cli = sl_harness_spawn (c.h, argv, out_path, &error);
    g_assert_no_error (error);
    /* the status line once the three hosts stream */
    for (guint i = 0; i < 600 && (out == NULL || strstr (out, "3/3") == NULL); i++)
      {
        g_clear_pointer (&out, g_free);
        g_usleep (100000);
        g_file_get_contents (out_path, &out, NULL, NULL);
      }
    sl_harness_stall_relay (c.h, TRUE);
    for (guint i = 0; i < 600 && (err == NULL || strstr (err, "has not answered") == NULL); i++)
      {
        g_clear_pointer (&err, g_free);
        g_usleep (100000);
        g_file_get_contents (err_path, &err, NULL, NULL);
      }
    g_assert_nonnull (strstr (err, "has not answered"));
    kill (cli, SIGINT);
    g_assert_true (sl_harness_wait_process (c.h, cli, 30000, &wait_status, &error));
    sl_harness_stall_relay (c.h, FALSE);
    g_clear_pointer (&err, g_free);
    g_assert_true (g_file_get_contents (err_path, &err, NULL, NULL));
    g_test_message ("live stopped while the relay is stalled:\n%s", err);
    g_assert_true (WIFEXITED (wait_status));
    g_assert_cmpint (WEXITSTATUS (wait_status), ==, 0);
    stall_at = strstr (err, "has not answered");
    g_assert_null (strstr (stall_at, "answers again"));
    g_assert_null (strstr (stall_at, "reachable again"));
  }

  sl_cluster_finish (&c);
}

/* A live view's inputs once an attachment is detached: what the view
 * still attaches, nothing that would attach the detached one again. */
static void
test_live_urls_after_detach (void)
{
  const char *attached[] = { "net://relay:5344/host/alpha/s", "net://relay:5344/host/beta/s",
                             "net://relay:5344/host/beta/t", "net://other:5344/host/alpha/s", NULL };
  struct
  {
    const char *inputs[4];
    const char *removed;
    const char *expected;
  } cases[] = {
    /* an explicit attachment goes, the others and a folder stay */
    { { "/traces/a", "net://relay/host/alpha/s", "net://relay/host/beta/s", NULL },
      "net://relay:5344/host/beta/s", "/traces/a net://relay/host/alpha/s" },
    /* a whole relay: the sessions it still attaches there */
    { { "net://relay", "/traces/a", NULL }, "net://relay/host/beta/s",
      "net://relay:5344/host/alpha/s net://relay:5344/host/beta/t /traces/a" },
    /* a session on every host, one host's detached */
    { { "net://relay/session/s", NULL }, "net://relay/host/alpha/s", "net://relay:5344/host/beta/s" },
    /* a whole session detached from a whole relay */
    { { "net://relay", NULL }, "net://relay/session/s", "net://relay:5344/host/beta/t" },
    /* another relay, another session: untouched */
    { { "net://other", "net://relay/session/t", NULL }, "net://relay/host/alpha/s",
      "net://other net://relay/session/t" },
    /* the relay itself detached: nothing of it is left */
    { { "net://relay/host/alpha/s", "net://relay/session/t", "net://other", NULL }, "net://relay",
      "net://other" },
    /* an explicit input also listed among the replacements: once */
    { { "net://relay:5344/host/alpha/s", "net://relay", NULL }, "net://relay/host/beta/s",
      "net://relay:5344/host/alpha/s net://relay:5344/host/beta/t" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(GStrv) out = sl_live_urls_after_detach (cases[i].inputs, cases[i].removed, attached);
      g_autofree char *joined = g_strjoinv (" ", out);

      g_test_message ("case %u: %s", i, joined);
      g_assert_cmpstr (joined, ==, cases[i].expected);
    }
  /* not a relay URL: nothing is removed */
  {
    const char *inputs[] = { "net://relay", NULL };
    g_auto(GStrv) out = sl_live_urls_after_detach (inputs, "/traces/a", attached);

    g_assert_cmpstrv (out, inputs);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/live/sync", test_live_sync);
  g_test_add_func ("/live/faults", test_live_faults);
  g_test_add_func ("/live/recreated", test_live_recreated);
  g_test_add_func ("/live/cli", test_live_cli);
  g_test_add_func ("/live/urls-after-detach", test_live_urls_after_detach);
  return g_test_run ();
}
