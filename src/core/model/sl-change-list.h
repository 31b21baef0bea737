/* sl-change-list.h: the tree and reference changes of the journal, as a
 * list model that builds its items only when a view asks for them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sl-journal.h"

G_BEGIN_DECLS

#define SL_TYPE_CHANGE_ITEM (sl_change_item_get_type ())

G_DECLARE_FINAL_TYPE (SlChangeItem, sl_change_item, SL, CHANGE_ITEM, GObject)

SlChangeKind  sl_change_item_get_kind  (SlChangeItem *self);
const char   *sl_change_item_get_text  (SlChangeItem *self);

#define SL_TYPE_CHANGE_LIST (sl_change_list_get_type ())

G_DECLARE_FINAL_TYPE (SlChangeList, sl_change_list, SL, CHANGE_LIST, GObject)

SlChangeList *sl_change_list_new          (GPtrArray      *host_names);
gboolean      sl_change_list_wants        (SlChangeKind    kind);
void          sl_change_list_append       (SlChangeList   *self,
                                           const SlChange *changes,
                                           guint           n_changes);
void          sl_change_list_clear        (SlChangeList   *self);
void          sl_change_list_set_origin   (SlChangeList   *self,
                                           gint64          origin);

G_END_DECLS
