/* sl-trace-view.c: the folder a decoder reads instead of the trace's own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
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
  g_autofree char *root = NULL;
  int e;

  if (self->view_root != NULL)
    return TRUE;
  root = g_build_filename (view_parent (), "syncline-XXXXXX", NULL);
  if (g_mkdtemp (root) != NULL)
    {
      self->view_root = g_steal_pointer (&root);
      return TRUE;
    }
  e = errno;
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", root, g_strerror (e));
  return FALSE;
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
    self->copy_root = g_dir_make_tmp ("syncline-copies-XXXXXX", error);
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
 */
gboolean
sl_trace_view_make (SlTraceReader  *self,
                    TraceDir       *t,
                    guint           index,
                    GError        **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *metadata = NULL;

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
