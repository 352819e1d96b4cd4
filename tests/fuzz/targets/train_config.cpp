// A training run's config.json. An accepted config must give the same settings again after
// toJson (the run directory stores the resolved form and reads it back on resume).
#include <nlohmann/json.hpp>

#include <string>

#include "targets.h"
#include "train/train_config.h"

namespace noisescope::fuzz {

Outcome trainConfig(const uint8_t* data, size_t size) {
  const std::string path = writeScratchFile("config.json", data, size);
  train::TrainConfig config;
  const Outcome outcome = acceptOrReject([&] { config = train::readTrainConfig(path); });
  if (outcome == Outcome::Accepted) {
    const nlohmann::json written = train::toJson(config);
    try {
      const train::TrainConfig again = train::parseTrainConfig(written, "written config");
      if (train::toJson(again) != written)
        fail("an accepted config changes when written and read again: " + written.dump());
    } catch (const InputError& e) {
      fail(std::string("an accepted config does not read back once written: ") + e.what());
    }
  }
  return outcome;
}

}  // namespace noisescope::fuzz
