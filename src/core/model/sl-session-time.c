/* sl-session-time.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time: the input's range, the visible and selected spans, the timeline
 * and its event stores.
 */

#include "config.h"

#include "sl-session-internal.h"

gint64
sl_session_get_time_origin (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->time_origin;
}

/* What the input spans on the reference clock (empty before the first
 * snapshot). */
const SlTimeSpan *
sl_session_get_time_span (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return &self->time_span;
}

/* What the timeline shows, on the reference clock; the view sets it. */
const SlTimeSpan *
sl_session_get_visible_span (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return &self->visible_span;
}

/* @span: its ends in either order; NULL empties the span */
void
sl_session_set_visible_span (SlSession        *self,
                             const SlTimeSpan *span)
{
  g_return_if_fail (SL_IS_SESSION (self));

  _sl_session_set_span (self, &self->visible_span, span != NULL ? *span : (SlTimeSpan) { 0, 0 },
                        PROP_VISIBLE_SPAN);
}

/* The selection on the timeline, on the reference clock: empty when
 * nothing is selected. */
const SlTimeSpan *
sl_session_get_selected_span (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return &self->selected_span;
}

/* @span: its ends in either order; NULL (or { 0, 0 }) selects nothing */
void
sl_session_set_selected_span (SlSession        *self,
                              const SlTimeSpan *span)
{
  g_return_if_fail (SL_IS_SESSION (self));

  _sl_session_set_span (self, &self->selected_span, span != NULL ? *span : (SlTimeSpan) { 0, 0 },
                        PROP_SELECTED_SPAN);
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
