#pragma once
// The Train action: a run directory trained from a config, or resumed from its newest good
// checkpoint with the settings it started with (its own config.json). `noisescope-cli train` is
// its face; the workbench's Training tab runs that command as a child process and follows the run
// directory. With torchrun's variables set the processes train data-parallel over c10d; rank 0
// writes the run directory.
#include <cstdint>
#include <functional>
#include <string>

#include "util/progress.h"

namespace noisescope::pipeline {

struct TrainRequest {
  std::string config;        // the training config (JSON; docs/training.md); "" only to resume
  std::string runDirectory;  // where the run is written (or continued)
  bool resume = false;       // require a checkpoint in runDirectory and continue from it
};

struct TrainOutcome {
  int rank = 0;  // this process's rank (0 when not distributed)
  int worldSize = 1;
  bool resumed = false;   // continued from a checkpoint with the run's own config.json
  int64_t startStep = 0;  // the steps this call trained: startStep..step
  int64_t step = 0;
  std::string reference;  // the held-out measure's name and its last value
  double quality = 0.0;
};

// `progressFor(task)` gives the progress to report under `task` ("train", or "train[rank r]");
// `note` receives the trainer's notes (e.g. that an adaptive schedule fell back). `onResume` is
// called before training when a checkpoint is continued. Throws InputError for a bad config, a
// run directory that cannot be resumed, or unreadable data; DistributedError when a rank is lost.
TrainOutcome runTraining(const TrainRequest& request,
                         const std::function<Progress(const std::string& task)>& progressFor,
                         const std::function<void(const std::string&)>& note,
                         const std::function<void()>& onResume = {});

}  // namespace noisescope::pipeline
