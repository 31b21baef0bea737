/* sl-text-cell.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The link table has thousands of items changing ten times a second and a
 * list view keeps up to two hundred rows bound. A cell bound with an
 * expression per property reformats its text at every change, seen or
 * not. This cell listens to its item's single "changed" signal only while
 * it is mapped (one handler for all the mapped cells of an item: a row's),
 * and formats the text when it is drawn.
 *
 * Binding: scrolling a page rebinds some 300 cells. Bound through an
 * expression (`<binding name="item">`), each rebind evaluates the lookup,
 * sets the property and re-arms the watch: about 1 ms of a 4–5 ms update
 * phase. A cell given its GtkListItem ("list-item", as the factory of
 * sl_text_cell_factory_new() does) follows the list item's "notify::item"
 * itself.
 *
 * Drawing: scrolling the table a page shows some 300 new cells, and laying
 * out their text with Pango (itemizing, breaking, shaping) cost about
 * 10 ms a frame. The cells' text is short and plain, so a cell whose
 * characters the font has draws them from a table of glyphs and advances
 * per font, filled one character at a time by Pango; kerning between
 * characters is left out; text too wide for the cell ends with an
 * ellipsis where it fits. Text with characters the font lacks goes
 * through a PangoLayout, as before. A wrapping cell (sentences: the change
 * log's) lays its text out in lines as wide as the cell, as many as it
 * takes, and is never cut.
 *
 * Making: a list view makes up to 200 rows as soon as its model has the
 * items. Cells made by a GtkBuilderListItemFactory parse their template
 * once each: making the link table's 2 200 cells took 140–220 ms with
 * them, 90–120 ms with sl_text_cell_factory_new(), which makes them
 * directly.
 */

#include "config.h"

#include "sl-text-cell-private.h"

/* A font's glyphs for the characters met so far. */
typedef struct
{
  GHashTable *glyphs;      /* gunichar → Glyph */
  gpointer    ascii[128];  /* the same Glyphs, for the characters below 128 */
  int         baseline;    /* Pango units, from the top of a line */
  int         height;      /* pixels, as a layout's logical extents */
} GlyphTable;

typedef struct
{
  PangoGlyph        glyph;   /* PANGO_GLYPH_EMPTY: not in this font */
  int               width;
  PangoGlyphVisAttr attr;    /* as Pango shaped it (is_color among them) */
} Glyph;

struct _SlTextCell
{
  GtkWidget    parent_instance;

  GObject     *item;
  GtkListItem *list_item;   /* weak: the list item owns this cell */
  char        *property;
  GType        property_type;  /* the item type property_found is for */
  gboolean     property_found;
  char        *text;
  PangoLayout *layout;
  PangoFont   *font;
  gboolean     drew_glyphs;
  gboolean     cut;
  gboolean     watching;    /* in its item's Watch */
  gboolean     dirty;
  float        xalign;
  int          chars;
  char        *tooltip;     /* property of the item its tooltip shows */
  gboolean     wrap;
  SlRowTable  *table;       /* a row's cell: draws the table's columns */
  GPtrArray   *texts;       /* a row's: each column's text, as the table's columns */
  GType        texts_type;  /* the item type texts_found is for */
  guint64      texts_found; /* the columns whose property the item has */
  guint64      texts_cut;   /* the columns cut short in the last drawing */
};

enum {
  PROP_0,
  PROP_ITEM,
  PROP_LIST_ITEM,
  PROP_PROPERTY,
  PROP_XALIGN,
  PROP_CHARS,
  PROP_TOOLTIP,
  PROP_WRAP,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SlTextCell, sl_text_cell, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/* A wrapping cell's height follows its text. */
static void
queue_text (SlTextCell *self)
{
  self->dirty = TRUE;
  if (self->wrap)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  else
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A row's cells show the same item: while they are mapped, one handler
 * of the item's "changed" redraws them all. Rows are mapped and unmapped
 * as they scroll in and out of view (a page of the link table: some 300
 * cells each way), and a handler per cell cost a closure and a handler
 * made and freed each time. Main thread only, as widgets are. */
typedef struct
{
  gulong     handler;
  GPtrArray *cells;   /* SlTextCell, not referenced: they leave at unmap */
} Watch;

static GHashTable *watches;   /* item → Watch */

static void
watch_free (gpointer data)
{
  Watch *watch = data;

  g_ptr_array_unref (watch->cells);
  g_free (watch);
}

static void
item_changed_cb (GObject *item,
                 Watch   *watch)
{
  for (guint i = 0; i < watch->cells->len; i++)
    queue_text (g_ptr_array_index (watch->cells, i));
}

static void
connect_item (SlTextCell *self)
{
  Watch *watch;

  if (self->item == NULL || self->watching || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  if (watches == NULL)
    watches = g_hash_table_new_full (NULL, NULL, NULL, watch_free);
  watch = g_hash_table_lookup (watches, self->item);
  if (watch == NULL)
    {
      if (g_signal_lookup ("changed", G_OBJECT_TYPE (self->item)) == 0)
        return;
      watch = g_new0 (Watch, 1);
      watch->cells = g_ptr_array_new ();
      watch->handler = g_signal_connect (self->item, "changed", G_CALLBACK (item_changed_cb), watch);
      g_hash_table_insert (watches, self->item, watch);
    }
  g_ptr_array_add (watch->cells, self);
  self->watching = TRUE;
}

static void
disconnect_item (SlTextCell *self)
{
  Watch *watch;

  if (!self->watching)
    return;
  self->watching = FALSE;
  watch = g_hash_table_lookup (watches, self->item);
  g_ptr_array_remove_fast (watch->cells, self);
  if (watch->cells->len == 0)
    {
      g_signal_handler_disconnect (self->item, watch->handler);
      g_hash_table_remove (watches, self->item);
    }
}

/* @property of @item as a string (counts are numbers). */
static char *
get_string (GObject    *item,
            const char *property)
{
  GValue value = G_VALUE_INIT;
  char *text;

  g_value_init (&value, G_TYPE_STRING);
  g_object_get_property (item, property, &value);
  text = g_value_dup_string (&value);
  g_value_unset (&value);
  return text;
}

/* A string property of the item, or NULL. */
static char *
item_string (SlTextCell *self,
             const char *property)
{
  if (self->item == NULL || property == NULL)
    return NULL;
  if (property == self->property)
    {
      /* looked up once per item type: a scroll draws the cells again for
       * other items of the same type */
      if (self->property_type != G_OBJECT_TYPE (self->item))
        {
          self->property_type = G_OBJECT_TYPE (self->item);
          self->property_found = g_object_class_find_property (G_OBJECT_GET_CLASS (self->item), property) != NULL;
        }
      if (!self->property_found)
        return NULL;
    }
  else if (g_object_class_find_property (G_OBJECT_GET_CLASS (self->item), property) == NULL)
    return NULL;
  return get_string (self->item, property);
}

/* Asked for when the pointer rests on the cell: nothing to keep up to
 * date meanwhile. */
static gboolean
query_tooltip_cb (SlTextCell *self,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip)
{
  g_autofree char *text = item_string (self, self->tooltip);

  if (text == NULL || text[0] == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* A row's texts, and its accessible label: all of them, in order. */
static void
update_row_texts (SlTextCell *self)
{
  guint n = _sl_row_table_get_n_columns (self->table);
  GString *label = g_string_new (NULL);

  g_assert (n <= 64);
  if (self->item != NULL && self->texts_type != G_OBJECT_TYPE (self->item))
    {
      /* looked up once per item type, as a cell's property is */
      self->texts_type = G_OBJECT_TYPE (self->item);
      self->texts_found = 0;
      for (guint i = 0; i < n; i++)
        if (g_object_class_find_property (G_OBJECT_GET_CLASS (self->item),
                                          _sl_row_table_get_column (self->table, i)->property) != NULL)
          self->texts_found |= G_GUINT64_CONSTANT (1) << i;
    }
  g_ptr_array_set_size (self->texts, (int) n);
  for (guint i = 0; i < n; i++)
    {
      char *text = NULL;

      if (self->item != NULL && (self->texts_found & (G_GUINT64_CONSTANT (1) << i)) != 0)
        text = get_string (self->item, _sl_row_table_get_column (self->table, i)->property);
      g_free (g_ptr_array_index (self->texts, i));
      g_ptr_array_index (self->texts, i) = text;
      if (text != NULL && text[0] != '\0')
        g_string_append_printf (label, "%s%s", label->len > 0 ? ", " : "", text);
    }
  if (g_strcmp0 (label->str, self->text) != 0)
    {
      g_free (self->text);
      self->text = g_string_free (label, FALSE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, self->text, -1);
    }
  else
    g_string_free (label, TRUE);
}

static void
update_text (SlTextCell *self)
{
  g_autofree char *text = NULL;

  self->dirty = FALSE;
  if (self->table != NULL)
    {
      update_row_texts (self);
      return;
    }
  text = item_string (self, self->property);
  if (g_strcmp0 (text, self->text) == 0)
    return;
  g_free (self->text);
  self->text = g_steal_pointer (&text);
  if (self->layout != NULL)
    pango_layout_set_text (self->layout, self->text != NULL ? self->text : "", -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->text != NULL ? self->text : "", -1);
}

static void
glyph_table_free (gpointer data)
{
  GlyphTable *table = data;

  g_hash_table_destroy (table->glyphs);
  g_free (table);
}

/* @font's table; a new one takes its line's height and baseline from a
 * layout in @widget's context, where the Pango way would place text. */
static GlyphTable *
glyph_table_get (GtkWidget *widget,
                 PangoFont *font)
{
  static GQuark quark;
  GlyphTable *table;

  if (quark == 0)
    quark = g_quark_from_static_string ("sl-text-cell-glyphs");
  table = g_object_get_qdata (G_OBJECT (font), quark);
  if (table == NULL)
    {
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, "0");
      PangoRectangle logical;

      pango_layout_get_pixel_extents (layout, NULL, &logical);
      table = g_new0 (GlyphTable, 1);
      table->glyphs = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      table->baseline = pango_layout_get_baseline (layout);
      table->height = logical.height;
      g_object_set_qdata_full (G_OBJECT (font), quark, table, glyph_table_free);
    }
  return table;
}

/* The glyph of @c in @font, shaped once by Pango in @widget's context. */
static const Glyph *
glyph_lookup (GtkWidget  *widget,
              PangoFont  *font,
              GlyphTable *table,
              gunichar    c)
{
  Glyph *g = c < G_N_ELEMENTS (table->ascii) ? table->ascii[c] : g_hash_table_lookup (table->glyphs, GUINT_TO_POINTER (c));

  if (g == NULL)
    {
      char utf8[8];
      int len = g_unichar_to_utf8 (c, utf8);
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
      PangoLayoutLine *line;

      g = g_new0 (Glyph, 1);
      g->glyph = PANGO_GLYPH_EMPTY;
      pango_layout_set_text (layout, utf8, len);
      line = pango_layout_get_line_readonly (layout, 0);
      /* one run of one glyph, from this very font (not a fallback) */
      if (line != NULL && line->runs != NULL && line->runs->next == NULL)
        {
          PangoGlyphItem *run = line->runs->data;

          if (run->item->analysis.font == font && run->glyphs->num_glyphs == 1 &&
              (run->glyphs->glyphs[0].glyph & PANGO_GLYPH_UNKNOWN_FLAG) == 0)
            {
              g->glyph = run->glyphs->glyphs[0].glyph;
              g->width = run->glyphs->glyphs[0].geometry.width;
              g->attr = run->glyphs->glyphs[0].attr;
            }
        }
      g_hash_table_insert (table->glyphs, GUINT_TO_POINTER (c), g);
      if (c < G_N_ELEMENTS (table->ascii))
        table->ascii[c] = g;
    }
  return g;
}

static void
set_glyph (PangoGlyphString *glyphs,
           int               i,
           const Glyph      *g,
           int               cluster)
{
  /* pango_glyph_string_set_size() does not clear what it allocates, and
   * every bit of the glyph matters: a stray is_color makes GTK's GL
   * renderer draw the glyph from a colour atlas, ignoring the text colour
   * (the glyph vanished on white rows and showed on hovered ones). */
  glyphs->glyphs[i] = (PangoGlyphInfo) {
    .glyph = g->glyph,
    .geometry = { .width = g->width },
    .attr = g->attr,
  };
  glyphs->glyphs[i].attr.is_cluster_start = 1;
  glyphs->log_clusters[i] = cluster;
}

/* Draws the text from the glyph table when the font has every character
 * (and the ellipsis); FALSE to take the PangoLayout way. */
static gboolean
snapshot_glyphs (SlTextCell    *self,
                 GtkSnapshot   *snapshot,
                 const char    *text,
                 float          xalign,
                 int            width,
                 int            height,
                 const GdkRGBA *color,
                 gboolean      *cut)
{
  GtkWidget *widget = GTK_WIDGET (self);
  PangoGlyphString *glyphs;
  GskRenderNode *node;
  GlyphTable *table;
  glong n;
  int total = 0, i = 0;
  double x;

  if (self->font == NULL)
    {
      PangoContext *context = gtk_widget_get_pango_context (widget);

      self->font = pango_context_load_font (context, pango_context_get_font_description (context));
      if (self->font == NULL)
        return FALSE;
    }
  table = glyph_table_get (widget, self->font);
  n = g_utf8_strlen (text, -1);
  glyphs = pango_glyph_string_new ();
  pango_glyph_string_set_size (glyphs, (int) n + 1);
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p), i++)
    {
      const Glyph *g = glyph_lookup (widget, self->font, table, g_utf8_get_char (p));

      if (g->glyph == PANGO_GLYPH_EMPTY)
        {
          pango_glyph_string_free (glyphs);
          return FALSE;
        }
      set_glyph (glyphs, i, g, (int) (p - text));
      total += g->width;
    }
  if (total > width * PANGO_SCALE)
    {
      /* Too wide: as many characters as fit with an ellipsis after
       * them, as PANGO_ELLIPSIZE_END does for this plain text. */
      const Glyph *dots = glyph_lookup (widget, self->font, table, 0x2026);

      if (dots->glyph == PANGO_GLYPH_EMPTY)
        {
          pango_glyph_string_free (glyphs);
          return FALSE;
        }
      total += dots->width;
      while (i > 0 && total > width * PANGO_SCALE)
        total -= glyphs->glyphs[--i].geometry.width;
      set_glyph (glyphs, i, dots, glyphs->log_clusters[MAX (i - 1, 0)]);
      glyphs->num_glyphs = ++i;
      *cut = TRUE;
    }
  else
    glyphs->num_glyphs = i;
  x = (width - total / (double) PANGO_SCALE) * xalign;
  node = gsk_text_node_new (self->font, glyphs, color,
                            &GRAPHENE_POINT_INIT ((float) x, (float) ((height - table->height) / 2.0 +
                                                                      table->baseline / (double) PANGO_SCALE)));
  /* NULL when no glyph has ink (blanks) */
  if (node != NULL)
    {
      gtk_snapshot_append_node (snapshot, node);
      gsk_render_node_unref (node);
    }
  pango_glyph_string_free (glyphs);
  return TRUE;
}

/* The cell's layout: ellipsized to @width, or wrapped at it. */
static PangoLayout *
cell_layout (SlTextCell *self,
             int         width)
{
  if (self->layout == NULL)
    {
      self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->text);
      if (self->wrap)
        pango_layout_set_wrap (self->layout, PANGO_WRAP_WORD_CHAR);
      else
        pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_END);
    }
  pango_layout_set_width (self->layout, width * PANGO_SCALE);
  return self->layout;
}

/* A row's cell: each column the table shows, where its title is (the
 * title's box less its padding and border, which a cell has too). */
static void
snapshot_row (SlTextCell  *self,
              GtkSnapshot *snapshot,
              int          height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  const SlRowTableCell *cells;
  GtkBorder margin, border, padding;
  GdkRGBA color;
  guint n;
  int left;

  gtk_style_context_get_color (style, &color);
  gtk_style_context_get_margin (style, &margin);
  gtk_style_context_get_border (style, &border);
  gtk_style_context_get_padding (style, &padding);
  left = margin.left + border.left + padding.left;
  cells = _sl_row_table_get_cells (self->table, &n);
  self->texts_cut = 0;
  self->drew_glyphs = TRUE;
  for (guint i = 0; i < n; i++)
    {
      const char *text = cells[i].index < self->texts->len ? g_ptr_array_index (self->texts, cells[i].index) : NULL;
      gboolean cut = FALSE;

      if (text == NULL || text[0] == '\0')
        continue;
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (cells[i].x - left, 0));
      if (!snapshot_glyphs (self, snapshot, text, cells[i].column->xalign, cells[i].width, height, &color, &cut))
        {
          g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
          PangoRectangle logical;

          self->drew_glyphs = FALSE;
          pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
          pango_layout_set_width (layout, cells[i].width * PANGO_SCALE);
          pango_layout_get_pixel_extents (layout, NULL, &logical);
          cut = pango_layout_is_ellipsized (layout);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (logical.width < cells[i].width
                                                                  ? (cells[i].width - logical.width) * cells[i].column->xalign
                                                                  : 0,
                                                                  (height - logical.height) / 2.0));
          gtk_snapshot_append_layout (snapshot, layout, &color);
        }
      gtk_snapshot_restore (snapshot);
      if (cut)
        self->texts_cut |= G_GUINT64_CONSTANT (1) << cells[i].index;
    }
}

static void
sl_text_cell_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  SlTextCell *self = SL_TEXT_CELL (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  PangoRectangle logical;
  GdkRGBA color;
  double x;

  if (self->dirty)
    update_text (self);
  if (self->table != NULL)
    {
      snapshot_row (self, snapshot, height);
      return;
    }
  if (self->text == NULL || self->text[0] == '\0')
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  self->cut = FALSE;
  self->drew_glyphs = !self->wrap && snapshot_glyphs (self, snapshot, self->text, self->xalign, width, height,
                                                      &color, &self->cut);
  if (self->drew_glyphs)
    return;
  pango_layout_get_pixel_extents (cell_layout (self, width), NULL, &logical);
  self->cut = self->wrap ? logical.height > height : pango_layout_is_ellipsized (self->layout);
  x = logical.width < width ? (width - logical.width) * self->xalign : 0;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, (height - logical.height) / 2.0));
  gtk_snapshot_append_layout (snapshot, self->layout, &color);
  gtk_snapshot_restore (snapshot);
}

/* The width of @chars digits in @widget's font, in pixels. */
static int
digits_width (GtkWidget *widget,
              int        chars)
{
  PangoFontMetrics *metrics = pango_context_get_metrics (gtk_widget_get_pango_context (widget), NULL, NULL);
  int width = PANGO_PIXELS (pango_font_metrics_get_approximate_digit_width (metrics) * chars);

  pango_font_metrics_unref (metrics);
  return width;
}

static void
sl_text_cell_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  SlTextCell *self = SL_TEXT_CELL (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    /* a row's: as wide as its table makes it */
    *minimum = *natural = self->table != NULL ? 0 : digits_width (widget, self->chars);
  else if (self->wrap && for_size > 0 && sl_text_cell_get_text (self) != NULL && self->text[0] != '\0')
    {
      PangoRectangle logical;

      pango_layout_get_pixel_extents (cell_layout (self, for_size), NULL, &logical);
      *minimum = *natural = logical.height;
    }
  else
    {
      PangoFontMetrics *metrics = pango_context_get_metrics (gtk_widget_get_pango_context (widget), NULL, NULL);

      *minimum = *natural = PANGO_PIXELS (pango_font_metrics_get_height (metrics));
      pango_font_metrics_unref (metrics);
    }
}

static GtkSizeRequestMode
sl_text_cell_get_request_mode (GtkWidget *widget)
{
  return SL_TEXT_CELL (widget)->wrap ? GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH : GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
sl_text_cell_map (GtkWidget *widget)
{
  SlTextCell *self = SL_TEXT_CELL (widget);

  GTK_WIDGET_CLASS (sl_text_cell_parent_class)->map (widget);
  connect_item (self);
  self->dirty = TRUE;
}

static void
sl_text_cell_unmap (GtkWidget *widget)
{
  disconnect_item (SL_TEXT_CELL (widget));
  GTK_WIDGET_CLASS (sl_text_cell_parent_class)->unmap (widget);
}

static void
sl_text_cell_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  SlTextCell *self = SL_TEXT_CELL (widget);

  GTK_WIDGET_CLASS (sl_text_cell_parent_class)->css_changed (widget, change);
  g_clear_object (&self->layout);
  g_clear_object (&self->font);
}

static void
list_item_notify_cb (SlTextCell *self)
{
  sl_text_cell_set_item (self, self->list_item != NULL ? gtk_list_item_get_item (self->list_item) : NULL);
}

static void
set_list_item (SlTextCell  *self,
               GtkListItem *list_item)
{
  if (self->list_item == list_item)
    return;
  if (self->list_item != NULL)
    g_signal_handlers_disconnect_by_func (self->list_item, list_item_notify_cb, self);
  g_set_weak_pointer (&self->list_item, list_item);
  if (list_item != NULL)
    g_signal_connect_object (list_item, "notify::item", G_CALLBACK (list_item_notify_cb), self, G_CONNECT_SWAPPED);
  list_item_notify_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIST_ITEM]);
}

static void
sl_text_cell_dispose (GObject *object)
{
  SlTextCell *self = (SlTextCell *) object;

  set_list_item (self, NULL);
  disconnect_item (self);
  g_clear_object (&self->item);
  g_clear_object (&self->layout);
  g_clear_object (&self->font);

  G_OBJECT_CLASS (sl_text_cell_parent_class)->dispose (object);
}

static void
sl_text_cell_finalize (GObject *object)
{
  SlTextCell *self = (SlTextCell *) object;

  g_free (self->property);
  g_free (self->text);
  g_free (self->tooltip);
  g_clear_pointer (&self->texts, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_text_cell_parent_class)->finalize (object);
}

static void
sl_text_cell_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SlTextCell *self = SL_TEXT_CELL (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    case PROP_LIST_ITEM:
      g_value_set_object (value, self->list_item);
      break;
    case PROP_PROPERTY:
      g_value_set_string (value, self->property);
      break;
    case PROP_XALIGN:
      g_value_set_float (value, self->xalign);
      break;
    case PROP_CHARS:
      g_value_set_int (value, self->chars);
      break;
    case PROP_TOOLTIP:
      g_value_set_string (value, self->tooltip);
      break;
    case PROP_WRAP:
      g_value_set_boolean (value, self->wrap);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_text_cell_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  SlTextCell *self = SL_TEXT_CELL (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      sl_text_cell_set_item (self, g_value_get_object (value));
      break;
    case PROP_LIST_ITEM:
      set_list_item (self, g_value_get_object (value));
      break;
    case PROP_PROPERTY:
      sl_text_cell_set_property_name (self, g_value_get_string (value));
      break;
    case PROP_XALIGN:
      if (self->xalign != g_value_get_float (value))
        {
          self->xalign = g_value_get_float (value);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_CHARS:
      if (self->chars != g_value_get_int (value))
        {
          self->chars = g_value_get_int (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_TOOLTIP:
      if (g_strcmp0 (self->tooltip, g_value_get_string (value)) != 0)
        {
          g_free (self->tooltip);
          self->tooltip = g_value_dup_string (value);
          gtk_widget_set_has_tooltip (GTK_WIDGET (self), self->tooltip != NULL);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_WRAP:
      if (self->wrap != g_value_get_boolean (value))
        {
          self->wrap = g_value_get_boolean (value);
          g_clear_object (&self->layout);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_text_cell_class_init (SlTextCellClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sl_text_cell_dispose;
  object_class->finalize = sl_text_cell_finalize;
  object_class->get_property = sl_text_cell_get_property;
  object_class->set_property = sl_text_cell_set_property;

  widget_class->snapshot = sl_text_cell_snapshot;
  widget_class->measure = sl_text_cell_measure;
  widget_class->get_request_mode = sl_text_cell_get_request_mode;
  widget_class->map = sl_text_cell_map;
  widget_class->unmap = sl_text_cell_unmap;
  widget_class->css_changed = sl_text_cell_css_changed;

  properties[PROP_ITEM] = g_param_spec_object ("item", NULL, NULL, G_TYPE_OBJECT, rw);
  /* the list item whose item this cell shows (instead of binding "item") */
  properties[PROP_LIST_ITEM] = g_param_spec_object ("list-item", NULL, NULL, GTK_TYPE_LIST_ITEM, rw);
  properties[PROP_PROPERTY] = g_param_spec_string ("property", NULL, NULL, NULL, rw);
  properties[PROP_XALIGN] = g_param_spec_float ("xalign", NULL, NULL, 0, 1, 0, rw);
  properties[PROP_CHARS] = g_param_spec_int ("chars", NULL, NULL, 0, 200, 10, rw);
  /* a string property of the item, shown as the cell's tooltip */
  properties[PROP_TOOLTIP] = g_param_spec_string ("tooltip-property", NULL, NULL, NULL, rw);
  /* lines as wide as the cell, as many as the text takes */
  properties[PROP_WRAP] = g_param_spec_boolean ("wrap", NULL, NULL, FALSE, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "textcell");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
sl_text_cell_init (SlTextCell *self)
{
  self->chars = 10;
  self->dirty = TRUE;
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}

GObject *
sl_text_cell_get_item (SlTextCell *self)
{
  g_return_val_if_fail (SL_IS_TEXT_CELL (self), NULL);
  return self->item;
}

void
sl_text_cell_set_item (SlTextCell *self,
                       GObject    *item)
{
  g_return_if_fail (SL_IS_TEXT_CELL (self));

  if (self->item == item)
    return;
  disconnect_item (self);
  g_set_object (&self->item, item);
  connect_item (self);
  queue_text (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

const char *
sl_text_cell_get_property_name (SlTextCell *self)
{
  g_return_val_if_fail (SL_IS_TEXT_CELL (self), NULL);
  return self->property;
}

void
sl_text_cell_set_property_name (SlTextCell *self,
                                const char *name)
{
  g_return_if_fail (SL_IS_TEXT_CELL (self));

  if (g_strcmp0 (self->property, name) == 0)
    return;
  g_free (self->property);
  self->property = g_strdup (name);
  self->property_type = G_TYPE_INVALID;
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROPERTY]);
}

/* What the cell shows (formatted now if it changed). */
const char *
sl_text_cell_get_text (SlTextCell *self)
{
  g_return_val_if_fail (SL_IS_TEXT_CELL (self), NULL);

  if (self->dirty)
    update_text (self);
  return self->text;
}

typedef struct
{
  char     *property;
  float     xalign;
  int       chars;
  char     *tooltip;
  gboolean  wrap;
} CellSpec;

static void
cell_spec_free (gpointer  data,
                GClosure *closure)
{
  CellSpec *spec = data;

  g_free (spec->property);
  g_free (spec->tooltip);
  g_free (spec);
}

static void
factory_setup_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  CellSpec                 *spec)
{
  gtk_list_item_set_child (list_item, g_object_new (SL_TYPE_TEXT_CELL,
                                                    "property", spec->property,
                                                    "xalign", spec->xalign,
                                                    "chars", spec->chars,
                                                    "tooltip-property", spec->tooltip,
                                                    "wrap", spec->wrap,
                                                    "list-item", list_item,
                                                    NULL));
}

/* A factory of cells showing @column's property of their list item's
 * item, aligned by its xalign, its chars digits wide, with its tooltip (a
 * property of the item, or NULL) as tooltip, wrapped or not. */
GtkListItemFactory *
sl_text_cell_factory_new (const SlTextColumn *column)
{
  GtkListItemFactory *factory;
  CellSpec *spec;

  g_return_val_if_fail (column != NULL && column->property != NULL, NULL);

  factory = gtk_signal_list_item_factory_new ();
  spec = g_new0 (CellSpec, 1);
  spec->property = g_strdup (column->property);
  spec->xalign = column->xalign;
  spec->chars = column->chars;
  spec->tooltip = g_strdup (column->tooltip);
  spec->wrap = column->wrap;
  g_signal_connect_data (factory, "setup", G_CALLBACK (factory_setup_cb), spec, cell_spec_free, 0);
  return factory;
}

/* In @widget_class's class_init: makes @columns, children of its
 * template, known to sl_text_cell_set_factories(). */
void
sl_text_cell_bind_columns (GtkWidgetClass     *widget_class,
                           const SlTextColumn *columns,
                           guint               n_columns)
{
  for (guint i = 0; i < n_columns; i++)
    gtk_widget_class_bind_template_child_full (widget_class, columns[i].column, FALSE, 0);
}

/* A column is as wide as its widest cell or its title, so the titles of an
 * empty table alone squeezed its columns to the left. Each title of a
 * column of text cells asks for its cells' width: their digits, and the
 * theme's padding and border around a title, which Adwaita gives cells
 * too (so that titles line up with their cells). The titles are the
 * header's children, in the order of the columns. */
static void
size_titles_cb (GtkColumnView *view)
{
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (view));
  GListModel *columns = gtk_column_view_get_columns (view);
  GtkWidget *title;
  guint i = 0;

  if (header == NULL || g_strcmp0 (gtk_widget_get_css_name (header), "header") != 0)
    return;
  for (title = gtk_widget_get_first_child (header); title != NULL; title = gtk_widget_get_next_sibling (title), i++)
    {
      g_autoptr(GObject) column = g_list_model_get_item (columns, i);
      int chars = column != NULL ? GPOINTER_TO_INT (g_object_get_data (column, "sl-text-cell-chars")) : 0;
      GtkStyleContext *style = gtk_widget_get_style_context (title);
      GtkBorder margin, border, padding;

      if (chars <= 0)
        continue;
      gtk_style_context_get_margin (style, &margin);
      gtk_style_context_get_border (style, &border);
      gtk_style_context_get_padding (style, &padding);
      gtk_widget_set_size_request (title,
                                   digits_width (GTK_WIDGET (view), chars) + margin.left + margin.right
                                   + border.left + border.right + padding.left + padding.right,
                                   -1);
    }
}

/* In the widget's init, after its template: gives each of @columns its
 * cells' factory, and its title their width. */
void
sl_text_cell_set_factories (GtkWidget          *widget,
                            GType               template_type,
                            const SlTextColumn *columns,
                            guint               n_columns)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  for (guint i = 0; i < n_columns; i++)
    {
      GObject *column = gtk_widget_get_template_child (widget, template_type, columns[i].column);
      g_autoptr(GtkListItemFactory) factory = NULL;
      GtkColumnView *view;

      g_return_if_fail (GTK_IS_COLUMN_VIEW_COLUMN (column));
      factory = sl_text_cell_factory_new (&columns[i]);
      gtk_column_view_column_set_factory (GTK_COLUMN_VIEW_COLUMN (column), factory);
      view = gtk_column_view_column_get_column_view (GTK_COLUMN_VIEW_COLUMN (column));
      if (view != NULL)
        _sl_text_cell_size_title (view, column, columns[i].chars);
    }
}

/* @column's title in @view asks for the width of @chars digits in a cell. */
void
_sl_text_cell_size_title (GtkColumnView *view,
                          GObject       *column,
                          int            chars)
{
  g_object_set_data (column, "sl-text-cell-chars", GINT_TO_POINTER (chars));
  if (g_object_get_data (G_OBJECT (view), "sl-text-cell-titles") == NULL)
    {
      g_object_set_data (G_OBJECT (view), "sl-text-cell-titles", GINT_TO_POINTER (TRUE));
      g_signal_connect (view, "realize", G_CALLBACK (size_titles_cb), NULL);
    }
}

/* A cell drawing @list_item's item as a row of @table (its columns shown,
 * where their titles are), with the item's @tooltip property as tooltip.
 * Its CSS name is a table cell's: its padding is a cell's. */
GtkWidget *
_sl_text_cell_new_row (SlRowTable  *table,
                       GtkListItem *list_item,
                       const char  *tooltip)
{
  SlTextCell *self = g_object_new (SL_TYPE_TEXT_CELL, "css-name", "cell", "tooltip-property", tooltip, NULL);

  self->table = table;
  self->texts = g_ptr_array_new_with_free_func (g_free);
  set_list_item (self, list_item);
  return GTK_WIDGET (self);
}

static int
row_column_index (SlTextCell *self,
                  const char *property)
{
  if (self->table == NULL)
    return -1;
  for (guint i = 0; i < _sl_row_table_get_n_columns (self->table); i++)
    if (g_strcmp0 (_sl_row_table_get_column (self->table, i)->property, property) == 0)
      return (int) i;
  return -1;
}

/* For the tests: whether the cell draws a row of a table. */
gboolean
_sl_text_cell_is_row (SlTextCell *self)
{
  g_return_val_if_fail (SL_IS_TEXT_CELL (self), FALSE);
  return self->table != NULL;
}

/* For the tests: a row's text in the column of @property. */
const char *
_sl_text_cell_get_column_text (SlTextCell *self,
                               const char *property)
{
  int i;

  g_return_val_if_fail (SL_IS_TEXT_CELL (self), NULL);

  if (self->dirty)
    update_text (self);
  i = row_column_index (self, property);
  return i >= 0 && (guint) i < self->texts->len ? g_ptr_array_index (self->texts, i) : NULL;
}

/* For the tests: where a row draws the column of @property, in its
 * coordinates; FALSE when the table does not show that column. */
gboolean
_sl_text_cell_get_column_box (SlTextCell      *self,
                              const char      *property,
                              graphene_rect_t *box)
{
  GtkStyleContext *style;
  GtkBorder margin, border, padding;
  const SlRowTableCell *cells;
  guint n;
  int i;

  g_return_val_if_fail (SL_IS_TEXT_CELL (self), FALSE);

  i = row_column_index (self, property);
  if (i < 0)
    return FALSE;
  style = gtk_widget_get_style_context (GTK_WIDGET (self));
  gtk_style_context_get_margin (style, &margin);
  gtk_style_context_get_border (style, &border);
  gtk_style_context_get_padding (style, &padding);
  cells = _sl_row_table_get_cells (self->table, &n);
  for (guint k = 0; k < n; k++)
    if ((int) cells[k].index == i)
      {
        graphene_rect_init (box, cells[k].x - margin.left - border.left - padding.left, 0, cells[k].width,
                            gtk_widget_get_height (GTK_WIDGET (self)));
        return TRUE;
      }
  return FALSE;
}

/* For the tests: whether the last drawing cut the column of @property
 * short. */
gboolean
_sl_text_cell_column_was_cut (SlTextCell *self,
                              const char *property)
{
  int i;

  g_return_val_if_fail (SL_IS_TEXT_CELL (self), FALSE);

  i = row_column_index (self, property);
  return i >= 0 && (self->texts_cut & (G_GUINT64_CONSTANT (1) << i)) != 0;
}

/* For the tests: whether the last drawing took the glyph table's way. */
gboolean
_sl_text_cell_drew_glyphs (SlTextCell *self)
{
  g_return_val_if_fail (SL_IS_TEXT_CELL (self), FALSE);
  return self->drew_glyphs;
}

/* For the tests: whether the last drawing cut the text short (an
 * ellipsis at its end). */
gboolean
_sl_text_cell_was_cut (SlTextCell *self)
{
  g_return_val_if_fail (SL_IS_TEXT_CELL (self), FALSE);
  return self->cut;
}
