/* sl-relay-forward.c: IPv6 relays for babeltrace2 2.0.4's lttng-live
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sl-relay-forward.h"

/*
 * babeltrace2 2.0.4's lttng-live reads `net://HOST:PORT` up to the first
 * colon and connects with gethostbyname() and AF_INET only: a relay given
 * as net://[::1]:5344 (LTTng's own syntax) is out of its reach. The
 * decoder process then listens on 127.0.0.1 and forwards each connection
 * to the relay's IPv6 address; babeltrace gets net://127.0.0.1:PORT.
 */

typedef struct
{
  int listen_fd;
  struct sockaddr_storage target;
  socklen_t target_len;
} Forward;

static void
pump (int a,
      int b)
{
  guint8 buf[64 << 10];
  struct pollfd p[2] = { { a, POLLIN, 0 }, { b, POLLIN, 0 } };

  for (;;)
    {
      if (poll (p, 2, -1) < 0)
        {
          if (errno == EINTR)
            continue;
          return;
        }
      for (int i = 0; i < 2; i++)
        if (p[i].revents != 0)
          {
            ssize_t n = read (p[i].fd, buf, sizeof buf);
            ssize_t off = 0;

            if (n <= 0)
              return;
            while (off < n)
              {
                ssize_t w = write (p[1 - i].fd, buf + off, (size_t) (n - off));

                if (w < 0 && errno == EINTR)
                  continue;
                if (w <= 0)
                  return;
                off += w;
              }
          }
    }
}

static gpointer
connection_thread (gpointer data)
{
  int *fds = data;

  pump (fds[0], fds[1]);
  close (fds[0]);
  close (fds[1]);
  g_free (fds);
  return NULL;
}

static gpointer
listen_thread (gpointer data)
{
  Forward *f = data;

  for (;;)
    {
      int client = accept (f->listen_fd, NULL, NULL);
      int relay;
      int *fds;

      if (client < 0)
        {
          if (errno == EINTR || errno == ECONNABORTED)
            continue;
          return NULL;
        }
      relay = socket (f->target.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (relay < 0 || connect (relay, (struct sockaddr *) &f->target, f->target_len) != 0)
        {
          /* babeltrace sees the connection closed: "relay not reachable" */
          if (relay >= 0)
            close (relay);
          close (client);
          continue;
        }
      fds = g_new (int, 2);
      fds[0] = client;
      fds[1] = relay;
      g_thread_unref (g_thread_new ("sl-relay-forward", connection_thread, fds));
    }
}

/* The relay's IPv6 address and port from "[ADDR]:PORT". */
static gboolean
resolve (const char              *bracketed,
         struct sockaddr_storage *out,
         socklen_t               *len,
         char                   **why)
{
  g_autofree char *host = NULL;
  const char *close_b = strchr (bracketed, ']');
  const char *port = "5344";
  struct addrinfo hints = { 0 }, *res = NULL;
  int rc;

  if (close_b == NULL)
    {
      *why = g_strdup ("no closing ']' in the relay's address");
      return FALSE;
    }
  host = g_strndup (bracketed + 1, (gsize) (close_b - bracketed - 1));
  if (close_b[1] == ':')
    port = close_b + 2;
  hints.ai_family = AF_INET6;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  rc = getaddrinfo (host, port, &hints, &res);
  if (rc != 0 || res == NULL)
    {
      *why = g_strdup_printf ("not an IPv6 address and port: [%s]:%s (%s)", host, port, gai_strerror (rc));
      return FALSE;
    }
  memcpy (out, res->ai_addr, res->ai_addrlen);
  *len = res->ai_addrlen;
  freeaddrinfo (res);
  return TRUE;
}

/**
 * sl_relay_forward_url:
 * @url: a relay URL (net://HOST[:PORT][/…])
 *
 * Returns: @url as babeltrace2 can use it: itself, or for an IPv6 relay
 *   the URL of a forwarder on 127.0.0.1 (running until the process ends);
 *   %NULL with @why set when the address is not usable
 */
char *
sl_relay_forward_url (const char  *url,
                      char       **why)
{
  const char *rest = strstr (url, "://");
  const char *slash;
  g_autofree char *authority = NULL;
  struct sockaddr_in local = { 0 };
  socklen_t local_len = sizeof local;
  Forward *f;

  if (rest == NULL || rest[3] != '[')
    return g_strdup (url);
  rest += 3;
  slash = strchr (rest, '/');
  authority = slash != NULL ? g_strndup (rest, (gsize) (slash - rest)) : g_strdup (rest);

  f = g_new0 (Forward, 1);
  if (!resolve (authority, &f->target, &f->target_len, why))
    {
      g_free (f);
      return NULL;
    }
  f->listen_fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  local.sin_family = AF_INET;
  local.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (f->listen_fd < 0 || bind (f->listen_fd, (struct sockaddr *) &local, sizeof local) != 0 ||
      listen (f->listen_fd, 8) != 0 ||
      getsockname (f->listen_fd, (struct sockaddr *) &local, &local_len) != 0)
    {
      int e = errno;

      *why = g_strdup_printf ("cannot forward to the IPv6 relay: %s", g_strerror (e));
      if (f->listen_fd >= 0)
        close (f->listen_fd);
      g_free (f);
      return NULL;
    }
  /* the forwarder lives as long as the process: f is never freed */
  g_thread_unref (g_thread_new ("sl-relay-listen", listen_thread, f));
  return g_strdup_printf ("net://127.0.0.1:%u%s", ntohs (local.sin_port), slash != NULL ? slash : "");
}

/* The local (or the peer's, @peer) port of a TCP socket, 0 if none. */
static guint
socket_port (int      fd,
             gboolean peer)
{
  struct sockaddr_storage a = { 0 };
  socklen_t len = sizeof a;

  if ((peer ? getpeername (fd, (struct sockaddr *) &a, &len) : getsockname (fd, (struct sockaddr *) &a, &len)) != 0)
    return 0;
  if (a.ss_family == AF_INET)
    return ntohs (((struct sockaddr_in *) &a)->sin_port);
  if (a.ss_family == AF_INET6)
    return ntohs (((struct sockaddr_in6 *) &a)->sin6_port);
  return 0;
}

static gboolean
has_port (GArray *ports,
          guint   port)
{
  for (guint k = 0; k < ports->len; k++)
    if (g_array_index (ports, guint, k) == port)
      return TRUE;
  return FALSE;
}

/**
 * sl_relay_last_answer:
 *
 * When the relay last sent this process anything: the latest data the
 * kernel received on its connections to a relay. A forwarder's loopback
 * pair is left out, both ends: the connection it accepted (babeltrace's
 * requests; its local port is a listening port of the process) and
 * babeltrace's own end (its peer is that listening port), which receives
 * when the forwarder copies, maybe long after the relay sent. A
 * connection the relay closed (CLOSE_WAIT) received its last data.
 * A decoder may publish, later, what it received before a relay stalled
 * (a loaded machine): that is no answer of the relay.
 *
 * Returns: a g_get_monotonic_time(), or 0 without a connection
 */
gint64
sl_relay_last_answer (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  g_autoptr(GArray) fds = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) listening = g_array_new (FALSE, FALSE, sizeof (guint));
  gint64 now = g_get_monotonic_time ();
  gint64 last = 0;
  const char *name;

  if (dir == NULL)
    return 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      int fd = atoi (name);
      struct tcp_info ti;
      socklen_t len = sizeof ti;

      if (getsockopt (fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
        continue;
      if (ti.tcpi_state == TCP_LISTEN)
        {
          guint port = socket_port (fd, FALSE);

          g_array_append_val (listening, port);
        }
      else if (ti.tcpi_state == TCP_ESTABLISHED || ti.tcpi_state == TCP_CLOSE_WAIT)
        g_array_append_val (fds, fd);
    }
  for (guint i = 0; i < fds->len; i++)
    {
      int fd = g_array_index (fds, int, i);
      struct tcp_info ti;
      socklen_t len = sizeof ti;

      if (has_port (listening, socket_port (fd, FALSE)) || has_port (listening, socket_port (fd, TRUE)) ||
          getsockopt (fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
        continue;
      last = MAX (last, now - (gint64) ti.tcpi_last_data_recv * 1000);
    }
  return last;
}
