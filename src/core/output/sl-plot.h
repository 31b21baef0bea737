/* sl-plot.h: per-link synchronization plots (PNG and SVG, drawn with cairo)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <glib.h>

#include "sl-engine.h"
#include "sl-plot-data.h"

G_BEGIN_DECLS

/* Colours of the plotted items, as 8-bit RGB, so that tests (and a GUI
 * legend) can find them in the pictures. */
#define SL_PLOT_RGB_AB       0x1f77b4 /* packets sent by a (above) */
#define SL_PLOT_RGB_BA       0xff7f0e /* packets sent by b (below) */
#define SL_PLOT_RGB_ESTIMATE 0xd62728 /* the estimate */
#define SL_PLOT_RGB_HULL_AB  0x0b3d66
#define SL_PLOT_RGB_HULL_BA  0x8c4200
#define SL_PLOT_RGB_LMIN     0x2ca02c
#define SL_PLOT_RGB_LMAX     0x9467bd
#define SL_PLOT_RGB_ACCURACY 0x138d99
#define SL_PLOT_RGB_FAILURE  0xd91a1a /* clock steps and wrong matches */

#define SL_PLOT_WIDTH  1200
#define SL_PLOT_HEIGHT 900

/* The one renderer of a link's plots: the CLI's --plots pictures and the
 * desktop application's hull plot draw with these. */

/**
 * SlPlotPanel:
 * @left, @top, @right, @bottom: the frame, in the cairo context's units
 * @xmin, @xmax, @ymin, @ymax: the data range it shows (@ymin, @ymax:
 *   log10 of the values with @log_y)
 * @log_y: a logarithmic y axis
 */
typedef struct
{
  double   left;
  double   top;
  double   right;
  double   bottom;
  double   xmin;
  double   xmax;
  double   ymin;
  double   ymax;
  gboolean log_y;
} SlPlotPanel;

/**
 * SlPlotStyle:
 * @fg: axes, ticks, text (RGB)
 * @grid: the grid lines (RGBA)
 * @tick_size, @label_size: font sizes of the ticks' numbers and the axes'
 *   labels
 * @x_ticks, @y_ticks: about how many ticks
 * @tick_len: tick marks outside the frame (0: none)
 * @tick_gap: the ticks' numbers from the frame
 * @xlabel_dy: the x label's top below the frame
 * @ylabel_dx, @ylabel_valign: the y label left of the frame, and how it
 *   sits on that line (0: its top, 0.5: its middle)
 * @snap: grid and frame on pixel centres
 * @point_size: the packets' squares (0: 6 below 1000 points, else 2)
 * @line_scale: line widths and marks, times this
 *
 * sl_plot_style_init() gives the pictures' style; a widget sets its own.
 */
typedef struct
{
  double   fg[3];
  double   grid[4];
  double   tick_size;
  double   label_size;
  int      x_ticks;
  int      y_ticks;
  double   tick_len;
  double   tick_gap;
  double   xlabel_dy;
  double   ylabel_dx;
  double   ylabel_valign;
  gboolean snap;
  double   point_size;
  double   line_scale;
} SlPlotStyle;

typedef enum
{
  SL_PLOT_LEGEND_DOT,
  SL_PLOT_LEGEND_LINE,
  SL_PLOT_LEGEND_DASHED,
  SL_PLOT_LEGEND_THICK,
} SlPlotLegendKind;

typedef struct
{
  guint32          rgb;
  SlPlotLegendKind kind;
  char            *text;
} SlPlotLegendItem;

#define SL_PLOT_MAX_LEGEND 7

typedef struct
{
  double x0;
  double y0;
  double x1;
  double y1;
} SlPlotBox;

/**
 * SlPlotTexts:
 * @box: where the legend's items (swatch and text) and the counts of the
 *   points beyond the y range were drawn, in the cairo context's units
 * @n: how many
 *
 * A hull plot never hides its data: all of these lie outside its frame.
 */
typedef struct
{
  SlPlotBox box[SL_PLOT_MAX_LEGEND + 2];
  guint     n;
} SlPlotTexts;

void        sl_plot_style_init          (SlPlotStyle       *style);
double      sl_plot_panel_x             (const SlPlotPanel *pn,
                                         double             x);
double      sl_plot_panel_y             (const SlPlotPanel *pn,
                                         double             y);
void        sl_plot_draw_axes           (cairo_t           *cr,
                                         const SlPlotPanel *pn,
                                         const SlPlotStyle *st,
                                         const char        *xlabel,
                                         const char        *ylabel);
void        sl_plot_draw_hull           (cairo_t           *cr,
                                         const SlPlotData  *data,
                                         const SlPlotPanel *pn,
                                         const SlPlotStyle *st);
void        sl_plot_draw_accuracy       (cairo_t           *cr,
                                         const GArray      *accuracy,
                                         const SlPlotPanel *pn,
                                         double             x_end,
                                         const SlPlotStyle *st);
void        sl_plot_draw_beyond         (cairo_t           *cr,
                                         const SlPlotData  *data,
                                         const SlPlotPanel *pn,
                                         const SlPlotStyle *st,
                                         SlPlotBeyond      *beyond);
char       *sl_plot_beyond_text         (const SlPlotBeyond *beyond,
                                         guint              side);
guint       sl_plot_legend_items        (const SlPlotData  *data,
                                         const char        *name_a,
                                         const char        *name_b,
                                         SlPlotLegendItem  *items);
void        sl_plot_draw_legend_item    (cairo_t           *cr,
                                         const SlPlotLegendItem *item,
                                         double             x,
                                         double             cy,
                                         const SlPlotStyle *st);
guint       sl_plot_legend_fit_rows     (cairo_t           *cr,
                                         const SlPlotLegendItem *items,
                                         guint              n,
                                         double             width);
double      sl_plot_draw_legend_rows    (cairo_t           *cr,
                                         const SlPlotLegendItem *items,
                                         guint              n,
                                         guint              rows,
                                         double             left,
                                         double             top,
                                         double             row_h,
                                         const SlPlotStyle *st,
                                         SlPlotTexts       *texts);
gboolean    sl_plot_count_fits_beside   (cairo_t           *cr,
                                         const SlPlotPanel *pn,
                                         const SlPlotStyle *st,
                                         const char        *xlabel,
                                         const char        *count);
void        sl_plot_draw_counts         (cairo_t           *cr,
                                         char * const      *texts,
                                         double             right,
                                         double             above_bottom,
                                         double             below_top,
                                         SlPlotTexts       *boxes);
void        sl_plot_text_box            (cairo_t           *cr,
                                         const char        *text,
                                         double             x,
                                         double             y,
                                         double             halign,
                                         double             valign,
                                         SlPlotBox         *box);
void        sl_plot_show_text_at        (cairo_t           *cr,
                                         const char        *text,
                                         double             x,
                                         double             y,
                                         double             halign,
                                         double             valign);

/**
 * sl_plot_links:
 * @engine: the engine, after the input is consumed
 * @out_dir: output folder, created if missing
 * @error: return location for a #GError
 *
 * Writes, for every link, `out_dir/A--B.png` and `out_dir/A--B.svg`, where
 * A < B are the host names (sanitized for file names), oriented as in the
 * JSON report. The top panel shows the offset t_b - t_a of the matched
 * packets of both directions against a's time, the two hulls, Lmin, Lmax
 * and the estimate; the bottom panel shows the link's accuracy
 * (alpha_max - alpha_min, ppm, log scale) against input time, from the
 * engine's journal.
 *
 * Returns: %TRUE on success; on failure @error names the path.
 */
gboolean sl_plot_links (SlEngine    *engine,
                        const char  *out_dir,
                        GError     **error);
char    *sl_plot_title (SlEngine    *engine,
                        guint        link);
void     sl_plot_draw_link (cairo_t     *cr,
                            SlEngine    *engine,
                            guint        link,
                            SlPlotPanel *hull,
                            SlPlotTexts *texts);

G_END_DECLS
