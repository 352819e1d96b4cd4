#pragma once
// Follows one training run's events.jsonl (io/run_events.h) and folds its events into what a
// face shows: the loss, the schedule snapshots as densities, the evaluations, how the run ended
// and every line that was skipped. Qt-free, so the workbench's run monitor and any other face read
// a run the same way; a line that is not a valid event is noted and skipped, never trusted.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace noisescope {
class RunEventsFollower;
struct RunEvent;
}  // namespace noisescope

namespace noisescope::pipeline {

// What a run's events say so far.
struct RunRecord {
  struct TrainPoint {
    double step, loss, stepsPerSecond;
    double time;  // Unix seconds of the event (the ETA's clock: it includes evaluation time)
  };
  struct ScheduleSnapshot {
    double step;
    int refresh;
    std::vector<double> sigma;    // bin centres
    std::vector<double> density;  // π per unit log σ
    std::vector<double> mhat;     // smoothed per-bin x0 error (empty before the first refresh)
  };
  struct EvalPoint {
    double step, quality;
    std::vector<double> sigma, error;
    // Sample quality (THEORY §11), NaN when the evaluation did not compute it.
    double fd, kmerJs;
    std::string featureNetwork;  // the feature network of fd ("" without fd)
  };
  std::vector<TrainPoint> train;
  std::vector<ScheduleSnapshot> schedules;
  std::vector<EvalPoint> evals;
  std::string sampler;
  std::string reference;  // the eval's scalar quality measure ("elbo" or "edm")
  double totalSteps = 0;
  int threads = 0;  // torch CPU threads the run uses (start event; 0: not recorded)
  bool started = false;
  bool ended = false;
  double lastCheckpointStep = -1;  // step of the newest "checkpoint" event (-1: none yet)
  std::string error;               // why the run stopped, from its "error" event ("" while none)
  // A "stop" event: the user stopped the run (a later start or resume clears it).
  bool stoppedByUser = false;
  int malformedLines = 0;          // lines that were not valid events (noted, then skipped)
  std::vector<std::string> notes;  // why, for the latest kMaxNotes of them ("FILE:LINE: ...")
  int restarts = 0;                // times the events file was replaced or cut and read again
  static constexpr int kMaxNotes = 20;
};

class RunWatch {
 public:
  // What one poll changed.
  struct Change {
    bool changed = false;            // the record differs from before the poll
    std::vector<std::string> notes;  // notes added by this poll, in order
  };

  explicit RunWatch(std::string eventsPath);
  ~RunWatch();
  RunWatch(const RunWatch&) = delete;
  RunWatch& operator=(const RunWatch&) = delete;

  // Reads the complete lines written since the last poll. Never throws: a failure to read (out of
  // memory or the like) is a note, and what was read is kept.
  Change poll();

  const RunRecord& record() const { return record_; }
  const std::string& eventsPath() const;

 private:
  void apply(const RunEvent& event, Change& change);
  void addNote(std::string note, Change& change);

  std::unique_ptr<RunEventsFollower> follower_;
  RunRecord record_;
};

// Records in the run directory that the user stopped its run: appends a "stop" event (step: the
// newest logged step) to events.jsonl, so that the run reopened later reads as stopped, not failed.
// For the face that stopped the run, once its process has ended (the trainer, killed by the
// signal, cannot write it). Does nothing when the folder does not exist (the run never started);
// InputError naming the file when the write fails.
void recordUserStop(const std::string& runDirectory, int64_t step);

// How long the run has left, from its "train" events' wall-clock stamps (io/run_progress.h, a
// smoothed rate). After the last step the trainer still evaluates, writes its checkpoint and
// export and its final schedule, which takes minutes on a small machine: then the text names that
// phase instead of claiming "ETA 0 s".
struct RunEta {
  std::optional<double> secondsLeft;  // empty before the events show a rate
  bool finishing = false;             // every step is done; the run is writing its results
  std::string text;  // "ETA 3 min 20 s", "ETA estimating…" or "finishing: writing checkpoint…"
};
RunEta runEta(const RunRecord& record);

}  // namespace noisescope::pipeline
