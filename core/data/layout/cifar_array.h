#pragma once
// Internal to noisescope_data: used by its readers and white-box tests, not part of its API.
// The parts of CIFAR binaries the whole-set reader and the streamed prior
// (data/streaming/prior_rows.h) share: which batch files a path stands for, their record layout,
// and the set's description.
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/formats/cifar_reader.h"

namespace noisescope::data_detail {

struct CifarBatch {
  std::string path;
  CifarVariant variant = CifarVariant::Cifar10;
  int64_t records = 0;
  int64_t recordBytes = 0;  // label byte(s) followed by 3×32×32 pixels, channel-major
  int64_t labelBytes = 0;
};

// One file, or a folder's training batches in name order. Throws InputError naming the file for
// a size that is not whole records or variants that differ.
std::vector<CifarBatch> listCifarBatches(const std::string& path);

// Name, split, kind, shape, scaling and notes of the set (values untouched).
void describeCifar(const std::string& path, const std::vector<CifarBatch>& batches,
                   Dataset& dataset);

}  // namespace noisescope::data_detail
