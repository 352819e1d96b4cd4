#pragma once
// Internal to the libraries that read or write HDF5 (noisescope_data, noisescope_io): the one way
// this project opens an HDF5 file for reading, the handle that closes what HDF5 hands out, and the
// guard that keeps HDF5's own error printing off stderr. Only built when NOISESCOPE_WITH_HDF5 is
// on.
#include <hdf5.h>

#include <string>

namespace noisescope::hdf5 {

// Closes an HDF5 identifier with the function that matches its kind when it goes out of scope.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  void reset();
  hid_t id_;
  Closer closer_;
};

// HDF5 prints its error stack to stderr by default; our readers report an InputError instead.
class QuietErrors {
 public:
  QuietErrors();
  ~QuietErrors();
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

// Opens an existing file read-only through this project's read-only file driver, which reads with
// pread and leaves out HDF5's metadata accumulator: libhdf5 1.10.8 copies from a null accumulator
// after a failed huge allocation that a crafted file asks for (docs/fuzzing.md, finding 10), and a
// read-only reader gains nothing from it. A read past the end of the file is an error, not zeros.
// Throws InputError naming the file when it has no HDF5 signature or HDF5 cannot open it.
// Before it opens, the file's metadata is walked in a child process (hdf5_probe.h): a file whose
// headers crash libhdf5 is refused there instead of taking this process down.
Handle openForReading(const std::string& path);
// The same open without the child's walk: for the walk itself.
Handle openWithoutProbe(const std::string& path);

}  // namespace noisescope::hdf5
