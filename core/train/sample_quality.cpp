#include "train/sample_quality.h"

#include <ATen/ATen.h>

#include "data/kmer_spectrum.h"
#include "data/transforms.h"
#include "train/dataset_tensor.h"
#include "util/error.h"

namespace noisescope::train {
namespace {

bool isDna(const std::vector<int64_t>& shape) {
  return shape.size() == 2 && shape[1] == 4;
}

Dataset asDataset(const at::Tensor& samples, const Dataset& like) {
  Dataset d;
  d.name = "samples";
  d.source = "generated samples";
  d.kind = like.kind;
  d.sampleShape = like.sampleShape;
  const auto flat = samples.to(at::kCPU, at::kFloat).contiguous();
  d.values.assign(flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel());
  return d;
}

}  // namespace

at::Tensor roundDiscrete(const at::Tensor& samples, const std::vector<int64_t>& sampleShape) {
  if (isDna(sampleShape)) {
    const auto best = samples.argmax(-1, true);
    return at::full_like(samples, -1.0).scatter_(-1, best, 1.0);
  }
  return at::where(samples >= 0, at::ones_like(samples), -at::ones_like(samples));
}

SampleQuality scoreSamples(const at::Tensor& samples, const Dataset& reference, bool discrete,
                           const FeatureNetwork* features) {
  const auto shape = samples.sizes().vec();
  if (shape.size() != reference.sampleShape.size() + 1 ||
      std::vector<int64_t>(shape.begin() + 1, shape.end()) != reference.sampleShape)
    throw InputError(reference.source, "generated samples do not have the held-out data's shape " +
                                           reference.shapeString());
  const bool dna = isDna(reference.sampleShape);
  if (!features && !dna)
    throw InputError(reference.source,
                     "sample quality of non-sequence data needs a feature network "
                     "(noisescope-cli quality train-features)");
  const auto x = discrete ? roundDiscrete(samples, reference.sampleShape) : samples;
  SampleQuality q;
  q.samples = x.size(0);
  q.reference = reference.size();
  if (features) {
    q.fd = featureFrechetDistance(*features, x, reference);
    q.featureNetwork = features->info().path;
    q.featureAccuracy = features->info().testAccuracy;
  }
  if (dna) {
    const auto k = kmerSpectrumDistance(asDataset(x, reference), reference, 6);
    q.kmerJs = k.mean;
    q.kmerJsPerK = k.jsBits;
  }
  return q;
}

std::vector<SampleQuality> realAgainstReal(const Dataset& real, const Dataset& reference,
                                           int64_t count, int64_t repeats, uint64_t seed,
                                           bool discrete, const FeatureNetwork* features) {
  if (count < 1 || count > real.size())
    throw InputError(real.source, "the floor needs " + std::to_string(count) +
                                      " real samples, but the set has " +
                                      std::to_string(real.size()));
  std::vector<SampleQuality> out;
  for (int64_t r = 0; r < repeats; ++r)
    out.push_back(scoreSamples(datasetTensor(randomSubset(real, count, seed + uint64_t(r))),
                               reference, discrete, features));
  return out;
}

}  // namespace noisescope::train
