/* sl-json-out.h: JSON written as it goes, as text or into a JsonBuilder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * One description of a document, two destinations: text in json-glib's
 * compact layout (json_to_string (root, FALSE), byte for byte but for
 * json-glib 1.6's slip: it leaves the control character 0x1f raw), written
 * to a
 * stream through a small buffer or kept in a string, so that a large
 * report never exists as a tree of nodes; or a JsonBuilder, for callers
 * that edit the result. @name is the member's name inside an object and
 * %NULL inside an array or at the top. Non-finite numbers are written as
 * null.
 */
typedef struct _SlJsonOut SlJsonOut;

SlJsonOut *sl_json_out_new_stream    (GOutputStream *stream);
SlJsonOut *sl_json_out_new_string    (void);
SlJsonOut *sl_json_out_new_builder   (void);
gboolean   sl_json_out_finish        (SlJsonOut     *out,
                                      GError       **error);
char      *sl_json_out_steal_string  (SlJsonOut     *out);
JsonNode  *sl_json_out_steal_root    (SlJsonOut     *out);
void       sl_json_out_free          (SlJsonOut     *out);

void       sl_json_out_begin_object  (SlJsonOut     *out,
                                      const char    *name);
void       sl_json_out_end_object    (SlJsonOut     *out);
void       sl_json_out_begin_array   (SlJsonOut     *out,
                                      const char    *name);
void       sl_json_out_end_array     (SlJsonOut     *out);
void       sl_json_out_string        (SlJsonOut     *out,
                                      const char    *name,
                                      const char    *value);
void       sl_json_out_int           (SlJsonOut     *out,
                                      const char    *name,
                                      gint64         value);
void       sl_json_out_number        (SlJsonOut     *out,
                                      const char    *name,
                                      double         value);
void       sl_json_out_boolean       (SlJsonOut     *out,
                                      const char    *name,
                                      gboolean       value);
void       sl_json_out_null          (SlJsonOut     *out,
                                      const char    *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlJsonOut, sl_json_out_free)

G_END_DECLS
