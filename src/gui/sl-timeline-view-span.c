/* sl-timeline-view-span.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The span the view shows: zoom, pan, fit, the status line, and the
 * conversions between time and canvas x.
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-timeline-view-private.h"

/* (to the nearest ns: px_ns is the span divided by the width, and the
 * product floored lost a ns of a span set exactly) */
gint64
_sl_timeline_view_start (SlTimelineView *self)
{
  if (!self->has_span || self->plot_w <= 0)
    return self->pending_start;
  return self->origin + (gint64) round ((double) self->col0 * self->px_ns);
}

gint64
_sl_timeline_view_end (SlTimelineView *self)
{
  if (!self->has_span || self->plot_w <= 0)
    return self->pending_end;
  return self->origin + (gint64) round ((double) (self->col0 + self->plot_w) * self->px_ns);
}

/* what is shown */
SlTimeSpan
_sl_timeline_view_span (SlTimelineView *self)
{
  return (SlTimeSpan) { _sl_timeline_view_start (self), _sl_timeline_view_end (self) };
}

/* the session's selection; empty without a session */
SlTimeSpan
_sl_timeline_view_selection (SlTimelineView *self)
{
  return self->session != NULL ? *sl_session_get_selected_span (self->session) : (SlTimeSpan) { 0, 0 };
}

/* the pixels of one of @cols columns */
static guint
fold_px (SlTimelineView *self,
         guint           cols)
{
  return (guint) MAX (self->plot_w / (int) MAX (cols, 1), 1);
}

/* "N messages of a ↔ b": the selected link's messages shown (folded in
 * one column per direction: a few binary searches), and whether they are
 * drawn folded */
static char *
link_part (SlTimelineView *self)
{
  g_autoptr(GArray) arrows = NULL;
  g_autofree char *a = NULL, *b = NULL, *count = NULL;
  guint64 n = 0;

  if (self->hl_host_a == SL_TIMELINE_NONE || self->hl_host_b == SL_TIMELINE_NONE)
    return NULL;
  arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  sl_timeline_query_arrows (self->timeline, _sl_timeline_view_start (self), _sl_timeline_view_end (self), 1,
                            self->hl_host_a, self->hl_host_b, SL_TIMELINE_NONE, arrows);
  for (guint i = 0; i < arrows->len; i++)
    n += g_array_index (arrows, SlTimelineArrow, i).count;
  a = _sl_timeline_view_dup_host_name (self, self->hl_host_a);
  b = _sl_timeline_view_dup_host_name (self, self->hl_host_b);
  count = sl_format_count (n);
  if (self->hl_link_coarse)
    return g_strdup_printf (ngettext ("%s message of %s ↔ %s, folded every %u px",
                                      "%s messages of %s ↔ %s, folded every %u px", n),
                            count, a, b, fold_px (self, self->hl_link_cols));
  return g_strdup_printf (ngettext ("%s message of %s ↔ %s", "%s messages of %s ↔ %s", n), count, a, b);
}

/* "N messages of name (tid)": the selected thread's, process's or CPU's
 * messages shown, once all are found, and whether they are drawn folded */
static char *
row_part (SlTimelineView *self)
{
  g_autofree char *count = NULL, *name = NULL;
  SlTimelineRowInfo ri;
  guint64 n = self->hl_row_msgs;

  if (self->selected_row >= sl_timeline_get_n_rows (self->timeline) || self->hl_cursor != G_MAXINT64 || n == 0)
    return NULL;
  sl_timeline_get_row_info (self->timeline, self->selected_row, &ri);
  if (ri.kind == SL_TIMELINE_ROW_PROCESS)
    name = g_strdup_printf ("%s [%u]", ri.name != NULL ? ri.name : "?", ri.tid);
  else if (ri.kind == SL_TIMELINE_ROW_THREAD)
    name = g_strdup_printf ("%s (%u)", ri.name != NULL ? ri.name : "?", ri.tid);
  else if (ri.kind == SL_TIMELINE_ROW_CPU)
    name = g_strdup_printf (_("CPU %u"), ri.cpu);
  else
    return NULL;
  count = sl_format_count (n);
  if (self->hl_row_capped)
    {
      /* the first HIGHLIGHT_MAX arrows found; more not looked for */
      char *c = g_strdup_printf ("≥ %s", count);

      g_free (count);
      count = c;
    }
  if (self->hl_row_coarse)
    /* Translators: the selected thread's messages in the span, drawn folded; %s: a count, a thread's name and id, %u: pixels */
    return g_strdup_printf (ngettext ("%s message of %s, folded every %u px", "%s messages of %s, folded every %u px", n),
                            count, name, fold_px (self, self->hl_row_cols));
  /* Translators: the selected thread's messages in the span; %s: a count, then a thread's name and id */
  return g_strdup_printf (ngettext ("%s message of %s", "%s messages of %s", n), count, name);
}

void
_sl_timeline_view_update_status (SlTimelineView *self)
{
  g_autofree char *span = NULL;
  g_autofree char *arrows = NULL;
  guint n_hosts;
  guint64 n_arrows;
  char *parts[9] = { NULL };
  guint n = 0;

  if (self->timeline == NULL || !sl_timeline_get_view_range (self->timeline, NULL, NULL))
    {
      /* (the canvas says what it waits for) */
      sl_status_line_set_parts (self->status_label, NULL);
      return;
    }
  n_hosts = sl_timeline_get_n_hosts (self->timeline);
  n_arrows = sl_timeline_get_n_arrows (self->timeline);
  span = sl_format_ns ((double) (_sl_timeline_view_end (self) - _sl_timeline_view_start (self)));
  arrows = sl_format_count (n_arrows);
  /* the least important first: a narrow window drops them whole */
  parts[n++] = g_strdup_printf (ngettext ("%u host", "%u hosts", n_hosts), n_hosts);
  parts[n++] = g_strdup_printf (ngettext ("%u row", "%u rows", self->vis->len), self->vis->len);
  parts[n++] = g_strdup_printf (ngettext ("%s arrow", "%s arrows", n_arrows), arrows);
  if ((parts[n] = link_part (self)) != NULL)
    n++;
  if ((parts[n] = row_part (self)) != NULL)
    n++;
  if (_sl_timeline_view_selection_parts (self, &parts[n], &parts[n + 1]))
    n += 2;
  parts[n++] = g_strdup_printf (_("%s shown"), span);
  sl_status_line_set_parts (self->status_label, (const char * const *) parts);
  for (guint i = 0; i < n; i++)
    g_free (parts[i]);
}

void
_sl_timeline_view_span_changed (SlTimelineView *self)
{
  if (self->session != NULL && self->timeline != NULL && !self->pushing_span)
    {
      self->pushing_span = TRUE;
      sl_session_set_visible_span (self->session, &(SlTimeSpan) { _sl_timeline_view_start (self),
                                                                  _sl_timeline_view_end (self) });
      self->pushing_span = FALSE;
    }
  _sl_timeline_view_update_status (self);
  _sl_timeline_view_queue_events (self);
  _sl_timeline_view_queue_stats (self);
  _sl_timeline_view_queue_update (self);
}

void
_sl_timeline_view_set_span_internal (SlTimelineView *self,
                                     gint64          start,
                                     gint64          end)
{
  if (end < start)
    {
      gint64 t = start;
      start = end;
      end = t;
    }
  if (end == start)
    end = start + 1000;
  self->has_span = TRUE;
  self->fitted = FALSE;
  self->pending_start = start;
  self->pending_end = end;
  if (self->plot_w > 0)
    {
      self->px_ns = MAX ((double) (end - start) / self->plot_w, SL_TLV_MIN_PX_NS);
      self->origin = start;
      self->col0 = 0;
    }
  _sl_timeline_view_span_changed (self);
}

void
_sl_timeline_view_zoom (SlTimelineView *self,
                        double          factor,
                        double          plot_x)
{
  double t, px;
  gint64 data_lo = 0, data_hi = 0;
  double max_px = 1e18;

  if (!self->has_span || self->plot_w <= 0 || factor <= 0)
    return;
  if (self->timeline != NULL && sl_timeline_get_view_range (self->timeline, &data_lo, &data_hi))
    max_px = MAX ((double) (data_hi - data_lo) * 4 / self->plot_w, 1e3);
  plot_x = CLAMP (plot_x, 0, self->plot_w);
  t = (double) self->origin + ((double) self->col0 + plot_x) * self->px_ns;
  px = CLAMP (self->px_ns / factor, SL_TLV_MIN_PX_NS, max_px);
  if (px == self->px_ns)
    return;
  self->fitted = FALSE;
  self->px_ns = px;
  self->origin = (gint64) floor (t - plot_x * px);
  self->col0 = 0;
  self->pending_start = _sl_timeline_view_start (self);
  self->pending_end = _sl_timeline_view_end (self);
  _sl_timeline_view_span_changed (self);
}

void
_sl_timeline_view_pan_px (SlTimelineView *self,
                          gint64          dx)
{
  if (!self->has_span || self->plot_w <= 0 || dx == 0)
    return;
  self->fitted = FALSE;
  self->col0 += dx;
  self->pending_start = _sl_timeline_view_start (self);
  self->pending_end = _sl_timeline_view_end (self);
  _sl_timeline_view_span_changed (self);
}

void
_sl_timeline_view_fit (SlTimelineView *self)
{
  gint64 lo, hi, margin;

  if (self->timeline == NULL || !sl_timeline_get_view_range (self->timeline, &lo, &hi))
    return;
  margin = MAX ((hi - lo) / 100, 500);
  if (!(self->fitted && _sl_timeline_view_start (self) == lo - margin &&
        _sl_timeline_view_end (self) == hi + margin))
    _sl_timeline_view_set_span_internal (self, lo - margin, hi + margin);
  self->fitted = TRUE;
  self->refit_pending = FALSE;
}

/* Following live data, the span ends this far past the data's end (a
 * 25th of its width): the newest events and the line up to which every
 * host is complete stay in view while the span catches up frame by frame. */
gint64
_sl_timeline_view_follow_room (SlTimelineView *self,
                               gint64          width)
{
  if (self->from_session && self->session != NULL && sl_session_get_is_live (self->session))
    return width / 25;
  return 0;
}

/* A view that follows (live data) shows its last SL_TIMELINE_LIVE_WINDOW_NS
 * when it gets data; others the fit of the data. */
void
_sl_timeline_view_fit_or_follow (SlTimelineView *self)
{
  gint64 lo, hi;

  if (self->follow && self->timeline != NULL && sl_timeline_get_view_range (self->timeline, &lo, &hi))
    {
      self->data_end = hi;
      gint64 room = _sl_timeline_view_follow_room (self, SL_TIMELINE_LIVE_WINDOW_NS);

      _sl_timeline_view_set_span_internal (self, hi + room - SL_TIMELINE_LIVE_WINDOW_NS, hi + room);
      return;
    }
  _sl_timeline_view_fit (self);
}

/* After the clocks changed: a fitted span is fitted again (the data moved
 * under it), without animation. */
void
_sl_timeline_view_refit_if_fitted (SlTimelineView *self)
{
  if (!self->refit_pending)
    return;
  self->refit_pending = FALSE;
  if (self->fitted)
    _sl_timeline_view_fit (self);
}

void
sl_timeline_view_get_span (SlTimelineView *self,
                           gint64         *start,
                           gint64         *end)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (start != NULL)
    *start = _sl_timeline_view_start (self);
  if (end != NULL)
    *end = _sl_timeline_view_end (self);
}

void
sl_timeline_view_set_span (SlTimelineView *self,
                           gint64          start,
                           gint64          end)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  /* (a span asked for is not scrolled away to an end already reached) */
  self->follow_target = 0;
  _sl_timeline_view_set_span_internal (self, start, end);
}

double
sl_timeline_view_time_to_x (SlTimelineView *self,
                            gint64          view_time)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NAN);

  return SL_TLV_LABEL_W + ((double) (view_time - self->origin) / self->px_ns - (double) self->col0);
}

/* The view's time at canvas x. */
gint64
sl_timeline_view_x_to_time (SlTimelineView *self,
                            double          x)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), 0);

  return self->origin + (gint64) floor (((double) self->col0 + x - SL_TLV_LABEL_W) * self->px_ns);
}

double
sl_timeline_view_host_time_to_x (SlTimelineView *self,
                                 guint           host,
                                 gint64          local)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NAN);

  if (self->timeline != NULL)
    return sl_timeline_view_time_to_x (self, sl_timeline_to_view (self->timeline, host, local));
  return sl_timeline_view_time_to_x (self, sl_transform_apply (&_sl_timeline_view_clock (self, host)->shown, local));
}
