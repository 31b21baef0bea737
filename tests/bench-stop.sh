#!/usr/bin/env bash
# Ctrl-C: how long `syncline-cli sync` takes to end after SIGINT, sent at
# several moments of a read. Nothing is asserted.
#
# Usage: tests/bench-stop.sh BUILD_DIR SET_DIR [--delays="12 20 26"] [--other=BUILD_DIR]
# SET_DIR: trace folders (e.g. `syncline-cli generate --out=SET_DIR --hosts=200
# --events=660000`); with --other, the two builds alternate at each delay.
# One line per run: build delay_s decoders_at_sigint exit_after_s load.
set -euo pipefail
build=${1:?usage: tests/bench-stop.sh BUILD_DIR SET_DIR [OPTIONS]}
set_dir=${2:?usage: tests/bench-stop.sh BUILD_DIR SET_DIR [OPTIONS]}
shift 2
delays="12 20 26 30"
other=""
for a in "$@"; do
  case "$a" in
    --delays=*) delays=${a#*=} ;;
    --other=*) other=${a#*=} ;;
    *) echo "bench-stop.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
printf '%-30s %7s %9s %9s %6s\n' build delay_s decoders exit_s load
for d in $delays; do
  for b in "$build" ${other:+"$other"}; do
    "$b/src/cli/syncline-cli" sync --no-progress --threads=2 "$set_dir" > /dev/null 2>&1 &
    pid=$!
    sleep "$d"
    n=$(pgrep -c -P "$pid" || true)
    t0=$(date +%s.%N)
    kill -INT "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.02; done
    t1=$(date +%s.%N)
    wait "$pid" || true
    printf '%-30s %7s %9s %9.2f %6s\n' "$b" "$d" "$n" "$(echo "$t1 - $t0" | bc)" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done
