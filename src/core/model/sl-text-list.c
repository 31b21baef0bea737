/* sl-text-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "sl-text-list.h"

struct _SlTextRow
{
  GObject  parent_instance;

  GStrv    texts;
  guint    n_texts;
  guint    id;
};

G_DEFINE_FINAL_TYPE (SlTextRow, sl_text_row, G_TYPE_OBJECT)

static GParamSpec *row_properties[SL_TEXT_ROW_COLUMNS + 1];

static void
sl_text_row_finalize (GObject *object)
{
  g_strfreev (SL_TEXT_ROW (object)->texts);
  G_OBJECT_CLASS (sl_text_row_parent_class)->finalize (object);
}

static void
sl_text_row_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  if (prop_id >= 1 && prop_id <= SL_TEXT_ROW_COLUMNS)
    g_value_set_string (value, sl_text_row_get_text (SL_TEXT_ROW (object), prop_id - 1));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sl_text_row_class_init (SlTextRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const names[SL_TEXT_ROW_COLUMNS] = {
    "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11",
  };

  object_class->finalize = sl_text_row_finalize;
  object_class->get_property = sl_text_row_get_property;
  for (guint i = 0; i < SL_TEXT_ROW_COLUMNS; i++)
    row_properties[i + 1] = g_param_spec_string (names[i], NULL, NULL, NULL,
                                                 G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, SL_TEXT_ROW_COLUMNS + 1, row_properties);
}

static void
sl_text_row_init (SlTextRow *self)
{
}

const char *
sl_text_row_get_text (SlTextRow *self,
                      guint      column)
{
  g_return_val_if_fail (SL_IS_TEXT_ROW (self), NULL);
  return column < self->n_texts ? self->texts[column] : "";
}

guint
sl_text_row_get_id (SlTextRow *self)
{
  g_return_val_if_fail (SL_IS_TEXT_ROW (self), 0);
  return self->id;
}

struct _SlTextList
{
  GObject    parent_instance;

  GPtrArray *rows;
  GArray    *ids;
};

static void sl_text_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SlTextList, sl_text_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, sl_text_list_model_init))

static GType
sl_text_list_get_item_type (GListModel *model)
{
  return SL_TYPE_TEXT_ROW;
}

static guint
sl_text_list_get_n_items (GListModel *model)
{
  return SL_TEXT_LIST (model)->rows->len;
}

static gpointer
sl_text_list_get_item (GListModel *model,
                       guint       position)
{
  SlTextList *self = SL_TEXT_LIST (model);
  SlTextRow *row;

  if (position >= self->rows->len)
    return NULL;
  row = g_object_new (SL_TYPE_TEXT_ROW, NULL);
  row->texts = g_strdupv (g_ptr_array_index (self->rows, position));
  row->n_texts = g_strv_length (row->texts);
  row->id = self->ids != NULL && position < self->ids->len ? g_array_index (self->ids, guint, position) : position;
  return row;
}

static void
sl_text_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = sl_text_list_get_item_type;
  iface->get_n_items = sl_text_list_get_n_items;
  iface->get_item = sl_text_list_get_item;
}

static void
sl_text_list_finalize (GObject *object)
{
  SlTextList *self = (SlTextList *) object;

  g_ptr_array_unref (self->rows);
  if (self->ids != NULL)
    g_array_unref (self->ids);
  G_OBJECT_CLASS (sl_text_list_parent_class)->finalize (object);
}

static void
sl_text_list_class_init (SlTextListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_text_list_finalize;
}

static void
sl_text_list_init (SlTextList *self)
{
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
}

SlTextList *
sl_text_list_new (void)
{
  return g_object_new (SL_TYPE_TEXT_LIST, NULL);
}

void
sl_text_list_set_rows (SlTextList *self,
                       GPtrArray  *rows,
                       GArray     *ids)
{
  guint removed;

  g_return_if_fail (SL_IS_TEXT_LIST (self));
  g_return_if_fail (rows != NULL);

  removed = self->rows->len;
  g_ptr_array_unref (self->rows);
  self->rows = rows;
  if (self->ids != NULL)
    g_array_unref (self->ids);
  self->ids = ids;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, rows->len);
}

const char *
sl_text_list_get_text (SlTextList *self,
                       guint       row,
                       guint       column)
{
  GStrv texts;

  g_return_val_if_fail (SL_IS_TEXT_LIST (self), NULL);

  if (row >= self->rows->len)
    return NULL;
  texts = g_ptr_array_index (self->rows, row);
  return column < g_strv_length (texts) ? texts[column] : NULL;
}
