/* sl-tsdl-lex.c: TSDL text into tokens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-tsdl-private.h"

void
tsdl_tokens_clear (TsdlTokens *tokens)
{
  g_clear_pointer (&tokens->tokens, g_free);
  g_clear_pointer (&tokens->texts, g_string_chunk_free);
  tokens->n = 0;
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
lex_string (const char   *s,
            gsize         len,
            char          quote,
            Token        *t,
            GString      *scratch,
            GStringChunk *texts,
            gboolean     *ok)
{
  gsize i = 1;

  *ok = FALSE;
  g_string_truncate (scratch, 0);
  while (i < len && s[i] != quote && s[i] != '\n')
    {
      if (s[i] == '\\' && i + 1 < len)
        {
          char c = s[i + 1];

          g_string_append_c (scratch, c == 'n' ? '\n' : c == 't' ? '\t' : c == '0' ? '\0' : c);
          i += 2;
          continue;
        }
      g_string_append_c (scratch, s[i++]);
    }
  if (i < len && s[i] == quote)
    {
      *ok = TRUE;
      i++;
    }
  t->value = scratch->len > 0 ? (guchar) scratch->str[0] : 0;
  /* an escaped NUL ends the text, as it did when each token had its copy */
  t->text = g_string_chunk_insert (texts, scratch->str);
  return i;
}

/* The punctuation TSDL has, longest first where one begins another. */
static gsize
lex_punct (const char *s,
           gsize       len,
           Token      *t)
{
  switch (s[0])
    {
    case '.':
      if (len >= 3 && s[1] == '.' && s[2] == '.')
        {
          t->text = "...";
          return 3;
        }
      t->text = ".";
      return 1;
    case ':':
      if (len >= 2 && s[1] == '=')
        {
          t->text = ":=";
          return 2;
        }
      t->text = ":";
      return 1;
    case '{': t->text = "{"; return 1;
    case '}': t->text = "}"; return 1;
    case '(': t->text = "("; return 1;
    case ')': t->text = ")"; return 1;
    case '[': t->text = "["; return 1;
    case ']': t->text = "]"; return 1;
    case '<': t->text = "<"; return 1;
    case '>': t->text = ">"; return 1;
    case ';': t->text = ";"; return 1;
    case ',': t->text = ","; return 1;
    case '=': t->text = "="; return 1;
    case '-': t->text = "-"; return 1;
    case '+': t->text = "+"; return 1;
    case '*': t->text = "*"; return 1;
    case '&': t->text = "&"; return 1;
    case '|': t->text = "|"; return 1;
    case '?': t->text = "?"; return 1;
    case '/': t->text = "/"; return 1;
    case '!': t->text = "!"; return 1;
    case '~': t->text = "~"; return 1;
    case '%': t->text = "%"; return 1;
    case '^': t->text = "^"; return 1;
    default:
      return 0;
    }
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
          TsdlTokens  *out,
          char       **why,
          guint       *line)
{
  /* a kernel's metadata: ~3.7 bytes of text per token */
  gsize size = MIN (len / 4 + 16, 1u << 20);
  g_autofree Token *tokens = g_new (Token, size);
  g_autoptr(GString) scratch = g_string_new (NULL);
  GStringChunk *texts = g_string_chunk_new (MIN (len / 2 + 64, 1u << 20));
  guint n_tokens = 0;
  guint ln = 1;
  gsize i = 0;

  for (;;)
    {
      Token t = { 0 };
      gboolean ok = TRUE;
      gsize n = 0;

      if (!skip_blanks (s, len, &i, &ln))
        {
          *why = g_strdup ("a comment is not closed");
          *line = ln;
          g_string_chunk_free (texts);
          return FALSE;
        }
      t.line = ln;
      if (n_tokens == size)
        {
          size *= 2;
          tokens = g_renew (Token, tokens, size);
        }
      if (i >= len)
        {
          t.kind = TOK_EOF;
          tokens[n_tokens++] = t;
          break;
        }
      if (n_tokens >= TSDL_MAX_TOKENS)
        {
          *why = g_strdup ("too long");
          *line = ln;
          g_string_chunk_free (texts);
          return FALSE;
        }
      if (is_ident_start (s[i]))
        {
          for (n = 1; i + n < len && is_ident (s[i + n]); n++)
            ;
          t.kind = TOK_IDENT;
          t.text = g_string_chunk_insert_len (texts, s + i, (gssize) n);
        }
      else if (g_ascii_isdigit (s[i]))
        {
          t.kind = TOK_INT;
          n = lex_int (s + i, len - i, &t);
        }
      else if (s[i] == '"' || s[i] == '\'')
        {
          t.kind = s[i] == '"' ? TOK_STRING : TOK_CHAR;
          n = lex_string (s + i, len - i, s[i], &t, scratch, texts, &ok);
        }
      else
        {
          t.kind = TOK_PUNCT;
          n = lex_punct (s + i, len - i, &t);
        }
      if (n == 0 || !ok)
        {
          *why = !ok ? g_strdup ("a string is not closed on its line")
                     : g_strdup_printf ("unexpected character 0x%02x", (guchar) s[i]);
          *line = ln;
          g_string_chunk_free (texts);
          return FALSE;
        }
      t.start = i;
      t.end = i + n;
      tokens[n_tokens++] = t;
      i += n;
    }
  out->tokens = g_steal_pointer (&tokens);
  out->n = n_tokens;
  out->texts = texts;
  return TRUE;
}
