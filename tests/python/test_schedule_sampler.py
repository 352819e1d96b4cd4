"""ctest: the Python σ sampler against schedules written by noisescope-cli.

Usage: test_schedule_sampler.py NOISESCOPE_CLI WORK_DIR
Checks, for several schedules: a Kolmogorov–Smirnov test of the sampler's draws against the CDF the
C++ side wrote into the file; the loss weights against the closed forms and against the C++ values;
seeded reproducibility; clear errors for malformed files.
"""

import bisect
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "integrations", "python"))

import torch  # noqa: E402

from noisescope import ScheduleError, ScheduleSampler  # noqa: E402

CLI, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
N = 20000
CRITICAL = 1.63 / math.sqrt(N)  # KS, 1 % level


def make(name, *args):
    path = os.path.join(WORK, name)
    subprocess.run([CLI, "schedule", *args, "--bins", "128", "-o", path], check=True,
                   stdout=subprocess.DEVNULL)
    with open(path, encoding="utf-8") as handle:
        return path, json.load(handle)


def file_cdf(doc, sigma):
    """CDF from the file's own edges and edge CDF (independent of the sampler's code)."""
    edges, cdf = doc["log_sigma_edges"], doc["cdf"]
    ell = math.log(sigma)
    if ell <= edges[0]:
        return 0.0
    if ell >= edges[-1]:
        return 1.0
    b = bisect.bisect_right(edges, ell) - 1
    return cdf[b] + (ell - edges[b]) / (edges[b + 1] - edges[b]) * (cdf[b + 1] - cdf[b])


def ks(draws, cdf):
    xs = sorted(draws)
    n = len(xs)
    return max(max(cdf(x) - i / n, (i + 1) / n - cdf(x)) for i, x in enumerate(xs))


def formula(kind, sigma, doc, density=None):
    s2 = sigma * sigma
    sd = doc["loss_weight"]["sigma_data"]
    gamma = doc["loss_weight"]["gamma"]
    return {
        "edm": lambda: (s2 + sd * sd) / (s2 * sd * sd),
        "uniform": lambda: 1.0,
        "epsilon": lambda: 1.0 / s2,
        "v": lambda: 1.0 + 1.0 / s2,
        "min-snr": lambda: min(1.0 / s2, gamma),
        "flow-v": lambda: (1.0 + 1.0 / sigma) ** 2,
        "elbo": lambda: 1.0 / (s2 * density),
    }[kind]()


failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


cases = [
    make("edm.json", "--preset", "edm"),
    make("sd3.json", "--preset", "sd3"),
    make("vp.json", "--preset", "vp"),
    make("minsnr.json", "--family", "log-uniform", "--weight", "min-snr", "--gamma", "5"),
    make("elbo.json", "--preset", "edm2-img64", "--weight", "elbo"),
]
for path, doc in cases:
    sampler = ScheduleSampler(path)
    gen = torch.Generator().manual_seed(1234)
    sigma, weight = sampler.sample_with_weights(N, generator=gen)
    draws = sigma.double().tolist()
    d = ks(draws, lambda x: file_cdf(doc, x))
    check(d < CRITICAL + 2e-6, f"{path}: KS statistic {d:.4f} ≥ {CRITICAL:.4f}")
    check(min(draws) >= doc["sigma_min"] * (1 - 1e-6) and max(draws) <= doc["sigma_max"] * (1 + 1e-6),
          f"{path}: draws outside [σ_min, σ_max]")
    # The sampler's CDF agrees with the file's.
    for x in (0.01, 0.1, 1.0, 10.0):
        check(abs(float(sampler.cdf(x)) - file_cdf(doc, x)) < 1e-12, f"{path}: cdf({x}) differs")
    # Weights: closed form at the draws, and the C++ values at the bin centres.
    kind = doc["loss_weight"]["kind"]
    for x, w in list(zip(draws, weight.double().tolist()))[:200]:
        density = float(sampler.density_log_sigma(x)) if kind == "elbo" else None
        expected = formula(kind, x, doc, density)
        check(abs(w - expected) <= 1e-5 * abs(expected), f"{path}: w({x}) = {w} ≠ {expected}")
    centres = torch.tensor(doc["sigma_centers"], dtype=torch.float64)
    mine = sampler.loss_weight(centres).double()
    theirs = torch.tensor(doc["loss_weight_values"], dtype=torch.float64)
    check(torch.allclose(mine, theirs, rtol=1e-5), f"{path}: weights differ from the C++ values")
    # Same seed, same draws.
    again = sampler.sample(N, generator=torch.Generator().manual_seed(1234))
    check(torch.equal(again, sigma), f"{path}: draws are not reproducible with the same seed")

# An atomic schedule: frequencies of the atoms.
atomic = {"format": "noisescope.schedule/1", "kind": "atomic", "sigma_min": 0.002, "sigma_max": 80,
          "atoms": [{"sigma": 0.1, "weight": 0.2}, {"sigma": 1.0, "weight": 0.5}, {"sigma": 7.0, "weight": 0.3}],
          "loss_weight": {"kind": "uniform", "sigma_data": 0.5, "gamma": 5}}
sampler = ScheduleSampler(atomic)
draws = sampler.sample(N, generator=torch.Generator().manual_seed(5)).double()
for atom in atomic["atoms"]:
    share = float((torch.isclose(draws, torch.tensor(atom["sigma"], dtype=torch.float64))).double().mean())
    check(abs(share - atom["weight"]) < 4 * math.sqrt(atom["weight"] * (1 - atom["weight"]) / N),
          f"atomic: share of σ={atom['sigma']} is {share}")

# Malformed files are rejected with a message that names the file.
bad = os.path.join(WORK, "bad.json")
for content in ("{", json.dumps({"format": "noisescope.profile/1"}),
                json.dumps({"format": "noisescope.schedule/1", "log_sigma_edges": [0, 1], "bin_masses": [1, 2]}),
                json.dumps({"format": "noisescope.schedule/1", "log_sigma_edges": [1, 0], "bin_masses": [1]})):
    with open(bad, "w", encoding="utf-8") as handle:
        handle.write(content)
    try:
        ScheduleSampler(bad)
        check(False, f"accepted malformed file {content[:40]}")
    except ScheduleError as error:
        check(bad in str(error), f"error does not name the file: {error}")

# The CLI answers bad input with exit code 2 and a message that names what was wrong.
for args, fragment in (
        (["schedule", "--preset", "banana"], "unknown schedule preset"),
        (["schedule", "--family", "edm", "--param", "p_std=-1"], "outside"),
        (["schedule", "--from", bad], bad),
        (["compare", os.path.join(WORK, "missing.json")], "missing.json"),
        (["export", "edm", os.path.join(WORK, "out.txt")], "unknown schedule file type"),
        (["schedule", "--preset", "edm", "--family", "edm"], "exactly one of")):
    result = subprocess.run([CLI, *args], capture_output=True, text=True)
    check(result.returncode == 2 and fragment in result.stderr,
          f"{' '.join(args)}: exit {result.returncode}, stderr {result.stderr.strip()[:200]}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("all sampler checks passed")
