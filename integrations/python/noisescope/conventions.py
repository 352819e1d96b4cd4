"""σ in the time variables of other training code (THEORY §1, §5, §12).

Not a mirror: translations for users' loops, checked against each convention's definition by
tests/python/test_conventions.py. Only sigma_to_vp_t restates engine code (fromLogSigma for the VP
time, core/schedule/coordinates.cpp).

Every sampler here draws σ of the variance-exploding channel x_σ = x0 + σ·ε. A path that scales
the signal, z = α·x0 + s·ε, is the same channel at σ = s/α, so a drawn σ only needs translating:
  * DDPM/DDIM (diffusers): σ_t = √((1 − ᾱ_t)/ᾱ_t) from `alphas_cumprod`; σ → the nearest t, or a
    fractional t interpolated in log σ;
  * rectified flow x_t = (1 − t)·x0 + t·ε (SD3, Flux): t = σ/(1 + σ), σ = t/(1 − t);
  * continuous VP: σ(t) = √(exp(½β_d t² + β_min t) − 1), β_d and β_min of the "vp" preset.
Loss weights convert with loss_weights.x0_to_parameterisation_factor.
"""

import torch

from . import defaults

# β_d and β_min of the engine's "vp" preset (defaults.json).
VP_BETA_D = defaults.PRESETS["vp"][1]["beta_d"]
VP_BETA_MIN = defaults.PRESETS["vp"][1]["beta_min"]


def ddpm_sigmas(alphas_cumprod):
    """σ_t = √((1 − ᾱ_t)/ᾱ_t) for every discrete timestep t (float64, increasing in t)."""
    a = torch.as_tensor(alphas_cumprod, dtype=torch.float64)
    if a.dim() != 1 or a.numel() < 2:
        raise ValueError("alphas_cumprod must be a 1-D table of at least 2 values")
    sigma = torch.sqrt((1.0 - a) / a)
    # Checked where it costs no device synchronisation (diffusers keeps the table on the CPU).
    if a.device.type == "cpu" and not (bool(((a > 0) & (a < 1)).all()) and bool((sigma[1:] > sigma[:-1]).all())):
        raise ValueError("alphas_cumprod must hold values in (0, 1) that decrease with t")
    return sigma


def sigma_to_ddpm_timestep(sigma, alphas_cumprod, mode="nearest"):
    """The DDPM timestep for each σ: "nearest" (long tensor; nearest in log σ) or "interpolate"
    (float tensor, linear in log σ between neighbouring timesteps; clamped to [0, T−1])."""
    table = torch.log(ddpm_sigmas(alphas_cumprod)).to(torch.as_tensor(sigma).device)
    ell = torch.log(torch.as_tensor(sigma, dtype=torch.float64, device=table.device))
    T = table.numel()
    upper = torch.searchsorted(table, ell).clamp(1, T - 1)
    lo, hi = table[upper - 1], table[upper]
    fraction = ((ell - lo) / (hi - lo)).clamp(0.0, 1.0)
    if mode == "interpolate":
        return (upper - 1).to(torch.float64) + fraction
    if mode != "nearest":
        raise ValueError(f"mode must be 'nearest' or 'interpolate', not {mode!r}")
    return torch.where(fraction < 0.5, upper - 1, upper)


def sigma_to_flow_t(sigma):
    """Rectified-flow time t = σ/(1 + σ)."""
    s = torch.as_tensor(sigma)
    return s / (1.0 + s)


def flow_t_to_sigma(t):
    t = torch.as_tensor(t)
    return t / (1.0 - t)


def sigma_to_vp_t(sigma, beta_d=VP_BETA_D, beta_min=VP_BETA_MIN):
    """Continuous VP time: the t ≥ 0 with ½β_d t² + β_min t = log(1 + σ²), in the
    cancellation-free form 2q / (β_min + √(β_min² + 2β_d q)) (as core/schedule/coordinates.cpp)."""
    q = torch.log1p(torch.as_tensor(sigma, dtype=torch.float64) ** 2)
    return 2.0 * q / (beta_min + torch.sqrt(beta_min * beta_min + 2.0 * beta_d * q))


def vp_t_to_sigma(t, beta_d=VP_BETA_D, beta_min=VP_BETA_MIN):
    t = torch.as_tensor(t, dtype=torch.float64)
    return torch.sqrt(torch.expm1(0.5 * beta_d * t * t + beta_min * t))


def vp_scale(sigma):
    """α = 1/√(1 + σ²): the VP input z = α·x_σ, and s = σ·α its noise level."""
    return torch.rsqrt(1.0 + torch.as_tensor(sigma) ** 2)
