"""One refresh of the online samplers (THEORY §6, §8), on the host, in plain Python floats.

Mirrors NoiseSampler::refresh and estimateErrors (core/train/noise_sampler.cpp), RateProfile,
RateGate and entropicAllocation (core/schedule/entropic.cpp) and samplingForAllocation
(core/schedule/allocation.cpp) step by step and in the same floating-point order: keep them in
step; tests/python/test_golden.py (test_python_golden) holds them equal to 1e-9 relative.
The steps:
  1. bins whose window holds ≥ min_bin_count samples fold their mean into the EMA m̂ and reset;
     the others keep accumulating and keep their old estimate;
  2. m̂ with gaps filled (log-linear between known bins, m̂ held above the last, m̂ ∝ σ² below the
     first) and smoothed by [¼ ½ ¼] passes on log m̂;
  3. the rate MMSE/σ², linear in ℓ between bin centres, times the gate g = σⁿ/(σⁿ+cⁿ) (c = 0: no
     gate); InfoNoise ρ ∝ r_g and π ∝ ρ/w, √-entropy π ∝ √r_g (log σ; the gate under the root),
     each bin's mass a Simpson integral (8 panels);
  4. a uniform_mix of 1/K per bin.
"""

import bisect
import math

from .binned import normalised_masses
from .loss_weights import integral_over_log_sigma

SUBINTERVALS = 8  # Simpson panels per bin, as in schedule/entropic.cpp


def gate(sigma, c, n):
    if not c > 0.0:
        return 1.0  # c = 0: no gate
    sn = math.pow(sigma, n)
    return sn / (sn + math.pow(c, n))


def fold_window(window_sum, window_count, mhat, known, min_count, decay):
    """Step 1, in place. Returns whether any bin is known."""
    for b in range(len(mhat)):
        if window_count[b] < float(min_count):
            continue
        mean = window_sum[b] / window_count[b]
        window_sum[b] = 0.0
        window_count[b] = 0.0
        if not math.isfinite(mean):
            continue  # a diverged window says nothing about the rate
        mhat[b] = decay * mhat[b] + (1 - decay) * mean if known[b] else mean
        known[b] = 1
    return any(known)


def estimate_errors(mhat, known, sigma_centres, passes):
    """Step 2: m̂ at every bin centre (NoiseSampler::estimateErrors)."""
    K = len(mhat)
    log_m = [0.0] * K
    first = last = -1
    for b in range(K):
        if not known[b]:
            continue
        log_m[b] = math.log(max(mhat[b], 1e-300))
        if first < 0:
            first = b
        last = b
    prev = first
    for b in range(first + 1, last + 1):
        if not known[b]:
            continue
        for g in range(prev + 1, b):
            t = float(g - prev) / float(b - prev)
            log_m[g] = (1 - t) * log_m[prev] + t * log_m[b]
        prev = b
    for b in range(last + 1, K):
        log_m[b] = log_m[last]
    for b in range(first):
        log_m[b] = log_m[first] + 2.0 * (math.log(sigma_centres[b]) - math.log(sigma_centres[first]))
    for _ in range(passes):
        log_m = [0.25 * log_m[max(b - 1, 0)] + 0.5 * log_m[b] + 0.25 * log_m[min(b + 1, K - 1)]
                 for b in range(K)]
    return [math.exp(v) for v in log_m]


class RateProfile:
    """MMSE at σ levels; the rate dH/dℓ = MMSE/σ², linear in ℓ between levels (RateProfile)."""

    def __init__(self, sigma, mmse):
        self.sigma, self.mmse = sigma, mmse
        self.logs = [math.log(s) for s in sigma]

    def rate_log_sigma(self, ell):
        sigma, mmse, n = self.sigma, self.mmse, len(self.sigma)
        if ell <= self.logs[0]:
            return mmse[0] / (sigma[0] * sigma[0])
        if ell >= self.logs[-1]:
            return mmse[-1] * math.exp(-2.0 * ell)
        hi = bisect.bisect_left(self.logs, ell, 1, n - 1)
        l0, l1 = self.logs[hi - 1], self.logs[hi]
        r0 = mmse[hi - 1] / (sigma[hi - 1] * sigma[hi - 1])
        r1 = mmse[hi] / (sigma[hi] * sigma[hi])
        t = (ell - l0) / (l1 - l0)
        return r0 + t * (r1 - r0)


def _simpson(f, a, b):
    n = SUBINTERVALS
    h = (b - a) / n
    total = f(a) + f(b)
    for i in range(1, n):
        total += (4.0 if i % 2 else 2.0) * f(a + i * h)
    return total * h / 3.0


def entropic_masses(law, profile, edges, gate_c, gate_n):
    """Bin masses of the law's density per unit ℓ (entropicAllocation, coordinate log σ)."""

    def density(ell):
        rate = max(0.0, profile.rate_log_sigma(ell) * gate(math.exp(ell), gate_c, gate_n))
        # √-entropy in log σ: |dℓ/du| = 1, so √(r_g·|dℓ/du|)/|dℓ/du| is √r_g.
        return rate if law == "infonoise" else math.sqrt(rate)

    return normalised_masses([max(0.0, _simpson(density, edges[b], edges[b + 1]))
                        for b in range(len(edges) - 1)])


def sampling_for_allocation(rho, edges, weight, sigma_data, gamma):
    """π_b ∝ ρ_b·Δ_b / ∫_bin w dℓ (samplingForAllocation)."""
    return normalised_masses([rho[b] * (edges[b + 1] - edges[b]) /
                        integral_over_log_sigma(weight, edges[b], edges[b + 1], sigma_data, gamma)
                        for b in range(len(rho))])


def build(method, mhat_estimate, sigma_centres, edges, settings):
    """Steps 3–4: (ρ, π) as bin masses from the estimated m̂."""
    profile = RateProfile(sigma_centres, mhat_estimate)
    c, n = settings["gate_c"], settings["gate_n"]
    rho = entropic_masses("infonoise", profile, edges, c, n)
    if method == "infonoise":
        pi = sampling_for_allocation(rho, edges, settings["loss_weight"], settings["sigma_data"],
                                     settings["min_snr_gamma"])
    else:
        pi = entropic_masses("sqrt-entropy", profile, edges, c, n)
    K, mix = len(pi), settings["uniform_mix"]
    return rho, [(1 - mix) * p + mix / K for p in pi]
