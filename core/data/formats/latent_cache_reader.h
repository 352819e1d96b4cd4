#pragma once
// What diffusion trainers cache and train on, read as a dataset:
//   - .safetensors: musubi-tuner's latent caches (one image per file, key
//     "latents_{F}x{H}x{W}_{dtype}", or "latents_{H}x{W}_{dtype}"; cache/ writers in its
//     src/musubi_tuner/dataset/), sd-scripts' ("latents", "latents_{H}x{W}" per bucket), or one
//     plain tensor [N, …];
//   - .npz: sd-scripts' latent caches (library/train_util.py, strategy_base.py: "latents" or
//     "latents_{H}x{W}", beside original_size, crop_ltrb, alpha_mask, which are left out), or one
//     plain array [N, …];
//   - a folder of such files as one dataset: every latent of every file, grouped by shape; a mixed
//     folder (several buckets) takes the largest group and its notes say which groups were left.
// Latents are read as cached (float, no scaling: the trainer's VAE scale factor is not in the
// file), unless `latentsFor` names the trainer and model ("sd-scripts:sdxl") whose noise scale to
// put them on (data/formats/latent_spaces.h); a plain tensor follows the .npy rules
// (data/layout/array_layout.h). Every failure is an InputError naming the file and the problem.
#include <string>

#include "data/dataset.h"
#include "util/progress.h"

namespace noisescope {

// One .safetensors or .npz file (by extension).
Dataset readLatentFile(const std::string& path, const Progress& progress = {},
                       const std::string& latentsFor = "");
// A folder of .safetensors / .npz files.
Dataset readLatentFolder(const std::string& folder, const Progress& progress = {},
                         const std::string& latentsFor = "");
// True when `folder` holds at least one .safetensors or .npz file (and so is read as latents).
bool isLatentFolder(const std::string& folder);

// True for the key of a latent in a trainer's cache: "latents", "latents_64x64",
// "latents_1x64x64_bf16" (not "latents_flipped", "latents_image_…", "latents_control_…").
bool isLatentCacheKey(const std::string& key);

}  // namespace noisescope
