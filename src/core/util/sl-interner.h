/* sl-interner.h: strings stored once, named by small integer ids
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlInterner SlInterner;

SlInterner  *sl_interner_new        (void);
void         sl_interner_free       (SlInterner       *self);
guint32      sl_interner_intern     (SlInterner       *self,
                                     const char       *str);
const char  *sl_interner_get        (const SlInterner *self,
                                     guint32           id);
guint32      sl_interner_get_length (const SlInterner *self);
gsize        sl_interner_get_memory_size (const SlInterner *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlInterner, sl_interner_free)

G_END_DECLS
