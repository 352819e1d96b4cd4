#pragma once
// The explicit tail term of a profile's upper ends (THEORY §10, docs/profiles.md). A mean over n
// per-point errors misses, in most draws, the part of the population mean carried by errors
// larger than any of the n: for heavy tails (Student t data, latent caches, audio) that part is
// why a Student t upper end covers 75–80 % instead of 95 %. Under a Pareto tail of index α the
// shortfall scales with the largest error over n, and kTailTermFactor · (max − min) / n covers it
// for every index ≥ kCoveredTailIndex in ≥ 95 % of draws at every n (calibrated by simulation,
// bench/diagnostic/bench_bound_coverage). The minimum is subtracted so that a constant part of
// every point's error (σ² tr W² of a linear denoiser) adds nothing.
#include <cstdint>
#include <string>

namespace noisescope {

inline constexpr double kTailTermFactor = 5.0;
inline constexpr double kCoveredTailIndex = 1.5;  // a squared Student t(3) coordinate's tail

// kTailTermFactor · (max − min) / n of the n values (0 for n < 2).
double tailTerm(const double* values, int64_t n);

// Whether the values' upper tail is, at 99 % confidence, heavier than a Pareto of index
// kCoveredTailIndex: Hill's estimate over the largest k = max(5, ⌈√n⌉) excesses over the
// minimum, tested against its Gamma(k) law (Wilson–Hilferty quantile). Where it is, the tail term
// does not cover and the upper end must be reported as not covering. False for n < 20.
bool tailHeavierThanCovered(const double* values, int64_t n);

// Words for the files and the GUI: what the term is and what it assumes.
std::string tailTermDescription();

}  // namespace noisescope
