#!/usr/bin/env python3
"""The empirical profile's interval at the onset level, simulated apart from the engine (THEORY §3,
"The onset level"; docs/profiles.md). A ±1 chain of N strings of 12 letters is the prior; its
empirical MMSE per level is measured with 256 000 queries (every point, 4 000 noise draws each,
exact posterior in float64 without pruning). Over SEEDS sets of 256 queries it prints per level the
share whose normal interval (mean ± 1.96 se, lower end clipped at 0) holds the truth, the share
after the onset rule (upper end raised to the analytic bound's where the expected off-own-point
events Λ fall below LAMBDA0), how often the rule fired, and the median raised upper end / truth.

usage: /usr/bin/python3 onset_interval_sim.py [SEED=1] [N=64] [SEEDS=100] [LAMBDA0=40]
"""
import math
import sys

import numpy as np
import torch


def normal_tail(u):  # Φ(−u)
    return 0.5 * torch.erfc(torch.as_tensor(u, dtype=torch.float64) / math.sqrt(2.0))


def chain(rng, n, d, flip):
    x = np.empty((n, d))
    x[:, 0] = rng.choice([-1.0, 1.0], n)
    for k in range(1, d):
        x[:, k] = np.where(rng.random(n) < flip, -x[:, k - 1], x[:, k - 1])
    return x


def posterior_variance(x, j, eps, sigma):
    y = x[j] + sigma * eps
    z = -((y[:, None, :] - x[None, :, :]) ** 2).sum(-1) / (2 * sigma * sigma)
    w = np.exp(z - z.max(1, keepdims=True))
    w /= w.sum(1, keepdims=True)
    m = w @ x
    return (w * (x ** 2).sum(1)[None, :]).sum(1) - (m ** 2).sum(1)


def onset_terms(x, j, sigma):
    """Per query U_j = Σ_{A>0} 2AΦ(−√A/(2σ)) and λ_j = Σ_{A>0} 2Φ(−√A/(2σ)), over every point."""
    a = torch.as_tensor(((x[j][:, None, :] - x[None, :, :]) ** 2).sum(-1))
    p = 2 * normal_tail(torch.sqrt(a) / (2 * sigma))
    p[a == 0] = 0
    return (a * p).sum(1).numpy(), p.sum(1).numpy()


def main():
    args = sys.argv[1:] + [None] * 4
    rng = np.random.default_rng(int(args[0] or 1))
    n, d, m = int(args[1] or 64), 12, 256
    seeds, lambda0 = int(args[2] or 100), float(args[3] or 40)
    x = chain(rng, n, d, 0.25)
    sigma = np.exp(np.linspace(np.log(0.002), np.log(80), 64))
    sigma = sigma[(sigma > 0.05) & (sigma < 3)]
    truth = []
    for s in sigma:
        total = 0.0
        for _ in range(20):
            j = np.repeat(np.arange(n), 200)
            total += posterior_variance(x, j, rng.standard_normal((len(j), d)), s).sum()
        truth.append(total / (20 * 200 * n))
    plain = np.zeros(len(sigma))
    raised = np.zeros(len(sigma))
    fired = np.zeros(len(sigma))
    ratio = [[] for _ in sigma]
    for _ in range(seeds):
        j = rng.integers(0, n, m)
        eps = rng.standard_normal((m, d))
        for l, s in enumerate(sigma):
            v = posterior_variance(x, j, eps, s)
            mean, se = v.mean(), v.std(ddof=1) / math.sqrt(m)
            low, high = max(0.0, mean - 1.96 * se), mean + 1.96 * se
            plain[l] += low <= truth[l] <= high
            u, events = onset_terms(x, j, s)
            if events.sum() < lambda0:
                high = max(high, u.mean() + 1.96 * u.std(ddof=1) / math.sqrt(m))
                fired[l] += 1
            raised[l] += low <= truth[l] <= high
            if truth[l] > 0:
                ratio[l].append(high / truth[l])
    print("N = %d, D = %d, %d queries, %d seeds, Λ0 = %g" % (n, d, m, seeds, lambda0))
    print("| σ | MMSE | normal interval | with the onset rule | rule used | median upper / MMSE |")
    print("|---:|---:|---:|---:|---:|---:|")
    for l, s in enumerate(sigma):
        r = "%.3g" % np.median(ratio[l]) if ratio[l] else "–"
        print("| %.4f | %.4g | %.3f | %.3f | %.2f | %s |" % (s, truth[l], plain[l] / seeds,
                                                             raised[l] / seeds, fired[l] / seeds, r))


if __name__ == "__main__":
    main()
