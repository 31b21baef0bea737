/* sl-ctf-writer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sl-ctf-writer.h"
#include "sl-types.h"

/* Packet header (32 bytes) and context (52 bytes) as lttng-modules lays
 * them out on x86-64: every integer is byte-aligned. */
enum
{
  OFF_MAGIC = 0,
  OFF_UUID = 4,
  OFF_STREAM_ID = 20,
  OFF_INSTANCE_ID = 24,
  OFF_TS_BEGIN = 32,
  OFF_TS_END = 40,
  OFF_CONTENT_SIZE = 48,
  OFF_PACKET_SIZE = 56,
  OFF_SEQ_NUM = 64,
  OFF_DISCARDED = 72,
  OFF_CPU_ID = 80,
  PACKET_PREAMBLE = 84,
  MAX_EVENT_HEADER = 14,
  PAGE = 4096,
};

void
sl_ctf_uuid_to_string (const guint8 uuid[16],
                       char         out[37])
{
  g_snprintf (out, 37,
              "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
              uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7],
              uuid[8], uuid[9], uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
}

static void
append_quoted (GString    *out,
               const char *str)
{
  g_string_append_c (out, '"');
  for (const char *p = str; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

void
sl_ctf_metadata_append_preamble (GString              *out,
                                 const SlCtfTraceInfo *info)
{
  char uuid[37], clock_uuid[37];
  const char *clk;

  g_return_if_fail (out != NULL && info != NULL);
  g_return_if_fail (info->clock_freq > 0);

  clk = info->clock_name != NULL ? info->clock_name : "monotonic";
  sl_ctf_uuid_to_string (info->uuid, uuid);
  sl_ctf_uuid_to_string (info->clock_uuid, clock_uuid);

  g_string_append (out,
    "/* CTF 1.8 */\n\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
    "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n\n");

  g_string_append_printf (out,
    "trace {\n"
    "\tmajor = 1;\n"
    "\tminor = 8;\n"
    "\tuuid = \"%s\";\n"
    "\tbyte_order = le;\n"
    "\tpacket.header := struct {\n"
    "\t\tuint32_t magic;\n"
    "\t\tuint8_t  uuid[16];\n"
    "\t\tuint32_t stream_id;\n"
    "\t\tuint64_t stream_instance_id;\n"
    "\t};\n"
    "};\n\n", uuid);

  g_string_append (out, "env {\n");
  for (guint i = 0; i < info->n_env; i++)
    {
      g_string_append_printf (out, "\t%s = ", info->env[i].key);
      if (info->env[i].str != NULL)
        append_quoted (out, info->env[i].str);
      else
        g_string_append_printf (out, "%" G_GINT64_FORMAT, info->env[i].num);
      g_string_append (out, ";\n");
    }
  g_string_append (out, "};\n\n");

  g_string_append_printf (out,
    "clock {\n"
    "\tname = \"%s\";\n"
    "\tuuid = \"%s\";\n"
    "\tdescription = ",
    clk, clock_uuid);
  append_quoted (out, info->clock_description != NULL ? info->clock_description : "Monotonic Clock");
  g_string_append_printf (out,
    ";\n"
    "\tfreq = %" G_GUINT64_FORMAT "; /* Frequency, in Hz */\n"
    "\t/* clock value offset from Epoch is: offset_s + offset * (1/freq) */\n"
    "\toffset_s = %" G_GINT64_FORMAT ";\n"
    "\toffset = %" G_GUINT64_FORMAT ";\n"
    "};\n\n",
    info->clock_freq, info->clock_offset_s, info->clock_offset);

  g_string_append_printf (out,
    "typealias integer {\n"
    "\tsize = 27; align = 1; signed = false;\n"
    "\tmap = clock.%s.value;\n"
    "} := uint27_clock_monotonic_t;\n\n"
    "typealias integer {\n"
    "\tsize = 32; align = 8; signed = false;\n"
    "\tmap = clock.%s.value;\n"
    "} := uint32_clock_monotonic_t;\n\n"
    "typealias integer {\n"
    "\tsize = 64; align = 8; signed = false;\n"
    "\tmap = clock.%s.value;\n"
    "} := uint64_clock_monotonic_t;\n\n",
    clk, clk, clk);

  g_string_append (out,
    "struct packet_context {\n"
    "\tuint64_clock_monotonic_t timestamp_begin;\n"
    "\tuint64_clock_monotonic_t timestamp_end;\n"
    "\tuint64_t content_size;\n"
    "\tuint64_t packet_size;\n"
    "\tuint64_t packet_seq_num;\n"
    "\tunsigned long events_discarded;\n"
    "\tuint32_t cpu_id;\n"
    "};\n\n"
    "struct event_header_compact {\n"
    "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
    "\tvariant <id> {\n"
    "\t\tstruct {\n"
    "\t\t\tuint27_clock_monotonic_t timestamp;\n"
    "\t\t} compact;\n"
    "\t\tstruct {\n"
    "\t\t\tuint32_t id;\n"
    "\t\t\tuint64_clock_monotonic_t timestamp;\n"
    "\t\t} extended;\n"
    "\t} v;\n"
    "} align(8);\n\n"
    "struct event_header_large {\n"
    "\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
    "\tvariant <id> {\n"
    "\t\tstruct {\n"
    "\t\t\tuint32_clock_monotonic_t timestamp;\n"
    "\t\t} compact;\n"
    "\t\tstruct {\n"
    "\t\t\tuint32_t id;\n"
    "\t\t\tuint64_clock_monotonic_t timestamp;\n"
    "\t\t} extended;\n"
    "\t} v;\n"
    "} align(8);\n\n");

  g_string_append_printf (out,
    "stream {\n"
    "\tid = 0;\n"
    "\tevent.header := struct %s;\n"
    "\tpacket.context := struct packet_context;\n"
    "};\n\n",
    info->header == SL_CTF_HEADER_COMPACT ? "event_header_compact" : "event_header_large");
}

/* @fields: member declarations, one per line, without indentation. */
void
sl_ctf_metadata_append_event (GString    *out,
                              const char *name,
                              guint       id,
                              guint       stream_id,
                              const char *fields)
{
  const char *line = fields;

  g_string_append_printf (out,
    "event {\n"
    "\tname = \"%s\";\n"
    "\tid = %u;\n"
    "\tstream_id = %u;\n"
    "\tfields := struct {\n",
    name, id, stream_id);

  while (line != NULL && *line != '\0')
    {
      const char *nl = strchr (line, '\n');
      gsize len = nl != NULL ? (gsize) (nl - line) : strlen (line);

      if (len > 0)
        {
          g_string_append (out, "\t\t");
          g_string_append_len (out, line, (gssize) len);
          g_string_append_c (out, '\n');
        }
      line = nl != NULL ? nl + 1 : NULL;
    }
  g_string_append (out, "\t};\n};\n\n");
}

/* Creates (truncates) the stream file @path. With a %NULL @path packets
 * are built and discarded: callers can run without writing files. */
SlCtfStream *
sl_ctf_stream_new (const char               *path,
                   const SlCtfStreamOptions *options,
                   GError                  **error)
{
  SlCtfStream *self;
  int fd = -1;

  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (options->packet_size >= PAGE && options->packet_size % PAGE == 0, NULL);

  if (path != NULL)
    fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (path != NULL && fd < 0)
    {
      int errsv = errno;
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", path, g_strerror (errsv));
      return NULL;
    }
  if (fd >= 0 && options->keep_closed && close (fd) != 0)
    {
      int errsv = errno;
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", path, g_strerror (errsv));
      return NULL;
    }

  self = g_new0 (SlCtfStream, 1);
  self->fd = options->keep_closed ? -1 : fd;
  self->writes = path != NULL;
  self->path = g_strdup (path != NULL ? path : "(discarded)");
  self->options = *options;
  if (path != NULL)
    self->options.scratch = NULL;
  else if (options->scratch != NULL)
    {
      /* nothing to write: the shared buffer stays for every packet */
      self->options.keep_closed = FALSE;
      self->buf = options->scratch;
      self->end = self->buf + options->packet_size;
    }
  if (!self->options.keep_closed && self->buf == NULL)
    {
      self->buf = g_malloc (options->packet_size);
      self->end = self->buf + options->packet_size;
    }
  return self;
}

static void
put_u64_at (guint8  *p,
            guint64  v)
{
  v = GUINT64_TO_LE (v);
  memcpy (p, &v, 8);
}

static void
put_u32_at (guint8  *p,
            guint32  v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

static void
open_packet (SlCtfStream *self,
             guint64      timestamp)
{
  guint8 *b;

  if (self->buf == NULL)
    {
      self->buf = g_malloc (self->options.packet_size);
      self->end = self->buf + self->options.packet_size;
    }
  b = self->buf;

  put_u32_at (b + OFF_MAGIC, SL_CTF_MAGIC);
  memcpy (b + OFF_UUID, self->options.trace_uuid, 16);
  put_u32_at (b + OFF_STREAM_ID, self->options.stream_id);
  put_u64_at (b + OFF_INSTANCE_ID, self->options.stream_instance_id);
  put_u64_at (b + OFF_TS_BEGIN, timestamp);
  put_u64_at (b + OFF_SEQ_NUM, self->seq_num);
  put_u64_at (b + OFF_DISCARDED, 0);
  put_u32_at (b + OFF_CPU_ID, self->options.cpu_id);
  self->pos = b + PACKET_PREAMBLE;
  self->limit = self->end;
  self->packet_begin = timestamp;
  self->last_ts = timestamp;
  self->n_packet_events = 0;
}

static void
write_all (SlCtfStream  *self,
           const guint8 *data,
           gsize         n)
{
  while (n > 0 && !self->failed)
    {
      gssize w = write (self->fd, data, n);

      if (w < 0)
        {
          if (errno == EINTR)
            continue;
          self->failed = TRUE;
          self->saved_errno = errno;
          return;
        }
      data += w;
      n -= (gsize) w;
    }
}

static void
close_packet (SlCtfStream *self)
{
  gsize content = (gsize) (self->pos - self->buf);
  gsize padded = (content + PAGE - 1) / PAGE * PAGE;

  put_u64_at (self->buf + OFF_TS_END, self->last_ts);
  put_u64_at (self->buf + OFF_CONTENT_SIZE, (guint64) content * 8);
  put_u64_at (self->buf + OFF_PACKET_SIZE, (guint64) padded * 8);
  memset (self->pos, 0, padded - content);
  if (self->writes && self->options.keep_closed && !self->failed)
    {
      self->fd = g_open (self->path, O_WRONLY | O_APPEND | O_CLOEXEC, 0);
      if (self->fd < 0)
        {
          self->failed = TRUE;
          self->saved_errno = errno;
        }
    }
  if (self->fd >= 0)
    {
      write_all (self, self->buf, padded);
      self->bytes += padded;
    }
  if (self->options.keep_closed)
    {
      if (self->fd >= 0 && close (self->fd) != 0 && !self->failed)
        {
          self->failed = TRUE;
          self->saved_errno = errno;
        }
      self->fd = -1;
      g_clear_pointer (&self->buf, g_free);
      self->end = NULL;
    }
  self->n_packets++;
  self->seq_num++;
  self->pos = NULL;
}

/* Starts an event at @timestamp (clock cycles, not before the previous
 * event); at most @max_payload bytes of fields may follow before
 * sl_ctf_stream_end_event(). */
void
sl_ctf_stream_begin_event (SlCtfStream *self,
                           guint32      id,
                           guint64      timestamp,
                           gsize        max_payload)
{
  guint64 delta;

  g_assert (max_payload + MAX_EVENT_HEADER + PACKET_PREAMBLE <= self->options.packet_size);

  if (self->pos != NULL &&
      (gsize) (self->end - self->pos) < MAX_EVENT_HEADER + max_payload)
    close_packet (self);
  if (self->pos == NULL)
    open_packet (self, timestamp);

  g_assert (timestamp >= self->last_ts);
  delta = timestamp - self->last_ts;
  self->last_ts = timestamp;

  if (self->options.header == SL_CTF_HEADER_LARGE)
    {
      if (id < 65535 && (delta >> 32) == 0)
        {
          sl_ctf_put_u16 (self, (guint16) id);
          sl_ctf_put_u32 (self, (guint32) timestamp);
        }
      else
        {
          sl_ctf_put_u16 (self, 65535);
          sl_ctf_put_u32 (self, id);
          sl_ctf_put_u64 (self, timestamp);
        }
    }
  else
    {
      if (id < 31 && (delta >> 27) == 0)
        {
          sl_ctf_put_u32 (self, id | ((guint32) (timestamp & 0x7ffffff) << 5));
        }
      else
        {
          sl_ctf_put_u8 (self, 31);
          sl_ctf_put_u32 (self, id);
          sl_ctf_put_u64 (self, timestamp);
        }
    }
  self->limit = self->pos + max_payload;
}

/* Writes the last packet. A stream without any event gets one empty packet
 * stamped @empty_timestamp, as lttng writes for an idle CPU. */
gboolean
sl_ctf_stream_close (SlCtfStream  *self,
                     guint64       empty_timestamp,
                     GError      **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->pos == NULL && self->n_packets == 0)
    open_packet (self, empty_timestamp);
  if (self->pos != NULL)
    close_packet (self);

  if (self->fd >= 0)
    {
      if (close (self->fd) != 0 && !self->failed)
        {
          self->failed = TRUE;
          self->saved_errno = errno;
        }
      self->fd = -1;
    }

  if (self->failed)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_IO, "%s: %s", self->path,
                   g_strerror (self->saved_errno));
      return FALSE;
    }
  return TRUE;
}

void
sl_ctf_stream_free (SlCtfStream *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  if (self->buf != self->options.scratch)
    g_free (self->buf);
  g_free (self->path);
  g_free (self);
}
