// noisescope-cli quality: the sample-quality measures of THEORY §11.
//   quality train-features DATASET --out FEAT.pt   trains the feature network the Fréchet
//       distance is computed in (images: classifier on the labels; DNA: masked-base predictor)
//       and records its held-out accuracy in the file;
//   quality score HELDOUT --features FEAT.pt (--samples FILE | --checkpoint RUN|MODEL.pt)
//       scores samples (a file, or drawn with EDM's Heun sampler from a TorchScript denoiser or
//       a run directory's newest export) against held-out data;
//   quality floor --config RUN.json   the floor of those scores at a run's counts: random subsets
//       of the run's real training samples, as many as it generates, scored against its own
//       held-out set with its feature network (docs/schedule-race.md).
#include <torch/torch.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "command.h"
#include "data/transforms.h"
#include "dataset_options.h"
#include "pipeline/defaults.h"
#include "pipeline/quality_floor.h"
#include "tensor/torchscript_model.h"
#include "train/evaluation.h"
#include "train/feature_network.h"
#include "train/run_directory.h"
#include "train/sample_quality.h"
#include "train/train_config.h"
#include "train/training_data.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

struct QualityArgs {
  DatasetArgs dataset;  // train-features: the training set; score: the held-out reference
  std::string test;     // train-features: held-out set (default: every 5th sample of DATASET)
  bool binarize = false;
  std::string out;
  int64_t epochs = 4;
  int threads = 0;
  uint64_t seed = 1;
  std::string features, samples, checkpoint;
  int64_t count = 500, steps = 18;
  double sigmaMin = pipeline::defaults::kSigmaMin, sigmaMax = pipeline::defaults::kSigmaMax;
  bool json = false;
  std::string config;      // floor: the training config whose split and counts it uses
  int64_t floorCount = 0;  // floor: real samples per draw (0: the config's eval.quality_samples)
  int64_t repeats = 5;     // floor: random subsets drawn
  bool seedGiven = false;
};

Dataset loadPrepared(const DatasetArgs& args, bool binarize) {
  const Dataset d = loadWithProgress(args);
  return binarize ? noisescope::binarize(d) : d;
}

Dataset loadSibling(const DatasetArgs& like, const std::string& path, bool binarize) {
  DatasetArgs args = like;
  args.path = path;
  return loadPrepared(args, binarize);
}

int runTrainFeatures(const QualityArgs& a) {
  if (a.threads > 0) torch::set_num_threads(a.threads);
  Dataset train = loadPrepared(a.dataset, a.binarize), test;
  if (!a.test.empty()) {
    test = loadSibling(a.dataset, a.test, a.binarize);
  } else {
    std::vector<int64_t> trainRows, testRows;
    for (int64_t i = 0; i < train.size(); ++i) (i % 5 == 4 ? testRows : trainRows).push_back(i);
    test = selectRows(train, testRows);
    train = selectRows(train, trainRows);
  }
  train::FeatureNetworkSettings settings;
  settings.epochs = a.epochs;
  settings.seed = a.seed;
  const auto info = train::trainFeatureNetwork(train, test, settings, a.out);
  if (a.json) {
    std::cout << nlohmann::json{{"path", info.path},
                                {"task", info.task},
                                {"trained_on", info.trainedOn},
                                {"test_accuracy", info.testAccuracy},
                                {"feature_dim", info.featureDim},
                                {"train_samples", train.size()},
                                {"test_samples", test.size()}}
                     .dump(2)
              << "\n";
  } else {
    std::printf("feature network %s (%s, %lld features) trained on %lld samples of %s\n",
                info.path.c_str(), info.task.c_str(), static_cast<long long>(info.featureDim),
                static_cast<long long>(train.size()), info.trainedOn.c_str());
    std::printf("held-out accuracy %.4f on %lld samples\n", info.testAccuracy,
                static_cast<long long>(test.size()));
  }
  return 0;
}

// The TorchScript denoiser to sample from: a .pt file, or a run directory's newest export.
std::string modelPath(const std::string& checkpoint) {
  if (!std::filesystem::is_directory(checkpoint)) return checkpoint;
  const train::RunDirectory run(checkpoint);
  const auto step = run.latestCheckpointStep();
  if (!step) throw InputError(checkpoint, "the run directory has no checkpoint to sample from");
  return run.exportPath(*step);
}

at::Tensor heunSamples(const QualityArgs& a, const Dataset& reference) {
  TorchScriptDenoiser model(modelPath(a.checkpoint), Prediction::X0, c10::Device(c10::kCPU));
  const train::DenoiseFunction denoise = [&model](const at::Tensor& x, const at::Tensor& s) {
    return model.denoise(x, s);
  };
  std::vector<int64_t> shape{a.count};
  shape.insert(shape.end(), reference.sampleShape.begin(), reference.sampleShape.end());
  auto gen = at::detail::createCPUGenerator(a.seed);
  const auto start = at::randn(shape, gen, at::kFloat);
  return train::heunSample(denoise, start,
                           train::edmSamplingSigmas(a.steps, a.sigmaMin, a.sigmaMax, 7.0));
}

int runScore(const QualityArgs& a) {
  if (a.threads > 0) torch::set_num_threads(a.threads);
  if (a.samples.empty() == a.checkpoint.empty())
    throw InputError("quality score", "give exactly one of --samples FILE and --checkpoint RUN");
  const Dataset reference = loadPrepared(a.dataset, a.binarize);
  std::unique_ptr<train::FeatureNetwork> features;
  if (!a.features.empty()) features = std::make_unique<train::FeatureNetwork>(a.features);
  at::Tensor samples;
  if (!a.samples.empty()) {
    const Dataset s = loadSibling(a.dataset, a.samples, false);
    std::vector<int64_t> shape{s.size()};
    shape.insert(shape.end(), s.sampleShape.begin(), s.sampleShape.end());
    samples = at::from_blob(const_cast<float*>(s.values.data()), shape, at::kFloat).clone();
  } else {
    samples = heunSamples(a, reference);
  }
  const bool discrete = a.binarize || reference.kind == SampleKind::Sequence;
  const auto q = train::scoreSamples(samples, reference, discrete, features.get());
  nlohmann::json out{{"samples", q.samples}, {"reference", q.reference}};
  if (!std::isnan(q.fd)) {
    out["fd"] = q.fd;
    out["feature_network"] = q.featureNetwork;
    out["feature_accuracy"] = q.featureAccuracy;
  }
  if (!std::isnan(q.kmerJs)) {
    out["kmer_js"] = q.kmerJs;
    out["kmer_js_per_k"] = q.kmerJsPerK;
  }
  if (!a.checkpoint.empty()) out["heun_steps"] = a.steps;
  if (a.json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::printf("%lld samples scored against %lld held-out samples\n",
              static_cast<long long>(q.samples), static_cast<long long>(q.reference));
  if (!std::isnan(q.fd))
    std::printf("FD        %.6g  (features of %s, held-out accuracy %.4f)\n", q.fd,
                q.featureNetwork.c_str(), q.featureAccuracy);
  if (!std::isnan(q.kmerJs)) std::printf("k-mer JS  %.6g bits (mean over k = 1…6)\n", q.kmerJs);
  return 0;
}

double meanOf(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? std::nan("") : s / double(v.size());
}

int runFloor(const QualityArgs& a) {
  if (a.threads > 0) torch::set_num_threads(a.threads);
  const auto config = train::readTrainConfig(a.config);
  // The run's own split, test_limit subset and ±1 rounding: the same reference its evals use.
  const auto data = train::loadTrainingData(config);
  const int64_t count = a.floorCount > 0 ? a.floorCount : config.eval.qualitySamples;
  const std::string featurePath = a.features.empty() ? config.eval.featureNetwork : a.features;
  std::unique_ptr<train::FeatureNetwork> features;
  if (!featurePath.empty()) features = std::make_unique<train::FeatureNetwork>(featurePath);
  const uint64_t seed = a.seedGiven ? a.seed : pipeline::defaultFloorSeed(config);
  const auto floor = pipeline::qualityFloor(data, features.get(), count, a.repeats, seed);
  const std::vector<double>& fd = floor.fd;
  const std::vector<double>& js = floor.kmerJs;
  nlohmann::json out{
      {"config", a.config},          {"count", count}, {"reference", data.test.size()},
      {"repeats", a.repeats},        {"seed", seed},   {"train_samples", data.train.size()},
      {"test", data.testDescription}};
  if (!fd.empty()) {
    out["fd"] = fd;
    out["feature_network"] = featurePath;
    out["feature_accuracy"] = floor.featureAccuracy;
  }
  if (!js.empty()) {
    out["kmer_js"] = js;
    out["kmer_js_per_k"] = floor.kmerJsPerK;
  }
  if (a.json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::printf("floor: %lld draws of %lld real training samples (of %lld) against %lld held-out\n",
              static_cast<long long>(a.repeats), static_cast<long long>(count),
              static_cast<long long>(data.train.size()), static_cast<long long>(data.test.size()));
  if (!fd.empty())
    std::printf("FD        %.6g mean  (features of %s)\n", meanOf(fd), featurePath.c_str());
  if (!js.empty()) std::printf("k-mer JS  %.6g bits mean (k = 1…6)\n", meanOf(js));
  return 0;
}

const CommandRegistration registration("quality", [](CLI::App& app) -> std::function<int()> {
  auto a = std::make_shared<QualityArgs>();
  app.description("Sample quality (THEORY §11): feature networks, Fréchet distance, k-mer JS");
  app.require_subcommand(1);
  auto* trainApp = app.add_subcommand(
      "train-features", "Train the feature network the Fréchet distance is computed in");
  addDatasetOptions(*trainApp, a->dataset);
  trainApp->add_option("--test", a->test, "Held-out data (default: every 5th sample of DATASET)");
  trainApp->add_option("--out", a->out, "Where to write the TorchScript feature network")
      ->required();
  trainApp->add_option("--epochs", a->epochs, "Training epochs")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  auto* scoreApp = app.add_subcommand(
      "score", "Score samples against held-out data (DATASET is the held-out set)");
  addDatasetOptions(*scoreApp, a->dataset);
  scoreApp->add_option("--features", a->features,
                       "Feature network from train-features (required except for DNA)");
  scoreApp->add_option("--samples", a->samples, "Generated samples (any dataset file, e.g. .npy)");
  scoreApp->add_option("--checkpoint", a->checkpoint,
                       "Draw samples with EDM's Heun sampler from a run directory's newest "
                       "TorchScript export, or from a TorchScript x0 denoiser file");
  scoreApp->add_option("--count", a->count, "Samples to draw from --checkpoint")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  scoreApp->add_option("--heun-steps", a->steps, "σ steps of the Heun sampler (ρ = 7)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t(2), int64_t(10000)));
  scoreApp->add_option("--sigma-min", a->sigmaMin)->capture_default_str();
  scoreApp->add_option("--sigma-max", a->sigmaMax)->capture_default_str();
  auto* floorApp = app.add_subcommand(
      "floor", "Score real training samples like generated ones, at a run's counts (the floor)");
  floorApp->add_option("--config", a->config, "Training config of the run (its split and counts)")
      ->required()
      ->check(CLI::ExistingFile);
  floorApp
      ->add_option("--count", a->floorCount,
                   "Real samples per draw (default: the config's eval.quality_samples)")
      ->check(CLI::PositiveNumber);
  floorApp->add_option("--repeats", a->repeats, "Random subsets drawn")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  floorApp->add_option("--features", a->features,
                       "Feature network (default: the config's eval.feature_network)");
  floorApp->add_option("--threads", a->threads, "Torch threads (0: torch's default)");
  floorApp->add_option("--seed", a->seed, "Seed of the first subset (default: 1000 × optim.seed)")
      ->each([a](const std::string&) { a->seedGiven = true; });
  floorApp->add_flag("--json", a->json, "Print JSON instead of text");
  for (auto* sub : {trainApp, scoreApp}) {
    sub->add_flag("--binarize", a->binarize, "Binarise the data at 0 (samples are rounded to ±1)");
    sub->add_option("--threads", a->threads, "Torch threads (0: torch's default)");
    sub->add_option("--seed", a->seed)->capture_default_str();
    sub->add_flag("--json", a->json, "Print JSON instead of text");
  }
  return [a, trainApp, floorApp] {
    if (floorApp->parsed()) return runFloor(*a);
    return trainApp->parsed() ? runTrainFeatures(*a) : runScore(*a);
  };
});

}  // namespace
}  // namespace noisescope::cli
