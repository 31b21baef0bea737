/* sl-graph-view-labels.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-graph-view-private.h"

/* Labels */

void
cell_free (gpointer data)
{
  if (data != NULL)
    g_array_unref (data);
}

static void
measure_label (SlGraphView *self,
               Node        *n,
               const char  *name)
{
  cairo_text_extents_t ext;
  guint key = g_str_hash (name);

  /* a name changes ("· not synchronized" while reading): its box too */
  if (n->label_w > 0 && n->label_key == key)
    return;
  if (self->measure == NULL)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);

      self->measure = cairo_create (surface);
      cairo_surface_destroy (surface);
      cairo_set_font_size (self->measure, 12);
    }
  cairo_text_extents (self->measure, name, &ext);
  n->label_key = key;
  n->label_w = ext.width + 4;
  n->label_h = ext.height + 4;
  n->label_xb = ext.x_bearing;
  n->label_yb = ext.y_bearing;
}

typedef struct
{
  guint  host;
  guint  unreadable;
  int    rank;
  double weight;
} LabelWish;

static int
wish_cmp (gconstpointer a,
          gconstpointer b)
{
  const LabelWish *x = a, *y = b;

  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  if (x->weight != y->weight)
    return x->weight > y->weight ? -1 : 1;
  return x->host < y->host ? -1 : x->host > y->host;
}

static gboolean
boxes_meet (const SlGraphLabel *a,
            const SlGraphLabel *b)
{
  return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

typedef gboolean (*CellFunc) (SlGraphView *self,
                              GArray     **cell,
                              gpointer     data);

/* Calls @func on each grid cell a box covers (@cols × @rows cells of
 * LABEL_CELL pixels, the box clamped to the grid) until it returns FALSE;
 * FALSE if it did. */
static gboolean
each_cell (SlGraphView        *self,
           const SlGraphLabel *l,
           int                 cols,
           int                 rows,
           CellFunc            func,
           gpointer            data)
{
  int c0 = CLAMP ((int) floor (l->x / LABEL_CELL), 0, cols - 1);
  int c1 = CLAMP ((int) floor ((l->x + l->w) / LABEL_CELL), 0, cols - 1);
  int r0 = CLAMP ((int) floor (l->y / LABEL_CELL), 0, rows - 1);
  int r1 = CLAMP ((int) floor ((l->y + l->h) / LABEL_CELL), 0, rows - 1);

  for (int r = r0; r <= r1; r++)
    for (int c = c0; c <= c1; c++)
      if (!func (self, (GArray **) &g_ptr_array_index (self->label_cells, r * cols + c), data))
        return FALSE;
  return TRUE;
}

static gboolean
cell_add (SlGraphView *self,
          GArray     **cell,
          gpointer     data)
{
  if (*cell == NULL)
    *cell = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (*cell, *(guint *) data);
  return TRUE;
}

static void
grid_add (SlGraphView        *self,
          const SlGraphLabel *l,
          guint               idx,
          int                 cols,
          int                 rows)
{
  each_cell (self, l, cols, rows, cell_add, &idx);
}

typedef struct
{
  const SlGraphLabel *l;
  gboolean            over_hosts;
} FitCheck;

/* FALSE if a box in @cell meets the label */
static gboolean
cell_free_for (SlGraphView *self,
               GArray     **cell,
               gpointer     data)
{
  const FitCheck *fc = data;

  for (guint k = 0; *cell != NULL && k < (*cell)->len; k++)
    {
      guint idx = g_array_index (*cell, guint, k);
      const SlGraphLabel *o;

      if (fc->over_hosts && (idx & OBSTACLE))
        continue;
      o = idx & OBSTACLE ? &g_array_index (self->obstacles, SlGraphLabel, idx & ~OBSTACLE)
                         : &g_array_index (self->labels, SlGraphLabel, idx);
      if (boxes_meet (fc->l, o))
        return FALSE;
    }
  return TRUE;
}

static gboolean
label_fits (SlGraphView        *self,
            const SlGraphLabel *l,
            gboolean            over_hosts,
            int                 cols,
            int                 rows)
{
  FitCheck fc = { l, over_hosts };

  return each_cell (self, l, cols, rows, cell_free_for, &fc);
}

/* @l moved inside the @width × @height widget; FALSE if it is larger. */
static gboolean
clamp_into (SlGraphLabel *l,
            int           width,
            int           height)
{
  if (l->w > width || l->h > height)
    return FALSE;
  l->x = CLAMP (l->x, 0, width - l->w);
  l->y = CLAMP (l->y, 0, height - l->h);
  return TRUE;
}

/* Names where they cover neither one another nor a host: the references
 * first, then the selected host, the unreadable ones, then the busiest
 * (most matched packets); each below its host, else above, right or left,
 * moved along the edge it would cross to stay inside the widget; the rest
 * go without a name until zoomed in. O(n log n) in the hosts on screen (a
 * grid of cells finds the neighbours). */
void
place_labels (SlGraphView     *self,
              int              width,
              int              height,
              const DrawState *ds)
{
  g_autoptr(GArray) wishes = g_array_new (FALSE, FALSE, sizeof (LabelWish));
  SlHostItem *selected = sl_session_get_selected_host (self->session);
  int cols = MAX ((int) ceil (width / LABEL_CELL), 1), rows = MAX ((int) ceil (height / LABEL_CELL), 1);
  double r = ds->r;

  g_array_set_size (self->labels, 0);
  for (guint h = 0; h < self->nodes->len; h++)
    {
      SlHostItem *item = sl_session_get_host_item (self->session, h);
      LabelWish w = { h, 0, 3, (double) sl_host_item_get_info (item)->counts.matched };
      double x, y;

      to_screen (self, node_pos (self, h, ds->t), &x, &y);
      if (x < 0 || y < 0 || x > width || y > height)
        continue;
      if (is_group_reference (self, h))
        w.rank = 0;
      else if (item == selected)
        w.rank = 1;
      else if (sl_host_item_get_unreadable (item))
        w.rank = 2;
      {
        g_autofree char *text = host_label_text (self, h);

        measure_label (self, &g_array_index (self->nodes, Node, h), text);
      }
      g_array_append_val (wishes, w);
    }
  for (guint i = 0; i < self->unreadable->len; i++)
    {
      SlHostItem *item = sl_session_get_unreadable (self->session, i);
      LabelWish w = { SL_HOST_NONE, i, item == selected ? 1 : 2, 0 };

      measure_label (self, &g_array_index (self->unreadable, Node, i), sl_host_item_get_name (item));
      g_array_append_val (wishes, w);
    }
  g_array_sort (wishes, wish_cmp);

  g_ptr_array_set_size (self->label_cells, cols * rows);
  for (guint i = 0; i < self->label_cells->len; i++)
    if (g_ptr_array_index (self->label_cells, i) != NULL)
      g_array_set_size (g_ptr_array_index (self->label_cells, i), 0);
  /* names keep off the hosts' discs */
  g_array_set_size (self->obstacles, 0);
  for (guint i = 0; i < self->nodes->len + self->unreadable->len; i++)
    {
      double x, y;
      SlGraphLabel o;

      to_screen (self, i < self->nodes->len ? node_pos (self, i, ds->t)
                                            : g_array_index (self->unreadable, Node, i - self->nodes->len).to,
                 &x, &y);
      if (x < -r || y < -r || x > width + r || y > height + r)
        continue;
      o = (SlGraphLabel) { SL_HOST_NONE, 0, x - r - 1, y - r - 1, 2 * r + 2, 2 * r + 2 };
      g_array_append_val (self->obstacles, o);
      grid_add (self, &o, (self->obstacles->len - 1) | OBSTACLE, cols, rows);
    }

  for (guint i = 0; i < wishes->len; i++)
    {
      const LabelWish *w = &g_array_index (wishes, LabelWish, i);
      const Node *n = w->host != SL_HOST_NONE ? &g_array_index (self->nodes, Node, w->host)
                                              : &g_array_index (self->unreadable, Node, w->unreadable);
      double x, y;
      const double dx[] = { -n->label_w / 2, -n->label_w / 2, r + 4, -r - 4 - n->label_w };
      const double dy[] = { r + 4, -r - 4 - n->label_h, -n->label_h / 2, -n->label_h / 2 };

      SlGraphLabel own;

      to_screen (self, w->host != SL_HOST_NONE ? node_pos (self, w->host, ds->t) : n->to, &x, &y);
      if (x < 0 || y < 0 || x > width || y > height)
        continue;
      own = (SlGraphLabel) { SL_HOST_NONE, 0, x - r - 1, y - r - 1, 2 * r + 2, 2 * r + 2 };
      /* the references, the selection and the unreadable hosts are named
       * even if their name must cover another host */
      for (guint k = 0; k < 2 * G_N_ELEMENTS (dx); k++)
        {
          guint p = k % G_N_ELEMENTS (dx);
          gboolean over_hosts = k >= G_N_ELEMENTS (dx);
          SlGraphLabel l = { w->host, w->unreadable, x + dx[p], y + dy[p], n->label_w, n->label_h };

          if ((over_hosts && w->rank > 2) || !clamp_into (&l, width, height) || boxes_meet (&l, &own) ||
              !label_fits (self, &l, over_hosts, cols, rows))
            continue;
          g_array_append_val (self->labels, l);
          grid_add (self, &l, self->labels->len - 1, cols, rows);
          break;
        }
    }
}
