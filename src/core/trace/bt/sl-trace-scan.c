/* sl-trace-scan.c: trace folders found and checked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sl-cpu-time.h"
#include "sl-parallel.h"
#include "sl-ctf-meta.h"
#include "sl-ctf2.h"
#include "sl-ctf-scan.h"
#include "sl-safe-io.h"
#include "sl-trace-reader-private.h"

/*
 * A scan thread finds the trace folders below the inputs (a folder with a
 * `metadata` file) and checks each trace before a decoder sees it: its
 * metadata read safely (sl-ctf-meta.c: never a FIFO, bounded, truncated
 * or damaged packets refused), parsed and checked for what babeltrace2
 * 2.0.4 cannot survive (sl-tsdl.c), every packet of every stream file
 * checked (sl-ctf-scan.c). A damaged stream loses the damaged packet and
 * what follows, with a warning naming the file and the offset; a file of
 * another trace (foreign metadata) is left out. What is good goes into
 * the trace's view (sl-trace-view.c). The traces are then grouped into
 * hosts (sl-trace-group.c).
 *
 * The walk through the folders is one thread's; the traces it finds are
 * checked on several (sl_parallel_for_at_most(): most of a trace's time
 * is its metadata parsed), each into its own item with its problems, and
 * the items are then taken in the walk's order: the traces, the hosts
 * and every problem come out the same whatever the number of threads.
 */

#define MAX_SCAN_FOLDERS       100000
#define MAX_SCAN_DEPTH         32
#define STREAM_MAGIC           0xc1fc1fc1u

/* A place in the walk's order: a trace folder to check, or problems
 * the walk met */
typedef struct
{
  char      *dir;       /* NULL: the walk's problems only */
  GPtrArray *problems;  /* SlTraceProblem, in the order they were met */
  TraceDir  *trace;     /* the trace checked, if kept */
} ScanItem;

typedef struct
{
  SlTraceReader *reader;
  GHashTable    *visited;
  GArray        *items;   /* ScanItem */
  guint          folder_first; /* the first item of the folder walked */
  guint          n_traces;
  guint          n_folders;
  gboolean       gave_up;
  _Atomic gint64 check_us;
} Scan;

static void
scan_item_clear (gpointer p)
{
  ScanItem *item = p;

  g_free (item->dir);
  if (item->problems != NULL)
    g_ptr_array_unref (item->problems);
  if (item->trace != NULL)
    sl_trace_dir_free (item->trace);
}

static void
item_problem_va (ScanItem   *item,
                 const char *host,
                 const char *file,
                 const char *fmt,
                 va_list     args)
{
  if (item->problems == NULL)
    item->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);
  g_ptr_array_add (item->problems, sl_trace_problem_new_va (host, file, fmt, args));
}

static void item_problem (ScanItem   *item,
                          const char *host,
                          const char *file,
                          const char *fmt,
                          ...) G_GNUC_PRINTF (4, 5);

/* A problem of the trace being checked (any scan thread). */
static void
item_problem (ScanItem   *item,
              const char *host,
              const char *file,
              const char *fmt,
              ...)
{
  va_list args;

  va_start (args, fmt);
  item_problem_va (item, host, file, fmt, args);
  va_end (args);
}

static void walk_problem (Scan       *scan,
                          const char *host,
                          const char *file,
                          const char *fmt,
                          ...) G_GNUC_PRINTF (4, 5);

/* A problem the walk meets, in its place among the traces found. */
static void
walk_problem (Scan       *scan,
              const char *host,
              const char *file,
              const char *fmt,
              ...)
{
  GArray *items = scan->items;
  va_list args;

  /* A folder's problems never join the previous folder's last item:
   * each folder given is told "no LTTng trace found" by its own items */
  if (items->len == scan->folder_first || g_array_index (items, ScanItem, items->len - 1).dir != NULL)
    g_array_set_size (items, items->len + 1);
  va_start (args, fmt);
  item_problem_va (&g_array_index (items, ScanItem, items->len - 1), host, file, fmt, args);
  va_end (args);
}

void
sl_trace_dir_free (gpointer p)
{
  TraceDir *t = p;

  g_free (t->path);
  g_free (t->metadata);
  g_free (t->text);
  g_free (t->open_error);
  g_free (t->hostname);
  g_free (t->clock_uuid);
  g_free (t->domain);
  g_free (t->view);
  if (t->streams != NULL)
    g_ptr_array_unref (t->streams);
  g_free (t);
}

/* for g_ptr_array_sort(), which passes pointers to the elements */
static int
cmp_names (gconstpointer a,
           gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
stream_free (gpointer p)
{
  sl_ctf_stream_clear (p);
  g_free (p);
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

  /* CTF 2: a JSON environment */
  if (name == NULL)
    name = match_in (text, "\"hostname\"\\s*:\\s*\"([^\"\\n]*)\"");
  if (name != NULL && *name != '\0' && g_utf8_validate (name, -1, NULL))
    return name;
  g_free (name);
  return g_strdup_printf ("unknown (%s)", dir);
}

static gboolean
looks_like_stream (const char *path)
{
  guint32 m = 0;
  int fd = sl_safe_open_regular (path, NULL, NULL);
  gboolean yes;

  if (fd < 0)
    return FALSE;
  yes = read (fd, &m, 4) == 4 && (m == STREAM_MAGIC || GUINT32_SWAP_LE_BE (m) == STREAM_MAGIC);
  close (fd);
  return yes;
}

/* Why a metadata file cannot be read, one line. */
static char *
metadata_problem (SlCtfMetaStatus  st,
                  gboolean         packetized,
                  const char      *why)
{
  if (st == SL_CTF_META_CTF2 && packetized)
    return g_strdup ("a CTF 2 trace whose metadata is in packets: babeltrace2 2.1, which decodes CTF 2 for "
                     "Syncline, reads CTF 2 metadata only as a plain JSON text sequence (as LTTng 2.15 and "
                     "2.16 write it); trace skipped");
  if (st == SL_CTF_META_CTF2)
    return g_strdup_printf ("a CTF 2 trace (LTTng 2.15's default format): babeltrace2 %s, which decodes for "
                            "Syncline, reads CTF 1.8 only, CTF 2 needs babeltrace2 2.1 or later; record CTF 1.8 "
                            "instead (lttng create SESSION --trace-format=ctf-1.8, or lttng-sessiond "
                            "--default-trace-format=ctf-1.8); trace skipped", SL_BABELTRACE_VERSION);
  return g_strdup_printf ("%s; trace skipped", why);
}

static char *
uuid_string (const guint8 *u)
{
  return g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                          u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7],
                          u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* The clock the packets' timestamps read: its UUID is the boot, its
 * offset says where the host's clock was when the session began. */
static void
trace_clock (TraceDir     *t,
             const SlTsdl *tsdl)
{
  const SlTsdlClock *c = NULL;
  int index = -1;

  if (sl_tsdl_get_n_streams (tsdl) > 0)
    index = sl_tsdl_get_layout (tsdl, 0)->f[SL_TSDL_F_TS_BEGIN].clock;
  if (index < 0 && sl_tsdl_get_n_clocks (tsdl) > 0)
    index = 0;
  if (index < 0)
    return;
  c = sl_tsdl_get_clock (tsdl, (guint) index);
  if (c->has_uuid)
    t->clock_uuid = uuid_string (c->uuid);
  t->has_offset = sl_tsdl_clock_ns (c, 0, &t->offset_ns);
  t->freq = c->freq;
  t->offset_s = c->offset_s;
  t->offset = c->offset;
  memcpy (t->offset_s_span, c->offset_s_span, sizeof t->offset_s_span);
  memcpy (t->offset_span, c->offset_span, sizeof t->offset_span);
}

/* One stream file checked; FALSE when it is left out (reported). */
static gboolean
scan_stream (ScanItem     *item,
             TraceDir     *t,
             const SlTsdl *tsdl,
             const char   *path,
             SlCtfStream  *s)
{
  g_autoptr(GError) error = NULL;

  if (!sl_safe_is_regular (path))
    {
      g_autofree char *what = sl_safe_describe (path);

      item_problem (item, t->hostname, path, "%s, not a stream file; left out", what);
      return FALSE;
    }
  if (!sl_ctf_scan_stream (tsdl, path, s, &error))
    {
      item_problem (item, t->hostname, path, "cannot read the stream file: %s; left out",
                    error->message);
      return FALSE;
    }
  if (s->foreign)
    return FALSE;
  if (s->problem != NULL && s->good_bytes == 0)
    item_problem (item, t->hostname, path, "%s; the file is left out", s->problem);
  else if (s->problem != NULL)
    item_problem (item, t->hostname, path,
                  "%s; the rest of the file (%" G_GUINT64_FORMAT " bytes) is left out, its first %u "
                  "packets are kept", s->problem, s->size - s->good_bytes, s->n_packets);
  /* an empty stream file is a stream without packets yet */
  return s->good_bytes > 0 || (s->size == 0 && s->problem == NULL);
}

/* The stream files beside the metadata, checked; the foreign ones named.
 * Returns how many were left out for damage before their first packet. */
static guint
scan_streams (ScanItem     *item,
              TraceDir     *t,
              const SlTsdl *tsdl,
              GPtrArray    *foreign)
{
  g_autoptr(GDir) d = g_dir_open (t->path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint damaged = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (name[0] != '.' && !g_str_equal (name, "metadata") && !g_str_equal (name, "index"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, cmp_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (t->path, g_ptr_array_index (names, i), NULL);
      SlCtfStream *s = g_new0 (SlCtfStream, 1);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_free (s);
          continue;
        }
      if (scan_stream (item, t, tsdl, path, s))
        {
          g_ptr_array_add (t->streams, s);
          t->bytes += s->good_bytes;
          t->first_ns = MIN (t->first_ns, s->first_ns);
          t->last_ns = MAX (t->last_ns, s->last_ns);
        }
      else if (s->foreign)
        g_ptr_array_add (foreign, s);
      else
        {
          damaged += s->problem != NULL;
          stream_free (s);
        }
    }
  return damaged;
}

static void
report_foreign (ScanItem  *item,
                TraceDir  *t,
                GPtrArray *foreign)
{
  g_autofree char *mine = t->has_uuid ? uuid_string (t->uuid) : g_strdup ("none");

  for (guint i = 0; i < foreign->len; i++)
    {
      const SlCtfStream *s = g_ptr_array_index (foreign, i);
      g_autofree char *theirs = uuid_string (s->uuid);

      if (t->streams->len == 0 && i == 0)
        item_problem (item, t->hostname, t->metadata,
                      "foreign metadata: the stream files were recorded for trace %s, this metadata "
                      "describes trace %s (copied from another trace?); trace skipped", theirs, mine);
      else if (t->streams->len > 0)
        item_problem (item, t->hostname, s->path,
                      "recorded for trace %s, not for this folder's trace %s (a stream file of "
                      "another trace?); left out", theirs, mine);
    }
}

static TraceDir *
trace_dir_new (const char   *dir,
               const char   *metadata,
               char         *text,
               gsize         len,
               const SlTsdl *tsdl)
{
  TraceDir *t = g_new0 (TraceDir, 1);
  const char *host = sl_tsdl_get_env (tsdl, "hostname");

  t->path = g_strdup (dir);
  t->metadata = g_strdup (metadata);
  t->text = text;
  t->text_len = len;
  if (host != NULL && *host != '\0' && g_utf8_validate (host, -1, NULL))
    t->hostname = g_strdup (host);
  t->domain = g_strdup (sl_tsdl_get_env (tsdl, "domain"));
  {
    const char *events = sl_tsdl_get_env (tsdl, "syncline_extract_events");
    const char *ignored = sl_tsdl_get_env (tsdl, "syncline_extract_ignored");

    t->extract = events != NULL && ignored != NULL &&
                 g_ascii_string_to_unsigned (events, 10, 0, G_MAXUINT64, &t->extract_events, NULL) &&
                 g_ascii_string_to_unsigned (ignored, 10, 0, G_MAXUINT64, &t->extract_ignored, NULL);
    if (!t->extract)
      t->extract_events = t->extract_ignored = 0;
  }
  {
    const char *first = sl_tsdl_get_env (tsdl, "syncline_extract_span_first_ns");
    const char *last = sl_tsdl_get_env (tsdl, "syncline_extract_span_last_ns");

    t->extract_has_span = t->extract && first != NULL && last != NULL &&
                          g_ascii_string_to_signed (first, 10, G_MININT64, G_MAXINT64, &t->extract_first, NULL) &&
                          g_ascii_string_to_signed (last, 10, G_MININT64, G_MAXINT64, &t->extract_last, NULL) &&
                          t->extract_first <= t->extract_last;
  }
  t->has_uuid = sl_tsdl_get_uuid (tsdl, t->uuid);
  t->streams = g_ptr_array_new_with_free_func (stream_free);
  t->first_ns = G_MAXINT64;
  t->last_ns = G_MININT64;
  trace_clock (t, tsdl);
  return t;
}

/* One trace folder checked into @item; on any scan thread. */
static void
scan_trace (ScanItem *item)
{
  const char *dir = item->dir;
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autofree char *why = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTsdl) tsdl = NULL;
  g_autoptr(GPtrArray) foreign = g_ptr_array_new_with_free_func (stream_free);
  const GPtrArray *warnings;
  guint damaged;
  SlCtfMetaStatus st;
  TraceDir *t;
  gsize len = 0;
  gboolean packetized = FALSE;

  st = sl_ctf_meta_read_file (metadata, &text, &len, &packetized, &why);
#if SL_BT_READS_CTF2
  /* babeltrace2 ≥ 2.1 decodes CTF 2: its metadata is checked like TSDL */
  if (st == SL_CTF_META_CTF2 && !packetized && text != NULL && sl_ctf_meta_is_ctf2 ((const guint8 *) text, len))
    {
      g_clear_pointer (&why, g_free);
      if ((tsdl = sl_ctf2_parse (text, len, &error)) == NULL)
        why = g_strdup_printf ("corrupt CTF 2 metadata: %s", error->message);
      st = tsdl != NULL ? SL_CTF_META_OK : SL_CTF_META_CORRUPT;
    }
  else
#endif
  if (st == SL_CTF_META_OK && (tsdl = sl_tsdl_parse (text, len, &error)) == NULL)
    {
      why = g_strdup_printf ("corrupt metadata: %s", error->message);
      st = SL_CTF_META_CORRUPT;
    }
  if (st != SL_CTF_META_OK)
    {
      g_autofree char *host = guess_host (text, dir);
      g_autofree char *message = metadata_problem (st, packetized, why);

      item_problem (item, host, metadata, "%s", message);
      return;
    }

  t = trace_dir_new (dir, metadata, g_steal_pointer (&text), len, tsdl);
  if (t->hostname == NULL)
    {
      t->hostname = g_strdup_printf ("unknown (%s)", dir);
      item_problem (item, t->hostname, metadata, "the trace environment has no hostname; "
                    "the trace is a host of its own");
    }
  warnings = sl_tsdl_get_warnings (tsdl);
  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    item_problem (item, t->hostname, metadata, "metadata %s", (const char *) warnings->pdata[i]);
  damaged = scan_streams (item, t, tsdl, foreign);
  report_foreign (item, t, foreign);
  if (t->streams->len == 0 && foreign->len == 0 && damaged > 0)
    {
      /* every stream damaged from its start: the host stays, of which
       * nothing could be read (each file was named), rather than vanish */
      t->failed = TRUE;
      item->trace = t;
      return;
    }
  if (t->streams->len == 0)
    {
      if (foreign->len == 0)
        item_problem (item, t->hostname, dir, "no stream files with packets beside the metadata; "
                      "trace skipped");
      sl_trace_dir_free (t);
      return;
    }
  item->trace = t;
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
      walk_problem (scan, NULL, dir, "cannot read the folder: %s", g_strerror (e));
      return;
    }
  key = g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, (guint64) st.st_dev, (guint64) st.st_ino);
  if (g_hash_table_contains (scan->visited, key))
    return;
  g_hash_table_add (scan->visited, g_steal_pointer (&key));
  if (++scan->n_folders > MAX_SCAN_FOLDERS)
    {
      scan->gave_up = TRUE;
      walk_problem (scan, NULL, dir, "stopped searching for traces after %u folders", MAX_SCAN_FOLDERS);
      return;
    }

  metadata = g_build_filename (dir, "metadata", NULL);
  if (g_file_test (metadata, G_FILE_TEST_IS_REGULAR))
    {
      ScanItem item = { .dir = g_strdup (dir) };

      g_array_append_val (scan->items, item);
      scan->n_traces++;
      return;
    }

  d = g_dir_open (dir, 0, &error);
  if (d == NULL)
    {
      walk_problem (scan, NULL, dir, "cannot read the folder: %s", error->message);
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
          GStatBuf target;
          int e = g_stat (path, &target) != 0 ? errno : 0;

          walk_problem (scan, NULL, path, "cannot read the folder or file: %s",
                        e == ELOOP ? "the links loop" : "the link leads nowhere");
          g_free (path);
        }
      else
        {
          if (!streams && g_file_test (path, G_FILE_TEST_IS_REGULAR) && looks_like_stream (path))
            streams = TRUE;
          g_free (path);
        }
    }

  if (streams && g_file_test (metadata, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK))
    {
      g_autofree char *what = sl_safe_describe (metadata);

      walk_problem (scan, NULL, metadata, "%s, not a metadata file (never opened); the folder's "
                    "streams are skipped", what);
    }
  else if (streams)
    walk_problem (scan, NULL, metadata, "missing: the folder holds CTF stream files but no metadata file; "
                  "its streams are skipped");

  if (depth >= MAX_SCAN_DEPTH)
    return;
  g_ptr_array_sort (subdirs, cmp_names);
  for (guint i = 0; i < subdirs->len; i++)
    {
      /* an unreadable subfolder is reported there, by g_dir_open */
      scan_folder (scan, g_ptr_array_index (subdirs, i), depth + 1);
    }
}

static void
check_item_cb (guint    index,
               gpointer user_data)
{
  Scan *scan = user_data;
  ScanItem *item = &g_array_index (scan->items, ScanItem, index);
  gint64 cpu;

  if (item->dir == NULL || atomic_load (&scan->reader->cancelled))
    return;
  cpu = sl_thread_cpu_us ();
  scan_trace (item);
  atomic_fetch_add (&scan->check_us, sl_thread_cpu_us () - cpu);
}

/* Items [@first, @end), in the walk's order: their problems into the
 * reader's, their traces into @traces. Whether there was any. */
static gboolean
take_items (Scan      *scan,
            guint      first,
            guint      end,
            GPtrArray *traces)
{
  gboolean any = FALSE;

  for (guint i = first; i < end; i++)
    {
      ScanItem *item = &g_array_index (scan->items, ScanItem, i);
      g_autoptr(GPtrArray) problems = g_steal_pointer (&item->problems);

      if (problems != NULL)
        {
          g_ptr_array_set_free_func (problems, NULL);
          for (guint k = 0; k < problems->len; k++)
            sl_problem_list_take (scan->reader->problems, g_ptr_array_index (problems, k));
          any = any || problems->len > 0;
        }
      if (item->trace != NULL)
        {
          g_ptr_array_add (traces, g_steal_pointer (&item->trace));
          any = TRUE;
        }
    }
  return any;
}

/* The scan thread: traces found, checked and grouped into hosts. */
gpointer
sl_trace_scan_thread (gpointer data)
{
  SlTraceReader *self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  Scan scan = { 0 };
  GPtrArray *hosts = NULL;

  scan.reader = self;
  scan.visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  scan.items = g_array_new (FALSE, TRUE, sizeof (ScanItem));
  g_array_set_clear_func (scan.items, scan_item_clear);
  atomic_init (&scan.check_us, 0);

  if (sl_decoder_get_program (&error) == NULL)
    sl_trace_reader_add_problem (self, NULL, "syncline-decoder", "%s", error->message);
  else
    {
      for (guint i = 0; i < self->folders->len; i++)
        {
          guint first = scan.items->len;

          g_array_append_val (starts, first);
          scan.folder_first = first;
          scan_folder (&scan, g_ptr_array_index (self->folders, i), 0);
        }
      sl_profile_mark ("reader", "found %u trace folders", scan.n_traces);
      sl_parallel_for_at_most (scan.items->len, self->options.n_threads, check_item_cb, &scan);
      g_array_append_val (starts, scan.items->len); /* the end of the last folder's */
      for (guint i = 0; i < self->folders->len; i++)
        {
          const char *folder = g_ptr_array_index (self->folders, i);
          guint first = g_array_index (starts, guint, i);

          if (!take_items (&scan, first, g_array_index (starts, guint, i + 1), traces))
            sl_trace_reader_add_problem (self, NULL, folder, "no LTTng trace found (no folder with a metadata file below it)");
        }
    }

  sl_profile_mark ("reader", "scanned %u traces (%.1f ms of CPU checking them, on up to %u threads)", traces->len,
                   atomic_load (&scan.check_us) / 1000.0, MIN (self->options.n_threads, sl_parallel_get_helpers () + 1));
  hosts = sl_trace_group_hosts (self, traces);
  sl_profile_mark ("reader", "grouped into %u hosts", hosts->len);
  g_array_unref (scan.items);
  g_hash_table_destroy (scan.visited);

  sl_feed_hub_lock (self->hub);
  self->scanned = hosts;
  self->scan_done = TRUE;
  sl_feed_hub_unlock (self->hub);
  sl_feed_hub_signal (self->hub);
  return NULL;
}

/* ---------------------------------------------------------------------- */
