#include "test_paths.h"

#include "noisescope_test_paths.h"

namespace noisescope::test {
namespace {

std::string below(std::string root, const std::string& relative) {
  return relative.empty() ? root : root + "/" + relative;
}

}  // namespace

std::string sourcePath(const std::string& relative) {
  return below(NOISESCOPE_SOURCE_DIR, relative);
}

std::string buildPath(const std::string& relative) {
  return below(NOISESCOPE_BINARY_DIR, relative);
}

std::string cliPath() {
  return buildPath("app/noisescope-cli");
}

}  // namespace noisescope::test
