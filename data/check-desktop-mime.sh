#!/bin/sh
# The desktop file, installed alone into a fresh data folder (with the MIME
# cache that installing builds: meson's post-install step runs
# update-desktop-database), makes GIO, which file managers ask, offer the
# application for folders:
#   check-desktop-mime.sh DESKTOP_FILE SYNCLINE
# SPDX-License-Identifier: GPL-3.0-or-later
set -e
for tool in gio update-desktop-database; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool is not installed: test skipped"
    exit 77
  fi
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/data/applications" "$dir/bin"
cp "$1" "$dir/data/applications/"
ln -s "$2" "$dir/bin/syncline"
update-desktop-database "$dir/data/applications"
out=$(env XDG_DATA_DIRS="$dir/data" XDG_DATA_HOME="$dir/home" XDG_CONFIG_HOME="$dir/config" \
          PATH="$dir/bin:$PATH" gio mime inode/directory)
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q "$(basename "$1")"
