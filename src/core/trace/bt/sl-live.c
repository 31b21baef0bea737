/* sl-live.c: live LTTng sessions through lttng-relayd
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sl-bt-graph.h"
#include "sl-live.h"

/*
 * Threads
 * -------
 * Each attachment (host, session) has its own thread running its own
 * babeltrace graph (sl-bt-graph.c: src.ctf.lttng-live → Syncline's sink,
 * which decodes events at once into the host's feed of packet events). Connecting,
 * receiving and destroying the graph all happen on that thread: a relay
 * that stops answering blocks only it. To stop it we set the graph's
 * interrupter; a thread still blocked on the relay a moment later has its
 * socket shut down (below), so lttng-live's recv() returns, it reports a
 * closed connection and gives up; the thread then destroys its graph
 * itself (an interrupted live graph cannot resume).
 *
 * Why not a signal, as babeltrace2's own command line does: a recv() that
 * returns EINTR while the interrupter is set makes lttng-live 2.0.4 return
 * "interrupted" from its metadata request, a status its caller does not
 * handle: it aborts the process (metadata.c, `default: bt_common_abort()`).
 * Seen in 2 of 7 sanitizer runs of our fault test under load. A shut down
 * socket takes lttng-live's error path instead, which every caller handles.
 * The socket is the one the thread is blocked on, read from
 * /proc/self/task/TID/syscall, and only if it is a TCP connection to the
 * relay's port.
 *
 * A discovery thread reads the relay's session list every discover_ms:
 * it starts a thread for every (host, session) that matches an URL and
 * has none (hosts that join later, and reconnection after a failure), and
 * reports hosts whose relay has not answered for stall_ms.
 *
 * The engine thread is the only one that touches the engine. It merges
 * the hosts' batches by time (sl-feed.c): a packet event is given to the
 * engine when every other streaming host is known up to its time (its own
 * events or the relay's inactivity beacons are past it: the per-host
 * watermark), or when it has waited hold_ms. After it has drained what is there, it
 * delivers one coalesced update if something changed, due update_ms after
 * the previous one or after the oldest packet event it reflects arrived.
 *
 * Merge order across hosts uses each host's local time minus a hint: the
 * offset of its current transform to its reference (0 until it has one),
 * refreshed at each update. LTTng's timestamps are based on each host's
 * wall clock, so hosts start within their NTP error of each other; the
 * matcher pairs a send with its receive when their merge-order times are
 * within its window (10 s by default).
 */

#define STOP_TIMEOUT_US  (3 * G_USEC_PER_SEC)
/* how long a stopping thread may take on its own before its socket is shut */
#define STOP_GRACE_US    (20 * 1000)

typedef struct
{
  char *relay;
  char *hostname;
  char *session;
} Target;

typedef struct _LiveHost LiveHost;

struct _LiveHost
{
  SlLive          *live;
  guint            index;
  char            *hostname;
  char            *session;
  char            *url;
  bt_interrupter  *intr;
  SlFeed          *feed;

  /* the host's thread */
  GThread         *thread;
  pid_t            tid;
  SlBtDecoder     *decoder;
  SlEventStore    *store;
  gboolean         store_owned;

  /* under the hub lock */
  atomic_int       stop;
  gboolean         running;
  gboolean         tid_valid;
  guint            engine_host;
  gint64           last_progress;
  SlLiveHostState  state;
  char            *message;
  gboolean         stalled_reported;
};

struct _SlLive
{
  atomic_int        ref_count;
  SlEngine         *engine;
  SlLiveOptions     options;
  SlFeedHub        *hub;
  SlProblemList    *problems;

  /* under the hub lock */
  GPtrArray        *targets;
  GPtrArray        *hosts;
  /* hostname → its history's store, continued by the host's first
   * attachment (sl_live_add_history()) */
  GHashTable       *history;
  gboolean          started;
  gboolean          stopping;
  gboolean          hosts_changed;
  gboolean          discover_now;

  GThread          *engine_thread;
  GThread          *discover_thread;
  GMutex            engine_lock;
  SlLiveUpdateFunc  func;
  gpointer          func_data;

  /* engine thread */
  guint64           journal_sent;
  guint64           packets_fed;
  guint64           packets_sent;
  gint64            first_arrival;
  gint64            last_update;
};

static void live_unref (SlLive *self);

/* ---------------------------------------------------------------------- */
/* Small things                                                            */

/* The file descriptor thread @tid is blocked on in a socket system call
 * (receive, send, read, write), or -1. */
static int
thread_blocked_fd (pid_t tid)
{
  static const long calls[] = {
#ifdef SYS_recvfrom
    SYS_recvfrom,
#endif
#ifdef SYS_sendto
    SYS_sendto,
#endif
#ifdef SYS_recvmsg
    SYS_recvmsg,
#endif
#ifdef SYS_sendmsg
    SYS_sendmsg,
#endif
#ifdef SYS_read
    SYS_read,
#endif
#ifdef SYS_write
    SYS_write,
#endif
  };
  char path[64], buf[256];
  long nr;
  unsigned long long arg0;
  ssize_t n;
  int fd;

  g_snprintf (path, sizeof path, "/proc/self/task/%d/syscall", (int) tid);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return -1;
  buf[n] = '\0';
  /* "NR ARG0 ARG1 ..." while in a system call, "running" otherwise */
  if (sscanf (buf, "%ld %llx", &nr, &arg0) != 2 || arg0 > G_MAXINT)
    return -1;
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    if (calls[i] == nr)
      return (int) arg0;
  return -1;
}

static guint16
relay_port (const char *url)
{
  const char *host = strstr (url, "://");
  const char *colon, *slash;

  if (host == NULL)
    return 5344;
  host += 3;
  slash = strchr (host, '/');
  colon = strchr (host, ':');
  if (colon == NULL || (slash != NULL && colon > slash))
    return 5344;      /* LTTng's default live viewer port */
  return (guint16) g_ascii_strtoull (colon + 1, NULL, 10);
}

/* Shuts down the relay connection host thread @tid is blocked on, if it is
 * blocked on one. */
static gboolean
shutdown_blocked_socket (pid_t       tid,
                         const char *url)
{
  struct sockaddr_storage peer;
  socklen_t len = sizeof peer;
  struct stat st;
  int fd = thread_blocked_fd (tid);
  int type = 0;
  socklen_t type_len = sizeof type;
  guint16 port;

  if (fd < 0 || fstat (fd, &st) != 0 || !S_ISSOCK (st.st_mode) ||
      getsockopt (fd, SOL_SOCKET, SO_TYPE, &type, &type_len) != 0 || type != SOCK_STREAM ||
      getpeername (fd, (struct sockaddr *) &peer, &len) != 0)
    return FALSE;
  if (peer.ss_family == AF_INET)
    port = ntohs (((struct sockaddr_in *) &peer)->sin_port);
  else if (peer.ss_family == AF_INET6)
    port = ntohs (((struct sockaddr_in6 *) &peer)->sin6_port);
  else
    return FALSE;
  if (port != relay_port (url))
    return FALSE;
  return shutdown (fd, SHUT_RDWR) == 0;
}

void
sl_live_session_free (SlLiveSession *session)
{
  if (session == NULL)
    return;
  g_free (session->url);
  g_free (session->hostname);
  g_free (session->session);
  g_free (session);
}

void
sl_live_host_free (SlLiveHost *host)
{
  if (host == NULL)
    return;
  g_free (host->hostname);
  g_free (host->url);
  g_free (host->message);
  g_free (host);
}

const char *
sl_live_host_state_to_string (SlLiveHostState state)
{
  switch (state)
    {
    case SL_LIVE_HOST_CONNECTING: return "connecting";
    case SL_LIVE_HOST_STREAMING:  return "streaming";
    case SL_LIVE_HOST_STALLED:    return "stalled";
    case SL_LIVE_HOST_WAITING:    return "waiting";
    case SL_LIVE_HOST_ENDED:      return "ended";
    case SL_LIVE_HOST_FAILED:     return "failed";
    default:                      return "unknown";
    }
}

static void
target_free (gpointer p)
{
  Target *t = p;

  g_free (t->relay);
  g_free (t->hostname);
  g_free (t->session);
  g_free (t);
}

/* net://HOST[:PORT][/host/HOSTNAME/SESSION | /session/SESSION]; @relay
 * receives net://HOST:PORT. */
gboolean
sl_live_parse_url (const char  *url,
                   char       **relay,
                   char       **hostname,
                   char       **session,
                   GError     **error)
{
  g_autofree char *authority = NULL;
  g_auto(GStrv) parts = NULL;
  const char *rest, *slash, *colon;
  guint64 port = SL_LIVE_DEFAULT_PORT;
  guint n;

  g_return_val_if_fail (url != NULL, FALSE);

  if (relay) *relay = NULL;
  if (hostname) *hostname = NULL;
  if (session) *session = NULL;

  if (!g_str_has_prefix (url, "net://") && !g_str_has_prefix (url, "net4://"))
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "%s: not a relay URL (expected net://HOST[:PORT][/host/HOSTNAME/SESSION])", url);
      return FALSE;
    }
  rest = strstr (url, "://") + 3;
  slash = strchr (rest, '/');
  authority = slash != NULL ? g_strndup (rest, (gsize) (slash - rest)) : g_strdup (rest);
  if (*authority == '\0' || strchr (authority, '[') != NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: no relay host in the URL", url);
      return FALSE;
    }
  colon = strrchr (authority, ':');
  if (colon != NULL)
    {
      if (!g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &port, NULL))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: bad port \"%s\"", url, colon + 1);
          return FALSE;
        }
      authority[colon - authority] = '\0';
    }

  parts = g_strsplit (slash != NULL ? slash + 1 : "", "/", -1);
  n = g_strv_length (parts);
  while (n > 0 && *parts[n - 1] == '\0')
    g_clear_pointer (&parts[--n], g_free);

  if (n == 3 && g_str_equal (parts[0], "host") && *parts[1] && *parts[2])
    {
      if (hostname) *hostname = g_strdup (parts[1]);
      if (session) *session = g_strdup (parts[2]);
    }
  else if (n == 2 && g_str_equal (parts[0], "session") && *parts[1])
    {
      if (session) *session = g_strdup (parts[1]);
    }
  else if (n != 0)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID,
                   "%s: expected net://HOST[:PORT], net://HOST[:PORT]/session/SESSION "
                   "or net://HOST[:PORT]/host/HOSTNAME/SESSION", url);
      return FALSE;
    }

  if (relay)
    *relay = g_strdup_printf ("net://%s:%u", authority, (guint) port);
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Session list                                                            */

static gboolean
value_uint (const bt_value *map,
            const char     *key,
            guint64        *out)
{
  const bt_value *v;

  if (!bt_value_map_has_entry (map, key))
    return FALSE;
  v = bt_value_map_borrow_entry_value_const (map, key);
  if (bt_value_is_unsigned_integer (v))
    *out = bt_value_integer_unsigned_get (v);
  else if (bt_value_is_signed_integer (v))
    *out = (guint64) MAX (bt_value_integer_signed_get (v), 0);
  else
    return FALSE;
  return TRUE;
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

/* Runs on a worker thread: the query connects and may block. */
static GPtrArray *
query_sessions (const char     *relay,
                bt_interrupter *intr,
                GError        **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_live_session_free);
  bt_value *params = NULL;
  const bt_value *result = NULL;
  bt_query_executor *q = NULL;
  bt_query_executor_query_status st = BT_QUERY_EXECUTOR_QUERY_STATUS_ERROR;
  const char *why = NULL;
  const bt_component_class_source *live_class = sl_bt_get_source_class (SL_BT_SOURCE_LIVE, &why);

  if (live_class == NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s", why);
      return NULL;
    }

  g_mutex_lock (&sl_bt_lock);
  params = bt_value_map_create ();
  if (params != NULL && bt_value_map_insert_string_entry (params, "url", relay) == BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK)
    q = bt_query_executor_create (bt_component_class_source_as_component_class_const (live_class), "sessions", params);
  if (q != NULL)
    {
      bt_query_executor_set_logging_level (q, BT_LOGGING_LEVEL_NONE);
      if (intr != NULL)
        bt_query_executor_add_interrupter (q, intr);
    }
  g_mutex_unlock (&sl_bt_lock);

  if (q != NULL)
    for (;;)
      {
        st = BT_LEAKY (bt_query_executor_query (q, &result));
        if (st != BT_QUERY_EXECUTOR_QUERY_STATUS_AGAIN || (intr != NULL && bt_interrupter_is_set (intr)))
          break;
        g_usleep (20000);
      }

  if (st != BT_QUERY_EXECUTOR_QUERY_STATUS_OK || result == NULL || !bt_value_is_array (result))
    {
      g_autofree char *msg = sl_bt_take_error ();

      if (intr != NULL && bt_interrupter_is_set (intr))
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s: cancelled", relay);
      else
        g_set_error (error, SL_ERROR, SL_ERROR_IO, "relay %s not reachable%s%s", relay,
                     msg != NULL && *msg ? ": " : "", msg != NULL ? msg : "");
    }
  else
    for (guint64 i = 0; i < bt_value_array_get_length (result); i++)
      {
        const bt_value *m = bt_value_array_borrow_element_by_index_const (result, i);
        SlLiveSession *s;
        const char *host, *name;

        if (!bt_value_is_map (m))
          continue;
        host = value_string (m, "target-hostname");
        name = value_string (m, "session-name");
        if (host == NULL || name == NULL)
          continue;
        s = g_new0 (SlLiveSession, 1);
        s->hostname = sl_trace_sanitize (host);
        s->session = sl_trace_sanitize (name);
        s->url = g_strdup_printf ("%s/host/%s/%s", relay, host, name);
        value_uint (m, "stream-count", &s->streams);
        value_uint (m, "client-count", &s->clients);
        value_uint (m, "timer-us", &s->timer_us);
        g_ptr_array_add (out, s);
      }

  g_mutex_lock (&sl_bt_lock);
  bt_current_thread_clear_error ();
  bt_value_put_ref (result);
  bt_query_executor_put_ref (q);
  bt_value_put_ref (params);
  g_mutex_unlock (&sl_bt_lock);

  if (error != NULL && *error != NULL)
    return NULL;
  return g_steal_pointer (&out);
}

/* babeltrace2 2.0.4 retries a session-list query's recv() after EINTR
 * whatever its interrupter says, so a query to a stalled relay cannot be
 * interrupted: it runs on its own thread, which is abandoned (and finishes
 * alone when the relay answers or goes) if it takes too long. */
typedef struct
{
  atomic_int  ref_count;
  GMutex      lock;
  GCond       cond;
  char       *relay;
  gboolean    done;
  GPtrArray  *list;
  GError     *error;
} Query;

static void
query_unref (Query *q)
{
  if (atomic_fetch_sub (&q->ref_count, 1) != 1)
    return;
  g_free (q->relay);
  g_clear_pointer (&q->list, g_ptr_array_unref);
  g_clear_error (&q->error);
  g_mutex_clear (&q->lock);
  g_cond_clear (&q->cond);
  g_free (q);
}

static gpointer
query_thread (gpointer data)
{
  Query *q = data;
  GError *error = NULL;
  GPtrArray *list = query_sessions (q->relay, NULL, &error);

  g_mutex_lock (&q->lock);
  q->list = list;
  q->error = error;
  q->done = TRUE;
  g_cond_broadcast (&q->cond);
  g_mutex_unlock (&q->lock);
  query_unref (q);
  return NULL;
}

typedef gboolean (*QueryAbort) (gpointer data);

static GPtrArray *
query_sessions_bounded (const char   *relay,
                        guint         timeout_ms,
                        QueryAbort    abort_func,
                        gpointer      abort_data,
                        GError      **error)
{
  Query *q = g_new0 (Query, 1);
  gint64 end = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  GPtrArray *list = NULL;
  GThread *thread;

  atomic_init (&q->ref_count, 2);
  g_mutex_init (&q->lock);
  g_cond_init (&q->cond);
  q->relay = g_strdup (relay);
  thread = g_thread_try_new ("sl-live-query", query_thread, q, error);
  if (thread == NULL)
    {
      query_unref (q);
      query_unref (q);
      return NULL;
    }
  g_thread_unref (thread);

  g_mutex_lock (&q->lock);
  while (!q->done && g_get_monotonic_time () < end && !(abort_func != NULL && abort_func (abort_data)))
    g_cond_wait_until (&q->cond, &q->lock, MIN (end, g_get_monotonic_time () + 50000));
  if (q->done)
    {
      list = g_steal_pointer (&q->list);
      if (list == NULL)
        g_propagate_error (error, g_steal_pointer (&q->error));
    }
  else if (abort_func != NULL && abort_func (abort_data))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s: cancelled", relay);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                 "relay %s does not answer (stalled relay or network cut)", relay);
  g_mutex_unlock (&q->lock);
  query_unref (q);
  return list;
}

static gboolean
cancellable_abort (gpointer data)
{
  return g_cancellable_is_cancelled (data);
}

static void
list_task (GTask        *task,
           gpointer      source,
           gpointer      task_data,
           GCancellable *cancellable)
{
  g_autofree char *relay = NULL;
  GError *error = NULL;
  GPtrArray *list = NULL;

  if (sl_live_parse_url (task_data, &relay, NULL, NULL, &error))
    list = query_sessions_bounded (relay, 15000, cancellable != NULL ? cancellable_abort : NULL,
                                   cancellable, &error);
  if (list != NULL)
    g_task_return_pointer (task, list, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

/**
 * sl_live_list_sessions_async:
 *
 * Lists the relay's sessions on a worker thread. Only the relay part of
 * @url is used.
 */
void
sl_live_list_sessions_async (const char          *url,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_return_if_fail (url != NULL);

  g_task_set_source_tag (task, sl_live_list_sessions_async);
  g_task_set_task_data (task, g_strdup (url), g_free);
  g_task_run_in_thread (task, list_task);
}

/**
 * sl_live_list_sessions_finish:
 *
 * Returns: (transfer full): #SlLiveSession rows, or %NULL with @error set
 */
GPtrArray *
sl_live_list_sessions_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  GMutex        lock;
  GCond         cond;
  GAsyncResult *result;
} SyncWait;

static void
sync_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  SyncWait *w = data;

  g_mutex_lock (&w->lock);
  w->result = g_object_ref (result);
  g_cond_signal (&w->cond);
  g_mutex_unlock (&w->lock);
}

/**
 * sl_live_list_sessions:
 *
 * The blocking form, for command-line use: the query still runs on a
 * worker thread, and @cancellable interrupts it.
 */
GPtrArray *
sl_live_list_sessions (const char    *url,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GMainContext) ctx = g_main_context_new ();
  SyncWait w = { 0 };
  GPtrArray *list;

  g_main_context_push_thread_default (ctx);
  sl_live_list_sessions_async (url, cancellable, sync_done_cb, &w);
  while (w.result == NULL)
    g_main_context_iteration (ctx, TRUE);
  g_main_context_pop_thread_default (ctx);

  list = sl_live_list_sessions_finish (w.result, error);
  g_object_unref (w.result);
  return list;
}

/* ---------------------------------------------------------------------- */
/* Per-host thread                                                         */

static void
add_problem (SlLive     *self,
             const char *host,
             const char *file,
             const char *fmt,
             ...) G_GNUC_PRINTF (4, 5);

static void
add_problem (SlLive     *self,
             const char *host,
             const char *file,
             const char *fmt,
             ...)
{
  va_list ap;

  va_start (ap, fmt);
  sl_problem_list_take (self->problems, sl_trace_problem_new_va (host, file, fmt, ap));
  va_end (ap);
  sl_feed_hub_signal (self->hub);
}

/* Called with the lock held. */
static void
set_state_locked (LiveHost        *h,
                  SlLiveHostState  state,
                  const char      *message)
{
  SlLive *self = h->live;

  if (h->state != state || g_strcmp0 (h->message, message) != 0)
    {
      h->state = state;
      g_free (h->message);
      h->message = g_strdup (message);
      self->hosts_changed = TRUE;
      sl_feed_hub_signal_locked (self->hub);
    }
}

static void
set_state (LiveHost        *h,
           SlLiveHostState  state,
           const char      *message)
{
  SlLive *self = h->live;

  sl_feed_hub_lock (self->hub);
  set_state_locked (h, state, message);
  sl_feed_hub_unlock (self->hub);
}

/* The host's feed published (hub locked): the relay answers. */
static void
host_published_cb (SlFeed   *feed,
                   gpointer  data)
{
  LiveHost *h = data;
  SlLive *self = h->live;

  h->last_progress = g_get_monotonic_time ();
  if (h->state == SL_LIVE_HOST_STALLED || h->state == SL_LIVE_HOST_CONNECTING)
    {
      if (h->stalled_reported)
        {
          sl_problem_list_take (self->problems, sl_trace_problem_new (h->hostname, h->url, "the relay answers again"));
          h->stalled_reported = FALSE;
        }
      h->state = SL_LIVE_HOST_STREAMING;
      g_clear_pointer (&h->message, g_free);
      self->hosts_changed = TRUE;
    }
}

static SlBtGraph *
host_build_graph (LiveHost  *h,
                  char     **why)
{
  const char *inputs[] = { h->url };
  SlBtGraphSpec spec = { 0 };
  guint failed;

  spec.kind = SL_BT_SOURCE_LIVE;
  spec.inputs = inputs;
  spec.n_inputs = 1;
  spec.interrupter = h->intr;
  spec.feed = h->feed;
  spec.decoder = h->decoder;
  /* the stores are read under the engine lock (sl_live_lock()) */
  spec.store_lock = h->store != NULL ? &h->live->engine_lock : NULL;
  spec.flush = SL_FEED_FLUSH_ALL;
  /* hand over partial batches too, but not for every message: a burst
   * from the relay arrives in many small deliveries */
  spec.min_publish_us = 2000;
  return sl_bt_graph_new (&spec, &failed, why);
}

static void
host_sleep (LiveHost *h,
            guint     ms)
{
  SlLive *self = h->live;
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  sl_feed_hub_lock (self->hub);
  while (!atomic_load (&h->stop) && g_get_monotonic_time () < end)
    g_cond_wait_until (sl_feed_hub_get_cond (self->hub), sl_feed_hub_get_mutex (self->hub), end);
  sl_feed_hub_unlock (self->hub);
}

/* Runs the graph until the session ends, the connection is lost or the
 * host is stopped; TRUE when the session ended. */
static gboolean
host_run (LiveHost  *h,
          SlBtGraph *graph)
{
  SlLive *self = h->live;

  while (!atomic_load (&h->stop))
    {
      SlBtRunStatus st = sl_bt_graph_run_once (graph);

      if (st == SL_BT_RUN_OK)
        continue;
      if (st == SL_BT_RUN_AGAIN)
        {
          host_sleep (h, self->options.poll_ms);
          continue;
        }
      if (st == SL_BT_RUN_END)
        return TRUE;
      if (!atomic_load (&h->stop))
        {
          g_autofree char *msg = sl_bt_take_error ();

          add_problem (self, h->hostname, h->url, "lost the session: %s; will reconnect",
                       msg != NULL && *msg ? msg : "connection to the relay failed");
          set_state (h, SL_LIVE_HOST_WAITING, "connection lost; retrying");
        }
      break;
    }
  return FALSE;
}

static gpointer
host_thread (gpointer data)
{
  LiveHost *h = data;
  SlLive *self = h->live;
  g_autofree char *why = NULL;
  SlBtGraph *graph;
  gboolean ended = FALSE;

  sl_feed_hub_lock (self->hub);
  h->tid = (pid_t) syscall (SYS_gettid);
  h->tid_valid = TRUE;
  h->last_progress = g_get_monotonic_time ();
  sl_feed_hub_unlock (self->hub);

  set_state (h, SL_LIVE_HOST_CONNECTING, NULL);
  graph = host_build_graph (h, &why);
  if (graph == NULL)
    {
      if (!atomic_load (&h->stop))
        {
          add_problem (self, h->hostname, h->url, "cannot attach: %s", why != NULL && *why ? why : "babeltrace2 refused");
          set_state (h, SL_LIVE_HOST_WAITING, "cannot attach; retrying");
        }
    }
  else
    {
      ended = host_run (h, graph);
      sl_feed_publish (h->feed, SL_FEED_FLUSH_ALL);
      sl_bt_graph_free (graph);
    }

  if (ended && !atomic_load (&h->stop))
    {
      add_problem (self, h->hostname, h->url, "the session ended (destroyed, or the relay closed it)");
      set_state (h, SL_LIVE_HOST_ENDED, "session ended");
    }
  else if (atomic_load (&h->stop))
    {
      sl_feed_hub_lock (self->hub);
      if (h->state == SL_LIVE_HOST_STREAMING || h->state == SL_LIVE_HOST_CONNECTING ||
          h->state == SL_LIVE_HOST_STALLED)
        set_state_locked (h, SL_LIVE_HOST_ENDED, "detached");
      sl_feed_hub_unlock (self->hub);
    }
  bt_current_thread_clear_error ();

  sl_feed_hub_lock (self->hub);
  h->tid_valid = FALSE;
  h->running = FALSE;
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
  live_unref (self);
  return NULL;
}

/* Called with the lock held. */
static void
host_start_locked (SlLive   *self,
                   LiveHost *h)
{
  g_autofree char *name = g_strdup_printf ("sl-live-%u", h->index);

  if (h->thread != NULL)
    g_thread_unref (h->thread);
  atomic_store (&h->stop, 0);
  bt_interrupter_reset (h->intr);
  h->running = TRUE;
  h->last_progress = g_get_monotonic_time ();
  atomic_fetch_add (&self->ref_count, 1);
  h->thread = g_thread_new (name, host_thread, h);
}

static LiveHost *
host_new_locked (SlLive     *self,
                 const char *relay,
                 const char *hostname,
                 const char *session)
{
  LiveHost *h = g_new0 (LiveHost, 1);

  h->live = self;
  h->index = self->hosts->len;
  h->hostname = g_strdup (hostname);
  h->session = g_strdup (session);
  h->url = g_strdup_printf ("%s/host/%s/%s", relay, hostname, session);
  h->intr = bt_interrupter_create ();
  h->decoder = sl_bt_decoder_new ();
  if (self->options.keep_events)
    {
      SlEventStore *history = g_hash_table_lookup (self->history, hostname);

      if (history != NULL)
        {
          /* once: a second session of the host has its own */
          g_hash_table_remove (self->history, hostname);
          h->store = history;
          sl_bt_decoder_continue_store (h->decoder, h->store);
        }
      else
        {
          h->store = sl_event_store_new ();
          h->store_owned = TRUE;
          sl_bt_decoder_set_store (h->decoder, h->store);
        }
    }
  h->feed = sl_feed_new (self->hub);
  sl_feed_set_publish_func (h->feed, host_published_cb, h);
  h->engine_host = SL_HOST_NONE;
  h->state = SL_LIVE_HOST_CONNECTING;
  g_ptr_array_add (self->hosts, h);
  self->hosts_changed = TRUE;
  return h;
}

static void
host_free (LiveHost *h)
{
  g_free (h->hostname);
  g_free (h->session);
  g_free (h->url);
  g_free (h->message);
  bt_interrupter_put_ref (h->intr);
  sl_bt_decoder_free (h->decoder);
  if (h->store_owned)
    sl_event_store_free (h->store);
  sl_feed_free (h->feed);
  if (h->thread != NULL)
    g_thread_unref (h->thread);
  g_free (h);
}

/* ---------------------------------------------------------------------- */
/* Discovery                                                               */

static gboolean
target_matches (const Target        *t,
                const char          *relay,
                const SlLiveSession *s)
{
  return g_str_equal (t->relay, relay) &&
         (t->hostname == NULL || g_str_equal (t->hostname, s->hostname)) &&
         (t->session == NULL || g_str_equal (t->session, s->session));
}

static LiveHost *
find_host_locked (SlLive     *self,
                  const char *url)
{
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (g_str_equal (h->url, url))
        return h;
    }
  return NULL;
}

static gboolean
stopping_abort (gpointer data)
{
  SlLive *self = data;
  gboolean stopping;

  sl_feed_hub_lock (self->hub);
  stopping = self->stopping;
  sl_feed_hub_unlock (self->hub);
  return stopping;
}

/* Hosts the engine does not know yet are added on the engine thread. */
static void
discover_relay (SlLive     *self,
                const char *relay,
                GHashTable *unreachable)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = query_sessions_bounded (relay, self->options.stall_ms, stopping_abort, self, &error);

  if (list == NULL)
    {
      gboolean stopping;

      sl_feed_hub_lock (self->hub);
      stopping = self->stopping;
      sl_feed_hub_unlock (self->hub);
      if (!stopping && !g_hash_table_contains (unreachable, relay))
        {
          add_problem (self, NULL, relay, "%s; will retry", error->message);
          g_hash_table_add (unreachable, g_strdup (relay));
        }
      return;
    }
  if (g_hash_table_remove (unreachable, relay))
    add_problem (self, NULL, relay, "the relay is reachable again");

  sl_feed_hub_lock (self->hub);
  for (guint i = 0; i < list->len && !self->stopping; i++)
    {
      SlLiveSession *s = g_ptr_array_index (list, i);
      gboolean wanted = FALSE;
      LiveHost *h;

      for (guint k = 0; k < self->targets->len && !wanted; k++)
        wanted = target_matches (g_ptr_array_index (self->targets, k), relay, s);
      if (!wanted)
        continue;

      h = find_host_locked (self, s->url);
      if (h != NULL && (h->running || h->state == SL_LIVE_HOST_ENDED))
        continue;
      if (s->clients > 0)
        {
          /* Another viewer holds it: the relay allows one per session. */
          if (h == NULL)
            h = host_new_locked (self, relay, s->hostname, s->session);
          if (h->state != SL_LIVE_HOST_WAITING || g_strcmp0 (h->message, "another viewer is attached") != 0)
            {
              sl_problem_list_take (self->problems,
                               sl_trace_problem_new (s->hostname, s->url,
                                                     "another viewer is already attached to this session "
                                                     "(the relay allows one); waiting for it to detach"));
              h->state = SL_LIVE_HOST_WAITING;
              g_free (h->message);
              h->message = g_strdup ("another viewer is attached");
              self->hosts_changed = TRUE;
            }
          continue;
        }
      if (h == NULL)
        h = host_new_locked (self, relay, s->hostname, s->session);
      host_start_locked (self, h);
    }
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
}

/* On the engine thread, which never waits for the network. */
static void
check_stalls (SlLive *self)
{
  gint64 now = g_get_monotonic_time ();

  sl_feed_hub_lock (self->hub);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (!h->running || h->stalled_reported)
        continue;
      if (now - h->last_progress > (gint64) self->options.stall_ms * 1000)
        {
          sl_problem_list_take (self->problems,
                           sl_trace_problem_new (h->hostname, h->url,
                                                 "the relay has not answered for %.1f s (stalled relay or network cut)",
                                                 (now - h->last_progress) / 1e6));
          h->stalled_reported = TRUE;
          h->state = SL_LIVE_HOST_STALLED;
          g_free (h->message);
          h->message = g_strdup ("relay not answering");
          self->hosts_changed = TRUE;
        }
    }
  sl_feed_hub_unlock (self->hub);
}

static gpointer
discover_thread (gpointer data)
{
  SlLive *self = data;
  g_autoptr(GHashTable) unreachable = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gint64 next = 0;

  for (;;)
    {
      g_autoptr(GPtrArray) relays = g_ptr_array_new_with_free_func (g_free);
      gint64 now = g_get_monotonic_time ();
      gint64 wake;

      sl_feed_hub_lock (self->hub);
      if (self->stopping)
        {
          sl_feed_hub_unlock (self->hub);
          break;
        }
      if (self->discover_now || now >= next)
        {
          self->discover_now = FALSE;
          next = now + (gint64) self->options.discover_ms * 1000;
          for (guint i = 0; i < self->targets->len; i++)
            {
              Target *t = g_ptr_array_index (self->targets, i);
              gboolean seen = FALSE;

              for (guint k = 0; k < relays->len && !seen; k++)
                seen = g_str_equal (g_ptr_array_index (relays, k), t->relay);
              if (!seen)
                g_ptr_array_add (relays, g_strdup (t->relay));
            }
        }
      sl_feed_hub_unlock (self->hub);

      for (guint i = 0; i < relays->len && !stopping_abort (self); i++)
        discover_relay (self, g_ptr_array_index (relays, i), unreachable);

      wake = MIN (next, g_get_monotonic_time () + 200 * 1000);
      sl_feed_hub_lock (self->hub);
      while (!self->stopping && !self->discover_now && g_get_monotonic_time () < wake)
        g_cond_wait_until (sl_feed_hub_get_cond (self->hub), sl_feed_hub_get_mutex (self->hub), wake);
      sl_feed_hub_unlock (self->hub);
    }

  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Engine thread                                                           */

static GPtrArray *
dup_hosts_locked (SlLive *self)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_live_host_free);

  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);
      SlLiveHost *c = g_new0 (SlLiveHost, 1);

      c->engine_host = h->engine_host;
      c->hostname = g_strdup (h->hostname);
      c->url = g_strdup (h->url);
      c->state = h->state;
      c->message = g_strdup (h->message);
      c->events = sl_feed_get_events_locked (h->feed);
      c->packets = sl_feed_get_published_locked (h->feed);
      c->watermark = sl_feed_get_watermark_locked (h->feed);
      c->last_fed = G_MININT64;
      g_ptr_array_add (out, c);
    }
  return out;
}

static gboolean
host_active (const LiveHost *h)
{
  return h->running && (h->state == SL_LIVE_HOST_STREAMING || h->state == SL_LIVE_HOST_CONNECTING);
}

/* Registers the hosts the engine does not know yet (engine locked). */
static gboolean
register_hosts (SlLive *self,
                guint   n)
{
  gboolean changed = FALSE;

  for (guint i = 0; i < n; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);
      guint e;

      if (h->engine_host != SL_HOST_NONE)
        continue;
      e = sl_engine_find_host (self->engine, h->hostname);
      if (e == SL_HOST_NONE)
        e = sl_engine_add_host (self->engine, h->hostname);
      sl_feed_hub_lock (self->hub);
      h->engine_host = e;
      sl_feed_set_engine_host (h->feed, e);
      sl_feed_hub_unlock (self->hub);
      changed = TRUE;
    }
  return changed;
}

/* Feeds the engine with every packet event that may go; returns the time
 * (monotonic µs) at which a held one must go anyway, or G_MAXINT64. */
static gint64
feed (SlLive  *self,
      SlFeed **feeds,
      guint    n_hosts)
{
  SlFeedMerge m = { 0 };
  SlFeedMergeStatus st;

  m.feeds = feeds;
  m.n_feeds = n_hosts;
  m.engine = self->engine;
  m.hold_us = (gint64) self->options.hold_ms * 1000;
  m.deadline = G_MAXINT64;
  m.first_arrival = self->first_arrival;
  st = sl_feed_merge (self->hub, &m);
  self->first_arrival = m.first_arrival;
  self->packets_fed = 0;
  for (guint i = 0; i < n_hosts; i++)
    self->packets_fed += sl_feed_get_fed (feeds[i]);
  return st == SL_FEED_MERGE_HOLD ? m.until : G_MAXINT64;
}

static void
refresh_hints (SlLive *self,
               guint   n_hosts)
{
  for (guint i = 0; i < n_hosts; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);
      gint64 last_fed = sl_feed_get_last_fed (h->feed);
      SlHostInfo info = { 0 };

      /* at the newest packet event fed (the watermark may be G_MAXINT64
       * once a session ended) */
      if (h->engine_host == SL_HOST_NONE || last_fed == G_MININT64)
        continue;
      sl_engine_get_host_info (self->engine, h->engine_host, &info);
      if (info.reference != SL_HOST_NONE && info.reference != h->engine_host)
        sl_feed_set_hint (h->feed, last_fed - sl_transform_apply (&info.to_reference, last_fed));
      sl_host_info_clear (&info);
    }
}

static void
deliver (SlLive   *self,
         gboolean  final)
{
  SlJournal *j = sl_engine_get_journal (self->engine);
  SlLiveUpdate u = { 0 };
  GPtrArray *problems;

  sl_feed_hub_lock (self->hub);
  u.hosts = dup_hosts_locked (self);
  problems = sl_problem_list_take_new (self->problems);
  self->hosts_changed = FALSE;
  for (guint i = 0; i < u.hosts->len; i++)
    {
      SlLiveHost *c = g_ptr_array_index (u.hosts, i);

      c->last_fed = sl_feed_get_last_fed (((LiveHost *) g_ptr_array_index (self->hosts, i))->feed);
      u.events += c->events;
    }
  sl_feed_hub_unlock (self->hub);

  sl_engine_flush (self->engine);
  u.wall_time = g_get_real_time ();
  u.journal_first = self->journal_sent;
  u.journal_next = sl_journal_get_next_seq (j);
  u.packets = self->packets_fed;
  u.first_arrival = self->first_arrival;
  u.made = g_get_monotonic_time ();
  u.problems = problems;
  u.final = final;
  if (self->func != NULL)
    self->func (self, self->engine, &u, self->func_data);

  self->journal_sent = u.journal_next;
  self->packets_sent = self->packets_fed;
  self->first_arrival = 0;
  self->last_update = g_get_monotonic_time ();
  g_ptr_array_unref (u.hosts);
  g_ptr_array_unref (problems);
}

/* When the next update is due, if something changed (engine locked). */
static gint64
update_due (SlLive   *self,
            guint     n,
            gboolean  changed,
            gint64    due)
{
  gint64 next;

  changed |= self->packets_fed != self->packets_sent ||
             sl_journal_get_next_seq (sl_engine_get_journal (self->engine)) != self->journal_sent;
  if (!changed)
    return due;

  next = self->last_update + (gint64) self->options.update_ms * 1000;
  /* a packet that waited for slower hosts is not kept waiting for the
   * next update slot as well: latency stays ~max (hold, update); updates
   * still come at most four times per update_ms */
  if (self->first_arrival != 0)
    next = MIN (next, MAX (self->first_arrival + (gint64) self->options.update_ms * 1000,
                           self->last_update + (gint64) self->options.update_ms * 250));
  if (g_get_monotonic_time () >= next)
    {
      refresh_hints (self, n);
      deliver (self, FALSE);
      return due;
    }
  return MIN (due, next);
}

/* Waits for a signal (published batches, states, problems) or @due. */
static void
engine_wait (SlLive  *self,
             guint64  seen,
             gint64   due)
{
  GCond *cond = sl_feed_hub_get_cond (self->hub);
  GMutex *mutex = sl_feed_hub_get_mutex (self->hub);

  /* stall checks */
  due = MIN (due, g_get_monotonic_time () + 200000);
  sl_feed_hub_lock (self->hub);
  while (sl_feed_hub_get_seq_locked (self->hub) == seen && !self->stopping && g_get_monotonic_time () < due)
    g_cond_wait_until (cond, mutex, due);
  if (self->stopping)
    {
      /* wait for the hosts to finish instead of spinning */
      gboolean any = FALSE;

      for (guint i = 0; i < self->hosts->len; i++)
        any |= ((LiveHost *) g_ptr_array_index (self->hosts, i))->running;
      if (any && sl_feed_hub_get_seq_locked (self->hub) == seen)
        g_cond_wait_until (cond, mutex, g_get_monotonic_time () + 20000);
    }
  sl_feed_hub_unlock (self->hub);
}

static gpointer
engine_thread (gpointer data)
{
  SlLive *self = data;
  g_autoptr(GPtrArray) feeds = g_ptr_array_new ();

  for (;;)
    {
      gint64 due;
      gboolean stopping, changed, running = FALSE;
      guint64 seen;
      guint n;

      check_stalls (self);

      sl_feed_hub_lock (self->hub);
      n = self->hosts->len;
      stopping = self->stopping;
      g_ptr_array_set_size (feeds, 0);
      for (guint i = 0; i < n; i++)
        {
          LiveHost *h = g_ptr_array_index (self->hosts, i);

          running |= h->running;
          /* a host that stopped is no longer waited for */
          sl_feed_set_waited (h->feed, !stopping && host_active (h));
          g_ptr_array_add (feeds, h->feed);
        }
      changed = self->hosts_changed || sl_problem_list_count_new (self->problems) > 0;
      seen = sl_feed_hub_get_seq_locked (self->hub);
      sl_feed_hub_unlock (self->hub);

      g_mutex_lock (&self->engine_lock);
      changed |= register_hosts (self, n);
      sl_feed_hub_lock (self->hub);
      for (guint i = 0; i < n; i++)
        sl_feed_account_locked (g_ptr_array_index (feeds, i), self->engine);
      sl_feed_hub_unlock (self->hub);
      due = feed (self, (SlFeed **) feeds->pdata, n);

      if (stopping && !running)
        {
          /* everything published has been fed (hosts are inactive) */
          deliver (self, TRUE);
          g_mutex_unlock (&self->engine_lock);
          break;
        }
      due = update_due (self, n, changed, due);
      g_mutex_unlock (&self->engine_lock);

      engine_wait (self, seen, due);
    }
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Public API                                                              */

void
sl_live_options_init (SlLiveOptions *options)
{
  g_return_if_fail (options != NULL);

  options->poll_ms = 10;
  options->update_ms = 20;
  options->discover_ms = 1000;
  options->stall_ms = 3000;
  options->hold_ms = 20;
  options->keep_events = FALSE;
}

/**
 * sl_live_new:
 * @engine: the engine to feed; it must outlive the #SlLive and, while
 *   live is running, be used by other threads only between
 *   sl_live_lock() and sl_live_unlock()
 */
SlLive *
sl_live_new (SlEngine            *engine,
             const SlLiveOptions *options)
{
  SlLive *self;

  g_return_val_if_fail (engine != NULL, NULL);

  self = g_new0 (SlLive, 1);
  atomic_init (&self->ref_count, 1);
  self->engine = engine;
  if (options != NULL)
    self->options = *options;
  else
    sl_live_options_init (&self->options);
  self->options.poll_ms = MAX (self->options.poll_ms, 1);
  self->options.discover_ms = MAX (self->options.discover_ms, 50);
  self->options.stall_ms = MAX (self->options.stall_ms, 100);
  self->hub = sl_feed_hub_new ();
  self->problems = sl_problem_list_new ();
  g_mutex_init (&self->engine_lock);
  self->targets = g_ptr_array_new_with_free_func (target_free);
  self->hosts = g_ptr_array_new ();
  self->history = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->journal_sent = sl_journal_get_next_seq (sl_engine_get_journal (engine));
  return self;
}

static void
live_unref (SlLive *self)
{
  if (atomic_fetch_sub (&self->ref_count, 1) != 1)
    return;

  for (guint i = 0; i < self->hosts->len; i++)
    host_free (g_ptr_array_index (self->hosts, i));
  g_ptr_array_unref (self->hosts);
  g_ptr_array_unref (self->targets);
  sl_problem_list_free (self->problems);
  sl_feed_hub_free (self->hub);
  g_hash_table_unref (self->history);
  g_mutex_clear (&self->engine_lock);
  g_free (self);
}

void
sl_live_free (SlLive *self)
{
  if (self == NULL)
    return;
  sl_live_stop (self);
  live_unref (self);
}

/**
 * sl_live_add_history:
 * @hostname: a host's name, as its traces and the relay give it
 * @store: its events read from a trace folder (the relay's output, for
 *   the history a viewer never receives)
 *
 * With #SlLiveOptions.keep_events, the host's first attachment appends
 * what it receives to @store instead of a store of its own, after what
 * @store holds (what it holds already is not added again; when the live
 * events start after a gap, a lost-events mark at the end of the history
 * says that what happened in between is not known). @store must outlive
 * @self. Call it before sl_live_start().
 */
void
sl_live_add_history (SlLive       *self,
                     const char   *hostname,
                     SlEventStore *store)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (hostname != NULL);
  g_return_if_fail (store != NULL);

  sl_feed_hub_lock (self->hub);
  g_hash_table_replace (self->history, g_strdup (hostname), store);
  sl_feed_hub_unlock (self->hub);
}

/**
 * sl_live_add_url:
 * @url: `net://RELAY[:PORT]` (every session of every host, now and
 *   later), `net://RELAY[:PORT]/session/NAME` (that session on every
 *   host) or `net://RELAY[:PORT]/host/HOSTNAME/NAME`
 */
gboolean
sl_live_add_url (SlLive      *self,
                 const char  *url,
                 GError     **error)
{
  Target *t;
  const char *why = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (url != NULL, FALSE);

  if (sl_bt_get_source_class (SL_BT_SOURCE_LIVE, &why) == NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s", why);
      return FALSE;
    }
  t = g_new0 (Target, 1);
  if (!sl_live_parse_url (url, &t->relay, &t->hostname, &t->session, error))
    {
      target_free (t);
      return FALSE;
    }
  sl_feed_hub_lock (self->hub);
  g_ptr_array_add (self->targets, t);
  self->discover_now = TRUE;
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
  return TRUE;
}

void
sl_live_set_update_func (SlLive           *self,
                         SlLiveUpdateFunc  func,
                         gpointer          user_data)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->engine_lock);
  self->func = func;
  self->func_data = user_data;
  g_mutex_unlock (&self->engine_lock);
}

void
sl_live_start (SlLive *self)
{
  g_return_if_fail (self != NULL);

  sl_feed_hub_lock (self->hub);
  if (self->started)
    {
      sl_feed_hub_unlock (self->hub);
      return;
    }
  self->started = TRUE;
  sl_feed_hub_unlock (self->hub);

  self->engine_thread = g_thread_new ("sl-live-engine", engine_thread, self);
  self->discover_thread = g_thread_new ("sl-live-discover", discover_thread, self);
}

/**
 * sl_live_stop:
 *
 * Detaches from every session and returns when the engine thread has
 * delivered its final update. A host thread blocked on a relay that does
 * not answer is interrupted (interrupter, then its socket is shut down:
 * see "Threads" above); one that still has not returned after a few
 * seconds is left to finish on its own.
 */
void
sl_live_stop (SlLive *self)
{
  gint64 start = g_get_monotonic_time ();
  gint64 deadline = start + STOP_TIMEOUT_US;

  g_return_if_fail (self != NULL);

  sl_feed_hub_lock (self->hub);
  if (!self->started || self->stopping)
    {
      sl_feed_hub_unlock (self->hub);
      return;
    }
  self->stopping = TRUE;
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      atomic_store (&h->stop, 1);
      bt_interrupter_set (h->intr);
    }
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);

  for (;;)
    {
      gboolean any = FALSE;

      sl_feed_hub_lock (self->hub);
      for (guint i = 0; i < self->hosts->len; i++)
        {
          LiveHost *h = g_ptr_array_index (self->hosts, i);

          if (h->running)
            {
              any = TRUE;
              if (h->tid_valid && g_get_monotonic_time () - start >= STOP_GRACE_US)
                shutdown_blocked_socket (h->tid, h->url);
            }
        }
      sl_feed_hub_unlock (self->hub);
      if (!any || g_get_monotonic_time () > deadline)
        break;
      g_usleep (10000);
    }

  g_thread_join (self->discover_thread);
  self->discover_thread = NULL;

  sl_feed_hub_lock (self->hub);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (h->running)
        {
          /* still blocked: it holds a reference and finishes alone; the
           * engine thread must not wait for it */
          h->running = FALSE;
          g_clear_pointer (&h->thread, g_thread_unref);
          sl_problem_list_take (self->problems,
                           sl_trace_problem_new (h->hostname, h->url,
                                                 "did not detach in time; left to finish in the background"));
        }
    }
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);

  g_thread_join (self->engine_thread);
  self->engine_thread = NULL;
  for (guint i = 0; i < self->hosts->len; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (h->thread != NULL)
        {
          g_thread_join (h->thread);
          h->thread = NULL;
        }
    }
}

/**
 * sl_live_reconnect:
 *
 * Reads the relays' session lists now, attaching again to what was lost.
 */
void
sl_live_reconnect (SlLive *self)
{
  g_return_if_fail (self != NULL);

  sl_feed_hub_lock (self->hub);
  self->discover_now = TRUE;
  sl_feed_hub_signal_locked (self->hub);
  sl_feed_hub_unlock (self->hub);
}

/**
 * sl_live_get_event_store:
 * @engine_host: a host's index in the engine
 *
 * With #SlLiveOptions.keep_events, the events received live from
 * @engine_host's first attachment (for the timeline); %NULL otherwise.
 * Read it only in the update callback or between sl_live_lock() and
 * sl_live_unlock(): the host's thread appends to it.
 */
const SlEventStore *
sl_live_get_event_store (SlLive *self,
                         guint   engine_host)
{
  const SlEventStore *store = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  sl_feed_hub_lock (self->hub);
  for (guint i = 0; i < self->hosts->len && store == NULL; i++)
    {
      LiveHost *h = g_ptr_array_index (self->hosts, i);

      if (h->engine_host == engine_host)
        store = h->store;
    }
  sl_feed_hub_unlock (self->hub);
  return store;
}

void
sl_live_lock (SlLive *self)
{
  g_mutex_lock (&self->engine_lock);
}

void
sl_live_unlock (SlLive *self)
{
  g_mutex_unlock (&self->engine_lock);
}

GPtrArray *
sl_live_dup_hosts (SlLive *self)
{
  GPtrArray *out;

  g_return_val_if_fail (self != NULL, NULL);

  sl_feed_hub_lock (self->hub);
  out = dup_hosts_locked (self);
  sl_feed_hub_unlock (self->hub);
  return out;
}

/**
 * sl_live_dup_problems:
 *
 * Returns: (transfer full): every #SlTraceProblem raised so far
 */
GPtrArray *
sl_live_dup_problems (SlLive *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return sl_problem_list_dup (self->problems);
}
