#pragma once
// Scores generated samples against held-out data with the measures of THEORY §11, the one place
// the CLI (`quality score`), the trainer's evaluation and the race use:
//  * fd: Fréchet distance in the features of a NoiseScope feature network (images: classifier on
//    the labels; DNA: masked-base predictor), when one is given;
//  * kmer_js: for DNA windows, the Jensen–Shannon divergence (bits) of the k-mer spectra, k = 1…6,
//    averaged over k, of argmax-per-position windows.
// Discrete data (binarised images, one-hot DNA) is rounded before scoring — images to ±1 by sign,
// DNA to the one-hot ±1 of the argmax base — so samples are judged as the data they imitate.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "train/feature_network.h"

namespace noisescope::train {

struct SampleQuality {
  int64_t samples = 0;    // generated samples scored (FD is biased at small counts: compare equal)
  int64_t reference = 0;  // held-out samples scored against
  double fd = std::numeric_limits<double>::quiet_NaN();
  std::string featureNetwork;  // its path, when fd was computed
  double featureAccuracy = std::numeric_limits<double>::quiet_NaN();
  double kmerJs = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> kmerJsPerK;  // k = 1 … 6
};

// Rounds samples [N, ...] of discrete data as above; other data is returned unchanged.
at::Tensor roundDiscrete(const at::Tensor& samples, const std::vector<int64_t>& sampleShape);

// samples: [N, ...reference.sampleShape]. `features` may be null (no FD). Throws InputError when
// the shapes differ or when nothing can be computed (no feature network and not DNA).
SampleQuality scoreSamples(const at::Tensor& samples, const Dataset& reference, bool discrete,
                           const FeatureNetwork* features);

// The floor of these measures at a comparison's counts: real data scored as if it were generated.
// Draw r (0 … repeats−1) is a random subset of `count` samples of `real` (seed `seed + r`),
// scored against `reference` by scoreSamples. A generated set cannot be expected to score below
// it at the same counts: FD and the k-mer JS are biased upwards by finite sample counts. Throws
// InputError when `real` has fewer than `count` samples.
std::vector<SampleQuality> realAgainstReal(const Dataset& real, const Dataset& reference,
                                           int64_t count, int64_t repeats, uint64_t seed,
                                           bool discrete, const FeatureNetwork* features);

}  // namespace noisescope::train
