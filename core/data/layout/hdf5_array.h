#pragma once
// Internal to noisescope_data: used by its readers and white-box tests, not part of its API.
// One numeric dataset of an HDF5 file, opened and checked once, read by row ranges (hyperslabs,
// converted to float by HDF5). The whole-file reader and the streamed prior
// (data/streaming/prior_rows.h) share it. Only built when NOISESCOPE_WITH_HDF5 is on.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace noisescope::data_detail {

class Hdf5Array {
 public:
  // datasetPath "" picks the only numeric dataset; with several, InputError lists them. Throws
  // InputError naming the file for anything unreadable or implausible.
  Hdf5Array(const std::string& path, const std::string& datasetPath);
  ~Hdf5Array();
  Hdf5Array(const Hdf5Array&) = delete;
  Hdf5Array& operator=(const Hdf5Array&) = delete;

  const std::vector<int64_t>& shape() const { return shape_; }
  const std::string& dtype() const { return dtype_; }         // "uint8", "float32", …
  const std::string& datasetPath() const { return chosen_; }  // "/group/name"
  const std::string& where() const { return where_; }         // "file.h5:/group/name"
  uint64_t elements() const { return elements_; }
  uint64_t rowElements() const { return rowElements_; }
  std::string split() const;  // "test" / "train" from the dataset's path, else "all"

  // Rows [first, first + count) as float, row-major (count × rowElements floats).
  void readRows(int64_t first, int64_t count, float* out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_, dtype_, chosen_, where_;
  std::vector<int64_t> shape_;
  uint64_t elements_ = 0, rowElements_ = 0;
};

}  // namespace noisescope::data_detail
