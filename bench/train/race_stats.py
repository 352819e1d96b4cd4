#!/usr/bin/env python3
"""Race statistics over seeds (THEORY §11, docs/schedule-race.md).

Reads run directories named OUT/<dataset>-<sampler>-s<seed>/events.jsonl (schedule_race.sh writes
them) and the real-against-real floors OUT/floor-<dataset>-s<seed>.json (`noisescope-cli quality
floor --json`), and prints per dataset and measure (`fd`, `kmer_js` for DNA, then the ELBO-like
`elbo`; lower is better for all) one markdown table. Seeds are paired across samplers (the same
seed: the same initialisation, data order, held-out subset and sampling noise), so:
  * final value: mean over seeds with a 95 % t interval;
  * − EDM: the mean per-seed difference from the EDM run of the same seed, 95 % paired t interval;
  * steps to reach EDM's final value: where the seed-mean curve crosses EDM's seed-mean final
    value; the 95 % interval inverts a paired t test of curve(x) − EDM final at every step x, so
    EDM's own uncertainty is in it (race_intervals.reach_interval). EDM's own row is the same for
    EDM's curve: the first step at which EDM's expected curve is down to its final value (the
    budget for a curve that keeps decreasing, where its plateau starts for one that flattens);
  * speed-up: EDM's steps to reach over the sampler's (issue 33; it used to be the budget over
    the steps, which over-states the speed-up when EDM's curve flattens early); its 95 % interval
    is Bonferroni, [EDM lo / sampler hi, EDM hi / sampler lo] of the two steps-to-reach intervals
    at 97.5 % each (race_intervals.speedup_interval, which states the definition). `--tol δ`
    makes "reach" mean "come within δ of EDM's drop over the evaluations above its final value",
    for both rows (default 0);
  * − floor: the mean per-seed excess over the floor (real training images or windows, as many as
    the generated set, scored against the same held-out set with the same feature network);
then the measure against steps (mean ± 95 % t half-width), the floor per k for the k-mer JS, the
split sizes per seed, and where each sampler's final π puts its mass (σ quartiles).

usage: race_stats.py OUT_DIR [--measure fd|kmer_js|elbo|edm] [--tol δ]
       race_stats.py --self-test
"""
import json
import math
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from race_intervals import (mean_ci, paired_ci, reach_interval, reach_target,  # noqa: E402
                            speedup_interval)

# A dataset name may hold hyphens ("fashion-continuous"): a run name is split at the race's known
# samplers first, and only a name that matches none of them falls back to "dataset without hyphens".
RUN_KNOWN = re.compile(r"^(?P<dataset>[a-z0-9-]+?)-(?P<sampler>static|infonoise-mix|infonoise|"
                       r"sqrt-entropy)-s(?P<seed>\d+)$")
RUN = re.compile(r"^(?P<dataset>[a-z0-9]+)-(?P<sampler>[a-z0-9-]+)-s(?P<seed>\d+)$")
FLOOR = re.compile(r"^floor-(?P<dataset>[a-z0-9-]+)-s(?P<seed>\d+)\.json$")
LABELS = {"static": "EDM log-normal", "infonoise": "InfoNoise online",
          "sqrt-entropy": "√-entropy online", "infonoise-mix": "InfoNoise + uniform floor"}


def events(run_dir, kind):
    out = []
    with open(os.path.join(run_dir, "events.jsonl")) as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue  # a line being written
            if e.get("event") == kind:
                out.append(e)
    return out


def collect(out):
    """{dataset: {sampler: {seed: eval events}}} of the runs that reached their planned steps (a
    run still going would bias the final values), and the names of those left out."""
    runs, running = {}, []
    for name in sorted(os.listdir(out)):
        m = RUN_KNOWN.match(name) or RUN.match(name)
        path = os.path.join(out, name)
        if not m or not os.path.exists(os.path.join(path, "events.jsonl")):
            continue
        curve = events(path, "eval")
        start = events(path, "start")
        planned = start[0].get("steps", 0) if start else 0
        if not curve or curve[-1]["step"] < planned:
            running.append(name)
            continue
        runs.setdefault(m["dataset"], {}).setdefault(m["sampler"], {})[int(m["seed"])] = curve
    return runs, running


def collect_floors(out):
    """{dataset: {seed: floor JSON}}."""
    floors = {}
    for name in sorted(os.listdir(out)):
        m = FLOOR.match(name)
        if m:
            with open(os.path.join(out, name)) as f:
                floors.setdefault(m["dataset"], {})[int(m["seed"])] = json.load(f)
    return floors


def pick_measures(curves):
    """Sample quality first (fd, then kmer_js where every eval has it), the ELBO second."""
    keys = [k for k in ("fd", "kmer_js")
            if curves and all(c and all(k in e for e in c) for c in curves)]
    return keys + ["elbo"]


def fmt(x):
    return "%.4g" % x


def fmt_ci(m, h):
    return "%.4g ± %.2g" % (m, h) if math.isfinite(h) else "%.4g" % m


def fmt_diff(m, h):
    return "%+.4g [%+.3g, %+.3g]" % (m, m - h, m + h) if math.isfinite(h) else "%+.4g" % m


def fmt_reach(point, lo, hi, first, budget):
    def one(x):
        return "never" if math.isinf(x) else "%.0f" % x
    if lo >= budget and math.isinf(point):
        return "never [> %d]" % budget
    left = "≤ %d" % first if lo <= 0 else one(lo)
    return "%s [%s, %s]" % (one(point), left, one(hi))


def fmt_speed(point, lo, hi):
    """EDM's steps over the sampler's, [lo, hi]; "-" when the sampler never reaches the target;
    an upper end of ∞ when the sampler may reach it at its first evaluation (a lower bound only)."""
    if not math.isfinite(point) or point <= 0:
        return "-"
    slow = "0" if lo <= 0 else "%.2f" % lo
    fast = "∞" if math.isinf(hi) else "%.2f" % hi
    return "%.2f× [%s, %s]" % (point, slow, fast)


def eval_steps(runs, seeds):
    """The steps at which every run of `seeds` evaluated."""
    return set.intersection(*[{e["step"] for e in runs[x]} for x in seeds])


def curve_matrix(runs, seeds, key, steps):
    """seeds × steps values of `key`."""
    return np.array([[next(e[key] for e in runs[x] if e["step"] == st) for st in steps]
                     for x in seeds])


def floor_values(floors, key):
    """Per seed, the floor's mean over its repeats (None when no floor carries the key)."""
    vals = {s: float(np.mean(f[key])) for s, f in floors.items() if key in f}
    return vals or None


def table(dataset, curves, key, floors, write, tol=0.0):
    """One measure's tables for one dataset; curves: {sampler: {seed: eval events}}."""
    budget = max(c[-1]["step"] for c in curves["static"].values())
    edm = curves["static"]
    first = next(iter(edm.values()))[-1]
    extra = ""
    if key == "fd" and "feature_network" in first:
        extra = " (features: %s, accuracy %.3f; %d samples, %d Heun steps)" % (
            os.path.basename(first["feature_network"]), first.get("feature_accuracy", math.nan),
            first.get("quality_samples", 0), first.get("heun_steps", 0))
    floor = floor_values(floors, key) if key in ("fd", "kmer_js") else None
    write("#### %s — measure `%s`%s, budget %d steps\n" % (dataset, key, extra, budget))
    goal = "EDM's final %s" % key + (" + %g × EDM's drop" % tol if tol else "")
    head = ("| sampler | seeds | final %s (mean ± 95 %% t) | − EDM, paired (mean [95 %% t]) | "
            "steps to %s [95 %%, paired] | speed-up: EDM steps / steps [95 %%] |" % (key, goal))
    head += " − floor, paired (mean [95 % t]) |" if floor else ""
    write(head)
    write("|---|---|---|---|---|---|" + ("---|" if floor else ""))
    order = ["static"] + sorted(s for s in curves if s != "static")
    for s in order:
        seeds = sorted(set(curves[s]) & set(edm))  # paired: seeds both samplers ran
        if not seeds:
            continue
        # EDM's own curve over these seeds at its own steps: its final value and its own reach.
        edm_steps = sorted(eval_steps(edm, seeds))
        steps = sorted(eval_steps(curves[s], seeds) & set(edm_steps))
        edm_val, val = curve_matrix(edm, seeds, key, edm_steps), curve_matrix(curves[s], seeds,
                                                                               key, steps)
        target = reach_target(edm_val, tol)
        m, h = mean_ci(val[:, -1])
        dm, dh = paired_ci(val[:, -1], edm_val[:, -1])
        diff = "0" if s == "static" else fmt_diff(dm, dh)
        point, lo, hi = (float(v) for v in reach_interval(steps, val, target))
        speed = (float(v) for v in speedup_interval(edm_steps, edm_val, steps, val, tol)[:3])
        row = "| %s | %d | %s | %s | %s | %s |" % (
            LABELS.get(s, s), len(seeds), fmt_ci(m, h), diff,
            fmt_reach(point, lo, hi, steps[0], budget),
            "reference" if s == "static" else fmt_speed(*speed))
        if floor:
            both = [x for x in seeds if x in floor]
            if both:
                em, eh = paired_ci([curves[s][x][-1][key] for x in both], [floor[x] for x in both])
                row += " %s (%d seeds) |" % (fmt_diff(em, eh), len(both))
            else:
                row += " - |"
        write(row)
    if floor:
        fm, fh = mean_ci(list(floor.values()))
        some = floors[next(iter(floor))]
        write("| floor: real training samples vs held-out (%d vs %d, %d draws per seed) | %d | %s "
              "| | | | |" % (some["count"], some["reference"], some["repeats"], len(floor),
                            fmt_ci(fm, fh)))
    write("")
    write("%s against steps (mean ± 95 %% t over seeds):\n" % key)
    write("| step | " + " | ".join(LABELS.get(s, s) for s in order) + " |")
    write("|---|" + "---|" * len(order))
    for st in sorted({e["step"] for c in edm.values() for e in c}):
        cells = []
        for s in order:
            vals = [e[key] for c in curves[s].values() for e in c if e["step"] == st]
            cells.append(fmt_ci(*(float(v) for v in mean_ci(vals))) if vals else "-")
        write("| %d | %s |" % (st, " | ".join(cells)))
    write("")


def kmer_floor_table(dataset, floors, write):
    """The k-mer JS of real against held-out windows per k: the count bias grows with k."""
    per = [np.mean(f["kmer_js_per_k"], axis=0) for f in floors.values() if "kmer_js_per_k" in f]
    if not per:
        return
    per = np.array(per)  # seeds × k
    write("#### %s — k-mer JS floor per k (real vs held-out windows, mean ± 95 %% t over %d "
          "seeds)\n" % (dataset, len(per)))
    write("| k | " + " | ".join(str(k + 1) for k in range(per.shape[1])) + " |")
    write("|---|" + "---|" * per.shape[1])
    write("| JS (bits) | " + " | ".join(fmt_ci(*(float(v) for v in mean_ci(per[:, k])))
                                        for k in range(per.shape[1])) + " |")
    write("")


def splits_table(out, dataset, samplers, write):
    """Training and held-out sizes per seed, from each run's start event."""
    rows = {}
    for s, runs in samplers.items():
        for seed in runs:
            start = events(os.path.join(out, "%s-%s-s%d" % (dataset, s, seed)), "start")
            if start:
                rows.setdefault(seed, (start[0].get("train_samples"),
                                       start[0].get("test_samples")))
    if not rows:
        return
    write("#### %s — split sizes per seed (training / held-out samples)\n" % dataset)
    write("| seed | " + " | ".join(str(s) for s in sorted(rows)) + " |")
    write("|---|" + "---|" * len(rows))
    write("| train / held-out | " + " | ".join("%s / %s" % rows[s] for s in sorted(rows)) + " |")
    write("")


def final_schedule(run_dir):
    """The last schedule event's (log-σ bin edges, π per bin), or None."""
    last = None
    for e in events(run_dir, "schedule"):
        if "pi" in e and "log_sigma_edges" in e:
            last = (e["log_sigma_edges"], e["pi"])
    return last


def quartile_sigmas(edges, pi):
    """σ at which the cumulative π (linear within a log-σ bin) reaches 25, 50 and 75 %."""
    total = sum(pi)
    out, acc, i = [], 0.0, 0
    for q in (0.25, 0.5, 0.75):
        while i < len(pi) and acc + pi[i] < q * total:
            acc += pi[i]
            i += 1
        if i == len(pi):
            out.append(math.exp(edges[-1]))
            continue
        frac = (q * total - acc) / pi[i] if pi[i] > 0 else 0.0
        out.append(math.exp(edges[i] + frac * (edges[i + 1] - edges[i])))
    return out


def mass_table(out, dataset, samplers, write):
    write("#### %s — where the final sampling density π puts its mass (σ of its quartiles, "
          "median over seeds)\n" % dataset)
    write("| sampler | seeds | 25 % | median | 75 % |")
    write("|---|---|---|---|---|")
    for s in ["static"] + sorted(x for x in samplers if x != "static"):
        qs = []
        for seed in samplers.get(s, {}):
            sched = final_schedule(os.path.join(out, "%s-%s-s%d" % (dataset, s, seed)))
            if sched:
                qs.append(quartile_sigmas(*sched))
        if qs:
            cols = np.median(np.array(qs), axis=0)
            write("| %s | %d | %.3g | %.3g | %.3g |" % (LABELS.get(s, s), len(qs), *cols))
    write("")


def report(out, measure=None, write=print, tol=0.0):
    runs, running = collect(out)
    if not runs:
        raise SystemExit("%s: no finished run directories named <dataset>-<sampler>-s<seed>" % out)
    if running:
        write("Left out, not finished: %s\n" % ", ".join(running))
    floors = collect_floors(out)
    for dataset, samplers in runs.items():
        if "static" not in samplers:
            write("%s: no EDM log-normal (static) runs, skipped\n" % dataset)
            continue
        keys = [measure] if measure else pick_measures(
            [c for v in samplers.values() for c in v.values()])
        for key in keys:
            table(dataset, samplers, key, floors.get(dataset, {}), write, tol)
        if not measure:
            kmer_floor_table(dataset, floors.get(dataset, {}), write)
            splits_table(out, dataset, samplers, write)
            mass_table(out, dataset, samplers, write)


def main(argv):
    if argv[1:] == ["--self-test"]:
        from race_stats_selftest import self_test
        self_test()
        return
    if len(argv) < 2:
        raise SystemExit(__doc__)
    measure, tol, args = None, 0.0, argv[2:]
    while args:
        if args[0] == "--measure" and len(args) > 1:
            measure, args = args[1], args[2:]
        elif args[0] == "--tol" and len(args) > 1:
            tol, args = float(args[1]), args[2:]
        else:
            raise SystemExit("unknown argument %s\n%s" % (args[0], __doc__))
    report(argv[1], measure, tol=tol)


if __name__ == "__main__":
    main(sys.argv)
