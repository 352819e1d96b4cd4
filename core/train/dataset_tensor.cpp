#include "train/dataset_tensor.h"

#include <ATen/ATen.h>

#include <vector>

namespace noisescope::train {

at::Tensor datasetTensor(const Dataset& dataset, int64_t rows) {
  std::vector<int64_t> shape{rows < 0 ? dataset.size() : rows};
  shape.insert(shape.end(), dataset.sampleShape.begin(), dataset.sampleShape.end());
  // from_blob only views the memory; clone() owns it.
  return at::from_blob(const_cast<float*>(dataset.values.data()), shape, at::kFloat).clone();
}

}  // namespace noisescope::train
