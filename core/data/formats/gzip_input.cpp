#include "data/formats/gzip_input.h"

#include <algorithm>
#include <climits>
#include <cstdio>

#include "data/formats/input_file.h"
#include "util/error.h"

namespace noisescope::data_detail {

GzipInput::GzipInput(const std::string& path) : path_(path) {
  fileSize_ = checkedFileSize(path);
  {
    FilePtr raw = openForReading(path);
    unsigned char magic[2] = {0, 0};
    compressed_ = std::fread(magic, 1, 2, raw.get()) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (compressed_) {
      if (fileSize_ < 18) throw InputError(path, "is truncated: too short for a gzip stream");
      unsigned char trailer[4];
      if (std::fseek(raw.get(), -4, SEEK_END) != 0 || std::fread(trailer, 1, 4, raw.get()) != 4)
        throw InputError(path, "cannot read the gzip trailer");
      trailerSize_ = static_cast<uint32_t>(trailer[0]) | (static_cast<uint32_t>(trailer[1]) << 8) |
                     (static_cast<uint32_t>(trailer[2]) << 16) |
                     (static_cast<uint32_t>(trailer[3]) << 24);
    }
  }
  file_ = gzopen(path.c_str(), "rb");
  if (!file_) throw InputError(path, "cannot be opened");
  gzbuffer(file_, 1 << 20);
}

GzipInput::~GzipInput() {
  if (file_) gzclose(file_);
}

uint64_t GzipInput::maximumDecodedSize() const {
  return compressed_ ? fileSize_ * 1032 + 4096 : fileSize_;
}

size_t GzipInput::read(void* buffer, size_t bytes) {
  size_t total = 0;
  auto* out = static_cast<unsigned char*>(buffer);
  while (total < bytes) {
    const unsigned request = static_cast<unsigned>(std::min<size_t>(bytes - total, 1u << 30));
    const int got = gzread(file_, out + total, request);
    if (got < 0) {
      int code = 0;
      const char* message = gzerror(file_, &code);
      throw InputError(path_, std::string("is corrupt: ") + (message ? message : "gzip error"));
    }
    if (got == 0) {
      // gzread reports a stream cut short as end of data with a pending Z_BUF_ERROR.
      int code = 0;
      const char* message = gzerror(file_, &code);
      if (code != Z_OK && code != Z_STREAM_END)
        throw InputError(
            path_, std::string("is corrupt or truncated: ") + (message ? message : "gzip error"));
      break;
    }
    total += static_cast<size_t>(got);
  }
  return total;
}

void GzipInput::readExactly(void* buffer, size_t bytes, const std::string& what) {
  const size_t got = read(buffer, bytes);
  if (got != bytes)
    throw InputError(path_, "is truncated: " + what + " needs " + std::to_string(bytes) +
                                " bytes, the data ends after " + std::to_string(got));
}

double GzipInput::fractionRead() const {
  const z_off_t offset = gzoffset(file_);
  if (offset < 0 || fileSize_ == 0) return 0.0;
  return std::min(1.0, static_cast<double>(offset) / static_cast<double>(fileSize_));
}

bool GzipInput::atEnd() {
  unsigned char probe;
  return read(&probe, 1) == 0;
}

}  // namespace noisescope::data_detail
