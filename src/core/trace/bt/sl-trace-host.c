/* sl-trace-host.c: one host of the folder reader, decoded by a process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "sl-cpu-time.h"
#include "sl-trace-reader-private.h"

/*
 * Each host has a thread that runs a syncline-decoder process on the
 * host's traces (sl-decoder-main.c: one babeltrace2 graph, one
 * src.ctf.fs per trace, the streams merged by time and converted at once)
 * and reads its steps into the host's feed (packet events, counts,
 * position) and event store. The thread stops reading while the host's
 * queue of batches is full, so the decoder stops too (its pipe is full):
 * memory does not grow with the traces. With --threads=N, at most N
 * decoders run at once: a host holds a slot while its decoder runs, gives
 * it up when its queue is full or after SLICE_US when another host waits
 * for one, and its decoder is paused meanwhile (sl_decoder_pause()).
 *
 * A host with several stream files may be decoded by several decoders at
 * once (sl_trace_host_split(): when there are more threads than hosts):
 * each part of it is a Host of its own with a view of some of the
 * stream files, decoded as above into a feed of its own, and the host's
 * thread merges the parts' packet events by time (ties: the part of the
 * earlier stream files first, as the decoder's sink orders its inputs)
 * into the host's feed, adding up their counts and spans.
 *
 * A decoder that dies, stops answering or makes no progress with the
 * processor (a babeltrace2 loop) is reported with the file and packet it
 * was at; cancelling kills the decoders, so it is immediate whatever they
 * do.
 */

#define SLICE_US             (50 * 1000)
#define POLL_US              (100 * 1000)
/* processor time a decoder may spend without finishing a step */
#define WATCHDOG_CPU_US      (30 * G_USEC_PER_SEC)
/* time a decoder may go without output, not waiting for us */
#define WATCHDOG_WALL_US     (300 * G_USEC_PER_SEC)
/* decoders started again on one host after deaths */
#define MAX_RESTARTS         8

typedef struct
{
  SlDecoder *decoder;
  GArray    *traces;
  gboolean   hello;
  gboolean   ended;
  gboolean   fatal;
  gboolean   crashed;
  gboolean   watchdog;
  guint32    crash_signal;
  guint      crash_input;
  guint64    crash_packet;
  char      *crash_file;
  TraceDir  *repair;
  gint64     step_cpu;
  gint64     step_time;
} Run;

/* ---------------------------------------------------------------------- */
/* Slots (--threads)                                                       */

/* packet batches a part of a host may publish before it waits */
#define PART_QUEUE_MAX       4
#define MAX_PARTS            16
/* packet events the host's thread merges from its parts per lock */
#define MERGE_CHUNK          1024

static gboolean
uses_slots (SlTraceReader *self)
{
  return self->options.n_threads < self->n_decoders;
}

/* Wakes the first host of the slot queue when a slot is free (hub
 * locked). Each waiting host has its own condition: with a thousand hosts
 * queued, waking them all at every published batch was most of the
 * reader's processor time (the kernel's). */
static void
slot_wake_head_locked (SlTraceReader *self)
{
  Host *head = g_queue_peek_head (&self->slot_queue);

  if (head != NULL && self->free_slots > 0)
    g_cond_signal (&head->slot_cond);
}

static gboolean
slot_acquire (Host *h,
              Run  *run)
{
  SlTraceReader *self = h->reader;
  GMutex *mutex = sl_feed_hub_get_mutex (self->hub);

  if (h->has_slot || !uses_slots (self))
    return !atomic_load (&self->cancelled);

  sl_feed_hub_lock (self->hub);
  g_queue_push_tail (&self->slot_queue, h);
  while ((g_queue_peek_head (&self->slot_queue) != h || self->free_slots == 0) && !atomic_load (&self->cancelled))
    g_cond_wait (&h->slot_cond, mutex);
  g_queue_remove (&self->slot_queue, h);
  if (!atomic_load (&self->cancelled))
    {
      self->free_slots--;
      h->has_slot = TRUE;
      h->slot_since = g_get_monotonic_time ();
      /* the watchdog counts from now */
      run->step_time = h->slot_since;
    }
  slot_wake_head_locked (self);
  sl_feed_hub_broadcast_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
  if (h->has_slot && run->decoder != NULL)
    sl_decoder_pause (run->decoder, FALSE);
  return h->has_slot;
}

/* Called with the hub locked. */
static void
slot_release_locked (Host *h,
                     Run  *run)
{
  SlTraceReader *self = h->reader;

  if (!h->has_slot || !uses_slots (self))
    return;
  if (run->decoder != NULL)
    sl_decoder_pause (run->decoder, TRUE);
  h->has_slot = FALSE;
  self->free_slots++;
  slot_wake_head_locked (self);
  sl_feed_hub_broadcast_locked (self->hub);
}

/* Cancelling: every host waiting for a slot sees it (hub locked). */
void
sl_trace_host_wake_slot_queue_locked (SlTraceReader *self)
{
  for (GList *l = self->slot_queue.head; l != NULL; l = l->next)
    g_cond_signal (&((Host *) l->data)->slot_cond);
}

/* A part of a host waits while its queue is full, on its host's hub
 * (never holding both locks), without its slot. */
static void
part_wait_for_room (Host *h,
                    Run  *run)
{
  SlTraceReader *self = h->reader;
  SlFeedHub *hub = h->parent->part_hub;

  sl_feed_hub_lock (hub);
  while (sl_feed_get_queued_locked (h->feed) >= PART_QUEUE_MAX && !atomic_load (&self->cancelled))
    {
      if (h->has_slot)
        {
          sl_feed_hub_unlock (hub);
          sl_feed_hub_lock (self->hub);
          slot_release_locked (h, run);
          sl_feed_hub_unlock (self->hub);
          sl_feed_hub_lock (hub);
          continue;
        }
      g_cond_wait_until (sl_feed_hub_get_cond (hub), sl_feed_hub_get_mutex (hub), g_get_monotonic_time () + POLL_US);
    }
  sl_feed_hub_unlock (hub);
}

/* After a step: waits while the host's queue is full (its decoder waits
 * too), and lets another host run after a slice. */
static void
wait_for_room (Host *h,
               Run  *run)
{
  SlTraceReader *self = h->reader;
  GCond *cond = sl_feed_hub_get_cond (self->hub);
  GMutex *mutex = sl_feed_hub_get_mutex (self->hub);

  if (h->parent != NULL)
    part_wait_for_room (h, run);
  sl_feed_hub_lock (self->hub);
  while (h->parent == NULL && sl_feed_get_queued_locked (h->feed) >= self->queue_max &&
         !atomic_load (&self->cancelled))
    {
      slot_release_locked (h, run);
      g_cond_wait (cond, mutex);
    }
  /* spilling, a host keeps its slot to the end: only as many decoders
   * as slots exist at once */
  if (h->has_slot && uses_slots (self) && self->spill_dir == NULL &&
      g_get_monotonic_time () - h->slot_since > SLICE_US && self->slot_queue.length > 0)
    slot_release_locked (h, run);
  sl_feed_hub_unlock (self->hub);
  run->step_time = g_get_monotonic_time ();
}

/* ---------------------------------------------------------------------- */
/* Frames                                                                  */

/* The file a babeltrace message names, when it names one of the trace's. */
static char *
file_in_message (const char *msg,
                 const char *dir)
{
  const char *p = msg != NULL ? strstr (msg, dir) : NULL;
  gsize n = 0;

  if (p == NULL)
    return g_strdup (dir);
  while (p[n] != '\0' && p[n] != '\'' && p[n] != '`' && p[n] != '"' && p[n] != ' ')
    n++;
  while (n > 0 && (p[n - 1] == '.' || p[n - 1] == ','))
    n--;
  return g_strndup (p, n);
}

static TraceDir *
run_trace (Host *h,
           Run  *run,
           guint child_index)
{
  if (child_index >= run->traces->len)
    return NULL;
  return g_ptr_array_index (h->traces, g_array_index (run->traces, guint, child_index));
}

/* An input's stream file (in the trace's view, put back to the trace's). */
static char *
input_file (Host  *h,
            guint  input)
{
  const char *file = input < h->input_files->len ? g_ptr_array_index (h->input_files, input) : NULL;

  if (file == NULL || *file == '\0')
    return g_strdup (g_ptr_array_index (h->trace_paths, 0));
  return sl_trace_view_unmap (h, file);
}

static void
on_input (Host              *h,
          Run               *run,
          const SlWireFrame *f)
{
  SlWireInput in;
  TraceDir *t;
  guint index;

  if (f->size < sizeof in)
    return;
  memcpy (&in, f->data, sizeof in);
  if (in.index > 1u << 20)
    return;
  if (in.index >= h->inputs->len)
    {
      g_ptr_array_set_size (h->inputs, in.index + 1);
      g_ptr_array_set_size (h->input_files, in.index + 1);
      g_array_set_size (h->input_traces, in.index + 1);
    }
  g_free (g_ptr_array_index (h->inputs, in.index));
  g_ptr_array_index (h->inputs, in.index) = sl_wire_string (f->data + sizeof in, f->size - sizeof in);
  {
    gsize n = strlen (g_ptr_array_index (h->inputs, in.index)) + 1;

    g_free (g_ptr_array_index (h->input_files, in.index));
    g_ptr_array_index (h->input_files, in.index) = sizeof in + n < f->size
      ? sl_wire_string (f->data + sizeof in + n, f->size - sizeof in - n) : g_strdup ("");
  }
  t = run_trace (h, run, in.trace);
  index = t != NULL ? g_array_index (run->traces, guint, in.trace) : 0;
  g_array_index (h->input_traces, guint, in.index) = index;
}

static void
report_open_failure (Host       *h,
                     TraceDir   *t,
                     const char *raw)
{
  g_autofree char *why = sl_trace_view_unmap (h, raw != NULL ? raw : "");
  g_autofree char *file = file_in_message (why, t->path);

  t->failed = TRUE;
  sl_trace_reader_add_problem (h->reader, h->name, file, "cannot open the trace: %s; trace skipped",
                               *why != '\0' ? why : "babeltrace2 refused it");
}

/* A trace babeltrace2 refused to open: reported and left out, unless its
 * streams may be to blame and have not been probed yet (FALSE: stop this
 * decoder, sl_trace_repair() mends the trace, a new decoder starts). */
static gboolean
on_trace_failed (Host              *h,
                 Run               *run,
                 const SlWireFrame *f)
{
  g_autofree char *raw = NULL;
  guint32 index;
  TraceDir *t;

  if (f->size < sizeof index)
    return TRUE;
  memcpy (&index, f->data, sizeof index);
  t = run_trace (h, run, index);
  if (t == NULL)
    return TRUE;
  raw = sl_wire_string (f->data + sizeof index, f->size - sizeof index);
  if (!t->repair_tried && t->streams->len > 0)
    {
      t->repair_tried = TRUE;
      g_free (t->open_error);
      t->open_error = g_steal_pointer (&raw);
      run->repair = t;
      return FALSE;
    }
  report_open_failure (h, t, raw);
  return TRUE;
}

static void
on_range (Host              *h,
          const SlWireFrame *f)
{
  gint64 r[2];

  if (f->size < sizeof r)
    return;
  memcpy (r, f->data, sizeof r);
  if (h->parent != NULL)
    h = h->parent;
  if (r[0] < atomic_load (&h->range_begin))
    atomic_store (&h->range_begin, r[0]);
  if (r[1] > atomic_load (&h->range_end))
    atomic_store (&h->range_end, r[1]);
}

static void
on_commit (Host *h,
           Run  *run)
{
  GArray *consumed = h->target.consumed;

  for (guint i = 0; i < consumed->len && i < h->inputs->len; i++)
    {
      const char *name = g_ptr_array_index (h->inputs, i);
      guint64 *total;

      if (name == NULL)
        continue;
      total = g_hash_table_lookup (h->consumed, name);
      if (total == NULL)
        {
          total = g_new0 (guint64, 1);
          g_hash_table_insert (h->consumed, g_strdup (name), total);
        }
      *total = g_array_index (consumed, guint64, i);
    }
  run->step_cpu = sl_decoder_get_cpu_us (run->decoder);
  run->step_time = g_get_monotonic_time ();
  sl_feed_publish (h->feed, SL_FEED_FLUSH_IF_WANTED);
  wait_for_room (h, run);
}

static void
on_input_failed (Host              *h,
                 const SlWireFrame *f)
{
  SlWirePosition p;
  g_autofree char *why = NULL;
  g_autofree char *file = NULL;

  if (f->size < sizeof p)
    return;
  memcpy (&p, f->data, sizeof p);
  {
    g_autofree char *raw = sl_wire_string (f->data + sizeof p, f->size - sizeof p);

    why = sl_trace_view_unmap (h, raw);
  }
  file = input_file (h, p.input);
  sl_trace_reader_add_problem (h->reader, h->name, file,
                               "babeltrace2 stopped in packet %" G_GUINT64_FORMAT " of the stream: %s; "
                               "the stream's earlier packets are kept", p.packet, why);
}

static void
on_unusable (Host              *h,
             const SlWireFrame *f)
{
  g_autofree char *raw_file = sl_wire_string (f->data, f->size);
  gsize file_len = strlen (raw_file) + 1;
  g_autofree char *raw_why = file_len < f->size ? sl_wire_string (f->data + file_len, f->size - file_len)
                                                : g_strdup ("");
  Host *top = h->parent != NULL ? h->parent : h;
  char *file = *raw_file != '\0' ? sl_trace_view_unmap (h, raw_file) : g_strdup (g_ptr_array_index (h->trace_paths, 0));
  char *why = sl_trace_view_unmap (h, raw_why);

  sl_feed_hub_lock (top->reader->hub);
  if (top->unusable_why == NULL)
    {
      top->unusable_file = g_steal_pointer (&file);
      top->unusable_why = g_steal_pointer (&why);
    }
  sl_feed_hub_unlock (top->reader->hub);
  g_free (file);
  g_free (why);
}

static void
on_fatal (Host              *h,
          Run               *run,
          const SlWireFrame *f)
{
  g_autofree char *raw_file = sl_wire_string (f->data, f->size);
  gsize file_len = strlen (raw_file) + 1;
  g_autofree char *raw_why = file_len < f->size ? sl_wire_string (f->data + file_len, f->size - file_len)
                                                : g_strdup ("");
  g_autofree char *file = sl_trace_view_unmap (h, raw_file);
  g_autofree char *why = sl_trace_view_unmap (h, raw_why);

  run->fatal = TRUE;
  if (h->inputs->len == 0)
    {
      /* the graph could not be built */
      h->decode_failed = TRUE;
      sl_trace_reader_add_problem (h->reader, h->name, g_ptr_array_index (h->trace_paths, 0), "%s",
                                   *why != '\0' ? why : "cannot build the reader");
      return;
    }
  /* babeltrace names the file in some messages; otherwise the stream that
   * failed is the one the sink was reading */
  for (guint i = 0; i < h->trace_paths->len && (*file == '\0'); i++)
    if (strstr (why, g_ptr_array_index (h->trace_paths, i)) != NULL)
      {
        g_free (file);
        file = file_in_message (why, g_ptr_array_index (h->trace_paths, i));
      }
  h->stopped = TRUE;
  sl_trace_reader_add_problem (h->reader, h->name, *file != '\0' ? file : g_ptr_array_index (h->trace_paths, 0),
                               "decoding stopped after %" G_GUINT64_FORMAT " events (truncated or corrupt stream?): %s",
                               sl_feed_get_events_local (h->feed), *why != '\0' ? why : "babeltrace2 failed");
}

static gboolean
on_hello (Host              *h,
          Run               *run,
          const SlWireFrame *f)
{
  SlWireHello hello = { 0 };

  if (f->size >= sizeof hello)
    memcpy (&hello, f->data, sizeof hello);
  if (hello.version == SL_WIRE_VERSION && hello.packet_event_size == sizeof (SlPacketEvent) &&
      hello.event_size == sizeof (SlEvent))
    {
      run->hello = TRUE;
      return TRUE;
    }
  h->decode_failed = TRUE;
  sl_trace_reader_add_problem (h->reader, h->name, sl_decoder_get_program (NULL),
                               "the trace decoder is of another build of Syncline; reinstall it");
  return FALSE;
}

/* FALSE: stop reading (the decoder is to be killed). */
static gboolean
on_frame (Host              *h,
          Run               *run,
          const SlWireFrame *f)
{
  if (!run->hello && f->type != SL_WIRE_HELLO)
    return FALSE;
  if (sl_decoder_apply (&h->target, f))
    {
      if (f->type == SL_WIRE_COMMIT)
        on_commit (h, run);
      return TRUE;
    }
  switch (f->type)
    {
    case SL_WIRE_HELLO:
      return on_hello (h, run, f);
    case SL_WIRE_INPUT:
      on_input (h, run, f);
      break;
    case SL_WIRE_TRACE_FAILED:
      return on_trace_failed (h, run, f);
    case SL_WIRE_RANGE:
      on_range (h, f);
      break;
    case SL_WIRE_INPUT_FAILED:
      on_input_failed (h, f);
      break;
    case SL_WIRE_FATAL:
      on_fatal (h, run, f);
      break;
    case SL_WIRE_UNUSABLE:
      on_unusable (h, f);
      break;
    case SL_WIRE_CRASH:
      if (f->size >= sizeof (SlWireCrash))
        {
          SlWireCrash c;

          memcpy (&c, f->data, sizeof c);
          run->crashed = TRUE;
          run->crash_signal = c.signo;
          run->crash_input = c.input;
          run->crash_packet = c.packet;
          g_free (run->crash_file);
          run->crash_file = sl_wire_string (f->data + sizeof c, f->size - sizeof c);
        }
      break;
    case SL_WIRE_END:
      run->ended = TRUE;
      break;
    default:
      break;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* The host's thread                                                       */

/* What a decoder may allocate: babeltrace2 needs little beyond its
 * packet index, so a damaged length it believes (a sequence of 2^32
 * elements) ends in an abort, the host salvaged, not in the machine's
 * memory exhausted. */
guint64
sl_trace_host_memory_limit (Host *h)
{
  return (G_GUINT64_CONSTANT (1) << 30) + 16 * MIN (h->total_bytes, G_GUINT64_CONSTANT (1) << 40);
}

static GPtrArray *
decoder_args (Host *h,
              Run  *run)
{
  GPtrArray *args = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter it;
  gpointer name, total;

  g_ptr_array_add (args, g_strdup ("trace"));
  g_ptr_array_add (args, g_strdup_printf ("--memory-limit=%" G_GUINT64_FORMAT, sl_trace_host_memory_limit (h)));
  if (h->reader->options.keep_events)
    g_ptr_array_add (args, g_strdup ("--keep-events"));
  g_hash_table_iter_init (&it, h->consumed);
  while (g_hash_table_iter_next (&it, &name, &total))
    g_ptr_array_add (args, g_strdup_printf ("--skip=%" G_GUINT64_FORMAT ":%s", *(guint64 *) total, (char *) name));
  g_ptr_array_add (args, g_strdup ("--"));
  for (guint i = 0; i < h->traces->len; i++)
    {
      TraceDir *t = g_ptr_array_index (h->traces, i);

      if (t->failed || t->view == NULL)
        continue;
      g_array_append_val (run->traces, i);
      g_ptr_array_add (args, g_strdup (t->view));
    }
  g_ptr_array_add (args, NULL);
  return args;
}

/* Processor time a decoder may spend in one step: WATCHDOG_CPU_US, or
 * SL_DECODER_WATCHDOG_S seconds (the tests' spinning decoder). */
static gint64
watchdog_cpu_us (void)
{
  const char *env = g_getenv ("SL_DECODER_WATCHDOG_S");
  guint64 s;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, 3600, &s, NULL))
    return (gint64) s * G_USEC_PER_SEC;
  return WATCHDOG_CPU_US;
}

/* A decoder that spins (processor time, no step) or hangs (no output while
 * it may write) is stopped. */
static gboolean
watchdog_fires (Run *run)
{
  gint64 cpu = sl_decoder_get_cpu_us (run->decoder);

  if (cpu >= 0 && cpu - run->step_cpu > watchdog_cpu_us ())
    return TRUE;
  return g_get_monotonic_time () - run->step_time > WATCHDOG_WALL_US;
}

static void
report_death (Host       *h,
              Run        *run,
              const char *how)
{
  g_autofree char *file = NULL;
  g_autofree char *where = NULL;

  if (run->crashed && run->crash_file != NULL && *run->crash_file != '\0')
    {
      file = sl_trace_view_unmap (h, run->crash_file);
      where = g_strdup_printf (" in packet %" G_GUINT64_FORMAT " of the stream", run->crash_packet);
    }
  else
    file = g_strdup (g_ptr_array_index (h->trace_paths, 0));
  h->stopped = TRUE;
  if (run->watchdog)
    sl_trace_reader_add_problem (h->reader, h->name, file,
                                 "babeltrace2 made no progress for %d s%s (a loop on damaged data?); the rest of the "
                                 "host's traces is skipped", (int) (watchdog_cpu_us () / G_USEC_PER_SEC),
                                 where != NULL ? where : "");
  else
    sl_trace_reader_add_problem (h->reader, h->name, file,
                                 "the trace decoder died%s after %" G_GUINT64_FORMAT " events (%s); the rest of "
                                 "the host's traces is skipped", where != NULL ? where : "",
                                 sl_feed_get_events_local (h->feed), how != NULL ? how : "no reason given");
}

static void
read_decoder (Host *h,
              Run  *run)
{
  SlTraceReader *self = h->reader;

  while (slot_acquire (h, run))
    {
      SlWireFrame f;
      SlDecoderStatus st = sl_decoder_next (run->decoder, &f, POLL_US);

      if (atomic_load (&self->cancelled) || st == SL_DECODER_EOF)
        break;
      if (st == SL_DECODER_TIMEOUT)
        {
          if (run->watchdog && g_get_monotonic_time () - run->step_time > 2 * G_USEC_PER_SEC)
            {
              sl_decoder_kill (run->decoder);
              break;
            }
          if (!run->watchdog && watchdog_fires (run))
            {
              /* SIGABRT: its handler says where it was, then it dies */
              run->watchdog = TRUE;
              run->step_time = g_get_monotonic_time ();
              sl_decoder_signal (run->decoder, SIGABRT);
            }
          continue;
        }
      if (!on_frame (h, run, &f))
        {
          sl_decoder_kill (run->decoder);
          break;
        }
    }
}

/* The stream of a file in a view (VIEW/tN/NAME). */
static SlCtfStream *
view_stream (Host       *h,
             const char *file,
             TraceDir  **trace)
{
  g_autofree char *dir = file != NULL ? g_path_get_dirname (file) : NULL;
  g_autofree char *base = file != NULL ? g_path_get_basename (file) : NULL;

  for (guint k = 0; dir != NULL && k < h->traces->len; k++)
    {
      TraceDir *t = g_ptr_array_index (h->traces, k);

      if (g_strcmp0 (t->view, dir) != 0)
        continue;
      for (guint i = 0; i < t->streams->len; i++)
        {
          SlCtfStream *st = g_ptr_array_index (t->streams, i);
          g_autofree char *name = g_path_get_basename (st->path);

          if (g_str_equal (name, base))
            {
              *trace = t;
              return st;
            }
        }
    }
  return NULL;
}

/* After a decoder died in packet K of a stream: the stream is cut so that
 * the next decoder does not meet that packet again (first after packet K,
 * in case it died reading the next one's header; then before it; then
 * the whole file), and what was delivered is skipped. TRUE: start again. */
static gboolean
salvage (Host       *h,
         Run        *run,
         const char *how)
{
  TraceDir *t = NULL;
  SlCtfStream *st;
  g_autoptr(GError) error = NULL;
  guint64 k, bytes;
  guint tries;

  if (!run->crashed || (st = view_stream (h, run->crash_file, &t)) == NULL || st->n_packets == 0)
    return FALSE;
  k = MIN (run->crash_packet, st->n_packets);
  tries = st->cut_tries++;
  if (tries == 0 && k < st->n_packets)
    bytes = g_array_index (st->offsets, guint64, k);
  else if (tries <= 1 && k > 0)
    bytes = g_array_index (st->offsets, guint64, k - 1);
  else
    bytes = 0;
  if (bytes >= st->good_bytes && st->good_bytes > 0)
    bytes = k > 0 ? g_array_index (st->offsets, guint64, k - 1) : 0;
  if (bytes >= st->good_bytes || !sl_trace_view_cut (h->reader, t, st, bytes, &error))
    return FALSE;
  sl_trace_reader_add_problem (h->reader, h->name, st->path,
                               "the trace decoder %s in packet %" G_GUINT64_FORMAT " of the stream (%s); decoding "
                               "goes on without the packets from offset %" G_GUINT64_FORMAT " (the first %u are kept)",
                               run->watchdog ? "made no progress" : "died", k, how != NULL ? how : "no reason given",
                               bytes, st->n_packets);
  return TRUE;
}

typedef enum
{
  RUN_OVER,
  RUN_DIED,
  RUN_REPAIR,
} RunEnd;

static RunEnd
run_decoder (Host  *h,
             Run   *run,
             char **how)
{
  SlTraceReader *self = h->reader;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) args = NULL;

  args = decoder_args (h, run);
  if (run->traces->len == 0 || !slot_acquire (h, run))
    return RUN_OVER;
  if (h->index < 3)
    sl_profile_mark ("reader", "host %u: decoder spawned", h->index);
  run->decoder = sl_decoder_spawn ((const char *const *) args->pdata, &error);
  if (run->decoder == NULL)
    {
      h->decode_failed = TRUE;
      sl_trace_reader_add_problem (self, h->name, g_ptr_array_index (h->trace_paths, 0),
                                   "cannot start the trace decoder: %s", error->message);
      return RUN_OVER;
    }
  sl_feed_hub_lock (self->hub);
  h->decoder = run->decoder;
  if (atomic_load (&self->cancelled))
    sl_decoder_kill (run->decoder);
  sl_feed_hub_unlock (self->hub);
  sl_decoder_target_reset (&h->target);
  g_ptr_array_set_size (h->inputs, 0);
  g_ptr_array_set_size (h->input_files, 0);
  run->step_cpu = 0;
  run->step_time = g_get_monotonic_time ();

  read_decoder (h, run);

  if (!run->ended)
    sl_decoder_kill (run->decoder);
  sl_feed_hub_lock (self->hub);
  h->decoder = NULL;
  sl_feed_hub_unlock (self->hub);
  *how = sl_decoder_finish (run->decoder);
  g_clear_pointer (&run->decoder, sl_decoder_free);
  if (atomic_load (&self->cancelled))
    return RUN_OVER;
  if (!run->hello && !h->decode_failed)
    {
      h->decode_failed = TRUE;
      sl_trace_reader_add_problem (self, h->name, sl_decoder_get_program (NULL),
                                   "the trace decoder did not start (%s)", *how != NULL ? *how : "no answer");
      return RUN_OVER;
    }
  if (run->repair != NULL)
    return RUN_REPAIR;
  return !run->ended && !run->fatal && run->hello ? RUN_DIED : RUN_OVER;
}

/* Decodes the host, starting a decoder again after one died (salvage) or
 * after a trace it refused was mended (each trace once). */
static void
decode_host (Host *h)
{
  guint deaths = 0;

  for (;;)
    {
      g_autofree char *how = NULL;
      Run run = { 0 };
      RunEnd end;

      run.traces = g_array_new (FALSE, FALSE, sizeof (guint));
      end = run_decoder (h, &run, &how);
      sl_feed_hub_lock (h->reader->hub);
      slot_release_locked (h, &run);
      sl_feed_hub_unlock (h->reader->hub);
      if (end == RUN_DIED && (deaths++ >= MAX_RESTARTS || !salvage (h, &run, how)))
        report_death (h, &run, how);
      if (end == RUN_REPAIR && !sl_trace_repair (h, run.repair) && !atomic_load (&h->reader->cancelled))
        report_open_failure (h, run.repair, run.repair->open_error);
      g_array_unref (run.traces);
      g_free (run.crash_file);
      if (end == RUN_OVER || h->stopped || atomic_load (&h->reader->cancelled))
        break;
    }
}

/* ---------------------------------------------------------------------- */
/* Parts: one host decoded by several decoders                             */

static TraceDir *
part_trace_new (const TraceDir *t)
{
  TraceDir *c = g_new (TraceDir, 1);

  *c = *t;
  c->path = g_strdup (t->path);
  c->metadata = g_strdup (t->metadata);
  /* NULL if the view's copy is gone: the part's view then fails and
   * the host is decoded whole */
  c->text = sl_trace_view_text (t, &c->text_len, NULL);
  c->hostname = g_strdup (t->hostname);
  c->clock_uuid = g_strdup (t->clock_uuid);
  c->domain = g_strdup (t->domain);
  c->view = NULL;
  c->open_error = NULL;
  /* the streams are the host's trace's: each is in one part only */
  c->streams = g_ptr_array_new ();
  return c;
}

static Host *
part_new (Host *h)
{
  Host *part = sl_trace_host_new (h->reader, h->hostname, h->clock_uuid);

  sl_feed_free (part->feed);
  part->feed = sl_feed_new (h->part_hub);
  part->parent = h;
  part->index = h->index;
  part->name = g_strdup (h->name);
  g_ptr_array_unref (part->trace_paths);
  part->trace_paths = g_ptr_array_ref (h->trace_paths);
  return part;
}

static void
part_taken_cb (SlFeed   *feed,
               gpointer  data)
{
  Host *h = data;

  sl_feed_hub_broadcast_locked (h->part_hub);
}

/**
 * sl_trace_host_split:
 * @n_parts: decoders wanted for the host
 *
 * Divides the host's stream files into up to @n_parts parts of about equal
 * bytes, each a run of consecutive files in the host's order of traces
 * and streams, each with a view of its own (before the host starts).
 *
 * Returns: the number of parts (1: the host is decoded whole)
 */
guint
sl_trace_host_split (Host  *h,
                     guint  n_parts)
{
  SlTraceReader *self = h->reader;
  g_autoptr(GPtrArray) streams = g_ptr_array_new ();
  g_autoptr(GArray) owner = g_array_new (FALSE, FALSE, sizeof (guint));
  guint64 total = 0, done = 0;
  guint n, first = 0;

  for (guint k = 0; k < h->traces->len; k++)
    {
      TraceDir *t = g_ptr_array_index (h->traces, k);

      if (t->failed || t->view == NULL)
        continue;
      for (guint i = 0; i < t->streams->len; i++)
        {
          SlCtfStream *st = g_ptr_array_index (t->streams, i);

          g_ptr_array_add (streams, st);
          g_array_append_val (owner, k);
          total += st->good_bytes;
        }
    }
  n = MIN (MIN (n_parts, streams->len), MAX_PARTS);
  if (n < 2)
    return 1;

  h->part_hub = sl_feed_hub_new ();
  h->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_host_free);
  for (guint p = 0; p < n; p++)
    {
      Host *part = part_new (h);
      guint64 goal = total / n * (p + 1) + total % n * (p + 1) / n;
      guint last = first + 1;
      TraceDir *pt = NULL;
      guint pt_owner = G_MAXUINT;

      done += ((SlCtfStream *) g_ptr_array_index (streams, first))->good_bytes;
      while (last < streams->len - (n - p - 1) && (done < goal || p == n - 1))
        done += ((SlCtfStream *) g_ptr_array_index (streams, last++))->good_bytes;
      g_ptr_array_add (h->parts, part);
      for (guint i = first; i < last; i++)
        {
          guint k = g_array_index (owner, guint, i);

          if (k != pt_owner)
            {
              pt = part_trace_new (g_ptr_array_index (h->traces, k));
              pt_owner = k;
              g_ptr_array_add (part->traces, pt);
            }
          g_ptr_array_add (pt->streams, g_ptr_array_index (streams, i));
          part->total_bytes += ((SlCtfStream *) g_ptr_array_index (streams, i))->good_bytes;
        }
      for (guint k = 0; k < part->traces->len; k++)
        {
          g_autoptr(GError) error = NULL;

          if (!sl_trace_view_make (self, g_ptr_array_index (part->traces, k), (1u << 20) + self->n_views++, &error))
            {
              /* decoded whole, as it was */
              g_debug ("host %s decoded by one decoder: %s", h->name, error->message);
              g_clear_pointer (&h->parts, g_ptr_array_unref);
              g_clear_pointer (&h->part_hub, sl_feed_hub_free);
              return 1;
            }
        }
      sl_feed_set_take_func (part->feed, part_taken_cb, h);
      first = last;
    }
  g_debug ("host %s: %u stream files decoded by %u decoders", h->name, streams->len, n);
  return n;
}

typedef struct
{
  SlBatch *batch;
  gboolean done;
  guint64  events;
  guint64  ignored;
  guint64  unusable;
} PartState;

/* The earliest time any part may still deliver (hub locked). */
static gint64
parts_low_locked (Host      *h,
                  PartState *ps)
{
  gint64 low = G_MAXINT64;

  for (guint p = 0; p < h->parts->len; p++)
    {
      Host *part = g_ptr_array_index (h->parts, p);

      if (ps[p].done)
        continue;
      if (ps[p].batch != NULL && ps[p].batch->pos < ps[p].batch->n)
        low = MIN (low, ps[p].batch->ev[ps[p].batch->pos].time);
      else
        low = MIN (low, sl_feed_get_watermark_locked (part->feed));
    }
  return low;
}

/* Takes the next batch of each part that has none in hand, and the
 * parts' counts and spans (hub locked). FALSE: every part is over. */
static gboolean
parts_refill_locked (Host      *h,
                     PartState *ps)
{
  gboolean any = FALSE;

  for (guint p = 0; p < h->parts->len; p++)
    {
      Host *part = g_ptr_array_index (h->parts, p);
      PartState *s = &ps[p];
      guint64 events, ignored, unusable;
      gint64 first, last;

      while (!s->done && (s->batch == NULL || s->batch->pos >= s->batch->n))
        {
          if (s->batch != NULL)
            {
              s->done = s->batch->last;
              sl_feed_recycle_locked (part->feed, g_steal_pointer (&s->batch));
              continue;
            }
          if ((s->batch = sl_feed_take_locked (part->feed)) == NULL)
            break;
        }
      events = sl_feed_get_events_locked (part->feed);
      ignored = sl_feed_get_ignored_locked (part->feed);
      unusable = sl_feed_get_unusable_locked (part->feed);
      sl_feed_count (h->feed, events - s->events, ignored - s->ignored, unusable - s->unusable);
      s->events = events;
      s->ignored = ignored;
      s->unusable = unusable;
      sl_feed_get_span_locked (part->feed, &first, &last);
      sl_feed_span (h->feed, first, last);
      any |= !s->done;
    }
  return any;
}

/* Up to MERGE_CHUNK packet events in time order (ties: the lower part)
 * into @out, as far as every part is known (hub locked). */
static void
parts_merge_locked (Host      *h,
                    PartState *ps,
                    GArray    *out)
{
  while (out->len < MERGE_CHUNK)
    {
      guint best = G_MAXUINT;
      gint64 t = G_MAXINT64;

      for (guint p = 0; p < h->parts->len; p++)
        if (!ps[p].done && ps[p].batch != NULL && ps[p].batch->pos < ps[p].batch->n &&
            (best == G_MAXUINT || ps[p].batch->ev[ps[p].batch->pos].time < t))
          {
            best = p;
            t = ps[p].batch->ev[ps[p].batch->pos].time;
          }
      if (best == G_MAXUINT)
        return;
      /* a part with nothing in hand may still deliver at its watermark */
      for (guint p = 0; p < h->parts->len; p++)
        {
          Host *part = g_ptr_array_index (h->parts, p);
          gint64 wm;

          if (ps[p].done || (ps[p].batch != NULL && ps[p].batch->pos < ps[p].batch->n))
            continue;
          wm = sl_feed_get_watermark_locked (part->feed);
          if (wm < t || (wm == t && p < best))
            return;
        }
      g_array_append_val (out, ps[best].batch->ev[ps[best].batch->pos]);
      if (++ps[best].batch->pos >= ps[best].batch->n)
        parts_refill_locked (h, ps);
    }
}

static gpointer host_thread (gpointer data);

/* The host's thread with parts: starts their threads and merges their
 * feeds into the host's. */
static void
merge_parts (Host *h)
{
  SlTraceReader *self = h->reader;
  SlFeedHub *hub = h->part_hub;
  PartState *ps = g_new0 (PartState, h->parts->len);
  g_autoptr(GArray) out = g_array_sized_new (FALSE, FALSE, sizeof (SlPacketEvent), MERGE_CHUNK);
  Run run = { 0 };

  for (guint p = 0; p < h->parts->len; p++)
    {
      Host *part = g_ptr_array_index (h->parts, p);
      g_autofree char *name = g_strdup_printf ("sl-host-%u.%u", h->index, p);

      part->thread = g_thread_new (name, host_thread, part);
    }
  for (;;)
    {
      gboolean more;
      gint64 low;

      g_array_set_size (out, 0);
      sl_feed_hub_lock (hub);
      more = parts_refill_locked (h, ps);
      parts_merge_locked (h, ps, out);
      low = parts_low_locked (h, ps);
      if (more && out->len == 0 && !atomic_load (&self->cancelled))
        g_cond_wait_until (sl_feed_hub_get_cond (hub), sl_feed_hub_get_mutex (hub), g_get_monotonic_time () + POLL_US);
      sl_feed_hub_unlock (hub);

      for (guint i = 0; i < out->len; i++)
        sl_feed_push (h->feed, &g_array_index (out, SlPacketEvent, i));
      if (low != G_MAXINT64)
        sl_feed_seen (h->feed, low);
      sl_feed_publish (h->feed, SL_FEED_FLUSH_IF_WANTED);
      if (out->len > 0)
        wait_for_room (h, &run);
      if ((!more && out->len == 0) || atomic_load (&self->cancelled))
        break;
    }

  for (guint p = 0; p < h->parts->len; p++)
    {
      Host *part = g_ptr_array_index (h->parts, p);

      sl_trace_host_join (part);
      h->decode_failed |= part->decode_failed;
      h->stopped |= part->stopped;
      if (ps[p].batch != NULL)
        {
          sl_feed_hub_lock (hub);
          sl_feed_recycle_locked (part->feed, ps[p].batch);
          sl_feed_hub_unlock (hub);
        }
    }
  g_free (ps);
}

static gpointer
host_thread (gpointer data)
{
  Host *h = data;

  h->target.feed = h->feed;
  h->target.store = h->store;
  if (h->parts != NULL)
    merge_parts (h);
  else
    decode_host (h);
  sl_feed_publish (h->feed, SL_FEED_FLUSH_LAST);
  atomic_store (&h->thread_over, 1);
  return NULL;
}

/* Called when the consumer takes a batch (hub locked): a host waiting for
 * room goes on. */
static void
host_taken_cb (SlFeed   *feed,
               gpointer  data)
{
  Host *h = data;

  sl_feed_hub_broadcast_locked (h->reader->hub);
}

void
sl_trace_host_start (Host *h)
{
  g_autofree char *name = g_strdup_printf ("sl-host-%u", h->index);

  sl_feed_set_take_func (h->feed, host_taken_cb, h);
  h->thread = g_thread_new (name, host_thread, h);
}

/* Cancelling: the decoder dies now, whatever it is doing. */
void
sl_trace_host_kill_locked (Host *h)
{
  if (h->decoder != NULL)
    sl_decoder_kill (h->decoder);
  for (guint p = 0; h->parts != NULL && p < h->parts->len; p++)
    sl_trace_host_kill_locked (g_ptr_array_index (h->parts, p));
}

void
sl_trace_host_join (Host *h)
{
  if (h->thread != NULL)
    g_thread_join (g_steal_pointer (&h->thread));
}
