#pragma once
// Schedules named in one string, for command lines and saved settings:
//   "edm", "preset:edm2-img64"                 a preset
//   "family:edm?p_mean=-1&p_std=1.4"           a family with parameters
//   "...?weight=min-snr&gamma=5&sigma_data=0.5" any of the above with another loss weight
//   "path/to/file.json" (or .csv, .h5)        a schedule file
// parseScheduleSpec is the one reader of this syntax; pipeline::recipeFromSpec turns its result
// into a recipe (with σ_data resolved from the data the face knows), scheduleFromSpec into a
// schedule where no data is known.
#include <optional>
#include <string>

#include "schedule/families.h"
#include "schedule/loss_weight.h"
#include "schedule/schedule.h"

namespace noisescope::schedule {

struct ScheduleSpec {
  std::string text;  // the whole spec, for messages
  bool isFile = false;
  bool isFamily = false;   // "family:NAME"; otherwise a preset ("preset:NAME" or "NAME")
  std::string name;        // the family or preset (isFile: empty)
  ParameterValues values;  // the family's parameters given
  std::string weightName;  // empty: the preset's or family's own weight
  std::optional<double> sigmaData, gamma;  // checked > 0 when given
};

// Syntax only: throws InputError naming the spec for an empty spec, a pair without '=', a
// repeated key, a value that is not a finite number, or σ_data/γ ≤ 0. Names are checked when the
// schedule is built.
ScheduleSpec parseScheduleSpec(const std::string& spec);

// Builds the spec on the grid (files are read as they are). The loss weight's σ_data is the
// spec's, else `sigmaDataIfUnset` (the caller says what it knows). Throws InputError naming the
// spec for unknown presets, families, parameters or bad numbers.
Schedule scheduleFromSpec(const std::string& spec, const LogSigmaGrid& grid,
                          double sigmaDataIfUnset);

}  // namespace noisescope::schedule
