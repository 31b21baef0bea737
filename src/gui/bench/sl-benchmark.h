/* sl-benchmark.h: `syncline-bench views`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void sl_benchmark_run (GtkApplication *application,
                       const char     *name,
                       const char     *screenshot);

G_END_DECLS
