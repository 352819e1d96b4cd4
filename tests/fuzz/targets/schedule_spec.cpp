// A schedule spec string ("edm", "preset:…", "family:edm?p_mean=-1&weight=min-snr") and the
// generic spec-string parser under it. The process works in its scratch folder, so a spec that
// reads like a relative file name finds nothing there.
#include <unistd.h>

#include <string>

#include "io/schedule_io.h"
#include "io/schedule_spec.h"
#include "targets.h"
#include "util/spec_string.h"

namespace noisescope::fuzz {

Outcome scheduleSpec(const uint8_t* data, size_t size) {
  static const bool inScratch = ::chdir(scratchDir().c_str()) == 0;
  if (!inScratch) fail("cannot enter " + scratchDir());
  const std::string text(reinterpret_cast<const char*>(data), size);
  static const schedule::LogSigmaGrid grid = schedule::LogSigmaGrid::uniform(0.002, 80.0, 32);
  schedule::Schedule made;
  const Outcome outcome = acceptOrReject([&] { made = schedule::scheduleFromSpec(text, grid, 0.5); });
  if (outcome == Outcome::Accepted) {
    try {
      scheduleFromJson(scheduleToJson(made), "written JSON");
    } catch (const InputError& e) {
      fail(std::string("a schedule made from a spec does not read back: ") + e.what());
    }
  }
  acceptOrReject([&] {
    const SpecString spec = parseSpecString(text);
    for (const auto& pair : spec.pairs) {
      acceptOrReject([&] { specNumber(text, pair.first, pair.second); });
      acceptOrReject([&] { specInteger(text, pair.first, pair.second, -1000, 1000); });
    }
  });
  acceptOrReject([&] { parseKeyValue(text, "fuzz"); });
  return outcome;
}

}  // namespace noisescope::fuzz
