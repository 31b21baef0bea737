/* sl-solid-frame.h: libadwaita's window frame without a compositor, drawn cheaply
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void     sl_solid_frame_install      (GdkDisplay *display);

/* tests: the stylesheet can be switched off, to compare with libadwaita's own */
gboolean _sl_solid_frame_get_active  (GdkDisplay *display);
void     _sl_solid_frame_set_enabled (GdkDisplay *display,
                                      gboolean    enabled);

G_END_DECLS
