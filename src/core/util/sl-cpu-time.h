/* sl-cpu-time.h: the process's CPU time, for reports and benchmarks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

double sl_cpu_time_seconds (void);

G_END_DECLS
