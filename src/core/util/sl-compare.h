/* sl-compare.h: ascending order of numbers, for g_array_sort() and qsort()
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

static inline int
sl_compare_gint64 (gconstpointer a,
                   gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* NaN is neither before nor after anything: keep it out of what is sorted. */
static inline int
sl_compare_double (gconstpointer a,
                   gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

G_END_DECLS
