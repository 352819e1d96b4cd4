#pragma once
// The datasets a run trains and evaluates on, as its config describes them: read, transformed,
// split and limited, with the facts the trainer needs (σ_data, whether the data is discrete).
#include <string>

#include "data/dataset.h"
#include "data/statistics.h"  // measureSigmaData, the one σ_data
#include "train/train_config.h"
#include "util/progress.h"

namespace noisescope::train {

struct TrainingData {
  Dataset train;
  Dataset test;
  std::string testDescription;  // "test_path …" or "10% split of the training file (seed 1)"
  double sigmaData = 0.0;       // measureSigmaData(train) (THEORY §1)
  bool discrete = false;        // every value is −1 or +1 (binarised images, one-hot DNA)
};

// Reads everything the config names. InputError (naming the config and the dataset) when a file
// is missing or unreadable or the two sets have different sample shapes.
TrainingData loadTrainingData(const TrainConfig& config, const Progress& progress = {});

// Whether every value is −1 or +1, used by loadTrainingData and by callers that build datasets
// themselves (tests). σ_data is noisescope::measureSigmaData (data/statistics.h).
bool isDiscreteSigned(const Dataset& dataset);

}  // namespace noisescope::train
