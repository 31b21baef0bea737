/* sl-timeline-view-input.c: actions, key bindings, pointer and tooltips
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-timeline-view-private.h"

#define ZOOM_STEP   1.5
#define PAN_SHARE   0.1
#define WHEEL_PX    40

enum {
  DRAG_NONE,
  DRAG_PAN,
  DRAG_ZOOM_BOX,
  DRAG_SELECT,
  DRAG_LABELS,
};

static double
zoom_anchor (SlTimelineView *self)
{
  if (self->pointer_in && self->pointer_x > SL_TLV_LABEL_W && self->pointer_x < SL_TLV_LABEL_W + self->plot_w)
    return self->pointer_x - SL_TLV_LABEL_W;
  return self->plot_w / 2.0;
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);

  if (g_str_equal (action_name, "timeline.zoom-in"))
    _sl_timeline_view_zoom (self, ZOOM_STEP, zoom_anchor (self));
  else
    _sl_timeline_view_zoom (self, 1 / ZOOM_STEP, zoom_anchor (self));
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  gint64 step = MAX ((gint64) (self->plot_w * PAN_SHARE), 1);

  if (g_str_equal (action_name, "timeline.pan-left"))
    {
      /* looking back in time stops following the end */
      sl_timeline_view_set_follow (self, FALSE);
      _sl_timeline_view_pan_px (self, -step);
    }
  else
    _sl_timeline_view_pan_px (self, step);
}

static void
scroll_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  double page = gtk_adjustment_get_page_increment (self->vadj);
  double v = gtk_adjustment_get_value (self->vadj);

  gtk_adjustment_set_value (self->vadj, g_str_equal (action_name, "timeline.scroll-up") ? v - page : v + page);
}

static void
fit_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  _sl_timeline_view_fit (SL_TIMELINE_VIEW (widget));
}

static void
toggle_sync_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);

  sl_timeline_view_set_synchronized (self, !self->synchronized);
}

static void
select_thread_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);

  self->selected_row = SL_TIMELINE_NONE;
  sl_timeline_view_search (self, g_variant_get_string (param, NULL));
}

static void
select_row_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  guint row = g_variant_get_uint32 (param);

  sl_timeline_view_select_row (self, row);
  _sl_timeline_view_scroll_to_row (self, row);
}

static void
select_next_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  gboolean next = g_str_equal (action_name, "timeline.select-next-row");
  guint v = SL_TIMELINE_NONE;

  if (self->vis->len == 0)
    return;
  if (self->selected_row < self->row_vis->len)
    v = g_array_index (self->row_vis, guint, self->selected_row);
  if (v == SL_TIMELINE_NONE)
    v = next ? 0 : self->vis->len - 1;
  else if (next && v + 1 < self->vis->len)
    v++;
  else if (!next && v > 0)
    v--;
  {
    guint row = g_array_index (self->vis, SlTlvRow, v).row;

    sl_timeline_view_select_row (self, row);
    _sl_timeline_view_scroll_to_row (self, row);
  }
}

static void
toggle_expanded_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);

  if (self->selected_row < self->row_vis->len)
    _sl_timeline_view_toggle_row (self, g_array_index (self->row_vis, guint, self->selected_row));
}

static void
toggle_host_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  guint host = g_variant_get_uint32 (param);

  sl_timeline_view_set_host_expanded (self, host, !sl_timeline_view_get_host_expanded (self, host));
}

static void
expand_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  sl_timeline_view_set_all_expanded (SL_TIMELINE_VIEW (widget), g_str_equal (action_name, "timeline.expand-all"));
}

static void
set_span_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  gint64 start, end;

  g_variant_get (param, "(xx)", &start, &end);
  if (g_str_equal (action_name, "timeline.select-span"))
    _sl_timeline_view_set_selected_span (self, start, end);
  else
    sl_timeline_view_set_span (self, start, end);
}

static void
zoom_selection_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  SlTimeSpan sel = _sl_timeline_view_selection (self);

  if (!sl_time_span_is_empty (sel))
    sl_timeline_view_set_span (self, sel.begin, sel.end);
}

static void
clear_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);

  sl_timeline_view_select_row (self, SL_TIMELINE_NONE);
  sl_timeline_view_select_message (self, NULL);
  _sl_timeline_view_set_selected_span (self, 0, 0);
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
other_end_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  sl_timeline_view_jump_to_other_end (SL_TIMELINE_VIEW (widget));
}

/* (send host, receive host, send time, receive time): a message by its
 * ends, local times */
static void
select_message_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  SlTimelineArrow a;
  guint32 sh, rh;
  gint64 st, rt;

  g_variant_get (param, "(uuxx)", &sh, &rh, &st, &rt);
  if (self->timeline != NULL && sl_timeline_find_message (self->timeline, sh, rh, st, rt, &a))
    sl_timeline_view_select_message (self, &a);
  else
    sl_timeline_view_select_message (self, NULL);
}

static void
find_events_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  sl_timeline_view_find_events (SL_TIMELINE_VIEW (widget), g_variant_get_string (param, NULL));
}

static void
find_step_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  _sl_timeline_view_find_step (SL_TIMELINE_VIEW (widget), g_str_equal (action_name, "timeline.find-next") ? 1 : -1);
}

static void
add_bookmark_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  _sl_timeline_view_add_bookmark_here (SL_TIMELINE_VIEW (widget), param != NULL ? g_variant_get_string (param, NULL)
                                                                               : NULL);
}

static void
bookmark_step_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  _sl_timeline_view_bookmark_step (SL_TIMELINE_VIEW (widget),
                                   g_str_equal (action_name, "timeline.next-bookmark") ? 1 : -1);
}

static void
goto_bookmark_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  sl_timeline_view_goto_bookmark (SL_TIMELINE_VIEW (widget), g_variant_get_uint32 (param));
}

static void
remove_bookmark_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);

  sl_timeline_view_remove_bookmark (self, sl_timeline_view_get_selected_bookmark (self));
}

static void
rename_bookmark_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  guint32 index;
  const char *name;

  g_variant_get (param, "(u&s)", &index, &name);
  sl_timeline_view_rename_bookmark (SL_TIMELINE_VIEW (widget), index, name);
}

static void
follow_request_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  sl_timeline_view_follow_request (SL_TIMELINE_VIEW (widget));
}

static void
clear_request_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  sl_timeline_view_clear_request (SL_TIMELINE_VIEW (widget));
}

static void
toggle_pin_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  guint row = param != NULL ? g_variant_get_uint32 (param) : self->selected_row;

  if (row == SL_TIMELINE_NONE)
    return;
  sl_timeline_view_set_row_pinned (self, row, !sl_timeline_view_get_row_pinned (self, row));
}

/* The selected row's process and its descendants only; again: all */
static void
process_tree_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  SlTimelineRowInfo ri;
  guint host;
  guint32 pid;

  sl_timeline_view_get_process_tree (self, &host, &pid);
  if (pid != 0 || self->timeline == NULL || self->selected_row == SL_TIMELINE_NONE)
    {
      sl_timeline_view_set_process_tree (self, SL_TIMELINE_NONE, 0);
      return;
    }
  sl_timeline_get_row_info (self->timeline, self->selected_row, &ri);
  if (ri.pid != 0)
    sl_timeline_view_set_process_tree (self, ri.host, ri.pid);
  _sl_timeline_view_scroll_to_row (self, self->selected_row);
}

void
_sl_timeline_view_update_actions (SlTimelineView *self)
{
  gboolean has = self->timeline != NULL;
  static const char *const need_data[] = {
    "timeline.zoom-in", "timeline.zoom-out", "timeline.pan-left", "timeline.pan-right", "timeline.fit",
    "timeline.select-thread", "timeline.select-row", "timeline.select-next-row", "timeline.select-previous-row",
    "timeline.zoom-selection", "timeline.set-span", "timeline.select-span",
  };

  for (guint i = 0; i < G_N_ELEMENTS (need_data); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), need_data[i], has);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.message-other-end", has && self->has_msg);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.follow-request",
                                 has && (self->has_msg || self->selected_row != SL_TIMELINE_NONE));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.clear-request", self->chain_steps != NULL);
  {
    gboolean found = self->search != NULL && g_list_model_get_n_items (G_LIST_MODEL (self->search)) > 0;

    gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.find-next", found);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.find-previous", found);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.find-events", has);
  }
  {
    gboolean marks = self->bookmarks != NULL && self->bookmarks->len > 0;

    gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.add-bookmark", has);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.add-named-bookmark", has);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.next-bookmark", marks);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.previous-bookmark", marks);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.remove-bookmark",
                                   marks && self->bookmark_sel < self->bookmarks->len);
  }
}

void
_sl_timeline_view_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-up", NULL, scroll_action);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-down", NULL, scroll_action);
  gtk_widget_class_install_action (widget_class, "timeline.fit", NULL, fit_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-sync", NULL, toggle_sync_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-thread", "s", select_thread_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-row", "u", select_row_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-next-row", NULL, select_next_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-previous-row", NULL, select_next_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-expanded", NULL, toggle_expanded_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-host", "u", toggle_host_action);
  gtk_widget_class_install_action (widget_class, "timeline.expand-all", NULL, expand_all_action);
  gtk_widget_class_install_action (widget_class, "timeline.collapse-all", NULL, expand_all_action);
  gtk_widget_class_install_action (widget_class, "timeline.set-span", "(xx)", set_span_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-span", "(xx)", set_span_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-selection", NULL, zoom_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL, clear_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.find", NULL, find_action);
  gtk_widget_class_install_property_action (widget_class, "timeline.synchronized", "synchronized");
  gtk_widget_class_install_property_action (widget_class, "timeline.follow", "follow");
  gtk_widget_class_install_property_action (widget_class, "timeline.show-cpus", "show-cpus");
  gtk_widget_class_install_property_action (widget_class, "timeline.hide-idle", "hide-idle");
  gtk_widget_class_install_property_action (widget_class, "timeline.hide-kernel", "hide-kernel");
  gtk_widget_class_install_property_action (widget_class, "timeline.only-messages", "only-messages");
  gtk_widget_class_install_property_action (widget_class, "timeline.sort-rows", "sort-rows");
  gtk_widget_class_install_action (widget_class, "timeline.toggle-pin", NULL, toggle_pin_action);
  gtk_widget_class_install_action (widget_class, "timeline.message-other-end", NULL, other_end_action);
  gtk_widget_class_install_action (widget_class, "timeline.find-events", "s", find_events_action);
  gtk_widget_class_install_action (widget_class, "timeline.follow-request", NULL, follow_request_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-request", NULL, clear_request_action);
  gtk_widget_class_install_action (widget_class, "timeline.add-bookmark", NULL, add_bookmark_action);
  gtk_widget_class_install_action (widget_class, "timeline.add-named-bookmark", "s", add_bookmark_action);
  gtk_widget_class_install_action (widget_class, "timeline.next-bookmark", NULL, bookmark_step_action);
  gtk_widget_class_install_action (widget_class, "timeline.previous-bookmark", NULL, bookmark_step_action);
  gtk_widget_class_install_action (widget_class, "timeline.goto-bookmark", "u", goto_bookmark_action);
  gtk_widget_class_install_action (widget_class, "timeline.remove-bookmark", NULL, remove_bookmark_action);
  gtk_widget_class_install_action (widget_class, "timeline.rename-bookmark", "(us)", rename_bookmark_action);
  gtk_widget_class_install_action (widget_class, "timeline.find-next", NULL, find_step_action);
  gtk_widget_class_install_action (widget_class, "timeline.find-previous", NULL, find_step_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-message", "(uuxx)", select_message_action);
  gtk_widget_class_install_action (widget_class, "timeline.pin-row", "u", toggle_pin_action);
  gtk_widget_class_install_action (widget_class, "timeline.process-tree", NULL, process_tree_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "timeline.scroll-up", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "timeline.scroll-down", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "timeline.fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "timeline.fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "timeline.fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, 0, "timeline.toggle-sync", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.select-next-row", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.select-previous-row", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "timeline.toggle-expanded", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "timeline.toggle-expanded", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, 0, "timeline.zoom-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_SHIFT_MASK | GDK_CONTROL_MASK,
                                       "timeline.expand-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_underscore, GDK_SHIFT_MASK | GDK_CONTROL_MASK,
                                       "timeline.collapse-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "timeline.find", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, 0, "timeline.toggle-pin", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, 0, "timeline.message-other-end", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_b, 0, "timeline.add-bookmark", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_q, 0, "timeline.follow-request", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, 0, "timeline.next-bookmark", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, 0, "timeline.previous-bookmark", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, 0, "timeline.find-next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, GDK_SHIFT_MASK, "timeline.find-previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "timeline.find-next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "timeline.find-previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, 0, "timeline.process-tree", NULL);
}

/* Pointer */

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SlTimelineView           *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (mods & GDK_CONTROL_MASK)
    {
      _sl_timeline_view_zoom (self, pow (1.25, -dy), zoom_anchor (self));
      return TRUE;
    }
  if ((mods & GDK_SHIFT_MASK) && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  if (dx != 0)
    {
      if (dx < 0)
        sl_timeline_view_set_follow (self, FALSE);
      _sl_timeline_view_pan_px (self, (gint64) round (dx * WHEEL_PX));
    }
  if (dy != 0)
    gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj) +
                                          dy * _sl_timeline_view_wheel_step (self));
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SlTimelineView           *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->pointer_in = TRUE;
}

static void
leave_cb (GtkEventControllerMotion *controller,
          SlTimelineView           *self)
{
  self->pointer_in = FALSE;
}

static gint64
x_to_time (SlTimelineView *self,
           double          x)
{
  return self->origin + (gint64) floor (((double) self->col0 + x - SL_TLV_LABEL_W) * self->px_ns);
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               SlTimelineView *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_grab_focus (self->canvas);
  self->drag_x0 = x;
  self->drag_y0 = y;
  self->drag_dx = self->drag_dy = 0;
  self->drag_col0 = self->col0;
  self->drag_scroll = gtk_adjustment_get_value (self->vadj);
  if (self->timeline == NULL)
    self->drag_mode = DRAG_NONE;
  else if (x < SL_TLV_LABEL_W)
    self->drag_mode = DRAG_LABELS;
  else if (y < SL_TLV_RULER_H)
    self->drag_mode = DRAG_SELECT;
  else if (button == GDK_BUTTON_SECONDARY || (mods & GDK_SHIFT_MASK))
    self->drag_mode = DRAG_ZOOM_BOX;
  else
    self->drag_mode = DRAG_PAN;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                SlTimelineView *self)
{
  self->drag_dx = dx;
  self->drag_dy = dy;
  switch (self->drag_mode)
    {
    case DRAG_PAN:
      if (self->col0 != self->drag_col0 - (gint64) round (dx))
        {
          if (dx > 0)
            sl_timeline_view_set_follow (self, FALSE);
          self->col0 = self->drag_col0 - (gint64) round (dx);
          self->pending_start = _sl_timeline_view_start (self);
          self->pending_end = _sl_timeline_view_end (self);
          _sl_timeline_view_span_changed (self);
        }
      gtk_adjustment_set_value (self->vadj, self->drag_scroll - dy);
      break;
    case DRAG_SELECT:
      if (fabs (dx) >= 3)
        _sl_timeline_view_set_selected_span (self, x_to_time (self, self->drag_x0),
                                             x_to_time (self, self->drag_x0 + dx));
      break;
    case DRAG_ZOOM_BOX:
      gtk_widget_queue_draw (self->canvas);
      break;
    default:
      break;
    }
}

static void
click_at (SlTimelineView *self,
          double          x,
          double          y)
{
  guint v;
  const SlTlvRow *r;

  if (y < SL_TLV_RULER_H)
    {
      if (x >= SL_TLV_LABEL_W)
        _sl_timeline_view_set_selected_span (self, 0, 0);
      return;
    }
  if (x >= SL_TLV_LABEL_W)
    {
      SlTimelineArrow a;

      if (_sl_timeline_view_arrow_at (self, x - SL_TLV_LABEL_W, y - SL_TLV_RULER_H, &a))
        {
          sl_timeline_view_select_message (self, &a);
          return;
        }
    }
  v = _sl_timeline_view_vis_at (self, y - SL_TLV_RULER_H);
  if (v == SL_TIMELINE_NONE)
    return;
  r = &g_array_index (self->vis, SlTlvRow, v);
  /* the triangle (or anywhere on a host's name) opens and closes */
  if (x < SL_TLV_LABEL_W && r->expandable &&
      (r->kind == SL_TIMELINE_ROW_HOST || x < 8 + r->depth * 14 + 14))
    {
      _sl_timeline_view_toggle_row (self, v);
      return;
    }
  sl_timeline_view_select_row (self, r->row);
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             SlTimelineView *self)
{
  int mode = self->drag_mode;

  self->drag_mode = DRAG_NONE;
  if (fabs (dx) < 3 && fabs (dy) < 3)
    {
      click_at (self, self->drag_x0, self->drag_y0);
      gtk_widget_queue_draw (self->canvas);
      return;
    }
  if (mode == DRAG_ZOOM_BOX && fabs (dx) >= 3)
    sl_timeline_view_set_span (self, x_to_time (self, self->drag_x0), x_to_time (self, self->drag_x0 + dx));
  else if (mode == DRAG_SELECT)
    _sl_timeline_view_set_selected_span (self, x_to_time (self, self->drag_x0), x_to_time (self, self->drag_x0 + dx));
  gtk_widget_queue_draw (self->canvas);
}

/* Tooltips: the reference time and each host's own clock */

static char *
format_full (gint64 t)
{
  gint64 s = t >= 0 ? t / 1000000000 : -((-t + 999999999) / 1000000000);
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (s);
  g_autofree char *day = dt != NULL ? g_date_time_format (dt, "%Y-%m-%d") : g_strdup ("?");
  g_autofree char *clock = sl_format_clock_time (t, 9);

  return g_strdup_printf ("%s %s UTC", day, clock);
}

static gboolean
query_tooltip_cb (GtkWidget      *widget,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip,
                  SlTimelineView *self)
{
  GString *s;
  gint64 t;
  g_autofree char *ref = NULL;

  if (self->timeline == NULL || x < SL_TLV_LABEL_W || y >= SL_TLV_RULER_H + self->rows_h)
    return FALSE;
  if (y >= SL_TLV_RULER_H)
    {
      SlTimelineArrow a;

      if (_sl_timeline_view_arrow_at (self, x - SL_TLV_LABEL_W, y - SL_TLV_RULER_H, &a))
        {
          g_autofree char *text = _sl_timeline_view_arrow_tooltip (self, &a);

          gtk_tooltip_set_text (tooltip, text);
          return TRUE;
        }
    }
  t = x_to_time (self, x);
  ref = format_full (t);
  s = g_string_new (NULL);
  g_string_append_printf (s, self->synchronized ? _("Reference time: %s") : _("Raw time: %s"), ref);
  if (y < SL_TLV_RULER_H)
    {
      guint n = sl_timeline_get_n_hosts (self->timeline);

      for (guint h = 0; h < n && h < 12; h++)
        {
          SlTimelineRowInfo hi;
          g_autofree char *local = NULL;

          sl_timeline_get_row_info (self->timeline, sl_timeline_get_host_row (self->timeline, h), &hi);
          local = format_full (sl_timeline_from_view (self->timeline, h, t));
          g_string_append_printf (s, _("\n%s's own clock: %s"), hi.name, local);
        }
      if (n > 12)
        g_string_append_printf (s, _("\n… and %u more hosts"), n - 12);
    }
  else
    {
      guint v = _sl_timeline_view_vis_at (self, y - SL_TLV_RULER_H);
      const SlTlvRow *r;
      SlTimelineRowInfo ri;
      gint64 local;
      guint64 idx;
      g_autofree char *local_text = NULL;

      if (v == SL_TIMELINE_NONE)
        {
          g_string_free (s, TRUE);
          return FALSE;
        }
      r = &g_array_index (self->vis, SlTlvRow, v);
      sl_timeline_get_row_info (self->timeline, r->row, &ri);
      local = sl_timeline_from_view (self->timeline, r->host, t);
      local_text = format_full (local);
      g_string_append_printf (s, _("\nLocal time: %s"), local_text);
      if (ri.kind == SL_TIMELINE_ROW_HOST)
        g_string_prepend (s, "\n");
      else
        {
          g_string_prepend (s, "\n");
          if (ri.kind == SL_TIMELINE_ROW_CPU)
            {
              g_autofree char *cpu = g_strdup_printf (_("CPU %u"), ri.cpu);
              g_string_prepend (s, cpu);
            }
          else
            {
              g_autofree char *who = g_strdup_printf (_("%s, thread %u of process %u"), ri.name, ri.tid, ri.pid);
              g_string_prepend (s, who);
            }
          idx = sl_timeline_find_interval (self->timeline, r->kind == SL_TIMELINE_ROW_PROCESS &&
                                           ri.thread_row != SL_TIMELINE_NONE ? ri.thread_row : r->row, local);
          if (idx != G_MAXUINT64)
            {
              SlTimelineInterval iv;
              g_autofree char *dur = NULL;

              sl_timeline_get_interval (self->timeline, r->kind == SL_TIMELINE_ROW_PROCESS &&
                                        ri.thread_row != SL_TIMELINE_NONE ? ri.thread_row : r->row, idx, &iv);
              dur = sl_format_ns ((double) (iv.end - iv.start));
              g_string_append_printf (s, _("\n%s for %s"), sl_timeline_view_state_label (iv.state), dur);
              if ((iv.state == SL_TIMELINE_STATE_SYSCALL || iv.state == SL_TIMELINE_STATE_BLOCKED) && iv.detail != 0 &&
                  ri.kind != SL_TIMELINE_ROW_CPU)
                g_string_append_printf (s, ": %s", sl_timeline_get_string (self->timeline, iv.detail));
              if (iv.cpu != SL_TIMELINE_NO_CPU)
                g_string_append_printf (s, _(" on CPU %u"), iv.cpu);
            }
        }
      {
        SlTimelineRowInfo hi;
        g_autofree char *host = NULL;

        sl_timeline_get_row_info (self->timeline, sl_timeline_get_host_row (self->timeline, r->host), &hi);
        host = g_strdup_printf ("%s — ", hi.name);
        g_string_prepend (s, host);
      }
    }
  gtk_tooltip_set_text (tooltip, s->str);
  g_string_free (s, TRUE);
  return TRUE;
}

void
_sl_timeline_view_init_input (SlTimelineView *self)
{
  GtkEventController *scroll, *motion;
  GtkGesture *drag;

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (self->canvas, scroll);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (self->canvas, motion);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (self->canvas, GTK_EVENT_CONTROLLER (drag));

  g_signal_connect (self->canvas, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
}
