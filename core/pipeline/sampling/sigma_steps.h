#pragma once
// Inference σ-steps of a built schedule, the one rule both faces (and the report) use: a sampling
// grid (pipeline/sampling/sampling_grids.h), Karras ρ = 7 unless the user picks another, checked
// against the step-ratio limit and written with its rule, its warnings and its exports. The
// schedule is the source of the grids that need one: "quantiles" takes its π (or φ = π·w),
// "entropic" the profile it was built from. Equal quantiles of a training allocation are one grid
// family among others, not the default: spent on a sampler they leave a single step across most of
// the σ range.
#include <string>

#include "io/sigma_steps_io.h"
#include "pipeline/defaults.h"
#include "pipeline/sampling/sampling_grids.h"
#include "pipeline/schedules/schedule_recipe.h"

namespace noisescope::pipeline {

// The file's content for a computed grid; `schedule` labels the schedule it goes with.
SigmaSteps sigmaSteps(const SamplingGridResult& grid, const std::string& schedule = {});

// N ≥ 2 levels of `grid` (InputError otherwise), with `built` (and `profile`, the profile an
// entropic schedule came from, when the face holds it) as the grid's sources.
SigmaSteps sigmaSteps(const BuiltSchedule& built, int steps,
                      const std::string& grid = defaults::kSamplingGrid,
                      const Profile* profile = nullptr, const std::string& profileSource = {});

}  // namespace noisescope::pipeline
