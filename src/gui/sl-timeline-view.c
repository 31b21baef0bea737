/* sl-timeline-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-mask-raster.h"
#include "sl-text-cell.h"
#include "sl-timeline-view-private.h"

G_DEFINE_FINAL_TYPE (SlTimelineView, sl_timeline_view, GTK_TYPE_WIDGET)

GParamSpec *_sl_timeline_view_properties[N_PROPS];

static const SlTextColumn event_columns[] = {
  { "events_time_column", "time", 0, 22 },
  { "events_local_time_column", "local-time", 0, 22 },
  { "events_host_column", "host", 0, 12 },
  { "events_cpu_column", "cpu", 1, 4 },
  { "events_event_column", "event", 0, 22 },
  { "events_fields_column", "fields", 0, 40 },
};

static const guint32 state_rgb[SL_TIMELINE_N_STATES] = {
  [SL_TIMELINE_STATE_NONE] = 0,
  [SL_TIMELINE_STATE_UNKNOWN] = 0xc0bfbc,
  [SL_TIMELINE_STATE_USER] = 0x2ec27e,
  [SL_TIMELINE_STATE_SYSCALL] = 0x1c71d8,
  [SL_TIMELINE_STATE_IRQ] = 0xc01c28,
  [SL_TIMELINE_STATE_SOFTIRQ] = 0xff7800,
  [SL_TIMELINE_STATE_RUNNABLE] = 0xf6d32d,
  [SL_TIMELINE_STATE_BLOCKED] = 0xdeddda,
  [SL_TIMELINE_STATE_EXITED] = 0x77767b,
  [SL_TIMELINE_STATE_IDLE] = 0xf2f2f0,
};

/* Connections: host pairs and their connections, for the filters */

static void
filter_changed_cb (SlTimelineView *self,
                   GParamSpec     *pspec,
                   GtkDropDown    *dropdown)
{
  guint sel = gtk_drop_down_get_selected (dropdown);

  if (dropdown == self->pair_dropdown)
    {
      guint a = SL_TIMELINE_NONE, b = SL_TIMELINE_NONE;

      if (sel != GTK_INVALID_LIST_POSITION && sel > 0 && 2 * (sel - 1) + 1 < self->pairs->len)
        {
          a = g_array_index (self->pairs, guint, 2 * (sel - 1));
          b = g_array_index (self->pairs, guint, 2 * (sel - 1) + 1);
        }
      if (a == self->filter_a && b == self->filter_b)
        return;
      self->filter_a = a;
      self->filter_b = b;
      self->filter_conn = SL_TIMELINE_NONE;
      _sl_timeline_view_rebuild_connections (self);
    }
  else
    {
      guint c = SL_TIMELINE_NONE;

      if (sel != GTK_INVALID_LIST_POSITION && sel > 0 && sel - 1 < self->pair_conns->len)
        c = g_array_index (self->pair_conns, guint, sel - 1);
      if (c == self->filter_conn)
        return;
      self->filter_conn = c;
    }
  self->arrow_version++;
  _sl_timeline_view_queue_update (self);
}

/* Search */

static void
search_changed_cb (SlTimelineView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_free (self->search_text);
  self->search_text = g_strdup (text);
  /* a query of events runs when Enter is pressed */
  if (text[0] != '\0' && !sl_event_query_looks_like (text))
    {
      /* from the top again for a new text */
      self->selected_row = SL_TIMELINE_NONE;
      sl_timeline_view_search (self, text);
    }
}

static void
search_activate_cb (SlTimelineView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (text[0] == '\0')
    return;
  if (sl_event_query_looks_like (text))
    {
      /* Enter again on the same query: the next event found */
      if (g_strcmp0 (sl_search_list_get_text (self->search), text) == 0 &&
          !sl_search_list_get_searching (self->search))
        _sl_timeline_view_find_step (self, 1);
      else
        sl_timeline_view_find_events (self, text);
    }
  else
    sl_timeline_view_search (self, text);
}

/* Clocks from the session */

static void session_timeline_grew (SlTimelineView *self);

/* Each link's bound (and a tree link's relation) for the messages' whiskers */
static void
session_links (SlTimelineView *self)
{
  GListModel *links = sl_session_get_links (self->session);
  guint n = g_list_model_get_n_items (links);

  self->links_stale = FALSE;
  for (guint i = 0; i < n; i++)
    {
      SlLinkItem *item = sl_session_get_link_item (self->session, i);
      const SlReportLink *rl;
      const SlTlvClock *ca, *cb;
      double u;

      if (item == NULL)
        continue;
      rl = sl_link_item_get_info (item);
      ca = _sl_timeline_view_clock (self, rl->a);
      cb = _sl_timeline_view_clock (self, rl->b);
      /* as sl_timeline_sync_engine() does: a tree link's bound at each
       * message's instant */
      if (!ca->known || !cb->known || ca->reference != cb->reference)
        u = NAN;
      else if (rl->info.in_tree)
        u = rl->info.bound_ns;
      else
        u = ca->bound + cb->bound;
      _sl_timeline_view_set_link_relation (self, rl->info.a, rl->info.b,
                                           rl->info.in_tree && !isnan (u) ? sl_link_item_get_relation (item) : NULL);
      sl_timeline_view_set_link_bound (self, rl->a, rl->b, u);
    }
}

static void
session_updated_cb (SlTimelineView *self,
                    guint           changes)
{
  GListModel *hosts;
  guint n;
  gint64 now;

  if (self->session == NULL)
    return;
  /* another input: its hosts are not the old ones */
  if (changes & SL_SESSION_CHANGE_RESET)
    {
      g_array_set_size (self->clocks, 0);
      g_hash_table_remove_all (self->link_bounds);
      g_hash_table_remove_all (self->link_rels);
    }
  hosts = sl_session_get_hosts (self->session);
  n = g_list_model_get_n_items (hosts);
  now = g_get_monotonic_time ();
  _sl_timeline_view_step_clocks (self, now);
  for (guint i = 0; i < n; i++)
    {
      SlHostItem *item = sl_session_get_host_item (self->session, i);
      const SlSnapHost *info = item != NULL ? sl_host_item_get_info (item) : NULL;

      if (info != NULL)
        {
          /* the exact, piecewise map; the clock animates its
           * representative piece (info->to_reference) */
          if (self->timeline != NULL && sl_host_item_get_host (item) < sl_timeline_get_n_hosts (self->timeline))
            sl_timeline_set_host_relation (self->timeline, sl_host_item_get_host (item),
                                           sl_host_item_get_relation (item), &info->to_reference);
          _sl_timeline_view_set_host_clock (self, sl_host_item_get_host (item), &info->to_reference, info->reference,
                                            info->bound_ns, now, TRUE);
        }
    }
  _sl_timeline_view_refit_if_fitted (self);
  /* without a timeline (a folder being read) nothing draws the links'
   * bounds: 2 000 links cost a sixth of an update for nothing */
  if (self->timeline != NULL)
    session_links (self);
  else
    self->links_stale = TRUE;
  if (changes & SL_SESSION_CHANGE_TIMELINE)
    session_timeline_grew (self);
}

static void
lock_events_cb (gpointer data)
{
  sl_session_lock_events (data);
}

static void
unlock_events_cb (gpointer data)
{
  sl_session_unlock_events (data);
}

static void
session_stores (SlTimelineView *self)
{
  guint n = sl_timeline_get_n_hosts (self->timeline);
  const SlEventStore **stores = g_new0 (const SlEventStore *, MAX (n, 1));

  for (guint h = 0; h < n; h++)
    stores[h] = sl_session_get_event_store (self->session, h);
  g_free ((gpointer) self->stores);
  self->stores = stores;
  self->n_stores = n;
  sl_event_list_set_lock_func (self->events, lock_events_cb, unlock_events_cb, self->session);
  sl_event_list_set_source (self->events, self->timeline, self->stores, self->n_stores);
  sl_search_list_set_lock_func (self->search, lock_events_cb, unlock_events_cb, self->session);
  _sl_timeline_view_find_source (self);
}

/* A live session's model grows under the view. */
static void
session_timeline_grew (SlTimelineView *self)
{
  if (self->timeline == NULL || !self->from_session)
    return;
  if (sl_timeline_get_n_hosts (self->timeline) > self->n_stores)
    {
      session_stores (self);
      _sl_timeline_view_update_events (self);
    }
  sl_timeline_view_data_changed (self);
}

static void
session_link_cb (SlTimelineView *self)
{
  SlLinkItem *link = self->session != NULL ? sl_session_get_selected_link (self->session) : NULL;
  guint a = link != NULL ? sl_link_item_get_a (link) : SL_TIMELINE_NONE;
  guint b = link != NULL ? sl_link_item_get_b (link) : SL_TIMELINE_NONE;

  if (a == self->hl_host_a && b == self->hl_host_b)
    return;
  self->hl_host_a = a;
  self->hl_host_b = b;
  _sl_timeline_view_update_status (self);
  _sl_timeline_view_queue_update (self);
}

static void
session_sync_cb (SlTimelineView *self)
{
  sl_timeline_view_set_synchronized (self, sl_session_get_synchronized (self->session));
}

static void
session_visible_cb (SlTimelineView *self)
{
  SlTimeSpan span;

  if (self->pushing_span || self->timeline == NULL)
    return;
  span = *sl_session_get_visible_span (self->session);
  if (sl_time_span_is_empty (span) || sl_time_span_equal (span, _sl_timeline_view_span (self)))
    return;
  self->pushing_span = TRUE;
  _sl_timeline_view_set_span_internal (self, span.begin, span.end);
  self->pushing_span = FALSE;
}

static void
session_selection_cb (SlTimelineView *self)
{
  _sl_timeline_view_queue_events (self);
  _sl_timeline_view_update_status (self);
  _sl_timeline_view_queue_stats (self);
  gtk_widget_queue_draw (self->canvas);
}

static void set_timeline (SlTimelineView *self,
                          SlTimeline     *timeline,
                          const SlEventStore * const *stores,
                          guint           n_stores,
                          gboolean        from_session);

static void
session_timeline_cb (SlTimelineView *self)
{
  SlTimeline *tl = sl_session_get_timeline (self->session);

  if (tl == NULL)
    {
      if (self->from_session)
        set_timeline (self, NULL, NULL, 0, TRUE);
      return;
    }
  {
    guint n = sl_timeline_get_n_hosts (tl);
    g_autofree const SlEventStore **stores = g_new0 (const SlEventStore *, MAX (n, 1));

    for (guint h = 0; h < n; h++)
      stores[h] = sl_session_get_event_store (self->session, h);
    set_timeline (self, tl, stores, n, TRUE);
  }
}

static void
set_timeline (SlTimelineView             *self,
              SlTimeline                 *timeline,
              const SlEventStore * const *stores,
              guint                       n_stores,
              gboolean                    from_session)
{
  guint n_hosts;

  g_clear_handle_id (&self->events_id, g_source_remove);
  _sl_timeline_view_clear_caches (self);
  sl_event_list_set_source (self->events, NULL, NULL, 0);
  /* (waits for a search reading the old stores to stop) */
  sl_search_list_set_source (self->search, NULL, NULL, 0);
  if (from_session && self->session != NULL)
    {
      sl_event_list_set_lock_func (self->events, lock_events_cb, unlock_events_cb, self->session);
      sl_search_list_set_lock_func (self->search, lock_events_cb, unlock_events_cb, self->session);
    }
  else
    {
      sl_event_list_set_lock_func (self->events, NULL, NULL, NULL);
      sl_search_list_set_lock_func (self->search, NULL, NULL, NULL);
    }
  g_free ((gpointer) self->stores);
  self->stores = NULL;
  self->n_stores = 0;
  self->timeline = timeline;
  self->from_session = from_session;
  self->selected_row = SL_TIMELINE_NONE;
  self->data_version++;
  g_array_set_size (self->pins, 0);
  if (timeline != self->timeline)
    sl_timeline_view_clear_bookmarks (self);
  self->has_msg = FALSE;
  sl_timeline_view_clear_request (self);
  self->tree_host = SL_TIMELINE_NONE;
  self->tree_pid = 0;
  g_hash_table_remove_all (self->closed_procs);
  g_byte_array_set_size (self->host_open, 0);
  self->follow_target = 0;
  /* live data is followed from the start, and again after each attach */
  if (from_session && timeline != NULL && self->session != NULL && sl_session_get_is_live (self->session))
    {
      self->has_span = FALSE;
      if (!self->follow)
        {
          self->follow = TRUE;
          g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_FOLLOW]);
        }
    }

  n_hosts = timeline != NULL ? sl_timeline_get_n_hosts (timeline) : 0;
  /* clocks already known from the session stay; others are the identity */
  if (self->clocks->len < n_hosts)
    {
      guint old = self->clocks->len;

      g_array_set_size (self->clocks, n_hosts);
      for (guint h = old; h < n_hosts; h++)
        {
          SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, h);

          memset (c, 0, sizeof *c);
          sl_transform_init_identity (&c->target);
          sl_transform_init_identity (&c->shown);
          sl_transform_init_identity (&c->from);
          c->bound = NAN;
        }
    }
  if (timeline != NULL)
    {
      self->stores = g_memdup2 (stores, sizeof (gpointer) * MAX (n_stores, 1));
      self->n_stores = stores != NULL ? n_stores : 0;
      sl_event_list_set_source (self->events, timeline, self->stores, self->n_stores);
      for (guint h = 0; h < n_hosts; h++)
        {
          SlTlvClock *c = &g_array_index (self->clocks, SlTlvClock, h);

          c->anim_start = 0;
          if (self->synchronized && c->known)
            c->shown = c->target;
          else
            sl_transform_init_identity (&c->shown);
          _sl_timeline_view_push_clock (self, h);
        }
      if (self->links_stale && from_session && self->session != NULL)
        session_links (self);
      _sl_timeline_view_push_link_bounds (self);
      /* many hosts start closed: their messages still show */
      for (guint h = 0; h < n_hosts; h++)
        {
          guint8 open = n_hosts <= 16;
          g_byte_array_append (self->host_open, &open, 1);
        }
    }
  _sl_timeline_view_find_source (self);
  _sl_timeline_view_rebuild_layout (self);
  _sl_timeline_view_rebuild_filters (self);
  _sl_timeline_view_rebuild_connections (self);
  sl_timeline_view_data_changed (self);
  if (timeline != NULL)
    {
      gint64 lo, hi;

      if (sl_timeline_get_view_range (timeline, &lo, &hi))
        self->data_end = hi;
      _sl_timeline_view_fit_or_follow (self);
    }
  _sl_timeline_view_update_events (self);
  _sl_timeline_view_message_changed (self);
  _sl_timeline_view_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_SELECTED_ROW]);
}

/* Class */

static void
canvas_tick_removed (gpointer data)
{
}

static gboolean
canvas_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       data)
{
  SlTimelineView *self = data;
  gboolean more = _sl_timeline_view_tick (self, gdk_frame_clock_get_frame_time (clock));

  if (_sl_timeline_view_prepare (self))
    gtk_widget_queue_draw (widget);
  /* work left for the next frames (the selection's messages) */
  more = more || _sl_timeline_view_pending (self);
  if (more)
    {
      gtk_widget_queue_draw (widget);
      return G_SOURCE_CONTINUE;
    }
  self->tick_id = 0;
  return G_SOURCE_REMOVE;
}

void
_sl_timeline_view_queue_update (SlTimelineView *self)
{
  if (self->canvas == NULL)
    return;
  if (self->tick_id == 0 && gtk_widget_get_realized (self->canvas))
    self->tick_id = gtk_widget_add_tick_callback (self->canvas, canvas_tick_cb, self, canvas_tick_removed);
  gtk_widget_queue_draw (self->canvas);
}

static void
vadj_changed_cb (SlTimelineView *self)
{
  _sl_timeline_view_queue_update (self);
}

static void
sl_timeline_view_dispose (GObject *object)
{
  SlTimelineView *self = (SlTimelineView *) object;
  GtkWidget *child;

  sl_timeline_view_set_session (self, NULL);
  g_clear_handle_id (&self->events_id, g_source_remove);
  if (self->tick_id != 0 && self->canvas != NULL)
    gtk_widget_remove_tick_callback (self->canvas, self->tick_id);
  self->tick_id = 0;
  if (self->events_view != NULL)
    gtk_column_view_set_model (self->events_view, NULL);
  _sl_timeline_view_dispose_find (self);
  _sl_timeline_view_dispose_stats (self);
  _sl_timeline_view_dispose_marks (self);
  _sl_timeline_view_dispose_request (self);
  _sl_timeline_view_clear_caches (self);
  self->timeline = NULL;
  if (self->events != NULL)
    sl_event_list_set_source (self->events, NULL, NULL, 0);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TIMELINE_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->canvas = NULL;
  g_clear_object (&self->events);
  g_clear_object (&self->vadj);

  G_OBJECT_CLASS (sl_timeline_view_parent_class)->dispose (object);
}

static void
sl_timeline_view_finalize (GObject *object)
{
  SlTimelineView *self = (SlTimelineView *) object;

  g_free ((gpointer) self->stores);
  g_array_unref (self->clocks);
  g_hash_table_unref (self->link_bounds);
  g_hash_table_unref (self->link_rels);
  g_array_unref (self->vis);
  g_array_unref (self->row_vis);
  g_array_unref (self->row_shown);
  g_byte_array_unref (self->host_open);
  g_hash_table_unref (self->closed_procs);
  g_array_unref (self->pairs);
  g_array_unref (self->pair_conns);
  g_array_unref (self->pins);
  g_clear_pointer (&self->tree_pids, g_hash_table_unref);
  g_hash_table_unref (self->row_cache);
  g_array_unref (self->arrows);
  g_array_unref (self->hl_arrows);
  g_hash_table_unref (self->hl_row_fold);
  for (guint i = 0; i < G_N_ELEMENTS (self->mask_lines); i++)
    g_array_unref (self->mask_lines[i]);
  g_free (self->search_text);

  G_OBJECT_CLASS (sl_timeline_view_parent_class)->finalize (object);
}

static void
sl_timeline_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_SYNCHRONIZED:
      g_value_set_boolean (value, self->synchronized);
      break;
    case PROP_FOLLOW:
      g_value_set_boolean (value, self->follow);
      break;
    case PROP_SHOW_CPUS:
      g_value_set_boolean (value, self->show_cpus);
      break;
    case PROP_SELECTED_ROW:
      g_value_set_uint (value, self->selected_row);
      break;
    case PROP_ANIMATING:
      g_value_set_boolean (value, _sl_timeline_view_clocks_animating (self));
      break;
    case PROP_HIDE_IDLE:
      g_value_set_boolean (value, (self->row_filter & SL_TIMELINE_FILTER_HIDE_IDLE) != 0);
      break;
    case PROP_HIDE_KERNEL:
      g_value_set_boolean (value, (self->row_filter & SL_TIMELINE_FILTER_HIDE_KERNEL) != 0);
      break;
    case PROP_ONLY_MESSAGES:
      g_value_set_boolean (value, (self->row_filter & SL_TIMELINE_FILTER_ONLY_MESSAGES) != 0);
      break;
    case PROP_SORT_ROWS:
      g_value_set_boolean (value, self->sort_rows);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      sl_timeline_view_set_session (self, g_value_get_object (value));
      break;
    case PROP_SYNCHRONIZED:
      sl_timeline_view_set_synchronized (self, g_value_get_boolean (value));
      break;
    case PROP_FOLLOW:
      sl_timeline_view_set_follow (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_CPUS:
      if (self->show_cpus != g_value_get_boolean (value))
        {
          self->show_cpus = g_value_get_boolean (value);
          _sl_timeline_view_rebuild_layout (self);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_SELECTED_ROW:
      sl_timeline_view_select_row (self, g_value_get_uint (value));
      break;
    case PROP_HIDE_IDLE:
    case PROP_HIDE_KERNEL:
    case PROP_ONLY_MESSAGES:
      {
        guint bit = prop_id == PROP_HIDE_IDLE ? SL_TIMELINE_FILTER_HIDE_IDLE
                    : prop_id == PROP_HIDE_KERNEL ? SL_TIMELINE_FILTER_HIDE_KERNEL
                    : SL_TIMELINE_FILTER_ONLY_MESSAGES;

        sl_timeline_view_set_row_filter (self, g_value_get_boolean (value) ? self->row_filter | bit
                                                                           : self->row_filter & ~bit);
      }
      break;
    case PROP_SORT_ROWS:
      if (self->sort_rows != g_value_get_boolean (value))
        {
          self->sort_rows = g_value_get_boolean (value);
          _sl_timeline_view_rebuild_layout (self);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_view_class_init (SlTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sl_timeline_view_dispose;
  object_class->finalize = sl_timeline_view_finalize;
  object_class->get_property = sl_timeline_view_get_property;
  object_class->set_property = sl_timeline_view_set_property;

  _sl_timeline_view_properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION, rw);
  _sl_timeline_view_properties[PROP_SYNCHRONIZED] = g_param_spec_boolean ("synchronized", NULL, NULL, TRUE, rw);
  _sl_timeline_view_properties[PROP_FOLLOW] = g_param_spec_boolean ("follow", NULL, NULL, FALSE, rw);
  _sl_timeline_view_properties[PROP_SHOW_CPUS] = g_param_spec_boolean ("show-cpus", NULL, NULL, FALSE, rw);
  _sl_timeline_view_properties[PROP_SELECTED_ROW] =
    g_param_spec_uint ("selected-row", NULL, NULL, 0, G_MAXUINT, SL_TIMELINE_NONE, rw);
  _sl_timeline_view_properties[PROP_ANIMATING] =
    g_param_spec_boolean ("animating", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _sl_timeline_view_properties[PROP_HIDE_IDLE] = g_param_spec_boolean ("hide-idle", NULL, NULL, FALSE, rw);
  _sl_timeline_view_properties[PROP_HIDE_KERNEL] = g_param_spec_boolean ("hide-kernel", NULL, NULL, FALSE, rw);
  _sl_timeline_view_properties[PROP_ONLY_MESSAGES] = g_param_spec_boolean ("only-messages", NULL, NULL, FALSE, rw);
  _sl_timeline_view_properties[PROP_SORT_ROWS] = g_param_spec_boolean ("sort-rows", NULL, NULL, TRUE, rw);
  g_object_class_install_properties (object_class, N_PROPS, _sl_timeline_view_properties);

  g_type_ensure (SL_TYPE_TIMELINE_CANVAS);
  g_type_ensure (SL_TYPE_TEXT_CELL);
  g_type_ensure (SL_TYPE_STATUS_LINE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/syncline/Syncline/ui/sl-timeline-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, toolbar);
  sl_text_cell_bind_columns (widget_class, event_columns, G_N_ELEMENTS (event_columns));
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, pair_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, connection_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, status_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, paned);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, canvas);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, scrollbar);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, events_view);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, events_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, pages);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, message_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, pair_list);
  gtk_widget_class_bind_template_child (widget_class, SlTimelineView, connection_list);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "timelineview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  _sl_timeline_view_class_init_actions (widget_class);
  _sl_timeline_view_class_init_find (widget_class);
  _sl_timeline_view_class_init_stats (widget_class);
  _sl_timeline_view_class_init_marks (widget_class);
  _sl_timeline_view_class_init_request (widget_class);
}

static void
sl_timeline_view_init (SlTimelineView *self)
{
  g_autoptr(GtkNoSelection) selection = NULL;

  self->synchronized = TRUE;
  self->sort_rows = TRUE;
  self->tree_host = SL_TIMELINE_NONE;
  self->pins = g_array_new (FALSE, FALSE, sizeof (guint));
  self->selected_row = SL_TIMELINE_NONE;
  self->hl_host_a = self->hl_host_b = SL_TIMELINE_NONE;
  self->filter_a = self->filter_b = self->filter_conn = SL_TIMELINE_NONE;
  self->px_ns = 1e6;
  self->hl_cursor = G_MAXINT64;
  self->clocks = g_array_new (FALSE, TRUE, sizeof (SlTlvClock));
  self->link_bounds = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->link_rels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                           (GDestroyNotify) sl_relation_unref);
  self->vis = g_array_new (FALSE, FALSE, sizeof (SlTlvRow));
  self->row_vis = g_array_new (FALSE, FALSE, sizeof (guint));
  self->row_shown = g_array_new (FALSE, FALSE, sizeof (guint));
  self->host_open = g_byte_array_new ();
  self->closed_procs = g_hash_table_new (NULL, NULL);
  self->pairs = g_array_new (FALSE, FALSE, sizeof (guint));
  self->pair_conns = g_array_new (FALSE, FALSE, sizeof (guint));
  self->row_cache = g_hash_table_new_full (NULL, NULL, NULL, NULL);
  self->arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  self->hl_arrows = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  self->hl_row_fold = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (self->mask_lines); i++)
    self->mask_lines[i] = g_array_new (FALSE, FALSE, sizeof (SlMaskLine));
  self->events = sl_event_list_new ();
  self->vadj = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, SL_TLV_ROW_H * 3, 100, 100));

  gtk_widget_init_template (GTK_WIDGET (self));
  sl_text_cell_set_factories (GTK_WIDGET (self), SL_TYPE_TIMELINE_VIEW, event_columns, G_N_ELEMENTS (event_columns));

  gtk_scrollbar_set_adjustment (self->scrollbar, self->vadj);
  g_signal_connect_object (self->vadj, "value-changed", G_CALLBACK (vadj_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->events, "notify::n-items", G_CALLBACK (_sl_timeline_view_update_events_label), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->events, "notify::loading", G_CALLBACK (_sl_timeline_view_update_events_label), self,
                           G_CONNECT_SWAPPED);
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->events)));
  gtk_column_view_set_model (self->events_view, GTK_SELECTION_MODEL (selection));
  /* the table keeps its smallest height; the timeline gets the rest */
  gtk_paned_set_position (self->paned, 4000);
  _sl_timeline_view_init_input (self);
  _sl_timeline_view_init_find (self);
  _sl_timeline_view_init_stats (self);
  _sl_timeline_view_init_marks (self);
  _sl_timeline_view_init_request (self);
  g_signal_connect_object (self->pages, "notify::visible-child", G_CALLBACK (_sl_timeline_view_events_page_cb), self,
                           G_CONNECT_SWAPPED);
  _sl_timeline_view_rebuild_filters (self);
  _sl_timeline_view_rebuild_connections (self);
  _sl_timeline_view_update_events (self);
  _sl_timeline_view_update_actions (self);
}

/* Public */

guint32
sl_timeline_view_state_rgb (SlTimelineState state)
{
  return state < SL_TIMELINE_N_STATES ? state_rgb[state] : 0;
}

const char *
sl_timeline_view_state_label (SlTimelineState state)
{
  switch (state)
    {
    case SL_TIMELINE_STATE_UNKNOWN:
      return C_("state", "unknown");
    case SL_TIMELINE_STATE_USER:
      return C_("state", "user");
    case SL_TIMELINE_STATE_SYSCALL:
      return C_("state", "system call");
    case SL_TIMELINE_STATE_IRQ:
      return C_("state", "interrupt");
    case SL_TIMELINE_STATE_SOFTIRQ:
      return C_("state", "softirq");
    case SL_TIMELINE_STATE_RUNNABLE:
      return C_("state", "runnable");
    case SL_TIMELINE_STATE_BLOCKED:
      return C_("state", "blocked");
    case SL_TIMELINE_STATE_EXITED:
      return C_("state", "exited");
    case SL_TIMELINE_STATE_IDLE:
      return C_("state", "idle");
    case SL_TIMELINE_STATE_NONE:
    case SL_TIMELINE_N_STATES:
    default:
      return C_("state", "none");
    }
}

SlSession *
sl_timeline_view_get_session (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->session;
}

void
sl_timeline_view_set_session (SlTimelineView *self,
                              SlSession      *session)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (session == NULL || SL_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (self->session_ids); i++)
        g_clear_signal_handler (&self->session_ids[i], self->session);
      if (self->from_session)
        set_timeline (self, NULL, NULL, 0, FALSE);
      g_clear_object (&self->session);
    }
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      self->session_ids[0] = g_signal_connect_swapped (session, "notify::timeline",
                                                       G_CALLBACK (session_timeline_cb), self);
      self->session_ids[1] = g_signal_connect_swapped (session, "updated", G_CALLBACK (session_updated_cb), self);
      self->session_ids[2] = g_signal_connect_swapped (session, "notify::selected-link",
                                                       G_CALLBACK (session_link_cb), self);
      self->session_ids[3] = g_signal_connect_swapped (session, "notify::synchronized",
                                                       G_CALLBACK (session_sync_cb), self);
      self->session_ids[4] = g_signal_connect_swapped (session, "notify::visible-span",
                                                       G_CALLBACK (session_visible_cb), self);
      self->session_ids[5] = g_signal_connect_swapped (session, "notify::selected-span",
                                                       G_CALLBACK (session_selection_cb), self);
      self->session_ids[6] = g_signal_connect_swapped (session, "notify::state",
                                                       G_CALLBACK (gtk_widget_queue_draw), self->canvas);
      session_updated_cb (self, 0);
      session_link_cb (self);
      if (self->synchronized != sl_session_get_synchronized (session))
        session_sync_cb (self);
      session_timeline_cb (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), _sl_timeline_view_properties[PROP_SESSION]);
}

SlTimeline *
sl_timeline_view_get_timeline (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->timeline;
}

void
sl_timeline_view_set_timeline (SlTimelineView             *self,
                               SlTimeline                 *timeline,
                               const SlEventStore * const *stores,
                               guint                       n_stores)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  set_timeline (self, timeline, stores, n_stores, FALSE);
}

void
sl_timeline_view_data_changed (SlTimelineView *self)
{
  gint64 lo, hi;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  self->data_version++;
  self->arrow_version++;
  sl_event_list_data_changed (self->events);
  _sl_timeline_view_find_dropped (self);
  _sl_timeline_view_queue_stats (self);
  if (self->timeline == NULL)
    {
      _sl_timeline_view_queue_update (self);
      return;
    }
  for (guint h = self->clocks->len; h < sl_timeline_get_n_hosts (self->timeline); h++)
    {
      _sl_timeline_view_ensure_clock (self, h);
      _sl_timeline_view_push_clock (self, h);
    }
  if (sl_timeline_get_n_rows (self->timeline) != self->n_rows_seen)
    _sl_timeline_view_rebuild_layout (self);
  else
    /* new data can give a thread its process */
    for (guint r = 0; r < self->row_shown->len; r++)
      g_array_index (self->row_shown, guint, r) = ROW_SHOWN_UNKNOWN;
  if (sl_timeline_get_view_range (self->timeline, &lo, &hi))
    {
      /* followed at the frame rate (follow_step()), not per update */
      if (self->follow && hi > self->data_end && self->has_span)
        self->follow_target = hi + _sl_timeline_view_follow_room (self, _sl_timeline_view_end (self) -
                                                                          _sl_timeline_view_start (self));
      self->data_end = MAX (self->data_end, hi);
      /* a live model that was empty when it was set, or one that shows
       * everything */
      if (!self->has_span)
        _sl_timeline_view_fit_or_follow (self);
      else if (self->fitted)
        _sl_timeline_view_fit (self);
    }
  _sl_timeline_view_update_status (self);
  _sl_timeline_view_queue_update (self);
}

GtkWidget *
sl_timeline_view_get_canvas (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return self->canvas;
}

GListModel *
sl_timeline_view_get_events (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  return G_LIST_MODEL (self->events);
}

void
sl_timeline_view_get_stats (SlTimelineView      *self,
                            SlTimelineViewStats *stats)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (stats != NULL);

  *stats = self->stats;
}

/* The Message page follows the selected message */
void
_sl_timeline_view_message_changed (SlTimelineView *self)
{
  if (self->message_label == NULL)
    return;
  if (self->has_msg && self->timeline != NULL)
    {
      g_autofree char *text = sl_timeline_view_dup_message_text (self, &self->msg);

      gtk_label_set_text (self->message_label, text);
      gtk_stack_set_visible_child_name (self->pages, "message");
    }
  else
    gtk_label_set_text (self->message_label, _("Click a message (an arrow) to see where it went, when, and how "
                                               "long it took"));
  _sl_timeline_view_update_actions (self);
}

/**
 * sl_timeline_view_get_kept_from:
 * @view_time: (out): from where every host's data is kept, on the view's
 *   clock
 *
 * Live data with a retention (sl_session_set_retention()): the latest of
 * the hosts' starts of kept data; before it, some host's events were
 * dropped.
 *
 * Returns: %FALSE when nothing was dropped
 */
gboolean
sl_timeline_view_get_kept_from (SlTimelineView *self,
                                gint64         *view_time)
{
  gint64 t = G_MININT64;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  g_return_val_if_fail (view_time != NULL, FALSE);

  if (self->timeline == NULL)
    return FALSE;
  for (guint h = 0; h < sl_timeline_get_n_hosts (self->timeline); h++)
    {
      gint64 kept = sl_timeline_get_kept_from (self->timeline, h);

      if (kept != G_MININT64)
        t = MAX (t, sl_timeline_to_view (self->timeline, h, kept));
    }
  if (t == G_MININT64)
    return FALSE;
  *view_time = t;
  return TRUE;
}

/**
 * sl_timeline_view_get_complete_time:
 * @view_time: (out): where every host is complete, on the view's clock
 *
 * Live data: the time up to which every host still attached (streaming,
 * stalled, connecting) has delivered its events — the earliest of their
 * newest events, as each host's events arrive in its time order; an
 * ended or failed host sends nothing more. After it the data is ragged.
 *
 * Returns: %FALSE when the data is not live or no host has data yet
 */
gboolean
sl_timeline_view_get_complete_time (SlTimelineView *self,
                                    gint64         *view_time)
{
  gint64 t = G_MAXINT64;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);
  g_return_val_if_fail (view_time != NULL, FALSE);

  if (self->timeline == NULL || !self->from_session || self->session == NULL ||
      !sl_session_get_is_live (self->session))
    return FALSE;
  for (guint h = 0; h < sl_timeline_get_n_hosts (self->timeline); h++)
    {
      SlHostItem *item = sl_session_get_host_item (self->session, h);
      SlHostLive live = item != NULL ? sl_host_item_get_live (item) : SL_HOST_LIVE_NONE;
      gint64 first, last;

      if (live == SL_HOST_LIVE_ENDED || live == SL_HOST_LIVE_FAILED ||
          !sl_timeline_get_time_range (self->timeline, h, &first, &last))
        continue;
      t = MIN (t, sl_timeline_to_view (self->timeline, h, last));
    }
  if (t == G_MAXINT64)
    return FALSE;
  *view_time = t;
  return TRUE;
}
