#pragma once
// A target effective allocation φ (THEORY §5) → another trainer's own knobs: each of the tool's
// sampling families fitted so that its φ (its density × its loss weight in x0 space) matches
// the target on the target's log-σ grid, with the mismatch and a paste-ready snippet. The CLI's
// `fit` command formats the result; docs/trainers.md explains each tool.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "schedule/schedule.h"
#include "schedule/trainer_fit.h"

namespace noisescope {
struct Profile;
}

namespace noisescope::pipeline {

// The φ to fit and what it came from.
struct FitTarget {
  schedule::Schedule allocation;  // φ, normalised, uniform loss weight
  std::string source;
};
// φ = π·w of a schedule file (JSON, CSV, HDF5) as written.
FitTarget fitTargetFromScheduleFile(const std::string& path);
// φ of the entropic schedule `method` ("infonoise" or "sqrt-entropy") built from the profile
// through the schedule recipes (pipeline/schedule_recipe.h) on the default grid (256 bins on
// 0.002 … 80, as `noisescope-cli schedule` uses).
FitTarget fitTargetFromProfile(const Profile& profile, const std::string& profileSource,
                               const std::string& method);

struct ToolFit {
  std::string tool;
  std::string coordinate;  // "flow-t", "ddpm-t", "sigma"
  std::string lossSpace, knob;
  double sigmaMin = 0.0, sigmaMax = 0.0;  // what the tool's draw can reach
  double targetMassReachable = 1.0;       // the target's φ mass inside that range
  schedule::LogSigmaGrid grid;
  std::vector<double> target;                    // φ per bin
  std::vector<schedule::TrainerFamilyFit> fits;  // best first
};

// Throws InputError("--for", …) for an unknown tool.
ToolFit fitForTool(const FitTarget& target, const std::string& tool,
                   const schedule::TrainerSettings& settings = {});

// {"tool", "coordinate", "fits": [{"family", "params", "kl", "kl_reverse", "tv", "snippet"}]}.
nlohmann::json toJson(const ToolFit& fit);
// The same for a terminal, with the σ range and each family's note.
std::string formatToolFit(const ToolFit& fit);

}  // namespace noisescope::pipeline
