#include "pipeline/quality/sample_quality_job.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <filesystem>
#include <memory>
#include <utility>

#include "data/transforms.h"
#include "pipeline/diagnose/run_profile.h"
#include "pipeline/internal/quality_floor.h"
#include "tensor/torchscript_model.h"
#include "train/dataset_tensor.h"
#include "train/evaluation.h"
#include "train/feature_network.h"
#include "train/run_directory.h"
#include "train/sample_quality.h"
#include "train/train_config.h"
#include "train/training_data.h"
#include "util/error.h"
#include "util/seeded_split.h"

namespace noisescope::pipeline {

namespace {

void useThreads(int threads) {
  if (threads > 0) at::set_num_threads(threads);
}

// The TorchScript denoiser to sample from: a .pt file, or a run directory's newest export.
std::string modelPath(const std::string& checkpoint) {
  return std::filesystem::is_directory(checkpoint) ? newestExportedDenoiser(checkpoint)
                                                   : checkpoint;
}

at::Tensor heunSamples(const ScoreRequest& request, const Dataset& reference) {
  TorchScriptDenoiser model(modelPath(request.checkpoint), Prediction::X0, c10::Device(c10::kCPU));
  const train::DenoiseFunction denoise = [&model](const at::Tensor& x, const at::Tensor& s) {
    return model.denoise(x, s);
  };
  std::vector<int64_t> shape{request.count};
  shape.insert(shape.end(), reference.sampleShape.begin(), reference.sampleShape.end());
  auto generator = at::detail::createCPUGenerator(request.seed);
  const auto start = at::randn(shape, generator, at::kFloat);
  return train::heunSample(
      denoise, start,
      train::edmSamplingSigmas(request.heunSteps, request.sigmaMin, request.sigmaMax, 7.0));
}

}  // namespace

FeatureNetworkSummary readFeatureNetworkSummary(const std::string& path) {
  const train::FeatureNetwork network(path);
  const train::FeatureNetworkInfo& info = network.info();
  return {info.task, info.trainedOn, info.testAccuracy, info.featureDim, info.sampleShape};
}

FeatureTrainingOutcome trainFeatures(Dataset train, Dataset test,
                                     const FeatureTrainingRequest& request) {
  useThreads(request.threads);
  if (test.values.empty()) {
    const int64_t keep = heldOutCount(train.size(), defaults::kFeatureTestShare, "feature test");
    const RowSplit rows = seededSplit(train.size(), keep, request.seed);
    test = selectRows(train, rows.held);
    train = selectRows(train, rows.kept);
  }
  train::FeatureNetworkSettings settings;
  settings.epochs = request.epochs;
  settings.seed = request.seed;
  const train::FeatureNetworkInfo info =
      train::trainFeatureNetwork(train, test, settings, request.out);
  // In the order of FeatureTrainingOutcome's fields.
  return {info.path,       info.task,    info.trainedOn, info.testAccuracy,
          info.featureDim, train.size(), test.size()};
}

ScoreOutcome scoreAgainstHeldOut(const Dataset& reference, const Dataset* samples,
                                 const ScoreRequest& request) {
  useThreads(request.threads);
  if ((samples == nullptr) == request.checkpoint.empty())
    throw InputError("quality score", "give exactly one of --samples FILE and --checkpoint RUN");
  std::unique_ptr<train::FeatureNetwork> features;
  if (!request.features.empty())
    features = std::make_unique<train::FeatureNetwork>(request.features);
  at::Tensor drawn;
  if (samples) {
    drawn = train::datasetTensor(*samples);
  } else {
    drawn = heunSamples(request, reference);
  }
  const bool discrete = request.discrete || reference.kind == SampleKind::Sequence;
  const train::SampleQuality q = train::scoreSamples(drawn, reference, discrete, features.get());
  // In the order of ScoreOutcome's fields.
  return {q.samples,         q.reference, q.fd,        q.featureNetwork,
          q.featureAccuracy, q.kmerJs,    q.kmerJsPerK};
}

FloorOutcome runQualityFloor(const FloorRequest& request) {
  useThreads(request.threads);
  const train::TrainConfig config = train::readTrainConfig(request.config);
  // The run's own split, test_limit subset and ±1 rounding: the same reference its evals use.
  const train::TrainingData data = train::loadTrainingData(config);
  FloorOutcome out;
  out.count = request.count > 0 ? request.count : config.eval.qualitySamples;
  out.repeats = request.repeats;
  out.reference = data.test.size();
  out.trainSamples = data.train.size();
  out.test = data.testDescription;
  const std::string featurePath =
      request.features.empty() ? config.eval.featureNetwork : request.features;
  std::unique_ptr<train::FeatureNetwork> features;
  if (!featurePath.empty()) features = std::make_unique<train::FeatureNetwork>(featurePath);
  out.seed = request.seed ? *request.seed : defaultFloorSeed(config);
  const QualityFloor floor = qualityFloor(data, features.get(), out.count, out.repeats, out.seed);
  out.fd = floor.fd;
  out.kmerJs = floor.kmerJs;
  out.kmerJsPerK = floor.kmerJsPerK;
  out.featureAccuracy = floor.featureAccuracy;
  if (!out.fd.empty()) out.featureNetwork = featurePath;
  return out;
}

}  // namespace noisescope::pipeline
