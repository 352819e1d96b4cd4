#include "pipeline/training/train_job.h"

#include <memory>
#include <utility>

#include "tensor/communicator.h"
#include "train/run_directory.h"
#include "train/trainer.h"
#include "train/training_data.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::pipeline {

TrainOutcome runTraining(const TrainRequest& request,
                         const std::function<Progress(const std::string& task)>& progressFor,
                         const std::function<void(const std::string&)>& note,
                         const std::function<void()>& onResume) {
  train::RunDirectory run(request.runDirectory);
  const bool hasCheckpoint = run.latestCheckpointStep().has_value();
  if (request.resume && !hasCheckpoint)
    throw InputError(request.runDirectory,
                     "--resume was given but the run directory has no checkpoint");
  TrainOutcome outcome;
  train::TrainConfig config;
  if (hasCheckpoint) {
    // A run continues with the settings it started with: its own resolved config.json.
    if (!request.config.empty()) train::readTrainConfig(request.config);  // still reject a bad file
    config = train::readTrainConfig(run.configPath());
    outcome.resumed = true;
    if (onResume) onResume();
  } else {
    if (request.config.empty())
      throw InputError(settings::kTrainingConfig,
                       "required unless RUN_DIR holds a checkpoint to resume");
    config = train::readTrainConfig(request.config);
  }

  const DistributedEnvironment env = distributedEnvironmentFromEnv();
  std::unique_ptr<Communicator> communicator;
  if (env.worldSize > 1) communicator = std::make_unique<Communicator>(env);
  outcome.rank = env.rank;
  outcome.worldSize = env.worldSize;

  const std::string task =
      env.worldSize > 1 ? "train[rank " + std::to_string(env.rank) + "]" : std::string("train");
  const Progress progress = progressFor ? progressFor(task) : Progress{};
  train::TrainingData data = train::loadTrainingData(config, progress.sub(0.0, 0.02));
  train::TrainerOptions options;
  options.runDir = request.runDirectory;
  options.requireResume = request.resume;
  options.communicator = communicator.get();
  options.progress = progress.sub(0.02, 1.0);
  options.note = note;
  train::Trainer trainer(config, std::move(data), options);
  const train::TrainSummary summary = trainer.run();
  outcome.startStep = summary.startStep;
  outcome.step = summary.step;
  outcome.reference = trainer.resolvedConfig().eval.reference;
  outcome.quality = summary.lastEvaluation.quality;
  return outcome;
}

}  // namespace noisescope::pipeline
