#!/usr/bin/python3
"""The Python package's OnlineSampler: the C++ defaults and meanings (THEORY §6, §8), exact
resume, no host synchronisation between refreshes, and clear errors for bad settings."""
import importlib
import json
import math
import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "integrations", "python"))
import torch  # noqa: E402

from noisescope import OnlineSampler, binned, defaults  # noqa: E402
from noisescope.loss_weights import integral_over_log_sigma  # noqa: E402
from noisescope.refresh import gate  # noqa: E402


def gaussian_error(sigma):
    """MMSE of N(0, 0.25·I_8) data: a stand-in for a model's x0 error."""
    s2 = sigma.double() ** 2
    return 8 * 0.25 * s2 / (0.25 + s2)


def drive(sampler, steps, gen, batch=128):
    pis = []
    for _ in range(steps):
        sigma, _ = sampler.sample(batch, generator=gen)
        sampler.observe(sigma, gaussian_error(sigma))
        if sampler.step():
            pis.append(list(sampler.pi))
    return pis


def feed(sampler, sigma_values, errors):
    sampler.observe(torch.tensor(sigma_values, dtype=torch.float64), torch.tensor(errors, dtype=torch.float64))


class Defaults(unittest.TestCase):
    def test_defaults_are_the_trainers(self):
        # docs/training.md, "Settings and defaults" (noise.*), and LossWeight's σ_d.
        s = OnlineSampler().settings
        expected = {"sampler": "infonoise", "schedule": "edm", "sigma_min": 0.002, "sigma_max": 80.0,
                    "loss_weight": "edm", "min_snr_gamma": 5.0, "bins": 64, "warmup_steps": 200,
                    "refresh_every": 100, "stat_decay": 0.9, "smoothing_passes": 1, "min_bin_count": 16,
                    "gate_c": 0.15, "gate_n": 3.0, "uniform_mix": 0.0, "sigma_data": 0.5}
        for key, value in expected.items():
            self.assertEqual(s[key], value, key)
        self.assertEqual(OnlineSampler(discrete=True).settings["gate_c"], 0.2)  # "auto" on ±1 data
        self.assertEqual(OnlineSampler(gate_c=0).settings["gate_c"], 0.0)
        self.assertEqual(OnlineSampler(gate_c=0).gate_setting, "off")
        self.assertEqual(gate(1e-3, 0.0, 3.0), 1.0)  # c = 0: no gate at all

    def test_presets_and_defaults_are_the_engines_table(self):
        # noisescope/defaults.json is `noisescope-cli defaults --json` (test_python_defaults_json).
        table = defaults.TABLE
        self.assertEqual(table["format"], "noisescope.defaults/1")
        s = OnlineSampler().settings
        self.assertEqual((s["sigma_min"], s["sigma_max"]), (table["grid"]["sigma_min"], table["grid"]["sigma_max"]))
        self.assertEqual(s["sigma_data"], table["sigma_data_fallback"])
        self.assertEqual(s["gate_c"], table["gate"]["auto"]["continuous"])
        self.assertEqual(OnlineSampler(discrete=True).settings["gate_c"], table["gate"]["auto"]["discrete"])
        # Every setting but the method is the trainer's noise section as the table prints it.
        for key, value in table["training"]["noise"].items():
            if key not in ("sampler", "gate_c"):
                self.assertEqual(s[key], value, key)
        self.assertEqual(OnlineSampler().gate_setting, table["training"]["noise"]["gate_c"])
        self.assertEqual(OnlineSampler().base.bins, table["training"]["base_schedule_bins"])
        engine = {p["name"]: p["parameters"] for p in table["presets"]}
        self.assertEqual(set(binned.PRESETS), set(engine))  # every preset, vp and laplace too
        for name, (_, values) in binned.PRESETS.items():
            self.assertEqual(values, engine[name], name)

    def test_warm_up_draws_follow_the_edm_log_normal(self):
        sampler = OnlineSampler()
        ell = torch.log(sampler.sample(40000, generator=torch.Generator().manual_seed(3))[0].double())
        self.assertAlmostEqual(float(ell.mean()), -1.2, delta=0.03)
        self.assertAlmostEqual(float(ell.std()), 1.2, delta=0.03)

    def test_bad_settings_are_refused_by_name(self):
        for kwargs, word in [({"method": "cosine"}, "method"), ({"bins": 1}, "bins"),
                             ({"refresh_every": 0}, "refresh_every"), ({"gate_c": -1}, "gate_c"),
                             ({"loss_weight": "elbo"}, "loss_weight"), ({"loss_weight": "l2"}, "loss_weight"),
                             ({"schedule": "nope"}, "nope"), ({"uniform_mix": 2}, "uniform_mix"),
                             ({"parameterisation": "score"}, "parameterisation")]:
            with self.assertRaises(ValueError) as caught:
                OnlineSampler(**kwargs)
            self.assertIn(word, str(caught.exception))


class Refresh(unittest.TestCase):
    def test_warm_up_then_refresh_every_r_steps(self):
        sampler = OnlineSampler(warmup_steps=30, refresh_every=20, min_bin_count=2, bins=16)
        steps = []
        gen = torch.Generator().manual_seed(0)
        for _ in range(100):
            sigma, _ = sampler.sample(256, generator=gen)
            sampler.observe(sigma, gaussian_error(sigma))
            if sampler.step():
                steps.append(sampler.steps_done)
        self.assertEqual(steps, [30, 50, 70, 90])

    def test_a_bin_below_the_minimum_count_keeps_accumulating(self):
        sampler = OnlineSampler(bins=8, warmup_steps=1, refresh_every=1, min_bin_count=16)
        centres = sampler.sigma_centres
        feed(sampler, [centres[2]] * 20 + [centres[5]] * 10, [1.0] * 20 + [3.0] * 10)
        self.assertTrue(sampler.step())
        self.assertEqual(sampler.known[5], 0)
        self.assertEqual(sampler.window_count[5], 10.0)  # kept, not discarded
        feed(sampler, [centres[5]] * 10, [5.0] * 10)
        self.assertTrue(sampler.step())
        self.assertEqual(sampler.known[5], 1)
        self.assertAlmostEqual(sampler.mhat[5], 4.0)  # the mean over all 20 samples
        self.assertEqual(sampler.window_count[5], 0.0)
        # The other bin kept its estimate (no new samples): EMA untouched.
        self.assertEqual(sampler.mhat[2], 1.0)

    def test_no_refresh_before_any_bin_has_enough_samples(self):
        sampler = OnlineSampler(bins=8, warmup_steps=1, refresh_every=1, min_bin_count=16)
        feed(sampler, [1.0] * 5, [1.0] * 5)
        before = sampler.sample(64, generator=torch.Generator().manual_seed(1))[0]
        self.assertFalse(sampler.step())
        self.assertEqual(sampler.refreshes, 0)
        after = sampler.sample(64, generator=torch.Generator().manual_seed(1))[0]
        self.assertTrue(torch.equal(before, after))  # still the warm-up schedule

    def flat_rate_sampler(self, **kwargs):
        """Every bin known with m̂ = σ², so the ungated rate m̂/σ² is 1 everywhere."""
        sampler = OnlineSampler(bins=32, warmup_steps=1, refresh_every=1, min_bin_count=1,
                                smoothing_passes=0, **kwargs)
        feed(sampler, sampler.sigma_centres, [s * s for s in sampler.sigma_centres])
        self.assertTrue(sampler.step())
        return sampler

    def test_infonoise_pi_times_w_is_rho(self):
        sampler = self.flat_rate_sampler(method="infonoise", loss_weight="edm", sigma_data=0.5, gate_c=0.15)
        r, e = sampler.last_refresh, sampler.edges
        phi = [r["pi"][b] * integral_over_log_sigma("edm", e[b], e[b + 1], 0.5) / (e[b + 1] - e[b])
               for b in range(32)]
        total = sum(phi)
        for b in range(32):
            self.assertAlmostEqual(phi[b] / total, r["rho"][b], places=12)
        # ρ ∝ r_g: with a flat rate it is the gate's shape (Simpson over a bin, so to 1e-3).
        g = [gate(s, 0.15, 3.0) for s in sampler.sigma_centres]
        self.assertAlmostEqual(r["rho"][0] / r["rho"][-1], g[0] / g[-1], delta=1e-3 * g[0] / g[-1] + 1e-4)

    def test_gate_zero_is_no_gate(self):
        sampler = self.flat_rate_sampler(method="infonoise", loss_weight="uniform", gate_c=0)
        rho = sampler.last_refresh["rho"]
        # Flat everywhere but in the top half-bin, above the last centre, where m̂ is held.
        for value in rho[:-1]:
            self.assertAlmostEqual(value, rho[0], places=12)
        self.assertLess(rho[-1], rho[0])

    def test_sqrt_entropy_has_the_gate_under_the_root(self):
        sampler = self.flat_rate_sampler(method="sqrt-entropy", loss_weight="edm", gate_c=0.5, gate_n=3.0)
        pi, centres = sampler.last_refresh["pi"], sampler.sigma_centres
        ratio = pi[8] / pi[-2]
        gated = gate(centres[8], 0.5, 3.0) / gate(centres[-2], 0.5, 3.0)
        self.assertAlmostEqual(ratio, math.sqrt(gated), delta=0.03 * math.sqrt(gated))
        self.assertGreater(ratio, 10 * gated)  # not the gate itself

    def test_uniform_mix_adds_a_floor(self):
        sampler = self.flat_rate_sampler(method="infonoise", gate_c=0.15, uniform_mix=0.2)
        self.assertGreaterEqual(min(sampler.last_refresh["pi"]), 0.2 / 32 - 1e-15)

    def test_pi_moves_to_where_the_error_rate_is(self):
        # Gaussian data: rate m̂/σ² = D·s²/(s²+σ²), largest at small σ; the gate cuts below c.
        sampler = OnlineSampler(method="infonoise", loss_weight="uniform", warmup_steps=20,
                                refresh_every=10, min_bin_count=4, bins=32)
        drive(sampler, 60, torch.Generator().manual_seed(5))
        rho, centres = sampler.last_refresh["rho"], sampler.sigma_centres
        peak = centres[max(range(32), key=lambda b: rho[b])]
        self.assertTrue(0.1 < peak < 0.6, peak)


class Resume(unittest.TestCase):
    def test_state_dict_resumes_exactly(self):
        settings = dict(method="sqrt-entropy", warmup_steps=20, refresh_every=10, min_bin_count=8, bins=24)
        straight = OnlineSampler(**settings)
        gen = torch.Generator().manual_seed(11)
        pis_straight = drive(straight, 90, gen)
        tail = straight.sample(64, generator=torch.Generator().manual_seed(2))[0]

        first = OnlineSampler(**settings)
        gen = torch.Generator().manual_seed(11)
        pis = drive(first, 47, gen)  # mid-period: pending samples must travel too
        state = json.loads(json.dumps(first.state_dict()))
        gen_state = gen.get_state()
        second = OnlineSampler(**settings)
        second.load_state_dict(state)
        gen = torch.Generator()
        gen.set_state(gen_state)
        pis += drive(second, 43, gen)
        self.assertEqual(pis, pis_straight)
        self.assertTrue(torch.equal(second.sample(64, generator=torch.Generator().manual_seed(2))[0], tail))

    def test_a_state_of_another_sampler_is_refused(self):
        state = OnlineSampler(bins=16).state_dict()
        with self.assertRaises(ValueError):
            OnlineSampler(bins=32).load_state_dict(state)
        with self.assertRaises(ValueError):
            OnlineSampler(bins=16, method="sqrt-entropy").load_state_dict(state)
        state["mhat"] = [-1.0] * 16
        with self.assertRaises(ValueError):
            OnlineSampler(bins=16).load_state_dict(state)


class NoHostSync(unittest.TestCase):
    def test_steps_between_refreshes_never_read_the_device(self):
        sampler = OnlineSampler(warmup_steps=5, refresh_every=5, min_bin_count=1, bins=16)
        gen = torch.Generator().manual_seed(0)
        drive(sampler, 5, gen)  # past the first refresh
        reads = []

        def forbidden(name):
            original = getattr(torch.Tensor, name)

            def wrapper(self, *args, **kwargs):
                reads.append(name)
                return original(self, *args, **kwargs)
            return wrapper

        names = ["item", "tolist", "cpu", "numpy", "__bool__", "__float__", "__int__"]
        with mock.patch.multiple(torch.Tensor, **{n: forbidden(n) for n in names}):
            for _ in range(4):  # steps 6..9: no refresh due
                sigma, weight = sampler.sample(64, generator=gen)
                sampler.observe(sigma, gaussian_error(sigma))
                self.assertFalse(sampler.step())
            self.assertEqual(reads, [])
            sigma, _ = sampler.sample(64, generator=gen)
            sampler.observe(sigma, gaussian_error(sigma))
            self.assertTrue(sampler.step())  # step 10 refreshes: one read of the statistics
            self.assertIn("tolist", reads)


class Parameterisation(unittest.TestCase):
    def test_weights_in_other_parameterisations_keep_the_x0_weight(self):
        sigma = torch.tensor([0.01, 0.3, 1.0, 7.0], dtype=torch.float64)
        x0 = OnlineSampler(loss_weight="edm", sigma_data=0.5).loss_weight(sigma)
        eps = OnlineSampler(loss_weight="edm", sigma_data=0.5, parameterisation="epsilon").loss_weight(sigma)
        flow = OnlineSampler(loss_weight="edm", sigma_data=0.5, parameterisation="flow-velocity").loss_weight(sigma)
        self.assertTrue(torch.allclose(eps / sigma ** 2, x0))  # w_eps · ε-MSE = w_x0 · x0-MSE
        self.assertTrue(torch.allclose(flow * (1 + 1 / sigma) ** 2, x0))

    def test_sample_density_is_k_diffusion_style(self):
        sampler = OnlineSampler()
        sigma = sampler.sample_density([6, 2], device="cpu")
        self.assertEqual(tuple(sigma.shape), (6, 2))
        self.assertTrue(bool(((sigma >= 0.002) & (sigma <= 80.0)).all()))


class ImportPath(unittest.TestCase):
    def test_the_package_is_the_only_import_path(self):
        # The old top-level modules beside the package are gone (integrations/python is first on
        # sys.path here, so they would import if they were back): one name per module.
        for old in ("noisescope_export", "noisescope_sampler"):
            with self.assertRaises(ImportError, msg=old):
                importlib.import_module(old)


if __name__ == "__main__":
    torch.set_num_threads(1)
    unittest.main()
