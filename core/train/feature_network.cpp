#include "train/feature_network.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/optim/adam.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "tensor/torchscript_model.h"
#include "train/dataset_tensor.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace noisescope::train {
namespace {

constexpr int64_t kFeatureBatch = 256;
constexpr double kMaskFraction = 0.15;

bool isImage(const Dataset& d) {
  return d.sampleShape.size() == 3;
}
bool isDna(const Dataset& d) {
  return d.sampleShape.size() == 2 && d.sampleShape[1] == 4;
}

// PyTorch's default initialisation: uniform in ±1/√fan_in, drawn from our own generator so that
// training the feature network leaves torch's global generator (the trainer's) alone.
void addParameter(torch::jit::Module& m, const std::string& name, std::vector<int64_t> shape,
                  int64_t fanIn, at::Generator& gen) {
  const double bound = 1.0 / std::sqrt(double(fanIn));
  auto w = (at::rand(shape, gen, at::kFloat) * 2.0 - 1.0) * bound;
  m.register_parameter(name, w.set_requires_grad(true), false);
}

std::string classifierSource() {
  return R"(
def trunk(self, x: Tensor) -> Tensor:
    h = torch.relu(torch.conv2d(x, self.c1_weight, self.c1_bias, [1, 1], [1, 1]))
    h = torch.avg_pool2d(h, [2, 2])
    h = torch.relu(torch.conv2d(h, self.c2_weight, self.c2_bias, [1, 1], [1, 1]))
    h = torch.avg_pool2d(h, [2, 2])
    return torch.relu(torch.linear(torch.flatten(h, 1), self.f_weight, self.f_bias))

def features(self, x: Tensor) -> Tensor:
    return self.trunk(x)

def forward(self, x: Tensor) -> Tensor:
    return torch.linear(self.trunk(x), self.out_weight, self.out_bias)
)";
}

std::string maskedBaseSource() {
  return R"(
def hidden(self, x: Tensor) -> Tensor:
    h = x.transpose(1, 2)
    h = torch.relu(torch.conv1d(h, self.c1_weight, self.c1_bias, [1], [2], [1]))
    h = torch.relu(torch.conv1d(h, self.c2_weight, self.c2_bias, [1], [4], [2]))
    return torch.relu(torch.conv1d(h, self.c3_weight, self.c3_bias, [1], [8], [4]))

def features(self, x: Tensor) -> Tensor:
    return torch.mean(self.hidden(x), [2])

def forward(self, x: Tensor) -> Tensor:
    return torch.conv1d(self.hidden(x), self.out_weight, self.out_bias)
)";
}

torch::jit::Module buildClassifier(const Dataset& d, int64_t classes,
                                   const FeatureNetworkSettings& s, at::Generator& gen) {
  const int64_t c = d.sampleShape[0], h = d.sampleShape[1] / 4, w = d.sampleShape[2] / 4;
  if (h < 1 || w < 1)
    throw InputError(d.source,
                     "images of " + d.shapeString() + " are too small for the classifier");
  torch::jit::Module m("NoiseScopeFeatureClassifier");
  const int64_t c1 = s.channels, c2 = 2 * s.channels;
  addParameter(m, "c1_weight", {c1, c, 3, 3}, c * 9, gen);
  addParameter(m, "c1_bias", {c1}, c * 9, gen);
  addParameter(m, "c2_weight", {c2, c1, 3, 3}, c1 * 9, gen);
  addParameter(m, "c2_bias", {c2}, c1 * 9, gen);
  addParameter(m, "f_weight", {s.features, c2 * h * w}, c2 * h * w, gen);
  addParameter(m, "f_bias", {s.features}, c2 * h * w, gen);
  addParameter(m, "out_weight", {classes, s.features}, s.features, gen);
  addParameter(m, "out_bias", {classes}, s.features, gen);
  m.define(classifierSource());
  return m;
}

torch::jit::Module buildMaskedBase(const FeatureNetworkSettings& s, at::Generator& gen) {
  torch::jit::Module m("NoiseScopeFeatureMaskedBase");
  const int64_t c = 2 * s.channels, f = s.features;
  addParameter(m, "c1_weight", {c, 4, 5}, 4 * 5, gen);
  addParameter(m, "c1_bias", {c}, 4 * 5, gen);
  addParameter(m, "c2_weight", {c, c, 5}, c * 5, gen);
  addParameter(m, "c2_bias", {c}, c * 5, gen);
  addParameter(m, "c3_weight", {f, c, 5}, c * 5, gen);
  addParameter(m, "c3_bias", {f}, c * 5, gen);
  addParameter(m, "out_weight", {4, f, 1}, f, gen);
  addParameter(m, "out_bias", {4}, f, gen);
  m.define(maskedBaseSource());
  return m;
}

// Masked-base inputs: the masked positions [B, L] become 0 in all four channels.
at::Tensor masked(const at::Tensor& x, const at::Tensor& mask) {
  return x * (~mask).unsqueeze(-1).to(x.scalar_type());
}

at::Tensor forward(torch::jit::Module& m, const at::Tensor& x) {
  return m.forward({x}).toTensor();
}

// Fraction of correct predictions on `test` (classes, or the bases at masked positions).
double accuracy(torch::jit::Module& m, const Dataset& test, bool dna, uint64_t seed) {
  c10::AutoGradMode noGrad(false);
  const auto x = datasetTensor(test);
  auto gen = at::detail::createCPUGenerator(seed ^ 0xacc0ULL);
  int64_t correct = 0, total = 0;
  for (int64_t b = 0; b < x.size(0); b += kFeatureBatch) {
    auto xb = x.narrow(0, b, std::min(kFeatureBatch, x.size(0) - b));
    if (dna) {
      const auto mask = at::rand({xb.size(0), xb.size(1)}, gen, at::kFloat) < kMaskFraction;
      const auto pred = forward(m, masked(xb, mask)).argmax(1);
      const auto truth = xb.argmax(2);
      correct += (pred.eq(truth) & mask).sum().item<int64_t>();
      total += mask.sum().item<int64_t>();
    } else {
      const auto pred = forward(m, xb).argmax(1);
      const auto labels =
          at::from_blob(const_cast<int32_t*>(test.labels.data()) + b, {xb.size(0)}, at::kInt)
              .to(at::kLong);
      correct += pred.eq(labels).sum().item<int64_t>();
      total += xb.size(0);
    }
  }
  return total > 0 ? double(correct) / double(total) : 0.0;
}

}  // namespace

FeatureNetworkInfo trainFeatureNetwork(const Dataset& train, const Dataset& test,
                                       const FeatureNetworkSettings& settings,
                                       const std::string& path) {
  const bool dna = isDna(train);
  if (!dna && !isImage(train))
    throw InputError(train.source,
                     "a feature network needs images (C×H×W) or DNA windows (L×4), "
                     "got " +
                         train.shapeString());
  if (test.sampleShape != train.sampleShape)
    throw InputError(test.source, "held-out shape " + test.shapeString() +
                                      " differs from the training shape " + train.shapeString());
  int64_t classes = 0;
  if (!dna) {
    if (!train.hasLabels() || !test.hasLabels())
      throw InputError(train.hasLabels() ? test.source : train.source,
                       "the image feature network is a classifier and needs labels");
    for (const auto* d : {&train, &test})
      for (int32_t l : d->labels) {
        if (l < 0) throw InputError(d->source, "negative label " + std::to_string(l));
        classes = std::max<int64_t>(classes, int64_t(l) + 1);
      }
  }
  if (settings.epochs < 1 || settings.batchSize < 1 || settings.features < 1 ||
      settings.channels < 1 || !(settings.lr > 0))
    throw InputError("feature network",
                     "epochs, batch size, channels, features and lr must be > 0");

  auto gen = at::detail::createCPUGenerator(settings.seed);
  auto module =
      dna ? buildMaskedBase(settings, gen) : buildClassifier(train, classes, settings, gen);
  std::vector<at::Tensor> params;
  for (const auto& p : module.parameters()) params.push_back(p);
  torch::optim::Adam optimiser(params, torch::optim::AdamOptions(settings.lr));

  const auto x = datasetTensor(train);
  at::Tensor labels;
  if (!dna)
    labels = at::from_blob(const_cast<int32_t*>(train.labels.data()), {train.size()}, at::kInt)
                 .to(at::kLong);
  for (int64_t epoch = 0; epoch < settings.epochs; ++epoch) {
    const auto order = at::randperm(train.size(), gen, at::kLong);
    for (int64_t b = 0; b < train.size(); b += settings.batchSize) {
      const auto rows = order.narrow(0, b, std::min(settings.batchSize, train.size() - b));
      const auto xb = x.index_select(0, rows);
      at::Tensor loss;
      if (dna) {
        const auto mask = at::rand({xb.size(0), xb.size(1)}, gen, at::kFloat) < kMaskFraction;
        if (!mask.any().item<bool>()) continue;
        const auto logits = forward(module, masked(xb, mask)).permute({0, 2, 1});  // [B, L, 4]
        loss = at::cross_entropy_loss(logits.index({mask}), xb.argmax(2).index({mask}));
      } else {
        loss = at::cross_entropy_loss(forward(module, xb), labels.index_select(0, rows));
      }
      optimiser.zero_grad();
      loss.backward();
      optimiser.step();
    }
  }

  FeatureNetworkInfo info;
  info.path = path;
  info.task = dna ? "masked-base" : "classifier";
  info.trainedOn = train.source;
  info.testAccuracy = accuracy(module, test, dna, settings.seed);
  info.featureDim = settings.features;
  info.sampleShape = train.sampleShape;
  for (auto p : module.parameters()) p.set_requires_grad(false);
  module.register_attribute("task", c10::StringType::get(), info.task);
  module.register_attribute("trained_on", c10::StringType::get(), info.trainedOn);
  module.register_attribute("test_accuracy", c10::FloatType::get(), info.testAccuracy);
  module.register_attribute("feature_dim", c10::IntType::get(), info.featureDim);
  module.register_attribute("sample_shape", c10::ListType::ofInts(), c10::IValue(info.sampleShape));
  saveTorchScriptAtomically(module, path, "the feature network");
  return info;
}

FeatureNetwork::FeatureNetwork(const std::string& path) {
  if (!std::filesystem::is_regular_file(path))
    throw InputError(path, "no such feature network file");
  try {
    module_ = torch::jit::load(path, c10::Device(c10::kCPU));
  } catch (const c10::Error& e) {
    throw InputError(
        path, std::string("not a TorchScript feature network: ") + e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw InputError(path, std::string("not a TorchScript feature network: ") + e.what());
  }
  for (const char* name : {"task", "trained_on", "test_accuracy", "feature_dim", "sample_shape"})
    if (!module_.hasattr(name))
      throw InputError(path, std::string("not a NoiseScope feature network (no attribute ") + name +
                                 "; write one with `noisescope-cli quality train-features`)");
  if (!module_.find_method("features"))
    throw InputError(path, "not a NoiseScope feature network (no features method)");
  info_.path = path;
  info_.task = module_.attr("task").toStringRef();
  info_.trainedOn = module_.attr("trained_on").toStringRef();
  info_.testAccuracy = module_.attr("test_accuracy").toDouble();
  info_.featureDim = module_.attr("feature_dim").toInt();
  info_.sampleShape = module_.attr("sample_shape").toIntVector();
  module_.eval();
}

at::Tensor FeatureNetwork::features(const at::Tensor& x) const {
  const auto shape = x.sizes().vec();
  if (std::vector<int64_t>(shape.begin() + (shape.empty() ? 0 : 1), shape.end()) !=
      info_.sampleShape)
    throw InputError(info_.path,
                     "samples do not have the shape the feature network was trained on");
  c10::AutoGradMode noGrad(false);
  std::vector<at::Tensor> parts;
  const auto input = x.to(at::kCPU, at::kFloat).contiguous();
  for (int64_t b = 0; b < input.size(0); b += kFeatureBatch) {
    auto chunk = input.narrow(0, b, std::min(kFeatureBatch, input.size(0) - b));
    parts.push_back(module_.get_method("features")({chunk}).toTensor());
  }
  return at::cat(parts, 0);
}

GaussianFit FeatureNetwork::gaussian(const at::Tensor& samples, const std::string& what) const {
  const auto f = features(samples).to(at::kDouble).contiguous();
  std::vector<double> rows(f.data_ptr<double>(), f.data_ptr<double>() + f.numel());
  return fitGaussian(rows, f.size(1), what);
}

GaussianFit FeatureNetwork::gaussian(const Dataset& data) const {
  return gaussian(datasetTensor(data), data.sourceOrName());
}

double featureFrechetDistance(const FeatureNetwork& network, const at::Tensor& samples,
                              const Dataset& reference) {
  return frechetDistance(network.gaussian(samples, "samples"), network.gaussian(reference));
}

}  // namespace noisescope::train
