/* sl-search-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "sl-search-list.h"

#define DEFAULT_MAX_HITS 1000000
#define POLL_MS          50
/* as the events list: a list view binds up to 200 rows as soon as the
 * model has the items; the first come a few per main loop iteration */
#define FIRST_ROWS       256
#define ROWS_PER_STEP    24
/* the worker's niceness: the frames' threads (the main one, the view's
 * preparing one) come first when cores are few */
#define WORKER_NICE      5

struct _SlSearchList
{
  GObject                     parent_instance;

  const SlTimeline           *timeline;
  const SlEventStore * const *stores;
  guint                       n_stores;
  SlSearchLockFunc            lock;
  SlSearchLockFunc            unlock;
  gpointer                    lock_data;
  guint                       max_hits;

  char                       *text;
  /* the search running on the worker */
  SlTimelineSearch           *search;
  GThread                    *thread;
  GCancellable               *cancellable;
  gint                        finished;
  guint                       poll_id;
  gint64                      started_us;
  double                      seconds;
  double                      progress;
  guint64                     scanned;

  /* the last finished search */
  GArray                     *hits;
  guint64                     n_matches;
  /* hits the retention dropped since the search */
  guint64                     n_dropped;
  guint                       published;
  guint                       publish_id;
};

enum {
  PROP_0,
  PROP_TEXT,
  PROP_SEARCHING,
  PROP_PROGRESS,
  PROP_N_MATCHES,
  PROP_N_ITEMS,
  PROP_MAX_HITS,
  N_PROPS
};

static void sl_search_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SlSearchList, sl_search_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, sl_search_list_model_init))

static GParamSpec *properties[N_PROPS];

static GType
sl_search_list_get_item_type (GListModel *model)
{
  return SL_TYPE_EVENT_ITEM;
}

static guint
sl_search_list_get_n_items (GListModel *model)
{
  return SL_SEARCH_LIST (model)->published;
}

static gpointer
sl_search_list_get_item (GListModel *model,
                         guint       position)
{
  SlSearchList *self = SL_SEARCH_LIST (model);
  const SlSearchHit *hit;
  const SlEventStore *store;
  const SlEvent *e;
  SlEventItem *item = NULL;

  if (position >= self->published || self->timeline == NULL)
    return NULL;
  hit = &g_array_index (self->hits, SlSearchHit, position);
  store = hit->host < self->n_stores ? self->stores[hit->host] : NULL;
  if (store == NULL)
    return NULL;
  if (self->lock != NULL)
    self->lock (self->lock_data);
  /* (a hit the retention dropped, until sl_search_list_forget_dropped()) */
  if ((e = sl_event_store_get (store, hit->stream, hit->index)) != NULL)
    item = sl_event_item_new (self->timeline, store, hit->host, e);
  if (self->unlock != NULL)
    self->unlock (self->lock_data);
  return item;
}

static void
sl_search_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = sl_search_list_get_item_type;
  iface->get_n_items = sl_search_list_get_n_items;
  iface->get_item = sl_search_list_get_item;
}

static gpointer
search_thread (gpointer data)
{
  SlSearchList *self = data;

#ifdef __linux__
  /* (per thread on Linux; best effort) */
  (void) setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), WORKER_NICE);
#endif
  sl_timeline_search_run (self->search, self->cancellable);
  g_atomic_int_set (&self->finished, TRUE);
  return NULL;
}

/* Stops the worker (it checks the cancellable between slices of events:
 * a brief wait) */
static void
stop_search (SlSearchList *self)
{
  gboolean was = self->thread != NULL;

  g_clear_handle_id (&self->poll_id, g_source_remove);
  if (self->thread != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      g_thread_join (self->thread);
      self->thread = NULL;
    }
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->search, sl_timeline_search_free);
  if (was)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCHING]);
}

static void
set_hits (SlSearchList *self,
          GArray       *hits,
          guint64       n_matches)
{
  guint removed = self->published;

  g_clear_handle_id (&self->publish_id, g_source_remove);
  g_array_unref (self->hits);
  self->hits = hits;
  self->published = 0;
  self->n_matches = n_matches;
  self->n_dropped = 0;
  if (removed > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_MATCHES]);
}

static gboolean
publish_cb (gpointer data)
{
  SlSearchList *self = data;
  guint from = self->published;

  self->published = self->published < FIRST_ROWS ? MIN (self->hits->len, self->published + ROWS_PER_STEP)
                                                 : self->hits->len;
  if (self->published > from)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), from, 0, self->published - from);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
  if (self->published < self->hits->len)
    return G_SOURCE_CONTINUE;
  self->publish_id = 0;
  return G_SOURCE_REMOVE;
}

/* The first rows at once, the rest from an idle. (Calling publish_cb()
 * after adding its idle left the idle pending once everything was
 * published, with publish_id cleared: dispose could not remove it and it
 * ran on a finalized list.) */
static void
start_publishing (SlSearchList *self)
{
  g_clear_handle_id (&self->publish_id, g_source_remove);
  if (publish_cb (self) == G_SOURCE_CONTINUE)
    self->publish_id = g_idle_add (publish_cb, self);
}

static gboolean
poll_cb (gpointer data)
{
  SlSearchList *self = data;
  double p;

  if (!g_atomic_int_get (&self->finished))
    {
      p = sl_timeline_search_get_progress (self->search);
      if (p != self->progress)
        {
          self->progress = p;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
        }
      return G_SOURCE_CONTINUE;
    }
  self->poll_id = 0;
  g_thread_join (self->thread);
  self->thread = NULL;
  self->seconds = (g_get_monotonic_time () - self->started_us) / 1e6;
  {
    GArray *hits = g_array_ref (sl_timeline_search_get_hits (self->search));
    guint64 n = sl_timeline_search_get_n_matches (self->search);

    self->scanned = sl_timeline_search_get_n_scanned (self->search);
    g_clear_pointer (&self->search, sl_timeline_search_free);
    g_clear_object (&self->cancellable);
    set_hits (self, hits, n);
  }
  self->progress = 1;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCHING]);
  start_publishing (self);
  return G_SOURCE_REMOVE;
}

static void
sl_search_list_dispose (GObject *object)
{
  SlSearchList *self = (SlSearchList *) object;

  stop_search (self);
  g_clear_handle_id (&self->publish_id, g_source_remove);
  G_OBJECT_CLASS (sl_search_list_parent_class)->dispose (object);
}

static void
sl_search_list_finalize (GObject *object)
{
  SlSearchList *self = (SlSearchList *) object;

  g_array_unref (self->hits);
  g_free (self->text);
  G_OBJECT_CLASS (sl_search_list_parent_class)->finalize (object);
}

static void
sl_search_list_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SlSearchList *self = SL_SEARCH_LIST (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    case PROP_SEARCHING:
      g_value_set_boolean (value, self->thread != NULL);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case PROP_N_MATCHES:
      g_value_set_uint64 (value, self->n_matches);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->published);
      break;
    case PROP_MAX_HITS:
      g_value_set_uint (value, self->max_hits);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_search_list_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_MAX_HITS:
      sl_search_list_set_max_hits (SL_SEARCH_LIST (object), g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_search_list_class_init (SlSearchListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sl_search_list_dispose;
  object_class->finalize = sl_search_list_finalize;
  object_class->get_property = sl_search_list_get_property;
  object_class->set_property = sl_search_list_set_property;

  properties[PROP_TEXT] = g_param_spec_string ("text", NULL, NULL, NULL, ro);
  properties[PROP_SEARCHING] = g_param_spec_boolean ("searching", NULL, NULL, FALSE, ro);
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0, 1, 0, ro);
  properties[PROP_N_MATCHES] = g_param_spec_uint64 ("n-matches", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_MAX_HITS] =
    g_param_spec_uint ("max-hits", NULL, NULL, 1, G_MAXUINT, DEFAULT_MAX_HITS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_search_list_init (SlSearchList *self)
{
  self->max_hits = DEFAULT_MAX_HITS;
  self->hits = g_array_new (FALSE, FALSE, sizeof (SlSearchHit));
}

SlSearchList *
sl_search_list_new (void)
{
  return g_object_new (SL_TYPE_SEARCH_LIST, NULL);
}

void
sl_search_list_set_source (SlSearchList               *self,
                           const SlTimeline           *timeline,
                           const SlEventStore * const *stores,
                           guint                       n_stores)
{
  g_return_if_fail (SL_IS_SEARCH_LIST (self));

  stop_search (self);
  self->timeline = timeline;
  self->stores = timeline != NULL ? stores : NULL;
  self->n_stores = timeline != NULL ? n_stores : 0;
  set_hits (self, g_array_new (FALSE, FALSE, sizeof (SlSearchHit)), 0);
}

void
sl_search_list_set_lock_func (SlSearchList     *self,
                              SlSearchLockFunc  lock,
                              SlSearchLockFunc  unlock,
                              gpointer          user_data)
{
  g_return_if_fail (SL_IS_SEARCH_LIST (self));
  g_return_if_fail ((lock == NULL) == (unlock == NULL));

  self->lock = lock;
  self->unlock = unlock;
  self->lock_data = user_data;
}

gboolean
sl_search_list_start (SlSearchList  *self,
                      const char    *text,
                      GError       **error)
{
  SlEventQuery *query;

  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  stop_search (self);
  g_free (self->text);
  self->text = g_strdup (text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
  set_hits (self, g_array_new (FALSE, FALSE, sizeof (SlSearchHit)), 0);
  if (self->timeline == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "there are no events to search");
      return FALSE;
    }
  query = sl_event_query_new (text, error);
  if (query == NULL)
    return FALSE;

  /* the hosts' names and clocks are taken here, on this thread */
  self->search = sl_timeline_search_new (self->timeline, self->stores, self->n_stores, query, self->max_hits);
  sl_timeline_search_set_lock_func (self->search, self->lock, self->unlock, self->lock_data);
  self->cancellable = g_cancellable_new ();
  self->finished = FALSE;
  self->progress = 0;
  self->started_us = g_get_monotonic_time ();
  self->thread = g_thread_new ("syncline-search", search_thread, self);
  self->poll_id = g_timeout_add (POLL_MS, poll_cb, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCHING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  return TRUE;
}

void
sl_search_list_clear (SlSearchList *self)
{
  g_return_if_fail (SL_IS_SEARCH_LIST (self));

  stop_search (self);
  g_clear_pointer (&self->text, g_free);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
  set_hits (self, g_array_new (FALSE, FALSE, sizeof (SlSearchHit)), 0);
}

const char *
sl_search_list_get_text (SlSearchList *self)
{
  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), NULL);
  return self->text;
}

gboolean
sl_search_list_get_searching (SlSearchList *self)
{
  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), FALSE);
  return self->thread != NULL;
}

double
sl_search_list_get_progress (SlSearchList *self)
{
  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), 0);
  return self->progress;
}

guint64
sl_search_list_get_n_matches (SlSearchList *self)
{
  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), 0);
  return self->n_matches;
}

double
sl_search_list_get_seconds (SlSearchList *self)
{
  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), 0);
  return self->seconds;
}

guint
sl_search_list_get_max_hits (SlSearchList *self)
{
  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), 0);
  return self->max_hits;
}

void
sl_search_list_set_max_hits (SlSearchList *self,
                             guint         max_hits)
{
  g_return_if_fail (SL_IS_SEARCH_LIST (self));

  max_hits = MAX (max_hits, 1);
  if (self->max_hits == max_hits)
    return;
  self->max_hits = max_hits;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_HITS]);
}

const SlSearchHit *
sl_search_list_get_hit (SlSearchList *self,
                        guint         position)
{
  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), NULL);

  if (position >= self->hits->len)
    return NULL;
  return &g_array_index (self->hits, SlSearchHit, position);
}

gboolean
sl_search_list_get_event (SlSearchList *self,
                          guint         position,
                          SlEvent      *out)
{
  const SlSearchHit *hit;
  const SlEventStore *store;
  const SlEvent *e;

  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  hit = sl_search_list_get_hit (self, position);
  if (hit == NULL || hit->host >= self->n_stores || (store = self->stores[hit->host]) == NULL)
    return FALSE;
  if (self->lock != NULL)
    self->lock (self->lock_data);
  if ((e = sl_event_store_get (store, hit->stream, hit->index)) != NULL)
    *out = *e;
  if (self->unlock != NULL)
    self->unlock (self->lock_data);
  return e != NULL;
}

/**
 * sl_search_list_forget_dropped:
 *
 * After the stores dropped their oldest events (a live session's
 * retention, sl_timeline_drop_before()): the hits on dropped events leave
 * the list, the others keep their order (the list is announced anew, so a
 * selection in it is cleared). A search still running skips what is
 * dropped by itself.
 *
 * @position: (inout) (optional): a position in the list, re-based on the
 *   kept hits (%G_MAXUINT when its hit was dropped)
 *
 * Returns: how many hits left
 */
guint
sl_search_list_forget_dropped (SlSearchList *self,
                               guint        *position)
{
  GArray *kept;
  guint removed, pos = position != NULL ? *position : G_MAXUINT, new_pos = G_MAXUINT;

  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), 0);

  if (self->hits->len == 0)
    return 0;
  kept = g_array_sized_new (FALSE, FALSE, sizeof (SlSearchHit), self->hits->len);
  if (self->lock != NULL)
    self->lock (self->lock_data);
  for (guint i = 0; i < self->hits->len; i++)
    {
      const SlSearchHit *hit = &g_array_index (self->hits, SlSearchHit, i);
      const SlEventStore *store = hit->host < self->n_stores ? self->stores[hit->host] : NULL;

      if (store != NULL && hit->index >= sl_event_store_get_first_index (store, hit->stream))
        {
          if (i == pos)
            new_pos = kept->len;
          g_array_append_val (kept, *hit);
        }
    }
  if (self->unlock != NULL)
    self->unlock (self->lock_data);
  removed = self->hits->len - kept->len;
  if (removed == 0)
    {
      g_array_unref (kept);
      return 0;
    }
  if (position != NULL)
    *position = new_pos;
  {
    guint64 dropped = self->n_dropped + removed;

    set_hits (self, kept, self->n_matches - MIN (self->n_matches, removed));
    self->n_dropped = dropped;
  }
  start_publishing (self);
  return removed;
}

/* Hits of the last search that the retention dropped since
 * (sl_search_list_forget_dropped()). */
guint64
sl_search_list_get_n_dropped (SlSearchList *self)
{
  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), 0);
  return self->n_dropped;
}

guint64
sl_search_list_get_n_scanned (SlSearchList *self)
{
  g_return_val_if_fail (SL_IS_SEARCH_LIST (self), 0);
  return self->scanned;
}
