#pragma once
// Inference σ-steps of a built schedule, the one rule both faces use: entropic time on the
// schedule's effective allocation φ = π·w — for entropic schedules that is their allocation ρ
// (rate times gate), so the steps are at equal increments of the profile's entropy.
#include "io/sigma_steps_io.h"
#include "pipeline/schedule_recipe.h"

namespace noisescope::pipeline {

// N ≥ 2 steps, ascending; InputError otherwise.
SigmaSteps sigmaSteps(const BuiltSchedule& built, int steps);

}  // namespace noisescope::pipeline
