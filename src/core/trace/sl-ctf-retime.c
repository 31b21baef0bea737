/* sl-ctf-retime.c: a CTF trace's timestamps rewritten through a clock map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "sl-ctf-meta.h"
#include "sl-ctf-retime.h"
#include "sl-ctf-scan.h"
#include "sl-ctf2.h"
#include "sl-safe-io.h"
#include "sl-tsdl-private.h"
#include "sl-types.h"

/*
 * A CTF clock is linear; a piecewise-linear map is not. So instead of
 * rewriting the clock, every clock value of the copy is rewritten: each
 * packet is decoded with the metadata's types (headers, contexts, every
 * event's fields, to find where the next event starts), and every integer
 * mapped to a clock gets map(its time), counted by the new clock: 1 GHz,
 * offset_s = the whole seconds below map(the clock's cycle 0), offset 0.
 * The copy is then exact to the nanosecond at every event, whatever the
 * map.
 *
 * Fields narrower than 64 bits (lttng's 27-bit compact timestamps) hold
 * the low bits of a value babeltrace2 rebuilds from the stream's previous
 * one (assuming at most one wrap); the decoder here rebuilds them the same
 * way, writes the low bits of the new value, and refuses the file when the
 * new gap no longer fits the field (a gap within map-slope of 2^27 ns).
 * `timestamp_end` of a packet context is a whole value that does not move
 * the stream's clock, as in babeltrace2.
 *
 * CTF 2 (sl_ctf2_parse_full) is walked the same way: its roles give the
 * TSDL names, its variants select options by ranges, and lengths and
 * selectors are found by their field locations (through the structures
 * being decoded, as babeltrace2 does). A CTF 2 clock value is only a
 * packet context's or an event record header's, by its role.
 *
 * Every read is bounded by the packet's content or the file; every loop
 * moves forward by at least a bit; nesting is bounded by the metadata's
 * checks (TSDL_MAX_DEPTH).
 */

#define NS_PER_S G_GINT64_CONSTANT (1000000000)
#define CLOCK_LIMIT (G_GINT64_CONSTANT (1) << 62)

enum { ROOT_PACKET_HEADER, ROOT_PACKET_CONTEXT, ROOT_EVENT_HEADER, ROOT_EVENT_CONTEXT, ROOT_CONTEXT,
       ROOT_FIELDS, N_ROOTS };

typedef struct
{
  gint64 base_s;
  gboolean usable;
} ClockBase;

typedef struct
{
  guint64 offset;
  guint64 begin;
  guint64 end;
  gboolean has_begin;
  gboolean has_end;
} PacketTimes;

struct _SlCtfRetime
{
  SlTsdl          *tsdl;
  SlCtfRetimeFunc  func;
  gpointer         user_data;
  ClockBase       *bases;
  GHashTable     **events;       /* per stream class: id → TEvent */
  GArray          *packets;      /* PacketTimes of the last stream */
};

typedef struct _Frame Frame;

struct _Frame
{
  const Frame *parent;
  const TType *compound;
  guint64     *values;
  const TType **types;
  guint        done;
};

typedef struct
{
  guint64  orig;
  guint64  now;
  gboolean has;
} ClockState;

typedef struct
{
  SlCtfRetime *rt;
  guint8      *buf;
  guint64      pos;
  guint64      end;
  gboolean     write;
  int          root;
  ClockState  *clocks;
  Frame       *roots[N_ROOTS];
  GArray      *root_values[N_ROOTS];
  GArray      *root_types[N_ROOTS];
  guint        depth;
  guint64      event_id;
  gboolean     has_event_id;
  guint64      stream_id;
  guint64      packet_size;
  guint64      content_size;
  gboolean     has_packet_size;
  gboolean     has_content_size;
  PacketTimes  times;
  char        *why;
  gboolean     hard;
} Dec;

static gboolean
dec_fail (Dec        *d,
          const char *fmt,
          ...) G_GNUC_PRINTF (2, 3);

static gboolean
dec_fail (Dec        *d,
          const char *fmt,
          ...)
{
  va_list ap;

  if (d->why == NULL)
    {
      va_start (ap, fmt);
      d->why = g_strdup_vprintf (fmt, ap);
      va_end (ap);
    }
  return FALSE;
}

/* ---------------------------------------------------------------------- */
/* Clocks                                                                  */

/* babeltrace2 2.0.4's conversion (exact at 1 GHz, a double otherwise): the
 * times the engine saw. FALSE at 2^64 ns and above (a slow clock's large
 * count), which no guint64 holds. */
static gboolean
cycles_to_ns (guint64  freq,
              guint64  cycles,
              guint64 *ns)
{
  double v;

  if (freq == (guint64) NS_PER_S)
    {
      *ns = cycles;
      return TRUE;
    }
  v = (1e9 * (double) cycles) / (double) freq;
  if (!(v < 18446744073709551616.0))
    return FALSE;
  *ns = (guint64) v;
  return TRUE;
}

static gboolean
clock_time (guint64  freq,
            gint64   offset_s,
            guint64  offset,
            guint64  cycles,
            gint64  *ns)
{
  guint64 offset_ns, cycles_ns;
  __int128 v;

  if (!cycles_to_ns (freq, offset, &offset_ns) || !cycles_to_ns (freq, cycles, &cycles_ns))
    return FALSE;
  v = (__int128) offset_s * NS_PER_S + (__int128) offset_ns + (__int128) cycles_ns;
  if (v <= -CLOCK_LIMIT || v >= CLOCK_LIMIT)
    return FALSE;
  *ns = (gint64) v;
  return TRUE;
}

/**
 * sl_ctf_retime_clock_base:
 * @base_s: (out): the new clock's `offset_s` (its `freq` is 1 GHz and its
 *   `offset` 0)
 *
 * The whole seconds below the image of the clock's cycle 0: every cycle
 * count of the copy (map(t) − @base_s·1e9) is then ≥ 0.
 *
 * Returns: FALSE when the clock's origin is out of range
 */
gboolean
sl_ctf_retime_clock_base (guint64          freq,
                          gint64           offset_s,
                          guint64          offset,
                          SlCtfRetimeFunc  func,
                          gpointer         user_data,
                          gint64          *base_s)
{
  gint64 t0, image;

  g_return_val_if_fail (func != NULL && base_s != NULL, FALSE);

  if (freq == 0 || !clock_time (freq, offset_s, offset, 0, &t0))
    return FALSE;
  image = func (t0, user_data);
  *base_s = image / NS_PER_S - (image % NS_PER_S < 0 ? 1 : 0);
  return TRUE;
}

/* The new value of a clock field of @size bits holding @raw. */
static gboolean
retime_value (Dec         *d,
              const TType *it,
              guint64      raw,
              gboolean     whole,
              guint64     *out)
{
  int k = tsdl_clock_index (d->rt->tsdl, it->map_clock);
  const SlTsdlClock *clock;
  ClockState *c;
  guint64 mask = it->size >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << it->size) - 1;
  guint64 full, now;
  gint64 ns, image;
  __int128 cycles;

  if (k < 0)
    return d->hard = TRUE, dec_fail (d, "a field is mapped to clock “%s”, which the metadata does not declare", it->map_clock);
  clock = g_ptr_array_index (d->rt->tsdl->clocks, k);
  c = &d->clocks[k];
  if (!d->rt->bases[k].usable)
    return d->hard = TRUE, dec_fail (d, "clock “%s”: its origin is out of range", clock->name);

  if (whole || it->size >= 64)
    full = raw;
  else
    {
      full = (c->orig & ~mask) | raw;
      if (raw < (c->orig & mask))
        full += mask + 1;
    }
  if (!clock_time (clock->freq, clock->offset_s, clock->offset, full, &ns))
    return dec_fail (d, "a time of clock “%s” is out of range (%" G_GUINT64_FORMAT " cycles)", clock->name, full);
  image = d->rt->func (ns, d->rt->user_data);
  cycles = (__int128) image - (__int128) d->rt->bases[k].base_s * NS_PER_S;
  if (cycles < 0 || cycles > G_MAXINT64)
    return d->hard = TRUE, dec_fail (d, "time %" G_GINT64_FORMAT " maps outside the new clock's range", ns);
  now = (guint64) cycles;

  if (it->size < 64)
    {
      /* what babeltrace2 will rebuild from the field's bits */
      guint64 rebuilt = now & mask;

      if (!whole && c->has)
        {
          rebuilt |= c->now & ~mask;
          if ((now & mask) < (c->now & mask))
            rebuilt += mask + 1;
        }
      if (rebuilt != now)
        return d->hard = TRUE, dec_fail (d, "time %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT " after the map) does not fit the "
                         "%u-bit field after the previous one: the map stretches the gap beyond it", ns, image,
                         it->size);
    }
  if (!whole)
    {
      c->orig = full;
      c->now = now;
      c->has = TRUE;
    }
  *out = now & mask;
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Fields                                                                  */

static gboolean decode (Dec         *d,
                        const char  *name,
                        const TType *t,
                        Frame       *frame);

static guint64
align_up (guint64 v,
          guint   a)
{
  return a <= 1 ? v : (v + a - 1) / a * a;
}

static gboolean
name_is (const char *name,
         const char *want)
{
  return name != NULL && g_strcmp0 (tsdl_strip_name (name), want) == 0;
}

/* A CTF 2 variable-length integer: 7 bits a byte, low ones first. */
static gboolean
decode_leb128 (Dec         *d,
               const TType *it,
               guint64     *value)
{
  guint64 v = 0;
  guint shift = 0;

  d->pos = align_up (d->pos, 8);
  for (;;)
    {
      guint8 b;

      if (d->pos >= d->end || d->end - d->pos < 8)
        return dec_fail (d, "a variable-length integer goes past the end of the packet's content");
      if (shift >= 64)
        return dec_fail (d, "a variable-length integer of more than 64 bits (bit %" G_GUINT64_FORMAT ")", d->pos);
      b = d->buf[d->pos / 8];
      /* the 10th byte holds bit 63 only: 0 or 1, or, signed, its sign
       * repeated (0 or 0x7f) */
      if (shift == 63 && (b & 0x7f) != 0 && (b & 0x7f) != (it->is_signed ? 0x7f : 1))
        return dec_fail (d, "a variable-length integer of more than 64 bits (bit %" G_GUINT64_FORMAT ")", d->pos);
      d->pos += 8;
      v |= (guint64) (b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0)
        break;
    }
  if (it->is_signed && shift < 64 && (v >> (shift - 1)) & 1)
    v |= ~((G_GUINT64_CONSTANT (1) << shift) - 1);
  *value = v;
  return TRUE;
}

static gboolean
decode_int (Dec         *d,
            const char  *name,
            const TType *it,
            guint64     *value)
{
  gboolean be = FALSE;
  gboolean leb128 = it != NULL && it->leb128;
  guint64 v = 0;

  if (leb128)
    {
      if (!decode_leb128 (d, it, &v))
        return FALSE;
    }
  else
    {
      if (it == NULL || it->size == 0 || it->size > 64)
        return dec_fail (d, "an integer of %u bits", it != NULL ? it->size : 0);
      d->pos = align_up (d->pos, MAX (it->align, 1));
      if (d->pos > d->end || d->end - d->pos < it->size)
        return dec_fail (d, "a field goes past the end of the packet's content (bit %" G_GUINT64_FORMAT ")", d->pos);
      be = (it->byte_order ? it->byte_order : d->rt->tsdl->byte_order) == 2;
      v = sl_ctf_read_bits (d->buf, d->pos, it->size, be);
    }

  switch (d->root)
    {
    case ROOT_PACKET_HEADER:
      if (name_is (name, "stream_id"))
        d->stream_id = v;
      break;
    case ROOT_PACKET_CONTEXT:
      if (name_is (name, "packet_size"))
        d->packet_size = v, d->has_packet_size = TRUE;
      else if (name_is (name, "content_size"))
        d->content_size = v, d->has_content_size = TRUE;
      break;
    case ROOT_EVENT_HEADER:
      if (name_is (name, "id"))
        d->event_id = v, d->has_event_id = TRUE;
      break;
    default:
      break;
    }
  if (leb128)
    {
      *value = v;
      return TRUE;
    }

  if (it->map_clock != NULL && d->write)
    {
      gboolean is_end = d->root == ROOT_PACKET_CONTEXT && name_is (name, "timestamp_end");
      guint64 nv = 0;

      if (!retime_value (d, it, v, is_end, &nv))
        return FALSE;
      sl_ctf_write_bits (d->buf, d->pos, it->size, be, nv);
      if (d->root == ROOT_PACKET_CONTEXT && name_is (name, "timestamp_begin"))
        d->times.begin = nv, d->times.has_begin = TRUE;
      else if (is_end)
        d->times.end = nv, d->times.has_end = TRUE;
    }
  if (it->is_signed && it->size < 64 && (v >> (it->size - 1)) & 1)
    v |= ~((G_GUINT64_CONSTANT (1) << it->size) - 1);
  d->pos += it->size;
  *value = v;
  return TRUE;
}

/* The value and type of the integer a variant's selector or a sequence's
 * length names: a member decoded before, innermost structure first, or
 * absolute from a scope. */
static gboolean
lookup (Dec          *d,
        const Frame  *frame,
        const char   *path,
        guint64      *value,
        const TType **type)
{
  static const struct { const char *prefix; int root; } roots[] = {
    { "trace.packet.header.", ROOT_PACKET_HEADER }, { "stream.packet.context.", ROOT_PACKET_CONTEXT },
    { "stream.event.header.", ROOT_EVENT_HEADER }, { "stream.event.context.", ROOT_EVENT_CONTEXT },
    { "event.context.", ROOT_CONTEXT }, { "event.fields.", ROOT_FIELDS },
  };
  const char *name = path;

  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    if (g_str_has_prefix (path, roots[i].prefix))
      {
        frame = d->roots[roots[i].root];
        name = path + strlen (roots[i].prefix);
        if (frame == NULL)
          return dec_fail (d, "“%s” names a scope not decoded yet", path);
        break;
      }
  if (strchr (name, '.') != NULL)
    return dec_fail (d, "“%s”: a path into a nested structure is not supported", path);
  for (const Frame *x = frame; x != NULL; x = x->parent)
    for (guint i = x->done; i-- > 0;)
      {
        const TMember *m = g_ptr_array_index (x->compound->members, i);

        if (g_strcmp0 (m->name, name) == 0 || g_strcmp0 (tsdl_strip_name (m->name), tsdl_strip_name (name)) == 0)
          {
            if (x->types[i] == NULL)
              return dec_fail (d, "“%s” is not an integer", path);
            *value = x->values[i];
            *type = x->types[i];
            return TRUE;
          }
      }
  return dec_fail (d, "“%s” names no member decoded before", path);
}

static gboolean
mapping_holds (const TMapping *m,
               guint64         v,
               gboolean        is_signed)
{
  return is_signed ? (gint64) v >= m->lo && (gint64) v <= m->hi : v >= (guint64) m->lo && v <= (guint64) m->hi;
}

static int
frame_member (const Frame *f,
              const char  *name)
{
  for (guint i = 0; f->compound->members != NULL && i < f->compound->members->len && i <= f->done; i++)
    {
      const TMember *m = g_ptr_array_index (f->compound->members, i);

      if (g_strcmp0 (m->ctf2_name != NULL ? m->ctf2_name : m->name, name) == 0)
        return (int) i;
    }
  return -1;
}

/* The integer a CTF 2 field location names: from a scope's structure
 * (or, relative, the structure @frame is, a NULL going up), each name a
 * member of the structure, the last one decoded before, the others the
 * member being decoded now, whose structure (through variants and
 * optionals) is the next one in the chain of @frame. A location that
 * cannot be followed is the metadata's fault (hard): the export stops. */
static gboolean
lookup_location (Dec          *d,
                 Frame        *frame,
                 const TType  *t,
                 guint64      *value,
                 const TType **type)
{
  static const int roots[] = {
    [T_LOC_PACKET_HEADER] = ROOT_PACKET_HEADER, [T_LOC_PACKET_CONTEXT] = ROOT_PACKET_CONTEXT,
    [T_LOC_EVENT_HEADER] = ROOT_EVENT_HEADER, [T_LOC_EVENT_COMMON_CONTEXT] = ROOT_EVENT_CONTEXT,
    [T_LOC_EVENT_SPECIFIC_CONTEXT] = ROOT_CONTEXT, [T_LOC_EVENT_PAYLOAD] = ROOT_FIELDS,
  };
  const Frame *chain[TSDL_MAX_DEPTH + 1];
  guint n = 0, at;
  const Frame *f;

  /* the structures being decoded, outermost first */
  for (const Frame *x = frame; x != NULL && n <= TSDL_MAX_DEPTH; x = x->parent)
    chain[n++] = x;
  for (guint i = 0; i < n / 2; i++)
    {
      const Frame *x = chain[i];

      chain[i] = chain[n - 1 - i];
      chain[n - 1 - i] = x;
    }
  if (t->loc_origin == T_LOC_RELATIVE)
    at = n - 1;
  else
    {
      int root = roots[t->loc_origin];

      at = 0;
      if (root != d->root)
        {
          if (d->roots[root] == NULL)
            return d->hard = TRUE, dec_fail (d, "a field location names a scope not decoded yet");
          chain[0] = d->roots[root];
          n = 1;
        }
    }
  if (n == 0)
    return d->hard = TRUE, dec_fail (d, "a field location outside any structure");
  f = chain[at];
  for (guint k = 0; k < t->loc_path->len; k++)
    {
      const char *name = g_ptr_array_index (t->loc_path, k);
      gboolean last = k + 1 == t->loc_path->len;
      int i;

      if (name == NULL)
        {
          if (at == 0)
            return d->hard = TRUE, dec_fail (d, "a field location goes above its scope");
          f = chain[--at];
          continue;
        }
      i = frame_member (f, name);
      if (i < 0)
        return d->hard = TRUE, dec_fail (d, "a field location names “%s”, not a member decoded before", name);
      if (last)
        {
          if ((guint) i >= f->done || f->types[i] == NULL)
            return d->hard = TRUE, dec_fail (d, "a field location names “%s”, not an integer decoded before", name);
          *value = f->values[i];
          *type = f->types[i];
          return TRUE;
        }
      if ((guint) i != f->done || at + 1 >= n)
        return d->hard = TRUE, dec_fail (d, "a field location goes through “%s”, not a structure being decoded", name);
      f = chain[++at];
    }
  return d->hard = TRUE, dec_fail (d, "a field location that names no integer");
}

static gboolean
select_option (Dec         *d,
               const TType *t,
               Frame       *frame)
{
  guint64 v;
  const TType *sel;

  if (!lookup_location (d, frame, t, &v, &sel))
    return FALSE;
  for (guint i = 0; i < t->mappings->len; i++)
    {
      const TMapping *m = &g_array_index (t->mappings, TMapping, i);

      if (mapping_holds (m, v, sel->is_signed))
        for (guint k = 0; k < t->members->len; k++)
          {
            const TMember *o = g_ptr_array_index (t->members, k);

            if (g_strcmp0 (o->name, m->label) == 0)
              return decode (d, o->name, o->type, frame);
          }
    }
  if (t->optional)
    return TRUE;
  return dec_fail (d, "selector = %" G_GUINT64_FORMAT " selects no option of the variant", v);
}

static gboolean
decode_variant (Dec         *d,
                const TType *t,
                Frame       *frame)
{
  guint64 v;
  const TType *tag;
  const char *label = NULL;

  if (t->loc_path != NULL)
    return select_option (d, t, frame);
  if (t->tag == NULL)
    return dec_fail (d, "a variant without a selector");
  if (!lookup (d, frame, t->tag, &v, &tag))
    return FALSE;
  if (tag->kind != T_ENUM || tag->mappings == NULL)
    return dec_fail (d, "the variant's selector “%s” is not an enumeration", t->tag);
  for (guint i = 0; i < tag->mappings->len && label == NULL; i++)
    {
      const TMapping *m = &g_array_index (tag->mappings, TMapping, i);

      if (mapping_holds (m, v, tag->container->is_signed))
        label = m->label;
    }
  if (label == NULL)
    return dec_fail (d, "selector “%s” = %" G_GUINT64_FORMAT " has no label", t->tag, v);
  for (guint i = 0; i < t->members->len; i++)
    {
      const TMember *m = g_ptr_array_index (t->members, i);

      if (g_strcmp0 (m->name, label) == 0 || g_strcmp0 (tsdl_strip_name (m->name), tsdl_strip_name (label)) == 0)
        return decode (d, m->name, m->type, frame);
    }
  return dec_fail (d, "the variant has no option “%s”", label);
}

static gboolean
decode_struct (Dec         *d,
               const TType *t,
               Frame       *parent)
{
  guint n = t->members != NULL ? t->members->len : 0;
  g_autofree guint64 *heap_values = NULL;
  g_autofree const TType **heap_types = NULL;
  Frame f = { parent, t, NULL, NULL, 0 };
  int root = d->root;

  if (parent == NULL && root >= 0)
    {
      /* a scope's values stay for the scopes after it */
      g_array_set_size (d->root_values[root], n);
      g_array_set_size (d->root_types[root], n);
      f.values = (guint64 *) (gpointer) d->root_values[root]->data;
      f.types = (const TType **) (gpointer) d->root_types[root]->data;
    }
  else if (n <= 32)
    {
      f.values = g_newa (guint64, MAX (n, 1));
      f.types = g_newa (const TType *, MAX (n, 1));
    }
  else
    {
      f.values = heap_values = g_new (guint64, n);
      f.types = heap_types = g_new (const TType *, n);
    }

  for (guint i = 0; i < n; i++)
    {
      const TMember *m = g_ptr_array_index (t->members, i);
      const TType *mt = m->type;

      f.types[i] = NULL;
      if (mt->kind == T_INT || mt->kind == T_ENUM)
        {
          const TType *it = mt->kind == T_ENUM ? mt->container : mt;

          if (it == NULL || !decode_int (d, m->name, it, &f.values[i]))
            return it != NULL ? FALSE : dec_fail (d, "an enumeration without an integer type");
          f.types[i] = mt;
        }
      else if (!decode (d, m->name, mt, &f))
        return FALSE;
      f.done = i + 1;
    }
  return TRUE;
}

static gboolean
has_clock (const TType *t)
{
  return t->map_clock != NULL || (t->kind == T_ENUM && t->container != NULL && t->container->map_clock != NULL);
}

static gboolean
decode_elements (Dec         *d,
                 const TType *e,
                 guint64      n,
                 Frame       *frame)
{
  if (e->kind == T_INT && !has_clock (e) && e->size > 0 && e->size % MAX (e->align, 1) == 0)
    {
      d->pos = align_up (d->pos, MAX (e->align, 1));
      if (n > 0 && (d->pos > d->end || (d->end - d->pos) / e->size < n))
        return dec_fail (d, "an array goes past the end of the packet's content (bit %" G_GUINT64_FORMAT ")",
                         d->pos);
      d->pos += n * e->size;
      return TRUE;
    }
  for (guint64 i = 0; i < n; i++)
    {
      guint64 before = d->pos;

      if (!decode (d, NULL, e, frame))
        return FALSE;
      /* elements of no bits: nothing to rewrite, and no end in sight */
      if (d->pos == before)
        return TRUE;
    }
  return TRUE;
}

static gboolean
decode (Dec         *d,
        const char  *name,
        const TType *t,
        Frame       *frame)
{
  gboolean ok = FALSE;
  guint64 v;

  if (t == NULL)
    return TRUE;
  if (++d->depth > TSDL_MAX_DEPTH)
    {
      d->depth--;
      return dec_fail (d, "fields nested too deep");
    }
  switch (t->kind)
    {
    case T_INT:
      ok = decode_int (d, name, t, &v);
      break;
    case T_ENUM:
      ok = t->container != NULL ? decode_int (d, name, t->container, &v)
                                : dec_fail (d, "an enumeration without an integer type");
      break;
    case T_FLOAT:
      d->pos = align_up (d->pos, MAX (t->align, 1));
      ok = d->pos <= d->end && d->end - d->pos >= (guint64) t->exp_dig + t->mant_dig;
      if (ok)
        d->pos += (guint64) t->exp_dig + t->mant_dig;
      else
        dec_fail (d, "a number goes past the end of the packet's content");
      break;
    case T_STRING:
      {
        const guint8 *nul;

        d->pos = align_up (d->pos, 8);
        nul = d->pos < d->end ? memchr (d->buf + d->pos / 8, 0, (d->end - d->pos) / 8) : NULL;
        ok = nul != NULL || dec_fail (d, "a string goes past the end of the packet's content");
        if (ok)
          d->pos = (guint64) (nul - d->buf + 1) * 8;
      }
      break;
    case T_STRUCT:
      d->pos = align_up (d->pos, tsdl_type_align (t));
      ok = decode_struct (d, t, frame);
      break;
    case T_VARIANT:
      ok = decode_variant (d, t, frame);
      break;
    case T_ARRAY:
      ok = decode_elements (d, t->element, t->length, frame);
      break;
    case T_SEQUENCE:
      {
        const TType *lt;

        ok = (t->loc_path != NULL ? lookup_location (d, frame, t, &v, &lt)
                                  : lookup (d, frame, t->length_path, &v, &lt)) &&
             (v <= d->end - MIN (d->pos, d->end) ||
              dec_fail (d, "a sequence of %" G_GUINT64_FORMAT " elements in %" G_GUINT64_FORMAT " bits", v,
                        d->end - MIN (d->pos, d->end))) &&
             decode_elements (d, t->element, v, frame);
      }
      break;
    default:
      ok = dec_fail (d, "an unknown type");
      break;
    }
  d->depth--;
  return ok;
}

static gboolean
decode_root (Dec         *d,
             int          root,
             const TType *t)
{
  d->roots[root] = NULL;
  if (t == NULL)
    return TRUE;
  d->root = root;
  if (t->kind != T_STRUCT)
    return dec_fail (d, "a scope that is not a structure");
  d->pos = align_up (d->pos, tsdl_type_align (t));
  return decode_struct (d, t, NULL);
}

/* ---------------------------------------------------------------------- */
/* Packets                                                                 */

/* A root's frame, kept in the decoder for the scopes after it. */
static void
keep_root (Dec         *d,
           Frame       *slot,
           int          root,
           const TType *t)
{
  slot->parent = NULL;
  slot->compound = t;
  slot->values = (guint64 *) (gpointer) d->root_values[root]->data;
  slot->types = (const TType **) (gpointer) d->root_types[root]->data;
  slot->done = t->members != NULL ? t->members->len : 0;
  d->roots[root] = slot;
}

static gboolean
scope (Dec         *d,
       Frame       *slots,
       int          root,
       const TType *t)
{
  if (!decode_root (d, root, t))
    return FALSE;
  if (t != NULL)
    keep_root (d, &slots[root], root, t);
  return TRUE;
}

static const TEvent *
find_event (SlCtfRetime *rt,
            guint        stream,
            guint64      id)
{
  return g_hash_table_lookup (rt->events[stream], &id);
}

/* The packet header and context: @stream (out) and the sizes. */
static gboolean
decode_packet_start (Dec    *d,
                     Frame  *slots,
                     guint  *stream)
{
  const SlTsdl *t = d->rt->tsdl;
  const TStream *s;

  d->stream_id = 0;
  d->has_packet_size = d->has_content_size = FALSE;
  for (int r = 0; r < N_ROOTS; r++)
    d->roots[r] = NULL;
  if (!scope (d, slots, ROOT_PACKET_HEADER, t->packet_header))
    return FALSE;
  if (!sl_tsdl_find_stream (t, d->stream_id, stream))
    return dec_fail (d, "stream id %" G_GUINT64_FORMAT " is not in the metadata", d->stream_id);
  s = g_ptr_array_index (t->streams, *stream);
  return scope (d, slots, ROOT_PACKET_CONTEXT, s->packet_context);
}

static gboolean
decode_events (Dec   *d,
               Frame *slots,
               guint  stream)
{
  const TStream *s = g_ptr_array_index (d->rt->tsdl->streams, stream);

  while (d->pos < d->end)
    {
      guint64 before = d->pos;
      const TEvent *ev;

      d->has_event_id = FALSE;
      d->event_id = 0;
      /* a location into a scope after its own must not read the
       * previous event's (the metadata refuses it; see sl-ctf2.c) */
      for (int r = ROOT_EVENT_HEADER; r < N_ROOTS; r++)
        d->roots[r] = NULL;
      if (!scope (d, slots, ROOT_EVENT_HEADER, s->event_header) ||
          !scope (d, slots, ROOT_EVENT_CONTEXT, s->event_context))
        return FALSE;
      ev = find_event (d->rt, stream, d->event_id);
      if (ev == NULL)
        return dec_fail (d, "event id %" G_GUINT64_FORMAT " is not in the metadata (bit %" G_GUINT64_FORMAT ")",
                         d->event_id, before);
      if (!scope (d, slots, ROOT_CONTEXT, ev->context) || !scope (d, slots, ROOT_FIELDS, ev->fields))
        return FALSE;
      if (d->pos == before)
        return dec_fail (d, "an event of no bits (bit %" G_GUINT64_FORMAT ")", before);
    }
  return TRUE;
}

static void
dec_init (Dec         *d,
          SlCtfRetime *rt)
{
  memset (d, 0, sizeof *d);
  d->rt = rt;
  d->clocks = g_new0 (ClockState, MAX (rt->tsdl->clocks->len, 1));
  for (int r = 0; r < N_ROOTS; r++)
    {
      d->root_values[r] = g_array_new (FALSE, TRUE, sizeof (guint64));
      d->root_types[r] = g_array_new (FALSE, TRUE, sizeof (gpointer));
    }
}

static void
dec_clear (Dec *d)
{
  g_free (d->clocks);
  g_free (d->why);
  for (int r = 0; r < N_ROOTS; r++)
    {
      g_array_unref (d->root_values[r]);
      g_array_unref (d->root_types[r]);
    }
}

static gboolean
write_all (FILE         *out,
           const guint8 *data,
           gsize         len)
{
  return len == 0 || fwrite (data, 1, len, out) == len;
}

/* @len bytes of the file from @off into the buffer, grown as needed; the
 * file changing size under the reader is a damaged packet. */
static gboolean
grow_and_read (int       fd,
               guint8  **buf,
               gsize    *cap,
               guint64   off,
               guint64   len,
               Dec      *d)
{
  gsize got = 0;

  if (len > G_MAXSIZE / 2)
    return dec_fail (d, "a packet of %" G_GUINT64_FORMAT " bytes", len);
  if (*cap < len)
    {
      g_free (*buf);
      *cap = MAX (len, 65536);
      *buf = g_malloc (*cap);
    }
  while (got < len)
    {
      gssize n = pread (fd, *buf + got, len - got, (off_t) (off + got));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return dec_fail (d, "cannot read %" G_GUINT64_FORMAT " bytes: %s", len,
                         n < 0 ? g_strerror (errno) : "the file is shorter");
      got += (gsize) n;
    }
  return TRUE;
}

/**
 * sl_ctf_retime_stream:
 * @from: a stream file of the trace
 * @to: the copy to create
 * @cut: (out) (optional) (transfer full): set when the copy ends early:
 *   why, naming @from and the packet's offset
 *
 * Copies @from to @to with every clock value rewritten. The packets' new
 * begin and end times are kept for sl_ctf_retime_index(). A packet that
 * cannot be decoded (a damaged or partial one) ends the copy there, as it
 * ends what the readers decode of the file: the packets before it are
 * kept and @cut says why.
 *
 * Returns: FALSE with @error naming @from and the packet's offset when a
 *   value cannot be rewritten (the copy would not be exact), or on I/O
 *   errors
 */
gboolean
sl_ctf_retime_stream (SlCtfRetime  *self,
                      const char   *from,
                      const char   *to,
                      char        **cut,
                      GError      **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree guint8 *packet = NULL;
  gsize cap = 0;
  goffset size = 0;
  guint64 off = 0;
  FILE *out;
  Dec d;
  int fd;
  gboolean ok = TRUE;

  g_return_val_if_fail (self != NULL && from != NULL && to != NULL, FALSE);

  if (cut != NULL)
    *cut = NULL;
  g_array_set_size (self->packets, 0);
  fd = sl_safe_open_regular (from, &size, &local);
  if (fd < 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", from, local->message);
      return FALSE;
    }

  out = g_fopen (to, "wbx");
  if (out == NULL)
    {
      int e = errno;

      close (fd);
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: cannot create: %s", to, g_strerror (e));
      return FALSE;
    }

  /* a packet at a time: memory does not grow with the file */
  dec_init (&d, self);
  while (ok && off < (guint64) size)
    {
      Frame slots[N_ROOTS];
      guint64 left = (guint64) size - off;
      guint64 head = MIN (left, 65536), packet_bytes;
      guint stream;

      /* sizes first, from the packet's start (no clock moves) */
      for (;;)
        {
          if (!grow_and_read (fd, &packet, &cap, off, head, &d))
            {
              ok = FALSE;
              break;
            }
          g_clear_pointer (&d.why, g_free);
          d.buf = packet;
          d.pos = 0;
          d.end = head * 8;
          d.write = FALSE;
          if (decode_packet_start (&d, slots, &stream))
            break;
          if (head == left)
            {
              ok = FALSE;
              break;
            }
          head = MIN (left, head * 4);
        }
      if (!ok)
        break;
      if (d.has_packet_size && (d.packet_size == 0 || d.packet_size % 8 != 0 || d.packet_size / 8 > left ||
                                d.packet_size < d.pos))
        {
          ok = dec_fail (&d, "packet_size %" G_GUINT64_FORMAT " bits: beyond the file, below the headers or not "
                         "in bytes", d.packet_size);
          break;
        }
      packet_bytes = d.has_packet_size ? d.packet_size / 8 : left;
      if (d.has_content_size && (d.content_size > packet_bytes * 8 || d.content_size < d.pos))
        {
          ok = dec_fail (&d, "content_size %" G_GUINT64_FORMAT " bits: above the packet or below its headers",
                         d.content_size);
          break;
        }

      /* then the packet, rewritten */
      if (packet_bytes > head && !grow_and_read (fd, &packet, &cap, off, packet_bytes, &d))
        {
          ok = FALSE;
          break;
        }
      memset (&d.times, 0, sizeof d.times);
      d.times.offset = off;
      d.buf = packet;
      d.pos = 0;
      d.end = packet_bytes * 8;
      d.write = TRUE;
      ok = decode_packet_start (&d, slots, &stream);
      if (ok)
        {
          d.end = d.has_content_size ? d.content_size : packet_bytes * 8;
          ok = decode_events (&d, slots, stream);
        }
      if (ok && !write_all (out, packet, packet_bytes))
        {
          int e = errno;

          fclose (out);
          close (fd);
          dec_clear (&d);
          g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: cannot write: %s", to, g_strerror (e));
          return FALSE;
        }
      if (ok)
        g_array_append_val (self->packets, d.times);
      if (ok)
        off += packet_bytes;
    }
  close (fd);
  if (fclose (out) != 0 && ok)
    {
      int e = errno;

      dec_clear (&d);
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: cannot write: %s", to, g_strerror (e));
      return FALSE;
    }
  if (!ok && !d.hard)
    {
      if (cut != NULL)
        *cut = g_strdup_printf ("%s: packet at byte %" G_GUINT64_FORMAT ": %s; the copy ends before it", from, off,
                                d.why != NULL ? d.why : "cannot be decoded");
      ok = TRUE;
    }
  else if (!ok)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: packet at byte %" G_GUINT64_FORMAT ": %s; its times "
                   "cannot be rewritten", from, off, d.why != NULL ? d.why : "cannot be decoded");
      g_unlink (to);
    }
  dec_clear (&d);
  return ok;
}

/* ---------------------------------------------------------------------- */
/* Index                                                                   */

#define INDEX_MAGIC 0xC1F1DCC1u

static guint64
get_be (const guint8 *p,
        guint         n)
{
  guint64 v = 0;

  for (guint i = 0; i < n; i++)
    v = (v << 8) | p[i];
  return v;
}

static void
put_be64 (guint8  *p,
          guint64  v)
{
  for (guint i = 0; i < 8; i++)
    p[i] = (guint8) (v >> (56 - 8 * i));
}

/**
 * sl_ctf_retime_index:
 * @from: the index file (`index/<stream>.idx`) of the stream last given to
 *   sl_ctf_retime_stream()
 * @to: the copy to create
 *
 * Copies the index with each packet's timestamp_begin and timestamp_end
 * replaced by the values written in the stream's copy.
 *
 * Returns: FALSE when the index does not describe the stream's packets
 *   (the caller leaves it out: babeltrace2 reads a stream without one)
 */
gboolean
sl_ctf_retime_index (SlCtfRetime  *self,
                     const char   *from,
                     const char   *to,
                     GError      **error)
{
  g_autofree guint8 *data = NULL;
  g_autoptr(GError) local = NULL;
  gsize len = 0;
  guint64 entry;

  g_return_val_if_fail (self != NULL && from != NULL && to != NULL, FALSE);

  if (!sl_safe_read_file (from, (gsize) 1 << 30, &data, &len, &local))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", from, local->message);
      return FALSE;
    }
  if (len < 16 || get_be (data, 4) != INDEX_MAGIC || (entry = get_be (data + 12, 4)) < 56 ||
      (len - 16) % entry != 0 || (len - 16) / entry != self->packets->len)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: not an index of the stream's %u packets", from,
                   self->packets->len);
      return FALSE;
    }
  for (guint i = 0; i < self->packets->len; i++)
    {
      const PacketTimes *p = &g_array_index (self->packets, PacketTimes, i);
      guint8 *e = data + 16 + i * entry;

      if (get_be (e, 8) != p->offset)
        {
          g_set_error (error, SL_ERROR, SL_ERROR_PARSE, "%s: entry %u is not the stream's packet at byte %"
                       G_GUINT64_FORMAT, from, i, p->offset);
          return FALSE;
        }
      if (p->has_begin)
        put_be64 (e + 24, p->begin);
      if (p->has_end)
        put_be64 (e + 32, p->end);
    }
  if (!g_file_set_contents (to, (const char *) data, (gssize) len, &local))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", to, local->message);
      return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Set-up                                                                  */

static guint
id_hash (gconstpointer p)
{
  return g_int64_hash (p);
}

/**
 * sl_ctf_retime_new:
 * @metadata: the trace's metadata, as text: TSDL, or CTF 2's JSON text
 *   sequence
 * @func: the map of the trace's times (every clock's)
 *
 * Returns: (transfer full): a rewriter of the trace's stream files, or
 *   %NULL with @error set when the metadata cannot be read or a clock's
 *   origin is out of range
 */
SlCtfRetime *
sl_ctf_retime_new (const char       *metadata,
                   gsize             len,
                   SlCtfRetimeFunc   func,
                   gpointer          user_data,
                   GError          **error)
{
  static const guint64 no_id = 0;
  SlCtfRetime *self;
  SlTsdl *tsdl;

  g_return_val_if_fail (metadata != NULL && func != NULL, NULL);

  if (sl_ctf_meta_is_ctf2 ((const guint8 *) metadata, len))
    tsdl = sl_ctf2_parse_full (metadata, len, error);
  else
    tsdl = sl_tsdl_parse (metadata, len, error);
  if (tsdl == NULL)
    return NULL;

  self = g_new0 (SlCtfRetime, 1);
  self->tsdl = tsdl;
  self->func = func;
  self->user_data = user_data;
  self->packets = g_array_new (FALSE, TRUE, sizeof (PacketTimes));
  self->bases = g_new0 (ClockBase, MAX (tsdl->clocks->len, 1));
  for (guint i = 0; i < tsdl->clocks->len; i++)
    {
      const SlTsdlClock *c = g_ptr_array_index (tsdl->clocks, i);

      self->bases[i].usable = sl_ctf_retime_clock_base (c->freq, c->offset_s, c->offset, func, user_data,
                                                        &self->bases[i].base_s);
    }
  self->events = g_new0 (GHashTable *, MAX (tsdl->streams->len, 1));
  for (guint s = 0; s < tsdl->streams->len; s++)
    {
      const TStream *st = g_ptr_array_index (tsdl->streams, s);

      self->events[s] = g_hash_table_new (id_hash, g_int64_equal);
      for (guint e = 0; e < tsdl->events->len; e++)
        {
          TEvent *ev = g_ptr_array_index (tsdl->events, e);
          gboolean here = ev->has_stream_id ? st->has_id && ev->stream_id == st->id : tsdl->streams->len == 1 ||
                                                                                    !st->has_id || st->id == 0;

          /* 64-bit keys, as the id field is read; no id is id 0 */
          if (here)
            g_hash_table_insert (self->events[s], ev->has_id ? (gpointer) &ev->id : (gpointer) &no_id, ev);
        }
    }
  return self;
}

void
sl_ctf_retime_free (SlCtfRetime *self)
{
  if (self == NULL)
    return;
  for (guint s = 0; s < self->tsdl->streams->len; s++)
    g_hash_table_unref (self->events[s]);
  g_free (self->events);
  g_free (self->bases);
  g_array_unref (self->packets);
  sl_tsdl_free (self->tsdl);
  g_free (self);
}
