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
SlRelation         *sl_link_item_get_relation   (SlLinkItem *self);
char               *sl_link_item_dup_summary    (SlLinkItem *self);

/* What the link table sorts by: the values of the numeric properties of
 * the same names, "hosts" compared as a GtkStringSorter would. */
typedef enum
{
  SL_LINK_SORT_HOSTS,
  SL_LINK_SORT_QUALITY,
  SL_LINK_SORT_IN_TREE,
  SL_LINK_SORT_ACCURACY,
  SL_LINK_SORT_BAND,
  SL_LINK_SORT_SLOPE,
  SL_LINK_SORT_MATCHES,
  SL_LINK_SORT_ACCURATE_PACKETS,
  SL_LINK_SORT_HULL_POINTS,
  SL_LINK_SORT_INVERSIONS,
  SL_LINK_SORT_LAST_CHANGE,
  SL_LINK_SORT_BOUND,
  SL_LINK_SORT_OFFSET,
} SlLinkSortKey;

int                 sl_link_item_compare        (gconstpointer a,
                                                 gconstpointer b,
                                                 gpointer      key);

/* for the session */
SlLinkItem         *_sl_link_item_new           (guint               link);
void                _sl_link_item_set_relation  (SlLinkItem         *self,
                                                 SlRelation         *relation);
gboolean            _sl_link_item_update        (SlLinkItem         *self,
                                                 const SlReportLink *rl,
                                                 const char         *a_name,
                                                 const char         *b_name,
                                                 gint64              time_origin);

G_END_DECLS
