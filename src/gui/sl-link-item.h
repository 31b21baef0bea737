/* sl-link-item.h: one link of the session, for list views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "sl-report.h"

G_BEGIN_DECLS

#define SL_TYPE_LINK_ITEM (sl_link_item_get_type ())

G_DECLARE_FINAL_TYPE (SlLinkItem, sl_link_item, SL, LINK_ITEM, GObject)

guint               sl_link_item_get_link       (SlLinkItem *self);
guint               sl_link_item_get_a          (SlLinkItem *self);
guint               sl_link_item_get_b          (SlLinkItem *self);
const char         *sl_link_item_get_a_name     (SlLinkItem *self);
const char         *sl_link_item_get_b_name     (SlLinkItem *self);
SlQuality           sl_link_item_get_quality    (SlLinkItem *self);
gboolean            sl_link_item_get_in_tree    (SlLinkItem *self);
double              sl_link_item_get_accuracy   (SlLinkItem *self);
const SlReportLink *sl_link_item_get_info       (SlLinkItem *self);
char               *sl_link_item_dup_summary    (SlLinkItem *self);

/* for the session */
SlLinkItem         *_sl_link_item_new           (guint               link);
gboolean            _sl_link_item_update        (SlLinkItem         *self,
                                                 const SlReportLink *rl,
                                                 const char         *a_name,
                                                 const char         *b_name,
                                                 gint64              time_origin);

G_END_DECLS
