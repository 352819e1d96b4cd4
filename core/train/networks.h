#pragma once
// The denoisers the trainer builds, sized to the data: an MLP for flat low-dimensional data, a
// small U-Net for 28×28 / 32×32 images, a 1-D conv net for one-hot DNA ({L, 4}). Each is wrapped
// in EDM preconditioning, so forward(x, σ) returns the x0 estimate D(x; σ) (THEORY §4 calling
// convention). The torch modules live in networks.cpp; this header exposes a small handle.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "data/dataset.h"
#include "schedule/engine_defaults.h"
#include "schedule/preconditioning.h"
#include "train/train_config.h"

namespace noisescope::train {

struct NetworkSpec {
  std::string kind;                  // "mlp", "unet", "conv1d"
  std::vector<int64_t> sampleShape;  // shape of one sample, without the batch
  int64_t width = 256, depth = 3, channels = 32, blocks = 4, embedding = 64;
  double sigmaData = schedule::defaults::kSigmaDataFallback;
};

// Picks the network for the data ("auto": images with sides divisible by 4 → unet, {L,4} sequences
// → conv1d, else mlp) and checks that an explicit kind fits the shape (InputError otherwise).
NetworkSpec resolveNetworkSpec(const ModelSettings& settings,
                               const std::vector<int64_t>& sampleShape, SampleKind kind,
                               double sigmaData, const std::string& source);
nlohmann::json toJson(const NetworkSpec& spec);
NetworkSpec networkSpecFromJson(const nlohmann::json& json, const std::string& source);

class Denoiser {
 public:
  // Builds the network with parameters initialised from torch's global generator.
  Denoiser(const NetworkSpec& spec, c10::Device device);
  ~Denoiser();
  Denoiser(const Denoiser&) = delete;
  Denoiser& operator=(const Denoiser&) = delete;

  const NetworkSpec& spec() const { return spec_; }
  c10::Device device() const { return device_; }

  // x: [B, ...sampleShape], sigma: [B] → x0 estimate [B, ...sampleShape]:
  // preconditioning().denoise(x, σ, network, …) = c_skip·x + c_out·F(c_in·x, c_noise).
  at::Tensor forward(const at::Tensor& x, const at::Tensor& sigma) const;
  // The raw network F(input, c_noise) inside the preconditioning (input [B, ...], c_noise [B]).
  at::Tensor network(const at::Tensor& input, const at::Tensor& cNoise) const;
  // The preconditioning around F (σ_d = spec().sigmaData), the one of schedule/preconditioning.h.
  const schedule::EdmPreconditioning& preconditioning() const;
  // Named parameters in a fixed order (names are the module paths, e.g. "net.stem.weight").
  std::vector<std::pair<std::string, at::Tensor>> namedParameters() const;
  std::vector<at::Tensor> parameters() const;
  int64_t parameterCount() const;
  void setTraining(bool training);
  // Copies every parameter value from `other` (same spec).
  void copyParametersFrom(const Denoiser& other);

 private:
  struct Impl;
  NetworkSpec spec_;
  c10::Device device_;
  std::unique_ptr<Impl> impl_;
};

// The GroupNorm group count of a layer with `channels` channels: the network and its TorchScript
// export (torchscript_export.cpp) must agree on it, or the export computes a different function.
int64_t groupNormGroups(int64_t channels);

}  // namespace noisescope::train
