/* sl-ctf-writer.h: a small CTF 1.8 writer with the lttng-modules stream layout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

#define SL_CTF_MAGIC 0xC1FC1FC1u

/**
 * SlCtfHeader:
 * @SL_CTF_HEADER_LARGE: lttng's `event_header_large`: a 16-bit id and the
 *   low 32 bits of the timestamp; id 65535 escapes to a 32-bit id and a full
 *   64-bit timestamp
 * @SL_CTF_HEADER_COMPACT: lttng's `event_header_compact`: a 5-bit id and a
 *   27-bit timestamp in one 32-bit word; id 31 escapes to the extended form
 *
 * The event header of a stream. The writer picks the extended form itself
 * when the id does not fit or when the time since the previous event of the
 * packet would make the truncated timestamp ambiguous.
 */
typedef enum
{
  SL_CTF_HEADER_LARGE,
  SL_CTF_HEADER_COMPACT,
} SlCtfHeader;

/**
 * SlCtfEnv:
 * @key: identifier of the `env` entry
 * @str: value if it is a string, or %NULL
 * @num: value if @str is %NULL
 */
typedef struct
{
  const char *key;
  const char *str;
  gint64      num;
} SlCtfEnv;

/**
 * SlCtfTraceInfo:
 * @uuid: trace UUID (every packet header repeats it)
 * @env: `env` block entries
 * @n_env: number of @env entries
 * @clock_name: name of the single clock (lttng: "monotonic")
 * @clock_description: its description
 * @clock_uuid: clock UUID (lttng: the boot id of the host)
 * @clock_freq: counter frequency in Hz
 * @clock_offset_s: seconds from the Unix epoch to the clock's origin
 * @clock_offset: further cycles from the epoch to the origin
 * @header: event header of stream 0
 *
 * What the metadata preamble describes: the trace, its environment, its
 * clock, and stream 0 with lttng-modules' packet header and context
 * (magic, uuid, stream_id, stream_instance_id; timestamp_begin/end,
 * content_size, packet_size, packet_seq_num, events_discarded, cpu_id).
 */
typedef struct
{
  guint8          uuid[16];
  const SlCtfEnv *env;
  guint           n_env;
  const char     *clock_name;
  const char     *clock_description;
  guint8          clock_uuid[16];
  guint64         clock_freq;
  gint64          clock_offset_s;
  guint64         clock_offset;
  SlCtfHeader     header;
} SlCtfTraceInfo;

/**
 * SlCtfStreamOptions:
 * @trace_uuid: the trace UUID, repeated in each packet header
 * @stream_id: stream class id (0 for lttng kernel traces)
 * @stream_instance_id: instance id (lttng numbers the CPUs' streams)
 * @cpu_id: value of the packet context's cpu_id
 * @packet_size: largest packet in bytes (lttng's sub-buffer size); packets
 *   are closed when full and written padded to a multiple of 4096 bytes,
 *   like lttng's consumer does
 * @header: event header layout; must match the metadata
 * @keep_closed: do not hold the file open (nor a packet buffer) between
 *   packets: it is opened to append each packet, so that a writer can have
 *   more streams than the process may open files
 * @scratch: (nullable): for a discarded stream (%NULL path), a buffer of
 *   @packet_size bytes, owned by the caller and outliving the stream, in
 *   which its packets are built; nothing reads it back, so any number of
 *   discarded streams can share one instead of a packet buffer each
 */
typedef struct
{
  guint8      trace_uuid[16];
  guint32     stream_id;
  guint64     stream_instance_id;
  guint32     cpu_id;
  gsize       packet_size;
  SlCtfHeader header;
  gboolean    keep_closed;
  guint8     *scratch;
} SlCtfStreamOptions;

/**
 * SlCtfStream:
 *
 * One stream file. The buffer fields are public only so that the field
 * writers below can be inlined; treat them as private.
 */
typedef struct
{
  guint8  *buf;
  guint8  *pos;
  guint8  *limit;
  /*< private >*/
  guint8  *end;
  int      fd;
  char    *path;
  SlCtfStreamOptions options;
  guint64  packet_begin;
  guint64  last_ts;
  guint64  seq_num;
  guint64  n_events;
  guint64  n_packet_events;
  guint64  n_packets;
  guint64  bytes;
  gboolean writes;
  gboolean failed;
  int      saved_errno;
} SlCtfStream;

void          sl_ctf_uuid_to_string            (const guint8           uuid[16],
                                                char                   out[37]);
void          sl_ctf_metadata_append_preamble  (GString                *out,
                                                const SlCtfTraceInfo   *info);
void          sl_ctf_metadata_append_event     (GString                *out,
                                                const char             *name,
                                                guint                   id,
                                                guint                   stream_id,
                                                const char             *fields);

SlCtfStream  *sl_ctf_stream_new                (const char             *path,
                                                const SlCtfStreamOptions *options,
                                                GError                **error);
void          sl_ctf_stream_begin_event        (SlCtfStream            *self,
                                                guint32                 id,
                                                guint64                 timestamp,
                                                gsize                   max_payload);
gboolean      sl_ctf_stream_close              (SlCtfStream            *self,
                                                guint64                 empty_timestamp,
                                                GError                **error);
void          sl_ctf_stream_free               (SlCtfStream            *self);

static inline void
sl_ctf_stream_end_event (SlCtfStream *self)
{
  g_assert (self->pos <= self->limit);
  self->n_events++;
  self->n_packet_events++;
}

/* Field writers: little-endian integers (the trace's native order), raw
 * bytes (big-endian header copies), strings with their terminating NUL and
 * fixed-size character arrays. Alignment is relative to the packet start. */

static inline void
sl_ctf_put_u8 (SlCtfStream *self,
               guint8       v)
{
  *self->pos++ = v;
}

static inline void
sl_ctf_put_u16 (SlCtfStream *self,
                guint16      v)
{
  v = GUINT16_TO_LE (v);
  memcpy (self->pos, &v, 2);
  self->pos += 2;
}

static inline void
sl_ctf_put_u32 (SlCtfStream *self,
                guint32      v)
{
  v = GUINT32_TO_LE (v);
  memcpy (self->pos, &v, 4);
  self->pos += 4;
}

static inline void
sl_ctf_put_u64 (SlCtfStream *self,
                guint64      v)
{
  v = GUINT64_TO_LE (v);
  memcpy (self->pos, &v, 8);
  self->pos += 8;
}

static inline void
sl_ctf_put_i32 (SlCtfStream *self,
                gint32       v)
{
  sl_ctf_put_u32 (self, (guint32) v);
}

static inline void
sl_ctf_put_i64 (SlCtfStream *self,
                gint64       v)
{
  sl_ctf_put_u64 (self, (guint64) v);
}

static inline void
sl_ctf_put_bytes (SlCtfStream *self,
                  const void  *data,
                  gsize        n)
{
  memcpy (self->pos, data, n);
  self->pos += n;
}

static inline void
sl_ctf_put_string (SlCtfStream *self,
                   const char  *str)
{
  gsize n = strlen (str) + 1;

  memcpy (self->pos, str, n);
  self->pos += n;
}

static inline void
sl_ctf_align (SlCtfStream *self,
              gsize        bytes)
{
  gsize off = (gsize) (self->pos - self->buf);
  gsize pad = (bytes - off % bytes) % bytes;

  memset (self->pos, 0, pad);
  self->pos += pad;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCtfStream, sl_ctf_stream_free)

G_END_DECLS
