// noisescope-cli train: trains a denoiser headlessly into a run directory (config.json,
// events.jsonl, checkpoints/, schedules/). The GUI runs this same command as a child process and
// follows events.jsonl. With MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE set (as torchrun sets them)
// the processes train data-parallel; rank 0 writes the run directory.
#include <cstdio>
#include <memory>
#include <string>

#include "command.h"
#include "pipeline/train_job.h"
#include "progress_bar.h"

namespace noisescope::cli {
namespace {

int runTrain(const pipeline::TrainRequest& request) {
  const pipeline::TrainOutcome outcome = pipeline::runTraining(
      request, [](const std::string& task) { return stderrProgress(task); },
      [](const std::string& text) { std::fprintf(stderr, "note: %s\n", text.c_str()); },
      [&request] {
        std::fprintf(stderr, "resuming %s from its newest good checkpoint with its config.json\n",
                     request.runDirectory.c_str());
      });
  if (outcome.rank == 0) {
    std::fprintf(stderr, "trained steps %lld..%lld; held-out %s = %.6g; run directory %s\n",
                 static_cast<long long>(outcome.startStep), static_cast<long long>(outcome.step),
                 outcome.reference.c_str(), outcome.quality, request.runDirectory.c_str());
  }
  return 0;
}

const CommandRegistration registration("train", [](CLI::App& app) {
  app.description("Train a denoiser into a run directory (resumes when it has a checkpoint)");
  auto args = std::make_shared<pipeline::TrainRequest>();
  app.add_option("--config", args->config, "training config (JSON; see docs/training.md)");
  app.add_option("--out", args->runDirectory, "run directory")->required();
  app.add_flag("--resume", args->resume, "require a checkpoint in RUN_DIR and continue from it");
  return [args]() { return runTrain(*args); };
});

}  // namespace
}  // namespace noisescope::cli
