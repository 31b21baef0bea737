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

G_END_DECLS
