/* sl-live-sessions.c: relay URLs and session lists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "sl-live-private.h"

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

void
sl_live_target_free (gpointer p)
{
  Target *t = p;

  g_free (t->relay);
  g_free (t->hostname);
  g_free (t->session);
  g_free (t);
}

/* The host and port of an URL's authority: HOST, HOST:PORT, [IPv6] or
 * [IPv6]:PORT (LTTng's form for IPv6 addresses). */
static gboolean
parse_authority (const char  *url,
                 char        *authority,
                 guint64     *port,
                 GError     **error)
{
  char *colon;

  if (authority[0] == '[')
    {
      char *close_b = strchr (authority, ']');

      if (close_b == NULL || close_b == authority + 1 || (close_b[1] != '\0' && close_b[1] != ':'))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: expected [IPv6 address] or [IPv6 address]:PORT", url);
          return FALSE;
        }
      colon = close_b[1] == ':' ? close_b + 1 : NULL;
    }
  else
    {
      if (*authority == '\0' || strchr (authority, ']') != NULL)
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: no relay host in the URL", url);
          return FALSE;
        }
      colon = strrchr (authority, ':');
    }
  if (colon != NULL)
    {
      if (!g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, port, NULL))
        {
          g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: bad port \"%s\"", url, colon + 1);
          return FALSE;
        }
      *colon = '\0';
    }
  if (*authority == '\0')
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, "%s: no relay host in the URL", url);
      return FALSE;
    }
  return TRUE;
}

/* net://HOST[:PORT][/host/HOSTNAME/SESSION | /session/SESSION]; @relay
 * receives net://HOST:PORT (HOST may be a bracketed IPv6 address). */
gboolean
sl_live_parse_url (const char  *url,
                   char       **relay,
                   char       **hostname,
                   char       **session,
                   GError     **error)
{
  g_autofree char *authority = NULL;
  g_auto(GStrv) parts = NULL;
  const char *rest, *slash;
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
  if (!parse_authority (url, authority, &port, error))
    return FALSE;

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

/* A relay URL's parts, or %FALSE (not a relay URL) */
typedef struct
{
  char *relay;
  char *hostname;
  char *session;
} UrlParts;

static gboolean
url_parts (const char *url,
           UrlParts   *p)
{
  return sl_live_parse_url (url, &p->relay, &p->hostname, &p->session, NULL);
}

static void
url_parts_clear (UrlParts *p)
{
  g_clear_pointer (&p->relay, g_free);
  g_clear_pointer (&p->hostname, g_free);
  g_clear_pointer (&p->session, g_free);
}

/* Every session @narrow can attach, @broad attaches too. */
static gboolean
url_covers (const UrlParts *broad,
            const UrlParts *narrow)
{
  return g_str_equal (broad->relay, narrow->relay) &&
         (broad->hostname == NULL || g_strcmp0 (broad->hostname, narrow->hostname) == 0) &&
         (broad->session == NULL || g_strcmp0 (broad->session, narrow->session) == 0);
}

/* Some session can be attached by both. */
static gboolean
url_overlaps (const UrlParts *x,
              const UrlParts *y)
{
  return g_str_equal (x->relay, y->relay) &&
         (x->hostname == NULL || y->hostname == NULL || g_str_equal (x->hostname, y->hostname)) &&
         (x->session == NULL || y->session == NULL || g_str_equal (x->session, y->session));
}

/**
 * sl_live_urls_after_detach:
 * @inputs: a live view's inputs (relay URLs; others, such as trace
 *   folders, are kept as they are)
 * @removed: the relay URL detached (sl_live_remove_url())
 * @attached: (nullable): the URLs of the view's attachments
 *   (`net://RELAY/host/HOSTNAME/SESSION`); those @removed matches are left
 *   out whether or not they were detached yet
 *
 * The inputs that attach what the view still attaches: an input that
 * @removed covers goes; a broader one (a whole relay, a session on every
 * host) that also attaches what @removed detached is replaced by the
 * attachments of @attached it covers, so that sessions appearing later
 * there are no longer included. Reloading and saving a live view use them.
 *
 * Returns: (transfer full): the new inputs, in their order
 */
char **
sl_live_urls_after_detach (const char * const *inputs,
                           const char         *removed,
                           const char * const *attached)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_null_terminated (8, g_free, TRUE);
  UrlParts r = { 0 };
  gboolean is_relay;

  g_return_val_if_fail (removed != NULL, NULL);

  is_relay = url_parts (removed, &r);
  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    {
      UrlParts in = { 0 };

      if (!is_relay || !url_parts (inputs[i], &in) || !url_overlaps (&in, &r))
        {
          if (!g_ptr_array_find_with_equal_func (out, inputs[i], g_str_equal, NULL))
            g_ptr_array_add (out, g_strdup (inputs[i]));
        }
      else if (!url_covers (&r, &in))
        for (guint k = 0; attached != NULL && attached[k] != NULL; k++)
          {
            UrlParts a = { 0 };

            if (url_parts (attached[k], &a) && url_covers (&in, &a) && !url_covers (&r, &a) &&
                !g_ptr_array_find_with_equal_func (out, attached[k], g_str_equal, NULL))
              g_ptr_array_add (out, g_strdup (attached[k]));
            url_parts_clear (&a);
          }
      url_parts_clear (&in);
    }
  url_parts_clear (&r);
  return (char **) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

/* ---------------------------------------------------------------------- */
/* Session lists                                                           */

static gboolean
read_session (GPtrArray         *out,
              const char        *relay,
              const SlWireFrame *f)
{
  SlWireSession w;
  g_autofree char *host = NULL;
  g_autofree char *name = NULL;
  SlLiveSession *s;
  gsize host_len;

  if (f->size < sizeof w + 2)
    return FALSE;
  memcpy (&w, f->data, sizeof w);
  host = sl_wire_string (f->data + sizeof w, f->size - sizeof w);
  host_len = strlen (host) + 1;
  if (sizeof w + host_len >= f->size)
    return FALSE;
  name = sl_wire_string (f->data + sizeof w + host_len, f->size - sizeof w - host_len);
  s = g_new0 (SlLiveSession, 1);
  s->hostname = sl_trace_sanitize (host);
  s->session = sl_trace_sanitize (name);
  s->url = g_strdup_printf ("%s/host/%s/%s", relay, host, name);
  s->streams = w.streams;
  s->clients = w.clients;
  s->timer_us = w.timer_us;
  g_ptr_array_add (out, s);
  return TRUE;
}

/**
 * sl_live_query_sessions:
 * @relay: net://HOST:PORT
 * @timeout_ms: a relay that has not answered by then is reported stalled
 *
 * Lists a relay's sessions through a syncline-decoder process, which is
 * killed when the relay does not answer in time or @abort_func says so:
 * nothing waits longer than that.
 */
GPtrArray *
sl_live_query_sessions (const char   *relay,
                        guint         timeout_ms,
                        SlLiveAbort   abort_func,
                        gpointer      abort_data,
                        GError      **error)
{
  const char *args[] = { "sessions", relay, NULL };
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_live_session_free);
  g_autoptr(SlDecoder) d = NULL;
  g_autoptr(GError) spawn_error = NULL;
  g_autofree char *fatal = NULL;
  g_autofree char *how = NULL;
  gint64 end = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  gboolean done = FALSE, aborted = FALSE, timed_out = FALSE;

  d = sl_decoder_spawn (args, &spawn_error);
  if (d == NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "cannot start the trace decoder: %s", spawn_error->message);
      return NULL;
    }
  while (!done && fatal == NULL)
    {
      SlWireFrame f;
      SlDecoderStatus st = sl_decoder_next (d, &f, 50000);

      if (st == SL_DECODER_EOF)
        break;
      if (st == SL_DECODER_TIMEOUT)
        {
          aborted = abort_func != NULL && abort_func (abort_data);
          timed_out = g_get_monotonic_time () >= end;
          if (aborted || timed_out)
            break;
          continue;
        }
      if (f.type == SL_WIRE_SESSION)
        read_session (out, relay, &f);
      else if (f.type == SL_WIRE_END)
        done = TRUE;
      else if (f.type == SL_WIRE_FATAL)
        {
          gsize skip = strnlen ((const char *) f.data, f.size) + 1;

          fatal = skip < f.size ? sl_wire_string (f.data + skip, f.size - skip) : g_strdup ("");
        }
    }
  sl_decoder_kill (d);
  how = sl_decoder_finish (d);

  if (done)
    return g_steal_pointer (&out);
  if (aborted)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s: cancelled", relay);
  else if (timed_out)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                 "relay %s does not answer (stalled relay or network cut)", relay);
  else if (fatal != NULL && *fatal != '\0')
    g_set_error (error, SL_ERROR, SL_ERROR_IO, "relay %s not reachable: %s", relay, fatal);
  else if (fatal == NULL && how != NULL)
    g_set_error (error, SL_ERROR, SL_ERROR_IO, "relay %s not reachable (the trace decoder %s)", relay, how);
  else
    g_set_error (error, SL_ERROR, SL_ERROR_IO, "relay %s not reachable", relay);
  return NULL;
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
    list = sl_live_query_sessions (relay, 15000, cancellable != NULL ? cancellable_abort : NULL,
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

