#pragma once
// The InfoNoise paper's Figure 4 picture, for the Training tab: the offline reference schedule of
// a run (pipeline/training/offline_reference.h) drawn beside its online π, with a legend that says
// what the profile is and which of the run's settings built it.
#include <QString>

#include <vector>

namespace noisescope {
struct Profile;
}
namespace noisescope::train {
struct TrainConfig;
}

namespace noisescope::ui {

struct OfflineReference {
  QString label;                // "offline reference: InfoNoise π from checkpoint profile NAME"
  QString description;          // what the profile is, for the legend's tooltip
  std::vector<double> sigma;    // the run's bin centres
  std::vector<double> density;  // π per unit log σ, as the run's schedule chart shows it
};

// pipeline::offlineReferenceSchedule drawn for the Training tab's chart.
OfflineReference offlineReference(const train::TrainConfig& config, const Profile& profile,
                                  const QString& profileName);

}  // namespace noisescope::ui
