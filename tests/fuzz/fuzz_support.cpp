#include "fuzz_support.h"

#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace noisescope::fuzz {

namespace {
void removeScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(scratchDir(), ignored);
}
}  // namespace

const std::string& scratchDir() {
  // Never destroyed: the exit handler that removes the folder runs after static destructors.
  static const std::string* dir = [] {
    // In memory where possible: on a disk file system the file writes cost more than the reads.
    const char* tmp = std::getenv("TMPDIR");
    const std::string base = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm"
                             : tmp && *tmp                   ? tmp
                                                             : "/tmp";
    auto* path =
        new std::string(base + "/noisescope-fuzz-" + std::to_string(static_cast<long>(::getpid())));
    std::filesystem::create_directories(*path);
    std::atexit(removeScratchDir);
    return path;
  }();
  return *dir;
}

std::string writeScratchFile(const std::string& name, const void* data, size_t size) {
  const std::string path = scratchDir() + "/" + name;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) fail("cannot create the scratch file " + path);
  if (size > 0 && std::fwrite(data, 1, size, file) != size) fail("cannot write " + path);
  if (std::fclose(file) != 0) fail("cannot write " + path);
  return path;
}

std::string writeScratchFile(const std::string& name, const std::string& bytes) {
  return writeScratchFile(name, bytes.data(), bytes.size());
}

void removeScratchFile(const std::string& name) {
  std::remove((scratchDir() + "/" + name).c_str());
}

std::string gzipBytes(const void* data, size_t size) {
  z_stream stream{};
  // 15 window bits + 16: a gzip header and trailer rather than a zlib one.
  if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    fail("deflateInit2 failed");
  std::string out(deflateBound(&stream, static_cast<uLong>(size)), '\0');
  stream.next_in = static_cast<Bytef*>(const_cast<void*>(data));
  stream.avail_in = static_cast<uInt>(size);
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  if (deflate(&stream, Z_FINISH) != Z_STREAM_END) fail("deflate did not finish");
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

void fail(const std::string& what) {
  std::fprintf(stderr, "noisescope-fuzz: %s\n", what.c_str());
  std::abort();
}

}  // namespace noisescope::fuzz
