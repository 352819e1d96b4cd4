#pragma once
// Information matrices of a trained TorchScript denoiser (THEORY §7): the Gauss–Newton factor of
// its output layer, the realistic model for an atomic design. Torch lives here, not in schedule/,
// so that the schedule library stays torch-free.
#include <cstdint>
#include <string>
#include <vector>

#include "schedule/information.h"
#include "tensor/prediction.h"
#include "util/progress.h"

namespace noisescope {
struct Dataset;
}

namespace noisescope::schedule {

struct CheckpointInformationOptions {
  // The output layer's weight, by parameter name (as torch's named_parameters spells it, e.g.
  // "net_out_weight" in NoiseScope's exports). Empty: found automatically (see below).
  std::string parameter;
  // What the network predicts; the Jacobian is that of the x0 estimate the adapter forms
  // (tensor/torchscript_model.h), as in the checkpoint profile.
  Prediction prediction = Prediction::X0;
  int samples = 256;  // (x, ε) pairs per level
  int batch = 16;     // per forward/backward pass (reduced for wide conv layers)
  std::string device = "auto";
  uint64_t seed = 1;
  Progress progress;
};

// The model follows THEORY §4: forward(x: Tensor[B, ...sampleShape], sigma: Tensor[B]) → network
// output. The output layer is a call of linear, conv1d or conv2d (what nn.Linear / nn.Conv*d
// script or trace to) whose weight is a parameter. Found automatically, it is the one such layer
// whose output has the size of the model's output and on whose weight the output depends affinely
// (checked by perturbing each candidate's weight): a σ-embedding or hidden layer feeds a
// nonlinearity and fails the check. For a conv layer the input factor is built from its input
// patches (unfolded with the layer's own stride, padding and dilation).
// Throws InputError naming the file for unreadable models, a missing or unusable parameter, an
// output layer that cannot be identified (the message lists the candidates; choose one with
// `--parameter NAME`), or a forward that does not accept the data's shape.
InformationMatrices checkpointInformation(const std::string& modelPath, const Dataset& data,
                                          const std::vector<double>& sigma,
                                          const CheckpointInformationOptions& options = {});

}  // namespace noisescope::schedule
