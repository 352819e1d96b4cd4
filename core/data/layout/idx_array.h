#pragma once
// Internal to noisescope_data: used by its readers and white-box tests, not part of its API.
// The parts of an IDX file the whole-file reader and the streamed prior
// (data/streaming/prior_rows.h) share: the checked header and what its dimensions make of a sample.
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/formats/gzip_input.h"

namespace noisescope::data_detail {

struct IdxHeader {
  std::vector<int64_t> dims;
  uint64_t headerBytes = 0;
  uint64_t dataBytes = 0;  // uint8 elements only, so elements == bytes
};

// Reads and checks the header, and that the data it declares fits in the file, before anything
// is allocated from it. Throws InputError naming the file.
IdxHeader readIdxHeader(GzipInput& input);

// Name, split, kind, shape and scaling of an images file with this header (values untouched).
// Throws InputError for a labels file (rank 1) or a rank-4 file.
void describeIdxImages(const std::string& path, const IdxHeader& header, Dataset& dataset);

}  // namespace noisescope::data_detail
