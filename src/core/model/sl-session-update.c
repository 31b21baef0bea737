/* sl-session-update.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A job's snapshots applied to the session's items on the main thread:
 * hosts, links, problems, progress; the links' sorted views told when to
 * sort again.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-cpu-time.h"
#include "sl-format.h"
#include "sl-session-internal.h"

#define RESORT_MS    1500

static char *
progress_line (SlSession        *self,
               const SlSnapshot *s)
{
  const SlTraceProgress *p = &s->progress;
  GString *str = g_string_new (s->phase != NULL ? s->phase : "");

  if (p->scanning)
    {
      g_string_append_printf (str, " — %s", _("searching for traces…"));
      return g_string_free (str, FALSE);
    }
  if (p->hosts > 0)
    {
      g_string_append (str, " — ");
      g_string_append_printf (str, g_dngettext (GETTEXT_PACKAGE, "%u host", "%u hosts", p->hosts),
                              p->hosts);
      /* live: how many are not streaming, at a glance */
      if (s->live_hosts != NULL)
        {
          static const SlHostLive shown[] = {
            SL_HOST_LIVE_STALLED, SL_HOST_LIVE_ENDED, SL_HOST_LIVE_FAILED,
            SL_HOST_LIVE_WAITING, SL_HOST_LIVE_CONNECTING,
          };
          const char *sep = " (";

          for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
            if (self->n_live[shown[i]] > 0)
              {
                g_string_append_printf (str, "%s%u %s", sep, self->n_live[shown[i]],
                                        sl_host_live_to_string (shown[i]));
                sep = ", ";
              }
          if (sep[0] == ',')
            g_string_append_c (str, ')');
        }
    }
  if (p->events_per_s > 0)
    g_string_append_printf (str, _(", %.2f M events/s"), p->events_per_s / 1e6);
  else if (p->events > 0)
    {
      g_autofree char *n = sl_format_count (p->events);
      g_string_append_printf (str, _(", %s events"), n);
    }
  if (p->eta_s >= 0)
    g_string_append_printf (str, _(", %.0f s left"), ceil (p->eta_s));
  return g_string_free (str, FALSE);
}

/* The last UI-thread handling times, for the benchmark and tests. */
static void
record_time (GArray *times,
             gint64  us)
{
  if (times->len >= 4096)
    g_array_remove_range (times, 0, 2048);
  g_array_append_val (times, us);
}

/* Sorted views of the links are told to sort again when values they may
 * sort by changed ("reorder"): GTK's sort model then moves only the
 * items that are out of place, keeping the other rows and the
 * selection. A table that reorders ten times a second cannot be read:
 * it happens at most every RESORT_MS. New links join the store after
 * the others are in order again (a sort model inserts them by bisection,
 * which needs a sorted list). */
static void
resort_now (SlSession *self)
{
  gint64 t0 = g_get_monotonic_time (), dt;
  guint n_store = g_list_model_get_n_items (G_LIST_MODEL (self->links));

  g_clear_handle_id (&self->resort_id, g_source_remove);
  if (self->resort_links->len > 0)
    g_signal_emit (self, _sl_session_signals[REORDER], 0);
  if (n_store < self->link_items->len)
    g_list_store_splice (self->links, n_store, 0, self->link_items->pdata + n_store, self->link_items->len - n_store);
  g_array_set_size (self->resort_links, 0);
  if (self->resort_mark != NULL)
    memset (self->resort_mark, 0, self->resort_mark_len);
  dt = g_get_monotonic_time () - t0;
  record_time (self->resort_us, dt);
}

static gboolean
resort_cb (gpointer data)
{
  SlSession *self = data;

  self->resort_id = 0;
  resort_now (self);
  return G_SOURCE_REMOVE;
}

static void
queue_resort (SlSession *self,
              GArray    *links,
              gboolean   now)
{
  if (self->resort_mark_len < self->link_items->len)
    {
      self->resort_mark = g_realloc (self->resort_mark, self->link_items->len);
      memset (self->resort_mark + self->resort_mark_len, 0, self->link_items->len - self->resort_mark_len);
      self->resort_mark_len = self->link_items->len;
    }
  for (guint k = 0; k < links->len; k++)
    {
      guint l = g_array_index (links, guint, k);

      if (!self->resort_mark[l])
        {
          self->resort_mark[l] = 1;
          g_array_append_val (self->resort_links, l);
        }
    }
  if (self->resort_links->len == 0 &&
      g_list_model_get_n_items (G_LIST_MODEL (self->links)) == self->link_items->len)
    return;
  /* the first links show at once; later ones join at the next reorder */
  if (now || g_list_model_get_n_items (G_LIST_MODEL (self->links)) == 0)
    resort_now (self);
  else if (self->resort_id == 0)
    self->resort_id = g_timeout_add_full (G_PRIORITY_DEFAULT_IDLE, RESORT_MS, resort_cb, self, NULL);
}

/* A problem of a host: its status, with those it had (its problems, not
 * the column's text: "Not synchronized: …" was added again with each
 * problem); a host the engine
 * does not know (its every trace was skipped) joins the hosts as
 * unreadable. Returns TRUE when a host was added. */
static gboolean
add_host_problem (SlSession            *self,
                  const SlTraceProblem *p)
{
  SlHostItem *item = sl_session_find_host (self, p->host);
  g_autofree char *line = g_strdup_printf ("%s: %s", p->file, p->message);
  const char *old;

  if (item == NULL)
    {
      item = _sl_host_item_new_unreadable (p->host, line);
      g_ptr_array_add (self->unreadable, item);
      g_list_store_append (self->hosts, item);
      return TRUE;
    }
  old = _sl_host_item_get_problems (item);
  if (old[0] == '\0' || sl_session_get_state (self) == SL_SESSION_STATE_LIVE)
    _sl_host_item_set_status (item, line);
  else if (strstr (old, line) == NULL)
    {
      g_autofree char *both = g_strdup_printf ("%s\n%s", old, line);

      _sl_host_item_set_status (item, both);
    }
  return FALSE;
}

/* New hosts join the items; every host's values are updated. Returns
 * the changes. */
static guint
apply_hosts (SlSession  *self,
             SlSnapshot *s)
{
  guint changes = 0;
  guint n_old_hosts = self->host_items->len;

  /* New hosts and links only ever append: indices are stable. */
  if (s->hosts->len > n_old_hosts)
    {
      g_autoptr(GPtrArray) added = g_ptr_array_new ();

      for (guint h = n_old_hosts; h < s->hosts->len; h++)
        {
          const char *name = sl_snapshot_get_host_name (s, h);
          SlHostItem *item = _sl_host_item_new (h, name);
          SlHostItem *was = sl_session_find_host (self, name);
          guint pos;

          /* a trace of it was skipped, another one is read */
          if (was != NULL && sl_host_item_get_unreadable (was))
            {
              _sl_host_item_set_status (item, _sl_host_item_get_problems (was));
              if (g_list_store_find (self->hosts, was, &pos))
                g_list_store_remove (self->hosts, pos);
              g_ptr_array_remove (self->unreadable, was);
            }
          g_ptr_array_add (self->names, g_strdup (name));
          g_ptr_array_add (self->host_items, item);
          g_ptr_array_add (added, item);
        }
      for (guint h = 0; h < s->hosts->len; h++)
        _sl_host_item_update (g_ptr_array_index (self->host_items, h), s);
      g_list_store_splice (self->hosts, n_old_hosts, 0, added->pdata, added->len);
      _sl_session_notify (self, PROP_N_HOSTS);
      changes |= SL_SESSION_CHANGE_HOSTS;
    }
  else
    for (guint h = 0; h < s->hosts->len; h++)
      _sl_host_item_update (g_ptr_array_index (self->host_items, h), s);
  return changes;
}

/* The state at the end of the input, or the progress line before it */
static void
apply_progress (SlSession  *self,
                SlSnapshot *s)
{
  if (s->final)
    {
      if (self->job != NULL && self->timeline == NULL && sl_job_get_timeline (self->job) != NULL)
        {
          self->timeline = sl_job_get_timeline (self->job);
          _sl_session_notify (self, PROP_TIMELINE);
        }
      _sl_session_set_relay_stalled (self, FALSE);
      if (s->failed)
        {
          _sl_session_set_string (self, &self->error, s->error, PROP_ERROR);
          _sl_session_set_progress (self, 0, NULL);
          _sl_session_set_state (self, SL_SESSION_STATE_FAILED);
        }
      else
        {
          /* stopped early: the fraction says how much was read */
          self->stopped = s->cancelled;
          _sl_session_set_progress (self, s->cancelled ? self->progress_fraction : 1, NULL);
          _sl_session_set_state (self, SL_SESSION_STATE_READY);
        }
    }
  else
    {
      g_autofree char *line = progress_line (self, s);

      _sl_session_set_progress (self, s->progress.fraction, line);
    }
}

static void
reap_snapshot (gpointer data,
               gpointer user_data)
{
  sl_snapshot_free (data);
}

/* The snapshot an update replaced is freed on another thread: its
 * thousands of relations, allocated by the worker, took a sixth of an
 * update's time on the main thread to free. (The items hold their own
 * references to what they show.) */
static void
release_snapshot (SlSession  *self,
                  SlSnapshot *old)
{
  if (old == NULL)
    return;
  if (self->reaper == NULL)
    self->reaper = g_thread_pool_new (reap_snapshot, NULL, 1, FALSE, NULL);
  g_thread_pool_push (self->reaper, old, NULL);
}

static void
apply_snapshot (SlSession  *self,
                SlSnapshot *s)
{
  guint changes = 0;
  guint n_old_hosts = self->host_items->len;
  guint n_old_links = self->link_items->len;
  guint n_tree = 0;
  g_autoptr(GArray) resort = g_array_new (FALSE, FALSE, sizeof (guint));

  g_object_freeze_notify (G_OBJECT (self));

  changes |= apply_hosts (self, s);

  /* the changes' and the links' last updates' input times count from the
   * first matched packet's, on the same (merge order's) clock: the links'
   * spans are each on its own host's */
  if (self->time_origin == 0 && s->input_start != 0)
    {
      self->time_origin = s->input_start;
      _sl_session_notify (self, PROP_TIME_ORIGIN);
      sl_change_list_set_origin (self->changes, self->time_origin);
    }
  /* (the visible span is the timeline's, on the reference clock: the
   * links' spans are each on its own host's clock) */
  if (s->time_start != 0 || s->time_end != 0)
    _sl_session_set_span (self, &self->time_span, (SlTimeSpan) { s->time_start, s->time_end }, PROP_TIME_SPAN);

  for (guint l = 0; l < s->links->len; l++)
    {
      const SlReportLink *rl = &g_array_index (s->links, SlReportLink, l);
      SlLinkItem *item;

      if (l >= self->link_items->len)
        g_ptr_array_add (self->link_items, _sl_link_item_new (l));
      item = g_ptr_array_index (self->link_items, l);
      _sl_link_item_set_relation (item, l < s->link_relations->len ? g_ptr_array_index (s->link_relations, l) : NULL);
      if (_sl_link_item_update (item, rl, sl_snapshot_get_host_name (s, rl->a),
                                sl_snapshot_get_host_name (s, rl->b), self->time_origin) &&
          l < n_old_links)
        g_array_append_val (resort, l);
      if (rl->info.in_tree)
        n_tree++;
    }
  if (s->links->len > n_old_links)
    {
      _sl_session_notify (self, PROP_N_LINKS);
      changes |= SL_SESSION_CHANGE_LINKS;
    }
  if (resort->len > 0 || n_old_hosts > 0)
    changes |= SL_SESSION_CHANGE_VALUES;
  queue_resort (self, resort, s->final);

  if (n_tree != self->n_tree_links)
    {
      self->n_tree_links = n_tree;
      _sl_session_notify (self, PROP_N_TREE_LINKS);
      changes |= SL_SESSION_CHANGE_TREE;
    }
  if (s->n_components != self->n_components)
    {
      self->n_components = s->n_components;
      _sl_session_notify (self, PROP_N_COMPONENTS);
      changes |= SL_SESSION_CHANGE_TREE;
    }
  for (guint k = 0; k < s->changes->len; k++)
    {
      SlChangeKind kind = g_array_index (s->changes, SlChange, k).kind;

      if (kind == SL_CHANGE_TREE_EDGE_IN || kind == SL_CHANGE_TREE_EDGE_OUT ||
          kind == SL_CHANGE_REFERENCE)
        changes |= SL_SESSION_CHANGE_TREE;
    }
  sl_change_list_append (self->changes, (const SlChange *) (gpointer) s->changes->data, s->changes->len);

  for (guint k = 0; k < s->problems->len; k++)
    {
      const SlTraceProblem *p = g_ptr_array_index (s->problems, k);

      if (p->host != NULL && add_host_problem (self, p))
        changes |= SL_SESSION_CHANGE_HOSTS;
      /* a stall and its end are the host's live state (the relay's: the
       * stall banner), not news */
      if (!p->transient)
        g_signal_emit (self, _sl_session_signals[PROBLEM], 0, p->host, p->file, p->message);
      else
        self->n_passing++;
    }
  /* read to the end without an event, with problems of its own: nothing
   * of it could be read. Its problems, not the status column's text,
   * which an unsynchronized host always has ("Not synchronized: …", in
   * the UI's language): a generated input's hosts count no events */
  if (s->final && !s->cancelled)
    for (guint h = 0; h < s->hosts->len; h++)
      {
        SlHostItem *item = g_ptr_array_index (self->host_items, h);
        const SlSnapHost *sh = &g_array_index (s->hosts, SlSnapHost, h);

        if (sh->counts.events == 0 && _sl_host_item_get_problems (item)[0] != '\0' &&
            !sl_host_item_get_unreadable (item))
          {
            _sl_host_item_set_unreadable (item, TRUE);
            changes |= SL_SESSION_CHANGE_HOSTS;
          }
      }
  if (s->live_hosts != NULL)
    _sl_session_apply_live_hosts (self, s);

  if (s->plot != NULL && self->selected_link != NULL &&
      s->plot->link == sl_link_item_get_link (self->selected_link))
    _sl_session_set_plot (self, s->plot);

  /* live: the timeline grows on this thread, from what the session's
   * threads kept (sl_job_update_timeline()) */
  if (self->kind == SL_JOB_LIVE && self->job != NULL && sl_job_update_timeline (self->job))
    {
      changes |= SL_SESSION_CHANGE_TIMELINE;
      if (self->timeline == NULL && sl_timeline_get_n_hosts (sl_job_get_timeline (self->job)) > 0)
        {
          self->timeline = sl_job_get_timeline (self->job);
          _sl_session_notify (self, PROP_TIMELINE);
        }
    }

  apply_progress (self, s);

  release_snapshot (self, g_steal_pointer (&self->current));
  self->current = s;

  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, _sl_session_signals[UPDATED], 0, changes);
}

void
_sl_session_job_snapshot_cb (SlJob      *job,
                             SlSnapshot *snapshot,
                             gpointer    user_data)
{
  SlSession *self = user_data;
  gint64 t0 = g_get_monotonic_time ();
  gint64 cpu0 = sl_thread_cpu_us ();
  gboolean first_hosts = self->host_items->len == 0 && snapshot->hosts->len > 0;

  g_assert (job == self->job);

  self->n_captures = sl_job_get_n_captures (job);
  if (first_hosts)
    sl_profile_mark ("session", "first snapshot with hosts (%u) to apply", snapshot->hosts->len);
  apply_snapshot (self, snapshot);
  if (first_hosts)
    sl_profile_mark ("session", "first snapshot with hosts applied");
  record_time (self->update_us, g_get_monotonic_time () - t0);
  record_time (self->update_cpu_us, sl_thread_cpu_us () - cpu0);
}

void
_sl_session_refresh_now (SlSession *self)
{
  SlSnapshot *s;

  if (self->job == NULL)
    return;
  s = sl_job_capture_now (self->job);
  if (s == NULL)
    return;
  /* a capture of a finished job must not change the state again */
  s->final = self->state == SL_SESSION_STATE_READY || self->state == SL_SESSION_STATE_FAILED;
  s->failed = self->state == SL_SESSION_STATE_FAILED;
  s->error = g_strdup (self->error);
  apply_snapshot (self, s);
}
