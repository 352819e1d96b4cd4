#pragma once
// The CLI's side of the engine's setting names (util/setting_names.h): which flag sets each, so
// an engine error about a setting reads as an error about the flag the user typed.
#include <string>
#include <utility>
#include <vector>

#include "util/error.h"

namespace noisescope::cli {

// (setting, flag) for every setting an engine error can name.
const std::vector<std::pair<std::string, std::string>>& settingFlags();

// The error as the CLI prints it: its source with a leading setting name (alone, or followed by
// a space and the value) replaced by the flag, then ": " and the problem.
std::string errorText(const InputError& error);

}  // namespace noisescope::cli
