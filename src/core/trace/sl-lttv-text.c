/* sl-lttv-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "sl-feed.h"
#include "sl-lttv-text.h"
#include "sl-safe-io.h"

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

  g_return_val_if_fail (str != NULL && ns != NULL, FALSE);

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

  if (!sl_safe_read_file (path, SL_LTTV_MAX_BYTES, (guint8 **) &contents, &len, NULL))
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

typedef struct
{
  const char *path;
  guint64     n_traces;
  guint      *hosts;
  gint64     *first;
  gboolean   *has_first;
} Load;

/* A time of one trace: within ±SL_MAX_ABS_TIME_NS, and a trace's times
 * may span at most SL_HOST_MAX_SPAN_NS: the estimators' 64-bit
 * arithmetic's room (sl-feed.h). */
static gboolean
check_span (Load        *l,
            guint64      trace,
            gint64       ns,
            const char  *text,
            guint        line,
            GError     **error)
{
  if (ns > SL_MAX_ABS_TIME_NS || ns < -SL_MAX_ABS_TIME_NS)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                   "%s:%u: time %s s is out of range: at most ±%" G_GINT64_FORMAT " s (the estimators compute "
                   "in 64-bit nanoseconds)", l->path, line, text, SL_MAX_ABS_TIME_NS / G_GINT64_CONSTANT (1000000000));
      return FALSE;
    }
  if (!l->has_first[trace])
    {
      l->has_first[trace] = TRUE;
      l->first[trace] = ns;
      return TRUE;
    }
  if ((__int128) ns - l->first[trace] <= SL_HOST_MAX_SPAN_NS && (__int128) l->first[trace] - ns <= SL_HOST_MAX_SPAN_NS)
    return TRUE;
  g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
               "%s:%u: time %s s is out of range: the times of one trace may span at most %" G_GINT64_FORMAT
               " s (about 18 years; the estimators compute in 64-bit nanoseconds)",
               l->path, line, text, SL_HOST_MAX_SPAN_NS / G_GINT64_CONSTANT (1000000000));
  return FALSE;
}

/* A number that is no time we can hold (too large, infinite): said so,
 * rather than "expected …". */
static gboolean
time_out_of_range (Load        *l,
                   const char  *text,
                   guint        number,
                   GError     **error)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  if (end == text || *end != '\0' || isnan (v))
    return FALSE;
  g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
               "%s:%u: time %s s is out of range: at most ±%" G_GINT64_FORMAT " s (the estimators compute "
               "in 64-bit nanoseconds)", l->path, number, text, SL_MAX_ABS_TIME_NS / G_GINT64_CONSTANT (1000000000));
  return TRUE;
}

/* "sender receiver send_time receive_time" into a match. */
static gboolean
parse_packet (Load        *l,
              char        *line,
              guint        number,
              SlMatch     *m,
              GError     **error)
{
  g_auto(GStrv) fields = g_strsplit_set (line, " \t", 0);
  guint64 snd, rcv;
  guint nf = 0;

  /* the empty fields (runs of blanks) out, freed */
  for (guint k = 0; fields[k] != NULL; k++)
    {
      char *f = fields[k];

      fields[k] = NULL;
      if (*f != '\0')
        fields[nf++] = f;
      else
        g_free (f);
    }

  if (nf == 4 && !sl_parse_seconds_ns (fields[2], &m->send_time) && time_out_of_range (l, fields[2], number, error))
    return FALSE;
  if (nf == 4 && !sl_parse_seconds_ns (fields[3], &m->recv_time) && time_out_of_range (l, fields[3], number, error))
    return FALSE;
  if (nf != 4 ||
      !g_ascii_string_to_unsigned (fields[0], 10, 0, l->n_traces - 1, &snd, NULL) ||
      !g_ascii_string_to_unsigned (fields[1], 10, 0, l->n_traces - 1, &rcv, NULL) ||
      !sl_parse_seconds_ns (fields[2], &m->send_time) ||
      !sl_parse_seconds_ns (fields[3], &m->recv_time))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                   "%s:%u: expected “sender receiver send_time receive_time” "
                   "with trace numbers below %" G_GUINT64_FORMAT " and times in seconds",
                   l->path, number, l->n_traces);
      return FALSE;
    }
  if (snd == rcv)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                   "%s:%u: a packet from trace %" G_GUINT64_FORMAT " to itself", l->path, number, snd);
      return FALSE;
    }
  if (!check_span (l, snd, m->send_time, fields[2], number, error) ||
      !check_span (l, rcv, m->recv_time, fields[3], number, error))
    return FALSE;
  m->send_host = l->hosts[snd];
  m->recv_host = l->hosts[rcv];
  return TRUE;
}

static gboolean
parse_count (Load        *l,
             SlEngine    *engine,
             const char  *line,
             guint        number,
             GError     **error)
{
  if (!g_ascii_string_to_unsigned (line, 10, 1, MAX_TRACES, &l->n_traces, NULL))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                   "%s:%u: expected the number of traces (1 to %u), found “%s”", l->path, number, MAX_TRACES, line);
      return FALSE;
    }
  l->hosts = g_new (guint, l->n_traces);
  l->first = g_new (gint64, l->n_traces);
  l->has_first = g_new0 (gboolean, l->n_traces);
  for (guint64 k = 0; k < l->n_traces; k++)
    {
      char name[24];

      g_snprintf (name, sizeof name, "%" G_GUINT64_FORMAT, k);
      l->hosts[k] = sl_engine_add_host (engine, name);
    }
  return TRUE;
}

/**
 * sl_lttv_text_load:
 *
 * Reads an LTTV unit-case file (at most SL_LTTV_MAX_BYTES, never a FIFO or
 * a device) into @engine: sl_lttv_text_load_data() on its contents.
 */
gboolean
sl_lttv_text_load (SlEngine    *engine,
                   const char  *path,
                   GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize len;

  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!sl_safe_read_file (path, SL_LTTV_MAX_BYTES, (guint8 **) &contents, &len, &local_error))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", path, local_error->message);
      return FALSE;
    }
  return sl_lttv_text_load_data (engine, path, contents, len, error);
}

/**
 * sl_lttv_text_load_data:
 * @name: the file's name, for the messages
 * @data: (array length=len): the file's contents (need not end in NUL)
 *
 * Reads LTTV unit-case text into @engine. Errors name the file and line:
 * malformed lines, trace numbers out of range, times beyond ±2305843009 s
 * or whose trace's times span more than 18 years (what the estimators can
 * compute with, sl-feed.h).
 */
gboolean
sl_lttv_text_load_data (SlEngine    *engine,
                        const char  *name,
                        const char  *data,
                        gsize        len,
                        GError     **error)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  Load l = { name };
  gboolean ret = FALSE;

  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if (len == 0)
    data = "";
  if (len > SL_LTTV_MAX_BYTES || memchr (data, '\0', len) != NULL || !g_utf8_validate (data, (gssize) len, NULL))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                   "%s: not a text file (LTTV unit-case format expected)", name);
      return FALSE;
    }

  contents = g_strndup (data, len);
  lines = g_strsplit (contents, "\n", 0);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = strip_comment (lines[i]);
      SlMatch m = { 0 };

      if (*line == '\0')
        continue;
      if (l.n_traces == 0)
        {
          if (!parse_count (&l, engine, line, i + 1, error))
            goto out;
          continue;
        }
      if (!parse_packet (&l, line, i + 1, &m, error))
        goto out;
      sl_engine_add_match (engine, &m, m.recv_time);
    }

  if (l.n_traces == 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                   "%s: empty (expected the number of traces, then packets)", name);
      goto out;
    }

  sl_engine_flush (engine);
  ret = TRUE;

out:
  g_free (l.hosts);
  g_free (l.first);
  g_free (l.has_first);
  return ret;
}
