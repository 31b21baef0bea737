/* sl-host-item.h: one host of the session, for list views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "sl-snapshot.h"

G_BEGIN_DECLS

/**
 * SlHostState:
 * @SL_HOST_STATE_REFERENCE: the clock of a group of hosts
 * @SL_HOST_STATE_SYNCHRONIZED: on its reference's clock
 * @SL_HOST_STATE_UNSYNCHRONIZED: alone, no accurate link yet
 * @SL_HOST_STATE_UNREADABLE: nothing of it could be read
 */
typedef enum
{
  SL_HOST_STATE_REFERENCE,
  SL_HOST_STATE_SYNCHRONIZED,
  SL_HOST_STATE_UNSYNCHRONIZED,
  SL_HOST_STATE_UNREADABLE,
} SlHostState;

/**
 * SlHostLive:
 * @SL_HOST_LIVE_NONE: not a live host
 * @SL_HOST_LIVE_CONNECTING: attaching to the relay
 * @SL_HOST_LIVE_STREAMING: its events arrive
 * @SL_HOST_LIVE_WAITING: the session or the relay is busy or not there yet
 * @SL_HOST_LIVE_STALLED: the relay has not answered for a while
 * @SL_HOST_LIVE_ENDED: its session ended; what it sent is kept
 * @SL_HOST_LIVE_FAILED: attaching failed for good
 *
 * A live host's state: of its attachment that is the furthest along when
 * it has several.
 */
typedef enum
{
  SL_HOST_LIVE_NONE,
  SL_HOST_LIVE_CONNECTING,
  SL_HOST_LIVE_STREAMING,
  SL_HOST_LIVE_WAITING,
  SL_HOST_LIVE_STALLED,
  SL_HOST_LIVE_ENDED,
  SL_HOST_LIVE_FAILED,
  SL_HOST_LIVE_N_STATES
} SlHostLive;

#define SL_TYPE_HOST_ITEM (sl_host_item_get_type ())

G_DECLARE_FINAL_TYPE (SlHostItem, sl_host_item, SL, HOST_ITEM, GObject)

guint        sl_host_item_get_host          (SlHostItem *self);
const char  *sl_host_item_get_name          (SlHostItem *self);
const char  *sl_host_item_get_key           (SlHostItem *self);
guint        sl_host_item_get_reference     (SlHostItem *self);
gboolean     sl_host_item_get_is_reference  (SlHostItem *self);
guint        sl_host_item_get_component     (SlHostItem *self);
double       sl_host_item_get_bound         (SlHostItem *self);
SlRelation       *sl_host_item_get_relation (SlHostItem *self);
const SlSnapHost *sl_host_item_get_info     (SlHostItem *self);
const char  *sl_host_item_get_status        (SlHostItem *self);
SlHostState  sl_host_item_get_state         (SlHostItem *self);
gboolean     sl_host_item_get_unreadable    (SlHostItem *self);
gboolean     sl_host_item_get_unsynchronized (SlHostItem *self);
char        *sl_host_item_dup_label         (SlHostItem *self);
SlHostLive   sl_host_item_get_live          (SlHostItem *self);
const char  *sl_host_live_to_string         (SlHostLive  live);
char        *sl_host_item_dup_summary       (SlHostItem *self);
const char  *sl_host_state_to_string        (SlHostState state);

/* for the session */
SlHostItem  *_sl_host_item_new              (guint             host,
                                             const char       *name);
void         _sl_host_item_update           (SlHostItem       *self,
                                             const SlSnapshot *snapshot);
void         _sl_host_item_set_status       (SlHostItem       *self,
                                             const char       *status);
const char  *_sl_host_item_get_problems     (SlHostItem       *self);
void         _sl_host_item_set_live         (SlHostItem       *self,
                                             SlHostLive        live);
SlHostItem  *_sl_host_item_new_unreadable   (const char       *name,
                                             const char       *message);
void         _sl_host_item_set_unreadable   (SlHostItem       *self,
                                             gboolean          unreadable);

G_END_DECLS
