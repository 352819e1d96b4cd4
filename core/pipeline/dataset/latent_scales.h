#pragma once
// The trainer scales a latent cache can be read on, for a face to offer: every (tool, model) pair
// of the latent-space table (data/formats/latent_spaces.h), the VAE it uses and whether that
// tool's cache is already normalised. The pair is what LoadOptions::latentsFor takes.
#include <string>
#include <vector>

namespace noisescope::pipeline {

struct LatentScale {
  std::string pair;  // "TOOL:MODEL", as --latents and LoadOptions::latentsFor take it
  std::string vae;
  bool cacheIsNormalised = false;  // read as is; otherwise the VAE's normalisation is applied
};

std::vector<LatentScale> latentScales();

}  // namespace noisescope::pipeline
