#pragma once
// A dataset's samples as a LibTorch tensor, the one conversion every torch job uses.
#include <ATen/core/Tensor.h>

#include <cstdint>

#include "data/dataset.h"

namespace noisescope::train {

// The first `rows` samples (all of them when rows < 0) as a float tensor of shape
// [rows, *sampleShape]. A copy, so the tensor outlives the dataset it came from.
at::Tensor datasetTensor(const Dataset& dataset, int64_t rows = -1);

}  // namespace noisescope::train
