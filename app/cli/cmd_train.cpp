// noisescope-cli train: trains a denoiser headlessly into a run directory (config.json,
// events.jsonl, checkpoints/, schedules/). The GUI runs this same command as a child process and
// follows events.jsonl. With MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE set (as torchrun sets them)
// the processes train data-parallel; rank 0 writes the run directory. With --write-config it
// writes, instead, the config file the Training tab writes for the same settings (the flags name
// the tab's fields), through the same pipeline call.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "command.h"
#include "pipeline/training/train_config_file.h"
#include "pipeline/training/train_job.h"
#include "progress_bar.h"
#include "train/train_config.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

struct TrainArgs {
  pipeline::TrainRequest request;
  std::string writeConfig;  // --write-config FILE: write the settings' config and stop
  train::TrainConfig settings;
  std::string gateC = "auto";
};

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

// The trainer reads a config's relative paths from the config's folder, so a file named relative
// to the working directory is written out in full (as the Training tab does).
std::string absoluteIfFile(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (path.empty() || fs::path(path).is_absolute() || !fs::exists(path, error)) return path;
  return fs::absolute(path).lexically_normal().string();
}

int writeConfig(TrainArgs& args) {
  train::TrainConfig& config = args.settings;
  config.dataset.path = absoluteIfFile(config.dataset.path);
  config.eval.featureNetwork = absoluteIfFile(config.eval.featureNetwork);
  if (args.gateC == "auto") {
    config.noise.gateC.reset();
  } else {
    try {
      size_t used = 0;
      config.noise.gateC = std::stod(args.gateC, &used);
      if (used != args.gateC.size()) throw std::invalid_argument(args.gateC);
    } catch (const std::exception&) {
      throw InputError("--gate-c", "is '" + args.gateC + "': give \"auto\" or a number");
    }
  }
  pipeline::writeTrainConfigFile(args.writeConfig, config);
  std::fprintf(stderr, "wrote %s\n", args.writeConfig.c_str());
  return 0;
}

CLI::App* addSettingFlags(CLI::App& app, TrainArgs& a) {
  auto* group = app.add_option_group("settings", "with --write-config: the config's settings");
  train::TrainConfig& c = a.settings;
  group->add_option("--dataset", c.dataset.path, "dataset file, folder or synthetic: spec");
  group->add_option("--transform", c.dataset.transform, "none or binarize");
  group->add_option("--model", c.model.kind, "auto, mlp, unet or conv1d");
  group->add_option("--width", c.model.width, "MLP hidden width");
  group->add_option("--channels", c.model.channels, "U-Net / conv1d channels");
  group->add_option("--steps", c.optim.steps, "optimizer steps");
  group->add_option("--batch-size", c.optim.batchSize, "batch size");
  group->add_option("--lr", c.optim.lr, "learning rate");
  group->add_option("--seed", c.optim.seed, "seed");
  group->add_option("--device", c.optim.device, "auto, cpu, cuda, ...");
  group->add_option("--threads", c.optim.threads, "torch CPU threads (0: the machine's)");
  group->add_option("--sampler", c.noise.sampler, "static, infonoise or sqrt-entropy");
  group->add_option("--schedule", c.noise.schedule, "schedule preset (or warm-up schedule)");
  group->add_option("--loss-weight", c.noise.lossWeight, "edm, uniform, epsilon, v or min-snr");
  group->add_option("--warmup-steps", c.noise.warmupSteps, "steps before the first refresh");
  group->add_option("--refresh-every", c.noise.refreshEvery, "steps between refreshes");
  group->add_option("--bins", c.noise.bins, "log-σ bins K");
  group->add_option("--gate-c", a.gateC, "gate c: auto or a number (0: no gate)");
  group->add_option("--eval-every", c.eval.every, "steps between evaluations");
  group->add_option("--checkpoint-every", c.checkpoint.every, "steps between checkpoints");
  group->add_option("--feature-network", c.eval.featureNetwork,
                    "TorchScript feature network for sample quality");
  return group;
}

const CommandRegistration trainCommand("train", [](CLI::App& app) {
  app.description("Train a denoiser into a run directory (resumes when it has a checkpoint)");
  auto args = std::make_shared<TrainArgs>();
  auto* config = app.add_option("--config", args->request.config,
                                "training config (JSON; see docs/training.md)");
  auto* out = app.add_option("--out", args->request.runDirectory, "run directory");
  auto* resume = app.add_flag("--resume", args->request.resume,
                              "require a checkpoint in RUN_DIR and continue from it");
  app.add_option("--write-config", args->writeConfig,
                 "write the config file of the settings below (what the Training tab writes) "
                 "and stop")
      ->excludes(config)
      ->excludes(out)
      ->excludes(resume);
  const CLI::App* settings = addSettingFlags(app, *args);
  return [args, settings]() {
    if (!args->writeConfig.empty()) return writeConfig(*args);
    // A run reads its settings from --config: flags that would be ignored are refused.
    if (settings->count_all() > 0)
      throw InputError("--write-config", "the settings flags go with --write-config only");
    if (args->request.runDirectory.empty()) throw InputError("--out", "is required");
    return runTrain(args->request);
  };
});

}  // namespace
}  // namespace noisescope::cli
