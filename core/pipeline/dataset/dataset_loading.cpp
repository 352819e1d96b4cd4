#include "pipeline/dataset_loading.h"

namespace noisescope::pipeline {

FileFormat datasetFormat(const std::string& path) {
  return detectFormat(path);
}

std::vector<Hdf5DatasetInfo> hdf5Datasets(const std::string& path) {
  return listHdf5Datasets(path);
}

Dataset openDataset(const std::string& path, const LoadOptions& options) {
  return loadDataset(path, options);
}

std::string syntheticSpecText(const SyntheticSpec& spec) {
  return formatSyntheticSpec(spec);
}

}  // namespace noisescope::pipeline
