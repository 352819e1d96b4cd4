#pragma once
// The folder a training run writes, so that a GUI (or a person with `tail -f`) can follow it and a
// killed run can resume:
//   config.json          the full resolved config (noisescope.train-config/1)
//   events.jsonl         one JSON object per line (schema in docs/training.md)
//   checkpoints/         step-NNNNNNNNN.ckpt (native: model, EMA, Adam, sampler, step; sealed
//                        with a length-and-checksum footer, util/file_seal.h) and
//                        step-NNNNNNNNN.denoiser.pt (TorchScript of the EMA denoiser)
//   schedules/           the sampler's schedule as noisescope.schedule/1 JSON
// Only the writing process (rank 0) creates or changes anything.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace noisescope::train {

// The bytes of a native checkpoint file, checked before anything parses them: a sealed file must
// match its footer; a file from before seals must at least end with the zip end record that every
// torch archive ends with. InputError naming the file and what is wrong otherwise (cut short,
// damaged, unreadable).
std::string readCheckpointFile(const std::string& path);

class RunDirectory {
 public:
  explicit RunDirectory(std::string path);

  const std::string& path() const { return path_; }
  std::string configPath() const;
  std::string eventsPath() const;
  std::string checkpointsDir() const;
  std::string schedulesDir() const;
  std::string checkpointPath(int64_t step) const;
  std::string exportPath(int64_t step) const;

  // Creates the folder and its subfolders (InputError naming the path when that fails).
  void create() const;
  // Steps of the complete native checkpoints present, ascending (temporary files are ignored).
  std::vector<int64_t> checkpointSteps() const;
  std::optional<int64_t> latestCheckpointStep() const;
  // The newest TorchScript export (checkpoints/step-N.denoiser.pt) present: the newest
  // checkpoint's, or, when that one has none (an export that failed, or was not asked for), the
  // next older one's. The one rule for every command that samples or profiles a run's denoiser.
  std::optional<std::string> newestExport() const;
  struct GoodCheckpoint {
    int64_t step = 0;
    std::string bytes;  // the checked archive, footer removed
  };
  // The newest checkpoint whose file passes readCheckpointFile. Each newer one that does not is
  // renamed to step-N.ckpt.damaged (kept for inspection, never listed or loaded again) and
  // described in `notes`. Empty when no checkpoint is left.
  std::optional<GoodCheckpoint> newestGoodCheckpoint(std::vector<std::string>& notes) const;
  // Removes all but the newest `keep` checkpoints (and their TorchScript exports).
  void pruneCheckpoints(int64_t keep) const;

  void writeJson(const std::string& path, const nlohmann::json& json) const;  // atomically
  // Appends one event line with one write; a write that fails part-way is cut back, so a full
  // disk leaves no torn line. InputError naming events.jsonl and the system error.
  void appendEvent(const nlohmann::json& event) const;
  // Drops events with "step" > step (what a killed run wrote after its last checkpoint) and lines
  // that are no valid event (torn by a crash or a full disk), keeping the file's other lines;
  // rewrites the file atomically. Returns a note for each torn or invalid line dropped.
  std::vector<std::string> truncateEventsAfter(int64_t step) const;

 private:
  std::string path_;
};

}  // namespace noisescope::train
