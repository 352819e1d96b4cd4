#include "data/formats/latent_spaces.h"

#include <algorithm>

#include "util/error.h"
#include "util/number_text.h"
#include "util/setting_names.h"

namespace noisescope {

namespace {

std::string joinedPairs() {
  std::string text;
  for (const LatentCacheKind& k : latentCacheKinds())
    text += (text.empty() ? "" : ", ") + k.tool + ":" + k.model;
  return text;
}

double channelValue(const std::vector<double>& values, int64_t channel) {
  return values.size() == 1 ? values.front() : values[static_cast<size_t>(channel)];
}

// "(z − 0.1159) · 0.3611", or the per-channel form with the factor's range.
std::string transformText(const LatentVae& vae) {
  if (vae.shift.size() == 1 && vae.factor.size() == 1) {
    const std::string factor = shortestNumberText(vae.factor.front());
    if (vae.shift.front() == 0.0) return "z · " + factor;
    return "(z − " + shortestNumberText(vae.shift.front()) + ") · " + factor;
  }
  const auto [lo, hi] = std::minmax_element(vae.factor.begin(), vae.factor.end());
  return "(z − mean[c]) · factor[c] per channel (" + std::to_string(vae.channels) +
         " channels, factor " + shortestNumberText(*lo) + " … " + shortestNumberText(*hi) + ")";
}

}  // namespace

const LatentCacheKind* findLatentCacheKind(const std::string& toolAndModel) {
  for (const LatentCacheKind& k : latentCacheKinds())
    if (k.tool + ":" + k.model == toolAndModel) return &k;
  return nullptr;
}

const LatentCacheKind& latentCacheKind(const std::string& toolAndModel) {
  if (const LatentCacheKind* kind = findLatentCacheKind(toolAndModel)) return *kind;
  throw InputError(settings::kLatentsFor,
                   "unknown trainer and model '" + toolAndModel + "'; known: " + joinedPairs());
}

const LatentVae& latentVae(const std::string& name) {
  for (const LatentVae& v : latentVaes())
    if (v.name == name) return v;
  throw InputError(settings::kLatentsFor, "unknown VAE '" + name + "'");
}

void putLatentsOnTrainerScale(Dataset& dataset, const std::vector<int64_t>& latentShape,
                              const LatentCacheKind& kind) {
  const LatentVae& vae = latentVae(kind.vae);
  const std::string pair = kind.tool + ":" + kind.model;
  if (latentShape.empty() || latentShape.front() != vae.channels)
    throw InputError(dataset.sourceOrName(),
                     "holds latents of shape " + sampleShapeText(latentShape) + ", but " + pair +
                         " trains on " + std::to_string(vae.channels) + "-channel latents (the " +
                         vae.name + " VAE); is this the cache of another model?");
  if (!kind.cacheIsNormalised && vae.factor.empty())
    throw InputError(dataset.sourceOrName(),
                     pair + " caches raw latents, and the " + vae.name +
                         " VAE's normalisation is not published as constants (" + vae.source +
                         "), so they cannot be put on its scale here");
  dataset.latentCache = true;
  dataset.latentsFor = pair;
  if (kind.cacheIsNormalised) {
    dataset.latentTransform = "none: " + kind.tool + "'s " + kind.model +
                              " cache holds latents already normalised (" + kind.where + ")";
    dataset.notes.push_back("latents left as cached: " + dataset.latentTransform);
    return;
  }
  const int64_t perChannel = dataset.dim() / vae.channels;
  for (int64_t i = 0; i < dataset.size(); ++i) {
    float* sample = dataset.sample(i);
    for (int64_t c = 0; c < vae.channels; ++c) {
      const double shift = channelValue(vae.shift, c), factor = channelValue(vae.factor, c);
      float* channel = sample + c * perChannel;
      for (int64_t j = 0; j < perChannel; ++j)
        channel[j] = static_cast<float>((channel[j] - shift) * factor);
    }
  }
  dataset.latentTransform = transformText(vae) + ", the " + vae.name + " VAE's normalisation, as " +
                            kind.tool + " applies it after reading its " + kind.model + " cache (" +
                            kind.where + ")";
  dataset.scaling = "latent, normalised";
  dataset.transforms.push_back("latents normalised for " + pair + ": " + transformText(vae));
  dataset.notes.push_back("latents put on the scale " + kind.tool + " noises " + kind.model + ": " +
                          dataset.latentTransform);
}

std::string latentsAsCachedNote(const std::string& tool, const std::string& model) {
  const LatentCacheKind* kind = findLatentCacheKind(tool + ":" + model);
  std::string raw, normalised;
  for (const LatentCacheKind& k : latentCacheKinds())
    if (k.model == model) (k.cacheIsNormalised ? normalised : raw) += (k.tool + ", ");
  if (!kind) return {};
  const LatentVae& vae = latentVae(kind->vae);
  std::string note = tool + " noises " + model + " latents normalised by the " + vae.name + " VAE";
  if (!vae.factor.empty()) note += " (" + transformText(vae) + ")";
  if (!raw.empty())
    note += "; a cache that holds them raw (" + raw.substr(0, raw.size() - 2) +
            ") puts every σ of the profile off by that factor: read such a cache again as TOOL:" +
            model + " latents";
  if (!normalised.empty())
    note += "; a cache that holds them normalised (" + normalised.substr(0, normalised.size() - 2) +
            ") is on that scale as read";
  return note;
}

}  // namespace noisescope
