/* sl-host-item.h: one host of the session, for list views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "sl-snapshot.h"

G_BEGIN_DECLS

#define SL_TYPE_HOST_ITEM (sl_host_item_get_type ())

G_DECLARE_FINAL_TYPE (SlHostItem, sl_host_item, SL, HOST_ITEM, GObject)

guint        sl_host_item_get_host          (SlHostItem *self);
const char  *sl_host_item_get_name          (SlHostItem *self);
guint        sl_host_item_get_reference     (SlHostItem *self);
gboolean     sl_host_item_get_is_reference  (SlHostItem *self);
guint        sl_host_item_get_component     (SlHostItem *self);
double       sl_host_item_get_bound         (SlHostItem *self);
const SlSnapHost *sl_host_item_get_info     (SlHostItem *self);
const char  *sl_host_item_get_status        (SlHostItem *self);
char        *sl_host_item_dup_summary       (SlHostItem *self);

/* for the session */
SlHostItem  *_sl_host_item_new              (guint             host,
                                             const char       *name);
void         _sl_host_item_update           (SlHostItem       *self,
                                             const SlSnapshot *snapshot);
void         _sl_host_item_set_status       (SlHostItem       *self,
                                             const char       *status);

G_END_DECLS
