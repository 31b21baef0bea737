#!/usr/bin/env python3
# check-goals.py: a `syncline-cli sync --json` report against the
# generator's ground truth (README, "Goals on generated clusters"); not a
# test, and independent of Syncline's code: it reads ground-truth.json's
# clock model and the report's pieces and bound profiles.
#
# usage: check-goals.py TRACES_DIR REPORT.json [--samples N]
#
# For every host that is not its group's reference: N instants spread over
# the traced time (true time), each mapped to the host's clock by the
# generator's formula, through the host's reported pieces to its
# reference's clock, against the reference's true reading there; the error
# must be within the reported bound profile (which is never below the bound
# at any instant). Prints one JSON object.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import bisect
import json
import math
import statistics
import sys
from decimal import Decimal, getcontext

getcontext().prec = 50


def local_ns(h, true_ns):
    """The generator's clock model (ground-truth.json's clock_model)."""
    dt = true_ns - h["start_ns"]
    small = h["drift_ppm"] * 1e-6 * dt
    if h["wander_ppm"] > 0:
        p = h["wander_period_s"] * 1e9
        s = math.sin(math.pi * dt / p)
        small += 2 * h["wander_ppm"] * 1e-6 * p / (2 * math.pi) * s * s
    step = h["step_ns"] if h.get("step_after_ns", 0) > 0 and dt >= h["step_after_ns"] else 0
    return true_ns + h["offset_ns"] + step + round(small)


def apply_pieces(pieces, x):
    starts = [p["start_ns"] if p["start_ns"] is not None else -(1 << 63) for p in pieces]
    i = bisect.bisect_right(starts, x) - 1
    p = pieces[max(i, 0)]
    return Decimal(p["slope_exact"]) * Decimal(x) + Decimal(p["offset_ns_exact"])


def profile_at(profile, x):
    xs = [pt[0] for pt in profile]
    if not xs or x < xs[0] or x > xs[-1]:
        return math.inf
    i = bisect.bisect_right(xs, x) - 1
    if i >= len(xs) - 1:
        b = profile[-1][1]
        return math.inf if b is None else b
    (x0, b0), (x1, b1) = profile[i], profile[i + 1]
    if b0 is None or b1 is None:
        return math.inf
    return b0 + (b1 - b0) * (x - x0) / (x1 - x0) if x1 > x0 else max(b0, b1)


def main():
    args = sys.argv[1:]
    samples = 5000
    if "--samples" in args:
        k = args.index("--samples")
        samples = int(args[k + 1])
        del args[k:k + 2]
    truth = json.load(open(args[0] + "/ground-truth.json"))
    report = json.load(open(args[1]))
    clocks = {h["name"]: h for h in truth["hosts"]}
    start, duration = truth["start_ns"], truth["duration_ns"]

    hosts, bounds, worst, outside = [], [], 0.0, 0
    all_synchronized = True
    for h in report["hosts"]:
        if not h["synchronized"]:
            all_synchronized = False
            hosts.append({"name": h["name"], "synchronized": False, "reason": h["reason"]})
            continue
        if h["reference"] == h["name"]:
            continue
        c, r = clocks[h["name"]], clocks[h["reference"]]
        span = h["bound_span"]
        err_max, ratio_max, err_sum, n = 0.0, 0.0, 0.0, 0
        for k in range(samples + 1):
            t = start + duration * k // samples
            x = local_ns(c, t)
            if x < span["start_ns"] or x > span["end_ns"]:
                continue
            signed = float(apply_pieces(h["pieces"], x) - Decimal(local_ns(r, t)))
            err = abs(signed)
            err_sum += signed
            n += 1
            b = profile_at(h["bound_profile"], x)
            # 2 ns: both readings are rounded to the ns
            if not err <= b + 2:
                outside += 1
            err_max = max(err_max, err)
            ratio_max = max(ratio_max, err / b if b > 0 else 0)
        hosts.append({"name": h["name"], "reference": h["reference"], "bound_ns": h["bound_ns"],
                      "worst_error_ns": err_max, "worst_error_over_bound": ratio_max,
                      "mean_error_ns": err_sum / n if n else None,
                      "pieces": len(h["pieces"])})
        bounds.append(h["bound_ns"] if h["bound_ns"] is not None else math.inf)
        worst = max(worst, err_max)

    print(json.dumps({
        "hosts": len(report["hosts"]),
        "all_synchronized": all_synchronized,
        "samples_per_host": samples + 1,
        "samples_outside_bound": outside,
        "median_host_bound_ns": statistics.median(bounds) if bounds else None,
        "largest_host_bound_ns": max(bounds) if bounds else None,
        "worst_true_error_ns": worst,
        "per_host": hosts,
    }, indent=1))
    return 0 if all_synchronized and outside == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
