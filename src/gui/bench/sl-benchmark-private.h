/* sl-benchmark-private.h: what the two benchmarks share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

void  _sl_benchmark_add_stats  (JsonBuilder *b,
                                const char  *name,
                                GArray      *us,
                                const char  *max_key);
gint64 _sl_benchmark_steal_ms  (void);
void  _sl_benchmark_add_machine (JsonBuilder *b,
                                 GtkWidget   *widget);
void  _sl_benchmark_print_json (JsonBuilder *b);

/* With SL_PROFILE, a frame's main-thread CPU time split into the frame
 * clock's phases (CPU times in µs). */
typedef struct
{
  gint64 start;
  gint64 update_end;
  gint64 layout_end;
} SlBenchPhases;

void  _sl_benchmark_phases_connect    (SlBenchPhases       *phases,
                                       GdkFrameClock       *clock);
void  _sl_benchmark_phases_disconnect (SlBenchPhases       *phases,
                                       GdkFrameClock       *clock);
void  _sl_benchmark_phases_begin      (SlBenchPhases       *phases,
                                       gint64               cpu);
void  _sl_benchmark_phases_split      (const SlBenchPhases *phases,
                                       gint64               end_cpu,
                                       double              *update_ms,
                                       double              *layout_ms,
                                       double              *paint_ms);

G_END_DECLS
