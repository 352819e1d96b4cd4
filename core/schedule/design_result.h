#pragma once
// What the design solver returns (schedule/design.h), in plain values: the weights on the
// candidate levels and the certificate that they are optimal. Kept apart from the problem's
// Eigen matrices so that a face can read a design's outcome without them.
#include <vector>

namespace noisescope::schedule {

struct DesignResult {
  std::vector<double> weights;  // π_g after pruning (sums to 1)
  double criterion = 0.0;       // R(π) (A) or −log det M (D)
  double sensitivityMax = 0.0;  // max_g of the sensitivity w_g·tr(M⁻¹AM⁻¹H_g) (or w_g·tr(M⁻¹H_g))
  double sensitivityMean = 0.0;  // Σ π_g·sensitivity_g = tr(AM⁻¹) (A) or tr(M⁻¹(M − ridge·I)) (D)
  double gap = 0.0;              // sensitivityMax − sensitivityMean: the certificate, ≥ 0
  double relativeGap = 0.0;  // gap / sensitivityMean
  int iterations = 0;
  bool converged = false;
  std::vector<double> sensitivity;  // per level, at the final design
  std::vector<int> support;         // levels with positive weight
};

}  // namespace noisescope::schedule
