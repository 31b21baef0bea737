/* sl-tsdl-check.c: what babeltrace2 2.0.4 cannot survive, and packet layouts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-tsdl-private.h"

/*
 * babeltrace2 2.0.4 turns the metadata into its trace IR with
 * preconditions that abort the process when broken, and assertions. Found
 * by fuzzing (issue 17) and checked one by one against it:
 *
 * - two members or options of a structure or variant with one name (its
 *   names lose a leading '_': "_x" and "x" are one) — precondition abort;
 * - an enumeration range whose end is below its start — abort;
 * - a variant whose selector's ranges overlap between two options —
 *   abort; an option without a range in the selector — assertion;
 * - a clock without `freq` — division by zero (SIGFPE);
 * - a static array of billions of elements — a field allocated for each.
 *
 * Integers of 0 or more than 64 bits, floats other than 32 and 64 bits,
 * alignments that are not powers of two, selectors and sequence lengths
 * that name nothing are refused too (babeltrace refuses them, with
 * messages that say less). The decoder process remains the last line:
 * what is not caught here kills only it.
 */

typedef struct _Ctx Ctx;

struct _Ctx
{
  const Ctx   *parent;
  const TType *compound;
  guint        upto;
};

typedef struct
{
  SlTsdl     *t;
  const TType *roots[6];
  char       *error;
  guint       line;
  guint       visits;   /* check_type() calls so far */
} Checker;

/* Types are shared, so aliases of aliases (each a structure of two of
 * the one before) name 2^n fields in n lines: past this many fields the
 * metadata is refused, not walked (a kernel trace's has ~10^4) */
#define TSDL_MAX_VISITS (1u << 18)

enum { ROOT_PACKET_HEADER, ROOT_PACKET_CONTEXT, ROOT_EVENT_HEADER, ROOT_EVENT_CONTEXT, ROOT_CONTEXT, ROOT_FIELDS };

static gboolean
fail (Checker    *c,
      guint       line,
      const char *fmt,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (Checker    *c,
      guint       line,
      const char *fmt,
      ...)
{
  va_list args;

  if (c->error != NULL)
    return FALSE;
  va_start (args, fmt);
  c->error = g_strdup_vprintf (fmt, args);
  va_end (args);
  c->line = line;
  return FALSE;
}

const char *
tsdl_strip_name (const char *name)
{
  return name != NULL && name[0] == '_' ? name + 1 : name;
}

static gboolean
power_of_two (guint v)
{
  return v > 0 && (v & (v - 1)) == 0;
}

/* ---------------------------------------------------------------------- */
/* Paths (variant selectors, sequence lengths)                            */

static const TType *
member_type (const TType *compound,
             const char  *name,
             guint        upto)
{
  if (compound == NULL || compound->members == NULL)
    return NULL;
  for (guint i = 0; i < MIN (upto, compound->members->len); i++)
    {
      const TMember *m = g_ptr_array_index (compound->members, i);

      if (g_strcmp0 (m->name, name) == 0 || g_strcmp0 (tsdl_strip_name (m->name), tsdl_strip_name (name)) == 0)
        return m->type;
    }
  return NULL;
}

static const TType *
descend (const TType *t,
         char       **parts)
{
  for (guint i = 0; t != NULL && parts[i] != NULL; i++)
    t = t->kind == T_STRUCT ? member_type (t, parts[i], G_MAXUINT) : NULL;
  return t;
}

/* A path relative to the members before this one (innermost structure
 * first), or absolute from a scope (trace.packet.header.…, event.fields.…). */
static const TType *
resolve (Checker    *c,
         const Ctx  *ctx,
         const char *path)
{
  static const struct { const char *prefix; guint root; } roots[] = {
    { "trace.packet.header.", ROOT_PACKET_HEADER },
    { "stream.packet.context.", ROOT_PACKET_CONTEXT },
    { "stream.event.header.", ROOT_EVENT_HEADER },
    { "stream.event.context.", ROOT_EVENT_CONTEXT },
    { "event.context.", ROOT_CONTEXT },
    { "event.fields.", ROOT_FIELDS },
  };
  g_auto(GStrv) parts = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    if (g_str_has_prefix (path, roots[i].prefix))
      {
        parts = g_strsplit (path + strlen (roots[i].prefix), ".", -1);
        return descend (c->roots[roots[i].root], parts);
      }
  parts = g_strsplit (path, ".", -1);
  for (const Ctx *x = ctx; x != NULL; x = x->parent)
    {
      const TType *first = member_type (x->compound, parts[0], x->upto);

      if (first != NULL)
        return descend (first, parts + 1);
    }
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Types                                                                   */

static gboolean check_type (Checker     *c,
                            const TType *t,
                            const Ctx   *ctx,
                            guint64      elements,
                            guint        depth);

static gboolean
check_int (Checker     *c,
           const TType *t)
{
  if (t->size == 0 || t->size > 64)
    return fail (c, t->line, "an integer of %u bits (1 to 64 are possible)", t->size);
  if (!power_of_two (t->align))
    return fail (c, t->line, "an alignment of %u bits is not a power of two", t->align);
  if (t->map_clock != NULL)
    {
      for (guint i = 0; i < c->t->clocks->len; i++)
        if (g_strcmp0 (((SlTsdlClock *) g_ptr_array_index (c->t->clocks, i))->name, t->map_clock) == 0)
          return TRUE;
      return fail (c, t->line, "mapped to clock “%s”, which is not declared", t->map_clock);
    }
  return TRUE;
}

static gboolean
range_below (const TMapping *m)
{
  return m->is_unsigned ? (guint64) m->hi < (guint64) m->lo : m->hi < m->lo;
}

static gboolean
check_enum (Checker     *c,
            const TType *t)
{
  if (t->container == NULL || t->container->kind != T_INT)
    return fail (c, t->line, "an enumeration whose type is not an integer");
  if (!check_int (c, t->container))
    return FALSE;
  for (guint i = 0; i < t->mappings->len; i++)
    {
      const TMapping *m = &g_array_index (t->mappings, TMapping, i);

      if (range_below (m))
        return fail (c, m->line, "enumerator “%s”: its range ends below its start (babeltrace2 2.0.4 aborts on it)",
                     m->label);
    }
  return TRUE;
}

static gboolean
ranges_overlap (const TMapping *a,
                const TMapping *b)
{
  if (a->is_unsigned || b->is_unsigned)
    return !((guint64) a->hi < (guint64) b->lo || (guint64) b->hi < (guint64) a->lo);
  return !(a->hi < b->lo || b->hi < a->lo);
}

static gboolean
label_is (const TMapping *m,
          const char     *option)
{
  return g_strcmp0 (m->label, option) == 0 || g_strcmp0 (tsdl_strip_name (m->label), tsdl_strip_name (option)) == 0;
}

static gboolean
check_selector (Checker     *c,
                const TType *variant,
                const TType *sel)
{
  for (guint i = 0; i < variant->members->len; i++)
    {
      const TMember *o = g_ptr_array_index (variant->members, i);
      gboolean mapped = FALSE;

      for (guint k = 0; k < sel->mappings->len && !mapped; k++)
        mapped = label_is (&g_array_index (sel->mappings, TMapping, k), o->name);
      if (!mapped)
        return fail (c, o->line, "variant option “%s” has no value in its selector (babeltrace2 2.0.4 aborts on it)",
                     o->name);
    }
  for (guint i = 0; i < sel->mappings->len; i++)
    for (guint k = i + 1; k < sel->mappings->len; k++)
      {
        const TMapping *a = &g_array_index (sel->mappings, TMapping, i);
        const TMapping *b = &g_array_index (sel->mappings, TMapping, k);

        if (!label_is (a, b->label) && ranges_overlap (a, b))
          return fail (c, b->line, "selector ranges of “%s” and “%s” overlap (babeltrace2 2.0.4 aborts on it)",
                       a->label, b->label);
      }
  return TRUE;
}

static gboolean
check_compound (Checker     *c,
                const TType *t,
                const Ctx   *ctx,
                guint64      elements,
                guint        depth)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  if (!power_of_two (t->align))
    return fail (c, t->line, "an alignment of %u bits is not a power of two", t->align);
  for (guint i = 0; i < t->members->len; i++)
    {
      const TMember *m = g_ptr_array_index (t->members, i);
      Ctx inner = { ctx, t, i };

      if (!g_hash_table_add (names, (gpointer) tsdl_strip_name (m->name)))
        return fail (c, m->line, "“%s” is declared twice in one %s (babeltrace2 2.0.4 aborts on it)",
                     m->name, t->kind == T_STRUCT ? "structure" : "variant");
      if (!check_type (c, m->type, t->kind == T_STRUCT ? &inner : ctx, elements, depth + 1))
        return FALSE;
    }
  if (t->kind == T_VARIANT)
    {
      const TType *sel;

      if (t->tag == NULL)
        return fail (c, t->line, "a variant without a selector");
      sel = resolve (c, ctx, t->tag);
      if (sel == NULL)
        return fail (c, t->line, "the variant's selector “%s” names no member before it", t->tag);
      if (sel->kind != T_ENUM)
        return fail (c, t->line, "the variant's selector “%s” is not an enumeration", t->tag);
      return check_selector (c, t, sel);
    }
  return TRUE;
}

static gboolean
check_type (Checker     *c,
            const TType *t,
            const Ctx   *ctx,
            guint64      elements,
            guint        depth)
{
  if (t == NULL)
    return TRUE;
  if (depth > 4 * TSDL_MAX_DEPTH)
    return fail (c, t->line, "types nested too deep");
  if (++c->visits > TSDL_MAX_VISITS)
    return fail (c, t->line, "more than %u fields to check (type aliases within aliases?)", TSDL_MAX_VISITS);
  switch (t->kind)
    {
    case T_INT:
      return check_int (c, t);
    case T_FLOAT:
      if (!((t->exp_dig == 8 && t->mant_dig == 24) || (t->exp_dig == 11 && t->mant_dig == 53)))
        return fail (c, t->line, "a floating point number of %u + %u bits (32 or 64 are possible)",
                     t->exp_dig, t->mant_dig);
      return power_of_two (t->align) || fail (c, t->line, "an alignment of %u bits is not a power of two", t->align);
    case T_STRING:
      return TRUE;
    case T_ENUM:
      return check_enum (c, t);
    case T_STRUCT:
    case T_VARIANT:
      return check_compound (c, t, ctx, elements, depth);
    case T_ARRAY:
      if (t->length > TSDL_MAX_ARRAY || (t->length > 0 && elements > TSDL_MAX_ELEMENTS / t->length))
        return fail (c, t->line, "an array of %" G_GUINT64_FORMAT " elements (more than %" G_GUINT64_FORMAT
                     " in all: babeltrace2 would allocate a field for each)", t->length, TSDL_MAX_ELEMENTS);
      return check_type (c, t->element, ctx, MAX (elements, 1) * MAX (t->length, 1), depth + 1);
    case T_SEQUENCE:
      {
        const TType *len = resolve (c, ctx, t->length_path);

        if (len == NULL)
          return fail (c, t->line, "the sequence's length “%s” names no member before it", t->length_path);
        if ((len->kind != T_INT || len->is_signed) &&
            !(len->kind == T_ENUM && len->container != NULL && !len->container->is_signed))
          return fail (c, t->line, "the sequence's length “%s” is not an unsigned integer", t->length_path);
        return check_type (c, t->element, ctx, elements, depth + 1);
      }
    default:
      return TRUE;
    }
}

/* ---------------------------------------------------------------------- */
/* Blocks                                                                  */

static gboolean
check_clocks (Checker *c)
{
  for (guint i = 0; i < c->t->clocks->len; i++)
    {
      const SlTsdlClock *k = g_ptr_array_index (c->t->clocks, i);

      if (k->freq == 0)
        return fail (c, k->line, "clock “%s” has no frequency (babeltrace2 2.0.4 divides by it)", k->name);
      for (guint j = 0; j < i; j++)
        if (g_strcmp0 (((SlTsdlClock *) g_ptr_array_index (c->t->clocks, j))->name, k->name) == 0)
          return fail (c, k->line, "clock “%s” is declared twice", k->name);
    }
  return TRUE;
}

static gboolean
check_streams (Checker *c)
{
  SlTsdl *t = c->t;

  for (guint i = 0; i < t->streams->len; i++)
    {
      TStream *s = g_ptr_array_index (t->streams, i);

      if (t->streams->len > 1 && !s->has_id)
        return fail (c, s->line, "one of several streams has no id");
      for (guint j = 0; j < i; j++)
        if (s->has_id && ((TStream *) g_ptr_array_index (t->streams, j))->id == s->id)
          return fail (c, s->line, "stream id %" G_GUINT64_FORMAT " is declared twice", s->id);
      c->roots[ROOT_PACKET_CONTEXT] = s->packet_context;
      c->roots[ROOT_EVENT_HEADER] = s->event_header;
      c->roots[ROOT_EVENT_CONTEXT] = s->event_context;
      if (!check_type (c, s->packet_context, NULL, 1, 0) || !check_type (c, s->event_header, NULL, 1, 0) ||
          !check_type (c, s->event_context, NULL, 1, 0))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_events (Checker *c)
{
  SlTsdl *t = c->t;
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < t->events->len; i++)
    {
      TEvent *e = g_ptr_array_index (t->events, i);
      TStream *s = NULL;
      guint si;

      if (e->has_stream_id ? sl_tsdl_find_stream (t, e->stream_id, &si) : t->streams->len == 1 && (si = 0, TRUE))
        s = g_ptr_array_index (t->streams, si);
      if (s == NULL && (e->has_stream_id || t->streams->len > 1))
        return fail (c, e->line, "event “%s” names a stream that is not declared", e->name != NULL ? e->name : "");
      if (e->has_id &&
          !g_hash_table_add (ids, g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
                                                   e->has_stream_id ? e->stream_id : 0, e->id)))
        return fail (c, e->line, "event id %" G_GUINT64_FORMAT " is declared twice in its stream", e->id);
      c->roots[ROOT_PACKET_CONTEXT] = s != NULL ? s->packet_context : NULL;
      c->roots[ROOT_EVENT_HEADER] = s != NULL ? s->event_header : NULL;
      c->roots[ROOT_EVENT_CONTEXT] = s != NULL ? s->event_context : NULL;
      c->roots[ROOT_CONTEXT] = e->context;
      c->roots[ROOT_FIELDS] = e->fields;
      if (!check_type (c, e->context, NULL, 1, 0) || !check_type (c, e->fields, NULL, 1, 0))
        return FALSE;
    }
  return TRUE;
}

/**
 * tsdl_check:
 *
 * FALSE with @why and @line when babeltrace2 2.0.4 would refuse the
 * metadata or could not survive it.
 */
gboolean
tsdl_check (SlTsdl  *tsdl,
            char   **why,
            guint   *line)
{
  Checker c = { tsdl };

  if (tsdl->major == 0 && tsdl->minor == 0 && tsdl->byte_order == 0)
    fail (&c, 1, "no trace block");
  else if (tsdl->major != 1 || tsdl->minor != 8)
    fail (&c, 1, "CTF %u.%u: only CTF 1.8 is read", tsdl->major, tsdl->minor);
  else if (tsdl->byte_order == 0)
    fail (&c, 1, "the trace block gives no byte_order");
  else
    {
      c.roots[ROOT_PACKET_HEADER] = tsdl->packet_header;
      if (check_clocks (&c) && check_type (&c, tsdl->packet_header, NULL, 1, 0) && check_streams (&c))
        check_events (&c);
    }
  if (c.error == NULL)
    return TRUE;
  *why = c.error;
  *line = c.line;
  return FALSE;
}

/* ---------------------------------------------------------------------- */
/* Packet layouts                                                          */

static guint64
align_up (guint64 v,
          guint   a)
{
  return a <= 1 ? v : (v + a - 1) / a * a;
}

guint
tsdl_type_align (const TType *t)
{
  guint a = t->align;

  if (t->kind == T_ENUM && t->container != NULL)
    return t->container->align;
  /* a CTF 2 array's minimum alignment is its own (a TSDL one's is 1) */
  if ((t->kind == T_ARRAY || t->kind == T_SEQUENCE) && t->element != NULL)
    return MAX (a, tsdl_type_align (t->element));
  if (t->kind == T_STRUCT && t->members != NULL)
    for (guint i = 0; i < t->members->len; i++)
      a = MAX (a, tsdl_type_align (((TMember *) g_ptr_array_index (t->members, i))->type));
  return MAX (a, 1);
}

typedef struct
{
  const SlTsdl *t;
  SlTsdlLayout *l;
  guint64       off;
  gboolean      fixed;
  gboolean      header;
} Walk;

int
tsdl_clock_index (const SlTsdl *t,
             const char   *name)
{
  for (guint i = 0; name != NULL && i < t->clocks->len; i++)
    if (g_strcmp0 (((SlTsdlClock *) g_ptr_array_index (t->clocks, i))->name, name) == 0)
      return (int) i;
  return -1;
}

static void
note_field (Walk        *w,
            const char  *name,
            const TType *t)
{
  static const struct { const char *name; SlTsdlFieldId id; gboolean header; } known[] = {
    { "magic", SL_TSDL_F_MAGIC, TRUE }, { "stream_id", SL_TSDL_F_STREAM_ID, TRUE },
    { "stream_instance_id", SL_TSDL_F_STREAM_INSTANCE_ID, TRUE },
    { "timestamp_begin", SL_TSDL_F_TS_BEGIN, FALSE }, { "timestamp_end", SL_TSDL_F_TS_END, FALSE },
    { "content_size", SL_TSDL_F_CONTENT_SIZE, FALSE }, { "packet_size", SL_TSDL_F_PACKET_SIZE, FALSE },
    { "events_discarded", SL_TSDL_F_DISCARDED, FALSE }, { "packet_seq_num", SL_TSDL_F_SEQ_NUM, FALSE },
    { "cpu_id", SL_TSDL_F_CPU_ID, FALSE },
  };
  const TType *it = t->kind == T_ENUM ? t->container : t;

  if (it == NULL || it->kind != T_INT)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (known[i].header == w->header && g_strcmp0 (tsdl_strip_name (name), known[i].name) == 0)
      {
        SlTsdlField *f = &w->l->f[known[i].id];

        f->present = TRUE;
        f->bit_offset = w->off;
        f->size = it->size;
        f->is_signed = it->is_signed;
        f->big_endian = (it->byte_order ? it->byte_order : w->t->byte_order) == 2;
        f->clock = tsdl_clock_index (w->t, it->map_clock);
      }
}

static void
walk (Walk        *w,
      const char  *name,
      const TType *t)
{
  if (t == NULL || !w->fixed)
    return;
  w->off = align_up (w->off, tsdl_type_align (t));
  switch (t->kind)
    {
    case T_INT:
    case T_ENUM:
      note_field (w, name, t);
      w->off += t->kind == T_INT ? t->size : t->container->size;
      break;
    case T_FLOAT:
      w->off += t->exp_dig + t->mant_dig;
      break;
    case T_STRUCT:
      for (guint i = 0; i < t->members->len && w->fixed; i++)
        {
          const TMember *m = g_ptr_array_index (t->members, i);

          walk (w, m->name, m->type);
        }
      break;
    case T_ARRAY:
      if (w->header && g_strcmp0 (tsdl_strip_name (name), "uuid") == 0 && t->length == 16 && t->element->kind == T_INT &&
          t->element->size == 8)
        {
          w->l->has_uuid = TRUE;
          w->l->uuid_bit_offset = w->off;
        }
      if (t->element->kind == T_INT && t->element->size % t->element->align == 0)
        w->off += t->length * t->element->size;
      else
        for (guint64 i = 0; i < t->length && w->fixed; i++)
          walk (w, NULL, t->element);
      break;
    case T_STRING:
    case T_VARIANT:
    case T_SEQUENCE:
    default:
      w->fixed = FALSE;
      break;
    }
}

/* Where the header and each stream's context fields are. */
void
tsdl_compute_layouts (SlTsdl *tsdl)
{
  Walk w = { tsdl, &tsdl->header_layout, 0, TRUE, TRUE };

  walk (&w, NULL, tsdl->packet_header);
  tsdl->header_layout.fixed = w.fixed;
  tsdl->header_layout.header_bits = w.off;
  for (guint i = 0; i < tsdl->streams->len; i++)
    {
      TStream *s = g_ptr_array_index (tsdl->streams, i);
      Walk sw = { tsdl, &s->layout, w.off, w.fixed, FALSE };

      s->layout = tsdl->header_layout;
      walk (&sw, NULL, s->packet_context);
      s->layout.fixed = sw.fixed;
      s->layout.header_bits = w.off;
      s->layout.context_bits = sw.off - w.off;
    }
}
