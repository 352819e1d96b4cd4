#pragma once
// The offline reference of a training run (the InfoNoise paper's Figure 4): the π the run's own
// rule gives from a frozen checkpoint's profile, built with the run's settings (law, gate c and n,
// loss weight, σ_data, σ range and bins), so that beside the run's online π the two curves differ
// only in where the error curve came from. The Training tab draws it; the same schedule is
// `noisescope-cli schedule --profile P` with those settings (test_gui_cli_offline_reference).
#include <string>

#include "pipeline/schedules/schedule_recipe.h"

namespace noisescope {
struct Profile;
}
namespace noisescope::train {
struct TrainConfig;
}

namespace noisescope::pipeline {

// Whether the run adapts by √-entropy (else InfoNoise; a static run is compared with InfoNoise,
// the rule the race tests against it).
bool followsSqrtEntropy(const train::TrainConfig& config);

// The reference schedule: `config` is the run's resolved config.json; `profileSource` is recorded
// as the schedule's profile. Throws InputError on settings buildSchedule refuses.
BuiltSchedule offlineReferenceSchedule(const train::TrainConfig& config, const Profile& profile,
                                       const std::string& profileSource);

}  // namespace noisescope::pipeline
