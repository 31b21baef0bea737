/* sl-session-internal.h: what the files of the session share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The instance struct, its properties and signals, and the helpers that
 * set a field and notify. For sl-session*.c only.
 */

#pragma once

#include "sl-change-list.h"
#include "sl-job.h"
#include "sl-session-private.h"

G_BEGIN_DECLS

struct _SlSession
{
  GObject         parent_instance;

  SlSessionState  state;
  SlJobKind       kind;
  char          **inputs;
  /* sl_session_open_with_transforms(), kept for reloading */
  char           *transforms;
  char           *title;
  char           *progress_text;
  double          progress_fraction;
  gboolean        stopped;
  char           *error;

  SlJob          *job;
  SlTimeline     *timeline;
  SlSnapshot     *current;
  GPtrArray      *names;
  GPtrArray      *host_items;
  GPtrArray      *unreadable;
  GPtrArray      *link_items;
  GListStore     *hosts;
  GListStore     *links;
  SlChangeList   *changes;
  guint           n_tree_links;
  guint           n_components;
  guint           n_live[SL_HOST_LIVE_N_STATES];
  gboolean        relay_stalled;
  guint           n_passing;
  /* the live attachments' URLs that are attached (not ended or failed) */
  GPtrArray      *attached;

  SlLinkItem     *selected_link;
  SlHostItem     *selected_host;
  SlPlotData     *plot;

  char           *algorithm;
  char           *tree;
  char           *pinned;
  guint           update_ms;
  double          tree_margin;
  guint           retention_s;

  gboolean        synchronized;
  gint64          time_origin;
  SlTimeSpan      time_span;
  SlTimeSpan      visible_span;
  SlTimeSpan      selected_span;

  GArray         *update_us;
  GArray         *update_cpu_us;
  /* frees the snapshots an update replaced, off the main thread */
  GThreadPool    *reaper;
  /* the job's captures when its last snapshot was applied */
  guint           n_captures;
  GArray         *resort_us;
  GArray         *resort_links;
  guint8         *resort_mark;
  gsize           resort_mark_len;
  guint           resort_id;
  char           *demo_dir;
  SlGenerateOptions generate;
  GArray         *generate_links;
  gint64          generate_pace_us;
};

enum {
  PROP_0,
  PROP_STATE,
  PROP_TITLE,
  PROP_IS_LIVE,
  PROP_PROGRESS_FRACTION,
  PROP_PROGRESS_TEXT,
  PROP_ERROR,
  PROP_HOSTS,
  PROP_LINKS,
  PROP_CHANGES,
  PROP_N_HOSTS,
  PROP_N_LINKS,
  PROP_N_TREE_LINKS,
  PROP_N_COMPONENTS,
  PROP_SELECTED_LINK,
  PROP_SELECTED_HOST,
  PROP_PLOT,
  PROP_ALGORITHM,
  PROP_TREE,
  PROP_PINNED_REFERENCE,
  PROP_UPDATE_INTERVAL,
  PROP_TREE_MARGIN,
  PROP_RETENTION,
  PROP_SYNCHRONIZED,
  PROP_TIME_ORIGIN,
  PROP_TIME_SPAN,
  PROP_VISIBLE_SPAN,
  PROP_SELECTED_SPAN,
  PROP_CAN_EXPORT,
  PROP_TIMELINE,
  PROP_RELAY_STALLED,
  N_PROPS
};

enum {
  UPDATED,
  PROBLEM,
  REORDER,
  N_SIGNALS
};

extern guint _sl_session_signals[N_SIGNALS];

void     _sl_session_notify             (SlSession        *self,
                                         guint             prop);
void     _sl_session_set_string         (SlSession        *self,
                                         char            **field,
                                         const char       *value,
                                         guint             prop);
void     _sl_session_set_plot           (SlSession        *self,
                                         SlPlotData       *plot);
void     _sl_session_set_span           (SlSession        *self,
                                         SlTimeSpan       *field,
                                         SlTimeSpan        span,
                                         guint             prop);
void     _sl_session_set_relay_stalled  (SlSession        *self,
                                         gboolean          stalled);
void     _sl_session_apply_live_hosts   (SlSession        *self,
                                         const SlSnapshot *s);
void     _sl_session_job_snapshot_cb    (SlJob            *job,
                                         SlSnapshot       *snapshot,
                                         gpointer          user_data);
void     _sl_session_refresh_now        (SlSession        *self);

G_END_DECLS
