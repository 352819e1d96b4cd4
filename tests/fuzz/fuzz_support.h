#pragma once
// What every harness shares: a per-process scratch folder for the readers that take a path, and
// the rule that a reader may answer bad input only with InputError. Anything else that escapes
// (another exception type, a sanitizer report, a failed round trip) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "util/error.h"

namespace noisescope::fuzz {

// What the reader under test did with one input.
enum class Outcome { Accepted, Rejected };

// Runs `read`; InputError means the input was rejected, as readers must do with bad input.
template <typename Read>
Outcome acceptOrReject(Read&& read) {
  try {
    read();
    return Outcome::Accepted;
  } catch (const InputError&) {
    return Outcome::Rejected;
  }
}

// The folder /dev/shm (else $TMPDIR, else /tmp)/noisescope-fuzz-<pid>, created on first use,
// removed at exit.
const std::string& scratchDir();
// Writes the bytes to scratchDir()/name and returns that path.
std::string writeScratchFile(const std::string& name, const void* data, size_t size);
std::string writeScratchFile(const std::string& name, const std::string& bytes);
void removeScratchFile(const std::string& name);

// The bytes as one gzip member (what gzip(1) writes).
std::string gzipBytes(const void* data, size_t size);

// Reports a broken invariant (a read result that cannot be written and read back) and aborts,
// so that libFuzzer records the input as a crash.
[[noreturn]] void fail(const std::string& what);

}  // namespace noisescope::fuzz
