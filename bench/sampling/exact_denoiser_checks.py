"""Two checks behind docs/theory.md §6 ("Why some grids get worse with more steps"), with the exact
posterior-mean denoiser of 16 random ±1 patterns in D = 32 (numpy re-implementation of EDM's Heun
step, as in train/evaluation.cpp; TV of the nearest-pattern law, as in
tests/core/schedule/test_exact_denoiser_grids.cpp):

1. Karras rho=7 with 4 levels on [0.002, 80] (80, 9.7, 0.47, 0.002): is its poor TV the Heun
   corrector on the step 9.7 -> 0.47, or the step's length across the informative band?
2. Entropic time (equal increments of the true rate) ending where the rate vanishes: is its lack of
   convergence from 4 to 8 levels its long first step?

Run: /usr/bin/python3 bench/sampling/exact_denoiser_checks.py   (about a minute)
"""
import math

import numpy as np

SMIN, SMAX = 0.002, 80.0
rng = np.random.default_rng(0)
P = np.sign(rng.standard_normal((16, 32)))
z = rng.standard_normal((20000, 32))


def denoise(x, s):
    d2 = ((x[:, None, :] - P[None, :, :]) ** 2).sum(-1)
    lw = -d2 / (2 * s * s)
    lw -= lw.max(1, keepdims=True)
    w = np.exp(lw)
    return (w / w.sum(1, keepdims=True)) @ P


def heun(sig, euler_at=()):
    x = sig[0] * z
    for i in range(len(sig) - 1):
        s, n = sig[i], sig[i + 1]
        d = (x - denoise(x, s)) / s
        xn = x + (n - s) * d
        if n > 0 and i not in euler_at:
            xn = x + (n - s) * 0.5 * (d + (xn - denoise(xn, n)) / n)
        x = xn
    return x


def tv(x):
    d2 = ((x[:, None, :] - P[None, :, :]) ** 2).sum(-1)
    pd = ((P[:, None, :] - P[None, :, :]) ** 2).sum(-1)
    pd[np.arange(16), np.arange(16)] = np.inf
    k, ok = d2.argmin(1), d2.min(1) < pd.min() / 4
    h = np.bincount(k[ok], minlength=16) / len(x)
    return 0.5 * (np.abs(h - 1 / 16).sum() + (1 - ok.mean()))


def karras(n, smin=SMIN):
    i = np.arange(n) / (n - 1)
    return np.append((SMAX ** (1 / 7) + i * (smin ** (1 / 7) - SMAX ** (1 / 7))) ** 7, 0)


# The true rate MMSE/σ² by Monte Carlo over the exact posterior.
sg = np.exp(np.linspace(math.log(SMIN), math.log(SMAX), 64))
idx, e = rng.integers(0, 16, 4000), rng.standard_normal((4000, 32))
rate = np.array([((denoise(P[idx] + s * e, s) - P[idx]) ** 2).sum(1).mean() for s in sg]) / sg**2
ell = np.linspace(math.log(SMIN), math.log(SMAX), 8193)
r = np.interp(ell, np.log(sg), rate)
cum = np.concatenate([[0], np.cumsum(0.5 * (r[1:] + r[:-1]) * np.diff(ell))])
smin = math.exp(ell[np.searchsorted(cum, 2 * math.log(2) * 0.005) - 1])


def entropic(n):
    lo = ell >= math.log(smin)
    c = cum[lo] - cum[lo][0]
    t = c[-1] * (1 - np.arange(n) / (n - 1))
    s = np.exp(np.interp(t, c, ell[lo]))
    s[0], s[-1] = SMAX, smin
    return np.append(s, 0)


k4 = karras(4)
print("1. Karras rho=7, 4 levels", np.round(k4[:-1], 3))
print("   Heun                           TV %.3f" % tv(heun(k4)))
print("   Euler on the step 9.7 -> 0.47  TV %.3f" % tv(heun(k4, euler_at=(1,))))
print("   a level at 1.0 inserted        TV %.3f" % tv(heun(np.array([80, k4[1], 1.0, k4[2], SMIN, 0]))))
print("2. entropic time, sigma_min = %.3f" % smin)
for n in (4, 8):
    g = entropic(n)
    extra = np.exp(np.linspace(math.log(SMAX), math.log(g[1]), 4))[1:-1]
    print("   %d levels %s TV %.3f; two log-spaced levels added in the first step: TV %.3f"
          % (n, np.round(g[:-1], 2), tv(heun(g)), tv(heun(np.concatenate([[SMAX], extra, g[1:]])))))
