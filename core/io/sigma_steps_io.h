#pragma once
// Inference σ-steps files, the one format both faces write (docs/file-formats.md):
//  * ".json": "noisescope.sigma-steps/2": the grid's spec, label and rule, the N levels (`sigma`,
//    ascending), the step-ratio check (largest step, the limit, warnings) and the grid as the
//    samplers take it: k-diffusion's `sigmas` (descending, final 0) and diffusers' `sigmas=` /
//    `timesteps=` (EulerDiscreteScheduler) and flow `sigmas=` (FlowMatchEulerDiscreteScheduler).
//    "noisescope.sigma-steps/1" (quantiles of a schedule's φ or ρ, earlier builds) still reads.
//  * ".py": the same lists as Python assignments, to paste into a sampling script (write only).
//  * anything else: plain text with one σ per line (ascending, full precision).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "schedule/sampling_grid.h"
#include "schedule/sampling_rate.h"

namespace noisescope {

inline constexpr const char* kSigmaStepsFormat = "noisescope.sigma-steps/2";
inline constexpr const char* kSigmaStepsFormatV1 = "noisescope.sigma-steps/1";

struct SigmaSteps {
  std::vector<double> sigma;  // the N levels, ascending, ≥ 2, > 0 (ties only in /1 files: atoms)
  std::string schedule;       // label of the schedule they were exported with ("" for none)
  std::string curve;          // /1 files only: "phi" or "rho"; "" otherwise
  // /2
  std::string grid;    // canonical spec string (schedule/sampling_grid.h)
  std::string label;   // "Karras ρ=7"
  std::string rule;    // how the levels were chosen, in words and formula
  std::string source;  // the profile, run or schedule a data-driven grid follows ("" none)
  double largestRatio = 0.0, ratioLimit = 0.0, ratioMargin = 0.0;
  std::vector<std::string> warnings;
  schedule::GridExports exports;
  // Optional in /2 (absent in files of earlier builds): how a data-driven grid was chosen (the
  // auto grid's rule and reason, σ_min from the profile, the profiles left out), and the sampling
  // rate it followed, per level (samplingRateJson). Empty / null when the grid read no rate.
  std::vector<std::string> notes;
  nlohmann::json samplingRate;
};

// The sampling rate as the σ-steps file records it: per level σ, the estimate, the upper end U,
// the empirical curve L (null without one), the source and why, and the two extension rules.
nlohmann::json samplingRateJson(const schedule::SamplingRate& rate);

nlohmann::json sigmaStepsToJson(const SigmaSteps& steps,
                                const nlohmann::json& provenance = nlohmann::json::object());
// InputError(source, …) for a wrong format, a missing or mistyped field, fewer than 2 steps,
// σ not positive or descending, steps ≠ the number of σ values, or export lists whose lengths or
// order disagree with `sigma`.
SigmaSteps sigmaStepsFromJson(const nlohmann::json& json, const std::string& source);
// The ".py" form.
std::string sigmaStepsToPython(const SigmaSteps& steps);

// ".json": the JSON form; ".py": Python; anything else: one σ per line. Written atomically.
void writeSigmaSteps(const std::string& path, const SigmaSteps& steps,
                     const nlohmann::json& provenance = nlohmann::json::object());
// The JSON or the text form, by extension (the text form has no label, rule or exports; a ".py"
// file is refused: it is written for Python, the ".json" beside it is the one to read).
SigmaSteps readSigmaSteps(const std::string& path);

}  // namespace noisescope
