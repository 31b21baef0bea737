/* sl-cli.h: subcommands of syncline-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int    sl_cli_bench_hull   (guint64   packets,
                            guint64   seed,
                            gboolean  json);
int    sl_cli_bench_graph  (guint     nodes,
                            guint64   ops,
                            guint64   seed,
                            gboolean  json);
int    sl_cli_generate     (int       argc,
                            char    **argv);
int    sl_cli_fail         (const char *fmt,
                            ...) G_GNUC_PRINTF (1, 2);
double sl_cli_cpu_seconds  (void);
glong  sl_cli_peak_rss_kb  (void);

G_END_DECLS
