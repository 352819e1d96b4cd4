// The libFuzzer entry point of one harness; NOISESCOPE_FUZZ_ENTRY names its target (targets.h).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  NOISESCOPE_FUZZ_ENTRY(data, size);
  return 0;
}
