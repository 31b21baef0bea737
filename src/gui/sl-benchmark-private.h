/* sl-benchmark-private.h: what the two benchmarks share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

void  _sl_benchmark_add_stats  (JsonBuilder *b,
                                const char  *name,
                                GArray      *us,
                                const char  *max_key);
char *_sl_benchmark_cpu_model  (void);
gint64 _sl_benchmark_thread_cpu_us (void);

G_END_DECLS
