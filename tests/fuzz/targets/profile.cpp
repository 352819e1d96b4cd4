// A noisescope.profile/1 file. A profile the reader accepts must also survive being written and
// read again: otherwise the workbench could save files it cannot open.
#include <string>

#include "io/profile_io.h"
#include "targets.h"

namespace noisescope::fuzz {

Outcome profile(const uint8_t* data, size_t size) {
  const std::string path = writeScratchFile("fuzz.profile.json", data, size);
  Profile read;
  const Outcome outcome = acceptOrReject([&] { read = readProfile(path); });
  if (outcome == Outcome::Accepted) {
    try {
      profileFromJson(profileToJson(read), "written profile");
    } catch (const InputError& e) {
      fail(std::string("an accepted profile does not read back once written: ") + e.what());
    }
    profileToCsv(read);
  }
  return outcome;
}

}  // namespace noisescope::fuzz
