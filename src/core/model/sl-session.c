/* sl-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-change-list.h"
#include "sl-diagnosis.h"
#include "sl-format.h"
#include "sl-model-enums.h"
#include "sl-job.h"
#include "sl-live.h"
#include "sl-report.h"
#include "sl-session-private.h"

#define DEMO_VERSION "2"
#define RESORT_MS    1500

struct _SlSession
{
  GObject         parent_instance;

  SlSessionState  state;
  SlJobKind       kind;
  char          **inputs;
  char           *title;
  char           *progress_text;
  double          progress_fraction;
  gboolean        stopped;
  char           *error;

  SlJob          *job;
  SlTimeline     *timeline;
  SlSnapshot     *current;
  GPtrArray      *names;
  GPtrArray      *host_items;
  GPtrArray      *unreadable;
  GPtrArray      *link_items;
  GListStore     *hosts;
  GListStore     *links;
  SlChangeList   *changes;
  guint           n_tree_links;
  guint           n_components;
  guint           n_live[SL_HOST_LIVE_N_STATES];
  gboolean        relay_stalled;
  guint           n_passing;
  /* the live attachments' URLs that are attached (not ended or failed) */
  GPtrArray      *attached;

  SlLinkItem     *selected_link;
  SlHostItem     *selected_host;
  SlPlotData     *plot;

  char           *algorithm;
  char           *tree;
  char           *pinned;
  guint           update_ms;
  double          tree_margin;
  guint           retention_s;

  gboolean        synchronized;
  gint64          time_origin;
  gint64          time_start;
  gint64          time_end;
  gint64          visible_start;
  gint64          visible_end;
  gint64          selected_start;
  gint64          selected_end;

  GArray         *update_us;
  GArray         *resort_us;
  GArray         *resort_links;
  guint8         *resort_mark;
  gsize           resort_mark_len;
  guint           resort_id;
  char           *demo_dir;
  SlGenerateOptions generate;
  GArray         *generate_links;
  gint64          generate_pace_us;
};

enum {
  PROP_0,
  PROP_STATE,
  PROP_TITLE,
  PROP_IS_LIVE,
  PROP_PROGRESS_FRACTION,
  PROP_PROGRESS_TEXT,
  PROP_ERROR,
  PROP_HOSTS,
  PROP_LINKS,
  PROP_CHANGES,
  PROP_N_HOSTS,
  PROP_N_LINKS,
  PROP_N_TREE_LINKS,
  PROP_N_COMPONENTS,
  PROP_SELECTED_LINK,
  PROP_SELECTED_HOST,
  PROP_PLOT,
  PROP_ALGORITHM,
  PROP_TREE,
  PROP_PINNED_REFERENCE,
  PROP_UPDATE_INTERVAL,
  PROP_TREE_MARGIN,
  PROP_RETENTION,
  PROP_SYNCHRONIZED,
  PROP_TIME_ORIGIN,
  PROP_TIME_START,
  PROP_TIME_END,
  PROP_VISIBLE_START,
  PROP_VISIBLE_END,
  PROP_SELECTION_START,
  PROP_SELECTION_END,
  PROP_CAN_EXPORT,
  PROP_TIMELINE,
  PROP_RELAY_STALLED,
  N_PROPS
};

enum {
  UPDATED,
  PROBLEM,
  REORDER,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (SlSession, sl_session, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
notify (SlSession *self,
        guint      prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_string (SlSession   *self,
            char       **field,
            const char  *value,
            guint        prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  notify (self, prop);
}

static void
set_state (SlSession      *self,
           SlSessionState  state)
{
  gboolean was_live = sl_session_get_is_live (self);
  gboolean could_export = sl_session_get_can_export (self);

  if (self->state == state)
    return;
  self->state = state;
  notify (self, PROP_STATE);
  if (was_live != sl_session_get_is_live (self))
    notify (self, PROP_IS_LIVE);
  if (could_export != sl_session_get_can_export (self))
    notify (self, PROP_CAN_EXPORT);
}

static void
set_progress (SlSession  *self,
              double      fraction,
              const char *text)
{
  if (self->progress_fraction != fraction)
    {
      self->progress_fraction = fraction;
      notify (self, PROP_PROGRESS_FRACTION);
    }
  set_string (self, &self->progress_text, text, PROP_PROGRESS_TEXT);
}

static void
set_plot (SlSession  *self,
          SlPlotData *plot)
{
  if (self->plot == plot)
    return;
  g_clear_pointer (&self->plot, sl_plot_data_unref);
  self->plot = plot != NULL ? sl_plot_data_ref (plot) : NULL;
  notify (self, PROP_PLOT);
}

static void
set_span (SlSession *self,
          gint64    *start_field,
          gint64    *end_field,
          gint64     start,
          gint64     end,
          guint      start_prop,
          guint      end_prop)
{
  if (end < start)
    {
      gint64 t = start;
      start = end;
      end = t;
    }
  if (*start_field != start)
    {
      *start_field = start;
      notify (self, start_prop);
    }
  if (*end_field != end)
    {
      *end_field = end;
      notify (self, end_prop);
    }
}

static void
set_relay_stalled (SlSession *self,
                   gboolean   stalled)
{
  if (self->relay_stalled == stalled)
    return;
  self->relay_stalled = stalled;
  notify (self, PROP_RELAY_STALLED);
}

static void
clear_model (SlSession *self)
{
  guint n_hosts = self->host_items->len;
  guint n_links = self->link_items->len;

  g_object_freeze_notify (G_OBJECT (self));

  sl_session_set_selected_link (self, NULL);
  sl_session_set_selected_host (self, NULL);
  set_plot (self, NULL);
  sl_change_list_clear (self->changes);
  g_clear_handle_id (&self->resort_id, g_source_remove);
  g_array_set_size (self->resort_links, 0);
  if (self->resort_mark != NULL)
    memset (self->resort_mark, 0, self->resort_mark_len);
  g_list_store_remove_all (self->links);
  g_list_store_remove_all (self->hosts);
  g_ptr_array_set_size (self->link_items, 0);
  g_ptr_array_set_size (self->host_items, 0);
  g_ptr_array_set_size (self->unreadable, 0);
  g_ptr_array_set_size (self->names, 0);
  g_clear_pointer (&self->current, sl_snapshot_free);
  if (n_hosts > 0)
    notify (self, PROP_N_HOSTS);
  if (n_links > 0)
    notify (self, PROP_N_LINKS);
  if (self->n_tree_links != 0)
    {
      self->n_tree_links = 0;
      notify (self, PROP_N_TREE_LINKS);
    }
  if (self->n_components != 0)
    {
      self->n_components = 0;
      notify (self, PROP_N_COMPONENTS);
    }
  memset (self->n_live, 0, sizeof self->n_live);
  set_relay_stalled (self, FALSE);
  set_string (self, &self->error, NULL, PROP_ERROR);
  set_progress (self, 0, NULL);
  self->stopped = FALSE;
  self->time_origin = 0;
  notify (self, PROP_TIME_ORIGIN);
  set_span (self, &self->time_start, &self->time_end, 0, 0, PROP_TIME_START, PROP_TIME_END);
  set_span (self, &self->visible_start, &self->visible_end, 0, 0, PROP_VISIBLE_START, PROP_VISIBLE_END);
  set_span (self, &self->selected_start, &self->selected_end, 0, 0,
            PROP_SELECTION_START, PROP_SELECTION_END);

  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[UPDATED], 0, SL_SESSION_CHANGE_RESET);
}

static void
drop_job (SlSession *self)
{
  /* views let go of the job's timeline before it is freed */
  if (self->timeline != NULL)
    {
      self->timeline = NULL;
      notify (self, PROP_TIMELINE);
    }
  if (self->job != NULL)
    sl_job_close (g_steal_pointer (&self->job));
}

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

static SlHostLive
host_live (SlLiveHostState state)
{
  switch (state)
    {
    case SL_LIVE_HOST_CONNECTING:
      return SL_HOST_LIVE_CONNECTING;
    case SL_LIVE_HOST_STREAMING:
      return SL_HOST_LIVE_STREAMING;
    case SL_LIVE_HOST_STALLED:
      return SL_HOST_LIVE_STALLED;
    case SL_LIVE_HOST_WAITING:
      return SL_HOST_LIVE_WAITING;
    case SL_LIVE_HOST_ENDED:
      return SL_HOST_LIVE_ENDED;
    case SL_LIVE_HOST_FAILED:
    default:
      return SL_HOST_LIVE_FAILED;
    }
}

/* streaming first, then connecting, waiting, stalled, ended, failed */
static guint
live_rank (SlHostLive live)
{
  return live == SL_HOST_LIVE_STREAMING ? 0 : live;
}

/* Each host's live state and status, from its attachment that is the
 * furthest along (SlHostLive's order); the counts for the header; the
 * relay stalled when no host streams and one or more are stalled. */
static void
apply_live_hosts (SlSession        *self,
                  const SlSnapshot *s)
{
  guint n = self->host_items->len;
  g_autofree const SlLiveHost **best = g_new0 (const SlLiveHost *, MAX (n, 1));
  guint counts[SL_HOST_LIVE_N_STATES] = { 0 };

  if (self->attached == NULL)
    self->attached = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_set_size (self->attached, 0);
  for (guint k = 0; k < s->live_hosts->len; k++)
    {
      const SlLiveHost *lh = g_ptr_array_index (s->live_hosts, k);
      SlHostLive live = host_live (lh->state);

      if (!s->final && lh->state != SL_LIVE_HOST_ENDED && lh->state != SL_LIVE_HOST_FAILED)
        g_ptr_array_add (self->attached, g_strdup (lh->url));

      if (lh->engine_host >= n)
        continue;
      if (best[lh->engine_host] == NULL || live_rank (live) < live_rank (host_live (best[lh->engine_host]->state)))
        best[lh->engine_host] = lh;
    }
  for (guint h = 0; h < n; h++)
    {
      SlHostItem *item = g_ptr_array_index (self->host_items, h);
      const SlLiveHost *lh = best[h];
      SlHostLive live;
      g_autofree char *status = NULL;

      if (lh == NULL)
        continue;
      live = host_live (lh->state);
      status = lh->message != NULL && lh->message[0] != '\0'
        ? g_strdup_printf ("%s: %s", sl_host_live_to_string (live), lh->message)
        : g_strdup (sl_host_live_to_string (live));
      _sl_host_item_set_status (item, status);
      _sl_host_item_set_live (item, live);
      counts[live]++;
    }
  memcpy (self->n_live, counts, sizeof counts);
  set_relay_stalled (self, !s->final && counts[SL_HOST_LIVE_STALLED] > 0 &&
                           counts[SL_HOST_LIVE_STREAMING] + counts[SL_HOST_LIVE_CONNECTING] +
                           counts[SL_HOST_LIVE_WAITING] == 0);
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
    g_signal_emit (self, signals[REORDER], 0);
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

/* A problem of a host: its status, with those it had; a host the engine
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
  old = sl_host_item_get_status (item);
  if (old[0] == '\0' || sl_session_get_state (self) == SL_SESSION_STATE_LIVE)
    _sl_host_item_set_status (item, line);
  else if (strstr (old, line) == NULL)
    {
      g_autofree char *both = g_strdup_printf ("%s\n%s", old, line);

      _sl_host_item_set_status (item, both);
    }
  return FALSE;
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
              _sl_host_item_set_status (item, sl_host_item_get_status (was));
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
      notify (self, PROP_N_HOSTS);
      changes |= SL_SESSION_CHANGE_HOSTS;
    }
  else
    for (guint h = 0; h < s->hosts->len; h++)
      _sl_host_item_update (g_ptr_array_index (self->host_items, h), s);

  if (self->time_origin == 0 && s->time_start != 0)
    {
      self->time_origin = s->time_start;
      notify (self, PROP_TIME_ORIGIN);
      sl_change_list_set_origin (self->changes, self->time_origin);
    }
  /* (the visible span is the timeline's, on the reference clock: the
   * links' spans are each on its own host's clock) */
  if (s->time_start != 0 || s->time_end != 0)
    set_span (self, &self->time_start, &self->time_end, s->time_start, s->time_end,
              PROP_TIME_START, PROP_TIME_END);

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
      notify (self, PROP_N_LINKS);
      changes |= SL_SESSION_CHANGE_LINKS;
    }
  if (resort->len > 0 || n_old_hosts > 0)
    changes |= SL_SESSION_CHANGE_VALUES;
  queue_resort (self, resort, s->final);

  if (n_tree != self->n_tree_links)
    {
      self->n_tree_links = n_tree;
      notify (self, PROP_N_TREE_LINKS);
      changes |= SL_SESSION_CHANGE_TREE;
    }
  if (s->n_components != self->n_components)
    {
      self->n_components = s->n_components;
      notify (self, PROP_N_COMPONENTS);
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
        g_signal_emit (self, signals[PROBLEM], 0, p->host, p->file, p->message);
      else
        self->n_passing++;
    }
  /* read to the end without an event: nothing of it could be read */
  if (s->final && !s->cancelled)
    for (guint h = 0; h < s->hosts->len; h++)
      {
        SlHostItem *item = g_ptr_array_index (self->host_items, h);
        const SlSnapHost *sh = &g_array_index (s->hosts, SlSnapHost, h);

        if (sh->counts.events == 0 && sl_host_item_get_status (item)[0] != '\0' &&
            !sl_host_item_get_unreadable (item))
          {
            _sl_host_item_set_unreadable (item, TRUE);
            changes |= SL_SESSION_CHANGE_HOSTS;
          }
      }
  if (s->live_hosts != NULL)
    apply_live_hosts (self, s);

  if (s->plot != NULL && self->selected_link != NULL &&
      s->plot->link == sl_link_item_get_link (self->selected_link))
    set_plot (self, s->plot);

  /* live: the timeline grows on this thread, from what the session's
   * threads kept (sl_job_update_timeline()) */
  if (self->kind == SL_JOB_LIVE && self->job != NULL && sl_job_update_timeline (self->job))
    {
      changes |= SL_SESSION_CHANGE_TIMELINE;
      if (self->timeline == NULL && sl_timeline_get_n_hosts (sl_job_get_timeline (self->job)) > 0)
        {
          self->timeline = sl_job_get_timeline (self->job);
          notify (self, PROP_TIMELINE);
        }
    }

  if (s->final)
    {
      if (self->job != NULL && self->timeline == NULL && sl_job_get_timeline (self->job) != NULL)
        {
          self->timeline = sl_job_get_timeline (self->job);
          notify (self, PROP_TIMELINE);
        }
      set_relay_stalled (self, FALSE);
      if (s->failed)
        {
          set_string (self, &self->error, s->error, PROP_ERROR);
          set_progress (self, 0, NULL);
          set_state (self, SL_SESSION_STATE_FAILED);
        }
      else
        {
          /* stopped early: the fraction says how much was read */
          self->stopped = s->cancelled;
          set_progress (self, s->cancelled ? self->progress_fraction : 1, NULL);
          set_state (self, SL_SESSION_STATE_READY);
        }
    }
  else
    {
      g_autofree char *line = progress_line (self, s);

      set_progress (self, s->progress.fraction, line);
    }

  g_clear_pointer (&self->current, sl_snapshot_free);
  self->current = s;

  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[UPDATED], 0, changes);
}

static void
job_snapshot_cb (SlJob      *job,
                 SlSnapshot *snapshot,
                 gpointer    user_data)
{
  SlSession *self = user_data;
  gint64 t0 = g_get_monotonic_time ();
  gint64 dt;

  g_assert (job == self->job);

  apply_snapshot (self, snapshot);
  dt = g_get_monotonic_time () - t0;
  record_time (self->update_us, dt);
}

static SlJobOptions
job_options (SlSession *self)
{
  SlJobOptions o;

  sl_job_options_init (&o);
  if (!sl_algorithm_from_string (self->algorithm, &o.engine.algorithm))
    o.engine.algorithm = SL_ALGORITHM_HULL;
  if (!sl_tree_kind_from_string (self->tree, &o.engine.tree))
    o.engine.tree = SL_TREE_MST;
  o.update_ms = self->update_ms;
  /* the exact tree for inputs read to their end; live, a calm one */
  if (self->kind == SL_JOB_LIVE)
    o.engine.tree_margin = self->tree_margin;
  o.retention_ns = (gint64) self->retention_s * G_GINT64_CONSTANT (1000000000);
  o.pinned = self->pinned != NULL && self->pinned[0] != '\0' ? self->pinned : NULL;
  o.demo_dir = self->demo_dir;
  o.keep_events = TRUE;
  return o;
}

static char *
title_for (SlJobKind          kind,
           const char * const *inputs)
{
  g_autoptr(GString) s = g_string_new (NULL);

  if (kind == SL_JOB_DEMO)
    return g_strdup (_("Demo cluster"));
  if (kind == SL_JOB_GENERATED)
    return g_strdup (_("Generated cluster"));
  if (kind == SL_JOB_LIVE)
    {
      g_autoptr(GPtrArray) sessions = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *relay = NULL;

      /* "SESSION on RELAY", each session once */
      for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
        {
          g_autofree char *r = NULL;
          g_autofree char *session = NULL;

          if (!sl_live_parse_url (inputs[i], &r, NULL, &session, NULL))
            continue;
          if (relay == NULL)
            relay = g_strdup (r);
          if (session != NULL && !g_ptr_array_find_with_equal_func (sessions, session, g_str_equal, NULL))
            g_ptr_array_add (sessions, g_steal_pointer (&session));
        }
      for (guint i = 0; i < sessions->len; i++)
        {
          if (i > 0)
            g_string_append (s, ", ");
          g_string_append (s, g_ptr_array_index (sessions, i));
        }
      if (relay == NULL)
        return g_strdup (inputs != NULL && inputs[0] != NULL ? inputs[0] : "");
      if (s->len == 0)
        return g_steal_pointer (&relay);
      /* Translators: live sessions on a relay, as in "web on net://relay:5344" */
      return g_strdup_printf (_("%s on %s"), s->str, relay);
    }
  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (inputs[i]);

      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, base);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
start_job (SlSession          *self,
           SlJobKind           kind,
           const char * const *inputs)
{
  SlJobOptions o;
  g_autofree char *title = title_for (kind, inputs);
  char **old_inputs = self->inputs;

  drop_job (self);
  self->inputs = g_strdupv ((char **) inputs);
  g_strfreev (old_inputs);
  self->kind = kind;
  clear_model (self);
  o = job_options (self);

  if (kind == SL_JOB_GENERATED || kind == SL_JOB_DEMO)
    o.generate = &self->generate;
  if (kind == SL_JOB_GENERATED && self->generate_links != NULL)
    {
      o.generate_links = (const SlGenerateLink *) (gpointer) self->generate_links->data;
      o.n_generate_links = self->generate_links->len;
    }
  if (kind == SL_JOB_GENERATED)
    o.generate_pace_us = self->generate_pace_us;

  self->job = sl_job_new (kind, inputs, &o);
  sl_job_set_snapshot_func (self->job, job_snapshot_cb, self);

  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->title, title, PROP_TITLE);
  set_progress (self, 0, kind == SL_JOB_LIVE ? _("Connecting…") : _("Starting…"));
  set_state (self, kind == SL_JOB_LIVE ? SL_SESSION_STATE_LIVE : SL_SESSION_STATE_LOADING);
  g_object_thaw_notify (G_OBJECT (self));

  sl_job_start (self->job);
}

static void
refresh_now (SlSession *self)
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

static void
sl_session_dispose (GObject *object)
{
  SlSession *self = (SlSession *) object;

  drop_job (self);
  g_clear_handle_id (&self->resort_id, g_source_remove);
  g_clear_object (&self->selected_link);
  g_clear_object (&self->selected_host);
  g_clear_pointer (&self->plot, sl_plot_data_unref);
  if (self->host_items != NULL)
    g_ptr_array_set_size (self->host_items, 0);
  if (self->link_items != NULL)
    g_ptr_array_set_size (self->link_items, 0);
  if (self->hosts != NULL)
    g_list_store_remove_all (self->hosts);
  if (self->links != NULL)
    g_list_store_remove_all (self->links);

  G_OBJECT_CLASS (sl_session_parent_class)->dispose (object);
}

static void
sl_session_finalize (GObject *object)
{
  SlSession *self = (SlSession *) object;

  g_clear_pointer (&self->current, sl_snapshot_free);
  g_clear_object (&self->hosts);
  g_clear_object (&self->links);
  g_clear_object (&self->changes);
  g_ptr_array_unref (self->host_items);
  g_ptr_array_unref (self->link_items);
  g_ptr_array_unref (self->names);
  g_ptr_array_unref (self->unreadable);
  g_strfreev (self->inputs);
  g_clear_pointer (&self->attached, g_ptr_array_unref);
  g_free (self->title);
  g_free (self->progress_text);
  g_free (self->error);
  g_free (self->algorithm);
  g_free (self->tree);
  g_free (self->pinned);
  g_free (self->demo_dir);
  g_clear_pointer (&self->update_us, g_array_unref);
  g_clear_pointer (&self->generate_links, g_array_unref);
  g_clear_pointer (&self->resort_us, g_array_unref);
  g_array_unref (self->resort_links);
  g_free (self->resort_mark);

  G_OBJECT_CLASS (sl_session_parent_class)->finalize (object);
}

static void
sl_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  SlSession *self = SL_SESSION (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_IS_LIVE:
      g_value_set_boolean (value, sl_session_get_is_live (self));
      break;
    case PROP_PROGRESS_FRACTION:
      g_value_set_double (value, self->progress_fraction);
      break;
    case PROP_PROGRESS_TEXT:
      g_value_set_string (value, self->progress_text);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_HOSTS:
      g_value_set_object (value, self->hosts);
      break;
    case PROP_LINKS:
      g_value_set_object (value, self->links);
      break;
    case PROP_CHANGES:
      g_value_set_object (value, self->changes);
      break;
    case PROP_N_HOSTS:
      g_value_set_uint (value, self->host_items->len);
      break;
    case PROP_N_LINKS:
      g_value_set_uint (value, self->link_items->len);
      break;
    case PROP_N_TREE_LINKS:
      g_value_set_uint (value, self->n_tree_links);
      break;
    case PROP_N_COMPONENTS:
      g_value_set_uint (value, self->n_components);
      break;
    case PROP_SELECTED_LINK:
      g_value_set_object (value, self->selected_link);
      break;
    case PROP_SELECTED_HOST:
      g_value_set_object (value, self->selected_host);
      break;
    case PROP_PLOT:
      g_value_set_pointer (value, self->plot);
      break;
    case PROP_ALGORITHM:
      g_value_set_string (value, self->algorithm);
      break;
    case PROP_TREE:
      g_value_set_string (value, self->tree);
      break;
    case PROP_PINNED_REFERENCE:
      g_value_set_string (value, self->pinned);
      break;
    case PROP_UPDATE_INTERVAL:
      g_value_set_uint (value, self->update_ms);
      break;
    case PROP_TREE_MARGIN:
      g_value_set_uint (value, (guint) lround (self->tree_margin * 100));
      break;

    case PROP_RETENTION:
      g_value_set_uint (value, self->retention_s);
      break;
    case PROP_SYNCHRONIZED:
      g_value_set_boolean (value, self->synchronized);
      break;
    case PROP_TIME_ORIGIN:
      g_value_set_int64 (value, self->time_origin);
      break;
    case PROP_TIME_START:
      g_value_set_int64 (value, self->time_start);
      break;
    case PROP_TIME_END:
      g_value_set_int64 (value, self->time_end);
      break;
    case PROP_VISIBLE_START:
      g_value_set_int64 (value, self->visible_start);
      break;
    case PROP_VISIBLE_END:
      g_value_set_int64 (value, self->visible_end);
      break;
    case PROP_SELECTION_START:
      g_value_set_int64 (value, self->selected_start);
      break;
    case PROP_SELECTION_END:
      g_value_set_int64 (value, self->selected_end);
      break;
    case PROP_CAN_EXPORT:
      g_value_set_boolean (value, sl_session_get_can_export (self));
      break;
    case PROP_TIMELINE:
      g_value_set_pointer (value, self->timeline);
      break;
    case PROP_RELAY_STALLED:
      g_value_set_boolean (value, self->relay_stalled);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_session_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  SlSession *self = SL_SESSION (object);

  switch (prop_id)
    {
    case PROP_SELECTED_LINK:
      sl_session_set_selected_link (self, g_value_get_object (value));
      break;
    case PROP_SELECTED_HOST:
      sl_session_set_selected_host (self, g_value_get_object (value));
      break;
    case PROP_ALGORITHM:
      sl_session_set_algorithm (self, g_value_get_string (value));
      break;
    case PROP_TREE:
      sl_session_set_tree (self, g_value_get_string (value));
      break;
    case PROP_PINNED_REFERENCE:
      sl_session_set_pinned_reference (self, g_value_get_string (value));
      break;
    case PROP_UPDATE_INTERVAL:
      sl_session_set_update_interval (self, g_value_get_uint (value));
      break;
    case PROP_TREE_MARGIN:
      sl_session_set_tree_margin (self, g_value_get_uint (value) / 100.0);
      break;

    case PROP_RETENTION:
      sl_session_set_retention (self, g_value_get_uint (value));
      break;
    case PROP_SYNCHRONIZED:
      sl_session_set_synchronized (self, g_value_get_boolean (value));
      break;
    case PROP_VISIBLE_START:
      sl_session_set_visible_span (self, g_value_get_int64 (value), self->visible_end);
      break;
    case PROP_VISIBLE_END:
      sl_session_set_visible_span (self, self->visible_start, g_value_get_int64 (value));
      break;
    case PROP_SELECTION_START:
      sl_session_set_selected_span (self, g_value_get_int64 (value), self->selected_end);
      break;
    case PROP_SELECTION_END:
      sl_session_set_selected_span (self, self->selected_start, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_session_class_init (SlSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sl_session_dispose;
  object_class->finalize = sl_session_finalize;
  object_class->get_property = sl_session_get_property;
  object_class->set_property = sl_session_set_property;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, SL_TYPE_SESSION_STATE, SL_SESSION_STATE_EMPTY, ro);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, ro);
  properties[PROP_IS_LIVE] = g_param_spec_boolean ("is-live", NULL, NULL, FALSE, ro);
  properties[PROP_PROGRESS_FRACTION] =
    g_param_spec_double ("progress-fraction", NULL, NULL, 0, 1, 0, ro);
  properties[PROP_PROGRESS_TEXT] = g_param_spec_string ("progress-text", NULL, NULL, NULL, ro);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, ro);
  properties[PROP_HOSTS] = g_param_spec_object ("hosts", NULL, NULL, G_TYPE_LIST_MODEL, ro);
  properties[PROP_LINKS] = g_param_spec_object ("links", NULL, NULL, G_TYPE_LIST_MODEL, ro);
  properties[PROP_CHANGES] = g_param_spec_object ("changes", NULL, NULL, G_TYPE_LIST_MODEL, ro);
  properties[PROP_N_HOSTS] = g_param_spec_uint ("n-hosts", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_N_LINKS] = g_param_spec_uint ("n-links", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_N_TREE_LINKS] = g_param_spec_uint ("n-tree-links", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_N_COMPONENTS] = g_param_spec_uint ("n-components", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_SELECTED_LINK] =
    g_param_spec_object ("selected-link", NULL, NULL, SL_TYPE_LINK_ITEM, rw);
  properties[PROP_SELECTED_HOST] =
    g_param_spec_object ("selected-host", NULL, NULL, SL_TYPE_HOST_ITEM, rw);
  properties[PROP_PLOT] = g_param_spec_pointer ("plot", NULL, NULL, ro);
  properties[PROP_ALGORITHM] = g_param_spec_string ("algorithm", NULL, NULL, "hull", rw);
  properties[PROP_TREE] = g_param_spec_string ("tree", NULL, NULL, "mst", rw);
  properties[PROP_PINNED_REFERENCE] = g_param_spec_string ("pinned-reference", NULL, NULL, "", rw);
  properties[PROP_UPDATE_INTERVAL] =
    g_param_spec_uint ("update-interval", NULL, NULL, 10, 60000, 100, rw);
  /* in percent, for the settings and the preferences */
  properties[PROP_TREE_MARGIN] =
    g_param_spec_uint ("tree-margin", NULL, NULL, 0, 1000, (guint) (SL_GRAPH_LIVE_MARGIN * 100), rw);
  /* seconds, 0: keep everything */
  properties[PROP_RETENTION] =
    g_param_spec_uint ("retention", NULL, NULL, 0, SL_SESSION_MAX_RETENTION_S, SL_SESSION_DEFAULT_RETENTION_S, rw);
  properties[PROP_SYNCHRONIZED] = g_param_spec_boolean ("synchronized", NULL, NULL, TRUE, rw);
  properties[PROP_TIME_ORIGIN] =
    g_param_spec_int64 ("time-origin", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_TIME_START] =
    g_param_spec_int64 ("time-start", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_TIME_END] =
    g_param_spec_int64 ("time-end", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_VISIBLE_START] =
    g_param_spec_int64 ("visible-start", NULL, NULL, G_MININT64, G_MAXINT64, 0, rw);
  properties[PROP_VISIBLE_END] =
    g_param_spec_int64 ("visible-end", NULL, NULL, G_MININT64, G_MAXINT64, 0, rw);
  properties[PROP_SELECTION_START] =
    g_param_spec_int64 ("selection-start", NULL, NULL, G_MININT64, G_MAXINT64, 0, rw);
  properties[PROP_SELECTION_END] =
    g_param_spec_int64 ("selection-end", NULL, NULL, G_MININT64, G_MAXINT64, 0, rw);
  properties[PROP_CAN_EXPORT] = g_param_spec_boolean ("can-export", NULL, NULL, FALSE, ro);
  properties[PROP_TIMELINE] = g_param_spec_pointer ("timeline", NULL, NULL, ro);
  properties[PROP_RELAY_STALLED] = g_param_spec_boolean ("relay-stalled", NULL, NULL, FALSE, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SlSession::updated:
   * @changes: #SlSessionChanges
   *
   * Emitted on the main thread after a coalesced update from the worker
   * has been applied to the items.
   */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, SL_TYPE_SESSION_CHANGES);

  /**
   * SlSession::problem:
   * @host: (nullable): host name
   * @file: the file or folder at fault
   * @message: what is wrong
   *
   * A trace, file or host could not be read completely; the rest goes on.
   */
  signals[PROBLEM] = g_signal_new ("problem", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                   G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * SlSession::reorder:
   *
   * Values the links (and with them the hosts) are sorted by changed
   * since the last emission: sorted views of sl_session_get_links() and
   * sl_session_get_hosts() sort again now (at most every 1.5 s while
   * packets arrive, so that rows do not jump about).
   */
  signals[REORDER] = g_signal_new ("reorder", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sl_session_init (SlSession *self)
{
  g_autofree char *dir = g_strdup_printf ("demo-%s", DEMO_VERSION);

  self->names = g_ptr_array_new_with_free_func (g_free);
  self->resort_links = g_array_new (FALSE, FALSE, sizeof (guint));
  self->update_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->resort_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->host_items = g_ptr_array_new_with_free_func (g_object_unref);
  self->unreadable = g_ptr_array_new_with_free_func (g_object_unref);
  self->link_items = g_ptr_array_new_with_free_func (g_object_unref);
  self->hosts = g_list_store_new (SL_TYPE_HOST_ITEM);
  self->links = g_list_store_new (SL_TYPE_LINK_ITEM);
  self->changes = sl_change_list_new (self->names);
  self->algorithm = g_strdup ("hull");
  self->tree = g_strdup ("mst");
  self->pinned = g_strdup ("");
  self->update_ms = 100;
  self->tree_margin = SL_GRAPH_LIVE_MARGIN;
  self->retention_s = SL_SESSION_DEFAULT_RETENTION_S;
  self->synchronized = TRUE;
  self->demo_dir = g_build_filename (g_get_user_cache_dir (), "syncline", dir, NULL);

  /* the demo: a small web application plus a pair that never talks to it */
  sl_generate_options_init (&self->generate);
  self->generate.n_hosts = 9;
  self->generate.components = 2;
  self->generate.duration_ns = 20 * G_GINT64_CONSTANT (1000000000);
  self->generate.events = 400000;
  self->generate.seed = 5;
}

SlSession *
sl_session_new (void)
{
  return g_object_new (SL_TYPE_SESSION, NULL);
}

/* Folders are read as LTTng traces; files as LTTV unit-case text. */
void
sl_session_open (SlSession          *self,
                 const char * const *paths)
{
  gboolean files = FALSE;

  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (paths != NULL && paths[0] != NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    if (g_file_test (paths[i], G_FILE_TEST_IS_REGULAR))
      files = TRUE;
  start_job (self, files ? SL_JOB_LTTV_TEXT : SL_JOB_FOLDERS, paths);
}

void
sl_session_open_demo (SlSession *self)
{
  const char *none[] = { NULL };

  g_return_if_fail (SL_IS_SESSION (self));

  start_job (self, SL_JOB_DEMO, none);
}

void
sl_session_open_live (SlSession          *self,
                      const char * const *urls)
{
  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (urls != NULL && urls[0] != NULL);

  start_job (self, SL_JOB_LIVE, urls);
}

void
sl_session_reload (SlSession *self)
{
  g_auto(GStrv) inputs = NULL;

  g_return_if_fail (SL_IS_SESSION (self));

  if (self->state == SL_SESSION_STATE_EMPTY)
    return;
  inputs = g_strdupv (self->inputs);
  start_job (self, self->kind, (const char * const *) inputs);
}

void
sl_session_cancel (SlSession *self)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (self->job != NULL)
    sl_job_cancel (self->job);
}

void
sl_session_close (SlSession *self)
{
  g_return_if_fail (SL_IS_SESSION (self));

  drop_job (self);
  clear_model (self);
  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->title, NULL, PROP_TITLE);
  set_state (self, SL_SESSION_STATE_EMPTY);
  g_object_thaw_notify (G_OBJECT (self));
}

SlSessionState
sl_session_get_state (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), SL_SESSION_STATE_EMPTY);
  return self->state;
}

const char *
sl_session_get_title (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->title;
}

const char * const *
sl_session_get_inputs (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return (const char * const *) self->inputs;
}

gboolean
sl_session_get_is_live (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  return self->state == SL_SESSION_STATE_LIVE;
}

/* The last read was stopped before its end (what was read is shown). */
gboolean
sl_session_get_stopped (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  return self->stopped;
}

double
sl_session_get_progress_fraction (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->progress_fraction;
}

const char *
sl_session_get_progress_text (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->progress_text;
}

const char *
sl_session_get_error (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->error;
}

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
  notify (self, PROP_SELECTED_LINK);

  set_plot (self, NULL);
  if (link != NULL && self->job != NULL)
    {
      g_autoptr(SlPlotData) plot = NULL;

      sl_job_request_plot (self->job, sl_link_item_get_link (link));
      plot = sl_job_build_plot_now (self->job, sl_link_item_get_link (link));
      if (plot != NULL)
        set_plot (self, plot);
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
    notify (self, PROP_SELECTED_HOST);
}

SlPlotData *
sl_session_get_plot (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->plot;
}

const char *
sl_session_get_algorithm (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->algorithm;
}

/* The engine's estimator and tree are fixed when it is made: a change
 * reads the inputs again (a live session attaches again). */
void
sl_session_set_algorithm (SlSession  *self,
                          const char *algorithm)
{
  SlAlgorithm a;

  g_return_if_fail (SL_IS_SESSION (self));

  if (!sl_algorithm_from_string (algorithm, &a) || g_strcmp0 (self->algorithm, algorithm) == 0)
    return;
  set_string (self, &self->algorithm, algorithm, PROP_ALGORITHM);
  sl_session_reload (self);
}

const char *
sl_session_get_tree (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->tree;
}

void
sl_session_set_tree (SlSession  *self,
                     const char *tree)
{
  SlTreeKind k;

  g_return_if_fail (SL_IS_SESSION (self));

  if (!sl_tree_kind_from_string (tree, &k) || g_strcmp0 (self->tree, tree) == 0)
    return;
  set_string (self, &self->tree, tree, PROP_TREE);
  sl_session_reload (self);
}

const char *
sl_session_get_pinned_reference (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->pinned;
}

void
sl_session_set_pinned_reference (SlSession  *self,
                                 const char *host)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (host == NULL)
    host = "";
  if (g_strcmp0 (self->pinned, host) == 0)
    return;
  set_string (self, &self->pinned, host, PROP_PINNED_REFERENCE);
  if (self->job != NULL)
    {
      sl_job_pin_reference (self->job, host[0] != '\0' ? host : NULL);
      refresh_now (self);
    }
}

guint
sl_session_get_update_interval (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 100);
  return self->update_ms;
}

/* Takes effect with the next input. */
void
sl_session_set_update_interval (SlSession *self,
                                guint      ms)
{
  g_return_if_fail (SL_IS_SESSION (self));

  ms = CLAMP (ms, 10, 60000);
  if (self->update_ms == ms)
    return;
  self->update_ms = ms;
  notify (self, PROP_UPDATE_INTERVAL);
}

double
sl_session_get_tree_margin (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->tree_margin;
}

/**
 * sl_session_set_tree_margin:
 * @margin: the tree's hysteresis for live sessions (0.1: a link replaces a
 *   tree link only when its bound is 10 % lower); inputs read to their end
 *   get the exact tree
 *
 * Takes effect with the next input.
 */
void
sl_session_set_tree_margin (SlSession *self,
                            double     margin)
{
  g_return_if_fail (SL_IS_SESSION (self));

  margin = CLAMP (margin, 0.0, 10.0);
  if (self->tree_margin == margin)
    return;
  self->tree_margin = margin;
  notify (self, PROP_TREE_MARGIN);
}

guint
sl_session_get_retention (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->retention_s;
}

/**
 * sl_session_set_retention:
 * @seconds: live sessions: the span of each host's newest events the
 *   timeline keeps (events, states and messages before it are dropped);
 *   0 keeps everything. The synchronization keeps what it needs.
 *
 * Takes effect at once on a running live session.
 */
void
sl_session_set_retention (SlSession *self,
                          guint      seconds)
{
  g_return_if_fail (SL_IS_SESSION (self));

  seconds = MIN (seconds, SL_SESSION_MAX_RETENTION_S);
  if (self->retention_s == seconds)
    return;
  self->retention_s = seconds;
  if (self->job != NULL && self->kind == SL_JOB_LIVE)
    sl_job_set_retention (self->job, (gint64) seconds * G_GINT64_CONSTANT (1000000000));
  notify (self, PROP_RETENTION);
}

gboolean
sl_session_get_synchronized (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), TRUE);
  return self->synchronized;
}

void
sl_session_set_synchronized (SlSession *self,
                             gboolean   synchronized)
{
  g_return_if_fail (SL_IS_SESSION (self));

  synchronized = !!synchronized;
  if (self->synchronized == synchronized)
    return;
  self->synchronized = synchronized;
  notify (self, PROP_SYNCHRONIZED);
}

gint64
sl_session_get_time_origin (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->time_origin;
}

void
sl_session_get_time_range (SlSession *self,
                           gint64    *start,
                           gint64    *end)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (start != NULL)
    *start = self->time_start;
  if (end != NULL)
    *end = self->time_end;
}

void
sl_session_get_visible_span (SlSession *self,
                             gint64    *start,
                             gint64    *end)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (start != NULL)
    *start = self->visible_start;
  if (end != NULL)
    *end = self->visible_end;
}

void
sl_session_set_visible_span (SlSession *self,
                             gint64     start,
                             gint64     end)
{
  g_return_if_fail (SL_IS_SESSION (self));

  g_object_freeze_notify (G_OBJECT (self));
  set_span (self, &self->visible_start, &self->visible_end, start, end,
            PROP_VISIBLE_START, PROP_VISIBLE_END);
  g_object_thaw_notify (G_OBJECT (self));
}

void
sl_session_get_selected_span (SlSession *self,
                              gint64    *start,
                              gint64    *end)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (start != NULL)
    *start = self->selected_start;
  if (end != NULL)
    *end = self->selected_end;
}

void
sl_session_set_selected_span (SlSession *self,
                              gint64     start,
                              gint64     end)
{
  g_return_if_fail (SL_IS_SESSION (self));

  g_object_freeze_notify (G_OBJECT (self));
  set_span (self, &self->selected_start, &self->selected_end, start, end,
            PROP_SELECTION_START, PROP_SELECTION_END);
  g_object_thaw_notify (G_OBJECT (self));
}

/* The timeline model of the input: once it is read (trace folders), or
 * as it streams (live: it grows in the ::updated emissions that carry
 * SL_SESSION_CHANGE_TIMELINE; read the event stores between
 * sl_session_lock_events() and sl_session_unlock_events()). */
SlTimeline *
sl_session_get_timeline (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->timeline;
}

const SlEventStore *
sl_session_get_event_store (SlSession *self,
                            guint      host)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->timeline != NULL && self->job != NULL ? sl_job_get_event_store (self->job, host) : NULL;
}

/* Main thread: the live session's threads append to the event stores
 * while it streams; whoever reads them (the timeline's row events, the
 * stores' names) holds this, briefly. No-op for other inputs. */
void
sl_session_lock_events (SlSession *self)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (self->timeline != NULL && self->job != NULL)
    sl_job_lock_events (self->job);
}

void
sl_session_unlock_events (SlSession *self)
{
  g_return_if_fail (SL_IS_SESSION (self));

  if (self->timeline != NULL && self->job != NULL)
    sl_job_unlock_events (self->job);
}

gboolean
sl_session_get_can_export (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);
  return self->state == SL_SESSION_STATE_READY || self->state == SL_SESSION_STATE_LIVE;
}

typedef struct
{
  SlSession *self;
  char      *text;
} ExportData;

static void
export_json_cb (SlEngine *engine,
                gpointer  user_data)
{
  ExportData *d = user_data;
  g_autoptr(SlJsonOut) out = sl_json_out_new_string ();
  g_autoptr(GPtrArray) problems = NULL;
  SlReportTiming timing;
  SlReportJsonOptions options;

  timing.elapsed_s = (double) sl_job_get_elapsed_us (d->self->job) / 1e6;
  timing.cpu_s = sl_job_get_cpu_s (d->self->job);
  sl_report_json_options_init (&options);
  options.timing = &timing;
  if (d->self->kind == SL_JOB_FOLDERS || d->self->kind == SL_JOB_DEMO || d->self->kind == SL_JOB_LIVE)
    options.problems = problems = sl_job_dup_problems (d->self->job);
  sl_report_write_json (engine, &options, out);
  d->text = sl_json_out_steal_string (out);
}

/* The JSON report of `syncline-cli sync --json` (the journal summarized),
 * from the engine itself, written without a tree of nodes. */
char *
sl_session_dup_report_json (SlSession  *self,
                            GError    **error)
{
  ExportData d = { self, NULL };

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  if (self->job == NULL || !sl_session_get_can_export (self) ||
      !sl_job_with_engine (self->job, export_json_cb, &d))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("The report can be exported once the input is read"));
      return NULL;
    }
  return d.text;
}

char *
sl_session_dup_links_csv (SlSession  *self,
                          GError    **error)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  if (self->current == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, _("Nothing to export yet"));
      return NULL;
    }
  return sl_snapshot_links_to_csv (self->current);
}

char *
sl_session_dup_link_diagnosis (SlSession  *self,
                               SlLinkItem *link)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  g_return_val_if_fail (SL_IS_LINK_ITEM (link), NULL);

  if (self->current == NULL || sl_link_item_get_link (link) >= self->current->links->len)
    return g_strdup ("");
  return sl_diagnose_link (self->current, sl_link_item_get_link (link));
}

char *
sl_session_dup_host_diagnosis (SlSession  *self,
                               SlHostItem *host)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  g_return_val_if_fail (SL_IS_HOST_ITEM (host), NULL);

  if (self->current == NULL || sl_host_item_get_host (host) >= self->current->hosts->len)
    return g_strdup ("");
  return sl_diagnose_host (self->current, sl_host_item_get_host (host));
}

/* Private */

void
_sl_session_open_generated (SlSession               *self,
                            const SlGenerateOptions *options,
                            const SlGenerateLink    *links,
                            guint                    n_links,
                            gint64                   pace_us)
{
  const char *none[] = { NULL };

  g_return_if_fail (SL_IS_SESSION (self));

  self->generate = *options;
  self->generate_pace_us = pace_us;
  g_clear_pointer (&self->generate_links, g_array_unref);
  if (links != NULL)
    {
      self->generate_links = g_array_new (FALSE, FALSE, sizeof (SlGenerateLink));
      g_array_append_vals (self->generate_links, links, n_links);
    }
  start_job (self, SL_JOB_GENERATED, none);
}

void
_sl_session_set_demo_dir (SlSession  *self,
                          const char *dir)
{
  g_return_if_fail (SL_IS_SESSION (self));

  g_free (self->demo_dir);
  self->demo_dir = g_strdup (dir);
}

GArray *
_sl_session_get_resort_times (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->resort_us;
}

GArray *
_sl_session_get_update_times (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->update_us;
}

const SlSnapshot *
_sl_session_get_snapshot (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->current;
}

/**
 * sl_session_get_n_live_hosts:
 * @live: a live state
 *
 * Returns: how many hosts of the live session are in @live
 */
guint
sl_session_get_n_live_hosts (SlSession  *self,
                             SlHostLive  live)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  g_return_val_if_fail (live < SL_HOST_LIVE_N_STATES, 0);

  return self->n_live[live];
}

/**
 * sl_session_get_relay_stalled:
 *
 * Returns: %TRUE while no host of the live session streams and one or
 *   more have not heard from the relay for the stall time: the relay (or
 *   the network to it) is stalled as a whole
 */
gboolean
sl_session_get_relay_stalled (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);

  return self->relay_stalled;
}

/**
 * sl_session_get_n_passing_problems:
 *
 * Returns: how many problems were passing states of a live session (a
 *   stall and its end, of a host or of the relay), shown as states rather
 *   than announced with #SlSession::problem
 */
guint
sl_session_get_n_passing_problems (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);

  return self->n_passing;
}

/**
 * sl_session_dup_attached_urls:
 *
 * Returns: (transfer full): the URLs of the live attachments of the
 *   running live session that are attached now (connecting, streaming,
 *   stalled or waiting), as the last update gave them; empty otherwise
 */
char **
sl_session_dup_attached_urls (SlSession *self)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  g_return_val_if_fail (SL_IS_SESSION (self), NULL);

  for (guint i = 0; self->state == SL_SESSION_STATE_LIVE && self->attached != NULL && i < self->attached->len; i++)
    g_strv_builder_add (b, g_ptr_array_index (self->attached, i));
  return g_strv_builder_end (b);
}

/**
 * sl_session_attach_live:
 * @add: (nullable): relay URLs to attach besides what is attached
 * @remove: (nullable): relay URLs to detach (what they received stays)
 *
 * Changes the attachments of a running live session in place: nothing
 * read so far is lost. The inputs (reloading, saving) gain @add.
 *
 * Returns: %FALSE with @error set when no live session runs (nothing is
 *   changed then) or an URL is not a relay URL
 */
gboolean
sl_session_attach_live (SlSession          *self,
                        const char * const *add,
                        const char * const *remove,
                        GError            **error)
{
  g_return_val_if_fail (SL_IS_SESSION (self), FALSE);

  if (self->state != SL_SESSION_STATE_LIVE || self->job == NULL)
    {
      g_set_error (error, SL_ERROR, SL_ERROR_INVALID, _("No live session runs"));
      return FALSE;
    }
  for (guint i = 0; remove != NULL && remove[i] != NULL; i++)
    sl_job_remove_live_url (self->job, remove[i]);
  for (guint i = 0; add != NULL && add[i] != NULL; i++)
    {
      g_autoptr(GStrvBuilder) b = NULL;

      if (!sl_job_add_live_url (self->job, add[i], error))
        return FALSE;
      if (self->inputs != NULL && g_strv_contains ((const char * const *) self->inputs, add[i]))
        continue;
      b = g_strv_builder_new ();
      if (self->inputs != NULL)
        g_strv_builder_addv (b, (const char **) self->inputs);
      g_strv_builder_add (b, add[i]);
      g_strfreev (self->inputs);
      self->inputs = g_strv_builder_end (b);
    }
  return TRUE;
}
