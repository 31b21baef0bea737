/* test-journal.h: a journal as text, for comparing runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>

#include "sl-journal.h"

/* Every entry of a journal, one a line; hex floats, so that equal texts
 * mean equal bits. */
static inline char *
sl_test_journal_dump (const SlJournal *journal)
{
  GString *out = g_string_new (NULL);

  for (guint64 s = sl_journal_get_first_seq (journal); s < sl_journal_get_next_seq (journal); s++)
    {
      const SlChange *c = sl_journal_get (journal, s);

      g_string_append_printf (out, "%" G_GUINT64_FORMAT " %" G_GINT64_FORMAT " %s %u %u %d %a %s\n",
                              c->seq, c->input_time, sl_change_kind_to_string (c->kind), c->a, c->b,
                              (int) c->quality, c->value, c->reason != NULL ? c->reason : "");
    }
  return g_string_free (out, FALSE);
}

/* Two texts that must be equal; else the first line that differs. */
#define sl_test_assert_same_text(a, b) \
  sl_test_assert_same_text_at (__FILE__, __LINE__, (a), (b))

static inline void
sl_test_assert_same_text_at (const char *file,
                             int         line,
                             const char *a,
                             const char *b)
{
  guint n = 1;

  if (g_strcmp0 (a, b) == 0)
    return;
  while (*a != '\0' && *a == *b)
    n += *a == '\n', a++, b++;
  while (n > 1 && a[-1] != '\n')
    a--, b--;
  g_error ("%s:%d: the texts differ from line %u:\n  %.*s\n  %.*s", file, line, n,
           (int) strcspn (a, "\n"), a, (int) strcspn (b, "\n"), b);
}
