/* sl-diagnosis.h: why a link or a host is not synchronized, and what to do
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "sl-snapshot.h"

G_BEGIN_DECLS

#define SL_DIAGNOSIS_KERNEL_COMMAND \
  "lttng enable-event --kernel net_dev_queue,net_if_receive_skb,netif_receive_skb,net_if_rx"
#define SL_DIAGNOSIS_UST_COMMAND \
  "lttng enable-event --userspace 'syncline_net:*'"

char *sl_diagnose_link (const SlSnapshot *snapshot,
                        guint             link);
char *sl_diagnose_host (const SlSnapshot *snapshot,
                        guint             host);

char *sl_diagnose_all_to_text (const SlSnapshot *snapshot);
void  sl_diagnose_all_to_json (const SlSnapshot *snapshot,
                               JsonObject       *report);

G_END_DECLS
