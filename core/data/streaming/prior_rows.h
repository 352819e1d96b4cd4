#pragma once
// The prior of the offline diagnostic as rows read on demand, so that a dataset larger than
// memory can still be the prior: the engine asks for one tile of rows at a time and keeps only
// that tile (docs/architecture.md, "Out of core and sharded"). A loaded Dataset is one source
// (read in place, nothing copied); a file can be another, streamed from disk:
//   .npy   memory-mapped, pages released after each tile;
//   HDF5   one hyperslab per tile;
//   IDX    streamed through zlib (.gz too), forward; a backward read reopens the file;
//   CIFAR  record by record from the batch files.
// Streamed rows are in the same working layout and scaling as the whole-file readers give
// (array_layout.h decides once, from a summary pass, and applies it per tile).
#include <cstdint>
#include <memory>
#include <string>

#include "data/dataset.h"
#include "data/load.h"

namespace noisescope {

class PriorRows {
 public:
  virtual ~PriorRows() = default;
  // What the set is (name, source, kind, shape, scaling, notes); its `values` stay empty.
  const Dataset& description() const { return description_; }
  int64_t size() const { return size_; }
  int64_t dim() const { return dim_; }
  // Every row, when all of them are in memory already (read in place then); otherwise null.
  virtual const float* resident() const { return nullptr; }
  // Rows [first, first + count) into `out` (count × dim floats). Reading forward is cheapest.
  // Throws InputError naming the file when it cannot be read.
  virtual void read(int64_t first, int64_t count, float* out) = 0;
  // "memory", "memory-mapped .npy", "HDF5 hyperslabs", "IDX stream", "CIFAR records", …
  virtual std::string access() const = 0;

 protected:
  Dataset description_;
  int64_t size_ = 0, dim_ = 0;
};

// A loaded dataset as a prior (no copy: `dataset` must outlive the result).
std::unique_ptr<PriorRows> residentPrior(const Dataset& dataset);

// Rows [first, first + count) of `whole` (which must outlive the result), renumbered from 0: the
// shard a rank of a sharded diagnostic owns. Throws std::invalid_argument for a bad range.
std::unique_ptr<PriorRows> priorShard(PriorRows& whole, int64_t first, int64_t count);

// True for the formats that can be streamed (.npy, HDF5, IDX, CIFAR).
bool canStreamPrior(const std::string& path);

// Opens `path` for streaming: reads and checks its header (and, for .npy and HDF5, one summary
// pass over the values, which the scaling rules need). Throws InputError naming the file for a
// format that cannot be streamed or for bad content.
std::unique_ptr<PriorRows> openStreamedPrior(const std::string& path,
                                             const LoadOptions& options = {});

// The contiguous shard of N rows that rank `rank` of `worldSize` owns: the first N mod W ranks
// hold one row more. Returns {first, count}.
std::pair<int64_t, int64_t> shardRange(int64_t rows, int rank, int worldSize);

}  // namespace noisescope
