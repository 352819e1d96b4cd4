#pragma once
// EDM / EDM2 dataset ZIPs, as NVlabs' dataset_tool.py writes them (training/dataset.py reads
// them): one image per member in any folder of the archive, with an optional dataset.json
// {"labels": [[member name, class], …]}. Members are either
//   - PNG (or JPEG) images: decoded and resized to one size like an image folder
//     (ImageFolderOptions; 0 × 0 keeps the first image's), in [−1, 1];
//   - .npy arrays [C, H, W]: EDM2's latents. With C = 8 they are the SD VAE's mean and standard
//     deviation (4 channels each), and each sample is drawn as EDM2's training draws it
//     (training/encoders.py, StabilityVAEEncoder.encode_latents): x = mean + std·ε, then
//     x·scale + bias with scale = 0.5/raw_std and bias = −raw_mean·scale (raw_mean = 5.81, 3.25,
//     0.12, −2.15; raw_std = 4.17, 4.62, 3.71, 3.28), ε from the seed. Other C are read as they
//     are.
// Every failure is an InputError naming the archive and the member.
#include <cstdint>
#include <string>

#include "data/dataset.h"
#include "data/load.h"
#include "util/progress.h"

namespace noisescope {

Dataset readEdmZip(const std::string& path, const ImageFolderOptions& options = {},
                   uint64_t seed = 1, const Progress& progress = {});

}  // namespace noisescope
