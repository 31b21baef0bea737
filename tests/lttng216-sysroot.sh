#!/bin/sh
# lttng216-sysroot.sh ROOT: LTTng 2.16 (lttng-tools 2.16.0, lttng-ust 2.16.0)
# and babeltrace2 2.1.2 from Debian sid in a private sysroot, for the
# lttng216 test (test-lttng216.sh, issue 15): LTTng's own CTF 2, from a
# folder and live. bt21-sysroot.sh with sid's index and LTTng's packages
# and the libraries they need; the programs run through ROOT's loader as
# bt21-sysroot.sh says. Nothing is installed.
set -eu
root=${1:?usage: lttng216-sysroot.sh ROOT}
SL_SYSROOT_SUITE=sid SL_SYSROOT_EXTRA="lttng-tools liblttng-ctl0t64 liblttng-ust-common1t64
liblttng-ust-ctl6 liblttng-ust1t64 liblttng-ust-dev liburcu8t64 liburcu-dev libpopt0 libkmod2
libssl3t64 libxml2-16 libnuma1" \
  exec sh "$(dirname "$0")/bt21-sysroot.sh" "$root"
