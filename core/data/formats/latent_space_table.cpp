// The published normalisations of the latent models' VAEs and what each trainer's cache holds,
// read from each tool's source (docs/latent-caches.md names the snapshot, file and function of
// every entry; "unverified" there is marked here too).
#include "data/formats/latent_spaces.h"

#include <utility>

namespace noisescope {

namespace {

// Per-channel means and standard deviations of the Wan VAEs: normalised = (z − mean) / std.
const std::vector<double> kWan21Mean = {-0.7571, -0.7089, -0.9113, 0.1075,  -0.1745, 0.9653,
                                        -0.1517, 1.5508,  0.4134,  -0.0715, 0.5517,  -0.3632,
                                        -0.1922, -0.9497, 0.2503,  -0.2921};
const std::vector<double> kWan21Std = {2.8184, 1.4541, 2.3275, 2.6558, 1.2196, 1.7708,
                                       2.6052, 2.0743, 3.2687, 2.1526, 2.8652, 1.5579,
                                       1.6382, 1.1253, 2.8251, 1.916};
const std::vector<double> kWan22Mean = {
    -0.2289, -0.0052, -0.1323, -0.2339, -0.2799, 0.0174,  0.1838,  0.1557,  -0.1382, 0.0542,
    0.2813,  0.0891,  0.157,   -0.0098, 0.0375,  -0.1825, -0.2246, -0.1207, -0.0698, 0.5109,
    0.2665,  -0.2108, -0.2158, 0.2502,  -0.2055, -0.0322, 0.1109,  0.1567,  -0.0729, 0.0899,
    -0.2799, -0.123,  -0.0313, -0.1649, 0.0117,  0.0723,  -0.2839, -0.2083, -0.052,  0.3748,
    0.0152,  0.1957,  0.1433,  -0.2944, 0.3573,  -0.0548, -0.1681, -0.0667};
const std::vector<double> kWan22Std = {
    0.4765, 1.0364, 0.4514, 1.1677, 0.5313, 0.499,  0.4818, 0.5013, 0.8158, 1.0344, 0.5894, 1.0901,
    0.6885, 0.6165, 0.8454, 0.4978, 0.5759, 0.3523, 0.7135, 0.6804, 0.5833, 1.4146, 0.8986, 0.5659,
    0.7069, 0.5338, 0.4889, 0.4917, 0.4069, 0.4999, 0.6866, 0.4093, 0.5709, 0.6065, 0.6415, 0.4944,
    0.5726, 1.2042, 0.5458, 1.6887, 0.3971, 1.06,   0.3943, 0.5537, 0.5444, 0.4089, 0.7468, 0.7744};

std::vector<double> reciprocals(const std::vector<double>& values) {
  std::vector<double> out;
  for (double v : values) out.push_back(1.0 / v);
  return out;
}

}  // namespace

const std::vector<LatentVae>& latentVaes() {
  static const std::vector<LatentVae> table = {
      {"sd1",
       4,
       {0.0},
       {0.18215},
       "SD 1.x/2.x KL-f8: scaling_factor 0.18215 (diffusers AutoencoderKL; sd-scripts "
       "train_network.py)"},
      {"sdxl", 4, {0.0}, {0.13025}, "SDXL VAE: 0.13025 (sd-scripts library/sdxl_model_util.py)"},
      {"sd3",
       16,
       {0.0609},
       {1.5305},
       "SD3/3.5 VAE: shift 0.0609, scale 1.5305 (sd-scripts library/sd3_models.py "
       "SDVAE.process_in)"},
      {"flux1",
       16,
       {0.1159},
       {0.3611},
       "FLUX.1 AE (also Kontext, Chroma, Lumina 2, Z-Image): shift 0.1159, scale 0.3611 "
       "(sd-scripts library/flux_models.py AutoEncoder.encode)"},
      // Batch-norm statistics that live only in the VAE checkpoint: a cache that holds normalised
      // latents needs none, and no reader here can normalise a raw FLUX.2 latent.
      {"flux2",
       128,
       {},
       {},
       "FLUX.2 AE: 2x2 patchify to 128 channels, then batch norm with the checkpoint's running "
       "statistics (musubi-tuner flux_2/flux2_models.py AutoEncoder.normalize)"},
      {"wan2.1", 16, kWan21Mean, reciprocals(kWan21Std),
       "Wan 2.1 VAE (also Wan 2.2 A14B, Qwen-Image, Anima): per-channel latents_mean/latents_std "
       "(musubi-tuner wan/modules/vae.py WanVAE; diffusers AutoencoderKLWan)"},
      {"wan2.2-5b", 48, kWan22Mean, reciprocals(kWan22Std),
       "Wan 2.2 TI2V-5B VAE: per-channel latents_mean/latents_std (diffusers "
       "scripts/convert_wan_to_diffusers.py vae22_diffusers_config)"},
      {"hunyuan-video",
       16,
       {0.0},
       {0.476986},
       "HunyuanVideo VAE (also FramePack): 0.476986 (musubi-tuner hunyuan_model/vae.py)"},
      {"hunyuan-video-1.5",
       32,
       {0.0},
       {1.03682},
       "HunyuanVideo 1.5 VAE: 1.03682 (musubi-tuner hunyuan_video_1_5/hunyuan_video_1_5_vae.py)"},
      {"hunyuan-image-2.1",
       64,
       {0.0},
       {0.75289},
       "HunyuanImage 2.1 VAE: 0.75289 (sd-scripts library/hunyuan_image_vae.py)"},
  };
  return table;
}

const std::vector<LatentCacheKind>& latentCacheKinds() {
  // A raw cache is normalised by the trainer after reading (its `where`); a normalised one was
  // normalised before it was written.
  static const std::vector<LatentCacheKind> table = {
      // sd-scripts: .npz written by strategy_base.py LatentsCachingStrategy
      // ._default_cache_batch_latents; the training loop calls shift_scale_latents.
      {"sd-scripts", "sd15", "sd1", false, "train_network.py shift_scale_latents"},
      {"sd-scripts", "sd2-v", "sd1", false, "train_network.py shift_scale_latents"},
      {"sd-scripts", "sdxl", "sdxl", false, "sdxl_train_network.py vae_scale_factor"},
      {"sd-scripts", "sdxl-v", "sdxl", false, "sdxl_train_network.py vae_scale_factor"},
      {"sd-scripts", "sd3", "sd3", false, "sd3_train_network.py shift_scale_latents"},
      {"sd-scripts", "flux", "flux1", true,
       "strategy_flux.py FluxLatentsCachingStrategy.cache_batch_latents: the AE normalises"},
      {"sd-scripts", "lumina2", "flux1", true,
       "strategy_lumina.py cache_batch_latents: the Flux AE normalises"},
      {"sd-scripts", "hunyuan-image", "hunyuan-image-2.1", false,
       "hunyuan_image_train_network.py shift_scale_latents"},
      {"sd-scripts", "anima", "wan2.1", true,
       "strategy_anima.py cache_batch_latents (encode_pixels_to_latents)"},
      // musubi-tuner: .safetensors written by dataset/cache_io.py save_latent_cache_common; the
      // training loop calls each architecture's scale_shift_latents.
      {"musubi-tuner", "hunyuan-video", "hunyuan-video", false,
       "hv_train_network.py scale_shift_latents"},
      {"musubi-tuner", "hunyuan-video-1.5", "hunyuan-video-1.5", false,
       "hv_1_5_train_network.py scale_shift_latents"},
      {"musubi-tuner", "zimage", "flux1", false, "zimage_train_network.py scale_shift_latents"},
      {"musubi-tuner", "wan", "wan2.1", true,
       "wan_cache_latents.py encode_and_save_batch (WanVAE.encode normalises)"},
      {"musubi-tuner", "framepack", "hunyuan-video", true,
       "fpack_cache_latents.py encode_and_save_batch (frame_pack/hunyuan.py vae_encode scales)"},
      {"musubi-tuner", "flux-kontext", "flux1", true,
       "flux_kontext_cache_latents.py encode_and_save_batch (the Flux AE normalises)"},
      {"musubi-tuner", "qwen", "wan2.1", true,
       "qwen_image_cache_latents.py encode_and_save_batch (encode_pixels_to_latents)"},
      {"musubi-tuner", "flux2", "flux2", true,
       "flux_2_cache_latents.py encode_and_save_batch (AutoEncoder.encode normalises)"},
      // OneTrainer: mgds DiskCache pickles the posterior mean unscaled; each model setup's
      // predict() normalises it with the VAE config's constants.
      {"onetrainer", "sd15", "sd1", false, "modelSetup/BaseStableDiffusionSetup.py predict"},
      {"onetrainer", "sd2-v", "sd1", false, "modelSetup/BaseStableDiffusionSetup.py predict"},
      {"onetrainer", "sdxl", "sdxl", false, "modelSetup/BaseStableDiffusionXLSetup.py predict"},
      {"onetrainer", "sdxl-v", "sdxl", false, "modelSetup/BaseStableDiffusionXLSetup.py predict"},
      {"onetrainer", "sd3", "sd3", false, "modelSetup/BaseStableDiffusion3Setup.py predict"},
      {"onetrainer", "flux", "flux1", false, "modelSetup/BaseFluxSetup.py predict"},
      {"onetrainer", "chroma", "flux1", false,
       "modelSetup/BaseChromaSetup.py predict (the Flux.1 VAE: unverified)"},
      {"onetrainer", "qwen", "wan2.1", false,
       "modelSetup/BaseQwenSetup.py predict, QwenModel.scale_latents"},
      // SimpleTuner: helpers/caching/vae.py scales before it writes (scale_vae_latents_for_cache
      // or the model's own hook).
      {"simpletuner", "sd15", "sd1", true,
       "helpers/models/foundation_mixins.py VaeLatentScalingMixin.scale_vae_latents_for_cache"},
      {"simpletuner", "sdxl", "sdxl", true,
       "helpers/models/foundation_mixins.py VaeLatentScalingMixin.scale_vae_latents_for_cache"},
      {"simpletuner", "sd3", "sd3", true,
       "helpers/models/foundation_mixins.py VaeLatentScalingMixin.scale_vae_latents_for_cache"},
      {"simpletuner", "flux", "flux1", true,
       "helpers/models/foundation_mixins.py VaeLatentScalingMixin.scale_vae_latents_for_cache"},
      {"simpletuner", "qwen", "wan2.1", true,
       "helpers/models/qwen_image/model.py post_vae_encode_transform_sample"},
      {"simpletuner", "flux2", "flux2", true,
       "helpers/models/flux2/model.py post_vae_encode_transform_sample"},
      // diffusers: the DreamBooth scripts keep latents in memory; train_text_to_image_sdxl.py
      // stores them scaled in the datasets library's cache.
      {"diffusers", "sdxl", "sdxl", true,
       "examples/text_to_image/train_text_to_image_sdxl.py compute_vae_encodings"},
      // ai-toolkit: every model's encode_images scales before _latent_cache/ is written.
      {"ai-toolkit", "sd15", "sd1", true, "toolkit/stable_diffusion_model.py encode_images"},
      {"ai-toolkit", "sdxl", "sdxl", true, "toolkit/stable_diffusion_model.py encode_images"},
      {"ai-toolkit", "sd3", "sd3", true, "toolkit/stable_diffusion_model.py encode_images"},
      {"ai-toolkit", "flux", "flux1", true, "toolkit/stable_diffusion_model.py encode_images"},
      {"ai-toolkit", "chroma", "flux1", true,
       "toolkit/models/base_model.py BaseModel.encode_images (the Flux.1 VAE: unverified)"},
      {"ai-toolkit", "zimage", "flux1", true,
       "toolkit/models/base_model.py BaseModel.encode_images"},
      {"ai-toolkit", "qwen", "wan2.1", true,
       "extensions_built_in/diffusion_models/qwen_image/qwen_image.py encode_images"},
      {"ai-toolkit", "wan22-5b", "wan2.2-5b", true,
       "toolkit/models/wan21/wan21.py Wan21.encode_images"},
      // Wan2214bModel (extensions_built_in/diffusion_models/wan22/wan22_14b_model.py) loads the
      // Wan 2.1 VAE (_wan_vae_path) and encodes as Wan21 does; each expert alike.
      {"ai-toolkit", "wan22-14b", "wan2.1", true,
       "toolkit/models/wan21/wan21.py Wan21.encode_images (the Wan 2.1 VAE)"},
      {"ai-toolkit", "wan22-14b-high", "wan2.1", true,
       "toolkit/models/wan21/wan21.py Wan21.encode_images (the Wan 2.1 VAE)"},
      {"ai-toolkit", "wan22-14b-low", "wan2.1", true,
       "toolkit/models/wan21/wan21.py Wan21.encode_images (the Wan 2.1 VAE)"},
      {"ai-toolkit", "flux2", "flux2", true,
       "extensions_built_in/diffusion_models/flux2/flux2_model.py encode_images"},
  };
  return table;
}

std::string latentPairOfArchitecture(const std::string& architecture) {
  // musubi-tuner's dataset/architectures.py full names, as dataset/cache_io.py
  // save_latent_cache_common writes them into each cache's metadata.
  static const std::vector<std::pair<std::string, std::string>> table = {
      {"hunyuan_video", "musubi-tuner:hunyuan-video"},
      {"hunyuan_video_1_5", "musubi-tuner:hunyuan-video-1.5"},
      {"wan", "musubi-tuner:wan"},
      {"framepack", "musubi-tuner:framepack"},
      {"flux_kontext", "musubi-tuner:flux-kontext"},
      {"flux_2_dev", "musubi-tuner:flux2"},
      {"flux_2_klein_4b", "musubi-tuner:flux2"},
      {"flux_2_klein_9b", "musubi-tuner:flux2"},
      {"qwen_image", "musubi-tuner:qwen"},
      {"qwen_image_edit", "musubi-tuner:qwen"},
      {"qwen_image_layered", "musubi-tuner:qwen"},
      {"z_image", "musubi-tuner:zimage"},
  };
  for (const auto& [name, pair] : table)
    if (name == architecture) return pair;
  return {};
}

}  // namespace noisescope
