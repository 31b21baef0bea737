/* sl-status-line.h: a line of short facts that drops whole facts, never cuts one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_STATUS_LINE (sl_status_line_get_type ())

G_DECLARE_FINAL_TYPE (SlStatusLine, sl_status_line, SL, STATUS_LINE, GtkWidget)

GtkWidget  *sl_status_line_new       (void);
void        sl_status_line_set_parts (SlStatusLine       *self,
                                      const char * const *parts);
const char *sl_status_line_get_text  (SlStatusLine       *self);

const char *_sl_status_line_get_drawn_text (SlStatusLine *self);

G_END_DECLS
