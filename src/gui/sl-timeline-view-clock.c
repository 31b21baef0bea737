/* sl-timeline-view-clock.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each host's clock as the view applies it: the session's transforms,
 * their animation to new values, the links' bounds, raw or synchronized
 * time, following the end of a live session.
 */

#include "config.h"

#include <math.h>

#include "sl-timeline-view-private.h"

guint64
_sl_timeline_view_pair_key (guint a,
                            guint b)
{
  return ((guint64) MIN (a, b) << 32) | MAX (a, b);
}

static void
clock_interpolate (const SlTransform *from,
                   const SlTransform *to,
                   double             p,
                   SlTransform       *out)
{
  SlTransform fr;
  double d, img;
  gint64 whole;

  sl_transform_rebase (from, to->origin, &fr);
  d = (double) (to->image - fr.image) + (to->image_frac - fr.image_frac);
  img = fr.image_frac + p * d;
  whole = (gint64) floor (img);
  sl_transform_init (out, to->origin, fr.image + whole, img - (double) whole, fr.drift + p * (to->drift - fr.drift));
}

static double
ease_out (double p)
{
  p = CLAMP (p, 0, 1);
  return 1 - (1 - p) * (1 - p) * (1 - p);
}

void
_sl_timeline_view_push_clock (SlTimelineView *self,
                              guint           host)
{
  SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, host);

  c->version++;
  self->clock_version++;
  if (self->timeline != NULL && host < sl_timeline_get_n_hosts (self->timeline))
    sl_timeline_set_host_transform (self->timeline, host,
                                    sl_transform_is_identity (&c->shown) ? NULL : &c->shown,
                                    self->synchronized ? c->bound : 0);
}

/* A link's bound at every instant (its relation from a to b), or the
 * constant one. */
static void
push_link (SlTimelineView *self,
           guint           a,
           guint           b,
           double          bound_ns)
{
  guint64 key = _sl_timeline_view_pair_key (a, b);
  SlRelation *rel = g_hash_table_lookup (self->link_rels, &key);
  guint n;

  if (self->timeline == NULL)
    return;
  n = sl_timeline_get_n_hosts (self->timeline);
  if (a >= n || b >= n)
    return;
  if (rel != NULL && self->synchronized)
    sl_timeline_set_link_relation (self->timeline, MIN (a, b), MAX (a, b), rel);
  else
    sl_timeline_set_link_bound (self->timeline, a, b, self->synchronized ? bound_ns : NAN);
}

/* @rel from MIN (a, b)'s clock to the other's (the engine's order). */
void
_sl_timeline_view_set_link_relation (SlTimelineView *self,
                                     guint           a,
                                     guint           b,
                                     SlRelation     *rel)
{
  guint64 key = _sl_timeline_view_pair_key (a, b);
  SlRelation *old = g_hash_table_lookup (self->link_rels, &key);
  double *bound;

  if (old == rel)
    return;
  if (rel != NULL)
    {
      guint64 *k = g_new (guint64, 1);

      *k = key;
      g_hash_table_replace (self->link_rels, k, sl_relation_ref (rel));
    }
  else
    g_hash_table_remove (self->link_rels, &key);
  bound = g_hash_table_lookup (self->link_bounds, &key);
  push_link (self, a, b, bound != NULL ? *bound : NAN);
  self->arrow_version++;
}

void
_sl_timeline_view_push_link_bounds (SlTimelineView *self)
{
  GHashTableIter iter;
  gpointer key, value;

  if (self->timeline == NULL)
    return;
  g_hash_table_iter_init (&iter, self->link_bounds);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint64 k = *(guint64 *) key;

      push_link (self, (guint) (k >> 32), (guint) (k & 0xffffffff), *(double *) value);
    }
}

const SlTlvClock *
_sl_timeline_view_clock (SlTimelineView *self,
                         guint           host)
{
  static SlTlvClock identity;

  if (host >= self->clocks->len)
    {
      sl_transform_init_identity (&identity.shown);
      return &identity;
    }
  return &g_array_index (self->clocks, SlTlvClock, host);
}

gboolean
_sl_timeline_view_clocks_animating (SlTimelineView *self)
{
  for (guint h = 0; h < self->clocks->len; h++)
    if (g_array_index (self->clocks, SlTlvClock, h).anim_start != 0)
      return TRUE;
  return FALSE;
}

void
_sl_timeline_view_step_clocks (SlTimelineView *self,
                               gint64          now)
{
  gboolean was = FALSE, is = FALSE;

  for (guint h = 0; h < self->clocks->len; h++)
    {
      SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, h);
      double p;

      if (c->anim_start == 0)
        continue;
      was = TRUE;
      p = (double) (now - c->anim_start) / SL_TLV_ANIM_US;
      if (p >= 1)
        {
          c->shown = c->target;
          c->anim_start = 0;
        }
      else
        {
          clock_interpolate (&c->from, &c->target, ease_out (p), &c->shown);
          is = TRUE;
        }
      _sl_timeline_view_push_clock (self, h);
    }
  if (was)
    {
      sl_event_list_times_changed (self->events);
      if (!is)
        g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_ANIMATING]);
    }
}

/* Following: each frame, the span's end moves towards the data's end by
 * half the way, between 0.5 % and 4 % of the width, so that it scrolls
 * evenly whatever the update rate (at 5 frames a second it keeps up with
 * 1 s of data a second in a 5 s window). More than a width behind, or on
 * the first frame after none for a second (the page was hidden), it jumps:
 * there is no motion on screen to keep even. */
static gboolean
follow_step (SlTimelineView *self,
             gint64          now_us)
{
  gint64 start, end, width, lag, step;
  gboolean resumed = now_us - self->follow_frame_us > G_USEC_PER_SEC;

  self->follow_frame_us = now_us;
  if (!self->follow || !self->has_span || self->follow_target == 0)
    return FALSE;
  start = _sl_timeline_view_start (self);
  end = _sl_timeline_view_end (self);
  width = MAX (end - start, 1);
  lag = self->follow_target - end;
  step = lag > width || resumed ? lag : CLAMP (lag / 2, MAX (width / 200, 1), MAX (width / 25, 1));
  /* the last step lands on the end exactly, whatever the rounding */
  if (step >= lag || lag <= (gint64) ceil (self->px_ns))
    {
      if (lag > 0)
        _sl_timeline_view_set_span_internal (self, self->follow_target - width, self->follow_target);
      self->follow_target = 0;
      return FALSE;
    }
  _sl_timeline_view_set_span_internal (self, start + step, end + step);
  return TRUE;
}

gboolean
_sl_timeline_view_tick (SlTimelineView *self,
                        gint64          now_us)
{
  gboolean following = follow_step (self, now_us);

  _sl_timeline_view_step_clocks (self, now_us);
  return _sl_timeline_view_clocks_animating (self) || following;
}

/* The host whose drawing must not move when clocks change: the selected
 * row's, else the first one on screen. */
static guint
anchor_host (SlTimelineView *self)
{
  guint v;

  if (self->timeline != NULL && self->selected_row != SL_TIMELINE_NONE)
    {
      SlTimelineRowInfo ri;

      sl_timeline_get_row_info (self->timeline, self->selected_row, &ri);
      return ri.host;
    }
  v = _sl_timeline_view_vis_at (self, 0);
  if (v != SL_TIMELINE_NONE)
    return g_array_index (self->vis, SlTlvRow, v).host;
  return 0;
}

/* Moves the span by @s (a map of the view's clock) if that is visible. */
static gboolean
shift_span (SlTimelineView    *self,
            const SlTransform *s)
{
  gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
  gint64 ns = sl_transform_apply (s, start), ne = sl_transform_apply (s, end);
  double px = self->px_ns > 0 ? self->px_ns : 1;

  if (fabs ((double) (ns - start)) < 0.5 * px && fabs ((double) (ne - end)) < 0.5 * px)
    return FALSE;
  if (self->plot_w > 0 && self->has_span)
    {
      self->origin = ns;
      self->col0 = 0;
      self->px_ns = MAX ((double) (ne - ns) / self->plot_w, SL_TLV_MIN_PX_NS);
      self->pending_start = ns;
      self->pending_end = ne;
      _sl_timeline_view_span_changed (self);
    }
  else
    {
      self->pending_start = ns;
      self->pending_end = ne;
    }
  return TRUE;
}

void
_sl_timeline_view_ensure_clock (SlTimelineView *self,
                                guint           host)
{
  if (host < self->clocks->len)
    return;
  {
    guint old = self->clocks->len;

    g_array_set_size (self->clocks, host + 1);
    for (guint h = old; h <= host; h++)
      {
        SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, h);

        memset (c, 0, sizeof *c);
        sl_transform_init_identity (&c->target);
        sl_transform_init_identity (&c->shown);
        sl_transform_init_identity (&c->from);
        c->bound = NAN;
      }
  }
}

/* @stepped: the clocks were stepped to @now already (a session update
 * sets every host's clock at one time: stepping every clock for each of
 * 200 hosts took a third of the update's handling). */
void
_sl_timeline_view_set_host_clock (SlTimelineView    *self,
                                  guint              host,
                                  const SlTransform *to_reference,
                                  guint              reference,
                                  double             bound_ns,
                                  gint64             now,
                                  gboolean           stepped)
{
  SlTlvClock *c;
  SlTransform target;

  if (to_reference != NULL)
    target = *to_reference;
  else
    sl_transform_init_identity (&target);
  _sl_timeline_view_ensure_clock (self, host);
  c = &g_array_index (self->clocks, SlTlvClock, host);

  if (!c->known)
    {
      c->known = TRUE;
      c->target = target;
      c->reference = reference;
      c->bound = bound_ns;
      if (self->synchronized)
        {
          c->shown = target;
          _sl_timeline_view_push_clock (self, host);
          self->refit_pending = TRUE;
          _sl_timeline_view_queue_update (self);
        }
      return;
    }
  if (memcmp (&c->target, &target, sizeof target) == 0 && c->reference == reference)
    {
      if (c->bound != bound_ns && !(isnan (c->bound) && isnan (bound_ns)))
        {
          c->bound = bound_ns;
          _sl_timeline_view_push_clock (self, host);
        }
      return;
    }
  c->target = target;
  c->reference = reference;
  c->bound = bound_ns;
  if (!self->synchronized)
    return;
  if (self->fitted)
    {
      c->shown = target;
      c->anim_start = 0;
      _sl_timeline_view_push_clock (self, host);
      self->refit_pending = TRUE;
      _sl_timeline_view_queue_update (self);
      return;
    }

  /* everything drawn now, at its place now */
  if (!stepped)
    _sl_timeline_view_step_clocks (self, now);
  if (host == anchor_host (self))
    {
      SlTransform inv, s;

      sl_transform_invert (&c->shown, &inv);
      sl_transform_compose (&target, &inv, &s);
      if (shift_span (self, &s))
        for (guint h = 0; h < self->clocks->len; h++)
          {
            SlTlvClock *k = &g_array_index (self->clocks, SlTlvClock, h);
            SlTransform moved;

            if (!k->known)
              continue;
            sl_transform_compose (&s, &k->shown, &moved);
            k->shown = moved;
            k->from = moved;
            k->anim_start = now;
            _sl_timeline_view_push_clock (self, h);
          }
    }
  {
    /* a move of less than half a pixel over the span is not animated */
    gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
    SlTransform inv;
    gint64 l0, l1;
    double d0, d1;

    sl_transform_invert (&c->shown, &inv);
    l0 = sl_transform_apply (&inv, start);
    l1 = sl_transform_apply (&inv, end);
    d0 = fabs ((double) (sl_transform_apply (&target, l0) - start));
    d1 = fabs ((double) (sl_transform_apply (&target, l1) - end));
    c->from = c->shown;
    if (MAX (d0, d1) < 0.5 * self->px_ns || !gtk_widget_get_mapped (GTK_WIDGET (self)))
      {
        c->shown = target;
        c->anim_start = 0;
      }
    else if (c->anim_start == 0 || c->anim_start != now)
      c->anim_start = now;
  }
  _sl_timeline_view_push_clock (self, host);
  g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_ANIMATING]);
  _sl_timeline_view_queue_update (self);
}

void
sl_timeline_view_set_host_clock (SlTimelineView    *self,
                                 guint              host,
                                 const SlTransform *to_reference,
                                 guint              reference,
                                 double             bound_ns)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  _sl_timeline_view_set_host_clock (self, host, to_reference, reference, bound_ns, g_get_monotonic_time (), FALSE);
  _sl_timeline_view_refit_if_fitted (self);
}

void
sl_timeline_view_set_link_bound (SlTimelineView *self,
                                 guint           host_a,
                                 guint           host_b,
                                 double          bound_ns)
{
  guint64 key;
  double *old;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  key = _sl_timeline_view_pair_key (host_a, host_b);
  old = g_hash_table_lookup (self->link_bounds, &key);
  if (old != NULL && (*old == bound_ns || (isnan (*old) && isnan (bound_ns))))
    return;
  if (old != NULL)
    *old = bound_ns;
  else
    {
      guint64 *k = g_new (guint64, 1);
      double *v = g_new (double, 1);

      *k = key;
      *v = bound_ns;
      g_hash_table_insert (self->link_bounds, k, v);
    }
  push_link (self, host_a, host_b, bound_ns);
  self->arrow_version++;
  _sl_timeline_view_queue_update (self);
}

gboolean
sl_timeline_view_get_synchronized (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), TRUE);
  return self->synchronized;
}

/* Instant (each host jumps to its clock: that is the point of the
 * toggle), but the anchor host's drawing stays where it is. */
void
sl_timeline_view_set_synchronized (SlTimelineView *self,
                                   gboolean        synchronized)
{
  guint anchor;
  SlTransform old_anchor, inv, s;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  synchronized = !!synchronized;
  if (self->synchronized == synchronized)
    return;
  anchor = anchor_host (self);
  old_anchor = _sl_timeline_view_clock (self, anchor)->shown;
  self->synchronized = synchronized;
  _sl_timeline_view_state_changed (self);
  for (guint h = 0; h < self->clocks->len; h++)
    {
      SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, h);

      c->anim_start = 0;
      if (synchronized && c->known)
        c->shown = c->target;
      else
        sl_transform_init_identity (&c->shown);
      _sl_timeline_view_push_clock (self, h);
    }
  _sl_timeline_view_push_link_bounds (self);
  if (self->fitted)
    _sl_timeline_view_fit (self);
  else
    {
      sl_transform_invert (&old_anchor, &inv);
      sl_transform_compose (&_sl_timeline_view_clock (self, anchor)->shown, &inv, &s);
      shift_span (self, &s);
    }
  self->arrow_version++;
  sl_event_list_times_changed (self->events);
  if (self->session != NULL)
    sl_session_set_synchronized (self->session, synchronized);
  g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_SYNCHRONIZED]);
  g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_ANIMATING]);
  _sl_timeline_view_queue_update (self);
}

gboolean
sl_timeline_view_get_follow (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  return self->follow;
}

void
sl_timeline_view_set_follow (SlTimelineView *self,
                             gboolean        follow)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  follow = !!follow;
  if (self->follow == follow)
    return;
  self->follow = follow;
  if (follow && self->timeline != NULL && self->has_span)
    {
      gint64 lo, hi;

      if (sl_timeline_get_view_range (self->timeline, &lo, &hi))
        {
          gint64 width = _sl_timeline_view_end (self) - _sl_timeline_view_start (self);

          self->data_end = hi;
          gint64 room = _sl_timeline_view_follow_room (self, width);

          _sl_timeline_view_set_span_internal (self, hi + room - width, hi + room);
        }
    }
  g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_FOLLOW]);
}

/* Clocks sliding to new transforms, or the span scrolling to the end. */
gboolean
sl_timeline_view_get_animating (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  return _sl_timeline_view_clocks_animating (self) || (self->follow && self->follow_target != 0);
}
