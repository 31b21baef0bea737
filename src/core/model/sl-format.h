/* sl-format.h: numbers as the views show them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-types.h"
#include "sl-journal.h"

G_BEGIN_DECLS

const char *sl_format_quality        (SlQuality    quality);
char       *sl_format_ppm            (double       accuracy);
char       *sl_format_drift_range    (double       lo,
                                      double       hi);
char       *sl_format_ns             (double       ns);
char       *sl_format_count          (guint64      n);
char       *sl_format_slope          (double       slope);
char       *sl_format_time           (gint64       t,
                                      gint64       origin);
char       *sl_format_time_tooltip   (gint64       t,
                                      gint64       origin);
const char *sl_format_change_kind    (SlChangeKind kind);
char       *sl_format_host_label     (const char  *host);
char       *sl_format_problem_short  (const char  *host,
                                      const char  *file,
                                      const char  *message);

G_END_DECLS
