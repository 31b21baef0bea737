/* sl-ctf2.c: CTF 2 metadata (a JSON text sequence) as an SlTsdl
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "sl-ctf2.h"
#include "sl-tsdl-private.h"

/*
 * What the scan needs from a CTF 2 trace (LTTng 2.15's default format,
 * read by babeltrace2 ≥ 2.1): the environment, the trace UUID (the
 * preamble's, which packet headers repeat), the clock classes, and the
 * layout of the packet header and of each data stream class's packet
 * context, to check every packet as for CTF 1.8 (sl-ctf-scan.c). Members
 * are known by their CTF 2 role, not their name (babeltrace2's sink.ctf.fs
 * prefixes packet context names with a UUID): each is given the TSDL name
 * of its role, and the layouts are computed as for TSDL
 * (tsdl_compute_layouts). Field classes of a size known only from the
 * data (strings, dynamic arrays, variable-length integers, optionals,
 * variants) make a layout not fixed: those packets are not checked, as
 * for TSDL. Event record classes are not needed: babeltrace2 decodes them.
 *
 * sl_ctf2_parse_full() also reads every field class exactly (the event
 * record header, contexts and payloads, the locations of lengths and
 * selectors), for sl-ctf-retime.c to walk every event of a packet; what
 * it cannot lay out exactly is an error, never a guess.
 */

#define CTF2_MAX_DEPTH 64
/* The field classes one metadata may lay out (a kernel trace's: some
 * 10^4): aliases of aliases could otherwise double them at each level
 * (2^41 from 41 fragments); each costs ~300 bytes and ~1 µs. */
#define CTF2_MAX_TYPES (1u << 18)

typedef struct
{
  JsonNode *fc;     /* owned by the parsers */
  guint     order;  /* the how-manieth alias */
} Alias;

typedef struct
{
  SlTsdl     *t;
  GHashTable *aliases;  /* name → Alias */
  GPtrArray  *parsers;
  char       *error;
  gboolean    full;
  guint       n_types;  /* field classes laid out */
  guint       n_aliases;
  guint       scope;    /* the order of the alias being expanded, or G_MAXUINT */
  int         loc_scope; /* the TLoc of the scope whose field classes are read */
} Ctf2;

static const struct
{
  const char *role;
  const char *name;
} roles[] = {
  { "packet-magic-number", "magic" },
  { "metadata-stream-uuid", "uuid" },
  { "data-stream-class-id", "stream_id" },
  { "data-stream-id", "stream_instance_id" },
  { "default-clock-timestamp", "timestamp_begin" },
  { "packet-end-default-clock-timestamp", "timestamp_end" },
  { "packet-content-length", "content_size" },
  { "packet-total-length", "packet_size" },
  { "discarded-event-record-counter-snapshot", "events_discarded" },
  { "packet-sequence-number", "packet_seq_num" },
  { "event-record-class-id", "id" },
};

static const char *
role_name (JsonObject *fc)
{
  JsonArray *r = json_object_has_member (fc, "roles") ? json_object_get_array_member (fc, "roles") : NULL;

  for (guint i = 0; r != NULL && i < json_array_get_length (r); i++)
    {
      JsonNode *n = json_array_get_element (r, i);

      if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
        for (guint k = 0; k < G_N_ELEMENTS (roles); k++)
          if (g_str_equal (json_node_get_string (n), roles[k].role))
            return roles[k].name;
    }
  return NULL;
}

static gint64
member_int (JsonObject *o,
            const char *name,
            gint64      fallback)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, name) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    return fallback;
  return json_node_get_int (n);
}

/* FALSE for a member that is there and not an integer */
static gboolean
integer_or_absent (JsonObject *o,
                   const char *name)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, name) : NULL;

  return n == NULL || (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64);
}

static void set_error (Ctf2       *c,
                       const char *fmt,
                       ...) G_GNUC_PRINTF (2, 3);

/* A class id (0 when absent); in full mode, one that is not an integer
 * or is at least 2^63 (JSON-GLib gives it negative) is an error. */
static guint64
class_id (Ctf2       *c,
          JsonObject *o,
          const char *name)
{
  gint64 v = member_int (o, name, 0);

  if (c->full && (!integer_or_absent (o, name) || v < 0))
    set_error (c, "a “%s” that is not an integer below 2^63", name);
  return (guint64) MAX (v, 0);
}

static const char *
member_string (JsonObject *o,
               const char *name)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, name) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

static JsonObject *
member_object (JsonObject *o,
               const char *name)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, name) : NULL;

  return n != NULL && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

/* 16 bytes from a JSON array of integers or a textual UUID. */
static gboolean
read_uuid (JsonNode *n,
           guint8   *uuid)
{
  if (n != NULL && JSON_NODE_HOLDS_ARRAY (n))
    {
      JsonArray *a = json_node_get_array (n);

      if (json_array_get_length (a) != 16)
        return FALSE;
      for (guint i = 0; i < 16; i++)
        {
          JsonNode *e = json_array_get_element (a, i);

          if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64 ||
              json_node_get_int (e) < 0 || json_node_get_int (e) > 255)
            return FALSE;
          uuid[i] = (guint8) json_node_get_int (e);
        }
      return TRUE;
    }
  if (n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (n);
      guint k = 0;

      if (!g_uuid_string_is_valid (s))
        return FALSE;
      for (const char *p = s; *p != '\0' && k < 16; p++)
        if (*p != '-')
          {
            uuid[k++] = (guint8) (g_ascii_xdigit_value (p[0]) << 4 | g_ascii_xdigit_value (p[1]));
            p++;
          }
      return k == 16;
    }
  return FALSE;
}

static TType *field_class (Ctf2 *c, JsonNode *n, const char *clock, guint depth);

static void
set_error (Ctf2       *c,
           const char *fmt,
           ...) G_GNUC_PRINTF (2, 3);

static void
set_error (Ctf2       *c,
           const char *fmt,
           ...)
{
  va_list ap;

  if (c->error != NULL)
    return;
  va_start (ap, fmt);
  c->error = g_strdup_vprintf (fmt, ap);
  va_end (ap);
}

/* A type standing for what the scan does not lay out; an error when
 * every field class must be exact. */
static TType *
not_laid_out (Ctf2       *c,
              const char *type)
{
  if (c->full)
    set_error (c, "a field class of type “%s” cannot be laid out", type != NULL ? type : "(none)");
  return tsdl_type_new (T_STRING, 0);
}

static TType *
integer_class (Ctf2       *c,
               JsonObject *fc,
               const char *type,
               const char *clock)
{
  TType *t = tsdl_type_new (T_INT, 0);
  const char *order = member_string (fc, "byte-order");
  const char *bits = member_string (fc, "bit-order");
  const char *role = role_name (fc);

  t->size = (guint) CLAMP (member_int (fc, "length", 0), 0, 64);
  if (c->full && (member_int (fc, "length", 0) < 1 || member_int (fc, "length", 0) > 64))
    set_error (c, "an integer field class of length %" G_GINT64_FORMAT " (1 to 64 bits are read)",
               member_int (fc, "length", 0));
  t->align = (guint) CLAMP (member_int (fc, "alignment", 1), 1, 1 << 16);
  t->is_signed = strstr (type, "-signed-") != NULL;
  t->byte_order = g_strcmp0 (order, "big-endian") == 0 ? 2 : 1;
  if (role != NULL && clock != NULL && g_str_has_prefix (role, "timestamp_"))
    t->map_clock = g_strdup (clock);
  /* CTF 1.8's bit order (CTF 2's default) is the only one read */
  if (c->full && bits != NULL && !g_str_equal (bits, t->byte_order == 2 ? "last-to-first" : "first-to-last"))
    set_error (c, "a field class with bit order “%s”", bits);
  return t;
}

/* A CTF 2 field location: where a length or a selector is. */
static void
field_location (Ctf2       *c,
                TType      *t,
                JsonObject *fc,
                const char *member)
{
  static const struct { const char *name; TLoc loc; } origins[] = {
    { "packet-header", T_LOC_PACKET_HEADER }, { "packet-context", T_LOC_PACKET_CONTEXT },
    { "event-record-header", T_LOC_EVENT_HEADER }, { "event-record-common-context", T_LOC_EVENT_COMMON_CONTEXT },
    { "event-record-specific-context", T_LOC_EVENT_SPECIFIC_CONTEXT },
    { "event-record-payload", T_LOC_EVENT_PAYLOAD },
  };
  JsonObject *loc = member_object (fc, member);
  JsonNode *pn = loc != NULL ? json_object_get_member (loc, "path") : NULL;
  const char *origin = member_string (loc, "origin");
  JsonArray *path;

  if (pn == NULL || !JSON_NODE_HOLDS_ARRAY (pn) || json_array_get_length (json_node_get_array (pn)) == 0)
    {
      set_error (c, "a “%s” without a path", member);
      return;
    }
  t->loc_origin = T_LOC_RELATIVE;
  for (guint i = 0; origin != NULL && i < G_N_ELEMENTS (origins); i++)
    if (g_str_equal (origin, origins[i].name))
      t->loc_origin = origins[i].loc;
  if (origin != NULL && t->loc_origin == T_LOC_RELATIVE)
    set_error (c, "a field location from “%s”", origin);
  /* a scope is decoded after the ones before it only */
  if (c->full && t->loc_origin > T_LOC_RELATIVE && c->loc_scope > T_LOC_RELATIVE && t->loc_origin > c->loc_scope)
    set_error (c, "a field location from “%s”, a scope decoded after the field's own", origin);
  path = json_node_get_array (pn);
  if (c->full && json_array_get_length (path) > CTF2_MAX_DEPTH)
    set_error (c, "a field location's path of %u names (at most %d are read)", json_array_get_length (path),
               CTF2_MAX_DEPTH);
  t->loc_path = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < json_array_get_length (path) && i < CTF2_MAX_DEPTH; i++)
    {
      JsonNode *e = json_array_get_element (path, i);

      if (JSON_NODE_HOLDS_NULL (e) && origin == NULL)
        g_ptr_array_add (t->loc_path, NULL);
      else if (JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING)
        g_ptr_array_add (t->loc_path, g_strdup (json_node_get_string (e)));
      else
        set_error (c, "a field location's path holds something other than names");
    }
}

/* A range bound. JSON-GLib gives an integer above 2^63 − 1 as the int64
 * of its 64 bits (2^64 − 1 as −1): an unsigned selector compares them
 * right (mapping_holds in sl-ctf-retime.c). */
static gboolean
range_bound (JsonNode *n,
             gint64   *v)
{
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    return FALSE;
  *v = json_node_get_int (n);
  return TRUE;
}

/* An option's selector ranges, as mappings of the variant to @label. */
static void
option_ranges (Ctf2       *c,
               TType      *t,
               JsonObject *o,
               const char *label)
{
  JsonNode *rn = json_object_get_member (o, "selector-field-ranges");
  JsonArray *ranges = rn != NULL && JSON_NODE_HOLDS_ARRAY (rn) ? json_node_get_array (rn) : NULL;

  if (ranges == NULL)
    {
      set_error (c, "an option without selector ranges");
      return;
    }
  for (guint i = 0; i < json_array_get_length (ranges); i++)
    {
      JsonNode *pn = json_array_get_element (ranges, i);
      JsonArray *pair = JSON_NODE_HOLDS_ARRAY (pn) ? json_node_get_array (pn) : NULL;
      TMapping m = { 0 };

      if (pair == NULL || json_array_get_length (pair) != 2 ||
          !range_bound (json_array_get_element (pair, 0), &m.lo) ||
          !range_bound (json_array_get_element (pair, 1), &m.hi))
        {
          set_error (c, "a selector range that is not two integers");
          return;
        }
      m.label = g_strdup (label);
      g_array_append_val (t->mappings, m);
    }
}

/* A variant or an optional: its options as members, each with its
 * selector ranges (an optional with a boolean selector: any value but
 * 0). */
static TType *
variant_class (Ctf2       *c,
               JsonObject *fc,
               gboolean    optional,
               const char *clock,
               guint       depth)
{
  TType *t = tsdl_type_new (T_VARIANT, 0);
  JsonNode *on = json_object_get_member (fc, "options");
  JsonArray *options = on != NULL && JSON_NODE_HOLDS_ARRAY (on) ? json_node_get_array (on) : NULL;

  t->members = g_ptr_array_new_with_free_func (tsdl_member_free);
  t->mappings = g_array_new (FALSE, TRUE, sizeof (TMapping));
  g_array_set_clear_func (t->mappings, tsdl_mapping_clear);
  t->optional = optional;
  field_location (c, t, fc, "selector-field-location");
  if (optional)
    {
      TMember *m = g_new0 (TMember, 1);

      m->name = g_strdup ("optional");
      m->type = field_class (c, json_object_get_member (fc, "field-class"), clock, depth + 1);
      g_ptr_array_add (t->members, m);
      if (json_object_has_member (fc, "selector-field-ranges"))
        option_ranges (c, t, fc, m->name);
      else
        {
          TMapping any = { g_strdup (m->name), 1, -1, TRUE, 0 };

          g_array_append_val (t->mappings, any);
        }
      return t;
    }
  if (options == NULL || json_array_get_length (options) == 0)
    set_error (c, "a variant without options");
  if (c->full && options != NULL && json_array_get_length (options) > TSDL_MAX_MEMBERS)
    set_error (c, "a variant of %u options (at most %d are read)", json_array_get_length (options), TSDL_MAX_MEMBERS);
  for (guint i = 0; options != NULL && i < json_array_get_length (options) && i < TSDL_MAX_MEMBERS; i++)
    {
      JsonNode *en = json_array_get_element (options, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (en) ? json_node_get_object (en) : NULL;
      TMember *m;

      if (o == NULL)
        {
          set_error (c, "a variant option that is not an object");
          break;
        }
      m = g_new0 (TMember, 1);
      m->name = member_string (o, "name") != NULL ? g_strdup (member_string (o, "name")) : g_strdup_printf ("#%u", i);
      m->type = field_class (c, json_object_get_member (o, "field-class"), clock, depth + 1);
      g_ptr_array_add (t->members, m);
      option_ranges (c, t, o, m->name);
    }
  return t;
}

/* What only the full reading lays out: sizes from the data. */
static TType *
dynamic_class (Ctf2       *c,
               JsonObject *fc,
               const char *type,
               const char *clock,
               guint       depth)
{
  const char *encoding = member_string (fc, "encoding");
  TType *t;

  if (encoding != NULL && !g_str_equal (encoding, "utf-8") &&
      (g_str_has_suffix (type, "-string")))
    {
      set_error (c, "a string encoded in %s", encoding);
      return tsdl_type_new (T_STRING, 0);
    }
  if (g_str_equal (type, "null-terminated-string"))
    return tsdl_type_new (T_STRING, 0);
  if (g_str_equal (type, "variable-length-unsigned-integer") || g_str_equal (type, "variable-length-signed-integer"))
    {
      t = tsdl_type_new (T_INT, 0);
      t->leb128 = TRUE;
      t->align = 8;
      t->is_signed = g_str_equal (type, "variable-length-signed-integer");
      if (role_name (fc) != NULL && g_str_has_prefix (role_name (fc), "timestamp_"))
        set_error (c, "a clock timestamp of variable length");
      return t;
    }
  if (g_str_equal (type, "dynamic-length-string") || g_str_equal (type, "dynamic-length-blob") ||
      g_str_equal (type, "dynamic-length-array"))
    {
      t = tsdl_type_new (T_SEQUENCE, 0);
      if (g_str_equal (type, "dynamic-length-array"))
        {
          t->element = field_class (c, json_object_get_member (fc, "element-field-class"), NULL, depth + 1);
          t->align = (guint) CLAMP (member_int (fc, "minimum-alignment", 1), 1, 1 << 16);
        }
      else
        {
          t->element = tsdl_type_new (T_INT, 0);
          t->element->size = 8;
          t->element->align = 8;
        }
      field_location (c, t, fc, "length-field-location");
      return t;
    }
  if (g_str_equal (type, "optional") || g_str_equal (type, "variant"))
    return variant_class (c, fc, g_str_equal (type, "optional"), clock, depth);
  return not_laid_out (c, type);
}

/* A field class, an alias's name replaced by what it names: an alias
 * defined before the one being expanded (so never itself); *scope gets
 * the order of the alias to expand it in. */
static JsonNode *
resolve (Ctf2     *c,
         JsonNode *n,
         guint    *scope)
{
  const Alias *a;

  *scope = c->scope;
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return n;
  a = g_hash_table_lookup (c->aliases, json_node_get_string (n));
  if (a == NULL)
    return NULL;
  if (a->order >= c->scope)
    {
      set_error (c, "the field class alias “%s” used within itself or before it is defined",
                 json_node_get_string (n));
      return NULL;
    }
  *scope = a->order;
  return a->fc;
}

static TType *
structure_class (Ctf2       *c,
                 JsonObject *fc,
                 const char *clock,
                 guint       depth)
{
  JsonNode *mn = json_object_get_member (fc, "member-classes");
  JsonArray *members = mn != NULL && JSON_NODE_HOLDS_ARRAY (mn) ? json_node_get_array (mn) : NULL;
  TType *t = tsdl_type_new (T_STRUCT, 0);

  t->members = g_ptr_array_new_with_free_func (tsdl_member_free);
  t->align = (guint) CLAMP (member_int (fc, "minimum-alignment", 1), 1, 1 << 16);
  /* refused, as TSDL refuses them, by the scan's reading too: it took
   * the first 2^16 silently, a layout that is not the trace's (the scan
   * reads no variant's options: its layout walk stops at one) */
  if (members != NULL && json_array_get_length (members) > TSDL_MAX_MEMBERS)
    set_error (c, "a structure of %u members (at most %d are read)", json_array_get_length (members), TSDL_MAX_MEMBERS);
  for (guint i = 0; members != NULL && i < json_array_get_length (members) && i < TSDL_MAX_MEMBERS; i++)
    {
      JsonNode *en = json_array_get_element (members, i);
      JsonObject *m = JSON_NODE_HOLDS_OBJECT (en) ? json_node_get_object (en) : NULL;
      JsonNode *raw = m != NULL ? json_object_get_member (m, "field-class") : NULL;
      guint scope;
      JsonNode *mfc = resolve (c, raw, &scope);
      JsonObject *mo = mfc != NULL && JSON_NODE_HOLDS_OBJECT (mfc) ? json_node_get_object (mfc) : NULL;
      const char *role = mo != NULL ? role_name (mo) : NULL;
      TMember *tm;

      if (m == NULL || mfc == NULL)
        {
          if (c->full)
            set_error (c, "a structure member without a field class");
          continue;
        }
      tm = g_new0 (TMember, 1);
      /* a member with a role is named for it; one named like a role but
       * without it is renamed out of the way */
      tm->name = g_strdup (role != NULL ? role : member_string (m, "name"));
      for (guint k = 0; role == NULL && tm->name != NULL && k < G_N_ELEMENTS (roles); k++)
        if (g_str_equal (tm->name, roles[k].name))
          {
            g_free (tm->name);
            tm->name = g_strdup_printf ("ctf2 %s", member_string (m, "name"));
          }
      tm->ctf2_name = g_strdup (member_string (m, "name"));
      tm->type = field_class (c, raw, clock, depth + 1);
      g_ptr_array_add (t->members, tm);
    }
  return t;
}

/* A field class of CTF 2 (not an alias) as the TSDL type the layouts walk. */
static TType *
field_class_of (Ctf2       *c,
                JsonNode   *n,
                const char *clock,
                guint       depth)
{
  JsonObject *fc;
  const char *type;
  TType *t;

  if (n == NULL || !JSON_NODE_HOLDS_OBJECT (n) || depth > CTF2_MAX_DEPTH)
    return not_laid_out (c, NULL);
  fc = json_node_get_object (n);
  type = member_string (fc, "type");
  if (type == NULL)
    return not_laid_out (c, NULL);
  if (g_str_has_prefix (type, "fixed-length-") && !g_str_equal (type, "fixed-length-floating-point-number"))
    return integer_class (c, fc, type, clock);
  if (g_str_equal (type, "fixed-length-floating-point-number"))
    {
      t = tsdl_type_new (T_FLOAT, 0);
      t->exp_dig = (guint) CLAMP (member_int (fc, "length", 0), 0, 64);
      t->align = (guint) CLAMP (member_int (fc, "alignment", 1), 1, 1 << 16);
      return t;
    }
  if (g_str_equal (type, "structure"))
    return structure_class (c, fc, clock, depth);
  if (g_str_equal (type, "static-length-blob") || g_str_equal (type, "static-length-array") ||
      (c->full && g_str_equal (type, "static-length-string")))
    {
      gint64 len = member_int (fc, "length", -1);

      t = tsdl_type_new (T_ARRAY, 0);
      t->length = (guint64) CLAMP (len, 0, (gint64) TSDL_MAX_ARRAY);
      if (c->full && g_str_equal (type, "static-length-array"))
        t->align = (guint) CLAMP (member_int (fc, "minimum-alignment", 1), 1, 1 << 16);
      if (!g_str_equal (type, "static-length-array"))
        {
          t->element = tsdl_type_new (T_INT, 0);
          t->element->size = 8;
          t->element->align = 8;
        }
      else
        t->element = field_class (c, json_object_get_member (fc, "element-field-class"), NULL, depth + 1);
      if (len < 0 || len > (gint64) TSDL_MAX_ARRAY)
        {
          tsdl_type_unref (t);
          return not_laid_out (c, type);
        }
      return t;
    }
  if (c->full)
    return dynamic_class (c, fc, type, clock, depth);
  /* a size from the data: the layout walk stops there */
  return tsdl_type_new (T_STRING, 0);
}

/* A field class or an alias's name, within the budget of CTF2_MAX_TYPES. */
static TType *
field_class (Ctf2       *c,
             JsonNode   *n,
             const char *clock,
             guint       depth)
{
  guint outer = c->scope;
  TType *t;

  if (c->error == NULL && c->n_types >= CTF2_MAX_TYPES)
    set_error (c, "more than %u field classes to lay out (aliases within aliases?)", CTF2_MAX_TYPES);
  if (c->error != NULL)
    return tsdl_type_new (T_STRING, 0);
  c->n_types++;
  n = resolve (c, n, &c->scope);
  t = field_class_of (c, n, clock, depth);
  c->scope = outer;
  return t;
}

static void
clock_class (Ctf2       *c,
             JsonObject *o)
{
  SlTsdlClock *k = g_new0 (SlTsdlClock, 1);
  JsonObject *off = member_object (o, "offset-from-origin");
  gint64 freq = member_int (o, "frequency", 0);
  gint64 cycles = member_int (off, "cycles", 0);
  const char *id = member_string (o, "id") != NULL ? member_string (o, "id") : "(no id)";

  /* a number that is not an integer (1.7e9) would be read as 0 */
  if (!integer_or_absent (o, "frequency") || !integer_or_absent (off, "seconds") ||
      !integer_or_absent (off, "cycles") || (json_object_has_member (o, "offset-from-origin") && off == NULL))
    set_error (c, "clock class %s: a frequency or offset that is not an integer", id);
  /* as babeltrace2 2.1 (JSON-GLib gives 2^63 and above negative) */
  if (cycles < 0 || (freq > 0 && cycles >= freq))
    set_error (c, "clock class %s: an offset in cycles that is negative or not below its frequency (%" G_GINT64_FORMAT
               " Hz)", id, freq);

  k->name = g_strdup (member_string (o, "id"));
  k->freq = freq > 0 ? (guint64) freq : 0;
  k->offset_s = member_int (off, "seconds", 0);
  k->offset = (guint64) MAX (cycles, 0);
  k->has_uuid = read_uuid (json_object_get_member (o, "uuid"), k->uuid) ||
                read_uuid (json_object_get_member (o, "uid"), k->uuid);
  if (k->freq == 0)
    set_error (c, "clock class %s: no frequency", k->name != NULL ? k->name : "(no id)");
  g_ptr_array_add (c->t->clocks, k);
}

static void
stream_class (Ctf2       *c,
              JsonObject *o)
{
  TStream *s = g_new0 (TStream, 1);

  s->id = class_id (c, o, "id");
  s->has_id = TRUE;
  c->loc_scope = T_LOC_PACKET_CONTEXT;
  s->packet_context = json_object_has_member (o, "packet-context-field-class")
                        ? field_class (c, json_object_get_member (o, "packet-context-field-class"),
                                       member_string (o, "default-clock-class-id"), 0)
                        : NULL;
  c->loc_scope = T_LOC_EVENT_HEADER;
  if (c->full && json_object_has_member (o, "event-record-header-field-class"))
    s->event_header = field_class (c, json_object_get_member (o, "event-record-header-field-class"),
                                   member_string (o, "default-clock-class-id"), 0);
  c->loc_scope = T_LOC_EVENT_COMMON_CONTEXT;
  if (c->full && json_object_has_member (o, "event-record-common-context-field-class"))
    s->event_context = field_class (c, json_object_get_member (o, "event-record-common-context-field-class"), NULL, 0);
  g_ptr_array_add (c->t->streams, s);
}

static void
event_record_class (Ctf2       *c,
                    JsonObject *o)
{
  TEvent *e = g_new0 (TEvent, 1);

  e->name = g_strdup (member_string (o, "name"));
  e->id = class_id (c, o, "id");
  e->has_id = TRUE;
  e->stream_id = class_id (c, o, "data-stream-class-id");
  e->has_stream_id = TRUE;
  c->loc_scope = T_LOC_EVENT_SPECIFIC_CONTEXT;
  if (json_object_has_member (o, "specific-context-field-class"))
    e->context = field_class (c, json_object_get_member (o, "specific-context-field-class"), NULL, 0);
  c->loc_scope = T_LOC_EVENT_PAYLOAD;
  if (json_object_has_member (o, "payload-field-class"))
    e->fields = field_class (c, json_object_get_member (o, "payload-field-class"), NULL, 0);
  g_ptr_array_add (c->t->events, e);
}

static void
trace_class (Ctf2       *c,
             JsonObject *o)
{
  JsonObject *env = member_object (o, "environment");
  GList *keys = env != NULL ? json_object_get_members (env) : NULL;

  for (GList *l = keys; l != NULL; l = l->next)
    {
      JsonNode *v = json_object_get_member (env, l->data);
      char *value = NULL;

      if (JSON_NODE_HOLDS_VALUE (v) && json_node_get_value_type (v) == G_TYPE_STRING)
        value = g_strdup (json_node_get_string (v));
      else if (JSON_NODE_HOLDS_VALUE (v) && json_node_get_value_type (v) == G_TYPE_INT64)
        value = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (v));
      if (value != NULL)
        g_hash_table_replace (c->t->env, g_strdup (l->data), value);
    }
  g_list_free (keys);
  c->loc_scope = T_LOC_PACKET_HEADER;
  if (json_object_has_member (o, "packet-header-field-class"))
    c->t->packet_header = field_class (c, json_object_get_member (o, "packet-header-field-class"), NULL, 0);
}

static void
fragment (Ctf2       *c,
          JsonObject *o)
{
  const char *type = member_string (o, "type");

  if (g_strcmp0 (type, "preamble") == 0)
    {
      c->t->major = (guint) CLAMP (member_int (o, "version", 0), 0, 1000);
      c->t->has_uuid = read_uuid (json_object_get_member (o, "uuid"), c->t->uuid);
    }
  else if (g_strcmp0 (type, "field-class-alias") == 0 && member_string (o, "name") != NULL &&
           json_object_has_member (o, "field-class"))
    {
      Alias *a = g_new (Alias, 1);

      a->fc = json_object_get_member (o, "field-class");
      a->order = c->n_aliases++;
      g_hash_table_replace (c->aliases, (gpointer) member_string (o, "name"), a);
    }
  else if (g_strcmp0 (type, "trace-class") == 0)
    trace_class (c, o);
  else if (g_strcmp0 (type, "clock-class") == 0)
    clock_class (c, o);
  else if (g_strcmp0 (type, "data-stream-class") == 0)
    stream_class (c, o);
  else if (c->full && g_strcmp0 (type, "event-record-class") == 0)
    event_record_class (c, o);
}

/**
 * sl_ctf2_json_too_deep:
 * @text: one JSON text, NUL-terminated
 *
 * Whether @text nests arrays and objects more than SL_CTF2_MAX_JSON_DEPTH
 * deep. json-glib 1.6 parses them recursively without a bound: a
 * megabyte of `[` overflows its stack. What its lexer skips is skipped
 * here (strings in double quotes with escapes, in single quotes without,
 * C comments); any other bracket counts, so the depth
 * counted is never below the depth it reaches.
 */
gboolean
sl_ctf2_json_too_deep (const char *text)
{
  guint depth = 0;

  g_return_val_if_fail (text != NULL, FALSE);

  for (const char *p = text; *p != '\0'; p++)
    {
      const char *end = NULL;

      if (*p == '"')
        {
          for (end = p + 1; *end != '\0' && *end != '"'; end++)
            if (*end == '\\' && end[1] != '\0')
              end++;
        }
      else if (*p == '\'')
        end = strchr (p + 1, '\'');
      else if (p[0] == '/' && p[1] == '*')
        {
          end = strstr (p + 2, "*/");
          end = end != NULL ? end + 1 : NULL;
        }
      else if (*p == '[' || *p == '{')
        {
          if (++depth > SL_CTF2_MAX_JSON_DEPTH)
            return TRUE;
          continue;
        }
      else
        {
          if ((*p == ']' || *p == '}') && depth > 0)
            depth--;
          continue;
        }
      /* an unterminated string or comment: json-glib stops there */
      if (end == NULL || *end == '\0')
        return FALSE;
      p = end;
    }
  return FALSE;
}

static SlTsdl *
parse (const char  *text,
       gsize        len,
       gboolean     full,
       GError     **error)
{
  g_autoptr(SlTsdl) t = g_new0 (SlTsdl, 1);
  g_auto(GStrv) parts = NULL;
  g_autofree char *copy = NULL;
  Ctf2 c = { 0 };
  guint n = 0;

  tsdl_init (t);
  t->byte_order = 1;
  c.t = t;
  c.full = full;
  c.aliases = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  c.scope = G_MAXUINT;
  c.parsers = g_ptr_array_new_with_free_func (g_object_unref);
  copy = g_strndup (text, len);
  parts = g_strsplit (copy, "\x1e", -1);
  for (guint i = 0; parts[i] != NULL && c.error == NULL; i++)
    {
      g_autoptr(GError) e = NULL;
      JsonParser *p;
      JsonNode *root;

      if (*g_strstrip (parts[i]) == '\0')
        continue;
      n++;
      if (sl_ctf2_json_too_deep (parts[i]))
        {
          c.error = g_strdup_printf ("fragment %u: arrays and objects nested more than %u deep", n,
                                     SL_CTF2_MAX_JSON_DEPTH);
          break;
        }
      p = json_parser_new_immutable ();
      g_ptr_array_add (c.parsers, p);
      if (!json_parser_load_from_data (p, parts[i], -1, &e))
        c.error = g_strdup_printf ("fragment %u: %s", n, e->message);
      else if ((root = json_parser_get_root (p)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        c.error = g_strdup_printf ("fragment %u: not a JSON object", n);
      else if (n == 1 && g_strcmp0 (member_string (json_node_get_object (root), "type"), "preamble") != 0)
        c.error = g_strdup_printf ("fragment 1: not the preamble");
      else
        {
          JsonObject *o = json_node_get_object (root);

          fragment (&c, o);
          if (c.error != NULL && full)
            {
              const char *name = member_string (o, "name");
              char *why = g_strdup_printf ("fragment %u (%s%s%s): %s", n, member_string (o, "type"),
                                           name != NULL ? " " : "", name != NULL ? name : "", c.error);

              g_free (c.error);
              c.error = why;
            }
        }
    }
  if (c.error == NULL && t->major != 2)
    c.error = g_strdup_printf ("CTF version %u, not 2", t->major);
  g_hash_table_destroy (c.aliases);
  g_ptr_array_unref (c.parsers);
  if (c.error != NULL)
    {
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_PARSE, "%s", c.error);
      g_free (c.error);
      return NULL;
    }
  tsdl_compute_layouts (t);
  return g_steal_pointer (&t);
}

/**
 * sl_ctf2_parse:
 * @error: what is wrong: "fragment N: …"
 *
 * Parses CTF 2 metadata (its whole text: JSON fragments, each after a
 * record separator) into what the scan needs (see above).
 */
SlTsdl *
sl_ctf2_parse (const char  *text,
               gsize        len,
               GError     **error)
{
  g_return_val_if_fail (text != NULL, NULL);

  return parse (text, len, FALSE, error);
}

/**
 * sl_ctf2_parse_full:
 *
 * As sl_ctf2_parse(), with every event record class and every field
 * class laid out exactly (lengths and selectors by their locations), to
 * decode every event; a field class that cannot be laid out exactly is
 * an error.
 */
SlTsdl *
sl_ctf2_parse_full (const char  *text,
                    gsize        len,
                    GError     **error)
{
  g_return_val_if_fail (text != NULL, NULL);

  return parse (text, len, TRUE, error);
}
