/* sl-session-private.h: what the benchmark and tests reach inside the session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-generate.h"
#include "sl-session.h"

G_BEGIN_DECLS

void              _sl_session_open_generated   (SlSession               *self,
                                                const SlGenerateOptions *options,
                                                const SlGenerateLink    *links,
                                                guint                    n_links,
                                                gint64                   pace_us);
void              _sl_session_set_demo_dir     (SlSession               *self,
                                                const char              *dir);
GArray           *_sl_session_get_update_times (SlSession               *self);
GArray           *_sl_session_get_update_cpu_times (SlSession           *self);
GArray           *_sl_session_get_resort_times (SlSession               *self);
guint             _sl_session_get_n_captures   (SlSession               *self);
const SlSnapshot *_sl_session_get_snapshot     (SlSession               *self);
/* also the session's own setters (sl-session.c) */
void              _sl_session_set_state        (SlSession               *self,
                                                SlSessionState           state);
void              _sl_session_set_progress     (SlSession               *self,
                                                double                   fraction,
                                                const char              *text);

G_END_DECLS
