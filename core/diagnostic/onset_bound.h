#pragma once
// An analytic upper bound on the empirical MMSE where its Monte Carlo interval cannot see the
// error (THEORY §3, "The onset level"). For a query from the prior's own point x_j at level σ,
//     tr Cov(x0 | y) ≤ Σ_i w_i ‖x_i − x_j‖² ≤ Σ_{i≠j} A_i · min(1, e^{z_i}),
// A_i = ‖x_j − x_i‖², z_i = −A_i/(2σ²) − B_i/σ the logit against the own point (logit 0, so
// w_i ≤ e^{z_i}), and B_i = ε·(x_j − x_i) ~ N(0, A_i). Averaged over the noise,
// E[min(1, e^{z_i})] = 2Φ(−√A_i/(2σ)), so
//     E_ε[tr Cov(x0 | y) | j] ≤ U_j(σ) = Σ_{i≠j} 2 A_i Φ(−√A_i/(2σ)).
// Where σ is small against the nearest neighbour, errors come from rare noise draws that land
// near another point (±1 data: a level where a few of 256 queries see any error, or none), and
// the normal interval over queries misses the truth; U_j has no such rare event in it. The engine
// keeps each query's nearest distances, and the rest of the prior is bounded by the farthest kept.
#include <cstdint>
#include <string>
#include <vector>

#include "profile/profile.h"

namespace noisescope {

// Nearest non-identical neighbours kept per query.
inline constexpr int64_t kOnsetNeighbours = 32;

// Below this many expected off-own-point events over all queries (Λ, summed over queries of
// Σ_i 2Φ(−√A_i/(2σ)) over points i with A_i > 0), the normal interval is not trusted and the
// upper ends are raised to the analytic bound's (calibrated on ±1 chains; bench numbers in
// docs/profiles.md).
inline constexpr double kOnsetEvents = 40.0;

// Per level and query ([level * queries + q]): U_j(σ) and the expected events λ_j(σ).
struct OnsetTerms {
  std::vector<double> bound, events;
};

// `nearest`: per query, its kept squared distances A_i > 0 (query-major, `kept` per query, padded
// with +inf where fewer exist); `beyond`: per query, how many prior points with A_i > 0 are not
// among them (each at least as far as the farthest kept). Exact when beyond is 0.
OnsetTerms onsetTerms(const std::vector<double>& nearest, int64_t kept,
                      const std::vector<double>& beyond, const std::vector<double>& sigma);

// Raises ciHigh at the levels where the expected events Λ fall below kOnsetEvents to at least
// Ū + 1.96·se (the mean of U_j over the queries and its standard error). Returns those levels'
// indices.
std::vector<int> raiseOnsetUpperEnds(MmseEstimate& estimate, const OnsetTerms& terms, int levels,
                                     int64_t queries);

// Words for the profile file: what the raised ends are.
std::string onsetIntervalDescription();

}  // namespace noisescope
