#include "data/formats/hdf5_probe.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <thread>
#include <vector>

#include "data/formats/hdf5_file.h"
#include "util/error.h"

// Present only in sanitizer builds: the fuzzer's death callback would save the child's input as
// a crash of the whole harness.
extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

namespace noisescope::hdf5 {
namespace {

constexpr hsize_t kLargestAttributeRead = 1 << 20;  // bytes: a value beyond is decoded, not read

herr_t visitAttribute(hid_t object, const char* name, const H5A_info_t*, void*) {
  Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  if (!attribute.valid()) return 0;
  Handle type(H5Aget_type(attribute.get()), H5Tclose);
  Handle space(H5Aget_space(attribute.get()), H5Sclose);
  if (!type.valid() || !space.valid() || H5Tis_variable_str(type.get()) != 0 ||
      H5Tdetect_class(type.get(), H5T_VLEN) != 0)
    return 0;
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  const size_t size = H5Tget_size(type.get());
  if (count < 0 || size == 0 || hsize_t(count) * size > kLargestAttributeRead) return 0;
  std::vector<unsigned char> value(size_t(count) * size + 1);
  H5Aread(attribute.get(), type.get(), value.data());
  return 0;
}

herr_t visitObject(hid_t file, const char* name, const H5O_info_t* info, void*) {
  Handle object(H5Oopen(file, name, H5P_DEFAULT), H5Oclose);
  if (!object.valid()) return 0;
  hsize_t index = 0;
  H5Aiterate2(object.get(), H5_INDEX_NAME, H5_ITER_NATIVE, &index, visitAttribute, nullptr);
  if (info->type != H5O_TYPE_DATASET) return 0;
  Handle type(H5Dget_type(object.get()), H5Tclose);
  Handle space(H5Dget_space(object.get()), H5Sclose);
  if (space.valid()) H5Sget_simple_extent_npoints(space.get());
  Handle plist(H5Dget_create_plist(object.get()), H5Pclose);
  if (plist.valid()) {
    H5Pget_layout(plist.get());
    const int filters = H5Pget_nfilters(plist.get());
    for (int f = 0; f < filters && f < 32; ++f) {
      unsigned flags = 0, values[8];
      size_t count = 8;
      char filterName[64];
      H5Pget_filter2(plist.get(), unsigned(f), &flags, &count, values, sizeof filterName,
                     filterName, nullptr);
    }
  }
  H5Dget_storage_size(object.get());
  return 0;
}

// In the child: no report, no saved input, no leak check; only the exit status speaks.
[[noreturn]] void childWalk(const std::string& path) {
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
  for (int s : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) std::signal(s, SIG_DFL);
  const int quiet = ::open("/dev/null", O_WRONLY);
  if (quiet >= 0) ::dup2(quiet, STDERR_FILENO);
  try {
    walkMetadata(path);
  } catch (...) {
  }
  ::_exit(0);
}

}  // namespace

void walkMetadata(const std::string& path) {
  const QuietErrors quiet;
  const Handle file = openWithoutProbe(path);
  H5Ovisit2(file.get(), H5_INDEX_NAME, H5_ITER_NATIVE, visitObject, nullptr, H5O_INFO_BASIC);
}

void requireMetadataWalkSurvives(const std::string& path, int seconds) {
  const pid_t child = ::fork();
  if (child < 0) return;  // no child to be had: read as before
  if (child == 0) childWalk(path);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0) return;  // reaped elsewhere (a SIGCHLD handler): nothing to judge
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      throw InputError(path, "cannot be read: HDF5 did not finish reading its metadata in " +
                                 std::to_string(seconds) + " s (a malformed file)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  throw InputError(path,
                   "cannot be read: the HDF5 library crashed decoding its metadata (a malformed "
                   "file; libhdf5 1.10.8 reads such headers out of bounds)");
}

}  // namespace noisescope::hdf5
