// One NumPy .npy file.
#include <string>

#include "data/formats/npy_reader.h"
#include "targets.h"

namespace noisescope::fuzz {

Outcome npy(const uint8_t* data, size_t size) {
  const std::string path = writeScratchFile("fuzz.npy", data, size);
  return acceptOrReject([&] { readNpy(path); });
}

}  // namespace noisescope::fuzz
