#!/bin/sh
# test-lttng216.sh: LTTng 2.16's own CTF 2 (its default format), recorded by
# Debian sid's lttng-sessiond, lttng-consumerd and lttng-relayd and a
# traced program built against sid's lttng-ust, read by Syncline (issue 15).
#
# SL_LTTNG216_ROOT: a sysroot of sid's LTTng 2.16 and babeltrace2 2.1
# (tests/lttng216-sysroot.sh makes one); without it the test is skipped, and
# in a build against babeltrace2 2.0 too (SL_BT_READS_CTF2=0: CTF 2 is not
# read there). Every sid program runs through the sysroot's loader; the
# build's decoder with 2.1's library and plugins only. Not in .ci/run (about
# 3 minutes with the download); README says how to run it.
#
# 1. The live harness (test-live-harness) with sid's daemons: three hosts
#    record CTF 2 live through the relay (the harness reads each clock
#    class's offset from the CTF 2 metadata).
#    Its traced program gives the addresses as 16-byte BLOBs (CTF 2's
#    static-length-blob, LTTng-UST 2.16's lttng_ust_field_fixed_length_blob).
# 2. The folders the relay wrote (CTF 2: a JSON text sequence) read by
#    `sync --json`: every host synchronized (its addresses read from the
#    BLOBs), two links; `--export` writes them in CTF 2: babeltrace2 2.1
#    reads as many events from each copy as from its folder, and `sync` of
#    the copies puts every host within its bound of its reference (offsets
#    at the start no larger than the bound; before, at least one is).
# 3. With SL_LTTNG216_LIVE=1, the live suite (test-live; addresses in
#    arrays): Syncline attached live to CTF 2 sessions (the CLI's too),
#    faults, recreated sessions.
set -eu

root=${SL_LTTNG216_ROOT:-}
cli=${SL_CLI:?SL_CLI: the syncline-cli to test}
if [ -z "$root" ] || [ ! -x "$root/usr/bin/lttng-sessiond" ]; then
  echo "SKIP: no LTTng 2.16 sysroot (set SL_LTTNG216_ROOT; tests/lttng216-sysroot.sh makes one)"
  exit 77
fi
if [ "${SL_BT_READS_CTF2:-0}" != 1 ]; then
  echo "SKIP: this build is against babeltrace2 2.0, which does not read CTF 2 (set up one against the sysroot's babeltrace2.pc)"
  exit 77
fi
root=$(cd "$root" && pwd)
lib=$root/usr/lib/x86_64-linux-gnu
build=$(cd "$(dirname "$cli")/../.." && pwd)
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sl-lttng216.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the harness drops root: its users read the wrappers
chmod 755 "$tmp"
mkdir "$tmp/bin" "$tmp/harness"

# sid's programs through its loader; the consumer daemon spawned by the
# session daemon the same way (not with --consumerd64-libdir: it would put
# the sysroot in LD_LIBRARY_PATH of the wrapper's /bin/sh)
wrap() {
  printf '#!/bin/sh\nexec %s --library-path %s %s "$@"\n' "$lib/ld-linux-x86-64.so.2" "$2" "$3" > "$tmp/bin/$1"
  chmod 755 "$tmp/bin/$1"
}
wrap lttng "$lib" "$root/usr/bin/lttng"
wrap lttng-relayd "$lib" "$root/usr/bin/lttng-relayd"
wrap lttng-consumerd "$lib" "$lib/lttng/libexec/lttng-consumerd"
wrap lttng-sessiond "$lib" "$root/usr/bin/lttng-sessiond --consumerd64-path=$tmp/bin/lttng-consumerd"
wrap babeltrace2 "$lib" "$root/usr/bin/babeltrace2 --omit-system-plugin-path --plugin-path=$lib/babeltrace2/plugins"
wrap sl-test-netpeer "$lib:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu" "$tmp/netpeer"
wrap sl-test-netpeer-blob "$lib:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu" "$tmp/netpeer-blob"
printf '#!/bin/sh\nexport BABELTRACE_PLUGIN_PATH=%s\nexec %s --library-path %s %s "$@"\n' "$lib/babeltrace2/plugins" \
  "$lib/ld-linux-x86-64.so.2" "$lib:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu" \
  "$build/src/core/trace/bt/syncline-decoder" > "$tmp/bin/decoder"
chmod 755 "$tmp/bin/decoder"

# the traced program built against sid's lttng-ust headers and library:
# netpeer-blob gives the addresses as CTF 2 BLOBs (static-length-blob)
for variant in netpeer:-USL_TP_BLOB_ADDRESSES netpeer-blob:-DSL_TP_BLOB_ADDRESSES; do
  ${CC:-cc} -O2 "${variant#*:}" -I"$build" -I"$src/live" -I"$root/usr/include/x86_64-linux-gnu" \
    -I"$root/usr/include" $(pkg-config --cflags glib-2.0) "$src/live/sl-test-netpeer.c" -o "$tmp/${variant%%:*}" \
    -L"$lib" -llttng-ust -llttng-ust-common -Wl,--allow-shlib-undefined -Wl,-rpath-link,"$lib" \
    $(pkg-config --libs glib-2.0) -lpthread -ldl
  chmod 755 "$tmp/${variant%%:*}"
done
echo "$("$tmp/bin/lttng" --version), $("$tmp/bin/babeltrace2" --version | head -n 1)"

export PATH="$tmp/bin:$PATH" SL_LTTNG="$tmp/bin/lttng" SL_LTTNG_RELAYD="$tmp/bin/lttng-relayd" \
  SL_LTTNG_SESSIOND="$tmp/bin/lttng-sessiond" SL_BABELTRACE2="$tmp/bin/babeltrace2" \
  SL_TEST_NETPEER="$tmp/bin/sl-test-netpeer" SL_TEST_EXEC="$build/tests/sl-test-exec" \
  SL_TEST_CLOCK_PLUGIN="$build/tests/sl-test-clock.so" SL_DECODER="$tmp/bin/decoder" SL_REQUIRE_LIVE=1

fail=0
# 1. the harness, its folders kept, its hosts' addresses in BLOBs
if ! TMPDIR="$tmp/harness" SL_HARNESS_KEEP=1 SL_TEST_NETPEER="$tmp/bin/sl-test-netpeer-blob" \
     "$build/tests/test-live-harness" --tap > "$tmp/harness.log" 2>&1; then
  echo "FAIL live-harness with LTTng 2.16:"
  grep -v '^#' "$tmp/harness.log" | tail -n 30
  exit 1
fi
echo "ok live-harness with LTTng 2.16"
out=$(ls -d "$tmp"/harness/sl-harness-*/out | head -n 1)

# 2. the relay's CTF 2 folders
meta=$(find "$out" -name metadata | head -n 1)
if ! head -c 1 "$meta" | od -An -c | grep -q '036'; then
  echo "FAIL folders: $meta is not CTF 2 (no record separator): LTTng 2.16's default changed?"
  fail=1
fi
if ! grep -q '"static-length-blob"' "$meta"; then
  echo "FAIL folders: $meta has no BLOB (the addresses of sl-test-netpeer-blob)"
  fail=1
fi
"$cli" sync --json --no-progress "$out" > "$tmp/sync.json" 2> "$tmp/sync.err" || true
if python3 - "$tmp/sync.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
hosts = d["hosts"]
ok = len(hosts) == 3 and all(h.get("synchronized") for h in hosts) and len(d["links"]) == 2
print(f"hosts {[(h['name'], h.get('synchronized')) for h in hosts]}, links {len(d['links'])}, problems {d['problems']}")
sys.exit(0 if ok else 1)
PY
then
  echo "ok folders: LTTng 2.16's CTF 2 read by sync, three hosts synchronized"
else
  echo "FAIL folders: sync --json of LTTng 2.16's CTF 2 folders:"
  head -n 5 "$tmp/sync.err"
  fail=1
fi
if ! "$cli" sync --no-progress --export="$tmp/export" "$out" > /dev/null 2> "$tmp/export.err"; then
  echo "FAIL export: sync --export of LTTng 2.16's CTF 2 folders:"
  head -n 5 "$tmp/export.err"
  fail=1
else
  "$cli" sync --json --no-progress "$tmp/export" > "$tmp/export.json" 2> "$tmp/export-sync.err" || true
  counts=ok
  for m in $(find "$out" -name metadata); do
    trace=$(dirname "$m")
    # the relay's folders are HOST/SESSION/…/TRACE; the export's HOST/TRACE
    rel=${trace#"$out"/}
    copy=$tmp/export/${rel%%/*}/$(basename "$trace")
    if [ ! -f "$copy/metadata" ] || ! head -c 1 "$copy/metadata" | od -An -c | grep -q '036' ||
       [ "$(babeltrace2 "$trace" | wc -l)" != "$(babeltrace2 "$copy" | wc -l)" ]; then
      echo "FAIL export: $trace: its copy $copy is not CTF 2 with as many events"
      counts=
      fail=1
    fi
  done
  if [ -n "$counts" ] && python3 - "$tmp/sync.json" "$tmp/export.json" <<'PY'
import json, sys
before = {h["name"]: h for h in json.load(open(sys.argv[1]))["hosts"]}
after = {h["name"]: h for h in json.load(open(sys.argv[2]))["hosts"]}
def off(h):
    return abs(h["start"]["offset_ns"]) if h.get("start") else 0.0
far = [n for n, h in before.items() if h.get("reference") != n and off(h) > h["bound_ns"]]
near = all(h.get("synchronized") and off(h) <= h["bound_ns"] for h in after.values())
print(f"before: {[(n, round(off(h)), round(before[n]['bound_ns'])) for n, h in before.items()]}")
print(f"after:  {[(n, round(off(h), 1), round(h['bound_ns'])) for n, h in after.items()]}")
sys.exit(0 if far and near and set(after) == set(before) else 1)
PY
  then
    echo "ok export: LTTng 2.16's CTF 2 exported in CTF 2, every copy's host within its bound of its reference"
  elif [ -n "$counts" ]; then
    echo "FAIL export: the copies are not synchronized (see above)"
    fail=1
  fi
fi
rm -rf "$tmp"/harness/sl-harness-*

# 3. live, with the build's engine and CLI, with SL_LTTNG216_LIVE=1 only:
# /live/sync once missed its goal in 120 s beside another live run (w79's
# notes). /live/cli, left out after its stall check failed under load ("the
# relay answers again" while the relay was stopped), runs again since that
# message follows the relay's own data (w88).
if [ "${SL_LTTNG216_LIVE:-0}" != 1 ]; then
  echo "note: the live suite with LTTng 2.16 not run (SL_LTTNG216_LIVE=1 runs it)"
elif ! TMPDIR="$tmp/harness" "$build/tests/test-live" --tap > "$tmp/live.log" 2>&1; then
  echo "FAIL live suite with LTTng 2.16:"
  grep -v '^#' "$tmp/live.log" | tail -n 30
  fail=1
else
  echo "ok live suite with LTTng 2.16 ($(grep -c '^ok' "$tmp/live.log") tests)"
fi
exit $fail
