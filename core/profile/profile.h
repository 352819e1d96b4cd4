#pragma once
// A noise-level profile: MMSE(σ) on a σ grid with its Monte Carlo uncertainty, the posterior's
// shape (empirical profiles only) and the conditional-entropy rates of THEORY §2. Produced by the
// offline diagnostic or the checkpoint profiler, written as "noisescope.profile/1".
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace noisescope {

// Mean over queries of one per-query MMSE estimator, with its standard error (sd/√M) and a 95 %
// interval per σ level: the normal approximation mean ± 1.96·se, its lower end clipped at 0
// (an MMSE is never negative; at small σ, where few queries see any error, mean − 1.96·se would
// fall below it). kMmseInterval says the same in the profile file.
struct MmseEstimate {
  std::string name;  // "rao_blackwell", "direct" or "x0_error"
  std::string description;
  std::vector<double> mean;
  std::vector<double> standardError;
  std::vector<double> ciLow;   // max(0, mean − 1.96·se)
  std::vector<double> ciHigh;  // mean + 1.96·se
  // Estimates over held-out points (summarizeOverPoints) say how their interval is formed here
  // ("" means kMmseInterval) and carry the one-sided 95 % upper confidence end a bound is judged
  // by (empty for other estimates).
  std::string interval;
  std::vector<double> upper95;
};

// dH/du for u = σ (MMSE/σ³), log σ (MMSE/σ²) or λ = −2 log σ (MMSE/(2σ²), magnitude).
struct RateSeries {
  std::string coordinate;  // "sigma", "log_sigma" or "lambda"
  std::string formula;
  std::vector<double> value;
  std::vector<double> standardError;
};

// Averages over queries of the empirical posterior's shape.
struct PosteriorSeries {
  std::vector<double> maxWeight;
  std::vector<double> weightEntropy;  // nats
  std::vector<double> effectiveSampleSize;
  double prunedWeightBound = 0.0;  // total weight dropped per query is at most this
  double pruneLogRatio = 0.0;      // τ: weights below e^−τ of the largest were dropped
  bool empty() const { return maxWeight.empty(); }
};

struct Profile {
  std::string kind;  // one of kProfileKinds: how the MMSE curve was obtained (profileKindMeaning)
  std::vector<double> sigma;
  int64_t dim = 0;          // D
  int64_t datasetSize = 0;  // N of the prior (empirical) or of the evaluation set (checkpoint)
  int64_t queries = 0;      // Monte Carlo queries per level
  double sigmaData = 0.0;   // σ_data of the data (data/statistics.h); 0: not recorded
  std::vector<MmseEstimate> estimates;  // estimates.front() is the primary one
  PosteriorSeries posterior;            // empty for checkpoint profiles
  std::vector<RateSeries> rates;        // from the primary estimate
  nlohmann::json provenance = nlohmann::json::object();

  int levels() const { return static_cast<int>(sigma.size()); }
  // A profile of `kind` on these levels with their facts (σ, D, N, queries, σ_data): no estimate,
  // posterior, rate or provenance yet, for a curve computed on another's grid.
  Profile onSameLevels(std::string kind) const;
  const MmseEstimate& primary() const { return estimates.front(); }
  const MmseEstimate* estimate(const std::string& name) const;
  const RateSeries* rate(const std::string& coordinate) const;
};

// What a profile's curve is (THEORY §3, §4, §10):
//  "empirical"        the dataset as prior, queries from that same dataset (memorises at small σ);
//  "held-out"         the dataset as prior, queries from held-out samples (population upper
//                     bound: the empirical posterior's risk);
//  "held-out-wiener"  the prior's Wiener filter scored on held-out samples (upper bound);
//  "held-out-patch"   the prior's patch-local Wiener filter on held-out samples (upper bound);
//  "gaussian"         the plug-in Wiener MMSE of the sample covariance (an estimate, biased low);
//  "bound"            per level the held-out member chosen on a selection half of the points,
//                     scored on the evaluation half (an upper bound with an honest interval);
//  "checkpoint"       a trained denoiser's x0 error (upper bound where evaluated on held-out data);
//  "table"            a curve read from a CSV table without a kind.
extern const char* const kProfileKinds[8];
bool isProfileKind(const std::string& kind);
// "empirical, held-out, …, table": the kinds for error messages.
std::string profileKindList();
// One line saying what the curve of that kind means, for legends, tooltips and summaries.
std::string profileKindMeaning(const std::string& kind);

constexpr double kNormal95 = 1.959963984540054;
// How ciLow and ciHigh are formed, for readers of the profile file ("mmse.interval").
constexpr const char* kMmseInterval =
    "normal approximation: mean +- 1.96 standard errors, the lower end clipped at 0";

// Summarises per-query values laid out [level * queries + query].
MmseEstimate summarizeEstimate(std::string name, std::string description,
                               const std::vector<double>& perQuery, int levels, int64_t queries);
// Summarises per-point values laid out [level * points + point], each point an independent draw
// from the population (its value already averaged over that point's noise draws): mean,
// se = sd/√n over points, a two-sided 95 % Student-t interval with n − 1 degrees of freedom and
// the one-sided 95 % upper end mean + t₀.₉₅·se. Because the unit is the point, the standard
// error counts the finite held-out set (the 1/H term), not only the noise.
MmseEstimate summarizeOverPoints(std::string name, std::string description,
                                 const std::vector<double>& perPoint, int levels, int64_t points);
std::vector<double> averageOverQueries(const std::vector<double>& perQuery, int levels,
                                       int64_t queries);

// The three rate curves of THEORY §2 from an MMSE estimate on the σ grid.
std::vector<RateSeries> computeRates(const std::vector<double>& sigma, const MmseEstimate& mmse);

// ∫ MMSE/σ² d log σ over the grid (trapezoid): log N for N distinct points (THEORY §3).
double integrateRateOverLogSigma(const Profile& profile);

}  // namespace noisescope
