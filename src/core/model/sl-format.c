/* sl-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-format.h"

const char *
sl_format_quality (SlQuality quality)
{
  switch (quality)
    {
    case SL_QUALITY_ABSENT:
      return C_("quality", "absent");
    case SL_QUALITY_INCOMPLETE:
      return C_("quality", "incomplete");
    case SL_QUALITY_APPROXIMATE:
      return C_("quality", "approximate");
    case SL_QUALITY_ACCURATE:
      return C_("quality", "accurate");
    case SL_QUALITY_FAIL:
      return C_("quality", "fail");
    default:
      return "?";
    }
}

/* @accuracy: alpha_max - alpha_min (a relative rate) */
char *
sl_format_ppm (double accuracy)
{
  if (!isfinite (accuracy))
    return g_strdup (C_("accuracy", "unbounded"));
  double ppm = accuracy * 1e6;

  /* Translators: parts per million */
  if (ppm >= 100)
    return g_strdup_printf (_("%.0f ppm"), ppm);
  if (ppm >= 0.01)
    return g_strdup_printf (_("%.3g ppm"), ppm);
  return g_strdup_printf (_("%.2e ppm"), ppm);
}

char *
sl_format_ns (double ns)
{
  double a = fabs (ns);

  if (!isfinite (ns))
    return g_strdup ("—");
  if (a < 1e3)
    return g_strdup_printf ("%.3g ns", ns);
  if (a < 1e6)
    return g_strdup_printf ("%.4g µs", ns / 1e3);
  if (a < 1e9)
    return g_strdup_printf ("%.4g ms", ns / 1e6);
  if (a < 1e12)
    return g_strdup_printf ("%.6g s", ns / 1e9);
  return g_strdup_printf ("%.4g h", ns / 3.6e12);
}

char *
sl_format_count (guint64 n)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

char *
sl_format_slope (double slope)
{
  if (!isfinite (slope))
    return g_strdup ("—");
  return g_strdup_printf ("%.12f", slope);
}

char *
sl_format_time (gint64 t,
                gint64 origin)
{
  return g_strdup_printf ("%+.6f s", (double) (t - origin) / 1e9);
}

const char *
sl_format_change_kind (SlChangeKind kind)
{
  switch (kind)
    {
    case SL_CHANGE_LINK:
      return C_("change", "link");
    case SL_CHANGE_TREE_EDGE_IN:
      return C_("change", "joined the tree");
    case SL_CHANGE_TREE_EDGE_OUT:
      return C_("change", "left the tree");
    case SL_CHANGE_REFERENCE:
      return C_("change", "reference");
    case SL_CHANGE_TRANSFORM:
      return C_("change", "transform");
    default:
      return "?";
    }
}
