/* sl-session-items.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hosts and links as list items: lists, lookups, the selection and
 * its plot.
 */

#include "config.h"

#include <math.h>

#include "sl-session-internal.h"

GListModel *
sl_session_get_hosts (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->hosts);
}

GListModel *
sl_session_get_links (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->links);
}

GListModel *
sl_session_get_changes (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->changes);
}

/* Links known now; the sorted table (sl_session_get_links()) takes new ones
 * in at its next reorder. */
guint
sl_session_get_n_links (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->link_items->len;
}

guint
sl_session_get_n_tree_links (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->n_tree_links;
}

guint
sl_session_get_n_components (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->n_components;
}

SlHostItem *
sl_session_get_host_item (SlSession *self,
                          guint      host)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  if (host >= self->host_items->len)
    return NULL;
  return g_ptr_array_index (self->host_items, host);
}

SlLinkItem *
sl_session_get_link_item (SlSession *self,
                          guint      link)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  if (link >= self->link_items->len)
    return NULL;
  return g_ptr_array_index (self->link_items, link);
}

SlHostItem *
sl_session_find_host (SlSession  *self,
                      const char *name)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  for (guint h = 0; name != NULL && h < self->names->len; h++)
    if (g_strcmp0 (g_ptr_array_index (self->names, h), name) == 0)
      return g_ptr_array_index (self->host_items, h);
  for (guint i = 0; name != NULL && i < self->unreadable->len; i++)
    if (g_strcmp0 (sl_host_item_get_key (g_ptr_array_index (self->unreadable, i)), name) == 0 ||
        g_strcmp0 (sl_host_item_get_name (g_ptr_array_index (self->unreadable, i)), name) == 0)
      return g_ptr_array_index (self->unreadable, i);
  return NULL;
}

/* How bad a link is, for sl_session_find_worst_link(): the quality
 * first (failed, no packet, one way, approximate, accurate). */
static int
quality_rank (SlQuality q)
{
  switch (q)
    {
    case SL_QUALITY_FAIL:
      return 4;
    case SL_QUALITY_ABSENT:
      return 3;
    case SL_QUALITY_INCOMPLETE:
      return 2;
    case SL_QUALITY_APPROXIMATE:
      return 1;
    default:
      return 0;
    }
}

/* The link most in need of a look: the worst quality, then the widest
 * bound. NULL without links. */
SlLinkItem *
sl_session_find_worst_link (SlSession *self)
{
  SlLinkItem *worst = NULL;
  int worst_rank = -1;
  double worst_bound = -1;

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  for (guint l = 0; l < self->link_items->len; l++)
    {
      SlLinkItem *item = g_ptr_array_index (self->link_items, l);
      const SlReportLink *rl = sl_link_item_get_info (item);
      int rank = quality_rank (rl->info.quality);
      double bound = isfinite (rl->info.bound_ns) ? rl->info.bound_ns : G_MAXDOUBLE;

      if (rank > worst_rank || (rank == worst_rank && bound > worst_bound))
        {
          worst = item;
          worst_rank = rank;
          worst_bound = bound;
        }
    }
  return worst;
}

/* Hosts the engine knows (sl_session_get_host_item() takes 0 to this
 * minus 1); sl_session_get_hosts() also lists the unreadable ones. */
guint
sl_session_get_n_hosts (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->host_items->len;
}

/* Hosts the engine does not know because nothing of them could be read. */
guint
sl_session_get_n_unreadable (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->unreadable->len;
}

SlHostItem *
sl_session_get_unreadable (SlSession *self,
                           guint      i)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  if (i >= self->unreadable->len)
    return NULL;
  return g_ptr_array_index (self->unreadable, i);
}

SlLinkItem *
sl_session_find_link_between (SlSession *self,
                              guint      a,
                              guint      b)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  for (guint l = 0; l < self->link_items->len; l++)
    {
      SlLinkItem *item = g_ptr_array_index (self->link_items, l);
      guint ia = sl_link_item_get_a (item), ib = sl_link_item_get_b (item);

      if ((ia == a && ib == b) || (ia == b && ib == a))
        return item;
    }
  return NULL;
}

SlLinkItem *
sl_session_find_link (SlSession  *self,
                      const char *a,
                      const char *b)
{
  SlHostItem *ha, *hb;

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  ha = sl_session_find_host (self, a);
  hb = sl_session_find_host (self, b);
  if (ha == NULL || hb == NULL)
    return NULL;
  return sl_session_find_link_between (self, sl_host_item_get_host (ha), sl_host_item_get_host (hb));
}

SlLinkItem *
sl_session_get_selected_link (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->selected_link;
}

void
sl_session_set_selected_link (SlSession  *self,
                              SlLinkItem *link)
{
  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (link == NULL || SL_IS_LINK_ITEM (link));

  if (!g_set_object (&self->selected_link, link))
    return;
  _sl_session_notify (self, PROP_SELECTED_LINK);

  _sl_session_set_plot (self, NULL);
  if (link != NULL && self->job != NULL)
    {
      g_autoptr(SlPlotData) plot = NULL;

      sl_job_request_plot (self->job, sl_link_item_get_link (link));
      plot = sl_job_build_plot_now (self->job, sl_link_item_get_link (link));
      if (plot != NULL)
        _sl_session_set_plot (self, plot);
    }
  else if (self->job != NULL)
    sl_job_request_plot (self->job, G_MAXUINT);
}

SlHostItem *
sl_session_get_selected_host (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->selected_host;
}

void
sl_session_set_selected_host (SlSession  *self,
                              SlHostItem *host)
{
  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (host == NULL || SL_IS_HOST_ITEM (host));

  if (g_set_object (&self->selected_host, host))
    _sl_session_notify (self, PROP_SELECTED_HOST);
}

SlPlotData *
sl_session_get_plot (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->plot;
}
