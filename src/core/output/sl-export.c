/* sl-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-ctf-meta.h"
#include "sl-ctf-retime.h"
#include "sl-ctf2.h"
#include "sl-export.h"
#include "sl-safe-io.h"
#include "sl-types.h"

#define NS_PER_S             1000000000
/* a host's folder name, in bytes (NAME_MAX is 255) */
#define MAX_NAME             200

typedef struct
{
  gboolean    rewrite;
  SlRelation *to_reference;
  const char *reference_name;
} ClockMap;

static gint64
map_time (gint64   ns,
          gpointer relation)
{
  return sl_relation_apply (relation, ns);
}

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

/* ---------------------------------------------------------------------- */
/* Metadata                                                                */

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
  gint64 base_s;

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

  if (!sl_ctf_retime_clock_base ((guint64) freq, offset_s, (guint64) offset, map_time, map->to_reference,
                                 &base_s))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: the clock's origin is out of range", path);
      return FALSE;
    }

  g_string_append (out, "clock {\n");
  g_string_append (out, kept->str);
  g_string_append_printf (out,
                          "\t/* syncline: synchronized to %s, every timestamp of the streams rewritten in "
                          "ns; was freq = %" G_GINT64_FORMAT ", offset_s = %" G_GINT64_FORMAT ", offset = %"
                          G_GINT64_FORMAT " */\n",
                          map->reference_name, freq, offset_s, offset);
  g_string_append_printf (out, "\tfreq = %d;\n", NS_PER_S);
  g_string_append_printf (out, "\toffset_s = %" G_GINT64_FORMAT ";\n", base_s);
  g_string_append (out, "\toffset = 0;\n");
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

/* A clock class's precision or accuracy, in cycles of the new 1 GHz
 * clock (never smaller). */
static void
scale_cycles (JsonObject *o,
              const char *name,
              gint64      freq)
{
  JsonNode *n = json_object_get_member (o, name);
  __int128 v;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64 ||
      json_node_get_int (n) < 0)
    return;
  v = ((__int128) json_node_get_int (n) * NS_PER_S + freq - 1) / freq;
  json_object_set_int_member (o, name, v > G_MAXINT64 ? G_MAXINT64 : (gint64) v);
}

/* @name's integer in @o into @v (left alone when absent); FALSE when it
 * is there and not an integer (a double like 1.7e9 is not read). */
static gboolean
json_int_member (JsonObject *o,
                 const char *name,
                 gint64     *v)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, name) : NULL;

  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    return FALSE;
  *v = json_node_get_int (n);
  return TRUE;
}

/* One CTF 2 clock class fragment, as rewrite_clock_block() rewrites a
 * TSDL clock: 1 GHz, offset the whole seconds below the image of cycle 0,
 * what it was kept in a `syncline` attribute. */
static char *
rewrite_ctf2_clock (const char      *path,
                    JsonObject      *o,
                    const ClockMap  *map,
                    GError         **error)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  JsonNode *fn = json_object_get_member (o, "frequency");
  JsonObject *off = json_object_has_member (o, "offset-from-origin")
                      ? json_object_get_object_member (o, "offset-from-origin") : NULL;
  JsonObject *was = json_object_new ();
  JsonObject *old_off = json_object_new ();
  JsonObject *new_off = json_object_new ();
  JsonObject *attrs;
  gint64 freq = 0, seconds = 0, cycles = 0, base_s;
  gboolean exact;

  /* read as sl-ctf2.c's clock_class() reads them (which refused the
   * metadata before this if they are not integers): integers only */
  exact = (json_object_has_member (o, "offset-from-origin") == (off != NULL)) &&
          json_int_member (off, "seconds", &seconds) && json_int_member (off, "cycles", &cycles);
  if (fn != NULL && JSON_NODE_HOLDS_VALUE (fn) && json_node_get_value_type (fn) == G_TYPE_INT64)
    freq = json_node_get_int (fn);
  if (!exact || freq <= 0 || cycles < 0 ||
      !sl_ctf_retime_clock_base ((guint64) freq, seconds, (guint64) cycles, map_time, map->to_reference, &base_s))
    {
      json_object_unref (was);
      json_object_unref (old_off);
      json_object_unref (new_off);
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: clock class “%s”: its frequency or origin is out of range",
                   path, json_object_get_string_member_with_default (o, "id", "?"));
      return NULL;
    }

  json_object_set_string_member (was, "synchronized-to", map->reference_name);
  json_object_set_string_member (was, "note", "every timestamp of the streams rewritten in ns");
  json_object_set_int_member (was, "frequency", freq);
  json_object_set_int_member (old_off, "seconds", seconds);
  json_object_set_int_member (old_off, "cycles", cycles);
  json_object_set_object_member (was, "offset-from-origin", old_off);
  json_object_set_int_member (new_off, "seconds", base_s);
  json_object_set_int_member (new_off, "cycles", 0);
  scale_cycles (o, "precision", freq);
  scale_cycles (o, "accuracy", freq);
  json_object_set_int_member (o, "frequency", NS_PER_S);
  json_object_set_object_member (o, "offset-from-origin", new_off);
  if (!json_object_has_member (o, "attributes") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "attributes")))
    json_object_set_object_member (o, "attributes", json_object_new ());
  attrs = json_object_get_object_member (o, "attributes");
  json_object_set_object_member (attrs, "syncline", was);

  json_node_set_object (root, o);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

/* CTF 2 metadata (a JSON text sequence) with each clock class
 * rewritten; the other fragments are kept byte for byte. */
static char *
rewrite_ctf2_clocks (const char      *path,
                     const char      *text,
                     const ClockMap  *map,
                     GError         **error)
{
  g_auto(GStrv) parts = g_strsplit (text, "\x1e", -1);
  g_autoptr(GString) out = g_string_new (parts[0]);

  for (guint i = 1; parts[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = NULL;
      g_autoptr(GError) local = NULL;
      g_autofree char *clock = NULL;
      JsonNode *root;

      g_string_append_c (out, '\x1e');
      if (strstr (parts[i], "clock-class") == NULL)
        {
          g_string_append (out, parts[i]);
          continue;
        }
      if (sl_ctf2_json_too_deep (parts[i]))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: fragment %u: arrays and objects nested more than %u deep",
                       path, i, SL_CTF2_MAX_JSON_DEPTH);
          return NULL;
        }
      parser = json_parser_new ();
      if (!json_parser_load_from_data (parser, parts[i], -1, &local))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: fragment %u: %s", path, i, local->message);
          return NULL;
        }
      root = json_parser_get_root (parser);
      if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
          g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (root), "type", NULL),
                     "clock-class") != 0)
        {
          g_string_append (out, parts[i]);
          continue;
        }
      clock = rewrite_ctf2_clock (path, json_node_get_object (root), map, error);
      if (clock == NULL)
        return NULL;
      g_string_append (out, clock);
      g_string_append_c (out, '\n');
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* A trace folder's files but the metadata: hard-linked (copied across
 * file systems), with `index/`; with @retime, the streams copied with
 * their times rewritten, and their indexes (an index that does not
 * describe its stream is left out: babeltrace2 and Trace Compass read a
 * stream without one). Streams as babeltrace2 takes them: the regular
 * files of the folder but the metadata, hidden and empty ones. */
static gboolean
copy_folder_files (const char   *from,
                   const char   *to,
                   gboolean      with_index,
                   SlCtfRetime  *retime,
                   GPtrArray    *warnings,
                   GError      **error)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *index_from = g_build_filename (from, "index", NULL);
  g_autofree char *index_to = g_build_filename (to, "index", NULL);
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
      GStatBuf st;

      if (with_index && g_str_equal (name, "metadata"))
        continue;
      if (g_file_test (a, G_FILE_TEST_IS_DIR))
        {
          if (with_index && retime == NULL && g_str_equal (name, "index") &&
              !copy_folder_files (a, b, FALSE, NULL, NULL, error))
            return FALSE;
          continue;
        }
      if (!sl_safe_is_regular (a) || g_stat (a, &st) != 0)
        continue;
      if (retime == NULL || name[0] == '.' || st.st_size == 0)
        {
          if (!link_or_copy (a, b, error))
            return FALSE;
          continue;
        }
      {
        g_autofree char *cut = NULL;
        g_autofree char *idx = g_strconcat (name, ".idx", NULL);
        g_autofree char *ia = g_build_filename (index_from, idx, NULL);
        g_autofree char *ib = g_build_filename (index_to, idx, NULL);

        if (!sl_ctf_retime_stream (retime, a, b, &cut, error))
          return FALSE;
        if (cut != NULL && warnings != NULL)
          g_ptr_array_add (warnings, g_steal_pointer (&cut));
        if (sl_safe_is_regular (ia) && make_dir (index_to, NULL))
          sl_ctf_retime_index (retime, ia, ib, NULL);
      }
    }
  return TRUE;
}

/* One trace: its metadata (as text, each clock rewritten when the host
 * has a map), its stream files linked, or copied with their times
 * rewritten. */
static gboolean
export_trace (const char      *from,
              const char      *to,
              const ClockMap  *map,
              GPtrArray       *warnings,
              GError         **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(SlCtfRetime) retime = NULL;
  g_autofree char *meta_in = g_build_filename (from, "metadata", NULL);
  g_autofree char *meta_out = g_build_filename (to, "metadata", NULL);
  g_autofree char *why = NULL;
  g_autofree char *text = NULL;
  g_autofree char *result = NULL;
  SlCtfMetaStatus status;
  gboolean packetized = FALSE;
  gsize len;

  /* the reader's own way: never a FIFO, bounded, packets checked */
  status = sl_ctf_meta_read_file (meta_in, &text, &len, &packetized, &why);
  if (status == SL_CTF_META_CTF2 && packetized)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: a CTF 2 trace whose metadata is in packets: --export reads "
                   "CTF 2 metadata written as a plain JSON text sequence only", meta_in);
      return FALSE;
    }
  if (status != SL_CTF_META_OK && status != SL_CTF_META_CTF2)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: %s", meta_in, why);
      return FALSE;
    }

  if (map->rewrite)
    {
      retime = sl_ctf_retime_new (text, len, map_time, map->to_reference, &local);
      if (retime == NULL)
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: %s", meta_in, local->message);
          return FALSE;
        }
      result = status == SL_CTF_META_CTF2 ? rewrite_ctf2_clocks (meta_in, text, map, error)
                                          : rewrite_clocks (meta_in, text, map, error);
      if (result == NULL)
        return FALSE;
    }
  else
    result = g_steal_pointer (&text);
  if (!copy_folder_files (from, to, TRUE, retime, warnings, error))
    return FALSE;

  if (!g_file_set_contents (meta_out, result, -1, &local))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", meta_out, local->message);
      return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Layout                                                                  */

/* A host's folder name: no separator, not "." or "..", at most MAX_NAME
 * bytes (a longer one is cut at a character and given a hash, so that two
 * stay apart). */
static char *
safe_component (const char *name)
{
  g_autofree char *s = g_strdup (name != NULL && *name != '\0' ? name : "host");

  g_strdelimit (s, "/\\", '_');
  if (g_str_equal (s, ".") || g_str_equal (s, ".."))
    s[0] = '_';
  if (strlen (s) > MAX_NAME)
    {
      g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, s, -1);
      const char *end = g_utf8_find_prev_char (s, s + MAX_NAME - 17);

      s[end != NULL ? end - s : MAX_NAME - 17] = '\0';
      return g_strdup_printf ("%s-%.16s", s, hash);
    }
  return g_steal_pointer (&s);
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
common_parent (GPtrArray *traces)
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

/* A path, resolved: its longest part that exists by the file system
 * (symbolic links and ".." as they really go), the rest by its names. */
static char *
resolve (const char *path)
{
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *abs = g_path_is_absolute (path) ? g_strdup (path) : g_build_filename (cwd, path, NULL);
  g_auto(GStrv) parts = g_strsplit (abs, "/", -1);
  guint n = g_strv_length (parts);

  for (guint k = n; k > 0; k--)
    {
      g_autofree char *prefix = NULL;
      g_autofree char *real = NULL;
      char *saved = parts[k];
      GString *out;

      parts[k] = NULL;
      prefix = g_strjoinv ("/", parts);
      parts[k] = saved;
      real = realpath (*prefix != '\0' ? prefix : "/", NULL);
      if (real == NULL)
        continue;
      out = g_string_new (real);
      for (guint i = k; i < n; i++)
        {
          if (*parts[i] == '\0' || g_str_equal (parts[i], "."))
            continue;
          if (g_str_equal (parts[i], ".."))
            {
              char *slash = strrchr (out->str, '/');

              g_string_truncate (out, slash != NULL && slash != out->str ? (gsize) (slash - out->str) : 1);
              continue;
            }
          if (out->len > 1)
            g_string_append_c (out, '/');
          g_string_append (out, parts[i]);
        }
      return g_string_free (out, FALSE);
    }
  return g_canonicalize_filename (abs, NULL);
}

/**
 * sl_export_check_target:
 * @inputs: (nullable) (array zero-terminated=1): the folders to be read
 * @resolved: (out) (optional): the folder, resolved (symbolic links and
 *   "..")
 *
 * Checks, before anything is read, that @out_dir can take an export: it
 * does not exist, or is an empty folder; it is not inside an input (a
 * trace would be copied into itself); the nearest folder of its path that
 * exists is writable. Paths are compared resolved.
 */
gboolean
sl_export_check_target (const char         *out_dir,
                        const char *const  *inputs,
                        char              **resolved,
                        GError            **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *parent = NULL;

  g_return_val_if_fail (out_dir != NULL, FALSE);

  if (*out_dir == '\0')
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "--export: no folder given");
      return FALSE;
    }
  dir = resolve (out_dir);
  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    {
      g_autofree char *in = resolve (inputs[i]);

      if (g_str_equal (dir, in) || is_below (dir, in))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s (%s) is inside the input %s: the traces would be "
                       "copied into themselves; choose a folder outside the inputs", out_dir, dir, inputs[i]);
          return FALSE;
        }
    }
  if (!dir_is_empty_or_absent (dir, error))
    return FALSE;
  /* the folders to create go below the nearest one that exists */
  parent = g_strdup (dir);
  while (!g_file_test (parent, G_FILE_TEST_EXISTS))
    {
      char *up = g_path_get_dirname (parent);

      g_free (parent);
      parent = up;
    }
  if (!g_file_test (parent, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s is not a folder", out_dir, parent);
      return FALSE;
    }
  if (access (parent, W_OK) != 0)
    {
      int e = errno;

      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: cannot write in %s: %s", out_dir, parent, g_strerror (e));
      return FALSE;
    }
  /* the proof: make it (and leave the parents it needed) */
  if (!g_file_test (dir, G_FILE_TEST_EXISTS))
    {
      if (!make_dir (dir, error))
        return FALSE;
      g_rmdir (dir);
    }
  if (resolved != NULL)
    *resolved = g_steal_pointer (&dir);
  return TRUE;
}

/* One trace's copy: its folder, where it goes, its clock's new values. */
typedef struct
{
  char    *from;
  char    *to;
  ClockMap map;
} Copy;

static void
copy_free (gpointer p)
{
  Copy *c = p;

  g_free (c->from);
  g_free (c->to);
  g_clear_pointer (&c->map.to_reference, sl_relation_unref);
  g_free (c);
}

/* A host's map from saved transforms (sl-transforms-file.h), by name. */
static ClockMap
saved_clock_map (const SlTransformSet *saved,
                 const char           *name)
{
  ClockMap map = { FALSE, NULL, NULL };
  const SlSavedHost *h = name != NULL ? sl_transform_set_lookup (saved, name) : NULL;

  if (h != NULL && h->relation != NULL && !g_str_equal (h->reference, h->name) &&
      !(sl_relation_get_n_pieces (h->relation) == 1 && sl_transform_is_identity (&h->to_reference)))
    {
      map.rewrite = TRUE;
      map.to_reference = sl_relation_ref (h->relation);
      map.reference_name = h->reference;
    }
  return map;
}

static ClockMap
clock_map (SlEngine *engine,
           guint     host)
{
  ClockMap map = { FALSE, NULL, NULL };
  SlHostInfo info;

  if (engine == NULL || host == SL_HOST_NONE || host >= sl_engine_get_n_hosts (engine))
    return map;
  sl_engine_get_host_info (engine, host, &info);
  if (info.reference != host && info.reference != SL_HOST_NONE && info.relation != NULL &&
      !(sl_relation_get_n_pieces (info.relation) == 1 && sl_transform_is_identity (&info.to_reference)))
    {
      map.rewrite = TRUE;
      map.to_reference = sl_relation_ref (info.relation);
      map.reference_name = sl_engine_get_host_name (engine, info.reference);
    }
  sl_host_info_clear (&info);
  return map;
}

/* Where each trace of one host goes, every path resolved and checked to
 * stay below @out_dir. */
static gboolean
plan_host (SlTraceReader  *reader,
           SlEngine       *engine,
           const SlTransformSet *saved,
           guint           index,
           const char     *out_dir,
           GHashTable     *used,
           GPtrArray      *copies,
           GError        **error)
{
  const GPtrArray *traces = sl_trace_reader_get_host_traces (reader, index);
  g_autoptr(GPtrArray) real = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *name = safe_component (sl_trace_reader_get_host_name (reader, index));
  g_autofree char *common = NULL;
  g_autofree char *host_dir = NULL;
  ClockMap map = saved != NULL ? saved_clock_map (saved, sl_trace_reader_get_host_name (reader, index))
                               : clock_map (engine, sl_trace_reader_get_engine_host (reader, index));

  g_autoptr(SlRelation) held = map.to_reference;   /* each copy takes its own reference */

  if (traces == NULL || traces->len == 0)
    return TRUE;
  /* two hosts whose names only differ by a '/' */
  for (guint k = 2; g_hash_table_contains (used, name); k++)
    {
      g_autofree char *plain = safe_component (sl_trace_reader_get_host_name (reader, index));

      g_free (name);
      name = g_strdup_printf ("%s-%u", plain, k);
    }
  g_hash_table_add (used, g_strdup (name));
  for (guint t = 0; t < traces->len; t++)
    g_ptr_array_add (real, resolve (g_ptr_array_index (traces, t)));

  host_dir = g_build_filename (out_dir, name, NULL);
  common = common_parent (real);
  for (guint t = 0; t < real->len; t++)
    {
      g_autofree char *rel = trace_relative_path (common, g_ptr_array_index (real, t));
      g_autofree char *dest = g_build_filename (host_dir, rel, NULL);
      Copy *c = g_new0 (Copy, 1);

      c->from = g_strdup (g_ptr_array_index (real, t));
      c->to = g_canonicalize_filename (dest, NULL);
      c->map = map;
      if (map.to_reference != NULL)
        sl_relation_ref (map.to_reference);
      g_ptr_array_add (copies, c);
      if (!is_below (c->to, out_dir))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: its copy would be %s, outside %s; nothing written",
                       c->from, c->to, out_dir);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
export_traces (SlTraceReader         *reader,
               SlEngine              *engine,
               const SlTransformSet  *saved,
               const char            *out_dir,
               GPtrArray             *warnings,
               GError               **error)
{
  g_autoptr(GHashTable) used = NULL;
  g_autoptr(GPtrArray) copies = g_ptr_array_new_with_free_func (copy_free);
  g_autofree char *dir = NULL;

  {
    g_autoptr(GPtrArray) inputs = g_ptr_array_new ();

    for (guint i = 0; i < sl_trace_reader_get_n_hosts (reader); i++)
      {
        const GPtrArray *traces = sl_trace_reader_get_host_traces (reader, i);

        for (guint t = 0; traces != NULL && t < traces->len; t++)
          g_ptr_array_add (inputs, g_ptr_array_index (traces, t));
      }
    g_ptr_array_add (inputs, NULL);
    if (!sl_export_check_target (out_dir, (const char *const *) inputs->pdata, &dir, error))
      return FALSE;
  }
  /* every destination first: nothing is written if one is wrong */
  used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < sl_trace_reader_get_n_hosts (reader); i++)
    if (!plan_host (reader, engine, saved, i, dir, used, copies, error))
      return FALSE;

  if (!make_dir (dir, error))
    return FALSE;
  for (guint i = 0; i < copies->len; i++)
    {
      const Copy *c = g_ptr_array_index (copies, i);

      if (!export_trace (c->from, c->to, &c->map, warnings, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
sl_export_traces (SlTraceReader  *reader,
                  SlEngine       *engine,
                  const char     *out_dir,
                  GPtrArray      *warnings,
                  GError        **error)
{
  g_return_val_if_fail (reader != NULL, FALSE);
  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (out_dir != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return export_traces (reader, engine, NULL, out_dir, warnings, error);
}

/**
 * sl_export_traces_saved:
 * @reader: a reader that has at least scanned its folders (hosts known)
 * @saved: the transforms to apply, matched to @reader's hosts by name
 *
 * As sl_export_traces(), with each host's transform taken from @saved
 * (a file of `syncline-cli sync --save-transforms`) instead of an engine:
 * a host @saved does not name keeps its clock.
 */
gboolean
sl_export_traces_saved (SlTraceReader         *reader,
                        const SlTransformSet  *saved,
                        const char            *out_dir,
                        GPtrArray             *warnings,
                        GError               **error)
{
  g_return_val_if_fail (reader != NULL, FALSE);
  g_return_val_if_fail (saved != NULL, FALSE);
  g_return_val_if_fail (out_dir != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return export_traces (reader, NULL, saved, out_dir, warnings, error);
}
