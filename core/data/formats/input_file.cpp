#include "data/formats/input_file.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "util/error.h"

namespace noisescope::data_detail {

uint64_t checkedFileSize(const std::string& path, bool allowEmpty) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) throw InputError(path, "no such file or directory");
    throw InputError(path, std::string("cannot be accessed: ") + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) throw InputError(path, "is a directory, expected a file");
  if (!S_ISREG(info.st_mode)) throw InputError(path, "is not a regular file");
  if (::access(path.c_str(), R_OK) != 0)
    throw InputError(path, "cannot be read (permission denied)");
  if (info.st_size == 0 && !allowEmpty) throw InputError(path, "is empty");
  return static_cast<uint64_t>(info.st_size);
}

void checkAllocation(const std::string& path, uint64_t bytes, const std::string& what) {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return;
  const uint64_t physical = static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
  if (bytes > physical)
    throw InputError(path, what + " would need " + formatBytes(bytes) +
                               ", more than this machine's " + formatBytes(physical) +
                               " of memory (corrupt header?)");
}

uint64_t checkedMultiply(const std::string& path, uint64_t a, uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a)
    throw InputError(path, "declares a size too large to represent (corrupt header?)");
  return a * b;
}

bool isDirectory(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

std::vector<std::string> listFolderFiles(const std::string& folder,
                                         const std::function<bool(const std::string&)>& wanted) {
  // Closed however the walk ends: `wanted` is the caller's and may throw.
  const std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(folder.c_str()), ::closedir);
  if (!dir) throw InputError(folder, "cannot be opened as a folder");
  const std::string prefix = endsWith(folder, "/") ? folder : folder + "/";
  std::vector<std::string> files;
  while (dirent* entry = ::readdir(dir.get())) {
    const std::string path = prefix + entry->d_name;
    struct stat info {};
    if (wanted(path) && ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode))
      files.push_back(path);
  }
  std::sort(files.begin(), files.end());
  return files;
}

FilePtr openForReading(const std::string& path) {
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) throw InputError(path, std::string("cannot be opened: ") + std::strerror(errno));
  return file;
}

void readExactly(std::FILE* file, void* buffer, size_t bytes, const std::string& path,
                 const std::string& what) {
  const size_t got = std::fread(buffer, 1, bytes, file);
  if (got != bytes) {
    if (std::ferror(file)) throw InputError(path, "read error in " + what);
    throw InputError(path, "is truncated: " + what + " needs " + std::to_string(bytes) +
                               " bytes, the file ends after " + std::to_string(got));
  }
}

const float* byteToSymmetricTable() {
  static const auto table = [] {
    std::array<float, 256> values{};
    for (int b = 0; b < 256; ++b) values[b] = byteToSymmetric(b);
    return values;
  }();
  return table.data();
}

std::string formatBytes(uint64_t bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1000.0 && unit < 6) {
    value /= 1000.0;
    ++unit;
  }
  char text[64];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace noisescope::data_detail

namespace noisescope::data_detail {
std::string displayName(const std::string& path) {
  std::string name = fileName(path);
  if (endsWith(toLower(name), ".gz")) name.resize(name.size() - 3);
  const size_t dot = name.find_last_of('.');
  if (dot != std::string::npos && dot > 0) name.resize(dot);
  return name;
}
}  // namespace noisescope::data_detail
