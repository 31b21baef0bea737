/* sl-text-list.h: rows of texts as a list model, an object made only for
 * the rows a view shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SL_TEXT_ROW_COLUMNS 12

#define SL_TYPE_TEXT_ROW (sl_text_row_get_type ())

G_DECLARE_FINAL_TYPE (SlTextRow, sl_text_row, SL, TEXT_ROW, GObject)

/**
 * SlTextRow:
 *
 * One row: string properties "c0" … "c11" (empty past its texts) and the
 * number it was given.
 */
const char *sl_text_row_get_text (SlTextRow *self,
                                  guint      column);
guint       sl_text_row_get_id   (SlTextRow *self);

#define SL_TYPE_TEXT_LIST (sl_text_list_get_type ())

G_DECLARE_FINAL_TYPE (SlTextList, sl_text_list, SL, TEXT_LIST, GObject)

SlTextList *sl_text_list_new     (void);
/**
 * sl_text_list_set_rows:
 * @rows: (transfer full) (element-type GStrv): each row's texts
 * @ids: (nullable) (transfer full): a number per row (guint), e.g. what
 *   it stands for
 *
 * Replaces every row.
 */
void        sl_text_list_set_rows (SlTextList *self,
                                   GPtrArray  *rows,
                                   GArray     *ids);
/**
 * sl_text_list_get_text:
 *
 * Returns: (nullable): the text of a cell, without making its row
 */
const char *sl_text_list_get_text (SlTextList *self,
                                   guint       row,
                                   guint       column);

G_END_DECLS
