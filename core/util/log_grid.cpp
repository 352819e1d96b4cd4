#include "util/log_grid.h"

#include <cmath>
#include <string>

#include "util/error.h"

namespace noisescope {

double logInterpolate(double lo, double hi, double t) {
  return std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo)));
}

std::vector<double> logSpacedGrid(double lo, double hi, int n) {
  if (n < 1) throw InputError("σ grid", "needs at least one level (got " + std::to_string(n) + ")");
  if (!(lo > 0.0) || !(hi >= lo) || !std::isfinite(hi))
    throw InputError("σ grid", "needs 0 < σ_min ≤ σ_max (got " + std::to_string(lo) + ", " +
                                   std::to_string(hi) + ")");
  std::vector<double> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    out[static_cast<size_t>(i)] = logInterpolate(lo, hi, n == 1 ? 0.0 : double(i) / (n - 1));
  out.front() = lo;
  if (n > 1) out.back() = hi;
  return out;
}

}  // namespace noisescope
