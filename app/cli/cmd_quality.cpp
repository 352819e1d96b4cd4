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
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "command.h"
#include "data/transforms.h"
#include "dataset_options.h"
#include "pipeline/defaults.h"
#include "pipeline/quality/sample_quality_job.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

struct QualityArgs {
  DatasetArgs dataset;  // train-features: the training set; score: the held-out reference
  std::string test;     // train-features: held-out set (default: a seeded share of DATASET)
  bool binarize = false;
  bool json = false;
  pipeline::FeatureTrainingRequest features;
  pipeline::ScoreRequest score;
  std::string samples;  // score: a file of generated samples
  pipeline::FloorRequest floor;
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
  Dataset train = loadPrepared(a.dataset, a.binarize);
  Dataset test = a.test.empty() ? Dataset{} : loadSibling(a.dataset, a.test, a.binarize);
  const pipeline::FeatureTrainingOutcome info =
      pipeline::trainFeatures(std::move(train), std::move(test), a.features);
  if (a.json) {
    std::cout << nlohmann::json{{"path", info.path},
                                {"task", info.task},
                                {"trained_on", info.trainedOn},
                                {"test_accuracy", info.testAccuracy},
                                {"feature_dim", info.featureDim},
                                {"train_samples", info.trainSamples},
                                {"test_samples", info.testSamples}}
                     .dump(2)
              << "\n";
  } else {
    std::printf("feature network %s (%s, %lld features) trained on %lld samples of %s\n",
                info.path.c_str(), info.task.c_str(), static_cast<long long>(info.featureDim),
                static_cast<long long>(info.trainSamples), info.trainedOn.c_str());
    std::printf("held-out accuracy %.4f on %lld samples\n", info.testAccuracy,
                static_cast<long long>(info.testSamples));
  }
  return 0;
}

int runScore(QualityArgs a) {
  if (a.samples.empty() == a.score.checkpoint.empty())
    throw InputError("quality score", "give exactly one of --samples FILE and --checkpoint RUN");
  const Dataset reference = loadPrepared(a.dataset, a.binarize);
  a.score.discrete = a.binarize;
  std::optional<Dataset> samples;
  if (!a.samples.empty()) samples = loadSibling(a.dataset, a.samples, false);
  const pipeline::ScoreOutcome q =
      pipeline::scoreAgainstHeldOut(reference, samples ? &*samples : nullptr, a.score);
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
  if (!a.score.checkpoint.empty()) out["heun_steps"] = a.score.heunSteps;
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
  const pipeline::FloorOutcome floor = pipeline::runQualityFloor(a.floor);
  nlohmann::json out{
      {"config", a.floor.config}, {"count", floor.count}, {"reference", floor.reference},
      {"repeats", floor.repeats}, {"seed", floor.seed},   {"train_samples", floor.trainSamples},
      {"test", floor.test}};
  if (!floor.fd.empty()) {
    out["fd"] = floor.fd;
    out["feature_network"] = floor.featureNetwork;
    out["feature_accuracy"] = floor.featureAccuracy;
  }
  if (!floor.kmerJs.empty()) {
    out["kmer_js"] = floor.kmerJs;
    out["kmer_js_per_k"] = floor.kmerJsPerK;
  }
  if (a.json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::printf("floor: %lld draws of %lld real training samples (of %lld) against %lld held-out\n",
              static_cast<long long>(floor.repeats), static_cast<long long>(floor.count),
              static_cast<long long>(floor.trainSamples), static_cast<long long>(floor.reference));
  if (!floor.fd.empty())
    std::printf("FD        %.6g mean  (features of %s)\n", meanOf(floor.fd),
                floor.featureNetwork.c_str());
  if (!floor.kmerJs.empty())
    std::printf("k-mer JS  %.6g bits mean (k = 1…6)\n", meanOf(floor.kmerJs));
  return 0;
}

const CommandRegistration qualityCommand("quality", [](CLI::App& app) -> std::function<int()> {
  auto a = std::make_shared<QualityArgs>();
  app.description("Sample quality (THEORY §11): feature networks, Fréchet distance, k-mer JS");
  app.require_subcommand(1);
  auto* trainApp = app.add_subcommand(
      "train-features", "Train the feature network the Fréchet distance is computed in");
  addDatasetOptions(*trainApp, a->dataset);
  trainApp->add_option(
      "--test", a->test,
      "Held-out data (default: a seeded " +
          pipeline::defaults::formatDefault(100.0 * pipeline::defaults::kFeatureTestShare) +
          " % of DATASET)");
  trainApp->add_option("--out", a->features.out, "Where to write the TorchScript feature network")
      ->required();
  trainApp->add_option("--epochs", a->features.epochs, "Training epochs")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  auto* scoreApp = app.add_subcommand(
      "score", "Score samples against held-out data (DATASET is the held-out set)");
  addDatasetOptions(*scoreApp, a->dataset);
  scoreApp->add_option("--features", a->score.features,
                       "Feature network from train-features (required except for DNA)");
  scoreApp->add_option("--samples", a->samples, "Generated samples (any dataset file, e.g. .npy)");
  scoreApp->add_option("--checkpoint", a->score.checkpoint,
                       "Draw samples with EDM's Heun sampler from a run directory's newest "
                       "TorchScript export, or from a TorchScript x0 denoiser file");
  scoreApp->add_option("--count", a->score.count, "Samples to draw from --checkpoint")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  scoreApp->add_option("--heun-steps", a->score.heunSteps, "σ steps of the Heun sampler (ρ = 7)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t(2), int64_t(10000)));
  scoreApp->add_option("--sigma-min", a->score.sigmaMin)->capture_default_str();
  scoreApp->add_option("--sigma-max", a->score.sigmaMax)->capture_default_str();
  auto* floorApp = app.add_subcommand(
      "floor", "Score real training samples like generated ones, at a run's counts (the floor)");
  floorApp
      ->add_option("--config", a->floor.config, "Training config of the run (its split and counts)")
      ->required()
      ->check(CLI::ExistingFile);
  floorApp
      ->add_option("--count", a->floor.count,
                   "Real samples per draw (default: the config's eval.quality_samples)")
      ->check(CLI::PositiveNumber);
  floorApp->add_option("--repeats", a->floor.repeats, "Random subsets drawn")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  floorApp->add_option("--features", a->floor.features,
                       "Feature network (default: the config's eval.feature_network)");
  floorApp->add_option("--threads", a->floor.threads, "Torch threads (0: torch's default)");
  floorApp->add_option_function<uint64_t>(
      "--seed", [a](const uint64_t& seed) { a->floor.seed = seed; },
      "Seed of the first subset (default: 1000 × optim.seed)");
  floorApp->add_flag("--json", a->json, "Print JSON instead of text");
  trainApp->add_option("--threads", a->features.threads, "Torch threads (0: torch's default)");
  trainApp->add_option("--seed", a->features.seed)->capture_default_str();
  scoreApp->add_option("--threads", a->score.threads, "Torch threads (0: torch's default)");
  scoreApp->add_option("--seed", a->score.seed)->capture_default_str();
  for (auto* sub : {trainApp, scoreApp}) {
    sub->add_flag("--binarize", a->binarize, "Binarise the data at 0 (samples are rounded to ±1)");
    sub->add_flag("--json", a->json, "Print JSON instead of text");
  }
  return [a, trainApp, floorApp] {
    if (floorApp->parsed()) return runFloor(*a);
    return trainApp->parsed() ? runTrainFeatures(*a) : runScore(*a);
  };
});

}  // namespace
}  // namespace noisescope::cli
