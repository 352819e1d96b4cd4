#pragma once
// The effective allocation φ ∝ π·w (THEORY §5) and the curves a chart or a file shows: π, w, φ and
// the CDF evaluated on a grid in one chosen coordinate.
#include <string>
#include <vector>

#include "schedule/schedule.h"

namespace noisescope::schedule {

// φ ∝ π·w as a schedule on π's own bins (binned: φ_b ∝ (m_b/Δ_b)·∫_bin w dℓ, exact; atomic:
// φ_k ∝ π_k·w(σ_k)). ELBO: φ ∝ 1/σ² per d log σ on the support of π. The result is normalised,
// keeps π's info (kind "allocation of …") and has a uniform loss weight.
Schedule effectiveAllocation(const Schedule& sampling);
// The inverse: the sampling density π ∝ φ/w that realises a target allocation φ with weight w
// (binned: π_b ∝ φ_b·Δ_b/∫_bin w dℓ; atomic: π_k ∝ φ_k/w(σ_k)). ELBO is rejected: with it every π
// gives the same φ. The result carries `weight` as its loss weight.
Schedule samplingForAllocation(const Schedule& allocation, const LossWeight& weight);

// Which curve to evaluate.
enum class Curve { Sampling, Weight, Allocation, Cdf };
const char* toString(Curve curve);
Curve curveFromString(const std::string& name, const std::string& source = "curve");

struct CurveTable {
  Coordinate coordinate = Coordinate::LogSigma;
  std::vector<double> sigma;            // bin centres (σ)
  std::vector<double> coordinateValue;  // the same points in `coordinate`
  std::vector<double> sampling;         // π, density per unit of `coordinate`
  std::vector<double> weight;           // w(σ) (ELBO: evaluated with π's density)
  std::vector<double> allocation;  // φ, density per unit of `coordinate`, normalised on the grid
  std::vector<double> cdf;         // P(σ' ≤ σ) of π at the point
  std::vector<double> allocationCdf;  // the same for φ
};

// Evaluates a schedule on the centres of `grid` (φ normalised on that grid). For an atomic schedule
// the densities are the atoms' masses per bin divided by the bin width (a histogram).
CurveTable evaluateCurves(const Schedule& schedule, const LogSigmaGrid& grid,
                          Coordinate coordinate = Coordinate::LogSigma);

}  // namespace noisescope::schedule
