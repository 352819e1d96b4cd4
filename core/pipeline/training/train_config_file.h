#pragma once
// A training run's configuration as the file `noisescope-cli train --config` reads. The Training
// tab writes its settings through here, so what it starts is exactly what the CLI would run.
#include <string>

#include "train/train_config.h"

namespace noisescope::pipeline {

// Checks the configuration as `train` will read it (InputError naming the setting) and writes it
// atomically as JSON to `path`.
void writeTrainConfigFile(const std::string& path, const train::TrainConfig& config);

}  // namespace noisescope::pipeline
