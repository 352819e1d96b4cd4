#pragma once
// The schedule files both faces write: a built schedule with the provenance of the recipe that
// made it (JSON, CSV or HDF5 by the file's extension), and a schedule's curves as a CSV table.
// The faces come here rather than to the file formats (io/schedule_io.h).
#include <nlohmann/json.hpp>

#include <string>

#include "pipeline/schedules/schedule_recipe.h"
#include "schedule/allocation.h"

namespace noisescope::pipeline {

// Writes `built.schedule` with scheduleProvenance(built, producer); the extension chooses the
// format.
void saveScheduleFile(const std::string& path, const BuiltSchedule& built,
                      const std::string& producer);
// The schedule as our JSON describes it, without the provenance (a summary to print).
nlohmann::json scheduleSummaryJson(const schedule::Schedule& schedule);

}  // namespace noisescope::pipeline
