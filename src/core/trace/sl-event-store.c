/* sl-event-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sl-event-store-private.h"
#include "sl-interner.h"

G_STATIC_ASSERT (sizeof (SlEvent) == 24);

/* Fixed-size chunks: appending never copies what is stored (a doubling
 * array would briefly need twice the memory of a long trace), and the
 * index of an event is a shift and a mask. */
#define CHUNK_SHIFT 10
#define CHUNK_LEN   (1u << CHUNK_SHIFT)
#define CHUNK_MASK  (CHUNK_LEN - 1)
/* thread names last set, by tid: most sched_switch events name a thread
 * whose name is already that one */
#define NAME_CACHE  256

/* A stream's chunks are cut from blocks mapped for it, each twice the
 * one before up to BLOCK_MAX chunks, and a chunk's pages are faulted in
 * by one call as it is handed out: from malloc, a thread's arena grew by
 * an mprotect() per chunk (glibc pads only the main arena's growth) and
 * each page took a fault of its own when first written, costly in a
 * virtual machine (older kernels refuse the call and fault as before).
 * A chunk is whole pages, unmapped alone when dropped; what a block has
 * not handed out yet is never touched, so it takes no memory. */
#define BLOCK_MAX 64
/* Linux 5.14: the pages of a range faulted in by one call */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

typedef struct
{
  guint8 *next;
  gsize   left;
  guint   block;
} Reserve;

/* Indices are absolute: dropping the front (sl_event_store_drop_before())
 * frees whole chunks and moves @base, so an index a reader kept either
 * still names its event or is below the first index, never another event. */
typedef struct
{
  GPtrArray *chunks;
  guint64    len;
  guint64    base;
  Reserve    reserve;
} Stream;

static const SlEventPacket no_packet = { 0, 0, SL_EVENT_NO_LENGTH };

struct _SlEventStore
{
  Stream        streams[SL_EVENT_N_STREAMS];
  /* SlEventPacket chunks beside the packet stream's */
  GPtrArray    *packets;
  Reserve       packet_reserve;
  guint         n_blocks;
  guint64       kind_counts[SL_EVENT_N_KINDS];
  guint64       lost;
  SlInterner   *strings;
  GHashTable   *thread_names;
  struct { guint32 tid, str; } name_cache[NAME_CACHE];
  gint64        first;
  gint64        last;
  gint64        kept_from;
};

static const struct
{
  const char    *name;
  SlEventStream  stream;
} kinds[SL_EVENT_N_KINDS] = {
  [SL_EVENT_NONE] = { "none", SL_EVENT_STREAM_SCHED },
  [SL_EVENT_SCHED_SWITCH] = { "sched_switch", SL_EVENT_STREAM_SCHED },
  [SL_EVENT_SCHED_WAKEUP] = { "sched_wakeup", SL_EVENT_STREAM_SCHED },
  [SL_EVENT_PROCESS_FORK] = { "process_fork", SL_EVENT_STREAM_SCHED },
  [SL_EVENT_PROCESS_EXEC] = { "process_exec", SL_EVENT_STREAM_SCHED },
  [SL_EVENT_PROCESS_EXIT] = { "process_exit", SL_EVENT_STREAM_SCHED },
  [SL_EVENT_PROCESS_NAME] = { "process_name", SL_EVENT_STREAM_SCHED },
  [SL_EVENT_SYSCALL_ENTRY] = { "syscall_entry", SL_EVENT_STREAM_SYSCALL },
  [SL_EVENT_SYSCALL_EXIT] = { "syscall_exit", SL_EVENT_STREAM_SYSCALL },
  [SL_EVENT_IRQ_ENTRY] = { "irq_entry", SL_EVENT_STREAM_IRQ },
  [SL_EVENT_IRQ_EXIT] = { "irq_exit", SL_EVENT_STREAM_IRQ },
  [SL_EVENT_SOFTIRQ_ENTRY] = { "softirq_entry", SL_EVENT_STREAM_IRQ },
  [SL_EVENT_SOFTIRQ_EXIT] = { "softirq_exit", SL_EVENT_STREAM_IRQ },
  [SL_EVENT_SOFTIRQ_RAISE] = { "softirq_raise", SL_EVENT_STREAM_IRQ },
  [SL_EVENT_PACKET_SEND] = { "packet_send", SL_EVENT_STREAM_NET },
  [SL_EVENT_PACKET_RECV] = { "packet_recv", SL_EVENT_STREAM_NET },
  [SL_EVENT_PROCESS_PARENT] = { "process_parent", SL_EVENT_STREAM_SCHED },
  [SL_EVENT_LOST] = { "lost_events", SL_EVENT_STREAM_SCHED },
};

/* Chunks are mapped when they are whole pages (4 kB pages: 24 kB of events,
 * 8 kB of packets), else allocated one by one. */
static gboolean
chunks_mapped (gsize size)
{
  static gsize page;

  if (page == 0)
    page = (gsize) sysconf (_SC_PAGESIZE);
  return size % page == 0;
}

static gpointer
chunk_new (SlEventStore *self,
           Reserve      *r,
           gsize         size)
{
  gpointer chunk;

  if (!chunks_mapped (size))
    return g_malloc (size);
  /* blocks are whole chunks: a reserve is empty or holds one */
  if (r->left == 0)
    {
      gsize len = size * MAX (r->block, 1);
      void *block = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

      if (block == MAP_FAILED)
        g_error ("%s: failed to map %" G_GSIZE_FORMAT " bytes", G_STRLOC, len);
      r->next = block;
      r->left = len;
      r->block = MIN (MAX (r->block, 1) * 2, BLOCK_MAX);
      self->n_blocks++;
    }
  chunk = r->next;
  madvise (chunk, size, MADV_POPULATE_WRITE);
  r->next += size;
  r->left -= size;
  return chunk;
}

static void
chunk_free (gpointer chunk,
            gsize    size)
{
  if (chunks_mapped (size))
    munmap (chunk, size);
  else
    g_free (chunk);
}

/* Every chunk and what is left of the reserve, runs of adjacent chunks
 * in one call. */
static void
free_chunks (GPtrArray *chunks,
             Reserve   *r,
             gsize      size)
{
  guint8 *run = NULL;
  gsize run_len = 0;

  if (!chunks_mapped (size))
    {
      for (guint i = 0; i < chunks->len; i++)
        g_free (chunks->pdata[i]);
      g_ptr_array_unref (chunks);
      return;
    }
  for (guint i = 0; i <= chunks->len; i++)
    {
      guint8 *chunk = i < chunks->len ? chunks->pdata[i] : r->next;
      gsize len = i < chunks->len ? size : r->left;

      if (run != NULL && chunk == run + run_len)
        {
          run_len += len;
          continue;
        }
      if (run != NULL && run_len > 0)
        munmap (run, run_len);
      run = chunk;
      run_len = len;
    }
  if (run != NULL && run_len > 0)
    munmap (run, run_len);
  g_ptr_array_unref (chunks);
}

SlEventStore *
sl_event_store_new (void)
{
  SlEventStore *self = g_new0 (SlEventStore, 1);

  for (guint i = 0; i < SL_EVENT_N_STREAMS; i++)
    self->streams[i].chunks = g_ptr_array_new ();
  self->packets = g_ptr_array_new ();
  self->strings = sl_interner_new ();
  self->thread_names = g_hash_table_new (NULL, NULL);
  self->first = G_MAXINT64;
  self->last = G_MININT64;
  self->kept_from = G_MININT64;
  return self;
}

void
sl_event_store_free (SlEventStore *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < SL_EVENT_N_STREAMS; i++)
    free_chunks (self->streams[i].chunks, &self->streams[i].reserve, CHUNK_LEN * sizeof (SlEvent));
  free_chunks (self->packets, &self->packet_reserve, CHUNK_LEN * sizeof (SlEventPacket));
  sl_interner_free (self->strings);
  g_hash_table_destroy (self->thread_names);
  g_free (self);
}

guint32
sl_event_store_intern (SlEventStore *self,
                       const char   *str)
{
  g_return_val_if_fail (self != NULL, 0);
  return sl_interner_intern (self->strings, str);
}

const char *
sl_event_store_get_string (const SlEventStore *self,
                           guint32             id)
{
  g_return_val_if_fail (self != NULL, NULL);
  return sl_interner_get (self->strings, id);
}

guint
sl_event_store_get_n_strings (const SlEventStore *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return sl_interner_get_length (self->strings) - 1;
}

SlEventStream
sl_event_kind_get_stream (SlEventKind kind)
{
  g_return_val_if_fail (kind < SL_EVENT_N_KINDS, SL_EVENT_STREAM_SCHED);
  return kinds[kind].stream;
}

const char *
sl_event_kind_to_string (SlEventKind kind)
{
  g_return_val_if_fail (kind < SL_EVENT_N_KINDS, NULL);
  return kinds[kind].name;
}

/* The cache holds, for a tid in its slot, the name last set: every
 * name set goes through it. */
static inline void
set_thread_name (SlEventStore *self,
                 guint32       tid,
                 guint32       str)
{
  guint slot = tid % NAME_CACHE;

  if (str == 0 || (self->name_cache[slot].tid == tid && self->name_cache[slot].str == str))
    return;
  self->name_cache[slot].tid = tid;
  self->name_cache[slot].str = str;
  g_hash_table_insert (self->thread_names, GUINT_TO_POINTER (tid), GUINT_TO_POINTER (str));
}

/* What an event adds beside its slot: counts, time range, names. */
static inline void
account (SlEventStore  *self,
         const SlEvent *event)
{
  self->kind_counts[event->kind]++;
  self->first = MIN (self->first, event->time);
  self->last = MAX (self->last, event->time);

  switch (event->kind)
    {
    case SL_EVENT_SCHED_SWITCH:
    case SL_EVENT_PROCESS_FORK:
      set_thread_name (self, event->arg, event->str);
      break;

    case SL_EVENT_PROCESS_NAME:
      set_thread_name (self, event->tid, event->str);
      break;

    case SL_EVENT_LOST:
      self->lost += event->arg;
      break;

    default:
      break;
    }
}

/* The slot of @s's next event (and of its packet beside it). */
static inline SlEvent *
next_slot (SlEventStore   *self,
           Stream         *s,
           SlEventPacket **packet)
{
  guint64 chunk = (s->len >> CHUNK_SHIFT) - s->base;
  gboolean net = s == &self->streams[SL_EVENT_STREAM_NET];

  if ((s->len & CHUNK_MASK) == 0)
    {
      g_ptr_array_add (s->chunks, chunk_new (self, &s->reserve, CHUNK_LEN * sizeof (SlEvent)));
      if (net)
        g_ptr_array_add (self->packets, chunk_new (self, &self->packet_reserve, CHUNK_LEN * sizeof (SlEventPacket)));
    }
  if (net)
    *packet = (SlEventPacket *) g_ptr_array_index (self->packets, chunk) + (s->len & CHUNK_MASK);
  return (SlEvent *) g_ptr_array_index (s->chunks, chunk) + (s->len & CHUNK_MASK);
}

static void
append (SlEventStore        *self,
        const SlEvent       *event,
        const SlEventPacket *packet)
{
  Stream *s = &self->streams[kinds[event->kind].stream];
  SlEventPacket *p = NULL;

  *next_slot (self, s, &p) = *event;
  if (p != NULL)
    *p = packet != NULL ? *packet : no_packet;
  s->len++;
  account (self, event);
}

void
sl_event_store_append (SlEventStore  *self,
                       const SlEvent *event)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (event != NULL);
  g_return_if_fail (event->kind > SL_EVENT_NONE && event->kind < SL_EVENT_N_KINDS);

  append (self, event, NULL);
}

void
sl_event_store_append_packet (SlEventStore        *self,
                              const SlEvent       *event,
                              const SlEventPacket *packet)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (event != NULL);
  g_return_if_fail (event->kind == SL_EVENT_PACKET_SEND || event->kind == SL_EVENT_PACKET_RECV);

  append (self, event, packet);
}

/**
 * sl_event_store_append_many:
 * @events: @n_events #SlEvent, not necessarily aligned (as a decoder
 *   writes them)
 * @strings: (array length=n_strings): the store's string id of each of
 *   the events' @str ids (at or past @n_strings: none)
 * @packets: (array length=n_packets): the packet events' ports and
 *   lengths, in their order (unknown once they run out)
 *
 * Appends what sl_event_store_append() and sl_event_store_append_packet()
 * would one by one, leaving out events of no known kind: one call per
 * decoder frame, which was most of the processor time of a thousand hosts'
 * reader threads.
 */
void
sl_event_store_append_many (SlEventStore        *self,
                            const void          *events,
                            gsize                n_events,
                            const guint32       *strings,
                            gsize                n_strings,
                            const SlEventPacket *packets,
                            gsize                n_packets)
{
  const guint8 *data = events;
  gsize next_packet = 0;

  g_return_if_fail (self != NULL);
  g_return_if_fail (events != NULL || n_events == 0);
  g_return_if_fail (strings != NULL || n_strings == 0);
  g_return_if_fail (packets != NULL || n_packets == 0);

  for (gsize i = 0; i < n_events; i++)
    {
      SlEventPacket *p = NULL;
      SlEvent e;

      memcpy (&e, data + i * sizeof e, sizeof e);
      if (e.kind <= SL_EVENT_NONE || e.kind >= SL_EVENT_N_KINDS)
        continue;
      e.str = e.str < n_strings ? strings[e.str] : 0;
      *next_slot (self, &self->streams[kinds[e.kind].stream], &p) = e;
      if (p != NULL)
        *p = next_packet < n_packets ? packets[next_packet++] : no_packet;
      self->streams[kinds[e.kind].stream].len++;
      account (self, &e);
    }
}

const SlEventPacket *
sl_event_store_get_packet (const SlEventStore *self,
                           guint64             index)
{
  const Stream *s;

  g_return_val_if_fail (self != NULL, &no_packet);
  s = &self->streams[SL_EVENT_STREAM_NET];
  g_return_val_if_fail (index < s->len, &no_packet);

  if ((index >> CHUNK_SHIFT) < s->base)
    return &no_packet;
  return (const SlEventPacket *) g_ptr_array_index (self->packets, (index >> CHUNK_SHIFT) - s->base) +
         (index & CHUNK_MASK);
}

guint64
sl_event_store_get_n_events (const SlEventStore *self,
                             SlEventStream       stream)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (stream < SL_EVENT_N_STREAMS, 0);

  return self->streams[stream].len;
}

guint64
sl_event_store_get_kind_count (const SlEventStore *self,
                               SlEventKind         kind)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (kind < SL_EVENT_N_KINDS, 0);

  return self->kind_counts[kind];
}

/* Events the tracer discarded, as far as the traces count them. */
guint64
sl_event_store_get_n_lost (const SlEventStore *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->lost;
}

const SlEvent *
sl_event_store_get (const SlEventStore *self,
                    SlEventStream       stream,
                    guint64             index)
{
  const Stream *s;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (stream < SL_EVENT_N_STREAMS, NULL);

  s = &self->streams[stream];
  g_return_val_if_fail (index < s->len, NULL);

  if ((index >> CHUNK_SHIFT) < s->base)
    return NULL;
  return (const SlEvent *) g_ptr_array_index (s->chunks, (index >> CHUNK_SHIFT) - s->base) + (index & CHUNK_MASK);
}

const SlEvent *
sl_event_store_get_run (const SlEventStore *self,
                        SlEventStream       stream,
                        guint64             index,
                        guint64            *n_run)
{
  const Stream *s;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (stream < SL_EVENT_N_STREAMS, NULL);
  g_return_val_if_fail (n_run != NULL, NULL);

  s = &self->streams[stream];
  g_return_val_if_fail (index < s->len, NULL);
  g_return_val_if_fail ((index >> CHUNK_SHIFT) >= s->base, NULL);

  *n_run = MIN (CHUNK_LEN - (index & CHUNK_MASK), s->len - index);
  return (const SlEvent *) g_ptr_array_index (s->chunks, (index >> CHUNK_SHIFT) - s->base) + (index & CHUNK_MASK);
}

/* Streams are in the order the reader merged them: by time, except for
 * sub-microsecond overlaps between packets that some tracers write. */
guint64
sl_event_store_lower_bound (const SlEventStore *self,
                            SlEventStream       stream,
                            gint64              time)
{
  guint64 lo, hi;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (stream < SL_EVENT_N_STREAMS, 0);

  lo = self->streams[stream].base << CHUNK_SHIFT;
  hi = self->streams[stream].len;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (sl_event_store_get (self, stream, mid)->time < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
sl_event_store_get_time_range (const SlEventStore *self,
                               gint64             *first,
                               gint64             *last)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->first > self->last)
    return FALSE;
  if (first != NULL)
    *first = self->first;
  if (last != NULL)
    *last = self->last;
  return TRUE;
}

const char *
sl_event_store_get_thread_name (const SlEventStore *self,
                                guint32             tid)
{
  gpointer id;

  g_return_val_if_fail (self != NULL, NULL);

  if (!g_hash_table_lookup_extended (self->thread_names, GUINT_TO_POINTER (tid), NULL, &id))
    return NULL;
  return sl_event_store_get_string (self, GPOINTER_TO_UINT (id));
}

guint
sl_event_store_get_n_threads (const SlEventStore *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return g_hash_table_size (self->thread_names);
}

gsize
sl_event_store_get_memory_size (const SlEventStore *self)
{
  gsize size = sizeof *self;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < SL_EVENT_N_STREAMS; i++)
    size += self->streams[i].chunks->len * (CHUNK_LEN * sizeof (SlEvent) + sizeof (gpointer));
  size += self->packets->len * (CHUNK_LEN * sizeof (SlEventPacket) + sizeof (gpointer));
  size += sl_interner_get_memory_size (self->strings);
  size += g_hash_table_size (self->thread_names) * 4 * sizeof (gpointer);
  return size;
}

/* The first index of @stream still kept: indices below it were dropped
 * (sl_event_store_drop_before()); sl_event_store_get() gives NULL for them. */
guint64
sl_event_store_get_first_index (const SlEventStore *self,
                                SlEventStream       stream)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (stream < SL_EVENT_N_STREAMS, 0);

  return self->streams[stream].base << CHUNK_SHIFT;
}

/* Every event at or after this time is kept (G_MININT64: nothing was
 * dropped); before it, some or all were dropped. */
gint64
sl_event_store_get_kept_from (const SlEventStore *self)
{
  g_return_val_if_fail (self != NULL, G_MININT64);

  return self->kept_from;
}

/* Frees the full chunks of each stream whose events are all before @time
 * (never the one being filled, nor events at or after @time; the last of
 * a chunk is its latest but for sub-microsecond overlaps, which the
 * maximum over the chunk covers). Kind counts and the time range then
 * describe what is kept; the count of lost events stays the session's.
 * Returns how many events were dropped. */
guint64
sl_event_store_drop_before (SlEventStore *self,
                            gint64        time)
{
  guint64 dropped = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < SL_EVENT_N_STREAMS; i++)
    {
      Stream *s = &self->streams[i];
      guint n = 0;

      /* chunks that are full and not the last one */
      while (n + 1 < s->chunks->len)
        {
          const SlEvent *chunk = g_ptr_array_index (s->chunks, n);
          gint64 max = G_MININT64;

          if (chunk[CHUNK_LEN - 1].time >= time)
            break;
          for (guint k = 0; k < CHUNK_LEN; k++)
            max = MAX (max, chunk[k].time);
          if (max >= time)
            break;
          for (guint k = 0; k < CHUNK_LEN; k++)
            self->kind_counts[chunk[k].kind]--;
          self->kept_from = MAX (self->kept_from, max + 1);
          n++;
        }
      if (n == 0)
        continue;
      for (guint k = 0; k < n; k++)
        chunk_free (s->chunks->pdata[k], CHUNK_LEN * sizeof (SlEvent));
      g_ptr_array_remove_range (s->chunks, 0, n);
      if (i == SL_EVENT_STREAM_NET)
        {
          for (guint k = 0; k < n; k++)
            chunk_free (self->packets->pdata[k], CHUNK_LEN * sizeof (SlEventPacket));
          g_ptr_array_remove_range (self->packets, 0, n);
        }
      s->base += n;
      dropped += (guint64) n << CHUNK_SHIFT;
    }
  if (dropped > 0)
    {
      self->first = G_MAXINT64;
      for (guint i = 0; i < SL_EVENT_N_STREAMS; i++)
        {
          const Stream *s = &self->streams[i];

          if (s->len > (s->base << CHUNK_SHIFT))
            self->first = MIN (self->first, sl_event_store_get (self, i, s->base << CHUNK_SHIFT)->time);
        }
    }
  return dropped;
}

/* How many blocks of chunks were mapped for @self (tests: a block holds
 * many chunks). */
guint
_sl_event_store_get_n_blocks (const SlEventStore *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_blocks;
}
