#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Side by side: README's benchmarks on two builds in one run, the builds
# alternating within each round, with figures that a loaded machine does not
# change: instruction counts (callgrind) for bench graph's incremental part
# and the whole of bench hull (first round only: they do not vary), CPU
# seconds for the rest.
# Usage: tests/bench-compare.sh BUILD_A BUILD_B [ROUNDS [OUT_DIR]]
# Each run's output stays in OUT_DIR (a new temporary folder by default):
# hull-R-X.out, graph-R-X.out (and .cg, callgrind's), sync-R-X.time (wall,
# user and system seconds of syncline-cli with its decoders, the largest
# process's peak kB),
# bt2-R.time (babeltrace2 -o dummy on the same set), views-R-X.json and
# timeline-R-X.json (syncline-bench under Xvfb, cairo). Nothing is asserted.
set -euo pipefail
a=${1:?usage: tests/bench-compare.sh BUILD_A BUILD_B [ROUNDS [OUT_DIR]]}
b=${2:?usage: tests/bench-compare.sh BUILD_A BUILD_B [ROUNDS [OUT_DIR]]}
rounds=${3:-2}
out=${4:-$(mktemp -d)}
a=$(cd "$a" && pwd)
b=$(cd "$b" && pwd)
mkdir -p "$out"
echo "A $a"
echo "B $b"
echo "output in $out; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

set_dir=$out/set
if [ ! -d "$set_dir" ]; then
  "$a/src/cli/syncline-cli" generate --out="$set_dir" --hosts=4 --events=8000000 --quiet
fi

callgrind_total () {
  # the "summary:" line of a callgrind output file: instructions executed
  sed -n 's/^summary: *//p' "$1"
}

for r in $(seq "$rounds"); do
  for tag in A B; do
    if [ "$tag" = A ]; then build=$a; else build=$b; fi
    cli=$build/src/cli/syncline-cli

    # instruction counts do not vary from run to run: the first round only
    if [ "$r" = 1 ]; then
      valgrind -q --tool=callgrind --callgrind-out-file="$out/hull-$r-$tag.cg" \
        "$cli" bench hull --packets 1000000 --json > "$out/hull-$r-$tag.out"
      echo "round $r $tag bench hull --packets 1000000: $(callgrind_total "$out/hull-$r-$tag.cg") instructions"

      valgrind -q --tool=callgrind --callgrind-out-file="$out/graph-$r-$tag.cg" \
        --toggle-collect=sl_graph_update_edge --toggle-collect=sl_graph_get_transform \
        "$cli" bench graph --nodes 10000 --ops 1000000 --json > "$out/graph-$r-$tag.out"
      echo "round $r $tag bench graph --nodes 10000 --ops 1000000 (incremental part):" \
        "$(callgrind_total "$out/graph-$r-$tag.cg") instructions"
    fi

    /usr/bin/time -o "$out/sync-$r-$tag.time" -f "%e %U %S %M" \
      "$cli" sync --no-progress "$set_dir" > /dev/null
    echo "round $r $tag sync (wall user system peak_kB): $(cat "$out/sync-$r-$tag.time")"

    for what in views timeline; do
      screen=1600x1200x24
      [ "$what" = timeline ] && screen=1920x1200x24
      (cd "$build" && meson devenv -C . env GSK_RENDERER=cairo \
         xvfb-run -a -s "-screen 0 $screen" src/gui/syncline-bench "$what") \
        > "$out/$what-$r-$tag.json" 2> "$out/$what-$r-$tag.err" || true
      echo "round $r $tag syncline-bench $what: $out/$what-$r-$tag.json"
    done
  done
  /usr/bin/time -o "$out/bt2-$r.time" -f "%e %U %S %M" \
    babeltrace2 -o dummy "$set_dir"/*/kernel > /dev/null
  echo "round $r babeltrace2 -o dummy (wall user system peak_kB): $(cat "$out/bt2-$r.time")"
done
