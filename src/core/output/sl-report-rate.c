/* sl-report-rate.c: the guaranteed drift interval of links and hosts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sl-report.h"
#include "sl-units.h"

/*
 * The drift shown is an estimate: the slope of the map's piece where it
 * is read. What the bounds guarantee is an interval of the true rate at
 * that instant: each link's windows give one (sl-rates.c), and a host's
 * map is the composition of its path's links, whose rate is the product
 * of theirs, each taken at the instant the path reaches its clock (known
 * within the bound accumulated so far).
 */

/**
 * sl_report_drift_interval:
 * @links: (array): every link, by engine index
 * @link_relations: (array): each link's relation from its engine a to its
 *   b, or %NULL
 * @pairs: sl_report_link_pairs() of @links
 * @path: (array length=path_len): the host's path to its reference, the
 *   host first
 * @at: where the host's drift is read, on its clock
 *   (sl_report_drift_start())
 * @lo, @hi: (out): the interval the true drift of the host's clock against
 *   its reference's lies in at @at (slope − 1)
 *
 * Returns: %FALSE when nothing bounds it (a link of the path without an
 *   accurate window, an infinite bound on the way)
 */
gboolean
sl_report_drift_interval (const SlReportLink *links,
                          SlRelation * const *link_relations,
                          GHashTable         *pairs,
                          const guint        *path,
                          guint               path_len,
                          gint64              at,
                          double             *lo,
                          double             *hi)
{
  double plo = 1, phi = 1, slack = 0;
  gint64 x = at;

  g_return_val_if_fail (pairs != NULL && lo != NULL && hi != NULL, FALSE);

  if (path_len < 2 || at == G_MAXINT64)
    return FALSE;
  for (guint k = 0; k + 1 < path_len; k++)
    {
      gint64 key = _sl_report_pair_key (path[k], path[k + 1]);
      guint l = GPOINTER_TO_UINT (g_hash_table_lookup (pairs, &key));
      const SlRelation *rel;
      double rlo, rhi, b;

      if (l-- == 0 || (rel = link_relations[l]) == NULL)
        return FALSE;
      if (links[l].info.a == path[k])
        {
          if (!sl_relation_rate_at (rel, x, slack, &rlo, &rhi))
            return FALSE;
          /* where the truth reaches the next clock: within the rate
           * times where it may start, plus the link's bound */
          b = sl_relation_bound_at (rel, x);
          x = sl_relation_apply (rel, x);
          slack = rhi * slack + b + 1;
        }
      else
        {
          gint64 xa = sl_relation_preimage (rel, x);
          double lo0, hi0, s, flo, fhi;

          /* |x* − f(xa)| <= slack + b, so xa is known within that over
           * f's least rate (its bound at xa itself, less a margin for
           * how far around it: κ·s is far below 1e-3 for any finite
           * s of hours) */
          b = sl_relation_bound_at (rel, xa);
          if (!sl_relation_rate_at (rel, xa, 0, &lo0, &hi0) || lo0 <= 2e-3)
            return FALSE;
          s = (slack + b + 1) / (lo0 - 1e-3);
          /* s rests on the rate over xa ± s being at least lo0 − 1e-3 */
          if (!sl_relation_rate_at (rel, xa, s, &flo, &fhi) || !(flo > 0) || flo < lo0 - 1e-3)
            return FALSE;
          /* t_a = f⁻¹(t_b): its rate is 1/f' */
          rlo = 1 / fhi;
          rhi = 1 / flo;
          x = xa;
          slack = s;
        }
      if (!isfinite (slack) || !(rlo > 0) || !(rhi >= rlo))
        return FALSE;
      plo *= rlo;
      phi *= rhi;
    }
  /* the products' rounding, outwards */
  *lo = plo * (1 - 1e-15) - 1;
  *hi = phi * (1 + 1e-15) - 1;
  return TRUE;
}

/**
 * sl_report_link_drift_interval:
 * @rl: a link as reported (a and b by name)
 * @relation: (nullable): its map from the engine's a to its b
 * @lo, @hi: (out): the interval the true drift of @rl's b against its a
 *   lies in where the link's drift is read (sl_report_link_start()'s
 *   @rate_at: its first accurate window's first packet)
 *
 * Returns: %FALSE when nothing bounds it
 */
gboolean
sl_report_link_drift_interval (const SlReportLink *rl,
                               const SlRelation   *relation,
                               double             *lo,
                               double             *hi)
{
  gint64 from;
  double rlo, rhi;

  g_return_val_if_fail (rl != NULL && lo != NULL && hi != NULL, FALSE);

  if (relation == NULL || (from = _sl_report_link_data_start (rl, relation)) == G_MAXINT64 ||
      !sl_relation_rate_at (relation, from, 0, &rlo, &rhi) || !(rlo > 0))
    return FALSE;
  if (rl->flipped)
    {
      double t = rlo;

      rlo = 1 / rhi;
      rhi = 1 / t;
    }
  *lo = rlo * (1 - 1e-15) - 1;
  *hi = rhi * (1 + 1e-15) - 1;
  return TRUE;
}

/* The interval the true drift lies in where it is read (null ends when
 * nothing bounds it): the drift shown is an estimate inside it. */
void
_sl_report_json_drift_range (SlJsonOut    *o,
                             const double *range)
{
  if (isnan (range[0]))
    {
      sl_json_out_null (o, "drift_min_ppm");
      sl_json_out_null (o, "drift_max_ppm");
      return;
    }
  sl_json_out_number (o, "drift_min_ppm", range[0] * 1e6);
  sl_json_out_number (o, "drift_max_ppm", range[1] * 1e6);
}

/* The drift of b against a where the link's relation first rests on
 * packets (sl_report_link_start()), on a's clock, and what is guaranteed
 * of it there; nulls without an estimate. */
void
_sl_report_json_link_drift (SlJsonOut          *o,
                            SlEngine           *engine,
                            const SlReportLink *rl)
{
  g_autoptr(SlRelation) relation = sl_engine_get_link_relation (engine, rl->link);
  SlTransform map, rate;
  gint64 start, rate_at;
  double range[2] = { NAN, NAN };

  if (!sl_report_link_start (rl, relation, &start, &map, &rate, &rate_at))
    {
      sl_json_out_null (o, "drift_ppm");
      sl_json_out_null (o, "drift_at_ns");
      _sl_report_json_drift_range (o, range);
      return;
    }
  sl_json_out_number (o, "drift_ppm", rate.drift * 1e6);
  sl_json_out_int (o, "drift_at_ns", rate_at);
  if (!sl_report_link_drift_interval (rl, relation, &range[0], &range[1]))
    range[0] = range[1] = NAN;
  _sl_report_json_drift_range (o, range);
}

/* What the bounds guarantee of the drift just printed (an estimate). */
void
_sl_report_text_drift_range (GString *s,
                             double   lo,
                             double   hi)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  if (sl_units_drift_range (lo, hi, &a, &b))
    g_string_append_printf (s, "      drift guaranteed between %s and %s ppm there (the drift above is an estimate)\n",
                            a, b);
  else
    g_string_append (s, "      drift: an estimate, no interval guaranteed there\n");
}
