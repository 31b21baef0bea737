/* sl-graph-view-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-canvas.h"
#include "sl-graph-layout.h"
#include "sl-graph-view.h"
#include "sl-line-raster.h"

G_BEGIN_DECLS

#define UNIT_PX          90.0
#define MIN_ZOOM         0.02
#define MAX_ZOOM         8.0
#define NODE_RADIUS      7.0
#define MOVE_MS          600
#define FLASH_MS         1800
/* a change undone within this long (a tree link that comes back, the
 * reference moving back) is not news: it does not glow or pulse again */
#define UNDO_MS          2000
#define MAX_FLASHES      SL_GRAPH_VIEW_MAX_GLOWING
/* the colour scale of a link's bound: 10 µs to 10 ms (log10 of ns) */
#define BOUND_LOG_MIN    4.0
#define BOUND_LOG_MAX    7.0
#define EXPORT_MAX_PX    3000

typedef struct
{
  SlLayoutPos from;
  SlLayoutPos to;
  double      flash;
  gint64      ref_left;  /* when it stopped being its group's reference */
  double      label_w;   /* the name's ink at 12 px, 0 until measured */
  guint       label_key; /* g_str_hash() of the name measured */
  double      label_h;
  double      label_xb;
  double      label_yb;
} Node;

typedef struct
{
  guint     link;
  guint     a;
  guint     b;
  SlQuality quality;
  gboolean  in_tree;
  double    bound_ns;
  gint64    flash_start;
  gint64    left_tree;   /* when it left the tree, 0: not lately */
} Edge;

struct _SlGraphView
{
  GtkWidget       parent_instance;

  SlSession      *session;
  gulong          updated_id;
  gulong          link_id;
  gulong          host_id;
  gulong          pin_id;

  GArray         *nodes;
  GArray         *unreadable;   /* Node per unreadable host, in a row below */
  GArray         *edges;
  GArray         *refs;
  GArray         *labels;       /* SlGraphLabel placed in the last frame */
  GArray         *obstacles;    /* the hosts' discs, which names keep off */
  GPtrArray      *label_cells;  /* scratch grid for the placement */
  cairo_t        *measure;
  double          layout_w;
  double          layout_h;
  gint64          move_start;
  guint           tick_id;
  gint64          flash_ref_start;
  guint           flash_ref;
  gint64          undo_us;

  double          zoom;
  double          pan_x;
  double          pan_y;
  gboolean        auto_fit;
  double          drag_pan_x;
  double          drag_pan_y;
  gboolean        dragging;
  double          pinch_zoom;
  guint           n_tree_edges;

  double          pointer_x;
  double          pointer_y;
  guint           menu_host;

  GtkPopoverMenu *context_menu;
  GMenuModel     *host_menu;
  SlCanvas       *canvas;
  cairo_surface_t *sprite;
  cairo_surface_t *mark_sprites[SL_QUALITY_FAIL + 1];
  double          mark_scale;
  double          sprite_r;
  double          sprite_scale;
  guint32         sprite_fg;
  guint32         sprite_bg;
  /* pacing while the session is read (queue_draw_paced()) */
  gint64          draw_cost_us;
  gint64          draw_start;
  gint64          draw_end;
  guint           pace_id;
  gint64          pace_due;
  gint64          pace_floor_us;
  guint           n_draws;
  guint           n_draws_loading;
  /* the drawing to come was asked for by the pacing (not by GTK itself:
   * the window shown, resized, laid out as the panel fills) */
  gboolean        draw_paced;
  guint           n_paced_loading;
  /* an animation stepped by the paced drawings instead of the frame
   * clock, and the frame clock's ticks while reading */
  gboolean        animating_paced;
  guint           n_ticks_loading;
  /* what the last drawing asked for by an update shows of the session
   * (drawn_key()), and the updates while reading that changed none of it */
  guint64         drawn_key;
  guint           n_updates_loading;
  guint           n_unseen_loading;
  /* the most host items draw_back() looked up in a drawing, per host */
  guint           back_lookups_per_host;
  /* unsynchronized hosts' dashed rings: their coverage per host (RingMask),
   * kept while the host stays at the same place; off for the tests'
   * comparison with cairo's strokes; the rings cairo stroked or rendered
   * into a mask in the last drawing */
  GArray         *ring_masks;
  gboolean        ring_masks_off;
  guint           ring_strokes;
};

typedef struct
{
  double           ux;
  double           uy;
  double           r;
  int              scale;
  cairo_surface_t *mask;
} RingMask;
typedef struct
{
  double r, g, b;
} Rgb;

typedef enum
{
  LAYER_BACK        = 1 << 0,
  LAYER_OTHER_EDGES = 1 << 1,
  LAYER_FRONT       = 1 << 2,
  LAYER_ALL         = 7,
} Layers;

typedef struct
{
  double      t;
  double      r;
  gint64      now;
  guint       sel_l;
  guint       sel_h;
  Rgb         fg;
  Rgb         bg;
  gboolean    for_export;
  double      other_alpha;
} DrawState;

#define LABEL_CELL 64.0
#define OBSTACLE   0x80000000u

/* sl-graph-view.c */

Rgb rgb_from_hex (guint32 hex);

void set_rgb (cairo_t *cr,
              Rgb      c,
              double   alpha);

Rgb bound_color (double t);

double bound_t (double bound_ns);

double move_progress (SlGraphView *self);

SlLayoutPos node_pos (SlGraphView *self,
                      guint        host,
                      double       t);

void to_screen (SlGraphView *self,
                SlLayoutPos  p,
                double      *x,
                double      *y);

double node_radius (SlGraphView *self);

gboolean is_group_reference (SlGraphView *self,
                             guint        host);

gboolean is_unsynchronized (SlGraphView *self,
                            guint        h);

gboolean is_pinned (SlGraphView *self,
                    guint        h);

char *host_label_text (SlGraphView *self,
                       guint        h);

/* sl-graph-view-draw.c */

guint64 drawn_key (SlGraphView *self);

void draw_back (SlGraphView     *self,
                cairo_t         *cr,
                const DrawState *ds);

void draw_other_edges (SlGraphView     *self,
                       cairo_t         *cr,
                       SlLineRaster    *raster,
                       double           scale,
                       const DrawState *ds);

void draw_front (SlGraphView     *self,
                 cairo_t         *cr,
                 SlLineRaster    *raster,
                 double           scale,
                 int              width,
                 int              height,
                 const DrawState *ds);

void draw_screen (SlGraphView     *self,
                  cairo_surface_t *surface,
                  int              width,
                  int              height,
                  int              scale);

void draw_state_init (SlGraphView *self,
                      DrawState   *ds,
                      gboolean     for_export);

/* sl-graph-view-labels.c */

void cell_free (gpointer data);

void place_labels (SlGraphView     *self,
                   int              width,
                   int              height,
                   const DrawState *ds);

G_END_DECLS
