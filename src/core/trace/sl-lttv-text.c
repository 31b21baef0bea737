/* sl-lttv-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "sl-lttv-text.h"

/*
 * The format of LTTV's lttv/sync unit tests: '#' starts a comment; the first
 * other line holds the number of traces; each further line is
 * `sender receiver send_time receive_time`, times in seconds on the sender's
 * and the receiver's clock. Traces are named by their number ("0", "1", …).
 * The journal's input time of a packet is its receive time.
 */

#define MAX_TRACES 100000

/* Exact decimal seconds -> ns, so "48.85" is 48 850 000 000 and not one
 * nanosecond off as a double product would make it. */
gboolean
sl_parse_seconds_ns (const char *str,
                     gint64     *ns)
{
  const char *p = str;
  gboolean neg = FALSE;
  guint64 whole = 0, frac = 0;
  int frac_digits = 0, digits = 0;
  gboolean round_up = FALSE;

  if (*p == '-' || *p == '+')
    neg = *p++ == '-';

  for (; g_ascii_isdigit (*p); p++, digits++)
    {
      if (whole > (G_MAXINT64 / G_GINT64_CONSTANT (1000000000) - 9) / 10)
        return FALSE;
      whole = whole * 10 + (guint64) (*p - '0');
    }

  if (*p == '.')
    {
      for (p++; g_ascii_isdigit (*p); p++, digits++)
        {
          if (frac_digits < 9)
            {
              frac = frac * 10 + (guint64) (*p - '0');
              frac_digits++;
            }
          else if (frac_digits == 9)
            {
              round_up = *p >= '5';
              frac_digits++;
            }
        }
    }

  if (*p != '\0' || digits == 0)
    {
      /* Exponent forms and the like: accept through strtod if finite. */
      char *end = NULL;
      double v = g_ascii_strtod (str, &end);

      if (end == str || *end != '\0' || !isfinite (v) || fabs (v) > 9.2e9)
        return FALSE;
      *ns = (gint64) llround (v * 1e9);
      return TRUE;
    }

  for (; frac_digits < 9; frac_digits++)
    frac *= 10;

  *ns = (gint64) (whole * G_GUINT64_CONSTANT (1000000000) + frac + (round_up ? 1 : 0));
  if (neg)
    *ns = -*ns;
  return TRUE;
}

static char *
strip_comment (char *line)
{
  char *hash = strchr (line, '#');

  if (hash != NULL)
    *hash = '\0';
  return g_strstrip (line);
}

gboolean
sl_lttv_text_looks_like (const char *path)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gsize len;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  if (!g_file_get_contents (path, &contents, &len, NULL))
    return FALSE;
  if (memchr (contents, '\0', len) != NULL)
    return FALSE;

  lines = g_strsplit (contents, "\n", 0);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = strip_comment (lines[i]);
      guint64 n;

      if (*line == '\0')
        continue;
      return g_ascii_string_to_unsigned (line, 10, 1, MAX_TRACES, &n, NULL);
    }
  return FALSE;
}

gboolean
sl_lttv_text_load (SlEngine    *engine,
                   const char  *path,
                   GError     **error)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GError *local_error = NULL;
  guint64 n_traces = 0;
  guint *hosts = NULL;
  gsize len;
  gboolean ret = FALSE;

  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!g_file_get_contents (path, &contents, &len, &local_error))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s", local_error->message);
      g_error_free (local_error);
      return FALSE;
    }
  if (memchr (contents, '\0', len) != NULL || !g_utf8_validate (contents, len, NULL))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                   "%s: not a text file (LTTV unit-case format expected)", path);
      return FALSE;
    }

  lines = g_strsplit (contents, "\n", 0);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = strip_comment (lines[i]);
      g_auto(GStrv) fields = NULL;
      gint64 t_send, t_recv;
      guint64 snd, rcv;
      SlMatch m;
      guint nf;

      if (*line == '\0')
        continue;

      if (n_traces == 0)
        {
          if (!g_ascii_string_to_unsigned (line, 10, 1, MAX_TRACES, &n_traces, NULL))
            {
              g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                           "%s:%u: expected the number of traces (1 to %u), found “%s”",
                           path, i + 1, MAX_TRACES, line);
              goto out;
            }
          hosts = g_new (guint, n_traces);
          for (guint64 k = 0; k < n_traces; k++)
            {
              char name[24];
              g_snprintf (name, sizeof name, "%" G_GUINT64_FORMAT, k);
              hosts[k] = sl_engine_add_host (engine, name);
            }
          continue;
        }

      fields = g_strsplit_set (line, " \t", 0);
      nf = 0;
      for (guint k = 0; fields[k] != NULL; k++)
        if (*fields[k] != '\0')
          fields[nf++] = fields[k];
      for (guint k = nf; fields[k] != NULL; k++)
        fields[k] = NULL;

      if (nf != 4 ||
          !g_ascii_string_to_unsigned (fields[0], 10, 0, n_traces - 1, &snd, NULL) ||
          !g_ascii_string_to_unsigned (fields[1], 10, 0, n_traces - 1, &rcv, NULL) ||
          !sl_parse_seconds_ns (fields[2], &t_send) ||
          !sl_parse_seconds_ns (fields[3], &t_recv))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                       "%s:%u: expected “sender receiver send_time receive_time” "
                       "with trace numbers below %" G_GUINT64_FORMAT " and times in seconds",
                       path, i + 1, n_traces);
          goto out;
        }
      if (snd == rcv)
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                       "%s:%u: a packet from trace %" G_GUINT64_FORMAT " to itself",
                       path, i + 1, snd);
          goto out;
        }

      m.send_host = hosts[snd];
      m.recv_host = hosts[rcv];
      m.send_time = t_send;
      m.recv_time = t_recv;
      sl_engine_add_match (engine, &m, t_recv);
    }

  if (n_traces == 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                   "%s: empty (expected the number of traces, then packets)", path);
      goto out;
    }

  sl_engine_flush (engine);
  ret = TRUE;

out:
  g_free (hosts);
  return ret;
}
