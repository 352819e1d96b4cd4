#!/usr/bin/python3
"""Golden test: one recorded loss stream through the C++ NoiseSampler and the Python OnlineSampler.

    test_golden.py NOISE_SAMPLER_REPLAY WORK_DIR

The stream is recorded once, by a Python run of a Gaussian-data model with noisy errors whose σ
come from the sampler itself (so π moves and bins fill unevenly: some stay below min_bin_count and
carry their samples over). Both implementations then replay the same (σ, error) batches; after
every refresh π, ρ and m̂ must agree to 1e-6 and so must σ drawn from a shared list of uniforms.
Several settings: both laws, gate auto / off / set, uniform mix, and EDM, uniform and min-SNR
weights.
"""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "integrations", "python"))
import torch  # noqa: E402

from noisescope import OnlineSampler  # noqa: E402

REPLAY, WORK = sys.argv[1], sys.argv[2]
TOLERANCE = 1e-6

CASES = {
    "infonoise-edm": dict(method="infonoise", loss_weight="edm", sigma_data=0.5, gate_c="auto"),
    "sqrt-entropy-off-mix": dict(method="sqrt-entropy", loss_weight="uniform", gate_c=0,
                                 uniform_mix=0.05, smoothing_passes=2),
    "infonoise-min-snr": dict(method="infonoise", loss_weight="min-snr", min_snr_gamma=3.0, gate_c=0.2,
                              gate_n=2.0, stat_decay=0.5, min_bin_count=24, bins=40),
    "sqrt-entropy-edm-gate": dict(method="sqrt-entropy", loss_weight="edm", sigma_data=0.8, gate_c=0.3),
}
COMMON = dict(warmup_steps=30, refresh_every=15)
STEPS, BATCH = 120, 64


def record(settings, seed):
    """(σ, error) batches from a sampler-driven run: error ≈ D·s²σ²/(s²+σ²)·noise, D = 8, s = 0.5."""
    sampler = OnlineSampler(**settings)
    gen = torch.Generator().manual_seed(seed)
    steps = []
    for _ in range(STEPS):
        sigma, _ = sampler.sample(BATCH, generator=gen, dtype=torch.float64)
        noise = torch.exp(0.3 * torch.randn(BATCH, generator=gen, dtype=torch.float64))
        error = 8 * 0.25 * sigma ** 2 / (0.25 + sigma ** 2) * noise
        sampler.observe(sigma, error)
        sampler.step()
        steps.append({"sigma": sigma.tolist(), "error": error.tolist()})
    return steps


def cpp_settings(sampler):
    s = dict(sampler.settings)
    s["method"] = s.pop("sampler")
    return s


def close(a, b):
    return len(a) == len(b) and all(abs(x - y) <= TOLERANCE * max(1.0, abs(y)) for x, y in zip(a, b))


class GoldenTest(unittest.TestCase):
    def run_case(self, name, options):
        settings = dict(COMMON, **options)
        steps = record(settings, seed=len(name))
        uniforms = torch.rand(257, generator=torch.Generator().manual_seed(7), dtype=torch.float64).tolist()
        uniforms += [0.0, 1e-12, 0.5, 1.0 - 1e-12]
        python = OnlineSampler(**settings)
        stream = {"settings": cpp_settings(python), "steps": steps, "uniforms": uniforms}
        path = os.path.join(WORK, f"{name}.json")
        with open(path, "w", encoding="utf-8") as out:
            json.dump(stream, out)
        done = subprocess.run([REPLAY, path], capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        cpp = json.loads(done.stdout)

        u = torch.tensor(uniforms, dtype=torch.float64)
        self.assertTrue(close(python.sigma_from_uniform(u).tolist(), cpp["base_draws"]), "warm-up draws differ")
        ours = []
        for step in steps:
            python.observe(torch.tensor(step["sigma"], dtype=torch.float64),
                           torch.tensor(step["error"], dtype=torch.float64))
            if python.step():
                ours.append(dict(python.last_refresh, draws=python.sigma_from_uniform(u).tolist()))
        self.assertGreaterEqual(len(cpp["refreshes"]), 5, "the stream should refresh several times")
        self.assertEqual([r["step"] for r in ours], [r["step"] for r in cpp["refreshes"]])
        for mine, theirs in zip(ours, cpp["refreshes"]):
            for key in ("pi", "rho", "mhat", "draws"):
                self.assertTrue(close(mine[key], theirs[key]),
                                f"{name}: {key} after the refresh at step {theirs['step']} differs: "
                                f"max |Δ| = {max(abs(x - y) for x, y in zip(mine[key], theirs[key])):.3g}")
            self.assertAlmostEqual(mine["cdf_change"], theirs["cdf_change"], delta=TOLERANCE)
        carried = any(0 < c < python.settings["min_bin_count"] for c in python.window_count)
        return carried

    def test_cases(self):
        carried = [self.run_case(name, options) for name, options in CASES.items()]
        # The minimum-count rule is exercised: some bin still carries samples below the count.
        self.assertTrue(any(carried))


if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    unittest.main(argv=sys.argv[:1])
