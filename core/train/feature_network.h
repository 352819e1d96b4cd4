#pragma once
// The small networks whose features the sample-quality Fréchet distance is computed in (THEORY
// §11). NoiseScope trains them itself, because Inception (FID) and Sei (Sei-FID) do not fit the
// data it works on or the machine it runs on:
//  * images: a classifier on the dataset's labels (two 3×3 conv layers, each followed by 2×2
//    average pooling, then a fully connected feature layer and the class layer); the features are
//    the feature layer's ReLU activations;
//  * DNA windows ({L, 4}): a masked-base predictor (self-supervised: 15 % of the positions are set
//    to 0 in all four channels and the network predicts their bases from the context), three
//    conv1d layers of growing dilation (receptive field 29 bases) and a 1×1 output layer; the
//    features are the last hidden layer's F activations averaged over positions (every weight
//    behind them is trained by the task).
// The network is defined once, as TorchScript source, trained through that module and saved as it
// is: the file is a reusable TorchScript module with features(x) → [B, F] for x shaped like the
// data ([B, ...sampleShape]) and attributes task, test_accuracy, feature_dim, trained_on.
#include <torch/script.h>

#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/frechet_distance.h"

namespace noisescope::train {

struct FeatureNetworkSettings {
  int64_t epochs = 4;
  int64_t batchSize = 64;
  double lr = 2e-3;
  int64_t channels = 16;  // of the first conv layer (the second has twice as many)
  int64_t features = 64;  // F, the dimension the Fréchet distance is computed in
  uint64_t seed = 1;
};

struct FeatureNetworkInfo {
  std::string path;
  std::string task;           // "classifier" or "masked-base"
  std::string trainedOn;      // the training dataset's source
  double testAccuracy = 0.0;  // class accuracy / masked-base accuracy on the held-out set
  int64_t featureDim = 0;
  std::vector<int64_t> sampleShape;
};

// Trains the network that fits the data (images with labels → classifier; {L, 4} → masked-base)
// on `train`, measures its accuracy on `test`, and saves it to `path` (atomically). Throws
// InputError for images without labels and for shapes neither network takes.
FeatureNetworkInfo trainFeatureNetwork(const Dataset& train, const Dataset& test,
                                       const FeatureNetworkSettings& settings,
                                       const std::string& path);

class FeatureNetwork {
 public:
  // Loads and checks a file written by trainFeatureNetwork (InputError naming the file otherwise).
  explicit FeatureNetwork(const std::string& path);
  const FeatureNetworkInfo& info() const { return info_; }
  // Features of rows shaped [N, ...sampleShape] (float), computed in chunks: [N, F].
  at::Tensor features(const at::Tensor& x) const;
  // The Gaussian fitted to a dataset's features (shape must match the network's).
  GaussianFit gaussian(const Dataset& data) const;
  GaussianFit gaussian(const at::Tensor& samples, const std::string& what) const;

 private:
  FeatureNetworkInfo info_;
  mutable torch::jit::Module module_;
};

// Fréchet distance between the features of `samples` and of `reference`.
double featureFrechetDistance(const FeatureNetwork& network, const at::Tensor& samples,
                              const Dataset& reference);

}  // namespace noisescope::train
