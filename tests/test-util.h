/* test-util.h: helpers shared by the test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

/* The shared test data lives beside the project (../shared/data); tests
 * read it in place and skip with a message when it is absent. */
static inline char *
sl_test_data_path (const char *first,
                   ...)
{
  const char *base = g_getenv ("SL_SHARED_DATA");
  g_autofree char *rel = NULL;
  char *path;
  va_list args;

  va_start (args, first);
  rel = g_build_filename_valist (first, &args);
  va_end (args);

  path = g_build_filename (base != NULL ? base : "../shared/data", rel, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *msg = g_strdup_printf ("test data %s is absent; skipping", path);
      g_test_skip (msg);
      g_free (path);
      return NULL;
    }
  return path;
}
