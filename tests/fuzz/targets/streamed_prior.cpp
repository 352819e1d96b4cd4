// A prior streamed from disk (data/streaming/prior_rows.h): [format byte][file]. The byte picks how
// the file is named (.npy, IDX, CIFAR batch). The streamed reader must accept or reject cleanly,
// and when the whole-file reader accepts the same file too, the streamed rows, read in tiles
// backwards and then forwards, must be exactly its values (a mismatch aborts: a finding).
#include <cstdlib>
#include <string>
#include <vector>

#include "data/load.h"
#include "data/streaming/prior_rows.h"
#include "targets.h"

namespace noisescope::fuzz {

Outcome streamedPrior(const uint8_t* data, size_t size) {
  if (size < 1) return Outcome::Rejected;
  static const char* names[] = {"fuzz.npy", "fuzz-images-idx3-ubyte", "data_batch_1.bin"};
  const std::string path = writeScratchFile(names[data[0] % 3], data + 1, size - 1);
  std::vector<float> streamed;
  const Outcome outcome = acceptOrReject([&] {
    std::unique_ptr<PriorRows> prior = openStreamedPrior(path);
    if (prior->size() * prior->dim() > (int64_t{1} << 24)) return;  // keep one run small
    streamed.resize(static_cast<size_t>(prior->size() * prior->dim()));
    const int64_t tile = 1 + prior->size() / 3;
    for (int64_t first = (prior->size() - 1) / tile * tile; first >= 0; first -= tile)
      prior->read(first, std::min(tile, prior->size() - first),
                  streamed.data() + first * prior->dim());
    std::vector<float> again(streamed.size());
    prior->read(0, prior->size(), again.data());
    if (again != streamed) std::abort();  // forward and backward reads disagree
  });
  if (outcome == Outcome::Accepted && !streamed.empty()) {
    acceptOrReject([&] {
      const Dataset whole = loadDataset(path);
      if (whole.values != streamed) std::abort();  // streamed rows differ from the loaded set
    });
  }
  return outcome;
}

}  // namespace noisescope::fuzz
