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

#include "sl-bt-graph.h"
#include "sl-heap.h"
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
 * Each host gets one babeltrace graph (sl-bt-graph.c: one src.ctf.fs per
 * trace, all their streams into Syncline's sink, which merges them by
 * event time and converts each event at once: TCP packet events into the
 * host's feed, scheduling/syscall/IRQ events into its SlEventStore).
 * Graphs run on a GThreadPool of one thread per core. A host's task runs
 * its graph until its bounded queue of batches is full, then parks (the
 * thread goes to another host); taking a batch from a parked host requeues
 * it. A worker never waits for the consumer, and the consumer (the
 * engine's thread, in sl_trace_reader_step()) never waits for a worker:
 * it returns AGAIN instead (sl-feed.c: the merge).
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
 * babeltrace2 2.0.4 pitfalls handled here (the others: sl-bt-graph.c)
 * -------------------------------------------------------------------
 * - It loops for ever on a truncated packetized metadata file: packets are
 *   checked before babeltrace sees the folder.
 * - A trace it refuses is left out and the host's graph built again
 *   without it.
 */

#define QUEUE_MAX              8
/* packet events held in the hosts' queues and in their calibration
 * read-ahead, all hosts together: with many hosts each gets less, so that
 * memory per host stays small (at least MIN_* each); nothing is merged
 * before every host's calibration packets are decoded, so they are fewer
 * than the queues' */
#define BUDGET_QUEUED          (512 * 1024)
#define BUDGET_CALIBRATION     (128 * 1024)
#define MIN_BATCH              64
#define MIN_CAL_PACKETS        256
/* SL_TRACE_SPILL_AUTO spills beyond this many hosts: a babeltrace2 graph
 * costs 1 to 3 MB (and far more with a real kernel's metadata) */
#define SPILL_HOSTS            256
#define SLICE_US               (50 * 1000)
#define DEFAULT_CAL_PACKETS    4096
#define CAL_SPAN_NS            (G_GINT64_CONSTANT (60) * 1000000000)
#define MAX_SCAN_FOLDERS       100000
#define MAX_SCAN_DEPTH         32
#define METADATA_MAGIC         0x75d11d57u
#define STREAM_MAGIC           0xc1fc1fc1u


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
  char    *path;
  char    *metadata;
  char    *hostname;
  char    *clock_uuid;
  char    *domain;
  guint64  bytes;
  /* a `syncline-cli extract` trace: the counts of the full one */
  gboolean extract;
  guint64  extract_events;
  guint64  extract_ignored;
  gboolean extract_has_span;
  gint64   extract_first;
  gint64   extract_last;
  gboolean failed;
} TraceDir;

typedef struct _Host Host;

struct _Host
{
  SlTraceReader  *reader;
  guint           index;
  char           *name;
  char           *hostname;
  char           *clock_uuid;
  GPtrArray      *traces;
  GPtrArray      *trace_paths;
  guint64         total_bytes;
  SlFeed         *feed;

  /* decoding: owned by the task that runs the host */
  SlBtGraph      *graph;
  SlBtDecoder    *decoder;
  SlEventStore   *store;
  gboolean        decode_failed;
  gboolean        stopped;

  /* read by any thread */
  _Atomic gint64  range_begin;
  _Atomic gint64  range_end;

  /* under the hub lock */
  gboolean        parked;

  /* consumer */
  gboolean        got_last;
  gboolean        cal_done;
  gboolean        all_extracts;
  guint64         extract_events;
  guint64         extract_ignored;
  gint64          extract_first;
  gint64          extract_last;
  guint64         cal_packets;
  gint64          cal_first;
  gint64          cal_last;
};

struct _SlTraceReader
{
  SlEngine             *engine;
  SlTraceReaderOptions  options;
  GPtrArray            *folders;
  GPtrArray            *hosts;
  GPtrArray            *feeds;
  GThread              *scan_thread;
  GThreadPool          *pool;
  State                 state;
  SlFeedHub            *hub;
  SlProblemList        *problems;

  /* under the hub lock */
  gboolean              scan_done;
  GPtrArray            *scanned;
  gint64                end_time;

  atomic_int            cancelled;
  gint64                start_time;

  guint                 queue_max;
  guint                 cal_packets;
  char                 *spill_dir;

  /* consumer */
  gboolean              cal_started;
  guint                 cal_left;
};

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
  va_list args;

  va_start (args, fmt);
  sl_problem_list_take (self->problems, sl_trace_problem_new_va (host, file, fmt, args));
  va_end (args);
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
  const bt_component_class_source *fs_class = sl_bt_get_source_class (SL_BT_SOURCE_FS, NULL);
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
      q = bt_query_executor_create (bt_component_class_source_as_component_class_const (fs_class),
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
  {
    g_autofree char *events = match_in (text, "env\\s*\\{[^}]*?syncline_extract_events\\s*=\\s*([0-9]+)\\s*;");
    g_autofree char *ignored = match_in (text, "env\\s*\\{[^}]*?syncline_extract_ignored\\s*=\\s*([0-9]+)\\s*;");

    t->extract = events != NULL && ignored != NULL;
    t->extract_events = t->extract ? g_ascii_strtoull (events, NULL, 10) : 0;
    t->extract_ignored = t->extract ? g_ascii_strtoull (ignored, NULL, 10) : 0;
  }
  {
    g_autofree char *first = match_in (text, "env\\s*\\{[^}]*?syncline_extract_span_first_ns\\s*=\\s*(-?[0-9]+)\\s*;");
    g_autofree char *last = match_in (text, "env\\s*\\{[^}]*?syncline_extract_span_last_ns\\s*=\\s*(-?[0-9]+)\\s*;");

    if (t->extract && first != NULL && last != NULL)
      {
        t->extract_first = g_ascii_strtoll (first, NULL, 10);
        t->extract_last = g_ascii_strtoll (last, NULL, 10);
        t->extract_has_span = t->extract_first <= t->extract_last;
      }
  }
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
  h->feed = sl_feed_new (self->hub);
  h->extract_first = G_MAXINT64;
  h->extract_last = G_MININT64;
  atomic_init (&h->range_begin, G_MAXINT64);
  atomic_init (&h->range_end, G_MININT64);
  return h;
}

static void
host_free (Host *h)
{
  g_free (h->name);
  g_free (h->hostname);
  g_free (h->clock_uuid);
  g_ptr_array_unref (h->traces);
  g_ptr_array_unref (h->trace_paths);
  sl_bt_graph_free (h->graph);
  sl_bt_decoder_free (h->decoder);
  sl_feed_free (h->feed);
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
      h->extract_events += t->extract_events;
      h->extract_ignored += t->extract_ignored;
      if (t->extract_has_span)
        {
          h->extract_first = MIN (h->extract_first, t->extract_first);
          h->extract_last = MAX (h->extract_last, t->extract_last);
        }
      h->all_extracts = (h->traces->len == 0 || h->all_extracts) && t->extract;
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
  const char *why = NULL;

  scan.reader = self;
  scan.visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  scan.traces = g_ptr_array_new ();

  if (sl_bt_get_source_class (SL_BT_SOURCE_FS, &why) == NULL)
    add_problem (self, NULL, "babeltrace2", "%s", why);
  else
    for (guint i = 0; i < self->folders->len; i++)
      {
        const char *folder = g_ptr_array_index (self->folders, i);
        guint before = scan.traces->len;
        guint problems_before = sl_problem_list_count (self->problems);

        scan_folder (&scan, folder, 0);
        if (scan.traces->len == before && sl_problem_list_count (self->problems) == problems_before)
          add_problem (self, NULL, folder, "no LTTng trace found (no folder with a metadata file below it)");
      }

  hosts = group_hosts (self, scan.traces);
  g_ptr_array_unref (scan.traces);
  g_hash_table_destroy (scan.visited);

  sl_feed_hub_lock (self->hub);
  self->scanned = hosts;
  self->scan_done = TRUE;
  sl_feed_hub_unlock (self->hub);
  sl_feed_hub_signal (self->hub);
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

/* Builds the graph with the traces not marked failed; a trace babeltrace
 * refuses is marked, reported and the graph built again without it. */
static gboolean
host_build_graph (Host *h)
{
  SlTraceReader *self = h->reader;
  guint n = h->traces->len;
  g_autofree const char **paths = g_new0 (const char *, n);
  g_autofree gboolean *skip = g_new0 (gboolean, n);
  SlBtGraphSpec spec = { 0 };

  spec.kind = SL_BT_SOURCE_FS;
  spec.inputs = paths;
  spec.n_inputs = n;
  spec.skip = skip;
  spec.feed = h->feed;
  spec.decoder = h->decoder;
  spec.flush = SL_FEED_FLUSH_IF_WANTED;

  for (;;)
    {
      g_autofree char *why = NULL;
      guint failed = G_MAXUINT, left = 0;

      for (guint i = 0; i < n; i++)
        {
          TraceDir *t = g_ptr_array_index (h->traces, i);

          paths[i] = t->path;
          skip[i] = t->failed;
          left += !t->failed;
        }
      if (left == 0)
        return FALSE;

      h->graph = sl_bt_graph_new (&spec, &failed, &why);
      if (h->graph != NULL)
        break;
      if (failed == G_MAXUINT)
        {
          add_problem (self, h->name, g_ptr_array_index (h->trace_paths, 0), "%s",
                       why != NULL && *why ? why : "cannot build the reader");
          return FALSE;
        }
      {
        TraceDir *t = g_ptr_array_index (h->traces, failed);
        g_autofree char *file = file_in_message (why, t->path);

        t->failed = TRUE;
        add_problem (self, h->name, file, "cannot open the trace: %s; trace skipped",
                     why != NULL && *why ? why : "babeltrace2 refused it");
      }
    }

  for (guint i = 0; i < n; i++)
    if (!skip[i])
      {
        gint64 b = G_MAXINT64, e = G_MININT64;

        sl_bt_query_range (paths[i], &b, &e);
        if (b < atomic_load (&h->range_begin))
          atomic_store (&h->range_begin, b);
        if (e > atomic_load (&h->range_end))
          atomic_store (&h->range_end, e);
      }
  return TRUE;
}

static void
host_finish (Host *h)
{
  g_clear_pointer (&h->graph, sl_bt_graph_free);
  sl_feed_publish (h->feed, SL_FEED_FLUSH_LAST);
}

static void
host_failed (Host *h)
{
  SlTraceReader *self = h->reader;
  g_autofree char *why = sl_bt_take_error ();
  g_autofree char *file = NULL;
  const char *stream = sl_bt_graph_get_error_file (h->graph);

  /* babeltrace names the file in some messages; otherwise the stream that
   * failed is the one the sink was reading */
  for (guint i = 0; i < h->trace_paths->len && file == NULL; i++)
    if (why != NULL && strstr (why, g_ptr_array_index (h->trace_paths, i)) != NULL)
      file = file_in_message (why, g_ptr_array_index (h->trace_paths, i));
  if (file == NULL && stream != NULL && *stream != '\0')
    file = g_strdup (stream);
  if (file == NULL)
    file = g_strdup (g_ptr_array_index (h->trace_paths, 0));
  h->stopped = TRUE;
  add_problem (self, h->name, file,
               "decoding stopped after %" G_GUINT64_FORMAT " events (truncated or corrupt stream?): %s",
               sl_feed_get_events_local (h->feed), why != NULL && *why ? why : "babeltrace2 failed");
}

/* Called when the consumer takes a batch (hub locked): a parked host runs
 * again. */
static void
host_taken_cb (SlFeed   *feed,
               gpointer  data)
{
  Host *h = data;
  SlTraceReader *self = h->reader;

  if (h->parked && sl_feed_get_queued_locked (feed) < self->queue_max && !atomic_load (&self->cancelled))
    {
      h->parked = FALSE;
      g_thread_pool_push (self->pool, h, NULL);
    }
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
      SlBtRunStatus st;
      gboolean full;

      if (atomic_load (&self->cancelled))
        {
          host_finish (h);
          return;
        }

      st = sl_bt_graph_run_once (h->graph);
      if (st == SL_BT_RUN_END)
        {
          host_finish (h);
          return;
        }
      if (st == SL_BT_RUN_AGAIN)
        g_usleep (1000);
      else if (st != SL_BT_RUN_OK)
        {
          host_failed (h);
          host_finish (h);
          return;
        }

      /* Pool calls under the lock and only when not cancelled: the pool
       * is freed after the cancel flag is set and the lock taken. */
      sl_feed_hub_lock (self->hub);
      full = sl_feed_get_queued_locked (h->feed) >= self->queue_max;
      if (atomic_load (&self->cancelled))
        full = FALSE;
      else if (full)
        h->parked = TRUE;
      else if (self->spill_dir == NULL && g_get_monotonic_time () > slice_end &&
               g_thread_pool_unprocessed (self->pool) > 0)
        {
          /* let the other hosts' tasks run too */
          g_thread_pool_push (self->pool, h, NULL);
          full = TRUE;
        }
      sl_feed_hub_unlock (self->hub);
      if (full)
        return;
    }
}


/* ---------------------------------------------------------------------- */
/* Consumer: calibration and merge                                         */

static gboolean
calibration_enough (SlTraceReader *self,
                    Host          *h)
{
  return h->got_last ||
         h->cal_packets >= self->cal_packets ||
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

/* Calls @func on the host's calibration packets: the read-ahead up to
 * calibration_packets or CAL_SPAN_NS, whatever the batches' sizes, so
 * that the hints do not depend on how the decoders' batches fell. */
static void
foreach_cal_packet (SlTraceReader *self,
                    Host          *h,
                    void         (*func) (const SlPacketEvent *e,
                                          gpointer             data),
                    gpointer       data)
{
  guint64 count = 0;
  gint64 first = 0;

  for (GList *l = sl_feed_get_read_ahead (h->feed)->head; l != NULL; l = l->next)
    {
      SlBatch *b = l->data;

      for (guint k = 0; k < b->n; k++)
        {
          const SlPacketEvent *e = &b->ev[k];

          if (count++ == 0)
            first = e->time;
          func (e, data);
          if (count >= self->cal_packets || e->time - first >= CAL_SPAN_NS)
            return;
        }
    }
}

typedef struct
{
  GHashTable *sends;
  GHashTable *diffs;
  guint       host;
} CalPairing;

static void
cal_send_cb (const SlPacketEvent *e,
             gpointer             data)
{
  CalPairing *c = data;
  CalKey key;

  if (e->dir != SL_PACKET_SEND)
    return;
  cal_key_init (&key, e);
  if (!g_hash_table_contains (c->sends, &key))
    {
      gint64 *v = g_new (gint64, 2);

      v[0] = c->host;
      v[1] = e->time;
      g_hash_table_insert (c->sends, g_memdup2 (&key, sizeof key), v);
    }
}

/* diffs[(a, b)]: recv_b - send_a */
static void
cal_recv_cb (const SlPacketEvent *e,
             gpointer             data)
{
  CalPairing *c = data;
  gint64 *v, d;
  guint64 pair;
  GArray *arr;
  CalKey key;

  if (e->dir == SL_PACKET_SEND)
    return;
  cal_key_init (&key, e);
  v = g_hash_table_lookup (c->sends, &key);
  if (v == NULL || v[0] == c->host)
    return;
  pair = (guint64) v[0] << 32 | c->host;
  arr = g_hash_table_lookup (c->diffs, &pair);
  if (arr == NULL)
    {
      arr = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (c->diffs, g_memdup2 (&pair, sizeof pair), arr);
    }
  d = e->time - v[1];
  g_array_append_val (arr, d);
}

static GArray *
cal_diffs (GHashTable *diffs,
           guint       a,
           guint       b)
{
  guint64 pair = (guint64) a << 32 | b;

  return g_hash_table_lookup (diffs, &pair);
}

/* A candidate tree edge of Prim's algorithm: the most pairs first, then
 * the lowest hosts, as a scan of every pair in index order would choose. */
typedef struct
{
  guint count;
  guint a;
  guint b;
} CalEdge;

static gboolean
cal_edge_before (gconstpointer x,
                 gconstpointer y)
{
  const CalEdge *p = x, *q = y;

  if (p->count != q->count)
    return p->count > q->count;
  return p->a != q->a ? p->a < q->a : p->b < q->b;
}

static void
push_cal_edges (GArray        *heap,
                GArray *const *adjacent,
                GHashTable    *diffs,
                const gboolean *reached,
                guint          a)
{
  for (guint k = 0; adjacent[a] != NULL && k < adjacent[a]->len; k++)
    {
      guint b = g_array_index (adjacent[a], guint, k);
      GArray *ab = cal_diffs (diffs, a, b), *ba = cal_diffs (diffs, b, a);
      CalEdge e = { (ab ? ab->len : 0) + (ba ? ba->len : 0), a, b };

      if (!reached[b])
        sl_heap_push (heap, &e, sizeof e, cal_edge_before);
    }
}

/* Offset hints from the calibration packets (see the top of the file).
 * Memory and time follow the pairs found, not the square of the hosts. */
static void
compute_hints (SlTraceReader *self)
{
  guint n = self->hosts->len;
  g_autoptr(GHashTable) sends = g_hash_table_new_full (cal_key_hash, cal_key_equal, g_free, g_free);
  g_autoptr(GHashTable) diffs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, array_unref0);
  g_autoptr(GArray) heap = g_array_new (FALSE, FALSE, sizeof (CalEdge));
  g_autofree gboolean *reached = NULL;
  g_autofree GArray **adjacent = NULL;
  CalPairing c = { sends, diffs, 0 };
  GHashTableIter it;
  gpointer key;

  if (n < 2)
    return;

  for (c.host = 0; c.host < n; c.host++)
    foreach_cal_packet (self, g_ptr_array_index (self->hosts, c.host), cal_send_cb, &c);
  for (c.host = 0; c.host < n; c.host++)
    foreach_cal_packet (self, g_ptr_array_index (self->hosts, c.host), cal_recv_cb, &c);

  /* each pair once in both hosts' lists */
  adjacent = g_new0 (GArray *, n);
  g_hash_table_iter_init (&it, diffs);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      guint a = (guint) (*(guint64 *) key >> 32), b = (guint) *(guint64 *) key;

      if (a > b && cal_diffs (diffs, b, a) != NULL)
        continue;
      for (guint side = 0; side < 2; side++)
        {
          guint from = side == 0 ? a : b, to = side == 0 ? b : a;

          if (adjacent[from] == NULL)
            adjacent[from] = g_array_new (FALSE, FALSE, sizeof (guint));
          g_array_append_val (adjacent[from], to);
        }
    }

  /* Prim's algorithm on the number of pairs, from the first host of each
   * component: hint_b = hint_a + offset_ab, offset_ab ~ t_b - t_a. */
  reached = g_new0 (gboolean, n);
  for (guint root = 0; root < n; root++)
    {
      CalEdge e;

      if (reached[root])
        continue;
      reached[root] = TRUE;
      sl_feed_set_hint (((Host *) g_ptr_array_index (self->hosts, root))->feed, 0);
      push_cal_edges (heap, adjacent, diffs, reached, root);

      while (sl_heap_pop (heap, &e, sizeof e, cal_edge_before))
        {
          GArray *ab = cal_diffs (diffs, e.a, e.b), *ba = cal_diffs (diffs, e.b, e.a);
          Host *ha = g_ptr_array_index (self->hosts, e.a);
          Host *hb = g_ptr_array_index (self->hosts, e.b);
          gint64 off;

          if (reached[e.b])
            continue;
          if (ab != NULL && ab->len > 0 && ba != NULL && ba->len > 0)
            off = median (ab) / 2 - median (ba) / 2;
          else if (ab != NULL && ab->len > 0)
            off = median (ab);
          else
            off = -median (ba);
          sl_feed_set_hint (hb->feed, sl_feed_get_hint (ha->feed) + off);
          reached[e.b] = TRUE;
          push_cal_edges (heap, adjacent, diffs, reached, e.b);
        }
    }
  for (guint i = 0; i < n; i++)
    if (adjacent[i] != NULL)
      g_array_unref (adjacent[i]);
}

/* Batches, queues and calibration sized to the number of hosts (see
 * BUDGET_QUEUED): 8 batches of 1024 up to ~100 hosts, 2 of 64 at 10 000. */
static void
size_queues (SlTraceReader *self)
{
  guint n = MAX (self->hosts->len, 1);
  guint per_host = MAX (BUDGET_QUEUED / n, 2 * MIN_BATCH);
  guint batch = CLAMP (per_host / 4, MIN_BATCH, SL_BATCH_CAP);

  sl_feed_hub_set_batch_size (self->hub, batch);
  self->queue_max = CLAMP (per_host / batch - 1, 1, QUEUE_MAX);
  self->cal_packets = self->options.calibration_packets != 0
                      ? self->options.calibration_packets
                      : CLAMP (BUDGET_CALIBRATION / n, MIN_CAL_PACKETS, DEFAULT_CAL_PACKETS);
}

/* With SL_TRACE_SPILL_*: each host's packet events to a temporary file. */
static void
set_up_spill (SlTraceReader *self)
{
  g_autoptr(GError) error = NULL;
  gboolean spill = self->options.spill == SL_TRACE_SPILL_ALWAYS ||
                   (self->options.spill == SL_TRACE_SPILL_AUTO && !self->options.keep_events &&
                    self->hosts->len > SPILL_HOSTS);

  if (!spill)
    return;
  self->spill_dir = g_dir_make_tmp ("syncline-spill-XXXXXX", &error);
  if (self->spill_dir == NULL)
    {
      add_problem (self, NULL, g_get_tmp_dir (), "cannot make a folder for temporary files (%s); "
                   "every host's decoder stays open", error->message);
      return;
    }
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);
      g_autofree char *name = g_strdup_printf ("host-%u", i);
      g_autofree char *path = g_build_filename (self->spill_dir, name, NULL);

      sl_feed_set_spill (h->feed, path);
    }
}

static void
register_hosts (SlTraceReader *self)
{
  size_queues (self);
  set_up_spill (self);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);

      sl_feed_set_engine_host (h->feed, sl_engine_add_host (self->engine, h->name));
      sl_feed_set_take_func (h->feed, host_taken_cb, h);
      sl_feed_set_data (h->feed, h);
      g_ptr_array_add (self->feeds, h->feed);
      if (self->options.keep_events)
        {
          h->store = sl_event_store_new ();
          sl_bt_decoder_set_store (h->decoder, h->store);
        }
    }
  for (guint i = 0; i < self->hosts->len; i++)
    g_thread_pool_push (self->pool, g_ptr_array_index (self->hosts, i), NULL);
}

/* Reads ahead what the host has published, up to enough for the
 * calibration (hub locked). */
static gboolean
calibrate_host_locked (SlTraceReader *self,
                       Host          *h)
{
  SlBatch *b;

  while (!calibration_enough (self, h) && (b = sl_feed_read_ahead_locked (h->feed)) != NULL)
    {
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
  if (calibration_enough (self, h))
    return TRUE;
  sl_feed_want (h->feed);
  return FALSE;
}

/* Reads ahead a few thousand packet events per host (see the top of the
 * file); TRUE when every host has enough. After the first call, only the
 * hosts that published since are looked at. */
static gboolean
calibrate (SlTraceReader *self)
{
  g_autoptr(GPtrArray) published = g_ptr_array_new ();
  gboolean all;

  sl_feed_hub_lock (self->hub);
  sl_feed_hub_take_published_locked (self->hub, published);
  if (!self->cal_started)
    {
      self->cal_started = TRUE;
      self->cal_left = self->hosts->len;
      for (guint i = 0; i < self->hosts->len; i++)
        g_ptr_array_add (published, ((Host *) g_ptr_array_index (self->hosts, i))->feed);
    }
  for (guint i = 0; i < published->len; i++)
    {
      Host *h = sl_feed_get_data (g_ptr_array_index (published, i));

      if (h != NULL && !h->cal_done && calibrate_host_locked (self, h))
        {
          h->cal_done = TRUE;
          self->cal_left--;
        }
    }
  all = self->cal_left == 0;
  if (!all)
    sl_feed_hub_set_waiting_locked (self->hub);
  sl_feed_hub_unlock (self->hub);

  return all;
}

/* The events an extract's host had, not only its packet events, and
 * their span. */
static void
account_extracts (SlTraceReader *self)
{
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);
      guint eh = sl_feed_get_engine_host (h->feed);
      SlHostCounts c;

      if (!h->all_extracts || h->decode_failed || h->stopped)
        continue;
      sl_engine_get_host_counts (self->engine, eh, &c);
      if (h->extract_events >= c.events)
        sl_engine_add_host_counts (self->engine, eh, h->extract_events - c.events, h->extract_ignored);
      if (h->extract_first <= h->extract_last)
        sl_engine_add_host_span (self->engine, eh, h->extract_first, h->extract_last);
    }
}

static void
finish_merge (SlTraceReader *self)
{
  account_extracts (self);
  sl_feed_hub_lock (self->hub);
  self->end_time = g_get_monotonic_time ();
  sl_feed_hub_unlock (self->hub);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *h = g_ptr_array_index (self->hosts, i);

      if (sl_feed_get_spill_lost (h->feed) > 0)
        add_problem (self, h->name, self->spill_dir,
                     "%" G_GUINT64_FORMAT " packet events lost: their temporary file went away",
                     sl_feed_get_spill_lost (h->feed));
      if (sl_feed_get_fed (h->feed) == 0 && !h->decode_failed && !h->stopped && !atomic_load (&self->cancelled))
        add_problem (self, h->name, h->trace_paths->len == 1 ? g_ptr_array_index (h->trace_paths, 0) : h->hostname,
                     "no TCP packet events (net_dev_queue/net_if_receive_skb, inet_sock_local_*, "
                     "syncline_net:tcp_*); the host cannot be synchronized");
    }
}

static SlTraceReaderStatus
merge (SlTraceReader *self,
       gint64         deadline)
{
  SlFeedMerge m = { 0 };

  m.feeds = (SlFeed **) self->feeds->pdata;
  m.n_feeds = self->feeds->len;
  m.engine = self->engine;
  m.packet_func = self->options.packet_func;
  m.packet_data = self->options.packet_data;
  m.hold_us = -1;
  m.deadline = deadline;
  m.cancelled = &self->cancelled;
  switch (sl_feed_merge (self->hub, &m))
    {
    case SL_FEED_MERGE_DONE:
      finish_merge (self);
      self->state = STATE_DONE;
      return SL_TRACE_READER_DONE;
    case SL_FEED_MERGE_CANCELLED:
      return SL_TRACE_READER_CANCELLED;
    case SL_FEED_MERGE_BUSY:
      return SL_TRACE_READER_BUSY;
    case SL_FEED_MERGE_WAIT:
    case SL_FEED_MERGE_HOLD:
    default:
      return SL_TRACE_READER_AGAIN;
    }
}


/* ---------------------------------------------------------------------- */
/* Public API                                                              */

void
sl_trace_reader_options_init (SlTraceReaderOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->n_threads = 0;
  options->keep_events = FALSE;
  options->calibration_packets = 0;
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
  self->folders = g_ptr_array_new_with_free_func (g_free);
  self->hosts = g_ptr_array_new ();
  self->feeds = g_ptr_array_new ();
  self->hub = sl_feed_hub_new ();
  self->problems = sl_problem_list_new ();
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
    host_free (g_ptr_array_index (self->hosts, i));
  g_ptr_array_unref (self->hosts);
  g_ptr_array_unref (self->feeds);
  if (self->scanned != NULL && self->scanned != self->hosts)
    {
      for (guint i = 0; i < self->scanned->len; i++)
        host_free (g_ptr_array_index (self->scanned, i));
      g_ptr_array_unref (self->scanned);
    }
  if (self->spill_dir != NULL)
    g_rmdir (self->spill_dir);
  g_free (self->spill_dir);
  g_ptr_array_unref (self->folders);
  sl_problem_list_free (self->problems);
  sl_feed_hub_free (self->hub);
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

  sl_feed_hub_set_wakeup (self->hub, wakeup, user_data);
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

      sl_feed_hub_lock (self->hub);
      done = self->scan_done;
      if (done)
        {
          g_ptr_array_unref (self->hosts);
          self->hosts = g_steal_pointer (&self->scanned);
        }
      else
        sl_feed_hub_set_waiting_locked (self->hub);
      sl_feed_hub_unlock (self->hub);
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
          g_debug ("merge offset hint of %s: %" G_GINT64_FORMAT " ns", h->name, sl_feed_get_hint (h->feed));
        }
      self->state = STATE_MERGING;
    }

  return merge (self, deadline);
}

void
sl_trace_reader_wait (SlTraceReader *self,
                      gint64         timeout_us)
{
  g_return_if_fail (self != NULL);

  sl_feed_hub_wait (self->hub, g_get_monotonic_time () + timeout_us, &self->cancelled);
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
  sl_feed_hub_signal (self->hub);
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

  sl_feed_hub_lock (self->hub);
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
          gint64 pos = sl_feed_get_position_locked (h->feed);
          double f = 0;

          /* by decoding position in the host's time range, weighted by
           * the host's stream bytes */
          p->events += sl_feed_get_events_locked (h->feed);
          if (sl_feed_get_finished_locked (h->feed))
            {
              p->hosts_done++;
              f = 1;
            }
          else if (e > b && pos > b)
            f = MIN (1.0, ((double) pos - (double) b) / ((double) e - (double) b));
          bytes += f * (double) MAX (h->total_bytes, 1);
          total += (double) MAX (h->total_bytes, 1);
        }
    }
  sl_feed_hub_unlock (self->hub);

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
  g_return_val_if_fail (self != NULL, NULL);

  return sl_problem_list_dup (self->problems);
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
  return h != NULL ? sl_feed_get_engine_host (h->feed) : SL_HOST_NONE;
}

const GPtrArray *
sl_trace_reader_get_host_traces (SlTraceReader *self,
                                 guint          index)
{
  Host *h = get_host (self, index);
  return h != NULL ? h->trace_paths : NULL;
}

/* The trace environment's hostname and the clock UUID (or %NULL) that
 * make the host. */
void
sl_trace_reader_get_host_identity (SlTraceReader  *self,
                                   guint           index,
                                   const char    **hostname,
                                   const char    **clock_uuid)
{
  Host *h = get_host (self, index);

  *hostname = h != NULL ? h->hostname : NULL;
  *clock_uuid = h != NULL ? h->clock_uuid : NULL;
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
  return h != NULL ? sl_feed_get_hint (h->feed) : 0;
}
