#pragma once
// Every file NoiseScope writes goes through here: the bytes land in a temporary file next to the
// target, are flushed, and only then renamed over it, so a reader never sees half a file and a
// crash never destroys the previous version.
#include <string>

namespace noisescope {

// Throws InputError naming the path when the directory is missing or the write fails.
void writeFileAtomically(const std::string& path, const std::string& bytes);

}  // namespace noisescope
