"""Binned schedules in ℓ = log σ: the schedule model of core/schedule/schedule.cpp, in Python.

Mirrors LogSigmaGrid::uniform, Schedule::fromBinMasses, cdfLogSigma, quantileLogSigma and
massesOn there, and the preset families of core/schedule/families.cpp (familyCdfLogSigma,
familySurvivalLogSigma, makeFamilySchedule): keep them in step; tests/python/test_golden.py
(test_python_golden) holds them equal.

A binned schedule is a density that is piecewise constant in ℓ on the bins of a grid. Its CDF is
piecewise linear, so σ is drawn by inverse CDF with linear interpolation inside a bin. The host
side (masses, CDF, the base presets) is plain Python floats, computed in the same order as the
C++ code so that both give the same numbers; sampling runs on torch tensors on any device.
"""

import bisect
import math

import torch

from . import defaults


def uniform_edges(sigma_min, sigma_max, bins):
    """`bins` equal bins in ℓ on [log σ_min, log σ_max] (LogSigmaGrid::uniform)."""
    if not (sigma_min > 0 and sigma_max > sigma_min and math.isfinite(sigma_max)):
        raise ValueError("need 0 < sigma_min < sigma_max < inf")
    if not (isinstance(bins, int) and 1 <= bins <= 10_000_000):
        raise ValueError("bins must be an integer in [1, 1e7]")
    a, b = math.log(sigma_min), math.log(sigma_max)
    edges = [a + (b - a) * i / bins for i in range(bins + 1)]
    edges[-1] = b
    return edges


def bin_of(edges, log_sigma):
    """The bin holding ℓ, clamped into the grid (NoiseSampler::binOf)."""
    if log_sigma <= edges[0]:
        return 0
    if log_sigma >= edges[-1]:
        return len(edges) - 2
    return min(bisect.bisect_right(edges, log_sigma) - 1, len(edges) - 2)


def normalised_masses(values):
    """Bin masses scaled to sum to 1; ValueError for a negative or non-finite mass or a zero sum."""
    total = 0.0
    for v in values:
        if not math.isfinite(v) or v < 0:
            raise ValueError("bin masses must be finite and >= 0")
        total += v
    if not total > 0:
        raise ValueError("bin masses sum to zero")
    return [v / total for v in values]


class BinnedSchedule:
    """Bin masses on ℓ edges, normalised; CDF at the edges; inverse-CDF sampling on tensors."""

    def __init__(self, edges, masses):
        edges = [float(e) for e in edges]
        masses = [float(m) for m in masses]
        if len(edges) < 2 or len(masses) != len(edges) - 1:
            raise ValueError("need one mass per bin and at least one bin")
        if any(not math.isfinite(e) for e in edges) or any(b <= a for a, b in zip(edges, edges[1:])):
            raise ValueError("bin edges must be finite and strictly increasing")
        self.edges = edges
        self.masses = normalised_masses(masses)
        running, self.cdf = 0.0, [0.0]
        for m in self.masses:
            running += m
            self.cdf.append(running)
        self.cdf[-1] = 1.0  # so that u → 1 lands on the last edge
        self._tensors = {}

    @property
    def bins(self):
        return len(self.masses)

    def width(self, b):
        return self.edges[b + 1] - self.edges[b]

    def cdf_log_sigma(self, ell):
        if ell <= self.edges[0]:
            return 0.0
        if ell >= self.edges[-1]:
            return 1.0
        b = min(bisect.bisect_right(self.edges, ell) - 1, self.bins - 1)
        return self.cdf[b] + (ell - self.edges[b]) / self.width(b) * self.masses[b]

    def masses_on(self, edges):
        """Probability of each bin of another grid, from the overlaps of the two grids."""
        out = [0.0] * (len(edges) - 1)
        source = target = 0
        while source < self.bins and target < len(out):
            lo = max(self.edges[source], edges[target])
            hi = min(self.edges[source + 1], edges[target + 1])
            if hi > lo:
                out[target] += self.masses[source] * (hi - lo) / self.width(source)
            if self.edges[source + 1] < edges[target + 1]:
                source += 1
            else:
                target += 1
        return out

    def _on(self, device):
        key = str(device)
        if key not in self._tensors:
            f64 = dict(dtype=torch.float64, device=device)
            edges = torch.tensor(self.edges, **f64)
            masses = torch.tensor(self.masses, **f64)
            top = max([b for b, m in enumerate(self.masses) if m > 0])
            self._tensors[key] = (edges, masses, torch.tensor(self.cdf, **f64),
                                  edges[1:] - edges[:-1], edges[top + 1])
        return self._tensors[key]

    def log_sigma_from_uniform(self, u):
        """ℓ = F⁻¹(u) for a float64 tensor u (Schedule::quantileLogSigma), on u's device."""
        edges, masses, cdf, widths, top = self._on(u.device)
        u = torch.nan_to_num(u, nan=0.0).clamp(0.0, 1.0)
        # The first edge whose CDF exceeds u closes a bin with positive mass (upper_bound).
        after = torch.searchsorted(cdf, u, right=True)
        index = (after - 1).clamp(0, self.bins - 1)
        mass = masses[index]
        safe = torch.where(mass > 0, mass, torch.ones_like(mass))
        fraction = torch.where(mass > 0, (u - cdf[index]) / safe, torch.zeros_like(u)).clamp(0.0, 1.0)
        ell = edges[index] + fraction * widths[index]
        return torch.where(after > self.bins, top, ell)  # u = 1: the top of the last bin with mass

    def sigma_from_uniform(self, u):
        return torch.exp(self.log_sigma_from_uniform(u))


# ---- base (warm-up) schedules: the families of core/schedule/families.cpp, discretised exactly ----

def _normal_cdf(z):
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _edm(p_mean, p_std):
    return (lambda ell: _normal_cdf((ell - p_mean) / p_std),
            lambda ell: _normal_cdf(-(ell - p_mean) / p_std))


def _log_uniform(sigma_low, sigma_high):
    a, b = math.log(sigma_low), math.log(sigma_high)
    cdf = lambda ell: min(max((ell - a) / (b - a), 0.0), 1.0)  # noqa: E731
    return cdf, lambda ell: 1.0 - cdf(ell)


def _cosine(shift):
    return (lambda ell: 2.0 / math.pi * math.atan(math.exp(ell) / shift),
            lambda ell: 2.0 / math.pi * math.atan(shift * math.exp(-ell)))


def _vp(beta_d, beta_min, eps_t):
    def cdf(ell):
        # VP time of σ, ½β_d t² + β_min t = log(1 + σ²), in the cancellation-free form
        q = math.log1p(math.exp(2.0 * ell))
        t = 2.0 * q / (beta_min + math.sqrt(beta_min * beta_min + 2.0 * beta_d * q))
        return min(max((t - eps_t) / (1.0 - eps_t), 0.0), 1.0)
    return cdf, lambda ell: 1.0 - cdf(ell)


def _logit_normal(m, s, shift):
    return (lambda ell: _normal_cdf((ell - m - math.log(shift)) / s),
            lambda ell: _normal_cdf(-(ell - m - math.log(shift)) / s))


def _laplace_lambda(mu, b):
    # λ = −2ℓ, so P(ℓ' ≤ ℓ) = P(λ' ≥ −2ℓ).
    def cdf(ell):
        z = (-2.0 * ell - mu) / b
        return 1.0 - 0.5 * math.exp(z) if z < 0 else 0.5 * math.exp(-z)

    def survival(ell):
        z = (-2.0 * ell - mu) / b
        return 0.5 * math.exp(z) if z < 0 else 1.0 - 0.5 * math.exp(-z)
    return cdf, survival


# Every family of the schedule model; the presets and their parameters are the engine's
# (defaults.json), so a preset the engine adds to a family written here needs no change here.
_FAMILIES = {"edm": _edm, "log-uniform": _log_uniform, "cosine": _cosine, "vp": _vp,
             "logit-normal": _logit_normal, "laplace-lambda": _laplace_lambda}
# preset: (family, default parameters)
PRESETS = {name: (_FAMILIES[family], values) for name, (family, values) in defaults.PRESETS.items()}


def preset_schedule(name, edges, params=None):
    """A preset family on the bins `edges`: each bin gets its exact probability (CDF differences,
    survival differences in the upper half so that far-tail bins keep their mass)."""
    if name not in PRESETS:
        raise ValueError(f"unknown base schedule {name!r} (presets: {', '.join(PRESETS)})")
    family, values = PRESETS[name]
    values = dict(values)
    for key, value in (params or {}).items():
        if key not in values:
            raise ValueError(f"base schedule {name!r} has no parameter {key!r}")
        values[key] = float(value)
    cdf_of, survival_of = family(**values)
    cdf = [cdf_of(e) for e in edges]
    survival = [survival_of(e) for e in edges]
    masses = [max(0.0, cdf[b + 1] - cdf[b] if cdf[b] < 0.5 else survival[b] - survival[b + 1])
              for b in range(len(edges) - 1)]
    if not 1.0 - cdf[0] - survival[-1] > 1e-300:
        raise ValueError(f"base schedule {name!r} puts no probability inside [sigma_min, sigma_max]")
    return BinnedSchedule(edges, masses)
