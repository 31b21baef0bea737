/* sl-link-plot.h: the selected link's hull plot, or its band and accuracy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

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

/* Colours, as 8-bit RGB (as in the CLI's --plots). */
#define SL_LINK_PLOT_RGB_AB       0x1f77b4
#define SL_LINK_PLOT_RGB_BA       0xff7f0e
#define SL_LINK_PLOT_RGB_HULL_AB  0x0b3d66
#define SL_LINK_PLOT_RGB_HULL_BA  0x8c4200
#define SL_LINK_PLOT_RGB_LMIN     0x2ca02c
#define SL_LINK_PLOT_RGB_LMAX     0x9467bd
#define SL_LINK_PLOT_RGB_ESTIMATE 0xd62728
#define SL_LINK_PLOT_RGB_ACCURACY 0x138d99

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
void            sl_link_plot_get_view   (SlLinkPlot  *self,
                                         double      *x0,
                                         double      *x1);

void        _sl_link_plot_get_frame (SlLinkPlot *self,
                                     double     *box,
                                     double     *range);

G_END_DECLS
