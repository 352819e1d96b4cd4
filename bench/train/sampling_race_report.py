#!/usr/bin/env python3
"""Markdown tables of sample-race results (noisescope.sample-race/1 files), for
docs/sampling-steps.md: per model and measure, mean ± 95 % t over seeds per grid and NFE with the
floor, then each grid's paired difference from Karras rho=7 (same seeds, same start noise) with
its 95 % paired t interval, and the best grid per NFE.

usage: sampling_race_report.py RACE.json...
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from race_intervals import t975  # noqa: E402  (the one Student t quantile of the benches)

REFERENCE = "karras?rho=7"
TITLES = {"fd": "FD", "kmer_js": "k-mer JS (bits)", "elbo": "ELBO bound (nats/dim)"}


def mean_hw(values):
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    return m, t975(n - 1) * sd / math.sqrt(n)


def fmt(v):
    if not math.isfinite(v):
        return "-"
    a = abs(v)
    if a >= 1e4 or (a < 1e-3 and a > 0):
        return f"{v:.3g}"
    return f"{v:.4g}" if a >= 1 else f"{v:.4f}"


def cell(values):
    if not values:
        return "-"  # a race stopped before this cell
    m, h = mean_hw(values)
    return fmt(m) if not math.isfinite(h) else f"{fmt(m)} ± {fmt(h)}"


def report(path):
    r = json.load(open(path))
    cells = {(c["grid"], c["nfe"]): c for c in r["cells"]}
    grids = [g["name"] for g in r["grids"]]
    nfe = r["nfe"]
    measures = [m for m in ("fd", "kmer_js", "elbo") if any(m in c["values"] for c in r["cells"])]
    # The file is rewritten after every cell: a race stopped midway lacks the cells it never ran.
    spent = {n: next((cells[(g, n)]["evaluations"] for g in grids if (g, n) in cells), "-")
             for n in nfe}

    def values(g, n, m):
        return cells[(g, n)]["values"].get(m, []) if (g, n) in cells else []

    print(f"### {r['source']}\n")
    print(f"sampler {r['sampler']}, {r['samples']} samples per cell against {r['reference']} "
          f"held-out, seeds {r['seeds']}; NFE n (evaluations spent)\n")
    missing = len(grids) * len(nfe) - len(cells)
    if missing:
        print(f"(incomplete: {missing} of {len(grids) * len(nfe)} cells were not run, shown as -)\n")
    for m in measures:
        print(f"**{TITLES[m]}**, mean ± 95 % t over seeds\n")
        print("| grid | " + " | ".join(f"NFE {n} ({spent[n]})" for n in nfe) + " |")
        print("|---|" + "---|" * len(nfe))
        for g in grids:
            print(f"| {g} | " + " | ".join(cell(values(g, n, m)) for n in nfe) + " |")
        if m in r["floor"]:
            f = r["floor"][m]["draws"]
            print(f"| floor (real vs held-out, {len(f)} draws) | " +
                  " | ".join(cell(f) for _ in nfe) + " |")
        print()
        if REFERENCE in grids:
            print(f"{TITLES[m]} minus Karras ρ=7, paired by seed (mean [95 % t]); "
                  "**bold**: the interval excludes 0\n")
            print("| grid | " + " | ".join(f"NFE {n}" for n in nfe) + " |")
            print("|---|" + "---|" * len(nfe))
            for g in grids:
                if g == REFERENCE:
                    continue
                row = []
                for n in nfe:
                    d = [x - y for x, y in zip(values(g, n, m), values(REFERENCE, n, m))]
                    if not d:
                        row.append("-")
                        continue
                    mu, h = mean_hw(d)
                    text = f"{fmt(mu)} [{fmt(mu - h)}, {fmt(mu + h)}]"
                    row.append(f"**{text}**" if (mu - h > 0 or mu + h < 0) else text)
                print(f"| {g} | " + " | ".join(row) + " |")
            print()
        best = []
        for n in nfe:
            ran = [g for g in grids if values(g, n, m)]
            if ran:
                best.append(f"NFE {n}: {min(ran, key=lambda g: mean_hw(values(g, n, m))[0])}")
        print("Lowest mean: " + "; ".join(best) + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        report(p)
