"""Loss weights w(σ) in x0 space and their conversion to other parameterisations (THEORY §5, §12).

Mirrors core/schedule/loss_weight.cpp (LossWeight::at, integralOverLogSigma; label and the names
of lossWeightKindFromString too): keep the two in step; tests/python/test_golden.py
(test_python_golden) holds w and its integral equal. The parameterisation factors are THEORY
§12's, checked against each parameterisation's definition by tests/python/test_conventions.py.

A loss weight multiplies the x0-space error ‖D(x_σ; σ) − x0‖². Every schedule and sampler of this
package speaks x0 space, as the C++ side does (core/schedule/loss_weight.cpp); a loop that trains
an ε-, v- or flow-velocity network converts with the factors below so that π·w_x0 stays the
intended allocation.
"""

import math

import torch

from . import defaults

# The names the C++ side reads and writes ("eps", "x0", "flow" are accepted as aliases there too).
KINDS = ("edm", "uniform", "epsilon", "v", "min-snr", "flow-v", "elbo")
_ALIASES = {"eps": "epsilon", "x0": "uniform", "min-snr-gamma": "min-snr", "flow": "flow-v"}
# What a per-sample MSE of each parameterisation is in x0 space: param-MSE = x0-MSE · factor(σ).
PARAMETERISATIONS = ("x0", "epsilon", "v", "flow-velocity")
_PARAM_ALIASES = {"eps": "epsilon", "flow-v": "flow-velocity", "flow": "flow-velocity"}


def weight_kind(name, source="loss_weight"):
    """The canonical name of a loss weight; ValueError naming `source` for an unknown one."""
    kind = _ALIASES.get(name, name)
    if kind not in KINDS:
        raise ValueError(f"{source}: unknown loss weight {name!r} (expected one of {', '.join(KINDS)})")
    return kind


def parameterisation(name, source="parameterisation"):
    kind = _PARAM_ALIASES.get(name, name)
    if kind not in PARAMETERISATIONS:
        raise ValueError(f"{source}: unknown parameterisation {name!r} "
                         f"(expected one of {', '.join(PARAMETERISATIONS)})")
    return kind


def weight_label(kind, sigma_data=defaults.SIGMA_DATA, gamma=defaults.MIN_SNR_GAMMA):
    """Display text with parameters, as LossWeight::label() writes it."""
    return {"edm": f"EDM (σ_d = {sigma_data:g})", "uniform": "uniform x0", "epsilon": "ε-MSE (1/σ²)",
            "v": "v-MSE (1 + 1/σ²)", "min-snr": f"min-SNR-γ (γ = {gamma:g})",
            "flow-v": "flow velocity ((1 + 1/σ)²)", "elbo": "ELBO (π·w ∝ 1/σ²)"}[kind]


def weight_at(kind, sigma, sigma_data=defaults.SIGMA_DATA, gamma=defaults.MIN_SNR_GAMMA,
              density_log_sigma=None):
    """w(σ) for a tensor σ (any dtype and device). ELBO needs π's density per unit log σ."""
    s = torch.as_tensor(sigma)
    s2 = s * s
    if kind == "edm":
        return (s2 + sigma_data ** 2) / (s2 * sigma_data ** 2)
    if kind == "uniform":
        return torch.ones_like(s)
    if kind == "epsilon":
        return 1.0 / s2
    if kind == "v":
        return 1.0 + 1.0 / s2
    if kind == "min-snr":
        return torch.clamp(1.0 / s2, max=gamma)
    if kind == "flow-v":
        return (1.0 + 1.0 / s) ** 2
    if kind == "elbo":
        if density_log_sigma is None:
            raise ValueError("the ELBO weight depends on π: pass its density per unit log σ")
        return 1.0 / (s2 * density_log_sigma)
    raise ValueError(f"unknown loss weight {kind!r}")


def _exp_integral(k, a, b):
    """∫_a^b e^{−kℓ} dℓ."""
    return (math.exp(-k * a) - math.exp(-k * b)) / k


def integral_over_log_sigma(kind, a, b, sigma_data=defaults.SIGMA_DATA,
                            gamma=defaults.MIN_SNR_GAMMA):
    """∫ w dℓ over [a, b] in closed form, in the same operation order as the C++ side."""
    width = b - a
    if kind == "edm":
        return width / (sigma_data * sigma_data) + _exp_integral(2.0, a, b)
    if kind == "uniform":
        return width
    if kind in ("epsilon", "elbo"):
        return _exp_integral(2.0, a, b)
    if kind == "v":
        return width + _exp_integral(2.0, a, b)
    if kind == "min-snr":
        split = min(max(-0.5 * math.log(gamma), a), b)
        return gamma * (split - a) + _exp_integral(2.0, split, b)
    if kind == "flow-v":
        return width + 2.0 * _exp_integral(1.0, a, b) + _exp_integral(2.0, a, b)
    raise ValueError(f"unknown loss weight {kind!r}")


def x0_to_parameterisation_factor(name, sigma):
    """factor(σ) with param-MSE = x0-MSE · factor (THEORY §12): ε 1/σ², v (VP) 1 + 1/σ², flow
    velocity (1 + 1/σ)², x0 1."""
    kind = parameterisation(name)
    s = torch.as_tensor(sigma)
    if kind == "x0":
        return torch.ones_like(s)
    if kind == "epsilon":
        return 1.0 / (s * s)
    if kind == "v":
        return 1.0 + 1.0 / (s * s)
    return (1.0 + 1.0 / s) ** 2


def weight_for_parameterisation(x0_weight, sigma, name):
    """The factor to put in front of a param-MSE so that the loss is x0_weight · x0-MSE."""
    return x0_weight / x0_to_parameterisation_factor(name, sigma)


def x0_error(param_error, sigma, name):
    """The x0-space error from a per-sample error measured in another parameterisation."""
    return param_error / x0_to_parameterisation_factor(name, sigma)
