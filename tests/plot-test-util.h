/* plot-test-util.h: checks of a hull plot's layout, shared by the
 * pictures' test and the application's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-plot.h"

static gboolean
plot_box_meets (const SlPlotBox *b,
                double           x0,
                double           y0,
                double           x1,
                double           y1)
{
  return b->x0 < x1 && x0 < b->x1 && b->y0 < y1 && y0 < b->y1;
}

/* Data drawn in @pn (clipped to it) under a box of @texts: points (squares
 * of @point_size), the band's and the estimate's vertices */
static guint
plot_hidden_in (const SlPlotBox   *b,
                const SlPlotPanel *pn,
                const GArray      *pts,
                double             size)
{
  guint n = 0;

  for (guint i = 0; pts != NULL && i < pts->len; i++)
    {
      const SlPlotPoint *q = &g_array_index (pts, SlPlotPoint, i);
      double px = sl_plot_panel_x (pn, q->x), py = sl_plot_panel_y (pn, q->y);

      if (!isfinite (py) || px < pn->left || px > pn->right || py < pn->top || py > pn->bottom)
        continue;
      n += plot_box_meets (b, px - size / 2, py - size / 2, px + size / 2, py + size / 2);
    }
  return n;
}

/* The legend's and counts' boxes: @n_expected of them, none in the data
 * area (the frame's inside, where everything the plot shows is drawn),
 * none on a point or the band, none on another. */
static G_GNUC_UNUSED void
plot_check_texts (const SlPlotTexts *t,
                  const SlPlotPanel *pn,
                  const SlPlotData  *data,
                  guint              n_expected,
                  const char        *what)
{
  guint hidden = 0, in_frame = 0, overlaps = 0;

  for (guint i = 0; i < t->n; i++)
    {
      const SlPlotBox *b = &t->box[i];

      g_test_message ("%s: text %u at x %.1f–%.1f, y %.1f–%.1f (frame x %.1f–%.1f, y %.1f–%.1f)", what, i, b->x0,
                      b->x1, b->y0, b->y1, pn->left, pn->right, pn->top, pn->bottom);
      in_frame += plot_box_meets (b, pn->left, pn->top, pn->right, pn->bottom);
      for (guint d = 0; d < 2; d++)
        hidden += plot_hidden_in (b, pn, data->points[d], 3) + plot_hidden_in (b, pn, data->hull[d], 5);
      hidden += plot_hidden_in (b, pn, data->path, 3) + plot_hidden_in (b, pn, data->band_lo, 3) +
                plot_hidden_in (b, pn, data->band_hi, 3);
      for (guint k = 0; k < i; k++)
        overlaps += plot_box_meets (b, t->box[k].x0, t->box[k].y0, t->box[k].x1, t->box[k].y1);
    }
  g_test_message ("%s: %u texts, %u in the frame, %u on data, %u on each other", what, t->n, in_frame, hidden,
                  overlaps);
  g_assert_cmpuint (t->n, ==, n_expected);
  g_assert_cmpuint (in_frame, ==, 0);
  g_assert_cmpuint (hidden, ==, 0);
  g_assert_cmpuint (overlaps, ==, 0);
}
