/* live-harness.c: real LTTng daemons for live tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout of the private folder:
 *   logs/       one log per process (stdout and stderr)
 *   relay/      the relay's LTTNG_HOME; out/ its output folder
 *   host-NAME/  a host's LTTNG_HOME
 *   peers/      ready files of the traced programs
 *   run/        captured output of short commands, metadata copies
 *
 * Every process goes through sl-test-exec, which sets the host name, drops
 * root and arms the parent-death signal. Processes are waited for with
 * waitpid(WNOHANG) polling against a deadline, never a blocking wait.
 */

#include "config.h"

#include "live-harness.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#define LOG_TAIL_LINES 25

typedef enum
{
  CHILD_RELAY,
  CHILD_SESSIOND,
  CHILD_PEER,
  CHILD_OTHER,
} ChildKind;

typedef struct
{
  GPid       pid;
  ChildKind  kind;
  char      *name;
  char      *log;
  gboolean   reaped;
  int        status;
} Child;

struct _SlHarness
{
  char       *tag;
  char       *dir;
  char       *out_dir;
  char       *exec_path;
  char       *netpeer_path;
  char       *clock_path;
  char       *lttng_path;
  char       *relayd_path;
  char       *sessiond_path;
  char       *bt2_path;
  gboolean    root;
  guint       uid;
  guint       gid;
  gboolean    verbose;
  gint64      clock_base_ns;
  GPid        watchdog_pid;
  int         watchdog_fd;
  guint       counter;
  GHashTable *children;        /* pid -> Child */
  GPtrArray  *hosts;
  GHashTable *shm_before;      /* names in /dev/shm at creation */

  GPid        relay_pid;
  guint       ports[3];        /* control, data, live */
  char       *relay_url;
  char       *relay_home;
  gboolean    relay_stalled;
};

struct _SlHarnessHost
{
  SlHarness  *h;
  char       *name;
  gint64      wall_error_ns;
  gint64      drift_ppb;
  char       *uuid;
  char       *home;
  GPid        sessiond_pid;
  GPtrArray  *sessions;        /* created, not destroyed */
  GHashTable *offsets;         /* session -> gint64* metadata clock offset (ns) */
  GHashTable *old_dirs;        /* session -> GHashTable of its trace folders before its last creation */
  guint       n_peers;
};

G_DEFINE_QUARK (sl-harness-error-quark, sl_harness_error)

/* ---- small helpers ---- */

gint64
sl_harness_monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static void
sleep_ms (guint ms)
{
  g_usleep ((gulong) ms * 1000);
}

static char *
file_tail (const char *path,
           guint       lines)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  const char *p;
  guint n = 0;

  if (path == NULL || !g_file_get_contents (path, &text, &len, NULL))
    return g_strdup ("(no log)");
  while (len > 0 && text[len - 1] == '\n')
    text[--len] = '\0';
  if (len == 0)
    return g_strdup ("(empty log)");
  for (p = text + len; p > text; p--)
    if (p[-1] == '\n' && ++n == lines)
      break;
  return g_strdup_printf ("%s%s", p > text ? "[...]\n" : "", p);
}

/* The same formula as sl-test-clock.c. */
static gint64
floor_div (__int128 a,
           gint64   b)
{
  __int128 q = a / b;

  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return (gint64) q;
}

static gint64
clock_value (gint64 base_ns,
             gint64 drift_ppb,
             gint64 m)
{
  return m + floor_div ((__int128) (m - base_ns) * drift_ppb, 1000000000);
}

static gboolean
valid_hostname (const char *s)
{
  gsize len = strlen (s);

  if (len == 0 || len > 64)
    return FALSE;
  for (const char *p = s; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '.' && *p != '_')
      return FALSE;
  return TRUE;
}

static gboolean
make_dir (SlHarness  *h,
          const char *path,
          GError    **error)
{
  if (g_mkdir_with_parents (path, 0750) != 0)
    {
      g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED, "cannot create %s: %s", path,
                   g_strerror (errno));
      return FALSE;
    }
  if (h->root && chown (path, h->uid, h->gid) != 0)
    {
      g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED, "cannot give %s to uid %u: %s",
                   path, h->uid, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static void
rm_rf (const char *path)
{
  g_autoptr(GDir) d = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) || g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_unlink (path);
      return;
    }
  d = g_dir_open (path, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (path, name, NULL);
      rm_rf (p);
    }
  g_rmdir (path);
}

static char *
find_program (const char *env_name,
              const char *program,
              GString    *missing)
{
  const char *v = g_getenv (env_name);
  char *path;

  if (v != NULL && *v != '\0')
    path = g_file_test (v, G_FILE_TEST_IS_EXECUTABLE) ? g_strdup (v) : NULL;
  else
    path = g_find_program_in_path (program);
  if (path == NULL)
    g_string_append_printf (missing, "%s%s%s%s%s", missing->len ? ", " : "", program,
                            v != NULL ? " (" : "", v != NULL ? v : "", v != NULL ? ")" : "");
  return path;
}

/* ---- the environment of the processes ---- */

static char **
base_env (SlHarness *h)
{
  char **env = g_get_environ ();
  GPtrArray *out = g_ptr_array_new ();

  /* the caller's own LTTng settings must not leak into the hosts */
  for (guint i = 0; env[i] != NULL; i++)
    if (g_str_has_prefix (env[i], "LTTNG_") || g_str_has_prefix (env[i], "SL_TEST_CLOCK_")
        || g_str_has_prefix (env[i], "SL_HARNESS_TAG="))
      g_free (env[i]);
    else
      g_ptr_array_add (out, env[i]);
  g_free (env);
  g_ptr_array_add (out, NULL);
  env = (char **) g_ptr_array_free (out, FALSE);
  env = g_environ_setenv (env, "SL_HARNESS_TAG", h->tag, TRUE);
  /* the client must never start a session daemon of its own */
  env = g_environ_setenv (env, "LTTNG_SESSIOND_PATH", "/bin/false", TRUE);
  return env;
}

static char **
host_env (SlHarnessHost *host)
{
  SlHarness *h = host->h;
  char **env = base_env (h);
  char num[32];

  env = g_environ_setenv (env, "HOME", host->home, TRUE);
  env = g_environ_setenv (env, "LTTNG_HOME", host->home, TRUE);
  env = g_environ_setenv (env, "LTTNG_UST_CLOCK_PLUGIN", h->clock_path, TRUE);
  g_snprintf (num, sizeof num, "%" G_GINT64_FORMAT, host->drift_ppb);
  env = g_environ_setenv (env, "SL_TEST_CLOCK_DRIFT_PPB", num, TRUE);
  g_snprintf (num, sizeof num, "%" G_GINT64_FORMAT, h->clock_base_ns);
  env = g_environ_setenv (env, "SL_TEST_CLOCK_BASE_NS", num, TRUE);
  env = g_environ_setenv (env, "SL_TEST_CLOCK_UUID", host->uuid, TRUE);
  return env;
}

/* sl-test-exec [HOST_OPTION] [--user --group] --parent-death-signal -- ARGV
 * HOST_OPTION: --hostname=NAME (a new host) or --join=PID (that host). */
static GPtrArray *
exec_argv (SlHarness         *h,
           const char        *host_option,
           int                death_signal,
           const char        *program,
           const char *const *args)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (argv, g_strdup (h->exec_path));
  if (host_option != NULL)
    g_ptr_array_add (argv, g_strdup (host_option));
  if (h->root)
    {
      g_ptr_array_add (argv, g_strdup_printf ("--user=%u", h->uid));
      g_ptr_array_add (argv, g_strdup_printf ("--group=%u", h->gid));
    }
  g_ptr_array_add (argv, g_strdup_printf ("--parent-death-signal=%d", death_signal));
  g_ptr_array_add (argv, g_strdup ("--"));
  g_ptr_array_add (argv, g_strdup (program));
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);
  return argv;
}

static char *
argv_text (const char *const *argv)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; argv[i] != NULL; i++)
    g_string_append_printf (s, "%s%s", i ? " " : "", argv[i]);
  return g_string_free (s, FALSE);
}

/* ---- processes ---- */

static void
child_free (gpointer p)
{
  Child *c = p;

  g_free (c->name);
  g_free (c->log);
  g_free (c);
}

static int
open_out (const char *path,
          gboolean    truncate,
          GError    **error)
{
  int fd = g_open (path, O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : O_APPEND), 0644);

  if (fd < 0)
    g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED, "cannot open %s: %s", path,
                 g_strerror (errno));
  return fd;
}

/* Starts ARGV (already wrapped in sl-test-exec), stdout to STDOUT_PATH or
 * the log, stderr to the log; registers it. */
static Child *
spawn_child (SlHarness   *h,
             ChildKind    kind,
             const char  *name,
             char       **argv,
             char       **envp,
             const char  *stdout_path,
             GError     **error)
{
  g_autofree char *log = NULL;
  g_autofree char *clean = g_strdup (name);
  int out_fd = -1, err_fd;
  GPid pid;
  Child *c;
  gboolean ok;

  g_strcanon (clean, G_CSET_a_2_z G_CSET_A_2_Z G_CSET_DIGITS "-_.", '_');
  log = g_strdup_printf ("%s/logs/%s-%u.log", h->dir, clean, ++h->counter);
  err_fd = open_out (log, TRUE, error);
  if (err_fd < 0)
    return NULL;
  if (stdout_path != NULL)
    {
      out_fd = open_out (stdout_path, TRUE, error);
      if (out_fd < 0)
        {
          close (err_fd);
          return NULL;
        }
    }
  ok = g_spawn_async_with_fds (h->dir, argv, envp,
                               G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL,
                               NULL, NULL, &pid, -1, out_fd >= 0 ? out_fd : err_fd, err_fd, error);
  close (err_fd);
  if (out_fd >= 0)
    close (out_fd);
  if (!ok)
    {
      g_prefix_error (error, "cannot start %s: ", name);
      return NULL;
    }
  c = g_new0 (Child, 1);
  c->pid = pid;
  c->kind = kind;
  c->name = g_strdup (name);
  c->log = g_steal_pointer (&log);
  g_hash_table_insert (h->children, GINT_TO_POINTER (pid), c);
  return c;
}

static Child *
lookup_child (SlHarness *h,
              GPid       pid)
{
  return g_hash_table_lookup (h->children, GINT_TO_POINTER (pid));
}

/* The harness's child @pid, else NULL with an error saying so */
static Child *
find_child (SlHarness *h,
            GPid       pid,
            GError   **error)
{
  Child *c = lookup_child (h, pid);

  if (c == NULL)
    g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED, "process %d is not the harness's", (int) pid);
  return c;
}

/* TRUE once reaped (status in c->status). */
static gboolean
poll_child (Child *c)
{
  int status;
  pid_t r;

  if (c->reaped)
    return TRUE;
  do
    r = waitpid (c->pid, &status, WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == c->pid || (r < 0 && errno == ECHILD))
    {
      c->reaped = TRUE;
      c->status = r == c->pid ? status : 0;
      return TRUE;
    }
  return FALSE;
}

static gboolean
wait_child (Child *c,
            guint  timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  guint nap = 1;

  while (!poll_child (c))
    {
      if (g_get_monotonic_time () >= deadline)
        return FALSE;
      sleep_ms (nap);
      nap = MIN (nap * 2, 20);
    }
  return TRUE;
}

static char *
describe_status (int status)
{
  if (WIFEXITED (status))
    return g_strdup_printf ("exit status %d", WEXITSTATUS (status));
  if (WIFSIGNALED (status))
    return g_strdup_printf ("killed by signal %d (%s)", WTERMSIG (status), g_strsignal (WTERMSIG (status)));
  return g_strdup_printf ("wait status %#x", status);
}

/* SIGTERM (SIG) the children, wait up to TIMEOUT_MS for all, SIGKILL the rest. */
static void
stop_children (SlHarness *h,
               Child    **cs,
               guint      n,
               int        sig,
               guint      timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  gboolean all;

  for (guint i = 0; i < n; i++)
    if (!poll_child (cs[i]))
      {
        kill (cs[i]->pid, SIGCONT);
        kill (cs[i]->pid, sig);
      }
  do
    {
      all = TRUE;
      for (guint i = 0; i < n; i++)
        all &= poll_child (cs[i]);
      if (!all)
        sleep_ms (5);
    }
  while (!all && g_get_monotonic_time () < deadline);
  for (guint i = 0; i < n; i++)
    if (!poll_child (cs[i]))
      {
        g_printerr ("sl-harness: %s (pid %d) ignored signal %d for %u ms; killing it\n", cs[i]->name,
                    (int) cs[i]->pid, sig, timeout_ms);
        kill (cs[i]->pid, SIGKILL);
        wait_child (cs[i], 5000);
      }
}

/* Runs ARGV to completion with a timeout. FALSE (and an error) when it could
 * not run or timed out; otherwise *status is its wait status. */
static gboolean
run_child (SlHarness   *h,
           const char  *name,
           char       **argv,
           char       **envp,
           guint        timeout_ms,
           int         *status,
           char       **out,
           char       **err,
           GError     **error)
{
  g_autofree char *out_path = g_strdup_printf ("%s/run/out-%u", h->dir, h->counter + 1);
  Child *c = spawn_child (h, CHILD_OTHER, name, argv, envp, out_path, error);
  gboolean ok = TRUE;

  if (c == NULL)
    return FALSE;
  if (!wait_child (c, timeout_ms))
    {
      g_autofree char *cmd = argv_text ((const char *const *) argv);
      g_autofree char *tail = NULL;

      kill (c->pid, SIGKILL);
      wait_child (c, 5000);
      tail = file_tail (c->log, LOG_TAIL_LINES);
      g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_TIMED_OUT,
                   "%s did not finish within %u ms (killed): %s\nstderr:\n%s", name, timeout_ms, cmd, tail);
      ok = FALSE;
    }
  *status = c->status;
  if (out != NULL)
    {
      if (!g_file_get_contents (out_path, out, NULL, NULL))
        *out = g_strdup ("");
    }
  if (err != NULL)
    {
      if (!g_file_get_contents (c->log, err, NULL, NULL))
        *err = g_strdup ("");
    }
  g_unlink (out_path);
  g_unlink (c->log);
  g_hash_table_remove (h->children, GINT_TO_POINTER (c->pid));
  return ok;
}

/* ---- the watchdog and /dev/shm ---- */

static gboolean
start_watchdog (SlHarness *h,
                GError   **error)
{
  g_autofree char *tag_arg = g_strdup_printf ("--watchdog=%s", h->tag);
  g_autofree char *uid_arg = g_strdup_printf ("--watchdog-uid=%u", h->uid);
  g_autofree char *dir_arg = g_strdup_printf ("--watchdog-dir=%s", h->dir);
  const char *argv[] = { h->exec_path, tag_arg, uid_arg, dir_arg, NULL };
  g_auto(GStrv) env = g_get_environ ();

  /* no tag in its own environment: it must not kill itself */
  env = g_environ_unsetenv (env, "SL_HARNESS_TAG");
  return g_spawn_async_with_pipes_and_fds (NULL, argv, (const char *const *) env,
                                           G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                           NULL, NULL, -1, -1, -1, NULL, NULL, 0,
                                           &h->watchdog_pid, &h->watchdog_fd, NULL, NULL, error);
}

static GHashTable *
list_shm (void)
{
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GDir) d = g_dir_open ("/dev/shm", 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    g_hash_table_add (names, g_strdup (name));
  return names;
}

static gboolean
is_lttng_shm (const char *name)
{
  return g_str_has_prefix (name, "lttng-ust-wait-") || g_str_has_prefix (name, "ust-shm-");
}

static GArray *
list_pids (void)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (GPid));
  g_autoptr(GDir) d = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      guint64 v;

      if (g_ascii_string_to_unsigned (name, 10, 1, G_MAXINT, &v, NULL))
        {
          GPid pid = (GPid) v;
          g_array_append_val (pids, pid);
        }
    }
  return pids;
}

static gboolean
shm_mapped (const char *name)
{
  g_autoptr(GArray) pids = list_pids ();
  g_autofree char *needle = g_strdup_printf ("/dev/shm/%s", name);

  for (guint i = 0; i < pids->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%d/maps", g_array_index (pids, GPid, i));
      g_autofree char *maps = NULL;
      g_auto(GStrv) lines = NULL;

      if (!g_file_get_contents (path, &maps, NULL, NULL))
        continue;
      lines = g_strsplit (maps, "\n", -1);
      for (guint j = 0; lines[j] != NULL; j++)
        if (g_str_has_suffix (lines[j], needle) || (strstr (lines[j], needle) != NULL
                                                    && g_str_has_suffix (lines[j], " (deleted)")))
          return TRUE;
    }
  return FALSE;
}

static gboolean
environ_has (const char *env,
             gsize       len,
             const char *entry)
{
  gsize elen = strlen (entry);

  for (gsize i = 0; i < len; i += strlen (env + i) + 1)
    if (strlen (env + i) == elen && memcmp (env + i, entry, elen) == 0)
      return TRUE;
  return FALSE;
}

static void
find_tagged (const char *tag,
             GString    *problems)
{
  g_autoptr(GArray) pids = list_pids ();
  g_autofree char *entry = g_strdup_printf ("SL_HARNESS_TAG=%s", tag);

  for (guint i = 0; i < pids->len; i++)
    {
      GPid pid = g_array_index (pids, GPid, i);
      g_autofree char *path = g_strdup_printf ("/proc/%d/environ", pid);
      g_autofree char *comm_path = g_strdup_printf ("/proc/%d/comm", pid);
      g_autofree char *env = NULL;
      g_autofree char *comm = NULL;
      gsize len = 0;

      if (!g_file_get_contents (path, &env, &len, NULL) || !environ_has (env, len, entry))
        continue;
      if (!g_file_get_contents (comm_path, &comm, NULL, NULL))
        comm = g_strdup ("?\n");
      g_strchomp (comm);
      g_string_append_printf (problems, "process %d (%s) of the harness is still alive\n", pid, comm);
    }
}

/* ---- the harness ---- */

gboolean
sl_harness_must_not_skip (void)
{
  return g_strcmp0 (g_getenv ("SL_REQUIRE_LIVE"), "1") == 0;
}

SlHarness *
sl_harness_new_for_test (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *skip = NULL;
  SlHarness *h = sl_harness_new (&skip);

  if (h == NULL)
    {
      if (sl_harness_must_not_skip ())
        g_error ("the live harness cannot run here, and SL_REQUIRE_LIVE=1: %s", skip);
      g_test_skip (skip);
      return NULL;
    }
  if (!sl_harness_start_relay (h, &error))
    g_error ("relay: %s", error->message);
  return h;
}

guint
sl_harness_free_port (void)
{
  struct sockaddr_in a = { .sin_family = AF_INET };
  socklen_t len = sizeof a;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  guint port = 0;

  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (fd < 0)
    return 0;
  if (bind (fd, (struct sockaddr *) &a, sizeof a) == 0
      && getsockname (fd, (struct sockaddr *) &a, &len) == 0)
    port = ntohs (a.sin_port);
  close (fd);
  return port;
}

static SlHarness *
harness_alloc (void)
{
  SlHarness *h = g_new0 (SlHarness, 1);

  h->watchdog_fd = -1;
  h->children = g_hash_table_new_full (NULL, NULL, NULL, child_free);
  h->hosts = g_ptr_array_new ();
  return h;
}

static void host_free (SlHarnessHost *host);
static GHashTable *session_trace_dirs (SlHarnessHost *host,
                                      const char    *session);

static void
harness_release (SlHarness *h)
{
  for (guint i = 0; i < h->hosts->len; i++)
    host_free (h->hosts->pdata[i]);
  g_ptr_array_unref (h->hosts);
  g_hash_table_unref (h->children);
  if (h->shm_before != NULL)
    g_hash_table_unref (h->shm_before);
  g_free (h->tag);
  g_free (h->dir);
  g_free (h->out_dir);
  g_free (h->exec_path);
  g_free (h->netpeer_path);
  g_free (h->clock_path);
  g_free (h->lttng_path);
  g_free (h->relayd_path);
  g_free (h->sessiond_path);
  g_free (h->bt2_path);
  g_free (h->relay_url);
  g_free (h->relay_home);
  g_free (h);
}

SlHarness *
sl_harness_new (char **skip_reason)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  SlHarness *h = harness_alloc ();
  g_autofree char *probe_out = NULL;
  g_autofree char *probe_err = NULL;
  int status = 0;

  g_return_val_if_fail (skip_reason != NULL, NULL);
  *skip_reason = NULL;

  h->exec_path = find_program ("SL_TEST_EXEC", "sl-test-exec", missing);
  h->netpeer_path = find_program ("SL_TEST_NETPEER", "sl-test-netpeer", missing);
  h->lttng_path = find_program ("SL_LTTNG", "lttng", missing);
  h->relayd_path = find_program ("SL_LTTNG_RELAYD", "lttng-relayd", missing);
  h->sessiond_path = find_program ("SL_LTTNG_SESSIOND", "lttng-sessiond", missing);
  h->bt2_path = find_program ("SL_BABELTRACE2", "babeltrace2", missing);
  h->clock_path = g_strdup (g_getenv ("SL_TEST_CLOCK_PLUGIN"));
  if (h->clock_path == NULL || !g_file_test (h->clock_path, G_FILE_TEST_IS_REGULAR))
    g_string_append_printf (missing, "%ssl-test-clock (SL_TEST_CLOCK_PLUGIN=%s)", missing->len ? ", " : "",
                            h->clock_path ? h->clock_path : "unset");
  if (missing->len > 0)
    {
      *skip_reason = g_strdup_printf ("live tests need programs that are missing: %s "
                                      "(apt-get install lttng-tools liblttng-ust-dev babeltrace2; "
                                      "run through meson test)", missing->str);
      harness_release (h);
      return NULL;
    }

  h->root = geteuid () == 0;
  h->uid = h->root ? 65534 : getuid ();
  h->gid = h->root ? 65534 : getgid ();
  h->verbose = g_strcmp0 (g_getenv ("SL_HARNESS_VERBOSE"), "1") == 0;
  h->clock_base_ns = sl_harness_monotonic_ns ();
  h->tag = g_strdup_printf ("%d-%08x%08x", (int) getpid (), g_random_int (), g_random_int ());
  h->shm_before = list_shm ();

  h->dir = g_dir_make_tmp ("sl-harness-XXXXXX", &error);
  if (h->dir == NULL)
    {
      *skip_reason = g_strdup_printf ("cannot create a temporary folder: %s", error->message);
      harness_release (h);
      return NULL;
    }
  h->out_dir = g_build_filename (h->dir, "out", NULL);
  h->relay_home = g_build_filename (h->dir, "relay", NULL);
  /* the daemons run as h->uid: they own the folder; logs are opened by us */
  if (h->root && (chown (h->dir, h->uid, h->gid) != 0 || g_chmod (h->dir, 0755) != 0))
    {
      *skip_reason = g_strdup_printf ("cannot give %s to uid %u: %s", h->dir, h->uid, g_strerror (errno));
      rm_rf (h->dir);
      harness_release (h);
      return NULL;
    }
  {
    const char *subdirs[] = { "logs", "run", "peers", "out", "relay" };

    for (guint i = 0; i < G_N_ELEMENTS (subdirs); i++)
      {
        g_autofree char *p = g_build_filename (h->dir, subdirs[i], NULL);

        if (!make_dir (h, p, &error))
          {
            *skip_reason = g_strdup (error->message);
            rm_rf (h->dir);
            harness_release (h);
            return NULL;
          }
      }
  }

  if (!start_watchdog (h, &error))
    {
      *skip_reason = g_strdup_printf ("cannot start the watchdog (%s): %s", h->exec_path, error->message);
      rm_rf (h->dir);
      harness_release (h);
      return NULL;
    }

  /* Can hosts be simulated here (namespaces, dropping root)? */
  {
    const char *args[] = { NULL };
    g_autoptr(GPtrArray) argv = exec_argv (h, "--hostname=sl-probe", SIGKILL, "true", args);
    g_auto(GStrv) env = base_env (h);

    if (!run_child (h, "probe", (char **) argv->pdata, env, 10000, &status, &probe_out, &probe_err, &error)
        || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
      {
        g_autofree char *st = describe_status (status);

        *skip_reason = g_strdup_printf ("cannot simulate hosts here (%s --hostname=sl-probe -- true: %s): %s",
                                        h->exec_path, error != NULL ? error->message : st,
                                        probe_err != NULL ? g_strstrip (probe_err) : "");
        sl_harness_free (h);
        return NULL;
      }
  }
  return h;
}

gint64
sl_harness_get_clock_base_ns (SlHarness *h)
{
  g_return_val_if_fail (h != NULL, 0);
  return h->clock_base_ns;
}

const char *
sl_harness_get_dir (SlHarness *h)
{
  g_return_val_if_fail (h != NULL, NULL);
  return h->dir;
}

/* ---- the relay ---- */

/* The inode of the socket listening on 127.0.0.1:PORT (or 0.0.0.0), 0 if none. */
static guint64
listening_inode (guint port)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/net/tcp", &text, NULL, NULL))
    return 0;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      GPtrArray *fields = g_ptr_array_new ();
      guint64 inode = 0;

      for (guint j = 0; f[j] != NULL; j++)
        if (*f[j] != '\0')
          g_ptr_array_add (fields, f[j]);
      if (fields->len > 9)
        {
          const char *local = fields->pdata[1];
          const char *colon = strchr (local, ':');

          if (colon != NULL && strcmp (fields->pdata[3], "0A") == 0
              && g_ascii_strtoull (colon + 1, NULL, 16) == port
              && (g_str_has_prefix (local, "0100007F:") || g_str_has_prefix (local, "00000000:")))
            inode = g_ascii_strtoull (fields->pdata[9], NULL, 10);
        }
      g_ptr_array_free (fields, TRUE);
      if (inode != 0)
        return inode;
    }
  return 0;
}

static gboolean
process_has_socket (GPid    pid,
                    guint64 inode)
{
  g_autofree char *fd_dir = g_strdup_printf ("/proc/%d/fd", pid);
  g_autofree char *want = g_strdup_printf ("socket:[%" G_GUINT64_FORMAT "]", inode);
  g_autoptr(GDir) d = g_dir_open (fd_dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (fd_dir, name, NULL);
      g_autofree char *target = g_file_read_link (p, NULL);

      if (g_strcmp0 (target, want) == 0)
        return TRUE;
    }
  return FALSE;
}

typedef enum
{
  RELAY_OK,
  RELAY_PORT_TAKEN,
  RELAY_FAILED,
} RelayStart;

static RelayStart
relay_spawn (SlHarness *h,
             GError   **error)
{
  g_autofree char *c = g_strdup_printf ("tcp://127.0.0.1:%u", h->ports[0]);
  g_autofree char *d = g_strdup_printf ("tcp://127.0.0.1:%u", h->ports[1]);
  g_autofree char *l = g_strdup_printf ("tcp://127.0.0.1:%u", h->ports[2]);
  const char *args[] = { "-C", c, "-D", d, "-L", l, "-o", h->out_dir, h->verbose ? "-vvv" : NULL, NULL };
  g_autoptr(GPtrArray) argv = exec_argv (h, NULL, SIGKILL, h->relayd_path, args);
  g_auto(GStrv) env = base_env (h);
  gint64 deadline = g_get_monotonic_time () + SL_HARNESS_WAIT_S * G_USEC_PER_SEC;
  Child *child;

  env = g_environ_setenv (env, "HOME", h->relay_home, TRUE);
  env = g_environ_setenv (env, "LTTNG_HOME", h->relay_home, TRUE);
  child = spawn_child (h, CHILD_RELAY, "lttng-relayd", (char **) argv->pdata, env, NULL, error);
  if (child == NULL)
    return RELAY_FAILED;
  h->relay_pid = child->pid;
  h->relay_stalled = FALSE;

  while (g_get_monotonic_time () < deadline)
    {
      guint ready = 0;

      if (poll_child (child))
        {
          g_autofree char *tail = file_tail (child->log, LOG_TAIL_LINES);
          g_autofree char *st = describe_status (child->status);
          gboolean taken = strstr (tail, "Address already in use") != NULL;

          h->relay_pid = 0;
          g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                       "lttng-relayd (ports %u, %u, %u) ended at start-up (%s)%s; its log:\n%s",
                       h->ports[0], h->ports[1], h->ports[2], st,
                       taken ? ": a port is already in use" : "", tail);
          return taken ? RELAY_PORT_TAKEN : RELAY_FAILED;
        }
      for (guint i = 0; i < 3; i++)
        {
          guint64 inode = listening_inode (h->ports[i]);

          if (inode != 0 && process_has_socket (child->pid, inode))
            ready++;
        }
      if (ready == 3)
        return RELAY_OK;
      sleep_ms (10);
    }
  {
    g_autofree char *tail = file_tail (child->log, LOG_TAIL_LINES);

    kill (child->pid, SIGKILL);
    wait_child (child, 5000);
    h->relay_pid = 0;
    g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_TIMED_OUT,
                 "lttng-relayd did not listen on 127.0.0.1 ports %u, %u, %u within %d s "
                 "(another program holds one?); its log:\n%s", h->ports[0], h->ports[1], h->ports[2], SL_HARNESS_WAIT_S, tail);
  }
  return RELAY_FAILED;
}

gboolean
sl_harness_start_relay (SlHarness *h,
                        GError   **error)
{
  g_return_val_if_fail (h != NULL, FALSE);
  g_return_val_if_fail (h->relay_pid == 0, FALSE);

  for (guint attempt = 0; attempt < 5; attempt++)
    {
      g_autoptr(GError) local = NULL;
      RelayStart r;

      /* three distinct ports */
      do
        {
          for (guint i = 0; i < 3; i++)
            h->ports[i] = sl_harness_free_port ();
        }
      while (h->ports[0] == 0 || h->ports[1] == 0 || h->ports[2] == 0 || h->ports[0] == h->ports[1]
             || h->ports[1] == h->ports[2] || h->ports[0] == h->ports[2]);

      r = relay_spawn (h, &local);
      if (r == RELAY_OK)
        {
          g_free (h->relay_url);
          h->relay_url = g_strdup_printf ("net://127.0.0.1:%u", h->ports[2]);
          return TRUE;
        }
      if (r == RELAY_FAILED || attempt == 4)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
    }
  g_assert_not_reached ();
}

gboolean
sl_harness_restart_relay (SlHarness *h,
                          GError   **error)
{
  gint64 deadline = g_get_monotonic_time () + SL_HARNESS_WAIT_S * G_USEC_PER_SEC;

  g_return_val_if_fail (h != NULL, FALSE);
  g_return_val_if_fail (h->relay_url != NULL, FALSE);

  if (h->relay_pid != 0)
    sl_harness_stop_relay (h);
  for (;;)
    {
      g_autoptr(GError) local = NULL;
      RelayStart r = relay_spawn (h, &local);

      if (r == RELAY_OK)
        return TRUE;
      if (r == RELAY_FAILED || g_get_monotonic_time () > deadline)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                      "cannot restart the relay on its ports: ");
          return FALSE;
        }
      sleep_ms (200);
    }
}

static void
end_relay (SlHarness *h,
           int        sig)
{
  Child *c;

  if (h->relay_pid == 0)
    return;
  c = lookup_child (h, h->relay_pid);
  if (c != NULL)
    stop_children (h, &c, 1, sig, 10000);
  h->relay_pid = 0;
  h->relay_stalled = FALSE;
}

void
sl_harness_stop_relay (SlHarness *h)
{
  g_return_if_fail (h != NULL);
  end_relay (h, SIGTERM);
}

void
sl_harness_kill_relay (SlHarness *h)
{
  g_return_if_fail (h != NULL);
  end_relay (h, SIGKILL);
}

void
sl_harness_stall_relay (SlHarness *h,
                        gboolean   stalled)
{
  g_return_if_fail (h != NULL);
  g_return_if_fail (h->relay_pid != 0);

  kill (h->relay_pid, stalled ? SIGSTOP : SIGCONT);
  h->relay_stalled = stalled;
}

const char *
sl_harness_get_relay_url (SlHarness *h)
{
  g_return_val_if_fail (h != NULL, NULL);
  return h->relay_url;
}

guint
sl_harness_get_live_port (SlHarness *h)
{
  g_return_val_if_fail (h != NULL, 0);
  return h->ports[2];
}

char *
sl_harness_get_output_dir (SlHarness *h)
{
  g_return_val_if_fail (h != NULL, NULL);
  return g_strdup (h->out_dir);
}

/* ---- hosts ---- */

static void
host_free (SlHarnessHost *host)
{
  g_free (host->name);
  g_free (host->uuid);
  g_free (host->home);
  g_ptr_array_unref (host->sessions);
  g_hash_table_unref (host->offsets);
  g_hash_table_unref (host->old_dirs);
  g_free (host);
}

const char *
sl_harness_host_get_name (SlHarnessHost *host)
{
  g_return_val_if_fail (host != NULL, NULL);
  return host->name;
}

static char *
sessiond_tail (SlHarnessHost *host)
{
  Child *c = lookup_child (host->h, host->sessiond_pid);

  return file_tail (c != NULL ? c->log : NULL, LOG_TAIL_LINES);
}

/* lttng --no-sessiond ARGS as the host's client. FALSE when it could not
 * run, timed out or failed; the error has its stderr and the daemon's log. */
static gboolean
host_lttng (SlHarnessHost     *host,
            const char *const *args,
            guint              timeout_ms,
            gboolean           quiet_failure,
            char             **out,
            GError           **error)
{
  SlHarness *h = host->h;
  g_autoptr(GPtrArray) full = g_ptr_array_new ();
  g_autoptr(GPtrArray) argv = NULL;
  g_auto(GStrv) env = host_env (host);
  g_autofree char *err = NULL;
  g_autofree char *o = NULL;
  int status = 0;

  g_ptr_array_add (full, (char *) "--no-sessiond");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (full, (char *) args[i]);
  g_ptr_array_add (full, NULL);
  argv = exec_argv (h, NULL, SIGKILL, h->lttng_path, (const char *const *) full->pdata);

  if (!run_child (h, "lttng", (char **) argv->pdata, env, timeout_ms, &status, &o, &err, error))
    {
      g_autofree char *tail = sessiond_tail (host);

      g_prefix_error (error, "host %s: ", host->name);
      if (error != NULL && *error != NULL)
        {
          char *m = g_strdup_printf ("%s\nlttng-sessiond's log:\n%s", (*error)->message, tail);
          g_free ((*error)->message);
          (*error)->message = m;
        }
      return FALSE;
    }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      if (!quiet_failure)
        {
          g_autofree char *cmd = argv_text ((const char *const *) full->pdata);
          g_autofree char *st = describe_status (status);
          g_autofree char *tail = sessiond_tail (host);

          g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                       "host %s: `lttng %s` failed (%s):\n%s%s\nlttng-sessiond's log:\n%s", host->name, cmd,
                       st, g_strstrip (o), g_strstrip (err), tail);
        }
      else
        g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED, "%s", g_strstrip (err));
      return FALSE;
    }
  if (out != NULL)
    *out = g_steal_pointer (&o);
  return TRUE;
}

gboolean
sl_harness_host_run_lttng (SlHarnessHost     *host,
                           const char *const *args,
                           char             **out,
                           GError           **error)
{
  g_return_val_if_fail (host != NULL, FALSE);
  g_return_val_if_fail (args != NULL, FALSE);
  return host_lttng (host, args, 60000, FALSE, out, error);
}

SlHarnessHost *
sl_harness_add_host (SlHarness  *h,
                     const char *hostname,
                     gint64      wall_error_ns,
                     gint64      drift_ppb,
                     GError    **error)
{
  g_autofree char *agent = NULL;
  g_autofree char *offset = NULL;
  g_autoptr(GPtrArray) argv = NULL;
  g_auto(GStrv) env = NULL;
  SlHarnessHost *host;
  Child *c;
  gint64 deadline;

  g_return_val_if_fail (h != NULL, NULL);
  g_return_val_if_fail (hostname != NULL, NULL);

  if (!valid_hostname (hostname))
    {
      g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                   "\"%s\" is not a usable host name (1 to 64 letters, digits, '-', '.', '_')", hostname);
      return NULL;
    }
  for (guint i = 0; i < h->hosts->len; i++)
    if (strcmp (((SlHarnessHost *) h->hosts->pdata[i])->name, hostname) == 0)
      {
        g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED, "host %s exists already", hostname);
        return NULL;
      }
  if (drift_ppb <= -1000000000 || drift_ppb >= 1000000000)
    {
      g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                   "host %s: drift %" G_GINT64_FORMAT " ppb is not in (-1e9, 1e9)", hostname, drift_ppb);
      return NULL;
    }

  host = g_new0 (SlHarnessHost, 1);
  host->h = h;
  host->name = g_strdup (hostname);
  host->wall_error_ns = wall_error_ns;
  host->drift_ppb = drift_ppb;
  host->uuid = g_uuid_string_random ();
  host->home = g_strdup_printf ("%s/host-%s", h->dir, hostname);
  host->sessions = g_ptr_array_new_with_free_func (g_free);
  host->offsets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  host->old_dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  g_ptr_array_add (h->hosts, host);

  if (!make_dir (h, host->home, error))
    return NULL;

  agent = g_strdup_printf ("--agent-tcp-port=%u", sl_harness_free_port ());
  {
    const char *args[] = { "--no-kernel", agent, h->verbose ? "-vvv" : NULL, "--verbose-consumer", NULL };
    g_autofree char *opt = g_strdup_printf ("--hostname=%s", hostname);

    argv = exec_argv (h, opt, SIGTERM, h->sessiond_path, args);
  }
  env = host_env (host);
  /* A host whose wall clock reads E ahead: its session daemon measures the
   * metadata offset (REALTIME - clock) with a clock reading -E more, see
   * sl-test-clock.c. */
  offset = g_strdup_printf ("%" G_GINT64_FORMAT, -wall_error_ns);
  env = g_environ_setenv (env, "SL_TEST_CLOCK_OFFSET_NS", offset, TRUE);
  {
    g_autofree char *name = g_strdup_printf ("lttng-sessiond-%s", hostname);
    c = spawn_child (h, CHILD_SESSIOND, name, (char **) argv->pdata, env, NULL, error);
  }
  if (c == NULL)
    return NULL;
  host->sessiond_pid = c->pid;

  /* ready when a client gets an answer */
  deadline = g_get_monotonic_time () + SL_HARNESS_WAIT_S * G_USEC_PER_SEC;
  for (;;)
    {
      const char *args[] = { "list", NULL };
      g_autoptr(GError) local = NULL;

      if (poll_child (c))
        {
          g_autofree char *tail = file_tail (c->log, LOG_TAIL_LINES);
          g_autofree char *st = describe_status (c->status);

          g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                       "host %s: lttng-sessiond ended at start-up (%s); its log:\n%s", hostname, st, tail);
          return NULL;
        }
      if (host_lttng (host, args, 10000, TRUE, NULL, &local))
        break;
      if (g_get_monotonic_time () > deadline)
        {
          g_autofree char *tail = file_tail (c->log, LOG_TAIL_LINES);

          g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_TIMED_OUT,
                       "host %s: lttng-sessiond does not answer `lttng list` after %d s (%s); its log:\n%s",
                       hostname, SL_HARNESS_WAIT_S, local->message, tail);
          return NULL;
        }
      sleep_ms (20);
    }
  return host;
}

gboolean
sl_harness_host_create_session (SlHarnessHost *host,
                                const char    *session,
                                guint          live_timer_us,
                                GError       **error)
{
  SlHarness *h;
  g_autofree char *live = NULL;
  g_autofree char *url = NULL;
  g_autofree char *subbuf = NULL;
  g_autofree char *nsubbuf = NULL;
  const char *env_subbuf, *env_nsubbuf;

  g_return_val_if_fail (host != NULL, FALSE);
  g_return_val_if_fail (session != NULL, FALSE);
  h = host->h;
  if (h->relay_url == NULL)
    {
      g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                   "host %s: session %s needs a relay (sl_harness_start_relay())", host->name, session);
      return FALSE;
    }
  env_subbuf = g_getenv ("SL_HARNESS_SUBBUF_SIZE");
  env_nsubbuf = g_getenv ("SL_HARNESS_NUM_SUBBUF");
  live = g_strdup_printf ("--live=%u", live_timer_us);
  url = g_strdup_printf ("--set-url=net://127.0.0.1:%u:%u", h->ports[0], h->ports[1]);
  subbuf = g_strdup_printf ("--subbuf-size=%s", env_subbuf != NULL ? env_subbuf : "1M");
  nsubbuf = g_strdup_printf ("--num-subbuf=%s", env_nsubbuf != NULL ? env_nsubbuf : "4");
  {
    const char *create[] = { "create", session, live, url, NULL };
    const char *channel[] = { "enable-channel", "--userspace", "--session", session, "--buffers-uid",
                              subbuf, nsubbuf, "sl", NULL };
    const char *event[] = { "enable-event", "--userspace", "--session", session, "--channel", "sl",
                            "syncline_net:*", NULL };
    /* the contexts a user records to see processes and threads */
    const char *context[] = { "add-context", "--userspace", "--session", session, "--channel", "sl",
                              "--type", "vpid", "--type", "vtid", "--type", "procname", NULL };
    const char *start[] = { "start", session, NULL };

    /* a session created again gets a new folder and a new clock offset */
    g_hash_table_remove (host->offsets, session);
    g_hash_table_insert (host->old_dirs, g_strdup (session), session_trace_dirs (host, session));
    if (!host_lttng (host, create, 30000, FALSE, NULL, error))
      return FALSE;
    g_ptr_array_add (host->sessions, g_strdup (session));
    return host_lttng (host, channel, 30000, FALSE, NULL, error)
           && host_lttng (host, event, 30000, FALSE, NULL, error)
           && host_lttng (host, context, 30000, FALSE, NULL, error)
           && host_lttng (host, start, 30000, FALSE, NULL, error);
  }
}

static gboolean
remove_session (SlHarnessHost *host,
                const char    *session)
{
  for (guint i = 0; i < host->sessions->len; i++)
    if (strcmp (host->sessions->pdata[i], session) == 0)
      {
        g_ptr_array_remove_index (host->sessions, i);
        return TRUE;
      }
  return FALSE;
}

gboolean
sl_harness_host_destroy_session (SlHarnessHost *host,
                                 const char    *session,
                                 GError       **error)
{
  const char *args[] = { "destroy", session, NULL };

  g_autoptr(GError) local = NULL;
  const char *list[] = { "list", NULL };
  g_autofree char *out = NULL;
  g_autofree char *listed = NULL;

  g_return_val_if_fail (host != NULL, FALSE);
  g_return_val_if_fail (session != NULL, FALSE);
  remove_session (host, session);
  if (host_lttng (host, args, 60000, FALSE, NULL, &local))
    return TRUE;
  /* lttng-tools 2.13 sometimes fails the final rotation of a live session
   * ("Trace chunk close failed on consumer") although the session is gone
   * and its data has reached the relay: only a session still listed is a
   * failure. */
  listed = g_strdup_printf (") %s [", session);
  if (local->code != SL_HARNESS_ERROR_TIMED_OUT
      && (strstr (local->message, "Trace chunk close failed") != NULL
          || strstr (local->message, "quiet rotation") != NULL)
      && host_lttng (host, list, 30000, FALSE, &out, NULL)
      && strstr (out, listed) == NULL)
    {
      g_printerr ("sl-harness: host %s: `lttng destroy %s` failed but the session is gone; going on. %s\n",
                  host->name, session, local->message);
      return TRUE;
    }
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

GPid
sl_harness_host_spawn_peer (SlHarnessHost     *host,
                            const char *const *peer_args,
                            GError           **error)
{
  SlHarness *h;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *ready = NULL;
  g_autofree char *name = NULL;
  g_autofree char *pid_line = NULL;
  g_autofree char *process_line = NULL;
  g_autofree char *join = NULL;
  gint64 deadline;
  Child *c;

  g_return_val_if_fail (host != NULL, 0);
  h = host->h;
  {
    Child *d = lookup_child (h, host->sessiond_pid);

    if (d == NULL || poll_child (d))
      {
        g_autofree char *tail = sessiond_tail (host);

        g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                     "host %s: its lttng-sessiond is not running; its log:\n%s", host->name, tail);
        return 0;
      }
  }
  ready = g_strdup_printf ("%s/peers/%s-%u.ready", h->dir, host->name, ++host->n_peers);
  for (guint i = 0; peer_args != NULL && peer_args[i] != NULL; i++)
    g_ptr_array_add (args, g_strdup (peer_args[i]));
  g_ptr_array_add (args, g_strdup_printf ("--ready-file=%s", ready));
  g_ptr_array_add (args, NULL);
  join = g_strdup_printf ("--join=%d", (int) host->sessiond_pid);
  argv = exec_argv (h, join, SIGKILL, h->netpeer_path, (const char *const *) args->pdata);
  env = host_env (host);
  /* the constructor of lttng-ust waits until the session daemon has sent
   * the sessions' state, so tracing is on when main() runs */
  env = g_environ_setenv (env, "LTTNG_UST_REGISTER_TIMEOUT", "20000", TRUE);
  env = g_environ_setenv (env, "LTTNG_UST_WITHOUT_BADDR_STATEDUMP", "1", TRUE);
  name = g_strdup_printf ("sl-test-netpeer-%s-%u", host->name, host->n_peers);
  c = spawn_child (h, CHILD_PEER, name, (char **) argv->pdata, env, NULL, error);
  if (c == NULL)
    return 0;

  deadline = g_get_monotonic_time () + SL_HARNESS_WAIT_S * G_USEC_PER_SEC;
  while (!g_file_test (ready, G_FILE_TEST_EXISTS))
    {
      if (poll_child (c) || g_get_monotonic_time () > deadline)
        {
          g_autofree char *tail = NULL;
          g_autofree char *st = c->reaped ? describe_status (c->status) : g_strdup_printf ("no ready file after %d s", SL_HARNESS_WAIT_S);

          if (!c->reaped)
            {
              kill (c->pid, SIGKILL);
              wait_child (c, 5000);
            }
          tail = file_tail (c->log, LOG_TAIL_LINES);
          g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                       "host %s: sl-test-netpeer did not start (%s); its log:\n%s", host->name, st, tail);
          return 0;
        }
      sleep_ms (5);
    }

  /* registration is complete when the daemon lists it: "PID: N - Name: ..."
   * (lttng 2.13), "Process N: `...`" (2.16) */
  pid_line = g_strdup_printf ("PID: %d ", (int) c->pid);
  process_line = g_strdup_printf ("Process %d: ", (int) c->pid);
  deadline = g_get_monotonic_time () + SL_HARNESS_WAIT_S * G_USEC_PER_SEC;
  for (;;)
    {
      const char *list[] = { "list", "--userspace", NULL };
      g_autofree char *out = NULL;
      g_autoptr(GError) local = NULL;

      if (!host_lttng (host, list, 10000, FALSE, &out, &local))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return 0;
        }
      if (strstr (out, pid_line) != NULL || strstr (out, process_line) != NULL)
        break;
      if (poll_child (c) || g_get_monotonic_time () > deadline)
        {
          g_autofree char *tail = file_tail (c->log, LOG_TAIL_LINES);
          g_autofree char *dtail = sessiond_tail (host);

          g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                       "host %s: sl-test-netpeer (pid %d) %s without registering with lttng-sessiond;"
                       " its log:\n%s\nlttng-sessiond's log:\n%s", host->name, (int) c->pid,
                       c->reaped ? "ended" : "runs for " G_STRINGIFY (SL_HARNESS_WAIT_S) " s", tail, dtail);
          return 0;
        }
      sleep_ms (20);
    }
  return c->pid;
}

/* ---- ground truth ---- */

/* The host's SESSION-YYYYMMDD-HHMMSS folders in the relay's output. */
static GHashTable *
session_trace_dirs (SlHarnessHost *host,
                    const char    *session)
{
  g_autofree char *host_dir = g_build_filename (host->h->out_dir, host->name, NULL);
  g_autofree char *escaped = g_regex_escape_string (session, -1);
  g_autofree char *pattern = g_strdup_printf ("^%s-[0-9]{8}-[0-9]{6}$", escaped);
  g_autoptr(GRegex) re = g_regex_new (pattern, 0, 0, NULL);
  g_autoptr(GDir) d = g_dir_open (host_dir, 0, NULL);
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_regex_match (re, name, 0, NULL))
      g_hash_table_add (names, g_strdup (name));
  return names;
}

/* The folder of the session's current incarnation: the newest one that did
 * not exist before it was created. */
static char *
session_trace_dir (SlHarnessHost *host,
                   const char    *session)
{
  g_autoptr(GHashTable) names = session_trace_dirs (host, session);
  GHashTable *old = g_hash_table_lookup (host->old_dirs, session);
  const char *best = NULL;
  GHashTableIter it;
  gpointer key;

  g_hash_table_iter_init (&it, names);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if ((old == NULL || !g_hash_table_contains (old, key)) && (best == NULL || strcmp (key, best) > 0))
      best = key;
  return best != NULL ? g_build_filename (host->h->out_dir, host->name, best, NULL) : NULL;
}

/* ust/uid/UID/64-bit/metadata below DIR, or NULL. */
static char *
find_metadata (const char *session_dir)
{
  g_autofree char *uid_dir = g_build_filename (session_dir, "ust", "uid", NULL);
  g_autoptr(GDir) d = g_dir_open (uid_dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      char *p = g_build_filename (uid_dir, name, "64-bit", "metadata", NULL);

      if (g_file_test (p, G_FILE_TEST_IS_REGULAR))
        return p;
      g_free (p);
    }
  return NULL;
}

/* The complete packets of a packetized metadata file (a copy being written
 * may end in the middle of one: babeltrace2 2.0.4 then loops for ever). */
static gsize
complete_metadata_length (const guint8 *data,
                          gsize         len)
{
  gsize at = 0;

  if (len < 4 || GUINT32_FROM_LE (*(const guint32 *) data) != 0x75D11D57u)
    return len; /* text metadata */
  while (at + 37 <= len)
    {
      guint32 magic, packet_bits;

      memcpy (&magic, data + at, 4);
      memcpy (&packet_bits, data + at + 28, 4);
      magic = GUINT32_FROM_LE (magic);
      packet_bits = GUINT32_FROM_LE (packet_bits);
      if (magic != 0x75D11D57u || packet_bits < 37 * 8 || at + packet_bits / 8 > len)
        break;
      at += packet_bits / 8;
    }
  return at;
}

/* The clock of the metadata: TSDL's clock block, or in CTF 2 (LTTng 2.15's
 * default format; a JSON text sequence) the clock class fragment, with its
 * frequency and offset from origin in seconds and cycles. */
static gboolean
parse_clock (const char *tsdl,
             gint64     *offset_ns,
             GError    **error)
{
  gboolean ctf2 = tsdl[0] == '\x1e';
  g_autoptr(GRegex) comments = g_regex_new ("/\\*.*?\\*/", G_REGEX_DOTALL, 0, NULL);
  g_autoptr(GRegex) block = g_regex_new ("\\bclock\\s*\\{([^}]*)\\}", 0, 0, NULL);
  g_autoptr(GRegex) freq_re = g_regex_new (ctf2 ? "\"frequency\"\\s*:\\s*(\\d+)" : "\\bfreq\\s*=\\s*(\\d+)\\s*;", 0, 0, NULL);
  g_autoptr(GRegex) s_re = g_regex_new (ctf2 ? "\"seconds\"\\s*:\\s*(-?\\d+)" : "\\boffset_s\\s*=\\s*(-?\\d+)\\s*;", 0, 0, NULL);
  g_autoptr(GRegex) o_re = g_regex_new (ctf2 ? "\"cycles\"\\s*:\\s*(\\d+)" : "\\boffset\\s*=\\s*(-?\\d+)\\s*;", 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_autofree char *body = NULL;
  gint64 freq = 0, off_s = 0, off = 0;

  if (ctf2)
    {
      g_auto(GStrv) fragments = g_strsplit (tsdl, "\x1e", -1);

      for (guint i = 0; fragments[i] != NULL && body == NULL; i++)
        if (strstr (fragments[i], "\"clock-class\"") != NULL)
          body = g_strdup (fragments[i]);
    }
  else
    {
      g_autofree char *text = g_regex_replace_literal (comments, tsdl, -1, 0, "", 0, NULL);

      if (g_regex_match (block, text, 0, &m))
        body = g_match_info_fetch (m, 1);
      g_clear_pointer (&m, g_match_info_free);
    }
  if (body == NULL)
    {
      g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED, "no clock in the metadata");
      return FALSE;
    }
  if (g_regex_match (freq_re, body, 0, &m))
    {
      g_autofree char *v = g_match_info_fetch (m, 1);
      freq = g_ascii_strtoll (v, NULL, 10);
    }
  g_clear_pointer (&m, g_match_info_free);
  if (g_regex_match (s_re, body, 0, &m))
    {
      g_autofree char *v = g_match_info_fetch (m, 1);
      off_s = g_ascii_strtoll (v, NULL, 10);
    }
  g_clear_pointer (&m, g_match_info_free);
  if (g_regex_match (o_re, body, 0, &m))
    {
      g_autofree char *v = g_match_info_fetch (m, 1);
      off = g_ascii_strtoll (v, NULL, 10);
    }
  if (freq != 1000000000)
    {
      g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                   "the metadata clock has freq %" G_GINT64_FORMAT ", not sl-test-clock's 1 GHz:\n%s", freq, body);
      return FALSE;
    }
  *offset_ns = off_s * 1000000000 + off;
  return TRUE;
}

static gboolean
metadata_offset (SlHarnessHost *host,
                 const char    *session,
                 gint64        *offset_ns,
                 GError       **error)
{
  SlHarness *h = host->h;
  gint64 *cached = g_hash_table_lookup (host->offsets, session);
  gint64 deadline = g_get_monotonic_time () + SL_HARNESS_WAIT_S * G_USEC_PER_SEC;
  g_autoptr(GError) last = NULL;

  if (cached != NULL)
    {
      *offset_ns = *cached;
      return TRUE;
    }
  for (;;)
    {
      g_autofree char *sdir = session_trace_dir (host, session);
      g_autofree char *meta = sdir != NULL ? find_metadata (sdir) : NULL;
      g_autofree guint8 *data = NULL;
      gsize len = 0, complete;

      g_clear_error (&last);
      if (meta == NULL)
        g_set_error (&last, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED,
                     "no metadata for session %s of host %s in %s yet", session, host->name, h->out_dir);
      else if (!g_file_get_contents (meta, (char **) &data, &len, &last))
        ;
      else if ((complete = complete_metadata_length (data, len)) == 0)
        g_set_error (&last, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED, "%s holds no whole packet yet", meta);
      else
        {
          g_autofree char *copy_dir = g_strdup_printf ("%s/run/metadata-%u", h->dir, ++h->counter);
          g_autofree char *copy = g_build_filename (copy_dir, "metadata", NULL);
          g_autofree char *tsdl = NULL;
          const char *argv[] = { h->bt2_path, "-o", "ctf-metadata", copy_dir, NULL };
          gboolean ok;

          ok = make_dir (h, copy_dir, &last) && g_file_set_contents (copy, (char *) data, (gssize) complete, &last)
               && sl_harness_run (h, argv, 20000, &tsdl, NULL, &last) && parse_clock (tsdl, offset_ns, &last);
          rm_rf (copy_dir);
          if (ok)
            {
              g_hash_table_insert (host->offsets, g_strdup (session), g_memdup2 (offset_ns, sizeof *offset_ns));
              return TRUE;
            }
        }
      if (g_get_monotonic_time () > deadline)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&last),
                                      "host %s, session %s: no clock offset after %d s: ", host->name, session,
                                      SL_HARNESS_WAIT_S);
          return FALSE;
        }
      sleep_ms (100);
    }
}

gint64
sl_harness_host_trace_time (SlHarnessHost *host,
                            const char    *session,
                            gint64         monotonic_ns,
                            GError       **error)
{
  gint64 offset;

  g_return_val_if_fail (host != NULL, G_MININT64);
  g_return_val_if_fail (session != NULL, G_MININT64);
  if (!metadata_offset (host, session, &offset, error))
    return G_MININT64;
  return offset + clock_value (host->h->clock_base_ns, host->drift_ppb, monotonic_ns);
}

gint64
sl_harness_host_monotonic_time (SlHarnessHost *host,
                                const char    *session,
                                gint64         trace_ns,
                                GError       **error)
{
  gint64 offset, base, target, m;

  g_return_val_if_fail (host != NULL, G_MININT64);
  g_return_val_if_fail (session != NULL, G_MININT64);
  if (!metadata_offset (host, session, &offset, error))
    return G_MININT64;
  base = host->h->clock_base_ns;
  target = trace_ns - offset;
  /* close guess, then exact steps (the clock is increasing) */
  m = base + (gint64) ((double) (target - base) / (1.0 + (double) host->drift_ppb * 1e-9));
  while (clock_value (base, host->drift_ppb, m) > target)
    m--;
  while (clock_value (base, host->drift_ppb, m + 1) <= target)
    m++;
  return m;
}

/* ---- any process ---- */

gboolean
sl_harness_run (SlHarness         *h,
                const char *const *argv,
                guint              timeout_ms,
                char             **out,
                char             **err,
                GError           **error)
{
  g_autoptr(GPtrArray) full = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *o = NULL;
  g_autofree char *e = NULL;
  g_autofree char *name = NULL;
  int status = 0;

  g_return_val_if_fail (h != NULL, FALSE);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);
  full = exec_argv (h, NULL, SIGKILL, argv[0], argv + 1);
  env = base_env (h);
  name = g_path_get_basename (argv[0]);
  if (!run_child (h, name, (char **) full->pdata, env, timeout_ms, &status, &o, &e, error))
    return FALSE;
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      g_autofree char *cmd = argv_text (argv);
      g_autofree char *st = describe_status (status);
      g_autofree char *tail = NULL;
      gsize len = strlen (e);

      tail = g_strdup (len > 4000 ? e + len - 4000 : e);
      g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_FAILED, "`%s` failed (%s):\n%s", cmd, st,
                   g_strstrip (tail));
      return FALSE;
    }
  if (out != NULL)
    *out = g_steal_pointer (&o);
  if (err != NULL)
    *err = g_steal_pointer (&e);
  return TRUE;
}

GPid
sl_harness_spawn (SlHarness         *h,
                  const char *const *argv,
                  const char        *stdout_path,
                  GError           **error)
{
  g_autoptr(GPtrArray) full = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *name = NULL;
  Child *c;

  g_return_val_if_fail (h != NULL, 0);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, 0);
  full = exec_argv (h, NULL, SIGKILL, argv[0], argv + 1);
  env = base_env (h);
  name = g_path_get_basename (argv[0]);
  c = spawn_child (h, CHILD_OTHER, name, (char **) full->pdata, env, stdout_path, error);
  return c != NULL ? c->pid : 0;
}

gboolean
sl_harness_wait_process (SlHarness *h,
                         GPid       pid,
                         guint      timeout_ms,
                         int       *wait_status,
                         GError   **error)
{
  Child *c;

  g_return_val_if_fail (h != NULL, FALSE);
  c = find_child (h, pid, error);
  if (c == NULL)
    return FALSE;
  if (!wait_child (c, timeout_ms))
    {
      g_autofree char *tail = file_tail (c->log, LOG_TAIL_LINES);

      g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_TIMED_OUT,
                   "%s (pid %d) still runs after %u ms; its log:\n%s", c->name, (int) pid, timeout_ms, tail);
      return FALSE;
    }
  if (wait_status != NULL)
    *wait_status = c->status;
  return TRUE;
}

gboolean
sl_harness_stop_process (SlHarness *h,
                         GPid       pid,
                         guint      timeout_ms,
                         int       *wait_status,
                         GError   **error)
{
  Child *c;

  g_return_val_if_fail (h != NULL, FALSE);
  c = find_child (h, pid, error);
  if (c == NULL)
    return FALSE;
  if (!poll_child (c))
    {
      kill (pid, SIGCONT);
      kill (pid, SIGTERM);
      if (!wait_child (c, timeout_ms))
        {
          g_autofree char *tail = file_tail (c->log, LOG_TAIL_LINES);

          kill (pid, SIGKILL);
          wait_child (c, 5000);
          g_set_error (error, SL_HARNESS_ERROR, SL_HARNESS_ERROR_TIMED_OUT,
                       "%s (pid %d) ignored SIGTERM for %u ms (killed); its log:\n%s", c->name, (int) pid,
                       timeout_ms, tail);
          return FALSE;
        }
    }
  if (wait_status != NULL)
    *wait_status = c->status;
  return TRUE;
}

char *
sl_harness_get_log_tail (SlHarness *h,
                         GPid       pid)
{
  Child *c;

  g_return_val_if_fail (h != NULL, NULL);
  c = lookup_child (h, pid);
  return file_tail (c != NULL ? c->log : NULL, LOG_TAIL_LINES);
}

/* ---- the end ---- */

static void
stop_kind (SlHarness *h,
           ChildKind  kind,
           int        sig,
           guint      timeout_ms)
{
  g_autoptr(GPtrArray) cs = g_ptr_array_new ();
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, h->children);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (((Child *) value)->kind == kind && !((Child *) value)->reaped)
      g_ptr_array_add (cs, value);
  if (cs->len > 0)
    stop_children (h, (Child **) cs->pdata, cs->len, sig, timeout_ms);
}

void
sl_harness_free (SlHarness *h)
{
  gboolean keep;

  if (h == NULL)
    return;
  keep = g_strcmp0 (g_getenv ("SL_HARNESS_KEEP"), "1") == 0;

  if (h->relay_stalled && h->relay_pid != 0)
    sl_harness_stall_relay (h, FALSE);

  /* the traced programs first, so the sessions hold all they logged */
  stop_kind (h, CHILD_PEER, SIGTERM, 5000);
  stop_kind (h, CHILD_OTHER, SIGTERM, 5000);
  for (guint i = 0; i < h->hosts->len; i++)
    {
      SlHarnessHost *host = h->hosts->pdata[i];
      Child *c = lookup_child (h, host->sessiond_pid);

      if (c == NULL || poll_child (c))
        continue;
      while (host->sessions->len > 0)
        {
          g_autofree char *session = g_strdup (host->sessions->pdata[0]);
          const char *args[] = { "destroy", session, NULL };
          g_autoptr(GError) error = NULL;

          g_ptr_array_remove_index (host->sessions, 0);
          if (!host_lttng (host, args, h->relay_pid != 0 ? 20000 : 5000, FALSE, NULL, &error) && h->verbose)
            g_printerr ("sl-harness: %s\n", error->message);
        }
    }
  /* a session daemon stops its consumer daemons */
  stop_kind (h, CHILD_SESSIOND, SIGTERM, 15000);
  stop_kind (h, CHILD_RELAY, SIGTERM, 10000);
  h->relay_pid = 0;

  /* the watchdog's final sweep: stragglers, shared memory, the folder */
  if (h->watchdog_fd >= 0)
    {
      const char *word = keep ? "keep\n" : "remove\n";
      G_GNUC_UNUSED ssize_t n = write (h->watchdog_fd, word, strlen (word));

      close (h->watchdog_fd);
      h->watchdog_fd = -1;
    }
  if (h->watchdog_pid != 0)
    {
      Child w = { .pid = h->watchdog_pid, .name = (char *) "watchdog" };

      if (!wait_child (&w, 30000))
        {
          g_printerr ("sl-harness: the watchdog (pid %d) did not finish in 30 s\n", (int) h->watchdog_pid);
          kill (h->watchdog_pid, SIGKILL);
          wait_child (&w, 5000);
        }
      else if (!WIFEXITED (w.status) || WEXITSTATUS (w.status) != 0)
        g_printerr ("sl-harness: the watchdog reports processes it could not stop\n");
    }
  if (keep)
    g_printerr ("sl-harness: kept %s\n", h->dir);
  else if (g_file_test (h->dir, G_FILE_TEST_EXISTS))
    rm_rf (h->dir);
  harness_release (h);
}

gboolean
sl_harness_free_and_check_clean (SlHarness *h,
                                 GString   *problems)
{
  g_autofree char *tag = NULL;
  g_autoptr(GHashTable) before = NULL;
  g_autoptr(GHashTable) after = NULL;
  GHashTableIter it;
  gpointer key;
  guint uid;
  gsize start = problems->len;

  g_return_val_if_fail (h != NULL, FALSE);
  g_return_val_if_fail (problems != NULL, FALSE);

  tag = g_strdup (h->tag);
  before = g_hash_table_ref (h->shm_before);
  uid = h->uid;
  sl_harness_free (h);

  find_tagged (tag, problems);
  after = list_shm ();
  g_hash_table_iter_init (&it, after);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      const char *name = key;
      g_autofree char *path = g_build_filename ("/dev/shm", name, NULL);
      GStatBuf st;

      if (g_hash_table_contains (before, name) || !is_lttng_shm (name) || g_stat (path, &st) != 0
          || st.st_uid != uid || shm_mapped (name))
        continue;
      g_string_append_printf (problems, "%s was left behind\n", path);
    }
  return problems->len == start;
}
