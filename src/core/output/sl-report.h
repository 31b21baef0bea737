/* sl-report.h: the synchronization report, as text and as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "sl-engine.h"
#include "sl-json-out.h"
#include "sl-trace-reader.h"

G_BEGIN_DECLS

/**
 * SlReportLink:
 *
 * A link oriented so that @a < @b by host name: the numbers describe
 * t_b = alpha * t_a + beta, and the spans are on @a's clock (@span_start,
 * @span_end: its packets; @bound_start, @bound_end: the instants the bound
 * covers, both hosts' events).
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
  gint64      span_start;
  gint64      span_end;
  gint64      bound_start;
  gint64      bound_end;
} SlReportLink;

/* cpu_s: the processor time of the process and of its trace decoders
 * (child processes, counted once they ended and were waited for), of
 * which decoders_cpu_s the decoders' */
typedef struct
{
  double elapsed_s;
  double cpu_s;
  double decoders_cpu_s;
} SlReportTiming;

/**
 * SlJournalMode:
 * @SL_JOURNAL_SUMMARY: "journal_summary": entries by kind, dropped, the
 *   input times of the first and last entry and of the last tree and
 *   reference change
 * @SL_JOURNAL_FULL: "journal_dropped" and "journal", every entry kept
 * @SL_JOURNAL_NONE: no journal member
 */
typedef enum
{
  SL_JOURNAL_SUMMARY,
  SL_JOURNAL_FULL,
  SL_JOURNAL_NONE,
} SlJournalMode;

/**
 * SlProfilesMode:
 * @SL_PROFILES_COMPACT: each host's "bound_profile" as at most
 *   %SL_REPORT_COMPACT_POINTS points of an upper envelope of the bound,
 *   rounded up to the ns; links without "bound_profile" and "windows"
 * @SL_PROFILES_FULL: hosts' and links' "bound_profile" as the bound's
 *   exact breakpoints, and each link's "windows"
 */
typedef enum
{
  SL_PROFILES_COMPACT,
  SL_PROFILES_FULL,
} SlProfilesMode;

#define SL_REPORT_COMPACT_POINTS 8

/* Adds members to host or link @index (an engine index) of the report. */
typedef void (*SlReportMembersFunc) (SlJsonOut *out,
                                     guint      index,
                                     gpointer   user_data);

/**
 * SlReportJsonOptions:
 * @timing: (nullable): the "timing" member
 * @journal: how much of the journal
 * @journal_from: %SL_JOURNAL_FULL: first sequence number written
 * @profiles: how much of the bounds over time
 * @problems: (nullable) (element-type SlTraceProblem): the "problems"
 *   member
 * @host_members, @link_members: (nullable): more members of each host and
 *   link, after the others
 */
typedef struct
{
  const SlReportTiming *timing;
  SlJournalMode         journal;
  guint64               journal_from;
  SlProfilesMode        profiles;
  GPtrArray            *problems;
  SlReportMembersFunc   host_members;
  SlReportMembersFunc   link_members;
  gpointer              user_data;
} SlReportJsonOptions;

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
                                 SlRelation * const  *relations,
                                 guint                n_links,
                                 gint64              *starts,
                                 guint                n_hosts);
GHashTable *sl_report_link_pairs (const SlReportLink *links,
                                  guint               n_links);
gint64    sl_report_drift_start (const SlReportLink  *links,
                                 SlRelation * const  *link_relations,
                                 GHashTable          *pairs,
                                 SlRelation * const  *host_relations,
                                 const guint         *path,
                                 guint                path_len,
                                 gint64               start);
gboolean  sl_report_drift_interval (const SlReportLink *links,
                                    SlRelation * const *link_relations,
                                    GHashTable         *pairs,
                                    const guint        *path,
                                    guint               path_len,
                                    gint64              at,
                                    double             *lo,
                                    double             *hi);
gboolean  sl_report_link_drift_interval (const SlReportLink *rl,
                                         const SlRelation   *relation,
                                         double             *lo,
                                         double             *hi);
char     *sl_report_offset_at   (const SlTransform   *map,
                                 gint64               start);
char     *sl_report_offset_cell (const SlTransform   *map,
                                 gint64               start);
double    sl_report_packets_bound (const SlReportLink *rl,
                                   const SlRelation   *rel);
gboolean  sl_report_bound_is_far  (const SlReportLink *rl,
                                   double              packets_bound);
char     *sl_report_drift_text  (const SlTransform   *map,
                                 gint64               start,
                                 const SlTransform   *rate,
                                 gint64               rate_at);
char     *sl_report_offset_text (const SlTransform   *map,
                                 gint64               start,
                                 const SlTransform   *rate,
                                 gint64               rate_at);
gboolean  sl_report_link_start  (const SlReportLink  *rl,
                                 const SlRelation    *relation,
                                 gint64              *start,
                                 SlTransform         *map,
                                 SlTransform         *rate,
                                 gint64              *rate_at);
void      sl_report_json_options_init (SlReportJsonOptions *options);
void      sl_report_write_json (SlEngine                  *engine,
                                const SlReportJsonOptions *options,
                                SlJsonOut                 *out);
const char *sl_journal_mode_to_string   (SlJournalMode  mode);
gboolean    sl_journal_mode_from_string (const char    *str,
                                         SlJournalMode *mode);
const char *sl_profiles_mode_to_string   (SlProfilesMode  mode);
gboolean    sl_profiles_mode_from_string (const char     *str,
                                          SlProfilesMode *mode);

/* shared with sl-report-rate.c */
gint64    _sl_report_pair_key   (guint                a,
                                 guint                b);
gint64    _sl_report_link_data_start (const SlReportLink *rl,
                                      const SlRelation   *relation);
void      _sl_report_json_drift_range (SlJsonOut          *o,
                                       const double       *range);
void      _sl_report_json_link_drift  (SlJsonOut          *o,
                                       SlEngine           *engine,
                                       const SlReportLink *rl);
void      _sl_report_text_drift_range (GString            *s,
                                       double              lo,
                                       double              hi);

G_END_DECLS
