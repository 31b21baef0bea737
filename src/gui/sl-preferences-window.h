/* sl-preferences-window.h: algorithm, tree, reference, live refresh
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "sl-session.h"

G_BEGIN_DECLS

#define SL_TYPE_PREFERENCES_WINDOW (sl_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (SlPreferencesWindow, sl_preferences_window, SL, PREFERENCES_WINDOW, AdwPreferencesWindow)

SlPreferencesWindow *sl_preferences_window_new (GtkWindow *parent,
                                                GSettings *settings,
                                                SlSession *session);

G_END_DECLS
