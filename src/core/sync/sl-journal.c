/* sl-journal.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-journal.h"

/* A ring of the most recent entries: long live runs keep the newest
 * max_entries (and, with a retention, only those of its span behind the
 * newest input time) and count what fell off the front. The ring grows by
 * doubling as it fills and shrinks by half when a quarter is used: its
 * pages follow what is kept (allocated at once, 2^20 entries are 48 MB that
 * a live run touched a page at a time, minutes after minutes). */
struct _SlJournal
{
  SlChange *ring;
  gsize     capacity;  /* max_entries */
  gsize     alloc;     /* the ring's size, at most capacity */
  gsize     head;      /* where first_seq is */
  guint64   first_seq;
  guint64   next_seq;
  gint64    input_time;
  gint64    retention;
};

#define JOURNAL_MIN_ALLOC 64

SlJournal *
sl_journal_new (gsize max_entries)
{
  SlJournal *self = g_new0 (SlJournal, 1);

  self->capacity = MAX (max_entries, 16);
  self->alloc = MIN (self->capacity, JOURNAL_MIN_ALLOC);
  self->ring = g_new0 (SlChange, self->alloc);
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

static SlChange *
journal_slot (const SlJournal *self,
              guint64          seq)
{
  return &self->ring[(self->head + (seq - self->first_seq)) % self->alloc];
}

/* the entries kept, in order, into a ring of @alloc */
static void
journal_resize (SlJournal *self,
                gsize      alloc)
{
  gsize n = self->next_seq - self->first_seq;
  SlChange *ring = g_new (SlChange, alloc);
  gsize tail = MIN (n, self->alloc - self->head);

  g_assert (n <= alloc);
  memcpy (ring, self->ring + self->head, tail * sizeof (SlChange));
  memcpy (ring + tail, self->ring, (n - tail) * sizeof (SlChange));
  g_free (self->ring);
  self->ring = ring;
  self->alloc = alloc;
  self->head = 0;
}

static void
journal_drop_first (SlJournal *self)
{
  self->first_seq++;
  self->head = (self->head + 1) % self->alloc;
}

/**
 * sl_journal_set_retention:
 * @retention_ns: entries whose input time is more than this behind the
 *   newest input time are dropped as entries are added (0: none)
 */
void
sl_journal_set_retention (SlJournal *self,
                          gint64     retention_ns)
{
  g_return_if_fail (self != NULL);

  self->retention = MAX (retention_ns, 0);
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
  gsize n;

  g_return_if_fail (self != NULL);

  /* (input times only grow) */
  if (self->retention > 0 && self->input_time >= G_MININT64 + self->retention)
    {
      gint64 cut = self->input_time - self->retention;

      while (self->next_seq > self->first_seq && journal_slot (self, self->first_seq)->input_time < cut)
        journal_drop_first (self);
    }
  n = self->next_seq - self->first_seq;
  if (n == self->capacity)
    journal_drop_first (self);
  else if (n == self->alloc)
    journal_resize (self, MIN (self->alloc * 2, self->capacity));
  else if (self->alloc > JOURNAL_MIN_ALLOC && n < self->alloc / 4)
    journal_resize (self, self->alloc / 2);

  c = journal_slot (self, self->next_seq);
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
  return journal_slot (self, seq);
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
  journal_slot (self, seq)->value = value;
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
