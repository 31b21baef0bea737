/* sl-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-trace-problem.h"
#include "sl-units.h"

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

/* @accuracy: alpha_max - alpha_min (a relative rate): as the text report
 * writes rates (sl_units_rate()) */
char *
sl_format_ppm (double accuracy)
{
  if (!isfinite (accuracy))
    return g_strdup (C_("accuracy", "unbounded"));
  return sl_units_rate (accuracy);
}

/* What the bounds guarantee of a drift shown beside it (an estimate):
 * the interval of the true drift (slope − 1), as the text report writes
 * it (sl_units_drift_range()); @lo NAN: nothing guarantees one there */
char *
sl_format_drift_range (double lo,
                       double hi)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  if (!sl_units_drift_range (lo, hi, &a, &b))
    return g_strdup (_("the drift is an estimate; no interval of it is guaranteed there"));
  return g_strdup_printf (_("the drift is an estimate, guaranteed between %s and %s ppm"), a, b);
}

/* Bounds, bands and durations: as the text report writes them
 * (sl_units_size(): whole ns below a µs, then four significant digits,
 * zeros kept), negative ones with a minus sign */
char *
sl_format_ns (double ns)
{
  g_autofree char *size = NULL;

  if (!isfinite (ns))
    return g_strdup ("—");
  size = sl_units_size (ns);
  if (ns < 0 && g_strcmp0 (size, "0 ns") != 0)
    return g_strdup_printf ("\u2212%s", size);
  return g_steal_pointer (&size);
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

/* An input time (the journal's: the merge order's clock) from @origin,
 * the first matched packet's */
char *
sl_format_time (gint64 t,
                gint64 origin)
{
  return g_strdup_printf ("%+.6f s", (double) (t - origin) / 1e9);
}

/* What sl_format_time() counts from, for its cell's tooltip */
char *
sl_format_time_tooltip (gint64 t,
                        gint64 origin)
{
  g_autofree char *time = sl_format_time (t, origin);

  /* Translators: %s is a time such as "+0.503793 s"; the traces are read
   * in the order of their clocks, each packet at its own time */
  return g_strdup_printf (_("%s into the input (from its first matched packet)"), time);
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

/* A host as people read it: a trace without a host name ("unknown (DIR)"
 * for the reader) by the last two folders of DIR. */
char *
sl_format_host_label (const char *host)
{
  g_autofree char *dir = NULL;
  g_autofree char *last = NULL;
  g_autofree char *up = NULL;
  g_autofree char *parent = NULL;

  g_return_val_if_fail (host != NULL, NULL);

  if (!g_str_has_prefix (host, "unknown (") || !g_str_has_suffix (host, ")"))
    return g_strdup (host);
  dir = g_strndup (host + strlen ("unknown ("), strlen (host) - strlen ("unknown (") - 1);
  last = g_path_get_basename (dir);
  up = g_path_get_dirname (dir);
  parent = g_path_get_basename (up);
  return g_strdup_printf ("%s/%s", parent, last);
}

/* What a toast says of a host, or of a file without a host: the host (see
 * sl_format_host_label()) or the file's name, and the message's first
 * clause, never an address. The whole message stays in the host's row. */
char *
sl_format_problem_short (const char *host,
                         const char *file,
                         const char *message)
{
  g_autofree char *what = sl_trace_problem_first_clause (message != NULL ? message : "");
  g_autofree char *who = NULL;

  if (host != NULL)
    who = sl_format_host_label (host);
  else if (file != NULL)
    who = g_path_get_basename (file);
  else
    who = g_strdup ("?");
  if (what[0] == '\0')
    return g_steal_pointer (&who);
  return g_strdup_printf ("%s: %s", who, what);
}
