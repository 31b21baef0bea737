/* sl-journal.h: the change journal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-types.h"

G_BEGIN_DECLS

/**
 * SlChangeKind:
 * @SL_CHANGE_LINK: a link's quality or bounds changed (@a, @b the hosts,
 *   @quality the new quality, @value the new inaccuracy or NAN)
 * @SL_CHANGE_TREE_EDGE_IN: link (@a, @b) joined the tree (@value its weight)
 * @SL_CHANGE_TREE_EDGE_OUT: link (@a, @b) left the tree
 * @SL_CHANGE_REFERENCE: the reference of a component changed from @a (or
 *   %SL_HOST_NONE for a new component) to @b; every host of the component
 *   has a new transform
 * @SL_CHANGE_TRANSFORM: the transform of host @a and of every host below it
 *   in the tree (away from reference @b) changed; @value is @a's bound in
 *   ns once the changes flushed with this one are applied (filled in at
 *   the end of the engine's flush)
 */
typedef enum
{
  SL_CHANGE_LINK,
  SL_CHANGE_TREE_EDGE_IN,
  SL_CHANGE_TREE_EDGE_OUT,
  SL_CHANGE_REFERENCE,
  SL_CHANGE_TRANSFORM,
} SlChangeKind;

typedef struct
{
  guint64      seq;
  gint64       input_time;
  SlChangeKind kind;
  guint        a;
  guint        b;
  SlQuality    quality;
  double       value;
  const char  *reason;
} SlChange;

typedef struct _SlJournal SlJournal;

SlJournal      *sl_journal_new            (gsize           max_entries);
void            sl_journal_free           (SlJournal      *self);
void            sl_journal_set_retention  (SlJournal      *self,
                                           gint64          retention_ns);
void            sl_journal_set_time       (SlJournal      *self,
                                           gint64          input_time);
gint64          sl_journal_get_time       (const SlJournal *self);
void            sl_journal_add            (SlJournal      *self,
                                           SlChangeKind    kind,
                                           guint           a,
                                           guint           b,
                                           SlQuality       quality,
                                           double          value,
                                           const char     *reason);
guint64         sl_journal_get_next_seq   (const SlJournal *self);
guint64         sl_journal_get_first_seq  (const SlJournal *self);
void            sl_journal_set_value      (SlJournal       *self,
                                           guint64          seq,
                                           double           value);
const SlChange *sl_journal_get            (const SlJournal *self,
                                           guint64          seq);
guint64         sl_journal_get_n_dropped  (const SlJournal *self);
const char     *sl_change_kind_to_string  (SlChangeKind    kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlJournal, sl_journal_free)

G_END_DECLS
