#pragma once
// `noisescope-cli fit --current FILE` and the Export for… dialog's "Compare with my config…": what
// a user's own trainer settings train, measured against the target φ, and the smallest change of
// knobs that brings them to the best fit.
//
// The settings are matched to the tool's families through the families' own snippets: a snippet
// read back with the same reader gives the keys that select the family (the values that do not
// move with its knobs) and the key of each knob. The family whose selecting keys the file agrees
// with, and which explains the most of the file's keys that any family of the tool reads, is the
// one trained; a knob the file leaves out is taken at the tool's default, and said so.
#include <string>
#include <utility>
#include <vector>

#include "io/trainer_config_file.h"
#include "pipeline/schedules/fit_for_tool.h"

namespace noisescope::pipeline {

// What a settings file trains, read without fitting: the model (and held settings) it names, the
// family it selects, under the loss weighting that family comes from, and its knobs, a knob the
// file leaves out at the tool's default. The same errors as fitCurrentSettings.
struct CurrentSettings {
  schedule::TrainerSettings trainer;
  std::string modelSource;
  schedule::TrainerTool tool;  // the family's tool, its loss weighting applied
  schedule::TrainerFamily family;
  std::vector<double> params;
  std::vector<std::string> knobKeys;  // the file's key of each knob ("" where it has none)
  std::vector<std::string> assumedDefaults, unreadKeys;
};
CurrentSettings readCurrentSettings(const io::TrainerConfigFile& settings, const std::string& tool,
                                    const schedule::TrainerSettings& trainer);

// Throws InputError(settings.path, …) when the file sets none of the tool's draw keys in a way
// any family reads (e.g. a file of another tool). Without trainer.model, the model is read from a
// file that names it (OneTrainer's model_type, ai-toolkit's model.arch, SimpleTuner's
// model_family); a value NoiseScope does not map to one of the tool's modelled models is an
// InputError naming it and the file, not a guess.
io::CurrentFit fitCurrentSettings(const FitTarget& target, const io::TrainerConfigFile& settings,
                                  const std::string& tool,
                                  const schedule::TrainerSettings& trainer);

// The same for a settings file read with io::readTrainerConfigFile (InputError(path, …) for one
// that cannot be read or parsed).
io::CurrentFit fitCurrentSettingsFile(const FitTarget& target, const std::string& path,
                                      const std::string& tool,
                                      const schedule::TrainerSettings& trainer);

}  // namespace noisescope::pipeline
