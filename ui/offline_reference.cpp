#include "ui/offline_reference.h"

#include <QObject>

#include "pipeline/training/offline_reference.h"
#include "profile/profile.h"
#include "train/train_config.h"

namespace noisescope::ui {

OfflineReference offlineReference(const train::TrainConfig& config, const Profile& profile,
                                  const QString& profileName) {
  const pipeline::BuiltSchedule built =
      pipeline::offlineReferenceSchedule(config, profile, profileName.toStdString());
  const schedule::Schedule& s = built.schedule;
  const bool sqrt = pipeline::followsSqrtEntropy(config);
  OfflineReference out;
  out.label = QObject::tr("offline reference: %1 π from checkpoint profile %2")
                  .arg(sqrt ? QObject::tr("√-entropy") : QObject::tr("InfoNoise"), profileName);
  out.description =
      QObject::tr("%1 profile: %2. Built with this run's gate c = %3, n = %4 and loss weight %5.")
          .arg(QString::fromStdString(profile.kind),
               QString::fromStdString(profileKindMeaning(profile.kind)))
          .arg(built.parameters.value("gate_c", 0.0))
          .arg(built.parameters.value("gate_n", 0.0))
          .arg(QString::fromStdString(s.lossWeight.label()));
  const schedule::LogSigmaGrid& grid = s.grid();
  out.sigma = grid.sigmaCenters();
  out.density = grid.densities(s.binMasses());
  return out;
}

}  // namespace noisescope::ui
