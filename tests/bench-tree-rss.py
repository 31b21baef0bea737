#!/usr/bin/env python3
# Runs a command and prints, on stderr after it ends, "tree_peak_kB N": the
# largest sum, over the command and every process below it alive at one
# sample (every 20 ms), of their peak resident sizes so far (VmHWM) — the
# memory of syncline-cli with its syncline-decoder processes, which
# /usr/bin/time's %M (the command alone) leaves out. No cgroup needed. A
# process that lives less than a sample period can be missed; the sum of
# peaks is an upper bound of what was resident at once at that sample.
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
peak = 0
while proc.poll() is None:
    kids = children_map()
    todo, total = [proc.pid], 0
    while todo:
        pid = todo.pop()
        total += hwm_kb(pid)
        todo.extend(kids.get(pid, []))
    peak = max(peak, total)
    time.sleep(0.02)
print(f"tree_peak_kB {peak}", file=sys.stderr)
sys.exit(proc.returncode)
