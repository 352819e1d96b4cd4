"""Export a PyTorch denoiser for NoiseScope's checkpoint diagnostic.

Mirrors the prediction adapters of TorchScriptDenoiser::denoise (core/tensor/torchscript_model.cpp),
which turn an eps or v output into x0 in the same way: keep the two in step.
tests/python/test_export.py (test_python_noisescope_export) and the C++ checkpoint test
(test_checkpoint_diagnostic) hold each to the Gaussian posterior mean, and the C++ test loads the
Python test's exports.

NoiseScope loads TorchScript files whose ``forward(x, sigma)`` takes a batch of noisy samples
``x`` (Tensor[B, ...], variance-exploding: x = x0 + sigma * eps) and ``sigma`` (Tensor[B]) and
returns the x0 estimate with the shape of ``x``. This helper wraps a model that predicts x0, eps
or v in that convention and saves it:

    from noisescope.export import export_denoiser
    export_denoiser(my_model, "denoiser.pt", prediction="eps")
    # then: noisescope-cli diagnose DATA --checkpoint denoiser.pt --prediction x0 ...

What the wrapped model receives (THEORY section 4):
  * prediction="x0":  model(y, sigma) -> x0_hat
  * prediction="eps": model(y, sigma) -> eps_hat;        x0_hat = y - sigma * eps_hat
  * prediction="v":   model(z, sigma) -> v_hat with z = y / sqrt(1 + sigma^2) (VP input);
                      x0_hat = alpha * z - s * v_hat, alpha = 1/sqrt(1 + sigma^2), s = sigma * alpha
Models that need another conditioning (a time t, log sigma, class labels) should be wrapped in a
small torch.nn.Module that takes (x, sigma) first.
"""
from typing import Optional

import torch

PREDICTIONS = ("x0", "eps", "v")


class NoiseScopeDenoiser(torch.nn.Module):
    """forward(x, sigma) -> x0 estimate (VE), around a model predicting x0, eps or v."""

    def __init__(self, model: torch.nn.Module, prediction: str = "x0"):
        super().__init__()
        if prediction not in PREDICTIONS:
            raise ValueError(f"prediction must be one of {PREDICTIONS}, not {prediction!r}")
        self.model = model
        self.prediction = prediction

    def forward(self, x: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
        # sigma as [B, 1, 1, ...] so that it broadcasts over one sample's dimensions.
        s = sigma.to(x.dtype).reshape([x.shape[0]] + [1] * (x.dim() - 1))
        if self.prediction == "v":
            alpha = torch.rsqrt(1.0 + s * s)
            z = x * alpha
            return alpha * z - s * alpha * self.model(z, sigma)
        out = self.model(x, sigma)
        if self.prediction == "eps":
            return x - s * out
        return out


def export_denoiser(model: torch.nn.Module, path: str, prediction: str = "x0",
                    example_input: Optional[torch.Tensor] = None,
                    example_sigma: Optional[torch.Tensor] = None) -> torch.jit.ScriptModule:
    """Wraps ``model`` in the NoiseScope convention and saves it with torch.jit to ``path``.

    The wrapper is compiled with torch.jit.script; when the model cannot be scripted, it is
    traced instead, which needs ``example_input`` (a batch of samples) and optionally
    ``example_sigma`` (Tensor[B], default: ones). With an example, the saved model is run once
    and must return a finite tensor of the input's shape. Returns the saved module.
    """
    wrapper = NoiseScopeDenoiser(model, prediction).eval()
    if example_input is not None and example_sigma is None:
        example_sigma = torch.ones(example_input.shape[0], dtype=example_input.dtype)
    try:
        compiled = torch.jit.script(wrapper)
    except Exception as error:  # scripting fails on many plain-Python models
        if example_input is None:
            raise RuntimeError(
                "the model cannot be compiled with torch.jit.script; pass example_input so that "
                "it can be traced instead") from error
        with torch.no_grad():
            compiled = torch.jit.trace(wrapper, (example_input, example_sigma))
    if example_input is not None:
        with torch.no_grad():
            out = compiled(example_input, example_sigma)
        if not isinstance(out, torch.Tensor) or out.shape != example_input.shape:
            raise ValueError("the wrapped model must return a tensor shaped like its input")
        if not torch.isfinite(out).all():
            raise ValueError("the wrapped model returned NaN or infinity on the example input")
    compiled.save(path)
    return compiled
