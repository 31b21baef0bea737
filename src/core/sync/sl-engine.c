/* sl-engine.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-compare.h"
#include "sl-engine-private.h"
#include "sl-linreg.h"
#include "sl-segments.h"


void
sl_engine_options_init (SlEngineOptions *options)
{
  g_return_if_fail (options != NULL);

  options->algorithm = SL_ALGORITHM_HULL;
  options->tree = SL_TREE_MST;
  options->max_drift = SL_HULL_DEFAULT_MAX_DRIFT;
  options->drift_change = SL_SEGMENTS_DEFAULT_DRIFT_CHANGE_PPM_S * 1e-6;
  options->linreg_confidence = 0.0;
  options->match_window_ns = 10 * G_GINT64_CONSTANT (1000000000);
  options->max_pending = 1 << 18;
  options->max_points = 1 << 20;
  options->point_retention_ns = 0;
  options->journal_size = 1 << 20;
  options->tree_margin = 0.0;
}

static void
fixed_free (gpointer data)
{
  Fixed *f = data;

  g_free (f->reference);
  sl_relation_unref (f->relation);
  g_free (f);
}

SlEngine *
sl_engine_new (const SlEngineOptions *options)
{
  SlEngine *self = g_new0 (SlEngine, 1);

  if (options != NULL)
    self->options = *options;
  else
    sl_engine_options_init (&self->options);

  /* GRefStrings: snapshots share them (sl_engine_dup_host_name()) */
  self->host_names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ref_string_release);
  self->host_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->host_counts = g_array_new (FALSE, TRUE, sizeof (SlHostCounts));
  self->host_unread = g_ptr_array_new_with_free_func (g_free);
  self->host_spans = g_array_new (FALSE, TRUE, sizeof (Span));
  self->groups = g_array_new (FALSE, TRUE, sizeof (Group));
  self->links = g_array_new (FALSE, TRUE, sizeof (Link));
  self->link_by_pair = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->dirty = g_array_new (FALSE, FALSE, sizeof (guint));
  self->matcher = sl_matcher_new (self->options.match_window_ns, self->options.max_pending);
  self->journal = sl_journal_new (self->options.journal_size);
  sl_journal_set_retention (self->journal, MAX (self->options.point_retention_ns, 0));
  self->graph = sl_graph_new (self->options.tree, self->journal);
  self->rt_z = sl_linreg_confidence_to_z (self->options.linreg_confidence);
  sl_graph_set_margin (self->graph, self->options.tree_margin);
  /* hysteresis in time too: the margin must hold for a while */
  if (self->options.tree_margin > 0)
    sl_graph_set_dwell (self->graph, SL_GRAPH_LIVE_DWELL_NS);
  self->fixed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, fixed_free);
  self->host_fixed = g_ptr_array_new ();
  _sl_engine_hosts_changed (self);
  return self;
}

static gint64 *
pair_key (guint a,
          guint b)
{
  gint64 *key = g_new (gint64, 1);

  *key = ((gint64) a << 32) | b;
  return key;
}

static void row_cache_clear (RowCache *c);

void
sl_engine_free (SlEngine *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->links->len; i++)
    {
      Link *l = &g_array_index (self->links, Link, i);
      sl_segments_free (l->seg);
      if (l->linreg != NULL)
        sl_linreg_free (l->linreg);
      sl_point_store_clear (&l->points[0]);
      sl_point_store_clear (&l->points[1]);
      g_clear_pointer (&l->rel, sl_relation_unref);
      g_clear_pointer (&l->span_rel, sl_relation_unref);
      row_cache_clear (&l->row);
    }

  g_hash_table_destroy (self->link_by_pair);
  g_array_unref (self->links);
  g_array_unref (self->dirty);
  g_hash_table_destroy (self->host_by_name);
  g_ptr_array_unref (self->host_names);
  g_array_unref (self->host_counts);
  g_ptr_array_unref (self->host_unread);
  g_array_unref (self->host_spans);
  g_array_unref (self->groups);
  sl_matcher_free (self->matcher);
  sl_graph_free (self->graph);
  sl_journal_free (self->journal);
  g_ptr_array_unref (self->host_fixed);
  g_hash_table_destroy (self->fixed);
  g_free (self->fixed_source);
  g_free (self);
}

const SlEngineOptions *
sl_engine_get_options (const SlEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return &self->options;
}

guint
sl_engine_add_host (SlEngine   *self,
                    const char *name)
{
  gpointer found;
  char *copy;
  guint id;

  g_return_val_if_fail (self != NULL, SL_HOST_NONE);
  g_return_val_if_fail (name != NULL, SL_HOST_NONE);

  if (g_hash_table_lookup_extended (self->host_by_name, name, NULL, &found))
    return GPOINTER_TO_UINT (found);

  copy = g_ref_string_new (name);
  id = self->host_names->len;
  g_ptr_array_add (self->host_names, copy);
  g_hash_table_insert (self->host_by_name, copy, GUINT_TO_POINTER (id));
  g_array_set_size (self->host_counts, id + 1);
  g_ptr_array_add (self->host_unread, NULL);
  g_array_set_size (self->host_spans, id + 1);
  g_array_index (self->host_spans, Span, id).first = G_MAXINT64;
  g_array_index (self->host_spans, Span, id).last = G_MININT64;
  g_array_index (self->host_spans, Span, id).held_first = G_MAXINT64;
  g_array_index (self->host_spans, Span, id).held_last = G_MININT64;
  sl_graph_add_node (self->graph);
  g_ptr_array_add (self->host_fixed, g_hash_table_lookup (self->fixed, name));
  _sl_engine_hosts_changed (self);
  return id;
}

/**
 * sl_engine_fix_host:
 * @name: a host, present or to come (sl_engine_add_host())
 * @reference: the host @relation maps to (@name itself for a reference)
 * @relation: @name's clock → @reference's, with its bound
 * @to_reference: the piece of @relation shown as the host's transform
 * @source: where the relation comes from (a file's name), for the views
 *
 * Gives the host a relation found elsewhere (`--save-transforms`): its
 * packets are still matched (the timeline's arrows) but no match of it goes
 * to a link, so it is not synchronized again; sl_engine_get_host_info()
 * gives this relation while @reference is one of the engine's hosts.
 * Call before the host's first packet.
 */
void
sl_engine_fix_host (SlEngine          *self,
                    const char        *name,
                    const char        *reference,
                    SlRelation        *relation,
                    const SlTransform *to_reference,
                    gboolean           synchronized,
                    gboolean           best_effort,
                    const char        *source)
{
  Fixed *f;
  guint h;

  g_return_if_fail (self != NULL);
  g_return_if_fail (name != NULL && reference != NULL && relation != NULL && to_reference != NULL);
  g_return_if_fail (source != NULL);

  f = g_new0 (Fixed, 1);
  f->reference = g_strdup (reference);
  f->relation = sl_relation_ref (relation);
  f->to_reference = *to_reference;
  f->synchronized = synchronized;
  f->best_effort = best_effort;
  g_hash_table_replace (self->fixed, g_strdup (name), f);
  h = sl_engine_find_host (self, name);
  if (h != SL_HOST_NONE)
    g_ptr_array_index (self->host_fixed, h) = f;
  if (g_strcmp0 (self->fixed_source, source) != 0)
    {
      g_free (self->fixed_source);
      self->fixed_source = g_strdup (source);
    }
  _sl_engine_hosts_changed (self);
}

/**
 * sl_engine_get_host_fixed:
 *
 * Returns: (nullable): where the host's relation comes from when it was
 * fixed (sl_engine_fix_host()), else %NULL
 */
const char *
sl_engine_get_host_fixed (const SlEngine *self,
                          guint           host)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (host < self->host_fixed->len, NULL);

  return g_ptr_array_index (self->host_fixed, host) != NULL ? self->fixed_source : NULL;
}

guint
sl_engine_find_host (const SlEngine *self,
                     const char     *name)
{
  gpointer found;

  g_return_val_if_fail (self != NULL, SL_HOST_NONE);
  g_return_val_if_fail (name != NULL, SL_HOST_NONE);

  if (g_hash_table_lookup_extended (self->host_by_name, name, NULL, &found))
    return GPOINTER_TO_UINT (found);
  return SL_HOST_NONE;
}

guint
sl_engine_get_n_hosts (const SlEngine *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->host_names->len;
}

const char *
sl_engine_get_host_name (const SlEngine *self,
                         guint           host)
{
  g_return_val_if_fail (host < self->host_names->len, NULL);
  return g_ptr_array_index (self->host_names, host);
}

/**
 * sl_engine_get_link_names_descending:
 *
 * Returns: whether the name of @link's first host sorts after its
 *   second's (strcmp()), kept from the link's start: a capture asks it of
 *   every link, and two names read a link cost two cache misses
 */
gboolean
sl_engine_get_link_names_descending (const SlEngine *self,
                                     guint           link)
{
  g_return_val_if_fail (link < self->links->len, FALSE);
  return g_array_index (self->links, Link, link).names_descending;
}

/**
 * sl_engine_dup_host_name:
 *
 * The name of @host, shared: a host's name never changes, and a
 * snapshot of 1 000 hosts took each capture a copy or a comparison of
 * every name, two cache misses a host.
 *
 * Returns: (transfer full): a #GRefString to release with
 *   g_ref_string_release(), from any thread
 */
char *
sl_engine_dup_host_name (const SlEngine *self,
                         guint           host)
{
  g_return_val_if_fail (host < self->host_names->len, NULL);
  return g_ref_string_acquire (g_ptr_array_index (self->host_names, host));
}

void
sl_engine_pin_reference (SlEngine *self,
                         guint     host)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (host == SL_HOST_NONE || host < self->host_names->len);

  sl_graph_pin_reference (self->graph, host);
  _sl_engine_hosts_changed (self);
}

void
sl_engine_get_host_counts (const SlEngine *self,
                           guint           host,
                           SlHostCounts   *counts)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (host < self->host_counts->len);
  g_return_if_fail (counts != NULL);

  *counts = g_array_index (self->host_counts, SlHostCounts, host);
}

void
sl_engine_add_host_counts (SlEngine *self,
                           guint     host,
                           guint64   events,
                           guint64   ignored,
                           guint64   unusable)
{
  SlHostCounts *c;

  g_return_if_fail (self != NULL);
  g_return_if_fail (host < self->host_counts->len);

  c = &g_array_index (self->host_counts, SlHostCounts, host);
  c->events += events;
  c->ignored += ignored;
  c->unusable += unusable;
}

/**
 * sl_engine_set_host_unread:
 * @why: (nullable): the first problem that kept the host's events from
 *   being read, short (the file and what is wrong with it)
 *
 * Readers say so of a host of which no event could be read: its reason
 * (sl_engine_get_host_info()) names that cause rather than a lack of
 * packet events. A host that was read, events or not, is not one.
 */
void
sl_engine_set_host_unread (SlEngine   *self,
                           guint       host,
                           const char *why)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (host < self->host_unread->len);

  g_free (g_ptr_array_index (self->host_unread, host));
  g_ptr_array_index (self->host_unread, host) = g_strdup (why);
  _sl_engine_hosts_changed (self);
}

const char *
sl_engine_get_host_unread (const SlEngine *self,
                           guint           host)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (host < self->host_unread->len, NULL);

  return g_ptr_array_index (self->host_unread, host);
}

static inline void
extend_span (SlEngine *self,
             guint     host,
             gint64    first,
             gint64    last)
{
  Span *s = &g_array_index (self->host_spans, Span, host);

  s->first = MIN (s->first, first);
  s->last = MAX (s->last, last);
}

/**
 * sl_engine_add_host_span:
 * @first: the earliest event time seen on the host (its own clock, ns)
 * @last: the latest
 *
 * Readers report the span of every event of a host (not only packets), so
 * that the host's bound covers every instant its transform is applied to.
 * Packet events and matches extend the span by themselves. While flushes
 * follow the input, reported spans wait for sl_engine_flush(): readers
 * report them as their decoders go, ahead of the merge by however far the
 * threads ran, and what the journal says must not depend on that.
 */
void
sl_engine_add_host_span (SlEngine *self,
                         guint     host,
                         gint64    first,
                         gint64    last)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (host < self->host_spans->len);
  g_return_if_fail (first <= last);

  if (self->flush_on_input)
    {
      Span *s = &g_array_index (self->host_spans, Span, host);

      s->held_first = MIN (s->held_first, first);
      s->held_last = MAX (s->held_last, last);
      self->spans_held = TRUE;
      return;
    }
  extend_span (self, host, first, last);
}

/**
 * sl_engine_get_host_span:
 *
 * Returns: %FALSE when nothing of the host was seen yet
 */
gboolean
sl_engine_get_host_span (const SlEngine *self,
                         guint           host,
                         gint64         *first,
                         gint64         *last)
{
  const Span *s;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (host < self->host_spans->len, FALSE);

  s = &g_array_index (self->host_spans, Span, host);
  if (s->first > s->last)
    return FALSE;
  if (first != NULL)
    *first = s->first;
  if (last != NULL)
    *last = s->last;
  return TRUE;
}

static Link *
get_link (SlEngine *self,
          guint     a,
          guint     b)
{
  gint64 key = ((gint64) a << 32) | b;
  gpointer found;
  Link l = { 0 };

  if (g_hash_table_lookup_extended (self->link_by_pair, &key, NULL, &found))
    return &g_array_index (self->links, Link, GPOINTER_TO_UINT (found));

  l.a = a;
  l.b = b;
  l.names_descending = strcmp (g_ptr_array_index (self->host_names, a), g_ptr_array_index (self->host_names, b)) > 0;
  {
    SlSegmentsOptions so;

    sl_segments_options_init (&so);
    so.drift_change = self->options.drift_change;
    so.max_drift = self->options.max_drift;
    so.linreg = self->options.algorithm == SL_ALGORITHM_LINREG;
    l.seg = sl_segments_new (&so);
  }
  if (self->options.algorithm == SL_ALGORITHM_LINREG)
    /* the round trips go to the windows; the cut on E is applied here
     * as they come (below), so the regression stores none */
    l.linreg = sl_linreg_new (0.0);
  l.quality = SL_QUALITY_ABSENT;
  l.accuracy = INFINITY;
  sl_point_store_init (&l.points[0]);
  sl_point_store_init (&l.points[1]);
  l.newest_x = G_MININT64;
  g_array_append_val (self->links, l);
  g_hash_table_insert (self->link_by_pair, pair_key (a, b),
                       GUINT_TO_POINTER (self->links->len - 1));
  return &g_array_index (self->links, Link, self->links->len - 1);
}

static gboolean
keep_from (SlPoint  p,
           gsize    i,
           gpointer cut)
{
  return p.x >= *(const gint64 *) cut;
}

/* The point retention: the points of a direction older than it behind
 * the link's newest (x, a's clock) are dropped, in batches: only once the
 * oldest is an eighth of the retention further back, so that the
 * inversion counts the drop invalidates (a recount of what is kept) are
 * redone rarely. */
static void
points_retain (SlEngine *self,
               Link     *l,
               int       side)
{
  SlPointStore *s = &l->points[side];
  gint64 r = self->options.point_retention_ns;
  gint64 cut;
  gsize before = s->len;

  if (r <= 0 || s->len == 0 || l->newest_x < G_MININT64 + r + r / 8)
    return;
  cut = l->newest_x - r;
  if (s->min_x >= cut - r / 8)
    return;
  sl_point_store_filter (s, keep_from, &cut);
  s->dropped += before - s->len;
  s->compactions++;
}

/* Past max_points: the points with the least slack first, at most half
 * of them and one. */
typedef struct
{
  const double *slack;
  double        cut;
  gsize         kept;
  gsize         max;
} KeepBand;

static gboolean
keep_band (SlPoint  p,
           gsize    i,
           gpointer data)
{
  KeepBand *k = data;

  if (k->slack[i] <= k->cut && k->kept < k->max)
    {
      k->kept++;
      return TRUE;
    }
  return FALSE;
}

static void
store_point (SlEngine *self,
             Link     *l,
             int       side,
             SlPoint   p)
{
  SlPointStore *s = &l->points[side];

  if (self->options.max_points == 0)
    return;

  l->newest_x = MAX (l->newest_x, p.x);
  points_retain (self, l, 0);
  points_retain (self, l, 1);

  if (s->len == self->options.max_points)
    {
      SlLinkInfo info;
      double *slack = g_new (double, s->len);
      double *sorted = g_new (double, s->len);
      KeepBand k = { slack, 0.0, 0, s->len / 2 + 1 };
      gsize before = s->len;

      _sl_engine_link_estimate (self, l, &info);
      for (gsize i = 0; i < s->len; i++)
        {
          SlPoint q = sl_point_store_get (s, i);
          double est = info.has_estimate
            ? (double) q.x + sl_transform_apply_delta (&info.estimate, q.x)
            : (double) q.x;
          slack[i] = side == 0 ? (double) q.y - est : est - (double) q.y;
        }
      memcpy (sorted, slack, s->len * sizeof (double));
      qsort (sorted, s->len, sizeof (double), sl_compare_double);
      k.cut = sorted[s->len / 2];
      sl_point_store_filter (s, keep_band, &k);
      s->dropped += before - s->len;
      s->compactions++;
      g_free (slack);
      g_free (sorted);
    }

  sl_point_store_append (s, p);
}

/* The link's estimate a → b with its bound at every instant: the bands'
 * guarantee around the corridor's middle, or around each window's linear
 * regression pulled into the corridor (linreg: an estimate that is
 * statistical, a bound that is not). */
static SlRelation *
link_relation (SlEngine         *self,
               Link             *l,
               const SlLinkInfo *info)
{
  return sl_segments_get_relation (l->seg);
}

/* Where a link's relation is applied, on a's clock: its packets and both
 * hosts' events. */
static void
link_eval_span (SlEngine   *self,
                const Link *l,
                gint64      span_start,
                gint64      span_end,
                gint64     *x0,
                gint64     *x1)
{
  gint64 fa, la, fb, lb;

  *x0 = span_start;
  *x1 = span_end;
  if (sl_engine_get_host_span (self, l->a, &fa, &la))
    {
      *x0 = MIN (*x0, fa);
      *x1 = MAX (*x1, la);
    }
  if (l->rel != NULL && sl_engine_get_host_span (self, l->b, &fb, &lb))
    {
      *x0 = MIN (*x0, sl_relation_preimage (l->rel, fb));
      *x1 = MAX (*x1, sl_relation_preimage (l->rel, lb));
    }
}

/* link_eval_span() and the relation's largest bound there, computed
 * again only when the relation, the link's packets' span or a host's span
 * changed (always without @memo). */
static double
link_span_bound (SlEngine   *self,
                 Link       *l,
                 gint64      span_start,
                 gint64      span_end,
                 gboolean    memo,
                 gint64     *x0,
                 gint64     *x1)
{
  gint64 key[6] = { span_start, span_end, G_MAXINT64, G_MININT64, G_MAXINT64, G_MININT64 };

  if (!memo)
    {
      link_eval_span (self, l, span_start, span_end, x0, x1);
      return sl_relation_max_bound (l->rel, *x0, *x1, NULL);
    }

  sl_engine_get_host_span (self, l->a, &key[2], &key[3]);
  sl_engine_get_host_span (self, l->b, &key[4], &key[5]);
  if (l->span_rel != l->rel || memcmp (key, l->span_key, sizeof key) != 0)
    {
      g_clear_pointer (&l->span_rel, sl_relation_unref);
      link_eval_span (self, l, span_start, span_end, &l->span_x[0], &l->span_x[1]);
      l->span_bound = sl_relation_max_bound (l->rel, l->span_x[0], l->span_x[1], NULL);
      /* held: a relation made later at the same address is not this one */
      l->span_rel = sl_relation_ref (l->rel);
      memcpy (l->span_key, key, sizeof key);
    }
  *x0 = l->span_x[0];
  *x1 = l->span_x[1];
  return l->span_bound;
}

/* A link's weight in the tree: the largest bound it adds where it is
 * applied (its packets and both hosts' events, see link_eval_span()), in
 * ns: a host's bound is the sum of its path's bounds instant by instant,
 * and a link whose relation holds tightly over a few seconds of a long
 * trace weighs what it is worth over all of it. NAN keeps it out. */
static double
link_weight (SlEngine         *self,
             Link             *l,
             const SlLinkInfo *info,
             gboolean          memo)
{
  gint64 x0, x1;
  double w;

  if (info->quality != SL_QUALITY_ACCURATE || !isfinite (info->weight) || l->rel == NULL)
    return NAN;
  w = link_span_bound (self, l, info->span_start, info->span_end, memo, &x0, &x1);
  /* unbounded somewhere: the last choice, yet better than no link */
  return isfinite (w) ? MAX (w, 1.0) : 1e300;
}

static void
refresh_link (SlEngine *self,
              Link     *l)
{
  SlLinkInfo info;
  double w;

  _sl_engine_link_estimate (self, l, &info);

  if (info.quality != l->quality || info.accuracy != l->accuracy)
    {
      l->quality = info.quality;
      l->accuracy = info.accuracy;
      l->last_change = self->now;
      sl_journal_add (self->journal, SL_CHANGE_LINK, l->a, l->b, info.quality,
                      isfinite (info.accuracy) ? info.accuracy : NAN, info.reason);
    }

  /* the same relation keeps its address: the graph then keeps its
   * inverse and the hosts' compositions, and the link row its cache */
  {
    SlRelation *rel = info.has_estimate ? link_relation (self, l, &info) : NULL;

    if (rel != NULL && l->rel != NULL && sl_relation_equal (rel, l->rel))
      g_clear_pointer (&rel, sl_relation_unref);
    else
      {
        g_clear_pointer (&l->rel, sl_relation_unref);
        l->rel = rel;
      }
  }

  w = link_weight (self, l, &info, TRUE);
  if (!isnan (w))
    {
      sl_graph_update_edge_relation (self->graph, l->a, l->b, w, l->rel);
      l->in_graph = TRUE;
    }
  else if (l->in_graph)
    {
      sl_graph_remove_edge (self->graph, l->a, l->b);
      l->in_graph = FALSE;
    }
}

static void flush_links (SlEngine *self);

void
_sl_engine_query_flush (SlEngine *self)
{
  if (!self->flush_on_input)
    sl_engine_flush (self);
}

/* With @on, queries no longer flush: links are refreshed when the input
 * time has moved on by a second, or by a 64th of the input so far if that
 * is longer (a few hundred flushes over hours of trace), and at
 * sl_engine_flush(). What a query sees, and the journal, then depend only
 * on the input, not on when the queries come (a job's snapshots come every
 * 100 ms of wall-clock time): a folder read twice gives the same journal. */
void
sl_engine_set_flush_on_input (SlEngine *self,
                              gboolean  on)
{
  g_return_if_fail (self != NULL);

  self->flush_on_input = on;
  self->flush_first = self->now;
  self->flush_next = self->now;
}

static void
input_flush (SlEngine *self,
             gint64    now)
{
  const gint64 second = G_GINT64_CONSTANT (1000000000);

  if (!self->flush_on_input || now < self->flush_next)
    return;
  if (self->dirty->len > 0)
    flush_links (self);
  if (self->flush_first == 0)
    self->flush_first = now;
  /* now and flush_first come from the input, so the sums can overflow:
   * then no more flushes until the end of the input */
  if (now >= self->flush_first && now - self->flush_first < G_MAXINT64 / 2 &&
      now < G_MAXINT64 - MAX (second, (now - self->flush_first) / 64))
    self->flush_next = now + MAX (second, (now - self->flush_first) / 64);
  else
    self->flush_next = G_MAXINT64;
}

static void
add_match (SlEngine            *self,
           const SlMatch       *match,
           const SlPacketEvent *event,
           gint64               now)
{
  gboolean a_to_b;
  gint64 t_a, t_b;
  guint lo, hi;
  Link *l;

  g_return_if_fail (match->send_host < self->host_names->len);
  g_return_if_fail (match->recv_host < self->host_names->len);

  if (match->send_host == match->recv_host)
    return;

  self->now = now;
  if (self->n_matches == 0)
    self->first_input = now;
  sl_journal_set_time (self->journal, now);
  extend_span (self, match->send_host, match->send_time, match->send_time);
  extend_span (self, match->recv_host, match->recv_time, match->recv_time);
  self->n_matches++;
  g_array_index (self->host_counts, SlHostCounts, match->send_host).matched++;
  g_array_index (self->host_counts, SlHostCounts, match->recv_host).matched++;

  /* a fixed host keeps the relation it was given: its matches are only
   * shown */
  if (g_ptr_array_index (self->host_fixed, match->send_host) != NULL ||
      g_ptr_array_index (self->host_fixed, match->recv_host) != NULL)
    {
      if (self->match_func != NULL)
        self->match_func (match, event, self->match_data);
      input_flush (self, now);
      return;
    }
  lo = MIN (match->send_host, match->recv_host);
  hi = MAX (match->send_host, match->recv_host);
  l = get_link (self, lo, hi);
  if (self->match_func != NULL)
    self->match_func (match, event, self->match_data);
  a_to_b = match->send_host == lo;
  t_a = a_to_b ? match->send_time : match->recv_time;
  t_b = a_to_b ? match->recv_time : match->send_time;

  l->matches++;
  l->n[a_to_b ? 0 : 1]++;
  store_point (self, l, a_to_b ? 0 : 1, (SlPoint) { t_a, t_b });
  if (match->has_length)
    sl_segments_add_sized (l->seg, a_to_b, t_a, t_b, match->length);
  else
    sl_segments_add (l->seg, a_to_b, t_a, t_b);

  /* Links are refreshed (relation, graph, journal) at flush time: building
   * a piecewise relation costs its windows, not O(1). */
  if (l->linreg != NULL)
    {
      SlRoundTrip rts[2];
      guint n_rts = 0;

      sl_linreg_add_full (l->linreg, a_to_b, t_a, t_b, match->has_length ? match->length : 0, rts, &n_rts);
      for (guint k = 0; k < n_rts; k++)
        {
          /* --linreg-confidence: [Clément & Dagenais]'s one-sided cut on E
           * (mean + z·sd), on the round trips seen so far */
          double e = rts[k].e_ns, delta = e - l->rt_mean;
          gboolean cut = self->rt_z > 0 && l->rt_n >= 16 &&
                         e > l->rt_mean + self->rt_z * sqrt (l->rt_m2 / (double) (l->rt_n - 1));

          l->rt_n++;
          l->rt_mean += delta / (double) l->rt_n;
          l->rt_m2 += delta * (e - l->rt_mean);
          if (!cut)
            sl_segments_add_round_trip_sized (l->seg, rts[k].t_a, rts[k].t_b, e, rts[k].len_ab, rts[k].len_ba);
        }
    }
  if (sl_segments_get_version (l->seg) != l->seg_version && !l->queued)
    {
      guint idx = l - (Link *) (gpointer) self->links->data;

      g_array_append_val (self->dirty, idx);
      l->queued = TRUE;
    }
  if (sl_segments_get_version (l->seg) != l->seg_version)
    {
      l->seg_version = sl_segments_get_version (l->seg);
      l->change_time = now;
    }
  input_flush (self, now);
}

void
sl_engine_add_match (SlEngine      *self,
                     const SlMatch *match,
                     gint64         now)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (match != NULL);

  add_match (self, match, NULL, now);
}

gboolean
sl_engine_add_packet (SlEngine            *self,
                      const SlPacketEvent *event,
                      gint64               now)
{
  SlMatch m;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (event->host < self->host_counts->len)
    {
      g_array_index (self->host_counts, SlHostCounts, event->host).packet_events++;
      extend_span (self, event->host, event->time, event->time);
    }
  if (!sl_matcher_push (self->matcher, event, now, &m))
    return FALSE;
  add_match (self, &m, event, now);
  return TRUE;
}

/* An observer of every match, e.g. the timeline's message arrows. */
void
sl_engine_set_match_func (SlEngine          *self,
                          SlEngineMatchFunc  func,
                          gpointer           user_data)
{
  g_return_if_fail (self != NULL);

  self->match_func = func;
  self->match_data = user_data;
}

static int
cmp_change_time (gconstpointer a,
                 gconstpointer b,
                 gpointer      data)
{
  SlEngine *self = data;
  gint64 x = g_array_index (self->links, Link, *(const guint *) a).change_time;
  gint64 y = g_array_index (self->links, Link, *(const guint *) b).change_time;

  return (x > y) - (x < y);
}

/* Links whose packets changed them are refreshed here, not per packet:
 * a relation costs its windows, a regression fit O(n) with outlier
 * rejection. Their journal entries carry the input time of the packet that
 * last changed them. Every query flushes first, unless
 * sl_engine_set_flush_on_input() said otherwise. */
static void
flush_links (SlEngine *self)
{
  if (self->dirty->len == 0)
    return;
  /* every change queued here came after the previous flush: in the order
   * of their times, the journal stays in input order */
  g_qsort_with_data (self->dirty->data, (gint) self->dirty->len, sizeof (guint), cmp_change_time, self);
  for (guint i = 0; i < self->dirty->len; i++)
    {
      Link *l = &g_array_index (self->links, Link, g_array_index (self->dirty, guint, i));

      l->queued = FALSE;
      sl_journal_set_time (self->journal, l->change_time);
      sl_graph_set_time (self->graph, l->change_time);
      refresh_link (self, l);
    }
  sl_journal_set_time (self->journal, self->now);
  g_array_set_size (self->dirty, 0);
  sl_graph_commit (self->graph);
  _sl_engine_hosts_changed (self);
}

void
sl_engine_flush (SlEngine *self)
{
  g_return_if_fail (self != NULL);

  for (guint h = 0; self->spans_held && h < self->host_spans->len; h++)
    {
      Span *sp = &g_array_index (self->host_spans, Span, h);

      if (sp->held_first > sp->held_last)
        continue;
      extend_span (self, h, sp->held_first, sp->held_last);
      sp->held_first = G_MAXINT64;
      sp->held_last = G_MININT64;
    }
  if (self->spans_held)
    _sl_engine_hosts_changed (self);
  self->spans_held = FALSE;
  flush_links (self);
}

guint
sl_engine_get_n_links (const SlEngine *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->links->len;
}

static void
fill_from_hull (Link       *l,
                SlLinkInfo *info)
{
  SlHullResult r;
  guint64 changes = sl_segments_get_changes (l->seg);

  if (!l->seg_result_valid || l->seg_result_changes != changes)
    {
      sl_segments_get_result (l->seg, &l->seg_result);
      l->seg_result_changes = changes;
      l->seg_result_valid = TRUE;
    }
  r = l->seg_result;
  info->quality = r.quality;
  info->reason = r.reason;
  info->accurate_packets = r.accurate_packets;
  info->hull_points[0] = r.hull_points[0];
  info->hull_points[1] = r.hull_points[1];
  info->alpha_min = r.alpha_min;
  info->alpha_max = r.alpha_max;
  info->has_estimate = r.has_estimate;
  info->estimate = r.estimate;
  info->accuracy = r.accuracy;
  info->weight = r.accuracy;
  info->band_ns = r.band_ns;
  info->bound_ns = r.bound_ns;
  info->span_start = r.span_start;
  info->span_end = r.span_end;
}

/* Linear regression: the estimate inside the bands follows each window's
 * weighted fit (sl-segments.c); the bound is still the bands' guarantee,
 * and the fits' own 2-sigma figure is reported beside it as what it is, a
 * statistic. */
static void
fill_from_linreg (SlEngine   *self,
                  const Link *l,
                  SlLinkInfo *info)
{
  SlSegmentsLinreg st;

  sl_segments_get_linreg (l->seg, &st);
  info->n_round_trips = (guint) MIN (st.n_round_trips, G_MAXUINT);
  info->e_r_ns = st.e_r_ns;
  info->se_slope = st.se_slope;
  info->se_offset_ns = st.se_offset_ns;
  info->statistical_bound_ns = 2 * st.se_offset_ns;
  if ((info->quality == SL_QUALITY_ACCURATE || info->quality == SL_QUALITY_APPROXIMATE) && st.n_windows == 0)
    {
      info->quality = SL_QUALITY_APPROXIMATE;
      info->reason = "fewer than three round trips in every window";
    }
}

void
_sl_engine_link_estimate (SlEngine   *self,
               Link       *l,
               SlLinkInfo *info)
{
  memset (info, 0, sizeof *info);
  info->a = l->a;
  info->b = l->b;
  info->matches = l->matches;
  info->n_ab = l->n[0];
  info->n_ba = l->n[1];
  info->last_change = l->last_change;
  info->points_dropped[0] = l->points[0].dropped;
  info->points_dropped[1] = l->points[1].dropped;
  info->e_r_ns = NAN;
  info->se_slope = NAN;
  info->se_offset_ns = NAN;
  info->statistical_bound_ns = NAN;

  fill_from_hull (l, info);
  if (l->linreg != NULL)
    fill_from_linreg (self, l, info);

  if (info->has_estimate)
    {
      info->alpha = sl_transform_get_slope (&info->estimate);
      info->beta = sl_transform_get_offset (&info->estimate);
    }
  else
    info->alpha = info->beta = NAN;
}

static guint64
count_inversions (const SlPointStore *s,
                  gsize             from,
                  int               side,
                  const SlRelation *ra,
                  const SlRelation *rb)
{
  guint64 n = 0;
  int hints[2] = { 0, 0 };

  for (gsize i = from; i < s->len; i++)
    {
      SlPoint p = sl_point_store_get (s, i);
      /* the sign of b's image of y less a's image of x */
      int c = sl_relation_compare_images (ra, p.x, rb, p.y, hints);

      /* side 0: a sent at x, b received at y */
      if (side == 0 ? c < 0 : c > 0)
        n++;
    }
  return n;
}

/* A link's relation is applied at every event of its two hosts: its bound
 * and band are given over their spans (on a's clock), not only over the
 * packets. */
static void
link_bounds_in_time (SlEngine   *self,
                     Link       *l,
                     gboolean    memo,
                     SlLinkInfo *info)
{
  gint64 x0, x1;

  info->bound_start = info->span_start;
  info->bound_end = info->span_end;
  if (l->rel == NULL)
    return;

  info->bound_ns = link_span_bound (self, l, info->span_start, info->span_end, memo, &x0, &x1);
  info->bound_start = x0;
  info->bound_end = x1;

  if (l->linreg == NULL)
    {
      double lo0, hi0, lo1, hi1;

      /* the band is narrowest inside the packets: widest at an end */
      if (sl_segments_get_band (l->seg, x0, &lo0, &hi0) && sl_segments_get_band (l->seg, x1, &lo1, &hi1))
        info->band_ns = MAX (hi0 - lo0, hi1 - lo1);
      else
        info->band_ns = INFINITY;
    }
}

static void
row_cache_clear (RowCache *c)
{
  c->rel = c->ra = c->rb = 0;
  c->valid = FALSE;
}

/* What a link's row is made of, besides the hosts' relations. */
static void
row_key (SlEngine   *self,
         const Link *l,
         RowCache   *k)
{
  k->rel = sl_relation_get_serial (l->rel);
  k->seg_version = sl_segments_get_version (l->seg);
  k->matches = l->matches;
  k->n[0] = l->n[0];
  k->n[1] = l->n[1];
  k->last_change = l->last_change;
  for (int side = 0; side < 2; side++)
    {
      k->len[side] = l->points[side].len;
      k->dropped[side] = l->points[side].dropped;
      k->compactions[side] = l->points[side].compactions;
    }
  k->has_span[0] = sl_engine_get_host_span (self, l->a, &k->span[0], &k->span[1]);
  k->has_span[1] = sl_engine_get_host_span (self, l->b, &k->span[2], &k->span[3]);
  if (!k->has_span[0])
    k->span[0] = k->span[1] = 0;
  if (!k->has_span[1])
    k->span[2] = k->span[3] = 0;
  k->in_tree = l->in_graph && sl_graph_edge_in_tree (self->graph, l->a, l->b);
}

static gboolean
row_key_equal (const RowCache *c,
               const RowCache *k)
{
  return c->valid && c->rel == k->rel && c->ra == k->ra && c->rb == k->rb &&
         c->seg_version == k->seg_version && c->matches == k->matches &&
         c->n[0] == k->n[0] && c->n[1] == k->n[1] && c->last_change == k->last_change &&
         memcmp (c->len, k->len, sizeof c->len) == 0 &&
         memcmp (c->dropped, k->dropped, sizeof c->dropped) == 0 &&
         memcmp (c->compactions, k->compactions, sizeof c->compactions) == 0 &&
         memcmp (c->span, k->span, sizeof c->span) == 0 &&
         memcmp (c->has_span, k->has_span, sizeof c->has_span) == 0 &&
         c->in_tree == k->in_tree && c->same_reference == k->same_reference;
}

/* The row from its inputs; @inv NULL counts every inversion again. */
static void
link_info_compute (SlEngine       *self,
                   Link           *l,
                   SlRelation     *ra,
                   SlRelation     *rb,
                   gboolean        in_tree,
                   InversionCache *inv,
                   SlLinkInfo     *info)
{
  _sl_engine_link_estimate (self, l, info);
  info->weight = link_weight (self, l, info, inv != NULL);
  info->in_tree = in_tree;
  link_bounds_in_time (self, l, inv != NULL, info);

  if (ra != NULL && inv == NULL)
    {
      info->inversions = 0;
      for (int side = 0; side < 2; side++)
        {
          info->inversions += count_inversions (&l->points[side], 0, side, ra, rb);
          self->inversion_points += l->points[side].len;
        }
      info->inversions_known = TRUE;
      info->inversions_exact = l->points[0].dropped == 0 && l->points[1].dropped == 0;
    }
  else if (ra != NULL)
    {
      if (!l->inv.valid || l->inv.ra != sl_relation_get_serial (ra) || l->inv.rb != sl_relation_get_serial (rb) ||
          l->inv.compactions[0] != l->points[0].compactions || l->inv.compactions[1] != l->points[1].compactions)
        {
          l->inv.valid = TRUE;
          l->inv.ra = sl_relation_get_serial (ra);
          l->inv.rb = sl_relation_get_serial (rb);
          l->inv.inversions = 0;
          for (int side = 0; side < 2; side++)
            {
              l->inv.compactions[side] = l->points[side].compactions;
              l->inv.counted[side] = 0;
            }
        }
      for (int side = 0; side < 2; side++)
        {
          l->inv.inversions += count_inversions (&l->points[side], l->inv.counted[side], side, ra, rb);
          self->inversion_points += l->points[side].len - l->inv.counted[side];
          l->inv.counted[side] = l->points[side].len;
        }
      info->inversions_known = TRUE;
      info->inversions = l->inv.inversions;
      info->inversions_exact = l->points[0].dropped == 0 && l->points[1].dropped == 0;
    }
}

/* Inversions are counted while both hosts have the same reference. */
static void
link_host_relations (SlEngine    *self,
                     const Link  *l,
                     SlRelation **ra,
                     SlRelation **rb)
{
  *ra = *rb = NULL;
  if (sl_graph_get_reference (self->graph, l->a) == sl_graph_get_reference (self->graph, l->b))
    {
      *ra = sl_graph_get_relation (self->graph, l->a);
      *rb = sl_graph_get_relation (self->graph, l->b);
    }
}

/**
 * sl_engine_get_link_quality:
 *
 * The link's quality alone, as sl_engine_get_link_info() gives it, from the
 * link's own estimate: neither its bounds over the hosts' spans nor its
 * inversions, which a host's new relation makes count again over all of
 * the link's points (a live status line asks at every update: without a
 * point retention, a cost growing with the session's length).
 */
SlQuality
sl_engine_get_link_quality (SlEngine *self,
                            guint     link)
{
  SlLinkInfo info;

  g_return_val_if_fail (self != NULL, SL_QUALITY_ABSENT);
  g_return_val_if_fail (link < self->links->len, SL_QUALITY_ABSENT);

  _sl_engine_query_flush (self);
  _sl_engine_link_estimate (self, &g_array_index (self->links, Link, link), &info);
  return info.quality;
}

/* A capture asks for every row: a link whose inputs did not change since
 * the previous one gives the same row without computing it again (its
 * bounds over the hosts' spans, its weight, and above all its inversions,
 * counted again over all of its points whenever a host's relation
 * changed). */
void
sl_engine_get_link_info (SlEngine   *self,
                         guint       link,
                         SlLinkInfo *info)
{
  Link *l;
  RowCache key = { 0 };
  g_autoptr(SlRelation) ra = NULL;
  g_autoptr(SlRelation) rb = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (link < self->links->len);
  g_return_if_fail (info != NULL);

  _sl_engine_query_flush (self);

  l = &g_array_index (self->links, Link, link);
  link_host_relations (self, l, &ra, &rb);
  key.ra = sl_relation_get_serial (ra);
  key.rb = sl_relation_get_serial (rb);
  key.same_reference = ra != NULL;
  row_key (self, l, &key);
  if (!row_key_equal (&l->row, &key))
    {
      row_cache_clear (&l->row);
      link_info_compute (self, l, ra, rb, key.in_tree, &l->inv, &key.info);
      key.valid = TRUE;
      memcpy (&l->row, &key, sizeof key);
    }
  /* memcpy: the padding too, as a row computed now has it */
  memcpy (info, &l->row.info, sizeof *info);
}

/* The points inversions were counted over since the engine began (tests:
 * what a query costs). */
guint64
_sl_engine_get_inversion_points (const SlEngine *self)
{
  return self->inversion_points;
}

/* The row computed again from the link and the graph, the caches neither
 * read nor written: what sl_engine_get_link_info() must give (tests). */
void
_sl_engine_get_link_info_from_scratch (SlEngine   *self,
                                       guint       link,
                                       SlLinkInfo *info)
{
  g_autoptr(SlRelation) ra = NULL;
  g_autoptr(SlRelation) rb = NULL;
  Link *l;

  g_return_if_fail (self != NULL);
  g_return_if_fail (link < self->links->len);
  g_return_if_fail (info != NULL);

  _sl_engine_query_flush (self);
  l = &g_array_index (self->links, Link, link);
  link_host_relations (self, l, &ra, &rb);
  link_info_compute (self, l, ra, rb, l->in_graph && sl_graph_edge_in_tree (self->graph, l->a, l->b),
                     NULL, info);
}


/**
 * sl_engine_get_link_relation:
 *
 * Returns: (transfer full) (nullable): the link's estimate from a's clock to
 * b's with its bound at every instant, or %NULL without an estimate
 */
SlRelation *
sl_engine_get_link_relation (SlEngine *self,
                             guint     link)
{
  Link *l;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (link < self->links->len, NULL);

  _sl_engine_query_flush (self);
  l = &g_array_index (self->links, Link, link);
  if (l->rel == NULL)
    {
      SlLinkInfo info;

      _sl_engine_link_estimate (self, l, &info);
      if (info.has_estimate)
        l->rel = link_relation (self, l, &info);
    }
  return l->rel != NULL ? sl_relation_ref (l->rel) : NULL;
}

guint64
sl_engine_get_n_matches (const SlEngine *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_matches;
}

/* The input time of the first match (0 before it): the changes' input
 * times count from there in the views */
gint64
sl_engine_get_first_input_time (const SlEngine *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->first_input;
}

SlJournal *
sl_engine_get_journal (SlEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  sl_graph_settle_journal (self->graph);
  return self->journal;
}

SlGraph *
sl_engine_get_graph (SlEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->graph;
}

const SlMatcher *
sl_engine_get_matcher (const SlEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->matcher;
}

const SlHull *
sl_engine_get_link_hull (const SlEngine *self,
                         guint           link)
{
  g_return_val_if_fail (link < self->links->len, NULL);
  return sl_segments_get_hull (g_array_index (self->links, Link, link).seg);
}

/* The link's windows and failures (sl-segments.h). */
SlSegments *
sl_engine_get_link_segments (SlEngine *self,
                             guint     link)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (link < self->links->len, NULL);

  return g_array_index (self->links, Link, link).seg;
}

/* The kept matched points of one direction, (t_a, t_b) in absolute time. */
GArray *
sl_engine_get_link_points (const SlEngine *self,
                           guint           link,
                           gboolean        a_to_b)
{
  const SlPointStore *s;
  GArray *ret;

  g_return_val_if_fail (link < self->links->len, NULL);

  s = &g_array_index (self->links, Link, link).points[a_to_b ? 0 : 1];
  ret = g_array_sized_new (FALSE, FALSE, sizeof (SlPoint), s->len);
  for (gsize i = 0; i < s->len; i++)
    {
      SlPoint p = sl_point_store_get (s, i);

      g_array_append_val (ret, p);
    }
  return ret;
}

/**
 * sl_engine_set_point_retention:
 * @retention_ns: see #SlEngineOptions's point_retention_ns (0: none)
 *
 * Applies from the next matched point of each link and direction, and
 * to the journal from its next entry (entries more than this behind the
 * newest input time are dropped and counted). Live sessions set it to
 * their timeline's retention: the hull plot then shows the points of the
 * span the timeline keeps, and neither grows with the hours watched.
 */
void
sl_engine_set_point_retention (SlEngine *self,
                               gint64    retention_ns)
{
  g_return_if_fail (self != NULL);

  self->options.point_retention_ns = MAX (retention_ns, 0);
  sl_journal_set_retention (self->journal, self->options.point_retention_ns);
  _sl_engine_hosts_changed (self);
}

const char *
sl_algorithm_to_string (SlAlgorithm algorithm)
{
  return algorithm == SL_ALGORITHM_LINREG ? "linreg" : "hull";
}

gboolean
sl_algorithm_from_string (const char  *str,
                          SlAlgorithm *algorithm)
{
  g_return_val_if_fail (algorithm != NULL, FALSE);

  if (g_strcmp0 (str, "hull") == 0)
    *algorithm = SL_ALGORITHM_HULL;
  else if (g_strcmp0 (str, "linreg") == 0)
    *algorithm = SL_ALGORITHM_LINREG;
  else
    return FALSE;
  return TRUE;
}

const char *
sl_tree_kind_to_string (SlTreeKind kind)
{
  return kind == SL_TREE_SHORTEST_PATH ? "shortest-path" : "mst";
}

gboolean
sl_tree_kind_from_string (const char *str,
                          SlTreeKind *kind)
{
  g_return_val_if_fail (kind != NULL, FALSE);

  if (g_strcmp0 (str, "mst") == 0)
    *kind = SL_TREE_MST;
  else if (g_strcmp0 (str, "shortest-path") == 0)
    *kind = SL_TREE_SHORTEST_PATH;
  else
    return FALSE;
  return TRUE;
}
