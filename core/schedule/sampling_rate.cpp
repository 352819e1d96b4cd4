#include "schedule/sampling_rate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "profile/profile.h"
#include "schedule/engine_defaults.h"
#include "util/error.h"
#include "util/number_text.h"

namespace noisescope::schedule {

namespace {

constexpr double kTiny = 1e-300;

// Log-linear interpolation in log σ of a positive curve on ascending levels; clamps at the ends.
double interpolateLog(const std::vector<double>& sigma, const std::vector<double>& value,
                      double s) {
  if (s <= sigma.front()) return value.front();
  if (s >= sigma.back()) return value.back();
  const auto above = std::upper_bound(sigma.begin(), sigma.end(), s);
  const size_t hi = static_cast<size_t>(above - sigma.begin());
  const double t = std::log(s / sigma[hi - 1]) / std::log(sigma[hi] / sigma[hi - 1]);
  const double a = std::log(std::max(value[hi - 1], kTiny)),
               b = std::log(std::max(value[hi], kTiny));
  return std::exp(a + t * (b - a));
}

void checkCurve(const std::vector<double>& curve, size_t levels, const std::string& name) {
  if (!curve.empty() && curve.size() != levels)
    throw InputError("sampling rate", "the " + name + " curve has " + std::to_string(curve.size()) +
                                          " values on " + std::to_string(levels) + " levels");
}

// The coordinate bound D·mmse₂(σ) of ±1 data: the risk of the per-coordinate denoiser tanh(y/σ²),
// whatever the law of the patterns (by symmetry its error has the same law for x = +1 and −1).
double coordinateBound(int64_t dim, double sigma) {
  return double(dim) * twoPointMmse(1.0, sigma);
}

}  // namespace

const char* toString(RateSource source) {
  switch (source) {
    case RateSource::Vanished:
      return "vanished";
    case RateSource::Tight:
      return "tight";
    case RateSource::Bracket:
      return "bracket";
    case RateSource::Coordinate:
      return "coordinate";
    case RateSource::Bound:
      return "bound";
    case RateSource::Gate:
      return "gate";
  }
  return "bound";
}

SamplingRate estimateSamplingRate(const SamplingRateInputs& in) {
  const size_t n = in.sigma.size();
  if (n < 2) throw InputError("sampling rate", "needs at least 2 σ levels");
  for (size_t i = 0; i < n; ++i)
    if (!(in.sigma[i] > 0.0) || (i > 0 && !(in.sigma[i] > in.sigma[i - 1])))
      throw InputError("sampling rate", "σ levels must be positive and increasing");
  checkCurve(in.empirical, n, "empirical");
  checkCurve(in.heldOut, n, "held-out");
  checkCurve(in.bound, n, "bound");
  if (in.bound.empty() && in.heldOut.empty() && !(in.plusMinusOne && in.dim > 0))
    throw InputError("sampling rate",
                     "needs an upper curve: a population bound or a held-out posterior profile");
  if (in.plusMinusOne && in.dim <= 0)
    throw InputError("sampling rate", "±1 data need the dimension D for the coordinate bound");

  SamplingRate r;
  r.sigma = in.sigma;
  r.dim = in.dim;
  r.sigmaData = in.sigmaData;
  r.plusMinusOne = in.plusMinusOne;
  r.gateC = defaults::autoGateC(in.plusMinusOne);
  // U per level and which curve gave it.
  std::vector<std::string> upperName(n);
  r.upper.assign(n, INFINITY);
  for (size_t i = 0; i < n; ++i) {
    auto take = [&](double v, const std::string& name) {
      if (v < r.upper[i]) {
        r.upper[i] = std::max(v, 0.0);
        upperName[i] = name;
      }
    };
    if (!in.bound.empty()) take(in.bound[i], "the population bound");
    if (!in.heldOut.empty()) take(in.heldOut[i], "the held-out posterior's risk");
    if (in.plusMinusOne) take(coordinateBound(in.dim, in.sigma[i]), "the ±1 coordinate bound");
  }
  // Non-decreasing from the top down: an upper end at σ' ≥ σ is one at σ too.
  for (size_t k = n - 1; k-- > 0;)
    if (r.upper[k + 1] < r.upper[k]) {
      r.upper[k] = r.upper[k + 1];
      const std::string suffix = " at a larger σ";
      const std::string& above = upperName[k + 1];
      upperName[k] = above.size() >= suffix.size() &&
                             above.compare(above.size() - suffix.size(), suffix.size(), suffix) == 0
                         ? above
                         : above + suffix;
    }
  const bool haveLower = !in.empirical.empty();
  if (haveLower) r.lower = in.empirical;
  for (size_t i = 0; i < n; ++i) {
    const double s2 = in.sigma[i] * in.sigma[i];
    const double u = r.upper[i];
    const bool coordinateWon = upperName[i].rfind("the ±1 coordinate bound", 0) == 0;
    if (u / s2 <= kNegligibleRate) {
      r.mmse.push_back(u);
      r.source.push_back(RateSource::Vanished);
      r.why.push_back("the upper end (" + upperName[i] + ") is a rate of " + numberText(u / s2, 3) +
                      " nats per log σ: nothing left to resolve");
    } else if (haveLower) {
      const double l = std::max(in.empirical[i], 0.0);
      if (u <= kTightRatio * l) {
        r.mmse.push_back(u);
        r.source.push_back(RateSource::Tight);
        r.why.push_back("bracket closed: " + upperName[i] + " is within ×" + numberText(u / l, 3) +
                        " of the empirical curve, so the prior resolves the data as the "
                        "population does");
      } else {
        r.mmse.push_back(std::sqrt(std::max(l, kTiny) * u));
        r.source.push_back(RateSource::Bracket);
        r.why.push_back(
            "bracket open (" + upperName[i] + " is " +
            (l > 0.0 ? "×" + numberText(u / l, 3) : std::string("above an empirical 0")) +
            " the empirical curve): its geometric midpoint");
      }
    } else if (coordinateWon) {
      r.mmse.push_back(u);
      r.source.push_back(RateSource::Coordinate);
      r.why.push_back(
          "±1 data: the per-coordinate denoiser's risk D·mmse₂(σ) is the smallest "
          "upper end");
    } else if (in.plusMinusOne) {
      r.mmse.push_back(u);
      r.source.push_back(RateSource::Bound);
      r.why.push_back(upperName[i] + ", below the ±1 coordinate bound here");
    } else {
      const double g = RateGate{r.gateC, defaults::kGateN}.at(in.sigma[i]);
      r.mmse.push_back(u * g);
      r.source.push_back(RateSource::Gate);
      r.why.push_back("only an upper end (" + upperName[i] +
                      ") for continuous data: times the "
                      "gate g(σ) = " +
                      numberText(g, 3) + " (c = " + numberText(r.gateC, 3) + ")");
    }
  }
  return r;
}

double SamplingRate::mmseAt(double s) const {
  if (s >= sigma.back()) return mmse.back();
  if (s >= sigma.front()) return interpolateLog(sigma, mmse, s);
  const double ratio = s / sigma.front();
  double m = mmse.front() * ratio * ratio;  // the rate held below the levels
  if (plusMinusOne && dim > 0) m = std::min(m, coordinateBound(dim, s));
  return m;
}

double SamplingRate::upperAt(double s) const {
  if (s >= sigma.back()) return upper.back();
  if (s >= sigma.front()) return interpolateLog(sigma, upper, s);
  const double ratio = s / sigma.front();
  double m = upper.front() * ratio * ratio;
  if (plusMinusOne && dim > 0) m = std::min(m, coordinateBound(dim, s));
  return m;
}

double SamplingRate::rateLogSigma(double logSigma) const {
  const double s = std::exp(logSigma);
  return mmseAt(s) / (s * s);
}

double SamplingRate::vanishingSigma(double lo, double hi, double residual) const {
  if (!(lo > 0.0) || !(hi > lo)) throw InputError("sampling rate", "needs 0 < σ_lo < σ_hi");
  const double l0 = std::log(lo), l1 = std::log(hi);
  auto upperRate = [&](double l) { return upperAt(std::exp(l)) * std::exp(-2.0 * l); };
  if (upperRate(l0) * (l1 - l0) > residual) return 0.0;
  constexpr int kFine = 4096;
  double cumulative = 0.0, previous = upperRate(l0);
  for (int j = 1; j <= kFine; ++j) {
    const double l = l0 + (l1 - l0) * double(j) / kFine;
    const double f = upperRate(l);
    const double next = cumulative + 0.5 * (previous + f) * (l1 - l0) / kFine;
    if (next > residual) return std::exp(l - (l1 - l0) / kFine);
    cumulative = next;
    previous = f;
  }
  return hi;
}

RateProfile SamplingRate::asRateProfile(double lo, double hi, int points) const {
  RateProfile p;
  for (int j = 0; j < points; ++j) {
    const double s = std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * j / (points - 1));
    p.sigma.push_back(s);
    p.mmse.push_back(mmseAt(s));
  }
  p.source = "sampling rate estimate";
  p.kind = "sampling";
  p.dim = dim;
  p.sigmaData = sigmaData;
  p.validate();
  return p;
}

std::string SamplingRate::extensionBelow() const {
  std::string text = "below σ = " + numberText(sigma.front(), 3) +
                     " the rate per log σ is held at its value there (MMSE ∝ σ², as for "
                     "continuous data)";
  if (plusMinusOne)
    text +=
        ", capped by the ±1 coordinate bound D·mmse₂(σ), which vanishes like "
        "e^{-1/(2σ²)}";
  return text;
}

std::string SamplingRate::extensionAbove() const {
  return "above σ = " + numberText(sigma.back(), 3) +
         " the MMSE is held at its value there (the total variance; rate ∝ σ⁻²)";
}

SamplingRateInputs samplingRateInputs(const Profile* empirical, const Profile* heldOut,
                                      const Profile* bound, bool plusMinusOne) {
  const Profile* grid = bound ? bound : heldOut;
  if (!grid)
    throw InputError("sampling rate",
                     "needs a population bound or a held-out posterior profile (the upper end)");
  SamplingRateInputs in;
  in.sigma = grid->sigma;
  in.plusMinusOne = plusMinusOne;
  auto onGrid = [&](const Profile* p) {
    std::vector<double> out;
    if (!p) return out;
    if (p->estimates.empty())
      throw InputError("sampling rate", "a '" + p->kind + "' profile has no MMSE estimate");
    for (double s : in.sigma) out.push_back(interpolateLog(p->sigma, p->primary().mean, s));
    if (in.dim == 0) in.dim = p->dim;
    if (in.sigmaData == 0.0) in.sigmaData = p->sigmaData;
    return out;
  };
  in.bound = onGrid(bound);
  in.heldOut = onGrid(heldOut);
  in.empirical = onGrid(empirical);
  if (bound) in.boundSource = bound->kind;
  if (heldOut) in.heldOutSource = heldOut->kind;
  if (empirical) in.empiricalSource = empirical->kind;
  return in;
}

bool plusMinusOneData(const Profile& profile) {
  const auto& provenance = profile.provenance;
  if (!provenance.is_object() || !provenance.contains("dataset")) return false;
  const auto& dataset = provenance["dataset"];
  if (!dataset.is_object() || !dataset.contains("scaling") || !dataset["scaling"].is_string())
    return false;
  const std::string scaling = dataset["scaling"].get<std::string>();
  return scaling == "{-1,+1}" || scaling == "one-hot ±1";
}

SamplingRate samplingRateFromProfiles(const std::vector<const Profile*>& profiles,
                                      std::vector<std::string>* ignored) {
  const Profile *empirical = nullptr, *heldOut = nullptr, *bound = nullptr;
  bool plusMinusOne = false;
  auto leaveOut = [&](const Profile& p, const std::string& why) {
    if (ignored) ignored->push_back("a '" + p.kind + "' profile: " + why);
  };
  for (const char* kind : {"bound", "checkpoint", "held-out-wiener", "held-out-patch"})
    for (const Profile* p : profiles)
      if (p && !bound && p->kind == kind) bound = p;
  for (const Profile* p : profiles) {
    if (!p) continue;
    plusMinusOne = plusMinusOne || plusMinusOneData(*p);
    if (p == bound) continue;
    if (p->kind == "empirical" && !empirical) {
      empirical = p;
    } else if (p->kind == "held-out" && !heldOut) {
      heldOut = p;
    } else if (p->kind == "gaussian" || p->kind == "table") {
      leaveOut(*p, "not a bound on the population's MMSE");
    } else if (bound && bound->kind == "bound") {
      leaveOut(*p,
               "a member the 'bound' profile already chose among (one upper curve, not the "
               "smallest of several: that is biased low)");
    } else {
      leaveOut(*p, "a second curve of a kind already used");
    }
  }
  if (!bound && !heldOut)
    throw InputError(
        "sampling rate",
        "needs an upper end: a bound, held-out, checkpoint or held-out Wiener profile");
  return estimateSamplingRate(samplingRateInputs(empirical, heldOut, bound, plusMinusOne));
}

AutoGridChoice chooseAutoGrid(const SamplingRate& rate, double sigmaLo, double sigmaHi) {
  AutoGridChoice c;
  c.sigmaMax = sigmaHi;
  const double vanish = rate.vanishingSigma(sigmaLo, sigmaHi);
  if (!(vanish > 0.0)) {
    c.sigmaMin = sigmaLo;
    c.gateC = defaults::autoGateC(rate.plusMinusOne);
    c.rule = "gated";
    c.why = "no upper end of the rate vanishes above σ = " + numberText(sigmaLo, 3) + " (" +
            numberText(rate.upperAt(sigmaLo) / (sigmaLo * sigmaLo), 3) +
            " nats per log σ there): information may keep arriving down to σ_min, as for "
            "continuous data, so entropic time on the gated rate (c = " +
            numberText(c.gateC, 3) + ") balanced with log σ, over the whole range";
    return c;
  }
  c.sigmaMin = std::min(std::max(sigmaLo, vanish), sigmaHi * 0.5);
  // The share of ∫ r̂ dℓ on [σ_min, σ_max] that rests on untrusted levels (bracket or gate),
  // each fine point taking the source of the level at or below it.
  constexpr int kFine = 2048;
  const double l0 = std::log(c.sigmaMin), l1 = std::log(sigmaHi);
  double total = 0.0, untrusted = 0.0;
  for (int j = 0; j <= kFine; ++j) {
    const double l = l0 + (l1 - l0) * double(j) / kFine;
    const double w = (j == 0 || j == kFine ? 0.5 : 1.0) * rate.rateLogSigma(l);
    const double s = std::exp(l);
    size_t level = 0;
    while (level + 1 < rate.sigma.size() && rate.sigma[level + 1] <= s) ++level;
    const RateSource src = rate.source[level];
    total += w;
    if (src == RateSource::Bracket || src == RateSource::Gate) untrusted += w;
  }
  c.untrustedShare = total > 0.0 ? untrusted / total : 0.0;
  if (c.untrustedShare <= 0.5) {
    c.increment = EntropicIncrement::Rate;
    c.rule = "entropic time";
  } else {
    c.increment = EntropicIncrement::SqrtRate;
    c.rule = "sqrt-rate";
  }
  c.why = "the rate vanishes (its upper end): at most " + numberText(kResidualEntropy, 3) +
          " nats of H[x0|x_σ] are left below σ = " + numberText(c.sigmaMin, 3) +
          ", so the grid ends there; " + numberText(100.0 * c.untrustedShare, 3) +
          " % of the information above it rests on bracket midpoints or gates, so " +
          (c.increment == EntropicIncrement::Rate
               ? std::string("entropic time (∫ r dℓ)")
               : std::string("∫ √r dℓ (a factor κ of error in r moves the steps by √κ only)")) +
          ", balanced with log σ (no step covers more than 2/(N−1) of the information or of "
          "log σ)";
  return c;
}

}  // namespace noisescope::schedule
