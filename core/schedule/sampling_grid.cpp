#include "schedule/sampling_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "schedule/allocation.h"
#include "schedule/engine_defaults.h"
#include "util/error.h"
#include "util/setting_names.h"
#include "util/spec_string.h"

namespace noisescope::schedule {

namespace {

struct FamilyName {
  GridFamily family;
  const char* name;
};
constexpr FamilyName kFamilyNames[] = {
    {GridFamily::Karras, "karras"},      {GridFamily::UniformSigma, "uniform-sigma"},
    {GridFamily::LogSigma, "log-sigma"}, {GridFamily::Ddpm, "ddpm"},
    {GridFamily::Flow, "flow"},          {GridFamily::Entropic, "entropic"},
    {GridFamily::Quantiles, "quantiles"}};

const char* familyName(GridFamily family) {
  for (const auto& f : kFamilyNames)
    if (f.family == family) return f.name;
  return "karras";
}

const char* spacingName(DdpmSpacing s) {
  return s == DdpmSpacing::Linspace  ? "linspace"
         : s == DdpmSpacing::Leading ? "leading"
                                     : "trailing";
}
const char* betaName(BetaSchedule b) {
  return b == BetaSchedule::Linear ? "linear" : "scaled-linear";
}
const char* incrementName(EntropicIncrement i) {
  return i == EntropicIncrement::SqrtRate ? "sqrt-rate" : "rate";
}

// The keys each family takes beyond the common ones (guard, margin).
std::vector<std::string> familyKeys(GridFamily family) {
  switch (family) {
    case GridFamily::Karras:
      return {"sigma_min", "sigma_max", "rho"};
    case GridFamily::UniformSigma:
    case GridFamily::LogSigma:
      return {"sigma_min", "sigma_max"};
    case GridFamily::Ddpm:
      return {"spacing",       "train_timesteps", "steps_offset",
              "beta_schedule", "beta_start",      "beta_end"};
    case GridFamily::Flow:
      return {"sigma_min", "sigma_max", "shift", "train_timesteps"};
    case GridFamily::Entropic:
      return {"sigma_min", "sigma_max", "increment", "gate_c", "gate_n", "profile"};
    case GridFamily::Quantiles:
      return {"of", "run", "schedule"};
  }
  return {};
}

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", v);
  return buffer;
}

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
  auto density = [&](double l) {
    const double r = gatedRate(profile.rateLogSigma(l), std::exp(l), gate);
    return spec.increment == EntropicIncrement::SqrtRate ? std::sqrt(std::max(r, 0.0))
                                                         : std::max(r, 0.0);
  };
  double previous = density(lo);
  ell[0] = lo;
  for (int j = 1; j <= kFine; ++j) {
    ell[j] = lo + (hi - lo) * double(j) / kFine;
    const double f = density(ell[j]);
    cum[j] = cum[j - 1] + 0.5 * (previous + f) * (ell[j] - ell[j - 1]);
    previous = f;
  }
  const double total = cum.back();
  if (!(total > 0.0) || !std::isfinite(total))
    throw InputError(profile.source, "the profile's rate integrates to " + number(total) +
                                         " on [σ_min, σ_max]: no entropic grid there");
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
      throw InputError(spec.text, "the schedule's quantiles repeat σ = " + number(s[i]) +
                                      " (an atomic π): no grid of distinct levels");
  return s;
}

void checkRange(const SamplingGridSpec& spec, const std::string& source) {
  if (!(spec.sigmaMin > 0.0) || !(spec.sigmaMax > spec.sigmaMin) || !std::isfinite(spec.sigmaMax))
    throw InputError(source, "needs 0 < sigma_min < sigma_max, not [" + number(spec.sigmaMin) +
                                 ", " + number(spec.sigmaMax) + "]");
}

}  // namespace

const std::vector<GridFamilyInfo>& samplingGridFamilies() {
  const GridParameterInfo lowestLevel{"sigma_min", number(defaults::kSigmaMin), "lowest level"};
  const GridParameterInfo highestLevel{"sigma_max", number(defaults::kSigmaMax), "highest level"};
  static const std::vector<GridFamilyInfo> list = {
      {"karras",
       "Karras ρ",
       "σ_i = (σ_max^(1/ρ) + i/(N−1)·(σ_min^(1/ρ) − σ_max^(1/ρ)))^ρ (EDM)",
       {{"rho", "7", "ρ > 0; 7 is EDM's"}, lowestLevel, highestLevel}},
      {"uniform-sigma", "Uniform σ", "σ_i linear from σ_max to σ_min", {lowestLevel, highestLevel}},
      {"log-sigma",
       "Uniform log σ",
       "log σ_i linear from log σ_max to log σ_min",
       {lowestLevel, highestLevel}},
      {"ddpm",
       "DDPM/DDIM t",
       "diffusers' timestep_spacing over T training steps; σ_t = √((1 − ᾱ_t)/ᾱ_t)",
       {{"spacing", "trailing", "linspace, leading or trailing"},
        {"train_timesteps", "1000", "T"},
        {"steps_offset", "0", "added to leading timesteps (Stable Diffusion's configs: 1)"},
        {"beta_schedule", "scaled-linear", "scaled-linear (Stable Diffusion) or linear (DDPM)"},
        {"beta_start", "0.00085", "β_0 (linear's default: 0.0001)"},
        {"beta_end", "0.012", "β_(T−1) (linear's default: 0.02)"}}},
      {"flow",
       "Flow t, shifted",
       "t uniform, s = k·t/(1 + (k−1)·t) (SD3/Flux), σ = s/(1 − s)",
       {{"shift", "3", "k; SD3's is 3, Flux's e^μ"},
        {"train_timesteps", "1000", "scale of the exported timesteps (s·T)"},
        lowestLevel,
        highestLevel}},
      {"entropic",
       "Entropic (profile)",
       "equal increments of ∫ r dℓ or ∫ √r dℓ, r = MMSE/σ² of a profile",
       {{"increment", "rate", "rate (entropic time) or sqrt-rate"},
        {"profile", "", "profile file (default: the one the command or tab holds)"},
        {"gate_c", "0", "low-noise gate c of the rate (0: none)"},
        {"gate_n", number(defaults::kGateN), "gate exponent n"},
        lowestLevel,
        highestLevel}},
      {"quantiles",
       "Quantiles of π",
       "σ_i at equal quantiles of a run's final training π (or its φ = π·w)",
       {{"run", "", "run directory: its final training π"},
        {"schedule", "", "or a schedule file (default: the schedule the command or tab holds)"},
        {"of", "pi", "pi (sampling density) or phi (effective allocation π·w)"}}},
  };
  return list;
}

SamplingGridSpec parseSamplingGridSpec(const std::string& text, const std::string& source) {
  const SpecString parsed = parseSpecString(text);
  const std::string where = source + " '" + text + "'";
  SamplingGridSpec spec;
  spec.text = text;
  bool known = false;
  for (const auto& f : kFamilyNames)
    if (parsed.head == f.name) {
      spec.family = f.family;
      known = true;
    }
  if (!known) {
    std::string names;
    for (const auto& f : kFamilyNames) names += std::string(names.empty() ? "" : ", ") + f.name;
    throw InputError(where, "unknown sampling grid '" + parsed.head + "' (one of " + names + ")");
  }
  std::vector<std::string> keys = familyKeys(spec.family);
  keys.push_back("guard");
  keys.push_back("margin");
  const bool linear = [&] {
    for (const auto& [k, v] : parsed.pairs)
      if (k == "beta_schedule" && v == "linear") return true;
    return false;
  }();
  if (linear) {
    spec.betaStart = 0.0001;
    spec.betaEnd = 0.02;
  }
  for (const auto& pair : parsed.pairs) {
    // Named references, not a structured binding: clang 14 cannot capture bindings in lambdas.
    const std::string& key = pair.first;
    const std::string& value = pair.second;
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string list;
      for (const auto& k : keys) list += std::string(list.empty() ? "" : ", ") + k;
      throw InputError(
          where, "the " + parsed.head + " grid takes no '" + key + "' (it takes " + list + ")");
    }
    auto positive = [&](double& field) {
      field = specNumber(where, key, value);
      if (!(field > 0.0)) throw InputError(where, key + "=" + value + " must be > 0");
    };
    auto choice = [&](std::initializer_list<const char*> options) {
      for (const char* o : options)
        if (value == o) return;
      std::string list;
      for (const char* o : options) list += std::string(list.empty() ? "" : ", ") + o;
      throw InputError(where, key + "=" + value + " is not one of " + list);
    };
    if (key == "sigma_min") {
      positive(spec.sigmaMin);
    } else if (key == "sigma_max") {
      positive(spec.sigmaMax);
    } else if (key == "rho") {
      positive(spec.rho);
    } else if (key == "spacing") {
      choice({"linspace", "leading", "trailing"});
      spec.spacing = value == "linspace"  ? DdpmSpacing::Linspace
                     : value == "leading" ? DdpmSpacing::Leading
                                          : DdpmSpacing::Trailing;
    } else if (key == "train_timesteps") {
      spec.trainTimesteps = static_cast<int>(specInteger(where, key, value, 2, 1000000));
    } else if (key == "steps_offset") {
      spec.stepsOffset = static_cast<int>(specInteger(where, key, value, 0, 1000000));
    } else if (key == "beta_schedule") {
      choice({"scaled-linear", "linear"});
      spec.betaSchedule = linear ? BetaSchedule::Linear : BetaSchedule::ScaledLinear;
    } else if (key == "beta_start") {
      positive(spec.betaStart);
    } else if (key == "beta_end") {
      positive(spec.betaEnd);
    } else if (key == "shift") {
      positive(spec.shift);
    } else if (key == "increment") {
      choice({"rate", "sqrt-rate"});
      spec.increment = value == "rate" ? EntropicIncrement::Rate : EntropicIncrement::SqrtRate;
    } else if (key == "gate_c") {
      spec.gateC = specNumber(where, key, value);
    } else if (key == "gate_n") {
      positive(spec.gateN);
    } else if (key == "profile") {
      spec.profile = value;
    } else if (key == "of") {
      choice({"pi", "phi"});
      spec.of = value == "phi" ? QuantilesOf::Phi : QuantilesOf::Pi;
    } else if (key == "run") {
      spec.run = value;
    } else if (key == "schedule") {
      spec.schedule = value;
    } else if (key == "guard") {
      choice({"warn", "cap"});
      spec.guard = value == "cap" ? RatioGuard::Cap : RatioGuard::Warn;
    } else if (key == "margin") {
      spec.margin = specNumber(where, key, value);
      if (!(spec.margin >= 1.0)) throw InputError(where, "margin=" + value + " must be ≥ 1");
    }
  }
  if (spec.family != GridFamily::Ddpm && spec.family != GridFamily::Quantiles)
    checkRange(spec, where);
  if (spec.family == GridFamily::Ddpm && !(spec.betaEnd > spec.betaStart && spec.betaEnd < 1.0))
    throw InputError(where, "needs 0 < beta_start < beta_end < 1");
  if (spec.family == GridFamily::Entropic) RateGate{spec.gateC, spec.gateN}.validate(where);
  if (!spec.run.empty() && !spec.schedule.empty())
    throw InputError(where, "give run= or schedule=, not both");
  return spec;
}

std::string canonicalSpec(const SamplingGridSpec& spec) {
  std::string out = familyName(spec.family);
  std::vector<std::pair<std::string, std::string>> pairs;
  auto range = [&] {
    pairs.push_back({"sigma_min", number(spec.sigmaMin)});
    pairs.push_back({"sigma_max", number(spec.sigmaMax)});
  };
  switch (spec.family) {
    case GridFamily::Karras:
      pairs.push_back({"rho", number(spec.rho)});
      range();
      break;
    case GridFamily::UniformSigma:
    case GridFamily::LogSigma:
      range();
      break;
    case GridFamily::Ddpm:
      pairs.push_back({"spacing", spacingName(spec.spacing)});
      pairs.push_back({"train_timesteps", std::to_string(spec.trainTimesteps)});
      if (spec.spacing == DdpmSpacing::Leading)
        pairs.push_back({"steps_offset", std::to_string(spec.stepsOffset)});
      pairs.push_back({"beta_schedule", betaName(spec.betaSchedule)});
      pairs.push_back({"beta_start", number(spec.betaStart)});
      pairs.push_back({"beta_end", number(spec.betaEnd)});
      break;
    case GridFamily::Flow:
      pairs.push_back({"shift", number(spec.shift)});
      range();
      break;
    case GridFamily::Entropic:
      pairs.push_back({"increment", incrementName(spec.increment)});
      if (spec.gateC > 0.0) {
        pairs.push_back({"gate_c", number(spec.gateC)});
        pairs.push_back({"gate_n", number(spec.gateN)});
      }
      range();
      if (!spec.profile.empty()) pairs.push_back({"profile", spec.profile});
      break;
    case GridFamily::Quantiles:
      pairs.push_back({"of", spec.of == QuantilesOf::Phi ? "phi" : "pi"});
      if (!spec.run.empty()) pairs.push_back({"run", spec.run});
      if (!spec.schedule.empty()) pairs.push_back({"schedule", spec.schedule});
      break;
  }
  if (spec.guard == RatioGuard::Cap) pairs.push_back({"guard", "cap"});
  if (spec.margin != 2.0) pairs.push_back({"margin", number(spec.margin)});
  for (size_t i = 0; i < pairs.size(); ++i)
    out += (i == 0 ? "?" : "&") + pairs[i].first + "=" + pairs[i].second;
  return out;
}

std::string gridLabel(const SamplingGridSpec& spec) {
  std::string label;
  switch (spec.family) {
    case GridFamily::Karras:
      label = "Karras ρ=" + number(spec.rho);
      break;
    case GridFamily::UniformSigma:
      label = "uniform σ";
      break;
    case GridFamily::LogSigma:
      label = "uniform log σ";
      break;
    case GridFamily::Ddpm:
      label = std::string("DDPM ") + spacingName(spec.spacing) +
              " (T=" + std::to_string(spec.trainTimesteps) + ", " + betaName(spec.betaSchedule) +
              ")";
      break;
    case GridFamily::Flow:
      label = "flow t, shift " + number(spec.shift);
      break;
    case GridFamily::Entropic:
      label =
          spec.increment == EntropicIncrement::Rate ? "entropic (∫ rate)" : "entropic (∫ √rate)";
      break;
    case GridFamily::Quantiles:
      label = spec.of == QuantilesOf::Phi ? "quantiles of φ" : "quantiles of π";
      break;
  }
  if (spec.guard == RatioGuard::Cap) label += ", ratio-capped";
  return label;
}

std::string gridRule(const SamplingGridSpec& spec) {
  const std::string range =
      " from σ_max = " + number(spec.sigmaMax) + " to σ_min = " + number(spec.sigmaMin);
  std::string rule;
  switch (spec.family) {
    case GridFamily::Karras:
      rule =
          "sigma_i = (sigma_max^(1/rho) + i/(N-1) (sigma_min^(1/rho) - sigma_max^(1/rho)))^rho, "
          "rho = " +
          number(spec.rho) + range;
      break;
    case GridFamily::UniformSigma:
      rule = "sigma_i linear in i" + range;
      break;
    case GridFamily::LogSigma:
      rule = "log sigma_i linear in i" + range;
      break;
    case GridFamily::Ddpm:
      rule = std::string("diffusers timestep_spacing=\"") + spacingName(spec.spacing) +
             "\" over T = " + std::to_string(spec.trainTimesteps) +
             (spec.spacing == DdpmSpacing::Leading
                  ? " (steps_offset " + std::to_string(spec.stepsOffset) + ")"
                  : std::string()) +
             ", sigma_t = sqrt((1 - alphabar_t)/alphabar_t) of the " + betaName(spec.betaSchedule) +
             " betas " + number(spec.betaStart) + " .. " + number(spec.betaEnd);
      break;
    case GridFamily::Flow:
      rule = "flow time t uniform, s = k t/(1 + (k-1) t) with shift k = " + number(spec.shift) +
             ", sigma = s/(1 - s)" + range;
      break;
    case GridFamily::Entropic:
      rule =
          std::string("equal increments of the integral of ") +
          (spec.increment == EntropicIncrement::Rate ? "r" : "sqrt(r)") +
          " d log sigma, r = MMSE/sigma^2 of the profile" +
          (spec.gateC > 0.0 ? " times the gate sigma^n/(sigma^n + c^n), c = " + number(spec.gateC) +
                                  ", n = " + number(spec.gateN)
                            : std::string()) +
          range;
      break;
    case GridFamily::Quantiles:
      rule = std::string("sigma_i at quantile 1 - i/(N-1) of ") +
             (spec.of == QuantilesOf::Phi ? "the effective allocation phi = pi w"
                                          : "the sampling density pi") +
             " of " + (!spec.run.empty() ? "the run's final training schedule" : "the schedule");
      break;
  }
  rule += "; then 0";
  if (spec.guard == RatioGuard::Cap)
    rule += "; steps capped at sigma_i/sigma_(i+1) <= " + number(spec.margin) +
            " x the largest step of Karras rho=7 with the same N and ends";
  return rule;
}

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

std::vector<double> buildSamplingGrid(const SamplingGridSpec& spec, int steps,
                                      const SamplingGridInputs& inputs) {
  requireSteps(spec, steps);
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
      if (!inputs.profile)
        throw InputError(source, "the entropic grid needs a profile (profile=FILE)");
      levels = entropicGrid(spec, *inputs.profile, steps);
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
                                      number(limit) + " cannot span σ " + number(levels.back()) +
                                      " .. " + number(levels.front()) + "; take more steps");
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
  e.timestepsTable = std::string(betaName(spec.betaSchedule)) + " betas " + number(spec.betaStart) +
                     " .. " + number(spec.betaEnd) + ", T = " + std::to_string(spec.trainTimesteps);
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
