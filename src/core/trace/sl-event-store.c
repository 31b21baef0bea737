/* sl-event-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-event-store.h"
#include "sl-interner.h"

G_STATIC_ASSERT (sizeof (SlEvent) == 24);

/* Fixed-size chunks: appending never copies what is stored (a doubling
 * array would briefly need twice the memory of a long trace), and the
 * index of an event is a shift and a mask. */
#define CHUNK_SHIFT 10
#define CHUNK_LEN   (1u << CHUNK_SHIFT)
#define CHUNK_MASK  (CHUNK_LEN - 1)

/* Indices are absolute: dropping the front (sl_event_store_drop_before())
 * frees whole chunks and moves @base, so an index a reader kept either
 * still names its event or is below the first index, never another event. */
typedef struct
{
  GPtrArray *chunks;
  guint64    len;
  guint64    base;
} Stream;

static const SlEventPacket no_packet = { 0, 0, SL_EVENT_NO_LENGTH };

struct _SlEventStore
{
  Stream        streams[SL_EVENT_N_STREAMS];
  /* SlEventPacket chunks beside the packet stream's */
  GPtrArray    *packets;
  guint64       kind_counts[SL_EVENT_N_KINDS];
  guint64       lost;
  SlInterner   *strings;
  GHashTable   *thread_names;
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

SlEventStore *
sl_event_store_new (void)
{
  SlEventStore *self = g_new0 (SlEventStore, 1);

  for (guint i = 0; i < SL_EVENT_N_STREAMS; i++)
    self->streams[i].chunks = g_ptr_array_new_with_free_func (g_free);
  self->packets = g_ptr_array_new_with_free_func (g_free);
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
    g_ptr_array_unref (self->streams[i].chunks);
  g_ptr_array_unref (self->packets);
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

static void
set_thread_name (SlEventStore *self,
                 guint32       tid,
                 guint32       str)
{
  if (str != 0)
    g_hash_table_insert (self->thread_names, GUINT_TO_POINTER (tid), GUINT_TO_POINTER (str));
}

static void
append (SlEventStore        *self,
        const SlEvent       *event,
        const SlEventPacket *packet)
{
  Stream *s;
  SlEvent *chunk;

  s = &self->streams[kinds[event->kind].stream];
  if ((s->len & CHUNK_MASK) == 0)
    {
      g_ptr_array_add (s->chunks, g_new (SlEvent, CHUNK_LEN));
      if (s == &self->streams[SL_EVENT_STREAM_NET])
        g_ptr_array_add (self->packets, g_new (SlEventPacket, CHUNK_LEN));
    }
  chunk = g_ptr_array_index (s->chunks, (s->len >> CHUNK_SHIFT) - s->base);
  chunk[s->len & CHUNK_MASK] = *event;
  if (s == &self->streams[SL_EVENT_STREAM_NET])
    ((SlEventPacket *) g_ptr_array_index (self->packets, (s->len >> CHUNK_SHIFT) - s->base))[s->len & CHUNK_MASK] =
      packet != NULL ? *packet : no_packet;
  s->len++;
  self->kind_counts[event->kind]++;
  self->first = MIN (self->first, event->time);
  self->last = MAX (self->last, event->time);

  switch (event->kind)
    {
    case SL_EVENT_SCHED_SWITCH:
    case SL_EVENT_PROCESS_FORK:
    case SL_EVENT_PROCESS_NAME:
      set_thread_name (self, event->kind == SL_EVENT_PROCESS_NAME ? event->tid : event->arg, event->str);
      break;

    case SL_EVENT_LOST:
      self->lost += event->arg;
      break;

    default:
      break;
    }
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
      g_ptr_array_remove_range (s->chunks, 0, n);
      if (i == SL_EVENT_STREAM_NET)
        g_ptr_array_remove_range (self->packets, 0, n);
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
