"""Old import path of the TorchScript export helper; it now lives in the `noisescope` package."""
from noisescope.export import PREDICTIONS, NoiseScopeDenoiser, export_denoiser  # noqa: F401
__all__ = ["PREDICTIONS", "NoiseScopeDenoiser", "export_denoiser"]
