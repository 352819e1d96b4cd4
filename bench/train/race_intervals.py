"""Intervals over seeds for the schedule race (docs/schedule-race.md, THEORY §11).

Seeds are paired across samplers: the same seed gives the same initialisation, data order,
held-out subset and sampling noise, so every comparison with EDM is made on per-seed differences.
  * t_quantile / t_crit / mean_ci: Student t intervals (exact for normal per-seed values; no
    scipy here: the t distribution function is the regularised incomplete beta function);
  * paired_ci: the mean per-seed difference of two samplers with its t interval;
  * reach_interval: the steps a curve's expectation needs to reach a per-seed target (EDM's final
    value), with a confidence set from inverting a paired t test at every step, so the
    uncertainty of EDM's own final value is carried along (it enters every per-seed difference);
  * speedup_interval: EDM's own steps to reach that target over the sampler's (issue 33).
Arrays may carry leading batch axes, which is how the self-test's simulation runs thousands of
replicate races at once.

Steps to reach, and the speed-up (issue 33). With μ_A(x) the expected curve of sampler A
(linearly interpolated between evaluations), x_0 the first evaluation and B the budget, the target
is T_δ = μ_EDM(B) + δ·(μ_EDM(x_0) − μ_EDM(B)): EDM's expected final value, raised by a fraction δ
of EDM's drop over the evaluations (δ = 0, the default, is EDM's final value itself). A sampler's
steps to reach are x*_A = the first x with μ_A(x) ≤ T_δ (∞ if none up to B); for EDM itself too.
The speed-up is x*_EDM / x*_sampler. With δ = 0 and an EDM curve that keeps decreasing,
x*_EDM = B and the speed-up is the former budget / steps; where EDM's curve is flat from some step
on, x*_EDM is where the plateau starts, and the former rule over-stated the speed-up by
B / x*_EDM. δ > 0 makes "reached" mean "within δ of the drop", which moves x*_EDM off the budget
for a curve that approaches its final value only asymptotically. The point estimates, the
intervals and the self-test's simulated truths all use this one definition (first_crossing of
the expected or seed-mean curve minus the target), for every δ.

The target is linear in each seed's EDM values, t_s = (1 − δ)·EDM_s(B) + δ·EDM_s(x_0), so for any x
the per-seed differences A_s(x) − t_s have mean μ_A(x) − T_δ and a paired t test of "mean 0" is
exact under normal per-seed values. For EDM's own curve with δ = 0 the seed's shared effects cancel
exactly (EDM_s(x) − EDM_s(B)), so on a plateau the test sees only the evaluation noise. At the true
crossing x*_A the null hypothesis holds (μ_A is continuous, starts above the target, so μ_A(x*_A) =
T_δ), hence the set of steps not rejected contains x*_A with probability ≥ the level, and so does
its hull (the tests run on a grid of grid_step steps; the hull is widened by one grid cell for an
x*_A between grid points). A curve already at or below the target at x_0 has x*_A = x_0, covered by
the "at or before the first evaluation" end. For EDM with δ = 0 the budget is never rejected (the
difference there is 0 for every seed), so EDM's interval always reaches B: on a plateau that is flat
only within noise the interval covers both its start and the budget, whichever the true residual
slope is; the point estimate (the first dip of the seed-mean curve to its final value) is the
unstable part there.

The ratio interval is Bonferroni: each steps-to-reach set at level 1 − α/2 (97.5 % for a 95 %
speed-up interval), then [EDM_lo / X_hi, EDM_hi / X_lo]. The ratio of the truths lies in it
whenever both sets cover, which fails with probability ≤ α/2 + α/2 whatever the dependence between
the two sets (they share EDM's final values and the seeds). A joint inversion (test
x*_EDM = r·x*_X for every r) would be shorter but has no exact per-seed test, since x* is not a
linear function of the seeds' values. The self-test measures the coverage on simulated 5-seed
races in which EDM (at 40, 60 or 80 % of the budget), the sampler, both or neither flatten early:
0.989–1.000 at nominal 0.95. A paired percentile bootstrap (resample the seeds, the same draw for
both arms, recompute the target and both arms' first crossings, take the 2.5 and 97.5 % points of
the ratio) is narrower but covers only 0.83–0.89 on the same races with 5 seeds, so it is not used
(race_stats_selftest.paired_bootstrap_coverage).
"""
import functools
import math

import numpy as np

# Two-sided 95 % Student t quantiles (the 0.975 point), df = 1 … 30.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042]


def t975(df):
    """0.975 quantile of Student t; beyond the table the Cornish–Fisher expansion (error < 1e-4)."""
    if df < 1:
        return math.inf
    if df <= len(T975):
        return T975[df - 1]
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def _beta_cf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        for aa in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                   -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _beta_reg(a, b, x):
    """Regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_cf(a, b, x) / a
    return 1.0 - front * _beta_cf(b, a, 1.0 - x) / b


def t_cdf(t, df):
    """Student t distribution function."""
    tail = 0.5 * _beta_reg(0.5 * df, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


@functools.lru_cache(maxsize=None)
def t_quantile(p, df):
    """The p quantile (0.5 ≤ p < 1) of Student t with df degrees of freedom, by bisection."""
    if df < 1:
        return math.inf
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, 2.0 * hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return 0.5 * (lo + hi)


def t_crit(level, df):
    """Two-sided critical value of a t interval at confidence level `level` (the table at 0.95)."""
    if level == 0.95:
        return t975(df)
    return t_quantile(1.0 - 0.5 * (1.0 - level), df)


def mean_ci(values, level=0.95):
    """Mean and t half-width (95 % by default) over the last axis (inf for a single value)."""
    v = np.asarray(values, dtype=float)
    n = v.shape[-1]
    m = v.mean(-1)
    if n < 2:
        return m, np.full_like(m, math.inf)
    return m, t_crit(level, n - 1) * v.std(-1, ddof=1) / math.sqrt(n)


def paired_ci(a, b, level=0.95):
    """Mean of a − b over paired seeds (last axis) and its t half-width."""
    return mean_ci(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), level)


def interp_matrix(steps, grid):
    """W with values_at_grid = values_at_steps @ W (linear interpolation, clamped at the ends)."""
    steps = np.asarray(steps, dtype=float)
    w = np.zeros((len(steps), len(grid)))
    for j, x in enumerate(grid):
        i = int(np.searchsorted(steps, x, side="right")) - 1
        if i >= len(steps) - 1:
            w[-1, j] = 1.0
        elif i < 0:
            w[0, j] = 1.0
        else:
            t = (x - steps[i]) / (steps[i + 1] - steps[i])
            w[i, j], w[i + 1, j] = 1.0 - t, t
    return w


def first_crossing(steps, diff):
    """First step where the (linearly interpolated) mean difference reaches ≤ 0; inf if never.
    diff: (..., E) at the evaluation steps."""
    d = np.asarray(diff, dtype=float)
    steps = np.asarray(steps, dtype=float)
    hit = d <= 0
    i = np.where(hit.any(-1), hit.argmax(-1), -1)
    ic = np.clip(i, 1, None)
    prev = np.take_along_axis(d, (ic - 1)[..., None], -1)[..., 0]
    cur = np.take_along_axis(d, ic[..., None], -1)[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(prev != cur, prev / (prev - cur), 1.0)
    x = steps[ic - 1] + t * (steps[ic] - steps[ic - 1])
    return np.where(i < 0, math.inf, np.where(i == 0, steps[0], x))


def reach_target(edm_curves, tol=0.0):
    """Per-seed target t_s = EDM_s(B) + δ·(EDM_s(x_0) − EDM_s(B)) from EDM's curves (..., n, E):
    EDM's final value (δ = tol = 0), or within δ of EDM's drop over the evaluations above it."""
    e = np.asarray(edm_curves, dtype=float)
    return e[..., -1] + tol * (e[..., 0] - e[..., -1]) if tol else e[..., -1]


def reach_interval(steps, curves, targets, grid_step=5, level=0.95):
    """Steps at which a curve's expectation reaches the expected target, and a confidence interval.

    steps: the E evaluation steps; curves: (..., n, E) per-seed values; targets: (..., n) the
    paired per-seed target values (reach_target: EDM's final values). Lower is better.
    Point: the first crossing of the seed-mean curve with the seed-mean target.
    Interval: every step x at which a paired t test at `level` does not reject
    E[curve(x) − target] = 0, plus the unobserved steps before the first evaluation (unless the
    curve there is significantly above the target) and beyond the budget (unless it is
    significantly below at the budget); the hull of that set is reported. Returns (point, lo, hi);
    lo = 0 means "at or before the first evaluation", hi = inf "not excluded that it never reaches
    the target in the budget".
    """
    steps = np.asarray(steps, dtype=float)
    c = np.asarray(curves, dtype=float)
    tg = np.asarray(targets, dtype=float)
    n = c.shape[-2]
    point = first_crossing(steps, (c - tg[..., None]).mean(-2))
    grid = np.arange(steps[0], steps[-1] + 0.5 * grid_step, grid_step)
    grid[-1] = steps[-1]
    d = c @ interp_matrix(steps, grid) - tg[..., None]  # (..., n, G)
    m = d.mean(-2)
    if n > 1:
        half = t_crit(level, n - 1) * d.std(-2, ddof=1) / math.sqrt(n)
    else:
        half = np.full_like(m, math.inf)
    above, below = m - half > 0, m + half < 0
    ok = ~above & ~below
    before_ok = ~above[..., 0]  # x* before the first evaluation cannot be excluded
    # nor beyond the budget, unless reached there (≤: EDM's own curve equals its final value)
    after_ok = ~(m[..., -1] + half[..., -1] <= 0)
    idx = np.arange(len(grid))
    first = np.where(ok.any(-1), np.where(ok, idx, len(grid)).min(-1), -1)
    last = np.where(ok.any(-1), np.where(ok, idx, -1).max(-1), -1)
    # The accepted set's true ends lie within a grid cell of its outermost grid points.
    lo = np.where(first >= 0, grid[np.clip(first - 1, 0, None)], math.inf)
    hi = np.where(last >= 0, grid[np.clip(last + 1, 0, len(grid) - 1)], -math.inf)
    lo = np.where(before_ok, 0.0, lo)
    lo = np.where(np.isinf(lo) & after_ok, steps[-1], lo)  # only "beyond the budget" is left
    hi = np.where(after_ok, math.inf, hi)
    # Empty set (the curve jumps from significantly above to below between grid points): the point.
    lo = np.minimum(lo, point)
    hi = np.maximum(hi, np.where(np.isinf(point), -math.inf, point))
    hi = np.where(np.isinf(point) & np.isneginf(hi), math.inf, hi)
    return point, lo, hi


def ratio_interval(edm, other):
    """Speed-up x_EDM / x_other from two (point, lo, hi) steps-to-reach triples:
    (point, lo, hi) = (p_E / p_X, lo_E / hi_X, hi_E / lo_X). A sampler that never reaches the
    target (p_X = inf) has speed-up 0; one that may reach it at the first evaluation (lo_X = 0)
    an open upper end (inf). NaN where both points are inf."""
    pe, le, he = (np.asarray(v, dtype=float) for v in edm)
    px, lx, hx = (np.asarray(v, dtype=float) for v in other)
    with np.errstate(divide="ignore", invalid="ignore"):
        point = pe / px
        lo = np.where(np.isinf(hx), 0.0, le / hx)
        hi = np.where(lx <= 0, math.inf, he / lx)
    return point, np.nan_to_num(lo, nan=0.0), np.nan_to_num(hi, nan=math.inf, posinf=math.inf)


def speedup_interval(edm_steps, edm_curves, steps, curves, tol=0.0, level=0.95, grid_step=5):
    """EDM's steps to reach the target over the sampler's, with a Bonferroni interval at `level`.

    edm_steps, edm_curves (..., n, E_EDM): EDM's evaluations; steps, curves (..., n, E): the
    sampler's, the same n paired seeds. Target: reach_target(edm_curves, tol). Each steps-to-reach
    set is taken at level 1 − (1 − level)/2 (97.5 % for 95 %), and the ratio interval is
    [EDM_lo / X_hi, EDM_hi / X_lo], which holds the true ratio whenever both sets hold their
    truths. Returns (point, lo, hi, edm_reach, reach): the speed-up and the two per-arm triples
    at the per-arm level."""
    target = reach_target(edm_curves, tol)
    arm = 1.0 - 0.5 * (1.0 - level)
    e = reach_interval(edm_steps, edm_curves, target, grid_step, arm)
    x = reach_interval(steps, curves, target, grid_step, arm)
    return ratio_interval(e, x) + (e, x)
