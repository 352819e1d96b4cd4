#include "data/formats/hdf5_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "data/formats/hdf5_probe.h"
#include "util/error.h"

namespace noisescope::hdf5 {

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.id_;
    closer_ = other.closer_;
    other.id_ = -1;
  }
  return *this;
}

void Handle::reset() {
  if (id_ >= 0) closer_(id_);
  id_ = -1;
}

QuietErrors::QuietErrors() {
  H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietErrors::~QuietErrors() {
  H5Eset_auto2(H5E_DEFAULT, function_, data_);
}

namespace {

// The driver's file: HDF5's public part first, as the driver interface requires.
struct ReadOnlyFile {
  H5FD_t base;
  int descriptor;
  haddr_t endOfAllocation;
  haddr_t endOfFile;
  dev_t device;
  ino_t inode;
};

ReadOnlyFile* fileOf(H5FD_t* file) {
  return reinterpret_cast<ReadOnlyFile*>(file);
}
const ReadOnlyFile* fileOf(const H5FD_t* file) {
  return reinterpret_cast<const ReadOnlyFile*>(file);
}

H5FD_t* openFile(const char* name, unsigned flags, hid_t, haddr_t) {
  if ((flags & (H5F_ACC_RDWR | H5F_ACC_CREAT | H5F_ACC_TRUNC)) != 0) return nullptr;
  const int descriptor = ::open(name, O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return nullptr;
  struct stat status {};
  auto* file = static_cast<ReadOnlyFile*>(std::calloc(1, sizeof(ReadOnlyFile)));
  if (::fstat(descriptor, &status) != 0 || file == nullptr) {
    ::close(descriptor);
    std::free(file);
    return nullptr;
  }
  file->descriptor = descriptor;
  file->endOfFile = static_cast<haddr_t>(status.st_size);
  file->device = status.st_dev;
  file->inode = status.st_ino;
  return &file->base;
}

herr_t closeFile(H5FD_t* base) {
  ReadOnlyFile* file = fileOf(base);
  const int result = ::close(file->descriptor);
  std::free(file);
  return result == 0 ? 0 : -1;
}

// HDF5 asks whether a file is already open by comparing drivers' files.
int compareFiles(const H5FD_t* left, const H5FD_t* right) {
  const ReadOnlyFile* a = fileOf(left);
  const ReadOnlyFile* b = fileOf(right);
  if (a->device != b->device) return a->device < b->device ? -1 : 1;
  if (a->inode != b->inode) return a->inode < b->inode ? -1 : 1;
  return 0;
}

// No features: above all no metadata accumulation, the path of finding 10.
herr_t queryFeatures(const H5FD_t*, unsigned long* flags) {
  *flags = 0;
  return 0;
}

haddr_t endOfAllocation(const H5FD_t* file, H5FD_mem_t) {
  return fileOf(file)->endOfAllocation;
}

herr_t setEndOfAllocation(H5FD_t* file, H5FD_mem_t, haddr_t address) {
  fileOf(file)->endOfAllocation = address;
  return 0;
}

haddr_t endOfFile(const H5FD_t* file, H5FD_mem_t) {
  return fileOf(file)->endOfFile;
}

herr_t readBytes(H5FD_t* base, H5FD_mem_t, hid_t, haddr_t address, size_t size, void* buffer) {
  const ReadOnlyFile* file = fileOf(base);
  if (buffer == nullptr || address > file->endOfFile || size > file->endOfFile - address) return -1;
  auto* bytes = static_cast<char*>(buffer);
  size_t done = 0;
  while (done < size) {
    const ssize_t got =
        ::pread(file->descriptor, bytes + done, size - done, static_cast<off_t>(address + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    done += static_cast<size_t>(got);
  }
  return 0;
}

herr_t refuseWrite(H5FD_t*, H5FD_mem_t, hid_t, haddr_t, size_t, const void*) {
  return -1;
}

// The driver's table, in the field order of H5FD_class_t (libhdf5 1.10): what it leaves empty
// (superblock, property-list and allocation hooks, flush, truncate, locks) HDF5 does without.
const H5FD_class_t kReadOnlyDriver = {
    "noisescope_read_only",
    (haddr_t{1} << 62) - 1,  // maxaddr: an off_t holds every address
    H5F_CLOSE_WEAK,
    nullptr,  // terminate
    nullptr,
    nullptr,
    nullptr,  // superblock size, encode, decode
    0,
    nullptr,
    nullptr,
    nullptr,  // file access properties
    0,
    nullptr,
    nullptr,  // transfer properties
    openFile,
    closeFile,
    compareFiles,
    queryFeatures,
    nullptr,  // get_type_map: fl_map below
    nullptr,
    nullptr,  // alloc, free
    endOfAllocation,
    setEndOfAllocation,
    endOfFile,
    nullptr,  // get_handle
    readBytes,
    refuseWrite,
    nullptr,
    nullptr,
    nullptr,
    nullptr,  // flush, truncate, lock, unlock
    H5FD_FLMAP_DICHOTOMY};

hid_t readOnlyDriver() {
  static const hid_t driver = H5FDregister(&kReadOnlyDriver);
  return driver;
}

}  // namespace

Handle openForReading(const std::string& path) {
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw InputError(path, "is not an HDF5 file (no HDF5 signature)");
  requireMetadataWalkSurvives(path);
  return openWithoutProbe(path);
}

Handle openWithoutProbe(const std::string& path) {
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw InputError(path, "is not an HDF5 file (no HDF5 signature)");
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  const hid_t driver = readOnlyDriver();
  if (!access.valid() || driver < 0 || H5Pset_driver(access.get(), driver, nullptr) < 0)
    throw InputError(path, "cannot be opened: HDF5's read-only file driver could not be set up");
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get()), H5Fclose);
  if (!file.valid()) throw InputError(path, "cannot be opened as HDF5 (corrupt or truncated)");
  return file;
}

}  // namespace noisescope::hdf5
