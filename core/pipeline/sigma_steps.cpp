#include "pipeline/sigma_steps.h"

#include <algorithm>

namespace noisescope::pipeline {

SigmaSteps sigmaSteps(const SamplingGridResult& grid, const std::string& schedule) {
  SigmaSteps out;
  out.sigma.assign(grid.sigma.begin(), grid.sigma.begin() + grid.steps);
  std::reverse(out.sigma.begin(), out.sigma.end());
  out.schedule = schedule;
  out.grid = grid.canonical;
  out.label = grid.label;
  out.rule = grid.rule;
  out.source = grid.source;
  out.largestRatio = grid.largestRatio;
  out.ratioLimit = grid.ratioLimit;
  out.ratioMargin = grid.spec.margin;
  out.warnings = grid.warnings;
  out.exports = grid.exports;
  return out;
}

SigmaSteps sigmaSteps(const BuiltSchedule& built, int steps, const std::string& grid,
                      const Profile* profile, const std::string& profileSource) {
  GridSources sources;
  sources.schedule = &built.schedule;
  sources.scheduleLabel = built.schedule.info.label;
  sources.profile = profile;
  sources.profileSource = profileSource;
  return sigmaSteps(samplingGrid(grid, steps, sources), built.schedule.info.label);
}

}  // namespace noisescope::pipeline
