#pragma once
// Internal to noisescope_data: used by its readers, not part of its API.
// The fields every reader fills before its first sample: what the file is called, where it came
// from, its type on disk, the scaling of its values and the shape of one sample. One place, so a
// reader cannot forget one of them.
#include <string>
#include <utility>
#include <vector>

#include "data/dataset.h"

namespace noisescope::data_detail {

struct DatasetOrigin {
  std::string name;
  std::string source;
  std::string sourceDtype;
  std::string scaling;
  SampleKind kind;
  std::vector<int64_t> sampleShape;
};

inline Dataset datasetFrom(DatasetOrigin origin) {
  Dataset dataset;
  dataset.name = std::move(origin.name);
  dataset.source = std::move(origin.source);
  dataset.sourceDtype = std::move(origin.sourceDtype);
  dataset.scaling = std::move(origin.scaling);
  dataset.kind = origin.kind;
  dataset.sampleShape = std::move(origin.sampleShape);
  return dataset;
}

}  // namespace noisescope::data_detail
