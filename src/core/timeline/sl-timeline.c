/* sl-timeline.c: the control-flow rows of the hosts' event stores: hosts,
 * rows, the hosts' maps to the view, a selection's events, statistics
 * (the rows are built from the events in sl-timeline-build.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-timeline-private.h"

static const char *const state_names[SL_TIMELINE_N_STATES] = {
  [SL_TIMELINE_STATE_NONE] = "none",
  [SL_TIMELINE_STATE_UNKNOWN] = "unknown",
  [SL_TIMELINE_STATE_USER] = "user",
  [SL_TIMELINE_STATE_SYSCALL] = "syscall",
  [SL_TIMELINE_STATE_IRQ] = "irq",
  [SL_TIMELINE_STATE_SOFTIRQ] = "softirq",
  [SL_TIMELINE_STATE_RUNNABLE] = "runnable",
  [SL_TIMELINE_STATE_BLOCKED] = "blocked",
  [SL_TIMELINE_STATE_EXITED] = "exited",
  [SL_TIMELINE_STATE_IDLE] = "idle",
};

/* ---------------------------------------------------------------------- */
/* Strings, hosts, rows                                                    */

guint32
_sl_tl_intern (SlTimeline *self,
               const char *str)
{
  return sl_interner_intern (self->strings, str);
}

guint32
_sl_tl_host_str (SlTimeline *self,
                 SlTlHost   *h,
                 guint32     sid)
{
  guint32 *v;

  if (sid == 0 || h->store == NULL)
    return 0;
  if (sid >= h->str_map->len)
    g_array_set_size (h->str_map, sid + 1);
  v = &g_array_index (h->str_map, guint32, sid);
  if (*v == 0)
    *v = _sl_tl_intern (self, sl_event_store_get_string (h->store, sid));
  return *v;
}

guint
_sl_tl_row_new (SlTimeline        *self,
                SlTimelineRowKind  kind,
                guint              host,
                guint              parent,
                gint64             t)
{
  SlTlRow *r = g_new0 (SlTlRow, 1);
  guint id = self->rows->len;

  r->kind = kind;
  r->host = host;
  r->parent = parent;
  r->first = t;
  r->exited_at = G_MAXINT64;
  r->thread_row = SL_TIMELINE_NONE;
  r->prev_same_tid = SL_TIMELINE_NONE;
  r->cpu = SL_TIMELINE_NONE;
  g_ptr_array_add (self->rows, r);

  if (parent != SL_TIMELINE_NONE)
    {
      SlTlRow *p = sl_tl_row (self, parent);

      if (p->children == NULL)
        p->children = g_array_new (FALSE, FALSE, sizeof (guint));
      g_array_append_val (p->children, id);
    }
  return id;
}

static void
row_free (gpointer p)
{
  SlTlRow *r = p;

  _sl_tl_row_clear (r);
  if (r->children != NULL)
    g_array_unref (r->children);
  g_free (r);
}

void
_sl_tl_row_reparent (SlTimeline *self,
                     guint       row,
                     guint       parent)
{
  SlTlRow *r = sl_tl_row (self, row), *p;

  if (r->parent == parent)
    return;
  p = sl_tl_row (self, r->parent);
  for (guint i = 0; p->children != NULL && i < p->children->len; i++)
    if (g_array_index (p->children, guint, i) == row)
      {
        g_array_remove_index (p->children, i);
        break;
      }
  p = sl_tl_row (self, parent);
  if (p->children == NULL)
    p->children = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (p->children, row);
  r->parent = parent;
}

static void
host_free (gpointer p)
{
  SlTlHost *h = p;

  if (h == NULL)
    return;
  g_free (h->name);
  g_clear_pointer (&h->bound_rel, sl_relation_unref);
  g_clear_pointer (&h->rel_inv, sl_relation_unref);
  g_hash_table_destroy (h->threads);
  g_ptr_array_unref (h->all_threads);
  g_hash_table_destroy (h->processes);
  g_array_unref (h->cpus);
  g_array_unref (h->str_map);
  g_free (h);
}

SlTimeline *
sl_timeline_new (void)
{
  SlTimeline *self = g_new0 (SlTimeline, 1);

  self->hosts = g_ptr_array_new_with_free_func (host_free);
  self->rows = g_ptr_array_new_with_free_func (row_free);
  self->strings = sl_interner_new ();
  _sl_tl_arrows_init (self);
  return self;
}

void
sl_timeline_free (SlTimeline *self)
{
  if (self == NULL)
    return;

  _sl_tl_arrows_clear (self);
  _sl_tl_scratch_free (self);
  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->hosts);
  sl_interner_free (self->strings);
  g_free (self);
}

void
sl_timeline_set_host (SlTimeline         *self,
                      guint               host,
                      const char         *name,
                      const SlEventStore *store)
{
  SlTlHost *h;

  g_return_if_fail (self != NULL);
  g_return_if_fail (host < G_MAXUINT16);

  if (host >= self->hosts->len)
    g_ptr_array_set_size (self->hosts, host + 1);
  h = g_ptr_array_index (self->hosts, host);
  if (h != NULL)
    {
      g_return_if_fail (h->store == NULL || h->store == store);
      h->store = store;
      if (name != NULL && g_strcmp0 (name, h->name) != 0)
        {
          g_free (h->name);
          h->name = g_strdup (name);
          sl_tl_row (self, h->row)->name = _sl_tl_intern (self, name);
        }
      return;
    }

  h = g_new0 (SlTlHost, 1);
  h->name = g_strdup (name != NULL ? name : "");
  h->store = store;
  h->threads = g_hash_table_new (NULL, NULL);
  h->all_threads = g_ptr_array_new_with_free_func (g_free);
  h->processes = g_hash_table_new (NULL, NULL);
  h->cpus = g_array_new (FALSE, TRUE, sizeof (SlTlCpu));
  h->str_map = g_array_new (FALSE, TRUE, sizeof (guint32));
  h->first = G_MAXINT64;
  h->kept_from = G_MININT64;
  h->end = G_MININT64;
  sl_transform_init_identity (&h->to_view);
  sl_transform_init_identity (&h->from_view);
  h->bound_ns = NAN;
  g_ptr_array_index (self->hosts, host) = h;
  h->row = _sl_tl_row_new (self, SL_TIMELINE_ROW_HOST, host, SL_TIMELINE_NONE, 0);
  sl_tl_row (self, h->row)->name = _sl_tl_intern (self, h->name);
}

void
sl_timeline_add_reader_hosts (SlTimeline    *self,
                              SlTraceReader *reader)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (reader != NULL);

  for (guint i = 0; i < sl_trace_reader_get_n_hosts (reader); i++)
    sl_timeline_set_host (self, sl_trace_reader_get_engine_host (reader, i),
                          sl_trace_reader_get_host_name (reader, i),
                          sl_trace_reader_get_event_store (reader, i));
}

guint
sl_timeline_get_n_hosts (const SlTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->hosts->len;
}

/* ---------------------------------------------------------------------- */
/* Rows                                                                    */

guint
_sl_tl_thread_row_at (const SlTimeline *self,
                      SlTlHost         *h,
                      guint32           tid,
                      gint64            t)
{
  SlTlThread *th = sl_tl_thread_find (h, tid);
  guint row;

  if (th == NULL)
    return SL_TIMELINE_NONE;
  row = th->row;
  while (sl_tl_row (self, row)->first > t && sl_tl_row (self, row)->prev_same_tid != SL_TIMELINE_NONE)
    row = sl_tl_row (self, row)->prev_same_tid;
  return row;
}

gint64
_sl_tl_row_end (const SlTimeline *self,
                const SlTlRow    *row)
{
  const SlTlHost *h = sl_tl_host (self, row->host);

  return h != NULL && h->has_data ? h->end : G_MININT64;
}

guint
sl_timeline_get_n_rows (const SlTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->rows->len;
}

guint
sl_timeline_get_host_row (const SlTimeline *self,
                          guint             host)
{
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, SL_TIMELINE_NONE);

  h = sl_tl_host (self, host);
  return h != NULL ? h->row : SL_TIMELINE_NONE;
}

void
sl_timeline_get_row_info (const SlTimeline  *self,
                          guint              row,
                          SlTimelineRowInfo *info)
{
  const SlTlRow *r;
  const SlTlHost *h;

  g_return_if_fail (self != NULL);
  g_return_if_fail (row < self->rows->len);
  g_return_if_fail (info != NULL);

  r = sl_tl_row (self, row);
  h = sl_tl_host (self, r->host);
  info->kind = r->kind;
  info->host = r->host;
  info->parent = r->parent;
  info->tid = r->tid;
  info->pid = r->pid;
  info->ppid = r->ppid;
  info->cpu = r->cpu;
  info->name = sl_interner_get (self->strings, r->name);
  info->first = r->kind == SL_TIMELINE_ROW_HOST && h->has_data ? h->first : r->first;
  info->last = MIN (r->exited_at, _sl_tl_row_end (self, r));
  info->n_intervals = r->n_iv;
  info->thread_row = r->thread_row;
  info->n_children = r->children != NULL ? r->children->len : 0;
}

GArray *
sl_timeline_dup_children (const SlTimeline *self,
                          guint             row)
{
  const SlTlRow *r;
  GArray *ret = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (self != NULL, ret);
  g_return_val_if_fail (row < self->rows->len, ret);

  r = sl_tl_row (self, row);
  if (r->children != NULL)
    g_array_append_vals (ret, r->children->data, r->children->len);
  return ret;
}

guint
sl_timeline_find_thread (const SlTimeline *self,
                         guint             host,
                         guint32           tid,
                         gint64            local)
{
  SlTlHost *h;

  g_return_val_if_fail (self != NULL, SL_TIMELINE_NONE);

  h = sl_tl_host (self, host);
  return h != NULL ? _sl_tl_thread_row_at (self, h, tid, local) : SL_TIMELINE_NONE;
}

guint
sl_timeline_find_cpu (const SlTimeline *self,
                      guint             host,
                      guint             cpu)
{
  SlTlHost *h;

  g_return_val_if_fail (self != NULL, SL_TIMELINE_NONE);

  h = sl_tl_host (self, host);
  if (h == NULL || cpu >= h->cpus->len)
    return SL_TIMELINE_NONE;
  return g_array_index (h->cpus, SlTlCpu, cpu).row;
}

GArray *
sl_timeline_find_rows (const SlTimeline *self,
                       const char       *text)
{
  GArray *ret = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *needle = NULL;
  guint64 number = 0;
  gboolean is_number;

  g_return_val_if_fail (self != NULL, ret);
  g_return_val_if_fail (text != NULL, ret);

  needle = g_utf8_casefold (text, -1);
  is_number = g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &number, NULL);
  for (guint i = 0; i < self->rows->len; i++)
    {
      const SlTlRow *r = sl_tl_row (self, i);
      gboolean hit = FALSE;

      if (is_number && (r->kind == SL_TIMELINE_ROW_THREAD || r->kind == SL_TIMELINE_ROW_PROCESS))
        hit = r->tid == number || r->pid == number;
      if (!hit && r->name != 0)
        {
          g_autofree char *name = g_utf8_casefold (sl_interner_get (self->strings, r->name), -1);
          hit = strstr (name, needle) != NULL;
        }
      if (hit)
        g_array_append_val (ret, i);
    }
  return ret;
}

const char *
sl_timeline_get_string (const SlTimeline *self,
                        guint32           id)
{
  g_return_val_if_fail (self != NULL, NULL);
  return sl_interner_get (self->strings, id);
}

/* ---------------------------------------------------------------------- */
/* Views                                                                   */

/* A piecewise map is shown through its representative piece: the linear
 * transform the caller animates (sl_timeline_set_host_transform()) moves
 * the whole map with it. */
static void
update_anim (SlTlHost *h)
{
  SlTransform rep_inv;

  if (h->bound_rel == NULL || !h->has_rep || sl_relation_is_linear (h->bound_rel))
    return;
  sl_transform_invert (&h->rep, &rep_inv);
  sl_transform_compose (&h->to_view, &rep_inv, &h->anim);
  sl_transform_invert (&h->anim, &h->anim_inv);
}

void
sl_timeline_set_host_transform (SlTimeline        *self,
                                guint              host,
                                const SlTransform *to_view,
                                double             bound_ns)
{
  SlTlHost *h;

  g_return_if_fail (self != NULL);

  h = sl_tl_host (self, host);
  g_return_if_fail (h != NULL);

  if (to_view == NULL || sl_transform_is_identity (to_view))
    {
      h->has_view = FALSE;
      sl_transform_init_identity (&h->to_view);
      sl_transform_init_identity (&h->from_view);
    }
  else
    {
      h->has_view = TRUE;
      h->to_view = *to_view;
      sl_transform_invert (to_view, &h->from_view);
    }
  h->bound_ns = bound_ns;
  update_anim (h);
}

/**
 * sl_timeline_set_host_relation:
 * @to_view: (nullable): the host's relation to the view's clock: its map,
 *   piecewise, and its bound at every instant
 * @rep: (nullable): the piece of @to_view that
 *   sl_timeline_set_host_transform() is given for this host
 *
 * With @rep, the host is drawn through the whole piecewise map; the
 * transform set with sl_timeline_set_host_transform() moves it as a whole
 * (an animation from an old transform to @rep ends at @to_view exactly),
 * and %NULL there still shows raw local time. The bound serves the
 * uncertainty of messages on links that are not in the tree
 * (sl_timeline_set_link_relation()).
 */
void
sl_timeline_set_host_relation (SlTimeline        *self,
                               guint              host,
                               SlRelation        *to_view,
                               const SlTransform *rep)
{
  SlTlHost *h;

  g_return_if_fail (self != NULL);

  h = sl_tl_host (self, host);
  g_return_if_fail (h != NULL);

  if (to_view != h->bound_rel)
    {
      if (to_view != NULL)
        sl_relation_ref (to_view);
      g_clear_pointer (&h->bound_rel, sl_relation_unref);
      g_clear_pointer (&h->rel_inv, sl_relation_unref);
      h->bound_rel = to_view;
      if (to_view != NULL && !sl_relation_is_linear (to_view) && sl_relation_get_n_pieces (to_view) > 1)
        h->rel_inv = sl_relation_invert (to_view);
    }
  h->has_rep = rep != NULL;
  if (rep != NULL)
    h->rep = *rep;
  update_anim (h);
}

void
sl_timeline_clear_transforms (SlTimeline *self)
{
  g_return_if_fail (self != NULL);

  for (guint i = 0; i < self->hosts->len; i++)
    if (g_ptr_array_index (self->hosts, i) != NULL)
      sl_timeline_set_host_transform (self, i, NULL, NAN);
}

void
sl_timeline_sync_engine (SlTimeline *self,
                         SlEngine   *engine)
{
  guint n;
  g_autofree guint *ref = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (engine != NULL);

  n = sl_engine_get_n_hosts (engine);
  ref = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    {
      SlHostInfo hi = { 0 };

      sl_engine_get_host_info (engine, i, &hi);
      ref[i] = hi.reference;
      if (sl_tl_host (self, i) != NULL)
        {
          sl_timeline_set_host_relation (self, i, hi.relation, &hi.to_reference);
          sl_timeline_set_host_transform (self, i, &hi.to_reference, hi.bound_ns);
        }
      sl_host_info_clear (&hi);
    }
  for (guint l = 0; l < sl_engine_get_n_links (engine); l++)
    {
      SlLinkInfo li;

      sl_engine_get_link_info (engine, l, &li);
      if (ref[li.a] != ref[li.b])
        sl_timeline_set_link_bound (self, li.a, li.b, NAN);
      else if (li.in_tree)
        {
          g_autoptr(SlRelation) rel = sl_engine_get_link_relation (engine, l);

          sl_timeline_set_link_relation (self, li.a, li.b, rel);
        }
      else
        sl_timeline_set_link_relation (self, li.a, li.b, NULL);
    }
}

gint64
sl_timeline_to_view (const SlTimeline *self,
                     guint             host,
                     gint64            local)
{
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, local);

  h = sl_tl_host (self, host);
  if (h == NULL || !h->has_view)
    return local;
  if (piecewise_view (h))
    return sl_transform_apply (&h->anim, sl_relation_apply (h->bound_rel, local));
  return sl_transform_apply (&h->to_view, local);
}

gint64
sl_timeline_from_view (const SlTimeline *self,
                       guint             host,
                       gint64            view)
{
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, view);

  h = sl_tl_host (self, host);
  if (h == NULL || !h->has_view)
    return view;
  if (piecewise_view (h))
    return sl_relation_apply (h->rel_inv, sl_transform_apply (&h->anim_inv, view));
  return sl_transform_apply (&h->from_view, view);
}

/**
 * sl_timeline_drop_before:
 * @host: the engine's host index
 * @time: host-local ns
 *
 * Bounded memory for live sessions: drops the host's states and the
 * messages it sent before @time (whole blocks of intervals, so a little
 * before @time may stay) and its store's events before @time (the caller
 * owns the store and holds its lock). Row indices stay (a row whose
 * states were all dropped keeps its last one); interval indices of the
 * host's rows move, so none is kept across this call. The host's time
 * range then begins at @time at the earliest; sl_timeline_get_kept_from()
 * says where.
 *
 * Returns: how many intervals, messages and events were dropped
 */
guint64
sl_timeline_drop_before (SlTimeline   *self,
                         guint         host,
                         SlEventStore *store,
                         gint64        time)
{
  SlTlHost *h;
  guint64 dropped = 0;

  g_return_val_if_fail (self != NULL, 0);

  h = sl_tl_host (self, host);
  if (h == NULL || time <= h->kept_from)
    return 0;
  g_return_val_if_fail (store == NULL || store == h->store, 0);

  h->kept_from = time;
  if (h->has_data)
    h->first = MAX (h->first, MIN (time, h->end));
  for (guint i = 0; i < self->rows->len; i++)
    {
      SlTlRow *r = sl_tl_row (self, i);

      if (r->host == host && r->kind != SL_TIMELINE_ROW_HOST)
        dropped += _sl_tl_row_drop_before (r, time);
    }
  dropped += _sl_tl_arrows_drop_before (self, host, time);
  if (store != NULL)
    {
      dropped += sl_event_store_drop_before (store, time);
      for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
        h->consumed[s] = MAX (h->consumed[s], sl_event_store_get_first_index (store, s));
      h->net_cursor = MAX (h->net_cursor, sl_event_store_get_first_index (store, SL_EVENT_STREAM_NET));
    }
  return dropped;
}

/* Host-local time from which the host's data is kept (G_MININT64: all of
 * it; see sl_timeline_drop_before()). */
gint64
sl_timeline_get_kept_from (const SlTimeline *self,
                           guint             host)
{
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, G_MININT64);

  h = sl_tl_host (self, host);
  return h != NULL ? h->kept_from : G_MININT64;
}

gboolean
sl_timeline_get_time_range (const SlTimeline *self,
                            guint             host,
                            gint64           *first,
                            gint64           *last)
{
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, FALSE);

  h = sl_tl_host (self, host);
  if (h == NULL || !h->has_data)
    return FALSE;
  if (first != NULL)
    *first = h->first;
  if (last != NULL)
    *last = h->end;
  return TRUE;
}

gboolean
sl_timeline_get_view_range (const SlTimeline *self,
                            gint64           *first,
                            gint64           *last)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < self->hosts->len; i++)
    {
      const SlTlHost *h = g_ptr_array_index (self->hosts, i);

      if (h == NULL || !h->has_data)
        continue;
      lo = MIN (lo, sl_timeline_to_view (self, i, h->first));
      hi = MAX (hi, sl_timeline_to_view (self, i, h->end));
    }
  if (lo > hi)
    return FALSE;
  if (first != NULL)
    *first = lo;
  if (last != NULL)
    *last = hi;
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Events of a selection                                                   */

static gboolean
event_concerns (const SlEvent *e,
                const SlTlRow *r,
                GHashTable    *tids)
{
  switch (r->kind)
    {
    case SL_TIMELINE_ROW_HOST:
      return TRUE;

    case SL_TIMELINE_ROW_CPU:
      return e->cpu == r->cpu;

    case SL_TIMELINE_ROW_PROCESS:
      if (e->kind == SL_EVENT_SCHED_SWITCH || e->kind == SL_EVENT_PROCESS_FORK)
        return g_hash_table_contains (tids, GUINT_TO_POINTER (e->tid)) ||
               g_hash_table_contains (tids, GUINT_TO_POINTER (e->arg));
      return e->tid != 0 && g_hash_table_contains (tids, GUINT_TO_POINTER (e->tid));

    case SL_TIMELINE_ROW_THREAD:
    default:
      if (e->kind == SL_EVENT_SCHED_SWITCH || e->kind == SL_EVENT_PROCESS_FORK)
        return e->tid == r->tid || e->arg == r->tid;
      return e->tid == r->tid;
    }
}

static int
event_cmp (gconstpointer a,
           gconstpointer b)
{
  const SlEvent *x = a, *y = b;

  return x->time < y->time ? -1 : x->time > y->time;
}

GArray *
sl_timeline_dup_row_events (const SlTimeline *self,
                            guint             row,
                            gint64            t0,
                            gint64            t1,
                            guint             max_events)
{
  GArray *ret = g_array_new (FALSE, FALSE, sizeof (SlEvent));
  g_autoptr(GHashTable) tids = NULL;
  const SlTlRow *r;
  SlTlHost *h;

  g_return_val_if_fail (self != NULL, ret);
  g_return_val_if_fail (row < self->rows->len, ret);

  r = sl_tl_row (self, row);
  h = sl_tl_host (self, r->host);
  if (h == NULL || h->store == NULL || t1 <= t0)
    return ret;

  if (r->kind == SL_TIMELINE_ROW_THREAD)
    {
      t0 = MAX (t0, r->first);
      if (r->exited_at != G_MAXINT64)
        t1 = MIN (t1, r->exited_at + 1);
    }
  else if (r->kind == SL_TIMELINE_ROW_PROCESS)
    {
      tids = g_hash_table_new (NULL, NULL);
      for (guint i = 0; r->children != NULL && i < r->children->len; i++)
        g_hash_table_add (tids, GUINT_TO_POINTER (sl_tl_row (self, g_array_index (r->children, guint, i))->tid));
    }

  for (guint s = 0; s < SL_EVENT_N_STREAMS; s++)
    {
      guint64 n = MIN (sl_event_store_get_n_events (h->store, s), h->consumed[s]);
      guint kept = 0;

      if (s == SL_EVENT_STREAM_IRQ && (r->kind == SL_TIMELINE_ROW_THREAD || r->kind == SL_TIMELINE_ROW_PROCESS))
        continue;
      for (guint64 k = sl_event_store_lower_bound (h->store, s, t0); k < n; k++)
        {
          const SlEvent *e = sl_event_store_get (h->store, s, k);

          if (e->time >= t1)
            break;
          if (!event_concerns (e, r, tids))
            continue;
          g_array_append_val (ret, *e);
          if (max_events > 0 && ++kept >= max_events)
            break;
        }
    }
  g_array_sort (ret, event_cmp);
  if (max_events > 0 && ret->len > max_events)
    g_array_set_size (ret, max_events);
  return ret;
}

/* ---------------------------------------------------------------------- */
/* Statistics                                                              */

void
sl_timeline_get_stats (const SlTimeline *self,
                       SlTimelineStats  *stats)
{
  gsize other = sizeof *self;

  g_return_if_fail (self != NULL);
  g_return_if_fail (stats != NULL);

  memset (stats, 0, sizeof *stats);
  stats->rows = self->rows->len;
  for (guint i = 0; i < self->rows->len; i++)
    {
      const SlTlRow *r = sl_tl_row (self, i);

      stats->threads += r->kind == SL_TIMELINE_ROW_THREAD;
      stats->intervals += r->n_iv;
      stats->interval_bytes += _sl_tl_row_memory (r);
      other += sizeof *r + sizeof (gpointer);
      if (r->children != NULL)
        other += r->children->len * sizeof (guint) + 32;
    }
  for (guint i = 0; i < self->hosts->len; i++)
    {
      const SlTlHost *h = g_ptr_array_index (self->hosts, i);

      if (h == NULL)
        continue;
      other += sizeof *h + h->all_threads->len * (sizeof (SlTlThread) + 4 * sizeof (gpointer)) +
               h->cpus->len * sizeof (SlTlCpu) + h->str_map->len * sizeof (guint32) +
               g_hash_table_size (h->processes) * 4 * sizeof (gpointer);
    }
  other += sl_interner_get_memory_size (self->strings);
  stats->arrows = self->n_arrows;
  stats->pending_arrows = self->pending->len;
  stats->events = self->events;
  stats->arrow_bytes = _sl_tl_arrows_memory (self);
  stats->other_bytes = other;
}

const char *
sl_timeline_state_to_string (SlTimelineState state)
{
  g_return_val_if_fail (state < SL_TIMELINE_N_STATES, NULL);
  return state_names[state];
}

const char *
sl_timeline_row_kind_to_string (SlTimelineRowKind kind)
{
  switch (kind)
    {
    case SL_TIMELINE_ROW_HOST:
      return "host";
    case SL_TIMELINE_ROW_PROCESS:
      return "process";
    case SL_TIMELINE_ROW_THREAD:
      return "thread";
    case SL_TIMELINE_ROW_CPU:
      return "cpu";
    default:
      return NULL;
    }
}
