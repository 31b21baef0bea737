#!/bin/sh
# test-bt21.sh: Syncline's decoders with babeltrace2 2.1 (issue 15), against
# those with the system's babeltrace2 (2.0.4 on Debian 12).
#
# SL_BT21_ROOT: a sysroot holding Debian 13's babeltrace2 2.1 and the libc
# it needs (tests/bt21-sysroot.sh makes one); without it the test is
# skipped. SL_BT21_DECODER: the syncline-decoder to run with 2.1 (.ci/run
# gives one compiled against 2.1's headers); default: this build's.
#
# 1. `sync --json` of the shared real traces and of a generated set reads
#    the same with 2.1's library and plugins as with the system's (the
#    timing object left out).
# 2. The generated set written again as CTF 2 by 2.1's sink.ctf.fs: each
#    host's folder is named in a problem saying CTF 2 needs babeltrace2 2.1,
#    and no host is read from it; the CTF 1.8 hosts beside it are read.
set -eu

root=${SL_BT21_ROOT:-}
cli=${SL_CLI:?SL_CLI: the syncline-cli to test}
if [ -z "$root" ] || [ ! -x "$root/usr/bin/babeltrace2" ]; then
  echo "SKIP: no babeltrace2 2.1 sysroot (set SL_BT21_ROOT; tests/bt21-sysroot.sh makes one)"
  exit 77
fi
root=$(cd "$root" && pwd)
lib=$root/usr/lib/x86_64-linux-gnu
decoder=${SL_BT21_DECODER:-$(dirname "$cli")/../core/trace/bt/syncline-decoder}
decoder=$(cd "$(dirname "$decoder")" && pwd)/$(basename "$decoder")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sl-bt21.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# the decoder through the sysroot's loader, with 2.1's plugins only
cat > "$tmp/decoder21" <<EOF
#!/bin/sh
export BABELTRACE_PLUGIN_PATH=$lib/babeltrace2/plugins
exec $lib/ld-linux-x86-64.so.2 --library-path $lib:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu $decoder "\$@"
EOF
chmod +x "$tmp/decoder21"
bt21() {
  "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$root/usr/bin/babeltrace2" \
    --omit-system-plugin-path --plugin-path="$lib/babeltrace2/plugins" "$@"
}
version=$(bt21 --version | head -n 1)
echo "babeltrace2 CLI of the sysroot: $version"
echo "decoder with 2.1: $decoder"

# JSON without its timing, keys sorted
normalize() {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d.pop("timing", None)
json.dump(d, sys.stdout, indent=1, sort_keys=True)
' "$1"
}

fail=0
compare() {
  name=$1
  shift
  "$cli" sync --json --no-progress "$@" > "$tmp/$name-old.json" 2> "$tmp/$name-old.err" || true
  SL_DECODER=$tmp/decoder21 LD_DEBUG=libs LD_DEBUG_OUTPUT=$tmp/ld-$name \
    "$cli" sync --json --no-progress "$@" > "$tmp/$name-21.json" 2> "$tmp/$name-21.err" || true
  normalize "$tmp/$name-old.json" > "$tmp/$name-old.txt"
  normalize "$tmp/$name-21.json" > "$tmp/$name-21.txt"
  # the decoders really ran 2.1's library and its ctf plugin, no other
  if ! cat "$tmp"/ld-"$name".* | grep -q "calling init: $lib/libbabeltrace2.so.0" ||
     ! cat "$tmp"/ld-"$name".* | grep -q "calling init: $lib/babeltrace2/plugins/babeltrace-plugin-ctf.so"; then
    echo "FAIL $name: the decoders did not load babeltrace2 2.1 from $root"
    fail=1
  elif cat "$tmp"/ld-"$name".* | grep "calling init: .*babeltrace" | grep -v -q "$lib"; then
    echo "FAIL $name: babeltrace2 2.1 loaded plugins from outside $root:"
    cat "$tmp"/ld-"$name".* | grep "calling init: .*babeltrace" | grep -v "$lib" | sort -u
    fail=1
  elif ! grep -q '"name"' "$tmp/$name-old.txt"; then
    echo "FAIL $name: no host read with the system's babeltrace2"
    fail=1
  elif ! diff -u "$tmp/$name-old.txt" "$tmp/$name-21.txt" > "$tmp/$name.diff"; then
    echo "FAIL $name: sync --json differs with babeltrace2 2.1:"
    head -n 40 "$tmp/$name.diff"
    fail=1
  else
    echo "ok $name: sync --json the same with babeltrace2 2.1 ($(wc -c < "$tmp/$name-21.txt") bytes)"
  fi
  rm -f "$tmp"/ld-"$name".*
}

data=${SL_SHARED_DATA:-}
for set in django-vote synctraces; do
  if [ -n "$data" ] && [ -d "$data/traces/$set" ]; then
    compare "$set" "$data/traces/$set"
  else
    echo "note: no $set in SL_SHARED_DATA (${data:-unset}): not compared"
  fi
done

"$cli" generate --out="$tmp/gen" --hosts=4 --duration=3 --seed=75 > /dev/null
compare generated "$tmp/gen"

# CTF 2: two of the generated hosts written again by 2.1's sink.ctf.fs
mkdir -p "$tmp/mixed"
for h in node-01 node-02; do
  bt21 "$tmp/gen/$h/kernel" -c sink.ctf.fs \
    -p "path=\"$tmp/mixed/$h\",assume-single-trace=true,ctf-version=\"2\",quiet=true"
  if ! head -c 1 "$tmp/mixed/$h/metadata" | od -An -c | grep -q '036'; then
    echo "FAIL ctf2: $version's sink.ctf.fs did not write CTF 2 metadata (no record separator)"
    fail=1
  fi
done
for h in node-03 node-04; do
  cp -r "$tmp/gen/$h" "$tmp/mixed/$h"
done
for dec in old 21; do
  if [ $dec = 21 ]; then
    SL_DECODER=$tmp/decoder21 "$cli" sync --json --no-progress "$tmp/mixed" > "$tmp/ctf2-$dec.json" 2> "$tmp/ctf2-$dec.err" || true
  else
    "$cli" sync --json --no-progress "$tmp/mixed" > "$tmp/ctf2-$dec.json" 2> "$tmp/ctf2-$dec.err" || true
  fi
  if ! python3 - "$tmp/ctf2-$dec.json" "$tmp/mixed" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
hosts = sorted(h["name"] for h in d["hosts"])
problems = d["problems"]
ok = hosts == ["node-03", "node-04"]
for h in ("node-01", "node-02"):
    path = sys.argv[2] + "/" + h + "/metadata"
    mine = [p for p in problems if p.get("file") == path]
    if not any("CTF 2" in p.get("message", "") and "babeltrace2 2.1" in p.get("message", "") for p in mine):
        print(f"no problem naming {path} with 'CTF 2' and 'babeltrace2 2.1': {problems}")
        ok = False
if hosts != ["node-03", "node-04"]:
    print(f"hosts read: {hosts}, expected node-03 and node-04")
sys.exit(0 if ok else 1)
PY
  then
    echo "FAIL ctf2 ($dec): see above"
    fail=1
  else
    echo "ok ctf2 ($dec): the CTF 2 hosts are named as unreadable, the CTF 1.8 ones read"
  fi
done
exit $fail
