#pragma once
// Inference σ-steps files, the one format both faces write: "noisescope.sigma-steps/1" JSON
//   format, schedule (its label), curve ("phi" or "rho"), rule, steps (N), sigma[N] (ascending),
//   provenance{...}
// or, for any other extension, plain text with one σ per line (ascending, full precision). The
// steps are σ_k = u⁻¹(k/(N−1)), k = 0..N−1, u the CDF of the curve named (docs/file-formats.md).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace noisescope {

inline constexpr const char* kSigmaStepsFormat = "noisescope.sigma-steps/1";

struct SigmaSteps {
  std::vector<double> sigma;  // ascending (ties only where the CDF jumps: atoms), ≥ 2, > 0
  std::string schedule;       // label of the schedule they come from
  std::string curve;          // "phi" (effective allocation π·w) or "rho" (entropic allocation)
};

nlohmann::json sigmaStepsToJson(const SigmaSteps& steps,
                                const nlohmann::json& provenance = nlohmann::json::object());
// InputError(source, …) for a wrong format, a missing or mistyped field, fewer than 2 steps,
// σ not positive or descending, or steps ≠ the number of σ values.
SigmaSteps sigmaStepsFromJson(const nlohmann::json& json, const std::string& source);

// ".json": the JSON form; anything else: one σ per line. Written atomically.
void writeSigmaSteps(const std::string& path, const SigmaSteps& steps,
                     const nlohmann::json& provenance = nlohmann::json::object());
// Either form, by extension (the text form has no schedule label or curve).
SigmaSteps readSigmaSteps(const std::string& path);

}  // namespace noisescope
