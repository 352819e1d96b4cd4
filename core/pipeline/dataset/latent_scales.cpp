#include "pipeline/dataset/latent_scales.h"

#include "data/formats/latent_spaces.h"

namespace noisescope::pipeline {

std::vector<LatentScale> latentScales() {
  std::vector<LatentScale> scales;
  for (const LatentCacheKind& kind : latentCacheKinds())
    scales.push_back({kind.tool + ":" + kind.model, kind.vae, kind.cacheIsNormalised});
  return scales;
}

}  // namespace noisescope::pipeline
