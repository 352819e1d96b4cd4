#include "pipeline/sampling/sigma_steps.h"

#include <algorithm>

namespace noisescope::pipeline {

SigmaSteps sigmaSteps(const SamplingGridResult& grid, const std::string& schedule) {
  // The grid runs descending and ends in 0; the file holds its N levels ascending.
  std::vector<double> ascending(grid.sigma.begin(), grid.sigma.begin() + grid.steps);
  std::reverse(ascending.begin(), ascending.end());
  // SigmaSteps' fields in their order; the grid's own names where they agree.
  return SigmaSteps{std::move(ascending),
                    schedule,
                    /*curve=*/"",  // /1 files only
                    /*grid=*/grid.canonical,
                    grid.label,
                    grid.rule,
                    grid.source,
                    grid.largestRatio,
                    grid.ratioLimit,
                    /*ratioMargin=*/grid.spec.margin,
                    grid.warnings,
                    grid.exports,
                    grid.notes,
                    /*samplingRate=*/grid.rate ? samplingRateJson(*grid.rate) : nlohmann::json()};
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
