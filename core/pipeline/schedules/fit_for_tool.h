#pragma once
// A target effective allocation φ (THEORY §5) → another trainer's own knobs: each of the tool's
// sampling families fitted so that its φ (its density × its loss weight in x0 space) matches
// the target on the target's log-σ grid, with the mismatch and a paste-ready snippet. The result
// and its JSON and text forms are io/tool_fit_io.h's; docs/trainers.md explains each tool.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "io/tool_fit_io.h"
#include "render/chart.h"
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
  // When φ comes from a profile of a trainer's latent cache: "as cached", or the "TOOL:MODEL"
  // whose noise scale the latents were put on (data/formats/latent_spaces.h). Else empty.
  std::string latents;
};
// φ = π·w of a schedule file (JSON, CSV, HDF5) as written.
FitTarget fitTargetFromScheduleFile(const std::string& path);
// φ = π·w of a schedule already built (the Schedules tab's selection, the report's InfoNoise).
FitTarget fitTargetFromSchedule(const schedule::Schedule& schedule, const std::string& source);
// φ of the entropic schedule `method` ("infonoise" or "sqrt-entropy") built from the profile
// through the schedule recipes (pipeline/schedules/schedule_recipe.h) on the default grid (256 bins
// on 0.002 … 80, as `noisescope-cli schedule` uses).
FitTarget fitTargetFromProfile(const Profile& profile, const std::string& profileSource,
                               const std::string& method);
// The profile's primary MMSE per σ as the (σ, error) pairs of TrainerSettings::modelError: the
// stand-in for a model's own error in EDM2's learned weighting (levels with no finite, positive
// value are left out). Throws InputError(source, …) when no level is usable.
std::vector<std::pair<double, double>> modelErrorFromProfile(const Profile& profile,
                                                             const std::string& source);

// Throws InputError("trainer", …) for an unknown tool.
io::ToolFit fitForTool(const FitTarget& target, const std::string& tool,
                       const schedule::TrainerSettings& settings = {});

// φ drawn in the tool's own coordinate, per bin of the fit's grid: x is the coordinate at the
// bin's centre and y the bin's φ mass over the bin's width in that coordinate (a σ tool: per unit
// log σ, x = σ on a log axis, since per unit σ spans too many decades to read; a flow tool: per
// unit log t, x = t on a log axis, for the same reason at low noise). Bins the tool's
// coordinate cannot reach (zero width there) are left out.
struct ToolCurve {
  std::string label;
  std::vector<double> x, y;
};
struct ToolOverlay {
  std::string xLabel, yLabel;
  bool logX = false;
  ToolCurve target;
  std::vector<ToolCurve> fits;  // in fit.fits order
};
ToolOverlay toolOverlay(const io::ToolFit& fit);
// The report's chart: the target once and the best family of each fit (all in one coordinate).
render::ChartSpec toolOverlayChart(const std::vector<const io::ToolFit*>& fits,
                                   const std::string& title);

}  // namespace noisescope::pipeline
