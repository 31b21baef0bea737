/* sl-parallel.h: a loop whose iterations the calling thread shares with
 * helper threads, for the parts of a frame that split into independent
 * pieces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef void (*SlParallelFunc) (guint    index,
                                gpointer user_data);

void  sl_parallel_for          (guint          n,
                                SlParallelFunc func,
                                gpointer       user_data);

void  sl_parallel_for_at_most  (guint          n,
                                guint          max_threads,
                                SlParallelFunc func,
                                gpointer       user_data);

guint sl_parallel_get_helpers  (void);
void  sl_parallel_set_helpers  (guint          n_helpers);

G_END_DECLS
