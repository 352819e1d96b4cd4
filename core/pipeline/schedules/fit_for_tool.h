#pragma once
// A target effective allocation φ (THEORY §5) → another trainer's own knobs: each of the tool's
// sampling families fitted so that its φ (its density × its loss weight in x0 space) matches
// the target on the target's log-σ grid, with the mismatch and a paste-ready snippet. The CLI's
// `fit` command formats the result; docs/trainers.md explains each tool.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

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

struct ToolFit {
  std::string tool;
  std::string model, modelNote;  // the model family assumed (--model, else the tool's default)
  std::string discretisation;
  std::string coordinate;  // "flow-t", "ddpm-t", "sigma"
  schedule::TrainerCoordinate coordinateKind = schedule::TrainerCoordinate::FlowTime;
  std::string lossSpace, knob;
  // Whether the target's σ is on the scale this tool noises this model's latents (empty when the
  // target does not come from a latent cache).
  std::string latentScale;
  double sigmaMin = 0.0, sigmaMax = 0.0;  // what the tool's draw can reach
  double targetMassReachable = 1.0;       // the target's φ mass inside that range
  schedule::LogSigmaGrid grid;
  std::vector<double> target;                    // φ per bin
  std::vector<schedule::TrainerFamilyFit> fits;  // best first
  // The bins the mismatch is measured on, merged where the tool's table leaves gaps
  // (schedule::comparisonGroups): the overlay spreads a quantised family's φ over each group.
  std::vector<int> groups;
};

// Throws InputError("trainer", …) for an unknown tool.
ToolFit fitForTool(const FitTarget& target, const std::string& tool,
                   const schedule::TrainerSettings& settings = {});

// A fit's knobs as the tool spells them: a list-valued knob's entries ("name[0]", "name[1]", …)
// gathered under its name, the others with one value each, in order.
std::vector<std::pair<std::string, std::vector<double>>> knobValues(
    const schedule::TrainerFamilyFit& fit);
// The knobs as one line of text, "name = value, …" (a list as "[N knots]").
std::string knobText(const schedule::TrainerFamilyFit& fit, const char* format = "%.4g",
                     const char* assign = " = ", const char* separator = ", ");
// {"tool", "model", "coordinate", "fits": [{"family", "params", "kl", "kl_reverse", "tv",
// "snippet"}]}, and "latent_scale" when the target comes from a latent cache.
nlohmann::json toJson(const ToolFit& fit);
// The same for a terminal, with the σ range and each family's note.
std::string formatToolFit(const ToolFit& fit);
// Writes the fit: toJson's object for a .json path, formatToolFit's text otherwise (atomically;
// InputError naming the path on failure). The CLI's --output and the GUI's "Save knobs" both.
void writeToolFit(const std::string& path, const ToolFit& fit);

// φ drawn in the tool's own coordinate, per bin of the fit's grid: x is the coordinate at the
// bin's centre and y the bin's φ mass over the bin's width in that coordinate (a σ tool: per unit
// log σ, x = σ on a log axis, since per unit σ spans too many decades to read). Bins the tool's
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
ToolOverlay toolOverlay(const ToolFit& fit);
// The report's chart: the target once and the best family of each fit (all in one coordinate).
render::ChartSpec toolOverlayChart(const std::vector<const ToolFit*>& fits,
                                   const std::string& title);

}  // namespace noisescope::pipeline
