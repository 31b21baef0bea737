/* sl-wire.h: frames between the decoder process and the readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * syncline-decoder (src/core/trace/bt/sl-decoder-main.c) writes frames on
 * its standard output; the readers read them (sl-decoder.c). A frame is
 * an 8-byte header, type then payload size (host byte order: both ends
 * are the same build, which SL_WIRE_HELLO checks), then the payload.
 * Everything between two SL_WIRE_COMMIT frames is one step of the
 * decoder: what follows the last COMMIT of a decoder that died is not
 * taken.
 *
 * The other way, on the decoder's standard input, the reader sends single
 * bytes: SL_DECODER_PAUSE makes it wait after its current step until
 * SL_DECODER_RESUME (the last byte read wins).
 */

#define SL_DECODER_PAUSE  'p'
#define SL_DECODER_RESUME 'r'

#define SL_WIRE_VERSION   8
#define SL_WIRE_MAX_FRAME (16u << 20)

typedef enum
{
  SL_WIRE_HELLO = 1,     /* SlWireHello */
  SL_WIRE_INPUT,         /* SlWireInput + name */
  SL_WIRE_TRACE_FAILED,  /* guint32 trace + message */
  SL_WIRE_FATAL,         /* message: nothing can be decoded */
  SL_WIRE_RANGE,         /* gint64 begin, end (ns) */
  SL_WIRE_PACKETS,       /* SlPacketEvent[] */
  SL_WIRE_STRING,        /* guint32 id + string (event store) */
  SL_WIRE_PACKET_INFO,   /* SlEventPacket[]: one per packet event of the next EVENTS frame */
  SL_WIRE_EVENTS,        /* SlEvent[] */
  SL_WIRE_COMMIT,        /* SlWireCommit + guint64 consumed[n_inputs] */
  SL_WIRE_INPUT_FAILED,  /* SlWirePosition + message: that input ends */
  SL_WIRE_CLOCK,         /* SlWireClock + name */
  SL_WIRE_SESSION,       /* SlWireSession + hostname NUL session */
  SL_WIRE_CRASH,         /* SlWireCrash + file, written by a fatal signal's handler */
  SL_WIRE_UNUSABLE,      /* file NUL why: an event class's packet events cannot be read */
  SL_WIRE_END,           /* nothing: decoded to the end */
} SlWireType;

typedef struct
{
  guint32 type;
  guint32 size;
} SlWireHeader;

typedef struct
{
  guint32 version;
  guint32 packet_event_size;
  guint32 event_size;
  guint32 pid;
} SlWireHello;

typedef struct
{
  guint32 index;
  guint32 trace;
} SlWireInput;

typedef enum
{
  SL_WIRE_STEP_OK,
  SL_WIRE_STEP_AGAIN,
  SL_WIRE_STEP_END,
} SlWireStep;

typedef struct
{
  guint64 events;
  guint64 ignored;
  guint64 unusable;      /* of @ignored: packet events that could not be read */
  gint64  seen;
  gint64  first;         /* the span of the events so far (first > last: none) */
  gint64  last;
  guint32 step;
  guint32 n_inputs;
  gint64  answered;      /* live: when the relay last sent anything (monotonic µs), 0 unknown */
} SlWireCommit;

typedef struct
{
  guint32 input;
  guint32 pad;
  guint64 packet;
} SlWirePosition;

typedef struct
{
  gint64  offset_s;
  guint64 offset_cycles;
  guint64 freq;
  guint32 has_uuid;
  guint8  uuid[16];
} SlWireClock;

typedef struct
{
  guint64 streams;
  guint64 clients;
  guint64 timer_us;
} SlWireSession;

typedef struct
{
  guint32 signo;
  guint32 input;
  guint64 packet;
} SlWireCrash;

/* ---- writing (the decoder process) ---- */

typedef struct
{
  int         fd;
  GByteArray *buf;
  GArray     *borrowed;
  gboolean    failed;
} SlWireWriter;

void     sl_wire_writer_init  (SlWireWriter *w,
                               int           fd);
void     sl_wire_writer_clear (SlWireWriter *w);
void     sl_wire_put          (SlWireWriter *w,
                               SlWireType    type,
                               const void   *a,
                               gsize         a_len,
                               const void   *b,
                               gsize         b_len);
void     sl_wire_put_borrowed (SlWireWriter *w,
                               SlWireType    type,
                               const void   *data,
                               gsize         len);
gboolean sl_wire_flush        (SlWireWriter *w);
gsize    sl_wire_pending      (SlWireWriter *w);

/* ---- reading (the readers) ---- */

typedef struct
{
  int     fd;
  guint8 *buf;
  gsize   len;
  gsize   pos;
  gsize   cap;
} SlWireReader;

typedef enum
{
  SL_WIRE_READ_FRAME,
  SL_WIRE_READ_MORE,
  SL_WIRE_READ_EOF,
  SL_WIRE_READ_BAD,
} SlWireReadStatus;

typedef struct
{
  SlWireType    type;
  const guint8 *data;
  guint32       size;
} SlWireFrame;

void             sl_wire_reader_init  (SlWireReader *r,
                                       int           fd);
void             sl_wire_reader_clear (SlWireReader *r);
SlWireReadStatus sl_wire_next         (SlWireReader *r,
                                       SlWireFrame  *frame);
SlWireReadStatus sl_wire_fill         (SlWireReader *r);

char            *sl_wire_string       (const guint8 *data,
                                       gsize         len);

G_END_DECLS
