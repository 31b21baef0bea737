/* sl-relay-dialog.h: list a relay's live sessions and attach to some
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define SL_TYPE_RELAY_DIALOG (sl_relay_dialog_get_type ())

G_DECLARE_FINAL_TYPE (SlRelayDialog, sl_relay_dialog, SL, RELAY_DIALOG, AdwWindow)

SlRelayDialog *sl_relay_dialog_new                (GtkWindow     *parent);
const char    *sl_relay_dialog_get_url            (SlRelayDialog *self);
void           sl_relay_dialog_set_url            (SlRelayDialog *self,
                                                   const char    *url);
void           sl_relay_dialog_list_sessions      (SlRelayDialog *self);
guint          sl_relay_dialog_get_n_sessions     (SlRelayDialog *self);
void           sl_relay_dialog_set_session_active (SlRelayDialog *self,
                                                   guint          index,
                                                   gboolean       active);
void           sl_relay_dialog_set_attached       (SlRelayDialog      *self,
                                                   const char * const *urls);
const char    *sl_relay_dialog_get_session_subtitle (SlRelayDialog *self,
                                                     guint          index);
gboolean       sl_relay_dialog_get_session_active (SlRelayDialog *self,
                                                   guint          index);
const char    *sl_relay_dialog_get_session_url    (SlRelayDialog *self,
                                                   guint          index);
gboolean       sl_relay_dialog_get_busy           (SlRelayDialog *self);
const char    *sl_relay_dialog_get_status         (SlRelayDialog *self);

G_END_DECLS
