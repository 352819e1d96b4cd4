#!/usr/bin/python3
"""σ in other code's time variables and the loss-weight conversions (THEORY §1, §5, §12), checked
against the definitions of each parameterisation rather than against the package's own formulas."""
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "integrations", "python"))
import torch  # noqa: E402

from noisescope import (ddpm_sigmas, flow_t_to_sigma, sigma_to_ddpm_timestep, sigma_to_flow_t,  # noqa: E402
                        sigma_to_vp_t, vp_t_to_sigma, x0_error, x0_to_parameterisation_factor)

F64 = torch.float64


def diffusers_linear_alphas_cumprod(T=1000):
    """DDPMScheduler(beta_schedule="linear"): betas linspace(1e-4, 0.02), ᾱ = cumprod(1 − β)."""
    betas = torch.linspace(1e-4, 0.02, T, dtype=F64)
    return torch.cumprod(1.0 - betas, 0)


class Ddpm(unittest.TestCase):
    def test_sigma_of_a_timestep_maps_back_to_it(self):
        ac = diffusers_linear_alphas_cumprod()
        sigma = ddpm_sigmas(ac)
        # The VP sample √ᾱ·x0 + √(1−ᾱ)·ε divided by √ᾱ is x0 + σ_t·ε.
        self.assertAlmostEqual(float(sigma[500]), math.sqrt((1 - float(ac[500])) / float(ac[500])), places=12)
        t = torch.tensor([0, 1, 17, 500, 999])
        self.assertTrue(torch.equal(sigma_to_ddpm_timestep(sigma[t], ac), t))
        # Half-way in log σ between two steps: the interpolated t is half-way too.
        mid = torch.sqrt(sigma[100] * sigma[101])
        self.assertAlmostEqual(float(sigma_to_ddpm_timestep(mid, ac, mode="interpolate")), 100.5, places=9)
        # Nearest, clamped at both ends of the table.
        self.assertEqual(int(sigma_to_ddpm_timestep(torch.tensor(1e-6), ac)), 0)
        self.assertEqual(int(sigma_to_ddpm_timestep(torch.tensor(1e6), ac)), 999)

    def test_a_table_that_is_not_decreasing_is_refused(self):
        with self.assertRaises(ValueError):
            ddpm_sigmas(torch.tensor([0.5, 0.9, 0.1]))


class Times(unittest.TestCase):
    def test_rectified_flow(self):
        # x_t = (1 − t)·x0 + t·ε is x0 + σ·ε scaled by (1 − t) with σ = t/(1 − t).
        t = torch.tensor([0.01, 0.3, 0.5, 0.97], dtype=F64)
        sigma = t / (1 - t)
        self.assertTrue(torch.allclose(sigma_to_flow_t(sigma), t, rtol=0, atol=1e-15))
        self.assertTrue(torch.allclose(flow_t_to_sigma(t), sigma))

    def test_continuous_vp(self):
        t = torch.tensor([1e-5, 0.1, 0.5, 1.0], dtype=F64)
        sigma = torch.sqrt(torch.exp(0.5 * 19.9 * t ** 2 + 0.1 * t) - 1)  # THEORY §5
        self.assertTrue(torch.allclose(sigma_to_vp_t(sigma), t, rtol=1e-10, atol=0))
        self.assertTrue(torch.allclose(vp_t_to_sigma(t), sigma, rtol=1e-12))
        self.assertAlmostEqual(float(vp_t_to_sigma(torch.tensor(1.0))), 152.17, delta=0.01)  # VP σ(1), EDM table 1


class Parameterisations(unittest.TestCase):
    """A model error δ in x0 seen through each parameterisation's own target."""

    def setUp(self):
        gen = torch.Generator().manual_seed(0)
        self.x0 = torch.randn(4, 10, generator=gen, dtype=F64)
        self.eps = torch.randn(4, 10, generator=gen, dtype=F64)
        self.delta = 0.1 * torch.randn(4, 10, generator=gen, dtype=F64)
        self.sigma = torch.tensor([0.05, 0.5, 2.0, 20.0], dtype=F64)

    def check(self, name, param_error):
        x0_mse = self.delta.pow(2).sum(1)
        self.assertTrue(torch.allclose(param_error, x0_mse * x0_to_parameterisation_factor(name, self.sigma)))
        self.assertTrue(torch.allclose(x0_error(param_error, self.sigma, name), x0_mse))

    def test_epsilon(self):
        s = self.sigma.view(-1, 1)
        y = self.x0 + s * self.eps
        eps_hat = (y - (self.x0 + self.delta)) / s
        self.check("epsilon", (eps_hat - self.eps).pow(2).sum(1))

    def test_v_prediction(self):
        s = self.sigma.view(-1, 1)
        alpha, noise = 1 / torch.sqrt(1 + s ** 2), s / torch.sqrt(1 + s ** 2)
        z = alpha * self.x0 + noise * self.eps
        v = alpha * self.eps - noise * self.x0
        v_hat = (alpha * z - (self.x0 + self.delta)) / noise  # x0 = α·z − s·v
        self.check("v", (v_hat - v).pow(2).sum(1))

    def test_flow_velocity(self):
        t = (self.sigma / (1 + self.sigma)).view(-1, 1)
        x_t = (1 - t) * self.x0 + t * self.eps
        v = self.eps - self.x0
        v_hat = (x_t - (self.x0 + self.delta)) / t  # x0 = x_t − t·v
        self.check("flow-velocity", (v_hat - v).pow(2).sum(1))


if __name__ == "__main__":
    unittest.main()
