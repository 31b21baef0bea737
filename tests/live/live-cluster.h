/* live-cluster.h: three simulated hosts streaming one session, for live tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The live tests (tests/test-live.c, tests/ui/test-ui-live.c) start the same
 * kind of cluster on the harness (live-harness.h): three hosts, each with
 * its clock error and drift, one live session on each, and sl-test-netpeer
 * programs exchanging messages between them, so that the hosts have links.
 */

#pragma once

#include "live-harness.h"

G_BEGIN_DECLS

#define SL_CLUSTER_N_HOSTS 3

typedef struct
{
  const char *name;
  gint64      wall_error_ns;
  gint64      drift_ppb;
} SlClusterHost;

typedef enum
{
  /* alpha → beta → gamma: two links */
  SL_CLUSTER_CHAIN,
  /* each host talks to the next one, the last to the first: three links
   * of the same kind (loopback, same rate) */
  SL_CLUSTER_RING,
} SlClusterShape;

typedef struct
{
  SlHarness     *h;
  SlHarnessHost *host[SL_CLUSTER_N_HOSTS];
  guint          port[SL_CLUSTER_N_HOSTS];
} SlCluster;

/* Starts the harness, the hosts of @hosts (SL_CLUSTER_N_HOSTS of them),
 * @session on each (live timer @timer_us) and their programs, each sending
 * @rate requests a second. FALSE after g_test_skip() when the harness
 * cannot run here; any other failure is a test error. */
gboolean sl_cluster_start (SlCluster           *c,
                           const SlClusterHost *hosts,
                           const char          *session,
                           guint                timer_us,
                           guint                rate,
                           SlClusterShape       shape);

/* Frees the harness; a test error if it left anything behind. */
void sl_cluster_finish (SlCluster *c);

G_END_DECLS
