#include "io/schedule_spec.h"

#include "io/schedule_io.h"
#include "schedule/families.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/spec_string.h"

namespace noisescope::schedule {

namespace {
// A spec names a file when it has a folder or a schedule file's extension (any case).
bool looksLikePath(const std::string& spec) {
  if (spec.rfind("family:", 0) == 0 || spec.rfind("preset:", 0) == 0) return false;
  return spec.find('/') != std::string::npos ||
         hasAnyExtension(spec, {".json", ".csv", ".h5", ".hdf5"});
}
}  // namespace

Schedule scheduleFromSpec(const std::string& spec, const LogSigmaGrid& grid) {
  if (spec.empty()) throw InputError("schedule", "empty schedule spec");
  if (looksLikePath(spec)) return readSchedule(spec);
  const SpecString parsed = parseSpecString(spec);
  ParameterValues values;
  std::string weightName;
  double sigmaData = 0.5, gamma = 5.0;
  for (const auto& [key, value] : parsed.pairs) {
    if (key == "weight") {
      weightName = value;
      continue;
    }
    const double number = specNumber(spec, key, value);
    if (key == "sigma_data")
      sigmaData = number;
    else if (key == "gamma")
      gamma = number;
    else
      values[key] = number;
  }
  // The loss weight's scales, as the schedule file readers require them.
  if (!(sigmaData > 0.0) || !(gamma > 0.0))
    throw InputError(spec, "sigma_data and gamma must be > 0");
  const std::string& head = parsed.head;
  Schedule s;
  if (head.rfind("family:", 0) == 0) {
    s = makeFamilySchedule(head.substr(7), values, grid);
  } else {
    const std::string name = head.rfind("preset:", 0) == 0 ? head.substr(7) : head;
    s = makePresetSchedule(name, grid, values);
  }
  if (!weightName.empty())
    s.lossWeight = makeLossWeight(weightName, sigmaData, gamma, spec);
  else {
    s.lossWeight.sigmaData = sigmaData;
    s.lossWeight.gamma = gamma;
  }
  return s;
}

}  // namespace noisescope::schedule
