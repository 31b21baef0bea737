/* sl-timeline-private.h: what the sl-timeline*.c files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-interner.h"
#include "sl-relation.h"
#include "sl-timeline.h"

G_BEGIN_DECLS

/* A row's intervals are a flat array of starts (the end of one is the start
 * of the next); every BLOCK intervals, a block keeps the time spent in each
 * state before it, so the time per state over any span is two prefix
 * lookups, and the blocks' start times, a compact array searched before
 * the intervals. */
#define SL_TL_BLOCK_SHIFT 5
#define SL_TL_BLOCK       (1u << SL_TL_BLOCK_SHIFT)

/* An interval's start is its offset from its block's start, in 40 bits
 * (18 minutes): 12 bytes an interval, not 16 (four fifths of what building
 * a row writes, so of the pages it faults in). A start further from its
 * block's keeps SL_TL_FAR and is in the row's far array. */
#define SL_TL_FAR ((G_GUINT64_CONSTANT (1) << 40) - 1)

typedef struct
{
  guint32 off;
  guint32 detail;
  guint16 cpu;
  guint8  state;
  guint8  off_hi;
} SlTlIval;

/* the start of interval @index, whose offset is SL_TL_FAR */
typedef struct
{
  guint64 index;
  gint64  start;
} SlTlFar;

typedef struct
{
  gint64 cum[SL_TIMELINE_N_STATES];
} SlTlBlock;

typedef struct
{
  SlTlIval  *iv;
  guint64    n_iv;
  guint64    cap_iv;
  SlTlBlock *blocks;
  gint64    *block_start;
  guint64    n_blocks;
  guint64    cap_blocks;
  /* by index */
  SlTlFar   *far;
  guint64    n_far;
  guint64    cap_far;
  /* time per state before iv[n_iv - 1].start */
  gint64     cum[SL_TIMELINE_N_STATES];

  guint8     kind;
  /* SL_TL_SCRATCH_* bits: arrays held in the timeline's scratch area */
  guint8     scratch;
  guint      host;
  guint      parent;
  guint32    tid;
  guint32    pid;
  guint32    ppid;
  guint      cpu;
  guint32    name;
  gint64     first;
  gint64     exited_at;
  guint      thread_row;
  guint      prev_same_tid;
  GArray    *children;
  /* messages sent or received by the row (arrows ending on it) */
  guint64    n_msgs;
  gboolean   kernel;
} SlTlRow;

typedef struct
{
  gint64  send_time;
  gint64  recv_time;
  guint32 send_row;
  guint32 recv_row;
  guint32 conn;
  guint16 send_cpu;
  guint16 recv_cpu;
} SlTlArrow;

/* Where an arrow's uncertainty comes from: a constant, the bound of the
 * link's relation at the message's instant (a tree link), or the sum of
 * the two hosts' bounds at the send and receive instants. */
typedef enum
{
  SL_TL_UNCERTAINTY_CONSTANT,
  SL_TL_UNCERTAINTY_LINK,
  SL_TL_UNCERTAINTY_HOSTS,
} SlTlUncertainty;

/* All arrows from one host to another, sorted by send time. */
typedef struct
{
  guint      send_host;
  guint      recv_host;
  SlTlArrow *a;
  guint64    n;
  guint64    cap;
  gint64     min_delta;
  gint64     max_delta;
  SlTlUncertainty mode;
  double     uncertainty_ns;
  SlRelation *link;
  gboolean   link_from_b;
} SlTlLane;

typedef struct
{
  guint   row;
  guint32 tid;
  guint32 syscall;
  gint32  cpu;
  guint8  off_state;
  guint8  exited;
  guint8  dead;
  gint64  last_switch;
} SlTlThread;

typedef struct
{
  guint       row;
  guint32     tid;
  SlTlThread *cur;
  guint16     irq;
  guint16     softirq;
  guint32     irq_line;
  guint32     vec;
} SlTlCpu;

typedef struct _SlTlHost SlTlHost;

typedef struct _SlTlEarly SlTlEarly;

typedef struct _SlTlScratch SlTlScratch;

#define SL_TL_SCRATCH_IV     (1u << 0)
#define SL_TL_SCRATCH_BLOCKS (1u << 1)

struct _SlTimeline
{
  GPtrArray    *hosts;
  GPtrArray    *rows;
  SlInterner   *strings;
  /* matches waiting for their ends' rows; appended under the lock, which
   * the builder's thread takes to read them (sl_timeline_builder_new()) */
  GArray       *pending;
  GMutex        pending_lock;
  /* the builder's thread's: pending matches' ends resolved as each host is
   * built, until it is joined */
  SlTlEarly    *early;
  /* where new rows' arrays grow while a host's events are taken
   * (sl-timeline-query.c); NULL until the first */
  SlTlScratch  *scratch;
  /* bytes of intervals and of their index copied from one array to
   * another (growing outside the scratch area, or leaving it) */
  guint64       interval_copy_bytes;
  /* and from one array to another in the scratch area */
  guint64       scratch_copy_bytes;
  GPtrArray    *lanes;
  GHashTable   *lane_by_pair;
  GArray       *conns;
  GHashTable   *conn_by_key;
  guint64       n_arrows;
  guint64       events;
};

#define SL_TL_THREAD_CACHE 256

struct _SlTlHost
{
  char               *name;
  const SlEventStore *store;
  guint               row;
  guint64             consumed[SL_EVENT_N_STREAMS];
  GHashTable         *threads;
  /* threads' entries by tid modulo the size, each the one @threads has for
   * its tid (set by the builder wherever it inserts or looks up) */
  SlTlThread         *thread_cache[SL_TL_THREAD_CACHE];
  GPtrArray          *all_threads;
  GHashTable         *processes;
  GArray             *cpus;
  GArray             *str_map;
  gint64              first;
  gint64              end;
  gboolean            has_data;
  gboolean            has_view;
  SlTransform         to_view;
  SlTransform         from_view;
  double              bound_ns;
  /* With a piecewise map: to_view = anim ∘ bound_rel, anim = the shown
   * transform ∘ rep⁻¹ (identity once a move has ended) */
  SlRelation         *bound_rel;
  SlRelation         *rel_inv;
  gboolean            has_rep;
  SlTransform         rep;
  SlTransform         anim;
  SlTransform         anim_inv;
  guint64             net_cursor;
  /* local time from which the host's data is kept (G_MININT64: all) */
  gint64              kept_from;
};

/* The host is shown through a piecewise map (sl_timeline_set_host_relation()). */
static inline gboolean
piecewise_view (const SlTlHost *h)
{
  return h->has_view && h->has_rep && h->bound_rel != NULL && h->rel_inv != NULL;
}

/* The thread @h has for @tid (its latest task with that tid), or NULL */
static inline SlTlThread *
sl_tl_thread_find (const SlTlHost *h,
                   guint32         tid)
{
  SlTlThread *th = h->thread_cache[tid % SL_TL_THREAD_CACHE];

  if (th != NULL && th->tid == tid)
    return th;
  return g_hash_table_lookup (h->threads, GUINT_TO_POINTER (tid));
}

static inline SlTlRow *
sl_tl_row (const SlTimeline *self,
           guint             row)
{
  return g_ptr_array_index (self->rows, row);
}

static inline SlTlHost *
sl_tl_host (const SlTimeline *self,
            guint             host)
{
  return host < self->hosts->len ? g_ptr_array_index (self->hosts, host) : NULL;
}

gint64   _sl_tl_far_start         (const SlTlRow    *r,
                                   guint64           index);

/* The start of @r's interval @index */
static inline gint64
sl_tl_iv_start (const SlTlRow *r,
                guint64        index)
{
  const SlTlIval *iv = &r->iv[index];
  guint64 off = iv->off | (guint64) iv->off_hi << 32;

  if (G_LIKELY (off != SL_TL_FAR))
    return (gint64) ((guint64) r->block_start[index >> SL_TL_BLOCK_SHIFT] + off);
  return _sl_tl_far_start (r, index);
}

void     _sl_tl_row_push_new      (SlTimeline       *self,
                                   SlTlRow          *row,
                                   gint64            t,
                                   guint8            state,
                                   guint16           cpu,
                                   guint32           detail);
/* Appends a state starting at @t (sl-timeline-query.c); most calls repeat
 * the row's last state and return here. */
static inline void
_sl_tl_row_push (SlTimeline *self,
                 SlTlRow    *row,
                 gint64      t,
                 guint8      state,
                 guint16     cpu,
                 guint32     detail)
{
  const SlTlIval *last = row->n_iv > 0 ? &row->iv[row->n_iv - 1] : NULL;

  if (last != NULL && last->state == state && last->cpu == cpu && last->detail == detail)
    return;
  _sl_tl_row_push_new (self, row, t, state, cpu, detail);
}

void     _sl_tl_scratch_settle    (SlTimeline       *self);
void     _sl_tl_scratch_free      (SlTimeline       *self);
/* (tests: a smaller area, so that rows outgrow it) */
void     _sl_tl_scratch_set_limits (SlTimeline      *self,
                                   gsize             row_max,
                                   gsize             max);

void     _sl_tl_row_clear         (SlTlRow          *row);
guint64  _sl_tl_row_drop_before   (SlTlRow          *row,
                                   gint64            t);
gsize    _sl_tl_row_memory        (const SlTlRow    *row);
gint64   _sl_tl_row_end           (const SlTimeline *self,
                                   const SlTlRow    *row);

void     _sl_tl_arrows_init       (SlTimeline       *self);
void     _sl_tl_arrows_clear      (SlTimeline       *self);
void     _sl_tl_arrows_resolve    (SlTimeline       *self);
void     _sl_tl_arrows_host_built (SlTimeline       *self,
                                   guint             host);
void     _sl_tl_arrows_take_new   (SlTimeline       *self);
guint64  _sl_tl_arrows_drop_before (SlTimeline      *self,
                                   guint             host,
                                   gint64            t);
gsize    _sl_tl_arrows_memory     (const SlTimeline *self);
guint    _sl_tl_thread_row_at     (const SlTimeline *self,
                                   SlTlHost         *h,
                                   guint32           tid,
                                   gint64            t);

const SlTlLane *_sl_tl_lane_find     (const SlTimeline *self,
                                     guint             send_host,
                                     guint             recv_host);
guint64  _sl_tl_arrow_lower_bound (const SlTlLane   *l,
                                   guint64           from,
                                   gint64            t);
void     _sl_tl_fill_arrow        (const SlTimeline *self,
                                   const SlTlLane   *l,
                                   const SlTlArrow  *a,
                                   gint64            send_view,
                                   gint64            recv_view,
                                   SlTimelineArrow  *o);

guint32   _sl_tl_intern (SlTimeline *self,
                         const char *str);
guint32   _sl_tl_host_str (SlTimeline *self,
                           SlTlHost   *h,
                           guint32     sid);
guint     _sl_tl_row_new (SlTimeline        *self,
                          SlTimelineRowKind  kind,
                          guint              host,
                          guint              parent,
                          gint64             t);
void      _sl_tl_row_reparent (SlTimeline *self,
                               guint       row,
                               guint       parent);

G_END_DECLS
