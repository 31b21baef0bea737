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
 * the older one whole. Entries are never removed one by one, so probing
 * needs no tombstones, and a matched entry stays as a marker that turns
 * later duplicates away until its generation is dropped.
 *
 * Each generation appends its entries densely, in arrival order, and finds
 * them through slots probed linearly in groups of eight, at most half full.
 * A slot is a control byte, EMPTY or 7 bits of the hash, and a 32-bit slot
 * word: the entry's index with more hash bits above it. The control words
 * of both generations for a group lie side by side, in an array 1/32 the
 * size of the entries, so the common case, an event that matches nothing,
 * reads 16 bytes there and nothing else before its insert.
 *
 * A receive mostly comes soon after its send, while the send's probe may
 * still wait for memory. A direct-mapped array of recent inserts lets it
 * find the entry without touching the slots, and takes the slot word
 * store off the send's path: each live entry is either in its slot word or
 * in the recent array, and every lookup tries the recent array first.
 *
 * The hash only spreads keys over slots; keys are compared in full, so a
 * collision costs time, never a false match. Its secrets are random per
 * matcher, so that crafted packets cannot aim at one probe sequence.
 */

/* What identifies a packet on the wire, as up to six 64-bit words: seq and
 * ack_seq; flags, ports and family; the addresses. IPv4 addresses share
 * the third word. Words a family does not use are not read or written. */
typedef struct
{
  guint64 w[6];
} Key;

enum
{
  SEEN_SEND  = 1 << 0,
  SEEN_RECV  = 1 << 1,
  MATCHED    = 1 << 2,
  HAS_LENGTH = 1 << 3,
};

/* One cache line. @time and @host are those of the first event stored;
 * @state's upper 16 bits its payload length (with HAS_LENGTH). */
typedef struct
{
  Key     key;
  gint64  time;
  guint32 host;
  guint32 state;
} Entry;

G_STATIC_ASSERT (sizeof (Entry) == 64);
G_STATIC_ASSERT (G_STRUCT_OFFSET (SlPacketEvent, dport) ==
                 G_STRUCT_OFFSET (SlPacketEvent, sport) + 2);

#define GROUP_SLOTS     8
#define EMPTY           0x80
#define BYTES(b)        ((b) * G_GUINT64_CONSTANT (0x0101010101010101))
#define N_RECENT        256
#define PREFETCH_AHEAD  8

typedef struct
{
  Entry   *entries;
  guint32 *index;
  gsize    count;
  gsize    unmatched;
} Generation;

/* A recent insert into the current generation. While @pending, its slot
 * word is stale; it is written when another insert takes this place, or at
 * a swap, by when the prefetched line has arrived: a store that misses the
 * cache holds up every store behind it. */
typedef struct
{
  guint32 check;
  guint32 entry;
  guint32 slot;
  guint32 pending;
} Recent;

struct _SlMatcher
{
  /* control words: group g of generation i at 2 * g + i */
  guint64        *ctrl;
  gsize           group_mask;
  guint32         index_mask;
  guint           cur;
  gsize           gen_limit;

  /* advance() may have work when now >= swap_at */
  gint64          swap_at;

  /* secret, so that crafted keys cannot pile up in one probe sequence */
  guint64         seed[6];

  Generation      gen[2];
  SlMatcherStats  stats;

  gint64          window_ns;
  gint64          last_swap;
  gboolean        started;

  Recent          recent[N_RECENT];
};

static inline guint64
fold_mul (guint64 a,
          guint64 b)
{
  unsigned __int128 r = (unsigned __int128) a * b;

  return (guint64) r ^ (guint64) (r >> 64);
}

static inline guint64
load64 (const void *p)
{
  guint64 v;

  memcpy (&v, p, sizeof v);
  return v;
}

static inline guint64
load32 (const void *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return v;
}

static inline guint
key_words (guint family)
{
  return family == 6 ? 6 : family == 4 ? 3 : 2;
}

static inline guint
key_family (const Key *key)
{
  return (key->w[1] >> 48) & 0xff;
}

/* @family is a constant wherever speed matters: equal keys have equal
 * families, so each family only builds, hashes, stores and compares the
 * words it uses. */
static inline void
key_init (Key                 *key,
          const SlPacketEvent *event,
          guint                family)
{
  key->w[0] = event->seq | (guint64) event->ack_seq << 32;
  key->w[1] = event->flags | (guint64) family << 48;

  if (family == 4)
    {
      key->w[1] |= load32 (&event->sport) << 16;
      key->w[2] = load32 (event->saddr) | load32 (event->daddr) << 32;
    }
  else if (family == 6)
    {
      key->w[1] |= load32 (&event->sport) << 16;
      key->w[2] = load64 (event->saddr);
      key->w[3] = load64 (event->saddr + 8);
      key->w[4] = load64 (event->daddr);
      key->w[5] = load64 (event->daddr + 8);
    }
}

static inline guint64
key_hash (const SlMatcher *self,
          const Key       *key,
          guint            family)
{
  const guint64 *w = key->w;
  const guint64 *s = self->seed;
  guint64 h;

  /* independent products, so their latencies overlap */
  h = fold_mul (w[0] ^ s[0], w[1] ^ s[1]);
  if (family == 4)
    h ^= fold_mul (w[2] ^ s[2], s[3]);
  else if (family == 6)
    h ^= fold_mul (w[2] ^ s[2], w[3] ^ s[3]) ^ fold_mul (w[4] ^ s[4], w[5] ^ s[5]);

  return h;
}

static inline gboolean
key_equal (const Key *a,
           const Key *b,
           guint      family)
{
  guint64 d = (a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1]);

  if (family == 4)
    d |= a->w[2] ^ b->w[2];
  else if (family == 6)
    d |= (a->w[2] ^ b->w[2]) | (a->w[3] ^ b->w[3]) | (a->w[4] ^ b->w[4]) | (a->w[5] ^ b->w[5]);

  return d == 0;
}

static inline guint64
hash_tags (guint64 hash)
{
  return BYTES (hash >> 57);
}

/* Hash bits kept above the entry index in a slot word (13 of them for a
 * million pending events), and in the recent array. */
static inline guint32
hash_check (guint64 hash)
{
  return (guint32) (hash >> 25);
}

static inline Recent *
recent_for (SlMatcher *self,
            guint64    hash)
{
  return &self->recent[(hash >> 32) % N_RECENT];
}

static inline void
recent_flush (SlMatcher *self,
              Recent    *r)
{
  Generation *cur = &self->gen[self->cur];

  cur->index[r->slot] = r->entry | (r->check & ~self->index_mask);
  r->pending = FALSE;
}

/* High bit of each byte that may hold the tag in @tags (control bytes
 * below EMPTY only); a byte above a true match can show up too, which
 * the slot word and the key sort out. */
static inline guint64
ctrl_match (guint64 word,
            guint64 tags)
{
  guint64 x = word ^ tags;

  return (x - BYTES (0x01)) & ~x & BYTES (0x80);
}

static inline guint64
ctrl_empty (guint64 word)
{
  return word & BYTES (EMPTY);
}

static inline gsize
lowest_byte (guint64 bits)
{
  return (gsize) __builtin_ctzll (bits) / 8;
}

/* The entry holding @key among the slots of @group in @gen, whose control
 * word is @word. */
G_ALWAYS_INLINE static inline Entry *
group_find (const SlMatcher  *self,
            const Generation *gen,
            guint64           word,
            gsize             group,
            const Key        *key,
            guint             family,
            guint64           hash)
{
  for (guint64 m = ctrl_match (word, hash_tags (hash)); m != 0; m &= m - 1)
    {
      guint32 slot = gen->index[group * GROUP_SLOTS + lowest_byte (m)];
      Entry *e;

      /* The word of a slot still pending in the recent array is stale. */
      if (((slot ^ hash_check (hash)) & ~self->index_mask) != 0 ||
          (slot & self->index_mask) >= gen->count)
        continue;

      e = &gen->entries[slot & self->index_mask];
      if (key_equal (&e->key, key, family))
        return e;
    }

  return NULL;
}

/* Returns the entry holding @key in generation @g, or NULL and the first
 * free slot of the probe sequence in *free_slot. At most half the slots are
 * used, so every sequence reaches a free one. */
G_ALWAYS_INLINE static inline Entry *
generation_find (const SlMatcher *self,
                 guint            g,
                 const Key       *key,
                 guint            family,
                 guint64          hash,
                 gsize           *free_slot)
{
  gsize group = hash & self->group_mask;

  for (;;)
    {
      guint64 word = self->ctrl[2 * group + g];
      Entry *e = group_find (self, &self->gen[g], word, group, key, family, hash);

      if (e != NULL)
        return e;

      if (ctrl_empty (word) != 0)
        {
          *free_slot = group * GROUP_SLOTS + lowest_byte (ctrl_empty (word));
          return NULL;
        }

      group = (group + 1) & self->group_mask;
    }
}

static void
generation_clear (SlMatcher *self,
                  guint      g)
{
  Generation *gen = &self->gen[g];
  gsize n_groups = self->group_mask + 1;

  if (gen->count == 0)
    return;

  if (gen->count < n_groups / 16)
    {
      /* Few entries: find each one's slot again rather than sweep the
       * whole array, so time-triggered swaps of a sparse stream stay
       * cheap. Earlier slots turn EMPTY on the way, so walk past them. */
      for (gsize i = 0; i < gen->count; i++)
        {
          const Key *key = &gen->entries[i].key;
          gsize group = key_hash (self, key, key_family (key)) & self->group_mask;

          for (;;)
            {
              guint64 *word = &self->ctrl[2 * group + g];
              guint64 full = ~*word & BYTES (EMPTY);

              for (; full != 0; full &= full - 1)
                {
                  gsize b = lowest_byte (full);

                  if ((gen->index[group * GROUP_SLOTS + b] & self->index_mask) == i)
                    {
                      *word = (*word & ~((guint64) 0xff << 8 * b)) | (guint64) EMPTY << 8 * b;
                      break;
                    }
                }

              if (full != 0)
                break;

              group = (group + 1) & self->group_mask;
            }
        }
    }
  else
    {
      for (gsize group = 0; group < n_groups; group++)
        self->ctrl[2 * group + g] = BYTES (EMPTY);
    }

  gen->count = 0;
  gen->unmatched = 0;
}

static void
sl_matcher_swap (SlMatcher *self)
{
  guint old = self->cur ^ 1;

  for (guint i = 0; i < N_RECENT; i++)
    if (self->recent[i].pending)
      recent_flush (self, &self->recent[i]);

  self->stats.expired += self->gen[old].unmatched;
  generation_clear (self, old);
  self->cur = old;
  self->stats.generations++;
}

static void
update_swap_at (SlMatcher *self)
{
  if (self->window_ns <= 0)
    self->swap_at = G_MAXINT64;
  else if (!self->started)
    self->swap_at = G_MININT64;
  else if (self->last_swap >= G_MAXINT64 - self->window_ns)
    self->swap_at = G_MAXINT64;
  else
    self->swap_at = self->last_swap + self->window_ns + 1;
}

static G_GNUC_NO_INLINE void
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
      update_swap_at (self);
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
  update_swap_at (self);
}

/* A second event for the key of @e, which lives in @gen. */
G_ALWAYS_INLINE static inline gboolean
settle (SlMatcher           *self,
        Generation          *gen,
        Entry               *e,
        const SlPacketEvent *event,
        SlMatch             *match)
{
  guint side = event->dir == SL_PACKET_SEND ? SEEN_SEND : SEEN_RECV;

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
  gen->unmatched--;
  self->stats.matched++;

  if (match != NULL)
    {
      /* the send's length, else the receive's */
      if ((side == SEEN_RECV || !event->has_length) && (e->state & HAS_LENGTH))
        {
          match->has_length = TRUE;
          match->length = (guint16) (e->state >> 16);
        }
      else
        {
          match->has_length = event->has_length != 0;
          match->length = event->has_length ? event->length : 0;
        }
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

/* Stores the first event of @key in free @slot of the current generation,
 * which has room. */
G_ALWAYS_INLINE static inline void
insert (SlMatcher           *self,
        const SlPacketEvent *event,
        const Key           *key,
        guint                family,
        guint64              hash,
        gsize                slot)
{
  Generation *cur = &self->gen[self->cur];
  Entry *e = &cur->entries[cur->count];
  Recent *r;

  for (guint i = 0; i < key_words (family); i++)
    e->key.w[i] = key->w[i];
  e->time = event->time;
  e->host = event->host;
  e->state = (event->dir == SL_PACKET_SEND ? SEEN_SEND : SEEN_RECV) |
             (event->has_length ? HAS_LENGTH | (guint32) event->length << 16 : 0);

  /* entries are appended in order: ask for a later one's line now, so
   * that its store does not wait for it */
  __builtin_prefetch (&cur->entries[cur->count + PREFETCH_AHEAD], 1);

  r = recent_for (self, hash);
  if (r->pending)
    recent_flush (self, r);
  r->check = hash_check (hash);
  r->entry = (guint32) cur->count;
  r->slot = (guint32) slot;
  r->pending = TRUE;
  __builtin_prefetch (&cur->index[slot], 1);
  cur->count++;
  cur->unmatched++;

  /* the slot's control byte was EMPTY */
  self->ctrl[2 * (slot / GROUP_SLOTS) + self->cur] ^=
    (EMPTY ^ (hash >> 57)) << 8 * (slot % GROUP_SLOTS);
}

/* Probe sequences longer than one group, tags that match, inserts into a
 * full generation: anything but a miss decided in the home groups. */
G_ALWAYS_INLINE static inline gboolean
push_slow (SlMatcher           *self,
           const SlPacketEvent *event,
           gint64               now,
           SlMatch             *match,
           guint64              hash,
           guint                family)
{
  gsize free_slot;
  gsize ignored;
  Entry *e;
  Key key;

  key_init (&key, event, family);

  e = generation_find (self, self->cur, &key, family, hash, &free_slot);
  if (e != NULL)
    return settle (self, &self->gen[self->cur], e, event, match);

  e = generation_find (self, self->cur ^ 1, &key, family, hash, &ignored);
  if (e != NULL)
    return settle (self, &self->gen[self->cur ^ 1], e, event, match);

  if (self->gen[self->cur].count >= self->gen_limit)
    {
      /* The window counts from the last swap of either kind, so an entry
       * always outlives one window or one full generation. */
      sl_matcher_swap (self);
      self->last_swap = MAX (self->last_swap, now);
      update_swap_at (self);
      free_slot = (hash & self->group_mask) * GROUP_SLOTS;
    }

  insert (self, event, &key, family, hash, free_slot);
  return FALSE;
}

static G_GNUC_NO_INLINE gboolean
push_slow_ipv4 (SlMatcher           *self,
                const SlPacketEvent *event,
                gint64               now,
                SlMatch             *match,
                guint64              hash)
{
  return push_slow (self, event, now, match, hash, 4);
}

static G_GNUC_NO_INLINE gboolean
push_slow_ipv6 (SlMatcher           *self,
                const SlPacketEvent *event,
                gint64               now,
                SlMatch             *match,
                guint64              hash)
{
  return push_slow (self, event, now, match, hash, 6);
}

static G_GNUC_NO_INLINE gboolean
push_slow_no_address (SlMatcher           *self,
                      const SlPacketEvent *event,
                      gint64               now,
                      SlMatch             *match,
                      guint64              hash)
{
  return push_slow (self, event, now, match, hash, 0);
}

/* sl_matcher_push() for one family, a constant. The common cases are kept
 * short: a receive found through the recent array, and a send whose home
 * groups hold no candidate and a free slot. */
G_ALWAYS_INLINE static inline gboolean
push_family (SlMatcher           *self,
             const SlPacketEvent *event,
             gint64               now,
             SlMatch             *match,
             guint                family)
{
  const guint64 *pair;
  Generation *cur;
  guint64 hash;
  guint64 tags;
  guint64 wc, wo;
  Recent *r;
  Key key;

  if (G_UNLIKELY (now >= self->swap_at))
    sl_matcher_advance (self, now);

  self->stats.pushed++;
  key_init (&key, event, family);
  hash = key_hash (self, &key, family);
  cur = &self->gen[self->cur];
  pair = &self->ctrl[2 * (hash & self->group_mask)];
  /* a miss in the recent array needs these words: their line is on its
   * way while the recent array is looked at */
  __builtin_prefetch (pair);

  /* Any live entry with this key is the one: keys are unique across both
   * generations. */
  r = recent_for (self, hash);
  if (r->check == hash_check (hash) && r->entry < cur->count)
    {
      Entry *e = &cur->entries[r->entry];

      if (key_equal (&e->key, &key, family))
        return settle (self, cur, e, event, match);
    }

  wc = pair[self->cur];
  wo = pair[self->cur ^ 1];
  tags = hash_tags (hash);

  if (G_UNLIKELY ((ctrl_match (wc, tags) | ctrl_match (wo, tags)) != 0 ||
                  ctrl_empty (wc) == 0 || ctrl_empty (wo) == 0 ||
                  cur->count >= self->gen_limit))
    {
      if (family == 4)
        return push_slow_ipv4 (self, event, now, match, hash);
      else if (family == 6)
        return push_slow_ipv6 (self, event, now, match, hash);
      else
        return push_slow_no_address (self, event, now, match, hash);
    }

  insert (self, event, &key, family, hash,
          (hash & self->group_mask) * GROUP_SLOTS + lowest_byte (ctrl_empty (wc)));
  return FALSE;
}

/* One function per family, each with its own registers. */
static G_GNUC_NO_INLINE gboolean
push_ipv4 (SlMatcher           *self,
           const SlPacketEvent *event,
           gint64               now,
           SlMatch             *match)
{
  return push_family (self, event, now, match, 4);
}

static G_GNUC_NO_INLINE gboolean
push_ipv6 (SlMatcher           *self,
           const SlPacketEvent *event,
           gint64               now,
           SlMatch             *match)
{
  return push_family (self, event, now, match, 6);
}

static G_GNUC_NO_INLINE gboolean
push_no_address (SlMatcher           *self,
                 const SlPacketEvent *event,
                 gint64               now,
                 SlMatch             *match)
{
  return push_family (self, event, now, match, 0);
}

SlMatcher *
sl_matcher_new (gint64 window_ns,
                gsize  max_pending)
{
  SlMatcher *self;
  gsize n_slots;
  gsize n_ctrl;

  g_return_val_if_fail (max_pending >= 2, NULL);
  g_return_val_if_fail (max_pending <= G_MAXUINT32, NULL);

  self = g_new0 (SlMatcher, 1);
  self->window_ns = window_ns;
  self->gen_limit = max_pending / 2;
  self->index_mask = (guint32) (((guint64) 1 << g_bit_storage (self->gen_limit - 1)) - 1);
  update_swap_at (self);

  /* At most half full, so probe sequences stay short. */
  n_slots = (gsize) 1 << g_bit_storage (2 * self->gen_limit - 1);
  n_slots = MAX (n_slots, GROUP_SLOTS);
  self->group_mask = n_slots / GROUP_SLOTS - 1;

  n_ctrl = 2 * (n_slots / GROUP_SLOTS);
  self->ctrl = g_new (guint64, n_ctrl);
  for (gsize i = 0; i < n_ctrl; i++)
    self->ctrl[i] = BYTES (EMPTY);

  for (guint i = 0; i < G_N_ELEMENTS (self->gen); i++)
    {
      self->gen[i].index = g_new0 (guint32, n_slots);
      /* the prefetch in insert() reaches past the last entry */
      self->gen[i].entries = g_aligned_alloc (self->gen_limit + PREFETCH_AHEAD, sizeof (Entry), 64);
    }

  for (guint i = 0; i < G_N_ELEMENTS (self->seed); i++)
    self->seed[i] = (guint64) g_random_int () << 32 | g_random_int ();

  return self;
}

void
sl_matcher_free (SlMatcher *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (self->gen); i++)
    {
      g_free (self->gen[i].index);
      g_aligned_free (self->gen[i].entries);
    }

  g_free (self->ctrl);
  g_free (self);
}

gboolean
sl_matcher_push (SlMatcher           *self,
                 const SlPacketEvent *event,
                 gint64               now,
                 SlMatch             *match)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);
  g_return_val_if_fail (event->dir == SL_PACKET_SEND ||
                        event->dir == SL_PACKET_RECV, FALSE);

  switch (event->family)
    {
    case 4:
      return push_ipv4 (self, event, now, match);
    case 6:
      return push_ipv6 (self, event, now, match);
    case 0:
      return push_no_address (self, event, now, match);
    default:
      g_return_val_if_fail (event->family == 0 ||
                            event->family == 4 ||
                            event->family == 6, FALSE);
      return FALSE;
    }
}

void
sl_matcher_get_stats (const SlMatcher *self,
                      SlMatcherStats  *stats)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (stats != NULL);

  *stats = self->stats;
  stats->pending = self->gen[0].count + self->gen[1].count;
  stats->capacity = 2 * (self->group_mask + 1) * GROUP_SLOTS;
}
