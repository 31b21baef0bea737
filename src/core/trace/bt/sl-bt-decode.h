/* sl-bt-decode.h: babeltrace2 messages into Syncline's own structs
 *
 * Private to the babeltrace2 front end (sl-bt-graph.c) and the readers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <babeltrace2/babeltrace.h>
#include <glib.h>

#include "sl-event-store.h"
#include "sl-matcher.h"

G_BEGIN_DECLS

typedef struct _SlBtDecoder    SlBtDecoder;
typedef struct _SlBtStreamInfo SlBtStreamInfo;

/* What the decoder keeps per babeltrace stream. */
typedef struct
{
  SlBtStreamInfo *sinfo;
  guint           cpu;
  char           *file;
} SlBtStreamState;

typedef enum
{
  SL_BT_EVENT_OTHER,
  SL_BT_EVENT_PACKET,
  SL_BT_EVENT_IGNORED,
  /* a packet event whose addresses, ports or sequence numbers cannot be
   * read (sl_bt_decoder_take_unusable() says why, once per event class) */
  SL_BT_EVENT_UNUSABLE,
} SlBtEventResult;

/**
 * SlBtEventSink:
 * @intern: a string's id (0 for %NULL or ""), the same id for the same
 *   string
 *
 * The ids of the decoder's timeline events' strings (the decoder process
 * writes them as frames, with the events it takes from
 * sl_bt_decoder_get_events(), sl-decoder-main.c).
 */
typedef struct
{
  guint32 (*intern) (gpointer    data,
                     const char *str);
  gpointer data;
} SlBtEventSink;

SlBtDecoder     *sl_bt_decoder_new        (void);
void             sl_bt_decoder_free       (SlBtDecoder      *d);
void             sl_bt_decoder_set_events (SlBtDecoder         *d,
                                           const SlBtEventSink *sink);
void             sl_bt_decoder_set_muted  (SlBtDecoder      *d,
                                           gboolean          muted);
const SlEvent   *sl_bt_decoder_get_events (SlBtDecoder          *d,
                                           guint                *n_events,
                                           const SlEventPacket **packets);
void             sl_bt_decoder_clear_events (SlBtDecoder    *d);
const char      *sl_bt_decoder_take_unusable (SlBtDecoder   *d);
gboolean         sl_bt_decoder_event_time (SlBtDecoder      *d,
                                           SlBtStreamState  *st,
                                           const bt_message *msg,
                                           gint64           *time);
SlBtEventResult  sl_bt_decoder_event      (SlBtDecoder      *d,
                                           SlBtStreamState  *st,
                                           const bt_message *msg,
                                           gint64            time,
                                           guint             engine_host,
                                           SlPacketEvent    *pe);
gboolean         sl_bt_decoder_other      (SlBtDecoder      *d,
                                           SlBtStreamState  *st,
                                           const bt_message *msg);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlBtDecoder, sl_bt_decoder_free)

G_END_DECLS
