/* sl-quality-panel.h: links, hosts, plots and diagnosis of the session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sl-session.h"

G_BEGIN_DECLS

#define SL_TYPE_QUALITY_PANEL (sl_quality_panel_get_type ())

G_DECLARE_FINAL_TYPE (SlQualityPanel, sl_quality_panel, SL, QUALITY_PANEL, GtkWidget)

SlSession  *sl_quality_panel_get_session        (SlQualityPanel *self);
void        sl_quality_panel_set_session        (SlQualityPanel *self,
                                                 SlSession      *session);
const char *sl_quality_panel_get_page           (SlQualityPanel *self);
void        sl_quality_panel_set_page           (SlQualityPanel *self,
                                                 const char     *page);
SlLinkItem *sl_quality_panel_get_selected_link  (SlQualityPanel *self);
SlHostItem *sl_quality_panel_get_selected_host  (SlQualityPanel *self);
const char *sl_quality_panel_get_details_title  (SlQualityPanel *self);
const char *sl_quality_panel_get_diagnosis      (SlQualityPanel *self);
GtkWidget  *sl_quality_panel_get_hull_plot      (SlQualityPanel *self);
const char *sl_quality_panel_get_empty_text     (SlQualityPanel *self,
                                                 const char     *page);
const char *sl_quality_panel_get_host_message   (SlQualityPanel *self);
GtkWidget  *sl_quality_panel_get_band_plot      (SlQualityPanel *self);

/* for the tests: a table whose model goes from empty to many items shows
 * them SL_QUALITY_PANEL_REVEAL_STEP per frame up to
 * SL_QUALITY_PANEL_REVEAL_ALL, then all */
#define SL_QUALITY_PANEL_REVEAL_STEP 12
#define SL_QUALITY_PANEL_REVEAL_ALL  256
GtkColumnView *_sl_quality_panel_get_hosts_view (SlQualityPanel *self);
GtkColumnView *_sl_quality_panel_get_links_view (SlQualityPanel *self);
GtkWidget     *_sl_quality_panel_get_links_table (SlQualityPanel *self);

G_END_DECLS
