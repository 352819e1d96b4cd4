#pragma once
// Entropic schedules from an MMSE profile (THEORY §6): InfoNoise (allocation linear in the rate,
// gated at low noise), the square-root-entropy schedule in an explicit coordinate, and the
// entropic-time sampling grid.
#include <string>
#include <vector>

#include "schedule/schedule.h"

namespace noisescope {
struct Profile;
}

namespace noisescope::schedule {

// MMSE(σ) on a σ grid: what the entropic schedules need from a profile.
struct RateProfile {
  std::vector<double> sigma;  // strictly increasing, > 0
  std::vector<double> mmse;   // summed over dimensions, ≥ 0
  std::string source;         // file or description, recorded in the schedule
  std::string kind;           // "empirical", "checkpoint", "analytic", "table"

  // Throws InputError(source, ...) on mismatched sizes, fewer than 2 levels, bad values.
  void validate() const;
  // dH/dℓ = MMSE/σ² at ℓ, interpolated linearly in ℓ between levels. Outside the profile, the rate
  // is held at its end value below σ_first (MMSE ∝ σ² there for continuous data) and MMSE is held
  // at its end value above σ_last (MMSE tends to the total variance).
  double rateLogSigma(double logSigma) const;
};

// The primary MMSE estimate of a diagnostic profile.
RateProfile rateProfileFrom(const Profile& profile, const std::string& source);

// Gaussian smoothing of log(rate) along ℓ with the given bandwidth (in ℓ units; 0: unchanged), for
// noisy profiles. Levels with zero rate stay zero.
RateProfile smoothProfile(const RateProfile& profile, double bandwidth);

struct InfoNoiseOptions {
  double gateC = 0.15;  // c of g(σ) = σⁿ/(σⁿ + cⁿ); 0 turns the gate off
  double gateN = 3.0;   // n
  LossWeight weight{LossWeight::Kind::Edm, 0.5, 5.0};  // w: π ∝ ρ/w
  double smoothing = 0.0;                              // bandwidth in ℓ for smoothProfile
};
// The low-noise gate g(σ).
double infoNoiseGate(double sigma, double c, double n);

// The target allocation ρ ∝ (MMSE/σ²)·g on `grid` (as a schedule with uniform weight), i.e. the
// entropic allocation; with gateC = 0 it is the plain rate dH/dℓ normalised.
Schedule infoNoiseAllocation(const RateProfile& profile, const LogSigmaGrid& grid,
                             const InfoNoiseOptions& options = {});
// The InfoNoise sampling schedule π ∝ ρ/w (carries the weight; its effective allocation is ρ).
Schedule infoNoiseSchedule(const RateProfile& profile, const LogSigmaGrid& grid,
                           const InfoNoiseOptions& options = {});

struct SqrtEntropyOptions {
  // u of π(u) ∝ √(dH/du): Sigma, LogSigma or Lambda. Recorded in the schedule.
  Coordinate coordinate = Coordinate::LogSigma;
  double gateC = 0.0;  // optional low-noise gate applied to the rate before the square root
  double gateN = 3.0;
  LossWeight weight{LossWeight::Kind::Uniform, 0.5, 5.0};  // the weight it is trained with
  double smoothing = 0.0;
};
// The sampling density π(u) ∝ √(dH/du), moved to ℓ with the Jacobian:
// π_ℓ ∝ √(rate_ℓ · |dℓ/du|) / |dℓ/du|.
Schedule sqrtEntropySchedule(const RateProfile& profile, const LogSigmaGrid& grid,
                             const SqrtEntropyOptions& options = {});

// Entropic time: σ_k = u⁻¹(k/(N−1)), k = 0..N−1, where u is the CDF of `allocation` (ρ). Ascending;
// the first is σ_min and the last σ_max of the allocation's support.
std::vector<double> entropicTimeGrid(const Schedule& allocation, int steps);

// Analytic profiles for tests and demos (THEORY §3): Gaussian data N(0, s²I_D) and two points ±a.
RateProfile gaussianProfile(double s, int dim, const std::vector<double>& sigma);
RateProfile twoPointProfile(double a, const std::vector<double>& sigma);
// MMSE of the two-point prior {−a, +a} at σ by Gauss–Hermite-free quadrature on a fine ε grid.
double twoPointMmse(double a, double sigma);

}  // namespace noisescope::schedule
