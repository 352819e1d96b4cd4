#pragma once
// What `fit` answers, and its two forms: a target φ fitted with one trainer's sampling families
// (ToolFit), and a user's own trainer settings measured against it (CurrentFit), each as the JSON
// object `fit --json` prints and as the text a terminal shows. The fitting itself is the
// pipeline's (pipeline/schedules/fit_for_tool.h, fit_current.h); docs/trainers.md explains each
// tool. Torch-free.
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "schedule/trainer_fit.h"

namespace noisescope::io {

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
  // (schedule::comparisonGroups).
  std::vector<int> groups;
  // The bins a chart draws together: each group holds several of the table's values, so that a
  // quantised family's φ is drawn as the density it is, not as the count of values per bin.
  std::vector<int> chartGroups;
};

struct CurrentKnobChange {
  std::string key;       // the tool's own name, as in the file
  std::string from, to;  // as the file has it (or the default), and the fitted value
};

struct CurrentFit {
  std::string tool, model, settingsPath, settingsFormat;
  // How the model was chosen: given (--model), read from the file (OneTrainer's model_type,
  // ai-toolkit's model.arch, SimpleTuner's model_family) or the tool's default; said in the
  // output.
  std::string modelSource;
  std::string family;                        // the family the settings train
  std::vector<std::string> assumedDefaults;  // knobs not in the file, at the tool's default
  std::vector<std::string> unreadKeys;       // file keys no modelled family reads (not guessed)
  schedule::TrainerFamilyFit current;        // the settings as they are: φ and mismatch
  schedule::TrainerFamilyFit bestInFamily;   // the same family with its knobs fitted
  schedule::TrainerFamilyFit bestOverall;    // the tool's best family for the target
  std::vector<CurrentKnobChange> changes;    // the smallest change: knobs that move, from → to
};

// A fit's knobs as the tool spells them: a list-valued knob's entries ("name[0]", "name[1]", …)
// gathered under its name, the others with one value each, in order.
std::vector<std::pair<std::string, std::vector<double>>> knobValues(
    const schedule::TrainerFamilyFit& fit);
// The knobs as one line of text, "name = value, …" (a list as "[N knots]").
std::string knobText(const schedule::TrainerFamilyFit& fit, const char* format = "%.4g",
                     const char* assign = " = ", const char* separator = ", ");

// One family's fit: {"family", "params", "kl", "kl_reverse", "tv", "snippet"}, a list-valued
// knob as an array.
nlohmann::json toJson(const schedule::TrainerFamilyFit& fit);
// {"tool", "model", "coordinate", "fits": [one family each, best first]}, and "latent_scale" when
// the target comes from a latent cache.
nlohmann::json toJson(const ToolFit& fit);
// The same for a terminal, with the σ range and each family's note and snippet.
std::string formatToolFit(const ToolFit& fit);
// Writes the fit: toJson's object for a .json path, formatToolFit's text otherwise (atomically;
// InputError naming the path on failure). The CLI's --output and the GUI's "Save knobs" both.
void writeToolFit(const std::string& path, const ToolFit& fit);

// The settings, the family they train, the knobs assumed, the mismatch as set and at the best
// knobs, the smallest change, and the keys nothing read.
std::string formatCurrentFit(const CurrentFit& fit);
nlohmann::json toJson(const CurrentFit& fit);

}  // namespace noisescope::io
