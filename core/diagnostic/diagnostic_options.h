#pragma once
// Settings of the offline diagnostic (THEORY §3): the σ grid, the Monte Carlo size, the seed, the
// device and the memory the computation may use on top of the dataset.
#include <cstdint>
#include <string>
#include <vector>

namespace noisescope {

// How the squared distances ‖y − x_i‖² are assembled from the GEMMs. Float64 is exact enough down
// to σ = 0.002 (fp32 loses whole nats to cancellation there); Float32 is the faster choice on GPUs
// whose fp64 rate is poor, and is kept for comparison.
enum class DistancePrecision { Float64, Float32 };
const char* toString(DistancePrecision precision);
DistancePrecision distancePrecisionFromString(const std::string& text);  // throws InputError

struct DiagnosticOptions {
  int levels = 64;
  double sigmaMin = 0.002;
  double sigmaMax = 80.0;
  int64_t queries = 256;  // Monte Carlo queries per level (the same ones for every level)
  uint64_t seed = 0;
  std::string device = "auto";
  int64_t memoryBytes = int64_t{1024} << 20;  // extra memory on top of the dataset
  double pruneLogRatio = 40.0;  // weights below e^−40 of the largest are dropped (certified)
  DistancePrecision distancePrecision = DistancePrecision::Float64;

  // Throws InputError naming the offending setting.
  void validate() const;
};

// `levels` values of σ, equally spaced in log σ from sigmaMin to sigmaMax (both included):
// logSpacedGrid(sigmaMin, sigmaMax, levels) of util/log_grid.h, the one log-spaced grid.
std::vector<double> logSigmaLevels(int levels, double sigmaMin, double sigmaMax);

}  // namespace noisescope
