#!/bin/sh
# Runs a UI test program on its own X server and session bus:
#   run-ui-test.sh PROGRAM [ARGS...]
# Exits 77 (skip) when xvfb-run or dbus-run-session is missing.
# SPDX-License-Identifier: GPL-3.0-or-later
for tool in xvfb-run dbus-run-session; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP $tool is not installed"
    exit 77
  fi
done
mkdir -p ${SL_SCREENSHOT_DIR:+"$SL_SCREENSHOT_DIR"} "$HOME" "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
exec xvfb-run -a -s "-screen 0 1600x1200x24 -nolisten tcp" dbus-run-session -- "$@"
