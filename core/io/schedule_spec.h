#pragma once
// Schedules named in one string, for command lines and saved settings:
//   "edm", "preset:edm2-img64"                 a preset
//   "family:edm?p_mean=-1&p_std=1.4"           a family with parameters
//   "...?weight=min-snr&gamma=5&sigma_data=0.5" any of the above with another loss weight
//   "path/to/file.json" (or .csv, .h5)        a schedule file
#include <string>

#include "schedule/loss_weight.h"
#include "schedule/schedule.h"

namespace noisescope::schedule {

// Throws InputError naming the spec for unknown presets, families, parameters or bad numbers.
Schedule scheduleFromSpec(const std::string& spec, const LogSigmaGrid& grid);

}  // namespace noisescope::schedule
