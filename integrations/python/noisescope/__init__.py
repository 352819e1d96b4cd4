"""NoiseScope in a user's own PyTorch training: σ samplers, the run directory the workbench
follows, and the conventions of other training code (THEORY §6, §8, §12).

    from noisescope import OnlineSampler, ScheduleSampler

Which modules restate engine code, their C++ counterparts and the tests that hold them equal:
docs/architecture.md, "The Python package's mirrors".
"""

__version__ = "0.1.0"

from .conventions import (ddpm_sigmas, flow_t_to_sigma, sigma_to_ddpm_timestep, sigma_to_flow_t,  # noqa: E402
                          sigma_to_vp_t, vp_t_to_sigma)
from .export import NoiseScopeDenoiser, export_denoiser  # noqa: E402
from .loss_weights import weight_for_parameterisation, x0_error, x0_to_parameterisation_factor  # noqa: E402
from .online import OnlineSampler, measure_sigma_data  # noqa: E402
from .schedule_sampler import ScheduleError, ScheduleSampler  # noqa: E402

__all__ = [
    "OnlineSampler", "ScheduleSampler", "ScheduleError", "measure_sigma_data",
    "NoiseScopeDenoiser", "export_denoiser",
    "ddpm_sigmas", "sigma_to_ddpm_timestep", "sigma_to_flow_t", "flow_t_to_sigma",
    "sigma_to_vp_t", "vp_t_to_sigma",
    "x0_to_parameterisation_factor", "weight_for_parameterisation", "x0_error",
]
