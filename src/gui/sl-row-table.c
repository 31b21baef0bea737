/* sl-row-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK 4.8's GtkColumnView makes a cell widget per column per row (with
 * our text cell inside it, 27 widgets for a row of 13 columns), keeps up
 * to 200 rows bound and maps and unmaps every row in view as a page
 * scrolls: rebinding, allocation, the style pass and mapping all go by
 * the number of widgets, and were about half of a GL frame of the link
 * table scrolled a page at a time.
 *
 * This table shows its rows in a GtkListView whose row is one text cell
 * drawing every column (sl_text_cell's row mode), under the header of a
 * GtkColumnView that has the columns but no rows: titles, widths (from
 * the columns' digits, resizable), sorting by a click on a title, moving
 * a column, hiding one, all as GtkColumnView does them. The table lays
 * the header and the list out side by side at the columns' width,
 * scrolled together by its horizontal adjustment, and tells the rows
 * where each column's text goes whenever the header's layout changes.
 *
 * Its CSS name is the column view's, so that the theme styles its rows as
 * a column view's (a row's cell is the whole row: its padding is the
 * cells').
 */

#include "config.h"

#include "sl-row-table.h"
#include "sl-text-cell-private.h"

typedef struct
{
  GObject            *column;   /* the header's GtkColumnViewColumn */
  const SlTextColumn *spec;
} Column;

struct _SlRowTable
{
  GtkWidget           parent_instance;

  GtkColumnView      *header;
  GtkListView        *list;
  GtkAdjustment      *hadjustment;
  GtkScrollablePolicy hscroll_policy;
  GtkScrollablePolicy vscroll_policy;
  GArray             *columns;  /* Column */
  GArray             *cells;    /* SlRowTableCell, the columns shown, in order */
};

enum {
  PROP_0,
  PROP_HEADER,
  PROP_MODEL,
  N_PROPS,
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (SlRowTable, sl_row_table, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

static GParamSpec *properties[N_PROPS];

static void
redraw_rows (SlRowTable *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    for (GtkWidget *c = gtk_widget_get_first_child (row); c != NULL; c = gtk_widget_get_next_sibling (c))
      if (SL_IS_TEXT_CELL (c))
        gtk_widget_queue_draw (c);
}

static const SlTextColumn *
spec_of (SlRowTable *self,
         GObject    *column,
         guint      *index)
{
  for (guint i = 0; self->columns != NULL && i < self->columns->len; i++)
    if (g_array_index (self->columns, Column, i).column == column)
      {
        *index = i;
        return g_array_index (self->columns, Column, i).spec;
      }
  return NULL;
}

/* Where the header's titles are, the text boxes of the rows' columns:
 * a title has the padding and border of a cell. */
static void
update_cells (SlRowTable *self)
{
  GtkWidget *header = self->header != NULL ? gtk_widget_get_first_child (GTK_WIDGET (self->header)) : NULL;
  GListModel *columns = self->header != NULL ? gtk_column_view_get_columns (self->header) : NULL;
  g_autoptr(GArray) cells = g_array_new (FALSE, FALSE, sizeof (SlRowTableCell));
  guint i = 0;

  if (header == NULL || g_strcmp0 (gtk_widget_get_css_name (header), "header") != 0)
    return;
  for (GtkWidget *t = gtk_widget_get_first_child (header); t != NULL; t = gtk_widget_get_next_sibling (t), i++)
    {
      g_autoptr(GObject) column = g_list_model_get_item (columns, i);
      SlRowTableCell cell = { 0 };
      GtkStyleContext *style = gtk_widget_get_style_context (t);
      GtkBorder border, padding;
      graphene_rect_t b;

      cell.column = column != NULL ? spec_of (self, column, &cell.index) : NULL;
      if (cell.column == NULL || !gtk_widget_get_visible (t) ||
          !gtk_widget_compute_bounds (t, GTK_WIDGET (self->header), &b))
        continue;
      gtk_style_context_get_border (style, &border);
      gtk_style_context_get_padding (style, &padding);
      cell.x = (int) b.origin.x + border.left + padding.left;
      cell.width = (int) b.size.width - border.left - border.right - padding.left - padding.right;
      g_array_append_val (cells, cell);
    }
  if (self->cells->len == cells->len &&
      memcmp (self->cells->data, cells->data, cells->len * sizeof (SlRowTableCell)) == 0)
    return;
  g_array_set_size (self->cells, 0);
  g_array_append_vals (self->cells, cells->data, cells->len);
  redraw_rows (self);
}

static void
hadjustment_changed_cb (SlRowTable *self)
{
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
set_hadjustment (SlRowTable    *self,
                 GtkAdjustment *adjustment)
{
  if (adjustment != NULL && adjustment == self->hadjustment)
    return;
  if (self->hadjustment != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->hadjustment, hadjustment_changed_cb, self);
      g_clear_object (&self->hadjustment);
    }
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  self->hadjustment = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (hadjustment_changed_cb), self);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
list_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               SlRowTable               *self)
{
  const SlTextColumn *first = self->columns->len > 0 ? g_array_index (self->columns, Column, 0).spec : NULL;

  gtk_list_item_set_child (list_item, _sl_text_cell_new_row (self, list_item, first != NULL ? first->tooltip : NULL));
}

static void
sl_row_table_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  SlRowTable *self = SL_ROW_TABLE (widget);
  int header_min = 0, header_nat = 0, list_min = 0, list_nat = 0;

  if (self->header != NULL)
    gtk_widget_measure (GTK_WIDGET (self->header), orientation, -1, &header_min, &header_nat, NULL, NULL);
  gtk_widget_measure (GTK_WIDGET (self->list), orientation, -1, &list_min, &list_nat, NULL, NULL);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MAX (header_min, list_min);
      *natural = MAX (header_nat, list_nat);
    }
  else
    {
      *minimum = header_nat + list_min;
      *natural = header_nat + list_nat;
    }
}

static void
sl_row_table_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  SlRowTable *self = SL_ROW_TABLE (widget);
  int full = width, header_height = 0, x;
  double value;

  if (self->header != NULL)
    {
      gtk_widget_measure (GTK_WIDGET (self->header), GTK_ORIENTATION_HORIZONTAL, -1, &full, NULL, NULL, NULL);
      full = MAX (full, width);
      gtk_widget_measure (GTK_WIDGET (self->header), GTK_ORIENTATION_VERTICAL, full, NULL, &header_height, NULL, NULL);
    }
  value = CLAMP (gtk_adjustment_get_value (self->hadjustment), 0, full - width);
  g_signal_handlers_block_by_func (self->hadjustment, hadjustment_changed_cb, self);
  gtk_adjustment_configure (self->hadjustment, value, 0, full, width * 0.1, width * 0.9, width);
  g_signal_handlers_unblock_by_func (self->hadjustment, hadjustment_changed_cb, self);
  x = - (int) value;
  if (self->header != NULL)
    gtk_widget_size_allocate (GTK_WIDGET (self->header), &(GtkAllocation) { x, 0, full, header_height }, -1);
  gtk_widget_size_allocate (GTK_WIDGET (self->list),
                            &(GtkAllocation) { x, header_height, full, MAX (height - header_height, 0) }, -1);
  update_cells (self);
}

static void
sl_row_table_dispose (GObject *object)
{
  SlRowTable *self = (SlRowTable *) object;

  if (self->header != NULL)
    gtk_widget_unparent (GTK_WIDGET (g_steal_pointer (&self->header)));
  if (self->list != NULL)
    gtk_widget_unparent (GTK_WIDGET (g_steal_pointer (&self->list)));
  if (self->hadjustment != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->hadjustment, hadjustment_changed_cb, self);
      g_clear_object (&self->hadjustment);
    }

  G_OBJECT_CLASS (sl_row_table_parent_class)->dispose (object);
}

static void
sl_row_table_finalize (GObject *object)
{
  SlRowTable *self = (SlRowTable *) object;

  g_clear_pointer (&self->columns, g_array_unref);
  g_clear_pointer (&self->cells, g_array_unref);

  G_OBJECT_CLASS (sl_row_table_parent_class)->finalize (object);
}

static void
sl_row_table_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SlRowTable *self = SL_ROW_TABLE (object);

  switch (prop_id)
    {
    case PROP_HEADER:
      g_value_set_object (value, self->header);
      break;
    case PROP_MODEL:
      g_value_set_object (value, gtk_list_view_get_model (self->list));
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->list)));
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_row_table_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  SlRowTable *self = SL_ROW_TABLE (object);

  switch (prop_id)
    {
    case PROP_HEADER:
      sl_row_table_set_header (self, g_value_get_object (value));
      break;
    case PROP_MODEL:
      sl_row_table_set_model (self, g_value_get_object (value));
      break;
    case PROP_HADJUSTMENT:
      set_hadjustment (self, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      gtk_scrollable_set_vadjustment (GTK_SCROLLABLE (self->list), g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      if (self->hscroll_policy != (GtkScrollablePolicy) g_value_get_enum (value))
        {
          self->hscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_VSCROLL_POLICY:
      if (self->vscroll_policy != (GtkScrollablePolicy) g_value_get_enum (value))
        {
          self->vscroll_policy = g_value_get_enum (value);
          gtk_scrollable_set_vscroll_policy (GTK_SCROLLABLE (self->list), self->vscroll_policy);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_row_table_class_init (SlRowTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sl_row_table_dispose;
  object_class->finalize = sl_row_table_finalize;
  object_class->get_property = sl_row_table_get_property;
  object_class->set_property = sl_row_table_set_property;

  widget_class->measure = sl_row_table_measure;
  widget_class->size_allocate = sl_row_table_size_allocate;

  /* a column view without a model: its header, the columns */
  properties[PROP_HEADER] = g_param_spec_object ("header", NULL, NULL, GTK_TYPE_COLUMN_VIEW, rw);
  properties[PROP_MODEL] = g_param_spec_object ("model", NULL, NULL, GTK_TYPE_SELECTION_MODEL, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  gtk_widget_class_set_css_name (widget_class, "columnview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_TREE_GRID);
}

static void
sl_row_table_init (SlRowTable *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  self->columns = g_array_new (FALSE, FALSE, sizeof (Column));
  self->cells = g_array_new (FALSE, FALSE, sizeof (SlRowTableCell));
  g_signal_connect (factory, "setup", G_CALLBACK (list_setup_cb), self);
  self->list = GTK_LIST_VIEW (gtk_list_view_new (NULL, g_object_ref (factory)));
  gtk_widget_set_parent (GTK_WIDGET (self->list), GTK_WIDGET (self));
  set_hadjustment (self, NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self), "view");
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
}

GtkColumnView *
sl_row_table_get_header (SlRowTable *self)
{
  g_return_val_if_fail (SL_IS_ROW_TABLE (self), NULL);
  return self->header;
}

void
sl_row_table_set_header (SlRowTable    *self,
                         GtkColumnView *header)
{
  g_return_if_fail (SL_IS_ROW_TABLE (self));
  g_return_if_fail (header == NULL || GTK_IS_COLUMN_VIEW (header));

  if (self->header == header)
    return;
  if (self->header != NULL)
    gtk_widget_unparent (GTK_WIDGET (self->header));
  self->header = header;
  if (header != NULL)
    {
      /* after the list: what looks for the rows finds them first */
      gtk_widget_insert_before (GTK_WIDGET (header), GTK_WIDGET (self), NULL);
      /* the list below takes the focus */
      gtk_widget_set_can_focus (GTK_WIDGET (header), FALSE);
    }
  g_array_set_size (self->cells, 0);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HEADER]);
}

GtkSelectionModel *
sl_row_table_get_model (SlRowTable *self)
{
  g_return_val_if_fail (SL_IS_ROW_TABLE (self), NULL);
  return gtk_list_view_get_model (self->list);
}

void
sl_row_table_set_model (SlRowTable        *self,
                        GtkSelectionModel *model)
{
  g_return_if_fail (SL_IS_ROW_TABLE (self));

  if (gtk_list_view_get_model (self->list) == model)
    return;
  gtk_list_view_set_model (self->list, model);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/* @column, of the header, shows @spec's property of the rows' items
 * (@spec is kept: static data); its title asks for the width of its
 * cells' digits. */
void
sl_row_table_add_column (SlRowTable          *self,
                         GtkColumnViewColumn *column,
                         const SlTextColumn  *spec)
{
  Column c = { G_OBJECT (column), spec };

  g_return_if_fail (SL_IS_ROW_TABLE (self));
  g_return_if_fail (self->header != NULL);
  g_return_if_fail (GTK_IS_COLUMN_VIEW_COLUMN (column));
  g_return_if_fail (self->columns->len < 64);

  g_array_append_val (self->columns, c);
  _sl_text_cell_size_title (self->header, c.column, spec->chars);
  g_array_set_size (self->cells, 0);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

GtkListView *
sl_row_table_get_list (SlRowTable *self)
{
  g_return_val_if_fail (SL_IS_ROW_TABLE (self), NULL);
  return self->list;
}

/* The columns shown, in order, with the box of their text (header
 * coordinates, the list's too); @n_cells their count. */
const SlRowTableCell *
_sl_row_table_get_cells (SlRowTable *self,
                         guint      *n_cells)
{
  g_return_val_if_fail (SL_IS_ROW_TABLE (self), NULL);
  *n_cells = self->cells->len;
  return (const SlRowTableCell *) (gpointer) self->cells->data;
}

/* The columns a row can show, in the order they were added. */
const SlTextColumn *
_sl_row_table_get_column (SlRowTable *self,
                          guint       index)
{
  g_return_val_if_fail (SL_IS_ROW_TABLE (self), NULL);
  return index < self->columns->len ? g_array_index (self->columns, Column, index).spec : NULL;
}

guint
_sl_row_table_get_n_columns (SlRowTable *self)
{
  g_return_val_if_fail (SL_IS_ROW_TABLE (self), 0);
  return self->columns->len;
}
