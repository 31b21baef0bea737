/* sl-bt-decode.h: babeltrace2 messages into Syncline's own structs
 *
 * Private to the two readers (sl-trace-reader.c, sl-live.c): the only
 * other places that see babeltrace2's API.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <babeltrace2/babeltrace.h>
#include <glib.h>

#include "sl-event-store.h"
#include "sl-matcher.h"

G_BEGIN_DECLS

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>

/* babeltrace2 2.0.4 leaks on some error paths of its CTF decoder (a
 * message iterator that fails mid-packet loses a reference that holds the
 * whole trace; its TSDL parser leaks on syntax errors). What it allocates
 * inside these calls is not reported; our own allocations still are. */
#define BT_LEAKY(call) (__lsan_disable (), __extension__ ({ __auto_type r_ = (call); __lsan_enable (); r_; }))
#else
#define BT_LEAKY(call) (call)
#endif

/* babeltrace2's reference counts are not atomic: whatever creates or
 * destroys components, graphs or query executors holds this lock. */
extern GMutex sl_bt_lock;

const bt_plugin *sl_bt_get_ctf_plugin (const char **error);
char            *sl_bt_take_error     (void);

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
