#pragma once
// Entropic schedules from an MMSE profile (THEORY §6): InfoNoise (allocation linear in the rate,
// gated at low noise), the square-root-entropy schedule in an explicit coordinate, and the
// entropic-time sampling grid.
#include <cstdint>
#include <string>
#include <vector>

#include "schedule/coordinates.h"
#include "schedule/engine_defaults.h"
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
  int64_t dim = 0;            // D, when the source records it (0: unknown)
  double sigmaData = 0.0;     // σ_data, when the source records it (0: unknown)

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

// ---- The gated rate and the two entropic laws: one implementation, offline and online ----
//
// THEORY §6. Both laws start from the gated rate r_g = (MMSE/σ²)·g(σ), the gate being part of the
// rate estimate: InfoNoise takes ρ ∝ r_g as its target allocation (π ∝ ρ/w), √-entropy takes the
// sampling density π(u) ∝ √(r_g·|dℓ/du|), the gate under the square root. The offline builders
// below (Schedules tab, `noisescope-cli schedule`) and the online samplers of the trainer
// (train/noise_sampler.cpp, on a RateProfile of their per-bin errors) all call these functions.

// The low-noise gate g(σ) = σⁿ/(σⁿ + cⁿ). c = 0 means "no gate" (g = 1), here and in every setting
// that takes a c; an automatic choice of c is a separate setting of its callers (training's
// gate_c "auto").
struct RateGate {
  double c = 0.0;
  double n = defaults::kGateN;

  double at(double sigma) const;
  // Throws InputError(source, …) unless c ≥ 0 and n > 0, both finite.
  void validate(const std::string& source) const;
};
// r_g = rate·g(σ), the gated rate per unit ℓ (rate = dH/dℓ = MMSE/σ² at σ).
double gatedRate(double rateLogSigma, double sigma, const RateGate& gate);

enum class EntropicLaw {
  InfoNoise,  // the target allocation ρ_ℓ ∝ r_g
  SqrtEntropy,  // the sampling density π_ℓ ∝ √(r_g·|dℓ/du|)/|dℓ/du|, i.e. π(u) ∝ √(r_g per du)
};
// The law's density per unit ℓ at ℓ from the gated rate there (unnormalised). `coordinate` is the
// u of √-entropy (Sigma, LogSigma or Lambda); InfoNoise ignores it.
double entropicDensity(EntropicLaw law, double gatedRateLogSigma, double logSigma,
                       Coordinate coordinate = Coordinate::LogSigma);
// That density on the bins of `grid`, from a profile: each bin's mass is the Simpson integral of
// entropicDensity(law, gatedRate(profile.rateLogSigma(ℓ), e^ℓ, gate), ℓ) over the bin. InfoNoise
// gives ρ, √-entropy gives π (both with a uniform loss weight; the callers below attach theirs).
// Throws InputError for a bad gate or coordinate.
Schedule entropicAllocation(EntropicLaw law, const RateProfile& profile, const LogSigmaGrid& grid,
                            const RateGate& gate, Coordinate coordinate = Coordinate::LogSigma);

struct InfoNoiseOptions {
  double gateC = defaults::kGateC;  // c of g(σ) = σⁿ/(σⁿ + cⁿ); 0 turns the gate off
  double gateN = defaults::kGateN;  // n
  LossWeight weight{LossWeight::Kind::Edm};  // w: π ∝ ρ/w
  double smoothing = 0.0;                    // bandwidth in ℓ for smoothProfile
};
// The low-noise gate g(σ) (RateGate{c, n}.at(σ)).
double infoNoiseGate(double sigma, double c, double n);

// The target allocation ρ ∝ (MMSE/σ²)·g on `grid` (as a schedule with uniform weight), i.e. the
// entropic allocation; with gateC = 0 it is the plain rate dH/dℓ normalised.
Schedule infoNoiseAllocation(const RateProfile& profile, const LogSigmaGrid& grid,
                             const InfoNoiseOptions& options = {});
// The InfoNoise sampling schedule π ∝ ρ/w (carries the weight; its effective allocation is ρ).
Schedule infoNoiseSchedule(const RateProfile& profile, const LogSigmaGrid& grid,
                           const InfoNoiseOptions& options = {});

struct SqrtEntropyOptions {
  // u of π(u) ∝ √(r_g per du): Sigma, LogSigma or Lambda. Recorded in the schedule.
  Coordinate coordinate = Coordinate::LogSigma;
  double gateC = 0.0;  // the low-noise gate of the rate, under the square root; 0: no gate
  double gateN = defaults::kGateN;
  LossWeight weight{LossWeight::Kind::Uniform};  // the weight it is trained with
  double smoothing = 0.0;
};
// The sampling density π(u) ∝ √(r_g · |dℓ/du|) per du, moved to ℓ with the Jacobian:
// π_ℓ ∝ √(r_g · |dℓ/du|) / |dℓ/du|, r_g the gated rate per ℓ.
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
