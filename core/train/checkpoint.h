#pragma once
// Native training checkpoints (noisescope.train-checkpoint/1), written with torch::serialize:
//   "meta"       string: JSON with format, step, network spec, resolved config, sampler state,
//                the random-number scheme, provenance
//   "model/pNNNN", "ema/pNNNN"   parameters in the network's fixed order (names in meta)
//   "optimizer"  Adam's state
// The trainer writes and resumes them; loadCheckpointDenoiser() gives anyone else (the checkpoint
// profiler, tests) the EMA denoiser as a callable following THEORY §4: x0 = D(x[B,...], σ[B]).
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "train/networks.h"

namespace noisescope::train {

inline constexpr const char* kCheckpointFormat = "noisescope.train-checkpoint/1";

struct LoadedDenoiser {
  std::function<at::Tensor(const at::Tensor& x, const at::Tensor& sigma)> denoise;
  NetworkSpec spec;     // sample shape, network kind, σ_data
  int64_t step = 0;     // training step the checkpoint was written at
  nlohmann::json meta;  // everything else the checkpoint records (config, sampler state, ...)
  std::shared_ptr<Denoiser> network;  // owns the weights the callable uses
};

// Reads a native checkpoint (InputError naming the file for anything that is not one). `ema`:
// the EMA weights (default) or the raw training weights.
LoadedDenoiser loadCheckpointDenoiser(const std::string& path, c10::Device device, bool ema = true);

// Parameter key of index i inside the "model" / "ema" groups.
std::string checkpointParameterKey(size_t index);

}  // namespace noisescope::train
