/* sl-ground.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK 4.8 draws the whole window in every frame on X11 without buffer age
 * (Xvfb, VMs: see sl-solid-frame.c), the window's background first. Most
 * of it lies under the graph and the tables, which paint an opaque
 * background of their own over it: under Mesa's software rasteriser the
 * hidden 1.1 Mpx cost ~1.5 ms of processor time a frame, in every view.
 * Here the window's background is drawn only where no opaque fill drawn
 * after it covers it. An opaque fill sets its pixels to its colour
 * whatever lay under it, so only pixels it fully covers are left out (its
 * bounds and clips rounded inwards to whole pixels), and only fills that
 * nothing but containers, clips and translations separates from the
 * window: every pixel stays the same (/ui/window/ground).
 */

#include "config.h"

#include "sl-ground.h"

/* smaller fills are not worth a piece more of the background */
#define MIN_COVER_AREA 4096

typedef struct
{
  GskRenderNode         *ground;
  graphene_point_t       ground_offset;
  double                 min_ground_area;
  cairo_region_t        *cover;
} Cull;

static gboolean
whole_rect (const graphene_rect_t *r,
            cairo_rectangle_int_t *out)
{
  double x0 = ceil (r->origin.x), y0 = ceil (r->origin.y);
  double x1 = floor (r->origin.x + r->size.width), y1 = floor (r->origin.y + r->size.height);

  if (x1 <= x0 || y1 <= y0 || x0 < G_MININT / 2 || y0 < G_MININT / 2 || x1 > G_MAXINT / 2 || y1 > G_MAXINT / 2)
    return FALSE;
  *out = (cairo_rectangle_int_t) { (int) x0, (int) y0, (int) (x1 - x0), (int) (y1 - y0) };
  return TRUE;
}

/* Finds the ground (the first opaque fill, large enough), then every
 * opaque fill after it, in the window's coordinates. */
static void
walk (GskRenderNode         *node,
      const graphene_point_t *offset,
      const graphene_rect_t *clip,
      Cull                  *cull)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        walk (gsk_container_node_get_child (node, i), offset, clip, cull);
      break;
    case GSK_DEBUG_NODE:
      walk (gsk_debug_node_get_child (node), offset, clip, cull);
      break;
    case GSK_TRANSFORM_NODE:
      {
        GskTransform *transform = gsk_transform_node_get_transform (node);
        float dx, dy;

        if (gsk_transform_get_category (transform) < GSK_TRANSFORM_CATEGORY_2D_TRANSLATE)
          break;
        gsk_transform_to_translate (transform, &dx, &dy);
        walk (gsk_transform_node_get_child (node), &GRAPHENE_POINT_INIT (offset->x + dx, offset->y + dy), clip, cull);
        break;
      }
    case GSK_CLIP_NODE:
      {
        graphene_rect_t inner;

        graphene_rect_offset_r (gsk_clip_node_get_clip (node), offset->x, offset->y, &inner);
        if (graphene_rect_intersection (&inner, clip, &inner))
          walk (gsk_clip_node_get_child (node), offset, &inner, cull);
        break;
      }
    case GSK_COLOR_NODE:
      {
        graphene_rect_t bounds;
        cairo_rectangle_int_t r;

        if (gsk_color_node_get_color (node)->alpha < 1.0f)
          break;
        gsk_render_node_get_bounds (node, &bounds);
        if (cull->ground == NULL)
          {
            if (bounds.size.width * bounds.size.height >= cull->min_ground_area)
              {
                cull->ground = node;
                cull->ground_offset = *offset;
              }
          }
        else
          {
            graphene_rect_offset (&bounds, offset->x, offset->y);
            if (graphene_rect_intersection (&bounds, clip, &bounds) && whole_rect (&bounds, &r) &&
                (double) r.width * r.height >= MIN_COVER_AREA)
              cairo_region_union_rectangle (cull->cover, &r);
          }
        break;
      }
    default:
      break;
    }
}

/* @node with @ground replaced by @pieces, along the path walk() takes */
static GskRenderNode *
replace (GskRenderNode *node,
         GskRenderNode *ground,
         GskRenderNode *pieces)
{
  GskRenderNode *child, *result;

  if (node == ground)
    return gsk_render_node_ref (pieces);
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      {
        guint n = gsk_container_node_get_n_children (node);
        g_autoptr(GPtrArray) children = g_ptr_array_new_full (n, (GDestroyNotify) gsk_render_node_unref);
        gboolean changed = FALSE;

        for (guint i = 0; i < n; i++)
          {
            GskRenderNode *old = gsk_container_node_get_child (node, i);

            child = replace (old, ground, pieces);
            changed |= child != old;
            g_ptr_array_add (children, child);
          }
        if (!changed)
          return gsk_render_node_ref (node);
        return gsk_container_node_new ((GskRenderNode **) children->pdata, n);
      }
    case GSK_DEBUG_NODE:
      child = replace (gsk_debug_node_get_child (node), ground, pieces);
      if (child == gsk_debug_node_get_child (node))
        result = gsk_render_node_ref (node);
      else
        result = gsk_debug_node_new (child, g_strdup (gsk_debug_node_get_message (node)));
      break;
    case GSK_TRANSFORM_NODE:
      child = replace (gsk_transform_node_get_child (node), ground, pieces);
      if (child == gsk_transform_node_get_child (node))
        result = gsk_render_node_ref (node);
      else
        result = gsk_transform_node_new (child, gsk_transform_node_get_transform (node));
      break;
    case GSK_CLIP_NODE:
      child = replace (gsk_clip_node_get_child (node), ground, pieces);
      if (child == gsk_clip_node_get_child (node))
        result = gsk_render_node_ref (node);
      else
        result = gsk_clip_node_new (child, gsk_clip_node_get_clip (node));
      break;
    default:
      return gsk_render_node_ref (node);
    }
  gsk_render_node_unref (child);
  return result;
}

GskRenderNode *
sl_ground_cull (GskRenderNode *node,
                double         min_ground_area)
{
  Cull cull = { .min_ground_area = min_ground_area };
  graphene_rect_t bounds, all;
  cairo_rectangle_int_t ground_rect;
  cairo_region_t *shown;
  GskRenderNode *pieces, *result;
  GPtrArray *children;

  g_return_val_if_fail (GSK_IS_RENDER_NODE (node), NULL);

  gsk_render_node_get_bounds (node, &all);
  cull.cover = cairo_region_create ();
  walk (node, graphene_point_zero (), &all, &cull);
  if (cull.ground == NULL || cairo_region_is_empty (cull.cover))
    {
      cairo_region_destroy (cull.cover);
      return gsk_render_node_ref (node);
    }
  /* the ground's own pixels, in the window's coordinates */
  gsk_render_node_get_bounds (cull.ground, &bounds);
  if (!whole_rect (&bounds, &ground_rect) || ground_rect.x != bounds.origin.x || ground_rect.y != bounds.origin.y ||
      ground_rect.width != bounds.size.width || ground_rect.height != bounds.size.height ||
      cull.ground_offset.x != floorf (cull.ground_offset.x) || cull.ground_offset.y != floorf (cull.ground_offset.y))
    {
      cairo_region_destroy (cull.cover);
      return gsk_render_node_ref (node);
    }
  ground_rect.x += (int) cull.ground_offset.x;
  ground_rect.y += (int) cull.ground_offset.y;
  shown = cairo_region_create_rectangle (&ground_rect);
  cairo_region_subtract (shown, cull.cover);
  cairo_region_destroy (cull.cover);

  children = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  for (int i = 0; i < cairo_region_num_rectangles (shown); i++)
    {
      cairo_rectangle_int_t r;

      cairo_region_get_rectangle (shown, i, &r);
      g_ptr_array_add (children, gsk_color_node_new (gsk_color_node_get_color (cull.ground),
                                                     &GRAPHENE_RECT_INIT (r.x - cull.ground_offset.x,
                                                                          r.y - cull.ground_offset.y,
                                                                          r.width, r.height)));
    }
  cairo_region_destroy (shown);
  pieces = gsk_container_node_new ((GskRenderNode **) children->pdata, children->len);
  g_ptr_array_unref (children);
  result = replace (node, cull.ground, pieces);
  gsk_render_node_unref (pieces);
  return result;
}
