#include "ui/offline_reference.h"

#include <QObject>

#include "pipeline/defaults.h"
#include "pipeline/schedule_recipe.h"
#include "profile/profile.h"
#include "train/train_config.h"

namespace noisescope::ui {

OfflineReference offlineReference(const train::TrainConfig& config, const Profile& profile,
                                  const QString& profileName) {
  const auto& n = config.noise;
  const bool sqrt = n.sampler == "sqrt-entropy";
  // The online samplers take √-entropy in log σ (train/noise_sampler.cpp).
  pipeline::ScheduleRecipe recipe =
      sqrt ? pipeline::sqrtEntropyRecipe(schedule::Coordinate::LogSigma)
           : pipeline::infoNoiseRecipe();
  recipe.gateC = n.gateC.value_or(pipeline::defaults::kGateC);
  recipe.gateN = n.gateN;
  recipe.weight.kind = schedule::lossWeightKindFromString(n.lossWeight, "noise.loss_weight");
  recipe.weight.gamma = n.minSnrGamma;
  if (config.optim.sigmaData > 0) recipe.sigmaData = config.optim.sigmaData;
  pipeline::RecipeContext context;
  context.profile = &profile;
  context.profileSource = profileName.toStdString();
  const auto grid = schedule::LogSigmaGrid::uniform(n.sigmaMin, n.sigmaMax, int(n.bins));
  const pipeline::BuiltSchedule built = pipeline::buildSchedule(recipe, grid, context);

  OfflineReference out;
  out.label = QObject::tr("offline reference: %1 π from checkpoint profile %2")
                  .arg(sqrt ? QObject::tr("√-entropy") : QObject::tr("InfoNoise"), profileName);
  out.description =
      QObject::tr("%1 profile: %2. Built with this run's gate c = %3, n = %4 and loss weight %5.")
          .arg(QString::fromStdString(profile.kind),
               QString::fromStdString(profileKindMeaning(profile.kind)))
          .arg(recipe.gateC)
          .arg(recipe.gateN)
          .arg(QString::fromStdString(built.schedule.lossWeight.label()));
  out.sigma = grid.sigmaCenters();
  const auto& masses = built.schedule.binMasses();
  for (int b = 0; b < grid.bins(); ++b) out.density.push_back(masses[b] / grid.width(b));
  return out;
}

}  // namespace noisescope::ui
