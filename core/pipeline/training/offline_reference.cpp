#include "pipeline/training/offline_reference.h"

#include "pipeline/defaults.h"
#include "profile/profile.h"
#include "train/train_config.h"

namespace noisescope::pipeline {

bool followsSqrtEntropy(const train::TrainConfig& config) {
  return train::samplerKindFromString(config.noise.sampler, config.source) ==
         train::SamplerKind::SqrtEntropy;
}

BuiltSchedule offlineReferenceSchedule(const train::TrainConfig& config, const Profile& profile,
                                       const std::string& profileSource) {
  const auto& n = config.noise;
  // The online samplers take √-entropy in log σ (train/noise_sampler.cpp).
  ScheduleRecipe recipe = followsSqrtEntropy(config)
                              ? sqrtEntropyRecipe(schedule::Coordinate::LogSigma)
                              : infoNoiseRecipe();
  // An unresolved "auto" gate falls back to the one for continuous data, as the trainer's would.
  recipe.gateC = n.gateC.value_or(defaults::autoGateC(false));
  recipe.gateN = n.gateN;
  recipe.weight.kind = schedule::lossWeightKindFromString(n.lossWeight, "noise.loss_weight");
  recipe.weight.gamma = n.minSnrGamma;
  if (config.optim.sigmaData > 0) recipe.sigmaData = config.optim.sigmaData;
  RecipeContext context;
  context.profile = &profile;
  context.profileSource = profileSource;
  const auto grid = schedule::LogSigmaGrid::uniform(n.sigmaMin, n.sigmaMax, int(n.bins));
  return buildSchedule(recipe, grid, context);
}

}  // namespace noisescope::pipeline
