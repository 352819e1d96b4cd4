#include "io/schedule_spec.h"

#include <cmath>
#include <cstdlib>

#include "io/schedule_io.h"
#include "schedule/families.h"
#include "util/error.h"

namespace noisescope::schedule {

namespace {
bool looksLikePath(const std::string& spec) {
  if (spec.find('/') != std::string::npos) return true;
  for (const char* ext : {".json", ".csv", ".h5", ".hdf5"}) {
    const std::string e = ext;
    if (spec.size() > e.size() && spec.compare(spec.size() - e.size(), e.size(), e) == 0)
      return true;
  }
  return false;
}
}  // namespace

Schedule scheduleFromSpec(const std::string& spec, const LogSigmaGrid& grid) {
  if (spec.empty()) throw InputError("schedule", "empty schedule spec");
  if (looksLikePath(spec) && spec.rfind("family:", 0) != 0 && spec.rfind("preset:", 0) != 0)
    return readSchedule(spec);
  std::string head = spec, query;
  const auto question = spec.find('?');
  if (question != std::string::npos) {
    head = spec.substr(0, question);
    query = spec.substr(question + 1);
  }
  ParameterValues values;
  std::string weightName;
  double sigmaData = 0.5, gamma = 5.0;
  std::size_t start = 0;
  while (start < query.size()) {
    const auto amp = query.find('&', start);
    const std::string pair =
        query.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
    start = amp == std::string::npos ? query.size() : amp + 1;
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    if (eq == std::string::npos) throw InputError(spec, "'" + pair + "' is not key=value");
    const std::string key = pair.substr(0, eq), value = pair.substr(eq + 1);
    if (key == "weight") {
      weightName = value;
      continue;
    }
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(number))
      throw InputError(spec, "'" + value + "' is not a number (key " + key + ")");
    if (key == "sigma_data")
      sigmaData = number;
    else if (key == "gamma")
      gamma = number;
    else
      values[key] = number;
  }
  Schedule s;
  if (head.rfind("family:", 0) == 0) {
    const std::string name = head.substr(7);
    s = makeFamilySchedule(name, values, grid);
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
