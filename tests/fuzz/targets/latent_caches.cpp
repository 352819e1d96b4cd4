// The trainers' caches and datasets (data/formats/latent_cache_reader.h,
// data/formats/edm_zip_reader.h): one .safetensors file, one .npz file, one EDM/EDM2 dataset ZIP.
#include <string>

#include "data/formats/edm_zip_reader.h"
#include "data/formats/latent_cache_reader.h"
#include "targets.h"

namespace noisescope::fuzz {

Outcome safetensors(const uint8_t* data, size_t size) {
  const std::string path = writeScratchFile("fuzz.safetensors", data, size);
  return acceptOrReject([&] { readLatentFile(path); });
}

Outcome npz(const uint8_t* data, size_t size) {
  const std::string path = writeScratchFile("fuzz.npz", data, size);
  return acceptOrReject([&] { readLatentFile(path); });
}

Outcome edmZip(const uint8_t* data, size_t size) {
  const std::string path = writeScratchFile("fuzz.zip", data, size);
  return acceptOrReject([&] { readEdmZip(path); });
}

}  // namespace noisescope::fuzz
