/* sl-session-time.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time: the input's range, the visible and selected spans, the timeline
 * and its event stores.
 */

#include "config.h"

#include "sl-session-internal.h"

/* The spans' getters: either end may be NULL. */
static void
get_span (gint64  from,
          gint64  to,
          gint64 *start,
          gint64 *end)
{
  if (start != NULL)
    *start = from;
  if (end != NULL)
    *end = to;
}

gint64
sl_session_get_time_origin (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->time_origin;
}

void
sl_session_get_time_range (SlSession *self,
                           gint64    *start,
                           gint64    *end)
{
  g_return_if_fail (SL_IS_SESSION (self));

  get_span (self->time_start, self->time_end, start, end);
}

void
sl_session_get_visible_span (SlSession *self,
                             gint64    *start,
                             gint64    *end)
{
  g_return_if_fail (SL_IS_SESSION (self));

  get_span (self->visible_start, self->visible_end, start, end);
}

void
sl_session_set_visible_span (SlSession *self,
                             gint64     start,
                             gint64     end)
{
  g_return_if_fail (SL_IS_SESSION (self));

  _sl_session_set_span (self, &self->visible_start, &self->visible_end, start, end,
                        PROP_VISIBLE_START, PROP_VISIBLE_END);
}

void
sl_session_get_selected_span (SlSession *self,
                              gint64    *start,
                              gint64    *end)
{
  g_return_if_fail (SL_IS_SESSION (self));

  get_span (self->selected_start, self->selected_end, start, end);
}

void
sl_session_set_selected_span (SlSession *self,
                              gint64     start,
                              gint64     end)
{
  g_return_if_fail (SL_IS_SESSION (self));

  _sl_session_set_span (self, &self->selected_start, &self->selected_end, start, end,
                        PROP_SELECTION_START, PROP_SELECTION_END);
}

/* The timeline model of the input: once it is read (trace folders), or
 * as it streams (live: it grows in the ::updated emissions that carry
 * SL_SESSION_CHANGE_TIMELINE; read the event stores between
 * sl_session_lock_events() and sl_session_unlock_events()). */
SlTimeline *
sl_session_get_timeline (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->timeline;
}

const SlEventStore *
sl_session_get_event_store (SlSession *self,
                            guint      host)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->timeline != NULL && self->job != NULL ? sl_job_get_event_store (self->job, host) : NULL;
}

/* Main thread: the live session's threads append to the event stores
 * while it streams; whoever reads them (the timeline's row events, the
 * stores' names) holds this, briefly. No-op for other inputs. */
void
sl_session_lock_events (SlSession *self)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (self->timeline != NULL && self->job != NULL)
    sl_job_lock_events (self->job);
}

void
sl_session_unlock_events (SlSession *self)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (self->timeline != NULL && self->job != NULL)
    sl_job_unlock_events (self->job);
}
