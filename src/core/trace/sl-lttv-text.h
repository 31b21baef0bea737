/* sl-lttv-text.h: LTTV's synchronization unit-case format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-engine.h"

G_BEGIN_DECLS

/* Longest LTTV unit-case file read (LTTV's are a few kilobytes). */
#define SL_LTTV_MAX_BYTES (256u << 20)

gboolean sl_lttv_text_looks_like (const char  *path);
gboolean sl_lttv_text_load       (SlEngine    *engine,
                                  const char  *path,
                                  GError     **error);
gboolean sl_lttv_text_load_data  (SlEngine    *engine,
                                  const char  *name,
                                  const char  *data,
                                  gsize        len,
                                  GError     **error);
gboolean sl_parse_seconds_ns     (const char  *str,
                                  gint64      *ns);

G_END_DECLS
