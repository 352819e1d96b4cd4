#pragma once
// Settings of the offline diagnostic (THEORY §3): the σ grid, the Monte Carlo size, the seed, the
// device and the memory the computation may use on top of the dataset.
#include <cstdint>
#include <string>
#include <vector>
#include "schedule/engine_defaults.h"

namespace noisescope {

// How the squared distances ‖y − x_i‖² are assembled from the GEMMs (diagnostic/distance_terms.h).
// Float64 is exact enough down to σ = 0.002 (fp32 loses whole nats to cancellation there). Auto
// runs a tile's GEMM in float32 where the proven bound on every logit error, at every σ a query
// uses the tile at, is at most kFloat32LogitTolerance, and in float64 elsewhere. Float32 always
// uses float32 (the faster choice on GPUs whose fp64 rate is poor; its bound is reported, not
// enforced).
enum class DistancePrecision { Float64, Auto, Float32 };
const char* toString(DistancePrecision precision);
DistancePrecision distancePrecisionFromString(const std::string& text);  // throws InputError

// Auto's limit on a logit's error. Logits off by at most δ move every normalised weight by a
// factor within e^{±2δ}, so the posterior spread (and the MMSE) by at most e^{2δ} − 1 ≈ 5·10⁻⁵
// relative: under a hundredth of the Monte Carlo error bar of a 256-query profile.
constexpr double kFloat32LogitTolerance = 2.5e-5;

struct DiagnosticOptions {
  int levels = 64;
  double sigmaMin = schedule::defaults::kSigmaMin;
  double sigmaMax = schedule::defaults::kSigmaMax;
  int64_t queries = 256;  // Monte Carlo queries per level (the same ones for every level)
  uint64_t seed = 0;
  std::string device = "auto";
  int64_t memoryBytes = int64_t{1024} << 20;  // extra memory on top of the dataset
  double pruneLogRatio = 40.0;  // weights below e^−40 of the largest are dropped (certified)
  DistancePrecision distancePrecision = DistancePrecision::Auto;

  // Throws InputError naming the offending setting.
  void validate() const;
};

// `levels` values of σ, equally spaced in log σ from sigmaMin to sigmaMax (both included):
// logSpacedGrid(sigmaMin, sigmaMax, levels) of util/log_grid.h, the one log-spaced grid.
std::vector<double> logSigmaLevels(int levels, double sigmaMin, double sigmaMax);

}  // namespace noisescope
