#!/usr/bin/env python3
# Runs a command and prints, on stderr after it ends, "tree_peak_kB N": the
# largest sum, over the command and every process below it alive at one
# sample (every 20 ms), of their peak resident sizes so far (VmHWM) — the
# memory of syncline-cli with its syncline-decoder processes, which
# /usr/bin/time's %M (the command alone) leaves out. No cgroup needed. A
# process that lives less than a sample period can be missed; the sum of
# peaks is an upper bound of what was resident at once at that sample, and
# counts the shared libraries' pages once per process: "tree_pss_peak_kB N"
# (sampled every 0.2 s) is the largest sum of proportional sizes (Pss:
# shared pages divided among the processes that share them), what the tree
# costs the machine.
# Usage: tests/bench-tree-rss.py COMMAND [ARG]...  (exit status: the command's)
import os
import subprocess
import sys
import time


def children_map():
    kids = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(name))
    return kids


def pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def hwm_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


proc = subprocess.Popen(sys.argv[1:])
peak = pss_peak = 0
n = 0
while proc.poll() is None:
    kids = children_map()
    todo, total, pss = [proc.pid], 0, 0
    while todo:
        pid = todo.pop()
        total += hwm_kb(pid)
        if n % 10 == 0:
            pss += pss_kb(pid)
        todo.extend(kids.get(pid, []))
    peak = max(peak, total)
    pss_peak = max(pss_peak, pss)
    n += 1
    time.sleep(0.02)
print(f"tree_peak_kB {peak}", file=sys.stderr)
print(f"tree_pss_peak_kB {pss_peak}", file=sys.stderr)
sys.exit(proc.returncode)
