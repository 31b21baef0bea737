/* sl-trace-problem.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sl-trace-problem.h"

struct _SlProblemList
{
  GMutex     lock;
  GPtrArray *all;
  guint      handed_out;
};

void
sl_trace_problem_free (SlTraceProblem *problem)
{
  if (problem == NULL)
    return;
  g_free (problem->host);
  g_free (problem->file);
  g_free (problem->message);
  g_free (problem);
}

char *
sl_trace_problem_to_string (const SlTraceProblem *problem)
{
  g_return_val_if_fail (problem != NULL, NULL);

  if (problem->host != NULL)
    return g_strdup_printf ("host %s: %s: %s", problem->host, problem->file, problem->message);
  return g_strdup_printf ("%s: %s", problem->file, problem->message);
}

SlTraceProblem *
sl_trace_problem_new_va (const char *host,
                         const char *file,
                         const char *fmt,
                         va_list     args)
{
  SlTraceProblem *p = g_new0 (SlTraceProblem, 1);
  g_autofree char *m = g_strdup_vprintf (fmt, args);

  p->host = sl_trace_sanitize (host);
  p->file = sl_trace_sanitize (file);
  p->message = sl_trace_sanitize (m);
  return p;
}

/**
 * sl_trace_problem_new:
 *
 * Host, file and message are made printable on one line.
 */
SlTraceProblem *
sl_trace_problem_new (const char *host,
                      const char *file,
                      const char *fmt,
                      ...)
{
  SlTraceProblem *p;
  va_list args;

  va_start (args, fmt);
  p = sl_trace_problem_new_va (host, file, fmt, args);
  va_end (args);
  return p;
}

SlTraceProblem *
sl_trace_problem_copy (const SlTraceProblem *problem)
{
  SlTraceProblem *p;

  g_return_val_if_fail (problem != NULL, NULL);

  p = g_new0 (SlTraceProblem, 1);
  p->host = g_strdup (problem->host);
  p->file = g_strdup (problem->file);
  p->message = g_strdup (problem->message);
  p->transient = problem->transient;
  return p;
}

/* Problems are printed one per line: names from hostile input (a path
 * with a newline, a hostname from damaged metadata) must not break that. */
char *
sl_trace_sanitize (const char *s)
{
  char *out;

  if (s == NULL)
    return NULL;
  out = g_utf8_make_valid (s, -1);
  for (char *p = out; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      *p = '?';
  return out;
}

/* Appends to @out the clause of @c up to its first separator; returns
 * the separator. */
static const char *
append_clause (GString    *out,
               const char *c)
{
  gsize start = out->len;

  for (; *c != '\0'; c = g_utf8_next_char (c))
    {
      if (*c == ':' || *c == ';' || *c == '(' || *c == '\n' || (*c == ',' && out->len - start > 20))
        break;
      g_string_append_unichar (out, g_utf8_get_char (c));
    }
  return c;
}

/* Up to the first separator, without hexadecimal addresses (the
 * separator after one kept). A clause that
 * only says where ("packet at offset 0", the scan's damaged packets) keeps
 * the next one, which says what: the toast read "django-db: packet at
 * offset 0" for a bad magic number. */
char *
sl_trace_problem_first_clause (const char *message)
{
  g_autoptr(GRegex) hex = g_regex_new ("\\s*\\S*0x[0-9a-fA-F]+[^\\s;:,()]*", 0, 0, NULL);
  g_autoptr(GRegex) where = g_regex_new ("^packet at offset [0-9]+$", 0, 0, NULL);
  g_autofree char *clean = g_regex_replace_literal (hex, message, -1, 0, "", 0, NULL);
  GString *out = g_string_new (NULL);
  const char *c = append_clause (out, clean);

  if (*c == ':' && g_regex_match (where, out->str, 0, NULL))
    {
      g_string_append (out, ":");
      append_clause (out, c + 1);
    }
  g_strstrip (out->str);
  out->len = strlen (out->str);
  if (g_utf8_strlen (out->str, -1) > 60)
    {
      const char *cut = g_utf8_offset_to_pointer (out->str, 59);

      g_string_truncate (out, cut - out->str);
      g_string_append (out, "…");
    }
  return g_string_free (out, FALSE);
}

/* ---------------------------------------------------------------------- */
/* Lists                                                                   */

SlProblemList *
sl_problem_list_new (void)
{
  SlProblemList *list = g_new0 (SlProblemList, 1);

  g_mutex_init (&list->lock);
  list->all = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);
  return list;
}

void
sl_problem_list_free (SlProblemList *list)
{
  if (list == NULL)
    return;
  g_ptr_array_unref (list->all);
  g_mutex_clear (&list->lock);
  g_free (list);
}

void
sl_problem_list_take (SlProblemList  *list,
                      SlTraceProblem *problem)
{
  g_return_if_fail (list != NULL);
  g_return_if_fail (problem != NULL);

  g_mutex_lock (&list->lock);
  g_ptr_array_add (list->all, problem);
  g_mutex_unlock (&list->lock);
}

void
sl_problem_list_add (SlProblemList *list,
                     const char    *host,
                     const char    *file,
                     const char    *fmt,
                     ...)
{
  SlTraceProblem *p;
  va_list args;

  g_return_if_fail (list != NULL);

  va_start (args, fmt);
  p = sl_trace_problem_new_va (host, file, fmt, args);
  va_end (args);
  sl_problem_list_take (list, p);
}

guint
sl_problem_list_count (SlProblemList *list)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (list != NULL, 0);

  locker = g_mutex_locker_new (&list->lock);
  return list->all->len;
}

/* How many sl_problem_list_take_new() would hand out now. */
guint
sl_problem_list_count_new (SlProblemList *list)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (list != NULL, 0);

  locker = g_mutex_locker_new (&list->lock);
  return list->all->len - list->handed_out;
}

static GPtrArray *
dup_range (SlProblemList *list,
           guint          from)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_trace_problem_free);

  for (guint i = from; i < list->all->len; i++)
    g_ptr_array_add (out, sl_trace_problem_copy (g_ptr_array_index (list->all, i)));
  return out;
}

/* Returns: (transfer full): every problem so far, as copies */
GPtrArray *
sl_problem_list_dup (SlProblemList *list)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (list != NULL, NULL);

  locker = g_mutex_locker_new (&list->lock);
  return dup_range (list, 0);
}

/* Returns: (transfer full): copies of the problems added since the
 * previous call */
GPtrArray *
sl_problem_list_take_new (SlProblemList *list)
{
  GPtrArray *out;

  g_return_val_if_fail (list != NULL, NULL);

  g_mutex_lock (&list->lock);
  out = dup_range (list, list->handed_out);
  list->handed_out = list->all->len;
  g_mutex_unlock (&list->lock);
  return out;
}
