#pragma once
// Internal to noisescope_data: used by its readers and white-box tests, not part of its API.
// The safetensors format (huggingface/safetensors, README "Format"): an 8-byte little-endian
// header length N, N bytes of JSON {"name": {"dtype", "shape", "data_offsets": [begin, end]},
// "__metadata__": {string: string}}, then the tensors' bytes, offsets relative to the data
// block. The header is checked in full before any tensor is read.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace noisescope::data_detail {

struct SafetensorsTensor {
  std::string name;
  std::string dtype;  // the file's spelling: "F32", "F16", "BF16", "F64", "U8", ...
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;  // within the data block
};

struct SafetensorsHeader {
  std::vector<SafetensorsTensor> tensors;  // in the header's order
  std::map<std::string, std::string> metadata;
  uint64_t dataOffset = 0;  // 8 + N
};

// Largest JSON header accepted (the format's own readers cap it at 100 MB).
constexpr uint64_t kMaxSafetensorsHeader = uint64_t{100} << 20;

// Throws InputError naming `path` for a truncated file, an absurd or non-JSON header, an entry
// without a dtype / shape / offsets, offsets outside the data or not matching shape × dtype.
SafetensorsHeader readSafetensorsHeader(const std::string& path);

// True for the dtypes read as numbers (F64, F32, F16, BF16, U8).
bool isNumericSafetensorsDtype(const std::string& dtype);

// The tensor's elements as float. InputError naming the file and tensor for another dtype, a
// non-finite value or a float64 beyond float32's range.
std::vector<float> readSafetensorsTensor(const std::string& path, const SafetensorsHeader& header,
                                         const SafetensorsTensor& tensor);

// IEEE half and bfloat16 bits → float (exact).
float halfToFloat(uint16_t bits);
float bfloat16ToFloat(uint16_t bits);

}  // namespace noisescope::data_detail
