/* sl-interner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Id 0 is the empty string (and stands for "none"); the others count from 1
 * in the order the strings were first seen. The characters live in a string
 * chunk, so a string's address never changes and lookups hash it once.
 */

#include "config.h"

#include <string.h>

#include "sl-interner.h"

struct _SlInterner
{
  GStringChunk *chunk;
  GHashTable   *ids;
  GPtrArray    *strings;
  gsize         chars;
};

SlInterner *
sl_interner_new (void)
{
  SlInterner *self = g_new0 (SlInterner, 1);

  self->chunk = g_string_chunk_new (4096);
  self->ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->strings = g_ptr_array_new ();
  g_ptr_array_add (self->strings, (gpointer) "");
  return self;
}

void
sl_interner_free (SlInterner *self)
{
  if (self == NULL)
    return;
  g_string_chunk_free (self->chunk);
  g_hash_table_destroy (self->ids);
  g_ptr_array_unref (self->strings);
  g_free (self);
}

/* The id of @str, added if it is new; 0 for %NULL or "". */
guint32
sl_interner_intern (SlInterner *self,
                    const char *str)
{
  gpointer id;
  char *copy;

  g_return_val_if_fail (self != NULL, 0);

  if (str == NULL || *str == '\0')
    return 0;
  if (g_hash_table_lookup_extended (self->ids, str, NULL, &id))
    return GPOINTER_TO_UINT (id);

  g_return_val_if_fail (self->strings->len < G_MAXUINT32, 0);
  copy = g_string_chunk_insert (self->chunk, str);
  g_ptr_array_add (self->strings, copy);
  g_hash_table_insert (self->ids, copy, GUINT_TO_POINTER (self->strings->len - 1));
  self->chars += strlen (copy) + 1;
  return self->strings->len - 1;
}

/* The string of @id, "" for 0; valid as long as the interner. */
const char *
sl_interner_get (const SlInterner *self,
                 guint32           id)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (id < self->strings->len, NULL);

  return g_ptr_array_index (self->strings, id);
}

/* Ids in use, 0 included: ids are below this. */
guint32
sl_interner_get_length (const SlInterner *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->strings->len;
}

/* An estimate of the memory held: the characters, and per string its slot
 * in the id array and its key and value in the hash table. */
gsize
sl_interner_get_memory_size (const SlInterner *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return sizeof *self + self->chars + (self->strings->len - 1) * 3 * sizeof (gpointer);
}
