#include "schedule/sampling_grid_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "schedule/entropic.h"
#include "util/error.h"
#include "util/number_text.h"
#include "util/setting_names.h"
#include "util/spec_string.h"

namespace noisescope::schedule {

namespace {

struct FamilyName {
  GridFamily family;
  const char* name;
};
constexpr FamilyName kFamilyNames[] = {
    {GridFamily::Karras, "karras"},       {GridFamily::UniformSigma, "uniform-sigma"},
    {GridFamily::LogSigma, "log-sigma"},  {GridFamily::Ddpm, "ddpm"},
    {GridFamily::Flow, "flow"},           {GridFamily::Entropic, "entropic"},
    {GridFamily::Quantiles, "quantiles"}, {GridFamily::Auto, "auto"}};

const char* familyName(GridFamily family) {
  for (const auto& f : kFamilyNames)
    if (f.family == family) return f.name;
  return "karras";
}

std::vector<std::string> familyKeys(GridFamily family) {
  switch (family) {
    case GridFamily::Karras:
      return {"sigma_min", "sigma_max", "rho"};
    case GridFamily::Auto:
      return {"sigma_min", "sigma_max", "profile"};
    case GridFamily::UniformSigma:
    case GridFamily::LogSigma:
      return {"sigma_min", "sigma_max"};
    case GridFamily::Ddpm:
      return {"spacing",       "train_timesteps", "steps_offset",
              "beta_schedule", "beta_start",      "beta_end"};
    case GridFamily::Flow:
      return {"sigma_min", "sigma_max", "shift", "train_timesteps"};
    case GridFamily::Entropic:
      return {"sigma_min", "sigma_max", "increment", "rate",
              "balance",   "gate_c",    "gate_n",    "profile"};
    case GridFamily::Quantiles:
      return {"of", "run", "schedule"};
  }
  return {};
}

void checkRange(const SamplingGridSpec& spec, const std::string& source) {
  if (!(spec.sigmaMin > 0.0) || !(spec.sigmaMax > spec.sigmaMin) || !std::isfinite(spec.sigmaMax))
    throw InputError(source, "needs 0 < sigma_min < sigma_max, not [" +
                                 numberText(spec.sigmaMin, 10) + ", " +
                                 numberText(spec.sigmaMax, 10) + "]");
}

}  // namespace

const char* spacingName(DdpmSpacing s) {
  return s == DdpmSpacing::Linspace  ? "linspace"
         : s == DdpmSpacing::Leading ? "leading"
                                     : "trailing";
}
const char* betaScheduleName(BetaSchedule b) {
  return b == BetaSchedule::Linear ? "linear" : "scaled-linear";
}
const char* incrementName(EntropicIncrement i) {
  return i == EntropicIncrement::SqrtRate   ? "sqrt-rate"
         : i == EntropicIncrement::Rescaled ? "rescaled"
                                            : "rate";
}

const std::vector<std::pair<std::string, std::string>>& namedGridSpecs() {
  static const std::vector<std::pair<std::string, std::string>> named = {
      {"gated", "entropic?increment=rate&rate=sampling&gate_c=auto"},
      {"rescaled", "entropic?increment=rescaled&rate=sampling&sigma_min=profile"},
      {"balanced", "entropic?increment=rate&rate=sampling&balance=log-sigma&sigma_min=profile"},
      {"karras-profile", "karras?rho=7&sigma_min=profile"},
  };
  return named;
}

const std::vector<GridFamilyInfo>& samplingGridFamilies() {
  const GridParameterInfo lowestLevel{"sigma_min", numberText(defaults::kSigmaMin, 10),
                                      "lowest level"};
  const GridParameterInfo highestLevel{"sigma_max", numberText(defaults::kSigmaMax, 10),
                                       "highest level"};
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
       {{"increment", "rate", "rate (entropic time), sqrt-rate or rescaled (r over Gaussian r)"},
        {"rate", "profile", "profile (its MMSE curve) or sampling (the sampling rate estimate)"},
        {"balance", "none", "none or log-sigma (half the budget on log σ, half on the increment)"},
        {"profile", "", "profile file (default: the one the command or tab holds)"},
        {"gate_c", "0", "low-noise gate c of the rate (0: none; auto: the data kind's)"},
        {"gate_n", numberText(defaults::kGateN, 10), "gate exponent n"},
        lowestLevel,
        highestLevel}},
      {"quantiles",
       "Quantiles of π",
       "σ_i at equal quantiles of a run's final training π (or its φ = π·w)",
       {{"run", "", "run directory: its final training π"},
        {"schedule", "", "or a schedule file (default: the schedule the command or tab holds)"},
        {"of", "pi", "pi (sampling density) or phi (effective allocation π·w)"}}},
      {"auto",
       "Auto (from the data)",
       "entropic time balanced with log σ on the sampling rate (∫ r, ∫ √r or gated), σ_min where "
       "it vanishes "
       "(THEORY §6); Karras ρ = 7 without a profile",
       {{"profile", "", "profile file (default: the one the command or tab holds)"},
        lowestLevel,
        highestLevel}},
  };
  return list;
}

SamplingGridSpec parseSamplingGridSpec(const std::string& text, const std::string& source) {
  std::string expanded = text;
  for (const auto& [name, full] : namedGridSpecs())
    if (text == name) expanded = full;
  const SpecString parsed = parseSpecString(expanded);
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
    if (key == "sigma_min" && value == "profile") {
      if (spec.family != GridFamily::Karras && spec.family != GridFamily::LogSigma &&
          spec.family != GridFamily::Entropic)
        throw InputError(where, "sigma_min=profile is for karras, log-sigma and entropic");
      spec.sigmaMinFromRate = true;
    } else if (key == "sigma_min") {
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
      choice({"rate", "sqrt-rate", "rescaled"});
      spec.increment = value == "rate"        ? EntropicIncrement::Rate
                       : value == "sqrt-rate" ? EntropicIncrement::SqrtRate
                                              : EntropicIncrement::Rescaled;
    } else if (key == "rate") {
      choice({"profile", "sampling"});
      spec.rate = value == "sampling" ? EntropicRate::Sampling : EntropicRate::Profile;
    } else if (key == "balance") {
      choice({"none", "log-sigma"});
      spec.balanced = value == "log-sigma";
    } else if (key == "gate_c" && value == "auto") {
      spec.gateAuto = true;
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
    pairs.push_back(
        {"sigma_min", spec.sigmaMinFromRate ? "profile" : numberText(spec.sigmaMin, 10)});
    pairs.push_back({"sigma_max", numberText(spec.sigmaMax, 10)});
  };
  switch (spec.family) {
    case GridFamily::Karras:
      pairs.push_back({"rho", numberText(spec.rho, 10)});
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
      pairs.push_back({"beta_schedule", betaScheduleName(spec.betaSchedule)});
      pairs.push_back({"beta_start", numberText(spec.betaStart, 10)});
      pairs.push_back({"beta_end", numberText(spec.betaEnd, 10)});
      break;
    case GridFamily::Flow:
      pairs.push_back({"shift", numberText(spec.shift, 10)});
      range();
      break;
    case GridFamily::Entropic:
      pairs.push_back({"increment", incrementName(spec.increment)});
      if (spec.rate == EntropicRate::Sampling) pairs.push_back({"rate", "sampling"});
      if (spec.balanced) pairs.push_back({"balance", "log-sigma"});
      if (spec.gateAuto || spec.gateC > 0.0) {
        pairs.push_back({"gate_c", spec.gateAuto ? "auto" : numberText(spec.gateC, 10)});
        pairs.push_back({"gate_n", numberText(spec.gateN, 10)});
      }
      range();
      if (!spec.profile.empty()) pairs.push_back({"profile", spec.profile});
      break;
    case GridFamily::Auto:
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
  if (spec.margin != 2.0) pairs.push_back({"margin", numberText(spec.margin, 10)});
  for (size_t i = 0; i < pairs.size(); ++i)
    out += (i == 0 ? "?" : "&") + pairs[i].first + "=" + pairs[i].second;
  return out;
}

std::string gridLabel(const SamplingGridSpec& spec) {
  std::string label;
  switch (spec.family) {
    case GridFamily::Karras:
      label = "Karras ρ=" + numberText(spec.rho, 10) +
              (spec.sigmaMinFromRate ? ", σ_min from profile" : "");
      break;
    case GridFamily::UniformSigma:
      label = "uniform σ";
      break;
    case GridFamily::LogSigma:
      label = "uniform log σ";
      break;
    case GridFamily::Ddpm:
      label = std::string("DDPM ") + spacingName(spec.spacing) +
              " (T=" + std::to_string(spec.trainTimesteps) + ", " +
              betaScheduleName(spec.betaSchedule) + ")";
      break;
    case GridFamily::Flow:
      label = "flow t, shift " + numberText(spec.shift, 10);
      break;
    case GridFamily::Entropic:
      label = spec.increment == EntropicIncrement::Rate       ? "entropic (∫ rate)"
              : spec.increment == EntropicIncrement::SqrtRate ? "entropic (∫ √rate)"
                                                              : "entropic (rescaled)";
      if (spec.balanced) label += " + log σ";
      if (spec.gateAuto || spec.gateC > 0.0) label += ", gated";
      if (spec.rate == EntropicRate::Sampling) label += ", sampling rate";
      break;
    case GridFamily::Auto:
      label = "auto (from the data)";
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
      " from σ_max = " + numberText(spec.sigmaMax, 10) + " to σ_min = " +
      (spec.sigmaMinFromRate ? std::string("where the sampling rate vanishes (else ") +
                                   numberText(spec.sigmaMin, 10) + ")"
                             : numberText(spec.sigmaMin, 10));
  std::string rule;
  switch (spec.family) {
    case GridFamily::Karras:
      rule =
          "sigma_i = (sigma_max^(1/rho) + i/(N-1) (sigma_min^(1/rho) - sigma_max^(1/rho)))^rho, "
          "rho = " +
          numberText(spec.rho, 10) + range;
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
             ", sigma_t = sqrt((1 - alphabar_t)/alphabar_t) of the " +
             betaScheduleName(spec.betaSchedule) + " betas " + numberText(spec.betaStart, 10) +
             " .. " + numberText(spec.betaEnd, 10);
      break;
    case GridFamily::Flow:
      rule = "flow time t uniform, s = k t/(1 + (k-1) t) with shift k = " +
             numberText(spec.shift, 10) + ", sigma = s/(1 - s)" + range;
      break;
    case GridFamily::Entropic:
      rule = std::string("equal increments of the integral of ") +
             (spec.increment == EntropicIncrement::Rate ? "r"
              : spec.increment == EntropicIncrement::SqrtRate
                  ? "sqrt(r)"
                  : "r/r_G, r_G = D sd^2/(sd^2 + sigma^2)") +
             " d log sigma, r = MMSE/sigma^2 of " +
             (spec.rate == EntropicRate::Sampling ? "the sampling rate estimate" : "the profile") +
             (spec.gateAuto
                  ? std::string(" times the gate sigma^n/(sigma^n + c^n), c of the data kind")
              : spec.gateC > 0.0
                  ? " times the gate sigma^n/(sigma^n + c^n), c = " + numberText(spec.gateC, 10) +
                        ", n = " + numberText(spec.gateN, 10)
                  : std::string()) +
             (spec.balanced ? std::string(", balanced: density/total + 1/(log range) so that no "
                                          "step covers more than 2/(N-1) of either")
                            : std::string()) +
             range;
      break;
    case GridFamily::Auto:
      rule =
          "chosen from the sampling rate (THEORY §6, the auto grid): entropic time balanced "
          "with log sigma (rate, sqrt-rate or gated), sigma_min where the rate vanishes; "
          "Karras rho=7 without a profile" +
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
    rule += "; steps capped at sigma_i/sigma_(i+1) <= " + numberText(spec.margin, 10) +
            " x the largest step of Karras rho=7 with the same N and ends";
  return rule;
}

}  // namespace noisescope::schedule
