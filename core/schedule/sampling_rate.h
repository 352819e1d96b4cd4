#pragma once
// The rate a sampling grid should follow (THEORY §6, "A rate fit for sampling"): per σ the best
// estimate of the population's MMSE that the available profiles give, with the source used and
// why, and the rule that extends it outside the profiles' σ range. The entropic grids with
// rate=sampling, sigma_min=profile and the auto grid (schedule/sampling_grid.h) follow it.
//
// The sources, per level, in the order they are tried:
//   vanished      the upper end U (below) is a rate under kNegligibleRate: nothing to resolve;
//   tight         U within ×kTightRatio of the empirical curve L: the prior resolves the data as
//                 the population does, so the bound is the value (its interval is honest);
//   bracket       L and U further apart: the geometric midpoint √(L·U), within √(U/L) of any
//                 value in the bracket;
//   coordinate    no empirical curve, data in {−1, +1}: the per-coordinate denoiser's risk
//                 D·mmse₂(σ) is below the bound and is the value;
//   bound         no empirical curve, U is the bound itself;
//   gate          no empirical curve and no coordinate bound, continuous data: U times the gate of
//                 the data kind (the bound's small-σ part is its looseness, THEORY §6).
// U is the smallest of the upper curves given (the population bound, the held-out posterior's
// risk, and for ±1 data D·mmse₂(σ) with mmse₂ the two-point MMSE of THEORY §3), made
// non-decreasing in σ from the top down: MMSE(σ) ≤ MMSE(σ') ≤ U(σ') for σ ≤ σ', so
// min over σ' ≥ σ of U is still an upper end.
//
// Outside the levels: above the largest σ the MMSE is held (the total variance, rate ∝ σ⁻²);
// below the smallest the rate is held (MMSE ∝ σ², what continuous data do), except that for ±1
// data the MMSE never exceeds D·mmse₂(σ), which vanishes like e^{−1/(2σ²)}.
#include <cstdint>
#include <string>
#include <vector>

#include "schedule/entropic.h"
#include "schedule/sampling_grid_spec.h"

namespace noisescope {
struct Profile;
}

namespace noisescope::schedule {

enum class RateSource { Vanished, Tight, Bracket, Coordinate, Bound, Gate };
const char* toString(RateSource source);  // "vanished", "tight", …

// A rate per unit log σ below which a level counts as resolved: held over the whole default
// range (log(80/0.002) ≈ 10.6) it adds 0.011 nats.
inline constexpr double kNegligibleRate = 1e-3;
// The bracket counts as closed where U ≤ kTightRatio · L.
inline constexpr double kTightRatio = 1.5;
// The conditional entropy H[x0 | x_σ] (nats) the grid may leave unresolved below σ_min. The last
// step (to 0) returns the denoiser's output at σ_min, the posterior mean, which rounds to the
// posterior's mode; the law of the mode differs from the law of x0 by at most the Bayes error
// P(x0 ≠ mode), and Hellman–Raviv bound that by H/(2 ln 2) (H in nats). A residual of
// 2 ln 2 · 0.005 nats therefore adds at most 0.005 to the total variation of the samples' law.
inline constexpr double kTruncationTv = 0.005;
inline constexpr double kResidualEntropy = 2.0 * 0.6931471805599453 * kTruncationTv;

struct SamplingRateInputs {
  std::vector<double> sigma;  // ascending, > 0: the levels every curve below is given on
  // MMSE per level, summed over dimensions; an empty vector means that curve is absent.
  std::vector<double> empirical;  // the sample as prior, training queries (memorises)
  std::vector<double> heldOut;    // the sample as prior, held-out queries (an upper end)
  std::vector<double> bound;      // the population bound (an upper end)
  std::string empiricalSource, heldOutSource, boundSource;
  int64_t dim = 0;            // D (needed for the coordinate bound and the rescaled increment)
  double sigmaData = 0.0;     // σ_data (0: unknown)
  bool plusMinusOne = false;  // every entry of the data is −1 or +1
};

struct SamplingRate {
  std::vector<double> sigma;  // ascending
  std::vector<double> mmse;   // the estimate per level
  std::vector<double> upper;  // U per level (non-decreasing)
  std::vector<double> lower;  // L per level (empty without an empirical curve)
  std::vector<RateSource> source;
  std::vector<std::string> why;  // one sentence per level
  int64_t dim = 0;
  double sigmaData = 0.0;
  bool plusMinusOne = false;
  double gateC = 0.0;  // the gate used at "gate" levels (0: none)

  // The estimate at any σ > 0, extended outside the levels as the header says; log-MMSE is
  // interpolated linearly in log σ between levels.
  double mmseAt(double sigma) const;
  double upperAt(double sigma) const;
  double rateLogSigma(double logSigma) const;  // mmseAt(σ)/σ² at σ = e^ℓ
  // The largest σ in [lo, hi] with ∫_lo^σ r_U dℓ ≤ residual, r_U = upperAt(σ)/σ² the upper end's
  // rate, when that rate vanishes at lo (held over [lo, hi] it would add at most `residual`); 0
  // when it does not. σ_min rests on the upper end, not on the estimate: a rate can only be said
  // to vanish where a bound on it does, and the estimate's bracket midpoint vanishes early where
  // the empirical curve memorises (a sample of distinct points has MMSE ≈ 0 below its
  // nearest-neighbour scale, whatever the population does there).
  double vanishingSigma(double lo, double hi, double residual = kResidualEntropy) const;
  // The estimate as a dense RateProfile on [lo, hi] (`points` levels, log-spaced), for the
  // entropic grid builders.
  RateProfile asRateProfile(double lo, double hi, int points = 513) const;
  // One sentence each: how the rate is extended below and above the levels.
  std::string extensionBelow() const;
  std::string extensionAbove() const;
};

// Throws InputError("sampling rate", …) without levels or with no upper curve, or sizes that
// disagree.
SamplingRate estimateSamplingRate(const SamplingRateInputs& inputs);

// The inputs from profiles: the primary estimates of `empirical`, `heldOut` and `bound`
// (any may be null; at least one of heldOut and bound is needed), put on the levels of `bound`
// (else `heldOut`) by log-linear interpolation in log σ. D and σ_data are taken from the first
// profile that records them.
SamplingRateInputs samplingRateInputs(const Profile* empirical, const Profile* heldOut,
                                      const Profile* bound, bool plusMinusOne);

// Whether the profile's data have every entry in {−1, +1}: its provenance names the dataset's
// scaling "{-1,+1}" (binarised images) or "one-hot ±1" (DNA).
bool plusMinusOneData(const Profile& profile);

// The sampling rate from whatever profiles a face holds, by kind: "empirical" is the lower curve,
// "held-out" the held-out posterior's risk, and the upper end is the "bound" when there is one,
// else the first "checkpoint", "held-out-wiener" or "held-out-patch" profile (one curve, not the
// smallest of several: a minimum over noisy means is biased low, THEORY §10). "gaussian" and
// "table" curves are not bounds and are left out; `ignored` gets one line per profile left out.
// ±1 data when any profile's provenance says so. InputError("sampling rate", …) when no profile
// gives an upper end.
SamplingRate samplingRateFromProfiles(const std::vector<const Profile*>& profiles,
                                      std::vector<std::string>* ignored = nullptr);

// ---- The auto grid (THEORY §6, "The auto grid") ----
//
// Given the sampling rate r̂ and the range [σ_lo, σ_hi] the grid may use:
//  1. σ_v = vanishingSigma(σ_lo, σ_hi), on the upper end. If it vanishes (σ_v > 0), the grid
//     ends at σ_min = max(σ_lo, σ_v): below it the posterior is all but one point
//     (kResidualEntropy), the denoiser is constant, and the ODE needs no level there.
//  2. The steps are spent half on the information and half on log σ: equal increments of
//     ∫ (f/∫f + 1/(ℓ_hi − ℓ_lo)) dℓ, so no step covers more than 2/(N−1) of either. The
//     information term resolves the posterior's change; the log-σ term bounds the step ratio,
//     which sets the sampler's error on the part of the trajectory that only contracts (large σ,
//     where the data look Gaussian and the rate is small).
//  3. f = r̂ (entropic time) where the estimate is trusted: at most half of ∫ r̂ dℓ on
//     [σ_min, σ_hi] lies on levels whose source is "bracket" or "gate"; f = √r̂ otherwise (a factor
//     κ of error in r̂ moves the square-root density by √κ only).
//  4. No upper end vanishes (continuous data at that scale, or a bound loose there): f = r̂
//     times the data kind's gate (defaults::autoGateC), on [σ_lo, σ_hi].
struct AutoGridChoice {
  EntropicIncrement increment = EntropicIncrement::Rate;
  double sigmaMin = 0.0, sigmaMax = 0.0;
  double gateC = 0.0;
  double untrustedShare = 0.0;  // of ∫ r̂ dℓ on [σ_min, σ_max], on bracket or gate levels
  std::string rule;             // "entropic time", "sqrt-rate", "gated"
  std::string why;              // one sentence
};
AutoGridChoice chooseAutoGrid(const SamplingRate& rate, double sigmaLo, double sigmaHi);

}  // namespace noisescope::schedule
