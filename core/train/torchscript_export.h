#pragma once
// Exports a trained denoiser as a TorchScript module that anyone can load without NoiseScope
// (torch.jit.load in Python, torch::jit::load in C++), following THEORY §4's calling convention:
// forward(x: Tensor[B, ...], sigma: Tensor[B]) -> x0 estimate, EDM preconditioning included.
// The module's code is generated from the network's description and carries the same weights.
// Its preconditioning is written by instantiating schedule/preconditioning.h with a TorchScript
// expression type, so the exported c_skip, c_out, c_in, c_noise (also exposed as methods of the
// module) are the networks' own formulas; a test checks that the module computes what the C++
// network computes, coefficient by coefficient.
#include <string>

namespace noisescope::train {

class Denoiser;

// The TorchScript source of the module (for inspection and tests).
std::string torchScriptSource(const Denoiser& denoiser);
// Builds the module and saves it atomically to `path` (InputError naming the path on failure).
void exportTorchScriptDenoiser(const Denoiser& denoiser, const std::string& path);

}  // namespace noisescope::train
