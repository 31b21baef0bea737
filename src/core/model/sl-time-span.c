/* sl-time-span.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "sl-time-span.h"

G_DEFINE_BOXED_TYPE (SlTimeSpan, sl_time_span, sl_time_span_copy, sl_time_span_free)

SlTimeSpan *
sl_time_span_copy (const SlTimeSpan *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_memdup2 (self, sizeof *self);
}

void
sl_time_span_free (SlTimeSpan *self)
{
  g_free (self);
}
