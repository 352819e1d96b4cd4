#include "diagnostic/diagnostic_options.h"

#include <cmath>

#include "util/error.h"
#include "util/log_grid.h"
#include "util/setting_names.h"

namespace noisescope {

const char* toString(DistancePrecision precision) {
  switch (precision) {
    case DistancePrecision::Float64:
      return "float64";
    case DistancePrecision::Auto:
      return "auto";
    case DistancePrecision::Float32:
      return "float32";
  }
  return "float64";
}

DistancePrecision distancePrecisionFromString(const std::string& text) {
  if (text == "float64" || text == "fp64") return DistancePrecision::Float64;
  if (text == "float32" || text == "fp32") return DistancePrecision::Float32;
  if (text == "auto") return DistancePrecision::Auto;
  throw InputError(std::string(settings::kPrecision) + " " + text,
                   "expected float64, auto or float32");
}

void DiagnosticOptions::validate() const {
  if (levels < 2)
    throw InputError(settings::kLevels, "need at least 2 levels, got " + std::to_string(levels));
  if (levels > 100000) throw InputError(settings::kLevels, "at most 100000 levels");
  if (!(sigmaMin > 0.0) || !std::isfinite(sigmaMin))
    throw InputError(settings::kSigmaMin, "must be a positive number");
  if (!(sigmaMax > sigmaMin) || !std::isfinite(sigmaMax))
    throw InputError(settings::kSigmaMax, "must be a finite number larger than the lowest σ");
  if (queries < 2)
    throw InputError(settings::kQueries, "need at least 2 queries for a standard error");
  if (memoryBytes < (int64_t{1} << 16))
    throw InputError(settings::kMemory, "must be at least 64 KiB");
  if (!(pruneLogRatio >= 20.0) || !std::isfinite(pruneLogRatio))
    throw InputError("prune log-ratio", "must be at least 20 (weights below e^-20 of the max)");
}

std::vector<double> logSigmaLevels(int levels, double sigmaMin, double sigmaMax) {
  return logSpacedGrid(sigmaMin, sigmaMax, levels);
}

}  // namespace noisescope
