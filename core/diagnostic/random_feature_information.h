#pragma once
// The random-features information matrices of a dataset (the first model of
// schedule/information.h): a measurement on data, so it lives with the diagnostics.
#include <cstdint>
#include <vector>

#include "schedule/information.h"
#include "util/progress.h"

namespace noisescope {
struct Dataset;
}

namespace noisescope::schedule {

struct RandomFeatureOptions {
  int features = 128;           // F (a constant feature is added: F + 1 parameters per output)
  int embedding = 16;           // Fourier components of the σ embedding
  int samples = 2048;           // Monte Carlo (x, ε) pairs per level
  double sigmaData = 0.0;       // σ_d of the preconditioning; ≤ 0: measureSigmaData(data)
  bool preconditioning = true;  // false: c_in = c_out = 1, c_skip = 0
  uint64_t seed = 1;
  Progress progress;
};

// Throws InputError when the dataset is empty or the options are out of range.
InformationMatrices randomFeatureInformation(const Dataset& data, const std::vector<double>& sigma,
                                             const RandomFeatureOptions& options = {});

}  // namespace noisescope::schedule
