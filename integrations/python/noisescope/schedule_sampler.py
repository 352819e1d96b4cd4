"""Draw noise levels σ for a PyTorch training loop from a NoiseScope schedule file.

Mirrors Schedule::quantileSigma, cdfLogSigma and densityLogSigma (core/schedule/schedule.cpp) on
the file scheduleToJson (core/io/schedule_io.cpp) writes, and LossWeight::at through
loss_weights.py: keep them in step; tests/python/test_schedule_sampler.py
(test_python_schedule_sampler) holds the draws to the file's CDF and the weights to its C++ values.

A ``noisescope.schedule/1`` JSON file holds either a binned density over ℓ = log σ (piecewise
constant per bin, with its CDF at the bin edges) or a finite set of atoms. This module reads it,
draws σ by inverse CDF from a seeded ``torch.Generator`` (linear interpolation inside a bin, exactly
as the C++ sampler does) and evaluates the loss weight w(σ) the schedule was made for, so that
training minimises  w(σ)·‖D(x0 + σ·ε; σ) − x0‖².

    from noisescope import ScheduleSampler
    sampler = ScheduleSampler("schedule.json", device="cuda")
    gen = torch.Generator(device="cpu").manual_seed(0)
    sigma, weight = sampler.sample_with_weights(batch_size, generator=gen)

Only the standard library and torch are needed.
"""

import json
import math

import torch

from . import defaults
from .loss_weights import KINDS as _WEIGHT_KINDS
from .loss_weights import weight_at

FORMAT = "noisescope.schedule/1"


class ScheduleError(ValueError):
    """A schedule file that cannot be used; the message names the file and the problem."""


def _numbers(doc, key, source):
    if key not in doc:
        raise ScheduleError(f"{source}: missing field '{key}'")
    values = doc[key]
    if not isinstance(values, list) or not all(isinstance(v, (int, float)) for v in values):
        raise ScheduleError(f"{source}: field '{key}' must be a list of numbers")
    if not all(math.isfinite(v) for v in values):
        raise ScheduleError(f"{source}: field '{key}' holds a non-finite number")
    return [float(v) for v in values]


class ScheduleSampler:
    """Inverse-CDF sampler of σ and the schedule's loss weight, from a schedule file or dict."""

    def __init__(self, schedule, device="cpu", dtype=torch.float32):
        if isinstance(schedule, dict):
            doc, source = schedule, "schedule"
        else:
            source = str(schedule)
            try:
                with open(source, "r", encoding="utf-8") as handle:
                    doc = json.load(handle)
            except OSError as error:
                raise ScheduleError(f"{source}: cannot open ({error})") from error
            except json.JSONDecodeError as error:
                raise ScheduleError(f"{source}: not valid JSON ({error})") from error
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ScheduleError(f"{source}: not a {FORMAT} file")
        self.source = source
        self.device = torch.device(device)
        self.dtype = dtype
        self.kind = doc.get("kind", "file")
        weight = doc.get("loss_weight", {"kind": "uniform"})
        self.weight_kind = weight.get("kind", "uniform")
        if self.weight_kind not in _WEIGHT_KINDS:
            raise ScheduleError(f"{source}: unknown loss weight '{self.weight_kind}'")
        # Files that leave a parameter out get the engine's fallback.
        self.sigma_data = float(weight.get("sigma_data", defaults.SIGMA_DATA))
        self.gamma = float(weight.get("gamma", defaults.MIN_SNR_GAMMA))
        self.atomic = "atoms" in doc
        f64 = dict(dtype=torch.float64, device=self.device)
        if self.atomic:
            atoms = doc["atoms"]
            if not isinstance(atoms, list) or not atoms:
                raise ScheduleError(f"{source}: 'atoms' must be a non-empty list")
            sig = [float(a["sigma"]) for a in atoms]
            wts = [float(a["weight"]) for a in atoms]
            if min(sig) <= 0 or min(wts) < 0 or sum(wts) <= 0:
                raise ScheduleError(f"{source}: atoms need σ > 0 and weights ≥ 0 with a positive sum")
            self.atom_sigma = torch.tensor(sig, **f64)
            self.atom_weight = torch.tensor(wts, **f64) / sum(wts)
            self.atom_cdf = torch.cumsum(self.atom_weight, 0)
            self.atom_cdf[-1] = 1.0
        else:
            edges = _numbers(doc, "log_sigma_edges", source)
            masses = _numbers(doc, "bin_masses", source)
            if len(edges) != len(masses) + 1 or len(masses) < 1:
                raise ScheduleError(f"{source}: need one bin mass per pair of edges")
            if any(b <= a for a, b in zip(edges, edges[1:])):
                raise ScheduleError(f"{source}: log_sigma_edges must be strictly increasing")
            if min(masses) < 0 or sum(masses) <= 0:
                raise ScheduleError(f"{source}: bin masses must be ≥ 0 with a positive sum")
            self.edges = torch.tensor(edges, **f64)
            self.masses = torch.tensor(masses, **f64) / sum(masses)
            self.widths = self.edges[1:] - self.edges[:-1]
            self.cdf_edges = torch.cat([torch.zeros(1, **f64), torch.cumsum(self.masses, 0)])
            self.cdf_edges[-1] = 1.0

    # -- densities -------------------------------------------------------------------------------
    def density_log_sigma(self, sigma):
        """π per unit log σ at σ (binned schedules; zero outside the grid)."""
        if self.atomic:
            raise ScheduleError(f"{self.source}: an atomic schedule has no density")
        ell = torch.log(torch.as_tensor(sigma, dtype=torch.float64, device=self.device))
        index = torch.searchsorted(self.edges, ell, right=True) - 1
        index = index.clamp(0, self.masses.numel() - 1)
        inside = (ell >= self.edges[0]) & (ell <= self.edges[-1])
        return torch.where(inside, self.masses[index] / self.widths[index], torch.zeros_like(ell))

    def cdf(self, sigma):
        """P(σ' ≤ σ), exact (piecewise linear in log σ, or a step function for atoms)."""
        s = torch.as_tensor(sigma, dtype=torch.float64, device=self.device)
        if self.atomic:
            counts = torch.searchsorted(self.atom_sigma, s, right=True)
            padded = torch.cat([torch.zeros(1, dtype=torch.float64, device=self.device), self.atom_cdf])
            return padded[counts]
        ell = torch.log(s).clamp(self.edges[0], self.edges[-1])
        index = (torch.searchsorted(self.edges, ell, right=True) - 1).clamp(0, self.masses.numel() - 1)
        fraction = (ell - self.edges[index]) / self.widths[index]
        return self.cdf_edges[index] + fraction * self.masses[index]

    # -- sampling --------------------------------------------------------------------------------
    def sigma_from_uniform(self, u):
        """σ = F⁻¹(u) for u in [0, 1] (float64 tensor on this sampler's device)."""
        u = torch.as_tensor(u, dtype=torch.float64, device=self.device).clamp(0.0, 1.0)
        if self.atomic:
            index = torch.searchsorted(self.atom_cdf, u, right=False).clamp(max=self.atom_sigma.numel() - 1)
            return self.atom_sigma[index]
        # The first edge whose CDF exceeds u closes a bin with positive mass.
        index = (torch.searchsorted(self.cdf_edges, u, right=True) - 1).clamp(0, self.masses.numel() - 1)
        mass = self.masses[index]
        fraction = torch.where(mass > 0, (u - self.cdf_edges[index]) / torch.where(mass > 0, mass, torch.ones_like(mass)),
                               torch.zeros_like(u)).clamp(0.0, 1.0)
        return torch.exp(self.edges[index] + fraction * self.widths[index])

    def sample(self, n, generator=None):
        """n values of σ (dtype and device of the sampler), drawn with the given torch.Generator."""
        u = torch.rand(n, generator=generator, dtype=torch.float64)
        return self.sigma_from_uniform(u.to(self.device)).to(self.dtype)

    # -- loss weight -----------------------------------------------------------------------------
    def loss_weight(self, sigma):
        """w(σ) in x0 space, the schedule's own weight (THEORY §5)."""
        s = torch.as_tensor(sigma, dtype=torch.float64, device=self.device)
        density = None
        if self.weight_kind == "elbo":  # π·w ∝ 1/σ² per d log σ
            if self.atomic:
                index = torch.searchsorted(self.atom_sigma, s).clamp(max=self.atom_sigma.numel() - 1)
                density = self.atom_weight[index]
            else:
                density = self.density_log_sigma(s)
        return weight_at(self.weight_kind, s, self.sigma_data, self.gamma, density).to(self.dtype)

    def sample_with_weights(self, n, generator=None):
        sigma = self.sample(n, generator=generator)
        return sigma, self.loss_weight(sigma)

    def sample_density(self, shape, device=None, generator=None):
        """k-diffusion's `sample_density(shape, device=...)`: σ of that shape."""
        n = 1
        for d in (shape if isinstance(shape, (list, tuple, torch.Size)) else [shape]):
            n *= int(d)
        sigma = self.sample(n, generator=generator).reshape(shape)
        return sigma if device is None else sigma.to(device)
