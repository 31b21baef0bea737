#!/bin/sh
# bt21-sysroot.sh ROOT: babeltrace2 2.1 from Debian 13 (trixie) in a
# private sysroot, for the bt21 test suite (test-bt21.sh) on a Debian 12
# machine. trixie's libbabeltrace2 needs glibc >= 2.38 (bookworm has 2.36),
# so its libc and the libraries it needs come along, and its programs run
# through the sysroot's loader:
#   ROOT/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --library-path ROOT/usr/lib/x86_64-linux-gnu PROGRAM
# Only .deb files of Debian's archive are fetched (by the curl client, from
# the filenames trixie's package index gives now), and unpacked with
# dpkg-deb -x: nothing is installed. Also writes ROOT/babeltrace2.pc, the
# 2.1 headers' pkg-config file with its prefix in ROOT, to compile against
# them (.ci/run). Exits 1, saying why, when the archive cannot be reached.
# SL_SYSROOT_SUITE (default trixie) and SL_SYSROOT_EXTRA (more packages)
# let tests/lttng216-sysroot.sh make a sid sysroot with LTTng 2.16 too.
set -eu

root=${1:?usage: bt21-sysroot.sh ROOT}
mirror=${SL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=${SL_SYSROOT_SUITE:-trixie}
packages="${SL_SYSROOT_EXTRA:-} libbabeltrace2-0 libbabeltrace2-dev babeltrace2 libc6 libgcc-s1 libstdc++6
libglib2.0-0t64 libatomic1 libffi8 libmount1 libblkid1 libselinux1 libpcre2-8-0 zlib1g
libelf1t64 libdw1t64 libzstd1 liblzma5 libbz2-1.0"

if [ -x "$root/usr/bin/babeltrace2" ] && [ -f "$root/babeltrace2.pc" ] &&
   [ "$(cat "$root/debs/packages" 2>/dev/null || echo "trixie $packages")" = "$suite $packages" ]; then
  exit 0
fi
mkdir -p "$root/debs"
if ! curl -fsS --retry 2 --max-time 120 -o "$root/debs/Packages.xz" "$mirror/dists/$suite/main/binary-amd64/Packages.xz"; then
  echo "bt21-sysroot: cannot fetch $suite's package index from $mirror" >&2
  exit 1
fi
xz -dc "$root/debs/Packages.xz" > "$root/debs/Packages"
for p in $packages; do
  f=$(awk -v p="$p" 'BEGIN { RS = "" } index($0, "Package: " p "\n") == 1' "$root/debs/Packages" |
      sed -n 's/^Filename: //p' | head -n 1)
  if [ -z "$f" ]; then
    echo "bt21-sysroot: $suite has no package $p" >&2
    exit 1
  fi
  # a '+' in a pool path (libstdc++6) is sent encoded
  url=$(printf '%s/%s' "$mirror" "$f" | sed 's/+/%2B/g')
  if ! curl -fsS --retry 2 --max-time 300 -o "$root/debs/$p.deb" "$url"; then
    echo "bt21-sysroot: cannot fetch $mirror/$f" >&2
    exit 1
  fi
  dpkg-deb -x "$root/debs/$p.deb" "$root"
done
rm -f "$root/debs/Packages" "$root/debs/Packages.xz"
echo "$suite $packages" > "$root/debs/packages"

sed -e "s|^prefix=.*|prefix=$root/usr|" \
    -e 's|^Libs:.*|Libs: -L${libdir} -lbabeltrace2 -Wl,--allow-shlib-undefined|' \
    "$root/usr/lib/x86_64-linux-gnu/pkgconfig/babeltrace2.pc" > "$root/babeltrace2.pc"
echo "bt21-sysroot: babeltrace2 $(sed -n 's/^Version: //p' "$root/babeltrace2.pc") in $root"
