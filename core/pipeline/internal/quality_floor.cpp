#include "pipeline/internal/quality_floor.h"

#include <cmath>

#include "train/sample_quality.h"

namespace noisescope::pipeline {

uint64_t defaultFloorSeed(const train::TrainConfig& config) {
  return 1000 * config.optim.seed;
}

QualityFloor qualityFloor(const train::TrainingData& data, const train::FeatureNetwork* features,
                          int64_t count, int64_t repeats, uint64_t seed) {
  const auto draws =
      train::realAgainstReal(data.train, data.test, count, repeats, seed, data.discrete, features);
  QualityFloor out;
  out.count = count;
  out.seed = seed;
  for (const auto& q : draws) {
    if (!std::isnan(q.fd)) out.fd.push_back(q.fd);
    if (!std::isnan(q.kmerJs)) {
      out.kmerJs.push_back(q.kmerJs);
      out.kmerJsPerK.push_back(q.kmerJsPerK);
    }
  }
  if (!draws.empty()) out.featureAccuracy = draws.front().featureAccuracy;
  return out;
}

}  // namespace noisescope::pipeline
