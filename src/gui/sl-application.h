/* sl-application.h: the application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define SL_TYPE_APPLICATION (sl_application_get_type ())

G_DECLARE_FINAL_TYPE (SlApplication, sl_application, SL, APPLICATION, AdwApplication)

SlApplication *sl_application_new             (void);
int            sl_application_get_exit_status (SlApplication *self);
void           sl_application_set_exit_status (SlApplication *self,
                                               int            status);

G_END_DECLS
