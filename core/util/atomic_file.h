#pragma once
// Every file NoiseScope writes goes through here: the bytes land in a temporary file next to the
// target, are flushed, and only then renamed over it, so a reader never sees half a file and a
// crash never destroys the previous version.
#include <string>

namespace noisescope {

// Throws InputError naming the path and the system error when the directory is missing or the
// write fails; the previous file is then left as it was and the temporary file is removed.
// Temporary files of the same target that a killed process left behind (TARGET.tmp.PID of a PID
// no longer running) are removed first.
void writeFileAtomically(const std::string& path, const std::string& bytes);

// Appends `bytes` to `path` (created when missing) with one write where the system allows. When
// the write fails part-way the file is cut back to its previous length, so a full disk leaves no
// torn record; throws InputError naming the path and the system error.
void appendToFile(const std::string& path, const std::string& bytes);

}  // namespace noisescope
