#include "pipeline/training/run_watch.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>

#include "io/run_events.h"
#include "io/run_progress.h"
#include "train/run_directory.h"

namespace noisescope::pipeline {

RunWatch::RunWatch(std::string eventsPath)
    : follower_(std::make_unique<RunEventsFollower>(std::move(eventsPath))) {}

RunWatch::~RunWatch() = default;

const std::string& RunWatch::eventsPath() const {
  return follower_->path();
}

RunWatch::Change RunWatch::poll() {
  Change change;
  RunEventsFollower::Batch batch;
  try {
    batch = follower_->poll();
  } catch (const std::exception& e) {  // out of memory or the like: keep what was read
    addNote("cannot read " + follower_->path() + ": " + e.what(), change);
    change.changed = true;
    return change;
  }
  if (batch.restarted) {
    // Rewritten (a resumed run drops events after its checkpoint) or replaced: read it anew,
    // keeping the notes so that what happened stays visible.
    RunRecord fresh;
    fresh.notes = std::move(record_.notes);
    fresh.restarts = record_.restarts + 1;
    record_ = std::move(fresh);
    addNote(follower_->path() + " was replaced or shortened; read again from the start", change);
  }
  for (std::string& note : batch.notes) {
    ++record_.malformedLines;
    addNote(std::move(note), change);
  }
  for (const RunEvent& event : batch.events) apply(event, change);
  change.changed = batch.restarted || !batch.events.empty() || !batch.notes.empty();
  return change;
}

void RunWatch::addNote(std::string note, Change& change) {
  change.notes.push_back(note);
  record_.notes.push_back(std::move(note));
  const auto excess = static_cast<std::ptrdiff_t>(record_.notes.size()) - RunRecord::kMaxNotes;
  if (excess > 0) record_.notes.erase(record_.notes.begin(), record_.notes.begin() + excess);
}

void RunWatch::apply(const RunEvent& e, Change& change) {
  const double step = static_cast<double>(e.step);
  switch (e.kind) {
    case RunEvent::Kind::Start:
    case RunEvent::Kind::Resume:
      record_.started = true;
      record_.stoppedByUser = false;
      record_.totalSteps = static_cast<double>(e.steps);
      record_.threads = static_cast<int>(std::min<int64_t>(e.threads, 1 << 20));
      break;
    case RunEvent::Kind::Train:
      record_.train.push_back({step, e.loss, e.stepsPerSecond, e.time});
      break;
    case RunEvent::Kind::Schedule: {
      RunRecord::ScheduleSnapshot s;
      s.step = step;
      s.refresh = static_cast<int>(std::min<int64_t>(e.refresh, 1 << 30));
      s.sigma = e.sigma;
      // Events carry bin probabilities; charts want a density per unit log σ (the reader has
      // checked that the edges increase and that there is one mass per bin).
      for (size_t b = 0; b < e.pi.size(); ++b)
        s.density.push_back(e.pi[b] / (e.logSigmaEdges[b + 1] - e.logSigmaEdges[b]));
      s.mhat = e.mhat;
      record_.sampler = e.sampler;
      record_.schedules.push_back(std::move(s));
      break;
    }
    case RunEvent::Kind::Eval:
      record_.evals.push_back(
          {step, e.quality, e.sigma, e.error, e.fd, e.kmerJs, e.featureNetwork});
      record_.reference = e.reference;
      break;
    case RunEvent::Kind::End:
      record_.ended = true;
      break;
    case RunEvent::Kind::Checkpoint:
      record_.lastCheckpointStep = step;
      break;
    case RunEvent::Kind::Note:
      addNote(e.message, change);
      break;
    case RunEvent::Kind::Error:
      record_.error = e.message;
      addNote("the run stopped: " + e.message, change);
      break;
    case RunEvent::Kind::Stop:
      record_.stoppedByUser = true;
      break;
  }
}

void recordUserStop(const std::string& runDirectory, int64_t step) {
  std::error_code ignored;
  if (!std::filesystem::is_directory(runDirectory, ignored)) return;
  RunEvent stop;
  stop.kind = RunEvent::Kind::Stop;
  stop.step = step;
  stop.time =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  stop.message = "stopped by the user at step " + std::to_string(step);
  train::RunDirectory(runDirectory).appendEvent(runEventJson(stop));
}

namespace {

// What the trainer does after its last step, in the order it does it (train/trainer.cpp): the
// final evaluation, the checkpoint with its TorchScript export, the final schedule and "end".
std::string finishingPhase(const RunRecord& record) {
  if (record.evals.empty() || record.evals.back().step < record.totalSteps)
    return "finishing: final evaluation…";
  if (record.lastCheckpointStep < record.totalSteps)
    return "finishing: writing checkpoint and export…";
  return "finishing: writing the final schedule…";
}

}  // namespace

RunEta runEta(const RunRecord& record) {
  RunEta eta;
  eta.finishing = !record.ended && !record.train.empty() && record.totalSteps > 0 &&
                  record.train.back().step >= record.totalSteps;
  if (eta.finishing) {
    eta.secondsLeft = 0.0;
    eta.text = finishingPhase(record);
    return eta;
  }
  std::vector<ProgressPoint> points;
  points.reserve(record.train.size());
  for (const auto& p : record.train) points.push_back({p.step, p.time});
  eta.secondsLeft = estimateSecondsLeft(points, record.totalSteps);
  eta.text = eta.secondsLeft ? "ETA " + formatDuration(*eta.secondsLeft) : "ETA estimating…";
  return eta;
}

}  // namespace noisescope::pipeline
