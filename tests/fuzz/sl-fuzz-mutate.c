/* sl-fuzz-mutate.c: deterministic damage to trace files and LTTV text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-ctf-meta.h"
#include "sl-fuzz-mutate.h"
#include "sl-tsdl.h"

static gsize
pick (GRand *rand,
      gsize  n)
{
  if (n <= 1)
    return 0;
  if (n > G_MAXINT32)
    return ((gsize) g_rand_int (rand) << 32 | g_rand_int (rand)) % n;
  return (gsize) g_rand_int_range (rand, 0, (gint32) n);
}

/* ---------------------------------------------------------------------- */
/* Bytes                                                                   */

static void
flip (GByteArray *b,
      GRand      *rand,
      guint       n,
      gsize       span)
{
  span = MIN (span, b->len);
  for (guint i = 0; i < n && span > 0; i++)
    b->data[pick (rand, span)] ^= (guint8) (1u << g_rand_int_range (rand, 0, 8));
}

void
sl_fuzz_bytes (GByteArray  *b,
               GRand       *rand,
               gsize        head,
               const char **what)
{
  gsize at, n;

  if (b->len == 0)
    {
      g_byte_array_append (b, (const guint8 *) "\xff", 1);
      *what = "one byte in an empty file";
      return;
    }
  at = pick (rand, b->len);
  n = 1 + pick (rand, MIN (b->len - at, (gsize) 64));
  switch (g_rand_int_range (rand, 0, 9))
    {
    case 0:
      flip (b, rand, 1, b->len);
      *what = "one bit flipped";
      break;
    case 1:
      flip (b, rand, 1, head);
      *what = "one bit flipped in the headers";
      break;
    case 2:
      flip (b, rand, 2 + g_rand_int_range (rand, 0, 62), g_rand_boolean (rand) ? head : b->len);
      *what = "bits flipped";
      break;
    case 3:
      for (gsize i = 0; i < n; i++)
        b->data[at + i] = (guint8) g_rand_int (rand);
      *what = "random bytes written";
      break;
    case 4:
      memset (b->data + at, g_rand_boolean (rand) ? 0 : 0xff, n);
      *what = "a run of 0x00 or 0xff written";
      break;
    case 5:
      g_byte_array_set_size (b, (guint) pick (rand, b->len));
      *what = "truncated";
      break;
    case 6:
      g_byte_array_set_size (b, (guint) MIN (b->len, pick (rand, MIN (b->len, head)) + 1));
      *what = "truncated in the headers";
      break;
    case 7:
      g_byte_array_remove_range (b, (guint) at, (guint) n);
      *what = "a chunk deleted";
      break;
    default:
      {
        g_autofree guint8 *chunk = g_memdup2 (b->data + at, n);

        g_byte_array_append (b, chunk, (guint) n);
        memmove (b->data + at + 2 * n, b->data + at + n, b->len - at - 2 * n);
        memcpy (b->data + at + n, chunk, n);
        *what = "a chunk repeated";
      }
      break;
    }
}

/* ---------------------------------------------------------------------- */
/* TSDL text                                                               */

typedef struct
{
  gsize start;
  gsize end;
} Span;

static gboolean
is_ident (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* Every place where @word starts (as a whole word). */
static GArray *
find_words (const GString *s,
            const char    *word)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Span));
  gsize n = strlen (word);

  for (const char *p = s->str; (p = strstr (p, word)) != NULL; p += n)
    {
      Span sp = { (gsize) (p - s->str), (gsize) (p - s->str) + n };

      if ((sp.start == 0 || !is_ident (s->str[sp.start - 1])) && !is_ident (s->str[sp.end]))
        g_array_append_val (out, sp);
    }
  return out;
}

/* Every unsigned number (digits, or 0x…). */
static GArray *
find_numbers (const GString *s)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Span));

  for (gsize i = 0; i < s->len; i++)
    if (g_ascii_isdigit (s->str[i]) && (i == 0 || !is_ident (s->str[i - 1])))
      {
        Span sp = { i, i };

        while (sp.end < s->len && is_ident (s->str[sp.end]))
          sp.end++;
        g_array_append_val (out, sp);
        i = sp.end;
      }
  return out;
}

/* The value after "@word =" up to ';', ',' or '}', for each @word. */
static GArray *
find_values (const GString *s,
             const char    *word)
{
  g_autoptr(GArray) words = find_words (s, word);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Span));

  for (guint i = 0; i < words->len; i++)
    {
      gsize p = g_array_index (words, Span, i).end;
      Span sp;

      while (p < s->len && g_ascii_isspace (s->str[p]))
        p++;
      if (p >= s->len || s->str[p] != '=')
        continue;
      p++;
      while (p < s->len && g_ascii_isspace (s->str[p]))
        p++;
      sp.start = p;
      while (p < s->len && s->str[p] != ';' && s->str[p] != ',' && s->str[p] != '}')
        p++;
      sp.end = p;
      g_array_append_val (out, sp);
    }
  return out;
}

static gboolean
pick_span (GArray *spans,
           GRand  *rand,
           Span   *out)
{
  if (spans->len == 0)
    return FALSE;
  *out = g_array_index (spans, Span, pick (rand, spans->len));
  return TRUE;
}

static void
replace (GString    *s,
         Span        sp,
         const char *with)
{
  g_string_erase (s, (gssize) sp.start, (gssize) (sp.end - sp.start));
  g_string_insert (s, (gssize) sp.start, with);
}

static const char *const extremes[] = {
  "0", "1", "2", "7", "9", "63", "65", "128", "255", "256", "65535", "2147483647", "2147483648",
  "4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "18446744073709551615",
  "18446744073709551616", "99999999999999999999999999", "0x7fffffffffffffff", "0xffffffffffffffff",
  "-1", "-9223372036854775808",
};

/* Statements inside braces: from after '{' or ';' to the next ';'. */
static GArray *
find_statements (const GString *s)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Span));
  gsize start = 0;
  int depth = 0;

  for (gsize i = 0; i < s->len; i++)
    {
      char c = s->str[i];

      if (c == '{')
        depth++, start = i + 1;
      else if (c == '}')
        depth--, start = i + 1;
      else if (c == ';')
        {
          Span sp = { start, i + 1 };

          if (depth > 0)
            g_array_append_val (out, sp);
          start = i + 1;
        }
    }
  return out;
}

/* The '{' that opens the block after position @p (skipping nothing). */
static const char *
open_brace (const GString *s,
            gsize          p)
{
  return strchr (s->str + p, '{');
}

/* Enum entries "_name = A" or "_name = A ... B" inside "enum : TYPE { … }"
 * (TYPE may be an "integer { … }" block of its own). */
static GArray *
find_enum_entries (const GString *s)
{
  g_autoptr(GArray) enums = find_words (s, "enum");
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Span));

  for (guint i = 0; i < enums->len; i++)
    {
      gsize p = g_array_index (enums, Span, i).end;
      const char *open, *close;

      while (p < s->len && (g_ascii_isspace (s->str[p]) || s->str[p] == ':'))
        p++;
      if (g_str_has_prefix (s->str + p, "integer"))
        {
          const char *type_end = strchr (s->str + p, '}');

          if (type_end == NULL)
            continue;
          p = (gsize) (type_end - s->str) + 1;
        }
      if ((open = open_brace (s, p)) == NULL || (close = strchr (open, '}')) == NULL)
        continue;
      p = (gsize) (open - s->str) + 1;
      while (p < (gsize) (close - s->str))
        {
          Span sp = { p, p };

          while (sp.end < (gsize) (close - s->str) && s->str[sp.end] != ',')
            sp.end++;
          if (memchr (s->str + sp.start, '=', sp.end - sp.start) != NULL)
            g_array_append_val (out, sp);
          p = sp.end + 1;
        }
    }
  return out;
}

static gboolean
tsdl_structural (GString     *s,
                 GRand       *rand,
                 guint        kind,
                 const char **what)
{
  Span sp;

  switch (kind)
    {
    case 0:
      {
        g_autoptr(GArray) st = find_statements (s);
        g_autofree char *copy = NULL;

        if (!pick_span (st, rand, &sp))
          return FALSE;
        copy = g_strndup (s->str + sp.start, sp.end - sp.start);
        g_string_insert (s, (gssize) sp.end, copy);
        *what = "TSDL: a member or attribute repeated";
        return TRUE;
      }
    case 1:
      {
        g_autoptr(GArray) e = find_enum_entries (s);
        const char *dots;
        g_autofree char *a = NULL, *b = NULL, *with = NULL;
        Span r;

        if (!pick_span (e, rand, &sp) ||
            (dots = g_strstr_len (s->str + sp.start, (gssize) (sp.end - sp.start), "...")) == NULL)
          return FALSE;
        r.start = (gsize) (strchr (s->str + sp.start, '=') - s->str) + 1;
        r.end = sp.end;
        a = g_strstrip (g_strndup (s->str + r.start, (gsize) (dots - s->str) - r.start));
        b = g_strstrip (g_strndup (dots + 3, r.end - (gsize) (dots + 3 - s->str)));
        with = g_strdup_printf (" %s ... %s", b, a);
        replace (s, r, with);
        *what = "TSDL: an enum range reversed";
        return TRUE;
      }
    case 2:
      {
        g_autoptr(GArray) e = find_enum_entries (s);
        Span a, b;
        g_autofree char *value = NULL;

        if (!pick_span (e, rand, &a) || !pick_span (e, rand, &b))
          return FALSE;
        a.start = (gsize) (strchr (s->str + a.start, '=') - s->str) + 1;
        b.start = (gsize) (strchr (s->str + b.start, '=') - s->str) + 1;
        value = g_strndup (s->str + a.start, a.end - a.start);
        replace (s, b, value);
        *what = "TSDL: two enum entries given the same value (overlap)";
        return TRUE;
      }
    case 3:
      {
        g_autoptr(GArray) e = find_enum_entries (s);

        if (!pick_span (e, rand, &sp))
          return FALSE;
        if (sp.end < s->len && s->str[sp.end] == ',')
          sp.end++;
        replace (s, sp, "");
        *what = "TSDL: an enum mapping dropped (a variant option unmapped)";
        return TRUE;
      }
    case 4:
      {
        g_autoptr(GArray) n = find_numbers (s);
        GArray *arrays = g_array_new (FALSE, FALSE, sizeof (Span));
        static const char *const lengths[] = { "4294967295", "1048577", "16777217", "0", "18446744073709551615" };

        for (guint i = 0; i < n->len; i++)
          {
            Span x = g_array_index (n, Span, i);

            if (x.start > 0 && s->str[x.start - 1] == '[' && s->str[x.end] == ']')
              g_array_append_val (arrays, x);
          }
        if (!pick_span (arrays, rand, &sp))
          {
            g_array_unref (arrays);
            return FALSE;
          }
        g_array_unref (arrays);
        replace (s, sp, lengths[pick (rand, G_N_ELEMENTS (lengths))]);
        *what = "TSDL: an array made huge or empty";
        return TRUE;
      }
    case 5:
      {
        g_autoptr(GArray) v = find_values (s, "freq");
        static const char *const freqs[] = { "0", "1", "18446744073709551615", "-1" };

        if (!pick_span (v, rand, &sp))
          return FALSE;
        if (g_rand_boolean (rand))
          {
            /* the whole "freq = N;" */
            gsize start = sp.start;

            while (start > 0 && s->str[start - 1] != ';' && s->str[start - 1] != '{')
              start--;
            sp.start = start;
            if (sp.end < s->len && s->str[sp.end] == ';')
              sp.end++;
            replace (s, sp, "");
            *what = "TSDL: a clock without freq";
          }
        else
          {
            replace (s, sp, freqs[pick (rand, G_N_ELEMENTS (freqs))]);
            *what = "TSDL: a clock frequency at its limits";
          }
        return TRUE;
      }
    case 6:
      {
        static const char *const words[] = { "size", "align" };
        static const char *const values[] = { "0", "1", "3", "7", "63", "65", "128", "4294967296", "1099511627776" };
        g_autoptr(GArray) v = find_values (s, words[g_rand_int_range (rand, 0, 2)]);

        if (!pick_span (v, rand, &sp))
          return FALSE;
        replace (s, sp, values[pick (rand, G_N_ELEMENTS (values))]);
        *what = "TSDL: an integer size or alignment out of range";
        return TRUE;
      }
    default:
      return FALSE;
    }
}

static const char ctf2[] =
  "\x1e{\"type\":\"preamble\",\"version\":2}\n"
  "\x1e{\"type\":\"trace-class\",\"environment\":{\"hostname\":\"ctf2-host\",\"domain\":\"kernel\","
  "\"tracer_name\":\"lttng-modules\"}}\n"
  "\x1e{\"type\":\"clock-class\",\"id\":\"monotonic\",\"frequency\":1000000000}\n";

static gboolean
tsdl_token (GString     *s,
            GRand       *rand,
            guint        kind,
            const char **what)
{
  Span sp;

  switch (kind)
    {
    case 0:
      {
        g_autoptr(GArray) n = find_numbers (s);

        if (!pick_span (n, rand, &sp))
          return FALSE;
        replace (s, sp, extremes[pick (rand, G_N_ELEMENTS (extremes))]);
        *what = "TSDL: a number at its limits";
        return TRUE;
      }
    case 1:
    case 2:
      {
        /* a token (a run of identifier characters or one punctuation
         * character) deleted or repeated */
        gsize at = pick (rand, s->len);
        gsize end = at + 1;
        g_autofree char *tok = NULL;

        if (s->len == 0)
          return FALSE;
        if (is_ident (s->str[at]))
          {
            while (at > 0 && is_ident (s->str[at - 1]))
              at--;
            while (end < s->len && is_ident (s->str[end]))
              end++;
          }
        tok = g_strndup (s->str + at, end - at);
        if (kind == 1)
          g_string_erase (s, (gssize) at, (gssize) (end - at));
        else
          g_string_insert (s, (gssize) end, tok);
        *what = kind == 1 ? "TSDL: a token deleted" : "TSDL: a token repeated";
        return TRUE;
      }
    case 3:
      {
        /* two lines swapped, or one deleted */
        g_auto(GStrv) lines = g_strsplit (s->str, "\n", 0);
        guint n = g_strv_length (lines);
        guint a = (guint) pick (rand, n), b = (guint) pick (rand, n);
        g_autofree char *joined = NULL;

        if (n < 2)
          return FALSE;
        if (g_rand_boolean (rand))
          {
            char *t = lines[a];

            lines[a] = lines[b];
            lines[b] = t;
            *what = "TSDL: two lines swapped";
          }
        else
          {
            lines[a][0] = '\0';
            *what = "TSDL: a line deleted";
          }
        joined = g_strjoinv ("\n", lines);
        g_string_assign (s, joined);
        return TRUE;
      }
    case 4:
      {
        static const char *const garbage[] = { "{", "}", ";", "struct {", "variant <x> {", "enum : ", "\"",
                                               "/*", "\\", "\xff\xfe", "..." };
        g_string_insert (s, (gssize) pick (rand, s->len + 1), garbage[pick (rand, G_N_ELEMENTS (garbage))]);
        *what = "TSDL: stray text inserted";
        return TRUE;
      }
    case 5:
      {
        /* deep nesting: a struct inside a struct … 100 to 100 000 deep */
        guint depth = (guint) (100u << (2 * pick (rand, 5)));
        GString *nest = g_string_new (NULL);
        g_autoptr(GArray) st = find_statements (s);

        if (!pick_span (st, rand, &sp))
          {
            g_string_free (nest, TRUE);
            return FALSE;
          }
        for (guint i = 0; i < depth; i++)
          g_string_append (nest, "struct { ");
        g_string_append (nest, "integer { size = 8; } x; ");
        for (guint i = 0; i < depth; i++)
          g_string_append (nest, "} _n; ");
        g_string_insert (s, (gssize) sp.end, nest->str);
        g_string_free (nest, TRUE);
        *what = "TSDL: types nested very deep";
        return TRUE;
      }
    case 6:
      g_string_assign (s, ctf2);
      *what = "CTF 2 metadata";
      return TRUE;
    case 7:
      {
        static const char *const pairs[][2] = {
          { "le", "be" }, { "be", "le" }, { "monotonic", "boottime" }, { "uuid", "uuix" },
          { "map", "mep" }, { "stream_id", "stream_xd" }, { "timestamp", "timestemp" },
          { "offset_s", "offset" }, { "signed = false", "signed = true" },
        };
        guint k = (guint) pick (rand, G_N_ELEMENTS (pairs));
        g_autoptr(GArray) w = find_words (s, pairs[k][0]);

        if (!pick_span (w, rand, &sp))
          return FALSE;
        replace (s, sp, pairs[k][1]);
        *what = "TSDL: a word replaced";
        return TRUE;
      }
    default:
      return FALSE;
    }
}

void
sl_fuzz_tsdl (GString     *text,
              GRand       *rand,
              const char **what)
{
  /* the structural edits first: they are what babeltrace2 aborted on */
  for (guint tries = 0; tries < 8; tries++)
    {
      if (g_rand_int_range (rand, 0, 10) < 6)
        {
          if (tsdl_structural (text, rand, (guint) g_rand_int_range (rand, 0, 7), what))
            return;
        }
      else if (tsdl_token (text, rand, (guint) g_rand_int_range (rand, 0, 8), what))
        return;
    }
  g_string_append_c (text, '}');
  *what = "TSDL: a brace appended";
}

/* ---------------------------------------------------------------------- */
/* Packets                                                                 */

static void
put_bits (guint8  *buf,
          guint64  bit_offset,
          guint    size,
          gboolean big_endian,
          guint64  v)
{
  /* byte-aligned fields only (LTTng's), others are left alone */
  if (bit_offset % 8 != 0 || size % 8 != 0 || size == 0 || size > 64)
    return;
  for (guint i = 0; i < size / 8; i++)
    {
      guint shift = big_endian ? (size / 8 - 1 - i) * 8 : i * 8;

      buf[bit_offset / 8 + i] = (guint8) (v >> shift);
    }
}

static guint64
get_bits (const guint8 *buf,
          guint64       bit_offset,
          guint         size,
          gboolean      big_endian)
{
  guint64 v = 0;

  if (bit_offset % 8 != 0 || size % 8 != 0 || size == 0 || size > 64)
    return 0;
  for (guint i = 0; i < size / 8; i++)
    {
      guint shift = big_endian ? (size / 8 - 1 - i) * 8 : i * 8;

      v |= (guint64) buf[bit_offset / 8 + i] << shift;
    }
  return v;
}

/* The packets' starts, as long as their sizes make sense. */
static GArray *
packet_starts (GByteArray         *stream,
               const SlTsdlLayout *l)
{
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 off = 0;

  while (off + (l->header_bits + l->context_bits) / 8 <= stream->len && starts->len < 100000)
    {
      const SlTsdlField *f = &l->f[SL_TSDL_F_PACKET_SIZE];
      guint64 size = get_bits (stream->data + off, f->bit_offset, f->size, f->big_endian) / 8;

      g_array_append_val (starts, off);
      if (size == 0 || size > stream->len - off)
        break;
      off += size;
    }
  return starts;
}

gboolean
sl_fuzz_set_uuid (GByteArray   *stream,
                  const char   *metadata,
                  gsize         metadata_len,
                  const guint8 *uuid)
{
  g_autoptr(SlTsdl) tsdl = sl_tsdl_parse (metadata, metadata_len, NULL);
  const SlTsdlLayout *l;
  GArray *starts;

  if (tsdl == NULL || sl_tsdl_get_n_streams (tsdl) == 0)
    return FALSE;
  l = sl_tsdl_get_layout (tsdl, 0);
  if (!l->fixed || !l->has_uuid || !l->f[SL_TSDL_F_PACKET_SIZE].present || l->uuid_bit_offset % 8 != 0)
    return FALSE;
  starts = packet_starts (stream, l);
  for (guint i = 0; i < starts->len; i++)
    {
      guint64 at = g_array_index (starts, guint64, i) + l->uuid_bit_offset / 8;

      if (at + 16 <= stream->len)
        memcpy (stream->data + at, uuid, 16);
    }
  g_array_unref (starts);
  return TRUE;
}

gboolean
sl_fuzz_edit_field (GByteArray    *stream,
                    const char    *metadata,
                    gsize          metadata_len,
                    guint          packet,
                    SlTsdlFieldId  field,
                    guint64        value,
                    gboolean       top_byte,
                    guint64       *offset)
{
  g_autoptr(SlTsdl) tsdl = sl_tsdl_parse (metadata, metadata_len, NULL);
  const SlTsdlLayout *l;
  GArray *starts;
  guint64 at;

  if (tsdl == NULL || sl_tsdl_get_n_streams (tsdl) == 0)
    return FALSE;
  l = sl_tsdl_get_layout (tsdl, 0);
  if (!l->fixed || !l->f[field].present || !l->f[SL_TSDL_F_PACKET_SIZE].present)
    return FALSE;
  starts = packet_starts (stream, l);
  if (packet >= starts->len)
    {
      g_array_unref (starts);
      return FALSE;
    }
  at = g_array_index (starts, guint64, packet);
  g_array_unref (starts);
  if (top_byte)
    value = get_bits (stream->data + at, l->f[field].bit_offset, l->f[field].size, l->f[field].big_endian) |
            ((guint64) 0xff << (l->f[field].size - 8));
  put_bits (stream->data + at, l->f[field].bit_offset, l->f[field].size, l->f[field].big_endian, value);
  if (offset != NULL)
    *offset = at;
  return TRUE;
}

gboolean
sl_fuzz_packets (GByteArray  *stream,
                 const char  *metadata,
                 gsize        metadata_len,
                 GRand       *rand,
                 const char **what)
{
  g_autoptr(SlTsdl) tsdl = sl_tsdl_parse (metadata, metadata_len, NULL);
  const SlTsdlLayout *l;
  GArray *starts;
  guint field;
  gsize at;
  guint64 v = 0;
  static const char *const names[SL_TSDL_N_FIELDS] = {
    "magic", "stream_id", "stream_instance_id", "timestamp_begin", "timestamp_end", "content_size",
    "packet_size", "events_discarded", "packet_seq_num", "cpu_id",
  };
  static char buf[96];

  if (tsdl == NULL || sl_tsdl_get_n_streams (tsdl) == 0)
    return FALSE;
  l = sl_tsdl_get_layout (tsdl, 0);
  if (!l->fixed || !l->f[SL_TSDL_F_PACKET_SIZE].present)
    return FALSE;

  starts = packet_starts (stream, l);
  if (starts->len == 0)
    {
      g_array_unref (starts);
      return FALSE;
    }
  at = (gsize) g_array_index (starts, guint64, pick (rand, starts->len));
  g_array_unref (starts);

  do
    field = (guint) pick (rand, SL_TSDL_N_FIELDS);
  while (!l->f[field].present && g_rand_int_range (rand, 0, 16) != 0);
  if (!l->f[field].present)
    return FALSE;

  switch (g_rand_int_range (rand, 0, 5))
    {
    case 0: v = G_MAXUINT64; break;
    case 1: v = 0; break;
    case 2: v = get_bits (stream->data + at, l->f[field].bit_offset, l->f[field].size, l->f[field].big_endian) |
                ((guint64) 0xff << (l->f[field].size - 8)); break;
    case 3: v = get_bits (stream->data + at, l->f[field].bit_offset, l->f[field].size, l->f[field].big_endian) + 8; break;
    default: v = g_rand_int (rand); break;
    }
  put_bits (stream->data + at, l->f[field].bit_offset, l->f[field].size, l->f[field].big_endian, v);
  g_snprintf (buf, sizeof buf, "packet at %" G_GSIZE_FORMAT ": %s set to 0x%" G_GINT64_MODIFIER "x",
              at, names[field], v);
  *what = buf;
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* LTTV text                                                               */

void
sl_fuzz_lttv (GString     *text,
              GRand       *rand,
              const char **what)
{
  static const char *const times[] = {
    "9223372036.854775807", "-9223372036.854775808", "9223372036.854775808", "9.2e9", "-9.2e9",
    "2305843009.213693951", "2305843009.213693952", "-2305843009.213693952", "1e308", "nan", "-nan",
    "inf", "-inf", "0x10", "1.0000000000000000000001", "-0", "18446744073.709551616", "", "1.", ".5",
    "99999999999999999999", "1e-400",
  };
  g_auto(GStrv) lines = NULL;
  guint n, at;
  g_autofree char *joined = NULL;

  if (text->len == 0 || text->str[0] == '\0')
    g_string_assign (text, "2\n");
  lines = g_strsplit (text->str, "\n", 0);
  n = g_strv_length (lines);
  at = (guint) pick (rand, n);

  switch (g_rand_int_range (rand, 0, 6))
    {
    case 0:
    case 1:
      {
        /* one field of a line replaced by a time at or past the limits */
        g_auto(GStrv) fields = g_strsplit_set (lines[at], " \t", 0);
        guint nf = g_strv_length (fields);

        if (nf > 0)
          {
            guint k = (guint) pick (rand, nf);

            g_free (fields[k]);
            fields[k] = g_strdup (times[pick (rand, G_N_ELEMENTS (times))]);
          }
        g_free (lines[at]);
        lines[at] = g_strjoinv (" ", fields);
        *what = "LTTV: a field at or past its limits";
        break;
      }
    case 2:
      {
        static const char *const counts[] = { "0", "100001", "4294967296", "-1", "2 3", "1" };

        for (guint i = 0; i < n; i++)
          if (lines[i][0] != '#' && lines[i][0] != '\0')
            {
              g_free (lines[i]);
              lines[i] = g_strdup (counts[pick (rand, G_N_ELEMENTS (counts))]);
              break;
            }
        *what = "LTTV: the trace count out of range";
        break;
      }
    case 3:
      lines[at][pick (rand, strlen (lines[at]) + 1)] = '\0';
      *what = "LTTV: a line cut";
      break;
    default:
      {
        g_autoptr(GByteArray) b = g_byte_array_new ();

        g_byte_array_append (b, (const guint8 *) text->str, (guint) text->len);
        sl_fuzz_bytes (b, rand, b->len, what);
        g_string_truncate (text, 0);
        g_string_append_len (text, (const char *) b->data, b->len);
        return;
      }
    }
  joined = g_strjoinv ("\n", lines);
  g_string_assign (text, joined);
}

/* ---------------------------------------------------------------------- */
/* Metadata files                                                          */

GByteArray *
sl_fuzz_packetize (const char   *text,
                   gsize         len,
                   const guint8 *uuid,
                   gsize         packet_bytes)
{
  GByteArray *b = g_byte_array_new ();
  const gsize header = 37;
  gsize room = packet_bytes > header + 1 ? packet_bytes - header : 4096 - header;

  for (gsize off = 0; off < len || off == 0; off += room)
    {
      guint8 h[37] = { 0 };
      gsize n = MIN (room, len - off);
      guint32 magic = 0x75D11D57, content = (guint32) ((header + n) * 8), packet = (guint32) ((header + room) * 8);

      memcpy (h, &magic, 4);
      if (uuid != NULL)
        memcpy (h + 4, uuid, 16);
      memcpy (h + 24, &content, 4);
      memcpy (h + 28, &packet, 4);
      h[35] = 1;
      h[36] = 8;
      g_byte_array_append (b, h, sizeof h);
      g_byte_array_append (b, (const guint8 *) text + off, (guint) n);
      for (gsize k = n; k < room; k++)
        g_byte_array_append (b, (const guint8 *) "", 1);
      if (len == 0)
        break;
    }
  return b;
}

char *
sl_fuzz_metadata_text (const guint8 *data,
                       gsize         len,
                       gsize        *text_len)
{
  char *text = NULL;
  g_autofree char *why = NULL;

  if (len >= 4 && memcmp (data, "\x57\x1d\xd1\x75", 4) == 0)
    {
      if (sl_ctf_meta_depacketize (data, len, &text, text_len, &why) != SL_CTF_META_OK)
        g_clear_pointer (&text, g_free);
      return text;
    }
  *text_len = len;
  return g_strndup ((const char *) data, len);
}
