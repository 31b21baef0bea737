/* sl-decoder.c: the readers' side of a syncline-decoder process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* posix_spawn_file_actions_addclosefrom_np(), pipe2() */
#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sl-decoder.h"

/*
 * Each decoder is a process (see sl-decoder-main.c for why). Its frames
 * are read here in steps: a data frame (packet events, strings, timeline
 * events) is handed out only once the COMMIT that ends its step has
 * arrived, so a decoder that dies mid-step leaves nothing half delivered.
 * Its standard error is kept (the last lines: babeltrace2's message before
 * an abort, a sanitizer's report) for the problem that says why it died.
 *
 * Its standard input is a socket on which the reader pauses and resumes
 * it (one byte, SL_DECODER_PAUSE or SL_DECODER_RESUME, read between two
 * steps). Not SIGSTOP: a process stopped while it exits inside
 * LeakSanitizer's check (which traces its own threads) never resumed, and
 * a signal can stop it at any point, locks held.
 */

#define STDERR_KEEP 2048

/* The decoder's output pipe holds a whole step (~200 kB of a kernel
 * trace's timeline events): with Linux's 64 kB the reader was woken and
 * the decoder blocked several times per step. Pipes count against the
 * user's pipe-user-pages-soft whatever they hold, and once a user is past
 * it every new pipe gets two pages, so the pages added here stay within a
 * quarter of it (the rest of the decoders keep the default). */
#define PIPE_BYTES        (256u << 10)
#define PIPE_DEFAULT      (64u << 10)
#define PIPE_SOFT_SHARE   4

static gint pipe_pages_left;
static GOnce pipe_once = G_ONCE_INIT;

struct _SlDecoder
{
  GPid          pid;
  int           out_fd;
  int           err_fd;
  int           control_fd;
  SlWireReader  reader;
  gsize         released;
  GString      *err_tail;
  gboolean      eof;
  gboolean      reaped;
  int           wait_status;
  gint          pipe_pages;
};

/* ---------------------------------------------------------------------- */
/* The program                                                             */

static gpointer
find_program (gpointer data)
{
  const char *env = g_getenv ("SL_DECODER");
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  /* a program of the build tree uses the build tree's decoder */
  if (exe != NULL && g_str_has_prefix (exe, SL_BUILD_ROOT G_DIR_SEPARATOR_S) &&
      g_file_test (SL_DECODER_BUILD_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (SL_DECODER_BUILD_PATH);
  if (g_file_test (SL_DECODER_INSTALL_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (SL_DECODER_INSTALL_PATH);
  if (g_file_test (SL_DECODER_BUILD_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (SL_DECODER_BUILD_PATH);
  return NULL;
}

/**
 * sl_decoder_get_program:
 *
 * Where syncline-decoder is: $SL_DECODER, the build tree's for a program
 * of the build tree, else the installed one.
 */
const char *
sl_decoder_get_program (GError **error)
{
  static GOnce once = G_ONCE_INIT;
  const char *path = g_once (&once, find_program, NULL);

  if (path == NULL)
    g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT,
                 "the trace decoder is not installed (no %s)", SL_DECODER_INSTALL_PATH);
  return path;
}

/* ---------------------------------------------------------------------- */
/* Process                                                                 */

static guint64
read_proc_number (const char *path,
                  guint64     fallback)
{
  g_autofree char *text = NULL;
  guint64 v;

  if (!g_file_get_contents (path, &text, NULL, NULL) ||
      !g_ascii_string_to_unsigned (g_strstrip (text), 10, 0, G_MAXINT32, &v, NULL))
    return fallback;
  return v;
}

static gpointer
init_pipe_budget (gpointer data)
{
  guint64 soft = read_proc_number ("/proc/sys/fs/pipe-user-pages-soft", 16384);

  /* 0: no limit */
  g_atomic_int_set (&pipe_pages_left, (gint) (soft == 0 ? G_MAXINT32 : soft / PIPE_SOFT_SHARE));
  return GUINT_TO_POINTER (MIN (read_proc_number ("/proc/sys/fs/pipe-max-size", PIPE_DEFAULT), PIPE_BYTES));
}

/* Enlarges @fd's pipe if the budget allows; quietly keeps it as it is
 * otherwise. Returns the pages taken from the budget. */
static gint
enlarge_pipe (int fd)
{
  guint bytes = GPOINTER_TO_UINT (g_once (&pipe_once, init_pipe_budget, NULL));
  int before = fcntl (fd, F_GETPIPE_SZ);
  gint pages;

  if (before < 0 || bytes <= (guint) before)
    return 0;
  pages = (gint) ((bytes - (guint) before) / 4096);
  if (g_atomic_int_add (&pipe_pages_left, -pages) < pages || fcntl (fd, F_SETPIPE_SZ, (int) bytes) < 0)
    {
      g_atomic_int_add (&pipe_pages_left, pages);
      return 0;
    }
  return pages;
}

/* A descriptor of ours at 0, 1 or 2 (a parent started with them closed)
 * is moved above them, so that placing the child's would not clobber it. */
static gboolean
fd_above_stdio (int *fd)
{
  int moved;

  if (*fd > 2)
    return TRUE;
  moved = fcntl (*fd, F_DUPFD_CLOEXEC, 3);
  if (moved < 0)
    return FALSE;
  close (*fd);
  *fd = moved;
  return TRUE;
}

/* posix_spawn(), not fork(): glibc's starts the child in our address
 * space (clone with CLONE_VM | CLONE_VFORK), where fork() copied the page
 * tables of a process that may hold gigabytes of events, once per host,
 * and made every thread of ours fault on the pages it then wrote. The
 * child gets @fds as its standard input, output and error, nothing else
 * of ours, and the default signal actions and mask. */
static gboolean
spawn_process (const char *const *argv,
               const char *const *envp,
               int                fds[3],
               GPid              *pid,
               GError           **error)
{
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  sigset_t mask;
  int rc;

  for (guint i = 0; i < 3; i++)
    if (!fd_above_stdio (&fds[i]))
      {
        int saved = errno;

        g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "%s", g_strerror (saved));
        return FALSE;
      }
  posix_spawn_file_actions_init (&actions);
  posix_spawnattr_init (&attr);
  for (guint i = 0; i < 3; i++)
    posix_spawn_file_actions_adddup2 (&actions, fds[i], (int) i);
  posix_spawn_file_actions_addclosefrom_np (&actions, 3);
  sigemptyset (&mask);
  posix_spawnattr_setsigmask (&attr, &mask);
  sigaddset (&mask, SIGPIPE);
  sigaddset (&mask, SIGCHLD);
  sigaddset (&mask, SIGINT);
  sigaddset (&mask, SIGTERM);
  sigaddset (&mask, SIGHUP);
  posix_spawnattr_setsigdefault (&attr, &mask);
  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  rc = posix_spawn (pid, argv[0], &actions, &attr, (char *const *) argv, (char *const *) envp);
  posix_spawnattr_destroy (&attr);
  posix_spawn_file_actions_destroy (&actions);
  if (rc != 0)
    {
      g_set_error (error, G_SPAWN_ERROR, rc == ENOENT ? G_SPAWN_ERROR_NOENT : G_SPAWN_ERROR_FAILED, "cannot run %s: %s", argv[0],
                   g_strerror (rc));
      return FALSE;
    }
  return TRUE;
}

/**
 * sl_decoder_spawn:
 * @args: the decoder's arguments (mode first), %NULL-terminated
 */
SlDecoder *
sl_decoder_spawn (const char *const  *args,
                  GError            **error)
{
  const char *program = sl_decoder_get_program (error);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = NULL;
  g_autofree char *parent = g_strdup_printf ("%d", (int) getpid ());
  SlDecoder *d;
  GPid pid;
  int control[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
  int child[3];
  gboolean spawned;
  gint pipe_pages;

  g_return_val_if_fail (args != NULL, NULL);

  if (program == NULL)
    return NULL;
  g_ptr_array_add (argv, (char *) program);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (g_get_environ (), "SL_DECODER_PARENT", parent, TRUE);

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, control) < 0 || pipe2 (out, O_CLOEXEC) < 0 ||
      pipe2 (err, O_CLOEXEC) < 0)
    {
      int saved = errno;
      int *all[] = { control, out, err };

      for (guint i = 0; i < G_N_ELEMENTS (all); i++)
        for (guint j = 0; j < 2; j++)
          if (all[i][j] >= 0)
            close (all[i][j]);
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "cannot start the trace decoder: %s",
                   g_strerror (saved));
      return NULL;
    }
  pipe_pages = enlarge_pipe (out[0]);
  child[0] = control[1];
  child[1] = out[1];
  child[2] = err[1];
  spawned = spawn_process ((const char *const *) argv->pdata, (const char *const *) envp, child, &pid, error);
  for (guint i = 0; i < 3; i++)
    close (child[i]);
  if (!spawned)
    {
      g_atomic_int_add (&pipe_pages_left, pipe_pages);
      close (control[0]);
      close (out[0]);
      close (err[0]);
      return NULL;
    }

  d = g_new0 (SlDecoder, 1);
  d->pid = pid;
  d->out_fd = out[0];
  d->err_fd = err[0];
  d->control_fd = control[0];
  d->err_tail = g_string_new (NULL);
  d->pipe_pages = pipe_pages;
  sl_wire_reader_init (&d->reader, out[0]);
  return d;
}

/* Kills the decoder now (from any thread): its reader then sees the end. */
void
sl_decoder_kill (SlDecoder *decoder)
{
  g_return_if_fail (decoder != NULL);

  if (!decoder->reaped)
    kill (decoder->pid, SIGKILL);
}

/* A paused decoder uses no processor (the folder reader's --threads): it
 * waits on its control socket after the step it is in. */
void
sl_decoder_pause (SlDecoder *decoder,
                  gboolean   paused)
{
  const char byte = paused ? SL_DECODER_PAUSE : SL_DECODER_RESUME;

  g_return_if_fail (decoder != NULL);

  /* a decoder that is gone reads nothing: no SIGPIPE, no wait */
  if (!decoder->reaped && decoder->control_fd >= 0)
    while (send (decoder->control_fd, &byte, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno == EINTR)
      ;
}

/* SIGABRT makes the decoder say where it was before it dies. */
void
sl_decoder_signal (SlDecoder *decoder,
                   int        signo)
{
  g_return_if_fail (decoder != NULL);

  if (!decoder->reaped)
    kill (decoder->pid, signo);
}

/* Processor time the decoder used (µs), -1 when unknown. */
gint64
sl_decoder_get_cpu_us (SlDecoder *decoder)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) decoder->pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) fields = NULL;
  const char *close_paren;
  long ticks = sysconf (_SC_CLK_TCK);

  if (!g_file_get_contents (path, &text, NULL, NULL) || ticks <= 0)
    return -1;
  /* "pid (comm) state ppid …": the command may hold spaces */
  close_paren = strrchr (text, ')');
  if (close_paren == NULL)
    return -1;
  fields = g_strsplit (close_paren + 2, " ", 0);
  if (g_strv_length (fields) < 13)
    return -1;
  /* utime and stime are fields 14 and 15, 12 and 13 after the command */
  return (gint64) (g_ascii_strtoull (fields[11], NULL, 10) + g_ascii_strtoull (fields[12], NULL, 10)) *
         G_USEC_PER_SEC / ticks;
}

static void
close_fd (int *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

static void
read_stderr (SlDecoder *d)
{
  char buf[4096];
  ssize_t n = read (d->err_fd, buf, sizeof buf);

  if (n <= 0)
    {
      close_fd (&d->err_fd);
      return;
    }
  g_string_append_len (d->err_tail, buf, n);
  if (d->err_tail->len > 2 * STDERR_KEEP)
    g_string_erase (d->err_tail, 0, (gssize) (d->err_tail->len - STDERR_KEEP));
}

static gboolean
is_data (SlWireType type)
{
  return type == SL_WIRE_PACKETS || type == SL_WIRE_STRING || type == SL_WIRE_PACKET_INFO ||
         type == SL_WIRE_EVENTS;
}

static gboolean
ends_step (SlWireType type)
{
  return type == SL_WIRE_COMMIT || type == SL_WIRE_END || type == SL_WIRE_FATAL;
}

/* Looks ahead of the next frame for the end of its step; what lies up to
 * it can be handed out. */
static void
release (SlDecoder *d)
{
  SlWireReader *r = &d->reader;
  gsize off = r->pos + d->released;
  gboolean data = FALSE;

  while (r->len - off >= sizeof (SlWireHeader))
    {
      SlWireHeader h;

      memcpy (&h, r->buf + off, sizeof h);
      if (h.size > SL_WIRE_MAX_FRAME || r->len - off - sizeof h < h.size)
        return;
      off += sizeof h + h.size;
      if (is_data (h.type))
        data = TRUE;
      else if (ends_step (h.type) || !data)
        {
          /* a frame that is not data goes at once, unless data of a step
           * not committed yet is before it */
          d->released = off - r->pos;
          if (ends_step (h.type))
            return;
        }
    }
}

/* Waits for the decoder's output (or its standard error) up to @end. */
static gboolean
wait_output (SlDecoder *d,
             gint64     end)
{
  struct pollfd p[2] = { { d->out_fd, POLLIN, 0 }, { d->err_fd, POLLIN, 0 } };
  gint64 left = end - g_get_monotonic_time ();
  int rc;

  if (left < 0)
    return FALSE;
  rc = poll (p, d->err_fd >= 0 ? 2 : 1, (int) MIN ((left + 999) / 1000, G_MAXINT));
  if (rc < 0)
    return errno == EINTR;
  if (rc == 0)
    return FALSE;
  if (d->err_fd >= 0 && p[1].revents != 0)
    read_stderr (d);
  if (p[0].revents != 0 && sl_wire_fill (&d->reader) == SL_WIRE_READ_EOF)
    d->eof = TRUE;
  return TRUE;
}

/**
 * sl_decoder_next:
 * @timeout_us: how long to wait for a frame
 *
 * The next frame, once it can be handed out (a data frame when its step
 * is committed). EOF: the decoder is gone (call sl_decoder_finish());
 * what it wrote after its last commit is dropped.
 */
SlDecoderStatus
sl_decoder_next (SlDecoder   *decoder,
                 SlWireFrame *frame,
                 gint64       timeout_us)
{
  gint64 end = g_get_monotonic_time () + MAX (timeout_us, 0);

  g_return_val_if_fail (decoder != NULL, SL_DECODER_EOF);

  for (;;)
    {
      SlWireReader *r = &decoder->reader;

      if (decoder->released == 0)
        release (decoder);
      if (decoder->released > 0)
        {
          gsize before = r->pos;

          if (sl_wire_next (r, frame) != SL_WIRE_READ_FRAME)
            break;
          decoder->released -= r->pos - before;
          return SL_DECODER_FRAME;
        }
      if (r->len - r->pos >= sizeof (SlWireHeader))
        {
          SlWireHeader h;

          memcpy (&h, r->buf + r->pos, sizeof h);
          if (h.size > SL_WIRE_MAX_FRAME || h.type < SL_WIRE_HELLO || h.type > SL_WIRE_END)
            break;
        }
      if (decoder->eof)
        return SL_DECODER_EOF;
      if (!wait_output (decoder, end))
        return SL_DECODER_TIMEOUT;
    }
  /* not our protocol: stop it */
  sl_decoder_kill (decoder);
  decoder->eof = TRUE;
  return SL_DECODER_EOF;
}

static char *
describe_exit (SlDecoder *d)
{
  g_autoptr(GString) s = g_string_new (NULL);
  int st = d->wait_status;

  if (WIFEXITED (st) && WEXITSTATUS (st) == 0)
    return NULL;
  if (WIFSIGNALED (st))
    g_string_printf (s, "killed by signal %d (%s)", WTERMSIG (st), g_strsignal (WTERMSIG (st)));
  else if (WIFEXITED (st))
    g_string_printf (s, "exited with status %d", WEXITSTATUS (st));
  else
    g_string_assign (s, "ended");

  /* the last line babeltrace2 or a sanitizer wrote says why */
  if (d->err_tail->len > 0)
    {
      g_auto(GStrv) lines = g_strsplit (d->err_tail->str, "\n", -1);
      const char *last = NULL;

      for (guint i = 0; lines[i] != NULL; i++)
        if (g_strstrip (lines[i])[0] != '\0' && strstr (lines[i], "==ABORTING") == NULL)
          last = lines[i];
      if (last != NULL)
        g_string_append_printf (s, ": %.300s", last);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/**
 * sl_decoder_finish:
 *
 * Waits for the decoder to end (kill it first to end it now).
 *
 * Returns: %NULL when it exited normally, else what happened to it
 */
char *
sl_decoder_finish (SlDecoder *decoder)
{
  g_return_val_if_fail (decoder != NULL, NULL);

  if (!decoder->reaped)
    {
      while (decoder->err_fd >= 0)
        read_stderr (decoder);
      while (waitpid (decoder->pid, &decoder->wait_status, 0) < 0 && errno == EINTR)
        ;
      decoder->reaped = TRUE;
      g_spawn_close_pid (decoder->pid);
    }
  return describe_exit (decoder);
}

void
sl_decoder_free (SlDecoder *decoder)
{
  if (decoder == NULL)
    return;
  if (!decoder->reaped)
    {
      sl_decoder_kill (decoder);
      g_free (sl_decoder_finish (decoder));
    }
  close_fd (&decoder->out_fd);
  g_atomic_int_add (&pipe_pages_left, decoder->pipe_pages);
  close_fd (&decoder->err_fd);
  close_fd (&decoder->control_fd);
  sl_wire_reader_clear (&decoder->reader);
  g_string_free (decoder->err_tail, TRUE);
  g_free (decoder);
}

int
_sl_decoder_get_pipe_size (SlDecoder *decoder)
{
  g_return_val_if_fail (decoder != NULL, -1);
  return fcntl (decoder->out_fd, F_GETPIPE_SZ);
}

void
_sl_decoder_set_pipe_budget (gint pages)
{
  g_once (&pipe_once, init_pipe_budget, NULL);
  g_atomic_int_set (&pipe_pages_left, pages);
}

/* ---------------------------------------------------------------------- */
/* Data frames                                                             */

void
sl_decoder_target_reset (SlDecoderTarget *target)
{
  if (target->strings == NULL)
    target->strings = g_array_new (FALSE, TRUE, sizeof (guint32));
  if (target->consumed == NULL)
    target->consumed = g_array_new (FALSE, TRUE, sizeof (guint64));
  if (target->packet_infos == NULL)
    target->packet_infos = g_array_new (FALSE, FALSE, sizeof (SlEventPacket));
  g_array_set_size (target->strings, 1);
  g_array_set_size (target->consumed, 0);
  g_array_set_size (target->packet_infos, 0);
  target->events = target->ignored = target->unusable = 0;
}

void
sl_decoder_target_clear (SlDecoderTarget *target)
{
  g_clear_pointer (&target->strings, g_array_unref);
  g_clear_pointer (&target->consumed, g_array_unref);
  g_clear_pointer (&target->packet_infos, g_array_unref);
}

/**
 * sl_decoder_target_continue:
 *
 * @target's store holds a host's history (read from a folder): events at
 * or before its last are not stored again, and when the first new event
 * comes after a gap, a lost-events mark says that what happened in
 * between is not known. Call it before the first frame.
 */
void
sl_decoder_target_continue (SlDecoderTarget *target)
{
  gint64 last;

  g_return_if_fail (target != NULL && target->store != NULL);

  target->continues = sl_event_store_get_time_range (target->store, NULL, &last);
  target->after = target->continues ? last : G_MININT64;
}

static void
apply_string (SlDecoderTarget *t,
              const guint8    *data,
              gsize            size)
{
  g_autofree char *str = NULL;
  guint32 id;

  if (size < sizeof id || t->store == NULL)
    return;
  memcpy (&id, data, sizeof id);
  if (id == 0 || id > G_MAXINT32)
    return;
  str = sl_wire_string (data + sizeof id, size - sizeof id);
  if (id >= t->strings->len)
    g_array_set_size (t->strings, id + 1);
  g_array_index (t->strings, guint32, id) = sl_event_store_intern (t->store, str);
}

static void
apply_packet_info (SlDecoderTarget *t,
                   const guint8    *data,
                   gsize            size)
{
  if (t->store == NULL)
    return;
  g_array_set_size (t->packet_infos, 0);
  g_array_append_vals (t->packet_infos, data, (guint) (size / sizeof (SlEventPacket)));
}

/* Once a store is continued, what it holds already is not added again
 * and a gap before the first new event is marked. */
static gboolean
continues_after (SlDecoderTarget *t,
                 const SlEvent   *e)
{
  if (!t->continues)
    return TRUE;
  if (e->time <= t->after)
    return FALSE;
  if (!t->resumed)
    {
      t->resumed = TRUE;
      if (e->time > t->after + 1)
        {
          SlEvent gap = { 0 };

          gap.time = t->after + 1;
          gap.cpu = G_MAXUINT16;
          gap.kind = SL_EVENT_LOST;
          sl_event_store_append (t->store, &gap);
        }
    }
  return TRUE;
}

static void
apply_events (SlDecoderTarget *t,
              const guint8    *data,
              gsize            size)
{
  guint next_info = 0;

  if (t->store == NULL)
    return;
  if (!t->continues)
    {
      sl_event_store_append_many (t->store, data, size / sizeof (SlEvent), (const guint32 *) t->strings->data,
                                  t->strings->len, (const SlEventPacket *) t->packet_infos->data,
                                  t->packet_infos->len);
      g_array_set_size (t->packet_infos, 0);
      return;
    }
  for (gsize off = 0; off + sizeof (SlEvent) <= size; off += sizeof (SlEvent))
    {
      const SlEventPacket *info = NULL;
      SlEvent e;

      memcpy (&e, data + off, sizeof e);
      if (e.kind <= SL_EVENT_NONE || e.kind >= SL_EVENT_N_KINDS)
        continue;
      if ((e.kind == SL_EVENT_PACKET_SEND || e.kind == SL_EVENT_PACKET_RECV) && next_info < t->packet_infos->len)
        info = &g_array_index (t->packet_infos, SlEventPacket, next_info++);
      if (!continues_after (t, &e))
        continue;
      e.str = e.str < t->strings->len ? g_array_index (t->strings, guint32, e.str) : 0;
      if (info != NULL)
        sl_event_store_append_packet (t->store, &e, info);
      else
        sl_event_store_append (t->store, &e);
    }
  g_array_set_size (t->packet_infos, 0);
}

static void
apply_commit (SlDecoderTarget *t,
              const guint8    *data,
              gsize            size)
{
  SlWireCommit c;

  if (size < sizeof c)
    return;
  memcpy (&c, data, sizeof c);
  if (c.events >= t->events && c.ignored >= t->ignored && c.unusable >= t->unusable)
    {
      sl_feed_count (t->feed, c.events - t->events, c.ignored - t->ignored, c.unusable - t->unusable);
      t->events = c.events;
      t->ignored = c.ignored;
      t->unusable = c.unusable;
    }
  sl_feed_span (t->feed, c.first, c.last);
  sl_feed_seen (t->feed, c.seen);
  if (size - sizeof c >= (gsize) c.n_inputs * sizeof (guint64))
    {
      g_array_set_size (t->consumed, c.n_inputs);
      memcpy (t->consumed->data, data + sizeof c, (gsize) c.n_inputs * sizeof (guint64));
    }
}

/**
 * sl_decoder_apply:
 *
 * Takes a data frame or a commit into @target (the caller publishes the
 * feed after a commit). Returns FALSE for the other frames.
 */
gboolean
sl_decoder_apply (SlDecoderTarget   *target,
                  const SlWireFrame *frame)
{
  switch (frame->type)
    {
    case SL_WIRE_PACKETS:
      for (gsize off = 0; off + sizeof (SlPacketEvent) <= frame->size; off += sizeof (SlPacketEvent))
        {
          SlPacketEvent e;

          memcpy (&e, frame->data + off, sizeof e);
          sl_feed_push (target->feed, &e);
        }
      return TRUE;

    case SL_WIRE_STRING:
    case SL_WIRE_PACKET_INFO:
    case SL_WIRE_EVENTS:
      if (target->store_lock != NULL)
        g_mutex_lock (target->store_lock);
      if (frame->type == SL_WIRE_STRING)
        apply_string (target, frame->data, frame->size);
      else if (frame->type == SL_WIRE_PACKET_INFO)
        apply_packet_info (target, frame->data, frame->size);
      else
        apply_events (target, frame->data, frame->size);
      if (target->store_lock != NULL)
        g_mutex_unlock (target->store_lock);
      return TRUE;

    case SL_WIRE_COMMIT:
      apply_commit (target, frame->data, frame->size);
      return TRUE;

    default:
      return FALSE;
    }
}
