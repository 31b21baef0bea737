/* sl-heap.h: a binary min-heap (priority queue) kept in a GArray
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The heap is a plain GArray of fixed-size elements; these functions keep
 * it ordered. They are always inlined, so where the element size and the
 * comparison are known at the call, the compiler copies and compares in
 * place (the simulations push and pop once per event).
 *
 * Both sifts move a hole instead of swapping, one copy per level. Popping
 * moves the last element down from the root while a child is strictly less
 * (the left one when the two tie), so the order of equal elements depends
 * only on the pushes and pops so far: the same calls give the same order.
 * Callers that need a particular order on ties break them in @less, for
 * example with a push counter.
 */

#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when @a must come out before @b */
typedef gboolean (*SlHeapLessFunc) (gconstpointer a,
                                    gconstpointer b);

/* Adds a copy of @element (which must not point into @heap). */
G_ALWAYS_INLINE static inline void
sl_heap_push (GArray         *heap,
              gconstpointer   element,
              gsize           size,
              SlHeapLessFunc  less)
{
  guint i = heap->len;
  guint8 *data;

  g_array_set_size (heap, i + 1);
  data = (guint8 *) heap->data;
  while (i > 0)
    {
      guint parent = (i - 1) / 2;

      if (!less (element, data + parent * size))
        break;
      memcpy (data + i * size, data + parent * size, size);
      i = parent;
    }
  memcpy (data + i * size, element, size);
}

/* Moves the least element to @out; FALSE when the heap is empty. */
G_ALWAYS_INLINE static inline gboolean
sl_heap_pop (GArray         *heap,
             gpointer        out,
             gsize           size,
             SlHeapLessFunc  less)
{
  guint8 *data = (guint8 *) heap->data;
  const guint8 *last;
  guint n, i = 0;

  if (heap->len == 0)
    return FALSE;
  memcpy (out, data, size);
  n = heap->len - 1;
  last = data + n * size;
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m;

      if (l >= n)
        break;
      m = (r < n && less (data + r * size, data + l * size)) ? r : l;
      if (!less (data + m * size, last))
        break;
      memcpy (data + i * size, data + m * size, size);
      i = m;
    }
  if (n > 0)
    memcpy (data + i * size, last, size);
  g_array_set_size (heap, n);
  return TRUE;
}

G_END_DECLS
