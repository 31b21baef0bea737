/* sl-session-live.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A live session's hosts: their states from the attachments, the relay
 * stalled, attachments changed in place.
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-live.h"
#include "sl-session-internal.h"

static SlHostLive
host_live (SlLiveHostState state)
{
  switch (state)
    {
    case SL_LIVE_HOST_CONNECTING:
      return SL_HOST_LIVE_CONNECTING;
    case SL_LIVE_HOST_STREAMING:
      return SL_HOST_LIVE_STREAMING;
    case SL_LIVE_HOST_STALLED:
      return SL_HOST_LIVE_STALLED;
    case SL_LIVE_HOST_WAITING:
      return SL_HOST_LIVE_WAITING;
    case SL_LIVE_HOST_ENDED:
      return SL_HOST_LIVE_ENDED;
    case SL_LIVE_HOST_FAILED:
    default:
      return SL_HOST_LIVE_FAILED;
    }
}

/* streaming first, then connecting, waiting, stalled, ended, failed */
static guint
live_rank (SlHostLive live)
{
  return live == SL_HOST_LIVE_STREAMING ? 0 : live;
}

/* Each host's live state and status, from its attachment that is the
 * furthest along (SlHostLive's order); the counts for the header; the
 * relay stalled when no host streams and one or more are stalled. */
void
_sl_session_apply_live_hosts (SlSession        *self,
                              const SlSnapshot *s)
{
  guint n = self->host_items->len;
  g_autofree const SlLiveHost **best = g_new0 (const SlLiveHost *, MAX (n, 1));
  guint counts[SL_HOST_LIVE_N_STATES] = { 0 };

  if (self->attached == NULL)
    self->attached = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_set_size (self->attached, 0);
  for (guint k = 0; k < s->live_hosts->len; k++)
    {
      const SlLiveHost *lh = g_ptr_array_index (s->live_hosts, k);
      SlHostLive live = host_live (lh->state);

      if (!s->final && lh->state != SL_LIVE_HOST_ENDED && lh->state != SL_LIVE_HOST_FAILED)
        g_ptr_array_add (self->attached, g_strdup (lh->url));

      if (lh->engine_host >= n)
        continue;
      if (best[lh->engine_host] == NULL || live_rank (live) < live_rank (host_live (best[lh->engine_host]->state)))
        best[lh->engine_host] = lh;
    }
  for (guint h = 0; h < n; h++)
    {
      SlHostItem *item = g_ptr_array_index (self->host_items, h);
      const SlLiveHost *lh = best[h];
      SlHostLive live;
      g_autofree char *status = NULL;

      if (lh == NULL)
        continue;
      live = host_live (lh->state);
      status = lh->message != NULL && lh->message[0] != '\0'
        ? g_strdup_printf ("%s: %s", sl_host_live_to_string (live), lh->message)
        : g_strdup (sl_host_live_to_string (live));
      _sl_host_item_set_status (item, status);
      _sl_host_item_set_live (item, live);
      counts[live]++;
    }
  memcpy (self->n_live, counts, sizeof counts);
  _sl_session_set_relay_stalled (self, !s->final && counts[SL_HOST_LIVE_STALLED] > 0 &&
                                       counts[SL_HOST_LIVE_STREAMING] + counts[SL_HOST_LIVE_CONNECTING] +
                                       counts[SL_HOST_LIVE_WAITING] == 0);
}

/**
 * sl_session_get_n_live_hosts:
 * @live: a live state
 *
 * Returns: how many hosts of the live session are in @live
 */
guint
sl_session_get_n_live_hosts (SlSession  *self,
                             SlHostLive  live)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  g_return_val_if_fail (live < SL_HOST_LIVE_N_STATES, 0);

  return self->n_live[live];
}

/**
 * sl_session_get_relay_stalled:
 *
 * Returns: %TRUE while no host of the live session streams and one or
 *   more have not heard from the relay for the stall time: the relay (or
 *   the network to it) is stalled as a whole
 */
gboolean
sl_session_get_relay_stalled (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);

  return self->relay_stalled;
}

/**
 * sl_session_get_n_passing_problems:
 *
 * Returns: how many problems were passing states of a live session (a
 *   stall and its end, of a host or of the relay), shown as states rather
 *   than announced with #SlSession::problem
 */
guint
sl_session_get_n_passing_problems (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);

  return self->n_passing;
}

/**
 * sl_session_dup_attached_urls:
 *
 * Returns: (transfer full): the URLs of the live attachments of the
 *   running live session that are attached now (connecting, streaming,
 *   stalled or waiting), as the last update gave them; empty otherwise
 */
char **
sl_session_dup_attached_urls (SlSession *self)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  for (guint i = 0; self->state == SL_SESSION_STATE_LIVE && self->attached != NULL && i < self->attached->len; i++)
    g_strv_builder_add (b, g_ptr_array_index (self->attached, i));
  return g_strv_builder_end (b);
}

/**
 * sl_session_attach_live:
 * @add: (nullable): relay URLs to attach besides what is attached
 * @remove: (nullable): relay URLs to detach (what they received stays)
 *
 * Changes the attachments of a running live session in place: nothing
 * read so far is lost. The inputs (reloading, saving) gain @add and lose
 * what @remove detaches (sl_live_urls_after_detach(): a broader URL that
 * covered it becomes the attachments it still has).
 *
 * Returns: %FALSE with @error set when no live session runs (nothing is
 *   changed then) or an URL is not a relay URL
 */
gboolean
sl_session_attach_live (SlSession          *self,
                        const char * const *add,
                        const char * const *remove,
                        GError            **error)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);

  if (self->state != SL_SESSION_STATE_LIVE || self->job == NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, _("No live session runs"));
      return FALSE;
    }
  for (guint i = 0; remove != NULL && remove[i] != NULL; i++)
    {
      g_auto(GStrv) attached = sl_session_dup_attached_urls (self);
      char **inputs;

      sl_job_remove_live_url (self->job, remove[i]);
      /* reloading and saving attach what the view attaches now, not the
       * detached sessions again */
      inputs = sl_live_urls_after_detach ((const char * const *) self->inputs, remove[i],
                                          (const char * const *) attached);
      g_strfreev (self->inputs);
      self->inputs = inputs;
    }
  for (guint i = 0; add != NULL && add[i] != NULL; i++)
    {
      g_autoptr(GStrvBuilder) b = NULL;

      if (!sl_job_add_live_url (self->job, add[i], error))
        return FALSE;
      if (self->inputs != NULL && g_strv_contains ((const char * const *) self->inputs, add[i]))
        continue;
      b = g_strv_builder_new ();
      if (self->inputs != NULL)
        g_strv_builder_addv (b, (const char **) self->inputs);
      g_strv_builder_add (b, add[i]);
      g_strfreev (self->inputs);
      self->inputs = g_strv_builder_end (b);
    }
  return TRUE;
}
