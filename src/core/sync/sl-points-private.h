/* sl-points-private.h: a link direction's matched points, stored compactly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-hull.h"

G_BEGIN_DECLS

/* Points in chunks of SL_POINTS_CHUNK: each chunk keeps its first point
 * exact and the others as 32-bit differences from it (x, and y − x: the
 * offset moves by drift and latency only), or, where a difference does not
 * fit, as an index into @exact. Every point reads back bit for bit. The
 * last chunk is full size while points come; sl_point_store_trim() cuts it
 * to its points. */
#define SL_POINTS_CHUNK 64

typedef struct _SlPointChunk SlPointChunk;

typedef struct
{
  SlPointChunk **chunks;
  guint          n_chunks;
  guint          chunks_cap;
  gsize          len;
  GArray        *exact;
  gint64         min_x;
  guint64        dropped;
  guint64        compactions;
} SlPointStore;

void    sl_point_store_init     (SlPointStore       *self);
void    sl_point_store_clear    (SlPointStore       *self);
void    sl_point_store_append   (SlPointStore       *self,
                                 SlPoint             p);
SlPoint sl_point_store_get      (const SlPointStore *self,
                                 gsize               i);
void    sl_point_store_trim     (SlPointStore       *self);
gsize   sl_point_store_capacity (const SlPointStore *self);
gsize   sl_point_store_memory   (const SlPointStore *self);

typedef gboolean (*SlPointKeepFunc) (SlPoint  p,
                                     gsize    i,
                                     gpointer user_data);

void    sl_point_store_filter   (SlPointStore       *self,
                                 SlPointKeepFunc     keep,
                                 gpointer            user_data);

G_END_DECLS
