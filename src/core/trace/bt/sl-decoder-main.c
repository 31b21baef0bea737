/* sl-decoder-main.c: syncline-decoder, the process that runs babeltrace2
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sl-bt-graph.h"
#include "sl-relay-forward.h"
#include "sl-wire.h"

/*
 * The readers run babeltrace2 here, one process per host (trace folders)
 * or per attachment (live), never in their own process: babeltrace2 2.0.4
 * aborts on its broken assertions and preconditions, loops on some damaged
 * packets, allocates what hostile metadata asks for and blocks in I/O; a
 * decoder that does any of that is killed or dies alone, and the reader
 * reports it and goes on (sl-decoder.c, the readers).
 *
 *   syncline-decoder trace [--keep-events] [--skip=COUNT:PORT]... TRACE...
 *   syncline-decoder live [--keep-events] [--poll-ms=N] URL
 *   syncline-decoder sessions URL
 *
 * Frames go to the standard output (sl-wire.h); the standard output then
 * points to the standard error, so that nothing else writes into them.
 * Each step of the graph is one commit: its packet events, its timeline
 * events and strings, then SL_WIRE_COMMIT with the counts and, per input,
 * the events taken (a reader that starts a decoder again after a crash
 * skips those). A fatal signal writes SL_WIRE_CRASH with the input
 * babeltrace was reading and how many of its packets had begun.
 */

/* A runaway allocation fails here rather than taking the machine. */
/* memory a decoder may use without --memory-limit (live sessions) */
#define DATA_LIMIT (G_GUINT64_CONSTANT (4) << 30)

typedef struct
{
  SlWireWriter  w;
  SlFeedHub    *hub;
  SlFeed       *feed;
  SlBtDecoder  *decoder;
  SlBtGraph    *graph;
  GHashTable   *strings;
  GPtrArray    *clocks;
  GPtrArray    *sent_files;
  /* live: when the relay last answered, looked up at most every
   * ANSWER_CHECK_US */
  gboolean      live;
  gint64        answered;
  gint64        answer_checked;
} Decoder;

#define ANSWER_CHECK_US (20 * 1000)

static Decoder *current;
/* SL_DECODER_FAULT=abort|spin:FILE:PACKET makes the decoder abort or loop
 * when packet PACKET of stream file FILE begins: the tests of what a
 * reader does when a decoder dies or spins (babeltrace2's own crashes
 * depend on what it is fed). */
static char *fault_kind;
static char *fault_file;
static guint64 fault_packet;
static int wire_fd = -1;
static struct sigaction old_actions[NSIG];

/* ---------------------------------------------------------------------- */
/* Process set-up                                                          */

/* Async-signal-safe: one frame with where babeltrace was, then the
 * signal's previous disposition (the sanitizers' report, or death). */
static void
fatal_signal (int        signo,
              siginfo_t *info,
              void      *ucontext)
{
  struct
  {
    SlWireHeader h;
    SlWireCrash  c;
    char         file[1024];
  } frame = { { SL_WIRE_CRASH, sizeof (SlWireCrash) }, { (guint32) signo, G_MAXUINT32, 0 }, { 0 } };
  guint input = G_MAXUINT;
  guint64 packet = 0;
  const char *file = NULL;
  gsize n = 0;

  if (current != NULL && current->graph != NULL)
    sl_bt_graph_get_position (current->graph, &input, &packet, &file);
  frame.c.input = input;
  frame.c.packet = packet;
  while (file != NULL && file[n] != '\0' && n < sizeof frame.file - 1)
    {
      frame.file[n] = file[n];
      n++;
    }
  frame.h.size += (guint32) n + 1;
  if (wire_fd >= 0 && write (wire_fd, &frame, sizeof frame.h + frame.h.size) < 0)
    {
      /* nothing more can be said */
    }
  sigaction (signo, &old_actions[signo], NULL);
  if (signo == SIGABRT || signo == SIGFPE || signo == SIGTRAP)
    raise (signo);
}

#if defined(__SANITIZE_ADDRESS__)
/* The sanitizers' shadow memory does not fit under RLIMIT_DATA: the
 * resident size is watched instead, with the same effect (an abort, so
 * a damaged length that makes babeltrace2 allocate without end costs
 * only this decoder). */
static gpointer
memory_watch (gpointer data)
{
  guint64 limit = GPOINTER_TO_SIZE (data);
  long page = sysconf (_SC_PAGESIZE);

  for (;;)
    {
      g_autofree char *statm = NULL;
      guint64 size, resident;

      if (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL) &&
          sscanf (statm, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &size, &resident) == 2 &&
          resident * (guint64) page > limit)
        {
          g_printerr ("syncline-decoder: more than %" G_GUINT64_FORMAT " MiB in use (a damaged length?)\n",
                      limit >> 20);
          abort ();
        }
      g_usleep (20 * 1000);
    }
  return NULL;
}
#endif

static void
setup_process (guint64 memory_limit)
{
  static const int fatal[] = { SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP };
  static guint8 alt_stack[64 << 10];
  stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof alt_stack };
  struct sigaction sa = { 0 };
  const char *parent = g_getenv ("SL_DECODER_PARENT");

  /* dies with its reader; Ctrl-C is the reader's to handle */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (parent != NULL && g_ascii_strtoll (parent, NULL, 10) != (gint64) getppid ())
    _exit (1);
  signal (SIGINT, SIG_IGN);
  signal (SIGPIPE, SIG_IGN);

  if (memory_limit == 0)
    memory_limit = DATA_LIMIT;
#if defined(__SANITIZE_ADDRESS__)
  g_thread_unref (g_thread_new ("memory", memory_watch, GSIZE_TO_POINTER (memory_limit)));
#else
  {
    struct rlimit rl = { memory_limit, memory_limit };

    setrlimit (RLIMIT_DATA, &rl);
  }
#endif

  sigaltstack (&ss, NULL);
  sa.sa_sigaction = fatal_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset (&sa.sa_mask);
  for (guint i = 0; i < G_N_ELEMENTS (fatal); i++)
    sigaction (fatal[i], &sa, &old_actions[fatal[i]]);

  /* frames on a private descriptor; stray prints go to stderr */
  wire_fd = dup (STDOUT_FILENO);
  dup2 (STDERR_FILENO, STDOUT_FILENO);
}

static void
put_strings (SlWireWriter *w,
             SlWireType    type,
             const char   *a,
             const char   *b)
{
  g_autofree char *sa = g_strdup (a != NULL ? a : "");
  g_autofree char *sb = g_strdup (b != NULL ? b : "");

  sl_wire_put (w, type, sa, strlen (sa) + 1, sb, strlen (sb) + 1);
}

/* ---------------------------------------------------------------------- */
/* Timeline events and strings                                             */

static guint32
intern_cb (gpointer    data,
           const char *str)
{
  Decoder *d = data;
  gpointer id;
  guint32 n;

  if (g_hash_table_lookup_extended (d->strings, str, NULL, &id))
    return GPOINTER_TO_UINT (id);
  n = g_hash_table_size (d->strings) + 1;
  g_hash_table_insert (d->strings, g_strdup (str), GUINT_TO_POINTER (n));
  sl_wire_put (&d->w, SL_WIRE_STRING, &n, sizeof n, str, strlen (str) + 1);
  return n;
}

static const SlBtEventSink event_sink = { intern_cb, NULL };

/* ---------------------------------------------------------------------- */
/* Steps                                                                   */

/* An input's port name (the key of its skip count) and the file of the
 * stream it reads, each time that file changes. */
static void
put_inputs (Decoder *d)
{
  guint n = d->graph != NULL ? sl_bt_graph_get_n_inputs (d->graph) : 0;

  if (d->sent_files->len < n)
    g_ptr_array_set_size (d->sent_files, n);
  for (guint i = 0; i < n; i++)
    {
      SlWireInput in = { i, sl_bt_graph_get_input_source (d->graph, i) };
      const char *name = sl_bt_graph_get_input_name (d->graph, i);
      const char *file = sl_bt_graph_get_input_file (d->graph, i);
      g_autoptr(GString) s = g_string_new (name != NULL ? name : "");

      if (d->sent_files->pdata[i] != NULL && g_strcmp0 (d->sent_files->pdata[i], file) == 0)
        continue;
      g_free (d->sent_files->pdata[i]);
      d->sent_files->pdata[i] = g_strdup (file != NULL ? file : "");
      g_string_append_c (s, '\0');
      g_string_append (s, file != NULL ? file : "");
      sl_wire_put (&d->w, SL_WIRE_INPUT, &in, sizeof in, s->str, s->len + 1);
    }
}

/* Between two steps: the reader may have paused this decoder (its
 * --threads, sl-decoder.c). A paused decoder waits here, using no
 * processor, until it is resumed; when its standard input ends (run by
 * hand, or the reader is gone) nobody can pause it any more. */
static void
obey_reader (void)
{
  static gboolean closed;
  gboolean paused = FALSE;

  while (!closed)
    {
      struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
      char buf[64];
      ssize_t n;
      int r = poll (&p, 1, paused ? -1 : 0);

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return;
      n = read (STDIN_FILENO, buf, sizeof buf);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0)
        {
          closed = TRUE;
          return;
        }
      for (ssize_t i = 0; i < n; i++)
        if (buf[i] == SL_DECODER_PAUSE || buf[i] == SL_DECODER_RESUME)
          paused = buf[i] == SL_DECODER_PAUSE;
      if (!paused)
        return;
    }
}

/* Writes what the step decoded and commits it. */
static gboolean
commit (Decoder    *d,
        SlWireStep  step)
{
  SlWireCommit c = { 0 };
  g_autofree guint64 *consumed = NULL;
  const SlEventPacket *infos;
  const SlEvent *events;
  guint n_events;
  gboolean ok;
  SlBatch *b;

  sl_feed_hub_lock (d->hub);
  while ((b = sl_feed_take_locked (d->feed)) != NULL)
    {
      if (b->n > 0)
        sl_wire_put (&d->w, SL_WIRE_PACKETS, b->ev, b->n * sizeof (SlPacketEvent), NULL, 0);
      sl_feed_recycle_locked (d->feed, b);
    }
  c.events = sl_feed_get_events_locked (d->feed);
  c.ignored = sl_feed_get_ignored_locked (d->feed);
  c.unusable = sl_feed_get_unusable_locked (d->feed);
  c.seen = sl_feed_get_position_locked (d->feed);
  c.first = G_MAXINT64;
  c.last = G_MININT64;
  if (d->graph != NULL)
    sl_bt_graph_get_span (d->graph, &c.first, &c.last);
  sl_feed_hub_unlock (d->hub);

  events = sl_bt_decoder_get_events (d->decoder, &n_events, &infos);
  for (guint off = 0, info = 0; off < n_events;)
    {
      guint n = MIN (n_events - off, SL_WIRE_MAX_FRAME / sizeof (SlEvent));
      guint n_info = 0;

      /* the packet events' ports and lengths first, then the events */
      for (guint i = off; i < off + n; i++)
        n_info += events[i].kind == SL_EVENT_PACKET_SEND || events[i].kind == SL_EVENT_PACKET_RECV;
      if (n_info > 0)
        sl_wire_put (&d->w, SL_WIRE_PACKET_INFO, infos + info, n_info * sizeof (SlEventPacket), NULL, 0);
      sl_wire_put_borrowed (&d->w, SL_WIRE_EVENTS, events + off, n * sizeof (SlEvent));
      off += n;
      info += n_info;
    }

  put_inputs (d);
  c.step = step;
  if (d->live)
    {
      gint64 now = g_get_monotonic_time ();

      if (now - d->answer_checked >= ANSWER_CHECK_US)
        {
          d->answered = sl_relay_last_answer ();
          d->answer_checked = now;
        }
      c.answered = d->answered;
    }
  c.n_inputs = d->graph != NULL ? sl_bt_graph_get_n_inputs (d->graph) : 0;
  consumed = g_new0 (guint64, MAX (c.n_inputs, 1));
  for (guint i = 0; i < c.n_inputs; i++)
    consumed[i] = sl_bt_graph_get_consumed (d->graph, i);
  sl_wire_put (&d->w, SL_WIRE_COMMIT, &c, sizeof c, consumed, c.n_inputs * sizeof (guint64));
  /* the events are written from the decoder's array */
  ok = sl_wire_flush (&d->w);
  sl_bt_decoder_clear_events (d->decoder);
  if (!ok)
    return FALSE;
  obey_reader ();
  return TRUE;
}

static int
fatal (Decoder    *d,
       const char *file,
       const char *why)
{
  put_strings (&d->w, SL_WIRE_FATAL, file, why);
  sl_wire_flush (&d->w);
  return 0;
}

static void
input_failed_cb (SlBtGraph  *graph,
                 guint       input,
                 guint64     packet,
                 const char *why,
                 gpointer    user_data)
{
  Decoder *d = user_data;
  SlWirePosition p = { input, 0, packet };
  const char *text = why != NULL && *why != '\0' ? why : "babeltrace2 failed";

  /* the file it failed in, if this step has not sent it yet */
  put_inputs (d);
  sl_wire_put (&d->w, SL_WIRE_INPUT_FAILED, &p, sizeof p, text, strlen (text) + 1);
}

static void
unusable_cb (SlBtGraph  *graph,
             const char *file,
             const char *why,
             gpointer    user_data)
{
  Decoder *d = user_data;
  const char *f = file != NULL ? file : "";

  sl_wire_put (&d->w, SL_WIRE_UNUSABLE, f, strlen (f) + 1, why, strlen (why) + 1);
}

static void
clock_cb (SlBtGraph            *graph,
          const bt_clock_class *cc,
          gpointer              user_data)
{
  Decoder *d = user_data;
  SlWireClock c = { 0 };
  const char *name = bt_clock_class_get_name (cc);
  bt_uuid uuid = NULL;
  int64_t s;
  uint64_t cycles;

  /* once per clock class */
  for (guint i = 0; i < d->clocks->len; i++)
    if (g_ptr_array_index (d->clocks, i) == cc)
      return;
  g_ptr_array_add (d->clocks, (gpointer) cc);

#if SL_BT_READS_CTF2
  /* MIP 1 (CTF 2) names a clock by a UID, the textual UUID of LTTng's
   * boot; MIP 0 by a UUID */
  if (bt_version_get_minor () >= 1 && bt_clock_class_get_graph_mip_version (cc) >= 1)
    {
      const char *uid = bt_clock_class_get_uid (cc);

      if (uid != NULL && g_uuid_string_is_valid (uid))
        {
          c.has_uuid = 1;
          for (guint i = 0, k = 0; uid[i] != '\0' && k < 16; i++)
            if (uid[i] != '-')
              {
                c.uuid[k++] = (guint8) (g_ascii_xdigit_value (uid[i]) << 4 | g_ascii_xdigit_value (uid[i + 1]));
                i++;
              }
        }
    }
  else
#endif
    uuid = bt_clock_class_get_uuid (cc);
  bt_clock_class_get_offset (cc, &s, &cycles);
  c.offset_s = s;
  c.offset_cycles = cycles;
  c.freq = bt_clock_class_get_frequency (cc);
  if (uuid != NULL)
    {
      c.has_uuid = 1;
      memcpy (c.uuid, uuid, 16);
    }
  sl_wire_put (&d->w, SL_WIRE_CLOCK, &c, sizeof c, name != NULL ? name : "", name != NULL ? strlen (name) + 1 : 1);
}

static void
packet_cb (SlBtGraph *graph,
           guint      input,
           guint64    packet,
           gpointer   user_data)
{
  const char *name = sl_bt_graph_get_input_file (graph, input);
  g_autofree char *suffix = g_strconcat ("/", fault_file, NULL);

  if (packet != fault_packet || name == NULL || !g_str_has_suffix (name, suffix))
    return;
  if (g_str_equal (fault_kind, "abort"))
    abort ();
  for (volatile guint64 spin = 0;; spin++)
    ;
}

static void
read_fault (void)
{
  const char *env = g_getenv ("SL_DECODER_FAULT");
  g_auto(GStrv) parts = env != NULL ? g_strsplit (env, ":", 3) : NULL;

  if (parts == NULL || g_strv_length (parts) != 3)
    return;
  fault_kind = g_strdup (parts[0]);
  fault_file = g_strdup (parts[1]);
  fault_packet = g_ascii_strtoull (parts[2], NULL, 10);
}

static void
decoder_init (Decoder  *d,
              gboolean  keep_events)
{
  SlBtEventSink sink = event_sink;

  sl_wire_writer_init (&d->w, wire_fd);
  d->hub = sl_feed_hub_new ();
  d->feed = sl_feed_new (d->hub);
  d->decoder = sl_bt_decoder_new ();
  d->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  d->clocks = g_ptr_array_new ();
  d->sent_files = g_ptr_array_new_with_free_func (g_free);
  if (keep_events)
    {
      sink.data = d;
      sl_bt_decoder_set_events (d->decoder, &sink);
    }
  current = d;
}

static void
decoder_clear (Decoder *d)
{
  current = NULL;
  sl_bt_graph_free (d->graph);
  sl_bt_decoder_free (d->decoder);
  sl_feed_free (d->feed);
  sl_feed_hub_free (d->hub);
  g_hash_table_destroy (d->strings);
  g_ptr_array_unref (d->clocks);
  g_ptr_array_unref (d->sent_files);
  sl_wire_writer_clear (&d->w);
}

/* ---------------------------------------------------------------------- */
/* Trace folders                                                           */

typedef struct
{
  gboolean    keep_events;
  gboolean    open_only;
  guint64     memory_limit;
  GPtrArray  *skip_names;
  GArray     *skip_counts;
  GPtrArray  *paths;
  guint       poll_ms;
  const char *url;
} Args;

static gboolean
parse_args (int    argc,
            char **argv,
            Args  *a)
{
  a->skip_names = g_ptr_array_new ();
  a->skip_counts = g_array_new (FALSE, FALSE, sizeof (guint64));
  a->paths = g_ptr_array_new ();
  a->poll_ms = 10;
  for (int i = 2; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--keep-events"))
        a->keep_events = TRUE;
      else if (g_str_equal (argv[i], "--open-only"))
        a->open_only = TRUE;
      else if (g_str_has_prefix (argv[i], "--memory-limit="))
        a->memory_limit = g_ascii_strtoull (argv[i] + 15, NULL, 10);
      else if (g_str_has_prefix (argv[i], "--poll-ms="))
        a->poll_ms = (guint) CLAMP (g_ascii_strtoull (argv[i] + 10, NULL, 10), 1, 10000);
      else if (g_str_has_prefix (argv[i], "--skip="))
        {
          char *end = NULL;
          guint64 n = g_ascii_strtoull (argv[i] + 7, &end, 10);

          if (end == NULL || *end != ':')
            return FALSE;
          g_array_append_val (a->skip_counts, n);
          g_ptr_array_add (a->skip_names, end + 1);
        }
      else if (g_str_equal (argv[i], "--"))
        {
          for (i++; i < argc; i++)
            g_ptr_array_add (a->paths, argv[i]);
        }
      else if (g_str_has_prefix (argv[i], "--"))
        return FALSE;
      else
        g_ptr_array_add (a->paths, argv[i]);
    }
  return a->paths->len > 0;
}

static void
args_clear (Args *a)
{
  g_ptr_array_unref (a->skip_names);
  g_array_unref (a->skip_counts);
  g_ptr_array_unref (a->paths);
}

/* Builds the graph; a trace babeltrace refuses is reported and left out.
 * FALSE when every trace was refused; TRUE without a graph after a fatal
 * failure (reported). */
static gboolean
build_trace_graph (Decoder  *d,
                   Args     *a,
                   gboolean *failed)
{
  SlBtGraphSpec spec = { 0 };

  spec.kind = SL_BT_SOURCE_FS;
  spec.inputs = (const char *const *) a->paths->pdata;
  spec.n_inputs = a->paths->len;
  spec.skip = failed;
  spec.feed = d->feed;
  spec.decoder = d->decoder;
  spec.flush = SL_FEED_FLUSH_ALL;
  spec.skip_names = (const char *const *) a->skip_names->pdata;
  spec.skip_counts = (const guint64 *) a->skip_counts->data;
  spec.n_skips = a->skip_names->len;
  spec.input_failed = input_failed_cb;
  spec.packet = fault_kind != NULL ? packet_cb : NULL;
  spec.unusable = unusable_cb;
  spec.user_data = d;

  for (;;)
    {
      g_autofree char *why = NULL;
      guint bad = G_MAXUINT, left = 0;

      for (guint i = 0; i < a->paths->len; i++)
        left += !failed[i];
      if (left == 0)
        return FALSE;
      d->graph = sl_bt_graph_new (&spec, &bad, &why);
      if (d->graph != NULL)
        return TRUE;
      if (bad == G_MAXUINT && a->open_only)
        {
          /* a probe: the inputs not refused opened (maybe without any
           * stream to read, which is no failure of theirs) */
          sl_wire_put (&d->w, SL_WIRE_END, NULL, 0, NULL, 0);
          sl_wire_flush (&d->w);
          d->graph = NULL;
          return TRUE;
        }
      if (bad == G_MAXUINT)
        {
          fatal (d, "", why != NULL && *why ? why : "cannot build the reader");
          d->graph = NULL;
          return TRUE;
        }
      failed[bad] = TRUE;
      sl_wire_put (&d->w, SL_WIRE_TRACE_FAILED, &bad, sizeof bad,
                   why != NULL ? why : "", why != NULL ? strlen (why) + 1 : 1);
    }
}

static int
run_trace (Decoder *d,
           Args    *a)
{
  g_autofree gboolean *failed = g_new0 (gboolean, a->paths->len);
  gint64 begin = G_MAXINT64, end = G_MININT64;
  SlWireStep step = SL_WIRE_STEP_OK;

  if (!build_trace_graph (d, a, failed))
    {
      /* every trace refused (each reported): nothing to decode */
      sl_wire_put (&d->w, SL_WIRE_END, NULL, 0, NULL, 0);
      sl_wire_flush (&d->w);
      return 0;
    }
  if (d->graph == NULL)
    return 0;
  if (a->open_only)
    {
      /* a probe (sl-trace-repair.c): which inputs babeltrace2 can open */
      sl_wire_put (&d->w, SL_WIRE_END, NULL, 0, NULL, 0);
      sl_wire_flush (&d->w);
      return 0;
    }
  put_inputs (d);
  for (guint i = 0; i < a->paths->len; i++)
    if (!failed[i])
      sl_bt_query_range (g_ptr_array_index (a->paths, i), &begin, &end);
  if (begin <= end)
    {
      gint64 r[2] = { begin, end };

      sl_wire_put (&d->w, SL_WIRE_RANGE, r, sizeof r, NULL, 0);
    }
  if (!sl_wire_flush (&d->w))
    return 0;

  while (step != SL_WIRE_STEP_END)
    {
      switch (sl_bt_graph_run_once (d->graph))
        {
        case SL_BT_RUN_OK:
          step = SL_WIRE_STEP_OK;
          break;
        case SL_BT_RUN_AGAIN:
          step = SL_WIRE_STEP_AGAIN;
          g_usleep (1000);
          break;
        case SL_BT_RUN_END:
          step = SL_WIRE_STEP_END;
          break;
        case SL_BT_RUN_ERROR:
        default:
          {
            g_autofree char *why = sl_bt_take_error ();

            commit (d, SL_WIRE_STEP_OK);
            return fatal (d, sl_bt_graph_get_error_file (d->graph), why);
          }
        }
      if (!commit (d, step))
        return 0;
    }
  sl_wire_put (&d->w, SL_WIRE_END, NULL, 0, NULL, 0);
  sl_wire_flush (&d->w);
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Live sessions                                                           */

static int
run_live (Decoder *d,
          Args    *a)
{
  g_autofree char *why = NULL;
  g_autofree char *url = sl_relay_forward_url (a->url, &why);
  const char *inputs[1];
  SlBtGraphSpec spec = { 0 };
  guint bad;

  if (url == NULL)
    return fatal (d, "", why);
  inputs[0] = url;
  spec.kind = SL_BT_SOURCE_LIVE;
  spec.inputs = inputs;
  spec.n_inputs = 1;
  spec.feed = d->feed;
  spec.decoder = d->decoder;
  spec.flush = SL_FEED_FLUSH_ALL;
  spec.clock = clock_cb;
  spec.user_data = d;
  d->live = TRUE;
  d->graph = sl_bt_graph_new (&spec, &bad, &why);
  if (d->graph == NULL)
    return fatal (d, "", why != NULL && *why ? why : "babeltrace2 refused");

  for (;;)
    {
      switch (sl_bt_graph_run_once (d->graph))
        {
        case SL_BT_RUN_OK:
          if (!commit (d, SL_WIRE_STEP_OK))
            return 0;
          break;
        case SL_BT_RUN_AGAIN:
          if (!commit (d, SL_WIRE_STEP_AGAIN))
            return 0;
          g_usleep ((gulong) a->poll_ms * 1000);
          break;
        case SL_BT_RUN_END:
          commit (d, SL_WIRE_STEP_END);
          sl_wire_put (&d->w, SL_WIRE_END, NULL, 0, NULL, 0);
          sl_wire_flush (&d->w);
          return 0;
        case SL_BT_RUN_ERROR:
        default:
          {
            g_autofree char *msg = sl_bt_take_error ();

            commit (d, SL_WIRE_STEP_OK);
            return fatal (d, "", msg != NULL && *msg ? msg : "connection to the relay failed");
          }
        }
    }
}

static guint64
value_uint (const bt_value *map,
            const char     *key)
{
  const bt_value *v;

  if (!bt_value_map_has_entry (map, key))
    return 0;
  v = bt_value_map_borrow_entry_value_const (map, key);
  if (bt_value_is_unsigned_integer (v))
    return bt_value_integer_unsigned_get (v);
  if (bt_value_is_signed_integer (v))
    return (guint64) MAX (bt_value_integer_signed_get (v), 0);
  return 0;
}

static const char *
value_string (const bt_value *map,
              const char     *key)
{
  const bt_value *v;

  if (!bt_value_map_has_entry (map, key))
    return NULL;
  v = bt_value_map_borrow_entry_value_const (map, key);
  return bt_value_is_string (v) ? bt_value_string_get (v) : NULL;
}

static void
put_sessions (Decoder        *d,
              const bt_value *result)
{
  for (guint64 i = 0; i < bt_value_array_get_length (result); i++)
    {
      const bt_value *m = bt_value_array_borrow_element_by_index_const (result, i);
      SlWireSession s;
      const char *host, *name;
      g_autoptr(GString) names = g_string_new (NULL);

      if (!bt_value_is_map (m))
        continue;
      host = value_string (m, "target-hostname");
      name = value_string (m, "session-name");
      if (host == NULL || name == NULL)
        continue;
      s.streams = value_uint (m, "stream-count");
      s.clients = value_uint (m, "client-count");
      s.timer_us = value_uint (m, "timer-us");
      g_string_append (names, host);
      g_string_append_c (names, '\0');
      g_string_append (names, name);
      sl_wire_put (&d->w, SL_WIRE_SESSION, &s, sizeof s, names->str, names->len + 1);
    }
}

/* The relay's session list (the reader kills this process if the relay
 * does not answer). */
static int
run_sessions (Decoder    *d,
              const char *relay)
{
  const char *why = NULL;
  const bt_component_class_source *cls = sl_bt_get_source_class (SL_BT_SOURCE_LIVE, &why);
  g_autofree char *fwd_why = NULL;
  g_autofree char *url = NULL;
  bt_value *params = NULL;
  const bt_value *result = NULL;
  bt_query_executor *q = NULL;
  bt_query_executor_query_status st = BT_QUERY_EXECUTOR_QUERY_STATUS_ERROR;

  if (cls == NULL)
    return fatal (d, "", why);
  url = sl_relay_forward_url (relay, &fwd_why);
  if (url == NULL)
    return fatal (d, "", fwd_why);
  params = bt_value_map_create ();
  if (params != NULL && bt_value_map_insert_string_entry (params, "url", url) == BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK)
    q = bt_query_executor_create (bt_component_class_source_as_component_class_const (cls), "sessions", params);
  if (q != NULL)
    {
      bt_query_executor_set_logging_level (q, BT_LOGGING_LEVEL_NONE);
      do
        st = BT_LEAKY (bt_query_executor_query (q, &result));
      while (st == BT_QUERY_EXECUTOR_QUERY_STATUS_AGAIN && (g_usleep (20000), TRUE));
    }
  if (st == BT_QUERY_EXECUTOR_QUERY_STATUS_OK && result != NULL && bt_value_is_array (result))
    {
      put_sessions (d, result);
      sl_wire_put (&d->w, SL_WIRE_END, NULL, 0, NULL, 0);
      sl_wire_flush (&d->w);
    }
  else
    {
      g_autofree char *msg = sl_bt_take_error ();

      fatal (d, "", msg != NULL ? msg : "");
    }
  bt_current_thread_clear_error ();
  bt_value_put_ref (result);
  bt_query_executor_put_ref (q);
  bt_value_put_ref (params);
  return 0;
}

/* ---------------------------------------------------------------------- */

int
main (int    argc,
      char **argv)
{
  SlWireHello hello = { SL_WIRE_VERSION, sizeof (SlPacketEvent), sizeof (SlEvent), (guint32) getpid () };
  Decoder d = { 0 };
  Args a = { 0 };
  int ret = 2;

  if (argc < 3 || !parse_args (argc, argv, &a))
    {
      g_printerr ("usage: syncline-decoder trace|live|sessions [OPTIONS] INPUT...\n"
                  "(run by syncline and syncline-cli, not by hand)\n");
      if (a.paths != NULL)
        args_clear (&a);
      return 2;
    }
  setup_process (a.memory_limit);
  read_fault ();
  decoder_init (&d, a.keep_events);
  sl_wire_put (&d.w, SL_WIRE_HELLO, &hello, sizeof hello, NULL, 0);

  if (g_str_equal (argv[1], "trace"))
    ret = run_trace (&d, &a);
  else if (g_str_equal (argv[1], "live") && a.paths->len == 1)
    {
      a.url = g_ptr_array_index (a.paths, 0);
      ret = run_live (&d, &a);
    }
  else if (g_str_equal (argv[1], "sessions") && a.paths->len == 1)
    ret = run_sessions (&d, g_ptr_array_index (a.paths, 0));
  else
    ret = fatal (&d, "", "syncline-decoder: unknown mode");

  decoder_clear (&d);
  args_clear (&a);
  g_free (fault_kind);
  g_free (fault_file);
  return ret;
}
