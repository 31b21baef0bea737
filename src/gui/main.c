/* main.c: syncline, the desktop application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "sl-application.h"

/* Whether this is the executable of the build folder (not installed). */
static gboolean
in_build_folder (void)
{
  g_autofree char *exe = realpath ("/proc/self/exe", NULL);
  g_autofree char *built = realpath (SL_BUILD_DIR "/src/gui/syncline", NULL);

  return exe != NULL && built != NULL && g_strcmp0 (exe, built) == 0;
}

/* The executable in the build folder uses the schema compiled there, as
 * `meson devenv` would. */
static void
use_build_schema (void)
{
  const char *dirs = g_getenv ("GSETTINGS_SCHEMA_DIR");
  g_autofree char *with_build = NULL;

  if (!g_file_test (SL_BUILD_DIR "/data/gschemas.compiled", G_FILE_TEST_IS_REGULAR))
    return;
  with_build = dirs != NULL && dirs[0] != '\0'
               ? g_strconcat (SL_BUILD_DIR "/data", G_SEARCHPATH_SEPARATOR_S, dirs, NULL)
               : g_strdup (SL_BUILD_DIR "/data");
  g_setenv ("GSETTINGS_SCHEMA_DIR", with_build, TRUE);
}

/* and the translations compiled there (po/LANG/LC_MESSAGES): without
 * them a French user saw English words with French decimal commas, and
 * GLib's and GTK's own words in English too (GLib translates only when
 * the application's domain has the language) */
static const char *
locale_dir (gboolean in_build)
{
  return in_build && g_file_test (SL_BUILD_DIR "/po", G_FILE_TEST_IS_DIR) ? SL_BUILD_DIR "/po" : LOCALEDIR;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SlApplication) app = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  GSettingsSchemaSource *source;
  gboolean in_build = in_build_folder ();
  int ret;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, locale_dir (in_build));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (in_build)
    use_build_schema ();
  source = g_settings_schema_source_get_default ();
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema == NULL)
    {
      g_printerr ("syncline: the GSettings schema %s is not installed; install the application "
                  "(meson install), or run it from the build folder\n", APPLICATION_ID);
      return 1;
    }

  app = sl_application_new ();
  ret = g_application_run (G_APPLICATION (app), argc, argv);
  return ret != 0 ? ret : sl_application_get_exit_status (app);
}
