#pragma once
// The training loop: EDM-preconditioned denoiser, Adam, EMA of the weights, noise levels from a
// NoiseSampler, statistics and gradients reduced across ranks, a run directory written by rank 0,
// and exact resume from the last checkpoint.
//
// Random numbers: step s of rank r draws everything (batch rows, σ uniforms, ε) from a generator
// seeded with mix(seed, r, s). The stream is therefore a function of (seed, rank, step) alone, and
// a resumed run continues bit-for-bit where the straight run would have been (on CPU).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "train/evaluation.h"
#include "train/noise_sampler.h"
#include "train/train_config.h"
#include "train/training_data.h"
#include "util/progress.h"

namespace noisescope {
class Communicator;
}

namespace noisescope::train {

class Denoiser;

struct TrainerOptions {
  std::string runDir;
  // true: a checkpoint must exist (InputError otherwise). false: resume when there is one, else
  // start fresh. Either way a present checkpoint is always continued, never overwritten.
  bool requireResume = false;
  Communicator* communicator = nullptr;  // null: one process
  Progress progress;
  // Tests: return right after this step (as if killed), without the end-of-run work. −1: off.
  int64_t stopAfterStep = -1;
  // Told each note the run also writes to events.jsonl as a "note" event (a damaged checkpoint or
  // torn event line skipped on resume); the CLI prints them on stderr.
  std::function<void(const std::string&)> note;
};

struct TrainSummary {
  int64_t startStep = 0;  // > 0 when the run resumed
  int64_t step = 0;       // steps done
  double lastLoss = 0.0;
  EvaluationResult lastEvaluation;
  std::string lastCheckpoint;
  std::string scheduleFile;
};

class Trainer {
 public:
  Trainer(TrainConfig config, TrainingData data, TrainerOptions options);
  ~Trainer();

  TrainSummary run();

  const TrainConfig& resolvedConfig() const { return config_; }
  const NoiseSampler& sampler() const;
  std::vector<std::pair<std::string, at::Tensor>> modelParameters() const;
  std::vector<std::pair<std::string, at::Tensor>> emaParameters() const;
  // Per-bin statistics summed over all steps of this process's run (after the rank reduction).
  const BinStatistics& totalStatistics() const;

 private:
  struct Impl;
  TrainConfig config_;
  std::unique_ptr<Impl> impl_;
};

// The static schedule (or warm-up schedule) a config names, on `bins` bins over its σ range, with
// its loss weight set from noise.loss_weight and σ_data.
schedule::Schedule baseScheduleFor(const TrainConfig& config, double sigmaData,
                                   int bins = kBaseScheduleBins);
// The sampler a run of `config` draws σ from: the base schedule above, the noise section's
// statistics grid and adaptive settings. A gate_c of "auto" is resolved first, in `config`, by
// the one rule (schedule::defaults::autoGateC) for this kind of data, so config.json says what
// was used. The trainer and the pipeline's online sampler (the Python golden replay) both build
// their sampler here.
NoiseSampler resolveNoiseSampler(TrainConfig& config, bool discreteData, double sigmaData);

}  // namespace noisescope::train
