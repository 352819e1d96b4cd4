#include "schedule/entropic.h"

#include <algorithm>
#include <cmath>

#include "profile/profile.h"
#include "schedule/allocation.h"
#include "util/error.h"
#include "util/math_constants.h"

namespace noisescope::schedule {

namespace {
constexpr int kSubintervals = 8;  // Simpson panels per bin when integrating a rate

// ∫ f dℓ over [a, b] by composite Simpson.
template <class F>
double simpson(F f, double a, double b) {
  const int n = kSubintervals;
  const double h = (b - a) / n;
  double sum = f(a) + f(b);
  for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * f(a + i * h);
  return sum * h / 3.0;
}

template <class F>
std::vector<double> binIntegrals(F f, const LogSigmaGrid& grid) {
  std::vector<double> out(grid.bins());
  for (int b = 0; b < grid.bins(); ++b)
    out[b] = std::max(0.0, simpson(f, grid.edges[b], grid.edges[b + 1]));
  return out;
}

RateProfile prepared(const RateProfile& profile, double smoothing) {
  profile.validate();
  return smoothing > 0.0 ? smoothProfile(profile, smoothing) : profile;
}

void describeProfile(Schedule& s, const RateProfile& profile, double smoothing) {
  s.info.setNote("profile", profile.source);
  s.info.setNote("profile-kind", profile.kind);
  s.info.setParameter("profile_levels", static_cast<double>(profile.sigma.size()));
  s.info.setParameter("smoothing", smoothing);
}
}  // namespace

void RateProfile::validate() const {
  const std::string where = source.empty() ? "profile" : source;
  if (sigma.size() != mmse.size()) throw InputError(where, "σ and MMSE differ in length");
  if (sigma.size() < 2) throw InputError(where, "a profile needs at least two σ levels");
  for (std::size_t i = 0; i < sigma.size(); ++i) {
    if (!(sigma[i] > 0.0) || !std::isfinite(sigma[i]))
      throw InputError(where, "σ must be finite and > 0 (level " + std::to_string(i + 1) + ")");
    if (i > 0 && !(sigma[i] > sigma[i - 1]))
      throw InputError(where,
                       "σ must be strictly increasing (level " + std::to_string(i + 1) + ")");
    if (!(mmse[i] >= 0.0) || !std::isfinite(mmse[i]))
      throw InputError(where, "MMSE must be finite and ≥ 0 (level " + std::to_string(i + 1) + ")");
  }
  bool anyPositive = false;
  for (double m : mmse) anyPositive |= m > 0.0;
  if (!anyPositive) throw InputError(where, "MMSE is zero at every level");
}

double RateProfile::rateLogSigma(double ell) const {
  const std::size_t n = sigma.size();
  const double first = std::log(sigma.front()), last = std::log(sigma.back());
  if (ell <= first) return mmse.front() / (sigma.front() * sigma.front());
  if (ell >= last) return mmse.back() * std::exp(-2.0 * ell);
  // Locate the interval in ℓ by bisection (σ increases, so log σ does): the first level at or
  // above ℓ among 1..n−2, else n−1. A linear scan took a log per level, and the comparison calls
  // this for every bin of every schedule, on the GUI thread (bench/soak/RESULTS.md).
  const auto above = std::partition_point(sigma.begin() + 1, sigma.begin() + (n - 1),
                                          [ell](double s) { return std::log(s) < ell; });
  const std::size_t hi = static_cast<std::size_t>(above - sigma.begin());
  const double l0 = std::log(sigma[hi - 1]), l1 = std::log(sigma[hi]);
  const double r0 = mmse[hi - 1] / (sigma[hi - 1] * sigma[hi - 1]);
  const double r1 = mmse[hi] / (sigma[hi] * sigma[hi]);
  const double t = (ell - l0) / (l1 - l0);
  return r0 + t * (r1 - r0);
}

RateProfile rateProfileFrom(const Profile& profile, const std::string& source) {
  if (profile.estimates.empty()) throw InputError(source, "the profile has no MMSE estimate");
  RateProfile out;
  out.sigma = profile.sigma;
  out.mmse = profile.primary().mean;
  // Monte Carlo noise can push a tiny MMSE slightly below zero; the rate cannot be negative.
  for (double& m : out.mmse)
    if (m < 0.0 && m > -1e-9 * (1.0 + std::abs(profile.primary().mean.back()))) m = 0.0;
  out.source = source;
  out.kind = profile.kind;
  out.dim = profile.dim;
  out.sigmaData = profile.sigmaData;
  out.validate();
  return out;
}

RateProfile smoothProfile(const RateProfile& profile, double bandwidth) {
  profile.validate();
  if (!(bandwidth > 0.0)) return profile;
  RateProfile out = profile;
  const std::size_t n = profile.sigma.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (profile.mmse[i] <= 0.0) continue;
    const double li = std::log(profile.sigma[i]);
    double num = 0.0, den = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      if (profile.mmse[j] <= 0.0) continue;
      const double lj = std::log(profile.sigma[j]);
      const double k = std::exp(-0.5 * (li - lj) * (li - lj) / (bandwidth * bandwidth));
      num += k * std::log(profile.mmse[j] / (profile.sigma[j] * profile.sigma[j]));
      den += k;
    }
    out.mmse[i] = std::exp(num / den) * profile.sigma[i] * profile.sigma[i];
  }
  return out;
}

double RateGate::at(double sigma) const {
  if (!(c > 0.0)) return 1.0;  // c = 0: no gate
  const double sn = std::pow(sigma, n);
  return sn / (sn + std::pow(c, n));
}

void RateGate::validate(const std::string& source) const {
  if (!(c >= 0.0) || !std::isfinite(c) || !(n > 0.0) || !std::isfinite(n))
    throw InputError(source, "the gate needs c ≥ 0 (0: no gate) and n > 0");
}

double gatedRate(double rateLogSigma, double sigma, const RateGate& gate) {
  return rateLogSigma * gate.at(sigma);
}

double entropicDensity(EntropicLaw law, double gatedRateLogSigma, double logSigma,
                       Coordinate coordinate) {
  const double rate = std::max(0.0, gatedRateLogSigma);
  if (law == EntropicLaw::InfoNoise) return rate;
  const double jac = logSigmaPerUnit(logSigma, coordinate);  // |dℓ/du|
  // π_u = √(r_g per du) = √(r_g·|dℓ/du|); π_ℓ = π_u·|du/dℓ|. The gate is inside r_g: under the
  // root.
  return std::sqrt(rate * jac) / jac;
}

Schedule entropicAllocation(EntropicLaw law, const RateProfile& profile, const LogSigmaGrid& grid,
                            const RateGate& gate, Coordinate coordinate) {
  const char* name = law == EntropicLaw::InfoNoise ? "infonoise" : "sqrt-entropy";
  gate.validate(name);
  if (law == EntropicLaw::SqrtEntropy && coordinate != Coordinate::Sigma &&
      coordinate != Coordinate::LogSigma && coordinate != Coordinate::Lambda)
    throw InputError(name, "the coordinate must be sigma, log-sigma or lambda");
  profile.validate();
  auto density = [&](double ell) {
    const double sigma = std::exp(ell);
    return entropicDensity(law, gatedRate(profile.rateLogSigma(ell), sigma, gate), ell, coordinate);
  };
  Schedule s = Schedule::fromBinMasses(grid, binIntegrals(density, grid));
  s.info.setParameter("gate_c", gate.c);
  s.info.setParameter("gate_n", gate.n);
  return s;
}

double infoNoiseGate(double sigma, double c, double n) {
  return RateGate{c, n}.at(sigma);
}

Schedule infoNoiseAllocation(const RateProfile& raw, const LogSigmaGrid& grid,
                             const InfoNoiseOptions& options) {
  const RateProfile profile = prepared(raw, options.smoothing);
  Schedule s = entropicAllocation(EntropicLaw::InfoNoise, profile, grid,
                                  RateGate{options.gateC, options.gateN});
  s.info.kind = "infonoise-allocation";
  s.info.label = "ρ ∝ MMSE/σ² · g";
  describeProfile(s, profile, options.smoothing);
  return s;
}

Schedule infoNoiseSchedule(const RateProfile& profile, const LogSigmaGrid& grid,
                           const InfoNoiseOptions& options) {
  const Schedule rho = infoNoiseAllocation(profile, grid, options);
  Schedule s = samplingForAllocation(rho, options.weight);
  s.info.kind = "infonoise";
  s.info.label = "InfoNoise";
  s.info.setNote("formula", "π ∝ ρ/w, ρ ∝ (MMSE/σ²)·σⁿ/(σⁿ+cⁿ)");
  return s;
}

Schedule sqrtEntropySchedule(const RateProfile& raw, const LogSigmaGrid& grid,
                             const SqrtEntropyOptions& options) {
  const RateProfile profile = prepared(raw, options.smoothing);
  Schedule s = entropicAllocation(EntropicLaw::SqrtEntropy, profile, grid,
                                  RateGate{options.gateC, options.gateN}, options.coordinate);
  s.lossWeight = options.weight;
  s.info.kind = "sqrt-entropy";
  s.info.label = std::string("√-entropy in ") + axisLabel(options.coordinate);
  s.info.setNote("coordinate", toString(options.coordinate));
  s.info.setNote("formula",
                 "π(u) ∝ √((MMSE/σ²)·σⁿ/(σⁿ+cⁿ) per du), moved to log σ with the Jacobian");
  describeProfile(s, profile, options.smoothing);
  return s;
}

std::vector<double> entropicTimeGrid(const Schedule& allocation, int steps) {
  if (steps < 2 || steps > 100000) throw InputError("steps", "need between 2 and 100000 steps");
  std::vector<double> out(steps);
  for (int k = 0; k < steps; ++k)
    out[k] = allocation.quantileSigma(static_cast<double>(k) / (steps - 1));
  return out;
}

RateProfile gaussianProfile(double s, int dim, const std::vector<double>& sigma) {
  RateProfile p;
  p.sigma = sigma;
  for (double x : sigma) p.mmse.push_back(dim * s * s * x * x / (s * s + x * x));
  p.source = "analytic Gaussian";
  p.kind = "analytic";
  return p;
}

double twoPointMmse(double a, double sigma) {
  // MMSE = a² − E[m(y)²], y = a + σε, m(y) = a·tanh(a·y/σ²); trapezoid over ε ∈ [−10, 10].
  const int n = 4000;
  const double lo = -10.0, h = 20.0 / n;
  double e = 0.0;
  for (int i = 0; i <= n; ++i) {
    const double eps = lo + i * h;
    const double m = a * std::tanh(a * (a + sigma * eps) / (sigma * sigma));
    const double weight =
        std::exp(-0.5 * eps * eps) / std::sqrt(2.0 * kPi) * (i == 0 || i == n ? 0.5 : 1.0);
    e += weight * m * m * h;
  }
  return std::max(0.0, a * a - e);
}

RateProfile twoPointProfile(double a, const std::vector<double>& sigma) {
  RateProfile p;
  p.sigma = sigma;
  for (double x : sigma) p.mmse.push_back(twoPointMmse(a, x));
  p.source = "analytic two-point";
  p.kind = "analytic";
  return p;
}

}  // namespace noisescope::schedule
