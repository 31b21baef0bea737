/* sl-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The session object: its properties and signals, the fields' setters
 * that notify, starting and closing a job. The rest is split by concern
 * around sl-session-internal.h: -update (snapshots applied), -items
 * (hosts and links), -settings, -time (spans and the timeline), -live,
 * -export.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-model-enums.h"
#include "sl-live.h"
#include "sl-session-internal.h"

#define DEMO_VERSION "2"

G_DEFINE_FINAL_TYPE (SlSession, sl_session, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
guint _sl_session_signals[N_SIGNALS];

void
_sl_session_notify (SlSession *self,
                    guint      prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

void
_sl_session_set_string (SlSession   *self,
                        char       **field,
                        const char  *value,
                        guint        prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  _sl_session_notify (self, prop);
}

void
_sl_session_set_state (SlSession      *self,
                       SlSessionState  state)
{
  gboolean was_live = sl_session_get_is_live (self);
  gboolean could_export = sl_session_get_can_export (self);

  if (self->state == state)
    return;
  self->state = state;
  _sl_session_notify (self, PROP_STATE);
  if (was_live != sl_session_get_is_live (self))
    _sl_session_notify (self, PROP_IS_LIVE);
  if (could_export != sl_session_get_can_export (self))
    _sl_session_notify (self, PROP_CAN_EXPORT);
}

void
_sl_session_set_progress (SlSession  *self,
                          double      fraction,
                          const char *text)
{
  if (self->progress_fraction != fraction)
    {
      self->progress_fraction = fraction;
      _sl_session_notify (self, PROP_PROGRESS_FRACTION);
    }
  _sl_session_set_string (self, &self->progress_text, text, PROP_PROGRESS_TEXT);
}

void
_sl_session_set_plot (SlSession  *self,
                      SlPlotData *plot)
{
  if (self->plot == plot)
    return;
  g_clear_pointer (&self->plot, sl_plot_data_unref);
  self->plot = plot != NULL ? sl_plot_data_ref (plot) : NULL;
  _sl_session_notify (self, PROP_PLOT);
}

/* @span is ordered here: the setters take the ends in either order */
void
_sl_session_set_span (SlSession  *self,
                      SlTimeSpan *field,
                      SlTimeSpan  span,
                      guint       prop)
{
  span = sl_time_span_new (span.begin, span.end);
  if (sl_time_span_equal (*field, span))
    return;
  *field = span;
  _sl_session_notify (self, prop);
}

void
_sl_session_set_relay_stalled (SlSession *self,
                               gboolean   stalled)
{
  if (self->relay_stalled == stalled)
    return;
  self->relay_stalled = stalled;
  _sl_session_notify (self, PROP_RELAY_STALLED);
}

static void
clear_model (SlSession *self)
{
  guint n_hosts = self->host_items->len;
  guint n_links = self->link_items->len;

  g_object_freeze_notify (G_OBJECT (self));

  sl_session_set_selected_link (self, NULL);
  sl_session_set_selected_host (self, NULL);
  _sl_session_set_plot (self, NULL);
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
    _sl_session_notify (self, PROP_N_HOSTS);
  if (n_links > 0)
    _sl_session_notify (self, PROP_N_LINKS);
  if (self->n_tree_links != 0)
    {
      self->n_tree_links = 0;
      _sl_session_notify (self, PROP_N_TREE_LINKS);
    }
  if (self->n_components != 0)
    {
      self->n_components = 0;
      _sl_session_notify (self, PROP_N_COMPONENTS);
    }
  memset (self->n_live, 0, sizeof self->n_live);
  _sl_session_set_relay_stalled (self, FALSE);
  _sl_session_set_string (self, &self->error, NULL, PROP_ERROR);
  _sl_session_set_progress (self, 0, NULL);
  self->stopped = FALSE;
  self->time_origin = 0;
  _sl_session_notify (self, PROP_TIME_ORIGIN);
  _sl_session_set_span (self, &self->time_span, (SlTimeSpan) { 0, 0 }, PROP_TIME_SPAN);
  _sl_session_set_span (self, &self->visible_span, (SlTimeSpan) { 0, 0 }, PROP_VISIBLE_SPAN);
  _sl_session_set_span (self, &self->selected_span, (SlTimeSpan) { 0, 0 }, PROP_SELECTED_SPAN);

  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, _sl_session_signals[UPDATED], 0, SL_SESSION_CHANGE_RESET);
}

static void
drop_job (SlSession *self)
{
  /* views let go of the job's timeline before it is freed */
  if (self->timeline != NULL)
    {
      self->timeline = NULL;
      _sl_session_notify (self, PROP_TIMELINE);
    }
  if (self->job != NULL)
    sl_job_close (g_steal_pointer (&self->job));
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
  if (kind == SL_JOB_FOLDERS)
    o.transforms = self->transforms;

  self->job = sl_job_new (kind, inputs, &o);
  sl_job_set_snapshot_func (self->job, _sl_session_job_snapshot_cb, self);

  g_object_freeze_notify (G_OBJECT (self));
  _sl_session_set_string (self, &self->title, title, PROP_TITLE);
  _sl_session_set_progress (self, 0, kind == SL_JOB_LIVE ? _("Connecting…") : _("Starting…"));
  _sl_session_set_state (self, kind == SL_JOB_LIVE ? SL_SESSION_STATE_LIVE : SL_SESSION_STATE_LOADING);
  g_object_thaw_notify (G_OBJECT (self));

  sl_job_start (self->job);
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

  if (self->reaper != NULL)
    g_thread_pool_free (self->reaper, FALSE, TRUE);
  g_clear_pointer (&self->current, sl_snapshot_free);
  g_clear_object (&self->hosts);
  g_clear_object (&self->links);
  g_clear_object (&self->changes);
  g_ptr_array_unref (self->host_items);
  g_ptr_array_unref (self->link_items);
  g_ptr_array_unref (self->names);
  g_ptr_array_unref (self->unreadable);
  g_strfreev (self->inputs);
  g_free (self->transforms);
  g_clear_pointer (&self->attached, g_ptr_array_unref);
  g_free (self->title);
  g_free (self->progress_text);
  g_free (self->error);
  g_free (self->algorithm);
  g_free (self->tree);
  g_free (self->pinned);
  g_free (self->demo_dir);
  g_clear_pointer (&self->update_us, g_array_unref);
  g_clear_pointer (&self->update_cpu_us, g_array_unref);
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
    case PROP_TIME_SPAN:
      g_value_set_boxed (value, &self->time_span);
      break;
    case PROP_VISIBLE_SPAN:
      g_value_set_boxed (value, &self->visible_span);
      break;
    case PROP_SELECTED_SPAN:
      g_value_set_boxed (value, &self->selected_span);
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
    case PROP_VISIBLE_SPAN:
      sl_session_set_visible_span (self, g_value_get_boxed (value));
      break;
    case PROP_SELECTED_SPAN:
      sl_session_set_selected_span (self, g_value_get_boxed (value));
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
  /* SlTimeSpans, on the reference clock; setting NULL empties a span */
  properties[PROP_TIME_SPAN] = g_param_spec_boxed ("time-span", NULL, NULL, SL_TYPE_TIME_SPAN, ro);
  properties[PROP_VISIBLE_SPAN] = g_param_spec_boxed ("visible-span", NULL, NULL, SL_TYPE_TIME_SPAN, rw);
  properties[PROP_SELECTED_SPAN] = g_param_spec_boxed ("selected-span", NULL, NULL, SL_TYPE_TIME_SPAN, rw);
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
  _sl_session_signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                               0, NULL, NULL, NULL, G_TYPE_NONE, 1, SL_TYPE_SESSION_CHANGES);

  /**
   * SlSession::problem:
   * @host: (nullable): host name
   * @file: the file or folder at fault
   * @message: what is wrong
   *
   * A trace, file or host could not be read completely; the rest goes on.
   */
  _sl_session_signals[PROBLEM] = g_signal_new ("problem", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
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
  _sl_session_signals[REORDER] = g_signal_new ("reorder", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                               0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sl_session_init (SlSession *self)
{
  g_autofree char *dir = g_strdup_printf ("demo-%s", DEMO_VERSION);

  self->names = g_ptr_array_new_with_free_func (g_free);
  self->resort_links = g_array_new (FALSE, FALSE, sizeof (guint));
  self->update_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->update_cpu_us = g_array_new (FALSE, FALSE, sizeof (gint64));
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
  g_clear_pointer (&self->transforms, g_free);
  start_job (self, files ? SL_JOB_LTTV_TEXT : SL_JOB_FOLDERS, paths);
}

/**
 * sl_session_open_with_transforms:
 * @folders: trace folders
 * @transforms: a file of `syncline-cli sync --save-transforms`
 *
 * Reads @folders as sl_session_open() does, but the hosts @transforms names
 * keep its relations and bounds (marked as coming from it) instead of being
 * synchronized again: the full traces of a set whose extracts were
 * synchronized elsewhere. The job fails with the file's error if it cannot
 * be read.
 */
void
sl_session_open_with_transforms (SlSession          *self,
                                 const char * const *folders,
                                 const char         *transforms)
{
  g_return_if_fail (SL_IS_SESSION (self));
  g_return_if_fail (folders != NULL && folders[0] != NULL);
  g_return_if_fail (transforms != NULL);

  g_free (self->transforms);
  self->transforms = g_strdup (transforms);
  start_job (self, SL_JOB_FOLDERS, folders);
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
  _sl_session_set_string (self, &self->title, NULL, PROP_TITLE);
  _sl_session_set_state (self, SL_SESSION_STATE_EMPTY);
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

/* The main thread's CPU time for each of those updates: on a loaded
 * machine the wall time measures the queue for a processor. */
GArray *
_sl_session_get_update_cpu_times (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->update_cpu_us;
}

guint
_sl_session_get_n_captures (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), 0);
  return self->n_captures;
}

const SlSnapshot *
_sl_session_get_snapshot (SlSession *self)
{
  g_return_val_if_fail (SL_IS_SESSION (self), NULL);
  return self->current;
}
