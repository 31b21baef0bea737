/* sl-cpu-time.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sys/resource.h>
#include <time.h>

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

/* CPU time of the calling thread, in µs (0 if the clock cannot be read) */
gint64
sl_thread_cpu_us (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
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
