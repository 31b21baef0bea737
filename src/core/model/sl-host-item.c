/* sl-host-item.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-item-notify.h"
#include "sl-host-item.h"
#include "sl-report.h"
#include "sl-units.h"

struct _SlHostItem
{
  GObject     parent_instance;

  guint       host;
  char       *name;
  char       *key;         /* unreadable: the reader's name for it */
  char       *reference_name;
  char       *path_text;
  char       *status;
  char       *status_text;
  SlRelation *relation;
  SlSnapHost  info;
  gboolean    valid;
  gboolean    unreadable;
  gboolean    linked;
  SlHostLive  live;
};

enum {
  PROP_0,
  PROP_HOST,
  PROP_NAME,
  PROP_REFERENCE_NAME,
  PROP_IS_REFERENCE,
  PROP_COMPONENT,
  PROP_PATH_TEXT,
  PROP_BOUND,
  PROP_BOUND_TEXT,
  PROP_TRANSFORM_TEXT,
  PROP_EVENTS,
  PROP_PACKET_EVENTS,
  PROP_MATCHED,
  PROP_UNMATCHED,
  PROP_STATUS,
  PROP_STATE,
  PROP_STATE_TEXT,
  PROP_OFFSET_TEXT,
  PROP_DRIFT_TEXT,
  PROP_SUMMARY,
  PROP_OFFSET,
  PROP_DRIFT,
  PROP_LIVE,
  PROP_LIVE_TEXT,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (SlHostItem, sl_host_item, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static guint64
unmatched (const SlSnapHost *h)
{
  return h->counts.packet_events > h->counts.matched ? h->counts.packet_events - h->counts.matched : 0;
}

/* The exact map, as the JSON report has it. */
static char *
transform_text (const SlSnapHost *h,
                gboolean          is_reference)
{
  g_autofree char *slope = NULL;
  g_autofree char *offset = NULL;

  if (is_reference)
    return g_strdup (_("identity (reference)"));
  slope = sl_transform_slope_to_string (&h->to_reference);
  offset = sl_transform_offset_to_string (&h->to_reference);
  return g_strdup_printf ("%s · t %s %s ns", slope, offset[0] == '-' ? "−" : "+",
                          offset[0] == '-' ? offset + 1 : offset);
}

static gboolean
has_map (SlHostItem *self)
{
  return self->valid && !self->unreadable && self->info.reference != self->host &&
         self->info.reference != SL_HOST_NONE;
}

/* The piece of the map where the host's data starts, as the text report
 * takes it: with clocks that wander, the representative piece
 * (to_reference, the one that covers most events) is another line, and
 * its offset and drift there are not the map's. */
static const SlTransform *
map_at_start (SlHostItem *self)
{
  if (self->relation != NULL && self->info.data_start != G_MAXINT64)
    return sl_relation_piece_at (self->relation, self->info.data_start);
  return &self->info.to_reference;
}

/* Offset to the reference where the host's data starts, with the
 * reference's time of day there: with @zone as the tooltip says it,
 * without as the table's cell, whose column's title names the zone. */
static char *
offset_text (SlHostItem *self,
             gboolean    zone)
{
  if (sl_host_item_get_is_reference (self))
    return g_strdup (self->linked ? _("0 (reference)") : "—");
  if (!has_map (self) || self->info.data_start == G_MAXINT64)
    return g_strdup ("—");
  return zone ? sl_report_offset_at (map_at_start (self), self->info.data_start)
              : sl_report_offset_cell (map_at_start (self), self->info.data_start);
}

/* For sorting: ns, G_MAXDOUBLE where there is none */
static double
offset_ns (SlHostItem *self)
{
  if (sl_host_item_get_is_reference (self) && self->linked)
    return 0;
  if (!has_map (self) || self->info.data_start == G_MAXINT64)
    return G_MAXDOUBLE;
  return sl_transform_apply_delta (map_at_start (self), self->info.data_start);
}

/* The piece the drift is read from: where its path's packets start
 * (sl_report_drift_start()), as the text report has it. */
static const SlTransform *
map_at_drift_start (SlHostItem *self)
{
  if (self->relation != NULL && self->info.drift_start != G_MAXINT64)
    return sl_relation_piece_at (self->relation, self->info.drift_start);
  return &self->info.to_reference;
}

/* @zone: the tooltip's words, the report's: "… from 23:16:12.4 UTC" when
 * the drift is read later than the data's start; the table's cell has the
 * drift alone (its column's title names no time) */
static char *
drift_text (SlHostItem *self,
            gboolean    zone)
{
  if (!has_map (self))
    return g_strdup ("—");
  if (self->info.data_start == G_MAXINT64 || !zone)
    return sl_units_drift (map_at_drift_start (self)->drift);
  return sl_report_drift_text (map_at_start (self), self->info.data_start, map_at_drift_start (self),
                               self->info.drift_start);
}

static void
sl_host_item_finalize (GObject *object)
{
  SlHostItem *self = (SlHostItem *) object;

  g_free (self->name);
  g_free (self->key);
  g_free (self->reference_name);
  g_free (self->path_text);
  g_free (self->status);
  g_free (self->status_text);
  g_clear_pointer (&self->relation, sl_relation_unref);

  G_OBJECT_CLASS (sl_host_item_parent_class)->finalize (object);
}

static void
sl_host_item_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SlHostItem *self = SL_HOST_ITEM (object);

  switch (prop_id)
    {
    case PROP_HOST:
      g_value_set_uint (value, self->host);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_REFERENCE_NAME:
      /* a host alone is on no one's clock; one placed as a best effort
       * says so */
      if (sl_host_item_get_state (self) <= SL_HOST_STATE_SYNCHRONIZED)
        g_value_set_string (value, self->reference_name);
      else if (self->valid && !self->unreadable && self->info.best_effort)
        g_value_take_string (value, g_strdup_printf (_("%s (best effort)"), self->reference_name));
      else
        g_value_set_string (value, "—");
      break;
    case PROP_IS_REFERENCE:
      g_value_set_boolean (value, sl_host_item_get_is_reference (self));
      break;
    case PROP_COMPONENT:
      g_value_set_uint (value, self->info.component);
      break;
    case PROP_PATH_TEXT:
      /* as the reference: a host alone has no path (it read its own name) */
      if (sl_host_item_get_state (self) <= SL_HOST_STATE_SYNCHRONIZED ||
          (self->valid && !self->unreadable && self->info.best_effort))
        g_value_set_string (value, self->path_text);
      else
        g_value_set_string (value, "—");
      break;
    case PROP_BOUND:
      g_value_set_double (value, isfinite (self->info.bound_ns) ? self->info.bound_ns / 1e3 : G_MAXDOUBLE);
      break;
    case PROP_BOUND_TEXT:
      if (sl_host_item_get_state (self) == SL_HOST_STATE_REFERENCE)
        g_value_set_string (value, "0");
      else if (sl_host_item_get_state (self) == SL_HOST_STATE_UNSYNCHRONIZED && self->valid &&
               self->info.best_effort)
        g_value_set_string (value, _("unbounded"));
      else if (sl_host_item_get_state (self) != SL_HOST_STATE_SYNCHRONIZED)
        g_value_set_string (value, "—");
      else
        {
          g_autofree char *t = sl_format_ns (self->info.bound_ns);
          g_value_take_string (value, g_strdup_printf ("±%s", t));
        }
      break;
    case PROP_TRANSFORM_TEXT:
      g_value_take_string (value, has_map (self) || sl_host_item_get_is_reference (self)
                                  ? transform_text (&self->info, sl_host_item_get_is_reference (self))
                                  : g_strdup ("—"));
      break;
    case PROP_STATE:
      g_value_set_uint (value, sl_host_item_get_state (self));
      break;
    case PROP_LIVE:
      g_value_set_uint (value, self->live);
      break;
    case PROP_LIVE_TEXT:
      g_value_set_string (value, sl_host_live_to_string (self->live));
      break;
    case PROP_STATE_TEXT:
      g_value_set_string (value, sl_host_state_to_string (sl_host_item_get_state (self)));
      break;
    case PROP_OFFSET_TEXT:
      g_value_take_string (value, offset_text (self, FALSE));
      break;
    case PROP_DRIFT_TEXT:
      g_value_take_string (value, drift_text (self, FALSE));
      break;
    case PROP_SUMMARY:
      g_value_take_string (value, sl_host_item_dup_summary (self));
      break;
    case PROP_OFFSET:
      g_value_set_double (value, offset_ns (self));
      break;
    case PROP_DRIFT:
      g_value_set_double (value, has_map (self) ? map_at_drift_start (self)->drift * 1e6 : G_MAXDOUBLE);
      break;
    case PROP_EVENTS:
      g_value_set_uint64 (value, self->info.counts.events);
      break;
    case PROP_PACKET_EVENTS:
      g_value_set_uint64 (value, self->info.counts.packet_events);
      break;
    case PROP_MATCHED:
      g_value_set_uint64 (value, self->info.counts.matched);
      break;
    case PROP_UNMATCHED:
      g_value_set_uint64 (value, unmatched (&self->info));
      break;
    case PROP_STATUS:
      g_value_set_string (value, sl_host_item_get_status (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_host_item_class_init (SlHostItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = sl_host_item_finalize;
  object_class->get_property = sl_host_item_get_property;

  properties[PROP_HOST] = g_param_spec_uint ("host", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, ro);
  properties[PROP_REFERENCE_NAME] = g_param_spec_string ("reference-name", NULL, NULL, NULL, ro);
  properties[PROP_IS_REFERENCE] = g_param_spec_boolean ("is-reference", NULL, NULL, FALSE, ro);
  properties[PROP_COMPONENT] = g_param_spec_uint ("component", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_PATH_TEXT] = g_param_spec_string ("path-text", NULL, NULL, NULL, ro);
  properties[PROP_BOUND] = g_param_spec_double ("bound", NULL, NULL, 0, G_MAXDOUBLE, 0, ro);
  properties[PROP_BOUND_TEXT] = g_param_spec_string ("bound-text", NULL, NULL, NULL, ro);
  properties[PROP_TRANSFORM_TEXT] = g_param_spec_string ("transform-text", NULL, NULL, NULL, ro);
  properties[PROP_EVENTS] = g_param_spec_uint64 ("events", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_PACKET_EVENTS] = g_param_spec_uint64 ("packet-events", NULL, NULL,
                                                        0, G_MAXUINT64, 0, ro);
  properties[PROP_MATCHED] = g_param_spec_uint64 ("matched", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_UNMATCHED] = g_param_spec_uint64 ("unmatched", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_STATUS] = g_param_spec_string ("status", NULL, NULL, NULL, ro);
  properties[PROP_STATE] = g_param_spec_uint ("state", NULL, NULL, 0, SL_HOST_STATE_UNREADABLE, 0, ro);
  properties[PROP_STATE_TEXT] = g_param_spec_string ("state-text", NULL, NULL, NULL, ro);
  properties[PROP_OFFSET_TEXT] = g_param_spec_string ("offset-text", NULL, NULL, NULL, ro);
  properties[PROP_DRIFT_TEXT] = g_param_spec_string ("drift-text", NULL, NULL, NULL, ro);
  properties[PROP_SUMMARY] = g_param_spec_string ("summary", NULL, NULL, NULL, ro);
  properties[PROP_LIVE] = g_param_spec_uint ("live", NULL, NULL, 0, SL_HOST_LIVE_N_STATES - 1, 0, ro);
  properties[PROP_LIVE_TEXT] = g_param_spec_string ("live-text", NULL, NULL, NULL, ro);
  properties[PROP_OFFSET] = g_param_spec_double ("offset", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, ro);
  properties[PROP_DRIFT] = g_param_spec_double ("drift", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SlHostItem::changed:
   *
   * Emitted once after an update that changed any of the item's values.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sl_host_item_init (SlHostItem *self)
{
  self->info.reference = SL_HOST_NONE;
  self->info.parent = SL_HOST_NONE;
}

guint
sl_host_item_get_host (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), SL_HOST_NONE);
  return self->host;
}

const char *
sl_host_item_get_name (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), NULL);
  return self->name;
}

guint
sl_host_item_get_reference (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), SL_HOST_NONE);
  return self->info.reference;
}

gboolean
sl_host_item_get_is_reference (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), FALSE);
  return self->valid && !self->unreadable && self->info.reference == self->host;
}

/**
 * sl_host_item_get_state:
 *
 * A reference is the clock of a group of at least two hosts; a host alone
 * (no accurate link yet) is not synchronized; an unreadable host is one of
 * which nothing could be read (its status says why).
 */
SlHostState
sl_host_item_get_state (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), SL_HOST_STATE_UNSYNCHRONIZED);

  if (self->unreadable)
    return SL_HOST_STATE_UNREADABLE;
  if (!self->valid || !self->linked)
    return SL_HOST_STATE_UNSYNCHRONIZED;
  if (self->info.reference == self->host)
    return SL_HOST_STATE_REFERENCE;
  return SL_HOST_STATE_SYNCHRONIZED;
}

gboolean
sl_host_item_get_unreadable (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), FALSE);
  return self->unreadable;
}

/* Whether the host has events but no accurate path to another (an
 * unreadable host is in the state too, but says so otherwise). */
gboolean
sl_host_item_get_unsynchronized (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), FALSE);
  return !self->unreadable && sl_host_item_get_state (self) == SL_HOST_STATE_UNSYNCHRONIZED;
}

/* Longest reader's reason a label shows (characters); the Hosts row and
 * Details have it whole. */
#define LABEL_UNREAD_CHARS 48

/* The host's name as the graph and the timeline show it: with its state
 * when it is not synchronized, so that it never passes for a host on the
 * reference's clock; a host none of whose events could be read yet (a
 * live session another viewer holds) says why, so that it is not taken
 * for one whose events no link reaches. */
char *
sl_host_item_dup_label (SlHostItem *self)
{
  const char *unread;

  g_return_val_if_fail (SL_IS_HOST_ITEM (self), NULL);

  if (!sl_host_item_get_unsynchronized (self))
    return g_strdup (self->name);
  if (sl_host_item_get_info (self)->best_effort)
    /* Translators: a host placed on another's clock through a link that gives no bound */
    return g_strdup_printf (_("%s · best effort, unbounded"), self->name);
  unread = self->valid ? self->info.unread : "";
  if (unread[0] != '\0')
    {
      g_autofree char *why = NULL;

      if (g_utf8_strlen (unread, -1) > LABEL_UNREAD_CHARS)
        {
          g_autofree char *head = g_utf8_substring (unread, 0, LABEL_UNREAD_CHARS - 1);

          why = g_strconcat (head, "…", NULL);
        }
      else
        why = g_strdup (unread);
      /* Translators: a host none of whose events could be read, and why
       * ("another viewer is attached to its session") */
      return g_strdup_printf (_("%s · not read: %s"), self->name, why);
    }
  return g_strdup_printf (_("%s · not synchronized"), self->name);
}

const char *
sl_host_state_to_string (SlHostState state)
{
  switch (state)
    {
    case SL_HOST_STATE_REFERENCE:
      return C_("host", "reference");
    case SL_HOST_STATE_SYNCHRONIZED:
      return C_("host", "synchronized");
    case SL_HOST_STATE_UNSYNCHRONIZED:
      return C_("host", "not synchronized");
    case SL_HOST_STATE_UNREADABLE:
      return C_("host", "unreadable");
    default:
      return "?";
    }
}

SlHostLive
sl_host_item_get_live (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), SL_HOST_LIVE_NONE);
  return self->live;
}

const char *
sl_host_live_to_string (SlHostLive live)
{
  switch (live)
    {
    case SL_HOST_LIVE_NONE:
      return "";
    case SL_HOST_LIVE_CONNECTING:
      return C_("live", "connecting");
    case SL_HOST_LIVE_STREAMING:
      return C_("live", "streaming");
    case SL_HOST_LIVE_WAITING:
      return C_("live", "waiting");
    case SL_HOST_LIVE_STALLED:
      return C_("live", "stalled");
    case SL_HOST_LIVE_ENDED:
      return C_("live", "ended");
    case SL_HOST_LIVE_FAILED:
      return C_("live", "failed");
    default:
      return "?";
    }
}

guint
sl_host_item_get_component (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), 0);
  return self->info.component;
}

double
sl_host_item_get_bound (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), INFINITY);
  return self->info.bound_ns;
}

/* The host's exact (piecewise) map to its reference, or %NULL. */
SlRelation *
sl_host_item_get_relation (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), NULL);
  return self->relation;
}

const SlSnapHost *
sl_host_item_get_info (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), NULL);
  return &self->info;
}

/* The name problems give the host (its name, or the reader's for a trace
 * without one). */
const char *
sl_host_item_get_key (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), NULL);
  return self->key != NULL ? self->key : self->name;
}

const char *
sl_host_item_get_status (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), NULL);
  return self->status_text != NULL ? self->status_text : "";
}

/* The status column: a problem or live state, after "Not synchronized: …"
 * (the engine's reason) when no accurate path joins the host to another.
 * A state's message that the reason already says is left out
 * ("no event could be read: another viewer is attached to its session ·
 * waiting", not "… · waiting: another viewer is attached"). */
static void
update_status_text (SlHostItem *self)
{
  g_autofree char *text = NULL;

  if (self->valid && !self->unreadable && !self->info.synchronized)
    {
      const char *said = self->status != NULL ? strstr (self->status, ": ") : NULL;
      gboolean repeated = said != NULL && self->info.unread[0] != '\0' &&
                          strstr (self->info.reason, said + 2) != NULL;
      g_autofree char *status = repeated ? g_strndup (self->status, said - self->status)
                                         : g_strdup (self->status);

      text = status != NULL && *status
        ? g_strdup_printf (_("Not synchronized: %s · %s"), self->info.reason, status)
        : g_strdup_printf (_("Not synchronized: %s"), self->info.reason);
    }
  else
    text = g_strdup (self->status != NULL ? self->status : "");
  /* saved transforms: the relation shown was read, not found here */
  if (self->valid && self->info.fixed_from[0] != '\0')
    {
      char *from = *text != '\0' ? g_strdup_printf (_("From %s · %s"), self->info.fixed_from, text)
                                 : g_strdup_printf (_("From %s"), self->info.fixed_from);

      g_free (text);
      text = from;
    }
  if (g_strcmp0 (text, self->status_text) == 0)
    return;
  g_free (self->status_text);
  self->status_text = g_steal_pointer (&text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUMMARY]);
}

/* What the host's tooltip says: the human numbers, then the exact map. */
char *
sl_host_item_dup_summary (SlHostItem *self)
{
  g_autofree char *bound = NULL;
  g_autofree char *transform = NULL;
  g_autofree char *offset = NULL;
  g_autofree char *drift = NULL;
  g_autofree char *range = NULL;
  g_autofree char *events = NULL;
  g_autofree char *packets = NULL;
  g_autofree char *matched = NULL;
  GString *text;

  g_return_val_if_fail (SL_IS_HOST_ITEM (self), NULL);

  if (self->unreadable)
    return g_strdup_printf (_("%s: unreadable\n%s"), self->name, self->status != NULL ? self->status : "");
  events = sl_format_count (self->info.counts.events);
  packets = sl_format_count (self->info.counts.packet_events);
  matched = sl_format_count (self->info.counts.matched);
  text = g_string_new (NULL);
  switch (sl_host_item_get_state (self))
    {
    case SL_HOST_STATE_REFERENCE:
      g_string_append_printf (text, _("%s: reference host"), self->name);
      break;
    case SL_HOST_STATE_UNSYNCHRONIZED:
      if (self->valid && self->info.reason[0] != '\0')
        g_string_append_printf (text, _("%s: not synchronized: %s"), self->name, self->info.reason);
      else
        g_string_append_printf (text, _("%s: not synchronized (no accurate link yet)"), self->name);
      break;
    default:
      bound = sl_format_ns (self->info.bound_ns);
      offset = offset_text (self, TRUE);
      drift = drift_text (self, TRUE);
      range = sl_format_drift_range (self->info.drift_range[0], self->info.drift_range[1]);
      transform = transform_text (&self->info, FALSE);
      g_string_append_printf (text, _("%s: on %s's clock through %s, bound ±%s\n"
                                      "offset %s, drift %s\n"
                                      "(%s)\n"
                                      "t_%s = %s"),
                              self->name, self->reference_name, self->path_text, bound,
                              offset, drift, range, self->reference_name, transform);
      break;
    }
  g_string_append_printf (text, _("\n%s events, %s packet events, %s matched"), events, packets, matched);
  if (self->status != NULL && self->status[0] != '\0')
    g_string_append_printf (text, "\n%s", self->status);
  return g_string_free (text, FALSE);
}

SlHostItem *
_sl_host_item_new (guint       host,
                   const char *name)
{
  SlHostItem *self = g_object_new (SL_TYPE_HOST_ITEM, NULL);

  self->host = host;
  self->name = g_strdup (name);
  self->info.host = host;
  return self;
}

/* A host of which nothing could be read: not in the engine, or in it
 * without a single event. */
SlHostItem *
_sl_host_item_new_unreadable (const char *name,
                              const char *message)
{
  g_autofree char *label = sl_format_host_label (name);
  SlHostItem *self = _sl_host_item_new (SL_HOST_NONE, label);

  self->key = g_strdup (name);
  self->info.reference = SL_HOST_NONE;
  self->unreadable = TRUE;
  self->status = g_strdup (message);
  self->status_text = g_strdup (message);
  return self;
}

void
_sl_host_item_set_unreadable (SlHostItem *self,
                              gboolean    unreadable)
{
  g_return_if_fail (SL_IS_HOST_ITEM (self));

  unreadable = !!unreadable;
  if (self->unreadable == unreadable)
    return;
  self->unreadable = unreadable;
  update_status_text (self);
  for (guint p = PROP_IS_REFERENCE; p < N_PROPS; p++)
    g_object_notify_by_pspec (G_OBJECT (self), properties[p]);
  g_signal_emit (self, signals[CHANGED], 0);
}

static char *
path_text (const SlSnapshot *s,
           const SlSnapHost *h)
{
  GString *str = g_string_new (NULL);

  for (guint k = 0; k < h->path_len; k++)
    {
      guint node = g_array_index (s->path_nodes, guint, h->path_start + k);

      if (k > 0)
        g_string_append (str, " → ");
      g_string_append (str, sl_snapshot_get_host_name (s, node));
    }
  return g_string_free (str, FALSE);
}

void
_sl_host_item_update (SlHostItem       *self,
                      const SlSnapshot *snapshot)
{
  const SlSnapHost *h;
  SlSnapHost old;
  gboolean was_valid, was_reference, notify, relation_changed = FALSE;
  const char *ref_name;
  g_autofree char *path = NULL;

  g_return_if_fail (SL_IS_HOST_ITEM (self));
  g_return_if_fail (self->host < snapshot->hosts->len);

  h = &g_array_index (snapshot->hosts, SlSnapHost, self->host);
  if (self->host < snapshot->host_relations->len)
    {
      SlRelation *rel = g_ptr_array_index (snapshot->host_relations, self->host);

      if (rel != self->relation)
        {
          /* the offset and drift shown come from the piece where the
           * data starts: a new map with the same pieces changes nothing */
          relation_changed = rel == NULL || self->relation == NULL || !sl_relation_equal (rel, self->relation);
          g_clear_pointer (&self->relation, sl_relation_unref);
          self->relation = rel != NULL ? sl_relation_ref (rel) : NULL;
        }
    }
  if (self->valid && !relation_changed && memcmp (&self->info, h, sizeof *h) == 0)
    {
      /* same numbers; the path (names only) cannot have changed either */
      return;
    }
  old = self->info;
  was_valid = self->valid;
  was_reference = sl_host_item_get_is_reference (self);
  self->info = *h;
  self->valid = TRUE;
  /* the engine's verdict: a host placed as a best effort through a link
   * that is not accurate is in a group, yet not synchronized */
  self->linked = h->synchronized;
  notify = sl_item_notify_wanted (self);
#define NOTIFY(prop) G_STMT_START { if (notify) g_object_notify_by_pspec (G_OBJECT (self), properties[prop]); } G_STMT_END

  ref_name = sl_snapshot_get_host_name (snapshot, h->reference);
  if (g_strcmp0 (ref_name, self->reference_name) != 0)
    {
      g_free (self->reference_name);
      self->reference_name = g_strdup (ref_name);
      NOTIFY (PROP_REFERENCE_NAME);
    }
  if (!was_valid || was_reference != sl_host_item_get_is_reference (self))
    NOTIFY (PROP_IS_REFERENCE);
  if (!was_valid || old.component != h->component)
    NOTIFY (PROP_COMPONENT);
  path = path_text (snapshot, h);
  if (g_strcmp0 (path, self->path_text) != 0)
    {
      g_free (self->path_text);
      self->path_text = g_steal_pointer (&path);
      NOTIFY (PROP_PATH_TEXT);
    }
  if (!was_valid || memcmp (&old.bound_ns, &h->bound_ns, sizeof h->bound_ns) != 0 ||
      was_reference != sl_host_item_get_is_reference (self))
    {
      NOTIFY (PROP_BOUND);
      NOTIFY (PROP_BOUND_TEXT);
    }
  if (!was_valid || memcmp (&old.to_reference, &h->to_reference, sizeof h->to_reference) != 0 ||
      was_reference != sl_host_item_get_is_reference (self))
    NOTIFY (PROP_TRANSFORM_TEXT);
  if (!was_valid || old.counts.events != h->counts.events)
    NOTIFY (PROP_EVENTS);
  if (!was_valid || old.counts.packet_events != h->counts.packet_events)
    NOTIFY (PROP_PACKET_EVENTS);
  if (!was_valid || old.counts.matched != h->counts.matched)
    NOTIFY (PROP_MATCHED);
  if (!was_valid || unmatched (&old) != unmatched (h))
    NOTIFY (PROP_UNMATCHED);
  update_status_text (self);
  for (guint p = PROP_STATE; p <= PROP_DRIFT; p++)
    NOTIFY (p);
#undef NOTIFY
  g_signal_emit (self, signals[CHANGED], 0);

}

/* The problems and live state set by the session, without what the
 * status column adds ("Not synchronized: …", "From …"): what a new
 * problem is added to. */
const char *
_sl_host_item_get_problems (SlHostItem *self)
{
  g_return_val_if_fail (SL_IS_HOST_ITEM (self), NULL);
  return self->status != NULL ? self->status : "";
}

void
_sl_host_item_set_status (SlHostItem *self,
                          const char *status)
{
  g_return_if_fail (SL_IS_HOST_ITEM (self));

  if (g_strcmp0 (self->status, status) == 0)
    return;
  g_free (self->status);
  self->status = g_strdup (status);
  update_status_text (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

void
_sl_host_item_set_live (SlHostItem *self,
                        SlHostLive  live)
{
  g_return_if_fail (SL_IS_HOST_ITEM (self));
  g_return_if_fail (live < SL_HOST_LIVE_N_STATES);

  if (self->live == live)
    return;
  self->live = live;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE_TEXT]);
  g_signal_emit (self, signals[CHANGED], 0);
}
