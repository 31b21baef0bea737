/* sl-event-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-event-list.h"
#include "sl-units.h"

#define DEFAULT_MAX_EVENTS 20000
#define SLICE_BUDGET_US    4000
/* GTK 4.8's list view makes and binds up to 200 rows (and two more on each
 * side) as soon as the model has the items: for the events table some
 * 2 600 widgets, 60-120 ms in one go. The first rows are announced a few
 * per main loop iteration instead, so that frames are drawn in between. */
#define FIRST_ROWS         256
#define ROWS_PER_STEP      24
/* After them, the rest is announced at most this often until it is all
 * there: each announcement lays the window out again (the list's and the
 * scrollbar's sizes), a few milliseconds of the next frame. */
#define PUBLISH_US         250000

/* SlEventItem */

enum {
  ITEM_TIME,
  ITEM_LOCAL_TIME,
  ITEM_HOST,
  ITEM_CPU,
  ITEM_EVENT,
  ITEM_FIELDS,
  N_ITEM_TEXTS
};

struct _SlEventItem
{
  GObject  parent_instance;

  SlEvent  event;
  guint    host;
  gint64   view_time;
  char    *text[N_ITEM_TEXTS];
};

enum {
  ITEM_PROP_0,
  ITEM_PROP_TIME,
  ITEM_PROP_LOCAL_TIME,
  ITEM_PROP_HOST,
  ITEM_PROP_CPU,
  ITEM_PROP_EVENT,
  ITEM_PROP_FIELDS,
  N_ITEM_PROPS
};

G_DEFINE_FINAL_TYPE (SlEventItem, sl_event_item, G_TYPE_OBJECT)

static GParamSpec *item_properties[N_ITEM_PROPS];

static void
sl_event_item_finalize (GObject *object)
{
  SlEventItem *self = (SlEventItem *) object;

  for (guint i = 0; i < N_ITEM_TEXTS; i++)
    g_free (self->text[i]);
  G_OBJECT_CLASS (sl_event_item_parent_class)->finalize (object);
}

static void
sl_event_item_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SlEventItem *self = SL_EVENT_ITEM (object);

  if (prop_id > ITEM_PROP_0 && prop_id < N_ITEM_PROPS)
    g_value_set_string (value, self->text[prop_id - 1]);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sl_event_item_class_init (SlEventItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = sl_event_item_finalize;
  object_class->get_property = sl_event_item_get_property;

  item_properties[ITEM_PROP_TIME] = g_param_spec_string ("time", NULL, NULL, NULL, ro);
  item_properties[ITEM_PROP_LOCAL_TIME] = g_param_spec_string ("local-time", NULL, NULL, NULL, ro);
  item_properties[ITEM_PROP_HOST] = g_param_spec_string ("host", NULL, NULL, NULL, ro);
  item_properties[ITEM_PROP_CPU] = g_param_spec_string ("cpu", NULL, NULL, NULL, ro);
  item_properties[ITEM_PROP_EVENT] = g_param_spec_string ("event", NULL, NULL, NULL, ro);
  item_properties[ITEM_PROP_FIELDS] = g_param_spec_string ("fields", NULL, NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_ITEM_PROPS, item_properties);
}

static void
sl_event_item_init (SlEventItem *self)
{
}

const SlEvent *
sl_event_item_get_event (SlEventItem *self)
{
  g_return_val_if_fail (SL_IS_EVENT_ITEM (self), NULL);
  return &self->event;
}

guint
sl_event_item_get_host (SlEventItem *self)
{
  g_return_val_if_fail (SL_IS_EVENT_ITEM (self), 0);
  return self->host;
}

gint64
sl_event_item_get_view_time (SlEventItem *self)
{
  g_return_val_if_fail (SL_IS_EVENT_ITEM (self), 0);
  return self->view_time;
}

const char *
sl_event_item_get_text (SlEventItem *self,
                        const char  *property)
{
  g_return_val_if_fail (SL_IS_EVENT_ITEM (self), NULL);

  for (guint i = ITEM_PROP_TIME; i < N_ITEM_PROPS; i++)
    if (g_strcmp0 (property, item_properties[i]->name) == 0)
      return self->text[i - 1];
  return NULL;
}

/* SlEventList */

struct _SlEventList
{
  GObject                     parent_instance;

  const SlTimeline           *timeline;
  const SlEventStore * const *stores;
  guint                       n_stores;
  SlEventListLockFunc         lock;
  SlEventListLockFunc         unlock;
  gpointer                    lock_data;

  guint                       row;
  guint                       host;
  GArray                     *events;
  guint                       published;   /* events[0, published) are the items */
  gint64                      span_start;  /* the span the events are for (local) */
  gint64                      span_end;
  guint                       max_events;
  gboolean                    truncated;
  gboolean                    stale;       /* the row's events may have changed */

  /* loading, a slice of the span per idle: first the events before the
   * span loaded already (inserted at head_pos), then those after it */
  guint                       load_id;
  gint64                      head_cursor;
  gint64                      head_end;
  guint                       head_pos;
  gint64                      cursor;
  gint64                      end;
  gint64                      chunk;
  gint64                      published_at;
};

enum {
  PROP_0,
  PROP_ROW,
  PROP_TRUNCATED,
  PROP_MAX_EVENTS,
  PROP_N_ITEMS,
  PROP_LOADING,
  N_PROPS
};

static void sl_event_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SlEventList, sl_event_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, sl_event_list_model_init))

static GParamSpec *properties[N_PROPS];

/* HH:MM:SS.fraction of the day (UTC), @decimals digits of the second. */
char *
sl_format_clock_time (gint64 ns,
                      int    decimals)
{
  return sl_units_time_of_day (ns, decimals);
}

static const char *
store_string (const SlEventStore *store,
              guint32             id)
{
  const char *s = store != NULL && id != 0 ? sl_event_store_get_string (store, id) : NULL;

  return s != NULL ? s : "";
}

/* The ports and length of a copy of a packet event, found again in its
 * store (same time, same record) */
static const SlEventPacket *
packet_of (const SlEventStore *store,
           const SlEvent      *e)
{
  guint64 n = sl_event_store_get_n_events (store, SL_EVENT_STREAM_NET);

  for (guint64 i = sl_event_store_lower_bound (store, SL_EVENT_STREAM_NET, e->time); i < n; i++)
    {
      const SlEvent *x = sl_event_store_get (store, SL_EVENT_STREAM_NET, i);

      if (x->time != e->time)
        break;
      if (memcmp (x, e, sizeof *e) == 0)
        return sl_event_store_get_packet (store, i);
    }
  return NULL;
}

static char *
event_name (const SlEvent      *e,
            const SlEventStore *store)
{
  const char *kind = sl_event_kind_to_string ((SlEventKind) e->kind);

  if ((e->kind == SL_EVENT_SYSCALL_ENTRY || e->kind == SL_EVENT_SYSCALL_EXIT) && e->str != 0)
    return g_strdup_printf ("%s: %s", kind, store_string (store, e->str));
  return g_strdup (kind != NULL ? kind : "?");
}

static char *
event_fields (const SlEvent      *e,
              const SlEventStore *store)
{
  switch ((SlEventKind) e->kind)
    {
    case SL_EVENT_SCHED_SWITCH:
      return g_strdup_printf ("prev_tid=%u prev_state=%u next_tid=%u next_comm=%s", e->tid, e->flags, e->arg,
                              store_string (store, e->str));
    case SL_EVENT_SCHED_WAKEUP:
      return g_strdup_printf ("tid=%u target_cpu=%u", e->tid, e->arg);
    case SL_EVENT_PROCESS_FORK:
      return g_strdup_printf ("parent_tid=%u child_tid=%u child_comm=%s", e->tid, e->arg, store_string (store, e->str));
    case SL_EVENT_PROCESS_EXEC:
      return g_strdup_printf ("tid=%u filename=%s", e->tid, store_string (store, e->str));
    case SL_EVENT_PROCESS_EXIT:
      return g_strdup_printf ("tid=%u", e->tid);
    case SL_EVENT_PROCESS_NAME:
      return g_strdup_printf ("tid=%u pid=%u name=%s", e->tid, e->arg, store_string (store, e->str));
    case SL_EVENT_SYSCALL_ENTRY:
      if (e->flags & SL_EVENT_SYSCALL_HAS_FD)
        return g_strdup_printf ("tid=%u fd=%d", e->tid, (gint32) e->arg);
      return g_strdup_printf ("tid=%u", e->tid);
    case SL_EVENT_SYSCALL_EXIT:
      return g_strdup_printf ("tid=%u ret=%d", e->tid, (gint32) e->arg);
    case SL_EVENT_IRQ_ENTRY:
    case SL_EVENT_IRQ_EXIT:
      if (e->str != 0)
        return g_strdup_printf ("irq=%u name=%s", e->arg, store_string (store, e->str));
      return g_strdup_printf ("irq=%u", e->arg);
    case SL_EVENT_SOFTIRQ_ENTRY:
    case SL_EVENT_SOFTIRQ_EXIT:
    case SL_EVENT_SOFTIRQ_RAISE:
      return g_strdup_printf ("vec=%u", e->arg);
    case SL_EVENT_PACKET_SEND:
    case SL_EVENT_PACKET_RECV:
      {
        const SlEventPacket *pk = store != NULL ? packet_of (store, e) : NULL;
        GString *str = g_string_new (NULL);

        g_string_append_printf (str, "tid=%u seq=%u", e->tid, e->arg);
        if (pk != NULL && pk->sport != 0)
          g_string_append_printf (str, " sport=%u dport=%u", pk->sport, pk->dport);
        if (pk != NULL && pk->length != SL_EVENT_NO_LENGTH)
          g_string_append_printf (str, " len=%u", pk->length);
        return g_string_free (str, FALSE);
      }
    case SL_EVENT_NONE:
    case SL_EVENT_N_KINDS:
    default:
      return g_strdup ("");
    }
}

static GType
sl_event_list_get_item_type (GListModel *model)
{
  return SL_TYPE_EVENT_ITEM;
}

static guint
sl_event_list_get_n_items (GListModel *model)
{
  SlEventList *self = SL_EVENT_LIST (model);

  return self->published;
}

/* An item and its texts; the caller holds the store's lock if it has one.
 * Made only for the rows a view shows. */
SlEventItem *
sl_event_item_new (const SlTimeline   *timeline,
                   const SlEventStore *store,
                   guint               host,
                   const SlEvent      *event)
{
  SlTimelineRowInfo hi;
  SlEventItem *item;

  g_return_val_if_fail (timeline != NULL, NULL);
  g_return_val_if_fail (event != NULL, NULL);

  item = g_object_new (SL_TYPE_EVENT_ITEM, NULL);
  item->event = *event;
  item->host = host;
  item->view_time = sl_timeline_to_view (timeline, host, event->time);
  sl_timeline_get_row_info (timeline, sl_timeline_get_host_row (timeline, host), &hi);
  item->text[ITEM_TIME] = sl_format_clock_time (item->view_time, 9);
  item->text[ITEM_LOCAL_TIME] = sl_format_clock_time (event->time, 9);
  item->text[ITEM_HOST] = g_strdup (hi.name != NULL ? hi.name : "");
  item->text[ITEM_CPU] = event->cpu != SL_TIMELINE_NO_CPU ? g_strdup_printf ("%u", event->cpu) : g_strdup ("—");
  item->text[ITEM_EVENT] = event_name (event, store);
  item->text[ITEM_FIELDS] = event_fields (event, store);
  return item;
}

static gpointer
sl_event_list_get_item (GListModel *model,
                        guint       position)
{
  SlEventList *self = SL_EVENT_LIST (model);
  const SlEventStore *store;
  SlEventItem *item;

  if (position >= self->published || self->timeline == NULL)
    return NULL;
  store = self->host < self->n_stores ? self->stores[self->host] : NULL;
  if (self->lock != NULL)
    self->lock (self->lock_data);
  item = sl_event_item_new (self->timeline, store, self->host, &g_array_index (self->events, SlEvent, position));
  if (self->unlock != NULL)
    self->unlock (self->lock_data);
  return item;
}

static void
sl_event_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = sl_event_list_get_item_type;
  iface->get_n_items = sl_event_list_get_n_items;
  iface->get_item = sl_event_list_get_item;
}

static void
replace_events (SlEventList *self,
                GArray      *events,
                guint        row,
                gboolean     truncated)
{
  guint removed = self->published;

  g_array_unref (self->events);
  self->events = events;
  self->published = 0;
  if (self->row != row)
    {
      self->row = row;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROW]);
    }
  if (self->truncated != truncated)
    {
      self->truncated = truncated;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRUNCATED]);
    }
  if (removed > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
}

static void
set_loading (SlEventList *self,
             guint        id)
{
  gboolean was = self->load_id != 0;

  g_clear_handle_id (&self->load_id, g_source_remove);
  self->load_id = id;
  if (was != (id != 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

/* The first event at or after @t. */
static guint
lower_bound (SlEventList *self,
             gint64       t)
{
  guint lo = 0, hi = self->events->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->events, SlEvent, mid).time < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Keeps the first @n events (the list holds the span's first events). */
static void
truncate_to (SlEventList *self,
             guint        n)
{
  if (self->events->len <= n)
    return;
  if (self->published > n)
    {
      guint removed = self->published - n;

      self->published = n;
      g_list_model_items_changed (G_LIST_MODEL (self), n, removed, 0);
    }
  g_array_set_size (self->events, n);
  /* nothing later can come in; earlier ones, while the head has room */
  if (self->head_pos >= n)
    self->head_cursor = self->head_end;
  self->cursor = self->end;
  if (!self->truncated)
    {
      self->truncated = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRUNCATED]);
    }
}

static GArray *
dup_events (SlEventList *self,
            gint64       from,
            gint64       to,
            guint        max)
{
  GArray *part;

  if (self->lock != NULL)
    self->lock (self->lock_data);
  part = sl_timeline_dup_row_events (self->timeline, self->row, from, to, max);
  if (self->unlock != NULL)
    self->unlock (self->lock_data);
  return part;
}

/* Aims each slice of the span at the budget. */
static gboolean
slice_done (SlEventList *self,
            gint64       t0)
{
  gint64 dt = g_get_monotonic_time () - t0;

  if (dt < SLICE_BUDGET_US / 4)
    self->chunk = MIN (self->chunk * 4, G_MAXINT64 / 8);
  if (dt > SLICE_BUDGET_US)
    {
      self->chunk = MAX (self->chunk / 2, 1000);
      return TRUE;
    }
  return FALSE;
}

/* A row's events in a wide span can be many: they come a slice at a time,
 * at most a few milliseconds per main loop iteration, so that frames keep
 * their pace while the table fills. */
static gboolean
load_cb (gpointer data)
{
  SlEventList *self = data;
  gint64 t0 = g_get_monotonic_time ();
  guint before = self->published, limit;
  gboolean out_of_time = FALSE, read_all;

  /* events before the span loaded already: inserted in front of them */
  while (!out_of_time && self->head_cursor < self->head_end)
    {
      gint64 c1 = self->head_end - self->head_cursor > self->chunk ? self->head_cursor + self->chunk : self->head_end;
      g_autoptr(GArray) part = dup_events (self, self->head_cursor, c1, self->max_events + 1 - self->head_pos);

      self->head_cursor = c1;
      if (part->len > 0)
        {
          g_array_insert_vals (self->events, self->head_pos, part->data, part->len);
          self->published += part->len;
          g_list_model_items_changed (G_LIST_MODEL (self), self->head_pos, 0, part->len);
          self->head_pos += part->len;
          truncate_to (self, self->max_events);
        }
      out_of_time = slice_done (self, t0);
    }
  /* then those after it */
  while (!out_of_time && self->head_cursor >= self->head_end && self->cursor < self->end)
    {
      gint64 c1 = self->end - self->cursor > self->chunk ? self->cursor + self->chunk : self->end;
      g_autoptr(GArray) part = dup_events (self, self->cursor, c1, self->max_events + 1 - self->events->len);

      g_array_append_vals (self->events, part->data, part->len);
      self->cursor = c1;
      truncate_to (self, self->max_events);
      out_of_time = slice_done (self, t0);
    }

  /* the new items, the first ones a few at a time, then the rest now and
   * then */
  read_all = self->head_cursor >= self->head_end && self->cursor >= self->end;
  limit = self->published < FIRST_ROWS ? self->published + ROWS_PER_STEP : G_MAXUINT;
  if (self->events->len > self->published && limit > self->published &&
      (self->published < FIRST_ROWS || read_all || g_get_monotonic_time () - self->published_at >= PUBLISH_US))
    {
      guint from = self->published;

      self->published = MIN (self->events->len, limit);
      self->published_at = g_get_monotonic_time ();
      g_list_model_items_changed (G_LIST_MODEL (self), from, 0, self->published - from);
    }
  if (self->published != before)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
  if (read_all && self->published == self->events->len)
    {
      self->load_id = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
sl_event_list_dispose (GObject *object)
{
  SlEventList *self = (SlEventList *) object;

  g_clear_handle_id (&self->load_id, g_source_remove);
  G_OBJECT_CLASS (sl_event_list_parent_class)->dispose (object);
}

static void
sl_event_list_finalize (GObject *object)
{
  SlEventList *self = (SlEventList *) object;

  g_array_unref (self->events);
  G_OBJECT_CLASS (sl_event_list_parent_class)->finalize (object);
}

static void
sl_event_list_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SlEventList *self = SL_EVENT_LIST (object);

  switch (prop_id)
    {
    case PROP_ROW:
      g_value_set_uint (value, self->row);
      break;
    case PROP_TRUNCATED:
      g_value_set_boolean (value, self->truncated);
      break;
    case PROP_MAX_EVENTS:
      g_value_set_uint (value, self->max_events);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->published);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->load_id != 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_event_list_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  SlEventList *self = SL_EVENT_LIST (object);

  switch (prop_id)
    {
    case PROP_MAX_EVENTS:
      sl_event_list_set_max_events (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_event_list_class_init (SlEventListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sl_event_list_dispose;
  object_class->finalize = sl_event_list_finalize;
  object_class->get_property = sl_event_list_get_property;
  object_class->set_property = sl_event_list_set_property;

  properties[PROP_ROW] = g_param_spec_uint ("row", NULL, NULL, 0, G_MAXUINT, SL_TIMELINE_NONE, ro);
  properties[PROP_TRUNCATED] = g_param_spec_boolean ("truncated", NULL, NULL, FALSE, ro);
  properties[PROP_MAX_EVENTS] =
    g_param_spec_uint ("max-events", NULL, NULL, 1, G_MAXUINT, DEFAULT_MAX_EVENTS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_event_list_init (SlEventList *self)
{
  self->row = SL_TIMELINE_NONE;
  self->max_events = DEFAULT_MAX_EVENTS;
  self->events = g_array_new (FALSE, FALSE, sizeof (SlEvent));
}

SlEventList *
sl_event_list_new (void)
{
  return g_object_new (SL_TYPE_EVENT_LIST, NULL);
}

void
sl_event_list_set_source (SlEventList                *self,
                          const SlTimeline           *timeline,
                          const SlEventStore * const *stores,
                          guint                       n_stores)
{
  g_return_if_fail (SL_IS_EVENT_LIST (self));

  set_loading (self, 0);
  self->timeline = timeline;
  self->stores = timeline != NULL ? stores : NULL;
  self->n_stores = timeline != NULL ? n_stores : 0;
  replace_events (self, g_array_new (FALSE, FALSE, sizeof (SlEvent)), SL_TIMELINE_NONE, FALSE);
}

/* The stores may be appended to by other threads (live): @lock and
 * @unlock are called around every read of them. */
void
sl_event_list_set_lock_func (SlEventList         *self,
                             SlEventListLockFunc  lock,
                             SlEventListLockFunc  unlock,
                             gpointer             user_data)
{
  g_return_if_fail (SL_IS_EVENT_LIST (self));
  g_return_if_fail ((lock == NULL) == (unlock == NULL));

  self->lock = lock;
  self->unlock = unlock;
  self->lock_data = user_data;
}

/* A new span of the same row, overlapping a complete list: the events
 * outside it are removed and only the missing ones loaded, so that the
 * table's rows for the events kept stay as they are (replacing every item
 * makes GTK 4.8 destroy and make again all the rows it keeps). */
static gboolean
move_span (SlEventList *self,
           gint64       local_start,
           gint64       local_end)
{
  guint n = self->events->len, i0, i1;

  if (self->load_id != 0 || self->truncated || self->stale || self->published != n ||
      local_start >= self->span_end || local_end <= self->span_start)
    return FALSE;
  i1 = lower_bound (self, local_end);
  if (i1 < n)
    {
      g_array_set_size (self->events, i1);
      self->published = i1;
      g_list_model_items_changed (G_LIST_MODEL (self), i1, n - i1, 0);
    }
  i0 = lower_bound (self, local_start);
  if (i0 > 0)
    {
      g_array_remove_range (self->events, 0, i0);
      self->published -= i0;
      g_list_model_items_changed (G_LIST_MODEL (self), 0, i0, 0);
    }
  self->head_cursor = local_start;
  self->head_end = MAX (local_start, self->span_start);
  self->head_pos = 0;
  self->cursor = MIN (local_end, self->span_end);
  self->end = local_end;
  /* (a smaller max-events since) */
  truncate_to (self, self->max_events);
  if (self->published != n)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
  self->span_start = local_start;
  self->span_end = local_end;
  if (self->head_cursor < self->head_end || self->cursor < self->end)
    {
      self->chunk = MAX ((self->head_end - self->head_cursor + self->end - self->cursor) / 64, 1000);
      set_loading (self, g_idle_add (load_cb, self));
    }
  return TRUE;
}

void
sl_event_list_set_row (SlEventList *self,
                       guint        row,
                       gint64       local_start,
                       gint64       local_end)
{
  SlTimelineRowInfo ri;

  g_return_if_fail (SL_IS_EVENT_LIST (self));

  if (self->timeline == NULL || row >= sl_timeline_get_n_rows (self->timeline))
    row = SL_TIMELINE_NONE;
  if (row != SL_TIMELINE_NONE && row == self->row && local_end > local_start &&
      move_span (self, local_start, local_end))
    return;
  set_loading (self, 0);
  replace_events (self, g_array_new (FALSE, FALSE, sizeof (SlEvent)), row, FALSE);
  self->stale = FALSE;
  self->span_start = self->span_end = 0;
  if (row == SL_TIMELINE_NONE || local_end <= local_start)
    return;
  sl_timeline_get_row_info (self->timeline, row, &ri);
  self->host = ri.host;
  self->span_start = local_start;
  self->span_end = local_end;
  self->head_cursor = self->head_end = local_start;
  self->head_pos = 0;
  self->cursor = local_start;
  self->end = local_end;
  self->chunk = MAX ((local_end - local_start) / 64, 1000);
  set_loading (self, g_idle_add (load_cb, self));
}

/**
 * sl_event_list_data_changed:
 *
 * The timeline's events may have changed (a live session's grow): the
 * next sl_event_list_set_row() loads its span whole again instead of only
 * what it adds to the current one.
 */
void
sl_event_list_data_changed (SlEventList *self)
{
  g_return_if_fail (SL_IS_EVENT_LIST (self));
  self->stale = TRUE;
}

gboolean
sl_event_list_get_loading (SlEventList *self)
{
  g_return_val_if_fail (SL_IS_EVENT_LIST (self), FALSE);
  return self->load_id != 0;
}

guint
sl_event_list_get_row (SlEventList *self)
{
  g_return_val_if_fail (SL_IS_EVENT_LIST (self), SL_TIMELINE_NONE);
  return self->row;
}

gboolean
sl_event_list_get_truncated (SlEventList *self)
{
  g_return_val_if_fail (SL_IS_EVENT_LIST (self), FALSE);
  return self->truncated;
}

guint
sl_event_list_get_max_events (SlEventList *self)
{
  g_return_val_if_fail (SL_IS_EVENT_LIST (self), 0);
  return self->max_events;
}

void
sl_event_list_set_max_events (SlEventList *self,
                              guint        max_events)
{
  g_return_if_fail (SL_IS_EVENT_LIST (self));

  max_events = MAX (max_events, 1);
  if (self->max_events == max_events)
    return;
  self->max_events = max_events;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_EVENTS]);
}

void
sl_event_list_times_changed (SlEventList *self)
{
  g_return_if_fail (SL_IS_EVENT_LIST (self));

  if (self->published > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, self->published, self->published);
}

guint
sl_event_list_find_time (SlEventList *self,
                         gint64       view_time)
{
  guint lo = 0, hi;

  g_return_val_if_fail (SL_IS_EVENT_LIST (self), 0);

  if (self->timeline == NULL)
    return 0;
  hi = self->published;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      gint64 t = sl_timeline_to_view (self->timeline, self->host, g_array_index (self->events, SlEvent, mid).time);

      if (t < view_time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
