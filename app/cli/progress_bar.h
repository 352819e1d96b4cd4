#pragma once
// A Progress that draws a one-line bar on stderr (redrawn in place on a terminal, a line every
// 10% otherwise, so logs stay readable).
#include <string>

#include "util/progress.h"

namespace noisescope::cli {

Progress stderrProgress(const std::string& task);

}  // namespace noisescope::cli
