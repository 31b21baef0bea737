/* sl-report.h: the synchronization report, as text and as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "sl-engine.h"
#include "sl-trace-reader.h"

G_BEGIN_DECLS

/**
 * SlReportLink:
 *
 * A link oriented so that @a < @b by host name: the numbers describe
 * t_b = alpha * t_a + beta.
 */
typedef struct
{
  SlLinkInfo  info;
  guint       link;
  guint       a;
  guint       b;
  gboolean    flipped;
  double      alpha_min;
  double      alpha_max;
  double      alpha;
  double      beta;
  SlTransform estimate;
  guint       hull_points[2];
} SlReportLink;

typedef struct
{
  double elapsed_s;
  double cpu_s;
} SlReportTiming;

void      sl_report_get_link   (SlEngine             *engine,
                                guint                 link,
                                SlReportLink         *out);
JsonNode *sl_report_to_json    (SlEngine             *engine,
                                const SlReportTiming *timing);
JsonNode *sl_report_to_json_since (SlEngine         *engine,
                                    const SlReportTiming *timing,
                                    guint64           journal_from);
char     *sl_report_to_text    (SlEngine             *engine,
                                const SlReportTiming *timing);
void      sl_report_set_problems (JsonObject         *report,
                                  GPtrArray          *problems);
void      sl_report_host_starts (const SlReportLink  *links,
                                 guint                n_links,
                                 gint64              *starts,
                                 guint                n_hosts);
char     *sl_report_offset_at   (const SlTransform   *map,
                                 gint64               start);
char     *sl_report_offset_text (const SlTransform   *map,
                                 gint64               start);

G_END_DECLS
