/* test-ui-quit.c: the application quits while a trace decoder spins
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs the real `syncline` (SL_GUI) under xvfb-run (tests/ui/run-ui-test.sh)
 * on a generated trace folder whose decoders loop forever in a packet
 * (SL_DECODER_FAULT, as tests/test-damaged.c's /damaged/decoder-faults; the
 * watchdog is set far beyond the test), then asks it to quit the way a user
 * does: Ctrl+Q typed through the X server's XTEST extension, or the window
 * manager's close request (WM_DELETE_WINDOW). The application must end and
 * leave no decoder process behind. This test process is the processes'
 * subreaper (PR_SET_CHILD_SUBREAPER), so that a decoder the application
 * abandoned becomes its child and is seen here instead of vanishing under
 * init.
 *
 * SIGTERM, SIGINT and SIGHUP quit it the same way. However it quits, it
 * leaves none of its temporary folders (views, spilled packet events) in
 * its TMPDIR and XDG_RUNTIME_DIR (folders of this test's own); and when it
 * starts, it removes those that a killed run left behind.
 *
 * No time is asserted: HANG_S is what only a hang reaches (the decoders'
 * own watchdog is set to an hour); the time taken is printed.
 */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

#include "test-util.h"

#define HANG_S 60

static char *traces;
/* more hosts than are read at once: their packet events are spilled */
static char *many;
/* the application's TMPDIR and XDG_RUNTIME_DIR */
static char *app_tmp, *app_runtime;
/* open for the whole run: Xvfb resets when its last client goes */
static Display *dpy;

typedef enum
{
  QUIT_CTRL_Q,
  QUIT_CLOSE,
  QUIT_SIGNAL,
} Quit;

/* Processor time of @pid in clock ticks; -1 when it is gone. */
static gint64
cpu_ticks (pid_t pid)
{
  g_autofree char *name = g_strdup_printf ("%d", (int) pid);
  gint64 ticks;
  int ppid, pgrp;
  char state;

  return proc_stat (name, &state, &ppid, &pgrp, &ticks, NULL) ? ticks : -1;
}

static gboolean
is_decoder_of (const char *pid,
               gpointer    parent)
{
  g_autofree char *comm = NULL;
  int ppid, pgrp;
  char state;

  /* the command name is cut to 15 characters */
  return proc_stat (pid, &state, &ppid, &pgrp, NULL, &comm) && ppid == *(pid_t *) parent && state != 'Z' &&
         g_str_equal (comm, "syncline-decode");
}

/* The live (not zombie) decoder processes whose parent is @parent. */
static GArray *
decoders_of (pid_t parent)
{
  return proc_pids (is_decoder_of, &parent);
}

/* The application's toplevel: a viewable child of the root window whose
 * _NET_WM_PID is @pid. */
static Window
window_of (pid_t pid)
{
  Atom wm_pid = XInternAtom (dpy, "_NET_WM_PID", False);
  Window root_ret, parent_ret, *children = NULL, found = None;
  unsigned int n = 0;

  if (!XQueryTree (dpy, DefaultRootWindow (dpy), &root_ret, &parent_ret, &children, &n))
    return None;
  for (unsigned int i = 0; i < n && found == None; i++)
    {
      XWindowAttributes attr;
      Atom type;
      int format;
      unsigned long items, rest;
      unsigned char *data = NULL;

      if (XGetWindowAttributes (dpy, children[i], &attr) && attr.map_state == IsViewable &&
          XGetWindowProperty (dpy, children[i], wm_pid, 0, 1, False, XA_CARDINAL, &type, &format, &items, &rest,
                              &data) == Success && data != NULL && items == 1 &&
          (pid_t) * (unsigned long *) data == pid)
        found = children[i];
      if (data != NULL)
        XFree (data);
    }
  if (children != NULL)
    XFree (children);
  return found;
}

/* The application on @input (NULL: none). */
static pid_t
start_app (const char *input)
{
  const char *gui = g_getenv ("SL_GUI");
  pid_t pid;

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* every host's first stream loops in its second packet */
      g_setenv ("SL_DECODER_FAULT", "spin:channel0_0:1", TRUE);
      g_setenv ("SL_DECODER_WATCHDOG_S", "3600", TRUE);
      g_setenv ("TMPDIR", app_tmp, TRUE);
      g_setenv ("XDG_RUNTIME_DIR", app_runtime, TRUE);
      execl (gui, "syncline", input, (char *) NULL);
      _exit (127);
    }
  return pid;
}

/* The entries of @dir whose name starts with @prefix (named in the
 * log if @say). */
static guint
count_entries (const char *dir,
               const char *prefix,
               gboolean    say)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, prefix))
      {
        if (say)
          g_test_message ("left: %s/%s", dir, name);
        n++;
      }
  return n;
}

/* What of @app is in /dev/shm (where its views go without a runtime folder). */
static guint
count_in_shm (pid_t app)
{
  g_autoptr(GDir) d = g_dir_open ("/dev/shm", 0, NULL);
  g_autofree char *mark = g_strdup_printf ("-%d.", (int) app);
  const char *name;
  guint n = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    n += g_str_has_prefix (name, "syncline-") && strstr (name, mark) != NULL;
  return n;
}

static void
ask_to_quit (pid_t  app,
             Window window,
             Quit   how,
             int    signo)
{
  if (how == QUIT_CTRL_Q)
    {
      KeyCode control = XKeysymToKeycode (dpy, XK_Control_L), q = XKeysymToKeycode (dpy, XK_q);

      XRaiseWindow (dpy, window);
      XSetInputFocus (dpy, window, RevertToParent, CurrentTime);
      XSync (dpy, False);
      g_usleep (200000);
      XTestFakeKeyEvent (dpy, control, True, CurrentTime);
      XTestFakeKeyEvent (dpy, q, True, CurrentTime);
      XTestFakeKeyEvent (dpy, q, False, CurrentTime);
      XTestFakeKeyEvent (dpy, control, False, CurrentTime);
    }
  else if (how == QUIT_CLOSE)
    {
      /* what a window manager sends when its close button is clicked */
      XEvent ev = { 0 };

      ev.xclient.type = ClientMessage;
      ev.xclient.window = window;
      ev.xclient.message_type = XInternAtom (dpy, "WM_PROTOCOLS", False);
      ev.xclient.format = 32;
      ev.xclient.data.l[0] = (long) XInternAtom (dpy, "WM_DELETE_WINDOW", False);
      ev.xclient.data.l[1] = CurrentTime;
      XSendEvent (dpy, window, False, NoEventMask, &ev);
    }
  else
    g_assert_cmpint (kill (app, signo), ==, 0);
  XSync (dpy, False);
}

static void
quit_while_spinning (Quit        how,
                     int         signo,
                     const char *input)
{
  const char *what = how == QUIT_CTRL_Q ? "Ctrl+Q" : how == QUIT_CLOSE ? "the close request" : g_strsignal (signo);
  pid_t app, spinning = 0;
  g_autoptr(GArray) decoders = NULL;
  gint64 deadline = g_get_monotonic_time () + 300 * G_USEC_PER_SEC, asked, ended = 0;
  Window window = None;
  int status = 0, event, error, major, minor;
  guint left = 0;
  gboolean spills = input == many;

  if (how == QUIT_CTRL_Q && !XTestQueryExtension (dpy, &event, &error, &major, &minor))
    {
      g_test_skip ("the X server has no XTEST extension to type Ctrl+Q");
      return;
    }
  app = start_app (input);
  /* the window is up, the temporary folders are made (the views, and
   * with many hosts the spilled events) and a decoder has spun for a
   * second of processor time (watchdog off: it would spin for an hour) */
  while (g_get_monotonic_time () < deadline &&
         (window == None || spinning == 0 || count_entries (app_runtime, "syncline-views-", FALSE) == 0 ||
          (spills && count_entries (app_tmp, "syncline-spill-", FALSE) == 0)))
    {
      g_assert_cmpint (waitpid (app, &status, WNOHANG), ==, 0);
      if (window == None)
        window = window_of (app);
      g_clear_pointer (&decoders, g_array_unref);
      decoders = decoders_of (app);
      for (guint i = 0; i < decoders->len && spinning == 0; i++)
        if (cpu_ticks (g_array_index (decoders, pid_t, i)) >= sysconf (_SC_CLK_TCK))
          spinning = g_array_index (decoders, pid_t, i);
      g_usleep (50000);
    }
  g_assert_true (window != None);
  g_assert_cmpint (spinning, !=, 0);
  g_assert_cmpuint (count_entries (app_runtime, "syncline-views-", FALSE), >, 0);
  if (spills)
    g_assert_cmpuint (count_entries (app_tmp, "syncline-spill-", FALSE), >, 0);
  g_test_message ("%u decoder processes, %d spinning", decoders->len, (int) spinning);

  asked = g_get_monotonic_time ();
  ask_to_quit (app, window, how, signo);

  while (g_get_monotonic_time () < asked + HANG_S * G_USEC_PER_SEC)
    {
      pid_t w = waitpid (app, &status, WNOHANG);

      if (w == app)
        {
          ended = g_get_monotonic_time ();
          break;
        }
      g_usleep (10000);
    }
  if (ended == 0)
    {
      kill (app, SIGKILL);
      waitpid (app, &status, 0);
      g_error ("the application did not end within %d s of %s while a decoder spun", HANG_S, what);
    }
  g_test_message ("ended %.3f s after %s, status %d", (ended - asked) / 1e6, what,
                  WIFEXITED (status) ? WEXITSTATUS (status) : -WTERMSIG (status));
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);

  /* every decoder is gone: one the application abandoned would be ours
   * now (subreaper), alive; the dead ones are reaped */
  for (guint i = 0; i < decoders->len; i++)
    waitpid (g_array_index (decoders, pid_t, i), NULL, WNOHANG);
  {
    g_autoptr(GArray) orphans = decoders_of (getpid ());

    left = orphans->len;
    for (guint i = 0; i < orphans->len; i++)
      kill (g_array_index (orphans, pid_t, i), SIGKILL);
  }
  for (guint i = 0; i < decoders->len; i++)
    {
      pid_t d = g_array_index (decoders, pid_t, i);

      /* a decoder ends with its parent (PR_SET_PDEATHSIG): give the
       * signal the time to arrive, then count it left behind */
      for (guint k = 0; k < 500 && cpu_ticks (d) >= 0 && waitpid (d, NULL, WNOHANG) == 0; k++)
        g_usleep (10000);
      if (cpu_ticks (d) >= 0 && waitpid (d, NULL, WNOHANG) == 0)
        {
          g_test_message ("decoder %d is still running", (int) d);
          left++;
          kill (d, SIGKILL);
          waitpid (d, NULL, 0);
        }
    }
  g_assert_cmpuint (left, ==, 0);

  /* nothing of it is left in the temporary folders */
  g_assert_cmpuint (count_entries (app_tmp, "syncline-", TRUE), ==, 0);
  g_assert_cmpuint (count_entries (app_runtime, "syncline-", TRUE), ==, 0);
  g_assert_cmpuint (count_in_shm (app), ==, 0);
}

static void
test_ctrl_q (void)
{
  quit_while_spinning (QUIT_CTRL_Q, 0, traces);
}

static void
test_close (void)
{
  quit_while_spinning (QUIT_CLOSE, 0, traces);
}

static void
test_sigterm (void)
{
  quit_while_spinning (QUIT_SIGNAL, SIGTERM, many);
}

static void
test_sigint (void)
{
  quit_while_spinning (QUIT_SIGNAL, SIGINT, traces);
}

static void
test_sighup (void)
{
  quit_while_spinning (QUIT_SIGNAL, SIGHUP, traces);
}

/* A folder as a reader of process @pid names it, with a file inside. */
static char *
make_folder (const char *parent,
             const char *kind,
             guint64     pid,
             guint64     ns,
             const char *suffix)
{
  g_autofree char *name = g_strdup_printf ("syncline-%s-%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT "-%s", kind, pid,
                                           ns, suffix);
  char *path = g_build_filename (parent, name, NULL);
  g_autofree char *file = g_build_filename (path, "host-0", NULL);

  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, "spilled", -1, NULL));
  return path;
}

static gboolean
gone (const char *path)
{
  return !g_file_test (path, G_FILE_TEST_EXISTS);
}

/* What a killed run left is removed when the application starts: the
 * folders of this user's processes that no longer run, in this pid
 * namespace; not those of a running process, of another namespace, or
 * of another name. */
static void
test_stale (void)
{
  struct stat st;
  pid_t dead = fork (), app;
  guint64 ns;
  g_autofree char *spill = NULL, *views = NULL, *live = NULL, *other_ns = NULL, *unnamed = NULL;
  gint64 deadline;
  int status;

  g_assert_cmpint (dead, >=, 0);
  if (dead == 0)
    _exit (0);
  g_assert_cmpint (waitpid (dead, NULL, 0), ==, dead);
  g_assert_cmpint (stat ("/proc/self/ns/pid", &st), ==, 0);
  ns = st.st_ino;
  spill = make_folder (app_tmp, "spill", dead, ns, "AbC123");
  views = make_folder (app_runtime, "views", dead, ns, "dEf456");
  live = make_folder (app_runtime, "views", getpid (), ns, "GhI789");
  other_ns = make_folder (app_tmp, "copies", dead, ns + 1, "jKl012");
  unnamed = g_build_filename (app_tmp, "syncline-MnO345", NULL);
  g_assert_cmpint (g_mkdir (unnamed, 0700), ==, 0);

  app = start_app (NULL);
  deadline = g_get_monotonic_time () + HANG_S * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline && !(gone (spill) && gone (views)))
    g_usleep (50000);
  g_assert_true (gone (spill));
  g_assert_true (gone (views));
  g_assert_false (gone (live));
  g_assert_false (gone (other_ns));
  g_assert_false (gone (unnamed));

  g_assert_cmpint (kill (app, SIGTERM), ==, 0);
  g_assert_cmpint (waitpid (app, &status, 0), ==, app);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  rm_rf (live);
  rm_rf (other_ns);
  g_rmdir (unnamed);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *tmp = NULL, *out = NULL, *many_out = NULL;
  g_autofree char *err = NULL;
  int status = 0, ret;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("SL_GUI") == NULL || g_getenv ("SL_CLI") == NULL)
    {
      g_printerr ("SL_GUI and SL_CLI must be set\n");
      return 1;
    }
  g_assert_cmpint (prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), ==, 0);
  dpy = XOpenDisplay (NULL);
  g_assert_nonnull (dpy);

  tmp = make_tmpdir ();
  traces = g_build_filename (tmp, "traces", NULL);
  many = g_build_filename (tmp, "many", NULL);
  app_tmp = g_build_filename (tmp, "tmp", NULL);
  app_runtime = g_build_filename (tmp, "runtime", NULL);
  g_assert_cmpint (g_mkdir (app_tmp, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (app_runtime, 0700), ==, 0);
  out = g_strdup_printf ("--out=%s", traces);
  many_out = g_strdup_printf ("--out=%s", many);
  {
    const char *argv_gen[] = {
      g_getenv ("SL_CLI"), "generate", out, "--host=A:1000000000:0:0", "--host=B:1000000000:5000000:20",
      "--link=A:B", "--duration=1", "--cpus=2", "--packet-size=4", "--quiet", NULL
    };
    /* beyond 256 hosts the reader spills */
    const char *argv_many[] = {
      g_getenv ("SL_CLI"), "generate", many_out, "--hosts=260", "--duration=1", "--cpus=1", "--packet-size=4",
      "--quiet", NULL
    };
    g_autoptr(GError) error = NULL;

    g_assert_true (g_spawn_sync (NULL, (char **) argv_gen, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status,
                                 &error));
    g_assert_no_error (error);
    g_assert_cmpint (status, ==, 0);
    g_assert_true (g_spawn_sync (NULL, (char **) argv_many, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status,
                                 &error));
    g_assert_no_error (error);
    g_assert_cmpint (status, ==, 0);
  }

  g_test_add_func ("/ui-quit/ctrl-q", test_ctrl_q);
  g_test_add_func ("/ui-quit/close", test_close);
  g_test_add_func ("/ui-quit/sigterm", test_sigterm);
  g_test_add_func ("/ui-quit/sigint", test_sigint);
  g_test_add_func ("/ui-quit/sighup", test_sighup);
  g_test_add_func ("/ui-quit/stale", test_stale);
  ret = g_test_run ();
  XCloseDisplay (dpy);
  rm_rf (tmp);
  return ret;
}
