/* sl-benchmark.h: `syncline-bench views` and `open`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void sl_benchmark_run (GtkApplication     *application,
                       const char         *name,
                       const char         *screenshot,
                       const char * const *inputs);

G_END_DECLS
