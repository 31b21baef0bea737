/* sl-status-line.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline's status line ("4 hosts · 12 rows · 35 arrows · 2.037 36 s
 * shown") changes at every zoom step. Ellipsized, a narrow window showed
 * "102 … 3736 s shown": a number with digits cut out reads as another
 * number. This line shows its parts whole, joined by " · ", and drops
 * whole parts from its start (the least important first) until the rest
 * fits; the tooltip says all. Like a GtkInscription, its size does not
 * follow its text, so a new text redraws it without laying out the window.
 */

#include "config.h"

#include <string.h>

#include "sl-status-line.h"

#define SEPARATOR " · "

struct _SlStatusLine
{
  GtkWidget    parent_instance;

  GStrv        parts;
  char        *text;         /* every part */
  char        *drawn;        /* the parts that fit, as last drawn */
  PangoLayout *layout;       /* of drawn, for layout_width */
  int          layout_width;
  int          min_chars;
  int          nat_chars;
};

enum {
  PROP_0,
  PROP_MIN_CHARS,
  PROP_NAT_CHARS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SlStatusLine, sl_status_line, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

static PangoLayout *
new_layout (SlStatusLine *self,
            const char   *text)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  PangoAttrList *attrs = pango_attr_list_new ();

  /* digits of equal widths: the text keeps its place while numbers change */
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

/* The layout of the last parts that fit in @width, from the first part
 * on; of nothing when even the last part alone is too wide. */
static void
ensure_layout (SlStatusLine *self,
               int           width)
{
  guint n = self->parts != NULL ? g_strv_length (self->parts) : 0;

  if (self->layout != NULL && self->layout_width == width)
    return;
  g_clear_object (&self->layout);
  g_clear_pointer (&self->drawn, g_free);
  for (guint first = 0; first < n; first++)
    {
      g_autofree char *text = g_strjoinv (SEPARATOR, self->parts + first);
      PangoLayout *layout = new_layout (self, text);
      PangoRectangle logical;

      pango_layout_get_pixel_extents (layout, NULL, &logical);
      if (logical.width <= width)
        {
          self->layout = layout;
          self->drawn = g_steal_pointer (&text);
          break;
        }
      g_object_unref (layout);
    }
  if (self->layout == NULL)
    {
      self->layout = new_layout (self, "");
      self->drawn = g_strdup ("");
    }
  self->layout_width = width;
}

static void
sl_status_line_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  SlStatusLine *self = SL_STATUS_LINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  PangoRectangle logical;
  GdkRGBA color;

  ensure_layout (self, width);
  if (self->drawn[0] == '\0')
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  pango_layout_get_pixel_extents (self->layout, NULL, &logical);
  gtk_snapshot_save (snapshot);
  /* at the end of the line, under the plot's right edge */
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (width - logical.width - logical.x,
                                                          (height - logical.height) / 2.0));
  gtk_snapshot_append_layout (snapshot, self->layout, &color);
  gtk_snapshot_restore (snapshot);
}

static void
sl_status_line_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  SlStatusLine *self = SL_STATUS_LINE (widget);
  PangoFontMetrics *metrics = pango_context_get_metrics (gtk_widget_get_pango_context (widget), NULL, NULL);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int char_width = pango_font_metrics_get_approximate_char_width (metrics);

      *minimum = PANGO_PIXELS (char_width * self->min_chars);
      *natural = PANGO_PIXELS (char_width * MAX (self->min_chars, self->nat_chars));
    }
  else
    {
      *minimum = *natural = PANGO_PIXELS (pango_font_metrics_get_height (metrics));
    }
  pango_font_metrics_unref (metrics);
}

static void
sl_status_line_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  SlStatusLine *self = SL_STATUS_LINE (widget);

  GTK_WIDGET_CLASS (sl_status_line_parent_class)->css_changed (widget, change);
  g_clear_object (&self->layout);
}

static gboolean
query_tooltip_cb (SlStatusLine *self,
                  int           x,
                  int           y,
                  gboolean      keyboard,
                  GtkTooltip   *tooltip)
{
  if (self->text == NULL || self->drawn == NULL || strcmp (self->text, self->drawn) == 0)
    return FALSE;
  gtk_tooltip_set_text (tooltip, self->text);
  return TRUE;
}

static void
sl_status_line_finalize (GObject *object)
{
  SlStatusLine *self = SL_STATUS_LINE (object);

  g_strfreev (self->parts);
  g_free (self->text);
  g_free (self->drawn);
  g_clear_object (&self->layout);
  G_OBJECT_CLASS (sl_status_line_parent_class)->finalize (object);
}

static void
sl_status_line_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SlStatusLine *self = SL_STATUS_LINE (object);

  switch (prop_id)
    {
    case PROP_MIN_CHARS:
      g_value_set_int (value, self->min_chars);
      break;
    case PROP_NAT_CHARS:
      g_value_set_int (value, self->nat_chars);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_status_line_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  SlStatusLine *self = SL_STATUS_LINE (object);

  switch (prop_id)
    {
    case PROP_MIN_CHARS:
    case PROP_NAT_CHARS:
      {
        int *chars = prop_id == PROP_MIN_CHARS ? &self->min_chars : &self->nat_chars;

        if (*chars != g_value_get_int (value))
          {
            *chars = g_value_get_int (value);
            gtk_widget_queue_resize (GTK_WIDGET (self));
            g_object_notify_by_pspec (object, pspec);
          }
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_status_line_class_init (SlStatusLineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = sl_status_line_finalize;
  object_class->get_property = sl_status_line_get_property;
  object_class->set_property = sl_status_line_set_property;

  widget_class->snapshot = sl_status_line_snapshot;
  widget_class->measure = sl_status_line_measure;
  widget_class->css_changed = sl_status_line_css_changed;

  /* minimum and natural widths, in characters */
  properties[PROP_MIN_CHARS] = g_param_spec_int ("min-chars", NULL, NULL, 0, 1000, 0,
                                                 G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAT_CHARS] = g_param_spec_int ("nat-chars", NULL, NULL, 0, 1000, 40,
                                                 G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "statusline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
sl_status_line_init (SlStatusLine *self)
{
  self->nat_chars = 40;
  self->layout_width = -1;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}

GtkWidget *
sl_status_line_new (void)
{
  return g_object_new (SL_TYPE_STATUS_LINE, NULL);
}

/**
 * sl_status_line_set_parts:
 * @self: a status line
 * @parts: (nullable): the facts shown, the least important first
 *
 * Shows @parts joined by " · ", as many of the last ones as fit whole.
 */
void
sl_status_line_set_parts (SlStatusLine       *self,
                          const char * const *parts)
{
  g_return_if_fail (SL_IS_STATUS_LINE (self));

  if (parts == NULL && self->parts == NULL)
    return;
  if (parts != NULL && self->parts != NULL && g_strv_equal (parts, (const char * const *) self->parts))
    return;
  g_strfreev (self->parts);
  self->parts = parts != NULL && parts[0] != NULL ? g_strdupv ((char **) parts) : NULL;
  g_free (self->text);
  self->text = self->parts != NULL ? g_strjoinv (SEPARATOR, self->parts) : NULL;
  g_clear_object (&self->layout);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->text != NULL ? self->text : "", -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Every part, joined ("" when there is none). */
const char *
sl_status_line_get_text (SlStatusLine *self)
{
  g_return_val_if_fail (SL_IS_STATUS_LINE (self), NULL);
  return self->text != NULL ? self->text : "";
}

/* For the tests: the parts the last drawing showed, or NULL before it. */
const char *
_sl_status_line_get_drawn_text (SlStatusLine *self)
{
  g_return_val_if_fail (SL_IS_STATUS_LINE (self), NULL);
  return self->layout != NULL ? self->drawn : NULL;
}
