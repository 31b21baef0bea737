/* sl-event-store-private.h: what the tests may ask of an event store
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-event-store.h"

G_BEGIN_DECLS

guint _sl_event_store_get_n_blocks (const SlEventStore *self);

G_END_DECLS
