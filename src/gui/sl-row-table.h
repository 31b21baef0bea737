/* sl-row-table.h: a table whose rows are one widget each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sl-text-cell.h"

G_BEGIN_DECLS

#define SL_TYPE_ROW_TABLE (sl_row_table_get_type ())

G_DECLARE_FINAL_TYPE (SlRowTable, sl_row_table, SL, ROW_TABLE, GtkWidget)

/* Where a row draws one column's text: x and width in the coordinates of
 * the table's header, and what the column shows. */
typedef struct
{
  int                 x;
  int                 width;
  guint               index;    /* of the column, in the order added */
  const SlTextColumn *column;
} SlRowTableCell;

GtkColumnView      *sl_row_table_get_header  (SlRowTable         *self);
void                sl_row_table_set_header  (SlRowTable         *self,
                                              GtkColumnView      *header);
GtkSelectionModel  *sl_row_table_get_model   (SlRowTable         *self);
void                sl_row_table_set_model   (SlRowTable         *self,
                                              GtkSelectionModel  *model);
void                sl_row_table_add_column  (SlRowTable          *self,
                                              GtkColumnViewColumn *column,
                                              const SlTextColumn  *spec);
GtkListView        *sl_row_table_get_list    (SlRowTable         *self);

const SlRowTableCell *_sl_row_table_get_cells      (SlRowTable *self,
                                                    guint      *n_cells);
const SlTextColumn   *_sl_row_table_get_column     (SlRowTable *self,
                                                    guint       index);
guint                 _sl_row_table_get_n_columns  (SlRowTable *self);

G_END_DECLS
