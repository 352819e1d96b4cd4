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

// Throws InputError(settings.path, …) when the file sets none of the tool's draw keys in a way
// any family reads (e.g. a file of another tool). Without trainer.model, the model is read from a
// file that names it (OneTrainer's model_type, ai-toolkit's model.arch, SimpleTuner's
// model_family); a value NoiseScope does not map to one of the tool's modelled models is an
// InputError naming it and the file, not a guess.
CurrentFit fitCurrentSettings(const FitTarget& target, const io::TrainerConfigFile& settings,
                              const std::string& tool, const schedule::TrainerSettings& trainer);

// The same for a settings file read with io::readTrainerConfigFile (InputError(path, …) for one
// that cannot be read or parsed).
CurrentFit fitCurrentSettingsFile(const FitTarget& target, const std::string& path,
                                  const std::string& tool,
                                  const schedule::TrainerSettings& trainer);

std::string formatCurrentFit(const CurrentFit& fit);
nlohmann::json toJson(const CurrentFit& fit);

}  // namespace noisescope::pipeline
