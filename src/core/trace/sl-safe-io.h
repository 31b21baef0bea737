/* sl-safe-io.h: opening input files without blocking or reading unbounded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int      sl_safe_open_regular (const char  *path,
                               goffset     *size,
                               GError     **error);
gboolean sl_safe_read_file    (const char  *path,
                               gsize        max_bytes,
                               guint8     **data,
                               gsize       *len,
                               GError     **error);
gboolean sl_safe_is_regular   (const char  *path);
char    *sl_safe_describe     (const char  *path);

G_END_DECLS
