/* sl-timeline-view-message.c: messages one can point at, read and follow
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-compare.h"
#include "sl-format.h"
#include "sl-timeline-view-private.h"

#define HIT_PX 5.0

static double
seg_distance (const SlTlvSegment *s,
              double              x,
              double              y)
{
  double dx = s->x1 - s->x0, dy = s->y1 - s->y0, l2 = dx * dx + dy * dy, t;

  t = l2 > 0 ? CLAMP (((x - s->x0) * dx + (y - s->y0) * dy) / l2, 0, 1) : 0;
  return hypot (s->x0 + t * dx - x, s->y0 + t * dy - y);
}

static void
consider (SlTimelineView        *self,
          const SlTimelineArrow *a,
          gboolean               stubs,
          double                 x,
          double                 y,
          double                *best,
          SlTimelineArrow       *out)
{
  SlTlvSegment seg[2];
  guint n = _sl_timeline_view_arrow_segments (self, a, (int) gtk_adjustment_get_value (self->vadj), stubs, seg);

  for (guint k = 0; k < n; k++)
    {
      double d = seg_distance (&seg[k], x, y);

      if (d < *best)
        {
          *best = d;
          *out = *a;
        }
    }
}

/* The message drawn nearest to (@x, @y) of the plot, within a few pixels:
 * the selected one, the highlighted ones, then the others (a folded one
 * by its ends at a coarse zoom). */
gboolean
_sl_timeline_view_arrow_at (SlTimelineView  *self,
                            double           x,
                            double           y,
                            SlTimelineArrow *out)
{
  double best = HIT_PX;
  gboolean found;

  if (self->timeline == NULL)
    return FALSE;
  if (self->has_msg)
    consider (self, &self->msg, FALSE, x, y, &best, out);
  for (guint i = 0; self->chain != NULL && i < self->chain->len; i++)
    consider (self, &g_array_index (self->chain, SlTimelineArrow, i), FALSE, x, y, &best, out);
  for (guint i = 0; i < self->hl_arrows->len; i++)
    consider (self, &g_array_index (self->hl_arrows, SlTimelineArrow, i),
              _sl_timeline_view_stubs (self, self->hl_arrows, i), x, y, &best, out);
  found = best < HIT_PX;
  if (found)
    return TRUE;
  for (guint i = 0; i < self->arrows->len; i++)
    consider (self, &g_array_index (self->arrows, SlTimelineArrow, i), self->arrows_coarse, x, y, &best, out);
  return best < HIT_PX;
}

/* The link's bound at the instant of @a (the timeline takes it from the
 * link's relation, or from both hosts' bounds at the two ends). */
static double
link_bound_at (SlTimelineView        *self,
               const SlTimelineArrow *a)
{
  return a->uncertainty_ns;
}

static char *
format_addr (guint8        family,
             const guint8 *addr,
             guint16       port)
{
  char text[64] = "";

  if (family == 4)
    g_snprintf (text, sizeof text, "%u.%u.%u.%u", addr[0], addr[1], addr[2], addr[3]);
  else if (family == 6)
    {
      g_autoptr(GInetAddress) ia = g_inet_address_new_from_bytes (addr, G_SOCKET_FAMILY_IPV6);
      g_autofree char *s = g_inet_address_to_string (ia);

      g_snprintf (text, sizeof text, "[%s]", s);
    }
  if (port == 0)
    return g_strdup (text[0] != '\0' ? text : "?");
  return g_strdup_printf ("%s:%u", text, port);
}

/* "host, name (tid) of process pid, CPU n" for one end */
static char *
end_text (SlTimelineView *self,
          guint           host,
          guint           row,
          guint16         cpu,
          guint32         tid,
          guint32         pid)
{
  g_autofree char *hn = _sl_timeline_view_dup_host_name (self, host);
  SlTimelineRowInfo ri;
  GString *s = g_string_new (hn);

  sl_timeline_get_row_info (self->timeline, row, &ri);
  if (ri.kind == SL_TIMELINE_ROW_THREAD || ri.kind == SL_TIMELINE_ROW_PROCESS)
    {
      g_string_append_printf (s, ", %s (%u)", ri.name != NULL ? ri.name : "?", ri.tid);
      if (ri.pid != 0)
        g_string_append_printf (s, _(" of process %u"), ri.pid);
    }
  else if (tid != 0)
    g_string_append_printf (s, _(", thread %u"), tid);
  else if (ri.kind == SL_TIMELINE_ROW_CPU)
    g_string_append (s, _(", in an interrupt on an idle CPU"));
  if (cpu != SL_TIMELINE_NO_CPU)
    g_string_append_printf (s, _(", CPU %u"), cpu);
  (void) pid;
  return g_string_free (s, FALSE);
}

/* The Message page's text is selected and copied away from any column
 * title: its times of day say their zone. */
static char *
full_time (gint64 t)
{
  g_autofree char *clock = sl_format_clock_time (t, 9);

  return g_strdup_printf ("%s UTC", clock);
}

/* Everything about one message, one fact a line: what the tooltip shows
 * and the Message page. */
char *
sl_timeline_view_dup_message_text (SlTimelineView        *self,
                                   const SlTimelineArrow *a)
{
  SlTimelineMessage m;
  GString *s;
  g_autofree char *from = NULL, *to = NULL, *sh = NULL, *rh = NULL;
  g_autofree char *sv = NULL, *sl = NULL, *rv = NULL, *rl = NULL, *lat = NULL, *bound = NULL;
  double u;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);
  g_return_val_if_fail (a != NULL, NULL);

  if (self->timeline == NULL)
    return g_strdup ("");
  sl_timeline_get_message (self->timeline, a, &m);
  sh = _sl_timeline_view_dup_host_name (self, a->send_host);
  rh = _sl_timeline_view_dup_host_name (self, a->recv_host);
  from = end_text (self, a->send_host, a->send_row, a->send_cpu, m.send_tid, m.send_pid);
  to = end_text (self, a->recv_host, a->recv_row, a->recv_cpu, m.recv_tid, m.recv_pid);
  sv = full_time (sl_timeline_to_view (self->timeline, a->send_host, a->send_time));
  sl = full_time (a->send_time);
  rv = full_time (sl_timeline_to_view (self->timeline, a->recv_host, a->recv_time));
  rl = full_time (a->recv_time);
  lat = sl_format_ns ((double) (sl_timeline_to_view (self->timeline, a->recv_host, a->recv_time) -
                                sl_timeline_to_view (self->timeline, a->send_host, a->send_time)));
  u = link_bound_at (self, a);
  bound = isfinite (u) ? sl_format_ns (u) : g_strdup (_("none (the hosts are not on one clock)"));

  s = g_string_new (NULL);
  g_string_append_printf (s, _("Message %s → %s"), sh, rh);
  g_string_append_printf (s, _("\nFrom: %s"), from);
  g_string_append_printf (s, _("\nTo: %s"), to);
  g_string_append_printf (s, _("\nSent: %s on the %s · %s on %s's clock"), sv,
                          self->synchronized ? _("reference clock") : _("view's clock"), sl, sh);
  g_string_append_printf (s, _("\nReceived: %s on the %s · %s on %s's clock"), rv,
                          self->synchronized ? _("reference clock") : _("view's clock"), rl, rh);
  g_string_append_printf (s, _("\nLatency: %s"), lat);
  g_string_append_printf (s, _("\nThe link's bound at that instant: ± %s"), bound);
  {
    g_autofree char *src = format_addr (m.family, m.send_addr, m.send_port);
    g_autofree char *dst = format_addr (m.family, m.recv_addr, m.recv_port);

    g_string_append_printf (s, _("\nTCP: %s → %s"), src, dst);
  }
  if (m.has_seq)
    g_string_append_printf (s, _(", seq %u"), m.seq);
  if (m.length != SL_EVENT_NO_LENGTH)
    g_string_append_printf (s, ngettext (", %u byte", ", %u bytes", m.length), m.length);
  else
    g_string_append (s, _(", length not recorded"));
  return g_string_free (s, FALSE);
}

/* A folded arrow: the messages of its link in its column (@row_only: of
 * the selected row), summed up. */
static char *
folded_text (SlTimelineView        *self,
             const SlTimelineArrow *a,
             guint                  n_cols,
             gboolean               row_only)
{
  gint64 start = _sl_timeline_view_start (self), end = _sl_timeline_view_end (self);
  double span = (double) (end - start), cols = MAX (n_cols, 1);
  gint64 col = (gint64) floor ((double) (a->send_view - start) * cols / span);
  gint64 c0 = start + (gint64) (span * (double) col / cols), c1 = start + (gint64) (span * (double) (col + 1) / cols);
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SlTimelineArrow));
  g_autoptr(GArray) lat = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *sh = _sl_timeline_view_dup_host_name (self, a->send_host);
  g_autofree char *rh = _sl_timeline_view_dup_host_name (self, a->recv_host);
  g_autofree char *lo = NULL, *med = NULL, *hi = NULL, *first = NULL;

  sl_timeline_query_arrows (self->timeline, c0, c1, 0, a->send_host, a->recv_host, SL_TIMELINE_NONE, all);
  for (guint i = 0; i < all->len; i++)
    {
      const SlTimelineArrow *m = &g_array_index (all, SlTimelineArrow, i);
      gint64 d = m->recv_view - m->send_view;

      if (m->send_host == a->send_host && m->send_view >= c0 && m->send_view < c1 &&
          (!row_only || _sl_timeline_view_row_is_selected (self, m->send_row) ||
           _sl_timeline_view_row_is_selected (self, m->recv_row)))
        g_array_append_val (lat, d);
    }
  if (lat->len == 0)
    return g_strdup_printf (_("%u messages %s → %s"), a->count, sh, rh);
  g_array_sort (lat, sl_compare_gint64);
  lo = sl_format_ns ((double) g_array_index (lat, gint64, 0));
  med = sl_format_ns ((double) g_array_index (lat, gint64, (lat->len - 1) / 2));
  hi = sl_format_ns ((double) g_array_index (lat, gint64, lat->len - 1));
  first = full_time (a->send_view);
  return g_strdup_printf (_("%u messages %s → %s in this column (from %s)\nLatency: min %s, median %s, max %s\n"
                            "Click for the first one; zoom in to tell them apart"),
                          lat->len, sh, rh, first, lo, med, hi);
}

/* The tooltip of a message under the pointer */
char *
_sl_timeline_view_arrow_tooltip (SlTimelineView        *self,
                                 const SlTimelineArrow *a)
{
  if (a->count > 1)
    {
      /* folded into the columns of the list it comes from */
      for (guint i = 0; i < self->hl_arrows->len; i++)
        {
          const SlTimelineArrow *h = &g_array_index (self->hl_arrows, SlTimelineArrow, i);

          if (i >= self->hl_link_n && !self->hl_row_coarse)
            break;
          if (h->send_host == a->send_host && h->recv_host == a->recv_host && h->send_time == a->send_time &&
              h->recv_time == a->recv_time && h->count == a->count)
            return i < self->hl_link_n ? folded_text (self, a, self->hl_link_cols, FALSE)
                                       : folded_text (self, a, self->hl_row_cols, TRUE);
        }
      return folded_text (self, a, self->arrow_cols, FALSE);
    }
  return sl_timeline_view_dup_message_text (self, a);
}

gboolean
sl_timeline_view_get_selected_message (SlTimelineView  *self,
                                       SlTimelineArrow *out)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);

  if (self->has_msg && out != NULL)
    *out = self->msg;
  return self->has_msg;
}

/* @a: (nullable): a message (a folded arrow: its first one), %NULL for
 * none */
void
sl_timeline_view_select_message (SlTimelineView        *self,
                                 const SlTimelineArrow *a)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (a == NULL || self->timeline == NULL)
    {
      if (!self->has_msg)
        return;
      self->has_msg = FALSE;
    }
  else
    {
      self->has_msg = TRUE;
      self->msg = *a;
      self->msg.count = 1;
      self->msg_end = 0;
    }
  _sl_timeline_view_message_changed (self);
  _sl_timeline_view_state_changed (self);
  _sl_timeline_view_queue_update (self);
}

/* Shows the other end of the selected message: its row selected and in
 * the middle of the rows, its time in the middle of the span (the zoom
 * kept). Returns the row. */
guint
sl_timeline_view_jump_to_other_end (SlTimelineView *self)
{
  gint64 t, start, end;
  guint row;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), SL_TIMELINE_NONE);

  if (!self->has_msg || self->timeline == NULL)
    return SL_TIMELINE_NONE;
  self->msg_end = !self->msg_end;
  row = self->msg_end ? self->msg.recv_row : self->msg.send_row;
  t = self->msg_end ? sl_timeline_to_view (self->timeline, self->msg.recv_host, self->msg.recv_time)
                    : sl_timeline_to_view (self->timeline, self->msg.send_host, self->msg.send_time);
  start = _sl_timeline_view_start (self);
  end = _sl_timeline_view_end (self);
  sl_timeline_view_select_row (self, row);
  sl_timeline_view_set_span (self, t - (end - start) / 2, t - (end - start) / 2 + (end - start));
  _sl_timeline_view_center_row (self, row);
  return row;
}

/* Both ends of the selected message marked, the line between them */
void
_sl_timeline_view_draw_selected_message (SlTimelineView *self,
                                         cairo_t        *cr,
                                         int             scroll)
{
  SlTlvSegment seg[2];
  guint32 rgb = SL_TIMELINE_RGB_SELECTION;

  if (!self->has_msg || _sl_timeline_view_arrow_segments (self, &self->msg, scroll, FALSE, seg) == 0)
    return;
  cairo_save (cr);
  cairo_set_source_rgba (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0, 1);
  cairo_set_line_width (cr, 2.5);
  cairo_move_to (cr, seg[0].x0, seg[0].y0);
  cairo_line_to (cr, seg[0].x1, seg[0].y1);
  cairo_stroke (cr);
  for (guint e = 0; e < 2; e++)
    {
      double x = e == 0 ? seg[0].x0 : seg[0].x1, y = e == 0 ? seg[0].y0 : seg[0].y1;

      cairo_arc (cr, x, y, 4.5, 0, 2 * G_PI);
      cairo_stroke (cr);
      /* the end one is at (O jumps to the other) */
      if ((guint) self->msg_end == e)
        {
          cairo_arc (cr, x, y, 2, 0, 2 * G_PI);
          cairo_fill (cr);
        }
    }
  cairo_restore (cr);
}
