#include "train/run_directory.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/run_events.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace noisescope::train {
namespace fs = std::filesystem;

namespace {
std::string stepName(int64_t step) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "step-%09lld", static_cast<long long>(step));
  return buffer;
}
}  // namespace

RunDirectory::RunDirectory(std::string path) : path_(std::move(path)) {}

std::string RunDirectory::configPath() const {
  return (fs::path(path_) / "config.json").string();
}
std::string RunDirectory::eventsPath() const {
  return (fs::path(path_) / "events.jsonl").string();
}
std::string RunDirectory::checkpointsDir() const {
  return (fs::path(path_) / "checkpoints").string();
}
std::string RunDirectory::schedulesDir() const {
  return (fs::path(path_) / "schedules").string();
}
std::string RunDirectory::checkpointPath(int64_t step) const {
  return (fs::path(checkpointsDir()) / (stepName(step) + ".ckpt")).string();
}
std::string RunDirectory::exportPath(int64_t step) const {
  return (fs::path(checkpointsDir()) / (stepName(step) + ".denoiser.pt")).string();
}

void RunDirectory::create() const {
  std::error_code ec;
  for (const auto& dir : {path_, checkpointsDir(), schedulesDir()}) {
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
      throw InputError(dir, "cannot create the run directory: " + ec.message());
  }
}

std::vector<int64_t> RunDirectory::checkpointSteps() const {
  std::vector<int64_t> steps;
  std::error_code ec;
  if (!fs::is_directory(checkpointsDir(), ec)) return steps;
  for (const auto& entry : fs::directory_iterator(checkpointsDir(), ec)) {
    const std::string name = entry.path().filename().string();
    // step-NNNNNNNNN.ckpt exactly: a leftover step-….ckpt.tmp from a killed write is not one.
    if (name.size() != 19 || name.rfind("step-", 0) != 0 || name.substr(14) != ".ckpt") continue;
    const std::string digits = name.substr(5, 9);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    steps.push_back(std::stoll(digits));
  }
  std::sort(steps.begin(), steps.end());
  return steps;
}

std::optional<int64_t> RunDirectory::latestCheckpointStep() const {
  const auto steps = checkpointSteps();
  if (steps.empty()) return std::nullopt;
  return steps.back();
}

void RunDirectory::pruneCheckpoints(int64_t keep) const {
  const auto steps = checkpointSteps();
  for (size_t i = 0; i + size_t(keep) < steps.size(); ++i) {
    std::error_code ec;
    fs::remove(checkpointPath(steps[i]), ec);
    fs::remove(exportPath(steps[i]), ec);
  }
}

void RunDirectory::writeJson(const std::string& path, const nlohmann::json& json) const {
  writeFileAtomically(path, json.dump(2) + "\n");
}

void RunDirectory::appendEvent(const nlohmann::json& event) const {
  std::ofstream out(eventsPath(), std::ios::app | std::ios::binary);
  if (!out) throw InputError(eventsPath(), "cannot append to the events file");
  out << event.dump() << '\n';
  out.flush();
}

void RunDirectory::truncateEventsAfter(int64_t step) const {
  std::ifstream in(eventsPath(), std::ios::binary);
  if (!in) return;
  std::ostringstream kept;
  std::string line;
  int64_t number = 0;
  while (std::getline(in, line)) {
    // A line cut short by the kill, one that is no valid event, or an event from after the
    // checkpoint is dropped; io/run_events reads the line as the workbench does.
    const RunEventParse parsed = parseRunEvent(line, eventsPath(), ++number);
    if (!parsed.event || parsed.event->step > step) continue;
    kept << line << '\n';
  }
  in.close();
  writeFileAtomically(eventsPath(), kept.str());
}

}  // namespace noisescope::train
