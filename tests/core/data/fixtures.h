#pragma once
// Writers for the small files the data-layer tests read back: IDX, .npy, gzip, PNG, JPEG, HDF5.
// Each test builds its own fixtures in a QTemporaryDir so that tests share no state.
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "util/error.h"

// Readable failure messages for QCOMPARE on the standard types the data tests compare.
namespace QTest {
template <>
inline char* toString(const std::string& text) {
  return qstrdup(text.c_str());
}
template <typename T>
char* vectorToString(const std::vector<T>& values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size() && i < 32; ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  text += values.size() > 32 ? ", … (" + std::to_string(values.size()) + ")}" : "}";
  return qstrdup(text.c_str());
}
template <>
inline char* toString(const std::vector<int64_t>& values) {
  return vectorToString(values);
}
template <>
inline char* toString(const std::vector<int32_t>& values) {
  return vectorToString(values);
}
template <>
inline char* toString(const std::vector<float>& values) {
  return vectorToString(values);
}
}  // namespace QTest

namespace fixtures {

// Base of the data suites: a fresh temporary folder per suite and paths inside it.
class ScratchTest : public QObject {
 protected:
  QTemporaryDir dir_;
  std::string path(const std::string& name) const {
    return dir_.filePath(name.c_str()).toStdString();
  }
};

void writeBytes(const std::string& path, const std::string& bytes);
std::string readBytes(const std::string& path);
void writeGzip(const std::string& path, const std::string& bytes);
// Keeps the first `size` bytes of the file.
void truncateFile(const std::string& path, size_t size);

// An unsigned-byte IDX file: magic, big-endian dims, data.
std::string idxBytes(const std::vector<uint32_t>& dims, const std::vector<uint8_t>& data);

// A .npy file with the given header fields; `data` is the raw little-endian payload.
std::string npyBytes(const std::string& descr, const std::vector<int64_t>& shape,
                     const std::string& data, int version = 1, bool fortranOrder = false);
template <typename T>
std::string rawBytes(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// A safetensors file: 8-byte little-endian header length, the JSON header, the tensors' bytes.
// Each tensor: name, dtype ("F32", "BF16", …), shape and its raw little-endian bytes.
struct SafetensorsEntry {
  std::string name, dtype;
  std::vector<int64_t> shape;
  std::string data;
};
std::string safetensorsBytes(const std::vector<SafetensorsEntry>& tensors);
// A ZIP archive of stored (uncompressed) members, with their CRCs: what numpy.savez writes.
std::string zipBytes(const std::vector<std::pair<std::string, std::string>>& members);

// 8-bit PNG / JPEG; channels 1 (grey) or 3 (RGB), pixels row-major interleaved.
void writePng(const std::string& path, int width, int height, int channels,
              const std::vector<uint8_t>& pixels);
void writeJpeg(const std::string& path, int width, int height, int channels,
               const std::vector<uint8_t>& pixels, int quality = 100);

// One dataset in an HDF5 file (created, or appended when `append`). `type` is an HDF5 native
// type id such as H5T_NATIVE_FLOAT, passed as int64 to keep hdf5.h out of this header.
void writeHdf5(const std::string& path, const std::string& datasetPath,
               const std::vector<uint64_t>& dims, int64_t type, const void* data,
               bool append = false);
int64_t hdf5Uint8();
int64_t hdf5Float();
int64_t hdf5Double();
int64_t hdf5Int32();
// A chunked dataset declaring `dims` with nothing written: a header that claims a huge array.
void writeHdf5Unwritten(const std::string& path, const std::string& datasetPath,
                        const std::vector<uint64_t>& dims);

// The reference scaling of an 8-bit intensity to [−1, 1] (v/127.5 − 1, rounded once to float).
inline float symmetric(double byte) {
  return static_cast<float>(byte / 127.5 - 1.0);
}

// Exact float equality (QCOMPARE on floats is fuzzy; round trips must be exact).
#define EXPECT_SAME_FLOAT(actual, expected)                                          \
  do {                                                                               \
    const float actual_ = (actual), expected_ = (expected);                          \
    QVERIFY2(actual_ == expected_, qPrintable(QString("%1 != %2 (%3)")               \
                                                  .arg(double(actual_), 0, 'g', 9)   \
                                                  .arg(double(expected_), 0, 'g', 9) \
                                                  .arg(#actual)));                   \
  } while (0)

// Runs `action` and checks that it throws InputError whose message contains `needle` (normally
// the file name). `message` says what was thrown (or that nothing was).
struct ErrorCheck {
  bool ok = false;
  std::string message;
};
ErrorCheck expectInputError(const std::function<void()>& action, const std::string& needle);

}  // namespace fixtures

// QVERIFY-style wrapper that reports the message on failure.
#define EXPECT_INPUT_ERROR(statement, needle)                                                     \
  do {                                                                                            \
    const fixtures::ErrorCheck check_ = fixtures::expectInputError([&] { statement; }, (needle)); \
    QVERIFY2(check_.ok, check_.message.c_str());                                                  \
  } while (0)
