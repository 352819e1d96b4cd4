#pragma once
// Internal to hdf5_file.cpp. libhdf5 1.10.8 (Debian 12's) decodes object-header messages of a
// crafted file out of bounds (an attribute's name length read past its message: the class of
// CVE-2025-2310, fixed upstream in 1.14.x; docs/fuzzing.md, finding 11). Such a read can crash the
// process. So every file is first walked in a child process: each object, its datatype, dataspace,
// layout and filters, each attribute with its fixed-size value, exactly the decoders our readers
// then call. A child that crashes, or takes longer than the limit, means the file is refused with
// an InputError; the workbench stays up.
#include <string>

namespace noisescope::hdf5 {

// Throws InputError(path, …) when walking the file's metadata in a child process crashes it or
// takes longer than `seconds`. A file HDF5 merely refuses (an error, not a crash) passes: the
// caller's own open reports that error.
void requireMetadataWalkSurvives(const std::string& path, int seconds = 20);

// The walk itself, in this process (the child's work; also what a test runs directly).
void walkMetadata(const std::string& path);

}  // namespace noisescope::hdf5
