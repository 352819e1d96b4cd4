#pragma once
// Internal to noisescope_data: used by its readers and white-box tests, not part of its API.
// Reads a file that may or may not be gzip-compressed, in streaming chunks, through zlib's gz*
// functions. Corrupt compressed data raises InputError instead of hanging or returning garbage.
#include <zlib.h>

#include <cstdint>
#include <string>

namespace noisescope::data_detail {

class GzipInput {
 public:
  // Throws InputError when the path is missing, a directory, unreadable or empty.
  explicit GzipInput(const std::string& path);
  ~GzipInput();
  GzipInput(const GzipInput&) = delete;
  GzipInput& operator=(const GzipInput&) = delete;

  const std::string& path() const { return path_; }
  bool compressed() const { return compressed_; }
  uint64_t fileSize() const { return fileSize_; }
  // For a compressed file: the size the gzip trailer records (uncompressed bytes mod 2^32).
  uint32_t trailerSize() const { return trailerSize_; }
  // The most bytes the file could decompress to (deflate never exceeds 1032:1), or its size.
  uint64_t maximumDecodedSize() const;

  // Reads up to `bytes`; returns fewer only at the end of the data. Throws InputError on corrupt
  // or unreadable data.
  size_t read(void* buffer, size_t bytes);
  // Reads exactly `bytes` or throws InputError saying that `what` is truncated.
  void readExactly(void* buffer, size_t bytes, const std::string& what);
  // True when no data is left.
  bool atEnd();
  // Fraction of the file (compressed bytes for gzip) consumed so far, for progress reports.
  double fractionRead() const;

 private:
  std::string path_;
  gzFile file_ = nullptr;
  bool compressed_ = false;
  uint64_t fileSize_ = 0;
  uint32_t trailerSize_ = 0;
};

}  // namespace noisescope::data_detail
