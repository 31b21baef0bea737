/* sl-segments-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-segments-private.h"

/**
 * sl_segments_get_linreg:
 *
 * The round trips' statistics over the windows (see #SlSegmentsLinreg).
 */
void
sl_segments_get_linreg (SlSegments       *self,
                        SlSegmentsLinreg *stats)
{
  GArray *ws;
  long double ss = 0;
  guint64 dof = 0;

  g_return_if_fail (self != NULL && stats != NULL);

  memset (stats, 0, sizeof *stats);
  stats->e_r_ns = stats->se_slope = stats->se_offset_ns = NAN;
  ws = all_windows (self);
  for (guint i = 0; i < ws->len; i++)
    {
      const Window *w = &g_array_index (ws, Window, i);
      Fit f;

      stats->n_round_trips += w->lr.n;
      if (!moments_fit (&w->lr, &f))
        continue;
      stats->n_windows++;
      ss += (long double) f.e_r * f.e_r * (w->lr.n - 2);
      dof += w->lr.n - 2;
      stats->se_slope = isnan (stats->se_slope) ? sqrt (f.s2 / f.sxx) : MAX (stats->se_slope, sqrt (f.s2 / f.sxx));
      for (int end = 0; end < 2; end++)
        {
          double se = fit_se (&f, &w->lr, (double) (end == 0 ? w->band.u : w->band.v));

          stats->se_offset_ns = isnan (stats->se_offset_ns) ? se : MAX (stats->se_offset_ns, se);
        }
    }
  if (dof > 0)
    stats->e_r_ns = (double) sqrtl (ss / dof);
  windows_free (ws);
}

guint64
sl_segments_get_version (const SlSegments *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->version;
}

/* Changes with every packet or round trip added. The version changes
 * only when the relation may have: a packet of the first window that
 * leaves its hull alone still moves its span's end and the origin of its
 * estimate (the last digits of its offset). A result kept from one call
 * to the next is kept by this count, so that what it says does not
 * depend on when it was asked for (a job's snapshots come by wall-clock
 * time). */
guint64
sl_segments_get_changes (const SlSegments *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->changes;
}

/* The raw hull of the open window (all packets since it opened). */
const SlHull *
sl_segments_get_hull (const SlSegments *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->raw != NULL ? self->raw : self->first_raw;
}

guint64
sl_segments_get_n_late (const SlSegments *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->late;
}

guint
sl_segments_get_n_failures (const SlSegments *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->failures->len;
}

void
sl_segments_get_failure (const SlSegments *self,
                         guint             i,
                         SlFailureInfo    *info)
{
  g_return_if_fail (self != NULL && i < self->failures->len);
  *info = g_array_index (self->failures, SlFailureInfo, i);
}

/* The open window as it stands (NULL when there is none), made again
 * only when it changed: every packet taken counts in total[], every other
 * change of the open window in version. Its band is the cache's. */
const Window *
open_window (SlSegments *self)
{
  guint64 key[7] = { self->version, self->total[0], self->total[1], self->n[0], self->n[1],
                     (guint64) self->u, (guint64) self->last_x };

  if (!self->open || self->n[0] + self->n[1] == 0)
    return NULL;
  if (!self->open_w_valid || memcmp (key, self->open_w_key, sizeof key) != 0)
    {
      SlChain merged[2] = { { 0 } };

      band_clear (&self->open_w.band);
      open_chains (self, merged);
      window_init_from (self, &self->open_w, merged, self->u, self->last_x, self->raw, self->n);
      chains_clear (merged);
      memcpy (self->open_w_key, key, sizeof key);
      self->open_w_valid = TRUE;
    }
  /* window_init_from() starts it at u */
  self->open_w.valid_start = MAX (self->u, self->valid_start);
  self->open_w.lr = self->lr;
  self->open_w.pl = self->pl;
  return &self->open_w;
}

/* Every window, the open one last (as it stands). The caller frees the
 * bands. */
GArray *
all_windows (SlSegments *self)
{
  const Window *open = open_window (self);
  GArray *ws = g_array_sized_new (FALSE, TRUE, sizeof (Window), self->windows->len + 1);

  for (guint i = 0; i <= self->windows->len; i++)
    {
      Window w;

      if (i == self->windows->len && open == NULL)
        break;
      w = i < self->windows->len ? g_array_index (self->windows, Window, i) : *open;
      w.band.hi = g_memdup2 (w.band.hi, w.band.n_hi * sizeof (DPt));
      w.band.lo = g_memdup2 (w.band.lo, w.band.n_lo * sizeof (DPt));
      g_array_append_val (ws, w);
    }
  return ws;
}

void
windows_free (GArray *ws)
{
  for (guint i = 0; i < ws->len; i++)
    band_clear (&g_array_index (ws, Window, i).band);
  g_array_unref (ws);
}

guint
sl_segments_get_n_windows (SlSegments *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->windows->len + (self->open && self->n[0] + self->n[1] > 0 ? 1 : 0);
}

void
sl_segments_get_window (SlSegments   *self,
                        guint         i,
                        SlWindowInfo *info)
{
  GArray *ws;
  const Window *w;
  const Band *b;

  g_return_if_fail (self != NULL && info != NULL);
  g_return_if_fail (i < sl_segments_get_n_windows (self));

  ws = all_windows (self);
  w = &g_array_index (ws, Window, i);
  b = &w->band;
  info->start = self->x0 + b->u;
  info->end = self->x0 + b->v;
  info->quality = w->quality;
  info->n_ab = w->n[0];
  info->n_ba = w->n[1];
  info->accurate_packets = w->accurate;
  info->alpha_min = b->has_lmin ? b->amin : NAN;
  info->alpha_max = b->has_lmax ? b->amax : NAN;
  info->delta_ns = b->kappa * ((double) (b->v - b->u)) * ((double) (b->v - b->u)) / 8;
  info->band_ns = band_ok (b) ? MAX (band_hi (b, (double) b->u) - band_lo (b, (double) b->u),
                                     band_hi (b, (double) b->v) - band_lo (b, (double) b->v)) : INFINITY;
  info->failed_after = w->failed_after;
  info->valid_start = self->x0 + w->valid_start;
  info->valid_end = self->x0 + w->valid_end;
  windows_free (ws);
}

/* After the first window the open window has no plain hull: its numbers
 * come from its band (the relaxed lines, their bisector, its hull). */
static void
open_window_result (const SlSegments *self,
                    const Window     *w,
                    SlHullResult     *r)
{
  const Band *b = &w->band;

  r->quality = w->quality;
  r->reason = w->quality == SL_QUALITY_ACCURATE ? "" : "the open window's band is not accurate";
  r->hull_points[0] = w->hull_points[0];
  r->hull_points[1] = w->hull_points[1];
  r->span_end = self->x0 + b->v;
  r->has_lmin = b->has_lmin && b->n_hi > 0;
  r->has_lmax = b->has_lmax && b->n_lo > 0;
  r->alpha_min = r->has_lmin ? b->amin : NAN;
  r->alpha_max = r->has_lmax ? b->amax : NAN;
  if (r->has_lmin)
    sl_transform_init (&r->lmin, self->x0 + (gint64) llround (b->hi[0].x), self->y0 + (gint64) llround (b->hi[0].y),
                       0.0, b->amin - 1.0);
  if (r->has_lmax)
    sl_transform_init (&r->lmax, self->x0 + (gint64) llround (b->lo[0].x), self->y0 + (gint64) llround (b->lo[0].y),
                       0.0, b->amax - 1.0);
  r->accuracy = INFINITY;
  r->band_ns = r->bound_ns = INFINITY;
  r->has_estimate = FALSE;
  if (band_ok (b))
    {
      gint64 xm = b->u + (b->v - b->u) / 2;
      double slope, y = band_bisector (b, (double) xm, &slope), whole = floor (y);

      sl_transform_init (&r->estimate, self->x0 + xm, self->y0 + (gint64) whole, y - whole, slope - 1.0);
      r->has_estimate = TRUE;
      r->accuracy = b->amax - b->amin;
      r->band_ns = MAX (band_hi (b, (double) b->u) - band_lo (b, (double) b->u),
                        band_hi (b, (double) b->v) - band_lo (b, (double) b->v));
      r->bound_ns = r->band_ns / 2;
    }
}

/**
 * sl_segments_get_result:
 *
 * The link as a whole in #SlHullResult terms: quality over the windows
 * (accurate when one window's band is), counts and accurate packets summed,
 * and the raw numbers (alpha range, lines, hull points, estimate) of the
 * open window (all of the link when it has one window).
 */
void
sl_segments_get_result (SlSegments   *self,
                        SlHullResult *result)
{
  guint64 accurate = 0;
  gboolean any_accurate = FALSE, any_fail = FALSE;

  g_return_if_fail (self != NULL && result != NULL);

  if (self->raw != NULL)
    sl_hull_get_result (self->raw, result);
  else
    {
      SlHull *empty = sl_hull_new (self->o.max_drift);
      sl_hull_get_result (empty, result);
      sl_hull_free (empty);
    }

  for (guint i = 0; i < self->windows->len; i++)
    {
      const Window *w = &g_array_index (self->windows, Window, i);

      accurate += w->accurate;
      any_accurate |= w->quality == SL_QUALITY_ACCURATE;
      any_fail |= w->quality == SL_QUALITY_FAIL;
    }
  result->accurate_packets += accurate;
  result->n_ab = self->total[0];
  result->n_ba = self->total[1];
  if (self->windows->len == 0 && self->kappa == 0)
    return;

  {
    GArray *ws = all_windows (self);
    const Window *last = ws->len > 0 ? &g_array_index (ws, Window, ws->len - 1) : NULL;

    if (last != NULL)
      {
        any_accurate |= last->quality == SL_QUALITY_ACCURATE;
        any_fail |= last->quality == SL_QUALITY_FAIL;
        if (self->raw == NULL)
          open_window_result (self, last, result);
      }
    result->span_start = self->x0 + (ws->len > 0 ? g_array_index (ws, Window, 0).band.u : 0);
    if (self->total[0] == 0 || self->total[1] == 0)
      ;
    else if (any_accurate)
      {
        result->quality = SL_QUALITY_ACCURATE;
        result->reason = "";
      }
    else if (any_fail)
      {
        result->quality = SL_QUALITY_FAIL;
        result->reason = "hulls cross even allowing for the clock rates' changes: a clock step or "
                         "mismatched packets throughout";
      }
    else if (last != NULL && last->quality == SL_QUALITY_APPROXIMATE && result->quality == SL_QUALITY_ACCURATE)
      {
        result->quality = SL_QUALITY_APPROXIMATE;
        result->reason = "the band allows implausible clock rates once the rates' changes are allowed for";
      }
    windows_free (ws);
  }
}
