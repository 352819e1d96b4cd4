"""race_stats.py --self-test (ctest test_race_stats): the tables on synthetic runs with known
answers, and the coverage of the intervals measured by simulating races whose truth is known.
Exits non-zero on a wrong answer or on coverage below 0.93 at nominal 0.95."""
import json
import math
import os
import shutil
import tempfile

import numpy as np

import race_stats
from race_intervals import first_crossing, interp_matrix, mean_ci, paired_ci, reach_interval, t975

SEEDS = 3           # the smallest race the doc reports
REPLICATES = 4000   # coverage ± 0.007 (one standard error at 0.95)
STEPS = np.arange(500, 5001, 500, dtype=float)


def toy_runs(tmp):
    """EDM: 1000/step, final 1 at step 1000; "fast" reaches 1 at step 500; "slow" never does.
    The floor files say the real-vs-real floor is 0.25."""
    def write_run(name, values):
        os.makedirs(os.path.join(tmp, name))
        with open(os.path.join(tmp, name, "events.jsonl"), "w") as f:
            f.write(json.dumps({"event": "start", "step": 0, "steps": 1000, "train_samples": 90,
                                "test_samples": 10}) + "\n")
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
        with open(os.path.join(tmp, "floor-toy-s%d.json" % seed), "w") as f:
            json.dump({"count": 64, "reference": 10, "repeats": 2, "fd": [0.2, 0.3]}, f)
    # A run still under way is left out of the final values.
    write_run("toy-fast-s4", [(s, 500.0 / s) for s in steps[:5]])


def table_checks():
    """Exact rows; the steps intervals are one 5-step grid cell wide on these noiseless curves."""
    tmp = tempfile.mkdtemp(prefix="race_stats_")
    try:
        toy_runs(tmp)
        lines = []
        race_stats.report(tmp, write=lines.append)
    finally:
        shutil.rmtree(tmp)
    text = "\n".join(lines)
    checks = [
        ("measure `fd`" in text, "fd picked as the measure"),
        ("| EDM log-normal | 3 | 1 ± 0 | 0 | 1000 [995, 1000] | reference | "
         "+0.75 [+0.75, +0.75] (3 seeds) |" in text, "EDM row"),
        ("| fast | 3 | 0.5 ± 0 | -0.5 [-0.5, -0.5] | 500 [495, 505] | 2.00× [1.98, 2.02] | "
         "+0.25 [+0.25, +0.25] (3 seeds) |" in text, "fast row (the unfinished seed 4 left out)"),
        ("| slow | 3 | 2.001 ± 0 | +1.001 [+1, +1] | never [> 1000] | - |" in text, "slow row"),
        ("| floor: real training samples vs held-out (64 vs 10, 2 draws per seed) | 3 | 0.25 ± 0 |"
         in text, "floor row"),
        ("| train / held-out | 90 / 10 | 90 / 10 | 90 / 10 |" in text, "split sizes"),
        ("Left out, not finished: toy-fast-s4" in text, "unfinished run named"),
    ]
    m, h = mean_ci([1.0, 2.0, 3.0])
    checks.append((abs(m - 2.0) < 1e-12 and abs(h - 4.303 / math.sqrt(3)) < 1e-9, "t interval"))
    dm, dh = paired_ci([3.0, 5.0, 4.0], [1.0, 2.0, 3.0])
    checks.append((abs(dm - 2.0) < 1e-12 and abs(dh - 4.303 / math.sqrt(3)) < 1e-9, "paired t"))
    # Cornish–Fisher beyond the table: t(0.975; 40) = 2.0211, t(0.975; 120) = 1.9799.
    checks.append((abs(t975(40) - 2.0211) < 2e-4 and abs(t975(120) - 1.9799) < 2e-4, "t tail"))
    q = race_stats.quartile_sigmas([0.0, 1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0])
    checks.append((all(abs(a - math.exp(b)) < 1e-9 for a, b in zip(q, (1, 2, 3))), "π quartiles"))
    w = interp_matrix([100.0, 200.0], [100.0, 150.0, 200.0])
    checks.append((np.allclose(np.array([4.0, 2.0]) @ w, [4.0, 3.0, 2.0]), "interpolation"))
    return text, checks


def simulate(rng, seed_sd, run_sd, skew):
    """REPLICATES races of SEEDS paired seeds. Expected FD curves (lower is better):
    EDM 25 + 55·(500/x)^0.5, the sampler 12 + 45·(500/x)^0.8. Each seed shifts both samplers
    alike (its held-out subset and noise: seed_sd), each run has its own offset (run_sd) and each
    evaluation its own noise (sd 1.5). skew: the run offsets are centred log-normal instead
    (FD's errors are right-skewed). Returns per-seed sampler curves, EDM curves, and the truths."""
    mu_e = 25 + 55 * (500 / STEPS) ** 0.5
    mu_s = 12 + 45 * (500 / STEPS) ** 0.8
    shape = (REPLICATES, SEEDS)
    seed_fx = rng.normal(0, seed_sd, shape)[..., None]

    def run_fx():
        if skew:
            z = rng.lognormal(0, 0.8, shape)
            return (run_sd * (z - math.exp(0.32)) / math.sqrt((math.exp(0.64) - 1) * math.exp(0.64)))[..., None]
        return rng.normal(0, run_sd, shape)[..., None]
    edm = mu_e + seed_fx + run_fx() + rng.normal(0, 1.5, shape + (len(STEPS),))
    smp = mu_s + seed_fx + run_fx() + rng.normal(0, 1.5, shape + (len(STEPS),))
    # Truth: where the expected, linearly interpolated sampler curve reaches EDM's expected final.
    i = int(np.nonzero(mu_s <= mu_e[-1])[0][0])
    t = (mu_s[i - 1] - mu_e[-1]) / (mu_s[i - 1] - mu_s[i])
    x_true = STEPS[i - 1] + t * (STEPS[i] - STEPS[i - 1])
    return smp, edm, mu_s[-1] - mu_e[-1], x_true


def old_bootstrap_coverage(rng, values, truth, draws=400):
    """The former percentile bootstrap of the mean over seeds, for comparison."""
    idx = rng.integers(0, SEEDS, (draws, SEEDS))
    means = values[:, idx].mean(-1)  # replicates × draws
    lo, hi = np.quantile(means, 0.025, axis=1), np.quantile(means, 0.975, axis=1)
    return float(np.mean((lo <= truth) & (truth <= hi)))


def old_reach_coverage(rng, smp, edm, x_true, races=500, draws=200):
    """The former percentile bootstrap of the steps to reach: seeds of the sampler and of EDM
    resampled independently, the statistic the crossing of the two seed means."""
    smp, edm = smp[:races], edm[:races, :, -1]
    pick = rng.integers(0, SEEDS, (2, races, draws, SEEDS))
    rows = np.arange(races)[:, None, None]
    curve = smp[rows, pick[0]].mean(-2)              # races × draws × steps
    target = edm[rows, pick[1]].mean(-1)[..., None]  # races × draws × 1
    stats = first_crossing(STEPS, curve - target)
    stats.sort(axis=1)  # "never" is +inf and sorts last
    lo, hi = stats[:, int(0.025 * (draws - 1))], stats[:, int(math.ceil(0.975 * (draws - 1)))]
    return float(np.mean((lo <= x_true) & (x_true <= hi)))


def coverage(rng, *scenario):
    smp, edm, d_true, x_true = simulate(rng, *scenario)
    dm, dh = paired_ci(smp[..., -1], edm[..., -1])
    final_cov = float(np.mean(np.abs(dm - d_true) <= dh))
    point, lo, hi = reach_interval(STEPS, smp, edm[..., -1], grid_step=10)
    reach_cov = float(np.mean((lo <= x_true) & (x_true <= hi)))
    old = old_bootstrap_coverage(rng, smp[..., -1] - edm[..., -1], d_true)
    old_reach = old_reach_coverage(rng, smp, edm, x_true)
    width = np.where(np.isfinite(hi), hi - lo, np.nan)
    return (final_cov, reach_cov, old, old_reach, x_true, float(np.nanmedian(width)),
            float(np.mean(np.isinf(hi))))


def self_test():
    text, checks = table_checks()
    rng = np.random.default_rng(18)
    lines = []
    scenarios = [("seed sd 5, run sd 3, normal", (5, 3, False)),
                 ("seed sd 5, run sd 3 log-normal", (5, 3, True)),
                 ("no seed effect, run sd 5, normal", (0, 5, False))]
    for name, scenario in scenarios:
        final_cov, reach_cov, old, old_reach, x_true, width, open_end = coverage(rng, *scenario)
        lines.append("%s, %d seeds, %d races: coverage at nominal 0.95 — paired final difference "
                     "%.3f, steps to reach EDM's final (truth %.0f steps) %.3f (median width %.0f "
                     "steps, open-ended in %.1f %%); the former percentile bootstrap: final "
                     "difference %.3f, steps to reach %.3f"
                     % (name, SEEDS, REPLICATES, final_cov, x_true, reach_cov, width,
                        100 * open_end, old, old_reach))
        checks.append((final_cov >= 0.93, "final-difference coverage ≥ 0.93 (%s)" % name))
        checks.append((reach_cov >= 0.93, "steps-to-reach coverage ≥ 0.93 (%s)" % name))
        checks.append((old < 0.9, "the former bootstrap of the final value under-covers (%s)"
                       % name))
    failed = [what for ok, what in checks if not ok]
    print("\n".join(lines))
    if failed:
        print(text)
        raise SystemExit("race_stats self-test failed: " + ", ".join(failed))
    print("race_stats self-test: %d checks passed" % len(checks))
