/* sl-tsdl.c: CTF 1.8 metadata (TSDL) parsed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-tsdl-private.h"

/*
 * A recursive-descent parser of the TSDL of CTF 1.8 (§7 of the
 * specification): top-level blocks (trace, env, clock, stream, event,
 * callsite), type aliases and definitions with their scopes, integer,
 * floating point, string, enumeration, structure and variant types,
 * arrays and sequences. It keeps what the checks and the packet layouts
 * need; everything else is parsed and dropped. Every loop moves through a
 * bounded list of tokens and nesting is bounded: no input makes it run
 * long or deep.
 */

typedef struct
{
  Token     *tokens;
  guint      n_tokens;
  guint      pos;
  GPtrArray *scopes;
  SlTsdl    *t;
  guint      depth;
  char      *error;
  guint      error_line;
} Parser;

/* ---------------------------------------------------------------------- */
/* Types                                                                   */

TType *
tsdl_type_new (TKind kind,
               guint line)
{
  TType *t = g_new0 (TType, 1);

  t->kind = kind;
  t->line = line;
  t->refs = 1;
  t->align = 1;
  return t;
}

TType *
tsdl_type_ref (TType *t)
{
  if (t != NULL)
    t->refs++;
  return t;
}

void
tsdl_member_free (gpointer p)
{
  TMember *m = p;

  g_free (m->name);
  g_free (m->ctf2_name);
  tsdl_type_unref (m->type);
  g_free (m);
}

void
tsdl_mapping_clear (gpointer p)
{
  g_free (((TMapping *) p)->label);
}

void
tsdl_type_unref (TType *t)
{
  if (t == NULL || --t->refs > 0)
    return;
  g_free (t->map_clock);
  if (t->members != NULL)
    g_ptr_array_unref (t->members);
  g_free (t->tag);
  tsdl_type_unref (t->container);
  if (t->mappings != NULL)
    g_array_unref (t->mappings);
  tsdl_type_unref (t->element);
  g_free (t->length_path);
  if (t->loc_path != NULL)
    g_ptr_array_unref (t->loc_path);
  g_free (t);
}

/* ---------------------------------------------------------------------- */
/* Tokens                                                                  */

static Token *
peek_at (Parser *p,
         guint   ahead)
{
  guint i = MIN (p->pos + ahead, p->n_tokens - 1);

  return &p->tokens[i];
}

static Token *
peek (Parser *p)
{
  return peek_at (p, 0);
}

static Token *
next (Parser *p)
{
  Token *t = peek (p);

  if (t->kind != TOK_EOF)
    p->pos++;
  return t;
}

static gboolean
fail (Parser     *p,
      const char *fmt,
      ...) G_GNUC_PRINTF (2, 3);

#define MAX_WARNINGS 8

/* Text babeltrace2 reads without a word but perhaps not as its writer
 * meant (a damaged attribute name): said, not refused. */
static void
warn (Parser     *p,
      guint       line,
      const char *fmt,
      ...) G_GNUC_PRINTF (3, 4);

static void
warn (Parser     *p,
      guint       line,
      const char *fmt,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  if (p->t->warnings->len > MAX_WARNINGS)
    return;
  if (p->t->warnings->len == MAX_WARNINGS)
    {
      g_ptr_array_add (p->t->warnings, g_strdup_printf ("line %u: more of the same kind not listed", line));
      return;
    }
  va_start (args, fmt);
  what = g_strdup_vprintf (fmt, args);
  va_end (args);
  g_ptr_array_add (p->t->warnings, g_strdup_printf ("line %u: %s", line, what));
}

static gboolean
fail (Parser     *p,
      const char *fmt,
      ...)
{
  va_list args;

  if (p->error != NULL)
    return FALSE;
  va_start (args, fmt);
  p->error = g_strdup_vprintf (fmt, args);
  va_end (args);
  p->error_line = peek (p)->line;
  return FALSE;
}

static gboolean
is_punct (Token      *t,
          const char *s)
{
  return t->kind == TOK_PUNCT && t->text[0] == s[0] && g_str_equal (t->text, s);
}

static gboolean
is_word (Token      *t,
         const char *s)
{
  return t->kind == TOK_IDENT && g_str_equal (t->text, s);
}

static gboolean
accept (Parser     *p,
        const char *punct)
{
  if (!is_punct (peek (p), punct))
    return FALSE;
  next (p);
  return TRUE;
}

static gboolean
expect (Parser     *p,
        const char *punct)
{
  Token *t = peek (p);

  if (accept (p, punct))
    return TRUE;
  return fail (p, "“%s” expected, found “%s”", punct,
               t->kind == TOK_EOF ? "the end" : t->text != NULL ? t->text : "a number");
}

static gboolean
is_type_keyword (Token *t)
{
  static const char *const words[] = { "integer", "floating_point", "string", "struct", "variant", "enum" };

  for (guint i = 0; t->kind == TOK_IDENT && i < G_N_ELEMENTS (words); i++)
    if (g_str_equal (t->text, words[i]))
      return TRUE;
  return FALSE;
}

/* ---------------------------------------------------------------------- */
/* Scopes                                                                  */

static void
scope_push (Parser *p)
{
  g_ptr_array_add (p->scopes, g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                     (GDestroyNotify) tsdl_type_unref));
}

static void
scope_pop (Parser *p)
{
  g_ptr_array_remove_index (p->scopes, p->scopes->len - 1);
}

static void
scope_add (Parser     *p,
           const char *name,
           TType      *type)
{
  GHashTable *scope = g_ptr_array_index (p->scopes, p->scopes->len - 1);

  g_hash_table_replace (scope, g_strdup (name), tsdl_type_ref (type));
}

static TType *
scope_find (Parser     *p,
            const char *name)
{
  for (guint i = p->scopes->len; i > 0; i--)
    {
      TType *t = g_hash_table_lookup (g_ptr_array_index (p->scopes, i - 1), name);

      if (t != NULL)
        return tsdl_type_ref (t);
    }
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Values                                                                  */

typedef struct
{
  TokKind  kind;
  gboolean negative;
  guint64  value;
  gboolean overflow;
  /* the token's text (the tokens outlive the values), or @owned */
  const char *text;
  char    *owned;
  guint    line;
  gsize    start;
  gsize    end;
} Value;

static void
value_clear (Value *v)
{
  g_clear_pointer (&v->owned, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Value, value_clear)

/* A value: [-]integer, string, character, or a dotted path of names. */
static gboolean
parse_value (Parser *p,
             Value  *v)
{
  Token *t;

  memset (v, 0, sizeof *v);
  v->line = peek (p)->line;
  v->start = peek (p)->start;
  v->negative = accept (p, "-");
  if (!v->negative)
    accept (p, "+");
  t = next (p);
  v->end = t->end;
  switch (t->kind)
    {
    case TOK_INT:
    case TOK_CHAR:
      v->kind = TOK_INT;
      v->value = t->value;
      v->overflow = t->overflow || (v->negative && t->value > (guint64) G_MAXINT64 + 1);
      return TRUE;
    case TOK_STRING:
      v->kind = TOK_STRING;
      v->text = t->text;
      return !v->negative || fail (p, "a minus sign before a string");
    case TOK_IDENT:
      v->kind = TOK_IDENT;
      v->text = t->text;
      if (is_punct (peek (p), ".") && peek_at (p, 1)->kind == TOK_IDENT)
        {
          GString *s = g_string_new (t->text);

          while (is_punct (peek (p), ".") && peek_at (p, 1)->kind == TOK_IDENT)
            {
              next (p);
              g_string_append_c (s, '.');
              g_string_append (s, next (p)->text);
            }
          v->text = v->owned = g_string_free (s, FALSE);
        }
      return !v->negative || fail (p, "a minus sign before a name");
    default:
      p->pos--;
      return fail (p, "a value expected");
    }
}

static gboolean
value_uint (Parser      *p,
            const Value *v,
            const char  *what,
            guint64      max,
            guint64     *out)
{
  if (v->kind != TOK_INT || v->negative || v->overflow || v->value > max)
    {
      p->error_line = v->line;
      p->error = g_strdup_printf ("%s: a number from 0 to %" G_GUINT64_FORMAT " expected", what, max);
      return FALSE;
    }
  *out = v->value;
  return TRUE;
}

static gboolean
value_int (Parser      *p,
           const Value *v,
           const char  *what,
           gint64      *out)
{
  if (v->kind != TOK_INT || v->overflow || (!v->negative && v->value > G_MAXINT64))
    {
      p->error_line = v->line;
      p->error = g_strdup_printf ("%s: a 64-bit signed number expected", what);
      return FALSE;
    }
  *out = v->negative ? (gint64) (0 - v->value) : (gint64) v->value;
  return TRUE;
}

static gboolean
value_bool (Parser      *p,
            const Value *v,
            const char  *what,
            gboolean    *out)
{
  if (v->kind == TOK_INT && !v->negative && v->value <= 1)
    *out = v->value == 1;
  else if (v->kind == TOK_IDENT && (g_ascii_strcasecmp (v->text, "true") == 0))
    *out = TRUE;
  else if (v->kind == TOK_IDENT && (g_ascii_strcasecmp (v->text, "false") == 0))
    *out = FALSE;
  else
    {
      p->error_line = v->line;
      p->error = g_strdup_printf ("%s: true or false expected", what);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_uuid (const char *s,
            guint8     *out)
{
  guint n = 0;

  if (s == NULL || strlen (s) != 36)
    return FALSE;
  for (guint i = 0; i < 36; i++)
    {
      if (i == 8 || i == 13 || i == 18 || i == 23)
        {
          if (s[i] != '-')
            return FALSE;
          continue;
        }
      if (!g_ascii_isxdigit (s[i]) || !g_ascii_isxdigit (s[i + 1]))
        return FALSE;
      out[n++] = (guint8) (g_ascii_xdigit_value (s[i]) << 4 | g_ascii_xdigit_value (s[i + 1]));
      i++;
    }
  return n == 16;
}

/* ---------------------------------------------------------------------- */
/* Type specifiers                                                         */

static TType *parse_type (Parser *p);

/* "name = value;" pairs of integer and floating point types. */
static gboolean
parse_number_attributes (Parser *p,
                         TType  *t)
{
  gboolean has_size = FALSE;

  if (!expect (p, "{"))
    return FALSE;
  while (!accept (p, "}"))
    {
      Token *key = next (p);
      g_auto(Value) v = { 0 };
      guint64 n = 0;

      if (key->kind != TOK_IDENT)
        return fail (p, "an attribute name expected");
      if (!expect (p, "=") || !parse_value (p, &v) || !expect (p, ";"))
        return FALSE;
      if (g_str_equal (key->text, "size"))
        {
          if (!value_uint (p, &v, "size", G_MAXUINT32, &n))
            return FALSE;
          t->size = (guint) n;
          has_size = TRUE;
        }
      else if (g_str_equal (key->text, "align"))
        {
          if (!value_uint (p, &v, "align", G_MAXUINT32, &n))
            return FALSE;
          t->align = (guint) n;
        }
      else if (g_str_equal (key->text, "signed"))
        {
          if (!value_bool (p, &v, "signed", &t->is_signed))
            return FALSE;
        }
      else if (g_str_equal (key->text, "byte_order"))
        {
          if (v.kind != TOK_IDENT)
            return fail (p, "byte_order: native, network, be or le expected");
          if (g_str_equal (v.text, "le"))
            t->byte_order = 1;
          else if (g_str_equal (v.text, "be") || g_str_equal (v.text, "network"))
            t->byte_order = 2;
          else if (g_str_equal (v.text, "native"))
            t->byte_order = 0;
          else
            return fail (p, "byte_order: native, network, be or le expected");
        }
      else if (g_str_equal (key->text, "map"))
        {
          if (v.kind != TOK_IDENT || !g_str_has_prefix (v.text, "clock.") || !g_str_has_suffix (v.text, ".value"))
            return fail (p, "map: clock.NAME.value expected");
          g_free (t->map_clock);
          t->map_clock = g_strndup (v.text + 6, strlen (v.text) - 12);
        }
      else if (g_str_equal (key->text, "exp_dig"))
        {
          if (!value_uint (p, &v, "exp_dig", 64, &n))
            return FALSE;
          t->exp_dig = (guint) n;
        }
      else if (g_str_equal (key->text, "mant_dig"))
        {
          if (!value_uint (p, &v, "mant_dig", 64, &n))
            return FALSE;
          t->mant_dig = (guint) n;
        }
      else if (!g_str_equal (key->text, "base") && !g_str_equal (key->text, "encoding"))
        warn (p, key->line, "unknown %s attribute “%s”, ignored as babeltrace2 does: the field "
              "may not be read as it was written", t->kind == T_INT ? "integer" : "floating point",
              key->text);
    }
  if (t->kind == T_INT && !has_size)
    return fail (p, "an integer without a size");
  return TRUE;
}

static gboolean
parse_enumerators (Parser *p,
                   TType  *t)
{
  gint64 next_value = 0;
  gboolean next_unsigned = FALSE;

  t->mappings = g_array_new (FALSE, TRUE, sizeof (TMapping));
  g_array_set_clear_func (t->mappings, tsdl_mapping_clear);
  if (!expect (p, "{"))
    return FALSE;
  while (!accept (p, "}"))
    {
      Token *label = next (p);
      TMapping m = { 0 };

      if (label->kind != TOK_IDENT && label->kind != TOK_STRING)
        return fail (p, "an enumerator name expected");
      if (t->mappings->len >= TSDL_MAX_MEMBERS)
        return fail (p, "more than %u enumerators", TSDL_MAX_MEMBERS);
      m.line = label->line;
      m.lo = m.hi = next_value;
      m.is_unsigned = next_unsigned;
      if (accept (p, "="))
        {
          g_auto(Value) lo = { 0 };

          if (!parse_value (p, &lo))
            return FALSE;
          if (lo.kind != TOK_INT || lo.overflow)
            return fail (p, "an enumerator's value must be a 64-bit number");
          m.is_unsigned = !lo.negative && lo.value > G_MAXINT64;
          m.lo = m.hi = lo.negative ? (gint64) (0 - lo.value) : (gint64) lo.value;
          if (accept (p, "..."))
            {
              g_auto(Value) hi = { 0 };

              if (!parse_value (p, &hi))
                return FALSE;
              if (hi.kind != TOK_INT || hi.overflow)
                return fail (p, "an enumerator's value must be a 64-bit number");
              m.hi = hi.negative ? (gint64) (0 - hi.value) : (gint64) hi.value;
              m.is_unsigned |= !hi.negative && hi.value > G_MAXINT64;
            }
        }
      m.label = g_strdup (label->text);
      g_array_append_val (t->mappings, m);
      next_unsigned = m.is_unsigned;
      next_value = (gint64) ((guint64) m.hi + 1);
      if (!accept (p, ","))
        {
          if (!expect (p, "}"))
            return FALSE;
          break;
        }
    }
  return TRUE;
}


static TType *
parse_enum (Parser *p,
            guint   line)
{
  g_autofree char *key = NULL;
  TType *t;

  if (peek (p)->kind == TOK_IDENT)
    key = g_strconcat ("enum ", next (p)->text, NULL);
  if (!is_punct (peek (p), ":") && !is_punct (peek (p), "{"))
    {
      t = key != NULL ? scope_find (p, key) : NULL;
      if (t == NULL)
        fail (p, "unknown %s", key != NULL ? key : "enum");
      return t;
    }
  t = tsdl_type_new (T_ENUM, line);
  t->container = accept (p, ":") ? parse_type (p) : scope_find (p, "int");
  if (t->container == NULL)
    {
      fail (p, "an enumeration needs an integer type (no “int” declared)");
      tsdl_type_unref (t);
      return NULL;
    }
  if (!parse_enumerators (p, t))
    {
      tsdl_type_unref (t);
      return NULL;
    }
  if (key != NULL)
    scope_add (p, key, t);
  return t;
}

static gboolean parse_member (Parser    *p,
                              GPtrArray *members);

/* A structure's or variant's body, after its "{". */
static gboolean
parse_body (Parser *p,
            TType  *t)
{
  gboolean ok = TRUE;

  if (++p->depth > TSDL_MAX_DEPTH)
    return fail (p, "types nested more than %u deep", TSDL_MAX_DEPTH);
  t->members = g_ptr_array_new_with_free_func (tsdl_member_free);
  scope_push (p);
  while (ok && !accept (p, "}"))
    {
      if (peek (p)->kind == TOK_EOF)
        ok = fail (p, "a structure or variant is not closed");
      else if (t->members->len >= TSDL_MAX_MEMBERS)
        ok = fail (p, "more than %u members", TSDL_MAX_MEMBERS);
      else
        ok = parse_member (p, t->members);
    }
  scope_pop (p);
  p->depth--;
  return ok;
}

static TType *
parse_compound (Parser *p,
                TKind   kind,
                guint   line)
{
  g_autofree char *key = NULL;
  g_autofree char *tag = NULL;
  TType *t = NULL;

  if (peek (p)->kind == TOK_IDENT && !g_str_equal (peek (p)->text, "align"))
    key = g_strconcat (kind == T_STRUCT ? "struct " : "variant ", next (p)->text, NULL);
  if (kind == T_VARIANT && accept (p, "<"))
    {
      g_auto(Value) v = { 0 };

      if (!parse_value (p, &v) || v.kind != TOK_IDENT || !expect (p, ">"))
        {
          fail (p, "a variant's selector: <name> expected");
          return NULL;
        }
      tag = g_strdup (v.text);
    }
  if (accept (p, "{"))
    {
      t = tsdl_type_new (kind, line);
      if (!parse_body (p, t))
        {
          tsdl_type_unref (t);
          return NULL;
        }
      if (key != NULL)
        scope_add (p, key, t);
    }
  else if (key != NULL)
    {
      TType *named = scope_find (p, key);

      if (named == NULL)
        {
          fail (p, "unknown %s", key);
          return NULL;
        }
      if (tag == NULL)
        return named;
      /* a declared variant used with its selector */
      t = tsdl_type_new (kind, line);
      t->members = g_ptr_array_ref (named->members);
      t->align = named->align;
      tsdl_type_unref (named);
    }
  else
    {
      fail (p, "a %s without a body or a name", kind == T_STRUCT ? "structure" : "variant");
      return NULL;
    }
  if (tag != NULL)
    {
      g_free (t->tag);
      t->tag = g_steal_pointer (&tag);
    }
  if (kind == T_STRUCT && is_word (peek (p), "align"))
    {
      g_auto(Value) v = { 0 };
      guint64 n;

      next (p);
      if (!expect (p, "(") || !parse_value (p, &v) || !value_uint (p, &v, "align", G_MAXUINT32, &n) ||
          !expect (p, ")"))
        {
          tsdl_type_unref (t);
          return NULL;
        }
      if (t->refs > 1)
        {
          /* a named structure's alignment belongs to this use only */
          TType *c = tsdl_type_new (T_STRUCT, line);

          c->members = g_ptr_array_ref (t->members);
          tsdl_type_unref (t);
          t = c;
        }
      t->align = MAX (t->align, (guint) n);
    }
  return t;
}

/* A type that starts with a keyword. */
static TType *
parse_keyword_type (Parser *p)
{
  Token *kw = next (p);
  TType *t;

  if (g_str_equal (kw->text, "integer") || g_str_equal (kw->text, "floating_point"))
    {
      t = tsdl_type_new (g_str_equal (kw->text, "integer") ? T_INT : T_FLOAT, kw->line);
      if (!parse_number_attributes (p, t))
        {
          tsdl_type_unref (t);
          return NULL;
        }
      return t;
    }
  if (g_str_equal (kw->text, "string"))
    {
      t = tsdl_type_new (T_STRING, kw->line);
      t->align = 8;
      if (is_punct (peek (p), "{"))
        {
          /* string { encoding = …; }: nothing Syncline needs */
          next (p);
          while (!accept (p, "}"))
            if (next (p)->kind == TOK_EOF)
              {
                fail (p, "a string's attributes are not closed");
                tsdl_type_unref (t);
                return NULL;
              }
        }
      return t;
    }
  if (g_str_equal (kw->text, "enum"))
    return parse_enum (p, kw->line);
  return parse_compound (p, g_str_equal (kw->text, "struct") ? T_STRUCT : T_VARIANT, kw->line);
}

/* A name made of one or more words ("uint8_t", "unsigned long"). */
static char *
join_words (GPtrArray *words,
            guint      n)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (s, ' ');
      g_string_append (s, g_ptr_array_index (words, i));
    }
  return g_string_free (s, FALSE);
}

static TType *
find_alias (Parser     *p,
            const char *name,
            guint       line)
{
  TType *t = scope_find (p, name);

  if (t == NULL)
    {
      p->error_line = line;
      fail (p, "unknown type “%s”", name);
    }
  return t;
}

/* A type: a keyword type or the name of an alias, every word of it. */
static TType *
parse_type (Parser *p)
{
  g_autoptr(GPtrArray) words = g_ptr_array_new ();
  g_autofree char *name = NULL;
  guint line = peek (p)->line;

  if (is_type_keyword (peek (p)))
    return parse_keyword_type (p);
  while (peek (p)->kind == TOK_IDENT)
    g_ptr_array_add (words, (gpointer) next (p)->text);
  if (words->len == 0)
    {
      fail (p, "a type expected");
      return NULL;
    }
  name = join_words (words, words->len);
  return find_alias (p, name, line);
}

/* Declarator suffixes: [N] arrays, [path] sequences (outermost first). */
static TType *
parse_dimensions (Parser *p,
                  TType  *base)
{
  g_autoptr(GArray) dims = g_array_new (FALSE, FALSE, sizeof (Value));
  TType *t = base;

  g_array_set_clear_func (dims, (GDestroyNotify) value_clear);
  while (accept (p, "["))
    {
      Value v;

      if (dims->len >= TSDL_MAX_DEPTH)
        fail (p, "more than %u dimensions", TSDL_MAX_DEPTH);
      if (p->error != NULL || !parse_value (p, &v))
        {
          tsdl_type_unref (base);
          return NULL;
        }
      g_array_append_val (dims, v);
      if ((v.kind != TOK_INT && v.kind != TOK_IDENT) || v.negative || !expect (p, "]"))
        {
          fail (p, "an array length or a sequence's length field expected");
          tsdl_type_unref (base);
          return NULL;
        }
    }
  for (guint i = dims->len; i > 0; i--)
    {
      Value *v = &g_array_index (dims, Value, i - 1);
      TType *a = tsdl_type_new (v->kind == TOK_INT ? T_ARRAY : T_SEQUENCE, v->line);

      a->element = t;
      a->align = t->align;
      if (v->kind == TOK_INT)
        a->length = v->overflow ? G_MAXUINT64 : v->value;
      else
        a->length_path = g_strdup (v->text);
      t = a;
    }
  return t;
}

/* typealias TYPE := NAME;  or  typedef TYPE NAME; */
static gboolean
parse_alias (Parser *p)
{
  gboolean is_typedef = g_str_equal (next (p)->text, "typedef");
  g_autoptr(GPtrArray) words = g_ptr_array_new ();
  g_autofree char *name = NULL;
  TType *t;
  guint line = peek (p)->line;

  if (is_typedef)
    {
      if (is_type_keyword (peek (p)))
        t = parse_keyword_type (p);
      else
        {
          g_autofree char *type_name = NULL;

          while (peek (p)->kind == TOK_IDENT)
            g_ptr_array_add (words, (gpointer) next (p)->text);
          if (words->len < 2)
            return fail (p, "typedef TYPE NAME; expected");
          type_name = join_words (words, words->len - 1);
          t = find_alias (p, type_name, line);
          g_ptr_array_remove_range (words, 0, words->len - 1);
        }
      if (t != NULL && words->len == 0)
        {
          if (peek (p)->kind != TOK_IDENT)
            fail (p, "typedef TYPE NAME; expected");
          else
            g_ptr_array_add (words, (gpointer) next (p)->text);
        }
    }
  else
    {
      t = parse_type (p);
      if (t != NULL && !expect (p, ":="))
        g_clear_pointer (&t, tsdl_type_unref);
      while (t != NULL && peek (p)->kind == TOK_IDENT)
        g_ptr_array_add (words, (gpointer) next (p)->text);
      if (t != NULL && words->len == 0)
        fail (p, "typealias TYPE := NAME; expected");
    }
  accept (p, "*");
  if (t != NULL)
    t = parse_dimensions (p, t);
  if (t == NULL || p->error != NULL || !expect (p, ";"))
    {
      tsdl_type_unref (t);
      return FALSE;
    }
  name = join_words (words, words->len);
  scope_add (p, name, t);
  tsdl_type_unref (t);
  return TRUE;
}

static gboolean
add_member (Parser    *p,
            GPtrArray *members,
            TType     *type,
            const char *name,
            guint      line)
{
  TMember *m = g_new0 (TMember, 1);
  TType *t = parse_dimensions (p, tsdl_type_ref (type));

  if (t == NULL)
    {
      g_free (m);
      return FALSE;
    }
  m->name = g_strdup (name);
  m->type = t;
  m->line = line;
  g_ptr_array_add (members, m);
  return TRUE;
}

/* In a structure or variant: a declaration, or TYPE NAME[…], NAME…; */
static gboolean
parse_member (Parser    *p,
              GPtrArray *members)
{
  g_autoptr(TType) type = NULL;
  g_autoptr(GPtrArray) words = g_ptr_array_new ();

  if (is_word (peek (p), "typealias") || is_word (peek (p), "typedef"))
    return parse_alias (p);
  if (is_type_keyword (peek (p)))
    {
      type = parse_keyword_type (p);
      if (type == NULL)
        return FALSE;
      if (accept (p, ";"))
        return TRUE;
    }
  else
    {
      g_autofree char *name = NULL;
      guint line = peek (p)->line;

      while (peek (p)->kind == TOK_IDENT)
        g_ptr_array_add (words, (gpointer) next (p)->text);
      if (words->len < 2)
        return fail (p, "a member needs a type and a name");
      name = join_words (words, words->len - 1);
      type = find_alias (p, name, line);
      if (type == NULL)
        return FALSE;
      g_ptr_array_remove_range (words, 0, words->len - 1);
    }

  for (;;)
    {
      Token *name = words->len > 0 ? NULL : next (p);
      guint line = name != NULL ? name->line : peek (p)->line;
      const char *text = name != NULL ? name->text : g_ptr_array_index (words, 0);

      if (name != NULL && name->kind != TOK_IDENT)
        return fail (p, "a member's name expected");
      if (!add_member (p, members, type, text, line))
        return FALSE;
      g_ptr_array_set_size (words, 0);
      if (accept (p, ";"))
        return TRUE;
      if (!expect (p, ","))
        return FALSE;
    }
}

/* ---------------------------------------------------------------------- */
/* Blocks                                                                  */

typedef enum
{
  BLOCK_TRACE,
  BLOCK_ENV,
  BLOCK_CLOCK,
  BLOCK_STREAM,
  BLOCK_EVENT,
  BLOCK_OTHER,
} BlockKind;

typedef struct
{
  BlockKind    kind;
  SlTsdlClock *clock;
  TStream     *stream;
  TEvent      *event;
  gboolean     has_name;
} Block;

static gboolean
block_value (Parser      *p,
             Block       *b,
             const char  *key,
             const Value *v)
{
  SlTsdl *t = p->t;
  guint64 n;

  switch (b->kind)
    {
    case BLOCK_TRACE:
      if (g_str_equal (key, "major"))
        return value_uint (p, v, key, G_MAXUINT32, &n) && (t->major = (guint) n, TRUE);
      if (g_str_equal (key, "minor"))
        return value_uint (p, v, key, G_MAXUINT32, &n) && (t->minor = (guint) n, TRUE);
      if (g_str_equal (key, "uuid"))
        {
          t->has_uuid = v->kind == TOK_STRING && parse_uuid (v->text, t->uuid);
          return t->has_uuid || fail (p, "uuid: a UUID string expected");
        }
      if (g_str_equal (key, "byte_order"))
        {
          if (v->kind == TOK_IDENT && g_str_equal (v->text, "le"))
            t->byte_order = 1;
          else if (v->kind == TOK_IDENT && (g_str_equal (v->text, "be") || g_str_equal (v->text, "network")))
            t->byte_order = 2;
          else
            return fail (p, "byte_order: be or le expected");
        }
      return TRUE;

    case BLOCK_ENV:
      g_hash_table_replace (t->env, g_strdup (key),
                            v->kind == TOK_INT ? g_strdup_printf ("%s%" G_GUINT64_FORMAT, v->negative ? "-" : "", v->value)
                                               : g_strdup (v->text != NULL ? v->text : ""));
      return TRUE;

    case BLOCK_CLOCK:
      if (g_str_equal (key, "name"))
        {
          g_free (b->clock->name);
          b->clock->name = g_strdup (v->text != NULL ? v->text : "");
          b->has_name = TRUE;
        }
      else if (g_str_equal (key, "uuid"))
        {
          b->clock->has_uuid = v->kind == TOK_STRING && parse_uuid (v->text, b->clock->uuid);
          return b->clock->has_uuid || fail (p, "uuid: a UUID string expected");
        }
      else if (g_str_equal (key, "freq"))
        return value_uint (p, v, key, G_MAXUINT64, &b->clock->freq);
      else if (g_str_equal (key, "offset_s"))
        {
          b->clock->offset_s_span[0] = v->start;
          b->clock->offset_s_span[1] = v->end;
          return value_int (p, v, key, &b->clock->offset_s);
        }
      else if (g_str_equal (key, "offset"))
        {
          b->clock->offset_span[0] = v->start;
          b->clock->offset_span[1] = v->end;
          return value_uint (p, v, key, G_MAXUINT64, &b->clock->offset);
        }
      else if (g_str_equal (key, "absolute"))
        return value_bool (p, v, key, &b->clock->absolute);
      return TRUE;

    case BLOCK_STREAM:
      if (g_str_equal (key, "id"))
        {
          b->stream->has_id = TRUE;
          return value_uint (p, v, key, G_MAXUINT64, &b->stream->id);
        }
      return TRUE;

    case BLOCK_EVENT:
      if (g_str_equal (key, "name"))
        {
          g_free (b->event->name);
          b->event->name = g_strdup (v->text != NULL ? v->text : "");
        }
      else if (g_str_equal (key, "id"))
        {
          b->event->has_id = TRUE;
          return value_uint (p, v, key, G_MAXUINT64, &b->event->id);
        }
      else if (g_str_equal (key, "stream_id"))
        {
          b->event->has_stream_id = TRUE;
          return value_uint (p, v, key, G_MAXUINT64, &b->event->stream_id);
        }
      return TRUE;

    case BLOCK_OTHER:
    default:
      return TRUE;
    }
}

static gboolean
block_type (Parser     *p,
            Block      *b,
            const char *key,
            TType      *type)
{
  TType **slot = NULL;

  if (b->kind == BLOCK_TRACE && g_str_equal (key, "packet.header"))
    slot = &p->t->packet_header;
  else if (b->kind == BLOCK_STREAM && g_str_equal (key, "packet.context"))
    slot = &b->stream->packet_context;
  else if (b->kind == BLOCK_STREAM && g_str_equal (key, "event.header"))
    slot = &b->stream->event_header;
  else if (b->kind == BLOCK_STREAM && g_str_equal (key, "event.context"))
    slot = &b->stream->event_context;
  else if (b->kind == BLOCK_EVENT && g_str_equal (key, "context"))
    slot = &b->event->context;
  else if (b->kind == BLOCK_EVENT && g_str_equal (key, "fields"))
    slot = &b->event->fields;
  if (slot == NULL)
    return TRUE;
  if (*slot != NULL)
    return fail (p, "%s given twice", key);
  *slot = tsdl_type_ref (type);
  return TRUE;
}

/* One "key = value;", "key := type;" or declaration of a block. */
static gboolean
parse_block_entry (Parser *p,
                   Block  *b)
{
  g_auto(Value) key = { 0 };

  if (is_word (peek (p), "typealias") || is_word (peek (p), "typedef"))
    return parse_alias (p);
  if (is_type_keyword (peek (p)))
    {
      g_autoptr(TType) t = parse_keyword_type (p);

      return t != NULL && expect (p, ";");
    }
  if (!parse_value (p, &key) || key.kind != TOK_IDENT)
    return fail (p, "an attribute name expected");
  if (accept (p, "="))
    {
      g_auto(Value) v = { 0 };

      return parse_value (p, &v) && expect (p, ";") && block_value (p, b, key.text, &v);
    }
  if (accept (p, ":="))
    {
      g_autoptr(TType) t = parse_type (p);

      if (t != NULL)
        t = parse_dimensions (p, t);
      return t != NULL && expect (p, ";") && block_type (p, b, key.text, t);
    }
  return fail (p, "“=” or “:=” expected after “%s”", key.text);
}

static gboolean
parse_block (Parser *p,
             Block  *b)
{
  gboolean ok = TRUE;

  if (!expect (p, "{"))
    return FALSE;
  scope_push (p);
  while (ok && !accept (p, "}"))
    {
      if (peek (p)->kind == TOK_EOF)
        ok = fail (p, "a block is not closed");
      else
        ok = parse_block_entry (p, b);
    }
  scope_pop (p);
  return ok && expect (p, ";");
}

static void
clock_free (gpointer p)
{
  SlTsdlClock *c = p;

  g_free (c->name);
  g_free (c);
}

static void
stream_free (gpointer p)
{
  TStream *s = p;

  tsdl_type_unref (s->packet_context);
  tsdl_type_unref (s->event_header);
  tsdl_type_unref (s->event_context);
  g_free (s);
}

static void
event_free (gpointer p)
{
  TEvent *e = p;

  g_free (e->name);
  tsdl_type_unref (e->context);
  tsdl_type_unref (e->fields);
  g_free (e);
}

static gboolean
parse_top_block (Parser *p)
{
  static const char *const words[] = { "trace", "env", "clock", "stream", "event" };
  Token *kw = next (p);
  Block b = { BLOCK_OTHER };
  gboolean ok;

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (g_str_equal (kw->text, words[i]))
      b.kind = (BlockKind) i;
  if (b.kind == BLOCK_CLOCK)
    {
      b.clock = g_new0 (SlTsdlClock, 1);
      b.clock->line = kw->line;
      g_ptr_array_add (p->t->clocks, b.clock);
    }
  else if (b.kind == BLOCK_STREAM)
    {
      b.stream = g_new0 (TStream, 1);
      b.stream->line = kw->line;
      g_ptr_array_add (p->t->streams, b.stream);
    }
  else if (b.kind == BLOCK_EVENT)
    {
      b.event = g_new0 (TEvent, 1);
      b.event->line = kw->line;
      g_ptr_array_add (p->t->events, b.event);
    }
  ok = parse_block (p, &b);
  if (ok && b.kind == BLOCK_CLOCK && !b.has_name)
    {
      p->error_line = kw->line;
      return fail (p, "a clock without a name");
    }
  return ok;
}

static gboolean
parse_top (Parser *p)
{
  Token *t = peek (p);

  if (t->kind != TOK_IDENT)
    return fail (p, "a declaration expected, found “%s”", t->text != NULL ? t->text : "a number");
  if (g_str_equal (t->text, "typealias") || g_str_equal (t->text, "typedef"))
    return parse_alias (p);
  if (is_type_keyword (t))
    {
      g_autoptr(TType) type = parse_keyword_type (p);

      return type != NULL && expect (p, ";");
    }
  if (g_str_equal (t->text, "trace") || g_str_equal (t->text, "env") || g_str_equal (t->text, "clock") ||
      g_str_equal (t->text, "stream") || g_str_equal (t->text, "event") || g_str_equal (t->text, "callsite"))
    return parse_top_block (p);
  return fail (p, "“%s” is not a TSDL declaration", t->text);
}

/* ---------------------------------------------------------------------- */
/* Public                                                                  */

void
sl_tsdl_free (SlTsdl *tsdl)
{
  if (tsdl == NULL)
    return;
  tsdl_type_unref (tsdl->packet_header);
  g_hash_table_destroy (tsdl->env);
  g_ptr_array_unref (tsdl->clocks);
  g_ptr_array_unref (tsdl->streams);
  g_ptr_array_unref (tsdl->events);
  g_ptr_array_unref (tsdl->warnings);
  g_free (tsdl);
}

/* An empty description, for a parser to fill (sl-ctf2.c too). */
void
tsdl_init (SlTsdl *t)
{
  t->env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t->clocks = g_ptr_array_new_with_free_func (clock_free);
  t->streams = g_ptr_array_new_with_free_func (stream_free);
  t->events = g_ptr_array_new_with_free_func (event_free);
  t->warnings = g_ptr_array_new_with_free_func (g_free);
}

/**
 * sl_tsdl_parse:
 * @error: "line N: what is wrong" for text babeltrace2 2.0.4 would refuse
 *   or could not survive
 *
 * Parses and checks CTF 1.8 metadata text (depacketized).
 */
SlTsdl *
sl_tsdl_parse (const char  *text,
               gsize        len,
               GError     **error)
{
  g_autoptr(SlTsdl) t = g_new0 (SlTsdl, 1);
  g_autoptr(GPtrArray) scopes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autofree char *why = NULL;
  TsdlTokens tokens = { 0 };
  Parser p = { 0 };
  guint line = 0;

  g_return_val_if_fail (text != NULL, NULL);

  tsdl_init (t);

  if (!tsdl_lex (text, len, &tokens, &why, &line))
    {
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_PARSE, "line %u: %s", line, why);
      return NULL;
    }
  p.tokens = tokens.tokens;
  p.n_tokens = tokens.n;
  p.scopes = scopes;
  p.t = t;
  scope_push (&p);
  while (peek (&p)->kind != TOK_EOF && parse_top (&p))
    ;
  tsdl_tokens_clear (&tokens);
  if (p.error == NULL && !tsdl_check (t, &p.error, &p.error_line))
    g_assert (p.error != NULL);
  if (p.error != NULL)
    {
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_PARSE, "line %u: %s", p.error_line, p.error);
      g_free (p.error);
      return NULL;
    }
  tsdl_compute_layouts (t);
  return g_steal_pointer (&t);
}

const char *
sl_tsdl_get_env (const SlTsdl *tsdl,
                 const char   *key)
{
  g_return_val_if_fail (tsdl != NULL, NULL);

  return g_hash_table_lookup (tsdl->env, key);
}

/**
 * sl_tsdl_get_warnings:
 *
 * Returns: (transfer none): "line N: …" for text read, but perhaps not as
 *   its writer meant (at most a few), or %NULL when there is none
 */
const GPtrArray *
sl_tsdl_get_warnings (const SlTsdl *tsdl)
{
  g_return_val_if_fail (tsdl != NULL, NULL);

  return tsdl->warnings->len > 0 ? tsdl->warnings : NULL;
}

gboolean
sl_tsdl_get_uuid (const SlTsdl *tsdl,
                  guint8       *uuid)
{
  g_return_val_if_fail (tsdl != NULL, FALSE);

  if (tsdl->has_uuid && uuid != NULL)
    memcpy (uuid, tsdl->uuid, 16);
  return tsdl->has_uuid;
}

guint
sl_tsdl_get_n_clocks (const SlTsdl *tsdl)
{
  g_return_val_if_fail (tsdl != NULL, 0);

  return tsdl->clocks->len;
}

const SlTsdlClock *
sl_tsdl_get_clock (const SlTsdl *tsdl,
                   guint         index)
{
  g_return_val_if_fail (tsdl != NULL && index < tsdl->clocks->len, NULL);

  return g_ptr_array_index (tsdl->clocks, index);
}

guint
sl_tsdl_get_n_streams (const SlTsdl *tsdl)
{
  g_return_val_if_fail (tsdl != NULL, 0);

  return tsdl->streams->len;
}

/* The stream class of a packet's stream_id (the only one without it). */
gboolean
sl_tsdl_find_stream (const SlTsdl *tsdl,
                     guint64       id,
                     guint        *index)
{
  g_return_val_if_fail (tsdl != NULL, FALSE);

  for (guint i = 0; i < tsdl->streams->len; i++)
    {
      const TStream *s = g_ptr_array_index (tsdl->streams, i);

      if (s->has_id ? s->id == id : id == 0)
        {
          *index = i;
          return TRUE;
        }
    }
  return FALSE;
}

const SlTsdlLayout *
sl_tsdl_get_layout (const SlTsdl *tsdl,
                    guint         stream)
{
  g_return_val_if_fail (tsdl != NULL && stream < tsdl->streams->len, NULL);

  return &((TStream *) g_ptr_array_index (tsdl->streams, stream))->layout;
}

const SlTsdlLayout *
sl_tsdl_get_header_layout (const SlTsdl *tsdl)
{
  g_return_val_if_fail (tsdl != NULL, NULL);

  return &tsdl->header_layout;
}

/* The largest number of bytes a static array of the metadata declares
 * (the checks bound it). */
guint64
sl_tsdl_get_max_static_bytes (const SlTsdl *tsdl)
{
  g_return_val_if_fail (tsdl != NULL, 0);

  return tsdl->max_static_bytes;
}

/**
 * sl_tsdl_clock_ns:
 *
 * A clock value in ns from the epoch: offset_s·1e9 + (offset + cycles)·1e9
 * / freq, exactly (128-bit). FALSE when it does not fit in 64 bits.
 */
gboolean
sl_tsdl_clock_ns (const SlTsdlClock *clock,
                  guint64            cycles,
                  gint64            *ns)
{
  __int128 v;

  g_return_val_if_fail (clock != NULL && clock->freq > 0, FALSE);

  v = ((__int128) clock->offset + (__int128) cycles) * 1000000000 / (__int128) clock->freq +
      (__int128) clock->offset_s * 1000000000;
  if (v < G_MININT64 || v > G_MAXINT64)
    return FALSE;
  *ns = (gint64) v;
  return TRUE;
}
