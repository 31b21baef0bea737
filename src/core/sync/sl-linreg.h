/* sl-linreg.h: linear-regression synchronization of one link from round
 * trips [Clément & Dagenais §9]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-transform.h"

G_BEGIN_DECLS

/**
 * SlLinregResult:
 * @n_round_trips: round trips formed so far
 * @n_used: round trips kept after outlier rejection
 * @valid: %TRUE when @fit is defined (at least two distinct round trips)
 * @fit: t_b = fit(t_a)
 * @e_r_ns: residual standard deviation (ns), NAN with fewer than 3 used
 * @se_slope: standard error of the slope, NAN with fewer than 3 used
 * @se_offset_ns: standard error of the offset at the centre of the span (ns)
 * @mean_error_margin_ns: mean of the round trips' error margins E (ns)
 * @have_a_to_b: a packet from a to b was seen
 * @have_b_to_a: a packet from b to a was seen
 */
typedef struct
{
  guint       n_round_trips;
  guint       n_used;
  gboolean    valid;
  SlTransform fit;
  double      e_r_ns;
  double      se_slope;
  double      se_offset_ns;
  double      mean_error_margin_ns;
  gboolean    have_a_to_b;
  gboolean    have_b_to_a;
} SlLinregResult;

/**
 * SlRoundTrip:
 * @t_a: the round trip's instant on a's clock (the midpoint of its two
 *   a-side readings)
 * @t_b: b's clock then, by the round trip's offset D
 * @e_ns: its error margin E: |D − the true offset| ≤ E when the round trip
 *   is a real exchange (E is half the network round trip, with a margin
 *   for the clocks' rates over the turnaround)
 * @len_ab: the payload bytes of its a → b packet (0 when unknown)
 * @len_ba: the payload bytes of its b → a packet (0 when unknown)
 */
typedef struct
{
  gint64 t_a;
  gint64 t_b;
  double e_ns;
  guint  len_ab;
  guint  len_ba;
} SlRoundTrip;

typedef struct _SlLinreg SlLinreg;

SlLinreg *sl_linreg_new   (double          confidence);
void      sl_linreg_free  (SlLinreg       *self);
gboolean  sl_linreg_add   (SlLinreg       *self,
                           gboolean        a_to_b,
                           gint64          t_a,
                           gint64          t_b);
gboolean  sl_linreg_add_full (SlLinreg    *self,
                              gboolean     a_to_b,
                              gint64       t_a,
                              gint64       t_b,
                              guint        length,
                              SlRoundTrip  out[2],
                              guint       *n_out);
double    sl_linreg_confidence_to_z (double confidence);
void      sl_linreg_get   (SlLinreg       *self,
                           SlLinregResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlLinreg, sl_linreg_free)

G_END_DECLS
