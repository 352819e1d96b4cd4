// The grids the sample race runs by default (pipeline/sample_race.h).
#include <algorithm>

#include "pipeline/sample_race.h"
#include "train/evaluation.h"
#include "util/log_grid.h"

namespace noisescope::pipeline {

std::vector<RaceGrid> defaultRaceGrids(const RaceGridContext& c) {
  std::vector<RaceGrid> grids;
  grids.push_back({"karras?rho=7", "EDM's σ steps, ρ = 7", [c](int64_t n) {
                     auto s = train::edmSamplingSigmas(n, c.sigmaMin, c.sigmaMax, 7.0);
                     s.pop_back();
                     return s;
                   }});
  grids.push_back({"log-sigma", "log σ uniform from σ_max to σ_min", [c](int64_t n) {
                     auto s = logSpacedGrid(c.sigmaMin, c.sigmaMax, int(n));
                     std::reverse(s.begin(), s.end());
                     return s;
                   }});
  return grids;
}

}  // namespace noisescope::pipeline
