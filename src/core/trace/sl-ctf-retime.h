/* sl-ctf-retime.h: a CTF trace's timestamps rewritten through a clock map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-tsdl.h"

G_BEGIN_DECLS

/**
 * SlCtfRetimeFunc:
 * @ns: a time of the trace's clock, ns from the epoch as babeltrace2
 *   computes it from the cycles
 *
 * Returns: the time it maps to (ns from the epoch); the map must be
 *   non-decreasing
 */
typedef gint64 (*SlCtfRetimeFunc) (gint64   ns,
                                   gpointer user_data);

typedef struct _SlCtfRetime SlCtfRetime;

SlCtfRetime *sl_ctf_retime_new         (const char       *metadata,
                                        gsize             len,
                                        SlCtfRetimeFunc   func,
                                        gpointer          user_data,
                                        GError          **error);
void         sl_ctf_retime_free        (SlCtfRetime      *self);
gboolean     sl_ctf_retime_clock_base  (guint64           freq,
                                        gint64            offset_s,
                                        guint64           offset,
                                        SlCtfRetimeFunc   func,
                                        gpointer          user_data,
                                        gint64           *base_s);
gboolean     sl_ctf_retime_stream      (SlCtfRetime      *self,
                                        const char       *from,
                                        const char       *to,
                                        char            **cut,
                                        GError          **error);
gboolean     sl_ctf_retime_index       (SlCtfRetime      *self,
                                        const char       *from,
                                        const char       *to,
                                        GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCtfRetime, sl_ctf_retime_free)

G_END_DECLS
