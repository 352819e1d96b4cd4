#pragma once
// Information matrices of a trained TorchScript denoiser (THEORY §7): the Gauss–Newton factor of
// its output layer, the realistic model for an atomic design. Torch lives here, not in schedule/,
// so that the schedule library stays torch-free.
#include <cstdint>
#include <string>
#include <vector>

#include "schedule/information.h"
#include "util/progress.h"

namespace noisescope {
struct Dataset;
}

namespace noisescope::schedule {

struct CheckpointInformationOptions {
  std::string parameter;  // name of the weight to use; empty: the last 2-D "*weight" parameter
  int samples = 256;      // (x, ε) pairs per level
  int batch = 16;         // per forward/backward pass (reduced automatically, see the .cpp)
  std::string device = "auto";
  uint64_t seed = 1;
  Progress progress;
};

// The model follows THEORY §4: forward(x: Tensor[B, ...sampleShape], sigma: Tensor[B]) → x0
// estimate. Throws InputError naming the file for unreadable models, a missing parameter, or a
// forward that does not accept the data's shape.
InformationMatrices checkpointInformation(const std::string& modelPath, const Dataset& data,
                                          const std::vector<double>& sigma,
                                          const CheckpointInformationOptions& options = {});

}  // namespace noisescope::schedule
