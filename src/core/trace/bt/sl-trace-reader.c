/* sl-trace-reader.c: trace folders, per-host babeltrace2 graphs, merge
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "sl-bt-decode.h"
#include "sl-trace-reader.h"

/*
 * Pipeline
 * --------
 * A scan thread finds the trace folders below the inputs (a folder with a
 * `metadata` file), reads each trace's environment and clock UUID through
 * babeltrace's `metadata-info` query and groups traces into hosts
 * (hostname + boot/clock UUID: kernel and UST traces of one boot are one
 * host).
 *
 * Each host gets one babeltrace graph: one src.ctf.fs per trace, all their
 * ports into our own sink, which merges the streams by event time without
 * the stock muxer (that one fails on packets that overlap in time, as in
 * data/traces/synctraces) and converts each event at once: TCP packet
 * events into SlPacketEvent batches, scheduling/syscall/IRQ events into the
 * host's SlEventStore. Graphs run on a GThreadPool of one thread per core.
 * A host's task runs its graph until its bounded queue of batches is full,
 * then parks (the thread goes to another host); taking a batch from a
 * parked host requeues it. A worker never waits for the consumer, and the
 * consumer (the engine's thread, in sl_trace_reader_step()) never waits
 * for a worker: it returns AGAIN instead.
 *
 * Merge order across hosts
 * ------------------------
 * The matcher swaps its table generations by the `now` we give it, so a
 * send and its receive must reach it close together in `now`, even when
 * the hosts' clocks are hours apart. Before merging, the consumer reads
 * ahead a few thousand packet events per host (the calibration), pairs
 * them by their TCP key regardless of time, and takes per link the offset
 * (median one-way difference, halved between the two directions when both
 * exist); a spanning tree of the links with most pairs gives each host an
 * offset hint to the first host of its component. Hosts are then merged by
 * local time minus hint, which is also the `now` given to the engine.
 * Hosts that no calibration pair reaches keep hint 0: their epoch-based
 * clocks (the CTF clock offset is included in every timestamp) are trusted
 * as they are. Each host also publishes a watermark (its decoding
 * position), so a host with few packets does not stall the merge.
 *
 * babeltrace2 2.0.4 pitfalls handled here
 * ---------------------------------------
 * - It loops for ever on a truncated packetized metadata file: packets are
 *   checked before babeltrace sees the folder.
 * - Precondition failures abort: field types are checked before every
 *   accessor, clocks before clock snapshots.
 * - Its objects' reference counts are not atomic: everything that creates
 *   or destroys components or queries a component class holds sl_bt_lock.
 *   Running a graph does not touch shared objects.
 * - After an error, the graph is destroyed, never run again, and the
 *   thread's error is always taken.
 */

#define BATCH_CAP              1024
#define QUEUE_MAX              8
#define CONSUME_EVENTS         8192
#define SLICE_US               (50 * 1000)
#define DEFAULT_CAL_PACKETS    4096
#define CAL_SPAN_NS            (G_GINT64_CONSTANT (60) * 1000000000)
#define MAX_SCAN_FOLDERS       100000
#define MAX_SCAN_DEPTH         32
#define METADATA_MAGIC         0x75d11d57u
#define STREAM_MAGIC           0xc1fc1fc1u


/* ---------------------------------------------------------------------- */
/* Shared babeltrace state                                                 */

/* SL_READER_DECODE_ONLY=1: iterate and drop the messages, nothing else;
 * the floor against which the reader's own cost is measured (README,
 * Benchmarks). */
static gboolean decode_only;
static const bt_component_class_source *ctf_fs_class;
static bt_component_class_sink *sink_class;
static char *bt_init_error;

static bt_component_class_sink_consume_method_status sink_consume (bt_self_component_sink *self);
static bt_component_class_initialize_method_status sink_initialize (bt_self_component_sink               *self,
                                                                    bt_self_component_sink_configuration *config,
                                                                    const bt_value                       *params,
                                                                    void                                 *data);
static bt_component_class_sink_graph_is_configured_method_status sink_graph_is_configured (bt_self_component_sink *self);
static void sink_finalize (bt_self_component_sink *self);

static gpointer
bt_init_once (gpointer data)
{
  const char *why = NULL;
  const bt_plugin *ctf_plugin = sl_bt_get_ctf_plugin (&why);

  decode_only = g_strcmp0 (g_getenv ("SL_READER_DECODE_ONLY"), "1") == 0;

  if (ctf_plugin == NULL)
    {
      bt_init_error = g_strdup (why);
      return NULL;
    }
  ctf_fs_class = bt_plugin_borrow_source_component_class_by_name_const (ctf_plugin, "fs");
  if (ctf_fs_class == NULL)
    {
      bt_init_error = g_strdup ("babeltrace2's ctf plugin has no fs source");
      return NULL;
    }

  sink_class = bt_component_class_sink_create ("syncline-reader", sink_consume);
  if (sink_class == NULL ||
      bt_component_class_sink_set_initialize_method (sink_class, sink_initialize) != BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK ||
      bt_component_class_sink_set_graph_is_configured_method (sink_class, sink_graph_is_configured) != BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK ||
      bt_component_class_sink_set_finalize_method (sink_class, sink_finalize) != BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK)
    {
      bt_current_thread_clear_error ();
      bt_init_error = g_strdup ("cannot create the reader's babeltrace2 sink (out of memory)");
      return NULL;
    }
  return NULL;
}

static gboolean
bt_ready (void)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, bt_init_once, NULL);
  return bt_init_error == NULL;
}

/* ---------------------------------------------------------------------- */
/* Types                                                                   */

typedef enum
{
  STATE_INIT,
  STATE_SCANNING,
  STATE_CALIBRATING,
  STATE_MERGING,
  STATE_DONE,
  STATE_CANCELLED,
} State;

typedef struct
{
  SlPacketEvent *ev;
  guint          n;
  guint          pos;
  guint64        events;
  guint64        ignored;
  gboolean       last;
} Batch;

typedef struct
{
  char    *path;
  char    *metadata;
  char    *hostname;
  char    *clock_uuid;
  char    *domain;
  guint64  bytes;
  gboolean failed;
} TraceDir;


typedef struct _Host Host;

typedef struct
{
  Host                    *host;
  bt_message_iterator     *it;
  bt_message_array_const   msgs;
  guint64                  count;
  guint64                  pos;
  gboolean                 ended;
  gboolean                 has_head;
  gint64                   head_time;
  SlBtStreamState          st;
} Input;

struct _Host
{
  SlTraceReader  *reader;
  guint           index;
  char           *name;
  char           *hostname;
  char           *clock_uuid;
  guint           engine_host;
  GPtrArray      *traces;
  GPtrArray      *trace_paths;
  guint64         total_bytes;

  /* decoding: owned by the task that runs the host */
  bt_graph       *graph;
  Input          *inputs;
  guint           n_inputs;
  SlBtDecoder    *decoder;
  Batch          *fill;
  guint64         ev_delta;
  guint64         ignored_delta;
  gint64          last_time;
  SlEventStore   *store;
  gboolean        decode_failed;
  gboolean        stopped;
  Input          *error_input;
  guint64         events_done_local;

  /* read by any thread */
  _Atomic guint64 events_done;
  _Atomic gint64  position;
  _Atomic gint64  range_begin;
  _Atomic gint64  range_end;
  atomic_int      wanted;

  /* under reader->lock */
  GQueue          queue;
  gboolean        parked;
  gboolean        finished;
  gint64          watermark;

  /* consumer */
  GQueue          pending;
  Batch          *cur;
  gint64          hint;
  gboolean        done;
  gboolean        got_last;
  guint64         cal_packets;
  gint64          cal_first;
  gint64          cal_last;
  guint64         packets;
};

struct _SlTraceReader
{
  SlEngine             *engine;
  SlTraceReaderOptions  options;
  GPtrArray            *folders;
  GPtrArray            *hosts;
  GThread              *scan_thread;
  GThreadPool          *pool;
  State                 state;

  GMutex                lock;
  GCond                 cond;
  guint64               signal_seq;
  guint64               seen_seq;
  gboolean              scan_done;
  GPtrArray            *scanned;
  GPtrArray            *problems;
  GPtrArray            *free_batches;
  gboolean              consumer_waiting;
  SlTraceReaderWakeup   wakeup;
  gpointer              wakeup_data;

  atomic_int            cancelled;
  gint64                start_time;
  gint64                end_time;
};

/* ---------------------------------------------------------------------- */
/* Problems                                                                */

void
sl_trace_problem_free (SlTraceProblem *problem)
{
  if (problem == NULL)
    return;
  g_free (problem->host);
  g_free (problem->file);
  g_free (problem->message);
  g_free (problem);
}

char *
sl_trace_problem_to_string (const SlTraceProblem *problem)
{
  g_return_val_if_fail (problem != NULL, NULL);

  if (problem->host != NULL)
    return g_strdup_printf ("host %s: %s: %s", problem->host, problem->file, problem->message);
  return g_strdup_printf ("%s: %s", problem->file, problem->message);
}

/**
 * sl_trace_problem_new:
 *
 * Host, file and message are made printable on one line.
 */
SlTraceProblem *
sl_trace_problem_new (const char *host,
                      const char *file,
                      const char *fmt,
                      ...)
{
  SlTraceProblem *p = g_new0 (SlTraceProblem, 1);
  g_autofree char *m = NULL;
  va_list args;

  va_start (args, fmt);
  m = g_strdup_vprintf (fmt, args);
  va_end (args);
  p->host = sl_trace_sanitize (host);
  p->file = sl_trace_sanitize (file);
  p->message = sl_trace_sanitize (m);
  return p;
}

SlTraceProblem *
sl_trace_problem_copy (const SlTraceProblem *problem)
{
  SlTraceProblem *p = g_new0 (SlTraceProblem, 1);

  p->host = g_strdup (problem->host);
  p->file = g_strdup (problem->file);
  p->message = g_strdup (problem->message);
  return p;
}

/* Problems are printed one per line: names from hostile input (a path
 * with a newline, a hostname from damaged metadata) must not break that. */
char *
sl_trace_sanitize (const char *s)
{
  char *out;

  if (s == NULL)
    return NULL;
  out = g_utf8_make_valid (s, -1);
  for (char *p = out; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      *p = '?';
  return out;
}

static void
add_problem (SlTraceReader *self,
             const char    *host,
             const char    *file,
             const char    *fmt,
             ...) G_GNUC_PRINTF (4, 5);

static void
add_problem (SlTraceReader *self,
             const char    *host,
             const char    *file,
             const char    *fmt,
             ...)
{
  g_autofree char *message = NULL;
  SlTraceProblem *p;
  va_list args;

  va_start (args, fmt);
  message = g_strdup_vprintf (fmt, args);
  va_end (args);
  p = sl_trace_problem_new (host, file, "%s", message);

  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->problems, p);
  g_mutex_unlock (&self->lock);
}

/* ---------------------------------------------------------------------- */
/* Batches                                                                 */

static Batch *
batch_new_locked (SlTraceReader *self)
{
  Batch *b;

  if (self->free_batches->len > 0)
    b = g_ptr_array_steal_index_fast (self->free_batches, self->free_batches->len - 1);
  else
    {
      b = g_new0 (Batch, 1);
      b->ev = g_new (SlPacketEvent, BATCH_CAP);
    }
  b->n = b->pos = 0;
  b->events = b->ignored = 0;
  b->last = FALSE;
  return b;
}

static void
batch_free (Batch *b)
{
  if (b == NULL)
    return;
  g_free (b->ev);
  g_free (b);
}

static void
batch_recycle_locked (SlTraceReader *self,
                      Batch         *b)
{
  if (self->free_batches->len < 64)
    g_ptr_array_add (self->free_batches, b);
  else
    batch_free (b);
}

/* Called with the lock held; returns whether the wakeup callback is due. */
static gboolean
signal_locked (SlTraceReader *self)
{
  gboolean wake = self->consumer_waiting && self->wakeup != NULL;

  self->signal_seq++;
  self->consumer_waiting = FALSE;
  g_cond_broadcast (&self->cond);
  return wake;
}

static void
signal_consumer (SlTraceReader *self)
{
  gboolean wake;

  g_mutex_lock (&self->lock);
  wake = signal_locked (self);
  g_mutex_unlock (&self->lock);
  if (wake)
    self->wakeup (self->wakeup_data);
}

/* Hands the batch being filled to the consumer: when full, at the end,
 * or when the consumer waits for this host's packets (so a host with few
 * packets does not hold the merge back; pushing every partial batch would
 * fill the queue with tiny batches and park hosts that are not late).
 * Publishes the watermark. */
static void
host_publish (Host     *h,
              gboolean  last)
{
  SlTraceReader *self = h->reader;
  gboolean wake;

  g_mutex_lock (&self->lock);
  if (h->fill == NULL)
    h->fill = batch_new_locked (self);
  if (last || h->fill->n == BATCH_CAP || (h->fill->n > 0 && atomic_load (&h->wanted)))
    {
      Batch *b = h->fill;

      b->events = h->ev_delta;
      b->ignored = h->ignored_delta;
      b->last = last;
      h->ev_delta = h->ignored_delta = 0;
      g_queue_push_tail (&h->queue, b);
      atomic_store (&h->wanted, 0);
      h->fill = last ? NULL : batch_new_locked (self);
    }
  /* Every packet not handed over yet is at or after the watermark. */
  h->watermark = MAX (h->watermark, h->fill != NULL && h->fill->n > 0 ? h->fill->ev[0].time : h->last_time);
  if (last)
    h->finished = TRUE;
  wake = signal_locked (self);
  g_mutex_unlock (&self->lock);

  if (wake)
    self->wakeup (self->wakeup_data);
}

/* ---------------------------------------------------------------------- */
/* The sink: per-host merge of the streams and conversion                  */

static void
handle_event (Host             *h,
              Input            *in,
              const bt_message *msg)
{
  h->ev_delta++;
  h->events_done_local++;
  h->last_time = MAX (h->last_time, in->head_time);

  if (h->fill == NULL)
    host_publish (h, FALSE);
  switch (sl_bt_decoder_event (h->decoder, &in->st, msg, in->head_time, h->engine_host,
                               &h->fill->ev[h->fill->n]))
    {
    case SL_BT_EVENT_PACKET:
      if (++h->fill->n == BATCH_CAP)
        host_publish (h, FALSE);
      break;
    case SL_BT_EVENT_IGNORED:
      h->ignored_delta++;
      break;
    case SL_BT_EVENT_OTHER:
    default:
      break;
    }
}

typedef enum
{
  FILL_OK,
  FILL_END,
  FILL_AGAIN,
  FILL_ERROR,
} FillStatus;

/* Makes the input's next event message its head, handling the messages
 * before it. */
static FillStatus
input_fill_head (Host  *h,
                 Input *in)
{
  while (!in->has_head)
    {
      const bt_message *msg;

      if (in->ended)
        return FILL_END;

      if (in->pos == in->count)
        {
          bt_message_iterator_next_status st;

          in->pos = in->count = 0;
          st = BT_LEAKY (bt_message_iterator_next (in->it, &in->msgs, &in->count));
          switch (st)
            {
            case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
              break;
            case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
              in->ended = TRUE;
              in->count = 0;
              return FILL_END;
            case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
              in->count = 0;
              return FILL_AGAIN;
            default:
              in->count = 0;
              return FILL_ERROR;
            }
          continue;
        }

      msg = in->msgs[in->pos];
      if (bt_message_get_type (msg) == BT_MESSAGE_TYPE_EVENT)
        {
          gint64 ns = h->last_time;

          if (!sl_bt_decoder_event_time (h->decoder, &in->st, msg, &ns))
            return FILL_ERROR;
          in->head_time = ns;
          in->has_head = TRUE;
          return FILL_OK;
        }

      in->pos++;
      if (!sl_bt_decoder_other (h->decoder, &in->st, msg))
        {
          bt_message_put_ref (msg);
          return FILL_ERROR;
        }
      bt_message_put_ref (msg);
    }
  return FILL_OK;
}

static inline void
input_consume_head (Host  *h,
                    Input *in)
{
  const bt_message *msg = in->msgs[in->pos++];

  in->has_head = FALSE;
  handle_event (h, in, msg);
  bt_message_put_ref (msg);
}

static bt_component_class_sink_consume_method_status
consume_decode_only (Host *h)
{
  for (guint i = 0; i < h->n_inputs; i++)
    {
      Input *in = &h->inputs[i];
      bt_message_iterator_next_status st;

      if (in->ended)
        continue;
      st = BT_LEAKY (bt_message_iterator_next (in->it, &in->msgs, &in->count));
      if (st == BT_MESSAGE_ITERATOR_NEXT_STATUS_END)
        {
          in->ended = TRUE;
          in->count = 0;
          continue;
        }
      if (st != BT_MESSAGE_ITERATOR_NEXT_STATUS_OK)
        {
          in->count = 0;
          return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
        }
      for (guint64 k = 0; k < in->count; k++)
        {
          if (bt_message_get_type (in->msgs[k]) == BT_MESSAGE_TYPE_EVENT)
            h->events_done_local++;
          bt_message_put_ref (in->msgs[k]);
        }
      in->count = 0;
      atomic_store_explicit (&h->events_done, h->events_done_local, memory_order_relaxed);
      return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
    }
  host_publish (h, FALSE);
  return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
}

static bt_component_class_sink_consume_method_status
sink_consume (bt_self_component_sink *self)
{
  Host *h = bt_self_component_get_data (bt_self_component_sink_as_self_component (self));
  guint budget = CONSUME_EVENTS;

  if (G_UNLIKELY (decode_only))
    return consume_decode_only (h);

  while (budget > 0)
    {
      Input *best = NULL;
      gint64 limit = G_MAXINT64;

      for (guint i = 0; i < h->n_inputs; i++)
        {
          Input *in = &h->inputs[i];

          switch (input_fill_head (h, in))
            {
            case FILL_OK:
              break;
            case FILL_END:
              continue;
            case FILL_AGAIN:
              host_publish (h, FALSE);
              return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_AGAIN;
            case FILL_ERROR:
            default:
              h->error_input = in;
              return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
            }

          if (best == NULL || in->head_time < best->head_time)
            {
              if (best != NULL)
                limit = MIN (limit, best->head_time);
              best = in;
            }
          else
            limit = MIN (limit, in->head_time);
        }

      if (best == NULL)
        {
          host_publish (h, FALSE);
          return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
        }

      /* A run from one stream up to the next stream's head: the merge is
       * tolerant, a stream whose time goes back is not an error. */
      do
        {
          input_consume_head (h, best);
          budget--;
          if (input_fill_head (h, best) == FILL_ERROR)
            {
              h->error_input = best;
              return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
            }
        }
      while (budget > 0 && best->has_head && best->head_time <= limit);
    }

  atomic_store_explicit (&h->events_done, h->events_done_local, memory_order_relaxed);
  atomic_store_explicit (&h->position, h->last_time, memory_order_relaxed);
  host_publish (h, FALSE);
  return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
}

static bt_component_class_initialize_method_status
sink_initialize (bt_self_component_sink               *self,
                 bt_self_component_sink_configuration *config,
                 const bt_value                       *params,
                 void                                 *data)
{
  Host *h = data;

  bt_self_component_set_data (bt_self_component_sink_as_self_component (self), h);
  for (guint i = 0; i < h->n_inputs; i++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "in%u", i);
      if (bt_self_component_sink_add_input_port (self, name, &h->inputs[i], NULL) != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
        return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
    }
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static bt_component_class_sink_graph_is_configured_method_status
sink_graph_is_configured (bt_self_component_sink *self)
{
  Host *h = bt_self_component_get_data (bt_self_component_sink_as_self_component (self));

  for (guint i = 0; i < h->n_inputs; i++)
    {
      bt_self_component_port_input *port = bt_self_component_sink_borrow_input_port_by_index (self, i);
      bt_message_iterator_create_from_sink_component_status st;

      st = bt_message_iterator_create_from_sink_component (self, port, &h->inputs[i].it);
      if (st != BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK)
        return st == BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_MEMORY_ERROR
                 ? BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_MEMORY_ERROR
                 : BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
    }
  return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

static void
inputs_release (Host *h)
{
  for (guint i = 0; i < h->n_inputs; i++)
    {
      Input *in = &h->inputs[i];

      for (guint64 k = in->pos; k < in->count; k++)
        bt_message_put_ref (in->msgs[k]);
      in->pos = in->count = 0;
      in->has_head = FALSE;
      bt_message_iterator_put_ref (in->it);
      in->it = NULL;
    }
}

static void
inputs_free (Host *h)
{
  for (guint i = 0; i < h->n_inputs; i++)
    g_free (h->inputs[i].st.file);
  g_clear_pointer (&h->inputs, g_free);
  h->n_inputs = 0;
}

static void
sink_finalize (bt_self_component_sink *self)
{
  Host *h = bt_self_component_get_data (bt_self_component_sink_as_self_component (self));

  if (h != NULL)
    inputs_release (h);
}

/* ---------------------------------------------------------------------- */
/* Metadata checks and trace discovery                                     */

static guint32
read_u32 (const guint8 *p,
          gboolean      swap)
{
  guint32 v;

  memcpy (&v, p, 4);
  return swap ? GUINT32_SWAP_LE_BE (v) : v;
}

/* babeltrace2 2.0.4 reads a packetized metadata file with a loop that
 * never ends when a packet's content runs past the end of the file; it
 * must not see such a file. Returns FALSE with a message on any problem
 * babeltrace would stumble on. */
static gboolean
check_metadata_file (const char  *path,
                     char       **text_hint,
                     char       **why)
{
  g_autofree guint8 *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize len, off = 0;
  guint32 magic;
  gboolean swap;

  *text_hint = NULL;
  if (!g_file_get_contents (path, (char **) &data, &len, &error))
    {
      *why = g_strdup_printf ("cannot read the metadata: %s", error->message);
      return FALSE;
    }
  if (len == 0)
    {
      *why = g_strdup ("the metadata file is empty");
      return FALSE;
    }
  if (len < 4)
    {
      *why = g_strdup ("the metadata file is too short");
      return FALSE;
    }

  magic = read_u32 (data, FALSE);
  if (magic != METADATA_MAGIC && GUINT32_SWAP_LE_BE (magic) != METADATA_MAGIC)
    {
      /* plain-text metadata */
      if (!g_str_has_prefix ((const char *) data, "/* CTF"))
        {
          *why = g_strdup ("not CTF metadata (no packet magic, no “/* CTF” text header)");
          return FALSE;
        }
      *text_hint = g_strndup ((const char *) data, MIN (len, 65536));
      return TRUE;
    }

  swap = magic != METADATA_MAGIC;
  while (len - off >= 37)
    {
      const guint8 *p = data + off;
      guint32 content = read_u32 (p + 24, swap), packet = read_u32 (p + 28, swap);

      if (read_u32 (p, swap) != METADATA_MAGIC)
        {
          *why = g_strdup_printf ("corrupt metadata: bad packet magic at offset %" G_GSIZE_FORMAT, off);
          return FALSE;
        }
      if (content / 8 < 37 || content % 8 != 0)
        {
          *why = g_strdup_printf ("corrupt metadata: bad packet content size at offset %" G_GSIZE_FORMAT, off);
          return FALSE;
        }
      if (p[32] != 0 || p[33] != 0 || p[34] != 0)
        {
          *why = g_strdup_printf ("corrupt metadata: compressed, encrypted or checksummed packet at offset %"
                                  G_GSIZE_FORMAT, off);
          return FALSE;
        }
      if (content / 8 > len - off)
        {
          *why = g_strdup_printf ("truncated metadata: packet at offset %" G_GSIZE_FORMAT
                                  " needs %u bytes, the file has %" G_GSIZE_FORMAT,
                                  off, content / 8, len - off);
          return FALSE;
        }
      if (packet < content)
        {
          *why = g_strdup_printf ("corrupt metadata: packet size below content size at offset %" G_GSIZE_FORMAT, off);
          return FALSE;
        }
      if (*text_hint == NULL)
        *text_hint = g_strndup ((const char *) p + 37, content / 8 - 37);
      if (packet / 8 > len - off)
        break;
      off += packet / 8;
      if (packet / 8 == 0)
        break;
    }
  return TRUE;
}

static char *
match_in (const char *text,
          const char *pattern)
{
  g_autoptr(GRegex) re = g_regex_new (pattern, G_REGEX_DOTALL | G_REGEX_RAW, 0, NULL);
  g_autoptr(GMatchInfo) mi = NULL;

  if (text == NULL || re == NULL)
    return NULL;
  if (!g_regex_match (re, text, 0, &mi))
    return NULL;
  return g_match_info_fetch (mi, 1);
}

static char *
metadata_hostname (const char *text)
{
  return match_in (text, "env\\s*\\{[^}]*?hostname\\s*=\\s*\"([^\"\\n]*)\"");
}

static char *
guess_host (const char *text,
            const char *dir)
{
  char *name = metadata_hostname (text);

  if (name != NULL && *name != '\0' && g_utf8_validate (name, -1, NULL))
    return name;
  g_free (name);
  return g_strdup_printf ("unknown (%s)", dir);
}

static guint64
stream_bytes (const char *dir,
              guint      *n_streams)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint64 total = 0;

  *n_streams = 0;
  if (d == NULL)
    return 0;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      GStatBuf st;

      if (name[0] == '.' || g_str_equal (name, "metadata"))
        continue;
      path = g_build_filename (dir, name, NULL);
      if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
        {
          total += (guint64) st.st_size;
          (*n_streams)++;
        }
    }
  return total;
}

static gboolean
looks_like_stream (const char *path)
{
  guint8 buf[4];
  FILE *f = g_fopen (path, "rb");
  gboolean yes = FALSE;

  if (f == NULL)
    return FALSE;
  if (fread (buf, 1, 4, f) == 4)
    {
      guint32 m = read_u32 (buf, FALSE);
      yes = m == STREAM_MAGIC || GUINT32_SWAP_LE_BE (m) == STREAM_MAGIC;
    }
  fclose (f);
  return yes;
}

typedef struct
{
  SlTraceReader *reader;
  GHashTable    *visited;
  GPtrArray     *traces;
  guint          n_folders;
  gboolean       gave_up;
} Scan;

static void
scan_trace (Scan       *scan,
            const char *dir)
{
  SlTraceReader *self = scan->reader;
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autofree char *hint = NULL;
  g_autofree char *why = NULL;
  g_autofree char *text = NULL;
  bt_query_executor *q;
  bt_value *params;
  const bt_value *result = NULL;
  bt_query_executor_query_status qs = BT_QUERY_EXECUTOR_QUERY_STATUS_ERROR;
  TraceDir *t;
  guint n_streams;

  if (!check_metadata_file (metadata, &hint, &why))
    {
      g_autofree char *host = guess_host (hint, dir);
      add_problem (self, host, metadata, "%s; trace skipped", why);
      return;
    }

  g_mutex_lock (&sl_bt_lock);
  params = bt_value_map_create ();
  if (params != NULL && bt_value_map_insert_string_entry (params, "path", dir) == BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK)
    {
      q = bt_query_executor_create (bt_component_class_source_as_component_class_const (ctf_fs_class),
                                    "metadata-info", params);
      if (q != NULL)
        {
          bt_query_executor_set_logging_level (q, BT_LOGGING_LEVEL_NONE);
          qs = BT_LEAKY (bt_query_executor_query (q, &result));
          bt_query_executor_put_ref (q);
        }
    }
  bt_value_put_ref (params);

  if (qs == BT_QUERY_EXECUTOR_QUERY_STATUS_OK && result != NULL &&
      bt_value_is_map (result) && bt_value_map_has_entry (result, "text"))
    {
      const bt_value *tv = bt_value_map_borrow_entry_value_const (result, "text");

      if (bt_value_is_string (tv))
        text = g_strdup (bt_value_string_get (tv));
    }
  else
    why = sl_bt_take_error ();
  bt_current_thread_clear_error ();
  bt_value_put_ref (result);
  g_mutex_unlock (&sl_bt_lock);

  if (text == NULL)
    {
      g_autofree char *host = guess_host (hint, dir);
      /* babeltrace2 keeps the parser's diagnostics in its log, not in
       * the error causes: its cause here says nothing more */
      if (why == NULL || *why == '\0' || strstr (why, "Cannot update metadata decoder") != NULL)
        g_free (why), why = g_strdup ("babeltrace2 cannot parse its TSDL text");
      add_problem (self, host, metadata, "corrupt metadata: %s; trace skipped", why);
      return;
    }

  t = g_new0 (TraceDir, 1);
  t->path = g_strdup (dir);
  t->metadata = g_strdup (metadata);
  t->hostname = metadata_hostname (text);
  if (t->hostname != NULL && (*t->hostname == '\0' || !g_utf8_validate (t->hostname, -1, NULL)))
    g_clear_pointer (&t->hostname, g_free);
  t->clock_uuid = match_in (text, "clock\\s*\\{[^}]*?uuid\\s*=\\s*\"([^\"]*)\"");
  t->domain = match_in (text, "env\\s*\\{[^}]*?domain\\s*=\\s*\"([^\"]*)\"");
  t->bytes = stream_bytes (dir, &n_streams);

  if (t->hostname == NULL)
    {
      t->hostname = g_strdup_printf ("unknown (%s)", dir);
      add_problem (self, t->hostname, metadata, "the trace environment has no hostname; "
                   "the trace is a host of its own");
    }
  if (n_streams == 0)
    {
      add_problem (self, t->hostname, dir, "no stream files beside the metadata; trace skipped");
      g_free (t->path);
      g_free (t->metadata);
      g_free (t->hostname);
      g_free (t->clock_uuid);
      g_free (t->domain);
      g_free (t);
      return;
    }
  g_ptr_array_add (scan->traces, t);
}

static void
scan_folder (Scan       *scan,
             const char *dir,
             guint       depth)
{
  SlTraceReader *self = scan->reader;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) subdirs = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *metadata = NULL;
  g_autofree char *key = NULL;
  const char *name;
  gboolean streams = FALSE;
  GStatBuf st;

  if (atomic_load (&self->cancelled) || scan->gave_up)
    return;
  if (g_stat (dir, &st) != 0)
    {
      int e = errno;
      add_problem (self, NULL, dir, "cannot read the folder: %s", g_strerror (e));
      return;
    }
  key = g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, (guint64) st.st_dev, (guint64) st.st_ino);
  if (g_hash_table_contains (scan->visited, key))
    return;
  g_hash_table_add (scan->visited, g_steal_pointer (&key));
  if (++scan->n_folders > MAX_SCAN_FOLDERS)
    {
      scan->gave_up = TRUE;
      add_problem (self, NULL, dir, "stopped searching for traces after %u folders", MAX_SCAN_FOLDERS);
      return;
    }

  metadata = g_build_filename (dir, "metadata", NULL);
  if (g_file_test (metadata, G_FILE_TEST_IS_REGULAR))
    {
      scan_trace (scan, dir);
      return;
    }

  d = g_dir_open (dir, 0, &error);
  if (d == NULL)
    {
      add_problem (self, NULL, dir, "cannot read the folder: %s", error->message);
      return;
    }

  while ((name = g_dir_read_name (d)) != NULL)
    {
      char *path;

      if (name[0] == '.')
        continue;
      path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        g_ptr_array_add (subdirs, path);
      else if (g_file_test (path, G_FILE_TEST_IS_SYMLINK) && !g_file_test (path, G_FILE_TEST_EXISTS))
        {
          add_problem (self, NULL, path, "cannot read the folder or file: the link leads nowhere");
          g_free (path);
        }
      else
        {
          if (!streams && g_file_test (path, G_FILE_TEST_IS_REGULAR) && looks_like_stream (path))
            streams = TRUE;
          g_free (path);
        }
    }

  if (streams)
    add_problem (self, NULL, metadata, "missing: the folder holds CTF stream files but no metadata file; "
                 "its streams are skipped");

  if (depth >= MAX_SCAN_DEPTH)
    return;
  g_ptr_array_sort (subdirs, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < subdirs->len; i++)
    {
      /* an unreadable subfolder is reported there, by g_dir_open */
      scan_folder (scan, g_ptr_array_index (subdirs, i), depth + 1);
    }
}

static int
cmp_trace_dir (gconstpointer a,
               gconstpointer b)
{
  const TraceDir *x = *(TraceDir *const *) a, *y = *(TraceDir *const *) b;
  return g_strcmp0 (x->path, y->path);
}

static void
trace_dir_free (gpointer p)
{
  TraceDir *t = p;

  g_free (t->path);
  g_free (t->metadata);
  g_free (t->hostname);
  g_free (t->clock_uuid);
  g_free (t->domain);
  g_free (t);
}

static Host *
host_new (SlTraceReader *self,
          const char    *hostname,
          const char    *uuid)
{
  Host *h = g_new0 (Host, 1);

  h->reader = self;
  h->hostname = g_strdup (hostname);
  h->clock_uuid = g_strdup (uuid);
  h->traces = g_ptr_array_new_with_free_func (trace_dir_free);
  h->trace_paths = g_ptr_array_new_with_free_func (g_free);
  h->decoder = sl_bt_decoder_new ();
  h->last_time = G_MININT64;
  h->watermark = G_MININT64;
  h->engine_host = SL_HOST_NONE;
  atomic_init (&h->wanted, 0);
  atomic_init (&h->position, G_MININT64);
  atomic_init (&h->range_begin, G_MAXINT64);
  atomic_init (&h->range_end, G_MININT64);
  g_queue_init (&h->queue);
  g_queue_init (&h->pending);
  return h;
}

static void
host_free (Host *h)
{
  Batch *b;

  g_free (h->name);
  g_free (h->hostname);
  g_free (h->clock_uuid);
  g_ptr_array_unref (h->traces);
  g_ptr_array_unref (h->trace_paths);
  sl_bt_decoder_free (h->decoder);
  inputs_free (h);
  batch_free (h->fill);
  batch_free (h->cur);
  while ((b = g_queue_pop_head (&h->queue)) != NULL)
    batch_free (b);
  while ((b = g_queue_pop_head (&h->pending)) != NULL)
    batch_free (b);
  sl_event_store_free (h->store);
  g_free (h);
}

static int
cmp_host (gconstpointer a,
          gconstpointer b)
{
  const Host *x = *(Host *const *) a, *y = *(Host *const *) b;
  return g_strcmp0 (x->name, y->name);
}

/* Hosts are hostname + clock UUID (the boot): kernel and UST traces of one
 * boot are one host; same-named machines and reboots are told apart by the
 * UUID, which then joins the name. */
static GPtrArray *
group_hosts (SlTraceReader *self,
             GPtrArray     *traces)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) name_count = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *hosts = g_ptr_array_new ();

  g_ptr_array_sort (traces, cmp_trace_dir);
  for (guint i = 0; i < traces->len; i++)
    {
      TraceDir *t = g_ptr_array_index (traces, i);
      g_autofree char *key = g_strdup_printf ("%s\x1f%s", t->hostname, t->clock_uuid ? t->clock_uuid : "");
      Host *h = g_hash_table_lookup (by_key, key);

      if (h == NULL)
        {
          h = host_new (self, t->hostname, t->clock_uuid);
          g_hash_table_insert (by_key, g_steal_pointer (&key), h);
          g_ptr_array_add (hosts, h);
          g_hash_table_insert (name_count, h->hostname,
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (name_count, h->hostname)) + 1));
        }
      h->total_bytes += t->bytes;
      g_ptr_array_add (h->trace_paths, g_strdup (t->path));
      g_ptr_array_add (h->traces, t);
      traces->pdata[i] = NULL;
    }

  for (guint i = 0; i < hosts->len; i++)
    {
      Host *h = g_ptr_array_index (hosts, i);

      g_autofree char *clean = sl_trace_sanitize (h->hostname);

      if (GPOINTER_TO_UINT (g_hash_table_lookup (name_count, h->hostname)) > 1)
        h->name = g_strdup_printf ("%s/%.8s", clean, h->clock_uuid ? h->clock_uuid : "no-uuid");
      else
        h->name = g_steal_pointer (&clean);
    }
  g_ptr_array_sort (hosts, cmp_host);
  for (guint i = 0; i < hosts->len; i++)
    ((Host *) g_ptr_array_index (hosts, i))->index = i;
  return hosts;
}

static gpointer
scan_thread (gpointer data)
{
  SlTraceReader *self = data;
  Scan scan = { 0 };
  GPtrArray *hosts = NULL;

  scan.reader = self;
  scan.visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  scan.traces = g_ptr_array_new ();

  if (!bt_ready ())
    add_problem (self, NULL, "babeltrace2", "%s", bt_init_error);
  else
    for (guint i = 0; i < self->folders->len; i++)
      {
        const char *folder = g_ptr_array_index (self->folders, i);
        guint before = scan.traces->len;
        guint problems_before;

        g_mutex_lock (&self->lock);
        problems_before = self->problems->len;
        g_mutex_unlock (&self->lock);

        scan_folder (&scan, folder, 0);

        g_mutex_lock (&self->lock);
        problems_before = self->problems->len - problems_before;
        g_mutex_unlock (&self->lock);
        if (scan.traces->len == before && problems_before == 0)
          add_problem (self, NULL, folder, "no LTTng trace found (no folder with a metadata file below it)");
      }

  hosts = group_hosts (self, scan.traces);
  g_ptr_array_unref (scan.traces);
  g_hash_table_destroy (scan.visited);

  g_mutex_lock (&self->lock);
  self->scanned = hosts;
  self->scan_done = TRUE;
  g_mutex_unlock (&self->lock);
  signal_consumer (self);
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Host graphs                                                             */

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

static void
host_destroy_graph (Host *h)
{
  if (h->graph == NULL)
    return;
  g_mutex_lock (&sl_bt_lock);
  bt_graph_put_ref (h->graph);
  h->graph = NULL;
  bt_current_thread_clear_error ();
  g_mutex_unlock (&sl_bt_lock);
  inputs_release (h);
}

/* The time range of a trace's streams, for progress (sl_bt_lock held). */
static void
query_range (Host       *h,
             const char *path)
{
  bt_value *params = bt_value_map_create (), *inputs = NULL;
  const bt_value *result = NULL;
  bt_query_executor *q = NULL;

  if (params != NULL &&
      bt_value_map_insert_empty_array_entry (params, "inputs", &inputs) == BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK &&
      bt_value_array_append_string_element (inputs, path) == BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK)
    q = bt_query_executor_create (bt_component_class_source_as_component_class_const (ctf_fs_class),
                                  "babeltrace.trace-infos", params);
  if (q != NULL)
    {
      bt_query_executor_set_logging_level (q, BT_LOGGING_LEVEL_NONE);
      if (BT_LEAKY (bt_query_executor_query (q, &result)) == BT_QUERY_EXECUTOR_QUERY_STATUS_OK &&
          result != NULL && bt_value_is_array (result))
        for (guint64 i = 0; i < bt_value_array_get_length (result); i++)
          {
            const bt_value *ti = bt_value_array_borrow_element_by_index_const (result, i);
            const bt_value *sis;

            if (!bt_value_is_map (ti) || !bt_value_map_has_entry (ti, "stream-infos"))
              continue;
            sis = bt_value_map_borrow_entry_value_const (ti, "stream-infos");
            if (!bt_value_is_array (sis))
              continue;
            for (guint64 k = 0; k < bt_value_array_get_length (sis); k++)
              {
                const bt_value *si = bt_value_array_borrow_element_by_index_const (sis, k);
                const bt_value *r, *b, *e;

                if (!bt_value_is_map (si) || !bt_value_map_has_entry (si, "range-ns"))
                  continue;
                r = bt_value_map_borrow_entry_value_const (si, "range-ns");
                if (!bt_value_is_map (r) || !bt_value_map_has_entry (r, "begin") || !bt_value_map_has_entry (r, "end"))
                  continue;
                b = bt_value_map_borrow_entry_value_const (r, "begin");
                e = bt_value_map_borrow_entry_value_const (r, "end");
                if (!bt_value_is_signed_integer (b) || !bt_value_is_signed_integer (e))
                  continue;
                if (bt_value_integer_signed_get (b) < atomic_load (&h->range_begin))
                  atomic_store (&h->range_begin, bt_value_integer_signed_get (b));
                if (bt_value_integer_signed_get (e) > atomic_load (&h->range_end))
                  atomic_store (&h->range_end, bt_value_integer_signed_get (e));
              }
          }
    }
  bt_current_thread_clear_error ();
  bt_value_put_ref (result);
  bt_query_executor_put_ref (q);
  bt_value_put_ref (params);
}

/* Builds the graph with the traces not marked failed; a trace that fails
 * to initialize is marked, reported and the graph rebuilt without it
 * (a graph is not reused after a failure). */
static gboolean
host_build_graph (Host *h)
{
  SlTraceReader *self = h->reader;

  for (;;)
    {
      g_autoptr(GPtrArray) sources = g_ptr_array_new ();
      const bt_component_sink *sink = NULL;
      guint n_ports = 0, port;
      gboolean retry = FALSE;
      bt_graph *graph;

      g_mutex_lock (&sl_bt_lock);
      graph = bt_graph_create (0);
      if (graph == NULL)
        {
          bt_current_thread_clear_error ();
          g_mutex_unlock (&sl_bt_lock);
          add_problem (self, h->name, g_ptr_array_index (h->trace_paths, 0), "out of memory");
          return FALSE;
        }

      for (guint i = 0; i < h->traces->len && !retry; i++)
        {
          TraceDir *t = g_ptr_array_index (h->traces, i);
          const bt_component_source *src = NULL;
          bt_value *params = NULL, *inputs = NULL;
          char name[32];

          if (t->failed)
            continue;
          g_snprintf (name, sizeof name, "src%u", i);
          params = bt_value_map_create ();
          if (params == NULL ||
              bt_value_map_insert_empty_array_entry (params, "inputs", &inputs) != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
              bt_value_array_append_string_element (inputs, t->path) != BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK ||
              BT_LEAKY (bt_graph_add_source_component (graph, ctf_fs_class, name, params,
                                                       BT_LOGGING_LEVEL_NONE, &src)) !=
                BT_GRAPH_ADD_COMPONENT_STATUS_OK)
            {
              g_autofree char *why = sl_bt_take_error ();
              g_autofree char *file = file_in_message (why, t->path);

              bt_value_put_ref (params);
              t->failed = TRUE;
              retry = TRUE;
              g_mutex_unlock (&sl_bt_lock);
              add_problem (self, h->name, file, "cannot open the trace: %s; trace skipped",
                           why != NULL && *why ? why : "babeltrace2 refused it");
              g_mutex_lock (&sl_bt_lock);
              break;
            }
          bt_value_put_ref (params);
          g_ptr_array_add (sources, (gpointer) src);
          query_range (h, t->path);
          n_ports += (guint) bt_component_source_get_output_port_count (src);
        }

      if (retry)
        {
          bt_graph_put_ref (graph);
          bt_current_thread_clear_error ();
          g_mutex_unlock (&sl_bt_lock);
          continue;
        }

      if (n_ports == 0)
        {
          bt_graph_put_ref (graph);
          g_mutex_unlock (&sl_bt_lock);
          if (sources->len > 0)
            add_problem (self, h->name, g_ptr_array_index (h->trace_paths, 0), "no stream to read");
          return FALSE;
        }

      inputs_free (h);
      h->inputs = g_new0 (Input, n_ports);
      h->n_inputs = n_ports;
      for (guint i = 0; i < n_ports; i++)
        h->inputs[i].host = h;

      if (bt_graph_add_sink_component_with_initialize_method_data (graph, sink_class, "sink", NULL, h,
                                                                   BT_LOGGING_LEVEL_NONE, &sink) !=
          BT_GRAPH_ADD_COMPONENT_STATUS_OK)
        {
          g_autofree char *why = sl_bt_take_error ();

          bt_graph_put_ref (graph);
          g_mutex_unlock (&sl_bt_lock);
          add_problem (self, h->name, g_ptr_array_index (h->trace_paths, 0), "cannot build the reader: %s", why);
          return FALSE;
        }

      port = 0;
      for (guint s = 0; s < sources->len; s++)
        {
          const bt_component_source *src = g_ptr_array_index (sources, s);

          for (guint64 p = 0; p < bt_component_source_get_output_port_count (src); p++, port++)
            {
              const bt_port_output *out = bt_component_source_borrow_output_port_by_index_const (src, p);
              const char *pname = bt_port_get_name (bt_port_output_as_port_const (out));
              const char *bar = pname != NULL ? strrchr (pname, '|') : NULL;

              /* src.ctf.fs names its ports "UUID | STREAM ID | PATH" */
              h->inputs[port].st.file = g_strstrip (g_strdup (bar != NULL ? bar + 1 : pname != NULL ? pname : ""));
              if (strchr (h->inputs[port].st.file, '/') == NULL)
                g_clear_pointer (&h->inputs[port].st.file, g_free);
              if (bt_graph_connect_ports (graph, out, bt_component_sink_borrow_input_port_by_index_const (sink, port), NULL) !=
                  BT_GRAPH_CONNECT_PORTS_STATUS_OK)
                {
                  g_autofree char *why = sl_bt_take_error ();

                  bt_graph_put_ref (graph);
                  g_mutex_unlock (&sl_bt_lock);
                  add_problem (self, h->name, g_ptr_array_index (h->trace_paths, 0), "cannot build the reader: %s", why);
                  return FALSE;
                }
            }
        }

      h->graph = graph;
      g_mutex_unlock (&sl_bt_lock);
      return TRUE;
    }
}

static void
host_finish (Host *h)
{
  atomic_store_explicit (&h->events_done, h->events_done_local, memory_order_relaxed);
  host_destroy_graph (h);
  host_publish (h, TRUE);
}

static void
host_task (gpointer data,
           gpointer user_data)
{
  Host *h = data;
  SlTraceReader *self = h->reader;
  gint64 slice_end = g_get_monotonic_time () + SLICE_US;

  if (h->graph == NULL)
    {
      if (atomic_load (&self->cancelled) || !host_build_graph (h))
        {
          h->decode_failed = h->graph == NULL && !atomic_load (&self->cancelled);
          host_finish (h);
          return;
        }
    }

  for (;;)
    {
      bt_graph_run_once_status st;
      gboolean full;

      if (atomic_load (&self->cancelled))
        {
          host_finish (h);
          return;
        }

      st = bt_graph_run_once (h->graph);
      if (st == BT_GRAPH_RUN_ONCE_STATUS_END)
        {
          host_finish (h);
          return;
        }
      if (st == BT_GRAPH_RUN_ONCE_STATUS_AGAIN)
        g_usleep (1000);
      else if (st != BT_GRAPH_RUN_ONCE_STATUS_OK)
        {
          g_autofree char *why = sl_bt_take_error ();
          g_autofree char *file = NULL;

          /* babeltrace names the file in some messages; otherwise the
           * stream that failed is the one our sink was reading */
          for (guint i = 0; i < h->trace_paths->len && file == NULL; i++)
            if (why != NULL && strstr (why, g_ptr_array_index (h->trace_paths, i)) != NULL)
              file = file_in_message (why, g_ptr_array_index (h->trace_paths, i));
          if (file == NULL && h->error_input != NULL && h->error_input->st.file != NULL && *h->error_input->st.file)
            file = g_strdup (h->error_input->st.file);
          if (file == NULL)
            file = g_strdup (g_ptr_array_index (h->trace_paths, 0));
          h->stopped = TRUE;
          add_problem (self, h->name, file,
                       "decoding stopped after %" G_GUINT64_FORMAT " events (truncated or corrupt stream?): %s",
                       h->events_done_local, why != NULL && *why ? why : "babeltrace2 failed");
          host_finish (h);
          return;
        }

      /* Pool calls under the lock and only when not cancelled: the pool
       * is freed after the cancel flag is set and the lock taken. */
      g_mutex_lock (&self->lock);
      full = h->queue.length >= QUEUE_MAX;
      if (atomic_load (&self->cancelled))
        full = FALSE;
      else if (full)
        h->parked = TRUE;
      else if (g_get_monotonic_time () > slice_end && g_thread_pool_unprocessed (self->pool) > 0)
        {
          /* let the other hosts' tasks run too */
          g_thread_pool_push (self->pool, h, NULL);
          full = TRUE;
        }
      g_mutex_unlock (&self->lock);
      if (full)
        return;
    }
}

/* ---------------------------------------------------------------------- */
/* Consumer: calibration and merge                                         */

/* Called with the lock held: takes the next batch of @h, requeues a
 * parked host. */
static Batch *
pop_batch_locked (SlTraceReader *self,
                  Host          *h)
{
  Batch *b = g_queue_pop_head (&h->queue);

  if (b != NULL && h->parked && h->queue.length < QUEUE_MAX && !atomic_load (&self->cancelled))
    {
      h->parked = FALSE;
      g_thread_pool_push (self->pool, h, NULL);
    }
  return b;
}

static void
account_batch (SlTraceReader *self,
               Host          *h,
               Batch         *b)
{
  if (b->events > 0 || b->ignored > 0)
    sl_engine_add_host_counts (self->engine, h->engine_host, b->events, b->ignored);
  b->events = b->ignored = 0;
  if (b->last)
    h->got_last = TRUE;
}

static gboolean
calibration_enough (SlTraceReader *self,
                    Host          *h)
{
  return h->got_last ||
         h->cal_packets >= self->options.calibration_packets ||
         (h->cal_packets > 0 && h->cal_last - h->cal_first >= CAL_SPAN_NS);
}

typedef struct
{
  guint8  family;
  guint16 sport;
  guint16 dport;
  guint32 seq;
  guint32 ack_seq;
  guint16 flags;
  guint8  saddr[16];
  guint8  daddr[16];
} CalKey;

static guint
cal_key_hash (gconstpointer p)
{
  const CalKey *k = p;
  guint h = k->seq * 2654435761u ^ k->ack_seq * 40503u ^ k->flags ^ ((guint) k->sport << 16 | k->dport) ^ k->family;

  for (guint i = 0; i < 16; i += 4)
    h = h * 31 + read_u32 (k->saddr + i, FALSE) + read_u32 (k->daddr + i, FALSE) * 7;
  return h;
}

static gboolean
cal_key_equal (gconstpointer a,
               gconstpointer b)
{
  return memcmp (a, b, sizeof (CalKey)) == 0;
}

static void
cal_key_init (CalKey              *k,
              const SlPacketEvent *e)
{
  memset (k, 0, sizeof *k);
  k->family = e->family;
  k->sport = e->sport;
  k->dport = e->dport;
  k->seq = e->seq;
  k->ack_seq = e->ack_seq;
  k->flags = e->flags;
  memcpy (k->saddr, e->saddr, 16);
  memcpy (k->daddr, e->daddr, 16);
}

static void
array_unref0 (gpointer a)
{
  if (a != NULL)
    g_array_unref (a);
}

static int
cmp_gint64 (gconstpointer a,
            gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

static gint64
median (GArray *a)
{
  g_array_sort (a, cmp_gint64);
  return g_array_index (a, gint64, a->len / 2);
}

/* Offset hints from the calibration packets (see the top of the file). */
static void
compute_hints (SlTraceReader *self)
{
  guint n = self->hosts->len;
  g_autoptr(GHashTable) sends = g_hash_table_new_full (cal_key_hash, cal_key_equal, g_free, g_free);
  g_autoptr(GPtrArray) diffs = g_ptr_array_new_with_free_func (array_unref0);
  g_autofree gboolean *reached = g_new0 (gboolean, n);

  if (n < 2)
    return;

  /* diffs[a * n + b]: recv_b - send_a */
  g_ptr_array_set_size (diffs, n * n);

  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        Host *h = g_ptr_array_index (self->hosts, i);

        for (GList *l = h->pending.head; l != NULL; l = l->next)
          {
            Batch *b = l->data;

            for (guint k = 0; k < b->n; k++)
              {
                const SlPacketEvent *e = &b->ev[k];
                CalKey key;

                if ((pass == 0) != (e->dir == SL_PACKET_SEND))
                  continue;
                cal_key_init (&key, e);
                if (pass == 0)
                  {
                    if (!g_hash_table_contains (sends, &key))
                      {
                        gint64 *v = g_new (gint64, 2);

                        v[0] = i;
                        v[1] = e->time;
                        g_hash_table_insert (sends, g_memdup2 (&key, sizeof key), v);
                      }
                  }
                else
                  {
                    gint64 *v = g_hash_table_lookup (sends, &key);
                    GArray **slot;
                    gint64 d;

                    if (v == NULL || v[0] == i)
                      continue;
                    slot = (GArray **) &g_ptr_array_index (diffs, (guint) v[0] * n + i);
                    if (*slot == NULL)
                      *slot = g_array_new (FALSE, FALSE, sizeof (gint64));
                    d = e->time - v[1];
                    g_array_append_val (*slot, d);
                  }
              }
          }
      }

  /* Prim's algorithm on the number of pairs, from the first host of each
   * component: hint_b = hint_a + offset_ab, offset_ab ~ t_b - t_a. */
  for (guint root = 0; root < n; root++)
    {
      if (reached[root])
        continue;
      reached[root] = TRUE;
      ((Host *) g_ptr_array_index (self->hosts, root))->hint = 0;

      for (;;)
        {
          guint best_a = 0, best_b = 0, best_count = 0;

          for (guint a = 0; a < n; a++)
            for (guint b = 0; b < n; b++)
              {
                GArray *ab = g_ptr_array_index (diffs, a * n + b), *ba = g_ptr_array_index (diffs, b * n + a);
                guint count = (ab ? ab->len : 0) + (ba ? ba->len : 0);

                if (reached[a] && !reached[b] && count > best_count)
                  best_a = a, best_b = b, best_count = count;
              }
          if (best_count == 0)
            break;

          {
            GArray *ab = g_ptr_array_index (diffs, best_a * n + best_b);
            GArray *ba = g_ptr_array_index (diffs, best_b * n + best_a);
            gint64 off;
            Host *ha = g_ptr_array_index (self->hosts, best_a);
            Host *hb = g_ptr_array_index (self->hosts, best_b);

            if (ab != NULL && ab->len > 0 && ba != NULL && ba->len > 0)
              off = median (ab) / 2 - median (ba) / 2;
            else if (ab != NULL && ab->len > 0)
              off = median (ab);
            else
              off = -median (ba);
            hb->hint = ha->hint + off;
            reached[best_b] = TRUE;
          }
        }
    }
}

static void
register_hosts (SlTraceReader *self)
{
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);

      h->engine_host = sl_engine_add_host (self->engine, h->name);
      if (self->options.keep_events)
        {
          h->store = sl_event_store_new ();
          sl_bt_decoder_set_store (h->decoder, h->store);
        }
    }
  for (guint i = 0; i < self->hosts->len; i++)
    g_thread_pool_push (self->pool, g_ptr_array_index (self->hosts, i), NULL);
}

static gboolean
calibrate (SlTraceReader *self)
{
  gboolean all = TRUE;

  g_mutex_lock (&self->lock);
  self->seen_seq = self->signal_seq;
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);
      Batch *b;

      while (!calibration_enough (self, h) && (b = pop_batch_locked (self, h)) != NULL)
        {
          g_queue_push_tail (&h->pending, b);
          if (b->n > 0)
            {
              if (h->cal_packets == 0)
                h->cal_first = b->ev[0].time;
              h->cal_last = b->ev[b->n - 1].time;
            }
          h->cal_packets += b->n;
          if (b->last)
            h->got_last = TRUE;
        }
      if (!calibration_enough (self, h))
        {
          atomic_store (&h->wanted, 1);
          all = FALSE;
        }
    }
  if (!all)
    self->consumer_waiting = TRUE;
  g_mutex_unlock (&self->lock);

  return all;
}

static void
finish_merge (SlTraceReader *self)
{
  g_mutex_lock (&self->lock);
  self->end_time = g_get_monotonic_time ();
  g_mutex_unlock (&self->lock);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);

      if (h->packets == 0 && !h->decode_failed && !h->stopped && !atomic_load (&self->cancelled))
        add_problem (self, h->name, h->trace_paths->len == 1 ? g_ptr_array_index (h->trace_paths, 0) : h->hostname,
                     "no TCP packet events (net_dev_queue/net_if_receive_skb, inet_sock_local_*, "
                     "syncline_net:tcp_*); the host cannot be synchronized");
    }
}

/* Makes h->cur a batch with packets left, from the calibration read-ahead
 * or the queue (lock held). Returns FALSE when none is ready. */
static gboolean
host_refill (SlTraceReader *self,
             Host          *h)
{
  while (h->cur == NULL || h->cur->pos == h->cur->n)
    {
      Batch *b;

      if (h->cur != NULL)
        {
          if (h->cur->last)
            h->done = TRUE;
          batch_recycle_locked (self, h->cur);
          h->cur = NULL;
          if (h->done)
            return FALSE;
        }
      b = g_queue_pop_head (&h->pending);
      if (b == NULL)
        b = pop_batch_locked (self, h);
      if (b == NULL)
        return FALSE;
      account_batch (self, h, b);
      h->cur = b;
    }
  return TRUE;
}

static SlTraceReaderStatus
merge (SlTraceReader *self,
       gint64         deadline)
{
  guint n = self->hosts->len;
  guint emitted = 0;

  for (;;)
    {
      Host *best = NULL;
      gint64 best_t = G_MAXINT64, limit = G_MAXINT64;
      gboolean need_lock = FALSE, all_done = TRUE;

      for (guint i = 0; i < n && !need_lock; i++)
        {
          Host *h = g_ptr_array_index (self->hosts, i);
          need_lock = !h->done && (h->cur == NULL || h->cur->pos == h->cur->n);
        }

      if (need_lock)
        g_mutex_lock (&self->lock);
      if (need_lock)
        self->seen_seq = self->signal_seq;

      for (guint i = 0; i < n; i++)
        {
          Host *h = g_ptr_array_index (self->hosts, i);
          gint64 t;

          if (h->done)
            continue;
          if (!host_refill (self, h))
            {
              if (h->done)
                continue;
              all_done = FALSE;
              atomic_store (&h->wanted, 1);
              /* nothing queued: its next packet is at least at its
               * watermark */
              t = h->watermark == G_MININT64 ? G_MININT64 : h->watermark - h->hint;
              limit = MIN (limit, t);
              continue;
            }
          all_done = FALSE;
          t = h->cur->ev[h->cur->pos].time - h->hint;
          if (t < best_t)
            {
              limit = MIN (limit, best_t);
              best = h;
              best_t = t;
            }
          else
            limit = MIN (limit, t);
        }

      if (best == NULL || best_t > limit)
        {
          if (need_lock)
            {
              if (!all_done)
                self->consumer_waiting = TRUE;
              g_mutex_unlock (&self->lock);
            }
          if (all_done)
            {
              finish_merge (self);
              self->state = STATE_DONE;
              return SL_TRACE_READER_DONE;
            }
          return SL_TRACE_READER_AGAIN;
        }
      if (need_lock)
        g_mutex_unlock (&self->lock);

      do
        {
          SlPacketEvent *e = &best->cur->ev[best->cur->pos++];

          best->packets++;
          sl_engine_add_packet (self->engine, e, e->time - best->hint);
          emitted++;
        }
      while (best->cur->pos < best->cur->n && best->cur->ev[best->cur->pos].time - best->hint <= limit);

      if (emitted >= 4096)
        {
          emitted = 0;
          if (atomic_load (&self->cancelled))
            return SL_TRACE_READER_CANCELLED;
          if (g_get_monotonic_time () >= deadline)
            return SL_TRACE_READER_BUSY;
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Public API                                                              */

void
sl_trace_reader_options_init (SlTraceReaderOptions *options)
{
  g_return_if_fail (options != NULL);

  options->n_threads = 0;
  options->keep_events = FALSE;
  options->calibration_packets = DEFAULT_CAL_PACKETS;
}

SlTraceReader *
sl_trace_reader_new (SlEngine                   *engine,
                     const SlTraceReaderOptions *options)
{
  SlTraceReader *self;

  g_return_val_if_fail (engine != NULL, NULL);

  self = g_new0 (SlTraceReader, 1);
  self->engine = engine;
  if (options != NULL)
    self->options = *options;
  else
    sl_trace_reader_options_init (&self->options);
  if (self->options.n_threads == 0)
    self->options.n_threads = MAX (1, g_get_num_processors ());
  if (self->options.calibration_packets == 0)
    self->options.calibration_packets = DEFAULT_CAL_PACKETS;
  self->folders = g_ptr_array_new_with_free_func (g_free);
  self->hosts = g_ptr_array_new ();
  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);
  self->free_batches = g_ptr_array_new_with_free_func ((GDestroyNotify) batch_free);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  atomic_init (&self->cancelled, 0);
  self->state = STATE_INIT;
  return self;
}

void
sl_trace_reader_free (SlTraceReader *self)
{
  if (self == NULL)
    return;

  sl_trace_reader_cancel (self);
  if (self->scan_thread != NULL)
    g_thread_join (self->scan_thread);
  if (self->pool != NULL)
    g_thread_pool_free (self->pool, TRUE, TRUE);

  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);

      host_destroy_graph (h);
      host_free (h);
    }
  g_ptr_array_unref (self->hosts);
  if (self->scanned != NULL && self->scanned != self->hosts)
    {
      for (guint i = 0; i < self->scanned->len; i++)
        host_free (g_ptr_array_index (self->scanned, i));
      g_ptr_array_unref (self->scanned);
    }
  g_ptr_array_unref (self->folders);
  g_ptr_array_unref (self->problems);
  g_ptr_array_unref (self->free_batches);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self);
}

void
sl_trace_reader_add_folder (SlTraceReader *self,
                            const char    *path)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (path != NULL);
  g_return_if_fail (self->state == STATE_INIT);

  g_ptr_array_add (self->folders, g_strdup (path));
}

void
sl_trace_reader_set_wakeup (SlTraceReader       *self,
                            SlTraceReaderWakeup  wakeup,
                            gpointer             user_data)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  self->wakeup = wakeup;
  self->wakeup_data = user_data;
  g_mutex_unlock (&self->lock);
}

void
sl_trace_reader_start (SlTraceReader *self)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->state == STATE_INIT);

  self->start_time = g_get_monotonic_time ();
  self->state = STATE_SCANNING;
  self->pool = g_thread_pool_new (host_task, self, (gint) self->options.n_threads, FALSE, NULL);
  self->scan_thread = g_thread_new ("sl-trace-scan", scan_thread, self);
}

/**
 * sl_trace_reader_step:
 * @budget_us: how long it may feed the engine before returning BUSY
 *
 * Call on the engine's thread. Never blocks on a worker: returns AGAIN
 * when it needs data that is not decoded yet (then sl_trace_reader_wait()
 * or the wakeup callback tells when to call again).
 */
SlTraceReaderStatus
sl_trace_reader_step (SlTraceReader *self,
                      gint64         budget_us)
{
  gint64 deadline;

  g_return_val_if_fail (self != NULL, SL_TRACE_READER_DONE);
  g_return_val_if_fail (self->state != STATE_INIT, SL_TRACE_READER_DONE);

  deadline = g_get_monotonic_time () + MAX (budget_us, 0);

  if (self->state == STATE_DONE)
    return SL_TRACE_READER_DONE;
  if (atomic_load (&self->cancelled) || self->state == STATE_CANCELLED)
    {
      self->state = STATE_CANCELLED;
      return SL_TRACE_READER_CANCELLED;
    }

  if (self->state == STATE_SCANNING)
    {
      gboolean done;

      g_mutex_lock (&self->lock);
      self->seen_seq = self->signal_seq;
      done = self->scan_done;
      if (done)
        {
          g_ptr_array_unref (self->hosts);
          self->hosts = g_steal_pointer (&self->scanned);
        }
      else
        self->consumer_waiting = TRUE;
      g_mutex_unlock (&self->lock);
      if (!done)
        return SL_TRACE_READER_AGAIN;

      register_hosts (self);
      self->state = STATE_CALIBRATING;
    }

  if (self->state == STATE_CALIBRATING)
    {
      if (!calibrate (self))
        return SL_TRACE_READER_AGAIN;
      compute_hints (self);
      for (guint i = 0; i < self->hosts->len; i++)
        {
          Host *h = g_ptr_array_index (self->hosts, i);
          g_debug ("merge offset hint of %s: %" G_GINT64_FORMAT " ns", h->name, h->hint);
        }
      self->state = STATE_MERGING;
    }

  return merge (self, deadline);
}

void
sl_trace_reader_wait (SlTraceReader *self,
                      gint64         timeout_us)
{
  gint64 end = g_get_monotonic_time () + timeout_us;

  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  while (self->signal_seq == self->seen_seq && !atomic_load (&self->cancelled))
    if (!g_cond_wait_until (&self->cond, &self->lock, end))
      break;
  g_mutex_unlock (&self->lock);
}

SlTraceReaderStatus
sl_trace_reader_run (SlTraceReader *self)
{
  g_return_val_if_fail (self != NULL, SL_TRACE_READER_DONE);

  if (self->state == STATE_INIT)
    sl_trace_reader_start (self);
  for (;;)
    {
      SlTraceReaderStatus st = sl_trace_reader_step (self, 100000);

      if (st == SL_TRACE_READER_DONE || st == SL_TRACE_READER_CANCELLED)
        return st;
      if (st == SL_TRACE_READER_AGAIN)
        sl_trace_reader_wait (self, 100000);
    }
}

void
sl_trace_reader_cancel (SlTraceReader *self)
{
  g_return_if_fail (self != NULL);

  atomic_store (&self->cancelled, 1);
  signal_consumer (self);
}

void
sl_trace_reader_get_progress (SlTraceReader   *self,
                              SlTraceProgress *p)
{
  double bytes = 0, total = 0;
  gint64 end_time;
  double elapsed;

  g_return_if_fail (self != NULL);
  g_return_if_fail (p != NULL);

  memset (p, 0, sizeof *p);
  p->eta_s = -1;

  g_mutex_lock (&self->lock);
  end_time = self->end_time;
  p->scanning = !self->scan_done;
  if (self->scan_done)
    {
      GPtrArray *hosts = self->scanned != NULL ? self->scanned : self->hosts;

      p->hosts = hosts->len;
      for (guint i = 0; i < hosts->len; i++)
        {
          Host *h = g_ptr_array_index (hosts, i);
          gint64 b = atomic_load_explicit (&h->range_begin, memory_order_relaxed);
          gint64 e = atomic_load_explicit (&h->range_end, memory_order_relaxed);
          gint64 pos = atomic_load_explicit (&h->position, memory_order_relaxed);
          double f = 0;

          /* by decoding position in the host's time range, weighted by
           * the host's stream bytes */
          p->events += atomic_load_explicit (&h->events_done, memory_order_relaxed);
          if (h->finished)
            {
              p->hosts_done++;
              f = 1;
            }
          else if (e > b && pos > b)
            f = MIN (1.0, (double) (pos - b) / (double) (e - b));
          bytes += f * (double) MAX (h->total_bytes, 1);
          total += (double) MAX (h->total_bytes, 1);
        }
    }
  g_mutex_unlock (&self->lock);

  elapsed = self->start_time > 0
            ? (double) ((end_time > 0 ? end_time : g_get_monotonic_time ()) - self->start_time) / 1e6
            : 0;
  if (total > 0)
    p->fraction = MIN (1.0, bytes / total);
  if (end_time > 0 || (p->hosts > 0 && p->hosts_done == p->hosts))
    p->fraction = 1.0;
  if (elapsed > 0)
    p->events_per_s = (double) p->events / elapsed;
  if (p->fraction >= 1.0)
    p->eta_s = 0;
  else if (p->fraction > 0.01 && elapsed > 0.2)
    p->eta_s = elapsed * (1.0 - p->fraction) / p->fraction;
}

GPtrArray *
sl_trace_reader_dup_problems (SlTraceReader *self)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);

  g_return_val_if_fail (self != NULL, out);

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->problems->len; i++)
    g_ptr_array_add (out, sl_trace_problem_copy (g_ptr_array_index (self->problems, i)));
  g_mutex_unlock (&self->lock);
  return out;
}

static Host *
get_host (SlTraceReader *self,
          guint          index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->state >= STATE_CALIBRATING, NULL);
  g_return_val_if_fail (index < self->hosts->len, NULL);

  return g_ptr_array_index (self->hosts, index);
}

/* Host queries are for the engine's thread once scanning is over. */
guint
sl_trace_reader_get_n_hosts (SlTraceReader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->state >= STATE_CALIBRATING ? self->hosts->len : 0;
}

const char *
sl_trace_reader_get_host_name (SlTraceReader *self,
                               guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL ? h->name : NULL;
}

guint
sl_trace_reader_get_engine_host (SlTraceReader *self,
                                 guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL ? h->engine_host : SL_HOST_NONE;
}

const GPtrArray *
sl_trace_reader_get_host_traces (SlTraceReader *self,
                                 guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL ? h->trace_paths : NULL;
}

gboolean
sl_trace_reader_host_failed (SlTraceReader *self,
                             guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL && h->decode_failed;
}

/* The store is complete once the reader is DONE. */
const SlEventStore *
sl_trace_reader_get_event_store (SlTraceReader *self,
                                 guint          index)
{
  Host *h = get_host (self, index);

  g_return_val_if_fail (self->state == STATE_DONE, NULL);
  return h != NULL ? h->store : NULL;
}

gint64
sl_trace_reader_get_merge_hint (SlTraceReader *self,
                                guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL ? h->hint : 0;
}
