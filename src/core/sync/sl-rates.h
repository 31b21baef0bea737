/* sl-rates.h: what a link's windows guarantee of its clock rate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SlRateWindow:
 * @u, @v: the window's first and last packet on the source clock (ns)
 * @from, @to: where its band holds by itself (next to a clock step, less
 *   than [@u, @v])
 * @lo, @hi: the slopes of the extreme lines its relaxed hulls admit: the
 *   chord of the true map over [@u, @v] has a slope in [@lo, @hi]
 * @kappa: the assumption's bound on the true map's second derivative
 *   (1/ns)
 * @run: windows of one run have no clock step between them
 */
typedef struct
{
  gint64 u;
  gint64 v;
  gint64 from;
  gint64 to;
  double lo;
  double hi;
  double kappa;
  guint  run;
} SlRateWindow;

/* An immutable list of windows, sorted by @u. */
typedef struct _SlRates SlRates;

SlRates            *sl_rates_new       (const SlRateWindow *windows,
                                        guint               n);
void                sl_rates_free      (SlRates            *self);
gboolean            sl_rates_equal     (const SlRates      *a,
                                        const SlRates      *b);
guint               sl_rates_get_n     (const SlRates      *self);
const SlRateWindow *sl_rates_get       (const SlRates      *self,
                                        guint               i);
void                sl_rate_window_at  (const SlRateWindow *w,
                                        gint64              x,
                                        double              slack,
                                        double             *lo,
                                        double             *hi);
gboolean            sl_rates_at        (const SlRates      *self,
                                        gint64              x,
                                        double              slack,
                                        double             *lo,
                                        double             *hi);

G_END_DECLS
