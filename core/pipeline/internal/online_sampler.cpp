#include "pipeline/internal/online_sampler.h"

#include "train/train_config.h"
#include "train/trainer.h"
#include "util/error.h"

namespace noisescope::pipeline {

train::NoiseSampler onlineSampler(const OnlineSamplerRequest& request) {
  if (!(request.sigmaData > 0)) throw InputError(request.source, "sigma_data must be > 0");
  train::TrainConfig config;
  config.source = request.source;
  config.noise = train::parseNoiseSettings(request.noise, request.source);
  config.optim.sigmaData = request.sigmaData;
  return train::resolveNoiseSampler(config, request.discreteData, request.sigmaData);
}

}  // namespace noisescope::pipeline
