/* sl-text-cell-private.h: a text cell drawing a whole row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-row-table.h"
#include "sl-text-cell.h"

G_BEGIN_DECLS

GtkWidget  *_sl_text_cell_new_row            (SlRowTable      *table,
                                              GtkListItem     *list_item,
                                              const char      *tooltip);
void        _sl_text_cell_size_title         (GtkColumnView   *view,
                                              GObject         *column,
                                              int              chars);

gboolean    _sl_text_cell_is_row             (SlTextCell      *self);
const char *_sl_text_cell_get_column_text    (SlTextCell      *self,
                                              const char      *property);
gboolean    _sl_text_cell_get_column_box     (SlTextCell      *self,
                                              const char      *property,
                                              graphene_rect_t *box);
gboolean    _sl_text_cell_column_was_cut     (SlTextCell      *self,
                                              const char      *property);

G_END_DECLS
