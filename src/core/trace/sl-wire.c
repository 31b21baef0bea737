/* sl-wire.c: frames between the decoder process and the readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sl-wire.h"

#define READ_CHUNK (256u << 10)
/* Linux's UIO_MAXIOV: pieces a writev() takes at most */
#define WRITEV_MAX 1024

/* A payload written from where it lies, after the buffer's first @at
 * bytes. */
typedef struct
{
  gsize         at;
  const guint8 *data;
  gsize         len;
} Borrowed;

void
sl_wire_writer_init (SlWireWriter *w,
                     int           fd)
{
  w->fd = fd;
  w->buf = g_byte_array_sized_new (READ_CHUNK);
  w->borrowed = g_array_new (FALSE, FALSE, sizeof (Borrowed));
  w->failed = FALSE;
}

void
sl_wire_writer_clear (SlWireWriter *w)
{
  g_clear_pointer (&w->buf, g_byte_array_unref);
  g_clear_pointer (&w->borrowed, g_array_unref);
}

/* Appends one frame whose payload is @a then @b. */
void
sl_wire_put (SlWireWriter *w,
             SlWireType    type,
             const void   *a,
             gsize         a_len,
             const void   *b,
             gsize         b_len)
{
  SlWireHeader h = { type, (guint32) (a_len + b_len) };

  g_return_if_fail (a_len + b_len <= SL_WIRE_MAX_FRAME);

  g_byte_array_append (w->buf, (const guint8 *) &h, sizeof h);
  if (a_len > 0)
    g_byte_array_append (w->buf, a, (guint) a_len);
  if (b_len > 0)
    g_byte_array_append (w->buf, b, (guint) b_len);
}

/* One frame whose payload is written from @data at the next flush, not
 * copied: @data must stay as it is until then (the decoder's events,
 * which are most of what it writes). */
void
sl_wire_put_borrowed (SlWireWriter *w,
                      SlWireType    type,
                      const void   *data,
                      gsize         len)
{
  SlWireHeader h = { type, (guint32) len };
  Borrowed b = { 0, data, len };

  g_return_if_fail (len <= SL_WIRE_MAX_FRAME);

  g_byte_array_append (w->buf, (const guint8 *) &h, sizeof h);
  b.at = w->buf->len;
  if (len > 0)
    g_array_append_val (w->borrowed, b);
}

gsize
sl_wire_pending (SlWireWriter *w)
{
  gsize n = w->buf->len;

  for (guint i = 0; i < w->borrowed->len; i++)
    n += g_array_index (w->borrowed, Borrowed, i).len;
  return n;
}

/* Writes what is buffered and borrowed, in order; blocks while the reader
 * does not read (that is the back-pressure). FALSE once the reader is
 * gone. */
gboolean
sl_wire_flush (SlWireWriter *w)
{
  guint n_iov = 0, first = 0;
  gsize at = 0;
  g_autofree struct iovec *iov = g_new (struct iovec, 2 * w->borrowed->len + 1);

  for (guint i = 0; i < w->borrowed->len; i++)
    {
      const Borrowed *b = &g_array_index (w->borrowed, Borrowed, i);

      iov[n_iov++] = (struct iovec) { w->buf->data + at, b->at - at };
      iov[n_iov++] = (struct iovec) { (void *) b->data, b->len };
      at = b->at;
    }
  iov[n_iov++] = (struct iovec) { w->buf->data + at, w->buf->len - at };

  while (!w->failed && first < n_iov)
    {
      ssize_t n;

      if (iov[first].iov_len == 0)
        {
          first++;
          continue;
        }
      n = writev (w->fd, iov + first, (int) MIN (n_iov - first, WRITEV_MAX));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          w->failed = TRUE;
          break;
        }
      /* past what was written, partly into the last piece it reached */
      for (gsize left = (gsize) n; left > 0;)
        {
          gsize step = MIN (left, iov[first].iov_len);

          iov[first].iov_base = (guint8 *) iov[first].iov_base + step;
          iov[first].iov_len -= step;
          left -= step;
          if (iov[first].iov_len == 0)
            first++;
        }
    }
  g_byte_array_set_size (w->buf, 0);
  g_array_set_size (w->borrowed, 0);
  return !w->failed;
}

void
sl_wire_reader_init (SlWireReader *r,
                     int           fd)
{
  r->fd = fd;
  r->cap = READ_CHUNK;
  r->buf = g_malloc (r->cap);
  r->len = r->pos = 0;
}

void
sl_wire_reader_clear (SlWireReader *r)
{
  g_clear_pointer (&r->buf, g_free);
  r->len = r->pos = r->cap = 0;
}

/* The next whole frame in the buffer, if there is one: its payload stays
 * valid until the next sl_wire_fill(). */
SlWireReadStatus
sl_wire_next (SlWireReader *r,
              SlWireFrame  *frame)
{
  SlWireHeader h;

  if (r->len - r->pos < sizeof h)
    return SL_WIRE_READ_MORE;
  memcpy (&h, r->buf + r->pos, sizeof h);
  if (h.size > SL_WIRE_MAX_FRAME || h.type < SL_WIRE_HELLO || h.type > SL_WIRE_END)
    return SL_WIRE_READ_BAD;
  if (r->len - r->pos - sizeof h < h.size)
    return SL_WIRE_READ_MORE;
  frame->type = h.type;
  frame->data = r->buf + r->pos + sizeof h;
  frame->size = h.size;
  r->pos += sizeof h + h.size;
  return SL_WIRE_READ_FRAME;
}

/* Reads what the pipe holds (blocks until something is there: poll first
 * to wait with a timeout). */
SlWireReadStatus
sl_wire_fill (SlWireReader *r)
{
  ssize_t n;

  if (r->pos > 0)
    {
      memmove (r->buf, r->buf + r->pos, r->len - r->pos);
      r->len -= r->pos;
      r->pos = 0;
    }
  if (r->cap - r->len < READ_CHUNK)
    {
      r->cap = MAX (r->cap * 2, r->len + READ_CHUNK);
      r->buf = g_realloc (r->buf, r->cap);
    }
  do
    n = read (r->fd, r->buf + r->len, r->cap - r->len);
  while (n < 0 && errno == EINTR);
  if (n == 0)
    return SL_WIRE_READ_EOF;
  if (n < 0)
    return errno == EAGAIN ? SL_WIRE_READ_MORE : SL_WIRE_READ_EOF;
  r->len += (gsize) n;
  return SL_WIRE_READ_MORE;
}

/* A string from a payload: at most @len bytes, NUL-terminated. */
char *
sl_wire_string (const guint8 *data,
                gsize         len)
{
  const guint8 *nul = memchr (data, '\0', len);

  return g_strndup ((const char *) data, nul != NULL ? (gsize) (nul - data) : len);
}
