#pragma once
// The grid-spec language: how a sampling grid is named in a string ("karras?rho=7",
// "ddpm?spacing=trailing", "entropic?increment=sqrt-rate", "auto"), parsed into a
// SamplingGridSpec, spelled back canonically, labelled and described in one sentence. The grid
// maths (what the levels of a parsed spec are) is schedule/sampling_grid.h; the rate estimate that
// the data-driven specs follow is schedule/sampling_rate.h.
//
// Spec strings are "head?key=value&key=value". Besides the seven families of sampling_grid.h the
// language has:
//   auto            the data-derived grid (THEORY §6, "The auto grid"): resolved by
//                   chooseAutoGrid (schedule/sampling_rate.h) into an entropic grid on the
//                   sampling rate with σ_min where that rate vanishes, or into Karras ρ = 7 when no
//                   profile is given. Takes sigma_min, sigma_max (the range it may use).
//   sigma_min=profile   (karras, log-sigma, entropic) σ_min where the sampling rate vanishes
//                   (SamplingRate::vanishingSigma); the range's default when it does not.
//   rate=sampling   (entropic) follow the sampling rate estimate (sampling_rate.h: bound where
//                   tight, bracket midpoint, ±1 coordinate bound, gate) instead of the profile's
//                   primary MMSE curve (rate=profile, the default).
//   gate_c=auto     (entropic) the published gate c for the data kind (defaults::autoGateC).
//   increment=rescaled  (entropic) the rate divided by the rate of Gaussian data with the same
//                   σ_data and D (THEORY §6).
//   balance=log-sigma   (entropic) half the steps' budget on log σ, half on the increment
//                   (THEORY §6, "The auto grid").
// Named specs expand to a spec string (namedGridSpecs): "gated", "rescaled", "balanced",
// "karras-profile".
#include <string>
#include <utility>
#include <vector>

#include "schedule/engine_defaults.h"
#include "util/setting_names.h"

namespace noisescope::schedule {

enum class GridFamily { Karras, UniformSigma, LogSigma, Ddpm, Flow, Entropic, Quantiles, Auto };
enum class DdpmSpacing { Linspace, Leading, Trailing };
enum class BetaSchedule { ScaledLinear, Linear };
// rate: equal increments of ∫ r dℓ (entropic time); sqrt-rate: of ∫ √r dℓ; rescaled: of
// ∫ r/r_G dℓ with r_G = D·σ_d²/(σ_d² + σ²) the rate of Gaussian data of the same σ_data.
enum class EntropicIncrement { Rate, SqrtRate, Rescaled };
// Which curve an entropic grid follows: the profile's primary MMSE, or the sampling rate estimate.
enum class EntropicRate { Profile, Sampling };
enum class QuantilesOf { Pi, Phi };
// What a step whose ratio σ_i/σ_{i+1} exceeds the limit (ratioLimit) gets: a warning, or the grid
// is reshaped so that none does (capRatios).
enum class RatioGuard { Warn, Cap };

struct SamplingGridSpec {
  GridFamily family = GridFamily::Karras;
  // karras, uniform-sigma, log-sigma, flow, entropic, auto: the range the levels span.
  double sigmaMin = defaults::kSigmaMin, sigmaMax = defaults::kSigmaMax;
  bool sigmaMinFromRate = false;  // sigma_min=profile (karras, log-sigma, entropic)
  double rho = 7.0;               // karras (any ρ > 0)
  // ddpm
  DdpmSpacing spacing = DdpmSpacing::Trailing;
  int trainTimesteps = 1000;  // T (also the scale of flow timesteps: t·T)
  int stepsOffset = 0;        // diffusers' steps_offset (leading only; SD's configs use 1)
  BetaSchedule betaSchedule = BetaSchedule::ScaledLinear;
  double betaStart = 0.00085, betaEnd = 0.012;  // defaults of the beta schedule chosen
  // flow
  double shift = 3.0;  // SD3's default; Flux's dynamic μ gives shift = e^μ
  // entropic
  EntropicIncrement increment = EntropicIncrement::Rate;
  EntropicRate rate = EntropicRate::Profile;
  double gateC = 0.0, gateN = defaults::kGateN;  // the rate's low-noise gate (c = 0: none)
  bool gateAuto = false;                         // gate_c=auto: c from the data kind
  // balance=log-sigma: the increment density normalised to 1 over the range plus the uniform
  // density of log σ, so every step covers at most 2/(N−1) of the information and of log σ.
  bool balanced = false;
  std::string profile;  // path of the profile (read by core/pipeline)
  // quantiles
  QuantilesOf of = QuantilesOf::Pi;
  std::string run;       // a run directory: its final training π (read by core/pipeline)
  std::string schedule;  // or a schedule file
  // Every family
  RatioGuard guard = RatioGuard::Warn;
  double margin = 2.0;  // of ratioLimit

  std::string text;  // the spec string it was parsed from (canonicalSpec if built in code)
};

struct GridParameterInfo {
  std::string name;          // key in the spec string
  std::string defaultValue;  // as text ("" = required or optional path)
  std::string help;
};
struct GridFamilyInfo {
  std::string name;  // head of the spec string
  std::string label;
  std::string rule;  // one line: how the levels are chosen
  std::vector<GridParameterInfo> parameters;
};
// The eight families, in the order of GridFamily.
const std::vector<GridFamilyInfo>& samplingGridFamilies();

// The named specs and the spec strings they stand for: "gated" (entropic time on the sampling
// rate with the data kind's gate), "rescaled" (rescaled entropic time on the sampling rate, σ_min
// from it), "balanced" (entropic time balanced with log σ on the sampling rate, σ_min from it),
// "karras-profile" (Karras ρ = 7 with σ_min where the sampling rate vanishes).
const std::vector<std::pair<std::string, std::string>>& namedGridSpecs();

// "karras?rho=7&sigma_min=0.002"; a named spec is expanded first (spec.text keeps the name).
// InputError(source, …) for an unknown family or key, a value out of range or a key another
// family owns.
SamplingGridSpec parseSamplingGridSpec(const std::string& text,
                                       const std::string& source = settings::kSamplingGrid);
// Every parameter the family uses, defaults included, as a spec string (parses back the same).
std::string canonicalSpec(const SamplingGridSpec& spec);
// "Karras ρ=7", "DDPM trailing (T=1000, scaled-linear)", …
std::string gridLabel(const SamplingGridSpec& spec);
// One sentence: the formula with its parameter values (what a file's "rule" says).
std::string gridRule(const SamplingGridSpec& spec);

// Names of the enumerations as the spec language spells them.
const char* spacingName(DdpmSpacing spacing);
const char* betaScheduleName(BetaSchedule schedule);
const char* incrementName(EntropicIncrement increment);

}  // namespace noisescope::schedule
