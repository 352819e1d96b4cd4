#include "pipeline/training/train_config_file.h"

#include <nlohmann/json.hpp>

#include "util/atomic_file.h"

namespace noisescope::pipeline {

void writeTrainConfigFile(const std::string& path, const train::TrainConfig& config) {
  const nlohmann::json json = train::toJson(config);
  // Parse it back as the CLI will, so a bad setting is reported now, naming the setting.
  train::parseTrainConfig(json, "training settings");
  writeFileAtomically(path, json.dump(2) + "\n");
}

}  // namespace noisescope::pipeline
