/* sl-item-notify.h: property notifications of items updated in bulk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Whether anything listens to @object's "notify", for any property. The
 * tables' cells follow an item's "changed" signal, not its properties:
 * an update of 2 000 links made some 25 000 notifications that no one
 * received, and GLib 2.74 queues and dispatches each one all the same. */
static inline gboolean
sl_item_notify_wanted (gpointer object)
{
  static guint notify_id;

  if (G_UNLIKELY (notify_id == 0))
    notify_id = g_signal_lookup ("notify", G_TYPE_OBJECT);
  /* (g_signal_has_handler_pending() with no detail misses the handlers of
   * one property: "notify::bound") */
  return G_OBJECT_GET_CLASS (object)->notify != NULL ||
         g_signal_handler_find (object, G_SIGNAL_MATCH_ID, notify_id, 0, NULL, NULL, NULL) != 0;
}

G_END_DECLS
