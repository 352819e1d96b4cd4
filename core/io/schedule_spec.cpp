#include "io/schedule_spec.h"

#include "io/schedule_io.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/spec_string.h"

namespace noisescope::schedule {

namespace {
bool startsWith(const std::string& text, const char* prefix) {
  return text.rfind(prefix, 0) == 0;
}
}  // namespace

ScheduleSpec parseScheduleSpec(const std::string& text) {
  if (text.empty()) throw InputError("schedule", "empty schedule spec");
  ScheduleSpec spec;
  spec.text = text;
  // A spec names a file when it has a folder or a schedule file's extension (any case).
  const bool named = startsWith(text, "family:") || startsWith(text, "preset:");
  if (!named && (text.find('/') != std::string::npos ||
                 hasAnyExtension(text, {".json", ".csv", ".h5", ".hdf5"}))) {
    spec.isFile = true;
    return spec;
  }
  const SpecString parsed = parseSpecString(text);
  spec.isFamily = startsWith(parsed.head, "family:");
  spec.name = named ? parsed.head.substr(7) : parsed.head;
  for (const auto& [key, value] : parsed.pairs) {
    if (key == "weight") {
      spec.weightName = value;
      continue;
    }
    const double number = specNumber(text, key, value);
    if (key == "sigma_data")
      spec.sigmaData = number;
    else if (key == "gamma")
      spec.gamma = number;
    else
      spec.values[key] = number;
  }
  // The loss weight's scales, as the schedule file readers require them.
  if ((spec.sigmaData && !(*spec.sigmaData > 0.0)) || (spec.gamma && !(*spec.gamma > 0.0)))
    throw InputError(text, "sigma_data and gamma must be > 0");
  return spec;
}

Schedule scheduleFromSpec(const std::string& text, const LogSigmaGrid& grid,
                          double sigmaDataIfUnset) {
  const ScheduleSpec spec = parseScheduleSpec(text);
  if (spec.isFile) return readSchedule(text);
  Schedule s = spec.isFamily ? makeFamilySchedule(spec.name, spec.values, grid)
                             : makePresetSchedule(spec.name, grid, spec.values);
  const double sigmaData = spec.sigmaData.value_or(sigmaDataIfUnset);
  const double gamma = spec.gamma.value_or(s.lossWeight.gamma);
  if (!spec.weightName.empty())
    s.lossWeight = makeLossWeight(spec.weightName, sigmaData, gamma, text);
  else {
    s.lossWeight.sigmaData = sigmaData;
    s.lossWeight.gamma = gamma;
  }
  return s;
}

}  // namespace noisescope::schedule
