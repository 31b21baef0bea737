/* sl-generate-clock.c: each host's clock: local time, the cycles the trace
 * stores and the time babeltrace2 shows for them, the true relations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-generate-private.h"
#include "sl-types.h"

void
_sl_gen_setup_clock (SlGenerate *self,
                     Host       *h)
{
  gint64 local_start = self->options.start_ns + h->pub.offset_ns;
  gint64 origin;
  double period_ns = h->pub.wander_period_s * 1e9;

  h->drift = h->pub.drift_ppm * 1e-6;
  h->wander_amp_ns = h->pub.wander_ppm > 0 ? h->pub.wander_ppm * 1e-6 * period_ns / (2 * G_PI) : 0;
  h->wander_half_omega = h->pub.wander_ppm > 0 ? G_PI / period_ns : 0;
  h->cycles_per_ns = (long double) h->pub.freq_hz / 1e9L;

  /* The monotonic clock counts from boot; its origin in the metadata is
   * the boot time, rounded down to a whole second. */
  if (h->boot_age_ns > (guint64) MAX (local_start, 0))
    h->boot_age_ns = (guint64) MAX (local_start, 0);
  origin = local_start - (gint64) h->boot_age_ns;
  h->clock_offset_s = origin / NS_PER_S;
  h->origin_at_start = local_start - h->clock_offset_s * NS_PER_S;
}

gint64
_sl_gen_local_time (const SlGenerate *self,
                    const Host       *h,
                    gint64            true_ns)
{
  gint64 dt = true_ns - self->options.start_ns;

  return true_ns + h->pub.offset_ns + step_ns (h, dt) + (gint64) llround (h->drift * (double) dt + wander_ns (h, dt));
}

gint64
sl_generate_local_time (const SlGenerate *self,
                        guint             host,
                        gint64            true_ns)
{
  g_return_val_if_fail (self != NULL && host < self->hosts->len, 0);
  return _sl_gen_local_time (self, host_at (self, host), true_ns);
}

/* What babeltrace2 prints (ns from the epoch) for an event written at
 * @true_ns; needs sl_generate_prepare() or a loaded ground truth. */
gint64
sl_generate_trace_time (const SlGenerate *self,
                        guint             host,
                        gint64            true_ns)
{
  const Host *h;

  g_return_val_if_fail (self != NULL && host < self->hosts->len, 0);
  h = host_at (self, host);
  return cycles_to_trace_ns (h, host_cycles (self, h, true_ns));
}

/* The linear part of the relation local(@from) → local(@to); wander, if
 * any, adds at most sl_generate_wander_bound_ns() to it. */
void
sl_generate_true_transform (const SlGenerate *self,
                            guint             from,
                            guint             to,
                            SlTransform      *out)
{
  const Host *f, *t;
  SlTransform lf, lt, inv;
  gint64 s;

  g_return_if_fail (self != NULL && out != NULL);
  g_return_if_fail (from < self->hosts->len && to < self->hosts->len);

  f = host_at (self, from);
  t = host_at (self, to);
  s = self->options.start_ns;
  sl_transform_init (&lf, s, s + f->pub.offset_ns, 0.0, f->pub.drift_ppm * 1e-6);
  sl_transform_init (&lt, s, s + t->pub.offset_ns, 0.0, t->pub.drift_ppm * 1e-6);
  sl_transform_invert (&lf, &inv);
  sl_transform_compose (&lt, &inv, out);
}

gboolean
sl_generate_true_transform_by_name (const SlGenerate  *self,
                                    const char        *from,
                                    const char        *to,
                                    SlTransform       *out,
                                    GError           **error)
{
  guint f = sl_generate_find_host (self, from), t = sl_generate_find_host (self, to);

  if (f == NONE || t == NONE)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "no host named “%s” in the ground truth",
                   f == NONE ? from : to);
      return FALSE;
    }
  sl_generate_true_transform (self, f, t, out);
  return TRUE;
}

/* Largest distance between the true relation of two wandering clocks and
 * its linear part, in ns of the target clock. */
double
sl_generate_wander_bound_ns (const SlGenerate *self,
                             guint             from,
                             guint             to)
{
  const Host *f, *t;

  g_return_val_if_fail (from < self->hosts->len && to < self->hosts->len, 0);
  f = host_at (self, from);
  t = host_at (self, to);
  return 2 * (f->wander_amp_ns + t->wander_amp_ns) * (1 + 1e-3) + 1;
}
