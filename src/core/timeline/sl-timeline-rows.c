/* sl-timeline-rows.c: which rows matter: activity, filters, process trees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-timeline-private.h"

static gboolean
is_running (guint state)
{
  return state == SL_TIMELINE_STATE_USER || state == SL_TIMELINE_STATE_SYSCALL ||
         state == SL_TIMELINE_STATE_IRQ || state == SL_TIMELINE_STATE_SOFTIRQ;
}

static gint64
row_run_ns (const SlTimeline *self,
            const SlTlRow    *r)
{
  gint64 ns = 0;

  if (r->n_iv == 0)
    return 0;
  for (guint s = 0; s < SL_TIMELINE_N_STATES; s++)
    if (is_running (s))
      ns += r->cum[s];
  /* the last interval lasts until the host's last event */
  if (is_running (r->iv[r->n_iv - 1].state))
    ns += MAX (_sl_tl_row_end (self, r) - sl_tl_iv_start (r, r->n_iv - 1), 0);
  return ns;
}

/* kthreadd (2) starts every kernel thread: each is its own process */
static gboolean
row_kernel (const SlTlRow *r)
{
  return r->kernel || r->tid == 2 || r->pid == 2 || r->ppid == 2;
}

void
sl_timeline_get_row_activity (const SlTimeline      *self,
                              guint                  row,
                              SlTimelineRowActivity *out)
{
  const SlTlRow *r;

  g_return_if_fail (self != NULL);
  g_return_if_fail (row < self->rows->len);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  r = sl_tl_row (self, row);
  switch (r->kind)
    {
    case SL_TIMELINE_ROW_PROCESS:
      out->kernel = row_kernel (r) ||
                    (r->thread_row != SL_TIMELINE_NONE && row_kernel (sl_tl_row (self, r->thread_row)));
      for (guint i = 0; r->children != NULL && i < r->children->len; i++)
        {
          const SlTlRow *t = sl_tl_row (self, g_array_index (r->children, guint, i));

          out->run_ns += row_run_ns (self, t);
          out->n_messages += t->n_msgs;
        }
      break;

    case SL_TIMELINE_ROW_THREAD:
    case SL_TIMELINE_ROW_CPU:
      out->run_ns = row_run_ns (self, r);
      out->n_messages = r->n_msgs;
      out->kernel = r->kind == SL_TIMELINE_ROW_THREAD && row_kernel (r);
      break;

    case SL_TIMELINE_ROW_HOST:
    default:
      out->n_messages = r->n_msgs;
      break;
    }
}

static gboolean
thread_passes (const SlTimeline *self,
               const SlTlRow    *r,
               guint             flags)
{
  if ((flags & SL_TIMELINE_FILTER_HIDE_KERNEL) && row_kernel (r))
    return FALSE;
  if ((flags & SL_TIMELINE_FILTER_ONLY_MESSAGES) && r->n_msgs == 0)
    return FALSE;
  if ((flags & SL_TIMELINE_FILTER_HIDE_IDLE) && r->n_msgs == 0 && row_run_ns (self, r) == 0)
    return FALSE;
  return TRUE;
}

gboolean
sl_timeline_row_passes (const SlTimeline *self,
                        guint             row,
                        guint             flags)
{
  const SlTlRow *r;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (row < self->rows->len, FALSE);

  r = sl_tl_row (self, row);
  switch (r->kind)
    {
    case SL_TIMELINE_ROW_THREAD:
      return thread_passes (self, r, flags);

    case SL_TIMELINE_ROW_PROCESS:
      if (flags == 0)
        return TRUE;
      if ((flags & SL_TIMELINE_FILTER_HIDE_KERNEL) && row_kernel (r))
        return FALSE;
      for (guint i = 0; r->children != NULL && i < r->children->len; i++)
        if (thread_passes (self, sl_tl_row (self, g_array_index (r->children, guint, i)), flags))
          return TRUE;
      return FALSE;

    case SL_TIMELINE_ROW_HOST:
    case SL_TIMELINE_ROW_CPU:
    default:
      return TRUE;
    }
}

typedef struct
{
  guint   row;
  guint   group;
  guint64 n_messages;
  gint64  run_ns;
} SortKey;

static int
sort_key_cmp (gconstpointer a,
              gconstpointer b)
{
  const SortKey *x = a, *y = b;

  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  if (x->n_messages != y->n_messages)
    return x->n_messages > y->n_messages ? -1 : 1;
  if (x->run_ns != y->run_ns)
    return x->run_ns > y->run_ns ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

void
sl_timeline_sort_by_activity (const SlTimeline *self,
                              GArray           *rows)
{
  g_autofree SortKey *keys = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (rows != NULL);

  keys = g_new (SortKey, MAX (rows->len, 1));
  for (guint i = 0; i < rows->len; i++)
    {
      SlTimelineRowActivity act;
      SortKey *k = &keys[i];

      k->row = g_array_index (rows, guint, i);
      g_return_if_fail (k->row < self->rows->len);
      sl_timeline_get_row_activity (self, k->row, &act);
      k->n_messages = act.n_messages;
      k->run_ns = act.run_ns;
      k->group = act.n_messages > 0 ? 0 : act.run_ns > 0 ? 1 : 2;
    }
  qsort (keys, rows->len, sizeof *keys, sort_key_cmp);
  for (guint i = 0; i < rows->len; i++)
    g_array_index (rows, guint, i) = keys[i].row;
}

GArray *
sl_timeline_dup_process_tree (const SlTimeline *self,
                              guint             host,
                              guint32           pid)
{
  GArray *ret = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GHashTable) children = NULL;
  g_autoptr(GHashTable) seen = NULL;
  const SlTlHost *h;

  g_return_val_if_fail (self != NULL, ret);

  h = sl_tl_host (self, host);
  if (h == NULL)
    return ret;
  /* parent pid → its children's pids, from the host's process rows */
  children = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < self->rows->len; i++)
    {
      const SlTlRow *r = sl_tl_row (self, i);
      GArray *list;

      if (r->host != host || r->kind != SL_TIMELINE_ROW_PROCESS || r->ppid == 0 || r->ppid == r->pid)
        continue;
      list = g_hash_table_lookup (children, GUINT_TO_POINTER (r->ppid));
      if (list == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_hash_table_insert (children, GUINT_TO_POINTER (r->ppid), list);
        }
      g_array_append_val (list, r->pid);
    }
  seen = g_hash_table_new (NULL, NULL);
  g_array_append_val (ret, pid);
  g_hash_table_add (seen, GUINT_TO_POINTER (pid));
  for (guint i = 0; i < ret->len; i++)
    {
      GArray *list = g_hash_table_lookup (children, GUINT_TO_POINTER (g_array_index (ret, guint32, i)));

      for (guint k = 0; list != NULL && k < list->len; k++)
        {
          guint32 c = g_array_index (list, guint32, k);

          if (g_hash_table_add (seen, GUINT_TO_POINTER (c)))
            g_array_append_val (ret, c);
        }
    }
  return ret;
}
