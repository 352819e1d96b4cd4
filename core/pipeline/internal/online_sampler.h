#pragma once
// The online noise sampler of a training run, built from a config's `noise` section exactly as
// `noisescope-cli train` builds it: the section checked by the config parser, gate "auto"
// resolved by the table's rule (defaults.h), the base schedule on its exact bins. The Python
// package's OnlineSampler restates this sampler; its golden test reaches the C++ one here.
#include <string>

#include <nlohmann/json.hpp>

#include "pipeline/defaults.h"
#include "train/noise_sampler.h"

namespace noisescope::pipeline {

struct OnlineSamplerRequest {
  nlohmann::json noise = nlohmann::json::object();  // the `noise` section of a train config
  double sigmaData = defaults::kSigmaDataFallback;  // σ_d of the EDM weight (optim.sigma_data)
  bool discreteData = false;                        // picks gate "auto"'s c
  std::string source = "noise settings";            // names the input in errors
};

// InputError naming `source` and the key for a bad section.
train::NoiseSampler onlineSampler(const OnlineSamplerRequest& request);

}  // namespace noisescope::pipeline
