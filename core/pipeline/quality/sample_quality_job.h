#pragma once
// The Quality action (THEORY §11) for every face: train the feature network the Fréchet distance
// is computed in, score samples (a file, or drawn with EDM's Heun sampler from a checkpoint)
// against held-out data, and the real-against-real floor at a training run's counts.
// `noisescope-cli quality` is its face; `sample-race` and the trainer's evaluations reach the same
// scoring through train/sample_quality.h. Torch-free: the faces see plain values.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "pipeline/defaults.h"

namespace noisescope::pipeline {

// What a feature network file (written by trainFeatures) says about itself. InputError naming
// the file when it is not one.
struct FeatureNetworkSummary {
  std::string task, trainedOn;
  double testAccuracy = 0.0;
  int64_t featureDim = 0;
  std::vector<int64_t> sampleShape;
};
FeatureNetworkSummary readFeatureNetworkSummary(const std::string& path);

struct FeatureTrainingRequest {
  std::string out;  // where the TorchScript feature network is written
  int64_t epochs = 4;
  uint64_t seed = 1;  // of the network's training, and of the held-out split when no test set
  int threads = 0;    // torch threads (0: torch's default)
};

struct FeatureTrainingOutcome {
  std::string path, task, trainedOn;
  double testAccuracy = 0.0;
  int64_t featureDim = 0, trainSamples = 0, testSamples = 0;
};

// `test` empty: a seeded share (defaults::kFeatureTestShare) of `train` is held out by the one
// seeded split (util/seeded_split.h) and the rest trains. InputError as trainFeatureNetwork.
FeatureTrainingOutcome trainFeatures(Dataset train, Dataset test,
                                     const FeatureTrainingRequest& request);

struct ScoreRequest {
  std::string features;    // feature network file; "" = none (the k-mer measure of DNA only)
  std::string checkpoint;  // samples drawn from this TorchScript x0 denoiser or run directory
  int64_t count = 500;     // samples drawn from the checkpoint
  int64_t heunSteps = defaults::kSamplingSteps;  // σ steps of the Heun sampler (Karras ρ = 7)
  double sigmaMin = defaults::kSigmaMin, sigmaMax = defaults::kSigmaMax;
  uint64_t seed = 1;      // of the sampler's starting noise
  bool discrete = false;  // score as ±1 data (samples are rounded)
  int threads = 0;
};

struct ScoreOutcome {
  int64_t samples = 0, reference = 0;
  double fd = std::numeric_limits<double>::quiet_NaN();  // NaN: not computed
  std::string featureNetwork;
  double featureAccuracy = std::numeric_limits<double>::quiet_NaN();
  double kmerJs = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> kmerJsPerK;
};

// Scores `samples` (when given) or samples drawn from request.checkpoint against `reference`.
// Discrete scoring also applies to sequence data. InputError names the file at fault.
ScoreOutcome scoreAgainstHeldOut(const Dataset& reference, const Dataset* samples,
                                 const ScoreRequest& request);

struct FloorRequest {
  std::string config;    // the run's training config: its split, counts and features
  int64_t count = 0;     // real samples per draw (0: the config's eval.quality_samples)
  int64_t repeats = 5;   // random subsets drawn
  std::string features;  // feature network ("": the config's eval.feature_network)
  std::optional<uint64_t>
      seed;  // of the first subset (default: pipeline/internal/quality_floor.h's)
  int threads = 0;
};

struct FloorOutcome {
  int64_t count = 0, repeats = 0, reference = 0, trainSamples = 0;
  uint64_t seed = 0;
  std::string test;            // the run's held-out set, described
  std::string featureNetwork;  // when fd was computed
  double featureAccuracy = 0.0;
  std::vector<double> fd, kmerJs;  // one per draw
  std::vector<std::vector<double>> kmerJsPerK;
};

FloorOutcome runQualityFloor(const FloorRequest& request);

}  // namespace noisescope::pipeline
