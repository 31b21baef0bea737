#!/usr/bin/env bash
# Scale: syncline-cli sync --json on generated sets of more and more hosts,
# with 1 to N decoding threads: CPU per event, wall time, peak RSS (and per
# host, over the smallest set), JSON size. Nothing is asserted.
#
# Usage: tests/bench-scale.sh BUILD_DIR [OPTIONS]
#   --hosts="10 200 1000"   host counts (default "10 200 1000 2000 4000 10000")
#   --threads="1 2"         decoding threads (default: 1 and every processor)
#   --runs=N                runs of each (default 1)
#   --other=BUILD_DIR       a second build (e.g. the previous commit's), run
#                           alternately with the first on the same sets
#   --sets=DIR              keep the generated sets there and reuse them
#   --events-per-host=N     generator's --events target per host (default 3300;
#                           the traffic adds more: ~37 000 events per host)
#   --args="…"              more arguments for sync (e.g. --journal=full)
# One line per run: hosts threads build events wall_s cpu_s cpu_us_per_event
# peak_rss_MB (syncline-cli alone) rss_kB_per_host tree_MB (syncline-cli and
# its syncline-decoder processes: tests/bench-tree-rss.py) tree_kB_per_host
# json_bytes.
set -euo pipefail
build=${1:?usage: tests/bench-scale.sh BUILD_DIR [OPTIONS]}
shift
hosts="10 200 1000 2000 4000 10000"
threads="1 $(nproc)"
runs=1
other=""
sets=""
per_host=3300
args=""
for a in "$@"; do
  case "$a" in
    --hosts=*) hosts=${a#*=} ;;
    --threads=*) threads=${a#*=} ;;
    --runs=*) runs=${a#*=} ;;
    --other=*) other=${a#*=} ;;
    --sets=*) sets=${a#*=} ;;
    --events-per-host=*) per_host=${a#*=} ;;
    --args=*) args=${a#*=} ;;
    *) echo "bench-scale.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
[ "$threads" = "1 1" ] && threads=1
cli="$build/src/cli/syncline-cli"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$sets" ] || sets="$tmp/sets"
mkdir -p "$sets"

echo "# $(nproc) processors, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-3s %-8s %10s %8s %8s %7s %8s %8s %8s %8s %11s\n' hosts thr build events wall_s cpu_s us/ev rss_MB kB/host tree_MB kB/host json_B
tree_rss="$(dirname "$0")/bench-tree-rss.py"
base_rss=""
base_tree=""
base_hosts=""
for n in $hosts; do
  set_dir="$sets/h$n"
  if [ ! -f "$set_dir/ground-truth.json" ]; then
    rm -rf "$set_dir"
    if ! "$cli" generate --out="$set_dir" --hosts="$n" --events=$((n * per_host)) --quiet; then
      echo "# $n hosts: the generator refused (see above)"
      continue
    fi
  fi
  for t in $threads; do
    for r in $(seq "$runs"); do
      for b in "$build" ${other:+"$other"}; do
        # shellcheck disable=SC2086
        python3 "$tree_rss" /usr/bin/time -o "$tmp/time" -f "%e %U %S %M" \
          "$b/src/cli/syncline-cli" sync --json --no-progress --threads="$t" $args "$set_dir" \
          > "$tmp/out.json" 2> "$tmp/err" || true
        read -r wall user sys rss < "$tmp/time"
        tree=$(awk '/^tree_peak_kB/ { print $2 }' "$tmp/err")
        events=$(grep -o '"events" *: *[0-9]*' "$tmp/out.json" | tr -d ' ' | awk -F: '{ s += $2 } END { print s + 0 }')
        size=$(stat -c %s "$tmp/out.json")
        if [ -z "$base_rss" ] || [ "$n" = "$base_hosts" ]; then
          base_rss=$rss
          base_tree=$tree
          base_hosts=$n
        fi
        per=$(awk -v r="$rss" -v b="$base_rss" -v n="$n" -v m="$base_hosts" \
                'BEGIN { if (n > m) printf "%.0f", (r - b) / (n - m); else printf "-" }')
        tper=$(awk -v r="$tree" -v b="$base_tree" -v n="$n" -v m="$base_hosts" \
                'BEGIN { if (n > m) printf "%.0f", (r - b) / (n - m); else printf "-" }')
        tag=$([ "$b" = "$build" ] && echo A || echo B)
        awk -v n="$n" -v t="$t" -v tag="$tag" -v e="$events" -v w="$wall" -v u="$user" -v s="$sys" \
            -v rss="$rss" -v per="$per" -v tree="$tree" -v tper="$tper" -v size="$size" \
            'BEGIN { c = u + s; us = e > 0 ? c / e * 1e6 : 0
                     printf "%-6s %-3s %-8s %10d %8.2f %8.2f %7.3f %8.1f %8s %8.1f %8s %11d\n", n, t, tag, e, w, c, us, rss / 1024, per, tree / 1024, tper, size }'
      done
    done
  done
done
[ -n "$other" ] && echo "# A: $build  B: $other"
echo "# kB/host: (peak RSS - peak RSS of the smallest set) / (hosts - its hosts); tree: with the decoders (and /usr/bin/time, ~2 MB)"
