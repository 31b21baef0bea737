/* sl-extract.h: a host's packet events and identity as a small CTF trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-matcher.h"

G_BEGIN_DECLS

/*
 * What `syncline-cli extract` writes for one host, and `sync` reads like
 * any trace: the packet events as the events Syncline already reads
 * (syncline_net:tcp_send/tcp_recv with addresses, inet_sock_local_out/in
 * without), on a 1 GHz clock at the epoch (the times unchanged, to the
 * ns), and the host's identity: its hostname and clock UUID (so that it
 * is grouped and named as the full trace was), and in the environment its
 * counts and span (syncline_extract_*).
 */
typedef struct _SlExtract SlExtract;

/**
 * SlExtractInfo:
 * @events: events the host's traces hold
 * @ignored: network events that are not TCP
 * @has_span: whether @span_first and @span_last are set
 * @span_first, @span_last: the host's first and last event of any kind
 *   (its own clock): the bounds cover them, so a sync of the extracts
 *   gives the bounds of the full traces
 * @sources: (nullable): the trace folders, for people
 */
typedef struct
{
  guint64     events;
  guint64     ignored;
  gboolean    has_span;
  gint64      span_first;
  gint64      span_last;
  const char *sources;
} SlExtractInfo;

SlExtract *sl_extract_new     (const char           *dir,
                               const char           *hostname,
                               const char           *clock_uuid,
                               gsize                 packet_size,
                               GError              **error);
gboolean   sl_extract_add     (SlExtract            *self,
                               const SlPacketEvent  *event,
                               GError              **error);
gboolean   sl_extract_finish  (SlExtract            *self,
                               const SlExtractInfo  *info,
                               GError              **error);
guint64    sl_extract_get_n_packets (SlExtract      *self);
void       sl_extract_free    (SlExtract            *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlExtract, sl_extract_free)

G_END_DECLS
