/* sl-cpu-time.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "sl-cpu-time.h"

/* CPU seconds used by every thread of the process so far (0 if the clock
 * cannot be read) */
double
sl_cpu_time_seconds (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
    return 0;
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* CPU seconds (user and system) of the child processes that ended and
 * were waited for: the trace decoders */
double
sl_children_cpu_seconds (void)
{
  struct rusage ru;

  if (getrusage (RUSAGE_CHILDREN, &ru) != 0)
    return 0;
  return (double) (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         (double) (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* CPU time of the calling thread, in µs (0 if the clock cannot be read) */
gint64
sl_thread_cpu_us (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static void
schedstat_close (gpointer data)
{
  close (GPOINTER_TO_INT (data) - 1);
}

/* The calling thread's /proc/thread-self/schedstat, opened once a thread
 * (stored plus one: 0 is unopened) and closed when the thread ends: the
 * job reads it every millisecond while it decides on captures, and an
 * open and close each time was 2 % of its CPU at 1 000 hosts. */
static GPrivate schedstat_fd = G_PRIVATE_INIT (schedstat_close);

/* How long the calling thread has waited, runnable, for a processor, in
 * µs (Linux's schedstat); -1 when the kernel does not say. */
gint64
sl_thread_wait_us (void)
{
  char buf[128];
  int fd = GPOINTER_TO_INT (g_private_get (&schedstat_fd)) - 1;
  unsigned long long run_ns, wait_ns;
  ssize_t n;

  if (fd < 0)
    {
      fd = open ("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        return -1;
      g_private_set (&schedstat_fd, GINT_TO_POINTER (fd + 1));
    }
  n = pread (fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return -1;
  buf[n] = '\0';
  if (sscanf (buf, "%llu %llu", &run_ns, &wait_ns) != 2)
    return -1;
  return (gint64) (wait_ns / 1000);
}

/* The process's peak resident memory so far, in kB. */
glong
sl_peak_rss_kb (void)
{
  struct rusage ru;

  if (getrusage (RUSAGE_SELF, &ru) != 0)
    return 0;
  return ru.ru_maxrss;
}

/* SL_PROFILE=1: a step of a run on stderr, at monotonic ms (to line up
 * the job's, the reader's, the window's and perf's clocks) with the
 * calling thread's CPU ms. */
void
sl_profile_mark (const char *who,
                 const char *fmt,
                 ...)
{
  static int on = -1;
  g_autofree char *what = NULL;
  va_list args;

  if (on < 0)
    on = g_getenv ("SL_PROFILE") != NULL;
  if (!on)
    return;
  va_start (args, fmt);
  what = g_strdup_vprintf (fmt, args);
  va_end (args);
  g_printerr ("%s %.1f ms (thread CPU %.1f ms): %s\n", who, g_get_monotonic_time () / 1000.0,
              sl_thread_cpu_us () / 1000.0, what);
}
