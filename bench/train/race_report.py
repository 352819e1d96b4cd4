#!/usr/bin/env python3
"""Reads the run directories of schedule_race.sh and prints a markdown report: per dataset and
sampler the final held-out quality (ELBO-like, nats/dim, lower is better), the EDM-reference loss,
and the steps each sampler needed to reach the EDM run's final quality (linear interpolation
between evaluations; '>' budget when it never got there)."""
import math
import os
import sys

# One home for reading events, interpolating steps and placing π's quartiles: race_stats.py.
from race_stats import evals, final_schedule, quartile_sigmas, steps_to_reach


def band(run_dir):
    """Where the sampler's final π puts its middle 50 % (σ quartiles)."""
    last = final_schedule(run_dir)
    if last is None:
        return "-"
    lo, _, hi = quartile_sigmas(*last)
    return "%.3g – %.3g" % (lo, hi)


def reach_text(curves, key, s):
    target = curves["static"][-1][key]
    budget = curves["static"][-1]["step"]
    edm_steps = steps_to_reach(curves["static"], target, key)
    reach = steps_to_reach(curves[s], target, key)
    if math.isinf(reach):
        return "> %d (never)" % budget
    return "%.0f (%.2f×)" % (reach, edm_steps / reach)


def main(out):
    print("| data | sampler | final elbo (nats/dim) | final EDM-ref loss | steps to EDM's final elbo | steps to EDM's final EDM-ref loss | middle 50 % of π (σ) |")
    print("|---|---|---|---|---|---|---|")
    tables = []
    for dataset in ("fashion", "dna"):
        runs = {s: os.path.join(out, "%s-%s" % (dataset, s))
                for s in ("static", "infonoise", "sqrt-entropy", "infonoise-mix")}
        runs = {s: r for s, r in runs.items() if os.path.exists(os.path.join(r, "events.jsonl"))}
        if "static" not in runs:
            continue
        curves = {s: evals(r) for s, r in runs.items()}
        for s, c in curves.items():
            label = "EDM log-normal" if s == "static" else s
            print("| %s | %s | %.4f | %.4f | %s | %s | %s |" % (
                dataset, label, c[-1]["elbo"], c[-1]["edm"], reach_text(curves, "elbo", s),
                reach_text(curves, "edm", s), band(runs[s])))
        tables.append((dataset, curves))
    print()
    for dataset, curves in tables:
        sigma = curves["static"][-1]["sigma"]
        print("Final held-out x0 error per σ, %s, relative to EDM log-normal (< 1: lower error):" % dataset)
        print()
        print("| σ | " + " | ".join("%.3g" % x for x in sigma) + " |")
        print("|---|" + "---|" * len(sigma))
        base = curves["static"][-1]["error"]
        for s in [k for k in curves if k != "static"]:
            err = curves[s][-1]["error"]
            print("| %s | " % s + " | ".join("%.2f" % (a / b) if b > 0 else "-" for a, b in zip(err, base)) + " |")
        print()
    print("Held-out quality per evaluation (step: value):")
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name)
        if os.path.isdir(path) and os.path.exists(os.path.join(path, "events.jsonl")):
            print("- %s: %s" % (name, ", ".join("%d: %.4f" % (e["step"], e["quality"]) for e in evals(path))))


if __name__ == "__main__":
    main(sys.argv[1])
