#include "pipeline/sigma_steps.h"

#include "schedule/allocation.h"
#include "schedule/entropic.h"
#include "util/error.h"

namespace noisescope::pipeline {

SigmaSteps sigmaSteps(const BuiltSchedule& built, int steps) {
  if (steps < 2)
    throw InputError("--steps", "needs at least 2 steps, not " + std::to_string(steps));
  SigmaSteps out;
  out.schedule = built.schedule.info.label;
  out.curve = built.allocation ? "rho" : "phi";
  const schedule::Schedule phi =
      built.allocation ? *built.allocation : schedule::effectiveAllocation(built.schedule);
  out.sigma = schedule::entropicTimeGrid(phi, steps);
  return out;
}

}  // namespace noisescope::pipeline
