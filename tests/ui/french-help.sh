#!/bin/sh
# The application run from the build folder speaks French under a French
# locale, from the catalogue compiled there (po/fr/LC_MESSAGES): it spoke
# English with French decimal commas. Skips without fr_FR.UTF-8.
#   french-help.sh SYNCLINE
# SPDX-License-Identifier: GPL-3.0-or-later
if ! locale -a 2>/dev/null | grep -qix 'fr_FR\.utf-\{0,1\}8'; then
  echo "fr_FR.UTF-8 is not installed (localedef -i fr_FR -f UTF-8 fr_FR.UTF-8): skipped"
  exit 77
fi
out=$(env -u GSETTINGS_SCHEMA_DIR LC_ALL=fr_FR.UTF-8 LANGUAGE= "$1" --help) || exit 1
echo "$out"
case "$out" in
  *"Options de l’application"*"Écrire une image PNG de la fenêtre"*) exit 0 ;;
esac
echo "not in French"
exit 1
