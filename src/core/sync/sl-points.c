/* sl-points.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-points-private.h"

/* An entry whose dx is ESCAPE is the point exact[dd]. */
#define ESCAPE G_MININT32

typedef struct
{
  gint32 dx;
  gint32 dd;
} Packed;

struct _SlPointChunk
{
  gint64 x0;
  gint64 y0;
  guint  n;
  guint  cap;
  Packed p[];
};

void
sl_point_store_init (SlPointStore *self)
{
  memset (self, 0, sizeof *self);
  self->min_x = G_MAXINT64;
}

void
sl_point_store_clear (SlPointStore *self)
{
  for (guint c = 0; c < self->n_chunks; c++)
    g_free (self->chunks[c]);
  g_free (self->chunks);
  g_clear_pointer (&self->exact, g_array_unref);
  self->chunks = NULL;
  self->n_chunks = self->chunks_cap = 0;
  self->len = 0;
  self->min_x = G_MAXINT64;
}

static SlPointChunk *
chunk_new (SlPoint p,
           guint   cap)
{
  SlPointChunk *c = g_malloc (sizeof (SlPointChunk) + cap * sizeof (Packed));

  c->x0 = p.x;
  c->y0 = p.y;
  c->n = 0;
  c->cap = cap;
  return c;
}

/* x − x0 and (y − x) − (y0 − x0) in 32 bits, if they fit. */
static gboolean
pack (const SlPointChunk *c,
      SlPoint             p,
      Packed             *out)
{
  gint64 dx, dy, dd;

  if (__builtin_sub_overflow (p.x, c->x0, &dx) || __builtin_sub_overflow (p.y, c->y0, &dy) ||
      __builtin_sub_overflow (dy, dx, &dd))
    return FALSE;
  if (dx <= ESCAPE || dx > G_MAXINT32 || dd < G_MININT32 || dd > G_MAXINT32)
    return FALSE;
  out->dx = (gint32) dx;
  out->dd = (gint32) dd;
  return TRUE;
}

void
sl_point_store_append (SlPointStore *self,
                       SlPoint       p)
{
  SlPointChunk *c = self->n_chunks > 0 ? self->chunks[self->n_chunks - 1] : NULL;
  Packed e;

  if (c == NULL || c->n == SL_POINTS_CHUNK)
    {
      if (self->n_chunks == self->chunks_cap)
        {
          self->chunks_cap = MAX (4, self->chunks_cap * 2);
          self->chunks = g_renew (SlPointChunk *, self->chunks, self->chunks_cap);
        }
      c = self->chunks[self->n_chunks++] = chunk_new (p, SL_POINTS_CHUNK);
    }
  else if (c->n == c->cap)
    {
      /* trimmed, and growing again */
      c = g_realloc (c, sizeof (SlPointChunk) + SL_POINTS_CHUNK * sizeof (Packed));
      c->cap = SL_POINTS_CHUNK;
      self->chunks[self->n_chunks - 1] = c;
    }

  if (!pack (c, p, &e))
    {
      if (self->exact == NULL)
        self->exact = g_array_new (FALSE, FALSE, sizeof (SlPoint));
      e.dx = ESCAPE;
      e.dd = (gint32) self->exact->len;
      g_array_append_val (self->exact, p);
    }
  c->p[c->n++] = e;
  self->len++;
  self->min_x = MIN (self->min_x, p.x);
}

SlPoint
sl_point_store_get (const SlPointStore *self,
                    gsize               i)
{
  const SlPointChunk *c = self->chunks[i / SL_POINTS_CHUNK];
  Packed e = c->p[i % SL_POINTS_CHUNK];
  SlPoint p;

  if (e.dx == ESCAPE)
    return g_array_index (self->exact, SlPoint, e.dd);
  /* fits: x0 + dx and y0 + dx + dd are the point's own values */
  p.x = c->x0 + e.dx;
  p.y = c->y0 + ((gint64) e.dx + e.dd);
  return p;
}

/* The last chunk cut to its points (a store that no longer grows). */
void
sl_point_store_trim (SlPointStore *self)
{
  SlPointChunk *c;

  if (self->n_chunks < self->chunks_cap)
    {
      self->chunks_cap = self->n_chunks;
      self->chunks = g_renew (SlPointChunk *, self->chunks, self->chunks_cap);
    }
  if (self->n_chunks == 0)
    return;
  c = self->chunks[self->n_chunks - 1];
  if (c->cap > c->n)
    {
      c = self->chunks[self->n_chunks - 1] = g_realloc (c, sizeof (SlPointChunk) + c->n * sizeof (Packed));
      c->cap = c->n;
    }
}

/* Points the store has room for without allocating. */
gsize
sl_point_store_capacity (const SlPointStore *self)
{
  if (self->n_chunks == 0)
    return 0;
  return (gsize) (self->n_chunks - 1) * SL_POINTS_CHUNK + self->chunks[self->n_chunks - 1]->cap;
}

gsize
sl_point_store_memory (const SlPointStore *self)
{
  gsize m = self->chunks_cap * sizeof (SlPointChunk *);

  for (guint c = 0; c < self->n_chunks; c++)
    m += sizeof (SlPointChunk) + self->chunks[c]->cap * sizeof (Packed);
  if (self->exact != NULL)
    m += self->exact->len * sizeof (SlPoint);
  return m;
}

/* Keeps the points @keep says to, in order; the counts are the caller's. */
void
sl_point_store_filter (SlPointStore    *self,
                       SlPointKeepFunc  keep,
                       gpointer         user_data)
{
  SlPointStore kept;

  sl_point_store_init (&kept);
  for (gsize i = 0; i < self->len; i++)
    {
      SlPoint p = sl_point_store_get (self, i);

      if (keep (p, i, user_data))
        sl_point_store_append (&kept, p);
    }
  kept.dropped = self->dropped;
  kept.compactions = self->compactions;
  sl_point_store_clear (self);
  *self = kept;
}
