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
#include "util/file_seal.h"

namespace noisescope::train {
namespace fs = std::filesystem;

namespace {
std::string stepName(int64_t step) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "step-%09lld", static_cast<long long>(step));
  return buffer;
}
}  // namespace

std::string readCheckpointFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the checkpoint");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw InputError(path, "cannot read the checkpoint");
  std::string file = bytes.str();
  const Unsealed seal = unsealBytes(file);
  switch (seal.state) {
    case Unsealed::State::Sealed:
      file.resize(seal.payload.size());
      return file;
    case Unsealed::State::Damaged:
      throw InputError(path, "damaged checkpoint: " + seal.problem);
    case Unsealed::State::Unsealed: {
      // Written before seals: a torch archive is a zip file, which ends with its end record
      // ("PK\5\6" and 18 more bytes; torch writes no archive comment). A file cut short lacks it.
      constexpr size_t kEndRecord = 22;
      if (file.size() < kEndRecord || file.compare(file.size() - kEndRecord, 4, "PK\5\6") != 0)
        throw InputError(path, "damaged checkpoint: cut short (" + std::to_string(file.size()) +
                                   " bytes, with neither a length-and-checksum footer nor the "
                                   "archive's end record)");
      return file;
    }
  }
  return file;
}

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

std::optional<std::string> RunDirectory::newestExport() const {
  const auto steps = checkpointSteps();
  for (auto it = steps.rbegin(); it != steps.rend(); ++it)
    if (std::filesystem::is_regular_file(exportPath(*it))) return exportPath(*it);
  return std::nullopt;
}

std::optional<RunDirectory::GoodCheckpoint> RunDirectory::newestGoodCheckpoint(
    std::vector<std::string>& notes) const {
  const auto steps = checkpointSteps();
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    const std::string path = checkpointPath(*it);
    try {
      return GoodCheckpoint{*it, readCheckpointFile(path)};
    } catch (const InputError& e) {
      std::error_code ec;
      fs::rename(path, path + ".damaged", ec);
      notes.push_back(std::string(e.what()) + "; skipped, " +
                      (ec ? "and it could not be renamed (" + ec.message() + ")"
                          : "renamed to " + fs::path(path).filename().string() + ".damaged"));
    }
  }
  return std::nullopt;
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
  appendToFile(eventsPath(), event.dump() + "\n");
}

std::vector<std::string> RunDirectory::truncateEventsAfter(int64_t step) const {
  std::vector<std::string> notes;
  std::ifstream in(eventsPath(), std::ios::binary);
  if (!in) return notes;
  std::ostringstream kept;
  std::string line;
  int64_t number = 0;
  while (std::getline(in, line)) {
    // A line cut short by the kill, one that is no valid event, or an event from after the
    // checkpoint is dropped; io/run_events reads the line as the workbench does.
    const RunEventParse parsed = parseRunEvent(line, eventsPath(), ++number);
    if (!parsed.note.empty()) notes.push_back(parsed.note + "; dropped on resume");
    if (!parsed.event || parsed.event->step > step) continue;
    kept << line << '\n';
  }
  in.close();
  writeFileAtomically(eventsPath(), kept.str());
  return notes;
}

}  // namespace noisescope::train
