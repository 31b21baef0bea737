/* sl-timeline-query.c: interval storage, prefix index and per-pixel queries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-timeline-private.h"

G_STATIC_ASSERT (sizeof (SlTlIval) == 12);

/* Time per state over [a, b) is cum(b) - cum(a), where cum(t) is a block
 * prefix plus the few intervals between that block's edge and t's
 * interval. A pixel costs a galloping search from the previous boundary and
 * at most BLOCK / 2 interval steps, whatever the number of intervals it
 * covers. */

#define N_STATES SL_TIMELINE_N_STATES

static inline gboolean
same_state (const SlTlIval *iv,
            guint8          state,
            guint16         cpu,
            guint32         detail)
{
  return iv->state == state && iv->cpu == cpu && iv->detail == detail;
}

/* A new row's arrays grow in a scratch area, reused host after host, and
 * are copied once, at their final size, when the host's new events have
 * been taken (_sl_tl_scratch_settle()). Grown by realloc, they were copied
 * 2.4 times over on average into memory not touched before: 70 % of
 * building the rows of a finished trace (perf, 100 hosts). Arrays that
 * held intervals before (a live session's rows) grow by realloc as before,
 * as do arrays beyond ROW_MAX; the area's rows are settled early when it
 * holds MAX. */
#define SCRATCH_BLOCK   ((gsize) 1 << 20)
#define SCRATCH_KEEP    ((gsize) 4 << 20)
#define SCRATCH_ROW_MAX ((gsize) 4 << 20)
#define SCRATCH_MAX     ((gsize) 64 << 20)
#define SCRATCH_ALIGN   16

typedef struct
{
  guint8 *data;
  gsize   size;
} ScratchBlock;

struct _SlTlScratch
{
  GArray    *blocks;
  guint      cur;
  gsize      used;
  /* bytes handed out since the area was last settled */
  gsize      held;
  gsize      row_max;
  gsize      max;
  /* rows with arrays here (or that had) */
  GPtrArray *rows;
};

static SlTlScratch *
scratch_get (SlTimeline *self)
{
  SlTlScratch *sc = self->scratch;

  if (sc == NULL)
    {
      sc = self->scratch = g_new0 (SlTlScratch, 1);
      sc->blocks = g_array_new (FALSE, FALSE, sizeof (ScratchBlock));
      sc->rows = g_ptr_array_new ();
      sc->row_max = SCRATCH_ROW_MAX;
      sc->max = SCRATCH_MAX;
    }
  return sc;
}

static gpointer
scratch_alloc (SlTlScratch *sc,
               gsize        bytes)
{
  gpointer p;

  bytes = (bytes + SCRATCH_ALIGN - 1) & ~(gsize) (SCRATCH_ALIGN - 1);
  while (sc->cur < sc->blocks->len && sc->used + bytes > g_array_index (sc->blocks, ScratchBlock, sc->cur).size)
    sc->cur++, sc->used = 0;
  if (sc->cur == sc->blocks->len)
    {
      ScratchBlock b = { NULL, MAX (SCRATCH_BLOCK, bytes) };

      b.data = g_malloc (b.size);
      g_array_append_val (sc->blocks, b);
    }
  p = g_array_index (sc->blocks, ScratchBlock, sc->cur).data + sc->used;
  sc->used += bytes;
  sc->held += bytes;
  return p;
}

/* @n elements of @size at @p, copied into a new array of @cap of them */
static gpointer
array_copy (SlTimeline    *self,
            gconstpointer  p,
            gsize          n,
            gsize          cap,
            gsize          size)
{
  gpointer q = g_malloc_n (cap, size);

  if (n > 0)
    memcpy (q, p, n * size);
  self->interval_copy_bytes += n * size;
  return q;
}

/* Moves @r's arrays out of the scratch area, each as long as its
 * intervals (@exact) or its capacity */
static void
row_settle (SlTimeline *self,
            SlTlRow    *r,
            gboolean    exact)
{
  /* (an array settled early keeps room to grow by half, not the area's
   * fourfold) */
  if (r->scratch & SL_TL_SCRATCH_IV)
    {
      r->cap_iv = exact ? r->n_iv : MIN (r->cap_iv, r->n_iv + r->n_iv / 2 + 4);
      r->iv = array_copy (self, r->iv, r->n_iv, r->cap_iv, sizeof *r->iv);
    }
  if (r->scratch & SL_TL_SCRATCH_BLOCKS)
    {
      r->cap_blocks = exact ? r->n_blocks : MIN (r->cap_blocks, r->n_blocks + r->n_blocks / 2 + 2);
      r->blocks = array_copy (self, r->blocks, r->n_blocks, r->cap_blocks, sizeof *r->blocks);
      r->block_start = array_copy (self, r->block_start, r->n_blocks, r->cap_blocks, sizeof *r->block_start);
    }
  r->scratch = 0;
}

static void
scratch_settle (SlTimeline *self,
                gboolean    exact)
{
  SlTlScratch *sc = self->scratch;

  for (guint i = 0; i < sc->rows->len; i++)
    row_settle (self, g_ptr_array_index (sc->rows, i), exact);
  g_ptr_array_set_size (sc->rows, 0);
  sc->cur = 0;
  sc->used = 0;
  sc->held = 0;
}

/* Whether @r's arrays of @bit, of @old_cap elements, grow into the
 * scratch area (to @bytes in all) */
static gboolean
scratch_use (SlTimeline *self,
             SlTlRow    *r,
             guint       bit,
             gsize       old_cap,
             gsize       bytes)
{
  SlTlScratch *sc = scratch_get (self);

  if (sc->held + bytes > sc->max)
    scratch_settle (self, FALSE);
  if ((old_cap > 0 && !(r->scratch & bit)) || bytes > sc->row_max)
    return FALSE;
  if (r->scratch == 0)
    g_ptr_array_add (sc->rows, r);
  return TRUE;
}

/* @p (@n elements of @size) in an array of @new_cap of them */
static gpointer
array_grow (SlTimeline *self,
            gpointer    p,
            gsize       n,
            gsize       new_cap,
            gsize       size,
            gboolean    from_scratch,
            gboolean    to_scratch)
{
  gpointer q;

  if (to_scratch)
    {
      q = scratch_alloc (self->scratch, new_cap * size);
      if (n > 0)
        memcpy (q, p, n * size);
      self->scratch_copy_bytes += n * size;
      g_assert (from_scratch || p == NULL);
      return q;
    }
  if (from_scratch)
    return array_copy (self, p, n, new_cap, size);
  self->interval_copy_bytes += n * size;
  return g_realloc_n (p, new_cap, size);
}

/* The capacity after @cap (at least @min), and whether it is in the
 * scratch area (*@to). The area's space comes back host after host: there
 * an array grows fourfold, and a host's intervals are copied from array to
 * array 0.3-0.7 times rather than 2.4 (growing by half; a third of
 * building a host's rows, perf, 29 hosts of a generated set). */
static gsize
grow_cap (SlTimeline *self,
          SlTlRow    *r,
          guint       bit,
          gsize       cap,
          gsize       min,
          gsize       size,
          gboolean   *to)
{
  gsize small = cap < min ? min : cap + cap / 2;
  gsize big = cap < min ? min : cap * 4;

  if (big > small && scratch_use (self, r, bit, cap, big * size))
    {
      *to = TRUE;
      return big;
    }
  *to = scratch_use (self, r, bit, cap, small * size);
  return small;
}

static void
grow_iv (SlTimeline *self,
         SlTlRow    *r)
{
  gboolean to;
  gsize cap = grow_cap (self, r, SL_TL_SCRATCH_IV, r->cap_iv, 4, sizeof *r->iv, &to);
  gboolean from = (r->scratch & SL_TL_SCRATCH_IV) != 0;

  r->iv = array_grow (self, r->iv, r->n_iv, cap, sizeof *r->iv, from, to);
  r->cap_iv = cap;
  r->scratch = to ? r->scratch | SL_TL_SCRATCH_IV : r->scratch & ~SL_TL_SCRATCH_IV;
}

static void
grow_blocks (SlTimeline *self,
             SlTlRow    *r)
{
  gboolean to;
  gsize cap = grow_cap (self, r, SL_TL_SCRATCH_BLOCKS, r->cap_blocks, 2,
                        sizeof *r->blocks + sizeof *r->block_start, &to);
  gboolean from = (r->scratch & SL_TL_SCRATCH_BLOCKS) != 0;

  r->blocks = array_grow (self, r->blocks, r->n_blocks, cap, sizeof *r->blocks, from, to);
  r->block_start = array_grow (self, r->block_start, r->n_blocks, cap, sizeof *r->block_start, from, to);
  r->cap_blocks = cap;
  r->scratch = to ? r->scratch | SL_TL_SCRATCH_BLOCKS : r->scratch & ~SL_TL_SCRATCH_BLOCKS;
}

/* The rows grown since the last call get arrays of their final size; the
 * area keeps up to SCRATCH_KEEP for the next host. */
void
_sl_tl_scratch_settle (SlTimeline *self)
{
  SlTlScratch *sc = self->scratch;
  gsize kept = 0;
  guint keep = 0;

  if (sc == NULL)
    return;
  scratch_settle (self, TRUE);
  while (keep < sc->blocks->len && kept + g_array_index (sc->blocks, ScratchBlock, keep).size <= SCRATCH_KEEP)
    kept += g_array_index (sc->blocks, ScratchBlock, keep++).size;
  for (guint i = keep; i < sc->blocks->len; i++)
    g_free (g_array_index (sc->blocks, ScratchBlock, i).data);
  g_array_set_size (sc->blocks, keep);
}

void
_sl_tl_scratch_free (SlTimeline *self)
{
  SlTlScratch *sc = self->scratch;

  if (sc == NULL)
    return;
  scratch_settle (self, TRUE);
  for (guint i = 0; i < sc->blocks->len; i++)
    g_free (g_array_index (sc->blocks, ScratchBlock, i).data);
  g_array_unref (sc->blocks);
  g_ptr_array_unref (sc->rows);
  g_free (sc);
  self->scratch = NULL;
}

void
_sl_tl_scratch_set_limits (SlTimeline *self,
                           gsize       row_max,
                           gsize       max)
{
  SlTlScratch *sc = scratch_get (self);

  sc->row_max = row_max;
  sc->max = max;
}

gint64
_sl_tl_far_start (const SlTlRow *r,
                  guint64        index)
{
  guint64 lo = 0, hi = r->n_far;

  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (r->far[mid].index <= index)
        lo = mid;
      else
        hi = mid;
    }
  g_assert (lo < r->n_far && r->far[lo].index == index);
  return r->far[lo].start;
}

/* Stores @t as the start of @r's last interval */
static void
set_last_start (SlTlRow *r,
                gint64   t)
{
  guint64 i = r->n_iv - 1;
  SlTlIval *iv = &r->iv[i];
  guint64 off = (guint64) t - (guint64) r->block_start[i >> SL_TL_BLOCK_SHIFT];

  if (off >= SL_TL_FAR)
    {
      if (r->n_far == r->cap_far)
        {
          r->cap_far = MAX (4, r->cap_far * 2);
          r->far = g_renew (SlTlFar, r->far, r->cap_far);
        }
      r->far[r->n_far++] = (SlTlFar) { i, t };
      off = SL_TL_FAR;
    }
  iv->off = (guint32) off;
  iv->off_hi = (guint8) (off >> 32);
}

/* Appends a state starting at @t. The store may hold sub-microsecond
 * inversions between packets: an earlier @t replaces the last state from its
 * start instead of going back in time. */
void
_sl_tl_row_push_new (SlTimeline *self,
                     SlTlRow    *r,
                     gint64      t,
                     guint8      state,
                     guint16     cpu,
                     guint32     detail)
{
  SlTlIval *last;

  if (r->n_iv > 0)
    {
      gint64 last_start = sl_tl_iv_start (r, r->n_iv - 1);

      last = &r->iv[r->n_iv - 1];
      if (same_state (last, state, cpu, detail))
        return;
      if (t <= last_start)
        {
          if (r->n_iv > 1 && same_state (&r->iv[r->n_iv - 2], state, cpu, detail))
            {
              /* back to what the previous interval was: merge */
              const SlTlIval *prev = &r->iv[r->n_iv - 2];

              r->cum[prev->state] -= last_start - sl_tl_iv_start (r, r->n_iv - 2);
              if (r->n_far > 0 && r->far[r->n_far - 1].index == r->n_iv - 1)
                r->n_far--;
              if (((r->n_iv - 1) & (SL_TL_BLOCK - 1)) == 0)
                r->n_blocks--;
              r->n_iv--;
              return;
            }
          last->state = state;
          last->cpu = cpu;
          last->detail = detail;
          return;
        }
      r->cum[last->state] += t - last_start;
    }

  if ((r->n_iv & (SL_TL_BLOCK - 1)) == 0)
    {
      if (r->n_blocks == r->cap_blocks)
        grow_blocks (self, r);
      memcpy (r->blocks[r->n_blocks].cum, r->cum, sizeof r->cum);
      r->block_start[r->n_blocks] = t;
      r->n_blocks++;
    }
  if (r->n_iv == r->cap_iv)
    grow_iv (self, r);
  r->iv[r->n_iv++] = (SlTlIval) { .detail = detail, .cpu = cpu, .state = state };
  set_last_start (r, t);
}

void
_sl_tl_row_clear (SlTlRow *r)
{
  g_assert (r->scratch == 0);
  g_clear_pointer (&r->iv, g_free);
  g_clear_pointer (&r->blocks, g_free);
  g_clear_pointer (&r->block_start, g_free);
  g_clear_pointer (&r->far, g_free);
  r->n_iv = r->cap_iv = r->n_blocks = r->cap_blocks = 0;
  r->n_far = r->cap_far = 0;
}

static gint64 find_index (const SlTlRow *r,
                          gint64         from,
                          gint64         t);

/* Drops the row's whole blocks of intervals that end at or before @t: the
 * remaining blocks' prefixes are re-based on the first kept one, so the
 * time per state before the first kept interval is 0, as for a row that
 * begins there. Returns how many intervals were dropped. */
guint64
_sl_tl_row_drop_before (SlTlRow *r,
                        gint64   t)
{
  gint64 base[SL_TIMELINE_N_STATES];
  guint64 nb, ni, j, nf = 0;

  if (r->n_iv < 2 || sl_tl_iv_start (r, 1) > t)
    return 0;
  /* the last interval starting at or before t: those before it end by t */
  j = (guint64) find_index (r, -1, t);
  nb = j >> SL_TL_BLOCK_SHIFT;
  if (nb == 0)
    return 0;
  ni = nb << SL_TL_BLOCK_SHIFT;
  memcpy (base, r->blocks[nb].cum, sizeof base);
  for (guint64 b = nb; b < r->n_blocks; b++)
    for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
      r->blocks[b].cum[s] -= base[s];
  for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
    r->cum[s] -= base[s];
  memmove (r->iv, r->iv + ni, (r->n_iv - ni) * sizeof *r->iv);
  memmove (r->blocks, r->blocks + nb, (r->n_blocks - nb) * sizeof *r->blocks);
  memmove (r->block_start, r->block_start + nb, (r->n_blocks - nb) * sizeof *r->block_start);
  /* whole blocks go: the kept offsets keep their blocks' starts */
  while (nf < r->n_far && r->far[nf].index < ni)
    nf++;
  for (guint64 f = nf; f < r->n_far; f++)
    r->far[f] = (SlTlFar) { r->far[f].index - ni, r->far[f].start };
  /* (no far starts: r->far may be NULL, which memmove must not get) */
  if (nf > 0)
    memmove (r->far, r->far + nf, (r->n_far - nf) * sizeof *r->far);
  r->n_far -= nf;
  r->n_iv -= ni;
  r->n_blocks -= nb;
  return ni;
}

gsize
_sl_tl_row_memory (const SlTlRow *r)
{
  return r->cap_iv * sizeof (SlTlIval) + r->cap_blocks * (sizeof (SlTlBlock) + sizeof (gint64)) +
         r->cap_far * sizeof (SlTlFar);
}

/* ---------------------------------------------------------------------- */
/* Cursor                                                                  */

typedef struct
{
  const SlTlRow *r;
  gint64         end;
  gint64         j;
  gint64         cum[N_STATES];
} Cursor;

static void
cursor_init (Cursor        *c,
             const SlTlRow *r,
             gint64         end)
{
  c->r = r;
  c->end = end;
  c->j = -1;
  memset (c->cum, 0, sizeof c->cum);
}

/* Last interval starting at or before @t, or -1: a galloping search of the
 * block starts from the previous answer's block, then a bisection inside
 * the block. */
static gint64
find_index (const SlTlRow *r,
            gint64         from,
            gint64         t)
{
  const gint64 *bs = r->block_start;
  gint64 nb = (gint64) r->n_blocks, lo, hi, step;

  if (r->n_iv == 0 || bs[0] > t)
    return -1;
  lo = from >= 0 ? from >> SL_TL_BLOCK_SHIFT : 0;
  if (lo >= nb || bs[lo] > t)
    lo = 0;

  step = 1;
  while (lo + step < nb && bs[lo + step] <= t)
    {
      lo += step;
      step <<= 1;
    }
  hi = MIN (lo + step, nb);
  while (hi - lo > 1)
    {
      gint64 mid = lo + (hi - lo) / 2;

      if (bs[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }

  hi = MIN ((lo + 1) << SL_TL_BLOCK_SHIFT, (gint64) r->n_iv);
  lo <<= SL_TL_BLOCK_SHIFT;
  while (hi - lo > 1)
    {
      gint64 mid = lo + (hi - lo) / 2;

      if (sl_tl_iv_start (r, (guint64) mid) <= t)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* Moves the cursor to interval @j, keeping cum = time per state before
 * iv[j].start: the shortest walk from where the cursor is, from the
 * prefix of j's block forwards, or from the next prefix (or the row's
 * running total) backwards. */
static void
cursor_move (Cursor *c,
             gint64  j)
{
  const SlTlRow *r = c->r;
  gint64 b = j >> SL_TL_BLOCK_SHIFT, fwd, bwd, top, k;

  if (j == c->j)
    return;
  if (j < 0)
    {
      c->j = -1;
      memset (c->cum, 0, sizeof c->cum);
      return;
    }

  fwd = j & (SL_TL_BLOCK - 1);
  top = b + 1 < (gint64) r->n_blocks ? (b + 1) << SL_TL_BLOCK_SHIFT : (gint64) r->n_iv - 1;
  bwd = top - j;
  if (c->j >= 0 && j > c->j && j - c->j <= MIN (fwd, bwd))
    k = c->j;
  else if (fwd <= bwd)
    {
      k = j - fwd;
      memcpy (c->cum, r->blocks[b].cum, sizeof c->cum);
    }
  else
    {
      memcpy (c->cum, b + 1 < (gint64) r->n_blocks ? r->blocks[b + 1].cum : r->cum, sizeof c->cum);
      for (k = top - 1; k >= j; k--)
        c->cum[r->iv[k].state] -= sl_tl_iv_start (r, (guint64) k + 1) - sl_tl_iv_start (r, (guint64) k);
      c->j = j;
      return;
    }
  for (; k < j; k++)
    c->cum[r->iv[k].state] += sl_tl_iv_start (r, (guint64) k + 1) - sl_tl_iv_start (r, (guint64) k);
  c->j = j;
}

/* Time per state before @t into @out; the cursor moves to t's interval. */
static void
cursor_cum (Cursor *c,
            gint64  t,
            gint64  out[N_STATES])
{
  gint64 start;

  cursor_move (c, find_index (c->r, c->j, t));
  memcpy (out, c->cum, sizeof c->cum);
  if (c->j < 0)
    return;
  start = sl_tl_iv_start (c->r, (guint64) c->j);
  t = MIN (t, c->end);
  if (t > start)
    out[c->r->iv[c->j].state] += t - start;
}

/* ---------------------------------------------------------------------- */
/* Queries                                                                 */

static const SlTlRow *
state_row (const SlTimeline *self,
           guint             row)
{
  const SlTlRow *r = sl_tl_row (self, row);

  if (r->kind == SL_TIMELINE_ROW_PROCESS)
    return r->thread_row != SL_TIMELINE_NONE ? sl_tl_row (self, r->thread_row) : NULL;
  if (r->kind == SL_TIMELINE_ROW_HOST || r->n_iv == 0)
    return NULL;
  return r;
}

guint64
sl_timeline_get_n_intervals (const SlTimeline *self,
                             guint             row)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (row < self->rows->len, 0);

  return sl_tl_row (self, row)->n_iv;
}

void
sl_timeline_get_interval (const SlTimeline   *self,
                          guint               row,
                          guint64             index,
                          SlTimelineInterval *interval)
{
  const SlTlRow *r;
  const SlTlIval *iv;

  g_return_if_fail (self != NULL);
  g_return_if_fail (row < self->rows->len);
  g_return_if_fail (interval != NULL);

  r = sl_tl_row (self, row);
  g_return_if_fail (index < r->n_iv);

  iv = &r->iv[index];
  interval->start = sl_tl_iv_start (r, index);
  interval->end = index + 1 < r->n_iv ? sl_tl_iv_start (r, index + 1) : MAX (interval->start, _sl_tl_row_end (self, r));
  interval->state = iv->state;
  interval->cpu = iv->cpu;
  interval->detail = iv->detail;
}

/* The interval of @row covering @local, or G_MAXUINT64 outside them. */
guint64
sl_timeline_find_interval (const SlTimeline *self,
                           guint             row,
                           gint64            local)
{
  const SlTlRow *r;
  gint64 j;

  g_return_val_if_fail (self != NULL, G_MAXUINT64);
  g_return_val_if_fail (row < self->rows->len, G_MAXUINT64);

  r = sl_tl_row (self, row);
  j = find_index (r, -1, local);
  if (j < 0 || local > _sl_tl_row_end (self, r))
    return G_MAXUINT64;
  return (guint64) j;
}

void
sl_timeline_get_state_time (const SlTimeline *self,
                            guint             row,
                            gint64            t0,
                            gint64            t1,
                            gint64            ns[SL_TIMELINE_N_STATES])
{
  const SlTlRow *r;
  gint64 a[N_STATES], total = 0;
  Cursor c;

  g_return_if_fail (self != NULL);
  g_return_if_fail (row < self->rows->len);
  g_return_if_fail (ns != NULL);

  memset (ns, 0, N_STATES * sizeof (gint64));
  if (t1 <= t0)
    return;
  r = state_row (self, row);
  if (r != NULL)
    {
      cursor_init (&c, r, _sl_tl_row_end (self, r));
      cursor_cum (&c, t0, a);
      cursor_cum (&c, t1, ns);
      for (guint s = 0; s < N_STATES; s++)
        {
          ns[s] -= a[s];
          total += ns[s];
        }
    }
  ns[SL_TIMELINE_STATE_NONE] += (t1 - t0) - total;
}

static void
fill_none (SlTimelinePixel *out,
           guint            n_px)
{
  for (guint k = 0; k < n_px; k++)
    {
      memset (&out[k], 0, sizeof out[k]);
      out[k].state = SL_TIMELINE_STATE_NONE;
      out[k].n_states = 1;
      out[k].cpu = SL_TIMELINE_NO_CPU;
      out[k].fraction[SL_TIMELINE_STATE_NONE] = 1.0f;
    }
}

typedef struct
{
  Cursor  c;
  gint64  at;
  gint64  cum[N_STATES];
  gboolean started;
} Query;

static void
pixel_set_plain (SlTimelinePixel *px,
                 const SlTlIval  *iv)
{
  memset (px->fraction, 0, sizeof px->fraction);
  px->state = iv != NULL ? iv->state : SL_TIMELINE_STATE_NONE;
  px->n_states = 1;
  px->cpu = iv != NULL ? iv->cpu : SL_TIMELINE_NO_CPU;
  px->detail = iv != NULL ? iv->detail : 0;
  px->fraction[px->state] = 1.0f;
}

static void
query_pixels (Query           *q,
              const gint64    *bounds,
              guint            n_px,
              SlTimelinePixel *out)
{
  const SlTlRow *r = q->c.r;
  gint64 next[N_STATES];

  if (!q->started)
    {
      cursor_cum (&q->c, bounds[0], q->cum);
      q->at = bounds[0];
      q->started = TRUE;
    }

  for (guint k = 0; k < n_px; k++)
    {
      SlTimelinePixel *px = &out[k];
      gint64 j0 = q->c.j, t0 = q->at, t1 = MAX (bounds[k + 1], t0), total = t1 - t0, sum = 0, best = -1;
      guint n_states = 0;
      double inv;

      /* zoomed in, most pixels lie inside one interval */
      if (j0 >= 0 && t1 <= q->c.end &&
          (j0 + 1 == (gint64) r->n_iv || sl_tl_iv_start (r, (guint64) j0 + 1) > t1))
        {
          const SlTlIval *iv = &r->iv[j0];

          pixel_set_plain (px, iv);
          px->n_changes = 0;
          q->cum[iv->state] += total;
          q->at = t1;
          continue;
        }

      cursor_cum (&q->c, t1, next);
      px->n_changes = (guint32) MIN (q->c.j - j0, (gint64) G_MAXUINT32);

      if (total == 0)
        {
          /* an empty pixel shows the state at its place */
          pixel_set_plain (px, j0 >= 0 && t0 <= q->c.end ? &r->iv[j0] : NULL);
          memcpy (q->cum, next, sizeof next);
          continue;
        }

      px->state = SL_TIMELINE_STATE_NONE;
      inv = 1.0 / (double) total;
      for (guint s = 1; s < N_STATES; s++)
        {
          gint64 d = next[s] - q->cum[s];

          sum += d;
          px->fraction[s] = (float) ((double) d * inv);
          if (d > 0)
            n_states++;
          if (d > best)
            best = d, px->state = (guint8) s;
        }
      px->fraction[SL_TIMELINE_STATE_NONE] = (float) ((double) (total - sum) * inv);
      if (total > sum)
        {
          n_states++;
          if (total - sum >= best)
            px->state = SL_TIMELINE_STATE_NONE;
        }
      px->n_states = (guint8) MIN (n_states, 255u);

      px->cpu = SL_TIMELINE_NO_CPU;
      px->detail = 0;
      if (px->state != SL_TIMELINE_STATE_NONE)
        {
          gint64 first = MAX (j0, 0), stop = MIN (q->c.j, first + 8);

          for (gint64 j = first; j <= stop; j++)
            if (r->iv[j].state == px->state && (j == first || sl_tl_iv_start (r, (guint64) j) < t1))
              {
                px->cpu = r->iv[j].cpu;
                px->detail = r->iv[j].detail;
                break;
              }
        }

      memcpy (q->cum, next, sizeof next);
      q->at = t1;
    }
}

void
sl_timeline_query_row_bounds (const SlTimeline *self,
                              guint             row,
                              const gint64     *bounds,
                              guint             n_px,
                              SlTimelinePixel  *out)
{
  const SlTlRow *r;
  Query q = { 0 };

  g_return_if_fail (self != NULL);
  g_return_if_fail (row < self->rows->len);
  g_return_if_fail (bounds != NULL || n_px == 0);
  g_return_if_fail (out != NULL || n_px == 0);

  r = state_row (self, row);
  if (r == NULL)
    {
      fill_none (out, n_px);
      return;
    }
  cursor_init (&q.c, r, _sl_tl_row_end (self, r));
  query_pixels (&q, bounds, n_px, out);
}

#define CHUNK 256

/* Pixel boundaries t0 + span * k / n exactly, through @map when not NULL
 * (rounded to the nearest ns), a chunk at a time so no allocation depends
 * on the width. */
static void
query_span (const SlTimeline  *self,
            guint              row,
            const SlTransform *map,
            const SlTlHost    *piecewise,
            gint64             t0,
            gint64             t1,
            guint              n_px,
            SlTimelinePixel   *out)
{
  const SlTlRow *r;
  gint64 bounds[CHUNK + 1], span, q_, rem, whole0 = 0;
  double frac0 = 0;
  Query q = { 0 };

  if (n_px == 0)
    return;
  r = state_row (self, row);
  if (r == NULL || t1 <= t0)
    {
      fill_none (out, n_px);
      return;
    }

  span = t1 - t0;
  q_ = span / n_px;
  rem = span % n_px;
  /* one long-double evaluation, then the affine map in doubles relative
   * to it: within 1e-6 ns of sl_transform_apply() for spans of days */
  if (map != NULL)
    sl_transform_apply_split (map, t0, &whole0, &frac0);
  cursor_init (&q.c, r, _sl_tl_row_end (self, r));
  for (guint k0 = 0; k0 < n_px; k0 += CHUNK)
    {
      guint m = MIN (CHUNK, n_px - k0);

      for (guint i = 0; i <= m; i++)
        {
          guint64 k = k0 + i;
          gint64 t = t0 + q_ * (gint64) k + (gint64) (((guint64) rem * k) / n_px);

          if (piecewise != NULL)
            bounds[i] = sl_relation_apply (piecewise->rel_inv, sl_transform_apply (&piecewise->anim_inv, t));
          else
            bounds[i] = map != NULL ? whole0 + (t - t0) + (gint64) floor (frac0 + map->drift * (double) (t - t0) + 0.5)
                                    : t;
        }
      query_pixels (&q, bounds, m, out + k0);
    }
}

void
sl_timeline_query_row (const SlTimeline *self,
                       guint             row,
                       gint64            t0,
                       gint64            t1,
                       guint             n_px,
                       SlTimelinePixel  *out)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (row < self->rows->len);
  g_return_if_fail (out != NULL || n_px == 0);

  query_span (self, row, NULL, NULL, t0, t1, n_px, out);
}

void
sl_timeline_query_row_mapped (const SlTimeline  *self,
                              guint              row,
                              const SlTransform *to_view,
                              gint64             t0,
                              gint64             t1,
                              guint              n_px,
                              SlTimelinePixel   *out)
{
  SlTransform inv;

  g_return_if_fail (self != NULL);
  g_return_if_fail (row < self->rows->len);
  g_return_if_fail (to_view != NULL);
  g_return_if_fail (out != NULL || n_px == 0);

  sl_transform_invert (to_view, &inv);
  query_span (self, row, &inv, NULL, t0, t1, n_px, out);
}

void
sl_timeline_query_row_view (const SlTimeline *self,
                            guint             row,
                            gint64            t0,
                            gint64            t1,
                            guint             n_px,
                            SlTimelinePixel  *out)
{
  const SlTlHost *h;

  g_return_if_fail (self != NULL);
  g_return_if_fail (row < self->rows->len);
  g_return_if_fail (out != NULL || n_px == 0);

  h = sl_tl_host (self, sl_tl_row (self, row)->host);
  query_span (self, row, h != NULL && h->has_view ? &h->from_view : NULL,
              h != NULL && piecewise_view (h) ? h : NULL, t0, t1, n_px, out);
}
