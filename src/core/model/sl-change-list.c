/* sl-change-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-change-list.h"
#include "sl-format.h"

typedef struct
{
  guint64      seq;
  gint64       input_time;
  guint        a;
  guint        b;
  SlChangeKind kind;
  double       value;
  const char  *reason;
} ChangeRec;

struct _SlChangeItem
{
  GObject       parent_instance;
  ChangeRec     rec;
  char         *time_text;
  char         *time_tooltip;
  char         *text;
};

enum {
  ITEM_PROP_0,
  ITEM_PROP_SEQ,
  ITEM_PROP_KIND_TEXT,
  ITEM_PROP_TIME_TEXT,
  ITEM_PROP_TIME_TOOLTIP,
  ITEM_PROP_TEXT,
  ITEM_PROP_REASON,
  ITEM_N_PROPS
};

static GParamSpec *item_properties[ITEM_N_PROPS];

G_DEFINE_FINAL_TYPE (SlChangeItem, sl_change_item, G_TYPE_OBJECT)

static void
sl_change_item_finalize (GObject *object)
{
  SlChangeItem *self = (SlChangeItem *) object;

  g_free (self->time_text);
  g_free (self->time_tooltip);
  g_free (self->text);

  G_OBJECT_CLASS (sl_change_item_parent_class)->finalize (object);
}

static void
sl_change_item_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SlChangeItem *self = SL_CHANGE_ITEM (object);

  switch (prop_id)
    {
    case ITEM_PROP_SEQ:
      g_value_set_uint64 (value, self->rec.seq);
      break;
    case ITEM_PROP_KIND_TEXT:
      g_value_set_string (value, sl_format_change_kind (self->rec.kind));
      break;
    case ITEM_PROP_TIME_TEXT:
      g_value_set_string (value, self->time_text);
      break;
    case ITEM_PROP_TIME_TOOLTIP:
      g_value_set_string (value, self->time_tooltip);
      break;
    case ITEM_PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    case ITEM_PROP_REASON:
      g_value_set_string (value, self->rec.reason != NULL ? self->rec.reason : "");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_change_item_class_init (SlChangeItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = sl_change_item_finalize;
  object_class->get_property = sl_change_item_get_property;

  item_properties[ITEM_PROP_SEQ] = g_param_spec_uint64 ("seq", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  item_properties[ITEM_PROP_KIND_TEXT] = g_param_spec_string ("kind-text", NULL, NULL, NULL, ro);
  item_properties[ITEM_PROP_TIME_TEXT] = g_param_spec_string ("time-text", NULL, NULL, NULL, ro);
  item_properties[ITEM_PROP_TIME_TOOLTIP] = g_param_spec_string ("time-tooltip", NULL, NULL, NULL, ro);
  item_properties[ITEM_PROP_TEXT] = g_param_spec_string ("text", NULL, NULL, NULL, ro);
  item_properties[ITEM_PROP_REASON] = g_param_spec_string ("reason", NULL, NULL, NULL, ro);
  g_object_class_install_properties (object_class, ITEM_N_PROPS, item_properties);
}

static void
sl_change_item_init (SlChangeItem *self)
{
}

SlChangeKind
sl_change_item_get_kind (SlChangeItem *self)
{
  g_return_val_if_fail (SL_IS_CHANGE_ITEM (self), SL_CHANGE_LINK);
  return self->rec.kind;
}

const char *
sl_change_item_get_text (SlChangeItem *self)
{
  g_return_val_if_fail (SL_IS_CHANGE_ITEM (self), NULL);
  return self->text;
}

/* The list */

struct _SlChangeList
{
  GObject    parent_instance;
  GArray    *recs;
  GPtrArray *host_names;
  gint64     origin;
};

static void sl_change_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SlChangeList, sl_change_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, sl_change_list_model_init))

static const char *
host_name (SlChangeList *self,
           guint         host)
{
  if (host < self->host_names->len)
    return g_ptr_array_index (self->host_names, host);
  return "?";
}

static char *
describe (SlChangeList    *self,
          const ChangeRec *r)
{
  switch (r->kind)
    {
    case SL_CHANGE_TREE_EDGE_IN:
      /* the link's weight: the largest bound it adds where it is applied,
       * in ns (1e300: unbounded somewhere), as the tables give bounds */
      if (isfinite (r->value) && r->value < 1e300)
        {
          g_autofree char *bound = sl_format_ns (r->value);
          return g_strdup_printf (_("%s – %s joined the tree (bound ±%s)"),
                                  host_name (self, r->a), host_name (self, r->b), bound);
        }
      return g_strdup_printf (_("%s – %s joined the tree"),
                              host_name (self, r->a), host_name (self, r->b));
    case SL_CHANGE_TREE_EDGE_OUT:
      return g_strdup_printf (_("%s – %s left the tree"),
                              host_name (self, r->a), host_name (self, r->b));
    case SL_CHANGE_REFERENCE:
      if (r->a == SL_HOST_NONE)
        return g_strdup_printf (_("new group with reference %s"), host_name (self, r->b));
      return g_strdup_printf (_("reference moved from %s to %s"),
                              host_name (self, r->a), host_name (self, r->b));
    case SL_CHANGE_LINK:
    case SL_CHANGE_TRANSFORM:
    default:
      return g_strdup_printf ("%s – %s", host_name (self, r->a), host_name (self, r->b));
    }
}

static GType
sl_change_list_get_item_type (GListModel *model)
{
  return SL_TYPE_CHANGE_ITEM;
}

static guint
sl_change_list_get_n_items (GListModel *model)
{
  return SL_CHANGE_LIST (model)->recs->len;
}

/* Newest first. */
static gpointer
sl_change_list_get_item (GListModel *model,
                         guint       position)
{
  SlChangeList *self = SL_CHANGE_LIST (model);
  SlChangeItem *item;

  if (position >= self->recs->len)
    return NULL;
  item = g_object_new (SL_TYPE_CHANGE_ITEM, NULL);
  item->rec = g_array_index (self->recs, ChangeRec, self->recs->len - 1 - position);
  item->time_text = sl_format_time (item->rec.input_time, self->origin);
  item->time_tooltip = sl_format_time_tooltip (item->rec.input_time, self->origin);
  item->text = describe (self, &item->rec);
  return item;
}

static void
sl_change_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = sl_change_list_get_item_type;
  iface->get_n_items = sl_change_list_get_n_items;
  iface->get_item = sl_change_list_get_item;
}

static void
sl_change_list_finalize (GObject *object)
{
  SlChangeList *self = (SlChangeList *) object;

  g_array_unref (self->recs);
  g_ptr_array_unref (self->host_names);

  G_OBJECT_CLASS (sl_change_list_parent_class)->finalize (object);
}

static void
sl_change_list_class_init (SlChangeListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_change_list_finalize;
}

static void
sl_change_list_init (SlChangeList *self)
{
  self->recs = g_array_new (FALSE, FALSE, sizeof (ChangeRec));
}

/* @host_names is shared with the session, which only appends to it. */
SlChangeList *
sl_change_list_new (GPtrArray *host_names)
{
  SlChangeList *self;

  g_return_val_if_fail (host_names != NULL, NULL);

  self = g_object_new (SL_TYPE_CHANGE_LIST, NULL);
  self->host_names = g_ptr_array_ref (host_names);
  return self;
}

gboolean
sl_change_list_wants (SlChangeKind kind)
{
  return kind == SL_CHANGE_TREE_EDGE_IN || kind == SL_CHANGE_TREE_EDGE_OUT ||
         kind == SL_CHANGE_REFERENCE;
}

void
sl_change_list_append (SlChangeList   *self,
                       const SlChange *changes,
                       guint           n_changes)
{
  guint added = 0;

  g_return_if_fail (SL_IS_CHANGE_LIST (self));

  for (guint i = 0; i < n_changes; i++)
    {
      const SlChange *c = &changes[i];
      ChangeRec r;

      if (!sl_change_list_wants (c->kind))
        continue;
      r.seq = c->seq;
      r.input_time = c->input_time;
      r.a = c->a;
      r.b = c->b;
      r.kind = c->kind;
      r.value = c->value;
      r.reason = c->reason;
      g_array_append_val (self->recs, r);
      added++;
    }
  if (added > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, added);
}

void
sl_change_list_clear (SlChangeList *self)
{
  guint n;

  g_return_if_fail (SL_IS_CHANGE_LIST (self));

  n = self->recs->len;
  g_array_set_size (self->recs, 0);
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}

void
sl_change_list_set_origin (SlChangeList *self,
                           gint64        origin)
{
  g_return_if_fail (SL_IS_CHANGE_LIST (self));

  if (self->origin == origin)
    return;
  self->origin = origin;
  if (self->recs->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, self->recs->len, self->recs->len);
}
