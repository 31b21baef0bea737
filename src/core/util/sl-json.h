/* sl-json.h: one JsonBuilder member in one call, for the layers that link
 * json-glib (the helpers are inline; util itself does not link it)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

static inline void
sl_json_add_int (JsonBuilder *b,
                 const char  *key,
                 gint64       value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, value);
}

static inline void
sl_json_add_double (JsonBuilder *b,
                    const char  *key,
                    double       value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_double_value (b, value);
}

static inline void
sl_json_add_string (JsonBuilder *b,
                    const char  *key,
                    const char  *value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, value);
}

G_END_DECLS
