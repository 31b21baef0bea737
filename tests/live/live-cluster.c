/* live-cluster.c: three simulated hosts streaming one session, for live tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "live-cluster.h"

static void
spawn_peer (const SlCluster     *c,
            const SlClusterHost *hosts,
            guint                k,
            const char * const  *args)
{
  g_autoptr(GError) error = NULL;

  if (sl_harness_host_spawn_peer (c->host[k], args, &error) == 0)
    g_error ("peer on %s: %s", hosts[k].name, error->message);
}

gboolean
sl_cluster_start (SlCluster           *c,
                  const SlClusterHost *hosts,
                  const char          *session,
                  guint                timer_us,
                  guint                rate,
                  SlClusterShape       shape)
{
  g_autofree char *rate_s = g_strdup_printf ("--rate=%u", rate);

  memset (c, 0, sizeof *c);
  c->h = sl_harness_new_for_test ();
  if (c->h == NULL)
    return FALSE;
  for (guint i = 0; i < SL_CLUSTER_N_HOSTS; i++)
    {
      g_autoptr(GError) error = NULL;

      c->host[i] = sl_harness_add_host (c->h, hosts[i].name, hosts[i].wall_error_ns, hosts[i].drift_ppb, &error);
      if (c->host[i] == NULL)
        g_error ("host %s: %s", hosts[i].name, error->message);
      if (!sl_harness_host_create_session (c->host[i], session, timer_us, &error))
        g_error ("session on %s: %s", hosts[i].name, error->message);
      c->port[i] = sl_harness_free_port ();
    }

  if (shape == SL_CLUSTER_RING)
    {
      /* every host listens first, then talks to the next one */
      for (guint k = 0; k < SL_CLUSTER_N_HOSTS; k++)
        {
          g_autofree char *listen = g_strdup_printf ("--listen=%u", c->port[k]);
          const char *args[] = { listen, NULL };

          spawn_peer (c, hosts, k, args);
        }
      for (guint k = 0; k < SL_CLUSTER_N_HOSTS; k++)
        {
          g_autofree char *connect = g_strdup_printf ("--connect=%u", c->port[(k + 1) % SL_CLUSTER_N_HOSTS]);
          const char *args[] = { connect, rate_s, NULL };

          spawn_peer (c, hosts, k, args);
        }
      return TRUE;
    }

  /* the last host first, so that each peer's port is open when the one
   * before it connects */
  for (guint k = SL_CLUSTER_N_HOSTS; k-- > 0;)
    {
      g_autofree char *listen = g_strdup_printf ("--listen=%u", c->port[k]);
      g_autofree char *connect = k + 1 < SL_CLUSTER_N_HOSTS ? g_strdup_printf ("--connect=%u", c->port[k + 1]) : NULL;
      const char *args[] = { listen, rate_s, connect, NULL };

      spawn_peer (c, hosts, k, args);
    }
  return TRUE;
}

void
sl_cluster_finish (SlCluster *c)
{
  g_autoptr(GString) problems = g_string_new (NULL);

  if (!sl_harness_free_and_check_clean (c->h, problems))
    g_error ("the harness left things behind:\n%s", problems->str);
}
