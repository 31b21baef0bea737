/* sl-ctf2.h: CTF 2 metadata (a JSON text sequence) as an SlTsdl
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-tsdl.h"

G_BEGIN_DECLS

SlTsdl *sl_ctf2_parse      (const char  *text,
                            gsize        len,
                            GError     **error);
SlTsdl *sl_ctf2_parse_full (const char  *text,
                            gsize        len,
                            GError     **error);

G_END_DECLS
