#include "pipeline/schedule_files.h"

#include "io/schedule_io.h"

namespace noisescope::pipeline {

void saveScheduleFile(const std::string& path, const BuiltSchedule& built,
                      const std::string& producer) {
  writeSchedule(path, built.schedule, scheduleProvenance(built, producer));
}

void saveCurvesCsvFile(const std::string& path, const schedule::CurveTable& table) {
  writeCurvesCsv(path, table);
}

nlohmann::json scheduleSummaryJson(const schedule::Schedule& schedule) {
  nlohmann::json json = scheduleToJson(schedule);
  json.erase("provenance");
  return json;
}

}  // namespace noisescope::pipeline
