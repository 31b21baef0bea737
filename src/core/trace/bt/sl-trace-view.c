/* sl-trace-view.c: the folder a decoder reads instead of the trace's own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sl-ctf-scan.h"
#include "sl-safe-io.h"
#include "sl-trace-reader-private.h"

/*
 * babeltrace2's src.ctf.fs opens every file of a trace folder and its
 * index files: a FIFO there blocks it for ever, a file that is not a
 * stream makes it refuse the whole trace, a truncated stream too. So a
 * decoder never reads a trace folder itself but a view of it, in a
 * private temporary folder: the metadata text that was checked, a link to
 * each good stream file, and for a damaged one a copy of its good
 * packets (the first damaged packet and what follows are left out). No
 * index: babeltrace2 indexes the packets it is given. Views go when the
 * reader is freed.
 */

static gboolean
copy_prefix (const char  *from,
             const char  *to,
             guint64      bytes,
             GError     **error)
{
  int in = sl_safe_open_regular (from, NULL, error);
  int out;
  guint64 done = 0;
  guint8 buf[64 << 10];

  if (in < 0)
    return FALSE;
  out = open (to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (out < 0)
    {
      int e = errno;

      close (in);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", to, g_strerror (e));
      return FALSE;
    }
  while (done < bytes)
    {
      ssize_t n = read (in, buf, (gsize) MIN (sizeof buf, bytes - done));
      ssize_t w = 0;

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      while (w < n)
        {
          ssize_t k = write (out, buf + w, (gsize) (n - w));

          if (k < 0 && errno == EINTR)
            continue;
          if (k <= 0)
            {
              int e = errno;

              close (in);
              close (out);
              g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", to, g_strerror (e));
              return FALSE;
            }
          w += k;
        }
      done += (guint64) n;
    }
  close (in);
  close (out);
  return TRUE;
}

/* Where the views go: a file system in memory when there is one (the
 * session's runtime folder, else /dev/shm). A view is a link per stream
 * file and the checked metadata: on a busy disk, making and removing
 * thousands of them took seconds at 200 hosts, and removing them is what
 * Ctrl-C waits for. Only a damaged stream's kept packets are copied, to
 * disk (copy_for_view()). */
static const char *
view_parent (void)
{
  const char *runtime = g_getenv ("XDG_RUNTIME_DIR");

  if (runtime != NULL && g_path_is_absolute (runtime) && g_file_test (runtime, G_FILE_TEST_IS_DIR) &&
      access (runtime, W_OK | X_OK) == 0)
    return runtime;
  if (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) && access ("/dev/shm", W_OK | X_OK) == 0)
    return "/dev/shm";
  return g_get_tmp_dir ();
}

static gboolean
ensure_root (SlTraceReader  *self,
             GError        **error)
{
  if (self->view_root == NULL)
    self->view_root = sl_trace_tmp_make (view_parent (), "views", error);
  return self->view_root != NULL;
}

/* A stream's first @bytes for a view (@to): copied into a folder on disk,
 * the temporary folder's, and linked from the view. The views may be in
 * memory, and a truncated stream's good part can be gigabytes. */
static gboolean
copy_for_view (SlTraceReader  *self,
               const char     *from,
               const char     *to,
               guint64         bytes,
               GError        **error)
{
  static GMutex lock;
  g_autofree char *base = g_path_get_basename (from);
  g_autofree char *name = NULL;
  g_autofree char *copy = NULL;

  g_mutex_lock (&lock);
  if (self->copy_root == NULL)
    self->copy_root = sl_trace_tmp_make (g_get_tmp_dir (), "copies", error);
  if (self->copy_root != NULL)
    {
      name = g_strdup_printf ("%u-%s", self->n_copies++, base);
      copy = g_build_filename (self->copy_root, name, NULL);
    }
  g_mutex_unlock (&lock);
  if (copy == NULL || !copy_prefix (from, copy, bytes, error))
    return FALSE;
  if (symlink (copy, to) != 0)
    {
      int e = errno;

      g_unlink (copy);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", to, g_strerror (e));
      return FALSE;
    }
  return TRUE;
}

/* Removes @to from a view, and the copy it links to if it is one. */
static gboolean
unlink_from_view (SlTraceReader  *self,
                  const char     *to,
                  GError        **error)
{
  g_autofree char *target = g_file_read_link (to, NULL);

  if (target != NULL && self->copy_root != NULL && g_str_has_prefix (target, self->copy_root) &&
      target[strlen (self->copy_root)] == G_DIR_SEPARATOR)
    g_unlink (target);
  if (g_unlink (to) != 0 && errno != ENOENT)
    {
      int e = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", to, g_strerror (e));
      return FALSE;
    }
  return TRUE;
}

/**
 * sl_trace_view_make:
 * @index: a number unique to the trace in this reader
 *
 * Makes @t->view: the checked metadata and @t->streams' good packets.
 * The text is then dropped (sl_trace_view_text() reads the view's copy):
 * thousands of hosts' metadata would otherwise stay in memory all along.
 */
gboolean
sl_trace_view_make (SlTraceReader  *self,
                    TraceDir       *t,
                    guint           index,
                    GError        **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *metadata = NULL;

  if (t->text == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s: its metadata text is gone", t->path);
      return FALSE;
    }
  if (!ensure_root (self, error))
    return FALSE;
  dir = g_strdup_printf ("%s/t%u", self->view_root, index);
  metadata = g_build_filename (dir, "metadata", NULL);
  if (g_mkdir (dir, 0700) != 0)
    {
      int e = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", dir, g_strerror (e));
      return FALSE;
    }
  if (!g_file_set_contents (metadata, t->text, (gssize) t->text_len, error))
    return FALSE;
  g_clear_pointer (&t->text, g_free);
  t->text_len = 0;
  for (guint i = 0; i < t->streams->len; i++)
    {
      const SlCtfStream *s = g_ptr_array_index (t->streams, i);
      g_autofree char *base = g_path_get_basename (s->path);
      g_autofree char *to = g_build_filename (dir, base, NULL);
      g_autofree char *abs = g_canonicalize_filename (s->path, NULL);

      if (s->good_bytes == s->size)
        {
          if (symlink (abs, to) != 0)
            {
              int e = errno;

              g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", to, g_strerror (e));
              return FALSE;
            }
        }
      else if (!copy_for_view (self, s->path, to, s->good_bytes, error))
        return FALSE;
    }
  t->view = g_steal_pointer (&dir);
  return TRUE;
}

/**
 * sl_trace_view_cut:
 * @bytes: what is kept of @s (0: the file goes)
 *
 * Replaces @s in @t's view with its first @bytes.
 */
gboolean
sl_trace_view_cut (SlTraceReader  *self,
                   TraceDir       *t,
                   SlCtfStream    *s,
                   guint64         bytes,
                   GError        **error)
{
  g_autofree char *base = g_path_get_basename (s->path);
  g_autofree char *to = g_build_filename (t->view, base, NULL);

  if (!unlink_from_view (self, to, error))
    return FALSE;
  if (bytes > 0 && !copy_for_view (self, s->path, to, bytes, error))
    return FALSE;
  s->good_bytes = bytes;
  while (s->offsets->len > 0 && g_array_index (s->offsets, guint64, s->offsets->len - 1) >= bytes)
    g_array_set_size (s->offsets, s->offsets->len - 1);
  s->n_packets = s->offsets->len;
  return TRUE;
}

static void
remove_tree (const char *path,
             guint       depth)
{
  g_autoptr(GDir) d = NULL;
  const char *name;

  /* only what the views hold: folders of links and files, two deep */
  if (depth < 3 && g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      d = g_dir_open (path, 0, NULL);
      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child, depth + 1);
        }
      g_rmdir (path);
      return;
    }
  g_unlink (path);
}

/* Temporary folders */

/* The process's pid namespace (0 if unknown): a process id names a
 * process only there (a Flatpak's or a container's processes may share
 * the temporary folder with the host's). */
static guint64
pid_namespace (void)
{
  struct stat st;

  return stat ("/proc/self/ns/pid", &st) == 0 ? (guint64) st.st_ino : 0;
}

/* Whether @name, in @parent, is the folder of a reader of one of our
 * processes that ended without removing it (killed). */
static gboolean
is_stale (const char *parent,
          const char *name,
          guint64     ns)
{
  static const char *kinds[] = { "views-", "spill-", "copies-" };
  g_autofree char *path = NULL;
  const char *p = name + strlen ("syncline-");
  guint64 pid = 0, their_ns = 0;
  char *end;
  struct stat st;

  if (!g_str_has_prefix (name, "syncline-"))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_str_has_prefix (p, kinds[i]))
      {
        p += strlen (kinds[i]);
        break;
      }
  if (p == name + strlen ("syncline-") || !g_ascii_isdigit (*p))
    return FALSE;
  pid = g_ascii_strtoull (p, &end, 10);
  if (*end != '.' || !g_ascii_isdigit (end[1]))
    return FALSE;
  their_ns = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '-' || strlen (end + 1) != 6 || their_ns != ns || pid == 0 || pid > G_MAXINT ||
      (pid_t) pid == getpid ())
    return FALSE;
  /* alive, or not ours to ask about: in use */
  if (kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
    return FALSE;
  path = g_build_filename (parent, name, NULL);
  return lstat (path, &st) == 0 && S_ISDIR (st.st_mode) && st.st_uid == getuid ();
}

/**
 * sl_trace_reader_remove_stale:
 *
 * Removes the temporary folders that readers of this user's processes
 * made and could not remove because their process was killed (SIGKILL, a
 * crash): their names carry the process's id and pid namespace, and that
 * process no longer runs. Done once per process, the first time a reader
 * makes a folder; an application may call it when it starts.
 */
void
sl_trace_reader_remove_stale (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      const char *parents[] = { view_parent (), "/dev/shm", g_get_tmp_dir () };
      guint64 ns = pid_namespace ();

      for (guint i = 0; ns != 0 && i < G_N_ELEMENTS (parents); i++)
        {
          g_autoptr(GDir) d = NULL;
          const char *name;
          gboolean seen = FALSE;

          for (guint k = 0; k < i; k++)
            seen |= g_strcmp0 (parents[k], parents[i]) == 0;
          d = seen ? NULL : g_dir_open (parents[i], 0, NULL);
          while (d != NULL && (name = g_dir_read_name (d)) != NULL)
            if (is_stale (parents[i], name, ns))
              {
                g_autofree char *path = g_build_filename (parents[i], name, NULL);

                remove_tree (path, 0);
              }
        }
      g_once_init_leave (&done, 1);
    }
}

/* A new private folder in @parent for a reader's @kind of files, named
 * so that the next run can tell it was left behind (see
 * sl_trace_reader_remove_stale()). */
char *
sl_trace_tmp_make (const char  *parent,
                   const char  *kind,
                   GError     **error)
{
  g_autofree char *path = NULL;
  int e;

  sl_trace_reader_remove_stale ();
  path = g_strdup_printf ("%s/syncline-%s-%d.%" G_GUINT64_FORMAT "-XXXXXX", parent, kind, (int) getpid (),
                          pid_namespace ());
  if (g_mkdtemp (path) != NULL)
    return g_steal_pointer (&path);
  e = errno;
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", path, g_strerror (e));
  return NULL;
}

void
sl_trace_view_remove_all (SlTraceReader *self)
{
  if (self->view_root != NULL)
    remove_tree (self->view_root, 0);
  g_clear_pointer (&self->view_root, g_free);
  if (self->copy_root != NULL)
    remove_tree (self->copy_root, 0);
  g_clear_pointer (&self->copy_root, g_free);
}

/* A decoder's message with the views' paths put back to the traces'. */
char *
sl_trace_view_unmap (Host       *h,
                     const char *text)
{
  GString *s = g_string_new (text);

  for (guint i = 0; i < h->traces->len; i++)
    {
      const TraceDir *t = g_ptr_array_index (h->traces, i);

      if (t->view != NULL)
        g_string_replace (s, t->view, t->path, 0);
    }
  return g_string_free (s, FALSE);
}

/* @t's checked metadata text (NUL-terminated): its own until the view is
 * made, then the view's copy, written by this process. */
char *
sl_trace_view_text (const TraceDir  *t,
                    gsize           *len,
                    GError         **error)
{
  g_autofree char *metadata = NULL;
  char *text = NULL;

  if (t->text != NULL)
    {
      text = g_malloc (t->text_len + 1);
      memcpy (text, t->text, t->text_len);
      text[t->text_len] = '\0';
      *len = t->text_len;
      return text;
    }
  if (t->view == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s: no metadata kept", t->path);
      return NULL;
    }
  metadata = g_build_filename (t->view, "metadata", NULL);
  if (!g_file_get_contents (metadata, &text, len, error))
    return NULL;
  return text;
}
