/* sl-ctf2.h: CTF 2 metadata (a JSON text sequence) as an SlTsdl
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-tsdl.h"

G_BEGIN_DECLS

/* how deep JSON arrays and objects may nest in a CTF 2 fragment */
#define SL_CTF2_MAX_JSON_DEPTH 256

SlTsdl *sl_ctf2_parse      (const char  *text,
                            gsize        len,
                            GError     **error);
SlTsdl *sl_ctf2_parse_full (const char  *text,
                            gsize        len,
                            GError     **error);

gboolean sl_ctf2_json_too_deep (const char *text);

G_END_DECLS
