/* sl-test-exec.c: run a command as a simulated host
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sl-test-exec [--hostname=NAME | --join=PID] [--user=UID] [--group=GID]
 *                [--parent-death-signal=SIG] -- CMD ARGS...
 *
 * --hostname=NAME makes a new simulated host: new UTS and mount namespaces,
 * the host name NAME, a private tmpfs on /dev/shm and one on /run/lttng when
 * it exists (LTTng's wait files and a system-wide root session daemon stay
 * out of the host's view; nothing is left in the real /dev/shm).
 * --join=PID runs the command in the host of process PID (its user, UTS and
 * mount namespaces).
 *
 * As root: the namespaces are made, then every privilege is dropped to
 * --user (default 65534, nobody) and --group (default: the user's group, or
 * 65534), so the LTTng daemons run as an ordinary user. Not root: the
 * namespaces are made inside a new user namespace that maps the current uid
 * and gid to themselves (never to root: lttng must not believe it is root).
 *
 * Always: the command receives SIG (default SIGTERM; 0 disables) when the
 * process that started sl-test-exec dies, so a crashed test leaves no
 * daemon behind. The command replaces sl-test-exec (same pid).
 *
 *   sl-test-exec --watchdog=TAG [--watchdog-uid=UID] [--watchdog-dir=DIR]
 *
 * The harness's watchdog, in its own session (a test killed with its process
 * group does not take it along): it waits for its standard input to end,
 * then kills every process whose environment holds SL_HARNESS_TAG=TAG
 * (SIGCONT and SIGTERM, SIGKILL 3 s later), removes the LTTng shared memory
 * files (/dev/shm/lttng-ust-wait-*, ust-shm-*) that UID created since the
 * watchdog started and no process maps any more, and removes DIR if it
 * last read the line "remove" (otherwise, a crashed test, DIR is kept for
 * its logs). Exit status 0 when nothing tagged survived.
 */

#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static void __attribute__ ((noreturn, format (printf, 1, 2)))
die (const char *fmt,
     ...)
{
  va_list ap;

  fputs ("sl-test-exec: ", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  exit (126);
}

static void __attribute__ ((noreturn))
usage (void)
{
  fputs ("usage: sl-test-exec [--hostname=NAME | --join=PID] [--user=UID] [--group=GID]"
         " [--parent-death-signal=SIG] -- CMD ARGS...\n"
         "       sl-test-exec --watchdog=TAG [--watchdog-uid=UID] [--watchdog-dir=DIR]\n", stderr);
  exit (2);
}

static long
parse_id (const char *opt,
          const char *s,
          long        max)
{
  char *end;
  long v;

  errno = 0;
  v = strtol (s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < 0 || v > max)
    die ("%s: \"%s\" is not a number between 0 and %ld", opt, s, max);
  return v;
}

static void
write_file (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  ssize_t len = (ssize_t) strlen (text);

  if (fd < 0)
    die ("cannot open %s: %s", path, strerror (errno));
  if (write (fd, text, (size_t) len) != len)
    die ("cannot write \"%s\" to %s: %s", text, path, strerror (errno));
  close (fd);
}

/* ---- hosts ---- */

static void
private_tmpfs (const char *path,
               const char *mode)
{
  struct stat st;
  char opts[32];

  if (stat (path, &st) != 0 || !S_ISDIR (st.st_mode))
    return;
  snprintf (opts, sizeof opts, "mode=%s", mode);
  if (mount ("sl-host", path, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0)
    die ("cannot mount a private tmpfs on %s: %s", path, strerror (errno));
}

static void
new_host (const char *hostname)
{
  if (unshare (CLONE_NEWUTS | CLONE_NEWNS) != 0)
    die ("unshare(CLONE_NEWUTS|CLONE_NEWNS) failed: %s", strerror (errno));
  /* mounts made here must not propagate back to the real system */
  if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
    die ("cannot make the mounts of the new namespace private: %s", strerror (errno));
  private_tmpfs ("/dev/shm", "1777");
  {
    char *run = realpath ("/var/run/lttng", NULL);

    private_tmpfs ("/run/lttng", "755");
    if (run != NULL && strcmp (run, "/run/lttng") != 0)
      private_tmpfs (run, "755");
    free (run);
  }
  if (sethostname (hostname, strlen (hostname)) != 0)
    die ("sethostname(\"%s\") failed: %s", hostname, strerror (errno));
}

static int
open_ns (long        pid,
         const char *ns)
{
  char path[64];
  int fd;

  snprintf (path, sizeof path, "/proc/%ld/ns/%s", pid, ns);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    die ("cannot open %s (is the host's session daemon alive?): %s", path, strerror (errno));
  return fd;
}

static void
join_host (long pid)
{
  int user = open_ns (pid, "user");
  int uts = open_ns (pid, "uts");
  int mnt = open_ns (pid, "mnt");
  struct stat mine, theirs;

  if (stat ("/proc/self/ns/user", &mine) != 0 || fstat (user, &theirs) != 0)
    die ("cannot compare user namespaces: %s", strerror (errno));
  if (mine.st_ino != theirs.st_ino && setns (user, CLONE_NEWUSER) != 0)
    die ("cannot join the user namespace of process %ld: %s", pid, strerror (errno));
  if (setns (uts, CLONE_NEWUTS) != 0)
    die ("cannot join the UTS namespace of process %ld: %s", pid, strerror (errno));
  if (setns (mnt, CLONE_NEWNS) != 0)
    die ("cannot join the mount namespace of process %ld: %s", pid, strerror (errno));
  close (user);
  close (uts);
  close (mnt);
}

/* ---- the watchdog ---- */

typedef struct
{
  char **names;
  int    len;
  int    cap;
} Names;

static void
names_add (Names      *n,
           const char *s)
{
  if (n->len == n->cap)
    {
      n->cap = n->cap ? 2 * n->cap : 64;
      n->names = realloc (n->names, (size_t) n->cap * sizeof *n->names);
      if (n->names == NULL)
        die ("out of memory");
    }
  n->names[n->len] = strdup (s);
  if (n->names[n->len] == NULL)
    die ("out of memory");
  n->len++;
}

static void
names_clear (Names *n)
{
  for (int i = 0; i < n->len; i++)
    free (n->names[i]);
  free (n->names);
  memset (n, 0, sizeof *n);
}

static int
names_has (const Names *n,
           const char  *s)
{
  for (int i = 0; i < n->len; i++)
    if (strcmp (n->names[i], s) == 0)
      return 1;
  return 0;
}

static void
list_shm (Names *n)
{
  DIR *d = opendir ("/dev/shm");
  struct dirent *e;

  if (d == NULL)
    return;
  while ((e = readdir (d)) != NULL)
    if (e->d_name[0] != '.')
      names_add (n, e->d_name);
  closedir (d);
}

/* The whole content of a /proc file (which stat() calls empty), or NULL. */
static char *
read_proc_file (const char *path,
                size_t     *len_out)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  size_t len = 0, cap = 4096;
  char *buf;

  if (fd < 0)
    return NULL;
  buf = malloc (cap + 1);
  if (buf == NULL)
    die ("out of memory");
  for (;;)
    {
      ssize_t r = read (fd, buf + len, cap - len);

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      len += (size_t) r;
      if (len == cap)
        {
          cap *= 2;
          buf = realloc (buf, cap + 1);
          if (buf == NULL)
            die ("out of memory");
        }
    }
  close (fd);
  buf[len] = '\0';
  *len_out = len;
  return buf;
}

static int
environ_has (const char *env,
             size_t      len,
             const char *entry)
{
  size_t elen = strlen (entry);

  for (size_t i = 0; i < len; i += strlen (env + i) + 1)
    if (strlen (env + i) == elen && memcmp (env + i, entry, elen) == 0)
      return 1;
  return 0;
}

/* The tagged processes, at most MAX, except ourselves. */
static int
find_tagged (const char *entry,
             pid_t      *pids,
             int         max)
{
  DIR *d = opendir ("/proc");
  struct dirent *e;
  int n = 0;

  if (d == NULL)
    die ("cannot read /proc: %s", strerror (errno));
  while ((e = readdir (d)) != NULL && n < max)
    {
      char path[64], *env;
      size_t len;
      pid_t pid = (pid_t) atoi (e->d_name);

      if (pid <= 0 || pid == getpid ())
        continue;
      snprintf (path, sizeof path, "/proc/%d/environ", (int) pid);
      env = read_proc_file (path, &len);
      if (env != NULL && environ_has (env, len, entry))
        pids[n++] = pid;
      free (env);
    }
  closedir (d);
  return n;
}

static int
shm_mapped (const char *name)
{
  DIR *d = opendir ("/proc");
  struct dirent *e;
  char needle[300];
  int found = 0;

  snprintf (needle, sizeof needle, "/dev/shm/%s", name);
  if (d == NULL)
    return 1;
  while (!found && (e = readdir (d)) != NULL)
    {
      char path[64], *maps;
      size_t len;
      pid_t pid = (pid_t) atoi (e->d_name);

      if (pid <= 0)
        continue;
      snprintf (path, sizeof path, "/proc/%d/maps", (int) pid);
      maps = read_proc_file (path, &len);
      if (maps != NULL)
        for (char *p = strstr (maps, needle); p != NULL && !found; p = strstr (p + 1, needle))
          {
            char after = p[strlen (needle)];
            found = (after == '\n' || after == '\0' || after == ' ');
          }
      free (maps);
    }
  closedir (d);
  return found;
}

static int
is_lttng_shm (const char *name)
{
  return strncmp (name, "lttng-ust-wait-", 15) == 0 || strncmp (name, "ust-shm-", 8) == 0;
}

static int
remove_entry (const char        *path,
              const struct stat *st,
              int                type,
              struct FTW        *ftw)
{
  if (remove (path) != 0)
    fprintf (stderr, "sl-test-exec: watchdog: cannot remove %s: %s\n", path, strerror (errno));
  return 0;
}

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
watchdog (const char *tag,
          long        uid,
          const char *dir)
{
  char entry[256], line[64] = "";
  Names before = { 0 }, after = { 0 };
  pid_t pids[1024];
  int n, survivors = 0, remove_dir = 0;
  double start;
  size_t used = 0;

  snprintf (entry, sizeof entry, "SL_HARNESS_TAG=%s", tag);
  if (setsid () < 0)
    fprintf (stderr, "sl-test-exec: watchdog: setsid: %s\n", strerror (errno));
  signal (SIGPIPE, SIG_IGN);
  signal (SIGINT, SIG_IGN);
  signal (SIGTERM, SIG_IGN);
  signal (SIGHUP, SIG_IGN);
  list_shm (&before);

  /* The harness writes "remove" or "keep" and closes; a dead test just closes. */
  for (;;)
    {
      char c;
      ssize_t r = read (STDIN_FILENO, &c, 1);

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      if (c == '\n')
        {
          line[used] = '\0';
          remove_dir = strcmp (line, "remove") == 0;
          used = 0;
        }
      else if (used < sizeof line - 1)
        line[used++] = c;
    }

  start = now_s ();
  n = find_tagged (entry, pids, 1024);
  for (int i = 0; i < n; i++)
    {
      kill (pids[i], SIGCONT);
      kill (pids[i], SIGTERM);
    }
  while (n > 0 && now_s () - start < 10)
    {
      struct timespec ts = { 0, 20 * 1000 * 1000 };

      nanosleep (&ts, NULL);
      n = find_tagged (entry, pids, 1024);
      if (now_s () - start > 3)
        for (int i = 0; i < n; i++)
          kill (pids[i], SIGKILL);
    }
  if (n > 0)
    {
      survivors = n;
      fprintf (stderr, "sl-test-exec: watchdog: %d process(es) tagged %s survive SIGKILL\n", n, tag);
    }

  if (uid >= 0)
    {
      list_shm (&after);
      for (int i = 0; i < after.len; i++)
        {
          char path[300];
          struct stat st;

          snprintf (path, sizeof path, "/dev/shm/%s", after.names[i]);
          if (names_has (&before, after.names[i]) || !is_lttng_shm (after.names[i])
              || stat (path, &st) != 0 || st.st_uid != (uid_t) uid || shm_mapped (after.names[i]))
            continue;
          if (unlink (path) != 0 && errno != ENOENT)
            fprintf (stderr, "sl-test-exec: watchdog: cannot remove %s: %s\n", path, strerror (errno));
        }
    }

  names_clear (&before);
  names_clear (&after);
  if (dir != NULL && remove_dir)
    nftw (dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  else if (dir != NULL)
    fprintf (stderr, "sl-test-exec: watchdog: the test process ended without cleaning up; "
             "its processes were stopped, logs kept in %s\n", dir);
  return survivors > 0 ? 1 : 0;
}

int
main (int   argc,
      char *argv[])
{
  const char *hostname = NULL, *watchdog_tag = NULL, *watchdog_dir = NULL;
  long user = -1, group = -1, sig = SIGTERM, watchdog_uid = -1, join = -1;
  pid_t parent = getppid ();
  int i;

  for (i = 1; i < argc; i++)
    {
      const char *a = argv[i];

      if (strcmp (a, "--") == 0)
        {
          i++;
          break;
        }
      else if (strncmp (a, "--hostname=", 11) == 0)
        hostname = a + 11;
      else if (strncmp (a, "--join=", 7) == 0)
        join = parse_id ("--join", a + 7, 0x7fffffff);
      else if (strncmp (a, "--user=", 7) == 0)
        user = parse_id ("--user", a + 7, 0x7fffffff);
      else if (strncmp (a, "--group=", 8) == 0)
        group = parse_id ("--group", a + 8, 0x7fffffff);
      else if (strncmp (a, "--parent-death-signal=", 22) == 0)
        sig = parse_id ("--parent-death-signal", a + 22, 64);
      else if (strncmp (a, "--watchdog=", 11) == 0)
        watchdog_tag = a + 11;
      else if (strncmp (a, "--watchdog-uid=", 15) == 0)
        watchdog_uid = parse_id ("--watchdog-uid", a + 15, 0x7fffffff);
      else if (strncmp (a, "--watchdog-dir=", 15) == 0)
        watchdog_dir = a + 15;
      else
        usage ();
    }
  if (watchdog_tag != NULL)
    {
      if (*watchdog_tag == '\0' || i < argc)
        usage ();
      return watchdog (watchdog_tag, watchdog_uid, watchdog_dir);
    }
  if (i >= argc)
    usage ();
  if (hostname != NULL && (*hostname == '\0' || strlen (hostname) > 64))
    die ("--hostname: \"%s\" must have 1 to 64 characters", hostname);
  if (hostname != NULL && join >= 0)
    die ("--hostname and --join exclude each other");

  if (geteuid () == 0)
    {
      uid_t uid = user >= 0 ? (uid_t) user : 65534;
      gid_t gid;

      if (group >= 0)
        gid = (gid_t) group;
      else if (user >= 0)
        {
          struct passwd *pw = getpwuid (uid);
          gid = pw != NULL ? pw->pw_gid : (gid_t) uid;
        }
      else
        gid = 65534;

      if (join >= 0)
        join_host (join);
      else if (hostname != NULL)
        new_host (hostname);
      if (setgroups (1, &gid) != 0)
        die ("setgroups(%u) failed: %s", (unsigned) gid, strerror (errno));
      if (setresgid (gid, gid, gid) != 0)
        die ("setresgid(%u) failed: %s", (unsigned) gid, strerror (errno));
      if (setresuid (uid, uid, uid) != 0)
        die ("setresuid(%u) failed: %s", (unsigned) uid, strerror (errno));
      if (uid != 0 && setuid (0) == 0)
        die ("could not drop root privileges");
    }
  else
    {
      if (user >= 0 || group >= 0)
        die ("--user and --group need root (running as uid %u)", (unsigned) geteuid ());
      if (join >= 0)
        join_host (join);
      else if (hostname != NULL)
        {
          uid_t uid = geteuid ();
          gid_t gid = getegid ();
          char map[64];

          if (unshare (CLONE_NEWUSER) != 0)
            die ("unshare(CLONE_NEWUSER) failed: %s (unprivileged user namespaces are needed to "
                 "simulate hosts without root; see /proc/sys/user/max_user_namespaces and "
                 "kernel.unprivileged_userns_clone)", strerror (errno));
          write_file ("/proc/self/setgroups", "deny");
          snprintf (map, sizeof map, "%u %u 1", (unsigned) uid, (unsigned) uid);
          write_file ("/proc/self/uid_map", map);
          snprintf (map, sizeof map, "%u %u 1", (unsigned) gid, (unsigned) gid);
          write_file ("/proc/self/gid_map", map);
          new_host (hostname);
        }
    }

  /* Credential changes clear the parent-death signal: set it last, then
   * make sure the parent did not die before it was set. */
  if (sig != 0)
    {
      if (prctl (PR_SET_PDEATHSIG, (unsigned long) sig) != 0)
        die ("prctl(PR_SET_PDEATHSIG) failed: %s", strerror (errno));
      if (getppid () != parent)
        die ("the parent process (%d) died before %s started", (int) parent, argv[i]);
    }

  execvp (argv[i], argv + i);
  fprintf (stderr, "sl-test-exec: cannot run %s: %s\n", argv[i], strerror (errno));
  return 127;
}
