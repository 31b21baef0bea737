/* live-watch.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "live-watch.h"

void
sl_live_watch_init (SlLiveWatch *w)
{
  memset (w, 0, sizeof *w);
  g_mutex_init (&w->lock);
  g_cond_init (&w->cond);
  w->problems = g_ptr_array_new_with_free_func (g_free);
  w->started = g_get_monotonic_time ();
}

void
sl_live_watch_clear (SlLiveWatch *w)
{
  g_ptr_array_unref (w->problems);
  g_clear_pointer (&w->hosts, g_ptr_array_unref);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->cond);
}

static void
update_cb (SlLive             *live,
           SlEngine           *engine,
           const SlLiveUpdate *u,
           gpointer            data)
{
  SlLiveWatch *w = data;
  guint64 accurate_total = 0;
  guint accurate = 0;
  gboolean estimate = FALSE;

  for (guint i = 0; i < sl_engine_get_n_links (engine); i++)
    {
      SlLinkInfo info;

      sl_engine_get_link_info (engine, i, &info);
      accurate += info.quality == SL_QUALITY_ACCURATE;
      accurate_total += info.accurate_packets;
      estimate |= info.has_estimate;
    }

  g_mutex_lock (&w->lock);
  w->updates++;
  w->final |= u->final;
  w->packets = u->packets;
  if (u->packets > 0 && w->first_packets_at == 0)
    w->first_packets_at = u->made;
  if (estimate && w->first_estimate_at == 0)
    w->first_estimate_at = u->made;
  if (accurate_total > w->last_accurate_total)
    {
      w->accurate_updates++;
      w->last_accurate_total = accurate_total;
    }
  w->accurate_links = accurate;
  w->n_links = sl_engine_get_n_links (engine);
  w->n_engine_hosts = sl_engine_get_n_hosts (engine);
  for (guint i = 0; i < u->problems->len; i++)
    {
      char *p = sl_trace_problem_to_string (g_ptr_array_index (u->problems, i));

      if (!w->quiet)
        g_test_message ("%.3f s: problem: %s", (u->made - w->started) / 1e6, p);
      g_ptr_array_add (w->problems, p);
    }
  /* every state change of a host, as an update shows it (issue 20: a
   * state that lasts less than an update is not seen) */
  for (guint i = 0; i < u->hosts->len; i++)
    {
      const SlLiveHost *h = g_ptr_array_index (u->hosts, i);
      const SlLiveHost *was = NULL;

      for (guint k = 0; w->hosts != NULL && k < w->hosts->len && was == NULL; k++)
        if (g_str_equal (((SlLiveHost *) g_ptr_array_index (w->hosts, k))->url, h->url))
          was = g_ptr_array_index (w->hosts, k);
      if (was != NULL && was->state == SL_LIVE_HOST_ENDED && h->state != SL_LIVE_HOST_ENDED)
        {
          g_autofree char *host = g_strdup_printf ("host %s:", h->hostname);
          gboolean back = FALSE;

          for (guint k = 0; k < w->problems->len && !back; k++)
            back = strstr (g_ptr_array_index (w->problems, k), host) != NULL &&
                   strstr (g_ptr_array_index (w->problems, k), "created again; attached") != NULL;
          w->left_ended += !back;
        }
      if (!w->quiet && (was == NULL || was->state != h->state || g_strcmp0 (was->message, h->message) != 0))
        g_test_message ("%.3f s: %s (%s): %s -> %s%s%s", (u->made - w->started) / 1e6, h->hostname, h->url,
                        was != NULL ? sl_live_host_state_to_string (was->state) : "new",
                        sl_live_host_state_to_string (h->state), h->message != NULL ? ": " : "",
                        h->message != NULL ? h->message : "");
    }
  g_clear_pointer (&w->hosts, g_ptr_array_unref);
  w->hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_live_host_free);
  for (guint i = 0; i < u->hosts->len; i++)
    {
      const SlLiveHost *h = g_ptr_array_index (u->hosts, i);
      SlLiveHost *c = g_new0 (SlLiveHost, 1);

      *c = *h;
      c->hostname = g_strdup (h->hostname);
      c->url = g_strdup (h->url);
      c->message = g_strdup (h->message);
      g_ptr_array_add (w->hosts, c);
    }
  if (w->hook != NULL)
    w->hook (w, engine, u, w->hook_data);
  g_cond_broadcast (&w->cond);
  g_mutex_unlock (&w->lock);
}

/* A live reader on @url, started, its updates watched by @w (initialized
 * with sl_live_watch_init() and its hook set); NULL if @url is refused. */
SlLive *
sl_live_watch_start (SlLiveWatch          *w,
                     SlEngine             *engine,
                     const SlLiveOptions  *lo,
                     const char           *url,
                     GError              **error)
{
  SlLive *live = sl_live_new (engine, lo);

  if (!sl_live_add_url (live, url, error))
    {
      sl_live_free (live);
      return NULL;
    }
  sl_live_set_update_func (live, update_cb, w);
  sl_live_start (live);
  return live;
}

/* Waits (bounded) until @pred holds; the bound only keeps a broken run
 * from hanging, it is not what is tested. */
gboolean
sl_live_watch_wait (SlLiveWatch          *w,
                    SlLiveWatchPredicate  pred,
                    gpointer              data,
                    guint                 seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;
  gboolean ok;

  g_mutex_lock (&w->lock);
  while (!(ok = pred (w, data)) && g_get_monotonic_time () < end)
    g_cond_wait_until (&w->cond, &w->lock, MIN (end, g_get_monotonic_time () + 200000));
  g_mutex_unlock (&w->lock);
  return ok;
}
