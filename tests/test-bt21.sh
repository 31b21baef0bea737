#!/bin/sh
# test-bt21.sh: Syncline's decoders with babeltrace2 2.1 (issue 15), against
# those with the system's babeltrace2 (2.0.4 on Debian 12).
#
# SL_BT21_ROOT: a sysroot holding Debian 13's babeltrace2 2.1 and the libc
# it needs (tests/bt21-sysroot.sh makes one); without it the test is
# skipped. The build's own decoder runs with either library (its RUNPATH
# overridden); SL_BT21_DECODER picks another. SL_BT_READS_CTF2 (meson):
# whether the build was compiled against babeltrace2 >= 2.1.
#
# 1. `sync --json` of the shared real traces and of a generated set reads
#    the same with 2.1's library and plugins as with the system's (the
#    timing object left out; LD_DEBUG=libs shows 2.1's library and ctf
#    plugin loaded, and no babeltrace2 plugin from outside the sysroot).
# 2. Two generated hosts written again as CTF 2 by 2.1's sink.ctf.fs,
#    beside the other two in CTF 1.8. With the system's babeltrace2, and
#    with 2.1 in a build against 2.0, each CTF 2 host's folder is named in
#    a problem saying CTF 2 needs babeltrace2 2.1, the CTF 1.8 hosts read.
#    With 2.1 in a build against 2.1, `sync --json` is that of the four
#    CTF 1.8 originals. CTF 2 metadata in packets is refused by 2.1 and
#    named so by Syncline in every build.
# 3. `sync --export` of that mixed set writes CTF 2 hosts in CTF 2. In a
#    build against 2.1, a synchronized CTF 2 host's copy has 1 GHz clocks
#    and every event's time (read back by 2.1's babeltrace2) is the time
#    of the same event in the export of its CTF 1.8 original (whose
#    exactness to the map test-export checks); at least one CTF 2 host is rewritten, one kept (the
#    reference) is copied as it is. In a build against 2.0 (CTF 2 hosts unread, left out
#    with the reader's warning) the CTF 1.8 hosts are exported.
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
# the other side: the build's decoder with the system's library (one
# built against 2.1 has the sysroot in its RUNPATH, which this overrides)
cat > "$tmp/decoder-system" <<EOF
#!/bin/sh
LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu exec $decoder "\$@"
EOF
chmod +x "$tmp/decoder-system"
export SL_DECODER="$tmp/decoder-system"
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

# CTF 2: two of the generated hosts written again by 2.1's sink.ctf.fs,
# beside the other two in CTF 1.8
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

# CTF 2 not read: each CTF 2 host's folder named in a problem saying it
# needs babeltrace2 2.1; the CTF 1.8 hosts beside them read
expect_named() {
  python3 - "$1" "$tmp/mixed" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
hosts = {h["name"]: h for h in d["hosts"]}
# an unreadable host may stay listed (unsynchronized), never read
ok = "node-03" in hosts and "node-04" in hosts and not any(hosts.get(h, {}).get("synchronized") for h in ("node-01", "node-02"))
if not ok:
    print(f"hosts: {[(h, hosts[h].get('synchronized')) for h in sorted(hosts)]}, expected node-03 and node-04 read")
for h in ("node-01", "node-02"):
    folder = sys.argv[2] + "/" + h
    mine = [p for p in d["problems"] if p.get("file", "").startswith(folder)]
    if not any("CTF 2" in p.get("message", "") and "babeltrace2 2.1" in p.get("message", "") for p in mine):
        print(f"no problem naming {folder} with 'CTF 2' and 'babeltrace2 2.1': {d['problems']}")
        ok = False
sys.exit(0 if ok else 1)
PY
}

# with the system's babeltrace2: never read, whatever the build
"$cli" sync --json --no-progress "$tmp/mixed" > "$tmp/ctf2-old.json" 2> "$tmp/ctf2-old.err" || true
if expect_named "$tmp/ctf2-old.json"; then
  echo "ok ctf2 (system's babeltrace2): the CTF 2 hosts named as unreadable, the CTF 1.8 ones read"
else
  echo "FAIL ctf2 (system's babeltrace2): see above"
  fail=1
fi

# with 2.1: a build against 2.1 (SL_BT_READS_CTF2=1) reads them as the
# CTF 1.8 traces they were written from; a build against 2.0 names them
SL_DECODER=$tmp/decoder21 "$cli" sync --json --no-progress "$tmp/mixed" > "$tmp/ctf2-21.json" 2> "$tmp/ctf2-21.err" || true
if [ "${SL_BT_READS_CTF2:-0}" = 1 ]; then
  normalize "$tmp/ctf2-21.json" > "$tmp/ctf2-21.txt"
  if ! grep -q '"node-01"' "$tmp/ctf2-21.txt" || ! diff -u "$tmp/generated-old.txt" "$tmp/ctf2-21.txt" > "$tmp/ctf2.diff"; then
    echo "FAIL ctf2 (2.1): the CTF 2 hosts not read as their CTF 1.8 originals:"
    head -n 40 "$tmp/ctf2.diff"
    head -n 5 "$tmp/ctf2-21.err"
    fail=1
  else
    echo "ok ctf2 (2.1): two CTF 2 hosts beside two CTF 1.8 ones read as the four CTF 1.8 originals"
  fi
elif expect_named "$tmp/ctf2-21.json"; then
  echo "ok ctf2 (2.1, a build against babeltrace2 2.0): the CTF 2 hosts named as unreadable"
else
  echo "FAIL ctf2 (2.1, a build against babeltrace2 2.0): see above"
  fail=1
fi

# CTF 2 metadata in packets (CTF 1.8's packet header, of version 1.8 as
# LTTng wrote TSDL, or 2.0): babeltrace2 2.1 refuses such a folder (it takes
# a packetized file for TSDL, and a version other than 1.8 is an error), so
# Syncline names it as such, with its host, in every build
for v in 1.8 2.0; do
  rm -rf "$tmp/packets"
  mkdir -p "$tmp/packets"
  cp -r "$tmp/mixed/node-01" "$tmp/mixed/node-03" "$tmp/packets/"
  python3 - "$tmp/mixed/node-01/metadata" "$tmp/packets/node-01/metadata" "$v" <<'PY'
import re, struct, sys
data = open(sys.argv[1], "rb").read()
major, minor = (int(x) for x in sys.argv[3].split("."))
uuid = bytes(int(x) for x in re.search(rb'"uuid":\[([0-9,]+)\]', data).group(1).split(b","))
out = b""
for i in range(0, len(data), 4096 - 37):
    chunk = data[i:i + 4096 - 37]
    out += struct.pack("<I16sIIIBBBBB", 0x75D11D57, uuid, 0, (37 + len(chunk)) * 8, 4096 * 8, 0, 0, 0, major, minor)
    out += chunk + bytes(4096 - 37 - len(chunk))
open(sys.argv[2], "wb").write(out)
PY
  if bt21 "$tmp/packets/node-01" > /dev/null 2>&1; then
    echo "FAIL ctf2 packets $v: babeltrace2 2.1 reads CTF 2 metadata in packets (Syncline refuses it)"
    fail=1
  fi
  SL_DECODER=$tmp/decoder21 "$cli" sync --json --no-progress "$tmp/packets" > "$tmp/packets.json" 2> /dev/null || true
  if python3 - "$tmp/packets.json" "$tmp/packets/node-01/metadata" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = "node-03" in [h["name"] for h in d["hosts"]] and any(
    p.get("host") == "node-01" and p.get("file") == sys.argv[2] and "whose metadata is in packets" in p.get("message", "")
    for p in d["problems"])
sys.exit(0 if ok else 1)
PY
  then
    echo "ok ctf2 packets $v: babeltrace2 2.1 refuses CTF 2 metadata in packets, Syncline names it (host node-01)"
  else
    echo "FAIL ctf2 packets $v: not named as CTF 2 metadata in packets: $(head -c 600 "$tmp/packets.json")"
    fail=1
  fi
done

# 3. --export of CTF 2
ctf2_times() {
  # "[s.ns] host name: {..." -> "s.ns name", every event in babeltrace2's order
  bt21 --clock-seconds --no-delta "$1" |
    sed -n 's/^\[\([0-9]*\.[0-9]*\)\] [^ ]* \([^ ]*\): .*/\1 \2/p'
}
# (exit status 3 when hosts stay unsynchronized, as without CTF 2)
SL_DECODER=$tmp/decoder21 "$cli" sync --no-progress --export="$tmp/export2" "$tmp/mixed" \
  > /dev/null 2> "$tmp/export2.err" || true
if [ ! -f "$tmp/export2/node-03/kernel/metadata" ]; then
  echo "FAIL export (CTF 2): sync --export of two CTF 2 hosts beside two CTF 1.8 ones wrote no copy:"
  head -n 5 "$tmp/export2.err"
  fail=1
elif [ "${SL_BT_READS_CTF2:-0}" = 1 ]; then
  "$cli" sync --no-progress --export="$tmp/export18" "$tmp/gen" > /dev/null 2> "$tmp/export18.err" || true
  rewritten=0
  for h in node-01 node-02; do
    meta=$tmp/export2/$h/$h/metadata
    if ! head -c 1 "$meta" | od -An -c | grep -q '036'; then
      echo "FAIL export (CTF 2): $meta is not CTF 2"
      fail=1
    elif cmp -s "$meta" "$tmp/mixed/$h/metadata"; then
      # kept its clock (the reference): the copy is the trace
      if diff -r "$tmp/mixed/$h" "$tmp/export2/$h/$h" > /dev/null; then
        echo "ok export (CTF 2): $h kept its clock, copied as it is"
      else
        echo "FAIL export (CTF 2): $h kept its clock class but its streams changed"
        fail=1
      fi
    elif ! grep -q '"frequency":1000000000' "$meta"; then
      echo "FAIL export (CTF 2): $h rewritten, its clock class not at 1 GHz"
      fail=1
    else
      # babeltrace2 prints take seconds: only the rewritten host's
      ctf2_times "$tmp/export2/$h/$h" > "$tmp/$h-ctf2.txt"
      ctf2_times "$tmp/export18/$h/kernel" > "$tmp/$h-ctf18.txt"
      n=$(wc -l < "$tmp/$h-ctf2.txt")
      if [ "$n" -lt 1000 ] || ! cmp -s "$tmp/$h-ctf2.txt" "$tmp/$h-ctf18.txt"; then
        echo "FAIL export (CTF 2): $h: the CTF 2 copy's times ($n events) are not those of its CTF 1.8 original's copy:"
        diff "$tmp/$h-ctf18.txt" "$tmp/$h-ctf2.txt" | head -n 6
        fail=1
      else
        rewritten=$((rewritten + 1))
        echo "ok export (CTF 2): $h: CTF 2 copy, $n events at the times of its CTF 1.8 original's copy"
      fi
    fi
  done
  if [ "$rewritten" = 0 ] && [ "$fail" = 0 ]; then
    echo "FAIL export (CTF 2): no CTF 2 host was rewritten"
    fail=1
  fi
elif [ -e "$tmp/export2/node-01" ] || ! grep -q "node-01.*CTF 2 needs babeltrace2 2.1" "$tmp/export2.err"; then
  echo "FAIL export (CTF 2, a build against 2.0): node-01, unread, not left out with the reader's warning:"
  head -n 5 "$tmp/export2.err"
  fail=1
else
  echo "ok export (CTF 2, a build against 2.0): the CTF 1.8 hosts exported, the unread CTF 2 ones named"
fi
exit $fail
