#pragma once
// Bytes a face made itself (a chart image it rendered) written the way every file of NoiseScope
// is (util/atomic_file.h): to a temporary file, flushed, renamed over the target; on failure the
// old file stays and the InputError names the file and the system error.
#include <string>

namespace noisescope::pipeline {

void writeFileBytes(const std::string& path, const std::string& bytes);

}  // namespace noisescope::pipeline
