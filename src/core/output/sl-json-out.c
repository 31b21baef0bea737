/* sl-json-out.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-json-out.h"

#define FLUSH_AT (64 * 1024)

struct _SlJsonOut
{
  JsonBuilder   *builder;

  /* text */
  GOutputStream *stream;
  GString       *text;
  GArray        *counts;    /* values written so far in each open container */
  GError        *error;
};

static SlJsonOut *
text_new (GOutputStream *stream)
{
  SlJsonOut *out = g_new0 (SlJsonOut, 1);

  out->stream = stream != NULL ? g_object_ref (stream) : NULL;
  out->text = g_string_sized_new (stream != NULL ? 2 * FLUSH_AT : 4096);
  out->counts = g_array_new (FALSE, FALSE, sizeof (guint));
  return out;
}

/* Text written to @stream as it comes, FLUSH_AT bytes at a time. */
SlJsonOut *
sl_json_out_new_stream (GOutputStream *stream)
{
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), NULL);

  return text_new (stream);
}

/* Text kept in memory: sl_json_out_steal_string(). */
SlJsonOut *
sl_json_out_new_string (void)
{
  return text_new (NULL);
}

SlJsonOut *
sl_json_out_new_builder (void)
{
  SlJsonOut *out = g_new0 (SlJsonOut, 1);

  out->builder = json_builder_new ();
  return out;
}

void
sl_json_out_free (SlJsonOut *out)
{
  if (out == NULL)
    return;
  g_clear_object (&out->builder);
  g_clear_object (&out->stream);
  if (out->text != NULL)
    g_string_free (out->text, TRUE);
  g_clear_pointer (&out->counts, g_array_unref);
  g_clear_error (&out->error);
  g_free (out);
}

static void
flush (SlJsonOut *out)
{
  if (out->stream == NULL || out->text->len == 0)
    return;
  if (out->error == NULL)
    g_output_stream_write_all (out->stream, out->text->str, out->text->len, NULL, NULL, &out->error);
  g_string_truncate (out->text, 0);
}

/* Writes what is left; FALSE with the stream's first error. */
gboolean
sl_json_out_finish (SlJsonOut  *out,
                    GError    **error)
{
  g_return_val_if_fail (out != NULL, FALSE);

  if (out->stream != NULL)
    {
      flush (out);
      if (out->error == NULL)
        g_output_stream_flush (out->stream, NULL, &out->error);
      if (out->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&out->error));
          return FALSE;
        }
    }
  return TRUE;
}

char *
sl_json_out_steal_string (SlJsonOut *out)
{
  g_return_val_if_fail (out != NULL && out->text != NULL && out->stream == NULL, NULL);

  return g_string_free (g_steal_pointer (&out->text), FALSE);
}

JsonNode *
sl_json_out_steal_root (SlJsonOut *out)
{
  g_return_val_if_fail (out != NULL && out->builder != NULL, NULL);

  return json_builder_get_root (out->builder);
}

static void
append_escaped (GString    *s,
                const char *str)
{
  g_string_append_c (s, '"');
  for (const char *p = str; *p != '\0'; p++)
    switch (*p)
      {
      case '"':
        g_string_append (s, "\\\"");
        break;
      case '\\':
        g_string_append (s, "\\\\");
        break;
      case '\b':
        g_string_append (s, "\\b");
        break;
      case '\f':
        g_string_append (s, "\\f");
        break;
      case '\n':
        g_string_append (s, "\\n");
        break;
      case '\r':
        g_string_append (s, "\\r");
        break;
      case '\t':
        g_string_append (s, "\\t");
        break;
      default:
        if ((guchar) *p < 0x20)
          g_string_append_printf (s, "\\u%04x", (guint) (guchar) *p);
        else
          g_string_append_c (s, *p);
      }
  g_string_append_c (s, '"');
}

/* Starts a value in json-glib's compact layout (json_to_string (node,
 * FALSE)): "name":value, separated by commas, no white space. Thousands
 * of hosts' reports stay small (the pretty layout's indentation was half
 * of one). */
static void
text_value (SlJsonOut  *out,
            const char *name)
{
  if (out->counts->len > 0)
    {
      guint *count = &g_array_index (out->counts, guint, out->counts->len - 1);

      if (*count > 0)
        g_string_append_c (out->text, ',');
      (*count)++;
    }
  if (name != NULL)
    {
      append_escaped (out->text, name);
      g_string_append_c (out->text, ':');
    }
}

static void
text_end (SlJsonOut *out,
          char       close)
{
  g_return_if_fail (out->counts->len > 0);

  g_array_set_size (out->counts, out->counts->len - 1);
  g_string_append_c (out->text, close);
  if (out->text->len >= FLUSH_AT)
    flush (out);
}

static void
builder_name (SlJsonOut  *out,
              const char *name)
{
  if (name != NULL)
    json_builder_set_member_name (out->builder, name);
}

void
sl_json_out_begin_object (SlJsonOut  *out,
                          const char *name)
{
  guint zero = 0;

  g_return_if_fail (out != NULL);

  if (out->builder != NULL)
    {
      builder_name (out, name);
      json_builder_begin_object (out->builder);
      return;
    }
  text_value (out, name);
  g_string_append_c (out->text, '{');
  g_array_append_val (out->counts, zero);
}

void
sl_json_out_end_object (SlJsonOut *out)
{
  g_return_if_fail (out != NULL);

  if (out->builder != NULL)
    json_builder_end_object (out->builder);
  else
    text_end (out, '}');
}

void
sl_json_out_begin_array (SlJsonOut  *out,
                         const char *name)
{
  guint zero = 0;

  g_return_if_fail (out != NULL);

  if (out->builder != NULL)
    {
      builder_name (out, name);
      json_builder_begin_array (out->builder);
      return;
    }
  text_value (out, name);
  g_string_append_c (out->text, '[');
  g_array_append_val (out->counts, zero);
}

void
sl_json_out_end_array (SlJsonOut *out)
{
  g_return_if_fail (out != NULL);

  if (out->builder != NULL)
    json_builder_end_array (out->builder);
  else
    text_end (out, ']');
}

/* %NULL: null */
void
sl_json_out_string (SlJsonOut  *out,
                    const char *name,
                    const char *value)
{
  g_return_if_fail (out != NULL);

  if (value == NULL)
    {
      sl_json_out_null (out, name);
      return;
    }
  if (out->builder != NULL)
    {
      builder_name (out, name);
      json_builder_add_string_value (out->builder, value);
      return;
    }
  text_value (out, name);
  append_escaped (out->text, value);
}

void
sl_json_out_int (SlJsonOut  *out,
                 const char *name,
                 gint64      value)
{
  g_return_if_fail (out != NULL);

  if (out->builder != NULL)
    {
      builder_name (out, name);
      json_builder_add_int_value (out->builder, value);
      return;
    }
  text_value (out, name);
  g_string_append_printf (out->text, "%" G_GINT64_FORMAT, value);
}

/* As json-glib writes a double: 17 significant digits, ".0" when that
 * looks like an integer. */
void
sl_json_out_number (SlJsonOut  *out,
                    const char *name,
                    double      value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_if_fail (out != NULL);

  if (!isfinite (value))
    {
      sl_json_out_null (out, name);
      return;
    }
  if (out->builder != NULL)
    {
      builder_name (out, name);
      json_builder_add_double_value (out->builder, value);
      return;
    }
  text_value (out, name);
  g_ascii_formatd (buf, sizeof buf, "%.17g", value);
  g_string_append (out->text, buf);
  if (strpbrk (buf, ".eE") == NULL)
    g_string_append (out->text, ".0");
}

void
sl_json_out_boolean (SlJsonOut  *out,
                     const char *name,
                     gboolean    value)
{
  g_return_if_fail (out != NULL);

  if (out->builder != NULL)
    {
      builder_name (out, name);
      json_builder_add_boolean_value (out->builder, value);
      return;
    }
  text_value (out, name);
  g_string_append (out->text, value ? "true" : "false");
}

void
sl_json_out_null (SlJsonOut  *out,
                  const char *name)
{
  g_return_if_fail (out != NULL);

  if (out->builder != NULL)
    {
      builder_name (out, name);
      json_builder_add_null_value (out->builder);
      return;
    }
  text_value (out, name);
  g_string_append (out->text, "null");
}
