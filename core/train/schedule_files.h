#pragma once
// Reading and writing noisescope.schedule/1 files from the trainer: the static schedule a config
// names, and the schedule a run ends with (schedules/ in the run directory).
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "schedule/schedule.h"

namespace noisescope::train {

// InputError naming the file for anything that is not a readable schedule.
schedule::Schedule readScheduleFile(const std::string& path);
// Atomically; `provenance` is stored as the file's "provenance" block.
void writeScheduleFile(const std::string& path, const schedule::Schedule& schedule,
                       const nlohmann::json& provenance);

}  // namespace noisescope::train
