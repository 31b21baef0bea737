/* sl-transforms-file.h: the hosts' clock relations saved and read back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "sl-engine.h"
#include "sl-relation.h"

G_BEGIN_DECLS

#define SL_TRANSFORMS_FILE_VERSION 1

/**
 * SlSavedHost:
 * @name: the host's name (the trace hostname, or `NAME/UUID8`)
 * @reference: (nullable): the host its relation maps to (%NULL: the host
 *   keeps its own clock)
 * @synchronized: as #SlHostInfo
 * @best_effort: as #SlHostInfo
 * @to_reference: the piece of @relation that covers most of the host's
 *   events (what `--export` writes into the metadata)
 * @relation: the host's clock → @reference's, with its bound
 */
typedef struct
{
  char        *name;
  char        *reference;
  gboolean     synchronized;
  gboolean     best_effort;
  SlTransform  to_reference;
  SlRelation  *relation;
} SlSavedHost;

typedef struct _SlTransformSet SlTransformSet;

SlTransformSet    *sl_transform_set_new_from_engine (SlEngine             *engine);
void               sl_transform_set_fix_engine      (const SlTransformSet *self,
                                                     SlEngine             *engine,
                                                     const char           *source);
SlTransformSet    *sl_transform_set_load            (const char           *path,
                                                     GError              **error);
gboolean           sl_transform_set_save            (const SlTransformSet *self,
                                                     const char           *path,
                                                     GError              **error);
char              *sl_transform_set_to_string       (const SlTransformSet *self);
void               sl_transform_set_free            (SlTransformSet       *self);
guint              sl_transform_set_get_n_hosts     (const SlTransformSet *self);
const SlSavedHost *sl_transform_set_get_host        (const SlTransformSet *self,
                                                     guint                 i);
const SlSavedHost *sl_transform_set_lookup          (const SlTransformSet *self,
                                                     const char           *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTransformSet, sl_transform_set_free)

G_END_DECLS
