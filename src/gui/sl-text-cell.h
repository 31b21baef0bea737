/* sl-text-cell.h: a table cell showing one text property of its item
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_TEXT_CELL (sl_text_cell_get_type ())

G_DECLARE_FINAL_TYPE (SlTextCell, sl_text_cell, SL, TEXT_CELL, GtkWidget)

GObject    *sl_text_cell_get_item     (SlTextCell *self);
void        sl_text_cell_set_item     (SlTextCell *self,
                                       GObject    *item);
const char *sl_text_cell_get_property_name (SlTextCell *self);
void        sl_text_cell_set_property_name (SlTextCell *self,
                                            const char *name);
const char *sl_text_cell_get_text     (SlTextCell *self);

/* A column of a template's column view and what its cells show. */
typedef struct
{
  const char *column;     /* the template child's id */
  const char *property;   /* a string property of the items */
  float       xalign;
  int         chars;      /* width, in digits */
  const char *tooltip;    /* a string property shown as tooltip, or NULL */
  gboolean    wrap;       /* in lines as wide as the column (sentences) */
} SlTextColumn;

GtkListItemFactory *sl_text_cell_factory_new (const SlTextColumn *column);

void        sl_text_cell_bind_columns  (GtkWidgetClass     *widget_class,
                                        const SlTextColumn *columns,
                                        guint               n_columns);
void        sl_text_cell_set_factories (GtkWidget          *widget,
                                        GType               template_type,
                                        const SlTextColumn *columns,
                                        guint               n_columns);

gboolean    _sl_text_cell_drew_glyphs (SlTextCell *self);
gboolean    _sl_text_cell_was_cut     (SlTextCell *self);

G_END_DECLS
