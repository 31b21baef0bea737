/* sl-time-span.h: a span of time in ns, as a boxed value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * SlTimeSpan:
 * @begin: the first instant, ns
 * @end: the last instant, ns; never before @begin in a span a function
 *   of this file or #SlSession returns
 *
 * The session's input range and its visible and selected spans (the
 * properties carry it boxed). A span with @end == @begin is empty: no
 * selection is { 0, 0 }.
 */
typedef struct
{
  gint64 begin;
  gint64 end;
} SlTimeSpan;

#define SL_TYPE_TIME_SPAN (sl_time_span_get_type ())

GType       sl_time_span_get_type (void) G_GNUC_CONST;
SlTimeSpan *sl_time_span_copy     (const SlTimeSpan *self);
void        sl_time_span_free     (SlTimeSpan       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTimeSpan, sl_time_span_free)

/* @a and @b in either order */
static inline SlTimeSpan
sl_time_span_new (gint64 a,
                  gint64 b)
{
  return a <= b ? (SlTimeSpan) { a, b } : (SlTimeSpan) { b, a };
}

static inline gboolean
sl_time_span_is_empty (SlTimeSpan span)
{
  return span.end <= span.begin;
}

/* end − begin without overflow: G_MAXINT64 for a wider span (the
 * properties allow any two gint64s) */
static inline gint64
sl_time_span_duration (SlTimeSpan span)
{
  guint64 d;

  if (span.end <= span.begin)
    return 0;
  d = (guint64) span.end - (guint64) span.begin;
  return d > (guint64) G_MAXINT64 ? G_MAXINT64 : (gint64) d;
}

/* both ends included */
static inline gboolean
sl_time_span_contains (SlTimeSpan span,
                       gint64     t)
{
  return t >= span.begin && t <= span.end;
}

static inline gboolean
sl_time_span_equal (SlTimeSpan a,
                    SlTimeSpan b)
{
  return a.begin == b.begin && a.end == b.end;
}

G_END_DECLS
