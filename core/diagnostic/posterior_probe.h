#pragma once
// The posterior of the empirical optimal denoiser for ONE chosen sample across a row of σ values:
// what the GUI shows when the user picks a sample (noisy input, posterior mean, how peaked the
// posterior is). Same engine and noise convention as the diagnostic: one ε for every σ.
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "util/progress.h"

namespace noisescope {

struct PosteriorProbe {
  int64_t sampleIndex = 0;
  std::vector<int64_t> sampleShape;
  std::vector<double> sigma;
  std::vector<float> clean;          // x_j (D values)
  std::vector<float> noisy;          // [level][D]: y = x_j + σ·ε
  std::vector<float> posteriorMean;  // [level][D]: E[x0 | y]
  std::vector<double> maxWeight;
  std::vector<double> weightEntropy;  // nats
  std::vector<double> effectiveSampleSize;
  std::vector<double> posteriorVariance;  // tr Cov(x0 | y)
  std::vector<double> squaredError;       // ‖x_j − E[x0 | y]‖²

  int64_t dim() const { return static_cast<int64_t>(clean.size()); }
  const float* noisyAt(int level) const { return noisy.data() + level * dim(); }
  const float* meanAt(int level) const { return posteriorMean.data() + level * dim(); }
};

struct ProbeOptions {
  uint64_t seed = 0;
  std::string device = "auto";
  int64_t memoryBytes = int64_t{256} << 20;
};

// Throws InputError when sampleIndex is outside the dataset or a σ is not positive.
PosteriorProbe probePosterior(const Dataset& dataset, int64_t sampleIndex,
                              const std::vector<double>& sigmas, const ProbeOptions& options = {},
                              const Progress& progress = {});

}  // namespace noisescope
