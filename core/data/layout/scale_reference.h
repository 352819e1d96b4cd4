#pragma once
// The scale a prior was read onto, so that another file of the same data (its held-out queries,
// a run's test set) is read onto that scale instead of one chosen from its own value range
// (THEORY §1; docs/file-formats.md). The readers of generic arrays (.npy, HDF5) honour it; the
// other formats have one fixed convention each.
#include <string>

#include "data/dataset.h"
#include "data/load.h"

namespace noisescope {

struct ScaleReference {
  std::string source;  // the reference file, named in refusals and notes
  std::string dtype;   // its element type on disk ("uint8", "float32", …)
  SampleKind kind = SampleKind::Vector;
  bool rangeKnown = false;  // lo / hi: its values on disk
  double lo = 0.0, hi = 0.0;
};

// The scale `dataset` (a loaded set, or a streamed prior's description) was read onto.
ScaleReference scaleReferenceOf(const Dataset& dataset);

// loadDataset onto `reference`'s scale: an array file is mapped as the reference's dtype and range
// dictate (data/layout/array_layout.h); InputError naming both files' ranges when the values cannot
// be on one scale with the reference's.
Dataset loadDatasetOnScale(const std::string& path, const ScaleReference& reference,
                           const LoadOptions& options = {});

}  // namespace noisescope
