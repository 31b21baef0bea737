/* sl-journal.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "sl-journal.h"

/* A ring of the most recent entries: long live runs keep the newest
 * max_entries and count what fell off the front. */
struct _SlJournal
{
  SlChange *ring;
  gsize     capacity;
  guint64   first_seq;
  guint64   next_seq;
  gint64    input_time;
};

SlJournal *
sl_journal_new (gsize max_entries)
{
  SlJournal *self = g_new0 (SlJournal, 1);

  self->capacity = MAX (max_entries, 16);
  self->ring = g_new0 (SlChange, self->capacity);
  return self;
}

void
sl_journal_free (SlJournal *self)
{
  if (self == NULL)
    return;
  g_free (self->ring);
  g_free (self);
}

void
sl_journal_set_time (SlJournal *self,
                     gint64     input_time)
{
  g_return_if_fail (self != NULL);
  self->input_time = input_time;
}

gint64
sl_journal_get_time (const SlJournal *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->input_time;
}

void
sl_journal_add (SlJournal    *self,
                SlChangeKind  kind,
                guint         a,
                guint         b,
                SlQuality     quality,
                double        value,
                const char   *reason)
{
  SlChange *c;

  g_return_if_fail (self != NULL);

  if (self->next_seq - self->first_seq == self->capacity)
    self->first_seq++;

  c = &self->ring[self->next_seq % self->capacity];
  c->seq = self->next_seq++;
  c->input_time = self->input_time;
  c->kind = kind;
  c->a = a;
  c->b = b;
  c->quality = quality;
  c->value = value;
  c->reason = reason;
}

guint64
sl_journal_get_next_seq (const SlJournal *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->next_seq;
}

guint64
sl_journal_get_first_seq (const SlJournal *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->first_seq;
}

/* Returns NULL for entries that are not (or no longer) in the ring. */
const SlChange *
sl_journal_get (const SlJournal *self,
                guint64          seq)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (seq < self->first_seq || seq >= self->next_seq)
    return NULL;
  return &self->ring[seq % self->capacity];
}

/* Sets the value of an entry written before it was known; entries that
 * fell off the ring are left alone. */
void
sl_journal_set_value (SlJournal *self,
                      guint64    seq,
                      double     value)
{
  g_return_if_fail (self != NULL);

  if (seq < self->first_seq || seq >= self->next_seq)
    return;
  self->ring[seq % self->capacity].value = value;
}

guint64
sl_journal_get_n_dropped (const SlJournal *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->first_seq;
}

const char *
sl_change_kind_to_string (SlChangeKind kind)
{
  switch (kind)
    {
    case SL_CHANGE_LINK: return "link";
    case SL_CHANGE_TREE_EDGE_IN: return "tree-edge-in";
    case SL_CHANGE_TREE_EDGE_OUT: return "tree-edge-out";
    case SL_CHANGE_REFERENCE: return "reference";
    case SL_CHANGE_TRANSFORM: return "transform";
    default: g_assert_not_reached ();
    }
}

G_DEFINE_QUARK (sl-error-quark, sl_error)

const char *
sl_quality_to_string (SlQuality quality)
{
  switch (quality)
    {
    case SL_QUALITY_ABSENT: return "absent";
    case SL_QUALITY_INCOMPLETE: return "incomplete";
    case SL_QUALITY_APPROXIMATE: return "approximate";
    case SL_QUALITY_ACCURATE: return "accurate";
    case SL_QUALITY_FAIL: return "fail";
    default: g_assert_not_reached ();
    }
}
