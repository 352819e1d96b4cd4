#pragma once
// Internal to noisescope_data: used by its readers and white-box tests, not part of its API.
// The parts of a .npy file the whole-file reader and the streamed prior
// (data/streaming/prior_rows.h) share: the checked header, and the conversion of its elements to
// float.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace noisescope::data_detail {

struct NpyArrayInfo {
  std::vector<int64_t> shape;
  std::string dtype;        // "uint8", "float32" or "float64"
  size_t elementBytes = 0;  // 1, 4 or 8
  uint64_t elements = 0;    // product of shape
  uint64_t dataOffset = 0;  // byte offset of element 0 in the file
};

// Reads and checks the preamble and header, and that the data the header declares is exactly
// what the file holds after it. Throws InputError naming `path` otherwise.
NpyArrayInfo readNpyArrayInfo(const std::string& path);
// The same checks for a whole .npy held in memory (a member of an .npz); `where` names it.
NpyArrayInfo parseNpyArrayInfo(const unsigned char* bytes, uint64_t size, const std::string& where);

// `count` elements at `bytes` (element `firstElement` of the array onward) as float. Throws
// InputError for a float64 value beyond float32's range.
void decodeNpyElements(const NpyArrayInfo& info, const std::string& path,
                       const unsigned char* bytes, size_t count, uint64_t firstElement, float* out);

}  // namespace noisescope::data_detail
