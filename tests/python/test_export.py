#!/usr/bin/python3
"""Tests noisescope/export.py and writes the fixture models of the C++ checkpoint test
(tests/core/diagnostic): the Gaussian posterior mean E[x0|y] = y s^2/(s^2+sigma^2) (s = 0.5, D = 8)
written as an x0, an eps and a v predictor, each exported in the x0 convention.

    test_export.py FIXTURE_DIR
"""
import math
import os
import sys
import tempfile
import unittest

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "integrations", "python"))
from noisescope.export import NoiseScopeDenoiser, export_denoiser  # noqa: E402

S2 = 0.25  # s^2 of the Gaussian data


def posterior_mean(y, sigma):
    s = sigma.reshape([y.shape[0]] + [1] * (y.dim() - 1))
    return y * (S2 / (S2 + s * s))


class GaussianX0(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s2 = S2

    def forward(self, x: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
        s = sigma.reshape([x.shape[0]] + [1] * (x.dim() - 1))
        return x * (self.s2 / (self.s2 + s * s))


class GaussianEps(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s2 = S2

    def forward(self, x: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
        s = sigma.reshape([x.shape[0]] + [1] * (x.dim() - 1))
        return x * (s / (self.s2 + s * s))


class GaussianV(torch.nn.Module):
    """Reads the VP input z = y/sqrt(1+sigma^2) and predicts v = (alpha z - x0)/s."""

    def __init__(self):
        super().__init__()
        self.s2 = S2

    def forward(self, z: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
        s = sigma.reshape([z.shape[0]] + [1] * (z.dim() - 1))
        alpha = 1.0 / torch.sqrt(1.0 + s * s)
        x0 = (z / alpha) * (self.s2 / (self.s2 + s * s))
        return (alpha * z - x0) / (s * alpha)


class Untraceable(torch.nn.Module):
    """Not scriptable (a Python-only call), but traceable."""

    def forward(self, x, sigma):
        scale = float(math.prod([1.0, 1.0]))
        return x * scale


MODELS = {"x0": GaussianX0, "eps": GaussianEps, "v": GaussianV}


class ExportTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        generator = torch.Generator().manual_seed(0)
        self.y = torch.randn(6, 8, generator=generator)
        self.sigma = torch.exp(torch.linspace(math.log(0.002), math.log(80.0), 6))

    def tearDown(self):
        self.dir.cleanup()

    def test_every_prediction_becomes_the_posterior_mean(self):
        for kind, model in MODELS.items():
            path = os.path.join(self.dir.name, f"{kind}.pt")
            compiled = export_denoiser(model(), path, prediction=kind, example_input=self.y)
            self.assertNotIsInstance(compiled, torch.jit.TopLevelTracedModule)  # scripted
            loaded = torch.jit.load(path)
            out = loaded(self.y, self.sigma)
            torch.testing.assert_close(out, posterior_mean(self.y, self.sigma), rtol=1e-5, atol=1e-6)

    def test_image_shaped_batches(self):
        images = torch.randn(3, 1, 4, 4)
        sigma = torch.tensor([0.1, 1.0, 10.0])
        path = os.path.join(self.dir.name, "img.pt")
        export_denoiser(GaussianEps(), path, prediction="eps")
        out = torch.jit.load(path)(images, sigma)
        self.assertEqual(out.shape, images.shape)
        torch.testing.assert_close(out, posterior_mean(images, sigma), rtol=1e-5, atol=1e-6)

    def test_unknown_prediction_is_refused(self):
        with self.assertRaises(ValueError):
            NoiseScopeDenoiser(GaussianX0(), "score")

    def test_unscriptable_model_is_traced_with_an_example(self):
        path = os.path.join(self.dir.name, "traced.pt")
        with self.assertRaises(RuntimeError):
            export_denoiser(Untraceable(), path)
        traced = export_denoiser(Untraceable(), path, example_input=self.y)
        self.assertIsInstance(traced, torch.jit.TopLevelTracedModule)
        torch.testing.assert_close(torch.jit.load(path)(self.y, self.sigma), self.y)

    def test_bad_output_is_refused(self):
        class Broken(torch.nn.Module):
            def forward(self, x: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
                return x * float("nan")

        with self.assertRaises(ValueError):
            export_denoiser(Broken(), os.path.join(self.dir.name, "nan.pt"), example_input=self.y)


def write_fixtures(directory):
    os.makedirs(directory, exist_ok=True)
    example = torch.randn(4, 8)
    for kind, model in MODELS.items():
        path = os.path.join(directory, f"gaussian_posterior_{kind}.pt")
        export_denoiser(model(), path, prediction=kind, example_input=example)


if __name__ == "__main__":
    torch.set_num_threads(1)
    if len(sys.argv) > 1:
        write_fixtures(sys.argv.pop(1))
    unittest.main(verbosity=2)
