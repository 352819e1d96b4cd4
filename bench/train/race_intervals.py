"""Intervals over seeds for the schedule race (docs/schedule-race.md, THEORY §11).

Seeds are paired across samplers: the same seed gives the same initialisation, data order,
held-out subset and sampling noise, so every comparison with EDM is made on per-seed differences.
  * t_quantile / mean_ci: Student t intervals (exact for normal per-seed values; no scipy here);
  * paired_ci: the mean per-seed difference of two samplers with its t interval;
  * reach_interval: the steps a sampler's expected curve needs to reach EDM's expected final value,
    with a confidence set from inverting a paired t test at every step, so the uncertainty of
    EDM's own final value is carried along (it enters every per-seed difference).
Arrays may carry leading batch axes, which is how the self-test's simulation runs thousands of
replicate races at once.
"""
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


def mean_ci(values):
    """Mean and 95 % t half-width over the last axis (half-width inf for a single value)."""
    v = np.asarray(values, dtype=float)
    n = v.shape[-1]
    m = v.mean(-1)
    if n < 2:
        return m, np.full_like(m, math.inf)
    return m, t975(n - 1) * v.std(-1, ddof=1) / math.sqrt(n)


def paired_ci(a, b):
    """Mean of a − b over paired seeds (last axis) and its 95 % t half-width."""
    return mean_ci(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))


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


def reach_interval(steps, curves, targets, grid_step=5):
    """Steps at which a sampler's expected curve reaches the expected target, and a 95 % interval.

    steps: the E evaluation steps; curves: (..., n, E) per-seed values; targets: (..., n) the
    paired per-seed target values (EDM's final values). Lower is better.
    Point: the first crossing of the seed-mean curve with the seed-mean target.
    Interval: every step x at which a paired t test does not reject E[curve(x) − target] = 0,
    plus the unobserved steps before the first evaluation (unless the curve there is significantly
    above the target) and beyond the budget (unless it is significantly below at the budget);
    the hull of that set is reported. Returns (point, lo, hi); lo = 0 means "at or before the
    first evaluation", hi = inf "not excluded that it never reaches the target in the budget".
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
    half = t975(n - 1) * d.std(-2, ddof=1) / math.sqrt(n) if n > 1 else np.full_like(m, math.inf)
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
