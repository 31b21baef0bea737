/* sl-tsdl-lex.c: TSDL text into tokens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-tsdl-private.h"

static void
token_clear (gpointer p)
{
  Token *t = p;

  g_free (t->text);
}

void
tsdl_tokens_free (GArray *tokens)
{
  if (tokens != NULL)
    g_array_unref (tokens);
}

static gboolean
is_ident_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_ident (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* An integer literal: decimal, 0x hex, 0 octal, with C suffixes. Values
 * past 64 bits are marked, not wrapped. */
static gsize
lex_int (const char *s,
         gsize       len,
         Token      *t)
{
  gsize i = 0;
  guint base = 10;

  if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    base = 16, i = 2;
  else if (s[0] == '0')
    base = 8;
  t->value = 0;
  for (; i < len && g_ascii_isxdigit (s[i]); i++)
    {
      int d = g_ascii_xdigit_value (s[i]);
      guint64 v;

      if (d < 0 || (guint) d >= base)
        break;
      if (__builtin_mul_overflow (t->value, (guint64) base, &v) || __builtin_add_overflow (v, (guint64) d, &v))
        t->overflow = TRUE;
      t->value = v;
    }
  while (i < len && strchr ("uUlL", s[i]) != NULL)
    i++;
  return i;
}

static gsize
lex_string (const char *s,
            gsize       len,
            char        quote,
            Token      *t,
            gboolean   *ok)
{
  GString *out = g_string_new (NULL);
  gsize i = 1;

  *ok = FALSE;
  while (i < len && s[i] != quote && s[i] != '\n')
    {
      if (s[i] == '\\' && i + 1 < len)
        {
          char c = s[i + 1];

          g_string_append_c (out, c == 'n' ? '\n' : c == 't' ? '\t' : c == '0' ? '\0' : c);
          i += 2;
          continue;
        }
      g_string_append_c (out, s[i++]);
    }
  if (i < len && s[i] == quote)
    {
      *ok = TRUE;
      i++;
    }
  t->value = out->len > 0 ? (guchar) out->str[0] : 0;
  t->text = g_string_free (out, FALSE);
  return i;
}

static const char *const puncts[] = { "...", ":=", "{", "}", "(", ")", "[", "]", "<", ">", ";", ",", ".", "=",
                                      ":", "-", "+", "*", "&", "|", "?", "/", "!", "~", "%", "^" };

static gsize
lex_punct (const char *s,
           gsize       len,
           Token      *t)
{
  for (guint i = 0; i < G_N_ELEMENTS (puncts); i++)
    {
      gsize n = strlen (puncts[i]);

      if (n <= len && memcmp (s, puncts[i], n) == 0)
        {
          t->text = g_strdup (puncts[i]);
          return n;
        }
    }
  return 0;
}

/* Skips blanks and comments; FALSE on a comment left open. */
static gboolean
skip_blanks (const char *s,
             gsize       len,
             gsize      *i,
             guint      *line)
{
  while (*i < len)
    {
      char c = s[*i];

      if (c == '\n')
        (*line)++, (*i)++;
      else if (g_ascii_isspace (c))
        (*i)++;
      else if (c == '/' && *i + 1 < len && s[*i + 1] == '*')
        {
          gsize k = *i + 2;

          while (k + 1 < len && !(s[k] == '*' && s[k + 1] == '/'))
            *line += s[k++] == '\n';
          if (k + 1 >= len)
            return FALSE;
          *i = k + 2;
        }
      else if (c == '/' && *i + 1 < len && s[*i + 1] == '/')
        {
          while (*i < len && s[*i] != '\n')
            (*i)++;
        }
      else
        break;
    }
  return TRUE;
}

/**
 * tsdl_lex:
 * @tokens: (out): the tokens, ending with TOK_EOF
 *
 * FALSE with @why and @line on a character or literal TSDL does not have.
 */
gboolean
tsdl_lex (const char  *s,
          gsize        len,
          GArray     **tokens,
          char       **why,
          guint       *line)
{
  g_autoptr(GArray) out = g_array_new (FALSE, TRUE, sizeof (Token));
  guint ln = 1;
  gsize i = 0;

  g_array_set_clear_func (out, token_clear);
  for (;;)
    {
      Token t = { 0 };
      gboolean ok = TRUE;
      gsize n = 0;

      if (!skip_blanks (s, len, &i, &ln))
        {
          *why = g_strdup ("a comment is not closed");
          *line = ln;
          return FALSE;
        }
      t.line = ln;
      if (i >= len)
        {
          t.kind = TOK_EOF;
          g_array_append_val (out, t);
          break;
        }
      if (out->len >= TSDL_MAX_TOKENS)
        {
          *why = g_strdup ("too long");
          *line = ln;
          return FALSE;
        }
      if (is_ident_start (s[i]))
        {
          for (n = 1; i + n < len && is_ident (s[i + n]); n++)
            ;
          t.kind = TOK_IDENT;
          t.text = g_strndup (s + i, n);
        }
      else if (g_ascii_isdigit (s[i]))
        {
          t.kind = TOK_INT;
          n = lex_int (s + i, len - i, &t);
        }
      else if (s[i] == '"' || s[i] == '\'')
        {
          t.kind = s[i] == '"' ? TOK_STRING : TOK_CHAR;
          n = lex_string (s + i, len - i, s[i], &t, &ok);
        }
      else
        {
          t.kind = TOK_PUNCT;
          n = lex_punct (s + i, len - i, &t);
        }
      if (n == 0 || !ok)
        {
          g_free (t.text);
          *why = !ok ? g_strdup ("a string is not closed on its line")
                     : g_strdup_printf ("unexpected character 0x%02x", (guchar) s[i]);
          *line = ln;
          return FALSE;
        }
      t.start = i;
      t.end = i + n;
      g_array_append_val (out, t);
      i += n;
    }
  *tokens = g_steal_pointer (&out);
  return TRUE;
}
