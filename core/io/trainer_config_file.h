#pragma once
// Another trainer's settings, read as the flat key → value text they set: a JSON config
// (OneTrainer, SimpleTuner, k-diffusion), a YAML job (ai-toolkit), a TOML --config_file
// (sd-scripts, musubi-tuner) or a command line (sd-scripts, musubi-tuner, diffusers, EDM2).
//
// Nested objects become dotted keys ("model.sigma_sample_density.type"), an array of objects
// numbered entries ("config.process.0.train.timestep_type"), any other array its JSON text, and a
// command line's --flag value / --flag=value / --switch the key "flag" (a switch "true"). Leading
// dashes are dropped from every key, so SimpleTuner's "--flow_schedule_shift" keys read the same.
#include <map>
#include <string>

namespace noisescope::io {

struct TrainerConfigFile {
  std::string path;
  std::string format;  // "json", "yaml", "toml" or "command-line"
  std::map<std::string, std::string> values;
};

// Reads `path`, the format from its extension (.json, .yaml/.yml, .toml; anything else is a
// command line, shell line continuations and quotes understood). Throws InputError(path, …) for
// a file that cannot be read, does not parse, or sets nothing.
TrainerConfigFile readTrainerConfigFile(const std::string& path);

// The same for text already in memory in `format`; `source` names it in errors.
TrainerConfigFile parseTrainerConfig(const std::string& text, const std::string& format,
                                     const std::string& source);

}  // namespace noisescope::io
