#include "profile/tail_term.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace noisescope {

double tailTerm(const double* values, int64_t n) {
  if (n < 2) return 0.0;
  const auto [lo, hi] = std::minmax_element(values, values + n);
  return kTailTermFactor * (*hi - *lo) / static_cast<double>(n);
}

bool tailHeavierThanCovered(const double* values, int64_t n) {
  if (n < 20) return false;
  const double floor = *std::min_element(values, values + n);
  std::vector<double> excess(values, values + n);
  for (double& v : excess) v -= floor;
  const int64_t k = std::max<int64_t>(5, static_cast<int64_t>(std::ceil(std::sqrt(double(n)))));
  std::nth_element(excess.begin(), excess.end() - (k + 1), excess.end());
  const double threshold = *(excess.end() - (k + 1));
  if (threshold <= 0.0) return false;  // ties at the minimum: no tail to speak of
  double hill = 0.0;
  for (auto it = excess.end() - k; it != excess.end(); ++it) hill += std::log(*it / threshold);
  hill /= static_cast<double>(k);
  // Under a Pareto tail of index α, k·hill·α ~ Gamma(k, 1); its 0.99 quantile by Wilson–Hilferty.
  const double z = 2.326347874040841, c = 1.0 / (9.0 * static_cast<double>(k));
  const double q99 = static_cast<double>(k) * std::pow(1.0 - c + z * std::sqrt(c), 3.0);
  return hill * kCoveredTailIndex * static_cast<double>(k) > q99;
}

std::string tailTermDescription() {
  char text[256];
  std::snprintf(text, sizeof text,
                "tail term %g (max - min)/n: the mean beyond the largest of n per-point errors, "
                "covered for tails up to Pareto index %g (a squared Student t(3) coordinate)",
                kTailTermFactor, kCoveredTailIndex);
  return text;
}

}  // namespace noisescope
