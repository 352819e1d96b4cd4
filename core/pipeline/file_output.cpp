#include "pipeline/file_output.h"

#include "util/atomic_file.h"

namespace noisescope::pipeline {

void writeFileBytes(const std::string& path, const std::string& bytes) {
  writeFileAtomically(path, bytes);
}

}  // namespace noisescope::pipeline
