/* sl-relay-forward.h: IPv6 relays for babeltrace2 2.0.4's lttng-live
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *sl_relay_forward_url (const char  *url,
                            char       **why);
gint64 sl_relay_last_answer (void);

G_END_DECLS
