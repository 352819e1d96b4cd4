#pragma once
// Where the suites find the checkout's fixtures and the built programs. Functions, not macros that
// hold the paths: the paths differ from clone to clone, so only test_paths.cpp recompiles in a
// clone in another folder and every suite still hits the compiler cache (installer/README.md).
#include <string>

namespace noisescope::test {

// The checkout's root, or `relative` below it ("sample_data/dna/lambda_phage.fa").
std::string sourcePath(const std::string& relative = "");
// The build folder's root, or `relative` below it ("app/noisescope-cli").
std::string buildPath(const std::string& relative = "");
// The built noisescope-cli, which the parity and end-to-end suites run.
std::string cliPath();

}  // namespace noisescope::test
