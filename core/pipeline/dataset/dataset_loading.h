#pragma once
// The "open a dataset" action of both faces (issue 19): which format a path holds, which datasets
// an HDF5 file offers, a synthetic set's spec as text, and the dataset itself with the reader
// options the user chose. The faces load through here, not through core/data; the request's
// value types (LoadOptions, FileFormat, Hdf5DatasetInfo, SyntheticSpec) come with this header.
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/load.h"
#include "data/synthetic.h"

namespace noisescope::pipeline {

FileFormat datasetFormat(const std::string& path);
std::vector<Hdf5DatasetInfo> hdf5Datasets(const std::string& path);
Dataset openDataset(const std::string& path, const LoadOptions& options = {});
// The spec as the open dialog, `--dataset` and the recent-files list spell it.
std::string syntheticSpecText(const SyntheticSpec& spec);

}  // namespace noisescope::pipeline
