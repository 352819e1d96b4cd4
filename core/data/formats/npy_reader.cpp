#include "data/formats/npy_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

#include "data/formats/input_file.h"
#include "data/layout/array_layout.h"
#include "data/layout/npy_array.h"
#include "util/error.h"

namespace noisescope {

using namespace data_detail;

bool hasNpyMagic(const unsigned char* bytes, size_t size) {
  return size >= 6 && std::memcmp(bytes, "\x93NUMPY", 6) == 0;
}

namespace {

struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

// The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// We read exactly those three keys and reject anything we do not understand.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& path) : text_(text), path_(path) {}

  NpyHeader parse() {
    NpyHeader header;
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipSpace();
    expect('{');
    for (;;) {
      skipSpace();
      if (peek() == '}') break;
      const std::string key = readQuoted();
      skipSpace();
      expect(':');
      skipSpace();
      if (key == "descr") {
        if (peek() != '\'' && peek() != '"')
          fail("'descr' is not a simple type string (structured arrays are not supported)");
        header.descr = readQuoted();
        haveDescr = true;
      } else if (key == "fortran_order") {
        header.fortranOrder = readBool();
        haveOrder = true;
      } else if (key == "shape") {
        header.shape = readShape();
        haveShape = true;
      } else {
        fail("unexpected key '" + key + "'");
      }
      skipSpace();
      if (peek() == ',') ++pos_;
    }
    if (!haveDescr || !haveOrder || !haveShape)
      fail("the header lacks one of 'descr', 'fortran_order', 'shape'");
    return header;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(path_, "has a malformed .npy header: " + why);
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string readQuoted() {
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a quoted string");
    ++pos_;
    const size_t end = text_.find(quote, pos_);
    if (end == std::string::npos) fail("unterminated string");
    std::string value = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return value;
  }
  bool readBool() {
    if (text_.compare(pos_, 4, "True") == 0) {
      pos_ += 4;
      return true;
    }
    if (text_.compare(pos_, 5, "False") == 0) {
      pos_ += 5;
      return false;
    }
    fail("'fortran_order' is neither True nor False");
  }
  std::vector<int64_t> readShape() {
    std::vector<int64_t> shape;
    expect('(');
    for (;;) {
      skipSpace();
      if (peek() == ')') {
        ++pos_;
        return shape;
      }
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("'shape' holds a non-integer");
      int64_t value = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        if (value > (INT64_MAX - 9) / 10) fail("'shape' holds an absurdly large number");
        value = value * 10 + (text_[pos_++] - '0');
      }
      shape.push_back(value);
      skipSpace();
      if (peek() == ',')
        ++pos_;
      else if (peek() != ')')
        fail("'shape' is not a tuple of integers");
    }
  }

  const std::string& text_;
  const std::string& path_;
  size_t pos_ = 0;
};

enum class Element { Uint8, Float32, Float64 };

Element parseDescr(const std::string& descr, const std::string& path) {
  if (descr == "|u1" || descr == "<u1" || descr == "u1") return Element::Uint8;
  if (descr == "<f4") return Element::Float32;
  if (descr == "<f8") return Element::Float64;
  if (descr == ">f4" || descr == ">f8")
    throw InputError(path, "holds big-endian data ('" + descr +
                               "'); save it little-endian (numpy: arr.astype('<f4'))");
  if (descr == "|O" || descr == "O")
    throw InputError(path, "holds Python objects, not numbers (dtype object)");
  throw InputError(path, "has element type '" + descr +
                             "'; supported are uint8 ('|u1'), float32 ('<f4') and float64 ('<f8')");
}

const char* elementName(Element e) {
  switch (e) {
    case Element::Uint8:
      return "uint8";
    case Element::Float32:
      return "float32";
    case Element::Float64:
      return "float64";
  }
  return "";
}

size_t elementSize(Element e) {
  return e == Element::Uint8 ? 1 : e == Element::Float32 ? 4 : 8;
}

}  // namespace

namespace {

// Preamble length and header length of the .npy whose first `size` bytes are `head`.
void npyLengths(const unsigned char* head, size_t size, const std::string& path,
                uint64_t& preambleLength, uint64_t& headerLength) {
  if (!hasNpyMagic(head, size)) throw InputError(path, "is not a .npy file (no \\x93NUMPY magic)");
  if (size < 10) throw InputError(path, "is truncated inside the .npy preamble");
  const int major = head[6];
  if (major == 1) {
    headerLength = head[8] | (head[9] << 8);
    preambleLength = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) throw InputError(path, "is truncated inside the .npy preamble");
    headerLength = static_cast<uint64_t>(head[8]) | (static_cast<uint64_t>(head[9]) << 8) |
                   (static_cast<uint64_t>(head[10]) << 16) |
                   (static_cast<uint64_t>(head[11]) << 24);
    preambleLength = 12;
  } else {
    throw InputError(path, "has .npy format version " + std::to_string(major) +
                               "; versions 1, 2 and 3 are supported");
  }
}

// The checks of the header text against a file (or buffer) of `totalSize` bytes.
NpyArrayInfo checkNpyHeader(const std::string& headerText, uint64_t preambleLength,
                            uint64_t totalSize, const std::string& path) {
  const NpyHeader header = HeaderParser(headerText, path).parse();
  const Element element = parseDescr(header.descr, path);
  if (header.fortranOrder)
    throw InputError(path,
                     "is stored in Fortran order; save it in C order (numpy: "
                     "np.ascontiguousarray)");
  uint64_t count = 1;
  for (int64_t s : header.shape) count = checkedMultiply(path, count, static_cast<uint64_t>(s));
  const uint64_t dataBytes = checkedMultiply(path, count, elementSize(element));
  const uint64_t available = totalSize - preambleLength - headerText.size();
  if (dataBytes != available)
    throw InputError(path, "declares shape " + formatShape(header.shape) + " of " +
                               elementName(element) + " (" + std::to_string(dataBytes) +
                               " bytes of data) but holds " + std::to_string(available) +
                               " bytes after the header");
  NpyArrayInfo info;
  info.shape = header.shape;
  info.dtype = elementName(element);
  info.elementBytes = elementSize(element);
  info.elements = count;
  info.dataOffset = preambleLength + headerText.size();
  return info;
}

}  // namespace

NpyArrayInfo data_detail::readNpyArrayInfo(const std::string& path) {
  const uint64_t fileSize = checkedFileSize(path);
  FilePtr file = openForReading(path);
  unsigned char preamble[12];
  const size_t got = std::fread(preamble, 1, 12, file.get());
  uint64_t preambleLength = 0, headerLength = 0;
  npyLengths(preamble, got, path, preambleLength, headerLength);
  if (preambleLength + headerLength > fileSize)
    throw InputError(path, "is truncated: its .npy header claims " + std::to_string(headerLength) +
                               " bytes, more than the file holds");
  if (std::fseek(file.get(), static_cast<long>(preambleLength), SEEK_SET) != 0)
    throw InputError(path, "cannot seek to the .npy header");
  std::string headerText(headerLength, '\0');
  readExactly(file.get(), headerText.data(), headerLength, path, "the .npy header");
  return checkNpyHeader(headerText, preambleLength, fileSize, path);
}

NpyArrayInfo data_detail::parseNpyArrayInfo(const unsigned char* bytes, uint64_t size,
                                            const std::string& where) {
  uint64_t preambleLength = 0, headerLength = 0;
  npyLengths(bytes, static_cast<size_t>(std::min<uint64_t>(size, 12)), where, preambleLength,
             headerLength);
  if (preambleLength + headerLength > size)
    throw InputError(where, "is truncated: its .npy header claims " + std::to_string(headerLength) +
                                " bytes, more than it holds");
  const std::string headerText(reinterpret_cast<const char*>(bytes) + preambleLength, headerLength);
  return checkNpyHeader(headerText, preambleLength, size, where);
}

void data_detail::decodeNpyElements(const NpyArrayInfo& info, const std::string& path,
                                    const unsigned char* bytes, size_t count, uint64_t firstElement,
                                    float* out) {
  if (info.dtype == "uint8") {
    for (size_t i = 0; i < count; ++i) out[i] = bytes[i];
  } else if (info.dtype == "float32") {
    std::memcpy(out, bytes, count * 4);  // little-endian hosts only (x86-64, arm64)
  } else {
    for (size_t i = 0; i < count; ++i) {
      double v;
      std::memcpy(&v, bytes + i * 8, 8);
      if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max())
        throw InputError(path, "holds the value " + std::to_string(v) + " at element " +
                                   std::to_string(firstElement + i) + ", beyond float32's range");
      out[i] = static_cast<float>(v);
    }
  }
}

Dataset readNpy(const std::string& path, const Progress& progress,
                const ScaleReference* scaleLike) {
  const NpyArrayInfo info = readNpyArrayInfo(path);
  const uint64_t count = info.elements;
  checkAllocation(path, checkedMultiply(path, count, sizeof(float)), "the array");
  FilePtr file = openForReading(path);
  if (std::fseek(file.get(), static_cast<long>(info.dataOffset), SEEK_SET) != 0)
    throw InputError(path, "cannot seek to the array data");
  std::vector<float> values(count);
  const size_t chunkElements = (size_t{4} << 20) / info.elementBytes;
  std::vector<unsigned char> buffer(chunkElements * info.elementBytes);
  for (uint64_t done = 0; done < count;) {
    progress.throwIfCancelled();
    const size_t n = static_cast<size_t>(std::min<uint64_t>(chunkElements, count - done));
    readExactly(file.get(), buffer.data(), n * info.elementBytes, path, "the array data");
    decodeNpyElements(info, path, buffer.data(), n, done, values.data() + done);
    done += n;
    progress.report(static_cast<double>(done) / static_cast<double>(count), "reading array");
  }

  Dataset dataset;
  dataset.name = displayName(path);
  dataset.source = path;
  finishArrayDataset(dataset, path, info.shape, info.dtype, std::move(values), scaleLike);
  dataset.validate();
  return dataset;
}

}  // namespace noisescope
