/* sl-bt-graph.c: the one babeltrace2 front end of both readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "sl-bt-graph.h"

/*
 * One-time set-up (the ctf plugin, its two source classes, our sink
 * class), one graph builder and one sink for trace folders and live
 * sessions. The sink has one input port per source output port (a stream
 * of a trace folder, or a live session's muxed streams), merges its inputs
 * by event time, converts each event at once (sl-bt-decode.c) and
 * publishes the host's packet events to its feed (sl-feed.c).
 *
 * babeltrace2 2.0.4 pitfalls handled here
 * ---------------------------------------
 * - Precondition failures abort: field types are checked before every
 *   accessor (sl-bt-decode.c), clocks before clock snapshots.
 * - Its objects' reference counts are not atomic: creating or destroying
 *   components, graphs and query executors holds sl_bt_lock. Running a
 *   graph does not touch shared objects.
 * - After an error, a graph is destroyed, never run again, and the
 *   thread's error is always taken.
 */

#if defined(__SANITIZE_ADDRESS__)
const char *__lsan_default_suppressions (void);
const char *__lsan_default_options (void);

const char *
__lsan_default_options (void)
{
  return "print_suppressions=0";
}

const char *
__lsan_default_suppressions (void)
{
  return "leak:babeltrace-plugin-ctf.so\n";
}
#endif

#define CONSUME_EVENTS 8192

GMutex sl_bt_lock;

/* SL_READER_DECODE_ONLY=1: iterate and drop the messages, nothing else;
 * the floor against which the reader's own cost is measured (README,
 * Benchmarks). */
static gboolean decode_only;
static const bt_plugin *ctf_plugin;
static const bt_component_class_source *source_classes[2];
static bt_component_class_sink *sink_class;
static char *setup_error;

/* ---------------------------------------------------------------------- */
/* Set-up                                                                  */

/* One line from the thread's babeltrace error: the innermost causes say
 * what failed and name the file; the outer ones repeat addresses. */
char *
sl_bt_take_error (void)
{
  const bt_error *err = bt_current_thread_take_error ();
  GString *s = g_string_new (NULL);
  guint64 n;

  if (err == NULL)
    return g_string_free (s, FALSE);

  n = bt_error_get_cause_count (err);
  for (guint64 i = 0; i < n && s->len < 400; i++)
    {
      const bt_error_cause *c = bt_error_borrow_cause_by_index (err, i);
      const char *msg = bt_error_cause_get_message (c);
      const char *module = bt_error_cause_get_module_name (c);

      if (module != NULL && g_str_equal (module, "libbabeltrace2") && s->len > 0)
        continue;
      if (msg == NULL || *msg == '\0' || strstr (s->str, msg) != NULL)
        continue;
      if (s->len > 0)
        g_string_append (s, ": ");
      g_string_append (s, msg);
      break;
    }
  bt_error_release (err);

  g_strdelimit (s->str, "\n\t", ' ');
  while (s->len > 0 && (s->str[s->len - 1] == '.' || s->str[s->len - 1] == ' '))
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}

static bt_component_class_sink_consume_method_status sink_consume (bt_self_component_sink *self);
static bt_component_class_initialize_method_status sink_initialize (bt_self_component_sink               *self,
                                                                    bt_self_component_sink_configuration *config,
                                                                    const bt_value                       *params,
                                                                    void                                 *data);
static bt_component_class_sink_graph_is_configured_method_status sink_graph_is_configured (bt_self_component_sink *self);
static void sink_finalize (bt_self_component_sink *self);

#if SL_BT_READS_CTF2
/* babeltrace2 ≥ 2.1: our sink reads MIP 0 and MIP 1 graphs alike (the
 * decoder asks nothing of a trace that MIP 1 changes but the clock's
 * identity: sl-decoder-main.c) */
static bt_component_class_get_supported_mip_versions_method_status
sink_supported_mip_versions (bt_self_component_class_sink  *cls,
                             const bt_value                *params,
                             void                          *data,
                             bt_logging_level               level,
                             bt_integer_range_set_unsigned *versions)
{
  if (bt_integer_range_set_unsigned_add_range (versions, 0, 1) != BT_INTEGER_RANGE_SET_ADD_RANGE_STATUS_OK)
    return BT_COMPONENT_CLASS_GET_SUPPORTED_MIP_VERSIONS_METHOD_STATUS_MEMORY_ERROR;
  return BT_COMPONENT_CLASS_GET_SUPPORTED_MIP_VERSIONS_METHOD_STATUS_OK;
}
#endif

/* The ctf plugin of @dir's file named as babeltrace2 installs it, if any. */
static const bt_plugin *
load_ctf_file (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "babeltrace-plugin-ctf.so", NULL);
  const bt_plugin_set *set = NULL;
  const bt_plugin *found = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  if (bt_plugin_find_all_from_file (path, BT_FALSE, &set) != BT_PLUGIN_FIND_ALL_FROM_FILE_STATUS_OK)
    {
      bt_current_thread_clear_error ();
      return NULL;
    }
  for (guint64 i = 0; i < bt_plugin_set_get_plugin_count (set) && found == NULL; i++)
    {
      const bt_plugin *plugin = bt_plugin_set_borrow_plugin_by_index_const (set, i);

      if (g_strcmp0 (bt_plugin_get_name (plugin), "ctf") == 0)
        {
          bt_plugin_get_ref (plugin);
          found = plugin;
        }
    }
  bt_plugin_set_put_ref (set);
  return found;
}

/* bt_plugin_find() loads every plugin of each folder it searches and
 * unloads those it does not return: in the system's folder text, utils
 * and lttng-utils with libdw, libelf, liblzma… Mapping, relocating and
 * unmapping them (a TLB shootdown per unmap) was ~12 % of a decoder's
 * processor time on a host of 37 k events, once per host. So the ctf
 * plugin's own file is loaded where bt_plugin_find() would look first:
 * $BABELTRACE_PLUGIN_PATH's folders in order, then, when the user has no
 * plugin folder of their own, the system's. */
static const bt_plugin *
load_ctf_plugin_file (void)
{
  const char *env = g_getenv ("BABELTRACE_PLUGIN_PATH");
  g_autofree char *user_dir = g_build_filename (g_get_home_dir (), ".local", "lib", "babeltrace2", "plugins", NULL);

  if (env != NULL)
    {
      g_auto(GStrv) dirs = g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, -1);

      for (guint i = 0; dirs[i] != NULL; i++)
        {
          const bt_plugin *plugin = *dirs[i] != '\0' ? load_ctf_file (dirs[i]) : NULL;

          if (plugin != NULL)
            return plugin;
        }
    }
  if (g_file_test (user_dir, G_FILE_TEST_EXISTS))
    return NULL;
  return load_ctf_file (SL_BT_SYSTEM_PLUGIN_DIR);
}

/* The plugin is kept for the life of the process (ctf_plugin). */
static const bt_plugin *
load_ctf_plugin (void)
{
  bt_plugin_find_status st;
  const char *level = g_getenv ("SL_BABELTRACE_LOG");

  /* babeltrace logs to stderr by default; our messages are the report.
   * Fatal messages stay on: babeltrace prints why it aborts (a broken
   * precondition) only through its logging. */
  bt_logging_set_global_level (level != NULL ? BT_LOGGING_LEVEL_DEBUG : BT_LOGGING_LEVEL_FATAL);

  /* bt_plugin_find() loads every plugin of every folder it searches
   * before it picks the first ctf one: with $BABELTRACE_PLUGIN_PATH set
   * (a babeltrace2 beside the system's, e.g. 2.1 on a system with
   * 2.0.4), the system's plugins, built for another library, are not even
   * loaded when that path has a ctf plugin. */
  ctf_plugin = load_ctf_plugin_file ();
  if (ctf_plugin != NULL)
    return ctf_plugin;
  st = BT_PLUGIN_FIND_STATUS_NOT_FOUND;
  if (g_getenv ("BABELTRACE_PLUGIN_PATH") != NULL)
    {
      st = bt_plugin_find ("ctf", BT_TRUE, BT_FALSE, BT_FALSE, BT_FALSE, BT_FALSE, &ctf_plugin);
      if (st != BT_PLUGIN_FIND_STATUS_OK)
        bt_current_thread_clear_error ();
    }
  if (st != BT_PLUGIN_FIND_STATUS_OK)
    st = bt_plugin_find ("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE, &ctf_plugin);
  if (st != BT_PLUGIN_FIND_STATUS_OK)
    {
      g_autofree char *why = st == BT_PLUGIN_FIND_STATUS_NOT_FOUND ? NULL : sl_bt_take_error ();

      bt_current_thread_clear_error ();
      setup_error = g_strdup_printf ("babeltrace2's ctf plugin cannot be loaded%s%s",
                                     why != NULL && *why ? ": " : " (is babeltrace2 installed?)",
                                     why != NULL ? why : "");
      ctf_plugin = NULL;
      return NULL;
    }
  return ctf_plugin;
}

static gpointer
setup_once (gpointer data)
{
  const bt_plugin *ctf = load_ctf_plugin ();

  decode_only = g_strcmp0 (g_getenv ("SL_READER_DECODE_ONLY"), "1") == 0;
  if (ctf == NULL)
    return NULL;

  source_classes[SL_BT_SOURCE_FS] = bt_plugin_borrow_source_component_class_by_name_const (ctf, "fs");
  source_classes[SL_BT_SOURCE_LIVE] = bt_plugin_borrow_source_component_class_by_name_const (ctf, "lttng-live");
  if (source_classes[SL_BT_SOURCE_FS] == NULL || source_classes[SL_BT_SOURCE_LIVE] == NULL)
    {
      setup_error = g_strdup ("babeltrace2's ctf plugin lacks its fs or lttng-live source");
      return NULL;
    }

  sink_class = bt_component_class_sink_create ("syncline", sink_consume);
  if (sink_class == NULL ||
      bt_component_class_sink_set_initialize_method (sink_class, sink_initialize) != BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK ||
      bt_component_class_sink_set_graph_is_configured_method (sink_class, sink_graph_is_configured) != BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK ||
      bt_component_class_sink_set_finalize_method (sink_class, sink_finalize) != BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK
#if SL_BT_READS_CTF2
      || bt_component_class_sink_set_get_supported_mip_versions_method (sink_class, sink_supported_mip_versions) !=
           BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK
#endif
      )
    {
      bt_current_thread_clear_error ();
      setup_error = g_strdup ("cannot create the reader's babeltrace2 sink (out of memory)");
    }
  return NULL;
}

static gboolean
setup (const char **why)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, setup_once, NULL);
  if (why != NULL)
    *why = setup_error;
  return setup_error == NULL;
}

const bt_component_class_source *
sl_bt_get_source_class (SlBtSourceKind   kind,
                        const char     **why)
{
  if (!setup (why))
    return NULL;
  return source_classes[kind];
}

/* ---------------------------------------------------------------------- */
/* The sink                                                                */

typedef struct
{
  SlBtGraph              *graph;
  bt_message_iterator    *it;
  bt_message_array_const  msgs;
  guint64                 count;
  guint64                 pos;
  gboolean                ended;
  gboolean                has_head;
  gint64                  head_time;
  SlBtStreamState        *head;
  GHashTable             *streams;
  const bt_stream        *last_stream;
  SlBtStreamState        *last_state;
  gboolean                one_stream;
  char                   *port_file;
  char                   *port_name;
  char                   *file;
  guint                   source;
  guint64                 skip;
  guint64                 consumed;
  guint64                 packets;
} Input;

struct _SlBtGraph
{
  bt_graph      *graph;
  Input         *inputs;
  guint          n_inputs;
  SlFeed        *feed;
  SlBtDecoder   *decoder;
  GMutex        *store_lock;
  gboolean       store_locked;
  SlFeedFlush    flush;
  gint64         min_publish_us;
  gint64         last_publish;
  gint64         seen;
  gint64         first_event;
  gint64         last_event;
  guint64        events;
  guint64        ignored;
  guint64        unusable;
  char          *error_file;
  volatile guint reading;
  SlBtInputFailedFunc input_failed;
  SlBtClockFunc  clock;
  SlBtPacketFunc packet;
  SlBtUnusableFunc unusable_func;
  gpointer       user_data;
};

static void
stream_state_free (gpointer p)
{
  SlBtStreamState *st = p;

  g_free (st->file);
  g_free (st);
}

static SlBtStreamState *
input_stream (Input           *in,
              const bt_stream *stream)
{
  SlBtStreamState *st;

  if (stream == in->last_stream && in->last_state != NULL)
    return in->last_state;
  st = g_hash_table_lookup (in->streams, stream);
  if (st == NULL)
    {
      st = g_new0 (SlBtStreamState, 1);
      st->file = g_strdup (in->port_file);
      g_hash_table_insert (in->streams, (gpointer) stream, st);
    }
  in->last_stream = stream;
  in->last_state = st;
  return st;
}

static const bt_stream *
message_stream (const bt_message *msg)
{
  switch (bt_message_get_type (msg))
    {
    case BT_MESSAGE_TYPE_EVENT:
      return bt_event_borrow_stream_const (bt_message_event_borrow_event_const (msg));
    case BT_MESSAGE_TYPE_STREAM_BEGINNING:
      return bt_message_stream_beginning_borrow_stream_const (msg);
    case BT_MESSAGE_TYPE_STREAM_END:
      return bt_message_stream_end_borrow_stream_const (msg);
    case BT_MESSAGE_TYPE_PACKET_BEGINNING:
      return bt_packet_borrow_stream_const (bt_message_packet_beginning_borrow_packet_const (msg));
    case BT_MESSAGE_TYPE_PACKET_END:
      return bt_packet_borrow_stream_const (bt_message_packet_end_borrow_packet_const (msg));
    case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
      return bt_message_discarded_events_borrow_stream_const (msg);
    case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
      return bt_message_discarded_packets_borrow_stream_const (msg);
    default:
      return NULL;
    }
}

static void
store_lock (SlBtGraph *g)
{
  if (g->store_lock != NULL && !g->store_locked)
    {
      g_mutex_lock (g->store_lock);
      g->store_locked = TRUE;
    }
}

static void
store_unlock (SlBtGraph *g)
{
  if (g->store_locked)
    {
      g_mutex_unlock (g->store_lock);
      g->store_locked = FALSE;
    }
}

/* A message that is not an event, in stream order. */
static gboolean
handle_other (SlBtGraph        *g,
              Input            *in,
              const bt_message *msg)
{
  bt_message_type type = bt_message_get_type (msg);

  switch (type)
    {
    case BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY:
      {
        const bt_clock_snapshot *cs = bt_message_message_iterator_inactivity_borrow_clock_snapshot_const (msg);
        int64_t ns;

        /* the relay's beacon: nothing of the host before this time is
         * still to come */
        if (bt_clock_snapshot_get_ns_from_origin (cs, &ns) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
          g->seen = MAX (g->seen, ns);
        else
          bt_current_thread_clear_error ();
        return TRUE;
      }

    case BT_MESSAGE_TYPE_STREAM_END:
      {
        const bt_stream *stream = bt_message_stream_end_borrow_stream_const (msg);

        if (stream == in->last_stream)
          in->last_stream = NULL, in->last_state = NULL;
        g_hash_table_remove (in->streams, stream);
        return TRUE;
      }

    case BT_MESSAGE_TYPE_STREAM_BEGINNING:
      {
        SlBtStreamState *st = input_stream (in, message_stream (msg));
        gboolean ok;

        if (g->clock != NULL)
          {
            const bt_stream_class *sc = bt_stream_borrow_class_const (bt_message_stream_beginning_borrow_stream_const (msg));
            const bt_clock_class *cc = bt_stream_class_borrow_default_clock_class_const (sc);

            if (cc != NULL)
              g->clock (g, cc, g->user_data);
          }
        ok = sl_bt_decoder_other (g->decoder, st, msg);
        if (st->file != NULL && g_strcmp0 (st->file, in->file) != 0)
          {
            g_free (in->file);
            in->file = g_strdup (st->file);
          }
        return ok;
      }

    case BT_MESSAGE_TYPE_PACKET_BEGINNING:
      in->packets++;
      if (G_UNLIKELY (g->packet != NULL))
        g->packet (g, (guint) (in - g->inputs), in->packets, g->user_data);
      return sl_bt_decoder_other (g->decoder, input_stream (in, message_stream (msg)), msg);

    case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
      return sl_bt_decoder_other (g->decoder, input_stream (in, message_stream (msg)), msg);

    default:
      return TRUE;
    }
}

typedef enum
{
  FILL_OK,
  FILL_END,
  FILL_AGAIN,
  FILL_ERROR,
} FillStatus;

static FillStatus
input_next (SlBtGraph *g,
            Input     *in)
{
  bt_message_iterator_next_status st;

  in->pos = in->count = 0;
  /* babeltrace may wait here (a relay): the store is not held meanwhile */
  store_unlock (g);
  g->reading = (guint) (in - g->inputs);
  st = BT_LEAKY (bt_message_iterator_next (in->it, &in->msgs, &in->count));
  store_lock (g);
  switch (st)
    {
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
      return FILL_OK;
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
}

/* Makes the input's next event message its head, handling the messages
 * before it. */
static FillStatus
input_fill_head (SlBtGraph *g,
                 Input     *in)
{
  g->reading = (guint) (in - g->inputs);
  while (!in->has_head)
    {
      const bt_message *msg;

      if (in->ended)
        return FILL_END;

      if (in->pos == in->count)
        {
          FillStatus st = input_next (g, in);

          if (st != FILL_OK)
            return st;
          continue;
        }

      msg = in->msgs[in->pos];
      if (bt_message_get_type (msg) == BT_MESSAGE_TYPE_EVENT)
        {
          gint64 ns = g->seen;

          /* a src.ctf.fs port carries one stream */
          in->head = in->one_stream && in->last_state != NULL ? in->last_state
                                                              : input_stream (in, message_stream (msg));
          if (!sl_bt_decoder_event_time (g->decoder, in->head, msg, &ns))
            return FILL_ERROR;
          in->head_time = ns;
          in->has_head = TRUE;
          return FILL_OK;
        }

      in->pos++;
      if (!handle_other (g, in, msg))
        {
          bt_message_put_ref (msg);
          return FILL_ERROR;
        }
      bt_message_put_ref (msg);
    }
  return FILL_OK;
}

static inline void
input_consume_head (SlBtGraph *g,
                    Input     *in)
{
  const bt_message *msg = in->msgs[in->pos++];
  SlPacketEvent pe;

  g->reading = (guint) (in - g->inputs);
  in->has_head = FALSE;
  in->consumed++;
  g->seen = MAX (g->seen, in->head_time);
  if (G_UNLIKELY (in->skip > 0))
    {
      /* delivered by an earlier run: for the decoder's state only */
      in->skip--;
      sl_bt_decoder_set_muted (g->decoder, TRUE);
      sl_bt_decoder_event (g->decoder, in->head, msg, in->head_time, SL_HOST_NONE, &pe);
      sl_bt_decoder_set_muted (g->decoder, FALSE);
      bt_message_put_ref (msg);
      return;
    }
  g->events++;
  g->first_event = MIN (g->first_event, in->head_time);
  g->last_event = MAX (g->last_event, in->head_time);
  switch (sl_bt_decoder_event (g->decoder, in->head, msg, in->head_time, SL_HOST_NONE, &pe))
    {
    case SL_BT_EVENT_PACKET:
      sl_feed_push (g->feed, &pe);
      break;
    case SL_BT_EVENT_IGNORED:
      g->ignored++;
      break;
    case SL_BT_EVENT_UNUSABLE:
      {
        const char *why = sl_bt_decoder_take_unusable (g->decoder);

        g->ignored++;
        g->unusable++;
        if (why != NULL && g->unusable_func != NULL)
          g->unusable_func (g, in->head != NULL && in->head->file != NULL ? in->head->file : in->port_file, why,
                            g->user_data);
        break;
      }
    case SL_BT_EVENT_OTHER:
    default:
      break;
    }
  bt_message_put_ref (msg);
}

static void
publish (SlBtGraph *g,
         gboolean   force)
{
  gint64 now;

  sl_feed_count (g->feed, g->events, g->ignored, g->unusable);
  g->events = g->ignored = g->unusable = 0;
  sl_feed_span (g->feed, g->first_event, g->last_event);
  sl_feed_seen (g->feed, g->seen);
  if (!force && g->min_publish_us > 0 && sl_feed_get_filled (g->feed) > 0)
    {
      now = g_get_monotonic_time ();
      if (now - g->last_publish < g->min_publish_us)
        return;
      g->last_publish = now;
    }
  else if (g->min_publish_us > 0)
    g->last_publish = g_get_monotonic_time ();
  sl_feed_publish (g->feed, g->flush);
}

static bt_component_class_sink_consume_method_status
consume_decode_only (SlBtGraph *g)
{
  for (guint i = 0; i < g->n_inputs; i++)
    {
      Input *in = &g->inputs[i];

      if (in->ended)
        continue;
      switch (input_next (g, in))
        {
        case FILL_END:
          continue;
        case FILL_AGAIN:
          return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_AGAIN;
        case FILL_ERROR:
          return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
        case FILL_OK:
        default:
          break;
        }
      for (guint64 k = 0; k < in->count; k++)
        {
          if (bt_message_get_type (in->msgs[k]) == BT_MESSAGE_TYPE_EVENT)
            g->events++;
          bt_message_put_ref (in->msgs[k]);
        }
      in->count = 0;
      /* counts only: a publication per delivery would cost more than
       * what is measured */
      if (g->events >= CONSUME_EVENTS)
        publish (g, FALSE);
      return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
    }
  g->seen = G_MAXINT64;
  publish (g, TRUE);
  return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
}

/* babeltrace failed on @in: with an input_failed handler, that input ends
 * alone (TRUE); otherwise the graph fails. */
static gboolean
input_end_on_error (SlBtGraph *g,
                    Input     *in)
{
  g_autofree char *why = NULL;

  if (g->input_failed == NULL)
    return FALSE;
  why = sl_bt_take_error ();
  for (guint64 k = in->pos; k < in->count; k++)
    bt_message_put_ref (in->msgs[k]);
  in->pos = in->count = 0;
  in->has_head = FALSE;
  in->ended = TRUE;
  store_unlock (g);
  g->input_failed (g, (guint) (in - g->inputs), in->packets, why, g->user_data);
  store_lock (g);
  return TRUE;
}

static bt_component_class_sink_consume_method_status
consume_fail (SlBtGraph *g,
              Input     *in)
{
  const SlBtStreamState *st = in->last_state != NULL ? in->last_state : in->head;

  g_free (g->error_file);
  g->error_file = g_strdup (st != NULL && st->file != NULL ? st->file : in->port_file);
  store_unlock (g);
  /* what was converted counts, though it is not published */
  sl_feed_count (g->feed, g->events, g->ignored, g->unusable);
  g->events = g->ignored = g->unusable = 0;
  return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
}

/* The inputs merged by event time, CONSUME_EVENTS events at most. A run
 * from one input goes up to the next input's head: the merge is
 * tolerant, an input whose time goes back is not an error. */
static bt_component_class_sink_consume_method_status
sink_consume (bt_self_component_sink *self)
{
  SlBtGraph *g = bt_self_component_get_data (bt_self_component_sink_as_self_component (self));
  guint budget = CONSUME_EVENTS;

  if (G_UNLIKELY (decode_only))
    return consume_decode_only (g);

  store_lock (g);
  while (budget > 0)
    {
      Input *best = NULL;
      gint64 limit = G_MAXINT64;

      for (guint i = 0; i < g->n_inputs; i++)
        {
          Input *in = &g->inputs[i];

          switch (input_fill_head (g, in))
            {
            case FILL_OK:
              break;
            case FILL_END:
              continue;
            case FILL_AGAIN:
              store_unlock (g);
              publish (g, TRUE);
              return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_AGAIN;
            case FILL_ERROR:
            default:
              if (input_end_on_error (g, in))
                continue;
              return consume_fail (g, in);
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
          store_unlock (g);
          g->seen = G_MAXINT64;
          publish (g, TRUE);
          return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
        }

      do
        {
          input_consume_head (g, best);
          budget--;
          if (input_fill_head (g, best) == FILL_ERROR && !input_end_on_error (g, best))
            return consume_fail (g, best);
        }
      while (budget > 0 && best->has_head && best->head_time <= limit);
    }

  store_unlock (g);
  publish (g, FALSE);
  return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
}

static bt_component_class_initialize_method_status
sink_initialize (bt_self_component_sink               *self,
                 bt_self_component_sink_configuration *config,
                 const bt_value                       *params,
                 void                                 *data)
{
  SlBtGraph *g = data;

  bt_self_component_set_data (bt_self_component_sink_as_self_component (self), g);
  for (guint i = 0; i < g->n_inputs; i++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "in%u", i);
      if (bt_self_component_sink_add_input_port (self, name, NULL, NULL) != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
        return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
    }
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static bt_component_class_sink_graph_is_configured_method_status
sink_graph_is_configured (bt_self_component_sink *self)
{
  SlBtGraph *g = bt_self_component_get_data (bt_self_component_sink_as_self_component (self));

  for (guint i = 0; i < g->n_inputs; i++)
    {
      bt_self_component_port_input *port = bt_self_component_sink_borrow_input_port_by_index (self, i);
      bt_message_iterator_create_from_sink_component_status st;

      st = bt_message_iterator_create_from_sink_component (self, port, &g->inputs[i].it);
      if (st != BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK)
        return st == BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_MEMORY_ERROR
                 ? BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_MEMORY_ERROR
                 : BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
    }
  return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

static void
inputs_release (SlBtGraph *g)
{
  for (guint i = 0; i < g->n_inputs; i++)
    {
      Input *in = &g->inputs[i];

      for (guint64 k = in->pos; k < in->count; k++)
        bt_message_put_ref (in->msgs[k]);
      in->pos = in->count = 0;
      in->has_head = FALSE;
      g_clear_pointer (&in->it, bt_message_iterator_put_ref);
    }
}

static void
sink_finalize (bt_self_component_sink *self)
{
  SlBtGraph *g = bt_self_component_get_data (bt_self_component_sink_as_self_component (self));

  if (g != NULL)
    inputs_release (g);
}

/* ---------------------------------------------------------------------- */
/* Graphs                                                                  */

static bt_value *
source_params (const SlBtGraphSpec *spec,
               const char          *input)
{
  bt_value *params = bt_value_map_create (), *inputs = NULL;

  if (params == NULL ||
      bt_value_map_insert_empty_array_entry (params, "inputs", &inputs) != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
      bt_value_array_append_string_element (inputs, input) != BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK ||
      (spec->kind == SL_BT_SOURCE_LIVE &&
       bt_value_map_insert_string_entry (params, "session-not-found-action", "end") != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK))
    {
      bt_value_put_ref (params);
      return NULL;
    }
  return params;
}

/* src.ctf.fs names its ports "UUID | STREAM ID | PATH": the path, when
 * it names a file. */
static char *
port_file (const bt_port_output *out)
{
  const char *name = bt_port_get_name (bt_port_output_as_port_const (out));
  const char *bar = name != NULL ? strrchr (name, '|') : NULL;
  char *file = g_strstrip (g_strdup (bar != NULL ? bar + 1 : name != NULL ? name : ""));

  if (strchr (file, '/') == NULL)
    g_clear_pointer (&file, g_free);
  return file;
}

static gboolean
connect_sink (SlBtGraph *g,
              GPtrArray *sources,
              GArray    *source_index)
{
  const bt_component_sink *sink = NULL;
  guint port = 0;

  if (bt_graph_add_sink_component_with_initialize_method_data (g->graph, sink_class, "sink", NULL, g,
                                                               BT_LOGGING_LEVEL_NONE, &sink) !=
      BT_GRAPH_ADD_COMPONENT_STATUS_OK)
    return FALSE;

  for (guint s = 0; s < sources->len; s++)
    {
      const bt_component_source *src = g_ptr_array_index (sources, s);

      for (guint64 p = 0; p < bt_component_source_get_output_port_count (src); p++, port++)
        {
          const bt_port_output *out = bt_component_source_borrow_output_port_by_index_const (src, p);

          g->inputs[port].port_file = port_file (out);
          g->inputs[port].port_name = g_strdup (bt_port_get_name (bt_port_output_as_port_const (out)));
          g->inputs[port].source = g_array_index (source_index, guint, s);
          if (bt_graph_connect_ports (g->graph, out, bt_component_sink_borrow_input_port_by_index_const (sink, port),
                                      NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
            return FALSE;
        }
    }
  return TRUE;
}

static void
graph_free_locked (SlBtGraph *g)
{
  bt_graph_put_ref (g->graph);
  bt_current_thread_clear_error ();
  inputs_release (g);
  for (guint i = 0; i < g->n_inputs; i++)
    {
      g_hash_table_destroy (g->inputs[i].streams);
      g_free (g->inputs[i].port_file);
      g_free (g->inputs[i].port_name);
      g_free (g->inputs[i].file);
    }
  g_free (g->inputs);
  g_free (g->error_file);
  g_free (g);
}

/* Adds the sources (sl_bt_lock held); on failure, *failed_input names the
 * input babeltrace refused, if it is one. */
static gboolean
add_sources (SlBtGraph           *g,
             const SlBtGraphSpec *spec,
             GPtrArray           *sources,
             GArray              *source_index,
             guint               *n_ports,
             guint               *failed_input)
{
  const bt_component_class_source *cls = source_classes[spec->kind];

  *n_ports = 0;
  for (guint i = 0; i < spec->n_inputs; i++)
    {
      const bt_component_source *src = NULL;
      bt_value *params;
      char name[32];
      bt_graph_add_component_status st;

      if (spec->skip != NULL && spec->skip[i])
        continue;
      g_snprintf (name, sizeof name, "src%u", i);
      params = source_params (spec, spec->inputs[i]);
      st = params == NULL ? BT_GRAPH_ADD_COMPONENT_STATUS_MEMORY_ERROR
                          : BT_LEAKY (bt_graph_add_source_component (g->graph, cls, name, params,
                                                                     BT_LOGGING_LEVEL_NONE, &src));
      bt_value_put_ref (params);
      if (st != BT_GRAPH_ADD_COMPONENT_STATUS_OK)
        {
          *failed_input = i;
          return FALSE;
        }
      g_ptr_array_add (sources, (gpointer) src);
      g_array_append_val (source_index, i);
      *n_ports += (guint) bt_component_source_get_output_port_count (src);
    }
  return TRUE;
}

/* Whether a trace folder holds CTF 2: its metadata is a JSON text
 * sequence (CTF 1.8's is packets or starts with a comment). */
static gboolean
fs_input_is_ctf2 (const char *folder)
{
  g_autofree char *path = g_build_filename (folder, "metadata", NULL);
  FILE *f = fopen (path, "rb");
  int c = f != NULL ? fgetc (f) : EOF;

  if (f != NULL)
    fclose (f);
  return c == 0x1e || c == '{';
}

/* The MIP version of a host's graph: 0, as with babeltrace2 2.0, unless
 * babeltrace2 ≥ 2.1 (headers and library) may have to read CTF 2 (which
 * its src.ctf.fs is documented to read under MIP 1 only). A trace folder
 * says it in its metadata's first byte (CTF 2: a JSON text sequence); a
 * live session's format is known only once connected, and its source
 * refuses a CTF 2 session under MIP 0: it gets the greatest version its
 * components agree on (CTF 1.8 reads the same under MIP 1: the bt21
 * suite's traces gave the same JSON in graphs forced to MIP 1). */
static uint64_t
graph_mip_version (const SlBtGraphSpec *spec)
{
#if SL_BT_READS_CTF2
  bt_component_descriptor_set *set;
  uint64_t v = 0;
  gboolean ok;

  if (bt_version_get_major () == 2 && bt_version_get_minor () < 1)
    return 0;
  if (spec->kind == SL_BT_SOURCE_FS)
    {
      for (guint i = 0; i < spec->n_inputs; i++)
        if ((spec->skip == NULL || !spec->skip[i]) && fs_input_is_ctf2 (spec->inputs[i]))
          return 1;
      return 0;
    }
  set = bt_component_descriptor_set_create ();
  ok = set != NULL &&
       bt_component_descriptor_set_add_descriptor (set, bt_component_class_sink_as_component_class_const (sink_class),
                                                   NULL) == BT_COMPONENT_DESCRIPTOR_SET_ADD_DESCRIPTOR_STATUS_OK;
  for (guint i = 0; ok && i < spec->n_inputs; i++)
    {
      bt_value *params = spec->skip != NULL && spec->skip[i] ? NULL : source_params (spec, spec->inputs[i]);

      if (params != NULL)
        ok = bt_component_descriptor_set_add_descriptor (
               set, bt_component_class_source_as_component_class_const (source_classes[spec->kind]), params) ==
             BT_COMPONENT_DESCRIPTOR_SET_ADD_DESCRIPTOR_STATUS_OK;
      bt_value_put_ref (params);
    }
  if (!ok || bt_get_greatest_operative_mip_version (set, BT_LOGGING_LEVEL_NONE, &v) !=
               BT_GET_GREATEST_OPERATIVE_MIP_VERSION_STATUS_OK)
    v = 0;
  bt_current_thread_clear_error ();
  bt_component_descriptor_set_put_ref (set);
  return v;
#else
  return 0;
#endif
}

/**
 * sl_bt_graph_new:
 * @failed_input: (out): on failure, the input babeltrace refused, or
 *   G_MAXUINT when the failure is not an input's
 * @why: (out): on failure, babeltrace's reason for a refused input (may
 *   be empty), else a whole message ("no stream to read", "cannot build
 *   the reader: …")
 *
 * Builds the graph of one host. A graph is never reused after a failure:
 * to go on without a refused trace, build a new one with it skipped.
 */
SlBtGraph *
sl_bt_graph_new (const SlBtGraphSpec  *spec,
                 guint                *failed_input,
                 char                **why)
{
  g_autoptr(GPtrArray) sources = g_ptr_array_new ();
  g_autoptr(GArray) source_index = g_array_new (FALSE, FALSE, sizeof (guint));
  const char *setup_why = NULL;
  SlBtGraph *g;
  guint n_ports = 0;

  g_return_val_if_fail (spec != NULL && spec->feed != NULL && spec->decoder != NULL, NULL);

  *failed_input = G_MAXUINT;
  *why = NULL;
  if (!setup (&setup_why))
    {
      *why = g_strdup (setup_why);
      return NULL;
    }

  /* babeltrace2 2.0's src.ctf.fs fails on CTF 2 saying only that it
   * cannot create the trace */
  for (guint i = 0; spec->kind == SL_BT_SOURCE_FS && bt_version_get_major () == 2 && bt_version_get_minor () < 1 &&
                    i < spec->n_inputs; i++)
    if ((spec->skip == NULL || !spec->skip[i]) && fs_input_is_ctf2 (spec->inputs[i]))
      {
        *failed_input = i;
        *why = g_strdup_printf ("a CTF 2 trace: CTF 2 needs babeltrace2 2.1 or later, the decoder runs with "
                                "babeltrace2 %u.%u.%u", (guint) bt_version_get_major (),
                                (guint) bt_version_get_minor (), (guint) bt_version_get_patch ());
        return NULL;
      }

  g = g_new0 (SlBtGraph, 1);
  g->feed = spec->feed;
  g->decoder = spec->decoder;
  g->store_lock = spec->store_lock;
  g->flush = spec->flush;
  g->min_publish_us = spec->min_publish_us;
  g->seen = G_MININT64;
  g->first_event = G_MAXINT64;
  g->last_event = G_MININT64;
  g->reading = G_MAXUINT;
  g->input_failed = spec->input_failed;
  g->clock = spec->clock;
  g->packet = spec->packet;
  g->unusable_func = spec->unusable;
  g->user_data = spec->user_data;

  g_mutex_lock (&sl_bt_lock);
  g->graph = bt_graph_create (graph_mip_version (spec));
  if (g->graph == NULL ||
      (spec->interrupter != NULL &&
       bt_graph_add_interrupter (g->graph, spec->interrupter) != BT_GRAPH_ADD_INTERRUPTER_STATUS_OK) ||
      !add_sources (g, spec, sources, source_index, &n_ports, failed_input))
    goto fail;
  if (n_ports == 0 || (spec->kind == SL_BT_SOURCE_LIVE && n_ports != 1))
    {
      *why = g_strdup ("no stream to read");
      goto fail_why;
    }

  g->n_inputs = n_ports;
  g->inputs = g_new0 (Input, n_ports);
  for (guint i = 0; i < n_ports; i++)
    {
      g->inputs[i].graph = g;
      g->inputs[i].one_stream = spec->kind == SL_BT_SOURCE_FS;
      g->inputs[i].streams = g_hash_table_new_full (NULL, NULL, NULL, stream_state_free);
    }
  if (!connect_sink (g, sources, source_index))
    {
      g_autofree char *bt_why = sl_bt_take_error ();

      *why = g_strdup_printf ("cannot build the reader: %s", bt_why);
      goto fail_why;
    }
  g_mutex_unlock (&sl_bt_lock);
  for (guint i = 0; i < g->n_inputs; i++)
    for (guint k = 0; k < spec->n_skips; k++)
      if (g_strcmp0 (g->inputs[i].port_name, spec->skip_names[k]) == 0)
        g->inputs[i].skip = spec->skip_counts[k];
  return g;

fail:
  *why = sl_bt_take_error ();
fail_why:
  bt_current_thread_clear_error ();
  graph_free_locked (g);
  g_mutex_unlock (&sl_bt_lock);
  return NULL;
}

void
sl_bt_graph_free (SlBtGraph *graph)
{
  if (graph == NULL)
    return;
  g_mutex_lock (&sl_bt_lock);
  graph_free_locked (graph);
  g_mutex_unlock (&sl_bt_lock);
}

SlBtRunStatus
sl_bt_graph_run_once (SlBtGraph *graph)
{
  switch (bt_graph_run_once (graph->graph))
    {
    case BT_GRAPH_RUN_ONCE_STATUS_OK:
      return SL_BT_RUN_OK;
    case BT_GRAPH_RUN_ONCE_STATUS_AGAIN:
      return SL_BT_RUN_AGAIN;
    case BT_GRAPH_RUN_ONCE_STATUS_END:
      return SL_BT_RUN_END;
    default:
      return SL_BT_RUN_ERROR;
    }
}

/* After an error: the file of the stream the sink was reading, if known. */
const char *
sl_bt_graph_get_error_file (SlBtGraph *graph)
{
  return graph->error_file;
}

/* The span of the events decoded so far (first > last: none yet). */
void
sl_bt_graph_get_span (SlBtGraph *g,
                      gint64    *first,
                      gint64    *last)
{
  *first = g->first_event;
  *last = g->last_event;
}

guint
sl_bt_graph_get_n_inputs (SlBtGraph *graph)
{
  return graph->n_inputs;
}

/* The port's name: src.ctf.fs's "UUID | STREAM ID | PATH". */
const char *
sl_bt_graph_get_input_name (SlBtGraph *graph,
                            guint      input)
{
  g_return_val_if_fail (input < graph->n_inputs, NULL);
  return graph->inputs[input].port_name;
}

/* The file of the stream the input began last (NULL before). */
const char *
sl_bt_graph_get_input_file (SlBtGraph *graph,
                            guint      input)
{
  g_return_val_if_fail (input < graph->n_inputs, NULL);
  return graph->inputs[input].file != NULL ? graph->inputs[input].file : graph->inputs[input].port_file;
}

/* The spec input (trace folder) the input comes from. */
guint
sl_bt_graph_get_input_source (SlBtGraph *graph,
                              guint      input)
{
  g_return_val_if_fail (input < graph->n_inputs, 0);
  return graph->inputs[input].source;
}

/* Events the sink took from the input (skipped ones included). */
guint64
sl_bt_graph_get_consumed (SlBtGraph *graph,
                          guint      input)
{
  g_return_val_if_fail (input < graph->n_inputs, 0);
  return graph->inputs[input].consumed;
}

/* The input last read or handled (G_MAXUINT: none yet), how many of its
 * packets began and its stream's file. Only reads fields: safe in a
 * signal handler. */
void
sl_bt_graph_get_position (SlBtGraph   *graph,
                          guint       *input,
                          guint64     *packet,
                          const char **file)
{
  guint i = graph->reading;

  *input = i;
  *packet = i < graph->n_inputs ? graph->inputs[i].packets : 0;
  *file = i < graph->n_inputs ? (graph->inputs[i].file != NULL ? graph->inputs[i].file : graph->inputs[i].port_file)
                              : NULL;
}

/* ---------------------------------------------------------------------- */
/* Queries                                                                 */

static void
range_of_stream_infos (const bt_value *sis,
                       gint64         *begin,
                       gint64         *end)
{
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
      *begin = MIN (*begin, bt_value_integer_signed_get (b));
      *end = MAX (*end, bt_value_integer_signed_get (e));
    }
}

/* Widens [*begin, *end] to the time range of a trace's streams (progress). */
void
sl_bt_query_range (const char *trace,
                   gint64     *begin,
                   gint64     *end)
{
  bt_value *params = NULL, *inputs = NULL;
  const bt_value *result = NULL;
  bt_query_executor *q = NULL;

  if (!setup (NULL))
    return;
  g_mutex_lock (&sl_bt_lock);
  params = bt_value_map_create ();
  if (params != NULL &&
      bt_value_map_insert_empty_array_entry (params, "inputs", &inputs) == BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK &&
      bt_value_array_append_string_element (inputs, trace) == BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK)
    q = bt_query_executor_create (bt_component_class_source_as_component_class_const (source_classes[SL_BT_SOURCE_FS]),
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
            if (bt_value_is_array (sis))
              range_of_stream_infos (sis, begin, end);
          }
    }
  bt_current_thread_clear_error ();
  bt_value_put_ref (result);
  bt_query_executor_put_ref (q);
  bt_value_put_ref (params);
  g_mutex_unlock (&sl_bt_lock);
}
