"""Old import path of the static σ sampler; it now lives in the `noisescope` package."""
from noisescope.schedule_sampler import FORMAT, ScheduleError, ScheduleSampler  # noqa: F401
__all__ = ["FORMAT", "ScheduleError", "ScheduleSampler"]
