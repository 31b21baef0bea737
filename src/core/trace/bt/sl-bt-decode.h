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

/* What the decoder keeps per babeltrace stream (one per input port). */
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
} SlBtEventResult;

SlBtDecoder     *sl_bt_decoder_new        (void);
void             sl_bt_decoder_free       (SlBtDecoder      *d);
void             sl_bt_decoder_set_store  (SlBtDecoder      *d,
                                           SlEventStore     *store);
void             sl_bt_decoder_continue_store (SlBtDecoder  *d,
                                           SlEventStore     *store);
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

G_END_DECLS
