#include "pipeline/diagnose/run_profile.h"

#include <filesystem>

#include "train/run_directory.h"
#include "train/train_config.h"
#include "train/training_data.h"
#include "util/error.h"

namespace noisescope::pipeline {

std::string newestExportedDenoiser(const std::string& runDirectory) {
  if (!std::filesystem::is_directory(runDirectory))
    throw InputError(runDirectory, "is not a run directory");
  if (const auto path = train::RunDirectory(runDirectory).newestExport()) return *path;
  throw InputError(runDirectory,
                   "holds no exported denoiser yet (checkpoints/step-N.denoiser.pt of a "
                   "NoiseScope run directory; a run exports one at each checkpoint)");
}

RunHeldOutSet runHeldOutSet(const std::string& runDirectory, const Progress& progress) {
  if (!std::filesystem::is_directory(runDirectory))
    throw InputError(runDirectory, "is not a run directory");
  const train::RunDirectory run(runDirectory);
  const train::TrainConfig config = train::readTrainConfig(run.configPath());
  // The trainer's own reader: the same test_path or seeded split, limits and scale it used.
  train::TrainingData data = train::loadTrainingData(config, progress);
  return {std::move(data.test), "the run's held-out data: " + data.testDescription};
}

}  // namespace noisescope::pipeline
