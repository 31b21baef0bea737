/* test-live-harness.c: the live test harness is real and tells the truth
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Independently of Syncline's live reader: a relay and three simulated hosts
 * (wall clocks +2 ms, -5 ms, 0; drifts +50, -50, 0 ppm) with 100 ms live
 * sessions; sl-test-netpeer processes exchange messages a <-> b <-> c.
 * babeltrace2 lists the three sessions and a live viewer receives one host's
 * events while it is tracing; the relay's output then holds every event with
 * its host's name, each send has its identical receive on the other host, the
 * ground truth puts each send before its receive by a plausible loopback
 * delay, and the raw timestamps show the configured clock differences.
 * Nothing is left behind.
 *
 * The cases run in order and share one set-up.
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "live-harness.h"

#define N_HOSTS 3
#define ROUND_TRIPS 300
#define RATE_HZ "200"
#define SESSION "live"

/* The one-way loopback delays the ground truth must show: every one
 * positive, the median of each direction of each link below 1 ms. No bound
 * on each: on a loaded machine a receiver may wait tens of ms for a CPU
 * (78 ms seen with a load of 8 on 2 cores). A ground truth wrong by an
 * offset would make one direction negative and the other slow. */
#define MAX_MEDIAN_DELAY_NS (1000 * 1000)
/* how far a host's measured clock difference may be from the configured one
 * (REALTIME moving against MONOTONIC between measurements, delay asymmetry) */
#define SKEW_TOLERANCE_NS (500 * 1000)

typedef struct
{
  const char *name;
  gint64      wall_error_ns;
  gint64      drift_ppb;
} HostSpec;

static const HostSpec specs[N_HOSTS] = {
  { "sl-alpha", 2000000, 50000 },
  { "sl-beta", -5000000, -50000 },
  { "sl-gamma", 0, 0 },
};

typedef struct
{
  gint64  t;        /* raw trace ns, as babeltrace2 shows it */
  guint   host;
  gboolean send;
  char   *key;      /* the packet's identity: every field */
} Event;

static struct
{
  SlHarness     *h;
  SlHarnessHost *hosts[N_HOSTS];
  GPid           peers[N_HOSTS];
  GPid           viewer;
  char          *viewer_out;
  gint64         m_start, m_end;   /* CLOCK_MONOTONIC around the traffic */
  GPtrArray     *events[N_HOSTS];
  gboolean       skipped;
} s;

/* A harness call must succeed; its error, with the logs it quotes, says why not. */
#define check(call, error) \
  G_STMT_START { \
    if (!(call)) \
      g_error ("%s failed: %s", #call, (error) != NULL ? (error)->message : "no error set"); \
  } G_STMT_END

static gboolean
need_setup (void)
{
  if (s.h == NULL)
    {
      g_test_skip (s.skipped ? "no live set-up (see the first case)" : "the set-up failed");
      return FALSE;
    }
  return TRUE;
}

static void
event_free (gpointer p)
{
  Event *e = p;

  g_free (e->key);
  g_free (e);
}

static void
test_setup (void)
{
  g_autofree char *skip = NULL;
  g_autoptr(GError) error = NULL;

  s.h = sl_harness_new (&skip);
  if (s.h == NULL)
    {
      if (sl_harness_must_not_skip ())
        g_error ("SL_REQUIRE_LIVE=1 but the live harness cannot run: %s", skip);
      s.skipped = TRUE;
      g_test_skip (skip);
      return;
    }
  check (sl_harness_start_relay (s.h, &error), error);
  g_assert_nonnull (sl_harness_get_relay_url (s.h));
  g_assert_true (g_str_has_prefix (sl_harness_get_relay_url (s.h), "net://127.0.0.1:"));

  for (guint i = 0; i < N_HOSTS; i++)
    {
      s.hosts[i] = sl_harness_add_host (s.h, specs[i].name, specs[i].wall_error_ns, specs[i].drift_ppb,
                                        &error);
      g_assert_no_error (error);
      g_assert_cmpstr (sl_harness_host_get_name (s.hosts[i]), ==, specs[i].name);
      check (sl_harness_host_create_session (s.hosts[i], SESSION, 100000, &error), error);
    }

  /* errors are reported, not hidden */
  g_assert_null (sl_harness_add_host (s.h, specs[0].name, 0, 0, &error));
  g_assert_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED);
  g_clear_error (&error);
}

static void
test_listing (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *query = NULL;
  g_autofree char *url_param = NULL;

  if (!need_setup ())
    return;
  {
    const char *argv[] = { "babeltrace2", "-i", "lttng-live", sl_harness_get_relay_url (s.h), NULL };

    check (sl_harness_run (s.h, argv, 30000, &out, NULL, &error), error);
  }
  url_param = g_strdup_printf ("url=\"%s\"", sl_harness_get_relay_url (s.h));
  {
    const char *argv[] = { "babeltrace2", "query", "src.ctf.lttng-live", "sessions", "-p", url_param, NULL };

    check (sl_harness_run (s.h, argv, 30000, &query, NULL, &error), error);
  }
  for (guint i = 0; i < N_HOSTS; i++)
    {
      g_autofree char *url = g_strdup_printf ("%s/host/%s/%s ", sl_harness_get_relay_url (s.h), specs[i].name,
                                              SESSION);
      g_autofree char *host_line = g_strdup_printf ("target-hostname: %s\n", specs[i].name);

      if (strstr (out, url) == NULL)
        g_error ("babeltrace2's listing lacks %s:\n%s", url, out);
      if (strstr (query, host_line) == NULL)
        g_error ("the sessions query lacks %s:\n%s", host_line, query);
    }
  {
    g_auto(GStrv) lines = g_strsplit (g_strstrip (out), "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), ==, N_HOSTS);
  }
}

static guint
count_lines_with (const char *path,
                  const char *needle)
{
  g_autofree char *text = NULL;
  guint n = 0;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

static void
test_traffic (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *viewer_url = NULL;
  g_autofree char *p1 = NULL;
  g_autofree char *p2 = NULL;
  gint64 deadline;
  int status;
  guint seen = 0;

  if (!need_setup ())
    return;

  /* a live viewer of sl-gamma, attached before any event exists */
  viewer_url = g_strdup_printf ("%s/host/%s/%s", sl_harness_get_relay_url (s.h), specs[2].name, SESSION);
  s.viewer_out = g_build_filename (sl_harness_get_dir (s.h), "viewer.txt", NULL);
  {
    const char *argv[] = { "babeltrace2", "-i", "lttng-live", "--clock-seconds", "--no-delta", viewer_url, NULL };

    s.viewer = sl_harness_spawn (s.h, argv, s.viewer_out, &error);
    g_assert_no_error (error);
    g_assert_cmpint (s.viewer, >, 0);
  }
  /* a viewer only gets what is produced after it has attached: wait for
   * the relay to count it */
  {
    const char *argv[] = { "babeltrace2", "-i", "lttng-live", sl_harness_get_relay_url (s.h), NULL };
    g_autofree char *prefix = g_strconcat (viewer_url, " (", NULL);
    gboolean attached = FALSE;

    deadline = g_get_monotonic_time () + SL_HARNESS_WAIT_S * G_USEC_PER_SEC;
    while (!attached)
      {
        g_autofree char *out = NULL;
        g_auto(GStrv) lines = NULL;

        check (sl_harness_run (s.h, argv, 30000, &out, NULL, &error), error);
        lines = g_strsplit (out, "\n", -1);
        /* babeltrace2 2.1 adds the session's format: "..., 1 client(s) connected, CTF 2)" */
        for (guint i = 0; lines[i] != NULL; i++)
          attached |= g_str_has_prefix (lines[i], prefix)
                      && (g_str_has_suffix (lines[i], ", 1 client(s) connected)")
                          || strstr (lines[i], ", 1 client(s) connected, ") != NULL);
        if (!attached && g_get_monotonic_time () > deadline)
          g_error ("the live viewer of %s did not attach in %d s; the relay lists:\n%s\nits log:\n%s", viewer_url,
                   SL_HARNESS_WAIT_S, out, sl_harness_get_log_tail (s.h, s.viewer));
        if (!attached)
          g_usleep (20000);
      }
  }

  p1 = g_strdup_printf ("%u", sl_harness_free_port ());
  p2 = g_strdup_printf ("%u", sl_harness_free_port ());
  {
    g_autofree char *listen2 = g_strconcat ("--listen=", p2, NULL);
    g_autofree char *listen1 = g_strconcat ("--listen=", p1, NULL);
    g_autofree char *connect2 = g_strconcat ("--connect=", p2, NULL);
    g_autofree char *connect1 = g_strconcat ("--connect=", p1, NULL);
    g_autofree char *count = g_strdup_printf ("--count=%d", ROUND_TRIPS);
    const char *gamma[] = { listen2, NULL };
    const char *beta[] = { listen1, connect2, "--rate=" RATE_HZ, count, NULL };
    const char *alpha[] = { connect1, "--rate=" RATE_HZ, count, "--size=100", NULL };

    s.m_start = sl_harness_monotonic_ns ();
    s.peers[2] = sl_harness_host_spawn_peer (s.hosts[2], gamma, &error);
    g_assert_no_error (error);
    s.peers[1] = sl_harness_host_spawn_peer (s.hosts[1], beta, &error);
    g_assert_no_error (error);
    s.peers[0] = sl_harness_host_spawn_peer (s.hosts[0], alpha, &error);
    g_assert_no_error (error);
  }

  check (sl_harness_wait_process (s.h, s.peers[0], 60000, &status, &error), error);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("sl-test-netpeer on sl-alpha failed: %s", sl_harness_get_log_tail (s.h, s.peers[0]));

  /* sl-gamma's events reach the viewer while the session is still live */
  deadline = g_get_monotonic_time () + SL_HARNESS_WAIT_S * G_USEC_PER_SEC;
  while ((seen = count_lines_with (s.viewer_out, " syncline_net:tcp_")) < 2 * ROUND_TRIPS
         && g_get_monotonic_time () < deadline)
    g_usleep (50000);
  g_test_message ("the live viewer received %u of sl-gamma's %d events before the session ended", seen,
                  2 * ROUND_TRIPS);
  g_assert_cmpuint (seen, ==, 2 * ROUND_TRIPS);

  for (guint i = 1; i < N_HOSTS; i++)
    {
      g_autofree char *tail = NULL;

      check (sl_harness_stop_process (s.h, s.peers[i], 10000, &status, &error), error);
      tail = sl_harness_get_log_tail (s.h, s.peers[i]);
      if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
        g_error ("sl-test-netpeer on %s failed: %s", specs[i].name, tail);
      g_test_message ("%s: %s", specs[i].name, g_strstrip (tail));
    }
  s.m_end = sl_harness_monotonic_ns ();

  for (guint i = 0; i < N_HOSTS; i++)
    {
      check (sl_harness_host_destroy_session (s.hosts[i], SESSION, &error), error);
    }
  /* the viewer ends by itself when its session is destroyed */
  check (sl_harness_wait_process (s.h, s.viewer, 20000, &status, &error), error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_cmpuint (count_lines_with (s.viewer_out, " syncline_net:tcp_"), ==, 2 * ROUND_TRIPS);
}

/* "[S.NNNNNNNNN] HOST syncline_net:tcp_send: { cpu_id = N }, { vpid = P, vtid = T, procname = "…" },
 *  { family = 4, saddr = [ [0] = 127, ... ], ... }" */
static void
parse_trace (guint       host,
             const char *text)
{
  g_autoptr(GRegex) line_re = g_regex_new ("^\\[(\\d+)\\.(\\d{9})\\] (\\S+) syncline_net:tcp_(send|recv): "
                                           "\\{ cpu_id = \\d+ \\}, (?:\\{ vpid = \\d+, vtid = \\d+, procname = \"[^\"]*\" \\}, )?"
                                           "\\{ (family = .*) \\}$",
                                           G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GRegex) array_re = g_regex_new ("\\[ \\[0\\] = (\\d+), \\[1\\] = (\\d+), \\[2\\] = (\\d+), "
                                            "\\[3\\] = (\\d+)(, \\[\\d+\\] = 0){12} \\]", 0, 0, NULL);
  /* addresses as CTF 2 BLOBs (SL_TP_BLOB_ADDRESSES), printed in hex by babeltrace2 2.1 */
  g_autoptr(GRegex) blob_re = g_regex_new ("\\{ 7f 00 00 01( 00){12} \\}", 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n_lines = 0;

  s.events[host] = g_ptr_array_new_with_free_func (event_free);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *sec = NULL;
      g_autofree char *ns = NULL;
      g_autofree char *name = NULL;
      g_autofree char *kind = NULL;
      g_autofree char *fields = NULL;
      Event *e;

      if (*lines[i] == '\0')
        continue;
      n_lines++;
      if (!g_regex_match (line_re, lines[i], 0, &m))
        g_error ("%s: unexpected line in the trace: %s", specs[host].name, lines[i]);
      sec = g_match_info_fetch (m, 1);
      ns = g_match_info_fetch (m, 2);
      name = g_match_info_fetch (m, 3);
      kind = g_match_info_fetch (m, 4);
      fields = g_match_info_fetch (m, 5);
      g_clear_pointer (&m, g_match_info_free);
      /* the trace's hostname is the host's */
      g_assert_cmpstr (name, ==, specs[host].name);
      /* IPv4 127.0.0.1 in the first four bytes of both addresses, the rest zero */
      {
        g_autofree char *addr_array = g_regex_replace (array_re, fields, -1, 0, "\\1.\\2.\\3.\\4", 0, NULL);
        g_autofree char *addr_free = g_regex_replace_literal (blob_re, addr_array, -1, 0, "127.0.0.1", 0, NULL);

        if (strstr (addr_free, "saddr = 127.0.0.1, daddr = 127.0.0.1, ") == NULL
            || !g_str_has_prefix (addr_free, "family = 4, ") || !g_str_has_suffix (addr_free, ", flags = 24"))
          g_error ("%s: unexpected fields: %s", specs[host].name, fields);
        e = g_new0 (Event, 1);
        e->t = g_ascii_strtoll (sec, NULL, 10) * 1000000000 + g_ascii_strtoll (ns, NULL, 10);
        e->host = host;
        e->send = strcmp (kind, "send") == 0;
        e->key = g_steal_pointer (&addr_free);
      }
      g_ptr_array_add (s.events[host], e);
    }
  g_assert_cmpuint (n_lines, ==, s.events[host]->len);
}

static void
test_trace_content (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) sends = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) recvs = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *out_dir = NULL;
  /* per host: sends, receives; alpha one connection, beta two, gamma one */
  const guint expected[N_HOSTS] = { ROUND_TRIPS, 2 * ROUND_TRIPS, ROUND_TRIPS };

  if (!need_setup ())
    return;
  sl_harness_stop_relay (s.h);
  out_dir = sl_harness_get_output_dir (s.h);

  for (guint i = 0; i < N_HOSTS; i++)
    {
      g_autofree char *dir = g_build_filename (out_dir, specs[i].name, NULL);
      g_autofree char *text = NULL;
      const char *argv[] = { "babeltrace2", "--clock-seconds", "--no-delta", dir, NULL };
      guint n_send = 0, n_recv = 0;

      g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
      check (sl_harness_run (s.h, argv, 60000, &text, NULL, &error), error);
      parse_trace (i, text);
      for (guint j = 0; j < s.events[i]->len; j++)
        {
          Event *e = s.events[i]->pdata[j];
          GHashTable *table = e->send ? sends : recvs;

          if (g_hash_table_contains (table, e->key))
            g_error ("%s: two %s events with the same fields: %s", specs[i].name, e->send ? "send" : "recv",
                     e->key);
          g_hash_table_insert (table, e->key, e);
          if (e->send)
            n_send++;
          else
            n_recv++;
        }
      g_test_message ("%s: %u sends, %u receives", specs[i].name, n_send, n_recv);
      g_assert_cmpuint (n_send, ==, expected[i]);
      g_assert_cmpuint (n_recv, ==, expected[i]);
    }

  /* each send has its identical receive, on another host, and conversely */
  g_assert_cmpuint (g_hash_table_size (sends), ==, g_hash_table_size (recvs));
  {
    GHashTableIter it;
    gpointer value;

    g_hash_table_iter_init (&it, sends);
    while (g_hash_table_iter_next (&it, NULL, &value))
      {
        Event *snd = value;
        Event *rcv = g_hash_table_lookup (recvs, snd->key);

        if (rcv == NULL)
          g_error ("%s sent %s and no host received it", specs[snd->host].name, snd->key);
        g_assert_cmpuint (rcv->host, !=, snd->host);
      }
  }
}

static int
cmp_gint64 (gconstpointer a,
            gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static gint64
median (GArray *a)
{
  g_array_sort (a, cmp_gint64);
  return g_array_index (a, gint64, a->len / 2);
}

/* The configured error of host I at M: wall error + drift since the metadata
 * offset was measured, some time between BASE and the end of the traffic. */
static void
expected_error (guint   i,
                gint64  base,
                gint64  m,
                gint64 *lo,
                gint64 *hi)
{
  gint64 a = specs[i].wall_error_ns + specs[i].drift_ppb * (m - base) / 1000000000;
  gint64 b = specs[i].wall_error_ns + specs[i].drift_ppb * (m - s.m_end) / 1000000000;

  *lo = MIN (a, b);
  *hi = MAX (a, b);
}

static void
test_ground_truth (void)
{
  g_autoptr(GError) error = NULL;
  gint64 base, m_mid;
  gint64 max_delay = 0, min_delay = G_MAXINT64;
  g_autoptr(GArray) delays = g_array_new (FALSE, FALSE, sizeof (gint64));
  /* raw one-way differences and true delays per ordered pair of hosts */
  GArray *raw[N_HOSTS][N_HOSTS] = { { NULL } };
  GArray *truth[N_HOSTS][N_HOSTS] = { { NULL } };
  g_autoptr(GHashTable) recvs = g_hash_table_new (g_str_hash, g_str_equal);

  if (!need_setup ())
    return;
  g_assert_nonnull (s.events[0]);
  base = sl_harness_get_clock_base_ns (s.h);
  m_mid = (s.m_start + s.m_end) / 2;

  /* The ground truth against the configuration: at M_MID, a host's
   * timestamps read its wall clock error plus its drift since its metadata
   * offset was measured (between the base and the end of the traffic) ahead
   * of sl-gamma's (whose clock is right), up to how REALTIME moved against
   * MONOTONIC between the daemons' measurements. */
  for (guint i = 0; i < N_HOSTS; i++)
    {
      gint64 t0 = sl_harness_host_trace_time (s.hosts[i], SESSION, m_mid, &error);
      gint64 g0 = sl_harness_host_trace_time (s.hosts[2], SESSION, m_mid, &error);
      gint64 t1 = sl_harness_host_trace_time (s.hosts[i], SESSION, m_mid + 1000000000, &error);
      gint64 g1 = sl_harness_host_trace_time (s.hosts[2], SESSION, m_mid + 1000000000, &error);
      gint64 lo, hi;

      g_assert_no_error (error);
      expected_error (i, base, m_mid, &lo, &hi);
      g_test_message ("%s: ground truth %+" G_GINT64_FORMAT " ns from sl-gamma, configured %+" G_GINT64_FORMAT
                      "..%+" G_GINT64_FORMAT, specs[i].name, t0 - g0, lo, hi);
      g_assert_cmpint (t0 - g0, >, lo - SKEW_TOLERANCE_NS);
      g_assert_cmpint (t0 - g0, <, hi + SKEW_TOLERANCE_NS);
      /* one second later, the drift has added exactly drift_ppb ns (±1 of rounding) */
      g_assert_cmpint (ABS ((t1 - g1) - (t0 - g0) - specs[i].drift_ppb), <=, 1);
      /* the inverse is exact */
      g_assert_cmpint (sl_harness_host_monotonic_time (s.hosts[i], SESSION, t0, &error), ==, m_mid);
      g_assert_no_error (error);
    }

  for (guint i = 0; i < N_HOSTS; i++)
    for (guint j = 0; j < s.events[i]->len; j++)
      {
        Event *e = s.events[i]->pdata[j];
        if (!e->send)
          g_hash_table_insert (recvs, e->key, e);
      }

  for (guint i = 0; i < N_HOSTS; i++)
    for (guint j = 0; j < s.events[i]->len; j++)
      {
        Event *snd = s.events[i]->pdata[j];
        Event *rcv;
        gint64 m_send, m_recv, delay, d;

        if (!snd->send)
          continue;
        rcv = g_hash_table_lookup (recvs, snd->key);
        g_assert_nonnull (rcv);
        m_send = sl_harness_host_monotonic_time (s.hosts[snd->host], SESSION, snd->t, &error);
        m_recv = sl_harness_host_monotonic_time (s.hosts[rcv->host], SESSION, rcv->t, &error);
        g_assert_no_error (error);
        g_assert_cmpint (m_send, >=, s.m_start);
        g_assert_cmpint (m_recv, <=, s.m_end);
        delay = m_recv - m_send;
        if (delay <= 0)
          g_error ("%s -> %s: one-way delay %" G_GINT64_FORMAT " ns by the ground truth (%s)",
                   specs[snd->host].name, specs[rcv->host].name, delay, snd->key);
        g_array_append_val (delays, delay);
        min_delay = MIN (min_delay, delay);
        max_delay = MAX (max_delay, delay);
        if (raw[snd->host][rcv->host] == NULL)
          {
            raw[snd->host][rcv->host] = g_array_new (FALSE, FALSE, sizeof (gint64));
            truth[snd->host][rcv->host] = g_array_new (FALSE, FALSE, sizeof (gint64));
          }
        d = rcv->t - snd->t;
        g_array_append_val (raw[snd->host][rcv->host], d);
        g_array_append_val (truth[snd->host][rcv->host], delay);
      }
  g_test_message ("ground-truth one-way delays: min %" G_GINT64_FORMAT " ns, median %" G_GINT64_FORMAT
                  " ns, max %" G_GINT64_FORMAT " ns over %u messages",
                  min_delay, median (delays), max_delay, delays->len);
  g_assert_cmpuint (delays->len, ==, 4 * ROUND_TRIPS);
  for (guint a = 0; a < N_HOSTS; a++)
    for (guint b = 0; b < N_HOSTS; b++)
      if (truth[a][b] != NULL)
        {
          gint64 med = median (truth[a][b]);

          g_test_message ("%s -> %s: median true delay %" G_GINT64_FORMAT " ns", specs[a].name, specs[b].name, med);
          g_assert_cmpint (med, <, MAX_MEDIAN_DELAY_NS);
        }

  /* The raw timestamps show the skew: half the difference of the median raw
   * one-way delays of a link is its clock difference (the delays cancel). */
  for (guint a = 0; a < N_HOSTS; a++)
    for (guint b = a + 1; b < N_HOSTS; b++)
      {
        gint64 est, lo_a, hi_a, lo_b, hi_b;

        if (raw[a][b] == NULL && raw[b][a] == NULL)
          continue;
        g_assert_nonnull (raw[a][b]);
        g_assert_nonnull (raw[b][a]);
        est = (median (raw[a][b]) - median (raw[b][a])) / 2;
        expected_error (a, base, m_mid, &lo_a, &hi_a);
        expected_error (b, base, m_mid, &lo_b, &hi_b);
        g_test_message ("%s -> %s: raw clock difference %+" G_GINT64_FORMAT " ns, configured %+" G_GINT64_FORMAT
                        "..%+" G_GINT64_FORMAT, specs[a].name, specs[b].name, est, lo_b - hi_a, hi_b - lo_a);
        g_assert_cmpint (est, >, lo_b - hi_a - SKEW_TOLERANCE_NS);
        g_assert_cmpint (est, <, hi_b - lo_a + SKEW_TOLERANCE_NS);
        /* the raw one-way delays alone look wrong by the skew */
        g_assert_cmpint (ABS (median (raw[a][b])), >, 1000000);
      }
  for (guint a = 0; a < N_HOSTS; a++)
    for (guint b = 0; b < N_HOSTS; b++)
      if (raw[a][b] != NULL)
        {
          g_array_unref (raw[a][b]);
          g_array_unref (truth[a][b]);
        }
}

static void
test_relay_control (void)
{
  g_autoptr(GError) error = NULL;
  guint port;

  if (!need_setup ())
    return;
  /* the relay was stopped: it comes back on its ports, can stall and crash */
  port = sl_harness_get_live_port (s.h);
  check (sl_harness_restart_relay (s.h, &error), error);
  g_assert_cmpuint (sl_harness_get_live_port (s.h), ==, port);
  sl_harness_stall_relay (s.h, TRUE);
  sl_harness_stall_relay (s.h, FALSE);
  sl_harness_kill_relay (s.h);
  check (sl_harness_restart_relay (s.h, &error), error);
  {
    const char *argv[] = { "babeltrace2", "-i", "lttng-live", sl_harness_get_relay_url (s.h), NULL };
    g_autofree char *out = NULL;

    check (sl_harness_run (s.h, argv, 30000, &out, NULL, &error), error);
  }
  /* a traced program that fails is reported with its log (not earlier: it
   * would have created sl-alpha's session registry long before the others) */
  {
    const char *bad[] = { "--listen=1", "--size=1", NULL };

    g_assert_cmpint (sl_harness_host_spawn_peer (s.hosts[0], bad, &error), ==, 0);
    g_assert_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED);
    g_assert_nonnull (strstr (error->message, "bad arguments"));
    g_clear_error (&error);
  }
  /* left stalled on purpose: free must cope */
  sl_harness_stall_relay (s.h, TRUE);
}

static void
test_clean (void)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  g_autofree char *dir = NULL;

  if (!need_setup ())
    return;
  dir = g_strdup (sl_harness_get_dir (s.h));
  if (!sl_harness_free_and_check_clean (g_steal_pointer (&s.h), problems))
    g_error ("the harness left things behind:\n%s", problems->str);
  if (g_getenv ("SL_HARNESS_KEEP") == NULL)
    g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/live-harness/setup", test_setup);
  g_test_add_func ("/live-harness/listing", test_listing);
  g_test_add_func ("/live-harness/traffic", test_traffic);
  g_test_add_func ("/live-harness/trace-content", test_trace_content);
  g_test_add_func ("/live-harness/ground-truth", test_ground_truth);
  g_test_add_func ("/live-harness/relay-control", test_relay_control);
  g_test_add_func ("/live-harness/clean", test_clean);
  ret = g_test_run ();

  sl_harness_free (s.h);
  for (guint i = 0; i < N_HOSTS; i++)
    if (s.events[i] != NULL)
      g_ptr_array_unref (s.events[i]);
  g_free (s.viewer_out);
  return ret;
}
