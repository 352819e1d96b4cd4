// One CIFAR binary batch. Its name, chosen by the input's length, is one of the CIFAR-10 names,
// the CIFAR-100 names, or neither (the variant is then told from the record size).
#include <string>

#include "data/formats/cifar_reader.h"
#include "targets.h"

namespace noisescope::fuzz {

Outcome cifar(const uint8_t* data, size_t size) {
  const char* const names[] = {"data_batch_1.bin", "train.bin", "batch.bin"};
  const std::string path = writeScratchFile(names[size % 3], data, size);
  looksLikeCifar(path);
  return acceptOrReject([&] { readCifar(path); });
}

}  // namespace noisescope::fuzz
