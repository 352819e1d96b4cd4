#include "train/training_data.h"

#include <cmath>
#include <vector>

#include "data/layout/scale_reference.h"
#include "data/load.h"
#include "data/transforms.h"
#include "util/error.h"

namespace noisescope::train {
namespace {

// `scaleLike`: the training set, whose scale a test set is read onto (null for the training set).
Dataset readWithOptions(const TrainConfig& config, const std::string& path,
                        const Dataset* scaleLike, const Progress& progress) {
  LoadOptions options;
  options.hdf5Dataset = config.dataset.hdf5Dataset;
  options.latentsFor = config.dataset.latents;
  options.fasta.window = config.dataset.fastaWindow;
  options.fasta.stride = config.dataset.fastaStride;
  options.progress = progress;
  Dataset d = scaleLike ? loadDatasetOnScale(path, scaleReferenceOf(*scaleLike), options)
                        : loadDataset(path, options);
  if (config.dataset.transform == "binarize")
    d = binarize(d, static_cast<float>(config.dataset.binarizeThreshold));
  return d;
}

Dataset readOne(const TrainConfig& config, const std::string& path, const char* key,
                const Dataset* scaleLike, const Progress& progress) {
  try {
    return readWithOptions(config, path, scaleLike, progress);
  } catch (const InputError& e) {
    // Say which setting named the file, so the user knows where to fix it.
    throw InputError(config.source, std::string("key '") + key + "': " + e.what());
  }
}

}  // namespace

bool isDiscreteSigned(const Dataset& dataset) {
  for (float v : dataset.values)
    if (v != 1.0f && v != -1.0f) return false;
  return !dataset.values.empty();
}

TrainingData loadTrainingData(const TrainConfig& config, const Progress& progress) {
  const auto& s = config.dataset;
  const uint64_t seed = config.optim.seed;
  TrainingData out;
  Dataset train = readOne(config, s.path, "dataset.path", nullptr, progress.sub(0.0, 0.7));
  if (train.size() < 2)
    throw InputError(config.source,
                     "key 'dataset.path': '" + s.path + "' has fewer than 2 samples");
  Dataset test;
  if (!s.testPath.empty()) {
    // On the training set's scale: scaled by its own range, a test set's values (and so every
    // error measured on it) would be off by the ratio of the two ranges.
    test = readOne(config, s.testPath, "dataset.test_path", &train, progress.sub(0.7, 0.95));
    if (test.sampleShape != train.sampleShape)
      throw InputError(config.source, "key 'dataset.test_path': samples of shape " +
                                          test.shapeString() + " differ from the training set's " +
                                          train.shapeString());
    out.testDescription = "test_path " + s.testPath;
  } else {
    auto split = trainTestSplit(train, s.testFraction, seed);
    train = std::move(split.first);
    test = std::move(split.second);
    out.testDescription = std::to_string(test.size()) + " samples split off the training file (" +
                          "fraction " + std::to_string(s.testFraction) + ", seed " +
                          std::to_string(seed) + ")";
  }
  if (s.limit > 0 && s.limit < train.size()) train = randomSubset(train, s.limit, seed);
  if (s.testLimit > 0 && s.testLimit < test.size())
    test = randomSubset(test, s.testLimit, seed + 1);
  if (train.size() < 2)
    throw InputError(config.source,
                     "key 'dataset.path': fewer than 2 training samples are left after the "
                     "held-out split and dataset.limit");
  out.sigmaData = measureSigmaData(train);
  if (!(out.sigmaData > 0))
    throw InputError(config.source,
                     "key 'dataset.path': every training sample is the same; "
                     "σ_data is 0");
  out.discrete = isDiscreteSigned(train);
  out.train = std::move(train);
  out.test = std::move(test);
  progress.report(1.0, "data ready");
  return out;
}

}  // namespace noisescope::train
