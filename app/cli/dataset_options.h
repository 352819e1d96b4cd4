#pragma once
// The options every command that reads a dataset shares: the HDF5 dataset path, FASTA windowing
// and unknown-letter policy, image-folder size. One definition, so they read the same everywhere.
#include <CLI/CLI.hpp>

#include <string>

#include "data/dataset.h"
#include "data/load.h"

namespace noisescope::cli {

struct DatasetArgs {
  std::string path;
  std::string hdf5Dataset;
  int64_t window = 200;
  int64_t stride = 200;
  std::string unknownBases = "skip";
  int imageWidth = 0, imageHeight = 0;
  std::string imageColor = "auto";
  std::string latentsFor;
};

// Adds the positional DATASET and the loading options to a subcommand.
void addDatasetOptions(CLI::App& app, DatasetArgs& args);
LoadOptions toLoadOptions(const DatasetArgs& args);
// Loads with a progress bar on stderr; throws InputError on bad input.
Dataset loadWithProgress(const DatasetArgs& args);

}  // namespace noisescope::cli
