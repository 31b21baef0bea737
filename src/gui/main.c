/* main.c: syncline, the desktop application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "sl-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SlApplication) app = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  GSettingsSchemaSource *source;
  int ret;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  source = g_settings_schema_source_get_default ();
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema == NULL)
    {
      g_printerr ("syncline: the GSettings schema %s is not installed; install the application, "
                  "or run it with `meson devenv` from the build folder\n", APPLICATION_ID);
      return 1;
    }

  app = sl_application_new ();
  ret = g_application_run (G_APPLICATION (app), argc, argv);
  return ret != 0 ? ret : sl_application_get_exit_status (app);
}
