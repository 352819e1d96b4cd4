#pragma once
// The one reader and the one C++ writer of a training run's events.jsonl (schema:
// docs/schemas/run-events.schema.json, explained in docs/training.md; the trainer writes through
// runEventJson, the Python package writes the same schema). parseRunEvent checks one line — every
// documented field present with its type, numbers finite and in range, arrays of matching
// lengths — and RunEventsFollower tails a file that another process is still writing. Nothing
// here throws on bad content: a line that is not a valid event comes back as a note naming the
// file and line, for the caller to show and skip.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace noisescope {

struct RunEvent {
  enum class Kind { Start, Resume, Train, Schedule, Eval, Checkpoint, End, Note, Error, Stop };
  Kind kind = Kind::Start;
  std::string name;  // the "event" field as written
  int64_t step = 0;
  double time = 0.0;  // Unix seconds

  // start / resume
  int64_t steps = 0, worldSize = 0, parameters = 0, trainSamples = 0, testSamples = 0, bins = 0;
  int64_t threads = 0;  // torch CPU threads of the run (0: not recorded)
  std::string device, test, networkKind;
  nlohmann::json network = nlohmann::json::object();  // the network description ("kind", ...)
  double sigmaData = 0.0;
  bool discrete = false;
  // The gate and the loss weight as resolved (older files lack them: gate empty, NaN c).
  double gateC = 0.0;
  std::string gate;  // "auto", "set" or "off"
  struct LossWeight {
    std::string kind, label, from;  // from: "config" or "schedule file"
    double sigmaData = 0.0, gamma = 0.0;
  } lossWeight;

  // train. Empty bins (and a loss that was not finite) are written as null: NaN here.
  double loss = 0.0, lr = 0.0, samplesPerSecond = 0.0, stepsPerSecond = 0.0;
  std::vector<double> binError, binCount;

  // schedule (mhat, rho and cdfChange only after a refresh; empty / NaN otherwise)
  std::string sampler;
  int64_t refresh = 0;
  std::vector<double> logSigmaEdges, sigma, pi, mhat, rho;
  double cdfChange = 0.0;

  // eval (sigma as above; swd NaN when not computed; null errors and quality are NaN)
  std::vector<double> error;
  double elbo = 0.0, edm = 0.0, quality = 0.0, swd = 0.0;
  std::string reference;
  // Sample quality of images / DNA (THEORY §11), all optional: NaN / empty / 0 when absent.
  double fd = 0.0, kmerJs = 0.0, featureAccuracy = 0.0;
  std::string featureNetwork;
  int64_t qualitySamples = 0, heunSteps = 0;

  // checkpoint (exportPath empty when the run exports no TorchScript)
  std::string path, exportPath;

  // end
  double seconds = 0.0;

  // note (something skipped on resume), error (the run stopped: a file it could not write) and
  // stop (the user stopped the run; written by the face that stopped it, after the process
  // ended); lastCheckpoint is the checkpoint a resume starts from ("" when there is none)
  std::string message, lastCheckpoint;
};

// Either an event or a note saying why the line is not one ("FILE:LINE: ...").
struct RunEventParse {
  std::optional<RunEvent> event;
  std::string note;
};

// Magnitude above which a number is refused: charts difference and sum these values.
constexpr double kLargestEventNumber = 1e300;

// A blank line is neither an event nor a note. `source` names the file in notes.
RunEventParse parseRunEvent(std::string_view line, const std::string& source, int64_t lineNumber);

// The line for an event: the fields of its kind (NaN written as null; the optional ones of eval,
// checkpoint and start only when they hold something), the inverse of parseRunEvent.
nlohmann::json runEventJson(const RunEvent& event);

// Tails events.jsonl by byte offset. Each poll returns the complete lines written since the last
// one; a last line without its newline waits for it. When the file is replaced (another inode),
// gets shorter, or its first bytes change, the follower starts again from the top and says so,
// and the caller drops what it had: a resumed run rewrites the file without the lost steps.
class RunEventsFollower {
 public:
  struct Batch {
    bool restarted = false;  // the caller's state is stale: these events start from line 1
    std::vector<RunEvent> events;
    std::vector<std::string> notes;
  };

  explicit RunEventsFollower(std::string path, int64_t maxLineBytes = int64_t{16} << 20,
                             int64_t maxBytesPerPoll = int64_t{64} << 20);

  // A missing file is not an error (the run may not have started); it yields an empty batch.
  Batch poll();

  const std::string& path() const { return path_; }
  int64_t offset() const { return offset_; }
  int64_t lines() const { return lineNumber_; }

 private:
  void restart();
  void takeLine(std::string_view line, Batch& batch);

  std::string path_;
  int64_t maxLineBytes_, maxBytesPerPoll_;
  int64_t offset_ = 0;
  int64_t lineNumber_ = 0;
  std::string pending_;    // bytes after the last newline
  bool skipping_ = false;  // inside a line longer than maxLineBytes_, until its newline
  std::string head_;       // the file's first bytes, to notice a rewrite in place
  bool known_ = false;     // device_/inode_ hold the file being followed
  uint64_t device_ = 0, inode_ = 0;
};

}  // namespace noisescope
