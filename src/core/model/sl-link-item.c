/* sl-link-item.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-format.h"
#include "sl-item-notify.h"
#include "sl-link-item.h"
#include "sl-report.h"
#include "sl-units.h"

struct _SlLinkItem
{
  GObject       parent_instance;

  guint         link;
  char         *a_name;
  char         *b_name;
  char         *hosts_key;   /* collation key of "hosts", case folded */
  SlReportLink  rl;
  gint64        time_origin;
  gboolean      valid;
  SlRelation   *relation;
  gboolean      relation_changed;
};

enum {
  PROP_0,
  PROP_LINK,
  PROP_A_NAME,
  PROP_B_NAME,
  PROP_HOSTS,
  PROP_QUALITY,
  PROP_QUALITY_TEXT,
  PROP_REASON,
  PROP_ACCURACY,
  PROP_ACCURACY_TEXT,
  PROP_BAND,
  PROP_BAND_TEXT,
  PROP_BOUND,
  PROP_SLOPE,
  PROP_OFFSET,
  PROP_ESTIMATE_TEXT,
  PROP_MATCHES,
  PROP_ACCURATE_PACKETS,
  PROP_HULL_POINTS,
  PROP_HULL_POINTS_TEXT,
  PROP_INVERSIONS,
  PROP_INVERSIONS_TEXT,
  PROP_IN_TREE,
  PROP_IN_TREE_TEXT,
  PROP_LAST_CHANGE,
  PROP_LAST_CHANGE_TEXT,
  PROP_BOUND_TEXT,
  PROP_OFFSET_TEXT,
  PROP_DRIFT_TEXT,
  PROP_SUMMARY,
  PROP_OFFSET_AT_START,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (SlLinkItem, sl_link_item, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Unbounded accuracy sorts after every bounded one. */
static double
accuracy_ppm (const SlReportLink *rl)
{
  double a = rl->info.accuracy * 1e6;

  return isfinite (a) ? a : G_MAXDOUBLE;
}

static double
band_us (const SlReportLink *rl)
{
  return isfinite (rl->info.band_ns) ? rl->info.band_ns / 1e3 : G_MAXDOUBLE;
}

static double
bound_us (const SlReportLink *rl)
{
  return isfinite (rl->info.bound_ns) ? rl->info.bound_ns / 1e3 : G_MAXDOUBLE;
}

/* t_b − t_a where the link's data starts; NaN without an estimate */
static double
offset_ns (SlLinkItem *self)
{
  SlTransform map;
  gint64 start;

  if (!sl_report_link_start (&self->rl, self->relation, &start, &map, NULL, NULL))
    return NAN;
  return sl_transform_apply_delta (&map, start);
}

/* With @zone as the tooltip says it; without as the table's cell, whose
 * column's title names the zone. */
static char *
offset_text (SlLinkItem *self,
             gboolean    zone)
{
  SlTransform map;
  gint64 start;

  if (!sl_report_link_start (&self->rl, self->relation, &start, &map, NULL, NULL))
    return g_strdup ("—");
  return zone ? sl_report_offset_at (&map, start) : sl_report_offset_cell (&map, start);
}

/* The drift where the link's relation first rests on accurate packets,
 * as the text report has it */
static char *
drift_text (SlLinkItem *self,
            gboolean    zone)
{
  SlTransform map, rate;
  gint64 start, rate_at;

  if (!sl_report_link_start (&self->rl, self->relation, &start, &map, &rate, &rate_at))
    return g_strdup ("—");
  /* the table's cell: the drift alone (see sl-host-item.c) */
  if (!zone)
    return sl_units_drift (rate.drift);
  return sl_report_drift_text (&map, start, &rate, rate_at);
}

static gint64
inversions (const SlReportLink *rl)
{
  return rl->info.inversions_known ? (gint64) rl->info.inversions : -1;
}

static char *
number_text (double v,
             double unbounded,
             char *(*format) (double))
{
  if (v == unbounded)
    return g_strdup ("∞");
  return format (v);
}

static char *
format_us (double us)
{
  return sl_format_ns (us * 1e3);
}

/* The exact map t_b = slope · t_a + offset, as the JSON report has it. */
static char *
estimate_text (const SlReportLink *rl)
{
  g_autofree char *slope = NULL;
  g_autofree char *offset = NULL;

  if (!rl->info.has_estimate)
    return g_strdup ("—");
  slope = sl_transform_slope_to_string (&rl->estimate);
  offset = sl_transform_offset_to_string (&rl->estimate);
  return g_strdup_printf ("t_b = %s · t_a %s %s ns", slope, offset[0] == '-' ? "−" : "+",
                          offset[0] == '-' ? offset + 1 : offset);
}

static void
sl_link_item_finalize (GObject *object)
{
  SlLinkItem *self = (SlLinkItem *) object;

  g_free (self->a_name);
  g_free (self->b_name);
  g_free (self->hosts_key);
  g_clear_pointer (&self->relation, sl_relation_unref);

  G_OBJECT_CLASS (sl_link_item_parent_class)->finalize (object);
}

static void
sl_link_item_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SlLinkItem *self = SL_LINK_ITEM (object);
  const SlLinkInfo *i = &self->rl.info;

  switch (prop_id)
    {
    case PROP_LINK:
      g_value_set_uint (value, self->link);
      break;
    case PROP_A_NAME:
      g_value_set_string (value, self->a_name);
      break;
    case PROP_B_NAME:
      g_value_set_string (value, self->b_name);
      break;
    case PROP_HOSTS:
      g_value_take_string (value, g_strdup_printf ("%s ↔ %s", self->a_name ? self->a_name : "",
                                                   self->b_name ? self->b_name : ""));
      break;
    case PROP_QUALITY:
      g_value_set_uint (value, i->quality);
      break;
    case PROP_QUALITY_TEXT:
      g_value_set_string (value, sl_format_quality (i->quality));
      break;
    case PROP_REASON:
      g_value_set_string (value, i->reason);
      break;
    case PROP_ACCURACY:
      g_value_set_double (value, accuracy_ppm (&self->rl));
      break;
    case PROP_ACCURACY_TEXT:
      g_value_take_string (value, sl_format_ppm (i->accuracy));
      break;
    case PROP_BAND:
      g_value_set_double (value, band_us (&self->rl));
      break;
    case PROP_BAND_TEXT:
      g_value_take_string (value, number_text (band_us (&self->rl), G_MAXDOUBLE, format_us));
      break;
    case PROP_BOUND:
      g_value_set_double (value, isfinite (i->bound_ns) ? i->bound_ns / 1e3 : G_MAXDOUBLE);
      break;
    case PROP_SLOPE:
      g_value_set_double (value, self->rl.alpha);
      break;
    case PROP_OFFSET:
      g_value_set_double (value, self->rl.beta);
      break;
    case PROP_ESTIMATE_TEXT:
      g_value_take_string (value, estimate_text (&self->rl));
      break;
    case PROP_BOUND_TEXT:
      if (isfinite (i->bound_ns))
        {
          g_autofree char *t = sl_format_ns (i->bound_ns);
          g_value_take_string (value, g_strdup_printf ("±%s", t));
        }
      else
        g_value_set_string (value, "∞");
      break;
    case PROP_OFFSET_TEXT:
      g_value_take_string (value, offset_text (self, FALSE));
      break;
    case PROP_DRIFT_TEXT:
      g_value_take_string (value, drift_text (self, FALSE));
      break;
    case PROP_SUMMARY:
      g_value_take_string (value, sl_link_item_dup_summary (self));
      break;
    case PROP_OFFSET_AT_START:
      g_value_set_double (value, offset_ns (self));
      break;
    case PROP_MATCHES:
      g_value_set_uint64 (value, i->matches);
      break;
    case PROP_ACCURATE_PACKETS:
      g_value_set_uint64 (value, i->accurate_packets);
      break;
    case PROP_HULL_POINTS:
      g_value_set_uint (value, self->rl.hull_points[0] + self->rl.hull_points[1]);
      break;
    case PROP_HULL_POINTS_TEXT:
      g_value_take_string (value, g_strdup_printf ("%u + %u", self->rl.hull_points[0],
                                                   self->rl.hull_points[1]));
      break;
    case PROP_INVERSIONS:
      g_value_set_int64 (value, inversions (&self->rl));
      break;
    case PROP_INVERSIONS_TEXT:
      if (i->inversions_known)
        g_value_take_string (value, g_strdup_printf ("%" G_GUINT64_FORMAT "%s", i->inversions,
                                                     i->inversions_exact ? "" : "+"));
      else
        g_value_set_string (value, "—");
      break;
    case PROP_IN_TREE:
      g_value_set_boolean (value, i->in_tree);
      break;
    case PROP_IN_TREE_TEXT:
      /* a mark, not an icon: a table cell that hides or shows an image
       * resizes its column, which lays out every row again */
      g_value_set_string (value, i->in_tree ? "✓" : "");
      break;
    case PROP_LAST_CHANGE:
      g_value_set_int64 (value, i->last_change);
      break;
    case PROP_LAST_CHANGE_TEXT:
      if (self->valid && i->matches > 0)
        g_value_take_string (value, sl_format_time (i->last_change, self->time_origin));
      else
        g_value_set_string (value, "—");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_link_item_class_init (SlLinkItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = sl_link_item_finalize;
  object_class->get_property = sl_link_item_get_property;

  properties[PROP_LINK] = g_param_spec_uint ("link", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_A_NAME] = g_param_spec_string ("a-name", NULL, NULL, NULL, ro);
  properties[PROP_B_NAME] = g_param_spec_string ("b-name", NULL, NULL, NULL, ro);
  properties[PROP_HOSTS] = g_param_spec_string ("hosts", NULL, NULL, NULL, ro);
  properties[PROP_QUALITY] = g_param_spec_uint ("quality", NULL, NULL, 0, SL_QUALITY_FAIL, 0, ro);
  properties[PROP_QUALITY_TEXT] = g_param_spec_string ("quality-text", NULL, NULL, NULL, ro);
  properties[PROP_REASON] = g_param_spec_string ("reason", NULL, NULL, NULL, ro);
  properties[PROP_ACCURACY] = g_param_spec_double ("accuracy", NULL, NULL,
                                                   0, G_MAXDOUBLE, G_MAXDOUBLE, ro);
  properties[PROP_ACCURACY_TEXT] = g_param_spec_string ("accuracy-text", NULL, NULL, NULL, ro);
  properties[PROP_BAND] = g_param_spec_double ("band", NULL, NULL,
                                               -G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE, ro);
  properties[PROP_BAND_TEXT] = g_param_spec_string ("band-text", NULL, NULL, NULL, ro);
  properties[PROP_BOUND] = g_param_spec_double ("bound", NULL, NULL,
                                                -G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE, ro);
  properties[PROP_SLOPE] = g_param_spec_double ("slope", NULL, NULL,
                                                -G_MAXDOUBLE, G_MAXDOUBLE, 1, ro);
  properties[PROP_OFFSET] = g_param_spec_double ("offset", NULL, NULL,
                                                 -G_MAXDOUBLE, G_MAXDOUBLE, 0, ro);
  properties[PROP_ESTIMATE_TEXT] = g_param_spec_string ("estimate-text", NULL, NULL, NULL, ro);
  properties[PROP_MATCHES] = g_param_spec_uint64 ("matches", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_ACCURATE_PACKETS] = g_param_spec_uint64 ("accurate-packets", NULL, NULL,
                                                           0, G_MAXUINT64, 0, ro);
  properties[PROP_HULL_POINTS] = g_param_spec_uint ("hull-points", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_HULL_POINTS_TEXT] = g_param_spec_string ("hull-points-text", NULL, NULL, NULL, ro);
  properties[PROP_INVERSIONS] = g_param_spec_int64 ("inversions", NULL, NULL,
                                                    -1, G_MAXINT64, -1, ro);
  properties[PROP_INVERSIONS_TEXT] = g_param_spec_string ("inversions-text", NULL, NULL, NULL, ro);
  properties[PROP_IN_TREE] = g_param_spec_boolean ("in-tree", NULL, NULL, FALSE, ro);
  properties[PROP_IN_TREE_TEXT] = g_param_spec_string ("in-tree-text", NULL, NULL, NULL, ro);
  properties[PROP_LAST_CHANGE] = g_param_spec_int64 ("last-change", NULL, NULL,
                                                     G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_LAST_CHANGE_TEXT] = g_param_spec_string ("last-change-text", NULL, NULL, NULL, ro);
  properties[PROP_BOUND_TEXT] = g_param_spec_string ("bound-text", NULL, NULL, NULL, ro);
  properties[PROP_OFFSET_TEXT] = g_param_spec_string ("offset-text", NULL, NULL, NULL, ro);
  properties[PROP_DRIFT_TEXT] = g_param_spec_string ("drift-text", NULL, NULL, NULL, ro);
  properties[PROP_SUMMARY] = g_param_spec_string ("summary", NULL, NULL, NULL, ro);
  /* t_b − t_a where the link's data starts, NaN without an estimate */
  properties[PROP_OFFSET_AT_START] = g_param_spec_double ("offset-at-start", NULL, NULL,
                                                          -G_MAXDOUBLE, G_MAXDOUBLE, 0, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SlLinkItem::changed:
   *
   * Emitted once after an update that changed any of the item's values
   * (after the property notifications), for views that redraw rather
   * than watch each property.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sl_link_item_init (SlLinkItem *self)
{
}

guint
sl_link_item_get_link (SlLinkItem *self)
{
  g_return_val_if_fail (SL_IS_LINK_ITEM (self), 0);
  return self->link;
}

guint
sl_link_item_get_a (SlLinkItem *self)
{
  g_return_val_if_fail (SL_IS_LINK_ITEM (self), 0);
  return self->rl.a;
}

guint
sl_link_item_get_b (SlLinkItem *self)
{
  g_return_val_if_fail (SL_IS_LINK_ITEM (self), 0);
  return self->rl.b;
}

const char *
sl_link_item_get_a_name (SlLinkItem *self)
{
  g_return_val_if_fail (SL_IS_LINK_ITEM (self), NULL);
  return self->a_name;
}

const char *
sl_link_item_get_b_name (SlLinkItem *self)
{
  g_return_val_if_fail (SL_IS_LINK_ITEM (self), NULL);
  return self->b_name;
}

SlQuality
sl_link_item_get_quality (SlLinkItem *self)
{
  g_return_val_if_fail (SL_IS_LINK_ITEM (self), SL_QUALITY_ABSENT);
  return self->rl.info.quality;
}

gboolean
sl_link_item_get_in_tree (SlLinkItem *self)
{
  g_return_val_if_fail (SL_IS_LINK_ITEM (self), FALSE);
  return self->rl.info.in_tree;
}

/* alpha_max - alpha_min, INFINITY when unbounded */
double
sl_link_item_get_accuracy (SlLinkItem *self)
{
  g_return_val_if_fail (SL_IS_LINK_ITEM (self), INFINITY);
  return self->rl.info.accuracy;
}

const SlReportLink *
sl_link_item_get_info (SlLinkItem *self)
{
  g_return_val_if_fail (SL_IS_LINK_ITEM (self), NULL);
  return &self->rl;
}

/* The link's relation, from info.a's clock to info.b's, or %NULL. */
SlRelation *
sl_link_item_get_relation (SlLinkItem *self)
{
  g_return_val_if_fail (SL_IS_LINK_ITEM (self), NULL);
  return self->relation;
}

void
_sl_link_item_set_relation (SlLinkItem *self,
                            SlRelation *relation)
{
  g_return_if_fail (SL_IS_LINK_ITEM (self));

  if (relation == self->relation)
    return;
  /* the offset and drift shown are the relation's where the data starts:
   * the next update notifies them (a new map with the same pieces
   * changes nothing) */
  if (relation == NULL || self->relation == NULL || !sl_relation_equal (relation, self->relation))
    self->relation_changed = TRUE;
  g_clear_pointer (&self->relation, sl_relation_unref);
  self->relation = relation != NULL ? sl_relation_ref (relation) : NULL;
}

/* The link's numbers (tooltips, accessible descriptions): the bound
 * first, as the tables show it, the rates (ppm) and the exact map after. */
char *
sl_link_item_dup_summary (SlLinkItem *self)
{
  const SlLinkInfo *i;
  g_autofree char *acc = NULL;
  g_autofree char *band = NULL;
  g_autofree char *bound = NULL;
  g_autofree char *offset = NULL;
  g_autofree char *drift = NULL;
  g_autofree char *range = NULL;
  g_autofree char *exact = NULL;
  g_autofree char *matches = NULL;
  g_autofree char *accurate = NULL;
  GString *text;
  double near;

  g_return_val_if_fail (SL_IS_LINK_ITEM (self), NULL);

  i = &self->rl.info;
  acc = sl_format_ppm (i->accuracy);
  band = sl_format_ns (i->band_ns);
  bound = sl_format_ns (i->bound_ns);
  matches = sl_format_count (i->matches);
  accurate = sl_format_count (i->accurate_packets);
  text = g_string_new (NULL);
  g_string_append_printf (text, _("%s ↔ %s: %s%s, bound ±%s"),
                          self->a_name, self->b_name, sl_format_quality (i->quality),
                          i->in_tree ? _(", in the tree") : "", bound);
  if (i->has_estimate)
    {
      double lo = NAN, hi = NAN;

      offset = offset_text (self, TRUE);
      drift = drift_text (self, TRUE);
      exact = estimate_text (&self->rl);
      sl_report_link_drift_interval (&self->rl, self->relation, &lo, &hi);
      range = sl_format_drift_range (lo, hi);
      g_string_append_printf (text, _("\n%s − %s: %s, drift %s\n(%s)\n%s"), self->b_name, self->a_name,
                              offset, drift, range, exact);
    }
  g_string_append_printf (text, _("\nrate band %s, offset band %s\n"
                                  "%s matched packets (%s accurate), hull points %u + %u"),
                          acc, band, matches, accurate, self->rl.hull_points[0], self->rl.hull_points[1]);
  near = sl_report_packets_bound (&self->rl, self->relation);
  if (isfinite (near))
    {
      g_autofree char *near_text = sl_format_ns (near);

      g_autofree char *packets_span = sl_format_ns ((double) (i->span_end - i->span_start));
      g_autofree char *events_span = sl_format_ns ((double) (i->bound_end - i->bound_start));

      g_string_append_printf (text, _("\nbound ±%s over its packets (%s), ±%s over both hosts' events (%s)"),
                              near_text, packets_span, bound, events_span);
    }
  if (self->valid && i->matches > 0)
    {
      g_autofree char *when = sl_format_time_tooltip (i->last_change, self->time_origin);

      g_string_append_printf (text, _("\nlast update %s"), when);
    }
  if (sl_report_bound_is_far (&self->rl, near))
    g_string_append (text, _("\nAccurate: a bound holds at every instant, not a small one: the rates its "
                             "packets allow part away from them"));
  if (i->reason != NULL && i->reason[0] != '\0')
    g_string_append_printf (text, "\n%s", i->reason);
  return g_string_free (text, FALSE);
}

SlLinkItem *
_sl_link_item_new (guint link)
{
  SlLinkItem *self = g_object_new (SL_TYPE_LINK_ITEM, NULL);

  self->link = link;
  self->rl.info.accuracy = INFINITY;
  self->rl.info.band_ns = INFINITY;
  self->rl.info.bound_ns = INFINITY;
  return self;
}

#define CHANGED(field) (memcmp (&old.field, &rl->field, sizeof old.field) != 0)

#define COMPARE(x, y) ((x) < (y) ? -1 : (x) > (y) ? 1 : 0)

/* A GCompareDataFunc for GtkCustomSorter, @key a SlLinkSortKey: the
 * link table sorts 2 000 links every 1.5 s while packets arrive, and
 * GtkNumericSorter's property lookups made that sorting cost 5–8 ms. */
int
sl_link_item_compare (gconstpointer a,
                      gconstpointer b,
                      gpointer      key)
{
  const SlLinkItem *x = a, *y = b;
  const SlReportLink *p = &x->rl, *q = &y->rl;

  switch ((SlLinkSortKey) GPOINTER_TO_UINT (key))
    {
    case SL_LINK_SORT_HOSTS:
      return g_strcmp0 (x->hosts_key, y->hosts_key);
    case SL_LINK_SORT_QUALITY:
      return COMPARE (p->info.quality, q->info.quality);
    case SL_LINK_SORT_IN_TREE:
      return COMPARE (!!p->info.in_tree, !!q->info.in_tree);
    case SL_LINK_SORT_ACCURACY:
      return COMPARE (accuracy_ppm (p), accuracy_ppm (q));
    case SL_LINK_SORT_BAND:
      return COMPARE (band_us (p), band_us (q));
    case SL_LINK_SORT_SLOPE:
      /* no estimate (NaN) after every estimate */
      if (isnan (p->alpha) || isnan (q->alpha))
        return COMPARE (!!isnan (p->alpha), !!isnan (q->alpha));
      return COMPARE (p->alpha, q->alpha);
    case SL_LINK_SORT_MATCHES:
      return COMPARE (p->info.matches, q->info.matches);
    case SL_LINK_SORT_ACCURATE_PACKETS:
      return COMPARE (p->info.accurate_packets, q->info.accurate_packets);
    case SL_LINK_SORT_HULL_POINTS:
      return COMPARE (p->hull_points[0] + p->hull_points[1], q->hull_points[0] + q->hull_points[1]);
    case SL_LINK_SORT_INVERSIONS:
      return COMPARE (inversions (p), inversions (q));
    case SL_LINK_SORT_LAST_CHANGE:
      return COMPARE (p->info.last_change, q->info.last_change);
    case SL_LINK_SORT_BOUND:
      return COMPARE (bound_us (p), bound_us (q));
    case SL_LINK_SORT_OFFSET:
      {
        double u = offset_ns ((SlLinkItem *) x), v = offset_ns ((SlLinkItem *) y);

        if (isnan (u) || isnan (v))
          return COMPARE (!!isnan (u), !!isnan (v));
        return COMPARE (u, v);
      }
    default:
      g_return_val_if_reached (0);
    }
}

#undef COMPARE

/* Returns TRUE when a value the table sorts on changed. */
gboolean
_sl_link_item_update (SlLinkItem         *self,
                      const SlReportLink *rl,
                      const char         *a_name,
                      const char         *b_name,
                      gint64              time_origin)
{
  SlReportLink old;
  gboolean was_valid;
  gboolean names = FALSE, resort = FALSE;
  gboolean origin_changed, relation_changed;
  gboolean notify;

  g_return_val_if_fail (SL_IS_LINK_ITEM (self), FALSE);
  g_return_val_if_fail (rl != NULL, FALSE);

  if (self->valid && !self->relation_changed && memcmp (&self->rl, rl, sizeof *rl) == 0 &&
      self->time_origin == time_origin && g_strcmp0 (self->a_name, a_name) == 0 &&
      g_strcmp0 (self->b_name, b_name) == 0)
    return FALSE;
  old = self->rl;
  was_valid = self->valid;
  relation_changed = self->relation_changed;
  self->relation_changed = FALSE;
  origin_changed = self->time_origin != time_origin;
  self->rl = *rl;
  self->valid = TRUE;
  self->time_origin = time_origin;
  notify = sl_item_notify_wanted (self);
#define NOTIFY(prop) G_STMT_START { if (notify) g_object_notify_by_pspec (G_OBJECT (self), properties[prop]); } G_STMT_END

  if (g_strcmp0 (self->a_name, a_name) != 0)
    {
      g_free (self->a_name);
      self->a_name = g_strdup (a_name);
      NOTIFY (PROP_A_NAME);
      names = TRUE;
    }
  if (g_strcmp0 (self->b_name, b_name) != 0)
    {
      g_free (self->b_name);
      self->b_name = g_strdup (b_name);
      NOTIFY (PROP_B_NAME);
      names = TRUE;
    }
  if (names || self->hosts_key == NULL)
    {
      g_autofree char *hosts = g_strdup_printf ("%s ↔ %s", self->a_name ? self->a_name : "",
                                                self->b_name ? self->b_name : "");
      g_autofree char *folded = g_utf8_casefold (hosts, -1);

      g_free (self->hosts_key);
      self->hosts_key = g_utf8_collate_key (folded, -1);
    }
  if (names)
    {
      NOTIFY (PROP_HOSTS);
      resort = TRUE;
    }

  if (!was_valid || CHANGED (info.quality))
    {
      NOTIFY (PROP_QUALITY);
      NOTIFY (PROP_QUALITY_TEXT);
      resort = TRUE;
    }
  if (!was_valid || g_strcmp0 (old.info.reason, rl->info.reason) != 0)
    NOTIFY (PROP_REASON);
  if (!was_valid || CHANGED (info.accuracy))
    {
      NOTIFY (PROP_ACCURACY);
      NOTIFY (PROP_ACCURACY_TEXT);
      resort = TRUE;
    }
  if (!was_valid || CHANGED (info.band_ns))
    {
      NOTIFY (PROP_BAND);
      NOTIFY (PROP_BAND_TEXT);
      resort = TRUE;
    }
  if (!was_valid || CHANGED (info.bound_ns))
    {
      NOTIFY (PROP_BOUND);
      NOTIFY (PROP_BOUND_TEXT);
      resort = TRUE;
    }
  if (!was_valid || CHANGED (alpha) || CHANGED (beta) || CHANGED (info.has_estimate) || relation_changed)
    {
      NOTIFY (PROP_SLOPE);
      NOTIFY (PROP_OFFSET);
      NOTIFY (PROP_ESTIMATE_TEXT);
      NOTIFY (PROP_OFFSET_TEXT);
      NOTIFY (PROP_OFFSET_AT_START);
      NOTIFY (PROP_DRIFT_TEXT);
      resort = TRUE;
    }
  if (!was_valid || CHANGED (info.matches))
    {
      NOTIFY (PROP_MATCHES);
      resort = TRUE;
    }
  if (!was_valid || CHANGED (info.accurate_packets))
    {
      NOTIFY (PROP_ACCURATE_PACKETS);
      resort = TRUE;
    }
  if (!was_valid || CHANGED (hull_points))
    {
      NOTIFY (PROP_HULL_POINTS);
      NOTIFY (PROP_HULL_POINTS_TEXT);
      resort = TRUE;
    }
  if (!was_valid || CHANGED (info.inversions) || CHANGED (info.inversions_known) ||
      CHANGED (info.inversions_exact))
    {
      NOTIFY (PROP_INVERSIONS);
      NOTIFY (PROP_INVERSIONS_TEXT);
      resort = TRUE;
    }
  if (!was_valid || CHANGED (info.in_tree))
    {
      NOTIFY (PROP_IN_TREE);
      NOTIFY (PROP_IN_TREE_TEXT);
      resort = TRUE;
    }
  if (!was_valid || CHANGED (info.last_change) || origin_changed)
    {
      NOTIFY (PROP_LAST_CHANGE);
      NOTIFY (PROP_LAST_CHANGE_TEXT);
      resort = TRUE;
    }

  NOTIFY (PROP_SUMMARY);
#undef NOTIFY
  g_signal_emit (self, signals[CHANGED], 0);
  return resort;
}
