#include "train/networks.h"

#include <torch/torch.h>

#include <cmath>
#include <numeric>

#include <nlohmann/json.hpp>

#include "schedule/preconditioning.h"
#include "util/error.h"

namespace noisescope::train {
namespace {

namespace nn = torch::nn;

// Sinusoidal features of c_noise followed by a small MLP. Frequencies are log-spaced over
// [1, 100] rad per unit of c_noise, which spans ≈ 2.7 units on [0.002, 80].
struct NoiseEmbeddingImpl : nn::Module {
  explicit NoiseEmbeddingImpl(int64_t size) {
    const int64_t half = size / 2;
    frequencies = register_buffer(
        "frequencies", torch::exp(torch::linspace(0.0, std::log(100.0), half, torch::kFloat32)));
    fc1 = register_module("fc1", nn::Linear(size, size));
    fc2 = register_module("fc2", nn::Linear(size, size));
  }
  torch::Tensor forward(const torch::Tensor& cNoise) {
    const auto angles = cNoise.unsqueeze(1) * frequencies.unsqueeze(0);
    auto e = torch::cat({torch::cos(angles), torch::sin(angles)}, 1);
    return fc2(torch::silu(fc1(e)));
  }
  torch::Tensor frequencies;
  nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(NoiseEmbedding);

// Residual MLP on flattened samples; the embedding enters every hidden layer.
struct MlpNetImpl : nn::Module {
  MlpNetImpl(int64_t dim, int64_t width, int64_t depth, int64_t embedding) {
    embed = register_module("embed", NoiseEmbedding(embedding));
    input = register_module("input", nn::Linear(dim + embedding, width));
    for (int64_t i = 0; i < depth; ++i) {
      hidden.push_back(register_module("hidden" + std::to_string(i), nn::Linear(width, width)));
      inject.push_back(register_module("inject" + std::to_string(i), nn::Linear(embedding, width)));
    }
    output = register_module("output", nn::Linear(width, dim));
  }
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& cNoise) {
    const auto e = embed(cNoise);
    auto h = torch::silu(input(torch::cat({x.flatten(1), e}, 1)));
    for (size_t i = 0; i < hidden.size(); ++i) h = h + torch::silu(hidden[i](h) + inject[i](e));
    return output(h).view(x.sizes());
  }
  NoiseEmbedding embed{nullptr};
  nn::Linear input{nullptr}, output{nullptr};
  std::vector<nn::Linear> hidden, inject;
};
TORCH_MODULE(MlpNet);

// GroupNorm → SiLU → conv, twice, with the embedding added in between; 1×1 skip when the channel
// count changes. `Conv` is Conv1d or Conv2d.
template <typename Conv, typename ConvOptions>
struct ResBlockImpl : nn::Module {
  ResBlockImpl(int64_t in, int64_t out, int64_t embedding, int64_t kernel, int64_t dilation) {
    norm1 = register_module("norm1", nn::GroupNorm(groupNormGroups(in), in));
    conv1 = register_module(
        "conv1",
        Conv(ConvOptions(in, out, kernel).padding(dilation * (kernel / 2)).dilation(dilation)));
    emb = register_module("emb", nn::Linear(embedding, out));
    norm2 = register_module("norm2", nn::GroupNorm(groupNormGroups(out), out));
    conv2 = register_module("conv2", Conv(ConvOptions(out, out, kernel).padding(kernel / 2)));
    if (in != out) skip = register_module("skip", Conv(ConvOptions(in, out, 1)));
  }
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& e) {
    auto h = conv1(torch::silu(norm1(x)));
    auto bias = emb(e);
    while (bias.dim() < h.dim()) bias = bias.unsqueeze(-1);
    h = conv2(torch::silu(norm2(h + bias)));
    return h + (skip ? skip(x) : x);
  }
  nn::GroupNorm norm1{nullptr}, norm2{nullptr};
  Conv conv1{nullptr}, conv2{nullptr}, skip{nullptr};
  nn::Linear emb{nullptr};
};
using ResBlock2dImpl = ResBlockImpl<nn::Conv2d, nn::Conv2dOptions>;
using ResBlock1dImpl = ResBlockImpl<nn::Conv1d, nn::Conv1dOptions>;
TORCH_MODULE(ResBlock2d);
TORCH_MODULE(ResBlock1d);

// Two resolutions down (average pooling), a middle block, two up (nearest), skip connections by
// concatenation. Channels c, 2c, 2c.
struct UNetImpl : nn::Module {
  UNetImpl(int64_t inChannels, int64_t c, int64_t embedding) {
    embed = register_module("embed", NoiseEmbedding(embedding));
    stem = register_module("stem", nn::Conv2d(nn::Conv2dOptions(inChannels, c, 3).padding(1)));
    down0 = register_module("down0", ResBlock2d(c, c, embedding, 3, 1));
    down1 = register_module("down1", ResBlock2d(c, 2 * c, embedding, 3, 1));
    mid = register_module("mid", ResBlock2d(2 * c, 2 * c, embedding, 3, 1));
    up1 = register_module("up1", ResBlock2d(4 * c, 2 * c, embedding, 3, 1));
    up0 = register_module("up0", ResBlock2d(3 * c, c, embedding, 3, 1));
    outNorm = register_module("out_norm", nn::GroupNorm(groupNormGroups(c), c));
    out = register_module("out", nn::Conv2d(nn::Conv2dOptions(c, inChannels, 3).padding(1)));
  }
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& cNoise) {
    const auto e = embed(cNoise);
    auto h0 = down0(stem(x), e);   // H
    auto h1 = down1(pool(h0), e);  // H/2
    auto h = mid(pool(h1), e);     // H/4
    h = up1(torch::cat({upsample(h), h1}, 1), e);
    h = up0(torch::cat({upsample(h), h0}, 1), e);
    return out(torch::silu(outNorm(h)));
  }
  // 2×2 mean and nearest ×2, written with plain tensor ops so that the TorchScript export
  // (torchscript_export.cpp) computes exactly the same thing.
  static torch::Tensor pool(const torch::Tensor& h) {
    return h.view({h.size(0), h.size(1), h.size(2) / 2, 2, h.size(3) / 2, 2}).mean({3, 5});
  }
  static torch::Tensor upsample(const torch::Tensor& h) {
    return h.repeat_interleave(2, 2).repeat_interleave(2, 3);
  }
  NoiseEmbedding embed{nullptr};
  nn::Conv2d stem{nullptr}, out{nullptr};
  ResBlock2d down0{nullptr}, down1{nullptr}, mid{nullptr}, up1{nullptr}, up0{nullptr};
  nn::GroupNorm outNorm{nullptr};
};
TORCH_MODULE(UNet);

// Residual dilated 1-D convolutions over the sequence axis of {L, 4} one-hot samples.
struct Conv1dNetImpl : nn::Module {
  Conv1dNetImpl(int64_t alphabet, int64_t c, int64_t blocks, int64_t embedding) {
    embed = register_module("embed", NoiseEmbedding(embedding));
    stem = register_module("stem", nn::Conv1d(nn::Conv1dOptions(alphabet, c, 5).padding(2)));
    for (int64_t i = 0; i < blocks; ++i)
      body.push_back(register_module("block" + std::to_string(i),
                                     ResBlock1d(c, c, embedding, 5, int64_t(1) << (i % 4))));
    outNorm = register_module("out_norm", nn::GroupNorm(groupNormGroups(c), c));
    out = register_module("out", nn::Conv1d(nn::Conv1dOptions(c, alphabet, 1)));
  }
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& cNoise) {
    const auto e = embed(cNoise);
    auto h = stem(x.transpose(1, 2));  // [B, 4, L]
    for (auto& block : body) h = block(h, e);
    return out(torch::silu(outNorm(h))).transpose(1, 2);
  }
  NoiseEmbedding embed{nullptr};
  nn::Conv1d stem{nullptr}, out{nullptr};
  std::vector<ResBlock1d> body;
  nn::GroupNorm outNorm{nullptr};
};
TORCH_MODULE(Conv1dNet);

}  // namespace

// The raw network F plus the preconditioning around it.
struct Denoiser::Impl : nn::Module {
  explicit Impl(const NetworkSpec& s) : pre{s.sigmaData} {
    const auto& shape = s.sampleShape;
    if (s.kind == "mlp") {
      const int64_t dim =
          std::accumulate(shape.begin(), shape.end(), int64_t(1), std::multiplies<int64_t>());
      mlp = register_module("net", MlpNet(dim, s.width, s.depth, s.embedding));
    } else if (s.kind == "unet") {
      unet = register_module("net", UNet(shape[0], s.channels, s.embedding));
    } else {
      conv1d = register_module("net", Conv1dNet(shape[1], s.channels, s.blocks, s.embedding));
    }
  }
  torch::Tensor raw(const torch::Tensor& x, const torch::Tensor& cNoise) {
    if (mlp) return mlp(x, cNoise);
    if (unet) return unet(x, cNoise);
    return conv1d(x, cNoise);
  }
  // D(x; σ) = c_skip·x + c_out·F(c_in·x, c_noise), by schedule/preconditioning.h.
  torch::Tensor denoise(const torch::Tensor& x, const torch::Tensor& sigma) {
    const auto s = sigma.to(x.scalar_type());
    std::vector<int64_t> shape(x.dim(), 1);
    shape[0] = x.size(0);
    return pre.denoise(
        x, s,
        [this](const torch::Tensor& in, const torch::Tensor& cNoise) { return raw(in, cNoise); },
        [&shape](const torch::Tensor& c) { return c.view(shape); });
  }
  schedule::EdmPreconditioning pre;
  MlpNet mlp{nullptr};
  UNet unet{nullptr};
  Conv1dNet conv1d{nullptr};
};

namespace {

// "auto" picks by the data (images with sides divisible by 4 and at least 8 → unet, {L, alphabet}
// sequences → conv1d, else mlp); an explicit kind must fit the sample shape (InputError).
std::string networkKindFor(const std::string& asked, const std::vector<int64_t>& shape,
                           SampleKind kind, const std::string& source) {
  const bool imageShape =
      shape.size() == 3 && shape[1] % 4 == 0 && shape[2] % 4 == 0 && shape[1] >= 8 && shape[2] >= 8;
  const bool sequenceShape = shape.size() == 2 && shape[0] >= 1 && shape[1] >= 1;
  if (asked == "auto") {
    if (kind == SampleKind::Image && imageShape) return "unet";
    if (kind == SampleKind::Sequence && sequenceShape) return "conv1d";
    return "mlp";
  }
  if (asked == "unet" && !imageShape)
    throw InputError(source,
                     "key 'model.kind': unet needs images {C, H, W} with H and W "
                     "divisible by 4 and at least 8; the data has samples of shape " +
                         sampleShapeText(shape));
  if (asked == "conv1d" && !sequenceShape)
    throw InputError(source,
                     "key 'model.kind': conv1d needs sequences {L, alphabet}; the data "
                     "has samples of shape " +
                         sampleShapeText(shape));
  return asked;
}

}  // namespace

NetworkSpec resolveNetworkSpec(const ModelSettings& m, const std::vector<int64_t>& shape,
                               SampleKind kind, double sigmaData, const std::string& source) {
  std::string networkKind = networkKindFor(m.kind, shape, kind, source);
  if (shape.empty()) throw InputError(source, "the dataset has an empty sample shape");
  // NetworkSpec's fields in their order: the kind, the sample, the settings' sizes as given,
  // σ_data.
  return NetworkSpec{std::move(networkKind),
                     shape,
                     m.width,
                     m.depth,
                     m.channels,
                     m.blocks,
                     m.embedding,
                     sigmaData};
}

nlohmann::json toJson(const NetworkSpec& s) {
  return {{"kind", s.kind},           {"sample_shape", s.sampleShape}, {"width", s.width},
          {"depth", s.depth},         {"channels", s.channels},        {"blocks", s.blocks},
          {"embedding", s.embedding}, {"sigma_data", s.sigmaData}};
}

NetworkSpec networkSpecFromJson(const nlohmann::json& j, const std::string& source) {
  try {
    // Read as the settings a config gives, then resolved like one: one path for both.
    ModelSettings m;
    m.kind = j.at("kind").get<std::string>();
    m.width = j.at("width").get<int64_t>();
    m.depth = j.at("depth").get<int64_t>();
    m.channels = j.at("channels").get<int64_t>();
    m.blocks = j.at("blocks").get<int64_t>();
    m.embedding = j.at("embedding").get<int64_t>();
    const auto sampleShape = j.at("sample_shape").get<std::vector<int64_t>>();
    const double sigmaData = j.at("sigma_data").get<double>();
    const bool sizesOk = m.width >= 1 && m.width <= 8192 && m.depth >= 1 && m.depth <= 32 &&
                         m.channels >= 4 && m.channels <= 1024 && m.blocks >= 1 && m.blocks <= 64 &&
                         m.embedding >= 4 && m.embedding <= 4096 && m.embedding % 2 == 0 &&
                         sigmaData > 0 && std::isfinite(sigmaData);
    int64_t elements = 1;
    for (auto d : sampleShape) {
      if (d < 1 || d > (1 << 24)) throw InputError(source, "network sample shape is invalid");
      elements *= d;
      if (elements > (int64_t(1) << 28)) throw InputError(source, "network sample is too large");
    }
    if (!sizesOk || sampleShape.empty())
      throw InputError(source, "network description holds out-of-range sizes");
    if (m.kind != "mlp" && m.kind != "unet" && m.kind != "conv1d")
      throw InputError(source, "unknown network kind '" + m.kind + "'");
    const SampleKind kind = m.kind == "unet"     ? SampleKind::Image
                            : m.kind == "conv1d" ? SampleKind::Sequence
                                                 : SampleKind::Vector;
    return resolveNetworkSpec(m, sampleShape, kind, sigmaData, source);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source, std::string("malformed network description: ") + e.what());
  }
}

Denoiser::Denoiser(const NetworkSpec& spec, c10::Device device)
    : spec_(spec), device_(device), impl_(std::make_unique<Impl>(spec)) {
  impl_->to(device);
}

Denoiser::~Denoiser() = default;

at::Tensor Denoiser::forward(const at::Tensor& x, const at::Tensor& sigma) const {
  return impl_->denoise(x, sigma);
}

at::Tensor Denoiser::network(const at::Tensor& input, const at::Tensor& cNoise) const {
  return impl_->raw(input, cNoise);
}

const schedule::EdmPreconditioning& Denoiser::preconditioning() const {
  return impl_->pre;
}

std::vector<std::pair<std::string, at::Tensor>> Denoiser::namedParameters() const {
  std::vector<std::pair<std::string, at::Tensor>> out;
  for (const auto& item : impl_->named_parameters(true)) out.emplace_back(item.key(), item.value());
  return out;
}

std::vector<at::Tensor> Denoiser::parameters() const {
  return impl_->parameters(true);
}

int64_t Denoiser::parameterCount() const {
  int64_t n = 0;
  for (const auto& p : impl_->parameters(true)) n += p.numel();
  return n;
}

void Denoiser::setTraining(bool training) {
  impl_->train(training);
}

void Denoiser::copyParametersFrom(const Denoiser& other) {
  torch::NoGradGuard noGrad;
  const auto mine = impl_->parameters(true);
  const auto theirs = other.impl_->parameters(true);
  if (mine.size() != theirs.size()) throw std::logic_error("copyParametersFrom: specs differ");
  for (size_t i = 0; i < mine.size(); ++i) mine[i].copy_(theirs[i]);
}

int64_t groupNormGroups(int64_t channels) {
  return std::gcd<int64_t>(8, channels);
}

}  // namespace noisescope::train
