/* sl-safe-io.c: opening input files without blocking or reading unbounded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>

#include "sl-safe-io.h"

/*
 * A trace folder may hold anything: a FIFO named like a stream or an index
 * file blocks open() for ever, a device may be endless. Only regular files
 * are opened, checked before (stat) and after (fstat) the open, which
 * never blocks (O_NONBLOCK); reads stop at the size the file had.
 */

static const char *
kind_of (mode_t mode)
{
  if (S_ISFIFO (mode))
    return "a FIFO";
  if (S_ISCHR (mode) || S_ISBLK (mode))
    return "a device";
  if (S_ISSOCK (mode))
    return "a socket";
  if (S_ISDIR (mode))
    return "a folder";
  return "not a regular file";
}

/**
 * sl_safe_describe:
 *
 * What @path is when it is not a regular file, for a message: "a FIFO",
 * "a device", "a link that leads nowhere" (dangling or in a loop), …
 * (a link is described by what it leads to).
 */
char *
sl_safe_describe (const char *path)
{
  struct stat st;
  int e;

  g_return_val_if_fail (path != NULL, NULL);

  if (stat (path, &st) == 0)
    return g_strdup (S_ISREG (st.st_mode) ? "a file" : kind_of (st.st_mode));
  e = errno;
  if (lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
    return g_strdup (e == ELOOP ? "a link in a loop" : "a link that leads nowhere");
  return g_strdup_printf ("unreadable (%s)", g_strerror (e));
}

gboolean
sl_safe_is_regular (const char *path)
{
  struct stat st;

  g_return_val_if_fail (path != NULL, FALSE);

  return stat (path, &st) == 0 && S_ISREG (st.st_mode);
}

/**
 * sl_safe_open_regular:
 * @size: (out) (optional): the file's size
 *
 * Returns: a descriptor of the regular file @path, or -1 with @error set
 *   (a FIFO, a device, a socket or a folder is never opened)
 */
int
sl_safe_open_regular (const char  *path,
                      goffset     *size,
                      GError     **error)
{
  struct stat st;
  int fd, e;

  g_return_val_if_fail (path != NULL, -1);

  if (stat (path, &st) != 0)
    {
      e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s", g_strerror (e));
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, "%s, not a file", kind_of (st.st_mode));
      return -1;
    }
  fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    {
      e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s", g_strerror (e));
      return -1;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, "not a regular file");
      return -1;
    }
  if (size != NULL)
    *size = st.st_size;
  return fd;
}

/* The whole of a regular file of at most @max_bytes. */
gboolean
sl_safe_read_file (const char  *path,
                   gsize        max_bytes,
                   guint8     **data,
                   gsize       *len,
                   GError     **error)
{
  goffset size = 0;
  int fd;
  gsize got = 0;
  guint8 *buf;

  g_return_val_if_fail (path != NULL && data != NULL && len != NULL, FALSE);

  fd = sl_safe_open_regular (path, &size, error);
  *data = NULL;
  *len = 0;
  if (fd < 0)
    return FALSE;
  if (size < 0 || (guint64) size > max_bytes)
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "larger than %" G_GSIZE_FORMAT " MiB", max_bytes >> 20);
      return FALSE;
    }
  buf = g_malloc ((gsize) size + 1);
  while (got < (gsize) size)
    {
      ssize_t n = read (fd, buf + got, (gsize) size - got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int e = errno;

          close (fd);
          g_free (buf);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s", g_strerror (e));
          return FALSE;
        }
      if (n == 0)
        break;
      got += (gsize) n;
    }
  close (fd);
  buf[got] = '\0';
  *data = buf;
  *len = got;
  return TRUE;
}
