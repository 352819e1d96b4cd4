#!/usr/bin/env python3
"""Race statistics over seeds (THEORY §11, docs/schedule-race.md).

Reads run directories named OUT/<dataset>-<sampler>-s<seed>/events.jsonl (schedule_race.sh writes
them) and prints, per dataset, one markdown table:
  * per measure: `fd` (Fréchet distance in the feature network's features) and `kmer_js` (DNA)
    where the eval events have them, then the ELBO-like `elbo`; lower is better for all three;
  * final quality: mean over seeds with a 95 % t-interval;
  * steps to reach the EDM runs' final quality: the first step (linearly interpolated between
    evaluations) at which the sampler's curve averaged over seeds reaches the final value of EDM's
    curve averaged over seeds, with a 95 % percentile-bootstrap interval that resamples the seeds of
    both (a resample that never reaches the target counts as +inf and prints as "never");
and then that measure against steps, mean ± 95 % half-width per evaluation step; last, where each
sampler's final π puts its mass (the σ of its quartiles, median over seeds).

usage: race_stats.py OUT_DIR [--measure fd|kmer_js|elbo|edm] [--bootstrap 2000]
       race_stats.py --self-test
"""
import json
import math
import os
import random
import re
import sys

RUN = re.compile(r"^(?P<dataset>[a-z0-9]+)-(?P<sampler>[a-z0-9-]+)-s(?P<seed>\d+)$")
LABELS = {"static": "EDM log-normal", "infonoise": "InfoNoise online",
          "sqrt-entropy": "√-entropy online", "infonoise-mix": "InfoNoise + uniform floor"}
# Two-sided 95 % Student t quantiles, df = 1 … 30 (beyond: 1.96).
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
       2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
       2.052, 2.048, 2.045, 2.042]


def evals(run_dir):
    out = []
    with open(os.path.join(run_dir, "events.jsonl")) as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue  # a line being written
            if e.get("event") == "eval":
                out.append(e)
    return out


def pick_measures(curves):
    """Sample quality first (fd, then kmer_js where every eval has it), the ELBO second."""
    keys = [k for k in ("fd", "kmer_js")
            if curves and all(c and all(k in e for e in c) for c in curves)]
    return keys + ["elbo"]


def mean_ci(values):
    """Mean and 95 % t half-width (0 for a single value)."""
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, 0.0
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    t = T95[n - 2] if n - 2 < len(T95) else 1.96
    return m, t * sd / math.sqrt(n)


def steps_to_reach(curve, target, key):
    """First step where the curve is ≤ target, interpolated linearly; inf when never."""
    prev = None
    for e in curve:
        if e[key] <= target:
            if prev is None or prev[key] == e[key]:
                return float(e["step"])
            t = (prev[key] - target) / (prev[key] - e[key])
            return prev["step"] + t * (e["step"] - prev["step"])
        prev = e
    return math.inf


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def mean_curve(runs, key):
    """The measure averaged over seeds at every step all of them evaluated."""
    steps = sorted(set.intersection(*[{e["step"] for e in c} for c in runs]))
    return [{"step": st, key: sum(e[key] for c in runs for e in c if e["step"] == st) / len(runs)}
            for st in steps]


def reach_bootstrap(curves, edm_curves, key, draws, rng):
    """Steps at which the sampler's seed-averaged curve first reaches the final value of EDM's
    seed-averaged curve, with a percentile-bootstrap 95 % interval that resamples the seeds of both
    (a per-seed median would call EDM itself "never" whenever half its seeds end above their mean)."""
    def statistic(runs, edm):
        target = mean_curve(edm, key)[-1][key]
        return steps_to_reach(mean_curve(runs, key), target, key)
    point = statistic(curves, edm_curves)
    stats = []
    for _ in range(draws):
        runs = [rng.choice(curves) for _ in curves]
        edm = [rng.choice(edm_curves) for _ in edm_curves]
        stats.append(statistic(runs, edm))
    stats.sort()
    lo = stats[int(0.025 * (draws - 1))]
    hi = stats[int(math.ceil(0.975 * (draws - 1)))]
    return point, lo, hi


def fmt_steps(x):
    return "never" if math.isinf(x) else "%.0f" % x


def final_schedule(run_dir):
    """The last schedule event's (log-σ bin edges, π per bin), or None."""
    last = None
    with open(os.path.join(run_dir, "events.jsonl")) as f:
        for line in f:
            if '"event":"schedule"' not in line.replace(" ", ""):
                continue
            try:
                e = json.loads(line)
            except ValueError:
                continue
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
    write("### %s — where the final sampling density π puts its mass (σ of its quartiles, "
          "median over seeds)\n"
          % dataset)
    write("| sampler | 25 % | median | 75 % |")
    write("|---|---|---|---|")
    for s in ["static"] + sorted(x for x in samplers if x != "static"):
        qs = []
        for seed, _ in samplers[s]:
            sched = final_schedule(os.path.join(out, "%s-%s-s%d" % (dataset, s, seed)))
            if sched:
                qs.append(quartile_sigmas(*sched))
        if not qs:
            continue
        cols = [median([q[k] for q in qs]) for k in range(3)]
        write("| %s | %.3g | %.3g | %.3g |" % (LABELS.get(s, s), *cols))
    write("")


def collect(out):
    runs = {}
    for name in sorted(os.listdir(out)):
        m = RUN.match(name)
        path = os.path.join(out, name)
        if not m or not os.path.exists(os.path.join(path, "events.jsonl")):
            continue
        curve = evals(path)
        if curve:
            runs.setdefault(m["dataset"], {}).setdefault(m["sampler"], []).append(
                (int(m["seed"]), curve))
    return runs


def report(out, measure=None, draws=2000, seed=1, write=print):
    rng = random.Random(seed)
    runs = collect(out)
    if not runs:
        raise SystemExit("%s: no run directories named <dataset>-<sampler>-s<seed>" % out)
    for dataset, samplers in runs.items():
        if "static" not in samplers:
            write("%s: no EDM log-normal (static) runs, skipped\n" % dataset)
            continue
        curves = {s: [c for _, c in sorted(v)] for s, v in samplers.items()}
        keys = [measure] if measure else pick_measures([c for v in curves.values() for c in v])
        for key in keys:
            table(dataset, curves, key, draws, rng, write)
        if not measure:
            mass_table(out, dataset, samplers, write)


def table(dataset, curves, key, draws, rng, write):
    """One measure's tables for one dataset."""
    budget = max(c[-1]["step"] for c in curves["static"])
    extra = ""
    first = curves["static"][0][-1]
    if key == "fd" and "feature_network" in first:
        extra = " (features: %s, accuracy %.3f; %d samples, %d Heun steps)" % (
            first["feature_network"], first.get("feature_accuracy", float("nan")),
            first.get("quality_samples", 0), first.get("heun_steps", 0))
    write("### %s — measure `%s`%s, budget %d steps\n" % (dataset, key, extra, budget))
    write("| sampler | seeds | final %s (mean ± 95 %%) | steps to EDM's final %s, seed-averaged [95 %% bootstrap] | speed-up vs EDM |" % (key, key))
    write("|---|---|---|---|---|")
    edm_point = reach_bootstrap(curves["static"], curves["static"], key, draws, rng)[0]
    order = ["static"] + sorted(s for s in curves if s != "static")
    for s in order:
        m, h = mean_ci([c[-1][key] for c in curves[s]])
        point, lo, hi = reach_bootstrap(curves[s], curves["static"], key, draws, rng)
        speed = "-" if math.isinf(point) or point <= 0 else "%.2f×" % (edm_point / point)
        write("| %s | %d | %.4g ± %.2g | %s [%s, %s] | %s |" % (
            LABELS.get(s, s), len(curves[s]), m, h, fmt_steps(point), fmt_steps(lo),
            fmt_steps(hi), speed))
    write("")
    steps = sorted({e["step"] for c in curves["static"] for e in c})
    write("%s against steps (mean ± 95 %% over seeds):\n" % key)
    write("| step | " + " | ".join(LABELS.get(s, s) for s in order) + " |")
    write("|---|" + "---|" * len(order))
    for st in steps:
        cells = []
        for s in order:
            vals = [e[key] for c in curves[s] for e in c if e["step"] == st]
            cells.append("%.4g ± %.2g" % mean_ci(vals) if vals else "-")
        write("| %d | %s |" % (st, " | ".join(cells)))
    write("")


def self_test():
    """Synthetic runs with known answers; exits non-zero on a wrong one."""
    import tempfile
    tmp = tempfile.mkdtemp(prefix="race_stats_")
    # EDM: quality 1/step·1000 → final (step 1000) 1.0 for every seed. "fast": twice as fast
    # (reaches 1.0 at step 500); "slow": never below 2.
    def write_run(name, values):
        os.makedirs(os.path.join(tmp, name))
        with open(os.path.join(tmp, name, "events.jsonl"), "w") as f:
            for step, v in values:
                f.write(json.dumps({"event": "eval", "step": step, "fd": v, "elbo": v,
                                    "feature_network": "f.pt", "feature_accuracy": 0.8,
                                    "quality_samples": 64, "heun_steps": 8}) + "\n")
            f.write('{"event": "eval", "step": 1\n')  # a partial line is skipped
    steps = [100 * i for i in range(1, 11)]
    for seed in (1, 2, 3):
        write_run("toy-static-s%d" % seed, [(s, 1000.0 / s) for s in steps])
        write_run("toy-fast-s%d" % seed, [(s, 500.0 / s) for s in steps])
        write_run("toy-slow-s%d" % seed, [(s, 2.0 + 1.0 / s) for s in steps])
    lines = []
    report(tmp, draws=200, write=lines.append)
    text = "\n".join(lines)
    checks = [
        ("measure `fd`" in text, "fd picked as the measure"),
        ("| EDM log-normal | 3 | 1 ± 0 | 1000 [1000, 1000] | 1.00× |" in text, "EDM row"),
        ("| fast | 3 | 0.5 ± 0 | 500 [500, 500] | 2.00× |" in text, "fast row"),
        ("| slow | 3 | 2.001 ± 0 | never [never, never] | - |" in text, "slow row"),
    ]
    m, h = mean_ci([1.0, 2.0, 3.0])
    checks.append((abs(m - 2.0) < 1e-12 and abs(h - 4.303 / math.sqrt(3)) < 1e-9, "t interval"))
    c = [{"step": 100, "q": 4.0}, {"step": 200, "q": 2.0}]
    checks.append((abs(steps_to_reach(c, 3.0, "q") - 150.0) < 1e-9, "interpolation"))
    q = quartile_sigmas([0.0, 1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0])
    checks.append((all(abs(a - math.exp(b)) < 1e-9 for a, b in zip(q, (1, 2, 3))), "π quartiles"))
    failed = [what for ok, what in checks if not ok]
    if failed:
        print(text)
        raise SystemExit("race_stats self-test failed: " + ", ".join(failed))
    print("race_stats self-test: %d checks passed" % len(checks))


def main(argv):
    if argv[1:] == ["--self-test"]:
        self_test()
        return
    if len(argv) < 2:
        raise SystemExit(__doc__)
    measure, draws = None, 2000
    args = argv[2:]
    while args:
        if args[0] == "--measure" and len(args) > 1:
            measure, args = args[1], args[2:]
        elif args[0] == "--bootstrap" and len(args) > 1:
            draws, args = int(args[1]), args[2:]
        else:
            raise SystemExit("unknown argument %s\n%s" % (args[0], __doc__))
    report(argv[1], measure, draws)


if __name__ == "__main__":
    main(sys.argv)
