#pragma once
// The InfoNoise paper's Figure 4 picture, for the Training tab: beside a run's online π, the π
// its rule gives from a frozen checkpoint's profile. The same recipe home as the Schedules tab
// (pipeline::buildSchedule) with the run's own settings — law, gate c and n, loss weight and
// σ_data, σ range and bins — so the two curves differ only in where the error curve came from.
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

// `config` is the run's resolved config.json (gate_c a number). A static run is compared with
// InfoNoise, the rule the race tests against it. Throws InputError on settings buildSchedule
// refuses.
OfflineReference offlineReference(const train::TrainConfig& config, const Profile& profile,
                                  const QString& profileName);

}  // namespace noisescope::ui
