#pragma once
// The one place that loads a TorchScript denoiser and checks it: the file exists, it is a
// TorchScript module, forward takes (x, sigma) without defaults, and each call returns a finite
// floating tensor of the input's shape. Used by the checkpoint profiler and by the checkpoint
// information model of the atomic design, so both read a model the same way and apply the same
// x0 / ε / v adapter. Every failure is an InputError naming the file.
//
// A TorchScript file is a program: loading it and calling it runs the code inside. NoiseScope
// loads one only from a path the user named (a command-line argument, a config field, a file
// dialog), never one it finds by itself.
#include <torch/script.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/prediction.h"
#include "util/error.h"

namespace noisescope {

// Writes a TorchScript module to `path` atomically (temporary file, then rename). InputError naming
// the path and `what` ("the TorchScript denoiser", "the feature network") when it fails.
void saveTorchScriptAtomically(torch::jit::Module& module, const std::string& path,
                               const std::string& what);

class TorchScriptDenoiser {
 public:
  TorchScriptDenoiser(const std::string& path, Prediction prediction, const c10::Device& device);

  // x̂0 for noisy samples y [B, ...] (VE convention, y = x0 + σ·ε) at sigma [B].
  at::Tensor denoise(const at::Tensor& y, const at::Tensor& sigma);

  // The sample shape the model records (its `sample_shape` attribute, written by NoiseScope's
  // exports); empty when it records none.
  const std::vector<int64_t>& declaredSampleShape() const { return declaredShape_; }

  const std::string& path() const { return path_; }
  Prediction prediction() const { return prediction_; }
  torch::jit::Module& module() { return module_; }

 private:
  at::Tensor call(const at::Tensor& x, const at::Tensor& sigma);

  std::string path_;
  Prediction prediction_;
  torch::jit::Module module_;
  std::vector<int64_t> declaredShape_;
};

}  // namespace noisescope
