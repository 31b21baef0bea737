/* sl-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "sl-export.h"
#include "sl-types.h"

#define METADATA_MAGIC       0x75D11D57u
#define METADATA_HEADER_SIZE 37
#define NS_PER_S             1000000000

typedef struct
{
  gboolean    rewrite;
  SlTransform to_reference;
  const char *reference_name;
} ClockMap;

/* ---------------------------------------------------------------------- */
/* Files                                                                   */

static gboolean
dir_is_empty_or_absent (const char  *path,
                        GError     **error)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) local = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: exists and is not a folder", path);
      return FALSE;
    }
  dir = g_dir_open (path, 0, &local);
  if (dir == NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", path, local->message);
      return FALSE;
    }
  if (g_dir_read_name (dir) != NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "%s: the export folder is not empty; choose a new folder", path);
      return FALSE;
    }
  return TRUE;
}

static gboolean
make_dir (const char  *path,
          GError     **error)
{
  if (g_mkdir_with_parents (path, 0755) != 0)
    {
      int errsv = errno;
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: cannot create the folder: %s", path,
                   g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

/* Hard links save space and time; they fail across file systems and, with
 * protected_hardlinks, on files we do not own, so copy then. */
static gboolean
link_or_copy (const char  *from,
              const char  *to,
              GError     **error)
{
  g_autoptr(GFile) src = NULL;
  g_autoptr(GFile) dst = NULL;
  g_autoptr(GError) local = NULL;

  if (link (from, to) == 0)
    return TRUE;

  src = g_file_new_for_path (from);
  dst = g_file_new_for_path (to);
  if (!g_file_copy (src, dst, G_FILE_COPY_NONE, NULL, NULL, NULL, &local))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: cannot copy to %s: %s", from, to,
                   local->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
copy_folder_files (const char  *from,
                   const char  *to,
                   gboolean     with_index,
                   GError     **error)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) local = NULL;
  const char *name;

  dir = g_dir_open (from, 0, &local);
  if (dir == NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", from, local->message);
      return FALSE;
    }
  if (!make_dir (to, error))
    return FALSE;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *a = g_build_filename (from, name, NULL);
      g_autofree char *b = g_build_filename (to, name, NULL);

      if (with_index && g_str_equal (name, "metadata"))
        continue;
      if (g_file_test (a, G_FILE_TEST_IS_DIR))
        {
          if (with_index && g_str_equal (name, "index") &&
              !copy_folder_files (a, b, FALSE, error))
            return FALSE;
          continue;
        }
      if (g_file_test (a, G_FILE_TEST_IS_REGULAR) && !link_or_copy (a, b, error))
        return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Metadata                                                                */

static guint32
read_u32 (const guint8 *p,
          gboolean      big_endian)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return big_endian ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

/* Packetized metadata: each packet is a 37-byte header (magic, uuid,
 * checksum, content and packet sizes in bits, schemes, version) and text. */
static char *
depacketize (const char  *path,
             const guint8 *data,
             gsize         len,
             GError      **error)
{
  g_autoptr(GString) text = g_string_new ("/* CTF 1.8 */\n");
  gboolean big_endian = read_u32 (data, TRUE) == METADATA_MAGIC;
  gsize pos = 0;

  while (pos < len)
    {
      guint32 content_bits, packet_bits;
      gsize content, packet;

      if (len - pos < METADATA_HEADER_SIZE || read_u32 (data + pos, big_endian) != METADATA_MAGIC)
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                       "%s: bad metadata packet at byte %" G_GSIZE_FORMAT, path, pos);
          return NULL;
        }
      content_bits = read_u32 (data + pos + 24, big_endian);
      packet_bits = read_u32 (data + pos + 28, big_endian);
      content = content_bits / 8;
      packet = packet_bits / 8;
      if (content < METADATA_HEADER_SIZE || packet < content || packet > len - pos)
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                       "%s: bad metadata packet sizes at byte %" G_GSIZE_FORMAT, path, pos);
          return NULL;
        }
      g_string_append_len (text, (const char *) data + pos + METADATA_HEADER_SIZE,
                           (gssize) (content - METADATA_HEADER_SIZE));
      pos += packet;
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
strip_comments (const char *s,
                gsize       len)
{
  GString *out = g_string_sized_new (len);
  gboolean quoted = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      if (quoted)
        {
          g_string_append_c (out, s[i]);
          if (s[i] == '\\' && i + 1 < len)
            g_string_append_c (out, s[++i]);
          else if (s[i] == '"')
            quoted = FALSE;
        }
      else if (s[i] == '"')
        {
          quoted = TRUE;
          g_string_append_c (out, s[i]);
        }
      else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*')
        {
          const char *end = g_strstr_len (s + i + 2, (gssize) (len - i - 2), "*/");
          i = end != NULL ? (gsize) (end - s) + 1 : len;
        }
      else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/')
        {
          while (i < len && s[i] != '\n')
            i++;
        }
      else
        g_string_append_c (out, s[i]);
    }
  return g_string_free (out, FALSE);
}

static gboolean
parse_int (const char *value,
           gboolean    is_unsigned,
           gint64     *out)
{
  g_autofree char *v = g_strstrip (g_strdup (value));
  char *end = NULL;
  gsize n = strlen (v);

  while (n > 0 && strchr ("uUlL", v[n - 1]) != NULL)
    v[--n] = '\0';
  if (n == 0)
    return FALSE;
  errno = 0;
  if (is_unsigned)
    {
      guint64 u = g_ascii_strtoull (v, &end, 0);
      if (u > G_MAXINT64)
        return FALSE;
      *out = (gint64) u;
    }
  else
    *out = g_ascii_strtoll (v, &end, 0);
  return errno == 0 && end != NULL && *end == '\0';
}

static gint64
floor_div (__int128 a,
           __int128 b,
           __int128 *rem)
{
  __int128 q = a / b, r = a % b;

  if (r != 0 && ((r < 0) != (b < 0)))
    {
      q -= 1;
      r += b;
    }
  *rem = r;
  return (gint64) q;
}

/* The original clock reads t(c) = S·1e9 + (c + O)·1e9/f ns; the new one
 * must read T(t(c)) with T(t) = image + frac + s·(t − origin). With
 * f' = round(f/s), match both exactly at t = origin, where T is exact:
 * t'(c) = T(origin) + (c − c_a)·1e9/f', c_a·1e9 = (origin − S·1e9)·f − O·1e9.
 * The offset seconds carry the epoch so `offset` stays below f', which
 * babeltrace2 converts in double precision. */
static gboolean
transform_clock (const SlTransform *tr,
                 guint64            f,
                 gint64             offset_s,
                 gint64             offset,
                 guint64           *new_f,
                 gint64            *new_offset_s,
                 gint64            *new_offset)
{
  long double ideal = (long double) f / (1.0L + (long double) tr->drift);
  __int128 n, r;
  guint64 fp;
  gint64 r_int, sp, op;
  long double r_frac, rem;

  if (!(ideal >= 1.0L && ideal < 1.8e19L))
    return FALSE;
  fp = (guint64) llroundl (ideal);

  n = ((__int128) tr->origin - (__int128) offset_s * NS_PER_S) * (__int128) f -
      (__int128) offset * NS_PER_S;
  r_int = tr->image - floor_div (n, (__int128) fp, &r);
  r_frac = (long double) tr->image_frac - (long double) r / (long double) fp;
  if (r_frac < 0)
    {
      r_int -= 1;
      r_frac += 1.0L;
    }

  sp = floor_div (r_int, NS_PER_S, &r);
  rem = (long double) r + r_frac;
  op = (gint64) llroundl (rem * (long double) fp / NS_PER_S);
  if ((guint64) op >= fp)
    {
      sp += 1;
      op -= (gint64) fp;
    }

  *new_f = fp;
  *new_offset_s = sp;
  *new_offset = op;
  return TRUE;
}

static gboolean
rewrite_clock_block (const char      *path,
                     const char      *body,
                     gsize            len,
                     const ClockMap  *map,
                     GString         *out,
                     GError         **error)
{
  g_autofree char *clean = strip_comments (body, len);
  g_auto(GStrv) statements = g_strsplit (clean, ";", -1);
  g_autoptr(GString) kept = g_string_new (NULL);
  gint64 freq = NS_PER_S, offset_s = 0, offset = 0;
  guint64 new_f;
  gint64 new_s, new_o;

  for (guint i = 0; statements[i] != NULL; i++)
    {
      g_autofree char *st = g_strstrip (g_strdup (statements[i]));
      char *eq = strchr (st, '=');
      g_autofree char *key = NULL;
      gboolean ok = TRUE;

      if (*st == '\0')
        continue;
      if (eq != NULL)
        {
          key = g_strstrip (g_strndup (st, (gsize) (eq - st)));
          if (g_str_equal (key, "freq"))
            ok = parse_int (eq + 1, TRUE, &freq) && freq > 0;
          else if (g_str_equal (key, "offset_s"))
            ok = parse_int (eq + 1, FALSE, &offset_s);
          else if (g_str_equal (key, "offset"))
            ok = parse_int (eq + 1, TRUE, &offset);
          else
            key = (g_free (key), NULL);
          if (!ok)
            {
              g_set_error (error, SL_ERROR, SL_ERROR_PARSE,
                           "%s: cannot read the clock's “%s”", path, st);
              return FALSE;
            }
        }
      if (key == NULL)
        g_string_append_printf (kept, "\t%s;\n", st);
    }

  if (!transform_clock (&map->to_reference, (guint64) freq, offset_s, offset,
                        &new_f, &new_s, &new_o))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "%s: the host's clock transform gives an impossible frequency", path);
      return FALSE;
    }

  g_string_append (out, "clock {\n");
  g_string_append (out, kept->str);
  g_string_append_printf (out,
                          "\t/* syncline: synchronized to %s; was freq = %" G_GINT64_FORMAT
                          ", offset_s = %" G_GINT64_FORMAT ", offset = %" G_GINT64_FORMAT " */\n",
                          map->reference_name, freq, offset_s, offset);
  g_string_append_printf (out, "\tfreq = %" G_GUINT64_FORMAT ";\n", new_f);
  g_string_append_printf (out, "\toffset_s = %" G_GINT64_FORMAT ";\n", new_s);
  g_string_append_printf (out, "\toffset = %" G_GINT64_FORMAT ";\n", new_o);
  g_string_append (out, "}");
  return TRUE;
}

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* Top-level `clock { … }` blocks only; strings and comments are skipped. */
static char *
rewrite_clocks (const char      *path,
                const char      *text,
                const ClockMap  *map,
                GError         **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gsize len = strlen (text), i = 0, copied = 0;
  int depth = 0;

  while (i < len)
    {
      char c = text[i];

      if (c == '"')
        {
          for (i++; i < len && text[i] != '"'; i++)
            if (text[i] == '\\')
              i++;
          i++;
        }
      else if (c == '/' && i + 1 < len && text[i + 1] == '*')
        {
          const char *end = strstr (text + i + 2, "*/");
          i = end != NULL ? (gsize) (end - text) + 2 : len;
        }
      else if (c == '/' && i + 1 < len && text[i + 1] == '/')
        {
          while (i < len && text[i] != '\n')
            i++;
        }
      else if (c == '{')
        depth++, i++;
      else if (c == '}')
        depth--, i++;
      else if (depth == 0 && c == 'c' && strncmp (text + i, "clock", 5) == 0 &&
               (i == 0 || !is_ident_char (text[i - 1])) && !is_ident_char (text[i + 5]))
        {
          gsize j = i + 5, open, close;

          while (j < len && g_ascii_isspace (text[j]))
            j++;
          if (j >= len || text[j] != '{')
            {
              i += 5;
              continue;
            }
          open = j;
          close = open + 1;
          while (close < len && text[close] != '}')
            {
              if (text[close] == '"')
                for (close++; close < len && text[close] != '"'; close++)
                  if (text[close] == '\\')
                    close++;
              close++;
            }
          if (close >= len)
            {
              g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: unterminated clock block", path);
              return NULL;
            }
          g_string_append_len (out, text + copied, (gssize) (i - copied));
          if (!rewrite_clock_block (path, text + open + 1, close - open - 1, map, out, error))
            return NULL;
          i = copied = close + 1;
        }
      else
        i++;
    }
  g_string_append_len (out, text + copied, (gssize) (len - copied));
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static gboolean
export_metadata (const char      *from,
                 const char      *to,
                 const ClockMap  *map,
                 GError         **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *data = NULL;
  g_autofree char *text = NULL;
  g_autofree char *result = NULL;
  gsize len;

  if (!g_file_get_contents (from, &data, &len, &local))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", from, local->message);
      return FALSE;
    }
  if (len >= 4 && (read_u32 ((const guint8 *) data, FALSE) == METADATA_MAGIC ||
                   read_u32 ((const guint8 *) data, TRUE) == METADATA_MAGIC))
    {
      text = depacketize (from, (const guint8 *) data, len, error);
      if (text == NULL)
        return FALSE;
    }
  else
    {
      if (memchr (data, '\0', len) != NULL)
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: not CTF metadata text", from);
          return FALSE;
        }
      text = g_steal_pointer (&data);
    }

  if (map->rewrite)
    {
      result = rewrite_clocks (from, text, map, error);
      if (result == NULL)
        return FALSE;
    }
  else
    result = g_steal_pointer (&text);

  if (!g_file_set_contents (to, result, -1, &local))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", to, local->message);
      return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Layout                                                                  */

static char *
safe_component (const char *name)
{
  char *s = g_strdup (name != NULL && *name != '\0' ? name : "host");

  g_strdelimit (s, "/\\", '_');
  if (g_str_equal (s, ".") || g_str_equal (s, ".."))
    s[0] = '_';
  return s;
}

static gboolean
is_below (const char *path,
          const char *dir)
{
  gsize n = strlen (dir);

  return n > 0 && strncmp (path, dir, n) == 0 &&
         (path[n] == G_DIR_SEPARATOR || dir[n - 1] == G_DIR_SEPARATOR);
}

/* The folder common to all of a host's traces, or NULL with one trace. */
static char *
common_parent (const GPtrArray *traces)
{
  char *common;

  if (traces->len < 2)
    return NULL;
  common = g_path_get_dirname (g_ptr_array_index (traces, 0));
  for (guint i = 1; i < traces->len; i++)
    while (!is_below (g_ptr_array_index (traces, i), common))
      {
        char *up = g_path_get_dirname (common);

        if (g_str_equal (up, common))
          {
            g_free (up);
            g_free (common);
            return NULL;
          }
        g_free (common);
        common = up;
      }
  return common;
}

static char *
trace_relative_path (const char *common,
                     const char *trace)
{
  if (common != NULL)
    {
      gsize n = strlen (common);
      const char *rest = trace + n;

      while (*rest == G_DIR_SEPARATOR)
        rest++;
      if (is_below (trace, common) && *rest != '\0')
        return g_strdup (rest);
    }
  return g_path_get_basename (trace);
}

gboolean
sl_export_traces (SlTraceReader  *reader,
                  SlEngine       *engine,
                  const char     *out_dir,
                  GError        **error)
{
  g_autoptr(GHashTable) used = NULL;

  g_return_val_if_fail (reader != NULL, FALSE);
  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (out_dir != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!dir_is_empty_or_absent (out_dir, error) || !make_dir (out_dir, error))
    return FALSE;

  used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < sl_trace_reader_get_n_hosts (reader); i++)
    {
      const GPtrArray *traces = sl_trace_reader_get_host_traces (reader, i);
      guint host = sl_trace_reader_get_engine_host (reader, i);
      g_autofree char *name = safe_component (sl_trace_reader_get_host_name (reader, i));
      g_autofree char *common = NULL;
      g_autofree char *host_dir = NULL;
      ClockMap map = { FALSE, { 0, 0, 0.0, 0.0 }, NULL };

      if (traces == NULL || traces->len == 0)
        continue;

      /* two hosts whose names only differ by a '/' */
      for (guint k = 2; g_hash_table_contains (used, name); k++)
        {
          g_free (name);
          name = g_strdup_printf ("%s-%u", sl_trace_reader_get_host_name (reader, i), k);
          g_strdelimit (name, "/\\", '_');
        }
      g_hash_table_add (used, g_strdup (name));

      if (host != SL_HOST_NONE && host < sl_engine_get_n_hosts (engine))
        {
          SlHostInfo info;

          sl_engine_get_host_info (engine, host, &info);
          if (info.reference != host && info.reference != SL_HOST_NONE &&
              !sl_transform_is_identity (&info.to_reference))
            {
              map.rewrite = TRUE;
              map.to_reference = info.to_reference;
              map.reference_name = sl_engine_get_host_name (engine, info.reference);
            }
          sl_host_info_clear (&info);
        }

      host_dir = g_build_filename (out_dir, name, NULL);
      common = common_parent (traces);
      for (guint t = 0; t < traces->len; t++)
        {
          const char *trace = g_ptr_array_index (traces, t);
          g_autofree char *rel = trace_relative_path (common, trace);
          g_autofree char *dest = g_build_filename (host_dir, rel, NULL);
          g_autofree char *meta_in = g_build_filename (trace, "metadata", NULL);
          g_autofree char *meta_out = g_build_filename (dest, "metadata", NULL);

          if (!copy_folder_files (trace, dest, TRUE, error) ||
              !export_metadata (meta_in, meta_out, &map, error))
            return FALSE;
        }
    }
  return TRUE;
}
