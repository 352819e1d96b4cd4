// The nine tools and their model families: which builder answers for which (tool, model), and the
// loss weighting a user asks for applied to the tool's draws. The builders live in trainers/.
#include <algorithm>
#include <cmath>
#include <string>

#include "schedule/trainer_families.h"
#include "schedule/trainers/tools.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::schedule {
namespace {

using trainers::ModelDefinition;
using trainers::ToolEntry;

// The default model of each tool first: its most common case today (docs/trainers.md).
const std::vector<ToolEntry>& toolEntries() {
  static const std::vector<ToolEntry> entries = {
      {"diffusers",
       {"flux", "sd3", "hidream", "zimage", "lumina2", "ideogram4", "sana", "sdxl", "sd15", "sd2-v"},
       trainers::diffusers},
      {"sd-scripts",
       {"flux", "sd3", "lumina2", "hunyuan-image", "anima", "sdxl", "sd15", "sd2-v", "sdxl-v"},
       trainers::sdScripts},
      {"musubi-tuner", {"flux"}, trainers::musubiTuner},
      {"onetrainer",
       {"flux", "sd3", "chroma", "qwen", "sdxl", "sd15", "sd2-v", "sdxl-v"},
       trainers::oneTrainer},
      {"simpletuner", trainers::simpleTunerModels(), trainers::simpleTuner},
      {"ai-toolkit", trainers::aiToolkitModels(), trainers::aiToolkit},
      {"edm", {"edm"}, trainers::edm},
      {"edm2", {"edm2-img512"}, trainers::edm2},
      {"k-diffusion", {"image"}, trainers::kDiffusion},
  };
  return entries;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

const ToolEntry& entryOf(const std::string& name, const std::string& source) {
  for (const auto& e : toolEntries())
    if (e.name == name) return e;
  throw InputError(source,
                   "unknown tool '" + name + "' (one of: " + joined(trainerToolNames()) + ")");
}

ModelDefinition definitionOf(const std::string& name, const TrainerSettings& settings,
                             const std::string& source) {
  if (settings.width < 16 || settings.height < 16)
    throw InputError(settings::kTrainingResolution, "the image must be at least 16×16 pixels");
  const ToolEntry& entry = entryOf(name, source);
  if (name != "onetrainer" &&
      (settings.noisingStrengthMin != 0.0 || settings.noisingStrengthMax != 1.0))
    throw InputError(settings::kNoisingStrength,
                     name +
                         " has no noising-strength window (OneTrainer's "
                         "min_noising_strength/max_noising_strength)");
  if (name != "musubi-tuner" && settings.hasTimestepWindow())
    throw InputError(settings::kTimestepWindow,
                     name +
                         " has no held timestep window (musubi-tuner's "
                         "--min_timestep/--max_timestep/--preserve_distribution_shape)");
  const std::string model = settings.model.empty() ? entry.models.front() : settings.model;
  bool known = false;
  for (const auto& m : entry.models) known = known || m == model;
  if (!known)
    throw InputError(settings::kTrainerModel,
                     name + " is modelled for " + joined(entry.models) + ", not '" + model + "'");
  ModelDefinition d = entry.build(settings, model);
  d.tool.defaultFamily = d.defaultDraw;
  // A quantised draw reaches only its table's noise levels.
  if (!d.tool.tableEdges.empty()) {
    const auto& e = d.tool.tableEdges;
    double lo = INFINITY, hi = 0.0;
    for (std::size_t j = 0; j + 1 < e.size(); ++j) {
      const double sigma = trainerSigma(d.tool.tableAtUpper ? e[j + 1] : e[j], d.tool.coordinate);
      if (sigma > 0.0) lo = std::min(lo, sigma), hi = std::max(hi, sigma);
    }
    d.tool.sigmaMin = lo;
    d.tool.sigmaMax = hi;
  }
  return d;
}

bool combines(const trainers::LossWeighting& w, const TrainerFamily& draw) {
  return !w.combines || w.combines(draw.name);
}

std::vector<std::string> weightingNames(const ModelDefinition& d) {
  std::vector<std::string> names{d.baseWeighting};
  auto add = [&](const std::string& n) {
    for (const auto& m : names)
      if (m == n) return;
    names.push_back(n);
  };
  for (const auto& f : d.tool.families) add(f.weighting);
  for (const auto& w : d.weightings) add(w.name);
  return names;
}

}  // namespace

std::vector<std::string> trainerToolNames() {
  std::vector<std::string> names;
  for (const auto& e : toolEntries()) names.push_back(e.name);
  return names;
}

std::vector<std::string> trainerModelNames(const std::string& tool) {
  return entryOf(tool, settings::kTrainerTool).models;
}

std::vector<std::string> trainerLossWeightings(const std::string& tool,
                                               const TrainerSettings& settings) {
  TrainerSettings s = settings;
  s.lossWeighting.clear();
  return weightingNames(definitionOf(tool, s, settings::kTrainerTool));
}

TrainerTool trainerTool(const std::string& name, const TrainerSettings& settings,
                        const std::string& source) {
  ModelDefinition d = definitionOf(name, settings, source);
  TrainerTool tool = d.tool;
  const std::string& asked = settings.lossWeighting;
  if (asked.empty()) {
    // Every draw with the default loss, then each combinable weighting on the default draw.
    for (const auto& draw : d.tool.families)
      if (draw.name == d.defaultDraw)
        for (const auto& w : d.weightings)
          if (combines(w, draw)) tool.families.push_back(trainers::withWeighting(draw, w));
    return tool;
  }
  const auto names = weightingNames(d);
  bool offered = false;
  for (const auto& n : names) offered = offered || n == asked;
  if (!offered)
    throw InputError(settings::kTrainerLossWeighting, name + " (" + tool.model + ") offers " +
                                                          joined(names) + ", not '" + asked + "'");
  tool.families.clear();
  for (const auto& f : d.tool.families)
    if (f.weighting == asked) tool.families.push_back(f);
  for (const auto& w : d.weightings)
    if (w.name == asked)
      for (const auto& draw : d.tool.families)
        if (draw.weighting == d.baseWeighting && combines(w, draw))
          tool.families.push_back(trainers::withWeighting(draw, w));
  return tool;
}

}  // namespace noisescope::schedule
