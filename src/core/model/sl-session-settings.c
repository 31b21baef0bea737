/* sl-session-settings.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The settings of the next read (estimator, tree, update interval,
 * margin) and those that apply at once (reference, retention, clock).
 */

#include "config.h"

#include "sl-session-internal.h"

const char *
sl_session_get_algorithm (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->algorithm;
}

/* The engine's estimator and tree are fixed when it is made: a change
 * reads the inputs again (a live session attaches again). */
void
sl_session_set_algorithm (SlSession  *self,
                          const char *algorithm)
{
  SlAlgorithm a;

  g_return_if_fail (SL_IS_SESSION (self));

  if (!sl_algorithm_from_string (algorithm, &a) || g_strcmp0 (self->algorithm, algorithm) == 0)
    return;
  _sl_session_set_string (self, &self->algorithm, algorithm, PROP_ALGORITHM);
  sl_session_reload (self);
}

const char *
sl_session_get_tree (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->tree;
}

void
sl_session_set_tree (SlSession  *self,
                     const char *tree)
{
  SlTreeKind k;

  g_return_if_fail (SL_IS_SESSION (self));

  if (!sl_tree_kind_from_string (tree, &k) || g_strcmp0 (self->tree, tree) == 0)
    return;
  _sl_session_set_string (self, &self->tree, tree, PROP_TREE);
  sl_session_reload (self);
}

const char *
sl_session_get_pinned_reference (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->pinned;
}

void
sl_session_set_pinned_reference (SlSession  *self,
                                 const char *host)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (host == NULL)
    host = "";
  if (g_strcmp0 (self->pinned, host) == 0)
    return;
  _sl_session_set_string (self, &self->pinned, host, PROP_PINNED_REFERENCE);
  if (self->job != NULL)
    {
      sl_job_pin_reference (self->job, host[0] != '\0' ? host : NULL);
      _sl_session_refresh_now (self);
    }
}

guint
sl_session_get_update_interval (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 100);
  return self->update_ms;
}

/* Takes effect with the next input. */
void
sl_session_set_update_interval (SlSession *self,
                                guint      ms)
{
  g_return_if_fail (SL_IS_SESSION (self));

  ms = CLAMP (ms, 10, 60000);
  if (self->update_ms == ms)
    return;
  self->update_ms = ms;
  _sl_session_notify (self, PROP_UPDATE_INTERVAL);
}

double
sl_session_get_tree_margin (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->tree_margin;
}

/**
 * sl_session_set_tree_margin:
 * @margin: the tree's hysteresis for live sessions (0.1: a link replaces a
 *   tree link only when its bound is 10 % lower); inputs read to their end
 *   get the exact tree
 *
 * Takes effect with the next input.
 */
void
sl_session_set_tree_margin (SlSession *self,
                            double     margin)
{
  g_return_if_fail (SL_IS_SESSION (self));

  margin = CLAMP (margin, 0.0, 10.0);
  if (self->tree_margin == margin)
    return;
  self->tree_margin = margin;
  _sl_session_notify (self, PROP_TREE_MARGIN);
}

guint
sl_session_get_retention (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->retention_s;
}

/**
 * sl_session_set_retention:
 * @seconds: live sessions: the span of each host's newest events the
 *   timeline keeps (events, states and messages before it are dropped);
 *   0 keeps everything. The synchronization keeps what it needs.
 *
 * Takes effect at once on a running live session.
 */
void
sl_session_set_retention (SlSession *self,
                          guint      seconds)
{
  g_return_if_fail (SL_IS_SESSION (self));

  seconds = MIN (seconds, SL_SESSION_MAX_RETENTION_S);
  if (self->retention_s == seconds)
    return;
  self->retention_s = seconds;
  if (self->job != NULL && self->kind == SL_JOB_LIVE)
    sl_job_set_retention (self->job, (gint64) seconds * G_GINT64_CONSTANT (1000000000));
  _sl_session_notify (self, PROP_RETENTION);
}

gboolean
sl_session_get_synchronized (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), TRUE);
  return self->synchronized;
}

void
sl_session_set_synchronized (SlSession *self,
                             gboolean   synchronized)
{
  g_return_if_fail (SL_IS_SESSION (self));

  synchronized = !!synchronized;
  if (self->synchronized == synchronized)
    return;
  self->synchronized = synchronized;
  _sl_session_notify (self, PROP_SYNCHRONIZED);
}
