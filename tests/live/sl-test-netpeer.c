/* sl-test-netpeer.c: the traced program of a simulated host
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sl-test-netpeer [--listen=PORT] [--connect=PORT[,PORT...]] [--rate=HZ]
 *                   [--duration=S | --count=N] [--size=BYTES] [--ready-file=PATH]
 *
 * Real TCP over 127.0.0.1. A client connection sends a request and waits for
 * its reply, --rate round trips per second (0: as fast as possible), --count
 * round trips or for --duration seconds; the server echoes a reply of the same
 * size to each request. One thread per connection.
 *
 * Every message is logged twice: syncline_net:tcp_send right before its
 * send() on one end, syncline_net:tcp_recv right after it has been received
 * whole on the other end, with fields both ends compute identically (user
 * space cannot see the kernel's TCP sequence numbers):
 *
 *   family 4; saddr/daddr the sender's/receiver's address (getsockname and
 *   getpeername of the real socket; network byte order in the first 4 bytes);
 *   sport/dport their ports (host byte order); seq = bytes the sender had sent
 *   on this connection before the message (the receiver: bytes received before
 *   it); ack_seq = bytes the sender had received before sending (carried in the
 *   message header); flags 0x18 (PSH|ACK).
 *
 * Requests are --size bytes (default 64, 16 to 16 MiB): a 16-byte header
 * (magic, size, seq, ack_seq in network order) and filler; a reply has the
 * size of its request. The process ends
 * after --count/--duration when it only connects, or on SIGTERM/SIGINT
 * (exit 0), and prints its totals on stdout.
 */

#define _GNU_SOURCE

#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "syncline_net_tp.h"

#define MAGIC 0x534c4e50u /* "SLNP" */
#define HEADER_SIZE 16
#define MAX_SIZE (1 << 24)
#define TCP_FLAGS 0x18

typedef struct
{
  int      fd;
  gboolean is_client;
  guint16  port;            /* what it was told to connect to or accepted on */
  uint8_t  local_addr[16];
  uint8_t  peer_addr[16];
  uint16_t local_port;
  uint16_t peer_port;
  uint32_t sent;            /* bytes sent on this connection (wraps like TCP) */
  uint32_t received;
  guint64  messages_sent;
  guint64  messages_received;
  char    *error;
  pthread_t thread;
  gboolean  joined;
} Conn;

static struct
{
  guint16   listen_port;
  GArray   *connect_ports;
  double    rate;
  double    duration;
  gint64    count;
  gsize     size;
  char     *ready_file;

  int       listen_fd;
  gint64    deadline_ns;    /* CLOCK_MONOTONIC, 0: none */
  volatile gint stop;
  GMutex    lock;
  GPtrArray *conns;         /* Conn*, under lock */
  volatile gint clients_running;
} peer;

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static void
conn_fail (Conn       *c,
           const char *fmt,
           ...) G_GNUC_PRINTF (2, 3);

static void
conn_fail (Conn       *c,
           const char *fmt,
           ...)
{
  va_list ap;

  if (c->error != NULL)
    return;
  va_start (ap, fmt);
  c->error = g_strdup_vprintf (fmt, ap);
  va_end (ap);
}

static gboolean
fill_addresses (Conn *c)
{
  struct sockaddr_in a;
  socklen_t len = sizeof a;

  if (getsockname (c->fd, (struct sockaddr *) &a, &len) != 0 || a.sin_family != AF_INET)
    {
      conn_fail (c, "getsockname: %s", g_strerror (errno));
      return FALSE;
    }
  memset (c->local_addr, 0, 16);
  memcpy (c->local_addr, &a.sin_addr.s_addr, 4);
  c->local_port = ntohs (a.sin_port);
  len = sizeof a;
  if (getpeername (c->fd, (struct sockaddr *) &a, &len) != 0 || a.sin_family != AF_INET)
    {
      conn_fail (c, "getpeername: %s", g_strerror (errno));
      return FALSE;
    }
  memset (c->peer_addr, 0, 16);
  memcpy (c->peer_addr, &a.sin_addr.s_addr, 4);
  c->peer_port = ntohs (a.sin_port);
  return TRUE;
}

/* 1: whole message; 0: orderly end of the connection before a message
 * started (or the process is stopping); -1: error. */
static int
read_full (Conn    *c,
           guint8  *buf,
           gsize    len,
           gboolean at_message_start)
{
  gsize done = 0;

  while (done < len)
    {
      ssize_t n = recv (c->fd, buf + done, len - done, 0);

      if (n > 0)
        done += (gsize) n;
      else if (n == 0)
        {
          if ((done == 0 && at_message_start) || g_atomic_int_get (&peer.stop))
            return 0;
          conn_fail (c, "connection closed in the middle of a message");
          return -1;
        }
      else if (errno != EINTR)
        {
          if (g_atomic_int_get (&peer.stop))
            return 0;
          conn_fail (c, "recv: %s", g_strerror (errno));
          return -1;
        }
    }
  return 1;
}

static gboolean
write_full (Conn         *c,
            const guint8 *buf,
            gsize         len)
{
  gsize done = 0;

  while (done < len)
    {
      ssize_t n = send (c->fd, buf + done, len - done, MSG_NOSIGNAL);

      if (n >= 0)
        done += (gsize) n;
      else if (errno != EINTR)
        {
          if (!g_atomic_int_get (&peer.stop))
            conn_fail (c, "send: %s", g_strerror (errno));
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
send_message (Conn   *c,
              guint8 *buf,
              gsize   size)
{
  guint32 *h = (guint32 *) buf;

  h[0] = htonl (MAGIC);
  h[1] = htonl ((uint32_t) size);
  h[2] = htonl (c->sent);
  h[3] = htonl (c->received);
  tracepoint (syncline_net, tcp_send, 4, c->local_addr, c->peer_addr,
              c->local_port, c->peer_port, c->sent, c->received, TCP_FLAGS);
  if (!write_full (c, buf, size))
    return FALSE;
  c->sent += (uint32_t) size;
  c->messages_sent++;
  return TRUE;
}

/* 1, 0 or -1 as read_full(); the message (of any valid size, *BUF grown to
 * fit) in *BUF, its size in *SIZE. */
static int
receive_message (Conn    *c,
                 guint8 **buf,
                 gsize   *cap,
                 gsize   *size)
{
  guint32 h[4];
  int r;

  r = read_full (c, (guint8 *) h, HEADER_SIZE, TRUE);
  if (r <= 0)
    return r;
  *size = ntohl (h[1]);
  if (ntohl (h[0]) != MAGIC || *size < HEADER_SIZE || *size > MAX_SIZE)
    {
      conn_fail (c, "bad message header (magic %08x, size %u)", ntohl (h[0]), ntohl (h[1]));
      return -1;
    }
  if (ntohl (h[2]) != c->received)
    {
      conn_fail (c, "the peer says it had sent %u bytes, %u were received", ntohl (h[2]), c->received);
      return -1;
    }
  if (*size > *cap)
    {
      *buf = g_realloc (*buf, *size);
      *cap = *size;
    }
  memcpy (*buf, h, HEADER_SIZE);
  r = read_full (c, *buf + HEADER_SIZE, *size - HEADER_SIZE, FALSE);
  if (r <= 0)
    return r;
  tracepoint (syncline_net, tcp_recv, 4, c->peer_addr, c->local_addr,
              c->peer_port, c->local_port, c->received, ntohl (h[3]), TCP_FLAGS);
  c->received += (uint32_t) *size;
  c->messages_received++;
  return 1;
}

static void
sleep_until (gint64 t_ns)
{
  struct timespec ts = { (time_t) (t_ns / 1000000000), (long) (t_ns % 1000000000) };

  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
    ;
}

static void *
client_thread (void *data)
{
  Conn *c = data;
  gsize cap = peer.size, size = 0;
  guint8 *buf = g_malloc0 (cap);
  gint64 start = now_ns ();
  gint64 period = peer.rate > 0 ? (gint64) (1e9 / peer.rate) : 0;

  for (gint64 i = 0; !g_atomic_int_get (&peer.stop); i++)
    {
      if (peer.count > 0 && i >= peer.count)
        break;
      if (period > 0)
        sleep_until (start + i * period);
      if (peer.deadline_ns != 0 && now_ns () >= peer.deadline_ns)
        break;
      if (g_atomic_int_get (&peer.stop) || !send_message (c, buf, peer.size))
        break;
      if (receive_message (c, &buf, &cap, &size) <= 0)
        {
          /* not an error: a server given a --duration may end first */
          if (c->error == NULL && !g_atomic_int_get (&peer.stop))
            g_printerr ("sl-test-netpeer: the server of connection %u->%u closed it after %" G_GINT64_FORMAT
                        " round trips\n", c->local_port, c->peer_port, i);
          break;
        }
      if (size != peer.size)
        {
          conn_fail (c, "a reply of %" G_GSIZE_FORMAT " bytes to a request of %" G_GSIZE_FORMAT, size, peer.size);
          break;
        }
    }
  g_free (buf);
  shutdown (c->fd, SHUT_WR);
  g_atomic_int_add (&peer.clients_running, -1);
  return NULL;
}

static void *
server_thread (void *data)
{
  Conn *c = data;
  gsize cap = HEADER_SIZE, size = 0;
  guint8 *buf = g_malloc0 (cap);

  /* the reply has the request's size */
  while (!g_atomic_int_get (&peer.stop))
    {
      if (receive_message (c, &buf, &cap, &size) <= 0)
        break;
      if (!send_message (c, buf, size))
        break;
    }
  g_free (buf);
  shutdown (c->fd, SHUT_RDWR);
  return NULL;
}

static void
tune_socket (int fd)
{
  int one = 1;

  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static Conn *
conn_start (int      fd,
            gboolean is_client,
            guint16  port)
{
  Conn *c = g_new0 (Conn, 1);
  int err;

  c->fd = fd;
  c->is_client = is_client;
  c->port = port;
  tune_socket (fd);
  g_mutex_lock (&peer.lock);
  g_ptr_array_add (peer.conns, c);
  g_mutex_unlock (&peer.lock);
  if (!fill_addresses (c))
    {
      c->joined = TRUE;
      return c;
    }
  err = pthread_create (&c->thread, NULL, is_client ? client_thread : server_thread, c);
  if (err != 0)
    {
      conn_fail (c, "pthread_create: %s", g_strerror (err));
      c->joined = TRUE;
    }
  return c;
}

static void *
accept_thread (void *data)
{
  while (!g_atomic_int_get (&peer.stop))
    {
      int fd = accept4 (peer.listen_fd, NULL, NULL, SOCK_CLOEXEC);

      if (fd < 0)
        {
          if (errno == EINTR || errno == ECONNABORTED)
            continue;
          if (!g_atomic_int_get (&peer.stop))
            g_printerr ("sl-test-netpeer: accept: %s\n", g_strerror (errno));
          break;
        }
      if (g_atomic_int_get (&peer.stop))
        {
          close (fd);
          break;
        }
      conn_start (fd, FALSE, peer.listen_port);
    }
  return NULL;
}

static int
connect_port (guint16 port)
{
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons (port) };
  gint64 give_up = now_ns () + 10 * G_GINT64_CONSTANT (1000000000);

  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  for (;;)
    {
      int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

      if (fd < 0)
        {
          g_printerr ("sl-test-netpeer: socket: %s\n", g_strerror (errno));
          return -1;
        }
      if (connect (fd, (struct sockaddr *) &a, sizeof a) == 0)
        return fd;
      close (fd);
      /* the server may still be starting */
      if (errno != ECONNREFUSED || now_ns () > give_up || g_atomic_int_get (&peer.stop))
        {
          g_printerr ("sl-test-netpeer: connect to 127.0.0.1:%u: %s\n", port, g_strerror (errno));
          return -1;
        }
      g_usleep (20000);
    }
}

static int
listen_port (guint16 port)
{
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons (port) };
  int one = 1;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (fd < 0)
    {
      g_printerr ("sl-test-netpeer: socket: %s\n", g_strerror (errno));
      return -1;
    }
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind (fd, (struct sockaddr *) &a, sizeof a) != 0 || listen (fd, 64) != 0)
    {
      g_printerr ("sl-test-netpeer: listen on 127.0.0.1:%u: %s\n", port, g_strerror (errno));
      close (fd);
      return -1;
    }
  return fd;
}

static gboolean
parse_ports (const char *option_name,
             const char *value,
             gpointer    data,
             GError    **error)
{
  g_auto(GStrv) parts = g_strsplit (value, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 v;

      if (!g_ascii_string_to_unsigned (parts[i], 10, 1, 65535, &v, error))
        return FALSE;
      guint16 p = (guint16) v;
      g_array_append_val (peer.connect_ports, p);
    }
  return TRUE;
}

static gboolean
write_ready_file (GError **error)
{
  g_autofree char *tmp = g_strconcat (peer.ready_file, ".tmp", NULL);
  g_autofree char *text = g_strdup_printf ("%d\n", (int) getpid ());

  if (!g_file_set_contents (tmp, text, -1, error))
    return FALSE;
  if (g_rename (tmp, peer.ready_file) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "rename %s: %s", tmp,
                   g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  gint64 listen_port_opt = 0, count = 0, size = 64;
  double rate = 0, duration = 0;
  g_autofree char *ready_file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) ctx = NULL;
  GOptionEntry entries[] = {
    { "listen", 0, 0, G_OPTION_ARG_INT64, &listen_port_opt, "Serve on 127.0.0.1:PORT", "PORT" },
    { "connect", 0, 0, G_OPTION_ARG_CALLBACK, parse_ports, "Connect to 127.0.0.1:PORT", "PORT[,PORT...]" },
    { "rate", 0, 0, G_OPTION_ARG_DOUBLE, &rate, "Round trips per second per connection (0: as fast as possible)", "HZ" },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration, "Stop after S seconds", "S" },
    { "count", 0, 0, G_OPTION_ARG_INT64, &count, "Round trips per connection", "N" },
    { "size", 0, 0, G_OPTION_ARG_INT64, &size, "Message size (default 64, at least 16)", "BYTES" },
    { "ready-file", 0, 0, G_OPTION_ARG_FILENAME, &ready_file, "Written once listening and connected", "PATH" },
    { NULL }
  };
  sigset_t signals;
  pthread_t acceptor;
  gboolean have_acceptor = FALSE;
  int status = 0;
  guint64 total_sent = 0, total_received = 0;

  peer.connect_ports = g_array_new (FALSE, FALSE, sizeof (guint16));
  peer.conns = g_ptr_array_new ();
  peer.listen_fd = -1;
  g_mutex_init (&peer.lock);

  ctx = g_option_context_new ("- the traced program of a simulated host");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("sl-test-netpeer: %s\n", error->message);
      return 2;
    }
  if (argc > 1 || listen_port_opt < 0 || listen_port_opt > 65535 || rate < 0 || duration < 0
      || count < 0 || size < HEADER_SIZE || size > MAX_SIZE
      || (listen_port_opt == 0 && peer.connect_ports->len == 0))
    {
      g_printerr ("sl-test-netpeer: bad arguments (see --help): need --listen and/or --connect, "
                  "0 < PORT < 65536, HZ, S, N >= 0, 16 <= BYTES <= 16 MiB\n");
      return 2;
    }
  peer.listen_port = (guint16) listen_port_opt;
  peer.rate = rate;
  peer.count = count;
  peer.size = (gsize) size;
  peer.ready_file = ready_file;
  peer.duration = duration;

  /* Every thread inherits the blocked set; the main thread alone takes
   * SIGTERM/SIGINT with sigtimedwait(). */
  sigemptyset (&signals);
  sigaddset (&signals, SIGTERM);
  sigaddset (&signals, SIGINT);
  pthread_sigmask (SIG_BLOCK, &signals, NULL);
  signal (SIGPIPE, SIG_IGN);

  if (duration > 0)
    peer.deadline_ns = now_ns () + (gint64) (duration * 1e9);

  if (peer.listen_port != 0)
    {
      peer.listen_fd = listen_port (peer.listen_port);
      if (peer.listen_fd < 0)
        return 1;
      if (pthread_create (&acceptor, NULL, accept_thread, NULL) != 0)
        {
          g_printerr ("sl-test-netpeer: cannot start the accepting thread\n");
          return 1;
        }
      have_acceptor = TRUE;
    }

  peer.clients_running = (gint) peer.connect_ports->len;
  for (guint i = 0; i < peer.connect_ports->len; i++)
    {
      guint16 port = g_array_index (peer.connect_ports, guint16, i);
      int fd = connect_port (port);

      if (fd < 0)
        {
          status = 1;
          g_atomic_int_set (&peer.stop, 1);
          break;
        }
      Conn *c = conn_start (fd, TRUE, port);
      if (c->joined)
        {
          g_printerr ("sl-test-netpeer: connection to %u: %s\n", port, c->error);
          status = 1;
          g_atomic_int_set (&peer.stop, 1);
          break;
        }
    }

  if (status == 0 && peer.ready_file != NULL && !write_ready_file (&error))
    {
      g_printerr ("sl-test-netpeer: ready file: %s\n", error->message);
      status = 1;
      g_atomic_int_set (&peer.stop, 1);
    }

  /* Wait for a signal, the deadline, or (client only) the clients' end. */
  while (status == 0)
    {
      struct timespec ts = { 0, 20 * 1000 * 1000 };

      if (sigtimedwait (&signals, NULL, &ts) > 0)
        break;
      if (peer.deadline_ns != 0 && now_ns () >= peer.deadline_ns)
        break;
      if (peer.listen_port == 0 && peer.connect_ports->len > 0
          && g_atomic_int_get (&peer.clients_running) == 0)
        break;
    }

  /* Stop: wake every blocked thread by shutting its socket down. */
  g_atomic_int_set (&peer.stop, 1);
  if (peer.listen_fd >= 0)
    shutdown (peer.listen_fd, SHUT_RDWR);
  if (have_acceptor)
    pthread_join (acceptor, NULL);
  g_mutex_lock (&peer.lock);
  for (guint i = 0; i < peer.conns->len; i++)
    shutdown (((Conn *) peer.conns->pdata[i])->fd, SHUT_RDWR);
  g_mutex_unlock (&peer.lock);
  /* the acceptor is gone: the array no longer changes */
  for (guint i = 0; i < peer.conns->len; i++)
    {
      Conn *c = peer.conns->pdata[i];

      if (!c->joined)
        pthread_join (c->thread, NULL);
      c->joined = TRUE;
      close (c->fd);
      total_sent += c->messages_sent;
      total_received += c->messages_received;
      if (c->error != NULL)
        {
          g_printerr ("sl-test-netpeer: %s connection %u->%u: %s\n", c->is_client ? "client" : "server",
                      c->local_port, c->peer_port, c->error);
          status = 1;
        }
      g_free (c->error);
      g_free (c);
    }
  if (peer.listen_fd >= 0)
    close (peer.listen_fd);
  g_print ("sl-test-netpeer: sent %" G_GUINT64_FORMAT " received %" G_GUINT64_FORMAT " messages\n",
           total_sent, total_received);
  g_ptr_array_free (peer.conns, TRUE);
  g_array_free (peer.connect_ports, TRUE);
  return status;
}
