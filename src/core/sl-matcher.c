/* sl-matcher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-matcher.h"

/*
 * Two generations of open-addressing tables [Jabbarifar §3.6.1]: events are
 * inserted into the current generation and looked up in both; a swap drops
 * the older one whole. Entries are never removed one by one, so linear
 * probing needs no tombstones, and a matched entry stays as a marker that
 * turns later duplicates away until its generation is dropped.
 *
 * Each generation is a dense array of entries, appended in arrival order,
 * and a power-of-two array of 8-byte slots (entry index, 16 bits of hash,
 * epoch) at most half full. A miss reads slots only, eight to a cache line;
 * an insert writes the next entry in sequence. A slot is live when its
 * epoch equals its generation's, so dropping a generation costs one
 * increment instead of clearing the array.
 */

/* What identifies a packet on the wire, as six 64-bit words: seq and
 * ack_seq; flags, ports and family; the addresses, zero when absent. IPv4
 * addresses use the first four bytes of saddr/daddr. Built in registers:
 * assembling it byte by byte in memory and reading it back as words
 * stalls store forwarding, which cost more than the rest of a push. */
typedef struct
{
  guint64 w[6];
} Key;

enum
{
  SEEN_SEND = 1 << 0,
  SEEN_RECV = 1 << 1,
  MATCHED   = 1 << 2,
};

/* One cache line. @time and @host are those of the first event stored. */
typedef struct
{
  Key     key;
  gint64  time;
  guint32 host;
  guint32 state;
} Entry;

G_STATIC_ASSERT (sizeof (Entry) == 64);

/* slot: entry index << 32 | hash tag << 16 | epoch; 0 is never live */
typedef struct
{
  guint64 *slots;
  Entry   *entries;
  gsize    count;
  gsize    unmatched;
  guint32  epoch;
} Generation;

struct _SlMatcher
{
  gint64          window_ns;
  gsize           gen_limit;
  gsize           mask;
  Generation      gen[2];
  guint           cur;
  gboolean        started;
  gint64          last_swap;
  SlMatcherStats  stats;
};

static inline guint64
fold_mul (guint64 a,
          guint64 b)
{
  unsigned __int128 r = (unsigned __int128) a * b;

  return (guint64) r ^ (guint64) (r >> 64);
}

static inline guint64
key_hash (const Key *key)
{
  const guint64 *w = key->w;
  guint64 h;

  /* three independent products, so their latencies overlap */
  h = fold_mul (w[0] ^ G_GUINT64_CONSTANT (0xa0761d6478bd642f),
                w[1] ^ G_GUINT64_CONSTANT (0xe7037ed1a0b428db)) ^
      fold_mul (w[2] ^ G_GUINT64_CONSTANT (0x8ebc6af09c88c6e3),
                w[3] ^ G_GUINT64_CONSTANT (0x589965cc75374cc3)) ^
      fold_mul (w[4] ^ G_GUINT64_CONSTANT (0x1d8e4e27c47d124f),
                w[5] ^ G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  return fold_mul (h ^ G_GUINT64_CONSTANT (0x2d358dccaa6c78a5),
                   G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9));
}

static inline guint64
load64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, sizeof v);
  return v;
}

static inline guint64
load32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return v;
}

static inline void
key_init (Key                 *key,
          const SlPacketEvent *event)
{
  key->w[0] = event->seq | (guint64) event->ack_seq << 32;
  key->w[1] = event->flags | (guint64) event->family << 48;

  switch (event->family)
    {
    case 4:
      key->w[1] |= (guint64) event->sport << 16 | (guint64) event->dport << 32;
      key->w[2] = load32 (event->saddr);
      key->w[3] = 0;
      key->w[4] = load32 (event->daddr);
      key->w[5] = 0;
      break;

    case 6:
      key->w[1] |= (guint64) event->sport << 16 | (guint64) event->dport << 32;
      key->w[2] = load64 (event->saddr);
      key->w[3] = load64 (event->saddr + 8);
      key->w[4] = load64 (event->daddr);
      key->w[5] = load64 (event->daddr + 8);
      break;

    default:
      key->w[2] = key->w[3] = key->w[4] = key->w[5] = 0;
      break;
    }
}

static inline gboolean
key_equal (const Key *a,
           const Key *b)
{
  return ((a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1]) | (a->w[2] ^ b->w[2]) |
          (a->w[3] ^ b->w[3]) | (a->w[4] ^ b->w[4]) | (a->w[5] ^ b->w[5])) == 0;
}

static inline guint32
slot_label (const Generation *gen,
            guint64           hash)
{
  return (guint32) (hash >> 48) << 16 | gen->epoch;
}

/* Returns the live entry holding @key, or NULL and the free slot where it
 * would go in *free_slot. The load limit keeps a free slot in every probe
 * sequence. */
static inline Entry *
generation_lookup (const SlMatcher  *self,
                   const Generation *gen,
                   const Key        *key,
                   guint64           hash,
                   gsize            *free_slot)
{
  guint32 label = slot_label (gen, hash);
  gsize i = hash & self->mask;

  for (;;)
    {
      guint64 slot = gen->slots[i];

      if ((slot & 0xffff) != gen->epoch)
        {
          *free_slot = i;
          return NULL;
        }

      if ((guint32) slot == label)
        {
          Entry *e = &gen->entries[slot >> 32];

          if (key_equal (&e->key, key))
            return e;
        }

      i = (i + 1) & self->mask;
    }
}

static void
generation_clear (Generation *gen,
                  gsize       n_slots)
{
  if (gen->count == 0)
    return;

  gen->count = 0;
  gen->unmatched = 0;

  /* Slots from 65535 drops ago would look live again. */
  if (++gen->epoch > 0xffff)
    {
      memset (gen->slots, 0, n_slots * sizeof *gen->slots);
      gen->epoch = 1;
    }
}

static void
sl_matcher_swap (SlMatcher *self)
{
  Generation *old = &self->gen[self->cur ^ 1];

  self->stats.expired += old->unmatched;
  generation_clear (old, self->mask + 1);
  self->cur ^= 1;
  self->stats.generations++;
}

static void
sl_matcher_advance (SlMatcher *self,
                    gint64     now)
{
  guint64 elapsed;

  if (self->window_ns <= 0)
    return;

  if (!self->started)
    {
      self->started = TRUE;
      self->last_swap = now;
      return;
    }

  if (now <= self->last_swap)
    return;

  elapsed = (guint64) now - (guint64) self->last_swap;
  if (elapsed <= (guint64) self->window_ns)
    return;

  sl_matcher_swap (self);

  /* Everything in the surviving generation is older than a window too. */
  if (elapsed > 2 * (guint64) self->window_ns)
    sl_matcher_swap (self);

  self->last_swap = now;
}

SlMatcher *
sl_matcher_new (gint64 window_ns,
                gsize  max_pending)
{
  SlMatcher *self;
  gsize n_slots;

  g_return_val_if_fail (max_pending >= 2, NULL);
  g_return_val_if_fail (max_pending <= G_MAXUINT32, NULL);

  self = g_new0 (SlMatcher, 1);
  self->window_ns = window_ns;
  self->gen_limit = max_pending / 2;

  /* At most half full, so probe sequences stay short. */
  n_slots = (gsize) 1 << g_bit_storage (2 * self->gen_limit - 1);
  self->mask = n_slots - 1;

  for (guint i = 0; i < G_N_ELEMENTS (self->gen); i++)
    {
      self->gen[i].slots = g_new0 (guint64, n_slots);
      self->gen[i].entries = g_aligned_alloc (self->gen_limit, sizeof (Entry), 64);
      self->gen[i].epoch = 1;
    }

  return self;
}

void
sl_matcher_free (SlMatcher *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (self->gen); i++)
    {
      g_free (self->gen[i].slots);
      g_aligned_free (self->gen[i].entries);
    }

  g_free (self);
}

gboolean
sl_matcher_push (SlMatcher           *self,
                 const SlPacketEvent *event,
                 gint64               now,
                 SlMatch             *match)
{
  Generation *cur;
  Generation *owner;
  gsize free_slot = 0;
  gsize ignored;
  Entry *e;
  guint64 hash;
  guint8 side;
  Key key;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);
  g_return_val_if_fail (event->dir == SL_PACKET_SEND ||
                        event->dir == SL_PACKET_RECV, FALSE);
  g_return_val_if_fail (event->family == 0 ||
                        event->family == 4 ||
                        event->family == 6, FALSE);

  self->stats.pushed++;
  sl_matcher_advance (self, now);

  key_init (&key, event);
  hash = key_hash (&key);
  side = event->dir == SL_PACKET_SEND ? SEEN_SEND : SEEN_RECV;

  cur = &self->gen[self->cur];
  owner = cur;
  e = generation_lookup (self, cur, &key, hash, &free_slot);
  if (e == NULL)
    {
      owner = &self->gen[self->cur ^ 1];
      e = generation_lookup (self, owner, &key, hash, &ignored);
    }

  if (e != NULL)
    {
      if (e->state & side)
        {
          self->stats.duplicates++;
          return FALSE;
        }

      /* loopback, veth, bridge: wait for the real peer */
      if (e->host == event->host)
        {
          self->stats.same_host++;
          return FALSE;
        }

      e->state |= side | MATCHED;
      owner->unmatched--;
      self->stats.matched++;

      if (match != NULL)
        {
          if (side == SEEN_RECV)
            {
              match->send_host = e->host;
              match->send_time = e->time;
              match->recv_host = event->host;
              match->recv_time = event->time;
            }
          else
            {
              match->send_host = event->host;
              match->send_time = event->time;
              match->recv_host = e->host;
              match->recv_time = e->time;
            }
        }

      return TRUE;
    }

  if (cur->count >= self->gen_limit)
    {
      /* The window counts from the last swap of either kind, so an entry
       * always outlives one window or one full generation. */
      sl_matcher_swap (self);
      self->last_swap = MAX (self->last_swap, now);
      cur = &self->gen[self->cur];
      free_slot = hash & self->mask;
    }

  e = &cur->entries[cur->count];
  e->key = key;
  e->time = event->time;
  e->host = event->host;
  e->state = side;
  cur->slots[free_slot] = (guint64) cur->count << 32 | slot_label (cur, hash);
  cur->count++;
  cur->unmatched++;

  return FALSE;
}

void
sl_matcher_get_stats (const SlMatcher *self,
                      SlMatcherStats  *stats)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (stats != NULL);

  *stats = self->stats;
  stats->pending = self->gen[0].count + self->gen[1].count;
  stats->capacity = 2 * (self->mask + 1);
}
