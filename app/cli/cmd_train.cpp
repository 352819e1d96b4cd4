// noisescope-cli train: trains a denoiser headlessly into a run directory (config.json,
// events.jsonl, checkpoints/, schedules/). The GUI runs this same command as a child process and
// follows events.jsonl. With MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE set (as torchrun sets them)
// the processes train data-parallel; rank 0 writes the run directory.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "command.h"
#include "progress_bar.h"
#include "tensor/communicator.h"
#include "train/run_directory.h"
#include "train/trainer.h"
#include "train/training_data.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

struct TrainArgs {
  std::string config;
  std::string out;
  bool resume = false;
};

int runTrain(const TrainArgs& args) {
  train::RunDirectory run(args.out);
  const bool hasCheckpoint = run.latestCheckpointStep().has_value();
  if (args.resume && !hasCheckpoint)
    throw InputError(args.out, "--resume was given but the run directory has no checkpoint");
  train::TrainConfig config;
  if (hasCheckpoint) {
    // A run continues with the settings it started with: its own resolved config.json.
    if (!args.config.empty()) train::readTrainConfig(args.config);  // still reject a bad file
    config = train::readTrainConfig(run.configPath());
    std::fprintf(stderr, "resuming %s from its newest good checkpoint with its config.json\n",
                 args.out.c_str());
  } else {
    if (args.config.empty())
      throw InputError("--config", "required unless RUN_DIR holds a checkpoint to resume");
    config = train::readTrainConfig(args.config);
  }

  const DistributedEnvironment env = distributedEnvironmentFromEnv();
  std::unique_ptr<Communicator> communicator;
  if (env.worldSize > 1) communicator = std::make_unique<Communicator>(env);

  const std::string task =
      env.worldSize > 1 ? "train[rank " + std::to_string(env.rank) + "]" : std::string("train");
  const Progress progress = stderrProgress(task);
  train::TrainingData data = train::loadTrainingData(config, progress.sub(0.0, 0.02));
  train::TrainerOptions options;
  options.runDir = args.out;
  options.requireResume = args.resume;
  options.communicator = communicator.get();
  options.progress = progress.sub(0.02, 1.0);
  options.note = [](const std::string& text) { std::fprintf(stderr, "note: %s\n", text.c_str()); };
  train::Trainer trainer(config, std::move(data), options);
  const train::TrainSummary summary = trainer.run();
  if (env.rank == 0) {
    std::fprintf(stderr, "trained steps %lld..%lld; held-out %s = %.6g; run directory %s\n",
                 static_cast<long long>(summary.startStep), static_cast<long long>(summary.step),
                 trainer.resolvedConfig().eval.reference.c_str(), summary.lastEvaluation.quality,
                 args.out.c_str());
  }
  return 0;
}

const CommandRegistration registration("train", [](CLI::App& app) {
  app.description("Train a denoiser into a run directory (resumes when it has a checkpoint)");
  auto args = std::make_shared<TrainArgs>();
  app.add_option("--config", args->config, "training config (JSON; see docs/training.md)");
  app.add_option("--out", args->out, "run directory")->required();
  app.add_flag("--resume", args->resume, "require a checkpoint in RUN_DIR and continue from it");
  return [args]() { return runTrain(*args); };
});

}  // namespace
}  // namespace noisescope::cli
