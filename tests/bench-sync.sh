#!/usr/bin/env bash
# Side-by-side: syncline-cli sync against babeltrace2's own decoding on a
# generated 4-host, 8 M-event trace set.
# Usage: tests/bench-sync.sh BUILD_DIR [RUNS [OTHER_BUILD_DIR]]
# With OTHER_BUILD_DIR (e.g. the previous commit's build), both builds run
# alternately on the same set. Prints wall and CPU seconds per run; nothing
# is asserted.
set -euo pipefail
build=${1:?usage: tests/bench-sync.sh BUILD_DIR [RUNS [OTHER_BUILD_DIR]]}
runs=${2:-3}
other=${3:-}
cli="$build/src/cli/syncline-cli"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$cli" generate --out="$dir/t" --hosts=4 --events=8000000 --quiet
echo "set: $(du -sh "$dir/t" | cut -f1), $(nproc) cores"
for i in $(seq "$runs"); do
  for b in "$build" ${other:+"$other"}; do
    tag=""
    [ -n "$other" ] && tag=" [$b]"
    /usr/bin/time -f "syncline sync            wall %e s  cpu %U+%S s  maxrss %M kB$tag" \
      "$b/src/cli/syncline-cli" sync --no-progress "$dir/t" > /dev/null
    # babeltrace decoding and conversion only, for the CPU overhead of the rest
    SL_READER_DECODE_ONLY=1 /usr/bin/time -o "$dir/time" \
      -f "syncline decode only     wall %e s  cpu %U+%S s  maxrss %M kB$tag" \
      "$b/src/cli/syncline-cli" sync --no-progress "$dir/t" > /dev/null 2>&1 || true
    grep '^syncline' "$dir/time" >&2
  done
  /usr/bin/time -f "babeltrace2 -o dummy     wall %e s  cpu %U+%S s  maxrss %M kB" \
    babeltrace2 -o dummy "$dir"/t/*/kernel > /dev/null
done 2>&1 | grep -E '^(syncline|babeltrace2)'
