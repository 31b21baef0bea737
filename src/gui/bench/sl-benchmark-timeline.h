/* sl-benchmark-timeline.h: `syncline-bench timeline`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sl-timeline-synth.h"

G_BEGIN_DECLS

void             sl_benchmark_timeline_run (GtkApplication  *application);

G_END_DECLS
