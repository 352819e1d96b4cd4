// Another trainer's settings file (fit --current): [format byte][file]. The format byte picks
// the extension the file is saved under (.json, .yaml, .toml or a command line in .txt), so the
// real reader, its format detection included, sees the bytes. An accepted file must set at least
// one key, and no key may be empty.
#include <string>

#include "io/trainer_config_file.h"
#include "targets.h"

namespace noisescope::fuzz {

Outcome trainerSettings(const uint8_t* data, size_t size) {
  if (size < 1) return Outcome::Rejected;
  static const char* names[] = {"settings.json", "settings.yaml", "settings.toml", "settings.txt"};
  const std::string path = writeScratchFile(names[data[0] % 4], data + 1, size - 1);
  io::TrainerConfigFile file;
  const Outcome outcome = acceptOrReject([&] { file = io::readTrainerConfigFile(path); });
  if (outcome == Outcome::Accepted) {
    if (file.values.empty()) fail("an accepted settings file sets no key");
    for (const auto& [key, value] : file.values)
      if (key.empty()) fail("an accepted settings file has an empty key");
  }
  return outcome;
}

}  // namespace noisescope::fuzz
