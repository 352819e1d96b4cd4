#include "data/formats/safetensors_file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "data/formats/input_file.h"
#include "data/layout/array_layout.h"
#include "util/error.h"

namespace noisescope::data_detail {

namespace {

uint64_t elementBytes(const std::string& dtype) {
  if (dtype == "F64" || dtype == "I64" || dtype == "U64") return 8;
  if (dtype == "F32" || dtype == "I32" || dtype == "U32") return 4;
  if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16") return 2;
  if (dtype == "U8" || dtype == "I8" || dtype == "BOOL" || dtype == "F8_E4M3" || dtype == "F8_E5M2")
    return 1;
  return 0;
}

}  // namespace

float halfToFloat(uint16_t bits) {
  const int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  double v;
  if (exponent == 0)
    v = std::ldexp(mantissa, -24);  // subnormal
  else if (exponent == 31)
    v = mantissa ? std::numeric_limits<double>::quiet_NaN() : INFINITY;
  else
    v = std::ldexp(mantissa + 1024, exponent - 25);
  return static_cast<float>(sign ? -v : v);
}

float bfloat16ToFloat(uint16_t bits) {
  const uint32_t word = static_cast<uint32_t>(bits) << 16;  // the top half of a float32
  float v;
  std::memcpy(&v, &word, 4);
  return v;
}

bool isNumericSafetensorsDtype(const std::string& dtype) {
  return dtype == "F64" || dtype == "F32" || dtype == "F16" || dtype == "BF16" || dtype == "U8";
}

SafetensorsHeader readSafetensorsHeader(const std::string& path) {
  const uint64_t fileSize = checkedFileSize(path);
  FilePtr file = openForReading(path);
  if (fileSize < 8)
    throw InputError(path, "is truncated: shorter than the safetensors 8-byte header length");
  unsigned char lengthBytes[8];
  readExactly(file.get(), lengthBytes, 8, path, "the safetensors header length");
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i) length = (length << 8) | lengthBytes[i];
  if (length > kMaxSafetensorsHeader)
    throw InputError(path, "declares a safetensors header of " + std::to_string(length) +
                               " bytes, more than the 100 MB allowed (not a safetensors file?)");
  if (length > fileSize - 8)
    throw InputError(path, "is truncated: its safetensors header claims " + std::to_string(length) +
                               " bytes, the file holds " + std::to_string(fileSize - 8) +
                               " after the length");
  std::string text(length, '\0');
  readExactly(file.get(), text.data(), length, path, "the safetensors header");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, std::string("has a safetensors header that is not JSON: ") + e.what());
  }
  if (!j.is_object()) throw InputError(path, "has a safetensors header that is not a JSON object");

  SafetensorsHeader header;
  header.dataOffset = 8 + length;
  const uint64_t dataSize = fileSize - header.dataOffset;
  for (const auto& [name, entry] : j.items()) {
    const std::string where = "tensor '" + name + "'";
    if (name == "__metadata__") {
      if (!entry.is_object()) throw InputError(path, "has a __metadata__ that is not an object");
      for (const auto& [k, v] : entry.items())
        if (v.is_string()) header.metadata[k] = v.get<std::string>();
      continue;
    }
    if (!entry.is_object() || !entry.contains("dtype") || !entry["dtype"].is_string() ||
        !entry.contains("shape") || !entry["shape"].is_array() || !entry.contains("data_offsets") ||
        !entry["data_offsets"].is_array() || entry["data_offsets"].size() != 2)
      throw InputError(path, "has a " + where + " without a dtype, shape and two data_offsets");
    SafetensorsTensor t;
    t.name = name;
    t.dtype = entry["dtype"].get<std::string>();
    const uint64_t bytes = elementBytes(t.dtype);
    if (bytes == 0) throw InputError(path, "has " + where + " of unknown dtype '" + t.dtype + "'");
    uint64_t count = 1;
    for (const auto& s : entry["shape"]) {
      if (!s.is_number_unsigned())
        throw InputError(path,
                         "has " + where + " whose shape holds a non-integer or negative value");
      t.shape.push_back(s.get<int64_t>());
      count = checkedMultiply(path, count, s.get<uint64_t>());
    }
    for (const auto& o : entry["data_offsets"])
      if (!o.is_number_unsigned())
        throw InputError(path, "has " + where + " whose data_offsets are not byte positions");
    t.begin = entry["data_offsets"][0].get<uint64_t>();
    t.end = entry["data_offsets"][1].get<uint64_t>();
    if (t.begin > t.end || t.end > dataSize)
      throw InputError(path, "has " + where + " at bytes " + std::to_string(t.begin) + "…" +
                                 std::to_string(t.end) + ", outside the " +
                                 std::to_string(dataSize) +
                                 " data bytes the file holds (truncated?)");
    const uint64_t expected = checkedMultiply(path, count, bytes);
    if (t.end - t.begin != expected)
      throw InputError(path, "has " + where + " of shape " + formatShape(t.shape) + " " + t.dtype +
                                 " (" + std::to_string(expected) + " bytes) stored in " +
                                 std::to_string(t.end - t.begin) + " bytes");
    header.tensors.push_back(std::move(t));
  }
  return header;
}

std::vector<float> readSafetensorsTensor(const std::string& path, const SafetensorsHeader& header,
                                         const SafetensorsTensor& t) {
  const std::string where = path + ": tensor '" + t.name + "'";
  if (!isNumericSafetensorsDtype(t.dtype))
    throw InputError(where, "has dtype " + t.dtype + "; read are F32, F16, BF16, F64 and U8");
  const uint64_t bytes = t.end - t.begin, size = elementBytes(t.dtype), count = bytes / size;
  checkAllocation(where, checkedMultiply(where, count, sizeof(float)), "the tensor");
  FilePtr file = openForReading(path);
  if (std::fseek(file.get(), static_cast<long>(header.dataOffset + t.begin), SEEK_SET) != 0)
    throw InputError(where, "cannot seek to the tensor's data");
  std::vector<unsigned char> raw(bytes);
  readExactly(file.get(), raw.data(), bytes, path, "tensor '" + t.name + "'");
  std::vector<float> out(count);
  for (uint64_t i = 0; i < count; ++i) {
    const unsigned char* p = raw.data() + i * size;
    double v;
    if (t.dtype == "U8") {
      v = p[0];
    } else if (t.dtype == "F16" || t.dtype == "BF16") {
      const uint16_t bits = static_cast<uint16_t>(p[0] | (p[1] << 8));
      v = t.dtype == "F16" ? halfToFloat(bits) : bfloat16ToFloat(bits);
    } else if (t.dtype == "F32") {
      float f;
      std::memcpy(&f, p, 4);  // little-endian hosts only (x86-64, arm64)
      v = f;
    } else {
      std::memcpy(&v, p, 8);
      if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max())
        throw InputError(where, "holds " + std::to_string(v) + ", beyond float32's range");
    }
    if (!std::isfinite(v))
      throw InputError(where, "holds a non-finite value at element " + std::to_string(i));
    out[i] = static_cast<float>(v);
  }
  return out;
}

}  // namespace noisescope::data_detail
