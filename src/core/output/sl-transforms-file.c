/* sl-transforms-file.c: the hosts' clock relations saved and read back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "sl-transforms-file.h"
#include "sl-types.h"

/*
 * The format (version 1), one item per line, `#` starts a comment line:
 *
 *   syncline-transforms 1
 *   host "NAME"
 *     reference "NAME"                  the clock the relation maps to
 *     state synchronized|best-effort|alone
 *     export ORIGIN IMAGE FRAC DRIFT    the piece --export writes
 *     piece START ORIGIN IMAGE FRAC DRIFT   (START "-" for the first)
 *     bound X BOUND                     at least one, X increasing
 *     beyond bounded|unbounded
 *   end
 *
 * A piece is the map t → IMAGE + FRAC + (1 + DRIFT)·(t − ORIGIN) from
 * START to the next piece's START. Times (START, ORIGIN, IMAGE, X) are
 * 64-bit integers of ns. FRAC, DRIFT and BOUND are binary fractions
 * written exactly: an integer M, or M/2^K (M·2^−K), or M*2^K, or `inf` for
 * a bound; so reading gives back the very doubles that were saved and
 * every map is identical at every instant.
 */

struct _SlTransformSet
{
  GPtrArray  *hosts;
  GHashTable *by_name;
};

static void
saved_host_free (gpointer p)
{
  SlSavedHost *h = p;

  g_free (h->name);
  g_free (h->reference);
  g_clear_pointer (&h->relation, sl_relation_unref);
  g_free (h);
}

static SlTransformSet *
set_new (void)
{
  SlTransformSet *self = g_new0 (SlTransformSet, 1);

  self->hosts = g_ptr_array_new_with_free_func (saved_host_free);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  return self;
}

void
sl_transform_set_free (SlTransformSet *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_name);
  g_ptr_array_unref (self->hosts);
  g_free (self);
}

/**
 * sl_transform_set_new_from_engine:
 *
 * Every host of @engine with its relation to its reference as they are
 * now (for the engine's thread).
 */
SlTransformSet *
sl_transform_set_new_from_engine (SlEngine *engine)
{
  SlTransformSet *self;

  g_return_val_if_fail (engine != NULL, NULL);

  self = set_new ();
  for (guint i = 0; i < sl_engine_get_n_hosts (engine); i++)
    {
      SlSavedHost *h = g_new0 (SlSavedHost, 1);
      SlHostInfo info = { 0 };

      sl_engine_get_host_info (engine, i, &info);
      h->name = g_strdup (sl_engine_get_host_name (engine, i));
      h->reference = g_strdup (sl_engine_get_host_name (engine, info.reference != SL_HOST_NONE ? info.reference : i));
      h->synchronized = info.synchronized;
      h->best_effort = info.best_effort;
      h->to_reference = info.to_reference;
      h->relation = sl_relation_ref (info.relation);
      sl_host_info_clear (&info);
      g_ptr_array_add (self->hosts, h);
      g_hash_table_insert (self->by_name, h->name, h);
    }
  return self;
}

/**
 * sl_transform_set_fix_engine:
 * @source: what the engine names as the relations' origin (the file's name)
 *
 * The inverse of sl_transform_set_new_from_engine(): @engine keeps this
 * set's relation for each of its hosts (sl_engine_fix_host(), matched by
 * name as they are added), never synchronizing them again.
 */
void
sl_transform_set_fix_engine (const SlTransformSet *self,
                             SlEngine             *engine,
                             const char           *source)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (engine != NULL);

  for (guint i = 0; i < self->hosts->len; i++)
    {
      const SlSavedHost *h = g_ptr_array_index (self->hosts, i);

      sl_engine_fix_host (engine, h->name, h->reference, h->relation, &h->to_reference, h->synchronized,
                          h->best_effort, source);
    }
}

guint
sl_transform_set_get_n_hosts (const SlTransformSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->hosts->len;
}

const SlSavedHost *
sl_transform_set_get_host (const SlTransformSet *self,
                           guint                 i)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (i < self->hosts->len, NULL);
  return g_ptr_array_index (self->hosts, i);
}

const SlSavedHost *
sl_transform_set_lookup (const SlTransformSet *self,
                         const char           *name)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  return g_hash_table_lookup (self->by_name, name);
}

/* ---------------------------------------------------------------------- */
/* Writing                                                                 */

/* A double exactly: M, M/2^K or M*2^K (M has at most 53 bits). */
static void
append_exact (GString *s,
              double   v)
{
  int e;
  double f;
  gint64 m;

  if (isinf (v))
    {
      g_string_append (s, v > 0 ? "inf" : "-inf");
      return;
    }
  if (v == 0)
    {
      g_string_append (s, "0");
      return;
    }
  f = frexp (v, &e);
  m = (gint64) ldexp (f, 53);
  e -= 53;
  while ((m & 1) == 0 && e < 0)
    {
      m /= 2;
      e++;
    }
  if (e == 0)
    g_string_append_printf (s, "%" G_GINT64_FORMAT, m);
  else if (e < 0)
    g_string_append_printf (s, "%" G_GINT64_FORMAT "/2^%d", m, -e);
  else
    g_string_append_printf (s, "%" G_GINT64_FORMAT "*2^%d", m, e);
}

static void
append_map (GString           *s,
            const SlTransform *t)
{
  g_string_append_printf (s, " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " ", t->origin, t->image);
  append_exact (s, t->image_frac);
  g_string_append_c (s, ' ');
  append_exact (s, t->drift);
}

static void
append_quoted (GString    *s,
               const char *text)
{
  g_autofree char *esc = g_strescape (text, NULL);

  g_string_append_printf (s, "\"%s\"", esc);
}

char *
sl_transform_set_to_string (const SlTransformSet *self)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, NULL);

  g_string_append (s, "# Syncline clock transforms: each host's clock to its reference's (see README)\n");
  g_string_append_printf (s, "syncline-transforms %d\n", SL_TRANSFORMS_FILE_VERSION);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      const SlSavedHost *h = g_ptr_array_index (self->hosts, i);
      const SlBoundPoint *b = sl_relation_get_bounds (h->relation);

      g_string_append (s, "host ");
      append_quoted (s, h->name);
      g_string_append (s, "\n  reference ");
      append_quoted (s, h->reference);
      g_string_append_printf (s, "\n  state %s\n  export",
                              h->synchronized ? "synchronized" : h->best_effort ? "best-effort" : "alone");
      append_map (s, &h->to_reference);
      g_string_append_c (s, '\n');
      for (guint k = 0; k < sl_relation_get_n_pieces (h->relation); k++)
        {
          SlTransform t;
          gint64 start = sl_relation_get_piece (h->relation, k, &t);

          if (k == 0)
            g_string_append (s, "  piece -");
          else
            g_string_append_printf (s, "  piece %" G_GINT64_FORMAT, start);
          append_map (s, &t);
          g_string_append_c (s, '\n');
        }
      for (guint k = 0; k < sl_relation_get_n_bounds (h->relation); k++)
        {
          g_string_append_printf (s, "  bound %" G_GINT64_FORMAT " ", b[k].x);
          append_exact (s, b[k].bound);
          g_string_append_c (s, '\n');
        }
      g_string_append_printf (s, "  beyond %s\nend\n",
                              sl_relation_get_bounded_beyond (h->relation) ? "bounded" : "unbounded");
    }
  return g_string_free (s, FALSE);
}

gboolean
sl_transform_set_save (const SlTransformSet  *self,
                       const char            *path,
                       GError               **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  text = sl_transform_set_to_string (self);
  return g_file_set_contents (path, text, -1, error);
}

/* ---------------------------------------------------------------------- */
/* Reading                                                                 */

typedef struct
{
  const char  *path;
  guint        line;
  GError     **error;
} Reader;

static gboolean G_GNUC_PRINTF (2, 3)
fail (Reader     *r,
      const char *fmt,
      ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, fmt);
  msg = g_strdup_vprintf (fmt, args);
  va_end (args);
  g_set_error (r->error, SL_ERROR, SL_ERROR_INVALID, "%s:%u: %s", r->path, r->line, msg);
  return FALSE;
}

static gboolean
parse_int (Reader     *r,
           const char *word,
           const char *what,
           gint64     *out)
{
  if (word == NULL)
    return fail (r, "%s missing", what);
  if (!g_ascii_string_to_signed (word, 10, G_MININT64, G_MAXINT64, out, NULL))
    return fail (r, "%s: “%s” is not a 64-bit integer", what, word);
  return TRUE;
}

static gboolean
parse_exact (Reader     *r,
             const char *word,
             const char *what,
             double     *out)
{
  g_autofree char *m_text = NULL;
  const char *sep;
  gint64 m;
  guint64 k = 0;
  int sign = 0;

  if (word == NULL)
    return fail (r, "%s missing", what);
  if (g_str_equal (word, "inf"))
    {
      *out = INFINITY;
      return TRUE;
    }
  if ((sep = strstr (word, "/2^")) != NULL)
    sign = -1;
  else if ((sep = strstr (word, "*2^")) != NULL)
    sign = 1;
  m_text = sep != NULL ? g_strndup (word, (gsize) (sep - word)) : g_strdup (word);
  if (!g_ascii_string_to_signed (m_text, 10, -(G_GINT64_CONSTANT (1) << 53), G_GINT64_CONSTANT (1) << 53, &m, NULL) ||
      (sep != NULL && !g_ascii_string_to_unsigned (sep + 3, 10, 0, 1100, &k, NULL)))
    return fail (r, "%s: “%s” is not an exact number (M, M/2^K or M*2^K, |M| ≤ 2^53, K ≤ 1100)", what, word);
  *out = ldexp ((double) m, sign * (int) k);
  if (!isfinite (*out))
    return fail (r, "%s: “%s” is too large", what, word);
  return TRUE;
}

static gboolean
parse_map (Reader      *r,
           char       **w,
           SlTransform *t)
{
  if (!parse_int (r, w[0], "origin", &t->origin) ||
      !parse_int (r, w[0] != NULL ? w[1] : NULL, "image", &t->image) ||
      !parse_exact (r, w[0] != NULL && w[1] != NULL ? w[2] : NULL, "fraction", &t->image_frac) ||
      !parse_exact (r, w[0] != NULL && w[1] != NULL && w[2] != NULL ? w[3] : NULL, "drift", &t->drift))
    return FALSE;
  if (w[4] != NULL)
    return fail (r, "unexpected “%s” after the map", w[4]);
  if (!(t->image_frac >= 0 && t->image_frac < 1))
    return fail (r, "the fraction must be in [0, 1)");
  if (!(t->drift > -1) || !isfinite (t->drift))
    return fail (r, "the drift must be a finite number above −1 (the map must increase)");
  return TRUE;
}

/* A quoted name, escaped as g_strescape() does. */
static gboolean
parse_name (Reader     *r,
            const char *rest,
            char      **out)
{
  const char *end;
  g_autofree char *raw = NULL;

  while (*rest == ' ' || *rest == '\t')
    rest++;
  if (*rest != '"')
    return fail (r, "expected a quoted name");
  for (end = rest + 1; *end != '\0' && *end != '"'; end++)
    if (*end == '\\' && end[1] != '\0')
      end++;
  if (*end != '"')
    return fail (r, "the name's closing quote is missing");
  for (const char *p = end + 1; *p != '\0'; p++)
    if (*p != ' ' && *p != '\t')
      return fail (r, "unexpected text after the name");
  raw = g_strndup (rest + 1, (gsize) (end - rest - 1));
  *out = g_strcompress (raw);
  if (**out == '\0' || !g_utf8_validate (*out, -1, NULL))
    {
      g_clear_pointer (out, g_free);
      return fail (r, "the name is empty or not UTF-8");
    }
  return TRUE;
}

typedef struct
{
  SlSavedHost *host;
  gboolean     has_state;
  gboolean     has_export;
  gboolean     has_beyond;
  gboolean     bounded_beyond;
  GArray      *starts;
  GArray      *maps;
  GArray      *bounds;
} Partial;

static void
partial_clear (Partial *p)
{
  if (p->host != NULL)
    saved_host_free (g_steal_pointer (&p->host));
  g_clear_pointer (&p->starts, g_array_unref);
  g_clear_pointer (&p->maps, g_array_unref);
  g_clear_pointer (&p->bounds, g_array_unref);
}

static gboolean
host_line (Reader     *r,
           Partial    *p,
           const char *key,
           char      **w,
           const char *rest)
{
  if (g_str_equal (key, "reference"))
    {
      if (p->host->reference != NULL)
        return fail (r, "a second reference for host “%s”", p->host->name);
      return parse_name (r, rest, &p->host->reference);
    }
  if (g_str_equal (key, "state"))
    {
      if (w[0] == NULL || w[1] != NULL ||
          !(g_str_equal (w[0], "synchronized") || g_str_equal (w[0], "best-effort") || g_str_equal (w[0], "alone")))
        return fail (r, "state: expected synchronized, best-effort or alone");
      p->host->synchronized = g_str_equal (w[0], "synchronized");
      p->host->best_effort = g_str_equal (w[0], "best-effort");
      p->has_state = TRUE;
      return TRUE;
    }
  if (g_str_equal (key, "export"))
    {
      p->has_export = TRUE;
      return parse_map (r, w, &p->host->to_reference);
    }
  if (g_str_equal (key, "piece"))
    {
      gint64 start = G_MININT64;
      SlTransform t;

      if (w[0] == NULL)
        return fail (r, "piece: its start is missing");
      if (p->starts->len == 0 && !g_str_equal (w[0], "-"))
        return fail (r, "the first piece starts at “-” (it extends before every instant)");
      if (p->starts->len > 0)
        {
          if (!parse_int (r, w[0], "start", &start))
            return FALSE;
          if (p->starts->len > 1 && start <= g_array_index (p->starts, gint64, p->starts->len - 1))
            return fail (r, "the pieces' starts must increase");
        }
      if (!parse_map (r, w + 1, &t))
        return FALSE;
      g_array_append_val (p->starts, start);
      g_array_append_val (p->maps, t);
      return TRUE;
    }
  if (g_str_equal (key, "bound"))
    {
      SlBoundPoint b;

      if (!parse_int (r, w[0], "instant", &b.x) || !parse_exact (r, w[1], "bound", &b.bound))
        return FALSE;
      if (w[2] != NULL)
        return fail (r, "unexpected “%s” after the bound", w[2]);
      if (!(b.bound >= 0))
        return fail (r, "a bound is at least 0");
      if (p->bounds->len > 0 && b.x <= g_array_index (p->bounds, SlBoundPoint, p->bounds->len - 1).x)
        return fail (r, "the bounds' instants must increase");
      g_array_append_val (p->bounds, b);
      return TRUE;
    }
  if (g_str_equal (key, "beyond"))
    {
      if (w[0] == NULL || w[1] != NULL || !(g_str_equal (w[0], "bounded") || g_str_equal (w[0], "unbounded")))
        return fail (r, "beyond: expected bounded or unbounded");
      p->bounded_beyond = g_str_equal (w[0], "bounded");
      p->has_beyond = TRUE;
      return TRUE;
    }
  return fail (r, "unknown line “%s” in host “%s”", key, p->host->name);
}

static gboolean
host_end (Reader         *r,
          Partial        *p,
          SlTransformSet *set)
{
  SlSavedHost *h = p->host;
  const char *missing = h->reference == NULL ? "reference" : !p->has_state ? "state" : !p->has_export ? "export"
                        : p->maps->len == 0 ? "piece" : p->bounds->len == 0 ? "bound" : !p->has_beyond ? "beyond" : NULL;

  if (missing != NULL)
    return fail (r, "host “%s” has no %s line", h->name, missing);
  h->relation = sl_relation_new ((const gint64 *) p->starts->data, (const SlTransform *) p->maps->data,
                                 p->maps->len, (const SlBoundPoint *) p->bounds->data, p->bounds->len,
                                 p->bounded_beyond);
  g_ptr_array_add (set->hosts, g_steal_pointer (&p->host));
  g_hash_table_insert (set->by_name, h->name, h);
  partial_clear (p);
  return TRUE;
}

static gboolean
parse_text (Reader         *r,
            const char     *text,
            SlTransformSet *set)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  Partial p = { 0 };
  gboolean header = FALSE;
  gboolean ok = TRUE;
  guint last = 1;

  for (guint i = 0; ok && lines[i] != NULL; i++)
    {
      g_auto(GStrv) words = NULL;
      char *line = g_strstrip (lines[i]);
      const char *key;
      char **w;
      guint n = 0;

      r->line = i + 1;
      if (*line == '\0' || *line == '#')
        continue;
      last = r->line;
      if (!g_utf8_validate (line, -1, NULL))
        {
          ok = fail (r, "not UTF-8 text");
          break;
        }
      words = g_strsplit_set (line, " \t", -1);
      /* empty words from repeated spaces out */
      for (guint k = 0; words[k] != NULL; k++)
        if (*words[k] != '\0')
          words[n++] = words[k];
        else
          g_free (words[k]);
      words[n] = NULL;
      key = words[0];
      w = words + 1;
      if (!header)
        {
          guint64 version;

          if (!g_str_equal (key, "syncline-transforms"))
            ok = fail (r, "not a Syncline transforms file (its first line is “syncline-transforms %d”)",
                       SL_TRANSFORMS_FILE_VERSION);
          else if (w[0] == NULL || !g_ascii_string_to_unsigned (w[0], 10, 1, G_MAXUINT32, &version, NULL) || w[1] != NULL)
            ok = fail (r, "expected “syncline-transforms %d”", SL_TRANSFORMS_FILE_VERSION);
          else if (version > SL_TRANSFORMS_FILE_VERSION)
            ok = fail (r, "format version %" G_GUINT64_FORMAT " is newer than this Syncline reads (%d); "
                       "update Syncline", version, SL_TRANSFORMS_FILE_VERSION);
          header = TRUE;
          continue;
        }
      if (g_str_equal (key, "host"))
        {
          g_autofree char *name = NULL;

          if (p.host != NULL)
            ok = fail (r, "host “%s” has no end line", p.host->name);
          else if ((ok = parse_name (r, line + strlen ("host"), &name)) && g_hash_table_contains (set->by_name, name))
            ok = fail (r, "host “%s” a second time", name);
          else if (ok)
            {
              p.host = g_new0 (SlSavedHost, 1);
              p.host->name = g_steal_pointer (&name);
              p.starts = g_array_new (FALSE, FALSE, sizeof (gint64));
              p.maps = g_array_new (FALSE, FALSE, sizeof (SlTransform));
              p.bounds = g_array_new (FALSE, FALSE, sizeof (SlBoundPoint));
            }
        }
      else if (p.host == NULL)
        ok = fail (r, "“%s” outside a host (a host begins with host \"NAME\")", key);
      else if (g_str_equal (key, "end"))
        ok = w[0] != NULL ? fail (r, "unexpected “%s” after end", w[0]) : host_end (r, &p, set);
      else
        {
          const char *rest = strstr (line, key) + strlen (key);

          ok = host_line (r, &p, key, w, rest);
        }
    }
  /* what is missing at the end is said at the last line */
  if (ok)
    r->line = last;
  if (ok && !header)
    ok = fail (r, "empty: not a Syncline transforms file");
  else if (ok && p.host != NULL)
    ok = fail (r, "the file ends inside host “%s” (no end line)", p.host->name);
  partial_clear (&p);
  return ok;
}

/**
 * sl_transform_set_load:
 *
 * Reads a file written by sl_transform_set_save(). Errors name the file
 * and the line: `FILE:LINE: what is wrong`.
 *
 * Returns: (transfer full) (nullable): the set, %NULL on error
 */
SlTransformSet *
sl_transform_set_load (const char  *path,
                       GError     **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  Reader r = { path, 0, error };
  SlTransformSet *set;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s: no such file (or not a regular file)", path);
      return NULL;
    }
  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  if (memchr (text, '\0', len) != NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: binary data, not a Syncline transforms file", path);
      return NULL;
    }
  set = set_new ();
  if (!parse_text (&r, text, set))
    {
      sl_transform_set_free (set);
      return NULL;
    }
  return set;
}
