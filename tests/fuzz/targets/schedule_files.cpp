// Schedule files (JSON and CSV) through every reader of that text: the schedule reader and the
// density-table reader. A schedule the reader accepts must read back
// after being written in either format.
#include <string>

#include "io/schedule_io.h"
#include "targets.h"

namespace noisescope::fuzz {

namespace {

void checkRoundTrip(const schedule::Schedule& s) {
  try {
    scheduleFromJson(scheduleToJson(s), "written JSON");
  } catch (const InputError& e) {
    fail(std::string("an accepted schedule does not read back from JSON: ") + e.what());
  }
  try {
    scheduleFromCsv(scheduleToCsv(s), "written CSV");
  } catch (const InputError& e) {
    fail(std::string("an accepted schedule does not read back from CSV: ") + e.what());
  }
}

Outcome readAll(const std::string& name, const uint8_t* data, size_t size) {
  const std::string path = writeScratchFile(name, data, size);
  schedule::Schedule read;
  const Outcome outcome = acceptOrReject([&] { read = readSchedule(path); });
  if (outcome == Outcome::Accepted) checkRoundTrip(read);
  static const schedule::LogSigmaGrid grid = schedule::LogSigmaGrid::uniform(0.002, 80.0, 32);
  acceptOrReject([&] { readTableSchedule(path, grid); });
  acceptOrReject([&] { readTableSchedule(path, grid, schedule::Coordinate::LogSigma); });
  return outcome;
}

}  // namespace

Outcome scheduleJson(const uint8_t* data, size_t size) {
  return readAll("fuzz.schedule.json", data, size);
}

Outcome scheduleCsv(const uint8_t* data, size_t size) {
  return readAll("fuzz.schedule.csv", data, size);
}

}  // namespace noisescope::fuzz
