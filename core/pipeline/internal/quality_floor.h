#pragma once
// The real-against-real floor of the sample-quality measures at a run's counts (THEORY §11,
// docs/schedule-race.md): random subsets of the run's real training samples, as many as it
// generates, scored like generated samples against its own held-out set with its feature
// network. `quality floor` and `sample-race` both call it, so their floors agree.
#include <cstdint>
#include <string>
#include <vector>

#include "train/feature_network.h"
#include "train/train_config.h"
#include "train/training_data.h"

namespace noisescope::pipeline {

struct QualityFloor {
  int64_t count = 0;       // real samples per draw
  uint64_t seed = 0;       // seed of the first draw
  std::vector<double> fd;  // one per draw (empty without a feature network)
  std::vector<double> kmerJs;
  std::vector<std::vector<double>> kmerJsPerK;
  double featureAccuracy = 0.0;
};

// The default seed of the first draw: far from the seeds of the run's split (optim.seed) and
// held-out subset (optim.seed + 1).
uint64_t defaultFloorSeed(const train::TrainConfig& config);

// `repeats` draws of `count` samples of data.train (seeds seed, seed + 1, …) against data.test.
// InputError when the training set has fewer than `count` samples or nothing can be scored.
QualityFloor qualityFloor(const train::TrainingData& data, const train::FeatureNetwork* features,
                          int64_t count, int64_t repeats, uint64_t seed);

}  // namespace noisescope::pipeline
