/* sl-units.h: clock numbers as people read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *sl_units_time_of_day (gint64 ns,
                            int    decimals);
char *sl_units_offset      (double ns);
char *sl_units_size        (double ns);
char *sl_units_drift       (double drift);
char *sl_units_rate        (double rate);
gboolean sl_units_drift_range (double   lo,
                               double   hi,
                               char   **lo_text,
                               char   **hi_text);

G_END_DECLS
