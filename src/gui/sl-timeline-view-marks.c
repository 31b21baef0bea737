/* sl-timeline-view-marks.c: named bookmarks, added from the keyboard,
 * listed and gone back to
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-text-cell.h"
#include "sl-timeline-view-private.h"

static const SlTextColumn bookmark_columns[] = {
  { "bookmarks_c0", "c0", 0, 24 },
  { "bookmarks_c1", "c1", 0, 22 },
  { "bookmarks_c2", "c2", 0, 36 },
};

static void
bookmark_clear (gpointer p)
{
  g_free (((SlTlvBookmark *) p)->name);
}

static gint64
bookmark_view_time (SlTimelineView      *self,
                    const SlTlvBookmark *b)
{
  return self->timeline != NULL ? sl_timeline_to_view (self->timeline, b->host, b->local) : b->local;
}

/* A host's name for a label: "?" while it has none. */
char *
_sl_timeline_view_dup_host_name (SlTimelineView *self,
                                 guint           host)
{
  SlTimelineRowInfo hi;

  if (self->timeline == NULL || host >= sl_timeline_get_n_hosts (self->timeline))
    return g_strdup ("?");
  sl_timeline_get_row_info (self->timeline, sl_timeline_get_host_row (self->timeline, host), &hi);
  return g_strdup (hi.name != NULL ? hi.name : "?");
}

/* The list shows the bookmarks in their order, which is their time's on
 * the view's clock */
static void
rebuild_list (SlTimelineView *self)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint i = 0; i < self->bookmarks->len; i++)
    {
      const SlTlvBookmark *b = &g_array_index (self->bookmarks, SlTlvBookmark, i);
      g_autofree char *hn = _sl_timeline_view_dup_host_name (self, b->host);
      g_autofree char *local = sl_format_clock_time (b->local, 9);
      GStrv row = g_new0 (char *, 4);

      row[0] = g_strdup (b->name);
      row[1] = sl_format_clock_time (bookmark_view_time (self, b), 9);
      row[2] = g_strdup_printf ("%s, %s", hn, local);
      g_ptr_array_add (rows, row);
    }
  self->bookmarks_updating = TRUE;
  sl_text_list_set_rows (self->bookmark_list, g_steal_pointer (&rows), NULL);
  if (self->bookmark_sel < self->bookmarks->len)
    gtk_single_selection_set_selected (self->bookmark_selection, self->bookmark_sel);
  self->bookmarks_updating = FALSE;
  _sl_timeline_view_update_actions (self);
  _sl_timeline_view_state_changed (self);
  gtk_widget_queue_draw (self->canvas);
}

static void
sort_bookmarks (SlTimelineView *self,
                guint          *follow)
{
  /* insertion sort: a handful, mostly in order */
  for (guint i = 1; i < self->bookmarks->len; i++)
    for (guint k = i; k > 0; k--)
      {
        SlTlvBookmark *a = &g_array_index (self->bookmarks, SlTlvBookmark, k - 1);
        SlTlvBookmark *b = &g_array_index (self->bookmarks, SlTlvBookmark, k);
        SlTlvBookmark t;

        if (bookmark_view_time (self, a) <= bookmark_view_time (self, b))
          break;
        t = *a, *a = *b, *b = t;
        if (follow != NULL && *follow == k)
          *follow = k - 1;
        else if (follow != NULL && *follow == k - 1)
          *follow = k;
      }
}

guint
sl_timeline_view_add_bookmark (SlTimelineView *self,
                               const char     *name,
                               guint           host,
                               gint64          local)
{
  SlTlvBookmark b;
  guint index;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), G_MAXUINT);

  b.name = name != NULL && name[0] != '\0' ? g_strdup (name)
                                           : g_strdup_printf (_("Bookmark %u"), ++self->bookmark_serial);
  b.host = host;
  b.local = local;
  g_array_append_val (self->bookmarks, b);
  index = self->bookmarks->len - 1;
  sort_bookmarks (self, &index);
  self->bookmark_sel = index;
  rebuild_list (self);
  return index;
}

guint
sl_timeline_view_get_n_bookmarks (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), 0);
  return self->bookmarks->len;
}

gboolean
sl_timeline_view_get_bookmark (SlTimelineView  *self,
                               guint            index,
                               const char     **name,
                               guint           *host,
                               gint64          *local)
{
  const SlTlvBookmark *b;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);

  if (index >= self->bookmarks->len)
    return FALSE;
  b = &g_array_index (self->bookmarks, SlTlvBookmark, index);
  if (name != NULL)
    *name = b->name;
  if (host != NULL)
    *host = b->host;
  if (local != NULL)
    *local = b->local;
  return TRUE;
}

void
sl_timeline_view_rename_bookmark (SlTimelineView *self,
                                  guint           index,
                                  const char     *name)
{
  SlTlvBookmark *b;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (name != NULL);

  if (index >= self->bookmarks->len)
    return;
  b = &g_array_index (self->bookmarks, SlTlvBookmark, index);
  if (g_strcmp0 (b->name, name) == 0)
    return;
  g_free (b->name);
  b->name = g_strdup (name);
  rebuild_list (self);
}

void
sl_timeline_view_remove_bookmark (SlTimelineView *self,
                                  guint           index)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (index >= self->bookmarks->len)
    return;
  g_array_remove_index (self->bookmarks, index);
  if (self->bookmark_sel >= self->bookmarks->len)
    self->bookmark_sel = self->bookmarks->len > 0 ? self->bookmarks->len - 1 : G_MAXUINT;
  rebuild_list (self);
}

void
sl_timeline_view_clear_bookmarks (SlTimelineView *self)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  g_array_set_size (self->bookmarks, 0);
  self->bookmark_sel = G_MAXUINT;
  self->bookmark_serial = 0;
  rebuild_list (self);
}

/* The entry shows the selected bookmark's name (setting it is not a
 * rename: it passes through "" first) */
static void
show_name (SlTimelineView *self,
           guint           index)
{
  g_autofree char *name = g_strdup (g_array_index (self->bookmarks, SlTlvBookmark, index).name);

  self->bookmarks_updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->bookmark_entry), name);
  self->bookmarks_updating = FALSE;
}

/* Its time in the middle of the span (the zoom kept) and marked */
gboolean
sl_timeline_view_goto_bookmark (SlTimelineView *self,
                                guint           index)
{
  gint64 t, start, end;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);

  if (index >= self->bookmarks->len || self->timeline == NULL)
    return FALSE;
  t = bookmark_view_time (self, &g_array_index (self->bookmarks, SlTlvBookmark, index));
  start = _sl_timeline_view_start (self);
  end = _sl_timeline_view_end (self);
  self->bookmark_sel = index;
  self->has_cursor = TRUE;
  self->cursor_time = t;
  sl_timeline_view_set_span (self, t - (end - start) / 2, t - (end - start) / 2 + (end - start));
  self->bookmarks_updating = TRUE;
  gtk_single_selection_set_selected (self->bookmark_selection, index);
  self->bookmarks_updating = FALSE;
  show_name (self, index);
  return TRUE;
}

guint
sl_timeline_view_get_selected_bookmark (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), G_MAXUINT);
  return self->bookmark_sel < self->bookmarks->len ? self->bookmark_sel : G_MAXUINT;
}

/* The next bookmark after the middle of the span (@step 1) or the one
 * before it (-1), round the ends */
guint
_sl_timeline_view_bookmark_step (SlTimelineView *self,
                                 int             step)
{
  gint64 mid = (_sl_timeline_view_start (self) + _sl_timeline_view_end (self)) / 2;
  gint64 slack = (gint64) ceil (self->px_ns);
  guint n = self->bookmarks->len, found = G_MAXUINT;

  if (n == 0)
    return G_MAXUINT;
  sort_bookmarks (self, NULL);
  for (guint k = 0; k < n && found == G_MAXUINT; k++)
    {
      guint i = step > 0 ? k : n - 1 - k;
      gint64 t = bookmark_view_time (self, &g_array_index (self->bookmarks, SlTlvBookmark, i));

      if (step > 0 ? t > mid + slack : t < mid - slack)
        found = i;
    }
  if (found == G_MAXUINT)
    found = step > 0 ? 0 : n - 1;
  sl_timeline_view_goto_bookmark (self, found);
  return found;
}

/* B: a bookmark where one is looking — the event found or the message
 * end shown last, the selection's start, else the middle of the span —
 * on the selected row's host's clock, then its name to type */
guint
_sl_timeline_view_add_bookmark_here (SlTimelineView *self,
                                     const char     *name)
{
  gint64 t, local;
  SlTimeSpan shown, sel;
  guint host = 0, index;

  if (self->timeline == NULL)
    return G_MAXUINT;
  shown = _sl_timeline_view_span (self);
  sel = _sl_timeline_view_selection (self);
  /* what is marked and on screen */
  if (self->has_cursor && sl_time_span_contains (shown, self->cursor_time))
    t = self->cursor_time;
  else if (!sl_time_span_is_empty (sel) && sl_time_span_contains (shown, sel.begin))
    t = sel.begin;
  else
    t = shown.begin + sl_time_span_duration (shown) / 2;
  if (self->selected_row != SL_TIMELINE_NONE)
    {
      SlTimelineRowInfo ri;

      sl_timeline_get_row_info (self->timeline, self->selected_row, &ri);
      host = ri.host;
    }
  local = sl_timeline_from_view (self->timeline, host, t);
  index = sl_timeline_view_add_bookmark (self, name, host, local);
  self->has_cursor = TRUE;
  self->cursor_time = sl_timeline_to_view (self->timeline, host, local);
  gtk_stack_set_visible_child_name (self->pages, "bookmarks");
  show_name (self, index);
  if (name == NULL || name[0] == '\0')
    {
      gtk_widget_grab_focus (GTK_WIDGET (self->bookmark_entry));
      gtk_editable_select_region (GTK_EDITABLE (self->bookmark_entry), 0, -1);
    }
  return index;
}

static void
bookmark_name_cb (SlTimelineView *self)
{
  if (!self->bookmarks_updating && self->bookmark_sel < self->bookmarks->len)
    sl_timeline_view_rename_bookmark (self, self->bookmark_sel,
                                      gtk_editable_get_text (GTK_EDITABLE (self->bookmark_entry)));
}

/* Enter: back to the plot */
static void
bookmark_done_cb (SlTimelineView *self)
{
  gtk_widget_grab_focus (self->canvas);
}

static void
bookmark_selected_cb (SlTimelineView *self)
{
  guint pos = gtk_single_selection_get_selected (self->bookmark_selection);

  if (!self->bookmarks_updating && pos != GTK_INVALID_LIST_POSITION)
    sl_timeline_view_goto_bookmark (self, pos);
}

void
_sl_timeline_view_draw_bookmark_lines (SlTimelineView *self,
                                       cairo_t        *cr,
                                       int             h)
{
  static const double dash[] = { 4, 3 };

  if (self->bookmarks->len == 0)
    return;
  cairo_save (cr);
  cairo_set_source_rgba (cr, ((SL_TIMELINE_RGB_BOOKMARK >> 16) & 0xff) / 255.0,
                         ((SL_TIMELINE_RGB_BOOKMARK >> 8) & 0xff) / 255.0, (SL_TIMELINE_RGB_BOOKMARK & 0xff) / 255.0,
                         0.9);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, dash, 2, 0);
  for (guint i = 0; i < self->bookmarks->len; i++)
    {
      double x = sl_timeline_view_time_to_x (self, bookmark_view_time (self, &g_array_index (self->bookmarks,
                                                                                            SlTlvBookmark, i))) -
                 SL_TLV_LABEL_W;

      if (x < 0 || x > self->plot_w)
        continue;
      cairo_move_to (cr, floor (x) + 0.5, 0);
      cairo_line_to (cr, floor (x) + 0.5, h);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* On the ruler: a flag with the name */
void
_sl_timeline_view_draw_bookmark_flags (SlTimelineView *self,
                                       cairo_t        *cr)
{
  PangoLayout *layout;

  if (self->bookmarks->len == 0)
    return;
  layout = gtk_widget_create_pango_layout (self->canvas, NULL);
  cairo_save (cr);
  cairo_rectangle (cr, SL_TLV_LABEL_W, 0, self->plot_w, SL_TLV_RULER_H);
  cairo_clip (cr);
  for (guint i = 0; i < self->bookmarks->len; i++)
    {
      const SlTlvBookmark *b = &g_array_index (self->bookmarks, SlTlvBookmark, i);
      double x = floor (sl_timeline_view_time_to_x (self, bookmark_view_time (self, b))) + 0.5;
      int lw, lh;

      if (x < SL_TLV_LABEL_W - 200 || x > SL_TLV_LABEL_W + self->plot_w)
        continue;
      pango_layout_set_text (layout, b->name, -1);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      cairo_set_source_rgb (cr, ((SL_TIMELINE_RGB_BOOKMARK >> 16) & 0xff) / 255.0,
                            ((SL_TIMELINE_RGB_BOOKMARK >> 8) & 0xff) / 255.0, (SL_TIMELINE_RGB_BOOKMARK & 0xff) / 255.0);
      cairo_rectangle (cr, x, SL_TLV_RULER_H - lh - 2, lw + 6, lh);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_move_to (cr, x + 3, SL_TLV_RULER_H - lh - 2);
      pango_cairo_show_layout (cr, layout);
    }
  cairo_restore (cr);
  g_object_unref (layout);
}

void
_sl_timeline_view_class_init_marks (GtkWidgetClass *widget_class)
{
  sl_text_cell_bind_columns (widget_class, bookmark_columns, G_N_ELEMENTS (bookmark_columns));
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, bookmark_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, bookmarks_view);
  gtk_widget_class_bind_template_callback (widget_class, bookmark_name_cb);
  gtk_widget_class_bind_template_callback (widget_class, bookmark_done_cb);
}

void
_sl_timeline_view_init_marks (SlTimelineView *self)
{
  self->bookmarks = g_array_new (FALSE, FALSE, sizeof (SlTlvBookmark));
  g_array_set_clear_func (self->bookmarks, bookmark_clear);
  self->bookmark_sel = G_MAXUINT;
  self->bookmark_list = sl_text_list_new ();
  sl_text_cell_set_factories (GTK_WIDGET (self), SL_TYPE_TIMELINE_VIEW, bookmark_columns,
                              G_N_ELEMENTS (bookmark_columns));
  self->bookmark_selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->bookmark_list)));
  gtk_single_selection_set_autoselect (self->bookmark_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->bookmark_selection, TRUE);
  gtk_column_view_set_model (self->bookmarks_view, GTK_SELECTION_MODEL (self->bookmark_selection));
  g_signal_connect_object (self->bookmark_selection, "notify::selected", G_CALLBACK (bookmark_selected_cb), self,
                           G_CONNECT_SWAPPED);
}

void
_sl_timeline_view_dispose_marks (SlTimelineView *self)
{
  if (self->bookmarks_view != NULL)
    gtk_column_view_set_model (self->bookmarks_view, NULL);
  g_clear_object (&self->bookmark_selection);
  g_clear_object (&self->bookmark_list);
  g_clear_pointer (&self->bookmarks, g_array_unref);
}
