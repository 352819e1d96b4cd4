// IDX images with an optional labels file beside them, raw or gzip-compressed. The input is
// [u16 little-endian L][L bytes: labels file][the rest: images file]; L = 0, or an L longer than
// what follows, means no labels file. The names follow MNIST's scheme so that readIdx pairs them.
#include <string>

#include "data/formats/idx_reader.h"
#include "targets.h"

namespace noisescope::fuzz {

namespace {

const char* const kImages = "fuzz-images-idx3-ubyte";
const char* const kLabels = "fuzz-labels-idx1-ubyte";

// flags bit 0: the images member's gzip trailer records the wrong length (a lying trailer);
// bit 1: the images member is cut off before its trailer.
Outcome readPair(const uint8_t* data, size_t size, bool gzip, unsigned flags) {
  if (size < 2) return Outcome::Rejected;
  const size_t labelsSize = data[0] | (size_t{data[1]} << 8);
  data += 2;
  size -= 2;
  const std::string suffix = gzip ? ".gz" : "";
  removeScratchFile(std::string(kLabels) + ".gz");
  removeScratchFile(kLabels);
  if (labelsSize > 0 && labelsSize <= size) {
    const std::string labels(reinterpret_cast<const char*>(data), labelsSize);
    writeScratchFile(kLabels + suffix, gzip ? gzipBytes(labels.data(), labels.size()) : labels);
    data += labelsSize;
    size -= labelsSize;
  }
  std::string images(reinterpret_cast<const char*>(data), size);
  if (gzip) {
    images = gzipBytes(images.data(), images.size());
    if (flags & 1) images[images.size() - 4] ^= 1;
    if (flags & 2) images.resize(images.size() - 8);
  }
  const std::string path = writeScratchFile(kImages + suffix, images);
  return acceptOrReject([&] { readIdx(path); });
}

}  // namespace

Outcome idx(const uint8_t* data, size_t size) {
  return readPair(data, size, false, 0);
}

Outcome idxGz(const uint8_t* data, size_t size) {
  if (size < 1) return Outcome::Rejected;
  return readPair(data + 1, size - 1, true, data[0]);
}

}  // namespace noisescope::fuzz
