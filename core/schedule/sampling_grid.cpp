#include "schedule/sampling_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "schedule/allocation.h"
#include "schedule/engine_defaults.h"
#include "schedule/sampling_rate.h"
#include "util/error.h"
#include "util/number_text.h"
#include "util/setting_names.h"
#include "util/spec_string.h"

namespace noisescope::schedule {

namespace {

void requireSteps(const SamplingGridSpec& spec, int steps) {
  if (steps < 2)
    throw InputError(spec.text.empty() ? std::string(settings::kSamplingGrid) : spec.text,
                     "a sampling grid needs at least 2 σ levels, not " + std::to_string(steps));
}

std::vector<double> withZero(std::vector<double> levels) {
  levels.push_back(0.0);
  return levels;
}

std::vector<double> karras(double sigmaMin, double sigmaMax, double rho, int n) {
  const double a = std::pow(sigmaMax, 1.0 / rho), b = std::pow(sigmaMin, 1.0 / rho);
  std::vector<double> s(n);
  for (int i = 0; i < n; ++i) s[i] = std::pow(a + double(i) / double(n - 1) * (b - a), rho);
  s.front() = sigmaMax;  // exact ends, whatever pow rounds to
  s.back() = sigmaMin;
  return s;
}

// Flow matching's shift and its inverse on s ∈ (0, 1).
double shifted(double t, double k) {
  return k * t / (1.0 + (k - 1.0) * t);
}
double unshifted(double s, double k) {
  return s / (k - (k - 1.0) * s);
}

std::vector<double> flowGrid(const SamplingGridSpec& spec, int n) {
  const double k = spec.shift;
  const double tHi = unshifted(spec.sigmaMax / (1.0 + spec.sigmaMax), k);
  const double tLo = unshifted(spec.sigmaMin / (1.0 + spec.sigmaMin), k);
  std::vector<double> s(n);
  for (int i = 0; i < n; ++i) {
    const double t = tHi + double(i) / double(n - 1) * (tLo - tHi);
    const double f = shifted(t, k);
    s[i] = f / (1.0 - f);
  }
  s.front() = spec.sigmaMax;
  s.back() = spec.sigmaMin;
  return s;
}

std::vector<double> entropicGrid(const SamplingGridSpec& spec, const RateProfile& profile, int n) {
  // The increment density on a fine ℓ grid, its cumulative integral (trapezoid), then equal
  // increments from the top down, inverted linearly between the fine points.
  constexpr int kFine = 8192;
  const double lo = std::log(spec.sigmaMin), hi = std::log(spec.sigmaMax);
  const RateGate gate{spec.gateC, spec.gateN};
  std::vector<double> ell(kFine + 1), cum(kFine + 1, 0.0);
  if (spec.increment == EntropicIncrement::Rescaled && !(profile.dim > 0 && profile.sigmaData > 0))
    throw InputError(profile.source,
                     "the rescaled increment needs the profile's D and σ_data (not recorded)");
  auto density = [&](double l) {
    const double r = std::max(gatedRate(profile.rateLogSigma(l), std::exp(l), gate), 0.0);
    switch (spec.increment) {
      case EntropicIncrement::SqrtRate:
        return std::sqrt(r);
      case EntropicIncrement::Rescaled: {
        // Relative to Gaussian data of the same σ_data: r_G = D·σ_d²/(σ_d² + σ²) (THEORY §6).
        const double d2 = profile.sigmaData * profile.sigmaData, s2 = std::exp(2.0 * l);
        return r / (double(profile.dim) * d2 / (d2 + s2));
      }
      case EntropicIncrement::Rate:
        break;
    }
    return r;
  };
  double previous = density(lo);
  ell[0] = lo;
  for (int j = 1; j <= kFine; ++j) {
    ell[j] = lo + (hi - lo) * double(j) / kFine;
    const double f = density(ell[j]);
    cum[j] = cum[j - 1] + 0.5 * (previous + f) * (ell[j] - ell[j - 1]);
    previous = f;
  }
  double total = cum.back();
  if (!(total > 0.0) || !std::isfinite(total))
    throw InputError(profile.source, "the profile's rate integrates to " + numberText(total, 10) +
                                         " on [σ_min, σ_max]: no entropic grid there");
  if (spec.balanced) {
    // Each unit of the budget: the increment's share plus log σ's share (THEORY §6).
    for (int j = 0; j <= kFine; ++j) cum[j] = cum[j] / total + (ell[j] - lo) / (hi - lo);
    total = cum.back();
  }
  std::vector<double> s(n);
  for (int i = 0; i < n; ++i) {
    const double target = total * (1.0 - double(i) / double(n - 1));
    const auto it = std::lower_bound(cum.begin(), cum.end(), target);
    const size_t j = std::clamp<size_t>(it - cum.begin(), 1, kFine);
    const double span = cum[j] - cum[j - 1];
    const double w = span > 0.0 ? (target - cum[j - 1]) / span : 1.0;
    s[i] = std::exp(ell[j - 1] + std::clamp(w, 0.0, 1.0) * (ell[j] - ell[j - 1]));
  }
  s.front() = spec.sigmaMax;
  s.back() = spec.sigmaMin;
  return s;
}

std::vector<double> quantileGrid(const SamplingGridSpec& spec, const Schedule& pi, int n) {
  const Schedule curve = spec.of == QuantilesOf::Phi ? effectiveAllocation(pi) : pi;
  std::vector<double> s = entropicTimeGrid(curve, n);  // ascending
  std::reverse(s.begin(), s.end());
  for (int i = 0; i + 1 < n; ++i)
    if (!(s[i] > s[i + 1]))
      throw InputError(spec.text, "the schedule's quantiles repeat σ = " + numberText(s[i], 10) +
                                      " (an atomic π): no grid of distinct levels");
  return s;
}

}  // namespace

std::vector<int> ddpmTimesteps(const SamplingGridSpec& spec, int steps) {
  requireSteps(spec, steps);
  const int T = spec.trainTimesteps;
  if (steps > T)
    throw InputError(spec.text.empty() ? std::string(settings::kSamplingGrid) : spec.text,
                     std::to_string(steps) + " inference steps exceed the " + std::to_string(T) +
                         " training timesteps");
  std::vector<int> t(steps);
  // np.round rounds half to even, as nearbyint does in the default rounding mode.
  switch (spec.spacing) {
    case DdpmSpacing::Linspace: {
      const double step = double(T - 1) / double(steps - 1);
      for (int i = 0; i < steps; ++i) t[steps - 1 - i] = int(std::nearbyint(double(i) * step));
      t.front() = T - 1;
      break;
    }
    case DdpmSpacing::Leading: {
      const int ratio = T / steps;
      for (int i = 0; i < steps; ++i) t[steps - 1 - i] = i * ratio + spec.stepsOffset;
      break;
    }
    case DdpmSpacing::Trailing: {
      const double ratio = double(T) / double(steps);
      for (int i = 0; i < steps; ++i) t[i] = int(std::nearbyint(double(T) - double(i) * ratio)) - 1;
      break;
    }
  }
  if (t.front() > T - 1)
    throw InputError(spec.text.empty() ? std::string(settings::kSamplingGrid) : spec.text,
                     "steps_offset " + std::to_string(spec.stepsOffset) + " puts timestep " +
                         std::to_string(t.front()) + " past the table's last, " +
                         std::to_string(T - 1));
  return t;
}

std::vector<double> ddpmSigmaTable(BetaSchedule schedule, int trainTimesteps, double betaStart,
                                   double betaEnd) {
  std::vector<double> sigma(trainTimesteps);
  double logAlphaBar = 0.0;
  for (int k = 0; k < trainTimesteps; ++k) {
    const double f = trainTimesteps > 1 ? double(k) / double(trainTimesteps - 1) : 0.0;
    double beta;
    if (schedule == BetaSchedule::ScaledLinear) {
      const double r = std::sqrt(betaStart) + f * (std::sqrt(betaEnd) - std::sqrt(betaStart));
      beta = r * r;
    } else {
      beta = betaStart + f * (betaEnd - betaStart);
    }
    logAlphaBar += std::log1p(-beta);
    // (1 − ᾱ)/ᾱ = e^{−log ᾱ} − 1, without cancellation at small t.
    sigma[k] = std::sqrt(std::expm1(-logAlphaBar));
  }
  return sigma;
}

double ddpmTimestepOfSigma(const std::vector<double>& table, double sigma) {
  const double l = std::log(std::max(sigma, 1e-10));
  const int n = static_cast<int>(table.size());
  if (l <= std::log(table.front())) return 0.0;
  if (l >= std::log(table.back())) return double(n - 1);
  int i = 0;
  while (i + 2 < n && std::log(table[i + 1]) <= l) ++i;
  const double a = std::log(table[i]), b = std::log(table[i + 1]);
  return double(i) + std::clamp((l - a) / (b - a), 0.0, 1.0);
}

ResolvedGrid resolveSamplingGrid(const SamplingGridSpec& given, const SamplingGridInputs& inputs) {
  ResolvedGrid out;
  out.spec = given;
  SamplingGridSpec& spec = out.spec;
  const std::string source = given.text.empty() ? canonicalSpec(given) : given.text;
  const SamplingRate* rate = inputs.rate;
  if (spec.family == GridFamily::Auto) {
    if (!rate) {  // Karras ρ = 7 on the spec's range, with its guard, margin and text
      SamplingGridSpec karras;
      std::tie(karras.sigmaMin, karras.sigmaMax, karras.guard, karras.margin, karras.text) =
          std::tie(spec.sigmaMin, spec.sigmaMax, spec.guard, spec.margin, given.text);
      spec = karras;
      out.notes.push_back("auto: no profile, so Karras rho=7 (the default without data)");
      return out;
    }
    const AutoGridChoice choice = chooseAutoGrid(*rate, spec.sigmaMin, spec.sigmaMax);
    SamplingGridSpec entropic;
    entropic.family = GridFamily::Entropic;
    entropic.rate = EntropicRate::Sampling;
    entropic.increment = choice.increment;
    entropic.sigmaMin = choice.sigmaMin;
    entropic.sigmaMax = choice.sigmaMax;
    entropic.gateC = choice.gateC;
    entropic.balanced = true;
    entropic.gateN = defaults::kGateN;
    entropic.guard = spec.guard;
    entropic.margin = spec.margin;
    entropic.profile = spec.profile;
    entropic.text = given.text;
    spec = entropic;
    out.notes.push_back("auto: " + choice.rule + ", " + canonicalSpec(spec) + "; " + choice.why);
  }
  const bool needsRate =
      spec.sigmaMinFromRate || spec.gateAuto ||
      (spec.family == GridFamily::Entropic && spec.rate == EntropicRate::Sampling);
  if (needsRate && !rate)
    throw InputError(source,
                     "needs the sampling rate of a profile (sigma_min=profile, "
                     "gate_c=auto and rate=sampling read it)");
  if (spec.sigmaMinFromRate) {
    const double v = rate->vanishingSigma(spec.sigmaMin, spec.sigmaMax);
    spec.sigmaMinFromRate = false;
    if (v > 0.0) {
      spec.sigmaMin = std::min(v, 0.5 * spec.sigmaMax);
      out.notes.push_back("sigma_min=profile: " + numberText(spec.sigmaMin, 10) + ", where " +
                          numberText(kResidualEntropy, 10) +
                          " nats of H[x0|x_σ] at most (the sampling rate's upper end) are left "
                          "below");
    } else {
      out.notes.push_back("sigma_min=profile: the sampling rate does not vanish above " +
                          numberText(spec.sigmaMin, 10) + ", so sigma_min stays " +
                          numberText(spec.sigmaMin, 10));
    }
  }
  if (spec.gateAuto) {
    spec.gateAuto = false;
    spec.gateC = defaults::autoGateC(rate->plusMinusOne);
    out.notes.push_back(std::string("gate_c=auto: c = ") + numberText(spec.gateC, 10) +
                        (rate->plusMinusOne ? " (±1 data)" : " (continuous data)"));
  }
  return out;
}

std::vector<double> buildSamplingGrid(const SamplingGridSpec& given, int steps,
                                      const SamplingGridInputs& inputs) {
  requireSteps(given, steps);
  const SamplingGridSpec spec = resolveSamplingGrid(given, inputs).spec;
  const std::string source = spec.text.empty() ? canonicalSpec(spec) : spec.text;
  std::vector<double> levels;
  switch (spec.family) {
    case GridFamily::Karras:
      levels = karras(spec.sigmaMin, spec.sigmaMax, spec.rho, steps);
      break;
    case GridFamily::UniformSigma:
      levels.resize(steps);
      for (int i = 0; i < steps; ++i)
        levels[i] = spec.sigmaMax + double(i) / double(steps - 1) * (spec.sigmaMin - spec.sigmaMax);
      levels.back() = spec.sigmaMin;
      break;
    case GridFamily::LogSigma:
      levels.resize(steps);
      for (int i = 0; i < steps; ++i)
        levels[i] = std::exp(std::log(spec.sigmaMax) +
                             double(i) / double(steps - 1) *
                                 (std::log(spec.sigmaMin) - std::log(spec.sigmaMax)));
      levels.front() = spec.sigmaMax;
      levels.back() = spec.sigmaMin;
      break;
    case GridFamily::Ddpm: {
      const auto table =
          ddpmSigmaTable(spec.betaSchedule, spec.trainTimesteps, spec.betaStart, spec.betaEnd);
      for (int t : ddpmTimesteps(spec, steps)) levels.push_back(table[t]);
      break;
    }
    case GridFamily::Flow:
      levels = flowGrid(spec, steps);
      break;
    case GridFamily::Entropic:
      if (spec.rate == EntropicRate::Sampling) {
        levels =
            entropicGrid(spec, inputs.rate->asRateProfile(spec.sigmaMin, spec.sigmaMax), steps);
        break;
      }
      if (!inputs.profile)
        throw InputError(source, "the entropic grid needs a profile (profile=FILE)");
      levels = entropicGrid(spec, *inputs.profile, steps);
      break;
    case GridFamily::Auto:  // resolved above
      break;
    case GridFamily::Quantiles:
      if (!inputs.schedule || inputs.schedule->empty())
        throw InputError(source, "the quantile grid needs a schedule (run=DIR or schedule=FILE)");
      levels = quantileGrid(spec, *inputs.schedule, steps);
      break;
  }
  std::vector<double> sigma = withZero(std::move(levels));
  if (spec.guard == RatioGuard::Cap)
    sigma = capRatios(sigma, ratioLimit(steps, sigma[steps - 1], sigma[0], spec.margin));
  return sigma;
}

double largestStepRatio(const std::vector<double>& sigma) {
  double largest = 1.0;
  for (size_t i = 0; i + 1 < sigma.size(); ++i)
    if (sigma[i + 1] > 0.0) largest = std::max(largest, sigma[i] / sigma[i + 1]);
  return largest;
}

double ratioLimit(int steps, double sigmaMin, double sigmaMax, double margin) {
  if (steps < 2 || !(sigmaMin > 0.0) || !(sigmaMax > sigmaMin))
    throw InputError("ratio limit", "needs N ≥ 2 and 0 < σ_min < σ_max");
  const double b = std::pow(sigmaMin, 1.0 / 7.0);
  const double h = (std::pow(sigmaMax, 1.0 / 7.0) - b) / double(steps - 1);
  return margin * std::pow((b + h) / b, 7.0);
}

std::vector<int> stepsOverRatio(const std::vector<double>& sigma, double limit) {
  std::vector<int> over;
  for (size_t i = 0; i + 1 < sigma.size(); ++i)
    if (sigma[i + 1] > 0.0 && sigma[i] / sigma[i + 1] > limit * (1.0 + 1e-12))
      over.push_back(static_cast<int>(i));
  return over;
}

std::vector<double> capRatios(const std::vector<double>& sigma, double limit) {
  std::vector<double> levels(sigma);
  if (!levels.empty() && levels.back() == 0.0) levels.pop_back();
  const int n = static_cast<int>(levels.size());
  if (n < 2) throw InputError("ratio cap", "needs at least 2 σ levels");
  std::vector<double> d(n - 1);
  double total = 0.0, smallest = INFINITY;
  for (int i = 0; i + 1 < n; ++i) {
    d[i] = std::log(levels[i] / levels[i + 1]);
    if (!(d[i] > 0.0)) throw InputError("ratio cap", "σ levels are not strictly descending");
    total += d[i];
    smallest = std::min(smallest, d[i]);
  }
  const double cap = std::log(limit);
  if (stepsOverRatio(sigma, limit).empty()) return sigma;  // safe as it is: left bit for bit
  if (double(n - 1) * cap < total * (1.0 - 1e-12))
    throw InputError("ratio cap", std::to_string(n) + " levels with steps at most ×" +
                                      numberText(limit, 10) + " cannot span σ " +
                                      numberText(levels.back(), 10) + " .. " +
                                      numberText(levels.front(), 10) + "; take more steps");
  auto spanned = [&](double c) {
    double s = 0.0;
    for (double w : d) s += std::min(c * w, cap);
    return s;
  };
  // The smallest c ≥ 1 whose capped widths span the range (bisection: spanned grows with c).
  double lo = 1.0, hi = std::max(1.0, cap / smallest);
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (spanned(mid) < total ? lo : hi) = mid;
  }
  std::vector<double> out(n);
  out[0] = levels[0];
  double l = std::log(levels[0]);
  for (int i = 0; i + 1 < n; ++i) {
    l -= std::min(hi * d[i], cap);
    out[i + 1] = std::exp(l);
  }
  out[n - 1] = levels[n - 1];
  out.push_back(0.0);
  return out;
}

GridExports gridExports(const SamplingGridSpec& spec, const std::vector<double>& sigma) {
  GridExports e;
  e.kdiffusionSigmas = sigma;
  e.diffusersSigmas = sigma;
  const auto table =
      ddpmSigmaTable(spec.betaSchedule, spec.trainTimesteps, spec.betaStart, spec.betaEnd);
  e.timestepsTable = std::string(betaScheduleName(spec.betaSchedule)) + " betas " +
                     numberText(spec.betaStart, 10) + " .. " + numberText(spec.betaEnd, 10) +
                     ", T = " + std::to_string(spec.trainTimesteps);
  std::vector<double> levels(sigma);
  if (!levels.empty() && levels.back() == 0.0) levels.pop_back();
  const bool exactDdpm = spec.family == GridFamily::Ddpm && spec.guard == RatioGuard::Warn;
  std::vector<int> integer;
  if (exactDdpm) integer = ddpmTimesteps(spec, static_cast<int>(levels.size()));
  for (size_t i = 0; i < levels.size(); ++i) {
    e.diffusersTimesteps.push_back(exactDdpm ? double(integer[i])
                                             : ddpmTimestepOfSigma(table, levels[i]));
    const double s = levels[i] / (1.0 + levels[i]);
    e.flowSigmas.push_back(s);
    e.flowTimesteps.push_back(s * spec.trainTimesteps);
  }
  return e;
}

}  // namespace noisescope::schedule
