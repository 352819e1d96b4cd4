#pragma once
// A dataset of n vectors of dimension d from row-major values, for the diagnostic's tests.
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "data/dataset.h"

inline noisescope::Dataset makeDataset(int64_t n, int64_t d, std::vector<float> values) {
  if (static_cast<int64_t>(values.size()) != n * d)
    throw std::invalid_argument("makeDataset: values are not n × d");
  noisescope::Dataset data;
  data.name = "test";
  data.source = "test";
  data.kind = noisescope::SampleKind::Vector;
  data.sampleShape = {d};
  data.values = std::move(values);
  return data;
}
