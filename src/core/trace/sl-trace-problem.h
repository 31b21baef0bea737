/* sl-trace-problem.h: what went wrong with one input, for both readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SlTraceProblem:
 * @host: host name, or %NULL when the problem is not tied to a host
 * @file: the file, folder or URL at fault
 * @message: what is wrong, one line
 * @transient: a passing state of a live attachment (the relay stalled, it
 *   answers again) that the host's live state shows as long as it lasts
 *
 * A problem that skipped a trace, a file or the rest of a host's stream;
 * the other hosts go on. The folder reader and the live reader raise the
 * same type.
 */
typedef struct
{
  char *host;
  char *file;
  char *message;
  gboolean transient;
} SlTraceProblem;

SlTraceProblem *sl_trace_problem_new       (const char           *host,
                                            const char           *file,
                                            const char           *fmt,
                                            ...) G_GNUC_PRINTF (3, 4);
SlTraceProblem *sl_trace_problem_new_va    (const char           *host,
                                            const char           *file,
                                            const char           *fmt,
                                            va_list               args) G_GNUC_PRINTF (3, 0);
SlTraceProblem *sl_trace_problem_copy      (const SlTraceProblem *problem);
void            sl_trace_problem_free      (SlTraceProblem       *problem);
char           *sl_trace_problem_to_string (const SlTraceProblem *problem);
char           *sl_trace_sanitize          (const char           *text);
char           *sl_trace_problem_first_clause (const char        *message);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTraceProblem, sl_trace_problem_free)

/**
 * SlProblemList:
 *
 * The problems a reader raised, in order, safe to add to from any thread.
 * sl_problem_list_take_new() hands out those added since its previous
 * call (live updates); sl_problem_list_dup() all of them.
 */
typedef struct _SlProblemList SlProblemList;

SlProblemList *sl_problem_list_new      (void);
void           sl_problem_list_free     (SlProblemList  *list);
void           sl_problem_list_add      (SlProblemList  *list,
                                         const char     *host,
                                         const char     *file,
                                         const char     *fmt,
                                         ...) G_GNUC_PRINTF (4, 5);
void           sl_problem_list_take     (SlProblemList  *list,
                                         SlTraceProblem *problem);
guint          sl_problem_list_count    (SlProblemList  *list);
guint          sl_problem_list_count_new (SlProblemList *list);
GPtrArray     *sl_problem_list_dup      (SlProblemList  *list);
GPtrArray     *sl_problem_list_take_new (SlProblemList  *list);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlProblemList, sl_problem_list_free)

G_END_DECLS
