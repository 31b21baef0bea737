#!/usr/bin/env bash
# The goals of issue 14 on generated clusters (README, "Goals on generated
# clusters"): for each size and length, a cluster whose clocks wander by
# 0.5–5 ppm (periods 10 min–2 h, drawn per host) is generated, synchronized
# with `sync --json --profiles=full` (the exact bound profiles; the default
# report gives an upper envelope of at most 8 points), and checked against
# the generator's ground truth by
# tests/check-goals.py; then the same hosts and traffic with constant drift
# over 10 minutes, and (when 43200 is among the durations) 12-hour clusters
# whose clocks wander by at most 1 ppm. Nothing is asserted: one line per set.
# Usage: tests/bench-goals.sh BUILD_DIR [RATE [SIZES [DURATIONS]]]
#   RATE: TCP segments per second per link (default 20)
#   SIZES: host counts (default "2 5 20"); DURATIONS: seconds
#   (default "600 3600 14400 43200")
set -euo pipefail
build=${1:?usage: tests/bench-goals.sh BUILD_DIR [RATE [SIZES [DURATIONS]]]}
rate=${2:-20}
sizes=${3:-2 5 20}
durations=${4:-600 3600 14400 43200}
cli="$build/src/cli/syncline-cli"
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# N host specs NAME:FREQ:OFFSET:DRIFT:WANDER:PERIOD, seeded; WANDER in
# [wlo, whi] ppm (0 0: constant drift)
hosts () {
  awk -v n="$1" -v seed="$2" -v wlo="$3" -v whi="$4" 'BEGIN {
    srand(seed);
    for (i = 1; i <= n; i++) {
      off = int((rand() * 2 - 1) * 1e12); drift = (rand() * 2 - 1) * 50;
      w = wlo + rand() * (whi - wlo); p = 600 + rand() * 6600;
      printf "--host=h%02d:1000000000:%.0f:%.4f:%.4f:%.1f\n", i, off, drift, w, p;
    }
  }'
}

run () {
  local n=$1 dur=$2 wlo=$3 whi=$4 label=$5
  local out="$dir/t" report="$dir/r.json" status
  rm -rf "$out"
  mapfile -t specs < <(hosts "$n" "$n" "$wlo" "$whi")
  "$cli" generate --out="$out" "${specs[@]}" --duration="$dur" --rate="$rate" --background=0 \
    --noise=0 --cpus=1 --seed="$n" --quiet
  local t0=$SECONDS
  status=0
  "$cli" sync --json --profiles=full --no-progress "$out" > "$report" || status=$?
  local secs=$((SECONDS - t0))
  python3 "$here/check-goals.py" "$out" "$report" --samples 2000 > "$dir/c.json" || true
  python3 - "$dir/c.json" "$n" "$dur" "$label" "$status" "$secs" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
n, dur, label, status, secs = sys.argv[2:7]
med = c["median_host_bound_ns"]
print(f"{n:>5} {int(dur) / 3600:6.2f} h  {label:<22} exit {status}  synchronized {str(c['all_synchronized']):5}  "
      f"outside {c['samples_outside_bound']:>3}/{(int(n) - 1) * c['samples_per_host']:<6} "
      f"median bound {med / 1e3 if med is not None else float('nan'):9.1f} us  "
      f"largest {c['largest_host_bound_ns'] / 1e3 if c['largest_host_bound_ns'] is not None else float('nan'):9.1f} us  "
      f"worst true error {c['worst_true_error_ns'] / 1e3:7.2f} us  (sync {secs} s)")
EOF
  rm -rf "$out"
}

echo "rate $rate segments/s per link; $(nproc) cores"
for n in $sizes; do
  run "$n" 600 0 0 "constant drift"
  for dur in $durations; do
    run "$n" "$dur" 0.5 5 "wander 0.5-5 ppm"
  done
  case " $durations " in
    *" 43200 "*) run "$n" 43200 0.5 1 "wander 0.5-1 ppm" ;;
  esac
done
