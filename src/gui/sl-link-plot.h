/* sl-link-plot.h: the selected link's hull plot, or its band and accuracy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sl-plot.h"
#include "sl-snapshot.h"

G_BEGIN_DECLS

/**
 * SlLinkPlotKind:
 * @SL_LINK_PLOT_HULL: offset t_b − t_a of the matched packets of both
 *   directions against a's time, their hulls, Lmin, Lmax and the estimate
 * @SL_LINK_PLOT_BAND: the feasible offset band around the estimate against
 *   trace time, and the accuracy (ppm, log scale) against input time
 */
typedef enum
{
  SL_LINK_PLOT_HULL,
  SL_LINK_PLOT_BAND,
} SlLinkPlotKind;

/* Colours, as 8-bit RGB: the core renderer's (sl-plot.h), which draws
 * the CLI's --plots too. */
#define SL_LINK_PLOT_RGB_AB       SL_PLOT_RGB_AB
#define SL_LINK_PLOT_RGB_BA       SL_PLOT_RGB_BA
#define SL_LINK_PLOT_RGB_HULL_AB  SL_PLOT_RGB_HULL_AB
#define SL_LINK_PLOT_RGB_HULL_BA  SL_PLOT_RGB_HULL_BA
#define SL_LINK_PLOT_RGB_LMIN     SL_PLOT_RGB_LMIN
#define SL_LINK_PLOT_RGB_LMAX     SL_PLOT_RGB_LMAX
#define SL_LINK_PLOT_RGB_ESTIMATE SL_PLOT_RGB_ESTIMATE
#define SL_LINK_PLOT_RGB_ACCURACY SL_PLOT_RGB_ACCURACY

#define SL_TYPE_LINK_PLOT (sl_link_plot_get_type ())

G_DECLARE_FINAL_TYPE (SlLinkPlot, sl_link_plot, SL, LINK_PLOT, GtkWidget)

SlPlotData     *sl_link_plot_get_plot   (SlLinkPlot  *self);
void            sl_link_plot_set_plot   (SlLinkPlot  *self,
                                         SlPlotData  *plot);
SlLinkPlotKind  sl_link_plot_get_kind   (SlLinkPlot  *self);
void            sl_link_plot_set_kind   (SlLinkPlot  *self,
                                         SlLinkPlotKind kind);
void            sl_link_plot_set_names  (SlLinkPlot  *self,
                                         const char  *a,
                                         const char  *b);
gboolean        sl_link_plot_get_zoomed (SlLinkPlot  *self);
void            sl_link_plot_set_range  (SlLinkPlot  *self,
                                         double       x0,
                                         double       x1);
void            sl_link_plot_get_range  (SlLinkPlot  *self,
                                         double      *x0,
                                         double      *x1);

void        _sl_link_plot_get_beyond (SlLinkPlot   *self,
                                      SlPlotBeyond *beyond);
void        _sl_link_plot_get_texts (SlLinkPlot  *self,
                                     SlPlotTexts *texts);
void        _sl_link_plot_get_frame (SlLinkPlot *self,
                                     double     *box,
                                     double     *range);

G_END_DECLS
