/* live-harness.h: real LTTng daemons for live tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A harness owns a private temporary folder, one lttng-relayd bound to
 * 127.0.0.1 and any number of simulated hosts. A host is its own
 * lttng-sessiond --no-kernel (and the lttng-consumerd it starts) in its own
 * UTS and mount namespaces (own host name; private /dev/shm; /run/lttng
 * hidden, so a system-wide root session daemon never sees its programs),
 * with a private LTTNG_HOME and clock (sl-test-clock: wall clock error and
 * drift), running unprivileged: as root, every process the harness starts
 * runs as nobody (65534); as an ordinary user, the host's namespaces live in
 * a user namespace mapping the user to itself. The traced programs are
 * sl-test-netpeer processes, in their host's namespaces, exchanging real TCP
 * messages over loopback and logging syncline_net:tcp_send/tcp_recv.
 *
 * Every process the harness starts carries SL_HARNESS_TAG=<unique> in its
 * environment and dies with the test process (parent-death signal); a
 * watchdog process kills whatever is left and removes LTTng's shared memory
 * files when the harness is freed or when the test process dies, so a
 * failed assertion leaves no daemon behind (its logs are then kept).
 *
 * Everything waits with a timeout. Errors name what failed and carry the
 * tail of the relevant log. Call the harness from one thread, the one that
 * lives as long as it does (the test's main thread): the parent-death signal
 * follows the thread that started a process.
 *
 * Environment read: SL_TEST_EXEC, SL_TEST_NETPEER, SL_TEST_CLOCK_PLUGIN (set
 * by tests/meson.build); SL_LTTNG, SL_LTTNG_RELAYD, SL_LTTNG_SESSIOND,
 * SL_BABELTRACE2 (else found in PATH); SL_HARNESS_KEEP=1 keeps the
 * temporary folder (its path is printed); SL_HARNESS_VERBOSE=1 makes the
 * daemons verbose in their logs; SL_HARNESS_SUBBUF_SIZE (default 1M) and
 * SL_HARNESS_NUM_SUBBUF (default 4): the channel's sub-buffers.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How long the harness waits for a daemon or a traced program to come up
 * before it fails: only there to keep a broken setup from hanging. On a
 * machine whose 2 cores carry 40 runnable processes, lttng-sessiond takes
 * tens of seconds to answer. */
#define SL_HARNESS_WAIT_S 120

#define SL_HARNESS_ERROR (sl_harness_error_quark ())

typedef enum
{
  SL_HARNESS_ERROR_FAILED,
  SL_HARNESS_ERROR_TIMED_OUT,
} SlHarnessError;

typedef struct _SlHarness SlHarness;
typedef struct _SlHarnessHost SlHarnessHost;

GQuark sl_harness_error_quark (void);

/* A harness with its temporary folder and watchdog, no daemon yet. NULL
 * with *skip_reason set (free it) when a program is missing (lttng-relayd,
 * lttng-sessiond, lttng, babeltrace2, the helpers) or hosts cannot be
 * simulated here (no namespaces); the test then skips with that reason,
 * or fails when it must not skip (see sl_harness_must_not_skip()). */
SlHarness *sl_harness_new (char **skip_reason);

/* TRUE when SL_REQUIRE_LIVE=1 (set by CI): a skip reason is a failure. */
gboolean sl_harness_must_not_skip (void);

/* For a test case: a harness with its relay running, or NULL after
 * g_test_skip() (an error when it must not skip). */
SlHarness *sl_harness_new_for_test (void);

/* Stops everything (traced programs and other spawned processes, then the
 * sessions still alive are destroyed, then session daemons with their
 * consumers, then the relay, continued first if stalled; each with a
 * timeout, then SIGKILL), waits for the watchdog's final sweep, removes the
 * temporary folder. NULL is fine. */
void sl_harness_free (SlHarness *h);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlHarness, sl_harness_free)

/* The private temporary folder (logs, ready files; free for the test's own files). */
const char *sl_harness_get_dir (SlHarness *h);

/* A TCP port of 127.0.0.1 free right now (the kernel's choice). */
guint sl_harness_free_port (void);

/* CLOCK_MONOTONIC now, in ns (the instant sl_harness_host_trace_time() maps). */
gint64 sl_harness_monotonic_ns (void);

/* The CLOCK_MONOTONIC instant (ns) where every host's drift term is zero
 * (the harness's creation). */
gint64 sl_harness_get_clock_base_ns (SlHarness *h);

/* ---- the relay ---- */

/* Starts lttng-relayd on three free loopback ports (control, data, live),
 * output in a folder of the harness; waits until it listens on all three. */
gboolean sl_harness_start_relay (SlHarness *h, GError **error);

/* "net://127.0.0.1:LIVEPORT", for src.ctf.lttng-live; NULL before the first start. */
const char *sl_harness_get_relay_url (SlHarness *h);
guint sl_harness_get_live_port (SlHarness *h);

/* SIGTERM, then wait (SIGKILL after a timeout). */
void sl_harness_stop_relay (SlHarness *h);

/* SIGKILL: a relay crash. */
void sl_harness_kill_relay (SlHarness *h);

/* Starts the relay again on the same ports and output folder (after stop or
 * kill); fails, naming the port, when one has been taken meanwhile. */
gboolean sl_harness_restart_relay (SlHarness *h, GError **error);

/* SIGSTOP (TRUE) or SIGCONT (FALSE): a relay that stops answering. */
void sl_harness_stall_relay (SlHarness *h, gboolean stalled);

/* The relay's output folder (newly allocated): HOSTNAME/SESSION-YYYYMMDD-HHMMSS/ust/uid/UID/64-bit/
 * below it, growing while sessions stream (history for "folder then live"). */
char *sl_harness_get_output_dir (SlHarness *h);

/* ---- hosts ---- */

/* A simulated host: its own lttng-sessiond in new UTS and mount namespaces
 * (host name HOSTNAME: letters, digits, '-', '.', '_'; distinct per harness;
 * private /dev/shm). Its trace clock (sl-test-clock) runs 1 + DRIFT_PPB/1e9
 * times as fast as CLOCK_MONOTONIC, and its trace timestamps (ns from the
 * epoch, as babeltrace2 shows them) read WALL_ERROR_NS ahead of the true
 * wall clock (negative: behind) at the instant its session daemon measures a
 * session's metadata clock offset (when the first traced program registers
 * with the started session), drifting from there. Exactly: timestamp(m) = metadata offset
 * + m + floor ((m - base) * DRIFT_PPB / 1e9), m = CLOCK_MONOTONIC ns, base =
 * sl_harness_get_clock_base_ns(); see sl_harness_host_trace_time(). Returns
 * once the daemon answers. Owned by the harness. */
SlHarnessHost *sl_harness_add_host (SlHarness  *h,
                                    const char *hostname,
                                    gint64      wall_error_ns,
                                    gint64      drift_ppb,
                                    GError    **error);

const char *sl_harness_host_get_name (SlHarnessHost *host);

/* lttng create SESSION --live=LIVE_TIMER_US --set-url=net://127.0.0.1:CTRL:DATA
 * (the relay's ports), a per-user-buffers channel "sl", enable-event -u
 * 'syncline_net:*', the vpid, vtid and procname contexts, start. Spawn the traced programs afterwards. */
gboolean sl_harness_host_create_session (SlHarnessHost *host,
                                         const char    *session,
                                         guint          live_timer_us,
                                         GError       **error);

/* lttng destroy SESSION: waits until its data has reached the relay. When
 * lttng-tools 2.13 reports its rare "Trace chunk close failed on consumer"
 * (final rotation) but the session is gone, a note goes to stderr and this
 * succeeds. */
gboolean sl_harness_host_destroy_session (SlHarnessHost *host,
                                          const char    *session,
                                          GError       **error);

/* Runs `lttng ARGS...` as the host's client (its LTTNG_HOME and user);
 * stdout in *out if not NULL. Fails on a non-zero exit. */
gboolean sl_harness_host_run_lttng (SlHarnessHost     *host,
                                    const char *const *args,
                                    char             **out,
                                    GError           **error);

/* Starts sl-test-netpeer PEER_ARGS... (NULL-terminated, e.g. "--listen=4000",
 * "--rate=100") on the host (its namespace, LTTNG_HOME and clock); the
 * harness adds --ready-file. Returns once it listens/has connected and its
 * lttng-ust registration is complete (it appears in `lttng list -u`), so its
 * events are recorded by the host's started sessions; 0 on error. Stdout
 * and stderr go to a log in the harness folder. */
GPid sl_harness_host_spawn_peer (SlHarnessHost     *host,
                                 const char *const *peer_args,
                                 GError           **error);

/* Ground truth: the trace timestamp (ns from the epoch, as babeltrace2
 * shows it: metadata clock offset + clock value) this host's SESSION gives
 * an event at CLOCK_MONOTONIC instant MONOTONIC_NS. The clock offset is read
 * from the relay's output folder with `babeltrace2 -o ctf-metadata` (it
 * exists once a traced program has registered with the started session;
 * waits for it). G_MININT64 on error. */
gint64 sl_harness_host_trace_time (SlHarnessHost *host,
                                   const char    *session,
                                   gint64         monotonic_ns,
                                   GError       **error);

/* The inverse: the CLOCK_MONOTONIC instant m of a trace timestamp, the
 * largest m with trace_time(m) <= TRACE_NS. G_MININT64 on error. */
gint64 sl_harness_host_monotonic_time (SlHarnessHost *host,
                                       const char    *session,
                                       gint64         trace_ns,
                                       GError       **error);

/* ---- any process of the harness ---- */

/* Runs ARGV (argv[0] searched in PATH) tagged, as the harness's user,
 * with a timeout; stdout and stderr in *out and *err if not NULL. Fails on a
 * non-zero exit, with stderr's tail. */
gboolean sl_harness_run (SlHarness         *h,
                         const char *const *argv,
                         guint              timeout_ms,
                         char             **out,
                         char             **err,
                         GError           **error);

/* Starts ARGV in the background (e.g. a babeltrace2 live viewer), tagged,
 * stdout to STDOUT_PATH (NULL: a log), stderr to a log; stopped at free. */
GPid sl_harness_spawn (SlHarness         *h,
                       const char *const *argv,
                       const char        *stdout_path,
                       GError           **error);

/* Waits up to TIMEOUT_MS for a process started by the harness (peer or
 * spawned) to end; *wait_status as waitpid(). FALSE on timeout (it keeps
 * running). */
gboolean sl_harness_wait_process (SlHarness *h,
                                  GPid       pid,
                                  guint      timeout_ms,
                                  int       *wait_status,
                                  GError   **error);

/* SIGTERM, wait up to TIMEOUT_MS, then SIGKILL (and FALSE with an error). */
gboolean sl_harness_stop_process (SlHarness *h,
                                  GPid       pid,
                                  guint      timeout_ms,
                                  int       *wait_status,
                                  GError   **error);

/* The tail (last lines) of the log of a process started by the harness. */
char *sl_harness_get_log_tail (SlHarness *h,
                               GPid       pid);

/* sl_harness_free(), then checks that it left nothing behind: appends to
 * PROBLEMS, one per line, every process still alive that carries the
 * harness's tag and every LTTng shared memory file (/dev/shm) created during
 * its life by its daemons' user, still present and used by no live process.
 * TRUE when clean. */
gboolean sl_harness_free_and_check_clean (SlHarness *h,
                                          GString   *problems);

G_END_DECLS
