/* sl-timeline-arrows.c: matched packets as message arrows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-timeline-private.h"

G_STATIC_ASSERT (sizeof (SlTlArrow) == 32);

/* Matches arrive from the engine while the reader still appends to the
 * stores on its workers, so they wait here until sl_timeline_update() has
 * consumed both ends' events and can name their threads. */
typedef struct
{
  guint32 send_host;
  guint32 recv_host;
  guint32 conn;
  guint32 pad;
  gint64  send_time;
  gint64  recv_time;
} Pending;

typedef struct
{
  guint32 host_lo;
  guint32 host_hi;
  guint8  family;
  guint8  pad[3];
  guint16 port_lo;
  guint16 port_hi;
  guint8  addr_lo[16];
  guint8  addr_hi[16];
} ConnKey;

static guint
conn_key_hash (gconstpointer p)
{
  const guint8 *b = p;
  guint h = 2166136261u;

  for (gsize i = 0; i < sizeof (ConnKey); i++)
    h = (h ^ b[i]) * 16777619u;
  return h;
}

static gboolean
conn_key_equal (gconstpointer a,
                gconstpointer b)
{
  return memcmp (a, b, sizeof (ConnKey)) == 0;
}

static void
lane_free (gpointer p)
{
  SlTlLane *l = p;

  g_clear_pointer (&l->link, sl_relation_unref);
  g_free (l->a);
  g_free (l);
}

/* A pending match's end as the builder's thread resolved it once its host
 * was built: what _sl_tl_arrows_resolve() finds at the end, a built host
 * no longer changing. The arrows are made there too once both hosts are
 * built (early_make()), each lane's in the matches' order, so the lanes
 * are the same. */
typedef struct
{
  guint32 row;
  guint16 cpu;
  guint16 known;
} End;

typedef struct
{
  /* pending index × 2, + 1 for the receive end */
  guint64 ref;
  gint64  time;
} Waiting;

/* End.known once the builder's thread has made the match's arrow (on its
 * send end) */
#define END_MADE 2

/* A lane's arrows as the builder's thread makes them: each lane's matches
 * in their order, from its first as long as each has both ends known once
 * both hosts are built; from the first that has not, the lane's matches
 * wait for _sl_tl_arrows_resolve() (which then finds the same lane). */
typedef struct
{
  SlTlLane lane;
  /* the pending index of its first arrow */
  guint64  first;
  gboolean late;
} EarlyLane;

struct _SlTlEarly
{
  /* End[2] per pending match taken so far */
  GArray     *ends;
  /* per host: Waiting ends, until the host is built */
  GPtrArray  *waiting;
  GArray     *built;
  GArray     *fresh;
  /* EarlyLane by (send host << 16 | receive host) */
  GHashTable *lanes;
  /* arrows made per connection */
  GArray     *conn_arrows;
};

static void
waiting_free (gpointer p)
{
  if (p != NULL)
    g_array_unref (p);
}

static void
early_lane_free (gpointer p)
{
  EarlyLane *el = p;

  g_free (el->lane.a);
  g_free (el);
}

static void
early_free (SlTlEarly *e)
{
  g_array_unref (e->ends);
  g_ptr_array_unref (e->waiting);
  g_array_unref (e->built);
  g_array_unref (e->fresh);
  g_hash_table_destroy (e->lanes);
  g_array_unref (e->conn_arrows);
  g_free (e);
}

void
_sl_tl_arrows_init (SlTimeline *self)
{
  g_mutex_init (&self->pending_lock);
  self->pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  self->lanes = g_ptr_array_new_with_free_func (lane_free);
  self->lane_by_pair = g_hash_table_new (NULL, NULL);
  self->conns = g_array_new (FALSE, TRUE, sizeof (SlTimelineConnection));
  self->conn_by_key = g_hash_table_new_full (conn_key_hash, conn_key_equal, g_free, NULL);
}

void
_sl_tl_arrows_clear (SlTimeline *self)
{
  g_clear_pointer (&self->early, early_free);
  g_mutex_clear (&self->pending_lock);
  g_array_unref (self->pending);
  g_ptr_array_unref (self->lanes);
  g_hash_table_destroy (self->lane_by_pair);
  g_array_unref (self->conns);
  g_hash_table_destroy (self->conn_by_key);
}

gsize
_sl_tl_arrows_memory (const SlTimeline *self)
{
  gsize size = self->pending->len * sizeof (Pending) + self->conns->len * sizeof (SlTimelineConnection);

  for (guint i = 0; i < self->lanes->len; i++)
    {
      const SlTlLane *l = g_ptr_array_index (self->lanes, i);
      size += sizeof *l + l->cap * sizeof (SlTlArrow);
    }
  return size;
}

static SlTlLane *
lane_get (SlTimeline *self,
          guint       send_host,
          guint       recv_host)
{
  gpointer key = GUINT_TO_POINTER ((send_host << 16) | recv_host);
  gpointer v;

  if (g_hash_table_lookup_extended (self->lane_by_pair, key, NULL, &v))
    return g_ptr_array_index (self->lanes, GPOINTER_TO_UINT (v));

  /* both directions at once, so a link's bound reaches both */
  for (guint d = 0; d < 2; d++)
    {
      SlTlLane *l = g_new0 (SlTlLane, 1);

      l->send_host = d == 0 ? send_host : recv_host;
      l->recv_host = d == 0 ? recv_host : send_host;
      l->min_delta = G_MAXINT64;
      l->max_delta = G_MININT64;
      l->uncertainty_ns = NAN;
      g_hash_table_insert (self->lane_by_pair, GUINT_TO_POINTER ((l->send_host << 16) | l->recv_host),
                           GUINT_TO_POINTER (self->lanes->len));
      g_ptr_array_add (self->lanes, l);
    }
  v = g_hash_table_lookup (self->lane_by_pair, key);
  return g_ptr_array_index (self->lanes, GPOINTER_TO_UINT (v));
}

void
sl_timeline_set_link_bound (SlTimeline *self,
                            guint       host_a,
                            guint       host_b,
                            double      uncertainty_ns)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (host_a < G_MAXUINT16 && host_b < G_MAXUINT16);
  g_return_if_fail (host_a != host_b);

  for (int d = 0; d < 2; d++)
    {
      SlTlLane *l = d == 0 ? lane_get (self, host_a, host_b) : lane_get (self, host_b, host_a);

      l->mode = SL_TL_UNCERTAINTY_CONSTANT;
      l->uncertainty_ns = uncertainty_ns;
      g_clear_pointer (&l->link, sl_relation_unref);
    }
}

/**
 * sl_timeline_set_link_relation:
 * @a_to_b: (nullable): the link's relation from @host_a's clock to
 *   @host_b's, when the link is in the tree
 *
 * A message's uncertainty becomes the link's bound at the message's
 * instant; without @a_to_b, the sum of the two hosts' bounds at its send
 * and receive instants (sl_timeline_set_host_relation()).
 */
void
sl_timeline_set_link_relation (SlTimeline *self,
                               guint       host_a,
                               guint       host_b,
                               SlRelation *a_to_b)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (host_a < G_MAXUINT16 && host_b < G_MAXUINT16);
  g_return_if_fail (host_a != host_b);

  for (int d = 0; d < 2; d++)
    {
      SlTlLane *l = d == 0 ? lane_get (self, host_a, host_b) : lane_get (self, host_b, host_a);

      l->mode = a_to_b != NULL ? SL_TL_UNCERTAINTY_LINK : SL_TL_UNCERTAINTY_HOSTS;
      l->uncertainty_ns = NAN;
      if (a_to_b != NULL)
        sl_relation_ref (a_to_b);
      g_clear_pointer (&l->link, sl_relation_unref);
      l->link = a_to_b;
      l->link_from_b = d == 1;
    }
}

static double
arrow_uncertainty (const SlTimeline *self,
                   const SlTlLane   *l,
                   const SlTlArrow  *a)
{
  switch (l->mode)
    {
    case SL_TL_UNCERTAINTY_LINK:
      return sl_relation_bound_at (l->link, l->link_from_b ? sl_relation_preimage (l->link, a->send_time)
                                                           : a->send_time);
    case SL_TL_UNCERTAINTY_HOSTS:
      {
        const SlTlHost *hs = sl_tl_host (self, l->send_host), *hr = sl_tl_host (self, l->recv_host);

        if (hs == NULL || hr == NULL || hs->bound_rel == NULL || hr->bound_rel == NULL)
          return NAN;
        return sl_relation_bound_at (hs->bound_rel, a->send_time) +
               sl_relation_bound_at (hr->bound_rel, a->recv_time);
      }
    case SL_TL_UNCERTAINTY_CONSTANT:
    default:
      return l->uncertainty_ns;
    }
}

static guint32
conn_get (SlTimeline          *self,
          const SlMatch       *m,
          const SlPacketEvent *ev)
{
  ConnKey key;
  gpointer v;
  SlTimelineConnection c = { 0 };
  gboolean swap;
  guint id;

  memset (&key, 0, sizeof key);
  key.host_lo = MIN (m->send_host, m->recv_host);
  key.host_hi = MAX (m->send_host, m->recv_host);
  if (ev != NULL && ev->family != 0)
    {
      int cmp = memcmp (ev->saddr, ev->daddr, 16);

      swap = cmp > 0 || (cmp == 0 && ev->sport > ev->dport);
      key.family = ev->family;
      key.port_lo = swap ? ev->dport : ev->sport;
      key.port_hi = swap ? ev->sport : ev->dport;
      memcpy (key.addr_lo, swap ? ev->daddr : ev->saddr, 16);
      memcpy (key.addr_hi, swap ? ev->saddr : ev->daddr, 16);
    }

  if (g_hash_table_lookup_extended (self->conn_by_key, &key, NULL, &v))
    return GPOINTER_TO_UINT (v);

  c.host_a = m->send_host;
  c.host_b = m->recv_host;
  if (ev != NULL)
    {
      c.family = ev->family;
      c.port_a = ev->sport;
      c.port_b = ev->dport;
      memcpy (c.addr_a, ev->saddr, 16);
      memcpy (c.addr_b, ev->daddr, 16);
    }
  id = self->conns->len;
  g_array_append_val (self->conns, c);
  g_hash_table_insert (self->conn_by_key, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (id));
  return id;
}

void
sl_timeline_add_match (SlTimeline          *self,
                       const SlMatch       *match,
                       const SlPacketEvent *event)
{
  Pending p = { 0 };

  g_return_if_fail (self != NULL);
  g_return_if_fail (match != NULL);

  if (match->send_host == match->recv_host ||
      match->send_host >= G_MAXUINT16 || match->recv_host >= G_MAXUINT16)
    return;
  p.send_host = match->send_host;
  p.recv_host = match->recv_host;
  p.send_time = match->send_time;
  p.recv_time = match->recv_time;
  p.conn = conn_get (self, match, event);
  g_mutex_lock (&self->pending_lock);
  g_array_append_val (self->pending, p);
  g_mutex_unlock (&self->pending_lock);
}

static void
match_cb (const SlMatch       *match,
          const SlPacketEvent *event,
          gpointer             user_data)
{
  sl_timeline_add_match (user_data, match, event);
}

void
sl_timeline_connect_engine (SlTimeline *self,
                            SlEngine   *engine)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (engine != NULL);

  sl_engine_set_match_func (engine, match_cb, self);
}

/* First index in [first, n) of @stream whose time is >= @t (first: the
 * first kept index), galloping from @hint: consecutive matches are close in
 * time. */
static guint64
store_lower_bound (const SlEventStore *store,
                   SlEventStream       stream,
                   guint64             n,
                   guint64             hint,
                   gint64              t)
{
  guint64 first = sl_event_store_get_first_index (store, stream), lo, hi, step = 1;

  if (n <= first)
    return n;
  hint = CLAMP (hint, first, n - 1);
  if (sl_event_store_get (store, stream, hint)->time < t)
    {
      /* time(lo) < t */
      lo = hint;
      while (lo + step < n && sl_event_store_get (store, stream, lo + step)->time < t)
        {
          lo += step;
          step <<= 1;
        }
      hi = MIN (lo + step, n);
    }
  else
    {
      /* time(hi) >= t */
      hi = hint;
      while (hi >= first + step && sl_event_store_get (store, stream, hi - step)->time >= t)
        {
          hi -= step;
          step <<= 1;
        }
      if (hi < first + step)
        {
          if (sl_event_store_get (store, stream, first)->time >= t)
            return first;
          lo = first;
        }
      else
        lo = hi - step;
    }
  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (sl_event_store_get (store, stream, mid)->time < t)
        lo = mid;
      else
        hi = mid;
    }
  return hi;
}

/* The index of @h's packet event of @kind at local @t, or G_MAXUINT64;
 * @cursor: where the search starts (and the place found) */
static guint64
packet_event (const SlTlHost *h,
              gint64          t,
              SlEventKind     kind,
              guint64        *cursor)
{
  const SlEventStore *store = h->store;
  guint64 n, k, first;

  if (store == NULL)
    return G_MAXUINT64;
  n = MIN (sl_event_store_get_n_events (store, SL_EVENT_STREAM_NET), h->consumed[SL_EVENT_STREAM_NET]);
  first = sl_event_store_get_first_index (store, SL_EVENT_STREAM_NET);
  if (n <= first)
    return G_MAXUINT64;
  k = store_lower_bound (store, SL_EVENT_STREAM_NET, n, *cursor, t);
  *cursor = k;
  for (guint64 i = k; i < n; i++)
    {
      const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_NET, i);

      if (e->time != t)
        break;
      if (e->kind == kind)
        return i;
    }
  /* the stream may hold sub-microsecond inversions: look around */
  for (guint64 i = k > first + 16 ? k - 16 : first; i < MIN (n, k + 16); i++)
    {
      const SlEvent *e = sl_event_store_get (store, SL_EVENT_STREAM_NET, i);

      if (e->time == t && e->kind == kind)
        return i;
    }
  return G_MAXUINT64;
}

static void
resolve_end (SlTimeline *self,
             SlTlHost   *h,
             guint       host,
             gint64      t,
             SlEventKind kind,
             guint32    *row,
             guint16    *cpu)
{
  guint64 i;
  const SlEvent *hit;
  guint r;

  *row = h->row;
  *cpu = SL_TIMELINE_NO_CPU;
  i = packet_event (h, t, kind, &h->net_cursor);
  if (i == G_MAXUINT64)
    return;
  hit = sl_event_store_get (h->store, SL_EVENT_STREAM_NET, i);

  *cpu = hit->cpu;
  r = hit->tid != 0 ? _sl_tl_thread_row_at (self, h, hit->tid, t) : SL_TIMELINE_NONE;
  /* kernel events on an idle CPU (softirq) belong to the CPU */
  if (r == SL_TIMELINE_NONE)
    r = sl_timeline_find_cpu (self, host, hit->cpu);
  if (r != SL_TIMELINE_NONE)
    *row = r;
}

static void
lane_insert (SlTlLane        *l,
             const SlTlArrow *a)
{
  guint64 k = l->n;
  gint64 delta = a->recv_time - a->send_time;

  if (l->n == l->cap)
    {
      l->cap = l->cap < 16 ? 16 : l->cap + l->cap / 2;
      l->a = g_renew (SlTlArrow, l->a, l->cap);
    }
  /* nearly sorted already: matches complete in receive order */
  while (k > 0 && l->a[k - 1].send_time > a->send_time)
    k--;
  if (k < l->n)
    memmove (&l->a[k + 1], &l->a[k], (l->n - k) * sizeof (SlTlArrow));
  l->a[k] = *a;
  l->n++;
  l->min_delta = MIN (l->min_delta, delta);
  l->max_delta = MAX (l->max_delta, delta);
}

static gboolean
end_known (const SlTlHost *h,
           gint64          t)
{
  return h->store == NULL || (h->has_data && t <= h->end);
}

static void
early_resolve (SlTimeline *self,
               guint64     ref,
               guint       host,
               gint64      t)
{
  SlTlHost *h = sl_tl_host (self, host);
  End *end = &g_array_index (self->early->ends, End, ref);

  if (h == NULL || !end_known (h, t))
    return;
  resolve_end (self, h, host, t, ref & 1 ? SL_EVENT_PACKET_RECV : SL_EVENT_PACKET_SEND, &end->row, &end->cpu);
  end->known = TRUE;
}

static gboolean
early_built (const SlTlEarly *e,
             guint            host)
{
  return host < e->built->len && g_array_index (e->built, gboolean, host);
}

static void
arrow_count (SlTimeline      *self,
             const SlTlArrow *a)
{
  sl_tl_row (self, a->send_row)->n_msgs++;
  sl_tl_row (self, a->recv_row)->n_msgs++;
}

/* The builder's thread, once match @i's ends may both be resolved: its
 * arrow, made now in its lane if every earlier match of the lane was */
static void
early_make (SlTimeline    *self,
            guint64        i,
            const Pending *p)
{
  SlTlEarly *e = self->early;
  End *ends = &g_array_index (e->ends, End, i * 2);
  gpointer key = GUINT_TO_POINTER ((p->send_host << 16) | p->recv_host);
  EarlyLane *el;
  SlTlArrow a;

  if (!early_built (e, p->send_host) || !early_built (e, p->recv_host))
    return;
  el = g_hash_table_lookup (e->lanes, key);
  if (el == NULL)
    {
      el = g_new0 (EarlyLane, 1);
      el->lane.send_host = p->send_host;
      el->lane.recv_host = p->recv_host;
      el->lane.min_delta = G_MAXINT64;
      el->lane.max_delta = G_MININT64;
      el->first = i;
      g_hash_table_insert (e->lanes, key, el);
    }
  if (el->late || !ends[0].known || !ends[1].known)
    {
      el->late = TRUE;
      return;
    }
  a.send_time = p->send_time;
  a.recv_time = p->recv_time;
  a.conn = p->conn;
  a.send_row = ends[0].row;
  a.send_cpu = ends[0].cpu;
  a.recv_row = ends[1].row;
  a.recv_cpu = ends[1].cpu;
  lane_insert (&el->lane, &a);
  arrow_count (self, &a);
  if (p->conn >= e->conn_arrows->len)
    g_array_set_size (e->conn_arrows, p->conn + 1);
  g_array_index (e->conn_arrows, guint64, p->conn)++;
  ends[0].known = END_MADE;
}

/* The builder's thread: the matches added since the last call, each end
 * resolved at once if its host is built, else waiting for it. */
void
_sl_tl_arrows_take_new (SlTimeline *self)
{
  SlTlEarly *e = self->early;
  guint64 from;

  if (e == NULL)
    {
      e = self->early = g_new0 (SlTlEarly, 1);
      e->ends = g_array_new (FALSE, TRUE, sizeof (End));
      e->waiting = g_ptr_array_new_with_free_func (waiting_free);
      e->built = g_array_new (FALSE, TRUE, sizeof (gboolean));
      e->fresh = g_array_new (FALSE, FALSE, sizeof (Pending));
      e->lanes = g_hash_table_new_full (NULL, NULL, NULL, early_lane_free);
      e->conn_arrows = g_array_new (FALSE, TRUE, sizeof (guint64));
    }
  from = e->ends->len / 2;
  g_mutex_lock (&self->pending_lock);
  g_array_set_size (e->fresh, 0);
  if (self->pending->len > from)
    g_array_append_vals (e->fresh, &g_array_index (self->pending, Pending, from), self->pending->len - from);
  g_mutex_unlock (&self->pending_lock);
  g_array_set_size (e->ends, (from + e->fresh->len) * 2);

  for (guint i = 0; i < e->fresh->len; i++)
    {
      const Pending *p = &g_array_index (e->fresh, Pending, i);

      for (guint side = 0; side < 2; side++)
        {
          guint host = side ? p->recv_host : p->send_host;
          Waiting w = { (from + i) * 2 + side, side ? p->recv_time : p->send_time };

          if (early_built (e, host))
            early_resolve (self, w.ref, host, w.time);
          else
            {
              if (host >= e->waiting->len)
                g_ptr_array_set_size (e->waiting, host + 1);
              if (g_ptr_array_index (e->waiting, host) == NULL)
                g_ptr_array_index (e->waiting, host) = g_array_new (FALSE, FALSE, sizeof (Waiting));
              g_array_append_val (g_ptr_array_index (e->waiting, host), w);
            }
        }
      early_make (self, from + i, p);
    }
}

/* The builder's thread, once @host is built: the ends waiting for it, and
 * the matches added since. */
void
_sl_tl_arrows_host_built (SlTimeline *self,
                          guint       host)
{
  SlTlEarly *e;
  GArray *waiting;

  _sl_tl_arrows_take_new (self);
  e = self->early;
  if (host >= e->built->len)
    g_array_set_size (e->built, host + 1);
  g_array_index (e->built, gboolean, host) = TRUE;
  if (host >= e->waiting->len || (waiting = g_ptr_array_index (e->waiting, host)) == NULL)
    return;
  /* the waiting ends' matches (the engine's thread may grow the array
   * meanwhile: copies, taken under its lock) */
  g_array_set_size (e->fresh, waiting->len);
  g_mutex_lock (&self->pending_lock);
  for (guint i = 0; i < waiting->len; i++)
    g_array_index (e->fresh, Pending, i) = g_array_index (self->pending, Pending, g_array_index (waiting, Waiting, i).ref / 2);
  g_mutex_unlock (&self->pending_lock);
  for (guint i = 0; i < waiting->len; i++)
    {
      const Waiting *w = &g_array_index (waiting, Waiting, i);

      early_resolve (self, w->ref, host, w->time);
      early_make (self, w->ref / 2, &g_array_index (e->fresh, Pending, i));
    }
  g_ptr_array_index (e->waiting, host) = NULL;
  g_array_unref (waiting);
}

static void
pending_end (SlTimeline *self,
             SlTlHost   *h,
             guint       host,
             guint64     ref,
             gint64      t,
             guint32    *row,
             guint16    *cpu)
{
  const End *end;

  if (self->early != NULL && ref < self->early->ends->len &&
      (end = &g_array_index (self->early->ends, End, ref))->known)
    {
      *row = end->row;
      *cpu = end->cpu;
    }
  else
    resolve_end (self, h, host, t, ref & 1 ? SL_EVENT_PACKET_RECV : SL_EVENT_PACKET_SEND, row, cpu);
}

static int
early_lane_cmp (gconstpointer a,
                gconstpointer b)
{
  const EarlyLane *x = *(EarlyLane *const *) a, *y = *(EarlyLane *const *) b;

  return x->first < y->first ? -1 : x->first > y->first;
}

/* The lanes the builder's thread began, by their first arrows */
static GPtrArray *
early_lanes (SlTlEarly *e)
{
  GPtrArray *ret = g_ptr_array_new ();
  GHashTableIter it;
  gpointer v;

  if (e == NULL)
    return ret;
  g_hash_table_iter_init (&it, e->lanes);
  while (g_hash_table_iter_next (&it, NULL, &v))
    if (((EarlyLane *) v)->lane.n > 0)
      g_ptr_array_add (ret, v);
  g_ptr_array_sort (ret, early_lane_cmp);
  return ret;
}

/* @el's arrows, the first of its lane's, become the lane's: made at its
 * first arrow, as the lanes are made in the matches' order */
static void
early_lane_adopt (SlTimeline *self,
                  EarlyLane  *el)
{
  SlTlLane *l = lane_get (self, el->lane.send_host, el->lane.recv_host);

  g_assert (l->n == 0);
  g_free (l->a);
  l->a = g_steal_pointer (&el->lane.a);
  l->n = el->lane.n;
  l->cap = el->lane.cap;
  l->min_delta = el->lane.min_delta;
  l->max_delta = el->lane.max_delta;
  self->n_arrows += l->n;
}

void
_sl_tl_arrows_resolve (SlTimeline *self)
{
  SlTlEarly *e = self->early;
  g_autoptr(GPtrArray) adopt = early_lanes (e);
  guint kept = 0, next = 0;

  for (guint i = 0; i < self->pending->len; i++)
    {
      const Pending *p = &g_array_index (self->pending, Pending, i);
      SlTlHost *hs, *hr;
      SlTlArrow a;

      while (next < adopt->len && ((EarlyLane *) g_ptr_array_index (adopt, next))->first <= i)
        early_lane_adopt (self, g_ptr_array_index (adopt, next++));
      /* (made by the builder's thread) */
      if (e != NULL && (guint64) i * 2 < e->ends->len && g_array_index (e->ends, End, (guint64) i * 2).known == END_MADE)
        continue;
      hs = sl_tl_host (self, p->send_host);
      hr = sl_tl_host (self, p->recv_host);
      if (hs == NULL || hr == NULL || !end_known (hs, p->send_time) || !end_known (hr, p->recv_time))
        {
          g_array_index (self->pending, Pending, kept++) = *p;
          continue;
        }
      a.send_time = p->send_time;
      a.recv_time = p->recv_time;
      a.conn = p->conn;
      pending_end (self, hs, p->send_host, (guint64) i * 2, p->send_time, &a.send_row, &a.send_cpu);
      pending_end (self, hr, p->recv_host, (guint64) i * 2 + 1, p->recv_time, &a.recv_row, &a.recv_cpu);
      lane_insert (lane_get (self, p->send_host, p->recv_host), &a);
      arrow_count (self, &a);
      g_array_index (self->conns, SlTimelineConnection, p->conn).n_arrows++;
      self->n_arrows++;
    }
  g_assert (next == adopt->len);
  for (guint c = 0; e != NULL && c < e->conn_arrows->len; c++)
    g_array_index (self->conns, SlTimelineConnection, c).n_arrows += g_array_index (e->conn_arrows, guint64, c);
  g_array_set_size (self->pending, kept);
  /* the indices moved */
  g_clear_pointer (&self->early, early_free);
}

/* Drops the arrows @host sent before its local @t (a lane is in send
 * order); the counts then describe what is kept. */
guint64
_sl_tl_arrows_drop_before (SlTimeline *self,
                           guint       host,
                           gint64      t)
{
  guint64 dropped = 0;

  for (guint i = 0; i < self->lanes->len; i++)
    {
      SlTlLane *l = g_ptr_array_index (self->lanes, i);
      guint64 k = 0;

      if (l->send_host != host)
        continue;
      while (k < l->n && l->a[k].send_time < t)
        {
          const SlTlArrow *a = &l->a[k++];

          sl_tl_row (self, a->send_row)->n_msgs--;
          sl_tl_row (self, a->recv_row)->n_msgs--;
          g_array_index (self->conns, SlTimelineConnection, a->conn).n_arrows--;
        }
      if (k == 0)
        continue;
      memmove (l->a, l->a + k, (l->n - k) * sizeof *l->a);
      l->n -= k;
      self->n_arrows -= k;
      dropped += k;
      /* the capacity follows what a retention span holds */
      if (l->cap > 64 && l->n < l->cap / 4)
        {
          l->cap = l->cap / 2;
          l->a = g_renew (SlTlArrow, l->a, l->cap);
        }
    }
  return dropped;
}

/* ---------------------------------------------------------------------- */
/* Queries                                                                 */

/* First arrow at or after @from sending at or after @t; galloping, as the
 * next pixel column's arrows are usually close. */
guint64
_sl_tl_arrow_lower_bound (const SlTlLane *l,
                          guint64         from,
                          gint64          t)
{
  guint64 lo = from, hi, step = 1;

  if (lo >= l->n || l->a[lo].send_time >= t)
    return lo;
  while (lo + step < l->n && l->a[lo + step].send_time < t)
    {
      lo += step;
      step <<= 1;
    }
  hi = MIN (lo + step, l->n);
  lo++;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (l->a[mid].send_time < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gint64
sat_sub (gint64 a,
         gint64 b)
{
  gint64 r;

  if (__builtin_sub_overflow (a, b, &r))
    return b > 0 ? G_MININT64 : G_MAXINT64;
  return r;
}

/* Bounds on recv_view - send_view over a lane. With affine maps,
 * T_r(s + d) - T_s(s) = (T_r(s) - T_s(s)) + k_r d: the first term is
 * linear in s, so its extremes are at the lane's first and last send. */
static void
lane_view_deltas (const SlTimeline *self,
                  const SlTlLane   *l,
                  double           *dmin,
                  double           *dmax)
{
  const SlTlHost *hr = sl_tl_host (self, l->recv_host), *hs = sl_tl_host (self, l->send_host);
  gint64 s0 = l->a[0].send_time, s1 = l->a[l->n - 1].send_time;
  double kr = hr->has_view ? sl_transform_get_slope (&hr->to_view) : 1.0, kr_lo = kr, kr_hi = kr;
  double gmin = INFINITY, gmax = -INFINITY;

  /* piecewise maps: the difference is linear between both maps'
   * breakpoints (and may jump at a clock step: just before them too) */
  for (int which = 0; which < 4; which++)
    {
      const SlTlHost *h = which == 2 ? hs : which == 3 ? hr : NULL;
      guint n = h != NULL && piecewise_view (h) ? sl_relation_get_n_pieces (h->bound_rel) : 0;

      for (guint i = h == NULL ? 0 : 1; i < (h == NULL ? 1u : n); i++)
        for (int k = 0; k < (h == NULL ? 1 : 2); k++)
          {
            gint64 x = h == NULL ? (which == 0 ? s0 : s1) : sl_relation_get_piece (h->bound_rel, i, NULL) - k;
            double g;

            if (x < s0 || x > s1)
              continue;
            g = (double) sl_timeline_to_view (self, l->recv_host, x) - (double) sl_timeline_to_view (self, l->send_host, x);
            gmin = MIN (gmin, g);
            gmax = MAX (gmax, g);
          }
      if (which == 3)
        for (guint i = 0; i < n; i++)
          {
            SlTransform t;
            double k2;

            sl_relation_get_piece (h->bound_rel, i, &t);
            k2 = sl_transform_get_slope (&t) * sl_transform_get_slope (&h->anim);
            kr_lo = MIN (kr_lo, k2);
            kr_hi = MAX (kr_hi, k2);
          }
    }

  *dmax = gmax + (l->max_delta >= 0 ? kr_hi : kr_lo) * (double) l->max_delta + 4;
  *dmin = gmin + (l->min_delta >= 0 ? kr_lo : kr_hi) * (double) l->min_delta - 4;
}

void
_sl_tl_fill_arrow (const SlTimeline *self,
                   const SlTlLane   *l,
                   const SlTlArrow  *a,
                   gint64            send_view,
                   gint64            recv_view,
                   SlTimelineArrow  *o)
{
  o->send_host = l->send_host;
  o->recv_host = l->recv_host;
  o->send_row = a->send_row;
  o->recv_row = a->recv_row;
  o->send_cpu = a->send_cpu;
  o->recv_cpu = a->recv_cpu;
  o->connection = a->conn;
  o->count = 1;
  o->send_time = a->send_time;
  o->recv_time = a->recv_time;
  o->send_view = send_view;
  o->recv_view = recv_view;
  o->uncertainty_ns = arrow_uncertainty (self, l, a);
}

guint64
sl_timeline_query_arrows (const SlTimeline *self,
                          gint64            t0,
                          gint64            t1,
                          guint             n_px,
                          guint             host_a,
                          guint             host_b,
                          guint             connection,
                          GArray           *out)
{
  guint64 added = 0;
  double span = (double) t1 - (double) t0;
  double px_per_ns = span > 0 ? n_px / span : 0, ns_per_px = n_px > 0 ? span / n_px : 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (out != NULL, 0);
  g_return_val_if_fail (g_array_get_element_size (out) == sizeof (SlTimelineArrow), 0);

  if (t1 < t0)
    return 0;

  for (guint li = 0; li < self->lanes->len; li++)
    {
      const SlTlLane *l = g_ptr_array_index (self->lanes, li);
      double dmin, dmax;
      gint64 ls0, ls1;
      guint64 k;
      gint64 last_px = G_MININT64;
      guint last_out = G_MAXUINT;

      if (l->n == 0)
        continue;
      if (host_a != SL_TIMELINE_NONE &&
          !((l->send_host == host_a && (host_b == SL_TIMELINE_NONE || l->recv_host == host_b)) ||
            (l->recv_host == host_a && (host_b == SL_TIMELINE_NONE || l->send_host == host_b))))
        continue;

      lane_view_deltas (self, l, &dmin, &dmax);
      ls0 = sl_timeline_from_view (self, l->send_host, sat_sub (t0, dmax > 0 ? (gint64) MIN (dmax, 9e18) : 0)) - 2;
      ls1 = sl_timeline_from_view (self, l->send_host, sat_sub (t1, dmin < 0 ? (gint64) MAX (dmin, -9e18) : 0)) + 2;

      k = _sl_tl_arrow_lower_bound (l, 0, ls0);
      while (k < l->n && l->a[k].send_time <= ls1)
        {
          const SlTlArrow *a = &l->a[k];
          SlTimelineArrow o;
          gint64 sv = sl_timeline_to_view (self, l->send_host, a->send_time);
          gint64 rv = sl_timeline_to_view (self, l->recv_host, a->recv_time);
          gint64 px;

          if (MAX (sv, rv) < t0 || MIN (sv, rv) > t1 ||
              (connection != SL_TIMELINE_NONE && a->conn != connection))
            {
              k++;
              continue;
            }

          px = -1;
          if (n_px > 0)
            {
              px = sv < t0 ? -1 : (gint64) ((double) (sv - t0) * px_per_ns);
              px = MIN (px, (gint64) n_px);
              if (px == last_px && last_out != G_MAXUINT)
                {
                  g_array_index (out, SlTimelineArrow, last_out).count++;
                  k++;
                  continue;
                }
            }

          _sl_tl_fill_arrow (self, l, a, sv, rv, &o);
          g_array_append_val (out, o);
          last_out = out->len - 1;
          last_px = px;
          added++;
          k++;

          /* skip the rest of this pixel column at once */
          if (n_px > 0 && px >= 0 && px < (gint64) n_px && connection == SL_TIMELINE_NONE)
            {
              gint64 edge = t0 + (gint64) ((double) (px + 1) * ns_per_px);
              guint64 k2 = _sl_tl_arrow_lower_bound (l, k, sl_timeline_from_view (self, l->send_host, edge) - 2);

              if (k2 > k)
                {
                  g_array_index (out, SlTimelineArrow, last_out).count += (guint) MIN (k2 - k, (guint64) G_MAXUINT - 1);
                  k = k2;
                }
            }
        }
    }
  return added;
}

guint64
sl_timeline_get_n_arrows (const SlTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_arrows;
}

guint
sl_timeline_get_n_connections (const SlTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->conns->len;
}

void
sl_timeline_get_connection (const SlTimeline     *self,
                            guint                 connection,
                            SlTimelineConnection *out)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (connection < self->conns->len);
  g_return_if_fail (out != NULL);

  *out = g_array_index (self->conns, SlTimelineConnection, connection);
}

const SlTlLane *
_sl_tl_lane_find (const SlTimeline *self,
                  guint             send_host,
                  guint             recv_host)
{
  gpointer v;

  if (send_host >= G_MAXUINT16 || recv_host >= G_MAXUINT16 ||
      !g_hash_table_lookup_extended (self->lane_by_pair, GUINT_TO_POINTER ((send_host << 16) | recv_host), NULL, &v))
    return NULL;
  return g_ptr_array_index (self->lanes, GPOINTER_TO_UINT (v));
}

gboolean
sl_timeline_find_message (const SlTimeline *self,
                          guint             send_host,
                          guint             recv_host,
                          gint64            send_time,
                          gint64            recv_time,
                          SlTimelineArrow  *out)
{
  const SlTlLane *l;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  l = _sl_tl_lane_find (self, send_host, recv_host);
  if (l == NULL)
    return FALSE;
  for (guint64 k = _sl_tl_arrow_lower_bound (l, 0, send_time); k < l->n && l->a[k].send_time == send_time; k++)
    if (l->a[k].recv_time == recv_time)
      {
        _sl_tl_fill_arrow (self, l, &l->a[k], sl_timeline_to_view (self, send_host, send_time),
                           sl_timeline_to_view (self, recv_host, recv_time), out);
        return TRUE;
      }
  return FALSE;
}

static void
message_end (const SlTimeline *self,
             guint             host,
             gint64            t,
             SlEventKind       kind,
             guint32          *tid,
             guint32          *pid,
             guint32          *seq,
             gboolean         *has_seq,
             SlEventPacket    *packet)
{
  const SlTlHost *h = sl_tl_host (self, host);
  guint64 cursor = 0, i;
  const SlEvent *e;
  guint row;

  if (h == NULL || (i = packet_event (h, t, kind, &cursor)) == G_MAXUINT64)
    return;
  e = sl_event_store_get (h->store, SL_EVENT_STREAM_NET, i);
  *tid = e->tid;
  *seq = e->arg;
  *has_seq = TRUE;
  *packet = *sl_event_store_get_packet (h->store, i);
  row = e->tid != 0 ? _sl_tl_thread_row_at (self, (SlTlHost *) h, e->tid, t) : SL_TIMELINE_NONE;
  if (row != SL_TIMELINE_NONE)
    *pid = sl_tl_row (self, row)->pid;
}

void
sl_timeline_get_message (const SlTimeline      *self,
                         const SlTimelineArrow *arrow,
                         SlTimelineMessage     *out)
{
  SlEventPacket sp = { 0, 0, SL_EVENT_NO_LENGTH }, rp = sp;
  guint32 recv_seq = 0;
  gboolean recv_has_seq = FALSE;

  g_return_if_fail (self != NULL);
  g_return_if_fail (arrow != NULL);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  out->length = SL_EVENT_NO_LENGTH;
  message_end (self, arrow->send_host, arrow->send_time, SL_EVENT_PACKET_SEND, &out->send_tid, &out->send_pid,
               &out->seq, &out->has_seq, &sp);
  message_end (self, arrow->recv_host, arrow->recv_time, SL_EVENT_PACKET_RECV, &out->recv_tid, &out->recv_pid,
               &recv_seq, &recv_has_seq, &rp);
  if (!out->has_seq)
    {
      out->seq = recv_seq;
      out->has_seq = recv_has_seq;
    }
  out->length = sp.length != SL_EVENT_NO_LENGTH ? sp.length : rp.length;
  if (arrow->connection < self->conns->len)
    {
      const SlTimelineConnection *c = &g_array_index (self->conns, SlTimelineConnection, arrow->connection);
      gboolean fwd = c->host_a == arrow->send_host;

      out->family = c->family;
      memcpy (out->send_addr, fwd ? c->addr_a : c->addr_b, 16);
      memcpy (out->recv_addr, fwd ? c->addr_b : c->addr_a, 16);
      out->send_port = fwd ? c->port_a : c->port_b;
      out->recv_port = fwd ? c->port_b : c->port_a;
    }
  /* the events' own ports where the connection has none */
  if (out->send_port == 0)
    out->send_port = sp.sport != 0 ? sp.sport : rp.sport;
  if (out->recv_port == 0)
    out->recv_port = sp.dport != 0 ? sp.dport : rp.dport;
}
