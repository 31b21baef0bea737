/* sl-graph-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <cairo-svg.h>
#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-graph-layout.h"
#include "sl-graph-view-private.h"
#include "sl-canvas.h"
#include "sl-cpu-time.h"
#include "sl-line-raster.h"
#include "sl-plot.h"


enum {
  PROP_0,
  PROP_SESSION,
  PROP_ZOOM,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SlGraphView, sl_graph_view, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/* Colours */

Rgb
rgb_from_hex (guint32 hex)
{
  return (Rgb) { ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0 };
}

void
set_rgb (cairo_t *cr,
         Rgb      c,
         double   alpha)
{
  cairo_set_source_rgba (cr, c.r, c.g, c.b, alpha);
}

/* green (≤ 10 µs) → yellow (100 µs) → orange (1 ms) → red (≥ 10 ms) */
Rgb
bound_color (double t)
{
  static const guint32 stops[] = { 0x2ec27e, 0xc0bf1b, 0xe66100, 0xc01c28 };
  double x = CLAMP (t, 0, 1) * 3;
  guint i = MIN ((guint) x, 2);
  double f = x - i;
  Rgb a = rgb_from_hex (stops[i]), b = rgb_from_hex (stops[i + 1]);

  return (Rgb) { a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f };
}

/* Where a link's bound (what the tables show, the error the estimate
 * can have over the link's data) falls on the colour scale. A link's rate
 * band in ppm says little by itself: ±90 µs over 0.27 s is 670 ppm. */
double
bound_t (double bound_ns)
{
  if (isnan (bound_ns) || bound_ns == INFINITY)
    return 1;
  if (bound_ns <= 0)
    return 0;
  return CLAMP ((log10 (bound_ns) - BOUND_LOG_MIN) / (BOUND_LOG_MAX - BOUND_LOG_MIN), 0, 1);
}

/* Geometry */

static double
ease (double t)
{
  t = CLAMP (t, 0, 1);
  return 1 - pow (1 - t, 3);
}

double
move_progress (SlGraphView *self)
{
  if (self->move_start == 0)
    return 1;
  return ease ((double) (g_get_monotonic_time () - self->move_start) / (MOVE_MS * 1000.0));
}

SlLayoutPos
node_pos (SlGraphView *self,
          guint        host,
          double       t)
{
  const Node *n = &g_array_index (self->nodes, Node, host);

  return (SlLayoutPos) { n->from.x + (n->to.x - n->from.x) * t, n->from.y + (n->to.y - n->from.y) * t };
}

void
to_screen (SlGraphView *self,
           SlLayoutPos  p,
           double      *x,
           double      *y)
{
  *x = p.x * UNIT_PX * self->zoom + self->pan_x;
  *y = p.y * UNIT_PX * self->zoom + self->pan_y;
}

double
node_radius (SlGraphView *self)
{
  return CLAMP (NODE_RADIUS * sqrt (self->zoom), 2.5, 12);
}

static void
fit (SlGraphView *self,
     int          width,
     int          height)
{
  double w = MAX (self->layout_w, 1), h = MAX (self->layout_h, 1);
  double margin = 24;
  /* keep clear of the legend in the bottom-left corner */
  double bottom = height > 360 ? 116 : margin;
  double zx, zy, zoom;

  if (width <= 0 || height <= 0)
    return;
  zx = (width - 2 * margin) / (w * UNIT_PX);
  zy = (height - margin - bottom) / (h * UNIT_PX);
  zoom = CLAMP (MIN (zx, zy), MIN_ZOOM, 1.6);
  self->pan_x = (width - w * UNIT_PX * zoom) / 2;
  self->pan_y = margin + (height - margin - bottom - h * UNIT_PX * zoom) / 2;
  if (self->zoom != zoom)
    {
      self->zoom = zoom;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
}

static void
zoom_at (SlGraphView *self,
         double       factor,
         double       cx,
         double       cy)
{
  double zoom = CLAMP (self->zoom * factor, MIN_ZOOM, MAX_ZOOM);

  if (zoom == self->zoom)
    return;
  self->pan_x = cx - (cx - self->pan_x) * zoom / self->zoom;
  self->pan_y = cy - (cy - self->pan_y) * zoom / self->zoom;
  self->zoom = zoom;
  self->auto_fit = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Model */

/* Links glowing at @now for having joined the tree. */
static guint
count_glowing (SlGraphView *self,
               guint        n_edges,
               gint64       now)
{
  guint n = 0;

  for (guint l = 0; l < n_edges; l++)
    {
      const Edge *e = &g_array_index (self->edges, Edge, l);

      n += e->flash_start != 0 && now - e->flash_start < FLASH_MS * 1000;
    }
  return n;
}

/* While a session is read, its updates and the animations they start
 * redraw the graph at a pace bounded by what a drawing costs: at most one
 * every PACE_SHARE times the last one's time (its processor time, or its
 * wall time on a machine that gives the main thread less), so that the
 * graph takes about 1/PACE_SHARE of the main thread (a thousand hosts
 * drawn at every update and animation frame were most of the main
 * thread's time reading them, and on two processors the read's). What the
 * user does (zoom, pan, select) and the end of reading draw at once. */
#define PACE_SHARE 10
/* and no more drawings a second than one sees change while reading: a
 * cheap drawing (the rings laid from masks) would otherwise only come
 * more often, for the same share of the main thread */
#define READING_FPS 12
/* An update that changes nothing else drawn (drawn_key()) still changes
 * which hosts are the busiest, whose names are placed first: drawn at
 * most once a second while reading, not as a change is. */
#define NAMES_INTERVAL_US G_USEC_PER_SEC

static gboolean
reading (SlGraphView *self)
{
  return self->session != NULL && sl_session_get_state (self->session) == SL_SESSION_STATE_LOADING;
}

static gboolean
pace_cb (gpointer data)
{
  SlGraphView *self = data;

  self->pace_id = 0;
  self->draw_paced = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return G_SOURCE_REMOVE;
}

/* @later: by a timeout even when the pace would allow a drawing now (the
 * widget is being drawn); @interval_us: the least time from the last
 * drawing's start while reading */
static void
queue_draw_paced_full (SlGraphView *self,
                       gboolean     later,
                       gint64       interval_us)
{
  gint64 now, next;

  now = g_get_monotonic_time ();
  next = self->draw_end + (PACE_SHARE - 1) * MAX (self->draw_cost_us, self->pace_floor_us);
  next = MAX (next, self->draw_start + interval_us);
  /* one drawing asked for by a timeout at a time, the soonest */
  if (self->pace_id != 0 && self->pace_due <= next && reading (self))
    return;
  g_clear_handle_id (&self->pace_id, g_source_remove);
  if (!reading (self) || (now >= next && !later))
    {
      self->draw_paced = TRUE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  self->pace_due = next;
  self->pace_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) MAX ((next - now + 999) / 1000, 1), pace_cb, self,
                                      NULL);
}

static void
queue_draw_paced (SlGraphView *self)
{
  queue_draw_paced_full (self, FALSE, G_USEC_PER_SEC / READING_FPS);
}

/* Whether a move or a glow still runs at @now; a finished move settles. */
static gboolean
animation_step (SlGraphView *self,
                gint64       now)
{
  gboolean busy = self->move_start != 0 && now - self->move_start < MOVE_MS * 1000;

  if (self->move_start != 0 && !busy)
    {
      for (guint h = 0; h < self->nodes->len; h++)
        {
          Node *n = &g_array_index (self->nodes, Node, h);
          n->from = n->to;
        }
      self->move_start = 0;
    }
  if (self->flash_ref_start != 0 && now - self->flash_ref_start < FLASH_MS * 1000)
    busy = TRUE;
  if (!busy && count_glowing (self, self->edges->len, now) > 0)
    busy = TRUE;
  if (!busy)
    self->flash_ref_start = 0;
  return busy;
}

/* While a session is read its drawings are paced (queue_draw_paced()):
 * the frame clock's ticks, 60 a second, would only wake the main thread
 * to ask for a drawing the pacing puts off; the paced drawings step the
 * animation instead (paced_animation_step()). */
static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  SlGraphView *self = SL_GRAPH_VIEW (widget);
  gboolean busy = animation_step (self, g_get_monotonic_time ());

  self->n_ticks_loading += reading (self);
  queue_draw_paced (self);
  if (busy && reading (self))
    self->animating_paced = TRUE;
  if (!busy || self->animating_paced)
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
start_animation (SlGraphView *self)
{
  if (reading (self))
    {
      if (self->tick_id == 0)
        self->animating_paced = TRUE;
      queue_draw_paced (self);
    }
  else if (self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), tick_cb, NULL, NULL);
}

/* After a drawing: the next one of a running animation, paced while the
 * session is read, by the frame clock once it is read. */
static void
paced_animation_step (SlGraphView *self)
{
  if (!self->animating_paced)
    return;
  if (!animation_step (self, g_get_monotonic_time ()))
    self->animating_paced = FALSE;
  else if (reading (self))
    queue_draw_paced_full (self, TRUE, G_USEC_PER_SEC / READING_FPS);
  else
    {
      self->animating_paced = FALSE;
      start_animation (self);
    }
}

static void
relayout (SlGraphView *self,
          gboolean     animate)
{
  guint n = self->nodes->len;
  g_autofree guint *parent = g_new (guint, MAX (n, 1));
  g_autofree guint *reference = g_new (guint, MAX (n, 1));
  g_autofree SlLayoutPos *pos = g_new0 (SlLayoutPos, MAX (n, 1));
  double t = move_progress (self);
  gboolean moved = FALSE;

  for (guint h = 0; h < n; h++)
    {
      SlHostItem *item = sl_session_get_host_item (self->session, h);
      const SlSnapHost *info = sl_host_item_get_info (item);

      parent[h] = info->parent;
      reference[h] = info->reference;
      /* a host placed on a group's clock as a best effort is in no tree:
       * drawn beside the group's reference instead of under it; a host on
       * no one's clock is alone */
      if (!info->synchronized && info->best_effort && info->reference != h)
        parent[h] = info->reference;
      else if (!info->synchronized)
        {
          parent[h] = SL_HOST_NONE;
          reference[h] = h;
        }
    }
  sl_graph_layout_compute (n, parent, reference, pos, &self->layout_w, &self->layout_h);
  /* the unreadable hosts, in rows below the others */
  {
    guint n_bad = sl_session_get_n_unreadable (self->session);
    guint per_row = MAX ((guint) (MAX (self->layout_w, 6.0) / 1.5), 1);

    g_array_set_size (self->unreadable, n_bad);
    for (guint i = 0; i < n_bad; i++)
      {
        Node *node = &g_array_index (self->unreadable, Node, i);

        node->to.x = 0.75 + 1.5 * (i % per_row);
        node->to.y = self->layout_h + 0.8 + 1.2 * (i / per_row);
        node->from = node->to;
      }
    if (n_bad > 0)
      {
        self->layout_w = MAX (self->layout_w, 1.5 * MIN (n_bad, per_row));
        self->layout_h += 0.8 + 1.2 * ((n_bad + per_row - 1) / per_row);
      }
  }

  for (guint h = 0; h < n; h++)
    {
      Node *node = &g_array_index (self->nodes, Node, h);

      node->from = animate ? node_pos (self, h, t) : pos[h];
      node->to = pos[h];
      moved |= node->from.x != node->to.x || node->from.y != node->to.y;
    }
  /* a host's news that moves nothing (while hosts are read, every update)
   * animates nothing: 600 ms of frames at the screen's rate for each was
   * most of the main thread's time opening a thousand hosts */
  if (animate && moved && gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->move_start = g_get_monotonic_time ();
      start_animation (self);
    }
  else
    self->move_start = 0;

  if (self->auto_fit)
    fit (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)));
}

static void
sync_edges (SlGraphView *self,
            gboolean     flash)
{
  guint n_links = sl_session_get_n_links (self->session);
  guint old = self->edges->len;
  gint64 now = g_get_monotonic_time ();
  guint joined = 0, glowing = count_glowing (self, old, now);

  g_array_set_size (self->edges, n_links);
  for (guint l = 0; l < n_links; l++)
    {
      SlLinkItem *item = sl_session_get_link_item (self->session, l);
      Edge *e = &g_array_index (self->edges, Edge, l);
      gboolean was_in_tree = l < old && e->in_tree;

      if (l >= old)
        e->flash_start = e->left_tree = 0;
      e->link = l;
      e->a = sl_link_item_get_a (item);
      e->b = sl_link_item_get_b (item);
      e->quality = sl_link_item_get_quality (item);
      e->in_tree = sl_link_item_get_in_tree (item);
      e->bound_ns = sl_link_item_get_info (item)->info.bound_ns;
      if (was_in_tree && !e->in_tree)
        {
          /* its glow ends with it */
          e->left_tree = now;
          e->flash_start = 0;
        }
      else if (flash && e->in_tree && !was_in_tree && !(e->left_tree != 0 && now - e->left_tree < self->undo_us))
        {
          e->flash_start = now;
          joined++;
        }
    }
  /* A few links joining the tree is news and glows; many (at once or
   * within FLASH_MS) is the tree being built while a session streams in:
   * glowing them all says nothing, and 200 wide glowing lines redrawn
   * every frame kept the main thread busy for tens of ms a frame. */
  if (glowing + joined > MAX_FLASHES)
    for (guint l = 0; l < n_links; l++)
      if (g_array_index (self->edges, Edge, l).flash_start == now)
        g_array_index (self->edges, Edge, l).flash_start = 0;
  self->n_tree_edges = 0;
  for (guint l = 0; l < n_links; l++)
    self->n_tree_edges += g_array_index (self->edges, Edge, l).in_tree;
  if (joined > 0 && glowing + joined <= MAX_FLASHES && gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_animation (self);
}

/* The clock of a group of hosts: a host alone (while a session is read,
 * all of them) is not drawn as a reference. */
gboolean
is_group_reference (SlGraphView *self,
                    guint        host)
{
  return sl_host_item_get_state (sl_session_get_host_item (self->session, host)) == SL_HOST_STATE_REFERENCE;
}

/* The host the user pinned as its group's reference (the pin is per
 * input: sl-window.c). */
gboolean
is_pinned (SlGraphView *self,
           guint        h)
{
  const char *pinned = sl_session_get_pinned_reference (self->session);

  return pinned != NULL && pinned[0] != '\0' &&
         g_str_equal (sl_host_item_get_name (sl_session_get_host_item (self->session, h)), pinned);
}

/* A host that was read but is on no one's clock (no accurate path to
 * another host; placed, if at all, as a best effort): drawn hollow and
 * grey, its name saying so. */
gboolean
is_unsynchronized (SlGraphView *self,
                   guint        h)
{
  return sl_host_item_get_unsynchronized (sl_session_get_host_item (self->session, h));
}

/* The name drawn by a host, with its state when it is not synchronized. */
char *
host_label_text (SlGraphView *self,
                 guint        h)
{
  return sl_host_item_dup_label (sl_session_get_host_item (self->session, h));
}

static void
sync_references (SlGraphView *self,
                 gboolean     flash)
{
  g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint8 *was = g_new0 (guint8, self->nodes->len + 1);
  g_autofree guint8 *is = g_new0 (guint8, self->nodes->len + 1);
  gint64 now = g_get_monotonic_time ();

  for (guint h = 0; h < self->nodes->len; h++)
    if (is_group_reference (self, h))
      {
        g_array_append_val (refs, h);
        is[h] = 1;
      }
  /* (marks, not a search of one list in the other: early in a read every
   * one of a thousand hosts is its group's reference) */
  for (guint k = 0; k < self->refs->len; k++)
    {
      guint o = g_array_index (self->refs, guint, k);

      if (o < self->nodes->len)
        was[o] = 1;
    }

  /* the references that stopped being one: when (their pulse ends) */
  for (guint k = 0; k < self->refs->len; k++)
    {
      guint o = g_array_index (self->refs, guint, k);

      if (o < self->nodes->len && !is[o])
        {
          g_array_index (self->nodes, Node, o).ref_left = now;
          if (self->flash_ref == o)
            self->flash_ref_start = 0;
        }
    }
  if (flash)
    for (guint i = 0; i < refs->len; i++)
      {
        guint r = g_array_index (refs, guint, i);
        gint64 left = g_array_index (self->nodes, Node, r).ref_left;

        /* a reference that moved, not a lone host that is its own, nor
         * one that moves back (undone) */
        if (!was[r] && self->refs->len > 0 && self->edges->len > 0 && !(left != 0 && now - left < self->undo_us))
          {
            self->flash_ref = r;
            self->flash_ref_start = now;
            if (gtk_widget_get_mapped (GTK_WIDGET (self)))
              start_animation (self);
          }
      }
  g_array_set_size (self->refs, 0);
  g_array_append_vals (self->refs, refs->data, refs->len);
}

static void
session_updated_cb (SlGraphView      *self,
                    SlSessionChanges  changes,
                    SlSession        *session)
{
  guint n_hosts = sl_session_get_n_hosts (session);
  gboolean had_nodes = self->nodes->len > 0;
  guint64 key;

  if (changes & SL_SESSION_CHANGE_RESET)
    {
      g_array_set_size (self->nodes, 0);
      g_array_set_size (self->unreadable, 0);
      g_array_set_size (self->edges, 0);
      g_array_set_size (self->refs, 0);
      self->move_start = 0;
      self->auto_fit = TRUE;
      self->layout_w = self->layout_h = 0;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }

  if (n_hosts != self->nodes->len)
    {
      guint old = self->nodes->len;

      g_array_set_size (self->nodes, n_hosts);
      for (guint h = old; h < n_hosts; h++)
        {
          Node *n = &g_array_index (self->nodes, Node, h);
          n->from = n->to = (SlLayoutPos) { 0, 0 };
          n->flash = 0;
          n->ref_left = 0;
        }
    }
  sync_edges (self, had_nodes);
  sync_references (self, had_nodes);
  if (changes & (SL_SESSION_CHANGE_HOSTS | SL_SESSION_CHANGE_TREE) || self->layout_w == 0 ||
      self->unreadable->len != sl_session_get_n_unreadable (session))
    {
      relayout (self, had_nodes);
      if (!had_nodes && n_hosts > 0)
        sl_profile_mark ("graph", "first layout, %u hosts", self->nodes->len);
    }
  key = drawn_key (self);
  if (reading (self))
    {
      self->n_updates_loading++;
      if (key == self->drawn_key)
        {
          /* a graph drawn again as it was: only the names' order may differ */
          self->n_unseen_loading++;
          queue_draw_paced_full (self, FALSE, NAMES_INTERVAL_US);
          return;
        }
    }
  self->drawn_key = key;
  queue_draw_paced (self);
}

static void
selection_changed_cb (SlGraphView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Hit testing */

static guint
host_at (SlGraphView *self,
         double       x,
         double       y)
{
  double t = move_progress (self);
  double best = G_MAXDOUBLE, r = node_radius (self) + 4;
  guint found = SL_HOST_NONE;

  for (guint h = 0; h < self->nodes->len; h++)
    {
      double hx, hy, d;

      to_screen (self, node_pos (self, h, t), &hx, &hy);
      d = hypot (hx - x, hy - y);
      if (d <= r && d < best)
        {
          best = d;
          found = h;
        }
    }
  return found;
}

static SlHostItem *
unreadable_at (SlGraphView *self,
               double       x,
               double       y)
{
  double r = node_radius (self) + 4;

  for (guint i = 0; i < self->unreadable->len; i++)
    {
      double hx, hy;

      to_screen (self, g_array_index (self->unreadable, Node, i).to, &hx, &hy);
      if (hypot (hx - x, hy - y) <= r)
        return sl_session_get_unreadable (self->session, i);
    }
  return NULL;
}

static double
segment_distance (double px, double py,
                  double ax, double ay,
                  double bx, double by)
{
  double dx = bx - ax, dy = by - ay;
  double len2 = dx * dx + dy * dy;
  double u = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;

  u = CLAMP (u, 0, 1);
  return hypot (px - (ax + u * dx), py - (ay + u * dy));
}

static guint
edge_at (SlGraphView *self,
         double       x,
         double       y)
{
  double t = move_progress (self);
  double best = 6;
  guint found = G_MAXUINT;

  for (guint e = 0; e < self->edges->len; e++)
    {
      const Edge *edge = &g_array_index (self->edges, Edge, e);
      double ax, ay, bx, by, d;

      if (edge->a >= self->nodes->len || edge->b >= self->nodes->len)
        continue;
      to_screen (self, node_pos (self, edge->a, t), &ax, &ay);
      to_screen (self, node_pos (self, edge->b, t), &bx, &by);
      d = segment_distance (x, y, ax, ay, bx, by);
      if (d < best)
        {
          best = d;
          found = e;
        }
    }
  return found;
}

/* Widget */

/* One picture (see sl-canvas.h), drawn by draw_screen(). */
static void
sl_graph_view_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  SlGraphView *self = SL_GRAPH_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  cairo_surface_t *surface;
  gint64 cpu, start;

  if (width <= 0 || height <= 0 || self->session == NULL ||
      (self->nodes->len == 0 && self->unreadable->len == 0))
    return;
  cpu = sl_thread_cpu_us ();
  start = g_get_monotonic_time ();
  surface = sl_canvas_begin (self->canvas, width, height, scale);
  draw_screen (self, surface, width, height, scale);
  sl_canvas_end (self->canvas, snapshot);
  /* what was asked for is drawn */
  g_clear_handle_id (&self->pace_id, g_source_remove);
  self->draw_start = start;
  self->draw_end = g_get_monotonic_time ();
  self->draw_cost_us = MAX (MAX (sl_thread_cpu_us () - cpu, self->draw_end - start), 0);
  self->n_draws++;
  if (sl_session_get_state (self->session) == SL_SESSION_STATE_LOADING)
    {
      self->n_draws_loading++;
      self->n_paced_loading += self->draw_paced;
    }
  self->draw_paced = FALSE;
  paced_animation_step (self);
  if (self->n_draws == 1)
    sl_profile_mark ("graph", "first drawing, %u hosts (%.1f ms)", self->nodes->len, self->draw_cost_us / 1000.0);
}

static void
sl_graph_view_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  SlGraphView *self = SL_GRAPH_VIEW (widget);

  if (self->auto_fit)
    fit (self, width, height);
  gtk_popover_present (GTK_POPOVER (self->context_menu));
}

static void
sl_graph_view_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  *minimum = 120;
  *natural = 480;
}

static gboolean
query_tooltip_cb (SlGraphView *self,
                  int          x,
                  int          y,
                  gboolean     keyboard,
                  GtkTooltip  *tooltip)
{
  guint h, e;
  g_autofree char *text = NULL;
  SlHostItem *bad;

  if (self->session == NULL || keyboard)
    return FALSE;
  if ((bad = unreadable_at (self, x, y)) != NULL)
    text = sl_host_item_dup_summary (bad);
  else if (!sl_graph_view_pick (self, x, y, &h, &e))
    return FALSE;
  else if (h != SL_HOST_NONE)
    text = sl_host_item_dup_summary (sl_session_get_host_item (self->session, h));
  else
    text = sl_link_item_dup_summary (sl_session_get_link_item (self->session, e));
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
click_pressed_cb (SlGraphView     *self,
                  int              n_press,
                  double           x,
                  double           y,
                  GtkGestureClick *gesture)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  guint h, e;

  if (self->session == NULL)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  h = host_at (self, x, y);

  if (button == GDK_BUTTON_SECONDARY)
    {
      /* the menu is about the host right-clicked last, if any */
      self->menu_host = h;
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.pin-menu-host", h != SL_HOST_NONE);
      if (h == SL_HOST_NONE)
        return;
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.pin-menu-host", TRUE);
      gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                                   &(GdkRectangle) { (int) x, (int) y, 1, 1 });
      gtk_popover_popup (GTK_POPOVER (self->context_menu));
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      return;
    }
  if (button != GDK_BUTTON_PRIMARY)
    return;
  if (unreadable_at (self, x, y) != NULL)
    {
      sl_session_set_selected_host (self->session, unreadable_at (self, x, y));
      return;
    }
  if (!sl_graph_view_pick (self, x, y, &h, &e))
    {
      if (n_press == 2)
        gtk_widget_activate_action (GTK_WIDGET (self), "graph.zoom-fit", NULL);
      return;
    }
  if (h != SL_HOST_NONE)
    sl_session_set_selected_host (self->session, sl_session_get_host_item (self->session, h));
  else
    sl_session_set_selected_link (self->session, sl_session_get_link_item (self->session, e));
}

static void
drag_begin_cb (SlGraphView    *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  self->drag_pan_x = self->pan_x;
  self->drag_pan_y = self->pan_y;
  self->dragging = FALSE;
}

static void
drag_update_cb (SlGraphView    *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  if (!self->dragging && hypot (dx, dy) < 4)
    return;
  self->dragging = TRUE;
  self->auto_fit = FALSE;
  self->pan_x = self->drag_pan_x + dx;
  self->pan_y = self->drag_pan_y + dy;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
scroll_cb (SlGraphView              *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  zoom_at (self, pow (1.15, -dy), self->pointer_x, self->pointer_y);
  return TRUE;
}

static void
motion_cb (SlGraphView              *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

static void
zoom_begin_cb (SlGraphView      *self,
               GdkEventSequence *sequence,
               GtkGestureZoom   *gesture)
{
  self->pinch_zoom = self->zoom;
}

static void
zoom_scale_changed_cb (SlGraphView    *self,
                       double          scale,
                       GtkGestureZoom *gesture)
{
  double cx, cy;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    {
      cx = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
      cy = gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;
    }
  zoom_at (self, self->pinch_zoom * scale / self->zoom, cx, cy);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SlGraphView *self = SL_GRAPH_VIEW (widget);
  double cx = gtk_widget_get_width (widget) / 2.0, cy = gtk_widget_get_height (widget) / 2.0;

  if (g_str_equal (action_name, "graph.zoom-in"))
    zoom_at (self, 1.25, cx, cy);
  else if (g_str_equal (action_name, "graph.zoom-out"))
    zoom_at (self, 0.8, cx, cy);
  else
    {
      self->auto_fit = TRUE;
      fit (self, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
      gtk_widget_queue_draw (widget);
    }
}

static void
pin_reference_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SlGraphView *self = SL_GRAPH_VIEW (widget);

  if (self->session == NULL)
    return;
  if (g_str_equal (action_name, "graph.unpin-reference"))
    sl_session_set_pinned_reference (self->session, "");
  else if (g_str_equal (action_name, "graph.pin-menu-host"))
    {
      SlHostItem *item = sl_session_get_host_item (self->session, self->menu_host);

      if (item != NULL)
        sl_session_set_pinned_reference (self->session, sl_host_item_get_name (item));
    }
  else
    sl_session_set_pinned_reference (self->session, g_variant_get_string (param, NULL));
}

static void
sl_graph_view_dispose (GObject *object)
{
  SlGraphView *self = (SlGraphView *) object;

  sl_graph_view_set_session (self, NULL);
  g_clear_handle_id (&self->pace_id, g_source_remove);
  if (self->context_menu != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->context_menu));
      self->context_menu = NULL;
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_GRAPH_VIEW);

  G_OBJECT_CLASS (sl_graph_view_parent_class)->dispose (object);
}

static void
sl_graph_view_finalize (GObject *object)
{
  SlGraphView *self = (SlGraphView *) object;

  g_array_unref (self->nodes);
  g_array_unref (self->unreadable);
  g_array_unref (self->labels);
  g_array_unref (self->obstacles);
  g_ptr_array_unref (self->label_cells);
  g_clear_pointer (&self->measure, cairo_destroy);
  g_array_unref (self->edges);
  g_array_unref (self->refs);
  sl_canvas_free (self->canvas);
  g_clear_pointer (&self->sprite, cairo_surface_destroy);
  g_clear_pointer (&self->ring_masks, g_array_unref);
  for (guint i = 0; i < G_N_ELEMENTS (self->mark_sprites); i++)
    g_clear_pointer (&self->mark_sprites[i], cairo_surface_destroy);

  G_OBJECT_CLASS (sl_graph_view_parent_class)->finalize (object);
}

static void
sl_graph_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SlGraphView *self = SL_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_graph_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  SlGraphView *self = SL_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      sl_graph_view_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_graph_view_class_init (SlGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_graph_view_dispose;
  object_class->finalize = sl_graph_view_finalize;
  object_class->get_property = sl_graph_view_get_property;
  object_class->set_property = sl_graph_view_set_property;

  widget_class->snapshot = sl_graph_view_snapshot;
  widget_class->size_allocate = sl_graph_view_size_allocate;
  widget_class->measure = sl_graph_view_measure;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, SL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, MIN_ZOOM, MAX_ZOOM, 1,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/syncline/Syncline/ui/sl-graph-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SlGraphView, context_menu);
  gtk_widget_class_bind_template_child (widget_class, SlGraphView, host_menu);
  gtk_widget_class_bind_template_callback (widget_class, query_tooltip_cb);
  gtk_widget_class_bind_template_callback (widget_class, click_pressed_cb);
  gtk_widget_class_bind_template_callback (widget_class, drag_begin_cb);
  gtk_widget_class_bind_template_callback (widget_class, drag_update_cb);
  gtk_widget_class_bind_template_callback (widget_class, scroll_cb);
  gtk_widget_class_bind_template_callback (widget_class, motion_cb);
  gtk_widget_class_bind_template_callback (widget_class, zoom_begin_cb);
  gtk_widget_class_bind_template_callback (widget_class, zoom_scale_changed_cb);

  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.pin-reference", "s", pin_reference_action);
  gtk_widget_class_install_action (widget_class, "graph.pin-menu-host", NULL, pin_reference_action);
  gtk_widget_class_install_action (widget_class, "graph.unpin-reference", NULL, pin_reference_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "graph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "graph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "graph.zoom-fit", NULL);

  gtk_widget_class_set_css_name (widget_class, "graphview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ring_mask_clear (gpointer data)
{
  g_clear_pointer (&((RingMask *) data)->mask, cairo_surface_destroy);
}

static void
sl_graph_view_init (SlGraphView *self)
{
  self->nodes = g_array_new (FALSE, TRUE, sizeof (Node));
  self->unreadable = g_array_new (FALSE, TRUE, sizeof (Node));
  self->labels = g_array_new (FALSE, FALSE, sizeof (SlGraphLabel));
  self->ring_masks = g_array_new (FALSE, TRUE, sizeof (RingMask));
  g_array_set_clear_func (self->ring_masks, ring_mask_clear);
  self->obstacles = g_array_new (FALSE, FALSE, sizeof (SlGraphLabel));
  self->label_cells = g_ptr_array_new_with_free_func (cell_free);
  self->edges = g_array_new (FALSE, TRUE, sizeof (Edge));
  self->refs = g_array_new (FALSE, FALSE, sizeof (guint));
  self->undo_us = UNDO_MS * 1000;
  self->canvas = sl_canvas_new ();
  self->zoom = 1;
  self->auto_fit = TRUE;
  self->menu_host = SL_HOST_NONE;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.pin-menu-host", FALSE);
}

SlSession *
sl_graph_view_get_session (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), NULL);
  return self->session;
}

void
sl_graph_view_set_session (SlGraphView *self,
                           SlSession   *session)
{
  g_return_if_fail (SL_IS_GRAPH_VIEW (self));
  g_return_if_fail (session == NULL || SL_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    {
      g_clear_signal_handler (&self->updated_id, self->session);
      g_clear_signal_handler (&self->link_id, self->session);
      g_clear_signal_handler (&self->host_id, self->session);
      g_clear_signal_handler (&self->pin_id, self->session);
      g_clear_object (&self->session);
    }
  g_array_set_size (self->nodes, 0);
  g_array_set_size (self->unreadable, 0);
  g_array_set_size (self->labels, 0);
  g_array_set_size (self->edges, 0);
  g_array_set_size (self->refs, 0);
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      self->updated_id = g_signal_connect_object (session, "updated", G_CALLBACK (session_updated_cb),
                                                  self, G_CONNECT_SWAPPED);
      self->link_id = g_signal_connect_object (session, "notify::selected-link",
                                               G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
      self->host_id = g_signal_connect_object (session, "notify::selected-host",
                                               G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
      self->pin_id = g_signal_connect_object (session, "notify::pinned-reference",
                                              G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
      if (g_list_model_get_n_items (sl_session_get_hosts (session)) > 0)
        session_updated_cb (self, SL_SESSION_CHANGE_HOSTS, session);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
sl_graph_view_get_zoom (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), 1);
  return self->zoom;
}

gboolean
sl_graph_view_get_animating (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), FALSE);
  /* a paced animation of a graph that is not drawn ends by the clock */
  if (self->animating_paced && !animation_step (self, g_get_monotonic_time ()))
    self->animating_paced = FALSE;
  return self->tick_id != 0 || self->animating_paced;
}

/* Where the host is drawn now, in widget coordinates. */
gboolean
sl_graph_view_get_host_position (SlGraphView *self,
                                 guint        host,
                                 double      *x,
                                 double      *y)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), FALSE);

  if (host >= self->nodes->len)
    return FALSE;
  to_screen (self, node_pos (self, host, move_progress (self)), x, y);
  return TRUE;
}

/* What a click at (@x, @y) selects: a host (it wins over links under it),
 * else a link within a few pixels. */
gboolean
sl_graph_view_pick (SlGraphView *self,
                    double       x,
                    double       y,
                    guint       *host,
                    guint       *link)
{
  guint h, e = G_MAXUINT;

  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), FALSE);

  h = host_at (self, x, y);
  if (h == SL_HOST_NONE)
    e = edge_at (self, x, y);
  if (host != NULL)
    *host = h;
  if (link != NULL)
    *link = e;
  return h != SL_HOST_NONE || e != G_MAXUINT;
}

guint
sl_graph_view_get_highlighted_link (SlGraphView *self)
{
  SlLinkItem *item;

  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), G_MAXUINT);

  if (self->session == NULL || (item = sl_session_get_selected_link (self->session)) == NULL)
    return G_MAXUINT;
  return sl_link_item_get_link (item) < self->edges->len ? sl_link_item_get_link (item) : G_MAXUINT;
}

guint
sl_graph_view_get_highlighted_host (SlGraphView *self)
{
  SlHostItem *item;

  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), SL_HOST_NONE);

  if (self->session == NULL || (item = sl_session_get_selected_host (self->session)) == NULL)
    return SL_HOST_NONE;
  return sl_host_item_get_host (item) < self->nodes->len ? sl_host_item_get_host (item) : SL_HOST_NONE;
}

/* The whole graph at a size that shows it all, on white. */
gboolean
sl_graph_view_export (SlGraphView  *self,
                      const char   *path,
                      const char   *format,
                      GError      **error)
{
  double zoom = self->zoom, pan_x = self->pan_x, pan_y = self->pan_y;
  double lw = MAX (self->layout_w, 1) * UNIT_PX, lh = MAX (self->layout_h, 1) * UNIT_PX;
  double scale = MIN (1.0, EXPORT_MAX_PX / MAX (lw, lh));
  int width = MAX ((int) ceil (lw * scale) + 80, 480);
  int height = MAX ((int) ceil (lh * scale) + 200, 360);
  gint64 move_start = self->move_start;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), FALSE);

  if (g_strcmp0 (format, "svg") == 0)
    surface = cairo_svg_surface_create (path, width, height);
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);

  /* draw the settled layout, fitted, without touching the view's zoom */
  self->move_start = 0;
  self->zoom = scale;
  self->pan_x = (width - lw * scale) / 2;
  self->pan_y = 40;
  cr = cairo_create (surface);
  sl_graph_view_draw (self, cr, width, height, TRUE);
  status = cairo_status (cr);
  cairo_destroy (cr);
  self->zoom = zoom;
  self->pan_x = pan_x;
  self->pan_y = pan_y;
  self->move_start = move_start;

  if (status == CAIRO_STATUS_SUCCESS && g_strcmp0 (format, "svg") != 0)
    status = cairo_surface_write_to_png (surface, path);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

guint
_sl_graph_view_count_glowing (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), 0);

  return count_glowing (self, self->edges->len, g_get_monotonic_time ());
}

/* The host whose reference pulse runs now, or SL_HOST_NONE. */
guint
_sl_graph_view_get_pulsing_reference (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), SL_HOST_NONE);

  if (self->flash_ref_start == 0 || g_get_monotonic_time () - self->flash_ref_start >= FLASH_MS * 1000)
    return SL_HOST_NONE;
  return self->flash_ref;
}

/* How long after a change its undoing is not animated (tests: longer
 * than a loaded machine may take between two updates). */
void
_sl_graph_view_set_undo_ms (SlGraphView *self,
                            guint        undo_ms)
{
  g_return_if_fail (SL_IS_GRAPH_VIEW (self));

  self->undo_us = (gint64) undo_ms * 1000;
}

guint
_sl_graph_view_get_n_draws (SlGraphView *self,
                            gboolean     while_loading)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), 0);

  return while_loading ? self->n_draws_loading : self->n_draws;
}

guint
_sl_graph_view_get_n_paced_draws (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), 0);

  return self->n_paced_loading;
}

/* The frame clock's ticks the animations took while the session was read. */
guint
_sl_graph_view_get_n_ticks_loading (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), 0);

  return self->n_ticks_loading;
}

guint
_sl_graph_view_get_n_updates_loading (SlGraphView *self,
                                      gboolean     unseen)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), 0);

  return unseen ? self->n_unseen_loading : self->n_updates_loading;
}

/* The most host items one drawing's back layer (the groups' discs) looked
 * up, per host. */
guint
_sl_graph_view_get_back_lookups_per_host (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), 0);

  return self->back_lookups_per_host;
}

/* The drawings that made cairo copy the picture first (see sl-canvas.h). */
guint
_sl_graph_view_get_n_canvas_copies (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), 0);

  return _sl_canvas_get_n_copies (self->canvas);
}

void
_sl_graph_view_set_pace_floor_us (SlGraphView *self,
                                  gint64       cost_us)
{
  g_return_if_fail (SL_IS_GRAPH_VIEW (self));

  self->pace_floor_us = MAX (cost_us, 0);
}

const GArray *
_sl_graph_view_get_labels (SlGraphView *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), NULL);
  return self->labels;
}

/* The text of @host's name as drawn (for tests). */
char *
_sl_graph_view_dup_label_text (SlGraphView *self,
                               guint        host)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), NULL);
  g_return_val_if_fail (self->session != NULL && host < sl_session_get_n_hosts (self->session), NULL);
  return host_label_text (self, host);
}

/* Centres @host, zoomed in enough for names to show around it. */
static void
focus_host (SlGraphView *self,
            SlLayoutPos  p)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self)), height = gtk_widget_get_height (GTK_WIDGET (self));
  double zoom = CLAMP (MAX (self->zoom, 1.0), MIN_ZOOM, MAX_ZOOM);

  self->auto_fit = FALSE;
  if (zoom != self->zoom)
    {
      self->zoom = zoom;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
  self->pan_x = width / 2.0 - p.x * UNIT_PX * zoom;
  self->pan_y = height / 2.0 - p.y * UNIT_PX * zoom;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * sl_graph_view_find_host:
 * @text: part of a host's name (case does not matter)
 * @next: the next match after the selected host rather than the first
 *
 * Selects the host found, centres it and zooms in to it.
 *
 * Returns: whether a host's name holds @text
 */
gboolean
sl_graph_view_find_host (SlGraphView *self,
                         const char  *text,
                         gboolean     next)
{
  g_autofree char *needle = NULL;
  SlHostItem *selected;
  guint n, start = 0;

  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), FALSE);

  if (self->session == NULL || text == NULL || text[0] == '\0')
    return FALSE;
  needle = g_utf8_casefold (text, -1);
  n = self->nodes->len + self->unreadable->len;
  selected = sl_session_get_selected_host (self->session);
  if (next && selected != NULL)
    for (guint i = 0; i < n; i++)
      {
        SlHostItem *item = i < self->nodes->len ? sl_session_get_host_item (self->session, i)
                                                : sl_session_get_unreadable (self->session, i - self->nodes->len);

        if (item == selected)
          start = i + 1;
      }
  for (guint k = 0; k < n; k++)
    {
      guint i = (start + k) % n;
      gboolean bad = i >= self->nodes->len;
      SlHostItem *item = !bad ? sl_session_get_host_item (self->session, i)
                              : sl_session_get_unreadable (self->session, i - self->nodes->len);
      g_autofree char *name = g_utf8_casefold (sl_host_item_get_name (item), -1);

      if (strstr (name, needle) == NULL)
        continue;
      sl_session_set_selected_host (self->session, item);
      focus_host (self, !bad ? node_pos (self, i, 1) : g_array_index (self->unreadable, Node, i - self->nodes->len).to);
      return TRUE;
    }
  return FALSE;
}

/* Where the @i-th unreadable host is drawn, in widget coordinates. */
gboolean
sl_graph_view_get_unreadable_position (SlGraphView *self,
                                       guint        i,
                                       double      *x,
                                       double      *y)
{
  g_return_val_if_fail (SL_IS_GRAPH_VIEW (self), FALSE);

  if (i >= self->unreadable->len)
    return FALSE;
  to_screen (self, g_array_index (self->unreadable, Node, i).to, x, y);
  return TRUE;
}
