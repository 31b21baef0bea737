#!/usr/bin/env bash
# Issue 20's memory goal: the application attached to the live harness's
# three hosts (a real lttng-relayd, one session daemon per host, three
# loopback links of 200 round trips/s each) with a short retention, its
# timeline's memory sampled once the retention is full. It is the UI test
# /ui/live/retention (tests/ui/test-ui-live.c, test ui-live-retention) run for longer: the same
# assertion (the stores' and timeline's bytes within ±10 % of their mean),
# and one line per sample: those bytes and the process's resident memory.
# Usage: tests/bench-live-memory.sh BUILD_DIR [RUN_S [RETENTION_S]]
#   RUN_S: how long it is measured once full (default 600)
#   RETENTION_S: the retention (default 120)
# Needs what the live UI tests need (lttng-tools, lttng-relayd, Xvfb, user
# namespaces); it takes RUN_S + 2 x RETENTION_S + about a minute.
# The resident memory is a user's: the UI tests' MALLOC_PERTURB_ (glibc then
# fills every freed block and clears every large calloc, touching pages a
# user's process never touches) and G_DEBUG=gc-friendly are left out. Each
# sample also says what glibc's malloc holds: in use (what the program
# keeps) against free in its arenas (fragmentation).
set -euo pipefail
build=${1:?usage: tests/bench-live-memory.sh BUILD_DIR [RUN_S [RETENTION_S]]}
run_s=${2:-600}
retention_s=${3:-120}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

start=$(date +%s)
status=0
SL_BENCH_RUN_S=$run_s SL_BENCH_RETENTION_S=$retention_s \
  meson test -C "$build" ui-live-retention --timeout-multiplier 0 \
  --wrapper='env -u MALLOC_PERTURB_ G_DEBUG=fatal-warnings' --logbase bench-live-memory \
  --verbose >"$log" 2>&1 || status=$?
# (the test's messages are in meson's log, not in what it prints)
grep -aE "sample [0-9]+ s:|retention [0-9]+ s, measured" "$build/meson-logs/bench-live-memory.txt" | sed 's/^.*# //' || true
echo "wall time $(( $(date +%s) - start )) s, load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$status" -ne 0 ]; then
  echo "FAILED (status $status); the test's log:" >&2
  tail -40 "$log" >&2
fi
exit "$status"
