#pragma once
// The scale a trainer noises a cached latent on. A latent model's VAE publishes a normalisation
// (a shift and a factor, one pair or one per channel); the trainer applies it either before it
// writes its cache or after it reads it back. σ means something only on the normalised scale, so a
// profile of a raw cache would put every noise level off by the VAE's factor (docs/latent-caches.md
// gives each constant's and each cache's source).
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace noisescope {

// A profile's or schedule's record of its latents' scale: the schedule note kLatentsNote holds
// kLatentsAsCached, or the "TOOL:MODEL" whose noise scale they were put on.
inline constexpr const char* kLatentsNote = "latents";
inline constexpr const char* kLatentsAsCached = "as cached";

// One VAE's published normalisation: normalised = (z − shift[c]) · factor[c] for channel c. A
// single entry in `shift` and `factor` applies to every channel.
struct LatentVae {
  std::string name;  // "sdxl", "flux", "wan2.1", …
  int channels = 0;
  std::vector<double> shift, factor;
  std::string source;  // where the constants are published
};

// What one trainer's latent cache holds for one model, and who normalises it.
struct LatentCacheKind {
  std::string tool, model;  // the names `fit --for TOOL --model MODEL` takes
  std::string vae;          // a LatentVae's name
  bool cacheIsNormalised = false;
  std::string where;  // the tool's file and function that write the cache or normalise it
};

const std::vector<LatentVae>& latentVaes();
const std::vector<LatentCacheKind>& latentCacheKinds();
// "TOOL:MODEL" → its entry, or null for a pair the table does not hold.
const LatentCacheKind* findLatentCacheKind(const std::string& toolAndModel);
// The same, with InputError(settings::kLatentsFor, …) listing every pair for an unknown one.
const LatentCacheKind& latentCacheKind(const std::string& toolAndModel);
const LatentVae& latentVae(const std::string& name);

// The "TOOL:MODEL" of a cache whose metadata names its architecture (musubi-tuner writes
// "architecture": "wan", "qwen_image", …), or "" for one this table does not know.
std::string latentPairOfArchitecture(const std::string& architecture);

// Puts latents read as cached on the scale `kind`'s trainer noises: the VAE's normalisation when
// the cache holds raw latents, nothing when it holds normalised ones. `latentShape` is one
// sample's shape, channels first ([C, H, W] or [C, F, H, W]). Records what was done in the
// dataset's latentsFor, latentTransform and notes. Throws InputError(dataset.source, …) when the
// channel count is not the VAE's.
void putLatentsOnTrainerScale(Dataset& dataset, const std::vector<int64_t>& latentShape,
                              const LatentCacheKind& kind);

// For a profile of latents read as cached, fitted for `tool` training `model`: which caches of
// that model hold raw latents (σ as read is 1/factor times the trainer's) and which hold
// normalised ones (σ as read is right). Empty when the table has no entry for the pair.
std::string latentsAsCachedNote(const std::string& tool, const std::string& model);

}  // namespace noisescope
