/* sl-cli.h: subcommands of syncline-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-engine.h"
#include "sl-report.h"

G_BEGIN_DECLS

typedef struct
{
  char     *algorithm;
  char     *tree;
  char     *reference;
  char     *input_format;
  gboolean  json;
  double    max_drift_ppm;
  char     *max_drift_change;
  int       confidence;
  double    tree_margin_pct;
  char     *plots;
  char     *export_dir;
  char     *save_transforms;
  char     *journal;
  char     *profiles;
} SyncArgs;

GOptionEntry *sl_cli_engine_entries   (SyncArgs         *args);
void          sl_cli_sync_args_clear  (SyncArgs         *args);
gboolean      sl_cli_engine_options   (const SyncArgs   *args,
                                       SlEngineOptions  *options,
                                       GError          **error);
SlJournalMode sl_cli_journal_mode     (const SyncArgs   *args);
gboolean      sl_cli_print_json       (SlEngine         *engine,
                                       const SyncArgs   *args,
                                       SlReportJsonOptions *options,
                                       GError          **error);
gboolean      sl_cli_apply_reference  (SlEngine         *engine,
                                       const SyncArgs   *args,
                                       GError          **error);
guint         sl_cli_catch_stop       (GSourceFunc       first,
                                       gpointer          data);
void          sl_cli_release_stop     (guint             source);
int           sl_cli_sessions         (int               argc,
                                       char            **argv);
int           sl_cli_live             (int               argc,
                                       char            **argv);

int    sl_cli_bench_hull   (guint64   packets,
                            guint64   seed,
                            double    span_s,
                            gboolean  json);
int    sl_cli_bench_graph  (guint     nodes,
                            guint64   ops,
                            guint64   seed,
                            gboolean  json);
int    sl_cli_generate     (int       argc,
                            char    **argv);
int    sl_cli_extract      (int       argc,
                            char    **argv);
int    sl_cli_apply        (int       argc,
                            char    **argv);
int    sl_cli_fail         (const char *fmt,
                            ...) G_GNUC_PRINTF (1, 2);
double sl_cli_cpu_seconds  (void);
glong  sl_cli_peak_rss_kb  (void);

G_END_DECLS
