/* sl-matcher.h: pairs each packet's send event with its receive event
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  SL_PACKET_SEND,
  SL_PACKET_RECV,
} SlPacketDir;

/**
 * SlPacketEvent:
 * @host: engine host index of the trace the event comes from
 * @dir: send or receive
 * @time: host-local timestamp (ns)
 * @family: 4 or 6 when @saddr, @daddr, @sport and @dport are known, 0 when
 *   the event carries no addresses (the old inet_sock_local_* events)
 * @has_length: whether @length is known
 * @length: TCP payload bytes (clamped to 65535), when @has_length
 *
 * One TCP packet event, reduced to what identifies the packet on the wire
 * (REFERENCE §4). Big-endian header copies are already converted to host
 * order by the reader.
 */
typedef struct
{
  guint32     host;
  SlPacketDir dir;
  gint64      time;
  guint8      family;
  guint8      has_length;
  guint16     sport;
  guint16     dport;
  guint32     seq;
  guint32     ack_seq;
  guint16     flags;
  guint16     length;
  guint8      saddr[16];
  guint8      daddr[16];
} SlPacketEvent;

/**
 * SlMatch:
 * @has_length: whether @length is known
 * @length: the packet's TCP payload bytes (the send event's, else the
 *   receive's), when @has_length
 *
 * One packet seen by its sender and its receiver.
 */
typedef struct
{
  guint32 send_host;
  guint32 recv_host;
  gint64  send_time;
  gint64  recv_time;
  guint16 length;
  guint8  has_length;
} SlMatch;

typedef struct
{
  guint64 pushed;
  guint64 matched;
  guint64 duplicates;
  guint64 same_host;
  guint64 expired;
  guint64 generations;
  gsize   pending;
  gsize   capacity;
} SlMatcherStats;

typedef struct _SlMatcher SlMatcher;

SlMatcher *sl_matcher_new        (gint64               window_ns,
                                  gsize                max_pending);
void       sl_matcher_free       (SlMatcher           *self);
gboolean   sl_matcher_push       (SlMatcher           *self,
                                  const SlPacketEvent *event,
                                  gint64               now,
                                  SlMatch             *match);
void       sl_matcher_get_stats  (const SlMatcher     *self,
                                  SlMatcherStats      *stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlMatcher, sl_matcher_free)

G_END_DECLS
