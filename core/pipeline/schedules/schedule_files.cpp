#include "pipeline/schedules/schedule_files.h"

#include "io/schedule_io.h"

namespace noisescope::pipeline {

void saveScheduleFile(const std::string& path, const BuiltSchedule& built,
                      const std::string& producer) {
  writeSchedule(path, built.schedule, scheduleProvenance(built, producer));
}

nlohmann::json scheduleSummaryJson(const schedule::Schedule& schedule) {
  nlohmann::json json = scheduleToJson(schedule);
  json.erase("provenance");
  return json;
}

}  // namespace noisescope::pipeline
