#pragma once
// Internal to noisescope_data: used by its readers and white-box tests, not part of its API.
// Small checks every reader makes before it trusts a file: that the path is a readable regular
// file, how large it is, and that an allocation a header asks for is plausible. They throw
// InputError naming the path, so readers never allocate from an unchecked header.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "util/file_names.h"

namespace noisescope::data_detail {

// Size in bytes of a regular, readable file. Throws InputError for a missing path, a directory,
// a file that cannot be opened, and (when allowEmpty is false) an empty file.
uint64_t checkedFileSize(const std::string& path, bool allowEmpty = false);

// Throws InputError when `bytes` (what a header asks the reader to hold) exceeds the machine's
// physical memory: such a header is corrupt or the set cannot be loaded here anyway.
void checkAllocation(const std::string& path, uint64_t bytes, const std::string& what);

// a·b, throwing InputError (naming the path) when the product overflows 64 bits.
uint64_t checkedMultiply(const std::string& path, uint64_t a, uint64_t b);

using noisescope::endsWith;  // file-name helpers live in util/file_names.h
using noisescope::fileName;
using noisescope::toLower;
bool isDirectory(const std::string& path);

// The regular files directly in `folder` whose path `wanted` accepts, as full paths in sorted order
// (the order a reader stacks them in, whatever the file system lists). InputError when the folder
// cannot be opened. The image and latent folder readers list through this one walk.
std::vector<std::string> listFolderFiles(const std::string& folder,
                                         const std::function<bool(const std::string&)>& wanted);

// A FILE* that closes itself; opened in binary read mode or InputError.
struct FileCloser {
  void operator()(std::FILE* file) const {
    if (file) std::fclose(file);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;
FilePtr openForReading(const std::string& path);

// Reads exactly `bytes` or throws InputError saying the file is truncated (`what` names the part).
void readExactly(std::FILE* file, void* buffer, size_t bytes, const std::string& path,
                 const std::string& what);

// An 8-bit intensity in the program's image scaling: v/127.5 − 1 computed in double and rounded
// once, so 0 → −1 and 255 → +1 exactly and every reader gives the same float for the same byte.
inline float byteToSymmetric(double value) {
  return static_cast<float>(value / 127.5 - 1.0);
}
// The same for all 256 byte values, for the hot loops of the readers.
const float* byteToSymmetricTable();

// Human-readable byte count for messages: "188.2 MB".
std::string formatBytes(uint64_t bytes);

}  // namespace noisescope::data_detail

namespace noisescope::data_detail {
// Short display name of a dataset file: the file name without ".gz" and without its last
// extension ("train-images-idx3-ubyte.gz" → "train-images-idx3-ubyte", "x.npy" → "x").
std::string displayName(const std::string& path);
}  // namespace noisescope::data_detail
