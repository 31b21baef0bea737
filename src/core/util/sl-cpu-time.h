/* sl-cpu-time.h: the process's CPU time and peak memory, for reports and
 * benchmarks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

double sl_cpu_time_seconds (void);
double sl_children_cpu_seconds (void);
gint64 sl_thread_cpu_us    (void);
gint64 sl_thread_wait_us   (void);
glong  sl_peak_rss_kb      (void);

void   sl_profile_mark     (const char *who,
                            const char *fmt,
                            ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
